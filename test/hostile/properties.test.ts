/**
 * Property-based tests (fast-check) over the clean fixtures:
 * - mutated sources (lines deleted, blocks duplicated, statements shuffled, files truncated,
 *   stray tokens inserted) always end in exit 0 or 1 with valid JSON — never a usage
 *   error, never a crash;
 * - the report is identical across two runs and across file discovery orders;
 * - removing any guard use from a clean fixture makes the corresponding finding appear
 *   (exhaustive over every guard use, not sampled).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCode, run } from '../../src/engine.js';
import { jsonErrorOffset } from '../../src/json-locate.js';
import { formatJson } from '../../src/report/json.js';
import { ROOT } from '../helpers/run.js';
import { cli, type JsonReport } from './helpers.js';

/** Clean fixtures of every framework (the guard-deletion test starts from these)… */
const CLEAN = ['express-clean', 'fastify-clean', 'hono-clean', 'koa-clean', 'nest-clean', 'next-clean', 'hostile/server'];
/** …and, for the mutations, leaky ones and a monorepo too. */
const FIXTURES = [...CLEAN, 'express-demo', 'express-autoload', 'fastify-leaky', 'hono-leaky', 'koa-leaky', 'koa-route', 'nest-leaky', 'next-leaky', 'routing-controllers', 'monorepo'];

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function sourcesOf(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourcesOf(dir, r);
    return SOURCE.test(e.name) ? [r] : [];
  });
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A copy of a fixture, its files written in `order` (file discovery order follows creation order on many file systems). */
function copyFixture(fixture: string, order?: (files: string[]) => string[]): string {
  const src = path.join(ROOT, 'fixtures', fixture);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-prop-'));
  temps.push(dir);
  const all: string[] = [];
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(src, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else all.push(r);
    }
  };
  walk('');
  for (const f of order ? order(all) : all) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(src, f), path.join(dir, f));
  }
  return dir;
}

/** Top-level statements of a source file, as [start, end) ranges (leading comments included). */
function statementRanges(file: string, text: string): [number, number][] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return sf.statements.map((s) => [s.getFullStart(), s.getEnd()] as [number, number]);
}

type Mutation =
  | { kind: 'delete-lines'; file: number; at: number; count: number }
  | { kind: 'duplicate-block'; file: number; at: number; count: number; to: number }
  | { kind: 'shuffle-statements'; file: number; keys: number[] }
  | { kind: 'truncate'; file: number; at: number }
  | { kind: 'insert'; file: number; at: number; token: string };

/** Fragments that unbalance or confuse a parser. */
const TOKENS = ['{', '}', '(', ')', '[', ']', '`${', '/*', "'", '"', '=>', 'import {', 'export default', '@', '<div>', '\u2028', '\0', '\\', 'router.use(', '...'];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete-lines' as const), file: fc.nat(), at: fc.nat(), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('duplicate-block' as const), file: fc.nat(), at: fc.nat(), count: fc.integer({ min: 1, max: 12 }), to: fc.nat() }),
  fc.record({ kind: fc.constant('shuffle-statements' as const), file: fc.nat(), keys: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), file: fc.nat(), at: fc.nat(), token: fc.constantFrom(...TOKENS) }),
);

/** Apply a mutation to one of the project's source files (chosen by index, modulo their count). */
function mutate(dir: string, files: string[], m: Mutation): void {
  const file = files[m.file % files.length]!;
  const abs = path.join(dir, file);
  const text = fs.readFileSync(abs, 'utf8');
  const lines = text.split('\n');
  let out: string;
  switch (m.kind) {
    case 'delete-lines': {
      const at = m.at % lines.length;
      out = [...lines.slice(0, at), ...lines.slice(at + m.count)].join('\n');
      break;
    }
    case 'duplicate-block': {
      const at = m.at % lines.length;
      const block = lines.slice(at, at + m.count);
      const to = m.to % (lines.length + 1);
      out = [...lines.slice(0, to), ...block, ...lines.slice(to)].join('\n');
      break;
    }
    case 'shuffle-statements': {
      const ranges = statementRanges(file, text);
      const order = ranges.map((r, i) => ({ r, key: m.keys[i % m.keys.length]! * 64 + i })).sort((a, b) => a.key - b.key);
      out = order.map(({ r }) => text.slice(r[0], r[1])).join('') + text.slice(ranges.at(-1)?.[1] ?? 0);
      break;
    }
    case 'truncate':
      out = text.slice(0, m.at % (text.length + 1));
      break;
    case 'insert': {
      const at = m.at % (text.length + 1);
      out = text.slice(0, at) + m.token + text.slice(at);
      break;
    }
  }
  fs.writeFileSync(abs, out);
}

