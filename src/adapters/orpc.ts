/**
 * oRPC (@orpc/server and @orpc/openapi 1.x, read at 1.13.14: builder.ts, router-utils.ts,
 * middleware-utils.ts, contract/src/route.ts, adapters/standard/handler.ts, rpc-matcher.ts,
 * openapi-matcher.ts; checked by running 1.13.13, 1.13.14 and 1.16.1): a handler made of a
 * router, `new RPCHandler(router)` or `new OpenAPIHandler(router)`, answers from
 * `handler.handle(request, { prefix })` the procedures of the router. Read as written, never run:
 * - a procedure is a builder chain from `os` ending in `.handler(fn)`: `.use(mw)` adds a
 *   middleware the procedure runs first, in order (`$context()` starts the list again);
 *   `.route({ method, path })` merges into its route (`$route` replaces it); `.input()`,
 *   `.output()`, `.errors()`, `.meta()` change neither. A middleware is a function,
 *   `os.middleware(fn)`, or `oo.spec(mw, …)` of @orpc/openapi (the same middleware);
 * - a router is a plain object of procedures and routers, or `builder.router(obj)`: its
 *   builder's middleware run before each procedure's (unless the procedure's list already
 *   starts with them: leading middleware are not run twice), and its `.prefix()` goes before
 *   the path of each procedure that has one (those without keep none);
 * - RPCHandler serves each procedure at `<prefix>/<keys>` (its keys in the nested routers,
 *   URI-encoded, joined by `/`) for every method but GET, which only a procedure whose route
 *   says GET takes (StrictGetMethodPlugin, on by default, answers the others 405);
 * - OpenAPIHandler serves each at its route's method (POST unless given) and at `<prefix>`
 *   and its route's path (`{id}` a segment, `{+rest}` one or more), `/<keys>` when it has none.
 * - a lazy router, `lazy(() => import('./planet'))` or `builder.lazy(…)`, is the default export
 *   of the module it loads, enhanced by the builder as `builder.router()` would.
 * - a contract implemented with `implement(contract)`: a procedure made from the implementer
 *   at a contract procedure has that procedure's route (@orpc/contract's `oc` chain), after the
 *   prefixes of the contract routers above it, and the middleware used on the implementer.
 * What is not read (a router or builder from a call of the analysed code) leaves the endpoint
 * one route, with the reason.
 * Read in Next.js route handlers, Express and Hono middleware and Fastify route handlers (a
 * function calling `handle`).
 */
import type { Evaluator, Value } from '../link/evaluate.js';
import type { LinkContext } from '../link/link.js';
import type { Expr, Loc, RegistrationFact, Scope } from '../types.js';
import { lazyRouter, written, type Procedure } from './trpc.js';

const MAX_DEPTH = 40;
const SERVER = '@orpc/server';
const OPENAPI = '@orpc/openapi';
const CONTRACT = '@orpc/contract';
/** The packages each kind of handler is made from (its fetch, Node and Fastify adapters). */
const HANDLERS: Record<string, 'rpc' | 'openapi'> = {
  [`${SERVER}/fetch`]: 'rpc',
  [`${SERVER}/node`]: 'rpc',
  [`${SERVER}/fastify`]: 'rpc',
  [`${OPENAPI}/fetch`]: 'openapi',
  [`${OPENAPI}/node`]: 'openapi',
  [`${OPENAPI}/fastify`]: 'openapi',
};
/** Builder steps that change neither the middleware nor the route. */
const KEEPS = new Set(['$config', '$meta', '$input', 'errors', 'meta', 'input', 'output', 'tag', 'callable', 'actionable']);

type Middleware = Procedure['middleware'][number];

/** A procedure of a router: where it is, its route as written, what runs first and what answers. */
export interface OrpcProcedure extends Pick<Procedure, 'file' | 'at' | 'middleware' | 'resolver'> {
  /** its keys in the nested routers */
  keys: string[];
  /** the route's method, upper-case; undefined when none is given */
  method: string | undefined;
  /** the route's path with the prefixes of the routers above it; undefined when none is given */
  path: string | undefined;
}

/** What a builder chain holds so far: its middleware, route and prefix, and the function answering once `.handler()` gave one. */
interface Chain {
  middleware: Middleware[];
  method: string | undefined;
  path: string | undefined;
  prefix: string;
  resolver: { file: string; expr: Expr; value: Value } | null;
  at: Loc | null;
}

