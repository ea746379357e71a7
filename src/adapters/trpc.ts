/**
 * tRPC (@trpc/server 10 and 11, read at 11.x src/unstable-core-do-not-import: router.ts,
 * procedureBuilder.ts, http/resolveResponse.ts, and the adapters): an endpoint made of a router
 * serves each procedure at `<endpoint>/<path>`, the path its keys in the nested routers joined
 * with dots (`post.byId`) — a query by GET, a mutation by POST, a subscription by GET (server-sent
 * events in 11), a query and a subscription by POST too where the endpoint's options say
 * `allowMethodOverride` — and a request may batch several (`/post.byId,user.me?batch=1`), each run as its
 * own. Read as written, never run:
 * - a router is `t.router({ … })` of an instance `initTRPC…create()` (also through a name for it,
 *   `createTRPCRouter = t.router`), `t.mergeRouters(a, b)`, or, in 11, a plain object of
 *   procedures and routers nested in one; spreads of objects known statically are read;
 * - in 11, `lazy(() => import('./user'))` (`experimental_lazy` before 11.0) stands for the router
 *   the module loads (router.ts `lazy`): the one value it exports, or the export the callback
 *   reads (`import('./user').then((m) => m.userRouter)`);
 * - a procedure is a builder chain ending in `.query(fn)`, `.mutation(fn)` or
 *   `.subscription(fn)`, from `t.procedure` through `.use(middleware)` (each a middleware the
 *   procedure runs first, in order), `.input()`, `.output()`, `.meta()`, `.concat(builder)` (the
 *   middleware of both, in order), through the names the builders are kept under
 *   (`protectedProcedure = t.procedure.use(isAuthed)`), a function returning one
 *   (`requiresPermission('admin')`) and a `? :` of two (what both run, when the test is not known
 *   statically); a middleware is a function or `t.middleware(fn)`.
 * What is not read (a router or builder from a call of the analysed code) leaves the endpoint's
 * routes out, with the reason.
 */
import { headerCredentialOf, orderKinds } from '../guards.js';
import { exprName, type Evaluator, type Value } from '../link/evaluate.js';
import { truthOf } from '../link/conditions.js';
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
  /** the function its endpoint makes each request's context with, when from a request header only (headerContext) */
  context?: string;
  /** the builder `.query(fn)` (`mutation`, `subscription`) is called on, as written: what carries its meta (trpc-openapi.ts) */
  builder: { file: string; expr: Expr };
}

/** The HTTP methods a procedure of each kind is served for. */
const PROCEDURE_METHODS: Record<Procedure['kind'], string> = { query: 'GET', mutation: 'POST', subscription: 'GET' };

/**
 * The HTTP methods a procedure of `kind` is served for by an endpoint made with `opts`: a query
 * or a subscription by POST too where the endpoint's `allowMethodOverride` is true, or not known
 * statically to be false (11's http/resolveResponse.ts, TYPE_ACCEPTED_METHOD_MAP_WITH_METHOD_OVERRIDE;
 * a mutation is never served by GET).
 */
export function procedureMethods(ev: Evaluator, kind: Procedure['kind'], opts: Value | undefined): string[] {
  const method = PROCEDURE_METHODS[kind];
  const given = opts?.t === 'obj' ? opts.props['allowMethodOverride'] : undefined;
  if (kind === 'mutation' || !given || opts?.t !== 'obj' || truthOf(ev, opts.file, { k: 'truthy', e: given }) === false) return [method];
  return [method, 'POST'];
}

export const MAX_DEPTH = 40;
const BUILDER_STEPS = new Set(['input', 'output', 'meta']);
const LAZY = new Set(['lazy', 'experimental_lazy']);
/** `concat` (`unstable_concat` in 11's betas) */
export const CONCAT = new Set(['concat', 'unstable_concat']);

