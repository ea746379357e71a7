/**
 * routing-controllers (read at 0.11.3: src/index.ts createExecutor, RoutingControllers.ts,
 * driver/express/ExpressDriver.ts, driver/koa/KoaDriver.ts, metadata/ActionMetadata.ts), the
 * decorated controllers of an Express or Koa app:
 *
 * - `useExpressServer(app, options)` / `useKoaServer(app, options)` register on `app`, where
 *   they are called (the app's middleware used before the call runs first);
 *   `createExpressServer(options)` / `createKoaServer(options)` on an app of their own;
 * - the controllers are `options.controllers` — classes, or globs of the files holding them —
 *   or, without it, every class decorated `@Controller(base)` / `@JsonController(base)`;
 * - each method decorated `@Get(route)`, `@Post`, `@Put`, `@Patch`, `@Delete`, `@Head`, `@All`
 *   or `@Method(method, route)` is a route at `routePrefix` + base + route (the strings
 *   concatenated, as ActionMetadata.appendBaseRoute does; a leading `/` given to a prefix
 *   without one), matched as the framework matches a route path;
 * - before it run: the global middleware classes (`@Middleware({ type: 'before' })`, in
 *   `options.middlewares` or, without it, all of them; by `priority`, highest first) used under
 *   `routePrefix`, then the controller's and the method's `@UseBefore(…)` (functions, or classes
 *   whose `use` runs), then the authorization check of `@Authorized(…)` (on the class or the
 *   method), which refuses with 401 (403 with roles) when `authorizationChecker` says no.
 *
 * An inherited action (MetadataBuilder.createActions) is the subclass's: under its base route,
 * behind its class-level decorators only.
 *
 * A required `@CurrentUser` parameter (`{ required: true }`, or none given under
 * `defaults.paramOptions.required`) is a 401 check of the action's, after @Authorized. Not read:
 * a RegExp route, interceptors, `createParamDecorator({ required })` (routing-controllers
 * rejects an empty one only when it has a name, which a custom decorator has not).
 */
import type { Adapter } from '../adapter.js';
import type { Evaluator, RouterObject, Value } from '../../link/evaluate.js';
import { prefixNote, stringsOf } from '../../link/evaluate.js';
import type { LinkContext } from '../../link/link.js';
import { cmp, uniqueGuards } from '../../link/link.js';
import type { AppliedGuard, CallFact, Expr, GuardMechanism, Loc, PrefixStep } from '../../types.js';
import { methodValue, nestFactsOf, type NestDecorator, type NestMethod } from '../nest/facts.js';
import { pathApplies } from '../paths.js';
import { locate } from '../module-location.js';
import { classChain, classesWhere, classNamed, packageDecorators, type ClassRef, type Deco } from '../decorated-classes.js';
import { globRegex } from '../../link/listing.js';

