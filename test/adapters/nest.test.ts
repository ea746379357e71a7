/**
 * The NestJS adapter, on fixtures/nest-clean and fixtures/nest-leaky (multi-module control
 * planes) and on small projects for single semantics. Every expectation was derived by hand
 * from Nest's own code and docs: RoutePathFactory (prefix + version + module path +
 * controller path + method path, end slash stripped, `exclude` matched on the unprefixed
 * path), RouterModule's flattenRoutePaths, MiddlewareModule (forRoutes paths carry the
 * global prefix, Express registers them with `app.all(path)`), GuardsContextCreator (global,
 * then controller, then method guards) and Reflector's getAllAndOverride / get.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nestPatternRegex } from '../../src/adapters/nest/index.js';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeLinesAt, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

/** The usual main.ts: the root module bootstrapped, no global prefix. */
const BOOTSTRAP = `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(3000);
}
void bootstrap();
`;

/** A controller serving GET /sites. */
const SITES_CONTROLLER = `import { Controller, Get } from '@nestjs/common';

@Controller('sites')
export class SitesController {
  @Get()
  list() {
    return [];
  }
}
`;

/** A module serving SitesController, and a global guard answering 401 without a session. */
/** An Express middleware answering 401 without the API key, for `app.use(…)` in a Nest bootstrap. */
const API_KEY_MIDDLEWARE = `export function requireApiKey(req, res, next) {
  if (req.headers['x-api-key'] !== process.env.API_KEY) return res.status(401).end();
  next();
}
`;

const SESSION_GUARDED_SITES = {
  'src/session.guard.ts': `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';

@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    if (!request.session?.userId) throw new UnauthorizedException();
    return true;
  }
}
`,
  'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({ controllers: [SitesController] })
export class AppModule {}
`,
  'src/sites.controller.ts': SITES_CONTROLLER,
};

const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

describe('fixtures/nest-clean', () => {
  const DIR = path.join(ROOT, 'fixtures', 'nest-clean');
  // APP_GUARD providers of AppModule: classified by behaviour only (their names say nothing).
  const AUTH = 'LoginRequiredGuard'; // canActivate reads request.session and returns false without a user
  const TENANT = 'MembershipGuard'; // compares the active organisation with the memberships, NotFoundException
  const CSRF = 'CsrfMiddleware'; // consumer.apply(CsrfMiddleware).forRoutes('*'), by name
  const API = { auth: [AUTH], tenant: [TENANT], csrf: [CSRF] };

  it('lists every controller route with the global prefix, RouterModule path and guards', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // @Public() skips both global guards (they read IS_PUBLIC_KEY); listed in publicRoutes
      row('POST /api/auth/login', 'public', 'src/auth/auth.controller.ts:23:3', { csrf: [CSRF] }),
      // Nest on Express is non-strict: /api/auth/me also serves /api/auth/me/
      row('GET /api/auth/me', 'contract', 'src/auth/auth.controller.ts:34:3', API, 'GET /api/auth/me/'),
      row('GET /api/databases', 'contract', 'src/databases/databases.controller.ts:20:3', API, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', 'src/deployments/deployments.controller.ts:22:3', API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', 'src/deployments/deployments.controller.ts:27:3', API),
      // SwaggerModule.setup('api/docs', app, document) in setupApiDocs(app): registered on the
      // Express instance there and then, outside Nest's routes (no global prefix, guard or
      // middleware of a module); listed in publicRoutes
      row('GET /api/docs', 'public', 'src/docs.ts:12:3', {}),
      row('GET /api/docs-json', 'public', 'src/docs.ts:12:3', {}),
      row('GET /api/docs-yaml', 'public', 'src/docs.ts:12:3', {}),
      row('GET /api/docs/docs/swagger-ui-init.js', 'public', 'src/docs.ts:12:3', {}),
      row('GET /api/docs/index.html', 'public', 'src/docs.ts:12:3', {}),
      row('GET /api/docs/swagger-ui-init.js', 'public', 'src/docs.ts:12:3', {}),
      // @Public() on the controller class: getAllAndOverride falls back to the class
      row('GET /api/health/ready', 'public', 'src/health/health.controller.ts:10:3', { csrf: [CSRF] }, 'GET /api/health/ready'),
      // RouterModule.register([{ path: 'internal', module: InternalModule }]); @InternalOnly() from another file
      // composes Public(), ApiExcludeController() and UseGuards(ServiceTokenGuard)
      row('POST /api/internal/rebuilds/:siteId', 'excluded:internal', 'src/internal/rebuilds.controller.ts:10:3', {
        csrf: [CSRF],
        auth: ['ServiceTokenGuard'],
        bearer: ['ServiceTokenGuard'],
        family: ['ServiceTokenGuard'],
      }),
      row('GET /api/sites', 'contract', 'src/sites/sites.controller.ts:12:3', API, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', 'src/sites/sites.controller.ts:17:3', API),
      row('DELETE /api/sites/:siteId', 'browser', 'src/sites/sites.controller.ts:32:3', API),
      row('GET /api/sites/:siteId', 'browser', 'src/sites/sites.controller.ts:22:3', API),
      row('PATCH /api/sites/:siteId', 'browser', 'src/sites/sites.controller.ts:27:3', API),
      // CsrfMiddleware excludes { path: 'webhooks/(.*)', method: POST }
      row('POST /api/webhooks/github', 'excluded:webhook', 'src/webhooks/webhooks.controller.ts:19:3', {
        auth: ['GithubSignatureGuard'],
        bearer: ['GithubSignatureGuard'],
        family: ['GithubSignatureGuard'],
      }),
      // setGlobalPrefix('api', { exclude: [{ path: 'healthz', method: GET }] }); forRoutes('*') still reaches it
      row('GET /healthz', 'public', 'src/health/health.controller.ts:21:3', { csrf: [CSRF] }),
    ]);
  });

  it('reports only the uncontracted browser routes (internal and webhook controllers are hidden from Swagger)', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `src/deployments/deployments.controller.ts:27:3 info uncontracted-route ${outside('POST /api/deployments')}`,
      `src/sites/sites.controller.ts:17:3 info uncontracted-route ${outside('POST /api/sites')}`,
      `src/sites/sites.controller.ts:22:3 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `src/sites/sites.controller.ts:27:3 info uncontracted-route ${outside('PATCH /api/sites/:siteId')}`,
      `src/sites/sites.controller.ts:32:3 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
    ]);
    expect({ ...res.summary, files: 0 }).toEqual({ files: 0, routes: 20, errors: 0, warnings: 0, infos: 5 });
  });

  it('runs middleware first, then global guards, then controller and method guards, with where each comes from', async () => {
    const res = await check(DIR);
    const post = res.routes.find((r) => r.method === 'POST' && r.path === '/api/sites')!;
    expect(post.guards.map((g) => `${g.name} ${g.kinds.join('+')} ${g.mechanism} ${g.file}:${g.line} — ${g.reason}`)).toEqual([
      'CsrfMiddleware csrf module-middleware src/app.module.ts:34 — by name (csrf)',
      'LoginRequiredGuard auth global-guard src/app.module.ts:15 — by name (auth); by behaviour (canActivate reads the session and can return false)',
      'MembershipGuard tenant global-guard src/app.module.ts:15 — by behaviour (compares the tenant and ends with 403/404)',
    ]);
    expect(post).toMatchObject({ framework: 'nest', handler: 'SitesController.create', app: 'AppModule', trailingSlashInsensitive: true, caseSensitive: false });
    const rebuild = res.routes.find((r) => r.path === '/api/internal/rebuilds/:siteId')!;
    expect(rebuild.prefixes.map((p) => `${p.prefix} ${p.file}:${p.line}`)).toEqual(['api src/main.ts:21', '/internal src/internal/internal.module.ts:5']);
    expect(rebuild.guards.map((g) => `${g.name} ${g.mechanism} ${g.file}:${g.line}`)).toEqual([
      'CsrfMiddleware module-middleware src/app.module.ts:34',
      'ServiceTokenGuard controller-guard src/internal/rebuilds.controller.ts:5',
    ]);
    // served in its non-strict form, never a drift
    expect(res.routes.find((r) => r.path === '/api/sites' && r.method === 'GET')!.contractMatch).toBe('served');
  });
});

describe('fixtures/nest-leaky', () => {
  const DIR = path.join(ROOT, 'fixtures', 'nest-leaky');
  const AUTH = 'AuthenticatedGuard'; // app.useGlobalGuards(new AuthenticatedGuard(app.get(Reflector)))
  const TENANT = 'OrgAccessGuard'; // @TenantScoped() = applyDecorators(ApiHeader(…), UseGuards(OrgAccessGuard)), another file
  const SITES = { auth: [AUTH], tenant: [TENANT], csrf: ['CsrfMiddleware'] };
  // CsrfMiddleware starts with `if (req.method === 'GET' || req.method === 'HEAD') return next();`
  const SITES_READ = { auth: [AUTH], tenant: [TENANT] };
  const S = 'src/sites/sites.controller.ts';
  const D = 'src/deployments/deployments.controller.ts';
  // what SwaggerModule.setup('docs', …) serves: the page, its script (twice), the document as JSON and YAML
  const DOCS = ['/docs', '/docs-json', '/docs-yaml', '/docs/docs/swagger-ui-init.js', '/docs/index.html', '/docs/swagger-ui-init.js'];

  it('lists versioned, RouterModule-nested and opted-out routes', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // RouterModule: { path: 'admin', module: AdminModule, children: [{ path: 'ops', module: OpsModule }] }
      row('GET /api/admin/ops/queues', 'excluded:ops', 'src/ops/queues.controller.ts:12:3', { auth: [AUTH], family: ['StaffGuard'] }),
      row('POST /api/admin/ops/queues/:queue/drain', 'excluded:ops', 'src/ops/queues.controller.ts:17:3', { auth: [AUTH], family: ['StaffGuard'] }),
      // @Roles('support') = applyDecorators(SetMetadata(ROLES_KEY, roles), UseGuards(RolesGuard)); RolesGuard says nothing about what it checks
      row('GET /api/admin/users', 'browser', 'src/admin/users.controller.ts:10:3', { auth: [AUTH], unknown: ['RolesGuard'] }),
      // @Get('me/'): Nest strips the end slash, Express still serves /api/auth/me/
      row('GET /api/auth/me', 'contract', 'src/auth/auth.controller.ts:6:3', { auth: [AUTH], tenant: [TENANT] }, 'GET /api/auth/me/'),
      // @Version(VERSION_NEUTRAL) on a controller of version '2'
      row('GET /api/databases/:databaseId', 'browser', 'src/databases/databases.controller.ts:24:3', { auth: [AUTH], tenant: [TENANT] }),
      row('GET /api/deployments', 'contract', `${D}:8:3`, { auth: [AUTH] }, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${D}:13:3`, { auth: [AUTH] }),
      row('PUT /api/deployments/:deploymentId', 'browser', `${D}:19:3`, { auth: [AUTH] }),
      // @AllowAnonymous() on the class: the guard reads only context.getHandler(), so it still runs
      row('GET /api/health/ready', 'public', 'src/health/health.controller.ts:7:3', { auth: [AUTH] }, 'GET /api/health/ready'),
      row('DELETE /api/internal/cache', 'excluded:internal', 'src/internal/cache.controller.ts:8:3', { auth: [AUTH] }),
      row('POST /api/internal/cache/warm', 'excluded:internal', 'src/internal/cache.controller.ts:14:3', { auth: [AUTH] }),
      // defaultVersion VERSION_NEUTRAL + @Version(['1', VERSION_NEUTRAL]) + @Get(['', 'list']): four paths
      row('GET /api/sites', 'contract', `${S}:12:3`, SITES_READ, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${S}:18:3`, SITES),
      // @AllowAnonymous() on the handler skips the global guard; CsrfMiddleware excludes it; the tenant guard stays
      row('GET /api/sites/:siteId/badge.svg', 'browser', `${S}:25:3`, { tenant: [TENANT] }),
      row('GET /api/sites/list', 'browser', `${S}:12:3`, SITES_READ),
      row('GET /api/v1/sites', 'browser', `${S}:12:3`, SITES_READ),
      row('GET /api/v1/sites/list', 'browser', `${S}:12:3`, SITES_READ),
      // @Controller({ path: 'databases', version: '2' })
      row('GET /api/v2/databases', 'browser', 'src/databases/databases.controller.ts:18:3', { auth: [AUTH], tenant: [TENANT] }),
      // SwaggerModule.setup('docs', app, document): served by the Express instance, so neither the
      // global prefix nor the global guard applies; the cookie and session middleware before it do
      ...DOCS.map((p) => row(`GET ${p}`, 'browser', 'src/main.ts:19:3', {})),
    ]);
  });

  it('reports each defect once, on the route it concerns', async () => {
    const res = await check(DIR);
    const docs = '@nestjs/swagger (SwaggerModule.setup at src/main.ts:19) (hide it with @ApiExcludeController() on the controller or @ApiExcludeEndpoint() on the handler)';
    expect(findingRows(res.findings)).toEqual([
      'builtin:browser-control-plane@1:5:1 error contract-route-missing contract route GET /api/databases/ is not served by any analysed app',
      'src/admin/users.controller.ts:10:3 error missing-tenant-guard GET /api/admin/users has no tenant guard (unclassified middleware that may be one: RolesGuard; declare it in guards.tenant or guards.ignore)',
      `src/admin/users.controller.ts:10:3 info uncontracted-route ${outside('GET /api/admin/users')}`,
      "src/billing/legacy-billing.controller.ts:4:1 warning unresolved-route controller LegacyBillingController is not declared by any module reachable from the app's root module; Nest does not serve it",
      `src/databases/databases.controller.ts:18:3 info uncontracted-route ${outside('GET /api/v2/databases')}`,
      `src/databases/databases.controller.ts:24:3 info uncontracted-route ${outside('GET /api/databases/:databaseId')}`,
      'src/databases/databases.controller.ts:29:63 error provider-credential-exposure GET /api/databases/:databaseId returns credential-like field password in database metadata',
      `${D}:8:3 error missing-tenant-guard GET /api/deployments has no tenant guard`,
      `${D}:13:3 error missing-csrf-guard POST /api/deployments changes state on the browser session without a CSRF guard`,
      `${D}:13:3 error missing-tenant-guard POST /api/deployments has no tenant guard`,
      `${D}:13:3 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${D}:19:3 error immutable-resource-mutation PUT /api/deployments/:deploymentId mutates a deployment, which the contract makes immutable`,
      `${D}:19:3 error missing-csrf-guard PUT /api/deployments/:deploymentId changes state on the browser session without a CSRF guard`,
      `${D}:19:3 error missing-tenant-guard PUT /api/deployments/:deploymentId has no tenant guard`,
      `${D}:19:3 info uncontracted-route ${outside('PUT /api/deployments/:deploymentId')}`,
      'src/health/health.controller.ts:7:3 error contract-auth-mismatch GET /api/health/ready is public in the contract but is guarded by AuthenticatedGuard',
      // one finding per route: the first reason that holds (published in the docs) wins over "no family guard"
      `src/internal/cache.controller.ts:8:3 error excluded-family-leak DELETE /api/internal/cache is in the excluded family "internal" but is published in generated API docs by ${docs}`,
      `src/internal/cache.controller.ts:14:3 error excluded-family-leak POST /api/internal/cache/warm is in the excluded family "internal" but is published in generated API docs by ${docs}`,
      // the API docs, outside the global guard
      ...DOCS.map((p) => `src/main.ts:19:3 error missing-auth-guard GET ${p} has no auth guard`),
      ...DOCS.map((p) => `src/main.ts:19:3 error missing-tenant-guard GET ${p} has no tenant guard`),
      ...DOCS.map((p) => `src/main.ts:19:3 info uncontracted-route ${outside(`GET ${p}`)}`),
      `${S}:12:3 info uncontracted-route ${outside('GET /api/sites/list')}`,
      `${S}:12:3 info uncontracted-route ${outside('GET /api/v1/sites')}`,
      `${S}:12:3 info uncontracted-route ${outside('GET /api/v1/sites/list')}`,
      `${S}:18:3 info uncontracted-route ${outside('POST /api/sites')}`,
      // opened with @AllowAnonymous() but not listed in publicRoutes: a browser route without auth
      `${S}:25:3 error missing-auth-guard GET /api/sites/:siteId/badge.svg has no auth guard`,
      `${S}:25:3 info uncontracted-route ${outside('GET /api/sites/:siteId/badge.svg')}`,
    ]);
  });

  it('lists an opted-out route as public once publicRoutes names it', async () => {
    const dir = writeProject({
      'route-surface.config.json': JSON.stringify({ publicRoutes: ['GET /api/sites/:siteId/badge.svg'] }),
    });
    const res = await check(DIR, [], { config: path.join(dir, 'route-surface.config.json') });
    const badge = res.routes.find((r) => r.path === '/api/sites/:siteId/badge.svg')!;
    expect(badge.classification).toBe('public');
    expect(res.findings.filter((f) => f.route?.path === '/api/sites/:siteId/badge.svg')).toEqual([]);
  });
});

describe('NestJS semantics on small projects', () => {
  const mainFastify = `import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule, new FastifyAdapter());
  app.setGlobalPrefix('api', { exclude: [{ path: 'status', method: RequestMethod.HEAD }] });
  await app.listen(3000);
}
bootstrap();
`;
  const appModule = `import { MiddlewareConsumer, Module, NestModule, RequestMethod, forwardRef } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { RouterModule } from '@nestjs/core';
import { AdminModule } from './admin/admin.module';
import { AuditModule } from './audit/audit.module';
import { TenantContextMiddleware } from './tenant-context.middleware';
import { SitesModule } from './sites/sites.module';
import { StatusController } from './status.controller';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true }),
    SitesModule.forRoot({ cache: true }),
    forwardRef(() => AdminModule),
    AuditModule,
    RouterModule.register([{ path: 'admin', children: [AdminModule, { path: 'audit', module: AuditModule }] }]),
  ],
  controllers: [StatusController],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(TenantContextMiddleware).forRoutes({ path: 'sites/*', method: RequestMethod.ALL }, { path: 'admin/audit', method: RequestMethod.GET });
  }
}
`;
  const files = {
    'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/platform-fastify': '^11.0.0', '@nestjs/passport': '^11.0.0' } }),
    'src/main.ts': mainFastify,
    'src/app.module.ts': appModule,
    'src/status.controller.ts': `import { Controller, Get, Head } from '@nestjs/common';

@Controller()
export class StatusController {
  @Head('status')
  probe() {}

  @Get('status')
  status() {
    return { ok: true };
  }
}
`,
    'src/tenant-context.middleware.ts': `import { Injectable, NestMiddleware, NotFoundException } from '@nestjs/common';

