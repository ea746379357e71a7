/**
 * The Koa + @koa/router adapter, on fixtures/koa-clean and fixtures/koa-leaky (an app of
 * nested routers with router middleware, koa-session and koa-csrf) and on small projects
 * for single semantics. Expectations derived by hand from @koa/router's router.ts /
 * layer.ts (stack order, clones at use() time, setPrefix), path-to-regexp v8
 * (`trailing: true`) and the SPEC.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { setPrefix } from '../../src/adapters/koa/index.js';

const R = 'src/routes/';
// api.use(loadViewer) — ctx.throw(401), auth by behaviour; scopeToMembership compares the
// tenant and throws 404 (tenant by behaviour); new CSRF() from koa-csrf (by package)
const API = { auth: ['loadViewer'], tenant: ['scopeToMembership'], csrf: ['CSRF'] };
const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

describe('fixtures/koa-clean', () => {
  const DIR = path.join(ROOT, 'fixtures', 'koa-clean');

  it('lists every route with its prefixes, classification and guards', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // named route auth.get('me', '/me/', …) mounted at '/auth' under the '/api' prefix
      row('GET /api/auth/me/', 'contract', `${R}auth.ts:6:1`, API, 'GET /api/auth/me/'),
      // '/' of a non-strict router becomes the bare prefix, which also serves '/api/databases/'
      row('GET /api/databases', 'contract', `${R}databases.ts:6:1`, API, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', `${R}deployments.ts:7:4`, API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${R}deployments.ts:10:4`, API),
      // app.use(health.routes()) comes before any guard
      row('GET /api/health/ready', 'public', `${R}health.ts:6:1`, {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', `${R}sites.ts:6:1`, API, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${R}sites.ts:16:1`, API),
      row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:23:1`, API),
      row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:10:1`, API),
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', `${R}internal.ts:9:1`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/github', 'excluded:webhook', `${R}webhooks.ts:7:1`, { family: ['verifyGithubSignature'] }),
    ]);
  });

  it('reports only the uncontracted browser routes', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `${R}deployments.ts:10:4 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${R}sites.ts:10:1 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}sites.ts:16:1 info uncontracted-route ${outside('POST /api/sites')}`,
      `${R}sites.ts:23:1 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
  });

  it('keeps the trailing-slash rule of path-to-regexp: a route without a slash serves both forms, one with a slash only itself', async () => {
    const res = await check(DIR);
    expect(res.routes.filter((r) => r.path.startsWith('/api/')).map((r) => `${r.path} ${r.trailingSlashInsensitive}`)).toEqual([
      '/api/auth/me/ false',
      '/api/databases true',
      '/api/deployments true',
      '/api/deployments true',
      '/api/health/ready true',
      '/api/sites true',
      '/api/sites true',
      '/api/sites/:siteId true',
      '/api/sites/:siteId true',
    ]);
  });
});

describe('fixtures/koa-leaky', () => {
  const DIR = path.join(ROOT, 'fixtures', 'koa-leaky');
  const S = { auth: ['loadViewer'] };

  it('lists the routes: router middleware used after a mount or a route does not guard it', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me/', 'contract', `${R}auth.ts:6:1`, S, 'GET /api/auth/me/'),
      row('GET /api/databases', 'contract', `${R}databases.ts:6:1`, API, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', `${R}deployments.ts:7:4`, API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${R}deployments.ts:10:4`, API),
      // '/ready/' with a trailing slash does not serve the contract's '/api/health/ready'
      row('GET /api/health/ready/', 'public', `${R}health.ts:6:1`, {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', `${R}sites.ts:6:1`, S, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${R}sites.ts:16:1`, S),
      row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:23:1`, S),
      row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:10:1`, S),
      // internal.use(requireServiceToken) comes after this route
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', `${R}internal.ts:7:1`),
      row('GET /internal/tenants/:tenantId/usage', 'excluded:internal', `${R}internal.ts:15:1`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/github', 'excluded:webhook', `${R}webhooks.ts:7:1`, { family: ['verifyGithubSignature'] }),
    ]);
  });

  it('reports the leaks', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `${R}auth.ts:6:1 error missing-tenant-guard GET /api/auth/me/ has no tenant guard`,
      `${R}databases.ts:8:89 error provider-credential-exposure GET /api/databases returns credential-like field dsn in database metadata`,
      `${R}deployments.ts:10:4 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${R}health.ts:6:1 error contract-route-drift GET /api/health/ready/ drifts from the contract route GET /api/health/ready: trailing slash differs and koa matches it exactly`,
      `${R}internal.ts:7:1 error excluded-family-leak POST /internal/builds/:buildId/complete is in the excluded family "internal" and is reachable without its family guard (unguarded)`,
      `${R}sites.ts:6:1 error missing-tenant-guard GET /api/sites has no tenant guard`,
      `${R}sites.ts:10:1 error missing-tenant-guard GET /api/sites/:siteId has no tenant guard`,
      `${R}sites.ts:10:1 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}sites.ts:16:1 error missing-csrf-guard POST /api/sites changes state on the browser session without a CSRF guard`,
      `${R}sites.ts:16:1 error missing-tenant-guard POST /api/sites has no tenant guard`,
      `${R}sites.ts:16:1 info uncontracted-route ${outside('POST /api/sites')}`,
      `${R}sites.ts:23:1 error missing-csrf-guard DELETE /api/sites/:siteId changes state on the browser session without a CSRF guard`,
      `${R}sites.ts:23:1 error missing-tenant-guard DELETE /api/sites/:siteId has no tenant guard`,
      `${R}sites.ts:23:1 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
      'src/server.ts:19:9 error insecure-session-cookie koa-session session cookie is configured without secure: true',
    ]);
  });
});

describe('fixtures/koa-route', () => {
  const DIR = path.join(ROOT, 'fixtures', 'koa-route');
  const S = 'src/server.ts:';
  // app.use(loadViewer), app.use(scopeToMembership), app.use(new CSRF()) before the routes
  const ALL = { auth: ['loadViewer'], tenant: ['scopeToMembership'], csrf: ['CSRF'] };

  it('lists the routes koa-route answers, each behind the app middleware used before it', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // used after loadViewer, before scopeToMembership
      row('GET /api/auth/me/', 'contract', `${S}38:1`, { auth: ['loadViewer'] }, 'GET /api/auth/me/'),
      row('GET /api/databases', 'contract', `${S}48:1`, ALL, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', `${S}46:1`, ALL, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${S}47:1`, ALL),
      // used before the session
      row('GET /api/health/ready', 'public', `${S}25:1`, {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', `${S}42:1`, ALL, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${S}44:1`, ALL),
      // route.del(path)(fn)
      row('DELETE /api/sites/:siteId', 'browser', `${S}45:1`, ALL),
      row('GET /api/sites/:siteId', 'browser', `${S}43:1`, ALL),
      // the internal app, koa-mounted at /internal: its routes are under the mount path; the first is used before its token check
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', 'src/internal/app.ts:10:1'),
      row('GET /internal/tenants/:tenantId/usage', 'excluded:internal', 'src/internal/app.ts:20:1', { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      // route.post('/webhooks/github', verifyGithubSignature) passes the request on: it runs before the next route on that path and method
      row('POST /webhooks/github', 'excluded:webhook', `${S}30:1`, { family: ['verifyGithubSignature'] }),
    ]);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.trailingSlashInsensitive} ${r.prefixes.map((p) => p.prefix).join(',')}`)).toEqual([
      'GET /api/auth/me/ me false ',
      'GET /api/databases databases.list true ',
      'GET /api/deployments deployments.list true ',
      'POST /api/deployments deployments.create true ',
      'GET /api/health/ready ready true ',
      'GET /api/sites sites.list true ',
      'POST /api/sites sites.create true ',
      'DELETE /api/sites/:siteId sites.remove true ',
      'GET /api/sites/:siteId sites.show true ',
      'POST /internal/builds/:buildId/complete null true /internal',
      'GET /internal/tenants/:tenantId/usage null true /internal',
      'POST /webhooks/github receiveGithubEvent true ',
    ]);
    expect(res.routes.find((r) => r.path === '/webhooks/github')!.guards.map((g) => `${g.name} ${g.mechanism} ${g.line}`)).toEqual(['verifyGithubSignature pass-through-route 29']);
  });

  it('reports the unguarded internal route and the tenant guard /me lacks', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      'src/internal/app.ts:10:1 error excluded-family-leak POST /internal/builds/:buildId/complete is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      `${S}38:1 error missing-tenant-guard GET /api/auth/me/ has no tenant guard`,
      `${S}43:1 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${S}44:1 info uncontracted-route ${outside('POST /api/sites')}`,
      `${S}45:1 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
      `${S}47:1 info uncontracted-route ${outside('POST /api/deployments')}`,
    ]);
  });
});

const KOA_PKG = JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0', 'koa-mount': '^4.0.0' } });

function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.trailingSlashInsensitive ? '' : ' (exact)'}${r.guards.length ? ' ' + r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ') : ''}`);
}

const GUARDS = `
export async function requireUser(ctx, next) {
  if (!ctx.state.user) { ctx.status = 401; ctx.body = { error: 'sign in' }; return; }
  await next();
}
export async function sameTenant(ctx, next) {
  if (ctx.params.tenantId !== ctx.state.user.tenantId) ctx.throw(404);
  await next();
}
`;

/** A project whose router `api` serves GET /projects, and whose app.ts goes on with `body`, where `base` is a path read from the environment. */
function underEnvBase(body: string): string {
  return writeProject({
    'package.json': KOA_PKG,
    'src/guards.ts': GUARDS,
    'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const base = process.env.API_BASE ?? '';
const api = new Router();
api.get('/projects', async (ctx) => { ctx.body = []; });
${body}`,
  });
}

describe('Koa semantics', () => {
  it('setPrefix as Layer.setPrefix', () => {
    expect(setPrefix('/', '/api', false)).toBe('/api');
    expect(setPrefix('/', '/api', true)).toBe('/api/');
    expect(setPrefix('/sites', '/api', false)).toBe('/api/sites');
    expect(setPrefix('/sites/', '/api', true)).toBe('/api/sites/');
    expect(setPrefix('', '/api', false, 'mw')).toBe('/api');
    expect(setPrefix('/x', '', false)).toBe('/x');
  });

  it('nested routers are cloned when used; app.use(router.routes()) dispatches to the live stack', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const reports = new Router();
reports.get('/daily', async (ctx) => { ctx.body = []; });

const api = new Router();
api.get('/open', async (ctx) => { ctx.body = 'open'; });
api.use(requireUser);
api.use('/reports', reports.routes());
reports.get('/weekly', async (ctx) => { ctx.body = []; });
api.get('/after', async (ctx) => { ctx.body = 'after'; });
api.prefix('/api/');

const app = new Koa();
app.use(api.routes());
app.use(requireUser);
app.use(reports.routes());
api.get('/late', async (ctx) => { ctx.body = 'late'; });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/after requireUser:auth',
      // registered after app.use(api.routes()), still in the stack the app dispatches to
      'GET /api/late requireUser:auth',
      'GET /api/open',
      // the clone made by api.use('/reports', …) holds only /daily
      'GET /api/reports/daily requireUser:auth',
      // reports itself is also mounted on the app, after the app-level requireUser
      'GET /daily requireUser:auth',
      'GET /weekly requireUser:auth',
    ]);
  });

  it('router.register(path, methods, middleware, opts) is a route for each method, behind what the stack runs before it; one it cannot read is said', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^3.0.3', 'koa-router': '7.4.0' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import Router from 'koa-router';
import { requireUser } from './guards.js';

const CRON_METHODS = ['get', 'post'];
const router = new Router({ prefix: '/api' });
router.register('/cron.:period', CRON_METHODS, [async (ctx) => { ctx.body = { ran: ctx.params.period }; }]);
router.use(requireUser);
router.register(['/exports.download', '/exports.info'], ['GET'], async (ctx) => { ctx.body = {}; }, { name: 'exports', strict: true });
router.register('/files', ['get'], async (ctx) => { ctx.body = []; }, { end: false });
router.register('/hooks', process.env.HOOK_METHODS.split(','), async (ctx) => { ctx.body = {}; });

const app = new Koa();
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/cron.:period',
      'POST /api/cron.:period',
      'GET /api/exports.download (exact) requireUser:auth',
      'GET /api/exports.info (exact) requireUser:auth',
    ]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:11:1 warning unresolved-route router.register() not read: it registers a prefix layer (end: false); what it registers is left out',
      'src/app.ts:12:1 warning unresolved-route router.register() not read: its methods are not known statically; what it registers is left out',
    ]);
  });

  it("a prefix not known statically is a step of each route's prefixes, until router.prefix() sets one that is", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const partners = new Router();
partners.get('/usage', async (ctx) => { ctx.body = {}; });
partners.prefix(process.env.PARTNER_PREFIX);

const v1 = new Router({ prefix: process.env.API_PREFIX });
v1.get('/sites', async (ctx) => { ctx.body = []; });
v1.prefix('/api/v1');

const app = new Koa();
app.use(partners.routes()).use(v1.routes());
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`)).toEqual([
      // (the prefix router.prefix() sets, known, is the step: where it is set)
      'GET /api/v1/sites [/api/v1]',
      'GET /usage [property PARTNER_PREFIX of a value not known statically]',
    ]);
    expect(res.routes[0]!.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/api/v1 src/app.ts:11']);
    expect(unresolvedRows(res)).toEqual(["src/app.ts:7:1 warning unresolved-route router prefix not known statically; the router's routes are listed without it"]);
  });

  it("a prefix option read from a parameter no call gives is named with its property path, as other adapters name it", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const app = new Koa();

export function mountProjects(opts: { prefix: string }) {
  const projects = new Router({ prefix: opts.prefix });
  projects.get('/projects', async (ctx) => { ctx.body = []; });
  app.use(projects.routes());
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /projects']);
    expect(res.routes[0]!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 8, unknown: 'the parameter opts.prefix' }]);
    expect(unresolvedRows(res)).toEqual([
      "src/app.ts:8:20 warning unresolved-route router prefix not known statically (the parameter opts.prefix); the router's routes are listed without it",
    ]);
  });

  it('a use() or route path whose head is not known statically: listed without the head, after the known rest, a step saying so; middleware there guards routes under the same head; files served there need no word', async () => {
    const dir = underEnvBase(`
const root = new Router();
root.use(\`\${base}/api\`, requireUser);
root.use(\`\${base}/api\`, api.routes());
root.get(\`\${base}/health\`, async (ctx) => { ctx.body = { ok: true }; });
root.use(\`/v1\${base}\`, api.routes());
root.get(\`/v1\${base}/ping\`, async (ctx) => { ctx.body = 'pong'; });
root.get(\`/\${base}/status\`, async (ctx) => { ctx.body = 'ok'; });

const app = new Koa();
app.use(root.routes());
import serve from 'koa-static';
root.use(\`\${base}/assets\`, serve('public'));
`);
    const res = await check(dir);
    // (a leading slash is no known text: `/${base}/status` is listed at /status; `/v1${base}`, text
    // in the head's segment, is another head, where the API and /ping are listed too)
    expect(lines(res)).toEqual(['GET /api/projects requireUser:auth', 'GET /health', 'GET /ping', 'GET /projects', 'GET /status']);
    const unknown = "process.env.API_BASE ?? ''";
    expect(res.routes.map((r) => r.prefixes)).toEqual([
      [{ prefix: '/api', file: 'src/app.ts', line: 13, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 14, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 16, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 15, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 17, unknown }],
    ]);
    expect(unresolvedRows(res)).toEqual([
      `src/app.ts:12:1 warning unresolved-route the path of this use() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:13:1 warning unresolved-route the path of this use() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:14:1 warning unresolved-route GET route with a path not known statically (${unknown}); it is listed without that part`,
      `src/app.ts:15:1 warning unresolved-route the path of this use() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:16:1 warning unresolved-route GET route with a path not known statically (${unknown}); it is listed without that part`,
      `src/app.ts:17:1 warning unresolved-route GET route with a path not known statically (${unknown}); it is listed without that part`,
    ]);
  });

  it('koa-mount at a path whose head is not known statically: what it mounts is listed without the head, middleware mounted there guards it; files served there need no word', async () => {
    const dir = underEnvBase(`
const admin = new Koa();
admin.use(api.routes());

const app = new Koa();
app.use(mount(\`\${base}/admin\`, requireUser));
app.use(mount(\`\${base}/admin\`, admin));
app.use(mount(base, api.routes()));
app.use(mount(\`/v1\${base}\`, admin));
import serve from 'koa-static';
app.use(mount(base, serve('public')));
app.use(mount(\`/v1\${base}\`, serve('public')));
`);
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /admin/projects requireUser:auth', 'GET /projects', 'GET /projects']);
    const unknown = "process.env.API_BASE ?? ''";
    expect(res.routes.map((r) => r.prefixes)).toEqual([
      [{ prefix: '/admin', file: 'src/app.ts', line: 16, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 17, unknown }],
      [{ prefix: '', file: 'src/app.ts', line: 18, unknown }],
    ]);
    expect(unresolvedRows(res)).toEqual([
      `src/app.ts:15:1 warning unresolved-route the path of this mount() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:16:1 warning unresolved-route the path of this mount() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:17:1 warning unresolved-route the path of this mount() is not known statically (${unknown}); the routes under it are listed without that part`,
      `src/app.ts:18:1 warning unresolved-route the path of this mount() is not known statically (${unknown}); the routes under it are listed without that part`,
    ]);
  });

  it('strict and sensitive routers, named routes, path arrays, koa-mount, and an unmounted router', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import Router from '@koa/router';
import { requireUser, sameTenant } from './guards.js';

const strict = new Router({ prefix: '/api/sites', strict: true, sensitive: true });
strict.get('/', async (ctx) => { ctx.body = []; });
strict.get('site', '/:siteId', async (ctx) => { ctx.body = {}; });

const tenants = new Router();
tenants.use(['/t/:tenantId', '/tenants/:tenantId'], sameTenant);
tenants.get(['/t/:tenantId/usage', '/tenants/:tenantId/usage'], async (ctx) => { ctx.body = {}; });

const orphan = new Router({ prefix: '/orphan' });
orphan.get('/', async (ctx) => { ctx.body = 'never mounted'; });

const app = new Koa();
app.use(mount('/v1', requireUser));
app.use(strict.routes());
app.use(mount('/v1', tenants.routes()));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      // strict: '/' under the prefix keeps its slash, and the trailing slash is exact
      'GET /api/sites/ (exact)',
      'GET /api/sites/:siteId (exact)',
      'GET /orphan',
      // mount('/v1', requireUser) runs only below /v1; tenants.use(paths, sameTenant) covers both spellings
      'GET /v1/t/:tenantId/usage requireUser:auth sameTenant:tenant',
      'GET /v1/tenants/:tenantId/usage requireUser:auth sameTenant:tenant',
    ]);
    expect(res.routes.filter((r) => r.path.startsWith('/api/')).map((r) => r.caseSensitive)).toEqual([true, true]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:15:16 warning unresolved-route router orphan is never mounted on an app in the analysed files; its routes are listed with its own prefix only',
    ]);
  });

  it('koa-route: each method, the curried form and its options, koa-mount of a route, and a path not known statically', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-route': '^4.0.1', 'koa-mount': '^4.0.0' } }),
      'src/guards.ts': GUARDS,
      'src/handlers.ts': `
export const listSites = async (ctx) => { ctx.body = []; };
export const showSite = async (ctx, siteId) => { ctx.body = { siteId }; };
`,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import * as route from 'koa-route';
import { get } from 'koa-route';
import { requireUser } from './guards.js';
import { listSites, showSite } from './handlers.js';
const _ = require('koa-route');

const app = new Koa();
app.use(get('/status', async (ctx) => { ctx.body = 'ok'; }));
app.use(requireUser);
app.use(route.get('/Sites', listSites));
app.use(route.get('/sites/:siteId/', showSite));
app.use(route.get('/exact/:id', null, { strict: true, sensitive: true })(showSite));
app.use(_.all('/echo/:rest?', async (ctx) => { ctx.body = ctx.method; }));
app.use(route.propfind('/dav', async (ctx) => { ctx.status = 207; }));
const showRoute = route.put('/sites/:siteId', showSite);
app.use(showRoute);
app.use(mount('/v1', route.get('/', listSites)));
app.use(route.get(process.env.EXTRA_PATH, listSites));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /Sites requireUser:auth',
      'PROPFIND /dav requireUser:auth',
      'ALL /echo requireUser:auth',
      'ALL /echo/:rest requireUser:auth',
      'GET /exact/:id (exact) requireUser:auth',
      'PUT /sites/:siteId requireUser:auth',
      // a path ending in a slash serves only itself (path-to-regexp, not strict: an optional slash after one that has none)
      'GET /sites/:siteId/ (exact) requireUser:auth',
      'GET /status',
      // koa-mount strips /v1: both /v1 and /v1/ reach the route '/'
      'GET /v1 requireUser:auth',
    ]);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.caseSensitive} ${r.handler} ${r.line}`)).toEqual([
      'GET /Sites false listSites 13',
      'PROPFIND /dav false null 17',
      'ALL /echo false null 16',
      'ALL /echo/:rest false null 16',
      'GET /exact/:id true showSite 15',
      'PUT /sites/:siteId false showSite 19',
      'GET /sites/:siteId/ false showSite 14',
      'GET /status false null 11',
      'GET /v1 false listSites 20',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:21:1 warning unresolved-route GET route of koa-route with a path not known statically; it is left out',
    ]);
  });

  it("koa-views (and its fork @ladjs/koa-views) only puts ctx.render on the context: no guard candidate (koajs/examples' blog)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-views': '^8.1.0', '@koa/router': '^13.1.0' } }),
      'src/guards.ts': GUARDS,
      'src/render.ts': `