/** Is `v` a value of @trpc/server (an instance `t`, or something of it)? */
export function ofTrpc(v: Value): boolean {
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
export function trpcProcedures(ev: Evaluator, router: { file: string; expr: Expr } | null, opts?: Value): { procedures: Procedure[] } | { why: string } {
  const unknown = { why: 'the router is not known statically' };
  if (!router) return unknown;
  const out: Procedure[] = [];
  // (the endpoint's router is one a router call makes: a plain object is one only nested in one)
  if (written(ev, router.file, router.expr, 0).expr.k === 'obj') return unknown;
  const why = routerInto(ev, router.file, router.expr, '', out, 0);
  if (why !== null) return { why };
  // (the endpoint's options, `opts`: its `createContext`)
  const context = headerContext(ev, opts);
  if (context !== null) for (const p of out) p.context = context;
  return { procedures: out };
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
    if (ofTrpc(callee) && name !== undefined && LAZY.has(name) && x.args[0]) {
      const loaded = lazyRouter(ev, w.file, x.args[0], depth + 1);
      if ('why' in loaded) return `the lazy router ${prefix ? `at ${prefix.slice(0, -1)} ` : ''}is not known statically (${loaded.why})`;
      return routerInto(ev, loaded.file, loaded.expr, prefix, out, depth + 1);
    }
    if (ofTrpc(callee) && name === 'mergeRouters') {
      for (const a of x.args) {
        const r = routerInto(ev, w.file, a, prefix, out, depth + 1);
        if (r !== null) return r;
      }
      return null;
    }
    // `createAppRouter(config)`: a function of the analysed code returning the router
    const made = ofTrpc(callee) ? null : returnedBy(ev, w.file, x);
    if (made) return routerInto(ev, made.file, made.expr, prefix, out, depth + 1);
  }
  return `the router ${prefix ? `at ${prefix.slice(0, -1)} ` : ''}is not known statically`;
}

/**
 * The router `lazy(load)` loads, as written: `load` returns `import(spec)` — for tRPC the
 * module's one export (tRPC takes `Object.values(module)`, which must be exactly one router),
 * for oRPC (`pick: 'default'`) its default export (lazy.ts `unlazy` reads `default`) — or
 * `import(spec).then((m) => m.name)`, the export it reads (for oRPC, `(m) => ({ default: m.name })`).
 */
export function lazyRouter(ev: Evaluator, file: string, load: Expr, depth: number, pick: 'only' | 'default' = 'only'): { file: string; expr: Expr } | { why: string } {
  const fn = written(ev, file, load, depth);
  const returned = fn.expr.k === 'fn' ? ev.returnsOf(fn.file, fn.expr.id) : [];
  if (returned.length !== 1) return { why: 'what it loads is not one import()' };
  let loaded = { file: fn.file, expr: returned[0]! };
  let name: string | null = pick === 'default' ? 'default' : null;
  const r = loaded.expr;
  if (r.k === 'call' && r.callee.k === 'member' && r.callee.prop === 'then' && isImport(r.callee.obj)) {
    // (the callback's parameter stands for what the promise resolves to: the import() call)
    const cb = r.args[0] ? written(ev, fn.file, r.args[0], depth) : null;
    const read = cb?.expr.k === 'fn' ? ev.returnsOf(cb.file, cb.expr.id) : [];
    const one = read.length === 1 ? read[0]! : null;
    const m = pick === 'default' ? (one?.k === 'obj' ? one.props['default'] : undefined) : one;
    if (!cb || m?.k !== 'member') return { why: 'what its then() callback returns is not an export of the module' };
    loaded = written(ev, cb.file, m.obj, depth);
    name = m.prop;
  }
  const spec = isImport(loaded.expr) ? loaded.expr.args[0] : undefined;
  if (!spec) return { why: 'what it loads is not one import()' };
  const s = ev.eval(loaded.file, spec);
  const target = s.t === 'str' ? ev.resolveModule(loaded.file, s.v) : null;
  const facts = target ? ev.files.get(target) : undefined;
  if (!target || !facts) return { why: `the module ${s.t === 'str' ? `'${s.v}' is not among the analysed files` : 'it imports is not known statically'}` };
  if (name === null) {
    const names = new Set(facts.exports.map((x) => x.exported));
    if (names.has('*') || names.size !== 1) return { why: `${target} does not export exactly one value` };
    name = [...names][0]!;
  }
  const def = ev.exportDefinition(target, name);
  return def ? { file: def.file, expr: def.expr } : { why: `${target} has no export ${name}` };
}

/** `import(spec)`: a dynamic import (extract.ts writes its callee `import`). */
function isImport(e: Expr): e is Extract<Expr, { k: 'call' }> {
  return e.k === 'call' && e.callee.k === 'ref' && e.callee.name === 'import' && e.args.length > 0;
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
  if (depth > MAX_DEPTH) return null;
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k !== 'call') return null;
  const kind = x.callee.k === 'member' ? x.callee.prop : null;
  if (x.callee.k !== 'member' || (kind !== 'query' && kind !== 'mutation' && kind !== 'subscription')) {
    // `getStatus: queryFirewall(handler)`: a function of the analysed code returning a procedure
    const made = returnedBy(ev, w.file, x);
    return made && procedureOf(ev, made.file, made.expr, depth + 1);
  }
  const middleware = builderOf(ev, w.file, x.callee.obj, depth + 1);
  const fn = x.args[0];
  return middleware && { kind, file: w.file, at: x.at, middleware, resolver: fn ? { file: w.file, expr: fn, value: ev.eval(w.file, fn) } : null, builder: { file: w.file, expr: x.callee.obj } };
}

