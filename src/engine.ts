/**
 * The pipeline: discover → extract → link → classify → rules → suppressions → report data.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ADAPTERS } from './adapters/index.js';
import { classify } from './classify.js';
import { loadConfig, type Config } from './config.js';
import { loadContract, type Contract } from './contract.js';
import { discover } from './discover.js';
import { UsageError } from './errors.js';
import { emptyFacts, extractFacts } from './extract/extract.js';
import { buildMatchers } from './guards.js';
import { link } from './link/link.js';
import { RULES } from '../rules/index.js';
import type { RuleContext } from './rule.js';
import type { FileFacts, Finding, Route, Severity, SeverityOrOff } from './types.js';


export interface RunOptions {
  cwd: string;
  paths: string[];
  config?: string;
  contract?: string;
  /** called as files are parsed: (files parsed so far, total); last with done === total */
  onProgress?: (done: number, total: number) => void;
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
}

type TSModule = typeof import('ts-morph').ts;
let tsModule: TSModule | null = null;
async function loadTs(): Promise<TSModule> {
  tsModule ??= (await import('ts-morph')).ts;
  return tsModule;
}

export async function run(opts: RunOptions): Promise<RunResult> {
  const { config } = loadConfig(opts.config, opts.cwd);
  const contract = loadContract(opts.contract ?? config.contract, opts.cwd);
  const severities = ruleSeverities(config, opts.config);
  const families = { ...contract.excludedFamilies, ...(config.families ?? {}) };
  const matchers = buildMatchers(config, Object.keys(families));
  const { files, focus } = discover(opts.cwd, opts.paths, config.include, config.exclude);

  const facts = new Map<string, FileFacts>();
  const ts = files.length > 0 ? await loadTs() : null;
  let parsed = 0;
  for (const file of files) {
    opts.onProgress?.(parsed++, files.length);
    let text: string;
    try {
      text = fs.readFileSync(path.join(opts.cwd, file), 'utf8');
    } catch (err) {
      if (focus?.has(file)) throw new UsageError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      const f = emptyFacts(file);
      f.parseError = { message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`, at: { line: 1, column: 1 } };
      facts.set(file, f);
      continue;
    }
    facts.set(file, extractFacts(ts!, file, text, ADAPTERS));
  }
  opts.onProgress?.(files.length, files.length);

  const linked = link(facts, ADAPTERS, matchers);
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
  const runRule = (rule: (typeof RULES)[number]): void => {
    const severity = severities[rule.meta.id] ?? rule.meta.defaultSeverity;
    if (severity === 'off') return;
    ctx.report = (r) =>
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
        if (hits.length === 0) problem = `suppression of ${s.rules.join(', ')} matched no finding on the next line`;
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
  return { contract, config, routes, findings, files, summary, focus: focus ? [...focus].sort() : null };
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

/** Stable across unrelated edits: rule + route + file + normalised snippet, never the line. */
function assignFingerprints(findings: Finding[]): void {
  const seen = new Map<string, number>();
  for (const f of findings) {
    const norm = f.snippet.replace(/\s+/g, ' ').trim();
    const route = f.route ? `${f.route.method} ${f.route.path}` : '';
    const base = crypto.createHash('sha256').update(`${f.ruleId}\0${route}\0${f.file}\0${norm}\0${f.route ? '' : f.message}`).digest('hex').slice(0, 16);
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
