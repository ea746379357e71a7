import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../src/adapters/index.js';
import { DEFAULT_BUDGETS } from '../src/budgets.js';
import { loadTypeScript } from '../src/extract/compiler.js';
import { extractFacts } from '../src/extract/extract.js';
import { bindingOf, bindingsOf, Encoded, factsFromText, factsToText } from '../src/extract/facts-text.js';
import type { FileFacts, FunctionFact } from '../src/types.js';
import { ROOT } from './helpers/run.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const extract = (file: string, text: string): FileFacts => extractFacts(loadTypeScript(), file, text, ADAPTERS, DEFAULT_BUDGETS);

/** Every field of a function, read through its getters. */
const fieldsOf = (f: FunctionFact): FunctionFact => ({
  id: f.id,
  name: f.name,
  at: f.at,
  scope: f.scope,
  params: f.params,
  behaviour: f.behaviour,
  returns: f.returns,
  leading: f.leading,
  responseFields: f.responseFields,
  sessionExposures: f.sessionExposures,
  returnedSessionExposures: f.returnedSessionExposures,
});

describe('facts as text (cache entries, worker results)', () => {
  // Every fixture server: route files, guards, services, Nest controllers, Next route handlers.
  const files = fg.sync(['fixtures/*-clean/**/*.ts', 'fixtures/*-leaky/**/*.ts', 'fixtures/express-demo/**/*.ts'], { cwd: ROOT }).sort();

  it('read back, they are the facts that were written, bindings and function bodies included', () => {
    expect(files.length).toBeGreaterThan(100);
    let functions = 0;
    let bindings = 0;
    for (const file of files) {
      const facts = extract(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
      const back = factsFromText(utf8(factsToText(facts)));
      const { scopes, functions: fns, ...rest } = back;
      const { scopes: scopesBefore, functions: fnsBefore, ...restBefore } = facts;
      expect(rest).toEqual(restBefore);
      expect(scopes.map((s) => ({ id: s.id, parent: s.parent, names: Object.keys(s.bindings), bound: bindingsOf(s) }))).toEqual(
        scopesBefore.map((s) => ({ id: s.id, parent: s.parent, names: Object.keys(s.bindings), bound: Object.values(s.bindings) })),
      );
      expect(fns.map(fieldsOf)).toEqual(fnsBefore);
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
    expect(scope.bindings['limit']).toBeInstanceOf(Encoded);
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
    expect(back.registrations).toEqual(facts.registrations);
    expect(back.functions.map(fieldsOf)).toEqual(facts.functions);
    // one line for the file, one per binding and function body
    const lines = facts.scopes.reduce((n, s) => n + Object.keys(s.bindings).length, 0) + facts.functions.length;
    expect(written.split('\n')).toHaveLength(1 + lines);
  });

  it('facts that name a line they do not have are refused (a damaged entry is extracted again)', () => {
    const written = factsToText(extract('src/x.ts', `export const a = 1;\nexport const b = 2;\n`));
    expect(() => factsFromText(utf8(written.slice(0, written.lastIndexOf('\n'))))).toThrow('facts refer to a line they do not have');
    expect(() => factsFromText(utf8('{"file":'))).toThrow();
  });
});