/** An endpoint: `handler.handle(request, { prefix })` of a handler made of a router. */
export interface OrpcEndpoint {
  kind: 'rpc' | 'openapi';
  router: { file: string; expr: Expr };
  /** the `prefix` option; '' when none is given, null when not known statically */
  prefix: string | null;
}

function ofPackage(v: Value, pkg: string): v is Extract<Value, { t: 'pkg' }> {
  return v.t === 'pkg' && (v.pkg === pkg || v.pkg.startsWith(`${pkg}/`));
}

/**
 * The oRPC endpoints a function serves: the `handle(…)` calls in its body (in `scope`, the scope
 * of its body, or one nested in it) on a handler made of a router.
 */
function orpcEndpoints(ev: Evaluator, file: string, scopes: readonly Scope[], scope: number, registrations: readonly RegistrationFact[]): OrpcEndpoint[] {
  const within = (s: number): boolean => {
    for (let at: number | null = s; at !== null; at = scopes[at]?.parent ?? null) if (at === scope) return true;
    return false;
  };
  const out: OrpcEndpoint[] = [];
  for (const reg of registrations) {
    if (reg.method !== 'handle' || reg.target.k !== 'ref' || !within(reg.target.scope)) continue;
    const made = written(ev, file, reg.target, 0);
    if (made.expr.k !== 'new' || !made.expr.args[0]) continue;
    const ctor = ev.eval(made.file, made.expr.callee);
    if (ctor.t !== 'pkg' || ctor.path.length !== 1) continue;
    const kind = HANDLERS[ctor.pkg];
    if (kind === undefined || ctor.path[0] !== (kind === 'rpc' ? 'RPCHandler' : 'OpenAPIHandler')) continue;
    // (the options come after the request, and the response on Node and Fastify: `handle(req, reply, { prefix })`)
    const arg = reg.args[/\/(node|fastify)$/.test(ctor.pkg) ? 2 : 1];
    const options = arg ? written(ev, file, arg, 0) : null;
    const given = options?.expr.k === 'obj' ? options.expr.props['prefix'] : undefined;
    const prefix: Value = given === undefined ? { t: 'str', v: '' } : ev.eval(options!.file, given);
    out.push({ kind, router: { file: made.file, expr: made.expr.args[0] }, prefix: prefix.t === 'str' ? prefix.v.replace(/\/$/, '') : null });
  }
  return out;
}

/** Every method a request may have that reaches an endpoint answering all (RPCHandler runs a procedure for any). */
export const ORPC_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/**
 * The routes of the oRPC endpoints the function `handler` serves: each procedure for each of
 * `methods` (those reaching the function) it answers, at each path `served` says reaches the
 * function (oRPC matches the whole path of the request: a path elsewhere is never asked of
 * it). Null when the function serves no endpoint, or (with a warning at `at`) when one is not
 * read: the function is then what it is without oRPC.
 */
export function orpcRoutes(
  ctx: LinkContext,
  handler: Value,
  methods: readonly string[],
  served: (path: string) => boolean,
  at: { file: string; at: Loc; snippet: string },
): { procedure: OrpcProcedure; method: string; path: string }[] | null {
  if (handler.t !== 'fn') return null;
  const facts = ctx.files.get(handler.file);
  const fn = facts?.functions[handler.fn];
  if (!facts || !fn || !facts.registrations.some((reg) => reg.method === 'handle')) return null;
  const endpoints = orpcEndpoints(ctx.ev, handler.file, facts.scopes, fn.scope, facts.registrations);
  if (endpoints.length === 0) return null;
  const out: { procedure: OrpcProcedure; method: string; path: string }[] = [];
  for (const e of endpoints) {
    const found = e.prefix === null ? { why: 'the prefix of the handler is not known statically' } : orpcProcedures(ctx.ev, e.router);
    if ('why' in found) {
      ctx.warn(at.file, at.at, orpcUnread(found.why), at.snippet);
      return null;
    }
    for (const p of found.procedures) for (const r of procedureRoutes(e.kind, e.prefix!, p, methods)) if (served(r.path)) out.push({ procedure: p, ...r });
  }
  return out;
}

/** The procedures of an endpoint's router, or why they are not known statically (the endpoint is then one route). */
function orpcProcedures(ev: Evaluator, router: { file: string; expr: Expr }): { procedures: OrpcProcedure[] } | { why: string } {
  const out: OrpcProcedure[] = [];
  const why = routerInto(ev, router.file, router.expr, [], [], out, 0);
  return why === null ? { procedures: out } : { why };
}

/** The warning for an endpoint whose procedures are not known statically (`why`). */
function orpcUnread(why: string): string {
  return `${why}: the procedures of this oRPC endpoint are not listed, the endpoint is one route`;
}

