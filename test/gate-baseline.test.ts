import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers/run.js';

const GATE = path.join(ROOT, 'fixtures', 'gate');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-baseline-'));
  fs.cpSync(GATE, dir, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = (f: string): string => fs.readFileSync(path.join(dir, f), 'utf8');
const edit = (f: string, fn: (s: string) => string): void => fs.writeFileSync(path.join(dir, f), fn(read(f)));

interface JsonReport {
  findings: { ruleId: string; file: string; line: number; message: string; fingerprint: string }[];
  baseline?: { file: string; total: number; matched: number; stale: { ruleId: string; file: string; route?: string; message: string }[]; strict: boolean };
  summary: { errors: number; warnings: number; infos: number };
}

describe('baselines', () => {
  it('--update-baseline writes a deterministic, line-free, reviewable file atomically', () => {
    const r = cli(['check', '--update-baseline'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('route-surface: wrote route-surface.baseline.json: 6 findings recorded (6 added, 0 dropped)\n');
    const text = read('route-surface.baseline.json');
    const fingerprints = (JSON.parse(cli(['check', '--format', 'json'], dir).stdout) as JsonReport).findings.map((f) => f.fingerprint);
    const data = JSON.parse(text) as { tool: string; version: number; findings: Record<string, string>[] };
    expect(data.tool).toBe('route-surface');
    expect(data.version).toBe(1);
    // Sorted by file, rule, route; no line numbers anywhere.
    expect(data.findings.map((e) => `${e.file} ${e.ruleId} ${e.route ?? '-'}`)).toEqual([
      'builtin:browser-control-plane@1 contract-route-missing -',
      'src/routes/databases.ts provider-credential-exposure GET /api/databases/',
      'src/routes/deployments.ts missing-tenant-guard GET /api/deployments/:id',
      'src/routes/deployments.ts uncontracted-route GET /api/deployments/:id',
      'src/routes/internal.ts excluded-family-leak POST /api/internal/cache/flush',
      'src/routes/sites.ts uncontracted-route POST /api/sites/',
    ]);
    expect(data.findings.map((e) => Object.keys(e).join(','))).toContain('fingerprint,ruleId,file,route,message');
    expect(text).not.toMatch(/"line"/);
    expect(new Set(data.findings.map((e) => e.fingerprint))).toEqual(new Set(fingerprints));
    expect(text.endsWith('}\n')).toBe(true);
    // Nothing left beside it from the temp-file-and-rename write.
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    // Deterministic: the same code gives the same bytes.
    expect(cli(['check', '--update-baseline'], dir).stdout).toBe('route-surface: wrote route-surface.baseline.json: 6 findings recorded (0 added, 0 dropped)\n');
    expect(read('route-surface.baseline.json')).toBe(text);
  });

  it('--update-baseline through a link writes the file it leads to, and the link stays', () => {
    fs.mkdirSync(path.join(dir, 'ci'));
    fs.symlinkSync(path.join('ci', 'baseline.json'), path.join(dir, 'route-surface.baseline.json'));
    expect(cli(['check', '--update-baseline'], dir).code).toBe(0);
    expect(fs.lstatSync(path.join(dir, 'route-surface.baseline.json')).isSymbolicLink()).toBe(true);
    expect((JSON.parse(read('ci/baseline.json')) as { findings: unknown[] }).findings).toHaveLength(6);
    expect(cli(['check', '--baseline', 'route-surface.baseline.json'], dir).code).toBe(0);
  });

  it('hides recorded findings and survives lines inserted above a finding', () => {
    cli(['check', '--update-baseline', '--baseline', 'rs-baseline.json'], dir);
    const clean = cli(['check', '--baseline', 'rs-baseline.json'], dir);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('✔ no problems (7 routes in 11 files, contract browser-control-plane@1.0.0)\nbaseline rs-baseline.json: 6 known findings not shown\n');

    // Move the unguarded deployment route down by seven lines (a new import and helper above it).
    edit('src/routes/deployments.ts', (s) =>
      s
        .replace("import { query } from '../db/pool.js';", "import { query } from '../db/pool.js';\nimport { logger } from '../logger.js';")
        .replace(
          'export const deploymentsRouter = Router();',
          'export const deploymentsRouter = Router();\n\nfunction audit(event: string, id: string) {\n  logger.info({ event, id }, "deployment read");\n}\n',
        )
        .replace("  const [row] = await query('select * from deployments where id = $1', [req.params.id]);", "  audit('deployment.read', req.params.deploymentId);\n  const [row] = await query('select * from deployments where id = $1', [req.params.deploymentId]);")
        // and name its parameter better: the route is the same
        .replace("deploymentsRouter.get('/:id', async", "deploymentsRouter.get('/:deploymentId', async"),
    );
    fs.writeFileSync(path.join(dir, 'src/logger.ts'), "export const logger = { info: (fields: object, msg: string) => console.log(JSON.stringify({ ...fields, msg })) };\n");
    const moved = JSON.parse(cli(['check', '--format', 'json'], dir).stdout) as JsonReport;
    expect(moved.findings.filter((f) => f.file === 'src/routes/deployments.ts').map((f) => `${f.line} ${f.ruleId} ${f.message}`)).toEqual([
      '20 missing-tenant-guard GET /api/deployments/:deploymentId has no tenant guard',
      '20 uncontracted-route GET /api/deployments/:deploymentId is on the browser surface but not in the contract',
    ]);

    const after = JSON.parse(cli(['check', '--format', 'json', '--baseline', 'rs-baseline.json'], dir).stdout) as JsonReport;
    expect(after.findings).toEqual([]);
    expect(after.baseline).toEqual({ file: 'rs-baseline.json', total: 6, matched: 6, stale: [], strict: false });
    expect(cli(['check', '--baseline', 'rs-baseline.json', '--baseline-strict'], dir).code).toBe(0);
    // Rewriting the baseline after the move changes only the recorded route names (the new parameter name).
    const before = read('rs-baseline.json');
    cli(['check', '--update-baseline', '--baseline', 'rs-baseline.json'], dir);
    expect(read('rs-baseline.json')).toBe(before.replaceAll('/api/deployments/:id', '/api/deployments/:deploymentId'));
  });

  it('reports only new findings, and fails on them', () => {
    cli(['check', '--update-baseline'], dir);
    edit('src/routes/sites.ts', (s) =>
      s +
        "\nsitesRouter.delete('/:siteId', requireSession, verifyCsrf, async (req, res, next) => {\n  try {\n    await deleteSite(req.params.siteId);\n    res.status(204).end();\n  } catch (err) {\n    next(err);\n  }\n});\n",
    );
    edit('src/routes/sites.ts', (s) => s.replace("import { createSite, listSitesForTenant } from '../services/sites.js';", "import { createSite, deleteSite, listSitesForTenant } from '../services/sites.js';"));
    const r = cli(['check', '--baseline', 'route-surface.baseline.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'src/routes/sites.ts',
        '  28:1  error  DELETE /api/sites/:siteId has no tenant guard  missing-tenant-guard',
        '  28:1  info   DELETE /api/sites/:siteId is on the browser surface but not in the contract  uncontracted-route',
        '',
        '✖ 2 problems (1 error, 0 warnings, 1 info) — 8 routes in 11 files, contract browser-control-plane@1.0.0',
        'baseline route-surface.baseline.json: 6 known findings not shown',
        '',
      ].join('\n'),
    );
  });

  it('lists stale entries (fixed or changed); --baseline-strict fails on them; --update-baseline drops them', () => {
    cli(['check', '--update-baseline'], dir);
    // Fix the missing tenant guard.
    edit('src/routes/deployments.ts', (s) => s.replace("deploymentsRouter.get('/:id', async", "deploymentsRouter.get('/:id', requireTenant, async"));
    const json = JSON.parse(cli(['check', '--format', 'json', '--baseline', 'route-surface.baseline.json'], dir).stdout) as JsonReport;
    // The other finding on the edited registration line still matches: route findings are
    // identified by rule, route and file, not by how the line is written.
    expect(json.findings).toEqual([]);
    expect(json.baseline!.matched).toBe(5);
    expect(json.baseline!.stale.map((e) => `${e.file} ${e.ruleId} ${e.route} ${e.message}`)).toEqual([
      'src/routes/deployments.ts missing-tenant-guard GET /api/deployments/:id GET /api/deployments/:id has no tenant guard',
    ]);

    const lax = cli(['check', '--baseline', 'route-surface.baseline.json'], dir);
    expect(lax.code).toBe(0);
    const strict = cli(['check', '--baseline', 'route-surface.baseline.json', '--baseline-strict'], dir);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe(
      [
        '✔ no problems (7 routes in 11 files, contract browser-control-plane@1.0.0)',
        'baseline route-surface.baseline.json: 5 known findings not shown; 1 entry no longer matches (fixed or changed) and fails the run (--baseline-strict) — run with --update-baseline to drop it:',
        '  src/routes/deployments.ts  missing-tenant-guard  GET /api/deployments/:id has no tenant guard',
        '',
      ].join('\n'),
    );
    const gh = cli(['check', '--format', 'github', '--baseline', 'route-surface.baseline.json', '--baseline-strict'], dir, { GITHUB_STEP_SUMMARY: '' });
    expect(gh.code).toBe(1);
    expect(gh.stdout.split('\n')[0]).toBe(
      '::error file=src/routes/deployments.ts,title=route-surface stale baseline entry::route-surface.baseline.json records missing-tenant-guard on GET /api/deployments/:id ("GET /api/deployments/:id has no tenant guard"), which no longer occurs; run route-surface check --update-baseline to drop it',
    );
    const md = cli(['check', '--format', 'markdown', '--baseline', 'route-surface.baseline.json', '--baseline-strict'], dir);
    expect(md.stdout).toContain('Baseline `route-surface.baseline.json`: 5 known findings not shown; 1 stale entry (fails the run: --baseline-strict).');
    expect(md.stdout).toContain('| `missing-tenant-guard` | `src/routes/deployments.ts` | `GET /api/deployments/:id` | GET /api/deployments/:id has no tenant guard |');

    expect(cli(['check', '--update-baseline'], dir).stdout).toBe('route-surface: wrote route-surface.baseline.json: 5 findings recorded (0 added, 1 dropped)\n');
    expect(cli(['check', '--baseline', 'route-surface.baseline.json', '--baseline-strict'], dir).code).toBe(0);
  });

  it('in an explicit-file (pre-commit) run, entries of other files are out of view: not stale, and kept on update', () => {
    cli(['check', '--update-baseline'], dir);
    const full = read('route-surface.baseline.json');
    const r = JSON.parse(cli(['check', '--format', 'json', '--baseline', 'route-surface.baseline.json', '--baseline-strict', 'src/routes/sites.ts'], dir).stdout) as JsonReport;
    expect(r.findings).toEqual([]);
    expect(r.baseline).toEqual({ file: 'route-surface.baseline.json', total: 6, matched: 2, stale: [], strict: true });
    expect(cli(['check', '--update-baseline', 'src/routes/sites.ts'], dir).stdout).toBe('route-surface: wrote route-surface.baseline.json: 6 findings recorded (0 added, 0 dropped)\n');
    expect(read('route-surface.baseline.json')).toBe(full);
  });

  it('bad baselines are one-line errors with exit 2', () => {
    expect(cli(['check', '--baseline', 'missing.json'], dir)).toEqual({ code: 2, stdout: '', stderr: 'route-surface: missing.json: cannot read baseline (ENOENT)\n' });
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ tool: 'route-surface', version: 1, findings: [{ fingerprint: 'abc', ruleId: 'missing-auth-guard', file: 'src/a.ts' }] }));
    expect(cli(['check', '--baseline', 'b.json'], dir)).toMatchObject({ code: 2, stderr: 'route-surface: b.json: invalid baseline at /findings/0/message: must be a non-empty string\n' });
    fs.writeFileSync(path.join(dir, 'b.json'), '{"tool": "route-surface", "version": 1, "findings": [}');
    expect(cli(['check', '--baseline', 'b.json'], dir).stderr).toMatch(/^route-surface: b\.json(:1:\d+)?: invalid JSON in baseline: [^\n]+\n$/);
    expect(cli(['check', '--baseline-strict'], dir)).toMatchObject({ code: 2, stderr: 'route-surface: --baseline-strict needs --baseline FILE\n' });
  });
});
