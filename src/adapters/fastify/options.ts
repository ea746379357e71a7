/**
 * Fastify's router options as fastify() reads them (route.js buildRouterOptions, read at 5.x):
 * `routerOptions.*` wins over the deprecated top-level option of the same name. NestJS's
 * FastifyAdapter hands its options to fastify() unchanged, so both adapters read them here.
 */
import type { Evaluator, Value } from '../../link/evaluate.js';

/** A boolean value, or undefined for any other. */
export function bool(v: Value | undefined): boolean | undefined {
  return v?.t === 'bool' ? v.v : undefined;
}

/** A router option of Fastify's options (`ignoreTrailingSlash`, `caseSensitive`): `routerOptions.*` wins over the top-level one. */
export function routerOption(ev: Evaluator, options: Value | undefined, key: string): boolean | undefined {
  if (options?.t !== 'obj') return undefined;
  const ro = ev.member(options, 'routerOptions', 0);
  return bool(ro.t === 'obj' ? ev.member(ro, key, 0) : undefined) ?? bool(ev.member(options, key, 0));
}
