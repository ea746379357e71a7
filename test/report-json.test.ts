/**
 * The JSON report and the result the cache keeps are written in pieces (src/json-pieces.ts)
 * so that a report of tens of thousands of routes never exists whole in memory; joined, the
 * pieces must be exactly what JSON.stringify makes of them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonPieces } from '../src/json-pieces.js';
import { formatJson, jsonChunks } from '../src/report/json.js';
import { ROOT, check } from './helpers/run.js';

const exactlyStringified = (text: string): boolean => JSON.stringify(JSON.parse(text), null, 2) + '\n' === text;

describe('the JSON report, in pieces', () => {
  it('joins to JSON.stringify of the report, over many pieces', async () => {
    const res = await check(path.join(ROOT, 'fixtures/express-demo'));
    // more routes than one piece holds: the lists are split
    const many = { ...res, routes: [...res.routes, ...res.routes, ...res.routes, ...res.routes, ...res.routes] };
    expect(many.routes.length).toBeGreaterThan(80); // two pieces of 40 and more
    const pieces = [...jsonChunks(many)];
    expect(pieces.length).toBeGreaterThan(6);
    const text = pieces.join('');
    expect(exactlyStringified(text)).toBe(true);
    const parsed = JSON.parse(text) as { routes: { method: string; path: string }[]; findings: unknown[]; summary: unknown };
    expect(parsed.routes.map((r) => `${r.method} ${r.path}`)).toEqual(many.routes.map((r) => `${r.method} ${r.path}`));
    expect(parsed.findings).toHaveLength(res.findings.length);
    expect(parsed.summary).toEqual(res.summary);
    expect(formatJson(many)).toBe(text);
  });

  it('writes empty lists as JSON.stringify does', async () => {
    const res = await check(path.join(ROOT, 'fixtures/express-demo'));
    const text = formatJson({ ...res, routes: [], findings: [] });
    expect(exactlyStringified(text)).toBe(true);
    expect(text).toContain('"routes": [],\n  "findings": [],\n');
  });

  it('writes any plain object as JSON.stringify does, compact or indented', () => {
    const many = Array.from({ length: 95 }, (_, i) => ({ i, name: `item "${i}"`, tags: i % 2 ? [] : ['a', 'b'], nested: { deep: [i, null] } }));
    const value = { first: 'x: "routes": [', list: many, empty: [], none: null, strings: ['a', 'b'], last: { n: 1 } };
    for (const indent of [0, 2] as const) {
      const pieces = [...jsonPieces(value, indent)];
      expect(pieces.join('')).toBe(JSON.stringify(value, null, indent || undefined));
      expect(pieces.length).toBeGreaterThan(5);
    }
    expect([...jsonPieces({ list: [1, 2] }, 0, { list: (n: number) => n * 10 })].join('')).toBe('{"list":[10,20]}');
    expect([...jsonPieces({}, 2)].join('')).toBe('{}');
  });
});
