/**
 * The Fastify adapter, on fixtures/fastify-clean and fixtures/fastify-leaky (a multi-file
 * control plane built from plugins) and on small projects for single semantics. Every
 * expectation was derived by hand from Fastify's documented and source-level behaviour
 * (lib/route.js, lib/plugin-override.js, avvio load order) and the SPEC.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { buildRoutePrefix, joinRoute } from '../../src/adapters/fastify/index.js';

const R = 'src/routes/';
const SESSION = 'fastify.requireSession'; // decorated by the fastify-plugin session-auth plugin (401 by behaviour)
const TENANT = 'ensureMembership'; // compares the tenant header with the memberships, 404 (by behaviour)
const CSRF = 'fastify.csrfProtection'; // @fastify/csrf-protection's decorator (by name)
const API = { auth: [SESSION], tenant: [TENANT] };
const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

describe('fixtures/fastify-clean', () => {
  const DIR = path.join(ROOT, 'fixtures', 'fastify-clean');

  it('lists every route with its full prefix, classification and guards', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // '/me/' inside the '/api/auth' prefix: exactly the contract path
      row('GET /api/auth/me/', 'contract', `${R}auth.ts:4:3`, API, 'GET /api/auth/me/'),
      // '/' inside '/api/databases' serves /api/databases and /api/databases/
      row('GET /api/databases', 'contract', `${R}databases.ts:5:3`, API, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', `${R}deployments.ts:10:3`, API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${R}deployments.ts:19:3`, { ...API, csrf: [CSRF] }),
      row('GET /api/deployments/:deploymentId', 'browser', `${R}deployments.ts:12:3`, API),
      // a sibling of the api plugin: none of its hooks apply (no contract-auth-mismatch)
      row('GET /api/health/ready', 'public', `${R}health.ts:6:3`, {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', `${R}sites.ts:13:3`, API, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${R}sites.ts:25:3`, { ...API, csrf: [CSRF] }),
      // fastify.route({ method, url, onRequest: [...], handler })
      row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:30:3`, { ...API, csrf: [CSRF] }),
      row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:18:3`, API),
      // addHook('onRequest', requireServiceToken) in the internal plugin: generic family guard by name, auth by behaviour
      row('POST /internal/compiler/rebuild', 'excluded:internal', `${R}internal.ts:9:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('GET /internal/sites/:siteId/usage', 'excluded:internal', `${R}internal.ts:15:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/stripe', 'excluded:webhook', `${R}webhooks.ts:6:3`, { family: ['verifyStripeSignature'] }),
    ]);
  });

  it('reports only the uncontracted browser routes (excluded routes carry schema.hide)', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `${R}deployments.ts:12:3 info uncontracted-route ${outside('GET /api/deployments/:deploymentId')}`,
      `${R}deployments.ts:19:3 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${R}sites.ts:18:3 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}sites.ts:25:3 info uncontracted-route ${outside('POST /api/sites')}`,
      `${R}sites.ts:30:3 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
    expect(res.summary).toEqual({ files: 20, routes: 13, errors: 0, warnings: 0, infos: 5 });
  });

  it('orders guards by lifecycle phase: context onRequest, route onRequest, then preHandler', async () => {
    const res = await check(DIR);
    const post = res.routes.find((r) => r.method === 'POST' && r.path === '/api/sites')!;
    expect(post.guards.map((g) => `${g.name} ${g.mechanism}`)).toEqual([
      `${SESSION} router.use`,
      `${CSRF} route-middleware`,
      `${TENANT} router.use`,
    ]);
    expect(post.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/api src/server.ts:23', '/sites src/routes/api.ts:12']);
  });
});

describe('fixtures/fastify-leaky', () => {
  const DIR = path.join(ROOT, 'fixtures', 'fastify-leaky');
  const S = { auth: [SESSION] };

  it('lists the routes: the tenant plugin without fastify-plugin guards nothing outside itself', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me', 'contract', `${R}auth.ts:4:3`, S, 'GET /api/auth/me/'),
      row('GET /api/databases', 'contract', `${R}databases.ts:5:3`, S, 'GET /api/databases/'),
      // the deployments plugin adds the tenant hook itself: it guards only its own routes
      row('GET /api/deployments', 'contract', `${R}deployments.ts:13:3`, API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${R}deployments.ts:22:3`, { ...API, csrf: [CSRF] }),
      row('GET /api/deployments/:deploymentId', 'browser', `${R}deployments.ts:15:3`, API),
      row('PUT /api/deployments/:deploymentId', 'browser', `${R}deployments.ts:28:3`, { ...API, csrf: [CSRF] }),
      row('GET /api/health/ready', 'public', `${R}health.ts:6:3`, {}, 'GET /api/health/ready'),
      row('POST /api/ops/cache/flush', 'excluded:ops', `${R}ops.ts:6:3`, S),
      row('GET /api/sites', 'contract', `${R}sites.ts:13:3`, S, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${R}sites.ts:25:3`, S),
      row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:30:3`, { ...S, csrf: [CSRF] }),
      row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:18:3`, S),
      row('POST /internal/compiler/rebuild', 'excluded:internal', `${R}internal.ts:9:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('GET /internal/sites/:siteId/usage', 'excluded:internal', `${R}internal.ts:15:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/stripe', 'excluded:webhook', `${R}webhooks.ts:6:3`, { family: ['verifyStripeSignature'] }),
    ]);
  });

  it('reports each leak once, with the first reason that holds', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      // fastify matches the trailing slash exactly: '/me' does not serve '/api/auth/me/'
      `${R}auth.ts:4:3 error contract-route-drift GET /api/auth/me drifts from the contract route GET /api/auth/me/: trailing slash differs and fastify matches it exactly`,
      `${R}auth.ts:4:3 error missing-tenant-guard GET /api/auth/me has no tenant guard`,
      `${R}databases.ts:5:3 error missing-tenant-guard GET /api/databases has no tenant guard`,
      `${R}databases.ts:14:9 error provider-credential-exposure GET /api/databases returns credential-like field connectionString in database metadata`,
      `${R}deployments.ts:15:3 info uncontracted-route ${outside('GET /api/deployments/:deploymentId')}`,
      `${R}deployments.ts:22:3 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${R}deployments.ts:28:3 error immutable-resource-mutation PUT /api/deployments/:deploymentId mutates a deployment, which the contract makes immutable`,
      `${R}deployments.ts:28:3 info uncontracted-route ${outside('PUT /api/deployments/:deploymentId')}`,
      // no schema.hide while @fastify/swagger is loaded: published (reason 2), although guarded
      `${R}internal.ts:9:3 error excluded-family-leak POST /internal/compiler/rebuild is in the excluded family "internal" but is published in generated API docs by @fastify/swagger (hide it with schema: { hide: true } in the route options)`,
      // hidden from the docs, but reachable with the browser session alone (reason 3)
      `${R}ops.ts:6:3 error excluded-family-leak POST /api/ops/cache/flush is in the excluded family "ops" and is reachable without its family guard (guarded only by ${SESSION})`,
      `${R}sites.ts:13:3 error missing-tenant-guard GET /api/sites has no tenant guard`,
      `${R}sites.ts:18:3 error missing-tenant-guard GET /api/sites/:siteId has no tenant guard`,
      `${R}sites.ts:18:3 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}sites.ts:25:3 error missing-csrf-guard POST /api/sites changes state on the browser session without a CSRF guard`,
      `${R}sites.ts:25:3 error missing-tenant-guard POST /api/sites has no tenant guard`,
      `${R}sites.ts:25:3 info uncontracted-route ${outside('POST /api/sites')}`,
      `${R}sites.ts:30:3 error missing-tenant-guard DELETE /api/sites/:siteId has no tenant guard`,
      `${R}sites.ts:30:3 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
      // POST /webhooks/stripe has no schema.hide, but its plugin loads before @fastify/swagger
      // (queued ahead of the awaited swagger registration): swagger's onRoute hook never sees it.
    ]);
  });
});

const FASTIFY_PKG = JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', 'fastify-plugin': '^5.0.0' } });

/** "METHOD path guards…" for compact assertions on small projects. */
function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.trailingSlashInsensitive ? ' (both forms)' : ''}${r.guards.length ? ' ' + r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ') : ''}`);
}

