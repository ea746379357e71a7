/**
 * Middleware and hooks that are no guard themselves but lead with a check: an app's `use` layer,
 * a Fastify hook, a Next.js middleware, or a route's middleware whose first statements call a
 * function that refuses the request (`await assertSignedIn(req); next()`). The check runs before
 * every route the layer applies to, as a route function's own leading checks do
 * (LinkContext.stageGuards), and lets through what the layer lets through before it (an
 * allowlist at its top), relative to the layer's mount path as the framework hands it the path.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

/** A module of checks: one throwing a 401 error, one throwing a plain error (no status), one a getter. */
const CHECKS = `export class HttpError extends Error {
  constructor(public readonly statusCode: number, message: string) {
    super(message);
  }
}

export async function assertSignedIn(request: { session?: { userId?: string } }): Promise<void> {
  if (!request.session?.userId) throw new HttpError(401, 'sign in');
}

/** Reads the session for the routes after it, which check it themselves: refuses nothing. */
export async function authMiddleware(request: { headers: Record<string, unknown> }): Promise<{ session: string | null }> {
  return { session: typeof request.headers.cookie === 'string' ? request.headers.cookie : null };
}

export function recordVisit(request: { headers: Record<string, unknown> }): void {
  if (!request.headers['user-agent']) throw new Error('no user agent');
}
`;

async function rows(dir: string): Promise<string[]> {
  const res = await check(dir);
  return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]${(r.skippedGuards ?? []).map((g) => ` ${g.name} lets through ${g.skips}`).join('')}`);
}

describe('layers leading with a check', () => {
  it("Express: an app.use() layer below a mount path, its allowlist read below it; a layer leading with something else, or with a call named for auth that refuses nothing, stays what it was", async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/checks.ts': CHECKS,
      'src/app.ts': `import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { assertSignedIn, authMiddleware, recordVisit } from './checks';

export const app = express();

app.use((req: Request, _res: Response, next: NextFunction) => {
  recordVisit(req);
  next();
});

app.use(async (req: Request, res: Response, next: NextFunction) => {
  const { session } = await authMiddleware(req);
  res.locals.session = session;
  next();
});

app.use('/api', async (req: Request, _res: Response, next: NextFunction) => {
  if (req.path === '/health') return next();
  await assertSignedIn(req);
  next();
});

