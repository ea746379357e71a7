import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { formatRuleDoc } from '../src/report/rules.js';
import { cli, check, ROOT } from './helpers/run.js';

/** The rule ids fixed by SPEC section 4. */
const SPEC_RULES: [string, string][] = [
  ['contract-route-missing', 'error'],
  ['contract-route-drift', 'error'],
  ['contract-auth-mismatch', 'error'],
  ['excluded-family-leak', 'error'],
  ['missing-auth-guard', 'error'],
  ['missing-tenant-guard', 'error'],
  ['missing-csrf-guard', 'error'],
  ['immutable-resource-mutation', 'error'],
  ['provider-credential-exposure', 'error'],
  ['insecure-session-cookie', 'error'],
  ['session-token-exposure', 'error'],
  ['middleware-only-guard', 'warning'],
  ['unresolved-route', 'warning'],
  ['uncontracted-route', 'info'],
  ['parse-error', 'warning'],
  ['unused-suppression', 'warning'],
];

describe('route-surface rules', () => {
  it('lists every rule with its default severity and one line', () => {
    const r = cli(['rules'], ROOT);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2))).toEqual(SPEC_RULES);
    for (const [i, l] of lines.entries()) expect(l).toMatch(new RegExp(`^${SPEC_RULES[i]![0]} +${SPEC_RULES[i]![1]} +[A-Z].{20,}\\.$`));
  });

  it('prints one rule\'s documentation: checks, why, contract sentence, examples, configuration, suppression', () => {
    const r = cli(['rules', 'missing-tenant-guard'], ROOT);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(DOC);
  });

  it('every rule documents a contract sentence and examples', () => {
    for (const rule of RULES) {
      const doc = formatRuleDoc(rule);
      expect(doc).toContain(`Contract: ${rule.meta.contract}\n`);
      expect(doc).toContain(`Fires on:\n    ${rule.meta.examples.fires.split('\n')[0]}`);
      expect(doc).toContain(`// route-surface-disable-next-line ${rule.meta.id} -- why this is safe`);
    }
  });

  it('an unknown rule id: exit 2, one line, with the closest ids', () => {
    const a = cli(['rules', 'missing-tenant'], ROOT);
    expect([a.code, a.stdout, a.stderr]).toEqual([2, '', 'route-surface: unknown rule missing-tenant (did you mean missing-tenant-guard? see route-surface rules)\n']);
    const b = cli(['rules', 'no-such-rule-at-all'], ROOT);
    expect([b.code, b.stderr]).toEqual([2, 'route-surface: unknown rule no-such-rule-at-all (see route-surface rules)\n']);
  });
});

describe('each rule\'s documented examples, as real Express projects', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-rule-examples-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /**
   * An example is one file (written to src/app.ts) or several, each introduced by a
   * `// file: path` line. The project depends on the frameworks the examples use.
   */
  async function findingsOf(name: string, example: string) {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name, private: true, type: 'module', dependencies: { csurf: '^1.11.0', express: '^4.21.2', 'express-session': '^1.18.1', next: '15.2.3', react: '19.0.0' } }),
    );
    const parts = example.split(/^\/\/ file: (.+)\n/m);
    const files: [string, string][] = parts.length === 1 ? [['src/app.ts', example]] : [];
    for (let i = 1; i < parts.length; i += 2) files.push([parts[i]!.trim(), parts[i + 1]!]);
    for (const [file, text] of files) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text.trimEnd() + '\n');
    }
    return { files: files.map(([f]) => f), findings: (await check(dir)).findings };
  }

  for (const rule of RULES) {
    it(`${rule.meta.id}: the "fires" example fires, the "passes" example does not`, async () => {
      const fires = await findingsOf(`${rule.meta.id}-fires`, rule.meta.examples.fires);
      const fired = fires.findings.filter((f) => f.ruleId === rule.meta.id);
      expect(fired.length).toBeGreaterThan(0);
      const where = rule.meta.id === 'contract-route-missing' ? ['builtin:browser-control-plane@1'] : fires.files;
      for (const f of fired) expect(where).toContain(f.file);
      const passes = await findingsOf(`${rule.meta.id}-passes`, rule.meta.examples.passes);
      expect(passes.findings.filter((f) => f.ruleId === rule.meta.id)).toEqual([]);
    });
  }
});

const DOC = [
  "missing-tenant-guard (default: error)",
  "",
  "Checks: A non-public, non-excluded route has no tenant guard.",
  'Why: Data is partitioned by tenant: a route that does not check the active tenant can answer with another tenant\'s data. A route serving a contract route the contract says is not tenant-scoped (`"tenantScoped": false`; `x-route-surface-tenant-scoped: false` in OpenAPI), as listing the tenants a user belongs to is, needs none.',
  "Contract: \"Every non-public request is evaluated inside the active tenant boundary.\"",
  "",
  "Fires on:",
  "    import express from 'express';",
  "    import { requireSession } from './auth.js';",
  "    import { listSites } from './sites.js';",
  "",
  "    const app = express();",
  "    app.get('/api/sites/', requireSession, listSites);",
  "",
  "Does not fire on:",
  "    import express from 'express';",
  "    import { requireSession, requireTenant } from './auth.js';",
  "    import { listSites } from './sites.js';",
  "",
  "    const app = express();",
  "    app.get('/api/sites/', requireSession, requireTenant, listSites);",
  "",
  "Configure (route-surface.config.json):",
  "    \"rules\": { \"missing-tenant-guard\": \"error\" | \"warning\" | \"info\" | \"off\" }",
  "    \"guards\": { \"tenant\": [\"scopeToTenant\"] } replaces the default tenant names",
  "    \"guards\": { \"ignore\": [\"loadAccount\"] } for middleware that is no guard at all",
  "Suppress one finding (the reason is required):",
  "    // route-surface-disable-next-line missing-tenant-guard -- why this is safe",
  "",
].join('\n');
