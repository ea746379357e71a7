/**
 * Elysia (1.x). Semantics read from elysia's src/index.ts and src/utils.ts (1.4.29: `add`,
 * `group`, `guard`, `_use`, `on`, `macro`, `applyMacro`, `as`; `filterGlobalHook`) and its
 * tests (test/core/as.test.ts, test/lifecycle/before-handle.test.ts):
 *
 * - An app is `new Elysia(config)` (the class is also the module's default export).
 *   `config.prefix` is put before the path of every route it adds (`add`: a path not starting
 *   with `/` gets one first); `strictPath` (false by default) makes `/x` and `/x/` different
 *   routes; paths are matched case-sensitively.
 * - Every method returns the instance: `get`/`post`/`put`/`patch`/`delete`/`options`/`head`/
 *   `connect`/`all(path, handler, hook?)` and `route(method, path, handler, hook?)` add a
 *   route; `ws(path, options)` the GET route a WebSocket upgrade is (adapter/bun: `route('WS',
 *   …)`, the options' hooks its own).
 * - A route runs the instance's lifecycle hooks registered before it (the instance's `event`,
 *   copied when the route is added): `onRequest`, `onTransform`, `derive`, `mapDerive`,
 *   `onBeforeHandle`, `resolve`, `mapResolve`, `on(type, fn)`, and the hooks of `guard(hook)`
 *   without a callback; then its own hook object's `transform`, `derive`, `beforeHandle`,
 *   `resolve`, and the hooks of the macros it names (`{ auth: true }`, a macro of `macro({
 *   auth: { resolve } })`, or one of a plugin used before; `false` turns an object macro off);
 *   then its handler. A hook function ends the request by returning a value or throwing
 *   (`return status(401)`).
 * - `group(prefix, [hook,] run)` and `guard(hook, run)` hand `run` a new instance without the
 *   parent's hooks (its macros kept); the routes `run` adds on it are added to the parent at
 *   `prefix` + their path, behind the parent's hooks, the group's hook, their own; its
 *   `onRequest` hooks then join the parent's.
 * - `use(plugin)`: a function plugin is called with the instance itself; an instance's routes
 *   are added to the parent (the parent's prefix before their path, the parent's hooks before
 *   theirs), then its hooks registered `{ as: 'global' }` (or made so by `.as('global')`) join
 *   the parent's for the routes added after, and those `{ as: 'scoped' }` join them as the
 *   parent's own local hooks (one level up only); local hooks (the default) stay in the plugin.
 *   Its macros join the parent's. (Elysia 0.x had no scopes: every hook `on()` added joined the
 *   parent's, as a global one does; a package declaring `elysia` 0.x is read so.)
 * - `mount(handle)` answers every method at `/*` (below the prefix), `mount(path, handle)` at the
 *   path and below it, with `handle` (a function, or an instance's `fetch`), handed the whole
 *   path or what follows the mount path.
 */
import type { Adapter, RouterInit } from '../adapter.js';
import { ELYSIA_CHAIN } from '../../extract/extract.js';
import { fnKey, stringsOf, type RouterObject, type Value } from '../../link/evaluate.js';
import { routePlace, uniqueGuards, type FlatItem, type LinkContext } from '../../link/link.js';
import type { AppliedGuard, Expr, Loc, PrefixStep, RegistrationFact } from '../../types.js';
import { handlerNameOf } from '../handler-name.js';
import { betterAuthOriginCheck } from '../package-handlers.js';
import { pathNote } from '../unknown-heads.js';

const METHODS: Record<string, string> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', options: 'OPTIONS', head: 'HEAD', connect: 'CONNECT', all: 'ALL' };
/** The instance methods adding a lifecycle hook that runs before a route's handler. */
const HOOK_METHODS = new Set(['onRequest', 'onTransform', 'derive', 'mapDerive', 'onBeforeHandle', 'resolve', 'mapResolve']);
/** A hook object's keys that hold functions run before the handler, in lifecycle order. */
const HOOK_KEYS = ['transform', 'derive', 'beforeHandle', 'resolve'];
/** `on(type, fn)`'s types that run before the handler. */
const ON_TYPES = new Set(['request', 'transform', 'derive', 'beforeHandle', 'resolve']);

type Scope = 'local' | 'scoped' | 'global';

