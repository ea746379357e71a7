import type { ChalkInstance } from 'chalk';
import type { RunResult } from '../engine.js';
import type { Finding } from '../types.js';

/** ESLint's stylish: grouped by file, `line:col severity message rule-id`, a summary line. */
export function formatStylish(res: RunResult, c: ChalkInstance, quiet = false, explain?: (f: Finding) => string[]): string {
  const findings = quiet ? res.findings.filter((f) => f.severity === 'error') : res.findings;
  const out: string[] = [];
  const byFile = new Map<string, typeof findings>();
  for (const f of findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  for (const [file, list] of byFile) {
    out.push(c.underline(file));
    const rows = list.map((f) => [`${f.line}:${f.column}`, f.severity, f.message, f.ruleId]);
    const w0 = Math.max(...rows.map((r) => r[0]!.length));
    const w1 = Math.max(...rows.map((r) => r[1]!.length));
    for (const [i, r] of rows.entries()) {
      const sev = list[i]!.severity;
      const colour = sev === 'error' ? c.red : sev === 'warning' ? c.yellow : c.blue;
      out.push(`  ${c.dim(r[0]!.padEnd(w0))}  ${colour(r[1]!.padEnd(w1))}  ${r[2]}  ${c.dim(r[3])}`);
      // --verbose: why (the route's explanation, as `route-surface explain` prints it).
      const why = explain?.(list[i]!) ?? [];
      if (why.length > 0) out.push(...why.map((l) => `      ${l}`), ...(i < rows.length - 1 ? [''] : []));
    }
    out.push('');
  }
  const { errors, warnings, infos } = res.summary;
  const shownWarnings = quiet ? 0 : warnings;
  const shownInfos = quiet ? 0 : infos;
  const total = errors + shownWarnings + shownInfos;
  const head = `${res.summary.routes} route${res.summary.routes === 1 ? '' : 's'} in ${res.summary.files} file${res.summary.files === 1 ? '' : 's'}, contract ${res.contract.name}@${res.contract.version}`;
  if (total === 0) out.push(c.green(`✔ no problems (${head})`));
  else {
    const line = `${errors > 0 ? '✖' : '⚠'} ${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${shownWarnings} warning${shownWarnings === 1 ? '' : 's'}, ${shownInfos} info${shownInfos === 1 ? '' : 's'}) — ${head}`;
    out.push(errors > 0 ? c.red.bold(line) : c.yellow.bold(line));
  }
  return out.join('\n') + '\n';
}
