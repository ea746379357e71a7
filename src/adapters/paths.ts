/** Path helpers shared by the adapters. */
import type { AppliedGuard } from '../types.js';

/**
 * A path Express and @koa/router never match: one starting with a name or a parameter
 * (`router.get('users', …)`, `':id'`). Both test a route's or a use()'s path, anchored at its
 * start, on the request's path, which starts with `/` (a path starting with `*`, `(` or `{` is a
 * pattern that may match, as a version reads it; `''` is the mount point's).
 */
export function neverMatched(p: string): boolean {
  return /^[\w.:~-]/.test(p);
}

/** Join a mount prefix and a route path the way routers do: one slash between, none doubled. */
export function joinPath(prefix: string, p: string): string {
  if (prefix === '' || prefix === '/') return p === '' ? '/' : p.startsWith('/') ? p : '/' + p;
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (p === '') return base;
  return base + (p.startsWith('/') ? p : '/' + p);
}

/**
 * A path segment standing for a head not known statically (`${baseUriPath}` of
 * `` app.use(`${baseUriPath}/api`, api) ``): no request path has its control characters, so a
 * layer's scope and a route's path under the same head still compare segment by segment, and
 * under another head or none they never agree. `withoutUnknownHeads` takes it out of a path
 * that is reported.
 */
export function unknownHead(id: number): string {
  return `/\u0001${id}\u0001`;
}

/** A path as reported: its unknown heads (unknownHead) left out, or each written as `shown` (`/…` in a message). */
export function withoutUnknownHeads(p: string, shown = ''): string {
  if (!p.includes('\u0001')) return p;
  const known = p.replace(/\/\u0001\d+\u0001/g, shown);
  return known === '' ? '/' : known;
}

/**
 * A route's path as it is reported: its unknown heads left out (`path`) and, when it has one,
 * written `/…` where it stands (`shown`: `/api/…/sites` of `` app.use(`/api/${version}`, api) ``).
 */
export function reportedPath(p: string): { path: string; shown?: string } {
  const path = withoutUnknownHeads(p);
  return path === p ? { path } : { path, shown: withoutUnknownHeads(p, '/…') };
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

/** A route path's pieces: a parameter (`:id`, `:id(\\d+)`), a wildcard (`*`, `*rest`, `(.*)`), or one character. */
export type PathToken = { kind: 'param'; name: string; text: string } | { kind: 'wild'; text: string } | { kind: 'char'; text: string };

/** The pieces of a route path, in order (a modifier after a parameter, `:path*`, `:id?`, is the piece after it). */
export function pathTokens(path: string): PathToken[] {
  const out: PathToken[] = [];
  for (let i = 0; i < path.length; ) {
    const rest = path.slice(i);
    const param = /^:([A-Za-z0-9_$]+)(?:\((?:\\.|[^\\)])*\))?/.exec(rest);
    const wild = param ? null : /^(?:\*[A-Za-z0-9_$]*|\(\.\*\))/.exec(rest);
    const t: PathToken = param ? { kind: 'param', name: param[1]!, text: param[0] } : wild ? { kind: 'wild', text: wild[0] } : { kind: 'char', text: rest[0]! };
    out.push(t);
    i += t.text.length;
  }
  return out;
}

/**
 * A route's path made a request path: each parameter given `one(name)`; each wildcard, and
 * each parameter that may repeat (`:path*`, `:path+`) or be left out (`:id?`), given
 * `many(name)` (with the slash before it left out too when that is empty).
 */
export function filledPath(path: string, one: (name: string) => string, many: (name: string) => string): string {
  const tokens = pathTokens(path);
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let value: string | null = null;
    if (t.kind === 'param') {
      // its modifiers: `*` (read as a wildcard), `+`, `?`
      let repeats = false;
      while (tokens[i + 1] && (tokens[i + 1]!.text === '*' || tokens[i + 1]!.text === '+' || tokens[i + 1]!.text === '?')) {
        repeats = true;
        i++;
      }
      value = repeats ? many(t.name) : one(t.name);
    } else if (t.kind === 'wild') value = many('');
    if (value === null) out += t.text;
    else {
      if (value === '' && out.endsWith('/')) out = out.slice(0, -1);
      out += value;
    }
  }
  return out || '/';
}

/**
 * A wildcard segment: `*` (Express 4), `*rest` (path-to-regexp 8), or `(.*)`, an unnamed or
 * named group of any characters (path-to-regexp 0.1 and 6: Express 4, @koa/router 12).
 */
export function isWildcard(segment: string): boolean {
  return segment.startsWith('*') || segment.endsWith('(.*)');
}

/** Can a scope's segment and a path's segment take the same value? (A parameter takes any.) */
function segmentMatches(pattern: string, actual: string, caseSensitive: boolean): boolean {
  if (pattern.startsWith(':') || actual.startsWith(':') || isWildcard(pattern)) return true;
  return caseSensitive ? pattern === actual : pattern.toLowerCase() === actual.toLowerCase();
}

/**
 * Does a scope's segment take every value a route's segment can have? A route's parameter or
 * wildcard takes any value: only a parameter or a wildcard of the scope covers it (a layer
 * mounted at `/admin` runs for `GET /:page` only when the page is `admin`).
 */