const GUARDS = `
export async function requireSession(request, reply) {
  if (!request.session?.user) return reply.code(401).send({ error: 'unauthenticated' });
}
export async function requireTenant(request, reply) {
  if (request.params.tenantId !== request.session.user.tenantId) return reply.code(404).send();
}
`;

describe('Fastify semantics', () => {
  it('joins prefixes the way route.js and buildRoutePrefix do', () => {
    expect(buildRoutePrefix('', '/api')).toBe('/api');
    expect(buildRoutePrefix('/api', 'v1')).toBe('/api/v1');
    expect(buildRoutePrefix('/api/', '/v1')).toBe('/api/v1');
    expect(buildRoutePrefix('/api', '')).toBe('/api');
    expect(joinRoute('/api/sites', '/', 'both', false)).toEqual({ path: '/api/sites', bothForms: true });
    expect(joinRoute('/api/sites', '/', 'slash', false)).toEqual({ path: '/api/sites/', bothForms: false });
    expect(joinRoute('/api/sites', '/', 'no-slash', false)).toEqual({ path: '/api/sites', bothForms: false });
    expect(joinRoute('/api/sites/', '/', 'both', false)).toEqual({ path: '/api/sites/', bothForms: false });
    expect(joinRoute('/api/', '/sites', 'both', false)).toEqual({ path: '/api/sites', bothForms: false });
    expect(joinRoute('/api', '/sites/', 'both', false)).toEqual({ path: '/api/sites/', bothForms: false });
    expect(joinRoute('', '/', 'both', false)).toEqual({ path: '/', bothForms: false });
  });

  it("a plugin made by a wrapper of another module that returns the function it is given (vrite's `createPlugin`) is that function", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: '@vrite/backend', private: true, dependencies: { fastify: '4.24.3' } }),
      'src/lib/plugin.ts': `import type { FastifyPluginAsync } from 'fastify';

type Plugin = { [key: symbol]: boolean } & FastifyPluginAsync;

const createPlugin = (plugin: FastifyPluginAsync): Plugin => {
  const typedPlugin = plugin as Plugin;

  typedPlugin[Symbol.for('skip-override')] = true;

  return typedPlugin;
};

export { createPlugin };
`,
      'src/assets.ts': `import { createPlugin } from './lib/plugin';

export const assetsService = createPlugin(async (fastify) => {
  fastify.get('/:workspaceId/:assetId', async (req) => ({ asset: (req.params as { assetId: string }).assetId }));
  fastify.post('/upload', async (req, reply) => reply.code(201).send({ key: 'uploaded' }));
});
`,
      'src/index.ts': `import createFastify from 'fastify';
import { assetsService } from './assets';

const server = createFastify({ logger: true });
server.register(assetsService);
server.listen({ port: Number(process.env.PORT) || 8888 });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /:workspaceId/:assetId src/assets.ts:4', 'POST /upload src/assets.ts:5']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('a plugin or its options a function returns by a test of its parameter: what the call picks (`pluginFor(\'admin\')`, `prefixed(\'v2\')`)', async () => {
    const res = await check(
      writeProject({
        'package.json': FASTIFY_PKG,
        'src/guards.ts': GUARDS,
        'src/plugins.ts': `import type { FastifyInstance } from 'fastify';
import { requireSession } from './guards';

export function pluginFor(audience: 'admin' | 'public') {
  if (audience === 'admin')
    return async function admin(app: FastifyInstance) {
      app.addHook('onRequest', requireSession);
      app.get('/stats', async () => ({ users: 0 }));
    };
  return async function news(app: FastifyInstance) {
    app.get('/news', async () => ({ items: [] }));
  };
}

export const prefixed = (version?: string) => (version ? { prefix: \`/api/\${version}\` } : { prefix: '/api' });
`,
        'src/server.ts': `import Fastify from 'fastify';
import { pluginFor, prefixed } from './plugins';

const app = Fastify();
app.register(pluginFor('admin'), { prefix: '/admin' });
app.register(pluginFor('public'), { prefix: '/public' });
app.register(async (api) => {
  api.get('/sites', async () => ({ items: [] }));
}, prefixed('v2'));
app.listen({ port: 3000 });
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /admin/stats requireSession:auth', 'GET /api/v2/sites', 'GET /public/news']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("one app made either way (Flood's `if (ssl) instance = fastify({ https }) else instance = fastify()`): each route listed once, unless the two serve it otherwise", async () => {
    const listed = async (options: string) => {
      const res = await check(
        writeProject({
          'package.json': FASTIFY_PKG,
          'src/guards.ts': GUARDS,
          'src/routes.ts': `import type { FastifyInstance } from 'fastify';
import { requireSession } from './guards';

export default async function constructRoutes(fastify: FastifyInstance) {
  fastify.get('/api/sites', { preHandler: requireSession }, async () => []);
  fastify.delete('/api/sites/:siteId', { preHandler: requireSession }, async (request, reply) => reply.code(204).send());
}
`,
          'src/server.ts': `import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastify from 'fastify';
import constructRoutes from './routes';

const startWebServer = async (ssl: boolean) => {
  let instance: FastifyInstance;
  if (ssl) {
    instance = fastify({ ${options}https: { key: fs.readFileSync('key.pem'), cert: fs.readFileSync('cert.pem') } });
  } else {
    instance = fastify({ bodyLimit: 1048576 });
  }
  await constructRoutes(instance);
  await instance.listen({ port: 3000 });
};
startWebServer(process.env.SSL === 'true');
`,
        }),
      );
      return res.routes.map((r) => `${r.app} ${lines({ routes: [r] })[0]}`);
    };
    expect(await listed('')).toEqual(['app GET /api/sites requireSession:auth', 'app DELETE /api/sites/:siteId requireSession:auth']);
    // (an app matching the trailing slash otherwise serves its routes otherwise: both listed)
    expect(await listed('ignoreTrailingSlash: true, ')).toEqual([
      'app (src/server.ts:9) GET /api/sites (both forms) requireSession:auth',
      'app (src/server.ts:11) GET /api/sites requireSession:auth',
      'app (src/server.ts:9) DELETE /api/sites/:siteId (both forms) requireSession:auth',
      'app (src/server.ts:11) DELETE /api/sites/:siteId requireSession:auth',
    ]);
  });

  it("a loop over a list another module makes with .map() from a literal list (misskey's endpoints: `eps.map(([name, ep]) => ({ name, meta: ep.meta }))`) registers a route per item", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', type: 'module', dependencies: { fastify: '^4.28.1' } }),
      'src/ep-i.ts': `export const meta = { requireCredential: true };
`,
      'src/ep-notes-create.ts': `export const meta = { requireCredential: true, kind: 'write:notes' };
`,
      'src/endpoints.ts': `import * as ep___i from './ep-i.js';
import * as ep___notes_create from './ep-notes-create.js';

const eps = [
  ['i', ep___i],
  ['notes/create', ep___notes_create],
];

export default eps.map(([name, ep]) => {
  return { name, meta: ep.meta ?? {} };
});
`,
      'src/server.ts': `import Fastify, { type FastifyInstance } from 'fastify';
import endpoints from './endpoints.js';

function api(fastify: FastifyInstance, opts: object, done: () => void) {
  for (const endpoint of endpoints) {
    fastify.all('/' + endpoint.name, async (request) => ({ endpoint: endpoint.name, body: request.body }));
  }
  done();
}

const app = Fastify();
app.register(api, { prefix: '/api' });
app.listen({ port: 3000 });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['ALL /api/i src/server.ts:6', 'ALL /api/notes/create src/server.ts:6']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("a helper handed the instance registers with the arguments of each call: `registerResource(api, 'sites')` (Infisical-like)", async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/resources.ts': `
import type { FastifyInstance } from 'fastify';
import { requireSession } from './guards.js';

export function registerResource(server: FastifyInstance, name: string, opts: { guarded: boolean }) {
  server.get(\`/\${name}/\`, { onRequest: opts.guarded ? [requireSession] : [] }, async () => []);
  server.delete(\`/\${name}/:id\`, async () => ({}));
}

export function registerSummary(server: FastifyInstance, { name }: { name: string }) {
  server.get(\`/\${name}/summary\`, async () => ({}));
}
`,
      'src/server.ts': `
import Fastify from 'fastify';
import { registerResource, registerSummary } from './resources.js';

const app = Fastify();
app.register(
  async (api) => {
    registerResource(api, 'sites', { guarded: true });
    registerResource(api, 'deployments', { guarded: false });
    registerSummary(api, { name: 'databases' });
  },
  { prefix: '/api' },
);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/databases/summary',
      'GET /api/deployments/',
      'DELETE /api/deployments/:id',
      'GET /api/sites/ requireSession:auth',
      'DELETE /api/sites/:id',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route' || f.ruleId === 'contract-route-missing').map((f) => f.message)).toEqual([
      'contract route GET /api/health/ready is not served by any analysed app',
      'contract route GET /api/auth/me/ is not served by any analysed app',
      'contract route GET /api/databases/ is not served by any analysed app',
    ]);
  });

  it("withTypeProvider<T>() answers the same instance; a plugin returning a helper's call registers what the helper does", async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/controllers/sites.ts': `
import type { FastifyInstance } from 'fastify';
import { requireSession } from '../guards.js';

export default async function sitesController(fastify: FastifyInstance) {
  fastify.addHook('onRequest', requireSession);
  fastify.get('/', async () => []);
}
`,
      'src/router.ts': `
import type { FastifyInstance } from 'fastify';
import sitesController from './controllers/sites.js';

export default async function router(fastify: FastifyInstance, opts?: { dashboard?: boolean }) {
  await fastify.register(sitesController, { prefix: '/api/sites' });
}
`,
      'src/build-app.ts': `
import fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import router from './router.js';

export async function registerApp(originalServer: FastifyInstance, opts?: { dashboard?: boolean }) {
  const server = originalServer.withTypeProvider<TypeBoxTypeProvider>();
  await Promise.all([server.register((f) => router(f, opts))]);
  server.get('/health', async () => ({ ok: true }));
  return server;
}

export default async function buildApp(opts?: { dashboard?: boolean }) {
  const server = fastify().withTypeProvider<TypeBoxTypeProvider>();
  await registerApp(server, opts);
  return server;
}
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/sites (both forms) requireSession:auth', 'GET /health']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('a url "/" in a prefixed plugin serves both forms; others match the trailing slash exactly', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/app.ts': `
import Fastify from 'fastify';
const app = Fastify();
app.register(async (api) => {
  api.register(async (sites) => {
    sites.get('/', async () => []);
    sites.get('/archived/', async () => []);
  }, { prefix: 'sites' });
  api.register(async (deployments) => {
    deployments.get('/', { prefixTrailingSlash: 'no-slash' }, async () => []);
  }, { prefix: '/deployments' });
  api.register(async (databases) => {
    databases.route({ method: 'GET', url: '/', prefixTrailingSlash: 'slash', handler: async () => [] });
  }, { prefix: '/databases' });
}, { prefix: '/api/' });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/databases/',
      'GET /api/deployments',
      'GET /api/sites (both forms)',
      'GET /api/sites/archived/',
    ]);
    expect(findingRows(res.findings).filter((f) => f.includes('contract-route-drift'))).toEqual([
      'src/app.ts:10:5 error contract-route-drift GET /api/deployments drifts from the contract route GET /api/deployments/: trailing slash differs and fastify matches it exactly',
    ]);
    expect(res.routes.map((r) => r.contractRoute)).toEqual(['GET /api/databases/', 'GET /api/deployments/', 'GET /api/sites/', null]);
  });

  it('ignoreTrailingSlash (top level or routerOptions) serves both forms of every route', async () => {
    for (const init of ['{ ignoreTrailingSlash: true }', '{ routerOptions: { ignoreTrailingSlash: true }, ignoreTrailingSlash: false }']) {
      const dir = writeProject({
        'package.json': FASTIFY_PKG,
        'src/app.ts': `import Fastify from 'fastify';\nconst app = Fastify(${init});\napp.get('/api/auth/me', async (request) => request.user);\n`,
      });
      const res = await check(dir);
      expect(lines(res)).toEqual(['GET /api/auth/me (both forms)']);
      expect(res.routes[0]!.contractRoute).toBe('GET /api/auth/me/');
      expect(res.findings.filter((f) => f.ruleId === 'contract-route-drift')).toEqual([]);
    }
  });

  it('encapsulation: hooks reach their context and its children, never siblings; fastify-plugin shares the parent context', async () => {
    // checked against fastify 5.12.8 (app.inject, with and without the credentials): the
    // billing routes answer 401 and then 403, every other route 403
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { requireSession, requireTenant } from './guards.js';

const app = Fastify();

async function billing(instance) {
  instance.get('/billing/invoices', async () => []);
  instance.register(async (nested) => {
    nested.get('/billing/cards', async () => []);
  });
  // after the routes and the child registration: still applies to both
  instance.addHook('onRequest', requireSession);
}

async function reports(instance) {
  instance.get('/reports/usage', async () => []);
}

const tenantHook = fp(async function tenantHook(instance) {
  instance.addHook('preHandler', requireTenant);
});

app.register(billing);
app.register(reports);
app.register(tenantHook, { prefix: '/ignored' });
app.register(fp(async (instance) => { instance.get('/shared/:tenantId', async () => ({})); }), { prefix: '/ignored' });
app.get('/root/:tenantId', async () => ({}));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      // billing and reports load before the fastify-plugin adds its hook to the root context,
      // which hands it on to the child contexts made by then (fastify.js _addHook)
      'GET /billing/cards requireSession:auth requireTenant:tenant',
      'GET /billing/invoices requireSession:auth requireTenant:tenant',
      'GET /reports/usage requireTenant:tenant',
      // declared in the root context: every root hook applies, whenever it was added
      'GET /root/:tenantId requireTenant:tenant',
      // fastify-plugin: the root context itself, so the prefix option is ignored
      'GET /shared/:tenantId requireTenant:tenant',
    ]);
  });

  it("a hook handing on the requests of routes by their config (`request.routeOptions.config`) guards only the routes whose config, known statically, fails its tests", async () => {
    // activepieces' authenticationMiddleware; checked against fastify 5.12.8 (app.inject, no
    // credentials): sign-in, flags, redirect and pricing answer 200, the other four 401
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/app.ts': `import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

type Security = { kind: 'PUBLIC' | 'USER' };
const securityAccess = {
  public: (): Security => ({ kind: 'PUBLIC' }),
  user: (): Security => ({ kind: 'USER' }),
};

// activepieces' authenticationMiddleware: routes without security, or marked public, go on untouched
async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const security = (request.routeOptions.config as { security?: Security })?.security;
  if (security === undefined) {
    return;
  }
  if (security.kind === 'PUBLIC') {
    return;
  }
  if (!request.headers.authorization) {
    return reply.code(401).send({ error: 'unauthorized' });
  }
}

// a callback hook skipping what a route's config says is open to everyone
function requireSession(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  const { open } = request.routeOptions.config as { open?: boolean };
  if (open || request.routeOptions.config.url === '/never') return done();
  if (!request.headers.cookie) {
    reply.code(401).send({ error: 'sign in' });
    return;
  }
  done();
}

export const app = Fastify();

app.register(async (api) => {
  api.addHook('preHandler', authenticate);
  api.post('/sign-in', { config: { security: { kind: 'PUBLIC' } } }, async () => ({ ok: true }));
  api.get('/flags', { config: { security: securityAccess.public() } }, async () => ({ flags: [] }));
  api.get('/redirect', async () => 'to the dashboard');
  api.get('/flows', { config: { security: securityAccess.user() } }, async () => ({ items: [] }));
  api.route({ method: 'GET', url: '/projects', config: { security: { kind: 'USER' } }, handler: async () => ({ items: [] }) });
}, { prefix: '/v1' });

app.register(async (site) => {
  site.addHook('onRequest', requireSession);
  site.get('/pricing', { config: { open: true } }, async () => 'plans');
  site.get('/settings', async () => 'settings');
  site.get('/billing', { config: { open: false } }, async () => 'billing');
}, { prefix: '/site' });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /site/billing requireSession:auth',
      'GET /site/pricing',
      'GET /site/settings requireSession:auth',
      'GET /v1/flags',
      'GET /v1/flows authenticate:auth+bearer',
      'GET /v1/projects authenticate:auth+bearer',
      'GET /v1/redirect',
      'POST /v1/sign-in',
    ]);
    const skipped = (p: string): string[] => res.routes.find((r) => r.path === p)!.skippedGuards!.map((g) => `${g.name}: ${g.skips}`);
    expect(skipped('/v1/sign-in')).toEqual(['authenticate: routes whose config.security.kind is "PUBLIC"']);
    expect(skipped('/v1/redirect')).toEqual(['authenticate: routes whose config.security is not set']);
    expect(skipped('/site/pricing')).toEqual(['requireSession: routes whose config.open is truthy']);
  });

  it('a config test through `isNil(…)` and against an enum member (`RouteKind.PUBLIC`), as activepieces writes it', async () => {
    // checked against fastify 5.12.8 (app.inject, no credentials): otp and redirect answer 200, flows 401
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/app.ts': `import Fastify, { type FastifyRequest } from 'fastify';
import { RouteKind, isNil, securityAccess } from './security';

export const authenticationMiddleware = async (request: FastifyRequest): Promise<void> => {
  const security = request.routeOptions.config?.security;
  if (isNil(security)) {
    return;
  }
  if (security.kind === RouteKind.PUBLIC) {
    return;
  }
  if (!request.headers.authorization) {
    throw Object.assign(new Error('unauthorized'), { statusCode: 401 });
  }
};

export const app = Fastify();
app.addHook('preHandler', authenticationMiddleware);
app.post('/v1/otp', { config: { security: securityAccess.public() } }, async () => ({ sent: true }));
app.get('/v1/flows', { config: { security: securityAccess.user() } }, async () => ({ items: [] }));
app.get('/v1/redirect', async () => 'to the dashboard');
`,
      'src/security.ts': `export enum RouteKind {
  AUTHENTICATED = 'AUTHENTICATED',
  PUBLIC = 'PUBLIC',
}

export type RouteSecurity = { kind: RouteKind };

export function isNil<T>(value: T | null | undefined): value is null | undefined {
  return value === null || value === undefined;
}

export const securityAccess = {
  public: (): RouteSecurity => ({ kind: RouteKind.PUBLIC }),
  user: (): RouteSecurity => ({ kind: RouteKind.AUTHENTICATED }),
};
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /v1/flows authenticationMiddleware:auth+bearer', 'POST /v1/otp', 'GET /v1/redirect']);
    expect(res.routes.find((r) => r.path === '/v1/otp')!.skippedGuards!.map((g) => g.skips)).toEqual(['routes whose config.security.kind is "PUBLIC"']);
  });

  it('a hook reaches the plugins loaded before it too (an awaited register, a plugin queued before it): addHook hands it on to the contexts made by then', async () => {
    // fastify.js addHook → _addHook over kChildren (v3 to v6), a route's hooks read at preReady
    // (route.js); checked against fastify 5.12.8 (app.inject): the three routes answer 401
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Fastify from 'fastify';
import { requireSession } from './guards.js';

export async function build() {
  const app = Fastify();
  await app.register(async (early) => { early.get('/early', async () => 'e'); });
  app.register(async (queued) => { queued.get('/queued', async () => 'q'); });
  app.addHook('onRequest', requireSession);
  app.register(async (late) => { late.get('/late', async () => 'l'); });
  return app;
}
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /early requireSession:auth', 'GET /late requireSession:auth', 'GET /queued requireSession:auth']);
  });

  it("a plugin's registration whose method a computed member names (supabase storage's S3 routes, `localFastify[method](routePath, …)`): each method known, in a loop or a constant; one not known statically warned about", async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/routes.ts': `
import type { FastifyInstance } from 'fastify';
import { requireSession } from './guards.js';

export default async function routes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', requireSession);
  for (const method of ['get', 'post'] as const) {
    fastify[method]('/items', async (request) => ({ method: request.method }));
  }
  const verb = 'delete';
  fastify[verb]('/items/:id', async () => ({ deleted: true }));
  const extra = process.env.EXTRA_METHOD as 'put';
  fastify[extra]('/extra', async () => ({}));
  for (const verb of ['patch']) fastify[verb as 'patch']('/items/:id', async () => ({ patched: true }));
  fastify[process.env.OTHER_METHOD as 'put']('/other', async () => ({}));
}
`,
      'src/app.ts': `
import Fastify from 'fastify';
import routes from './routes.js';

export const app = Fastify();
app.register(routes, { prefix: '/api' });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/items requireSession:auth', 'POST /api/items requireSession:auth', 'DELETE /api/items/:id requireSession:auth', 'PATCH /api/items/:id requireSession:auth']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/routes.ts:13:3 warning unresolved-route a registration whose method is not known statically (extra); it is left out',
      "src/routes.ts:15:3 warning unresolved-route a registration whose method is not known statically (process.env.OTHER_METHOD); it is left out",
    ]);
  });

  it("fastify-plugin with `{ encapsulate: true }` keeps a context of its own (fastify-plugin's skip-override is `options.encapsulate !== true`): its hook guards its own routes only", async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/admin.ts': `
import fp from 'fastify-plugin';
import { requireSession } from './guards.js';

export const shared = fp(async (fastify) => {
  fastify.addHook('onRequest', requireSession);
});

export const adminOnly = fp(
  async (fastify) => {
    fastify.addHook('onRequest', requireSession);
    fastify.get('/admin/stats', async () => ({ users: 1 }));
  },
  { name: 'admin-only', encapsulate: true },
);
`,
      'src/app.ts': `
import Fastify from 'fastify';
import { adminOnly, shared } from './admin.js';

export const app = Fastify();
app.register(async (api) => {
  api.register(adminOnly);
  api.post('/items', async () => ({ created: true }));
}, { prefix: '/api' });
app.register(async (web) => {
  web.register(shared);
  web.get('/me', async () => ({}));
}, { prefix: '/web' });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/admin/stats requireSession:auth', 'POST /api/items', 'GET /web/me requireSession:auth']);
  });

  it("a plugin registered on an outer instance from inside a plugin's body is that plugin's (avvio queues it in the plugin loading): its hooks guard that plugin's routes only", async () => {
    // as dittofeed's router does; checked against fastify 5.12 (app.inject): /api/before,
    // /api/after and /api/segments/x answer 401, /z, /pub/y and /root do not
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { requireSession } from './guards.js';

const requestContext = fp(async (f) => {
  f.addHook('preHandler', requireSession);
});

async function router(fastify) {
  await fastify.register(async (f) => {
    f.get('/before', async () => 'before');
    await fastify.register(requestContext);
    f.get('/after', async () => 'after');
    await f.register(async (g) => { g.get('/x', async () => 'x'); }, { prefix: '/segments' });
  }, { prefix: '/api' });
  fastify.get('/z', async () => 'z');
  await fastify.register(async (f) => { f.get('/y', async () => 'y'); }, { prefix: '/pub' });
}

export const app = Fastify();
await app.register(router);
app.get('/root', async () => 'root');
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/after requireSession:auth', 'GET /api/before requireSession:auth', 'GET /api/segments/x requireSession:auth', 'GET /pub/y', 'GET /root', 'GET /z']);
  });

  it('registrations chained on a plugin’s instance (register returns it) are each made on it, in order', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import Fastify from 'fastify';
import { requireSession } from './guards.js';

async function users(fastify) {
  fastify.get('/me', async () => ({}));
}
async function tweets(fastify) {
  fastify
    .addHook('onRequest', requireSession)
    .get('/', async () => [])
    .post('/', async () => ({}));
}
async function api(fastify) {
  fastify
    .register(users, { prefix: '/users' })
    .register(tweets, { prefix: '/tweets' });
}

const app = Fastify();
app.register(api, { prefix: '/api' });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/tweets (both forms) requireSession:auth', 'POST /api/tweets (both forms) requireSession:auth', 'GET /api/users/me']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("a plugin's url read from its options as the register call passes them, through a plugin handing its own options on (leon's API)", async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/api/info.ts': `
export const getInfo = async (fastify, options) => {
  fastify.route({
    method: 'GET',
    url: \`/api/\${options.apiVersion}/info\`,
    handler: async (_request, reply) => reply.send({ success: true }),
  });
};

export const infoPlugin = async (fastify, options) => {
  await fastify.register(getInfo, options);
};
`,
      'src/api/utterance.ts': `
export const utterancePlugin = async (fastify, options) => {
  fastify.post('/api/' + options.apiVersion + '/utterance', async (request) => ({ heard: request.body.utterance }));
  // (the instance stays the plugin's own: its options name no route here)
  fastify.get(\`/api/\${options.missing}/status\`, async () => ({ ok: true }));
};
`,
      'src/server.ts': `
import Fastify from 'fastify';
import { infoPlugin } from './api/info.js';
import { utterancePlugin } from './api/utterance.js';

const API_VERSION = 'v1';
const fastify = Fastify();
fastify.register(infoPlugin, { apiVersion: API_VERSION });
fastify.register(async (instance) => {
  instance.register(utterancePlugin, { apiVersion: API_VERSION });
});
fastify.listen({ port: 1337 });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /api/status src/api/utterance.ts:5', 'GET /api/v1/info src/api/info.ts:3', 'POST /api/v1/utterance src/api/utterance.ts:3']);
    expect(unresolvedRows(res)).toEqual([
      'src/api/utterance.ts:5:3 warning unresolved-route GET route with a url not known statically (no property missing); it is listed without that part',
    ]);
  });

  it('decorators resolve through the context chain: visible to descendants, not to siblings', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/app.ts': `
import Fastify from 'fastify';
import fp from 'fastify-plugin';

const app = Fastify();
app.register(fp(async (instance) => {
  instance.decorate('checkAccess', async function (request, reply) {
    const site = await instance.db.sites.find(request.params.siteId);
    if (!site || site.tenantId !== request.session.tenantId) return reply.code(404).send();
  });
}));
app.register(async (local) => {
  local.decorate('verifyOwner', async (request, reply) => {
    if (request.params.ownerId !== request.session.user.id) return reply.code(403).send();
  });
});
app.register(async (sites) => {
  sites.get('/sites/:siteId', { preHandler: sites.checkAccess }, async () => ({}));
  sites.get('/owners/:ownerId', { preHandler: [sites.verifyOwner] }, async () => ({}));
});
`,
    });
    const res = await check(dir);
    // checkAccess: a tenant guard by behaviour (compares tenantId, answers 404);
    // verifyOwner is decorated in a sibling context: its definition is not visible, its name says nothing.
    expect(lines(res)).toEqual(['GET /owners/:ownerId sites.verifyOwner:unknown', 'GET /sites/:siteId sites.checkAccess:tenant']);
  });

  it('a hook handing its request and reply whole to decorators (`async (request, reply) => { await fastify.verifyJWT(request, reply) }`, then `fastify.verifyRole([…])(request, reply)`) is those decorators; handing them to one not known, a candidate', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/auth.ts': `import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export default fp(async function authPlugin(fastify: FastifyInstance) {
  fastify.decorate('verifySession', async function (request: FastifyRequest, reply: FastifyReply) {
    if (!request.session?.userId) return reply.code(401).send({ error: 'unauthenticated' });
  });
  fastify.decorate('verifyRole', function (roles: string[]) {
    return async function (request: FastifyRequest, reply: FastifyReply) {
      if (!request.session?.userId) return reply.code(401).send({ error: 'unauthenticated' });
      if (!roles.includes(request.session.role)) return reply.code(403).send({ error: 'forbidden' });
    };
  });
});
`,
      'src/app.ts': `import Fastify, { type FastifyInstance } from 'fastify';
import authPlugin from './auth';

async function tenantRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', async (request, reply) => {
    await (fastify as any).verifySession(request, reply);
  });
  fastify.get('/mine', async () => []);
}

