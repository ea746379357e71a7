/**
 * Optional path parts and `(.*)` wildcards, per framework. Expectations derived by hand from
 * each router's own matching:
 * - Express 4 (path-to-regexp 0.1): `/:id?` and `.:format?` are optional with the `/` or `.`
 *   before them; Express 5 (path-to-regexp 8): `{/:id}` is an optional group; a `use()` layer
 *   with an optional part is one layer (it runs once for a request, whichever form matched);
 * - @koa/router 12 (path-to-regexp 6): `:id?` optional, `(.*)` any characters; 13+ (8): `{/:id}`;
 * - Fastify (find-my-way `on`): a path ending in `/:id?` is registered with and without it;
 * - Hono (utils/url.ts checkOptionalParameter): the same for a path ending in `/:id?`.
 * Before, the tool listed `/sites/:siteId?` as one route whose last segment was a
 * parameter: the contract route `GET /api/sites/` it serves was reported missing.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { findingRows, routeRows, row } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { optionalForms, pathApplies, routePathCovers } from '../../src/adapters/paths.js';

const QUESTION = { question: true, braces: false };
const BOTH = { question: true, braces: true };

describe('optionalForms', () => {
  it.each([
    ['/sites/:siteId?', QUESTION, ['/sites/:siteId', '/sites']],
    // at the root, the form without the parameter is `/`
    ['/:siteId?', QUESTION, ['/:siteId', '/']],
    // path-to-regexp 0.1 takes a `.` before the parameter with it
    ['/logs.:format?', QUESTION, ['/logs.:format', '/logs']],
    // a parameter's own pattern stays with it
    ['/builds/:n(\\d+)?', QUESTION, ['/builds/:n(\\d+)', '/builds']],
    // `/:a?/:b?` serves `/x` as `/:a`: the form `/:b` only renames it
    ['/a/:x?/:y?', QUESTION, ['/a/:x/:y', '/a/:x', '/a']],
    ['/deployments{/:id}', BOTH, ['/deployments/:id', '/deployments']],
    // path-to-regexp 6 writes the group optional with `?`
    ['/deployments{/:id}?', BOTH, ['/deployments/:id', '/deployments']],
    ['/x{/:a{/:b}}', BOTH, ['/x/:a/:b', '/x/:a', '/x']],
    // Hono's braces hold a parameter's pattern, not an optional group
    ['/sites/:id{[0-9]+}', QUESTION, ['/sites/:id{[0-9]+}']],
    ['/sites/:siteId', BOTH, ['/sites/:siteId']],
    // past four optional parts, the pattern as written
    ['/:a?/:b?/:c?/:d?/:e?', QUESTION, ['/:a?/:b?/:c?/:d?/:e?']],
  ] as const)('%s', (pattern, syntax, forms) => {
    expect(optionalForms(pattern, syntax)).toEqual(forms);
  });

  it('reads `(.*)` as a wildcard segment when a layer is matched against a route', () => {
    expect(routePathCovers('/internal/(.*)', '/internal/builds/:buildId/complete', false, false)).toBe(true);
    expect(routePathCovers('/internal/:rest(.*)', '/internal/builds', false, false)).toBe(true);
    // it takes one segment at least: the bare prefix is not under it
    expect(routePathCovers('/internal/(.*)', '/internal', false, false)).toBe(false);
    expect(pathApplies('/admin/(.*)', '/admin/users/:id', false)).toBe(true);
    expect(routePathCovers('/internal/(.*)', '/api/sites', false, false)).toBe(false);
  });
});

const SESSION_GUARDS = `
import type { NextFunction, Request, Response } from 'express';

/** Every dashboard request carries the session cookie. */
export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  next();
}

