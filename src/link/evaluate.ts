/**
 * A small abstract evaluator over the per-file facts: resolves identifiers through
 * scopes, imports, re-exports and barrels; evaluates string constants and templates;
 * follows factory functions to the routers they return. It never runs user code.
 */
import path from 'node:path';
import { type Adapter, type RouterInit, sameInit } from '../adapters/adapter.js';
import { CHAINABLE, CTOR_PREFIX, GLOBAL_OBJECTS, GLOBAL_PREFIX, isExportsObject, KEYED, REASSIGNED, REGISTRATION_METHODS, STALE, SUPER, THIS_PREFIX } from '../extract/extract.js';
import { bindingOf } from '../extract/facts-text.js';
import type { CallFact, CallSite, CondTest, Expr, FileFacts, FunctionFact, Loc, Scope } from '../types.js';
import { locate } from '../adapters/module-location.js';
import { argCount, decide, mapCond, mapTest, restArgument, truthOf } from './conditions.js';
import { ARRAY_INDEX, DIRENT, DirectoryListing, direntProps, FS_MODULES, GLOB_MODULES, globMatches, matchOf, pathFunction, specifierFor, stringMethod, STRING_METHODS } from './listing.js';

export type Value =
  | { t: 'router'; id: string }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'arr'; items: Value[] }
  | { t: 'obj'; file: string; props: Record<string, Expr> }
  | { t: 'fn'; file: string; fn: number }
  /**
   * A package's export, maybe called (`args`), maybe a member of what a call of it made
   * (`path` then holds `()`; `made`: the arguments of that call: `expressjwt(options).unless(…)`)
   */
  | { t: 'pkg'; pkg: string; path: string[]; called: boolean; args: Value[]; made: Value[] | undefined }
  | { t: 'ns'; file: string }
  | { t: 'param'; file: string; fn: number; index: number; name: string; path?: string[] }
  | { t: 're'; source: string; flags: string }
  /**
   * `alts`: when the value is one of a few known alternatives (`v2 ? '/api/v2' : '/api/v1'`),
   * each of them; whatever reads it as one value takes it as not known statically. `choice`:
   * what the choice reads and gives, the same for every value that the same test turns the same
   * way (LinkContext.pathsOf).
   */
  | { t: 'unknown'; why: string; alts?: Value[]; choice?: string };

/** Where a name is defined (Evaluator.definitionOf): the binding `expr` of `name` in scope `scope` of `file`. */
export interface Definition {
  file: string;
  expr: Expr;
  name: string;
  scope: number;
}

export interface RouterObject {
  id: string;
  framework: string;
  init: RouterInit;
  file: string;
  at: Loc;
  /** the name it was bound to where created, when known */
  name: string | null;
  /** the arguments of the call that made it, as written (in `file`) */
  args: Expr[];
  /**
   * A router a factory function makes afresh on each call (`createRouter()` returning a new
   * `Router()`), as one call site got it: its registrations are the factory's (those of the
   * router `instanceOf`) and then the caller's. Its `file` and `at` are the factory's router's.
   */
  instanceOf?: string;
  /**
   * For a factory's router (`instanceOf`), the call that got it: the factory's registrations that
   * read its parameters (`router.get(\`${prefix}/status\`, …)`) are made with this call's arguments.
   */
  site?: CallSite;
  /** the package call that made it (`new Router(…)` of koa-router), to make it again with a factory's arguments */
  made?: { pkg: string; path: string[]; isNew: boolean };
  /**
   * A router made by `new C(…)` of a class extending a router (`new TenantRouter('/v2')`, or a
   * class's own `super(…)` of a base class of the analysed code, `class TenantRouter extends
   * SessionRouter`): the class's router it is an instance of (`base`), the constructor the
   * arguments went to (`ctor`, none when the class has none) and the arguments (`args`, written
   * in `file`) — to make its options again down the classes from what an outer `new` passes.
   */
  viaClass?: { base: string; ctor: { file: string; fn: number } | null; args: Expr[]; file: string };
  /**
   * A router a class makes for itself (`this.app = Router()` in its constructor or a base's), as
   * one `new C(…)` got it (`new ContextController(config, services, 'project').router`): the call
   * of the class's constructor. The class's registrations that its parameters make otherwise
   * (`const prefix = mode === 'global' ? '' : '/:projectId/context'`) are made with this call's
   * arguments; its router is `instanceOf`. `at` and `callee`: the `new` expression's place (in
   * `site.argsFile`) and what it constructs, as written.
   */
  constructed?: { site: CallSite; at: Loc; callee: Extract<Expr, { k: 'ref' }> };
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/**
 * The module paths (relative to the cwd, extension not yet probed) an import specifier may name
 * from `fromFile`: a relative one's, or those tsconfig `paths` and workspace packages give a bare one.
 */
export function specifierBases(fromFile: string, spec: string, resolveBare: (fromFile: string, spec: string) => string[]): string[] {
  return spec.startsWith('.') || spec.startsWith('/') ? [path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec))] : resolveBare(fromFile, spec);
}
/** A relative specifier naming a directory: a trailing slash, `.`, `..` (Evaluator.resolveModule). */
const DIRECTORY_ONLY = /(?:^|\/)\.{1,2}$|\/$/;
const MAX_DEPTH = 60;
/** Methods the evaluator works out on a list known as surely as a literal (Evaluator.listings, valueMethod). */
const LIST_METHODS = new Set(['filter', 'map', 'flatMap', 'sort', 'reverse', 'shift', 'pop']);
/**
 * Packages whose function gives back the app it is handed, having added to it: koa-websocket
 * (`websockify(app[, wsOptions[, httpsOptions]])` sets `app.ws` and wraps `app.listen`; index.js,
 * 7.0.0) and koa-qs (`qs(app[, mode])` redefines `app.request.query`; index.js, 3.0.0).
 */
const APP_RETURNING = new Set(['koa-websocket', 'koa-qs']);
/**
 * Packages whose function gives back an object holding the app it is handed as `app`: express-ws
 * (`expressWs(app[, server[, options]])` adds `app.ws` and returns `{ app, getWss, applyTo }`;
 * index.js, 5.0.2), so that `const { app } = expressWs(express())` is that app.
 */
const APP_HOLDING = new Set(['express-ws']);
const stringOf = (v: Value): string => (v.t === 'str' ? v.v : '');
/** The extensions require-dir requires, in the order one wins a name: Node's, then those a TypeScript loader adds. */
const REQUIRE_EXTENSIONS = ['.js', '.json', '.node', '.ts', '.tsx', '.mts', '.cts', '.jsx', '.mjs', '.cjs'];
const MAX_STRING = 65_536;
const MAX_ITEMS = 10_000;
/** What `undefined` evaluates to (a name no analysed file defines). */
const UNDEFINED = 'undefined is not defined in the analysed files';

/** What a parameter a call does not pass stands for (Evaluator.builtFrom): `undefined`, a name no file binds at the top. */
const NOT_PASSED: Expr = { k: 'ref', name: 'undefined', scope: 0 };

/** A value made where it is written: a call's or a `new`'s. */
const constructed = (e: Expr): boolean => e.k === 'call' || e.k === 'new';

/** `null` or `undefined`, as evaluated. */
export function nullish(v: Value): boolean {
  return v.t === 'unknown' && (v.why === 'null' || v.why === UNDEFINED);
}

/** `null` itself, as evaluated (an option turned off by it: `healthCheckPath: null`, `endpoint: null`). */
export function isNull(v: Value | undefined): boolean {
  return v !== undefined && v.t === 'unknown' && v.why === 'null';
}

/** The most locals a helper's returns are read through (Evaluator.builtFrom). */
const MAX_INLINED = 64;
/** The most alternatives a value not known statically keeps (`a ? b : c` nested, a template of several). */
const MAX_ALTS = 16;

/** The test a `.filter` callback's one return makes (kept as a choice of true or false: extract.ts, predicateReturn). */
function predicateTest(returned: Expr): CondTest {
  return returned.k === 'choice' && returned.then.k === 'bool' && returned.then.v && returned.otherwise.k === 'bool' && !returned.otherwise.v ? returned.test : { k: 'truthy', e: returned };
}

/** What `new RegExp(source, flags)` makes (its source written as a literal's, `\/` for `/`); null when it throws. */
function compiled(source: string, flags: string): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/**
 * One of `values`: the value itself when they are all the same string, else a value not known
 * statically (`why`) that keeps them (each alternative's own alternatives, up to MAX_ALTS).
 */
function oneOf(values: Value[], why: string): Value {
  const alts: Value[] = [];
  for (const v of values.flatMap((x) => (x.t === 'unknown' && x.alts ? x.alts : [x])))
    if (v.t !== 'str' || !alts.some((a) => a.t === 'str' && a.v === v.v)) alts.push(v);
  if (alts.length === 1 && alts[0]!.t === 'str') return alts[0]!;
  return alts.length <= MAX_ALTS && alts.every((v) => v.t !== 'unknown') ? { t: 'unknown', why, alts } : { t: 'unknown', why };
}

/** Key of a function (`file:fn`): in `paramRegistrations` / `boundFunctions`, `returnsRead`, a kept result's scope. */
export function fnKey(file: string, fn: number): string {
  return `${file}:${fn}`;
}

/** A call whose function's parameters stand for its arguments' values while its registrations are read, with a memo of its own. */
interface CallContext {
  file: string;
  fn: number;
  args: Value[];
  memo: Map<string, WeakMap<Expr, Value>>;
  /** the call site read through (`within`), whose arguments as written decide the tests of `choice`s in the function */
  site?: CallSite;
  /** the call of the function this one is written in that made it (CallSite.made): its parameters, as a closure keeps them */
  outer?: CallContext;
  /** the context its arguments were read in (`new S3Router(...guards)` in a constructor itself called with them) */
  from?: CallContext;
}

export class Evaluator {
  readonly routers = new Map<string, RouterObject>();
  /**
   * The functions whose returned expressions were read (`returnsOf`), as `file:fn`: a run's
   * result depends on no other function's returns (relocate.ts, the kept result).
   */
  readonly returnsRead = new Set<string>();
  private readonly memo = new Map<string, WeakMap<Expr, Value>>();
  /**
   * Apps one of which a choice makes (`ssl ? fastify({ https }) : fastify()`), both made afresh
   * by the same package call with the same routing options: each the first's by id (eitherWayOf).
   */
  private readonly eitherWay = new Map<string, string>();

  private noteEitherWay(first: string, second: string): void {
    const a = this.routers.get(this.eitherWayOf(first));
    const b = this.routers.get(this.eitherWayOf(second));
    if (!a || !b || a.id === b.id || a.framework !== b.framework || a.init.kind !== 'app' || !sameInit(a.init, b.init)) return;
    const fresh = (r: RouterObject): boolean => r.instanceOf === undefined && r.viaClass === undefined && r.made !== undefined;
    if (!fresh(a) || !fresh(b) || a.made!.pkg !== b.made!.pkg || a.made!.isNew !== b.made!.isNew || a.made!.path.join('.') !== b.made!.path.join('.')) return;
    this.eitherWay.set(b.id, a.id);
  }

  /** The app a choice made either way stands for (noteEitherWay): the first made, else itself. */
  eitherWayOf(id: string): string {
    for (let i = 0; i < 64; i++) {
      const first = this.eitherWay.get(id);
      if (first === undefined) return id;
      id = first;
    }
    return id;
  }
  private readonly resolving = new Set<string>();
  /** FunctionFact.installs on a first parameter, by property, of the files read so far (`read`: those files) */
  private readonly installs = {
    read: new Set<string>(),
    byProp: new Map<string, Extract<Value, { t: 'fn' }>[]>(),
    // (instances: the file and the construction, FunctionFact.installs' `made`)
    made: new Map<string, { file: string; made: Expr }[]>(),
  };
  /** resolveModule's answers, by directory and specifier (the analysed files are known from the start) */
  private readonly resolved = new Map<string, string | null>();

  constructor(
    readonly files: Map<string, FileFacts>,
    private readonly adapters: Adapter[],
    /** bare specifiers that lead back into the analysed tree (tsconfig `paths`, workspace packages): candidate paths */
    private readonly resolveBare: (fromFile: string, spec: string) => string[] = () => [],
    /** the config's `values`: what a name not known statically holds (`baseUriPath`, `options.mountPath`) */
    private readonly values: ReadonlyMap<string, string> = new Map(),
    /** the analysed tree's directories (`fs.readdirSync`), and the directory of the package owning a file (where `process.cwd()` is) */
    private readonly tree: { listing: DirectoryListing; packageDir: (file: string) => string } = { listing: new DirectoryListing([]), packageDir: () => '' },
  ) {}

  /**
   * Whether function `cb` of the code, called with `args` (as written in `argsFile`), returns a
   * truthy value: its one return tested as a condition is (`(p) => p.endsWith('.router.ts')` of
   * @fastify/autoload's `matchFilter`); null when that is not known statically.
   */
  returnsTruthy(cb: Extract<Value, { t: 'fn' }>, args: Expr[], argsFile: string): boolean | null {
    const [returned, ...more] = this.returnsOf(cb.file, cb.fn);
    return returned && more.length === 0 ? this.truthAt(cb, returned, { file: cb.file, fn: cb.fn, argsFile, args }) : null;
  }

  /** `returned`, a return of `cb`, tested as a condition with `call`'s arguments for its parameters. */
  private truthAt(cb: Extract<Value, { t: 'fn' }>, returned: Expr, call: CallSite): boolean | null {
    return truthOf(this, cb.file, mapTest(predicateTest(returned), (x) => ({ k: 'within', e: x, call })));
  }

  /**
   * The function put on a request (the first parameter of a hook or a middleware: FunctionFact.
   * installs) under `prop` in the files read so far, when one function of them is; null when none
   * is, or several different ones are, or `prop` names a registration.
   */
  private installedOnRequest(prop: string): Extract<Value, { t: 'fn' }> | null {
    // (never a router's method: `router.get = (…) => …` of a wrapper of a router's methods)
    if (REGISTRATION_METHODS.has(prop)) return null;
    const found = this.readInstalls().byProp.get(prop);
    return found?.length === 1 ? found[0]! : null;
  }

  /**
   * The instance put on a request under `prop` (FunctionFact.installs' `made`) in the files read
   * so far, when one construction of them is; null when none is, or several are.
   */
  private instanceOnRequest(prop: string, depth: number): Value | null {
    const found = this.readInstalls().made.get(prop);
    return found?.length === 1 ? this.eval(found[0]!.file, found[0]!.made, depth + 1) : null;
  }

  /** `installs`, with the files read since it was last asked (each file read once: those extracted on demand are added). */
  private readInstalls(): typeof this.installs {
    const { read, byProp, made } = this.installs;
    if (read.size !== this.files.size)
      for (const [file, facts] of this.files) {
        if (read.has(file)) continue;
        read.add(file);
        for (const f of facts.functions)
          for (const i of f.installs ?? []) {
            if (i.on !== 0) continue;
            if ('made' in i) made.set(i.prop, [...(made.get(i.prop) ?? []), { file, made: i.made }]);
            else {
              const list = byProp.get(i.prop) ?? [];
              if (!list.some((x) => x.file === file && x.fn === i.fn)) byProp.set(i.prop, [...list, { t: 'fn', file, fn: i.fn }]);
            }
          }
      }
    return this.installs;
  }

  /**
   * The lists read from the analysed tree (`fs.readdirSync(dir)`) or from an object's literal
   * keys (`Object.keys(routers)`), and those made from them (`.filter(…)`, `.map(…)`, `.split(…)`
   * of an entry): known as surely as a literal is, so a condition may be decided on their items
   * (conditions.ts) and their methods are worked out.
   */
  private readonly listings = new WeakSet<Value>();

  isListing(v: Value): boolean {
    return this.listings.has(v);
  }

  /** The empty lists written as a call's arguments (`decorate(router, Application, [])`): nothing can have added to them yet. */
  private readonly passedEmpty = new WeakSet<Value>();

  /** Is `v` an empty list a call writes as its argument: a loop over it, read with that call's arguments, makes nothing. */
  isPassedEmpty(v: Value): boolean {
    return this.passedEmpty.has(v);
  }

  private argument(file: string, a: Expr, depth: number): Value {
    const v = this.eval(file, a, depth);
    const written = a.k === 'at' ? a.e : a;
    if (written.k === 'arr' && written.items.length === 0 && v.t === 'arr' && v.items.length === 0) this.passedEmpty.add(v);
    return v;
  }

  private listed(items: Value[]): Value {
    const v: Value = { t: 'arr', items };
    this.listings.add(v);
    return v;
  }

  /** Resolve an import specifier from `fromFile` to an analysed file, or null (a package). */
  resolveModule(fromFile: string, spec: string): string | null {
    // The answer depends on the file's directory only (its package's aliases, a relative
    // path's base): files of one directory import the same modules, and each is resolved once.
    const dir = path.posix.dirname(fromFile);
    const key = `${dir}\0${spec}`;
    let hit = this.resolved.get(key);
    if (hit === undefined) this.resolved.set(key, (hit = this.resolveUncached(fromFile, spec)));
    return hit;
  }

  private resolveUncached(fromFile: string, spec: string): string | null {
    const bases = specifierBases(fromFile, spec, this.resolveBare);
    // (`require('../api/')`, `require('..')`: a directory's module, never a file of that name —
    // Node's Module._findPath reads a trailing slash, `.` and `..` so)
    if (!this.isPackageSpec(spec)) return DIRECTORY_ONLY.test(spec) ? this.probe(bases[0]!.replace(/\/+$/, ''), true) : this.probe(bases[0]!);
    // The first place that has the module; but a TypeScript source over JavaScript found
    // first: a workspace's `validators.js` (`module.exports = require('./dist/validators')`,
    // its build not in the checkout) beside the `src/validators/index.ts` it is built from.
    let first: string | null = null;
    for (const b of bases) {
      const hit = this.probe(b);
      if (!hit) continue;
      if (!/\.[cm]?jsx?$/.test(hit)) return hit;
      first ??= hit;
    }
    return first;
  }

