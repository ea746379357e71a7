/**
 * Koa with @koa/router (or koa-router). Semantics modelled from @koa/router's
 * src/router.ts and src/layer.ts (read at v15.1) and path-to-regexp v8:
 *
 * - A router keeps one stack of layers in registration order: routes
 *   (`router.get([name,] path | paths, ...middleware, handler)`, `del`, `all`) and
 *   middleware (`router.use([path | paths], ...middleware)`); `router.register(path, methods,
 *   middleware, opts)`, what those call, a route for each method named. A request runs the matching
 *   layers in stack order, so middleware guards the routes registered after it on a
 *   matching path (a `use` without a path covers everything under the router's prefix).
 * - `router.use([path,] sub.routes())` clones the layers `sub` holds at that moment into
 *   the stack (routes added to `sub` later are not served through the parent), prefixing
 *   each with the path and then the parent's prefix (`Layer.setPrefix`).
 * - Prefixes: `new Router({ prefix })`, and `router.prefix(p)` (trailing slash removed),
 *   which re-prefixes every layer of the router. `setPrefix` concatenates, except that a
 *   route `/` in a non-strict router becomes the bare prefix.
 * - Matching: non-strict by default (path-to-regexp `trailing: true`): `/x` also serves
 *   `/x/`, but a route written `/x/` does not serve `/x`; case-insensitive unless
 *   `sensitive: true`. Optional parts (`:id?`, `{/:id}`) serve the path with and without
 *   them, each form a layer of its own; `(.*)` (path-to-regexp 6) is a wildcard like `*rest`.
 * - The Koa app runs its middleware in `app.use` order; `app.use(router.routes())`
 *   dispatches to the router's live stack, so app middleware used before the mount guards
 *   its routes and middleware used after it does not. `koa-mount` mounts at a path.
 * - koa-route (read at 4.0.1 and 3.2.0, index.js): `route.get(path, fn[, opts])` — or
 *   `route.get(path)(fn)` — is app middleware answering one method (`all`: any) on one
 *   path-to-regexp path, matched against `ctx.path` (below a koa-mount, the path under it):
 *   non-strict and case-insensitive unless `opts` says otherwise. It calls `fn(ctx, ...params,
 *   next)` when the request matches and `next()` when not, so the app middleware before it
 *   guards it; a `fn` that passes the request on guards the later routes matching its path and
 *   method, as a route whose last middleware awaits `next()` does in @koa/router.
 * - koa-proxies: `proxy(path, options)` is app middleware answering, from another server, every
 *   request at or below `path`: an ALL route there, behind the app middleware before it.
 */
import type { Adapter, RouterInit } from '../adapter.js';
import { addSocketIoRoutes, mayAttachSocketIo } from '../socket-io.js';
import { pathChoices, stringsOf, writtenCall, type Evaluator, type RouterObject, type Value } from '../../link/evaluate.js';
import { cmp, paramNames, prefixStep, routePlace, uniqueGuards, type BoundRegistration, type LinkContext, type ParamCallback } from '../../link/link.js';
import type { AppliedGuard, Expr, GuardMechanism, Loc, PrefixStep, RegistrationFact } from '../../types.js';
import { handlerNameOf } from '../handler-name.js';
import { applying, isWildcard, neverMatched, optionalForms, pathApplies, reportedPath, routePathCovers, type OptionalSyntax, type ScopedGuard } from '../paths.js';
import { looksLikePath, pathNote, UnknownHeads, type HeadPath } from '../unknown-heads.js';
import { listsNothingWherever } from '../../guards.js';
import { ROUTER_METHODS } from '../methods.js';
import { answeringGuards, answeringPackage } from '../package-handlers.js';
import { servedBy } from '../serving.js';

const METHODS = ROUTER_METHODS;
/** @koa/router 12 and koa-router write `:id?` and `{/:id}?` (path-to-regexp 6), @koa/router 13+ `{/:id}` (path-to-regexp 8). */
const OPTIONAL: OptionalSyntax = { question: true, braces: true };

const ROUTER_MODULES = ['@koa/router', 'koa-router'];
const KOA_ROUTE = 'koa-route';
/**
 * koa-route's methods: those of the `methods` package (1.1, Node's HTTP methods lowercased),
 * `del` for `delete`, and `all` for any.
 */
const KOA_ROUTE_METHODS: Record<string, string> = {
  ...METHODS,
  ...Object.fromEntries(
    ['trace', 'copy', 'lock', 'mkcol', 'move', 'purge', 'propfind', 'proppatch', 'unlock', 'report', 'mkactivity', 'checkout', 'merge', 'm-search', 'notify', 'subscribe', 'unsubscribe', 'search', 'connect'].map((m) => [m, m.toUpperCase()]),
  ),
};
/** koa-swagger-decorator's SwaggerRouter, a koa-router subclass (read at 1.8.7 and 2.2.1) */
const SWAGGER_DECORATOR = 'koa-swagger-decorator';

interface Item {
  value: Value;
  expr: Expr;
  file: string;
}

/** A koa-route middleware: the route it answers (or a koa-proxies middleware: the requests it proxies). */
interface KoaRoute {
  method: string;
  /** its path's forms (optional parts each way) */
  paths: string[];
  strict: boolean;
  sensitive: boolean;
  handler: Item;
  /** the package answering it, when no function of the analysed code does (the route's handler name) */
  servedBy?: string;
  /** the guards that package applies itself */
  guards?: AppliedGuard[];
}

/** koa-proxies (read at 0.12.4, index.js): `proxy(path, options)` proxies the requests whose `ctx.path` is at or below `path`. */
const KOA_PROXIES = 'koa-proxies';

interface AppStep {
  router?: RouterObject;
  route?: KoaRoute;
  prefix: string;
  /** a koa-mount path not known statically: `prefix` is at its unknown head (UnknownHeads) */
  head?: HeadPath;
  mw?: Item;
  reg: RegistrationFact;
  file: string;
}

/** The step of a mount's prefix among its routes' prefixes (none for '/'). */
function mountSteps(step: AppStep): PrefixStep[] {
  if (step.head) return [{ prefix: step.head.tail, file: step.file, line: step.reg.at.line, unknown: step.head.note }];
  return step.prefix ? [{ prefix: step.prefix, file: step.file, line: step.reg.at.line }] : [];
}

