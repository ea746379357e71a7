/**
 * express-status-monitor (read at 1.3.4, src/middleware-wrapper.js and helpers/validate.js):
 * the middleware `statusMonitor(config)` makes (also as its `middleware` property) answers, whatever
 * the method, a request whose `req.path` is `config.path` — `/status` unless a string is given —
 * with a page of the server's CPU, memory, load and response times, and times every other
 * request it hands on. So a route (`ALL`, case-sensitive, without a trailing slash) at that path
 * below wherever it is used. Its `pageRoute` property is a plain handler, a route's where a route
 * registration gives it; the socket.io server it attaches for the page's live data is not read.
 */
import { type Evaluator, type Value } from '../link/evaluate.js';
import { pathNote } from './unknown-heads.js';

export const STATUS_MONITOR = 'express-status-monitor';

/**
 * The path the middleware `v` answers when it is express-status-monitor's; `null` when it is not
 * (or answers none: `path: ''`, which no request's `req.path` is); `{ why }` when its path is not
 * known statically.
 */
export function statusMonitorPath(ev: Evaluator, v: Value): string | { why: string } | null {
  if (v.t !== 'pkg' || v.pkg !== STATUS_MONITOR) return null;
  const path = v.path.filter((p) => p !== 'default');
  // `statusMonitor(config)`, or its `middleware` (`statusMonitor(config).middleware`)
  const made = v.called && path.length === 0 ? v.args : !v.called && path.length === 2 && path[0] === '()' && path[1] === 'middleware' ? v.made : undefined;
  if (!made) return null;
  const config = made[0];
  if (config === undefined) return '/status';
  if (config.t !== 'obj') return { why: pathNote(config) };
  if (!('path' in config.props)) return '/status';
  const at = ev.member(config, 'path', 0);
  if (at.t === 'str') return at.v === '' ? null : at.v;
  // (validate.js keeps the default for anything but a string)
  return at.t === 'num' || at.t === 'bool' ? '/status' : { why: pathNote(at) };
}

/** The warning for a status page's path not known statically. */
export function statusMonitorUnknown(why: string): string {
  return `the path ${STATUS_MONITOR} answers is not known statically (${why}); its route is left out`;
}
