import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { RULE_FIXTURES, ruleTester } from '../helpers/rule-tester.js';

ruleTester('parse-error', {
  valid: [
    { dir: 'valid/modern-syntax', name: 'satisfies, top-level await, JSX in .tsx, CommonJS in .cjs' },
    { dir: 'valid/legacy-octal-in-a-script', name: "Annex B's legacy octal literals and escapes in a sloppy-mode script (`0755`, `08`, `'\\033[31m'`), which JavaScript allows" },
  ],
  invalid: [
    { dir: 'invalid/unclosed-function', name: 'a handler missing its closing brace', errors: [{ file: 'billing.ts', line: 12, message: "cannot parse: '}' expected." }] },
    {
      dir: 'invalid/legacy-octal-in-strict-code',
      name: "legacy octal forms in strict code — an ES module, a script with 'use strict' — and an octal escape in a template literal, an error in any mode",
      errors: [
        { file: 'banner.js', line: 3, column: 13, message: "cannot parse: Octal escape sequences are not allowed. Use the syntax '\\x1b'." },
        { file: 'colors.js', line: 3, column: 11, message: "cannot parse: Octal escape sequences are not allowed. Use the syntax '\\x1b'." },
        { file: 'perms.mjs', line: 5, column: 46, message: "cannot parse: Octal literals are not allowed. Use the syntax '0o755'." },
      ],
    },
    {
      dir: 'invalid/flow-typed-module',
      name: "a Flow cast (`(req.session: any)`), no TypeScript syntax, in a file marked @flow: the error says so; one in a file without the pragma does not",
      errors: [
        { file: 'db.js', line: 8, column: 1, message: 'cannot parse: Expression expected.' },
        { file: 'sites.js', line: 9, column: 34, message: "cannot parse: ')' expected. (the file is marked @flow: Flow's type syntax is not all TypeScript's, which route-surface reads)" },
      ],
    },
    { dir: 'invalid/jsx-in-a-ts-file', name: 'JSX in a .ts file (the compiler’s own message)', errors: [{ line: 5, column: 23, message: 'cannot parse: Unterminated regular expression literal.' }] },
  ],
});

describe('parse-error: analysis goes on', () => {
  it('the other files, and what the parser recovered of the broken one, are still linked', async () => {
    const res = await check(path.join(RULE_FIXTURES, 'parse-error', 'invalid', 'unclosed-function'));
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => g.name).join(',')}`)).toEqual([
      'GET /api/billing/invoices billing.ts:5 requireSession',
      'GET /api/sites/ app.ts:7 requireSession',
    ]);
    expect(res.findings.filter((f) => f.severity === 'error' && f.ruleId === 'parse-error')).toEqual([]);
  });

  it("a Flow file's route and guard, its annotations read as TypeScript's", async () => {
    const res = await check(path.join(RULE_FIXTURES, 'parse-error', 'invalid', 'flow-typed-module'));
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => g.name).join(',')}`)).toEqual(['GET /api/sites/ app.js:7 requireSession']);
  });
});
