/**
 * Hono (4) and @hono/zod-openapi. Semantics modelled from hono's src/hono-base.ts and
 * src/utils/url.ts (read at v4.13) and @hono/zod-openapi's src/index.ts (v1.6):
 *
 * - An app is `new Hono(options)` (or `new OpenAPIHono()`, or `createFactory(init).createApp(options)`
 *   of hono/factory, whose `initApp` and `defaultAppOptions` are not read); `strict` defaults to
 *   true: `/x` and `/x/` are different paths unless `strict: false`.
 * - Every registration appends handlers to the app's one route table in call order:
 *   `get/post/…/all(path?, ...handlers)` (no path: the instance's current path, the last
 *   one given to a method or `use`), `on(methods, paths, ...handlers)`, `use(path?, ...mw)`
 *   (no path: `*`). A request runs the matching handlers in registration order, so a
 *   middleware guards the routes registered after it on a matching path. `/api/*` matches
 *   `/api` and everything under it; a path without `*` matches only itself (`use('/api', mw)`
 *   does not guard `/api/sites`). A path ending in an optional parameter (`/sites/:id?`)
 *   is registered with and without it (utils/url.ts checkOptionalParameter).
 * - `basePath(p)` returns a clone sharing the route table whose registrations are prefixed
 *   with `mergePath(base, p)`; `route(p, sub)` copies the routes `sub`'s table holds at
 *   that moment (routes added to `sub` later are not served by the parent), each prefixed
 *   with `mergePath(mergePath(base, p), route.path)`. mergePath drops a sub path `/`:
 *   `route('/api/sites', sub)` with `sub.get('/')` serves `/api/sites`, never `/api/sites/`.
 * - @hono/zod-openapi: `app.openapi(createRoute({ method, path, middleware, hide }), handler)`
 *   registers `on([method], path with {p} → :p, ...middleware, ...validators, handler)` and,
 *   unless `hide`, the route in the instance's OpenAPI registry; `route(p, sub)` on an
 *   OpenAPIHono merges an OpenAPIHono sub's registry; `basePath` makes a new, empty registry.
 *   `doc(path, …)` / `doc31(path, …)` serve the registry as a document (a GET route), so a
 *   route is published in API docs when a registry holding it is served.
 */
import type { Adapter, RouterInit } from '../adapter.js';
import { isNull, pathChoices, stringsOf, writtenCall, type RouterObject, type Value } from '../../link/evaluate.js';
import { cmp, prefixStep, routePlace, uniqueGuards, type BoundRegistration, type LinkContext } from '../../link/link.js';
import { optionalForms, reportedPath, withoutUnknownHeads, type OptionalSyntax } from '../paths.js';
import { looksLikePath, pathNote, UnknownHeads } from '../unknown-heads.js';
import type { AppliedGuard, CallFact, Expr, Loc, PrefixStep, RegistrationFact } from '../../types.js';
import { handlerNameOf } from '../handler-name.js';
import { answeringPackage, HONO_TRPC } from '../package-handlers.js';
import { servedBy } from '../serving.js';
import { endpointRouter, procedureMethods, trpcProcedures, trpcUnread, underHeaderContext } from '../trpc.js';
import { openApiEndpoint, openApiRoutes } from '../trpc-openapi.js';
import { ORPC_METHODS, orpcRoutes } from '../orpc.js';

/** `/:type?` at the end of a path (utils/url.ts checkOptionalParameter); braces hold a parameter's pattern (`:id{[0-9]+}`). */
const OPTIONAL: OptionalSyntax = { question: true, braces: false };
const METHODS: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  options: 'OPTIONS',
  all: 'ALL',
};

const HONO_MODULES = ['hono', 'hono/quick', 'hono/tiny'];
/** hono/factory: `createFactory(init)`, whose `createApp(options)` makes an app */
const FACTORY_MODULE = 'hono/factory';
const OPENAPI_MODULE = '@hono/zod-openapi';

/** Apps made by `new OpenAPIHono()` (their RouterInit objects, as the evaluator stores them). */
const OPENAPI_APPS = new WeakSet<RouterInit>();

interface Item {
  value: Value;
  expr: Expr;
  file: string;
}

/** A registration's identity across copies: which OpenAPI registries hold it. */
interface Origin {
  registries: Set<string>;
}

interface Entry {
  kind: 'route' | 'mw';
  method: string;
  /** full path within the table */
  path: string;
  items: Item[];
  /** the registration that wrote the route (its location) */
  reg: RegistrationFact;
  file: string;
  prefixes: PrefixStep[];
  /** when the entry entered this table: its own registration, or the `route()` that copied it */
  added: (string | number)[];
  origin: Origin;
  /** `doc()`: the OpenAPI document itself */
  doc: boolean;
  /** a route a package answers itself (chanfana's documentation routes): its name, the route's handler */
  by?: string;
  /**
   * a route a middleware answers itself at the whole path it tests (`c.req.path`: serving.ts),
   * which a route() copying it keeps as it is, where that path is under the one copied to
   */
  absolute?: true;
  /**
   * a route's registration by its method (`get`, `on`, `all`: not `use`) whose last function
   * hands on (`await next()`), so a middleware for the later routes it matches (emit)
   */
  verb?: true;
  /**
   * a tRPC procedure (trpc.ts): named by its path, located where it is written; its middleware,
   * then its resolver, are `items`. `endpoint`: @hono/trpc-server's, null when not given (the
   * path it is used at), or trpc-openapi's fetch handler's; undefined for an oRPC procedure.
   * `below`: the path trpc-openapi serves it at below its endpoint (trpc-openapi.ts)
   */
  procedure?: { path: string; file: string; at: Loc; endpoint?: string | null; below?: string; /** the endpoint's context made from a request header only (trpc.ts headerContext) */ context?: string };
  /**
   * An entry of another app's table that a function of this one hands its request to
   * (`boardApp.fetch(c.req.raw)`: HonoLinker.dispatched), outermost first: it runs behind them.
   */
  via?: Dispatch[];
}

/**
 * A function handing its request, whole, to another app's `fetch` (documenso's job provider,
 * whose function answers non-admins with 401 and the rest with `boardApp.fetch(c.req.raw)`).
 * That app matches the request's whole path, as it came: its routes keep their paths, behind
 * the function's checks (`handler`) and, when a registration of the code uses it, the functions
 * before it there (`layers`), reached only where `reach` (the registration's path, in the table
 * it is in) matches them; its middleware runs only for its own routes. Or `mount(path,
 * app.fetch)`, which hands the app the request with the path cut off: its routes are below the
 * path, as a table's own are (no `reach`, no function of the code).
 */
interface Dispatch {
  layers: Item[];
  /** the function; `expr` where a registration gives it */
  handler?: { file: string; expr?: Expr; value: Value };
  reach?: string;
  at: Loc;
}

/** An instance's current path (for a method called without one), and the step of its head when that is not known statically. */
interface Current {
  /** the paths it may be (several: one of a few, `legacy ? '/sites' : '/projects'`); null: a path not known statically that was left out */
  paths: string[] | null;
  head: PrefixStep | null;
}

/** Hono's mergePath (src/utils/url.ts), for two paths. */
export function mergePath(base: string, sub: string): string {
  const lead = base[0] === '/' ? '' : '/';
  if (sub === '/') return `${lead}${base}`;
  return `${lead}${base}${base.at(-1) === '/' ? '' : '/'}${sub[0] === '/' ? sub.slice(1) : sub}`;
}

/** The parts of each path seen after its leading `/` (every route is tested against every middleware before it). */
const PARTS = new Map<string, readonly string[]>();