  /** The analysed file a module path (with or without its extension, or a directory; `directory`: only a directory) names. */
  private probe(base: string, directory = false): string | null {
    const candidates = directory ? [] : [base];
    const ext = path.posix.extname(base);
    if (!directory && (ext === '.js' || ext === '.jsx' || ext === '.mjs' || ext === '.cjs')) {
      const stem = base.slice(0, -ext.length);
      candidates.push(stem + '.ts', stem + '.tsx', stem + '.mts', stem + '.cts');
    }
    if (!directory) for (const e of EXTENSIONS) candidates.push(base + e);
    // (`require('.')` in a module at the root: its `index`, named from the root without `./`)
    const dir = base === '.' || base === '' ? '' : `${base}/`;
    for (const e of EXTENSIONS) candidates.push(dir + 'index' + e);
    for (const c of candidates) if (this.files.has(c)) return c;
    return null;
  }

  isPackageSpec(spec: string): boolean {
    return !spec.startsWith('.') && !spec.startsWith('/');
  }

  /** What a function returns, as written: every reader of returns asks here, so that the read is known (`returnsRead`). */
  returnsOf(file: string, fn: number): readonly Expr[] {
    this.returnsRead.add(fnKey(file, fn));
    return this.fnOf(file, fn)?.returns ?? [];
  }

  fnOf(file: string, fn: number): FunctionFact | undefined {
    return this.files.get(file)?.functions[fn];
  }

  /**
   * While a factory's router is made again for one call (`instance`): the factory and the
   * values of that call's arguments, which its parameters then stand for; with a memo of its own.
   */
  private called: CallContext | null = null;
  /** The context each call site read through (`within`) evaluates in: its arguments' values, and a memo of its own. */
  private readonly callSites = new WeakMap<CallSite, CallContext>();

  /** Evaluate an expression written in `file`. */
  eval(file: string, e: Expr, depth = 0): Value {
    const memo = this.selfMemo ?? this.called?.memo ?? this.memo;
    let m = memo.get(file);
    if (!m) memo.set(file, (m = new WeakMap()));
    let v = m.get(e);
    if (!v) m.set(e, (v = this.configured(e, this.evalUncached(file, e, depth))));
    return this.standsFor === null ? v : this.settled(v);
  }

  /**
   * A name the config gives a value for (`values`), where what it holds is not known statically;
   * also a call of a function named so with no argument, written with its parentheses
   * (`getBasePath()`).
   */
  private configured(e: Expr, v: Value): Value {
    if (this.values.size === 0 || (v.t !== 'unknown' && v.t !== 'param')) return v;
    const called = e.k === 'call' && e.args.length === 0 && (e.callee.k === 'ref' || e.callee.k === 'member') ? exprName(e.callee) : null;
    const name = called !== null ? `${called}()` : e.k === 'ref' || e.k === 'member' ? exprName(e) : null;
    const given = name === null ? undefined : this.values.get(name);
    return given === undefined ? v : { t: 'str', v: given };
  }

  /** Once registrations are bound: the router a router value stands for (LinkContext.standsFor). */
  private standsFor: ((id: string) => string) | null = null;

  settle(standsFor: (id: string) => string): void {
    this.standsFor = standsFor;
  }

  private settled(v: Value): Value {
    switch (v.t) {
      case 'router': {
        const id = this.standsFor!(v.id);
        return id === v.id ? v : { t: 'router', id };
      }
      case 'arr': {
        const items = this.settledAll(v.items);
        return items === v.items ? v : { t: 'arr', items };
      }
      case 'pkg': {
        const args = this.settledAll(v.args);
        const made = v.made && this.settledAll(v.made);
        return args === v.args && made === v.made ? v : { ...v, args, made };
      }
      default:
        return v;
    }
  }

  /** The values settled; the same array when none changes. */
  private settledAll(values: Value[]): Value[] {
    for (let i = 0; i < values.length; i++) {
      const x = this.settled(values[i]!);
      if (x !== values[i]) return [...values.slice(0, i), x, ...values.slice(i + 1).map((y) => this.settled(y))];
    }
    return values;
  }

  private evalUncached(file: string, e: Expr, depth: number): Value {
    if (depth > MAX_DEPTH) return { t: 'unknown', why: 'too deep' };
    switch (e.k) {
      case 'str':
        return { t: 'str', v: e.v };
      case 'num':
        return { t: 'num', v: e.v };
      case 'bool':
        return { t: 'bool', v: e.v };
      case 'tpl': {
        // each string the template can be: one, unless a part is one of a few (`/api/${v2 ? 'v2' : 'v1'}`)
        let strings = [''];
        const choices: Extract<Value, { t: 'unknown' }>[] = [];
        for (const p of e.parts) {
          const v = this.eval(file, p, depth + 1);
          const parts = v.t === 'str' ? [v.v] : v.t === 'num' ? [String(v.v)] : v.t === 'unknown' && v.alts ? stringsOf(v) : null;
          if (parts === null || strings.length * parts.length > MAX_ALTS) return { t: 'unknown', why: 'template with a value not known statically' };
          if (v.t === 'unknown') choices.push(v);
          strings = strings.flatMap((s) => parts.map((x) => s + x));
          // Strings built by doubling (`a1 = a0 + a0`, …) grow exponentially: no path is this long.
          if (strings[0]!.length > MAX_STRING) return { t: 'unknown', why: `a string longer than ${MAX_STRING} characters` };
        }
        const v = oneOf(strings.map((s) => ({ t: 'str', v: s })), choices.map((c) => c.why).join(' and '));
        return v.t === 'unknown' && v.alts ? { ...v, choice: JSON.stringify([choices.map((c) => c.choice), strings]) } : v;
      }
      case 'choice': {
        const holds = this.decided(file, e.test, e.absentFalse === true);
        if (holds !== null) return this.eval(file, holds ? e.then : e.otherwise, depth + 1);
        const [then, otherwise] = [this.eval(file, e.then, depth + 1), this.eval(file, e.otherwise, depth + 1)];
        // a router or null (node-red's `adminApp = express()`, else `adminApp = null`): the router —
        // what is done with it (a registration, a mount) fails on null
        if (then.t === 'router' && nullish(otherwise)) return then;
        if (otherwise.t === 'router' && nullish(then)) return otherwise;
        // one app made either way (Flood's `if (ssl) instance = fastify({ https }) else instance =
        // fastify()`): what is registered on it is registered on one of them (LinkContext.addRoute)
        // (two made here; not two routers made apart, each given routes of its own: `process.env.ADMIN_UI
        // ? adminRouter : publicRouter` serves one router's or the other's)
        if (then.t === 'router' && otherwise.t === 'router' && constructed(e.then) && constructed(e.otherwise)) this.noteEitherWay(then.id, otherwise.id);
        // the same of a package's client made or null (rybbit's `secretKey ? new Stripe(secretKey) :
        // null`): its members read and its methods called fail on null
        if (then.t === 'pkg' && then.called && nullish(otherwise)) return then;
        if (otherwise.t === 'pkg' && otherwise.called && nullish(then)) return otherwise;
        // a router made here or a caller's (`let app = options.app; if (!app) app = express()`,
        // jsreport's): the one made, as `fallback` takes it
        if (then.t === 'router' && constructed(e.then) && otherwise.t === 'param') return then;
        if (otherwise.t === 'router' && constructed(e.otherwise) && then.t === 'param') return otherwise;
        const v = oneOf([then, otherwise], e.text);
        // (the test's names are written with their scopes: the same text in two functions reads two values)
        return v.t === 'unknown' && v.alts ? { ...v, choice: JSON.stringify([file, e.test, stringsOf(v) ?? e.text]) } : v;
      }
      case 'fallback': {
        // the right value when the left is missing (null, undefined: a property the object
        // known statically does not have) or, for `||`, a falsy literal; the left when it is
        // known statically otherwise; not known when it is not
        const l = this.eval(file, e.l, depth + 1);
        const missing = nullish(l) || (l.t === 'unknown' && l.why.startsWith('no property '));
        if (missing) return this.eval(file, e.r, depth + 1);
        // a caller's router, or one made when it passes none (`const app = options.app ||
        // express()`): the caller's is a parameter's value not known statically, and what is
        // registered on the value is the made router's — the routes served when none is passed
        if (l.t === 'param' && constructed(e.r)) {
          const r = this.eval(file, e.r, depth + 1);
          if (r.t === 'router') return r;
        }
        // (a package's value, `nconf.get('relative_path')`, may be missing when the code runs)
        if (l.t === 'unknown' || l.t === 'param' || l.t === 'pkg') return { t: 'unknown', why: e.text };
        const falsy = (l.t === 'str' && l.v === '') || (l.t === 'num' && (l.v === 0 || Number.isNaN(l.v))) || (l.t === 'bool' && !l.v);
        return e.op === '||' && falsy ? this.eval(file, e.r, depth + 1) : l;
      }
      case 'arr': {
        const items: Value[] = [];
        for (const it of e.items) {
          const v = this.eval(file, it, depth + 1);
          if (v.t === 'arr' && it.k !== 'arr') for (const x of v.items) items.push(x); // spread of a const array
          else items.push(v);
          // Arrays built by doubling (`a1 = [...a0, ...a0]`, …) grow exponentially too.
          if (items.length > MAX_ITEMS) return { t: 'unknown', why: `an array of more than ${MAX_ITEMS} items` };
        }
        return { t: 'arr', items };
      }
      case 'obj':
        return { t: 'obj', file, props: e.props };
      case 'fn':
        return { t: 'fn', file, fn: e.id };
      case 'param': {
        const c = this.contextOf(file, e.fn);
        if (c) {
          // (a rest parameter, `...middlewares`: the list of what the call passes from its place on,
          // a list passed there not written as one spread into it, as in a list: `new S3Router(...guards)`)
          if (this.fnOf(file, e.fn)?.rest === e.index) return { t: 'arr', items: c.args.slice(e.index).flatMap((v, i) => (v.t === 'arr' && c.site && c.site.args[e.index + i]?.k !== 'arr' ? v.items : [v])) };
          if (e.index < c.args.length) return c.args[e.index]!;
          return e.init ? this.eval(file, e.init, depth + 1) : { t: 'unknown', why: `${e.name} is not passed` };
        }
        // `constructor(private readonly checker: Checker)` of a class a container makes: what it passes
        if (e.injected) {
          const v = this.injectedValue(file, e.injected, depth + 1);
          if (v) return v;
        }
        return { t: 'param', file, fn: e.fn, index: e.index, name: e.name };
      }
      case 'argc':
      case 'argAt': {
        // `args.length`, `args[args.length - 2]` of a rest parameter: what the call read passes
        const c = this.called;
        if (!c || c.file !== file || c.fn !== e.fn) return { t: 'unknown', why: e.k === 'argc' ? 'the number of arguments' : e.text };
        if (e.k === 'argc') return { t: 'num', v: argCount(c.args, e) };
        return restArgument(c.args, e) ?? { t: 'unknown', why: `${e.text} is not passed` };
      }
      case 're':
        return { t: 're', source: e.source, flags: e.flags };
      case 'item': {
        // one item at a time: only a loop the linker unrolled says which
        if (e.index === undefined) return { t: 'unknown', why: 'an item of a list (a loop variable)' };
        const list = this.eval(file, e.of, depth + 1);
        return list.t === 'arr' && e.index < list.items.length ? list.items[e.index]! : { t: 'unknown', why: `item ${e.index} of a list not known statically` };
      }
      case 'ref':
        return this.resolveName(file, e.scope, e.name, depth + 1);
      case 'index': {
        // `routers[name]`, the key known statically: that member
        const key = this.eval(file, e.key, depth + 1);
        if (key.t !== 'str' && key.t !== 'num') return { t: 'unknown', why: e.text };
        return this.eval(file, { k: 'member', obj: e.obj, prop: String(key.v) }, depth + 1);
      }
      case 'member': {
        // `exports.sessionMiddleware` read in the module that sets it (Etherpad's express.ts)
        const o = e.obj;
        if (((o.k === 'ref' && o.name === 'exports') || (o.k === 'member' && o.prop === 'exports')) && exportsObject(this.files.get(file)!, o)) {
          const own = this.exported(file, e.prop, depth + 1);
          if (own) return own;
        }
        // `global.app`, `globalThis.app`: the global a module sets
        if (o.k === 'ref' && GLOBAL_OBJECTS.has(o.name) && !this.definitionOf(file, o.scope, o.name)) {
          const global = this.globalValue(e.prop, depth);
          if (global) return global;
        }
        // `WIKI.auth` of a global (a name the module neither binds nor imports) whose property a
        // module sets, `WIKI.auth = require('./core/auth').init()`: what it is set to there
        if (o.k === 'ref' && this.globalProperties() && this.unbound(file, o.scope, o.name)) {
          const prop = this.globalValue(`${o.name}.${e.prop}`, depth);
          if (prop) return prop;
        }
        const obj = this.eval(file, e.obj, depth + 1);
        // `AccessUtils.canUserAccess`: a static member of a class declared in the analysed code
        if (obj.t === 'unknown' && obj.why.startsWith('class ')) {
          const statics = this.classNamed(file, e.obj, '*static*', depth + 1);
          if (statics) return this.member(this.eval(statics.file, statics.expr, depth + 1), e.prop, depth + 1);
        }
        const v = this.member(obj, e.prop, depth + 1);
        // (of an instance `new C(…)` makes, written here or held by a name, `const reports = new ReportsController('/v1')`)
        const made = v.t === 'router' && obj.t === 'obj' ? (e.obj.k === 'new' ? { file, expr: e.obj } : e.obj.k === 'ref' ? this.definitionOf(file, e.obj.scope, e.obj.name) : null) : null;
        return made?.expr.k === 'new' ? this.constructedRouter(made.file, made.expr, e.prop, v as Extract<Value, { t: 'router' }>, depth + 1) : v;
      }
      case 'call':
      case 'new': {
        if (e.k === 'call' && e.callee.k === 'member') {
          // `controller.list.bind(controller)`, `requireSession.bind(null)`: the same function, whatever
          // `this` it runs with (arguments bound as well, `checkRequired.bind(null, fields)`, would
          // move its parameters along: such a function is not followed). Only a function of the
          // analysed code: a package's `bind` may be a method of its own (inversify's `container.bind(ID)`).
          const bound = e.args.length <= 1 ? boundFunction(e) : null;
          if (bound) {
            const v = this.eval(file, bound, depth + 1);
            if (v.t === 'fn') return v;
          }
          const viaRouter = this.routerMethodCall(file, e, e.callee, depth + 1);
          if (viaRouter) return viaRouter;
          // `Object.freeze({ prefix, … })` answers the object it is given
          const c = e.callee;
          const ofObject = this.objectMethod(file, c);
          if ((ofObject === 'freeze' || ofObject === 'seal') && e.args[0]) return this.eval(file, e.args[0], depth + 1);
          // `Object.assign(createMiddleware(fn), { __extensionType: type })` (cella's xMiddleware):
          // the function it is given, with more properties — it runs as before
          if (ofObject === 'assign' && e.args[0]) {
            const target = this.eval(file, e.args[0], depth + 1);
            if (target.t === 'fn' || (target.t === 'pkg' && target.called)) return target;
            // `Object.assign({}, defaults, { admin: '/root' })`: the object, each source's
            // properties over the ones before, as `{ ...defaults, ...{ admin: '/root' } }` holds them
            if (target.t === 'obj' && e.args.length >= 2) return { t: 'obj', file, props: Object.fromEntries(e.args.map((a, i) => [`*spread*${i}`, a])) };
          }
          // `Object.entries(routes)` (and keys, values) of an object known statically, spread-free
          if ((ofObject === 'entries' || ofObject === 'keys' || ofObject === 'values') && e.args[0]) {
            const o = this.eval(file, e.args[0], depth + 1);
            // a module's namespace (`Object.values(Controllers)` of `import * as Controllers from
            // './controller'`): its export names, sorted, as a namespace object's keys are
            const own = o.t === 'obj' ? this.ownKeys(o, depth + 1) : null;
            const names = o.t === 'ns' ? this.exportNames(o.file) : own ? own.keys : null;
            if (names === null) return { t: 'unknown', why: `Object.${c.prop}() of ${o.t === 'ns' ? 'a module whose exports are' : 'a value'} not known statically` };
            const at = (k: string): Value => (o.t === 'obj' ? this.member(o, k, depth + 1) : o.t === 'ns' ? this.exportValue(o.file, k, depth + 1) : o);
            // (its names are as sure as the object's literal keys: a list read from the code, like a
            // directory's — but for none at all: an object filled where its keys are not known
            // statically, `version[v] = …`, holds some; a namespace's are sure, none included)
            // (and one more not known statically, for the keys a spread of something else may add)
            const more: Value[] = own?.partial ? [{ t: 'unknown', why: `keys ${own.partial} adds` }] : [];
            if (c.prop === 'keys') return names.length > 0 || o.t === 'ns' ? this.listed([...names.map((k): Value => ({ t: 'str', v: k })), ...more]) : { t: 'arr', items: more };
            const items = names.map((k): Value => (c.prop === 'values' ? at(k) : { t: 'arr', items: [{ t: 'str', v: k }, at(k)] }));
            // (its values as sure as its keys, when no spread of something else may add more:
            // cella's `Object.values(extensionMap).filter(({ kind }) => kind === 'middleware')`)
            return more.length === 0 && (names.length > 0 || o.t === 'ns') ? this.listed(items) : { t: 'arr', items: [...items, ...more] };
          }
          // `Object.fromEntries(Object.entries(config).filter(([key]) => !ids.includes(key)))`: the
          // object with the keys the test keeps (cella's createXRoute strips its own), or all of them
          if (ofObject === 'fromEntries' && e.args.length === 1) {
            const kept = this.fromEntries(file, e.args[0]!, depth + 1);
            if (kept) return kept;
          }
          // `entries.filter((f) => f.endsWith('.js'))`, `file.replace('.js', '')` of values known statically
          if (LIST_METHODS.has(c.prop) || STRING_METHODS.has(c.prop)) {
            const v = this.valueMethod(file, e, c, depth + 1);
            if (v) return v;
          }
          // `const r = router.use(auth)` on a function's parameter: the chain answers the parameter
          if (CHAINABLE.has(e.callee.prop) || SAME_INSTANCE.has(e.callee.prop)) {
            const obj = this.eval(file, e.callee.obj, depth + 1);
            if (obj.t === 'param' && !obj.path?.length) return obj;
          }
        }
        // `const { router } = await import('./routes')`: the module's namespace (what the promise gives)
        if (e.callee.k === 'ref' && e.callee.name === 'import' && e.args[0]?.k === 'str') return this.importValue(file, e.args[0].v, '*', depth + 1);
        // `await import(\`./routes/${file}\`)`: a specifier computed from names known statically
        if (e.callee.k === 'ref' && e.callee.name === 'import' && e.args[0]) {
          const spec = this.specifierOf(file, e.args[0], depth + 1);
          if (spec !== null) return this.importValue(file, spec, '*', depth + 1);
        }
        // `new RegExp(\`^/auth/.+\`)`, `RegExp(source, 'i')` of strings known statically: the regular expression
        if (e.callee.k === 'ref' && e.callee.name === 'RegExp' && (e.args.length === 1 || e.args.length === 2) && !this.definitionOf(file, e.callee.scope, 'RegExp')) {
          const [source, flags] = e.args.map((a) => this.eval(file, a, depth + 1));
          const re = source?.t === 'str' && (flags === undefined || flags.t === 'str') ? compiled(source.v, flags?.v ?? '') : null;
          if (re) return { t: 're', source: re.source, flags: re.flags };
        }
        const callee = this.eval(file, e.callee, depth + 1);
        // (or a require `createRequire(__filename)` of node:module made: Hexabot's `requireModule('./mcp/mcp-api.module')`)
        const made = callee.t === 'pkg' && callee.called && (callee.pkg === 'module' || callee.pkg === 'node:module') && callee.path.length === 1 && callee.path[0] === 'createRequire';
        if (((callee.t === 'unknown' && e.callee.k === 'ref' && e.callee.name === 'require') || made) && e.args.length === 1) {
          const spec = this.specifierOf(file, e.args[0]!, depth + 1);
          if (spec !== null) return this.importValue(file, spec, '=', depth + 1);
        }
        // React's `cache(fn)`: the same function, its results memoised for a request (react 19, ReactCacheImpl.js)
        if (callee.t === 'pkg' && callee.pkg === 'react' && callee.path.length === 1 && callee.path[0] === 'cache' && e.args.length === 1) return this.eval(file, e.args[0]!, depth + 1);
        // @hono/zod-openapi's `createRoute(config)`: the config, a `getRoutingPath()` added (route.ts),
        // also when spread into another (`{ ...route, operationId }`)
        if (callee.t === 'pkg' && callee.pkg === '@hono/zod-openapi' && callee.path[callee.path.length - 1] === 'createRoute' && e.args.length === 1) return this.eval(file, e.args[0]!, depth + 1);
        // `websockify(new Koa())`: the app it is handed, given more to do (APP_RETURNING)
        if (callee.t === 'pkg' && APP_RETURNING.has(callee.pkg) && (callee.path.length === 0 || (callee.path.length === 1 && callee.path[0] === 'default')) && e.args[0]) {
          const app = this.eval(file, e.args[0], depth + 1);
          if (app.t === 'router') return app;
        }
        // chanfana's `fromHono(app)` (2.x, 3.x; src/adapters/hono.ts): a proxy registering on the
        // Hono app it is handed — an endpoint class given to a method is read as its handler there.
        // (With `base` in its options it registers on `app.basePath(base)`: not read.)
        if (callee.t === 'pkg' && callee.pkg === 'chanfana' && callee.path.length === 1 && callee.path[0] === 'fromHono' && e.args[0]) {
          const options = e.args[1] ? this.eval(file, e.args[1], depth + 1) : null;
          const app = this.eval(file, e.args[0], depth + 1);
          if (app.t === 'router' && !(options?.t === 'obj' && 'base' in options.props)) return app;
        }
        // `expressWs(express())`: `{ app }`, the app it is handed (APP_HOLDING)
        if (callee.t === 'pkg' && APP_HOLDING.has(callee.pkg) && (callee.path.length === 0 || (callee.path.length === 1 && callee.path[0] === 'default')) && e.args[0])
          return { t: 'obj', file, props: { app: e.args[0] } };
        if (callee.t === 'pkg') {
          const args = e.args.map((a) => this.eval(file, a, depth + 1));
          const own =
            this.readDir(file, e, callee, args) ?? this.requireDir(file, e, callee, args) ?? this.requireAll(file, e, callee, args) ?? this.autoLoad(file, e, callee, args) ?? this.globSync(file, e, callee, args) ?? pathFunction(callee.pkg, callee.path, this.asPaths(file, callee.path, e.args, args));
          if (own) return own;
          for (const a of this.adapters) {
            if (!a.create || !a.modules.includes(callee.pkg)) continue;
            const init = a.create(callee.pkg, callee.path, args, e.k === 'new', this);
            if (init) {
              const id = `${file}:${e.pos}`;
              if (!this.routers.has(id)) this.routers.set(id, { id, framework: a.name, init, file, at: e.at, name: null, args: e.args, made: { pkg: callee.pkg, path: callee.path, isNew: e.k === 'new' } });
              return { t: 'router', id };
            }
          }
          return { t: 'pkg', pkg: callee.pkg, path: callee.path, called: true, args, made: callee.made };
        }
        // `new Server(port)` of a function whose prototype is given methods (extract.ts prototypeClasses): its instance
        if (callee.t === 'fn' && e.k === 'new') {
          const fields = this.classNamed(file, e.callee, THIS_PREFIX, depth + 1);
          if (fields) return this.eval(fields.file, fields.expr, depth + 1);
        }
        if (callee.t === 'fn') {
          const closure = this.curried(file, e, callee, depth + 1);
          if (closure) return closure;
          // `controller.getRouter()` of a base class's method: `this` is the instance it is called on
          const self = e.callee.k === 'member' ? this.eval(file, e.callee.obj, depth + 1) : null;
          const site: CallSite = { file: callee.file, fn: callee.fn, argsFile: file, args: e.args };
          const v = self?.t === 'obj' && self.props[SUPER] ? this.asSelf(self, () => this.callFn(callee.file, callee.fn, depth + 1, site)) : this.callFn(callee.file, callee.fn, depth + 1, site);
          if (v.t === 'router') return this.instance(file, e, callee, v, depth + 1);
          // (an object given a property for each key of what the call passes, KEYED, or spreading a
          // parameter, `createRoute({ security, ...config, middleware })`: read with what it passes)
          const spreads = v.t === 'obj' && this.spreadsParam(v, depth + 1);
          const built = e.args.length > 0 && (v.t === 'unknown' || v.t === 'param' || spreads || (v.t === 'obj' && Object.hasOwn(v.props, `${KEYED}of`)));
          // (one returning a parameter, `createPlugin(plugin)` of vrite's `const typedPlugin = plugin as
          // Plugin; …; return typedPlugin`: what the call passes for it, a function or a router too)
          if (built) return this.builtFrom(file, e, callee, depth + 1, v.t === 'param', spreads) ?? v;
          // (a list some items of which read the parameters, `collectExtensionMiddleware(config)` of
          // `(config) => list.flatMap(({ id }) => config[id] ?? [])`, or a package's call handed
          // one, `xMiddleware(options, fn)` returning `Object.assign(createMiddleware(fn), …)`: read
          // with what this call passes)
          const ofParams = (v.t === 'arr' && v.items.some((x) => x.t === 'unknown')) || (v.t === 'pkg' && v.called && v.args.some((a) => a.t === 'param' && a.file === callee.file && a.fn === callee.fn));
          if (ofParams && e.args.length > 0) {
            const [r, ...more] = this.returnsOf(callee.file, callee.fn);
            const w = r && more.length === 0 ? this.eval(callee.file, { k: 'within', e: r, call: { file: callee.file, fn: callee.fn, argsFile: file, args: e.args } }, depth + 1) : null;
            if (w?.t === v.t) return w;
          }
          return v;
        }
        // `new UsersController()` of a class declared in the analysed code: its instance fields
        if (e.k === 'new' && callee.t === 'unknown' && callee.why.startsWith('class ')) {
          const fields = this.classNamed(file, e.callee, THIS_PREFIX, depth + 1);
          const self = fields ? this.eval(fields.file, fields.expr, depth + 1) : null;
          const router = self ? this.classRouter(self, depth + 1) : null;
          if (router) return this.subclassInstance(file, e, router, depth + 1);
          if (self) return self;
        }
        return { t: 'unknown', why: 'call of something not known statically' };
      }
      case 'at':
        return this.eval(e.file, e.e, depth + 1);
      case 'within': {
        const v = this.atSite(e.call, depth, () => this.eval(file, e.e, depth + 1));
        // `{ method: 'get', path, handler }` of get(path, handler): its properties are read later,
        // as the call passes them too
        if (v.t === 'obj' && v.file === file) return { t: 'obj', file, props: Object.fromEntries(Object.entries(v.props).map(([k, p]) => [k, { k: 'within', e: p, call: e.call }])) };
        return v;
      }
      case 'unknown':
        return { t: 'unknown', why: e.text };
    }
  }