/** Groups and function plugins read inside one another, at most (a plugin using itself stops there). */
const MAX_DEPTH = 16;

/** A function run before a route's handler: an instance's lifecycle hook, or one of a route's (or group's) hook object. */
interface Hook {
  item: FlatItem;
  /** the registration adding it: where its guards are applied */
  file: string;
  at: Loc;
  scope: Scope;
  mechanism: 'router.use' | 'route-middleware';
  /** what added it (`onBeforeHandle`, `derive`, a hook object's `beforeHandle` …): an inline one is named for it */
  kind: string;
  /** an `onRequest` hook: a group's joins its parent's (group, guard: `sandbox.event.request`) */
  request?: true;
}

/** A route as an instance holds it (its `router.history`): its path with the instance's prefix. */
interface Entry {
  method: string;
  path: string;
  handler: FlatItem | null;
  hooks: Hook[];
  reg: RegistrationFact;
  file: string;
  prefixes: PrefixStep[];
}

/** What a macro name stands for: the value `macro()` was given for it. */
interface Macro {
  file: string;
  expr: Expr;
}

/** An instance's state as its registrations leave it. */
interface Instance {
  events: Hook[];
  history: Entry[];
  macros: Map<string, Macro>;
}

/**
 * `add`: a route of a method and path the instance has already is replaced where it stands (a
 * named plugin used twice, a path registered again); any other joins the end.
 */
function add(inst: Instance, e: Entry): void {
  const i = inst.history.findIndex((x) => x.method === e.method && x.path === e.path);
  if (i >= 0) inst.history[i] = e;
  else inst.history.push(e);
}

/** A registration to read, on an instance or on the instance a callback is handed. */
interface Op {
  reg: RegistrationFact;
  file: string;
}

export const elysiaAdapter: Adapter = {
  name: 'elysia',
  title: 'Elysia',
  modules: ['elysia'],

  create(pkg, path, args, isNew, ev): RouterInit | null {
    // (`import { Elysia } from 'elysia'`, or its default export: `import Elysia from 'elysia'`)
    const ctor = path.length === 0 || (path.length === 1 && (path[0] === 'Elysia' || path[0] === 'default'));
    if (pkg !== 'elysia' || !isNew || !ctor) return null;
    const o = args[0];
    const strict = o?.t === 'obj' ? ev.member(o, 'strictPath', 0) : undefined;
    const init: RouterInit = { kind: 'app', strict: strict?.t === 'bool' ? strict.v : false, caseSensitive: true };
    const prefix = o?.t === 'obj' && Object.hasOwn(o.props, 'prefix') ? ev.member(o, 'prefix', 0) : null;
    if (prefix?.t === 'str') init.prefix = prefix.v;
    else if (prefix) init.prefixUnknown = pathNote(prefix);
    return init;
  },

  routerMethod(_router, method) {
    return ELYSIA_CHAIN.has(method) ? 'self' : null;
  },

  link(ctx: LinkContext): void {
    new ElysiaLinker(ctx).run();
  },
};

class ElysiaLinker {
  private readonly instances = new Map<string, Instance>();
  private readonly computing = new Set<string>();
  /** instances another uses as a plugin: served through it, not on their own */
  private readonly used = new Set<string>();
  /** the default scope of the hooks each file registers (hookScope) */
  private readonly scopes = new Map<string, Scope>();
  /** the guards each hook applies (hookGuards) */
  private readonly judged = new Map<Hook, AppliedGuard[]>();

  constructor(private readonly ctx: LinkContext) {}

  run(): void {
    const routers = this.ctx.routersOf('elysia');
    for (const r of routers) this.instance(r);
    for (const r of routers) if (!this.used.has(r.id)) this.emit(r);
  }

  private instance(r: RouterObject): Instance {
    const done = this.instances.get(r.id);
    if (done) return done;
    const inst: Instance = { events: [], history: [], macros: new Map() };
    if (this.computing.has(r.id)) return inst;
    this.computing.add(r.id);
    let steps: PrefixStep[] = [];
    if (r.init.prefix) steps = [{ prefix: r.init.prefix, file: r.file, line: r.at.line }];
    else if (r.init.prefixUnknown) {
      this.ctx.warn(r.file, r.at, `the prefix of this Elysia instance is not known statically (${r.init.prefixUnknown}); its routes are listed without it`, '');
      steps = [{ prefix: '', file: r.file, line: r.at.line, unknown: r.init.prefixUnknown }];
    }
    const ops = this.ctx.registrationsOf(r.id).map((b) => ({ reg: b.reg, file: b.file }));
    this.apply(inst, ops, r.init.prefix ?? '', steps, 0);
    this.computing.delete(r.id);
    this.instances.set(r.id, inst);
    return inst;
  }

