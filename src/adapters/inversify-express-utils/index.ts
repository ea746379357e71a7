/**
 * inversify-express-utils (read at 6.5.0: src/server.ts InversifyExpressServer, src/decorators.ts,
 * src/utils.ts), the decorated controllers of an Express app an inversify container fills:
 *
 * - `new InversifyExpressServer(container, customRouter?, routingConfig?, …)` makes the server;
 *   its `build()` registers every controller's routes on one router (`customRouter`, or
 *   `Router()`: case-insensitive, not strict) used at `routingConfig.rootPath` (default `/`);
 * - the controllers are the classes decorated `@controller(path, …middleware)` whose modules the
 *   server's process loads: the decorator puts the class in a list global to the process
 *   (getControllersFromMetadata) when its module runs. Those the module making the server
 *   imports, directly or not, are its controllers (when it imports none, those of its package,
 *   with a warning: a monorepo's services each serve their own);
 * - each method decorated `@httpGet(path, …middleware)`, `@httpPost`, `@httpPut`, `@httpPatch`,
 *   `@httpHead`, `@httpDelete`, `@httpOptions`, `@all` or `@httpMethod(method, path, …)` is a
 *   route at the root path + the controller's path + its own, each of the two given a leading
 *   `/` and stripped of a trailing one (mergePaths; an empty one adds nothing); the methods the
 *   classes it extends decorate are the controller's too (getControllerMethodMetadata);
 * - before the action run the controller's middleware, then the method's, each list followed by
 *   what a `@withMiddleware(…)` written below its decorator adds (decorators run bottom-up, so
 *   one written above it is read too late: ignored, as the package ignores it); an item the
 *   container is bound for is what it resolves to — a `BaseMiddleware` class's `handler`
 *   (`container.bind(TYPES.Auth).to(AuthMiddleware)`, `.toConstantValue(new AuthMiddleware(…))`,
 *   `bind(AuthMiddleware).toSelf()`, or the class itself), else the function it is; in a
 *   `handler` the class inherits, `this` is the class's instance (its overrides answer), and
 *   the checks of the methods it calls first (`if (!this.handleMissingAuthHeader(…)) return`)
 *   count with its own.
 *
 * - build() makes an Express app (`express()`, or the `customApp` given as the fourth argument),
 *   calls the last `setConfig((app) => …)` callback with it, then adds the controllers' routes:
 *   what the callback registers on `app`, itself or through the functions it hands `app` to, is
 *   the app's (its routes listed as Express routes), and the layers the app's registrations
 *   leave run before each controller route they reach.
 *
 * Not read: `setErrorConfig` (its middleware runs after the routes), a binding to
 * anything but a class (`toConstantValue(fn)`, a `toDynamicValue(…)` whose function does not
 * return `new` of one class every way: the identifier is then a guard candidate, named by it),
 * and the auth provider (it reads the user, and refuses nothing).
 */
import type { ts as TS } from 'ts-morph';
import type { Adapter } from '../adapter.js';
import type { ExtractApi } from '../../extract/extract.js';
import type { Evaluator, RouterObject, Value } from '../../link/evaluate.js';
import { fnKey, prefixNote } from '../../link/evaluate.js';
import type { LinkContext } from '../../link/link.js';
import { cmp, uniqueGuards } from '../../link/link.js';
import { evaluatePackageCalls } from '../package-calls.js';
import { orderKinds } from '../../guards.js';
import type { AppliedGuard, Expr, FileFacts, GuardMechanism, Loc, PrefixStep } from '../../types.js';
import { methodValue, type NestDecorator, type NestMethod } from '../nest/facts.js';
import { applying, joinPath, type ScopedGuard } from '../paths.js';
import { classChain, classesWhere, classNamed, packageDecorators, type ClassRef, type Deco } from '../decorated-classes.js';

const PKG = 'inversify-express-utils';
const NAME = 'inversify-express-utils';
const ACTIONS: Record<string, string> = {
  httpGet: 'GET',
  httpPost: 'POST',
  httpPut: 'PUT',
  httpPatch: 'PATCH',
  httpHead: 'HEAD',
  httpDelete: 'DELETE',
  httpOptions: 'OPTIONS',
  all: 'ALL',
};