  /**
   * Whether a `? :`'s test written in `file` holds, read with the arguments of the call site read
   * (`within`), if any; null when not known. A test met again while it is being decided (a value
   * reading itself: `scrubbed.projects = mapped.length > 0 ? mapped : undefined` of `const mapped
   * = scrubbed.projects.map(…)`) is not known.
   */
  private decided(file: string, test: CondTest, absentFalse = false): boolean | null {
    if (this.deciding.has(test)) return null;
    const site = this.called?.site;
    this.deciding.add(test);
    try {
      return truthOf(this, file, test, site && site.file === file ? site : null, absentFalse);
    } finally {
      this.deciding.delete(test);
    }
  }
  /** The tests being decided (`decided`), outermost first. */
  private readonly deciding = new Set<CondTest>();

  /** `f` read in the context of a call site (`within`): the function's parameters stand for what it passes. */
  private atSite<T>(call: CallSite, depth: number, f: () => T): T {
    return this.inContext(this.siteContext(call, depth), f);
  }

  private inContext<T>(c: CallContext, f: () => T): T {
    const outer = this.called;
    this.called = c;
    try {
      return f();
    } finally {
      this.called = outer;
    }
  }

  /**
   * `f` read inside the calls `sites`, outermost first, each written in the function the one
   * before it calls (`withAuth(handler)` calling `withMiddleware(handler, authMiddleware)`): the
   * parameters of each function stand for what its call passes, as closures keep them.
   */
  withinSites<T>(sites: readonly CallSite[], f: () => T): T {
    const [first, ...rest] = sites;
    return first ? this.atSite(first, 0, () => this.withinSites(rest, f)) : f();
  }

  /** The call read of function `fn`: the current one, or one it is written in (CallContext.outer); null outside any. */
  private contextOf(file: string, fn: number): CallContext | null {
    let c = this.called;
    while (c && !(c.file === file && c.fn === fn)) c = c.outer ?? null;
    return c;
  }

  /** The context of a call site, made once: the values of its arguments (and of those of the call that made its function, CallSite.made). */
  private siteContext(call: CallSite, depth: number): CallContext {
    let c = this.callSites.get(call);
    if (!c) {
      c = { file: call.file, fn: call.fn, args: call.args.map((a) => this.argument(call.argsFile, a, depth + 1)), memo: new Map(), site: call };
      if (call.made) c.outer = this.siteContext(call.made, depth);
      if (this.called) c.from = this.called;
      this.callSites.set(call, c);
    }
    return c;
  }

  /**
   * The router a class's instances are, when the class extends a framework's router (`class
   * ApiRouter extends Router`, directly or through classes of the analysed code): the one its
   * `super(…)` makes, for the class as written — `this.get(…)` in its members registers on it.
   * Null for any other value.
   */
  classRouter(self: Value, depth: number): Extract<Value, { t: 'router' }> | null {
    const base = self.t === 'obj' ? self.props[SUPER] : undefined;
    if (self.t !== 'obj' || base === undefined || depth > MAX_DEPTH) return null;
    const v = this.eval(self.file, base, depth + 1);
    return v.t === 'router' ? v : null;
  }

  /**
   * `new ApiRouter('/api')` of a class extending a router: a router of its own for this call,
   * holding the registrations made on the class's (`this.get(…)` in its members) and then its
   * own, and made with what the call passes — through the constructor's `super(…)`, or
   * straight to the base when the class has no constructor.
   */
  private subclassInstance(file: string, e: Extract<Expr, { k: 'new' }>, router: Extract<Value, { t: 'router' }>, depth: number): Value {
    const made = this.routers.get(router.id)!;
    const id = `${file}:${e.pos}`;
    if (this.routers.has(id)) return { t: 'router', id };
    const ctor = this.constructorOf(file, e, depth + 1);
    const init = this.called ? made.init : this.initThrough(made, ctor, e.args.map((a) => this.eval(file, a, depth + 1)), 0);
    this.routers.set(id, { ...made, id, name: null, instanceOf: made.id, init, viaClass: { base: made.id, ctor, args: e.args, file } });
    return { t: 'router', id };
  }

  /** The constructor of the class `new C(…)` makes, when the analysed code declares one. */
  private constructorOf(file: string, e: Extract<Expr, { k: 'new' }>, depth: number): { file: string; fn: number } | null {
    const ref = this.classNamed(file, e.callee, CTOR_PREFIX, depth);
    const c = ref ? this.eval(ref.file, ref.expr, depth) : null;
    return c?.t === 'fn' ? { file: c.file, fn: c.fn } : null;
  }

  /**
   * The options a class's router gets from `new C(…args)`: the class's constructor (`ctor`;
   * none passes the arguments on to the base's) reads them, and what its `super(…)` passes
   * goes down each class it extends (RouterObject.viaClass) to the router's package call.
   */
  private initThrough(made: RouterObject, ctor: { file: string; fn: number } | null, args: Value[], depth: number): RouterInit {
    const via = made.viaClass;
    if (via && depth < 16) {
      const base = this.routers.get(via.base)!;
      if (!ctor) return this.initThrough(base, via.ctor, args, depth + 1);
      const passed = this.inCall(ctor, args, () => via.args.map((a) => this.eval(via.file, a)));
      return this.initThrough(base, via.ctor, passed, depth + 1);
    }
    if (ctor) return this.initFor(made, ctor, args);
    const adapter = this.adapters.find((a) => a.name === made.framework);
    return made.made && adapter?.create && !made.init.derivedFrom ? (adapter.create(made.made.pkg, made.made.path, args, made.made.isNew, this) ?? made.init) : made.init;
  }

  /** `app.get(...)`, `app.basePath('/api')`: a method called on a router, as its adapter says. */
  private routerMethodCall(file: string, e: Extract<Expr, { k: 'call' }>, callee: Extract<Expr, { k: 'member' }>, depth: number): Value | null {
    const obj = this.eval(file, callee.obj, depth);
    // `s3(config).routes()` of a factory returning one router or another: still one of them, when
    // the method answers each router itself (Koa's `routes()`)
    if (obj.t === 'unknown' && obj.alts?.length && obj.alts.every((a) => a.t === 'router')) {
      const args = e.args.map((a) => this.eval(file, a, depth + 1));
      const self = obj.alts.every((a) => {
        const router = this.routers.get((a as Extract<Value, { t: 'router' }>).id)!;
        return this.adapters.find((x) => x.name === router.framework)?.routerMethod?.(router, callee.prop, args, this) === 'self';
      });
      return self ? obj : null;
    }
    if (obj.t !== 'router') return null;
    const router = this.routers.get(obj.id)!;
    const adapter = this.adapters.find((a) => a.name === router.framework);
    if (!adapter?.routerMethod) return null;
    const res = adapter.routerMethod(router, callee.prop, e.args.map((a) => this.eval(file, a, depth + 1)), this);
    if (res === null) return null;
    if (res === 'self') return obj;
    // a chain starts where its router is made (`new Hono().basePath('/api')`): the view is named after it
    const id = `${obj.id}.${callee.prop}@${file}:${e.pos}`;
    if (!this.routers.has(id)) this.routers.set(id, { id, framework: router.framework, init: { ...res, derivedFrom: router.id }, file, at: e.at, name: null, args: e.args });
    return { t: 'router', id };
  }

