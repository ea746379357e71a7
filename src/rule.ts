import type { Config } from './config.js';
import { contractRouteOf, type Contract } from './contract.js';
import type { Evaluator } from './link/evaluate.js';
import type { UnresolvedDiagnostic } from './link/link.js';
import type { AppliedGuard, FileFacts, Route, Severity } from './types.js';

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

/** Methods that change state: a route answering one needs a CSRF guard (SPEC section 5). */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'ALL']);

/**
 * Does a route need a CSRF guard? A mutating route of the browser surface does, but one behind a
 * bearer guard: SPEC section 5 names the route whose only auth guard is a bearer guard, and any
 * bearer guard the route passes through refuses a forged request as well, whatever other auth
 * guards run beside it.
 */
export function csrfExpected(r: Route): boolean {
  return BROWSER_SURFACE(r) && MUTATING.has(r.method) && !r.guards.some((g) => g.kinds.includes('bearer'));
}

/**
 * Does a route need a tenant guard? Every route of the browser surface does ("every non-public
 * request is evaluated inside the active tenant boundary"), but one serving a contract route that
 * its contract says is not tenant-scoped (`"tenantScoped": false`, OpenAPI's
 * `x-route-surface-tenant-scoped: false`): the contract's own word for that route.
 */
export function tenantExpected(r: Route, contract: Contract): boolean {
  return BROWSER_SURFACE(r) && contractRouteOf(contract, r.contractRoute)?.tenantScoped !== false;
}

/**
 * A route's path as text reports show it: a route listed without a part of its path not known
 * statically (a step with `unknown` among its prefixes, as `app.use(baseUriPath, api)` makes)
 * has that part written `/…` where it stands (Route.shown: `/…/api/sites`, `/api/…/sites`), or
 * first, as the warnings about such paths write it. The JSON report's `path` stays the known
 * rest: its `prefixes` say what is missing.
 */
export function shownPath(r: Pick<Route, 'path' | 'prefixes' | 'shown'>): string {
  if (r.shown !== undefined) return r.shown;
  if (!r.prefixes.some((p) => p.unknown !== undefined)) return r.path;
  return r.path === '/' ? '/…' : `/…${r.path}`;
}

export function routeLabel(r: Pick<Route, 'method' | 'path' | 'prefixes' | 'shown'>): string {
  return `${r.method} ${shownPath(r)}`;
}

/** A guard as a hint names it: `(inline middleware)` is "the inline middleware". */
function named(g: AppliedGuard): string {
  return g.name.replace(/^\((.*)\)$/, 'the $1');
}

/**
 * "(unclassified middleware that may be one: a, b; declare it in guards.tenant or guards.ignore)";
 * the guards that may be one but let through requests not known statically ("(requireSession may
 * be one, but which requests it lets through untouched is not known statically)"); and the
 * guards of the kind applied only under a condition not known statically ("(requireTenant is
 * one, but applied only when `config.tenancy`, which is not known statically)") or whose
 * allowlist lets the route's requests through ("(authenticate is one, but lets through
 * untouched the path /api/login)").
 */
export function candidatesHint(r: Route, kind: 'auth' | 'tenant' | 'csrf' | 'family', family?: string): string {
  const unknown = [...new Set(r.guards.filter((g) => g.kinds.includes('unknown') && !g.exceptionsUnknown).map((g) => g.name))];
  // (declaring such a guard would not say which requests it lets through)
  const unread = r.guards.filter((g) => g.exceptionsUnknown).map((g) => ` (${named(g)} may be one, but which requests it lets through untouched is not known statically: ${g.file}:${g.line})`);
  const key = family === undefined ? kind : `family.${family}`;
  const unclassified = unknown.length === 0 ? '' : ` (unclassified middleware that may be one: ${unknown.join(', ')}; declare it in guards.${key} or guards.ignore)`;
  const conditional = (r.conditionalGuards ?? []).filter((g) => g.kinds.includes(kind as never) && (family === undefined || g.families.includes(family)));
  const skipping = (r.skippedGuards ?? []).filter((g) => g.kinds.includes(kind as never) && (family === undefined || g.families.includes(family)));
  return (
    unclassified +
    [...new Set(unread)].join('') +
    conditional.map((g) => ` (${named(g)} is one, but applied only when \`${g.when}\`, which is not known statically: ${g.file}:${g.line})`).join('') +
    skipping.map((g) => ` (${named(g)} is one, but lets through untouched ${g.skips}: ${g.file}:${g.line})`).join('')
  );
}

export function reportRoute(ctx: RuleContext, r: Route, message: string): void {
  ctx.report({ file: r.file, line: r.line, column: r.column, message, route: r, snippet: r.snippet });
}
