import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { RULE_FIXTURES, ruleTester } from '../helpers/rule-tester.js';

ruleTester('unused-suppression', {
  valid: [
    { dir: 'valid/matches-a-finding', name: 'a suppression with a reason that suppresses the finding on the next line' },
    { dir: 'valid/two-rules-both-match', name: 'a block comment naming two rules, both suppressed' },
  ],
  invalid: [
    {
      dir: 'invalid/no-reason',
      name: 'the reason is required',
      errors: [{ line: 6, message: 'suppression of missing-tenant-guard has no reason (write "-- why"); it suppresses nothing' }],
    },
    {
      dir: 'invalid/matches-nothing',
      name: 'a stale suppression',
      errors: [{ line: 7, message: 'suppression of missing-tenant-guard matched no finding on the next line' }],
    },
    {
      dir: 'invalid/one-of-two-rules-unused',
      name: 'each named rule must suppress something (as ESLint reports unused disable directives)',
      errors: [{ line: 6, message: 'suppression of missing-csrf-guard matched no finding on the next line' }],
    },
    { dir: 'invalid/unknown-rule', name: 'a misspelt rule id', errors: [{ line: 6, message: 'suppression names an unknown rule: missing-tenant' }] },
    { dir: 'invalid/names-no-rule', name: 'no rule named', errors: [{ line: 6, message: 'suppression names no rule; it suppresses nothing' }] },
    {
      dir: 'invalid/not-on-the-line-above',
      name: 'only the very next line is suppressed',
      errors: [{ line: 6, message: 'suppression of missing-tenant-guard matched no finding on the next line' }],
    },
  ],
});

describe('what a suppression does to the finding it names', () => {
  const tenantFindings = async (dir: string) =>
    (await check(path.join(RULE_FIXTURES, 'unused-suppression', dir))).findings.filter((f) => f.ruleId === 'missing-tenant-guard').map((f) => f.line);

  it('a valid suppression removes the finding', async () => {
    expect(await tenantFindings('valid/matches-a-finding')).toEqual([]);
    expect(await tenantFindings('invalid/one-of-two-rules-unused')).toEqual([]);
  });

  it('a suppression without a reason, or not on the line above, leaves it', async () => {
    expect(await tenantFindings('invalid/no-reason')).toEqual([7]);
    expect(await tenantFindings('invalid/not-on-the-line-above')).toEqual([8]);
  });
});
