/**
 * Routers made by a factory function (`createRouter()` returning a new `Router()` / `Hono`):
 * each call makes a router of its own, so what one caller registers on it is not served by
 * another's. Expectations are JavaScript's: a factory that makes its router afresh returns a
 * new object per call; one that returns a module's router returns the same object each time.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

/** "METHOD path guards…" for compact assertions. */
function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.guards.length ? ' ' + r.guards.map((g) => g.name).join(' ') : ''}`);
}

/** "METHOD path [guards] (conditional guards when their conditions)" for assertions on conditional guards. */
function conditionalLines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] (${(r.conditionalGuards ?? []).map((g) => `${g.name} when ${g.when}`).join('; ')})`);
}

const EXPRESS = JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0' }, devDependencies: { supertest: '^7.0.0' } });
const GUARDS = `
export function requireSession(req, res, next) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}
export function requireStaff(req, res, next) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}
`;

describe('Express router factories', () => {
  it('each call of createRouter() is a router of its own, with the factory’s middleware first', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/lib/router.ts': `
import express from 'express';
import { requireSession } from '../guards';

/** Every API router: parameters of the mount path reach the handlers, and a session is required. */
export function createRouter() {
  const router = express.Router({ mergeParams: true });
  router.use(requireSession);
  return router;
}

/** Staff tools: a router made by a chain that answers the router itself. */
export const createStaffRouter = () => express.Router().use(requireSession);
`,
        'src/routes/sites.ts': `
import { createRouter } from '../lib/router';
const sites = createRouter();
sites.get('/', (req, res) => res.json({ items: [] }));
sites.get('/:siteId', (req, res) => res.json({ id: req.params.siteId }));
export default sites;
`,
        'src/routes/users.ts': `
import { createRouter, createStaffRouter } from '../lib/router';
import { requireStaff } from '../guards';
const users = createRouter();
users.get('/me', (req, res) => res.json({ id: req.session.userId }));
export const staff = createStaffRouter();
staff.use(requireStaff);
staff.get('/', (req, res) => res.json({ items: [] }));
export const audit = createStaffRouter();
audit.get('/', (req, res) => res.json({ events: [] }));
export default users;
`,
        'src/routes/health.ts': `
import express from 'express';

/** The probe router: made whole by its factory, mounted as it comes. */
export default function healthRoutes() {
  const router = express.Router();
  router.get('/ready', (req, res) => res.json({ status: 'ready' }));
  return router;
}
`,
        'src/app.ts': `
import express from 'express';
import sites from './routes/sites';
import users, { audit, staff } from './routes/users';
import healthRoutes from './routes/health';
const app = express();
app.use('/api/health', healthRoutes());
app.use('/api/sites', sites);
app.use('/api/users', users);
app.use('/api/staff/users', staff);
app.use('/api/staff/audit', audit);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api/health/ready',
      'GET /api/sites/ requireSession',
      'GET /api/sites/:siteId requireSession',
      'GET /api/staff/audit/ requireSession',
      'GET /api/staff/users/ requireSession requireStaff',
      'GET /api/users/me requireSession',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('an app factory called by a test that adds nothing, and by the server that mounts the API: one app, the server’s', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/app.ts': `
import express from 'express';
export function createApp() {
  const app = express();
  app.use(express.json());
  app.get('/api/health/ready', (req, res) => res.json({ status: 'ready' }));
  return app;
}
`,
        'src/server.ts': `import express from 'express';\nimport { createApp } from './app';\nimport { requireSession } from './guards';\nconst app = createApp();\nconst api = express.Router();\napi.get('/auth/me/', requireSession, (req, res) => res.json({ id: req.session.userId }));\napp.use('/api', api);\napp.listen(3000);\n`,
        'test/app.test.ts': `import request from 'supertest';\nimport { createApp } from '../src/app';\nexport const probe = () => request(createApp()).get('/api/health/ready').expect(200);\n`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/auth/me/ requireSession', 'GET /api/health/ready']);
    expect(new Set(res.routes.map((r) => r.app)).size).toBe(1);
  });

  it('a function returning a module’s router returns the same router to every caller', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/lib/shared.ts': `
import express from 'express';
const shared = express.Router();
export function sharedRouter() {
  return shared;
}
`,
        'src/a.ts': `import { sharedRouter } from './lib/shared';\nconst r = sharedRouter();\nr.get('/a', (req, res) => res.send('a'));\nexport default r;\n`,
        'src/b.ts': `import { sharedRouter } from './lib/shared';\nconst r = sharedRouter();\nr.get('/b', (req, res) => res.send('b'));\nexport default r;\n`,
        'src/app.ts': `import express from 'express';\nimport a from './a';\nconst app = express();\napp.use('/api', a);\napp.listen(3000);\n`,
      }),
    );
    // one object: what b.ts registers on it is served under /api too
    expect(lines(res)).toEqual(['GET /api/a', 'GET /api/b']);
  });
});

describe('Express and Hono factories whose callers pass options', () => {
  it('Express: strict routers from a factory that registers the routes, mounted twice', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/status.ts': `
import { Router } from 'express';

export function statusRouter(strict: boolean) {
  const router = Router({ strict });
  router.get('/status/', (req, res) => res.json({ ok: true }));
  return router;
}
`,
        'src/app.ts': `
import express from 'express';
import { statusRouter } from './status';

const app = express();
app.use('/v1', statusRouter(true));
app.use('/v2', statusRouter(true));
app.listen(3000);
`,
      }),
    );
    // (the factory's own router, not strict as far as is known, is served only through the callers')
    expect(lines(res)).toEqual(['GET /v1/status/', 'GET /v2/status/']);
    expect(res.routes.map((r) => r.trailingSlashInsensitive)).toEqual([false, false]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Hono: sub-apps a factory makes with options of their own, mounted twice', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { hono: '^4.6.0' } }),
        'src/app.ts': `
import { Hono } from 'hono';

function statusApp(strict: boolean) {
  const app = new Hono({ strict });
  app.get('/status/', (c) => c.json({ ok: true }));
  return app;
}

export const api = new Hono();
api.route('/v1', statusApp(false));
api.route('/v2', statusApp(false));
`,
      }),
    );
    // (each mounted where the call is, and the factory's own app is no app of its own)
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.app}`)).toEqual(['GET /v1/status/ api', 'GET /v2/status/ api']);
    expect(unresolvedRows(res)).toEqual([]);
  });
});

