import { refName, type Evaluator, type Value } from '../link/evaluate.js';
import type { Expr } from '../types.js';

/** An expression as written: a name or argument a call's view of it stands for (link.ts, `atCallSite`) is its own. */
function written(e: Expr): Expr {
  let x = e;
  while (x.k === 'within' || x.k === 'at') x = x.e;
  return x;
}

/** How a route's handler is written: `listSites`, `sites.list`, or the function's own name. */
export function handlerNameOf(ev: Evaluator, h: { value: Value; expr: Expr }): string | null {
  const expr = written(h.expr);
  if (expr.k === 'ref') return refName(expr.name);
  if (expr.k === 'member') {
    const parts: string[] = [];
    let e: Expr = expr;
    while (e.k === 'member') {
      parts.unshift(e.prop);
      e = written(e.obj);
    }
    if (e.k === 'ref') parts.unshift(refName(e.name));
    return parts.join('.');
  }
  if (h.value.t === 'fn') return ev.fnOf(h.value.file, h.value.fn)?.name ?? null;
  return null;
}