/** The middleware a procedure builder runs, in order; null when `e` is no builder known statically. */
function builderOf(ev: Evaluator, file: string, e: Expr, depth: number): Procedure['middleware'] | null {
  if (depth > MAX_DEPTH) return null;
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k === 'member' && x.prop === 'procedure') return ofTrpc(ev.eval(w.file, x.obj)) ? [] : null;
  if (x.k === 'choice') return choiceBuilder(ev, w.file, x, depth + 1);
  if (x.k !== 'call') return null;
  const before = x.callee.k === 'member' ? builderOf(ev, w.file, x.callee.obj, depth + 1) : null;
  if (!before || x.callee.k !== 'member') return madeBuilder(ev, w.file, x, depth + 1);
  const step = x.callee.prop;
  if (BUILDER_STEPS.has(step)) return before;
  // `a.concat(b)`: a's middleware, then every one b runs (procedureBuilder.ts createNewBuilder)
  if (CONCAT.has(step) && x.args[0]) {
    const after = builderOf(ev, w.file, x.args[0], depth + 1);
    return after && [...before, ...after];
  }
  if (step !== 'use' || !x.args[0]) return null;
  const given = { file: w.file, expr: x.args[0] };
  // (a function without a name of its own, piped in a middleware made elsewhere, is named as `.use()` is given that)
  const fns = middlewareOf(ev, w.file, x.args[0], depth + 1)?.map((m) => (exprName(m.expr) === null ? { ...m, ...given } : m)) ?? [{ ...given, value: ev.eval(w.file, x.args[0]) }];
  return [...before, ...fns.map((m) => ({ ...m, at: x.at }))];
}

type Middleware = { file: string; expr: Expr; value: Value };

/**
 * The functions a middleware of tRPC's given to `.use()` runs, in order (middleware.ts,
 * createMiddlewareFactory): `t.middleware(fn)` runs `fn` (named as `.use()` is given it:
 * `isAuthed`); `a.unstable_pipe(b)` runs a's and then b's (each a function or a middleware of
 * tRPC's); a function of the analysed code returning one of those, what it returns
 * (`.use(createWorkspacePermissionMiddleware())`). Null for anything else.
 */
function middlewareOf(ev: Evaluator, file: string, e: Expr, depth: number): Middleware[] | null {
  if (depth > MAX_DEPTH) return null;
  const mw = written(ev, file, e, depth);
  const x = mw.expr;
  if (x.k !== 'call') return null;
  if (x.args[0] && x.callee.k === 'member' && x.callee.prop === 'unstable_pipe') {
    const part = (p: Expr): Middleware[] => middlewareOf(ev, mw.file, p, depth + 1) ?? [{ file: mw.file, expr: p, value: ev.eval(mw.file, p) }];
    return [...part(x.callee.obj), ...part(x.args[0])];
  }
  if (x.args[0] && ofTrpc(ev.eval(mw.file, x.callee))) return [{ file, expr: e, value: ev.eval(mw.file, x.args[0]) }];
  const made = returnedBy(ev, mw.file, x);
  const inner = made && middlewareOf(ev, made.file, made.expr, depth + 1);
  // (one function: named by the call that made it, `cacher` of `const cacher = cacheMiddleware(ttl)`)
  return inner?.length === 1 ? [{ file, expr: e, value: inner[0]!.value }] : inner;
}

/**
 * `demo ? t.procedure.use(readOnly) : t.procedure`: the branch the test takes when it is known
 * statically; else the middleware both branches run (in the order they run it) — one that only a
 * branch runs guards a procedure only under a condition not known statically, and is left out.
 */
function choiceBuilder(ev: Evaluator, file: string, x: Extract<Expr, { k: 'choice' }>, depth: number): Procedure['middleware'] | null {
  const holds = truthOf(ev, file, x.test);
  if (holds !== null) return builderOf(ev, file, holds ? x.then : x.otherwise, depth);
  const a = builderOf(ev, file, x.then, depth);
  const b = builderOf(ev, file, x.otherwise, depth);
  if (!a || !b) return null;
  const at = (m: Procedure['middleware'][number]): string => `${m.file}:${m.at.line}:${m.at.column}`;
  const inB = new Set(b.map(at));
  return a.filter((m) => inB.has(at(m)));
}

