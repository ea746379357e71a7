/**
 * The floor of `npm run bench`: every source file of a tree parsed once by
 * `ts.createSourceFile`, in one Node process, with the TypeScript compiler route-surface
 * itself uses (the one ts-morph bundles). Nothing else: no walk, no facts.
 *
 *   node bench/floor.mjs DIR
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const ts = createRequire(require.resolve('ts-morph'))('@ts-morph/common/dist/typescript.js');

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'build', '.next', 'coverage', '.git']);

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP.has(e.name) && !e.name.startsWith('.')) walk(path.join(dir, e.name), out);
    } else if (SOURCE.test(e.name) && !/\.d\.[cm]?ts$/.test(e.name)) out.push(path.join(dir, e.name));
  }
  return out;
}

const root = path.resolve(process.argv[2] ?? '.');
let nodes = 0;
for (const file of walk(root, [])) {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.(jsx?|mjs|cjs)$/.test(file) ? ts.ScriptKind.JSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, kind);
  nodes += sf.statements.length;
}
process.stdout.write(`${nodes}\n`);