  /** The registrations made on parameter 0 of a callback (a group's, a function plugin), in source order. */
  private paramOps(fn: Extract<Value, { t: 'fn' }>): Op[] {
    const key = fnKey(fn.file, fn.fn);
    this.ctx.boundFunctions.add(key);
    return (this.ctx.paramRegistrations.get(key) ?? [])
      .filter((p) => p.index === 0 && this.ctx.possible(p.file, p.reg))
      .sort((a, b) => a.reg.at.line - b.reg.at.line || a.reg.at.column - b.reg.at.column)
      .map((p) => ({ reg: p.reg, file: p.file }));
  }

  private apply(inst: Instance, ops: Op[], prefix: string, steps: PrefixStep[], depth: number): void {
    for (const op of ops) this.op(inst, op, prefix, steps, depth);
  }

  private op(inst: Instance, { reg, file }: Op, prefix: string, steps: PrefixStep[], depth: number): void {
    const ev = this.ctx.ev;
    const m = reg.method;
    if (METHODS[m] || m === 'route' || m === 'ws') {
      const args = m === 'route' ? reg.args.slice(1) : reg.args;
      // (`ws(path, options)`: the GET request upgraded, behind the options' hooks; its handlers run after)
      const methods = m === 'route' ? (reg.args[0] ? stringsOf(ev.eval(file, reg.args[0])) : null) : [METHODS[m] ?? 'GET'];
      const paths = args[0] ? this.ctx.pathsOf(file, reg, ev.eval(file, args[0])) : null;
      if (!methods || !paths) {
        this.ctx.warn(file, reg.at, `the ${methods ? 'path' : 'method'} of this ${m}() is not known statically; the route is left out`, reg.snippet);
        return;
      }
      const handler = args[1] && m !== 'ws' ? { file, expr: args[1], value: ev.eval(file, args[1]) } : null;
      const hooks = [...inst.events, ...this.hookObject(file, args[m === 'ws' ? 1 : 2] ?? null, inst.macros, reg.at, 'route-middleware')];
      for (const method of methods)
        for (const p of paths) add(inst, { method: method.toUpperCase(), path: added(prefix, p), handler, hooks, reg, file, prefixes: steps });
      return;
    }
    if (HOOK_METHODS.has(m) || m === 'on') {
      let args = reg.args;
      let scope = this.hookScope(file);
      const first = args[0] ? ev.eval(file, args[0]) : null;
      if (first?.t === 'obj') {
        scope = scopeOf(ev.member(first, 'as', 0));
        args = args.slice(1);
      }
      let kind = m;
      if (m === 'on') {
        const type = args[0] ? ev.eval(file, args[0]) : null;
        if (type?.t !== 'str' || !ON_TYPES.has(type.v)) return;
        kind = type.v === 'request' ? 'onRequest' : type.v;
        args = args.slice(1);
      }
      const request = kind === 'onRequest' ? { request: true as const } : {};
      for (const item of ev.flatten(file, args)) inst.events.push({ item, file, at: reg.at, scope, mechanism: 'router.use', kind, ...request });
      return;
    }
    if (m === 'macro') {
      const first = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
      if (first?.t === 'str' && reg.args[1]) inst.macros.set(first.v, { file, expr: reg.args[1] });
      else if (first?.t === 'obj') for (const [k, e] of Object.entries(first.props)) if (!k.startsWith('*')) inst.macros.set(k, { file: first.file, expr: e });
      return;
    }
    if (m === 'as') {
      const type = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
      if (type?.t !== 'str' || (type.v !== 'scoped' && type.v !== 'global')) return;
      const to: Scope = type.v;
      inst.events = inst.events.map((h) => (to === 'global' || h.scope === 'local' ? { ...h, scope: to } : h));
      return;
    }
    if (m === 'guard' || m === 'group') {
      const args = m === 'group' ? reg.args.slice(1) : reg.args;
      const last = args[args.length - 1] ? ev.eval(file, args[args.length - 1]!) : null;
      const run = args.length >= (m === 'group' ? 1 : 2) && last?.t === 'fn' ? last : null;
      const hookExpr = run ? (args.length >= 2 ? args[0]! : null) : args[0] ?? null;
      if (m === 'guard' && !run) {
        // `guard(hook)`: its hooks join the instance's, for the routes added after it
        const hook = hookExpr ? ev.eval(file, hookExpr) : null;
        const scope = hook?.t === 'obj' ? scopeOf(ev.member(hook, 'as', 0)) : 'local';
        for (const h of this.hookObject(file, hookExpr, inst.macros, reg.at, 'router.use')) inst.events.push({ ...h, scope });
        return;
      }
      if (!run) {
        this.ctx.warn(file, reg.at, `the routes of this ${m}() are not known statically (no function given them); they are left out`, reg.snippet);
        return;
      }
      if (depth > MAX_DEPTH) {
        this.ctx.warn(file, reg.at, `this ${m}() nests more than ${MAX_DEPTH} groups and plugins deep; its routes are left out`, reg.snippet);
        return;
      }
      // (a group's prefix, or each of a few: `legacy ? '/v1' : '/v2'`)
      const subs = m === 'group' ? (reg.args[0] ? this.ctx.pathsOf(file, reg, ev.eval(file, reg.args[0])) : null) : [''];
      if (!subs) {
        // (its callback's registrations read here, left out with it)
        this.ctx.boundFunctions.add(fnKey(run.file, run.fn));
        this.ctx.warn(file, reg.at, `the prefix of this group() is not known statically; its routes are left out`, reg.snippet);
        return;
      }
      // (a new instance: none of the parent's hooks, its macros)
      const inner: Instance = { events: [], history: [], macros: new Map(inst.macros) };
      this.apply(inner, this.paramOps(run), '', [], depth + 1);
      const own = this.hookObject(file, hookExpr, inst.macros, reg.at, 'route-middleware');
      const at = routePlace(file, reg);
      for (const sub of subs) {
        // (group() without a hook joins the prefixes as written and adds the route without the
        // instance's own; with one, the instance's prefix goes before the rest, `/` put on it)
        const path = (p: string): string => (m === 'group' && !hookExpr ? added('', prefix + sub + p) : added(prefix, sub + p));
        const subSteps = m === 'group' ? [...steps, { prefix: sub, file: at.file, line: at.line }] : steps;
        for (const e of inner.history) add(inst, { ...e, path: path(e.path), hooks: [...inst.events, ...own, ...e.hooks], prefixes: [...subSteps, ...e.prefixes] });
      }
      // (its onRequest hooks join the instance's: they run for the routes added after it too)
      for (const h of inner.events) if (h.request) inst.events.push(h);
      return;
    }
    if (m === 'mount') {
      this.mount(inst, { reg, file }, prefix, steps);
      return;
    }
    if (m === 'use') {
      for (const item of ev.flatten(file, reg.args)) {
        const v = item.value;
        if (v.t === 'fn') {
          if (depth <= MAX_DEPTH) this.apply(inst, this.paramOps(v), prefix, steps, depth + 1);
          else this.ctx.warn(file, reg.at, `this use() nests more than ${MAX_DEPTH} groups and plugins deep; what the plugin adds is left out`, reg.snippet);
        } else if (v.t === 'router') {
          const plugin = this.ctx.ev.routers.get(this.ctx.standsFor(v.id));
          if (!plugin || plugin.framework !== 'elysia') continue;
          this.used.add(plugin.id);
          const p = this.instance(plugin);
          for (const e of p.history) add(inst, { ...e, path: added(prefix, e.path), hooks: [...inst.events, ...e.hooks], prefixes: [...steps, ...e.prefixes] });
          for (const h of p.events) if (h.scope !== 'local') inst.events.push(h.scope === 'scoped' ? { ...h, scope: 'local' } : h);
          for (const [k, mac] of p.macros) inst.macros.set(k, mac);
        } else if (v.t === 'unknown' && v.alts?.every((a) => a.t === 'pkg' || (a.t === 'bool' && !a.v) || (a.t === 'fn' && this.paramOps(a).length === 0))) {
          // (one of a few plugins, none of which adds anything the analysis reads: a package's, a
          // function registering nothing, `false` — `use(dev ? logger() : (app) => app)`)
        } else if ((v.t === 'unknown' || v.t === 'param') && !nothing(item.expr)) {
          const why = v.t === 'unknown' ? v.why : `the parameter '${v.name}' of a function whose callers are not read`;
          this.ctx.warn(file, reg.at, `the plugin this use() is given is not known statically (${why}); its routes are not listed`, reg.snippet);
        } else if (v.t === 'ns') {
          // (`use(import('./x'))`: added once the module has loaded, and handed on to the instances
          // using this one then, re-adding their routes: not modelled)
          this.ctx.warn(file, reg.at, `a plugin imported lazily (use(import(…))) is not read here; its routes are not listed behind this instance's prefix and hooks`, reg.snippet);
        }
      }
    }
  }

