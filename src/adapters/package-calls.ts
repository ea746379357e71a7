/**
 * The calls a file makes of packages' exports, evaluated wherever they are written: a server a
 * package makes (`Hapi.server(…)`, `new InversifyExpressServer(container)`) is then known even
 * when nothing the analysis follows is registered on it (a hapi plugin's `register(server)`,
 * which hapi calls; controllers an inversify container serves).
 */
import type { LinkContext } from '../link/link.js';
import { declaringScope, forEachChildExpr } from '../link/link.js';
import { bindingOf } from '../extract/facts-text.js';
import type { Expr, FileFacts } from '../types.js';

/**
 * Evaluate each call (or `new`) in `file` of something imported from a package `fromPackage`
 * holds for, in its bindings and its calls' callees and arguments (`feathers()` in
 * `express(feathers())` too). Nothing when the file imports none.
 */
export function evaluatePackageCalls(ctx: LinkContext, file: string, facts: FileFacts, fromPackage: (source: string) => boolean): void {
  const imported = new Set(facts.imports.filter((i) => fromPackage(i.source)).map((i) => i.local));
  if (imported.size === 0) return;
  const rooted = (callee: Expr): boolean => {
    let e = callee;
    while (e.k === 'member') e = e.obj;
    return e.k === 'ref' && imported.has(e.name) && declaringScope(facts, e.scope, e.name) === -1;
  };
  const visit = (e: Expr): void => {
    if ((e.k === 'call' || e.k === 'new') && rooted(e.callee)) ctx.ev.eval(file, e);
    forEachChildExpr(e, visit);
  };
  for (const scope of facts.scopes) for (const name of Object.keys(scope.bindings)) visit(bindingOf(scope, name)!);
  for (const c of facts.calls) [c.callee, ...c.args].forEach(visit);
}
