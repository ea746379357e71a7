/**
 * Extraction of every file of a tree on N threads (the main one included), with route-surface's
 * own pool: prints {"threads", "files", "wallMs", "cpuMs", "byWorkers", "startedAt", "endedAt"}
 * as JSON (the last two on the wall clock, in ms since the epoch). `npm run bench` runs it
 * with 1 and 2 threads to show what a worker costs and saves on the machine it runs on.
 *
 * With SHARE `i/n`, one thread extracts only every n-th file from the i-th on (no pool, nothing
 * sent anywhere): `npm run bench` runs `0/2` and `1/2` in two processes at once, to show what a
 * second core gives this work on this machine when nothing is shared or sent between threads.
 *
 *   node bench/threads.mjs DIR THREADS [SHARE]
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
const share = process.argv[4] ? /^(\d+)\/(\d+)$/.exec(process.argv[4]) : null;
if (process.argv[4] && (!share || threads !== 1 || Number(share[1]) >= Number(share[2]))) {
  process.stderr.write('threads: SHARE is i/n with i < n, on 1 thread\n');
  process.exit(2);
}
const all = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(path.join(dir, e.name));
    else if (/\.[cm]?[jt]sx?$/.test(e.name)) all.push(path.relative(root, path.join(dir, e.name)));
  }
})(root);
all.sort();
const files = share ? all.filter((_, i) => i % Number(share[2]) === Number(share[1])) : all;
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
const t1 = performance.now();
// (start and end on the wall clock too: two processes run at once are timed from the first start to the last end)
const at = (t) => performance.timeOrigin + t;
process.stdout.write(JSON.stringify({ threads, files: files.length, wallMs: t1 - t0, cpuMs: (cpu.user + cpu.system) / 1000, byWorkers, startedAt: at(t0), endedAt: at(t1) }) + '\n');