@Injectable()
export class TenantContextMiddleware implements NestMiddleware {
  use(req: any, _res: any, next: () => void) {
    if (!req.session?.tenants?.includes(req.headers['x-tenant'])) throw new NotFoundException();
    next();
  }
}
`,
    'src/sites/sites.module.ts': `import { DynamicModule, Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({})
export class SitesModule {
  static forRoot(options: { cache: boolean }): DynamicModule {
    return { module: SitesModule, controllers: [SitesController], providers: [{ provide: 'SITES_OPTIONS', useValue: options }] };
  }
}
`,
    'src/sites/sites.controller.ts': `import { All, Controller, Get, Param } from '@nestjs/common';

@Controller(['sites', 'projects'])
export class SitesController {
  @Get()
  list() {
    return [];
  }

  @All(':siteId/proxy')
  proxy(@Param('siteId') siteId: string) {
    return { siteId };
  }
}
`,
    'src/admin/admin-controller.decorator.ts': `import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { JwtGuard } from './jwt.guard';

export const AdminController = (path: string) => applyDecorators(Controller(path), UseGuards(JwtGuard));
`,
    'src/admin/jwt.guard.ts': `import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

@Injectable()
export class JwtGuard extends AuthGuard('jwt') {}
`,
    'src/admin/tenants.controller.ts': `import { Get } from '@nestjs/common';
import { AdminController } from './admin-controller.decorator';

@AdminController('tenants')
export class TenantsController {
  @Get()
  list() {
    return [];
  }
}
`,
    'src/admin/admin.module.ts': `import { Module } from '@nestjs/common';
import { TenantsController } from './tenants.controller';

@Module({ controllers: [TenantsController] })
export class AdminModule {}
`,
    'src/audit/audit.module.ts': `import { Controller, Get, Module } from '@nestjs/common';

@Controller()
export class AuditController {
  @Get()
  entries() {
    return [];
  }
}

@Module({ controllers: [AuditController] })
export class AuditModule {}
`,
  };

  it('Nest on Fastify: RouterModule children, dynamic modules, array paths, a prefix excluded for one method, exact matching', async () => {
    const res = await check(writeProject(files));
    const tenant = { tenant: ['TenantContextMiddleware'] };
    expect(routeRows(res.routes)).toEqual([
      // { path: 'audit', module: AuditModule } under 'admin' → /admin/audit; forRoutes({ path: 'admin/audit', method: GET })
      row('GET /api/admin/audit', 'browser', 'src/audit/audit.module.ts:5:3', tenant),
      // AdminModule as a child type takes the parent's path; JwtGuard extends AuthGuard('jwt') of @nestjs/passport
      row('GET /api/admin/tenants', 'browser', 'src/admin/tenants.controller.ts:6:3', { auth: ['JwtGuard'] }),
      row('GET /api/projects', 'browser', 'src/sites/sites.controller.ts:5:3'),
      row('ALL /api/projects/:siteId/proxy', 'browser', 'src/sites/sites.controller.ts:10:3'),
      // Fastify matches /api/sites and /api/sites/ as different routes
      row('GET /api/sites', 'contract', 'src/sites/sites.controller.ts:5:3', {}, 'GET /api/sites/'),
      // forRoutes({ path: 'sites/*' }) → /api/sites/* : below /api/sites only
      row('ALL /api/sites/:siteId/proxy', 'browser', 'src/sites/sites.controller.ts:10:3', tenant),
      row('GET /api/status', 'browser', 'src/status.controller.ts:8:3'),
      // exclude: [{ path: 'status', method: HEAD }] keeps GET /status under the prefix
      row('HEAD /status', 'browser', 'src/status.controller.ts:5:3'),
    ]);
    const sites = res.routes.find((r) => r.path === '/api/sites')!;
    expect(sites).toMatchObject({ trailingSlashInsensitive: false, caseSensitive: true, contractMatch: 'drift' });
    // the global prefix is a step of the routes it prefixes only
    const steps = (r: (typeof res.routes)[number]) => `${r.method} ${r.path} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`;
    expect(res.routes.filter((r) => r.path.endsWith('/status') || r.path.includes('/audit')).map(steps)).toEqual(['GET /api/admin/audit [api,/admin/audit]', 'GET /api/status [api]', 'HEAD /status []']);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-drift').map((f) => f.message)).toEqual([
      'GET /api/sites drifts from the contract route GET /api/sites/: trailing slash differs and nest matches it exactly',
    ]);
    expect(res.routes.find((r) => r.path === '/api/admin/tenants')!.guards.map((g) => `${g.name} ${g.mechanism} ${g.reason}`)).toEqual([
      'JwtGuard controller-guard authentication from @nestjs/passport (its base class)',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("Nest on Fastify with the router's options in routerOptions (Fastify 5's place, docmost's): ignoreTrailingSlash serves both forms, caseSensitive: false any case", async () => {
    const main = mainFastify.replace('new FastifyAdapter()', 'new FastifyAdapter({ routerOptions: { maxParamLength: 1000, ignoreTrailingSlash: true, caseSensitive: false }, caseSensitive: true })');
    const res = await check(writeProject({ ...files, 'src/main.ts': main }));
    const sites = res.routes.find((r) => r.path === '/api/sites')!;
    expect(sites).toMatchObject({ trailingSlashInsensitive: true, caseSensitive: false, contractMatch: 'served' });
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-drift')).toEqual([]);
  });

  it("a global prefix not known statically is a step of the prefixes of the routes it prefixes: matched to no contract route", async () => {
    const main = mainFastify.replace("app.setGlobalPrefix('api',", 'app.setGlobalPrefix(process.env.API_PREFIX,');
    const res = await check(writeProject({ ...files, 'src/main.ts': main }));
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.classification} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`)).toEqual([
      'GET /admin/audit browser [property API_PREFIX of a value not known statically,/admin/audit]',
      'GET /admin/tenants browser [property API_PREFIX of a value not known statically,/admin]',
      'GET /projects browser [property API_PREFIX of a value not known statically]',
      'ALL /projects/:siteId/proxy browser [property API_PREFIX of a value not known statically]',
      // not GET /api/sites/ of the contract, which it would be with the prefix 'api' only
      'GET /sites browser [property API_PREFIX of a value not known statically]',
      'ALL /sites/:siteId/proxy browser [property API_PREFIX of a value not known statically]',
      'GET /status browser [property API_PREFIX of a value not known statically]',
      // excluded: served without the prefix, whatever it is
      'HEAD /status browser []',
    ]);
    // (no drift from GET /api/sites/, as with the prefix 'api': it is not known to be served)
    expect(res.findings.filter((f) => f.ruleId.startsWith('contract-') && f.message.includes('sites')).map((f) => `${f.ruleId} ${f.message}`)).toEqual([
      'contract-route-missing contract route GET /api/sites/ is not served by any analysed app',
    ]);
    expect(unresolvedRows(res)).toEqual(['src/main.ts:8:3 warning unresolved-route the global prefix is not known statically; routes are listed without it']);
  });

  it("a global prefix that is one of several (`cond ? 'api/v2' : 'api'`): every prefixed route under each, its forRoutes() middleware too, the exclusion under none", async () => {
    const main = mainFastify.replace("app.setGlobalPrefix('api',", "app.setGlobalPrefix(process.env.API_V2 ? 'api/v2/' : 'api',");
    const res = await check(writeProject({ ...files, 'src/main.ts': main }));
    const tenant = { tenant: ['TenantContextMiddleware'] };
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/admin/audit', 'browser', 'src/audit/audit.module.ts:5:3', tenant),
      row('GET /api/admin/tenants', 'browser', 'src/admin/tenants.controller.ts:6:3', { auth: ['JwtGuard'] }),
      row('GET /api/projects', 'browser', 'src/sites/sites.controller.ts:5:3'),
      row('ALL /api/projects/:siteId/proxy', 'browser', 'src/sites/sites.controller.ts:10:3'),
      row('GET /api/sites', 'contract', 'src/sites/sites.controller.ts:5:3', {}, 'GET /api/sites/'),
      row('ALL /api/sites/:siteId/proxy', 'browser', 'src/sites/sites.controller.ts:10:3', tenant),
      row('GET /api/status', 'browser', 'src/status.controller.ts:8:3'),
      // (the prefix's end slash stripped, as Nest's RoutePathFactory does)
      row('GET /api/v2/admin/audit', 'browser', 'src/audit/audit.module.ts:5:3', tenant),
      row('GET /api/v2/admin/tenants', 'browser', 'src/admin/tenants.controller.ts:6:3', { auth: ['JwtGuard'] }),
      row('GET /api/v2/projects', 'browser', 'src/sites/sites.controller.ts:5:3'),
      row('ALL /api/v2/projects/:siteId/proxy', 'browser', 'src/sites/sites.controller.ts:10:3'),
      row('GET /api/v2/sites', 'browser', 'src/sites/sites.controller.ts:5:3'),
      row('ALL /api/v2/sites/:siteId/proxy', 'browser', 'src/sites/sites.controller.ts:10:3', tenant),
      row('GET /api/v2/status', 'browser', 'src/status.controller.ts:8:3'),
      row('HEAD /status', 'browser', 'src/status.controller.ts:5:3'),
    ]);
    // each route's step is the prefix it is listed under
    const steps = (r: (typeof res.routes)[number]) => `${r.method} ${r.path} [${r.prefixes.map((p) => `${p.prefix}@${p.line}`)}]`;
    expect(res.routes.filter((r) => r.path.endsWith('/status')).map(steps)).toEqual(['GET /api/status [api@8]', 'GET /api/v2/status [api/v2/@8]', 'HEAD /status []']);
    expect(unresolvedRows(res)).toEqual([]);

    // forRoutes('v2/sites/*') is /api/v2/sites/* under 'api' and /api/v2/v2/sites/* under
    // 'api/v2/': no route is below either, /api/v2/sites/… being listed under the second
    const module = appModule.replace("{ path: 'sites/*', method: RequestMethod.ALL }", "{ path: 'v2/sites/*', method: RequestMethod.ALL }");
    const paired = await check(writeProject({ ...files, 'src/main.ts': main, 'src/app.module.ts': module }));
    expect(paired.routes.filter((r) => r.path.includes('/sites/')).map((r) => `${r.path} [${r.guards.map((g) => g.name)}]`)).toEqual([
      '/api/sites/:siteId/proxy []',
      '/api/v2/sites/:siteId/proxy []',
    ]);
  });

  it('a RouterModule path not known statically is a step of its modules’ routes, what its children add known after it', async () => {
    const module = appModule.replace("RouterModule.register([{ path: 'admin',", 'RouterModule.register([{ path: process.env.ADMIN_PATH,');
    const res = await check(writeProject({ ...files, 'src/app.module.ts': module }));
    const unknown = 'property ADMIN_PATH of a value not known statically';
    expect(res.routes.filter((r) => r.prefixes.some((p) => p.unknown)).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.prefixes.map((p) => [p.prefix, p.line, p.unknown ?? null]))}`)).toEqual([
      // AuditModule under { path: 'audit' }: what is known after the head
      `GET /api/audit [["api",8,null],["/audit",10,"${unknown}"]]`,
      // AdminModule, a child without a path of its own
      `GET /api/tenants [["api",8,null],["",10,"${unknown}"]]`,
    ]);
    // (the step and the warning are placed at the module that registers the routes)
    expect(unresolvedRows(res)).toEqual(['src/app.module.ts:10:1 warning unresolved-route a RouterModule path is not known statically; its modules are listed without it']);
  });

  it('a version not known statically is a step of the prefixes of the routes it versions, after the global prefix', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
        'src/main.ts': `import { VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  await app.listen(3000);
}
void bootstrap();
`,
        'src/app.module.ts': `import { Controller, Get, Module, Version } from '@nestjs/common';

@Controller('sites')
export class SitesController {
  @Get()
  list() {
    return [];
  }

  @Version(process.env.BETA_VERSION)
  @Get('preview')
  preview() {
    return [];
  }
}

@Controller({ path: 'deployments', version: process.env.DEPLOYMENTS_VERSION })
export class DeploymentsController {
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [SitesController, DeploymentsController] })
export class AppModule {}
`,
      }),
    );
    // not the default version: the method's and the controller's own, whatever they are
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`)).toEqual([
      'GET /api/deployments [api,property DEPLOYMENTS_VERSION of a value not known statically]',
      'GET /api/sites/preview [api,property BETA_VERSION of a value not known statically]',
      'GET /api/v1/sites [api]',
    ]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.module.ts:10:3 warning unresolved-route a version is not known statically; the route is listed without it',
      'src/app.module.ts:17:1 warning unresolved-route a version is not known statically; the route is listed without it',
    ]);
  });

  it("a URI versioning prefix not known statically (novu's `${CONTEXT_PATH}v`) is a step of the versioned routes, listed without their version's segment", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', '@acme/shared': '1.0.0' } }),
        'src/config.ts': `import { getContextPath } from '@acme/shared';

export const CONTEXT_PATH = getContextPath('api');
`,
        'src/main.ts': `import { VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { CONTEXT_PATH } from './config';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.enableVersioning({ type: VersioningType.URI, prefix: \`\${CONTEXT_PATH}v\`, defaultVersion: '1' });
  await app.listen(3000);
}
void bootstrap();
`,
        'src/app.module.ts': `import { Controller, Get, Module, VERSION_NEUTRAL } from '@nestjs/common';

@Controller('feeds')
export class FeedsController {
  @Get()
  list() {
    return [];
  }
}

@Controller({ path: 'health-check', version: VERSION_NEUTRAL })
export class HealthController {
  @Get()
  check() {
    return { ok: true };
  }
}

@Module({ controllers: [FeedsController, HealthController] })
export class AppModule {}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`)).toEqual([
      'GET /feeds [template with a value not known statically]',
      'GET /health-check []',
    ]);
    expect(unresolvedRows(res)).toEqual([
      "src/main.ts:8:3 warning unresolved-route the URI versioning prefix is not known statically; versioned routes are listed without their version's segment",
    ]);
  });

  it('getAllAndOverride: a handler-level value wins over the class-level @Public()', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory, Reflector } from '@nestjs/core';
import { Module, SetMetadata, Controller, Get, Post, CanActivate, ExecutionContext, UnauthorizedException, Injectable } from '@nestjs/common';

const IS_PUBLIC = 'isPublic';
const Public = () => SetMetadata(IS_PUBLIC, true);
const Private = () => SetMetadata(IS_PUBLIC, false);

@Injectable()
class GateGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext) {
    const open = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (open) return true;
    if (!context.switchToHttp().getRequest().session?.uid) throw new UnauthorizedException();
    return true;
  }
}

@Public()
@Controller('catalog')
class CatalogController {
  @Get()
  list() { return []; }

  @Private()
  @Post()
  add() { return {}; }
}

@Module({ controllers: [CatalogController] })
class AppModule {}

async function main() {
  const app = await NestFactory.create(AppModule);
  const reflector = app.get(Reflector);
  app.useGlobalGuards(new GateGuard(reflector));
  await app.listen(3000);
}
main();
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /catalog', 'browser', 'src/main.ts:22:3'),
      row('POST /catalog', 'browser', 'src/main.ts:26:3', { auth: ['GateGuard'] }),
    ]);
  });

  it("a roles guard letting through the handlers with no roles set or none listed (`!roles?.length`, brocoders' boilerplate; `!roles || !roles.length`; `!roles || roles.length === 0`): a guard on those with roles only, an empty `@Roles()` listing none", async () => {
    const guard = (name: string, test: string) => `@Injectable()
export class ${name} implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<string[] | undefined>('roles', [context.getClass(), context.getHandler()]);
    if (${test}) {
      return true;
    }
    const request = context.switchToHttp().getRequest<{ user?: { role?: string } }>();
    if (!request.user) throw new UnauthorizedException();
    return roles.includes(String(request.user.role));
  }
}
`;
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/roles.guard.ts': `import { CanActivate, ExecutionContext, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

export const Roles = (...roles: string[]) => SetMetadata('roles', roles);

${guard('RolesGuard', '!roles?.length')}
${guard('EitherRolesGuard', '!roles || !roles.length')}
${guard('ZeroRolesGuard', '!roles || roles.length === 0')}
${guard('BareRolesGuard', '!roles')}`,
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { BareRolesGuard, EitherRolesGuard, Roles, RolesGuard, ZeroRolesGuard } from './roles.guard';

@Controller('reports')
class ReportsController {
  @UseGuards(RolesGuard)
  @Get()
  list() { return []; }

  @Roles('admin')
  @UseGuards(RolesGuard)
  @Get('admin')
  admin() { return []; }

  @UseGuards(EitherRolesGuard)
  @Get('either')
  either() { return []; }

  @UseGuards(ZeroRolesGuard)
  @Get('zero')
  zero() { return []; }

  @Roles('admin')
  @UseGuards(ZeroRolesGuard)
  @Get('zero/admin')
  zeroAdmin() { return []; }

  @Roles()
  @UseGuards(RolesGuard)
  @Get('none')
  none() { return []; }

  @Roles()
  @UseGuards(BareRolesGuard)
  @Get('bare/none')
  bareNone() { return []; }
}

@Module({ controllers: [ReportsController] })
class AppModule {}

async function main() {
  const app = await NestFactory.create(AppModule);
  await app.listen(3000);
}
main();
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /reports', 'browser', 'src/main.ts:8:3'),
      row('GET /reports/admin', 'browser', 'src/main.ts:13:3', { auth: ['RolesGuard'] }),
      row('GET /reports/bare/none', 'browser', 'src/main.ts:36:3', { auth: ['BareRolesGuard'] }),
      row('GET /reports/either', 'browser', 'src/main.ts:17:3'),
      row('GET /reports/none', 'browser', 'src/main.ts:31:3'),
      row('GET /reports/zero', 'browser', 'src/main.ts:21:3'),
      row('GET /reports/zero/admin', 'browser', 'src/main.ts:26:3', { auth: ['ZeroRolesGuard'] }),
    ]);
  });

  it("a guard letting through the handlers whose list of roles holds 'public' (Hexabot's `if (roles?.includes('public')) return true`, `@Roles(...)` a rest parameter's list): skipped on those only", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/ability.guard.ts': `import { CanActivate, ExecutionContext, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

export const Roles = (...roles: string[]) => SetMetadata('roles', roles);

@Injectable()
export class Ability implements CanActivate {
  constructor(private reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const roles = this.reflector.get<string[]>('roles', context.getHandler());
    if (roles?.includes('public')) {
      return true;
    }
    const { user } = context.switchToHttp().getRequest();
    if (!user) throw new UnauthorizedException();
    return true;
  }
}
`,
      'src/main.ts': `import { Controller, Get, Module, Post } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { Ability, Roles } from './ability.guard';

@Controller()
export class AppController {
  @Roles('public')
  @Get('health')
  health() { return 'OK'; }

  @Roles('admin', 'public')
  @Post('user/reset')
  reset() { return {}; }

  @Roles('admin')
  @Get('users')
  users() { return []; }

  @Get('me')
  me() { return {}; }
}

@Module({ controllers: [AppController], providers: [{ provide: APP_GUARD, useClass: Ability }] })
export class AppModule {}

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/health', 'browser', 'src/main.ts:8:3'),
      row('GET /api/me', 'browser', 'src/main.ts:19:3', { auth: ['Ability'] }),
      row('POST /api/user/reset', 'browser', 'src/main.ts:12:3'),
      row('GET /api/users', 'browser', 'src/main.ts:16:3', { auth: ['Ability'] }),
    ]);
  });

  it('a base class’s @UseGuards guards its subclasses’ routes, before their own (Reflect.getMetadata looks up the classes a controller extends); its SetMetadata opt-out is theirs unless they set their own', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/session.guard.ts': SESSION_GUARDED_SITES['src/session.guard.ts'],
      'src/main.ts': `import { CanActivate, Controller, ExecutionContext, ForbiddenException, Get, Injectable, Module, SetMetadata, UnauthorizedException, UseGuards } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { SessionGuard } from './session.guard';

@Injectable()
export class TenantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    if (request.params.tenantId !== request.session.tenantId) throw new ForbiddenException();
    return true;
  }
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.get<boolean>('isPublic', context.getClass())) return true;
    const request = context.switchToHttp().getRequest();
    if (request.headers['x-api-key'] !== process.env.API_KEY) throw new UnauthorizedException();
    return true;
  }
}

@UseGuards(SessionGuard)
export abstract class AuthedController {}

@Controller('tenants/:tenantId/sites')
@UseGuards(TenantGuard)
export class SitesController extends AuthedController {
  @Get()
  list() { return []; }
}

@Controller('account')
export class AccountController extends AuthedController {
  @Get()
  show() { return {}; }
}

@SetMetadata('isPublic', true)
@UseGuards(ApiKeyGuard)
export abstract class PublicApiController {}

@Controller('status')
export class StatusController extends PublicApiController {
  @Get()
  status() { return { ok: true }; }
}

@Controller('keys')
@SetMetadata('isPublic', false)
export class KeysController extends PublicApiController {
  @Get()
  list() { return []; }
}

@Module({ controllers: [SitesController, AccountController, StatusController, KeysController] })
export class AppModule {}

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(3000);
}
bootstrap();
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /account [SessionGuard]',
      'GET /keys [ApiKeyGuard]',
      'GET /status []',
      'GET /tenants/:tenantId/sites [SessionGuard, TenantGuard]',
    ]);
  });

  it("a controller class a served controller extends is served through it, and no orphan (Hexabot's `ReadWriteUserController extends ReadOnlyUserController`)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller('user')
export class ReadOnlyUserController {
  @Get()
  findUsers() { return []; }
}

@Controller('user')
export class ReadWriteUserController extends ReadOnlyUserController {
  @Post()
  create() { return {}; }
}

@Controller('legacy')
export class LegacyController {
  @Get()
  list() { return []; }
}

@Module({ controllers: [ReadWriteUserController] })
export class AppModule {}

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(3000);
}
bootstrap();
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /user src/main.ts:6', 'POST /user src/main.ts:12']);
    expect(unresolvedRows(res)).toEqual([
      "src/main.ts:16:1 warning unresolved-route controller LegacyController is not declared by any module reachable from the app's root module; Nest does not serve it",
    ]);
  });

  it("a module loaded by a require node:module's createRequire made (Hexabot's `requireModule('./mcp/mcp-api.module')` under a setting): its controllers are the app's", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { createRequire } from 'node:module';
import { Controller, Get, Module, ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

type ModuleImports = NonNullable<ModuleMetadata['imports']>;

// Hexabot: src/app.module.ts, getMcpModuleImports()
const requireModule = createRequire(__filename);
const getExtraImports = (): ModuleImports => {
  if (process.env.MCP_ENABLED !== 'true') {
    return [];
  }
  const { TokenModule } = requireModule('./token.module') as typeof import('./token.module');
  return [TokenModule];
};

@Controller('health')
export class HealthController {
  @Get()
  ok() {
    return 'OK';
  }
}

@Module({
  imports: [...getExtraImports()],
  controllers: [HealthController],
})
export class AppModule {}

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
`,
      'src/token.module.ts': `import { Controller, Get, Module, Post } from '@nestjs/common';

@Controller('mcp-token')
export class TokenController {
  @Get()
  list() {
    return [];
  }

  @Post()
  create() {
    return {};
  }
}

@Module({ controllers: [TokenController] })
export class TokenModule {}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /api/health src/main.ts:19', 'GET /api/mcp-token src/token.module.ts:5', 'POST /api/mcp-token src/token.module.ts:10']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a global guard the container makes, `app.useGlobalGuards(app.get(AuthGuard))` (AFFiNE's): the class's instance, its @Public() opt-out read; `@Sse()` routes are GET routes", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^10.3.7', '@nestjs/core': '^10.3.7', rxjs: '^7.8.1' } }),
      'src/auth.guard.ts': `import { CanActivate, ExecutionContext, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

const IS_PUBLIC = 'isPublic';
export const Public = () => SetMetadata(IS_PUBLIC, true);

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest();
    if (!req.session?.user) throw new UnauthorizedException();
    return true;
  }
}
`,
      'src/app.module.ts': `import { Controller, Get, MessageEvent, Module, Param, Sse } from '@nestjs/common';
