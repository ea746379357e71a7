/**
 * The extract step of the pipeline: every discovered file is read and hashed; its facts come
 * from the cache when its content is unchanged; otherwise a cheap text test (prefilter.ts)
 * decides whether it is parsed now or only if the linker asks for it. Files parsed now are
 * parsed once each, on a pool of threads when the work outweighs their start-up (pool.ts),
 * and the syntax tree of a file is dropped as soon as its facts are taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Adapter } from './adapters/adapter.js';
import type { Budgets } from './budgets.js';
import { contentHash, statSignature, type FactCache } from './cache.js';
import { UsageError } from './errors.js';
import { loadTypeScript } from './extract/compiler.js';
import { emptyFacts, extractFacts, hasSyntaxError } from './extract/extract.js';
import { factsFromParts, factsFromText, factsToText, partsToText, plainFactsFromText } from './extract/facts-text.js';
import { cpuSample, extractInPool, idleCores, threadsFor } from './extract/pool.js';
import { Evaluator, fnKey, specifierBases } from './link/evaluate.js';
import { eagerFiles, frameworkModulePattern, importersGraph, textSignals, type TextSignals } from './prefilter.js';
import { factsMoved, type LineMap } from './relocate.js';
import { readSourceText } from './source-text.js';
import { JSON_MODULE } from './extract/json-module.js';
import type { FactChanges } from './link/link.js';
import type { FileFacts, ParseErrorFact } from './types.js';

export interface CollectOptions {
  cwd: string;
  files: string[];
  /** explicit files (pre-commit): always parsed, and an unreadable one is a usage error */
  focus: Set<string> | null;
  budgets: Budgets;
  adapters: Adapter[];
  /** bare specifiers that lead into the tree (tsconfig paths, workspace packages) */
  resolveBare: (fromFile: string, spec: string) => string[];
  /** whether a JSON file the files import is analysed with them (discover.ts, `admits`); none is when absent */
  admits?: (rel: string) => boolean;
  cache: FactCache | null;
  /** leave files that cannot hold a route, mount or guard unparsed until needed (default true) */
  prefilter?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface CollectStats {
  files: number;
  /** facts taken from the cache */
  cached: number;
  /** files not read at all: the cache vouched for them by their stat (cache.ts, statSignature) */
  unread: number;
  /** files parsed before linking */
  parsed: number;
  /** files the prefilter left unparsed (`FactStore.demanded` says which were needed after all) */
  deferred: number;
  /** deferred files parsed only to find syntax errors (those the cache knows were checked before are not) */
  checked: number;
  /** threads that parsed (1: the main thread alone) */
  threads: number;
}

/**
 * The facts of the analysed files, by file. Files the prefilter deferred are known to the
 * store (`has`) but their facts are made when first asked for (`get`); iterating the store
 * visits the files whose facts exist so far — every file that can hold routes, mounts,
 * guards or what the rules scan for.
 */
export class FactStore extends Map<string, FileFacts> {
  private readonly pending = new Map<string, () => FileFacts>();
  /** deferred files whose facts were asked for */
  readonly demanded: string[] = [];

  defer(file: string, load: () => FileFacts): void {
    this.pending.set(file, load);
  }

  override has(file: string): boolean {
    return super.has(file) || this.pending.has(file);
  }

  override get(file: string): FileFacts | undefined {
    const f = super.get(file);
    if (f !== undefined || !this.pending.has(file)) return f;
    this.demanded.push(file);
    return this.load(file);
  }

  /** The deferred files whose facts were never made: nothing asked for them. */
  unread(): string[] {
    return [...this.pending.keys()];
  }

  /** Make a deferred file's facts now (not counted as demanded). */
  load(file: string): FileFacts | undefined {
    const load = this.pending.get(file);
    if (!load) return super.get(file);
    this.pending.delete(file);
    const facts = load();
    this.set(file, facts);
    return facts;
  }
}

interface FileState {
  file: string;
  hash: string;
  signals: TextSignals;
  /** a decoding problem worth a parse-error finding (added to whatever facts the file has) */
  note: ParseErrorFact | null;
  /** the text, until the file is parsed */
  text: string | null;
  /** the cache holds this file's facts (read when needed) */
  cached: boolean;
  /** the cache knows this content: a held-back file was parsed for syntax errors on an earlier run */
  known: boolean;
  /** the file's stat signature, kept with its cache entry (cache.ts, statSignature) */
  stat: string | null;
  /** its size, in characters when it was read (bytes when the cache vouched for it unread) */
  size: number;
  /** the facts, once made */
  facts: FileFacts | null;
}

