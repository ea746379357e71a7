/** Path helpers shared by the adapters. */

/** Join a mount prefix and a route path the way routers do: one slash between, none doubled. */
export function joinPath(prefix: string, p: string): string {
  if (prefix === '' || prefix === '/') return p === '' ? '/' : p.startsWith('/') ? p : '/' + p;
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (p === '') return base;
  return base + (p.startsWith('/') ? p : '/' + p);
}

/** Segments of each path seen (guards × routes asks for the same few paths again and again). */
const SEGMENTS = new Map<string, readonly string[]>();

function segments(p: string): readonly string[] {
  let segs = SEGMENTS.get(p);
  if (!segs) {
    segs = p.split('/').filter((s) => s !== '');
    if (SEGMENTS.size > 100_000) SEGMENTS.clear();
    SEGMENTS.set(p, segs);
  }
  return segs;
}

/** Can a scope's segment and a path's segment take the same value? (A parameter takes any.) */
function segmentMatches(pattern: string, actual: string, caseSensitive: boolean): boolean {
  if (pattern.startsWith(':') || actual.startsWith(':') || pattern.startsWith('*')) return true;
  return caseSensitive ? pattern === actual : pattern.toLowerCase() === actual.toLowerCase();
}

/**
 * Does a scope's segment take every value a route's segment can have? A route's parameter or
 * wildcard takes any value: only a parameter or a wildcard of the scope covers it (a layer
 * mounted at `/admin` runs for `GET /:page` only when the page is `admin`).
 */
function segmentCovers(pattern: string, actual: string, caseSensitive: boolean): boolean {
  if (pattern.startsWith(':') || pattern.startsWith('*')) return true;
  if (actual.startsWith(':') || actual.startsWith('*')) return false;
  return caseSensitive ? pattern === actual : pattern.toLowerCase() === actual.toLowerCase();
}

/**
 * Can a middleware layer mounted at `scope` run for some request below `prefix`? Every path
 * joined under a prefix (joinPath) begins with the prefix's segments, so a layer whose scope
 * disagrees with one of them never applies there (pathApplies says no for each such path).
 */
export function pathMayApplyBelow(scope: string, prefix: string, caseSensitive: boolean): boolean {
  if (scope === '' || scope === '/') return true;
  const s = segments(scope);
  const p = segments(prefix);
  const n = Math.min(s.length, p.length);
  for (let i = 0; i < n; i++) if (!segmentMatches(s[i]!, p[i]!, caseSensitive)) return false;
  return true;
}

/**
 * Does a middleware layer mounted at `scope` ('' = everywhere) run for every request to the
 * route `full`? A guard that runs for only some of them (`app.use('/admin', requireAdmin)`
 * before `app.get('/:page', …)`) does not guard the route.
 */
export function pathApplies(scope: string, full: string, caseSensitive: boolean): boolean {
  return scopeHolds(scope, full, caseSensitive, segmentCovers);
}

/** Can a request to the route `full` be under `scope` ('' = everywhere)? (`/api/:kind/:id` can be under `/api/deployments`.) */
export function pathMayBeUnder(scope: string, full: string, caseSensitive: boolean): boolean {
  return scopeHolds(scope, full, caseSensitive, segmentMatches);
}

function scopeHolds(scope: string, full: string, caseSensitive: boolean, segment: (pattern: string, actual: string, caseSensitive: boolean) => boolean): boolean {
  if (scope === '' || scope === '/') return true;
  const s = segments(scope);
  const f = segments(full);
  if (s.length > f.length) return false;
  return s.every((seg, i) => segment(seg, f[i]!, caseSensitive));
}

/**
 * Does a route registration's path `pattern` match every request to the route `full` (the
 * whole path, not a prefix)? A trailing wildcard (`/api/*`, Express 5's `/api/*rest`) takes one
 * or more further segments; under strict routing a trailing slash must agree.
 */
export function routePathCovers(pattern: string, full: string, caseSensitive: boolean, strict: boolean): boolean {
  if (strict && pattern.endsWith('/') !== full.endsWith('/')) return false;
  const s = segments(pattern);
  const f = segments(full);
  const wild = s.length > 0 && s[s.length - 1]!.startsWith('*');
  if (wild ? f.length < s.length : f.length !== s.length) return false;
  return s.every((seg, i) => segmentCovers(seg, f[i]!, caseSensitive));
}
