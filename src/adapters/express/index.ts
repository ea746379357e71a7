/**
 * Express (4 and 5). Semantics modelled from the framework's router:
 * - `app.METHOD(path, ...handlers)`, `router.route(path).METHOD(...)`, `all`;
 * - `use([path], ...fns)`: each fn is a layer at `path` (prefix match at segment
 *   boundaries); a router or sub-app among them is a mount; plain functions guard every
 *   route registered after them on a matching path, in stack order;
 * - routers are non-strict and case-insensitive unless `{ strict, caseSensitive }`;
 *   apps follow `app.set('strict routing' | 'case sensitive routing', …)`;
 * - a route `/` in a router mounted at `/p` serves both `/p` and `/p/`;
 * - optional parts (`/sites/:id?` in Express 4, `/sites{/:id}` in Express 5) serve the path
 *   with and without them: each form is a route, or a layer's path, of its own.
 */
import type { Adapter, RouterInit } from '../adapter.js';
import { valueNote, writtenCall, type Evaluator, type RouterObject, type Value } from '../../link/evaluate.js';
import { KEEP_LAYERS, layersKey, paramNames, prefixStep, routePlace, uniqueGuards, type BoundRegistration, type LinkContext } from '../../link/link.js';
import type { AppliedGuard, CallFact, Expr, PrefixStep, RegistrationFact } from '../../types.js';
import { applying, joinPath, neverMatched, optionalForms, pathApplies, pathMayApplyBelow, reportedPath, routePathCovers, withoutUnknownHeads, type OptionalSyntax, type ScopedGuard } from '../paths.js';
import { PATH_PARAMETER, pathNote, UnknownHeads } from '../unknown-heads.js';
import { listsNothingWherever } from '../../guards.js';
import { ROUTER_METHODS } from '../methods.js';
import { handlerNameOf } from '../handler-name.js';
import { PROM_BUNDLE, promBundlePath, promBundleUnknown } from '../prom-bundle.js';
import { STATUS_MONITOR, statusMonitorPath, statusMonitorUnknown } from '../status-monitor.js';
import { ACTUATOR, actuatorPaths, actuatorUnknown } from '../actuator.js';
import { proxiedPaths, proxyEverywhere, proxyTakes, proxyUnknown } from '../http-proxy.js';
import { answeringGuards, answeringPackage, apolloCsrf, packageConstant, TRPC_EXPRESS, yogaServerPath } from '../package-handlers.js';
import { addSocketIoRoutes, mayAttachSocketIo } from '../socket-io.js';
import { servedBy, servedPath } from '../serving.js';
import { endpointRouter, procedureGuards, procedureMethods, trpcProcedures, trpcUnread, type Procedure as TrpcProcedure } from '../trpc.js';
import { openApiEndpoint, openApiRoutes, TRPC_OPENAPI } from '../trpc-openapi.js';
import { ORPC_METHODS, orpcRoutes } from '../orpc.js';

/**
 * The router's methods that register a route, and its method. express-ws (read at 5.0,
 * add-ws-method.js) adds `ws(path, ...fns)`: a `GET` route the WebSocket upgrade request of
 * `path` is dispatched to (under `path/.websocket`, a suffix its upgrade handler adds to the
 * request's URL, so a client asks for `path`), running the app's and routers' middleware before
 * it as any request does; it returns the router.
 */
const METHODS: Record<string, string> = { ...ROUTER_METHODS, ws: 'GET' };
/** Express 4 writes `:id?` (path-to-regexp 0.1), Express 5 `{/:id}` (path-to-regexp 8); each is an error or a literal in the other. */
const OPTIONAL: OptionalSyntax = { question: true, braces: true };

function bool(v: Value | undefined): boolean | undefined {
  return v?.t === 'bool' ? v.v : undefined;
}

function optionsOf(ev: Evaluator, args: Value[]): { strict: boolean; caseSensitive: boolean } {
  const o = args[0];
  if (o?.t !== 'obj') return { strict: false, caseSensitive: false };
  return {
    strict: bool(ev.member(o, 'strict', 0)) ?? false,
    caseSensitive: bool(ev.member(o, 'caseSensitive', 0)) ?? false,
  };
}

/**
 * Express 4 makes a route's or a use()'s regular expression from its path with `^` first,
 * escaping only `/` and `.` (path-to-regexp 0.1): a `^` leading the path and a `$` ending it are
 * anchors it has anyway — `app.use('^/$', serverRenderer)` of a React server-rendering tutorial,
 * grist's `app.use('^/api/docs$', …)`, erxes's `app.use('^/graphql', proxy)` — so the path is read
 * without them (a use() whose path ends with `$` then takes that path only, not what is below
 * it: not modelled). Each form of its optional parts (`:id?`, `{/:id}`) then.
 */
function pathForms(p: string): string[] {
  return optionalForms(p.replace(/^\^(?=\/)/, '').replace(/(?<=.)(?<!\\)\$$/, ''), OPTIONAL);
}

// A regular expression matching every request path (`.*`, `^(.*)$`, `\/.*` between slashes):
// Express tests a route's or a use()'s regular expression on the path as it is, so such a route
// serves every path, as `*` does, and such a use() runs for every request, as one without a path does.
function matchesEveryPath(v: Value): boolean {
  return v.t === 're' && /^\^?(\.[*+]|\(\.[*+]\)|\\\/\.\*|\\\/\(\.\*\))\$?$/.test(v.source);
}

/**
 * Can a request match both the route path `pattern` (Express 4's path-to-regexp 0.1: `*` matches
 * anything, `:name` a segment) and the route at `full`? Told by the text before the pattern's
 * first special character: a route spelling something else there is never reached through it
 * (`/activity*` lets through `/activity/:_id`, not `/food/`); past that, anything may match.
 */