/** The tenant in the session must own the resource's tenant. */
export function requireTenantMember(req: Request, res: Response, next: NextFunction) {
  if (req.get('x-tenant-id') !== req.session.tenantId) return res.status(404).json({ error: 'not found' });
  next();
}
`;

const SERVICE_TOKEN = `
import type { NextFunction, Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';

export function requireServiceToken(req: Request, res: Response, next: NextFunction) {
  const given = Buffer.from(req.get('x-service-token') ?? '');
  const expected = Buffer.from(process.env.SERVICE_TOKEN ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.status(401).json({ error: 'service token required' });
  next();
}
`;

const SITES_SERVICE = `
import { pool } from './db.js';

export const sites = {
  async list(tenantId: string) {
    const { rows } = await pool.query('select id, name, created_at from sites where tenant_id = $1 order by name', [tenantId]);
    return rows;
  },
  async get(tenantId: string, siteId: string) {
    const { rows } = await pool.query('select id, name, created_at from sites where tenant_id = $1 and id = $2', [tenantId, siteId]);
    return rows[0] ?? null;
  },
  async logs(tenantId: string, siteId: string) {
    const { rows } = await pool.query('select at, line from site_logs where tenant_id = $1 and site_id = $2 order by at desc limit 500', [tenantId, siteId]);
    return rows;
  },
};
`;

const DB = `
import { Pool } from 'pg';
export const pool = new Pool({ connectionString: process.env.DATABASE_URL });
`;

const AUTH = ['requireSession'];
const TENANT = ['requireTenantMember'];
const SERVICE = { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] };

describe('express 4: optional parameters', () => {
  const files = {
    'package.json': JSON.stringify({ name: 'control-plane', dependencies: { express: '4.21.2', pg: '8.13.1' } }),
    'src/middleware/session.ts': SESSION_GUARDS,
    'src/middleware/service.ts': SERVICE_TOKEN,
    'src/services/db.ts': DB,
    'src/services/sites.ts': SITES_SERVICE,
    'src/routes/sites.ts': `
import { Router } from 'express';
import { requireSession, requireTenantMember } from '../middleware/session.js';
import { sites } from '../services/sites.js';

export const sitesRouter = Router();
sitesRouter.use(requireSession);

// One handler answers the list and a single site.
sitesRouter.get('/:siteId?', requireTenantMember, async (req, res) => {
  const tenantId = req.session.tenantId;
  if (!req.params.siteId) return res.json(await sites.list(tenantId));
  const site = await sites.get(tenantId, req.params.siteId);
  if (!site) return res.status(404).json({ error: 'site not found' });
  res.json(site);
});

sitesRouter.get('/:siteId/logs.:format?', requireTenantMember, async (req, res) => {
  const lines = await sites.logs(req.session.tenantId, req.params.siteId);
  if (req.params.format === 'txt') return res.type('text/plain').send(lines.map((l) => l.line).join('\\n'));
  res.json(lines);
});
`,
    'src/routes/internal.ts': `
import { Router } from 'express';
import { pool } from '../services/db.js';

export const internal = Router();

internal.get('/', async (req, res) => {
  const { rows } = await pool.query('select state, count(*) from builds group by state');
  res.json(rows);
});

internal.get('/builds/:buildId?', async (req, res) => {
  const { rows } = req.params.buildId
    ? await pool.query('select * from builds where id = $1', [req.params.buildId])
    : await pool.query('select * from builds where state = $1', ['running']);
  res.json(rows);
});
`,
    'src/app.ts': `
import express from 'express';
import { requireServiceToken } from './middleware/service.js';
import { internal } from './routes/internal.js';
import { sitesRouter } from './routes/sites.js';

export const app = express();
app.use(express.json());
app.use('/api/sites', sitesRouter);
// one layer: it runs once for /internal/builds, which both of its forms match
app.use('/internal/:area?', requireServiceToken);
app.use('/internal', internal);
app.listen(Number(process.env.PORT ?? 3000));
`,
  };

  it('lists each form of a path as the route it is, and a layer with an optional part guards once', async () => {
    const res = await check(writeProject(files));
    expect(routeRows(res.routes)).toEqual([
      // the form without :siteId, under the mount path: the contract's list route
      row('GET /api/sites/', 'contract', 'src/routes/sites.ts:10:1', { auth: AUTH, tenant: TENANT }, 'GET /api/sites/'),
      row('GET /api/sites/:siteId', 'browser', 'src/routes/sites.ts:10:1', { auth: AUTH, tenant: TENANT }),
      row('GET /api/sites/:siteId/logs', 'browser', 'src/routes/sites.ts:18:1', { auth: AUTH, tenant: TENANT }),
      row('GET /api/sites/:siteId/logs.:format', 'browser', 'src/routes/sites.ts:18:1', { auth: AUTH, tenant: TENANT }),
      // `/internal` itself is under the layer's form without :area
      row('GET /internal/', 'excluded:internal', 'src/routes/internal.ts:7:1', SERVICE),
      row('GET /internal/builds', 'excluded:internal', 'src/routes/internal.ts:12:1', SERVICE),
      row('GET /internal/builds/:buildId', 'excluded:internal', 'src/routes/internal.ts:12:1', SERVICE),
    ]);
    const builds = res.routes.find((r) => r.path === '/internal/builds')!;
    expect(builds.guards.map((g) => `${g.name} ${g.mechanism} ${g.file}:${g.line}`)).toEqual(['requireServiceToken app.use src/app.ts:11']);
  });

  it('finds the contract route the optional parameter serves', async () => {
    const res = await check(writeProject(files));
    expect(findingRows(res.findings).filter((f) => f.includes('contract-route-missing'))).toEqual([
      'builtin:browser-control-plane@1:1:1 error contract-route-missing contract route GET /api/health/ready is not served by any analysed app',
      'builtin:browser-control-plane@1:2:1 error contract-route-missing contract route GET /api/auth/me/ is not served by any analysed app',
      'builtin:browser-control-plane@1:4:1 error contract-route-missing contract route GET /api/deployments/ is not served by any analysed app',
      'builtin:browser-control-plane@1:5:1 error contract-route-missing contract route GET /api/databases/ is not served by any analysed app',
    ]);
  });
});

describe('express 5: optional groups', () => {
  it('serves a path with and without the group', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { express: '5.1.0', pg: '8.13.1' } }),
      'src/middleware/session.ts': SESSION_GUARDS,
      'src/services/db.ts': DB,
      'src/app.ts': `
import express from 'express';
import { requireSession, requireTenantMember } from './middleware/session.js';
import { pool } from './services/db.js';

export const app = express();
app.use('/api', requireSession);
app.get('/api/deployments{/:deploymentId}', requireTenantMember, async (req, res) => {
  const { rows } = req.params.deploymentId
    ? await pool.query('select * from deployments where tenant_id = $1 and id = $2', [req.session.tenantId, req.params.deploymentId])
    : await pool.query('select * from deployments where tenant_id = $1', [req.session.tenantId]);
  res.json(rows);
});
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      // non-strict: `/api/deployments` serves the contract's `/api/deployments/`
      row('GET /api/deployments', 'contract', 'src/app.ts:8:1', { auth: AUTH, tenant: TENANT }, 'GET /api/deployments/'),
      row('GET /api/deployments/:deploymentId', 'browser', 'src/app.ts:8:1', { auth: AUTH, tenant: TENANT }),
    ]);
  });
});

