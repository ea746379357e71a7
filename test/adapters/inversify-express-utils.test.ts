/**
 * inversify-express-utils: fixtures/inversify-express-utils, a control plane whose controllers
 * an inversify container serves, their middleware given as container identifiers, classes and
 * functions. Expectations derived by hand from inversify-express-utils 6.5.0
 * (InversifyExpressServer.registerControllers, mergePaths and resolveMiddlewere in
 * src/server.ts; controller, httpMethod and withMiddleware in src/decorators.ts;
 * getControllerMethodMetadata in src/utils.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeRows, row, type GuardKinds, type RouteRow } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { mergePaths } from '../../src/adapters/inversify-express-utils/index.js';

const DIR = path.join(ROOT, 'fixtures', 'inversify-express-utils');

/** The fixture's files, by path, to write a variant of it. */
function fixtureFiles(dir = DIR, under = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, fixtureFiles(dir, rel));
    else out[rel] = fs.readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

/** A server under `/api` whose `setConfig` callback is `configureApp` of `src/configure.ts`. */
const CONFIGURED_SERVER = `import { InversifyExpressServer } from 'inversify-express-utils';
import { container } from './container';
import { configureApp } from './configure';

const server = new InversifyExpressServer(container, null, { rootPath: '/api' });
server.setConfig(configureApp);
server.build().listen(Number(process.env.PORT ?? 3000));
`;

/**
 * The fixture's routes, each controller's (S: the guards of the sites controller's routes, its
 * SessionMiddleware's and what runs before it; `all`: guards of a kind every route gains).
 */
function controllerRows(S: Partial<GuardKinds>, all: Partial<GuardKinds> = {}): RouteRow[] {
  const withAll = (route: string, classification: string, at: string, g: Partial<GuardKinds>, contractRoute?: string): RouteRow => row(route, classification, at, { ...all, ...g }, contractRoute);
  return [
    // mergePaths: `health` and `ready/` get their leading slash and lose the trailing one
    withAll('GET /api/health/ready', 'public', 'src/controllers/health.controller.ts:5:3', {}, 'GET /api/health/ready'),
    // the class's middleware (AdminMiddleware: 401 without a session, by behaviour an auth
    // guard, and an ops one by name), then the method's: what @withMiddleware adds is auditLog, no guard
    withAll('DELETE /api/ops/cache', 'excluded:ops', 'src/controllers/admin.controller.ts:9:3', { auth: ['AdminMiddleware'], family: ['AdminMiddleware'] }),
    withAll('PURGE /api/ops/cdn', 'excluded:ops', 'src/controllers/admin.controller.ts:15:3', { auth: ['AdminMiddleware'], family: ['AdminMiddleware'] }),
    // an action of the class it extends, under the subclass's path and middleware
    withAll('GET /api/ops/version', 'excluded:ops', 'src/controllers/versioned.ts:4:3', { auth: ['AdminMiddleware'], family: ['AdminMiddleware'] }),
    withAll('GET /api/sites', 'contract', 'src/controllers/sites.controller.ts:14:3', S, 'GET /api/sites/'),
    withAll('POST /api/sites', 'browser', 'src/controllers/sites.controller.ts:24:3', S),
    // @withMiddleware written below @httpDelete adds to its middleware
    withAll('DELETE /api/sites/:siteId', 'browser', 'src/controllers/sites.controller.ts:29:3', { ...S, tenant: ['MembershipMiddleware'] }),
    // the constant the container binds TYPES.MembershipMiddleware to, `new MembershipMiddleware(sites)`: a tenant check
    withAll('GET /api/sites/:siteId', 'browser', 'src/controllers/sites.controller.ts:19:3', { ...S, tenant: ['MembershipMiddleware'] }),
    // …and written above @httpPut, it comes too late
    withAll('PUT /api/sites/:siteId', 'browser', 'src/controllers/sites.controller.ts:37:3', S),
  ];
}