import { Observable, of } from 'rxjs';
import { AuthGuard, Public } from './auth.guard';

@Controller('copilot')
export class CopilotController {
  @Public()
  @Get('models')
  models() { return []; }

  @Sse('chat/:sessionId/stream')
  stream(@Param('sessionId') sessionId: string): Observable<MessageEvent> {
    return of({ data: sessionId });
  }
}

@Module({ providers: [AuthGuard], controllers: [CopilotController] })
export class AppModule {}
`,
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { AuthGuard } from './auth.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.useGlobalGuards(app.get(AuthGuard));
  await app.listen(3000);
}
bootstrap();
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /copilot/chat/:sessionId/stream', 'browser', 'src/app.module.ts:11:3', { auth: ['AuthGuard'] }),
      row('GET /copilot/models', 'browser', 'src/app.module.ts:8:3'),
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a guard named for auth whose canActivate returns true every way, its token read through a method of its own (refly's OptionalJwtAuthGuard: `this.extractTokenFromRequest(request)`), refuses nothing, whatever it logs or asks on the way", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^10.3.7', '@nestjs/core': '^10.3.7', '@nestjs/jwt': '^10.2.0' } }),
      'src/optional-jwt-auth.guard.ts': `import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';

const isDesktop = (): boolean => process.env.MODE === 'desktop';

// with no token or a bad one the request goes on, its user null
@Injectable()
export class OptionalJwtAuthGuard implements CanActivate {
  private readonly logger = new Logger(OptionalJwtAuthGuard.name);

  constructor(private jwtService: JwtService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    if (isDesktop()) {
      request.user = { uid: 'local' };
      return true;
    }
    const token = this.extractTokenFromRequest(request);
    if (!token) {
      request.user = null;
      return true;
    }
    try {
      request.user = await this.jwtService.verifyAsync(token);
    } catch (error) {
      this.logger.warn(\`jwt verify not valid: \${error}\`);
      request.user = null;
    }
    return true;
  }

  private extractTokenFromRequest(request: { cookies?: Record<string, string> }): string | undefined {
    return request.cookies?.['access_token'];
  }
}
`,
      'src/app.module.ts': `import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { OptionalJwtAuthGuard } from './optional-jwt-auth.guard';

@Controller('templates')
export class TemplatesController {
  @UseGuards(OptionalJwtAuthGuard)
  @Get('list')
  list() { return []; }
}

@Module({ imports: [JwtModule.register({ secret: process.env.JWT_SECRET })], controllers: [TemplatesController] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([row('GET /templates/list', 'browser', 'src/app.module.ts:8:3')]);
  });

  it("a rate limiter's guard extending @nestjs/throttler's ThrottlerGuard that lets signed-in callers skip the limit (AFFiNE's CloudThrottlerGuard) checks no one; one refusing anonymous callers itself is an auth guard", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^10.3.7', '@nestjs/core': '^10.3.7', '@nestjs/throttler': '6.2.1' } }),
      'src/throttler.guard.ts': `import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';

// signed-in callers skip the limit; everyone else is counted (429 past it)
@Injectable()
export class CloudThrottlerGuard extends ThrottlerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest();
    if (req.session?.user) {
      return true;
    }
    return super.canActivate(context);
  }
}

// counted, and refused unless signed in
@Injectable()
export class MemberThrottlerGuard extends ThrottlerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest();
    if (!req.session?.user) throw new UnauthorizedException();
    return super.canActivate(context);
  }
}
`,
      'src/app.module.ts': `import { Controller, Get, Module, Post, UseGuards } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { CloudThrottlerGuard, MemberThrottlerGuard } from './throttler.guard';

@Controller('items')
export class ItemsController {
  @UseGuards(CloudThrottlerGuard)
  @Get()
  list() { return []; }

  @UseGuards(MemberThrottlerGuard)
  @Post()
  add() { return {}; }
}

@Module({ imports: [ThrottlerModule.forRoot([{ ttl: 60000, limit: 10 }])], controllers: [ItemsController] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /items', 'browser', 'src/app.module.ts:8:3'),
      row('POST /items', 'browser', 'src/app.module.ts:12:3', { auth: ['MemberThrottlerGuard'] }),
    ]);
  });

  it('an app a name is given either of, handed to a helper that sets its prefix and global guard: the helper sets them on the app (novu\'s bootstrap)', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { CanActivate, Controller, ExecutionContext, Get, INestApplication, Module, UnauthorizedException } from '@nestjs/common';

@Controller('/subscribers')
class SubscribersController {
  @Get()
  list() { return []; }
}

@Module({ controllers: [SubscribersController] })
class AppModule {}

class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    if (context.switchToHttp().getRequest().headers['x-api-key'] !== process.env.API_KEY) throw new UnauthorizedException();
    return true;
  }
}

function configure(app: INestApplication) {
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new ApiKeyGuard());
}

async function bootstrap(cors?: boolean) {
  let app: INestApplication;
  if (cors) {
    app = await NestFactory.create(AppModule, { cors: true });
  } else {
    app = await NestFactory.create(AppModule);
  }
  configure(app);
  await app.listen(3000);
}
bootstrap();
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([row('GET /api/subscribers', 'browser', 'src/main.ts:6:3', { auth: ['ApiKeyGuard'], bearer: ['ApiKeyGuard'] })]);
  });

  it("an app a name is given either of, handed to a helper that hands it to another setting up Swagger: both documents' pages are the app's (novu's setupSwagger and sdkSetup)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', '@nestjs/swagger': '^7.4.0' } }),
      'src/swagger.ts': `import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const setupSwagger = async (app: INestApplication) => {
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('API').build());
  SwaggerModule.setup('api', app, document);
  sdkSetup(app, document);
};

function sdkSetup(app: INestApplication, document: OpenAPIObject) {
  SwaggerModule.setup('openapi.sdk', app, document, { jsonDocumentUrl: 'openapi.sdk.json', yamlDocumentUrl: 'openapi.sdk.yaml' });
}
`,
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { Controller, Get, INestApplication, Module } from '@nestjs/common';
import { setupSwagger } from './swagger';

@Controller('feeds')
class FeedsController {
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [FeedsController] })
class AppModule {}