describe('Hono router factories (the stoker / hono-open-api-starter layout)', () => {
  it("createRouter() per module and createApp() around it: each module is mounted where the app says; stoker's middleware guards nothing", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'tasks-api', dependencies: { hono: '^4.6.0', '@hono/zod-openapi': '^0.18.0' } }),
        'src/lib/create-app.ts': `
import { OpenAPIHono } from '@hono/zod-openapi';
import { logger } from 'hono/logger';
import { notFound, onError, serveEmojiFavicon } from 'stoker/middlewares';

export function createRouter() {
  return new OpenAPIHono({ strict: false });
}

export default function createApp() {
  const app = createRouter();
  app.use(logger()).use(serveEmojiFavicon('📝'));
  app.notFound(notFound);
  app.onError(onError);
  return app;
}
`,
        'src/routes/index.route.ts': `
import { createRouter } from '../lib/create-app';
const router = createRouter().get('/', (c) => c.json({ message: 'Tasks API' }));
export default router;
`,
        'src/routes/tasks.index.ts': `
import { createRouter } from '../lib/create-app';
const router = createRouter()
  .get('/tasks', (c) => c.json([]))
  .delete('/tasks/:id', (c) => c.body(null, 204));
export default router;
`,
        'src/app.ts': `
import { bearerAuth } from 'hono/bearer-auth';
import createApp from './lib/create-app';
import index from './routes/index.route';
import tasks from './routes/tasks.index';

const app = createApp();
app.use('/api/*', bearerAuth({ token: process.env.API_TOKEN! }));
const routes = [index] as const;
routes.forEach((route) => {
  app.route('/', route);
});
app.route('/api', tasks);
export default app;
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /', 'GET /api/tasks bearerAuth', 'DELETE /api/tasks/:id bearerAuth']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a factory returning an empty app under a test not known statically, its routes' app otherwise: route() mounts the one with routes; of two apps with routes, route() is warned about (Hono copies a table: two ways' tables would guard each other's routes)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'uploads', dependencies: { hono: '^4.6.0' } }),
        'src/app.ts': `
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';

function s3(config: { bucket?: string }) {
  if (config.bucket == null) return new Hono();
  const s3Routes = new Hono();
  s3Routes.get('/sts', (c) => c.json({ bucket: config.bucket }));
  return s3Routes;
}

function admin(locked: boolean) {
  const open = new Hono();
  open.get('/stats', (c) => c.json({ users: 0 }));
  if (!locked) return open;
  const guarded = new Hono();
  guarded.use('*', bearerAuth({ token: process.env.ADMIN_TOKEN! }));
  guarded.get('/stats', (c) => c.json({ users: 0 }));
  return guarded;
}

const app = new Hono();
app.route('/s3', s3({ bucket: process.env.COMPANION_AWS_BUCKET }));
app.route('/admin', admin(process.env.LOCKED === '1'));
app.get('/health', (c) => c.text('ok'));
export default app;
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /health', 'GET /s3/sts', 'GET /stats', 'GET /stats bearerAuth']);
    expect(unresolvedRows(res)).toEqual(["src/app.ts:24:1 warning unresolved-route sub-app mounted at '/admin' could not be resolved (admin() returns one of several routers); the routes under it are unknown"]);
  });
});

