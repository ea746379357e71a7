/**
 * oRPC endpoints (src/adapters/orpc.ts) in Next.js App Router route handlers: a handler calling
 * `handler.handle(request, { prefix })` of `new RPCHandler(router)` serves each procedure at
 * `<prefix>/<keys>` for the methods the route exports (GET only for a GET procedure); one of
 * `new OpenAPIHandler(router)` serves each at its route's method and path (POST and `/<keys>`
 * unless given), under the routers' prefixes. Expectations derived by hand from @orpc/server
 * and @orpc/openapi 1.13.14 (router-utils.ts, rpc-matcher.ts, openapi-matcher.ts), checked
 * against 1.13.14 and 1.16.1 run on the same router.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { findingRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

const PKG = JSON.stringify({ name: 'dashboard', dependencies: { next: '15.0.0', '@orpc/server': '^1.13.0', '@orpc/openapi': '^1.13.0', zod: '^3.0.0' } });

/** The builders of a control plane: a session check, a tenant check after it. */
const ORPC = `import { oo } from '@orpc/openapi';
import { os as baseOs, ORPCError } from '@orpc/server';

export interface Context {
  authenticate: () => Promise<{ id: string; activeTenantId: string } | null>;
  db: { sites: { findMany(q: unknown): Promise<unknown[]>; create(q: unknown): Promise<unknown> } };
}

export const os = baseOs.$context<Context>().errors({ UNAUTHORIZED: {}, NOT_FOUND: {} });

const timing = os.middleware(async ({ next, path }) => {
  const started = Date.now();
  try {
    return await next();
  } finally {
    console.log(path.join('/'), Date.now() - started);
  }
});

export const requireSession = oo.spec(
  os.middleware(async ({ context, next }) => {
    const user = await context.authenticate();
    if (!user) throw new ORPCError('UNAUTHORIZED', { message: 'You must be signed in' });
    return next({ context: { user } });
  }),
  { security: [{ session: [] }] },
);

export const publicProcedure = os.use(timing);
export const sessionProcedure = publicProcedure.use(requireSession);
`;

const SITES = `import { z } from 'zod';
import { os, publicProcedure, requireSession, sessionProcedure } from '../orpc';

const list = sessionProcedure
  .route({ method: 'GET', path: '/sites', summary: 'List the sites of the active tenant' })
  .input(z.object({ cursor: z.string().optional() }))
  .handler(async ({ context, input }) => context.db.sites.findMany({ cursor: input.cursor }));

const create = sessionProcedure
  .route({ method: 'POST', path: '/sites' })
  .input(z.object({ name: z.string().min(1) }))
  .handler(async ({ context, input }) => context.db.sites.create({ data: input }));

const find = sessionProcedure
  .route({ method: 'GET', path: '/sites/{siteId}' })
  .input(z.object({ siteId: z.string() }))
  .handler(async ({ context, input }) => context.db.sites.findMany({ where: { id: input.siteId } }));

export const sitesRouter = { list, create, find };

// the admin router: the session check for all, again on purge (leading, so run once), a prefix for the paths given
export const adminRouter = os
  .use(requireSession)
  .prefix('/admin')
  .router({
    purge: os.use(requireSession).route({ path: '/cache/purge' }).handler(async () => ({ purged: true })),
    stats: publicProcedure.handler(async () => ({ sites: 3 })),
  });

export const health = os.route({ method: 'GET', path: '/health' }).handler(() => ({ ok: true }));
`;

const ROUTER = `import { health, sitesRouter, adminRouter } from './routers/sites';

export const appRouter = {
  health,
  sites: sitesRouter,
  admin: adminRouter,
};
`;

const OPENAPI_ROUTE = `import { OpenAPIHandler } from '@orpc/openapi/fetch';
import { appRouter } from '@/server/router';
import { createContext } from '@/server/context';

const handler = new OpenAPIHandler(appRouter);

async function handleRequest(request: Request) {
  const { response } = await handler.handle(request, { prefix: '/api', context: await createContext(request) });
  return response ?? new Response('Not found', { status: 404 });
}

export const GET = handleRequest;
export const POST = handleRequest;
`;