import path from 'node:path';
import views from 'koa-views';

export default views(path.join(__dirname, '..', 'views'), { extension: 'ejs' });
`,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import render from './render.js';
import { requireUser } from './guards.js';

const router = new Router();
router.get('/', async (ctx) => { await ctx.render('home'); });
router.get('/sites', requireUser, async (ctx) => { await ctx.render('sites', { sites: [] }); });

const app = new Koa();
app.use(render);
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /', 'GET /sites requireUser:auth']);
  });

  it('koa-proxies answers every request at or below its path from another server: an ALL route there, behind the app middleware before it, no guard', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-proxies': '^0.12.4', 'koa-mount': '^4.0.0', '@koa/router': '^13.1.0' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import proxy from 'koa-proxies';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const api = new Router({ prefix: '/api' });
api.get('/sites', async (ctx) => { ctx.body = []; });

const app = new Koa();
app.use(proxy('/internal/metrics', { target: 'http://metrics.internal:9100', changeOrigin: true }));
app.use(requireUser);
app.use(proxy('/api/search', { target: 'http://search:7700', rewrite: (path) => path.replace('/api/search', '') }));
app.use(mount('/v1', proxy('/legacy', { target: 'http://legacy:8080' })));
app.use(api.routes());
app.use(proxy(process.env.EXTRA_PROXY_PATH, { target: 'http://x' }));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['ALL /api/search requireUser:auth', 'GET /api/sites requireUser:auth', 'ALL /internal/metrics', 'ALL /v1/legacy requireUser:auth']);
    expect(res.routes.filter((r) => r.method === 'ALL').map((r) => `${r.path} ${r.handler} ${r.line}`)).toEqual(['/api/search koa-proxies 14', '/internal/metrics koa-proxies 12', '/v1/legacy koa-proxies 15']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:17:1 warning unresolved-route the path koa-proxies proxies is not known statically; its route is left out',
    ]);
  });

  it('koa-graphql and @as-integrations/koa mounted with koa-mount answer every request below the mount: an ALL route there, behind the app middleware before it', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-mount': '^4.0.0', 'koa-graphql': '^0.12.0', '@apollo/server': '^4.11.0', '@as-integrations/koa': '^1.1.1' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import { graphqlHTTP } from 'koa-graphql';
import { ApolloServer } from '@apollo/server';
import { koaMiddleware } from '@as-integrations/koa';
import { schema } from './schema.js';
import { requireUser } from './guards.js';

const app = new Koa();
app.use(mount('/graphql', graphqlHTTP({ schema, graphiql: true })));
app.use(requireUser);
const apollo = new ApolloServer({ schema });
await apollo.start();
app.use(mount('/api/graphql', koaMiddleware(apollo, { context: async ({ ctx }) => ({ user: ctx.state.user }) })));
const open = new ApolloServer({ schema, csrfPrevention: false });
await open.start();
app.use(mount('/api/public-graphql', koaMiddleware(open)));
`,
      'src/schema.ts': 'export const schema = {};\n',
    });
    const res = await check(dir);
    // (Apollo Server 4 prevents CSRF itself, unless csrfPrevention: false)
    expect(lines(res)).toEqual(['ALL /api/graphql requireUser:auth ApolloServer csrfPrevention:csrf', 'ALL /api/public-graphql requireUser:auth', 'ALL /graphql']);
    expect(res.routes.map((r) => `${r.path} ${r.handler} ${r.line}`)).toEqual(['/api/graphql @as-integrations/koa 15', '/api/public-graphql @as-integrations/koa 18', '/graphql koa-graphql 11']);
  });

  it("@as-integrations/koa used with no mount (Apollo's documented `app.use(koaMiddleware(server))`) answers every request that reaches it: an ALL route at '/', behind the middleware before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-bodyparser': '^4.4.1', '@apollo/server': '^4.11.0', '@as-integrations/koa': '^1.1.1' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { ApolloServer } from '@apollo/server';
import { koaMiddleware } from '@as-integrations/koa';
import { schema } from './schema.js';
import { requireUser } from './guards.js';

const app = new Koa();
const apollo = new ApolloServer({ schema });
await apollo.start();
app.use(bodyParser());
app.use(requireUser);
app.use(koaMiddleware(apollo, { context: async ({ ctx }) => ({ user: ctx.state.user }) }));
app.listen({ port: 4000 });
`,
      'src/schema.ts': 'export const schema = {};\n',
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['ALL / requireUser:auth ApolloServer csrfPrevention:csrf']);
    expect(res.routes.map((r) => `${r.path} ${r.handler} ${r.line}`)).toEqual(['/ @as-integrations/koa 14']);
  });

  it("oidc-provider's Provider, a Koa app, koa-mounted at a path (logto's `mount('/oidc', provider)`) answers its OpenID Connect endpoints below it: an ALL route there, behind the app middleware before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^3.0.0', 'koa-mount': '^4.0.0', 'oidc-provider': '^9.1.0' } }),
      'src/guards.ts': GUARDS,
      'src/oidc.ts': `import { Provider } from 'oidc-provider';

export default function initOidc(issuer: string): Provider {
  return new Provider(issuer, { clients: [{ client_id: 'console', redirect_uris: ['https://console.example.com/callback'] }] });
}
`,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import DefaultProvider from 'oidc-provider';
import initOidc from './oidc.js';
import { requireUser } from './guards.js';

const app = new Koa();
app.use(mount('/oidc', initOidc('https://auth.example.com/oidc')));
app.use(requireUser);
app.use(mount('/staff/oidc', new DefaultProvider('https://auth.example.com/staff/oidc', {})));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['ALL /oidc', 'ALL /staff/oidc requireUser:auth']);
    expect(res.routes.map((r) => `${r.path} ${r.handler} ${r.line}`)).toEqual(['/oidc oidc-provider 9', '/staff/oidc oidc-provider 11']);
  });

  it("a function of the analysed code koa-mounted at a path that answers and never hands on is an ALL route there (easy-mock's status page); one that hands on stays middleware", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const app = new Koa();
app.use(mount('/status', async (ctx) => { ctx.body = { up: true, version: process.env.VERSION }; }));
app.use(mount('/ping', (ctx) => { ctx.status = 204; }));
app.use(mount('/api', async (ctx, next) => { ctx.set('Cache-Control', 'no-store'); await next(); }));
app.use(requireUser);
app.use(mount('/api/version', async function version(ctx) { ctx.body = { api: 3 }; }));
const api = new Router({ prefix: '/api' });
api.get('/projects', async (ctx) => { ctx.body = await listProjects(ctx.state.user.id); });
app.use(api.routes());
async function listProjects(userId: string) { return [userId]; }
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/projects requireUser:auth', 'ALL /api/version requireUser:auth', 'ALL /ping', 'ALL /status']);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.line}`)).toEqual(['GET /api/projects null 14', 'ALL /api/version version 12', 'ALL /ping null 9', 'ALL /status null 8']);
  });

  it("a wildcard route written without a slash (koa-router 7's `*`) below a koa-mount takes every path under the mount: `<mount>/*`, behind the sub-app's middleware (outline's /api fallback)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-router': '7.4.0', 'koa-mount': '^4.0.0' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import Router from 'koa-router';
import mount from 'koa-mount';
import { requireUser } from './guards.js';

const api = new Koa();
const router = new Router();
api.use(requireUser);
router.post('/documents.list', async (ctx) => { ctx.body = []; });
router.post('*', async (ctx) => { ctx.body = await dispatch(ctx.path, ctx.request.body); });
async function dispatch(method: string, body: unknown) { return { method, body }; }
api.use(router.routes());
const app = new Koa();
app.use(mount('/api', api));
`,
    });
    expect(lines(await check(dir))).toEqual(['POST /api/* requireUser:auth', 'POST /api/documents.list requireUser:auth']);
  });

  it('koa-route: a route that passes the request on guards the later routes and router layers its path and method cover, no others', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { koa: '^2.16.0', 'koa-route': '^4.0.1', '@koa/router': '^13.1.0' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import route from 'koa-route';
import { requireUser } from './guards.js';

const reports = new Router({ prefix: '/reports' });
reports.get('/', async (ctx) => { ctx.body = []; });
reports.post('/', async (ctx) => { ctx.status = 201; });

const app = new Koa();
app.use(route.get('/billing', async (ctx) => { ctx.body = 'before'; }));
app.use(route.get('/billing', requireUser));
app.use(route.get('/reports', requireUser));
app.use(route.get('/billing', async (ctx) => { ctx.body = {}; }));
app.use(route.post('/billing', async (ctx) => { ctx.status = 204; }));
app.use(route.get('/billing/invoices', async (ctx) => { ctx.body = []; }));
app.use(reports.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      // the first GET /billing answers before the guard: listed, unguarded; the guard itself is no route
      'GET /billing',
      'GET /billing requireUser:auth',
      'POST /billing',
      'GET /billing/invoices',
      'GET /reports requireUser:auth',
      'POST /reports',
    ]);
    expect(res.routes.filter((r) => r.guards.length > 0).map((r) => r.guards.map((g) => `${g.mechanism} ${g.line}`).join())).toEqual(['pass-through-route 13', 'pass-through-route 14']);
  });

  it("koa-mount strips its path: a router's `/` below it is the bare mount path, reached with and without the slash, strict or not", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/app.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import Router from '@koa/router';

const sites = new Router();
sites.get('/', async (ctx) => { ctx.body = []; });
sites.get('/:siteId', async (ctx) => { ctx.body = {}; });
const exact = new Router({ strict: true });
exact.get('/', async (ctx) => { ctx.body = 'exact'; });
exact.get('/slash/', async (ctx) => { ctx.body = 'slash'; });

const v1 = new Koa();
v1.use(mount('/exact', exact.routes()));
const app = new Koa();
app.use(mount('/sites', sites.routes()));
app.use(mount('/v1', v1));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /sites', 'GET /sites/:siteId', 'GET /v1/exact', 'GET /v1/exact/slash/ (exact)']);
  });

  it('koa-compose runs its middleware in place, in order', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import compose from 'koa-compose';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const pub = new Router({ prefix: '/pub' });
pub.get('/', async (ctx) => { ctx.body = 'pub'; });
const priv = new Router({ prefix: '/priv' });
priv.get('/', async (ctx) => { ctx.body = 'priv'; });

const app = new Koa();
app.use(compose([pub.routes(), pub.allowedMethods(), requireUser]));
app.use(priv.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /priv requireUser:auth', 'GET /pub']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('koa-mount of a koa-compose list runs each of its middleware below the mount path: the guard before the router guards its routes there, and only there', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'mounted-compose', dependencies: { koa: '^2.15.0', '@koa/router': '^13.1.0', 'koa-compose': '^4.1.0', 'koa-mount': '^4.0.0' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import compose from 'koa-compose';
import mount from 'koa-mount';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const api = new Router();
api.get('/stats', async (ctx) => { ctx.body = {}; });
api.post('/users/:id/delete', async (ctx) => { ctx.status = 204; });
const site = new Router();
site.get('/about', async (ctx) => { ctx.body = 'about'; });

const app = new Koa();
app.use(mount('/api', compose([requireUser, api.routes(), api.allowedMethods()])));
app.use(site.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /about', 'GET /api/stats requireUser:auth', 'POST /api/users/:id/delete requireUser:auth']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('koa-compose at a route or a router, inline or through a name from another file: its middleware in place, in order', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': `${GUARDS}
import compose from 'koa-compose';
export const member = compose([requireUser, sameTenant]);
`,
      'src/app.ts': `
import Koa from 'koa';
import compose from 'koa-compose';
import Router from '@koa/router';
import { member, requireUser } from './guards.js';

const router = new Router({ prefix: '/api/tenants/:tenantId' });
router.get('/projects', member, async (ctx) => { ctx.body = []; });
router.get('/usage', compose([requireUser]), async (ctx) => { ctx.body = {}; });
const admin = new Router({ prefix: '/admin' });
admin.use(compose([requireUser]));
admin.get('/stats', async (ctx) => { ctx.body = {}; });

const app = new Koa();
app.use(router.routes());
app.use(admin.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /admin/stats requireUser:auth',
      'GET /api/tenants/:tenantId/projects requireUser:auth sameTenant:tenant',
      'GET /api/tenants/:tenantId/usage requireUser:auth',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('a route whose last middleware awaits next() runs before the later routes matching its path and method (@koa/router composes them)', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import { requireUser, sameTenant } from './guards.js';

const router = new Router({ prefix: '/api' });
router.get('/health', async (ctx) => { ctx.body = { ok: true }; });
router.all('/tenants/:tenantId/projects', requireUser, sameTenant);
router.get('/tenants/:tenantId/projects', async (ctx) => { ctx.body = []; });
router.post('/tenants/:tenantId/projects', async (ctx) => { ctx.status = 201; });
router.get('/tenants/:tenantId/projects/:id', async (ctx) => { ctx.body = {}; });
router.post('/tenants/:tenantId/audit', requireUser);
router.get('/tenants/:tenantId/audit', async (ctx) => { ctx.body = []; });

const app = new Koa();
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/health',
      'GET /api/tenants/:tenantId/audit',
      'GET /api/tenants/:tenantId/projects requireUser:auth sameTenant:tenant',
      'POST /api/tenants/:tenantId/projects requireUser:auth sameTenant:tenant',
      'GET /api/tenants/:tenantId/projects/:id',
    ]);
  });

  it('a route that only loads and awaits next() is a route when nothing is registered behind it, and a layer for the later route at its path otherwise (no second line for that route)', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import { requireUser } from './guards.js';

const reports = new Map<string, { id: string; total: number }>();
const router = new Router({ prefix: '/api' });
// loads the report for the route after it, which answers
router.get('/reports/:id', async (ctx, next) => {
  ctx.state.report = reports.get(ctx.params.id);
  await next();
});
router.get('/reports/:id', requireUser, async (ctx) => {
  ctx.body = ctx.state.report ?? null;
});
// nothing after it: the app's last middleware answers
router.get('/reports/:id/total', async (ctx, next) => {
  ctx.state.total = reports.get(ctx.params.id)?.total ?? 0;
  await next();
});

const app = new Koa();
app.use(router.routes());
app.use(async (ctx) => {
  ctx.body = { total: ctx.state.total };
});
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/reports/:id src/app.ts:13 [requireUser]',
      'GET /api/reports/:id/total src/app.ts:17 []',
    ]);
  });

  it("router.param(name, fn) runs before every route of the router's stack naming the parameter: earlier ones, and a nested router's", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': `${GUARDS}
export async function loadProject(id, ctx, next) {
  const project = await ctx.db.projects.find(id);
  if (!project || project.tenantId !== ctx.state.user.tenantId) ctx.throw(404);
  ctx.state.project = project;
  await next();
}
`,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import { loadProject, requireUser } from './guards.js';

const projects = new Router();
projects.get('/:projectId', async (ctx) => { ctx.body = ctx.state.project; });
projects.get('/', async (ctx) => { ctx.body = []; });

const api = new Router({ prefix: '/api' });
api.use(requireUser);
api.use('/projects', projects.routes());
api.get('/projects/:projectId/audit', async (ctx) => { ctx.body = []; });
api.param('projectId', loadProject);
api.get('/orgs/:orgId', async (ctx) => { ctx.body = {}; });

// another router's callbacks do not reach these routes
const other = new Router();
other.param('orgId', loadProject);

const app = new Koa();
app.use(api.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/orgs/:orgId requireUser:auth',
      'GET /api/projects requireUser:auth',
      'GET /api/projects/:projectId requireUser:auth loadProject:tenant',
      'GET /api/projects/:projectId/audit requireUser:auth loadProject:tenant',
    ]);
  });

  it('in-handler checks with ctx.throw(401) and ctx.status = 401 count as auth guards', async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const router = new Router({ prefix: '/api' });
router.get('/auth/me/', async (ctx) => {
  if (!ctx.session?.userId) ctx.throw(401);
  ctx.body = { id: ctx.session.userId };
});
router.get('/sites/', async (ctx) => {
  if (!ctx.state.user) {
    ctx.status = 401;
    return;
  }
  ctx.body = [];
});
// (Koa's context delegates body and status to its response: the same answer)
router.get('/projects/', async (ctx) => {
  if (!ctx.session?.userId) {
    ctx.response.body = { error: 'sign in' };
    return;
  }
  ctx.response.body = [];
});
const app = new Koa();
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/auth/me/ (exact) (inline 401 check):auth', 'GET /api/projects/ (exact) (inline signed-in check):auth', 'GET /api/sites/ (exact) (inline 401 check):auth']);
  });

  it("an app serving no route whose own middleware answers every request reaching it (Joplin Server's routeHandler, dispatching in code) is said to serve what is not known statically; an app with routes and a last 404 middleware is not", async () => {
    const dispatching = await check(
      writeProject({
        'package.json': KOA_PKG,
        'src/routes.ts': `
export const routes = {
  'api/items': async (ctx) => { ctx.response.body = []; },
  'api/ping': async () => 'pong',
};
`,
        'src/app.ts': `
import Koa from 'koa';
import { routes } from './routes';

async function ownerHandler(ctx, next) {
  ctx.state.owner = ctx.cookies.get('sessionId') ? { id: 'x' } : null;
  await next();
}

async function routeHandler(ctx) {
  const handler = routes[ctx.path.slice(1)];
  if (!handler) {
    ctx.response.status = 404;
    return;
  }
  const body = await handler(ctx);
  ctx.response.status = 200;
  ctx.response.body = body ?? '';
}

const app = new Koa();
app.use(ownerHandler);
app.use(routeHandler);
app.listen(22300);
`,
      }),
    );
    expect(dispatching.routes).toEqual([]);
    expect(dispatching.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/app.ts:23 app serves no route the analysis lists: routeHandler answers every request that reaches it itself, so what the app serves is not known statically',
    ]);
    const routed = await check(
      writeProject({
        'package.json': KOA_PKG,
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const router = new Router();
router.get('/health', (ctx) => { ctx.body = 'ok'; });
const app = new Koa();
app.use(router.routes());
app.use((ctx) => { ctx.status = 404; ctx.body = { error: 'not found' }; });
`,
      }),
    );
    expect(lines(routed)).toEqual(['GET /health']);
    expect(routed.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('koa-jwt with passthrough: true lets a request without a token through: no guard; one whose passthrough is not known statically is a candidate', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'koa-jwt-passthrough', dependencies: { koa: '2.16.1', '@koa/router': '13.1.0', 'koa-jwt': '4.0.4' } }),
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import jwt from 'koa-jwt';