describe('Koa router factories', () => {
  it("a factory's parameters are each call's arguments (or their defaults): createRouter() and createRouter('/api/v2', true) are two prefixes", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { koa: '^2.16.1', '@koa/router': '^13.1.0' } }),
        'src/lib/router.ts': `
import Router from '@koa/router';
import type { Context, Next } from 'koa';

async function requireSession(ctx: Context, next: Next) {
  if (!ctx.session?.userId) {
    ctx.status = 401;
    ctx.body = { error: 'unauthenticated' };
    return;
  }
  await next();
}

/** A versioned API router: every route needs a session. */
export const createRouter = (prefix = '/api/v1', strict = false) => {
  const router = new Router({ prefix, strict });
  router.use(requireSession);
  return router;
};

/** The partner API, mounted where the deployment says. */
export function partnerRouter() {
  return new Router({ prefix: process.env.PARTNER_API_PREFIX });
}
`,
        'src/app.ts': `
import Koa from 'koa';
import { createRouter, partnerRouter } from './lib/router';

// the default version
const v1 = createRouter();
v1.get('/sites', async (ctx) => {
  ctx.body = { items: [] };
});
const v2 = createRouter('/api/v2', true);
v2.get('/sites/', async (ctx) => {
  ctx.body = { items: [], next: null };
});
const partners = partnerRouter();
partners.get('/usage', async (ctx) => {
  ctx.body = { requests: 0 };
});

const app = new Koa();
app.use(v1.routes());
app.use(v2.routes());
app.use(partners.routes());
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/v1/sites requireSession', 'GET /api/v2/sites/ requireSession', 'GET /usage']);
    expect(res.routes.map((r) => r.trailingSlashInsensitive)).toEqual([true, false, true]);
    expect(unresolvedRows(res)).toEqual([
      "src/lib/router.ts:23:10 warning unresolved-route router prefix not known statically (property PARTNER_API_PREFIX of a value not known statically); the router's routes are listed without it",
    ]);
  });

  it("a factory that registers every route itself: each call's router is listed with the prefix the call passes", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { koa: '^2.16.1', '@koa/router': '^13.1.0' } }),
        'src/health.ts': `
import Router from '@koa/router';

/** Liveness routes for a versioned API. */
export function healthRouter(prefix: string) {
  const router = new Router({ prefix });
  router.get('/health', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/ready', (ctx) => {
    ctx.body = { ready: true };
  });
  return router;
}
`,
        'src/app.ts': `
