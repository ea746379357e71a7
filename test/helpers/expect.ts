/**
 * Projections of routes and findings for exact assertions, and a compact way to write
 * the expected tables by hand.
 */
import { routeJson } from '../../src/report/json.js';
import type { Finding, Route } from '../../src/types.js';

export type GuardKinds = { auth: string[]; tenant: string[]; csrf: string[]; family: string[]; unknown: string[]; bearer: string[] };

export interface RouteRow {
  route: string;
  classification: string;
  family: string | null;
  contractRoute: string | null;
  at: string;
  guards: GuardKinds;
}

/** `guards({ auth: ['requireSession'] })`: the kinds not named are empty. */
export function guards(g: Partial<GuardKinds> = {}): GuardKinds {
  return { auth: [], tenant: [], csrf: [], family: [], unknown: [], bearer: [], ...g };
}

/** One expected route: "METHOD /path", its classification ("excluded:ops" for a family), "file:line:col". */
export function row(route: string, classification: string, at: string, g: Partial<GuardKinds> = {}, contractRoute: string | null = null): RouteRow {
  const [cls, family] = classification.split(':');
  return { route, classification: cls!, family: family ?? null, contractRoute, at, guards: guards(g) };
}

type RouteLike = ReturnType<typeof routeJson>;

/** Project routes (in-process `Route`s or `--format json` routes) onto the expected shape. */
export function routeRows(routes: (Route | RouteLike)[]): RouteRow[] {
  return routes.map((x) => {
    const r = 'guardDetails' in x ? x : routeJson(x as Route);
    return {
      route: `${r.method} ${r.path}`,
      classification: r.classification,
      family: r.family,
      contractRoute: r.contractRoute,
      at: `${r.file}:${r.line}:${r.column}`,
      guards: { auth: r.guards.auth, tenant: r.guards.tenant, csrf: r.guards.csrf, family: r.guards.family, unknown: r.guards.unknown, bearer: r.guards.bearer },
    };
  });
}

/** "file:line:col severity ruleId message" */
export function findingRows(findings: Pick<Finding, 'file' | 'line' | 'column' | 'severity' | 'ruleId' | 'message'>[]): string[] {
  return findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.ruleId} ${f.message}`);
}

/** The unresolved-route findings of a run, as findingRows writes them. */
export function unresolvedRows(res: { findings: Finding[] }): string[] {
  return findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'));
}

/** Routes as "METHOD /path [guard, …] file:line", in report order. */
export function routeLinesAt(res: { routes: Pick<Route, 'method' | 'path' | 'guards' | 'file' | 'line'>[] }): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`);
}

/** `METHOD /path [name:kind+kind, …]`: each route with its guards' names and kinds. */
export function routeKindLines(res: { routes: Pick<Route, 'method' | 'path' | 'guards'>[] }): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
}