describe('inversify-express-utils', () => {
  it("lists each decorated controller's routes under the root path, behind the controller's and the method's middleware, container identifiers resolved to their classes", async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual(controllerRows({ auth: ['SessionMiddleware'] }));
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
        ...fixtureFiles(),
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

  it("each server of a monorepo serves the controllers its module loads through its imports; one that imports none, those of its package, said so", async () => {
    const controller = (name: string, path: string, route: string) => `import { controller, httpGet } from 'inversify-express-utils';

@controller('${path}')
export class ${name} {
  @httpGet('${route}')
  list() {
    return [];
  }
}
`;
    const server = (imports: string[]) => `import 'reflect-metadata';
import { Container } from 'inversify';
import { InversifyExpressServer } from 'inversify-express-utils';
${imports.map((i) => `import '${i}';`).join('\n')}

const server = new InversifyExpressServer(new Container());
server.build().listen(3000);
`;
    const dep = { inversify: '^6.2.2', 'inversify-express-utils': '^6.5.0', 'reflect-metadata': '^0.2.2' };
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'services', private: true, workspaces: ['packages/*'] }),
        'packages/billing/package.json': JSON.stringify({ name: 'billing', dependencies: dep }),
        'packages/billing/src/invoices.controller.ts': controller('InvoicesController', '/invoices', '/'),
        'packages/billing/src/controllers.ts': `import './invoices.controller';\n`,
        'packages/billing/bin/server.ts': server(['../src/controllers']),
        'packages/files/package.json': JSON.stringify({ name: 'files', dependencies: dep }),
        'packages/files/src/uploads.controller.ts': controller('UploadsController', '/uploads', '/'),
        // (its controllers are loaded some other way: none is imported)
        'packages/files/bin/server.ts': server([]),
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.app}`)).toEqual([
      'GET /invoices server (packages/billing/bin/server.ts)',
      'GET /uploads server (packages/files/bin/server.ts)',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'packages/files/bin/server.ts:6:16 warning unresolved-route no controller is imported, directly or not, by the module making this inversify-express-utils server; those of its package are listed',
    ]);
  });

  it("a handler a middleware class inherits calls the methods the class overrides: `this` is the class's instance", async () => {
    // (standardnotes/server: the gateway's AuthMiddleware.handler asks
    // `this.handleMissingAuthHeader(…)`, which RequiredCrossServiceTokenMiddleware answers with a
    // 401 and the optional one with next(); the auth service's ApiGatewayAuthMiddleware.handler
    // refuses an invalid token itself, after the same kind of call)
    const files = fixtureFiles();
    // an override answering 401 for a request naming no caller, and one handing it on
    const REFUSES = `  protected override handleMissingCaller(caller: string | undefined, res: Response, _next: NextFunction): boolean {
    if (!caller) {
      res.status(401).json({ error: 'who is calling?' });
      return false;
    }
    return true;
  }`;
    const HANDS_ON = `  protected override handleMissingCaller(caller: string | undefined, _res: Response, next: NextFunction): boolean {
    if (!caller) {
      next();
      return false;
    }
    return true;
  }`;
    files['src/middleware/caller.middleware.ts'] = `import type { NextFunction, Request, Response } from 'express';
import { injectable } from 'inversify';
import { BaseMiddleware } from 'inversify-express-utils';
import { verifyCaller } from './callers';

export abstract class CallerMiddleware extends BaseMiddleware {
  async handler(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!this.handleMissingCaller(req.headers['x-caller'] as string | undefined, res, next)) {
      return;
    }
    res.locals.caller = req.headers['x-caller'];
    next();
  }

  protected abstract handleMissingCaller(caller: string | undefined, res: Response, next: NextFunction): boolean;
}

export abstract class VerifiedCallerMiddleware extends BaseMiddleware {
  handler(req: Request, res: Response, next: NextFunction): void {
    if (!this.handleMissingCaller(req.headers['x-caller'] as string | undefined, res, next)) return;
    if (!verifyCaller(String(req.headers['x-caller']))) {
      res.status(401).json({ error: 'unknown caller' });
      return;
    }
    next();
  }

  protected abstract handleMissingCaller(caller: string | undefined, res: Response, next: NextFunction): boolean;
}

@injectable()
export class RequiredCallerMiddleware extends CallerMiddleware {
${REFUSES}
}

@injectable()
export class OptionalCallerMiddleware extends CallerMiddleware {
${HANDS_ON}
}

@injectable()
export class StrictCallerMiddleware extends VerifiedCallerMiddleware {
${REFUSES}
}

@injectable()
export class LenientCallerMiddleware extends VerifiedCallerMiddleware {
${HANDS_ON}
}
`;
    files['src/middleware/callers.ts'] = `const known = new Set((process.env.CALLERS ?? '').split(','));

export function verifyCaller(caller: string): boolean {
  return known.has(caller);
}
`;
    files['src/controllers/callers.controller.ts'] = `import { controller, httpGet } from 'inversify-express-utils';
import { LenientCallerMiddleware, OptionalCallerMiddleware, RequiredCallerMiddleware, StrictCallerMiddleware } from '../middleware/caller.middleware';

@controller('/keys', RequiredCallerMiddleware)
export class KeysController {
  @httpGet('/')
  list() {
    return [];
  }
}

@controller('/motd', OptionalCallerMiddleware)
export class MotdController {
  @httpGet('/')
  show() {
    return { motd: 'hello' };
  }
}

@controller('/audit', StrictCallerMiddleware)
export class AuditController {
  @httpGet('/')
  list() {
    return [];
  }
}

@controller('/status', LenientCallerMiddleware)
export class StatusController {
  @httpGet('/')
  show() {
    return { up: true };
  }
}
`;
    files['src/container.ts'] += `import './controllers/callers.controller';\n`;
    const res = await check(writeProject(files));
    const rows = res.routes.filter((r) => ['/api/keys', '/api/motd', '/api/audit', '/api/status'].includes(r.path));
    expect(rows.map((r) => [`${r.method} ${r.path}`, r.guards.map((g) => `${g.name} ${g.kinds.join('+')}: ${g.reason}`)])).toEqual([
      // the inherited handler's own 401 (the override it calls first answers one too)
      ['GET /api/audit', ['StrictCallerMiddleware auth: by behaviour (ends the request with 401)']],
      // the 401 of the override the inherited handler calls first
      ['GET /api/keys', ['RequiredCallerMiddleware auth: by behaviour (ends the request with 401, answered by this.handleMissingCaller())']],
      // the override calls next() for a request without a caller: nothing refuses it
      ['GET /api/motd', []],
      // …before the handler's own 401: optional authentication
      ['GET /api/status', []],
    ]);
  });

  describe('an identifier the container binds otherwise than to one class (standardnotes/server)', () => {
    const TOKEN_MIDDLEWARE = `import type { NextFunction, Request, Response } from 'express';
import { injectable } from 'inversify';
import { BaseMiddleware } from 'inversify-express-utils';

abstract class TokenMiddleware extends BaseMiddleware {
  handler(req: Request, res: Response, next: NextFunction): void {
    const token = req.headers.authorization?.replace('Bearer ', '');
    if (!token || !this.verify(token)) {
      res.status(401).json({ error: 'invalid token' });
      return;
    }
    next();
  }

  protected abstract verify(token: string): boolean;
}

@injectable()
export class GrpcTokenMiddleware extends TokenMiddleware {
  protected verify(token: string): boolean {
    return token.length === 64;
  }
}

@injectable()
export class HttpTokenMiddleware extends TokenMiddleware {
  protected verify(token: string): boolean {
    return token.startsWith('v1.');
  }
}
`;
    const sitesGuards = async (binding: string): Promise<string[]> => {
      const files = fixtureFiles();
      files['src/middleware/token.middleware.ts'] = TOKEN_MIDDLEWARE;
      files['src/container.ts'] = files['src/container.ts']!.replace(
        'container.bind<SessionMiddleware>(T.SessionMiddleware).to(SessionMiddleware);\n',
        binding,
      ).replace("import { SessionMiddleware } from './middleware/session.middleware';", "import { GrpcTokenMiddleware, HttpTokenMiddleware } from './middleware/token.middleware';");
      const res = await check(writeProject(files));
      return res.routes.find((r) => r.method === 'GET' && r.path === '/api/sites')!.guards.map((g) => `${g.name} ${g.kinds.join('+')}`);
    };

    it('toDynamicValue of a function returning `new` of one class is that class; returning anything else, a guard by its name', async () => {
      expect(
        await sitesGuards(`container.bind(T.SessionMiddleware).toDynamicValue((context) => {
  return context.container.get<HttpTokenMiddleware>(HttpTokenMiddleware);
});
`),
      ).toEqual(['TYPES.SessionMiddleware auth']);
      expect(
        await sitesGuards(`container.bind(T.SessionMiddleware).toDynamicValue((context) => {
  context.container.get<SiteRepository>(T.SiteRepository);
  return new HttpTokenMiddleware();
});
`),
      ).toEqual(['HttpTokenMiddleware auth+bearer']);
    });

    it('two classes bound under a condition are the guard both are, when they are the same guard', async () => {
      expect(
        await sitesGuards(`if (process.env.TRANSPORT === 'grpc') {
  container.bind(T.SessionMiddleware).toConstantValue(new GrpcTokenMiddleware());
} else {
  container.bind(T.SessionMiddleware).to(HttpTokenMiddleware);
}
`),
      ).toEqual(['GrpcTokenMiddleware or HttpTokenMiddleware auth+bearer']);
    });
  });

  it("setConfig's callback is handed the Express app: its routes are the app's, and its middleware runs before every controller's route it reaches", async () => {
    const dir = writeProject({
      ...fixtureFiles(),
      'src/server.ts': `import bodyParser from 'body-parser';
import csrf from 'csurf';
import type { Request, Response } from 'express';
import { InversifyExpressServer } from 'inversify-express-utils';
import { container } from './container';

const server = new InversifyExpressServer(container, null, { rootPath: '/api' });
server.setConfig((app) => {
  app.use(bodyParser.json());
  // the dashboard's forms post with the token of the page they came from
  app.use('/api/sites', csrf({ cookie: false }));
  if (process.env.E2E_TESTING === 'true') {
    // the end-to-end suite starts every scenario from an empty store
    app.post('/e2e/reset', (_req: Request, res: Response) => {
      container.unbindAll();
      res.status(204).end();
    });
  }
});
const app = server.build();
app.listen(Number(process.env.PORT ?? 3000));
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      ...controllerRows({ auth: ['SessionMiddleware'], csrf: ['csrf'] }),
      // (outside the root path: the app's own route, not a controller's)
      row('POST /e2e/reset', 'browser', 'src/server.ts:14:5', {}),
    ]);
    expect(res.routes.find((r) => r.path === '/api/sites' && r.method === 'POST')?.guards[0]).toMatchObject({ name: 'csrf', mechanism: 'app.use', file: 'src/server.ts', line: 11 });
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('a setConfig callback of another module hands the app on to a helper: what the helper registers is made where the call is', async () => {
    const dir = writeProject({
      ...fixtureFiles(),
      'src/server.ts': CONFIGURED_SERVER,
      'src/configure.ts': `import bodyParser from 'body-parser';
import csrf from 'csurf';
import type { Application, Request, Response } from 'express';

export function configureApp(app: Application): void {
  app.use(bodyParser.json());
  addTestRoutes(app);
  // every form of the dashboard posts with the token of its page
  app.use(csrf({ cookie: false }));
}

function addTestRoutes(app: Application): void {
  // the end-to-end suite starts every scenario from an empty store
  app.post('/e2e/reset', (_req: Request, res: Response) => {
    res.status(204).end();
  });
}
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      ...controllerRows({ auth: ['SessionMiddleware'] }, { csrf: ['csrf'] }),
      // (made where addTestRoutes(app) is called, before the csrf middleware is used)
      row('POST /e2e/reset', 'browser', 'src/configure.ts:14:3', {}),
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it('a helper the setConfig callback calls under a condition registers under it: its middleware guards only when the condition holds', async () => {
    const dir = writeProject({
      ...fixtureFiles(),
      'src/server.ts': CONFIGURED_SERVER,
      'src/configure.ts': `import csrf from 'csurf';
import type { Application } from 'express';

export function configureApp(app: Application): void {
  // (off in the local stack, where the dashboard runs on another origin)
  if (process.env.CSRF_PROTECTION === 'on') useCsrf(app);
}

function useCsrf(app: Application): void {
  app.use(csrf({ cookie: false }));
}
`,
    });
    const res = await check(dir);
    const csrf = res.routes.find((r) => r.method === 'POST' && r.path === '/api/sites')?.conditionalGuards?.find((g) => g.name === 'csrf');
    expect(csrf).toMatchObject({ kinds: ['csrf'], file: 'src/configure.ts', line: 10, when: "process.env.CSRF_PROTECTION === 'on'" });
    expect(res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => `${f.line} ${f.message}`)).toEqual([
      "24 POST /api/sites changes state on the browser session without a CSRF guard (csrf is one, but applied only when `process.env.CSRF_PROTECTION === 'on'`, which is not known statically: src/configure.ts:10)",
      "29 DELETE /api/sites/:siteId changes state on the browser session without a CSRF guard (csrf is one, but applied only when `process.env.CSRF_PROTECTION === 'on'`, which is not known statically: src/configure.ts:10)",
      "37 PUT /api/sites/:siteId changes state on the browser session without a CSRF guard (csrf is one, but applied only when `process.env.CSRF_PROTECTION === 'on'`, which is not known statically: src/configure.ts:10)",
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
