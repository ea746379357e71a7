/**
 * inversify-express-utils: a control plane whose controllers an inversify container serves,
 * their middleware given as container identifiers, classes and functions. Expectations derived
 * by hand from inversify-express-utils 6.5.0 (InversifyExpressServer.registerControllers,
 * mergePaths and resolveMiddlewere in src/server.ts; controller, httpMethod and withMiddleware
 * in src/decorators.ts; getControllerMethodMetadata in src/utils.ts).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { findingRows, routeRows, row } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { mergePaths } from '../../src/adapters/inversify-express-utils/index.js';

const PKG = JSON.stringify({
  name: 'control-plane',
  dependencies: { express: '^4.21.2', inversify: '^6.2.2', 'inversify-express-utils': '^6.5.0', 'reflect-metadata': '^0.2.2' },
});

const FILES = {
  'package.json': PKG,
  'src/types.ts': `export const TYPES = {
  SessionMiddleware: Symbol.for('SessionMiddleware'),
  MembershipMiddleware: Symbol.for('MembershipMiddleware'),
  SiteRepository: Symbol.for('SiteRepository'),
};
`,
  'src/middleware/session.middleware.ts': `import type { NextFunction, Request, Response } from 'express';
import { injectable } from 'inversify';
import { BaseMiddleware } from 'inversify-express-utils';

@injectable()
export class SessionMiddleware extends BaseMiddleware {
  handler(req: Request, res: Response, next: NextFunction): void {
    const userId = (req as Request & { session?: { userId?: string } }).session?.userId;
    if (!userId) {
      res.status(401).json({ error: 'sign in first' });
      return;
    }
    res.locals.userId = userId;
    next();
  }
}
`,
  'src/middleware/membership.middleware.ts': `import type { NextFunction, Request, Response } from 'express';
import { BaseMiddleware } from 'inversify-express-utils';
import type { SiteRepository } from '../sites/site.repository';

export class MembershipMiddleware extends BaseMiddleware {
  constructor(private readonly sites: SiteRepository) {
    super();
  }

  async handler(req: Request, res: Response, next: NextFunction): Promise<void> {
    const site = await this.sites.find(req.params.siteId);
    if (!site || site.tenantId !== res.locals.tenantId) {
      res.status(404).json({ error: 'site not found' });
      return;
    }
    next();
  }
}
`,
  'src/middleware/admin.middleware.ts': `import type { NextFunction, Request, Response } from 'express';
import { injectable } from 'inversify';
import { BaseMiddleware } from 'inversify-express-utils';

@injectable()
export class AdminMiddleware extends BaseMiddleware {
  handler(req: Request, res: Response, next: NextFunction): void {
    const session = (req as Request & { session?: { userId?: string; role?: string } }).session;
    if (!session?.userId) {
      res.status(401).json({ error: 'sign in first' });
      return;
    }
    if (session.role !== 'admin') {
      res.status(403).json({ error: 'administrators only' });
      return;
    }
    next();
  }
}
`,
  'src/middleware/audit.ts': `import type { NextFunction, Request, Response } from 'express';

export function auditLog(req: Request, _res: Response, next: NextFunction): void {
  console.log(JSON.stringify({ at: new Date().toISOString(), method: req.method, path: req.path }));
  next();
}
`,
  'src/sites/site.repository.ts': `export interface Site {
  id: string;
  tenantId: string;
  name: string;
}

export class SiteRepository {
  private readonly rows = new Map<string, Site>();

  async find(id: string): Promise<Site | undefined> {
    return this.rows.get(id);
  }

  async list(tenantId: string): Promise<Site[]> {
    return [...this.rows.values()].filter((s) => s.tenantId === tenantId);
  }
}
`,
  'src/container.ts': `import 'reflect-metadata';
import { Container } from 'inversify';
import { TYPES as T } from './types';
import { SessionMiddleware } from './middleware/session.middleware';
import { MembershipMiddleware } from './middleware/membership.middleware';
import { AdminMiddleware } from './middleware/admin.middleware';
import { SiteRepository } from './sites/site.repository';
import './controllers/sites.controller';
import './controllers/health.controller';
import './controllers/admin.controller';

export const container = new Container();
const sites = new SiteRepository();
container.bind<SiteRepository>(T.SiteRepository).toConstantValue(sites);
container.bind<SessionMiddleware>(T.SessionMiddleware).to(SessionMiddleware);
container.bind<MembershipMiddleware>(T.MembershipMiddleware).toConstantValue(new MembershipMiddleware(sites));
container.bind(AdminMiddleware).toSelf();
`,
  'src/controllers/sites.controller.ts': `import type { Request } from 'express';
import { inject } from 'inversify';
import { BaseHttpController, controller, httpDelete, httpGet, httpPost, httpPut, request, requestParam, withMiddleware } from 'inversify-express-utils';
import { TYPES } from '../types';
import { auditLog } from '../middleware/audit';
import type { SiteRepository } from '../sites/site.repository';

@controller('/sites/', TYPES.SessionMiddleware)
export class SitesController extends BaseHttpController {
  constructor(@inject(TYPES.SiteRepository) private readonly sites: SiteRepository) {
    super();
  }

  @httpGet('/')
  async list(@request() req: Request) {
    return this.json(await this.sites.list(String(req.res?.locals.tenantId)));
  }

  @httpGet(':siteId', TYPES.MembershipMiddleware)
  async get(@requestParam('siteId') siteId: string) {
    return this.json(await this.sites.find(siteId));
  }

  @httpPost('/', auditLog)
  async create(@request() req: Request) {
    return this.created('/sites/new', req.body);
  }

  @httpDelete(':siteId')
  @withMiddleware(TYPES.MembershipMiddleware)
  async remove(@requestParam('siteId') siteId: string) {
    return this.json({ removed: siteId });
  }

  // (applied after @httpPut, which has read its middleware already: the package ignores it)
  @withMiddleware(TYPES.MembershipMiddleware)
  @httpPut(':siteId')
  async rename(@requestParam('siteId') siteId: string, @request() req: Request) {
    return this.json({ id: siteId, name: req.body.name });
  }
}
`,
  'src/controllers/health.controller.ts': `import { controller, httpGet } from 'inversify-express-utils';

@controller('health')
export class HealthController {
  @httpGet('ready/')
  ready() {
    return { ok: true };
  }
}
`,
  'src/controllers/versioned.ts': `import { httpGet } from 'inversify-express-utils';

export class VersionedController {
  @httpGet('/version')
  version() {
    return { version: '2.4.0' };
  }
}
`,
  'src/controllers/admin.controller.ts': `import { controller, httpDelete, httpMethod, withMiddleware } from 'inversify-express-utils';
import { AdminMiddleware } from '../middleware/admin.middleware';
import { auditLog } from '../middleware/audit';
import { VersionedController } from './versioned';

@controller('/ops', AdminMiddleware)
export class AdminController extends VersionedController {
  // (decorators run bottom-up: this one is seen by @httpDelete, written above it)
  @httpDelete('/cache')
  @withMiddleware(auditLog)
  purge() {
    return { purged: true };
  }

  @httpMethod('purge', '/cdn')
  purgeCdn() {
    return { purged: 'cdn' };
  }
}
`,
  'src/server.ts': `import bodyParser from 'body-parser';
import { InversifyExpressServer } from 'inversify-express-utils';
import { container } from './container';

const server = new InversifyExpressServer(container, null, { rootPath: '/api' });
server.setConfig((app) => {
  app.use(bodyParser.json());
});
const app = server.build();
app.listen(Number(process.env.PORT ?? 3000));
`,
};

describe('inversify-express-utils', () => {
  it("lists each decorated controller's routes under the root path, behind the controller's and the method's middleware, container identifiers resolved to their classes", async () => {
    const res = await check(writeProject(FILES));
    const S = { auth: ['SessionMiddleware'] };
    expect(routeRows(res.routes)).toEqual([
      // mergePaths: `health` and `ready/` get their leading slash and lose the trailing one
      row('GET /api/health/ready', 'public', 'src/controllers/health.controller.ts:5:3', {}, 'GET /api/health/ready'),
      // the class's middleware (AdminMiddleware: 401 without a session, by behaviour an auth
      // guard, and an ops one by name), then the method's: what @withMiddleware adds is auditLog, no guard
      row('DELETE /api/ops/cache', 'excluded:ops', 'src/controllers/admin.controller.ts:9:3', { auth: ['AdminMiddleware'], family: ['AdminMiddleware'] }),
      row('PURGE /api/ops/cdn', 'excluded:ops', 'src/controllers/admin.controller.ts:15:3', { auth: ['AdminMiddleware'], family: ['AdminMiddleware'] }),
      // an action of the class it extends, under the subclass's path and middleware
      row('GET /api/ops/version', 'excluded:ops', 'src/controllers/versioned.ts:4:3', { auth: ['AdminMiddleware'], family: ['AdminMiddleware'] }),
      row('GET /api/sites', 'contract', 'src/controllers/sites.controller.ts:14:3', S, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', 'src/controllers/sites.controller.ts:24:3', S),
      // @withMiddleware written below @httpDelete adds to its middleware
      row('DELETE /api/sites/:siteId', 'browser', 'src/controllers/sites.controller.ts:29:3', { ...S, tenant: ['MembershipMiddleware'] }),
      // the constant the container binds TYPES.MembershipMiddleware to, `new MembershipMiddleware(sites)`: a tenant check
      row('GET /api/sites/:siteId', 'browser', 'src/controllers/sites.controller.ts:19:3', { ...S, tenant: ['MembershipMiddleware'] }),
      // …and written above @httpPut, it comes too late
      row('PUT /api/sites/:siteId', 'browser', 'src/controllers/sites.controller.ts:37:3', S),
    ]);
    expect(res.routes.map((r) => r.handler)).toEqual([
      'HealthController.ready',
      'AdminController.purge',
      'AdminController.purgeCdn',
      'AdminController.version',
      'SitesController.list',
      'SitesController.create',
      'SitesController.remove',
      'SitesController.get',
      'SitesController.rename',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('a root path not known statically is a step of every route; a controller path not known statically leaves its routes out, reported', async () => {
    const res = await check(
      writeProject({
        ...FILES,
        'src/server.ts': `import { InversifyExpressServer } from 'inversify-express-utils';
import { container } from './container';

const server = new InversifyExpressServer(container, null, { rootPath: process.env.API_ROOT! });
server.build().listen(3000);
`,
        'src/controllers/health.controller.ts': `import { controller, httpGet } from 'inversify-express-utils';

@controller(process.env.HEALTH_PATH!)
export class HealthController {
  @httpGet('/ready')
  ready() {
    return { ok: true };
  }
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.prefixes.map((p) => p.unknown ?? p.prefix).join(' ')}`)).toEqual([
      'DELETE /ops/cache property API_ROOT of a value not known statically',
      'PURGE /ops/cdn property API_ROOT of a value not known statically',
      'GET /ops/version property API_ROOT of a value not known statically',
      'GET /sites property API_ROOT of a value not known statically',
      'POST /sites property API_ROOT of a value not known statically',
      'DELETE /sites/:siteId property API_ROOT of a value not known statically',
      'GET /sites/:siteId property API_ROOT of a value not known statically',
      'PUT /sites/:siteId property API_ROOT of a value not known statically',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/controllers/health.controller.ts:3:1 warning unresolved-route the path of controller HealthController is not known statically; its routes are left out',
      'src/server.ts:4:16 warning unresolved-route the rootPath of this inversify-express-utils server is not known statically (property API_ROOT of a value not known statically); its routes are listed without it',
    ]);
  });

  it('mergePaths gives each path a leading slash (but one starting with a dot) and drops one trailing slash; an empty one adds nothing (as before 6.5.0)', () => {
    expect(mergePaths('users', ':id')).toBe('/users/:id');
    expect(mergePaths('/users/', '/')).toBe('/users');
    expect(mergePaths('/', '/')).toBe('');
    expect(mergePaths('./v1', 'items')).toBe('./v1/items');
    // standardnotes' gateway: `@controller('')` and `@httpPost('/items/sync')`
    expect(mergePaths('', '/items/sync')).toBe('/items/sync');
    expect(mergePaths('', '*')).toBe('/*');
  });
});
