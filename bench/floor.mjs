/**
 * The floor of `npm run bench`: every source file of a tree parsed once by
 * `ts.createSourceFile`, in one Node process, with the TypeScript compiler route-surface
 * itself uses (the one ts-morph bundles). Nothing else: no walk, no facts.
 *
 * With `--route-surface`, the same files parsed as a cold check's extraction parses them
 * (parseFaithfully, src/extract/extract.ts): with the parser the build cuts from that compiler,
 * loaded with its code cache (src/extract/compiler.ts), the check's parse options (JSDoc not
 * parsed) and a one-byte twin of a text that has one (src/extract/one-byte.ts). A cold check
 * parses every file once, those the prefilter holds back included (for their syntax errors;
 * those it parses as written, which is the same for a text without characters beyond Latin-1,
 * as every held-back file of the generated trees is), so this is the part of its time that is
 * parsing alone.
 *
 *   node bench/floor.mjs DIR [--route-surface]
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const asChecked = process.argv[3] === '--route-surface';
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src');
const load = (rel) => import(pathToFileURL(path.join(DIST, rel)).href);
const require = createRequire(import.meta.url);
const ts = asChecked ? (await load('extract/compiler.js')).loadTypeScript() : createRequire(require.resolve('ts-morph'))('@ts-morph/common/dist/typescript.js');
const extract = asChecked ? await load('extract/extract.js') : null;

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
  const text = fs.readFileSync(file, 'utf8');
  const kind = () => (file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.(jsx?|mjs|cjs)$/.test(file) ? ts.ScriptKind.JSX : ts.ScriptKind.TS);
  const sf = extract ? extract.parseFaithfully(ts, file, text).sf : ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind());
  nodes += sf.statements.length;
}
process.stdout.write(`${nodes}\n`);
