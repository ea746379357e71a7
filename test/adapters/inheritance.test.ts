/**
 * Controller classes extending a base class that owns the router (`router = Router()` in the
 * base, routes registered on `this.router` by each subclass): each subclass gets a router of
 * its own, with the base's registrations first, and the fields the base sets from its
 * constructor's parameters are what the subclass passes to `super(…)`.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const KOA_PACKAGE = JSON.stringify({ name: 'api', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0' } });

const AUTH = `
import type { NextFunction, Request, Response } from 'express';

export const requireSession = (req: Request, res: Response, next: NextFunction) => {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
};
`;

// Unleash's base controller: `route(options)` registers on the router its constructor makes, which a getter returns
const UNLEASH_CONTROLLER = `
import { Router, type IRouter, type Request, type Response } from 'express';

type Handler = (req: Request, res: Response) => Promise<void>;

export default class Controller {
  app: IRouter;
  config: { baseUriPath: string };

  constructor(config: { baseUriPath: string }) {
    this.app = Router();
    this.config = config;
  }

  route(options: { method: 'get' | 'post' | 'delete'; path: string; handler: Handler }): void {
    this.app[options.method](options.path, this.useRouteErrorHandler(options.handler.bind(this)));
  }

  get(path: string, handler: Handler): void {
    this.route({ method: 'get', path, handler });
  }

  private useRouteErrorHandler(handler: Handler): Handler {
    return async (req, res) => {
      try {
        await handler(req, res);
      } catch (error) {
        res.status(500).json({ error: String(error) });
      }
    };
  }

  get router(): IRouter {
    return this.app;
  }
}
`;

const PROJECTS = `
import type { Request, Response } from 'express';
import { BaseController } from './base.controller';
import { ProjectsService } from '../services/projects.service';

export class ProjectsController extends BaseController {
  private readonly projects = new ProjectsService();

  constructor() {
    super('/projects');
  }

  protected initializeRoutes(): void {
    this.router.get('/', this.list);
    this.router.get('/:projectId', this.show);
  }

  private list = async (req: Request, res: Response) => {
    res.json({ items: await this.projects.list(req.session.tenantId) });
  };

  private show = async (req: Request, res: Response) => {
    const project = await this.projects.find(req.session.tenantId, req.params.projectId);
    if (!project) return res.status(404).json({ error: 'not found' });
    res.json(project);
  };
}
`;

const BILLING = `
import type { Request, Response } from 'express';
import { BaseController } from './base.controller';

export class BillingController extends BaseController {
  constructor() {
    super('/billing');
  }

  protected initializeRoutes(): void {
    this.router.get('/invoices', (req: Request, res: Response) => {
      res.json({ invoices: [] });
    });
  }
}
`;

const SERVICE = `
export class ProjectsService {
  private readonly rows = new Map<string, { id: string; name: string }[]>();

  async list(tenantId: string) {
    return this.rows.get(tenantId) ?? [];
  }

  async find(tenantId: string, id: string) {
    return (this.rows.get(tenantId) ?? []).find((p) => p.id === id) ?? null;
  }
}
`;

const APP = `
import express from 'express';
import { ProjectsController } from './controllers/projects.controller';
import { BillingController } from './controllers/billing.controller';

const app = express();
app.use(express.json());
for (const controller of [new ProjectsController(), new BillingController()]) {
  app.use(\`/api\${controller.path}\`, controller.router);
}
app.listen(3000);
`;

describe('controller classes extending a base class', () => {
  it('a router made by the base class: one per subclass, the base constructor’s middleware first, the path from super(…)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': AUTH,
        'src/controllers/base.controller.ts': `
import { Router } from 'express';
import { requireSession } from '../middleware/auth';

export abstract class BaseController {
  public readonly router = Router();
  public readonly path: string;

  constructor(path: string) {
    this.path = path;
    this.router.use(requireSession);
    this.initializeRoutes();
  }

  protected abstract initializeRoutes(): void;
}
`,
        'src/controllers/projects.controller.ts': PROJECTS,
        'src/controllers/billing.controller.ts': BILLING,
        'src/services/projects.service.ts': SERVICE,
        'src/app.ts': APP,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api/billing/invoices [requireSession] src/controllers/billing.controller.ts:11',
      'GET /api/projects/ [requireSession] src/controllers/projects.controller.ts:14',
      'GET /api/projects/:projectId [requireSession, this.projects.find] src/controllers/projects.controller.ts:15',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a router the base constructor assigns, through two levels of classes', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': AUTH,
        'src/controllers/root.controller.ts': `
import express from 'express';

export abstract class RootController {
  public router: express.Router;
  public path: string;

  constructor(path: string) {
    this.router = express.Router();
    this.path = path;
    this.initializeRoutes();
  }

  protected abstract initializeRoutes(): void;
}
`,
        'src/controllers/base.controller.ts': `
import { RootController } from './root.controller';

export abstract class BaseController extends RootController {
  constructor(path: string) {
    super(path);
  }
}
`,
        'src/controllers/projects.controller.ts': PROJECTS,
        'src/controllers/billing.controller.ts': BILLING,
        'src/services/projects.service.ts': SERVICE,
        'src/app.ts': APP,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api/billing/invoices [] src/controllers/billing.controller.ts:11',
      'GET /api/projects/ [] src/controllers/projects.controller.ts:14',
      'GET /api/projects/:projectId [this.projects.find] src/controllers/projects.controller.ts:15',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Unleash’s layout: the base makes `this.app`, a getter returns it, and a controller mounts others on its own', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': AUTH,
        'src/routes/controller.ts': `
import { Router, type IRouter } from 'express';

export default class Controller {
  app: IRouter;

  constructor() {
    this.app = Router();
  }

  use(path: string, router: IRouter): void {
    this.app.use(path, router);
  }

  get router(): IRouter {
    return this.app;
  }
}
`,
        'src/routes/admin/features.ts': `
import type { Request, Response } from 'express';
import Controller from '../controller';

export default class FeatureController extends Controller {
  constructor() {
    super();
    this.app.get('/', this.getAll);
    this.app.delete('/:featureName', this.remove);
  }

  async getAll(req: Request, res: Response): Promise<void> {
    res.json({ features: [] });
  }

  async remove(req: Request, res: Response): Promise<void> {
    res.status(202).end();
  }
}
`,
        'src/routes/admin/index.ts': `
import Controller from '../controller';
import FeatureController from './features';
import { requireSession } from '../../middleware/auth';

export class AdminApi extends Controller {
  constructor() {
    super();
    this.app.use(requireSession);
    this.use('/features', new FeatureController().router);
  }
}
`,
        'src/routes/health.ts': `
import type { Request, Response } from 'express';
import Controller from './controller';

export class HealthController extends Controller {
  constructor() {
    super();
    this.app.get('/health', (req: Request, res: Response) => {
      res.json({ ok: true });
    });
  }
}
`,
        'src/app.ts': `
import express from 'express';
import { AdminApi } from './routes/admin';
import { HealthController } from './routes/health';

const app = express();
app.use('/api/admin', new AdminApi().router);
app.use('/api', new HealthController().router);
app.listen(4242);
`,
      }),
    );
    // (the base's use(), called by AdminApi only, mounts on AdminApi's router: not on the health controller's)
    expect(lines(res)).toEqual([
      'GET /api/admin/features/ [requireSession] src/routes/admin/features.ts:8',
      'DELETE /api/admin/features/:featureName [requireSession] src/routes/admin/features.ts:9',
      'GET /api/health [] src/routes/health.ts:8',
    ]);
    // (the prefix the base's use() mounts at is where AdminApi's call gives it)
    expect(res.routes[0]!.prefixes.map((x) => `${x.prefix} ${x.file}:${x.line}`)).toEqual(['/api/admin src/app.ts:7', '/features src/routes/admin/index.ts:10']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Koa: the base makes `new Router({ prefix })` from what super(…) passes; routes() and getRouter() answer the instance’s router', async () => {
    const res = await check(
      writeProject({
        'package.json': KOA_PACKAGE,
        'src/middleware/session.ts': `
import type { Context, Next } from 'koa';

export async function requireSession(ctx: Context, next: Next) {
  if (!ctx.session?.userId) ctx.throw(401, 'unauthenticated');
  await next();
}
`,
        'src/controllers/base.ts': `
import Router from '@koa/router';
import { requireSession } from '../middleware/session';

export abstract class BaseController {
  protected readonly router: Router;

  constructor(prefix: string) {
    this.router = new Router({ prefix });
    this.router.use(requireSession);
  }

  routes() {
    return this.router.routes();
  }

  getRouter(): Router {
    return this.router;
  }
}
`,
        'src/controllers/sites.ts': `
import type { Context } from 'koa';
import { BaseController } from './base';

export class SitesController extends BaseController {
  constructor() {
    super('/sites');
    this.router.get('/', this.list);
    this.router.get('/:siteId', this.show);
  }

  private async list(ctx: Context) {
    ctx.body = { sites: [] };
  }

  private async show(ctx: Context) {
    ctx.body = { id: ctx.params.siteId };
  }
}
`,
        'src/controllers/usage.ts': `
import type { Context } from 'koa';
import { BaseController } from './base';

export class UsageController extends BaseController {
  constructor() {
    super('/usage');
    this.router.get('/', async (ctx: Context) => {
      ctx.body = { usage: [] };
    });
  }
}
`,
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import { SitesController } from './controllers/sites';
import { UsageController } from './controllers/usage';

const app = new Koa();
const api = new Router({ prefix: '/api' });
api.use(new SitesController().routes());
api.use(new UsageController().getRouter().routes());
app.use(api.routes());
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api/sites [requireSession] src/controllers/sites.ts:8',
      'GET /api/sites/:siteId [requireSession] src/controllers/sites.ts:9',
      'GET /api/usage [requireSession] src/controllers/usage.ts:8',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Koa: a base class field made by a router factory keeps the prefix the factory is given', async () => {
    const res = await check(
      writeProject({
        'package.json': KOA_PACKAGE,
        'src/lib/router.ts': `
import Router from '@koa/router';

export const createRouter = (prefix: string) => new Router({ prefix });
`,
        'src/controllers/base.ts': `
import { createRouter } from '../lib/router';

export abstract class V2Controller {
  readonly router = createRouter('/v2');

  routes() {
    return this.router.routes();
  }
}
`,
        'src/controllers/sites.ts': `
import { V2Controller } from './base';

export class SitesController extends V2Controller {
  constructor() {
    super();
    this.router.get('/sites', async (ctx) => {
      ctx.body = { sites: [] };
    });
  }
}
`,
        'src/controllers/usage.ts': `
import { V2Controller } from './base';

export class UsageController extends V2Controller {
  constructor() {
    super();
    this.router.get('/usage', async (ctx) => {
      ctx.body = { usage: [] };
    });
  }
}
`,
        'src/app.ts': `
import Koa from 'koa';
import { SitesController } from './controllers/sites';
import { UsageController } from './controllers/usage';

const app = new Koa();
app.use(new SitesController().routes());
app.use(new UsageController().routes());
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /v2/sites [] src/controllers/sites.ts:7', 'GET /v2/usage [] src/controllers/usage.ts:7']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a router and a path the subclass passes to super(…): the base constructor registers on them', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/base/controller.base.ts': `
import type { Request, Response, Router } from 'express';

export default abstract class ControllerBase {
  path: string;
  router: Router;

  constructor(path: string, router: Router) {
    this.path = path;
    this.router = router;
    this.initRoutes();
  }

  initRoutes(): void {
    this.router.get(\`\${this.path}:id\`, this.get);
    this.router.delete(\`\${this.path}:id\`, this.remove);
  }

  get(req: Request, res: Response) {
    res.json({ id: req.params.id });
  }

  remove(req: Request, res: Response) {
    res.status(204).end();
  }
}
`,
        'src/controllers/users.controller.ts': `
import express from 'express';
import ControllerBase from '../base/controller.base';

export default class UsersController extends ControllerBase {
  constructor() {
    super('/users/', express.Router());
  }
}
`,
        'src/app.ts': `
import express from 'express';
import UsersController from './controllers/users.controller';

const app = express();
app.use('/api', new UsersController().router);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['DELETE /api/users/:id [] src/base/controller.base.ts:16', 'GET /api/users/:id [] src/base/controller.base.ts:15']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Unleash’s route({ method, path, handler }): a registration whose method is a parameter’s property, made once per call of every subclass', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': AUTH,
        'src/routes/controller.ts': UNLEASH_CONTROLLER,
        'src/routes/projects.ts': `
import type { Request, Response } from 'express';
import Controller from './controller';

export default class ProjectsController extends Controller {
  constructor(config: { baseUriPath: string }) {
    super(config);
    this.route({ method: 'get', path: '', handler: this.getProjects });
    this.route({ method: 'post', path: '/:projectId/archive', handler: this.archive });
  }

  async getProjects(req: Request, res: Response): Promise<void> {
    res.json({ projects: [] });
  }

  async archive(req: Request, res: Response): Promise<void> {
    res.status(202).end();
  }
}
`,
        'src/routes/segments.ts': `
import type { Request, Response } from 'express';
import Controller from './controller';

export default class SegmentsController extends Controller {
  constructor(config: { baseUriPath: string }) {
    super(config);
    this.route({ method: 'delete', path: '/:segmentId', handler: this.remove });
    this.get('/:segmentId', this.remove);
    // a method no call makes known
    this.app[config.baseUriPath]('/raw', this.remove);
    // handlers written in place (Unleash's BackstageController)
    this.get('/:segmentId/usage', async (req, res) => {
      res.json({ segmentId: req.params.segmentId, usage: 0 });
    });
    this.get('/:segmentId/strategies', function (req, res) {
      return Promise.resolve(res.json({ strategies: [] }));
    });
  }

  async remove(req: Request, res: Response): Promise<void> {
    res.status(204).end();
  }
}
`,
        'src/app.ts': `
import express from 'express';
import { requireSession } from './middleware/auth';
import ProjectsController from './routes/projects';
import SegmentsController from './routes/segments';

const config = { baseUriPath: '' };
const app = express();
app.use('/api/admin', requireSession);
app.use('/api/admin/projects', new ProjectsController(config).router);
app.use('/api/admin/segments', new SegmentsController(config).router);
app.listen(4242);
`,
      }),
    );
    // (each route where the route(…) call giving its method and path is made)
    expect(lines(res)).toEqual([
      'GET /api/admin/projects [requireSession] src/routes/projects.ts:8',
      'POST /api/admin/projects/:projectId/archive [requireSession] src/routes/projects.ts:9',
      'DELETE /api/admin/segments/:segmentId [requireSession] src/routes/segments.ts:8',
      // (through the base's get(): where the call furthest out is made)
      'GET /api/admin/segments/:segmentId [requireSession] src/routes/segments.ts:9',
      'GET /api/admin/segments/:segmentId/strategies [requireSession] src/routes/segments.ts:16',
      'GET /api/admin/segments/:segmentId/usage [requireSession] src/routes/segments.ts:13',
    ]);
    expect(unresolvedRows(res)).toEqual([
      "src/routes/segments.ts:11:5 warning unresolved-route a registration whose method is not known statically (config.baseUriPath); it is left out",
    ]);
  });

  it('Unleash’s ContextController made twice, one with a mode: each `new` makes the class’s registrations with what it passes', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': AUTH,
        'src/routes/controller.ts': UNLEASH_CONTROLLER,
        'src/features/context/context.ts': `
import type { Request, Response } from 'express';
import Controller from '../../routes/controller';
import { ContextService } from './context-service';

export class ContextController extends Controller {
  private readonly contextService = new ContextService();

  constructor(config: { baseUriPath: string }, mode: 'global' | 'project' = 'global') {
    super(config);
    const prefix = mode === 'global' ? '' : '/:projectId/context';
    this.route({ method: 'get', path: prefix, handler: this.getContextFields });
    this.route({ method: 'post', path: prefix, handler: this.createContextField });
    this.route({ method: 'delete', path: \`\${prefix}/:contextField\`, handler: this.deleteContextField });
  }

  async getContextFields(req: Request, res: Response): Promise<void> {
    res.json(await this.contextService.list(req.params.projectId));
  }

  async createContextField(req: Request, res: Response): Promise<void> {
    res.status(201).json(await this.contextService.create(req.params.projectId, req.body));
  }

  async deleteContextField(req: Request, res: Response): Promise<void> {
    await this.contextService.remove(req.params.projectId, req.params.contextField);
    res.status(200).end();
  }
}
`,
        'src/features/context/context-service.ts': `
const fields = new Map<string, { name: string; project: string | null }>();

export class ContextService {
  async list(project?: string) {
    return [...fields.values()].filter((f) => f.project === (project ?? null));
  }

  async create(project: string | undefined, input: { name: string }) {
    const field = { name: input.name, project: project ?? null };
    fields.set(\`\${field.project}:\${field.name}\`, field);
    return field;
  }

  async remove(project: string | undefined, name: string) {
    fields.delete(\`\${project ?? null}:\${name}\`);
  }
}
`,
        'src/features/feedback/feedback.ts': `
import type { Request, Response } from 'express';
import Controller from '../../routes/controller';

export class FeedbackController extends Controller {
  constructor(config: { baseUriPath: string }, audience: string) {
    super(config);
    this.route({ method: 'post', path: \`/\${audience}/feedback\`, handler: this.send });
  }

  async send(req: Request, res: Response): Promise<void> {
    res.status(202).json({ received: true });
  }
}
`,
        'src/app.ts': `
import express, { Router } from 'express';
import { requireSession } from './middleware/auth';
import { ContextController } from './features/context/context';
import { FeedbackController } from './features/feedback/feedback';

const config = { baseUriPath: '' };
const app = express();
const admin = Router();
admin.use('/context', new ContextController(config).router);
const projects = Router();
projects.use('', new ContextController(config, 'project').router);
admin.use('/projects', projects);
const users = new FeedbackController(config, 'users');
const teams = new FeedbackController(config, 'teams');
admin.use('/', users.router);
admin.use('/', teams.router);
app.use('/api/admin', requireSession, admin);
app.listen(4242);
`,
      }),
    );
    // (neither instance serves the other's paths: no /api/admin/context/:projectId/context, no /api/admin/projects/:contextField)
    // (a path the `new` passes straight down is located there, as before: each once, on its own instance)
    expect(lines(res)).toEqual([
      'GET /api/admin/context [requireSession] src/features/context/context.ts:12',
      'POST /api/admin/context [requireSession] src/features/context/context.ts:13',
      'DELETE /api/admin/context/:contextField [requireSession] src/features/context/context.ts:14',
      'GET /api/admin/projects/:projectId/context [requireSession] src/features/context/context.ts:12',
      'POST /api/admin/projects/:projectId/context [requireSession] src/features/context/context.ts:13',
      'DELETE /api/admin/projects/:projectId/context/:contextField [requireSession] src/features/context/context.ts:14',
      'POST /api/admin/teams/feedback [requireSession] src/app.ts:15',
      'POST /api/admin/users/feedback [requireSession] src/app.ts:14',
    ]);
    // (the base's get(path, handler), which no class calls here)
    expect(unresolvedRows(res)).toEqual(['src/routes/controller.ts:20:5 warning unresolved-route GET route with a path not known statically (the parameter path); it is left out']);
  });

  it('a route a constructor registers for each `new`, its path written there: located in the class, not at a test’s `new`', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/routes/controller.ts': UNLEASH_CONTROLLER,
        'src/routes/auth/simple-password-provider.ts': `
import type { Request, Response } from 'express';
import Controller from '../controller';
import type { UserService } from '../../services/user-service';

// the handler is made from what the constructor is given: the call is made for each \`new\`
function loginWith(userService: UserService) {
  return async (req: Request, res: Response): Promise<void> => {
    const user = await userService.loginUserWithPassword(req.body.username, req.body.password);
    req.session.user = user;
    res.json(user);
  };
}

export class SimplePasswordProvider extends Controller {
  constructor(config: { baseUriPath: string }, { userService }: { userService: UserService }) {
    super(config);
    this.route({ method: 'post', path: '/login', handler: loginWith(userService) });
  }
}
`,
        'src/services/user-service.ts': `
export class UserService {
  async loginUserWithPassword(username: string, password: string) {
    if (!username || !password) throw new Error('missing credentials');
    return { id: 1, username };
  }
}
`,
        'src/__tests__/simple-password-provider.test.ts': `
import express from 'express';
import request from 'supertest';
import { SimplePasswordProvider } from '../routes/auth/simple-password-provider';
import { UserService } from '../services/user-service';

test('requires a password', async () => {
  const app = express();
  app.use(express.json());
  const ctr = new SimplePasswordProvider({ baseUriPath: '' }, { userService: new UserService() });
  app.use('/auth/simple', ctr.router);
  const res = await request(app).post('/auth/simple/login').send({ username: 'john' });
  expect(res.status).toBe(500);
});
`,
        'src/app.ts': `
import express from 'express';
import { SimplePasswordProvider } from './routes/auth/simple-password-provider';
import { UserService } from './services/user-service';

const app = express();
app.use(express.json());
app.use('/auth/simple', new SimplePasswordProvider({ baseUriPath: '' }, { userService: new UserService() }).router);
app.listen(4242);
`,
      }),
    );
    // (the server's route and the test's, each where the constructor's call gives the path)
    expect(lines(res)).toEqual([
      'POST /auth/simple/login [] src/routes/auth/simple-password-provider.ts:18',
      'POST /auth/simple/login [] src/routes/auth/simple-password-provider.ts:18',
    ]);
  });

  it('a subclass’s own field set from its constructor’s parameter: read with what each `new` passes', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/controllers/base.ts': `
import { Router } from 'express';

export abstract class BaseController {
  readonly router = Router();
}
`,
        'src/controllers/reports.ts': `
import type { Request, Response } from 'express';
import { BaseController } from './base';

export class ReportsController extends BaseController {
  private readonly prefix: string;

  constructor(prefix: string) {
    super();
    this.prefix = prefix;
    this.router.get(\`\${this.prefix}/reports\`, (req: Request, res: Response) => {
      res.json({ reports: [] });
    });
  }
}
`,
        'src/app.ts': `
import express from 'express';
import { ReportsController } from './controllers/reports';

const app = express();
const reports = new ReportsController('/v1');
app.use('/api', reports.router);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/v1/reports [] src/controllers/reports.ts:11']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Hono: a base class’s own app is one per subclass; one it derives with basePath() is not known statically', async () => {
    const project = (init: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'edge', dependencies: { hono: '^4.6.0' } }),
        'src/routes/base.ts': `
import { Hono } from 'hono';

export abstract class BaseRoutes {
  public readonly app = ${init};
}
`,
        'src/routes/users.ts': `
import { BaseRoutes } from './base';

export class UserRoutes extends BaseRoutes {
  constructor() {
    super();
    this.app.get('/users', (c) => c.json({ users: [] }));
  }
}
`,
        'src/routes/teams.ts': `
import { BaseRoutes } from './base';

export class TeamRoutes extends BaseRoutes {
  constructor() {
    super();
    this.app.get('/teams', (c) => c.json({ teams: [] }));
  }
}
`,
        'src/index.ts': `
import { Hono } from 'hono';
import { UserRoutes } from './routes/users';
import { TeamRoutes } from './routes/teams';

const app = new Hono();
app.route('/api', new UserRoutes().app);
app.route('/admin', new TeamRoutes().app);

export default app;
`,
      });
    const own = await check(project('new Hono()'));
    expect(lines(own)).toEqual(['GET /admin/teams [] src/routes/teams.ts:7', 'GET /api/users [] src/routes/users.ts:7']);
    const derived = await check(project("new Hono().basePath('/v1')"));
    expect(lines(derived)).toEqual([]);
    expect(unresolvedRows(derived)).toEqual([
      "src/index.ts:7:1 warning unresolved-route sub-app mounted at '/api' could not be resolved (a router the base class derives from another (basePath) is shared by every class extending it); the routes under it are unknown",
      "src/index.ts:8:1 warning unresolved-route sub-app mounted at '/admin' could not be resolved (a router the base class derives from another (basePath) is shared by every class extending it); the routes under it are unknown",
    ]);
  });

  it('what the base constructor registers with what super(…) passes is made on each subclass’s own router', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { express: '4.21.2', 'express-promise-router': '4.1.1' } }),
        'src/middleware/auth.ts': AUTH,
        'src/controllers/base.controller.ts': `
import type { Router } from 'express';
import PromiseRouter from 'express-promise-router';
import { requireSession } from '../middleware/auth';

export abstract class BaseController {
  public readonly path: string;
  public readonly router: Router;

  constructor(path: string, addAuth = true) {
    this.router = PromiseRouter();
    this.path = path;
    if (addAuth) this.router.all(\`\${this.path}/*\`, requireSession);
    this.router.get(\`\${this.path}/health\`, async (req, res) => {
      res.json({ ok: true });
    });
  }
}
`,
        'src/controllers/invoices.controller.ts': `
import { BaseController } from './base.controller';

export class InvoicesController extends BaseController {
  constructor() {
    super('/invoices');
    this.router.get(\`\${this.path}/:id\`, async (req, res) => {
      res.json({ id: req.params.id });
    });
  }
}
`,
        'src/controllers/partners.controller.ts': `
import { BaseController } from './base.controller';

export class PartnersController extends BaseController {
  constructor() {
    super('/partners');
    this.router.get(\`\${this.path}/:id\`, async (req, res) => {
      res.json({ id: req.params.id });
    });
  }
}
`,
        'src/app.ts': `
import express from 'express';
import { InvoicesController } from './controllers/invoices.controller';
import { PartnersController } from './controllers/partners.controller';

const app = express();
app.use('/api', new InvoicesController().router);
app.use('/api', new PartnersController().router);
app.listen(3000);
`,
      }),
    );
    // (each subclass's router holds the layer and the route its super(…) made, not the other's)
    expect(lines(res)).toEqual([
      'GET /api/invoices/:id [requireSession] src/controllers/invoices.controller.ts:7',
      'GET /api/invoices/health [requireSession] src/controllers/base.controller.ts:14',
      'GET /api/partners/:id [requireSession] src/controllers/partners.controller.ts:7',
      'GET /api/partners/health [requireSession] src/controllers/base.controller.ts:14',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