  /**
   * The router a call of a factory gets: a router of its own, one per call site, when the
   * factory makes it afresh (`return new Hono()`, `const r = Router(); …; return r`, or what a
   * factory it calls makes afresh), also a view of one it makes afresh (`return new
   * Hono().basePath('/api')`: a view of a router of the call's own); the router itself when it
   * returns one made elsewhere (a module's app) or a view of one (`app.basePath('/api')`).
   */
  private instance(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, factory: { file: string; fn: number }, v: Extract<Value, { t: 'router' }>, depth: number): Value {
    const made = this.routers.get(v.id)!;
    const f = this.fnOf(factory.file, factory.fn)!;
    const returned = this.returnsOf(factory.file, factory.fn).find((r) => this.eval(factory.file, r, depth + 1).t !== 'unknown');
    if (!returned) return v;
    const id = this.instanceId(file, e);
    const site: CallSite = { file: factory.file, fn: factory.fn, argsFile: file, args: e.args };
    const args = (): Value[] => e.args.map((a) => this.eval(file, a, depth + 1));
    if (made.init.derivedFrom) {
      const base = this.routers.get(made.init.derivedFrom)!;
      const view = this.viewCall(factory.file, f.scope, returned, depth + 1);
      if (!view || base.init.derivedFrom || !this.fresh(factory.file, f.scope, view.callee.obj, base.id, depth + 1)) return v;
      if (!this.routers.has(id)) this.routers.set(id, { ...base, id, name: null, instanceOf: base.id, site, init: this.initFor(base, factory, args()) });
      const viewId = `${id}.${view.callee.prop}@${factory.file}:${view.pos}`;
      if (!this.routers.has(viewId)) this.routers.set(viewId, { ...made, id: viewId, name: null, instanceOf: made.id, site, init: { ...made.init, derivedFrom: id } });
      return { t: 'router', id: viewId };
    }
    if (!this.fresh(factory.file, f.scope, returned, v.id, depth + 1)) return v;
    if (!this.routers.has(id)) this.routers.set(id, { ...made, id, name: null, instanceOf: made.id, site, init: this.initFor(made, factory, args()) });
    return { t: 'router', id };
  }

  /**
   * The id of the router a call of a factory gets: by the call's position in its file — or, for a
   * call read from a file's calls rather than from an expression holding it (a negative
   * position: an app factory's calls, link.ts), the id a call at its place got or gets that way,
   * so that a call read both ways gets one router.
   */
  private instanceId(file: string, e: Extract<Expr, { k: 'call' | 'new' }>): string {
    const place = `${file}:${e.at.line}:${e.at.column}`;
    if (e.pos >= 0) {
      const id = `${file}:${e.pos}`;
      const read = this.readFromCalls.get(place);
      if (read !== undefined && !this.routers.has(id)) return read;
      if (!this.placedCalls.has(place)) this.placedCalls.set(place, id);
      return id;
    }
    const placed = this.placedCalls.get(place);
    if (placed !== undefined) return placed;
    const id = `${file}:${e.pos}`;
    this.readFromCalls.set(place, id);
    return id;
  }

  /** The instance ids of factory calls by place (`file:line:column`), as got from an expression holding the call (the first at a place) and as read from a file's calls: instanceId. */
  private readonly placedCalls = new Map<string, string>();
  private readonly readFromCalls = new Map<string, string>();

  /** The method call a function's returned expression is, through the locals of its body (`scope`): `a.basePath('/api')` of `return a.basePath('/api')`. */
  private viewCall(file: string, scope: number, e: Expr, depth: number): (Extract<Expr, { k: 'call' }> & { callee: Extract<Expr, { k: 'member' }> }) | null {
    if (depth > MAX_DEPTH) return null;
    if (e.k === 'call' && e.callee.k === 'member') return e as Extract<Expr, { k: 'call' }> & { callee: Extract<Expr, { k: 'member' }> };
    const bound = e.k === 'ref' ? this.localBinding(file, scope, e) : undefined;
    return bound ? this.viewCall(file, scope, bound, depth + 1) : null;
  }

  /** What a name is bound to when it is a local of the function whose body is `scope` (its body's scope or one inside it). */
  private localBinding(file: string, scope: number, e: Extract<Expr, { k: 'ref' }>): Expr | undefined {
    const facts = this.files.get(file)!;
    let s: Scope | undefined = facts.scopes[e.scope];
    let bound: Expr | undefined;
    while (s && !(bound = bindingOf(s, e.name))) s = s.parent === null ? undefined : facts.scopes[s.parent];
    for (let x = s; x && bound; x = x.parent === null ? undefined : facts.scopes[x.parent]) if (x === facts.scopes[scope]) return bound;
    return undefined;
  }

  /**
   * The options a factory's router gets from one call: `createRouter('/v1')` of
   * `(prefix) => new Router({ prefix })` makes it with prefix '/v1'. Its own when what made it
   * is not known, or the factory's parameters are not read there.
   */
  private initFor(made: RouterObject, factory: { file: string; fn: number }, args: Value[]): RouterInit {
    const adapter = this.adapters.find((a) => a.name === made.framework);
    if (!made.made || !adapter?.create || this.called) return made.init;
    const { pkg, path, isNew } = made.made;
    return this.inCall(factory, args, () => adapter.create!(pkg, path, made.args.map((a) => this.eval(made.file, a)), isNew, this) ?? made.init);
  }

  /** `f` read with the parameters of `fn` the arguments `args` (one call, outside any other). */
  private inCall<T>(fn: { file: string; fn: number }, args: Value[], f: () => T): T {
    // (not the memo of an instance's reading, `asSelf`: what the function's parameters are differs)
    const selfMemo = this.selfMemo;
    this.called = { file: fn.file, fn: fn.fn, args, memo: new Map() };
    this.selfMemo = null;
    try {
      return f();
    } finally {
      this.called = null;
      this.selfMemo = selfMemo;
    }
  }

  /** Is `e`, returned by a function whose body is `scope`, the router `id` made while the function runs? */
  private fresh(file: string, scope: number, e: Expr, id: string, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    // made at this very expression: a router created there, or a factory's router got there
    // (a chain, `Router().use(auth)`, starts where the router is made: the same position)
    if (e.k === 'new' || e.k === 'call') return id === `${file}:${e.pos}`;
    // a local of the function, bound to what it made
    const bound = e.k === 'ref' ? this.localBinding(file, scope, e) : undefined;
    return bound ? this.fresh(file, scope, bound, id, depth + 1) : false;
  }

  /**
   * What a dependency-injection container passes for an injected parameter (`injected`, `new
   * Token()`): the provider an adapter finds declared for the token (Nest's `{ provide: Token,
   * useClass: Impl }`), else an instance of the token's class when it is one of the analysed
   * files; null when neither is known.
   */
  private injectedValue(file: string, injected: Extract<Expr, { k: 'new' }>, depth: number): Value | null {
    for (const a of this.adapters) {
      const p = a.provider?.(this, file, injected.callee);
      const v = p ? this.eval(p.file, p.expr, depth + 1) : null;
      if (v && v.t !== 'unknown' && v.t !== 'param') return v;
    }
    const cls = this.eval(file, injected.callee, depth + 1);
    const v = cls.t === 'unknown' && cls.why.startsWith('class ') ? this.eval(file, injected, depth + 1) : null;
    return v?.t === 'obj' ? v : null;
  }

  /**
   * The value a function returns: the first return that evaluates to a router, an object, a
   * function or a package's value; a string, number or boolean only when every return gives it.
   * A return under a test known to fail, the parameters read as `site` passes them, is not one.
   */
  callFn(file: string, fn: number, depth: number, site?: CallSite): Value {
    const key = `call:${file}:${fn}`;
    if (this.resolving.has(key)) return { t: 'unknown', why: 'recursive call' };
    const f = this.fnOf(file, fn);
    if (!f) return { t: 'unknown', why: 'no function' };
    this.resolving.add(key);
    try {
      const returned: Value[] = [];
      const scalar = (v: Value): v is Extract<Value, { t: 'str' | 'num' | 'bool' }> => v.t === 'str' || v.t === 'num' || v.t === 'bool';
      const when = f.returnsWhen;
      // routers returned under a test not known statically (`if (config.bucket == null) return
      // express.Router()` before `return express.Router().get('/sts', …)`, Uppy Companion's S3
      // routes): one of them or a later one, as a `? :` of routers is
      const maybe: Value[] = [];
      const why = `${f.name ?? 'function'}() returns one of several routers`;
      for (const [i, r] of this.returnsOf(file, fn).entries()) {
        // (`if (kind === 'admin') return adminRouter; return publicRouter` of `pick('public')`)
        const conds = when?.[i];
        const decided = conds ? decide(this, file, conds, site !== undefined, site ?? null) : null;
        if (decided?.never) continue;
        let v = this.eval(file, r, depth + 1);
        // (a router, an object or a function chosen by a `? :`, `return kind === 'admin' ?
        // adminRouter : publicRouter` of `pick('admin')`, a Fastify plugin's options `(v) => (v ? {
        // prefix: \`/api/${v}\` } : { prefix: '/api' })`, `opts.optional ? optionalUser : mustUser`:
        // the test read with what the call passes; routers, one or the other when it cannot be, as
        // a `? :` written where the value is used is — it was no value known statically, and a
        // mount of it mounted nothing)
        if (site && v.t === 'unknown' && v.alts?.some((a) => a.t === 'router' || a.t === 'obj' || a.t === 'fn')) {
          const at = this.eval(file, { k: 'within', e: r, call: site }, depth + 1);
          if (at.t === 'router' || at.t === 'obj' || at.t === 'fn' || (at.t === 'unknown' && at.alts?.every((a) => a.t === 'router'))) v = at;
        }
        if (v.t === 'router' && decided && decided.open.length > 0) {
          maybe.push(v);
          continue;
        }
        // a router, an object, a function: what the function makes, whichever return gives it
        if (v.t !== 'unknown' && !scalar(v)) return maybe.length === 0 ? v : v.t === 'router' ? oneOf([...maybe, v], why) : maybe[0]!;
        if (v.t === 'unknown' && v.alts?.every((a) => a.t === 'router')) return maybe.length === 0 ? v : oneOf([...maybe, v], why);
        returned.push(v);
      }
      if (maybe.length > 0) return maybe.length === 1 ? maybe[0]! : oneOf(maybe, why);
      // a string, number or boolean only when every return gives it: `return false` beside
      // `return url.protocol === 'https:'` is one answer of two
      const first = returned.find(scalar);
      if (first) return returned.every((v) => scalar(v) && v.t === first.t && v.v === first.v) ? first : oneOf(returned, `${f.name ?? 'function'}() returns one of several values`);
      // `return account ? stripeOld : stripeNew`: one of the clients a package made, whichever is returned
      if (returned.length > 0 && returned.every((v) => v.t === 'unknown' && v.alts?.every((a) => a.t === 'pkg'))) return oneOf(returned, `${f.name ?? 'function'}() returns one of several values`);
      return { t: 'unknown', why: `${f.name ?? 'function'}() returns nothing known statically` };
    } finally {
      this.resolving.delete(key);
    }
  }

  /**
   * `createApiRequestHandler(spec)(handler)`: a call of the function another call returned,
   * written inside the function that call ran. What it returns (`{ method, path, handler }`,
   * read from `spec`) is read with the outer function's parameters standing for the arguments
   * the outer call passes (`within` that call), as a closure keeps them; null when the call is
   * not of that shape, or returns nothing known statically that way.
   */
  private curried(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, inner: { file: string; fn: number }, depth: number): Value | null {
    if (e.k !== 'call' || e.callee.k !== 'call') return null;
    const outer = this.calledFn(file, e.callee.callee);
    const facts = this.files.get(inner.file);
    const innerScope = facts?.functions[inner.fn]?.scope;
    const key = `curried:${inner.file}:${inner.fn}`;
    if (!outer || outer.file !== inner.file || outer.fn === inner.fn || !facts || innerScope === undefined || !inFunction(facts, facts.scopes[innerScope], outer.fn) || this.resolving.has(key)) return null;
    let returns = this.closures.get(e.callee);
    if (!returns) {
      const site: CallSite = { file: outer.file, fn: outer.fn, argsFile: file, args: e.callee.args };
      this.closures.set(e.callee, (returns = this.returnsOf(inner.file, inner.fn).map((r): Expr => ({ k: 'within', e: r, call: site }))));
    }
    this.resolving.add(key);
    try {
      for (const r of returns) {
        const v = this.eval(inner.file, r, depth + 1);
        if (v.t !== 'unknown') return v;
      }
      return null;
    } finally {
      this.resolving.delete(key);
    }
  }

  /** The returns of a function another call returned, each `within` that call (`curried`), by the outer call. */
  private readonly closures = new WeakMap<Expr, Expr[]>();

  /** Does an object spread a parameter of the function it is made in (`{ ...config, middleware }`)? */
  private spreadsParam(v: Extract<Value, { t: 'obj' }>, depth: number): boolean {
    return Object.keys(v.props).some((k) => {
      if (!k.startsWith('*spread*')) return false;
      const spread = this.eval(v.file, v.props[k]!, depth + 1);
      // (or a local not known without the call's arguments: cella's `...cleanConfig`, a copy of its `config`)
      return spread.t === 'param' || (spread.t === 'unknown' && v.props[k]!.k === 'ref' && this.localOfFunction(v.file, v.props[k] as Extract<Expr, { k: 'ref' }>));
    });
  }

  /** Is the name a local of a function (not a parameter, nor a name of the module's top level)? */
  private localOfFunction(file: string, e: Extract<Expr, { k: 'ref' }>): boolean {
    const facts = this.files.get(file);
    const sc = facts ? scopeOf(facts, e.scope, e.name) : undefined;
    const b = sc && bindingOf(sc, e.name);
    if (!facts || !b || b.k === 'param') return false;
    const fns = functionsByScope(facts);
    for (let s: Scope | undefined = sc; s; s = s.parent === null ? undefined : facts.scopes[s.parent]) if (fns.has(s.id)) return true;
    return false;
  }

  /**
   * `api('/projects')` of a helper that builds a string from its parameters (`(p) => \`/api/v1${p}\``,
   * `tenantPath('projects')`): its returns read with each parameter standing for the argument this
   * call passes (or its default), and each local as its value, in turn, until one is known. Taken
   * when it is a string, a number, a boolean or one of a few strings, or an object given a property
   * for each key of another (KEYED: `wrapController(controller)`) — `passesOn`, the function returns
   * one of its parameters: a function, a router or an object too; `spreads`, it returns an object
   * spreading one (`{ ...config, middleware }`): that object — null for anything else.
   */
  private builtFrom(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, fn: { file: string; fn: number }, depth: number, passesOn = false, spreads = false): Value | null {
    const key = `built:${fn.file}:${fn.fn}`;
    const facts = this.files.get(fn.file);
    if (!facts || this.resolving.has(key)) return null;
    // (a local is read as its value — `const whole = base + p; return whole` — unless it reads
    // itself; at most MAX_INLINED of them, as locals read twice each double the expression)
    const inlined = new Set<string>();
    let budget = MAX_INLINED;
    const passed = (x: Expr): Expr => {
      // (a test of what this call passes: a property its object literal lacks is undefined —
      // `config.middleware ? … : []` of a config written without one)
      if (x.k === 'choice') return { ...(mapChildExprs(x, passed) as typeof x), absentFalse: true };
      if (x.k !== 'ref') return mapChildExprs(x, passed);
      const sc = scopeOf(facts, x.scope, x.name);
      const b = sc && bindingOf(sc, x.name);
      if (!sc || !b) return x;
      if (b.k === 'param' && b.fn === fn.fn) {
        const arg = e.args[b.index];
        // (one the call does not pass is undefined — unless a spread, `route(...parts)`, may pass it)
        return arg ? { k: 'at', file, e: arg } : (b.init ?? (e.spread ? { k: 'unknown', text: `${b.name} is not passed` } : NOT_PASSED));
      }
      const local = `${sc.id}:${x.name}`;
      // (a loop's variable, an item of a list, is no one value: `for (const key in controller)` of KEYED)
      // (a local assigned again is read as its binding says, when that holds what it was given: STALE)
      if (b.k === 'param' || b.k === 'fn' || b.k === 'item' || !inFunction(facts, sc, fn.fn) || bindingOf(sc, STALE + x.name) || inlined.has(local) || budget-- <= 0) return x;
      inlined.add(local);
      const v = passed(b);
      inlined.delete(local);
      return v;
    };
    this.resolving.add(key);
    let v: Value | null = null;
    try {
      const when = this.fnOf(fn.file, fn.fn)?.returnsWhen;
      for (const [i, r] of this.returnsOf(fn.file, fn.fn).entries()) {
        // (a return under a test this call fails is not what it returns: `if (!prefix) return '/' + name`
        // of `prefixed('keys', '/x')`)
        const conds = when?.[i];
        if (conds && decide(this, fn.file, conds.map((c) => mapCond(c, passed)), true).never) continue;
        v = this.eval(fn.file, passed(r), depth + 1);
        if (v.t !== 'unknown') break;
      }
    } finally {
      this.resolving.delete(key);
    }
    // (or an object: `createXRoute(config)` of `(config) => createRoute(config)`, @hono/zod-openapi's
    // createRoute the config it is given — the route config the call passes)
    if (v !== null && passesOn && (v.t === 'fn' || v.t === 'router' || v.t === 'obj')) return v;
    if (v !== null && spreads && v.t === 'obj') return v;
    return v !== null && (v.t === 'str' || v.t === 'num' || v.t === 'bool' || (v.t === 'unknown' && v.alts?.every((a) => a.t === 'str')) || (v.t === 'obj' && Object.hasOwn(v.props, `${KEYED}of`))) ? v : null;
  }

