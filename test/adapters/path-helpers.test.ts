/**
 * Paths built by helper functions from their parameters (Evaluator.builtFrom): `api('/projects')`
 * of `const api = (p) => \`/api/v1${p}\``, a helper in another file with a default parameter, a
 * helper calling another, a closure reading its factory's parameter, a helper whose `? :` the
 * call's argument decides. A helper given a value not known statically, or one recursing, leaves
 * the path not known statically, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const GUARDS = `import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}
`;

const PATHS = `/** Where each resource lives under a tenant; ids default to the usual parameter. */
export const API_VERSION = 'v1';

export function tenantPath(resource: string, id: string = ':id'): string {
  return \`/tenants/:tenantId/\${resource}/\${id}\`;
}

export const versioned = (p: string) => \`/api/\${API_VERSION}\${p}\`;

export function legacyOr(legacy: boolean, path: string) {
  return legacy ? \`/legacy\${path}\` : path;
}
`;

describe('paths built by helpers from their parameters', () => {
  it('express: helpers in the same and another file, defaults, nesting and a decided ? :', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/guards.ts': GUARDS,
      'src/paths.ts': PATHS,
      'src/routes/projects.ts': `import { Router } from 'express';
import { requireSession } from '../guards';
import { legacyOr, tenantPath } from '../paths';

const join = (a: string, b: string) => \`\${a}\${b}\`;
const route = (p: string) => join('/projects', p);

export const projects = Router();
projects.use(requireSession);
projects.get(route(''), async (req, res) => res.json({ items: [] }));
projects.get(route('/:projectId'), async (req, res) => res.json({ id: req.params.projectId }));
projects.get(tenantPath('sites'), async (req, res) => res.json({ id: req.params.id }));
projects.delete(tenantPath('sites', ':siteId'), async (req, res) => res.status(204).end());
projects.get(route('/export'), async (req, res) => res.json({ items: [] }));
projects.get(legacyOr(false, '/billing'), async (req, res) => res.json({ plan: 'free' }));
projects.get(legacyOr(true, '/billing'), async (req, res) => res.json({ plan: 'free' }));
`,
      'src/app.ts': `import express from 'express';
import { versioned } from './paths';
import { projects } from './routes/projects';

const app = express();
app.use(versioned(''), projects);
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/v1/billing [requireSession] src/routes/projects.ts:15',
      'GET /api/v1/legacy/billing [requireSession] src/routes/projects.ts:16',
      'GET /api/v1/projects [requireSession] src/routes/projects.ts:10',
      'GET /api/v1/projects/:projectId [requireSession] src/routes/projects.ts:11',
      'GET /api/v1/projects/export [requireSession] src/routes/projects.ts:14',
      'GET /api/v1/tenants/:tenantId/sites/:id [requireSession] src/routes/projects.ts:12',
      'DELETE /api/v1/tenants/:tenantId/sites/:siteId [requireSession] src/routes/projects.ts:13',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a helper local to a router factory reads the factory call’s prefix too', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/guards.ts': GUARDS,
      'src/status.ts': `import { Router } from 'express';

export function statusRouter(prefix: string) {
  const r = Router();
  const at = (p: string) => \`\${prefix}\${p}\`;
  r.get(at('/status'), (req, res) => res.json({ ok: true }));
  r.get(at('/version'), (req, res) => res.json({ version: process.env.VERSION }));
  return r;
}
`,
      'src/app.ts': `import express from 'express';
import { requireSession } from './guards';
import { statusRouter } from './status';

const app = express();
app.use('/api', requireSession, statusRouter('/v1'));
app.use('/internal', statusRouter('/ops'));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/v1/status [requireSession] src/status.ts:6',
      'GET /api/v1/version [requireSession] src/status.ts:7',
      'GET /internal/ops/status [] src/status.ts:6',
      'GET /internal/ops/version [] src/status.ts:7',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a helper computing a local first is read through it; one given a value not known statically, or recursing, leaves the path not known statically', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/app.ts': `import express from 'express';

function under(base: string, p: string) {
  const whole = base + p;
  return whole;
}
function deep(p: string): string {
  return p.length > 40 ? p : deep(\`/x\${p}\`);
}

const app = express();
app.get(under(process.env.BASE_PATH, '/health'), (req, res) => res.json({ ok: true }));
app.get(deep('/ready'), (req, res) => res.json({ ok: true }));
app.get(under('/ops', '/metrics'), (req, res) => res.json({ ok: true }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /ops/metrics [] src/app.ts:14']);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:12:1 warning unresolved-route GET route with a path not known statically (under() returns nothing known statically); it is left out',
      'src/app.ts:13:1 warning unresolved-route GET route with a path not known statically (deep() returns nothing known statically); it is left out',
    ]);
    // the helper called at module scope too (`const METRICS = under('/ops', '/metrics')`): that
    // call passes nothing to the other calls (a route registered under('/ops', '/metrics') for the
    // path not known statically, reported as an "ops" leak, before)
    const text = fs.readFileSync(path.join(dir, 'src/app.ts'), 'utf8');
    fs.writeFileSync(path.join(dir, 'src/app.ts'), text.replace("const app = express();", "const METRICS = under('/ops', '/metrics');\nconst app = express();").replace("app.listen(3000);", "app.get(METRICS, (req, res) => res.json({ ok: true }));\napp.listen(3000);"));
    const again = await check(dir);
    expect(lines(again)).toEqual(['GET /ops/metrics [] src/app.ts:15', 'GET /ops/metrics [] src/app.ts:16']);
    expect(unresolvedRows(again)).toEqual([
      'src/app.ts:13:1 warning unresolved-route GET route with a path not known statically (under() returns nothing known statically); it is left out',
      'src/app.ts:14:1 warning unresolved-route GET route with a path not known statically (deep() returns nothing known statically); it is left out',
    ]);
  });

  it("a template whose head is a helper's call returning a template: the helper's known text stays before the head (lemmy-ui's getStaticDir())", async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/env.ts': `export function getStaticDir() {
  return \`/static/\${process.env.COMMIT_HASH}\`;
}
export const apiBase = (version: string) => \`/api/\${version}\`;
`,
      'src/app.ts': `import express from 'express';
import { apiBase, getStaticDir } from './env.js';

const app = express();
app.get(\`\${getStaticDir()}/css/themes/:name\`, (req, res) => res.type('css').send(''));
app.get(\`\${apiBase(process.env.API_VERSION)}/sites\`, (req, res) => res.json([]));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/sites [] src/app.ts:6', 'GET /static/css/themes/:name [] src/app.ts:5']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual([
      'GET /static/…/css/themes/:name has no auth guard',
      'GET /api/…/sites has no auth guard',
    ]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:5:1 warning unresolved-route GET route with a path not known statically (property COMMIT_HASH of a value not known statically); it is listed without that part',
      'src/app.ts:6:1 warning unresolved-route GET route with a path not known statically (the parameter version); it is listed without that part',
    ]);
  });

  it('a helper whose body returns a path read by key, or a table built with a spread, is read as its statements were', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/guards.ts': GUARDS,
      'src/paths.ts': `const BASE = { health: '/health', ready: '/ready' };

export function healthPath() {
  const version = 'v2';
  return BASE['health'];
}

export function table() {
  return { ...BASE, metrics: '/metrics' };
}
`,
      'src/app.ts': `import express from 'express';
import { requireSession } from './guards';
import { healthPath, table } from './paths';

const app = express();
app.get(healthPath(), (req, res) => res.json({ ok: true }));
app.get(\`/ops\${table().metrics}\`, requireSession, (req, res) => res.json({ up: 1 }));
app.get(\`/ops\${table().ready}\`, requireSession, (req, res) => res.json({ ok: true }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /health [] src/app.ts:6', 'GET /ops/metrics [requireSession] src/app.ts:7', 'GET /ops/ready [requireSession] src/app.ts:8']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a return under a test the call decides is what it returns only when the test holds; a parameter the call does not pass is undefined', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/paths.ts': `/** Where a resource lives: under the workspace's prefix when it has one. */
export function scoped(resource: string, prefix?: string): string {
  if (!prefix) return \`/\${resource}\`;
  return \`\${prefix}/\${resource}\`;
}

export function versioned(resource: string, version?: string): string {
  return version ? \`/api/\${version}/\${resource}\` : \`/api/\${resource}\`;
}

export function spreadVersioned(...parts: [string, string?]): string {
  return versioned(...parts);
}
`,
      'src/routers.ts': `import { Router } from 'express';

export const adminRouter = Router();
adminRouter.get('/stats', (req, res) => res.json({ users: 0 }));

export const publicRouter = Router();
publicRouter.get('/news', (req, res) => res.json({ items: [] }));

export function routerFor(audience: 'admin' | 'public') {
  if (audience === 'admin') return adminRouter;
  return publicRouter;
}
`,
      'src/app.ts': `import express from 'express';
import { scoped, spreadVersioned, versioned } from './paths';
import { routerFor } from './routers';

const app = express();
app.get(scoped('sites'), (req, res) => res.json({ items: [] }));
app.get(scoped('keys', '/workspaces/:workspaceId'), (req, res) => res.json({ items: [] }));
app.get(versioned('users'), (req, res) => res.json({ items: [] }));
app.get(versioned('orgs', 'v2'), (req, res) => res.json({ items: [] }));
app.get(spreadVersioned('teams'), (req, res) => res.json({ items: [] }));
app.use('/admin', routerFor('admin'));
app.use('/public', routerFor('public'));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /admin/stats [] src/routers.ts:4',
      'GET /api/users [] src/app.ts:8',
      'GET /api/v2/orgs [] src/app.ts:9',
      'GET /public/news [] src/routers.ts:7',
      'GET /sites [] src/app.ts:6',
      'GET /workspaces/:workspaceId/keys [] src/app.ts:7',
    ]);
    // (a spread may pass the version: not read as undefined)
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:10:1 warning unresolved-route GET route with a path not known statically (spreadVersioned() returns nothing known statically); it is left out',
    ]);
  });

  it('a prefix read from the object Object.assign returns: each source over the ones before, as spreads', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/config.ts': `const defaults = { apiPrefix: '/api', adminPrefix: '/admin' };

export const config = Object.assign({}, defaults, { adminPrefix: '/staff' });
`,
      'src/app.ts': `import express from 'express';
import { config } from './config';

const app = express();
const api = express.Router();
api.get('/sites', (req, res) => res.json({ items: [] }));
const admin = express.Router();
admin.get('/users', (req, res) => res.json({ items: [] }));
app.use(config.apiPrefix, api);
app.use(config.adminPrefix, admin);
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/sites [] src/app.ts:6', 'GET /staff/users [] src/app.ts:8']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('names a nested pattern takes out of an object (`const { prefixes: { admin, api = \'/api\' } } = config`) are its members, defaults included', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/config.ts': `export const config = { prefixes: { admin: '/staff' }, port: 3000 };
`,
      'src/app.ts': `import express from 'express';
import { config } from './config';

const { prefixes: { admin, api = '/api' }, port } = config;
const app = express();
const router = express.Router();
router.get('/sites', (req, res) => res.json({ items: [] }));
app.use(admin, router);
app.use(api, router);
app.listen(port);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api/sites [] src/app.ts:7', 'GET /staff/sites [] src/app.ts:7']);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