/**
 * Where and for which methods an endpoint serves a procedure, as route-surface writes paths
 * (`{id}` → `:id`, `{+rest}` → `:rest+`), among `methods` (those reaching the endpoint).
 */
function procedureRoutes(kind: OrpcEndpoint['kind'], prefix: string, p: OrpcProcedure, methods: readonly string[]): { method: string; path: string }[] {
  const keys = `/${p.keys.map(encodeURIComponent).join('/')}`;
  if (kind === 'rpc') {
    const path = `${prefix}${keys}`;
    return methods.filter((m) => m !== 'GET' || p.method === 'GET').map((method) => ({ method, path }));
  }
  const method = p.method ?? 'POST';
  if (!methods.includes(method)) return [];
  // (standardizeHTTPPath: `//` collapsed, the slashes at either end dropped)
  const route = `/${(p.path ?? keys).replace(/\/{2,}/g, '/').replace(/^\/|\/$/g, '')}`;
  const path = `${prefix}${route === '/' ? '' : route}`.replace(/\/\{\+([^}]+)\}/g, '/:$1+').replace(/\/\{([^}]+)\}/g, '/:$1');
  return [{ method, path: path === '' ? '/' : path }];
}

/** Add the procedures of router `e` under `keys`, `enhancers` the builders of the routers above it (outermost first). */
function routerInto(ev: Evaluator, file: string, e: Expr, keys: string[], enhancers: Chain[], out: OrpcProcedure[], depth: number): string | null {
  const where = keys.length > 0 ? `the router at ${keys.join('.')}` : 'the router';
  if (depth > MAX_DEPTH) return 'routers nested too deep';
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k === 'obj') {
    for (const [key, value] of Object.entries(x.props)) {
      if (key.startsWith('*spread*')) {
        const s = written(ev, w.file, value, depth);
        if (s.expr.k !== 'obj') return `a spread in ${where} is not known statically`;
        const r = routerInto(ev, s.file, s.expr, keys, enhancers, out, depth + 1);
        if (r !== null) return r;
        continue;
      }
      const r = routerInto(ev, w.file, value, [...keys, key], enhancers, out, depth + 1);
      if (r !== null) return r;
    }
    return null;
  }
  if (x.k === 'call' && x.callee.k === 'member' && (x.callee.prop === 'router' || x.callee.prop === 'lazy')) {
    // (an implementer's router() adds its middleware, and no prefix: the contract's routes are kept)
    const implementer = implementerAt(ev, w.file, x.callee.obj, depth + 1);
    const builder = implementer ? { middleware: implementer.middleware, method: undefined, path: undefined, prefix: '', resolver: null, at: null } : chainOf(ev, w.file, x.callee.obj, depth + 1);
    if (builder && typeof builder !== 'string' && !builder.resolver) {
      if (!x.args[0]) return `${where} is not known statically`;
      if (x.callee.prop === 'lazy') return lazyInto(ev, w.file, x.args, keys, [...enhancers, builder], out, depth + 1);
      return routerInto(ev, w.file, x.args[0], keys, [...enhancers, builder], out, depth + 1);
    }
  }
  const chain = chainOf(ev, w.file, x, depth + 1);
  if (typeof chain === 'string') return chain;
  if (chain?.resolver && keys.length > 0) {
    let middleware = chain.middleware;
    let path = chain.path;
    // (router-utils.ts enhanceRouter, from the innermost router out)
    for (let i = enhancers.length - 1; i >= 0; i--) {
      const r = enhancers[i]!;
      middleware = startsWith(middleware, r.middleware) ? middleware : [...r.middleware, ...middleware];
      if (path !== undefined && r.prefix !== '') path = `${r.prefix}${path}`;
    }
    out.push({ keys, file: w.file, at: chain.at!, middleware, resolver: chain.resolver, method: chain.method, path });
    return null;
  }
  const callee = x.k === 'call' ? ev.eval(w.file, x.callee) : null;
  if (x.k === 'call' && callee && ofPackage(callee, SERVER) && callee.path.length === 1 && callee.path[0] === 'lazy') return lazyInto(ev, w.file, x.args, keys, enhancers, out, depth + 1);
  return `${where} is not known statically`;
}

/**
 * Add the procedures of the router `lazy(load)` (or `builder.lazy(load)`) loads: the default
 * export of the module `load` imports (lazy.ts `unlazy`), enhanced as a router written in
 * place (router-utils.ts `enhanceRouter` runs on it once loaded). A prefix hint (`lazy(load, {
 * prefix })`), which the OpenAPI matcher trusts before loading, is not read.
 */