async function userRoutes(fastify: FastifyInstance) {
  fastify.addHook('preHandler', async (request, reply) => app.verifySession(request, reply));
  fastify.get('/me', async () => ({}));
}

async function adminRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', async (request, reply) => {
    await fastify.verifySession(request, reply);
    await fastify.verifyRole(['ADMIN', 'SUPER_ADMIN'])(request, reply);
  });
  fastify.get('/users', async () => []);
}

async function billingRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', async (request, reply) => {
    await fastify.verifySubscription(request, reply);
  });
  fastify.get('/invoices', async () => []);
}

const app = Fastify();
app.register(authPlugin);
app.register(tenantRoutes, { prefix: '/api/tenants' });
app.register(userRoutes, { prefix: '/api/users' });
app.register(billingRoutes, { prefix: '/api/billing' });
app.register(adminRoutes, { prefix: '/api/admin' });
app.listen({ port: 3000 });
`,
    });
    const res = await check(dir);
    // (verifySubscription is decorated nowhere: the hook may end the request there, so it is a candidate, not no guard)
    expect(res.routes.map((r) => `${lines({ routes: [r] })[0]} ${r.guards.map((g) => `${g.file}:${g.line}`).join(' ')}`)).toEqual([
      'GET /api/admin/users fastify.verifySession:auth fastify.verifyRole:auth src/app.ts:17 src/app.ts:17',
      'GET /api/billing/invoices (inline middleware):unknown src/app.ts:25',
      'GET /api/tenants/mine fastify.verifySession:auth src/app.ts:5',
      'GET /api/users/me app.verifySession:auth src/app.ts:12',
    ]);
  });

  it('follows route(), dynamic imports, helpers and plugin options; warns on what it cannot follow', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/guards.ts': GUARDS,
      'src/routes/sites.ts': `
