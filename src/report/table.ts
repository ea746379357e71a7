import type { ChalkInstance } from 'chalk';
import { shownPath } from '../rule.js';
import type { Route } from '../types.js';

function guardBadges(r: Route): string {
  const has = (k: string): boolean => r.guards.some((g) => g.kinds.includes(k as never));
  const b: string[] = [];
  if (has('auth')) b.push(has('bearer') && r.guards.filter((g) => g.kinds.includes('auth')).every((g) => g.kinds.includes('bearer')) ? 'bearer' : 'auth');
  if (has('tenant')) b.push('tenant');
  if (has('csrf')) b.push('csrf');
  if (has('family')) b.push('family');
  if (has('unknown')) b.push('unknown');
  return b.join(',') || '-';
}

/**
 * A plain aligned table: method, path (`/…` for a part not known statically), classification,
 * guards, location; then the count, and `notes` on what it leaves out (left-out.ts).
 */
export function formatTable(routes: Route[], c: ChalkInstance, notes: readonly string[] = []): string {
  const rows = routes.map((r) => [r.method, shownPath(r), r.classification + (r.family ? `:${r.family}` : ''), guardBadges(r), `${r.file}:${r.line}`]);
  const header = ['METHOD', 'PATH', 'CLASS', 'GUARDS', 'LOCATION'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]): string => r.map((x, i) => (i === r.length - 1 ? x : x.padEnd(widths[i]!))).join('  ');
  const lines = [c.bold(fmt(header)), ...rows.map(fmt)];
  lines.push('', `${routes.length} route${routes.length === 1 ? '' : 's'}`, ...notes.map((n) => c.yellow(n)));
  return lines.join('\n') + '\n';
}
