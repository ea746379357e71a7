import { boundFunction, refName, type Evaluator, type Value } from '../link/evaluate.js';
import type { Expr } from '../types.js';

/** An expression as written: a name or argument a call's view of it stands for (link.ts, `atCallSite`) is its own. */
function written(e: Expr): Expr {
  let x = e;
  while (x.k === 'within' || x.k === 'at') x = x.e;
  return x;
}

/**
 * How a route's handler is written: `listSites`, `sites.list`, or the function's own name. A
 * property of a loop's item is named as the item is written in the list (`route.handler` of
 * `getFeature` in `allRoutes`: `getFeature.handler`; of `{ path, handler: showReport }`: `showReport`).
 */
export function handlerNameOf(ev: Evaluator, h: { value: Value; expr: Expr; file?: string }): string | null {
  const expr = written(h.expr);
  // `controller.list.bind(controller)`: named by the function bound
  const bound = expr.k === 'call' ? boundFunction(expr) : null;
  if (bound) return handlerNameOf(ev, { ...h, expr: bound });
  if (expr.k === 'ref') return refName(expr.name);
  if (expr.k === 'member') {
    const parts: string[] = [];
    let e: Expr = expr;
    while (e.k === 'member') {
      parts.unshift(e.prop);
      e = written(e.obj);
    }
    const item = e.k === 'item' && h.file !== undefined ? ev.itemExpr(h.file, e) : null;
    if (item?.expr.k === 'obj' && Object.hasOwn(item.expr.props, parts[0]!) && !Object.keys(item.expr.props).some((k) => k.startsWith('*'))) {
      // the property as written in the item, and the rest of the path read from it
      let x: Expr = item.expr.props[parts[0]!]!;
      for (const prop of parts.slice(1)) x = { k: 'member', obj: x, prop };
      return handlerNameOf(ev, { value: h.value, expr: x, file: item.file });
    }
    if (item?.expr.k === 'ref') parts.unshift(refName(item.expr.name));
    if (e.k === 'ref') parts.unshift(refName(e.name));
    return parts.join('.');
  }
  if (h.value.t === 'fn') return ev.fnOf(h.value.file, h.value.fn)?.name ?? null;
  return null;
}
