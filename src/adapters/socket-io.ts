/**
 * socket.io servers attached to an app's HTTP server (read at socket.io 4.8 lib/index.ts and
 * engine.io 6.6 lib/server.ts, lib/userver.ts): `new Server(httpServer, options)` (also
 * `require('socket.io')(httpServer, options)`, the default export), or one made without a server
 * and attached later (`io.attach(httpServer, options)`, `io.listen(httpServer)`). engine.io
 * takes over the HTTP server's `request` listeners: every request whose path starts with
 * `options.path` ('/socket.io' unless given) is answered by engine.io before the app sees it, so
 * no middleware, prefix or guard of the app applies — GET and POST (the polling transport sends
 * with POST), only GET, the upgrade, when `transports` leaves out polling. What refuses a
 * connection is the server's `io.use(fn)` middleware (`next(new Error(…))`), applied to every
 * connection in registration order: read as guards by their names and bodies, as middleware is
 * (one refusing with `next(new Error(…))` whose message says the connection is not authenticated,
 * `'Unauthorized'`, is an auth guard; for a reason neither says, a candidate).
 *
 * The HTTP server is the app's when it is `http.createServer(app)` (or `https.createServer(options,
 * app)`, Koa's `app.callback()` in place of the app) or what `app.listen(…)` returns, through the
 * names it is kept under. A server listening on a port of its own (`new Server(3001)`) is another
 * server: not listed.
 */
import type { LinkContext } from '../link/link.js';
import { exprName, type RouterObject, type Value } from '../link/evaluate.js';
import { classifyGuard } from '../guards.js';
import type { AppliedGuard, CallFact, Expr } from '../types.js';

const SOCKET_IO = 'socket.io';
const HTTP_MODULES = new Set(['http', 'https', 'node:http', 'node:https', 'http2', 'node:http2']);
/** How many names a server is followed through to what made it. */
const MAX_HOPS = 8;

/** Calls that may make or attach a socket.io server (Adapter.readsCall): `new Server(…)`, `io.attach(…)`, `require('socket.io')(…)`. */
export function mayAttachSocketIo(call: CallFact): boolean {
  const c = call.callee;
  return call.args.length > 0 && (c.k === 'ref' || c.k === 'call' || (c.k === 'member' && (c.prop === 'attach' || c.prop === 'listen' || c.prop === 'Server')));
}

/** `require('socket.io')`, called at once (`require('socket.io')(server)`): no import binds it. */
function requiresSocketIo(e: Expr): boolean {
  return e.k === 'call' && e.callee.k === 'ref' && e.callee.name === 'require' && e.args.length === 1 && e.args[0]!.k === 'str' && e.args[0].v === SOCKET_IO;
}

/** Is `v` socket.io's server class or its default export (the function making one)? */
function isServerMaker(v: Value): boolean {
  return v.t === 'pkg' && v.pkg === SOCKET_IO && !v.made && (v.path.length === 0 || (v.path.length === 1 && (v.path[0] === 'Server' || v.path[0] === 'default')));
}

/** Is `v` Node's `http.createServer` (`https`, `http2`; `new http.Server`), before or after the call? */
export function isHttpServerMaker(v: Value): boolean {
  return v.t === 'pkg' && HTTP_MODULES.has(v.pkg) && (v.path.join('.') === 'createServer' || v.path.join('.') === 'Server');
}

/** Is `v` a socket.io server's `attach` or `listen` (`io.attach(httpServer)`)? */
function isAttach(v: Value): boolean {
  const last = v.t === 'pkg' ? v.path[v.path.length - 1] : undefined;
  return v.t === 'pkg' && v.pkg === SOCKET_IO && !!v.made && (last === 'attach' || last === 'listen');
}

/**
 * Lists the socket.io endpoints on the HTTP servers of `framework`'s apps: a route per method at
 * `<path>/*` (matched exactly, as engine.io matches its path), located at the call making or
 * attaching the server, behind its `io.use` middleware.
 */
