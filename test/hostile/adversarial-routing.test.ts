/**
 * Adversarial routing code: self-mounting routers, import cycles, deep and repeated mounts,
 * computed paths, huge route tables, and route graphs that multiply. Every case terminates
 * and gives the right routes or an unresolved-route warning saying what is unknown.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkJson, cleanProjects, cli, findingKeys, findingLines, project, routeLines } from './helpers.js';

afterAll(cleanProjects);

const handler = "async (req, res) => {\n  res.json({ items: await req.app.locals.db.list(req.tenantId) });\n}";

describe('mount cycles', () => {
  it('lists the routes of a router mounted inside itself once, and says so', () => {
    const dir = project({
      'src/app.ts': [
        "import express from 'express';",
        "import { reports } from './reports.js';",
        'const app = express();',
        "app.use('/api/reports', reports);",
        'export default app;',
        '',
      ].join('\n'),
      'src/reports.ts': [
        "import { Router } from 'express';",
        'export const reports = Router();',
        'reports.use(reports);',
        `reports.get('/weekly', ${handler});`,
        "reports.use('/archive', reports);",
        '',
      ].join('\n'),
    }, false);
    const r = checkJson(dir);
    expect(routeLines(r)).toEqual(['GET /api/reports/weekly src/reports.ts:4']);
    expect(findingLines(r, 'unresolved-route')).toEqual([
      'src/reports.ts:3:1 unresolved-route mount cycle: reports is mounted inside itself; its routes are listed once',
      'src/reports.ts:7:1 unresolved-route mount cycle: reports is mounted inside itself; its routes are listed once',
    ]);
  });

  it('terminates on route files that import and mount each other', () => {
    const dir = project({
      'src/app.ts': "import express from 'express';\nimport { teams } from './teams.js';\nconst app = express();\napp.use('/api/teams', teams);\n",
      'src/teams.ts': [
        "import { Router } from 'express';",
        "import { members } from './members.js';",
        'export const teams = Router();',
        `teams.get('/', ${handler});`,
        "teams.use('/:teamId/members', members);",
        '',
      ].join('\n'),
      'src/members.ts': [
        "import { Router } from 'express';",
        "import { teams } from './teams.js';",
        "import { MEMBER } from './paths.js';",
        'export const members = Router({ mergeParams: true });',
        `members.get(MEMBER, ${handler});`,
        "members.use('/:memberId/teams', teams);",
        '',
      ].join('\n'),
      // a constant module that imports the module importing it back
      'src/paths.ts': "import { members } from './members.js';\nexport const MEMBER = '/:memberId';\nexport const mounted = members;\n",
    }, false);
    const r = checkJson(dir);
    expect(routeLines(r)).toEqual([
      'GET /api/teams/ src/teams.ts:4',
      'GET /api/teams/:teamId/members/:memberId src/members.ts:5',
    ]);
    expect(findingLines(r, 'unresolved-route')).toEqual(['src/members.ts:8:1 unresolved-route mount cycle: teams is mounted inside itself; its routes are listed once']);
  });
});

describe('deep and repeated mounts', () => {
  function chain(levels: number, handed = false): Record<string, string> {
    const files: Record<string, string> = {
      'src/app.ts': "import express from 'express';\nimport { level0 } from './levels/level0.js';\nconst app = express();\napp.use('/api', level0);\nexport default app;\n",
    };
    for (let i = 0; i < levels; i++) {
      const last = i === levels - 1;
      files[`src/levels/level${i}.ts`] = [
        "import { Router } from 'express';",
        last ? '' : `import { level${i + 1} } from './level${i + 1}.js';`,
        `export const level${i} = Router();`,
        last ? `level${i}.get('/leaf', ${handler});` : handed ? `level${i}.all('*', level${i + 1});` : `level${i}.use('/l${i}', level${i + 1});`,
        '',
      ].join('\n');
    }
    return files;
  }

  it('resolves a prefix through 50 nested mounts across 50 files', () => {
    const r = checkJson(project(chain(50), false));
    const prefix = Array.from({ length: 49 }, (_, i) => `/l${i}`).join('');
    expect(routeLines(r)).toEqual([`GET /api${prefix}/leaf src/levels/level49.ts:4`]);
    expect(findingLines(r, 'unresolved-route')).toEqual([]);
  });

  it('stops at 64 nested mounts and says where', () => {
    const r = checkJson(project(chain(70), false));
    expect(routeLines(r)).toEqual([]);
    expect(findingLines(r, 'unresolved-route')).toEqual([
      'src/levels/level63.ts:4:1 unresolved-route mounts nested more than 64 levels deep; level64 mounted here and what it mounts are not listed',
    ]);
  });

  it('stops at 64 routers handed to routes in turn (`level0.all(\'*\', level1)`) and says where', () => {
    expect(routeLines(checkJson(project(chain(50, true), false)))).toEqual(['GET /api/leaf src/levels/level49.ts:4']);
    const r = checkJson(project(chain(70, true), false));
    expect(routeLines(r)).toEqual([]);
    expect(findingLines(r, 'unresolved-route')).toEqual([
      'src/levels/level63.ts:4:1 unresolved-route mounts nested more than 64 levels deep; level64 handed a route here and what it mounts are not listed',
    ]);
  });

  it('lists a router mounted under two prefixes under both', () => {
    const dir = project({
      'src/app.ts': [
        "import express from 'express';",
        "import { sites } from './sites.js';",
        'const app = express();',
        "app.use('/api/v1/sites', sites);",
        "app.use('/api/v2/sites', sites);",
        "app.use(['/api/legacy/sites', '/api/old/sites'], sites);",
        '',
      ].join('\n'),
      'src/sites.ts': `import { Router } from 'express';\nexport const sites = Router();\nsites.get('/', ${handler});\nsites.get('/:siteId', ${handler});\n`,
    }, false);
    expect(routeLines(checkJson(dir))).toEqual([
      'GET /api/legacy/sites/ src/sites.ts:3',
      'GET /api/legacy/sites/:siteId src/sites.ts:6',
      'GET /api/old/sites/ src/sites.ts:3',
      'GET /api/old/sites/:siteId src/sites.ts:6',
      'GET /api/v1/sites/ src/sites.ts:3',
      'GET /api/v1/sites/:siteId src/sites.ts:6',
      'GET /api/v2/sites/ src/sites.ts:3',
      'GET /api/v2/sites/:siteId src/sites.ts:6',
    ]);
  });

  // Each of 24 routers / plugins / sub-apps is mounted under two prefixes in the one before it: 2^23 paths.
  const N = 24;
  const multiplying: Record<string, () => string> = {
    express: () => {
      const l = ["import express from 'express';", 'const app = express();'];
      for (let i = 0; i < N; i++) l.push(`const r${i} = express.Router();`);
      for (let i = 0; i < N - 1; i++) l.push(`r${i}.use(['/a${i}', '/b${i}'], r${i + 1});`);
      l.push(`r${N - 1}.get('/leaf', (req, res) => res.json({ ok: true }));`, "app.use('/api', r0);");
      return l.join('\n');
    },
    fastify: () => {
      const l = ["import Fastify from 'fastify';", 'const app = Fastify();', `async function p${N - 1}(f) { f.get('/leaf', async () => ({ ok: true })); }`];
      for (let i = N - 2; i >= 0; i--) l.push(`async function p${i}(f) { f.register(p${i + 1}, { prefix: '/a${i}' }); f.register(p${i + 1}, { prefix: '/b${i}' }); }`);
      l.push("app.register(p0, { prefix: '/api' });");
      return l.join('\n');
    },
    koa: () => {
      const l = ["import Koa from 'koa';", "import Router from '@koa/router';", 'const app = new Koa();'];
      for (let i = 0; i < N; i++) l.push(`const r${i} = new Router();`);
      l.push(`r${N - 1}.get('/leaf', (ctx) => { ctx.body = { ok: true }; });`);
      for (let i = N - 2; i >= 0; i--) l.push(`r${i}.use('/a${i}', r${i + 1}.routes());`, `r${i}.use('/b${i}', r${i + 1}.routes());`);
      l.push('app.use(r0.routes());');
      return l.join('\n');
    },
    hono: () => {
      const l = ["import { Hono } from 'hono';"];
      for (let i = 0; i < N; i++) l.push(`const r${i} = new Hono();`);
      l.push(`r${N - 1}.get('/leaf', (c) => c.json({ ok: true }));`);
      for (let i = N - 2; i >= 0; i--) l.push(`r${i}.route('/a${i}', r${i + 1});`, `r${i}.route('/b${i}', r${i + 1});`);
      l.push('export default r0;');
      return l.join('\n');
    },
  };
  it.each(Object.keys(multiplying))('stops a %s route graph that multiplies past budgets.maxRoutes, and says so', (framework) => {
    const dir = project({ 'src/app.ts': multiplying[framework]!() + '\n', 'route-surface.config.json': JSON.stringify({ budgets: { maxRoutes: 3000 } }) }, false);
    const r = checkJson(dir);
    expect(r.routes.length).toBeLessThan(3000);
    // every route listed is a whole path to the leaf
    for (const route of r.routes) expect(route.path).toMatch(new RegExp(`^/api${Array.from({ length: N - 1 }, (_, i) => `/[ab]${i}`).join('')}/leaf$`));
    expect(findingLines(r, 'unresolved-route')).toEqual([
      expect.stringMatching(
        /^src\/app\.ts:\d+:\d+ unresolved-route the route graph expands beyond budgets\.maxRoutes \(3000 routes and mounts\): routers mounted under several prefixes multiply; expansion stopped here, the rest of the surface is not listed$/,
      ),
    ]);
  });
});

describe('computed paths', () => {
  it('resolves constants, templates, concatenation and imported values; flags what is dynamic', () => {
    const dir = project({
      'src/paths.ts': "export const API = '/api';\nexport const V = 2;\nexport const SEGMENTS = { sites: 'sites', domains: 'domains' } as const;\n",
      'src/app.ts': [
        "import express from 'express';",
        "import { API, V, SEGMENTS } from './paths.js';",
        'const app = express();',
        'const SITE = `/${SEGMENTS.sites}/:siteId`;',
        `app.get(\`\${API}/v\${V}\${SITE}\`, ${handler});`,
        `app.get(API + '/v' + V + SITE + '/' + SEGMENTS.domains, ${handler});`,
        `app.get(process.env.ADMIN_PATH, ${handler});`,
        `app.get(\`\${API}/\${Math.random()}\`, ${handler});`,
        "app.use(`${API}/${process.env.AREA}`, express.Router());",
        '',
      ].join('\n'),
    }, false);
    const r = checkJson(dir);
    expect(routeLines(r)).toEqual(['GET /api/v2/sites/:siteId src/app.ts:5', 'GET /api/v2/sites/:siteId/domains src/app.ts:8']);
    expect(findingKeys(r, 'unresolved-route')).toEqual(['src/app.ts:11:1 unresolved-route', 'src/app.ts:14:1 unresolved-route', 'src/app.ts:17:1 unresolved-route']);
  });

  it('treats names of Object.prototype members as ordinary names', () => {
    const dir = project({
      'src/app.ts': [
        "import express from 'express';",
        'const app = express();',
        "const __proto__ = { k: 'str', v: '/poisoned' };",
        "const paths = { constructor: '/api/ctor', toString: '/api/to-string' };",
        `app.get(paths.constructor, ${handler});`,
        `app.get(paths.toString, ${handler});`,
        `app.get(paths.valueOf, ${handler});`,
        `app.get(hasOwnProperty, ${handler});`,
        'constructor(app);',
        'toString();',
        '',
      ].join('\n'),
    }, false);
    const r = checkJson(dir);
    expect(routeLines(r)).toEqual(['GET /api/ctor src/app.ts:5', 'GET /api/to-string src/app.ts:8']);
    expect(findingKeys(r, 'unresolved-route')).toEqual(['src/app.ts:11:1 unresolved-route', 'src/app.ts:14:1 unresolved-route']);
  });

  it('gives up on values built by doubling instead of building them', () => {
    const lines = ["import express from 'express';", 'const app = express();', "const s0 = '/x';", "const a0 = ['/x', '/y'];"];
    for (let i = 1; i <= 40; i++) lines.push(`const s${i} = s${i - 1} + s${i - 1};`, `const a${i} = [...a${i - 1}, ...a${i - 1}];`);
    lines.push(`app.get(s40, ${handler.replace(/\n/g, ' ')});`, `app.get(a40, ${handler.replace(/\n/g, ' ')});`, '');
    const r = checkJson(project({ 'src/app.ts': lines.join('\n') }, false));
    expect(routeLines(r)).toEqual([]);
    expect(findingKeys(r, 'unresolved-route')).toEqual(['src/app.ts:85:1 unresolved-route', 'src/app.ts:86:1 unresolved-route']);
  });
});

describe('huge route tables', () => {
  it('lists 10,000 routes registered in one file', () => {
    const lines = ["import { Router } from 'express';", "import express from 'express';", 'const app = express();', 'const catalog = Router();'];
    for (let i = 0; i < 10_000; i++) lines.push(`catalog.get('/items/${i}', async (req, res) => { res.json(await req.app.locals.db.item(${i}, req.tenantId)); });`);
    lines.push("app.use('/api/catalog', catalog);", '');
    // The test is about the routes, not the clock: a loaded machine gets all the time it needs.
    const dir = project({ 'src/catalog.ts': lines.join('\n'), 'route-surface.config.json': JSON.stringify({ budgets: { maxFileMs: 120_000 } }) }, false);
    const r = cli(['list', '--format', 'json'], dir, { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const routes = (JSON.parse(r.stdout) as { routes: { method: string; path: string; line: number }[] }).routes;
    expect(routes).toHaveLength(10_000);
    const byPath = new Map(routes.map((x) => [x.path, x.line]));
    expect([0, 1, 4321, 9999].map((i) => byPath.get(`/api/catalog/items/${i}`))).toEqual([5, 6, 4326, 10004]);
    expect(new Set(routes.map((x) => x.method))).toEqual(new Set(['GET']));
  });
});
