/**
 * Servers of frameworks route-surface has no adapter for (src/adapters/unread.ts): each server
 * made in the analysed code is an unresolved-route warning where it is made, so a report never
 * reads as "nothing served" when the tool read none of what is served. Importing such a package
 * without making a server (types, helpers) says nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check, findingLines, routeLines } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const warnings = async (dir: string): Promise<string[]> => findingLines(await check(dir)).filter((l) => l.includes(' unresolved-route '));

describe('servers of frameworks without an adapter', () => {
  it('a warm run sees a server come into a file importing the package, though nothing reads the name it is bound to', async () => {
    const server = `import Hapi from '@hapi/hapi';

export async function start(port: number) {
  const server = Hapi.server({ port });
  await server.start();
  return server;
}
`;
    const dir = writeProject({ 'package.json': JSON.stringify({ name: 'svc', dependencies: { '@hapi/hapi': '^21.3.0' } }), 'src/server.ts': server });
    const cached = () => run({ cwd: dir, paths: [], cache: true });
    expect((await cached()).findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => f.line)).toEqual([4]);
    fs.writeFileSync(path.join(dir, 'src/server.ts'), server.replace('  await server.start();\n', '  const admin = Hapi.server({ port: port + 1 });\n  await server.start();\n'));
    const warm = await cached();
    expect(warm.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(warm.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => f.line)).toEqual([4, 5]);
    expect(formatJson(warm)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
  });

  it('a hapi control plane: the server made in server.js is said to serve what is not listed, once, whatever registers on it', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { '@hapi/hapi': '^21.3.0', 'hapi-auth-jwt2': '^10.6.0' } }),
      'lib/routes/sites.js': `const { listSites, getSite } = require('../services/sites');

module.exports = [
  {
    method: 'GET',
    path: '/api/sites/',
    options: { auth: 'session' },
    handler: async (request) => listSites(request.auth.credentials.tenantId),
  },
  {
    method: 'GET',
    path: '/api/sites/{siteId}',
    options: { auth: 'session' },
    handler: async (request) => getSite(request.auth.credentials.tenantId, request.params.siteId),
  },
];
`,
      'lib/routes/health.js': `module.exports = {
  name: 'health',
  register: async (server) => {
    server.route({ method: 'GET', path: '/api/health/ready', options: { auth: false }, handler: () => ({ ok: true }) });
  },
};
`,
      'lib/services/sites.js': `const sites = new Map();

async function listSites(tenantId) {
  return [...sites.values()].filter((s) => s.tenantId === tenantId);
}

async function getSite(tenantId, siteId) {
  const site = sites.get(siteId);
  return site && site.tenantId === tenantId ? site : null;
}

module.exports = { listSites, getSite };
`,
      'lib/server.js': `const Hapi = require('@hapi/hapi');
const Jwt = require('hapi-auth-jwt2');
const siteRoutes = require('./routes/sites');
const health = require('./routes/health');

async function createServer(config) {
  const server = Hapi.server({ port: config.port, host: '0.0.0.0' });
  await server.register(Jwt);
  server.auth.strategy('session', 'jwt', { key: config.secret, validate: async () => ({ isValid: true }) });
  server.auth.default('session');
  await server.register(health);
  server.route(siteRoutes);
  return server;
}

module.exports = { createServer };
`,
      'test/server.test.js': `const { createServer } = require('../lib/server');

async function start() {
  const server = await createServer({ port: 0, secret: 'test' });
  await server.initialize();
  return server;
}

module.exports = { start };
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual([]);
    expect(await warnings(dir)).toEqual([
      'lib/server.js:7 unresolved-route a hapi server (@hapi/hapi) is made here, and route-surface has no adapter for hapi: the routes it serves are not listed',
    ]);
  });

  it('each way the other frameworks make a server or router, beside an Express app that is read as usual', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({
        name: 'platform',
        dependencies: { express: '^4.21.0', restify: '^11.1.0', h3: '^1.13.0', polka: '^0.5.2', '@tinyhttp/app': '^2.5.0', 'hyper-express': '^6.17.0', '@feathersjs/feathers': '^5.0.0', '@feathersjs/express': '^5.0.0', '@feathersjs/koa': '^5.0.0', '@feathersjs/rest-client': '^5.0.0', micro: '^9.4.1', microrouter: '^3.1.3', 'itty-router': '^5.0.18' },
      }),
      'src/api.ts': `import express from 'express';

export const api = express();
api.get('/api/health/ready', (_req, res) => {
  res.json({ ok: true });
});
`,
      'src/restify.ts': `import restify from 'restify';

export const legacy = restify.createServer({ name: 'legacy-api' });
legacy.get('/v1/ping', (_req: unknown, res: { send(body: string): void }, next: () => void) => {
  res.send('pong');
  next();
});
`,
      'src/h3.ts': `import { H3, createApp, createRouter, defineEventHandler } from 'h3';

export const v1 = createApp();
export const v1Router = createRouter().get('/v1/items', defineEventHandler(() => []));
export const v2 = new H3().get('/v2/items', () => []);
`,
      'src/polka.ts': `import polka from 'polka';

export const metrics = polka().get('/metrics', (_req: unknown, res: { end(body: string): void }) => res.end(''));
`,
      'src/tinyhttp.ts': `import { App } from '@tinyhttp/app';

export const tiny = new App();
`,
      'src/hyper.ts': `import HyperExpress from 'hyper-express';

export const hyper = new HyperExpress.Server();
export const hyperRouter = new HyperExpress.Router();
`,
      'src/feathers.ts': `import { feathers } from '@feathersjs/feathers';
import express from '@feathersjs/express';
import { koa } from '@feathersjs/koa';

export const app = express(feathers());
export const realtime = koa(feathers());
`,
      'src/micro.js': `const micro = require('micro');
const { router, get, post } = require('microrouter');

const routes = [get('/api/domains', async () => []), post('/api/records', async () => ({ ok: true }))];
module.exports = micro(router(...routes));
`,
      'src/itty.ts': `import { AutoRouter, IttyRouter, Router, error } from 'itty-router';

export const worker = AutoRouter();
worker.get('/api/links', () => []);
export const legacy = Router();
export const bare = IttyRouter();
// (a helper alone makes no router)
export const notFound = () => error(404, 'not found');
`,
      // a Feathers client is no server
      'src/client.ts': `import { feathers } from '@feathersjs/feathers';
import rest from '@feathersjs/rest-client';

export const client = feathers().configure(rest('https://api.example.com').fetch(fetch));
`,
      // helpers and types of these packages make no server
      'src/nuxt-handler.ts': `import { defineEventHandler, getHeader, type H3Event } from 'h3';
import type { Server } from '@hapi/hapi';

export type HapiServer = Server;
export default defineEventHandler((event: H3Event) => getHeader(event, 'x-request-id') ?? '');
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual(['GET /api/health/ready']);
    expect(await warnings(dir)).toEqual([
      'src/feathers.ts:5 unresolved-route a Feathers app (@feathersjs/express) is made here, and route-surface has no adapter for Feathers: the routes it serves are not listed',
      'src/feathers.ts:6 unresolved-route a Feathers app (@feathersjs/koa) is made here, and route-surface has no adapter for Feathers: the routes it serves are not listed',
      'src/h3.ts:3 unresolved-route an h3 app (h3) is made here, and route-surface has no adapter for h3: the routes it serves are not listed',
      'src/h3.ts:4 unresolved-route an h3 router (h3) is made here, and route-surface has no adapter for h3: the routes it serves are not listed',
      'src/h3.ts:5 unresolved-route an h3 app (h3) is made here, and route-surface has no adapter for h3: the routes it serves are not listed',
      'src/hyper.ts:3 unresolved-route a hyper-express server (hyper-express) is made here, and route-surface has no adapter for hyper-express: the routes it serves are not listed',
      'src/hyper.ts:4 unresolved-route a hyper-express router (hyper-express) is made here, and route-surface has no adapter for hyper-express: the routes it serves are not listed',
      'src/itty.ts:3 unresolved-route an itty-router router (itty-router) is made here, and route-surface has no adapter for itty-router: the routes it serves are not listed',
      'src/itty.ts:5 unresolved-route an itty-router router (itty-router) is made here, and route-surface has no adapter for itty-router: the routes it serves are not listed',
      'src/itty.ts:6 unresolved-route an itty-router router (itty-router) is made here, and route-surface has no adapter for itty-router: the routes it serves are not listed',
      'src/micro.js:5 unresolved-route a microrouter router (microrouter) is made here, and route-surface has no adapter for microrouter: the routes it serves are not listed',
      'src/polka.ts:3 unresolved-route a polka app (polka) is made here, and route-surface has no adapter for polka: the routes it serves are not listed',
      'src/restify.ts:3 unresolved-route a restify server (restify) is made here, and route-surface has no adapter for restify: the routes it serves are not listed',
      'src/tinyhttp.ts:3 unresolved-route a tinyhttp app (@tinyhttp/app) is made here, and route-surface has no adapter for tinyhttp: the routes it serves are not listed',
    ]);
  });

  it('file-routed frameworks: one warning per package at its first route file, saying how many there are and where', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'platform', private: true, workspaces: ['apps/*'] }),
      'apps/dashboard/package.json': JSON.stringify({ name: 'dashboard', devDependencies: { '@sveltejs/kit': '^2.8.0', svelte: '^5.0.0' } }),
      'apps/dashboard/src/routes/api/sites/+server.ts': `import { json, type RequestHandler } from '@sveltejs/kit';

export const GET: RequestHandler = async ({ locals }) => json(await locals.sites.list());
`,
      'apps/dashboard/src/routes/sites/[siteId]/+page.server.ts': `import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, locals }) => ({ site: await locals.sites.get(params.siteId) });

export const actions: Actions = {
  rename: async ({ request, params, locals }) => {
    const form = await request.formData();
    await locals.sites.rename(params.siteId, String(form.get('name')));
  },
};
`,
      // a component's script and the server hooks are no route files
      'apps/dashboard/src/routes/sites/format.ts': `export const title = (name: string): string => name.trim();
`,
      'apps/dashboard/src/hooks.server.ts': `export const handle = async ({ event, resolve }: { event: unknown; resolve: (e: unknown) => Promise<Response> }) => resolve(event);
`,
      'apps/status/package.json': JSON.stringify({ name: 'status', dependencies: { nuxt: '^3.14.0' } }),
      'apps/status/server/api/health.get.ts': `export default defineEventHandler(() => ({ ok: true }));
`,
      // (Nitro scans for .tsx and .jsx handlers too)
      'apps/status/server/routes/badge.svg.tsx': `export default defineEventHandler(() => '<svg/>');\n`,
      'apps/status/server/utils/db.ts': `export const db = { ping: async () => true };
`,
      'apps/edge/package.json': JSON.stringify({ name: 'edge', dependencies: { nitropack: '^2.10.0' } }),
      'apps/edge/routes/index.ts': `export default defineEventHandler(() => 'edge');\n`,
      'apps/edge/api/sites.get.ts': `export default defineEventHandler(async (event) => ({ sites: [], tenant: getRouterParam(event, 'tenant') }));\n`,
      'apps/console/package.json': JSON.stringify({ name: 'console', dependencies: { '@remix-run/node': '^2.15.0', '@remix-run/react': '^2.15.0' } }),
      'apps/console/app/routes/_index.tsx': `export default function Index() {\n  return null;\n}\n`,
      'apps/console/app/routes/api.sites.ts': `import { json, type LoaderFunctionArgs } from '@remix-run/node';

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ sites: [], from: new URL(request.url).pathname });
}
`,
      // a folder's route module, and a module colocated with it (no route)
      'apps/console/app/routes/dashboard/route.tsx': `export default function Dashboard() {\n  return null;\n}\n`,
      'apps/console/app/routes/dashboard/usage-chart.tsx': `export function UsageChart() {\n  return null;\n}\n`,
      'apps/console/app/root.tsx': `export default function App() {\n  return null;\n}\n`,
      'apps/docs/package.json': JSON.stringify({ name: 'docs', dependencies: { astro: '^4.16.0' } }),
      // (a name starting with _ is no page, nor is what a folder so named holds)
      'apps/docs/src/pages/_lib/search-index.ts': `export const entries: string[] = [];\n`,
      'apps/docs/src/pages/search.json.ts': `import type { APIRoute } from 'astro';

export const GET: APIRoute = () => new Response(JSON.stringify([]));
`,
      'apps/cms/package.json': JSON.stringify({ name: 'cms', dependencies: { '@strapi/strapi': '^5.8.0' } }),
      'apps/cms/src/api/article/routes/article.ts': `import { factories } from '@strapi/strapi';

export default factories.createCoreRouter('api::article.article');
`,
      'apps/cms/src/api/article/controllers/article.ts': `import { factories } from '@strapi/strapi';

export default factories.createCoreController('api::article.article');
`,
      'apps/catalog/package.json': JSON.stringify({ name: 'catalog', dependencies: { '@loopback/core': '^6.1.0', '@loopback/rest': '^14.0.0' } }),
      'apps/catalog/src/controllers/product.controller.ts': `import { get, param } from '@loopback/rest';

export class ProductController {
  @get('/products/{id}')
  async findById(@param.path.string('id') id: string) {
    return { id };
  }
}
`,
      'apps/catalog/src/controllers/index.ts': `export * from './product.controller';\n`,
      'apps/legacy/package.json': JSON.stringify({ name: 'legacy', dependencies: { sails: '^1.5.0' } }),
      'apps/legacy/config/routes.js': `module.exports.routes = {\n  'GET /api/sites': 'SiteController.find',\n};\n`,
      'apps/legacy/config/datastores.js': `module.exports.datastores = { default: {} };\n`,
      'apps/legacy/api/controllers/SiteController.js': `module.exports = {\n  find: async function (req, res) {\n    return res.json([]);\n  },\n};\n`,
      // the same folders in a package of none of these frameworks are nothing
      'apps/api/package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0' } }),
      'apps/api/src/routes/+server.ts': `export const handler = (): string => 'not a route';
`,
      'apps/api/server/api/health.ts': `export const ok = true;
`,
    });
    expect(await warnings(dir)).toEqual([
      'apps/catalog/src/controllers/product.controller.ts:1 unresolved-route this is a LoopBack route file (under apps/catalog/src/controllers/), and route-surface has no adapter for LoopBack: the routes it serves are not listed',
      'apps/cms/src/api/article/routes/article.ts:1 unresolved-route this is a Strapi route file (under apps/cms/src/api/), and route-surface has no adapter for Strapi: the routes it serves are not listed',
      'apps/console/app/routes/_index.tsx:1 unresolved-route this is the first of 3 Remix route files (under apps/console/app/routes/), and route-surface has no adapter for Remix: the routes they serve are not listed',
      'apps/dashboard/src/routes/api/sites/+server.ts:1 unresolved-route this is the first of 2 SvelteKit route files (under apps/dashboard/src/routes/), and route-surface has no adapter for SvelteKit: the routes they serve are not listed',
      'apps/docs/src/pages/search.json.ts:1 unresolved-route this is an Astro route file (under apps/docs/src/pages/), and route-surface has no adapter for Astro: the routes it serves are not listed',
      'apps/edge/api/sites.get.ts:1 unresolved-route this is the first of 2 Nitro route files (under apps/edge/api/, apps/edge/routes/), and route-surface has no adapter for Nitro: the routes they serve are not listed',
      'apps/legacy/api/controllers/SiteController.js:1 unresolved-route this is the first of 2 Sails route files (under apps/legacy/config/, apps/legacy/api/controllers/), and route-surface has no adapter for Sails: the routes they serve are not listed',
      'apps/status/server/api/health.get.ts:1 unresolved-route this is the first of 2 Nuxt route files (under apps/status/server/api/, apps/status/server/routes/), and route-surface has no adapter for Nuxt: the routes they serve are not listed',
    ]);
  });

  it("AdonisJS: a warning at the first route each file registers on the package's router (v6 and v5)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'adonis-app', dependencies: { '@adonisjs/core': '^6.17.0', '@adonisjs/auth': '^9.3.0' } }),
      'start/routes.ts': `import router from '@adonisjs/core/services/router';
import { middleware } from '#start/kernel';

const SitesController = () => import('#controllers/sites_controller');

router.get('/api/health/ready', async () => ({ ok: true }));

router
  .group(() => {
    router.get('/sites', [SitesController, 'index']);
    router.post('/sites', [SitesController, 'store']);
  })
  .prefix('/api')
  .use(middleware.auth());
`,
      // (the router's middleware is no route)
      'start/kernel.ts': `import router from '@adonisjs/core/services/router';

router.use([() => import('@adonisjs/core/bodyparser_middleware'), () => import('@adonisjs/session/session_middleware')]);

export const middleware = { auth: () => 'auth' };
`,
      // a v5 app's routes, in a package of its own
      'legacy/package.json': JSON.stringify({ name: 'legacy', dependencies: { '@adonisjs/core': '^5.9.0' } }),
      'legacy/start/routes.ts': `import Route from '@ioc:Adonis/Core/Route';

Route.get('/', async () => 'legacy home');
`,
      // (a module reading the router without registering on it says nothing)
      'app/helpers/urls.ts': `import router from '@adonisjs/core/services/router';

export const siteUrl = (id: string) => router.makeUrl('sites.show', { id });
`,
    });
    expect(await warnings(dir)).toEqual([
      "legacy/start/routes.ts:3 unresolved-route an AdonisJS route is registered here (on the router of @ioc:Adonis/Core/Route), and route-surface has no adapter for AdonisJS: the routes this file registers are not listed",
      "start/routes.ts:6 unresolved-route an AdonisJS route is registered here (on the router of @adonisjs/core/services/router), and route-surface has no adapter for AdonisJS: the routes this file registers are not listed",
    ]);
  });
});
