/**
 * The pipeline: discover → extract → link → classify → rules → suppressions → report data.
 */
import crypto from 'node:crypto';
import { ADAPTERS } from './adapters/index.js';
import { classify } from './classify.js';
import { loadConfig, type Config } from './config.js';
import { loadContract, type Contract } from './contract.js';
import { discover } from './discover.js';
import { UsageError } from './errors.js';
import { emptyFacts } from './extract/extract.js';
import { cacheFile, FactCache, factCacheKey, type ResultScope } from './cache.js';
import { readSources, type CollectStats } from './collect.js';
import { jsonPieces } from './json-pieces.js';
import { keepingReport, readKeptReport, rekeyReport, reportKey, type KeptReport } from './kept-report.js';
import { isPlainJson, manifestsDigest, runKey } from './memo.js';
import { buildMatchers } from './guards.js';
import { budgetsOf } from './budgets.js';
import { fnKey, inertChanges, link } from './link/link.js';
import { loadProject } from './project.js';
import { composeMoves, relocateResult, type LineMap } from './relocate.js';
import { RULES } from '../rules/index.js';
import type { RuleContext } from './rule.js';
import type { Finding, Route, Severity, SeverityOrOff } from './types.js';


export interface RunOptions {
  cwd: string;
  paths: string[];
  config?: string;
  contract?: string;
  /** called as files are parsed: (files parsed so far, total); last with done === total */
  onProgress?: (done: number, total: number) => void;
  /** keep per-file facts between runs (`check --cache`), in `cacheLocation` (src/cache.ts) */
  cache?: boolean;
  cacheLocation?: string;
  /** parse files that cannot hold a route, mount or guard only when needed (default true; src/prefilter.ts) */
  prefilter?: boolean;
}

export interface RunResult {
  contract: Contract;
  config: Config;
  routes: Route[];
  findings: Finding[];
  files: string[];
  summary: { files: number; routes: number; errors: number; warnings: number; infos: number };
  /** explicit files (pre-commit): findings are limited to these (plus contract-level ones); null: all files */
  focus?: string[] | null;
  /** how the facts were obtained: from the cache, parsed, deferred by the prefilter (src/collect.ts) */
  extraction?: CollectStats & { demanded: number; cacheNote: string | null; /** the whole result came from the cache */ reused: boolean };
}


export async function run(opts: RunOptions): Promise<RunResult> {
  const outcome = await analyse(opts, undefined);
  if ('kept' in outcome) throw new Error('a kept report, unasked');
  return outcome.result;
}

/**
 * `check`'s run: with the cache, the report is kept beside it (kept-report.ts) under the
 * result's key and `how` — plain JSON saying how the caller reports the result (format,
 * options, colours…) — so the caller keeps what it writes with `keep`; and a run whose result
 * and `how` are the kept report's gets that report back instead of the result.
 */
export async function runReported(
  opts: RunOptions,
  how: unknown,
): Promise<{ result: RunResult; keep: (pieces: Iterable<string>) => Iterable<string | Uint8Array> } | { kept: KeptReport; cacheNote: string | null }> {
  const outcome = await analyse(opts, how);
  if ('kept' in outcome) return outcome;
  const { result, reportKey: key, reportFile } = outcome;
  return { result, keep: (pieces) => (key && reportFile ? keepingReport(reportFile, key, result.summary, pieces) : pieces) };
}

/** A run's result, and where and under which key its report is kept (null: none is); or the kept report. */
type Analysed = { result: RunResult; reportKey: string | null; reportFile: string | null } | { kept: KeptReport; cacheNote: string | null };

