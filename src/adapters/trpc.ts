/**
 * tRPC (@trpc/server 10 and 11, read at 11.x src/unstable-core-do-not-import: router.ts,
 * procedureBuilder.ts, http/resolveResponse.ts, and the adapters): an endpoint made of a router
 * serves each procedure at `<endpoint>/<path>`, the path its keys in the nested routers joined
 * with dots (`post.byId`) — a query by GET, a mutation by POST, a subscription by GET (server-sent
 * events in 11) — and a request may batch several (`/post.byId,user.me?batch=1`), each run as its
 * own. Read as written, never run:
 * - a router is `t.router({ … })` of an instance `initTRPC…create()` (also through a name for it,
 *   `createTRPCRouter = t.router`), `t.mergeRouters(a, b)`, or, in 11, a plain object of
 *   procedures and routers nested in one; spreads of objects known statically are read;
 * - a procedure is a builder chain ending in `.query(fn)`, `.mutation(fn)` or
 *   `.subscription(fn)`, from `t.procedure` through `.use(middleware)` (each a middleware the
 *   procedure runs first, in order), `.input()`, `.output()`, `.meta()`, through the names the
 *   builders are kept under (`protectedProcedure = t.procedure.use(isAuthed)`); a middleware is
 *   a function or `t.middleware(fn)`.
 * What is not read (a router or builder from a call of the analysed code, a lazy router) leaves
 * the endpoint's routes out, with the reason.
 */
import type { Evaluator, Value } from '../link/evaluate.js';
import type { LinkContext } from '../link/link.js';
import type { AppliedGuard, Expr, Loc } from '../types.js';

/** A procedure: its dotted path, what it is, where it is written and the middleware it runs first. */
export interface Procedure {
  path: string;
  kind: 'query' | 'mutation' | 'subscription';
  file: string;
  at: Loc;
  /** each with where the builder is given it (`.use(…)`) */
  middleware: { file: string; expr: Expr; value: Value; at: Loc }[];
  /** the function answering (`.query(fn)`'s) */
  resolver: { file: string; expr: Expr; value: Value } | null;
}

/** The HTTP methods a procedure of each kind is served for. */
export const PROCEDURE_METHODS: Record<Procedure['kind'], string> = { query: 'GET', mutation: 'POST', subscription: 'GET' };

const MAX_DEPTH = 40;
const BUILDER_STEPS = new Set(['input', 'output', 'meta']);

/** Is `v` a value of @trpc/server (an instance `t`, or something of it)? */
function ofTrpc(v: Value): boolean {
  return v.t === 'pkg' && (v.pkg === '@trpc/server' || v.pkg.startsWith('@trpc/server/'));
}

/** The expression a name or an argument stands for, as written (through consts and imports), and its file. */
export function written(ev: Evaluator, file: string, e: Expr, depth: number): { file: string; expr: Expr } {
  let f = file;
  let x = e;
  for (let i = 0; i < MAX_DEPTH - depth; i++) {
    if (x.k === 'at') {
      f = x.file;
      x = x.e;
      continue;
    }
    if (x.k !== 'ref') break;
    const def = ev.definitionOf(f, x.scope, x.name);
    if (!def || def.expr === x || (def.expr.k === 'unknown' && def.expr.text === '')) break;
    f = def.file;
    x = def.expr;
  }
  return { file: f, expr: x };
}

/**
 * The procedures of the router `e` (written in `file`), or why they are not known statically
 * (then the endpoint is one route, as any handler answering every request under it).
 */
export function trpcProcedures(ev: Evaluator, router: { file: string; expr: Expr } | null): { procedures: Procedure[] } | { why: string } {
  const unknown = { why: 'the router is not known statically' };
  if (!router) return unknown;
  const out: Procedure[] = [];
  // (the endpoint's router is one a router call makes: a plain object is one only nested in one)
  if (written(ev, router.file, router.expr, 0).expr.k === 'obj') return unknown;
  const why = routerInto(ev, router.file, router.expr, '', out, 0);
  return why === null ? { procedures: out } : { why };
}

/** The warning for an endpoint whose procedures are not known statically (`why`). */
export function trpcUnread(why: string): string {
  return `${why}: the procedures of this tRPC endpoint are not listed, the endpoint is one route`;
}

/** Add the procedures of router `e` under `prefix`; the reason when it is not read. */
function routerInto(ev: Evaluator, file: string, e: Expr, prefix: string, out: Procedure[], depth: number): string | null {
  if (depth > MAX_DEPTH) return 'routers nested too deep';
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k === 'obj') return recordInto(ev, w.file, x, prefix, out, depth);
  if (x.k === 'call' && x.callee.k !== 'fn') {
    const callee = ev.eval(w.file, x.callee);
    const name = callee.t === 'pkg' ? callee.path[callee.path.length - 1] : undefined;
    if (ofTrpc(callee) && name === 'router' && x.args[0]) return routerInto(ev, w.file, x.args[0], prefix, out, depth + 1);
    if (ofTrpc(callee) && name === 'mergeRouters') {
      for (const a of x.args) {
        const r = routerInto(ev, w.file, a, prefix, out, depth + 1);
        if (r !== null) return r;
      }
      return null;
    }
  }
  return `the router ${prefix ? `at ${prefix.slice(0, -1)} ` : ''}is not known statically`;
}

