/**
 * Where a cold run's extraction time goes: the files a cold `check` extracts (those the
 * prefilter lets through, chosen as src/collect.ts chooses them), read beforehand, then in
 * this one process (no worker):
 *   parse    each parsed by ts.createSourceFile, as the extraction parses it;
 *   walk     parsed, then every node visited once by ts.forEachChild (nothing made);
 *   extract  parsed and its facts extracted (extractFacts), the facts dropped at once;
 *   keep     the same, every file's facts kept until the end, as a run keeps them to link;
 *   again    every file extracted once untimed, then timed as `extract` a second time: the
 *            extraction once the JIT compiler has optimised it for these files (what `extract`
 *            costs beyond it is its warm-up, which a one-shot run pays every time);
 *   reparse  every file parsed once untimed, then timed as `parse` a second time: the parser's
 *            own warm-up, which `again` leaves out too (and the floor pays, as a check does).
 * Prints {"mode", "files", "ms"} as JSON. `npm run bench` runs the six modes in turn, in a
 * process each, and reports each against `parse` measured in the same rounds.
 *
 *   node bench/phases.mjs DIR MODE
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src');
const load = (rel) => import(pathToFileURL(path.join(DIST, rel)).href);
const { extractFacts, parseOptions, scriptKindOf } = await load('extract/extract.js');
const { loadTypeScript } = await load('extract/compiler.js');
const { ADAPTERS } = await load('adapters/index.js');
const { DEFAULT_BUDGETS } = await load('budgets.js');
const { discover } = await load('discover.js');
const { loadProject } = await load('project.js');
const { eagerFiles, frameworkModulePattern, importersGraph, textSignals } = await load('prefilter.js');
const { Evaluator } = await load('link/evaluate.js');

const MODES = ['parse', 'walk', 'extract', 'keep', 'again', 'reparse'];
const root = path.resolve(process.argv[2] ?? '.');
const mode = process.argv[3];
if (!MODES.includes(mode)) {
  process.stderr.write(`phases: MODE is one of ${MODES.join(', ')}\n`);
  process.exit(2);
}

// The files a cold run extracts: those with a signal and their importers (src/collect.ts).
const { files } = discover(root, []);
const project = loadProject(root, files);
const texts = new Map(files.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
const modules = frameworkModulePattern(ADAPTERS.flatMap((a) => a.modules));
const signals = new Map(files.map((f) => [f, textSignals(f, texts.get(f), modules)]));
const resolver = new Evaluator(new Map(files.map((f) => [f, null])), ADAPTERS, (from, spec) => project.resolveBare(from, spec));
const resolve = (from, spec) => resolver.resolveModule(from, spec);
const eager = eagerFiles(files, signals, resolve, importersGraph(files, signals, resolve), []);
const work = files.filter((f) => eager.has(f));

const ts = loadTypeScript();
const parse = (f) => ts.createSourceFile(f, texts.get(f), parseOptions(ts), false, scriptKindOf(ts, f));
const kept = [];
const visit = (n) => {
  ts.forEachChild(n, visit);
};

if (mode === 'again') for (const f of work) extractFacts(ts, f, texts.get(f), ADAPTERS, DEFAULT_BUDGETS);
if (mode === 'reparse') for (const f of work) parse(f);
const t0 = performance.now();
for (const f of work) {
  if (mode === 'parse' || mode === 'reparse') parse(f);
  else if (mode === 'walk') visit(parse(f));
  else if (mode === 'extract' || mode === 'again') extractFacts(ts, f, texts.get(f), ADAPTERS, DEFAULT_BUDGETS);
  else kept.push(extractFacts(ts, f, texts.get(f), ADAPTERS, DEFAULT_BUDGETS));
}
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ mode, files: work.length, ms }) + '\n');
