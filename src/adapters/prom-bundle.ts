/**
 * express-prom-bundle (read at 8.x, src/index.js): unless `autoregister: false`, the
 * middleware `promBundle(opts)` makes answers, whatever the method, a request whose original
 * URL is `metricsPath` (default `/metrics`) with or without a trailing slash — wherever it is
 * mounted, so a route (`ALL`, case-sensitive) wherever such requests reach it: in an Express
 * app or router, or in the Express instance under a NestJS app (`app.use(…)`). Its `metricsApp`
 * option (another app serving the path) is not followed; a regular expression as `metricsPath`
 * is not read.
 */
import { type Evaluator, type Value } from '../link/evaluate.js';
import { pathNote } from './unknown-heads.js';

export const PROM_BUNDLE = 'express-prom-bundle';

/**
 * The path the middleware `v` answers when it is express-prom-bundle's; `null` when it is not
 * (or answers none); `{ why }` when its options are not known statically.
 */
export function promBundlePath(ev: Evaluator, v: Value): string | { why: string } | null {
  if (v.t !== 'pkg' || v.pkg !== PROM_BUNDLE || !v.called || v.path.some((p) => p !== 'default')) return null;
  const opts = v.args[0];
  if (opts === undefined) return '/metrics';
  if (opts.t !== 'obj') return { why: pathNote(opts) };
  if ('autoregister' in opts.props) {
    const on = ev.member(opts, 'autoregister', 0);
    if (on.t === 'bool' && !on.v) return null;
    if (on.t !== 'bool') return { why: `autoregister: ${pathNote(on)}` };
  }
  if (!('metricsPath' in opts.props)) return '/metrics';
  const at = ev.member(opts, 'metricsPath', 0);
  return at.t === 'str' ? at.v || '/metrics' : { why: pathNote(at) };
}

/** The warning for a metrics path not known statically. */
export function promBundleUnknown(why: string): string {
  return `the metrics path ${PROM_BUNDLE} answers is not known statically (${why}); its route is left out`;
}
