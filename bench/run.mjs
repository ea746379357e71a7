#!/usr/bin/env node
/**
 * `npm run bench [-- --sizes 500,2000,10000] [--pairs 5] [--out docs/performance.md] [--work DIR]`
 *
 * For each size: generates a synthetic control-plane tree (bench/generate.mjs), checks that
 * `route-surface check` finds exactly the generated routes and that the prefilter changes
 * nothing, then times, each paired run for run with the floor (A B A B …):
 *   (a) floor: every file parsed once by ts.createSourceFile in one process (bench/floor.mjs)
 *   (a2) every file parsed once as a cold check parses it, nothing else (bench/floor.mjs
 *       --route-surface): what a cold check spends on parsing alone, and so what is left within
 *       1.5× the floor for the rest of its work
 *   (b) route-surface check, cold (no cache)
 *   (c) route-surface check --cache, warm, nothing changed
 *   (d) route-surface check --cache, warm, one route file edited (a timing local put at the
 *       head of a handler: a call that is no guard, src/relocate.ts)
 *   (d2) the same, one file no route reaches edited (a repository: only its parsing matters)
 *   (d3) the same, the route file edited so that its facts only move (a comment line added)
 *   (d4) the same, a route file edited so that a route gains a guard (linked again)
 *   (d5) the same, a log call given an object put after a handler's response (a call of the
 *       file that calls no analysed function, src/relocate.ts)
 *   (d6) the same, a field put in the object a view helper returns (returns no run reads,
 *       src/relocate.ts)
 *   (e) ESLint with @typescript-eslint/parser (no type information) and one rule
 * and reports medians of the paired ratios and peak RSS, printed and written to --out; then
 * what extracting every file on 2 threads instead of 1 costs and saves, and what two processes
 * extracting half the files each at once take (bench/threads.mjs), where a cold run's extraction
 * time goes: parsing, walking, extracting, keeping the facts, and extracting again once the JIT
 * compiler is warm (bench/phases.mjs), and what loading the compiler costs (bench/load.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate, routeFileOf } from './generate.mjs';
import { adapterFrameworks, compareRoutes, describeComparison } from './verify.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const BIN = path.join(ROOT, 'bin', 'route-surface.js');
const FLOOR = path.join(HERE, 'floor.mjs');
const THREADS = path.join(HERE, 'threads.mjs');
const PHASES = path.join(HERE, 'phases.mjs');
const LOAD = path.join(HERE, 'load.mjs');
const RSS = path.join(HERE, 'rss.cjs');
const require = createRequire(path.join(ROOT, 'package.json'));
const ESLINT = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');

// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const o = { sizes: [500, 2000, 10000], pairs: 5, out: path.join(ROOT, 'docs', 'performance.md'), work: path.join(os.tmpdir(), 'route-surface-bench') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--sizes') o.sizes = v().split(',').map((s) => Number(s.trim()));
    else if (a === '--pairs') o.pairs = Number(v());
    else if (a === '--out') o.out = v() === '-' ? null : path.resolve(argv[i]);
    else if (a === '--work') o.work = path.resolve(v());
    else fail(`unknown argument ${a}`);
  }
  if (o.sizes.some((n) => !Number.isInteger(n) || n < 100)) fail('--sizes: whole numbers of at least 100');
  if (!Number.isInteger(o.pairs) || o.pairs < 1) fail('--pairs: a whole number of at least 1');
  return o;
}

function fail(msg) {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(2);
}

const version = (pkg) => JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;

function machine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} (${os.availableParallelism()} cores available)`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    typescript: `${version('typescript')} (ts-morph ${version('ts-morph')} bundles it: the floor loads it whole, route-surface the parser the build cuts from it)`,
    eslint: `eslint ${version('eslint')}, @typescript-eslint/parser ${version('@typescript-eslint/parser')}`,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Run one measured process: wall time (spawn to exit) and peak RSS (all threads). */