/**
 * The builder a function of the analysed code returns (`onboardingProcedure.requiresStep('user')`,
 * a function returning `publicProcedure.use(…)`): the middleware of the one builder it returns;
 * null when it returns anything else.
 */
function madeBuilder(ev: Evaluator, file: string, call: Extract<Expr, { k: 'call' }>, depth: number): Procedure['middleware'] | null {
  const made = depth > MAX_DEPTH ? null : returnedBy(ev, file, call);
  return made && builderOf(ev, made.file, made.expr, depth + 1);
}

/** What the function of the analysed code that `call` runs returns, when it returns one expression; null otherwise. */
export function returnedBy(ev: Evaluator, file: string, call: Extract<Expr, { k: 'call' }>): { file: string; expr: Expr } | null {
  const fn = ev.calledFn(file, call.callee);
  const returned = fn ? ev.returnsOf(fn.file, fn.fn) : [];
  return returned.length === 1 ? { file: fn!.file, expr: returned[0]! } : null;
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

/**
 * The function an endpoint's options make each request's context with (`createContext`), when it
 * reads its credential from a request header only (guards.ts headerCredentialOf: midday's
 * `createTRPCContext` verifying `c.req.header('Authorization')`) and puts no part of the request
 * itself in the context (`{ token, req }` lets a procedure read its cookies): its name, or null.
 * A check of what that context holds refuses a forged cross-site request, which carries no such header.
 */
function headerContext(ev: Evaluator, opts: Value | undefined): string | null {
  const given = opts?.t === 'obj' ? opts.props['createContext'] : undefined;
  if (!given || opts?.t !== 'obj') return null;
  let v = ev.eval(opts.file, given);
  if (v.t === 'fn' && !headerCredentialOf(ev, v)) v = contextWrapped(ev, v) ?? v;
  if (v.t !== 'fn' || !headerCredentialOf(ev, v)) return null;
  const handsRequestOn = ev.returnsOf(v.file, v.fn).some((r) => {
    const made = ev.eval(v.file, r);
    return made.t !== 'obj' || Object.values(made.props).some((p) => {
      const x = ev.eval(made.file, p);
      return x.t === 'param' && x.file === v.file && x.fn === v.fn;
    });
  });
  return handsRequestOn ? null : (ev.fnOf(v.file, v.fn)?.name ?? exprName(given) ?? 'createContext');
}

/**
 * The function a `createContext` answers with, when all it does is call one of the analysed code
 * (the App Router's `createContext: () => createTRPCContext({ headers: req.headers })`, handing
 * it the request's headers): the function that makes the context; null otherwise.
 */
function contextWrapped(ev: Evaluator, v: Extract<Value, { t: 'fn' }>): Extract<Value, { t: 'fn' }> | null {
  const [returned, ...more] = ev.returnsOf(v.file, v.fn);
  if (returned?.k !== 'call' || more.length > 0) return null;
  const called = ev.eval(v.file, returned.callee);
  return called.t === 'fn' ? called : null;
}

/** A procedure's own guards under a context `headerContext` names: each auth guard a bearer guard too. */
export function underHeaderContext(guards: AppliedGuard[], context: string | undefined): AppliedGuard[] {
  if (context === undefined) return guards;
  return guards.map((g) =>
    g.kinds.includes('auth') && !g.kinds.includes('bearer')
      ? { ...g, kinds: orderKinds(new Set([...g.kinds, 'bearer'])), reason: `${g.reason}; bearer: what it checks is the context ${context}() makes, reading its credential from a request header only` }
      : g,
  );
}

/** What a procedure runs before answering: its middleware, in order, then the checks leading its resolver. */
export function procedureGuards(ctx: LinkContext, p: Pick<Procedure, 'middleware' | 'resolver' | 'context'>): AppliedGuard[] {
  return [...middlewareGuards(ctx, p), ...underHeaderContext(p.resolver ? ctx.handlerGuards(p.resolver) : [], p.context)];
}

/** The guards among a procedure's middleware, in order, each where its builder is given it. */
export function middlewareGuards(ctx: LinkContext, p: Pick<Procedure, 'middleware' | 'context'>): AppliedGuard[] {
  const out: AppliedGuard[] = [];
  for (const m of p.middleware) {
    const g = ctx.guard(m.file, m.expr, m.value, 'route-middleware', m.at);
    // one that is no guard itself but leads with checks (`const access = await
    // getOrganizationAccess(…); if (!access) throw …`, then `next()`): those checks (LinkContext.stageGuards)
    const stage = ctx.stageGuards(g, m.value);
    if (stage.length > 0) out.push(...stage);
    else if (g) out.push(g);
  }
  return underHeaderContext(out, p.context);
}
