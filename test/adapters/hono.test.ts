/**
 * The Hono adapter, on fixtures/hono-clean and fixtures/hono-leaky (a multi-file control
 * plane of sub-apps, createMiddleware guards and @hono/zod-openapi routes) and on small
 * projects for single semantics. Expectations derived by hand from hono's hono-base.ts
 * (route table in registration order, route() copies, basePath clones), utils/url.ts
 * (mergePath), the router's wildcard matching, and the SPEC.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeLinesAt, routeRows, row } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { honoApplies, mergePath } from '../../src/adapters/hono/index.js';

const R = 'src/routes/';
// app.use('/api/*', loadCaller, withMembership): createMiddleware-wrapped, classified by behaviour
// (HTTPException(401); compares the tenant header with the memberships and answers 404)
const API = { auth: ['loadCaller'], tenant: ['withMembership'] };
const API_CSRF = { ...API, csrf: ['csrf'] }; // hono/csrf, by package
const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

describe('fixtures/hono-clean', () => {
  const DIR = path.join(ROOT, 'fixtures', 'hono-clean');

  it('lists every route with its merged path, classification and guards', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me/', 'contract', `${R}identity.ts:18:1`, API_CSRF, 'GET /api/auth/me/'),
      row('GET /api/databases/', 'contract', `${R}databases.ts:7:1`, API_CSRF, 'GET /api/databases/'),
      // a chain `deployments.get(…).post(…)`: both calls start at the chain's first line
      row('GET /api/deployments/', 'contract', `${R}deployments.ts:10:4`, API_CSRF, 'GET /api/deployments/'),
      row('POST /api/deployments/', 'browser', `${R}deployments.ts:11:4`, API_CSRF),
      // mounted before the /api/* middleware: registration order leaves it open, as the contract wants
      row('GET /api/health/ready', 'public', `${R}health.ts:6:1`, {}, 'GET /api/health/ready'),
      // api.doc(): the OpenAPI document is a route too
      row('GET /api/openapi.json', 'browser', `${R}api.ts:16:1`, API_CSRF),
      row('GET /api/sites/', 'contract', `${R}sites.ts:10:1`, API_CSRF, 'GET /api/sites/'),
      row('POST /api/sites/', 'browser', `${R}sites.ts:23:1`, API_CSRF),
      // {siteId} in the createRoute path is registered as :siteId
      row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:34:1`, API_CSRF),
      row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:15:1`, API_CSRF),
      // app.use('/api/*', …) does not reach /healthz (listed in publicRoutes by the fixture's config)
      row('GET /healthz', 'public', 'src/app.ts:25:1'),
      // internal.use('*', requireServiceToken) mounted at /internal: '/internal/*'
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', `${R}internal.ts:9:1`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/github', 'excluded:webhook', `${R}webhooks.ts:7:1`, { family: ['verifyGithubSignature'] }),
    ]);
  });

  it('reports only the uncontracted browser routes', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `${R}api.ts:16:1 info uncontracted-route ${outside('GET /api/openapi.json')}`,
      `${R}deployments.ts:11:4 info uncontracted-route ${outside('POST /api/deployments/')}`,
      `${R}sites.ts:15:1 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}sites.ts:23:1 info uncontracted-route ${outside('POST /api/sites/')}`,
      `${R}sites.ts:34:1 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
  });

  it('records the mounts a route went through', async () => {
    const res = await check(DIR);
    const me = res.routes.find((r) => r.path === '/api/auth/me/')!;
    expect(me.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/api src/app.ts:31', '/ src/routes/api.ts:11']);
    expect(me.guards.map((g) => `${g.name} ${g.mechanism} src/app.ts:${g.line}`)).toEqual(['loadCaller app.use src/app.ts:29', 'withMembership app.use src/app.ts:29', 'csrf app.use src/app.ts:30']);
  });
});

describe('fixtures/hono-leaky', () => {
  const DIR = path.join(ROOT, 'fixtures', 'hono-leaky');

  it('lists the routes: a sub-app mounted before the middleware, csrf on an exact path', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // app.use('/api', csrf()) has no wildcard: it runs for '/api' only
      row('GET /api/auth/me/', 'contract', `${R}identity.ts:18:1`, API, 'GET /api/auth/me/'),
      row('GET /api/databases/', 'contract', `${R}databases.ts:7:1`, API, 'GET /api/databases/'),
      // app.route('/api', deployments) precedes app.use('/api/*', …): no middleware runs before these
      row('GET /api/deployments/', 'contract', `${R}deployments.ts:10:4`, {}, 'GET /api/deployments/'),
      row('POST /api/deployments/', 'browser', `${R}deployments.ts:11:4`),
      row('PATCH /api/deployments/:deploymentId', 'browser', `${R}deployments.ts:16:4`),
      row('GET /api/health/ready', 'public', `${R}health.ts:6:1`, {}, 'GET /api/health/ready'),
      row('GET /api/openapi.json', 'browser', `${R}api.ts:16:1`, API),
      row('POST /api/ops/cache/purge', 'excluded:ops', `${R}ops.ts:15:1`, API),
      // createRoute path '/sites' through route('/', …) and route('/api', …): mergePath keeps no trailing slash
      row('GET /api/sites', 'contract', `${R}sites.ts:10:1`, API, 'GET /api/sites/'),
      row('POST /api/sites/', 'browser', `${R}sites.ts:23:1`, API),
      row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:34:1`, API),
      row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:15:1`, API),
      row('GET /healthz', 'public', 'src/app.ts:21:1'),
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', `${R}internal.ts:9:1`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/github', 'excluded:webhook', `${R}webhooks.ts:7:1`, { family: ['verifyGithubSignature'] }),
    ]);
  });

  it('reports the leaks', async () => {
    const res = await check(DIR);
    const G = `${R}deployments.ts:10:4`;
    const P = `${R}deployments.ts:11:4`;
    const U = `${R}deployments.ts:16:4`;
    expect(findingRows(res.findings)).toEqual([
      `${R}api.ts:16:1 info uncontracted-route ${outside('GET /api/openapi.json')}`,
      `${R}databases.ts:15:7 error provider-credential-exposure GET /api/databases/ returns credential-like field password in database metadata`,
      `${G} error missing-auth-guard GET /api/deployments/ has no auth guard`,
      `${G} error missing-tenant-guard GET /api/deployments/ has no tenant guard`,
      `${P} error missing-auth-guard POST /api/deployments/ has no auth guard`,
      `${P} error missing-csrf-guard POST /api/deployments/ changes state on the browser session without a CSRF guard`,
      `${P} error missing-tenant-guard POST /api/deployments/ has no tenant guard`,
      `${P} info uncontracted-route ${outside('POST /api/deployments/')}`,
      `${U} error immutable-resource-mutation PATCH /api/deployments/:deploymentId mutates a deployment, which the contract makes immutable`,
      `${U} error missing-auth-guard PATCH /api/deployments/:deploymentId has no auth guard`,
      `${U} error missing-csrf-guard PATCH /api/deployments/:deploymentId changes state on the browser session without a CSRF guard`,
      `${U} error missing-tenant-guard PATCH /api/deployments/:deploymentId has no tenant guard`,
      `${U} info uncontracted-route ${outside('PATCH /api/deployments/:deploymentId')}`,
      // an OpenAPIHono sub-app's registry is merged into api's, which api.doc() serves
      `${R}ops.ts:15:1 error excluded-family-leak POST /api/ops/cache/purge is in the excluded family "ops" but is published in generated API docs by @hono/zod-openapi (hide it with hide: true in its createRoute() config)`,
      `${R}sites.ts:10:1 error contract-route-drift GET /api/sites drifts from the contract route GET /api/sites/: trailing slash differs and hono matches it exactly`,
      `${R}sites.ts:15:1 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}sites.ts:23:1 error missing-csrf-guard POST /api/sites/ changes state on the browser session without a CSRF guard`,
      `${R}sites.ts:23:1 info uncontracted-route ${outside('POST /api/sites/')}`,
      `${R}sites.ts:34:1 error missing-csrf-guard DELETE /api/sites/:siteId changes state on the browser session without a CSRF guard`,
      `${R}sites.ts:34:1 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
  });
});

/** guards.ts: a middleware answering 401 without a user */
const MUST_SIGN_IN = `
import { createMiddleware } from 'hono/factory';
import { HTTPException } from 'hono/http-exception';
export const mustSignIn = createMiddleware(async (c, next) => {
  if (!c.get('user')) throw new HTTPException(401, { message: 'sign in' });
  await next();
});
`;

const HONO_PKG = JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0', '@hono/zod-openapi': '^0.19.0' } });

function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.trailingSlashInsensitive ? ' (both forms)' : ''}${r.guards.length ? ' ' + r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ') : ''}`);
}