  /**
   * The scope of a lifecycle hook registered without one in `file`: local since Elysia 1.0;
   * global in 0.x (0.7, 0.8: `on()` marks every hook it adds `asGlobal`, so a plugin's hooks
   * join its parent's), for a package declaring such a version of `elysia` (the file's own,
   * else the project root's).
   */
  private hookScope(file: string): Scope {
    let scope = this.scopes.get(file);
    if (scope === undefined) {
      const { project } = this.ctx;
      const version = project.packageOf(file).versions.get('elysia') ?? project.packages.find((p) => p.dir === '')?.versions.get('elysia');
      scope = version !== undefined && /^[\^~=v\s]*0\./.test(version) ? 'global' : 'local';
      this.scopes.set(file, scope);
    }
    return scope;
  }

  /**
   * `mount(handle)`, `mount(path, handle)`: another application answering every method, `ALL /*`
   * (below the instance's prefix) without a path or at `/`, else `ALL path` and `ALL path/*`,
   * behind the instance's hooks. An Elysia instance of the code mounted so answers with its own
   * routes: the request's whole path without a mount path, else what follows the mount path.
   */
  private mount(inst: Instance, { reg, file }: Op, prefix: string, steps: PrefixStep[]): void {
    const ev = this.ctx.ev;
    const first = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
    const given = reg.args.length >= 2 && first?.t !== 'fn' && first?.t !== 'router' && first?.t !== 'pkg';
    if (given && first?.t !== 'str') {
      this.ctx.warn(file, reg.at, `the path of this mount() is not known statically; what it mounts is left out`, reg.snippet);
      return;
    }
    const at = given && first?.t === 'str' ? first.v : '';
    const expr = reg.args[given ? 1 : 0];
    if (!expr) return;
    const handler = { file, expr, value: ev.eval(file, expr) };
    const root = at === '' || at === '/';
    if (handler.value.t === 'router') {
      const app = ev.routers.get(this.ctx.standsFor(handler.value.id));
      if (app?.framework === 'elysia') {
        this.used.add(app.id);
        const base = root ? '' : added(prefix, at).replace(/\*$/, '').replace(/\/$/, '');
        // (mounted at the root, it is handed the whole path: only its routes below the prefix are reached)
        for (const e of this.instance(app).history)
          if (!root || prefix === '' || e.path === prefix || e.path.startsWith(`${prefix}/`)) add(inst, { ...e, path: base + e.path, hooks: [...inst.events, ...e.hooks], prefixes: [...steps, ...e.prefixes] });
        return;
      }
    }
    const paths = root ? ['/*'] : [at, at.endsWith('/') ? `${at}*` : `${at}/*`];
    for (const p of paths) add(inst, { method: 'ALL', path: added(prefix, p), handler, hooks: [...inst.events], reg, file, prefixes: steps });
  }

