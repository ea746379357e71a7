/**
 * Apps and routers kept in a class's fields (`this.app = express()`, `public router = Router()`),
 * the layout of many TypeScript servers: in the class's members `this.x` is the field — as
 * initialised where declared, by a constructor parameter property, or first assigned — and
 * `new C()` is an object holding them. One object stands for every instance of a class.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.handler ?? '-'}`);
}

const GUARDS = `
import type { NextFunction, Request, Response } from 'express';
export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}
`;

describe('class fields', () => {
  it('an App class: this.app made in the constructor, used in its methods; a prefix read from a field', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': GUARDS,
        'src/routes/sites.ts': `
import { Router } from 'express';
import { requireSession } from '../middleware/auth';
const sites = Router();
sites.get('/', requireSession, (req, res) => res.json({ items: [] }));
export default sites;
`,
        'src/app.ts': `
import express from 'express';
import sites from './routes/sites';

class App {
  public app: express.Application;
  private readonly apiPrefix = '/api';

  constructor(private readonly port: number) {
    this.app = express();
    this.middlewares();
    this.routes();
  }

  private middlewares(): void {
    this.app.use(express.json());
  }

  private routes(): void {
    this.app.get('/healthz', (req, res) => res.send('ok'));
    this.app.use(\`\${this.apiPrefix}/sites\`, sites);
  }

  public listen(): void {
    this.app.listen(this.port);
  }
}

new App(Number(process.env.PORT ?? 3000)).listen();
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/sites/ [requireSession] -', 'GET /healthz [] -']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a controller class holding its router and path, mounted through new Controller().router; a function(){} has a this of its own', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': GUARDS,
        'src/controllers/users.controller.ts': `
import { Router, type Request, type Response } from 'express';
import { requireSession } from '../middleware/auth';

export default class UsersController {
  public path = '/users';
  public router = Router();

  constructor() {
    this.initializeRoutes();
  }

  private initializeRoutes() {
    this.router.get(this.path, requireSession, this.getAll);
    this.router.post(\`\${this.path}/:id/disable\`, requireSession, this.disable);
    // an old-style callback: its this is not the controller, so its routes are no routes of the controller
    [['/legacy', 'get']].forEach(function (this: { router: Router }, [path]) {
      this.router.get(path, (req: Request, res: Response) => res.json([]));
    });
  }

  private getAll = (req: Request, res: Response) => {
    res.json([]);
  };

  private disable = async (req: Request, res: Response) => {
    res.status(204).end();
  };
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
    expect(lines(res)).toEqual(['GET /api/users [requireSession] this.getAll', 'POST /api/users/:id/disable [requireSession] this.disable']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('methods bound to an instance (`this.list.bind(this)`, `sites.create.bind(sites)`) are those methods, checks and all; a bound middleware is the middleware', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': `${GUARDS}
export function requireTenant(req: Request, res: Response, next: NextFunction) {
  if (req.params.tenantId !== req.session?.tenantId) return res.status(403).json({ error: 'forbidden' });
  next();
}
export function checkRequired(fields: string[], req: Request, res: Response, next: NextFunction) {
  const missing = fields.filter((f) => req.body?.[f] === undefined);
  if (missing.length > 0) return res.status(400).json({ error: \`missing \${missing.join(', ')}\` });
  next();
}
`,
        'src/controllers/sites.controller.ts': `
import { Router, type Request, type Response } from 'express';
import { requireTenant, checkRequired } from '../middleware/auth';
import { sites } from '../services/sites';

export class SitesController {
  public router = Router({ mergeParams: true });

  constructor() {
    this.router.get('/', requireTenant.bind(null), this.list.bind(this));
    this.router.post('/', requireTenant, checkRequired.bind(null, ['name']), sites.create.bind(sites));
  }

  private async list(req: Request, res: Response) {
    if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
    res.json({ items: await sites.list(req.params.tenantId) });
  }
}
`,
        'src/services/sites.ts': `
import type { Request, Response } from 'express';
class SiteService {
  private readonly rows: { tenantId: string; name: string }[] = [];
  async list(tenantId: string) {
    return this.rows.filter((r) => r.tenantId === tenantId);
  }
  async create(req: Request, res: Response) {
    this.rows.push({ tenantId: req.params.tenantId, name: req.body.name });
    res.status(201).json({ ok: true });
  }
}
export const sites = new SiteService();
`,
        'src/app.ts': `
import express from 'express';
import { SitesController } from './controllers/sites.controller';

const app = express();
app.use('/api/tenants/:tenantId/sites', new SitesController().router);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api/tenants/:tenantId/sites/ [requireTenant, (inline 401 check)] this.list',
      'POST /api/tenants/:tenantId/sites/ [requireTenant, checkRequired] sites.create',
    ]);
    const get = res.routes.find((r) => r.method === 'GET')!;
    expect(get.guards.map((g) => `${g.name} ${g.kinds.join('+')} ${g.mechanism}`)).toEqual(['requireTenant tenant route-middleware', '(inline 401 check) auth in-handler']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a TypeScript `this` parameter only types `this`: a function declaring one takes the request as its first argument all the same", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/tenant.ts': `
import type { NextFunction, Request, Response } from 'express';
interface Audit { log(event: string): void }
export function requireTenant(this: Audit | void, req: Request, res: Response, next: NextFunction) {
  if (req.params.tenantId !== req.session?.tenantId) return res.status(403).json({ error: 'forbidden' });
  next();
}
`,
        'src/routes/sites.ts': `
import { Router, type Request, type Response } from 'express';
import { requireTenant } from '../middleware/tenant';
export const sites = Router({ mergeParams: true });
sites.get('/', requireTenant, async function list(this: void, req: Request, res: Response) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  res.json({ items: [] });
});
`,
        'src/app.ts': `
import express from 'express';
import { sites } from './routes/sites';
const app = express();
app.use('/api/tenants/:tenantId/sites', sites);
app.listen(3000);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(', ')}`)).toEqual([
      'GET /api/tenants/:tenantId/sites/ requireTenant:tenant:route-middleware, (inline 401 check):auth:in-handler',
    ]);
  });

  it('a singleton: getInstance() answers the static member it first assigns, and the instance its fields (CommonJS, exported under an alias)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'server/kuma-server.js': `
const express = require('express');

class KumaServer {
  static instance = null;

  /** the express app, made by the constructor */
  app = undefined;

  static getInstance() {
    if (KumaServer.instance == null) {
      KumaServer.instance = new KumaServer();
    }
    return KumaServer.instance;
  }

  constructor() {
    this.app = express();
    this.app.disable('x-powered-by');
  }
}

