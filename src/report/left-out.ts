import type { Finding } from '../types.js';

/** How many places a note names before it only counts the rest. */
const NAMED = 3;

/**
 * What an inventory (`list`) cannot show, said under it: the places where the route graph is
 * not fully known (`unresolved-route`: a path, prefix or mount not known statically) and the
 * files that could not be parsed (`parse-error`), as `check` reports them — those the config
 * and suppression comments leave in. One line for each rule that has any; none when all is known.
 */
export function leftOutNotes(findings: readonly Finding[]): string[] {
  const notes: string[] = [];
  const places = (list: Finding[], withLine: boolean): string => {
    const named = list.slice(0, NAMED).map((f) => (withLine ? `${f.file}:${f.line}` : f.file));
    return named.join(', ') + (list.length > NAMED ? ` and ${list.length - NAMED} more` : '');
  };
  const unresolved = findings.filter((f) => f.ruleId === 'unresolved-route');
  if (unresolved.length > 0) {
    const n = unresolved.length;
    notes.push(`routes not fully known at ${n} place${n === 1 ? '' : 's'} (${places(unresolved, true)}): \`route-surface check\` reports ${n === 1 ? 'it' : 'each'} as unresolved-route`);
  }
  const broken = findings.filter((f) => f.ruleId === 'parse-error');
  if (broken.length > 0) {
    const n = broken.length;
    notes.push(`${n} file${n === 1 ? '' : 's'} with a parse error (${places(broken, false)}), whose routes may be missing here: \`route-surface check\` reports ${n === 1 ? 'it' : 'each'} as parse-error`);
  }
  return notes;
}