/**
 * A path below a koa-mount at `base`, which strips it: `/` is the bare mount path (both `/v1` and
 * `/v1/` reach it). A wildcard written without a slash (`*`, `(.*)` of koa-router 7) takes every
 * path below it, which starts with `/` there: the mount's `<base>/*` (koa-mount matches `/v1` and
 * `/v1/…`, never `/v1x`).
 */
function underMount(base: string, path: string): string {
  if (base && !path.startsWith('/') && isWildcard(path)) return `${base}/*`;
  return !base ? path : path === '/' ? base : base + path;
}

/** A router's layer served below a koa-mount at `base`, with the mount's prefix steps before its own. */
function mountedLayer(l: Layer, base: string, prefixes: PrefixStep[]): Layer {
  const path = underMount(base, l.path);
  return base && l.kind === 'route' && l.path === '/' ? { ...l, path, prefixes, bothForms: true } : { ...l, path, prefixes };
}

interface Layer {
  kind: 'route' | 'mw';
  methods: string[];
  /** route: its path; middleware: the path it covers ('' = everything reaching the router) */
  path: string;
  strict: boolean;
  sensitive: boolean;
  items: Item[];
  mechanism: GuardMechanism;
  reg: RegistrationFact;
  file: string;
  /** mount steps, outermost first */
  prefixes: PrefixStep[];
  /** when the layer entered this stack */
  added: (string | number)[];
  /** route: `router.param(name, fn)` callbacks of the routers whose stack holds it, for the parameters its path names (@koa/router runs them before the route's middleware, whenever registered) */
  params?: ParamCallback[];
  /** route: a router's `/` below a koa-mount, which both `/mount` and `/mount/` reach (underMount) */
  bothForms?: true;
}

function bool(v: Value | undefined): boolean | undefined {
  return v?.t === 'bool' ? v.v : undefined;
}

/** Layer.setPrefix: a route `/` of a non-strict router becomes the bare prefix. */
export function setPrefix(path: string, prefix: string, strict: boolean, kind: Layer['kind'] = 'route'): string {
  if (!prefix) return path;
  if (kind === 'route' && path === '/' && !strict) return prefix;
  return prefix + path;
}

/** A koa-swagger-decorator 2.x config (its first argument, with the document's `spec`), or null for 1.x. */
function swaggerConfig(ev: Evaluator, args: Value[]): Value | null {
  const first = args[0];
  return first?.t === 'obj' && ev.member(first, 'spec', 0).t !== 'unknown' ? first : null;
}

function routerOptions(ev: Evaluator, o: Value | undefined): { prefix?: string; prefixOneOf?: string[]; prefixUnknown?: string; strict: boolean; caseSensitive: boolean } {
  if (o?.t !== 'obj') return { strict: false, caseSensitive: false };
  const p = ev.member(o, 'prefix', 0);
  // (one of a few, `legacy ? '/v1' : '/v2'`: each)
  const oneOf = p.t === 'unknown' ? pathChoices(p) : null;
  return {
    ...(p.t === 'str' ? { prefix: p.v } : oneOf ? { prefixOneOf: oneOf } : p.t === 'unknown' && p.why.startsWith('no property') ? {} : { prefixUnknown: pathNote(p) }),
    strict: bool(ev.member(o, 'strict', 0)) ?? false,
    caseSensitive: bool(ev.member(o, 'sensitive', 0)) ?? false,
  };
}

export const koaAdapter: Adapter = {
  name: 'koa',
  title: 'Koa (@koa/router, koa-route)',
  modules: ['koa', ...ROUTER_MODULES, SWAGGER_DECORATOR, KOA_ROUTE],

  create(pkg, path, args, _isNew, ev): RouterInit | null {
    const top = path.length === 0 || (path.length === 1 && path[0] === 'default');
    if (pkg === 'koa' && top) return { kind: 'app', strict: false, caseSensitive: false };
    if (ROUTER_MODULES.includes(pkg) && (top || (path.length === 1 && path[0] === 'Router'))) return { kind: 'router', ...routerOptions(ev, args[0]) };
    // 1.x: `new SwaggerRouter(routerOptions, swaggerOptions)`; 2.x: `new SwaggerRouter(config, routerOptions)`, config holding the `spec`
    if (pkg === SWAGGER_DECORATOR && path.length === 1 && path[0] === 'SwaggerRouter') return { kind: 'router', ...routerOptions(ev, swaggerConfig(ev, args) ? args[1] : args[0]) };
    return null;
  },

  routerMethod(_router, method) {
    // `router.routes()` / `router.middleware()` is the router's dispatch: it stands for the router.
    return METHODS[method] || ['use', 'routes', 'middleware', 'prefix', 'param', 'redirect'].includes(method) ? 'self' : null;
  },

  link(ctx: LinkContext): void {
    new KoaLinker(ctx).run();
  },

  readsCall: mayAttachSocketIo,
};

class KoaLinker {
  private readonly stacks = new Map<string, Layer[]>();
  private readonly computing = new Set<string>();
  private readonly mounted = new Set<string>();
  private readonly routers: RouterObject[];
  /** routers whose prefix is not known statically, said once the mounts are known (run) */
  private readonly prefixUnknown = new Set<RouterObject>();
  /** route layers already warned about as never matched (reachable) */
  private readonly unreachable = new Set<string>();
  /** use() and route paths whose heads are not known statically */
  private readonly heads: UnknownHeads;

  constructor(private readonly ctx: LinkContext) {
    this.routers = ctx.routersOf('koa');
    this.heads = new UnknownHeads(ctx.ev);
  }