/**
 * A binding of an inversify container (`container.bind(ID).to(Class)`,
 * `.toConstantValue(new Class(…))`, `.toSelf()`), as written in a file importing inversify:
 * the identifier, and the class it resolves to (the identifier itself for `toSelf()`). Both
 * are names read at the file's top level (a class, `TYPES.AuthMiddleware`), which is where
 * the identifiers and classes a container binds are declared or imported.
 */
interface ContainerBinding {
  id: Expr;
  cls: Expr;
  at: Loc;
}

interface InversifyFacts {
  bindings: ContainerBinding[];
}

function inversifyFactsOf(facts: { adapterFacts: Record<string, unknown> }): InversifyFacts | null {
  return (facts.adapterFacts[NAME] as InversifyFacts | undefined) ?? null;
}

/** The container bindings of a file importing inversify (ContainerBinding). */
function visitContainerFile(api: ExtractApi): void {
  if (!api.facts.imports.some((i) => i.source === 'inversify') || !api.sf.text.includes('.bind')) return;
  const { ts } = api;
  // a name, or a chain of names (`TYPES.Auth_SessionMiddleware`): nothing else is read
  const nameOf = (e: TS.Expression): Expr | null => {
    let x: TS.Expression = e;
    while (ts.isPropertyAccessExpression(x)) x = x.expression;
    return ts.isIdentifier(x) && (ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)) ? api.expr(e, 0) : null;
  };
  const bare = (e: TS.Expression): TS.Expression => (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) ? bare(e.expression) : e);
  // `toDynamicValue((context) => { …; return new InversifyExpressAuthMiddleware(…) })`: the class
  // every return of the function makes (standardnotes' syncing server), or null
  const madeClass = (fn: TS.Expression): TS.Expression | null => {
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return null;
    const made: TS.Expression[] = [];
    let other = false;
    const returns = (n: TS.Node): void => {
      if (ts.isFunctionLike(n) || other) return;
      if (ts.isReturnStatement(n)) {
        const e = n.expression && bare(n.expression);
        if (e && ts.isNewExpression(e)) made.push(e.expression);
        else other = true;
        return;
      }
      ts.forEachChild(n, returns);
    };
    if (ts.isBlock(fn.body)) ts.forEachChild(fn.body, returns);
    else {
      const e = bare(fn.body);
      if (ts.isNewExpression(e)) made.push(e.expression);
    }
    const first = made[0];
    const text = (m: TS.Expression): string => api.sf.text.slice(m.pos, m.end).trim();
    return !other && first && made.every((m) => text(m) === text(first)) ? first : null;
  };
  const bindings: ContainerBinding[] = [];
  const stack: TS.Node[] = [api.sf];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isCallExpression(n.expression.expression)) {
      const bind = n.expression.expression;
      const how = n.expression.name.text;
      if (ts.isPropertyAccessExpression(bind.expression) && bind.expression.name.text === 'bind' && bind.arguments.length === 1) {
        const id = nameOf(bind.arguments[0]!);
        const arg = n.arguments[0];
        const target =
          how === 'toSelf'
            ? bind.arguments[0]!
            : how === 'to' && arg
              ? arg
              : how === 'toConstantValue' && arg && ts.isNewExpression(arg)
                ? arg.expression
                : how === 'toDynamicValue' && arg
                  ? madeClass(arg)
                  : null;
        const cls = target ? nameOf(target) : null;
        if (id && cls) bindings.push({ id, cls, at: api.loc(n) });
      }
    }
    ts.forEachChild(n, (c) => {
      stack.push(c);
    });
  }
  bindings.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
  if (bindings.length > 0) api.facts.adapterFacts[NAME] = { bindings } satisfies InversifyFacts;
}

export const inversifyExpressUtilsAdapter: Adapter = {
  name: NAME,
  title: 'inversify-express-utils (on Express)',
  modules: [PKG],

  visitFile: visitContainerFile,

  create(pkg, path, _args, isNew) {
    return pkg === PKG && isNew && path.length === 1 && path[0] === 'InversifyExpressServer' ? { kind: 'app', strict: false, caseSensitive: false } : null;
  },

  readsEveryBinding: importsPackage,

  bind: bindConfigured,

  link(ctx: LinkContext): void {
    new InversifyLinker(ctx).run();
  },
};

/**
 * The Express app a server builds on: the `customApp` it is given (its fourth argument), else
 * one of its own, `express()` (strict and case-sensitive routing off), made at the server's
 * place. Made only for a server whose `setConfig` is called: another has no registration on it.
 */
