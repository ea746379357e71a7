/**
 * trpc-openapi and trpc-to-openapi (src/adapters/trpc-openapi.ts): an endpoint made by
 * `createOpenApiExpressMiddleware({ router })` serves, below where it is mounted, each procedure
 * whose meta has an `openapi`, at its `openapi.path` and for its `openapi.method`, behind the
 * layers before the endpoint and the middleware of the procedure's builder.
 */
import { describe, expect, it } from 'vitest';
import { check, findingLines } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const TRPC = `import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';

const t = initTRPC.context<Context>().meta<OpenApiMeta>().create();

export const router = t.router;

const isAuthed = t.middleware(({ ctx, next }) => {
  if (!ctx.session?.userId) {
    throw new TRPCError({ code: 'UNAUTHORIZED' });
  }
  return next({ ctx: { session: ctx.session } });
});

export const publicProcedure = t.procedure;
export const protectedProcedure = t.procedure.use(isAuthed);
export const tenantProcedure = protectedProcedure.use(({ ctx, input, next }) => {
  if ((input as { tenantId: string }).tenantId !== ctx.session.activeTenantId) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
  return next();
});
`;

const CONTEXT = `import type { CreateExpressContextOptions } from '@trpc/server/adapters/express';

export function createContext({ req }: CreateExpressContextOptions) {
  return { session: req.session as { userId?: string; activeTenantId?: string } | undefined, db: globalThis.db };
}
export type Context = ReturnType<typeof createContext>;
`;

const SITES = `import { z } from 'zod';
import { observable } from '@trpc/server/observable';
import { router, publicProcedure, tenantProcedure } from '../trpc';

const byTenant = z.object({ tenantId: z.string() });
const bySite = byTenant.extend({ siteId: z.string() });

export const sitesRouter = router({
  list: tenantProcedure
    .meta({ openapi: { method: 'GET', path: '/tenants/{tenantId}/sites', tags: ['sites'], protect: true } })
    .input(byTenant)
    .output(z.array(z.object({ id: z.string(), name: z.string() })))
    .query(({ ctx, input }) => ctx.db.sites.findMany({ where: { tenantId: input.tenantId } })),
  rename: tenantProcedure
    .meta({ openapi: { method: 'PATCH', path: 'tenants/{tenantId}/sites/{siteId}/' } })
    .meta({ audit: 'site.rename' })
    .input(bySite.extend({ name: z.string().min(1) }))
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.db.sites.update({ where: { id: input.siteId }, data: { name: input.name } })),
  purgeCache: tenantProcedure
    .meta({ openapi: { method: 'POST', path: '/tenants/{tenantId}/sites/{siteId}/purge', enabled: false } })
    .input(bySite)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.db.cache.purge(input.siteId)),
  events: tenantProcedure.input(bySite).subscription(({ input }) => observable((emit) => {
    emit.next({ siteId: input.siteId });
  })),
  status: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/status' } })
    .input(z.void())
    .output(z.object({ ok: z.boolean() }))
    .query(() => ({ ok: true })),
  usage: tenantProcedure.input(byTenant).query(({ ctx, input }) => ctx.db.usage.sum({ tenantId: input.tenantId })),
});
`;

const ROOT = `import { router } from './trpc';
import { sitesRouter } from './routers/sites';

export const appRouter = router({ sites: sitesRouter });
export type AppRouter = typeof appRouter;
`;

const PACKAGE = JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', 'trpc-to-openapi': '^3.1.0', zod: '^3.23.0' } });

const SERVER = `import express, { Router } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { createOpenApiExpressMiddleware } from 'trpc-to-openapi';
import { appRouter } from './root';
import { createContext } from './context';

function requestId(req, res, next) {
  res.setHeader('x-request-id', crypto.randomUUID());
  next();
}

const api = Router();
api.use('/v1', createOpenApiExpressMiddleware({ router: appRouter, createContext }));

export const app = express();
app.use(requestId);
app.use('/trpc', createExpressMiddleware({ router: appRouter, createContext }));
app.use('/api', api);
`;

