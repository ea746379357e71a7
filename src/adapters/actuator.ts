/**
 * express-actuator (read at 1.8, lib/index.js): `actuator(options)` is an Express router serving
 * `GET basePath + '/info'`, `'/metrics'` and `'/health'` (Spring Boot's monitoring endpoints),
 * `basePath` being the option of that name ('' by default) or the options themselves when they
 * are a string. Used (`app.use([path], actuator())`), it answers those paths below where it is
 * mounted and hands every other request on: no guard, three routes.
 */
import { type Evaluator, type Value } from '../link/evaluate.js';
import { pathNote } from './unknown-heads.js';

export const ACTUATOR = 'express-actuator';

const ENDPOINTS = ['/info', '/metrics', '/health'];

/**
 * The paths (below its mount path) the middleware `v` serves when it is express-actuator's;
 * `null` when it is not; `{ why }` when its base path is not known statically.
 */
export function actuatorPaths(ev: Evaluator, v: Value): string[] | { why: string } | null {
  if (v.t !== 'pkg' || v.pkg !== ACTUATOR || !v.called || v.path.some((p) => p !== 'default')) return null;
  const opts = v.args[0];
  const base = opts === undefined ? { t: 'str' as const, v: '' } : opts.t === 'obj' ? ('basePath' in opts.props ? ev.member(opts, 'basePath', 0) : { t: 'str' as const, v: '' }) : opts;
  if (base.t !== 'str') return { why: pathNote(base) };
  return ENDPOINTS.map((e) => base.v + e);
}

/** The warning for a base path not known statically. */
export function actuatorUnknown(why: string): string {
  return `the base path of ${ACTUATOR}'s routes is not known statically (${why}); its /info, /metrics and /health routes are left out`;
}