function measure(args, cwd, okCodes = [0]) {
  const rssFile = path.join(os.tmpdir(), `route-surface-bench-rss-${process.pid}`);
  fs.rmSync(rssFile, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', RSS, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: '1', FORCE_COLOR: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!okCodes.includes(r.status ?? -1)) fail(`${args.map((a) => path.basename(a)).join(' ')} exited with ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  const rssKiB = Number(fs.readFileSync(rssFile, 'utf8'));
  fs.rmSync(rssFile, { force: true });
  return { ms, rssMiB: rssKiB / 1024 };
}

/** A bench script run in a process of its own, not waited for: its JSON output, when it ends. */
function spawnJson(script, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : fail(`${path.basename(script)} ${args.join(' ')}: ${err}`)));
  });
}

// ---------------------------------------------------------------------------

async function benchSize(size, o, frameworks, log, first) {
  const base = path.join(o.work, String(size));
  const tree = path.join(base, 'tree');
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(base, { recursive: true });
  log(`\n## ${size} files\n`);
  const gen = generate({ dir: tree, files: size });
  const expected = gen.routes;
  const excluded = expected.filter((r) => r.guards.family.length > 0).length;
  log(`generated: ${gen.files} files, ${gen.lines} lines (${(gen.lines / gen.files).toFixed(0)} a file), ${expected.length} routes (${((100 * excluded) / expected.length).toFixed(1)} % in excluded families)`);

  // Correctness: the CLI's routes against the truth; the prefilter changes nothing.
  const outJson = path.join(base, 'check.json');
  spawnSync(process.execPath, [BIN, 'check', '--format', 'json', '--output', outJson], { cwd: tree, stdio: 'ignore' });
  const found = JSON.parse(fs.readFileSync(outJson, 'utf8'));
  const cmp = compareRoutes(expected, found.routes, frameworks);
  log(describeComparison(cmp));
  const engine = await import(pathToFileURL(path.join(ROOT, 'dist', 'src', 'engine.js')).href);
  const { formatJson } = await import(pathToFileURL(path.join(ROOT, 'dist', 'src', 'report', 'json.js')).href);
  const withPrefilter = await engine.run({ cwd: tree, paths: [] });
  const stats = withPrefilter.extraction;
  const same = formatJson(withPrefilter) === formatJson(await engine.run({ cwd: tree, paths: [], prefilter: false }));
  log(
    `prefilter: ${stats.deferred} of ${stats.files} files left unparsed by the text test, ${stats.demanded} of them parsed later on demand; ` +
      `output with and without it ${same ? 'identical' : 'DIFFERENT'}`,
  );

  // ESLint's config lives next to the tree, not in it (route-surface would analyse it).
  const parserUrl = pathToFileURL(require.resolve('@typescript-eslint/parser')).href;
  fs.writeFileSync(
    path.join(base, 'eslint.config.mjs'),
    `import parser from ${JSON.stringify(parserUrl)};\nexport default [{ files: ['tree/**/*.{ts,tsx,mts,cts}'], languageOptions: { parser }, rules: { 'no-debugger': 'error' } }];\n`,
  );
  const cache = path.join(base, 'route-surface-cache');
  const routeFile = path.join(tree, routeFileOf(expected));
  const cached = [BIN, 'check', '--format', 'json', '--cache', '--cache-location', cache];
  /** A warm run after `file` is changed by `edit`; every other one after the edit is undone. */
  const edited = (id, label, file, edit) => {
    const original = fs.readFileSync(file, 'utf8');
    const changed = edit(original);
    if (changed === original) fail(`cannot edit ${file}`);
    let flip = false;
    const restore = () => fs.writeFileSync(file, original);
    const before = () => {
      flip = !flip;
      fs.writeFileSync(file, flip ? changed : original);
    };
    return { id, label, args: cached, cwd: tree, codes: [0, 1], before, restore, apply: () => fs.writeFileSync(file, changed) };
  };
  const commands = [
    { id: 'parsed', label: "(a2) route-surface's parser alone: every file parsed once, as a cold check parses it", args: [FLOOR, tree, '--route-surface'], cwd: tree, codes: [0] },
    { id: 'cold', label: '(b) check, cold', args: [BIN, 'check', '--format', 'json'], cwd: tree, codes: [0, 1] },
    { id: 'warm', label: '(c) check --cache, warm, nothing changed', args: cached, cwd: tree, codes: [0, 1] },
    edited('edit', '(d) check --cache, warm, one route file edited', routeFile, (t) => t.replace(/\n(\s*)try \{\n/, (m, ind) => `${m}${ind}  const startedAt = Date.now();\n`)),
    // A file no route reaches (the repository beside that route file): only its parsing matters.
    edited('editUnread', '(d2) check --cache, warm, one file no route reaches edited (a repository)', routeFile.replace(/\.routes\.ts$/, '.repository.ts'), (t) =>
      t.replace(/\n(\s*)const params\b/, (m, ind) => `\n${ind}const startedAt = Date.now();${m}`),
    ),
    // Another route file (each edit flips its own file: a run sees only its own edit), a comment
    // line put in a handler: its facts only move (src/relocate.ts).
    edited('editMoved', '(d3) check --cache, warm, one route file edited, its facts only moved (a comment line added)', path.join(tree, routeFileOf(expected, 'express', 1)), (t) =>
      t.replace(/\n(\s*)try \{\n/, (m, ind) => `${m}${ind}  // paged: see docs/api/paging.md\n`),
    ),
    // A third route file, a guard call put at the head of a handler: the route gains an
    // in-handler guard, and the result is linked again.
    edited('editGuarded', '(d4) check --cache, warm, one route file edited so that a route gains a guard (a guard call put in a handler)', path.join(tree, routeFileOf(expected, 'express', 2)), (t) =>
      t.replace(/\n(\s*)try \{\n/, (m, ind) => `${m}${ind}  await requireSession(req);\n`),
    ),
    // A fourth route file, a structured log call put after a handler's response: a call of the
    // file (given an object) that calls nothing the analysed files define.
    edited('editLogged', "(d5) check --cache, warm, one route file edited (a log call given an object put after a handler's response)", path.join(tree, routeFileOf(expected, 'express', 3)), (t) =>
      t.replace(/\n(\s*)res\.status\(201\)\.json\([^\n]*\n/, (m, ind) => `${m}${ind}console.info({ tenant: req.tenant.id, event: 'created' });\n`),
    ),
    // A fifth route file, a field put in the object its view helper returns (`toXView(item)`,
    // called in the responses): returns that no run reads.
    edited('editReturned', '(d6) check --cache, warm, one route file edited (a field put in the object a view helper returns)', path.join(tree, routeFileOf(expected, 'express', 4)), (t) =>
      t.replace(/\n(\s*)createdAt: item\.createdAt,\n/, (m, ind) => `\n${ind}servedBy: process.env.HOSTNAME ?? null,${m}`),
    ),
    { id: 'eslint', label: '(e) ESLint + typescript-eslint parser, 1 rule', args: [ESLINT, '-c', 'eslint.config.mjs', 'tree'], cwd: base, codes: [0, 1] },
  ];
  // Each edit, made after a run of the unedited tree, gives warm what a cold run gives on the
  // edited tree; whether the kept result stood (moved) or the run linked again is reported.
  const outcomes = [];
  const verifyCache = path.join(base, 'verify-cache');
  for (const c of commands.filter((x) => x.apply)) {
    fs.rmSync(verifyCache, { force: true });
    await engine.run({ cwd: tree, paths: [], cache: true, cacheLocation: verifyCache });
    c.apply();
    try {
      const warm = await engine.run({ cwd: tree, paths: [], cache: true, cacheLocation: verifyCache });
      if (formatJson(warm) !== formatJson(await engine.run({ cwd: tree, paths: [] }))) fail(`${c.id}: the warm result after the edit is not a cold run's`);
      outcomes.push(`${c.label.slice(0, c.label.indexOf(')') + 1)} ${warm.extraction.reused ? 'the kept result stood, moved' : 'linked again'}`);
    } finally {
      c.restore();
    }
  }
  fs.rmSync(verifyCache, { force: true });
  log(`edits: each warm result equals a cold run's on the edited tree; ${outcomes.join('; ')}`);

  // Untimed: the OS file cache warmed, the route-surface cache primed.
  measure([FLOOR, tree], tree);
  measure(cached, tree, [0, 1]);

  const runs = Object.fromEntries(commands.map((c) => [c.id, []]));
  const floors = [];
  for (let p = 0; p < o.pairs; p++) {
    for (const c of commands) {
      const a = measure([FLOOR, tree], tree);
      c.before?.();
      const b = measure(c.args, c.cwd, c.codes);
      floors.push(a);
      runs[c.id].push({ a, b, ratio: b.ms / a.ms });
      process.stderr.write(`  ${size} pair ${p + 1}/${o.pairs} ${c.id}: floor ${(a.ms / 1000).toFixed(2)} s, ${c.id} ${(b.ms / 1000).toFixed(2)} s (${(b.ms / a.ms).toFixed(2)}×)\n`);
    }
  }
  for (const c of commands) c.restore?.();

  const row = (label, xs) => ({ label, seconds: median(xs.map((x) => x.ms)) / 1000, rss: Math.max(...xs.map((x) => x.rssMiB)) });
  const floor = row('(a) floor: ts.createSourceFile, every file once', floors);
  const results = { size, gen, cmp, same, stats, floor, commands: {} };
  log('');
  log('| measurement | median time | median ratio to the floor (paired) | peak RSS |');
  log('|---|---:|---:|---:|');
  log(`| ${floor.label} | ${floor.seconds.toFixed(2)} s | 1 | ${floor.rss.toFixed(0)} MiB |`);
  for (const c of commands) {
    const r = row(c.label, runs[c.id].map((x) => x.b));
    r.ratio = median(runs[c.id].map((x) => x.ratio));
    results.commands[c.id] = r;
    log(`| ${c.label} | ${r.seconds.toFixed(2)} s | ${r.ratio.toFixed(2)}× | ${r.rss.toFixed(0)} MiB |`);
  }
  const parsed = results.commands.parsed.ratio;
  log(
    `\nParsing alone takes route-surface ${parsed.toFixed(2)}× the floor (a2). Within 1.5×, everything else a cold check does ` +
      `(the prefilter, extraction beyond the parse, linking, rules, the report) has ${(1.5 - parsed).toFixed(2)}× the floor left; ` +
      `it takes ${(results.commands.cold.ratio - parsed).toFixed(2)}× (the difference of the medians).`,
  );
  const eslintOverCold = median(runs.eslint.map((x, i) => x.b.ms / runs.cold[i].b.ms));
  results.eslintOverCold = eslintOverCold;
  log(`\ncheck (cold) is ${eslintOverCold.toFixed(1)}× faster than the ESLint run (median of per-pair ratios).`);

  // What a worker thread costs and saves here: every file extracted on 1, then 2 threads (alternating).
  const byThreads = { 1: [], 2: [] };
  for (let p = 0; p < o.pairs; p++)
    for (const t of [1, 2]) {
      const r = spawnSync(process.execPath, [THREADS, tree, String(t)], { encoding: 'utf8' });
      if (r.status !== 0) fail(`threads.mjs ${t}: ${r.stderr}`);
      byThreads[t].push(JSON.parse(r.stdout));
    }
  const wall = (t) => median(byThreads[t].map((x) => x.wallMs)) / 1000;
  const cpu = (t) => median(byThreads[t].map((x) => x.cpuMs)) / 1000;
  results.threads = { wall1: wall(1), wall2: wall(2), cpu1: cpu(1), cpu2: cpu(2) };
  // What a second core gives the same work with nothing sent between threads: two processes at
  // once, each extracting every other file, timed from the first one's start to the last one's
  // end (as many rounds as the pool's runs above, after them).
  const halves = [];
  for (let p = 0; p < o.pairs; p++) {
    const both = await Promise.all(['0/2', '1/2'].map((share) => spawnJson(THREADS, [tree, '1', share])));
    halves.push(Math.max(...both.map((x) => x.endedAt)) - Math.min(...both.map((x) => x.startedAt)));
  }
  const twoProcs = median(halves) / 1000;
  results.threads.twoProcesses = twoProcs;
  log(
    `\nExtraction of all ${size} files by route-surface's pool (bench/threads.mjs, medians of ${o.pairs}): ` +
      `1 thread ${wall(1).toFixed(2)} s (CPU ${cpu(1).toFixed(2)} s), 2 threads ${wall(2).toFixed(2)} s (CPU ${cpu(2).toFixed(2)} s, ` +
      `${median(byThreads[2].map((x) => x.byWorkers)).toFixed(0)} files by the worker). ` +
      `Two processes at once, each extracting every other file on its one thread, nothing sent between them: ${twoProcs.toFixed(2)} s ` +
      `(${(wall(1) / twoProcs).toFixed(2)}× as fast as 1 thread: what a second core gives this work on this machine).`,
  );
  // Where the cold run's extraction time goes: each mode in a process of its own, in turn.
  const byPhase = { parse: [], walk: [], extract: [], keep: [], again: [], reparse: [] };
  for (let p = 0; p < o.pairs; p++)
    for (const m of Object.keys(byPhase)) {
      const r = spawnSync(process.execPath, [PHASES, tree, m], { encoding: 'utf8' });
      if (r.status !== 0) fail(`phases.mjs ${m}: ${r.stderr}`);
      byPhase[m].push(JSON.parse(r.stdout));
    }
  // phases.mjs picks the files as src/collect.ts does; a cold run must have extracted as many.
  if (byPhase.parse[0].files !== stats.parsed) fail(`phases.mjs took ${byPhase.parse[0].files} files, a cold check extracts ${stats.parsed}`);
  const phase = (m) => median(byPhase[m].map((x) => x.ms)) / 1000;
  const over = (m) => `${phase(m).toFixed(2)} s (${(phase(m) / phase('parse')).toFixed(2)}× the parse)`;
  results.phases = Object.fromEntries(Object.keys(byPhase).map((m) => [m, phase(m)]));
  log(
    `\nThe ${byPhase.parse[0].files} files a cold check extracts, read beforehand, on one thread (bench/phases.mjs, medians of ${o.pairs}): ` +
      `parsed ${phase('parse').toFixed(2)} s; parsed and every node visited once ${over('walk')}; ` +
      `parsed and their facts extracted ${over('extract')}; the same with every file's facts kept, as a run keeps them to link, ${over('keep')}; ` +
      `extracted a second time in the same process, the JIT compiler warm on them (the facts dropped), ${over('again')}; ` +
      `parsed a second time, warm, ${over('reparse')} — so warm, the extraction beyond the parse costs ` +
      `${((phase('again') - phase('reparse')) / phase('reparse')).toFixed(2)}× the warm parse.`,
  );
  // What loading the compiler costs a run after an edit (once: it does not depend on the tree's size).
  if (first) {
    const wholeCache = path.join(base, 'whole.code-cache');
    const run = (...args) => {
      const r = spawnSync(process.execPath, [LOAD, ...args], { encoding: 'utf8' });
      if (r.status !== 0) fail(`load.mjs ${args[0]}: ${r.stderr}`);
      return args[0] === 'prepare' ? null : JSON.parse(r.stdout).ms;
    };
    run('prepare', wholeCache);
    const byLoad = { cut: [], whole: [] };
    for (let p = 0; p < o.pairs; p++) {
      byLoad.cut.push(run('cut', routeFile));
      byLoad.whole.push(run('whole', routeFile, wholeCache));
    }
    const cut = median(byLoad.cut);
    const whole = median(byLoad.whole);
    results.compilerLoad = { cut, whole };
    log(
      `\nLoading the compiler and extracting one route file's facts, in a fresh process (bench/load.mjs, medians of ${o.pairs}), each with its code cache: ` +
        `the parser the build cuts from it (scripts/compiler.ts) ${cut.toFixed(0)} ms, the whole compiler ${whole.toFixed(0)} ms (${(cut / whole).toFixed(2)}×).`,
    );
  }
  // The tree is deterministic: generated again by the next run.
  fs.rmSync(base, { recursive: true, force: true });
  return results;
}

function targets(all, log) {
  const by = new Map(all.map((r) => [r.size, r]));
  const lines = [];
  const check = (ok, text) => lines.push(`- ${ok ? 'met' : '**not met**'}: ${text}`);
  for (const n of [2000, 10000]) {
    const r = by.get(n);
    if (!r) continue;
    check(r.commands.cold.ratio <= 1.5, `cold ≤ 1.5× the floor at ${n} files — ${r.commands.cold.ratio.toFixed(2)}× (parsing alone ${r.commands.parsed.ratio.toFixed(2)}×)`);
    check(r.eslintOverCold >= 8, `at least 8× faster than ESLint at ${n} files — ${r.eslintOverCold.toFixed(1)}×`);
  }
  const r2 = by.get(2000);
  if (r2) {
    check(r2.commands.warm.ratio <= 0.2, `warm, nothing changed ≤ 0.2× the floor at 2,000 files — ${r2.commands.warm.ratio.toFixed(2)}×`);
    check(r2.commands.edit.ratio <= 0.3, `one edited file ≤ 0.3× the floor at 2,000 files — ${r2.commands.edit.ratio.toFixed(2)}×`);
  }
  const r10 = by.get(10000);
  if (r10) {
    const peak = Math.max(...Object.values(r10.commands).filter((c) => !c.label.includes('ESLint')).map((c) => c.rss));
    check(peak <= 1024, `peak RSS of route-surface at 10,000 files ≤ 1 GiB — ${peak.toFixed(0)} MiB`);
  }
  if (r2 && r10) {
    const growth = r10.commands.cold.seconds / r2.commands.cold.seconds;
    check(growth <= 5.5, `linear growth, cold 10,000-file ÷ 2,000-file time ≤ 5.5 — ${growth.toFixed(2)}`);
  }
  for (const r of all) check(r.cmp.ok && r.same, `${r.size} files: the generated routes found exactly, and the prefilter changes nothing`);
  log('\n## Targets\n');
  for (const l of lines) log(l);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(ROOT, 'dist', 'src', 'engine.js'))) fail('build first (npm run build)');
  const out = [];
  const log = (s) => {
    out.push(s);
    process.stdout.write(s + '\n');
  };
  const m = machine();
  const load0 = os.loadavg()[0];
  const frameworks = await adapterFrameworks(ROOT);
  log('# Performance');
  log('');
  log('Regenerated by `npm run bench` (bench/run.mjs); do not edit by hand.');
  log('');
  log(`Command: \`npm run bench -- --sizes ${o.sizes.join(',')} --pairs ${o.pairs}\`, ${new Date().toISOString().slice(0, 10)}.`);
  log('');
  for (const [k, v] of Object.entries(m)) log(`- ${k}: ${v}`);
  log(`- load average (1 min) when the bench started: ${load0.toFixed(2)}`);
  log('');
  log(
    'Each measured command runs in its own process, right after a floor run (A B A B …); the ratio of ' +
      'each pair is taken and the median over the pairs reported, so a busy machine affects both sides of a ratio alike. ' +
      `Routes are checked for the frameworks route-surface has adapters for: ${frameworks.join(', ')}.`,
  );
  const all = [];
  for (const n of o.sizes) all.push(await benchSize(n, o, frameworks, log, n === o.sizes[0]));
  targets(all, log);
  log(`\nLoad average (1 min) when the bench ended: ${os.loadavg()[0].toFixed(2)}.`);
  if (o.out) {
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, out.join('\n') + '\n');
    process.stderr.write(`written to ${path.relative(process.cwd(), o.out)}\n`);
  }
}

await main();