function appOf(ev: Evaluator, server: RouterObject, make: boolean): RouterObject | null {
  const custom = server.args[3] ? ev.eval(server.file, server.args[3]) : null;
  if (custom?.t === 'router') return ev.routers.get(custom.id) ?? null;
  const id = `${server.id}#app`;
  const own = ev.routers.get(id);
  if (own || !make) return own ?? null;
  const app: RouterObject = { id, framework: 'express', init: { kind: 'app', strict: false, caseSensitive: false }, file: server.file, at: server.at, name: server.name, args: [] };
  ev.routers.set(id, app);
  return app;
}

/**
 * `server.setConfig((app) => { app.use(…); app.post(…) })`: build() calls the callback with
 * its Express app before it adds the controllers' routes (then `setErrorConfig`'s, not read).
 * The registrations the last callback given (the one build() calls) makes on its parameter are
 * the app's, placed where that setConfig call is written.
 */
function bindConfigured(ctx: LinkContext): void {
  const ev = ctx.ev;
  for (const server of [...ev.routers.values()]) {
    if (server.framework !== NAME) continue;
    const configured = (ctx.byRouter.get(server.id) ?? []).filter((b) => b.reg.method === 'setConfig');
    const last = configured.sort((a, b) => cmp(a.order, b.order))[configured.length - 1];
    const cb = last?.reg.args[0] ? ev.eval(last.file, last.reg.args[0]) : null;
    if (!last || cb?.t !== 'fn') continue;
    const app = appOf(ev, server, true)!;
    // (its own, and those of the functions it hands `app` on to: LinkContext.handedOn)
    for (const r of ctx.handedOn.get(fnKey(cb.file, cb.fn)) ?? []) {
      if (r.index !== 0 || r.path.length > 0) continue;
      ctx.boundFunctions.add(r.origin ?? r.fnKey);
      ctx.bindRegistration({ reg: r.reg, file: r.regFile, router: app, order: [last.file === app.file ? 0 : 1, last.file, last.reg.at.line, last.reg.at.column, ...r.chain] });
    }
  }
}

function importsPackage(facts: FileFacts): boolean {
  return facts.imports.some((i) => i.source === PKG);
}

class InversifyLinker {
  private readonly ev: Evaluator;

  constructor(private readonly ctx: LinkContext) {
    this.ev = ctx.ev;
  }