const secret = process.env.JWT_SECRET!;
const router = new Router({ prefix: '/api' });
// the feed personalises for a signed-in reader, and serves everyone
router.get('/feed', jwt({ secret, passthrough: true }), async (ctx) => {
  ctx.body = { personalised: Boolean(ctx.state.user) };
});
router.get('/drafts', jwt({ secret }), async (ctx) => {
  ctx.body = [];
});
router.get('/stats', jwt({ secret, passthrough: process.env.PUBLIC_STATS === '1' }), async (ctx) => {
  ctx.body = {};
});
const app = new Koa();
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual([
      'GET /api/drafts [auth+bearer]',
      'GET /api/feed []',
      'GET /api/stats [unknown]',
    ]);
  });

  it("a middleware reading its token from the Authorization header through optional chains (`ctx.request?.headers?.authorization`, `headers?.['x-api-key']`), and logging the context, is bearer auth (lunary's authMiddleware)", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/auth.ts': `import type { Context, Next } from 'koa';
import { verifyJWT } from './jwt';

export async function authMiddleware(ctx: Context, next: Next) {
  const bearer = ctx.request?.headers?.authorization?.split(' ')[1] as string;
  const apiKey = ctx.request?.headers?.['x-api-key'] as string;
  const key = bearer || apiKey;
  try {
    if (!key) throw new Error('No bearer token provided.');
    const { payload } = await verifyJWT(key);
    ctx.state.userId = payload.userId;
  } catch (error) {
    console.error('Invalid access token', error, key, ctx);
    ctx.status = 401;
    ctx.body = { message: 'Invalid access token' };
    return;
  }
  await next();
}
`,
      'src/jwt.ts': `export async function verifyJWT(token: string) {
  if (token.split('.').length !== 3) throw new Error('malformed');
  return { payload: { userId: token.slice(0, 8) } };
}
`,
      'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { authMiddleware } from './auth';

const router = new Router({ prefix: '/v1' });
router.post('/projects', async (ctx) => {
  ctx.body = { created: true };
});
const app = new Koa();
app.use(authMiddleware);
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual(['POST /v1/projects [authMiddleware:auth+bearer]']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-csrf-guard')).toEqual([]);
  });

  it("a helper handed the context only to refuse with it (lunary's `checkApiKey(ctx, key)`, `ctx.throw(401, …)`) reads no credential of it: the middleware stays bearer auth", async () => {
    const dir = (helper: string): string =>
      writeProject({
        'package.json': KOA_PKG,
        'src/auth.ts': `import type { Context, Next } from 'koa';
import { sql } from './db';

async function checkApiKey(ctx: Context, key: string) {
  ${helper}
}

export async function authMiddleware(ctx: Context, next: Next) {
  const key = ctx.request?.headers?.authorization?.split(' ')[1] ?? (ctx.get('x-api-key') as string);
  if (!key) ctx.throw(401, 'No API key');
  const { projectId } = await checkApiKey(ctx, key);
  ctx.state.projectId = projectId;
  await next();
}
`,
        'src/db.ts': `export async function sql(strings: TemplateStringsArray, ...values: unknown[]): Promise<any[]> {
  return [strings.join('?'), values];
}
`,
        'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { authMiddleware } from './auth';

const router = new Router({ prefix: '/v1' });
router.post('/projects', async (ctx) => {
  ctx.body = { created: true, project: ctx.state.projectId };
});
const app = new Koa();
app.use(authMiddleware);
app.use(router.routes());
`,
      });
    const kinds = async (d: string) => {
      const res = await check(d);
      return [res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`), res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').length];
    };
    const throwsOnly = `const [apiKey] = await sql\`select id, project_id from api_key where api_key = \${key}\`;
  if (!apiKey) ctx.throw(401, 'Invalid API key');
  ctx.assert(apiKey.projectId, 403, 'No project');
  return { projectId: apiKey.projectId };`;
    expect(await kinds(dir(throwsOnly))).toEqual([['POST /v1/projects [authMiddleware:auth+bearer]'], 0]);
    // one reading a cookie of the context it is handed may take the browser's credential: not bearer
    expect(await kinds(dir(throwsOnly.replace("ctx.throw(401, 'Invalid API key')", "ctx.throw(401, ctx.cookies.get('sid') ? 'Expired' : 'Invalid API key')")))).toEqual([['POST /v1/projects [authMiddleware:auth]'], 1]);
  });

  it("a chain's first registration written on a line of its own is located there, as the later ones are, and a suppression above it applies (easy-mock's exports.api = apiRouter⏎.get(…))", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'mock-server', dependencies: { koa: '2.16.1', 'koa-router': '7.4.0' } }),
      'src/router.js': `const Router = require('koa-router');

const apiRouter = new Router({ prefix: '/api' });

exports.api = apiRouter
  // route-surface-disable-next-line missing-auth-guard -- the login page's wallpaper, for everyone
  .get('/wallpaper', async (ctx) => {
    ctx.body = { url: process.env.WALLPAPER_URL };
  })
  .get('/projects', async (ctx) => {
    ctx.body = [];
  });
`,
      'src/app.js': `const Koa = require('koa');
const { api } = require('./router');

const app = new Koa();
app.use(api.routes());
app.listen(7300);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}:${r.column}`)).toEqual(['GET /api/projects src/router.js:10:4', 'GET /api/wallpaper src/router.js:7:4']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'missing-auth-guard' || f.ruleId === 'unused-suppression'))).toEqual([
      'src/router.js:10:4 error missing-auth-guard GET /api/projects has no auth guard',
    ]);
  });

  it("koa-passport is passport: initialize() and session() establish a session, authenticate('session') hands on a request without a user, authenticate('jwt') is auth", async () => {
    // (koa-passport 6 exports passport's own singleton)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'koa-passport-app', dependencies: { koa: '2.16.1', '@koa/router': '13.1.0', 'koa-passport': '6.0.0', 'koa-session': '7.0.2' } }),
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import session from 'koa-session';
import passport from 'koa-passport';

const app = new Koa();
app.keys = [process.env.SESSION_KEY!];
app.use(session(app));
app.use(passport.initialize());
app.use(passport.session());
app.use(passport.authenticate('session'));
const router = new Router({ prefix: '/api' });
router.get('/sites', async (ctx) => {
  ctx.body = [];
});
router.get('/me', passport.authenticate('jwt', { session: false }), async (ctx) => {
  ctx.body = ctx.state.user;
});
app.use(router.routes());
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/me [passport.authenticate:auth]',
      'GET /api/sites []',
    ]);
  });

  it("a token middleware told to read a cookie (koa-jwt's cookie and getToken, hono/jwt's and hono/jwk's cookie, express-jwt's getToken) is auth, not bearer: the browser sends the cookie by itself; a getToken reading a header only keeps it bearer", async () => {
    const koa = writeProject({
      'package.json': JSON.stringify({ name: 'koa-jwt-cookie', dependencies: { koa: '2.16.1', '@koa/router': '13.1.0', 'koa-jwt': '4.0.4' } }),
      'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import jwt from 'koa-jwt';

const secret = process.env.JWT_SECRET!;
const router = new Router({ prefix: '/api' });
router.post('/header', jwt({ secret }), async (ctx) => {
  ctx.body = {};
});
router.post('/cookie', jwt({ secret, cookie: 'token' }), async (ctx) => {
  ctx.body = {};
});
router.post('/custom', jwt({ secret, getToken: (ctx) => ctx.cookies.get('token') ?? null }), async (ctx) => {
  ctx.body = {};
});
const app = new Koa();
app.use(router.routes());
`,
    });
    const kinds = async (dir: string): Promise<string[]> => (await check(dir)).routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`);
    expect(await kinds(koa)).toEqual(['POST /api/cookie [auth]', 'POST /api/custom [auth]', 'POST /api/header [auth+bearer]']);
    const hono = writeProject({
      'package.json': JSON.stringify({ name: 'hono-jwt-cookie', dependencies: { hono: '4.7.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { jwk } from 'hono/jwk';
import { jwt } from 'hono/jwt';

export const app = new Hono();
app.use('/api/*', jwt({ secret: process.env.JWT_SECRET! }));
app.use('/web/*', jwt({ secret: process.env.JWT_SECRET!, cookie: 'session_token' }));
app.use('/sso/*', jwk({ jwks_uri: 'https://id.example.com/.well-known/jwks.json' }));
app.use('/portal/*', jwk({ jwks_uri: 'https://id.example.com/.well-known/jwks.json', cookie: 'id_token' }));
app.post('/api/sites', (c) => c.json({}));
app.post('/web/sites', (c) => c.json({}));
app.post('/sso/sites', (c) => c.json({}));
app.post('/portal/sites', (c) => c.json({}));
`,
    });
    expect(await kinds(hono)).toEqual(['POST /api/sites [auth+bearer]', 'POST /portal/sites [auth]', 'POST /sso/sites [auth+bearer]', 'POST /web/sites [auth]']);
    const express = writeProject({
      'package.json': JSON.stringify({ name: 'express-jwt-token', dependencies: { express: '4.21.2', 'express-jwt': '8.5.1' } }),
      'src/app.ts': `
import express from 'express';
import { expressjwt } from 'express-jwt';

const secret = process.env.JWT_SECRET!;
export const app = express();
app.post('/api/header', expressjwt({ secret, algorithms: ['HS256'] }), (_req, res) => res.json({}));
app.post('/api/custom', expressjwt({ secret, algorithms: ['HS256'], getToken: (req) => req.cookies.token }), (_req, res) => res.json({}));
// the realworld example's Token scheme, read from the Authorization header only
const fromHeader = (req: express.Request): string | null => {
  const [scheme, token] = (req.headers.authorization ?? '').split(' ');
  return scheme === 'Token' || scheme === 'Bearer' ? (token ?? null) : null;
};
app.post('/api/token', expressjwt({ secret, algorithms: ['HS256'], getToken: fromHeader }), (_req, res) => res.json({}));
`,
    });
    expect(await kinds(express)).toEqual(['POST /api/custom [auth]', 'POST /api/header [auth+bearer]', 'POST /api/token [auth+bearer]']);
  });

  it("router.use(path, x.routes()) of a router not known statically (plugins loaded at run time) is an unresolved mount, not middleware", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'koa-plugin-routes', dependencies: { koa: '2.16.1', 'koa-router': '12.0.1' } }),
      'src/plugins.ts': `
import type Router from 'koa-router';
export interface ApiHook {
  value: Router;
}
/** The API routers of the plugins enabled in this deployment, read from its configuration. */
export function apiHooks(): ApiHook[] {
  return JSON.parse(process.env.PLUGINS ?? '[]');
}
`,
      'src/api.ts': `
import Koa from 'koa';
import Router from 'koa-router';
import { apiHooks } from './plugins';

const api = new Koa();
const router = new Router();
const documents = new Router();
documents.post('documents.list', async (ctx) => {
  ctx.body = { data: [] };
});
apiHooks().forEach((hook) => router.use('/', hook.value.routes()));
router.use('/', documents.routes());
api.use(router.routes());
api.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['POST /documents.list []']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/api.ts:12:30 warning unresolved-route mounted router could not be resolved (call of something not known statically); the routes under it are unknown',
    ]);
  });

  it("a middleware answering the requests to a path itself, handing every other on, is a route there, below a koa-mount path too; a preflight's answer is none, nor is a check of one path", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'koa-serving-middleware', dependencies: { koa: '2.16.1', '@koa/router': '13.1.0', 'koa-mount': '4.0.0' } }),
      'src/app.ts': `
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import mount from 'koa-mount';
import { requireSession } from './session';

const app = new Koa();
app.use(async (ctx: Context, next: Next) => {
  if (ctx.path !== '/internal/health') return next();
  ctx.body = { ok: true, uptime: process.uptime() };
});
app.use(async function version(ctx: Context, next: Next) {
  if (ctx.method === 'GET' && ctx.path === '/version') {
    ctx.body = { version: process.env.APP_VERSION };
    return;
  }
  await next();
});
app.use(
  mount('/ops', async (ctx: Context, next: Next) => {
    if (ctx.path !== '/ping') return next();
    ctx.body = 'pong';
  }),
);
app.use(async (ctx: Context, next: Next) => {
  if (ctx.method !== 'OPTIONS') return next();
  ctx.set('Access-Control-Allow-Methods', 'GET,POST');
  ctx.status = 204;
});
// a path it only refuses: blocked, not served
app.use(async (ctx: Context, next: Next) => {
  if (ctx.path !== '/wp-login.php') return next();
  ctx.status = 404;
});
app.use(async function adminOnly(ctx: Context, next: Next) {
  if (ctx.path !== '/admin') return next();
  if (!ctx.state.user?.isAdmin) ctx.throw(401, 'admins only');
  await next();
});
const api = new Router({ prefix: '/api' });
api.get('/projects', requireSession, async (ctx) => {
  ctx.body = { projects: [] };
});
app.use(api.routes());
app.listen(3000);
`,
      'src/session.ts': `
import type { Context, Next } from 'koa';
export async function requireSession(ctx: Context, next: Next) {
  if (!ctx.session?.userId) ctx.throw(401, 'sign in');
  await next();
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'GET /api/projects [requireSession] src/app.ts:41',
      'ALL /internal/health [] src/app.ts:8',
      'ALL /ops/ping [] src/app.ts:19',
      'GET /version [] src/app.ts:12',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'excluded-family-leak').map((f) => f.message)).toEqual([
      'ALL /internal/health is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'ALL /ops/ping is in the excluded family "ops" and is reachable without its family guard (unguarded)',
    ]);
  });

  it("a use() of one router or another by a test not known statically (`process.env.ADMIN_UI ? admin.routes() : pub.routes()`) is an unresolved mount, not middleware", async () => {
    const dir = writeProject({
      'package.json': KOA_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { requireUser } from './guards';

const admin = new Router();
admin.use(requireUser);
admin.get('/stats', async (ctx) => { ctx.body = { users: 0 }; });
const pub = new Router();
pub.get('/news', async (ctx) => { ctx.body = { items: [] }; });

const ui = new Router({ prefix: '/ui' });
ui.use(process.env.ADMIN_UI ? admin.routes() : pub.routes());
ui.get('/help', async (ctx) => { ctx.body = { topics: [] }; });
const app = new Koa();
app.use(ui.routes());
app.listen(3000);
`,
    });
    const res = await check(dir);
    // (no unknown middleware before /ui/help: the routers, cloned, are not told apart yet, and are warned about)
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['GET /news []', 'GET /stats [requireUser]', 'GET /ui/help []']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:5:15 warning unresolved-route router admin is never mounted on an app in the analysed files; its routes are listed with its own prefix only',
      'src/app.ts:8:13 warning unresolved-route router pub is never mounted on an app in the analysed files; its routes are listed with its own prefix only',
      'src/app.ts:12:1 warning unresolved-route mounted router could not be resolved (process.env.ADMIN_UI ? admin.routes() : pub.routes()); the routes under it are unknown',
    ]);
  });

  it('route functions taking (...[router, tenant]), a chain on the router handed on, #src/ subpath imports and a frozen table of paths (logto)', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: '@logto/core', type: 'module', imports: { '#src/*': './build/*' }, dependencies: { koa: '2.16.1', 'koa-router': '12.0.1' } }),
      'src/middleware/koa-auth.ts': `
import type { Context, Next } from 'koa';
export default function koaAuth(audience: string) {
  return async (ctx: Context, next: Next) => {
    const authorization = ctx.request.headers.authorization;
    if (!authorization?.startsWith('Bearer ')) {
      ctx.status = 401;
      ctx.body = { code: 'auth.authorization_header_missing', audience };
      return;
    }
    await next();
  };
}
`,
      'src/routes/types.ts': `
import type Router from 'koa-router';
export type RouterInitArgs<T> = [router: T, tenant: { id: string }];
export type ManagementApiRouter = Router;
`,
      'src/routes/experience/const.ts': `
const prefix = '/experience';
export const experienceRoutes = Object.freeze({
  prefix,
  profile: \`\${prefix}/profile\`,
});
`,
      'src/routes/experience/profile-routes.ts': `
import type Router from 'koa-router';
import { experienceRoutes } from '#src/routes/experience/const.js';
export default function profileRoutes(tenantId: string, ...[router]: [Router]) {
  router.post(\`\${experienceRoutes.profile}\`, async (ctx) => {
    ctx.body = { tenantId };
  });
}
`,
      'src/routes/experience/index.ts': `
import type Router from 'koa-router';
import { experienceRoutes } from './const.js';
import profileRoutes from './profile-routes.js';
import type { RouterInitArgs } from '../types.js';
async function auditLog(ctx: { state: Record<string, unknown> }, next: () => Promise<void>) {
  ctx.state.audit = [];
  await next();
}
export default function experienceApiRoutes<T extends Router>(...[anonymousRouter, tenant]: RouterInitArgs<T>) {
  const experienceRouter = (anonymousRouter as Router).use(auditLog);
  experienceRouter.put(experienceRoutes.prefix, async (ctx) => {
    ctx.status = 204;
  });
  profileRoutes(tenant.id, experienceRouter);
}
`,
      'src/routes/applications.ts': `
import type { ManagementApiRouter, RouterInitArgs } from '#src/routes/types.js';
export default function applicationRoutes<T extends ManagementApiRouter>(...[router, tenant]: RouterInitArgs<T>) {
  router.get('/applications', async (ctx) => {
    ctx.body = { tenant: tenant.id, items: [] };
  });
}
`,
      'src/routes/init.ts': `
import Koa from 'koa';
import Router from 'koa-router';
import koaAuth from '#src/middleware/koa-auth.js';
import applicationRoutes from './applications.js';
import experienceApiRoutes from './experience/index.js';

export default function initApis(tenant: { id: string }): Koa {
  const experienceRouter = new Router();
  experienceApiRoutes(experienceRouter, tenant);
  const managementRouter = new Router();
  managementRouter.use(koaAuth('https://admin.logto.app/api'));
  applicationRoutes(managementRouter, tenant);
  const apisApp = new Koa();
  for (const router of [experienceRouter, managementRouter]) {
    apisApp.use(router.routes()).use(router.allowedMethods());
  }
  return apisApp;
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /applications [koaAuth]',
      'PUT /experience []',
      'POST /experience/profile []',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("koa-swagger-decorator's SwaggerRouter is a koa-router: its routes, its document's two routes, and a warning for the classes it maps", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'users-api', dependencies: { koa: '2.16.1', 'koa-jwt': '4.0.4', 'koa-swagger-decorator': '1.8.7' } }),
      'src/controller/user.ts': `
