/**
 * The file system: symlink loops, links out of the root (never followed), unreadable files
 * and directories (reported, the run goes on), paths with spaces and non-ASCII names, and
 * command-line paths that do not exist or are not files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ROUTES, checkJson, cleanProjects, cli, findingKeys, findingLines, project, routeLines, write } from './helpers.js';

afterAll(cleanProjects);

/** A router module whose routes are visible only if the file is analysed. */
function routerModule(name: string, paths: string[]): string {
  return [
    "import { Router } from 'express';",
    '',
    `export const ${name} = Router();`,
    '',
    ...paths.map((p) => `${name}.get('${p}', async (req, res) => {\n  res.json({ items: [], tenant: req.tenantId });\n});`),
    '',
  ].join('\n');
}

/** app.ts of the server with extra mounts behind the session and tenant guards. */
function appWith(mounts: { name: string; from: string; at: string }[]): string {
  return [
    "import express from 'express';",
    "import session from 'express-session';",
    "import { requireSession, requireTenant, requireServiceToken } from './middleware/auth.js';",
    "import { healthRouter } from './routes/health.js';",
    "import { accountRouter } from './routes/account.js';",
    "import { resourcesRouter } from './routes/resources.js';",
    "import { internalRouter } from './routes/internal.js';",
    ...mounts.map((m) => `import { ${m.name} } from '${m.from}';`),
    '',
    'export function createApp(secret: string) {',
    '  const app = express();',
    "  app.use(session({ secret, name: 'sid', cookie: { httpOnly: true, secure: true } }));",
    "  app.use('/api/health', healthRouter);",
    "  app.use('/api/internal', requireServiceToken, internalRouter);",
    "  app.use('/api/auth', requireSession, requireTenant, accountRouter);",
    ...mounts.map((m) => `  app.use('${m.at}', requireSession, requireTenant, ${m.name});`),
    "  app.use('/api', requireSession, requireTenant, resourcesRouter);",
    '  return app;',
    '}',
    '',
  ].join('\n');
}

const isRoot = process.getuid?.() === 0;

describe('symbolic links', () => {
  it('never follows links: loops terminate and nothing outside the root is read', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'stolen.ts'), routerModule('stolenRouter', ['/stolen']));
      fs.mkdirSync(path.join(outside, 'pkg'));
      fs.writeFileSync(path.join(outside, 'pkg', 'index.ts'), routerModule('pkgRouter', ['/from-outside']));
      const dir = project({ 'src/routes/reports.ts': routerModule('reportsRouter', ['/weekly']) });
      write(dir, 'src/app.ts', appWith([{ name: 'reportsRouter', from: './routes/reports.js', at: '/api/reports' }]));
      fs.symlinkSync('..', path.join(dir, 'src', 'routes', 'up')); // a loop: src/routes/up/routes/up/…
      fs.symlinkSync('.', path.join(dir, 'src', 'self')); // another loop
      fs.symlinkSync(outside, path.join(dir, 'src', 'vendor')); // a directory outside the root
      fs.symlinkSync(path.join(outside, 'stolen.ts'), path.join(dir, 'src', 'routes', 'stolen.ts')); // a file outside it
      fs.symlinkSync('reports.ts', path.join(dir, 'src', 'routes', 'alias.ts')); // a file inside it

      const r = checkJson(dir);
      expect(routeLines(r)).toEqual([...SERVER_ROUTES.slice(0, 4), 'POST /api/internal/reindex src/routes/internal.ts:6', 'GET /api/reports/weekly src/routes/reports.ts:5', SERVER_ROUTES[5]]);
      expect(r.summary.files).toBe(10);
      expect(JSON.stringify(r)).not.toContain('stolen');
      expect(JSON.stringify(r)).not.toContain('from-outside');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a command-line path that leads out of the root through a link (exit 2, one line)', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'stolen.ts'), routerModule('stolenRouter', ['/stolen']));
      const dir = project();
      fs.symlinkSync(outside, path.join(dir, 'vendor'));
      fs.symlinkSync(path.join(outside, 'stolen.ts'), path.join(dir, 'stolen.ts'));
      for (const arg of ['vendor', 'vendor/stolen.ts', 'stolen.ts']) {
        const r = cli(['check', arg], dir);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(`route-surface: ${arg}: a symbolic link that leads outside the project root (${fs.realpathSync(dir)}); not followed\n`);
      }
      const up = cli(['check', '../'], dir);
      expect(up.code).toBe(2);
      expect(up.stderr).toBe(`route-surface: ../: outside the project root (${fs.realpathSync(dir)})\n`);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('reads no manifest through a link that leads out of the root', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-outside-'));
    try {
      const tsconfig = JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } });
      fs.writeFileSync(path.join(outside, 'tsconfig.json'), tsconfig);
      const files = { 'src/routes/reports.ts': routerModule('reportsRouter', ['/weekly']) };
      const mounted = appWith([{ name: 'reportsRouter', from: '@app/routes/reports.js', at: '/api/reports' }]);
      // control: the same tsconfig as a file of the project resolves the alias
      const plain = project({ ...files, 'tsconfig.json': tsconfig });
      write(plain, 'src/app.ts', mounted);
      expect(routeLines(checkJson(plain))).toContain('GET /api/reports/weekly src/routes/reports.ts:5');
      // as a link to a file outside the root, it is not read
      const linked = project(files);
      write(linked, 'src/app.ts', mounted);
      fs.symlinkSync(path.join(outside, 'tsconfig.json'), path.join(linked, 'tsconfig.json'));
      const r = checkJson(linked);
      // the alias stays unknown (a package, to the linker): the router is never seen mounted
      expect(routeLines(r)).toEqual([...SERVER_ROUTES, 'GET /weekly src/routes/reports.ts:5']);
      expect(findingKeys(r, 'unresolved-route')).toEqual(['src/routes/reports.ts:3:30 unresolved-route']);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('names a file given through a link inside the root by its real path', () => {
    const dir = project();
    fs.symlinkSync('src/routes', path.join(dir, 'routes-link'));
    const r = checkJson(dir, ['routes-link/resources.ts']);
    // pre-commit mode: the whole graph is built, findings are limited to the named file
    expect(routeLines(r)).toEqual(SERVER_ROUTES);
    expect(r.findings).toEqual([]);
  });
});