describe('Hono semantics', () => {
  it("the handlers of hono/factory's createHandlers(…), spread into a route, run in turn: its middleware guards the route", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': `
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';

export const requireSession = createMiddleware(async (c, next) => {
  if (!getCookie(c, 'sid')) return c.json({ error: 'sign in' }, 401);
  await next();
});
`,
      'src/app.ts': `
import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { requireSession } from './guards.js';

const factory = createFactory();
const listSites = factory.createHandlers(requireSession, (c) => c.json({ sites: [] }));
const health = createFactory().createHandlers((c) => c.text('ok'));

const app = new Hono();
app.get('/api/sites/', ...listSites);
app.get('/health', ...health);
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/sites/ requireSession:auth', 'GET /health']);
  });

  it("hono/combine: every() runs each in turn, some() guards as all its middleware do alike, except() lets through the paths its condition names (a function's: not known)", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/app.ts': `
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { except, every, some } from 'hono/combine';
import { csrf } from 'hono/csrf';
import { rateLimiter } from './limits.js';

const app = new Hono();
// the example of Hono's documentation: the public API needs no token
app.use('/api/*', except('/api/public/*', bearerAuth({ token: process.env.API_TOKEN ?? '' })));
app.get('/api/sites', (c) => c.json({ sites: [] }));
app.get('/api/public/status', (c) => c.json({ ok: true }));
app.get('/api/public', (c) => c.json({ docs: '/api/public/status' }));
app.use('/admin/*', every(bearerAuth({ token: process.env.ADMIN_TOKEN ?? '' }), csrf()));
app.post('/admin/cache/purge', (c) => c.json({ purged: true }));
// either token: a token either way
app.use('/v2/*', some(bearerAuth({ token: process.env.V2_TOKEN ?? '' }), bearerAuth({ token: process.env.API_TOKEN ?? '' })));
app.get('/v2/items', (c) => c.json({ items: [] }));
// a valid token skips the rate limit; without one, the limit is all there is
app.use('/feeds/*', some(bearerAuth({ token: process.env.API_TOKEN ?? '' }), rateLimiter({ limit: 100 })));
app.get('/feeds/latest', (c) => c.json({ items: [] }));
// the requests a function lets through are not known statically
app.use('/internal/*', except((c) => c.req.header('x-forwarded-for') === undefined, bearerAuth({ token: process.env.INTERNAL_TOKEN ?? '' })));
app.get('/internal/stats', (c) => c.json({ up: true }));
export default app;
`,
      'src/limits.ts': `
import { createMiddleware } from 'hono/factory';

const hits = new Map<string, number>();

export const rateLimiter = ({ limit }: { limit: number }) =>
  createMiddleware(async (c, next) => {
    const ip = c.req.header('x-forwarded-for') ?? 'local';
    hits.set(ip, (hits.get(ip) ?? 0) + 1);
    if ((hits.get(ip) ?? 0) > limit) return c.json({ error: 'slow down' }, 429);
    await next();
  });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'POST /admin/cache/purge bearerAuth:auth+bearer csrf:csrf',
      'GET /api/public',
      'GET /api/public/status',
      'GET /api/sites bearerAuth:auth+bearer',
      'GET /feeds/latest',
      'GET /internal/stats bearerAuth:unknown',
      'GET /v2/items some:auth+bearer',
    ]);
    expect(res.routes.find((r) => r.path === '/api/public/status')!.skippedGuards?.map((g) => `${g.name} lets through ${g.skips}`)).toEqual(['bearerAuth lets through paths matching /api/public/*']);
  });

  it("app.mount(path, fetch) of a function answering on its own is an ALL route at path/*; an app's routes mounted so are behind the middleware used before it; one at a path not known statically is said", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/app.ts': `
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { legacyApi } from './legacy.js';

const app = new Hono();
app.mount('/internal', (req: Request) => new Response(JSON.stringify({ queue: [], at: new URL(req.url).pathname })));
app.use('/legacy/*', async (c, next) => {
  if (!getCookie(c, 'sid')) return c.json({ error: 'sign in' }, 401);
  await next();
});
app.mount('/legacy', legacyApi.fetch).get('/health', (c) => c.text('ok'));
app.mount(process.env.PLUGIN_PATH!, legacyApi.fetch);
export default app;
`,
      'src/legacy.ts': `
import { Hono } from 'hono';

export const legacyApi = new Hono();
legacyApi.get('/v1/sites', (c) => c.json([]));
`,
    });
    const res = await check(dir);
    // (the app mounted, the path cut off the request it is handed: its /v1/sites is /legacy/v1/sites)
    // (an app of the code answers at /legacy/*: its routes are listed, not the ALL route handing on to it)
    expect(lines(res)).toEqual(['GET /health', 'ALL /internal/*', 'GET /legacy/v1/sites (inline middleware):auth']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route' || f.ruleId === 'excluded-family-leak').map((f) => `${f.line} ${f.ruleId} ${f.message}`)).toEqual([
      '7 excluded-family-leak ALL /internal/* is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      '13 unresolved-route the path of this mount() is not known statically; what it mounts is left out',
    ]);
  });

  it("a factory returning a view of an app it makes afresh (`return new Hono().basePath('/api')`) gives each caller an app of its own (useSend's getApp; checked against hono 4: /api/users/42 answers 200 without a key)", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/hono.ts': `import { Hono } from 'hono';
export function getApp() {
  return new Hono().basePath('/api');
}
`,
      'src/admin.ts': `import { getApp } from './hono';
export const admin = getApp();
admin.use('*', async (c, next) => {
  if (c.req.header('x-api-key') !== process.env.ADMIN_KEY) return c.json({ error: 'unauthorized' }, 401);
  await next();
});
admin.get('/admin/stats', (c) => c.json({ ok: true }));
`,
      'src/index.ts': `import './admin';
import { getApp } from './hono';
export const app = getApp();
app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
export default app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.app} ${r.method} ${r.path}${r.guards.length ? ' ' + r.guards.map((g) => g.name).join(' ') : ''}`)).toEqual([
      'admin GET /api/admin/stats (inline middleware)',
      'app GET /api/users/:id',
    ]);
  });

  it("callers of such a factory that add nothing of their own get the factory's app, listed once", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/hono.ts': `import { Hono } from 'hono';
export function getApp() {
  const app = new Hono();
  app.get('/health', (c) => c.text('ok'));
  return app.basePath('/api');
}
`,
      'src/worker.ts': `import { getApp } from './hono';
export const worker = getApp();
`,
      'src/server.ts': `import { getApp } from './hono';
export default getApp();
`,
    });
    expect(lines(await check(dir))).toEqual(['GET /health']);
  });

  it('mergePath as hono/utils/url.ts', () => {
    expect(mergePath('/', '/api')).toBe('/api');
    expect(mergePath('/api', '/')).toBe('/api');
    expect(mergePath('/api/', '/')).toBe('/api/');
    expect(mergePath('/api', '/sites/')).toBe('/api/sites/');
    expect(mergePath('/api/', '/sites')).toBe('/api/sites');
    expect(mergePath('/api', 'sites')).toBe('/api/sites');
    expect(mergePath('/api', '*')).toBe('/api/*');
    expect(mergePath('/', '/')).toBe('/');
  });

  it('middleware paths: /p/* covers /p and below; a path without * only itself', () => {
    expect(honoApplies('*', '/x', true)).toBe(true);
    expect(honoApplies('/api/*', '/api', true)).toBe(true);
    expect(honoApplies('/api/*', '/api/sites/', true)).toBe(true);
    expect(honoApplies('/api/*', '/health', true)).toBe(false);
    expect(honoApplies('/api/*', '/apix', true)).toBe(false);
    expect(honoApplies('/api', '/api/sites', true)).toBe(false);
    expect(honoApplies('/api/sites', '/api/sites/', true)).toBe(false);
    expect(honoApplies('/api/sites', '/api/sites/', false)).toBe(true);
    expect(honoApplies('/sites/:id', '/sites/:siteId', true)).toBe(true);
    expect(honoApplies('/sites/:id/*', '/sites/:siteId/domains', true)).toBe(true);
    // a literal middleware path covers only some requests of a parameterised route
    expect(honoApplies('/sites/new', '/sites/:siteId', true)).toBe(false);
    expect(honoApplies('/wild/*/card', '/wild/x/card', true)).toBe(true);
  });

  it('registration order, route() snapshots, the current path, on(), basePath and strict', async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': `${MUST_SIGN_IN}export async function sameTenant(c, next) {
  if (c.req.param('tenantId') !== c.get('user').tenantId) return c.json({ error: 'not found' }, 404);
  await next();
}
`,
      'src/app.ts': `
import { Hono } from 'hono';
import { mustSignIn, sameTenant } from './guards.js';

const billing = new Hono();
billing.get('/invoices', (c) => c.json([]));