export async function bootstrap(cors?: boolean): Promise<INestApplication> {
  let app: INestApplication;
  if (cors) {
    app = await NestFactory.create(AppModule, { cors: true });
  } else {
    app = await NestFactory.create(AppModule);
  }
  await setupSwagger(app);
  await app.listen(3000);
  return app;
}
`,
    });
    const res = await check(dir);
    expect(res.routes.filter((r) => r.path.includes('.sdk')).map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /openapi.sdk src/swagger.ts:11',
      'GET /openapi.sdk.json src/swagger.ts:11',
      'GET /openapi.sdk.yaml src/swagger.ts:11',
      'GET /openapi.sdk/index.html src/swagger.ts:11',
      'GET /openapi.sdk/openapi.sdk/swagger-ui-init.js src/swagger.ts:11',
      'GET /openapi.sdk/swagger-ui-init.js src/swagger.ts:11',
    ]);
  });

  it("decorators and exceptions imported from @nestjs/common's subpaths (`@nestjs/common/decorators`, as novu's workflow controller does) are @nestjs/common's", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory, Reflector } from '@nestjs/core';
import { CanActivate, ExecutionContext, Injectable, Module } from '@nestjs/common';
import { Controller, Delete, Get, Param, UseGuards } from '@nestjs/common/decorators';
import { SetMetadata } from '@nestjs/common/decorators/core/set-metadata.decorator';
import { UnauthorizedException } from '@nestjs/common/exceptions';

const IS_PUBLIC = 'isPublic';
const Public = () => SetMetadata(IS_PUBLIC, true);

@Injectable()
class SessionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext) {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    if (!context.switchToHttp().getRequest().session?.uid) throw new UnauthorizedException();
    return true;
  }
}

@Injectable()
class OwnerGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    if (!context.switchToHttp().getRequest().session?.owner) throw new UnauthorizedException();
    return true;
  }
}

@Controller('/workflows')
class WorkflowController {
  @Public()
  @Get('')
  list() { return []; }

  @UseGuards(OwnerGuard)
  @Delete(':workflowId')
  remove(@Param('workflowId') id: string) { return id; }
}

@Module({ controllers: [WorkflowController] })
class AppModule {}

async function main() {
  const app = await NestFactory.create(AppModule);
  app.useGlobalGuards(new SessionGuard(app.get(Reflector)));
  await app.listen(3000);
}
main();
`,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /workflows', 'browser', 'src/main.ts:31:3'),
      row('DELETE /workflows/:workflowId', 'browser', 'src/main.ts:35:3', { auth: ['SessionGuard', 'OwnerGuard'] }),
    ]);
  });

  it("an opt-in global guard (immich's AuthGuard: `if (!options) return true`) guards only the routes carrying its key, set by a composed decorator", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'immich', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/swagger': '^11.0.0' } }),
      'src/enum.ts': `export enum MetadataKey {
  AuthRoute = 'auth_route',
  AdminRoute = 'admin_route',
}
`,
      'src/middleware/auth.guard.ts': `import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth } from '@nestjs/swagger';
import { MetadataKey } from '../enum';

type AuthenticatedOptions = { admin?: true };

export const Authenticated = (options: AuthenticatedOptions = {}): MethodDecorator => {
  const decorators: MethodDecorator[] = [ApiBearerAuth(), SetMetadata(MetadataKey.AuthRoute, options)];
  return applyDecorators(...decorators);
};

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler()];
    const options = this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(MetadataKey.AuthRoute, targets);
    if (!options) {
      return true;
    }

    const request = context.switchToHttp().getRequest();
    if (!request.headers['x-api-key'] && !request.cookies?.immich_access_token) {
      throw new UnauthorizedException('Authentication required');
    }
    return true;
  }
}
`,
      'src/controllers/server.controller.ts': `import { Controller, Get } from '@nestjs/common';
import { Authenticated } from '../middleware/auth.guard';

@Controller('server')
export class ServerController {
  @Get('ping')
  pingServer() {
    return { res: 'pong' };
  }

  @Get('statistics')
  @Authenticated({ admin: true })
  getServerStatistics() {
    return { photos: 0, videos: 0 };
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ServerController } from './controllers/server.controller';
import { AuthGuard } from './middleware/auth.guard';

@Module({ controllers: [ServerController], providers: [{ provide: APP_GUARD, useClass: AuthGuard }] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([
      row('GET /server/ping', 'browser', 'src/controllers/server.controller.ts:6:3'),
      row('GET /server/statistics', 'browser', 'src/controllers/server.controller.ts:11:3', { auth: ['AuthGuard'] }),
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'missing-auth-guard'))).toEqual([
      'src/controllers/server.controller.ts:6:3 error missing-auth-guard GET /server/ping has no auth guard',
    ]);
  });

  it('SwaggerModule.createDocument(app, config, { include }) publishes only the included modules', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/swagger': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule, PublicApiModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { include: [PublicApiModule] });
  SwaggerModule.setup('docs', app, document);
  await app.listen(3000);
}
bootstrap();
`,
      'src/app.module.ts': `import { Controller, Module, Post } from '@nestjs/common';

@Controller('internal/jobs')
export class JobsController {
  @Post('retry')
  retry() {
    return {};
  }
}

@Controller('edge/purge')
export class PurgeController {
  @Post()
  purge() {
    return {};
  }
}

@Module({ controllers: [JobsController] })
export class OpsApiModule {}

@Module({ controllers: [PurgeController] })
export class PublicApiModule {}

@Module({ imports: [OpsApiModule, PublicApiModule] })
export class AppModule {}
`,
    });
    const res = await check(dir);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak'))).toEqual([
      // OpsApiModule is left out of the document: judged on its guards alone
      'src/app.module.ts:5:3 error excluded-family-leak POST /internal/jobs/retry is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'src/app.module.ts:13:3 error excluded-family-leak POST /edge/purge is in the excluded family "edge" but is published in generated API docs by @nestjs/swagger (SwaggerModule.setup at src/main.ts:8) (hide it with @ApiExcludeController() on the controller or @ApiExcludeEndpoint() on the handler)',
    ]);
  });

  it("a @WebSocketGateway provider is served at its path on the app's server, outside Nest's router (HedgeDoc's /realtime): ws's exact path, socket.io's under /socket.io; options a function makes (Hexabot's)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'notes', private: true, workspaces: ['apps/*'] }),
      'apps/editor/package.json': JSON.stringify({ name: 'editor', private: true, dependencies: { '@nestjs/common': '^10.0.0', '@nestjs/core': '^10.0.0', '@nestjs/websockets': '^10.0.0', '@nestjs/platform-ws': '^10.0.0' } }),
      'apps/editor/src/main.ts': `import { NestFactory } from '@nestjs/core';
import { WsAdapter } from '@nestjs/platform-ws';
import { requireSession } from './require-session';
import { AppModule } from './app.module';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.use(requireSession);
  app.useWebSocketAdapter(new WsAdapter(app));
  await app.listen(3000);
}
void bootstrap();
`,
      'apps/editor/src/require-session.ts': `import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request & { session?: { user?: { id: string } } }, res: Response, next: NextFunction): void {
  if (!req.session?.user) {
    res.status(401).json({ error: 'sign in first' });
    return;
  }
  next();
}
`,
      'apps/editor/src/sessions.service.ts': `import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'http';

@Injectable()
export class SessionsService {
  private readonly sessions = new Map<string, { user?: { id: string } }>();

  /** The session of the request's session cookie, if any (the signed-in user in it, if any). */
  async getSession(request: IncomingMessage): Promise<{ user?: { id: string } } | undefined> {
    const sid = /(?:^|;\\s*)sid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    return sid ? this.sessions.get(sid) : undefined;
  }
}
`,
      'apps/editor/src/realtime.gateway.ts': `import { OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'http';
import type WebSocket from 'ws';
import { SessionsService } from './sessions.service';

@WebSocketGateway({ path: 'realtime/' })
export class RealtimeGateway implements OnGatewayConnection {
  constructor(private readonly sessions: SessionsService) {}

  async handleConnection(client: WebSocket, request: IncomingMessage): Promise<void> {
    const session = await this.sessions.getSession(request);
    if (!session?.user) {
      client.close(4401, 'sign in first');
      return;
    }
    client.send(JSON.stringify({ hello: session.user.id }));
  }
}

@WebSocketGateway(8081, { path: '/metrics-stream' })
export class MetricsGateway {}
`,
      'apps/editor/src/app.module.ts': `import { Controller, Get, Module } from '@nestjs/common';
import { MetricsGateway, RealtimeGateway } from './realtime.gateway';
import { SessionsService } from './sessions.service';

@Controller('notes')
export class NotesController {
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [NotesController], providers: [SessionsService, RealtimeGateway, MetricsGateway] })
export class AppModule {}
`,
      'apps/chat/package.json': JSON.stringify({ name: 'chat', private: true, dependencies: { '@nestjs/common': '^10.0.0', '@nestjs/core': '^10.0.0', '@nestjs/websockets': '^10.0.0', '@nestjs/platform-socket.io': '^10.0.0' } }),
      'apps/chat/src/main.ts': `import { NestFactory } from '@nestjs/core';
import { ChatModule } from './chat.module';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(ChatModule);
  await app.listen(3001);
}
void bootstrap();
`,
      'apps/chat/src/chat.module.ts': `import { Module } from '@nestjs/common';
import { MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';

@WebSocketGateway({ namespace: 'rooms', cors: { origin: '*' } })
export class RoomsGateway {
  @SubscribeMessage('join')
  join(@MessageBody() room: string) {
    return { joined: room };
  }
}

@WebSocketGateway({ namespace: 'presence', path: '/live/', transports: ['websocket'] })
export class PresenceGateway {}

const streamOptions = () => ({ path: '/stream', transports: ['websocket'] });

@WebSocketGateway(streamOptions())
export class StreamGateway {}

@Module({ providers: [RoomsGateway, PresenceGateway, StreamGateway] })
export class ChatModule {}
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'GET /api/notes [requireSession] apps/editor/src/app.module.ts:7',
      // (polling left out, only the upgrade)
      'GET /live/* [] apps/chat/src/chat.module.ts:12',
      'GET /realtime [(inline signed-in check)] apps/editor/src/realtime.gateway.ts:6',
      'GET /socket.io/* [] apps/chat/src/chat.module.ts:4',
      'POST /socket.io/* [] apps/chat/src/chat.module.ts:4',
      // (options a function makes: Nest takes any first argument that is no whole number for them)
      'GET /stream/* [] apps/chat/src/chat.module.ts:17',
    ]);
    expect(res.routes.find((r) => r.path === '/realtime')!.handler).toBe('RealtimeGateway.handleConnection');
    expect(unresolvedRows(res)).toEqual([
      'apps/editor/src/realtime.gateway.ts:20:1 warning unresolved-route gateway MetricsGateway: it listens on port 8081, a server of its own; its WebSocket endpoint is left out',
    ]);
  });

  it("SwaggerModule.setup in a helper of another package of the repository, handed the app (postiz's loadSwagger): the app's routes are published in its docs", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'social', private: true, dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/swagger': '^11.0.0' } }),
      'apps/backend/package.json': JSON.stringify({ name: 'backend', private: true }),
      'apps/backend/src/main.ts': `import { NestFactory } from '@nestjs/core';
import { loadSwagger } from '../../../libraries/helpers/src/swagger/load.swagger';
import { AppModule } from './app.module';

async function start() {
  const app = await NestFactory.create(AppModule);
  loadSwagger(app);
  await app.listen(3000);
}
start();
`,
      'apps/backend/src/app.module.ts': `import { Body, Controller, Module, Post } from '@nestjs/common';

@Controller('webhooks')
export class WebhooksController {
  @Post('github')
  github(@Body() body: { action: string }) {
    return { received: body.action };
  }
}

@Module({ controllers: [WebhooksController] })
export class AppModule {}
`,
      'libraries/helpers/src/swagger/load.swagger.ts': `import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export const loadSwagger = (app: INestApplication) => {
  const config = new DocumentBuilder().setTitle('API').setVersion('1.0').build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document);
};
`,
    });
    const res = await check(dir);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak'))).toEqual([
      'apps/backend/src/app.module.ts:5:3 error excluded-family-leak POST /webhooks/github is in the excluded family "webhook" but is published in generated API docs by @nestjs/swagger (SwaggerModule.setup at libraries/helpers/src/swagger/load.swagger.ts:7) (hide it with @ApiExcludeController() on the controller or @ApiExcludeEndpoint() on the handler)',
    ]);
  });

  it('an app bootstrapped in a promise chain: NestFactory.create(AppModule).then((app) => …) sets its prefix and guards', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { SessionGuard } from './session.guard';

NestFactory.create(AppModule).then((app) => {
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  return app.listen(process.env.PORT ?? 3000);
});
`,
      ...SESSION_GUARDED_SITES,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([row('GET /api/sites', 'contract', 'src/sites.controller.ts:5:3', { auth: ['SessionGuard'] }, 'GET /api/sites/')]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("a module decorator made by a function whose options default by destructuring (hexabot's `HexabotModule()`: `const { imports = [], controllers = [] } = metadata`)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
        'src/main.ts': BOOTSTRAP,
        'src/app-module.ts': `import { Module, type ModuleMetadata } from '@nestjs/common';
import { HealthController } from './health.controller';
import { SitesModule } from './sites.module';

const CORE_IMPORTS = [SitesModule];

export const PlatformModule = (metadata: ModuleMetadata = {}): ClassDecorator => {
  const { imports = [], controllers = [], providers = [] } = metadata;
  return Module({
    imports: [...CORE_IMPORTS, ...imports],
    controllers: [HealthController, ...controllers],
    providers: [...providers],
  });
};
`,
        'src/app.module.ts': `import { PlatformModule } from './app-module';

@PlatformModule()
export class AppModule {}
`,
        'src/sites.module.ts': `import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({ controllers: [SitesController] })
export class SitesModule {}
`,
        'src/sites.controller.ts': SITES_CONTROLLER,
        'src/health.controller.ts': `import { Controller, Get } from '@nestjs/common';

@Controller('health')
export class HealthController {
  @Get('ready')
  ready() {
    return { ok: true };
  }
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /health/ready src/health.controller.ts:5', 'GET /sites src/sites.controller.ts:5']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("a module decorator of the code's own applying `Module(metadata)` to its target by hand, its metadata the rest of its options (AFFiNE's `@Plugin({ name, ...metadata })`)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
        'src/main.ts': BOOTSTRAP,
        'src/registry.ts': `import { Module, type ModuleMetadata } from '@nestjs/common';

export const REGISTERED_PLUGINS = new Map<string, Function>();

interface PluginMetadata extends ModuleMetadata {
  name: string;
}

export function Plugin(options: PluginMetadata): ClassDecorator {
  return (target) => {
    const { name, ...metadata } = options;
    REGISTERED_PLUGINS.set(name, target);
    Module(metadata)(target);
  };
}
`,
        'src/captcha.ts': `import { Controller, Get } from '@nestjs/common';
import { Plugin } from './registry';

@Controller('/api/auth')
export class CaptchaController {
  @Get('/challenge')
  challenge() {
    return { challenge: crypto.randomUUID() };
  }
}

@Plugin({ name: 'captcha', controllers: [CaptchaController] })
export class CaptchaModule {}
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { CaptchaModule } from './captcha';

@Module({ imports: [CaptchaModule] })
export class AppModule {}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /api/auth/challenge src/captcha.ts:6']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
  });

  it("a root module handed to the function that makes the app (hexabot's `createHexabotApplication(moduleRef)`): the one its callers pass, through their own parameters; callers passing different modules leave it unknown, and whether its package's controllers are served with it", async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/bootstrap.ts': `import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SessionGuard } from './session.guard';

export async function createApplication(moduleRef: Type<unknown>) {
  const app = await NestFactory.create(moduleRef, { bodyParser: false });
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  return app;
}

export async function bootstrapApp(moduleRef: Type<unknown>, options: { port?: number } = {}) {
  const app = await createApplication(moduleRef);
  await app.listen(options.port ?? 3000);
  return app;
}
`,
      'src/main.ts': `import { AppModule } from './app.module';
import { bootstrapApp } from './bootstrap';

bootstrapApp(AppModule);
`,
      ...SESSION_GUARDED_SITES,
    };
    const res = await check(writeProject(files));
    expect(routeRows(res.routes)).toEqual([row('GET /api/sites', 'contract', 'src/sites.controller.ts:5:3', { auth: ['SessionGuard'] }, 'GET /api/sites/')]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([]);
    // a second caller with another module: which one the app is made from depends on the call
    const two = await check(
      writeProject({
        ...files,
        'src/admin.module.ts': `import { Module } from '@nestjs/common';

@Module({})
export class AdminModule {}
`,
        'src/admin.ts': `import { AdminModule } from './admin.module';
import { bootstrapApp } from './bootstrap';

bootstrapApp(AdminModule, { port: 3001 });
`,
        'test/probe.e2e-spec.ts': `import { Controller, Get } from '@nestjs/common';

@Controller('probe')
export class ProbeController {
  @Get()
  probe() {
    return 'ok';
  }
}
`,
      }),
    );
    // (so whether a controller is served is not known either: AFFiNE's root module, built at start-up, declares
    // every controller; its routes are listed as the app's, under its global prefix and guard)
    expect(findingRows(two.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/bootstrap.ts:6:21 warning unresolved-route the root module of this NestFactory.create(…) is not known statically; its routes are unknown',
      "src/sites.controller.ts:3:1 warning unresolved-route whether controller SitesController is served is not known: the root module of the NestFactory.create(…) at src/bootstrap.ts:6 is not known statically; its routes are listed as that app's",
      // (but for a test's own controller, which the testing module it is given to serves)
      "test/probe.e2e-spec.ts:3:1 warning unresolved-route controller ProbeController is not declared by any module reachable from the app's root module; Nest does not serve it",
    ]);
    expect(routeRows(two.routes)).toEqual([row('GET /api/sites', 'contract', 'src/sites.controller.ts:5:3', { auth: ['SessionGuard'] }, 'GET /api/sites/')]);
  });

  it("an app made from a package's module (Hoppscotch's `NestFactory.create(GraphQLSchemaBuilderModule)`, to print its schema) is said to be one, and serves none of the analysed controllers", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/graphql': '^13.0.0' } }),
        'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { SessionGuard } from './session.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  await app.listen(3000);
}
bootstrap();
`,
        'src/gql-schema.ts': `import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';

export async function emitSchema(resolvers: Function[]) {
  const app = await NestFactory.create(GraphQLSchemaBuilderModule);
  await app.init();
  const schema = await app.get(GraphQLSchemaFactory).create(resolvers);
  writeFileSync('schema.gql', printSchema(schema));
}
`,
        'src/legacy.controller.ts': `import { Controller, Get } from '@nestjs/common';

@Controller('legacy')
export class LegacyController {
  @Get()
  list() {
    return [];
  }
}
`,
        ...SESSION_GUARDED_SITES,
      }),
    );
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      "src/gql-schema.ts:7:21 warning unresolved-route the root module of this NestFactory.create(…) is GraphQLSchemaBuilderModule of @nestjs/graphql: the routes of a package's modules are not read",
      "src/legacy.controller.ts:3:1 warning unresolved-route controller LegacyController is not declared by any module reachable from the app's root module; Nest does not serve it",
    ]);
    expect(routeRows(res.routes)).toEqual([row('GET /api/sites', 'contract', 'src/sites.controller.ts:5:3', { auth: ['SessionGuard'] }, 'GET /api/sites/')]);
  });

  it("express-prom-bundle and express-status-monitor given to app.use() answer their paths in the Express instance: no global prefix, no Nest guard, only the middleware before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', 'express-prom-bundle': '^8.0.0', 'express-status-monitor': '^1.3.4' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import * as promBundle from 'express-prom-bundle';
import statusMonitor from 'express-status-monitor';
import { AppModule } from './app.module';
import { requireApiKey } from './api-key';
import { SessionGuard } from './session.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  app.use(promBundle({ includeMethod: true, metricsPath: '/internal/metrics' }));
  app.use(requireApiKey);
  app.use(promBundle({ autoregister: false }));
  app.use('/ops', statusMonitor());
  await app.listen(3000);
}
bootstrap();
`,
      'src/api-key.ts': API_KEY_MIDDLEWARE,
      ...SESSION_GUARDED_SITES,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/sites SitesController.list src/sites.controller.ts:5 [requireApiKey, SessionGuard]',
      'ALL /internal/metrics express-prom-bundle src/main.ts:12 []',
      'ALL /ops/status express-status-monitor src/main.ts:15 [requireApiKey]',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak'))).toEqual([
      'src/main.ts:12:3 error excluded-family-leak ALL /internal/metrics is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'src/main.ts:15:3 error excluded-family-leak ALL /ops/status is in the excluded family "ops" and is reachable without its family guard (guarded only by requireApiKey)',
    ]);
  });

  it("a function of the code given to app.use() at a path, answering and never calling next, is an ALL route in the Express instance (postiz's MCP endpoints), as is one answering one path itself; one handing the request on is middleware", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { requireApiKey } from './api-key';
import { SessionGuard } from './session.guard';
import { startMcp } from './mcp';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  app.use('/status', (req, res, next) => {
    res.setHeader('x-served-by', 'api');
    next();
  });
  // answering one path itself, handing every other on: a route there too
  app.use((req, res, next) => {
    if (req.originalUrl !== '/internal/ping') return next();
    res.send('pong');
  });
  await startMcp(app);
  app.use('/internal', requireApiKey, (req, res) => res.json({ queue: 0 }));
  await app.listen(3000);
}
bootstrap();
`,
      'src/mcp.ts': `import type { INestApplication } from '@nestjs/common';
import type { Request, Response } from 'express';

const organizations = new Map<string, { id: string }>();

export async function startMcp(app: INestApplication) {
  app.use(['/mcp/:apiKey', '/sse/:apiKey'], async (req: Request, res: Response) => {
    const org = organizations.get(req.params.apiKey);
    if (!org) {
      res.status(400).send('Invalid API key');
      return;
    }
    res.json({ organization: org.id, tools: [] });
  });
}
`,
      'src/api-key.ts': API_KEY_MIDDLEWARE,
      ...SESSION_GUARDED_SITES,
    });
    const res = await check(dir);
    // (no global prefix, no Nest guard; the key in the path looked up, a miss refused: an API key's check)
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/sites src/sites.controller.ts:5 [SessionGuard: auth]',
      'ALL /internal src/main.ts:21 [requireApiKey: auth+bearer]',
      'ALL /internal/ping src/main.ts:16 []',
      'ALL /mcp/:apiKey src/mcp.ts:7 [organizations.get: auth]',
      'ALL /sse/:apiKey src/mcp.ts:7 [organizations.get: auth]',
    ]);
  });

  it("app.use() of a path written as a template: the path a helper's option gives by default (ever-gauzy's Scalar page at `/${scalarPath}`), or one not known statically, which is left out with a warning, never a middleware (so is a parameter's property named like a path, vendure's `app.use(mid.route, mid.handler)`)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { AppModule } from './app.module';
import { requireApiKey } from './api-key';

async function setupScalarUI(app: INestApplication, scalarPath: string): Promise<void> {
  app.use(\`/\${scalarPath}\`, requireApiKey);
}

export const setupDocs = async (app: INestApplication, { scalarPath = 'docs' }: { scalarPath?: string } = {}) => {
  await setupScalarUI(app, scalarPath);
  app.use(\`/\${process.env.REFERENCE_PATH}\`, requireApiKey);
};

export async function bootstrap(config: { middleware: { route: string; handler: RequestHandler }[] }) {
  const app = await NestFactory.create(AppModule);
  await setupDocs(app);
  config.middleware.forEach((mid) => {
    app.use(mid.route, mid.handler);
  });
  await app.listen(3000);
}
`,
      'src/api-key.ts': API_KEY_MIDDLEWARE,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';
import { DocsController } from './docs.controller';

@Module({ controllers: [SitesController, DocsController] })
export class AppModule {}
`,
      'src/sites.controller.ts': SITES_CONTROLLER,
      'src/docs.controller.ts': `import { Controller, Get } from '@nestjs/common';

@Controller('docs')
export class DocsController {
  @Get('openapi.json')
  spec() {
    return {};
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['GET /docs/openapi.json [requireApiKey]', 'GET /sites []']);
    expect(unresolvedRows(res)).toEqual([
      'src/main.ts:13:3 warning unresolved-route the path of this use() is not known statically; what it mounts is left out',
      'src/main.ts:20:5 warning unresolved-route the path of this use() is not known statically (the parameter mid.route); what it mounts is left out',
    ]);
  });

  it("@willsoto/nestjs-prometheus: PrometheusModule.register declares its controller at its path, under the global prefix and version, behind the app's guards", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@willsoto/nestjs-prometheus': '^6.1.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { VersioningType } from '@nestjs/common';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  await app.listen(3000);
}
bootstrap();
`,
      'src/public.ts': `import { SetMetadata } from '@nestjs/common';
export const IS_PUBLIC_KEY = 'isPublic';
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
`,
      'src/session.guard.ts': `import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC_KEY } from './public';

@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest();
    if (!req.session?.userId) return false;
    return true;
  }
}
`,
      'src/metrics.ts': `import { Controller, Get, Res } from '@nestjs/common';
import { PrometheusController, PrometheusModule } from '@willsoto/nestjs-prometheus';
import { Module } from '@nestjs/common';
import { Public } from './public';

/** Scraped by the cluster's Prometheus, which has no session. */
@Controller('ignored')
@Public()
export class ScrapeController extends PrometheusController {}

@Controller()
export class AuditedMetricsController extends PrometheusController {
  @Get()
  async index(@Res({ passthrough: true }) response: unknown) {
    return super.index(response);
  }
}

@Module({
  imports: [
    PrometheusModule.register(),
    PrometheusModule.register({ path: '/internal/metrics', controller: ScrapeController }),
    PrometheusModule.register({ path: '/audited-metrics', controller: AuditedMetricsController }),
    PrometheusModule.registerAsync({ useFactory: () => ({ path: '/async-metrics', defaultMetrics: { enabled: false } }) }),
    PrometheusModule.registerAsync({ useClass: MetricsConfig }),
  ],
})
export class MetricsModule {}

class MetricsConfig {
  createPrometheusOptions() {
    return { path: process.env.METRICS_PATH };
  }
}
`,
      'src/app.module.ts': `import { Controller, Get, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MetricsModule } from './metrics';
import { SessionGuard } from './session.guard';

@Controller('sites')
export class SitesController {
  @Get()
  list() {
    return [];
  }
}

@Module({
  imports: [MetricsModule],
  controllers: [SitesController],
  providers: [{ provide: APP_GUARD, useClass: SessionGuard }],
})
export class AppModule {}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line}:${r.column} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/v1/async-metrics PrometheusController.index src/metrics.ts:24:5 [SessionGuard]',
      // its own index, at the path PrometheusModule gives it
      'GET /api/v1/audited-metrics AuditedMetricsController.index src/metrics.ts:13:3 [SessionGuard]',
      // PrometheusModule's path replaces @Controller('ignored'); the inherited index is served, @Public() on the class skips the global guard
      'GET /api/v1/internal/metrics ScrapeController.index src/metrics.ts:7:1 []',
      'GET /api/v1/metrics PrometheusController.index src/metrics.ts:21:5 [SessionGuard]',
      'GET /api/v1/sites SitesController.list src/app.module.ts:8:3 [SessionGuard]',
    ]);
    expect(res.routes.map((r) => r.prefixes.map((p) => p.prefix).join(' '))).toEqual(['api', 'api', 'api', 'api', 'api']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route' || f.ruleId === 'excluded-family-leak'))).toEqual([
      'src/metrics.ts:7:1 error excluded-family-leak GET /api/v1/internal/metrics is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'src/metrics.ts:25:5 warning unresolved-route the options PrometheusModule.registerAsync is given at run time are not known statically; its metrics route is left out',
    ]);
  });

  it('http-proxy-middleware, swagger-ui-express and a GraphQL endpoint given to app.use() answer in the Express instance: no global prefix, no Nest guard', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', 'http-proxy-middleware': '^3.0.5', 'swagger-ui-express': '^5.0.1', '@apollo/server': '^4.11.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { createProxyMiddleware } from 'http-proxy-middleware';
import * as swaggerUi from 'swagger-ui-express';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@apollo/server/express4';
import { AppModule } from './app.module';
import { SessionGuard } from './session.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  app.use('/internal/billing', createProxyMiddleware({ target: 'http://billing.internal:8080' }));
  app.use(createProxyMiddleware({ target: 'http://grafana:3000', pathFilter: '/ops/grafana' }));
  app.use('/reference', swaggerUi.serve, swaggerUi.setup(require('./openapi.json')));
  app.use('/graphql', expressMiddleware(app.get(ApolloServer)));
  await app.listen(3000);
}
bootstrap();
`,
      ...SESSION_GUARDED_SITES,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/sites SitesController.list src/sites.controller.ts:5 [SessionGuard]',
      'ALL /graphql @apollo/server/express4 src/main.ts:16 []',
      'ALL /internal/billing http-proxy-middleware src/main.ts:13 []',
      'ALL /ops/grafana http-proxy-middleware src/main.ts:14 []',
      'ALL /reference swagger-ui-express src/main.ts:15 []',
    ]);
  });

  describe('SwaggerModule.setup(path, app, document, options) registers its routes on the HTTP adapter where it is called', () => {
    const docsApp = (bootstrap: string, extra: Record<string, string> = {}, imports = '') =>
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/swagger': '^11.2.0' } }),
        'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { requireApiKey } from './api-key';
import { SessionGuard } from './session.guard';
${imports}
async function bootstrap() {
${bootstrap}
  await app.listen(3000);
}
bootstrap();
`,
        'src/api-key.ts': API_KEY_MIDDLEWARE,
        ...SESSION_GUARDED_SITES,
        ...extra,
      });
    const routes = async (dir: string) => (await check(dir)).routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]${r.trailingSlashInsensitive ? ' /?' : ''}${r.caseSensitive ? ' Aa' : ''}`);

    it('behind the app.use() middleware before the call only, outside the global prefix and guards; useGlobalPrefix takes the prefix set before it', async () => {
      const dir = docsApp(`  const app = await NestFactory.create(AppModule);
  app.useGlobalGuards(new SessionGuard());
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('Control plane').build());
  SwaggerModule.setup('reference', app, document);
  app.use(requireApiKey);
  app.setGlobalPrefix('api');
  SwaggerModule.setup('docs', app, document, { useGlobalPrefix: true, jsonDocumentUrl: 'openapi.json', raw: ['json'] });
  SwaggerModule.setup('/internal/docs', app, document, { useGlobalPrefix: false, ui: false });`);
      expect(await routes(dir)).toEqual([
        'GET /api/docs @nestjs/swagger src/main.ts:15 [requireApiKey] /?',
        'GET /api/docs/docs/swagger-ui-init.js @nestjs/swagger src/main.ts:15 [requireApiKey] /?',
        'GET /api/docs/index.html @nestjs/swagger src/main.ts:15 [requireApiKey] /?',
        'GET /api/docs/swagger-ui-init.js @nestjs/swagger src/main.ts:15 [requireApiKey] /?',
        'GET /api/openapi.json @nestjs/swagger src/main.ts:15 [requireApiKey] /?',
        'GET /api/sites SitesController.list src/sites.controller.ts:5 [requireApiKey, SessionGuard] /?',
        'GET /internal/docs-json @nestjs/swagger src/main.ts:16 [requireApiKey] /?',
        'GET /internal/docs-yaml @nestjs/swagger src/main.ts:16 [requireApiKey] /?',
        // before app.use(requireApiKey) and setGlobalPrefix('api'): neither applies
        'GET /reference @nestjs/swagger src/main.ts:12 [] /?',
        'GET /reference-json @nestjs/swagger src/main.ts:12 [] /?',
        'GET /reference-yaml @nestjs/swagger src/main.ts:12 [] /?',
        'GET /reference/index.html @nestjs/swagger src/main.ts:12 [] /?',
        'GET /reference/reference/swagger-ui-init.js @nestjs/swagger src/main.ts:12 [] /?',
        'GET /reference/swagger-ui-init.js @nestjs/swagger src/main.ts:12 [] /?',
      ]);
    });

    it('made in a helper given the app, in its place among the calls of the bootstrap; on Fastify exact and case-sensitive but for the page', async () => {
      const dir = docsApp(
        `  const app = await NestFactory.create(AppModule, new FastifyAdapter());
  setupDocs(app);
  app.use(requireApiKey);`,
        {
          'src/docs.ts': `import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export function setupDocs(app: INestApplication): void {
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
  SwaggerModule.setup('api/reference', app, document, { swaggerUiEnabled: true, raw: false });
}
`,
        },
        "import { setupDocs } from './docs';\n",
      );
      expect(await routes(dir)).toEqual([
        'GET /api/reference @nestjs/swagger src/docs.ts:6 [] /? Aa',
        'GET /api/reference/index.html @nestjs/swagger src/docs.ts:6 [] Aa',
        'GET /api/reference/reference/swagger-ui-init.js @nestjs/swagger src/docs.ts:6 [] Aa',
        'GET /api/reference/swagger-ui-init.js @nestjs/swagger src/docs.ts:6 [] Aa',
        'GET /sites SitesController.list src/sites.controller.ts:5 [requireApiKey] Aa',
      ]);
    });

    it('a path or option not known statically: a warning, and its routes left out', async () => {
      const dir = docsApp(`  const app = await NestFactory.create(AppModule);
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
  SwaggerModule.setup(process.env.DOCS_PATH, app, document);
  SwaggerModule.setup('docs', app, document, { ui: process.env.DOCS_UI === 'on' });`);
      const res = await check(dir);
      expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /sites']);
      expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
        'src/main.ts:11:3 warning unresolved-route the path of this SwaggerModule.setup(…) is not known statically; the API docs routes it serves are left out',
        'src/main.ts:12:3 warning unresolved-route the ui option of this SwaggerModule.setup(…) is not known statically; the API docs routes it serves are left out',
      ]);
    });
  });

  it('GraphQLModule.forRoot(Async) with an Apollo, Mercurius or Yoga driver serves its endpoint in the server under the app: behind every app.use() middleware, no Nest guard, the global prefix only with useGlobalPrefix', async () => {
    const graphqlApp = (platform: string, modules: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/graphql': '^13.0.0', '@nestjs/apollo': '^13.0.0', '@nestjs/mercurius': '^13.0.0', '@graphql-yoga/nestjs': '^3.0.0' } }),
        'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { requireApiKey } from './api-key';
import { SessionGuard } from './session.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule${platform});
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  app.use(requireApiKey);
  await app.listen(3000);
}
bootstrap();
`,
        'src/api-key.ts': API_KEY_MIDDLEWARE,
        'src/session.guard.ts': SESSION_GUARDED_SITES['src/session.guard.ts'],
        'src/sites.controller.ts': SITES_CONTROLLER,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { GraphQLModule } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { MercuriusDriver } from '@nestjs/mercurius';
