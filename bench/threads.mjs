/**
 * Extraction of every file of a tree on N threads (the main one included), with route-surface's
 * own pool: prints {"threads", "wallMs", "cpuMs", "byWorkers"} as JSON. `npm run bench` runs it
 * with 1 and 2 threads to show what a worker costs and saves on the machine it runs on.
 *
 *   node bench/threads.mjs DIR THREADS
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src');
const load = (rel) => import(pathToFileURL(path.join(DIST, rel)).href);
const { extractInPool } = await load('extract/pool.js');
const { extractFacts } = await load('extract/extract.js');
const { factsFromParts } = await load('extract/facts-text.js');
const { loadTypeScript } = await load('extract/compiler.js');
const { ADAPTERS } = await load('adapters/index.js');
const { DEFAULT_BUDGETS } = await load('budgets.js');
const { contentHash } = await load('cache.js');

const root = path.resolve(process.argv[2]);
const threads = Number(process.argv[3]);
const files = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(path.join(dir, e.name));
    else if (/\.[cm]?[jt]sx?$/.test(e.name)) files.push(path.relative(root, path.join(dir, e.name)));
  }
})(root);
files.sort();
const texts = files.map((f) => fs.readFileSync(path.join(root, f), 'utf8'));

const t0 = performance.now();
const c0 = process.cpuUsage();
let byWorkers = 0;
await extractInPool(
  files,
  files.length,
  { cwd: root, maxFileBytes: DEFAULT_BUDGETS.maxFileBytes, hashes: texts.map((t) => contentHash(t)) },
  DEFAULT_BUDGETS,
  threads,
  {
    inline: (i) => extractFacts(loadTypeScript(), files[i], texts[i], ADAPTERS, DEFAULT_BUDGETS),
    facts: (_i, head, rest) => {
      factsFromParts(head, rest);
      byWorkers++;
    },
    checked: () => {},
  },
);
const cpu = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ threads, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, byWorkers }) + '\n');
