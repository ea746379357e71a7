/**
 * routing-controllers on Express and Koa: fixtures/routing-controllers (a control plane whose
 * controllers are loaded by a glob, with @Authorized, @UseBefore and a global middleware) and
 * small projects for single semantics. Expectations derived by hand from routing-controllers
 * 0.11.3 (createExecutor, ExpressDriver.registerAction, ActionMetadata.appendBaseRoute).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check, cli } from '../helpers/run.js';
import { findingRows, routeRows, row } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';
import { appendBaseRoute } from '../../src/adapters/routing-controllers/index.js';
import { globRegex } from '../../src/link/listing.js';

const C = 'src/controllers/';
const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

describe('fixtures/routing-controllers', () => {
  const DIR = path.join(ROOT, 'fixtures', 'routing-controllers');
  // @Authorized() on the class, @UseBefore(TenantScope) on the class
  const SCOPED = { auth: ['@Authorized'], tenant: ['TenantScope'] };

  it('lists the actions of the controllers its glob loads, each behind @UseBefore and @Authorized', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me/', 'contract', `${C}me.controller.ts:8:3`, { auth: ['@Authorized'] }, 'GET /api/auth/me/'),
      row('GET /api/databases/', 'contract', `${C}databases.controller.ts:8:3`, { auth: ['@Authorized'] }, 'GET /api/databases/'),
      row('GET /api/deployments/', 'contract', `${C}deployments.controller.ts:10:3`, SCOPED, 'GET /api/deployments/'),
      row('GET /api/health/ready', 'public', `${C}health.controller.ts:6:3`, {}, 'GET /api/health/ready'),
      row('GET /api/sites/', 'contract', `${C}sites.controller.ts:11:3`, SCOPED, 'GET /api/sites/'),
      row('POST /api/sites/', 'browser', `${C}sites.controller.ts:23:3`, { ...SCOPED, csrf: ['csrfProtection'] }),
      row('DELETE /api/sites/:siteId', 'browser', `${C}sites.controller.ts:30:3`, SCOPED),
      row('GET /api/sites/:siteId', 'browser', `${C}sites.controller.ts:16:3`, SCOPED),
      row('POST /internal/builds/:buildId/complete', 'excluded:internal', `${C}internal.controller.ts:8:3`),
      row('GET /internal/tenants/:tenantId/usage', 'excluded:internal', `${C}internal.controller.ts:14:3`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
    ]);
    // @Authorized('admin') on the method and @Authorized() on the class are one check, the method's
    expect(res.routes.find((r) => r.method === 'DELETE')!.guards.map((g) => `${g.name} ${g.mechanism} ${g.line}`)).toEqual(['TenantScope controller-guard 9', '@Authorized method-guard 31']);
    expect(res.routes.map((r) => r.handler)).toEqual([
      'MeController.me',
      'DatabasesController.list',
      'DeploymentsController.list',
      'HealthController.ready',
      'SitesController.list',
      'SitesController.create',
      'SitesController.remove',
      'SitesController.one',
      'InternalController.complete',
      'InternalController.usage',
    ]);
  });

  it('explain names the decorators a guard comes from', () => {
    const r = cli(['explain', 'DELETE /api/sites/:siteId', '.'], DIR);
    expect(r.code).toBe(0);
    const guards = r.stdout.split('\n').filter((l) => /^\s+(guards\s+)?(TenantScope|@Authorized)\s/.test(l)).map((l) => l.trim().replace(/^guards\s+/, '').split(/\s{2,}/).slice(0, 4).join(' | '));
    expect(guards).toEqual([
      'TenantScope | tenant | a decorator on the controller class (@UseGuards; routing-controllers: @UseBefore, @Authorized) | src/controllers/sites.controller.ts:9',
      '@Authorized | auth | a decorator on the handler method or its parameter (@UseGuards; routing-controllers: @UseBefore, @Authorized, a required @CurrentUser) | src/controllers/sites.controller.ts:31',
    ]);
  });

  it('reports the unguarded internal action, the tenant guards two routes lack and the CSRF check the DELETE lacks', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `${C}databases.controller.ts:8:3 error missing-tenant-guard GET /api/databases/ has no tenant guard`,
      `${C}internal.controller.ts:8:3 error excluded-family-leak POST /internal/builds/:buildId/complete is in the excluded family "internal" and is reachable without its family guard (unguarded)`,
      `${C}me.controller.ts:8:3 error missing-tenant-guard GET /api/auth/me/ has no tenant guard`,
      `${C}sites.controller.ts:16:3 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${C}sites.controller.ts:23:3 info uncontracted-route ${outside('POST /api/sites/')}`,
      `${C}sites.controller.ts:30:3 error missing-csrf-guard DELETE /api/sites/:siteId changes state on the browser session without a CSRF guard`,
      `${C}sites.controller.ts:30:3 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
  });
});

const RC_PKG = JSON.stringify({ name: 'x', dependencies: { express: '^4.21.2', koa: '^2.16.0', 'routing-controllers': '^0.11.2' } });

const GUARDS = `
export function requireSession(req, res, next) {
  if (!req.session?.userId) return res.status(401).end();
  next();
}
export function requireAdmin(req, res, next) {
  if (!req.session?.roles?.includes('admin')) return res.status(403).end();
  next();
}
/** No decorator: routing-controllers calls its use() all the same. */
export class OrgMembers {
  use(req, res, next) {
    if (req.params.orgId !== req.session.orgId) return res.status(404).end();
    next();
  }
}
`;

function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}${r.trailingSlashInsensitive ? '' : ' (exact)'} [${r.guards.map((g) => g.name).join(', ')}]`);
}