/** The tRPC instance, the context and the routers every project here shares. */
const SHARED = { 'server/trpc.ts': TRPC, 'server/context.ts': CONTEXT, 'server/routers/sites.ts': SITES, 'server/root.ts': ROOT };

/** The Express project, with `files` written over it. */
function project(files: Record<string, string> = {}): string {
  return writeProject({ 'package.json': PACKAGE, ...SHARED, 'server/index.ts': SERVER, ...files });
}

/** Method, path, handler, place and guards (name:kinds) of a route. */
function line(r: Awaited<ReturnType<typeof check>>['routes'][number]): string {
  return `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`;
}

/** The lines of every route below /api. */
async function apiRoutes(dir: string): Promise<string[]> {
  const res = await check(dir);
  return res.routes.filter((r) => r.path.startsWith('/api')).map(line);
}

describe('trpc-openapi endpoints in Express', () => {
  it('a route per procedure with an openapi meta, at the mount and its path, for its method; none for one turned off, a subscription or one without', async () => {
    const res = await check(project());
    const rows = res.routes.filter((r) => r.path.startsWith('/api'));
    expect(rows.map(line)).toEqual([
      'GET /api/v1/status sites.status server/routers/sites.ts:28 []',
      'GET /api/v1/tenants/:tenantId/sites sites.list server/routers/sites.ts:9 [isAuthed:auth, (inline middleware):tenant]',
      'PATCH /api/v1/tenants/:tenantId/sites/:siteId sites.rename server/routers/sites.ts:14 [isAuthed:auth, (inline middleware):tenant]',
    ]);
    // matched as the package matches: case-insensitively, with or without the trailing slash
    expect(rows.every((r) => !r.caseSensitive && r.trailingSlashInsensitive)).toBe(true);
    // the same router over tRPC's own endpoint: every procedure, at its dotted path
    expect(res.routes.filter((r) => r.path.startsWith('/trpc')).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /trpc/sites.events',
      'GET /trpc/sites.list',
      'POST /trpc/sites.purgeCache',
      'POST /trpc/sites.rename',
      'GET /trpc/sites.status',
      'GET /trpc/sites.usage',
    ]);
    expect(findingLines(res).filter((l) => l.includes('unresolved-route'))).toEqual([]);
  });

  it('trpc-openapi (for tRPC 10) alike; an openapi of a later meta replaces the one before it', async () => {
    const sites = SITES.replace(
      "    .meta({ audit: 'site.rename' })",
      "    .meta({ audit: 'site.rename', openapi: { method: 'PUT', path: '/sites/{siteId}' } })",
    );
    const dir = project({
      'package.json': PACKAGE.replace('"trpc-to-openapi":"^3.1.0"', '"trpc-openapi":"^1.2.0"').replace('"@trpc/server":"^11.0.0"', '"@trpc/server":"^10.45.2"'),
      'server/trpc.ts': TRPC.replace("from 'trpc-to-openapi'", "from 'trpc-openapi'"),
      'server/index.ts': SERVER.replace("from 'trpc-to-openapi'", "from 'trpc-openapi'"),
      'server/routers/sites.ts': sites,
    });
    expect(await apiRoutes(dir)).toEqual([
      'PUT /api/v1/sites/:siteId sites.rename server/routers/sites.ts:14 [isAuthed:auth, (inline middleware):tenant]',
      'GET /api/v1/status sites.status server/routers/sites.ts:28 []',
      'GET /api/v1/tenants/:tenantId/sites sites.list server/routers/sites.ts:9 [isAuthed:auth, (inline middleware):tenant]',
    ]);
  });

  it('a procedure whose openapi is not written out is left out with a warning; a router not known statically makes the endpoint one route', async () => {
    const sites = SITES.replace(
      "    .meta({ openapi: { method: 'GET', path: '/status' } })",
      '    .meta({ openapi: { method: process.env.STATUS_METHOD, path: \'/status\' } })',
    );
    const res = await check(project({ 'server/routers/sites.ts': sites }));
    expect(res.routes.filter((r) => r.path.startsWith('/api')).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/tenants/:tenantId/sites', 'PATCH /api/v1/tenants/:tenantId/sites/:siteId']);
    expect(findingLines(res).filter((l) => l.includes('unresolved-route'))).toEqual([
      'server/index.ts:13 unresolved-route the OpenAPI route of the tRPC procedure sites.status is not known statically (its method is not one of GET, POST, PUT, PATCH, DELETE written out); it is not listed',
    ]);

    const unknown = await check(project({ 'server/index.ts': SERVER.replace('router: appRouter, createContext }));\n\nexport', 'router: loadRouter(), createContext }));\n\nexport').replace("import { createContext } from './context';", "import { createContext } from './context';\n\ndeclare function loadRouter(): typeof appRouter;") }));
    expect(unknown.routes.filter((r) => r.path.startsWith('/api')).map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual(['ALL /api/v1 trpc-to-openapi']);
    expect(findingLines(unknown).filter((l) => l.includes('unresolved-route'))).toEqual([
      'server/index.ts:15 unresolved-route the router is not known statically: the procedures of this tRPC endpoint are not listed, the endpoint is one route',
    ]);
  });
});

describe('trpc-openapi endpoints in Next.js', () => {
  const NEXT_PACKAGE = JSON.stringify({ name: 'dashboard', dependencies: { next: '15.1.0', '@trpc/server': '^11.0.0', 'trpc-to-openapi': '^3.1.0', zod: '^3.23.0' } });
  const nextProject = (files: Record<string, string>): string => writeProject({ 'package.json': NEXT_PACKAGE, ...SHARED, ...files });
  const ROUTE = `import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { appRouter } from '../../../../server/root';
import { createContext } from '../../../../server/context';

const handler = (req: Request) =>
  createOpenApiFetchHandler({
    endpoint: '/api/public',
    router: appRouter,
    createContext: () => createContext({ req } as never),
    req,
  });

export { handler as GET, handler as PATCH };
`;

  it('an App Router handler returning createOpenApiFetchHandler(…): each procedure below its endpoint, for the methods the file exports', async () => {
    const res = await check(nextProject({ 'app/api/public/[...trpc]/route.ts': ROUTE }));
    expect(res.routes.map(line)).toEqual([
      'GET /api/public/status sites.status server/routers/sites.ts:28 []',
      'GET /api/public/tenants/:tenantId/sites sites.list server/routers/sites.ts:9 [isAuthed:auth, (inline middleware):tenant]',
      'PATCH /api/public/tenants/:tenantId/sites/:siteId sites.rename server/routers/sites.ts:14 [isAuthed:auth, (inline middleware):tenant]',
    ]);
    // (a file exporting GET only serves the GET procedures)
    const getOnly = await check(nextProject({ 'app/api/public/[...trpc]/route.ts': ROUTE.replace('handler as GET, handler as PATCH', 'handler as GET') }));
    expect(getOnly.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/public/status', 'GET /api/public/tenants/:tenantId/sites']);
    // an endpoint not known statically: the route file's own route, with a warning
    const unknown = await check(nextProject({ 'app/api/public/[...trpc]/route.ts': ROUTE.replace("endpoint: '/api/public'", 'endpoint: process.env.OPENAPI_ENDPOINT as `/${string}`') }));
    expect(unknown.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/public/:trpc*', 'PATCH /api/public/:trpc*']);
    expect(findingLines(unknown).filter((l) => l.includes('unresolved-route'))).toEqual([
      'app/api/public/[...trpc]/route.ts:13 unresolved-route the endpoint of this createOpenApiFetchHandler(…) is not known statically: the procedures it serves are not listed, the endpoint is one route',
      'app/api/public/[...trpc]/route.ts:13 unresolved-route the endpoint of this createOpenApiFetchHandler(…) is not known statically: the procedures it serves are not listed, the endpoint is one route',
    ]);
  });

  it('a Pages Router API route made by createOpenApiNextHandler(…), or handing the request to the handler it makes: each procedure below its catch-all, for its method', async () => {
    const expected = ['GET /api/v1/status sites.status', 'GET /api/v1/tenants/:tenantId/sites sites.list', 'PATCH /api/v1/tenants/:tenantId/sites/:siteId sites.rename'];
    const res = await check(
      nextProject({
        'pages/api/v1/[...trpc].ts': `import { createOpenApiNextHandler } from 'trpc-to-openapi';
import { appRouter } from '../../../server/root';
import { createContext } from '../../../server/context';

export default createOpenApiNextHandler({ router: appRouter, createContext });
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual(expected);
    const wrapped = await check(
      nextProject({
        'pages/api/v1/[...trpc].ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import cors from 'nextjs-cors';
import { createOpenApiNextHandler } from 'trpc-to-openapi';
import { appRouter } from '../../../server/root';
import { createContext } from '../../../server/context';

const handler = async (req: NextApiRequest, res: NextApiResponse) => {
  await cors(req, res);
  return createOpenApiNextHandler({ router: appRouter, createContext })(req, res);
};

export default handler;
`,
      }),
    );
    expect(wrapped.routes.map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual(expected);
  });

  it('@dokploy/trpc-openapi serves every procedure not turned off, at its dotted path unless its openapi says otherwise; the checks leading the handler guard each', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'dokploy', dependencies: { next: '15.1.0', '@trpc/server': '^11.0.0', '@dokploy/trpc-openapi': '0.0.19', zod: '^3.23.0' } }),
        ...SHARED,
        'server/trpc.ts': TRPC.replace("from 'trpc-to-openapi'", "from '@dokploy/trpc-openapi'"),
        'pages/api/[...trpc].ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { createOpenApiNextHandler } from '@dokploy/trpc-openapi';
import { appRouter } from '../../server/root';
import { createContext } from '../../server/context';
import { validateRequest } from '../../server/auth';

const handler = async (req: NextApiRequest, res: NextApiResponse) => {
  const { session, user } = await validateRequest(req);
  if (!user || !session) {
    res.status(401).json({ message: 'Unauthorized' });
    return;
  }
  return createOpenApiNextHandler({ router: appRouter, createContext })(req, res);
};

export default handler;
`,
        'server/auth.ts': `export async function validateRequest(req: { headers: Record<string, string | undefined> }) {
  const session = await globalThis.db.sessions.findByToken(req.headers['x-api-key']);
  return { session, user: session?.user ?? null };
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/sites.usage sites.usage [(inline 401 check):auth, isAuthed:auth, (inline middleware):tenant]',
      'GET /api/status sites.status [(inline 401 check):auth]',
      'GET /api/tenants/:tenantId/sites sites.list [(inline 401 check):auth, isAuthed:auth, (inline middleware):tenant]',
      'PATCH /api/tenants/:tenantId/sites/:siteId sites.rename [(inline 401 check):auth, isAuthed:auth, (inline middleware):tenant]',
    ]);
  });
});