const RPC_ROUTE = `import { RPCHandler } from '@orpc/server/fetch';
import { appRouter } from '@/server/router';
import { createContext } from '@/server/context';

const handler = new RPCHandler(appRouter);

async function handleRequest(request: Request) {
  const { response } = await handler.handle(request, { prefix: '/rpc', context: await createContext(request) });
  return response ?? new Response('Not found', { status: 404 });
}

export const GET = handleRequest;
export const HEAD = handleRequest;
export const POST = handleRequest;
`;

const CONTEXT = `import { cookies } from 'next/headers';
export async function createContext(request: Request) {
  return { authenticate: async () => readSession((await cookies()).get('sid')?.value), db: globalThis.db };
}
async function readSession(sid: string | undefined) {
  return sid ? globalThis.sessions.get(sid) ?? null : null;
}
`;

/** Two procedures: one routed for GET, one behind a middleware named like nothing that refuses with oRPC's 401. */
const GATE = `import { os, ORPCError } from '@orpc/server';
const gate = os.middleware(async ({ context, next }) => {
  const viewer = await context.authenticate();
  if (!viewer) throw new ORPCError('UNAUTHORIZED');
  return next({ context: { viewer } });
});
export const router = {
  ping: os.route({ method: 'GET' }).handler(() => 'pong'),
  rename: os.use(gate).handler(async ({ input }) => input),
};
`;

const TSCONFIG = JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] } } });

function project(extra: Record<string, string> = {}): string {
  return writeProject({
    'package.json': PKG,
    'tsconfig.json': TSCONFIG,
    'src/server/orpc.ts': ORPC,
    'src/server/context.ts': CONTEXT,
    'src/server/routers/sites.ts': SITES,
    'src/server/router.ts': ROUTER,
    ...extra,
  });
}

/** "METHOD path guard:kind… file:line" */
const lines = (res: Awaited<ReturnType<typeof check>>): string[] =>
  res.routes.map((r) => `${r.method} ${r.path}${r.guards.map((g) => ` ${g.name}:${g.kinds.join('+')}`).join('')} ${r.file}:${r.line} ${r.handler}`);

const S = 'src/server/routers/sites.ts';

