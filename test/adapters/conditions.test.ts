/**
 * Registrations made under conditions (link/conditions.ts): a guard applied only when a setting
 * holds (`if (config.authEnabled) app.use(requireSession)`) does not guard the routes — they are
 * served without it when the setting is off — unless the routes are registered under the same
 * condition; a branch whose condition is known statically (a constant, the argument a call
 * passes) is taken or left out as the code would; a condition read from the environment, a
 * configuration file or a call is never decided.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, cli } from '../helpers/run.js';
import { routeLinesAt as lines } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const GUARDS = `import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}

export function requireTenant(req: Request, res: Response, next: NextFunction) {
  if (req.params.tenantId !== req.session.activeTenantId) return res.status(404).json({ error: 'not found' });
  next();
}

export function requireOpsToken(req: Request, res: Response, next: NextFunction) {
  if (req.get('x-ops-token') !== process.env.OPS_TOKEN) return res.status(401).end();
  next();
}
`;

const CONFIG = `import fs from 'node:fs';

export interface Config {
  authEnabled: boolean;
  authMode: 'session' | 'none';
  billing: boolean;
}

export function loadConfig(): Config {
  return JSON.parse(fs.readFileSync(process.env.CONFIG_FILE ?? 'config.json', 'utf8'));
}

/** Switches fixed at build time. */
export const FEATURES = { heapDump: false, opsRoutes: true } as const;
`;

const SITES = `import { Router } from 'express';

export const sitesRouter = Router({ mergeParams: true });

sitesRouter.get('/', async (req, res) => {
  res.json({ items: [], tenant: req.params.tenantId });
});

sitesRouter.post('/:siteId/deploy', async (req, res) => {
  res.status(202).json({ site: req.params.siteId });
});
`;

const OPS = `import { Router, type Express } from 'express';
import { requireOpsToken } from './middleware/guards';

interface OpsOptions {
  protect: boolean;
}

/** Mounts the operator routes; without protection only in development. */
export function mountOps(app: Express, options: OpsOptions) {
  if (!options.protect) return;
  const ops = Router();
  ops.get('/queues', (req, res) => res.json({ depth: 0 }));
  app.use('/internal/ops', requireOpsToken, ops);
}

export function mountBilling(app: Express) {
  const billing = Router();
  billing.get('/invoices', (req, res) => res.json({ items: [] }));
  app.use('/api/tenants/:tenantId/billing', billing);
}
`;

const APP = `import express from 'express';
import { FEATURES, loadConfig } from './config';
import { requireSession, requireTenant } from './middleware/guards';
import { mountBilling, mountOps } from './ops';
import { sitesRouter } from './sites';

const config = loadConfig();
export const app = express();

app.use(express.json());
if (config.authEnabled) {
  app.use('/api', requireSession);
}
app.use('/api/tenants/:tenantId', requireTenant);
app.use('/api/tenants/:tenantId/sites', sitesRouter);

// a heap dump route for debugging, switched off at build time
if (FEATURES.heapDump) {
  app.get('/internal/debug/heap', (req, res) => res.json(process.memoryUsage()));
}

if (FEATURES.opsRoutes) mountOps(app, { protect: true });

if (config.billing) {
  app.use('/api/tenants/:tenantId/billing', requireSession);
  mountBilling(app);
}

switch (config.authMode) {
  case 'none':
    app.get('/api/whoami', (req, res) => res.json({ user: 'anonymous' }));
    break;
  case 'session':
    app.get('/api/whoami', requireSession, (req, res) => res.json({ user: req.session.userId }));
    break;
}

app.listen(3000);
`;

const SERVER = {
  'package.json': EXPRESS_PACKAGE,
  'src/app.ts': APP,
  'src/config.ts': CONFIG,
  'src/sites.ts': SITES,
  'src/ops.ts': OPS,
  'src/middleware/guards.ts': GUARDS,
};

/** Each route with its guards, then the guards applied only under a condition, with it. */
const guardRows = (res: Awaited<ReturnType<typeof check>>): string[] =>
  res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name)}] [${(r.conditionalGuards ?? []).map((g) => `${g.name} when ${g.when}`)}]`);