  /**
   * Property `prop` of an object given one for each key of another (KEYED): what is assigned,
   * the loop's variable read as `prop`, when the other object has that property.
   */
  private keyedMember(obj: Extract<Value, { t: 'obj' }>, prop: string, depth: number): Value {
    const source = this.member(this.eval(obj.file, obj.props[`${KEYED}of`]!, depth + 1), prop, depth + 1);
    if (source.t === 'unknown' && source.why.startsWith('no property')) return source;
    const key = obj.props[`${KEYED}key`]!;
    if (key.k !== 'ref') return { t: 'unknown', why: `property ${prop} of an object built in a loop` };
    const read = (e: Expr): Expr => (e.k === 'ref' && e.name === key.name && e.scope === key.scope ? { k: 'str', v: prop } : mapChildExprs(e, read));
    return this.eval(obj.file, read(obj.props[`${KEYED}value`]!), depth + 1);
  }

  /**
   * The keys of an object known statically, in order (a key set again keeps its place): its own,
   * and those of what it spreads (`{ ...coreRoutes }`, the spreads `Object.assign(routes,
   * coreRoutes)` put in a literal); `partial`, what a spread of something else is written as, when
   * one may add more. Null when the object holds keys not known statically (a class's members,
   * keys a loop gives).
   */
  private ownKeys(o: Extract<Value, { t: 'obj' }>, depth: number): { keys: string[]; partial: string | null } | null {
    if (depth > MAX_DEPTH) return null;
    const out = new Set<string>();
    let partial: string | null = null;
    for (const k of Object.keys(o.props)) {
      if (!k.startsWith('*')) out.add(k);
      else if (!k.startsWith('*spread*') || k === SUPER) return null;
      else {
        const from = this.eval(o.file, o.props[k]!, depth + 1);
        const inner = from.t === 'obj' ? this.ownKeys(from, depth + 1) : null;
        if (from.t === 'obj' && inner === null) return null;
        for (const x of inner?.keys ?? []) out.add(x);
        const spread = o.props[k]!;
        partial ??= inner ? inner.partial : (spread.k === 'unknown' ? spread.text : exprName(spread)) || 'a spread';
      }
    }
    return { keys: [...out], partial };
  }