function mayMatchRoute(pattern: string, full: string, caseSensitive: boolean): boolean {
  const special = pattern.search(/[*:(?+]/);
  const head = special < 0 ? pattern.replace(/\/$/, '') : pattern.slice(0, special);
  const a = caseSensitive ? head : head.toLowerCase();
  const b = caseSensitive ? full : full.toLowerCase();
  for (let i = 0; i < a.length; i++) {
    if (i >= b.length) return false;
    if (b[i] === '*' || b[i] === ':' || b[i] === '(') return true;
    if (a[i] !== b[i]) return false;
  }
  // (a pattern with nothing special is the whole path, but for a trailing slash)
  return special >= 0 || b.length === a.length || b.slice(a.length) === '/';
}

/**
 * `app.use('/api', v2 ? apiV2 : apiV1)` (or a name given either): a router that is one of
 * several the code chooses between at run time is each of them, mounted (either may be served).
 * So is a choice between routers and functions (growi's `use('/installer', isInstalled ?
 * allreadyInstalledMiddleware : require('./installer')(crowi))`): each router mounted, then each
 * function, as the choice (a guard of it only where its branch is taken: LinkContext.chosenGuard).
 */
function routerChoices<T extends { value: Value }>(items: T[]): (T & { choice?: { of: number; ways: number } })[] {
  return items.flatMap((it, of) => {
    const alts = it.value.t === 'unknown' ? it.value.alts : undefined;
    if (!alts?.some((a) => a.t === 'router') || !alts.every((a) => a.t === 'router' || a.t === 'fn')) return [it];
    // (`choice`: which item, of how many ways: the layers one way passes on are not the other's — ChoiceGuards)
    return [...alts.filter((a) => a.t === 'router'), ...alts.filter((a) => a.t === 'fn')].map((value) => ({ ...it, value, choice: { of, ways: alts.length } }));
  });
}

/**
 * The guards the routers a choice mounts pass on to the layers after them (a pathless
 * `router.use(requireSession)` runs for every request entering the router, those it does not
 * answer included), gathered way by way: the routers are alternatives, not mounted one after
 * the other, so what one passes on does not reach the other's routes — `process.env.ADMIN_UI ?
 * adminRouter : publicRouter` gave the public router's routes the admin router's guards. The
 * layers after the use() get a guard only when every way passes on one of its name and kinds.
 */
class ChoiceGuards {
  private readonly byChoice = new Map<number, { ways: number; passed: ScopedGuard[][] }>();

  add(choice: { of: number; ways: number }, passed: ScopedGuard[]): void {
    let c = this.byChoice.get(choice.of);
    if (!c) this.byChoice.set(choice.of, (c = { ways: choice.ways, passed: [] }));
    c.passed.push(passed);
  }

  /** What every way passes on (the first way's, of those alike in all): a function way passes nothing on. */
  everyWay(): ScopedGuard[] {
    const key = (s: ScopedGuard): string => `${s.guard.name}\0${s.guard.kinds.join(',')}\0${s.scope}`;
    return [...this.byChoice.values()].flatMap(({ ways, passed }) => {
      if (passed.length < ways) return [];
      const rest = passed.slice(1).map((p) => new Set(p.map(key)));
      return passed[0]!.filter((s) => rest.every((k) => k.has(key(s))));
    });
  }
}

/** The MCP SDK's Express helpers, as imported. */
const MCP_EXPRESS = ['@modelcontextprotocol/sdk/server/express.js', '@modelcontextprotocol/sdk/server/express'];

export const expressAdapter: Adapter = {
  name: 'express',
  title: 'Express',
  // (express-promise-router: a Router whose handlers may return promises, as node-postgres's docs
  // suggest; the MCP SDK's createMcpExpressApp(), an `express()` app with a Host-header check for
  // localhost and a JSON body parser, read at @modelcontextprotocol/sdk 1.32, dist/esm/server/express.js)
  modules: ['express', 'express-promise-router', ...MCP_EXPRESS],

  create(pkg, path, args, _isNew, ev): RouterInit | null {
    if (pkg === 'express-promise-router') return path.length === 0 ? { kind: 'router', ...optionsOf(ev, args) } : null;
    if (MCP_EXPRESS.includes(pkg)) return path.length === 1 && path[0] === 'createMcpExpressApp' ? { kind: 'app', strict: false, caseSensitive: false } : null;
    if (path.length === 0) return { kind: 'app', strict: false, caseSensitive: false };
    if (path.length === 1 && path[0] === 'Router') return { kind: 'router', ...optionsOf(ev, args) };
    return null;
  },

  /**
   * Express's app and router methods return the app or router itself, so calls chain
   * (`router.get(…).post(…)`, `module.exports = express.Router().use(…)`) — but for the settings
   * getters, `app.get(name)` and `app.set(name)` with one argument, and `route(path)`, which
   * returns the path's Route.
   */
  routerMethod(_router, method, args) {
    if ((method === 'get' || method === 'set') && args.length === 1) return null;
    return METHODS[method] || ['use', 'param', 'set', 'enable', 'disable', 'engine'].includes(method) ? 'self' : null;
  },

  link(ctx: LinkContext): void {
    new ExpressLinker(ctx).run();
  },

  readsCall: (call) => (call.callee.k === 'member' && call.callee.prop === 'applyMiddleware') || mayAttachSocketIo(call),
  registrationOf: apolloRegistration,
};

/** The method of the registration `server.applyMiddleware({ app, … })` of apollo-server-express is read as, on `app`. */
const APOLLO_APPLY = 'ApolloServer.applyMiddleware';
const APOLLO_SERVER_EXPRESS = 'apollo-server-express';

/** `server.applyMiddleware({ app, path })` of an apollo-server-express (2.x, 3.x) server: a registration on `app`. */
function apolloRegistration(call: CallFact, callee: Value): RegistrationFact | null {
  const opts = call.args[0];
  if (callee.t !== 'pkg' || callee.pkg !== APOLLO_SERVER_EXPRESS || callee.path.at(-1) !== 'applyMiddleware' || opts?.k !== 'obj' || !opts.props['app']) return null;
  // (args: the options, and the method called, whose server's options say whether it prevents CSRF)
  return { target: opts.props['app'], method: APOLLO_APPLY, args: [opts, call.callee], chainPath: null, ...(call.when ? { when: call.when } : {}), at: call.at, snippet: call.snippet };
}

class ExpressLinker {
  private mounted = new Set<string>();
  /** per router: its param callbacks' guards, by parameter name */
  private readonly params = new Map<string, Map<string, AppliedGuard[]>>();
  /** use() and route paths whose heads are not known statically */
  private readonly heads: UnknownHeads;
  /**
   * In the walk of one app (or router not mounted): the route registrations handing on that no
   * route listed since runs behind yet (`route`); `list` lists one as a route (`run`).
   */
  private handingOn: { method: string; paths: string[]; caseSensitive: boolean; strict: boolean; list: () => void }[] = [];
  /**
   * The routes a router handed to a route is walked under (`app.all('/activity*', activityRouter)`):
   * only what a request those let through can reach is listed (handedRouter).
   */
  private handedThrough: { method: string; paths: string[]; caseSensitive: boolean }[] = [];
  /** Each route registration's functions, flattened once: the mounts found first and the walk both read them (routeFunctions). */
  private readonly routeItems = new Map<BoundRegistration, { value: Value; expr: Expr; file: string }[]>();

  constructor(private readonly ctx: LinkContext) {
    this.heads = new UnknownHeads(ctx.ev);
  }

  run(): void {
    const routers = this.ctx.routersOf('express', true);
    for (const r of routers) this.applySettings(r);
    for (const r of routers)
      for (const b of this.ctx.registrationsOf(r.id)) {
        if (b.reg.method === 'use') for (const it of this.useItems(b).items) if (it.value.t === 'router') this.mounted.add(it.value.id);
        const handed = METHODS[b.reg.method] && (b.reg.chainPath || b.reg.args.length >= 2) ? this.routeFunctions(b).at(-1) : undefined;
        if (handed?.value.t === 'router') this.mounted.add(handed.value.id);
      }
    for (const r of routers) {
      if (this.mounted.has(r.id) || this.ctx.servedThroughInstances(r.id, this.mounted)) continue;
      if (r.init.kind === 'router' && this.ctx.registrationsOf(r.id).some((b) => METHODS[b.reg.method] || b.reg.chainPath)) {
        this.ctx.warn(r.file, r.at, `router ${r.name ?? ''} is never mounted on an app in the analysed files; its routes are listed without a prefix`.replace('  ', ' '), '');
      }
      if (r.init.kind === 'app') this.ctx.ownApps.push(r);
      if (r.init.kind === 'app' || this.ctx.registrationsOf(r.id).length > 0) {
        this.handingOn = [];
        const layers = this.walk(r, '', [], [], [r.id], r);
        if (r.init.kind === 'app') this.ctx.layersAfter.set(r.id, layers);
        // (from the last back: one listed runs behind the earlier ones at its path, which are layers for it)
        while (this.handingOn.length > 0) this.handingOn.pop()!.list();
      }
    }
    addSocketIoRoutes(this.ctx, 'express');
  }

  /**
   * `router.param('projectId', loadProject)`: the callbacks run before every layer of this
   * router whose path names the parameter — a route, or a mount and so every route of the
   * router it mounts — wherever they are registered: Express looks them up (process_params)
   * when a request reaches the layer. A router mounted in this one does not see them.
   */
  private paramGuards(r: RouterObject): Map<string, AppliedGuard[]> {
    let byName = this.params.get(r.id);
    if (byName) return byName;
    byName = new Map();
    this.params.set(r.id, byName);
    for (const [name, callbacks] of this.ctx.paramCallbacks(r.id)) {
      const guards = callbacks.flatMap(({ item, reg, file }) => {
        const g = this.ctx.guard(item.file, item.expr, item.value, 'router.param', reg.at);
        return g ? [this.ctx.placed(g, file)] : [];
      });
      if (guards.length > 0) byName.set(name, guards);
    }
    return byName;
  }

  private applySettings(r: RouterObject): void {
    for (const b of this.ctx.registrationsOf(r.id)) {
      const m = b.reg.method;
      if (m !== 'set' && m !== 'enable' && m !== 'disable') continue;
      const name = this.ctx.ev.eval(b.file, b.reg.args[0]!);
      if (name.t !== 'str') continue;
      const value = m === 'enable' ? true : m === 'disable' ? false : bool(b.reg.args[1] ? this.ctx.ev.eval(b.file, b.reg.args[1]) : undefined);
      if (value === undefined) continue;
      if (name.v === 'strict routing') r.init.strict = value;
      if (name.v === 'case sensitive routing') r.init.caseSensitive = value;
    }
  }

  /**
   * Express runs a function of four or more parameters only while an error is handled (its
   * Layer skips `fn.length > 3` otherwise): an error handler guards and serves nothing, even
   * one that answers 401 for a token library's error.
   */
  private handlesErrorsOnly(v: Value): boolean {
    return v.t === 'fn' && (this.ctx.ev.fnOf(v.file, v.fn)?.params.length ?? 0) > 3;
  }

  /** The functions a request without an error runs through, of those given. */
  private normalFlow<T extends { value: Value }>(items: T[]): T[] {
    return items.filter((it) => !this.handlesErrorsOnly(it.value));
  }

  private useItems(b: BoundRegistration): { path: string[] | null; items: { value: Value; expr: Expr; file: string }[]; pathUnresolved: boolean } {
    const args = b.reg.args;
    // (`app.use(yoga.graphqlEndpoint, yoga)`: a path the package fixes; `app.use(yoga)`: the path it answers at)
    const written = this.ctx.ev.eval(b.file, args[0]!);
    const alone = args.length === 1 ? yogaServerPath(this.ctx.ev, written) : null;
    const first = packageConstant(this.ctx.ev, written) ?? alone ?? written;
    const paths = matchesEveryPath(first) ? ['/'] : this.ctx.pathsOf(b.file, b.reg, first)?.flatMap(pathForms);
    if (paths) return { path: paths, items: this.dispatched(routerChoices(this.normalFlow(this.ctx.ev.flatten(b.file, alone ? args : args.slice(1))))), pathUnresolved: false };
    // A template literal is always a path (`/api/${process.env.AREA}`), never a middleware. A
    // property of a package-made value (`config.basePath` from convict/dotenv) is data, not a
    // middleware a package makes by a call: a path when named like one. So is a parameter of a
    // function no call is known of, or its property, named like one (`function mount(prefix, r) {
    // app.use(prefix, r) }`, `app.use(options.mountPath, api)`: PATH_PARAMETER).
    // So is what a package's getter gives (`nconf.get('relative_path')`, NodeBB's): no package's
    // middleware factory is named `get`.
    const notMiddleware = first.t === 'unknown' || (first.t === 'pkg' && (!first.called || first.path[first.path.length - 1] === 'get'));
    // a regular expression is a path (`app.use(/^\/api\/v[12]/, api)`), matched as Express matches it: not modelled
    const looksLikePath =
      first.t === 're' ||
      (first.t === 'param' && args.length >= 2 && PATH_PARAMETER.test(first.path?.at(-1) ?? first.name)) ||
      (notMiddleware && args[0]!.k !== 'fn' && args.length >= 2 && (args[0]!.k === 'tpl' || /path|prefix|url|route|base/i.test(JSON.stringify(args[0]).slice(0, 200))));
    return { path: null, items: this.dispatched(routerChoices(this.normalFlow(this.ctx.ev.flatten(b.file, looksLikePath ? args.slice(1) : args)))), pathUnresolved: looksLikePath };
  }

  /**
   * `(req, res, next) => inner(req, res, next)`, `if (req.get('host') !== mcpHost) return next();
   * mcpRouter(req, res, next)` (nango's MCP API): a function use()d that hands its request whole
   * to a router (Behaviour.handsTo) mounts that router there, right after it — a router is
   * itself a middleware function (Express's `router(req, res, next)`). Which requests enter it is
   * the function's to say (nango's, those of one host): what the router's own `use` middleware
   * does to a request (its 404 for any other path) is not carried to what comes after.
   */
  private dispatched<T extends { value: Value; expr: Expr; file: string }>(items: T[]): (T | { value: Value; expr: Expr; file: string; dispatched: true })[] {
    return items.flatMap((it) => {
      if (it.value.t !== 'fn') return [it];
      const { file, fn } = it.value;
      const routers = (this.ctx.ev.fnOf(file, fn)?.behaviour.handsTo ?? [])
        .map((expr) => ({ value: this.ctx.ev.eval(file, expr), expr, file, dispatched: true as const }))
        .filter((x) => x.value.t === 'router');
      return [it, ...routers];
    });
  }

  /**
   * A use() function filtering on the method (FunctionFact.methodFilter): its method and the
   * function it hands the request to, each read where the filter is made (`method('GET',
   * handler)`: the factory's parameters stand for the call's arguments), the method null (and why)
   * when it is not known statically; null when it is none, what it hands the request to is not a
   * function, or the method is not spelled in capitals (Node gives `req.method` so: no request
   * has such a method).
   */
  private methodFiltered(it: { value: Value; expr: Expr; file: string }): { method: string | null; why: string; item: { value: Value; expr: Expr; file: string } } | null {
    const ev = this.ctx.ev;
    if (it.value.t !== 'fn') return null;
    const { file, fn } = it.value;
    const filter = ev.fnOf(file, fn)?.methodFilter;
    if (!filter) return null;
    const made = writtenCall(ev, it.file, it.expr);
    const factory = made ? ev.calledFn(made.file, made.call.callee) : null;
    const read = (e: Expr): { file: string; expr: Expr } => {
      const p = made && factory && e.k === 'ref' ? ev.resolveName(file, e.scope, e.name, 0) : null;
      const arg = p?.t === 'param' && p.file === factory!.file && p.fn === factory!.fn && !p.path ? made!.call.args[p.index] : undefined;
      return arg ? { file: made!.file, expr: arg } : { file, expr: e };
    };
    const m = read(filter.method);
    const method = ev.eval(m.file, m.expr);
    const h = read(filter.handsTo);
    const handler = ev.eval(h.file, h.expr);
    // (a method not spelled in capitals is none a request has: the filter hands every request on)
    if (handler.t !== 'fn' || (method.t === 'str' && !/^[A-Z]+$/.test(method.v))) return null;
    const item = { value: handler, expr: h.expr, file: h.file };
    return method.t === 'str' ? { method: method.v, why: '', item } : { method: null, why: valueNote(method), item };
  }

  /** A last use() argument not known statically that is named like a router or an app: a mount, not a middleware. */
  private unresolvedMount(it: { value: Value; expr: Expr }): boolean {
    return it.value.t === 'unknown' && /router|routes|api|app$|controller/i.test(JSON.stringify(it.expr).slice(0, 200));
  }

  /**
   * Walk a router's stack in registration order. Returns its `use` middleware: every request
   * entering the router runs through it, including requests none of its routes serve, which
   * then go on to what the parent registers after the mount (`app.use('/api', a); app.use('/api', b)`:
   * `a.use(requireSession)` guards `b` too).
   */
  private walk(r: RouterObject, prefix: string, outer: ScopedGuard[], prefixes: PrefixStep[], stack: string[], app: RouterObject): ScopedGuard[] {
    // Layers scoped to paths that nothing below this prefix can have are dropped once, here,
    // instead of being tested for every route (a parent's earlier mounts leave one per mount).
    const inherited = outer.filter((s) => pathMayApplyBelow(s.scope, prefix, s.caseSensitive));
    const local: ScopedGuard[] = [];
    const mech = r.init.kind === 'app' ? 'app.use' : 'router.use';
    for (const b of this.ctx.registrationsOf(r.id)) {
      const { reg, file } = b;
      const method = METHODS[reg.method];
      if (method && (reg.chainPath || reg.args.length >= 2)) {
        const items = this.routeFunctions(b);
        if (!this.handedRouter(b, items, r, method, prefix, [...inherited, ...local], prefixes, stack, app))
          local.push(...this.route(b, r, [method], reg.chainPath ?? reg.args[0]!, reg.chainPath ? reg.args : reg.args.slice(1), prefix, [...inherited, ...local], prefixes, app, items));
        continue;
      }
      if (reg.method === APOLLO_APPLY) {
        local.push(...this.apolloRoutes(b, r, prefix, [...inherited, ...local], prefixes, app));
        continue;
      }
      if (reg.method === KEEP_LAYERS) {
        this.ctx.layersAt.set(layersKey(r.id, reg.at), [...inherited, ...local]);
        continue;
      }
      if (reg.method !== 'use') continue;
      const { path: known, items, pathUnresolved } = this.useItems(b);
      // A path not known statically mounts at its unknown head (UnknownHeads): what it mounts is
      // listed without it (the known text before it kept) — unless what it mounts is not known
      // either.
      const mountsUnknown = items.length > 0 && this.unresolvedMount(items[items.length - 1]!);
      const unknown = pathUnresolved && !mountsUnknown ? this.heads.pathOf(file, reg.args[0]!, this.ctx.ev.eval(file, reg.args[0]!)) : null;
      // (no word when what it mounts lists nothing wherever it is: sorry-cypress's
      // `app.use(BASE_PATH, express.static(…))`)
      const silent = items.length > 0 && items.every((i) => listsNothingWherever(i.value));
      if (pathUnresolved && !unknown) {
        if (!silent) this.ctx.warn(file, reg.at, `the path of this use() is not known statically; what it mounts is left out`, reg.snippet);
        continue;
      }
      if (unknown && !silent) this.ctx.warn(file, reg.at, `the path of this use() is not known statically (${unknown.note}); the routes under it are listed without that part`, reg.snippet);
      const never = known?.find(neverMatched);
      if (never !== undefined) this.ctx.warn(file, reg.at, `the path of this use(), '${never}', starts with neither '/' nor a pattern: Express never matches it; what it mounts there is never reached`, reg.snippet);
      const paths = unknown ? [unknown.path] : (known?.filter((p) => !neverMatched(p)) ?? null);
      if (paths !== null && paths.length === 0) continue;
      const params = this.paramGuards(r);
      // (the oRPC routes a function answers, once for the use(): each of its paths that reaches it gives the same)
      const orpcListed = new Set<string>();
      for (const p of paths ?? ['']) {
        const full = p === '' ? prefix : joinPath(prefix, p);
        const scope = p === '' ? '' : full;
        // `app.param('orgId', fn)` runs when a request reaches a layer whose path names the
        // parameter (`app.use('/orgs/:orgId', orgRouter)`): before the layer's functions, for
        // every request under its path — what it mounts, and what is registered after it.
        if (params.size > 0)
          for (const n of paramNames(p)) for (const guard of params.get(n) ?? []) local.push({ guard, scope: full, caseSensitive: r.init.caseSensitive });
        const hasMount = items.some((i) => i.value.t === 'router');
        const chosen = new ChoiceGuards();
        items.forEach((it, idx) => {
          if (it.value.t === 'router') {
            const child = this.ctx.ev.routers.get(it.value.id)!;
            if (stack.includes(child.id)) {
              this.ctx.warn(file, reg.at, `mount cycle: ${child.name ?? 'a router'} is mounted inside itself; its routes are listed once`, reg.snippet);
              return;
            }
            if (stack.length > 64) {
              this.ctx.warn(file, reg.at, `mounts nested more than 64 levels deep; ${child.name ?? 'the router'} mounted here and what it mounts are not listed`, reg.snippet);
              return;
            }
            if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
            const step = unknown ? prefixStep(unknown.tail, file, reg, unknown.note) : prefixStep(p, file, reg);
            const passedThrough = this.walk(child, full, [...inherited, ...local], [...prefixes, step], [...stack, child.id], app);
            if ('dispatched' in it) return;
            const passed = passedThrough.map((s) => ({ ...s, scope: s.scope === '' ? full : s.scope }));
            const choice = (it as { choice?: { of: number; ways: number } }).choice;
            if (choice) chosen.add(choice, passed);
            else local.push(...passed);
            return;
          }
          // express-actuator's router serves its monitoring endpoints below where it is mounted
          const monitored = actuatorPaths(this.ctx.ev, it.value);
          if (monitored) {
            if ('why' in monitored) this.ctx.warn(file, reg.at, actuatorUnknown(monitored.why), reg.snippet);
            else for (const path of monitored) this.packageRoute(b, joinPath(full, path), ACTUATOR, [...inherited, ...local], app, { method: 'GET', caseSensitive: false });
            return;
          }
          // express-prom-bundle's middleware answers its metrics path itself (a route), and times the rest.
          const metricsPath = promBundlePath(this.ctx.ev, it.value);
          if (typeof metricsPath === 'object' && metricsPath !== null) this.ctx.warn(file, reg.at, promBundleUnknown(metricsPath.why), reg.snippet);
          else if (metricsPath !== null && pathApplies(full, metricsPath, r.init.caseSensitive)) this.packageRoute(b, metricsPath, PROM_BUNDLE, [...inherited, ...local], app);
          // express-status-monitor's middleware answers its status page's path below where it is used
          const statusPath = statusMonitorPath(this.ctx.ev, it.value);
          if (typeof statusPath === 'object' && statusPath !== null) this.ctx.warn(file, reg.at, statusMonitorUnknown(statusPath.why), reg.snippet);
          else if (statusPath !== null) this.packageRoute(b, joinPath(full, statusPath), STATUS_MONITOR, [...inherited, ...local], app, { method: 'ALL', caseSensitive: true, strict: true });
          // A proxy (http-proxy-middleware, express-http-proxy) answers the requests it takes with
          // another server's answer: ALL routes where they are (the whole mount when it takes
          // every request), no guard.
          const proxied = proxyTakes(this.ctx.ev, it.value);
          if (proxied) {
            if ('why' in proxied) this.ctx.warn(file, reg.at, proxyUnknown(proxied.pkg, proxied.why), reg.snippet);
            else if (proxied.paths === null && p !== '')
              local.push(...this.route(b, r, ['ALL'], { k: 'str', v: p }, [it.expr], prefix, [...inherited, ...local], unknown ? [...prefixes, prefixStep('', file, reg, unknown.note)] : prefixes, app, [it]));
            else if (proxied.paths === null && full !== '') this.packageRoute(b, full, proxied.pkg, [...inherited, ...local], app);
            else if (proxied.paths === null) this.ctx.warn(file, reg.at, proxyEverywhere(proxied.pkg), reg.snippet);
            else for (const path of proxiedPaths({ paths: proxied.paths, whole: proxied.whole }, full, r.init.caseSensitive)) this.packageRoute(b, path, proxied.pkg, [...inherited, ...local], app);
            return;
          }
          // tRPC's endpoint, a route per procedure of its router (trpc.ts), or trpc-openapi's, a
          // route per procedure its router serves over REST (trpc-openapi.ts), when that is known
          // (a use() with no path is one at '/': Express's `app.use(fn)` — Apollo's standalone
          // server's own `app.use(cors(), json(), expressMiddleware(server))`)
          const answering = idx === items.length - 1 ? answeringPackage(it.value, 'express') : null;
          if (answering !== null && (answering === TRPC_EXPRESS || TRPC_OPENAPI.includes(answering))) {
            const steps = unknown ? [...prefixes, prefixStep(unknown.tail, file, reg, unknown.note)] : p === '' ? prefixes : [...prefixes, prefixStep(p, file, reg)];
            const active = [...inherited, ...local];
            if (answering === TRPC_EXPRESS ? this.trpcRoutes(b, it.value, full, active, steps, app) : this.openApiRoutes(b, it.value, full, active, steps, app)) return;
          }
          // a function handing the request to an oRPC handler (`handler.handle(req, res, { prefix })`): a route per procedure it answers
          if (idx === items.length - 1 && !unknown) {
            const routes = orpcRoutes(this.ctx, it.value, ORPC_METHODS, (path) => pathApplies(full || '/', path, r.init.caseSensitive), { file, at: reg.at, snippet: reg.snippet });
            for (const { procedure: proc, method, path } of routes ?? []) {
              const key = `${method} ${path} ${proc.file}:${proc.at.line}:${proc.at.column}`;
              if (orpcListed.has(key)) continue;
              orpcListed.add(key);
              if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
              this.procedureRoute(proc, app, [...inherited, ...local], prefixes, { method, path, handler: proc.keys.join('.'), trailingSlashInsensitive: true });
            }
            if (routes !== null) return;
          }
          // a method filter, `method('GET', handler)` (FunctionFact.methodFilter): an endpoint of
          // that method, answered by the function it hands the request to; the rest goes on
          // (a method not known statically: an ALL route, reported)
          const filtered = p !== '' && idx === items.length - 1 ? this.methodFiltered(it) : null;
          if (filtered) {
            if (filtered.method === null) this.ctx.warn(file, reg.at, `the method this use() hands on to its handler is not known statically (${filtered.why}); it is listed as ALL`, reg.snippet);
            const steps = unknown ? [...prefixes, prefixStep('', file, reg, unknown.note)] : prefixes;
            local.push(...this.route(b, r, [filtered.method ?? 'ALL'], { k: 'str', v: p }, [filtered.item.expr], prefix, [...inherited, ...local], steps, app, [filtered.item]));
            return;
          }
          // A path-mounted function that answers and never calls next is an ALL route: one of
          // the analysed code, or a package's that answers every request reaching it
          // (swagger-ui-express's `setup(…)`, a GraphQL or tRPC endpoint: package-handlers.ts).
          // One taking only (req, res) is given no next: it ends every request reaching it,
          // whatever writes the answer (anything-llm's `IndexPage.generate(response)`). One
          // handing its next to another (`try { requireUser(req, res, next) } catch { res.status(401)… }`)
          // is a middleware.
          if ((p !== '' && it.value.t === 'fn' && idx === items.length - 1) || answering !== null) {
            const f = it.value.t === 'fn' ? this.ctx.ev.fnOf(it.value.file, it.value.fn) : null;
            // (handing `next` only errors made in place passes nothing on: `next(new Error(…))`)
            const does = f?.behaviour;
            if (it.value.t !== 'fn' || (f && does && (!does.callsNext || does.nextOnlyErrors) && (does.sendsResponse || f.params.length === 2) && !(f.params.length > 2 && does.handsTo?.length))) {
              // (at a path not known statically: its head is a step of the route's prefixes, the rest its path)
              const steps = unknown ? [...prefixes, prefixStep('', file, reg, unknown.note)] : prefixes;
              local.push(...this.route(b, r, ['ALL'], { k: 'str', v: p || '/' }, items.slice(idx).map((x) => x.expr), prefix, [...inherited, ...local], steps, app, items.slice(idx)));
              return;
            }
          }
          // A middleware answering the requests to a path itself (Behaviour.servesFor, serving.ts):
          // a route at each path it answers, below where it is used — and a layer still, in front
          // of the later routes at those paths (every other request it hands on untouched, as its
          // skips say)
          const served = idx === items.length - 1 ? servedBy(this.ctx.ev, it.value, (m) => this.ctx.warn(file, reg.at, m, reg.snippet)) : [];
          if (served.length > 0) {
            const steps = unknown ? [...prefixes, prefixStep('', file, reg, unknown.note)] : prefixes;
            // (its test compares the path as written: in that case, with that slash or none)
            const exact = { ...r, init: { ...r.init, strict: true, caseSensitive: true } };
            for (const s of served) {
              const path = servedPath(s, p, full);
              if (path !== null) this.listRoutes(b, exact, [s.method ?? 'ALL'], [path], [it], prefix, [...inherited, ...local], steps, app);
            }
          }
          if (idx === items.length - 1 && p !== '' && this.unresolvedMount(it)) {
            this.ctx.warn(file, reg.at, `mount at '${withoutUnknownHeads(full, '/…')}' could not be resolved (${valueNote(it.value)}); the routes under it are unknown`, reg.snippet);
            return;
          }
          // evaluated where it is written (an imported array's element), located where it is applied
          const g = this.ctx.guard(it.file, it.expr, it.value, hasMount ? 'mount-middleware' : mech, reg.at);
          // (one that is no guard itself but leads with checks, `assertSignedIn(req); next()`: those checks)
          // (a use() layer sees the path below its own: req.path and req.url lose `full`)
          for (const x of this.ctx.layerGuards(g, it.value, (y) => this.ctx.placed(y, file), it)) local.push({ guard: this.ctx.mountedAt(x, full), scope, caseSensitive: r.init.caseSensitive });
        });
        local.push(...chosen.everyWay());
      }
    }
    return local;
  }

  /**
   * tRPC's `createExpressMiddleware({ router })` at `path`: each procedure of the router at
   * `path/<procedure>` (trpc.ts), for its kind's method, behind the layers before it and the
   * procedure's middleware, located where the procedure is written; the path matched exactly.
   * False (with a warning) when the router is not known statically: the endpoint is then one route.
   */
  private trpcRoutes(b: BoundRegistration, v: Value, path: string, active: ScopedGuard[], prefixes: PrefixStep[], app: RouterObject): boolean {
    const { reg, file } = b;
    const opts = v.t === 'pkg' ? v.args[0] : undefined;
    const found = trpcProcedures(this.ctx.ev, endpointRouter(v), opts);
    if ('why' in found) {
      this.ctx.warn(file, reg.at, trpcUnread(found.why), reg.snippet);
      return false;
    }
    for (const p of found.procedures)
      for (const method of procedureMethods(this.ctx.ev, p.kind, opts)) {
        if (!this.ctx.expand(file, reg.at, reg.snippet)) return true;
        this.procedureRoute(p, app, active, prefixes, { method, path: joinPath(path, p.path), handler: p.path, trailingSlashInsensitive: false });
      }
    return true;
  }

  /**
   * trpc-openapi's `createOpenApiExpressMiddleware({ router })` at `path`: each procedure its
   * router serves over REST, at `path` and the procedure's `openapi.path`, for its
   * `openapi.method` (trpc-openapi.ts), matched case-insensitively, with or without a trailing
   * slash. False (with a warning) when the router is not known statically: the endpoint is then
   * one route.
   */
  private openApiRoutes(b: BoundRegistration, v: Value, path: string, active: ScopedGuard[], prefixes: PrefixStep[], app: RouterObject): boolean {
    const { reg, file } = b;
    const endpoint = openApiEndpoint(this.ctx, v, ['createOpenApiExpressMiddleware']);
    const routes = endpoint && openApiRoutes(this.ctx, endpoint, path, () => true, { file, at: reg.at, snippet: reg.snippet });
    if (!routes) return false;
    for (const { procedure, method, path: full } of routes) {
      if (!this.ctx.expand(file, reg.at, reg.snippet)) return true;
      this.procedureRoute(procedure, app, active, prefixes, { method, path: full, handler: procedure.path, trailingSlashInsensitive: true, caseSensitive: false });
    }
    return true;
  }

  /** An RPC procedure's route (tRPC's, oRPC's): located where the procedure is written, behind the layers before it that apply there and its own guards. */
  private procedureRoute(
    p: Pick<TrpcProcedure, 'file' | 'at' | 'middleware' | 'resolver' | 'context'>,
    app: RouterObject,
    active: ScopedGuard[],
    prefixes: PrefixStep[],
    route: { method: string; path: string; handler: string; trailingSlashInsensitive: boolean; caseSensitive?: boolean },
  ): void {
    this.reached(route.method, route.path);
    this.ctx.addRoute(
      {
        method: route.method,
        ...reportedPath(route.path),
        file: p.file,
        line: p.at.line,
        column: p.at.column,
        snippet: '',
        framework: 'express',
        handler: route.handler,
        app: app.name ?? 'app',
        trailingSlashInsensitive: route.trailingSlashInsensitive,
        caseSensitive: route.caseSensitive ?? true,
        prefixes,
        guards: uniqueGuards([...applying(active, route.method, route.path), ...procedureGuards(this.ctx, p)]),
        handlerFn: p.resolver?.value.t === 'fn' ? { file: p.resolver.value.file, fn: p.resolver.value.fn } : null,
      },
      app,
    );
  }

  /**
   * apollo-server-express (read at 3.13.0, src/ApolloServer.ts; 2.x alike):
   * `server.applyMiddleware({ app, path, disableHealthCheck })` does `app.use(router)` of a
   * router serving, with `use`, `/.well-known/apollo/server-health` (unless
   * `disableHealthCheck`) and `path` ('/graphql' unless given), each answering every request
   * reaching it: `ALL` routes there, behind the layers before the call.
   */
  private apolloRoutes(b: BoundRegistration, r: RouterObject, prefix: string, active: ScopedGuard[], prefixes: PrefixStep[], app: RouterObject): ScopedGuard[] {
    const { reg, file } = b;
    const opts = this.ctx.ev.eval(file, reg.args[0]!);
    const option = (key: string): Value | undefined => (opts.t === 'obj' && key in opts.props ? this.ctx.ev.member(opts, key, 0) : undefined);
    const path = option('path');
    const paths = path === undefined ? ['/graphql'] : this.ctx.pathsOf(file, reg, path);
    if (!paths) {
      this.ctx.warn(file, reg.at, `the path of this ${APOLLO_APPLY}(…) is not known statically; its GraphQL endpoint is left out`, reg.snippet);
    }
    const method = this.ctx.ev.eval(file, reg.args[1]!);
    const csrf = method.t === 'pkg' && method.path[0] === 'ApolloServer' ? apolloCsrf(this.ctx.ev, method.pkg, method.made?.[0], file, reg.at.line) : [];
    const health = bool(option('disableHealthCheck')) === true ? [] : ['/.well-known/apollo/server-health'];
    return [
      ...health.flatMap((p) => this.route(b, r, ['ALL'], { k: 'str', v: p }, [], prefix, active, prefixes, app, [], { by: APOLLO_SERVER_EXPRESS, guards: [] })),
      ...(paths ?? []).flatMap((p) => this.route(b, r, ['ALL'], { k: 'str', v: p }, [], prefix, active, prefixes, app, [], { by: APOLLO_SERVER_EXPRESS, guards: csrf })),
    ];
  }

  /**
   * A route the middleware of package `pkg` answers itself at `path` (the whole path, as
   * requests carry it: no prefix composes it), any method: under the layers before it that
   * apply there (`active`, which holds the functions before it in its own use()).
   */
  private packageRoute(b: BoundRegistration, path: string, pkg: string, active: ScopedGuard[], app: RouterObject, as: { method: string; caseSensitive: boolean; strict?: true } = { method: 'ALL', caseSensitive: true }): void {
    const { reg, file } = b;
    if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
    this.reached(as.method, path);
    this.ctx.addRoute(
      {
        method: as.method,
        path,
        ...routePlace(file, reg),
        framework: 'express',
        handler: pkg,
        app: app.name ?? 'app',
        // (its own pattern: `^path/?$`, case-sensitive, or the path exactly; a router's route as the router matches)
        trailingSlashInsensitive: !as.strict,
        caseSensitive: as.caseSensitive,
        prefixes: [],
        guards: uniqueGuards(applying(active, as.method, path)),
        handlerFn: null,
      },
      app,
    );
  }

  /** A route registration's functions, those a request without an error runs through, the handler last (routeItems). */
  private routeFunctions(b: BoundRegistration): { value: Value; expr: Expr; file: string }[] {
    let items = this.routeItems.get(b);
    if (!items) this.routeItems.set(b, (items = this.normalFlow(this.ctx.ev.flatten(b.file, b.reg.chainPath ? b.reg.args : b.reg.args.slice(1)))));
    return items;
  }

  /**
   * `app.all('/activity*', activityRouter)` (Nightscout's API): a router handed to a route as its
   * handler. Express calls it as the route's last function with the request's path as it is — not
   * cut at the route's path, as use() cuts it — so the router serves its own routes at their own
   * paths below `prefix`, those a request the route lets through can reach (its method, its
   * path: handedThrough), behind the route's other functions (`items`, routeFunctions). False
   * when the handler is no router.
   */
  private handedRouter(b: BoundRegistration, items: { value: Value; expr: Expr; file: string }[], r: RouterObject, method: string, prefix: string, active: ScopedGuard[], prefixes: PrefixStep[], stack: string[], app: RouterObject): boolean {
    const { reg, file } = b;
    const handler = items.at(-1);
    if (handler?.value.t !== 'router') return false;
    const child = this.ctx.ev.routers.get(handler.value.id)!;
    if (stack.includes(child.id)) {
      this.ctx.warn(file, reg.at, `mount cycle: ${child.name ?? 'a router'} is mounted inside itself; its routes are listed once`, reg.snippet);
      return true;
    }
    if (stack.length > 64) {
      this.ctx.warn(file, reg.at, `mounts nested more than 64 levels deep; ${child.name ?? 'the router'} handed a route here and what it mounts are not listed`, reg.snippet);
      return true;
    }
    if (!this.ctx.expand(file, reg.at, reg.snippet)) return true;
    const pv = this.ctx.ev.eval(file, reg.chainPath ?? reg.args[0]!);
    const paths = matchesEveryPath(pv) ? ['*'] : this.ctx.pathsOf(file, reg, pv);
    if (!paths) this.ctx.warnRoute(file, reg, `${method} route handing its requests to a router, with a path not known statically (${pathNote(pv)}); the router's routes are listed as if every request reached them`);
    const layers: ScopedGuard[] = [];
    for (const it of items.slice(0, -1)) {
      const g = this.ctx.guard(it.file, it.expr, it.value, 'route-middleware', reg.at);
      if (g) layers.push({ guard: this.ctx.mountedAt(this.ctx.placed(g, file), prefix), scope: prefix, caseSensitive: r.init.caseSensitive });
    }
    if (paths) this.handedThrough.push({ method, paths: paths.map((p) => joinPath(prefix, p)), caseSensitive: r.init.caseSensitive });
    this.walk(child, prefix, [...active, ...layers], [...prefixes, prefixStep('', file, reg)], [...stack, child.id], app);
    if (paths) this.handedThrough.pop();
    return true;
  }

  /** Can a request to the route `full` of method `method` be one each route handing its requests to a router (handedThrough) lets through? */
  private throughHanded(method: string, full: string): boolean {
    return this.handedThrough.every((h) => (h.method === 'ALL' || method === 'ALL' || h.method === method) && h.paths.some((p) => mayMatchRoute(p, full, h.caseSensitive)));
  }

  private route(
    b: BoundRegistration,
    r: RouterObject,
    methods: string[],
    pathExpr: Expr,
    handlerExprs: Expr[],
    prefix: string,
    active: ScopedGuard[],
    prefixes: PrefixStep[],
    app: RouterObject,
    preFlattened?: { value: Value; expr: Expr; file: string }[],
    /** the package answering it, when no function given does (the route's handler name), and the guards it applies itself */
    servedBy?: { by: string; guards: AppliedGuard[] },
  ): ScopedGuard[] {
    const { reg, file } = b;
    const pv = this.ctx.ev.eval(file, pathExpr);
    let paths = matchesEveryPath(pv) ? ['*'] : this.ctx.pathsOf(file, reg, pv)?.flatMap(pathForms);
    let steps = prefixes;
    if (!paths) {
      // A known rest after a head not known statically (`${relativePath}/ping`): the route is
      // listed at its unknown head (UnknownHeads) and the rest, the head a step of its prefixes.
      const head = this.heads.routePathOf(file, pathExpr, pv);
      if (!head) {
        this.ctx.warnRoute(file, reg, `${methods.join(',')} route with a path not known statically (${pathNote(pv)}); it is left out`);
        return [];
      }
      this.ctx.warnRoute(file, reg, `${methods.join(',')} route with a path not known statically (${head.note}); it is listed without that part`);
      paths = optionalForms(head.path, OPTIONAL);
      steps = [...prefixes, prefixStep('', file, reg, head.note)];
    } else if (paths.some(neverMatched)) {
      this.ctx.warnRoute(file, reg, `${methods.join(',')} route at '${paths.find(neverMatched)}', a path starting with neither '/' nor a pattern: Express never matches it; it is left out`);
      paths = paths.filter((p) => !neverMatched(p));
      if (paths.length === 0) return [];
    }
    const items = preFlattened ?? this.normalFlow(this.ctx.ev.flatten(file, handlerExprs));
    // `app.all('/api/*', requireAuthentication)`: a layer for the later routes it matches (LinkContext.passThrough)
    const through = this.ctx.passThrough(items, reg.at);
    if (through) {
      // one layer, whatever the number of its paths: a guard placed once runs once
      const placed = through.guards.map((g) => this.ctx.mountedAt(this.ctx.placed(g, file), prefix));
      const layers = paths.flatMap((p) =>
        placed.map((guard) => ({ guard, scope: joinPath(prefix, p), caseSensitive: r.init.caseSensitive, route: { method: methods[0]!, strict: r.init.strict } })),
      );
      if (through.serves) this.listRoutes(b, r, methods, paths, items, prefix, active, steps, app, servedBy);
      // (one whose handler is the app's own, and no guard, is a route when no later route runs
      // behind it: `handingOn`)
      else if (items.length > 0 && this.ctx.handsOnAsHandler(items[items.length - 1]!, reg.at)) {
        const full = paths.map((p) => joinPath(prefix, p));
        const list = (): void => this.listRoutes(b, r, methods, paths, items, prefix, active, steps, app, servedBy);
        this.handingOn.push({ method: methods[0]!, paths: full, caseSensitive: r.init.caseSensitive, strict: r.init.strict, list });
      }
      return layers;
    }
    this.listRoutes(b, r, methods, paths, items, prefix, active, steps, app, servedBy);
    return [];
  }

  /** A route listed, `method` at `full`: the route registrations handing on before it that it runs behind are no routes (handingOn). */
  private reached(method: string, full: string): void {
    if (this.handingOn.length === 0) return;
    this.handingOn = this.handingOn.filter(
      (h) => !((h.method === 'ALL' || h.method === method) && h.paths.some((p) => routePathCovers(p, full, h.caseSensitive, h.strict))),
    );
  }

  private listRoutes(
    b: BoundRegistration,
    r: RouterObject,
    methods: string[],
    paths: string[],
    items: { value: Value; expr: Expr; file: string }[],
    prefix: string,
    active: ScopedGuard[],
    prefixes: PrefixStep[],
    app: RouterObject,
    servedBy?: { by: string; guards: AppliedGuard[] },
  ): void {
    const { reg, file } = b;
    const handler = items[items.length - 1];
    const routeGuards: AppliedGuard[] = [];
    for (const it of items.slice(0, -1)) {
      const g = this.ctx.guard(it.file, it.expr, it.value, 'route-middleware', reg.at);
      // A function of the route that does part of the work and calls next (`(req, res, next) => {
      // const userId = currentUserId(req); …; next() }`) is a handler stage (LinkContext.stageGuards).
      const stage = this.ctx.stageGuards(g, it.value, false, it);
      if (stage.length > 0) routeGuards.push(...stage);
      // (a route of a router mounted at `prefix` sees the path below it)
      else if (g) routeGuards.push(this.ctx.mountedAt(this.ctx.placed(g, file), prefix));
    }
    // (a package's handler applies its own: package-handlers.ts)
    const inHandler = [...(handler ? [...this.ctx.handlerGuards(handler), ...answeringGuards(this.ctx.ev, handler.value, file, reg.at.line)] : []), ...(servedBy?.guards ?? [])];
    // (a package's handler answering there: named by its package)
    const written = handler ? this.ctx.writtenHandler(handler) : null;
    const handlerName = servedBy?.by ?? (handler && written ? handlerNameOf(this.ctx.ev, written) ?? answeringPackage(handler.value, 'express') : null);
    const params = this.paramGuards(r);
    for (const p of paths) {
      const full = joinPath(prefix, p);
      if (!this.throughHanded(methods[0]!, full)) continue;
      if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
      this.reached(methods[0]!, full);
      const paramGuards = params.size === 0 ? [] : paramNames(p).flatMap((n) => params.get(n) ?? []);
      const applied = applying(active, methods[0]!, full);
      this.ctx.addRoute(
        {
          method: methods[0]!,
          ...reportedPath(full),
          ...routePlace(file, reg),
          framework: 'express',
          handler: handlerName,
          app: app.name ?? 'app',
          trailingSlashInsensitive: !r.init.strict || (p === '/' && prefix !== ''),
          caseSensitive: r.init.caseSensitive,
          prefixes,
          guards: uniqueGuards([...applied, ...paramGuards, ...routeGuards, ...inHandler]),
          handlerFn: written?.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null,
        },
        app,
      );
    }
  }
}
