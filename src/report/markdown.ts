/**
 * A Markdown summary: counts, contract coverage and a findings table. Printed by
 * `check --format markdown`, and appended to $GITHUB_STEP_SUMMARY by `--format github`
 * (GitHub shows only a few annotations per step; the summary shows everything).
 */
import type { BaselineOutcome } from '../baseline.js';
import type { RunResult } from '../engine.js';
import type { Route } from '../types.js';

/** Findings listed in the table at most (a step summary is limited to 1 MiB). */
export const MAX_FINDING_ROWS = 200;

/** A table cell: no line breaks, pipes escaped. */
export function cell(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** Inline code that survives backticks inside. */
export function code(s: string): string {
  const ticks = s.includes('`') ? '``' : '`';
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${cell(s)}${pad}${ticks}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Guard names per kind, as "auth: a, b; tenant: c". */
export function guardSummary(r: Route): string {
  const parts: string[] = [];
  for (const kind of ['auth', 'bearer', 'tenant', 'csrf', 'family', 'unknown'] as const) {
    const names = [...new Set(r.guards.filter((g) => g.kinds.includes(kind)).map((g) => g.name))];
    if (names.length > 0) parts.push(`${kind}: ${names.join(', ')}`);
  }
  return parts.join('; ') || 'none';
}

export interface CoverageRow {
  route: string;
  auth: string;
  status: 'served' | 'drift' | 'missing';
  detail: string;
  servedBy: Route[];
}

/** How each contract route is served. */
export function contractCoverage(res: Pick<RunResult, 'contract' | 'routes'>): CoverageRow[] {
  return res.contract.routes.map((c) => {
    const key = `${c.method} ${c.path}`;
    const servedBy = res.routes.filter((r) => r.contractRoute === key);
    const ok = servedBy.filter((r) => r.contractMatch === 'exact' || r.contractMatch === 'served');
    if (ok.length > 0) return { route: key, auth: c.auth, status: 'served', detail: '', servedBy: ok };
    if (servedBy.length > 0) return { route: key, auth: c.auth, status: 'drift', detail: servedBy.map((r) => `${r.method} ${r.path}: ${r.driftReason ?? 'served in another form'}`).join('; '), servedBy };
    return { route: key, auth: c.auth, status: 'missing', detail: '', servedBy: [] };
  });
}

export function formatMarkdown(res: RunResult, baseline: BaselineOutcome | null = null): string {
  const { errors, warnings, infos } = res.summary;
  const coverage = contractCoverage(res);
  const served = coverage.filter((c) => c.status === 'served').length;
  const out: string[] = [];
  out.push(`## route-surface: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`, '');
  out.push(
    `${plural(res.summary.routes, 'route')} in ${plural(res.summary.files, 'file')} · contract ${code(`${res.contract.name}@${res.contract.version}`)} · ${served}/${coverage.length} contract routes served`,
    '',
  );
  if (baseline) {
    out.push(
      `Baseline ${code(baseline.file)}: ${plural(baseline.matched, 'known finding')} not shown; ${plural(baseline.stale.length, 'stale entry')}${baseline.stale.length > 0 ? (baseline.strict ? ' (fails the run: --baseline-strict)' : ' (run --update-baseline to drop them)') : ''}.`,
      '',
    );
  }

  out.push('### Contract coverage', '');
  if (coverage.length === 0) out.push('The contract lists no routes.', '');
  else {
    out.push('| Contract route | Auth | Status | Served by | Guards |', '|---|---|---|---|---|');
    for (const c of coverage) {
      const where = c.servedBy.map((r) => code(`${r.file}:${r.line}`)).join(', ') || '—';
      const guards = c.servedBy.map((r) => cell(guardSummary(r))).join(' / ') || '—';
      const status = c.status === 'drift' ? `drift (${cell(c.detail)})` : c.status;
      out.push(`| ${code(c.route)} | ${cell(c.auth)} | ${status} | ${where} | ${guards} |`);
    }
    out.push('');
  }

  out.push('### Findings', '');
  if (res.findings.length === 0) out.push(baseline ? 'No new findings.' : 'No findings.', '');
  else {
    out.push('| Severity | Rule | Location | Message |', '|---|---|---|---|');
    for (const f of res.findings.slice(0, MAX_FINDING_ROWS)) out.push(`| ${f.severity} | ${code(f.ruleId)} | ${code(`${f.file}:${f.line}`)} | ${cell(f.message)} |`);
    if (res.findings.length > MAX_FINDING_ROWS)
      out.push('', `${plural(res.findings.length - MAX_FINDING_ROWS, 'more finding')} not listed; run \`route-surface check\` or see the SARIF upload for all of them.`);
    out.push('');
  }

  if (baseline && baseline.stale.length > 0) {
    out.push('### Stale baseline entries', '', 'These recorded findings no longer occur (fixed, or changed so that they are no longer the same finding):', '');
    out.push('| Rule | File | Route | Recorded message |', '|---|---|---|---|');
    for (const e of baseline.stale) out.push(`| ${code(e.ruleId)} | ${code(e.file)} | ${e.route ? code(e.route) : '—'} | ${cell(e.message)} |`);
    out.push('');
  }
  return out.join('\n');
}
