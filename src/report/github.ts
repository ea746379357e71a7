/**
 * GitHub Actions workflow commands: one `::error|warning|notice file=…,line=…,col=…,title=…::message`
 * annotation per finding, escaped as the runner parses them (the message is command data:
 * `%`, CR and LF are escaped; property values also escape `:` and `,`).
 */
import type { BaselineOutcome } from '../baseline.js';
import type { RunResult } from '../engine.js';
import type { Severity } from '../types.js';
import { plural } from './markdown.js';

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

function command(name: string, props: [string, string | number | undefined][], message: string): string {
  const p = props.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${escapeProperty(String(v))}`);
  return `::${name}${p.length > 0 ? ' ' + p.join(',') : ''}::${escapeData(message)}`;
}

export function formatGithub(res: RunResult, baseline: BaselineOutcome | null = null): string {
  const lines: string[] = [];
  for (const f of res.findings) {
    // A built-in contract is no file of the repository: its findings are shown unattached.
    const inRepo = !(f.file === res.contract.source && f.file.startsWith('builtin:'));
    lines.push(
      command(
        COMMAND[f.severity],
        [
          ['file', inRepo ? f.file : undefined],
          ['line', inRepo ? f.line : undefined],
          ['col', inRepo ? f.column : undefined],
          ['title', `route-surface ${f.ruleId}`],
        ],
        inRepo ? f.message : `${f.message} (${f.file})`,
      ),
    );
  }
  for (const e of baseline?.stale ?? []) {
    lines.push(
      command(
        baseline!.strict ? 'error' : 'warning',
        [
          ['file', e.file],
          ['title', 'route-surface stale baseline entry'],
        ],
        `${baseline!.file} records ${e.ruleId}${e.route ? ` on ${e.route}` : ''} ("${e.message}"), which no longer occurs; run route-surface check --update-baseline to drop it`,
      ),
    );
  }
  const { errors, warnings, infos } = res.summary;
  lines.push(
    `route-surface: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')} — ${plural(res.summary.routes, 'route')} in ${plural(res.summary.files, 'file')}, contract ${res.contract.name}@${res.contract.version}` +
      (baseline ? `; baseline ${baseline.file}: ${baseline.matched} known, ${baseline.stale.length} stale` : ''),
  );
  return lines.join('\n') + '\n';
}
