import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers/run.js';

const AUDIT = path.join(ROOT, 'fixtures', 'audit');
/** Temporary projects hookGuards wrote, removed when the run ends. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('explain', () => {
  it('shows registration, inherited prefixes, guards with their mechanism, expected guards, contract row and findings', () => {
    const r = cli(['explain', 'GET /api/databases/'], AUDIT);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(EXPLAIN_DB);
  });

  it('explains each route when a path is served by several apps', () => {
    const r = cli(['explain', 'GET /api/health/ready'], AUDIT);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        "GET /api/health/ready is served by 2 routes in 2 apps (opsApp, app):",
        "",
        "GET /api/health/ready",
        "  app         opsApp (express)",
        "  registered  src/ops.ts:7:1  opsApp.get('/api/health/ready', async (_req, res) => {",
        "  handler     (inline function)",
        "  prefixes    none (registered with its full path)",
        "  class       public — the contract makes GET /api/health/ready public",
        "  contract    GET /api/health/ready (auth public, not tenant-scoped, resource readiness) — builtin:browser-control-plane@1, route table row 1",
        "  guards      none",
        "  expected    ✔ no auth guard — the contract makes GET /api/health/ready public",
        "  findings    none",
        "",
        "GET /api/health/ready",
        "  app         app (express)",
        "  registered  src/routes/health.ts:6:1  healthRouter.get('/ready', async (_req, res) => {",
        "  handler     (inline function)",
        "  prefixes    /api/health  src/app.ts:29  app.use('/api/health', healthRouter);",
        "  class       public — the contract makes GET /api/health/ready public",
        "  contract    GET /api/health/ready (auth public, not tenant-scoped, resource readiness) — builtin:browser-control-plane@1, route table row 1",
        "  guards      none",
        "  expected    ✔ no auth guard — the contract makes GET /api/health/ready public",
        "  findings    none",
        "",
      ].join('\n'),
    );
  });

  it('expects no tenant guard of a route serving a contract route its contract says is not tenant-scoped', () => {
    const dir = path.join(ROOT, 'fixtures', 'rules', 'missing-tenant-guard', 'valid', 'contract-route-not-tenant-scoped');
    const r = cli(['explain', 'GET /api/tenants/'], dir);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n').slice(5)).toEqual([
      '  class       contract — serves GET /api/tenants/ exactly',
      '  contract    GET /api/tenants/ (auth session, not tenant-scoped, resource membership) — contract.json:6',
      '  guards      requireSession  auth  route middleware  app.ts:13  by name (auth)',
      '  expected    ✔ auth   requireSession',
      '  findings    none',
      '',
    ]);
    expect(cli(['list', '--format', 'tree'], dir).stdout).toContain('    └── tenants/ GET contract [auth]\n');
  });

  it('without a method, explains every method served at the path', () => {
    const r = cli(['explain', '/api/sites/'], AUDIT);
    expect(r.stdout.split('\n').filter((l) => /^(GET|POST|DELETE|PATCH|PUT|ALL) |served by/.test(l))).toEqual(['/api/sites/ is served by 2 routes:', 'GET /api/sites/', 'POST /api/sites/']);
    expect(r.stdout).toContain('  expected    ✔ auth   requireSession\n              ✔ tenant scopeToTenant\n              ✔ csrf   csrfProtection\n');
  });

  it('matches requests as the framework does: parameters, case, trailing slash, HEAD served by GET', () => {
    const a = cli(['explain', 'HEAD /API/Sites/42'], AUDIT);
    expect(a.stdout.split('\n')[0]).toBe('GET /api/sites/:siteId');
    expect(a.stdout).toContain('  guards      requireSession  auth    router.use() before the route  src/app.ts:33  by name (auth); by behaviour (ends the request with 401)\n');
    expect(a.stdout).toContain('              scopeToTenant   tenant  middleware of the mount        src/app.ts:36  by name (tenant); by behaviour (compares the tenant and ends with 403/404)\n');
    // Express routers are non-strict: '/' mounted at /api/sites serves /api/sites too.
    expect(cli(['explain', 'GET /api/sites'], AUDIT).stdout.split('\n')[0]).toBe('GET /api/sites/');
  });

  it('names the missing CSRF guard and the rule behind it on a mutation', () => {
    const r = cli(['explain', 'DELETE /api/sites/s_1'], AUDIT);
    expect(r.stdout).toContain(
      '              ✖ csrf   missing (missing-csrf-guard) — DELETE changes state and the browser session cookie authenticates it; contract: "Mutations additionally require the CSRF boundary, on top of the session."\n',
    );
    expect(r.stdout).toContain('  findings    error missing-csrf-guard src/routes/sites.ts:20:1 DELETE /api/sites/:siteId changes state on the browser session without a CSRF guard\n');
  });

  it('an excluded route expects its family guard', () => {
    const r = cli(['explain', 'POST /api/internal/cache/purge'], AUDIT);
    expect(r.stdout).toContain('  class       excluded — in the excluded family "internal" (a path segment matches ["internal","_internal"])\n');
    expect(r.stdout).toContain('  expected    ✖ family missing (excluded-family-leak) — the route is in the excluded family "internal"; contract: "Excluded from the contract:');
  });

  it('a route that does not exist: exit 2 with one line listing near matches', () => {
    const r = cli(['explain', 'PUT /api/site'], AUDIT);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'route-surface: no route serves PUT /api/site (near matches: GET /api/sites/, POST /api/sites/)\n']);
    const far = cli(['explain', 'GET /billing/invoices/export'], AUDIT);
    expect([far.code, far.stderr]).toEqual([2, 'route-surface: no route serves GET /billing/invoices/export (no near match; see route-surface list)\n']);
  });

  it('a wildcard serves any path: an SPA fallback (Express 5 `/{*splat}`, Express 4 `*`) explains a request nothing else serves', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-wild-'));
    try {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'spa', dependencies: { express: '^5.1.0' } }));
      fs.mkdirSync(path.join(dir, 'src'));
      const app = [
        "import express from 'express';",
        '',
        'export const app = express();',
        "app.get('/api/sites/', (_req, res) => { res.json([]); });",
        "app.get('/{*splat}', (_req, res) => { res.sendFile('index.html', { root: 'public' }); });",
        '',
      ].join('\n');
      fs.writeFileSync(path.join(dir, 'src', 'app.ts'), app);
      const heads = (request: string): string[] => cli(['explain', request], dir).stdout.split('\n').filter((l) => /^[A-Z]+ \//.test(l));
      expect(heads('GET /budget/abc')).toEqual(['GET /*splat']);
      expect(heads('GET /')).toEqual(['GET /']);
      // (path-to-regexp 8 takes `/*splat` for a text of one character or more: `/` is the `{…}` left out)
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'spa', dependencies: { express: '^4.21.0' } }));
      fs.writeFileSync(path.join(dir, 'src', 'app.ts'), app.replace("'/{*splat}'", "'*'"));
      expect(heads('GET /budget/abc')).toEqual(['GET /*']);
      expect(heads('GET /')).toEqual(['GET /*']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Fastify answers with one route, the most specific (find-my-way: static, then parametric, then wildcard); Express runs each matching one in order", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-fmw-'));
    try {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fmw', dependencies: { fastify: '^4.29.1', express: '^4.21.0' } }));
      fs.mkdirSync(path.join(dir, 'src'));
      const fastifyApp = [
        "import Fastify from 'fastify';",
        '',
        'export const app = Fastify();',
        "app.get('/*', async () => 'spa');",
        "app.get('/api/:section', async (req) => ({ section: (req.params as { section: string }).section }));",
        "app.get('/api/status', async () => ({ ok: true }));",
        '',
      ].join('\n');
      fs.writeFileSync(path.join(dir, 'src', 'server.ts'), fastifyApp);
      const heads = (request: string): string[] => cli(['explain', request], dir).stdout.split('\n').filter((l) => /^[A-Z]+ \/\S*$/.test(l));
      expect(heads('GET /api/status')).toEqual(['GET /api/status']);
      expect(heads('GET /api/sites')).toEqual(['GET /api/:section']);
      expect(heads('GET /budget/abc')).toEqual(['GET /*']);
      // (every method: each method's own most specific route)
      expect(heads('/api/status')).toEqual(['GET /api/status']);
      fs.writeFileSync(path.join(dir, 'src', 'server.ts'), "import express from 'express';\n\nexport const app = express();\napp.get('/*', (_req, res) => { res.send('spa'); });\napp.get('/api/status', (_req, res) => { res.json({ ok: true }); });\n");
      expect(heads('GET /api/status')).toEqual(['GET /*', 'GET /api/status']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says where a Fastify hook guarding the route was added, in its words: the route\'s own hook option, its plugin context, the root context', () => {
    const guards = hookGuards(
      'rs-hooks-',
      { fastify: '^4.29.1' },
      [
        "import Fastify from 'fastify';",
        '',
        'async function requireSession(request, reply) { if (!request.session?.userId) return reply.code(401).send(); }',
        'async function requireTenant(request, reply) { if (request.params.orgId !== request.session.orgId) return reply.code(404).send(); }',
        'async function verifyCsrf(request, reply) { if (request.headers[\'x-csrf-token\'] !== request.session.csrf) return reply.code(403).send(); }',
        '',
        'export const app = Fastify();',
        "app.addHook('onRequest', requireSession);",
        "app.get('/me', async (request) => ({ user: request.session.userId }));",
        'app.register(async (orgs) => {',
        "  orgs.addHook('preHandler', requireTenant);",
        "  orgs.post('/:orgId/sites', { preValidation: verifyCsrf }, async () => ({}));",
        "}, { prefix: '/orgs' });",
      ],
      /\(addHook\)|own options/,
    );
    expect(guards('GET /me')).toEqual(['requireSession | auth | a hook of the root context (addHook)']);
    // (a hook of the root context is inherited by the plugin's: it encloses the route's)
    expect(guards('POST /orgs/o1/sites')).toEqual([
      'requireSession | auth | a hook of the plugin context the route is declared in, or of one enclosing it (addHook)',
      'verifyCsrf | csrf | a hook of the route\'s own options (onRequest, preValidation, preHandler)',
      'requireTenant | tenant | a hook of the plugin context the route is declared in, or of one enclosing it (addHook)',
    ]);
  });

  it("says where an Elysia hook guarding the route was added, in its words: the route's own options or a macro, the instance's lifecycle", () => {
    const guards = hookGuards(
      'rs-elysia-hooks-',
      { elysia: '^1.3.20' },
      [
        "import { Elysia } from 'elysia';",
        '',
        'function requireSession({ cookie, status }) { if (!cookie.sid?.value) return status(401); }',
        'function requireTenant({ params, headers, status }) { if (params.orgId !== headers[\'x-tenant-id\']) return status(404); }',
        '',
        'export const app = new Elysia()',
        '  .onBeforeHandle(requireSession)',
        "  .get('/orgs/:orgId/sites', () => [], { beforeHandle: requireTenant });",
      ],
      /lifecycle hook|own options/,
    );
    expect(guards('GET /orgs/o1/sites')).toEqual([
      "requireSession | auth | a lifecycle hook of the instance the route was added to, registered before it (onBeforeHandle, derive, resolve, onRequest, guard), or a plugin's scoped or global one",
      "requireTenant | tenant | a hook of the route's own options, its group's or guard's, or of a macro it names (beforeHandle, resolve, derive)",
    ]);
  });

  it("two apps serving one path from one file: each route shows its own findings, not the other's (code-server's `router.get('/')` and `wsRouter.ws('/')`)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-two-apps-'));
    try {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'two-apps', dependencies: { express: '4.21.2' } }));
      fs.mkdirSync(path.join(dir, 'src'));
      fs.writeFileSync(
        path.join(dir, 'src', 'main.ts'),
        [
          "import express from 'express';",
          '',
          'function requireAuth(req, res, next) { if (!req.session?.userId) return res.status(401).end(); next(); }',
          '',
          'const web = express();',
          "web.get('/status', requireAuth, (req, res) => res.end('web status'));",
          'web.listen(8080);',
          '',
          'const internal = express();',
          "internal.get('/status', (req, res) => res.end('internal status'));",
          'internal.listen(8081);',
          '',
        ].join('\n'),
      );
      const blocks = cli(['explain', 'GET /status', '--no-color'], dir).stdout.split('\n\n').slice(1);
      const findings = (block: string): string[] => block.split('\n').filter((l) => /^\s+(findings\s+)?(error|warning|info) /.test(l)).map((l) => l.trim().replace(/^findings\s+/, '').split(' ').slice(0, 3).join(' '));
      expect(blocks.map(findings)).toEqual([
        ['error missing-tenant-guard src/main.ts:6:1', 'info uncontracted-route src/main.ts:6:1'],
        ['error missing-auth-guard src/main.ts:10:1', 'error missing-tenant-guard src/main.ts:10:1', 'info uncontracted-route src/main.ts:10:1'],
      ]);
      // `check --verbose` explains each finding's own route: the second app's under its first finding
      const verbose = cli(['check', '--verbose', '--no-color'], dir).stdout.split('\n');
      const at = verbose.findIndex((l) => /^\s+10:1\s+error\s+GET \/status has no auth guard/.test(l));
      expect(verbose.slice(at + 1, at + 4).map((l) => l.trim())).toEqual(['GET /status', 'app         internal (express)', "registered  src/main.ts:10:1  internal.get('/status', (req, res) => res.end('internal status'));"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a malformed request is a usage error', () => {
    const r = cli(['explain', 'GET api/sites'], AUDIT);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'route-surface: explain: expected "METHOD /path" or "/path", got "GET api/sites"\n']);
    expect(cli(['explain'], AUDIT).code).toBe(2);
  });
});

describe('check --verbose', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-verbose-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('prints the route explanation under its first finding and refers back from the others', () => {
    const r = cli(['check', '--verbose'], AUDIT);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('  13:1  error  GET /api/databases/ has no tenant guard (unclassified middleware that may be one: loadAccount; declare it in guards.tenant or guards.ignore)  missing-tenant-guard');
    expect(at).toBeGreaterThan(0);
    const block = EXPLAIN_DB.split('\n').slice(0, -1).map((l) => (l ? `      ${l}` : l));
    expect(lines.slice(at + 1, at + 1 + block.length)).toEqual(block);
    expect(lines.slice(at + 1 + block.length, at + 4 + block.length)).toEqual([
      '',
      '  20:7  error  GET /api/databases/ returns credential-like field connectionString in database metadata  provider-credential-exposure',
      '        (GET /api/databases/ is explained above)',
    ]);
    // Without --verbose, nothing is added.
    expect(cli(['check'], AUDIT).stdout).not.toContain('  registered  ');
  });

  it('under a missing contract route, shows its contract row and the nearest served routes', () => {
    fs.mkdirSync(path.join(tmp, 'src'));
    fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'api', private: true, dependencies: { express: '^4.21.2' } }));
    fs.writeFileSync(
      path.join(tmp, 'src', 'server.ts'),
      [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './guards.js';",
        "import { listDatabases } from './databases.js';",
        '',
        'const app = express();',
        "app.get('/api/health/ready', (_req, res) => res.json({ ok: true }));",
        "app.get('/api/auth/me/', requireSession, requireTenant, (req, res) => res.json(req.session.user));",
        "app.get('/api/sites/', requireSession, requireTenant, (_req, res) => res.json([]));",
        "app.get('/api/deployments/', requireSession, requireTenant, (_req, res) => res.json([]));",
        "app.get('/api/database/', requireSession, requireTenant, listDatabases);",
        'app.listen(8080);',
        '',
      ].join('\n'),
    );
    const r = cli(['check', '--verbose'], tmp);
    expect(r.stdout).toContain(
      [
        'builtin:browser-control-plane@1',
        '  5:1  error  contract route GET /api/databases/ is not served by any analysed app  contract-route-missing',
        '        contract    GET /api/databases/ (auth session, tenant-scoped, resource database) — builtin:browser-control-plane@1, route table row 5',
        '        served      no; nearest routes: GET /api/database/',
        '',
      ].join('\n'),
    );
  });
});

const EXPLAIN_DB = [
  "GET /api/databases/",
  "  app         app (express)",
  "  registered  src/routes/databases.ts:13:1  databasesRouter.get('/', async (req, res) => {",
  "  handler     (inline function)",
  "  prefixes    /api        src/app.ts:40  app.use('/api', api);",
  "              /databases  src/app.ts:38  api.use('/databases', loadAccount, databasesRouter);",
  "  class       contract — serves GET /api/databases/ exactly",
  "  contract    GET /api/databases/ (auth session, tenant-scoped, resource database) — builtin:browser-control-plane@1, route table row 5",
  "  guards      requireSession  auth     router.use() before the route  src/app.ts:33  by name (auth); by behaviour (ends the request with 401)",
  "              loadAccount     unknown  middleware of the mount        src/app.ts:38  neither its name nor its behaviour says what it checks",
  "  expected    ✔ auth   requireSession",
  "              ✖ tenant missing (missing-tenant-guard) — the contract route GET /api/databases/ is tenant-scoped; contract: \"Every non-public request is evaluated inside the active tenant boundary.\"; unclassified middleware that may be one: loadAccount",
  "  findings    error missing-tenant-guard src/routes/databases.ts:13:1 GET /api/databases/ has no tenant guard (unclassified middleware that may be one: loadAccount; declare it in guards.tenant or guards.ignore)",
  "              error provider-credential-exposure src/routes/databases.ts:20:7 GET /api/databases/ returns credential-like field connectionString in database metadata",
  "",
].join('\n');

/**
 * A project of one `src/server.ts` (`lines`) depending on `deps`, written to a temporary directory
 * (removed when the run ends): the guard lines `explain REQUEST` prints that `shown` matches, as
 * `name | kinds | mechanism`.
 */
function hookGuards(prefix: string, deps: Record<string, string>, lines: string[], shown: RegExp): (request: string) => string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'hooks', dependencies: deps }));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'server.ts'), [...lines, ''].join('\n'));
  return (request) =>
    cli(['explain', request], dir)
      .stdout.split('\n')
      .filter((l) => shown.test(l))
      .map((l) => l.replace(/\s+src\/server\.ts.*$/, '').replace(/^\s*(guards)?\s*/, '').replace(/\s{2,}/g, ' | '));
}