function lazyInto(ev: Evaluator, file: string, args: Expr[], keys: string[], enhancers: Chain[], out: OrpcProcedure[], depth: number): string | null {
  const where = `the lazy router${keys.length > 0 ? ` at ${keys.join('.')}` : ''}`;
  if (!args[0] || args.length > 1) return `${where} is not known statically${args[1] ? ' (it is given a prefix hint)' : ''}`;
  const loaded = lazyRouter(ev, file, args[0], depth, 'default');
  if ('why' in loaded) return `${where} is not known statically (${loaded.why})`;
  return routerInto(ev, loaded.file, loaded.expr, keys, enhancers, out, depth + 1);
}

/** Does `list` start with `head` (the same middleware, in order: middleware-utils.ts `isStartWithMiddlewares`)? */
function startsWith(list: readonly Middleware[], head: readonly Middleware[]): boolean {
  if (head.length > list.length) return false;
  return head.every((m, i) => sameMiddleware(m, list[i]!));
}

function sameMiddleware(a: Middleware, b: Middleware): boolean {
  if (a.value.t === 'fn' && b.value.t === 'fn') return a.value.file === b.value.file && a.value.fn === b.value.fn;
  return a.file === b.file && a.at.line === b.at.line && a.at.column === b.at.column;
}

/**
 * What the builder chain `e` holds: null when `e` is no chain from `os`, or why a step of it
 * is not known statically.
 */
function chainOf(ev: Evaluator, file: string, e: Expr, depth: number): Chain | string | null {
  if (depth > MAX_DEPTH) return null;
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k !== 'call' || x.callee.k !== 'member') {
    const v = ev.eval(w.file, x);
    // (`os`, or a contract's `oc`, whose builder is the procedure a contract holds)
    if (v.t === 'pkg' && v.path.length === 1 && !v.called && ((v.pkg === SERVER && v.path[0] === 'os') || (v.pkg === CONTRACT && v.path[0] === 'oc')))
      return { middleware: [], method: undefined, path: undefined, prefix: '', resolver: null, at: null };
    return implementedProcedure(ev, implementerAt(ev, w.file, x, depth + 1), depth + 1);
  }
  const step = x.callee.prop;
  const implementer = IMPLEMENTER_STEPS.has(step) ? implementerAt(ev, w.file, x, depth + 1) : null;
  if (implementer) return implementedProcedure(ev, implementer, depth + 1);
  const before = chainOf(ev, w.file, x.callee.obj, depth + 1);
  if (before === null || typeof before === 'string') return before;
  const arg = x.args[0];
  if (KEEPS.has(step)) return before;
  switch (step) {
    case '$context':
      return { ...before, middleware: [] };
    case 'use':
      return arg ? { ...before, middleware: [...before.middleware, middlewareOf(ev, w.file, arg, x.at, depth)] } : null;
    case 'route':
    case '$route': {
      const route = arg ? written(ev, w.file, arg, depth) : null;
      if (route?.expr.k !== 'obj') return 'a route not known statically';
      const text = (key: 'method' | 'path'): string | undefined | null => {
        const given = (route.expr as Extract<Expr, { k: 'obj' }>).props[key];
        if (given === undefined) return undefined;
        const v = ev.eval(route.file, given);
        return v.t === 'str' ? v.v : null;
      };
      const method = text('method');
      const path = text('path');
      if (method === null || path === null) return `the ${method === null ? 'method' : 'path'} of a route not known statically`;
      const base = step === 'route' ? before : { ...before, method: undefined, path: undefined };
      return { ...base, ...(method !== undefined ? { method: method.toUpperCase() } : {}), ...(path !== undefined ? { path } : {}) };
    }
    case 'prefix': {
      const v = arg ? ev.eval(w.file, arg) : null;
      return v?.t === 'str' ? { ...before, prefix: `${before.prefix}${v.v}` } : 'a router prefix not known statically';
    }
    case 'handler':
      return arg && !before.resolver ? { ...before, resolver: { file: w.file, expr: arg, value: ev.eval(w.file, arg) }, at: x.at } : null;
    default:
      return null;
  }
}

/** The steps of an implementer (`implement(contract)`) that keep it one. */
const IMPLEMENTER_STEPS = new Set(['use', '$context', '$config']);

