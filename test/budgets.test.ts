import { describe, expect, it } from 'vitest';
import { tooDeepNode } from '../src/budgets.js';
import { loadTypeScript } from '../src/extract/compiler.js';
import { parseOptions } from '../src/extract/extract.js';

const ts = loadTypeScript();
const parse = (text: string) => ts.createSourceFile('x.ts', text, parseOptions(ts), false, ts.ScriptKind.TS);

/** The deepest level of the tree (the source file at 0), and the first node in source order at that level. */
function deepest(node: import('ts-morph').ts.Node, level = 0): { level: number; node: import('ts-morph').ts.Node } {
  let best = { level, node };
  ts.forEachChild(node, (c) => {
    const d = deepest(c, level + 1);
    if (d.level > best.level) best = d;
  });
  return best;
}

describe('tooDeepNode', () => {
  it('finds a node exactly one level past the budget, and none at the budget', () => {
    for (const text of [
      'if (a) {\n'.repeat(12) + 'f();\n' + '}\n'.repeat(12),
      `export const x = a${'.b'.repeat(30)};\n`,
      `export const x = ${'a ? b : '.repeat(25)}c;\n`,
      `router.get('/x', (req, res) => { res.json({ a: { b: { c: [1, [2, [3]]] } } }); });\n`,
    ]) {
      const sf = parse(text);
      const { level, node } = deepest(sf);
      expect(tooDeepNode(ts, sf, level)).toBe(null);
      expect(tooDeepNode(ts, sf, level - 1)).toBe(node);
    }
  });

  it('names the first node in source order past the budget, whatever the walk met first', () => {
    const sf = parse(`const a = [[[[1]]]];\nconst b = [[[[[[2]]]]]];\n`);
    const found = tooDeepNode(ts, sf, 6)!;
    expect(found.getStart(sf)).toBe(sf.text.indexOf('[[1') + 1);
  });
});
