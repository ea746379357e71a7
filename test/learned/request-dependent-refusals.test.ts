// Learned from public Next.js and Hono servers (formbricks' API wrapper, a storage route): a
// refusal made only for some requests of a route guards none of its routes, and a wrapper's
// refusal skipped by a test of the URL lets the routes it names through.
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const guards = (res: Awaited<ReturnType<typeof check>>): string[] =>
  res.routes.map((r) => `${r.method} ${r.path} ${r.file} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);

describe('learned: refusals that depend on the request', () => {
  it("a wrapper refusing unless the URL is under /api/client/ (`return handler(req, caller)` after it) lets those routes through; a 401 nested under a test of a route parameter guards nothing", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'web', dependencies: { next: '^15.3.0', hono: '^4.7.0' } }),
      'lib/session.ts': `import { cookies } from 'next/headers';
export async function getSession(): Promise<{ userId: string } | null> {
  const sid = (await cookies()).get('sid')?.value;
  return sid ? { userId: sid } : null;
}
`,
      'lib/with-api.ts': `import type { NextRequest } from 'next/server';
import { getSession } from './session';

type Handler = (req: NextRequest, caller: { userId: string } | null) => Promise<Response>;

// every API route goes through here; the SDK's client routes are public by design
export function withApi(handler: Handler) {
  return async (req: NextRequest) => {
    const isClientRoute = req.nextUrl.pathname.startsWith('/api/client/');
    const caller = isClientRoute ? null : await getSession();
    if (!caller && !isClientRoute) {
      return Response.json({ error: 'unauthorized' }, { status: 401 });
    }
    return handler(req, caller);
  };
}
`,
      'app/api/client/[environmentId]/displays/route.ts': `import { withApi } from '../../../../../lib/with-api';
export const POST = withApi(async (req) => Response.json({ recorded: await req.json() }));
`,
      'app/api/management/surveys/route.ts': `import { withApi } from '../../../../lib/with-api';
export const GET = withApi(async (_req, caller) => Response.json({ owner: caller!.userId, surveys: [] }));
`,
      'app/storage/[access]/[file]/route.ts': `import { getSession } from '../../../../lib/session';

export async function GET(_req: Request, props: { params: Promise<{ access: string; file: string }> }) {
  const { access, file } = await props.params;
  // only private files need a session: /storage/public/<file> is served to anyone
  if (access === 'private') {
    const session = await getSession();
    if (!session) return Response.json({ error: 'unauthorized' }, { status: 401 });
  }
  return new Response(\`contents of \${file}\`);
}
`,
      'app/storage/archive/[file]/route.ts': `import { getSession } from '../../../../lib/session';

export async function GET(_req: Request, props: { params: Promise<{ file: string }> }) {
  const session = await getSession();
  if (!session) {
    console.warn('archive read without a session');
    return Response.json({ error: 'unauthorized' }, { status: 401 });
  }
  const { file } = await props.params;
  return new Response(\`archived \${file} for \${session.userId}\`);
}
`,
      'server/files.ts': `import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';

export const files = new Hono();
files.get('/files/:access/:name', (c) => {
  if (c.req.param('access') === 'private') {
    if (!getCookie(c, 'sid')) return c.json({ error: 'unauthorized' }, 401);
  }
  return c.text(\`contents of \${c.req.param('name')}\`);
});
`,
    });
    expect(guards(await check(dir))).toEqual([
      'POST /api/client/:environmentId/displays app/api/client/[environmentId]/displays/route.ts []',
      'GET /api/management/surveys app/api/management/surveys/route.ts [withApi:auth]',
      'GET /files/:access/:name server/files.ts []',
      'GET /storage/:access/:file app/storage/[access]/[file]/route.ts []',
      'GET /storage/archive/:file app/storage/archive/[file]/route.ts [(inline 401 check):auth]',
    ]);
  });
});
