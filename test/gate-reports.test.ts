import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { escapeData, escapeProperty, formatGithub } from '../src/report/github.js';
import type { RunResult } from '../src/engine.js';
import { cli, ROOT } from './helpers/run.js';

const GATE = path.join(ROOT, 'fixtures', 'gate');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The official SARIF 2.1.0 schema (OASIS, errata01), a JSON Schema draft-04 document. */
function sarifValidator() {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'schemas', 'sarif-schema-2.1.0.json'), 'utf8')) as { $schema: string };
  expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
  const ajv = new Ajv04({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: { id: string; shortDescription: { text: string }; fullDescription: { text: string }; help: { text: string; markdown: string }; defaultConfiguration: { level: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }[];
      partialFingerprints: Record<string, string>;
      baselineState?: string;
    }[];
  }[];
}

const GATE_FINDINGS = [
  'error contract-route-missing builtin:browser-control-plane@1:2 contract route GET /api/auth/me/ is not served by any analysed app',
  'error provider-credential-exposure src/routes/databases.ts:16:9 GET /api/databases/ returns credential-like field connectionString in database metadata',
  'error missing-tenant-guard src/routes/deployments.ts:14:1 GET /api/deployments/:id has no tenant guard',
  'info uncontracted-route src/routes/deployments.ts:14:1 GET /api/deployments/:id is on the browser surface but not in the contract',
  'error excluded-family-leak src/routes/internal.ts:6:1 POST /api/internal/cache/flush is in the excluded family "internal" and is reachable without its family guard (unguarded)',
  'info uncontracted-route src/routes/sites.ts:16:1 POST /api/sites/ is on the browser surface but not in the contract',
];

