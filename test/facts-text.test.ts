import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../src/adapters/index.js';
import { DEFAULT_BUDGETS } from '../src/budgets.js';
import { loadTypeScript } from '../src/extract/compiler.js';
import { extractFacts } from '../src/extract/extract.js';
import { bindingOf, bindingsOf, factsFromParts, factsFromText, factsToParts, factsToText, isEncoded, partsToText, plainFactsFromText } from '../src/extract/facts-text.js';
import type { FileFacts } from '../src/types.js';
import { ROOT } from './helpers/run.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const extract = (file: string, text: string): FileFacts => extractFacts(loadTypeScript(), file, text, ADAPTERS, DEFAULT_BUDGETS);

/** `decoded`'s value of every field `extracted` has (read back, some are read through getters). */
const fieldsLike = <T extends object>(decoded: T, extracted: T): T =>
  Object.fromEntries(Object.keys(extracted).map((k) => [k, (decoded as Record<string, unknown>)[k]])) as T;
const allFieldsLike = <T extends object>(decoded: T[], extracted: T[]): T[] => decoded.map((d, i) => fieldsLike(d, extracted[i]!));

describe('facts as text (cache entries, worker results)', () => {
  // Every fixture server: route files, guards, services, Nest controllers, Next route handlers.
  const files = fg.sync(['fixtures/*-clean/**/*.ts', 'fixtures/*-leaky/**/*.ts', 'fixtures/express-demo/**/*.ts'], { cwd: ROOT }).sort();

  it('read back, they are the facts that were written, bindings and function bodies included; written again, the same text', () => {
    expect(files.length).toBeGreaterThan(100);
    let functions = 0;
    let bindings = 0;
    for (const file of files) {
      const facts = extract(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
      const text = factsToText(facts);
      // written again as read back, undecoded, they are the same text
      expect(factsToText(factsFromText(utf8(text)))).toBe(text);
      // in two parts (a worker's results), the same text, and read back, the same facts
      const parts = factsToParts(facts);
      expect(Buffer.from(partsToText(parts.head, parts.rest)).toString('utf8')).toBe(text);
      expect(factsToText(factsFromParts(parts.head, parts.rest))).toBe(text);
      const back = factsFromText(utf8(text));
      const { scopes, functions: fns, registrations, calls, ...rest } = back;
      const { scopes: scopesBefore, functions: fnsBefore, registrations: registrationsBefore, calls: callsBefore, ...restBefore } = facts;
      expect(rest).toEqual(restBefore);
      expect(registrations).toHaveLength(registrationsBefore.length);
      expect(allFieldsLike(registrations, registrationsBefore)).toEqual(registrationsBefore);
      expect(calls).toHaveLength(callsBefore.length);
      expect(allFieldsLike(calls, callsBefore)).toEqual(callsBefore);
      expect(scopes.map((s) => ({ id: s.id, parent: s.parent, names: Object.keys(s.bindings), bound: bindingsOf(s) }))).toEqual(
        scopesBefore.map((s) => ({ id: s.id, parent: s.parent, names: Object.keys(s.bindings), bound: Object.values(s.bindings) })),
      );
      expect(fns).toHaveLength(fnsBefore.length);
      expect(allFieldsLike(fns, fnsBefore)).toEqual(fnsBefore);
      // and decoded (every binding and fact above was read)
      expect(factsToText(back)).toBe(text);
      functions += fns.length;
      bindings += scopes.reduce((n, s) => n + Object.keys(s.bindings).length, 0);
    }
    expect(functions).toBeGreaterThan(400);
    expect(bindings).toBeGreaterThan(1000);
  });

  it('a binding is decoded once: read twice, it is the same object (the evaluator memoises by expression)', () => {
    const text = `import { Router } from 'express';\nexport const router = Router();\nconst limit = { max: 10 };\nrouter.get('/x', (req, res) => res.json(limit));\n`;
    const back = factsFromText(utf8(factsToText(extract('src/x.ts', text))));
    const scope = back.scopes[0]!;
    expect(isEncoded(scope.bindings['limit'])).toBe(true);
    const first = bindingOf(scope, 'limit');
    expect(first).toEqual({ k: 'obj', props: { max: { k: 'num', v: 10 } } });
    expect(bindingOf(scope, 'limit')).toBe(first);
    // own bindings only
    expect(bindingOf(scope, 'toString')).toBeUndefined();
    expect(bindingOf(scope, 'constructor')).toBeUndefined();
  });

  it('text beyond ASCII, and line breaks inside strings, survive the lines it is written on', () => {
    const text = `import { Router } from 'express';\nexport const router = Router();\nconst motto = 'Grüße — 世界 🚀\\nline two';\nrouter.get('/é', (req, res) => res.json({ motto, café: 'crème' }));\n`;
    const facts = extract('src/x.ts', text);
    const written = factsToText(facts);
    const back = factsFromText(utf8(written));
    expect(bindingsOf(back.scopes[0]!)).toEqual(Object.values(facts.scopes[0]!.bindings));
    expect(allFieldsLike(back.registrations, facts.registrations)).toEqual(facts.registrations);
    expect(allFieldsLike(back.functions, facts.functions)).toEqual(facts.functions);
    // one line for the file, one per binding, function, registration and call
    const lines = facts.scopes.reduce((n, s) => n + Object.keys(s.bindings).length, 0) + facts.functions.length + facts.registrations.length + facts.calls.length;
    expect(written.split('\n')).toHaveLength(1 + lines);
  });

  it("decoded whole, every fixture file's facts are the extracted ones, plain objects", () => {
    for (const file of files) {
      const facts = extract(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
      const whole = plainFactsFromText(factsToText(facts));
      expect(whole, file).toEqual(facts);
      expect(whole.scopes.every((s) => Object.values(s.bindings).every((b) => !isEncoded(b))), file).toBe(true);
    }
  });

  it('facts that name a line they do not have are refused (a damaged entry is extracted again)', () => {
    const written = factsToText(extract('src/x.ts', `export const a = 1;\nexport const b = 2;\n`));
    expect(() => factsFromText(utf8(written.slice(0, written.lastIndexOf('\n'))))).toThrow('facts refer to a line they do not have');
    expect(() => plainFactsFromText(written.slice(0, written.lastIndexOf('\n')))).toThrow('facts refer to a line they do not have');
    expect(() => factsFromText(utf8('{"file":'))).toThrow();
  });
});
