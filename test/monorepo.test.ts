/**
 * SPEC 7 "Monorepos", on fixtures/monorepo: a workspace root (no server framework) with
 * apps/api (Express, guards from the workspace package @acme/auth) and apps/web (Next.js,
 * `@/` imports through its own tsconfig, trailingSlash: true). Each app has its own route
 * graph; a contract route served by any app counts as served; outbound calls (axios, fetch)
 * in the web app are never routes. Expectations derived by hand from the fixture's code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/engine.js';
import { ROOT, check } from './helpers/run.js';
import { findingRows, routeRows, row } from './helpers/expect.js';
import { writeProject } from './helpers/project.js';

const DIR = path.join(ROOT, 'fixtures', 'monorepo');
// app.use('/api', requireSession, scopeToOrg, csrfProtection) in apps/api, all three from @acme/auth
const API = { auth: ['requireSession'], tenant: ['scopeToOrg'], csrf: ['csrfProtection'] };
// `const session = await getWebSession(); if (!session) return 401`: the check is the guard, the getter reads
const WEB_AUTH = ['(inline 401 check)'];

describe('fixtures/monorepo', () => {
  it("lists both apps' routes, each under its own rules", async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // apps/web/app/api/auth/logout/route.ts → /api/auth/logout/ (its own app/ dir, trailingSlash: true)
      row('POST /api/auth/logout/', 'browser', 'apps/web/app/api/auth/logout/route.ts:5:1', { auth: WEB_AUTH, csrf: ['verifyCsrf'] }),
      // served exactly by the web app, not by the API
      row('GET /api/auth/me/', 'contract', 'apps/web/app/api/auth/me/route.ts:3:1', { auth: WEB_AUTH, tenant: ['(inline tenant check)'] }, 'GET /api/auth/me/'),
      row('GET /api/databases/', 'contract', 'apps/api/src/routes/databases.ts:6:1', API, 'GET /api/databases/'),
      row('GET /api/deployments/', 'contract', 'apps/api/src/routes/deployments.ts:6:1', API, 'GET /api/deployments/'),
      // registered before app.use('/api', …): no guard
      row('GET /api/health/ready', 'public', 'apps/api/src/server.ts:22:1', {}, 'GET /api/health/ready'),
      row('GET /api/sites/', 'contract', 'apps/api/src/routes/sites.ts:6:1', API, 'GET /api/sites/'),
      row('POST /api/sites/', 'browser', 'apps/api/src/routes/sites.ts:10:1', API),
    ]);
    expect(res.routes.map((r) => `${r.framework} ${r.app}`)).toEqual([
      'next apps/web',
      'next apps/web',
      'express app',
      'express app',
      'express app',
      'express app',
      'express app',
    ]);
  });

  it('serves every contract route from one app or the other; outbound calls are not routes', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `apps/api/src/routes/sites.ts:10:1 info uncontracted-route POST /api/sites/ is on the browser surface but not in the contract`,
      'apps/web/app/api/auth/logout/route.ts:5:1 error missing-tenant-guard POST /api/auth/logout/ has no tenant guard',
      'apps/web/app/api/auth/logout/route.ts:5:1 info uncontracted-route POST /api/auth/logout/ is on the browser surface but not in the contract',
    ]);
  });

  it('follows guards into the workspace package they are imported from by name', async () => {
    const res = await check(DIR);
    const sites = res.routes.find((r) => r.method === 'GET' && r.path === '/api/sites/')!;
    expect(sites.guards.map((g) => `${g.name} ${g.mechanism} ${g.file}:${g.line} — ${g.reason}`)).toEqual([
      'requireSession app.use apps/api/src/server.ts:23 — by name (auth); by behaviour (ends the request with 401)',
      // named like nothing: only its definition in packages/auth/src/org.ts says it is a tenant guard
      'scopeToOrg app.use apps/api/src/server.ts:23 — by behaviour (compares the tenant and ends with 403/404)',
      // csurf({ cookie: false }) made in packages/auth/src/csrf.ts keeps its package's classification
      'csrfProtection app.use apps/api/src/server.ts:23 — CSRF protection from csurf',
    ]);
  });

  it('analysing one app alone leaves the other app\'s contract routes unserved', async () => {
    const res = await check(DIR, ['apps/web']);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/auth/logout/', 'GET /api/auth/me/']);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.message)).toEqual([
      'contract route GET /api/health/ready is not served by any analysed app',
      'contract route GET /api/sites/ is not served by any analysed app',
      'contract route GET /api/deployments/ is not served by any analysed app',
      'contract route GET /api/databases/ is not served by any analysed app',
    ]);
  });
});

describe('workspace packages', () => {
  it("resolves a subpath import through the package's exports: a path, a pattern, conditions, build output taken from src/", async () => {
    const guard = (name: string, body: string) => `export function ${name}(req, res, next) {\n  ${body}\n  next();\n}\n`;
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'acme', private: true, workspaces: ['apps/*', 'packages/*'] }),
        'packages/guards/package.json': JSON.stringify({
          name: '@acme/guards',
          exports: {
            '.': './src/index.ts',
            './express/session': './src/middleware/session-guard.ts',
            './checks/*': { types: './dist/checks/*.d.ts', default: './dist/checks/*.js' },
          },
        }),
        'packages/guards/src/index.ts': 'export const version = 1;\n',
        'packages/guards/src/middleware/session-guard.ts': guard('gateOne', "if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });"),
        'packages/guards/src/checks/org.ts': guard('gateTwo', "if (req.params.orgId !== req.session.orgId) return res.status(404).end();"),
        'apps/api/package.json': JSON.stringify({ name: '@acme/api', dependencies: { express: '^4.21.0', '@acme/guards': 'workspace:*' } }),
        'apps/api/src/server.ts': `import express from 'express';
import { gateOne } from '@acme/guards/express/session';
import { gateTwo } from '@acme/guards/checks/org';

const app = express();
app.get('/api/orgs/:orgId/sites', gateOne, gateTwo, (req, res) => res.json([]));
app.listen(3000);
`,
      }),
    );
    // (named like nothing: only their definitions, in the package, say what they check)
    expect(routeRows(res.routes)).toEqual([row('GET /api/orgs/:orgId/sites', 'browser', 'apps/api/src/server.ts:6:1', { auth: ['gateOne'], tenant: ['gateTwo'] })]);
    expect(res.routes[0]!.guards.map((g) => g.reason)).toEqual(['by behaviour (ends the request with 401)', 'by behaviour (compares the tenant and ends with 403/404)']);
  });
});

describe('an app of a workspace run on its own', () => {
  // An Nx-style workspace: the aliases live in the root's tsconfig.base.json, which the app's
  // tsconfig.json extends from two directories up: outside the project root when the check runs
  // in apps/api (a pre-commit hook of the app, a CI job per app).
  const workspace = (aliasTarget: string): string =>
    writeProject({
      'tsconfig.base.json': `{\n  // shared by every app\n  "compilerOptions": { "baseUrl": ".", "paths": { "@acme/api/*": ["${aliasTarget}"] } },\n}\n`,
      'apps/api/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { outDir: '../../dist/apps/api' } }),
      'apps/api/package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0' } }),
      'apps/api/src/guards/session.ts': "export function gateOne(req, res, next) {\n  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });\n  next();\n}\n",
      'apps/api/src/server.ts': `import express from 'express';
import { gateOne } from '@acme/api/guards/session';

const app = express();
app.get('/api/sites', gateOne, (req, res) => res.json([]));
app.listen(3000);
`,
    });

  it("resolves the aliases of a config its tsconfig.json extends from outside the root, as the compiler does", async () => {
    const res = await check(path.join(workspace('apps/api/src/*'), 'apps', 'api'));
    // (named like nothing: only its definition, found through the alias, says what it checks)
    expect(routeRows(res.routes)).toEqual([row('GET /api/sites', 'contract', 'src/server.ts:5:1', { auth: ['gateOne'] }, 'GET /api/sites/')]);
    // an alias leading out of the root stays unresolved: the guard is not known
    const outside = await check(path.join(workspace('libs/guards/*'), 'apps', 'api'));
    expect(routeRows(outside.routes)).toEqual([row('GET /api/sites', 'contract', 'src/server.ts:5:1', { unknown: ['gateOne'] }, 'GET /api/sites/')]);
  });

  it('reads a list of extended configs, each option from the last one that sets it', async () => {
    const root = workspace('libs/guards/*');
    // the base's alias leads nowhere; the app's own second config sets it again, into the app
    // (relative to the base's baseUrl, the workspace root, which it keeps)
    fs.writeFileSync(path.join(root, 'apps/api/tsconfig.json'), JSON.stringify({ extends: ['../../tsconfig.base.json', './tsconfig.paths'] }));
    fs.writeFileSync(path.join(root, 'apps/api/tsconfig.paths.json'), JSON.stringify({ compilerOptions: { paths: { '@acme/api/*': ['apps/api/src/*'] } } }));
    const res = await check(path.join(root, 'apps', 'api'));
    expect(routeRows(res.routes)).toEqual([row('GET /api/sites', 'contract', 'src/server.ts:5:1', { auth: ['gateOne'] }, 'GET /api/sites/')]);
  });

  it('compiles an app with no tsconfig.json of its own with the nearest one above it, as tsc does', async () => {
    const root = workspace('apps/api/src/*');
    fs.rmSync(path.join(root, 'apps/api/tsconfig.json'));
    fs.renameSync(path.join(root, 'tsconfig.base.json'), path.join(root, 'tsconfig.json'));
    const app = path.join(root, 'apps', 'api');
    const res = await run({ cwd: app, paths: [], cache: true });
    expect(routeRows(res.routes)).toEqual([row('GET /api/sites', 'contract', 'src/server.ts:5:1', { auth: ['gateOne'] }, 'GET /api/sites/')]);
    // (it is part of what the kept result is computed from)
    const config = path.join(root, 'tsconfig.json');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('apps/api/src/*', 'libs/guards/*'));
    const after = await run({ cwd: app, paths: [], cache: true });
    expect(after.extraction).toMatchObject({ parsed: 0, reused: false });
    expect(after.routes[0]!.guards.map((g) => g.kinds.join('+'))).toEqual(['unknown']);
  });

  it('links again when that config changes, though it is outside the root', async () => {
    const root = workspace('apps/api/src/*');
    const app = path.join(root, 'apps', 'api');
    const first = await run({ cwd: app, paths: [], cache: true });
    expect(first.routes[0]!.guards.map((g) => g.kinds.join('+'))).toEqual(['auth']);
    expect((await run({ cwd: app, paths: [], cache: true })).extraction).toMatchObject({ parsed: 0, reused: true });
    const base = path.join(root, 'tsconfig.base.json');
    fs.writeFileSync(base, fs.readFileSync(base, 'utf8').replace('apps/api/src/*', 'libs/guards/*'));
    const after = await run({ cwd: app, paths: [], cache: true });
    expect(after.extraction).toMatchObject({ parsed: 0, reused: false });
    expect(after.routes[0]!.guards.map((g) => g.kinds.join('+'))).toEqual(['unknown']);
  });
});

describe("a JavaScript server's aliases", () => {
  // LibreChat's api: `require('~/server/middleware/requireJwtAuth')`, `~` made the package's own
  // directory by jsconfig.json's paths (editors, tsc) and by module-alias at run time
  const server = (config: Record<string, string>): string =>
    writeProject({
      ...config,
      'api/server/middleware/gateOne.js': "module.exports = function gateOne(req, res, next) {\n  if (!req.session?.userId) return res.status(401).json({ message: 'Unauthorized' });\n  next();\n};\n",
      'api/server/index.js': `const express = require('express');
const gateOne = require('~/server/middleware/gateOne');

const app = express();
app.get('/api/sites', gateOne, (req, res) => res.json([]));
app.listen(3080);
`,
    });
  const pkg = (extra: object): string => JSON.stringify({ name: '@librechat/backend', dependencies: { express: '^5.1.0', 'module-alias': '^2.2.3' }, ...extra });

  it("reads jsconfig.json's paths as a tsconfig.json's", async () => {
    const dir = server({
      'api/package.json': pkg({}),
      'api/jsconfig.json': '{\n  "compilerOptions": {\n    // resolved as at run time\n    "baseUrl": "./",\n    "paths": { "~/*": ["./*"] }\n  }\n}\n',
    });
    expect(routeRows((await check(path.join(dir, 'api'))).routes)).toEqual([row('GET /api/sites', 'contract', 'server/index.js:5:1', { auth: ['gateOne'] }, 'GET /api/sites/')]);
    // (a tsconfig.json beside it wins, as tsc's)
    fs.writeFileSync(path.join(dir, 'api/tsconfig.json'), JSON.stringify({ compilerOptions: { allowJs: true } }));
    expect(routeRows((await check(path.join(dir, 'api'))).routes)).toEqual([row('GET /api/sites', 'contract', 'server/index.js:5:1', { unknown: ['gateOne'] }, 'GET /api/sites/')]);
  });

  it("reads module-alias's _moduleAliases of the package.json", async () => {
    const dir = server({ 'api/package.json': pkg({ _moduleAliases: { '~': '.' } }) });
    expect(routeRows((await check(dir)).routes)).toEqual([row('GET /api/sites', 'contract', 'api/server/index.js:5:1', { auth: ['gateOne'] }, 'GET /api/sites/')]);
  });
});

describe("a TypeScript server's `#` paths and barrels (vrite's backend)", () => {
  // packages/backend: `"#*": ["./src/*"]` in tsconfig (no package.json `imports`), and a barrel that
  // re-exports a package wholesale (here one it cannot resolve) before the module making the server
  const backend = (barrel: string): string =>
    writeProject({
      'package.json': JSON.stringify({ name: '@vrite/backend', private: true, dependencies: { fastify: '4.24.3', '@vrite/sdk': 'workspace:*' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'node', strict: true, paths: { '#*': ['./src/*'] } } }),
      'src/lib/plugin.ts': `import type { FastifyInstance } from 'fastify';

export const sessionPlugin = async (server: FastifyInstance): Promise<void> => {
  server.get('/session/me', async (req) => ({ user: req.headers['x-user'] ?? null }));
  server.post('/session/logout', async (req, reply) => {
    reply.clearCookie('accessToken');
    return { ok: true };
  });
};
`,
      'src/lib/collections.ts': "export * from '@vrite/sdk/api';\nexport type Workspace = { id: string };\n",
      'src/server.ts': `import createFastify from 'fastify';

export const createServer = () => createFastify({ logger: true });
`,
      'src/index.ts': barrel,
      'src/main.ts': `import { createServer, sessionPlugin } from './index';

const server = createServer();
server.register(sessionPlugin, { prefix: '/api' });
server.listen({ port: Number(process.env.PORT) || 4444 });
`,
    });
  const ROUTES = ['POST /api/session/logout', 'GET /api/session/me'];

  it('resolves a `#` specifier with the tsconfig paths, as TypeScript does', async () => {
    const res = await check(backend("export * from '#lib/plugin';\nexport * from './server';\n"));
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(ROUTES);
  });

  it("takes a barrel's name from the module of the analysed code exporting it, whatever package's `export *` comes before", async () => {
    const res = await check(backend("export * from './lib/plugin';\nexport * from './lib/collections';\nexport * from './server';\n"));
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(ROUTES);
  });
});