describe('registrations under conditions', () => {
  it('lists the routes each branch may serve and leaves out what a condition known statically rules out', async () => {
    const res = await check(writeProject(SERVER));
    expect(lines(res)).toEqual([
      // registered under `config.billing` (by a call made under it), as the guard before it is: guarded
      'GET /api/tenants/:tenantId/billing/invoices [requireTenant, requireSession] src/ops.ts:18',
      // `requireSession` only when `config.authEnabled`: not among the guards
      'GET /api/tenants/:tenantId/sites/ [requireTenant] src/sites.ts:5',
      'POST /api/tenants/:tenantId/sites/:siteId/deploy [requireTenant] src/sites.ts:9',
      // both cases of the switch may be served
      'GET /api/whoami [] src/app.ts:31',
      'GET /api/whoami [requireSession] src/app.ts:34',
      // `if (!options.protect) return;` with `{ protect: true }`: made, and its guard is not conditional;
      // the heap route, switched off at build time, is not served
      'GET /internal/ops/queues [requireOpsToken] src/ops.ts:12',
    ]);
    const sites = res.routes.find((r) => r.path === '/api/tenants/:tenantId/sites/')!;
    expect(sites.conditionalGuards!.map((g) => [g.name, g.kinds, g.when, `${g.file}:${g.line}`])).toEqual([['requireSession', ['auth'], 'config.authEnabled', 'src/app.ts:12']]);
    // every route under /api may be served without the session check (the operator routes are not under it)
    expect(res.routes.filter((r) => r.conditionalGuards).map((r) => `${r.method} ${r.path} ${r.conditionalGuards!.map((g) => `${g.name}@${g.line}`)}`)).toEqual([
      'GET /api/tenants/:tenantId/billing/invoices requireSession@12',
      'GET /api/tenants/:tenantId/sites/ requireSession@12',
      'POST /api/tenants/:tenantId/sites/:siteId/deploy requireSession@12',
      'GET /api/whoami requireSession@12',
      'GET /api/whoami requireSession@12',
    ]);
    const findings = res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.line} ${f.message}`);
    expect(findings).toContain(
      '5 GET /api/tenants/:tenantId/sites/ has no auth guard (requireSession is one, but applied only when `config.authEnabled`, which is not known statically: src/app.ts:12)',
    );
  });

  it('decides a condition on constants and call arguments, and never on a call, a reassigned name or the environment', async () => {
    const both = ['GET /internal/debug/heap', 'GET /internal/ops/queues'];
    const variants: [string, string, string[]][] = [
      // as written: the heap route switched off at build time, the operator routes protected
      ['src/app.ts', APP, ['GET /internal/ops/queues']],
      // the build-time switch turned on: the debug route is served
      ['src/config.ts', CONFIG.replace('heapDump: false', 'heapDump: true'), both],
      // protection turned off: `return` before anything is registered
      ['src/app.ts', APP.replace('{ protect: true }', '{ protect: false }'), []],
      // a value only a call gives (`isEnabled()` may answer either): both ways possible
      ['src/app.ts', APP.replace('if (FEATURES.heapDump)', 'if (isEnabled())').replace("import express from 'express';", "import express from 'express';\nfunction isEnabled() { if (process.env.HEAP) return true; return false; }"), both],
      // a name set again later is not its first value
      ['src/app.ts', APP.replace('if (FEATURES.heapDump)', "let heapMode = 'off';\nheapMode = process.env.HEAP_MODE ?? 'off';\nif (heapMode === 'on')"), both],
      // the environment is never known statically
      ['src/app.ts', APP.replace('if (FEATURES.heapDump)', "if (process.env.NODE_ENV !== 'production')"), both],
    ];
    for (const [file, text, internal] of variants) {
      const res = await check(writeProject({ ...SERVER, [file]: text }));
      expect(res.routes.filter((r) => r.path.startsWith('/internal/')).map((r) => `${r.method} ${r.path}`).sort()).toEqual(internal);
    }
  });

  it('a name given another value under a condition holds either value: each router it may be is mounted, each path it may be taken, one a constant condition picks alone', async () => {
    const routes = `import { Router } from 'express';

export const sitesV1 = Router();
sitesV1.get('/sites', (req, res) => res.json([]));
export const sitesV2 = Router();
sitesV2.get('/projects', (req, res) => res.json([]));
`;
    const app = (head: string) => `import express from 'express';
import { sitesV1, sitesV2 } from './routes';
${head}
export const app = express();
let api;
if (API_VERSION === 2) {
  api = sitesV2;
} else {
  api = sitesV1;
}
app.use('/api', api);
let opsPrefix = '/internal';
if (process.env.LEGACY_OPS) opsPrefix = '/legacy';
app.use(opsPrefix, sitesV1);
app.use('/next', process.env.NEXT === 'on' ? sitesV2 : sitesV1);
`;
    const undecided = await check(writeProject({ 'package.json': EXPRESS_PACKAGE, 'src/routes.ts': routes, 'src/app.ts': app('const API_VERSION = Number(process.env.API_VERSION);') }));
    expect(undecided.routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/projects',
      'GET /api/sites',
      'GET /internal/sites',
      'GET /legacy/sites',
      'GET /next/projects',
      'GET /next/sites',
    ]);
    expect(undecided.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
    // a constant decides it: v2 alone under /api
    const decided = await check(writeProject({ 'package.json': EXPRESS_PACKAGE, 'src/routes.ts': routes, 'src/app.ts': app('const API_VERSION = 2;') }));
    expect(decided.routes.filter((r) => r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/projects']);
  });

  it("a mount of either a middleware or a router (growi's `use('/installer', isInstalled ? allreadyInstalledMiddleware : require('./installer')(crowi))`): the router is mounted", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/guards.ts': GUARDS,
        'src/installer.ts': `import { Router } from 'express';

export default function installer(db: { init(body: unknown): Promise<void> }) {
  const router = Router();
  router.post('/', async (req, res) => {
    await db.init(req.body);
    res.status(201).json({ installed: true });
  });
  return router;
}
`,
        'src/app.ts': `import express, { type NextFunction, type Request, type Response } from 'express';
import installer from './installer';
import { requireSession } from './guards';

const db = { init: async (body: unknown) => {} };
const isInstalled = process.env.INSTALLED === 'true';

export function alreadyInstalled(req: Request, res: Response, next: NextFunction) {
  if (req.method === 'POST') return res.status(409).json({ message: 'Application is already installed' });
  next();
}

const admin = express.Router();
admin.use('/installer', isInstalled ? alreadyInstalled : installer(db));
admin.get('/installer/status', requireSession, (req, res) => res.json({ installed: isInstalled }));
export const app = express();
app.use('/_api/v3', admin);
`,
      }),
    );
    // (the middleware answers 409 and hands the rest on: no guard, and none of the router's routes)
    expect(lines(res)).toEqual(['POST /_api/v3/installer/ [] src/installer.ts:5', 'GET /_api/v3/installer/status [requireSession] src/app.ts:15']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('what is registered on a name that is one of several apps is registered on each, also through a helper handed a path', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.ts': `import express from 'express';

let app;
if (process.env.BEHIND_PROXY) {
  app = express();
  app.set('trust proxy', 1);
} else {
  app = express();
}
app.get('/api/health/ready', (req, res) => res.json({ ok: true }));

function mountStatus(path: string) {
  app.get(path, (req, res) => res.json({ status: 'up' }));
}
mountStatus('/status');
export default app;
`,
      }),
    );
    // (both apps serve both routes, alike: one app either way, each route listed once)
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.app}`)).toEqual(['GET /api/health/ready src/app.ts:10 app', 'GET /status src/app.ts:15 app']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("a route's middleware chosen by a test not decided statically (LibreChat's `allowSharedLinksPublic ? (req, res, next) => next() : requireJwtAuth`): the guard of one branch applies only when it is taken; two alike apply either way", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/guards.ts': GUARDS,
        'src/middleware/local.ts': `import type { NextFunction, Request, Response } from 'express';

export function requireLocalAuth(req: Request, res: Response, next: NextFunction) {
  if (!req.body?.password) return res.status(401).json({ message: 'Missing credentials' });
  next();
}

export function requireLdapAuth(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.authorization) return res.status(401).json({ message: 'Missing credentials' });
  next();
}
`,
        'src/app.ts': `import express from 'express';
import { requireSession } from './middleware/guards';
import { requireLdapAuth, requireLocalAuth } from './middleware/local';

const allowSharedLinksPublic = process.env.ALLOW_SHARED_LINKS_PUBLIC === 'true';
const ldapAuth = !!process.env.LDAP_URL;
const app = express();
app.get('/api/share/:shareId', allowSharedLinksPublic ? (req, res, next) => next() : requireSession, (req, res) => res.json({ shareId: req.params.shareId }));
app.get('/api/share/link/:conversationId', allowSharedLinksPublic ? requireSession : (req, res, next) => next(), (req, res) => res.json({}));
app.post('/api/auth/refresh', ldapAuth ? requireLdapAuth : requireLocalAuth, (req, res) => res.json({ token: 'fresh' }));
app.listen(3080);
`,
      }),
    );
    expect(guardRows(res)).toEqual([
      'POST /api/auth/refresh [requireLdapAuth or requireLocalAuth] []',
      'GET /api/share/:shareId [] [requireSession when !(allowSharedLinksPublic)]',
      'GET /api/share/link/:conversationId [] [requireSession when allowSharedLinksPublic]',
    ]);
  });

  it("a middleware factory's switch decided by the argument its call passes (AnythingLLM's `flexUserRoleValid([ROLES.all])`, `if (allowedRoles.includes(ROLES.all)) { next(); return; }`)", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middleware/roles.ts': `import type { NextFunction, Request, Response } from 'express';

export const ROLES = { all: '<all>', admin: 'admin', manager: 'manager' } as const;
const DEFAULT_ROLES: string[] = [ROLES.admin];

export function flexUserRoleValid(allowedRoles: string[] = DEFAULT_ROLES) {
  return async (req: Request, res: Response, next: NextFunction) => {
    // open to everyone: no check at all
    if (allowedRoles.includes(ROLES.all)) {
      next();
      return;
    }
    const user = req.session?.user;
    if (user && allowedRoles.includes(user.role)) return next();
    return res.sendStatus(401);
  };
}
`,
        'src/app.ts': `import express from 'express';
import { flexUserRoleValid, ROLES } from './middleware/roles';

const app = express();
app.get('/api/system/logo', flexUserRoleValid([ROLES.all]), (req, res) => res.sendFile('/srv/logo.png'));
app.get('/api/admin/users', flexUserRoleValid([ROLES.admin, ROLES.manager]), (req, res) => res.json({ users: [] }));
app.get('/api/admin/settings', flexUserRoleValid(), (req, res) => res.json({ settings: {} }));
app.get('/api/system/env', flexUserRoleValid(JSON.parse(process.env.ROLES ?? '[]')), (req, res) => res.json({}));
app.listen(3001);
`,
      }),
    );
    expect(guardRows(res)).toEqual([
      // the default list, and a list without ROLES.all: the check always applies
      'GET /api/admin/settings [flexUserRoleValid] []',
      'GET /api/admin/users [flexUserRoleValid] []',
      // a list not known statically: the check applies only when the test fails
      'GET /api/system/env [] [flexUserRoleValid when !allowedRoles.includes(ROLES.all)]',
      // the list holds ROLES.all: every request handed on unchecked
      'GET /api/system/logo [] []',
    ]);
  });

  it("a factory's switch after a check of the signed-in user that ends the request either way (growi's loginRequired(crowi, isGuestAllowed)), decided also for a middleware listed by a function returning a route's handlers", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/middlewares/login-required.js': `module.exports = (crowi, isGuestAllowed = false) => {
  return function(req, res, next) {
    if (req.user != null && '_id' in req.user) {
      if (req.user.status === 'active') return next();
      return res.redirect('/login#suspended');
    }
    // guests may read when the wiki's ACL allows it
    if (isGuestAllowed && crowi.aclService.isGuestAllowedToRead()) {
      return next();
    }
    return res.sendStatus(403);
  };
};
`,
        'src/routes/pages.js': `const express = require('express');

const pageListFactory = (crowi) => {
  const loginRequiredStrictly = require('../middlewares/login-required')(crowi);
  return [loginRequiredStrictly, (req, res) => res.json({ pages: [] })];
};

module.exports = (crowi) => {
  const router = express.Router();
  const loginRequired = require('../middlewares/login-required')(crowi, true);
  const loginRequiredStrictly = require('../middlewares/login-required')(crowi);
  router.get('/page', loginRequired, (req, res) => res.json({ page: null }));
  router.put('/page', loginRequiredStrictly, (req, res) => res.json({ ok: true }));
  router.get('/list', pageListFactory(crowi));
  return router;
};
`,
        'src/app.js': `const express = require('express');
const crowi = require('./crowi');

const app = express();
app.use('/_api/v3', require('./routes/pages')(crowi));
app.listen(3000);
`,
        'src/crowi.js': `module.exports = { aclService: { isGuestAllowedToRead: () => process.env.GUEST_READ === 'true' } };
`,
      }),
    );
    expect(guardRows(res)).toEqual([
      'GET /_api/v3/list [loginRequiredStrictly] []',
      // guests read it when the wiki's setting allows: the check applies only otherwise
      'GET /_api/v3/page [] [loginRequired when !(isGuestAllowed && crowi.aclService.isGuestAllowedToRead())]',
      'PUT /_api/v3/page [loginRequiredStrictly] []',
    ]);
  });

  it('takes the case of a switch on a constant, falling through as JavaScript does', async () => {
    const whoami = async (app: string): Promise<string[]> =>
      lines(await check(writeProject({ ...SERVER, 'src/app.ts': app }))).filter((l) => l.startsWith('GET /api/whoami'));
    expect(await whoami(APP.replace('switch (config.authMode)', "const AUTH_MODE: string = 'session';\nswitch (AUTH_MODE)"))).toEqual(['GET /api/whoami [requireSession] src/app.ts:35']);
    expect(await whoami(APP.replace('switch (config.authMode)', "const AUTH_MODE: string = 'none';\nswitch (AUTH_MODE)"))).toEqual(['GET /api/whoami [] src/app.ts:32']);
    // `case 'none':` without its `break` falls into the next case
    expect(await whoami(APP.replace('switch (config.authMode)', "const AUTH_MODE: string = 'none';\nswitch (AUTH_MODE)").replace('    break;\n  case', '  case'))).toEqual([
      'GET /api/whoami [] src/app.ts:32',
      'GET /api/whoami [requireSession] src/app.ts:34',
    ]);
  });

  it('moves a guard a conditional call applies, and keeps one applied in the else of a known condition', async () => {
    const installer = `import type { Express } from 'express';
import { requireSession } from './middleware/guards';

export function installAuth(app: Express) {
  app.use('/api', requireSession);
}
`;
    const app = APP.replace("if (config.authEnabled) {\n  app.use('/api', requireSession);\n}", 'if (config.authEnabled) installAuth(app);').replace(
      "import { sitesRouter } from './sites';",
      "import { sitesRouter } from './sites';\nimport { installAuth } from './install-auth';",
    );
    const res = await check(writeProject({ ...SERVER, 'src/app.ts': app, 'src/install-auth.ts': installer }));
    const sites = res.routes.find((r) => r.path === '/api/tenants/:tenantId/sites/')!;
    expect(sites.guards.map((g) => g.name)).toEqual(['requireTenant']);
    expect(sites.conditionalGuards!.map((g) => [g.name, g.when, `${g.file}:${g.line}`])).toEqual([['requireSession', 'config.authEnabled', 'src/install-auth.ts:5']]);

    // handed over in an object, by a call made under the condition
    const inObject = {
      ...SERVER,
      'src/app.ts': app.replace('installAuth(app)', 'installAuth({ app, config })').replace('mountBilling(app);', 'mountBilling(app);\n  mountDebug({ app });').replace(
        "import { installAuth } from './install-auth';",
        "import { installAuth } from './install-auth';\nimport { mountDebug } from './debug';",
      ).replace('if (config.billing) {', 'if (config.billing && FEATURES.heapDump) {'),
      'src/install-auth.ts': installer.replace('installAuth(app: Express)', 'installAuth({ app }: { app: Express; config: unknown })'),
      'src/debug.ts': `import type { Express } from 'express';\n\nexport function mountDebug(deps: { app: Express }) {\n  deps.app.get('/internal/debug/heap', (req, res) => res.json(process.memoryUsage()));\n}\n`,
    };
    const res1 = await check(writeProject(inObject));
    const sites1 = res1.routes.find((r) => r.path === '/api/tenants/:tenantId/sites/')!;
    expect(sites1.guards.map((g) => g.name)).toEqual(['requireTenant']);
    expect(sites1.conditionalGuards!.map((g) => [g.name, g.when, `${g.file}:${g.line}`])).toEqual([['requireSession', 'config.authEnabled', 'src/install-auth.ts:5']]);
    // `config.billing && FEATURES.heapDump` with the constant false: neither billing nor the debug route is made
    expect(res1.routes.filter((r) => /billing|debug/.test(r.path))).toEqual([]);
    // passed on by a function that makes the call under a condition of its own
    const passedOn = `import type { Express } from 'express';
import { requireSession } from './middleware/guards';

export function installAuth(deps: { app: Express; config: unknown }) {
  if (process.env.AUTH_MODE !== 'none') applyAuth(deps);
}

function applyAuth({ app }: { app: Express }) {
  app.use('/api', requireSession);
}
`;
    const resPassed = await check(writeProject({ ...inObject, 'src/install-auth.ts': passedOn }));
    expect(resPassed.routes.find((r) => r.path === '/api/tenants/:tenantId/sites/')!.conditionalGuards!.map((g) => [g.name, g.when])).toEqual([
      ['requireSession', "config.authEnabled && process.env.AUTH_MODE !== 'none'"],
    ]);

    const known = APP.replace("if (config.authEnabled) {\n  app.use('/api', requireSession);\n}", "if (FEATURES.heapDump) {\n  app.use('/api', express.static('public'));\n} else {\n  app.use('/api', requireSession);\n}");
    const res2 = await check(writeProject({ ...SERVER, 'src/app.ts': known }));
    const sites2 = res2.routes.find((r) => r.path === '/api/tenants/:tenantId/sites/')!;
    expect(sites2.guards.map((g) => g.name)).toEqual(['requireSession', 'requireTenant']);
    expect(sites2.conditionalGuards).toBeUndefined();
  });

  it('reads `&&`, `||` and `? :` statements as conditions, as it reads an if', async () => {
    const app = APP.replace("if (config.authEnabled) {\n  app.use('/api', requireSession);\n}", "config.authEnabled && app.use('/api', requireSession);")
      .replace(
        "app.use('/api/tenants/:tenantId/sites', sitesRouter);",
        "config.sitesFrozen ? app.use('/api/tenants/:tenantId/sites', requireSession) : app.use('/api/tenants/:tenantId/sites', sitesRouter);",
      )
      .replace('if (FEATURES.heapDump) {', 'FEATURES.heapDump && (')
      .replace("res.json(process.memoryUsage()));\n}", "res.json(process.memoryUsage())));\n!FEATURES.heapDump || app.get('/internal/debug/gc', (req, res) => res.status(204).end());")
      .replace(
        'if (FEATURES.opsRoutes) mountOps(app, { protect: true });',
        "FEATURES.opsRoutes ? mountOps(app, { protect: true }) : app.get('/internal/ops/disabled', (req, res) => res.status(404).end());",
      )
      .replace(
        'switch (config.authMode) {',
        "config.authMode === 'session' ? app.use('/api/profile', requireSession) : app.use('/api/profile', express.urlencoded());\napp.get('/api/profile', (req, res) => res.json({ user: req.session?.userId }));\n\nswitch (config.authMode) {",
      );
    const res = await check(writeProject({ ...SERVER, 'src/app.ts': app }));
    expect(lines(res)).toEqual([
      'GET /api/profile [] src/app.ts:28',
      'GET /api/tenants/:tenantId/billing/invoices [requireTenant, requireSession] src/ops.ts:18',
      'GET /api/tenants/:tenantId/sites/ [requireTenant] src/sites.ts:5',
      'POST /api/tenants/:tenantId/sites/:siteId/deploy [requireTenant] src/sites.ts:9',
      'GET /api/whoami [] src/app.ts:32',
      'GET /api/whoami [requireSession] src/app.ts:35',
      // `FEATURES.heapDump && …` and `!FEATURES.heapDump || …` with the constant false: not served;
      // `FEATURES.opsRoutes ? mountOps(…) : …` with the constant true: mounted, and the other branch not
      'GET /internal/ops/queues [requireOpsToken] src/ops.ts:12',
    ]);
    const sites = res.routes.find((r) => r.path === '/api/tenants/:tenantId/sites/')!;
    // (the guard in the first branch of the ternary is on the line the sites are mounted on, by the second)
    expect(sites.conditionalGuards!.map((g) => [g.name, g.when, `${g.file}:${g.line}`])).toEqual([
      ['requireSession', 'config.authEnabled', 'src/app.ts:11'],
      ['requireSession', 'config.sitesFrozen', 'src/app.ts:13'],
    ]);
    // applied in one branch of a condition not known statically
    const profile = res.routes.find((r) => r.path === '/api/profile')!;
    expect(profile.conditionalGuards!.map((g) => [g.name, g.when, g.line])).toEqual([
      ['requireSession', 'config.authEnabled', 11],
      ['requireSession', "config.authMode === 'session'", 27],
    ]);
  });

  it("a middleware factory's return under a test of its parameter, or its `? :`: the middleware the call picks (`requireRole('public')` lets everyone through)", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/access.ts': `import type { NextFunction, Request, Response } from 'express';

export function requireRole(role: 'public' | 'member') {
  if (role === 'public') return (req: Request, res: Response, next: NextFunction) => next();
  return function requireSignedIn(req: Request, res: Response, next: NextFunction) {
    if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
    next();
  };
}

export function gate(opts: { optional: boolean }) {
  return opts.optional
    ? function optionalUser(req: Request, res: Response, next: NextFunction) {
        next();
      }
    : function mustUser(req: Request, res: Response, next: NextFunction) {
        if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
        next();
      };
}
`,
        'src/app.ts': `import express from 'express';
import { gate, requireRole } from './access';

const app = express();
app.get('/api/status', requireRole('public'), (req, res) => res.json({ ok: true }));
app.get('/api/account', requireRole('member'), (req, res) => res.json({ id: req.session.userId }));
app.get('/api/feed', gate({ optional: true }), (req, res) => res.json({ items: [] }));
app.get('/api/billing', gate({ optional: false }), (req, res) => res.json({ plan: 'free' }));
app.listen(3000);
`,
      }),
    );
    // (the pass-through requireRole returns first was taken for every call, and `gate` was no middleware known)
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`)}]`)).toEqual([
      'GET /api/account [requireRole:auth]',
      'GET /api/billing [gate:auth]',
      'GET /api/feed []',
      'GET /api/status []',
    ]);
  });

  it('reads conditions in Fastify plugins and on Koa routers too', async () => {
    const fastify = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^5.0.0' } }),
      'src/auth.ts': `export async function requireSession(request: any, reply: any) {\n  if (!request.session?.userId) return reply.code(401).send({ error: 'unauthenticated' });\n}\n`,
      'src/server.ts': `import Fastify from 'fastify';
