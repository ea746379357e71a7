import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers/run.js';

const GATE = path.join(ROOT, 'fixtures', 'gate');
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

let repo: string;
let baseSha: string;
let headSha: string;
const read = (f: string): string => fs.readFileSync(path.join(repo, f), 'utf8');
const write = (f: string, s: string): void => fs.writeFileSync(path.join(repo, f), s);

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-diff-'));
  fs.cpSync(GATE, repo, { recursive: true });
  write('.gitignore', 'node_modules/\ndist/\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'control plane');
  baseSha = git(repo, 'rev-parse', 'HEAD');

  // The change under review: a new DELETE route without a tenant guard, and the list of
  // deployments loses its tenant guard in a refactor.
  write(
    'src/routes/sites.ts',
    read('src/routes/sites.ts').replace("import { createSite, listSitesForTenant } from '../services/sites.js';", "import { createSite, deleteSite, listSitesForTenant } from '../services/sites.js';") +
      "\nsitesRouter.delete('/:siteId', requireSession, verifyCsrf, async (req, res, next) => {\n  try {\n    await deleteSite(req.params.siteId);\n    res.status(204).end();\n  } catch (err) {\n    next(err);\n  }\n});\n",
  );
  write('src/routes/deployments.ts', read('src/routes/deployments.ts').replace("deploymentsRouter.get('/', requireTenant, async", "deploymentsRouter.get('/', async"));
  git(repo, 'commit', '-q', '-am', 'sites: delete; deployments: simplify');
  headSha = git(repo, 'rev-parse', 'HEAD');
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

interface DiffJson {
  base: { ref: string | null; commit: string | null; workTree?: boolean };
  head: { ref: string | null; commit: string | null; workTree?: boolean };
  routes: {
    added: { method: string; path: string; file: string; line: number; classification: string; guards: Record<string, string[]> }[];
    removed: { method: string; path: string }[];
    changed: unknown[];
  };
  contractCoverage: { base: string; head: string; changed: unknown[] };
  findings: { new: { ruleId: string; severity: string; file: string; line: number; message: string }[]; resolved: unknown[] };
  summary: Record<string, number>;
}

describe('route-surface diff', () => {
  it('reports the added route, the lost guard and the findings new at head (json)', () => {
    const r = cli(['diff', '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json'], repo);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as DiffJson;
    expect(d.base).toEqual({ ref: 'HEAD~1', commit: baseSha });
    expect(d.head).toEqual({ ref: 'HEAD', commit: headSha });
    expect(d.routes.added.map((x) => ({ method: x.method, path: x.path, file: x.file, line: x.line, classification: x.classification, guards: x.guards }))).toEqual([
      {
        method: 'DELETE',
        path: '/api/sites/:siteId',
        file: 'src/routes/sites.ts',
        line: 28,
        classification: 'browser',
        guards: { auth: ['requireSession'], tenant: [], csrf: ['verifyCsrf'], family: [], unknown: [], bearer: [] },
      },
    ]);
    expect(d.routes.removed).toEqual([]);
    expect(d.routes.changed).toEqual([
      {
        method: 'GET',
        path: '/api/deployments/',
        file: 'src/routes/deployments.ts',
        line: 9,
        guards: { gained: [], lost: [{ name: 'requireTenant', kinds: ['tenant'] }] },
        classification: null,
        contractRoute: null,
      },
    ]);
    expect(d.contractCoverage).toEqual({ base: '4/5', head: '4/5', changed: [] });
    expect(d.findings.new.map((f) => `${f.severity} ${f.ruleId} ${f.file}:${f.line} ${f.message}`)).toEqual([
      'error missing-tenant-guard src/routes/deployments.ts:9 GET /api/deployments/ has no tenant guard',
      'error missing-tenant-guard src/routes/sites.ts:28 DELETE /api/sites/:siteId has no tenant guard',
      'info uncontracted-route src/routes/sites.ts:28 DELETE /api/sites/:siteId is on the browser surface but not in the contract',
    ]);
    expect(d.findings.resolved).toEqual([]);
    expect(d.summary).toEqual({ added: 1, removed: 0, changed: 1, newFindings: 3, newErrors: 2, resolvedFindings: 0 });
  });

  it('prints a Markdown report ready for a pull-request comment', () => {
    const r = cli(['diff', '--base', baseSha, '--head', 'main'], repo);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `## Route surface: \`${baseSha}\` (${baseSha.slice(0, 12)}) → \`main\` (${headSha.slice(0, 12)})`,
        '',
        '**1 route added, 0 removed, 1 changed** · 3 new findings (2 errors) · 0 findings resolved · contract routes served: 4/5 → 4/5',
        '',
        '### Added routes',
        '',
        '| Route | Class | Guards | Location |',
        '|---|---|---|---|',
        '| `DELETE /api/sites/:siteId` | browser | requireSession (auth), verifyCsrf (csrf) | `src/routes/sites.ts:28` |',
        '',
        '### Changed routes',
        '',
        '| Route | Change | Location |',
        '|---|---|---|',
        '| `GET /api/deployments/` | lost guard `requireTenant` (tenant) | `src/routes/deployments.ts:9` |',
        '',
        '### New findings at head',
        '',
        '| Severity | Rule | Location | Message |',
        '|---|---|---|---|',
        '| error | `missing-tenant-guard` | `src/routes/deployments.ts:9` | GET /api/deployments/ has no tenant guard |',
        '| error | `missing-tenant-guard` | `src/routes/sites.ts:28` | DELETE /api/sites/:siteId has no tenant guard |',
        '| info | `uncontracted-route` | `src/routes/sites.ts:28` | DELETE /api/sites/:siteId is on the browser surface but not in the contract |',
        '',
      ].join('\n'),
    );
  });

  it('without --head compares with the work tree, and leaves the work tree, index and HEAD untouched', () => {
    const before = { status: git(repo, 'status', '--porcelain'), head: git(repo, 'rev-parse', 'HEAD'), sites: read('src/routes/sites.ts') };
    // Uncommitted: the new route gets its tenant guard; an auth/me route is added in a new, untracked file.
    write('src/routes/sites.ts', read('src/routes/sites.ts').replace("sitesRouter.delete('/:siteId', requireSession, verifyCsrf,", "sitesRouter.delete('/:siteId', requireSession, requireTenant, verifyCsrf,"));
    write(
      'src/routes/me.ts',
      "import { Router } from 'express';\nimport { requireSession, requireTenant } from '../middleware/auth.js';\n\nexport const meRouter = Router();\n\nmeRouter.get('/me/', requireSession, requireTenant, (req, res) => {\n  res.json({ id: req.session.userId, tenants: req.session.memberships });\n});\n",
    );
    write('src/app.ts', read('src/app.ts').replace("import { internalRouter } from './routes/internal.js';", "import { internalRouter } from './routes/internal.js';\nimport { meRouter } from './routes/me.js';").replace("  app.use('/api', internalRouter);", "  app.use('/api/auth', meRouter);\n  app.use('/api', internalRouter);"));
    const edited = { status: git(repo, 'status', '--porcelain'), sites: read('src/routes/sites.ts') };

    const r = cli(['diff', '--base', 'HEAD', '--format', 'json'], repo);
    expect(r.stderr).toBe('');
    const d = JSON.parse(r.stdout) as DiffJson;
    expect(d.head).toEqual({ ref: null, commit: null, workTree: true });
    expect(d.routes.added.map((x) => `${x.method} ${x.path} ${x.classification}`)).toEqual(['GET /api/auth/me/ contract']);
    expect(d.routes.changed).toEqual([
      {
        method: 'DELETE',
        path: '/api/sites/:siteId',
        file: 'src/routes/sites.ts',
        line: 28,
        guards: { gained: [{ name: 'requireTenant', kinds: ['tenant'] }], lost: [] },
        classification: null,
        contractRoute: null,
      },
    ]);
    expect(d.contractCoverage).toEqual({ base: '4/5', head: '5/5', changed: [{ route: 'GET /api/auth/me/', from: 'missing', to: 'served' }] });
    expect(d.findings.new).toEqual([]);
    expect(d.findings.resolved).toMatchObject([
      { ruleId: 'contract-route-missing', file: 'builtin:browser-control-plane@1', message: 'contract route GET /api/auth/me/ is not served by any analysed app' },
      { ruleId: 'missing-tenant-guard', file: 'src/routes/sites.ts', message: 'DELETE /api/sites/:siteId has no tenant guard' },
    ]);

    // Nothing was checked out, staged or committed.
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(git(repo, 'status', '--porcelain')).toBe(edited.status);
    expect(read('src/routes/sites.ts')).toBe(edited.sites);
    expect(edited.sites).not.toBe(before.sites);

    const md = cli(['diff', '--base', 'HEAD'], repo).stdout;
    expect(md.split('\n')[0]).toBe(`## Route surface: \`HEAD\` (${headSha.slice(0, 12)}) → the work tree`);
    expect(md).toContain('### Contract coverage\n\n| Contract route | Before | After |\n|---|---|---|\n| `GET /api/auth/me/` | missing | served |\n');
    git(repo, 'checkout', '-q', '--', 'src/routes/sites.ts', 'src/app.ts');
    fs.rmSync(path.join(repo, 'src/routes/me.ts'));
  });

  it('analyses a subdirectory project at each revision and reports no change when there is none', () => {
    const mono = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-diff-mono-'));
    fs.cpSync(GATE, path.join(mono, 'services', 'control-plane'), { recursive: true });
    git(mono, 'init', '-q', '-b', 'main');
    git(mono, 'add', '.');
    git(mono, 'commit', '-q', '-m', 'one');
    fs.writeFileSync(path.join(mono, 'README.md'), '# services\n');
    git(mono, 'add', 'README.md');
    git(mono, 'commit', '-q', '-m', 'docs');
    const r = cli(['diff', '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json'], path.join(mono, 'services', 'control-plane'));
    expect(r.stderr).toBe('');
    const d = JSON.parse(r.stdout) as DiffJson;
    expect(d.summary).toEqual({ added: 0, removed: 0, changed: 0, newFindings: 0, newErrors: 0, resolvedFindings: 0 });
    expect(d.contractCoverage).toEqual({ base: '4/5', head: '4/5', changed: [] });
    const md = cli(['diff', '--base', 'HEAD~1', '--head', 'HEAD'], path.join(mono, 'services', 'control-plane')).stdout;
    expect(md.trim().split('\n').pop()).toBe('No change to the route surface.');
    fs.rmSync(mono, { recursive: true, force: true });
  });

  it('reads a contract kept outside the repository the same way on both sides; --quiet keeps new errors only', () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-diff-outer-'));
    const app = path.join(outer, 'app');
    fs.cpSync(GATE, app, { recursive: true });
    fs.mkdirSync(path.join(outer, 'contracts'));
    fs.renameSync(path.join(app, 'openapi.yaml'), path.join(outer, 'contracts', 'control-plane.yaml'));
    git(app, 'init', '-q', '-b', 'main');
    git(app, 'add', '.');
    git(app, 'commit', '-q', '-m', 'one');
    const sites = path.join(app, 'src/routes/sites.ts');
    fs.writeFileSync(sites, fs.readFileSync(sites, 'utf8') + "\nsitesRouter.get('/:siteId', requireSession, async (req, res) => {\n  res.json({ id: req.params.siteId });\n});\n");
    const r = cli(['diff', '--base', 'HEAD', '--contract', '../contracts/control-plane.yaml', '--quiet', '--format', 'json'], app);
    expect(r.stderr).toBe('');
    const d = JSON.parse(r.stdout) as DiffJson;
    expect(d.routes.added.map((x) => `${x.method} ${x.path} ${x.classification}`)).toEqual(['GET /api/sites/:siteId browser']);
    // The contract's own finding (GET /api/auth/me/ not served) is the same on both sides: neither new nor resolved.
    expect(d.findings.new.map((f) => `${f.severity} ${f.ruleId} ${f.file}:${f.line}`)).toEqual(['error missing-tenant-guard src/routes/sites.ts:28']);
    expect(d.findings.resolved).toEqual([]);
    expect(d.contractCoverage).toEqual({ base: '6/7', head: '6/7', changed: [] });
    fs.rmSync(outer, { recursive: true, force: true });
  });

  it('writes nothing outside its copy for a crafted commit whose tree holds `..` paths', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-outside-'));
    try {
      const mktree = (entries: string): string => {
        const r = spawnSync('git', ['mktree'], { cwd: repo, input: entries, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(r.stderr);
        return r.stdout.trim();
      };
      const blob = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: "export const leaked = 'written outside';\n", encoding: 'utf8' }).stdout.trim();
      // ../ (more than enough of them to reach /) then the parts of `outside`: escaped.ts
      let tree = mktree(`100644 blob ${blob}\tescaped.ts\n`);
      for (const part of [...outside.split(path.sep).filter(Boolean).reverse(), ...Array<string>(40).fill('..')]) tree = mktree(`040000 tree ${tree}\t${part}\n`);
      const headTree = git(repo, 'rev-parse', `${headSha}^{tree}`);
      const top = mktree(git(repo, 'ls-tree', headTree) + `\n040000 tree ${tree}\t..\n`);
      const crafted = git(repo, 'commit-tree', '-p', headSha, '-m', 'crafted', top);
      expect(git(repo, 'ls-tree', '-r', '--name-only', crafted).split('\n').filter((f) => f.startsWith('..'))).toHaveLength(1);
      const r = cli(['diff', '--base', headSha, '--head', crafted, '--format', 'json'], repo);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as DiffJson).routes).toEqual({ added: [], removed: [], changed: [] });
      expect(fs.readdirSync(outside)).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('bad revisions and non-repositories are one-line errors with exit 2', () => {
    expect(cli(['diff', '--base', 'no-such-branch'], repo)).toMatchObject({ code: 2, stdout: '', stderr: 'route-surface: --base no-such-branch: not a commit in this repository\n' });
    expect(cli(['diff', '--base', 'HEAD', '--head', 'v9'], repo)).toMatchObject({ code: 2, stderr: 'route-surface: --head v9: not a commit in this repository\n' });
    expect(cli(['diff'], repo)).toMatchObject({ code: 2, stderr: "route-surface: required option '--base <ref>' not specified\n" });
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-nogit-'));
    const r = cli(['diff', '--base', 'HEAD'], plain, { GIT_CEILING_DIRECTORIES: path.dirname(plain) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^route-surface: git rev-parse: not a git repository[^\n]*\n$/);
    fs.rmSync(plain, { recursive: true, force: true });
  });
});