describe('koa: optional parameters and `(.*)` wildcards (@koa/router 12)', () => {
  it('lists each form, and a pass-through layer on `/(.*)` guards the routes after it', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { koa: '2.16.1', '@koa/router': '12.0.2', pg: '8.13.1' } }),
      'src/services/db.ts': DB,
      'src/middleware/auth.ts': `
import type { Context, Next } from 'koa';
import { timingSafeEqual } from 'node:crypto';

export async function loadViewer(ctx: Context, next: Next) {
  const userId = ctx.session?.userId;
  if (!userId) ctx.throw(401, 'sign in');
  ctx.state.userId = userId;
  await next();
}

export async function requireServiceToken(ctx: Context, next: Next) {
  const given = Buffer.from(ctx.get('x-service-token'));
  const expected = Buffer.from(process.env.SERVICE_TOKEN ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) ctx.throw(401, 'service token required');
  await next();
}
`,
      'src/routes.ts': `
import Router from '@koa/router';
import { loadViewer, requireServiceToken } from './middleware/auth.js';
import { pool } from './services/db.js';

export const api = new Router({ prefix: '/api' });
api.use(loadViewer);
api.get('/databases/:databaseId?', async (ctx) => {
  const { rows } = ctx.params.databaseId
    ? await pool.query('select * from databases where owner = $1 and id = $2', [ctx.state.userId, ctx.params.databaseId])
    : await pool.query('select * from databases where owner = $1', [ctx.state.userId]);
  ctx.body = rows;
});

export const internal = new Router({ prefix: '/internal' });
// every request below /internal, whatever its method, shows the service token first
internal.all('/(.*)', requireServiceToken);
internal.post('/builds/:buildId/complete', async (ctx) => {
  await pool.query('update builds set state = $1 where id = $2', ['done', ctx.params.buildId]);
  ctx.status = 204;
});
`,
      'src/server.ts': `
import Koa from 'koa';
import { api, internal } from './routes.js';

const app = new Koa();
app.use(api.routes());
app.use(internal.routes());
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/databases', 'contract', 'src/routes.ts:8:1', { auth: ['loadViewer'] }, 'GET /api/databases/'),
      row('GET /api/databases/:databaseId', 'browser', 'src/routes.ts:8:1', { auth: ['loadViewer'] }),
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', 'src/routes.ts:18:1', SERVICE),
    ]);
    expect(findingRows(res.findings).filter((f) => f.includes('excluded-family-leak'))).toEqual([]);
  });
});

describe('fastify: an optional last parameter', () => {
  it('registers the path with and without it, under the plugin prefix', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { fastify: '5.2.1', pg: '8.13.1' } }),
      'src/services/db.ts': DB,
      'src/guards.ts': `
import type { FastifyReply, FastifyRequest } from 'fastify';
export async function requireSession(request: FastifyRequest, reply: FastifyReply) {
  if (!request.session?.userId) return reply.code(401).send({ error: 'sign in' });
}
`,
      'src/routes/sites.ts': `
import type { FastifyInstance } from 'fastify';
import { requireSession } from '../guards.js';
import { pool } from '../services/db.js';

export default async function sitesRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', requireSession);
  fastify.get('/:siteId?', async (request) => {
    const { siteId } = request.params as { siteId?: string };
    const { rows } = siteId
      ? await pool.query('select * from sites where owner = $1 and id = $2', [request.session.userId, siteId])
      : await pool.query('select * from sites where owner = $1', [request.session.userId]);
    return rows;
  });
}
`,
      'src/server.ts': `