  run(): void {
    // the servers, made wherever `new InversifyExpressServer(…)` is written (nothing is registered on them)
    for (const [file, facts] of this.ctx.files) evaluatePackageCalls(this.ctx, file, facts, (source) => source === PKG);
    const servers = this.ctx.routersOf(NAME).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.at.line - b.at.line || a.at.column - b.at.column));
    if (servers.length === 0) return;
    const controllers = this.controllers();
    const imports = this.importGraph();
    const seen = new Set<string>();
    for (const server of servers) {
      const place = `${server.file}:${server.at.line}:${server.at.column}`;
      if (seen.has(place)) continue;
      seen.add(place);
      this.server(server, this.servedBy(server, controllers, imports));
    }
  }

  /** Who imports whom among the files read (imports, side-effect imports and re-exports). */
  private importGraph(): Map<string, string[]> {
    const graph = new Map<string, string[]>();
    for (const [file, facts] of this.ctx.files) {
      const sources = [...facts.imports.map((i) => i.source), ...facts.exports.flatMap((x) => (x.source ? [x.source] : []))];
      const targets = new Set<string>();
      for (const spec of sources) {
        const t = this.ev.resolveModule(file, spec);
        if (t !== null && t !== file) targets.add(t);
      }
      graph.set(file, [...targets]);
    }
    return graph;
  }

  /**
   * The controllers a server's process registers: those whose modules the module making the
   * server loads, importing them directly or not (the decorator registers a class when its
   * module runs). When it loads none (controllers loaded by a glob, say), those of its package,
   * said so.
   */
  private servedBy(server: RouterObject, controllers: ClassRef[], imports: Map<string, string[]>): ClassRef[] {
    const loaded = new Set([server.file]);
    const queue = [server.file];
    while (queue.length > 0) {
      for (const t of imports.get(queue.pop()!) ?? []) {
        if (loaded.has(t)) continue;
        loaded.add(t);
        queue.push(t);
      }
    }
    const reached = controllers.filter((c) => loaded.has(c.file));
    if (reached.length > 0) return reached;
    const pkg = this.ctx.project.packageOf(server.file).dir;
    const own = controllers.filter((c) => this.ctx.project.packageOf(c.file).dir === pkg);
    if (own.length > 0) this.ctx.warn(server.file, server.at, `no controller is imported, directly or not, by the module making this ${PKG} server; those of its package are listed`, '');
    return own;
  }

  /** Every class decorated `@controller(…)`, in file order. */
  private controllers(): ClassRef[] {
    return classesWhere(this.ev, (c) => this.decorators(c.file, c.cls.decorators).some((d) => d.name === 'controller'));
  }

  private server(server: RouterObject, controllers: ClassRef[]): void {
    const routing = server.args[2] ? this.ev.eval(server.file, server.args[2]) : null;
    let root: string | null = '/';
    let rootNote = '';
    if (routing && routing.t === 'obj' && Object.hasOwn(routing.props, 'rootPath')) {
      const v = this.ev.member(routing, 'rootPath', 0);
      if (v.t === 'str') root = v.v;
      else [root, rootNote] = [null, prefixNote(v)];
    } else if (routing && routing.t !== 'obj' && !(routing.t === 'unknown' && (routing.why === 'null' || routing.why.startsWith('undefined')))) [root, rootNote] = [null, prefixNote(routing)];
    const prefixes: PrefixStep[] = root === null ? [{ prefix: '', file: server.file, line: server.at.line, unknown: rootNote }] : root !== '/' ? [{ prefix: root, file: server.file, line: server.at.line }] : [];
    if (root === null) this.ctx.warn(server.file, server.at, `the rootPath of this ${PKG} server is not known statically (${rootNote}); its routes are listed without it`, '');
    // (`customRouter`: an Express router of the analysed code, with its own options)
    const custom = server.args[1] ? this.ev.eval(server.file, server.args[1]) : null;
    const init = custom?.t === 'router' ? this.ev.routers.get(custom.id)?.init : undefined;
    const matching = { strict: init?.strict ?? false, caseSensitive: init?.caseSensitive ?? false };
    // (what the app runs before them: its middleware, `setConfig`'s included)
    const app = appOf(this.ev, server, false);
    const layers = app ? (this.ctx.layersAfter.get(app.id) ?? []) : [];
    for (const c of controllers) this.controllerRoutes(c, root ?? '/', prefixes, matching, app ?? server, layers);
  }

  private decorators(file: string, decorators: NestDecorator[]): Deco[] {
    return packageDecorators(this.ev, PKG, file, decorators);
  }

  /**
   * The middleware a decorator lists (from argument `from` on), then what each `@withMiddleware(…)`
   * written below it adds (decorators run bottom-up: one written above it comes too late).
   */
  private middlewareOf(decos: Deco[], main: Deco, from: number, mechanism: GuardMechanism): AppliedGuard[] {
    const below = decos.slice(decos.indexOf(main) + 1).filter((d) => d.name === 'withMiddleware');
    const out: AppliedGuard[] = [];
    for (const d of [main, ...below]) {
      for (const it of this.ev.flatten(d.file, d.args.slice(d === main ? from : 0))) {
        const g = this.middlewareGuard(it.file, it.expr, it.value, mechanism, d.use.at);
        if (g) out.push(this.ctx.placed(g, d.file, d.use.at.line));
      }
    }
    return out;
  }

  /**
   * One middleware item as a guard: a function as itself; an identifier the container is bound
   * for, or a class, as the `handler` of the `BaseMiddleware` class it resolves to; anything else
   * by its name.
   */
  private middlewareGuard(file: string, expr: Expr, value: Value, mechanism: GuardMechanism, at: Loc): AppliedGuard | null {
    if (value.t === 'fn') return this.ctx.guard(file, expr, value, mechanism, at);
    const named = classNamed(this.ev, file, expr);
    const bound = named ? [named] : this.boundClasses(file, expr);
    if (bound.length > 1) {
      // bindings of one identifier under conditions (standardnotes' gateway: a gRPC or an HTTP
      // class, by a setting): the guard every class bound is, when each is the same guard
      const each = bound.map((c) => this.classGuard(c, mechanism, at));
      const [first] = each;
      const same = first && each.every((g) => g && g.kinds.join() === first.kinds.join() && g.families.join() === first.families.join());
      if (same) return { ...first, name: bound.map((c) => c.cls.name).join(' or '), reason: `each class bound: ${[...new Set(each.map((g) => g!.reason))].join('; ')}` };
    }
    const one = bound.length === 1 ? this.classGuard(bound[0]!, mechanism, at) : undefined;
    return one !== undefined ? one : this.ctx.guard(file, expr, value, mechanism, at);
  }

  /** A `BaseMiddleware` class as a guard: its `handler`, `this` its instance; undefined when it has none. */
  private classGuard(c: ClassRef, mechanism: GuardMechanism, at: Loc): AppliedGuard | null | undefined {
    const handler = this.handlerOf(c);
    if (handler) {
      const named: Expr = { k: 'ref', name: c.cls.name, scope: 0 };
      // (`this` in a handler the class inherits is the class's instance: what it overrides answers)
      return this.ev.asInstance(c.file, 0, c.cls.name, () => {
        const g = this.ctx.guard(handler.file, named, handler.value, mechanism, at);
        if (g?.kinds.includes('auth')) return g;
        // `if (!this.handleMissingAuthHeader(…)) return`: the checks of the methods it calls first
        const led = this.ctx.delegatedGuard(handler.file, c.cls.name, handler.value, mechanism, at, false);
        return led ? joinGuards(g, led) : g;
      });
    }
    return undefined;
  }

  /** A `BaseMiddleware` class's `handler` method, its own or one of a class it extends. */
  private handlerOf(c: ClassRef): { file: string; value: Value } | null {
    for (const owner of classChain(this.ev, c)) {
      const m = owner.cls.methods.find((x) => x.name === 'handler' && !x.isStatic);
      if (m) return { file: owner.file, value: methodValue(this.ctx.files, owner.file, owner.cls, m) };
    }
    return null;
  }

  /**
   * The classes a container binds the identifier `expr` names to (ContainerBinding), in any of
   * the analysed files: the identifier the same value (a string, or the same property of the same
   * object, `TYPES.AuthMiddleware`); one each.
   */
  private boundClasses(file: string, expr: Expr): ClassRef[] {
    const id = this.identity(file, expr);
    if (id === null) return [];
    const found = new Map<string, ClassRef>();
    for (const [f, facts] of this.ctx.files) {
      for (const b of inversifyFactsOf(facts)?.bindings ?? []) {
        if (this.identity(f, b.id) !== id) continue;
        const cls = classNamed(this.ev, f, b.cls);
        if (cls) found.set(`${cls.file}#${cls.cls.name}`, cls);
      }
    }
    return [...found.values()];
  }

  /**
   * What an identifier is, as a key: a string's value, or the object literal and the property it
   * reads (`TYPES.Session`, whatever name a file imports `TYPES` by: the literal is one value).
   */
  private identity(file: string, expr: Expr): string | null {
    const v = this.ev.eval(file, expr);
    if (v.t === 'str') return `str:${v.v}`;
    if (expr.k !== 'member') return null;
    const obj = this.ev.eval(file, expr.obj);
    if (obj.t !== 'obj') return null;
    let id = this.objects.get(obj.props);
    if (id === undefined) this.objects.set(obj.props, (id = this.objects.size));
    return `prop:${id}:${expr.prop}`;
  }

  /** The object literals identifiers are read from, each numbered once (identity). */
  private readonly objects = new Map<object, number>();

  private controllerRoutes(c: ClassRef, root: string, prefixes: PrefixStep[], matching: { strict: boolean; caseSensitive: boolean }, server: RouterObject, layers: ScopedGuard[]): void {
    const classDecos = this.decorators(c.file, c.cls.decorators);
    const ctrl = classDecos.find((d) => d.name === 'controller')!;
    const base = ctrl.args[0] ? this.ev.eval(c.file, ctrl.args[0]) : null;
    if (base?.t !== 'str') {
      this.ctx.warn(c.file, ctrl.use.at, `the path of controller ${c.cls.name} is not known statically; its routes are left out`, ctrl.use.snippet);
      return;
    }
    const classUses = this.middlewareOf(classDecos, ctrl, 1, 'controller-guard');
    // the actions of the class, then of the classes it extends (getControllerMethodMetadata),
    // each handled by the controller's own method of that name
    for (const owner of classChain(this.ev, c)) {
      for (const m of owner.cls.methods) {
        if (m.isStatic) continue;
        const decos = this.decorators(owner.file, m.decorators);
        const own = c.cls.methods.find((x) => x.name === m.name && !x.isStatic);
        const handler = methodValue(this.ctx.files, own ? c.file : owner.file, own ? c.cls : owner.cls, own ?? m);
        for (const d of decos) this.actionRoute(c, owner, m, d, decos, { root, base: base.v, prefixes, matching, classUses, handler, server, layers });
      }
    }
  }

  /** The route one action decorator makes. */
  private actionRoute(
    c: ClassRef,
    owner: ClassRef,
    m: NestMethod,
    d: Deco,
    decos: Deco[],
    o: { root: string; base: string; prefixes: PrefixStep[]; matching: { strict: boolean; caseSensitive: boolean }; classUses: AppliedGuard[]; handler: Value; server: RouterObject; layers: ScopedGuard[] },
  ): void {
    const verb = d.name === 'httpMethod' ? (d.args[0] ? this.ev.eval(d.file, d.args[0]) : null) : null;
    const method = d.name === 'httpMethod' ? (verb?.t === 'str' ? verb.v.toUpperCase() : null) : ACTIONS[d.name];
    if (!method) {
      if (d.name === 'httpMethod') this.ctx.warn(owner.file, d.use.at, `the method of ${c.cls.name}.${m.name}'s route is not known statically; it is left out`, d.use.snippet);
      return;
    }
    const pathArg = d.args[d.name === 'httpMethod' ? 1 : 0];
    const pv = pathArg ? this.ev.eval(owner.file, pathArg) : null;
    if (pv?.t !== 'str') {
      this.ctx.warn(owner.file, d.use.at, `${method} route of ${c.cls.name}.${m.name} with a path not known statically; it is left out`, d.use.snippet);
      return;
    }
    const path = joinPath(o.root, mergePaths(o.base, pv.v));
    const guards = [
      ...applying(o.layers, method, path),
      ...o.classUses,
      ...this.middlewareOf(decos, d, d.name === 'httpMethod' ? 2 : 1, 'method-guard'),
      // (its parameters are what their decorators pick: the call it ends with is not followed)
      ...this.ctx.inHandlerGuards(o.handler, undefined, { depth: 0, no: true }),
    ];
    this.ctx.addRoute(
      {
        method,
        path,
        file: owner.file,
        line: d.use.at.line,
        column: d.use.at.column,
        framework: 'express',
        handler: `${c.cls.name}.${m.name}`,
        app: o.server.name ?? 'server',
        trailingSlashInsensitive: !o.matching.strict,
        caseSensitive: o.matching.caseSensitive,
        prefixes: o.prefixes,
        guards: uniqueGuards(guards),
        handlerFn: o.handler.t === 'fn' ? { file: o.handler.file, fn: o.handler.fn } : null,
        snippet: d.use.snippet,
      },
      o.server,
    );
  }
}

