/**
 * An Express or Koa app that serves no route while a middleware of its own, written in the
 * analysed code, answers every request that reaches it and hands none on (Joplin Server's
 * `app.use(routeHandler)`, which dispatches to routers of its own making; Koa's hello world,
 * `app.use(async (ctx) => { ctx.body = 'Hello' })`): what it serves is not known statically.
 * A warning says so, at that middleware: an empty report would say there was nothing to check.
 * Asked by link() once every adapter has listed its routes (routing-controllers lists its
 * actions on an Express or Koa app), of the apps the Express and Koa adapters serve on their
 * own (LinkContext.ownApps).
 */
import { exprName, type RouterObject } from '../link/evaluate.js';
import type { LinkContext } from '../link/link.js';

export function warnDispatchingApp(ctx: LinkContext, app: RouterObject): void {
  for (const b of ctx.registrationsOf(app.id)) {
    if (b.reg.method !== 'use') continue;
    for (const it of ctx.ev.flatten(b.file, b.reg.args)) {
      if (it.value.t !== 'fn') continue;
      const f = ctx.ev.fnOf(it.value.file, it.value.fn);
      // (an Express error handler, `(err, req, res, next)`, answers only the requests that failed)
      if (!f || !f.behaviour.sendsResponse || f.behaviour.callsNext || f.behaviour.passesOn || f.params.length === 4) continue;
      const name = exprName(it.expr) ?? f.name ?? 'an inline middleware';
      ctx.warn(b.file, b.reg.at, `${app.name ?? 'the app'} serves no route the analysis lists: ${name} answers every request that reaches it itself, so what the app serves is not known statically`, b.reg.snippet);
      return;
    }
  }
}
