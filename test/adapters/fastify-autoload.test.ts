/**
 * @fastify/autoload and fastify-cli's `fastify start`, on fixtures/fastify-autoload (a control plane laid out the way
 * fastify-cli generates one: plugins/ and routes/ loaded by directory, autohooks.ts files)
 * and on small projects for single options. Expectations derived by hand from
 * @fastify/autoload 6.3.1 (index.js, lib/find-plugins.js) and Fastify's encapsulation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { AUTOLOAD_DEFAULTS, autoloadTree, commonPrefix, pluginPrefix, type AutoloadOptions } from '../../src/adapters/fastify/autoload.js';
import { fastifyStarts } from '../../src/adapters/fastify/cli.js';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeRows, row } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

const FIXTURE = path.join(ROOT, 'fixtures', 'fastify-autoload');
const R = 'src/routes/';
const SESSION = 'fastify.requireSession'; // decorated by plugins/app/session-auth.ts, loaded by autoload
const TENANT = 'ensureMembership';
const CSRF = 'fastify.csrfProtection';
const API = { auth: [SESSION], tenant: [TENANT] };
const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

/** A copy of the fixture to edit. */
function copy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-autoload-'));
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** "METHOD path guards…" for compact assertions on small projects. */
function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.guards.length ? ' ' + r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ') : ''}`);
}
const warnings = (res: Awaited<ReturnType<typeof check>>): string[] => findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'));

const PKG = JSON.stringify({ name: 'x', type: 'module', dependencies: { fastify: '^5.0.0', '@fastify/autoload': '^6.3.1', 'fastify-plugin': '^5.0.0' } });
const GUARDS = `
export async function requireSession(request, reply) {
  if (!request.session?.user) return reply.code(401).send({ error: 'unauthenticated' });
}
export async function requireAccount(request, reply) {
  if (!request.session?.user) return reply.code(401).send({ error: 'unauthenticated' });
}
`;
/** An app registering autoload with `options` (a literal of the call's second argument). */
const app = (options: string, dir = `path.join(import.meta.dirname, 'routes')`) => `
import path from 'node:path';
import Fastify from 'fastify';
import autoload from '@fastify/autoload';
const app = Fastify();
app.register(autoload, { dir: ${dir}${options ? ', ' + options : ''} });
await app.listen({ port: 3000 });
`;
const route = (url: string) => `export default async function (fastify) {\n  fastify.get('${url}', async () => ({ ok: true }));\n}\n`;
const hooks = (guard: string) => `import { ${guard} } from '../guards.js';\nexport default async function (fastify) {\n  fastify.addHook('onRequest', ${guard});\n}\n`;