describe('permissions', () => {
  it('reports an unreadable file and an unreadable directory and analyses the rest', () => {
    const dir = project({
      'src/routes/reports.ts': routerModule('reportsRouter', ['/weekly']),
      'src/routes/exports/index.ts': routerModule('exportsRouter', ['/csv']),
    });
    write(dir, 'src/app.ts', appWith([
      { name: 'reportsRouter', from: './routes/reports.js', at: '/api/reports' },
      { name: 'exportsRouter', from: './routes/exports/index.js', at: '/api/exports' },
    ]));
    fs.chmodSync(path.join(dir, 'src/routes/reports.ts'), 0o000);
    fs.chmodSync(path.join(dir, 'src/routes/exports'), 0o000);
    const r = checkJson(dir, [], { unprivileged: true });
    expect(findingLines(r, 'parse-error')).toEqual([
      'src/routes/exports:1:1 parse-error cannot parse: cannot read the directory (EACCES); the files under it are not analysed',
      'src/routes/reports.ts:1:1 parse-error cannot parse: cannot read the file (EACCES); not analysed',
    ]);
    // What the unreadable files held is unknown, and the mounts of what they export say so.
    expect(findingKeys(r, 'unresolved-route')).toEqual(['src/app.ts:17:3 unresolved-route', 'src/app.ts:18:3 unresolved-route']);
    expect(routeLines(r)).toEqual(SERVER_ROUTES);
  });

  it('fails with one line when an unreadable file is named on the command line', () => {
    const dir = project();
    fs.chmodSync(path.join(dir, 'src/routes/resources.ts'), 0o000);
    const r = cli(['check', 'src/routes/resources.ts'], dir, { unprivileged: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('route-surface: src/routes/resources.ts: cannot read (EACCES)\n');
  });

  it('runs as an unprivileged user at all (the permission tests above depend on it)', () => {
    const r = cli(['rules'], project(), { unprivileged: true });
    expect(r.code).toBe(0);
    if (isRoot) expect(spawnSync('id', ['-u'], { uid: 65534, gid: 65534, encoding: 'utf8' }).stdout.trim()).toBe('65534');
  });
});

describe('names and paths', () => {
  it('handles spaces and non-ASCII names in directories, files and imports', () => {
    const dir = project({
      'src/routes/rapports mensuels/équipes €.ts': routerModule('equipesRouter', ['/équipes', '/teams']),
      'src/routes/日本/ルート.ts': routerModule('nihonRouter', ['/jp']),
    });
    write(dir, 'src/app.ts', appWith([
      { name: 'equipesRouter', from: './routes/rapports mensuels/équipes €.js', at: '/api/rapports' },
      { name: 'nihonRouter', from: './routes/日本/ルート.js', at: '/api/日本' },
    ]));
    const r = checkJson(dir);
    expect(routeLines(r)).toEqual([
      'GET /api/auth/me/ src/routes/account.ts:5',
      'GET /api/databases/ src/routes/resources.ts:14',
      'GET /api/deployments/ src/routes/resources.ts:10',
      'GET /api/health/ready src/routes/health.ts:6',
      'POST /api/internal/reindex src/routes/internal.ts:6',
      'GET /api/rapports/teams src/routes/rapports mensuels/équipes €.ts:8',
      'GET /api/rapports/équipes src/routes/rapports mensuels/équipes €.ts:5',
      'GET /api/sites/ src/routes/resources.ts:6',
      'GET /api/日本/jp src/routes/日本/ルート.ts:5',
    ]);
    // and the same file named on the command line, spaces and all
    const focused = checkJson(dir, ['src/routes/rapports mensuels/équipes €.ts']);
    expect(findingKeys(focused)).toEqual([
      'src/routes/rapports mensuels/équipes €.ts:5:1 uncontracted-route GET /api/rapports/équipes',
      'src/routes/rapports mensuels/équipes €.ts:8:1 uncontracted-route GET /api/rapports/teams',
    ]);
  });

  it('fails with exit 2 and one line for a path that does not exist', () => {
    const dir = project();
    const r = cli(['check', 'src/routes/missing.ts'], dir);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'route-surface: src/routes/missing.ts: no such file or directory\n' });
    const list = cli(['list', 'src', 'no such dir'], dir);
    expect(list).toEqual({ code: 2, stdout: '', stderr: 'route-surface: no such dir: no such file or directory\n' });
  });

  it('refuses a named FIFO (reading it would block forever) and ignores one found in the tree', () => {
    const dir = project();
    const fifo = path.join(dir, 'src', 'routes', 'pipe.ts');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const named = cli(['check', 'src/routes/pipe.ts'], dir, { timeoutMs: 30_000 });
    expect(named).toEqual({ code: 2, stdout: '', stderr: 'route-surface: src/routes/pipe.ts: not a regular file or directory\n' });
    const r = checkJson(dir);
    expect(routeLines(r)).toEqual(SERVER_ROUTES);
    expect(r.summary.files).toBe(9);
  });
});