  run(): void {
    const apps = this.routers.filter((r) => r.init.kind === 'app');
    const routers = this.routers.filter((r) => r.init.kind === 'router');
    for (const r of routers) this.stack(r, null);
    for (const r of routers) if (r.made?.pkg === SWAGGER_DECORATOR) this.mappedClasses(r);
    const appMounts = apps.map((a) => ({ app: a, plan: this.appPlan(a) }));
    for (const { plan } of appMounts) for (const step of plan) if (step.router) this.mounted.add(step.router.id);
    // An app mounted into another (koa-mount) is served through it.
    for (const { app, plan } of appMounts) {
      if (this.mounted.has(app.id)) continue;
      this.ctx.ownApps.push(app);
      this.emitApp(app, plan);
    }
    for (const r of routers) {
      if (this.mounted.has(r.id) || this.ctx.servedThroughInstances(r.id, this.mounted)) continue;
      // (a route at a path with no slash, `router.post('documents.list', …)`, is matched below the
      // prefix another router's `use('/', r.routes())` glues before it: of a router nothing here
      // mounts, it is left out, said once with the router — outline's plugins hand theirs to a registry)
      const stack = this.stack(r, null);
      if (!stack.some((l) => l.kind === 'route')) continue;
      const layers = stack.filter((l) => l.kind !== 'route' || !neverMatched(l.path));
      // (each registration once: a helper registering on the router at two calls makes its layers twice)
      const below = [...new Map(stack.filter((l) => l.kind === 'route' && neverMatched(l.path)).map((l) => [`${l.file}:${l.reg.at.line}:${l.reg.at.column}:${l.path}`, l])).values()];
      const listed = layers.some((l) => l.kind === 'route');
      const left =
        below.length === 0
          ? ''
          : `; ${below.length === 1 ? 'one route' : `${below.length} routes`} at a path starting with neither '/' nor a pattern ('${below[0]!.path}'), which @koa/router matches only below a prefix a router mounting it glues before it, ${below.length === 1 ? 'is' : 'are'} left out`;
      this.ctx.warn(r.file, r.at, `router ${r.name ?? ''} is never mounted on an app in the analysed files${listed ? '; its routes are listed with its own prefix only' : ''}${left}`.replace('  ', ' '), '');
      if (listed) this.emitLayers(layers, [], r.name ?? 'router', '', r);
    }
    // (a factory's router that callers get with prefixes of their own is listed with theirs)
    for (const r of this.prefixUnknown)
      if (this.mounted.has(r.id) || !this.ctx.servedThroughInstances(r.id, this.mounted))
        this.ctx.warn(r.file, r.at, `router prefix not known statically (${r.init.prefixUnknown}); the router's routes are listed without it`, '');
    addSocketIoRoutes(this.ctx, 'koa');
  }

  /**
   * `router.map(UserController, {})` of a SwaggerRouter (1.x), in the files that make or register
   * on it: the class's decorated routes are not read, and said so. (`map` is no registration
   * method: arrays have one; the file's calls hold it.)
   */
  private mappedClasses(r: RouterObject): void {
    const files = new Set([r.file, ...this.ctx.registrationsOf(r.id).map((b) => b.file)]);
    for (const file of [...files].sort()) {
      for (const c of this.ctx.files.get(file)?.calls ?? []) {
        if (c.callee.k !== 'member' || c.callee.prop !== 'map') continue;
        const v = this.ctx.ev.eval(file, c.callee.obj);
        if (v.t === 'router' && v.id === r.id) this.ctx.warn(file, c.at, `routes of controller classes mapped by koa-swagger-decorator (map) are not read; they are left out`, '');
      }
    }
  }

  private key(b: BoundRegistration, r: RouterObject): (string | number)[] {
    return [b.order[1] === r.file ? 0 : 1, ...b.order.slice(1)];
  }

  /** A registration made before `upTo`: earlier in the same file, or in another (imported, so evaluated first). */
  private before(added: (string | number)[], upTo: (string | number)[] | null): boolean {
    if (!upTo) return true;
    if (added[1] !== upTo[1]) return true;
    return cmp(added.slice(2), upTo.slice(2)) < 0;
  }

  /** The router's stack as it stands at `upTo` (null: finally), with the router's prefix at that time applied. */
  private stack(r: RouterObject, upTo: (string | number)[] | null): Layer[] {
    const memo = `${r.id}@${upTo ? upTo.join('|') : ''}`;
    const done = this.stacks.get(memo);
    if (done) return done;
    if (this.computing.has(r.id)) return [];
    this.computing.add(r.id);
    const regs = this.ctx
      .registrationsOf(r.id)
      .map((b) => ({ b, key: this.key(b, r) }))
      .filter((x) => this.before(x.key, upTo))
      .sort((x, y) => cmp(x.key, y.key));
    // (one of a few: each layer under each)
    let prefixes = r.init.prefixOneOf ?? [r.init.prefix ?? ''];
    // where the prefix is given: the router's making (`new Router({ prefix })`) or its last `router.prefix(…)`
    let prefixAt = { file: r.file, line: r.at.line };
    // why the prefix is not known statically, if it is not (a step of every route of the stack says so)
    let unknown = r.init.prefixUnknown ?? null;
    const layers: Layer[] = [];
    for (const { b, key } of regs) {
      const m = b.reg.method;
      if (METHODS[m]) this.route(b, r, key, layers);
      else if (m === 'register') this.register(b, r, key, layers);
      else if (m === 'use') this.use(b, r, key, layers);
      else if (r.made?.pkg === SWAGGER_DECORATOR && m === 'swagger') this.swagger(b, r, key, layers);
      else if (r.made?.pkg === SWAGGER_DECORATOR && (m === 'mapDir' || m === 'applyRoute'))
        this.ctx.warn(b.file, b.reg.at, `routes of controller classes mapped by koa-swagger-decorator (${m}) are not read; they are left out`, b.reg.snippet);
      else if (m === 'prefix') {
        const p = this.ctx.ev.eval(b.file, b.reg.args[0]!);
        const known = pathChoices(p);
        if (known) {
          prefixes = known.map((x) => x.replace(/\/$/, ''));
          prefixAt = { file: b.file, line: b.reg.at.line };
          unknown = null;
        } else {
          unknown = pathNote(p);
          this.ctx.warn(b.file, b.reg.at, `router prefix not known statically; the router's routes are listed without it`, b.reg.snippet);
        }
      }
    }
    // `router.param(name, fn)` runs before every route in the router's stack naming the
    // parameter, registered before or after it, nested routers' clones included.
    const params = this.ctx.paramCallbacks(r.id);
    // (said once the mounts are known: run; a router.prefix() not known statically is said where it is)
    if (unknown !== null && unknown === r.init.prefixUnknown) this.prefixUnknown.add(r);
    const step: PrefixStep | null = unknown === null ? null : { prefix: '', file: r.file, line: r.at.line, unknown };
    const out = layers.flatMap((l) =>
      prefixes.map((prefix) => {
        const path = setPrefix(l.path, prefix, l.strict, l.kind);
        const own = l.kind === 'route' && params.size > 0 ? paramNames(path).flatMap((n) => params.get(n) ?? []) : [];
        // (the router's own prefix, known, is a step of its routes too, before those of the routers it nests)
        const steps = step ? [step, ...l.prefixes] : prefix ? [{ prefix, ...prefixAt }, ...l.prefixes] : l.prefixes;
        return own.length > 0 ? { ...l, path, prefixes: steps, params: [...(l.params ?? []), ...own] } : { ...l, path, prefixes: steps };
      }),
    );
    this.computing.delete(r.id);
    this.stacks.set(memo, out);
    return out;
  }