/** A run; `how` (runReported) when the report is kept, else undefined. */
async function analyse(opts: RunOptions, how: unknown): Promise<Analysed> {
  const { config } = loadConfig(opts.config, opts.cwd);
  const contract = loadContract(opts.contract ?? config.contract, opts.cwd);
  const severities = ruleSeverities(config, opts.config);
  const families = { ...contract.excludedFamilies, ...(config.families ?? {}) };
  // guards.family keys name a family (or `default`); a typo would silently guard nothing.
  for (const k of Object.keys(config.guards?.family ?? {}))
    if (k !== 'default' && !Object.hasOwn(families, k))
      throw new UsageError(`${opts.config ?? 'route-surface.config.json'}: invalid config: unknown key "guards.family.${k}" (families: ${Object.keys(families).join(', ')}, or default)`);
  const matchers = buildMatchers(config, Object.keys(families));
  const budgets = budgetsOf(config);
  const discovered = discover(opts.cwd, opts.paths, config.include, config.exclude);
  const { focus, unreadable } = discovered;

  // Read and hash every file (src/collect.ts); with --cache, the last result when nothing changed (src/memo.ts).
  const project = loadProject(opts.cwd, discovered.files);
  const cache = opts.cache ? FactCache.open(cacheFile(opts.cwd, opts.cacheLocation), factCacheKey(budgets)) : null;
  // The next cache is written as the run goes: a run that fails leaves no temporary file behind.
  try {
    const sources = readSources({
      cwd: opts.cwd,
      files: discovered.files,
      admits: discovered.admits,
      focus,
      budgets,
      adapters: ADAPTERS,
      resolveBare: (from, spec) => project.resolveBare(from, spec),
      cache,
      prefilter: opts.prefilter,
      onProgress: opts.onProgress,
    });
    // (the JSON files the discovered files import are analysed with them)
    const files = sources.files;
    // The result's key digests all its inputs; its base, all but the files' contents (memo.ts).
    const inputs = cache
      ? { cacheKey: cache.key, options: { paths: opts.paths, config: opts.config, contract: opts.contract, prefilter: opts.prefilter }, config, contract, unreadable, manifests: manifestsDigest(opts.cwd) }
      : null;
    const resultKey = inputs ? runKey({ ...inputs, sources: sources.digest }) : null;
    const base = inputs ? runKey({ ...inputs, sources: '' }) : null;
    const keptKey = how !== undefined && resultKey ? reportKey(resultKey, how) : null;
    const reportFile = keptKey ? cache!.reportFile : null;
    // Nothing changed, and the result is reported as last time: the last report (kept-report.ts).
    if (keptKey && reportFile && cache!.keptResultKey === resultKey) {
      const kept = readKeptReport(reportFile, keptKey);
      if (kept) {
        const cacheNote = sources.keepSignatures();
        cache!.close();
        return { kept, cacheNote };
      }
    }
    let reused = cache && resultKey ? cache.result(resultKey) : null;
    // Only files the last result never read changed (a service edited, say), and they parse,
    // or files whose facts only moved (relocate.ts), but maybe for calls leading a function
    // or made by the file that change nothing linked (`inert`), returns it never read and
    // response fields of functions that handle none of its routes: it stands, moved.
    const kept = cache && base && reused === null ? cache.resultScope(base) : null;
    const holds = kept
      ? sources.resultHolds(
          { unused: new Set(kept.unused), returnsRead: new Set(kept.returnsRead), handlers: new Set(kept.handlers) },
          (store, changes) => inertChanges(store, ADAPTERS, matchers, project, changes),
        )
      : null;
    const scope: ResultScope | null = holds ? { base: base!, unused: kept!.unused, returnsRead: [...holds.returnsRead].sort(), handlers: kept!.handlers } : null;
    // Where the kept result's locations are now: moved by the runs since it was written, and by
    // this one's edits; kept so, its bytes not written again, but for a result moved in many files.
    const moves = holds ? composeMoves(cache!.keptMoves(), holds.moved) : (cache?.keptMoves() ?? new Map<string, LineMap>());
    if (holds) {
      // The result stands (only files it never read changed, or it moved): so does a report of
      // it made the same way, kept again under the new key — a JSON one moved as it is
      // (kept-report.ts) — and the result is kept, moved, unread.
      const before = cache!.keptResultKey;
      const report =
        keptKey && reportFile && before !== null && cache!.keepResult(resultKey!, scope!, moves)
          ? rekeyReport(reportFile, reportKey(before, how), keptKey, holds.moved)
          : null;
      if (report) {
        const cacheNote = sources.saveEntries();
        cache!.close();
        return { kept: report, cacheNote };
      }
      reused = cache!.keptResult();
    }
    if (reused !== null) {
      try {
        const result = JSON.parse(reused) as Omit<RunResult, 'contract' | 'config'>;
        if (moves.size > 0 && !relocateResult(result, moves)) throw new Error('not relocated');
        if (scope && !cache!.keepResult(resultKey!, scope, moves)) cache!.setResult(resultKey!, scope, () => jsonPieces(result, 0));
        // the changed files' new entries are kept; else only new stat signatures, when worth it
        const cacheNote = holds ? sources.saveEntries() : sources.keepSignatures();
        cache?.close();
        const checked = holds?.checked ?? 0;
        const moved = holds?.moved.size ?? 0;
        const stats = { files: files.length, cached: files.length - checked - moved, unread: sources.unread, parsed: moved, deferred: 0, checked, threads: 1, demanded: 0, cacheNote, reused: true };
        return { result: { contract, config, ...result, extraction: stats }, reportKey: keptKey, reportFile };
      } catch {
        // a damaged entry, or a result that cannot be moved: computed again below
      }
    }
    // Take facts from the cache, prefilter, parse.
    const collected = await sources.collect();
    const facts = collected.store;

    const linked = link(facts, ADAPTERS, matchers, project, budgets.maxRoutes, collected.importers ?? undefined, new Map(Object.entries(config.values ?? {})));
    // Unreadable directories are reported like unparsable files (added after linking: they hold no facts).
    for (const u of unreadable) if (!facts.has(u.path)) facts.set(u.path, { ...emptyFacts(u.path), parseError: { message: u.message, at: { line: 1, column: 1 } } });
    const routes = classify(linked.routes, contract, families, config.publicRoutes ?? []);
    routes.sort((a, b) => cmpStr(a.path, b.path) || cmpStr(a.method, b.method) || cmpStr(a.file, b.file) || a.line - b.line);

    const raw: Finding[] = [];
    const ctx: RuleContext = {
      routes,
      contract,
      files: facts,
      unresolved: linked.unresolved,
      ev: linked.ev,
      config,
      suppressions: [],
      report: () => undefined,
    };
    // The same message at the same place once, as ESLint reports: an app built twice (the
    // server and a test helper) serves its routes twice, and their findings would repeat.
    const reported = new Set<string>();
    const runRule = (rule: (typeof RULES)[number]): void => {
      const severity = severities[rule.meta.id] ?? rule.meta.defaultSeverity;
      if (severity === 'off') return;
      ctx.report = (r) => {
        const key = `${rule.meta.id}\0${r.file}\0${r.line}\0${r.column}\0${r.message}`;
        if (reported.has(key)) return;
        reported.add(key);
        raw.push({
          ruleId: rule.meta.id,
          severity,
          message: r.message,
          file: r.file,
          line: r.line,
          column: r.column,
          ...(r.route ? { route: { method: r.route.method, path: r.route.path } } : {}),
          fingerprint: '',
          snippet: r.snippet,
        });
      };
      rule.check(ctx);
    };
    for (const rule of RULES) if (rule.meta.id !== 'unused-suppression') runRule(rule);

    // Suppressions: `// route-surface-disable-next-line rule -- reason` on the line above.
    const knownIds = new Set(RULES.map((r) => r.meta.id));
    const suppressed = new Set<Finding>();
    for (const [file, f] of facts) {
      for (const s of f.suppressions) {
        let problem: string | null = null;
        const unknown = s.rules.filter((r) => !knownIds.has(r));
        if (s.rules.length === 0) problem = 'suppression names no rule; it suppresses nothing';
        else if (unknown.length > 0) problem = `suppression names an unknown rule: ${unknown.join(', ')}`;
        else if (s.reason === null) problem = `suppression of ${s.rules.join(', ')} has no reason (write "-- why"); it suppresses nothing`;
        else {
          const hits = raw.filter((x) => x.file === file && x.line === s.line + 1 && s.rules.includes(x.ruleId));
          for (const h of hits) suppressed.add(h);
          // Like ESLint's unused disable directives: each named rule must suppress something.
          const unmatched = s.rules.filter((r) => !hits.some((h) => h.ruleId === r));
          if (unmatched.length > 0) problem = `suppression of ${unmatched.join(', ')} matched no finding on the next line`;
        }
        ctx.suppressions.push({ file, line: s.at.line, column: s.at.column, snippet: `route-surface-disable-next-line ${s.rules.join(', ')}`, problem });
      }
    }
    runRule(RULES.find((r) => r.meta.id === 'unused-suppression')!);

    let findings = raw.filter((x) => !suppressed.has(x));
    if (focus) findings = findings.filter((x) => focus.has(x.file) || x.file === contract.source);
    findings.sort((a, b) => cmpStr(a.file, b.file) || a.line - b.line || cmpStr(a.ruleId, b.ruleId) || a.column - b.column || cmpStr(a.message, b.message));
    assignFingerprints(findings);

    const summary = {
      files: files.length,
      routes: routes.length,
      errors: findings.filter((x) => x.severity === 'error').length,
      warnings: findings.filter((x) => x.severity === 'warning').length,
      infos: findings.filter((x) => x.severity === 'info').length,
    };
    const result: RunResult = { contract, config, routes, findings, files, summary, focus: focus ? [...focus].sort() : null };
    if (cache && resultKey && base) {
      const { contract: _c, config: _g, ...rest } = result;
      // read after the rules, which evaluate too
      const returnsRead = [...linked.ev.returnsRead].sort();
      const handlers = [...new Set(routes.flatMap((r) => (r.handlerFn ? [fnKey(r.handlerFn.file, r.handlerFn.fn)] : [])))].sort();
      if (isPlainJson(rest)) cache.setResult(resultKey, { base, unused: facts.unread(), returnsRead, handlers }, () => jsonPieces(rest, 0));
    }
    const cacheNote = collected.saveCache() ?? cache?.discarded ?? null;
    return { result: { ...result, extraction: { ...collected.stats, demanded: facts.demanded.length, cacheNote, reused: false } }, reportKey: keptKey, reportFile };
  } catch (err) {
    cache?.abandon();
    throw err;
  }
}