import Fastify from 'fastify';
import sitesRoutes from './routes/sites.js';

const app = Fastify({ logger: true });
app.register(sitesRoutes, { prefix: '/api/sites' });
await app.listen({ port: 3000 });
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      // exact on the trailing slash (Fastify's default): `/api/sites` drifts from `/api/sites/`
      row('GET /api/sites', 'contract', 'src/routes/sites.ts:8:3', { auth: ['requireSession'] }, 'GET /api/sites/'),
      row('GET /api/sites/:siteId', 'browser', 'src/routes/sites.ts:8:3', { auth: ['requireSession'] }),
    ]);
    expect(res.routes.map((r) => r.contractMatch)).toEqual(['drift', null]);
  });
});

describe('hono: an optional last parameter', () => {
  it('registers the path with and without it', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { hono: '4.7.5', pg: '8.13.1' } }),
      'src/services/db.ts': DB,
      'src/app.ts': `
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { pool } from './services/db.js';

const app = new Hono();
app.use('/api/*', async (c, next) => {
  if (!getCookie(c, 'session')) return c.json({ error: 'sign in' }, 401);
  await next();
});
app.get('/api/databases/:databaseId?', async (c) => {
  const id = c.req.param('databaseId');
  const { rows } = id ? await pool.query('select * from databases where id = $1', [id]) : await pool.query('select * from databases');
  return c.json(rows);
});
// braces hold the parameter's pattern: one path
app.get('/api/deployments/:deploymentId{[0-9a-f]{12}}', async (c) => {
  const { rows } = await pool.query('select * from deployments where id = $1', [c.req.param('deploymentId')]);
  return c.json(rows[0] ?? null, rows[0] ? 200 : 404);
});
export default app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.line}:${r.column} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual([
      'GET /api/databases 11:1 [auth]',
      'GET /api/databases/:databaseId 11:1 [auth]',
      'GET /api/deployments/:deploymentId{[0-9a-f]{12}} 17:1 [auth]',
    ]);
  });
});

describe('nest: optional groups and wildcards (Nest 11 routes through path-to-regexp 8, Nest 10 through 0.1)', () => {
  it('`{*rest}`, `{/:id}` and `:id?` make a route of each form; the bare one serves the contract route', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { '@nestjs/common': '11.1.6', '@nestjs/core': '11.1.6', '@nestjs/platform-express': '11.1.6' } }),
      'src/main.ts': `
import { NestFactory } from '@nestjs/core';
import { Controller, Get, Module, Param } from '@nestjs/common';

@Controller('api/deployments')
export class DeploymentsController {
  @Get('{*rest}')
  list(@Param('rest') rest?: string[]) {
    return { deployments: [], under: rest ?? [] };
  }
}

@Controller('api/databases')
export class DatabasesController {
  @Get('{/:databaseId}')
  find(@Param('databaseId') databaseId?: string) {
    return databaseId ? { id: databaseId } : [];
  }
}

@Controller('api/sites')
export class SitesController {
  @Get(':siteId?')
  find(@Param('siteId') siteId?: string) {
    return siteId ? { id: siteId } : [];
  }
}

@Module({ controllers: [DeploymentsController, DatabasesController, SitesController] })
class AppModule {}

NestFactory.create(AppModule).then((app) => app.listen(3000));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.classification} ${r.contractRoute ?? '-'}`)).toEqual([
      'GET /api/databases contract GET /api/databases/',
      'GET /api/databases/:databaseId browser -',
      'GET /api/deployments contract GET /api/deployments/',
      'GET /api/deployments/*rest browser -',
      'GET /api/sites contract GET /api/sites/',
      'GET /api/sites/:siteId browser -',
    ]);
  });
});

describe('express 4: a wildcard after a segment of its own', () => {
  it('`/api/sites/*` (path-to-regexp 0.1: any text, none too) serves the contract route; an app-wide `/*` is matched as one segment', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'control-plane', dependencies: { express: '4.21.2' } }),
      'src/app.ts': `
import express from 'express';

export const app = express();
app.get('/api/sites/*', (req, res) => {
  res.json({ sites: [], under: req.params[0] });
});
app.get('/*', (req, res) => {
  res.sendFile('index.html', { root: 'public' });
});
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.classification} ${r.contractRoute ?? '-'}`)).toEqual(['GET /* browser -', 'GET /api/sites/* contract GET /api/sites/']);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.message)).toEqual([
      'contract route GET /api/health/ready is not served by any analysed app',
      'contract route GET /api/auth/me/ is not served by any analysed app',
      'contract route GET /api/deployments/ is not served by any analysed app',
      'contract route GET /api/databases/ is not served by any analysed app',
    ]);
  });
});