/** Where an implementer stands in its contract (a router or a procedure of it) and the middleware used on it. */
interface Implementer {
  contract: { file: string; expr: Expr };
  /** the prefixes of the contract routers above it (`oc.prefix('/sites').router({ … })`), outermost first */
  prefix: string;
  middleware: Middleware[];
}

/**
 * The implementer `e` is (server/src/implementer.ts, read at 1.13.14): `implement(contract)`, a
 * key of it (`os.sites.list`: that part of the contract), `.use(mw)` (its middleware added for
 * everything made from it) or `$context()` / `$config()` (made again, without middleware: the
 * top implementer, or a procedure's builder starting its list again); null for anything else.
 */
function implementerAt(ev: Evaluator, file: string, e: Expr, depth: number): Implementer | null {
  if (depth > MAX_DEPTH) return null;
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k === 'member') {
    const at = implementerAt(ev, w.file, x.obj, depth + 1);
    return at && contractAt(ev, at, x.prop, depth + 1);
  }
  if (x.k !== 'call') return null;
  if (x.callee.k === 'member' && IMPLEMENTER_STEPS.has(x.callee.prop)) {
    const at = implementerAt(ev, w.file, x.callee.obj, depth + 1);
    if (!at) return null;
    if (x.callee.prop !== 'use') return { ...at, middleware: [] };
    return x.args[0] ? { ...at, middleware: [...at.middleware, middlewareOf(ev, w.file, x.args[0], x.at, depth)] } : null;
  }
  const callee = ev.eval(w.file, x.callee);
  return x.args[0] && callee.t === 'pkg' && callee.pkg === SERVER && callee.path.length === 1 && callee.path[0] === 'implement' && !callee.called
    ? { contract: { file: w.file, expr: x.args[0] }, prefix: '', middleware: [] }
    : null;
}

/**
 * The implementer at `key` of the contract router `at` stands in: a key of a plain object, or
 * of `oc.prefix(p).router({ … })` (contract/src/router-utils.ts enhanceContractRouter: `p` goes
 * before the path of each procedure in it that has one); null for anything else.
 */
function contractAt(ev: Evaluator, at: Implementer, key: string, depth: number): Implementer | null {
  let w = written(ev, at.contract.file, at.contract.expr, depth);
  let prefix = at.prefix;
  if (w.expr.k === 'call' && w.expr.callee.k === 'member' && w.expr.callee.prop === 'router' && w.expr.args[0]) {
    const builder = chainOf(ev, w.file, w.expr.callee.obj, depth + 1);
    if (!builder || typeof builder === 'string') return null;
    prefix = `${prefix}${builder.prefix}`;
    w = written(ev, w.file, w.expr.args[0], depth);
  }
  const next = w.expr.k === 'obj' ? w.expr.props[key] : undefined;
  return next ? { ...at, contract: { file: w.file, expr: next }, prefix } : null;
}

/**
 * The procedure builder an implementer at a contract procedure is (a server builder holding
 * the procedure's route, its path after the contract routers' prefixes, and the implementer's
 * middleware); null when there is no implementer, or it stands at no procedure.
 */
function implementedProcedure(ev: Evaluator, at: Implementer | null, depth: number): Chain | string | null {
  const procedure = at ? chainOf(ev, at.contract.file, at.contract.expr, depth + 1) : null;
  if (!at || !procedure || typeof procedure === 'string') return procedure;
  const path = procedure.path !== undefined ? `${at.prefix}${procedure.path}` : undefined;
  return { middleware: at.middleware, method: procedure.method, path, prefix: '', resolver: null, at: null };
}

/** A middleware given to `.use()`: the function itself, through `os.middleware(fn)` and `oo.spec(mw, …)`. */
function middlewareOf(ev: Evaluator, file: string, arg: Expr, at: Loc, depth: number): Middleware {
  let f = file;
  let e = arg;
  for (let i = depth; i < MAX_DEPTH; i++) {
    const w = written(ev, f, e, i);
    const x = w.expr;
    if (x.k !== 'call' || x.callee.k !== 'member' || !x.args[0]) break;
    const wraps =
      (x.callee.prop === 'middleware' && (chainOf(ev, w.file, x.callee.obj, i + 1) !== null || implementerAt(ev, w.file, x.callee.obj, i + 1) !== null)) ||
      (x.callee.prop === 'spec' && ((v) => v.t === 'pkg' && ofPackage(v, OPENAPI) && v.path.join('.') === 'oo')(ev.eval(w.file, x.callee.obj)));
    if (!wraps) break;
    f = w.file;
    e = x.args[0];
  }
  return { file, expr: arg, value: ev.eval(f, e), at };
}