import { requireSession } from './auth';

const settings = JSON.parse(process.env.SETTINGS ?? '{}');
const app = Fastify({ logger: true });

app.register(async (api) => {
  if (settings.requireLogin) api.addHook('onRequest', requireSession);
  api.get('/projects', async () => ({ items: [] }));
}, { prefix: '/api' });

app.register(async (admin) => {
  admin.addHook('onRequest', requireSession);
  admin.get('/users', async () => ({ items: [] }));
}, { prefix: '/admin' });
`,
    });
    const res = await check(fastify);
    expect(guardRows(res)).toEqual([
      'GET /admin/users [requireSession] []',
      'GET /api/projects [] [requireSession when settings.requireLogin]',
    ]);
    const koa = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { koa: '^2.15.0', '@koa/router': '^13.0.0' } }),
      'src/auth.ts': `export async function requireSession(ctx: any, next: () => Promise<void>) {\n  if (!ctx.session?.userId) ctx.throw(401, 'unauthenticated');\n  await next();\n}\n`,
      'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { requireSession } from './auth';

const app = new Koa();
const router = new Router({ prefix: '/api' });
if (process.env.AUTH !== 'off') router.use(requireSession);
router.get('/projects', async (ctx) => {
  ctx.body = { items: [] };
});
app.use(router.routes());
`,
    });
    const res2 = await check(koa);
    expect(guardRows(res2)).toEqual([
      "GET /api/projects [] [requireSession when process.env.AUTH !== 'off']",
    ]);
  });

  it('reads conditions in Hono apps, and in Nest bootstraps and module middleware', async () => {
    const hono = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { hono: '^4.6.0' } }),
      'src/auth.ts': `import { createMiddleware } from 'hono/factory';

export const requireSession = createMiddleware(async (c, next) => {
  if (!c.get('session')) return c.json({ error: 'unauthenticated' }, 401);
  await next();
});
`,
      'src/app.ts': `import { Hono } from 'hono';
import { requireSession } from './auth';

const settings = JSON.parse(process.env.SETTINGS ?? '{}');
const DEBUG_ROUTES = false;

export const app = new Hono();
const api = new Hono();

if (settings.requireLogin) api.use('*', requireSession);
api.get('/projects', (c) => c.json({ items: [] }));

const admin = new Hono();
admin.use('*', requireSession);
admin.get('/users', (c) => c.json({ items: [] }));
if (DEBUG_ROUTES) admin.get('/debug', (c) => c.json({ env: process.env }));

app.route('/api', api);
app.route('/admin', admin);
`,
    });
    // the debug route is switched off by a constant
    expect(guardRows(await check(hono))).toEqual(['GET /admin/users [requireSession] []', 'GET /api/projects [] [requireSession when settings.requireLogin]']);

    // (a POST route: the CSRF middleware lets GET requests through)
    const MODULE = `import { Controller, MiddlewareConsumer, Module, NestModule, Post } from '@nestjs/common';
import { CsrfMiddleware } from './csrf.middleware';

const FEATURES = { csrf: true, audit: false } as const;

@Controller('projects')
export class ProjectsController {
  @Post()
  create() {
    return { created: true };
  }
}

@Module({ controllers: [ProjectsController] })
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    if (FEATURES.csrf) consumer.apply(CsrfMiddleware).forRoutes('*');
  }
}
`;
    const nest = {
      'package.json': JSON.stringify({ name: 'api', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { SessionGuard } from './session.guard';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  if (process.env.AUTH !== 'off') app.useGlobalGuards(new SessionGuard());
  await app.listen(3000);
}
void bootstrap();
`,
      'src/session.guard.ts': `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';

@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest();
    if (!req.session?.userId) throw new UnauthorizedException();
    return true;
  }
}
`,
      'src/csrf.middleware.ts': `import { Injectable, NestMiddleware } from '@nestjs/common';