  private route(b: BoundRegistration, r: RouterObject, key: (string | number)[], layers: Layer[]): void {
    const { reg, file } = b;
    const ev = this.ctx.ev;
    let rest = reg.args.slice(1);
    let paths = this.ctx.pathsOf(file, reg, ev.eval(file, reg.args[0]!));
    // Named route: router.get('site', '/sites/:id', …)
    const second = reg.args[1] ? stringsOf(ev.eval(file, reg.args[1])) : null;
    if (paths?.length === 1 && second && reg.args.length >= 3) {
      paths = second;
      rest = reg.args.slice(2);
    }
    // A known rest after a head not known statically (`${base}/health`): listed at its unknown
    // head (UnknownHeads) and the rest, the head a step of its prefixes.
    const pv = paths ? null : ev.eval(file, reg.args[0]!);
    const head = pv ? this.heads.routePathOf(file, reg.args[0]!, pv) : null;
    if (!paths && !head) {
      this.ctx.warnRoute(file, reg, `${METHODS[reg.method]} route with a path not known statically; it is left out`);
      return;
    }
    if (head) this.ctx.warnRoute(file, reg, `${METHODS[reg.method]} route with a path not known statically (${head.note}); it is listed without that part`);
    const prefixes = head ? [prefixStep('', file, reg, head.note)] : [];
    const items = ev.flatten(file, rest);
    if (items.length === 0) return;
    for (const p of (paths ?? [head!.path]).flatMap((x) => optionalForms(x, OPTIONAL)))
      layers.push({ kind: 'route', methods: [METHODS[reg.method]!], path: p, strict: r.init.strict, sensitive: r.init.caseSensitive, items, mechanism: 'route-middleware', reg, file, prefixes, added: key });
  }

  /**
   * `router.register(path | paths, methods, middleware | middlewares[, opts])`: what
   * `router.get(…)` and the like call, a route for each method named (upper-cased; a GET one
   * serves HEAD too), with the router's matching unless `opts` sets `strict` or `sensitive`
   * (@koa/router src/router.ts, koa-router 7 lib/router.js). With no method it is a middleware
   * layer (as `router.use` makes), and with `end: false` a prefix one: neither is read.
   */
  private register(b: BoundRegistration, r: RouterObject, key: (string | number)[], layers: Layer[]): void {
    const { reg, file } = b;
    const ev = this.ctx.ev;
    const [pathArg, methodsArg, middlewareArg, optsArg] = reg.args;
    if (!pathArg || !methodsArg || !middlewareArg) return;
    const names = stringsOf(ev.eval(file, methodsArg));
    const methods = names?.map((n) => METHODS[n.toLowerCase()] ?? n.toUpperCase());
    const opts = optsArg ? ev.eval(file, optsArg) : undefined;
    const end = opts?.t === 'obj' ? bool(ev.member(opts, 'end', 0)) : undefined;
    if (!methods || methods.length === 0 || end === false) {
      const what = !methods ? 'its methods are not known statically' : end === false ? 'it registers a prefix layer (end: false)' : 'it names no method';
      this.ctx.warn(file, reg.at, `router.register() not read: ${what}; what it registers is left out`, reg.snippet);
      return;
    }
    const paths = this.ctx.pathsOf(file, reg, ev.eval(file, pathArg));
    if (!paths) {
      this.ctx.warnRoute(file, reg, `${methods.join(', ')} route with a path not known statically; it is left out`);
      return;
    }
    const items = ev.flatten(file, [middlewareArg]);
    if (items.length === 0) return;
    const strict = (opts?.t === 'obj' ? bool(ev.member(opts, 'strict', 0)) : undefined) ?? r.init.strict;
    const sensitive = (opts?.t === 'obj' ? bool(ev.member(opts, 'sensitive', 0)) : undefined) ?? r.init.caseSensitive;
    // (a layer for each method, as the adapter's route layers are: one method each)
    for (const p of paths.flatMap((x) => optionalForms(x, OPTIONAL)))
      for (const m of methods) layers.push({ kind: 'route', methods: [m], path: p, strict, sensitive, items, mechanism: 'route-middleware', reg, file, prefixes: [], added: key });
  }

  /**
   * `router.swagger(options)` of koa-swagger-decorator: GET routes for the document and its
   * page, at `swaggerJsonEndpoint` and `swaggerHtmlEndpoint` ('/swagger-json', '/swagger-html'
   * unless set) — 1.x reads them from the options, the constructor's swagger options taking
   * precedence; 2.x from the constructor's config.
   */
  private swagger(b: BoundRegistration, r: RouterObject, key: (string | number)[], layers: Layer[]): void {
    const ev = this.ctx.ev;
    const made = r.args.map((a) => ev.eval(r.file, a));
    const config = swaggerConfig(ev, made);
    const sources = config ? [config] : [made[1], b.reg.args[0] && ev.eval(b.file, b.reg.args[0])];
    const endpoint = (name: string, fallback: string): string | null => {
      for (const o of sources) {
        if (o?.t !== 'obj') continue;
        const v = ev.member(o, name, 0);
        if (v.t === 'str') return v.v;
        if (!(v.t === 'unknown' && v.why.startsWith('no property'))) return null;
      }
      return fallback;
    };
    const handler: Item = { value: { t: 'unknown', why: 'the swagger document of koa-swagger-decorator' }, expr: { k: 'unknown', text: 'swagger' }, file: b.file };
    for (const [name, fallback] of [['swaggerJsonEndpoint', '/swagger-json'], ['swaggerHtmlEndpoint', '/swagger-html']] as const) {
      const path = endpoint(name, fallback);
      if (path === null) this.ctx.warn(b.file, b.reg.at, `GET route with a path not known statically (${name}); it is left out`, b.reg.snippet);
      else layers.push({ kind: 'route', methods: ['GET'], path, strict: r.init.strict, sensitive: r.init.caseSensitive, items: [handler], mechanism: 'route-middleware', reg: b.reg, file: b.file, prefixes: [], added: key });
    }
  }