import { requireSession, requireTenant } from '../guards.js';
function registerSiteRoutes(server, deps) {
  server.route({ method: ['GET', 'HEAD'], path: '/', preValidation: requireTenant, onRequest: [requireSession], handler: deps.list });
}
export default async function sites(fastify, opts) {
  registerSiteRoutes(fastify, opts.deps);
  fastify.register(async (child) => { child.get('/:siteId', async () => ({})); }, opts);
}
`,
      'src/app.ts': `
import Fastify from 'fastify';
import autoload from '@fastify/autoload';
import { plugins } from './registry.js';

const app = Fastify();
app.register(import('./routes/sites.js'), { prefix: '/api/sites' });
app.register(autoload, { dir: process.env.ROUTES_DIR });
app.register(plugins.billing);
app.register(async (x) => { x.get('/y', async () => 1); }, { prefix: process.env.PREFIX });
app.register(async (x) => { x.get('/workspaces', async () => []); }, { prefix: \`\${process.env.BASE_PATH ?? ''}/client/v1\` });
app.register(async (x) => { x.get('/status', async () => 'ok'); }, { prefix: \`/api/\${process.env.API_VERSION}\` });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      // onRequest runs before preValidation, whatever the order of the options
      'GET /api/sites (both forms) requireSession:auth requireTenant:tenant',
      'HEAD /api/sites (both forms) requireSession:auth requireTenant:tenant',
      // `register(child, opts)` passes the plugin's own options on: the prefix applies again
      'GET /api/sites/api/sites/:siteId',
      // known text before a head not known statically: listed under it, a step says so
      'GET /api/status',
      // a prefix whose head is not known statically: listed under its known rest (colanode's), a step says so
      'GET /client/v1/workspaces',
      // a prefix not known statically: listed without it, a step says so
      'GET /y',
    ]);
    expect(res.routes.find((r) => r.path === '/y')!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 10, unknown: 'property PREFIX of a value not known statically' }]);
    expect(res.routes.find((r) => r.path === '/client/v1/workspaces')!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 11, unknown: "process.env.BASE_PATH ?? ''" }]);
    expect(res.routes.find((r) => r.path === '/api/status')!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 12, unknown: 'property API_VERSION of a value not known statically' }]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:8:1 warning unresolved-route the files @fastify/autoload loads are not known statically (dir: property ROUTES_DIR of a value not known statically); the routes they register are left out',
      "src/app.ts:9:1 warning unresolved-route plugin not known statically (property billing of a value not known statically); the routes it registers are unknown",
      'src/app.ts:10:1 warning unresolved-route the prefix of this plugin is not known statically (property PREFIX of a value not known statically); the routes it registers are listed without it',
      "src/app.ts:11:1 warning unresolved-route the prefix of this plugin is not known statically (process.env.BASE_PATH ?? ''); the routes it registers are listed without that part",
      'src/app.ts:12:1 warning unresolved-route the prefix of this plugin is not known statically (property API_VERSION of a value not known statically); the routes it registers are listed without that part',
    ]);
  });

  it('a url whose head is not known statically: listed at the known rest, a step saying so, after the known text before it', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/app.ts': `
import Fastify from 'fastify';

const base = process.env.API_BASE ?? '';
const app = Fastify();
app.get(\`\${base}/health\`, async () => ({ ok: true }));
app.route({ method: 'GET', url: \`/\${base}/ready\`, handler: async () => ({ ok: true }) });
app.get(\`/v1/\${base}/ping\`, async () => 'pong');
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.prefixes.map((p) => [p.line, p.prefix, p.unknown]))}`)).toEqual([
      `GET /health [[6,"","process.env.API_BASE ?? ''"]]`,
      `GET /ready [[7,"","process.env.API_BASE ?? ''"]]`,
      `GET /v1/ping [[8,"","process.env.API_BASE ?? ''"]]`,
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      "src/app.ts:6:1 warning unresolved-route GET route with a url not known statically (process.env.API_BASE ?? ''); it is listed without that part",
      "src/app.ts:7:1 warning unresolved-route GET route with a url not known statically (process.env.API_BASE ?? ''); it is listed without that part",
      "src/app.ts:8:1 warning unresolved-route GET route with a url not known statically (process.env.API_BASE ?? ''); it is listed without that part",
    ]);
  });

  it('fastify-metrics serves its endpoint in the context that registers it, with the hooks there and in its route options', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', 'fastify-metrics': '^12.0.0' } }),
      'src/ops-token.ts': `export async function requireOpsToken(request, reply) { if (request.headers['x-ops-token'] !== process.env.OPS_TOKEN) return reply.code(401).send(); }`,
      // the dashboard's server: the plugin's default endpoint, next to the app's own routes
      'src/server.ts': `
import Fastify from 'fastify';
import fastifyMetrics from 'fastify-metrics';

const app = Fastify();
app.register(fastifyMetrics.default, { routeMetrics: { enabled: true } });
app.get('/api/health/ready', async () => ({ ok: true }));
`,
      // an operations server: fastify-plugin keeps the endpoint in the prefixed plugin's context, under its hook
      'src/admin.ts': `
import Fastify from 'fastify';
import metrics from 'fastify-metrics';
import { requireOpsToken } from './ops-token.js';

const admin = Fastify();
admin.register(async (ops) => {
  ops.addHook('onRequest', requireOpsToken);
  await ops.register(metrics, { endpoint: '/metrics' });
}, { prefix: '/ops' });
`,
      // the endpoint as route options: its own hooks, its method GET whatever they say
      'src/edge.ts': `
import Fastify from 'fastify';
import metrics from 'fastify-metrics';
import { requireOpsToken } from './ops-token.js';

const edge = Fastify();
edge.register(metrics, { endpoint: { url: '/edge/metrics', method: 'POST', onRequest: [requireOpsToken] } });
`,
      // no endpoint, and one not known statically
      'src/worker.ts': `
import Fastify from 'fastify';
import metrics from 'fastify-metrics';

const worker = Fastify();
worker.register(metrics, { endpoint: null, defaultMetrics: { enabled: true } });
const jobs = Fastify();
jobs.register(metrics, { endpoint: process.env.METRICS_PATH });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/health/ready', 'GET /edge/metrics requireOpsToken:auth+bearer', 'GET /metrics', 'GET /ops/metrics requireOpsToken:auth+bearer']);
    expect(res.routes.filter((r) => r.path.endsWith('/metrics')).map((r) => `${r.path} ${r.handler} ${r.file}:${r.line}`)).toEqual([
      '/edge/metrics fastify-metrics src/edge.ts:7',
      '/metrics fastify-metrics src/server.ts:6',
      '/ops/metrics fastify-metrics src/admin.ts:9',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'missing-auth-guard' || f.ruleId === 'unresolved-route'))).toEqual([
      'src/server.ts:6:1 error missing-auth-guard GET /metrics has no auth guard',
      'src/worker.ts:8:1 warning unresolved-route the endpoint fastify-metrics serves is not known statically (property METRICS_PATH of a value not known statically); its route is left out',
    ]);
  });

  it('@fastify/static serves its directory at prefix + `*` (GET and HEAD) in the context that registers it, hidden from the API docs', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', '@fastify/static': '^8.3.0', '@fastify/swagger': '^9.0.0' } }),
      'src/ops-token.ts': `export async function requireOpsToken(request, reply) { if (request.headers['x-ops-token'] !== process.env.OPS_TOKEN) return reply.code(401).send(); }`,
      // leon's web app: the built dashboard at the root, its index page answered by a route of the app's own
      'src/server.ts': `
import { join } from 'node:path';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';

const app = Fastify();
await app.register(swagger, { openapi: { info: { title: 'Control plane', version: '1.0.0' } } });
app.register(fastifyStatic, { root: join(process.cwd(), 'app', 'dist'), prefix: '/' });
app.get('/', (_request, reply) => reply.sendFile('index.html'));
`,
      // under a plugin's prefix and hook (fastify-plugin keeps its routes there), a slash put after
      // the prefix and the prefix itself a redirect; one with the slash left off, published in the docs
      'src/admin.ts': `
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { fastifyStatic } from '@fastify/static';
import { requireOpsToken } from './ops-token.js';

const admin = Fastify();
await admin.register(swagger, { openapi: { info: { title: 'Operations', version: '1.0.0' } } });
admin.register(async (ops) => {
  ops.addHook('onRequest', requireOpsToken);
  await ops.register(fastifyStatic, { root: '/srv/reports', prefix: '/reports', redirect: true });
}, { prefix: '/ops' });
admin.register(fastifyStatic, { root: '/srv/exports', prefix: '/internal/exports', prefixAvoidTrailingSlash: true, schemaHide: false, decorateReply: false });
`,
      // no route (serve: false, only reply.sendFile), a route per file found when the server starts, a prefix not known statically
      'src/worker.ts': `
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';

const worker = Fastify();
worker.register(fastifyStatic, { root: '/srv/templates', serve: false });
const assets = Fastify();
assets.register(fastifyStatic, { root: '/srv/assets', wildcard: false });
const cdn = Fastify();
cdn.register(fastifyStatic, { root: '/srv/cdn', prefix: process.env.CDN_PREFIX });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /',
      'GET /*',
      'HEAD /*',
      'GET /internal/exports*',
      'HEAD /internal/exports*',
      'GET /ops/reports requireOpsToken:auth+bearer',
      'GET /ops/reports/* requireOpsToken:auth+bearer',
      'HEAD /ops/reports/* requireOpsToken:auth+bearer',
    ]);
    expect(res.routes.filter((r) => r.handler === '@fastify/static').map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /* src/server.ts:9',
      'HEAD /* src/server.ts:9',
      'GET /internal/exports* src/admin.ts:13',
      'HEAD /internal/exports* src/admin.ts:13',
      'GET /ops/reports src/admin.ts:11',
      'GET /ops/reports/* src/admin.ts:11',
      'HEAD /ops/reports/* src/admin.ts:11',
    ]);
    // (only the routes schemaHide: false leaves in the docs are published there)
    expect(findingRows(res.findings.filter((f) => (f.ruleId === 'excluded-family-leak' && f.message.includes('published')) || f.ruleId === 'unresolved-route'))).toEqual([
      'src/admin.ts:13:1 error excluded-family-leak GET /internal/exports* is in the excluded family "internal" but is published in generated API docs by @fastify/swagger (hide it with schema: { hide: true } in the route options)',
      'src/admin.ts:13:1 error excluded-family-leak HEAD /internal/exports* is in the excluded family "internal" but is published in generated API docs by @fastify/swagger (hide it with schema: { hide: true } in the route options)',
      'src/worker.ts:8:1 warning unresolved-route the files it serves (`wildcard: false`: a route for each file found under its root when the server starts) is not known statically; the routes @fastify/static declares are left out',
      'src/worker.ts:10:1 warning unresolved-route a path @fastify/static serves is not known statically (property CDN_PREFIX of a value not known statically); its routes are left out',
    ]);
  });

  it("@fastify/swagger-ui serves its page, its document and its assets under routePrefix, in a child of the registering context, behind uiHooks", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', '@fastify/swagger': '^9.0.0', '@fastify/swagger-ui': '^5.2.0' } }),
      'src/ops-token.ts': `export async function requireOpsToken(request, reply) { if (request.headers['x-ops-token'] !== process.env.OPS_TOKEN) return reply.code(401).send(); }`,
      // the dashboard's server: the UI at its default prefix, next to the app's own routes
      'src/server.ts': `
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

const app = Fastify();
await app.register(swagger, { openapi: { info: { title: 'Control plane', version: '1.0.0' } } });
await app.register(swaggerUi);
app.get('/api/health/ready', async () => ({ ok: true }));
`,
      // the operations server: the UI under the internal plugin's prefix and hook, its own hooks (onRequest, preHandler) added, another hook not read
      'src/admin.ts': `
import Fastify from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import { requireOpsToken } from './ops-token.js';

async function denyAnonymous(request, reply) { if (!request.headers.authorization) return reply.code(401).send(); }
async function sameTenant(request, reply) { if (request.params.tenantId !== request.user.tenantId) return reply.code(404).send(); }

const admin = Fastify();
admin.register(async (internal) => {
  internal.addHook('onRequest', requireOpsToken);
  await internal.register(swaggerUi, { routePrefix: '/docs', baseDir: '/srv/specs', uiHooks: { preHandler: denyAnonymous, preValidation: sameTenant } });
}, { prefix: '/internal' });
admin.register(swaggerUi, { routePrefix: process.env.DOCS_PREFIX });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/health/ready',
      'GET /documentation (both forms)',
      'GET /documentation/json',
      'GET /documentation/static/*',
      'GET /documentation/static/index.html',
      'GET /documentation/static/swagger-initializer.js',
      'GET /documentation/yaml',
      // (uiHooks' preHandler guards them; its preValidation is not one the package passes on)
      'GET /internal/docs (both forms) requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
      'GET /internal/docs/* requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
      'GET /internal/docs/json requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
      'GET /internal/docs/static/* requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
      'GET /internal/docs/static/index.html requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
      'GET /internal/docs/static/swagger-initializer.js requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
      'GET /internal/docs/yaml requireOpsToken:auth+bearer denyAnonymous:auth+bearer',
    ]);
    expect(new Set(res.routes.filter((r) => r.path.includes('doc')).map((r) => `${r.handler} ${r.file}:${r.line} ${r.apiDocs ? 'published' : 'hidden'}`))).toEqual(
      new Set(['@fastify/swagger-ui src/server.ts:8 hidden', '@fastify/swagger-ui src/admin.ts:12 hidden']),
    );
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/admin.ts:14:1 warning unresolved-route the routePrefix of @fastify/swagger-ui is not known statically (property DOCS_PREFIX of a value not known statically); its routes are left out',
    ]);
  });

  it("Palmr's documentation plugins: @fastify/swagger-ui by its named export, and @scalar/fastify-api-reference's page, script and documents where it is registered (it skips encapsulation), behind its hooks", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', '@fastify/swagger': '^9.0.0', '@fastify/swagger-ui': '^5.2.0', '@scalar/fastify-api-reference': '^1.28.0' } }),
      'src/app.ts': `
import { fastify } from 'fastify';
import { fastifySwagger } from '@fastify/swagger';
import { fastifySwaggerUi } from '@fastify/swagger-ui';

async function staffOnly(request, reply) { if (!request.headers.authorization) return reply.code(401).send(); }

const app = fastify();
app.register(fastifySwagger, { openapi: { info: { title: 'API', version: '1.0.0' } } });
app.register(fastifySwaggerUi, { routePrefix: '/swagger' });
app.register(require('@scalar/fastify-api-reference'), { routePrefix: '/docs/' });
app.register(async (internal) => {
  await internal.register(import('@scalar/fastify-api-reference'), { openApiDocumentEndpoints: { json: '/spec.json' }, hooks: { onRequest: staffOnly } });
}, { prefix: '/internal' });
app.get('/health', async () => ({ status: 'ok' }));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /docs',
      'GET /docs/',
      'GET /docs/js/scalar.js',
      'GET /docs/openapi.json',
      'GET /docs/openapi.yaml',
      'GET /health',
      'GET /internal/reference staffOnly:auth+bearer+family',
      'GET /internal/reference/ staffOnly:auth+bearer+family',
      'GET /internal/reference/js/scalar.js staffOnly:auth+bearer+family',
      'GET /internal/reference/openapi.yaml staffOnly:auth+bearer+family',
      'GET /internal/reference/spec.json staffOnly:auth+bearer+family',
      'GET /swagger (both forms)',
      'GET /swagger/json',
      'GET /swagger/static/*',
      'GET /swagger/static/index.html',
      'GET /swagger/static/swagger-initializer.js',
      'GET /swagger/yaml',
    ]);
  });

  it('mercurius, @as-integrations/fastify and the tRPC plugin (a route per procedure) serve their endpoints where they are registered, behind the hooks of that context', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', mercurius: '^16.0.0', '@apollo/server': '^4.11.0', '@as-integrations/fastify': '^2.1.1', '@trpc/server': '^11.0.0' } }),
      'src/session.ts': `export async function requireSession(request, reply) { if (!request.session?.userId) return reply.code(401).send(); }`,
      'src/server.ts': `
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { ApolloServer } from '@apollo/server';
import { fastifyApollo as apolloPlugin } from '@as-integrations/fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { appRouter, createContext } from './trpc.js';
import { requireSession } from './session.js';
import { schema, resolvers } from './schema.js';

const app = Fastify();
await app.register(mercurius, { schema, resolvers, graphiql: true });
app.register(async (api) => {
  api.addHook('onRequest', requireSession);
  await api.register(mercurius, { schema, resolvers, prefix: '/v2', path: '/query', graphiql: process.env.GRAPHIQL === 'on', csrfPrevention: true });
  await api.register(fastifyTRPCPlugin, { prefix: '/trpc', useWSS: true, trpcOptions: { router: appRouter, createContext } });
  const apollo = new ApolloServer({ schema });
  await apollo.start();
  await api.register(apolloPlugin(apollo), { path: '/apollo', method: ['POST'] });
}, { prefix: '/api' });
await app.register(mercurius, { schema, routes: false });
`,
      'src/trpc.ts': `import { initTRPC } from '@trpc/server';
const t = initTRPC.create();
export const appRouter = t.router({
  ping: t.procedure.query(() => 'pong'),
  save: t.procedure.mutation(() => true),
});
export const createContext = () => ({});
`,
      'src/schema.ts': "export const schema = 'type Query { ok: Boolean }';\nexport const resolvers = {};\n",
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'POST /api/apollo @as-integrations/fastify src/server.ts:19 [requireSession, ApolloServer csrfPrevention]',
      'GET /api/trpc @trpc/server/adapters/fastify src/server.ts:16 [requireSession]',
      // (a route per procedure of the plugin's router, named and located as the procedure)
      'GET /api/trpc/ping ping src/trpc.ts:4 [requireSession]',
      'POST /api/trpc/save save src/trpc.ts:5 [requireSession]',
      // (csrfPrevention: true, mercurius's own check, off by default)
      'GET /api/v2/query mercurius src/server.ts:15 [requireSession, mercurius csrfPrevention]',
      'POST /api/v2/query mercurius src/server.ts:15 [requireSession, mercurius csrfPrevention]',
      'GET /graphiql mercurius src/server.ts:12 []',
      'GET /graphiql/config.js mercurius src/server.ts:12 []',
      'GET /graphiql/main.js mercurius src/server.ts:12 []',
      'GET /graphiql/sw.js mercurius src/server.ts:12 []',
      'GET /graphql mercurius src/server.ts:12 []',
      'POST /graphql mercurius src/server.ts:12 []',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      "src/server.ts:15:9 warning unresolved-route whether mercurius serves its GraphiQL page is not known statically (process.env.GRAPHIQL === 'on'); those routes are left out",
    ]);
  });

  it('@fastify/http-proxy serves its routes for its methods under its prefix, in a child of the registering context, behind preHandler and preValidation', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', '@fastify/http-proxy': '^11.0.0' } }),
      'src/ops-token.ts': `export async function requireOpsToken(request, reply) { if (request.headers['x-ops-token'] !== process.env.OPS_TOKEN) return reply.code(401).send(); }
export async function requireSession(request, reply) { if (!request.session?.userId) return reply.code(401).send(); }`,
      'src/server.ts': `
import Fastify from 'fastify';
import proxy from '@fastify/http-proxy';
import { requireOpsToken, requireSession } from './ops-token.js';

const app = Fastify();
// the billing service's internal API, every method, nothing in front of it
app.register(proxy, { upstream: 'http://billing.internal:8080', prefix: '/internal/billing' });
// the search service, read-only, behind the session check
app.register(proxy, { upstream: 'http://search:7700', prefix: '/api/search', httpMethods: ['get'], routes: ['/'], preHandler: requireSession });
app.register(async (ops) => {
  ops.addHook('onRequest', requireOpsToken);
  ops.register(proxy, { upstream: 'http://grafana:3000', prefix: '/grafana', httpMethods: ['GET', 'POST'], preValidation: [requireSession] });
}, { prefix: '/ops' });
app.register(proxy, { upstream: 'http://x', prefix: process.env.PROXY_PREFIX });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/search (both forms) requireSession:auth',
      'DELETE /internal/billing (both forms)',
      'GET /internal/billing (both forms)',
      'HEAD /internal/billing (both forms)',
      'OPTIONS /internal/billing (both forms)',
      'PATCH /internal/billing (both forms)',
      'POST /internal/billing (both forms)',
      'PUT /internal/billing (both forms)',
      'DELETE /internal/billing/*',
      'GET /internal/billing/*',
      'HEAD /internal/billing/*',
      'OPTIONS /internal/billing/*',
      'PATCH /internal/billing/*',
      'POST /internal/billing/*',
      'PUT /internal/billing/*',
      'GET /ops/grafana (both forms) requireOpsToken:auth+bearer requireSession:auth',
      'POST /ops/grafana (both forms) requireOpsToken:auth+bearer requireSession:auth',
      'GET /ops/grafana/* requireOpsToken:auth+bearer requireSession:auth',
      'POST /ops/grafana/* requireOpsToken:auth+bearer requireSession:auth',
    ]);
    expect(new Set(res.routes.map((r) => `${r.handler} ${r.file}:${r.line}`))).toEqual(
      new Set(['@fastify/http-proxy src/server.ts:8', '@fastify/http-proxy src/server.ts:10', '@fastify/http-proxy src/server.ts:13']),
    );
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/server.ts:15:1 warning unresolved-route the prefix of @fastify/http-proxy is not known statically; its routes are left out',
    ]);
  });

  it("@fastify/bearer-auth adds its bearer check as an onRequest hook of the context registering it (preParsing when told; none with addHook: false); @fastify/passport's session strategy and secureSession() refuse nothing", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', '@fastify/bearer-auth': '^10.1.3', '@fastify/passport': '^4.0.3', '@fastify/secure-session': '^8.0.0' } }),
      'src/server.ts': `
import Fastify from 'fastify';
import bearerAuthPlugin from '@fastify/bearer-auth';
import fastifyPassport from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';

const keys = new Set([process.env.API_KEY!]);
const app = Fastify();
app.register(fastifySecureSession, { key: Buffer.from(process.env.SESSION_KEY!, 'hex') });
app.register(fastifyPassport.initialize());
app.register(fastifyPassport.secureSession());
app.get('/api/sites', async () => []);
app.get('/api/me', { preValidation: fastifyPassport.authenticate('session') }, async (request) => request.user);
app.register(async (internal) => {
  internal.register(bearerAuthPlugin, { keys });
  internal.get('/tokens', async () => []);
}, { prefix: '/internal' });
app.register(async (uploads) => {
  uploads.register(bearerAuthPlugin, { keys, addHook: 'preParsing' });
  uploads.post('/files', async () => ({}));
}, { prefix: '/uploads' });
app.register(async (manual) => {
  manual.register(bearerAuthPlugin, { keys, addHook: false });
  manual.get('/status', async () => ({}));
}, { prefix: '/manual' });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/me',
      'GET /api/sites',
      'GET /internal/tokens bearerAuthPlugin:auth+bearer',
      'GET /manual/status',
      'POST /uploads/files bearerAuthPlugin:auth+bearer',
    ]);
  });

  it('@fastify/swagger publishes what its hiddenTag / hideUntagged options do not hide', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PKG,
      'src/app.ts': `
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { requireServiceToken } from './token.js';

const app = Fastify();
await app.register(swagger, { hiddenTag: 'private', hideUntagged: true });
app.register(async (internal) => {
  internal.addHook('onRequest', requireServiceToken);
  internal.post('/jobs', { schema: { tags: ['private'] } }, async () => ({}));
  internal.post('/reindex', async () => ({}));
  internal.post('/compiler/flush', { schema: { tags: ['jobs'] } }, async () => ({}));
}, { prefix: '/internal' });
`,
      'src/token.ts': `export async function requireServiceToken(request, reply) { if (request.headers['x-service-token'] !== process.env.TOKEN) return reply.code(401).send(); }`,
    });
    const res = await check(dir);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak'))).toEqual([
      'src/app.ts:12:3 error excluded-family-leak POST /internal/compiler/flush is in the excluded family "internal" but is published in generated API docs by @fastify/swagger (hide it with schema: { hide: true } in the route options)',
    ]);
  });
});

describe('@fastify/jwt: request.jwtVerify() reads the Authorization header unless a cookie is registered (jwt.js lookupToken, 8.0)', () => {
  /** A server verifying the token in a decorated `authenticate` and in a plugin's hook, @fastify/jwt registered with `options`. */
  const server = (options: string): string =>
    writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^4.28.0', '@fastify/jwt': '^8.0.0', '@fastify/cookie': '^9.0.0' } }),
      'src/server.ts': `import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';

export const server = Fastify();
server.register(cookie);
server.register(jwt, ${options});

server.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
  try {
    await request.jwtVerify();
  } catch (err) {
    reply.send(err);
  }
});

server.post('/api/me/avatar', { onRequest: [server.authenticate] }, async () => ({ ok: true }));

server.register(
  async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      try {
        await request.jwtVerify();
      } catch (err) {
        reply.send(err);
      }
    });
    api.delete('/sites/:siteId', async () => ({ ok: true }));
  },
  { prefix: '/api' },
);
`,
    });
  const kinds = async (dir: string): Promise<string[]> => {
    const res = await check(dir);
    return [
      ...res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]`),
      ...res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => f.message),
    ];
  };

  it('registered with a secret alone, or a token extractor reading the Authorization header: bearer auth, so no CSRF guard is needed', async () => {
    for (const options of [
      "{ secret: process.env.JWT_SECRET ?? 'dev' }",
      // the realworld example's `Token` scheme
      "{ secret: 'dev', verify: { extractToken: (request: FastifyRequest) => request.headers.authorization?.replace(/^Token /, '') } }",
    ]) {
      expect(await kinds(server(options))).toEqual([
        'POST /api/me/avatar [server.authenticate: auth+bearer]',
        'DELETE /api/sites/:siteId [(inline middleware): auth+bearer]',
      ]);
    }
  });

  it('registered with a cookie, or a token extractor of its own: the browser may send the token by itself', async () => {
    for (const options of ["{ secret: 'dev', cookie: { cookieName: 'token', signed: false } }", "{ secret: 'dev', verify: { extractToken: (request: FastifyRequest) => request.cookies.token } }"]) {
      expect(await kinds(server(options))).toEqual([
        'POST /api/me/avatar [server.authenticate: auth]',
        'DELETE /api/sites/:siteId [(inline middleware): auth]',
        'POST /api/me/avatar changes state on the browser session without a CSRF guard',
        'DELETE /api/sites/:siteId changes state on the browser session without a CSRF guard',
      ]);
    }
  });

  it('an app-wide hook awaiting request.jwtVerify() with no try around it (its rejection is the answer, 401) guards the routes, but the paths it lets through first', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^4.28.0', '@fastify/jwt': '^8.0.0' } }),
      'src/server.ts': `import Fastify from 'fastify';
import jwt from '@fastify/jwt';

const server = Fastify();
server.register(jwt, { secret: process.env.JWT_SECRET ?? 'dev' });
server.addHook('onRequest', async (request) => {
  if (request.url.startsWith('/public')) return;
  await request.jwtVerify();
});
server.get('/public/status', async () => ({ ok: true }));
server.get('/api/sites', async () => ({ items: [] }));
server.listen({ port: 3000 });
`,
    });
    // (read as a call whose answer is let go: no guard, missing-auth-guard on /api/sites)
    expect(await kinds(dir)).toEqual(['GET /api/sites [(inline middleware): auth+bearer]', 'GET /public/status []']);
  });
});