describe('fixtures/fastify-autoload', () => {
  it('lists every route autoload registers, with its directory prefix and the hooks of its directories', async () => {
    const res = await check(FIXTURE);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me/', 'contract', `${R}api/auth/me.ts:6:3`, API, 'GET /api/auth/me/'),
      // autoPrefix replaces the directory prefix; the hooks of routes/api still apply
      row('GET /api/databases', 'contract', `${R}api/databases.ts:8:3`, API, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', `${R}api/deployments/index.ts:10:3`, API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${R}api/deployments/index.ts:19:3`, { ...API, csrf: [CSRF] }),
      row('GET /api/deployments/:deploymentId', 'browser', `${R}api/deployments/index.ts:12:3`, API),
      // routes/health is outside routes/api: no hooks, under the prefix its autoPrefix names
      row('GET /api/health/ready', 'public', `${R}health/index.ts:9:3`, {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', `${R}api/sites/index.ts:17:3`, API, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${R}api/sites/index.ts:29:3`, { ...API, csrf: [CSRF] }),
      row('DELETE /api/sites/:siteId', 'browser', `${R}api/sites/index.ts:34:3`, { ...API, csrf: [CSRF] }),
      row('GET /api/sites/:siteId', 'browser', `${R}api/sites/index.ts:22:3`, API),
      // registered by index.ts only: autoload skips the other files of a directory with an index
      row('GET /api/sites/exports/:siteId', 'browser', `${R}api/sites/exports.ts:6:3`, API),
      row('POST /internal/compiler/rebuild', 'excluded:internal', `${R}internal/index.ts:6:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('GET /internal/sites/:siteId/usage', 'excluded:internal', `${R}internal/index.ts:12:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
      row('POST /webhooks/stripe', 'excluded:webhook', `${R}webhooks/stripe.ts:7:3`, { family: ['verifyStripeSignature'] }),
    ]);
    const me = res.routes.find((r) => r.path === '/api/auth/me/')!;
    expect(me.prefixes).toEqual([{ prefix: '/api/auth', file: 'src/app.ts', line: 23 }]);
  });

  it('reports only the uncontracted browser routes', async () => {
    const res = await check(FIXTURE);
    expect(findingRows(res.findings)).toEqual([
      `${R}api/deployments/index.ts:12:3 info uncontracted-route ${outside('GET /api/deployments/:deploymentId')}`,
      `${R}api/deployments/index.ts:19:3 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${R}api/sites/exports.ts:6:3 info uncontracted-route ${outside('GET /api/sites/exports/:siteId')}`,
      `${R}api/sites/index.ts:22:3 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${R}api/sites/index.ts:29:3 info uncontracted-route ${outside('POST /api/sites')}`,
      `${R}api/sites/index.ts:34:3 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
    expect(res.summary).toEqual({ files: 26, routes: 14, errors: 0, warnings: 0, infos: 6 });
  });

  it('@fastify/swagger loaded by autoload publishes an internal route whose schema does not hide it', async () => {
    const dir = copy();
    const file = path.join(dir, 'src/routes/internal/index.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("'/compiler/rebuild', { schema: { hide: true } }", "'/compiler/rebuild', {}"));
    const res = await check(dir);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak'))).toEqual([
      `${R}internal/index.ts:6:3 error excluded-family-leak POST /internal/compiler/rebuild is in the excluded family "internal" but is published in generated API docs by @fastify/swagger (hide it with schema: { hide: true } in the route options)`,
    ]);
  });

  it('a file moved to another directory takes that directory prefix and hooks; a warm run links again', async () => {
    const dir = copy();
    const cached = () => run({ cwd: dir, paths: [], cache: true });
    await cached();
    fs.renameSync(path.join(dir, 'src/routes/health'), path.join(dir, 'src/routes/api/health'));
    const warm = await cached();
    expect(warm.extraction.reused).toBe(false);
    expect(formatJson(warm)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
    // autoPrefix still names the whole prefix, but the hooks of routes/api now run first
    expect(warm.routes.find((r) => r.path === '/api/health/ready')!.guards.map((g) => g.name)).toEqual([SESSION, TENANT]);
  });
});

describe('@fastify/autoload on small projects', () => {
  it('hooks apply to their directory, below it only with cascadeHooks; overwriteHooks replaces the inherited ones', async () => {
    const files = (options: string) => ({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': app(options),
      'src/routes/autohooks.ts': hooks('requireSession'),
      'src/routes/sites.ts': route('/sites'),
      'src/routes/admin/autohooks.ts': hooks('requireAccount').replace("'../guards.js'", "'../../guards.js'"),
      'src/routes/admin/users.ts': route('/users'),
    });
    expect(lines(await check(writeProject(files('autoHooks: true'))))).toEqual(['GET /admin/users requireAccount:auth', 'GET /sites requireSession:auth']);
    expect(lines(await check(writeProject(files('autoHooks: true, cascadeHooks: true'))))).toEqual(['GET /admin/users requireSession:auth requireAccount:auth', 'GET /sites requireSession:auth']);
    expect(lines(await check(writeProject(files('autoHooks: true, cascadeHooks: true, overwriteHooks: true'))))).toEqual(['GET /admin/users requireAccount:auth', 'GET /sites requireSession:auth']);
    // without autoHooks a hooks file is neither a hook nor a plugin
    expect(lines(await check(writeProject(files(''))))).toEqual(['GET /admin/users', 'GET /sites']);
  });

  it("a hook's allowlist by request.url.startsWith lets the routes it names through", async () => {
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/app.ts': app('autoHooks: true'),
        'src/routes/autohooks.ts': `
export default async function (fastify) {
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/auth/login') || (request.url.startsWith('/public/') && request.method === 'GET')) return;
    if (!request.session.user) return reply.code(401).send({ error: 'unauthenticated' });
  });
}
`,
        'src/routes/auth.ts': `export default async function (fastify) {\n  fastify.post('/auth/login', async () => ({}));\n  fastify.post('/auth/logout', async () => ({}));\n}\n`,
        'src/routes/public.ts': `export default async function (fastify) {\n  fastify.get('/public/:slug', async () => ({}));\n  fastify.post('/public/:slug', async () => ({}));\n}\n`,
      }),
    );
    expect(lines(res)).toEqual(['POST /auth/login', 'POST /auth/logout (inline middleware):auth', 'GET /public/:slug', 'POST /public/:slug (inline middleware):auth']);
  });

  it('reads dir built from the module location in every usual way; other dirs are reported', async () => {
    const dirs = [
      `fileURLToPath(new URL('./routes/', import.meta.url))`,
      `fileURLToPath(new URL('routes', import.meta.url))`,
      `path.join(path.dirname(fileURLToPath(import.meta.url)), 'routes')`,
      `path.join(path.dirname(new URL(import.meta.url).pathname), 'routes')`,
      `new URL('./routes/', import.meta.url).pathname`,
      `path.resolve(here, './routes')`,
      `path.join(process.cwd(), 'src/routes')`,
    ];
    for (const dir of dirs) {
      const res = await check(
        writeProject({
          'package.json': PKG,
          'src/app.ts': `import { fileURLToPath } from 'node:url';\nconst here = path.dirname(fileURLToPath(import.meta.url));\n${app('', dir)}`,
          'src/routes/sites.ts': route('/sites'),
        }),
      );
      expect({ dir, routes: lines(res), warnings: warnings(res) }).toEqual({ dir, routes: ['GET /sites'], warnings: [] });
    }
    const cjs = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^5.0.0', '@fastify/autoload': '^6.3.1' } }),
        'app.js': `'use strict'\nconst path = require('node:path')\nconst AutoLoad = require('@fastify/autoload')\nconst app = require('fastify')()\napp.register(AutoLoad, { dir: path.join(__dirname, 'routes'), options: Object.assign({}, { prefix: '/v1' }) })\n`,
        'routes/sites/index.js': `module.exports = async function (fastify) {\n  fastify.get('/', async () => [])\n}\n`,
        'routes/legacy.js': `module.exports = async function (fastify) {\n  fastify.get('/ping', async () => 'pong')\n}\nmodule.exports.autoPrefix = '/old'\n`,
      }),
    );
    expect(lines(cjs)).toEqual(['GET /v1/old/ping', 'GET /v1/sites']);
    const unknown = await check(
      writeProject({
        'package.json': PKG,
        'src/app.ts': app('', `'routes'`).replace("app.register(autoload, { dir: 'routes' });", "app.register(autoload, { dir: 'routes' });\napp.register(autoload, { dir: new URL('./routes/', import.meta.url) });\napp.register(autoload, { dir: path.join(import.meta.dirname, 'plugins') });\napp.register(autoload, { dir: path.join(import.meta.dirname, 'routes'), autoHooks: process.env.HOOKS === '1' });\napp.register(autoload, { dir: path.join(import.meta.dirname, 'routes'), ignorePattern: '(unclosed' });"),
        'src/routes/sites.ts': route('/sites'),
      }),
    );
    expect(lines(unknown)).toEqual([]);
    expect(warnings(unknown)).toEqual([
      "src/app.ts:6:1 warning unresolved-route the files @fastify/autoload loads are not known statically (dir: 'routes' is read relative to the directory the server is started in); the routes they register are left out",
      'src/app.ts:7:1 warning unresolved-route the files @fastify/autoload loads are not known statically (dir: a URL; autoload takes a path: fileURLToPath(url)); the routes they register are left out',
      'src/app.ts:8:1 warning unresolved-route @fastify/autoload loads src/plugins, which holds no analysed plugin file',
      "src/app.ts:9:1 warning unresolved-route the files @fastify/autoload loads are not known statically (autoHooks: process.env.HOOKS === '1'); the routes they register are left out",
      'src/app.ts:10:1 warning unresolved-route the files @fastify/autoload loads are not known statically (ignorePattern: not a valid regular expression); the routes they register are left out',
      // nothing else registers that plugin
      "src/routes/sites.ts:2:3 warning unresolved-route routes registered on the parameter 'fastify' of a function() whose callers pass no router known statically; their prefix is unknown",
    ]);
  });

  it("reads dir built by a helper of the code (`getDirName(import.meta.url)`) and a matchFilter that is a function of the path (its tests joined by `&&`, `||`, `!` too); one whose answer is not known is reported", async () => {
    const files = (matchFilter: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'x', type: 'module', imports: { '#*': './src/*' }, dependencies: { fastify: '^5.0.0', '@fastify/autoload': '^6.3.1' } }),
        'src/libs/files.ts': `import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const getDirName = (importMetaUrl: string): string => dirname(fileURLToPath(importMetaUrl));
`,
        'src/app.ts': `import path from 'node:path';
import autoload from '@fastify/autoload';
import Fastify from 'fastify';
import { getDirName } from '#libs/files.ts';

const app = Fastify();
app.register(autoload, {
  dir: path.join(getDirName(import.meta.url), 'modules'),
  matchFilter: ${matchFilter},
  options: { prefix: '/v1' },
});
`,
        'src/modules/users/users.router.v1.ts': `export default async function usersRouter(app) {
  app.get('/users', async () => []);
}
`,
        'src/modules/users/users.schemas.ts': `export default async function notARouter(app) {
  app.get('/schemas', async () => []);
}
`,
      });
    const filtered = await check(files(`(p: string) => p.endsWith('.router.v1.ts')`));
    // (the file the filter leaves out registers its routes nowhere: so says its warning)
    expect({ routes: lines(filtered), warnings: warnings(filtered) }).toEqual({
      routes: ['GET /v1/users/users'],
      warnings: ["src/modules/users/users.schemas.ts:2:3 warning unresolved-route routes registered on the parameter 'app' of notARouter() whose callers pass no router known statically; their prefix is unknown"],
    });
    // tests joined by `&&`, `||` and `!` (256Taras' starter kit's second autoload), in either body
    for (const chained of [
      `(p: string) => p.endsWith('.ts') && !p.includes('schemas') && !p.endsWith('.test.ts')`,
      `(p: string) => { return p.endsWith('.router.v1.ts') || p.endsWith('.router.v2.ts'); }`,
    ]) {
      const read = await check(files(chained));
      expect({ routes: lines(read), warnings: warnings(read) }).toEqual({
        routes: ['GET /v1/users/users'],
        warnings: ["src/modules/users/users.schemas.ts:2:3 warning unresolved-route routes registered on the parameter 'app' of notARouter() whose callers pass no router known statically; their prefix is unknown"],
      });
    }
    const unknown = await check(files(`(p: string) => p.endsWith(process.env.ROUTER_SUFFIX ?? '.ts')`));
    expect(lines(unknown)).toEqual([]);
    expect(warnings(unknown)).toEqual([
      'src/app.ts:7:1 warning unresolved-route the files @fastify/autoload loads are not known statically (matchFilter or ignoreFilter: a function whose answer is not known statically); the routes they register are left out',
      "src/modules/users/users.router.v1.ts:2:3 warning unresolved-route routes registered on the parameter 'app' of usersRouter() whose callers pass no router known statically; their prefix is unknown",
      "src/modules/users/users.schemas.ts:2:3 warning unresolved-route routes registered on the parameter 'app' of notARouter() whose callers pass no router known statically; their prefix is unknown",
    ]);
  });

  it('options.prefix comes before the directory prefix; routeParams makes _name directories parameters', async () => {
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/app.ts': `
import path from 'node:path';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import autoload from '@fastify/autoload';
async function serviceApp(fastify, opts) {
  fastify.register(autoload, { dir: path.join(import.meta.dirname, 'routes'), routeParams: true, options: { ...opts } });
}
const app = Fastify();
app.register(fp(serviceApp), { prefix: '/api/' });
`,
        'src/routes/orgs/_orgId/sites.ts': route('/sites'),
        'src/routes/orgs/index.ts': route('/'),
      }),
    );
    expect(lines(res)).toEqual(['GET /api/orgs', 'GET /api/orgs/:orgId/sites']);
  });

  it('an options.prefix not known statically is a step of the prefixes of the plugins it applies to', async () => {
    // fastify-realworld-example-app's shape: `options: config`, config.prefix read from the
    // environment; a fastify-plugin route ignores the prefix, a prefixOverride replaces it
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/guards.ts': GUARDS,
        'src/app.ts': `
import path from 'node:path';
import Fastify from 'fastify';
import autoload from '@fastify/autoload';
const config = { prefix: process.env.API_PREFIX, db: 'postgres://localhost/app' };
const app = Fastify();
app.register(autoload, { dir: path.join(import.meta.dirname, 'routes'), autoHooks: true, options: config });
await app.listen({ port: 3000 });
`,
        'src/routes/sites/index.ts': route('/'),
        'src/routes/sites/autohooks.ts': hooks('requireSession'),
        'src/routes/shared.ts': `import fp from 'fastify-plugin';\nexport default fp(async function (fastify, opts) {\n  fastify.get('/health', async () => ({ ok: true }));\n  fastify.post(opts.prefix + 'users/login', async () => ({}));\n});\n`,
        'src/routes/fixed.ts': `export const prefixOverride = '/fixed';\n${route('/here')}`,
      }),
    );
    const head = 'options.prefix: property API_PREFIX of a value not known statically';
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.prefixes.map((p) => p.unknown ?? p.prefix).join(' ')}`.trim())).toEqual([
      'GET /fixed/here /fixed',
      'GET /health',
      `GET /sites ${head}`,
    ]);
    expect(lines(res)).toContain('GET /sites requireSession:auth');
    expect(warnings(res)).toEqual([
      `src/app.ts:7:1 warning unresolved-route the prefix of the plugins @fastify/autoload loads is not known statically (${head}); the routes they register are listed without it`,
      'src/routes/shared.ts:4:3 warning unresolved-route POST route with a url not known statically (template with a value not known statically); it is left out',
    ]);
  });

  it('encapsulate: false runs every file in the registering context: no directory prefix, hooks shared', async () => {
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/guards.ts': GUARDS,
        'src/app.ts': app('encapsulate: false'),
        'src/routes/a/session.ts': `import { requireSession } from '../../guards.js';\nexport default async function (fastify) {\n  fastify.addHook('onRequest', requireSession);\n}\n`,
        'src/routes/b/sites.ts': route('/sites'),
      }),
    );
    expect(lines(res)).toEqual(['GET /sites requireSession:auth']);
  });

  it('skips files that export autoload = false or no default; reports a default export it cannot follow', async () => {
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/app.ts': app(''),
        'src/routes/off.ts': `${route('/off')}export const autoload = false;\n`,
        'src/routes/helpers.ts': `export function paginate(items) {\n  return items.slice(0, 50);\n}\n`,
        'src/routes/object.ts': `export default { method: 'GET', url: '/object', handler: async () => ({}) };\n`,
        'src/routes/sites.ts': route('/sites'),
      }),
    );
    expect(lines(res)).toEqual(['GET /sites']);
    expect(warnings(res)).toEqual([
      'src/app.ts:6:1 warning unresolved-route @fastify/autoload loads src/routes/object.ts, whose default export is not a plugin function known statically (obj); its routes are left out',
      // nothing registers that plugin
      "src/routes/off.ts:2:3 warning unresolved-route routes registered on the parameter 'fastify' of a function() whose callers pass no router known statically; their prefix is unknown",
    ]);
  });
});