async function report(dir: string, paths: string[] = []): Promise<{ code: number; json: string }> {
  const res = await run({ cwd: dir, paths });
  return { code: exitCode(res.summary, undefined), json: formatJson(res) };
}

describe('mutated sources', () => {
  it('always end in exit 0 or 1 with valid, identical JSON on a second run', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIXTURES), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (fixture, mutations) => {
        const dir = copyFixture(fixture);
        const files = sourcesOf(dir).sort();
        for (const m of mutations) mutate(dir, files, m);
        const a = await report(dir);
        expect([0, 1]).toContain(a.code);
        const parsed = JSON.parse(a.json) as JsonReport;
        expect(parsed.summary.routes).toBe(parsed.routes.length);
        const b = await report(dir);
        expect(b).toEqual(a);
      }),
      { numRuns: 60 },
    );
  });

  it('end the same way through the CLI (exit 0 or 1, JSON on stdout, nothing on stderr)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.array(mutation, { minLength: 1, maxLength: 3 }), (fixture, mutations) => {
        const dir = copyFixture(fixture);
        const files = sourcesOf(dir).sort();
        for (const m of mutations) mutate(dir, files, m);
        const r = cli(['check', '--format', 'json'], dir);
        expect({ code: [0, 1].includes(r.code), stderr: r.stderr }).toEqual({ code: true, stderr: '' });
        expect(() => JSON.parse(r.stdout)).not.toThrow();
      }),
      { numRuns: 8 },
    );
  });
});

describe('determinism', () => {
  it('gives the same report whatever the order files are created and directories are named in', async () => {
    const baseline = new Map<string, string>();
    for (const f of FIXTURES) baseline.set(f, (await report(copyFixture(f))).json);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIXTURES), fc.array(fc.nat(), { minLength: 256, maxLength: 256 }), async (fixture, keys) => {
        const shuffle = <T>(xs: T[]): T[] => xs.map((x, i) => ({ x, k: keys[i % keys.length]! * 1024 + i })).sort((a, b) => a.k - b.k).map((e) => e.x);
        const dir = copyFixture(fixture, shuffle);
        // the same files, named through their directories in a shuffled order
        const dirs = shuffle([...new Set(sourcesOf(dir).map((f) => path.posix.dirname(f)))]);
        const covering = dirs.filter((d) => !dirs.some((o) => o !== d && (o === '.' || d.startsWith(`${o}/`))));
        expect((await report(dir, covering)).json).toBe(baseline.get(fixture));
      }),
      { numRuns: 20 },
    );
  });
});

