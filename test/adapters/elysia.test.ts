/**
 * Elysia 1.x: fixtures/elysia, a control plane of plugins on one app, and small projects for each
 * rule of Elysia's. Expectations derived by hand from elysia's src/index.ts (1.4.29: `add`,
 * `group`, `guard`, `_use`, `on`, `macro`, `as`), its tests (test/core/as.test.ts,
 * test/lifecycle/before-handle.test.ts) and its docs (essential/plugin: hooks are local by
 * default; `scoped` reaches the parent, `global` every instance using it).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeLinesAt, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

const DIR = path.join(ROOT, 'fixtures', 'elysia');

const PACKAGE = JSON.stringify({ name: 'api', dependencies: { elysia: '^1.3.20' } });

/** Guards of the small projects: a 401 and a 403 by behaviour, named for what they check. */
const GUARDS = `export function requireSession({ headers, status }: { headers: Record<string, string | undefined>; status: (code: number) => unknown }) {
  if (!headers.cookie?.includes('sid=')) return status(401);
}

export function requireStaff({ headers, status }: { headers: Record<string, string | undefined>; status: (code: number) => unknown }) {
  if (headers['x-role'] !== 'staff') return status(403);
}
`;

async function routes(files: Record<string, string>): Promise<string[]> {
  const res = await check(writeProject({ 'package.json': PACKAGE, 'src/guards.ts': GUARDS, ...files }));
  return [...routeLinesAt(res), ...unresolvedRows(res)];
}

