import type { RuleModule } from '../rule.js';

export function formatRuleList(rules: RuleModule[]): string {
  const w = Math.max(...rules.map((r) => r.meta.id.length));
  return rules.map((r) => `${r.meta.id.padEnd(w)}  ${r.meta.defaultSeverity.padEnd(7)}  ${r.meta.description}`).join('\n') + '\n';
}

export function formatRuleDoc(rule: RuleModule): string {
  const m = rule.meta;
  const indent = (s: string): string => s.split('\n').map((l) => `    ${l}`).join('\n');
  return [
    `${m.id} (default: ${m.defaultSeverity})`,
    '',
    m.description,
    '',
    `Why: ${m.rationale}`,
    `Contract: ${m.contract}`,
    '',
    'Fires on:',
    indent(m.examples.fires),
    '',
    'Does not fire on:',
    indent(m.examples.passes),
    '',
    'Configure:',
    `    route-surface.config.json: { "rules": { "${m.id}": "error" | "warning" | "info" | "off" } }`,
    'Suppress one finding (the reason is required):',
    `    // route-surface-disable-next-line ${m.id} -- why this is safe`,
    '',
  ].join('\n');
}
