/**
 * Paths written as `test ? a : b` (Evaluator, `choice`): a test known statically takes its
 * branch; any other lists the routes at each path, as an `if` / `else` around two
 * registrations would. A guard placed at one of a few paths runs only when the code takes that
 * path, so it guards only the routes mounted under the same choice (the same test giving the
 * same paths); any other route its paths match has it as a conditional guard.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';
import type { RunResult } from '../../src/engine.js';

const GUARDS = `import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}
`;

/** Routes as "METHOD /path [guards] (conditional guards: when)". */
function withGuards(res: RunResult): string[] {
  return res.routes.map((r) => {
    const when = (r.conditionalGuards ?? []).map((g) => `${g.name} when ${g.when}`);
    return `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]${when.length ? ` (${when.join('; ')})` : ''}`;
  });
}

describe('paths written as test ? a : b', () => {
  it('express: each path a test not known statically may take is served; a constant test takes its branch', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/guards.ts': GUARDS,
      'src/app.ts': `import express, { Router } from 'express';
import { requireSession } from './guards';

const V2 = false;
const legacy = process.env.LEGACY_API === '1';

const api = Router();
api.get(legacy ? '/sites' : '/projects', (req, res) => res.json({ items: [] }));
api.get(V2 ? '/v2/status' : '/v1/status', (req, res) => res.json({ ok: true }));
api.get(\`/exports/\${legacy ? 'csv' : 'ndjson'}\`, (req, res) => res.json({ items: [] }));
api.get(legacy ? '/archive' : process.env.ARCHIVE_PATH, (req, res) => res.json({ items: [] }));

const app = express();
app.use(legacy ? '/api' : '/api/v1', requireSession, api);
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(withGuards(res)).toEqual([
      'GET /api/exports/csv [requireSession]',
      'GET /api/exports/ndjson [requireSession]',
      'GET /api/projects [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/v1/exports/csv [requireSession]',
      'GET /api/v1/exports/ndjson [requireSession]',
      'GET /api/v1/projects [requireSession]',
      'GET /api/v1/sites [requireSession]',
      'GET /api/v1/status [requireSession]',
      'GET /api/v1/v1/status [requireSession]',
    ]);
    // (one branch not known statically: the path is not)
    expect(unresolvedRows(res)).toEqual(["src/app.ts:11:1 warning unresolved-route GET route with a path not known statically (legacy ? '/archive' : process.env.ARCHIVE_PATH); it is left out"]);
  });

  it('express: middleware at one of a few paths guards the routes mounted under the same choice, and no others', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/guards.ts': GUARDS,
      'src/app.ts': `import express, { Router } from 'express';
import { requireSession } from './guards';

const legacy = process.env.LEGACY_API === '1';
const app = express();

const api = Router();
api.get('/sites', (req, res) => res.json({ items: [] }));
app.use(legacy ? '/api' : '/api/v1', requireSession);
app.use(legacy ? '/api' : '/api/v1', api);

const admin = Router();
admin.get('/stats', (req, res) => res.json({}));
app.use(legacy ? '/admin' : '/ops', requireSession);
app.use(legacy ? '/ops' : '/admin', admin);
app.listen(3000);
`,
    });
    const res = await check(dir);
    const when = "legacy ? '/admin' : '/ops' takes its path";
    expect(withGuards(res)).toEqual([
      // the same test turned the other way: when /admin serves the stats, the guard is at /ops
      `GET /admin/stats [] (requireSession when ${when})`,
      'GET /api/sites [requireSession]',
      'GET /api/v1/sites [requireSession]',
      `GET /ops/stats [] (requireSession when ${when})`,
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual([
      `GET /admin/stats has no auth guard (requireSession is one, but applied only when \`${when}\`, which is not known statically: src/app.ts:14)`,
    ]);
  });

  it("express: a base class's route() registers every controller's routes on one line; one controller's choice of path conditions none of the others' route middleware", async () => {
    // (Unleash's Controller.route(): `this.app[options.method](options.path, checkPermission(…), …)`,
    // its ContextController registering at `mode === 'global' ? '' : '/:projectId/context'`)
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/guards.ts': GUARDS,
      'src/controller.ts': `import { Router, type RequestHandler } from 'express';
import { requireSession } from './guards';

export default class Controller {
  app = Router();

  route(options: { method: 'get' | 'post'; path: string; handler: RequestHandler }): void {
    this.app[options.method](options.path, requireSession, options.handler);
  }

  get(path: string, handler: RequestHandler): void {
    this.route({ method: 'get', path, handler });
  }
}
`,
      'src/context.ts': `import Controller from './controller';

const perProject = process.env.PROJECT_CONTEXT === '1';

export class ContextController extends Controller {
  constructor() {
    super();
    const prefix = perProject ? '/:projectId/context' : '';
    this.get(\`\${prefix}/fields\`, (req, res) => res.json({ fields: [] }));
  }
}
`,
      'src/features.ts': `import Controller from './controller';

export class FeatureController extends Controller {
  constructor() {
    super();
    this.get('/features', (req, res) => res.json({ features: [] }));
  }
}
`,
      'src/app.ts': `import express from 'express';
import { ContextController } from './context';
import { FeatureController } from './features';

const app = express();
app.use('/api/admin', new ContextController().app);
app.use('/api/admin', new FeatureController().app);
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(withGuards(res)).toEqual([
      'GET /api/admin/:projectId/context/fields [requireSession]',
      'GET /api/admin/features [requireSession]',
      'GET /api/admin/fields [requireSession]',
    ]);
  });

  it('hono, koa and fastify: routes, mounts, router prefixes and plugin prefixes of one of a few paths', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { hono: '^4.8.0', koa: '^2.16.0', '@koa/router': '^13.1.0', fastify: '^5.4.0' } }),
      'src/hono.ts': `import { Hono } from 'hono';

const legacy = process.env.LEGACY === '1';
const reports = new Hono();
reports.get('/daily', (c) => c.json({ items: [] }));

const app = new Hono();
app.get(legacy ? '/hono/sites' : '/hono/projects', (c) => c.json({ items: [] }));
app.route(legacy ? '/hono/r1' : '/hono/r2', reports);
export default app;
`,
      'src/koa.ts': `import Koa from 'koa';
import Router from '@koa/router';

const legacy = process.env.LEGACY === '1';
const router = new Router({ prefix: legacy ? '/koa/v1' : '/koa/v2' });
router.get(legacy ? '/sites' : '/projects', async (ctx) => { ctx.body = { items: [] }; });

const app = new Koa();
app.use(router.routes());
`,
      'src/fastify.ts': `import Fastify from 'fastify';

const legacy = process.env.LEGACY === '1';
const app = Fastify();
app.get(legacy ? '/fastify/sites' : '/fastify/projects', async () => ({ items: [] }));
app.register(async (f) => { f.get('/usage', async () => ({})); }, { prefix: legacy ? '/fastify/p1' : '/fastify/p2' });
app.listen({ port: 3000 });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.framework}`)).toEqual([
      'GET /fastify/p1/usage fastify',
      'GET /fastify/p2/usage fastify',
      'GET /fastify/projects fastify',
      'GET /fastify/sites fastify',
      'GET /hono/projects hono',
      'GET /hono/r1/daily hono',
      'GET /hono/r2/daily hono',
      'GET /hono/sites hono',
      'GET /koa/v1/projects koa',
      'GET /koa/v1/sites koa',
      'GET /koa/v2/projects koa',
      'GET /koa/v2/sites koa',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