const app = new Hono({ strict: false });
app.get('/early', (c) => c.text('e'));
app.route('/billing', billing);
billing.get('/late', (c) => c.text('never served by app'));
app.all('/t/:tenantId/*', sameTenant);
app.use('*', mustSignIn);
app.get('/items', (c) => c.json([])).post((c) => c.json({}, 201));
app.on(['PUT', 'DELETE'], ['/t/:tenantId/a', '/t/:tenantId/b'], (c) => c.body(null, 204));
const v2 = app.basePath('/v2');
v2.get('/status', (c) => c.json({ ok: true }));
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /billing/invoices (both forms)',
      'GET /early (both forms)',
      // post(handler) without a path: the instance's current path, '/items'
      'GET /items (both forms) mustSignIn:auth',
      'POST /items (both forms) mustSignIn:auth',
      'DELETE /t/:tenantId/a (both forms) sameTenant:tenant mustSignIn:auth',
      'PUT /t/:tenantId/a (both forms) sameTenant:tenant mustSignIn:auth',
      'DELETE /t/:tenantId/b (both forms) sameTenant:tenant mustSignIn:auth',
      'PUT /t/:tenantId/b (both forms) sameTenant:tenant mustSignIn:auth',
      'GET /v2/status (both forms) mustSignIn:auth',
    ]);
  });

  it("a route's registration handing on (`await next()`) that no later route runs behind is a route too: its functions run, its answer a middleware's after next() (honojs/examples' durable-objects)", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': MUST_SIGN_IN,
      'src/app.ts': `
import { Hono } from 'hono';
import { mustSignIn } from './guards.js';

type Env = { Variables: { count: number } };
const app = new Hono<Env>();
let count = 0;

// writes the answer after the route's own next()
app.use('*', async (c, next) => {
  await next();
  c.res = c.json({ count: c.get('count') ?? count });
});
app.use('/admin/*', mustSignIn);

app.get('/count', async (c, next) => {
  c.set('count', count);
  await next();
});
app.post('/admin/increment', async (c, next) => {
  count += 1;
  c.set('count', count);
  await next();
});
// handing on to the route after it, which answers: a layer for that route, no route itself
app.get('/admin/reset', async (c, next) => {
  c.set('count', 0);
  await next();
});
app.get('/admin/reset', (c) => {
  count = 0;
  return c.json({ count });
});
// a guard alone, no route after it: runs, then Hono answers 404 — nothing of the app's served
app.get('/admin/audit', mustSignIn);
// two handing on at one path, nothing after: the later is the route, the earlier a layer for it
app.get('/count/twice', async (c, next) => {
  count += 1;
  await next();
});
app.get('/count/twice', async (c, next) => {
  count += 1;
  c.set('count', count);
  await next();
});
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'POST /admin/increment mustSignIn:auth',
      'GET /admin/reset mustSignIn:auth',
      'GET /count',
      'GET /count/twice',
    ]);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'POST /admin/increment src/app.ts:20',
      'GET /admin/reset src/app.ts:30',
      'GET /count src/app.ts:16',
      'GET /count/twice src/app.ts:41',
    ]);
  });

  it('a path not known statically: what route() mounts or a route serves is listed without its head, after the known rest, a step saying so; use() there reaches routes under the same head; a route path that is all head is left out', async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': MUST_SIGN_IN,
      'src/app.ts': `
import { Hono } from 'hono';
import { mustSignIn } from './guards.js';

const projects = new Hono();
projects.get('/', (c) => c.json([]));

const status = new Hono();
status.get('/status', (c) => c.json({ ok: true }));

const base = process.env.API_BASE ?? '';
const app = new Hono();
app.use('/api/*', mustSignIn);
app.use(\`\${base}/projects/*\`, mustSignIn);
app.route(\`\${base}/projects\`, projects);
app.route(base, status);
app.get(\`\${base}/health\`, (c) => c.json({ ok: true }));
app.route(\`/v1\${base}\`, status);
app.get(\`/v1\${base}/ping\`, (c) => c.text('pong'));
// all head: where it is served is not known at all
app.get(base, (c) => c.text('home'));
app.get(\`\${base}\`, (c) => c.text('home')).post((c) => c.text('posted'));
export default app;
`,
    });
    const res = await check(dir);
    // the layer at the same head reaches the projects; the app's /api/* layer reaches none:
    // where the head lies against /api is not known
    // (`/v1${base}`: text in the head's segment, another head, where /status and /ping are listed too)
    expect(lines(res)).toEqual(['GET /health', 'GET /ping', 'GET /projects mustSignIn:auth', 'GET /status', 'GET /status']);
    const unknown = "process.env.API_BASE ?? ''";
    expect(res.routes.map((r) => r.prefixes)).toEqual([
      [{ prefix: '', file: 'src/app.ts', line: 17, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 19, unknown }],
      [{ prefix: '/projects', file: 'src/app.ts', line: 15, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 16, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 18, unknown }],
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      `src/app.ts:14:1 warning unresolved-route the path of this use() is not known statically (${unknown}); it runs only for routes mounted under the same head`,
      `src/app.ts:15:1 warning unresolved-route the path of this route() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:16:1 warning unresolved-route the path of this route() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:17:1 warning unresolved-route the path of this get() is not known statically (${unknown}); it is listed without that part`,
      `src/app.ts:18:1 warning unresolved-route the path of this route() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:19:1 warning unresolved-route the path of this get() is not known statically (${unknown}); it is listed without that part`,
      `src/app.ts:21:1 warning unresolved-route the path of this get() is not known statically (${unknown}); it is left out`,
      `src/app.ts:22:1 warning unresolved-route the path of this get() is not known statically (${unknown}); it is left out`,
      // the chained post() has the path left out
      'src/app.ts:22:43 warning unresolved-route the path of this post() is the one left out before it (not known statically); it is left out',
    ]);
  });

  it('basePath chained onto the app it views (new Hono().basePath(…), twice), as hono/vercel handlers are written', async () => {
    const res = await check(
      writeProject({
        'package.json': HONO_PKG,
        'pages/api/[...route].ts': `
import { Hono } from 'hono';
import { handle } from 'hono/vercel';

export const config = { runtime: 'edge' };

const app = new Hono().basePath('/api');
app.post('/hello', (c) => c.json({ message: 'hello' }));
const v1 = new Hono().basePath('/api').basePath('/v1');
v1.get('/status', (c) => c.json({ ok: true }));

export default handle(app);
`,
      }),
    );
    // the Next.js catch-all serves the Hono app under /api as well
    expect(lines(res).filter((l) => !l.startsWith('ALL'))).toEqual(['POST /api/hello', 'GET /api/v1/status']);
  });

  it('a basePath() not known statically: what is registered through the clone is listed without it, a step saying so, warned about once; a layer on the clone reaches its routes, one on the base app at a known path does not', async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': MUST_SIGN_IN,
      'src/projects.ts': `
import { Hono } from 'hono';
export const projects = new Hono();
projects.get('/', (c) => c.json([]));
`,
      'src/app.ts': `
import { Hono } from 'hono';
import { mustSignIn } from './guards.js';
import { projects } from './projects.js';

const basePath = (process.env.BASE_PATH ?? '').replace(/\\/$/, '');
const root = new Hono();
root.use('/api/*', mustSignIn);
const app = root.basePath(basePath || '/');
app.use('/api/projects/*', mustSignIn);
app.route('/api/projects', projects);
app.get('/api/status', (c) => c.json({ ok: true }));
const v1 = app.basePath('/v1');
v1.get('/ping', (c) => c.text('pong'));
// known text before what is not known: kept before it
const area = process.env.AREA;
root.basePath(\`/areas/\${area}\`).get('/status', (c) => c.json({ ok: true }));
export default app;
`,
    });
    const res = await check(dir);
    // the base app's /api/* layer lies nowhere known against the clone's unknown head
    expect(lines(res)).toEqual(['GET /api/projects mustSignIn:auth', 'GET /api/status', 'GET /areas/status', 'GET /v1/ping']);
    const unknown = "basePath || '/'";
    const head = { prefix: '', file: 'src/app.ts', line: 9, unknown };
    expect(res.routes.map((r) => r.prefixes)).toEqual([
      [head, { prefix: '/api/projects', file: 'src/app.ts', line: 11 }],
      [head],
      [{ prefix: '', file: 'src/app.ts', line: 17, unknown: 'property AREA of a value not known statically' }],
      [head, { prefix: '/v1', file: 'src/app.ts', line: 13 }],
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      `src/app.ts:9:13 warning unresolved-route the base path of this basePath() is not known statically (${unknown}); the routes registered through it are listed without it`,
      'src/app.ts:17:1 warning unresolved-route the base path of this basePath() is not known statically (property AREA of a value not known statically); the routes registered through it are listed without it',
    ]);
  });

  it('route-level middleware, in-handler checks, and c.json(…, 401) / HTTPException recognised by behaviour', async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/app.ts': `
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';

const app = new Hono();
const gate = async (c, next) => {
  if (!c.get('session')) return c.json({ error: 'unauthorized' }, 401);
  await next();
};
app.get('/api/sites/', gate, (c) => c.json([]));
app.get('/api/auth/me/', (c) => {
  if (!c.get('session')) throw new HTTPException(401);
  return c.json(c.get('session').user);
});
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/auth/me/ (inline 401 check):auth', 'GET /api/sites/ gate:auth']);
  });

  it("a middleware handing its context and next to a package's (`auth(c, next)`) for all but GET: what it hands them to, GET let through (honojs/examples' blog)", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/api.ts': `
import { Hono } from 'hono';

const api = new Hono();
api.get('/posts', (c) => c.json({ posts: [] }));
api.post('/posts', async (c) => c.json({ post: await c.req.json() }, 201));
api.delete('/posts/:id', (c) => c.json({ deleted: c.req.param('id') }));
export default api;
`,
      'src/app.ts': `
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import api from './api.js';

type Bindings = { USERNAME: string; PASSWORD: string };
const app = new Hono();
const middleware = new Hono<{ Bindings: Bindings }>();
middleware.use('/posts/*', async (c, next) => {
  if (c.req.method !== 'GET') {
    const auth = basicAuth({ username: c.env.USERNAME, password: c.env.PASSWORD });
    return auth(c, next);
  } else {
    await next();
  }
});
app.route('/api', middleware);
app.route('/api', api);
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/posts', 'POST /api/posts (inline middleware):auth', 'DELETE /api/posts/:id (inline middleware):auth']);
    const get = res.routes.find((r) => r.method === 'GET')!;
    expect(get.skippedGuards?.map((g) => `${g.name} ${g.reason} skips ${g.skips}`)).toEqual([
      '(inline middleware) by behaviour (hands the request on to auth: authentication from hono/basic-auth) skips every GET request',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual([
      'GET /api/posts has no auth guard (the inline middleware is one, but lets through untouched every GET request: src/app.ts:9)',
    ]);
  });

  it('zod-openapi: hide keeps a route out of the document; a plain Hono parent merges no registry', async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/app.ts': `
import { Hono } from 'hono';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { requireServiceToken } from './token.js';

const internal = new OpenAPIHono();
internal.use('*', requireServiceToken);
internal.openapi(createRoute({ method: 'post', path: '/jobs/{jobId}/retry', hide: true, responses: {} }), (c) => c.body(null, 202));
internal.openapi(createRoute({ method: 'post', path: '/jobs/{jobId}/cancel', responses: {} }), (c) => c.body(null, 202));

const edge = new OpenAPIHono();
edge.openapi(createRoute({ method: 'post', path: '/purge', middleware: [requireServiceToken], responses: {} }), (c) => c.body(null, 202));
edge.doc('/doc', { openapi: '3.0.0', info: { title: 'edge', version: '1' } });

const docs = new OpenAPIHono();
docs.route('/internal', internal);
docs.doc('/openapi.json', { openapi: '3.0.0', info: { title: 'all', version: '1' } });

const app = new Hono();
app.route('/edge', edge);
app.route('/', docs);
export default app;
`,
      'src/token.ts': `export async function requireServiceToken(c, next) { if (c.req.header('x-service-token') !== process.env.TOKEN) return c.text('no', 401); await next(); }`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /edge/doc',
      'POST /edge/purge requireServiceToken:auth+bearer+family',
      'POST /internal/jobs/:jobId/cancel requireServiceToken:auth+bearer+family',
      'POST /internal/jobs/:jobId/retry requireServiceToken:auth+bearer+family',
      'GET /openapi.json',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak'))).toEqual([
      // merged into docs' registry by docs.route() and served by docs.doc(); the hidden retry route is not
      'src/app.ts:9:1 error excluded-family-leak POST /internal/jobs/:jobId/cancel is in the excluded family "internal" but is published in generated API docs by @hono/zod-openapi (hide it with hide: true in its createRoute() config)',
      // edge's own doc() serves its registry
      'src/app.ts:12:1 error excluded-family-leak POST /edge/purge is in the excluded family "edge" but is published in generated API docs by @hono/zod-openapi (hide it with hide: true in its createRoute() config)',
      // the document route itself is an edge-family route nobody guards
      'src/app.ts:13:1 error excluded-family-leak GET /edge/doc is in the excluded family "edge" and is reachable without its family guard (unguarded)',
    ]);
  });

  it("zod-openapi: a route mounted by a method of the object a factory's call made reads that call's arguments, also through a helper returning that call (latitude's defineApiEndpoint)", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/endpoint.ts': `
import type { MiddlewareHandler } from 'hono';
import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';

/** Endpoints mounted under \`prefix\`: each mounts its route, and the middleware it is given for it alone. */
export const defineApiEndpoint =
  (prefix: string) =>
  (args: { route: RouteConfig & { name: string }; handler: RouteHandler<any> }) => {
    const { route, handler } = args;
    const { name, ...rest } = route;
    const routeForHono = { ...rest, operationId: name };
    return {
      prefix,
      mountHttp(app: OpenAPIHono, ...middlewares: MiddlewareHandler[]) {
        const routeWithMiddleware = middlewares.length > 0 ? { ...routeForHono, middleware: middlewares } : routeForHono;
        app.openapi(routeWithMiddleware, handler);
      },
    };
  };
`,
      'src/projects.ts': `
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { defineApiEndpoint } from './endpoint.js';
import { requireProjectInOrganization } from './guards.js';
import { projects } from './store.js';

export const projectsPath = '/projects';
const projectEndpoint = defineApiEndpoint(projectsPath);

const listProjects = projectEndpoint({
  route: createRoute({ method: 'get', path: '/', name: 'listProjects', responses: {} }),
  handler: async (c) => c.json(await projects.list(c.get('organizationId'))),
});

const deleteProject = projectEndpoint({
  route: createRoute({ method: 'delete', path: '/{projectId}', name: 'deleteProject', responses: {} }),
  handler: async (c) => {
    await projects.remove(c.get('organizationId'), c.req.param('projectId'));
    return c.body(null, 204);
  },
});

// endpoints a helper makes, each from the call of the endpoint factory it returns
const buildLifecycleEndpoint = ({ name, pathSuffix }: { name: string; pathSuffix: '/archive' | '/restore' }) =>
  projectEndpoint({
    route: createRoute({ method: 'post', path: \`/{projectId}\${pathSuffix}\`, name, responses: {} }),
    handler: async (c) => c.json({ id: c.req.param('projectId'), command: name }),
  });
const archiveProject = buildLifecycleEndpoint({ name: 'archiveProject', pathSuffix: '/archive' });
const restoreProject = buildLifecycleEndpoint({ name: 'restoreProject', pathSuffix: '/restore' });

export const createProjectsRoutes = () => {
  const app = new OpenAPIHono();
  listProjects.mountHttp(app);
  deleteProject.mountHttp(app, requireProjectInOrganization);
  archiveProject.mountHttp(app, requireProjectInOrganization);
  restoreProject.mountHttp(app);
  return app;
};
`,
      'src/app.ts': `
import { OpenAPIHono } from '@hono/zod-openapi';
import { requireApiKey } from './guards.js';
import { createProjectsRoutes, projectsPath } from './projects.js';

const app = new OpenAPIHono();
app.use('/v1/*', requireApiKey);
app.route(\`/v1\${projectsPath}\`, createProjectsRoutes());
export default app;
`,
      'src/guards.ts': `
import { projects } from './store.js';

export async function requireApiKey(c, next) {
  const key = c.req.header('authorization')?.replace(/^Bearer /, '');
  if (!key || key !== process.env.API_KEY) return c.json({ error: 'unauthorized' }, 401);
  c.set('organizationId', process.env.ORGANIZATION_ID);
  await next();
}
export async function requireProjectInOrganization(c, next) {
  const project = await projects.find(c.req.param('projectId'));
  if (!project || project.organizationId !== c.get('organizationId')) return c.json({ error: 'not found' }, 404);
  await next();
}
`,
      'src/store.ts': `
const rows = new Map<string, { id: string; organizationId: string }>();
export const projects = {
  list: async (organizationId: string) => [...rows.values()].filter((p) => p.organizationId === organizationId),
  find: async (id: string) => rows.get(id) ?? null,
  remove: async (_organizationId: string, id: string) => void rows.delete(id),
};
`,
    });
    const res = await check(dir);
    // each route with the config its endpoint was made with, and the middleware its mount was given
    expect(lines(res)).toEqual([
      'GET /v1/projects requireApiKey:auth+bearer',
      'DELETE /v1/projects/:projectId requireApiKey:auth+bearer requireProjectInOrganization:tenant',
      'POST /v1/projects/:projectId/archive requireApiKey:auth+bearer requireProjectInOrganization:tenant',
      'POST /v1/projects/:projectId/restore requireApiKey:auth+bearer',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("zod-openapi: a route config made by a helper returning its config, or an object spreading it (`createXRoute({ …, xGuard: [authGuard] })` of `createRoute({ security, ...config, middleware })`), is the config the call passes", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.6.0', '@hono/zod-openapi': '^0.18.0' } }),
      'src/x-routes.ts': `
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

type XRouteConfig = RouteConfig & { operationId: string; xGuard?: MiddlewareHandler[] };

/** createRoute, with the guards of xGuard run first */
export const createXRoute = (config: XRouteConfig) => {
  const middleware = [...(config.xGuard ?? [])];
  return createRoute({ security: [{ cookieAuth: [] }], ...config, middleware });
};

export const createPublicRoute = (config: RouteConfig) => createRoute(config);
`,
      'src/guards.ts': `
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

export const authGuard: MiddlewareHandler = async (c, next) => {
  if (!c.get('user')) throw new HTTPException(401, { message: 'unauthenticated' });
  await next();
};
`,
      'src/activities.ts': `
import { OpenAPIHono } from '@hono/zod-openapi';
import { authGuard } from './guards.js';
import { createPublicRoute, createXRoute } from './x-routes.js';

const activityRoutes = {
  getActivities: createXRoute({ operationId: 'getActivities', method: 'get', path: '/activities', xGuard: [authGuard], responses: {} }),
  getHealth: createPublicRoute({ method: 'get', path: '/health', responses: {} }),
};

const app = new OpenAPIHono();
app.openapi(activityRoutes.getActivities, async (c) => c.json({ items: [] }));
app.openapi(activityRoutes.getHealth, (c) => c.text('ok'));
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /activities authGuard:auth', 'GET /health']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("zod-openapi: a helper stripping its own keys from the config (`Object.fromEntries(Object.entries(config).filter(([key]) => !ids.includes(key)))`) and collecting guards from a map of extensions (`Object.values(extensionMap).filter(…).flatMap(({ id }) => config[id] ?? [])`), cella's createXRoute", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.6.0', '@hono/zod-openapi': '^0.18.0' } }),
      'src/extensions.ts': `
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';

export const extensionMap = {
  'x-guard': { id: 'xGuard', description: 'Authorization middleware', kind: 'middleware' },
  'x-rate-limiter': { id: 'xRateLimiter', description: 'Rate limits', kind: 'middleware' },
  'x-tool': { id: 'xTool', description: 'Tool metadata', kind: 'metadata' },
} as const;

export const collectExtensionMiddleware = (config: Record<string, unknown>): MiddlewareHandler[] =>
  Object.values(extensionMap)
    .filter(({ kind }) => kind === 'middleware')
    .flatMap(({ id }) => (config[id] as MiddlewareHandler[]) ?? []);

export const getExtensionPropIds = (): string[] =>
  Object.values(extensionMap)
    .filter(({ kind }) => kind === 'middleware')
    .map(({ id }) => id);

export function createSpecificationExtensions(getValue: (key: keyof typeof extensionMap) => string[]): Record<string, string[]> {
  const keys = (Object.keys(extensionMap) as (keyof typeof extensionMap)[]).filter((key) => extensionMap[key].kind === 'middleware');
  return Object.fromEntries(keys.map((key) => [key, getValue(key)]));
}

/** Sets \`__extensionType\` for OpenAPI introspection. */
export const xMiddleware = (options: { functionName: string; type: keyof typeof extensionMap }, fn: MiddlewareHandler) => {
  const middleware = Object.assign(createMiddleware(fn), { __extensionType: options.type });
  Object.defineProperty(middleware, 'name', { value: options.functionName, writable: false });
  return middleware;
};
`,
      'src/x-routes.ts': `
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { collectExtensionMiddleware, createSpecificationExtensions, getExtensionPropIds } from './extensions.js';

const services: Record<string, { enabled: boolean }> = JSON.parse(process.env.SERVICES ?? '{}');

/** Runs before the guards, so that a disabled service answers 404 */
const createServiceGate = (service: string): MiddlewareHandler => async (_c, next) => {
  if (services[service]?.enabled === false) throw new HTTPException(404, { message: 'route_not_found' });
  await next();
};

export const createXRoute = (config: RouteConfig & { operationId: string; xGuard?: unknown[]; xRateLimiter?: unknown[]; 'x-service'?: string }) => {
  const extensionMiddleware = collectExtensionMiddleware(config);
  const existing = config.middleware ? (Array.isArray(config.middleware) ? config.middleware : [config.middleware]) : [];
  const service = config['x-service'];
  const serviceGate = service ? [createServiceGate(service)] : [];
  const middleware = [...serviceGate, ...extensionMiddleware, ...existing];
  const specificationExtensions = createSpecificationExtensions((key) => middleware.filter((mw) => (mw as { __extensionType?: string }).__extensionType === key).map((mw) => mw.name));
  // Strip extension props to keep them out of the OpenAPI document
  const extensionPropIds = getExtensionPropIds();
  const cleanConfig = Object.fromEntries(Object.entries(config).filter(([key]) => !extensionPropIds.includes(key)));
  return createRoute({ security: [{ cookieAuth: [] }], ...cleanConfig, middleware, ...specificationExtensions });
};
`,
      'src/guards.ts': `
import { HTTPException } from 'hono/http-exception';
import { xMiddleware } from './extensions.js';

export const authGuard = xMiddleware({ functionName: 'authGuard', type: 'x-guard' }, async (c, next) => {
  if (!c.get('user')) throw new HTTPException(401, { message: 'unauthenticated' });
  await next();
});

export const tenantGuard = xMiddleware({ functionName: 'tenantGuard', type: 'x-guard' }, async (c, next) => {
  if (c.req.param('tenantId') !== c.get('user').tenantId) throw new HTTPException(403, { message: 'forbidden' });
  await next();
});
`,
      'src/attachment-routes.ts': `
import { authGuard, tenantGuard } from './guards.js';
import { createXRoute } from './x-routes.js';

export const attachmentRoutes = {
  getAttachments: createXRoute({ operationId: 'getAttachments', method: 'get', path: '/{tenantId}/attachments', xGuard: [authGuard, tenantGuard], responses: {} }),
  getPublicAttachment: createXRoute({ operationId: 'getPublicAttachment', method: 'get', path: '/public/{id}', xGuard: [], responses: {} }),
};
`,
      'src/attachments.ts': `
import { OpenAPIHono } from '@hono/zod-openapi';
import { attachmentRoutes } from './attachment-routes.js';

const app = new OpenAPIHono();
app.openapi(attachmentRoutes.getAttachments, async (c) => c.json({ items: [] }));
app.openapi(attachmentRoutes.getPublicAttachment, async (c) => c.json({ id: c.req.param('id') }));
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /:tenantId/attachments authGuard:auth tenantGuard:tenant', 'GET /public/:id']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("a function handing its own app parameter on in an object (`registerHealthRoute({ app })`) binds the routes registered on that object's property to the app its caller passes", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/server.ts': `
import { OpenAPIHono } from '@hono/zod-openapi';
import { registerRoutes } from './routes/index.js';

const startServer = async () => {
  const app = new OpenAPIHono();
  registerRoutes(app, { version: 'v1' });
  return app;
};

void startServer();
`,
      'src/routes/index.ts': `
import { OpenAPIHono } from '@hono/zod-openapi';
import { registerHealthRoute } from './health.js';

export const registerRoutes = (app: OpenAPIHono, options: { version: string }) => {
  const v1 = new OpenAPIHono();
  registerHealthRoute({ app });
  v1.get('/projects', (c) => c.json([]));
  app.route(\`/\${options.version}\`, v1);
};
`,
      'src/routes/health.ts': `
import type { OpenAPIHono } from '@hono/zod-openapi';

export const registerHealthRoute = ({ app }: { app: OpenAPIHono }) => {
  app.get('/health', (c) => c.json({ service: 'api', status: 'ok' }));
};
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /health', 'GET /v1/projects']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("@bull-board/hono's dashboard app (`new HonoAdapter(serveStatic).registerPlugin()`) given to route() serves its page and its queue API below the path: an ALL route there, behind the middleware before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'workers', dependencies: { hono: '^4.7.0', '@hono/node-server': '^1.13.0', bullmq: '5.34.0', '@bull-board/api': '6.7.0', '@bull-board/hono': '6.7.0' } }),
      'src/server.ts': `
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { Queue } from 'bullmq';
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));

const serverAdapter = new HonoAdapter(serveStatic);
serverAdapter.setBasePath('/bull-board');
createBullBoard({ queues: [new BullMQAdapter(new Queue('spans'), { readOnlyMode: true })], serverAdapter });
app.use('/bull-board/*', basicAuth({ username: process.env.BOARD_USER!, password: process.env.BOARD_PASSWORD! }));
app.route('/bull-board', serverAdapter.registerPlugin());

export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['ALL /bull-board/* basicAuth:auth', 'GET /health']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("an app a function hands its request to (`return boardApp.fetch(c.req.raw)`) serves its routes where the function is used, behind the function's checks: documenso's admin-only job board", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'web', dependencies: { hono: '^4.7.0', '@hono/node-server': '^1.13.0', bullmq: '5.34.0', '@bull-board/api': '6.7.0', '@bull-board/hono': '6.7.0' } }),
      'src/jobs/bullmq.ts': `
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { Queue } from 'bullmq';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { env } from '../env.js';

export class BullMQJobProvider {
  private readonly queue = new Queue('jobs');

  public getApiHandler(): (c: Context) => Promise<Response | void> {
    const boardApp = this.createBoardApp();

    return async (c: Context) => {
      const reqPath = new URL(c.req.url).pathname;
      if (!reqPath.startsWith('/api/jobs/board')) {
        return c.text('OK', 200);
      }

      // open in development, admin-only elsewhere: a setting of the deployment, not of the request
      if (env('NODE_ENV') !== 'development') {
        const { getOptionalSession } = await import('../session.js');
        const { user } = await getOptionalSession(c);
        if (!user || user.role !== 'ADMIN') {
          return c.text('Unauthorized', 401);
        }
      }

      return boardApp.fetch(c.req.raw);
    };
  }

  private createBoardApp(): Hono {
    const serverAdapter = new HonoAdapter(serveStatic);
    createBullBoard({ queues: [new BullMQAdapter(this.queue)], serverAdapter });
    serverAdapter.setBasePath('/api/jobs/board');

    const app = new Hono();
    app.route('/api/jobs/board', serverAdapter.registerPlugin());
    return app;
  }
}

export const jobsClient = new BullMQJobProvider();
`,
      'src/env.ts': `
export const env = (name: string): string | undefined => process.env[name];
`,
      'src/session.ts': `
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { prisma } from './db.js';

export async function getOptionalSession(c: Context) {
  const token = getCookie(c, 'sessionId');
  if (!token) return { user: null };
  const session = await prisma.session.findUnique({ where: { token }, include: { user: true } });
  return { user: session?.user ?? null };
}
`,
      'src/server.ts': `
import { Hono } from 'hono';
import { jobsClient } from './jobs/bullmq.js';

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
app.use('/api/jobs/*', jobsClient.getApiHandler());

export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['ALL /api/jobs/* (inline 401 check):auth', 'ALL /api/jobs/board/* (inline 401 check):auth', 'GET /health']);
    const board = res.routes.find((r) => r.path === '/api/jobs/board/*')!;
    expect([board.app, `${board.file}:${board.line}`, board.guards.map((g) => `${g.mechanism} ${g.file}:${g.line}`).join()]).toEqual(['app', 'src/jobs/bullmq.ts:42', 'in-handler src/jobs/bullmq.ts:27']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'missing-auth-guard'))).toEqual(['src/server.ts:6:1 error missing-auth-guard GET /health has no auth guard']);
  });

  it("an app only a function hands its request to, that function used where the analysis cannot see (a job provider chosen at run time), is listed behind the function's checks", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'web', dependencies: { hono: '^4.7.0', 'ts-pattern': '^5.0.0' } }),
      'src/jobs/board.ts': `
import type { Context } from 'hono';
import { Hono } from 'hono';
import { requireSession } from '../session.js';

export class BoardProvider {
  public static getInstance() {
    return new BoardProvider();
  }

  public getApiHandler() {
    const boardApp = new Hono();
    boardApp.get('/api/jobs/board/queues', (c) => c.json({ queues: [] }));
    boardApp.post('/api/jobs/board/queues/:name/retry', (c) => c.json({ retried: c.req.param('name') }));

    return async (c: Context) => {
      await requireSession(c);
      return boardApp.fetch(c.req.raw);
    };
  }
}
`,
      'src/jobs/local.ts': `
import type { Context } from 'hono';

export class LocalProvider {
  public static getInstance() {
    return new LocalProvider();
  }

  public getApiHandler() {
    return async (c: Context) => c.text('OK', 200);
  }
}
`,
      'src/jobs/client.ts': `
import { match } from 'ts-pattern';
import { BoardProvider } from './board.js';
import { LocalProvider } from './local.js';

export class JobClient {
  private provider = match(process.env.JOBS_PROVIDER)
    .with('board', () => BoardProvider.getInstance())
    .otherwise(() => LocalProvider.getInstance());

  public getApiHandler() {
    return this.provider.getApiHandler();
  }
}

export const jobsClient = new JobClient();
`,
      'src/session.ts': `
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { getCookie } from 'hono/cookie';

export async function requireSession(c: Context) {
  const session = getCookie(c, 'session');
  if (!session) throw new HTTPException(401, { message: 'sign in' });
}
`,
      'src/server.ts': `
import { Hono } from 'hono';
import { jobsClient } from './jobs/client.js';

const app = new Hono();
app.use('/api/jobs/*', jobsClient.getApiHandler());

export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/jobs/board/queues requireSession:auth', 'POST /api/jobs/board/queues/:name/retry requireSession:auth']);
    expect(res.routes.map((r) => r.guards.map((g) => `${g.mechanism} ${g.file}:${g.line}`).join())).toEqual(['in-handler src/jobs/board.ts:17', 'in-handler src/jobs/board.ts:17']);
  });

  it('an app handed requests by two functions used nowhere the analysis sees is listed once, as an app of its own; one function handing it a request twice hands it once', async () => {
    const worker = {
      'package.json': HONO_PKG,
      'src/app.ts': `
import { Hono } from 'hono';

export const app = new Hono();
app.get('/api/sites', (c) => c.json({ sites: [] }));
`,
      'src/worker.ts': `
import { app } from './app.js';

export default {
  async fetch(request: Request, env: { API_TOKEN: string }) {
    if (request.headers.get('authorization') !== \`Bearer \${env.API_TOKEN}\`) {
      return new Response('unauthorized', { status: 401 });
    }
    return request.method === 'HEAD' ? app.fetch(request) : app.fetch(request, env);
  },
};
`,
    };
    const one = await check(writeProject(worker));
    expect(lines(one)).toEqual(['GET /api/sites (inline 401 check):auth (inline secret check):family+auth+bearer']);
    const res = await check(writeProject({ ...worker, 'src/smoke.ts': `
import { app } from './app.js';

export const call = (request: Request) => app.fetch(request);
` }));
    expect(lines(res)).toEqual(['GET /api/sites']);
  });

  it("mount(path, app.fetch) of a Hono app of the code serves its routes below the path (and nothing else: no ALL route), behind the middleware before the mount, its own middleware guarding them alone; with { replaceRequest: false }, at their own paths", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': MUST_SIGN_IN,
      'src/legacy.ts': `
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';

export const legacy = new Hono();
legacy.use('/admin/*', bearerAuth({ token: process.env.LEGACY_ADMIN_TOKEN! }));
legacy.get('/sites', (c) => c.json({ sites: [] }));
legacy.get('/admin/stats', (c) => c.json({ stats: {} }));

export const archive = new Hono();
archive.get('/archive/sites', (c) => c.json({ sites: [] }));
archive.get('/elsewhere', (c) => c.text('not below /archive'));
`,
      'src/app.ts': `
import { Hono } from 'hono';
import { mustSignIn } from './guards.js';
import { archive, legacy } from './legacy.js';

const app = new Hono();
app.use('/legacy/*', mustSignIn);
app.mount('/legacy', legacy.fetch);
app.mount('/archive', archive.fetch, { replaceRequest: false });
app.get('/admin/stats', (c) => c.json({ stats: {} }));
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /admin/stats',
      'GET /archive/sites',
      'GET /legacy/admin/stats mustSignIn:auth bearerAuth:auth+bearer',
      'GET /legacy/sites mustSignIn:auth',
    ]);
    expect(res.routes.find((r) => r.path === '/legacy/sites')!.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/legacy src/app.ts:8']);
  });

  it("an app mounting itself through a function handing on the request (cella's server, cutting off a prefix its load balancer keeps) serves its table below the path too, each route behind its own guards", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': MUST_SIGN_IN,
      'src/users.ts': `
import { Hono } from 'hono';
import { mustSignIn } from './guards.js';

export const users = new Hono();
users.use('*', mustSignIn);
users.get('/me', (c) => c.json(c.get('user')));
`,
      'src/legacy.ts': `
import { Hono } from 'hono';

export const legacy = new Hono();
legacy.get('/v1/sites', (c) => c.json({ sites: [] }));
`,
      'src/server.ts': `
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { legacy } from './legacy.js';
import { users } from './users.js';

const baseApp = new Hono();
// The load balancer keeps the /api prefix; handing the request on through mount() cuts it off.
baseApp.mount('/api', (request, env, executionCtx) => baseApp.fetch(request, env, executionCtx));
baseApp.get('/health', (c) => c.text('ok'));
baseApp.route('/users', users);
baseApp.mount('/legacy', (request: Request) => legacy.fetch(request));
baseApp.mount('/proxy', (request: Request) => (request.method === 'GET' ? legacy.fetch(request) : new Response('read only', { status: 405 })));
baseApp.notFound(() => {
  throw new HTTPException(404, { message: 'route not found' });
});
export default baseApp;
`,
    });
    const res = await check(dir);
    // (the ALL routes of the mounts handing on to apps of the code answer only with what those
    // apps answer: not listed; the one answering on its own is)
    expect(lines(res)).toEqual([
      'GET /api/health',
      'GET /api/legacy/v1/sites',
      'ALL /api/proxy/*',
      'GET /api/users/me mustSignIn:auth',
      'GET /health',
      'GET /legacy/v1/sites',
      'ALL /proxy/*',
      'GET /users/me mustSignIn:auth',
    ]);
    expect(res.routes.find((r) => r.path === '/api/users/me')!.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/api src/server.ts:9', '/users src/server.ts:11']);
  });

  it("an app handed the whole request keeps its paths: those the handing route's path reaches are served, its middleware guarding its own routes alone", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/guards.ts': MUST_SIGN_IN + `
export const requireAdmin = createMiddleware(async (c, next) => {
  if (c.get('user')?.role !== 'admin') throw new HTTPException(403, { message: 'admins only' });
  await next();
});
`,
      'src/legacy.ts': `
import { Hono } from 'hono';
import { requireAdmin } from './guards.js';

const legacy = new Hono();
legacy.use('/v0/admin/*', requireAdmin);
legacy.get('/v0/sites', (c) => c.json({ sites: [] }));
legacy.get('/v0/admin/users', (c) => c.json({ users: [] }));
legacy.get('/status', (c) => c.text('ok'));
export default legacy;
`,
      'src/app.ts': `
import { Hono } from 'hono';
import { mustSignIn } from './guards.js';
import legacy from './legacy.js';

const app = new Hono();
app.use('/v0/*', mustSignIn);
app.get('/v0/*', (c) => legacy.fetch(c.req.raw));

// mounted below /v2, a request keeps /v2 in its path: no route of legacy's is found for it
const v2 = new Hono();
v2.all('/v0/*', (c) => legacy.fetch(c.req.raw));
app.route('/v2', v2);

app.get('/v0/admin', (c) => c.json({ admin: true }));
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /v0/* mustSignIn:auth',
      'GET /v0/admin mustSignIn:auth',
      'GET /v0/admin/users mustSignIn:auth requireAdmin:family',
      'GET /v0/sites mustSignIn:auth',
      'ALL /v2/v0/*',
    ]);
  });

  it('@hono/graphql-server and @hono/trpc-server given to use() answer every request there: an ALL route, behind the middleware before it', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0', '@hono/graphql-server': '^0.5.1', '@hono/trpc-server': '^0.3.4' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { graphqlServer } from '@hono/graphql-server';
import { trpcServer } from '@hono/trpc-server';
import { schema, rootResolver, appRouter } from './api.js';

const app = new Hono();
app.use('/graphql', graphqlServer({ schema, rootResolver, graphiql: true }));
app.use('/trpc/*', async (c, next) => {
  if (!c.req.header('authorization')) return c.json({ error: 'sign in' }, 401);
  await next();
});
app.use('/trpc/*', trpcServer({ router: appRouter }));
app.get('/health', (c) => c.json({ ok: true }));
export default app;
`,
      'src/api.ts': 'export const schema = {};\nexport const rootResolver = () => ({});\nexport const appRouter = {};\n',
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual([
      'ALL /graphql @hono/graphql-server src/app.ts:8 []',
      'GET /health null src/app.ts:14 []',
      'ALL /trpc/* @hono/trpc-server src/app.ts:13 [auth+bearer]',
    ]);
  });

  it("a function of the code given to use() at a path that answers and never calls next() serves what reaches it: an ALL route (documenso's public API v2)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { openApiHandler } from './openapi.js';
import { requireApiToken } from './auth.js';

const app = new Hono();
app.use('/api/v2/*', requireApiToken);
app.get('/api/v2/openapi.json', (c) => c.json({ openapi: '3.1.0' }));
// handed to a handler of the code, no next() to call
app.use('/api/v2/*', async (c) => openApiHandler(c, { isBeta: false }));
// answers itself
app.use('/legacy/*', (c) => c.json({ moved: '/api/v2' }));
// sets a header and hands on: a middleware
app.use('/api/*', async (c, next) => {
  c.header('x-api-version', '2');
  await next();
});
// hands its next() to a guard, answering only when that throws: a middleware
app.use('/api/*', async (c, next) => {
  try {
    await requireApiToken(c, next);
  } catch {
    return c.json({ error: 'unauthorized' }, 401, { 'WWW-Authenticate': 'Bearer' });
  }
});
// answers only when it does not hand on: a middleware too
app.use('/maintenance/*', async (c, next) => {
  if (process.env.MAINTENANCE === '1') return c.json({ down: true }, 503);
  await next();
});
// no path: the app's fallback, no route
app.use(async (c) => c.json({ error: 'not found' }, 404));
export default app;
`,
      'src/openapi.ts': `
import type { Context } from 'hono';
export async function openApiHandler(c: Context, opts: { isBeta: boolean }) {
  const res = await fetch('http://internal/openapi' + c.req.path, { headers: { 'x-beta': String(opts.isBeta) } });
  return new Response(res.body, { status: res.status });
}
`,
      'src/auth.ts': `
import type { Context, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
export async function requireApiToken(c: Context, next: Next) {
  const token = c.req.header('authorization');
  if (!token || token !== 'Bearer ' + process.env.API_TOKEN) throw new HTTPException(401, { message: 'invalid token' });
  await next();
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'ALL /api/v2/* src/app.ts:10 [requireApiToken:auth+bearer]',
      'GET /api/v2/openapi.json src/app.ts:8 [requireApiToken:auth+bearer]',
      'ALL /legacy/* src/app.ts:12 []',
    ]);
  });

  it("a middleware answering the requests to a path itself, handing every other on, is a route at the whole path it tests (`c.req.path`), where requests for it reach it: in a sub-app route()d below a path, only under that path", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { requireSession } from './auth.js';

const app = new Hono();
app.use(async (c, next) => {
  if (c.req.path !== '/internal/health') return next();
  return c.json({ ok: true, uptime: process.uptime() });
});
const api = new Hono();
api.use('*', requireSession);
api.use(
  '*',
  createMiddleware(async (c, next) => {
    if (c.req.method === 'GET' && c.req.path === '/api/version') return c.json({ version: process.env.APP_VERSION });
    await next();
  }),
);
// a path outside the one the sub-app is mounted at: no request for it reaches the middleware
api.use('*', async (c, next) => {
  if (c.req.path !== '/status') return next();
  return c.text('up');
});
// a CORS preflight's answer: no route of its own
api.use('*', async (c, next) => {
  if (c.req.method !== 'OPTIONS') return next();
  return c.body(null, 204);
});
api.get('/sites', (c) => c.json([]));
app.route('/api', api);
export default app;
`,
      'src/auth.ts': `
import type { Context, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
export async function requireSession(c: Context, next: Next) {
  if (!c.get('session')?.userId) throw new HTTPException(401, { message: 'sign in' });
  await next();
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/sites src/app.ts:30 [requireSession]',
      'GET /api/version src/app.ts:13 [requireSession]',
      'ALL /internal/health src/app.ts:7 []',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak' || f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:7:1 error excluded-family-leak ALL /internal/health is in the excluded family "internal" and is reachable without its family guard (unguarded)',
    ]);
    // an app mount()ed sees the path below the mount, unless it is handed the whole request
    const mounted = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
const legacy = new Hono();
legacy.use(async (c, next) => {
  if (c.req.path !== '/ping') return next();
  return c.text('pong');
});
const whole = new Hono();
whole.use(async (c, next) => {
  if (c.req.path !== '/v0/ping') return next();
  return c.text('pong');
});
const app = new Hono();
app.mount('/legacy', legacy.fetch);
app.mount('/v0', whole.fetch, { replaceRequest: false });
export default app;
`,
    });
    expect((await check(mounted)).routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['ALL /legacy/ping src/app.ts:4', 'ALL /v0/ping src/app.ts:9']);
  });

  it("an API reference page's handler (@scalar/hono-api-reference, @hono/swagger-ui) given to get() is the route's handler, not a middleware", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0', '@scalar/hono-api-reference': '^0.9.48', '@hono/swagger-ui': '^0.6.1' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { Scalar, apiReference } from '@scalar/hono-api-reference';
import { swaggerUI } from '@hono/swagger-ui';

const app = new Hono();
app.get('/reference', Scalar({ url: '/openapi.json', pageTitle: 'Control plane API' }));
app.get('/reference/legacy', apiReference({ url: '/openapi.json' }));
app.get('/swagger', swaggerUI({ url: '/openapi.json' }));
app.post('/api/sites', csrf());
app.get('/openapi.json', (c) => c.json({ openapi: '3.1.0', paths: {} }));
export default app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /openapi.json src/app.ts:12',
      'GET /reference src/app.ts:8',
      'GET /reference/legacy src/app.ts:9',
      'GET /swagger src/app.ts:10',
    ]);
  });

  it("a WebSocket handler of Hono's helpers (upgradeWebSocket of hono/cloudflare-workers, createBunWebSocket()'s, @hono/node-ws's createNodeWebSocket()'s) given to get() is the route's handler; given to use() it hands other requests on, a middleware", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0', '@hono/node-ws': '^1.3.1', '@hono/node-server': '^1.19.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { requireSession } from './session';

export const app = new Hono();
app.use('/api/*', requireSession);
app.get('/api/sites', (c) => c.json({ items: [] }));
`,
      'src/session.ts': `
import type { Context, Next } from 'hono';
import { getCookie } from 'hono/cookie';

export async function requireSession(c: Context, next: Next) {
  const sid = getCookie(c, 'sid');
  if (!sid) return c.json({ error: 'unauthenticated' }, 401);
  c.set('sessionId', sid);
  await next();
}
`,
      'src/node.ts': `
import { serve } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import { app } from './app';
import { deploymentEvents } from './events';

const { injectWebSocket, upgradeWebSocket } = createNodeWebSocket({ app });
app.get('/api/deployments/:id/events', upgradeWebSocket(deploymentEvents));
app.use('/ws/*', upgradeWebSocket(deploymentEvents));
injectWebSocket(serve({ fetch: app.fetch, port: 8787 }));
`,
      'src/worker.ts': `
import { Hono } from 'hono';
import { upgradeWebSocket } from 'hono/cloudflare-workers';
import { deploymentEvents } from './events';

const edge = new Hono();
edge.get('/edge/events', upgradeWebSocket(deploymentEvents));
export default edge;
`,
      'src/bun.ts': `
import { Hono } from 'hono';
import { createBunWebSocket } from 'hono/bun';
import { deploymentEvents } from './events';

const { upgradeWebSocket, websocket } = createBunWebSocket();
const local = new Hono();
local.get('/local/events', upgradeWebSocket(deploymentEvents));
export default { fetch: local.fetch, websocket };
`,
      'src/events.ts': `
import type { Context } from 'hono';

export const deploymentEvents = (c: Context) => ({
  onOpen(_event: Event, ws: { send(data: string): void }) {
    ws.send(JSON.stringify({ deployment: c.req.param('id'), status: 'subscribed' }));
  },
});
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'GET /api/deployments/:id/events [requireSession] src/node.ts:8',
      'GET /api/sites [requireSession] src/app.ts:7',
      'GET /edge/events [] src/worker.ts:7',
      'GET /local/events [] src/bun.ts:8',
    ]);
  });

  it("chanfana's fromHono(app): endpoint classes registered through it are the app's routes, its documentation routes are served where it is called, and route() of another fromHono() app leaves that one's out", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'tasks-api', dependencies: { chanfana: '^2.8.3', hono: '^4.11.1', zod: '^3.25.67' } }),
      'src/index.ts': `
import { fromHono } from 'chanfana';
import { Hono } from 'hono';
import { requireSession } from './session';
import { tasksRouter } from './tasks/router';
import { WebhookReceiver } from './webhooks';

const app = new Hono<{ Bindings: Env }>();
app.use('/tasks/*', requireSession);

const openapi = fromHono(app, {
  docs_url: '/',
  redoc_url: null,
  schema: { info: { title: 'Tasks API', version: '1.0.0' } },
});
openapi.route('/tasks', tasksRouter);
openapi.post('/webhooks/:source', WebhookReceiver);

export default app;
`,
      'src/session.ts': `
import type { Context, Next } from 'hono';
import { getCookie } from 'hono/cookie';

export async function requireSession(c: Context, next: Next) {
  const sid = getCookie(c, 'sid');
  if (!sid) return c.json({ success: false, errors: [{ code: 401, message: 'sign in first' }] }, 401);
  c.set('sessionId', sid);
  await next();
}
`,
      'src/tasks/router.ts': `
import { fromHono } from 'chanfana';
import { Hono } from 'hono';
import { TaskCreate, TaskList, TaskRead } from './endpoints';

export const tasksRouter = fromHono(new Hono());

tasksRouter.get('/', TaskList);
tasksRouter.post('/', TaskCreate);
tasksRouter.get('/:id', TaskRead);
`,
      'src/tasks/endpoints.ts': `
import { OpenAPIRoute, Str } from 'chanfana';
import { z } from 'zod';
import type { Context } from 'hono';

export class TaskList extends OpenAPIRoute {
  schema = { responses: { '200': { description: 'The tasks' } } };
  async handle(c: Context) {
    const { results } = await c.env.DB.prepare('SELECT * FROM tasks').all();
    return { success: true, tasks: results };
  }
}

export class TaskCreate extends OpenAPIRoute {
  schema = { request: { body: { content: { 'application/json': { schema: z.object({ name: Str() }) } } } } };
  async handle(c: Context) {
    const data = await this.getValidatedData<typeof this.schema>();
    await c.env.DB.prepare('INSERT INTO tasks (name) VALUES (?)').bind(data.body.name).run();
    return { success: true };
  }
}

export class TaskRead extends OpenAPIRoute {
  async handle(c: Context) {
    return { success: true, task: await c.env.DB.prepare('SELECT * FROM tasks WHERE id = ?').bind(c.req.param('id')).first() };
  }
}
`,
      'src/webhooks.ts': `
import { OpenAPIRoute } from 'chanfana';
import type { Context } from 'hono';

export class WebhookReceiver extends OpenAPIRoute {
  async handle(c: Context) {
    await c.env.QUEUE.send({ source: c.req.param('source'), body: await c.req.text() });
    return { success: true };
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET / chanfana src/index.ts:11 []',
      'GET /openapi.json chanfana src/index.ts:11 []',
      'GET /openapi.yaml chanfana src/index.ts:11 []',
      'GET /tasks TaskList src/tasks/router.ts:8 [requireSession]',
      'POST /tasks TaskCreate src/tasks/router.ts:9 [requireSession]',
      'GET /tasks/:id TaskRead src/tasks/router.ts:10 [requireSession]',
      'POST /webhooks/:source WebhookReceiver src/index.ts:17 []',
    ]);
  });

  it("@hono/clerk-auth's clerkMiddleware() only puts the auth state on the context: a route is guarded by the check of getAuth(c) it makes", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0', '@hono/clerk-auth': '^2.0.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { clerkMiddleware, getAuth } from '@hono/clerk-auth';

const app = new Hono();
app.use('*', clerkMiddleware());
app.get('/api/sites', (c) => c.json([]));
app.get('/api/me', (c) => {
  const auth = getAuth(c);
  if (!auth?.userId) return c.json({ message: 'You are not logged in.' }, 401);
  return c.json({ userId: auth.userId });
});
export default app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/me [(inline 401 check):auth]',
      'GET /api/sites []',
    ]);
  });

  it("@hono/auth-js: initAuthConfig(cb) only sets the configuration; verifyAuth() answers 401 without a user", async () => {
    // (read at @hono/auth-js 1.1, dist/index.js)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.7.0', '@hono/auth-js': '^1.1.1' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { authHandler, initAuthConfig, verifyAuth } from '@hono/auth-js';

const app = new Hono();
app.use('*', initAuthConfig((c) => ({ secret: c.env.AUTH_SECRET, providers: [] })));
app.use('/api/auth/*', authHandler());
app.get('/api/sites', (c) => c.json([]));
app.use('/api/account/*', verifyAuth());
app.get('/api/account/profile', (c) => c.json(c.get('authUser')));
export default app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/account/profile [verifyAuth:auth]',
      'GET /api/sites []',
    ]);
  });

  it("an app made by hono/factory's createFactory(init).createApp(options) is a Hono app: its routes and middleware mount with route() (capgo's functions)", async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/factory.ts': `
import { createFactory } from 'hono/factory';

export const honoFactory = createFactory<{ Variables: { requestId: string } }>();
`,
      'src/ok.ts': `
import { honoFactory } from './factory';

export const app = honoFactory.createApp();
app.get('/', (c) => c.json({ status: 'ok' }));
`,
      'src/devices.ts': `
import { honoFactory } from './factory';
import { middlewareKey } from './auth';

export const app = honoFactory.createApp();
app.use('*', middlewareKey);
app.get('/devices', (c) => c.json([]));
`,
      'src/auth.ts': `
import type { Context, Next } from 'hono';

export async function middlewareKey(c: Context, next: Next) {
  if (!c.req.header('capgkey')) return c.json({ error: 'invalid_apikey' }, 401);
  await next();
}
`,
      'src/index.ts': `
import { Hono } from 'hono';
import { app as ok } from './ok';
import { app as devices } from './devices';

const app = new Hono();
app.route('/ok', ok);
app.route('/api', devices);
export default app;
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/devices middlewareKey:auth', 'GET /ok']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('warns when a mounted sub-app cannot be resolved', async () => {
    const dir = writeProject({
      'package.json': HONO_PKG,
      'src/app.ts': `
import { Hono } from 'hono';
import { plugins } from './plugins.js';
const app = new Hono();
app.route('/ext', plugins.billing);
export default app;
`,
    });
    const res = await check(dir);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      "src/app.ts:5:1 warning unresolved-route sub-app mounted at '/ext' could not be resolved (property billing of a value not known statically); the routes under it are unknown",
    ]);
  });
});