app.get('/api/sites', (_req, res) => res.json([]));
app.get('/api/health', (_req, res) => res.json({ ok: true }));
app.get('/about', (_req, res) => res.send('about'));
`,
    });
    expect(await rows(dir)).toEqual([
      'GET /about []',
      'GET /api/health [] assertSignedIn lets through the path /health',
      'GET /api/sites [assertSignedIn: auth]',
    ]);
  });

  it('Koa: app.use() leading with a check, with an allowlist; Hono: use() on a path', async () => {
    const koa = writeProject({
      'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '^2.15.0', '@koa/router': '^12.0.0' } }),
      'src/checks.ts': CHECKS,
      'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { assertSignedIn } from './checks';

export const app = new Koa();
app.use(async (ctx, next) => {
  if (ctx.path === '/health') return next();
  await assertSignedIn(ctx);
  await next();
});

const router = new Router();
router.get('/sites', (ctx) => {
  ctx.body = [];
});
router.get('/health', (ctx) => {
  ctx.body = { ok: true };
});
app.use(router.routes());
`,
    });
    expect(await rows(koa)).toEqual(['GET /health [] assertSignedIn lets through the path /health', 'GET /sites [assertSignedIn: auth]']);
    const hono = writeProject({
      'package.json': JSON.stringify({ name: 'h', dependencies: { hono: '4.6.0' } }),
      'src/checks.ts': CHECKS,
      'src/app.ts': `import { Hono } from 'hono';
import { assertSignedIn } from './checks';

export const app = new Hono();
app.use('/api/*', async (c, next) => {
  await assertSignedIn(c.req.raw as never);
  await next();
});
app.get('/api/sites', (c) => c.json([]));
app.get('/status', (c) => c.text('ok'));
`,
    });
    expect(await rows(hono)).toEqual(['GET /api/sites [assertSignedIn: auth]', 'GET /status []']);
  });

  it("Koa: a router's use() leading with a check, on the whole router and below a path (logto's management router)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '^3.0.0', 'koa-router': '^12.0.1' } }),
      'src/checks.ts': CHECKS,
      'src/app.ts': `import Koa from 'koa';
import Router from 'koa-router';
import { assertSignedIn } from './checks';

function managementGate() {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    await assertSignedIn(ctx);
    ctx.state.checkedAt = Date.now();
    return next();
  };
}

const management = new Router();
management.use(managementGate());
management.post('/applications', (ctx) => {
  ctx.status = 201;
});

const account = new Router();
account.use('/me', async (ctx, next) => {
  await assertSignedIn(ctx);
  await next();
});
account.get('/me/profile', (ctx) => {
  ctx.body = {};
});
account.get('/status', (ctx) => {
  ctx.body = { ok: true };
});

export const app = new Koa();
app.use(management.routes());
app.use(account.routes());
`,
    });
    expect(await rows(dir)).toEqual(['POST /applications [assertSignedIn: auth]', 'GET /me/profile [assertSignedIn: auth]', 'GET /status []']);
  });

  it("Next.js: a middleware answering what a helper returns when it refuses (`if (refused) return refused`), with an allowlist; one that drops the helper's answer checks nothing", async () => {
    const files = (body: string): Record<string, string> => ({
      'package.json': JSON.stringify({ name: 'n', dependencies: { next: '^14.2.0' } }),
      'lib/checks.ts': `import { NextResponse, type NextRequest } from 'next/server';

export function refuseAnonymous(req: NextRequest): NextResponse | null {
  if (!req.cookies.get('session')) return NextResponse.json({ error: 'sign in' }, { status: 401 });
  return null;
}
`,
      'middleware.ts': `import { NextResponse, type NextRequest } from 'next/server';
import { refuseAnonymous } from './lib/checks';

export function middleware(req: NextRequest) {
${body}
}

export const config = { matcher: ['/api/:path*'] };
`,
      'app/api/sites/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
      'app/api/status/route.ts': 'export async function GET() {\n  return Response.json({ ok: true });\n}\n',
    });
    const answered = writeProject(
      files(`  if (req.nextUrl.pathname === '/api/status') return NextResponse.next();
  const refused = refuseAnonymous(req);
  if (refused) return refused;
  return NextResponse.next();`),
    );
    expect(await rows(answered)).toEqual(['GET /api/sites [refuseAnonymous: auth]', 'GET /api/status [] refuseAnonymous lets through the path /api/status']);
    const dropped = writeProject(
      files(`  refuseAnonymous(req);
  return NextResponse.next();`),
    );
    expect(await rows(dropped)).toEqual(['GET /api/sites []', 'GET /api/status []']);
  });

  it("Fastify: a plugin's hook handing the request to a check (its allowlist read on the whole URL), and a route's preHandler doing so", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'f', dependencies: { fastify: '^4.28.0' } }),
      'src/checks.ts': CHECKS,
      'src/server.ts': `import Fastify from 'fastify';
import { assertSignedIn } from './checks';

export const app = Fastify();

app.register(
  async (api) => {
    api.addHook('preHandler', async (request) => {
      if (request.url === '/api/health') return;
      await assertSignedIn(request);
    });
    api.get('/sites', async () => []);
    api.get('/health', async () => ({ ok: true }));
  },
  { prefix: '/api' },
);

app.get('/account', { preHandler: [async (request) => assertSignedIn(request)] }, async () => ({}));
app.get('/status', async () => 'ok');
`,
    });
    expect(await rows(dir)).toEqual([
      'GET /account [(inline 401 check): auth]',
      'GET /api/health [] (inline 401 check) lets through the path /api/health',
      'GET /api/sites [(inline 401 check): auth]',
      'GET /status []',
    ]);
  });
});