import { YogaDriver } from '@graphql-yoga/nestjs';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { SitesController } from './sites.controller';

@Module({
  imports: [
${modules}
  ],
  controllers: [SitesController],
})
export class AppModule {}
`,
      });
    const lines = async (dir: string) => {
      const res = await check(dir);
      return [
        ...res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]${r.trailingSlashInsensitive ? ' /?' : ''}${r.caseSensitive ? ' Aa' : ''}`),
        ...findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route')),
      ];
    };
    const express = graphqlApp(
      '',
      `    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({ autoSchemaFile: true, playground: config.get('PLAYGROUND') === 'true' }),
    }),
    GraphQLModule.forRoot({ driver: ApolloDriver, path: 'admin/graphql/', useGlobalPrefix: true, csrfPrevention: false }),
    GraphQLModule.forRoot({ driver: globalThis.driver }),
    GraphQLModule.forRoot({ driver: YogaDriver, path: 'yoga', plugins: [useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] })] }),`,
    );
    expect(await lines(express)).toEqual([
      'ALL /api/admin/graphql @nestjs/apollo src/app.module.ts:17 [requireApiKey] /?',
      'GET /api/sites SitesController.list src/sites.controller.ts:5 [requireApiKey, SessionGuard] /?',
      // (the Apollo Server 4 it makes prevents CSRF unless csrfPrevention: false)
      'ALL /graphql @nestjs/apollo src/app.module.ts:12 [requireApiKey, ApolloServer csrfPrevention] /?',
      // (its CSRF prevention plugin: a guard of its own)
      'ALL /yoga @graphql-yoga/nestjs src/app.module.ts:19 [requireApiKey, useCSRFPrevention] /?',
      'src/app.module.ts:18:5 warning unresolved-route the driver of this GraphQLModule.forRoot is not known statically (one of @nestjs/apollo\'s, @nestjs/mercurius\'s or @graphql-yoga/nestjs\'s); the GraphQL endpoint it serves is left out',
    ]);
    const fastify = graphqlApp(', new FastifyAdapter()', `    GraphQLModule.forRoot({ driver: ApolloDriver, path: '/gql' }),
    GraphQLModule.forRoot({ driver: MercuriusDriver, useGlobalPrefix: true, csrfPrevention: true }),
    GraphQLModule.forRoot({ driver: YogaDriver }),`);
    expect(await lines(fastify)).toEqual([
      'GET /api/graphql @nestjs/mercurius src/app.module.ts:13 [requireApiKey, mercurius csrfPrevention] Aa',
      'POST /api/graphql @nestjs/mercurius src/app.module.ts:13 [requireApiKey, mercurius csrfPrevention] Aa',
      'GET /api/sites SitesController.list src/sites.controller.ts:5 [requireApiKey, SessionGuard] Aa',
      'GET /gql @nestjs/apollo src/app.module.ts:12 [requireApiKey, ApolloServer csrfPrevention] Aa',
      'OPTIONS /gql @nestjs/apollo src/app.module.ts:12 [requireApiKey, ApolloServer csrfPrevention] Aa',
      'POST /gql @nestjs/apollo src/app.module.ts:12 [requireApiKey, ApolloServer csrfPrevention] Aa',
      'ALL /graphql @graphql-yoga/nestjs src/app.module.ts:14 [requireApiKey] Aa',
    ]);
  });

  it("forRootAsync({ useClass }) (or useExisting) serves the path of the options its class's createGqlOptions() returns (nestjs-prisma-starter's GqlConfigService)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({
          name: 'api',
          dependencies: { '@nestjs/common': '^10.2.0', '@nestjs/core': '^10.2.0', '@nestjs/config': '^3.1.1', '@nestjs/graphql': '^12.0.0', '@nestjs/apollo': '^12.0.0', '@apollo/server': '^4.9.0', graphql: '^16.8.1' },
        }),
        'src/main.ts': BOOTSTRAP,
        'src/gql-config.service.ts': `import { ApolloDriverConfig } from '@nestjs/apollo';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { GqlOptionsFactory } from '@nestjs/graphql';

@Injectable()
export class GqlConfigService implements GqlOptionsFactory {
  constructor(private configService: ConfigService) {}
  createGqlOptions(): ApolloDriverConfig {
    const graphql = this.configService.get('graphql');
    return { autoSchemaFile: graphql.schemaDestination || './src/schema.graphql', sortSchema: graphql.sortSchema, context: ({ req }) => ({ req }) };
  }
}

@Injectable()
export class AdminGqlConfigService implements GqlOptionsFactory {
  createGqlOptions(): ApolloDriverConfig {
    return { path: '/admin/graphql', autoSchemaFile: true, include: [] };
  }
}
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { AdminGqlConfigService, GqlConfigService } from './gql-config.service';

@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({ driver: ApolloDriver, useClass: GqlConfigService }),
    GraphQLModule.forRootAsync<ApolloDriverConfig>({ driver: ApolloDriver, useExisting: AdminGqlConfigService }),
  ],
  providers: [AdminGqlConfigService],
})
export class AppModule {}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'ALL /admin/graphql @nestjs/apollo src/app.module.ts:9 [ApolloServer csrfPrevention]',
      'ALL /graphql @nestjs/apollo src/app.module.ts:8 [ApolloServer csrfPrevention]',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("@nestjs/apollo 10 (its package needing apollo-server-express: Apollo Server 3) prevents no CSRF unless csrfPrevention: true, and serves Apollo's health check at the app's root unless disableHealthCheck (amplication)", async () => {
    const project = (options: string) =>
      writeProject({
        'package.json': JSON.stringify({
          name: 'api',
          dependencies: { '@nestjs/common': '^9.4.0', '@nestjs/core': '^9.3.12', '@nestjs/graphql': '^10.0.0', '@nestjs/apollo': '^10.2.0', 'apollo-server-express': '^3.10.2', graphql: '^16.8.1' },
        }),
        'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';

@Module({
  imports: [GraphQLModule.forRootAsync<ApolloDriverConfig>({ driver: ApolloDriver, useFactory: () => ({ autoSchemaFile: true, useGlobalPrefix: true, ${options} }) })],
})
export class AppModule {}
`,
      });
    const lines = async (dir: string) => (await check(dir)).routes.map((r) => `${r.method} ${r.path} ${r.handler} [${r.guards.map((g) => g.name).join(', ')}]`);
    expect(await lines(project('sortSchema: true'))).toEqual(['ALL /.well-known/apollo/server-health @nestjs/apollo []', 'ALL /api/graphql @nestjs/apollo []']);
    expect(await lines(project('csrfPrevention: true, disableHealthCheck: true'))).toEqual(['ALL /api/graphql @nestjs/apollo [ApolloServer csrfPrevention]']);
  });

  it('routes registered on the HTTP adapter under the app are served by the server itself: no global prefix, no Nest guard; app.get(Token) is no route', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { AppModule } from './app.module';
import { requireApiKey } from './api-key';
import { SessionGuard } from './session.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  const config = app.get(ConfigService);
  app.setGlobalPrefix('api');
  app.useGlobalGuards(new SessionGuard());
  app.getHttpAdapter().get('/health', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  app.use(requireApiKey);
  const server = app.getHttpAdapter().getInstance();
  server.get('/internal/stats', (_req, res) => res.json({ uptime: process.uptime() }));
  await app.listen(config.get('PORT') ?? 3000);
}
bootstrap();
`,
      'src/api-key.ts': API_KEY_MIDDLEWARE,
      ...SESSION_GUARDED_SITES,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'GET /api/sites src/sites.controller.ts:5 [requireApiKey, SessionGuard]',
      'GET /health src/main.ts:12 []',
      'GET /internal/stats src/main.ts:17 [requireApiKey]',
    ]);
  });

  it('a controller with no bootstrapped module is listed without a prefix, with a warning', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'shared-controllers', dependencies: { '@nestjs/common': '^11.0.0' } }),
      'src/sites.controller.ts': SITES_CONTROLLER,
    });
    const res = await check(dir);
    expect(routeRows(res.routes)).toEqual([row('GET /sites', 'browser', 'src/sites.controller.ts:5:3')]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/sites.controller.ts:3:1 warning unresolved-route no NestFactory.create(…) in the analysed files bootstraps a module declaring controller SitesController; its routes are listed without a global prefix',
    ]);
  });

  it('an app made only to read configuration and closed, or inited or documented only, is not listed beside the app served from the same module; a lone one, or one inited on an adapter given, is', async () => {
    const appModule = `import { Controller, Get, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

@Controller('sites')
export class SitesController {
  @Get()
  list() {
    return [];
  }
}

@Module({ imports: [ConfigModule.forRoot()], controllers: [SitesController] })
export class AppModule {}
`;
    const pkg = JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/config': '^4.0.0' } });
    const served = await check(
      writeProject({
        'package.json': pkg,
        'src/app.module.ts': appModule,
        'src/main.ts': `import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  // read the log levels before making the app that serves
  const configApp = await NestFactory.create(AppModule);
  const levels = configApp.get(ConfigService).get<string>('LOG_LEVELS');
  await configApp.close();

  const app = await NestFactory.create(AppModule, { logger: levels ? JSON.parse(levels) : undefined });
  app.setGlobalPrefix('api');
  process.on('SIGTERM', () => app.close());
  await app.listen(process.env.PORT ?? 3000);
}
void bootstrap();
`,
      }),
    );
    expect(routeRows(served.routes).map((r) => r.route)).toEqual(['GET /api/sites']);
    // a script that makes the app and inits it (for the schema its modules write, pezzo's) or hands
    // it to SwaggerModule.createDocument (an OpenAPI export) makes nothing listen: init registers
    // the routes on a server only listen() starts; made on an adapter given, whose server may be
    // served elsewhere (`functions.https.onRequest(server)`), an inited app's routes are listed;
    // one that only closes it, alone, is all there is to list
    const script = (lifecycle: string, made = 'NestFactory.create(AppModule)'): string => `import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import { writeFileSync } from 'node:fs';
import { AppModule } from './app.module';

export const server = express();

async function main() {
  const app = await ${made};
  app.setGlobalPrefix('v2');
  ${lifecycle}
}
void main();
`;
    const main = `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
void bootstrap();
`;
    const beside = async (lifecycle: string, made?: string): Promise<string[]> =>
      routeRows((await check(writeProject({ 'package.json': pkg, 'src/app.module.ts': appModule, 'src/main.ts': main, 'src/export-openapi.ts': script(lifecycle, made) }))).routes).map((r) => r.route);
    expect(await beside('await app.init();\n  await app.close();')).toEqual(['GET /api/sites']);
    expect(await beside('await app.init();')).toEqual(['GET /api/sites']);
    expect(await beside("writeFileSync('openapi.json', JSON.stringify(SwaggerModule.createDocument(app, new DocumentBuilder().build())));")).toEqual(['GET /api/sites']);
    expect(await beside('await app.init();', 'NestFactory.create(AppModule, new ExpressAdapter(server))')).toEqual(['GET /api/sites', 'GET /v2/sites']);
    // (its server taken, or the app handed to a function of the code: what is done with it is not known)
    expect(await beside('await app.init();\n  server.use(app.getHttpAdapter().getInstance());')).toEqual(['GET /api/sites', 'GET /v2/sites']);
    expect(await beside('await app.init();\n  writeSpec(app);\n}\nfunction writeSpec(app) {\n  return app;')).toEqual(['GET /api/sites', 'GET /v2/sites']);
    const alone = await check(writeProject({ 'package.json': pkg, 'src/app.module.ts': appModule, 'src/export-openapi.ts': script('await app.close();') }));
    expect(routeRows(alone.routes).map((r) => r.route)).toEqual(['GET /v2/sites']);
  });

  it("immich's OpenAPI script: an app made in preview mode serves nothing; an app closed in a shutdown hook, or a helper's parameter of its name, is no app closed or served", async () => {
    const pkg = JSON.stringify({ name: 'immich', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/platform-express': '^11.0.0' } });
    const files = (script: string): Record<string, string> => ({
      'package.json': pkg,
      'src/app.module.ts': `import { Controller, Get, Module } from '@nestjs/common';

@Controller('server')
export class ServerController {
  @Get('ping')
  ping() {
    return { res: 'pong' };
  }
}

@Module({ controllers: [ServerController] })
export class ApiModule {}
`,
      'src/app.common.ts': `import { INestApplication } from '@nestjs/common';

export function configureApp(app: INestApplication) {
  app.setGlobalPrefix('api', { exclude: ['/custom.css'] });
  app.enableShutdownHooks();
}
`,
      'src/workers/api.ts': `import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiModule } from '../app.module';
import { configureApp } from '../app.common';
import { AppRepository } from '../repositories/app.repository';

async function bootstrap() {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule, { bufferLogs: true });
  app.get(AppRepository).setCloseFn(() => app.close());
  configureApp(app);
  const server = await app.listen(Number(process.env.IMMICH_PORT) || 2283);
  server.requestTimeout = 24 * 60 * 60 * 1000;
}

void bootstrap();
`,
      'src/repositories/app.repository.ts': `export class AppRepository {
  private closeFn?: () => Promise<void>;

  setCloseFn(fn: () => Promise<void>) {
    this.closeFn = fn;
  }
}
`,
      'src/bin/sync-open-api.ts': script,
    });
    const sync = (options: string, lifecycle: string): string => `import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'node:fs';
import { ApiModule } from '../app.module';

const writeSpec = (app: INestApplication) => writeFileSync('open-api.json', JSON.stringify(app.getHttpAdapter().getType()));

const sync = async () => {
  const app = await NestFactory.create(ApiModule, ${options});
  writeSpec(app);
  ${lifecycle}
};

void sync();
`;
    const routes = async (script: string): Promise<string[]> => (await check(writeProject(files(script)))).routes.map((r) => `${r.method} ${r.path} ${r.app}`);
    // the served app is the one closed only by its shutdown hook
    expect(await routes(sync('{ preview: true }', 'await app.close();'))).toEqual(['GET /api/server/ping ApiModule']);
    // in preview mode, closed or not
    expect(await routes(sync('{ preview: true }', ''))).toEqual(['GET /api/server/ping ApiModule']);
    // not in preview mode and closed where it is made: made only to read what it has
    expect(await routes(sync('{}', 'await app.close();'))).toEqual(['GET /api/server/ping ApiModule']);
    // neither: handed to a function (writeSpec), what is done with it there is not known
    expect(await routes(sync('{}', ''))).toEqual(['GET /api/server/ping ApiModule (src/workers/api.ts)', 'GET /server/ping ApiModule (src/bin/sync-open-api.ts)']);
  });

  it("imports named below tsconfig's baseUrl (src/guards/…) reach the guard's definition, as tsc resolves them", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'backend', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
      // a base config in the repository root, extended by the backend's
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { baseUrl: './' } }),
      'tsconfig.json': JSON.stringify({ extends: './tsconfig.base.json', compilerOptions: { module: 'commonjs', moduleResolution: 'node' } }),
      'src/errors.ts': `export const INFRA_TOKEN_INVALID = 'infra_token/invalid';
`,
      'src/guards/infra-token.guard.ts': `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { INFRA_TOKEN_INVALID } from 'src/errors';

@Injectable()
export class InfraTokenGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const authorization = request.headers['authorization'];
    if (!authorization?.startsWith('Bearer ')) throw new UnauthorizedException(INFRA_TOKEN_INVALID);
    return true;
  }
}
`,
      'src/infra/infra.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { InfraTokenGuard } from 'src/guards/infra-token.guard';

@UseGuards(InfraTokenGuard)
@Controller({ path: 'infra', version: '1' })
export class InfraController {
  @Get('users')
  listUsers() {
    return [];
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { InfraController } from 'src/infra/infra.controller';

@Module({ controllers: [InfraController] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual(['GET /infra/users InfraTokenGuard:auth+bearer']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("a root module's imports spread from a const object's list, and modules imported by ConditionalModule.registerWhen (served when the environment says so)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'backend', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', '@nestjs/config': '^3.2.0' } }),
      'src/health/health.controller.ts': `import { Controller, Get } from '@nestjs/common';

@Controller('health')
export class HealthController {
  @Get()
  check() {
    return { status: 'ok' };
  }
}
`,
      'src/health/health.module.ts': `import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController] })
export class HealthModule {}
`,
      'src/auth/github.controller.ts': `import { Controller, Get, Redirect } from '@nestjs/common';

@Controller('auth/github')
export class GithubController {
  @Get()
  @Redirect('https://github.com/login/oauth/authorize')
  start() {
    return {};
  }
}
`,
      'src/auth/social.module.ts': `import { Module } from '@nestjs/common';
import { ConditionalModule } from '@nestjs/config';
import { GithubController } from './github.controller';

@Module({ controllers: [GithubController] })
export class GithubModule {}

@Module({
  imports: [ConditionalModule.registerWhen(GithubModule, (env) => Boolean(env.SOCIAL_AUTH_PROVIDERS?.split(',').includes('github')))],
})
export class SocialModule {}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { HealthModule } from './health/health.module';
import { SocialModule } from './auth/social.module';

export const appModules = {
  imports: [HealthModule, SocialModule],
  providers: [],
};

@Module({
  ...appModules,
  imports: [...appModules.imports],
  controllers: [],
})
export class AppModule {}
`,
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
void bootstrap();
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/auth/github', 'GET /api/health']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('controllers chosen by a condition not known statically (`process.env.MCP_ONLY ? [...] : [...]`): those of both lists, each once; a test known statically picks its list', async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'backend', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
      'src/controllers.ts': `import { Controller, Get, Post } from '@nestjs/common';