describe('an app built twice', () => {
  it('(the server and a test helper registering the same app plugin) warns once per place', async () => {
    const serviceApp = `
import autoload from '@fastify/autoload';
export default async function serviceApp(fastify) {
  fastify.register(autoload, { dir: process.env.ROUTES_DIR });
}
`;
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/app.ts': serviceApp,
        'src/server.ts': `import Fastify from 'fastify';\nimport fp from 'fastify-plugin';\nimport serviceApp from './app.js';\nconst app = Fastify();\napp.register(fp(serviceApp));\n`,
        'test/helper.ts': `import Fastify from 'fastify';\nimport fp from 'fastify-plugin';\nimport serviceApp from '../src/app.js';\nexport function build() {\n  const app = Fastify();\n  app.register(fp(serviceApp));\n  return app;\n}\n`,
      }),
    );
    expect(warnings(res)).toEqual([
      'src/app.ts:4:3 warning unresolved-route the files @fastify/autoload loads are not known statically (dir: property ROUTES_DIR of a value not known statically); the routes they register are left out',
    ]);
  });

  it('lists its routes once per app, and reports each finding once', async () => {
    const res = await check(
      writeProject({
        'package.json': PKG,
        'src/app.ts': `export default async function serviceApp(fastify) {\n  fastify.get('/api/projects', async () => ({ items: [] }));\n}\n`,
        'src/server.ts': `import Fastify from 'fastify';\nimport serviceApp from './app.js';\nconst app = Fastify();\napp.register(serviceApp);\nawait app.listen({ port: 3000 });\n`,
        'test/helper.ts': `import Fastify from 'fastify';\nimport serviceApp from '../src/app.js';\nexport function build() {\n  const app = Fastify();\n  app.register(serviceApp);\n  return app;\n}\n`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/projects', 'GET /api/projects']);
    expect(findingRows(res.findings.filter((f) => f.file === 'src/app.ts'))).toEqual([
      'src/app.ts:2:3 error missing-auth-guard GET /api/projects has no auth guard',
      'src/app.ts:2:3 error missing-tenant-guard GET /api/projects has no tenant guard',
      'src/app.ts:2:3 info uncontracted-route GET /api/projects is on the browser surface but not in the contract',
    ]);
  });
});

describe('fastify start (fastify-cli)', () => {
  const cliPkg = (scripts: Record<string, string>) =>
    JSON.stringify({ name: 'api', scripts, dependencies: { fastify: '^5.0.0', 'fastify-cli': '^7.4.0', '@fastify/autoload': '^6.3.1', 'fastify-plugin': '^5.0.0' } }, null, 2);
  // app.js as `fastify generate` writes it (CommonJS): no Fastify() call anywhere
  const APP_JS = `'use strict'

const path = require('node:path')
const AutoLoad = require('@fastify/autoload')

const options = { ignoreTrailingSlash: true }

module.exports = async function (fastify, opts) {
  fastify.register(AutoLoad, { dir: path.join(__dirname, 'plugins'), options: Object.assign({}, opts) })
  fastify.register(AutoLoad, { dir: path.join(__dirname, 'routes'), options: Object.assign({}, opts) })
}

module.exports.options = options
`;
  const javascript = (scripts: Record<string, string>) => ({
    'package.json': cliPkg(scripts),
    'app.js': APP_JS,
    'plugins/session.js': `'use strict'\nconst fp = require('fastify-plugin')\nmodule.exports = fp(async function (fastify) {\n  fastify.decorate('requireSession', async function (request, reply) {\n    if (!request.session.user) return reply.code(401).send({ error: 'unauthenticated' })\n  })\n})\n`,
    'routes/sites/index.js': `'use strict'\nmodule.exports = async function (fastify) {\n  fastify.get('/', { onRequest: fastify.requireSession }, async () => [])\n  fastify.get('/:siteId', { onRequest: fastify.requireSession }, async () => ({}))\n}\n`,
    'routes/root.js': `'use strict'\nmodule.exports = async function (fastify) {\n  fastify.get('/', async () => ({ root: true }))\n}\n`,
  });
  const served = (res: Awaited<ReturnType<typeof check>>) => res.routes.map((r) => `${r.method} ${r.path}${r.trailingSlashInsensitive ? ' (both forms)' : ''}${r.guards.length ? ' ' + r.guards.map((g) => g.name).join(' ') : ''} ${r.prefixes.map((p) => `${p.prefix}@${p.file}:${p.line}`).join(' ')}`.trim());

  it('serves the file a script starts, once, under --prefix; --options applies its options export', async () => {
    const res = await check(writeProject(javascript({ start: 'fastify start -l info -x /api app.js', dev: 'fastify start -w -l info -P --prefix=/api app.js' })));
    expect(served(res)).toEqual([
      'GET /api (both forms) /api@package.json:4',
      'GET /api/sites (both forms) fastify.requireSession /api@package.json:4 /sites@app.js:10',
      'GET /api/sites/:siteId fastify.requireSession /api@package.json:4 /sites@app.js:10',
    ]);
    expect(warnings(res)).toEqual([]);
    // with -o the options export applies: ignoreTrailingSlash
    const withOptions = await check(writeProject(javascript({ start: 'fastify start -o app.js' })));
    expect(served(withOptions)).toEqual(['GET / (both forms)', 'GET /sites (both forms) fastify.requireSession /sites@app.js:10', 'GET /sites/:siteId (both forms) fastify.requireSession /sites@app.js:10']);
    // a `fastify` command that is not fastify-cli's
    const other = javascript({ start: 'fastify start app.js' });
    other['package.json'] = other['package.json'].replace('"fastify-cli": "^7.4.0",', '');
    expect(served(await check(writeProject(other)))).toEqual([]);
  });

  it('maps a build output to the source it is compiled from; reports a file it cannot find', async () => {
    const res = await check(
      writeProject({
        'package.json': cliPkg({ start: 'npm run build:ts && fastify start -l info dist/app.js', legacy: 'fastify start dist/server.js' }),
        'src/app.ts': `import { join } from 'node:path'\nimport AutoLoad from '@fastify/autoload'\nimport type { FastifyPluginAsync } from 'fastify'\n\nconst app: FastifyPluginAsync = async (fastify, opts) => {\n  void fastify.register(AutoLoad, { dir: join(__dirname, 'routes'), options: opts })\n}\n\nexport default app\n`,
        'src/routes/example/index.ts': `import type { FastifyPluginAsync } from 'fastify'\n\nconst example: FastifyPluginAsync = async (fastify) => {\n  fastify.get('/', async () => 'this is an example')\n}\n\nexport default example\n`,
      }),
    );
    expect(served(res)).toEqual(['GET /example (both forms) /example@src/app.ts:6']);
    expect(warnings(res)).toEqual([
      'package.json:5:1 warning unresolved-route the script legacy serves dist/server.js with fastify start, which is no analysed file (nor built from one); its routes are left out',
    ]);
  });

  it('reads the commands of a script', () => {
    expect(fastifyStarts('npm run build:ts && fastify start -l info dist/app.js')).toEqual([{ file: 'dist/app.js', prefix: null, options: false }]);
    expect(fastifyStarts('fastify start --ignore-watch=.ts$ -w -l info -P dist/app.js')).toEqual([{ file: 'dist/app.js', prefix: null, options: false }]);
    expect(fastifyStarts('node_modules/.bin/fastify start -wo -x/v1 app.js -- --name=x')).toEqual([{ file: 'app.js', prefix: '/v1', options: true }]);
    expect(fastifyStarts('fastify start --prefix /api --options app.js; fastify generate x')).toEqual([{ file: 'app.js', prefix: '/api', options: true }]);
    expect(fastifyStarts('env-cmd local.env fastify start index.js')).toEqual([{ file: 'index.js', prefix: null, options: false }]);
    expect(fastifyStarts('fastify generate . && node server.js')).toEqual([]);
  });
});

describe('autoloadTree (lib/find-plugins.js)', () => {
  const options = (o: Partial<AutoloadOptions> = {}): AutoloadOptions => ({
    dir: 'src/routes',
    dirNameRoutePrefix: true,
    autoHooks: true,
    cascadeHooks: false,
    overwriteHooks: false,
    ...AUTOLOAD_DEFAULTS,
    ignorePattern: null,
    matchFilter: null,
    ignoreFilter: null,
    maxDepth: Infinity,
    ...o,
  });
  const FILES = [
    'src/app.ts',
    'src/routes/root.ts',
    'src/routes/types.d.ts',
    'src/routes/view.tsx',
    'src/routes/sites/index.ts',
    'src/routes/sites/helpers.ts',
    'src/routes/sites/autohooks.ts',
    'src/routes/sites/builds/list.ts',
    'src/routes/sites/builds/list.test.ts',
    'src/routes/zeta/a.ts',
    'src/routes/zeta/deep/b.ts',
  ];
  const flat = (o: Partial<AutoloadOptions> = {}) => autoloadTree(FILES, options(o))!.map((n) => [n.hooks.join(','), n.plugins.map((p) => `${p.file} ${p.prefix ?? '-'}`)]);

  it('visits each directory before those below it; an index file stands for its directory; hook files are no plugins', () => {
    expect(flat()).toEqual([
      ['', ['src/routes/root.ts -']],
      ['src/routes/sites/autohooks.ts', ['src/routes/sites/index.ts /sites']],
      ['', ['src/routes/sites/builds/list.test.ts /sites/builds', 'src/routes/sites/builds/list.ts /sites/builds']],
      ['', ['src/routes/zeta/a.ts /zeta']],
      ['', ['src/routes/zeta/deep/b.ts /zeta/deep']],
    ]);
    expect(flat({ cascadeHooks: true })[2]).toEqual(['src/routes/sites/autohooks.ts', ['src/routes/sites/builds/list.test.ts /sites/builds', 'src/routes/sites/builds/list.ts /sites/builds']]);
  });

  it('filters, depth and directory names', () => {
    expect(flat({ ignorePattern: /\.test\.ts$/ })[2]).toEqual(['', ['src/routes/sites/builds/list.ts /sites/builds']]);
    expect(flat({ matchFilter: '/zeta' }).flatMap(([, p]) => p)).toEqual(['src/routes/zeta/a.ts /zeta', 'src/routes/zeta/deep/b.ts /zeta/deep']);
    expect(flat({ ignoreFilter: /^\/sites/ }).flatMap(([, p]) => p)).toEqual(['src/routes/root.ts -', 'src/routes/zeta/a.ts /zeta', 'src/routes/zeta/deep/b.ts /zeta/deep']);
    expect(flat({ maxDepth: 1 }).flatMap(([, p]) => p)).toEqual(['src/routes/root.ts -', 'src/routes/sites/index.ts /sites', 'src/routes/zeta/a.ts /zeta']);
    expect(flat({ dirNameRoutePrefix: false }).flatMap(([, p]) => p)).toContain('src/routes/zeta/deep/b.ts //');
  });

  it('prefixes (index.js handlePrefixConfig, findCommonHooksPrefix)', () => {
    expect(pluginPrefix(undefined, '/sites', undefined, undefined, false)).toBe('/sites');
    expect(pluginPrefix('/v1/', '/sites', undefined, undefined, false)).toBe('/v1/sites');
    expect(pluginPrefix('/v1', '/sites', '/projects', undefined, false)).toBe('/v1/projects');
    expect(pluginPrefix('/v1', '/sites', '/projects', '/override', false)).toBe('/override');
    expect(pluginPrefix(undefined, '/orgs/_orgId', undefined, undefined, true)).toBe('/orgs/:orgId');
    expect(pluginPrefix(undefined, '/files/name__ext', undefined, undefined, true)).toBe('/files/name:ext');
    expect(pluginPrefix('/v1', undefined, undefined, undefined, false)).toBe('/v1');
    expect(commonPrefix(['/a', '/a', undefined])).toBe('/a');
    expect(commonPrefix(['/a', '/b'])).toBeUndefined();
    expect(commonPrefix([undefined, ''])).toBeUndefined();
  });
});