  private use(b: BoundRegistration, r: RouterObject, key: (string | number)[], layers: Layer[]): void {
    const { reg, file } = b;
    const ev = this.ctx.ev;
    const v0 = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
    const first = v0 ? this.ctx.pathsOf(file, reg, v0) : null;
    // A path not known statically mounts at its unknown head (UnknownHeads): what it mounts is
    // listed without it (the known text before it kept).
    const unknownPath = !first && v0 !== null && reg.args.length >= 2 && looksLikePath(reg.args[0]!, v0);
    const head = unknownPath ? this.heads.pathOf(file, reg.args[0]!, v0) : null;
    const items = ev
      .flatten(file, first || unknownPath ? reg.args.slice(1) : reg.args)
      .filter((it) => !isAllowedMethods(it.expr))
      .map((it) => this.filledAlternative(it));
    // (no word when what it mounts lists nothing wherever it is: `router.use(BASE_PATH, serve(dir))`)
    const silent = items.length > 0 && items.every((it) => listsNothingWherever(it.value));
    if (head && !silent) this.ctx.warn(file, reg.at, `the path of this use() is not known statically (${head.note}); the routes under it are listed without that part`, reg.snippet);
    const paths: (string | null)[] = first?.flatMap((x) => optionalForms(x, OPTIONAL)) ?? [head?.path ?? null];
    const hasMount = items.some((it) => it.value.t === 'router');
    for (const p of paths) {
      for (const it of items) {
        if (this.unresolvedMount(file, reg, it)) continue;
        if (it.value.t === 'router') {
          const sub = this.ctx.ev.routers.get(it.value.id)!;
          if (this.computing.has(sub.id)) {
            this.ctx.warn(file, reg.at, `mount cycle: a router is mounted inside itself; its routes are listed once`, reg.snippet);
            continue;
          }
          this.mounted.add(sub.id);
          const step = head ? prefixStep(head.tail, file, reg, head.note) : prefixStep(p ?? '', file, reg);
          // the route-graph budget: each mount copies the sub-router's layers, and copies multiply
          for (const l of this.stack(sub, key)) {
            if (!this.ctx.expand(file, reg.at, reg.snippet)) break;
            layers.push({ ...l, path: p ? setPrefix(l.path, p, l.strict, l.kind) : l.path, prefixes: [step, ...l.prefixes], added: key });
          }
          continue;
        }
        layers.push({ kind: 'mw', methods: [], path: p ?? '', strict: r.init.strict, sensitive: r.init.caseSensitive, items: [it], mechanism: hasMount ? 'mount-middleware' : 'router.use', reg, file, prefixes: [], added: key });
      }
    }
  }

  /**
   * The app's middleware in order: plain middleware (`prefix` '' — or the path of a
   * `koa-mount`ed middleware, which runs only below it), and router / sub-app mounts.
   */
  private appPlan(app: RouterObject): AppStep[] {
    const out: AppStep[] = [];
    const regs = this.ctx.registrationsOf(app.id).filter((b) => b.reg.method === 'use');
    for (const b of regs) {
      for (const it of this.ctx.ev.flatten(b.file, b.reg.args).flatMap((x) => this.mountEach(x).map((y) => this.filledAlternative(y)))) {
        if (isAllowedMethods(it.expr)) continue;
        const path = this.mountPath(b, it);
        const head = path.head ?? undefined;
        const mount = this.mountOf(it.value, path.prefix);
        const mountedFn = mount ? null : this.mountedMiddleware(it, path.prefix);
        // (a package's handler used with no mount answers every request that reaches it: Apollo's
        // documented `app.use(koaMiddleware(server))`)
        const route = mount ? null : (this.koaRoute(b, mountedFn?.item ?? it) ?? this.koaProxy(b, mountedFn?.item ?? it) ?? (mountedFn ? (this.answering(b, mountedFn.item) ?? this.mountedAnswer(mountedFn.item)) : this.answering(b, it)));
        // (a middleware answering the requests to a path itself: a route at each, serving.ts, and
        // a middleware still for the later routes at those paths, which it runs in front of)
        const served = mount || route !== null ? [] : this.servedKoaRoutes(b, mountedFn?.item ?? it, mountedFn?.prefix ?? '');
        for (const s of served) out.push({ route: s, prefix: mountedFn?.prefix ?? '', head, reg: b.reg, file: b.file });
        if (mount) out.push({ router: mount.router, prefix: mount.prefix, head, reg: b.reg, file: b.file });
        else if (route === false) continue;
        else if (route) out.push({ route, prefix: mountedFn?.prefix ?? '', head, reg: b.reg, file: b.file });
        else if (mountedFn) out.push({ mw: mountedFn.item, prefix: mountedFn.prefix, head, reg: b.reg, file: b.file });
        else if (this.unresolvedMount(b.file, b.reg, it)) continue;
        else out.push({ mw: it, prefix: '', reg: b.reg, file: b.file });
      }
    }
    return out;
  }

  /**
   * `mount('/api', compose([requireAuth, api.routes(), api.allowedMethods()]))`: koa-mount of a
   * composed list runs each of its middleware in turn below the path, as a mount of each would;
   * any other item as it is.
   */
  private mountEach(it: Item): Item[] {
    const v = it.value;
    if (v.t !== 'pkg' || v.pkg !== 'koa-mount' || !v.called || v.args.length < 2 || it.expr.k !== 'call' || !it.expr.args[1]) return [it];
    const call = it.expr;
    const inner = this.ctx.ev.flatten(it.file, [call.args[1]!]);
    if (inner.length < 2) return [it];
    // (`api.allowedMethods()` answers OPTIONS and 405s for the router's paths: no middleware of its own)
    return inner.filter((x) => !isAllowedMethods(x.expr)).map((x) => ({
      value: { ...v, args: [v.args[0]!, x.value] },
      expr: { ...call, args: [call.args[0]!, x.file === it.file ? x.expr : { k: 'at', file: x.file, e: x.expr }] },
      file: it.file,
    }));
  }

  /**
   * One router of a few (a factory's `if (config.bucket == null) return router` before the router
   * of its routes: `s3(config).routes()`) where every other has nothing registered on it: that
   * one, since an empty router's `routes()` serves and runs nothing whichever the code takes (of
   * only empty ones, the first). Any other item as it is (two with routes: unresolvedMount).
   */
  private filledAlternative(it: Item): Item {
    const v = it.value;
    if (v.t !== 'unknown' || !v.alts?.length || !v.alts.every((a) => a.t === 'router')) return it;
    const routers = v.alts as Extract<Value, { t: 'router' }>[];
    const filled = routers.filter((a) => this.ctx.registrationsOf(a.id).length > 0);
    return filled.length <= 1 ? { ...it, value: filled[0] ?? routers[0]! } : it;
  }