function ruleSeverities(config: Config, configFile: string | undefined): Record<string, SeverityOrOff> {
  const known = new Set(RULES.map((r) => r.meta.id));
  for (const id of Object.keys(config.rules ?? {}))
    if (!known.has(id)) throw new UsageError(`${configFile ?? 'route-surface.config.json'}: invalid config: unknown rule "rules.${id}"`);
  return config.rules ?? {};
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Stable across unrelated edits, never the line. A finding about a route is identified by
 * rule + method + path (parameter names normalised) + file, not by how its registration line
 * is written: adding a guard to that line fixes one finding without changing the others on
 * the route (baselines rely on this). Other findings: rule + file + normalised snippet + message.
 */
function assignFingerprints(findings: Finding[]): void {
  const seen = new Map<string, number>();
  for (const f of findings) {
    const key = f.route
      ? `${f.ruleId}\0${f.route.method} ${f.route.path.replace(/:[^/]+/g, ':')}\0${f.file}`
      : `${f.ruleId}\0\0${f.file}\0${f.snippet.replace(/\s+/g, ' ').trim()}\0${f.message}`;
    const base = crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    f.fingerprint = n === 0 ? base : `${base}:${n}`;
  }
}

export function exitCode(summary: RunResult['summary'], maxWarnings: number | undefined): 0 | 1 {
  if (summary.errors > 0) return 1;
  if (maxWarnings !== undefined && maxWarnings >= 0 && summary.warnings > maxWarnings) return 1;
  return 0;
}

export type { Severity };