function segmentCovers(pattern: string, actual: string, caseSensitive: boolean): boolean {
  if (pattern.startsWith(':') || isWildcard(pattern)) return true;
  if (actual.startsWith(':') || isWildcard(actual)) return false;
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
 * whole path, not a prefix)? A trailing wildcard (`/api/*`, Express 5's `/api/*rest`, `/api/(.*)`)
 * takes one or more further segments; under strict routing a trailing slash must agree.
 */
export function routePathCovers(pattern: string, full: string, caseSensitive: boolean, strict: boolean): boolean {
  if (strict && pattern.endsWith('/') !== full.endsWith('/')) return false;
  const s = segments(pattern);
  const f = segments(full);
  const wild = s.length > 0 && isWildcard(s[s.length - 1]!);
  if (wild ? f.length < s.length : f.length !== s.length) return false;
  return s.every((seg, i) => segmentCovers(seg, f[i]!, caseSensitive));
}

/**
 * A route path ending in a catch-all (Next.js `[...slug]` → `:slug*`, one segment or more;
 * `[[...slug]]` → `:slug*?`, none or more), maybe with a trailing slash (`trailingSlash: true`):
 * the path before it, whether it may be empty, and whether the paths it serves end in a slash.
 */
export function catchAll(p: string): { base: string; optional: boolean; slash: boolean } | null {
  if (!p.includes('*')) return null;
  const m = /\/:[\w$]+\*(\?)?(\/)?$/.exec(p);
  return m ? { base: p.slice(0, m.index) || '/', optional: m[1] !== undefined, slash: m[2] !== undefined } : null;
}

/** Which ways of writing an optional part a router's paths have. */
export interface OptionalSyntax {
  /**
   * `:id?`, an optional parameter: path-to-regexp 0.1 (Express 4) and 6 (@koa/router 12),
   * find-my-way (Fastify), Hono. It takes the `/` or `.` before it with it.
   */
  question: boolean;
  /** `{/:id}`, an optional group: path-to-regexp 8 (Express 5, @koa/router 13+); `{/:id}?` in path-to-regexp 6 */
  braces: boolean;
}

/** Patterns with more optional parts than this are taken as written (each part doubles the forms). */
const MAX_OPTIONAL_PARTS = 4;

const OPTIONAL_PARAM = /^([/.]?):[A-Za-z0-9_$]+(?:\((?:\\.|[^\\)])*\))?\?/;

/**
 * The paths a route pattern serves, one for each way its optional parts can be present or
 * absent (`/sites/:id?` → `/sites/:id`, `/sites`), those with every part present first; a
 * form that only renames the parameters of an earlier one is left out (`/:a?/:b?` serves
 * `/x` as `/:a`). A pattern with no optional part, or with more than MAX_OPTIONAL_PARTS, is
 * its one form.
 */
export function optionalForms(pattern: string, syntax: OptionalSyntax): string[] {
  if (!pattern.includes('?') && !(syntax.braces && pattern.includes('{'))) return [pattern];
  const parts = { n: 0 };
  const forms = expandOptional(pattern, syntax, parts);
  if (forms === null || parts.n === 0) return [pattern];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of forms) {
    const form = f === '' ? '/' : f;
    const shape = form.replace(/:[A-Za-z0-9_$]+/g, ':');
    if (seen.has(shape)) continue;
    seen.add(shape);
    out.push(form);
  }
  return out;
}

/** Every form of `src`, counting its optional parts in `parts`; null past MAX_OPTIONAL_PARTS. */
function expandOptional(src: string, syntax: OptionalSyntax, parts: { n: number }): string[] | null {
  let forms = [''];
  const append = (text: string): void => {
    forms = forms.map((f) => f + text);
  };
  const optional = (inner: string[]): boolean => {
    if (++parts.n > MAX_OPTIONAL_PARTS) return false;
    forms = forms.flatMap((f) => [...inner.map((x) => f + x), f]);
    return true;
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length) {
      append(src.slice(i, i + 2));
      i += 2;
      continue;
    }
    if (syntax.braces && c === '{') {
      const end = closingBrace(src, i);
      if (end >= 0) {
        const inner = expandOptional(src.slice(i + 1, end), syntax, parts);
        if (inner === null || !optional(inner)) return null;
        i = src[end + 1] === '?' ? end + 2 : end + 1;
        continue;
      }
    }
    if (syntax.question && (c === '/' || c === '.' || c === ':')) {
      const m = OPTIONAL_PARAM.exec(src.slice(i));
      if (m) {
        if (!optional([m[0].slice(0, -1)])) return null;
        i += m[0].length;
        continue;
      }
    }
    append(c);
    i++;
  }
  return forms;
}

/** The index of the `}` closing the `{` at `open` (nested braces and escapes skipped), or -1. */
function closingBrace(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '{') depth++;
    else if (src[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * A layer that runs before the routes registered after it: middleware mounted at `scope`
 * ('' = everything reaching it), or a route registration that passes the request on (`route`:
 * it runs for requests whose whole path its path, `scope`, matches, with its method).
 */
export interface ScopedGuard {
  guard: AppliedGuard;
  scope: string;
  caseSensitive: boolean;
  route?: { method: string; strict: boolean };
}

/** The guards of the layers in `active` that run for a `method` request to the route `full`. */
export function applying(active: readonly ScopedGuard[], method: string, full: string): AppliedGuard[] {
  return active
    .filter((s) => (s.route ? (s.route.method === 'ALL' || s.route.method === method) && routePathCovers(s.scope, full, s.caseSensitive, s.route.strict) : pathApplies(s.scope, full, s.caseSensitive)))
    .map((s) => s.guard);
}