export function addSocketIoRoutes(ctx: LinkContext, framework: string): void {
  const ev = ctx.ev;
  for (const [file, facts] of ctx.files) {
    if (!facts.imports.some((i) => i.source === SOCKET_IO) && !facts.calls.some((c) => requiresSocketIo(c.callee))) continue;
    for (const call of facts.calls) {
      if (!mayAttachSocketIo(call)) continue;
      const callee = ev.eval(file, call.callee);
      // (`io.attach(httpServer, options)`: the options of both calls, those of the later one first)
      const attached = isAttach(callee) ? callee : null;
      if (!attached && !isServerMaker(callee)) continue;
      const [server, given] = call.args;
      if (!server) continue;
      const apps = appsOf(ctx, file, server, framework);
      if (apps.length === 0) continue;
      const options = [given ? ev.eval(file, given) : undefined, ...(attached?.t === 'pkg' ? attached.made ?? [] : [])].filter((o): o is Extract<Value, { t: 'obj' }> => o?.t === 'obj');
      const option = (key: string): Value | undefined => {
        for (const o of options) if (Object.hasOwn(o.props, key)) return ev.member(o, key, 0);
        return undefined;
      };
      const path = option('path');
      if (path && path.t !== 'str') {
        ctx.warn(file, call.at, `the path of this socket.io server is not known statically; its endpoint is left out`, call.snippet);
        continue;
      }
      const transports = option('transports');
      const only = transports?.t === 'arr' && transports.items.every((t) => t.t === 'str') ? transports.items.map((t) => (t as { v: string }).v) : null;
      const methods = only && !only.includes('polling') ? ['GET'] : ['GET', 'POST'];
      const base = (path?.t === 'str' ? path.v : '/socket.io').replace(/\/$/, '');
      const made = attached?.t === 'pkg' ? (attached.made ?? []) : call.args.map((a) => ev.eval(file, a));
      const guards = middlewareGuards(ctx, made);
      for (const app of apps)
        for (const method of methods) {
          if (!ctx.expand(file, call.at, call.snippet)) return;
          ctx.addRoute(
            { method, path: `${base}/*`, file, line: call.at.line, column: call.at.column, snippet: call.snippet, framework, handler: SOCKET_IO, app: app.name ?? 'app', trailingSlashInsensitive: false, caseSensitive: true, prefixes: [], guards, handlerFn: null },
            app,
          );
        }
    }
  }
}

/**
 * The apps of `framework` whose HTTP server `server` (written in `file`) is: `http.createServer(app)`,
 * `app.listen(…)`, through the names it is kept under, and through a function's parameter to what
 * each call of the function hands it (briefer's `createSocketServer(server)`, `level` calls out);
 * none for any other.
 */
function appsOf(ctx: LinkContext, file: string, server: Expr, framework: string, level = 0): RouterObject[] {
  const made = madeBy(ctx, file, server);
  const app = appOf(ctx, file, server, made, framework);
  if (app) return [app];
  const p = made?.expr.k === 'param' && made.expr.name !== '' ? { file: made.file, ...made.expr } : null;
  if (!p || level >= MAX_CALLER_LEVELS) return [];
  const out: RouterObject[] = [];
  for (const c of ctx.ev.callsOf(p.file, p.fn)) {
    const arg = c.call.args[p.index];
    for (const a of arg ? appsOf(ctx, c.file, arg, framework, level + 1) : []) if (!out.includes(a)) out.push(a);
  }
  return out;
}

/** How many calls out a parameter a server is handed in is followed (appsOf). */
const MAX_CALLER_LEVELS = 4;

/**
 * What makes `e` (in `file`), through the names it is kept under: the expression a name is first
 * given that is no other name, or a parameter of a function of the code; null when a name has no
 * definition.
 */
function madeBy(ctx: LinkContext, file: string, e: Expr): { file: string; expr: Expr } | null {
  let f = file;
  let x = e;
  for (let i = 0; i < MAX_HOPS; i++) {
    if (x.k === 'at') {
      f = x.file;
      x = x.e;
      continue;
    }
    if (x.k !== 'ref') break;
    const def = ctx.ev.definitionOf(f, x.scope, x.name);
    if (!def) return null;
    f = def.file;
    x = def.expr;
  }
  return { file: f, expr: x };
}