@Controller()
export class RootController {
  @Get()
  index() {
    return { ok: true };
  }
}

@Controller('oauth')
export class OAuthController {
  @Post('token')
  token() {
    return { access_token: 'x' };
  }
}

@Controller('posts')
export class PostsController {
  @Get()
  list() {
    return [];
  }
}

@Controller('billing')
export class BillingController {
  @Get()
  plan() {
    return { plan: 'free' };
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { BillingController, OAuthController, PostsController, RootController } from './controllers';

const authenticatedControllers = [PostsController, BillingController];

@Module({
  controllers: process.env.MCP_ONLY ? [RootController, OAuthController] : [RootController, OAuthController, ...authenticatedControllers],
})
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    };
    const dir = writeProject(files);
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'GET /billing', 'POST /oauth/token', 'GET /posts']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
    // a test known statically: the list it picks
    const known = path.join(dir, 'src/app.module.ts');
    fs.writeFileSync(known, fs.readFileSync(known, 'utf8').replace('process.env.MCP_ONLY ?', 'MCP_ONLY ?').replace('const authenticated', 'const MCP_ONLY = true;\nconst authenticated'));
    const only = await check(dir);
    expect(only.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'POST /oauth/token']);
  });

  it("a root module's list built as novu builds it: concat, push and unshift (each under a condition, one known to fail), a function returning one of two lists, and @Module(getModuleConfig()) returning one of two objects", async () => {
    const controller = (name: string, path: string): string => `
@Controller('${path}')
export class ${name} {
  @Get()
  list() {
    return [];
  }
}
`;
    const module = (name: string, controllers: string): string => `
@Module({ controllers: [${controllers}] })
export class ${name} {}
`;
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', '@acme/flags': '1.0.0' } }),
        'src/features.ts': `import { Controller, Get, Module } from '@nestjs/common';
${['SitesController:sites', 'BillingController:billing', 'InvitesController:invites', 'AnalyticsController:analytics', 'TestingController:testing', 'OrganizationController:organizations', 'CloudOrganizationController:cloud/organizations', 'AuthController:auth', 'CloudAuthController:cloud/auth'].map((c) => controller(...(c.split(':') as [string, string]))).join('')}
${['SitesModule:SitesController', 'BillingModule:BillingController', 'InvitesModule:InvitesController', 'AnalyticsModule:AnalyticsController', 'TestingModule:TestingController'].map((m) => module(...(m.split(':') as [string, string]))).join('')}`,
        'src/organization.module.ts': `import { Module } from '@nestjs/common';
import { isCloud } from '@acme/flags';
import { CloudOrganizationController, OrganizationController } from './features';

function getControllers() {
  if (isCloud()) {
    return [CloudOrganizationController];
  }
  return [OrganizationController];
}

@Module({ controllers: [...getControllers()] })
export class OrganizationModule {}
`,
        'src/auth.module.ts': `import { Module, ModuleMetadata } from '@nestjs/common';
import { isCloud } from '@acme/flags';
import { AuthController, CloudAuthController } from './features';

const cloudConfig = (): ModuleMetadata => ({ controllers: [CloudAuthController] });
const communityConfig = (): ModuleMetadata => ({ controllers: [AuthController] });

function getModuleConfig(): ModuleMetadata {
  if (isCloud()) {
    return cloudConfig();
  } else {
    return communityConfig();
  }
}

@Module(getModuleConfig())
export class AuthModule {}
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { isCloud } from '@acme/flags';
import { AnalyticsModule, BillingModule, InvitesModule, SitesModule, TestingModule } from './features';
import { AuthModule } from './auth.module';
import { OrganizationModule } from './organization.module';

const enterpriseImports = () => {
  const modules = [];
  if (process.env.ENTERPRISE === 'true') modules.push(require('@acme/ee-billing').BillingModule);
  return modules;
};

const baseModules = [SitesModule, BillingModule, OrganizationModule, AuthModule];
if (!isCloud()) {
  const communityModules = [InvitesModule];
  baseModules.push(...communityModules);
}
const modules = baseModules.concat(enterpriseImports());
const TESTING = false;
if (process.env.SEGMENT_TOKEN) modules.push(AnalyticsModule);
if (TESTING) modules.push(TestingModule);

@Module({ imports: modules })
export class AppModule {}
`,
        'src/main.ts': BOOTSTRAP,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /analytics',
      'GET /auth',
      'GET /billing',
      'GET /cloud/auth',
      'GET /cloud/organizations',
      'GET /invites',
      'GET /organizations',
      'GET /sites',
    ]);
    // (`if (TESTING) modules.push(TestingModule)` with TESTING false: not imported)
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => f.message)).toEqual([
      "controller TestingController is not declared by any module reachable from the app's root module; Nest does not serve it",
    ]);
  });

  it("a dynamic module's metadata read with its static method's parameters the call's arguments: `imports: options.imports || []` (docmost's MailModule.forRootAsync)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
        'src/environment.module.ts': `import { Controller, Get, Module } from '@nestjs/common';

@Controller('environment')
export class EnvironmentController {
  @Get()
  show() {
    return {};
  }
}

@Module({ controllers: [EnvironmentController] })
export class EnvironmentModule {}
`,
        'src/mail.module.ts': `import { DynamicModule, Module } from '@nestjs/common';

export interface MailModuleOptions {
  imports?: DynamicModule['imports'];
}

@Module({})
export class MailModule {
  static forRootAsync(options: MailModuleOptions): DynamicModule {
    return { module: MailModule, imports: options.imports || [] };
  }
}
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { EnvironmentModule } from './environment.module';
import { MailModule } from './mail.module';

@Module({ imports: [MailModule.forRootAsync({ imports: [EnvironmentModule] }), MailModule.forRootAsync({})] })
export class AppModule {}
`,
        'src/main.ts': BOOTSTRAP,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /environment']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("a dynamic module's static method returning either of two objects under a condition not known statically: the controllers either declares are served (APITable's SocketModule.register(enableSocket))", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'room-server', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
        'src/socket/socket.controller.ts': `import { Controller, Get, Headers, Post, Body } from '@nestjs/common';

@Controller('socket')
export class SocketController {
  @Get('health')
  health() {
    return { status: 'up' };
  }

  @Post('notify')
  notify(@Body() body: { roomId: string }, @Headers('cookie') cookie: string) {
    return { roomId: body.roomId, sent: Boolean(cookie) };
  }
}
`,
        'src/socket/socket.module.ts': `import { DynamicModule, Module } from '@nestjs/common';
import { SocketController } from './socket.controller';

@Module({})
export class SocketModule {
  static register(enabled: boolean): DynamicModule {
    if (!enabled) {
      return {
        module: SocketModule,
      };
    }
    return {
      module: SocketModule,
      controllers: [SocketController],
    };
  }
}
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SocketModule } from './socket/socket.module';

const enableSocket = process.env.ENABLE_SOCKET === 'true';

@Module({ imports: [SocketModule.register(enableSocket)] })
export class AppModule {}
`,
        'src/main.ts': BOOTSTRAP,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /socket/health src/socket/socket.controller.ts:5', 'POST /socket/notify src/socket/socket.controller.ts:10']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("one app of a name given either of two made from the same module, and none of a script that makes an app only to take its services", async () => {
    const pkg = JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', '@nestjs/platform-express': '^10.4.0', express: '^4.21.2' } });
    const sites = {
      'src/sites.controller.ts': SITES_CONTROLLER,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({ controllers: [SitesController] })
export class AppModule {}
`,
    };
    const bootstrap = `import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { AppModule } from './app.module';

export async function bootstrap(expressApp?): Promise<INestApplication> {
  let app: INestApplication;
  if (expressApp) {
    app = await NestFactory.create(AppModule, new ExpressAdapter(expressApp));
  } else {
    app = await NestFactory.create(AppModule, { bufferLogs: true });
  }
  app.setGlobalPrefix('api');
  if (expressApp) await app.init();
  else await app.listen(3000);
  return app;
}
`;
    const migration = `import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { SitesRepository } from '../src/sites.repository';

export async function backfill() {
  const app = await NestFactory.create(AppModule, { logger: false });
  const sites = app.get(SitesRepository);
  await sites.backfill();
}
`;
    const res = await check(writeProject({ 'package.json': pkg, ...sites, 'src/bootstrap.ts': bootstrap, 'migrations/backfill.ts': migration }));
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.app}`)).toEqual(['GET /api/sites AppModule']);
    // an app the script hands on (exported, returned) may be served where it goes: listed
    const handed = await check(writeProject({ 'package.json': pkg, ...sites, 'src/bootstrap.ts': bootstrap, 'migrations/backfill.ts': migration.replace('await sites.backfill();', 'await sites.backfill();\n  return app;') }));
    expect(handed.routes.map((r) => `${r.method} ${r.path} ${r.app}`)).toEqual(['GET /api/sites AppModule (src/bootstrap.ts)', 'GET /sites AppModule (migrations/backfill.ts)']);
  });

  it('an app made by a function each script calls (vendure\'s bootstrap(config, options)) lists each route once', async () => {
    const pkg = JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } });
    const files = {
      'package.json': pkg,
      'src/app.module.ts': `import { Controller, Get, Module } from '@nestjs/common';

@Controller('health')
export class HealthController {
  @Get()
  check() {
    return { status: 'ok' };
  }
}

@Module({ controllers: [HealthController] })
export class AppModule {}
`,
      'src/bootstrap.ts': `import { NestFactory } from '@nestjs/core';

export async function bootstrap(options?: { nestApplicationOptions?: Record<string, unknown> }) {
  const appModule = await import('./app.module.js');
  const app = await NestFactory.create(appModule.AppModule, { cors: true, ...options?.nestApplicationOptions });
  app.setGlobalPrefix('api');
  await app.listen(3000);
  return app;
}
`,
      // each script takes the app the call makes (an instance of its own: `app.get(…)` reads it)
      'scripts/populate.ts': `import { bootstrap } from '../src/bootstrap';\nimport { Populator } from '../src/populator';\nbootstrap({ nestApplicationOptions: { bufferLogs: true } }).then(async (app) => {\n  await app.get(Populator).run();\n  await app.close();\n});\n`,
      'scripts/load-test.ts': `import { bootstrap } from '../src/bootstrap';\nimport { JobQueue } from '../src/jobs';\nbootstrap().then(async (app) => {\n  await app.get(JobQueue).start();\n});\n`,
    };
    const res = await check(writeProject(files));
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.app}`)).toEqual(['GET /api/health AppModule']);
  });

  it("nestjs-cls's ClsMiddleware and ClsGuard set up the request's store: no guard candidate (teable applies the middleware to every route)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', 'nestjs-cls': '^4.4.0' } }),
        'src/app.module.ts': `import { Controller, Get, MiddlewareConsumer, Module, NestModule, UseGuards } from '@nestjs/common';
import { ClsGuard, ClsMiddleware, ClsModule } from 'nestjs-cls';

@Controller('spaces')
@UseGuards(ClsGuard)
export class SpacesController {
  @Get()
  list() {
    return [];
  }
}

@Module({ imports: [ClsModule.forRoot({ global: true })], controllers: [SpacesController] })
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(ClsMiddleware).forRoutes('*');
  }
}
`,
        'src/main.ts': `import { NestFactory } from '@nestjs/core';\nimport { AppModule } from './app.module';\nNestFactory.create(AppModule).then((app) => app.listen(3000));\n`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['GET /spaces []']);
  });

  it("a middleware class named for a well-known non-guard with the word Middleware after it (traduora's `MorganMiddleware`, handing the request to morgan) is no guard candidate", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', morgan: '^1.10.0' } }),
        'src/morgan-middleware.ts': `import { Injectable, NestMiddleware } from '@nestjs/common';
import * as morgan from 'morgan';

@Injectable()
export class MorganMiddleware implements NestMiddleware {
  private static format: string;

  public static configure(format: string) {
    this.format = format;
  }

  public use(req: any, res: any, next: any) {
    if (MorganMiddleware.format) {
      morgan(MorganMiddleware.format as any)(req, res, next);
    } else {
      throw new Error('MorganMiddleware must be configured with a logger format.');
    }
  }
}
`,
        'src/app.module.ts': `import { Controller, Get, MiddlewareConsumer, Module } from '@nestjs/common';
import { MorganMiddleware } from './morgan-middleware';

@Controller('health')
export class HealthController {
  @Get()
  status() {
    return { status: 'ok' };
  }
}

@Module({ controllers: [HealthController] })
export class AppModule {
  configure(consumer: MiddlewareConsumer): void {
    MorganMiddleware.configure('short');
    consumer.apply(MorganMiddleware).forRoutes('{*splat}');
  }
}
`,
        'src/main.ts': `import { NestFactory } from '@nestjs/core';\nimport { AppModule } from './app.module';\nNestFactory.create(AppModule).then((app) => app.listen(3000));\n`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['GET /health []']);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'missing-auth-guard'))).toEqual(['src/app.module.ts:6:3 error missing-auth-guard GET /health has no auth guard']);
  });

  it("a property of a const object that a later spread may replace is not taken as written", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'backend', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
      'src/legacy.module.ts': `import { Controller, Get, Module } from '@nestjs/common';

@Controller('legacy')
export class LegacyController {
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [LegacyController] })
export class LegacyModule {}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { LegacyModule } from './legacy.module';
import { overrides } from './overrides';

const appModules = { imports: [LegacyModule], ...overrides };

@Module({ imports: [...appModules.imports] })
export class AppModule {}
`,
      'src/overrides.ts': `export const overrides = JSON.parse(process.env.MODULE_OVERRIDES ?? '{}');
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(res.routes).toEqual([]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.module.ts:7:1 warning unresolved-route an import of module AppModule is not known statically (property imports may come from a spread not known statically); the routes it brings are unknown',
      'src/legacy.module.ts:3:1 warning unresolved-route controller LegacyController is not declared by any module reachable from the app\'s root module; Nest does not serve it',
    ]);
  });

  it("a handler returning what a function makes of its first parameter: that parameter is what @Param picks, not the request, so the function's leading calls are no checks of the handler's", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'backend', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
      'src/sessions.ts': `import { createClient } from 'redis';

const store = createClient({ url: process.env.REDIS_URL });

export async function revokeSession(sessionId: string): Promise<{ revoked: string }> {
  await store.destroySession(sessionId);
  return { revoked: sessionId };
}
`,
      'src/sessions.controller.ts': `import { Controller, Delete, Param } from '@nestjs/common';
import { revokeSession } from './sessions';

@Controller('sessions')
export class SessionsController {
  @Delete(':sessionId')
  revoke(@Param('sessionId') sessionId: string) {
    return revokeSession(sessionId);
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SessionsController } from './sessions.controller';

@Module({ controllers: [SessionsController] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => g.name).join(' ')}`)).toEqual(['DELETE /sessions/:sessionId ']);
  });

  it("paths written as enum members (immich's `@Controller(RouteKey.Asset)`): a string member is its value, one with no initialiser the number after the one before", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'immich', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/enum.ts': `export enum RouteKey {
  Asset = 'assets',
  User = 'users',
}

export enum ApiVersion {
  Legacy = 1,
  Current,
}
`,
      'src/asset.controller.ts': `import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiVersion, RouteKey } from './enum';

const enum AssetRoute {
  Statistics = 'statistics',
  'Original-File' = ':id/original',
}

@Controller(RouteKey.Asset)
export class AssetController {
  @Get(AssetRoute.Statistics)
  getStatistics() {
    return { images: 0, videos: 0 };
  }

  @Get(AssetRoute['Original-File'])
  downloadOriginal(@Param('id') id: string) {
    return { id };
  }

  @Post(\`v\${ApiVersion.Current}/upload\`)
  upload() {
    return { status: 'created' };
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { AssetController } from './asset.controller';

@Module({ controllers: [AssetController] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /assets/:id/original src/asset.controller.ts:16',
      'GET /assets/statistics src/asset.controller.ts:11',
      'POST /assets/v2/upload src/asset.controller.ts:21',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });
});

describe('services injected by their type (Nest builds each provider and passes it to the constructors naming its class)', () => {
  const NEST_PACKAGE = JSON.stringify({ name: 'backend', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } });
  const CHECKS = `import { ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';

@Injectable()
export class AccessChecks {
  assertSignedIn(request: Request): void {
    if (!request.session.userId) throw new UnauthorizedException();
  }

  async validate(request: Request): Promise<boolean> {
    if (!request.session.userId) throw new UnauthorizedException('sign in first');
    return true;
  }

  /** Loads the signed-in user for the handlers, which check it themselves: refuses nothing. */
  authenticate(context: ExecutionContext): void {
    const request = context.switchToHttp().getRequest<Request & { userId?: string }>();
    request.userId = request.session.userId;
  }

  isMember(request: Request): boolean {
    return !!request.session.memberships?.some((m) => m.organizationId === request.params.organizationId);
  }

  assertMember(request: Request, organizationId: string): void {
    if (!request.session.memberships?.some((m) => m.organizationId === organizationId)) throw new ForbiddenException();
  }

  async verifyPassword(email: string, password: string): Promise<{ id: string }> {
    const user = await findUser(email, password);
    if (!user) throw new UnauthorizedException('invalid credentials');
    return user;
  }

  async login(input: { email: string; password: string }): Promise<{ id: string }> {
    const user = await findUser(input.email, input.password);
    if (!user) throw new UnauthorizedException('invalid credentials');
    return user;
  }
}

declare function findUser(email: string, password: string): Promise<{ id: string } | null>;
`;
  const GUARDS = `import { CanActivate, ExecutionContext, Inject, Injectable, Logger, forwardRef } from '@nestjs/common';
import { AccessChecks } from './access-checks';

@Injectable()
export class FrontDoor implements CanActivate {
  constructor(private readonly checks: AccessChecks) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    this.checks.assertSignedIn(request);
    return true;
  }
}

@Injectable()
export class SideDoor implements CanActivate {
  constructor(@Inject(forwardRef(() => AccessChecks)) private readonly access: AccessChecks) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return this.access.validate(context.switchToHttp().getRequest());
  }
}

export const ACCESS = Symbol('ACCESS');

export interface AccessPort {
  assertSignedIn(request: unknown): void;
}

@Injectable()
export class TokenDoor implements CanActivate {
  constructor(@Inject(ACCESS) private readonly access: AccessPort) {}

  canActivate(context: ExecutionContext): boolean {
    this.access.assertSignedIn(context.switchToHttp().getRequest());
    return true;
  }
}

@Injectable()
export class LoadingDoor implements CanActivate {
  constructor(private readonly checks: AccessChecks) {}

  canActivate(context: ExecutionContext): boolean {
    this.checks.authenticate(context);
    return true;
  }
}

@Injectable()
export class MemberDoor implements CanActivate {
  constructor(private readonly checks: AccessChecks) {}

  canActivate(context: ExecutionContext): boolean {
    return this.checks.isMember(context.switchToHttp().getRequest());
  }
}

@Injectable()
export class AuditGate implements CanActivate {
  private readonly logger = new Logger('audit');

  constructor(@Inject('AUDIT_CHECKS') private readonly checks: AccessChecks) {}

