/**
 * OvernightJS (@overnightjs/core, read at 1.7.6: lib/Server.ts, lib/decorators/class.ts,
 * method.ts, middleware.ts), decorated controllers on an Express app:
 *
 * - a `Server` (a class extending the package's, as its documentation writes one, or the class
 *   itself made with `new`) holds an Express app, `this.app` (`server.app`): what is registered
 *   on it is an Express app's, listed as such;
 * - `addControllers(controllers, routerLib?, globalMiddleware?)` mounts each controller (an
 *   instance, `new Projects()`, or an array of them) where it is called: `app.use(basePath,
 *   globalMiddleware?, router)` — so the app's layers registered before the call run first, and
 *   those after it do not;
 * - a controller is a class decorated `@Controller(path)`, its base path `'/' + path` as written
 *   (`@Controller('/api')` is mounted at `//api`, which no request for `/api` reaches); a router
 *   is made for it with `@ClassOptions(options)` (Express's Router options: strict and
 *   case-sensitive routing off unless set), then `router.use(…)` of what `@ClassMiddleware(…)`
 *   lists, then each method decorated `@Get(path)` (`@Post`, `@Put`, `@Delete`, `@Patch`,
 *   `@Head`, `@Options`, `@All` and the rarer verbs), a route at `'/' + path` (`''`, the
 *   router's own path, when none is given) behind what `@Middleware(…)` lists, then the
 *   controllers `@ChildControllers([…])` names mounted on it at their own base paths (so behind
 *   the class middleware of every controller above them);
 * - decorators run bottom-up and each prepends what it lists: the middleware of several
 *   `@Middleware` (or `@ClassMiddleware`) decorators runs in the order they are written.
 *
 * Not read: a route path given as a regular expression (warned, left out), decorated properties
 * (`@Get() private list = (req, res) => …`; methods only), `@Wrapper` / `@ClassWrapper` (the
 * handler they wrap is read as written), error middleware, a class extending a class that
 * extends `Server` (only a direct subclass, or `new Server()`, is a server), and the routes of a
 * controller no `addControllers` call of a server reaches.
 */
import type { ts as TS } from 'ts-morph';
import type { Adapter } from '../adapter.js';
import type { ExtractApi } from '../../extract/extract.js';
import type { Evaluator, RouterObject, Value } from '../../link/evaluate.js';
import type { LinkContext } from '../../link/link.js';
import { isThis, KEEP_LAYERS, layersKey, uniqueGuards } from '../../link/link.js';
import type { AppliedGuard, Expr, FileFacts, GuardMechanism, Loc, PrefixStep, RegistrationFact } from '../../types.js';
import { methodValue } from '../nest/facts.js';
import { applying, joinPath, type ScopedGuard } from '../paths.js';
import { classNamed, packageDecorators, type ClassRef, type Deco } from '../decorated-classes.js';

const PKG = '@overnightjs/core';
const NAME = 'overnight';

/** The route decorators (HttpVerb of lib/decorators/types.ts), each the method it registers. */
const ACTIONS: Record<string, string> = {
  All: 'ALL',
  Checkout: 'CHECKOUT',
  Copy: 'COPY',
  Delete: 'DELETE',
  Get: 'GET',
  Head: 'HEAD',
  Lock: 'LOCK',
  Merge: 'MERGE',
  Mkactivity: 'MKACTIVITY',
  Mkcol: 'MKCOL',
  Move: 'MOVE',
  MSearch: 'M-SEARCH',
  Notify: 'NOTIFY',
  Options: 'OPTIONS',
  Patch: 'PATCH',
  Post: 'POST',
  Purge: 'PURGE',
  Put: 'PUT',
  Report: 'REPORT',
  Search: 'SEARCH',
  Subscribe: 'SUBSCRIBE',
  Trace: 'TRACE',
  Unlock: 'UNLOCK',
  Unsubscribe: 'UNSUBSCRIBE',
};

/** A class of the code without decorators, given as a controller (OvernightLinker.instanceClass). */
const UNDECORATED = Symbol('undecorated');

/** A class of a file importing the package, declared or an expression, that extends a class (`extends Server`). */
interface ServerClass {
  /** its name; null for an expression of none (`new (class extends Server { … })()`) */
  name: string | null;
  heritage: Expr;
  from: Loc;
  to: Loc;
}

interface OvernightFacts {
  classes: ServerClass[];
}

function overnightFactsOf(facts: { adapterFacts: Record<string, unknown> }): OvernightFacts | null {
  return (facts.adapterFacts[NAME] as OvernightFacts | undefined) ?? null;
}