@Injectable()
export class CsrfMiddleware implements NestMiddleware {
  use(req: any, res: any, next: () => void) {
    if (req.method !== 'GET' && req.get('x-csrf-token') !== req.session?.csrf) return res.status(403).end();
    next();
  }
}
`,
      'src/app.module.ts': MODULE,
    };
    // the global guard only when the environment says so; the middleware under a constant that holds
    expect(guardRows(await check(writeProject(nest)))).toEqual(["POST /api/projects [CsrfMiddleware] [SessionGuard when process.env.AUTH !== 'off']"]);
    const fromEnv = { ...nest, 'src/app.module.ts': MODULE.replace('csrf: true', 'csrf: process.env.CSRF === "on"') };
    expect(guardRows(await check(writeProject(fromEnv)))).toEqual(["POST /api/projects [] [CsrfMiddleware when FEATURES.csrf,SessionGuard when process.env.AUTH !== 'off']"]);
    // under a constant that fails, the middleware is not applied at all
    const off = { ...nest, 'src/app.module.ts': MODULE.replace('csrf: true', 'csrf: false') };
    expect(guardRows(await check(writeProject(off)))).toEqual(["POST /api/projects [] [SessionGuard when process.env.AUTH !== 'off']"]);
  });

  it('says so in the JSON report and in explain', async () => {
    const dir = writeProject(SERVER);
    const json = JSON.parse(cli(['check', '--format', 'json'], dir).stdout);
    const sites = json.routes.find((r: { path: string }) => r.path === '/api/tenants/:tenantId/sites/');
    expect(sites.guards.auth).toEqual([]);
    expect(sites.guardDetails.map((g: { name: string; when?: string }) => [g.name, g.when ?? null])).toEqual([
      ['requireTenant', null],
      ['requireSession', 'config.authEnabled'],
    ]);
    // the conditions survive the cache: facts read back and linked again after another file's edit
    const cached = ['check', '--format', 'json', '--cache', '--cache-location', '.cache/rs'];
    cli(cached, dir);
    fs.appendFileSync(path.join(dir, 'src/sites.ts'), '\n// reviewed\n');
    expect(JSON.parse(cli(cached, dir).stdout).routes).toEqual(JSON.parse(cli(['check', '--format', 'json'], dir).stdout).routes);
    const out = cli(['explain', 'GET /api/tenants/:tenantId/sites/', '--no-color'], dir).stdout;
    expect(out).toMatch(/only when\s+requireSession\s+auth\s+app\.use\(\) before the route\s+src\/app\.ts:12 .*applied only when config\.authEnabled, not known statically/);
    expect(out).toMatch(/✖ auth\s+missing \(missing-auth-guard\).*applied under a condition not known statically: requireSession only when config\.authEnabled/);
  });
});
