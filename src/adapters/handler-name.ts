import { refName, type Evaluator, type Value } from '../link/evaluate.js';
import type { Expr } from '../types.js';

/** How a route's handler is written: `listSites`, `sites.list`, or the function's own name. */
export function handlerNameOf(ev: Evaluator, h: { value: Value; expr: Expr }): string | null {
  if (h.expr.k === 'ref') return refName(h.expr.name);
  if (h.expr.k === 'member') {
    const parts: string[] = [];
    let e: Expr = h.expr;
    while (e.k === 'member') {
      parts.unshift(e.prop);
      e = e.obj;
    }
    if (e.k === 'ref') parts.unshift(refName(e.name));
    return parts.join('.');
  }
  if (h.value.t === 'fn') return ev.fnOf(h.value.file, h.value.fn)?.name ?? null;
  return null;
}