describe('Elysia', () => {
  it("lists each plugin's routes at the app's prefix and theirs, behind the hooks in scope when each was added, the group's and guard's hooks and the macros a route names", async () => {
    const res = await check(DIR);
    // the session plugin's scoped hook, joined to the app's (and to each plugin using it) as its own
    const A = ['(inline onBeforeHandle hook)'];
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me/', 'contract', 'src/routes/identity.ts:4:25', { auth: A }, 'GET /api/auth/me/'),
      // `{ tenant: true }`: the session plugin's macro
      row('GET /api/databases/', 'contract', 'src/routes/databases.ts:7:4', { auth: A, tenant: ['requireTenant'] }, 'GET /api/databases/'),
      // `{ tenant: false }` turns the macro off
      row('GET /api/databases/:databaseId/status', 'browser', 'src/routes/databases.ts:9:4', { auth: A }),
      row('GET /api/deployments/', 'contract', 'src/routes/deployments.ts:7:4', { auth: A, tenant: ['requireTenant'] }, 'GET /api/deployments/'),
      row('PATCH /api/deployments/:deploymentId', 'browser', 'src/routes/deployments.ts:9:4', { auth: A, tenant: ['requireTenant'], csrf: ['verifyCsrf'] }),
      // used before the session plugin: no hook of it
      row('GET /api/health/ready', 'public', 'src/routes/health.ts:4:23', {}, 'GET /api/health/ready'),
      // `guard({ tenant: true })`: the macro's hook for every route added after it
      row('GET /api/sites/', 'contract', 'src/routes/sites.ts:8:4', { auth: A, tenant: ['requireTenant'] }, 'GET /api/sites/'),
      row('POST /api/sites/', 'browser', 'src/routes/sites.ts:9:4', { auth: A, tenant: ['requireTenant'], csrf: ['verifyCsrf'] }),
      // a group's routes: at its prefix, behind the instance's hooks
      row('DELETE /api/sites/:siteId/', 'browser', 'src/routes/sites.ts:16:8', { auth: A, tenant: ['requireTenant'] }),
      row('GET /api/sites/:siteId/deployments', 'browser', 'src/routes/sites.ts:15:8', { auth: A, tenant: ['requireTenant'] }),
      row('POST /api/webhooks/github', 'excluded:webhook', 'src/routes/webhooks.ts:6:4', { auth: ['verifyWebhookSignature'], family: ['verifyWebhookSignature'], bearer: ['verifyWebhookSignature'] }),
      // the staff-only plugin's hook is local: it guards none of the routes of the instance using it
      row('POST /internal/cache/:siteId/purge', 'excluded:internal', 'src/routes/internal.ts:11:4'),
      row('GET /internal/queues', 'excluded:internal', 'src/routes/internal.ts:12:4', { auth: ['requireServiceToken'], family: ['requireServiceToken'] }),
    ]);
    expect(res.routes.every((r) => r.framework === 'elysia' && r.trailingSlashInsensitive && r.caseSensitive)).toBe(true);
    // (each app by the name it is bound to, its chain of methods written on it)
    expect(res.routes.map((r) => r.app)).toEqual([...Array(11).fill('app'), 'ops', 'ops']);
    const patch = res.routes.find((r) => r.method === 'PATCH')!;
    expect(patch.guards.map((g) => `${g.name} ${g.mechanism} ${g.file}:${g.line}`)).toEqual([
      '(inline onBeforeHandle hook) router.use src/plugins/session.ts:13',
      'requireTenant route-middleware src/routes/deployments.ts:9',
      'verifyCsrf route-middleware src/routes/deployments.ts:9',
    ]);
    expect(patch.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/api src/index.ts:12', '/deployments src/routes/deployments.ts:5']);
    expect(findingRows(res.findings)).toEqual([
      'src/routes/databases.ts:9:4 error missing-tenant-guard GET /api/databases/:databaseId/status has no tenant guard',
      'src/routes/databases.ts:9:4 info uncontracted-route GET /api/databases/:databaseId/status is on the browser surface but not in the contract',
      'src/routes/deployments.ts:9:4 error immutable-resource-mutation PATCH /api/deployments/:deploymentId mutates a deployment, which the contract makes immutable',
      'src/routes/deployments.ts:9:4 info uncontracted-route PATCH /api/deployments/:deploymentId is on the browser surface but not in the contract',
      'src/routes/identity.ts:4:25 error missing-tenant-guard GET /api/auth/me/ has no tenant guard',
      'src/routes/internal.ts:11:4 error excluded-family-leak POST /internal/cache/:siteId/purge is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'src/routes/sites.ts:9:4 info uncontracted-route POST /api/sites/ is on the browser surface but not in the contract',
      'src/routes/sites.ts:15:8 info uncontracted-route GET /api/sites/:siteId/deployments is on the browser surface but not in the contract',
      'src/routes/sites.ts:16:8 error missing-csrf-guard DELETE /api/sites/:siteId/ changes state on the browser session without a CSRF guard',
      'src/routes/sites.ts:16:8 info uncontracted-route DELETE /api/sites/:siteId/ is on the browser surface but not in the contract',
    ]);
  });

  it('hook scopes: local stays in its instance (and the plugins it uses after), scoped reaches the parent only, global every instance above; as() promotes what came before it; a route added again replaces the first', async () => {
    const lines = await routes({
      // (the class as the module's default export)
      'src/app.ts': `import Elysia from 'elysia';
import { requireSession, requireStaff } from './guards';

const local = new Elysia().onBeforeHandle(requireStaff).get('/local/own', () => 'own');
const scoped = new Elysia().onBeforeHandle({ as: 'scoped' }, requireSession).get('/scoped/own', () => 'own');
const everywhere = new Elysia().on({ as: 'global' }, 'beforeHandle', requireStaff);
const promoted = new Elysia().mapResolve(requireSession).as('scoped');
const child = new Elysia().get('/child', () => 'child');

const middle = new Elysia()
  .use(local)
  .get('/middle/after-local', () => 'x')
  .use(scoped)
  .get('/middle/after-scoped', () => 'x')
  .use(child);
const top = new Elysia().use(middle).get('/top', () => 'x');
export const app = new Elysia().get('/first', () => 'x').use(top).use(everywhere).get('/last', () => 'x').use(promoted).get('/promoted', () => 'x').use(child);
`,
    });
    expect(lines).toEqual([
      // used again at the end: the same method and path, replaced with the hooks it has there
      'GET /child [requireStaff, requireSession] src/app.ts:8',
      'GET /first [] src/app.ts:17',
      'GET /last [requireStaff] src/app.ts:17',
      'GET /local/own [requireStaff] src/app.ts:4',
      'GET /middle/after-local [] src/app.ts:12',
      'GET /middle/after-scoped [requireSession] src/app.ts:14',
      'GET /promoted [requireStaff, requireSession] src/app.ts:17',
      'GET /scoped/own [requireSession] src/app.ts:5',
      'GET /top [] src/app.ts:16',
    ]);
  });

  it("a hook refusing by behaviour: a status set or answered by number or by Elysia's name of it", async () => {
    const res = await check(writeProject({
      'package.json': PACKAGE,
      'src/app.ts': `import { Elysia } from 'elysia';

export const app = new Elysia()
  .get('/a', () => 'a', { beforeHandle({ set, cookie }) { if (!cookie.sid?.value) { set.status = 'Unauthorized'; return 'sign in'; } } })
  .get('/b', () => 'b', { beforeHandle: ({ headers, status }) => { if (!headers.authorization) return status('Unauthorized', 'sign in'); } })
  .get('/c', () => 'c', { beforeHandle: ({ headers, error }) => { if (headers['x-role'] !== 'staff') return error('Forbidden'); } })
  .get('/d', () => 'd', { beforeHandle({ set, headers }) { if (!headers.authorization) { set.status = 401; return 'sign in'; } } })
  .get('/e', () => 'e', { beforeHandle({ set }) { set.status = 'Accepted'; } });
`,
    }));
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name} ${g.kinds.join('+')}`)}]`)).toEqual([
      'GET /a [beforeHandle auth]',
      'GET /b [beforeHandle auth]',
      // (a 403 by a role: a candidate, as error(403) is)
      'GET /c [beforeHandle unknown]',
      'GET /d [beforeHandle auth]',
      'GET /e []',
    ]);
  });

  it('Elysia 0.x, before scopes: every hook on() adds joins the parent of the plugin using it; guard(hook) stays local', async () => {
    const files = {
      'src/guards.ts': GUARDS,
      'src/app.ts': `import { Elysia } from 'elysia';
import { requireSession, requireStaff } from './guards';

// (onResponse: 0.x's onAfterResponse, returning the instance)
const auth = new Elysia({ name: 'auth' }).onBeforeHandle(requireSession).get('/auth/own', () => 'own').onResponse(() => undefined);
const staff = new Elysia().guard({ beforeHandle: requireStaff }).get('/staff/own', () => 'own');
export const app = new Elysia().get('/before', () => 'x').use(auth).use(staff).get('/after', () => 'x');
`,
    };
    const lines = async (version: string) => routeLinesAt(await check(writeProject({ 'package.json': JSON.stringify({ name: 'api', dependencies: { elysia: version } }), ...files })));
    expect(await lines('^0.8.17')).toEqual([
      'GET /after [requireSession] src/app.ts:7',
      'GET /auth/own [requireSession] src/app.ts:5',
      'GET /before [] src/app.ts:7',
      'GET /staff/own [requireSession, requireStaff] src/app.ts:6',
    ]);
    // (1.x: the plugin's hook is local)
    expect(await lines('^1.0.0')).toEqual([
      'GET /after [] src/app.ts:7',
      'GET /auth/own [requireSession] src/app.ts:5',
      'GET /before [] src/app.ts:7',
      'GET /staff/own [requireStaff] src/app.ts:6',
    ]);
  });

  it('prefixes, groups with and without a hook, guard() with a callback, function plugins, route(), ws(), hooks on a route and the route options a macro reads', async () => {
    const res = await check(
      writeProject({
        'package.json': PACKAGE,
        'src/guards.ts': GUARDS,
        'src/app.ts': `import { Elysia } from 'elysia';
import { requireSession, requireStaff } from './guards';

const roles = new Elysia({ name: 'roles' }).macro({
  role(role: string) {
    return { beforeHandle: requireStaff };
  },
}).macro('signedIn', { resolve: requireSession });

const admin = (app: Elysia) =>
  app.group('/admin', { beforeHandle: [requireSession] }, (g) => g.get('/stats', () => ({})).post('/flush', () => 'ok'));

export const app = new Elysia({ prefix: '/v1', strictPath: true })
  .use(roles)
  .use(admin)
  .group('/sites', (g) => g.onRequest(requireStaff).get('', () => []).get('/:id', () => ({}), { beforeHandle: requireStaff }))
  .group(process.env.LEGACY ? '/v0' : '/stable', (g) => g.get('/ping', () => 'pong'))
  .guard({ beforeHandle: requireSession }, (g) => g.route('DELETE', '/cache', () => 'ok'))
  .get('reports', () => [], { role: 'auditor' })
  .get('/me', () => ({}), { signedIn: true })
  .ws('/live', { beforeHandle: requireSession, message(ws, message) { ws.send(message); } })
  .connect('/tunnel', () => 'ok');
`,
      }),
    );
    expect(routeLinesAt(res)).toEqual([
      'POST /v1/admin/flush [requireSession] src/app.ts:11',
      'GET /v1/admin/stats [requireSession] src/app.ts:11',
      // (the /sites group's onRequest hook joined the app's: it runs for the routes added after the group too)
      'DELETE /v1/cache [requireStaff, requireSession] src/app.ts:18',
      // a WebSocket's upgrade request
      'GET /v1/live [requireStaff, requireSession] src/app.ts:21',
      'GET /v1/me [requireStaff, requireSession] src/app.ts:20',
      // (the onRequest hook, then the macro's)
      'GET /v1/reports [requireStaff, requireStaff] src/app.ts:19',
      'GET /v1/sites [requireStaff] src/app.ts:16',
      'GET /v1/sites/:id [requireStaff, requireStaff] src/app.ts:16',
      // a group prefix of a few: each
      'GET /v1/stable/ping [requireStaff] src/app.ts:17',
      'CONNECT /v1/tunnel [requireStaff] src/app.ts:22',
      'GET /v1/v0/ping [requireStaff] src/app.ts:17',
    ]);
    // strictPath: `/x` and `/x/` are different routes
    expect(res.routes.every((r) => !r.trailingSlashInsensitive)).toBe(true);
    expect(res.routes.find((r) => r.path === '/v1/sites/:id')!.guards.map((g) => g.mechanism)).toEqual(['router.use', 'route-middleware']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("mount(): another application's handler at the path and below it (every method), an instance of the code with its own routes, better-auth's handler with its origin check", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { elysia: '^1.3.20', 'better-auth': '^1.3.4' } }),
        'src/guards.ts': GUARDS,
        'src/auth.ts': `import { betterAuth } from 'better-auth';

export const auth = betterAuth({ trustedOrigins: ['https://app.example.com'], emailAndPassword: { enabled: true } });
`,
        'src/app.ts': `import { Elysia } from 'elysia';
import { auth } from './auth';
import { requireSession } from './guards';

const legacy = new Elysia().get('/status', () => 'ok');
const admin = new Elysia({ prefix: '/admin' }).get('/stats', () => ({}));
const health = new Elysia({ prefix: '/api/health' }).get('/live', () => 'ok');

export const app = new Elysia({ prefix: '/api' })
  .mount(auth.handler)
  .onBeforeHandle(requireSession)
  .mount('/legacy', legacy)
  .mount('/files/', (request: Request) => fetch(new Request(new URL(new URL(request.url).pathname, process.env.FILES_ORIGIN), request)))
  .mount(admin)
  .mount(health);
`,
      }),
    );
    expect(routeLinesAt(res)).toEqual([
      // (mount(handle): handed the whole path, at /* below the prefix)
      'ALL /api/* [better-auth origin check] src/app.ts:10',
      'ALL /api/files/ [requireSession] src/app.ts:13',
      'ALL /api/files/* [requireSession] src/app.ts:13',
      // an instance mounted at the root is handed the whole path: its routes below the prefix are reached, /admin/stats is not
      'GET /api/health/live [requireSession] src/app.ts:7',
      // mounted at a path: handed what follows it
      'GET /api/legacy/status [requireSession] src/app.ts:5',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("an Elysia app answering a Next.js catch-all route (`export const GET = app.handle`): its routes are listed, not the route file's", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'web', dependencies: { next: '15.3.0', elysia: '^1.3.20' } }),
        'src/guards.ts': GUARDS,
        'app/api/[[...slugs]]/route.ts': `import { Elysia } from 'elysia';
import { requireSession } from '../../../src/guards';

const app = new Elysia({ prefix: '/api' })
  .get('/health/ready', () => ({ ok: true }))
  .onBeforeHandle(requireSession)
  .get('/sites/', () => []);

export const GET = app.handle;
export const POST = app.fetch;
`,
        'app/api/other/route.ts': `export async function GET() {
  return Response.json({ other: true });
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.framework} [${r.guards.map((g) => g.name)}]`)).toEqual([
      'GET /api/health/ready elysia []',
      'GET /api/other next []',
      'GET /api/sites/ elysia [requireSession]',
    ]);
  });

  it('what is not known statically, said so: a prefix (routes listed without it), a path, a group prefix, a plugin; a plugin nesting itself read so deep; a plugin imported lazily; a parameter; use() of nothing', async () => {
    const res = await check(
      writeProject({
        'package.json': PACKAGE,
        'src/lazy.ts': `import { Elysia } from 'elysia';

export default new Elysia().get('/lazy', () => 'lazy');
`,
        'src/app.ts': `import { Elysia } from 'elysia';
import { logger } from '@bogeychan/elysia-logger';
import { load } from './load';

const nested = (app: Elysia): Elysia => app.group('/n', (g) => g.use(nested));
export const shell = (plugin: Elysia) => new Elysia().use(plugin);

export const app = new Elysia({ prefix: process.env.BASE })
  .get('/ok', () => 'ok')
  .get(process.env.EXTRA_PATH, () => 'extra')
  .group(process.env.GROUP, (g) => g.get('/x', () => 'x'))
  .use(load())
  .use(import('./lazy'))
  // (nothing: Elysia's use() returns the instance as it is; one of a few plugins adding nothing read)
  .use(undefined)
  .use(null)
  .use(process.env.DEV ? logger() : (app: Elysia) => app)
  // (a plugin nesting itself: read so deep, no deeper)
  .use(nested);
`,
      }),
    );
    // (the plugin imported lazily, used by no instance read: an app of its own)
    expect(routeLinesAt(res)).toEqual(['GET /lazy [] src/lazy.ts:3', 'GET /ok [] src/app.ts:9']);
    expect(res.routes[1]!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 8, unknown: 'property BASE of a value not known statically' }]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:5:41 warning unresolved-route this group() nests more than 16 groups and plugins deep; its routes are left out',
      "src/app.ts:6:42 warning unresolved-route the plugin this use() is given is not known statically (the parameter 'plugin' of a function whose callers are not read); its routes are not listed",
      'src/app.ts:8:20 warning unresolved-route the prefix of this Elysia instance is not known statically (property BASE of a value not known statically); its routes are listed without it',
      'src/app.ts:10:4 warning unresolved-route the path of this get() is not known statically; the route is left out',
      'src/app.ts:11:4 warning unresolved-route the prefix of this group() is not known statically; its routes are left out',
      'src/app.ts:12:4 warning unresolved-route the plugin this use() is given is not known statically (call of something not known statically); its routes are not listed',
      "src/app.ts:13:4 warning unresolved-route a plugin imported lazily (use(import(…))) is not read here; its routes are not listed behind this instance's prefix and hooks",
    ]);
  });
});