/**
 * A middleware's guard as its own name and body classify it (or none), with the kinds of the
 * checks the methods it calls first make (LinkContext.delegatedGuard): both, as classifyGuard
 * joins what a name and a body say. (The guard is a fresh one: kept, with its place.)
 */
function joinGuards(g: AppliedGuard | null, led: AppliedGuard): AppliedGuard {
  if (!g || g.kinds.every((k) => k === 'unknown')) return led;
  g.kinds = orderKinds(new Set([...g.kinds, ...led.kinds]));
  g.families = [...new Set([...g.families, ...led.families])].sort();
  g.reason = `${g.reason}; ${led.reason}`;
  return g;
}

/**
 * InversifyExpressServer.mergePaths (6.5.0): each path given a leading `/` (unless it starts
 * with one or with `.`) and stripped of a trailing `/`, then the two joined. But an empty path
 * adds nothing, as in the releases before 6.5.0, which joined the two as written: 6.5.0 makes
 * it `/`, so that `@controller('')` with `@httpPost('/items/sync')` registers `//items/sync`,
 * which no request for `/items/sync` reaches. standardnotes' gateway, locked at 6.4.3, serves
 * its `@controller('')` routes at `/items/sync`; a version is not read from a lockfile here.
 */
export function mergePaths(...paths: string[]): string {
  return paths
    .map((p) => {
      if (p === '') return '';
      let out = p.startsWith('/') || p.startsWith('.') ? p : `/${p}`;
      if (p.endsWith('/')) out = out.slice(0, -1);
      return out;
    })
    .join('');
}
