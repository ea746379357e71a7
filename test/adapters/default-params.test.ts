/**
 * A parameter that defaults to a router of its own (`function init(app = new Koa())`): the
 * default is the value whenever a call passes none (JavaScript's rule) — also when no call
 * in the analysed files reaches the function, as when a server loads its services by a
 * dynamic import (outline/outline's `server/services/web.ts`).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.guards.length ? ' ' + r.guards.map((g) => g.name).join(' ') : ''}`);
}

const KOA = JSON.stringify({ name: 'docs', dependencies: { koa: '^2.15.0', 'koa-router': '^12.0.1', 'koa-mount': '^4.0.0' } });

describe('a parameter defaulting to a router', () => {
  it('Koa: a service whose init(app = new Koa()) no analysed call reaches mounts the API app on its own app', async () => {
    const res = await check(
      writeProject({
        'package.json': KOA,
        'server/middlewares/authentication.ts': `
import type { Context, Next } from 'koa';
export default function auth() {
  return async function authMiddleware(ctx: Context, next: Next) {
    const token = ctx.cookies.get('accessToken');
    if (!token) {
      ctx.status = 401;
      ctx.body = { error: 'authentication_required' };
      return;
    }
    ctx.state.auth = { token };
    await next();
  };
}
`,
        'server/routes/api/documents.ts': `
import Router from 'koa-router';
import auth from '../../middlewares/authentication';
const router = new Router();
router.post('documents.list', auth(), async (ctx) => {
  ctx.body = { data: [] };
});
router.post('documents.info', auth(), async (ctx) => {
  ctx.body = { data: { id: ctx.request.body.id } };
});
export default router;
`,
        'server/routes/api/index.ts': `
import Koa from 'koa';
import Router from 'koa-router';
import documents from './documents';
const api = new Koa();
const router = new Router();
router.use('/', documents.routes());
api.use(router.routes());
export default api;
`,
        'server/services/web.ts': `
import Koa from 'koa';
import mount from 'koa-mount';
import api from '../routes/api';
export default function init(app: Koa = new Koa()) {
  app.use(mount('/api', api));
  return app;
}
`,
        'server/services/index.ts': `
const services = {
  web: () => import('./web'),
} as const;
export default services;
`,
        'server/main.ts': `
import Koa from 'koa';
import services from './services';
async function start(names: string[]) {
  const app = new Koa();
  for (const name of names) {
    const { default: init } = await services[name as keyof typeof services]();
    await init(app);
  }
  app.listen(3000);
}
void start(['web']);
`,
      }),
    );
    expect(lines(res)).toEqual(['POST /api/documents.info auth', 'POST /api/documents.list auth']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Express: a caller passing no app gets the default app; a caller passing one mounts on it', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/routes/sites.ts': `
import express from 'express';
const sites = express.Router();
sites.get('/', (req, res) => res.json({ items: [] }));
export default sites;
`,
        'src/mount.ts': `
import express from 'express';
import sites from './routes/sites';
export function mountApi(db: { url: string }, app = express()) {
  app.locals.db = db;
  app.use('/api/sites', sites);
  return app;
}
`,
        'src/server.ts': `
import express from 'express';
import { mountApi } from './mount';
const app = express();
const db = { url: process.env.DATABASE_URL ?? '' };
app.use(express.json());
mountApi(db, app);
app.listen(3000);
`,
        'src/preview.ts': `
import { mountApi } from './mount';
const db = { url: 'postgres://localhost/preview' };
// the preview's own app: the default one
mountApi(db);
`,
      }),
    );
    // one route per app: the server's, and the default app of the preview's call
    expect(lines(res)).toEqual(['GET /api/sites/', 'GET /api/sites/']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Hono: an app builder whose callers pass nothing registers its routes on the default app', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'edge', dependencies: { hono: '^4.6.0' } }),
        'src/sites.ts': `
import { Hono } from 'hono';
const sites = new Hono();
sites.get('/', (c) => c.json({ items: [] }));
sites.get('/:siteId', (c) => c.json({ id: c.req.param('siteId') }));
export default sites;
`,
        'src/build.ts': `
import { Hono } from 'hono';
import sites from './sites';
export function build(app = new Hono()) {
  app.get('/healthz', (c) => c.text('ok'));
  app.route('/api/sites', sites);
  return app;
}
`,
        'src/index.ts': `
import { build } from './build';
export default { fetch: build().fetch };
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/sites', 'GET /api/sites/:siteId', 'GET /healthz']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a default that is no router leaves the registrations on the parameter unbound, and says so', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/routes.ts': `
export default function routes(app: any, options = { prefix: '/api' }) {
  app.get(options.prefix + '/sites', (req: any, res: any) => res.json({ items: [] }));
}
`,
      }),
    );
    expect(lines(res)).toEqual([]);
    expect(unresolvedRows(res)).toEqual([
      "src/routes.ts:3:3 warning unresolved-route routes registered on the parameter 'app' of routes() whose callers pass no router known statically; their prefix is unknown",
    ]);
  });
});