  /**
   * A use() of something not known statically that reads as a router (`hook.value.routes()` of
   * plugins loaded at run time), or is one of several routers (`process.env.ADMIN ?
   * admin.routes() : pub.routes()`, whose layers, cloned, are not told apart): warned about, and
   * not taken for middleware.
   */
  private unresolvedMount(file: string, reg: RegistrationFact, it: Item): boolean {
    if (it.value.t !== 'unknown') return false;
    if (!it.value.alts?.some((a) => a.t === 'router') && !/router|routes/i.test(JSON.stringify(it.expr).slice(0, 200))) return false;
    this.ctx.warn(file, reg.at, `mounted router could not be resolved (${it.value.why}); the routes under it are unknown`, reg.snippet);
    return true;
  }

  /**
   * The route a koa-route middleware answers (`route.get(path, fn[, opts])`, `route.get(path[,
   * , opts])(fn)`); null when `it` is no such middleware, false when its path is not known
   * statically (warned about; it is left out).
   */
  private koaRoute(b: BoundRegistration, it: Item): KoaRoute | null | false {
    const v = it.value;
    if (v.t !== 'pkg' || v.pkg !== KOA_ROUTE || !v.called) return null;
    const name = v.path[0] === 'default' ? v.path.slice(1) : v.path;
    const method = name.length === 1 ? KOA_ROUTE_METHODS[name[0]!] : undefined;
    if (!method) return null;
    const ev = this.ctx.ev;
    const written = writtenCall(this.ctx.ev, it.file, it.expr);
    // `route.get(path)(fn)`: the inner call takes the path and options, the outer one the function
    const inner = written?.call.callee.k === 'call' ? written.call.callee : null;
    const made = inner ? ev.eval(written!.file, inner) : v;
    if (made.t !== 'pkg' || (inner ? v.args.length < 1 : v.args.length < 2)) return null;
    const fnExpr = written?.call.args[inner ? 0 : 1];
    const handler: Item = fnExpr ? { value: v.args[inner ? 0 : 1]!, expr: fnExpr, file: written!.file } : { value: v.args[1]!, expr: it.expr, file: it.file };
    const paths = made.args[0] ? this.ctx.pathsOf(b.file, b.reg, made.args[0]) : null;
    if (!paths) {
      this.ctx.warnRoute(b.file, b.reg, `${method} route of koa-route with a path not known statically; it is left out`);
      return false;
    }
    const opts = made.args[2];
    const strict = opts?.t === 'obj' ? (bool(ev.member(opts, 'strict', 0)) ?? false) : false;
    const sensitive = opts?.t === 'obj' ? (bool(ev.member(opts, 'sensitive', 0)) ?? false) : false;
    return { method, paths: paths.flatMap((p) => optionalForms(p, OPTIONAL)), strict, sensitive, handler };
  }

  /**
   * The requests a koa-proxies middleware proxies: every method, at and below its path
   * (path-to-regexp with `end: false`, not strict nor case-sensitive); null when `it` is no
   * such middleware, false when its path is not known statically (warned about).
   */
  private koaProxy(b: BoundRegistration, it: Item): KoaRoute | null | false {
    const v = it.value;
    if (v.t !== 'pkg' || v.pkg !== KOA_PROXIES || !v.called || v.path.some((p) => p !== 'default') || !v.args[0]) return null;
    const paths = this.ctx.pathsOf(b.file, b.reg, v.args[0]);
    if (!paths) {
      this.ctx.warnRoute(b.file, b.reg, `the path ${KOA_PROXIES} proxies is not known statically; its route is left out`);
      return false;
    }
    return { method: 'ALL', paths: paths.flatMap((p) => optionalForms(p, OPTIONAL)), strict: false, sensitive: false, handler: it, servedBy: KOA_PROXIES };
  }

  /**
   * A package's handler answering every request below the koa-mount path it is mounted at (a
   * GraphQL endpoint: package-handlers.ts), or every request when used with no mount: a route at
   * the bare mount path (at `/` with none), any method.
   */
  private answering(b: BoundRegistration, it: Item): KoaRoute | null {
    const pkg = answeringPackage(it.value, 'koa');
    if (pkg === null) return null;
    return { method: 'ALL', paths: ['/'], strict: false, sensitive: false, handler: it, servedBy: pkg, guards: answeringGuards(this.ctx.ev, it.value, b.file, b.reg.at.line) };
  }

  /**
   * A function of the analysed code that koa-mount mounts and that answers without handing on
   * (`mount('/status', async (ctx) => { ctx.body = … })`): it ends every request below the mount
   * path, so it is a route at the bare mount path, any method (SPEC: a path-mounted function that
   * ends the response and never calls `next`). One taking only the context is given no `next`.
   */
  private mountedAnswer(it: Item): KoaRoute | null {
    if (it.value.t !== 'fn') return null;
    const f = this.ctx.ev.fnOf(it.value.file, it.value.fn);
    if (!f || f.behaviour.callsNext || !(f.behaviour.sendsResponse || f.params.length === 1)) return null;
    return { method: 'ALL', paths: ['/'], strict: false, sensitive: false, handler: it };
  }

  /**
   * A function of the analysed code answering the requests to a path itself, handing every other
   * on (Behaviour.servesFor, serving.ts: `if (ctx.path !== '/health') return next(); ctx.body =
   * …`): a route at each path (and method) it answers, compared as written (case and trailing
   * slash), below the koa-mount path it runs under (`prefix`; a path tested from the root,
   * `ctx.originalUrl`, only where there is none). None when it is no such function, or what it
   * answers is not one path (warned about).
   */
  private servedKoaRoutes(b: BoundRegistration, it: Item, prefix: string): KoaRoute[] {
    const served = servedBy(this.ctx.ev, it.value, (m) => this.ctx.warn(b.file, b.reg.at, m, b.reg.snippet));
    return served.filter((s) => !s.root || prefix === '').map((s) => ({ method: s.method ?? 'ALL', paths: [s.path], strict: true, sensitive: true, handler: it }));
  }