import type { Context } from 'koa';
import { request, summary } from 'koa-swagger-decorator';
export default class UserController {
  @request('get', '/users/{id}')
  @summary('Find user by id')
  public static async getUser(ctx: Context): Promise<void> {
    ctx.body = { id: ctx.params.id };
  }
}
`,
      'src/protectedRoutes.ts': `
import { SwaggerRouter } from 'koa-swagger-decorator';
import UserController from './controller/user';

const protectedRouter = new SwaggerRouter({ prefix: '/api' }, { swaggerHtmlEndpoint: '/docs' });
protectedRouter.get('/users', async (ctx) => {
  ctx.body = [];
});
protectedRouter.swagger({ title: 'users-api', version: '1.0.0', swaggerHtmlEndpoint: '/ignored' });
protectedRouter.map(UserController, {});
protectedRouter.mapDir(__dirname);
export { protectedRouter };
`,
      'src/adminRoutes.ts': `
import { SwaggerRouter } from 'koa-swagger-decorator';

// 2.x: the config (with the document's spec) first, koa-router's options second
export const adminRouter = new SwaggerRouter(
  { spec: { info: { title: 'admin', version: '1.0.0' } }, swaggerJsonEndpoint: '/admin/openapi.json', swaggerHtmlEndpoint: process.env.ADMIN_DOCS_PAGE },
  { prefix: '/v2' },
);
adminRouter.swagger();
`,
      'src/server.ts': `
import Koa from 'koa';
import jwt from 'koa-jwt';
import { adminRouter } from './adminRoutes';
import { protectedRouter } from './protectedRoutes';

const app = new Koa();
app.use(jwt({ secret: process.env.JWT_SECRET! }).unless({ path: [/^\\/api\\/docs/] }));
app.use(protectedRouter.routes()).use(protectedRouter.allowedMethods());
app.use(adminRouter.routes());
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/docs []',
      'GET /api/swagger-json [jwt.unless]',
      'GET /api/users [jwt.unless]',
      'GET /v2/admin/openapi.json [jwt.unless]',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/adminRoutes.ts:9:1 warning unresolved-route GET route with a path not known statically (swaggerHtmlEndpoint); it is left out',
      'src/protectedRoutes.ts:10:1 warning unresolved-route routes of controller classes mapped by koa-swagger-decorator (map) are not read; they are left out',
      'src/protectedRoutes.ts:11:1 warning unresolved-route routes of controller classes mapped by koa-swagger-decorator (mapDir) are not read; they are left out',
    ]);
  });
});
