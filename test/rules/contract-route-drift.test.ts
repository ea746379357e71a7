import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { RULE_FIXTURES, ruleTester } from '../helpers/rule-tester.js';

const drifts = (route: string, why: string) => `${route} drifts from the contract route GET /api/sites/: ${why}`;
const STRICT = 'trailing slash differs and express matches it exactly (strict routing)';

ruleTester('contract-route-drift', {
  valid: [
    { dir: 'valid/non-strict-without-slash', name: "non-strict routing (the default): '/api/sites' also serves '/api/sites/'" },
    { dir: 'valid/strict-router-root-at-mount', name: "a strict router's '/' at its mount point serves both forms" },
    { dir: 'valid/strict-app-exact', name: 'strict routing with the exact path' },
    { dir: 'valid/case-insensitive-by-default', name: 'case-insensitive routing (the default) serves the contract path' },
  ],
  invalid: [
    { dir: 'invalid/strict-router', name: 'Router({ strict: true }) with no trailing slash', errors: [{ line: 7, message: drifts('GET /api/sites', STRICT) }] },
    { dir: 'invalid/strict-app', name: "app.enable('strict routing') with no trailing slash", errors: [{ line: 8, message: drifts('GET /api/sites', STRICT) }] },
    { dir: 'invalid/method', name: 'served with another method only', errors: [{ line: 8, message: drifts('POST /api/sites/', 'method POST instead of GET') }] },
    {
      dir: 'invalid/case-sensitive-router',
      name: 'Router({ caseSensitive: true }) with another case',
      errors: [{ line: 7, message: drifts('GET /api/Sites/', 'case differs and routing is case-sensitive') }],
    },
    {
      dir: 'invalid/case-sensitive-app',
      name: "app.set('case sensitive routing', true) with another case",
      errors: [{ line: 8, message: drifts('GET /api/Sites/', 'case differs and routing is case-sensitive') }],
    },
  ],
});

describe('a contract route served only in a drifted form (SPEC section 7)', () => {
  it('yields one drift, never also contract-route-missing or uncontracted-route for it', async () => {
    const res = await check(path.join(RULE_FIXTURES, 'contract-route-drift', 'invalid', 'strict-router'));
    const aboutSites = res.findings.filter((f) => f.message.includes('/api/sites') || f.message.includes('/api/Sites'));
    expect(aboutSites.map((f) => f.ruleId)).toEqual(['contract-route-drift']);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.line)).toEqual([1, 2, 4, 5]);
    expect(res.routes.map((r) => [r.method, r.path, r.classification, r.contractRoute])).toEqual([['GET', '/api/sites', 'contract', 'GET /api/sites/']]);
  });
});