function importsPackage(facts: FileFacts): boolean {
  return facts.imports.some((i) => i.source === PKG);
}

/** The classes extending another in a file importing the package (ServerClass): which extend `Server` is read when linked. */
function visitServerFile(api: ExtractApi): void {
  if (!importsPackage(api.facts) || !api.sf.text.includes('extends')) return;
  const { ts } = api;
  const classes: ServerClass[] = [];
  const stack: TS.Node[] = [api.sf];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) {
      const heritage = n.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
      if (heritage && (ts.isIdentifier(heritage) || ts.isPropertyAccessExpression(heritage))) {
        const end = ts.getLineAndCharacterOfPosition(api.sf, n.getEnd());
        classes.push({ name: n.name?.text ?? null, heritage: api.expr(heritage, 0), from: api.loc(n), to: { line: end.line + 1, column: end.character + 1 } });
      }
    }
    ts.forEachChild(n, (c) => {
      stack.push(c);
    });
  }
  classes.sort((a, b) => a.from.line - b.from.line || a.from.column - b.from.column);
  if (classes.length > 0) api.facts.adapterFacts[NAME] = { classes } satisfies OvernightFacts;
}

const within = (at: Loc, c: ServerClass): boolean =>
  (at.line > c.from.line || (at.line === c.from.line && at.column >= c.from.column)) && (at.line < c.to.line || (at.line === c.to.line && at.column <= c.to.column));

/** `this` (of a class declaration, or of an expression: unknown) */
const isThisOf = (e: Expr): boolean => (e.k === 'unknown' && e.text === 'this') || isThis(e);

/** Is a value the package's `Server` class? */
function isServerClass(v: Value): boolean {
  return v.t === 'pkg' && v.pkg === PKG && v.path.length === 1 && v.path[0] === 'Server' && !v.called;
}

/** Is a value a `Server` made with `new`? */
function isServerInstance(v: Value): boolean {
  return v.t === 'pkg' && v.pkg === PKG && v.path.length === 1 && v.path[0] === 'Server' && v.called;
}

/** One server: its app, and where its registrations and `addControllers` calls are read. */
interface ServerSite {
  app: RouterObject;
  /** its registrations: `this.app.…` and `this.addControllers(…)` in its class, or `x.app.…` and `x.addControllers(…)` of its instance */
  registrations: RegistrationFact[];
  adds: RegistrationFact[];
  file: string;
}

export const overnightAdapter: Adapter = {
  name: NAME,
  title: 'OvernightJS (on Express)',
  modules: [PKG],

  visitFile: visitServerFile,

  readsEveryBinding: importsPackage,

  bind(ctx: LinkContext): void {
    for (const s of servers(ctx)) {
      ctx.ev.routers.set(s.app.id, s.app);
      const order = (at: Loc): (string | number)[] => [0, s.file, at.line, at.column];
      for (const reg of s.registrations) ctx.bindRegistration({ reg, file: s.file, router: s.app, order: order(reg.at) });
      // (where each `addControllers(…)` is, the walk of the app keeps the layers in effect)
      // (its fields named one by one: those read back from the cache are read when first asked for, not copied by a spread)
      for (const add of s.adds) {
        const reg: RegistrationFact = { target: add.target, method: KEEP_LAYERS, args: add.args, chainPath: null, at: add.at, snippet: add.snippet, ...(add.when ? { when: add.when } : {}) };
        ctx.bindRegistration({ reg, file: s.file, router: s.app, order: order(add.at) });
      }
    }
  },

  link(ctx: LinkContext): void {
    new OvernightLinker(ctx).run();
  },
};

/**
 * The servers of the analysed files: each class extending `Server` (its registrations on
 * `this.app` and its `this.addControllers(…)` calls), and each name given `new Server()` at a
 * file's top level (those on `name.app`, `name.addControllers(…)`).
 */
