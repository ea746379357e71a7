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

function segmentMatches(pattern: string, actual: string, caseSensitive: boolean): boolean {
  if (pattern.startsWith(':') || actual.startsWith(':') || pattern === '*' || pattern.startsWith('*')) return true;
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

/** Does a middleware layer mounted at `scope` ('' = everywhere) run for requests to `full`? */
export function pathApplies(scope: string, full: string, caseSensitive: boolean): boolean {
  if (scope === '' || scope === '/') return true;
  const s = segments(scope);
  const f = segments(full);
  if (s.length > f.length) return false;
  return s.every((seg, i) => segmentMatches(seg, f[i]!, caseSensitive));
}