  /**
   * The functions a hook object (a route's third argument, a group's or guard's hook) runs before
   * the handler: its own, in lifecycle order, then those of the macros it names.
   */
  private hookObject(file: string, expr: Expr | null, macros: Map<string, Macro>, at: Loc, mechanism: Hook['mechanism']): Hook[] {
    if (!expr) return [];
    const ev = this.ctx.ev;
    const o = ev.eval(file, expr);
    if (o.t !== 'obj') return [];
    const out: Hook[] = [];
    const push = (holder: Extract<Value, { t: 'obj' }>): void => {
      for (const key of HOOK_KEYS) if (Object.hasOwn(holder.props, key)) for (const item of ev.flatten(holder.file, [holder.props[key]!])) out.push({ item, file, at, scope: 'local', mechanism, kind: key });
    };
    push(o);
    for (const key of Object.keys(o.props)) {
      const mac = macros.get(key);
      if (!mac) continue;
      const given = ev.member(o, key, 0);
      const def = ev.eval(mac.file, mac.expr);
      if (def.t === 'obj' && given.t === 'bool' && !given.v) continue;
      // an object of hooks, or a function making one from the value the route gives
      const made = def.t === 'fn' ? ev.returnsOf(def.file, def.fn).map((r) => ev.eval(def.file, r)) : [def];
      for (const h of made) if (h.t === 'obj') push(h);
    }
    return out;
  }

