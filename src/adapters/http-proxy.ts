/**
 * http-proxy-middleware (read at 2.0.12 and 4.2.2, dist/http-proxy-middleware.js, path-filter.js,
 * context-matcher.js, config-factory.js): the middleware `createProxyMiddleware(…)` makes hands
 * the requests it takes to another server and answers them with that server's answer; the others
 * go on (`next()`). Which it takes:
 * - 3 and later, `createProxyMiddleware({ target, pathFilter })`: those whose `req.url` — the
 *   path below the mount path, in Express — starts with `pathFilter` (a string, or any of a list
 *   of strings; every request when there is none);
 * - 2 (and 0–1, the module itself a function), `createProxyMiddleware(context, options)`:
 *   those whose original URL — the whole path — starts with `context` (`'/api'`, a list, or the
 *   path of a target written as one URL, `createProxyMiddleware('http://billing:8080/api')`);
 *   `createProxyMiddleware(options)`, every request.
 * A glob (`/api/**`) is read as the path before its first `*` when that is where it ends; a
 * function, or another glob, is not read.
 *
 * express-http-proxy (read at 2.1.2, index.js): `proxy(host, options)` proxies every request
 * reaching it, unless its `filter` option (a function, not read) says otherwise.
 */
import { stringsOf, type Evaluator, type Value } from '../link/evaluate.js';
import { joinPath, pathApplies } from './paths.js';
import { pathNote } from './unknown-heads.js';

const HTTP_PROXY = 'http-proxy-middleware';
const EXPRESS_HTTP_PROXY = 'express-http-proxy';

/**
 * What a proxy of package `pkg` takes: every request reaching it (`paths` null), or those
 * starting with `paths` — below its mount path, or (`whole`) as the whole path.
 */
export type ProxyTakes = ({ paths: string[] | null; whole: boolean } | { why: string }) & { pkg: string };

/** The requests the middleware `v` proxies when it is a proxy's; null when it is not. */
export function proxyTakes(ev: Evaluator, v: Value): ProxyTakes | null {
  if (v.t !== 'pkg' || !v.called) return null;
  if (v.pkg === EXPRESS_HTTP_PROXY && v.path.every((p) => p === 'default')) {
    const opts = v.args[1];
    return opts?.t === 'obj' && 'filter' in opts.props ? { why: 'its filter option', pkg: v.pkg } : { paths: null, whole: false, pkg: v.pkg };
  }
  const taken = middlewareTakes(ev, v);
  return taken && { ...taken, pkg: v.pkg };
}

function middlewareTakes(ev: Evaluator, v: Extract<Value, { t: 'pkg' }>): ({ paths: string[] | null; whole: boolean } | { why: string }) | null {
  if (v.pkg !== HTTP_PROXY) return null;
  const name = v.path.filter((p) => p !== 'default');
  const legacy = name.length === 0 || (name.length === 1 && name[0] === 'legacyCreateProxyMiddleware');
  if (!legacy && !(name.length === 1 && name[0] === 'createProxyMiddleware')) return null;
  const [first, second] = v.args;
  // `createProxyMiddleware(options)`: the options' pathFilter (3 and later; 2 reads none)
  if (first?.t === 'obj' && second === undefined) {
    if (!('pathFilter' in first.props)) return { paths: null, whole: false };
    return prefixes(ev.member(first, 'pathFilter', 0), false);
  }
  // `createProxyMiddleware(context[, options])` (2 and before)
  if (first === undefined) return { paths: null, whole: true };
  if (first.t === 'str' && /^[a-z][a-z0-9+.-]*:\/\//i.test(first.v)) {
    const path = first.v.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/, '');
    return path === '' || path === '/' ? { paths: null, whole: true } : { paths: [path], whole: true };
  }
  return prefixes(first, true);
}

function prefixes(v: Value, whole: boolean): { paths: string[] | null; whole: boolean } | { why: string } {
  if (v.t === 'fn') return { why: 'a function chooses them' };
  const list = stringsOf(v);
  if (!list) return { why: pathNote(v) };
  const out: string[] = [];
  for (const s of list) {
    const star = s.indexOf('*');
    // `/api/**`, `/api/*`: the path before the glob
    const p = star < 0 ? s : /^[^*]*\/\*\*?$/.test(s) ? s.slice(0, star - 1) : null;
    if (p === null || s.startsWith('!')) return { why: `the glob ${s}` };
    if (p === '' || p === '/') return { paths: null, whole };
    out.push(p);
  }
  return { paths: out, whole };
}

/** The warning for a proxy whose paths are not known statically. */
export function proxyUnknown(pkg: string, why: string): string {
  return `the paths ${pkg} proxies are not known statically (${why}); its routes are left out`;
}

/**
 * The whole paths a proxy taking `paths` answers when it runs below `mount` ('' = everywhere):
 * a `pathFilter` below the mount (3.x), a `context` as the whole path (2.x), kept when the mount
 * lets requests for it reach the proxy.
 */
export function proxiedPaths(taken: { paths: string[]; whole: boolean }, mount: string, caseSensitive: boolean): string[] {
  if (!taken.whole) return taken.paths.map((p) => joinPath(mount, p));
  return taken.paths.filter((p) => pathApplies(mount, p, caseSensitive));
}

/** The warning for a proxy that takes every request, used below no path. */
export function proxyEverywhere(pkg: string): string {
  return `${pkg} proxies every request reaching it here to another server; no route stands for that`;
}