  /**
   * The path a koa-mount call mounts at (`prefix`: null when it is no such call, or its path is
   * a string to read as written): for a path not known statically, its unknown head and the
   * known rest (UnknownHeads), warned about.
   */
  private mountPath(b: BoundRegistration, it: Item): { prefix: string | null; head: HeadPath | null } {
    const v = it.value;
    const none = { prefix: null, head: null };
    if (v.t !== 'pkg' || v.pkg !== 'koa-mount' || !v.called || v.args.length < 2 || it.expr.k !== 'call' || !it.expr.args[0]) return none;
    const a = v.args[0]!;
    if (a.t === 'str') return { prefix: a.v === '/' ? '' : a.v, head: null };
    const head = this.heads.pathOf(it.file, it.expr.args[0], a);
    // (no word when what it mounts lists nothing wherever it is: `mount(BASE_PATH, serve(dir))`)
    const silent = v.args.slice(1).every(listsNothingWherever);
    if (!silent) this.ctx.warn(b.file, b.reg.at, `the path of this mount() is not known statically (${head.note}); the routes under it are listed without that part`, b.reg.snippet);
    return { prefix: head.path, head };
  }

  private mountOf(v: Value, prefix: string | null): { router: RouterObject; prefix: string } | null {
    if (v.t === 'router') return { router: this.ctx.ev.routers.get(v.id)!, prefix: '' };
    // koa-mount: mount('/p', router.routes()) or mount(subApp)
    if (v.t === 'pkg' && v.pkg === 'koa-mount' && v.called) {
      const [a, b] = v.args;
      if (prefix !== null && b?.t === 'router') return { router: this.ctx.ev.routers.get(b.id)!, prefix };
      if (a?.t === 'router') return { router: this.ctx.ev.routers.get(a.id)!, prefix: '' };
    }
    return null;
  }

  /** `mount('/p', middleware)`: the middleware, running only for requests below `/p`. */
  private mountedMiddleware(it: Item, prefix: string | null): { item: Item; prefix: string } | null {
    const v = it.value;
    if (v.t !== 'pkg' || v.pkg !== 'koa-mount' || !v.called || it.expr.k !== 'call') return null;
    const b = v.args[1];
    if (prefix !== null && b && b.t !== 'router' && it.expr.args[1]) return { item: { value: b, expr: it.expr.args[1], file: it.file }, prefix };
    return null;
  }

  private emitApp(app: RouterObject, plan: AppStep[], depth = 0): void {
    const name = app.name ?? 'app';
    const active: ScopedGuard[] = [];
    for (const step of plan) {
      if (step.mw) {
        // (koa-mount strips its path: ctx.path and ctx.url below it)
        for (const g of this.layerGuards(step.mw, step.reg.at, step.prefix)) active.push({ guard: g, scope: step.prefix, caseSensitive: false });
        continue;
      }
      const mountStep = mountSteps(step);
      if (step.route) {
        this.emitKoaRoute(step.route, step, step.prefix, active, mountStep, name, app);
        continue;
      }
      const router = step.router!;
      if (router.init.kind === 'app') {
        if (depth < 16) this.emitSubApp(router, step.prefix, [...active], mountStep, name, depth + 1, app);
        continue;
      }
      const layers = this.reachable(this.stack(router, null)).map((l) => mountedLayer(l, step.prefix, [...mountStep, ...l.prefixes]));
      this.emitLayers(layers, [...active], name, step.prefix, app);
    }
  }

  /** A Koa app mounted with koa-mount: its own middleware and routers, under the mount path. */
  private emitSubApp(app: RouterObject, prefix: string, outer: ScopedGuard[], steps: PrefixStep[], name: string, depth: number, root: RouterObject): void {
    const active = [...outer];
    for (const step of this.appPlan(app)) {
      if (step.mw) {
        for (const g of this.layerGuards(step.mw, step.reg.at, prefix + step.prefix)) active.push({ guard: g, scope: prefix + step.prefix, caseSensitive: false });
        continue;
      }
      const p = prefix + step.prefix;
      const own = mountSteps(step);
      if (step.route) {
        this.emitKoaRoute(step.route, step, p, active, [...steps, ...own], name, root);
        continue;
      }
      const router = step.router!;
      if (router.init.kind === 'app') {
        if (depth < 16) this.emitSubApp(router, p, [...active], [...steps, ...own], name, depth + 1, root);
        continue;
      }
      const layers = this.reachable(this.stack(router, null)).map((l) => mountedLayer(l, p, [...steps, ...own, ...l.prefixes]));
      this.emitLayers(layers, [...active], name, p, root);
    }
  }

  /**
   * A koa-route's route below the mount path `base`, behind the app middleware before it
   * (`active`); one that passes the request on guards the later ones it covers (added to `active`).
   */
  private emitKoaRoute(r: KoaRoute, step: AppStep, base: string, active: ScopedGuard[], prefixes: PrefixStep[], app: string, root: RouterObject): void {
    const passing = this.ctx.passThrough([r.handler], step.reg.at, r.method !== 'ALL');
    // (koa-route tests its path, anchored at its start, on `ctx.path`, which starts with `/`, below
    // a koa-mount too: `route.post('save', …)` never matches, wherever it is used)
    const never = r.servedBy === KOA_PROXIES ? [] : r.paths.filter(neverMatched);
    if (never.length > 0) this.ctx.warnRoute(step.file, step.reg, `${r.method} route at '${never[0]}', a path starting with neither '/' nor a pattern: koa-route never matches it; it is left out`);
    for (const form of r.paths) {
      if (never.includes(form)) continue;
      const full = underMount(base, form);
      if (!passing || passing.serves) {
        const written = this.ctx.writtenHandler(r.handler);
        const reported = reportedPath(full);
        const { path } = reported;
        const guards = [...applying(active, r.method, full), ...this.ctx.handlerGuards(r.handler), ...(r.guards ?? [])];
        this.ctx.addRoute(
          {
            method: r.method,
            ...reported,
            ...routePlace(step.file, step.reg),
            framework: 'koa',
            handler: r.servedBy ?? handlerNameOf(this.ctx.ev, written),
            app,
            // below a mount, `/` is reached with and without the slash; else path-to-regexp's `strict`
            trailingSlashInsensitive: full === base || (!r.strict && !(path.length > 1 && path.endsWith('/'))),
            caseSensitive: r.sensitive,
            prefixes,
            guards: uniqueGuards(guards),
            handlerFn: written.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null,
          },
          root,
        );
      }
    }
    if (passing)
      for (const form of r.paths)
        for (const g of passing.guards) active.push({ guard: this.ctx.mountedAt(g, base), scope: underMount(base, form), caseSensitive: r.sensitive, route: { method: r.method, strict: r.strict } });
  }

