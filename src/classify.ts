/**
 * Classify each route against the contract (SPEC section 7): public / excluded /
 * contract (exactly, served under the framework's matching, or drifted) / browser.
 */
import { catchAll, filledPath, isWildcard, pathTokens } from './adapters/paths.js';
import { contractRouteOf, familyMatcher, type Contract, type ContractRoute } from './contract.js';
import type { RouteDraft } from './link/link.js';
import type { Route } from './types.js';

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

function slashes(p: string): number {
  let n = 0;
  for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) n++;
  return n;
}

/**
 * Does the route path `a` serve the path `b` (a contract's, an allowlist's, a request's), under
 * the route's matching? Parameters match any segment, on either side; a catch-all at the end of
 * `a`, the segments after its base (none, when optional); a wildcard of `a` (`*`, `(.*)`; a
 * named one, `*splat`, not empty), any text (`/*` serves `/budget/abc`).
 */
export function samePath(a: string, b: string, trailingInsensitive: boolean, caseInsensitive: boolean): boolean {
  const all = catchAll(a);
  if (all) {
    const bare = all.slash && all.base !== '/' ? `${all.base}/` : all.base;
    if (all.optional && samePath(bare, b, trailingInsensitive, caseInsensitive)) return true;
    if (!trailingInsensitive && b.length > 1 && b.endsWith('/') !== all.slash) return false;
    // the base, then at least one more segment of `b`
    const segs = trimSlash(b).split('/');
    const n = all.base === '/' ? 1 : all.base.split('/').length;
    return segs.length > n && segs.slice(n).every((x) => x !== '') && samePath(all.base, segs.slice(0, n).join('/') || '/', false, caseInsensitive);
  }
  const tokens = pathTokens(trailingInsensitive ? trimSlash(a) : a);
  if (tokens.some((t) => t.kind === 'wild')) {
    // (a named wildcard, path-to-regexp 8's `*splat`, takes one character or more; `*` and `(.*)`, any text)
    const source = tokens.map((t) => (t.kind === 'param' ? '[^/]+' : t.kind === 'wild' ? (t.text.length > 1 && t.text.startsWith('*') ? '.+' : '.*') : t.text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('');
    return new RegExp(`^${source}${trailingInsensitive ? '/?' : ''}$`, caseInsensitive ? 'i' : '').test(b);
  }
  let x = a;
  let y = b;
  if (trailingInsensitive) {
    x = trimSlash(x);
    y = trimSlash(y);
  }
  if (caseInsensitive) {
    x = x.toLowerCase();
    y = y.toLowerCase();
  }
  if (x === y) return true;
  if (slashes(x) !== slashes(y)) return false;
  // Parameters match any segment.
  const xs = x.split('/');
  const ys = y.split('/');
  return xs.length === ys.length && xs.every((s, i) => s === ys[i] || (s !== '' && ys[i] !== '' && (s.startsWith(':') || ys[i]!.startsWith(':'))));
}

export function methodServes(routeMethod: string, contractMethod: string): boolean {
  return routeMethod === contractMethod || routeMethod === 'ALL' || (contractMethod === 'HEAD' && routeMethod === 'GET');
}

/** Stands for a parameter's value, and a wildcard's (across segments), in no written path. */
const ANY_SEGMENT = '\u0000';
const ANY_SEGMENTS = '\u0000/\u0000';

/**
 * Does a listed path (a `publicRoutes` entry) serve every request the route serves? Its
 * parameters and wildcards each filled with what no literal of the entry can be: the entry
 * must take them by parameters and wildcards of its own (`/admin/:page` lists `/admin/:id`;
 * `/admin/about` does not, nor does `/robots.txt` list `*`).
 */
function entryCovers(entry: string, r: RouteDraft): boolean {
  return samePath(entry, filledPath(r.path, () => ANY_SEGMENT, () => ANY_SEGMENTS), r.trailingSlashInsensitive, !r.caseSensitive);
}

/**
 * How a route relates to a contract route. A drift is the contract route written in another
 * form (method, trailing slash, case): a route reaching the contract path only through what a
 * wildcard or a catch-all takes (`app.post('/api/*', …)`, a fallback or a proxy) is no form of
 * it, nor does it serve it (what answers there may be a 404 fallback).
 */
export function matchContract(r: RouteDraft, c: ContractRoute): 'exact' | 'served' | 'drift' | null {
  if (r.method === c.method && r.path === c.path) return 'exact';
  // (an optional catch-all's own form is its base: `/api/sites/:slug*?` serves `/api/sites`;
  // a wildcard's, its path with the wildcard taking nothing, when it may: Express 4's
  // `/api/sites/*` serves `/api/sites/`, Fastify's `/api/*` only `/api/`)
  const all = catchAll(r.path);
  const form = all ? (all.optional ? all.base : null) : wildcardTakingNothing(r.path);
  // (a path reached only through what a wildcard or a catch-all takes is none of the route's forms)
  if (form === null) return null;
  const formOf = samePath(form, c.path, true, true);
  if (methodServes(r.method, c.method) && samePath(r.path, c.path, r.trailingSlashInsensitive, !r.caseSensitive) && (form === r.path || formOf)) return 'served';
  return formOf ? 'drift' : null;
}

/** A path with each wildcard taking nothing (`*`, `(.*)`); null when one takes a character at least (path-to-regexp 8's `*splat`). */
function wildcardTakingNothing(path: string): string | null {
  let out = '';
  for (const t of pathTokens(path)) {
    if (t.kind !== 'wild') out += t.text;
    else if (t.text.length > 1 && t.text.startsWith('*')) return null;
  }
  return out;
}

function driftReason(r: RouteDraft, c: ContractRoute): string {
  const reasons: string[] = [];
  if (!methodServes(r.method, c.method)) reasons.push(`method ${r.method} instead of ${c.method}`);
  if (trimSlash(r.path) !== r.path !== (trimSlash(c.path) !== c.path) && !r.trailingSlashInsensitive)
    reasons.push(r.slashRule ?? `trailing slash differs and ${r.framework} matches it exactly${r.framework === 'express' ? ' (strict routing)' : ''}`);
  if (trimSlash(r.path).toLowerCase() === trimSlash(c.path).toLowerCase() && trimSlash(r.path) !== trimSlash(c.path) && r.caseSensitive)
    reasons.push('case differs and routing is case-sensitive');
  return reasons.join('; ') || 'served in another form';
}

export function parseRouteSpec(s: string): { method: string; path: string } {
  const i = s.indexOf(' ');
  return { method: s.slice(0, i).toUpperCase(), path: s.slice(i + 1).trim() };
}

export function classify(drafts: RouteDraft[], contract: Contract, families: Record<string, string[]>, publicRoutes: string[]): Route[] {
  // The drafts become the routes (the linker hands them over): copying each one, tens of
  // thousands at 10,000 files, took longer than classifying them.
  const routes: Route[] = drafts.map((d) => Object.assign(d, { classification: 'browser' as const, family: null, contractRoute: null, contractMatch: null, driftReason: null }));
  const publicSpecs = publicRoutes.map(parseRouteSpec);
  // A route and a contract route match in no way when their paths, trailing slash trimmed,
  // have different numbers of segments (parameters stand for one segment each).
  // (a route ending in a catch-all takes any number: -1)
  // (a route whose path lacks a prefix not known statically matches none: -2)
  // (so does one with a wildcard below a segment of its own, `/sites/*`, which may take no segment
  // or several; a wildcard at the root, an app's `/*` fallback, is matched as one segment)
  const wildBelowRoot = (p: string): boolean => !isWildcard(p.split('/').find((x) => x !== '') ?? '') && pathTokens(p).some((t) => t.kind === 'wild');
  const segments = routes.map((r) => (r.prefixes.some((p) => p.unknown !== undefined) ? -2 : catchAll(r.path) || wildBelowRoot(r.path) ? -1 : slashes(trimSlash(r.path))));
  // Contract routes served exactly or under the framework's matching rules.
  const ranks = new Map<Route, number>();
  for (const c of contract.routes) {
    const cSegments = slashes(trimSlash(c.path));
    const spec = `${c.method} ${c.path}`;
    const served: [Route, 'exact' | 'served'][] = [];
    routes.forEach((r, i) => {
      if (segments[i] !== cSegments && segments[i] !== -1) return;
      const m = matchContract(r, c);
      if (m === 'exact' || m === 'served') served.push([r, m]);
    });
    // (a route several contract routes match is the closest one's: its own path written exactly,
    // else the one whose parameters and literals line up with the route's most — `/items/count`
    // is the row `/items/count`, not the `/items/:itemId` listed after it)
    for (const [r, m] of served) {
      const rank = m === 'exact' ? 0 : 1 + unaligned(r.path, c.path);
      if (r.contractRoute !== null && (ranks.get(r) ?? 0) <= rank) continue;
      ranks.set(r, rank);
      r.contractRoute = spec;
      r.contractMatch = m;
    }
    if (served.length > 0) continue;
    // Served only in a drifted form: the closest candidate carries the drift.
    const drifted = routes
      .filter((r, i) => (segments[i] === cSegments || segments[i] === -1) && r.contractRoute === null && matchContract(r, c) === 'drift')
      .sort((a, b) => score(a, c) - score(b, c) || a.file.localeCompare(b.file) || a.line - b.line);
    const best = drifted[0];
    if (best) {
      best.contractRoute = spec;
      best.contractMatch = 'drift';
      best.driftReason = driftReason(best, c);
    }
  }
  const familyOfPath = familyMatcher(families);
  for (const r of routes) {
    r.family = familyOfPath(r.path);
    const c = contractRouteOf(contract, r.contractRoute);
    const listedPublic = publicSpecs.some((p) => methodServes(r.method, p.method) && entryCovers(p.path, r));
    // (a route with another method than a public contract route's is not the route listed public)
    if (r.family) r.classification = 'excluded';
    else if ((c?.auth === 'public' && methodServes(r.method, c.method)) || listedPublic) r.classification = 'public';
    else if (c) r.classification = 'contract';
    else r.classification = 'browser';
  }
  return routes;
}

/** The segments where one path has a parameter and the other a literal. */
function unaligned(a: string, b: string): number {
  const xs = trimSlash(a).split('/');
  const ys = trimSlash(b).split('/');
  return xs.filter((x, i) => x.startsWith(':') !== (ys[i] ?? '').startsWith(':')).length;
}

function score(r: RouteDraft, c: ContractRoute): number {
  return (methodServes(r.method, c.method) ? 0 : 4) + (r.path === c.path ? 0 : trimSlash(r.path) === trimSlash(c.path) ? 1 : 2);
}