  member(obj: Value, prop: string, depth: number, self?: Extract<Value, { t: 'obj' }>): Value {
    // `(legacy ? stripeLegacy : stripeLive).webhooks`: of alternatives a package made, each one's member
    if (obj.t === 'unknown' && obj.alts?.every((a) => a.t === 'pkg')) return oneOf(obj.alts.map((a) => this.member(a, prop, depth + 1)), obj.why);
    switch (obj.t) {
      case 'ns':
        return this.exportValue(obj.file, prop, depth + 1);
      case 'pkg':
        // `import * as express from 'express'; express.default()`: a CommonJS module's namespace's
        // default is its `module.exports` (Node's ESM interop, TypeScript's `__importStar`), the
        // module itself, as its default import is
        if (prop === 'default' && obj.path.length === 0 && !obj.called) return obj;
        if (obj.called) return { t: 'pkg', pkg: obj.pkg, path: [...obj.path, '()', prop], called: false, args: [], made: obj.args };
        return { t: 'pkg', pkg: obj.pkg, path: [...obj.path, prop], called: false, args: [], made: obj.made };
      case 'obj': {
        // The last definition wins: the key itself, or a spread (`{ ...base, store }`) that has it.
        // Spreads can refer to each other (`a = { ...b }`, `b = { ...a }`); bound the search.
        if (depth > MAX_DEPTH) return { t: 'unknown', why: `property ${prop} through too many spreads` };
        const keys = Object.keys(obj.props);
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i]!;
          if (k === prop) return this.eval(obj.file, obj.props[k]!, depth + 1);
          if (k === SUPER) {
            const v = this.inherited(obj, obj.props[k] as Extract<Expr, { k: 'new' }>, prop, self ?? obj, depth + 1);
            if (v) return v;
            continue;
          }
          if (!k.startsWith('*spread*')) continue;
          const from = this.eval(obj.file, obj.props[k]!, depth + 1);
          // `{ ...require('./header') }`: a module's exports spread, whose names are known
          if (from.t === 'ns') {
            const v = this.exported(from.file, prop, depth + 1);
            if (v) return v;
            continue;
          }
          if (from.t !== 'obj') return { t: 'unknown', why: `property ${prop} may come from a spread not known statically` };
          const v = this.member(from, prop, depth + 1, self);
          if (!(v.t === 'unknown' && v.why.startsWith('no property'))) return v;
        }
        if (Object.hasOwn(obj.props, `${KEYED}value`)) return this.keyedMember(obj, prop, depth + 1);
        return { t: 'unknown', why: `no property ${prop}` };
      }
      case 'arr':
        // `file.split('.')[0]`
        if (ARRAY_INDEX.test(prop)) return Number(prop) < obj.items.length ? obj.items[Number(prop)]! : { t: 'unknown', why: UNDEFINED };
        return { t: 'unknown', why: `array.${prop}` };
      case 'param': {
        // `request.getCurrentUserId` of a handler or a hook: the one function a hook or a middleware
        // of the files read puts on its request under that name (FunctionFact.installs)
        const installed = obj.index === 0 && !obj.path?.length ? this.installedOnRequest(prop) : null;
        if (installed) return installed;
        // `req.responseHandler.error` of a handler: a method of the one instance a middleware of the
        // files read puts on its request under that name (only a method: what else the instance
        // holds stays a part of the request, as read)
        const instance = obj.index === 0 && obj.path?.length === 1 ? this.instanceOnRequest(obj.path[0]!, depth) : null;
        const method = instance ? this.member(instance, prop, depth + 1) : null;
        if (method?.t === 'fn') return method;
        // `context.app` of `function setup(context)`: known once a call site passes the object
        return { ...obj, path: [...(obj.path ?? []), prop] };
      }
      case 'fn': {
        // `module.exports = (name) => express(); module.exports.Router = (name) => express.Router()`
        // (Ghost's shared/express.js): the function a module exports whole carries the names the
        // module exports beside it
        // (CommonJS only: an ES module's default export is no object of its named exports)
        const cjs = this.files.get(obj.file)?.exports.some((x) => x.exported === prop && x.local === `*cjs*${prop}`) === true;
        const whole = cjs ? this.exported(obj.file, 'default', depth + 1) : null;
        const named = whole?.t === 'fn' && whole.file === obj.file && whole.fn === obj.fn ? this.exported(obj.file, prop, depth + 1) : null;
        return named ?? { t: 'unknown', why: `property ${prop} of a value not known statically` };
      }
      default:
        return { t: 'unknown', why: `property ${prop} of a value not known statically` };
    }
  }

  /**
   * A field a class inherits (SUPER: `new Base(…)` with the arguments of its `super(…)` call),
   * or null when the base class is not one of the analysed code or has no such field. `this` in
   * the base's fields and getters is the instance (`self`): the subclass, or the class extending
   * it. A router the base class makes itself (`router = Router()`, `this.router = Router()` in its
   * constructor) is made anew for each class extending it, as for each call of a factory: its
   * registrations are the base class's and then the subclass's own.
   */
  private inherited(obj: Extract<Value, { t: 'obj' }>, e: Extract<Expr, { k: 'new' }>, prop: string, self: Extract<Value, { t: 'obj' }>, depth: number): Value | null {
    const baseName = e.callee;
    if (baseName.k !== 'ref' || depth > MAX_DEPTH) return null;
    const fields = this.classBinding(obj.file, baseName.scope, baseName.name, THIS_PREFIX);
    const base = fields ? this.eval(fields.file, fields.expr, depth + 1) : null;
    if (!fields || base?.t !== 'obj') return null;
    let v = this.asSelf(self, () => this.member(base, prop, depth + 1, self));
    if (v.t === 'unknown' && v.why.startsWith('no property')) return null;
    // the base's constructor, read only for a parameter's value or a router made anew
    const ctorOf = (): Value | null => {
      const ctor = this.classBinding(obj.file, baseName.scope, baseName.name, CTOR_PREFIX);
      return ctor ? this.eval(ctor.file, ctor.expr, depth + 1) : null;
    };
    // `constructor(path) { this.path = path }` of the base: what `super('/users')` passes
    if (v.t === 'param') {
      const arg = e.args[v.index];
      const c = arg ? ctorOf() : null;
      if (c?.t === 'fn' && c.file === v.file && c.fn === v.fn && arg) {
        const path = v.path ?? [];
        v = this.eval(obj.file, arg, depth + 1);
        for (const p of path) v = this.member(v, p, depth + 1);
      }
    }
    if (v.t !== 'router') return v;
    const key = `${obj.file}:${e.pos}`;
    const tag = this.inheritedRouters.get(v.id);
    const own = base.props[prop];
    const made = this.routers.get(v.id)!;
    const ownMade = own !== undefined && (own.k === 'call' || own.k === 'new');
    // (made anew for each class, it would still share its route table with the router it derives from)
    if (ownMade && made.init.derivedFrom) return { t: 'unknown', why: 'a router the base class derives from another (basePath) is shared by every class extending it' };
    const baseSuper = base.props[SUPER] as Extract<Expr, { k: 'new' }> | undefined;
    const fresh = (ownMade && v.id === `${base.file}:${own.pos}`) || (tag !== undefined && baseSuper !== undefined && tag === `${base.file}:${baseSuper.pos}`);
    if (!fresh) return v;
    const id = `${key}~${v.id}`;
    if (!this.routers.has(id)) {
      // made with what this class passes to `super(…)`: `new Router({ prefix })` of the base's constructor
      const c = ctorOf();
      const init = c?.t === 'fn' ? this.asSelf(self, () => this.initFor(made, c, e.args.map((a) => this.eval(obj.file, a, depth + 1)))) : made.init;
      this.routers.set(id, { ...made, id, name: null, instanceOf: made.id, init });
      this.inheritedRouters.set(id, key);
    }
    return { t: 'router', id };
  }

  /**
   * `new ContextController(config, services, 'project').router` of a class making its router
   * itself (in its constructor or a base class's, `this.app = Router()`), its constructor taking
   * parameters: a router of this call's own (RouterObject.constructed), an instance of the
   * class's. The router as it is for any other value.
   */
  private constructedRouter(file: string, e: Extract<Expr, { k: 'new' }>, prop: string, v: Extract<Value, { t: 'router' }>, depth: number): Value {
    if (e.callee.k !== 'ref' || depth > MAX_DEPTH) return v;
    const made = this.routers.get(v.id)!;
    const fields = this.classBinding(file, e.callee.scope, e.callee.name, THIS_PREFIX);
    const ctor = fields ? this.constructorOf(file, e, depth + 1) : null;
    // (the class's own: made for it by its base, or in its own file)
    const own = this.inheritedRouters.has(v.id) || (made.instanceOf === undefined && made.file === fields?.file);
    if (!ctor || !own || (this.fnOf(ctor.file, ctor.fn)?.params.length ?? 0) === 0) return v;
    const id = `${file}:${e.pos}.${prop}`;
    if (!this.routers.has(id)) this.routers.set(id, { ...made, id, name: null, instanceOf: made.id, constructed: { site: { file: ctor.file, fn: ctor.fn, argsFile: file, args: e.args }, at: e.at, callee: e.callee } });
    return { t: 'router', id };
  }

  /**
   * `f` read with `this` an instance of the class named `name` in `scope` of `file`, in that class
   * and in each class it extends: a method it inherits calls the methods it overrides (a base
   * class's `handler` asking `this.handleMissingAuthHeader(…)`). `f` alone when the class's
   * instance is not known.
   */
  asInstance<T>(file: string, scope: number, name: string, f: () => T): T {
    const fields = this.classBinding(file, scope, name, THIS_PREFIX);
    const self = fields ? this.eval(fields.file, fields.expr) : null;
    return self?.t === 'obj' ? this.asSelf(self, f) : f();
  }

  /**
   * `f` read with `this` the instance `self` in each class it extends (its own one object stands
   * for every instance otherwise), and a memo of its own.
   */
  private asSelf<T>(self: Extract<Value, { t: 'obj' }>, f: () => T): T {
    const outer = { selves: this.selves, memo: this.selfMemo };
    const selves = new Map(outer.selves ?? []);
    let o: Value = self;
    for (let i = 0; i < 16 && o.t === 'obj'; i++) {
      const sup = o.props[SUPER];
      if (sup?.k !== 'new' || sup.callee.k !== 'ref') break;
      const fields = this.classBinding(o.file, sup.callee.scope, sup.callee.name, THIS_PREFIX);
      if (!fields) break;
      selves.set(`${fields.file}|${fields.name}`, self);
      o = this.eval(fields.file, fields.expr);
    }
    this.selves = selves;
    this.selfMemo = new Map();
    try {
      return f();
    } finally {
      this.selves = outer.selves;
      this.selfMemo = outer.memo;
    }
  }

  /** The routers made for a class extending the class that makes them (`inherited`), with the place of its `extends`. */
  private readonly inheritedRouters = new Map<string, string>();
  /** While a base class's field is read for an instance (`inherited`): what `this` is in each class on the way. */
  private selves: Map<string, Value> | null = null;
  /** … and the memo of that reading: `this` differs from the base class's own. */
  private selfMemo: Map<string, WeakMap<Expr, Value>> | null = null;

  resolveName(file: string, scope: number, name: string, depth: number): Value {
    const self = this.selves?.get(`${file}|${name}`);
    if (self) return self;
    const facts = this.files.get(file);
    if (!facts) return { t: 'unknown', why: 'no file' };
    let s: Scope | undefined = facts.scopes[scope];
    while (s) {
      // own properties only: `toString`, `constructor`, `__proto__` are names like any other
      const b = bindingOf(s, name);
      if (b) {
        if (b.k === 'unknown' && b.text === '') return { t: 'unknown', why: `${name} is assigned later` };
        const key = `${file}:${s.id}:${name}`;
        if (this.resolving.has(key)) return { t: 'unknown', why: 'cycle' };
        this.resolving.add(key);
        try {
          return this.eval(file, b, depth + 1);
        } finally {
          this.resolving.delete(key);
        }
      }
      s = s.parent === null ? undefined : facts.scopes[s.parent];
    }
    const imp = facts.imports.find((i) => i.local === name);
    if (imp) return this.importValue(file, imp.source, imp.imported, depth + 1);
    const global = this.globalValue(name, depth);
    if (global) return global;
    return { t: 'unknown', why: name === 'undefined' ? UNDEFINED : `${name} is not defined in the analysed files` };
  }

  /**
   * What a global the analysed modules set holds (globalDefinition); set by several modules,
   * which one ran last is not known statically: each of their values an alternative (routes
   * registered on it are registered on each router it may be). Null when no module sets it.
   */
  private globalValue(name: string, depth: number): Value | null {
    const defs = this.globalDefinitions(name);
    if (defs.length === 0) return null;
    if (defs.length === 1) return this.resolveName(defs[0]!.file, 0, defs[0]!.name, depth + 1);
    const files = defs.map((d) => d.file);
    return { t: 'unknown', why: `${name} is a global several modules set (${files.join(', ')})`, alts: defs.map((d) => this.resolveName(d.file, 0, d.name, depth + 1)) };
  }

  /** The globals the analysed modules set (`global.app = …`), by name: each module's first, built when first asked. */
  private globals: Map<string, Definition[]> | null = null;

  /**
   * Where a global a module sets (`global.app = express()`, `globalThis.config = …`) is given its
   * value, for a name no scope of the module reading it binds and no import brings: that
   * module's first unconditional assignment. Null when no analysed module sets it, or when
   * several do (which one runs last is not known statically). The modules read are those whose
   * facts were made up front — every module setting a global is one (prefilter.ts).
   */
  globalDefinition(name: string): Definition | null {
    const defs = this.globalDefinitions(name);
    return defs.length === 1 ? defs[0]! : null;
  }

  /** Each module's first assignment of a global (`global.app = …`), in file order. */
  private globalDefinitions(name: string): Definition[] {
    return this.globalMap().get(name) ?? [];
  }

  /** The globals (and properties of globals) each module first sets, by name, built when first asked. */
  private globalMap(): Map<string, Definition[]> {
    if (this.globals === null) {
      this.globals = new Map();
      for (const [file, facts] of [...this.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        const module = facts.scopes[0];
        if (!module) continue;
        for (const key of Object.keys(module.bindings)) {
          if (!key.startsWith(GLOBAL_PREFIX)) continue;
          const global = key.slice(GLOBAL_PREFIX.length);
          const defs = this.globals.get(global) ?? [];
          defs.push({ file, expr: bindingOf(module, key)!, name: key, scope: 0 });
          this.globals.set(global, defs);
        }
      }
    }
    return this.globals;
  }

  importValue(file: string, source: string, imported: string, depth: number): Value {
    if (this.isPackageSpec(source) && this.resolveModule(file, source) === null) {
      const pkg = ROOT_SUBPATH.exec(source)?.[1] ?? source;
      // `import express from 'express'` and `require('express')` are the module itself.
      if (imported === 'default' || imported === '=' || imported === '*') return { t: 'pkg', pkg, path: [], called: false, args: [], made: undefined };
      return { t: 'pkg', pkg, path: [imported], called: false, args: [], made: undefined };
    }
    const target = this.resolveModule(file, source);
    if (!target) return { t: 'unknown', why: `cannot resolve module '${source}'` };
    if (imported === '*') return { t: 'ns', file: target };
    if (imported === '=') {
      const tf = this.files.get(target)!;
      const cjs = tf.exports.some((x) => x.exported === 'default' && x.local === '*default*' && !x.esm) && !tf.exports.some((x) => x.local && x.local !== '*default*' && !x.local.startsWith('*cjs*'));
      return cjs ? this.exportValue(target, 'default', depth + 1) : { t: 'ns', file: target };
    }
    return this.exportValue(target, imported, depth + 1);
  }

  /**
   * The names of a module's namespace object: its exports, and those of the modules it exports
   * `*` from but their `default`, sorted (types' names left out); null when one is not known
   * statically (`module.exports = …`, a module not analysed).
   */
  exportNames(file: string, seen = new Set<string>()): string[] | null {
    if (seen.has(file)) return [];
    seen.add(file);
    const facts = this.files.get(file);
    if (!facts) return null;
    const names = new Set<string>();
    for (const x of facts.exports) {
      if (x.typeOnly) continue;
      if (x.exported === '*') {
        const target = x.source === undefined ? null : this.resolveModule(file, x.source);
        const more = target === null ? null : this.exportNames(target, seen);
        if (more === null) return null;
        for (const n of more) if (n !== 'default') names.add(n);
      } else if (x.local === '*default*' && !x.esm) return null;
      else names.add(x.exported);
    }
    return [...names].sort();
  }

  exportValue(file: string, name: string, depth: number): Value {
    return this.exported(file, name, depth) ?? { t: 'unknown', why: `${path.posix.basename(file)} has no export ${name}` };
  }

  /** The value of a module's export `name`; null when the module has no such export (`packages`: a package's `export *` may give it). */
  private exported(file: string, name: string, depth: number, packages = true): Value | null {
    const key = `export:${file}:${name}`;
    if (this.resolving.has(key)) return { t: 'unknown', why: 'export cycle' };
    const facts = this.files.get(file);
    if (!facts) return { t: 'unknown', why: 'no file' };
    this.resolving.add(key);
    try {
      for (const x of facts.exports) {
        if (x.exported !== name) continue;
        if (x.local !== undefined) return this.resolveName(file, 0, x.local, depth + 1);
        if (x.source !== undefined) return this.importValue(file, x.source, x.imported ?? name, depth + 1);
      }
      // (a name a package's `export *` gives — any name, its names not known — only when no module
      // of the analysed code exports it, at any depth: a name comes from the one star export that
      // has it, and vrite's barrel has `export type * from "#collections"` before `export * from "./server"`)
      const stars = facts.exports.filter((x) => x.exported === '*' && x.source && !x.typeOnly);
      const targets = stars.map((x) => this.resolveModule(file, x.source!));
      for (const viaPackages of packages ? [false, true] : [false])
        for (const [i, x] of stars.entries()) {
          const target = targets[i]!;
          if (target === null) {
            const v = viaPackages ? this.importValue(file, x.source!, name, depth + 1) : null;
            if (v && v.t !== 'unknown') return v;
            continue;
          }
          const v = this.exported(target, name, depth + 1, viaPackages);
          if (v && v.t !== 'unknown') return v;
          // what a module of the analysed code defines, though not a known value: a class (which `new` reads)
          if (this.exportDefinition(target, name, depth + 1) !== null) return v ?? { t: 'unknown', why: `${path.posix.basename(target)} has no export ${name}` };
        }
      return this.installedExport(file, name, depth + 1);
    } finally {
      this.resolving.delete(key);
    }
  }

  /**
   * A property a module gives its exports object through a call rather than by assigning it:
   * NodeBB's `require('./user')(middleware)` of `const middleware = module.exports`, where the
   * function called assigns `middleware.authenticateRequest = …` (FunctionFact.paramProps), or
   * `Object.assign(middleware, { admin: require('./admin') })`. The last call giving it a value
   * known statically wins; null when none does.
   */
  private installedExport(file: string, name: string, depth: number): Value | null {
    const facts = this.files.get(file)!;
    let found: Value | null = null;
    for (const c of facts.calls) {
      const i = c.args.findIndex((a) => exportsObject(facts, a));
      if (i < 0) continue;
      const assigned = this.objectMethod(file, c.callee) === 'assign';
      if (assigned) {
        for (const a of i === 0 ? c.args.slice(1) : []) {
          const v = this.member(this.eval(file, a, depth + 1), name, depth + 1);
          if (v.t !== 'unknown') found = v;
        }
        continue;
      }
      const f = this.eval(file, c.callee, depth + 1);
      const props = f.t === 'fn' ? (this.fnOf(f.file, f.fn)?.paramProps ?? []).filter((p) => p.index === i && p.prop === name) : [];
      if (f.t === 'fn' && props.length > 0) found = this.eval(f.file, props[props.length - 1]!.value, depth + 1);
    }
    return found;
  }

  /**
   * The module a `require(…)` / `import(…)` of a computed specifier loads: a string known
   * statically (`\`./routes/${file}\``, `'./routes/' + name`), or a location built from the
   * module's own (`path.join(__dirname, 'routes', file)`, `` `${__dirname}/routes/${file}` ``),
   * written relative to the file; null when neither.
   */
  private specifierOf(file: string, arg: Expr, depth: number): string | null {
    if (arg.k === 'str') return arg.v;
    const v = this.eval(file, arg, depth + 1);
    if (v.t === 'str') return v.v;
    const loc = locate(this, file, arg, this.tree.packageDir(file));
    return 'why' in loc || loc.url ? null : specifierFor(file, loc.p);
  }

  /**
   * Arguments of `path.basename` / `extname`: a location built from the module's own
   * (`__filename`) as its path relative to the analysed root, which names the same file. (Not
   * for `path.join`, whose result would be that relative path, not the absolute one the code gets.)
   */
  asPaths(file: string, fn: readonly string[], exprs: Expr[], values: Value[]): Value[] {
    if (fn.length !== 1 || (fn[0] !== 'basename' && fn[0] !== 'extname')) return values;
    return values.map((v, i) => {
      if (v.t !== 'unknown') return v;
      const loc = locate(this, file, exprs[i]!, this.tree.packageDir(file));
      return 'why' in loc || loc.url ? v : { t: 'str', v: loc.p };
    });
  }

  /**
   * `fs.readdirSync(dir)` (also `fs.promises.readdir`, awaited) of a directory built from the
   * module's location: its entries as the analysed tree lists them (listing.ts), as names or,
   * asked for with `{ withFileTypes: true }`, as Dirents (listing.ts direntProps); null for any
   * other call. A recursive listing, or one of Buffer names, is not known statically.
   */
  private readDir(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, callee: Extract<Value, { t: 'pkg' }>, args: Value[]): Value | null {
    const fn = callee.path.join('.');
    const promises = callee.pkg.endsWith('/promises');
    const lists = FS_MODULES.has(callee.pkg) && (promises ? fn === 'readdir' : fn === 'readdirSync' || fn === 'promises.readdir');
    if (e.k !== 'call' || callee.called || !lists || !e.args[0]) return null;
    const options = args[1] ? this.listingOptions(args[1]) : 'names';
    if (options === null) return { t: 'unknown', why: `${fn}() with options (a recursive listing, Buffer names) is not known statically` };
    // (a relative path is read from the directory the server is started in: its package's, as for `process.cwd()`)
    const dir = args[0]?.t === 'str' && !path.posix.isAbsolute(args[0].v) ? args[0].v : null;
    const packageDir = this.tree.packageDir(file);
    const loc = dir !== null ? { url: false, p: path.posix.join(packageDir === '' ? '.' : packageDir, dir) } : locate(this, file, e.args[0], packageDir);
    if ('why' in loc) return { t: 'unknown', why: `the directory ${fn}() lists: ${loc.why}` };
    if (loc.url) return { t: 'unknown', why: `${fn}() of a URL` };
    const names = this.tree.listing.entries(loc.p);
    if (!names) return { t: 'unknown', why: `${loc.p} holds no analysed file` };
    return this.listed(names.map((v): Value => (options === 'names' ? { t: 'str', v } : { t: 'obj', file, props: direntProps(v, this.tree.listing.entries(path.posix.join(loc.p, v)) !== null) })));
  }

  /**
   * What a listing's options ask for (`'utf8'`, `{ withFileTypes: true }`): the entries' names,
   * or Dirent objects; null for a recursive listing, names as Buffers, or options not known
   * statically.
   */
  private listingOptions(options: Value): 'names' | 'dirents' | null {
    if (options.t === 'str') return options.v === 'buffer' ? null : 'names';
    if (options.t !== 'obj') return null;
    const own = this.ownKeys(options, 0);
    if (own === null || own.partial !== null) return null;
    let dirents = false;
    for (const key of own.keys) {
      const v = this.member(options, key, 1);
      if (key === 'withFileTypes' && v.t === 'bool') dirents = v.v;
      else if (!((key === 'recursive' && v.t === 'bool' && !v.v) || (key === 'encoding' && v.t === 'str' && v.v !== 'buffer'))) return null;
    }
    return dirents ? 'dirents' : 'names';
  }

  /**
   * `glob.sync(pattern)` (also `globSync`, and fast-glob's `sync`) of a pattern built from the
   * module's location (`` `${__dirname}/routes/*.js` ``, `path.join(__dirname, 'routes', '*.js')`):
   * the analysed files it matches, sorted, each as the calling file would require it
   * (`./routes/users.js`), a `.js` pattern's files named `.js` (a server started from its
   * compiled files matches those; the analysed sources are `.ts`). Null for any other call; not
   * known statically with options or a pattern read from where the server starts.
   */
  private globSync(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, callee: Extract<Value, { t: 'pkg' }>, args: Value[]): Value | null {
    const fn = callee.path.join('.');
    if (!GLOB_MODULES.has(callee.pkg) || (fn !== 'sync' && fn !== 'globSync') || callee.called || e.k !== 'call' || !e.args[0]) return null;
    if (args.length > 1) return { t: 'unknown', why: `${fn}() with options is not known statically` };
    const loc = locate(this, file, e.args[0], this.tree.packageDir(file));
    if ('why' in loc || loc.url) return { t: 'unknown', why: `the files ${fn}() matches: ${'why' in loc ? loc.why : 'a URL'}` };
    const ext = /\.[cm]?[jt]sx?$/.exec(loc.p)?.[0];
    return this.listed(globMatches(this.tree.listing.files, loc.p).map((match): Value => ({ t: 'str', v: specifierFor(file, ext ? match.replace(/\.[cm]?[jt]sx?$/, ext) : match) })));
  }

  /**
   * `requireDir('./routes')` of require-dir (read at 1.2.0): an object holding each module of the
   * directory (relative to the calling file's) under its name without its extension, the calling
   * file left out — as the analysed tree lists the directory, the first of `.js`, `.json`,
   * `.node` and the TypeScript extensions winning a name. Null for any other call; not known
   * statically with options (`recurse`, `filter`, `mapKey`…: functions, or directories made objects).
   */
  private requireDir(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, callee: Extract<Value, { t: 'pkg' }>, args: Value[]): Value | null {
    if (callee.pkg !== 'require-dir' || callee.path.length > 0 || callee.called || e.k !== 'call') return null;
    if (args.length > 1) return { t: 'unknown', why: 'requireDir() with options is not known statically' };
    const here = path.posix.dirname(file);
    const given = args[0];
    const dir =
      given === undefined ? { p: here }
      : given.t === 'str' ? (path.posix.isAbsolute(given.v) ? { why: `${given.v} is outside the analysed files` } : { p: path.posix.join(here, given.v) })
      : locate(this, file, e.args[0]!, this.tree.packageDir(file));
    if ('why' in dir || ('url' in dir && dir.url)) return { t: 'unknown', why: `the directory requireDir() reads${'why' in dir ? `: ${dir.why}` : ' is a URL'}` };
    const names = this.tree.listing.entries(dir.p);
    if (!names) return { t: 'unknown', why: `${dir.p} holds no analysed file` };
    const props: Record<string, Expr> = {};
    for (const ext of REQUIRE_EXTENSIONS)
      for (const name of names) {
        const base = name.slice(0, -ext.length);
        const at = path.posix.join(dir.p, name);
        if (!name.endsWith(ext) || base === '' || Object.hasOwn(props, base) || at === file || name.endsWith('.d.ts') || this.tree.listing.entries(at)) continue;
        props[base] = { k: 'call', callee: { k: 'ref', name: 'require', scope: 0 }, args: [{ k: 'str', v: specifierFor(file, at) }], at: e.at, pos: e.pos };
      }
    return { t: 'obj', file, props };
  }

  /**
   * `requireAll(dirname)` / `requireAll({ dirname, filter, excludeDirs, recursive })` of
   * require-all (read at 3.0.0, index.js): an object holding, for each file of the directory
   * whose name `filter` matches (`/^([^.].*)\.js(on)?$/` unless given), the module under the
   * first group of the match (the whole match without one), and — `recursive` unless false —
   * for each directory `excludeDirs` (`/^\./`) does not match, the same object of it, when not
   * empty. The directory is one the module's location gives (`__dirname + '/controllers'`).
   * Null for any other call; not known statically with `map`, `resolve` or a `filter` function.
   */
  private requireAll(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, callee: Extract<Value, { t: 'pkg' }>, args: Value[]): Value | null {
    if (callee.pkg !== 'require-all' || callee.path.some((p) => p !== 'default') || callee.called || e.k !== 'call' || !e.args[0]) return null;
    const opts = args[0]!;
    const option = (key: string): Value | undefined => (opts.t === 'obj' && key in opts.props ? this.member(opts, key, 0) : undefined);
    const dirExpr = opts.t === 'obj' ? opts.props['dirname'] : e.args[0];
    if (opts.t === 'obj' && (option('map') !== undefined || option('resolve') !== undefined)) return { t: 'unknown', why: 'requireAll() with map or resolve is not known statically' };
    const filter = option('filter') ?? { t: 're', source: '^([^\\.].*)\\.js(on)?$', flags: '' };
    const excludeDirs = option('excludeDirs') ?? { t: 're', source: '^\\.', flags: '' };
    const recursive = option('recursive');
    if (filter.t !== 're' || (excludeDirs.t !== 're' && !(excludeDirs.t === 'bool' && !excludeDirs.v)) || (recursive !== undefined && recursive.t !== 'bool'))
      return { t: 'unknown', why: 'the options of requireAll() are not known statically' };
    const dir = dirExpr ? locate(this, opts.t === 'obj' ? opts.file : file, dirExpr, this.tree.packageDir(file)) : { why: 'no dirname' };
    if ('why' in dir || dir.url) return { t: 'unknown', why: `the directory requireAll() reads${'why' in dir ? `: ${dir.why}` : ' is a URL'}` };
    const props = this.modulesOf(file, e, dir.p, 0, (name, isDir) => {
      if (isDir) return (recursive?.t === 'bool' && !recursive.v) || (excludeDirs.t === 're' && matchOf(excludeDirs, name) !== null) ? null : name;
      const m = matchOf(filter, name);
      const key = m ? (m[1] ?? m[0]) : '';
      return key === '' ? null : key;
    });
    return props ? { t: 'obj', file, props } : { t: 'unknown', why: `${dir.p} holds no analysed file` };
  }

  /**
   * The object a directory loader makes of directory `d` (requireAll, autoLoad): for each entry
   * in `fs.readdirSync`'s order under the key `keyOf` gives it (none: left out), a file's module
   * as `file` would require it, a directory's such object — an empty one left out unless
   * `keepEmpty`; a later entry of one key replaces an earlier. Null when `d` holds no analysed
   * file.
   */
  private modulesOf(file: string, e: Extract<Expr, { k: 'call' }>, d: string, depth: number, keyOf: (name: string, isDir: boolean) => string | null, keepEmpty = false): Record<string, Expr> | null {
    const names = this.tree.listing.entries(d);
    if (!names || depth > 16) return null;
    const props: Record<string, Expr> = {};
    for (const name of names) {
      const at = path.posix.join(d, name);
      const isDir = this.tree.listing.entries(at) !== null;
      const key = keyOf(name, isDir);
      if (key === null) continue;
      if (!isDir) {
        props[key] = { k: 'call', callee: { k: 'ref', name: 'require', scope: 0 }, args: [{ k: 'str', v: specifierFor(file, at) }], at: e.at, pos: e.pos };
        continue;
      }
      const sub = this.modulesOf(file, e, at, depth + 1, keyOf, keepEmpty) ?? {};
      if (keepEmpty || Object.keys(sub).length > 0) props[key] = { k: 'obj', props: sub };
    }
    return props;
  }

  /**
   * `autoload(dir)` of auto-load (read at 3.0.4, lib/index.js): an object holding, for each entry
   * of the directory in `fs.readdirSync`'s order, each `.js` or `.json` file's module under its
   * name without the extension, and each directory's object, under the name camel-cased
   * (`toLowerCase()`, then `-x` as `X`: `api-keys.js` is `apiKeys`); a later entry of one name
   * replaces an earlier. A directory not built from the module's location is read from the one
   * the server is started in (auto-load prefixes `process.cwd()`), taken as its package's. Null
   * for any other call.
   */
  private autoLoad(file: string, e: Extract<Expr, { k: 'call' | 'new' }>, callee: Extract<Value, { t: 'pkg' }>, args: Value[]): Value | null {
    if (callee.pkg !== 'auto-load' || callee.path.some((p) => p !== 'default') || callee.called || e.k !== 'call' || !e.args[0]) return null;
    const packageDir = this.tree.packageDir(file);
    const given = args[0];
    const dir =
      given?.t === 'str' ? (path.posix.isAbsolute(given.v) ? { why: `${given.v} is outside the analysed files` } : { url: false, p: path.posix.join(packageDir === '' ? '.' : packageDir, given.v) })
      : locate(this, file, e.args[0], packageDir);
    if ('why' in dir || dir.url) return { t: 'unknown', why: `the directory autoload() reads${'why' in dir ? `: ${dir.why}` : ' is a URL'}` };
    const camel = (name: string): string => name.toLowerCase().replace(/-(.)/g, (_, c: string) => c.toUpperCase());
    const props = this.modulesOf(file, e, dir.p, 0, (name, isDir) => {
      if (isDir) return camel(name);
      const ext = path.posix.extname(name);
      return ext === '.js' || ext === '.json' ? camel(name.slice(0, -ext.length)) : null;
    }, true);
    return props ? { t: 'obj', file, props } : { t: 'unknown', why: `${dir.p} holds no analysed file` };
  }

  /**
   * A method of a list known as surely as a literal (`listings`: a directory's entries, an
   * object's keys or values; `.filter(cb)`, `.map(cb)`, `.flatMap(cb)`, `.sort()`, `.reverse()`,
   * `.shift()`, `.pop()`: a callback read with its parameter standing for each item in turn) or
   * of a string known statically (listing.ts); null when not known statically that way. What
   * `.filter` keeps of such a list is one too; what `.map` makes only when it holds strings
   * (names); `.map` and `.flatMap` of any other list known whole (a literal's) are worked out
   * too, and make a plain list.
   */
  private valueMethod(file: string, e: Extract<Expr, { k: 'call' }>, c: Extract<Expr, { k: 'member' }>, depth: number): Value | null {
    const obj = this.eval(file, c.obj, depth + 1);
    if (obj.t === 'str' || obj.t === 're') {
      const v = stringMethod(obj, c.prop, e.args.map((a) => this.eval(file, a, depth + 1)));
      return v?.t === 'arr' ? this.listed(v.items) : v;
    }
    // (`.map(cb)` of any list read whole, a literal's too: misskey's `eps.map(([name, ep]) => ({ name, … }))`)
    // (and `.filter(cb)` of one: `routes.filter((r) => r.auth).forEach(…)`, each item the callback decides for)
    if (obj.t !== 'arr' || !LIST_METHODS.has(c.prop) || (!this.listings.has(obj) && c.prop !== 'map' && c.prop !== 'flatMap' && c.prop !== 'filter')) return null;
    // (`name.split('.').shift()`: its first item; `.pop()`, its last — the list read, not emptied)
    if (c.prop === 'shift' || c.prop === 'pop') return e.args.length > 0 ? null : ((c.prop === 'shift' ? obj.items[0] : obj.items[obj.items.length - 1]) ?? { t: 'unknown', why: UNDEFINED });
    if (c.prop === 'sort' || c.prop === 'reverse') {
      if (e.args.length > 0) return null;
      const items = [...obj.items];
      // (strings, sorted by their UTF-16 code units as sort() sorts them)
      return this.listed(c.prop === 'reverse' ? items.reverse() : items.sort((a, b) => (stringOf(a) < stringOf(b) ? -1 : stringOf(a) > stringOf(b) ? 1 : 0)));
    }
    const cb = e.args[0] ? this.eval(file, e.args[0], depth + 1) : null;
    if (cb?.t !== 'fn' || e.args.length !== 1) return null;
    const [returned, ...more] = this.returnsOf(cb.file, cb.fn);
    if (!returned || more.length > 0) return null;
    const items: Value[] = [];
    for (let index = 0; index < obj.items.length; index++) {
      const call = this.itemCall(file, cb, c.obj, index);
      if (c.prop === 'map') {
        items.push(this.eval(cb.file, { k: 'within', e: returned, call }, depth + 1));
        continue;
      }
      // (`.flatMap(({ id }) => config[id] ?? [])`: the items of each list returned, a value not a list itself)
      if (c.prop === 'flatMap') {
        const v = this.eval(cb.file, { k: 'within', e: returned, call }, depth + 1);
        items.push(...(v.t === 'arr' ? v.items : [v]));
        continue;
      }
      const keep = this.truthAt(cb, returned, call);
      if (keep === null) return null;
      if (keep) items.push(obj.items[index]!);
    }
    // (what `.filter` keeps of a list known surely is known as surely, whatever its items)
    return this.listings.has(obj) && (c.prop === 'filter' || items.every((v) => v.t === 'str' || (v.t === 'obj' && DIRENT in v.props))) ? this.listed(items) : { t: 'arr', items };
  }

  /**
   * The object `Object.fromEntries(list)` makes of `list` written as `Object.entries(o)` or
   * `Object.entries(o).filter(cb)`, `o` an object whose keys are known statically: the
   * properties of `o` the callback keeps, each decided with the entry `[key, value]` as its
   * argument; or as `names.map((name) => [name, value])` of a list known surely: a property for
   * each name, the callback's value for it. Null when a key, or the test for one, is not known
   * statically.
   */
  private fromEntries(file: string, list: Expr, depth: number): Value | null {
    if (list.k === 'call' && list.callee.k === 'member' && list.callee.prop === 'map' && list.args.length === 1) {
      const names = this.eval(file, list.callee.obj, depth + 1);
      const cb = this.eval(file, list.args[0]!, depth + 1);
      const [returned, ...more] = cb.t === 'fn' ? this.returnsOf(cb.file, cb.fn) : [];
      if (names.t !== 'arr' || !this.listings.has(names) || cb.t !== 'fn' || returned?.k !== 'arr' || returned.items.length !== 2 || more.length > 0) return null;
      const props: Record<string, Expr> = {};
      for (let index = 0; index < names.items.length; index++) {
        const call = this.itemCall(file, cb, list.callee.obj, index);
        const key = this.eval(cb.file, { k: 'within', e: returned.items[0]!, call }, depth + 1);
        if (key.t !== 'str') return null;
        props[key.v] = { k: 'within', e: returned.items[1]!, call };
      }
      return { t: 'obj', file: cb.file, props };
    }
    const inner = list.k === 'call' && list.callee.k === 'member' && list.callee.prop === 'filter' && list.args.length === 1 ? list.callee.obj : list;
    if (inner.k !== 'call' || this.objectMethod(file, inner.callee) !== 'entries' || inner.args.length !== 1) return null;
    const o = this.eval(file, inner.args[0]!, depth + 1);
    const own = o.t === 'obj' ? this.ownKeys(o, depth + 1) : null;
    if (o.t !== 'obj' || !own || own.partial) return null;
    const at = (k: string): Expr | undefined => (Object.hasOwn(o.props, k) ? o.props[k] : undefined);
    if (own.keys.some((k) => at(k) === undefined)) return null;
    if (inner === list) return { t: 'obj', file: o.file, props: Object.fromEntries(own.keys.map((k) => [k, at(k)!])) };
    const cb = this.eval(file, (list as Extract<Expr, { k: 'call' }>).args[0]!, depth + 1);
    const [returned, ...more] = cb.t === 'fn' ? this.returnsOf(cb.file, cb.fn) : [];
    if (cb.t !== 'fn' || !returned || more.length > 0) return null;
    const test = predicateTest(returned);
    const props: Record<string, Expr> = {};
    for (const k of own.keys) {
      const call: CallSite = { file: cb.file, fn: cb.fn, argsFile: o.file, args: [{ k: 'arr', items: [{ k: 'str', v: k }, at(k)!] }] };
      const keep = truthOf(this, cb.file, mapTest(test, (x) => ({ k: 'within', e: x, call })));
      if (keep === null) return null;
      if (keep) props[k] = at(k)!;
    }
    return { t: 'obj', file: o.file, props };
  }

  /**
   * The call of a list method's callback `cb` for the `index`-th item of the list `of` (written in
   * `file`). A callback written in the function whose call is being read sees that call's
   * arguments (`config` of `(config) => list.flatMap(({ id }) => config[id] ?? [])`).
   */
  private itemCall(file: string, cb: { file: string; fn: number }, of: Expr, index: number): CallSite {
    const call: CallSite = { file: cb.file, fn: cb.fn, argsFile: file, args: [{ k: 'item', of, index }] };
    if (this.called?.site && this.called.file === cb.file) call.made = this.called.site;
    return call;
  }

  /** Flatten arrays (middleware lists) into a sequence of values paired with their expressions. */
  flatten(file: string, exprs: Expr[]): { value: Value; expr: Expr; file: string }[] {
    const out: { value: Value; expr: Expr; file: string }[] = [];
    const visit = (f: string, e: Expr, v: Value, depth: number): void => {
      if (depth > 20) return;
      // `compose([requireSession, requireTenant])`: one middleware running those of the list in
      // turn, each as if passed itself — through a name too (`const guarded = compose([…])`)
      const list = composedList(v);
      if (list) {
        const made = writtenCall(this, f, e);
        if (made?.call.args[0]) visit(made.file, made.call.args[0], list, depth + 1);
        else visit(f, e, list, depth + 1);
        return;
      }
      // hono/factory's `createFactory().createHandlers(requireSession, handler)`: the list of the
      // handlers it is given (helper/factory/index.ts), spread into a route — each in turn; so is
      // hono/combine's `every(bearerAuth(…), csrf())`, which runs each in turn (combine/index.ts)
      if (v.t === 'pkg' && v.called && ((v.pkg === 'hono/factory' && v.path[v.path.length - 1] === 'createHandlers') || (v.pkg === 'hono/combine' && v.path.join('.') === 'every'))) {
        const made = writtenCall(this, f, e);
        if (made && made.call.args.length === v.args.length) made.call.args.forEach((a, i) => visit(made.file, a, v.args[i]!, depth + 1));
        else for (const a of v.args) visit(f, e, a, depth + 1);
        return;
      }
      if (v.t === 'arr') {
        // Walk the array's own expressions when we have them, for names and locations.
        const source = this.arrayExprs(f, e);
        // (an item not written anywhere is named as the list is)
        if (source && source.exprs.length === v.items.length) source.exprs.forEach((x, i) => (x ? visit(source.file, x, v.items[i]!, depth + 1) : visit(f, e, v.items[i]!, depth + 1)));
        else for (const it of v.items) visit(f, e, it, depth + 1);
        return;
      }
      out.push({ value: v, expr: e, file: f });
    };
    for (const e of exprs) visit(file, e, this.eval(file, e), 0);
    return out;
  }

  /**
   * The expression a list's item is written as, when the list is literals through consts and
   * imports, spreads flattened as evaluation flattens them (`allRoutes = [...featureRoutes,
   * postFeatureV2]`: item 2 is `getFeature` of features.router.ts); null when not known.
   */
  itemExpr(file: string, item: Extract<Expr, { k: 'item' }>, depth = 0): { file: string; expr: Expr } | null {
    if (item.index === undefined || depth > 20) return null;
    const written = (f: string, e: Expr, d: number): { file: string; expr: Expr }[] | null => {
      if (d > 20) return null;
      if (e.k === 'at') return written(e.file, e.e, d + 1);
      if (e.k === 'ref') {
        const def = this.definitionOf(f, e.scope, e.name);
        return def ? written(def.file, def.expr, d + 1) : null;
      }
      if (e.k !== 'arr') return null;
      const out: { file: string; expr: Expr }[] = [];
      for (const it of e.items) {
        // (a spread of a const array, as the evaluator reads it: an item not itself a list literal that is a list)
        if (it.k !== 'arr' && this.eval(f, it).t === 'arr') {
          const inner = written(f, it, d + 1);
          if (!inner) return null;
          out.push(...inner);
        } else out.push({ file: f, expr: it });
      }
      return out;
    };
    const of = item.of.k === 'item' ? this.itemExpr(file, item.of, depth + 1) : { file, expr: item.of };
    return (of && written(of.file, of.expr, 0)?.[item.index]) ?? null;
  }

  /**
   * The array literal an expression refers to (through consts and imports), if any: its items
   * as written, spreads of lists flattened as eval flattens them (`[middleware.autoLocale,
   * ...middlewares]`: each spread list's own items, where they are written); null for an item
   * written nowhere (of a list a call made, or a `? :` not decided).
   */
  private arrayExprs(file: string, e: Expr, depth = 0): { file: string; exprs: (Expr | null)[] } | null {
    if (depth > 20) return null;
    if (e.k === 'arr') {
      const v = this.eval(file, e);
      if (v.t !== 'arr') return null;
      const exprs: (Expr | null)[] = [];
      for (const it of e.items) {
        const items = it.k === 'arr' ? null : this.eval(file, it);
        if (items?.t !== 'arr') {
          // (`...(cond ? [upload.any()] : [])` not decided: no one item written)
          exprs.push(it.k === 'choice' || it.k === 'fallback' ? null : it);
          continue;
        }
        const inner = this.arrayExprs(file, it, depth + 1);
        if (inner && inner.exprs.length === items.items.length) for (const x of inner.exprs) exprs.push(x === null || inner.file === file ? x : { k: 'at', file: inner.file, e: x });
        else for (let i = 0; i < items.items.length; i++) exprs.push(null);
      }
      return exprs.length === v.items.length ? { file, exprs } : null;
    }
    // a list as a call site reads it (`within`): its items read there too
    if (e.k === 'within') {
      const call = e.call;
      const list = this.atSite(call, depth, () => this.arrayExprs(file, e.e, depth + 1));
      return list && { file: list.file, exprs: list.exprs.map((x): Expr | null => x && { k: 'within', e: x, call }) };
    }
    // `cond ? [upload.any()] : []`, decided; `args[args.length - 2]` of a rest parameter, in the call read
    if (e.k === 'choice') {
      const holds = this.decided(file, e.test);
      return holds === null ? null : this.arrayExprs(file, holds ? e.then : e.otherwise, depth + 1);
    }
    if (e.k === 'argAt') {
      const site = this.called?.site;
      const arg = site && site.file === file && site.fn === e.fn ? restArgument(site.args, e) : undefined;
      return site && arg ? this.arrayExprs(site.argsFile, { k: 'at', file: site.argsFile, e: arg }, depth + 1) : null;
    }
    // `route.guards` of an object literal; an item of a list, unrolled (`{ k: 'item', index }`)
    if (e.k === 'member') {
      const o = this.eval(file, e.obj);
      return o.t === 'obj' && Object.hasOwn(o.props, e.prop) ? this.arrayExprs(o.file, o.props[e.prop]!, depth + 1) : null;
    }
    if (e.k === 'item') {
      const list = e.index === undefined ? null : this.arrayExprs(file, e.of, depth + 1);
      const x = list?.exprs[e.index!];
      return list && x ? this.arrayExprs(list.file, x, depth + 1) : null;
    }
    // `config[id]` of a key known statically: that member
    if (e.k === 'index') {
      const key = this.eval(file, e.key, depth + 1);
      return key.t === 'str' ? this.arrayExprs(file, { k: 'member', obj: e.obj, prop: key.v }, depth + 1) : null;
    }
    // `config[id] ?? []`: the left list when there is one, else the right
    if (e.k === 'fallback') return this.arrayExprs(file, this.eval(file, e.l, depth + 1).t === 'arr' ? e.l : e.r, depth + 1);
    if (e.k === 'call') {
      // `collectExtensionMiddleware(config)`: the list the function returns, read with what the call passes
      const f = this.eval(file, e.callee, depth + 1);
      const [r, ...more] = f.t === 'fn' ? this.returnsOf(f.file, f.fn) : [];
      if (f.t === 'fn') return r && more.length === 0 ? this.arrayExprs(f.file, { k: 'within', e: r, call: { file: f.file, fn: f.fn, argsFile: file, args: e.args } }, depth + 1) : null;
      return e.callee.k === 'member' && e.callee.prop === 'flatMap' ? this.flatMapExprs(file, e, e.callee, depth + 1) : null;
    }
    // the list a call passes for a parameter, as written there
    if (e.k === 'at') return this.arrayExprs(e.file, e.e, depth + 1);
    // `middlewares` of `(app, ...middlewares)`, in the call read: what it passes from that place on,
    // as written there (a list spread there, `new InstanceRouter(config, ...guards)`, item by item,
    // read where the call's arguments were: `new S3Router(...guards)` in a constructor given them)
    if (e.k === 'param') {
      const c = this.contextOf(file, e.fn);
      if (!c?.site || this.fnOf(file, e.fn)?.rest !== e.index) return null;
      const site = c.site;
      const passed = (): { file: string; exprs: (Expr | null)[] } | null => this.arrayExprs(site.argsFile, { k: 'arr', items: site.args.slice(e.index) }, depth + 1);
      return c.from ? this.inContext(c.from, passed) : passed();
    }
    if (e.k !== 'ref') return null;
    const def = this.definitionOf(file, e.scope, e.name);
    return def ? this.arrayExprs(def.file, def.expr, depth + 1) : null;
  }

  /**
   * The items' expressions of `list.flatMap(cb)` over a list known surely (valueMethod): those of
   * each list the callback returns, in turn, as written (`[authGuard, tenantGuard]` of
   * `config[id] ?? []`, cella's collectExtensionMiddleware); null when one is not known.
   */
  private flatMapExprs(file: string, e: Extract<Expr, { k: 'call' }>, c: Extract<Expr, { k: 'member' }>, depth: number): { file: string; exprs: (Expr | null)[] } | null {
    const list = this.eval(file, c.obj, depth + 1);
    const cb = e.args.length === 1 ? this.eval(file, e.args[0]!, depth + 1) : null;
    const [r, ...more] = cb?.t === 'fn' ? this.returnsOf(cb.file, cb.fn) : [];
    if (list.t !== 'arr' || !this.listings.has(list) || cb?.t !== 'fn' || !r || more.length > 0) return null;
    const exprs: (Expr | null)[] = [];
    for (let index = 0; index < list.items.length; index++) {
      const call = this.itemCall(file, cb, c.obj, index);
      const part = this.arrayExprs(cb.file, { k: 'within', e: r, call }, depth + 1);
      if (!part) return null;
      for (const x of part.exprs) exprs.push(x === null || part.file === cb.file ? x : { k: 'at', file: part.file, e: x });
    }
    return { file: cb.file, exprs };
  }

  /**
   * The function a call runs: its callee, or — `new App(…)` of a class declared in the analysed
   * code — the class's constructor. Null for anything else.
   */
  calledFn(file: string, callee: Expr): { file: string; fn: number } | null {
    const v = this.eval(file, callee);
    if (v.t === 'fn') return { file: v.file, fn: v.fn };
    if (v.t !== 'unknown' || !v.why.startsWith('class ')) return null;
    const ctor = this.classNamed(file, callee, CTOR_PREFIX, 0);
    const c = ctor ? this.eval(ctor.file, ctor.expr) : null;
    return c?.t === 'fn' ? { file: c.file, fn: c.fn } : null;
  }

  /**
   * The calls of function `fn` of `file` in the analysed files, in the files' order (indexed on
   * first asking, and again once a file held back before is read: the files grow on demand).
   */
  callsOf(file: string, fn: number): { file: string; call: CallFact }[] {
    if (!this.callIndex || this.callIndexed !== this.files.size) {
      this.callIndex = new Map();
      this.callIndexed = this.files.size;
      for (const [f, facts] of [...this.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        for (const call of facts.calls) {
          const callee = this.calledFn(f, call.callee);
          if (!callee) continue;
          const key = `${callee.file}#${callee.fn}`;
          let list = this.callIndex.get(key);
          if (!list) this.callIndex.set(key, (list = []));
          list.push({ file: f, call });
        }
      }
    }
    return this.callIndex.get(`${file}#${fn}`) ?? [];
  }

  private callIndex: Map<string, { file: string; call: CallFact }[]> | null = null;
  private callIndexed = 0;

  /**
   * The status the error class named `name` in `scope` of `file` is declared with where it is
   * declared (FileFacts.errorClasses: `class NotLoggedError extends AppError { type = 'UNAUTHORIZED' }`),
   * through imports and aliases; null for anything else.
   */
  errorClassStatus(file: string, scope: number, name: string): number | null {
    let def = this.definitionOf(file, scope, name);
    for (let i = 0; def && def.expr.k === 'ref' && i < 8; i++) def = this.definitionOf(def.file, def.expr.scope, def.expr.name);
    if (!def || def.expr.k !== 'unknown' || def.expr.text !== `class ${def.name}`) return null;
    return this.files.get(def.file)?.errorClasses?.[def.name] ?? null;
  }

  /**
   * `classBinding` of the class `callee` names: a name of it (`new CourseApi(app)`), or a module's
   * export of it read off the module (`new course_1.CourseApi(app)` of a `require()`, `new
   * apis.CourseApi(app)` of `import * as apis`).
   */
  private classNamed(file: string, callee: Expr, prefix: string, depth: number): { file: string; expr: Expr; name: string } | null {
    if (callee.k === 'ref') return this.classBinding(file, callee.scope, callee.name, prefix);
    if (callee.k !== 'member' || depth > MAX_DEPTH) return null;
    const ns = this.eval(file, callee.obj, depth + 1);
    const def = ns.t === 'ns' ? this.exportDefinition(ns.file, callee.prop) : null;
    if (!def) return null;
    return def.expr.k === 'ref' ? this.classBinding(def.file, def.expr.scope, def.expr.name, prefix) : this.classBinding(def.file, def.scope, def.name, prefix);
  }

  /** A binding kept beside a class (`*static*Name`, `*this*Name`, `*ctor*Name`) where the class named `name` in `scope` is declared. */
  private classBinding(file: string, scope: number, name: string, prefix: string): { file: string; expr: Expr; name: string } | null {
    let def = this.definitionOf(file, scope, name);
    // an alias names the class (`module.exports = { KumaServer }`)
    for (let i = 0; def && def.expr.k === 'ref' && i < 8; i++) def = this.definitionOf(def.file, def.expr.scope, def.expr.name);
    return def && (def.file === file ? this.definitionOf(file, scope, `${prefix}${def.name}`) : this.definitionOf(def.file, 0, `${prefix}${def.name}`));
  }

  /**
   * What a loop goes over, one item a turn, as an expression to read items of: the list itself,
   * or — where its value is no list — the list a `new Set(list)` is made from, and for `for … of`
   * the entries a `new Map(entries)` is made from (`Map.forEach` hands its callback the values: not
   * read so). Only the global Map and Set are, reached through names not assigned again; entries
   * added later (`map.set(…)`) are not seen.
   */
  iterated(file: string, e: Expr, forOf: boolean, depth = 0): Expr {
    if (depth > MAX_DEPTH || this.eval(file, e).t !== 'unknown') return e;
    const here = (x: Expr, from: string): Expr => (from === file ? x : { k: 'at', file: from, e: x });
    if (e.k === 'at') return here(this.iterated(e.file, e.e, forOf, depth + 1), e.file);
    if (e.k === 'ref') {
      const def = this.definitionOf(file, e.scope, e.name);
      if (!def || bindingOf(this.files.get(def.file)!.scopes[def.scope]!, REASSIGNED + def.name)) return e;
      const list = this.iterated(def.file, def.expr, forOf, depth + 1);
      return list === def.expr ? e : here(list, def.file);
    }
    if (e.k !== 'new' || e.callee.k !== 'ref' || e.args.length !== 1 || this.definitionOf(file, e.callee.scope, e.callee.name)) return e;
    return e.callee.name === 'Set' || (e.callee.name === 'Map' && forOf) ? e.args[0]! : e;
  }

  /** The method of the global `Object` a callee names (`Object.assign` → 'assign'), or null: another callee, or a file defining its own `Object`. */
  objectMethod(file: string, callee: Expr): string | null {
    return callee.k === 'member' && callee.obj.k === 'ref' && callee.obj.name === 'Object' && !this.definitionOf(file, callee.obj.scope, 'Object') ? callee.prop : null;
  }

  /** Does any analysed module set a property of a global (`WIKI.auth = …`)? (Most set none: no member read need ask.) */
  private globalProperties(): boolean {
    return (this.globalProps ??= [...this.globalMap().keys()].some((k) => k.includes('.')));
  }

  private globalProps: boolean | undefined;

  /** A name a module's scopes do not bind nor its imports bring, from `scope` out: a global's, if anything. */
  private unbound(file: string, scope: number, name: string): boolean {
    const facts = this.files.get(file);
    if (!facts || facts.imports.some((i) => i.local === name)) return false;
    for (let s: Scope | undefined = facts.scopes[scope]; s; s = s.parent === null ? undefined : facts.scopes[s.parent]) if (bindingOf(s, name)) return false;
    return true;
  }

  /** Where a name is defined: its binding expression and the scope holding it, following imports and re-exports. */
  definitionOf(file: string, scope: number, name: string, depth = 0): Definition | null {
    if (depth > 30) return null;
    const facts = this.files.get(file);
    if (!facts) return null;
    let s: Scope | undefined = facts.scopes[scope];
    while (s) {
      const b = bindingOf(s, name);
      if (b) return { file, expr: b, name, scope: s.id };
      s = s.parent === null ? undefined : facts.scopes[s.parent];
    }
    const imp = facts.imports.find((i) => i.local === name);
    if (!imp) return this.globalDefinition(name);
    const target = this.resolveModule(file, imp.source);
    if (!target) return null;
    return this.exportDefinition(target, imp.imported === '=' ? 'default' : imp.imported, depth + 1);
  }

  /**
   * Where `obj.prop` is defined when `obj` is a module's namespace (`api_1.startApis`, `import *
   * as api`) or, in the module itself, its exports object (`exports.ALLOW_ANONYMOUS`): the
   * export's definition; null for any other member.
   */
  exportedMember(file: string, e: Extract<Expr, { k: 'member' }>): Definition | null {
    const facts = this.files.get(file);
    if (facts && exportsObject(facts, e.obj)) return this.exportDefinition(file, e.prop);
    const ns = e.obj.k === 'ref' ? this.eval(file, e.obj) : null;
    return ns?.t === 'ns' ? this.exportDefinition(ns.file, e.prop) : null;
  }

  /** Where a module's export is defined: its local binding, or that of the module it re-exports. */
  exportDefinition(file: string, name: string, depth = 0): Definition | null {
    if (depth > 30) return null;
    const facts = this.files.get(file);
    if (!facts) return null;
    for (const x of facts.exports) {
      if (x.exported !== name) continue;
      if (x.local !== undefined) return this.definitionOf(file, 0, x.local, depth + 1);
      if (x.source) {
        const t = this.resolveModule(file, x.source);
        return t ? this.exportDefinition(t, x.imported ?? name, depth + 1) : null;
      }
    }
    for (const x of facts.exports) {
      if (x.exported !== '*' || !x.source) continue;
      const t = this.resolveModule(file, x.source);
      const d = t ? this.exportDefinition(t, name, depth + 1) : null;
      if (d) return d;
    }
    return null;
  }
}

/**
 * Subpaths of a package whose exports its root exports under the same names, read as the root:
 * `import { Controller, Get, UseGuards } from '@nestjs/common/decorators'` (novu's workflow
 * controller) names @nestjs/common's decorators, and `@nestjs/common/exceptions` its exceptions
 * (@nestjs/common index.ts: `export * from './decorators'`, `export * from './exceptions'`).
 */
const ROOT_SUBPATH = /^(@nestjs\/common)\/(?:decorators|exceptions)(?:\/[^]*)?$/;

/**
 * Methods answering the instance they are called on, whichever framework's: `fastify.withTypeProvider<T>()`
 * (the same instance, typed), also on a function's parameter.
 */
const SAME_INSTANCE = new Set(['withTypeProvider']);

/**
 * The middleware a composing package's function runs in turn, when given as a list known
 * statically: koa-compose's `compose([a, b])` (Koa's own composition, koa-compose index.js),
 * compose-middleware's `compose([a, b])` for Express (its nested lists flattened, as
 * `flatten` flattens them).
 */
function composedList(v: Value): Extract<Value, { t: 'arr' }> | null {
  if (v.t !== 'pkg' || !v.called || v.args.length !== 1 || v.args[0]!.t !== 'arr') return null;
  const fn = v.path.join('.');
  const composes = (v.pkg === 'koa-compose' && (fn === '' || fn === 'default')) || (v.pkg === 'compose-middleware' && fn === 'compose');
  return composes ? v.args[0] : null;
}

/** The function a `.bind(…)` call binds, as written (`this.list` of `this.list.bind(this)`), or null for another call. */
export function boundFunction(e: Extract<Expr, { k: 'call' | 'new' }>): Expr | null {
  return e.k === 'call' && e.callee.k === 'member' && e.callee.prop === 'bind' ? e.callee.obj : null;
}

/** A name as written: a class's instance fields (`*this*App`) are `this`. */
export function refName(name: string): string {
  return name.startsWith(THIS_PREFIX) ? 'this' : name;
}

/** The name a middleware or handler is written with: `requireSession`, `passport.authenticate`. */
export function exprName(e: Expr): string | null {
  switch (e.k) {
    case 'ref':
      return refName(e.name);
    case 'member': {
      const o = exprName(e.obj);
      return o ? `${o}.${e.prop}` : e.prop;
    }
    case 'call':
      // `app.use(require('./lib/middleware/checkURIValid'))`: named by the module it loads
      if (e.callee.k === 'ref' && e.callee.name === 'require' && e.args.length === 1 && e.args[0]!.k === 'str') return moduleName(e.args[0]!.v);
      // `requireSession.bind(null)`, `checkRequired.bind(null, fields)`: named by the function bound
      return exprName(boundFunction(e) ?? e.callee);
    case 'new':
      return exprName(e.callee);
    case 'within':
    case 'at':
      return exprName(e.e);
    default:
      return null;
  }
}

/** A module's name from its specifier: its file's name (`checkURIValid` of `./lib/middleware/checkURIValid.js`), or its folder's for an index. */
function moduleName(spec: string): string {
  const segs = spec.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  let last = (segs.pop() ?? spec).replace(/\.[cm]?[jt]sx?$/, '');
  if (last === 'index' && segs.length > 0) last = segs.pop()!;
  return last;
}

/** What a value not of the kind wanted is, for a message: why it is unknown, or its kind. */
export function valueNote(v: Value): string {
  if (v.t === 'unknown') return v.why;
  if (v.t === 're') return `a regular expression, /${v.source}/${v.flags}`;
  return v.t;
}

/** Why a prefix is not known statically, for the step of a route's prefixes that stands for it (PrefixStep.unknown). */
export function prefixNote(v: Value): string {
  return v.t === 'pkg' ? `a value from ${v.pkg}` : valueNote(v);
}

/**
 * The strings a value that is one path may be: itself, or each of its alternatives (`legacy ?
 * '/v1' : '/v2'`); null for anything else (a list is several paths, where one is written).
 */
export function pathChoices(v: Value): string[] | null {
  return v.t === 'str' ? [v.v] : v.t === 'unknown' && v.alts ? stringsOf(v) : null;
}

export function stringsOf(v: Value): string[] | null {
  if (v.t === 'str') return [v.v];
  // a list's items, or the alternatives of a value that is one of a few: each may be served
  const items = v.t === 'arr' ? v.items : v.t === 'unknown' && v.alts ? v.alts : null;
  if (items === null) return null;
  const out: string[] = [];
  for (const it of items) {
    const each = it.t === 'str' ? [it.v] : it.t === 'unknown' && it.alts ? stringsOf(it) : null;
    if (each === null) return null;
    out.push(...each);
  }
  return out;
}

/** The scope a name is bound in, looked up from `scope` in a file, or undefined. */
export function scopeOf(facts: FileFacts, scope: number, name: string): Scope | undefined {
  let sc: Scope | undefined = facts.scopes[scope];
  while (sc && !bindingOf(sc, name)) sc = sc.parent === null ? undefined : facts.scopes[sc.parent];
  return sc;
}

/** Is `scope`, or a scope it is inside, the body of function `fn` of the file? */
export function inFunction(facts: FileFacts, scope: Scope | undefined, fn: number): boolean {
  const own = facts.functions[fn]?.scope;
  for (let s = scope; s; s = s.parent === null ? undefined : facts.scopes[s.parent]) if (s.id === own) return true;
  return false;
}

/** Each file's functions by the scope of their body, made once per file. */
export function functionsByScope(facts: FileFacts): ReadonlyMap<number, number> {
  let byScope = fnsByScope.get(facts);
  if (!byScope) fnsByScope.set(facts, (byScope = new Map(facts.functions.map((f) => [f.scope, f.id]))));
  return byScope;
}
const fnsByScope = new WeakMap<FileFacts, Map<number, number>>();

/** The call an expression is written as (and its file), through the consts and imports naming it; null when it is none. */
export function writtenCall(ev: Evaluator, file: string, e: Expr, depth = 0): { file: string; call: Extract<Expr, { k: 'call' }> } | null {
  if (depth > 20) return null;
  if (e.k === 'call') return { file, call: e };
  if (e.k === 'at') return writtenCall(ev, e.file, e.e, depth + 1);
  if (e.k !== 'ref') return null;
  const def = ev.definitionOf(file, e.scope, e.name);
  return def ? writtenCall(ev, def.file, def.expr, depth + 1) : null;
}

/** Is `e` the module's exports object: `module.exports`, `exports`, or a module-scope name for it (extract.ts isExportsObject)? */
function exportsObject(facts: FileFacts, e: Expr): boolean {
  if (e.k === 'member') return e.prop === 'exports' && e.obj.k === 'ref' && e.obj.name === 'module' && bindingIn(facts, e.obj.scope, 'module') === undefined;
  if (e.k !== 'ref') return false;
  const sc = scopeOf(facts, e.scope, e.name);
  return sc === undefined ? e.name === 'exports' : sc.id === 0 && isExportsObject(facts, e.name);
}

/** What a name read in `scope` of a file is bound to, or undefined. */
export function bindingIn(facts: FileFacts, scope: number, name: string): Expr | undefined {
  const sc = scopeOf(facts, scope, name);
  return sc && bindingOf(sc, name);
}

/** `e` with each expression directly inside it mapped by `f` (`e` itself when none changes). */
export function mapChildExprs(e: Expr, f: (c: Expr) => Expr): Expr {
  switch (e.k) {
    case 'tpl': {
      const parts = e.parts.map(f);
      return parts.every((p, i) => p === e.parts[i]) ? e : { ...e, parts };
    }
    case 'arr': {
      const items = e.items.map(f);
      return items.every((p, i) => p === e.items[i]) ? e : { ...e, items };
    }
    case 'obj': {
      const entries = Object.entries(e.props).map(([k, v]) => [k, f(v)] as const);
      return entries.every(([k, v]) => v === e.props[k]) ? e : { ...e, props: Object.fromEntries(entries) };
    }
    case 'member': {
      const obj = f(e.obj);
      return obj === e.obj ? e : { ...e, obj };
    }
    case 'index': {
      const [obj, key] = [f(e.obj), f(e.key)];
      return obj === e.obj && key === e.key ? e : { ...e, obj, key };
    }
    case 'call':
    case 'new': {
      const callee = f(e.callee);
      const args = e.args.map(f);
      return callee === e.callee && args.every((a, i) => a === e.args[i]) ? e : { ...e, callee, args };
    }
    case 'item': {
      const of = f(e.of);
      return of === e.of ? e : { ...e, of };
    }
    case 'fallback': {
      const [l, r] = [f(e.l), f(e.r)];
      return l === e.l && r === e.r ? e : { ...e, l, r };
    }
    case 'choice': {
      const [test, then, otherwise] = [mapTest(e.test, f), f(e.then), f(e.otherwise)];
      return test === e.test && then === e.then && otherwise === e.otherwise ? e : { ...e, test, then, otherwise };
    }
    default:
      return e;
  }
}