  /**
   * The layers of a router's stack a request can reach, as an app uses the router: @koa/router
   * matches a route's path (its router's prefixes glued before it, as Layer.setPrefix does) from
   * its start on the request's path, which starts with `/`, so one starting with a name or a
   * parameter (`router.post('save', …)` with no prefix before it) never matches (checked on
   * @koa/router 15: 404, where `/v1` glued before it serves `/v1save`). Each such route is
   * warned about once, and left out. So is a middleware a `use()` adds at such a path
   * (`router.use('admin', requireUser)`: its layer, made with `end: false`, matches the same way):
   * it never runs, and guards nothing.
   */
  private reachable(layers: Layer[]): Layer[] {
    return layers.filter((l) => {
      if (!neverMatched(l.path)) return true;
      const key = `${l.file}:${l.reg.at.line}:${l.reg.at.column}:${l.path}`;
      if (!this.unreachable.has(key)) {
        this.unreachable.add(key);
        if (l.kind === 'route') this.ctx.warnRoute(l.file, l.reg, `${l.methods.join(',')} route at '${l.path}', a path starting with neither '/' nor a pattern: @koa/router never matches it; it is left out`);
        else this.ctx.warn(l.file, l.reg.at, `the path of this use(), '${l.path}', starts with neither '/' nor a pattern: @koa/router never matches it; the middleware it adds there never runs`, l.reg.snippet);
      }
      return false;
    });
  }

  /**
   * The routes of `layers`, each behind the guards before it, in app `app` (made as `root`: the
   * app, or a router no app mounts); `base`, the koa-mount path they are served below.
   */
  private emitLayers(layers: Layer[], outer: ScopedGuard[], app: string, base: string, root: RouterObject): void {
    const passing = layers.map((l) => (l.kind === 'route' ? this.ctx.passThrough(l.items, l.reg.at, !l.methods.includes('ALL')) : null));
    // A route that serves only by its method's word, sending nothing itself (`router.get('/reports/:id',
    // loadReport)`, `ctx.state.report = …; await next()`), is no route when a later route that is
    // listed runs behind it (@koa/router runs every matching route's functions in turn): a layer
    // for that one. (Decided from the last route back, so that each later one is settled.)
    const listed = (j: number): boolean => layers[j]!.kind === 'route' && (!passing[j] || passing[j]!.serves);
    const behind = (i: number): boolean => {
      const l = layers[i]!;
      return layers.some((r, j) => j > i && listed(j) && (l.methods.includes('ALL') || l.methods.includes(r.methods[0]!)) && routePathCovers(l.path, r.path, l.sensitive, l.strict));
    };
    for (let i = layers.length - 1; i >= 0; i--) if (passing[i]?.byVerb && behind(i)) passing[i] = this.ctx.passThrough(layers[i]!.items, layers[i]!.reg.at);
    // (what can guard a later route: middleware, and routes that pass the request on)
    const guarding = layers.flatMap((m, j) => (passing[j] || m.kind === 'mw' ? [j] : []));
    layers.forEach((l, i) => {
      if (l.kind !== 'route' || (passing[i] && !passing[i]!.serves)) return;
      const guards: AppliedGuard[] = applying(outer, l.methods[0]!, l.path);
      for (const j of guarding) {
        if (j >= i) break;
        const m = layers[j]!;
        const through = passing[j];
        if (through) {
          if ((m.methods.includes('ALL') || m.methods.includes(l.methods[0]!)) && routePathCovers(m.path, l.path, m.sensitive, m.strict)) guards.push(...through.guards);
          continue;
        }
        if (m.kind !== 'mw' || !pathApplies(m.path, l.path, m.sensitive)) continue;
        guards.push(...this.layerGuards(m.items[0]!, m.reg.at, base, m.mechanism));
      }
      for (const { item, reg } of l.params ?? []) {
        const g = this.guard(item, 'router.param', reg.at, base);
        if (g) guards.push(g);
      }
      for (const it of l.items.slice(0, -1)) {
        const g = this.guard(it, 'route-middleware', l.reg.at, base);
        // A function written in the route that does part of the work and calls next (`async (ctx, next) => { …; return next() }`)
        // is a handler stage (LinkContext.stageGuards).
        const stage = this.ctx.stageGuards(g, it.value, false, it);
        if (stage.length > 0) guards.push(...stage);
        else if (g) guards.push(g);
      }
      const handler = l.items[l.items.length - 1]!;
      guards.push(...this.ctx.handlerGuards(handler));
      const written = this.ctx.writtenHandler(handler);
      const reported = reportedPath(l.path);
      const { path } = reported;
      this.ctx.addRoute(
        {
          method: l.methods[0]!,
          ...reported,
          ...routePlace(l.file, l.reg),
          framework: 'koa',
          handler: handlerNameOf(this.ctx.ev, written),
          app,
          // path-to-regexp `trailing: true`: an optional trailing slash after a path that has none
          trailingSlashInsensitive: l.bothForms === true || (!l.strict && !(path.length > 1 && path.endsWith('/'))),
          caseSensitive: l.sensitive,
          prefixes: l.prefixes,
          guards: uniqueGuards(guards),
          handlerFn: written.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null,
        },
        root,
      );
    });
  }

  private guard(it: Item, mechanism: GuardMechanism, at: Loc, base = ''): AppliedGuard | null {
    const g = this.ctx.guard(it.file, it.expr, it.value, mechanism, at);
    return g && this.ctx.mountedAt(g, base);
  }

  /**
   * An app's or a router's middleware as the guards it applies: itself, or, when it is no guard
   * itself but leads with checks (`await assertSignedIn(ctx); await next()`), those checks
   * (LinkContext.stageGuards).
   */
  private layerGuards(it: Item, at: Loc, base: string, mechanism: GuardMechanism = 'app.use'): AppliedGuard[] {
    return this.ctx.layerGuards(this.guard(it, mechanism, at, base), it.value, undefined, it).map((g) => this.ctx.mountedAt(g, base));
  }
}

/** `router.allowedMethods()`: answers OPTIONS / 405 / 501 after the routes; never a guard. */
function isAllowedMethods(e: Expr): boolean {
  return e.k === 'call' && e.callee.k === 'member' && e.callee.prop === 'allowedMethods';
}
