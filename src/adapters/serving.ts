/**
 * A middleware answering the requests to a path itself and handing every other on
 * (Behaviour.servesFor): `app.use(function index(req, res, next) { if (req.url.split('?')[0]
 * !== '/') return next(); res.render('index', …) })` serves `/`, any method, as a route would.
 */
import type { Evaluator, Value } from '../link/evaluate.js';
import type { SkipFor } from '../types.js';
import { joinPath } from './paths.js';

/** A path (and method) the middleware answers; `root`: the path is tested from the root of the app (`req.originalUrl`). */
export interface Served {
  path: string;
  method: string | null;
  root: boolean;
}

/** What is said of a middleware answering what servedRoutes cannot list. */
const SERVED_UNLISTED = 'this middleware answers the requests a test of their path picks, not one path: they are not listed as routes';

/**
 * The routes of the middleware `v` used at a registration, when it is a function of the code
 * answering the requests to a path itself (servedRoutes); none when it is not, and none, with
 * `warn` called with what to say, when what it answers is not one path.
 */
export function servedBy(ev: Evaluator, v: Value, warn: (message: string) => void): Served[] {
  const serving = v.t === 'fn' ? ev.fnOf(v.file, v.fn)?.behaviour.servesFor : undefined;
  if (!serving) return [];
  const served = servedRoutes(serving);
  if (served === null) warn(SERVED_UNLISTED);
  return served ?? [];
}

/**
 * The routes of what the middleware answers: one per whole path (and method). Null when an
 * alternative tests something else of the path (`req.path.startsWith('/files/')`,
 * `PATHS.includes(req.path)`), or a path a route's syntax reads as a pattern (`/a:b`): those are
 * not listed as routes. One testing only the method (`if (req.method !== 'OPTIONS') return
 * next(); res.sendStatus(204)`, a CORS preflight's answer) answers no path of its own: none.
 */
function servedRoutes(served: readonly SkipFor[]): Served[] | null {
  const out = new Map<string, Served>();
  for (const s of served) {
    if ('path' in s) {
      if (/[:*?()+[\]]/.test(s.path)) return null;
      const one: Served = { path: s.path, method: s.method ?? null, root: s.root === true };
      out.set(`${one.method ?? ''} ${one.root} ${one.path}`, one);
    } else if (!('method' in s && Object.keys(s).every((k) => k === 'method' || k === 'root'))) return null;
  }
  // (a GET route is requested with HEAD too: HEAD beside GET is no route of its own; any method
  // beside ALL neither)
  return [...out.values()].filter((s) => !(s.method !== null && out.has(` ${s.root} ${s.path}`)) && !(s.method === 'HEAD' && out.has(`GET ${s.root} ${s.path}`)));
}

/**
 * The path of the route `s` is, written as a path of the use() at `p` (`full`: that path from the
 * app's root): what the middleware sees there is below `p` (`req.path`), but for a path tested
 * from the root (`req.originalUrl`), one under `full` or none (null).
 */
export function servedPath(s: Served, p: string, full: string): string | null {
  const below = !s.root || full === '' ? s.path : s.path === full ? '/' : s.path.startsWith(`${full}/`) ? s.path.slice(full.length) : null;
  if (below === null) return null;
  return below === '/' ? p || '/' : joinPath(p, below);
}