  /**
   * The name an instance is bound to where it is made, its chain of methods written on it
   * (`export const sites = new Elysia({ prefix: '/sites' }).use(session).get(…)`), or null.
   */
  private boundName(r: RouterObject): string | null {
    const facts = this.ctx.files.get(r.file);
    for (const scope of facts?.scopes ?? []) {
      for (const name of Object.keys(scope.bindings)) {
        let e = this.ctx.ev.definitionOf(r.file, scope.id, name)?.expr;
        while (e?.k === 'call' && e.callee.k === 'member') e = e.callee.obj;
        if (e?.k === 'new' && e.at.line === r.at.line && e.at.column === r.at.column) return name;
      }
    }
    return null;
  }

  /**
   * The guards a hook applies, judged once for every route it runs for (an instance's hooks run
   * for each route added after them).
   */
  private hookGuards(h: Hook): AppliedGuard[] {
    let out = this.judged.get(h);
    if (!out) {
      const g = this.ctx.guard(h.item.file, h.item.expr, h.item.value, h.mechanism, h.at);
      const place = (y: AppliedGuard): AppliedGuard => {
        const p = this.ctx.placed(y, h.file, h.at.line);
        // (`.onBeforeHandle(({ user, status }) => …)`: named for the hook it is)
        if (p.name === '(inline middleware)') p.name = `(inline ${h.kind} hook)`;
        return p;
      };
      out = this.ctx.layerGuards(g, h.item.value, place, h.item);
      this.judged.set(h, out);
    }
    return out;
  }

  private emit(r: RouterObject): void {
    const inst = this.instance(r);
    const app = r.name ?? this.boundName(r) ?? 'app';
    for (const e of inst.history) {
      const guards: AppliedGuard[] = [];
      for (const h of e.hooks) guards.push(...this.hookGuards(h));
      if (e.handler) guards.push(...this.ctx.handlerGuards(e.handler));
      // (better-auth's handler answering itself, `mount(auth.handler)`: its origin check first)
      const origin = e.handler ? betterAuthOriginCheck(this.ctx.ev, e.handler.value, e.file, e.reg.at.line) : null;
      if (origin) guards.push(origin);
      this.ctx.addRoute(
        {
          method: e.method,
          path: e.path === '' ? '/' : e.path,
          ...routePlace(e.file, e.reg),
          framework: 'elysia',
          handler: e.handler ? handlerNameOf(this.ctx.ev, e.handler) : null,
          app,
          trailingSlashInsensitive: !r.init.strict,
          caseSensitive: true,
          prefixes: e.prefixes,
          guards: uniqueGuards(guards),
          handlerFn: e.handler?.value.t === 'fn' ? { file: e.handler.value.file, fn: e.handler.value.fn } : null,
        },
        r,
      );
    }
  }
}

/** `use(undefined)`, `use(null)`: Elysia's `use` returns the instance as it is (`if (!plugin) return this`). */
function nothing(e: Expr): boolean {
  return (e.k === 'ref' && e.name === 'undefined') || (e.k === 'unknown' && (e.text === 'null' || e.text === 'undefined'));
}

/** `add`'s path: a leading `/` put on a path without one, the instance's prefix before it. */
function added(prefix: string, path: string): string {
  return prefix + (path !== '' && path[0] !== '/' ? `/${path}` : path);
}

function scopeOf(v: Value): Scope {
  return v.t === 'str' && (v.v === 'scoped' || v.v === 'global') ? v.v : 'local';
}