describe('check --format sarif', () => {
  it('is valid SARIF 2.1.0 with every rule and one located, fingerprinted result per finding', () => {
    const r = cli(['check', '--format', 'sarif'], GATE);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout) as SarifLog;
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The validator does reject what code scanning would: a level SARIF does not define.
    const broken = structuredClone(log);
    broken.runs[0]!.results[0]!.level = 'info';
    expect(validate(broken)).toBe(false);

    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('route-surface');
    expect(run.tool.driver.version).toBe(VERSION);
    expect(run.tool.driver.informationUri).toMatch(/^https:\/\//);
    expect(run.tool.driver.rules.map((x) => x.id)).toEqual(RULES.map((x) => x.meta.id));
    for (const [i, rule] of run.tool.driver.rules.entries()) {
      const meta = RULES[i]!.meta;
      expect(rule.shortDescription.text).toBe(meta.description);
      expect(rule.fullDescription.text).toContain(meta.rationale);
      expect(rule.help.text).toContain(meta.examples.fires);
      expect(rule.help.markdown).toContain(`route-surface-disable-next-line ${meta.id}`);
      expect(rule.defaultConfiguration.level).toBe({ error: 'error', warning: 'warning', info: 'note' }[meta.defaultSeverity]);
    }

    // The built-in contract is no repository file: its findings are anchored at the manifest.
    expect(
      run.results.map((x) => {
        const loc = x.locations[0]!.physicalLocation;
        return `${x.level} ${x.ruleId} ${loc.artifactLocation.uri}:${loc.region.startLine}:${loc.region.startColumn} ${x.message.text}`;
      }),
    ).toEqual(
      GATE_FINDINGS.map((l) =>
        l.replace(/^info /, 'note ').replace(/ builtin:browser-control-plane@1:2 /, ' package.json:1:1 '),
      ),
    );
    for (const x of run.results) {
      expect(x.locations[0]!.physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(run.tool.driver.rules[x.ruleIndex]!.id).toBe(x.ruleId);
      expect(x.baselineState).toBeUndefined();
    }

    // partialFingerprints carry the same stable fingerprints as the JSON report.
    const json = JSON.parse(cli(['check', '--format', 'json'], GATE).stdout) as { findings: { fingerprint: string }[] };
    expect(run.results.map((x) => x.partialFingerprints['routeSurface/v1'])).toEqual(json.findings.map((f) => f.fingerprint));
  });

  it('anchors built-in contract findings at the config file when there is one, and is deterministic', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-sarif-'));
    fs.cpSync(GATE, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'route-surface.config.json'), JSON.stringify({ rules: { 'uncontracted-route': 'off' } }));
    const a = cli(['check', '--format', 'sarif', '--output', 'out.sarif'], dir);
    expect(a.code).toBe(1);
    expect(a.stdout).toBe('');
    const log = JSON.parse(fs.readFileSync(path.join(dir, 'out.sarif'), 'utf8')) as SarifLog;
    expect(sarifValidator()(log)).toBe(true);
    const results = log.runs[0]!.results;
    expect(results.map((x) => `${x.ruleId} ${x.locations[0]!.physicalLocation.artifactLocation.uri}`)).toEqual([
      'contract-route-missing route-surface.config.json',
      'provider-credential-exposure src/routes/databases.ts',
      'missing-tenant-guard src/routes/deployments.ts',
      'excluded-family-leak src/routes/internal.ts',
    ]);
    expect(cli(['check', '--format', 'sarif'], dir).stdout).toBe(fs.readFileSync(path.join(dir, 'out.sarif'), 'utf8'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uses the contract file itself as the location of contract-level findings of a user contract', () => {
    const r = cli(['check', '--format', 'sarif', '--contract', 'openapi.yaml'], GATE);
    const log = JSON.parse(r.stdout) as SarifLog;
    expect(sarifValidator()(log)).toBe(true);
    const missing = log.runs[0]!.results.filter((x) => x.ruleId === 'contract-route-missing');
    expect(missing.map((x) => [x.locations[0]!.physicalLocation.artifactLocation.uri, x.locations[0]!.physicalLocation.region.startLine])).toEqual([['openapi.yaml', 23]]);
  });
});

describe('check --format github', () => {
  it('prints one workflow-command annotation per finding and a closing summary', () => {
    const r = cli(['check', '--format', 'github'], GATE, { GITHUB_STEP_SUMMARY: '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '::error title=route-surface contract-route-missing::contract route GET /api/auth/me/ is not served by any analysed app (builtin:browser-control-plane@1)',
        '::error file=src/routes/databases.ts,line=16,col=9,title=route-surface provider-credential-exposure::GET /api/databases/ returns credential-like field connectionString in database metadata',
        '::error file=src/routes/deployments.ts,line=14,col=1,title=route-surface missing-tenant-guard::GET /api/deployments/:id has no tenant guard',
        '::notice file=src/routes/deployments.ts,line=14,col=1,title=route-surface uncontracted-route::GET /api/deployments/:id is on the browser surface but not in the contract',
        '::error file=src/routes/internal.ts,line=6,col=1,title=route-surface excluded-family-leak::POST /api/internal/cache/flush is in the excluded family "internal" and is reachable without its family guard (unguarded)',
        '::notice file=src/routes/sites.ts,line=16,col=1,title=route-surface uncontracted-route::POST /api/sites/ is on the browser surface but not in the contract',
        'route-surface: 4 errors, 0 warnings, 2 infos — 7 routes in 11 files, contract browser-control-plane@1.0.0',
        '',
      ].join('\n'),
    );
  });

  it('escapes data (%, CR, LF) and properties (also : and ,) as the runner parses them', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('src/a:b,c%.ts\n')).toBe('src/a%3Ab%2Cc%25.ts%0A');
    const res = {
      contract: { name: 'c', version: '1', routes: [], excludedFamilies: {}, source: 'builtin:c@1' },
      routes: [],
      files: ['src/v1:legacy,routes.ts'],
      findings: [
        { ruleId: 'unresolved-route', severity: 'warning', message: 'mount at 50%\nunknown', file: 'src/v1:legacy,routes.ts', line: 3, column: 7, fingerprint: 'x', snippet: '' },
      ],
      summary: { files: 1, routes: 0, errors: 0, warnings: 1, infos: 0 },
    } as unknown as RunResult;
    expect(formatGithub(res).split('\n')[0]).toBe('::warning file=src/v1%3Alegacy%2Croutes.ts,line=3,col=7,title=route-surface unresolved-route::mount at 50%25%0Aunknown');
  });

  it('appends the Markdown summary to $GITHUB_STEP_SUMMARY, keeping what earlier steps wrote', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-summary-'));
    const summary = path.join(dir, 'step-summary.md');
    fs.writeFileSync(summary, '# Build\n\nok\n');
    const r = cli(['check', '--format', 'github'], GATE, { GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    const markdown = cli(['check', '--format', 'markdown'], GATE);
    expect(fs.readFileSync(summary, 'utf8')).toBe('# Build\n\nok\n' + markdown.stdout);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('check --format markdown', () => {
  it('prints counts, contract coverage and the findings table', () => {
    const r = cli(['check', '--format', 'markdown'], GATE);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '## route-surface: 4 errors, 0 warnings, 2 infos',
        '',
        '7 routes in 11 files · contract `browser-control-plane@1.0.0` · 4/5 contract routes served',
        '',
        '### Contract coverage',
        '',
        '| Contract route | Auth | Status | Served by | Guards |',
        '|---|---|---|---|---|',
        '| `GET /api/health/ready` | public | served | `src/app.ts:21` | none |',
        '| `GET /api/auth/me/` | session | missing | — | — |',
        '| `GET /api/sites/` | session | served | `src/routes/sites.ts:8` | auth: requireSession; tenant: requireTenant |',
        '| `GET /api/deployments/` | session | served | `src/routes/deployments.ts:9` | auth: requireSession; tenant: requireTenant |',
        '| `GET /api/databases/` | session | served | `src/routes/databases.ts:7` | auth: requireSession; tenant: requireTenant |',
        '',
        '### Findings',
        '',
        '| Severity | Rule | Location | Message |',
        '|---|---|---|---|',
        '| error | `contract-route-missing` | `builtin:browser-control-plane@1:2` | contract route GET /api/auth/me/ is not served by any analysed app |',
        '| error | `provider-credential-exposure` | `src/routes/databases.ts:16` | GET /api/databases/ returns credential-like field connectionString in database metadata |',
        '| error | `missing-tenant-guard` | `src/routes/deployments.ts:14` | GET /api/deployments/:id has no tenant guard |',
        '| info | `uncontracted-route` | `src/routes/deployments.ts:14` | GET /api/deployments/:id is on the browser surface but not in the contract |',
        '| error | `excluded-family-leak` | `src/routes/internal.ts:6` | POST /api/internal/cache/flush is in the excluded family "internal" and is reachable without its family guard (unguarded) |',
        '| info | `uncontracted-route` | `src/routes/sites.ts:16` | POST /api/sites/ is on the browser surface but not in the contract |',
        '',
        '',
      ].join('\n'),
    );
  });
});