/** A record of procedures and routers (`t.router`'s argument, or a nested plain object). */
function recordInto(ev: Evaluator, file: string, obj: Extract<Expr, { k: 'obj' }>, prefix: string, out: Procedure[], depth: number): string | null {
  for (const [key, value] of Object.entries(obj.props)) {
    if (key.startsWith('*spread*')) {
      const s = written(ev, file, value, depth);
      if (s.expr.k !== 'obj') return 'a spread in a router is not known statically';
      const r = recordInto(ev, s.file, s.expr, prefix, out, depth + 1);
      if (r !== null) return r;
      continue;
    }
    const p = procedureOf(ev, file, value, depth + 1);
    if (p) {
      out.push({ path: prefix + key, ...p });
      continue;
    }
    const r = routerInto(ev, file, value, `${prefix}${key}.`, out, depth + 1);
    if (r !== null) return r;
  }
  return null;
}

/** `builder.query(fn)` (`mutation`, `subscription`): what it is, where, and the middleware of its builder; null when `e` is none. */
function procedureOf(ev: Evaluator, file: string, e: Expr, depth: number): Omit<Procedure, 'path'> | null {
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k !== 'call' || x.callee.k !== 'member') return null;
  const kind = x.callee.prop;
  if (kind !== 'query' && kind !== 'mutation' && kind !== 'subscription') return null;
  const middleware = builderOf(ev, w.file, x.callee.obj, depth + 1);
  const fn = x.args[0];
  return middleware && { kind, file: w.file, at: x.at, middleware, resolver: fn ? { file: w.file, expr: fn, value: ev.eval(w.file, fn) } : null };
}

/** The middleware a procedure builder runs, in order; null when `e` is no builder known statically. */
function builderOf(ev: Evaluator, file: string, e: Expr, depth: number): Procedure['middleware'] | null {
  if (depth > MAX_DEPTH) return null;
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k === 'member' && x.prop === 'procedure') return ofTrpc(ev.eval(w.file, x.obj)) ? [] : null;
  if (x.k !== 'call' || x.callee.k !== 'member') return null;
  const step = x.callee.prop;
  const before = builderOf(ev, w.file, x.callee.obj, depth + 1);
  if (!before) return null;
  if (BUILDER_STEPS.has(step)) return before;
  if (step !== 'use' || !x.args[0]) return null;
  const mw = written(ev, w.file, x.args[0], depth);
  // `t.middleware(fn)`: the function (named as `.use()` is given it: `isAuthed`)
  const fn = mw.expr.k === 'call' && mw.expr.args[0] && ofTrpc(ev.eval(mw.file, mw.expr.callee)) ? ev.eval(mw.file, mw.expr.args[0]) : ev.eval(w.file, x.args[0]);
  return [...before, { file: w.file, expr: x.args[0], value: fn, at: x.at }];
}

/** The router an endpoint serves: the `router` option of what makes it (`createExpressMiddleware({ router })`); null when `v` has none. */
export function endpointRouter(v: Value): { file: string; expr: Expr } | null {
  return v.t === 'pkg' && v.called ? optionsRouter(v.args[0]) : null;
}

/** The `router` of an endpoint's options (Fastify's `trpcOptions`), as written; null when they have none. */
export function optionsRouter(opts: Value | undefined): { file: string; expr: Expr } | null {
  const router = opts?.t === 'obj' ? opts.props['router'] : undefined;
  return router && opts?.t === 'obj' ? { file: opts.file, expr: router } : null;
}

/** What a procedure runs before answering: its middleware, in order, then the checks leading its resolver. */
export function procedureGuards(ctx: LinkContext, p: Pick<Procedure, 'middleware' | 'resolver'>): AppliedGuard[] {
  return [...middlewareGuards(ctx, p), ...(p.resolver ? ctx.handlerGuards(p.resolver) : [])];
}

/** The guards among a procedure's middleware, in order, each where its builder is given it. */
export function middlewareGuards(ctx: LinkContext, p: Pick<Procedure, 'middleware'>): AppliedGuard[] {
  const out: AppliedGuard[] = [];
  for (const m of p.middleware) {
    const g = ctx.guard(m.file, m.expr, m.value, 'route-middleware', m.at);
    // one that is no guard itself but leads with checks (`const access = await
    // getOrganizationAccess(…); if (!access) throw …`, then `next()`): those checks (LinkContext.stageGuards)
    const stage = ctx.stageGuards(g, m.value);
    if (stage.length > 0) out.push(...stage);
    else if (g) out.push(g);
  }
  return out;
}