function servers(ctx: LinkContext): ServerSite[] {
  const ev = ctx.ev;
  const out: ServerSite[] = [];
  for (const [file, facts] of [...ctx.files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (!importsPackage(facts)) continue;
    const site = (name: string | null, at: Loc, regs: RegistrationFact[], adds: RegistrationFact[]): void => {
      const app: RouterObject = { id: `${NAME}:${file}:${at.line}:${at.column}`, framework: 'express', init: { kind: 'app', strict: false, caseSensitive: false }, file, at, name: name ?? 'server', args: [] };
      out.push({ app, registrations: regs, adds, file });
    };
    for (const c of overnightFactsOf(facts)?.classes ?? []) {
      if (!isServerClass(ev.eval(file, c.heritage))) continue;
      const ownApp = (e: Expr): boolean => e.k === 'member' && e.prop === 'app' && isThisOf(e.obj);
      const regs = facts.registrations.filter((r) => within(r.at, c) && ownApp(r.target));
      const adds = facts.registrations.filter((r) => within(r.at, c) && r.method === 'addControllers' && isThisOf(r.target));
      site(c.name, c.from, regs, adds);
    }
    // `const server = new Server(); server.app.use(…); server.addControllers(…)`
    const instances = new Map<string, { at: Loc; regs: RegistrationFact[]; adds: RegistrationFact[] }>();
    const instanceOf = (e: Expr): { at: Loc; regs: RegistrationFact[]; adds: RegistrationFact[] } | null => {
      if (e.k !== 'ref' || e.scope !== 0) return null;
      let got = instances.get(e.name);
      if (got) return got;
      const def = ev.definitionOf(file, 0, e.name);
      if (!def || def.file !== file || def.expr.k !== 'new' || !isServerInstance(ev.eval(file, def.expr))) return null;
      instances.set(e.name, (got = { at: def.expr.at, regs: [], adds: [] }));
      return got;
    };
    for (const r of facts.registrations) {
      if (r.target.k === 'member' && r.target.prop === 'app') instanceOf(r.target.obj)?.regs.push(r);
      else if (r.method === 'addControllers') instanceOf(r.target)?.adds.push(r);
    }
    for (const [name, s] of instances) site(name, s.at, s.regs, s.adds);
  }
  return out;
}

class OvernightLinker {
  private readonly ev: Evaluator;

  constructor(private readonly ctx: LinkContext) {
    this.ev = ctx.ev;
  }

  run(): void {
    for (const app of [...this.ev.routers.values()].filter((r) => r.id.startsWith(`${NAME}:`))) {
      for (const b of this.ctx.registrationsOf(app.id)) {
        if (b.reg.method !== KEEP_LAYERS) continue;
        const layers = this.ctx.layersAt.get(layersKey(app.id, b.reg.at)) ?? [];
        const [list, , global] = b.reg.args;
        if (!list) continue;
        // (`app.use(basePath, globalMiddleware, router)`: before every controller's routes)
        const globals = global ? this.middleware(b.file, [global], 'app.use', b.reg.at) : [];
        for (const it of this.ev.flatten(b.file, [list])) {
          const c = this.instanceClass(it.file, it.expr);
          if (c === null) this.ctx.warn(b.file, b.reg.at, `a controller this addControllers() call is given is not known statically; its routes are left out`, b.reg.snippet);
          else if (c !== UNDECORATED) this.controller(c, { app, prefix: '', prefixes: [], layers, above: globals, depth: 0 });
        }
      }
    }
  }

  /**
   * The class of a controller instance (`new Projects()`); UNDECORATED for a class of the code
   * with no decorator, which OvernightJS mounts nothing of (it has no metadata); null when not known.
   */
  private instanceClass(file: string, e: Expr): ClassRef | typeof UNDECORATED | null {
    if (e.k !== 'new') return null;
    const c = classNamed(this.ev, file, e.callee);
    if (c) return c;
    const def = e.callee.k === 'ref' ? this.ev.definitionOf(file, e.callee.scope, e.callee.name) : null;
    return def?.expr.k === 'unknown' && def.expr.text.startsWith('class ') ? UNDECORATED : null;
  }

  private decorators(c: ClassRef, decorators: ClassRef['cls']['decorators']): Deco[] {
    return packageDecorators(this.ev, PKG, c.file, decorators);
  }

  /** What middleware items are, as guards, in the order written (arrays flattened). */
  private middleware(file: string, args: Expr[], mechanism: GuardMechanism, at: Loc): AppliedGuard[] {
    const out: AppliedGuard[] = [];
    for (const it of this.ev.flatten(file, args)) {
      const g = this.ctx.guard(it.file, it.expr, it.value, mechanism, at);
      if (g) out.push(this.ctx.placed(g, file, at.line));
    }
    return out;
  }

  /** The middleware every decorator named `name` lists, in the order the decorators are written. */
  private listed(decos: Deco[], name: string, mechanism: GuardMechanism): AppliedGuard[] {
    return decos.filter((d) => d.name === name).flatMap((d) => this.middleware(d.file, d.args.slice(0, 1), mechanism, d.use.at));
  }

  /**
   * A controller's routes, mounted at `o.prefix`: its base path, its class middleware (after
   * `o.above`, what the routers above it run), its methods' routes, then its child controllers.
   */
  private controller(c: ClassRef, o: { app: RouterObject; prefix: string; prefixes: PrefixStep[]; layers: ScopedGuard[]; above: AppliedGuard[]; depth: number }): void {
    const decos = this.decorators(c, c.cls.decorators);
    // (no @Controller: OvernightJS mounts none of its routes)
    const ctrl = decos.find((d) => d.name === 'Controller');
    if (!ctrl) return;
    const path = ctrl.args[0] ? this.ev.eval(c.file, ctrl.args[0]) : null;
    if (path?.t !== 'str') {
      this.ctx.warn(c.file, ctrl.use.at, `the path of controller ${c.cls.name} is not known statically; its routes are left out`, ctrl.use.snippet);
      return;
    }
    if (!this.ctx.expand(c.file, ctrl.use.at, ctrl.use.snippet)) return;
    const base = joinPath(o.prefix, `/${path.v}`);
    const prefixes: PrefixStep[] = [...o.prefixes, { prefix: `/${path.v}`, file: c.file, line: ctrl.use.at.line }];
    const matching = this.routerOptions(c, decos);
    const above = [...o.above, ...this.listed(decos, 'ClassMiddleware', 'controller-guard')];
    for (const m of c.cls.methods) {
      if (m.isStatic) continue;
      const mdecos = this.decorators(c, m.decorators);
      const routes = mdecos.filter((d) => Object.hasOwn(ACTIONS, d.name));
      if (routes.length === 0) continue;
      const own = this.listed(mdecos, 'Middleware', 'method-guard');
      const handler = methodValue(this.ctx.files, c.file, c.cls, m);
      for (const d of routes) {
        const method = ACTIONS[d.name]!;
        const pv = d.args[0] ? this.ev.eval(c.file, d.args[0]) : null;
        if (pv !== null && pv.t !== 'str') {
          const why = pv.t === 're' ? 'a regular expression, not modelled' : 'not known statically';
          this.ctx.warn(c.file, d.use.at, `${method} route of ${c.cls.name}.${m.name} with a path ${why}; it is left out`, d.use.snippet);
          continue;
        }
        if (!this.ctx.expand(c.file, d.use.at, d.use.snippet)) return;
        const full = pv === null ? base : joinPath(base, `/${pv.v}`);
        const guards = [
          ...applying(o.layers, method, full),
          ...above,
          ...own,
          // (a method is called with the request, the response and next: its own checks count)
          ...this.ctx.inHandlerGuards(handler),
        ];
        this.ctx.addRoute(
          {
            method,
            path: full,
            file: c.file,
            line: d.use.at.line,
            column: d.use.at.column,
            framework: 'express',
            handler: `${c.cls.name}.${m.name}`,
            app: o.app.name ?? 'server',
            trailingSlashInsensitive: !matching.strict,
            caseSensitive: matching.caseSensitive,
            prefixes,
            guards: uniqueGuards(guards),
            handlerFn: handler.t === 'fn' ? { file: handler.file, fn: handler.fn } : null,
            snippet: d.use.snippet,
          },
          o.app,
        );
      }
    }
    if (o.depth >= 16) return;
    for (const d of decos.filter((x) => x.name === 'ChildControllers' || x.name === 'Children')) {
      for (const it of this.ev.flatten(d.file, d.args.slice(0, 1))) {
        const child = this.instanceClass(it.file, it.expr);
        if (child === null) this.ctx.warn(d.file, d.use.at, `a child controller of ${c.cls.name} is not known statically; its routes are left out`, d.use.snippet);
        else if (child !== UNDECORATED) this.controller(child, { app: o.app, prefix: base, prefixes, layers: o.layers, above, depth: o.depth + 1 });
      }
    }
  }

  /** `@ClassOptions({ strict, caseSensitive })`: the router's matching (Express's Router options). */
  private routerOptions(c: ClassRef, decos: Deco[]): { strict: boolean; caseSensitive: boolean } {
    const d = decos.find((x) => x.name === 'ClassOptions');
    const opts = d?.args[0] ? this.ev.eval(c.file, d.args[0]) : null;
    const flag = (key: string): boolean => {
      if (opts?.t !== 'obj' || !Object.hasOwn(opts.props, key)) return false;
      const v = this.ev.member(opts, key, 0);
      return v.t === 'bool' && v.v;
    };
    return { strict: flag('strict'), caseSensitive: flag('caseSensitive') };
  }
}