export interface Collected {
  store: FactStore;
  stats: CollectStats;
  /**
   * Who imports a file (from the text scan), when the prefilter ran: the linker uses it to
   * look for calls that pass routers only where they can reach a function registering on
   * its parameter.
   */
  importers: ((file: string) => readonly string[]) | null;
  /** write the cache with every fact known by now (call after linking); null, or why it failed */
  saveCache(): string | null;
}

/** Every file read and hashed; its facts not made yet. */
export interface Sources {
  /** the analysed files: those given, and the JSON files they import (json-module.ts), in order */
  files: string[];
  /** a digest of every file's path and content (and why an unreadable one is not analysed) */
  digest: string;
  /** files the cache vouched for by their stat, not read */
  unread: number;
  /** take facts from the cache, prefilter, parse */
  collect(): Promise<Collected>;
  /**
   * When the last result is reused (nothing is collected): keep in the cache the stat
   * signatures of files it had none for (read this time), so the next run need not read them
   * — when there are enough of them to pay for rewriting the cache.
   * Null, or why the cache could not be written.
   */
  keepSignatures(): string | null;
  /**
   * Whether the kept result still holds although files changed since the cache's version:
   * each is either one the result did not read (`unused`: held back by the prefilter, not
   * needed by the linker) and would not read now either — its text still shows no signal,
   * imports what it did, and parses (each such file is parsed to know) — or one whose facts
   * only moved (relocate.ts): same signals and imports, and its new facts, extracted now,
   * equal the cached ones but for lines — for leading statements of functions, or calls of
   * the file, added or removed that `inert` finds change nothing, and for the returns of
   * functions whose returns it did not read and the response fields of functions that handle
   * none of its routes. Then the result stands, its locations in the moved files to be moved
   * (`moved`: the line map of each), and it depends on the returns it read and those the
   * judging read (`returnsRead`). Null when another file changed, any was added, removed or
   * cannot be read, or none changed.
   */
  resultHolds(scope: KeptScope, inert: ChangeJudge): { checked: number; moved: Map<string, LineMap>; returnsRead: Set<string> } | null;
  /** Keep every file's entry (the changed files' new content) in the cache; null, or why it could not be written. */
  saveEntries(): string | null;
}

/**
 * Whether leading statements and calls an edit added or removed change nothing a run links
 * (link.ts, `inertChanges`), judged with `files`: the last result's facts, but the edited
 * files' old ones (for those removed) or new ones (for those added). Null when they may; else
 * the functions (`file:fn`) whose returns the judging read.
 */
export type ChangeJudge = (files: FactStore, changes: FactChanges) => ReadonlySet<string> | null;

/** What the last result depends on besides its files' facts (cache.ts, `ResultScope`). */
export interface KeptScope {
  /** the files it never read facts of */
  unused: ReadonlySet<string>;
  /** the functions (`file:fn`) whose returned expressions it read */
  returnsRead: ReadonlySet<string>;
  /** the functions (`file:fn`) that handle its routes: the rules read their response fields */
  handlers: ReadonlySet<string>;
}

/** When the last result is reused, the cache is rewritten to keep new stat signatures only if at least 1 file in this many needs one. */
const SIGNATURES_WORTH_SAVING = 8;

