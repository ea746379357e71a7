import type { Config } from './config.js';
import type { Contract } from './contract.js';
import type { Evaluator } from './link/evaluate.js';
import type { UnresolvedDiagnostic } from './link/link.js';
import type { FileFacts, Route, Severity } from './types.js';

export interface RuleMeta {
  id: string;
  defaultSeverity: Severity;
  /** one line */
  description: string;
  /** why the rule exists */
  rationale: string;
  /** the contract sentence it enforces */
  contract: string;
  /** an example that fires and one that does not */
  examples: { fires: string; passes: string };
  /** rule-specific configuration, one line each (shown by `route-surface rules <id>`) */
  configure?: string[];
}

export interface Report {
  file: string;
  line: number;
  column: number;
  message: string;
  route?: Route;
  snippet: string;
}

export interface RuleContext {
  routes: Route[];
  contract: Contract;
  files: Map<string, FileFacts>;
  unresolved: UnresolvedDiagnostic[];
  ev: Evaluator;
  config: Config;
  /** suppression comments and, once the other rules have run, what is wrong with each */
  suppressions: { file: string; line: number; column: number; snippet: string; problem: string | null }[];
  report(r: Report): void;
}

/** One rule: metadata beside a small check over the linked model. */
export interface RuleModule {
  meta: RuleMeta;
  check(ctx: RuleContext): void;
}

export const BROWSER_SURFACE = (r: Route): boolean => r.classification === 'contract' || r.classification === 'browser';

export function routeLabel(r: { method: string; path: string }): string {
  return `${r.method} ${r.path}`;
}

/** "(candidates: a, b — declare them in guards.tenant or guards.ignore)" */
export function candidatesHint(r: Route, kind: string): string {
  const unknown = [...new Set(r.guards.filter((g) => g.kinds.includes('unknown')).map((g) => g.name))];
  if (unknown.length === 0) return '';
  return ` (unclassified middleware that may be one: ${unknown.join(', ')}; declare it in guards.${kind} or guards.ignore)`;
}

export function reportRoute(ctx: RuleContext, r: Route, message: string): void {
  ctx.report({ file: r.file, line: r.line, column: r.column, message, route: r, snippet: r.snippet });
}