  canActivate(context: ExecutionContext): boolean {
    this.logger.log(context.getHandler().name);
    return true;
  }
}
`;
  const CONTROLLER = `import { Body, Controller, Get, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { AccessChecks } from './access-checks';
import { AuditGate, FrontDoor, LoadingDoor, MemberDoor, SideDoor, TokenDoor } from './gates';
import { ProjectsPort } from './projects';

@Controller()
export class SitesController {
  constructor(
    private readonly checks: AccessChecks,
    private readonly projects: ProjectsPort,
  ) {}

  @Get('dashboard')
  @UseGuards(LoadingDoor)
  dashboard() {
    return {};
  }

  @Get('reports')
  reports() {
    return [];
  }

  @Get('tokens')
  @UseGuards(TokenDoor)
  tokens() {
    return [];
  }

  @Get('orgs/:organizationId/members')
  @UseGuards(FrontDoor, MemberDoor)
  members() {
    return [];
  }

  @Get('orgs/:organizationId/projects')
  @UseGuards(FrontDoor)
  projectList(@Req() req: Request, @Param('organizationId') organizationId: string) {
    this.projects.confirmPlacement(req, organizationId);
    return [];
  }

  @Post('login')
  async login(@Req() req: Request, @Body() dto: { email: string; password: string }) {
    const user = await this.checks.verifyPassword(dto.email, dto.password);
    req.session.userId = user.id;
  }

  @Post('sign-in')
  async signIn(@Req() req: Request, @Body() input: { email: string; password: string }) {
    const user = await this.checks.login(input);
    req.session.userId = user.id;
  }

  @Get('orgs/:organizationId/sites')
  @UseGuards(FrontDoor)
  list(@Req() req: Request, @Param('organizationId') organizationId: string) {
    this.checks.assertMember(req, organizationId);
    return [];
  }

  @Get('me')
  @UseGuards(SideDoor)
  me(@Req() req: Request) {
    return { id: req.session.userId };
  }

  @Get('audit')
  @UseGuards(AuditGate)
  audit() {
    return [];
  }
}
`;

  it("a guard's canActivate leaving its check to an injected service (a leading call, or the call it returns), and a handler's call of an injected service's check; a token's provider declared by the module", async () => {
    const dir = writeProject({
      'package.json': NEST_PACKAGE,
      'src/access-checks.ts': CHECKS,
      'src/gates.ts': GUARDS,
      'src/sites.controller.ts': CONTROLLER,
      'src/projects.ts': `import { ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';

export abstract class ProjectsPort {
  abstract confirmPlacement(request: Request, organizationId: string): void;
}

@Injectable()
export class SqlProjects extends ProjectsPort {
  confirmPlacement(request: Request, organizationId: string): void {
    if (request.session.activeOrganizationId !== organizationId) throw new ForbiddenException();
  }
}
`,
      'src/reports.middleware.ts': `import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AccessChecks } from './access-checks';

@Injectable()
export class ReportsMiddleware implements NestMiddleware {
  // (no token: the parameter's type, as without the decorator)
  constructor(@Inject() private readonly checks: AccessChecks) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    this.checks.assertSignedIn(req);
    next();
  }
}
`,
      'src/app.module.ts': `import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AccessChecks } from './access-checks';
import { ACCESS } from './gates';
import { ProjectsPort, SqlProjects } from './projects';
import { ReportsMiddleware } from './reports.middleware';
import { SitesController } from './sites.controller';

@Module({
  controllers: [SitesController],
  providers: [
    AccessChecks,
    { provide: 'AUDIT_CHECKS', useClass: AccessChecks },
    { provide: ACCESS, useExisting: AccessChecks },
    { provide: ProjectsPort, useFactory: () => new SqlProjects() },
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(ReportsMiddleware).forRoutes('reports');
  }
}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      // (logging refuses nothing, whatever it is given)
      'GET /audit []',
      // (nor does a call named for auth whose definition refuses nothing)
      'GET /dashboard []',
      // a password the request sends is checked: the login itself, no caller's identity
      'POST /login []',
      'GET /me [SideDoor: auth]',
      // canActivate returns the answer of a membership test: Nest answers 403 when it is false
      'GET /orgs/:organizationId/members [FrontDoor: auth, MemberDoor: tenant]',
      // the provider declared for an abstract class used as the token: what its factory makes, a subclass
      'GET /orgs/:organizationId/projects [FrontDoor: auth, this.projects.confirmPlacement: tenant]',
      'GET /orgs/:organizationId/sites [FrontDoor: auth, this.checks.assertMember: tenant]',
      // a middleware class's use() leading with an injected service's check
      'GET /reports [ReportsMiddleware: auth]',
      // (nor does a call named for signing in)
      'POST /sign-in []',
      // a symbol token, its provider `useExisting` the class
      'GET /tokens [TokenDoor: auth]',
    ]);
    const gate = res.routes[6]!.guards[0]!;
    expect(gate.reason).toBe('by behaviour (it calls this.checks.assertSignedIn(): by name (auth); by behaviour (ends the request with 401))');
    // the same provider declared with useClass
    const module = path.join(dir, 'src/app.module.ts');
    fs.writeFileSync(module, fs.readFileSync(module, 'utf8').replace('useFactory: () => new SqlProjects()', 'useClass: SqlProjects'));
    const again = await check(dir);
    expect(again.routes.filter((r) => r.path.endsWith('/projects')).map((r) => r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', '))).toEqual([
      'FrontDoor: auth, this.projects.confirmPlacement: tenant',
    ]);
    // the same providers declared by a dynamic module the app module imports
    fs.writeFileSync(
      path.join(dir, 'src/access.module.ts'),
      `import { DynamicModule, Module } from '@nestjs/common';
import { AccessChecks } from './access-checks';
import { ACCESS } from './gates';
import { ProjectsPort, SqlProjects } from './projects';

@Module({})
export class AccessModule {
  static forRoot(options: { global?: boolean } = {}): DynamicModule {
    return {
      module: AccessModule,
      global: options.global ?? false,
      providers: [AccessChecks, { provide: ACCESS, useExisting: AccessChecks }, { provide: ProjectsPort, useClass: SqlProjects }],
      exports: [AccessChecks, ACCESS, ProjectsPort],
    };
  }
}
`,
    );
    const moved = fs
      .readFileSync(module, 'utf8')
      .replace("import { ReportsMiddleware } from './reports.middleware';", "import { AccessModule } from './access.module';\nimport { ReportsMiddleware } from './reports.middleware';")
      .replace('    { provide: ACCESS, useExisting: AccessChecks },\n', '')
      .replace('    { provide: ProjectsPort, useClass: SqlProjects },\n', '')
      .replace('@Module({\n', '@Module({\n  imports: [AccessModule.forRoot({ global: true })],\n');
    expect(moved).not.toContain('provide: ACCESS');
    fs.writeFileSync(module, moved);
    const dynamic = await check(dir);
    expect(dynamic.routes.filter((r) => r.path === '/tokens' || r.path.endsWith('/projects')).map((r) => `${r.path} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      '/orgs/:organizationId/projects [FrontDoor: auth, this.projects.confirmPlacement: tenant]',
      '/tokens [TokenDoor: auth]',
    ]);
  });

  it('a class with no decorator is made by its callers: its parameter is what they pass, not a new instance of its type', async () => {
    const dir = writeProject({
      'package.json': NEST_PACKAGE,
      'src/access-checks.ts': CHECKS,
      'src/sites.controller.ts': `import { Controller, Get, Param, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AccessChecks } from './access-checks';

class Helper {
  constructor(private readonly checks: AccessChecks) {}

  check(request: Request, organizationId: string): void {
    this.checks.assertMember(request, organizationId);
  }
}

@Controller('orgs/:organizationId/sites')
export class SitesController {
  private readonly helper = new Helper(undefined as unknown as AccessChecks);

  @Get()
  list(@Req() req: Request, @Param('organizationId') organizationId: string) {
    this.helper.check(req, organizationId);
    return [];
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({ controllers: [SitesController] })
export class AppModule {}
`,
      'src/main.ts': BOOTSTRAP,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['GET /orgs/:organizationId/sites []']);
  });
});

describe('nestPatternRegex (setGlobalPrefix exclude, forRoutes, MiddlewareConsumer.exclude)', () => {
  it('matches whole paths, case-insensitively, with an optional trailing slash', () => {
    const re = nestPatternRegex('health');
    expect(['/health', '/health/', '/HEALTH'].map((p) => re.test(p))).toEqual([true, true, true]);
    expect(['/health/live', '/healthz'].map((p) => re.test(p))).toEqual([false, false]);
  });

  it('parameters match one segment; (.*), *, *splat and {*splat} match the rest', () => {
    expect(nestPatternRegex('sites/:id').test('/sites/:siteId')).toBe(true);
    expect(nestPatternRegex('sites/:id').test('/sites/a/b')).toBe(false);
    for (const p of ['webhooks/(.*)', 'webhooks/*', 'webhooks/*path', 'webhooks/{*path}']) expect(nestPatternRegex(p).test('/webhooks/github/push')).toBe(true);
    expect(nestPatternRegex('webhooks{/:provider}').test('/webhooks')).toBe(true);
  });
});

describe("@nestjs/passport's AuthGuard of a strategy that hands a request on", () => {
  it("AuthGuard('session') (passport's own session strategy) and AuthGuard(['jwt', 'anonymous']) let a request without a user through: no auth guard", async () => {
    // (the guard resolves when the strategy passes, request.user left undefined: passport
    // lib/strategies/session.js, passport-anonymous)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'nest-passport', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0', passport: '0.7.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({ controllers: [SitesController] })
export class AppModule {}
`,
      'src/sites.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

@Controller('sites')
export class SitesController {
  @Get()
  @UseGuards(AuthGuard('session'))
  list() {
    return [];
  }

  @Get('featured')
  @UseGuards(AuthGuard(['jwt', 'anonymous']))
  featured() {
    return [];
  }

  @Get('mine')
  @UseGuards(AuthGuard('jwt'))
  mine() {
    return [];
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual([
      'GET /sites []',
      'GET /sites/featured []',
      'GET /sites/mine [auth]',
    ]);
  });

  it("AuthGuard(['jwt', 'guest']) where 'guest' is a strategy class of passport-anonymous lets a request without a user through, as does a guard extending it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'nest-guest', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0', 'passport-anonymous': '1.0.1', 'passport-jwt': '4.0.1' } }),
      'src/main.ts': BOOTSTRAP,
      'src/strategies.ts': `import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-anonymous';
import { ExtractJwt, Strategy as JwtBase } from 'passport-jwt';

@Injectable()
export class GuestStrategy extends PassportStrategy(Strategy, 'guest') {}

@Injectable()
export class JwtStrategy extends PassportStrategy(JwtBase, 'jwt') {
  constructor() {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: process.env.JWT_SECRET! });
  }
  validate(payload: { sub: string }) {
    return { id: payload.sub };
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { PostsController } from './posts.controller';
import { GuestStrategy, JwtStrategy } from './strategies';

@Module({ controllers: [PostsController], providers: [GuestStrategy, JwtStrategy] })
export class AppModule {}
`,
      'src/posts.controller.ts': `import { Controller, Get, Injectable, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

@Injectable()
export class ReaderGuard extends AuthGuard(['jwt', 'guest']) {}

@Controller('posts')
export class PostsController {
  @Get()
  @UseGuards(AuthGuard(['jwt', 'guest']))
  list() { return []; }

  @Get('feed')
  @UseGuards(ReaderGuard)
  feed() { return []; }

  @Get('mine')
  @UseGuards(AuthGuard('jwt'))
  mine() { return []; }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual(['GET /posts []', 'GET /posts/feed []', 'GET /posts/mine [auth+bearer]']);
  });

  it("a guard extending AuthGuard('jwt') with a canActivate of its own that hands the request to the base and to a header extractor is bearer when the strategy reads a header (nest-admin's JwtAuthGuard); one reading a cookie is not", async () => {
    const project = (extractor: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'admin', dependencies: { '@nestjs/common': '^10.0.0', '@nestjs/core': '^10.0.0', '@nestjs/passport': '^10.0.0', 'passport-jwt': '4.0.1' } }),
        'src/main.ts': BOOTSTRAP,
        'src/jwt.strategy.ts': `import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor() {
    super({ jwtFromRequest: ${extractor}, secretOrKey: process.env.JWT_SECRET! });
  }
  validate(payload: { uid: number; pv: number }) {
    return { uid: payload.uid, pv: payload.pv };
  }
}
`,
        'src/jwt-auth.guard.ts': `import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ExtractJwt } from 'passport-jwt';

@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  jwtFromRequestFn = ExtractJwt.fromAuthHeaderAsBearerToken();

  constructor(private reflector: Reflector) {
    super();
  }

  async canActivate(context: ExecutionContext): Promise<any> {
    const isPublic = this.reflector.getAllAndOverride<boolean>('isPublic', [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest();
    const token = this.jwtFromRequestFn(request);
    let result: any = false;
    try {
      result = await super.canActivate(context);
    } catch (err) {
      if (isPublic) return true;
      if (!token) throw new UnauthorizedException('not signed in');
      throw err;
    }
    return result;
  }
}
`,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtAuthGuard } from './jwt-auth.guard';
import { JwtStrategy } from './jwt.strategy';
import { MenusController } from './menus.controller';

@Module({ controllers: [MenusController], providers: [JwtStrategy, { provide: APP_GUARD, useClass: JwtAuthGuard }] })
export class AppModule {}
`,
        'src/menus.controller.ts': `import { Body, Controller, Delete, Param, Post } from '@nestjs/common';

@Controller('system/menus')
export class MenusController {
  @Post()
  create(@Body() dto: { name: string }) { return { id: 1, ...dto }; }

  @Delete(':id')
  remove(@Param('id') id: string) { return { id }; }
}
`,
      });
    const kinds = async (extractor: string) => {
      const res = await check(project(extractor));
      return [...res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`), ...res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => f.message)];
    };
    expect(await kinds('ExtractJwt.fromAuthHeaderAsBearerToken()')).toEqual(['POST /system/menus [JwtAuthGuard:auth+bearer]', 'DELETE /system/menus/:id [JwtAuthGuard:auth+bearer]']);
    expect(await kinds('ExtractJwt.fromExtractors([(req) => req?.cookies?.access_token])')).toEqual([
      'POST /system/menus [JwtAuthGuard:auth]',
      'DELETE /system/menus/:id [JwtAuthGuard:auth]',
      'POST /system/menus changes state on the browser session without a CSRF guard',
      'DELETE /system/menus/:id changes state on the browser session without a CSRF guard',
    ]);
  });

  it("a guard whose canActivate returns false when the request carries no credential authenticates (HedgeDoc's ApiTokenGuard): a bearer one when it reads a header only", async () => {
    const guard = (lead: string) => `import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiTokenService } from './api-token.service';

@Injectable()
export class ApiTokenGuard implements CanActivate {
  constructor(private readonly apiTokenService: ApiTokenService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
${lead}
    const [method, token] = authHeader.trim().split(' ');
    if (method !== 'Bearer') {
      return false;
    }
    try {
      request.userId = await this.apiTokenService.getUserIdForToken(token.trim());
      return true;
    } catch {
      return false;
    }
  }
}
`;
    const project = (lead: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'notes', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
        'src/main.ts': BOOTSTRAP,
        'src/app.module.ts': `import { Module } from '@nestjs/common';
import { NotesController } from './notes.controller';

@Module({ controllers: [NotesController] })
export class AppModule {}
`,
        'src/api-token.service.ts': `import { Injectable } from '@nestjs/common';

@Injectable()
export class ApiTokenService {
  async getUserIdForToken(token: string): Promise<number> {
    const row = await globalThis.db.apiTokens.findUnique({ where: { secret: token } });
    if (!row) throw new Error('token not valid');
    return row.userId;
  }
}
`,
        'src/api-token.guard.ts': guard(lead),
        'src/notes.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiTokenGuard } from './api-token.guard';

@UseGuards(ApiTokenGuard)
@Controller('notes')
export class NotesController {
  @Get()
  list() {
    return [];
  }
}
`,
      });
    const rows = async (lead: string) => {
      const res = await check(project(lead));
      return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
    };
    expect(await rows('    const authHeader = request.headers.authorization;\n    if (!authHeader) {\n      return false;\n    }')).toEqual(['GET /notes [ApiTokenGuard:auth+bearer]']);
    expect(await rows('    const authHeader = request.headers.authorization;\n    if (!request.headers.authorization) return false;')).toEqual(['GET /notes [ApiTokenGuard:auth+bearer]']);
    // (a header missing lets the request through: nothing refuses a request without a credential)
    expect(await rows("    const authHeader = request.headers.authorization;\n    if (!authHeader) {\n      return true;\n    }")).toEqual(['GET /notes [ApiTokenGuard:unknown]']);
    // (a test of anything but the credential first: its refusal is no authentication)
    expect(await rows("    if (!request.headers['x-feature']) return false;\n    const authHeader = request.headers.authorization ?? '';")).toEqual(['GET /notes [ApiTokenGuard:unknown]']);
  });

  it("a guard's canActivate inherited from a base class calls the methods the guard overrides: `this` is the guard's instance", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'nest-scoped', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller';

@Module({ controllers: [ReportsController] })
export class AppModule {}
`,
      'src/guards.ts': `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';

type SessionRequest = { session?: { reviewerId?: string } };

export abstract class ScopedGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<SessionRequest>();
    this.assertCaller(request);
    return true;
  }

  protected abstract assertCaller(request: SessionRequest): void;
}

@Injectable()
export class ReviewerGuard extends ScopedGuard {
  protected assertCaller(request: SessionRequest): void {
    if (!request.session?.reviewerId) throw new UnauthorizedException('reviewers only');
  }
}

@Injectable()
export class AnyoneGuard extends ScopedGuard {
  protected assertCaller(_request: SessionRequest): void {}
}
`,
      'src/reports.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { AnyoneGuard, ReviewerGuard } from './guards';

@Controller('reports')
export class ReportsController {
  @Get()
  @UseGuards(ReviewerGuard)
  list() {
    return [];
  }

  @Get('motd')
  @UseGuards(AnyoneGuard)
  motd() {
    return { motd: 'hello' };
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')} — ${g.reason}`).join(', ')}]`)).toEqual([
      'GET /reports [ReviewerGuard:auth — by behaviour (it calls this.assertCaller(): by behaviour (ends the request with 401))]',
      'GET /reports/motd []',
    ]);
  });

  it("a middleware's use that hands a request without the credential on before the checks it calls is no auth guard", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'nest-viewer', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ReportsController } from './reports.controller';
import { MemberMiddleware, ViewerMiddleware } from './session.middleware';

@Module({ controllers: [ReportsController] })
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(ViewerMiddleware).forRoutes('reports/public');
    consumer.apply(MemberMiddleware).forRoutes('reports/mine');
  }
}
`,
      'src/session.middleware.ts': `import { Injectable, NestMiddleware, UnauthorizedException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

type SessionRequest = Request & { session?: { userId?: string } };

@Injectable()
export class ViewerMiddleware implements NestMiddleware {
  use(req: SessionRequest, _res: Response, next: NextFunction) {
    // anonymous visitors see the public reports; a cookie must hold a live session
    if (!req.headers.cookie) return next();
    this.assertSession(req);
    next();
  }

  private assertSession(req: SessionRequest) {
    if (!req.session?.userId) throw new UnauthorizedException('sign in');
  }
}

@Injectable()
export class MemberMiddleware implements NestMiddleware {
  use(req: SessionRequest, _res: Response, next: NextFunction) {
    this.assertSession(req);
    next();
  }

  private assertSession(req: SessionRequest) {
    if (!req.session?.userId) throw new UnauthorizedException('sign in');
  }
}
`,
      'src/reports.controller.ts': `import { Controller, Get } from '@nestjs/common';

@Controller('reports')
export class ReportsController {
  @Get('public')
  featured() {
    return [{ id: 'uptime', title: 'Uptime this month' }];
  }

  @Get('mine')
  mine() {
    return [];
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /reports/mine [MemberMiddleware:auth]',
      'GET /reports/public []',
    ]);
  });

  it('a subclass of AuthGuard whose handleRequest() override returns the user without refusing lets anonymous requests through, whatever its name says; one returning super.handleRequest(…) refuses as the base does (amplication)', async () => {
    // (@nestjs/passport's AuthGuard throws UnauthorizedException in its own handleRequest)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'nest-optional', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { ArticlesController } from './articles.controller';

@Module({ controllers: [ArticlesController] })
export class AppModule {}
`,
      'src/guards.ts': `import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  handleRequest(err: unknown, user: any) {
    return user ?? null;
  }
}

@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  canActivate(context: ExecutionContext) {
    return super.canActivate(context);
  }

  handleRequest(err: unknown, user: any) {
    if (err || !user) throw err || new UnauthorizedException();
    return user;
  }
}

@Injectable()
export class GitHubGate extends AuthGuard('jwt') {
  handleRequest(err: unknown, user: any, info: unknown, context: ExecutionContext, status?: unknown) {
    const request = context.switchToHttp().getRequest();
    request.isNew = Boolean(user?.isNew);
    return super.handleRequest(err, user, info, context, status);
  }
}
`,
      'src/articles.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { GitHubGate, JwtAuthGuard, OptionalJwtAuthGuard } from './guards';

@Controller('articles')
export class ArticlesController {
  @Get()
  @UseGuards(OptionalJwtAuthGuard)
  list() {
    return [];
  }