describe('routing-controllers semantics', () => {
  it("routePrefix and base routes joined as appendBaseRoute joins them, @Method, classes and namespaces in `controllers`, and the app's middleware used before the call", async () => {
    const dir = writeProject({
      'package.json': RC_PKG,
      'src/guards.ts': GUARDS,
      'src/controllers.ts': `
import { Controller, Get, Method, Post, UseBefore } from 'routing-controllers';
import { OrgMembers, requireAdmin } from './guards';

@Controller('/users')
export class UsersController {
  @Get()
  list() { return []; }
  // (no slash: joined as written)
  @Get('me')
  me() { return {}; }
  @Method('purge', '/:id')
  @UseBefore(requireAdmin)
  purge() { return null; }
  @Get(process.env.EXTRA_ROUTE)
  extra() { return null; }
}

@Controller()
export class RootController {
  @Post('/login')
  login() { return {}; }
}

@Controller('/orgs/:orgId')
@UseBefore(OrgMembers)
export class OrgsController {
  @Get('/usage')
  usage() { return {}; }
}
`,
      'src/unlisted.ts': `
import { Controller, Get } from 'routing-controllers';

@Controller('/unlisted')
export class UnlistedController {
  @Get('/')
  index() { return []; }
}
`,
      'src/app.ts': `
import express from 'express';
import { useExpressServer } from 'routing-controllers';
import * as controllers from './controllers';
import { requireSession } from './guards';

const app = express();
app.use(requireSession);
useExpressServer(app, { routePrefix: 'v1', controllers: [controllers.UsersController, controllers.RootController, controllers.OrgsController] });
app.use((req, res) => res.status(404).end());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'POST /v1/login [requireSession]',
      'GET /v1/orgs/:orgId/usage [requireSession, OrgMembers]',
      'GET /v1/users [requireSession]',
      'PURGE /v1/users/:id [requireSession, requireAdmin]',
      'GET /v1/usersme [requireSession]',
    ]);
    // the class is read by what its use() does
    expect(res.routes.find((r) => r.path === '/v1/orgs/:orgId/usage')!.guards.map((g) => `${g.name} ${g.kinds.join('+')} ${g.mechanism}`)).toEqual(['requireSession auth app.use', 'OrgMembers tenant controller-guard']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/controllers.ts:15:3 warning unresolved-route GET route of UsersController.extra with a path not known statically; it is left out',
    ]);
  });

  it('global middleware: the `before` classes of `middlewares` (every one when not given), by priority, under routePrefix; on Koa a route ending in a slash serves only itself', async () => {
    const dir = writeProject({
      'package.json': RC_PKG,
      'src/middleware.ts': `
import { Middleware } from 'routing-controllers';

@Middleware({ type: 'before', priority: 1 })
export class SessionCheck {
  async use(ctx, next) {
    if (!ctx.session?.userId) { ctx.status = 401; return; }
    await next();
  }
}

@Middleware({ type: 'before', priority: 5 })
export class TenantCheck {
  async use(ctx, next) {
    if (ctx.get('x-tenant-id') !== ctx.session.tenantId) ctx.throw(404);
    await next();
  }
}

@Middleware({ type: 'after' })
export class Timing {
  async use(ctx, next) { await next(); }
}
`,
      'src/sites.ts': `
import { Authorized, Get, JsonController } from 'routing-controllers';

@JsonController('/sites')
export class SitesController {
  @Get('/')
  list() { return []; }
  @Get('/:siteId')
  @Authorized(['owner'])
  one() { return {}; }
}
`,
      'src/server.ts': `
import { createKoaServer } from 'routing-controllers';
import { SitesController } from './sites';
import { SessionCheck } from './middleware';

export const app = createKoaServer({ routePrefix: '/api', controllers: [SitesController] });
export const scoped = createKoaServer({ routePrefix: '/scoped', controllers: [SitesController], middlewares: [SessionCheck] });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/sites/ (exact) [TenantCheck, SessionCheck]',
      'GET /api/sites/:siteId [TenantCheck, SessionCheck, @Authorized]',
      'GET /scoped/sites/ (exact) [SessionCheck]',
      'GET /scoped/sites/:siteId [SessionCheck, @Authorized]',
    ]);
    expect(new Set(res.routes.map((r) => r.framework))).toEqual(new Set(['koa']));
  });

  it('controllers or middlewares not known statically: every controller class is listed, no middleware guards, and a warning says so', async () => {
    const dir = writeProject({
      'package.json': RC_PKG,
      'src/sites.ts': `
import { Get, JsonController } from 'routing-controllers';

@JsonController('/sites')
export class SitesController {
  @Get('/')
  list() { return []; }
}
`,
      'src/server.ts': `
import { createExpressServer } from 'routing-controllers';

const dirs = (name) => (process.env[name] ?? '').split(',');
export const app = createExpressServer({ controllers: dirs('CONTROLLERS'), middlewares: dirs('MIDDLEWARES') });
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /sites/ []']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => f.message.replace(/ \(.*?\);/, ' (…);'))).toEqual([
      'the controllers of this routing-controllers server are not known statically (…); every controller class of the analysed files is listed',
      'the middlewares of this routing-controllers server are not known statically (…); only those named are read',
    ]);
  });

  it("inherited actions are the subclass's: under its base route, behind its class-level decorators only (the base method's @Authorized is looked up on the subclass, and not found)", async () => {
    const dir = writeProject({
      'package.json': RC_PKG,
      'src/guards.ts': GUARDS,
      'src/base.ts': `
import { Authorized, Delete, Get, Param } from 'routing-controllers';

export abstract class CrudController {
  @Get('/')
  list() { return []; }

  @Delete('/:id')
  @Authorized('admin')
  remove(@Param('id') id: string) { return { id }; }
}
`,
      'src/users.ts': `
import { Get, JsonController, UseBefore } from 'routing-controllers';
import { CrudController } from './base';
import { requireSession } from './guards';

@JsonController('/admin/users')
@UseBefore(requireSession)
export class UsersController extends CrudController {
  @Get('/')
  list() { return ['own']; }
}
`,
      'src/server.ts': `
import { createExpressServer } from 'routing-controllers';
import { UsersController } from './users';

export const app = createExpressServer({ controllers: [UsersController], authorizationChecker: () => false });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /admin/users/ UsersController.list src/users.ts:9 [requireSession]',
      'DELETE /admin/users/:id UsersController.remove src/base.ts:8 [requireSession]',
    ]);
  });

  it("a required @CurrentUser parameter is the action's 401 check, after @Authorized: `{ required: true }`, or none given under defaults.paramOptions.required", async () => {
    const controllers = (required: string) => ({
      'src/me.ts': `
import * as rc from 'routing-controllers';
import { Authorized, CurrentUser, Get, JsonController, Param } from 'routing-controllers';
import { CurrentUser as Own } from './own';

export abstract class Base {
  @Get('/inherited')
  inherited(@CurrentUser({ required: true }) user: unknown) { return user; }
}

@JsonController('/me')
export class MeController extends Base {
  @Get('/')
  me(@CurrentUser({ required: true }) user: unknown) { return user; }

  @Get('/optional')
  optional(@CurrentUser({ required: false }) user: unknown) { return user ?? null; }

  @Get('/plain')
  plain(@CurrentUser() user: unknown) { return user; }

  @Get('/namespaced/:id')
  @Authorized()
  namespaced(@Param('id') id: string, @rc.CurrentUser({ required: true }) user: unknown) { return { id, user }; }

  @Get('/own')
  own(@Own({ required: true }) user: unknown) { return user; }

  @Get('/unknown')
  unknown(@CurrentUser({ required: ${required} }) user: unknown) { return user; }
}
`,
      'src/own.ts': `
export function CurrentUser(options?: { required?: boolean }) {
  return (target: object, method: string, index: number) => undefined;
}
`,
    });
    const server = (defaults: string) => `
import { createExpressServer } from 'routing-controllers';
import { MeController } from './me';

export const app = createExpressServer({ controllers: [MeController], currentUserChecker: async () => null${defaults} });
`;
    const plain = await check(writeProject({ 'package.json': RC_PKG, ...controllers('process.env.STRICT === "1"'), 'src/server.ts': server('') }));
    expect(plain.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name} ${g.mechanism} ${g.line} ${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /me/ [@CurrentUser method-guard 14 auth]',
      'GET /me/inherited []',
      'GET /me/namespaced/:id [@Authorized method-guard 23 auth, @CurrentUser method-guard 24 auth]',
      'GET /me/optional []',
      'GET /me/own []',
      'GET /me/plain []',
      'GET /me/unknown []',
    ]);
    // a decorator given no `required` gets the server's default; one given `required: false` keeps it
    const strict = await check(writeProject({ 'package.json': RC_PKG, ...controllers('true'), 'src/server.ts': server(', defaults: { paramOptions: { required: true } }') }));
    expect(strict.routes.filter((r) => r.guards.some((g) => g.name === '@CurrentUser')).map((r) => r.path)).toEqual(['/me/', '/me/namespaced/:id', '/me/plain', '/me/unknown']);
  });

  it('a server made with no options, `const app = createExpressServer()`, serves every decorated controller', async () => {
    const dir = writeProject({
      'package.json': RC_PKG,
      'src/users.ts': `
import { Controller, Get } from 'routing-controllers';

@Controller()
export class UserController {
  @Get('/users')
  list() { return []; }
}
`,
      'src/app.ts': `
import { createExpressServer } from 'routing-controllers';

require('./users');

const app = createExpressServer();
app.listen(3001);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /users []']);
  });

  it('appendBaseRoute and the globs of controller directories', () => {
    expect(appendBaseRoute('', '/users/:id')).toBe('/users/:id');
    expect(appendBaseRoute('api', '/users')).toBe('/api/users');
    expect(appendBaseRoute('/api', 'users')).toBe('/apiusers');
    const re = globRegex('src/controllers/**/*.controller.{js,ts}');
    expect(['src/controllers/a.controller.ts', 'src/controllers/v1/b.controller.ts', 'src/controllers/a.service.ts', 'src/other/a.controller.ts'].filter((f) => re.test(f))).toEqual([
      'src/controllers/a.controller.ts',
      'src/controllers/v1/b.controller.ts',
    ]);
    // a server started from its build names .js files: their .ts sources match
    expect(globRegex('src/controllers/*.js').test('src/controllers/sites.ts')).toBe(true);
    // `${__dirname}/controllers/**`: every file below
    expect(globRegex('src/controllers/**').test('src/controllers/v2/sites.ts')).toBe(true);
  });
});