const PKG = 'routing-controllers';
const SERVERS: Record<string, { framework: 'express' | 'koa'; onApp: boolean }> = {
  useExpressServer: { framework: 'express', onApp: true },
  createExpressServer: { framework: 'express', onApp: false },
  useKoaServer: { framework: 'koa', onApp: true },
  createKoaServer: { framework: 'koa', onApp: false },
};
const ACTIONS: Record<string, string> = { Get: 'GET', Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE', Head: 'HEAD', All: 'ALL' };

export const routingControllersAdapter: Adapter = {
  name: 'routing-controllers',
  title: 'routing-controllers (on Express or Koa)',
  modules: [PKG],

  link(ctx: LinkContext): void {
    new RoutingControllersLinker(ctx).run();
  },

  readsCall: maybeServer,
};

/** A call `run` evaluates wherever it is: only `useExpressServer(…)` and its kin can make a server. */
function maybeServer(call: CallFact): boolean {
  const name = call.callee.k === 'ref' ? call.callee.name : call.callee.k === 'member' ? call.callee.prop : '';
  return Object.hasOwn(SERVERS, name);
}

class RoutingControllersLinker {
  private readonly ev: Evaluator;
  private readonly decos = new WeakMap<NestDecorator[], Deco[]>();

  constructor(private readonly ctx: LinkContext) {
    this.ev = ctx.ev;
  }

  run(): void {
    for (const [file, facts] of [...this.ctx.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      for (const call of facts.calls) {
        if (!maybeServer(call)) continue;
        const callee = this.ev.eval(file, call.callee);
        if (callee.t !== 'pkg' || callee.pkg !== PKG || callee.path.length !== 1 || !Object.hasOwn(SERVERS, callee.path[0]!)) continue;
        this.server(file, call, SERVERS[callee.path[0]!]!);
      }
    }
  }

  /** The routes one server call registers. */
  private server(file: string, call: CallFact, kind: { framework: 'express' | 'koa'; onApp: boolean }): void {
    const appValue = kind.onApp && call.args[0] ? this.ev.eval(file, call.args[0]) : null;
    const app = appValue?.t === 'router' ? (this.ev.routers.get(appValue.id) ?? null) : null;
    const optsExpr = call.args[kind.onApp ? 1 : 0];
    const opts = optsExpr ? this.ev.eval(file, optsExpr) : null;
    if (opts !== null && opts.t !== 'obj') {
      this.ctx.warn(file, call.at, `the options of this ${PKG} server are not known statically; its routes are unknown`, call.snippet);
      return;
    }
    const option = (key: string): Value | undefined => (opts?.t === 'obj' && key in opts.props ? this.ev.member(opts, key, 0) : undefined);
    const prefixValue = option('routePrefix');
    const routePrefix = prefixValue === undefined ? '' : prefixValue.t === 'str' ? prefixValue.v : null;
    if (routePrefix === null) {
      this.ctx.warn(file, call.at, `the routePrefix of this ${PKG} server is not known statically (${prefixNote(prefixValue!)}); its routes are listed without it`, call.snippet);
    }
    const prefix = routePrefix ?? '';
    // `defaults: { paramOptions: { required: true } }`: what a parameter decorator given no `required` gets
    const paramsRequired = this.requiredOf(option('defaults'), 'paramOptions', () => false);
    const listFile = opts?.t === 'obj' ? opts.file : file;
    const isController = (c: ClassRef): boolean => this.decorators(c.file, c.cls.decorators).some((d) => d.name === 'Controller' || d.name === 'JsonController');
    const given = this.classesOf(opts?.t === 'obj' ? opts.props['controllers'] : undefined, listFile, isController);
    // (controllers not known statically: any of the analysed files' may be served)
    if (given.unknown !== null) this.ctx.warn(file, call.at, `the controllers of this ${PKG} server are not known statically (${given.unknown}); every controller class of the analysed files is listed`, call.snippet);
    const controllers = given.unknown !== null ? classesWhere(this.ev, isController) : given.classes;
    const found = this.classesOf(opts?.t === 'obj' ? opts.props['middlewares'] : undefined, listFile, (c) => this.middlewareType(c) === 'before');
    // (middleware not known statically guards nothing: what it is may not be there)
    if (found.unknown !== null) this.ctx.warn(file, call.at, `the middlewares of this ${PKG} server are not known statically (${found.unknown}); only those named are read`, call.snippet);
    const middlewares = found.classes.map((c) => ({ c, priority: this.middlewarePriority(c) })).sort((a, b) => b.priority - a.priority);
    const appName = app?.name ?? 'app';
    // The app's own middleware used before the call, then the global middleware under the prefix.
    const before = app ? this.appMiddleware(app, file, call.at) : [];
    const global: { guard: AppliedGuard; scope: string }[] = [];
    for (const { c } of middlewares) {
      const g = this.classGuard(c, 'app.use', call.at, file);
      if (g) global.push({ guard: g, scope: prefix });
    }
    for (const c of controllers) this.controllerRoutes(c, prefix, routePrefix === null ? prefixValue! : null, [...before, ...global], kind.framework, appName, app, file, call, paramsRequired);
  }

  /**
   * The classes a `controllers` / `middlewares` option names: classes, and those of the files
   * its globs match; every class `is` holds for when it is not given. `unknown`: why an entry
   * is not known statically, when one is not.
   */
  private classesOf(list: Expr | undefined, listFile: string, is: (c: ClassRef) => boolean): { classes: ClassRef[]; unknown: string | null } {
    if (list === undefined) return { classes: classesWhere(this.ev, is), unknown: null };
    const out: ClassRef[] = [];
    const seen = new Set<string>();
    let unknown: string | null = null;
    const add = (c: ClassRef): void => {
      const key = `${c.file}#${c.cls.name}`;
      if (!seen.has(key) && is(c)) {
        seen.add(key);
        out.push(c);
      }
    };
    for (const it of this.ev.flatten(listFile, [list])) {
      const c = classNamed(this.ev, it.file, it.expr);
      if (c) {
        add(c);
        continue;
      }
      const glob = this.globOf(it.file, it.expr);
      if (typeof glob === 'string') {
        const re = globRegex(glob);
        for (const [f, facts] of [...this.ctx.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (re.test(f)) for (const cls of nestFactsOf(facts)?.classes ?? []) add({ file: f, cls });
      } else unknown ??= glob.why;
    }
    return { classes: out, unknown };
  }

  /**
   * A glob built from the module's location (`path.join(__dirname, 'controllers', '*.ts')`,
   * `__dirname + '/controllers/*.ts'`: module-location.ts), relative to the analysed root.
   */
  private globOf(file: string, e: Expr): string | { why: string } {
    if (e.k === 'at') return this.globOf(e.file, e.e);
    const loc = locate(this.ev, file, e, this.ctx.project.packageOf(file).dir);
    return 'why' in loc ? loc : loc.url ? { why: 'a URL, not a path' } : loc.p;
  }

  /** The package's decorators among `decorators`, evaluated (once: a class's are asked for again and again). */
  private decorators(file: string, decorators: NestDecorator[]): Deco[] {
    let done = this.decos.get(decorators);
    if (!done) this.decos.set(decorators, (done = packageDecorators(this.ev, PKG, file, decorators)));
    return done;
  }

  private middlewareType(c: ClassRef): string | null {
    const d = this.decorators(c.file, c.cls.decorators).find((x) => x.name === 'Middleware');
    if (!d) return null;
    const opts = d.args[0] ? this.ev.eval(c.file, d.args[0]) : null;
    const type = opts?.t === 'obj' && 'type' in opts.props ? this.ev.member(opts, 'type', 0) : null;
    return type?.t === 'str' ? type.v : 'before';
  }

  private middlewarePriority(c: ClassRef): number {
    const d = this.decorators(c.file, c.cls.decorators).find((x) => x.name === 'Middleware');
    const opts = d?.args[0] ? this.ev.eval(c.file, d.args[0]) : null;
    const p = opts?.t === 'obj' && 'priority' in opts.props ? this.ev.member(opts, 'priority', 0) : null;
    return p?.t === 'num' ? p.v : 0;
  }

  private methodFn(c: ClassRef, m: NestMethod): Value {
    return methodValue(this.ctx.files, c.file, c.cls, m);
  }

  /** A middleware class as a guard: its `use` method, named by the class. */
  private classGuard(c: ClassRef, mechanism: GuardMechanism, at: Loc, file: string): AppliedGuard | null {
    const use = c.cls.methods.find((m) => m.name === 'use' && !m.isStatic);
    if (!use) return null;
    const g = this.ctx.guard(c.file, { k: 'ref', name: c.cls.name, scope: 0 }, this.methodFn(c, use), mechanism, at);
    return g && this.ctx.placed(g, file, at.line);
  }

  /** `@UseBefore(…)` among `decos`: functions, and middleware classes. */
  private useBefore(decos: Deco[], mechanism: GuardMechanism): AppliedGuard[] {
    const out: AppliedGuard[] = [];
    for (const d of decos) {
      if (d.name !== 'UseBefore') continue;
      for (const it of this.ev.flatten(d.file, d.args)) {
        const c = classNamed(this.ev, it.file, it.expr);
        const g = c ? this.classGuard(c, mechanism, d.use.at, d.file) : this.ctx.guard(it.file, it.expr, it.value, mechanism, d.use.at);
        if (g) out.push(c ? g : this.ctx.placed(g, d.file, d.use.at.line));
      }
    }
    return out;
  }

  /**
   * `@Authorized(roles?)` on the method or the class: the one authorization check routing-controllers
   * runs before the action (with the roles of both), placed at the method's when it has one.
   */
  private authorized(methodDecos: Deco[], classDecos: Deco[]): AppliedGuard[] {
    const onMethod = methodDecos.find((x) => x.name === 'Authorized');
    const d = onMethod ?? classDecos.find((x) => x.name === 'Authorized');
    if (!d) return [];
    const mechanism: GuardMechanism = onMethod ? 'method-guard' : 'controller-guard';
    return [{ name: '@Authorized', kinds: ['auth'], families: [], reason: `by package (${PKG}: refuses the request when its authorizationChecker does)`, mechanism, file: d.file, line: d.use.at.line }];
  }

  /**
   * `@CurrentUser({ required: true })` on a parameter of the action (or `@CurrentUser()` under
   * `defaults.paramOptions.required`): the action refuses a request its currentUserChecker finds
   * no user for with an AuthorizationRequiredError, a 401 (ActionParameterHandler.handleValue).
   * A `required` not known statically checks nothing here.
   */
  private currentUser(c: ClassRef, m: NestMethod, paramsRequired: boolean | null): AppliedGuard[] {
    for (const d of this.decorators(c.file, m.currentUser ?? [])) {
      if (d.name !== 'CurrentUser') continue;
      // (`options ? options.required : undefined`, then the default for undefined: MetadataBuilder.decorateDefaultParamOptions)
      const opts = d.args[0] ? this.ev.eval(d.file, d.args[0]) : undefined;
      if (this.requiredOf(opts, null, () => paramsRequired) !== true) continue;
      return [{ name: '@CurrentUser', kinds: ['auth'], families: [], reason: `by package (${PKG}: a required @CurrentUser refuses the request with 401 when its currentUserChecker finds no user)`, mechanism: 'method-guard', file: d.file, line: d.use.at.line }];
    }
    return [];
  }

  /**
   * `required` of an options object (of its `under` object, when given): a boolean, `missing()`
   * when it or the object is not given, null when not known statically.
   */
  private requiredOf(opts: Value | undefined, under: string | null, missing: () => boolean | null): boolean | null {
    if (opts === undefined) return missing();
    if (opts.t !== 'obj') return null;
    if (under !== null) return this.requiredOf(under in opts.props ? this.ev.member(opts, under, 0) : undefined, null, missing);
    if (!('required' in opts.props)) return missing();
    const v = this.ev.member(opts, 'required', 0);
    return v.t === 'bool' ? v.v : null;
  }

  /**
   * The app's middleware used (`app.use(…)`) before the server call: in other files (imported,
   * so run first), and earlier in the call's own.
   */
  private appMiddleware(app: RouterObject, file: string, at: Loc): { guard: AppliedGuard; scope: string }[] {
    const out: { guard: AppliedGuard; scope: string }[] = [];
    const regs = this.ctx
      .registrationsOf(app.id)
      .filter((b) => b.reg.method === 'use' && (b.file !== file || cmp([b.reg.at.line, b.reg.at.column], [at.line, at.column]) < 0))
      .sort((x, y) => cmp(x.order, y.order));
    for (const b of regs) {
      const first = b.reg.args[0] ? this.ev.eval(b.file, b.reg.args[0]) : null;
      const scopes = first ? stringsOf(first) : null;
      const fns = scopes ? b.reg.args.slice(1) : b.reg.args;
      for (const it of this.ev.flatten(b.file, fns)) {
        if (it.value.t === 'router') continue;
        const g = this.ctx.guard(it.file, it.expr, it.value, 'app.use', b.reg.at);
        if (g) for (const scope of scopes ?? ['']) out.push({ guard: this.ctx.placed(g, b.file), scope });
      }
    }
    return out;
  }

  private controllerRoutes(
    c: ClassRef,
    prefix: string,
    prefixUnknown: Value | null,
    outer: { guard: AppliedGuard; scope: string }[],
    framework: 'express' | 'koa',
    appName: string,
    app: RouterObject | null,
    serverFile: string,
    call: CallFact,
    paramsRequired: boolean | null,
  ): void {
    const classDecos = this.decorators(c.file, c.cls.decorators);
    const ctrl = classDecos.find((d) => d.name === 'Controller' || d.name === 'JsonController')!;
    const baseValue = ctrl.args[0] ? this.ev.eval(c.file, ctrl.args[0]) : null;
    if (baseValue && baseValue.t !== 'str') {
      this.ctx.warn(c.file, ctrl.use.at, `the base route of controller ${c.cls.name} is not known statically; its routes are left out`, ctrl.use.snippet);
      return;
    }
    const base = baseValue?.t === 'str' ? baseValue.v : '';
    const classUses = this.useBefore(classDecos, 'controller-guard');
    const prefixes = prefixUnknown ? [{ prefix: '', file: serverFile, line: call.at.line, unknown: prefixNote(prefixUnknown) }] : prefix ? [{ prefix, file: serverFile, line: call.at.line }] : [];
    // The actions of the class and of the classes it extends, a method the subclass declares as
    // an action first (MetadataBuilder.createActions). An inherited action is the subclass's: it
    // is looked up with the subclass as its target, so the base method's own @UseBefore and
    // @Authorized do not apply to it — only the subclass's class-level ones.
    const taken = new Set<string>();
    for (const owner of classChain(this.ev, c)) {
      for (const m of owner.cls.methods) {
        if (m.isStatic || taken.has(m.name)) continue;
        const all = this.decorators(owner.file, m.decorators);
        if (!all.some((d) => d.name === 'Method' || ACTIONS[d.name])) continue;
        taken.add(m.name);
        // (an inherited action has no parameters' metadata: it is looked up on the subclass too, MetadataBuilder.createParams)
        const userCheck = owner === c ? this.currentUser(owner, m, paramsRequired) : [];
        this.actionRoutes(c, owner, m, all, owner === c ? all : [], { prefix, base, prefixes, outer, classUses, classDecos, framework, appName, app, userCheck });
      }
    }
  }

  /** The routes of one action of controller `c`, declared in `owner` (`c` or a class it extends); `decos`, the method's decorators that apply. */
  private actionRoutes(
    c: ClassRef,
    owner: ClassRef,
    m: NestMethod,
    all: Deco[],
    decos: Deco[],
    o: {
      prefix: string;
      base: string;
      prefixes: PrefixStep[];
      outer: { guard: AppliedGuard; scope: string }[];
      classUses: AppliedGuard[];
      classDecos: Deco[];
      framework: 'express' | 'koa';
      appName: string;
      app: RouterObject | null;
      userCheck: AppliedGuard[];
    },
  ): void {
    const { prefix, base, prefixes, outer, classUses, classDecos, framework, appName, app, userCheck } = o;
    for (const d of all) {
      const method = d.name === 'Method' ? this.methodName(d) : ACTIONS[d.name];
      if (!method) continue;
      const routeArg = d.args[d.name === 'Method' ? 1 : 0];
      const routeValue = routeArg ? this.ev.eval(owner.file, routeArg) : null;
      if (routeValue && routeValue.t !== 'str') {
        this.ctx.warn(owner.file, d.use.at, `${method} route of ${c.cls.name}.${m.name} with a path not known statically; it is left out`, d.use.snippet);
        continue;
      }
      const route = appendBaseRoute(prefix, base + (routeValue?.t === 'str' ? routeValue.v : '')) || '/';
      const handler = this.methodFn(owner, m);
      const guards = [
        ...outer.filter((s) => pathApplies(s.scope, route, false)).map((s) => s.guard),
        // the controller's and the method's @UseBefore, then the authorization check (ExpressDriver.registerAction)
        ...classUses,
        ...this.useBefore(decos, 'method-guard'),
        ...this.authorized(decos, classDecos),
        // then the parameters, a required @CurrentUser among them (ActionParameterHandler.handleValue)
        ...userCheck,
        // (its parameters are what their decorators pick: the call it ends with is not followed)
        ...this.ctx.inHandlerGuards(handler, undefined, { depth: 0, no: true }),
      ];
      this.ctx.addRoute(
        {
          method,
          path: route,
          file: owner.file,
          line: d.use.at.line,
          column: d.use.at.column,
          framework,
          handler: `${c.cls.name}.${m.name}`,
          app: appName,
          trailingSlashInsensitive: !(route.length > 1 && route.endsWith('/')) || framework === 'express',
          caseSensitive: false,
          prefixes,
          guards: uniqueGuards(guards),
          handlerFn: handler.t === 'fn' ? { file: handler.file, fn: handler.fn } : null,
          snippet: d.use.snippet,
        },
        app,
      );
    }
  }

  /** `@Method('move', route)`: the method, upper-cased. */
  private methodName(d: Deco): string | undefined {
    const v = d.args[0] ? this.ev.eval(d.file, d.args[0]) : null;
    return v?.t === 'str' ? v.v.toUpperCase() : undefined;
  }
}

/** ActionMetadata.appendBaseRoute for string routes: a base without a slash gets one before it; then the two joined as written. */
export function appendBaseRoute(base: string, route: string): string {
  return `${base.length > 0 && !base.includes('/') ? '/' : ''}${base}${route}`;
}
