import type { RuleModule } from '../rule.js';
import { levenshtein } from './similar.js';

/** One line per rule: id, default severity, what it checks. */
export function formatRuleList(rules: RuleModule[]): string {
  const w = Math.max(...rules.map((r) => r.meta.id.length));
  return rules.map((r) => `${r.meta.id.padEnd(w)}  ${r.meta.defaultSeverity.padEnd(7)}  ${r.meta.description}`).join('\n') + '\n';
}

/** A rule's documentation: what it checks, why, the contract sentence, examples, configuration, suppression. */
export function formatRuleDoc(rule: RuleModule): string {
  const m = rule.meta;
  const indent = (s: string): string => s.split('\n').map((l) => (l ? `    ${l}` : '')).join('\n');
  return [
    `${m.id} (default: ${m.defaultSeverity})`,
    '',
    `Checks: ${m.description}`,
    `Why: ${m.rationale}`,
    `Contract: ${m.contract}`,
    '',
    'Fires on:',
    indent(m.examples.fires),
    '',
    'Does not fire on:',
    indent(m.examples.passes),
    '',
    'Configure (route-surface.config.json):',
    `    "rules": { "${m.id}": "error" | "warning" | "info" | "off" }`,
    ...(m.configure ?? []).map((l) => `    ${l}`),
    'Suppress one finding (the reason is required):',
    `    // route-surface-disable-next-line ${m.id} -- why this is safe`,
    '',
  ].join('\n');
}

/** The rule ids closest to a mistyped one (a prefix or within a few edits), closest first. */
export function similarRuleIds(id: string, rules: RuleModule[]): string[] {
  const lower = id.toLowerCase();
  return rules
    .map((r) => ({ id: r.meta.id, d: r.meta.id.startsWith(lower) || r.meta.id.includes(lower) ? 0 : levenshtein(lower, r.meta.id) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(lower.length / 4)))
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.id);
}
