/**
 * Registrations read as each call makes them: a router handed to a class's constructor
 * (`new ProjectRoutes(api)`), a function mounting what its parameters name
 * (`mount('/api', users)`), and the App class of the typescript-express layout, which mounts
 * the route classes its constructor is given in a loop of one of its methods.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const AUTH = `
import type { NextFunction, Request, Response } from 'express';

export const authMiddleware = async (req: Request, res: Response, next: NextFunction) => {
  if (!req.session?.userId) return res.status(401).json({ message: 'unauthenticated' });
  next();
};
`;

describe('registrations read at each call', () => {
  it('the typescript-express App: route classes given to its constructor are mounted by its loop, after its middleware', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/interfaces/routes.interface.ts': `
import type { Router } from 'express';

export interface Routes {
  path?: string;
  router: Router;
}
`,
        'src/controllers/users.controller.ts': `
import type { NextFunction, Request, Response } from 'express';
import { UserService } from '../services/users.service';

export class UserController {
  public users = new UserService();

  public getUsers = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const data = await this.users.findAllUser(req.session.tenantId);
      res.status(200).json({ data, message: 'findAll' });
    } catch (error) {
      next(error);
    }
  };

  public getUserById = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const data = await this.users.findUserById(req.session.tenantId, Number(req.params.id));
      res.status(200).json({ data, message: 'findOne' });
    } catch (error) {
      next(error);
    }
  };
}
`,
        'src/services/users.service.ts': `
export class UserService {
  private readonly rows = new Map<string, { id: number; email: string }[]>();

  public async findAllUser(tenantId: string) {
    return this.rows.get(tenantId) ?? [];
  }

  public async findUserById(tenantId: string, id: number) {
    const found = (this.rows.get(tenantId) ?? []).find((u) => u.id === id);
    if (!found) throw Object.assign(new Error('not found'), { status: 404 });
    return found;
  }
}
`,
        'src/routes/users.route.ts': `
import { Router } from 'express';
import { UserController } from '../controllers/users.controller';
import type { Routes } from '../interfaces/routes.interface';

export class UserRoute implements Routes {
  public path = '/users';
  public router = Router();
  public user = new UserController();

  constructor() {
    this.initializeRoutes();
  }

  private initializeRoutes() {
    this.router.get(\`\${this.path}\`, this.user.getUsers);
    this.router.get(\`\${this.path}/:id\`, this.user.getUserById);
  }
}
`,
        'src/routes/health.route.ts': `
import { Router } from 'express';
import type { Routes } from '../interfaces/routes.interface';

export class HealthRoute implements Routes {
  public path = '/health';
  public router = Router();

  constructor() {
    this.router.get(\`\${this.path}/ready\`, (req, res) => {
      res.json({ ok: true });
    });
  }
}
`,
        'src/app.ts': `
import express from 'express';
import { authMiddleware } from './middlewares/auth.middleware';
import type { Routes } from './interfaces/routes.interface';

export class App {
  public app: express.Application;
  public port: string | number;

  constructor(routes: Routes[]) {
    this.app = express();
    this.port = process.env.PORT || 3000;
    this.initializeMiddlewares();
    this.initializeRoutes(routes);
  }

  public listen() {
    this.app.listen(this.port);
  }

  private initializeMiddlewares() {
    this.app.use(express.json());
    this.app.use(authMiddleware);
  }

  private initializeRoutes(routes: Routes[]) {
    routes.forEach((route) => {
      this.app.use('/api', route.router);
    });
  }
}
`,
        'src/server.ts': `
import { App } from './app';
import { HealthRoute } from './routes/health.route';
import { UserRoute } from './routes/users.route';

const app = new App([new HealthRoute(), new UserRoute()]);
app.listen();
`,
        // a test builds the App again with one of the route classes: the App's routes are not listed twice
        'test/users.test.ts': `
import { App } from '../src/app';
import { UserRoute } from '../src/routes/users.route';

export const app = new App([new UserRoute()]);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api/health/ready [authMiddleware] src/routes/health.route.ts:10',
      'GET /api/users [authMiddleware] src/routes/users.route.ts:16',
      // (a method of the class is what `this.users.findUserById` calls: a lookup in the tenant's rows, 404 when it is not there)
      'GET /api/users/:id [authMiddleware, this.users.findUserById] src/routes/users.route.ts:17',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a method registering with a name and the function it is handed (atproto's xrpc-server, `server.method('com.example.getRecord', (req, res) => …)`): a route per call, the handler written in place or named", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/xrpc.ts': `
import express, { Router, type Express, type RequestHandler } from 'express';

export class Server {
  router: Express = express();
  routes: Router = Router();

  constructor() {
    this.router.use(this.routes);
  }

  method(nsid: string, handler: RequestHandler) {
    this.routes.get(\`/xrpc/\${nsid}\`, handler);
  }
}
`,
        'src/main.ts': `
import express from 'express';
import { Server } from './xrpc';

const server = new Server();
server.method('com.example.getRecord', (req, res) => {
  res.json({ uri: req.query.uri });
});
const describeServer = (req, res) => res.json({ did: process.env.DID });
server.method('com.example.describeServer', describeServer);

export const app = express();
app.use(server.router);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /xrpc/com.example.describeServer [] src/xrpc.ts:13', 'GET /xrpc/com.example.getRecord [] src/xrpc.ts:13']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a router handed to a constructor: its parameter is the router, and its other parameters the arguments', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/routes/projects.ts': `
import type { Request, Response, Router } from 'express';

export class ProjectRoutes {
  constructor(router: Router) {
    router.get('/projects', (req: Request, res: Response) => {
      res.json({ items: [] });
    });
  }
}

export class StripeWebhook {
  constructor(private readonly router: Router, prefix: string) {
    this.router.post(\`\${prefix}/stripe\`, (req: Request, res: Response) => {
      res.status(204).end();
    });
  }
}
`,
        'src/app.ts': `
import express from 'express';
import { authMiddleware } from './middlewares/auth.middleware';
import { ProjectRoutes, StripeWebhook } from './routes/projects';

const app = express();
const hooks = express.Router();
new StripeWebhook(hooks, '/billing');
app.use('/webhooks', express.raw({ type: 'application/json' }), hooks);

const api = express.Router();
api.use(authMiddleware);
export const projects = new ProjectRoutes(api);
app.use('/api', api);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/projects [authMiddleware] src/routes/projects.ts:6', 'POST /webhooks/billing/stripe [] src/routes/projects.ts:14']);
    expect(res.routes.find((r) => r.method === 'POST')?.family).toBe('webhook');
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a route reading an instance's field keeps its place among the class's registrations, whoever calls the constructor", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/controllers/sites.controller.ts': `
import { Router, type Request, type Response } from 'express';
import { authMiddleware } from '../middlewares/auth.middleware';

export class SitesController {
  public router = Router();

  constructor(private readonly region: string) {
    this.router.get('/status', this.status);
    this.router.use(authMiddleware);
    this.router.get('/sites', this.list);
  }

  private status = (req: Request, res: Response) => {
    res.json({ region: this.region, ok: true });
  };

  private list = (req: Request, res: Response) => {
    res.json({ items: [] });
  };
}
`,
        'src/app.ts': `
import express from 'express';
import { SitesController } from './controllers/sites.controller';

const app = express();
const sites = new SitesController(process.env.REGION ?? 'eu-1');
app.use('/api', sites.router);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/sites [authMiddleware] src/controllers/sites.controller.ts:11', 'GET /api/status [] src/controllers/sites.controller.ts:9']);
  });

  it("a function handed an instance's field: `registerRoutes(this.app)` in a server class's constructor", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/routes/index.ts': `
import type { Express, Request, Response } from 'express';
import { authMiddleware } from '../middlewares/auth.middleware';

export function registerRoutes(app: Express) {
  app.get('/api/sites', authMiddleware, (req: Request, res: Response) => {
    res.json({ items: [] });
  });
}
`,
        'src/server.ts': `
import express from 'express';
import { registerRoutes } from './routes';

class Server {
  private readonly app = express();

  constructor() {
    this.app.use(express.json());
    registerRoutes(this.app);
  }

  start(port: number) {
    this.app.listen(port);
  }
}

new Server().start(Number(process.env.PORT ?? 3000));
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/sites [authMiddleware] src/routes/index.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a function mounting what its parameters name: once per call, in the order of the calls made at module scope', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/app.ts': `
import express from 'express';
import asyncHandler from 'express-async-handler';
import { authMiddleware } from './middlewares/auth.middleware';

const app = express();
const health = express.Router();
health.get('/ready', (req, res) => res.json({ ok: true }));
const sites = express.Router();
sites.get('/', (req, res) => res.json({ items: [] }));
const admin = express.Router();
admin.get('/tenants', (req, res) => res.json({ items: [] }));
const billing = express.Router();
billing.get('/invoices', (req, res) => res.json({ items: [] }));

function requireAdmin(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (req.session?.role !== 'admin') return res.status(403).json({ error: 'forbidden' });
  next();
}
const roles = { requireAdmin };

async function requireBillingAccount(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}

function mountSites(prefix: string) {
  app.use(prefix, sites);
}

function mount(target: express.Express, prefix: string, router: express.Router) {
  target.use(prefix, router);
}

function mountGuarded(prefix: string, guards: express.RequestHandler | express.RequestHandler[], router: express.Router) {
  app.use(prefix, guards, router);
}

function registerStatus(server: express.Express, path: string) {
  server.get(path, (req, res) => res.json({ status: 'ok' }));
  return server;
}

void mount(app, '/health', health);
const withStatus = registerStatus(app, '/status');
mountSites('/legacy/sites');
app.use(authMiddleware);
mountSites('/api/v1/sites');
mountGuarded('/admin', [roles.requireAdmin], admin);
mountGuarded('/billing', asyncHandler(requireBillingAccount), billing);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      // the guards as the calls name them
      'GET /admin/tenants [authMiddleware, roles.requireAdmin] src/app.ts:12',
      'GET /api/v1/sites/ [authMiddleware] src/app.ts:10',
      'GET /billing/invoices [authMiddleware, requireBillingAccount] src/app.ts:14',
      'GET /health/ready [] src/app.ts:8',
      'GET /legacy/sites/ [] src/app.ts:10',
      // the path the call gives: where the call is made
      'GET /status [] src/app.ts:45',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a router a function makes itself is one router: its registrations reading the function's parameters are made once, not once per call", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/routes/api.js': `
const express = require('express');

module.exports = function (app, middleware, prefix) {
  const router = express.Router();
  app.use(prefix, router);
  const uploads = [middleware.applyCSRF, middleware.ensureLoggedIn];
  router.post('/post/upload', uploads, (req, res) => res.json({ ok: true }));
};
`,
        'src/middleware.js': `
module.exports = {
  applyCSRF(req, res, next) {
    if (req.get('x-csrf-token') !== req.session.csrfToken) return res.status(403).json({ error: 'bad csrf token' });
    next();
  },
  ensureLoggedIn(req, res, next) {
    if (!req.session?.uid) return res.status(401).json({ error: 'not logged in' });
    next();
  },
};
`,
        'src/app.js': `
const express = require('express');
const middleware = require('./middleware');
const apiRoutes = require('./routes/api');

const app = express();
apiRoutes(app, middleware, '/api');
apiRoutes(app, middleware, '/api/v3');
app.listen(4567);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'POST /api/post/upload [middleware.applyCSRF, middleware.ensureLoggedIn] src/routes/api.js:8',
      'POST /api/v3/post/upload [middleware.applyCSRF, middleware.ensureLoggedIn] src/routes/api.js:8',
    ]);
  });

  it('a function mounting on a prefix that no call passes (a parameter, or its property, named like a path: mountPath, route): its mount is reported, and listed without the prefix, with a step that says so', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.ts': `
import express from 'express';

export const app = express();
const sites = express.Router();
sites.get('/', (req, res) => res.json({ items: [] }));

export function mountSites(prefix: string) {
  app.use(prefix, sites);
}

export function mountAll(options: { mountPath: string }, api: express.Router) {
  app.use(options.mountPath, api);
}

export function applyConfigured(mid: { route: string; handler: express.RequestHandler }) {
  app.use(mid.route, mid.handler);
}

app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET / [] src/app.ts:6']);
    expect(res.routes[0]!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 9, unknown: 'the parameter prefix' }]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:9:3 warning unresolved-route the path of this use() is not known statically (the parameter prefix); the routes under it are listed without that part',
      'src/app.ts:13:3 warning unresolved-route the path of this use() is not known statically (the parameter options.mountPath); the routes under it are listed without that part',
      'src/app.ts:17:3 warning unresolved-route the path of this use() is not known statically (the parameter mid.route); the routes under it are listed without that part',
    ]);
  });

  it('a router a method makes, whose middleware reads what the constructor was given: its layers keep their order when the class is built in another file', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'agent', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0' } }),
        'src/middleware/session.ts': `
import type { Context, Next } from 'koa';

export async function requireSession(this: { config: { realm: string } }, ctx: Context, next: Next) {
  if (!ctx.session?.userId) ctx.throw(401, \`sign in to \${this.config.realm}\`);
  await next();
}
`,
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';
import { requireSession } from './middleware/session';

export class App {
  public app: Koa;
  private config: { realm: string; port: number };
  private middlewares: Record<string, Koa.Middleware>;

  constructor(config: { realm: string; port: number }) {
    this.config = config;
    this.middlewares = { requireSession: requireSession.bind(this) };
    this.app = new Koa();
    this.setRoutes();
  }

  private setRoutes() {
    const router = new Router();
    router.use(this.middlewares.requireSession);
    router.get('/agents', async (ctx) => {
      ctx.body = { agents: [] };
    });
    this.app.use(router.routes());
  }
}
`,
        'src/index.ts': `
import { App } from './app';

async function main() {
  const app = new App({ realm: 'agents', port: 8080 });
  app.app.listen(8080);
}

void main();
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /agents [this.middlewares.requireSession] src/app.ts:21']);
  });

  it('a function called more than 1,024 times: the calls past those are said to be left out', async () => {
    const calls = Array.from({ length: 1030 }, (_, i) => `route('/reports/r${i}');`).join('\n');
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.ts': `
import express from 'express';

export const app = express();

export function route(path: string) {
  app.get(path, (req, res) => res.json({ path }));
}

${calls}

app.listen(3000);
`,
      }),
    );
    expect(res.routes).toHaveLength(1024);
    // (each route where the call giving its path is made)
    expect(res.routes.filter((r) => r.path === '/reports/r1023' || r.path === '/reports/r1024').map((r) => `${r.path} ${r.file}:${r.line} ${r.snippet}`)).toEqual([
      "/reports/r1023 src/app.ts:1033 route('/reports/r1023');",
    ]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:7:3 warning unresolved-route route() is called 1024 times or more: what this registration makes for the calls past the first 1024 is left out',
    ]);
  });

  it('a registration whose method is an expression: a parameter each call passes, or a loop variable', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.ts': `
import express, { type Request, type Response } from 'express';

export const app = express();
const ping = (req: Request, res: Response) => res.json({ ok: true });

function health(method: 'get' | 'post') {
  app[method]('/health', ping);
}
health('get');
health('post');

for (const verb of ['get', 'head'] as const) {
  app[verb]('/ping', ping);
}
// (a second loop of the same variable's name: its own variable, not the first loop's)
for (const verb of ['put', 'delete'] as const) {
  app[verb]('/drafts', ping);
}

app.listen(3000);
`,
      }),
    );
    // (a method the call gives: the route is where the call is made)
    expect(lines(res)).toEqual([
      'DELETE /drafts [] src/app.ts:18',
      'PUT /drafts [] src/app.ts:18',
      'GET /health [] src/app.ts:10',
      'POST /health [] src/app.ts:11',
      'GET /ping [] src/app.ts:14',
      'HEAD /ping [] src/app.ts:14',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a member called by a name a parameter gives, on a parameter no caller hands a router: no warning when every call names no registration's method (nocobase's `instance[type]({ message })` of notify('error', …)), one otherwise", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/notify.ts': `
export interface NotificationInstance {
  success(args: { message: string }): void;
  error(args: { message: string }): void;
}

function notify(type: 'success' | 'error', message: string, instance?: NotificationInstance) {
  if (!instance || message === '') return;
  instance[type]({ message });
}

export function reportSaved(instance: NotificationInstance) {
  notify('success', 'saved', instance);
}

export function reportFailed(instance: NotificationInstance, error: Error) {
  notify('error', error.message, instance);
}
`,
        'src/mount.ts': `
import type { RequestHandler, Router } from 'express';

export function mount(verb: 'get' | 'post', instance: Router, handler: RequestHandler) {
  instance[verb]('/reports', handler);
}
`,
      }),
    );
    expect(lines(res)).toEqual([]);
    expect(unresolvedRows(res)).toEqual([
      "src/mount.ts:5:3 warning unresolved-route routes registered on the parameter 'instance' of mount() whose callers pass no router known statically; their prefix is unknown",
    ]);
  });

  it("a router mounted in a loop on an app handed over inside an object is mounted once per item (code-server's `for (const routePrefix of ['/vscode', '/']) app.router.use(routePrefix, vscode.router)`)", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/editor.ts': `
import express from 'express';

export const router = express.Router();
router.get('/manifest.json', (req, res) => res.json({ name: 'editor' }));
router.post('/mint-key', (req, res) => res.end('key'));
`,
        'src/routes.ts': `
import type { Express } from 'express';
import { router as editor } from './editor';

export function register(app: { router: Express }) {
  for (const routePrefix of ['/vscode', '/']) {
    app.router.use(routePrefix, editor);
  }
}
`,
        'src/main.ts': `
import express from 'express';
import { register } from './routes';

const app = { router: express() };
register(app);
app.router.listen(8080);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /manifest.json [] src/editor.ts:5', 'POST /mint-key [] src/editor.ts:6', 'GET /vscode/manifest.json [] src/editor.ts:5', 'POST /vscode/mint-key [] src/editor.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Koa, Hono and Fastify: a route a helper makes with the path a call gives is reported at the call', async () => {
    const projects: Record<string, Record<string, string>> = {
      koa: {
        'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0' } }),
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const router = new Router();
function route(path: string) {
  router.get(path, async (ctx) => {
    ctx.body = { path };
  });
}
route('/status');

const app = new Koa();
app.use(router.routes());
`,
      },
      hono: {
        'package.json': JSON.stringify({ name: 'h', dependencies: { hono: '^4.6.0' } }),
        'src/app.ts': `
import { Hono } from 'hono';

const app = new Hono();
function route(path: string) {
  app.get(path, (c) => c.json({ path }));
}
route('/status');

export default app;
`,
      },
      fastify: {
        'package.json': JSON.stringify({ name: 'f', dependencies: { fastify: '^5.0.0' } }),
        'src/app.ts': `
import Fastify from 'fastify';

const app = Fastify();
function route(path: string) {
  app.get(path, async () => ({ path }));
}
route('/status');

await app.listen({ port: 3000 });
`,
      },
    };
    for (const [framework, files] of Object.entries(projects)) {
      const res = await check(writeProject(files));
      expect(res.routes.map((r) => `${r.framework} ${r.method} ${r.path} ${r.file}:${r.line} ${r.snippet}`)).toEqual([`${framework} GET /status src/app.ts:${framework === 'koa' ? 11 : 8} route('/status');`]);
    }
  });

  it('Koa and Hono: a prefix a helper mounts at, from what a call gives it, is located at the call', async () => {
    const koa = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0' } }),
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const sites = new Router();
sites.get('/', async (ctx) => {
  ctx.body = [];
});
const api = new Router();
function mount(path: string, router: Router) {
  api.use(path, router.routes());
}
mount('/sites', sites);

const app = new Koa();
app.use(api.routes());
`,
      }),
    );
    expect(koa.routes.map((r) => `${r.method} ${r.path} ${r.prefixes.map((x) => `${x.prefix}@${x.file}:${x.line}`).join(' ')}`)).toEqual(['GET /sites /sites@src/app.ts:13']);
    const hono = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'h', dependencies: { hono: '^4.6.0' } }),
        'src/app.ts': `
import { Hono } from 'hono';

const sites = new Hono();
sites.get('/', (c) => c.json([]));
const app = new Hono();
function mount(path: string, sub: Hono) {
  app.route(path, sub);
}
mount('/sites', sites);

export default app;
`,
      }),
    );
    expect(hono.routes.map((r) => `${r.method} ${r.path} ${r.prefixes.map((x) => `${x.prefix}@${x.file}:${x.line}`).join(' ')}`)).toEqual(['GET /sites /sites@src/app.ts:10']);
  });

  it('a route a helper makes with a path a call gives that is not known statically: the warning is at the call', async () => {
    const express = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.ts': `
import express from 'express';

export const app = express();
function route(path: string) {
  app.get(path, (req, res) => res.json({ ok: true }));
}
route('/status');
route(process.env.HEALTH_PATH!);
`,
      }),
    );
    expect(lines(express)).toEqual(['GET /status [] src/app.ts:8']);
    expect(unresolvedRows(express)).toEqual(['src/app.ts:9:1 warning unresolved-route GET route with a path not known statically (property HEALTH_PATH of a value not known statically); it is left out']);
    const koa = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0' } }),
        'src/app.ts': `
import Koa from 'koa';
import Router from '@koa/router';

const router = new Router();
function route(path: string) {
  router.get(path, async (ctx) => {
    ctx.body = { ok: true };
  });
}
route(process.env.HEALTH_PATH!);

new Koa().use(router.routes());
`,
      }),
    );
    expect(unresolvedRows(koa)).toEqual(['src/app.ts:11:1 warning unresolved-route GET route with a path not known statically; it is left out']);
  });

  it('a deps object handed down eleven calls still mounts its route beside a recursive walk handing its context to itself and a lookup on every context', async () => {
    // Ten wrappers hand `deps` down to the one registering on `deps.app`; a recursive tree walk
    // hands its own `ctx` to itself three times a call, and every function reads a map on what it
    // is given. Followed naively, the walk's handing-on alone is 3^10 paths.
    const wrappers = Array.from({ length: 10 }, (_, i) => `export function layer${i + 1}(deps: Deps) {\n  deps.cache.get(deps.key);\n  layer${i + 2}(deps);\n}\n`).join('\n');
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/a-walk.ts': `
import type { EventEmitter } from 'node:events';

interface Node { id: string; a?: Node; b?: Node; c?: Node }

export function walk(ctx: { bus: EventEmitter & { use(fn: (n: Node) => void): void }; seen: Map<string, Node> }, node: Node | undefined): void {
  if (!node || ctx.seen.get(node.id)) return;
  ctx.seen.set(node.id, node);
  ctx.bus.use((n) => n.id);
  walk(ctx, node.a);
  walk(ctx, node.b);
  walk(ctx, node.c);
}
`,
        'src/layers.ts': `
import type { Express } from 'express';

export interface Deps { app: Express; cache: Map<string, unknown>; key: string }

${wrappers}
export function layer11(deps: Deps) {
  deps.cache.get(deps.key);
  deps.app.get('/api/deep/status', (req, res) => res.json({ ok: true }));
}
`,
        'src/app.ts': `
import express from 'express';
import { layer1 } from './layers';

const app = express();
layer1({ app, cache: new Map(), key: 'boot' });
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/deep/status [] src/layers.ts:58']);
  });

  it("a route helper called by a function handing on its own router: the helper's method and path are the call's, and the route is located there", async () => {
    // TriliumNext's ETAPI: eu.route(router, 'get', '/etapi/app-info', handler) in each module's register(router)
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/etapi/etapi_utils.ts': `
import type { NextFunction, Request, Response, Router } from 'express';

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

function checkEtapiAuth(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.authorization) return res.status(401).json({ code: 'NOT_AUTHENTICATED' });
  next();
}

function route(router: Router, method: HttpMethod, path: string, handler: (req: Request, res: Response) => void) {
  router[method](path, checkEtapiAuth, handler);
}

export default { route };
`,
        'src/etapi/app_info.ts': `
import type { Router } from 'express';
import eu from './etapi_utils.js';

function register(router: Router) {
  eu.route(router, 'get', '/etapi/app-info', (req, res) => {
    res.status(200).json({ appVersion: process.env.APP_VERSION });
  });
  eu.route(router, 'delete', '/etapi/app-info/cache', (req, res) => {
    res.status(204).end();
  });
}

export default { register };
`,
        'src/app.ts': `
import express from 'express';
import appInfo from './etapi/app_info.js';

const app = express();
const router = express.Router();
appInfo.register(router);
app.use('/', router);
app.listen(8080);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /etapi/app-info [checkEtapiAuth] src/etapi/app_info.ts:6', 'DELETE /etapi/app-info/cache [checkEtapiAuth] src/etapi/app_info.ts:9']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a registration whose path the function writes itself, handed on through callers passing their own middleware object, keeps the middleware names it is written with', async () => {
    // NodeBB: app.get('/actor', middlewares, …) in routes/activitypub.js, reached through addCoreRoutes(app, router, middleware)
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/routes/activitypub.ts': `
import type { Router } from 'express';

export default function activitypub(app: Router, middleware: any) {
  const middlewares = [middleware.activitypub.enabled, middleware.activitypub.verify];
  app.get('/actor', middlewares, (req, res) => res.json({ type: 'Application' }));
}
`,
        'src/routes/index.ts': `
import express, { type Express } from 'express';
import activitypub from './activitypub';

function addCoreRoutes(router: express.Router, middleware: any) {
  activitypub(router, middleware);
}

export default function routes(app: Express, middleware: any) {
  const router = express.Router();
  addCoreRoutes(router, middleware);
  app.use('/', router);
}
`,
        'src/server.ts': `
import express from 'express';
import routes from './routes';
import { loadMiddleware } from './plugins';

const app = express();
routes(app, loadMiddleware());
app.listen(4567);
`,
        'src/plugins.ts': `
export function loadMiddleware(): any {
  return JSON.parse(process.env.MIDDLEWARE ?? '{}');
}
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /actor [middleware.activitypub.enabled, middleware.activitypub.verify] src/routes/activitypub.ts:6']);
  });

  it('a router handed whole to a function mounting it on an app handed on through a caller: mounted there, behind the app\'s middleware', async () => {
    // NodeBB: routes(app) makes its router and calls addCoreRoutes(app, router), which does app.use(relativePath || '/', router)
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/session.ts': `
import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!(req as Request & { session?: { uid?: number } }).session?.uid) return res.status(401).json({ error: 'not-logged-in' });
  next();
}
`,
        'src/routes/index.ts': `
import express, { type Express } from 'express';

export default async function routes(app: Express) {
  const router = express.Router();
  router.get('/api/topics', (req, res) => res.json([]));
  addCoreRoutes(app, router);
}

function addCoreRoutes(app: Express, router: express.Router) {
  app.use('/forum', router);
}
`,
        'src/webserver.ts': `
import express from 'express';
import routes from './routes';
import { requireSession } from './session';

const app = express();
app.use(requireSession);

async function initialize() {
  await routes(app);
}

initialize().then(() => app.listen(4567));
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /forum/api/topics [requireSession] src/routes/index.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a call a function returns is made as a statement\'s is: `return registerRoutes(app)`, `(app) => registerRoutes(app)`', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/routes.ts': `
import type { Express } from 'express';
import { authMiddleware } from './middlewares/auth.middleware';

export function registerRoutes(app: Express) {
  app.get('/api/sites', authMiddleware, (req, res) => {
    res.json([]);
  });
}
`,
        'src/main.ts': `
import express, { type Express } from 'express';
import { registerRoutes } from './routes';

function setup(app: Express) {
  return registerRoutes(app);
}
const setupAdmin = (app: Express) => registerRoutes(app);

const api = express();
setup(api);
api.listen(3000);

const admin = express();
setupAdmin(admin);
admin.listen(3001);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.app} ${lines({ routes: [r] })[0]}`)).toEqual([
      'app (src/main.ts:10) GET /api/sites [authMiddleware] src/routes.ts:6',
      'app (src/main.ts:14) GET /api/sites [authMiddleware] src/routes.ts:6',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a class field given, in a loop, a value that reads the class's own fields is no value of the loop's item (langfuse's backfill migration, whose calls were read without end)", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/routes.ts': `
import type { Router } from 'express';
import { authMiddleware } from './middlewares/auth.middleware';

export function mountMigrations(router: Router) {
  router.get('/api/migrations', authMiddleware, (req, res) => res.json([]));
}
`,
        'src/store.ts': 'export const store = { update: async (query: object) => query };\n',
        'src/migrations/backfill.ts': `
import { mountMigrations } from '../routes';
import { store } from '../store';

type Todo = { id: string; status: string };

export class BackfillMigration {
  protected readonly migrationId = 'b5f8c2a1';
  protected readonly logPrefix = '[backfill]';
  private haltError: Error | null = null;

  protected async verifyCompletedChunk(_todo: Todo): Promise<string | null> {
    return null;
  }

  protected async updateState(): Promise<void> {
    await store.update({ where: { id: this.migrationId } });
  }

  private async pollActiveQueries(active: Map<string, Todo>): Promise<void> {
    for (const [queryId, todo] of [...active]) {
      const verificationError = await this.verifyCompletedChunk(todo);
      if (verificationError) this.haltError = new Error(\`\${this.logPrefix} \${queryId}: \${verificationError}\`);
    }
  }
}

export { mountMigrations };
`,
        'src/main.ts': `
import express from 'express';
import { mountMigrations } from './routes';

const app = express();
mountMigrations(app);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/migrations [authMiddleware] src/routes.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a path written as a template that reads a parameter, handed on by functions passing their own app and option: read at each call, the option's default (plain or destructured) when none is passed", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/docs.ts': `
import { Router, type Express } from 'express';
import { authMiddleware } from './middlewares/auth.middleware';

const docs = Router();
docs.get('/openapi.json', authMiddleware, (req, res) => res.json({}));

export function mountDocs(app: Express, base: string) {
  app.use(\`/\${base}\`, docs);
}
`,
        'src/setup.ts': `
import type { Express } from 'express';
import { mountDocs } from './docs';

export function setupReference(app: Express, { referencePath = 'reference' }: { referencePath?: string } = {}) {
  mountDocs(app, referencePath);
}

export function setupSwagger(app: Express, swaggerPath = 'swagger') {
  mountDocs(app, swaggerPath);
}

export function setupAll(app: Express, prefix: string) {
  setupSwagger(app, \`\${prefix}-swagger\`);
}
`,
        'src/main.ts': `
import express from 'express';
import { setupAll, setupReference, setupSwagger } from './setup';

const app = express();
setupReference(app);
setupReference(app, { referencePath: 'api-reference' });
setupSwagger(app);
setupAll(app, 'v2');
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /api-reference/openapi.json [authMiddleware] src/docs.ts:6',
      'GET /reference/openapi.json [authMiddleware] src/docs.ts:6',
      'GET /swagger/openapi.json [authMiddleware] src/docs.ts:6',
      'GET /v2-swagger/openapi.json [authMiddleware] src/docs.ts:6',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("calls written in the list handed to Promise.all (Etherpad's express.ts), or to Promise.resolve, are made as statements are: each hands its router on", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/auth.middleware.ts': AUTH,
        'src/hooks/apicalls.ts': `
import type { Express } from 'express';

export const expressPreSession = async (hookName: string, { app }: { app: Express }) => {
  app.get('/api', (req, res) => res.json({ currentVersion: '1.3.0' }));
};
`,
        'src/hooks/tokenTransfer.ts': `
import type { Express } from 'express';
import { authMiddleware } from '../middlewares/auth.middleware';

export const expressCreateServer = async (hookName: string, { app }: { app: Express }) => {
  app.post('/tokenTransfer', authMiddleware, (req, res) => res.json({ id: 'transfer' }));
  app.get('/tokenTransfer/:token', (req, res) => res.json({ token: req.params.token }));
};
`,
        'src/hooks/admin.ts': `
import type { Express } from 'express';
import { authMiddleware } from '../middlewares/auth.middleware';

export const expressCreateServer = (hookName: string, { app }: { app: Express }, cb: () => void) => {
  app.get('/admin', authMiddleware, (req, res) => res.send('admin'));
  cb();
};
`,
        'src/hooks/pwa.ts': `
import type { Express } from 'express';

export const expressCreateServer = (hookName: string, { app }: { app: Express }) => {
  app.get('/manifest.json', (req, res) => res.json({ name: 'pad' }));
};
`,
        'src/server.ts': `
import express from 'express';
import http from 'node:http';
import * as apicalls from './hooks/apicalls';
import * as tokenTransfer from './hooks/tokenTransfer';
import * as admin from './hooks/admin';
import * as pwa from './hooks/pwa';

export const restartServer = async () => {
  const app = express();
  const server = http.createServer(app);
  await apicalls.expressPreSession('expressPreSession', { app });
  await Promise.all([
    tokenTransfer.expressCreateServer('expressCreateServer', { app, server }),
    admin.expressCreateServer('expressCreateServer', { app, server }, () => {}),
  ]);
  await Promise.resolve(pwa.expressCreateServer('expressCreateServer', { app }));
  server.listen(9001);
};

restartServer();
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /admin [authMiddleware] src/hooks/admin.ts:6',
      'GET /api [] src/hooks/apicalls.ts:5',
      'GET /manifest.json [] src/hooks/pwa.ts:5',
      'POST /tokenTransfer [authMiddleware] src/hooks/tokenTransfer.ts:6',
      'GET /tokenTransfer/:token [] src/hooks/tokenTransfer.ts:7',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