/** The app of `framework` whose HTTP server `server` (written in `file`, made by `made`: madeBy) is, as appsOf reads it but for parameters. */
function appOf(ctx: LinkContext, file: string, server: Expr, made: { file: string; expr: Expr } | null, framework: string): RouterObject | null {
  const ev = ctx.ev;
  // (`this.httpServer = http.createServer(this.app)`: what the evaluator makes of it, through fields and parameters)
  const value = ev.eval(file, server);
  const alternatives = value.t === 'unknown' && value.alts ? value.alts : [value];
  for (const v of alternatives) {
    if (!isHttpServerMaker(v) || v.t !== 'pkg' || !v.called) continue;
    for (const a of v.args) {
      const app = a.t === 'router' ? ctx.routersOf(framework).find((r) => r.id === a.id) : undefined;
      if (app) return app;
    }
  }
  if (!made || (made.expr.k !== 'call' && made.expr.k !== 'new')) return null;
  const { file: f, expr: e } = made;
  // `app.listen(port)`: the server Express and Koa make for the app
  if (e.callee.k === 'member' && e.callee.prop === 'listen') return routerOf(ctx, f, e.callee.obj, framework);
  if (!isHttpServerMaker(ev.eval(f, e.callee))) return null;
  for (const a of e.args) {
    const app = routerOf(ctx, f, a, framework);
    if (app) return app;
  }
  return null;
}

/** The app of `framework` that `e` is, or Koa's `app.callback()` of it. */
function routerOf(ctx: LinkContext, file: string, e: Expr, framework: string): RouterObject | null {
  const x = e.k === 'call' && e.callee.k === 'member' && e.callee.prop === 'callback' && e.args.length === 0 ? e.callee.obj : e;
  const v = ctx.ev.eval(file, x);
  if (v.t !== 'router') return null;
  return ctx.routersOf(framework).find((r) => r.id === v.id) ?? null;
}

/**
 * The guards of the `io.use(fn)` middleware of the socket.io server made with `made` (the
 * arguments of `new Server(…)`, as evaluated), in registration order: each by its name and its
 * body (classifyGuard). Not through LinkContext.guard, whose reading of a two-parameter
 * middleware is Koa's and Hono's, where `next(…)` hands the request on whatever it is given:
 * socket.io's `next(new Error(…))` refuses the connection.
 */
function middlewareGuards(ctx: LinkContext, made: Value[]): AppliedGuard[] {
  const out: AppliedGuard[] = [];
  const key = JSON.stringify(made);
  for (const [file, facts] of ctx.files) {
    for (const use of facts.registrations) {
      if (use.method !== 'use' || use.args.length !== 1) continue;
      const io = ctx.ev.eval(file, use.target);
      if (!isServerMaker(io) || io.t !== 'pkg' || !io.called || JSON.stringify(io.args) !== key) continue;
      const fn = use.args[0]!;
      const value = ctx.ev.eval(file, fn);
      const f = value.t === 'fn' ? ctx.ev.fnOf(value.file, value.fn) : undefined;
      let c = classifyGuard(exprName(fn) ?? f?.name ?? '(inline middleware)', value, ctx.ev, ctx.matchers);
      // (one refusing connections with `next(new Error(…))` for a reason neither its name nor its body says: a candidate)
      // (and one whose error says the connection is not authenticated, `next(new Error('Unauthorized'))`: an auth guard)
      if (c.kinds.every((k) => k === 'nonguard' || k === 'session') && f?.behaviour.nextErrorUnauthenticated) c = { kinds: ['auth'], families: [], reason: 'refuses a connection with next(new Error(…)) whose message says it is not authenticated (by behaviour)' };
      else if (c.kinds.every((k) => k === 'nonguard' || k === 'session') && f?.behaviour.nextError) c = { kinds: ['unknown'], families: [], reason: 'refuses a connection with next(new Error(…)) (by behaviour); what it checks is not known' };
      if (c.kinds.every((k) => k === 'nonguard' || k === 'session')) continue;
      out.push({ name: exprName(fn) ?? '(inline middleware)', kinds: c.kinds, families: c.families, reason: c.reason, mechanism: 'app.use', file, line: use.at.line });
    }
  }
  return out;
}