export function readSources(o: CollectOptions): Sources {
  const cpuBefore = cpuSample();
  const states: FileState[] = [];
  const modules = frameworkModulePattern(o.adapters.flatMap((a) => a.modules));
  const always = new Set<string>(o.focus ?? []);
  const stats: CollectStats = { files: o.files.length, cached: 0, unread: 0, parsed: 0, deferred: 0, checked: 0, threads: 1 };

  const runStart = Date.now();
  const statOf = (abs: string): fs.Stats | null => {
    try {
      const st = fs.statSync(abs);
      return st.isFile() ? st : null;
    } catch {
      return null;
    }
  };
  const signature = (st: fs.Stats | null): string | null => (st ? statSignature(st, runStart) : null);
  const read = (file: string): void => {
    const abs = path.join(o.cwd, file);
    // With a cache: a file whose stat is the one recorded with its entry is not read again.
    const st = o.cache ? statOf(abs) : null;
    const before = signature(st);
    const vouched = before !== null ? o.cache!.byStat(file, before) : null;
    if (vouched) {
      const cached = o.cache!.hasFacts(file, vouched.hash);
      const signals = { signal: vouched.signal, specifiers: vouched.specifiers };
      states.push({ file, hash: vouched.hash, signals, note: null, text: null, cached, known: true, stat: before, size: st!.size, facts: null });
      if (cached) stats.cached++;
      stats.unread++;
      return;
    }
    const src = readSourceText(abs, o.budgets.maxFileBytes);
    if (!src.ok) {
      if (src.errno && o.focus?.has(file)) throw new UsageError(`${file}: cannot read (${src.errno})`);
      // Not analysable (unreadable, binary, too big): its parse-error fact is all there is.
      states.push({ file, hash: '', signals: { signal: true, specifiers: [] }, note: null, text: null, cached: false, known: false, stat: null, size: 0, facts: { ...emptyFacts(file), parseError: src.skip } });
      always.add(file);
      return;
    }
    const hash = contentHash(src.note ? `${src.text}\0${src.note.message}` : src.text);
    const hit = o.cache?.get(file, hash) ?? null;
    const signals = hit ? { signal: hit.signal, specifiers: hit.specifiers } : textSignals(file, src.text, modules);
    const cached = o.cache?.hasFacts(file, hash) ?? false;
    // The signature, when the file did not change while it was read (and needs no decoding note).
    const stat = before !== null && src.note === null && signature(statOf(abs)) === before ? before : null;
    states.push({ file, hash, signals, note: src.note, text: cached ? null : src.text, cached, known: hit !== null, stat, size: src.text.length, facts: null });
    if (cached) stats.cached++;
  };
  for (const file of o.files) read(file);
  // The JSON files they import, analysed with them as data (json-module.ts), in file order.
  if (o.admits) {
    const known = new Set(o.files);
    const imported = new Set<string>();
    const looked = new Map<string, boolean>();
    const admits = (c: string): boolean => {
      let yes = looked.get(c);
      if (yes === undefined) looked.set(c, (yes = o.admits!(c)));
      return yes;
    };
    for (const s of states) {
      for (const spec of s.signals.specifiers) {
        if (!JSON_MODULE.test(spec)) continue;
        const target = specifierBases(s.file, spec, o.resolveBare).find((c) => known.has(c) || imported.has(c) || admits(c));
        if (target !== undefined && !known.has(target)) imported.add(target);
      }
    }
    for (const file of [...imported].sort()) read(file);
    if (imported.size > 0) states.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    stats.files = states.length;
  }
  const digest = contentHash(states.map((s) => `${s.file}\0${s.hash || s.facts?.parseError?.message}`).join('\0'));
  // How busy the machine was while this thread read: decides how many threads parse.
  const idle = idleCores(cpuBefore, cpuSample());
  const keepSignatures = (): string | null => {
    const cache = o.cache;
    if (!cache) return null;
    // Worth rewriting the cache for when many files lack one (a fresh checkout); a few files
    // edited just before the last run are cheaper to read again than the cache is to rewrite.
    const unsigned = states.filter((s) => s.stat !== null && cache.get(s.file, s.hash)?.stat !== s.stat).length;
    if (unsigned === 0 || unsigned * SIGNATURES_WORTH_SAVING < states.length) return null;
    return saveEntries(cache, states);
  };
  const resultHolds = ({ unused, returnsRead, handlers }: KeptScope, inert: ChangeJudge): { checked: number; moved: Map<string, LineMap>; returnsRead: Set<string> } | null => {
    const cache = o.cache;
    if (!cache || cache.size !== states.length) return null;
    const changed: FileState[] = [];
    const relocated: [FileState, string][] = [];
    for (const s of states) {
      const before = cache.entry(s.file);
      if (!before) return null;
      if (before.hash === s.hash) continue;
      if (s.hash === '' || s.note !== null || s.text === null) return null;
      if (before.specifiers.length !== s.signals.specifiers.length || before.specifiers.some((x, i) => x !== s.signals.specifiers[i])) return null;
      if (unused.has(s.file)) {
        if (s.signals.signal) return null;
        changed.push(s);
      } else {
        if (s.signals.signal !== before.signal || !cache.hasFacts(s.file, before.hash)) return null;
        relocated.push([s, before.hash]);
      }
    }
    if (changed.length + relocated.length === 0) return null;
    // What each parse found is kept for the run that links again: a clean file is not checked
    // again, a broken one is analysed like a file with a signal (as collectFacts does).
    for (const s of changed) {
      let broken: boolean;
      try {
        broken = hasSyntaxError(loadTypeScript(), s.file, s.text!);
      } catch {
        broken = true; // the parser's own stack overflow: extraction reports it against the budgets
      }
      if (broken) {
        s.signals = { ...s.signals, signal: true };
        return null;
      }
      s.known = true;
    }
    // Facts extracted here are the file's facts for the run that links again too (and are kept).
    const moved = new Map<string, LineMap>();
    const olds = new Map<string, FileFacts>();
    const news = new Map<string, FileFacts>();
    const removed: FactChanges = { leading: [], calls: [] };
    const added: FactChanges = { leading: [], calls: [] };
    for (const [s, oldHash] of relocated) {
      const old = cache.facts(s.file, oldHash)?.toString('utf8') ?? null;
      s.facts = extractFacts(loadTypeScript(), s.file, s.text!, o.adapters, o.budgets);
      s.text = null;
      stats.parsed++;
      if (isTimeBudgetFailure(s.facts)) return null;
      cache.addFacts(s.file, factsToText(s.facts));
      let before: FileFacts | null = null;
      try {
        if (old !== null) before = plainFactsFromText(old);
      } catch {
        // a damaged entry: the run links again
      }
      const how = before === null ? null : factsMoved(before, s.facts, o.adapters);
      if (how === null) return null;
      if (how.returns.some((fn) => returnsRead.has(fnKey(s.file, fn))) || how.responses.some((fn) => handlers.has(fnKey(s.file, fn)))) return null;
      moved.set(s.file, how.lines);
      olds.set(s.file, before!);
      news.set(s.file, s.facts);
      for (const c of how.leading) {
        if (c.removed.length > 0) removed.leading.push({ file: s.file, fn: c.fn, entries: c.removed });
        if (c.added.length > 0) added.leading.push({ file: s.file, fn: c.fn, entries: c.added });
      }
      if (how.calls.removed.length > 0) removed.calls.push({ file: s.file, calls: how.calls.removed });
      if (how.calls.added.length > 0) added.calls.push({ file: s.file, calls: how.calls.added });
    }
    // The facts the judge may read: those the last result read, from the cache. Reading a file it
    // did not read (held back by the prefilter) would widen what the result depends on: not judged.
    const judged = (edited: Map<string, FileFacts>, changes: FactChanges): ReadonlySet<string> | null => {
      if (changes.leading.length + changes.calls.length === 0) return new Set();
      let outside = false;
      const files = new FactStore();
      for (const st of states)
        files.defer(st.file, () => {
          const facts = edited.get(st.file) ?? (!unused.has(st.file) && st.cached ? cachedFacts(cache, st) : null);
          if (facts) return facts;
          // a file the last result did not read, or a damaged entry: not judged
          outside = true;
          return emptyFacts(st.file);
        });
      const read = inert(files, changes);
      return outside ? null : read;
    };
    const readRemoving = judged(olds, removed);
    const readAdding = readRemoving && judged(news, added);
    if (!readRemoving || !readAdding) return null;
    return { checked: changed.length, moved, returnsRead: new Set([...returnsRead, ...readRemoving, ...readAdding]) };
  };
  return {
    files: states.map((s) => s.file),
    digest,
    unread: stats.unread,
    collect: () => collectFacts(o, states, always, stats, idle),
    keepSignatures,
    resultHolds,
    saveEntries: () => (o.cache ? saveEntries(o.cache, states) : null),
  };
}