describe('oRPC in a Next.js App Router route handler', () => {
  it('OpenAPIHandler: each procedure at its route method and path under the prefix; POST and its keys when none is given', async () => {
    const res = await check(project({ 'src/app/api/[[...rest]]/route.ts': OPENAPI_ROUTE }));
    expect(lines(res)).toEqual([
      `POST /api/admin/cache/purge requireSession:auth ${S}:26 admin.purge`,
      // (no path of its own: its keys, the router's prefix not applied; the router's session check before its own timing)
      `POST /api/admin/stats requireSession:auth ${S}:27 admin.stats`,
      `GET /api/health ${S}:30 health`,
      `GET /api/sites requireSession:auth ${S}:4 sites.list`,
      `POST /api/sites requireSession:auth ${S}:9 sites.create`,
      `GET /api/sites/:siteId requireSession:auth ${S}:14 sites.find`,
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('RPCHandler: each procedure at <prefix>/<keys>, for every method the route exports but GET, which only a GET procedure takes', async () => {
    const res = await check(project({ 'src/app/rpc/[[...rest]]/route.ts': RPC_ROUTE }));
    expect(lines(res)).toEqual([
      `HEAD /rpc/admin/purge requireSession:auth ${S}:26 admin.purge`,
      `POST /rpc/admin/purge requireSession:auth ${S}:26 admin.purge`,
      `HEAD /rpc/admin/stats requireSession:auth ${S}:27 admin.stats`,
      `POST /rpc/admin/stats requireSession:auth ${S}:27 admin.stats`,
      `GET /rpc/health ${S}:30 health`,
      `HEAD /rpc/health ${S}:30 health`,
      `POST /rpc/health ${S}:30 health`,
      `HEAD /rpc/sites/create requireSession:auth ${S}:9 sites.create`,
      `POST /rpc/sites/create requireSession:auth ${S}:9 sites.create`,
      `GET /rpc/sites/find requireSession:auth ${S}:14 sites.find`,
      `HEAD /rpc/sites/find requireSession:auth ${S}:14 sites.find`,
      `POST /rpc/sites/find requireSession:auth ${S}:14 sites.find`,
      `GET /rpc/sites/list requireSession:auth ${S}:4 sites.list`,
      `HEAD /rpc/sites/list requireSession:auth ${S}:4 sites.list`,
      `POST /rpc/sites/list requireSession:auth ${S}:4 sites.list`,
    ]);
  });

  it('a Pages Router API route (the Node adapter, every method): the options after the response; a middleware throwing ORPCError UNAUTHORIZED authenticates', async () => {
    const route = `import { RPCHandler } from '@orpc/server/node';
import { router } from '../../../server/gate';

const handler = new RPCHandler(router);

export const config = { api: { bodyParser: false } };

export default async function rpc(req, res) {
  const { matched } = await handler.handle(req, res, { prefix: '/api/rpc', context: { authenticate: async () => req.session?.user ?? null } });
  if (matched) return;
  res.statusCode = 404;
  res.end('Not found');
}
`;
    const res = await check(project({ 'src/server/gate.ts': GATE, 'src/pages/api/rpc/[...rest].ts': route }));
    const G = 'src/server/gate.ts';
    expect(lines(res)).toEqual([
      ...['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].map((m) => `${m} /api/rpc/ping ${G}:8 ping`),
      // (not GET: StrictGetMethodPlugin answers a GET of a procedure not routed for GET with 405)
      ...['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].map((m) => `${m} /api/rpc/rename gate:auth ${G}:9 rename`),
    ]);
  });

  it('an error-reporting middleware (try { return await next() } catch (error) { …; throw error }) refuses nothing: no guard candidate', async () => {
    const router = `import { os, ORPCError } from '@orpc/server';
import * as Sentry from '@sentry/nextjs';

const reportErrors = os.middleware(async ({ next, path }) => {
  try {
    return await next();
  } catch (error) {
    if (!(error instanceof ORPCError)) Sentry.captureException(error, { tags: { procedure: path.join('/') } });
    throw error;
  }
});
// a check of its own inside the try: its failure, rethrown, is the middleware's refusal
const checkedPlan = os.middleware(async ({ context, next }) => {
  try {
    await context.assertPlan();
    return await next();
  } catch (error) {
    throw error;
  }
});

export const router = {
  stats: os.use(reportErrors).handler(async () => ({ sites: 3 })),
  usage: os.use(checkedPlan).handler(async () => ({ used: 1 })),
};
`;
    const res = await check(project({ 'src/server/report.ts': router, 'src/app/rpc/[[...rest]]/route.ts': RPC_ROUTE.replace("'@/server/router'", "'@/server/report'").replace('{ appRouter }', '{ router as appRouter }') }));
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`.trim())).toEqual([
      'HEAD /rpc/stats',
      'POST /rpc/stats',
      'HEAD /rpc/usage checkedPlan:unknown',
      'POST /rpc/usage checkedPlan:unknown',
    ]);
  });

  it("a lazy router is the default export of the module it loads: os.lazy(…), a builder's lazy(…) adding its middleware, lazy(…) of @orpc/server, and import().then((m) => ({ default: m.x }))", async () => {
    const admin = `import { os } from '../orpc';
export default {
  purge: os.route({ method: 'POST', path: '/admin/cache/purge' }).handler(async () => ({ purged: true })),
  stats: os.handler(async () => ({ sites: 3 })),
};
`;
    const router = (loaded: string) => `import { lazy } from '@orpc/server';
import { os, requireSession } from './orpc';
import { health } from './routers/sites';

export const appRouter = {
  health,
  sites: os.lazy(() => import('./routers/sites').then((m) => ({ default: m.sitesRouter }))),
  admin: ${loaded},
};
`;
    const rows = async (loaded: string) => {
      const res = await check(project({ 'src/server/routers/admin.ts': admin, 'src/server/router.ts': router(loaded), 'src/app/api/[[...rest]]/route.ts': OPENAPI_ROUTE }));
      return { routes: lines(res), warnings: findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route')) };
    };
    const A = 'src/server/routers/admin.ts';
    const expected = [
      `POST /api/admin/cache/purge ${A}:3 admin.purge`,
      `POST /api/admin/stats ${A}:4 admin.stats`,
      `GET /api/health ${S}:30 health`,
      `GET /api/sites requireSession:auth ${S}:4 sites.list`,
      `POST /api/sites requireSession:auth ${S}:9 sites.create`,
      `GET /api/sites/:siteId requireSession:auth ${S}:14 sites.find`,
    ];
    expect(await rows("os.lazy(() => import('./routers/admin'))")).toEqual({ routes: expected, warnings: [] });
    expect(await rows("lazy(() => import('./routers/admin'))")).toEqual({ routes: expected, warnings: [] });
    // (a builder's middleware run before each procedure the lazy router loads)
    expect((await rows("os.use(requireSession).lazy(() => import('./routers/admin'))")).routes.slice(0, 2)).toEqual([
      `POST /api/admin/cache/purge requireSession:auth ${A}:3 admin.purge`,
      `POST /api/admin/stats requireSession:auth ${A}:4 admin.stats`,
    ]);
  });

  it('a contract-first router, implement(contract): each procedure at the route its contract gives (under the contract routers\' prefixes), behind the middleware used on the implementer', async () => {
    const contract = `import { oc } from '@orpc/contract';
import { z } from 'zod';

const site = z.object({ id: z.string(), name: z.string() });

export const sitesContract = oc.prefix('/sites').router({
  list: oc.route({ method: 'GET', path: '/' }).output(z.array(site)),
  find: oc.route({ method: 'GET', path: '/{siteId}' }).input(z.object({ siteId: z.string() })).output(site),
  rename: oc.input(z.object({ siteId: z.string(), name: z.string() })).output(site),
});

export const contract = {
  health: oc.route({ method: 'GET', path: '/health' }),
  sites: sitesContract,
};
`;
    const router = `import { implement, ORPCError } from '@orpc/server';
import { contract } from './contract';

const os = implement(contract).$context<{ authenticate: () => Promise<{ id: string } | null> }>();

const requireSession = os.middleware(async ({ context, next }) => {
  const user = await context.authenticate();
  if (!user) throw new ORPCError('UNAUTHORIZED');
  return next({ context: { user } });
});

const authed = os.use(requireSession);

const health = os.health.handler(() => ({ ok: true }));
const list = authed.sites.list.handler(async () => []);
const find = authed.sites.find.handler(async ({ input }) => ({ id: input.siteId, name: 'docs' }));
const rename = os.sites.rename.use(requireSession).handler(async ({ input }) => input);

export const appRouter = os.router({
  health,
  sites: { list, find, rename },
});
`;
    const res = await check(
      project({ 'src/server/contract.ts': contract, 'src/server/router.ts': router, 'src/app/api/[[...rest]]/route.ts': OPENAPI_ROUTE, 'src/app/rpc/[[...rest]]/route.ts': RPC_ROUTE }),
    );
    const R = 'src/server/router.ts';
    // (RPCHandler: the keys; GET for the procedures their contract routes for GET)
    expect(lines(res).filter((l) => l.startsWith('GET /rpc/'))).toEqual([`GET /rpc/health ${R}:14 health`, `GET /rpc/sites/find requireSession:auth ${R}:16 sites.find`, `GET /rpc/sites/list requireSession:auth ${R}:15 sites.list`]);
    expect(lines(res).filter((l) => l.includes(' /api/'))).toEqual([
      `GET /api/health ${R}:14 health`,
      `GET /api/sites requireSession:auth ${R}:15 sites.list`,
      `GET /api/sites/:siteId requireSession:auth ${R}:16 sites.find`,
      // (no path in its contract: its keys, the contract router's prefix not applied)
      `POST /api/sites/rename requireSession:auth ${R}:17 sites.rename`,
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('a lazy router of a module without a default export, or a prefix not known statically, leaves the endpoint one route, with the reason', async () => {
    const lazy = ROUTER.replace('admin: adminRouter,', "admin: os.lazy(() => import('./routers/sites')),").replace("import { health", "import { os } from './orpc';\nimport { health");
    const res = await check(
      project({
        'src/server/router.ts': lazy,
        'src/app/rpc/[[...rest]]/route.ts': RPC_ROUTE.replace("prefix: '/rpc'", 'prefix: process.env.RPC_PREFIX'),
        'src/app/api/[[...rest]]/route.ts': OPENAPI_ROUTE,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/:rest*?', 'POST /api/:rest*?', 'GET /rpc/:rest*?', 'HEAD /rpc/:rest*?', 'POST /rpc/:rest*?']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app/api/[[...rest]]/route.ts:12:1 warning unresolved-route the lazy router at admin is not known statically (src/server/routers/sites.ts has no export default): the procedures of this oRPC endpoint are not listed, the endpoint is one route',
      'src/app/api/[[...rest]]/route.ts:13:1 warning unresolved-route the lazy router at admin is not known statically (src/server/routers/sites.ts has no export default): the procedures of this oRPC endpoint are not listed, the endpoint is one route',
      'src/app/rpc/[[...rest]]/route.ts:12:1 warning unresolved-route the prefix of the handler is not known statically: the procedures of this oRPC endpoint are not listed, the endpoint is one route',
      'src/app/rpc/[[...rest]]/route.ts:13:1 warning unresolved-route the prefix of the handler is not known statically: the procedures of this oRPC endpoint are not listed, the endpoint is one route',
      'src/app/rpc/[[...rest]]/route.ts:14:1 warning unresolved-route the prefix of the handler is not known statically: the procedures of this oRPC endpoint are not listed, the endpoint is one route',
    ]);
  });
});

describe('oRPC mounted on Express, Hono and Fastify', () => {
  const G = 'src/server/gate.ts';
  const every = (ms: string[], path: string, rest: string) => ms.map((m) => `${m} ${path}${rest}`);

  it('Express: a middleware handing the request to handler.handle(req, res, { prefix }) at its mount (req.originalUrl: the whole path)', async () => {
    const server = `import express from 'express';
import { RPCHandler } from '@orpc/server/node';
import { router } from './server/gate';
import { verifyCsrfToken } from './csrf';

const app = express();
const handler = new RPCHandler(router);

app.get('/health', (req, res) => res.json({ ok: true }));
app.use('/rpc', verifyCsrfToken, async (req, res, next) => {
  const { matched } = await handler.handle(req, res, { prefix: '/rpc', context: { authenticate: async () => req.session?.user ?? null } });
  if (matched) return;
  next();
});
app.listen(3000);
`;
    const csrf = `export function verifyCsrfToken(req, res, next) {\n  if (req.method !== 'GET' && req.get('x-csrf-token') !== req.session?.csrfToken) return res.status(403).end();\n  next();\n}\n`;
    const res = await check(
      writeProject({ 'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0', '@orpc/server': '^1.13.0' } }), 'src/server/gate.ts': GATE, 'src/csrf.ts': csrf, 'src/app.ts': server }),
    );
    expect(lines(res)).toEqual([
      'GET /health src/app.ts:9 null',
      ...every(['DELETE'], '/rpc/ping', ` verifyCsrfToken:csrf ${G}:8 ping`),
      // (the CSRF check lets GET through)
      `GET /rpc/ping ${G}:8 ping`,
      ...every(['HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/rpc/ping', ` verifyCsrfToken:csrf ${G}:8 ping`),
      ...every(['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/rpc/rename', ` verifyCsrfToken:csrf gate:auth ${G}:9 rename`),
    ]);
  });

  it("Express 5: oRPC's documented use('/rpc{/*path}', …) mount lists each route once (the path's two forms reach the same function)", async () => {
    const server = `import express from 'express';
import { RPCHandler } from '@orpc/server/node';
import { router } from './server/gate';

const app = express();
const handler = new RPCHandler(router);

app.use('/rpc{/*path}', async (req, res, next) => {
  const { matched } = await handler.handle(req, res, { prefix: '/rpc', context: {} });
  if (matched) return;
  next();
});
app.listen(3000);
`;
    const res = await check(writeProject({ 'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^5.1.0', '@orpc/server': '^1.13.0' } }), 'src/server/gate.ts': GATE, 'src/app.ts': server }));
    expect(lines(res)).toEqual([
      ...every(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/rpc/ping', ` ${G}:8 ping`),
      ...every(['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/rpc/rename', ` gate:auth ${G}:9 rename`),
    ]);
  });

  it('Hono: oRPC\'s documented use(\'/rpc/*\', …) mount, behind the middleware before it; a procedure outside the mount is not served there', async () => {
    const server = `import { Hono } from 'hono';
import { RPCHandler } from '@orpc/server/fetch';
import { router } from './server/gate';
import { requireSession } from './session';

const app = new Hono();
const handler = new RPCHandler(router);

app.use('/rpc/*', requireSession);
app.use('/rpc/*', async (c, next) => {
  const { matched, response } = await handler.handle(c.req.raw, { prefix: '/rpc', context: {} });
  if (matched) return c.newResponse(response.body, response);
  await next();
});
app.use('/api/*', async (c, next) => {
  const { matched, response } = await handler.handle(c.req.raw, { prefix: '/v2', context: {} });
  if (matched) return c.newResponse(response.body, response);
  await next();
});

export default app;
`;
    const session = `export async function requireSession(c, next) {\n  if (!c.get('session')) return c.json({ error: 'unauthenticated' }, 401);\n  await next();\n}\n`;
    const res = await check(
      writeProject({ 'package.json': JSON.stringify({ name: 'api', dependencies: { hono: '^4.6.0', '@orpc/server': '^1.13.0' } }), 'src/server/gate.ts': GATE, 'src/session.ts': session, 'src/index.ts': server }),
    );
    expect(lines(res)).toEqual([
      ...every(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/rpc/ping', ` requireSession:auth ${G}:8 ping`),
      ...every(['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/rpc/rename', ` requireSession:auth gate:auth ${G}:9 rename`),
    ]);
  });

  it("Fastify: oRPC's documented fastify.all('/rpc/*', …) route, behind the hooks of its context; under a plugin's prefix", async () => {
    const server = `import Fastify from 'fastify';
import { RPCHandler } from '@orpc/server/fastify';
import { router } from './server/gate';
import { requireSession } from './session';

const handler = new RPCHandler(router);

async function rpc(fastify) {
  fastify.addContentTypeParser('*', (request, payload, done) => done(null, undefined));
  fastify.addHook('onRequest', requireSession);
  fastify.all('/rpc/*', async (req, reply) => {
    const { matched } = await handler.handle(req, reply, { prefix: '/api/rpc', context: {} });
    if (!matched) reply.status(404).send('Not found');
  });
}

const app = Fastify();
app.get('/health', async () => ({ ok: true }));
app.register(rpc, { prefix: '/api' });
await app.listen({ port: 3000 });
`;
    const session = `export async function requireSession(request, reply) {\n  if (!request.session?.user) return reply.code(401).send({ error: 'unauthenticated' });\n}\n`;
    const res = await check(
      writeProject({ 'package.json': JSON.stringify({ name: 'api', type: 'module', dependencies: { fastify: '^5.0.0', '@orpc/server': '^1.13.0' } }), 'src/server/gate.ts': GATE, 'src/session.ts': session, 'src/app.ts': server }),
    );
    expect(lines(res)).toEqual([
      ...every(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/api/rpc/ping', ` requireSession:auth ${G}:8 ping`),
      ...every(['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], '/api/rpc/rename', ` requireSession:auth gate:auth ${G}:9 rename`),
      'GET /health src/app.ts:18 null',
    ]);
  });
});
