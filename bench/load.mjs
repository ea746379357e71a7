/**
 * What loading the compiler costs a run that parses: the parser the build cuts from the
 * compiler (scripts/compiler.ts), loaded as route-surface loads it (loadTypeScript, with the
 * code cache the build wrote for it), against the whole compiler loaded the same way, with a
 * code cache made for it by `prepare`. Each then extracts one file's facts, as a run after an
 * edit does. Prints {"mode", "ms"} as JSON.
 *
 *   node bench/load.mjs prepare CACHE_FILE
 *   node bench/load.mjs cut FILE
 *   node bench/load.mjs whole FILE CACHE_FILE
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src');
const load = (rel) => import(pathToFileURL(path.join(DIST, rel)).href);
const { compilerApi, fullTypeScriptFile, loadTypeScript, typeScriptCodeCache } = await load('extract/compiler.js');
const { requireCached, writeCodeCache } = await load('extract/code-cache.js');
const { extractFacts } = await load('extract/extract.js');
const { ADAPTERS } = await load('adapters/index.js');
const { warmUp } = await import(pathToFileURL(path.join(DIST, '..', 'scripts', 'warm-up.js')).href);

const [mode, file, cacheFile] = process.argv.slice(2);
if (mode === 'prepare') {
  // warmed up as the build warms the cut's (scripts/warm-up.ts)
  writeCodeCache(fullTypeScriptFile(), file, warmUp);
  process.exit(0);
}
const text = fs.readFileSync(file, 'utf8');
const t0 = performance.now();
let ts;
if (mode === 'cut') {
  ts = loadTypeScript();
  if (typeScriptCodeCache() !== 'accepted') throw new Error(`the cut's code cache: ${typeScriptCodeCache()}`);
} else if (mode === 'whole') {
  const r = requireCached(fullTypeScriptFile(), cacheFile);
  if (r.cache !== 'accepted') throw new Error(`the whole compiler's code cache: ${r.cache}`);
  ts = compilerApi(r.exports);
} else throw new Error('load.mjs: MODE is prepare, cut or whole');
extractFacts(ts, file, text, ADAPTERS);
process.stdout.write(`${JSON.stringify({ mode, ms: performance.now() - t0 })}\n`);