import Koa from 'koa';
import { healthRouter } from './health';

const app = new Koa();
app.use(healthRouter('/api/v1').routes());
app.use(healthRouter('/api/v2').routes());
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/v1/health', 'GET /api/v1/ready', 'GET /api/v2/health', 'GET /api/v2/ready']);
    // the factory's own router, whose prefix is its parameter, is served only through the callers' routers
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a factory returning an empty router under a test not known statically, its routes' router otherwise: use() of its routes() mounts the one with routes; of two routers with routes, use() is warned about", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'uploads', dependencies: { koa: '^2.16.1', '@koa/router': '^13.1.0' } }),
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import type { Context, Next } from 'koa';

async function requireAdmin(ctx: Context, next: Next) {
  if (ctx.get('authorization') !== \`Bearer \${process.env.ADMIN_TOKEN}\`) ctx.throw(401);
  await next();
}

function s3(config: { bucket?: string | null }) {
  const router = new Router();
  if (config.bucket == null) return router;
  const s3Router = new Router();
  s3Router.get('/params', async (ctx) => {
    ctx.body = { bucket: config.bucket };
  });
  s3Router.post('/multipart', async (ctx) => {
    ctx.body = { uploadId: crypto.randomUUID() };
  });
  return s3Router;
}

function admin(locked: boolean) {
  const open = new Router();
  open.get('/stats', async (ctx) => {
    ctx.body = { users: 0 };
  });
  if (!locked) return open;
  const guarded = new Router();
  guarded.use(requireAdmin);
  guarded.get('/stats', async (ctx) => {
    ctx.body = { users: 0 };
  });
  return guarded;
}

const app = new Koa();
const root = new Router();
root.use('/s3', s3({ bucket: process.env.COMPANION_AWS_BUCKET }).routes());
root.get('/health', async (ctx) => {
  ctx.body = 'ok';
});
app.use(root.routes());
app.use(s3({ bucket: process.env.LEGACY_BUCKET }).routes());
app.use(admin(process.env.LOCKED === '1').routes());
export default app;
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /health', 'POST /multipart', 'GET /params', 'POST /s3/multipart', 'GET /s3/params', 'GET /stats', 'GET /stats requireAdmin']);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:25:16 warning unresolved-route router open is never mounted on an app in the analysed files; its routes are listed with its own prefix only',
      'src/app.ts:30:19 warning unresolved-route router guarded is never mounted on an app in the analysed files; its routes are listed with its own prefix only',
      'src/app.ts:46:1 warning unresolved-route mounted router could not be resolved (admin() returns one of several routers); the routes under it are unknown',
    ]);
  });
});

describe("a factory's routes that read its parameters", () => {
  it('are made with each call’s arguments: paths, choices and conditions (Express, Hono, Koa)', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0', hono: '^4.8.0', koa: '^2.16.1', '@koa/router': '^13.1.0' } }),
        'src/status.ts': `
import { Router } from 'express';

/** Liveness routes, public or for operators. */
export function statusRouter(prefix: string, mode: 'public' | 'internal') {
  const router = Router();
  router.get(\`\${prefix}/status\`, (req, res) => res.json({ ok: true }));
  router.get(mode === 'public' ? '/ping' : '/debug/ping', (req, res) => res.json({ pong: true }));
  return router;
}
`,
        'src/server.ts': `
import express from 'express';
import { statusRouter } from './status';

const app = express();
app.use('/api', statusRouter('/v1', 'public'));
app.use('/internal', statusRouter('/v2', 'internal'));
app.listen(3000);
`,
        'src/hono.ts': `
import { Hono } from 'hono';

function health(base: string, opts: { debug: boolean }) {
  const h = new Hono();
  h.get(\`\${base}/health\`, (c) => c.json({ ok: true }));
  if (opts.debug) h.get('/debug/vars', (c) => c.json({}));
  return h;
}

const app = new Hono();
app.route('/edge', health('/v1', { debug: false }));
app.route('/ops', health('/v2', { debug: true }));
export default app;
`,
        'src/koa.ts': `
import Koa from 'koa';
import Router from '@koa/router';

function versioned(version: string) {
  const r = new Router();
  r.get(\`/\${version}/items\`, async (ctx) => { ctx.body = []; });
  return r;
}

const app = new Koa();
app.use(versioned('v1').routes());
app.use(versioned('v2').routes());
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/ping src/status.ts:8',
      'GET /api/v1/status src/status.ts:7',
      'GET /edge/v1/health src/hono.ts:6',
      'GET /internal/debug/ping src/status.ts:8',
      'GET /internal/v2/status src/status.ts:7',
      // (debug: false: the vars route is the ops app's only)
      'GET /ops/debug/vars src/hono.ts:7',
      'GET /ops/v2/health src/hono.ts:6',
      'GET /v1/items src/koa.ts:7',
      'GET /v2/items src/koa.ts:7',
    ]);
    // the factories' own routers are served only through their callers': nothing is left unknown
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('are the factory’s, listed once, when no call gives them a path of its own (an app factory every test calls)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/app.ts': `
import express from 'express';
import { requireSession } from './guards';

export function createApp(config, session) {
  const app = express();
  if (session) app.use(session);
  app.get(\`\${config.basePath}/health\`, (req, res) => res.json({ ok: true }));
  app.get('/api/sites', requireSession, (req, res) => res.json({ items: [] }));
  return app;
}
`,
        'src/server.ts': `
import { createApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const app = createApp(config, config.session);
app.listen(3000);
`,
        'src/config.ts': `export function loadConfig() { return JSON.parse(process.env.CONFIG ?? '{}'); }`,
        'test/app.test.ts': `
import request from 'supertest';
import { createApp } from '../src/app';
import { requireSession } from '../src/guards';

it('serves sites', async () => {
  const app = createApp({ basePath: process.env.BASE }, requireSession);
  await request(app).get('/api/sites').expect(401);
});
`,
      }),
    );
    // the factory's routes as it alone makes them (the middleware it is handed is a guard only
    // under its condition): one app, not one for the server and one for the test
    const withConditional = conditionalLines(res);
    expect(withConditional).toEqual(['GET /api/sites [requireSession] (session when session)', 'GET /health [] (session when session)']);
  });

  it('a parameter a call passes `undefined` for tests false there: the middleware under that test is not used (the server’s app)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/app.ts': `
import express from 'express';
import { requireSession } from './guards';

export function createApp(session) {
  const app = express();
  if (session) app.use(session);
  app.get('/health', (req, res) => res.json({ ok: true }));
  app.get('/api/sites', requireSession, (req, res) => res.json({ items: [] }));
  return app;
}
`,
        'src/server.ts': `
import { createApp } from './app';

const app = createApp(undefined);
app.listen(3000);
`,
      }),
    );
    const withConditional = conditionalLines(res);
    expect(withConditional).toEqual(['GET /api/sites [requireSession] ()', 'GET /health [] ()']);
  });

  it("callers alike are walked once: an app factory its tests call with the same options (saltcorn's `getApp({ disableCsrf: true })` in 104 places) stays within the route budget", async () => {
    const tests = Object.fromEntries(
      ['sites', 'members', 'billing', 'audit'].map((name) => [
        `test/${name}.test.ts`,
        `
import { getApp } from '../src/app';
import { request } from './helpers';

it('serves ${name}', async () => {
  const app = await getApp({ disableCsrf: true });
  await request(app).get('/api/${name}').expect(401);
});
`,
      ]),
    );
    // (saltcorn's own request() in its test helpers: it sets a setting on every app it is handed)
    tests['test/helpers.ts'] = `
import supertest from 'supertest';

export function request(app) {
  app.set('trust proxy', true);
  return supertest(app);
}
`;
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0', csurf: '^1.11.0' }, devDependencies: { supertest: '^7.0.0' } }),
        'route-surface.config.json': JSON.stringify({ budgets: { maxRoutes: 12 } }),
        'src/guards.ts': GUARDS,
        'src/api.ts': `
import { Router } from 'express';
import { requireSession } from './guards';

export const api = Router();
api.use(requireSession);
for (const name of ['sites', 'members', 'billing', 'audit']) api.get(\`/\${name}\`, (req, res) => res.json({ items: [] }));
`,
        'src/app.ts': `
import express from 'express';
import csurf from 'csurf';
import { api } from './api';

export async function getApp(opts: { disableCsrf?: boolean } = {}) {
  const app = express();
  if (!opts.disableCsrf) app.use(csurf());
  app.use('/api', api);
  return app;
}
`,
        ...tests,
      }),
    );
    // each test's app is its own (the call drops the CSRF middleware, and the helper sets a
    // setting on it), all four alike: walked once, 5 expansions — four walks would be 20
    expect(lines(res)).toEqual(['GET /api/audit requireSession', 'GET /api/billing requireSession', 'GET /api/members requireSession', 'GET /api/sites requireSession']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a function registering on the router it is given, called inside a registration's arguments (`app.use('/api', mountSites(express.Router()))`), and methods called through `call` / `apply` (parse-server's PromiseRouter: `expressApp[method].call(expressApp, route.path, handler)`; mockbin's list extended with `concat`)", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.js': GUARDS,
        // a table of routes mounted onto whatever router it is handed, each by its method's name
        'src/promise-router.js': `export function mountOnto(expressApp, routes) {
  routes.forEach((route) => {
    const method = route.method.toLowerCase();
    expressApp[method].call(expressApp, route.path, ...route.handlers);
  });
  return expressApp;
}
`,
        'src/sites.js': `import { requireSession } from './guards.js';

const RENAME = [requireSession, async (req, res) => res.json({ renamed: true })];

export function mountSites(router) {
  router.get.call(router, '/sites', requireSession, async (req, res) => res.json([]));
  router.delete.apply(router, ['/sites/:siteId', requireSession, async (req, res) => res.status(204).end()]);
  // (mockbin's \`router[endpoint.action].apply(router, [endpoint.path].concat(defaults))\`)
  router.patch.apply(router, ['/sites/:siteId'].concat(RENAME));
  return router;
}
`,
        'src/server.js': `import express from 'express';
import { mountOnto } from './promise-router.js';
import { mountSites } from './sites.js';
import { requireSession, requireStaff } from './guards.js';

const app = express();
const v2 = express.Router();
app.use('/api', mountSites(express.Router()));
app.use('/api/v2', mountSites(v2));

const ADMIN = [
  { method: 'GET', path: '/users', handlers: [requireStaff, async (req, res) => res.json([])] },
  { method: 'POST', path: '/users/:id/disable', handlers: [requireStaff, async (req, res) => res.status(204).end()] },
];
app.use('/admin', requireSession, mountOnto(express.Router(), ADMIN));
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /admin/users requireSession requireStaff',
      'POST /admin/users/:id/disable requireSession requireStaff',
      'GET /api/sites requireSession',
      'DELETE /api/sites/:siteId requireSession',
      'PATCH /api/sites/:siteId requireSession',
      'GET /api/v2/sites requireSession',
      'DELETE /api/v2/sites/:siteId requireSession',
      'PATCH /api/v2/sites/:siteId requireSession',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("an app factory mounting the router each call hands it, called for what it starts (erxes's plugins: `startPlugin({ name, port, expressRouter, onServerInit })`): each call's app serves that router, and what the callback it hands registers on the app", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'shared/start-plugin.ts': `
import express, { type Router } from 'express';
import { requireSession } from '../src/guards';

type ConfigTypes = { name: string; port: number; expressRouter?: Router; onServerInit?: (app: express.Express) => Promise<void> };

export async function startPlugin(configs: ConfigTypes): Promise<express.Express> {
  const { name, port, expressRouter, onServerInit } = configs || {};
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '15mb' }));

  // for health check
  app.get('/health', async (_req, res) => {
    res.end('ok');
  });

  app.use(requireSession);

  if (expressRouter) {
    app.use(expressRouter);
  }

  if (onServerInit) {
    await onServerInit(app);
  }

  app.listen(port, () => console.log(\`\${name} plugin on \${port}\`));
  return app;
}
`,
        'plugins/sales/main.ts': `
import { Router } from 'express';
import { startPlugin } from '../../shared/start-plugin';

const router = Router();
router.get('/pl:sales/deals', async (_req, res) => res.json({ deals: [] }));
router.post('/pl:sales/deals/:id/won', async (req, res) => res.json({ id: req.params.id, won: true }));

startPlugin({ name: 'sales', port: 3305, expressRouter: router });
`,
        'plugins/content/main.ts': `
import { startPlugin } from '../../shared/start-plugin';

startPlugin({ name: 'content', port: 3303 });
`,
        'plugins/payment/main.ts': `
import express from 'express';
import { startPlugin } from '../../shared/start-plugin';
import initWebhooks from './webhooks';

const payments = express.Router();
payments.get('/pl:payment/invoices/:id', async (req, res) => res.json({ id: req.params.id }));

export const app = startPlugin({
  name: 'payment',
  port: 3304,
  expressRouter: payments,
  onServerInit: async (app) => {
    app.post('/pl:payment/callback/:provider', express.raw({ type: '*/*' }), async (req, res) => {
      res.json({ provider: req.params.provider, received: true });
    });
    await initWebhooks(app);
  },
});
`,
        'plugins/payment/webhooks.ts': `
import type { Express } from 'express';

export default async function initWebhooks(app: Express) {
  app.post('/pl:payment/webhooks/stripe', async (req, res) => {
    res.json({ received: true });
  });
}
`,
      }),
    );
    // (what `onServerInit(app)` registers runs after the session layer, as the router does)
    expect(lines(res)).toEqual([
      'GET /health',
      'POST /pl:payment/callback/:provider requireSession',
      'GET /pl:payment/invoices/:id requireSession',
      'POST /pl:payment/webhooks/stripe requireSession',
      'GET /pl:sales/deals requireSession',
      'POST /pl:sales/deals/:id/won requireSession',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a function returning one router or another by a `? :` of its parameter: the one the call picks, either when the test is not known statically', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/routers.ts': `
import { Router } from 'express';
import { requireSession } from './guards';

const adminRouter = Router();
adminRouter.use(requireSession);
adminRouter.get('/stats', (req, res) => res.json({ users: 0 }));

const publicRouter = Router();
publicRouter.get('/news', (req, res) => res.json({ items: [] }));

export const routerFor = (audience: string) => (audience === 'admin' ? adminRouter : publicRouter);
export const configured = () => (process.env.ADMIN_UI ? adminRouter : publicRouter);
`,
        'src/app.ts': `
import express from 'express';
import { configured, routerFor } from './routers';

const app = express();
app.use('/admin', routerFor('admin'));
app.use('/public', routerFor('public'));
app.use('/ui', configured());
app.get('/ui/help', (req, res) => res.json({ topics: [] }));
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /admin/stats requireSession',
      'GET /public/news',
      // (the admin router's requireSession runs for every request entering it: not for the
      // public router's, the other way, nor for what comes after, as only one way passes it on)
      'GET /ui/help',
      'GET /ui/news',
      'GET /ui/stats requireSession',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a factory returning an empty router under a test of its options not known statically, and the router it builds otherwise (Uppy Companion's S3 routes): one or the other, so both ways' routes are listed; a test the call decides picks one", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/s3.ts': `
import express from 'express';

export default function s3(config: { bucket?: string; expires: number }) {
  const getTemporarySecurityCredentials = (req, res) => res.json({ bucket: config.bucket });
  const createMultipartUpload = (req, res) => res.json({ uploadId: 'u1' });
  if (config.bucket == null) {
    return express.Router(); // empty router because s3 is not enabled
  }
  return express
    .Router()
    .get('/sts', getTemporarySecurityCredentials)
    .post('/multipart', express.json(), createMultipartUpload);
}

export function uploads(enabled: boolean) {
  if (!enabled) return express.Router();
  return express.Router().post('/files', (req, res) => res.status(201).json({}));
}
`,
        'src/companion.ts': `
import express from 'express';
import s3, { uploads } from './s3';
import { requireSession } from './guards';

export function app(options: { s3: { bucket?: string; expires: number } }) {
  const companion = express();
  companion.use('/s3', requireSession, s3(options.s3));
  companion.use('/uploads', uploads(false));
  companion.use('/files', uploads(true));
  return companion;
}
`,
        'src/server.ts': `
import express from 'express';
import { app as companion } from './companion';

const server = express();
server.use(companion({ s3: { bucket: process.env.COMPANION_AWS_BUCKET, expires: 800 } }));
server.listen(3020);
`,
      }),
    );
    expect(lines(res)).toEqual(['POST /files/files', 'POST /s3/multipart requireSession', 'GET /s3/sts requireSession']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a factory's middleware under a test of its parameters guards the routes of the calls that pass the test, and only those (each call's router standing apart)", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/resources.ts': `
import { Router } from 'express';
import { requireSession } from './guards';

export function resourceRouter(opts: { resource: string; auth: boolean }) {
  const router = Router();
  if (opts.auth) router.use(requireSession);
  router.get(\`/\${opts.resource}\`, (req, res) => res.json({ items: [] }));
  return router;
}
`,
        'src/app.ts': `
import express from 'express';
import { resourceRouter } from './resources';

const app = express();
app.use('/api', resourceRouter({ resource: 'sites', auth: true }));
app.use('/public', resourceRouter({ resource: 'status', auth: false }));
app.listen(3000);
`,
      }),
    );
    // (noted where the factory registers, the test held for every call's router: requireSession
    // was only a conditional guard of /api/sites, "when opts.auth")
    const withConditional = conditionalLines(res);
    expect(withConditional).toEqual(['GET /api/sites [requireSession] ()', 'GET /public/status [] ()']);
  });

  it("a factory's `if (guard) router.use(guard)` of a destructured option: not used by a call passing none (`makeRoutes()` of `({ guard } = {})`), so it guards nothing mounted after; used by one passing a guard", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS,
        'src/guards.ts': GUARDS,
        'src/routes.ts': `
import { Router, type RequestHandler } from 'express';

export const makeRoutes = ({ prefix = '/api', guard }: { prefix?: string; guard?: RequestHandler } = {}) => {
  const router = Router();
  if (guard) router.use(guard);
  router.get(\`\${prefix}/items\`, (req, res) => res.json({ items: [] }));
  return router;
};
`,
        'src/app.ts': `
import express from 'express';
import { requireSession } from './guards';
import { makeRoutes } from './routes';

const app = express();
app.use(makeRoutes());
app.use(makeRoutes({ prefix: '/secure', guard: requireSession }));
app.listen(3000);
`,
      }),
    );
    // (the first call's test was not decided: its use() a conditional candidate passed on to the second router's route, and
    // noted where the factory writes it, conditional for the second call too)
    const withConditional = conditionalLines(res);
    expect(withConditional).toEqual(['GET /api/items [] ()', 'GET /secure/items [guard] ()']);
  });
});