  @Get('feed')
  @UseGuards(JwtAuthGuard)
  feed() {
    return [];
  }

  @Get('drafts')
  @UseGuards(GitHubGate)
  drafts() {
    return [];
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /articles []',
      'GET /articles/drafts [GitHubGate:auth]',
      'GET /articles/feed [JwtAuthGuard:auth]',
    ]);
  });

  it("a decorator factory's choice of guards read with the arguments of its use, a handleRequest() letting anonymous requests through under metadata the factory sets, and a canActivate letting a request without a user through (swetrix's `@Auth(allowApiKeyAuth, isOptionalAuth)`)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'analytics-api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { ProjectController } from './project.controller';

@Module({ controllers: [ProjectController] })
export class AppModule {}
`,
      'src/auth.ts': `import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';

export const IS_OPTIONAL_AUTH_KEY = 'isOptionalAuth';
export const IS_TWO_FA_NOT_REQUIRED_KEY = 'isTwoFaNotRequired';

@Injectable()
export class JwtAccessTokenGuard extends AuthGuard('jwt-access-token') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  handleRequest(err: any, user: any, info: any, context: ExecutionContext, status?: any) {
    const isOptionalAuth = this.reflector.getAllAndOverride<boolean>(IS_OPTIONAL_AUTH_KEY, [context.getHandler(), context.getClass()]);
    if (isOptionalAuth) {
      if (err) {
        return super.handleRequest(err, user, info, context, status);
      }
      return user;
    }
    return super.handleRequest(err, user, info, context, status);
  }
}

@Injectable()
export class ApiKeyGuard extends AuthGuard('api-key') {}

// (named for authentication, but a check of the second factor of the users there are)
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext) {
    const isTwoFaNotRequired = this.reflector.get<boolean>(IS_TWO_FA_NOT_REQUIRED_KEY, context.getHandler());
    const request = context.switchToHttp().getRequest();
    const user = request.user;
    if (isTwoFaNotRequired) return true;
    if (!user) return true;
    if (user.isTwoFactorAuthenticationEnabled && !user.isSecondFactorAuthenticated) return false;
    return true;
  }
}

export function Auth(allowApiKeyAuth = false, isOptionalAuth = false) {
  return applyDecorators(
    SetMetadata(IS_OPTIONAL_AUTH_KEY, isOptionalAuth),
    allowApiKeyAuth ? UseGuards(ApiKeyGuard, AuthenticationGuard) : UseGuards(JwtAccessTokenGuard, AuthenticationGuard),
  );
}
`,
      'src/project.controller.ts': `import { Controller, Delete, Get, Param } from '@nestjs/common';
import { Auth } from './auth';

@Controller('project')
export class ProjectController {
  @Get()
  @Auth()
  list() {
    return [];
  }

  @Get('/:id/stats')
  @Auth(true)
  stats(@Param('id') id: string) {
    return { id };
  }

  @Get('/:id')
  @Auth(false, true)
  get(@Param('id') id: string) {
    return { id };
  }

  @Delete('/:id')
  @Auth(false, false)
  remove(@Param('id') id: string) {
    return null;
  }
}
`,
    });
    const res = await check(dir);
    // (the optional route is served to anyone: JwtAccessTokenGuard hands a request without a token
    // on, and AuthenticationGuard lets a request without a user through, optional authentication)
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /project [JwtAccessTokenGuard:auth]',
      'DELETE /project/:id [JwtAccessTokenGuard:auth]',
      'GET /project/:id []',
      'GET /project/:id/stats [ApiKeyGuard:auth+bearer]',
    ]);
  });
});

describe('module lists read from a namespace', () => {
  it("imports: [...models.map((model) => registerModel(model))]: what the callback returns for each item (bigcapital's tenancy models, a package's modules; a table's modules)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'ledger', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0', 'nestjs-cls': '^5.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/models.module.ts': `import { Global, Module } from '@nestjs/common';
import { ClsModule } from 'nestjs-cls';

class Account {}
class Invoice {}
const models = [Account, Invoice];

export function RegisterTenancyModel(model: { name: string }) {
  return ClsModule.forFeatureAsync({ provide: model.name, global: true, useFactory: () => () => model });
}

const modelProviders = models.map((model) => RegisterTenancyModel(model));

@Global()
@Module({ imports: [...modelProviders], exports: [...modelProviders] })
export class TenancyModelsModule {}
`,
      'src/features.ts': `import { Controller, Get, Module } from '@nestjs/common';

@Controller('accounts')
export class AccountsController { @Get() list() { return []; } }
@Module({ controllers: [AccountsController] })
export class AccountsModule {}

@Controller('invoices')
export class InvoicesController { @Get() list() { return []; } }
@Module({ controllers: [InvoicesController] })
export class InvoicesModule {}

export const FEATURES = [{ name: 'accounts', module: AccountsModule }, { name: 'invoices', module: InvoicesModule }];
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { TenancyModelsModule } from './models.module';
import { FEATURES } from './features';

@Module({ imports: [TenancyModelsModule, ...FEATURES.map((feature) => feature.module)] })
export class AppModule {}
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['GET /accounts [] src/features.ts:4', 'GET /invoices [] src/features.ts:9']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('controllers: [...Object.values(Controllers)] of import * as Controllers from a barrel are its exports (heyform)', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'forms-api', dependencies: { '@nestjs/common': '^10.4.0', '@nestjs/core': '^10.4.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(8000);
}
bootstrap();
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import * as Controllers from './controller';
import * as Services from './service';

@Module({
  controllers: [...Object.values(Controllers)],
  providers: [...Object.values(Services)],
})
export class AppModule {}
`,
      'src/controller/index.ts': `export * from './health.controller';
export * from './upload.controller';
export { ExportController as SubmissionsExportController } from './export.controller';
`,
      'src/controller/health.controller.ts': `import { Controller, Get } from '@nestjs/common';

@Controller()
export class HealthController {
  @Get('health')
  health() {
    return { ok: true };
  }
}
`,
      'src/controller/upload.controller.ts': `import { Controller, Post, UseGuards } from '@nestjs/common';
import { SessionGuard } from '../guard';

@Controller('upload')
@UseGuards(SessionGuard)
export class UploadController {
  @Post()
  upload() {
    return { ok: true };
  }
}
`,
      'src/controller/export.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { SessionGuard } from '../guard';

@Controller('export')
export class ExportController {
  @Get('submissions')
  @UseGuards(SessionGuard)
  submissions() {
    return [];
  }
}
`,
      'src/guard.ts': `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';

@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest();
    if (!req.session?.userId) throw new UnauthorizedException();
    return true;
  }
}
`,
      'src/service/index.ts': `export * from './forms.service';
`,
      'src/service/forms.service.ts': `import { Injectable } from '@nestjs/common';

@Injectable()
export class FormsService {
  list() {
    return [];
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /export/submissions src/controller/export.controller.ts:6 [SessionGuard:auth]',
      'GET /health src/controller/health.controller.ts:5 []',
      'POST /upload src/controller/upload.controller.ts:7 [SessionGuard:auth]',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});

describe("a guard's canActivate read whole: what it lets through, and whether the base class's refusal reaches the request", () => {
  it("a guard putting on the request what an injected service returns (`request.account = await this.keys.accountFor(…)`) checks what the service's refusal checks; one whose service refuses nothing, nothing", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { ReportsController } from './reports.controller';
@Module({ controllers: [ReportsController], providers: [ApiKeysService] })
export class AppModule {}
`,
      'src/api-keys.service.ts': `import { Injectable, UnauthorizedException } from '@nestjs/common';
import { db } from './db';

@Injectable()
export class ApiKeysService {
  async accountFor(key: string | undefined) {
    if (!key) throw new UnauthorizedException('an API key is required');
    const account = await db.apiKeys.findAccount(key);
    if (!account) throw new UnauthorizedException('unknown API key');
    return account;
  }

  /** The account of a key, when one is sent and known; none otherwise. */
  async maybeAccount(key: string | undefined) {
    return key ? db.apiKeys.findAccount(key) : null;
  }
}
`,
      'src/db.ts': `export const db = { apiKeys: { findAccount: async (key: string) => (key ? { id: 'acct_1' } : null) } };
`,
      'src/gates.ts': `import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';

@Injectable()
export class KeyGate implements CanActivate {
  constructor(private readonly keys: ApiKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    request.account = await this.keys.accountFor(request.headers['x-api-key']);
    return true;
  }
}

@Injectable()
export class AccountLoader implements CanActivate {
  constructor(private readonly keys: ApiKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    request.account = await this.keys.maybeAccount(request.headers['x-api-key']);
    return true;
  }
}
`,
      'src/reports.controller.ts': `import { Controller, Get, UseGuards } from '@nestjs/common';
import { AccountLoader, KeyGate } from './gates';

@Controller('reports')
export class ReportsController {
  @Get('usage')
  @UseGuards(KeyGate)
  usage() {
    return [];
  }

  @Get('public')
  @UseGuards(AccountLoader)
  summary() {
    return [];
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')} (${g.reason})`).join(', ') || '-'}`)).toEqual([
      'GET /reports/public -',
      // (the key read from a request header, handed to the service refusing it: a credential no browser sends by itself)
      'GET /reports/usage KeyGate:auth+bearer (by behaviour (it calls this.keys.accountFor(): by behaviour (ends the request with 401; on a credential the handler reads from a request header only)))',
    ]);
  });

  it("an AuthGuard('jwt') subclass letting what super.canActivate throws go is no auth guard, whatever its name; nor one calling it only through such a guard; one passing it on stays auth", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0', '@nestjs/jwt': '^11.0.0', 'passport-jwt': '^4.0.1' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';
@Module({ controllers: [DocsController] })
export class AppModule {}
`,
      'src/guards.ts': `import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

/** The token, when one is sent; anonymous readers go on. */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return (await super.canActivate(context)) as boolean;
    } catch {
      return true;
    }
  }
}

@Injectable()
export class ViewerGuard extends AuthGuard('jwt') {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      await super.canActivate(context);
    } catch (err) {
      context.switchToHttp().getRequest().anonymous = true;
    }
    return true;
  }
}

/** Loads the viewer through ViewerGuard, then checks the link is still live. */
@Injectable()
export class SharedLinkGuard extends ViewerGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    return true;
  }
}

@Injectable()
export class ReviewerGuard extends AuthGuard('jwt') {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    if (request.headers['x-preview'] === '1') return true;
    return (await super.canActivate(context)) as boolean;
  }
}

@Injectable()
export class StrictJwtGuard extends AuthGuard('jwt') {}

/** Anonymous readers only where the deployment allows them: a refusal by its answer otherwise. */
@Injectable()
export class DeploymentJwtGuard extends AuthGuard('jwt') {
  constructor(private readonly settings: { anonymousReads: boolean }) {
    super();
  }
  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return (await super.canActivate(context)) as boolean;
    } catch {
      return this.settings.anonymousReads;
    }
  }
}

/** Sets the user when there is one: the answer of DeploymentJwtGuard is dropped. */
@Injectable()
export class LinkPreviewGuard extends DeploymentJwtGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    return true;
  }
}

/** A signed-in user, or an upload token. */
@Injectable()
export class UploadGuard extends DeploymentJwtGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (await super.canActivate(context)) return true;
    const token = context.switchToHttp().getRequest().cookies?.upload_token;
    return token === 'granted';
  }
}

/** Loads the user when a token is sent; never refuses. */
@Injectable()
export class OptionalUserAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const token = request.cookies?.token;
    if (!token) {
      request.user = null;
      return true;
    }
    try {
      request.user = await decode(token);
    } catch {
      request.user = null;
    }
    return true;
  }
}

/** The same body, but the token's check outside the try: a bad token is refused. */
@Injectable()
export class CookieAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    request.user = await verifySession(request.cookies?.sid);
    return true;
  }
}

async function decode(token: string) { return { id: token }; }
async function verifySession(sid: string | undefined) {
  if (!sid) throw new UnauthorizedException();
  return { id: sid };
}
`,
      'src/docs.controller.ts': `import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { CookieAuthGuard, DeploymentJwtGuard, LinkPreviewGuard, OptionalJwtAuthGuard, OptionalUserAuthGuard, ReviewerGuard, SharedLinkGuard, StrictJwtGuard, UploadGuard, ViewerGuard } from './guards';

@Controller('docs')
export class DocsController {
  @Get('feed') @UseGuards(OptionalJwtAuthGuard) feed() { return []; }
  @Get('viewer') @UseGuards(ViewerGuard) viewer() { return []; }
  @Get('shared/:id') @UseGuards(SharedLinkGuard) shared(@Param('id') id: string) { return { id }; }
  @Get('review') @UseGuards(ReviewerGuard) review() { return []; }
  @Get('mine') @UseGuards(StrictJwtGuard) mine() { return []; }
  @Get('files/:id') @UseGuards(OptionalUserAuthGuard) file(@Param('id') id: string) { return { id }; }
  @Get('session') @UseGuards(CookieAuthGuard) session() { return {}; }
  @Get('drafts') @UseGuards(DeploymentJwtGuard) drafts() { return []; }
  @Get('preview/:id') @UseGuards(LinkPreviewGuard) preview(@Param('id') id: string) { return { id }; }
  @Get('upload') @UseGuards(UploadGuard) upload() { return {}; }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}`)).toEqual([
      '/docs/drafts DeploymentJwtGuard:auth',
      '/docs/feed ',
      '/docs/files/:id ',
      '/docs/mine StrictJwtGuard:auth',
      '/docs/preview/:id ',
      '/docs/review ReviewerGuard:auth',
      '/docs/session CookieAuthGuard:auth',
      '/docs/shared/:id ',
      '/docs/upload UploadGuard:auth',
      '/docs/viewer ',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.line)).toEqual([6, 7, 8, 11, 14]);
  });
});

describe('nest-keycloak-connect', () => {
  it("its AuthGuard, global or extended, lets through what @Public() or @Unprotected() marks, on the handler or the class (META_UNPROTECTED, the class's first)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', 'nest-keycloak-connect': '^1.10.1' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard, KeycloakConnectModule } from 'nest-keycloak-connect';
import { CampaignsController, CitiesController } from './campaigns.controller';
import { PaymentsModule } from './payments.module';

@Module({
  imports: [KeycloakConnectModule.register({ authServerUrl: process.env.KC_URL, realm: 'app', clientId: 'api', secret: process.env.KC_SECRET }), PaymentsModule],
  controllers: [CampaignsController, CitiesController],
  providers: [{ provide: APP_GUARD, useClass: AuthGuard }],
})
export class AppModule {}
`,
      'src/campaigns.controller.ts': `import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { Public, Unprotected } from 'nest-keycloak-connect';

@Controller('campaigns')
export class CampaignsController {
  @Get()
  @Public()
  list() { return []; }

  @Get(':slug')
  @Unprotected(false)
  bySlug(@Param('slug') slug: string) { return { slug }; }

  @Post()
  create(@Body() body: { title: string }) { return body; }
}

@Controller('cities')
@Public()
export class CitiesController {
  @Get()
  list() { return []; }
}
`,
      'src/payments.module.ts': `import { Controller, Get, Injectable, Module, UseGuards } from '@nestjs/common';
import { AuthGuard, Public } from 'nest-keycloak-connect';

@Injectable()
export class KeycloakAuthGuard extends AuthGuard {}

@Controller('payments')
@UseGuards(KeycloakAuthGuard)
export class PaymentsController {
  @Get()
  list() { return []; }

  @Get('methods')
  @Public()
  methods() { return ['card']; }
}

@Module({ controllers: [PaymentsController] })
export class PaymentsModule {}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}`)).toEqual([
      'GET /campaigns ',
      'POST /campaigns AuthGuard:auth',
      'GET /campaigns/:slug ',
      'GET /cities ',
      'GET /payments AuthGuard:auth, KeycloakAuthGuard:auth',
      'GET /payments/methods ',
    ]);
  });
});

describe('@golevelup/nestjs-stripe', () => {
  it("StripeModule.forRoot/forRootAsync declares its webhook controller: POST <controllerPrefix>/webhook under the global prefix, behind the global guards but those its decorators opt out of, the package's signature check a webhook guard", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@golevelup/nestjs-stripe': '^1.1.1' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule, { rawBody: true });
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
void bootstrap();
`,
      'src/public.ts': `import { SetMetadata } from '@nestjs/common';
export const IS_PUBLIC = 'isPublic';
export const Public = () => SetMetadata(IS_PUBLIC, true);
`,
      'src/session.guard.ts': `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from './public';

@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    if (!context.switchToHttp().getRequest().session?.userId) throw new UnauthorizedException();
    return true;
  }
}
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { StripeModule } from '@golevelup/nestjs-stripe';
import { BillingModule } from './billing.module';
import { Public } from './public';
import { SessionGuard } from './session.guard';

@Module({
  imports: [
    StripeModule.forRoot({
      apiKey: process.env.STRIPE_KEY!,
      webhookConfig: { stripeSecrets: { account: process.env.STRIPE_WHSEC! }, requestBodyProperty: 'rawBody', decorators: [Public()] },
    }),
    BillingModule,
  ],
  providers: [{ provide: APP_GUARD, useClass: SessionGuard }],
})
export class AppModule {}
`,
      'src/billing.module.ts': `import { Module } from '@nestjs/common';
import { StripeModule } from '@golevelup/nestjs-stripe';

@Module({
  imports: [
    StripeModule.forRootAsync({
      useFactory: () => ({ apiKey: process.env.STRIPE_CONNECT_KEY!, webhookConfig: { controllerPrefix: 'connect/stripe', stripeSecrets: { connect: process.env.STRIPE_CONNECT_WHSEC! } } }),
    }),
  ],
})
export class BillingModule {}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.classification} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'POST /api/connect/stripe/webhook excluded src/billing.module.ts:6 [SessionGuard:auth, StripeWebhookController:family]',
      'POST /api/stripe/webhook excluded src/app.module.ts:10 [StripeWebhookController:family]',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'excluded-family-leak' || f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("a controller's second handler of one method and path never runs (Nest's route proxy hands nothing on but through @Next()): it is no route (Maintainerr's two @Post() of RulesController)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { RulesController } from './rules.controller';

@Module({ controllers: [RulesController] })
export class AppModule {}
`,
      'src/rules.controller.ts': `import { Body, Controller, Get, Next, Param, Post, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { NextFunction } from 'express';

@Controller('api/rules')
export class RulesController {
  @Post()
  @UseGuards(AuthGuard('jwt'))
  async setRules(@Body() body: { name: string }) {
    return { saved: body.name };
  }

  @Get('/count')
  count() {
    return 3;
  }

  @Get('/:id')
  @UseGuards(AuthGuard('jwt'))
  getRule(@Param('id') id: string, @Next() next: NextFunction) {
    if (id === 'latest') return next();
    return { id };
  }

  @Post()
  async updateJob(@Body() body: { cron: string }) {
    return { cron: body.cron };
  }

  @Get('/:id')
  getRuleFallback(@Param('id') id: string) {
    return { id, fallback: true };
  }
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual([
      'POST /api/rules RulesController.setRules [AuthGuard]',
      'GET /api/rules/:id RulesController.getRule [AuthGuard]',
      'GET /api/rules/:id RulesController.getRuleFallback []',
      'GET /api/rules/count RulesController.count []',
    ]);
  });

  it('a controllerPrefix not known statically (the factory of forRootAsync returns what a service reads) lists the route without it, a step of its prefixes saying so', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@golevelup/nestjs-stripe': '^1.1.1' } }),
      'src/main.ts': BOOTSTRAP,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { StripeModule } from '@golevelup/nestjs-stripe';
import { readStripeOptions } from './stripe-options';

@Module({ imports: [StripeModule.forRootAsync({ useFactory: readStripeOptions })] })
export class AppModule {}
`,
      'src/stripe-options.ts': `export function readStripeOptions() {
  return JSON.parse(process.env.STRIPE_OPTIONS ?? '{}');
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.prefixes.map((p) => p.unknown ?? p.prefix).join(',')}`)).toEqual([
      'POST /webhook webhookConfig.controllerPrefix of StripeModule is not known statically',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      "src/app.module.ts:5 the path of @golevelup/nestjs-stripe's webhook controller is not known statically; its route is listed without it",
    ]);
  });
});
