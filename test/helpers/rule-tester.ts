/**
 * typescript-eslint-style rule tests over real fixture projects:
 * `fixtures/rules/<rule-id>/<case>/` is a small project, checked with itself as the cwd
 * (so a `route-surface.config.json` inside it applies). A valid case has no finding of the
 * rule; an invalid case has exactly the listed findings of the rule.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { ROOT, check } from './run.js';

export interface ValidCase {
  /** the case's directory under fixtures/rules/<rule-id>/ */
  dir: string;
  /** what the case shows */
  name: string;
}

export interface ExpectedFinding {
  /** relative to the case directory; default app.ts */
  file?: string;
  line: number;
  column?: number;
  message: string;
  /** default: the rule's default severity */
  severity?: string;
}

export interface InvalidCase extends ValidCase {
  errors: ExpectedFinding[];
}

export const RULE_FIXTURES = path.join(ROOT, 'fixtures', 'rules');

export function ruleTester(ruleId: string, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  const dirOf = (c: ValidCase) => path.join(RULE_FIXTURES, ruleId, c.dir);
  const defaultSeverity = RULES.find((r) => r.meta.id === ruleId)?.meta.defaultSeverity;
  describe(ruleId, () => {
    describe('valid', () => {
      for (const c of cases.valid)
        it(`${c.dir}: ${c.name}`, async () => {
          const res = await check(dirOf(c));
          expect(res.findings.filter((f) => f.ruleId === ruleId).map((f) => `${f.file}:${f.line}:${f.column} ${f.message}`)).toEqual([]);
        });
    });
    describe('invalid', () => {
      for (const c of cases.invalid)
        it(`${c.dir}: ${c.name}`, async () => {
          const res = await check(dirOf(c));
          const got = res.findings.filter((f) => f.ruleId === ruleId).map((f) => ({ file: f.file, line: f.line, column: f.column, message: f.message, severity: f.severity }));
          const want = c.errors.map((e) => ({
            file: e.file ?? 'app.ts',
            line: e.line,
            column: e.column ?? 1,
            message: e.message,
            severity: e.severity ?? defaultSeverity,
          }));
          expect(got).toEqual(want);
        });
    });
  });
}
