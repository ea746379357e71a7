// Learned from a public Next.js app (formbricks): a wrapper is read by what the function it makes
// does, whatever its name says, and a package's call making a handler from an instance
// (`oauthProviderAuthServerMetadata(auth)`) wraps no handler.
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

describe('learned: Next.js wrappers read by their bodies', () => {
  it("a wrapper named for auth whose function only reads values and returns what it wraps is no guard; one refusing stays; a handler made from an auth instance has no wrapper", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'web', dependencies: { next: '^15.3.0', 'better-auth': '^1.2.0', '@better-auth/oauth-provider': '^1.0.0' } }),
      'lib/auth.ts': `import { betterAuth } from 'better-auth';
export const auth = betterAuth({ emailAndPassword: { enabled: true } });
`,
      'lib/wrappers.ts': `import { cookies } from 'next/headers';

type Handler = (req: Request, ctx: { author: string; userId?: string }) => Promise<Response>;

/** Names the author a page is filtered by; anyone may read. */
export const withAuthorName = (handler: Handler) => async (req: Request) => {
  const author = new URL(req.url).searchParams.get('author') ?? 'anonymous';
  return handler(req, { author });
};

/** A signed-in author only. */
export const withAuthor = (handler: Handler) => async (req: Request) => {
  const sid = (await cookies()).get('sid')?.value;
  if (!sid) return Response.json({ error: 'sign in' }, { status: 401 });
  return handler(req, { author: sid, userId: sid });
};
`,
      'app/api/authors/route.ts': `import { withAuthorName } from '../../../lib/wrappers';
export const GET = withAuthorName(async (_req, { author }) => Response.json({ author, posts: [] }));
`,
      'app/api/drafts/route.ts': `import { withAuthor } from '../../../lib/wrappers';
export const GET = withAuthor(async (_req, { userId }) => Response.json({ owner: userId, drafts: [] }));
`,
      'app/.well-known/oauth-authorization-server/route.ts': `import { oauthProviderAuthServerMetadata } from '@better-auth/oauth-provider';
import { auth } from '../../../lib/auth';
export const GET = oauthProviderAuthServerMetadata(auth);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(', ')}]`)).toEqual([
      '/.well-known/oauth-authorization-server []',
      '/api/authors []',
      '/api/drafts [withAuthor:auth:wrapper]',
    ]);
  });
});