describe('guard deletion', () => {
  interface Detail {
    name: string;
    kinds: string[];
    families: string[];
    mechanism: string;
    file: string;
    line: number;
  }
  interface Route {
    method: string;
    path: string;
    classification: string;
    family: string | null;
    guardDetails: Detail[];
  }

  /** The rule whose finding a route must show once it lost every guard of `kind`; null where none applies. */
  function ruleFor(kind: string, r: Route, lost: Detail): string | null {
    const browser = r.classification === 'contract' || r.classification === 'browser';
    if (kind === 'auth') return browser ? 'missing-auth-guard' : null;
    if (kind === 'tenant') return browser ? 'missing-tenant-guard' : null;
    if (kind === 'csrf') {
      const mutating = ['POST', 'PUT', 'PATCH', 'DELETE', 'ALL'].includes(r.method);
      const auth = r.guardDetails.filter((g) => g.kinds.includes('auth'));
      const bearerOnly = auth.length > 0 && auth.every((g) => g.kinds.includes('bearer'));
      return browser && mutating && !bearerOnly ? 'missing-csrf-guard' : null;
    }
    if (kind === 'family') return r.classification === 'excluded' && r.family !== null && lost.families.includes(r.family) ? 'excluded-family-leak' : null;
    return null;
  }

  /** An edit of a source text: replace [start, end) by `text`. */
  type Edit = [number, number, string];

  /** The written name of a guard use: `requireTenant`, `passport.authenticate(…)`, `new CSRF()`, `...protect`, `{ useClass: X }`. */
  const nameOf = (sf: ts.SourceFile, n: ts.Node): string | null => {
    const e = ts.isSpreadElement(n) ? n.expression : n;
    if (ts.isObjectLiteralExpression(e)) {
      // a provider entry: { provide: APP_GUARD, useClass: SessionGuard }
      const use = e.properties.find((p) => ts.isPropertyAssignment(p) && /^use(Class|Existing|Value)$/.test(p.name.getText(sf)));
      return use && ts.isPropertyAssignment(use) ? nameOf(sf, use.initializer) : null;
    }
    const callee = ts.isCallExpression(e) || ts.isNewExpression(e) ? e.expression : e;
    return ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee) ? callee.getText(sf) : null;
  };

  /**
   * Edits that remove every use named `name` inside `root` (or `root` itself): an element of a
   * list (call or decorator arguments, array elements) with its comma, a property whose value it
   * is (`{ preHandler: requireSession }`), or — for a wrapper — the call around the handler.
   */
  function removals(sf: ts.SourceFile, root: ts.Node, name: string, wrapper: boolean): Edit[] {
    const edits: Edit[] = [];
    const within = (n: ts.Node): boolean => n.getStart(sf) >= root.getStart(sf) && n.getEnd() <= root.getEnd();
    const cutFrom = (list: ts.NodeArray<ts.Node>, i: number): Edit => {
      const el = list[i]!;
      const next = list[i + 1];
      const prev = list[i - 1];
      return next ? [el.getStart(sf), next.getStart(sf), ''] : prev ? [prev.getEnd(), el.getEnd(), ''] : [el.getStart(sf), el.getEnd(), ''];
    };
    const removed = new Set<ts.Node>();
    const visit = (n: ts.Node): void => {
      if (removed.has(n)) return;
      const list = ts.isCallExpression(n) ? n.arguments : ts.isArrayLiteralExpression(n) ? n.elements : ts.isObjectLiteralExpression(n) ? n.properties : null;
      list?.forEach((el, i) => {
        if (!within(el)) return;
        const value = ts.isPropertyAssignment(el) ? el.initializer : el;
        if (nameOf(sf, value) === name && !(wrapper && ts.isCallExpression(value))) {
          edits.push(cutFrom(list as ts.NodeArray<ts.Node>, i));
          removed.add(el);
        }
      });
      if (wrapper && ts.isCallExpression(n) && within(n) && nameOf(sf, n) === name && n.arguments.length > 0) {
        const inner = n.arguments[n.arguments.length - 1]!;
        edits.push([n.getStart(sf), n.getEnd(), inner.getText(sf)]);
        return;
      }
      ts.forEachChild(n, visit);
    };
    visit(root.parent ?? root);
    return edits;
  }

  function applyEdits(abs: string, text: string, edits: Edit[]): void {
    let out = text;
    for (const [a, b, t] of [...edits].sort((x, y) => y[0] - x[0])) out = out.slice(0, a) + t + out.slice(b);
    fs.writeFileSync(abs, out);
  }

  /**
   * Delete one guard use from the source, where the guard detail says it is applied: within
   * the outermost node that starts on its line (a registration, a decorated member, a provider
   * entry), or in the array constant a spread there names (`...tenantWrite`); a guard called in
   * a handler loses the statement that calls it. Returns false when no such use is found.
   */
  function deleteUse(dir: string, d: Detail): boolean {
    const abs = path.join(dir, d.file);
    const text = fs.readFileSync(abs, 'utf8');
    const sf = ts.createSourceFile(d.file, text, ts.ScriptTarget.Latest, true);
    const lineOf = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
    const atLine: ts.Node[] = [];
    const collect = (n: ts.Node): void => {
      if (n !== sf && lineOf(n) === d.line) atLine.push(n);
      ts.forEachChild(n, collect);
    };
    collect(sf);
    if (d.mechanism === 'in-handler') {
      const callers = atLine.filter((n) => {
        if (!ts.isExpressionStatement(n) && !ts.isVariableStatement(n) && !ts.isIfStatement(n)) return false;
        let found = false;
        const v = (x: ts.Node): void => {
          if (ts.isCallExpression(x) && nameOf(sf, x) === d.name) found = true;
          ts.forEachChild(x, v);
        };
        v(n);
        return found;
      });
      const innermost = callers.at(-1);
      if (!innermost) return false;
      applyEdits(abs, text, [[innermost.getStart(sf), innermost.getEnd(), '']]);
      return true;
    }
    let root = atLine[0];
    if (!root) return false;
    // a later link of a chain (`.patch(protectForms, …)`) is located at its method name: look in its arguments
    const link = ts.isIdentifier(root) && ts.isPropertyAccessExpression(root.parent) && root.parent.name === root && ts.isCallExpression(root.parent.parent) ? root.parent.parent : null;
    if (link && link.arguments.length > 0) root = link.arguments[0]!;
    const edits = link
      ? link.arguments.flatMap((a) => removals(sf, a, d.name, d.mechanism === 'wrapper'))
      : removals(sf, root, d.name, d.mechanism === 'wrapper');
    if (edits.length > 0) {
      applyEdits(abs, text, edits);
      return true;
    }
    // a use through a constant or a composite (`...tenantWrite`, `@InternalOnly()`): delete the
    // element where that array or function is written
    const via = new Set<string>();
    const v = (n: ts.Node): void => {
      if (ts.isSpreadElement(n) && ts.isIdentifier(n.expression)) via.add(n.expression.text);
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) via.add(n.expression.text);
      ts.forEachChild(n, v);
    };
    v(root);
    for (const file of sourcesOf(dir)) {
      const other = path.join(dir, file);
      const otherText = fs.readFileSync(other, 'utf8');
      const osf = ts.createSourceFile(file, otherText, ts.ScriptTarget.Latest, true);
      const found: Edit[] = [];
      const w = (n: ts.Node): void => {
        if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && via.has(n.name.text) && n.initializer) found.push(...removals(osf, n.initializer, d.name, false));
        else if (ts.isFunctionDeclaration(n) && n.name && via.has(n.name.text) && n.body) found.push(...removals(osf, n.body, d.name, false));
        else ts.forEachChild(n, w);
      };
      w(osf);
      if (found.length > 0) {
        applyEdits(other, otherText, found);
        return true;
      }
    }
    return false;
  }

  it.each(CLEAN)('removing any guard use from %s makes its finding appear', async (fixture) => {
    const clean = JSON.parse((await report(copyFixture(fixture))).json) as JsonReport & { routes: Route[] };
    // every guard use, grouped by where it is written
    const uses = new Map<string, { detail: Detail; routes: Route[] }>();
    for (const r of clean.routes)
      for (const g of r.guardDetails) {
        if (!g.kinds.some((k) => ['auth', 'tenant', 'csrf', 'family'].includes(k))) continue;
        const key = `${g.file}:${g.line} ${g.name} (${g.mechanism})`;
        const u = uses.get(key) ?? { detail: g, routes: [] };
        u.routes.push(r);
        uses.set(key, u);
      }
    expect(uses.size).toBeGreaterThan(4);
    const missed: string[] = [];
    let expectedTotal = 0;
    for (const [key, { detail, routes }] of uses) {
      const expected = new Set<string>();
      for (const r of routes)
        for (const kind of detail.kinds) {
          // still guarded for that kind by another use: nothing to find
          if (r.guardDetails.some((g) => g.kinds.includes(kind) && !(g.file === detail.file && g.line === detail.line && g.name === detail.name))) continue;
          const rule = ruleFor(kind, r, detail);
          if (rule) expected.add(`${rule} ${r.method} ${r.path}`);
        }
      const dir = copyFixture(fixture);
      expect(deleteUse(dir, detail), `no use found for ${key}`).toBe(true);
      const after = JSON.parse((await report(dir)).json) as JsonReport;
      const found = new Set(after.findings.filter((f) => f.route).map((f) => `${f.ruleId} ${f.route!.method} ${f.route!.path}`));
      for (const e of expected) if (!found.has(e)) missed.push(`${key}: ${e}`);
      expect(after.findings.filter((f) => f.ruleId === 'parse-error'), key).toEqual([]);
      expectedTotal += expected.size;
    }
    expect(missed).toEqual([]);
    expect(expectedTotal).toBeGreaterThanOrEqual(uses.size);
  });
});

describe('JSON error positions', () => {
  it('agree with the parser wherever it names one, and accept every valid document', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\\', '\u0001', '[', '{'), fc.nat(), (doc, at, insert, cut) => {
        expect(jsonErrorOffset(doc)).toBe(-1);
        const i = at % (doc.length + 1);
        const bad = (doc.slice(0, i) + insert + doc.slice(i)).slice(0, doc.length + insert.length - (cut % 3 === 0 ? cut % (doc.length + 1) : 0));
        let position: number | null = null;
        let valid = true;
        try {
          JSON.parse(bad);
        } catch (err) {
          valid = false;
          const m = /position (\d+)/.exec((err as Error).message);
          if (m) position = Number(m[1]);
        }
        if (valid) expect(jsonErrorOffset(bad)).toBe(-1);
        else if (position !== null) expect(jsonErrorOffset(bad)).toBe(position);
        else expect(jsonErrorOffset(bad)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });
});