function partsOf(p: string): readonly string[] {
  let parts = PARTS.get(p);
  if (!parts) {
    parts = p.split('/').slice(1);
    if (PARTS.size > 100_000) PARTS.clear();
    PARTS.set(p, parts);
  }
  return parts;
}

/**
 * A regular expression of the request paths a Hono path pattern matches, as honoApplies reads one:
 * `*` a segment (a trailing one, the path before it and every path below), `:name` one that is
 * not empty.
 */
function honoPatternSource(pattern: string): string {
  if (pattern === '*' || pattern === '/*') return '^.*$';
  const parts = pattern.split('/');
  const tail = parts[parts.length - 1] === '*';
  const seg = (p: string): string => (p === '*' ? '[^/]*' : p.startsWith(':') ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `^${(tail ? parts.slice(0, -1) : parts).map(seg).join('/')}${tail ? '(?:/.*)?' : ''}$`;
}

/** Does a middleware registered at `pattern` run for requests to the route `route`? */
export function honoApplies(pattern: string, route: string, strict: boolean): boolean {
  if (pattern === '*' || pattern === '/*') return true;
  let ps = partsOf(pattern);
  let rs = partsOf(route);
  const seg = (p: string, r: string): boolean => p === r || p === '*' || (p.startsWith(':') && r !== '');
  if (ps[ps.length - 1] === '*') {
    const pre = ps.slice(0, -1);
    return rs.length >= pre.length && pre.every((p, i) => seg(p, rs[i]!));
  }
  if (!strict) {
    if (ps.length > 1 && ps[ps.length - 1] === '') ps = ps.slice(0, -1);
    if (rs.length > 1 && rs[rs.length - 1] === '') rs = rs.slice(0, -1);
  }
  return ps.length === rs.length && ps.every((p, i) => seg(p, rs[i]!));
}

function bool(v: Value | undefined): boolean | undefined {
  return v?.t === 'bool' ? v.v : undefined;
}

export const honoAdapter: Adapter = {
  name: 'hono',
  title: 'Hono',
  modules: [...HONO_MODULES, OPENAPI_MODULE, FACTORY_MODULE],

  create(pkg, path, args, isNew, ev): RouterInit | null {
    const isHono = HONO_MODULES.includes(pkg) && path.length === 1 && path[0] === 'Hono';
    const isOpenApi = pkg === OPENAPI_MODULE && path.length === 1 && path[0] === 'OpenAPIHono';
    // `createFactory(init).createApp(options)` (hono/factory, helper/factory/index.ts): `new Hono(options)`
    const isFactoryApp = pkg === FACTORY_MODULE && !isNew && path.join('.') === 'createFactory.().createApp';
    if (!isFactoryApp && (!isNew || (!isHono && !isOpenApi))) return null;
    const o = args[0];
    const init: RouterInit = { kind: 'app', strict: bool(o?.t === 'obj' ? ev.member(o, 'strict', 0) : undefined) ?? true, caseSensitive: true };
    if (isOpenApi) OPENAPI_APPS.add(init);
    return init;
  },

  routerMethod(router, method, args) {
    if (method === 'basePath') {
      const p = args[0];
      if (!p) return null;
      const unknown = router.init.prefixUnknown;
      if (p.t === 'str') return { kind: 'router', strict: router.init.strict, caseSensitive: true, prefix: mergePath(router.init.prefix ?? '/', p.v), ...(unknown ? { prefixUnknown: unknown } : {}) };
      // not known statically (`basePath(env('BASE_PATH') || '/')`): the clone serves its routes at
      // an unknown head (HonoLinker.baseOfView), what was known before it left out
      return { kind: 'router', strict: router.init.strict, caseSensitive: true, prefix: '/', prefixUnknown: pathNote(p) };
    }
    return METHODS[method] || ['use', 'on', 'route', 'mount', 'openapi', 'doc', 'doc31', 'onError', 'notFound'].includes(method) ? 'self' : null;
  },

  link(ctx: LinkContext): void {
    new HonoLinker(ctx).run();
  },

  readsCall: (call) => (call.callee.k === 'ref' ? call.callee.name : call.callee.k === 'member' ? call.callee.prop : null) === 'fromHono' && call.args.length > 0,
  registrationOf: chanfanaRegistration,
};

/** chanfana (read at 3.x, src/adapters/hono.ts and src/openapi.ts), whose `fromHono(app, options)` serves its documentation on `app`. */
const CHANFANA = 'chanfana';
/** The method `fromHono(app, options)` is read as, on `app`: the documentation routes it registers there at once. */
const CHANFANA_DOCS = 'chanfana.fromHono';
/** The paths chanfana's `route(path, sub)` leaves out of the sub-app it mounts (its default documentation routes). */
const CHANFANA_UNMOUNTED = new Set(['/openapi.json', '/openapi.yaml', '/docs', '/redocs']);

function chanfanaRegistration(call: CallFact, callee: Value): RegistrationFact | null {
  if (callee.t !== 'pkg' || callee.pkg !== CHANFANA || callee.path.length !== 1 || callee.path[0] !== 'fromHono') return null;
  return { target: call.args[0]!, method: CHANFANA_DOCS, args: call.args.slice(1, 2), chainPath: null, ...(call.when ? { when: call.when } : {}), at: call.at, snippet: call.snippet };
}

/** Hono's adapters exporting `upgradeWebSocket` (hono 4.x, each adapter's websocket.ts). */
const WEBSOCKET_ADAPTERS = ['hono/cloudflare-workers', 'hono/deno', 'hono/bun'];

/**
 * A WebSocket handler made by Hono's helpers (read at hono 4.13, src/helper/websocket/index.ts
 * `defineWebSocketHelper`, and @hono/node-ws 1.3): `upgradeWebSocket(createEvents)` of
 * hono/cloudflare-workers, hono/deno and hono/bun, of what `createBunWebSocket()` (hono/bun)
 * and `createNodeWebSocket({ app })` (@hono/node-ws) return. It answers a request asking to
 * upgrade (the socket's events run from then on) and hands any other on with `next()`: last
 * in a route (`app.get('/ws', upgradeWebSocket(…))`), it is the route's handler, not a
 * middleware.
 */
function upgradesWebSocket(v: Value): boolean {
  if (v.t !== 'pkg' || !v.called) return false;
  const name = v.path.join('.');
  if (name === 'upgradeWebSocket') return WEBSOCKET_ADAPTERS.includes(v.pkg);
  return (v.pkg === 'hono/bun' && name === 'createBunWebSocket.().upgradeWebSocket') || (v.pkg === '@hono/node-ws' && name === 'createNodeWebSocket.().upgradeWebSocket');
}

class HonoLinker {
  private readonly tables = new Map<string, Entry[]>();
  private readonly computing = new Set<string>();
  private readonly mounted = new Set<string>();
  /** where each view's registrations are served (baseOfView), by view */
  private readonly viewBases = new Map<string, { base: string; steps: PrefixStep[] }>();
  /** basePath() clones not known statically, warned about */
  private readonly warnedBases = new Set<string>();
  /** OpenAPI registries (by instance) served with doc()/doc31() */
  private readonly published = new Set<string>();
  /** apps chanfana's `fromHono(app)` registers on (by base app) */
  private readonly chanfanaApps = new Set<string>();
  private readonly routers: RouterObject[];
  /** route() paths whose heads are not known statically */
  private readonly heads: UnknownHeads;
  /** the apps each function hands its request to (`app.fetch(c.req.raw)`), by `file#fn` */
  private fetchers: Map<string, RouterObject[]> | null = null;
  /** Functions a mount() hands its requests to (`file#fn`): a use of the app they hand them on to that the analysis sees. */
  private readonly mountTargets = new Set<string>();
  /** An app's mounts of itself, by app: where in its table each was, and how it copies an entry. */
  private readonly selfMounts = new Map<string, { b: BoundRegistration; index: number; copy: (e: Entry) => Entry }[]>();
  /** the functions handing their request to each app, by its id, where they do */
  private readonly handedBy = new Map<string, { value: Value; file: string; at: Loc }[]>();

  constructor(private readonly ctx: LinkContext) {
    this.routers = ctx.routersOf('hono');
    this.heads = new UnknownHeads(ctx.ev);
  }

  run(): void {
    const bases = this.routers.filter((r) => !r.init.derivedFrom);
    for (const b of bases) this.entries(b);
    this.fetchersOf();
    for (const b of bases) {
      if (this.mounted.has(b.id) || this.ctx.servedThroughInstances(b.id, this.mounted)) continue;
      // An app only one function hands its request to, used nowhere the analysis sees (documenso's,
      // through a job provider chosen at run time): its routes, behind that function's checks. (Handed
      // it by several, a Worker's `fetch` and a test's helper, it is listed as an app of its own.)
      const handed = this.handedBy.get(b.id)?.filter((h) => h.value.t !== 'fn' || !this.mountTargets.has(`${h.value.file}#${h.value.fn}`));
      if (handed?.length !== 1) this.emit(b);
      else {
        const d: Dispatch = { layers: [], handler: handed[0]!, reach: '*', at: handed[0]!.at };
        this.emit(b, (e) => ({ ...e, via: [d, ...(e.via ?? [])] }));
      }
    }
  }

  /**
   * Where a view's registrations are served: its base path and the prefix steps to it. Below a
   * `basePath()` not known statically, the base starts at that call's unknown head (UnknownHeads:
   * so only middleware placed under the same head runs for its routes; known text before it stays
   * before it), warned about once.
   */
  private baseOfView(view: RouterObject): { base: string; steps: PrefixStep[] } {
    if (!this.viewBases.has(view.id)) this.viewBases.set(view.id, this.viewBase(view));
    return this.viewBases.get(view.id)!;
  }

  private viewBase(view: RouterObject): { base: string; steps: PrefixStep[] } {
    const known = view.init.prefix ?? '/';
    const knownStep = (): PrefixStep[] => (known === '/' ? [] : [{ prefix: known, file: view.file, line: view.at.line }]);
    if (!view.init.prefixUnknown) return { base: known, steps: knownStep() };
    // the clone whose own basePath() is not known: the first in the chain from the base app
    let origin = view;
    for (let i = 0; i < 64; i++) {
      const parent = this.ctx.ev.routers.get(origin.init.derivedFrom ?? '');
      if (!parent?.init.prefixUnknown) break;
      origin = parent;
    }
    const e = origin.args[0]!;
    const head = this.heads.pathOf(origin.file, e, this.ctx.ev.eval(origin.file, e));
    if (!this.warnedBases.has(origin.id)) {
      this.warnedBases.add(origin.id);
      this.ctx.warn(origin.file, origin.at, `the base path of this basePath() is not known statically (${head.note}); the routes registered through it are listed without it`, '');
    }
    const step: PrefixStep = { prefix: '', file: origin.file, line: origin.at.line, unknown: head.note };
    return { base: mergePath(head.path, known), steps: [step, ...(origin === view ? [] : knownStep())] };
  }

  private baseOf(r: RouterObject): RouterObject {
    let x = r;
    for (let i = 0; x.init.derivedFrom && i < 64; i++) x = this.ctx.ev.routers.get(x.init.derivedFrom)!;
    return x;
  }

  private isOpenApi(r: RouterObject): boolean {
    return OPENAPI_APPS.has(this.baseOf(r).init);
  }

  /**
   * The routers listed when linking began, and `base`: a factory's app that a caller got with
   * options of its own (RouterObject.instanceOf) is made once the mount naming the call is read.
   */
  private viewsWith(base: RouterObject): RouterObject[] {
    return this.routers.includes(base) ? this.routers : [...this.routers, base];
  }

  /** The table of a base app: every registration on it or its basePath clones, in order. */
  private entries(base: RouterObject): Entry[] {
    const done = this.tables.get(base.id);
    if (done) return done;
    if (this.computing.has(base.id)) return [];
    this.computing.add(base.id);
    const regs: { b: BoundRegistration; view: RouterObject; key: (string | number)[] }[] = [];
    for (const view of this.viewsWith(base)) {
      if (this.baseOf(view).id !== base.id) continue;
      for (const b of this.ctx.registrationsOf(view.id)) regs.push({ b, view, key: [b.order[1] === base.file ? 0 : 1, ...b.order.slice(1)] });
    }
    regs.sort((x, y) => cmp(x.key, y.key));
    const out: Entry[] = [];
    const current = new Map<string, Current>(); // the instance's current path, per clone
    for (const { b, view, key } of regs) this.register(b, view, key, out, current);
    // its mounts of itself (mountedFetch): the whole table served below each path too, where the mount is in it
    const own = out.slice();
    for (const s of (this.selfMounts.get(base.id) ?? []).reverse()) {
      const copies: Entry[] = [];
      for (const e of own) {
        if (!this.ctx.expand(s.b.file, s.b.reg.at, s.b.reg.snippet)) break;
        copies.push(s.copy(e));
      }
      out.splice(s.index, 0, ...copies);
    }
    this.selfMounts.delete(base.id);
    this.computing.delete(base.id);
    this.tables.set(base.id, out);
    return out;
  }

  private register(b: BoundRegistration, view: RouterObject, key: (string | number)[], out: Entry[], current: Map<string, Current>): void {
    const { reg, file } = b;
    const ev = this.ctx.ev;
    const { base, steps } = this.baseOfView(view);
    const entry = (kind: Entry['kind'], method: string, p: string, items: Item[], origin: Origin = { registries: new Set() }, doc = false, head: PrefixStep | null = null, by?: string): void => {
      const prefixes = head ? [...steps, head] : steps;
      // (a route's registration by its method, handing on: Entry.verb)
      const verb = kind === 'mw' && m !== 'use' ? { verb: true as const } : {};
      for (const path of optionalForms(mergePath(base, p), OPTIONAL)) out.push({ kind, method, path, items, reg, file, prefixes, added: key, origin, doc, ...verb, ...(by ? { by } : {}) });
    };
    const m = reg.method;
    if (METHODS[m] || m === 'use') {
      const first = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
      // A path not known statically (`` `${base}/api/*` ``): at its unknown head (UnknownHeads), a
      // step of the route's prefixes; left out when it starts with known text.
      // A route's own path is listed so only when something is known after the head, as in the
      // other adapters (UnknownHeads.routePathOf): a path that is all head says nothing of where
      // the route is served. The calls after it without a path (`.post(h)` of a chain) take the
      // path left out, and are left out too.
      const known = this.knownPaths(b, first);
      const unknownPath = first !== null && known === null && reg.args.length >= 2 && looksLikePath(reg.args[0]!, first);
      const head = !unknownPath ? null : m === 'use' ? this.heads.pathOf(file, reg.args[0]!, first) : this.heads.routePathOf(file, reg.args[0]!, first);
      if (unknownPath && !head) {
        this.ctx.warn(file, reg.at, `the path of this ${m}() is not known statically (${this.heads.pathOf(file, reg.args[0]!, first).note}); it is left out`, reg.snippet);
        current.set(view.id, { paths: null, head: null });
        return;
      }
      if (head) {
        this.ctx.warn(file, reg.at, `the path of this ${m}() is not known statically (${head.note}); ${m === 'use' ? 'it runs only for routes mounted under the same head' : 'it is listed without that part'}`, reg.snippet);
        current.set(view.id, { paths: [head.path], head: prefixStep('', file, reg, head.note) });
      } else if (known) current.set(view.id, { paths: known, head: null });
      else if (m === 'use') current.set(view.id, { paths: ['*'], head: null });
      const { paths, head: step } = current.get(view.id) ?? { paths: ['/'], head: null };
      if (paths === null) {
        this.ctx.warn(file, reg.at, `the path of this ${m}() is the one left out before it (not known statically); it is left out`, reg.snippet);
        return;
      }
      const items = ev.flatten(file, known || head ? reg.args.slice(1) : reg.args);
      if (items.length === 0) return;
      // @hono/trpc-server's endpoint with its router known: a route per procedure
      if (m === 'use' && this.trpcEntries(b, items[items.length - 1]!.value, paths.map((p) => mergePath(base, p)), out, key, steps)) return;
      // a middleware handing the request to an oRPC handler (`handler.handle(c.req.raw, { prefix })`): a route per procedure it answers
      if (m === 'use' && this.orpcEntries(b, items, paths.map((p) => mergePath(base, p)), this.baseOf(view).init.strict, out, key, steps)) return;
      // a function handing the request to trpc-openapi's fetch handler: a route per procedure it serves over REST
      if ((m === 'use' || m === 'all') && this.openApiEntries(b, items, paths.map((p) => mergePath(base, p)), out, key, steps)) return;
      // use() adds its functions as all() does (hono-base.ts), so one given a path whose last
      // function answers and never calls next() serves what reaches it, an ALL route: a
      // package's handler (a GraphQL or tRPC endpoint: package-handlers.ts) or one of the code
      // (documenso's `app.use('/api/v2/*', async (c) => openApiTrpcServerHandler(c, …))`). As
      // in the Express adapter, not one without a path: that is the app's fallback.
      const answers = m === 'use' && (answeringPackage(items[items.length - 1]!.value, 'hono') !== null || ((known !== null || head !== null) && this.answersAlone(items[items.length - 1]!)));
      // one answering the requests to a path itself, handing every other on: a route at each
      // path it answers where it runs (serving.ts), and a middleware still
      if (m === 'use' && !answers) this.servedEntries(b, items[items.length - 1]!, paths.map((p) => mergePath(base, p)), steps, key, out);
      for (const p of paths) {
        if (m === 'use') entry(answers ? 'route' : 'mw', 'ALL', p, items);
        else entry(this.isMiddleware(items[items.length - 1]!) ? 'mw' : 'route', METHODS[m]!, p, items, undefined, false, step);
      }
      this.dispatched(b, view, items, m === 'use' ? 'ALL' : METHODS[m]!, paths.map((p) => mergePath(base, p)), key, out);
      return;
    }
    if (m === 'on') {
      const methods = stringsOf(ev.eval(file, reg.args[0]!));
      const paths = reg.args[1] ? stringsOf(ev.eval(file, reg.args[1])) : null;
      if (!methods || !paths) {
        this.ctx.warn(file, reg.at, `on() with methods or paths not known statically; the routes are left out`, reg.snippet);
        return;
      }
      const items = ev.flatten(file, reg.args.slice(2));
      if (items.length === 0) return;
      for (const p of paths) {
        current.set(view.id, { paths: [p], head: null });
        for (const method of methods) entry(this.isMiddleware(items[items.length - 1]!) ? 'mw' : 'route', method.toUpperCase(), p, items);
      }
      return;
    }
    // `app.mount('/legacy', legacyApp.fetch)`: another application answering every request at and
    // below the path, whatever its method (hono-base.ts `mount`: an ALL route at `mergePath(path, '*')`)
    if (m === 'mount') {
      const paths = this.knownPaths(b, reg.args[0] ? ev.eval(file, reg.args[0]) : null);
      if (!paths) {
        this.ctx.warn(file, reg.at, `the path of this mount() is not known statically; what it mounts is left out`, reg.snippet);
        return;
      }
      const items = ev.flatten(file, reg.args.slice(1, 2));
      if (items.length === 0) return;
      // (an app of the code answers there with its routes, each listed, or its notFound: no route of its own)
      if (this.mountedFetch(b, view, paths, base, steps, key, out)) return;
      for (const p of paths) entry('route', 'ALL', mergePath(p, '*'), items);
      return;
    }
    // chanfana's `fromHono(app, options)` (OpenAPIHandler.createDocsRoutes): GET routes for the
    // Swagger UI (`docs_url`, '/docs'), ReDoc (`redoc_url`, '/redocs') and the document as JSON
    // (`openapi_url`, '/openapi.json') and YAML (its `.json` made `.yaml`), each turned off by
    // null, all of them by `openapi_url: null`; with `base`, what it registers is not read (a warning)
    if (m === CHANFANA_DOCS) {
      const options = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
      const option = (k: string): Value | undefined => (options?.t === 'obj' && k in options.props ? ev.member(options, k, 0) : undefined);
      if (option('base') !== undefined) {
        this.ctx.warn(file, reg.at, `fromHono() with a base registers on app.basePath(base), which is not read: the routes registered through it are left out`, reg.snippet);
        return;
      }
      this.chanfanaApps.add(this.baseOf(view).id);
      const url = (v: Value | undefined, fallback: string): string | null => (v === undefined || (v.t === 'str' && v.v === '') ? fallback : v.t === 'str' ? v.v : null);
      if (isNull(option('openapi_url'))) return;
      const json = url(option('openapi_url'), '/openapi.json');
      const paths = [isNull(option('docs_url')) ? null : url(option('docs_url'), '/docs'), isNull(option('redoc_url')) ? null : url(option('redoc_url'), '/redocs'), json, json === null ? null : json.replace(/\.json$/, '.yaml')];
      for (const p of new Set(paths)) if (p !== null) entry('route', 'GET', p, [], undefined, false, null, CHANFANA);
      return;
    }
    if (m === 'route') this.mount(b, view, key, out, base, steps, entry);
    else if (m === 'openapi') this.openapi(b, view, entry);
    else if (m === 'doc' || m === 'doc31') {
      const p = ev.eval(file, reg.args[0]!);
      this.published.add(view.id);
      if (p.t === 'str') entry('route', 'GET', p.v, [], undefined, true);
    }
  }

  /** A path known statically: a string, or one of a few (each may be served; LinkContext.pathsOf). */
  private knownPaths(b: BoundRegistration, v: Value | null): string[] | null {
    return v && pathChoices(v) ? this.ctx.pathsOf(b.file, b.reg, v) : null;
  }

  /**
   * `route(path, sub)`: a copy of what `sub`'s table holds now, under `mergePath(base, path)`; a
   * package's app (`entry` adds its route), what it answers at and below the path.
   */
  private mount(b: BoundRegistration, view: RouterObject, key: (string | number)[], out: Entry[], base: string, steps: PrefixStep[], entry: (kind: Entry['kind'], method: string, p: string, items: Item[]) => void): void {
    const { reg, file } = b;
    const ev = this.ctx.ev;
    const pv = ev.eval(file, reg.args[0]!);
    const given = reg.args[1] ? ev.eval(file, reg.args[1]) : null;
    // (one app of a few, all but one empty when the mount runs — a factory's `if (!config.bucket)
    // return new Hono()` before the app of its routes —: that one; Hono copies a table, so two
    // ways' tables copied one after the other would guard each other's routes)
    const filled =
      given?.t === 'unknown' && given.alts?.every((a) => a.t === 'router')
        ? given.alts.filter((a) => {
            const alt = this.baseOf(ev.routers.get((a as Extract<Value, { t: 'router' }>).id)!);
            // (one being computed, mounted inside itself, is no empty one: left to the warning below)
            return this.computing.has(alt.id) || this.entries(alt).some((e) => this.before(e.added, key));
          })
        : null;
    const sub = filled?.length === 1 ? filled[0]! : given;
    // A path not known statically mounts at its unknown head (UnknownHeads): what it mounts is listed without it.
    // (one of a few paths, `legacy ? '/v1' : '/v2'`: mounted at each)
    const known = this.knownPaths(b, pv);
    const head = known || sub?.t !== 'router' ? null : this.heads.pathOf(file, reg.args[0]!, pv);
    if (!known && !head) {
      this.ctx.warn(file, reg.at, `the path of this route() is not known statically; what it mounts is left out`, reg.snippet);
      return;
    }
    const paths = known ?? [head!.path];
    // @bull-board/hono's `registerPlugin()` (package-handlers.ts): an ALL route at
    // `mergePath(path, '*')`, as mount() makes one
    if (sub && answeringPackage(sub, 'hono') !== null) {
      const items = ev.flatten(file, reg.args.slice(1, 2));
      for (const p of paths) entry('route', 'ALL', mergePath(p, '*'), items);
      return;
    }
    if (sub?.t !== 'router') {
      this.ctx.warn(file, reg.at, `sub-app mounted at '${withoutUnknownHeads(mergePath(base, paths[0]!), '/…')}' could not be resolved (${sub?.t === 'unknown' ? sub.why : 'no app'}); the routes under it are unknown`, reg.snippet);
      return;
    }
    if (head) this.ctx.warn(file, reg.at, `the path of this route() is not known statically (${head.note}); the routes under it are listed without that part`, reg.snippet);
    const subView = this.ctx.ev.routers.get(sub.id)!;
    const subBase = this.baseOf(subView);
    if (this.computing.has(subBase.id)) {
      this.ctx.warn(file, reg.at, `mount cycle: an app is mounted inside itself; its routes are listed once`, reg.snippet);
      return;
    }
    this.mounted.add(subBase.id);
    const merge = this.isOpenApi(view) && this.isOpenApi(subView);
    for (const p of paths) {
      const prefix = mergePath(base, p);
      const step = head ? prefixStep(head.tail, file, reg, head.note) : prefixStep(p, file, reg);
      // (the dispatches of the sub-app's table, reaching below the prefix now: each one object still)
      const moved = new Map<Dispatch, Dispatch>();
      // (chanfana's `route(path, sub)` of one app of its onto another leaves out the sub-app's
      // default documentation routes: adapters/hono.ts `excludePath`)
      const entries = this.entries(subBase);
      const chanfana = this.chanfanaApps.has(this.baseOf(view).id) && this.chanfanaApps.has(subBase.id);
      for (const e of entries) {
        if (!this.before(e.added, key)) continue;
        if (chanfana && e.by === CHANFANA && CHANFANA_UNMOUNTED.has(e.path)) continue;
        // the route-graph budget: each route() copies the sub-app's table, and copies multiply
        if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
        if (merge && e.origin.registries.has(subView.id)) e.origin.registries.add(view.id);
        if (e.via?.some((d) => d.reach !== undefined)) {
          // an app handed the whole request keeps its paths: reached only if the prefixed registration still matches them
          const via = e.via.map((d) => (d.reach === undefined ? d : (moved.get(d) ?? moved.set(d, { ...d, reach: mergePath(prefix, d.reach) }).get(d)!)));
          if (honoApplies(via.find((d) => d.reach !== undefined)!.reach!, e.path, this.baseOf(view).init.strict)) out.push({ ...e, via, added: key });
          continue;
        }
        if (e.absolute) {
          // (the whole path it tests: reached only below the path copied to)
          if (honoApplies(mergePath(prefix, '*'), e.path, this.baseOf(view).init.strict)) out.push({ ...e, prefixes: [...steps, step, ...e.prefixes], added: key });
          continue;
        }
        out.push({ ...e, path: mergePath(prefix, e.path), prefixes: [...steps, step, ...e.prefixes], added: key });
      }
    }
  }

  /**
   * The routes of a function of the code used by use() that answers the requests to a path
   * itself and hands every other on (Behaviour.servesFor, serving.ts): its test reads
   * `c.req.path`, the whole path, so each is at that path where the use() runs for it (`at`).
   */
  private servedEntries(b: BoundRegistration, it: Item, at: string[], steps: PrefixStep[], key: (string | number)[], out: Entry[]): void {
    for (const s of servedBy(this.ctx.ev, this.unwrap(it.value), (m) => this.ctx.warn(b.file, b.reg.at, m, b.reg.snippet)))
      if (at.some((p) => honoApplies(p, s.path, true)))
        out.push({ kind: 'route', method: s.method ?? 'ALL', path: s.path, items: [it], reg: b.reg, file: b.file, prefixes: steps, added: key, origin: { registries: new Set() }, doc: false, absolute: true });
  }

  /** A sub-app's entry was in its table when the mount ran: written earlier in the same file, or in another (imported, so evaluated first). */
  private before(added: (string | number)[], mount: (string | number)[]): boolean {
    if (added[1] !== mount[1]) return true;
    return cmp(added.slice(2), mount.slice(2)) < 0;
  }

  private openapi(b: BoundRegistration, view: RouterObject, entry: (kind: Entry['kind'], method: string, p: string, items: Item[], origin?: Origin) => void): void {
    const { reg, file } = b;
    const ev = this.ctx.ev;
    const cfg = ev.eval(file, reg.args[0]!);
    if (cfg.t !== 'obj') {
      this.ctx.warn(file, reg.at, `openapi() route config not known statically; the route is left out`, reg.snippet);
      return;
    }
    const method = ev.member(cfg, 'method', 0);
    const path = ev.member(cfg, 'path', 0);
    if (method.t !== 'str' || path.t !== 'str') {
      this.ctx.warn(file, reg.at, `openapi() route with a method or path not known statically; it is left out`, reg.snippet);
      return;
    }
    const mw = cfg.props['middleware'];
    const handler = reg.args[1];
    const items = [...(mw ? ev.flatten(cfg.file, [mw]) : []), ...(handler ? ev.flatten(file, [handler]) : [])];
    const hidden = bool(ev.member(cfg, 'hide', 0)) === true;
    entry('route', method.v.toUpperCase(), path.v.replace(/\/{(.+?)}/g, '/:$1'), items, { registries: new Set(hidden ? [] : [view.id]) });
  }

  /**
   * A handler that passes control on (`await next()`) or a package middleware (`csrf()`,
   * `bearerAuth(…)`), but for a package's handler that answers (`Scalar({ url })`: package-handlers.ts).
   */
  private isMiddleware(it: Item): boolean {
    const v = this.unwrap(it.value);
    if (v.t === 'pkg') return v.called && answeringPackage(v, 'hono') === null && !upgradesWebSocket(v);
    if (v.t !== 'fn') return false;
    return this.ctx.ev.fnOf(v.file, v.fn)?.behaviour.callsNext ?? false;
  }

  /**
   * A function of the code that ends every request reaching it: it never calls next() nor hands
   * it to another (midday's `try { await withAuth(c, next) } catch { return c.json(…, 401) }`),
   * and it answers or is given no next() to call (`async (c) => handler(c.req.raw)`).
   */
  private answersAlone(it: Item): boolean {
    const v = this.unwrap(it.value);
    const f = v.t === 'fn' ? this.ctx.ev.fnOf(v.file, v.fn) : undefined;
    if (!f) return false;
    const b = f.behaviour;
    return !b.callsNext && !b.passesOn && !b.handsTo?.length && (b.sendsResponse || f.params.length < 2);
  }

  /** `createMiddleware(async (c, next) => …)` (hono/factory) is the function it wraps. */
  private unwrap(v: Value): Value {
    if (v.t === 'pkg' && v.pkg === 'hono/factory' && v.called && v.path[v.path.length - 1] === 'createMiddleware' && v.args[0]?.t === 'fn') return v.args[0];
    return v;
  }

  private guard(it: Item, mechanism: 'app.use' | 'route-middleware', at: Loc): AppliedGuard | null {
    return this.ctx.guard(it.file, it.expr, this.unwrap(it.value), mechanism, at);
  }

  /**
   * A middleware as the guards it applies: itself, or, when it is no guard itself but leads with
   * checks (`await assertSignedIn(c); await next()`), those checks (LinkContext.stageGuards).
   */
  private guards(it: Item, mechanism: 'app.use' | 'route-middleware', at: Loc): AppliedGuard[] {
    const v = it.value;
    if (v.t === 'pkg' && v.pkg === 'hono/combine' && v.called && (v.path.join('.') === 'some' || v.path.join('.') === 'except')) return this.combined(it, v, mechanism, at);
    return this.ctx.layerGuards(this.guard(it, mechanism, at), this.unwrap(it.value), undefined, it);
  }

  /**
   * hono/combine (read at hono 4.6, src/middleware/combine/index.ts; its `every`, each in turn, is
   * flattened as a list is: Evaluator.flatten). `some(…)` lets a request go on through the first
   * of its middleware that does not throw (a condition returning true at once): it guards as all
   * of them do alike, a candidate when one is; nothing when one guards nothing.
   * `except(condition, …)` runs its middleware but for the requests the condition matches: the
   * paths written (as Hono's router reads `'/api/public/*'`) are let through untouched; a
   * condition function's are not known statically.
   */
  private combined(it: Item, v: Extract<Value, { t: 'pkg' }>, mechanism: 'app.use' | 'route-middleware', at: Loc): AppliedGuard[] {
    const ev = this.ctx.ev;
    const written = writtenCall(ev, it.file, it.expr);
    const items = (i: number): Item[] => {
      const e = written && written.call.args.length === v.args.length ? written.call.args[i] : undefined;
      return e ? ev.flatten(written!.file, [e]) : [{ file: it.file, expr: it.expr, value: v.args[i]! }];
    };
    if (v.path[0] === 'except') {
      const cond = v.args[0];
      const conds = cond?.t === 'arr' ? cond.items : cond ? [cond] : [];
      const paths = conds.filter((c): c is Extract<Value, { t: 'str' }> => c.t === 'str');
      const patterns = conds.length > 0 && paths.length === conds.length ? paths.map((c) => ({ source: honoPatternSource(c.v), label: `paths matching ${c.v}` })) : null;
      return v.args.slice(1).flatMap((_, i) => items(i + 1).flatMap((x) => this.guards(x, mechanism, at)).map((g) => this.ctx.lettingThrough(g, patterns, 'a condition of except()')));
    }
    const alternatives = v.args.map((_, i) => items(i).flatMap((x) => this.guards(x, mechanism, at)));
    if (alternatives.length === 0 || alternatives.some((a) => a.length === 0)) return [];
    const common = <T>(of: (g: AppliedGuard) => readonly T[]): T[] => {
      const sets = alternatives.map((a) => new Set(a.flatMap(of)));
      return [...sets[0]!].filter((k) => sets.every((s) => s.has(k)));
    };
    const known = common((g) => g.kinds.filter((k) => k !== 'unknown'));
    const kinds = known.length > 0 ? known : alternatives.some((a) => a.some((g) => g.kinds.includes('unknown'))) ? (['unknown'] as const) : [];
    if (kinds.length === 0) return [];
    const names = alternatives.map((a) => a.map((g) => g.name).join(' + ')).join(', ');
    return [{ name: 'some', kinds: [...kinds], families: common((g) => g.families), reason: `by package (hono/combine: a request goes on through the first of ${names} that lets it)`, mechanism, file: it.file, line: at.line }];
  }

  /**
   * `use(path, trpcServer({ router, endpoint }))` of @hono/trpc-server (read at 0.3 and at its
   * current source, src/index.ts): it hands the request, its whole URL, to tRPC's fetch adapter,
   * which takes the procedure from the path after `endpoint`. Each procedure of the router is a
   * route for its kind's method, behind the middleware before it and the procedure's own
   * (trpc.ts), under each path the middleware is used at that ends in a wildcard (`/trpc/*`, or
   * none: every path) — at `endpoint/<procedure>` once the table is whole (`servedAt`). False
   * when `v` is no such endpoint, or (with a warning) its router is not known statically: it is
   * then one route.
   */
  private trpcEntries(b: BoundRegistration, v: Value, paths: string[], out: Entry[], key: (string | number)[], steps: PrefixStep[]): boolean {
    const { reg, file } = b;
    if (answeringPackage(v, 'hono') !== HONO_TRPC) return false;
    const opts = v.t === 'pkg' ? v.args[0] : undefined;
    const endpointValue = opts?.t === 'obj' && 'endpoint' in opts.props ? this.ctx.ev.member(opts, 'endpoint', 0) : null;
    const given = endpointValue ? stringsOf(endpointValue) : [null];
    // (what is not known named, so the config's `values` can give it: `getBasePath()` of documenso's `formatPath('/api/trpc')`)
    const found = given?.length === 1 ? trpcProcedures(this.ctx.ev, endpointRouter(v), opts) : { why: `the endpoint is not known statically${endpointValue ? ` (${pathNote(endpointValue)})` : ''}` };
    if ('why' in found) {
      this.ctx.warn(file, reg.at, trpcUnread(found.why), reg.snippet);
      return false;
    }
    const endpoint = given![0]!;
    for (const used of paths) {
      // (a path without a wildcard hands tRPC that path alone, which names no procedure)
      if (!/(^|\/)\*$/.test(used)) continue;
      const stem = used.replace(/\/?\*$/, '') || '/';
      for (const p of found.procedures) {
        const items: Item[] = [...p.middleware, ...(p.resolver ? [p.resolver] : [])];
        for (const method of procedureMethods(this.ctx.ev, p.kind, opts))
          out.push({ kind: 'route', method, path: mergePath(stem, p.path), items, reg, file, prefixes: steps, added: key, origin: { registries: new Set() }, doc: false, procedure: { path: p.path, file: p.file, at: p.at, endpoint, ...(p.context ? { context: p.context } : {}) } });
      }
    }
    return true;
  }

  /**
   * Where a tRPC procedure of @hono/trpc-server is served, its entry's path (`…/<procedure>`, the
   * stem of the path the middleware is used at) being whole in the app's table: at
   * `endpoint/<procedure>` when that path is under the stem (the endpoint names the URL's head
   * the app is mounted at: karakeep's `trpcServer({ endpoint: '/api/trpc' })` in a sub-app used
   * at `/*`, mounted at `/trpc` under `basePath('/api')`). An endpoint not given is the path the
   * middleware is used at, `/trpc` for every path (its current source; 0.3 took `/trpc`
   * always). Null, with a warning, when the endpoint is not under the stem: tRPC then finds no
   * procedure in any path it is handed. A procedure of trpc-openapi's fetch handler alike, at
   * its endpoint and the path it is served at below it (`below`).
   */
  private servedAt(e: Entry, strict: boolean): string | null {
    const p = e.procedure!;
    const tail = p.below === undefined ? `/${p.path}` : p.below === '/' ? '' : p.below;
    const stem = e.path.slice(0, e.path.length - tail.length);
    const endpoint = (p.endpoint ?? (stem || '/trpc')).replace(/\/+$/, '') || '/';
    const served = mergePath(endpoint, p.below ?? p.path);
    if (served === e.path || honoApplies(mergePath(stem || '/', '*'), served, strict)) return served;
    const [which, finder] = p.below === undefined ? [HONO_TRPC, 'tRPC finds'] : ['this createOpenApiFetchHandler(…)', 'it finds'];
    this.ctx.warn(e.file, e.reg.at, `the endpoint of ${which} ('${endpoint}') is not under the path it is used at ('${mergePath(stem || '/', '*')}'), so ${finder} no procedure in a request it is handed; its procedures are left out`, e.reg.snippet);
    return null;
  }

  /**
   * `use(path, async (c, next) => { const { matched, response } = await handler.handle(c.req.raw,
   * { prefix }) … })`, oRPC's documented Hono mount (orpc.ts): each procedure the handler
   * answers at a path `paths` take (for every method), behind the middleware before it, the
   * functions before it in the use() and the procedure's own, located where the procedure is
   * written. oRPC matches the request's whole path: read in an app the function is registered
   * on itself (a procedure's path is listed as it is matched). False when the function hands no
   * request to oRPC, or (with a warning) the endpoint is not read.
   */
  private orpcEntries(b: BoundRegistration, items: Item[], paths: string[], strict: boolean, out: Entry[], key: (string | number)[], steps: PrefixStep[]): boolean {
    const { reg, file } = b;
    const last = items[items.length - 1]!;
    const routes = orpcRoutes(this.ctx, last.value, ORPC_METHODS, (path) => paths.some((p) => honoApplies(p, path, strict)), { file, at: reg.at, snippet: reg.snippet });
    for (const { procedure: p, method, path } of routes ?? []) {
      const own: Item[] = [...items.slice(0, -1), ...p.middleware, ...(p.resolver ? [p.resolver] : [])];
      out.push({ kind: 'route', method, path, items: own, reg, file, prefixes: steps, added: key, origin: { registries: new Set() }, doc: false, procedure: { path: p.keys.join('.'), file: p.file, at: p.at } });
    }
    return routes !== null;
  }

  /**
   * `use(path, (c) => createOpenApiFetchHandler({ endpoint, router, req: c.req.raw }))` of
   * trpc-openapi (also `all()`; trpc-openapi.ts), which reads the request's whole URL with
   * `endpoint` taken out: each procedure it serves over REST, for its `openapi.method`, behind
   * the middleware before it, the functions before it in the use() and the procedure's own,
   * located where the procedure is written — under each path the function is used at that ends
   * in a wildcard, at `endpoint` and its `openapi.path` once the table is whole (`servedAt`).
   * False when the function returns no such handler, or (with a warning) its router or
   * `endpoint` is not known statically: it is then one route.
   */
  private openApiEntries(b: BoundRegistration, items: Item[], paths: string[], out: Entry[], key: (string | number)[], steps: PrefixStep[]): boolean {
    const { reg, file } = b;
    const endpoint = openApiEndpoint(this.ctx, this.unwrap(items[items.length - 1]!.value), ['createOpenApiFetchHandler']);
    const routes = endpoint && openApiRoutes(this.ctx, endpoint, '/', () => true, { file, at: reg.at, snippet: reg.snippet });
    // (routes are read only of an endpoint known statically: openApiRoutes)
    if (!endpoint || !routes || endpoint.endpoint?.t !== 'str') return false;
    const at = endpoint.endpoint.v;
    for (const used of paths) {
      // (a path without a wildcard hands the handler that path alone)
      if (!/(^|\/)\*$/.test(used)) continue;
      const stem = used.replace(/\/?\*$/, '') || '/';
      for (const { procedure: p, method, below } of routes) {
        const own: Item[] = [...items.slice(0, -1), ...p.middleware, ...(p.resolver ? [p.resolver] : [])];
        out.push({ kind: 'route', method, path: mergePath(stem, below), items: own, reg, file, prefixes: steps, added: key, origin: { registries: new Set() }, doc: false, procedure: { path: p.path, file: p.file, at: p.at, endpoint: at, below, ...(p.context ? { context: p.context } : {}) } });
      }
    }
    return true;
  }

  /**
   * `mount(path, app.fetch)` of a Hono app of the code: hono-base.ts hands it every request at and
   * below the path with the path cut off (`mergePath(basePath, path)`'s length), so its routes
   * are served below the path, its own middleware guarding them alone (Dispatch); with `{
   * replaceRequest: false }`, the request as it came: its routes keep their paths, those below the
   * path served. Not with a function of the code replacing the request: the ALL route stands alone.
   * The app may be the one mounting it (cella's server, `baseApp.mount('/api', (request, env, ctx)
   * => baseApp.fetch(request, env, ctx))`, cutting off a prefix its load balancer keeps): its
   * table, once complete, is served below the path too, once (entries). True when the app is
   * known: what the mount answers is then what its routes and its notFound answer.
   */
  private mountedFetch(b: BoundRegistration, view: RouterObject, paths: string[], base: string, steps: PrefixStep[], key: (string | number)[], out: Entry[]): boolean {
    const { reg, file } = b;
    const options = reg.args[2] ? this.ctx.ev.eval(file, reg.args[2]) : null;
    const whole = options?.t === 'obj' && bool(this.ctx.ev.member(options, 'replaceRequest', 0)) === false;
    const cut = options === null || options.t === 'fn' || (options.t === 'obj' && !('replaceRequest' in options.props));
    const target = reg.args[1] && (whole || cut) ? this.mountTarget(file, reg.args[1]) : null;
    const self = target?.app.id === this.baseOf(view).id;
    if (!target || (self && whole)) return false;
    if (target.handler) this.mountTargets.add(`${target.handler.value.file}#${target.handler.value.fn}`);
    for (const p of paths) {
      const at = mergePath(base, p);
      const d: Dispatch = { layers: [], ...(target.handler ? { handler: target.handler } : {}), at: reg.at, ...(whole ? { reach: mergePath(at, '*') } : {}) };
      const step = prefixStep(p, file, reg);
      // (an app mount() hands the path below its own: what one of that app's middleware tests
      // whole is below it too)
      const place = (e: Entry): Partial<Entry> => (whole ? {} : { path: mergePath(at, e.path), prefixes: [...steps, step, ...e.prefixes], absolute: undefined });
      if (self) {
        const pending = this.selfMounts.get(target.app.id) ?? [];
        this.selfMounts.set(target.app.id, [...pending, { b, index: out.length, copy: (e) => ({ ...e, ...place(e), via: [d, ...(e.via ?? [])], added: key }) }]);
      } else if (!this.handTo(b, view, target.app, d, key, out, place)) break;
    }
    return true;
  }

  /**
   * The Hono app a mount() hands its requests to: `app.fetch`, or a function of the code
   * returning only what `app.fetch` answers for the request it was given (fetchersOf), with
   * that function, whose checks run first.
   */
  private mountTarget(file: string, target: Expr): { app: RouterObject; handler?: { file: string; value: Extract<Value, { t: 'fn' }> } } | null {
    if (target.k === 'member' && target.prop === 'fetch') {
      const v = this.ctx.ev.eval(file, target.obj);
      const router = v.t === 'router' ? this.ctx.ev.routers.get(v.id) : undefined;
      return router?.framework === 'hono' ? { app: this.baseOf(router) } : null;
    }
    const v = this.ctx.ev.eval(file, target);
    if (v.t !== 'fn') return null;
    const apps = this.fetchersOf().get(`${v.file}#${v.fn}`);
    const returns = this.ctx.ev.fnOf(v.file, v.fn)?.returns ?? [];
    const onlyFetched = returns.length > 0 && returns.every((r) => r.k === 'call' && r.callee.k === 'member' && r.callee.prop === 'fetch');
    return apps?.length === 1 && onlyFetched ? { app: apps[0]!, handler: { file: v.file, value: v } } : null;
  }

  /**
   * The entries of the apps a registration's last function hands its request to (Dispatch), those
   * the registration's paths reach, for its method: after the registration's own, in its table.
   */
  private dispatched(b: BoundRegistration, view: RouterObject, items: Item[], method: string, paths: string[], key: (string | number)[], out: Entry[]): void {
    const last = this.unwrap(items[items.length - 1]!.value);
    if (last.t !== 'fn') return;
    const apps = this.fetchersOf().get(`${last.file}#${last.fn}`) ?? [];
    // (a method's registration hands on that method's requests alone)
    const place = (e: Entry): Partial<Entry> | null => (method === 'ALL' ? {} : e.method === 'ALL' || e.method === method ? { method } : null);
    for (const app of apps) {
      for (const reach of paths) {
        const d: Dispatch = { layers: items.slice(0, -1), handler: items[items.length - 1]!, reach, at: b.reg.at };
        if (!this.handTo(b, view, app, d, key, out, place)) return;
      }
    }
  }

  /**
   * The entries of an app a registration hands requests to (Dispatch), after the registration's
   * own in its table, behind `d`: those its `reach` reaches, when it has one, each as `place`
   * serves it (null: not at all). False once over the route-graph budget.
   */
  private handTo(b: BoundRegistration, view: RouterObject, app: RouterObject, d: Dispatch, key: (string | number)[], out: Entry[], place: (e: Entry) => Partial<Entry> | null): boolean {
    if (app.id === this.baseOf(view).id || this.computing.has(app.id)) return true;
    this.mounted.add(app.id);
    const strict = this.baseOf(view).init.strict;
    for (const e of this.entries(app)) {
      const placed = d.reach === undefined || honoApplies(d.reach, e.path, strict) ? place(e) : null;
      if (!placed) continue;
      if (!this.ctx.expand(b.file, b.reg.at, b.reg.snippet)) return false;
      out.push({ ...e, ...placed, via: [d, ...(e.via ?? [])], added: key });
    }
    return true;
  }

  /** Each function handing its request to an app's `fetch` (`return boardApp.fetch(c.req.raw)`), with the apps. */
  private fetchersOf(): Map<string, RouterObject[]> {
    if (this.fetchers) return this.fetchers;
    this.fetchers = new Map();
    for (const r of this.routers) {
      for (const b of this.ctx.registrationsOf(r.id)) {
        if (b.reg.method !== 'fetch' || !b.reg.args[0]) continue;
        // the request a function was given: `c.req.raw` of its context, or the request itself
        const p = this.ctx.ev.eval(b.file, b.reg.args[0]);
        if (p.t !== 'param' || p.file !== b.file || p.index !== 0) continue;
        const key = `${b.file}#${p.fn}`;
        const app = this.baseOf(r);
        const apps = this.fetchers.get(key) ?? [];
        // (one function handing it a request twice hands it once: `return x ? app.fetch(a) : app.fetch(b)`)
        if (apps.includes(app)) continue;
        this.fetchers.set(key, [...apps, app]);
        this.handedBy.set(app.id, [...(this.handedBy.get(app.id) ?? []), { value: { t: 'fn', file: b.file, fn: p.fn }, file: b.file, at: b.reg.at }]);
      }
    }
    return this.fetchers;
  }

  private emit(base: RouterObject, handed: (e: Entry) => Entry = (e) => e): void {
    const list = this.entries(base).map(handed);
    const views = this.viewsWith(base).filter((r) => this.baseOf(r).id === base.id);
    const app = base.name ?? views.find((v) => v.name)?.name ?? 'app';
    const applies = (m: Entry, method: string, path: string): boolean => (m.method === 'ALL' || m.method === method) && honoApplies(m.path, path, base.init.strict);
    // A route's registration handing on that no later route runs behind (`app.get('/increment',
    // async (c, next) => { …; await next() })`, its answer written by a middleware after its own
    // `next()`, or Hono's 404): its function still runs for the requests it matches, so it is a
    // route too — not when that is a package's middleware (`app.post('/x', csrf())`) or a guard
    // (`app.get('/admin/*', mustSignIn)`), which serve nothing of the app's. (Hono's compose,
    // src/compose.ts read at 4.13: the last handler's `next()` finds no handler and answers with
    // notFound unless the context is finalized; a middleware may set `c.res` after.)
    const serving = (e: Entry): boolean => {
      const last = e.items[e.items.length - 1]!;
      return this.ctx.handsOnAsHandler({ ...last, value: this.unwrap(last.value) }, e.reg.at);
    };
    // (decided from the last entry back: one listed so runs behind the earlier ones at its path)
    const alone = new Set<Entry>();
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i]!;
      if (e.verb && !list.some((r, j) => j > i && (r.kind === 'route' || alone.has(r)) && applies(e, r.method, r.path)) && serving(e)) alone.add(e);
    }
    // the middleware met so far in the table: what runs before the route at hand
    const before: Entry[] = [];
    for (const e of list) {
      if (e.kind === 'mw' && !alone.has(e)) before.push(e);
      if (e.kind !== 'route' && !alone.has(e)) continue;
      const path = e.procedure?.endpoint !== undefined ? this.servedAt(e, base.init.strict) : e.path;
      if (path === null) continue;
      const guards: AppliedGuard[] = [];
      // (the middleware of an app handed the request: after what handed it, for its own routes alone)
      const inner: AppliedGuard[] = [];
      for (const m of before) {
        if (!applies(m, e.method, path) || (m.via && !m.via.every((d, i) => e.via?.[i] === d))) continue;
        for (const it of m.items) (m.via ? inner : guards).push(...this.guards(it, 'app.use', m.reg.at));
      }
      for (const d of e.via ?? []) {
        for (const it of d.layers) guards.push(...this.guards(it, 'route-middleware', d.at));
        if (d.handler) guards.push(...(d.handler.expr ? this.ctx.handlerGuards({ ...d.handler, expr: d.handler.expr }) : this.ctx.inHandlerGuards(d.handler.value)));
      }
      guards.push(...inner);
      // (a tRPC procedure's middleware: each where its builder is given it)
      const own: AppliedGuard[] = [];
      if (e.procedure) own.push(...e.items.slice(0, -1).flatMap((it) => this.guard(it, 'route-middleware', (it as { at?: Loc }).at ?? e.procedure!.at) ?? []));
      else for (const it of e.items.slice(0, -1)) own.push(...this.guards(it, 'route-middleware', e.reg.at));
      const handler = e.items[e.items.length - 1];
      if (handler) own.push(...this.ctx.handlerGuards(handler));
      const written = handler ? this.ctx.writtenHandler(handler) : null;
      guards.push(...underHeaderContext(own, e.procedure?.context));
      const docs = [...e.origin.registries].some((r) => this.published.has(r));
      this.ctx.addRoute(
        {
          method: e.method,
          ...reportedPath(path),
          ...(e.procedure ? { file: e.procedure.file, line: e.procedure.at.line, column: e.procedure.at.column, snippet: '' } : routePlace(e.file, e.reg)),
          framework: 'hono',
          handler: e.procedure ? e.procedure.path : e.doc ? '(OpenAPI document)' : (e.by ?? (handler && written ? (handlerNameOf(this.ctx.ev, written) ?? answeringPackage(handler.value, 'hono')) : null)),
          app,
          trailingSlashInsensitive: !base.init.strict,
          caseSensitive: true,
          ...(docs ? { apiDocs: { generator: OPENAPI_MODULE, hide: 'hide: true in its createRoute() config' } } : {}),
          prefixes: e.prefixes,
          guards: uniqueGuards(guards),
          handlerFn: written?.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null,
        },
        base,
      );
    }
  }
}
