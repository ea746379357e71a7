/**
 * `check` as a CI gate: baselines, and the CI formats (sarif, github, markdown).
 */
import fs from 'node:fs';
import path from 'node:path';
import { applyBaseline, DEFAULT_BASELINE, entryOf, readBaseline, serializeBaseline, type BaselineEntry, type BaselineOutcome } from './baseline.js';
import { CONFIG_FILE } from './config.js';
import { exitCode, type RunResult } from './engine.js';
import { UsageError } from './errors.js';
import { formatGithub } from './report/github.js';
import { formatMarkdown } from './report/markdown.js';
import { formatSarif } from './report/sarif.js';
import { writeFileSafely } from './write-file.js';
import type { Finding } from './types.js';

export interface GateOptions {
  baseline?: string;
  updateBaseline?: boolean;
  baselineStrict?: boolean;
  config?: string;
}

/** Files whose findings this run reports (all of them, or the explicit files and the contract). */
function inViewOf(res: RunResult): (file: string) => boolean {
  if (!res.focus) return () => true;
  const focus = new Set(res.focus);
  return (file) => focus.has(file) || file === res.contract.source;
}

function summaryOf(res: RunResult, findings: Finding[]): RunResult['summary'] {
  return {
    ...res.summary,
    errors: findings.filter((x) => x.severity === 'error').length,
    warnings: findings.filter((x) => x.severity === 'warning').length,
    infos: findings.filter((x) => x.severity === 'info').length,
  };
}

/** `--baseline FILE`: keep the findings the file does not record; list its stale entries. */
export function withBaseline(res: RunResult, cwd: string, opts: GateOptions): { res: RunResult; baseline: BaselineOutcome | null } {
  if (!opts.baseline) {
    if (opts.baselineStrict) throw new UsageError('--baseline-strict needs --baseline FILE');
    return { res, baseline: null };
  }
  const entries = readBaseline(cwd, opts.baseline);
  const { fresh, matched, stale } = applyBaseline(res.findings, entries, inViewOf(res));
  return {
    res: { ...res, findings: fresh, summary: summaryOf(res, fresh) },
    baseline: { file: opts.baseline, total: entries.length, matched, stale, strict: Boolean(opts.baselineStrict) },
  };
}

/**
 * `--update-baseline`: record every current finding (whatever --quiet shows). In an
 * explicit-file run, entries of files out of view are kept as they are.
 */
export function updateBaseline(res: RunResult, cwd: string, opts: GateOptions): string {
  const file = opts.baseline ?? DEFAULT_BASELINE;
  const abs = path.resolve(cwd, file);
  const inView = inViewOf(res);
  let kept: BaselineEntry[] = [];
  let before: BaselineEntry[] = [];
  if (fs.existsSync(abs)) {
    before = readBaseline(cwd, file);
    kept = before.filter((e) => !inView(e.file));
  }
  const all = [...kept, ...res.findings.map(entryOf)];
  writeFileSafely(abs, [serializeBaseline(all)], file);
  const now = new Set(res.findings.map((f) => f.fingerprint));
  const had = new Set(before.map((e) => e.fingerprint));
  const added = res.findings.filter((f) => !had.has(f.fingerprint)).length;
  const dropped = before.filter((e) => inView(e.file) && !now.has(e.fingerprint)).length;
  return `route-surface: wrote ${file}: ${all.length} finding${all.length === 1 ? '' : 's'} recorded (${added} added, ${dropped} dropped)\n`;
}

/** Where SARIF shows findings about a built-in contract: the config that selects it, else the package manifest, else the first file. */
export function contractAnchor(res: RunResult, cwd: string, config: string | undefined): string | null {
  const candidates = [config ?? CONFIG_FILE, 'package.json'];
  for (const c of candidates) {
    const abs = path.resolve(cwd, c);
    const rel = path.relative(cwd, abs).split(path.sep).join('/');
    if (!rel.startsWith('..') && fs.existsSync(abs)) return rel;
  }
  return res.files[0] ?? null;
}

export const GATE_FORMATS = ['sarif', 'github', 'markdown'] as const;

export function formatGate(format: (typeof GATE_FORMATS)[number], res: RunResult, baseline: BaselineOutcome | null, cwd: string, opts: GateOptions): string {
  if (format === 'sarif') return formatSarif(res, { contractAnchor: contractAnchor(res, cwd, opts.config), baseline: baseline !== null });
  if (format === 'markdown') return formatMarkdown(res, baseline) + '\n';
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    try {
      fs.appendFileSync(summaryFile, formatMarkdown(res, baseline) + '\n');
    } catch (err) {
      throw new UsageError(`GITHUB_STEP_SUMMARY (${summaryFile}): cannot append (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return formatGithub(res, baseline);
}

/** The stale-entry note printed under stylish output. */
export function formatBaselineNote(baseline: BaselineOutcome): string {
  const head = `baseline ${baseline.file}: ${baseline.matched} known finding${baseline.matched === 1 ? '' : 's'} not shown`;
  if (baseline.stale.length === 0) return `${head}\n`;
  const lines = [
    `${head}; ${baseline.stale.length} entr${baseline.stale.length === 1 ? 'y no longer matches' : 'ies no longer match'} (fixed or changed)${baseline.strict ? ` and fail${baseline.stale.length === 1 ? 's' : ''} the run (--baseline-strict)` : ''} — run with --update-baseline to drop ${baseline.stale.length === 1 ? 'it' : 'them'}:`,
    ...baseline.stale.map((e) => `  ${e.file}  ${e.ruleId}  ${e.message}`),
  ];
  return lines.join('\n') + '\n';
}

export function gateExitCode(res: RunResult, maxWarnings: number | undefined, baseline: BaselineOutcome | null): 0 | 1 {
  const base = exitCode(res.summary, maxWarnings);
  if (base !== 0) return base;
  return baseline && baseline.strict && baseline.stale.length > 0 ? 1 : 0;
}
