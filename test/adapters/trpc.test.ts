/**
 * tRPC endpoints (src/adapters/trpc.ts): an endpoint served by Express, by a Pages Router API
 * route or by an App Router route handler is a route per procedure of its router, at
 * `<endpoint>/<dotted path>`, by the method its kind is served with, behind the layers before the
 * endpoint and the middleware its builder chain runs.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { findingRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

/** The tRPC instance of a control plane: a public builder, one behind a session check, one behind the tenant check too. */
const TRPC = `import { initTRPC, TRPCError } from '@trpc/server';
import type { Context } from './context';

const t = initTRPC.context<Context>().create();

export const createTRPCRouter = t.router;
export const mergeRouters = t.mergeRouters;

const timing = t.middleware(async ({ path, next }) => {
  const started = Date.now();
  const result = await next();
  console.log(path, Date.now() - started);
  return result;
});

const isAuthed = t.middleware(({ ctx, next }) => {
  if (!ctx.session?.userId) {
    throw new TRPCError({ code: 'UNAUTHORIZED' });
  }
  return next({ ctx: { session: ctx.session } });
});

export const publicProcedure = t.procedure.use(timing);
export const protectedProcedure = publicProcedure.use(isAuthed);
export const tenantProcedure = protectedProcedure.use(({ ctx, input, next }) => {
  if ((input as { tenantId: string }).tenantId !== ctx.session.activeTenantId) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
  return next();
});
`;

const CONTEXT = `export async function createContext({ req }: { req: { session?: { userId?: string; activeTenantId?: string } } }) {
  return { session: req.session, db: globalThis.db };
}
export type Context = Awaited<ReturnType<typeof createContext>>;
`;

const SITES = `import { z } from 'zod';
import { createTRPCRouter, tenantProcedure, publicProcedure } from '../trpc';

const byTenant = z.object({ tenantId: z.string() });

export const sitesRouter = createTRPCRouter({
  list: tenantProcedure.input(byTenant).query(({ ctx, input }) => ctx.db.sites.findMany({ where: { tenantId: input.tenantId } })),
  create: tenantProcedure
    .input(byTenant.extend({ name: z.string().min(1) }))
    .meta({ audit: true })
    .mutation(({ ctx, input }) => ctx.db.sites.create({ data: input })),
  badge: publicProcedure.input(z.object({ siteId: z.string() })).query(({ input }) => ({ siteId: input.siteId, status: 'live' })),
});
`;

const OPS = `import { createTRPCRouter, protectedProcedure } from '../trpc';

const queues = {
  drain: protectedProcedure.mutation(({ ctx }) => ctx.db.queues.drainAll()),
};

export const opsRouter = createTRPCRouter({
  ...queues,
  // (tRPC 11: a plain object nests a router)
  cache: { purge: protectedProcedure.mutation(({ ctx }) => ctx.db.cache.purge()) },
});
`;

const ROOT = `import { createTRPCRouter, mergeRouters, protectedProcedure } from './trpc';
import { sitesRouter } from './routers/sites';
import { opsRouter } from './routers/ops';

const accountRouter = createTRPCRouter({
  me: protectedProcedure.query(({ ctx }) => ({ userId: ctx.session.userId })),
});

export const appRouter = mergeRouters(
  accountRouter,
  createTRPCRouter({ sites: sitesRouter, internal: createTRPCRouter({ ops: opsRouter }) }),
);
export type AppRouter = typeof appRouter;
`;

/** Method, path, handler, place and guards (name:kinds) of every route. */
function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
}

const EXPECTED = (base: string, before: string[] = []): string[] => {
  const g = (...names: string[]) => `[${[...before, ...names].join(', ')}]`;
  return [
    `POST ${base}/internal.ops.cache.purge internal.ops.cache.purge server/routers/ops.ts:10 ${g('isAuthed:auth')}`,
    `POST ${base}/internal.ops.drain internal.ops.drain server/routers/ops.ts:4 ${g('isAuthed:auth')}`,
    `GET ${base}/me me server/root.ts:6 ${g('isAuthed:auth')}`,
    `GET ${base}/sites.badge sites.badge server/routers/sites.ts:12 ${g()}`,
    `POST ${base}/sites.create sites.create server/routers/sites.ts:8 ${g('isAuthed:auth', '(inline middleware):tenant')}`,
    `GET ${base}/sites.list sites.list server/routers/sites.ts:7 ${g('isAuthed:auth', '(inline middleware):tenant')}`,
  ];
};