describe('trpc-openapi endpoints in Hono', () => {
  const HONO_PACKAGE = JSON.stringify({ name: 'edge-api', dependencies: { hono: '^4.6.0', '@trpc/server': '^11.0.0', 'trpc-to-openapi': '^3.1.0', zod: '^3.23.0' } });
  const SERVER_HONO = (endpoint: string) => `import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { appRouter } from './root';
import { createContext } from './context';

const publicApi = new Hono();

publicApi.use('/api/tenants/*', async (c, next) => {
  if (!getCookie(c, 'sid')) return c.json({ error: 'unauthorized' }, 401);
  await next();
});

publicApi.use('/api/*', async (c) => {
  const response = await createOpenApiFetchHandler({
    endpoint: '${endpoint}',
    router: appRouter,
    createContext: () => createContext({ req: c.req.raw } as never),
    req: c.req.raw,
  });
  return response;
});

const app = new Hono();
app.get('/healthz', (c) => c.text('ok'));
app.route('/public', publicApi);

export default app;
`;

  it('a function used at a path returning createOpenApiFetchHandler(…): each procedure at its endpoint in the whole URL, in a sub-app as mounted, behind the middleware before it', async () => {
    const res = await check(writeProject({ 'package.json': HONO_PACKAGE, ...SHARED, 'server/index.ts': SERVER_HONO('/public/api') }));
    expect(res.routes.map(line)).toEqual([
      'GET /healthz null server/index.ts:25 []',
      'GET /public/api/status sites.status server/routers/sites.ts:28 []',
      'GET /public/api/tenants/:tenantId/sites sites.list server/routers/sites.ts:9 [(inline middleware):auth, isAuthed:auth, (inline middleware):tenant]',
      'PATCH /public/api/tenants/:tenantId/sites/:siteId sites.rename server/routers/sites.ts:14 [(inline middleware):auth, isAuthed:auth, (inline middleware):tenant]',
    ]);
    expect(findingLines(res).filter((l) => l.includes('unresolved-route'))).toEqual([]);

    // the endpoint is taken out of the whole URL: one not under where the function is reached serves nothing
    const outside = await check(writeProject({ 'package.json': HONO_PACKAGE, ...SHARED, 'server/index.ts': SERVER_HONO('/api') }));
    expect(outside.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /healthz']);
    expect(findingLines(outside).filter((l) => l.includes('unresolved-route'))).toEqual([
      "server/index.ts:14 unresolved-route the endpoint of this createOpenApiFetchHandler(…) ('/api') is not under the path it is used at ('/public/api/*'), so it finds no procedure in a request it is handed; its procedures are left out",
    ]);
  });
});

describe('trpc-openapi endpoints in Fastify', () => {
  const FASTIFY_PACKAGE = JSON.stringify({ name: 'api', dependencies: { fastify: '^4.28.0', '@trpc/server': '^11.0.0', 'trpc-to-openapi': '^3.1.0', zod: '^3.23.0' } });
  const SERVER_FASTIFY = (router: string) => `import Fastify from 'fastify';
import { fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import { appRouter } from './root';
import { createContext } from './context';

declare function loadRouter(): typeof appRouter;

export const app = Fastify({ logger: true });

app.get('/healthz', async () => ({ ok: true }));

await app.register(fastifyTRPCOpenApiPlugin, {
  prefix: '/public',
  basePath: '/api/',
  router: ${router},
  createContext,
});
`;

  it('fastifyTRPCOpenApiPlugin: each procedure under the prefix it is registered with and its basePath; a router not known statically, its one wildcard route', async () => {
    const res = await check(writeProject({ 'package.json': FASTIFY_PACKAGE, ...SHARED, 'server/index.ts': SERVER_FASTIFY('appRouter') }));
    expect(res.routes.map(line)).toEqual([
      'GET /healthz null server/index.ts:10 []',
      'GET /public/api/status sites.status server/routers/sites.ts:28 []',
      'GET /public/api/tenants/:tenantId/sites sites.list server/routers/sites.ts:9 [isAuthed:auth, (inline middleware):tenant]',
      'PATCH /public/api/tenants/:tenantId/sites/:siteId sites.rename server/routers/sites.ts:14 [isAuthed:auth, (inline middleware):tenant]',
    ]);

    const unknown = await check(writeProject({ 'package.json': FASTIFY_PACKAGE, ...SHARED, 'server/index.ts': SERVER_FASTIFY('loadRouter()') }));
    expect(unknown.routes.map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual([
      'GET /healthz null',
      'DELETE /public/api/* trpc-to-openapi',
      'GET /public/api/* trpc-to-openapi',
      'PATCH /public/api/* trpc-to-openapi',
      'POST /public/api/* trpc-to-openapi',
      'PUT /public/api/* trpc-to-openapi',
    ]);
    expect(findingLines(unknown).filter((l) => l.includes('unresolved-route'))).toEqual([
      'server/index.ts:12 unresolved-route the router is not known statically: the procedures of this tRPC endpoint are not listed, the endpoint is one route',
    ]);
  });
});
