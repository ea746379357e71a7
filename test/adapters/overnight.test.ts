/**
 * OvernightJS: fixtures/overnight, a control plane whose Express app a `Server` subclass fills
 * with decorated controllers. Expectations derived by hand from @overnightjs/core 1.7.6
 * (Server.addControllers and getRouter in lib/Server.ts; Controller, ClassOptions and
 * ChildControllers in lib/decorators/class.ts; the verbs in method.ts, each path `'/' + path`
 * or `''`; Middleware and ClassMiddleware in middleware.ts, each decorator prepending its list).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeLinesAt, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

const DIR = path.join(ROOT, 'fixtures', 'overnight');

const PACKAGE = JSON.stringify({ name: 'api', dependencies: { '@overnightjs/core': '^1.7.6', express: '^4.21.2' } });

const AUTH = `import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.cookies?.sid) return res.status(401).json({ error: 'unauthenticated' });
  next();
}

export function audit(req: Request, res: Response, next: NextFunction) {
  console.log(req.method, req.originalUrl);
  next();
}
`;

describe('OvernightJS', () => {
  it("lists each controller's routes where addControllers mounts it, behind the app's earlier layers, the class middleware of every controller above and the method's own", async () => {
    const res = await check(DIR);
    const S = ['requireSession'];
    expect(routeRows(res.routes)).toEqual([
      row('POST /api/auth/logout', 'browser', 'src/controllers/api/auth.ts:11:3', { auth: S }),
      // ApiController's @ClassMiddleware runs before its children's routes
      row('GET /api/auth/me', 'contract', 'src/controllers/api/auth.ts:6:3', { auth: S }, 'GET /api/auth/me/'),
      row('GET /api/databases', 'contract', 'src/controllers/api/databases.ts:7:3', { auth: S }, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', 'src/controllers/api/deployments.ts:7:3', { auth: S }, 'GET /api/deployments/'),
      // mounted at /api/health before ApiController at /api: its session check never runs for it
      row('GET /api/health/ready', 'public', 'src/controllers/health.ts:7:3', {}, 'GET /api/health/ready'),
      // `@Get()`: the path of the controller's own router
      row('GET /api/sites', 'contract', 'src/controllers/api/sites.ts:8:3', { auth: S }, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', 'src/controllers/api/sites.ts:13:3', { auth: S, csrf: ['verifyCsrf'] }),
      row('DELETE /api/sites/:siteId', 'browser', 'src/controllers/api/sites.ts:31:3', { auth: S, tenant: ['requireSiteMember'], csrf: ['verifyCsrf'] }),
      row('GET /api/sites/:siteId', 'browser', 'src/controllers/api/sites.ts:24:3', { auth: S, tenant: ['requireSiteMember'] }),
      row('PUT /api/sites/:siteId', 'browser', 'src/controllers/api/sites.ts:40:3', { auth: S }),
      // added after the app's 404 handler: no request reaches it
      row('POST /internal/cache/purge', 'excluded:internal', 'src/controllers/internal.ts:8:3', {
        auth: ['(refuses every request)', 'requireInternalToken'],
        tenant: ['(refuses every request)'],
        csrf: ['(refuses every request)'],
        family: ['requireInternalToken'],
        bearer: ['requireInternalToken'],
      }),
    ]);
    expect(res.routes.map((r) => `${r.handler} ${r.app}`)).toEqual([
      'AuthController.logout ControlPlaneServer',
      'AuthController.me ControlPlaneServer',
      'DatabasesController.list ControlPlaneServer',
      'DeploymentsController.list ControlPlaneServer',
      'HealthController.ready ControlPlaneServer',
      'SitesController.list ControlPlaneServer',
      'SitesController.create ControlPlaneServer',
      'SitesController.remove ControlPlaneServer',
      'SitesController.get ControlPlaneServer',
      'SitesController.rename ControlPlaneServer',
      'InternalController.purge ControlPlaneServer',
    ]);
    // two @Middleware decorators run in the order they are written; the prefixes are the controllers'
    const remove = res.routes.find((r) => r.method === 'DELETE')!;
    expect(remove.guards.map((g) => `${g.name} ${g.file}:${g.line}`)).toEqual([
      'requireSession src/controllers/api/index.ts:10',
      'requireSiteMember src/controllers/api/sites.ts:32',
      'verifyCsrf src/controllers/api/sites.ts:33',
    ]);
    expect(remove.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['/api src/controllers/api/index.ts:9', '/sites src/controllers/api/sites.ts:6']);
    expect(findingRows(res.findings)).toEqual([
      'src/controllers/api/auth.ts:6:3 error missing-tenant-guard GET /api/auth/me has no tenant guard',
      'src/controllers/api/auth.ts:11:3 error missing-csrf-guard POST /api/auth/logout changes state on the browser session without a CSRF guard',
      'src/controllers/api/auth.ts:11:3 error missing-tenant-guard POST /api/auth/logout has no tenant guard',
      'src/controllers/api/auth.ts:11:3 info uncontracted-route POST /api/auth/logout is on the browser surface but not in the contract',
      'src/controllers/api/databases.ts:7:3 error missing-tenant-guard GET /api/databases has no tenant guard',
      'src/controllers/api/deployments.ts:7:3 error missing-tenant-guard GET /api/deployments has no tenant guard',
      'src/controllers/api/sites.ts:8:3 error missing-tenant-guard GET /api/sites has no tenant guard',
      'src/controllers/api/sites.ts:13:3 error missing-tenant-guard POST /api/sites has no tenant guard',
      'src/controllers/api/sites.ts:13:3 info uncontracted-route POST /api/sites is on the browser surface but not in the contract',
      'src/controllers/api/sites.ts:24:3 info uncontracted-route GET /api/sites/:siteId is on the browser surface but not in the contract',
      'src/controllers/api/sites.ts:31:3 info uncontracted-route DELETE /api/sites/:siteId is on the browser surface but not in the contract',
      'src/controllers/api/sites.ts:40:3 error missing-csrf-guard PUT /api/sites/:siteId changes state on the browser session without a CSRF guard',
      'src/controllers/api/sites.ts:40:3 error missing-tenant-guard PUT /api/sites/:siteId has no tenant guard',
      'src/controllers/api/sites.ts:40:3 info uncontracted-route PUT /api/sites/:siteId is on the browser surface but not in the contract',
    ]);
  });

  it('a server made with `new Server()`, a class extending it and one of a class expression (plunk): each its own app, with its global middleware, layers and routes', async () => {
    const res = await check(
      writeProject({
        'package.json': PACKAGE,
        'src/auth.ts': AUTH,
        'src/sites.ts': `import { Controller, Get, Post } from '@overnightjs/core';
import type { Request, Response } from 'express';

@Controller('api/sites')
export class Sites {
  @Get()
  @Get('all')
  list(req: Request, res: Response) {
    res.json([]);
  }

  @Post(/^\\/import$/)
  importSites(req: Request, res: Response) {
    res.status(202).end();
  }
}
`,
        'src/server.ts': `import { Server } from '@overnightjs/core';
import express from 'express';
import { Sites } from './sites';
import { audit, requireSession } from './auth';

export class ControlPlane extends Server {
  constructor() {
    super(true);
    this.app.use(express.json());
    this.app.use('/api', requireSession);
    this.addControllers([new Sites()], undefined, audit);
    this.app.get('/health', (req, res) => res.json({ ok: true }));
  }
}

// the global middleware given addControllers runs before every controller's routes
export const plain = new Server();
plain.addControllers(new Sites(), undefined, requireSession);
plain.app.use('/api', audit);

const edge = new (class extends Server {
  public constructor() {
    super();
    this.addControllers([new Sites()]);
    this.app.use('/api', requireSession);
  }
})();
edge.app.listen(4000);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line} ${r.app}`)).toEqual([
      'GET /api/sites [requireSession] src/sites.ts:6 ControlPlane',
      // (the class expression's session check is registered after its controllers)
      'GET /api/sites [] src/sites.ts:6 server',
      'GET /api/sites [requireSession] src/sites.ts:6 plain',
      'GET /api/sites/all [requireSession] src/sites.ts:7 ControlPlane',
      'GET /api/sites/all [] src/sites.ts:7 server',
      'GET /api/sites/all [requireSession] src/sites.ts:7 plain',
      'GET /health [] src/server.ts:12 ControlPlane',
    ]);
    expect(unresolvedRows(res)).toEqual(['src/sites.ts:12:3 warning unresolved-route POST route of Sites.importSites with a path a regular expression, not modelled; it is left out']);
  });

  it("@ClassOptions({ strict: true }) makes the controller's router strict: `@Get('databases')` then does not serve the contract's `/api/databases/`", async () => {
    const project = (options: string) =>
      writeProject({
        'package.json': PACKAGE,
        'src/auth.ts': AUTH,
        'src/server.ts': `import { ClassMiddleware, ClassOptions, Controller, Get, Server } from '@overnightjs/core';
import type { Request, Response } from 'express';
import { requireSession } from './auth';

@Controller('api')
@ClassMiddleware(requireSession)
${options}
class Databases {
  @Get('databases')
  list(req: Request, res: Response) {
    res.json([]);
  }
}

const server = new Server();
server.addControllers([new Databases()]);
`,
      });
    const drift = async (dir: string) => findingRows((await check(dir)).findings.filter((f) => f.ruleId === 'contract-route-drift' || f.message.includes('/api/databases/')));
    expect(await drift(project(''))).toEqual([]);
    expect(await drift(project('@ClassOptions({ strict: true, mergeParams: true })'))).toEqual([
      'src/server.ts:9:3 error contract-route-drift GET /api/databases drifts from the contract route GET /api/databases/: trailing slash differs and express matches it exactly (strict routing)',
    ]);
  });

  it('controller paths as OvernightJS joins them (`@Controller(\'/api\')` is mounted at `//api`), and what it cannot read, said so', async () => {
    const res = await check(
      writeProject({
        'package.json': PACKAGE,
        'src/factory.ts': `import { Legacy } from './legacy';

export const makeController = () => new Legacy();
`,
        'src/server.ts': `import { Controller, Get, Server } from '@overnightjs/core';
import { makeController } from './factory';

@Controller('/api')
class Slashed {
  @Get('status')
  status() {}
}

@Controller(process.env.ADMIN_PATH!)
class Admin {
  @Get('users')
  users() {}
}

// (no decorator: OvernightJS mounts nothing of it)
class Plain {
  list() {}
}

const server = new Server();
server.addControllers([new Slashed(), new Admin(), new Plain(), makeController()]);
`,
      }),
    );
    expect(routeLinesAt(res)).toEqual(['GET //api/status [] src/server.ts:6']);
    expect(unresolvedRows(res)).toEqual([
      'src/server.ts:10:1 warning unresolved-route the path of controller Admin is not known statically; its routes are left out',
      'src/server.ts:22:1 warning unresolved-route a controller this addControllers() call is given is not known statically; its routes are left out',
    ]);
  });
});