module.exports = { KumaServer };
`,
        'server/server.js': `
const { KumaServer } = require('./kuma-server');

const server = KumaServer.getInstance();
const app = server.app;

app.get('/robots.txt', async (_request, response) => {
  response.type('txt').send('User-agent: *\nDisallow: /');
});

app.listen(3001);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /robots.txt [] -']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a router given to the constructor as a parameter property: `new AuditController(api)` binds its routes to the router passed', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/controllers/audit.controller.ts': `
import type { Request, Response, Router } from 'express';

export class AuditController {
  constructor(private readonly router: Router) {
    this.router.get('/audit', this.list);
  }

  private list = (req: Request, res: Response) => {
    res.json({ events: [] });
  };
}
`,
        'src/app.ts': `
import express from 'express';
import { AuditController } from './controllers/audit.controller';

const app = express();
const api = express.Router();
export const audit = new AuditController(api);
app.use('/api', api);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/audit [] this.list']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a controller class imported through a barrel that re-exports its module (`export * from`)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/auth.ts': GUARDS,
        'src/controllers/sites.controller.ts': `
import { Router, type Request, type Response } from 'express';
import { requireSession } from '../middleware/auth';

export class SitesController {
  public router = Router();

  constructor() {
    this.router.get('/sites', requireSession, this.list);
  }

  private list = (req: Request, res: Response) => {
    res.json({ sites: [] });
  };
}
`,
        'src/controllers/index.ts': `
export * from './sites.controller';
`,
        'src/app.ts': `
import express from 'express';
import { SitesController } from './controllers';

const app = express();
app.use('/api', new SitesController().router);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/sites [requireSession] this.list']);
    expect(unresolvedRows(res)).toEqual([]);
  });
  it('an instance made in an assignment, `this.metrics = new Prometheus(this.app)`, registers on the app it is given (Flowise)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/metrics/prometheus.ts': `
import express from 'express';

export class Prometheus {
  app: express.Application;

  constructor(app: express.Application) {
    this.app = app;
  }

  async setupMetricsEndpoint() {
    this.app.use('/api/v1/metrics', async (req, res) => {
      res.set('Content-Type', 'text/plain');
      res.send('requests_total 1').end();
    });
  }
}
`,
        'src/index.ts': `
import express from 'express';
import { Prometheus } from './metrics/prometheus';

export class App {
  app: express.Application;
  metricsProvider: Prometheus | undefined;

  constructor() {
    this.app = express();
  }

  async config() {
    if (process.env.ENABLE_METRICS === 'true') {
      switch (process.env.METRICS_PROVIDER) {
        case 'prometheus':
        case undefined:
          this.metricsProvider = new Prometheus(this.app);
          break;
      }
      if (this.metricsProvider) await this.metricsProvider.setupMetricsEndpoint();
    }
    this.app.get('/api/v1/ping', (req, res) => {
      res.send('pong');
    });
  }
}

export async function start() {
  const serverApp = new App();
  await serverApp.config();
  serverApp.app.listen(3000);
}
`,
      }),
    );
    expect(lines(res)).toEqual(['ALL /api/v1/metrics [] -', 'GET /api/v1/ping [] -']);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