/** Every readable file's entry (content hash, signals, stat) to the next cache, which is then saved. */
function saveEntries(cache: FactCache, states: FileState[]): string | null {
  for (const s of states) if (s.hash !== '') cache.set(s.file, { hash: s.hash, signal: s.signals.signal, specifiers: s.signals.specifiers, stat: s.stat });
  return cache.save();
}

async function collectFacts(o: CollectOptions, states: FileState[], always: Set<string>, stats: CollectStats, idle: number | null): Promise<Collected> {
  /**
   * New facts go to the next cache as they are made — not those of a file that changed while it
   * was read, nor those of a file abandoned for its time budget (it may fit it on another run).
   */
  const keep = (s: FileState, text: () => string | Uint8Array): void => {
    if (o.cache && s.hash !== '' && !isTimeBudgetFailure(s.facts!)) o.cache.addFacts(s.file, text());
  };
  /** Extract a file's facts on this thread. */
  const extractHere = (s: FileState): void => {
    // A damaged cache entry or a deferred file left no text: read the file again.
    const text = s.text ?? readAgain(o, s);
    s.facts = extractFacts(loadTypeScript(), s.file, text, o.adapters, o.budgets);
    s.text = null;
    keep(s, () => factsToText(s.facts!));
  };
  /** A file's facts: made already, decoded from text (a worker's, or the cache's), or extracted now. */
  const factsOf = (s: FileState): FileFacts => {
    if (!s.facts && s.cached) {
      s.facts = cachedFacts(o.cache!, s);
      // a damaged entry: extracted again below
      if (!s.facts) s.cached = false;
    }
    if (!s.facts) extractHere(s);
    const facts = s.facts!;
    if (s.note && !facts.parseError) facts.parseError = s.note;
    return facts;
  };
  const store = new FactStore();
  for (const s of states) store.defer(s.file, () => factsOf(s));

  // The files to have before linking: all of them, or those the prefilter keeps.
  let eager: Set<string>;
  let importers: Map<string, string[]> | null = null;
  if (o.prefilter === false) eager = new Set(states.map((s) => s.file));
  else {
    const resolver = new Evaluator(store, o.adapters, o.resolveBare);
    const signals = new Map(states.map((s) => [s.file, s.signals]));
    const resolve = (from: string, spec: string): string | null => resolver.resolveModule(from, spec);
    importers = importersGraph(states.map((s) => s.file), signals, resolve);
    eager = eagerFiles(states.map((s) => s.file), signals, resolve, importers, always);
  }
  const toParse = states.filter((s) => eager.has(s.file) && !s.facts && !s.cached);
  // A syntax error is reported even in a file nothing needs: each newly deferred file is parsed
  // (only parsed: extraction would cost about as much again), and a broken one is analysed
  // like any file that shows a signal — also on later runs, through the cache's signal bit (so a
  // file the cache knows was checked then).
  const unchecked = states.filter((s) => !eager.has(s.file) && !s.cached && !s.known && s.facts === null && s.text !== null);
  const broken = new Uint8Array(unchecked.length);
  stats.parsed += toParse.length;
  stats.deferred = states.filter((s) => !eager.has(s.file)).length;
  stats.checked = unchecked.length;
  stats.threads = threadsFor(toParse.reduce((sum, s) => sum + s.size, 0), idle);
  const jobs = [...toParse, ...unchecked];
  await extractInPool(
    jobs.map((s) => s.file),
    toParse.length,
    { cwd: o.cwd, maxFileBytes: o.budgets.maxFileBytes, hashes: jobs.map((s) => s.hash) },
    o.budgets,
    stats.threads,
    {
      inline: (i) => {
        if (i < toParse.length) return extractHere(toParse[i]!);
        const s = unchecked[i - toParse.length]!;
        try {
          broken[i - toParse.length] = hasSyntaxError(loadTypeScript(), s.file, s.text!) ? 1 : 0;
        } catch {
          broken[i - toParse.length] = 1; // the parser's own stack overflow: extraction reports it against the budgets
        }
      },
      facts: (i, head, rest) => {
        const s = toParse[i]!;
        s.facts = factsFromParts(head, rest);
        keep(s, () => partsToText(head, rest));
        s.text = null;
      },
      checked: (i, b) => {
        broken[i - toParse.length] = b ? 1 : 0;
      },
    },
    o.onProgress,
  );

  // The eager files' facts, in file order; the others stay deferred (but for broken ones).
  for (const s of states) if (eager.has(s.file)) store.load(s.file);
  unchecked.forEach((s, i) => {
    if (!broken[i]) return;
    s.signals = { ...s.signals, signal: true };
    store.load(s.file);
  });
  // The deferred files' texts are not kept: the few the linker asks for are read again.
  for (const s of states) if (!eager.has(s.file) && s.facts === null) s.text = null;

  const saveCache = (): string | null => (o.cache ? saveEntries(o.cache, states) : null);
  const graph = importers;
  return { store, stats, importers: graph ? (file) => graph.get(file) ?? [] : null, saveCache };
}

/** A file's facts decoded from the cache; null when they cannot be read back (a damaged entry). */
function cachedFacts(cache: FactCache, s: FileState): FileFacts | null {
  const text = cache.facts(s.file, s.hash);
  if (text === null) return null;
  try {
    return factsFromText(text);
  } catch {
    return null;
  }
}

function isTimeBudgetFailure(f: FileFacts): boolean {
  return f.parseError !== null && f.parseError.message.includes('budgets.maxFileMs');
}

/** A file's text read again; when it changed since it was first read, its facts are not cached. */
function readAgain(o: CollectOptions, s: FileState): string {
  const src = readSourceText(path.join(o.cwd, s.file), o.budgets.maxFileBytes);
  const text = src.ok ? src.text : '';
  if (!src.ok || contentHash(src.note ? `${text}\0${src.note.message}` : text) !== s.hash) s.hash = '';
  return text;
}