function project(files: Record<string, string>): string {
  return writeProject({
    'server/trpc.ts': TRPC,
    'server/context.ts': CONTEXT,
    'server/routers/sites.ts': SITES,
    'server/routers/ops.ts': OPS,
    'server/root.ts': ROOT,
    ...files,
  });
}

describe('tRPC endpoints: a route per procedure', () => {
  it('in Express (createExpressMiddleware), under the mount path, behind the layers before it', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { appRouter } from './root';
import { createContext } from './context';

function verifyCsrfToken(req, res, next) {
  if (req.get('x-csrf-token') !== req.session?.csrfToken) return res.status(403).json({ error: 'csrf' });
  next();
}

export const app = express();
app.use(verifyCsrfToken);
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext }));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(EXPECTED('/api/trpc', ['verifyCsrfToken:csrf']));
    // matched exactly: tRPC reads the procedure from the path below the mount
    expect(res.routes.every((r) => r.caseSensitive && !r.trailingSlashInsensitive)).toBe(true);
  });

  it("Sentry's tRPC middleware (t.middleware(Sentry.trpcMiddleware(…))) on every procedure refuses nothing: no guard candidate", async () => {
    const sentry = TRPC.replace(
      "import type { Context } from './context';",
      "import * as Sentry from '@sentry/nextjs';\nimport type { Context } from './context';",
    )
      .replace('export const publicProcedure = t.procedure.use(timing);', 'const sentryMiddleware = t.middleware(Sentry.trpcMiddleware({ attachRpcInput: true }));\nexport const publicProcedure = t.procedure.use(sentryMiddleware).use(timing);');
    const dir = project({
      'server/trpc.ts': sentry,
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', '@sentry/nextjs': '^8.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { appRouter } from './root';
import { createContext } from './context';

export const app = express();
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext }));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(EXPECTED('/api/trpc'));
  });

  it('a logging middleware rethrowing what the rest of the chain threw (from a `try` first handing on, from a rejection handler of its promise) refuses nothing; one throwing an error of its own there refuses with it', async () => {
    const express = `import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { appRouter } from './root';
import { createContext } from './context';

export const app = express();
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext }));
`;
    // unkey's enhancedErrorMiddleware: the promise next() answers, logged either way
    const logged = (onError: string) =>
      TRPC.replace(
        'export const publicProcedure = t.procedure.use(timing);',
        `function report(error: unknown, path: string, ms: number) {
  console.error('tRPC procedure failed', { path, ms, error });
}

const enhancedErrors = t.middleware(({ next, path }) => {
  const startTime = Date.now();
  try {
    const result = next();
    if (result instanceof Promise) {
      return result.then(
        (value) => {
          console.log(path, Date.now() - startTime);
          return value;
        },
        (error) => {
          ${onError}
        },
      );
    }
    return result;
  } catch (error) {
    report(error, path, Date.now() - startTime);
    throw error;
  }
});

export const publicProcedure = t.procedure.use(enhancedErrors).use(timing);`,
      );
    const rows = async (onError: string) => lines(await check(project({ 'server/trpc.ts': logged(onError), 'server/index.ts': express })));
    expect(await rows('report(error, path, Date.now() - startTime);\n          throw error;')).toEqual(EXPECTED('/api/trpc'));
    // (a rejection handler throwing an error of its own answers the request with it: a 401, an auth check by behaviour)
    expect(await rows("throw new TRPCError({ code: 'UNAUTHORIZED' });")).toEqual(EXPECTED('/api/trpc', ['enhancedErrors:auth']));
  });

  it('a middleware named for the session that only runs the rest in an AsyncLocalStorage context (`return runWithSession(id, () => next())`) refuses nothing; one checking inside that context stays a guard', async () => {
    const scoped = TRPC.replace(
      "import type { Context } from './context';",
      `import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from './context';

const sessionStore = new AsyncLocalStorage<{ sessionId: string | null }>();
const runWithSession = <T>(sessionId: string | null, fn: () => Promise<T>) => sessionStore.run({ sessionId }, fn);`,
    )
      .replace(
        'export const publicProcedure = t.procedure.use(timing);',
        `const sessionScope = t.middleware(async ({ ctx, next }) => {
  const sessionId = ctx.session?.userId ?? null;
  return runWithSession(sessionId, async () => {
    return next();
  });
});

const sessionGate = t.middleware(async ({ ctx, next }) => {
  return runWithSession(ctx.session?.userId ?? null, async () => {
    if (!ctx.session?.userId) throw new TRPCError({ code: 'UNAUTHORIZED' });
    return next();
  });
});

export const publicProcedure = t.procedure.use(timing).use(sessionScope);
export const gatedProcedure = t.procedure.use(sessionGate);`,
      );
    const dir = project({
      'server/trpc.ts': scoped,
      'server/root.ts': ROOT.replace("import { createTRPCRouter, mergeRouters, protectedProcedure } from './trpc';", "import { createTRPCRouter, gatedProcedure, mergeRouters, protectedProcedure } from './trpc';").replace(
        '  me: protectedProcedure.query(({ ctx }) => ({ userId: ctx.session.userId })),',
        '  me: protectedProcedure.query(({ ctx }) => ({ userId: ctx.session.userId })),\n  whoami: gatedProcedure.query(({ ctx }) => ({ userId: ctx.session?.userId })),',
      ),
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { appRouter } from './root';
import { createContext } from './context';

export const app = express();
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext }));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([...EXPECTED('/api/trpc'), 'GET /api/trpc/whoami whoami server/root.ts:7 [sessionGate:auth]']);
  });

  it('a middleware checking, inside the context it runs the rest in, the membership of the organisation the input names: a tenant check', async () => {
    const scoped = TRPC.replace(
      "import type { Context } from './context';",
      `import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from './context';
import { getOrganizationAccess } from './access';

const sessionStore = new AsyncLocalStorage<{ sessionId: string | null }>();
const runWithSession = <T>(sessionId: string | null, fn: () => Promise<T>) => sessionStore.run({ sessionId }, fn);
const has = (key: string, input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && key in input;

class TRPCForbiddenError extends TRPCError {
  constructor(message: string) {
    super({ code: 'FORBIDDEN', message });
  }
}`,
    ).replace(
      'export const protectedProcedure = publicProcedure.use(isAuthed);',
      `const enforceAccess = t.middleware(async ({ ctx, next, getRawInput }) => {
  return runWithSession(ctx.session?.userId ?? null, async () => {
    const rawInput = await getRawInput();
    if (has('organizationId', rawInput)) {
      const access = await getOrganizationAccess({ userId: ctx.session!.userId!, organizationId: rawInput.organizationId as string });
      if (!access) {
        throw new TRPCForbiddenError('You do not have access to this organization');
      }
    }
    return next();
  });
});

export const protectedProcedure = publicProcedure.use(isAuthed).use(enforceAccess);`,
    );
    const dir = project({
      'server/trpc.ts': scoped,
      'server/access.ts': `const members = new Map<string, Set<string>>();

export async function getOrganizationAccess({ userId, organizationId }: { userId: string; organizationId: string }) {
  return members.get(organizationId)?.has(userId) ? { userId, organizationId } : null;
}
`,
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { appRouter } from './root';
import { createContext } from './context';

export const app = express();
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext }));
`,
    });
    const res = await check(dir);
    const tenant = 'enforceAccess:tenant';
    expect(lines(res)).toEqual([
      `POST /api/trpc/internal.ops.cache.purge internal.ops.cache.purge server/routers/ops.ts:10 [isAuthed:auth, ${tenant}]`,
      `POST /api/trpc/internal.ops.drain internal.ops.drain server/routers/ops.ts:4 [isAuthed:auth, ${tenant}]`,
      `GET /api/trpc/me me server/root.ts:6 [isAuthed:auth, ${tenant}]`,
      'GET /api/trpc/sites.badge sites.badge server/routers/sites.ts:12 []',
      `POST /api/trpc/sites.create sites.create server/routers/sites.ts:8 [isAuthed:auth, ${tenant}, (inline middleware):tenant]`,
      `GET /api/trpc/sites.list sites.list server/routers/sites.ts:7 [isAuthed:auth, ${tenant}, (inline middleware):tenant]`,
    ]);
    expect(res.routes.find((r) => r.path === '/api/trpc/me')!.guards.find((g) => g.kinds.includes('tenant'))).toMatchObject({ file: 'server/trpc.ts', line: 49 });
  });

  it('in Fastify (fastifyTRPCPlugin), under the prefix it is registered with, behind the hooks of the context', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^5.0.0', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import Fastify from 'fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { appRouter } from './root';
import { createContext } from './context';

async function verifyCsrfToken(request, reply) {
  if (request.headers['x-csrf-token'] !== request.session?.csrfToken) return reply.code(403).send({ error: 'csrf' });
}

export const app = Fastify();
app.addHook('onRequest', verifyCsrfToken);
app.register(fastifyTRPCPlugin, { prefix: '/api/trpc', trpcOptions: { router: appRouter, createContext } });
`,
    });
    expect(lines(await check(dir))).toEqual(EXPECTED('/api/trpc', ['verifyCsrfToken:csrf']));
  });

  it('in Fastify under a prefix not known statically: listed without it, a step of their prefixes saying so', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^5.0.0', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import Fastify from 'fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { appRouter } from './root';
import { createContext } from './context';

export function createServer(opts: { prefix?: string }) {
  const server = Fastify();
  void server.register(fastifyTRPCPlugin, { prefix: opts.prefix ?? '/trpc', trpcOptions: { router: appRouter, createContext } });
  return server;
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.prefixes.map((p) => p.unknown ?? p.prefix).join(' ')}`)).toEqual([
      "POST /internal.ops.cache.purge opts.prefix ?? '/trpc'",
      "POST /internal.ops.drain opts.prefix ?? '/trpc'",
      "GET /me opts.prefix ?? '/trpc'",
      "GET /sites.badge opts.prefix ?? '/trpc'",
      "POST /sites.create opts.prefix ?? '/trpc'",
      "GET /sites.list opts.prefix ?? '/trpc'",
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      "server/index.ts:8:8 warning unresolved-route the prefix of @trpc/server/adapters/fastify is not known statically (opts.prefix ?? '/trpc'); the routes it registers are listed without it",
    ]);
  });

  it('in Hono (@hono/trpc-server), at its endpoint, behind the middleware before it', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { hono: '^4.7.0', '@hono/trpc-server': '^0.3.4', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { trpcServer } from '@hono/trpc-server';
import { appRouter } from './root';

export const app = new Hono();
app.use('/api/*', csrf());
app.use('/api/trpc/*', trpcServer({ router: appRouter, endpoint: '/api/trpc' }));
`,
    });
    expect(lines(await check(dir))).toEqual(EXPECTED('/api/trpc', ['csrf:csrf']));
  });

  it('in a Hono sub-app (@hono/trpc-server), at the endpoint the URL starts with, not under the mount twice', async () => {
    // karakeep: the endpoint is the whole URL's head (tRPC reads c.req.raw), so a sub-app used at
    // /* and mounted at /trpc under basePath('/api') serves /api/trpc/<procedure>
    const pkg = JSON.stringify({ name: 'api', dependencies: { hono: '^4.7.0', '@hono/trpc-server': '^0.4.0', '@trpc/server': '^11.0.0', zod: '^3.23.0' } });
    const app = (trpcOptions: string, usedAt: string) => `import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { trpcServer } from '@hono/trpc-server';
import { appRouter } from './root';

const trpc = new Hono().use(${usedAt}trpcServer({ router: appRouter${trpcOptions} }));
const api = new Hono().use('*', csrf()).route('/trpc', trpc);
export const app = new Hono().basePath('/api').route('/', api);
`;
    const given = await check(project({ 'package.json': pkg, 'server/index.ts': app(", endpoint: '/api/trpc'", "'/*', ") }));
    expect(lines(given)).toEqual(EXPECTED('/api/trpc', ['csrf:csrf']));
    // not given: the path the middleware is used at (the current source's routePath), every path of the sub-app here
    const derived = await check(project({ 'package.json': pkg, 'server/index.ts': app('', '') }));
    expect(lines(derived)).toEqual(EXPECTED('/api/trpc', ['csrf:csrf']));
    // an endpoint the path it is used at never reaches: tRPC finds no procedure in what it is handed
    const astray = await check(project({ 'package.json': pkg, 'server/index.ts': app(", endpoint: '/trpc'", "'/*', ") }));
    expect(lines(astray)).toEqual([]);
    expect(astray.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      "server/index.ts:6 the endpoint of @hono/trpc-server ('/trpc') is not under the path it is used at ('/api/trpc/*'), so tRPC finds no procedure in a request it is handed; its procedures are left out",
    ]);
  });

  it('in a Next.js Pages Router API route (createNextApiHandler) and an App Router route handler (fetchRequestHandler)', async () => {
    const pkg = JSON.stringify({ name: 'web', dependencies: { next: '^15.0.0', '@trpc/server': '^11.0.0', zod: '^3.23.0' } });
    const pages = project({
      'package.json': pkg,
      'pages/api/trpc/[trpc].ts': `import { createNextApiHandler } from '@trpc/server/adapters/next';
import { appRouter } from '../../../server/root';
import { createContext } from '../../../server/context';

export default createNextApiHandler({ router: appRouter, createContext });
`,
    });
    expect(lines(await check(pages))).toEqual(EXPECTED('/api/trpc'));
    // the App Router route answers the methods it exports: GET alone serves the queries alone
    const app = project({
      'package.json': pkg,
      'app/api/trpc/[trpc]/route.ts': `import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '../../../../server/root';
import { createContext } from '../../../../server/context';

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createContext({ req: {} }),
  });

export { handler as GET };
`,
    });
    expect(lines(await check(app))).toEqual(EXPECTED('/api/trpc').filter((l) => l.startsWith('GET ')));
  });

  it('allowMethodOverride: a query is served by POST too where it is true, or not known statically to be false; a mutation never by GET', async () => {
    // (11's resolveResponse: TYPE_ACCEPTED_METHOD_MAP_WITH_METHOD_OVERRIDE)
    const overridden = (lines: string[]) => [...lines, ...lines.filter((l) => l.startsWith('GET ')).map((l) => l.replace(/^GET /, 'POST '))].sort((a, b) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!) || a.localeCompare(b));
    const express = (given: string) =>
      project({
        'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
        'server/index.ts': `import express from 'express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { appRouter } from './root';
import { createContext } from './context';

export const app = express();
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext${given} }));
`,
      });
    expect(lines(await check(express(', allowMethodOverride: true')))).toEqual(overridden(EXPECTED('/api/trpc')));
    expect(lines(await check(express(", allowMethodOverride: process.env.TRPC_POST_QUERIES === '1'")))).toEqual(overridden(EXPECTED('/api/trpc')));
    expect(lines(await check(express(', allowMethodOverride: false')))).toEqual(EXPECTED('/api/trpc'));
    const hono = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { hono: '^4.7.0', '@hono/trpc-server': '^0.3.4', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import { Hono } from 'hono';
import { trpcServer } from '@hono/trpc-server';
import { appRouter } from './root';

export const app = new Hono();
app.use('/api/trpc/*', trpcServer({ router: appRouter, endpoint: '/api/trpc', allowMethodOverride: true }));
`,
    });
    expect(lines(await check(hono))).toEqual(overridden(EXPECTED('/api/trpc')));
    const fastify = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^5.2.0', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import Fastify from 'fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { appRouter } from './root';
import { createContext } from './context';

const OVERRIDE = true;
export const app = Fastify();
app.register(fastifyTRPCPlugin, { prefix: '/api/trpc', trpcOptions: { router: appRouter, createContext, allowMethodOverride: OVERRIDE } });
`,
    });
    expect(lines(await check(fastify))).toEqual(overridden(EXPECTED('/api/trpc')));
    // an App Router route answers the methods it exports: POST serves the mutations, and the queries too
    const next = project({
      'package.json': JSON.stringify({ name: 'web', dependencies: { next: '^15.0.0', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'app/api/trpc/[trpc]/route.ts': `import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '../../../../server/root';

const handler = (req: Request) => fetchRequestHandler({ endpoint: '/api/trpc', req, router: appRouter, allowMethodOverride: true, createContext: () => ({}) });

export { handler as POST };
`,
    });
    expect(lines(await check(next))).toEqual(overridden(EXPECTED('/api/trpc')).filter((l) => l.startsWith('POST ')));
  });

  it("a middleware handing on every request without a user (`if (type !== 'mutation' || !ctx.user) return next()`) is no auth guard, whatever 401 it throws later (rallly's session guard)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'web', dependencies: { next: '^15.0.0', '@trpc/server': '^11.0.0' } }),
      'server/trpc.ts': `import { initTRPC, TRPCError } from '@trpc/server';
type Ctx = { user: { id: string; banned: boolean } | null };
const t = initTRPC.context<Ctx>().create();
export const router = t.router;

// re-checks a signed-in user on mutations: a banned account is refused; anonymous callers go on
const accountStillActive = t.middleware(async ({ ctx, type, next }) => {
  if (type !== 'mutation' || !ctx.user) {
    return next();
  }
  if (ctx.user.banned) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'account closed' });
  return next();
});

export const publicProcedure = t.procedure.use(accountStillActive);
export const privateProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED' });
  return next({ ctx: { user: ctx.user } });
});
`,
      'server/root.ts': `import { privateProcedure, publicProcedure, router } from './trpc';
export const appRouter = router({
  poll: publicProcedure.query(() => ({ title: 'lunch' })),
  vote: publicProcedure.mutation(() => ({ ok: true })),
  closePoll: privateProcedure.mutation(() => ({ ok: true })),
});
`,
      'app/api/trpc/[trpc]/route.ts': `import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '../../../../server/root';
const handler = (req: Request) => fetchRequestHandler({ endpoint: '/api/trpc', req, router: appRouter, createContext: () => ({ user: null }) });
export { handler as GET, handler as POST };
`,
    });
    expect(lines(await check(dir))).toEqual([
      'POST /api/trpc/closePoll closePoll server/root.ts:5 [(inline middleware):auth]',
      'GET /api/trpc/poll poll server/root.ts:3 []',
      'POST /api/trpc/vote vote server/root.ts:4 []',
    ]);
  });

  it('lazy routers (tRPC 11 `lazy`, `experimental_lazy`): the one export of the module loaded, or the export its then() reads', async () => {
    const express = `import express from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { appRouter } from './root';

export const app = express();
app.use('/trpc', createExpressMiddleware({ router: appRouter }));
`;
    const pkg = JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } });
    const dir = project({
      'package.json': pkg,
      'server/index.ts': express,
      'server/root.ts': `import { lazy } from '@trpc/server';
import { experimental_lazy } from '@trpc/server/unstable-core-do-not-import';
import { createTRPCRouter, mergeRouters, protectedProcedure } from './trpc';

const accountRouter = createTRPCRouter({
  me: protectedProcedure.query(({ ctx }) => ({ userId: ctx.session.userId })),
});

const ops = experimental_lazy(() =>
  import('./routers/ops').then((m) => {
    return m.opsRouter;
  }),
);

export const appRouter = mergeRouters(
  accountRouter,
  createTRPCRouter({ sites: lazy(() => import('./routers/sites')), internal: createTRPCRouter({ ops }) }),
);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(EXPECTED('/trpc'));
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);

    // a module with two exports: tRPC throws when it loads it ("either define exactly 1 export …")
    const two = project({
      'package.json': pkg,
      'server/index.ts': express,
      'server/root.ts': `import { lazy } from '@trpc/server';
import { createTRPCRouter } from './trpc';

export const appRouter = createTRPCRouter({ sites: lazy(() => import('./routers/both')) });
`,
      'server/routers/both.ts': `export { sitesRouter } from './sites';\nexport { opsRouter } from './ops';\n`,
    });
    const res2 = await check(two);
    expect(lines(res2)).toEqual(['ALL /trpc @trpc/server/adapters/express server/index.ts:6 []']);
    expect(findingRows(res2.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'server/index.ts:6:1 warning unresolved-route the lazy router at sites is not known statically (server/routers/both.ts does not export exactly one value): the procedures of this tRPC endpoint are not listed, the endpoint is one route',
    ]);
  });

  it("a router a function of the code returns (blobscan's `createAppRouter(config)`, a router of routers some made so too)", async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import express from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { createAppRouter } from './root';
import { createContext } from './context';

export const app = express();
app.use('/trpc', createExpressMiddleware({ router: createAppRouter({ ops: { enabled: true } }), createContext }));
`,
      'server/root.ts': `import { createTRPCRouter, mergeRouters, protectedProcedure } from './trpc';
import { sitesRouter } from './routers/sites';
import { opsRouter } from './routers/ops';

type AppRouterConfig = { ops: { enabled: boolean } };

function createInternalRouter(config?: AppRouterConfig['ops']) {
  return createTRPCRouter({ ops: opsRouter });
}

export function createAppRouter(config?: AppRouterConfig) {
  const accountRouter = createTRPCRouter({
    me: protectedProcedure.query(({ ctx }) => ({ userId: ctx.session.userId })),
  });
  return mergeRouters(accountRouter, createTRPCRouter({ sites: sitesRouter, internal: createInternalRouter(config?.ops) }));
}
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(EXPECTED('/trpc').map((l) => l.replace('server/root.ts:6', 'server/root.ts:13')));
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('builders joined with concat(), returned by a function of the code, or chosen by a `? :`; procedures a function returns', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/index.ts': `import express from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { statusRouter } from './routers/status';

export const app = express();
app.use('/trpc', createExpressMiddleware({ router: statusRouter }));
`,
      'server/builders.ts': `import { TRPCError } from '@trpc/server';
import { createTRPCRouter, protectedProcedure, publicProcedure } from './trpc';

const readOnly = ({ ctx, type, next }) => {
  if (process.env.READ_ONLY === '1' && type === 'mutation') throw new TRPCError({ code: 'FORBIDDEN' });
  return next({ ctx });
};

const SIGNED_IN_ONLY = true;

// (a test not known statically: what both branches run; one known: its branch)
export const baseProcedure = process.env.DEMO === '1' ? protectedProcedure.use(readOnly) : protectedProcedure;
export const memberProcedure = SIGNED_IN_ONLY ? protectedProcedure : publicProcedure;

export const permissionProcedure = {
  requires: (permission: string) => {
    return publicProcedure.use(({ ctx, next }) => {
      if (!ctx.session?.permissions?.includes(permission)) throw new TRPCError({ code: 'FORBIDDEN' });
      return next();
    });
  },
};

export const queryWithSession = (answer: () => unknown) => publicProcedure.concat(protectedProcedure).query(answer);
`,
      'server/routers/status.ts': `import { createTRPCRouter } from '../trpc';
import { baseProcedure, memberProcedure, permissionProcedure, queryWithSession } from '../builders';

export const statusRouter = createTRPCRouter({
  ping: queryWithSession(() => 'pong'),
  settings: baseProcedure.mutation(({ ctx }) => ctx.db.settings.save()),
  members: memberProcedure.query(({ ctx }) => ctx.db.members.findMany()),
  purge: permissionProcedure.requires('admin').mutation(({ ctx }) => ctx.db.cache.purge()),
});
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /trpc/members members server/routers/status.ts:7 [isAuthed:auth]',
      'GET /trpc/ping ping server/builders.ts:24 [isAuthed:auth]',
      'POST /trpc/purge purge server/routers/status.ts:8 [(inline middleware):unknown]',
      'POST /trpc/settings settings server/routers/status.ts:6 [isAuthed:auth]',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("a middleware piped after another (`isUser.unstable_pipe(fn)`), made by a function of the code: both run, the piped function named as `.use()` is given it (tianji)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'tianji', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0', zod: '^3.23.0' } }),
      'server/trpc.ts': `import { initTRPC, TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Request } from 'express';
import { getWorkspaceUser, verifyToken } from './model';

export async function createContext({ req }: { req: Request }) {
  return { token: String(req.headers['authorization'] ?? '').replace('Bearer ', ''), req };
}

const t = initTRPC.context<Awaited<ReturnType<typeof createContext>>>().create();
export const middleware = t.middleware;
export const router = t.router;

export const publicProcedure = t.procedure;

const isUser = middleware(async (opts) => {
  const user = opts.ctx.token ? await verifyToken(opts.ctx.token) : null;
  if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'No Token or Session' });
  return opts.next({ ctx: { user } });
});

export const protectProedure = t.procedure.use(isUser);

/** Checks the workspace the input names; includes the user's authentication. */
function createWorkspacePermissionMiddleware() {
  return isUser.unstable_pipe(async (opts) => {
    const { ctx, input } = opts;
    const info = await getWorkspaceUser((input as { workspaceId: string }).workspaceId, ctx.user.id);
    if (!info) throw new TRPCError({ code: 'FORBIDDEN', message: 'Is not workspace user' });
    return opts.next();
  });
}

export const workspaceProcedure = publicProcedure.input(z.object({ workspaceId: z.string() })).use(createWorkspacePermissionMiddleware());
`,
      'server/model.ts': `export async function verifyToken(token: string) {
  return token.length > 10 ? { id: token.slice(0, 10) } : null;
}

export async function getWorkspaceUser(workspaceId: string, userId: string) {
  return workspaceId && userId ? { role: 'owner' } : null;
}
`,
      'server/routers/website.ts': `import { z } from 'zod';
import { publicProcedure, protectProedure, router, workspaceProcedure } from '../trpc';

export const websiteRouter = router({
  onlineCount: workspaceProcedure.input(z.object({ websiteId: z.string() })).query(({ input }) => ({ count: input.websiteId.length })),
  mine: protectProedure.query(({ ctx }) => ({ user: ctx.user.id })),
  publicInfo: publicProcedure.query(() => ({ name: 'tianji' })),
});
`,
      'server/app.ts': `import express from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { createContext } from './trpc';
import { websiteRouter } from './routers/website';

export const app = express();
app.use('/trpc', createExpressMiddleware({ router: websiteRouter, createContext }));
app.listen(12345);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /trpc/mine mine server/routers/website.ts:6 [isUser:auth]',
      'GET /trpc/onlineCount onlineCount server/routers/website.ts:5 [isUser:auth, createWorkspacePermissionMiddleware:tenant]',
      'GET /trpc/publicInfo publicInfo server/routers/website.ts:7 []',
    ]);
  });

  it('a router not known statically: a warning at the endpoint, which is one route', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', '@trpc/server': '^11.0.0' } }),
      'server/index.ts': `import express from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { loadRouter } from './plugins';

export const app = express();
app.use('/trpc', createExpressMiddleware({ router: loadRouter(process.env.PLUGIN) }));
`,
      'server/plugins.ts': `export function loadRouter(name: string) {
  return require(name).router;
}
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['ALL /trpc @trpc/server/adapters/express server/index.ts:6 []']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'server/index.ts:6:1 warning unresolved-route the router is not known statically: the procedures of this tRPC endpoint are not listed, the endpoint is one route',
    ]);
  });
});
