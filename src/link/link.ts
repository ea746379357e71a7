/**
 * Link per-file facts into routes: evaluate every registration's target, group the
 * registrations by the router/app they are made on (in registration order), and let
 * each framework adapter walk its routers from their roots.
 */
import { type Adapter, sameInit } from '../adapters/adapter.js';
import { DEFAULT_BUDGETS } from '../budgets.js';
import { classifyGuard, headerCredentialOf, handsOnPackageGuard, middlewareMaker, orderKinds, passingPackageMiddleware, signedInCheck, TOKEN_NAME, tokenVerification, unlessBase, WEBHOOK_CHECK_NAME, webhookVerifier, type GuardClass, type GuardMatchers } from '../guards.js';
import { emptyProject, type Project } from '../project.js';
import { withImporters } from '../prefilter.js';
import { ADDS_TO_LIST, asksForField, COMPUTED_METHOD, CONVERSION, isUserPath, LOOPS, loopListOf, negatedText, REASSIGNED, REGISTRATION_METHODS, REQUEST_INPUT, SUPER, TENANT_RE, THIS_PREFIX } from '../extract/extract.js';
import { bindingOf } from '../extract/facts-text.js';
import { filledPath, isWildcard, pathTokens, type ScopedGuard } from '../adapters/paths.js';
import { ESCAPED_LITERAL, LITERAL_CHAR, wildcardMatches, wildcardPattern, type WildcardPattern } from './wildcards.js';
import { warnDispatchingApp } from '../adapters/dispatching.js';
import { handlerNameOf } from '../adapters/handler-name.js';
import { betterAuthOriginCheck } from '../adapters/package-handlers.js';
import { pathToRegexp } from 'path-to-regexp';
import type { AppliedGuard, Behaviour, CallFact, CallSite, Cond, CondTest, ConfigTest, Expr, FileFacts, FlagCondition, FunctionFact, GlobTest, GuardKind, GuardMechanism, ItemFilter, LeadingGuard, Loc, MethodBranch, PrefixStep, Protection, RegistrationFact, Route, SkipFor, SkipTest } from '../types.js';
import { bindingIn, boundFunction, Evaluator, exprName, fnKey, functionsByScope, inFunction, mapChildExprs, scopeOf, stringsOf, writtenCall, type Definition, type RouterObject, type Value } from './evaluate.js';
import { carried, condExprs, condKey, condLabel, decide, mapCond } from './conditions.js';
import { DirectoryListing, DIRECTORY_MODULES } from './listing.js';

export { fnKey };

export interface UnresolvedDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  snippet: string;
}

/** A registration bound to the router it is made on, with its place in registration order. */
/**
 * The method of a registration an adapter binds to an Express app only to mark a place: the
 * Express walk keeps the layers in effect there (LinkContext.layersAt), and registers nothing.
 */
export const KEEP_LAYERS = '*keep layers*';

/** The key of the layers kept at a registration's place on an app (LinkContext.layersAt). */
export function layersKey(appId: string, at: Loc): string {
  return `${appId}@${at.line}:${at.column}`;
}

export interface BoundRegistration {
  reg: RegistrationFact;
  file: string;
  router: RouterObject;
  order: (string | number)[];
  /**
   * bound through a call that may be of its function, one of an object's members read by a key
   * not known statically (CallOf.maybe): no second copy where a call certain to be binds it
   */
  maybe?: true;
}

/**
 * The column of the registration a prefix step or an applied guard comes from, when it is
 * placed there: with its line, it tells two registrations on one line apart (the branches of
 * `c ? app.use(a) : app.use(b)`) when the conditions they are made under are compared
 * (LinkContext.markConditionalGuards). Not reported: the JSON names a place by file and line.
 */
const placeColumns = new WeakMap<AppliedGuard | PrefixStep, number>();

/** No condition. */
export const EMPTY_CONDITIONS: ReadonlyMap<string, string> = new Map();

/**
 * A mount's prefix, where it is given (routePlace: the call giving the path, or the
 * registration); with `unknown`, why its head is not known statically (`prefix`: what is known after it).
 */
export function prefixStep(prefix: string, file: string, reg: RegistrationFact, unknown?: string): PrefixStep {
  const at = routePlace(file, reg);
  const step: PrefixStep = unknown === undefined ? { prefix, file: at.file, line: at.line } : { prefix, file: at.file, line: at.line, unknown };
  placeColumns.set(step, at.column);
  return step;
}

/** Where a registration's route is reported: the call giving its path or method (RegistrationFact.site), or the registration itself. */
export function routePlace(file: string, reg: RegistrationFact): { file: string; line: number; column: number; snippet: string } {
  const at = reg.site ?? { file, at: reg.at, snippet: reg.snippet };
  return { file: at.file, line: at.at.line, column: at.at.column, snippet: at.snippet };
}

/** A value flattened from a registration's arguments, with the expression and file it came from. */
export type FlatItem = { value: Value; expr: Expr; file: string };

/** A call that made a value (a factory's), and the file it is written in. */
export type FactoryCall = { file: string; call: Extract<Expr, { k: 'call' }> };

/** A `router.param(name, fn)` callback: one function it registers, and where. */
export interface ParamCallback {
  item: FlatItem;
  reg: RegistrationFact;
  file: string;
}

/** The names of the parameters a path names (`/:org/projects/:id` → org, id), in order. */
export function paramNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/**
 * A route's guards with each listed once: a layer whose path has several forms (an array, an
 * optional part) is met once per form, but a request runs it once. Entries alike in every
 * field are one guard at one registration.
 */
export function uniqueGuards(guards: AppliedGuard[]): AppliedGuard[] {
  const alike = (a: AppliedGuard, b: AppliedGuard): boolean =>
    a === b ||
    (a.line === b.line && a.name === b.name && a.file === b.file && a.mechanism === b.mechanism && a.reason === b.reason && a.kinds.join() === b.kinds.join() && a.families.join() === b.families.join());
  let out: AppliedGuard[] | null = null;
  for (let i = 0; i < guards.length; i++) {
    const g = guards[i]!;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = alike(g, guards[j]!);
    if (seen) out ??= guards.slice(0, i);
    else out?.push(g);
  }
  return out ?? guards;
}

export interface ParamRegistration {
  reg: RegistrationFact;
  file: string;
  fn: number;
  index: number;
}


/** A registration on a router, in function `fn`, that reads the function's parameters (`app.use(prefix, router)`). */
/** Made on `router` (one of several when the target is a choice) with arguments a function's parameters give. */
export type CallSiteRegistration = Omit<ParamRegistration, 'index'> & { router: RouterObject };

export type RouteDraft = Omit<Route, 'classification' | 'family' | 'contractRoute' | 'contractMatch' | 'driftReason'>;

export class LinkContext {
  /** the routes listed (addRoute) */
  readonly routes: RouteDraft[] = [];
  /** the app (the router made as one) each route is served by, when its adapter knows it */
  readonly appRoots = new Map<RouteDraft, RouterObject>();
  /** what a route's options hold in their `config`, where its adapter reads them (Fastify): a hook's test of it may hand the route's requests on (SkipFor `config`) */
  readonly routeConfig = new Map<RouteDraft, RouteConfigReader>();
  /** the apps that serve a route, those whose every route another call's instance listed already included (addRoute) */
  readonly servingApps = new Set<RouterObject>();
  /**
   * each route of an app listed, by the place the app is made, the route's method, path and
   * place (addRoute): the routes so listed, each with its content as JSON once another route
   * has the same key (most never meet one, and are never written out)
   */
  private readonly listed = new Map<string, { route: RouteDraft; json?: string }[]>();
  /**
   * Express and Koa apps served on their own (mounted in no other app), which may answer every
   * request with a middleware of theirs: each is said to serve what is not known statically when
   * no adapter lists a route of it (adapters/dispatching.ts)
   */
  readonly ownApps: RouterObject[] = [];
  readonly unresolved: UnresolvedDiagnostic[] = [];
  /** registrations per router id, sorted in registration order */
  readonly byRouter = new Map<string, BoundRegistration[]>();
  /** registrations made on a function's parameter (`function plugin(fastify) { fastify.get(…) }`), by function */
  readonly paramRegistrations = new Map<string, ParamRegistration[]>();
  /** functions whose parameter registrations were bound to a router (by a call site or an adapter) */
  readonly boundFunctions = new Set<string>();
  /**
   * Per Express app walked, the layers its registrations leave in effect after the last of them:
   * what runs before the routes a server built on the app adds itself (inversify-express-utils'
   * controllers, after its `setConfig` callback).
   */
  readonly layersAfter = new Map<string, ScopedGuard[]>();
  /**
   * Per Express app walked, the layers in effect at each registration of method KEEP_LAYERS bound
   * to it (by layersKey): what runs before the routes a package mounts at that place
   * (OvernightJS's `addControllers(…)`, adapters/overnight).
   */
  readonly layersAt = new Map<string, ScopedGuard[]>();
  /**
   * Registrations made on a function's parameter, or on the parameter of a function it hands its
   * own on to (`configureApp(app)` → `addTestRoutes(app)` → `app.post(…)`), by that function, as
   * the calls between make them (bindPropertyRegistrations): what a caller binds when it passes a
   * router, and what an adapter binds for a function a package calls (Adapter.bind).
   */
  readonly handedOn = new Map<string, PropertyRegistration[]>();

  constructor(
    readonly ev: Evaluator,
    readonly files: Map<string, FileFacts>,
    readonly matchers: GuardMatchers,
    /** the packages (apps) of the analysed tree */
    readonly project: Project = emptyProject([...files.keys()]),
    /** budgets.maxRoutes: routes listed plus mounts walked, over every adapter */
    readonly maxExpansions: number = DEFAULT_BUDGETS.maxRoutes,
  ) {}

  private expansions = 0;

  /**
   * The route-graph expansion budget. Adapters call it once per mount they walk into and
   * once per route they list; once it answers false they stop expanding. Mounts multiply
   * paths (a router under two prefixes, nested fifty deep, is 2^50 routes), so without it
   * a hostile route graph stalls the run. The first refusal is an unresolved-route warning.
   */
  expand(file: string, at: Loc, snippet: string): boolean {
    this.expansions++;
    if (this.expansions <= this.maxExpansions) return true;
    if (this.expansions === this.maxExpansions + 1)
      this.warn(file, at, `the route graph expands beyond budgets.maxRoutes (${this.maxExpansions} routes and mounts): routers mounted under several prefixes multiply; expansion stopped here, the rest of the surface is not listed`, snippet);
    return false;
  }

  /**
   * Bind a registration to the router it is made on: one whose method a computed member names
   * (`this.app[options.method](…)`) as that name, when known; one made under conditions only when
   * they can hold, the conditions not decided noted.
   */
  bindRegistration(b: BoundRegistration): void {
    if (b.reg.method === COMPUTED_METHOD) {
      const reg = this.withComputedMethod(b.file, b.reg);
      if (!reg) return;
      b = { ...b, reg };
    }
    // made under conditions: read with what this binding knows (a call's arguments, the loop's item)
    if (b.reg.when) {
      const { never, open } = decide(this.ev, b.file, b.reg.when);
      if (never) return;
      // (one reading a function's parameters, `if (opts.auth) r.use(requireSession)` in a router
      // factory, is noted once the routers are made: each call's router that stands apart reads
      // it with the call's arguments, LinkContext.atSite — noted now, it held for every one; an
      // app's calls are not told apart so, functionsTellCalls)
      const facts = this.files.get(b.file)!;
      const fixed = functionsTellCalls(b.router) ? open.filter((c) => paramsRead(facts, condExprs(c)).size === 0) : open;
      if (fixed.length > 0) this.noteConditions(b.file, b.reg, fixed);
      if (fixed.length < open.length) this.openAtParams.push({ b, open: open.filter((c) => !fixed.includes(c)) });
    }
    let list = this.byRouter.get(b.router.id);
    if (!list) this.byRouter.set(b.router.id, (list = []));
    list.push(b);
  }

  /**
   * A registration whose method a computed member names (`this.app[options.method](…)`,
   * `localFastify[method](…)` in a loop over methods) made with that name; null when the name is
   * not known statically, or names no registration (warned about: it is left out).
   */
  withComputedMethod(file: string, reg: RegistrationFact): RegistrationFact | null {
    const m = this.ev.eval(file, reg.methodExpr!);
    if (m.t !== 'str' || !REGISTRATION_METHODS.has(m.v)) {
      this.warn(file, reg.at, `a registration whose method is not known statically (${m.t === 'str' ? `'${m.v}'` : exprName(reg.methodExpr!) ?? 'an expression'}); it is left out`, reg.snippet);
      return null;
    }
    return { ...rewritten(reg, (e) => e), method: m.v };
  }

  /**
   * The routers of a framework, each once: a factory's router given to callers that register
   * nothing on it stands for itself, and is listed once; given to callers that do, each
   * caller's router is listed (its registrations the factory's and then the caller's), not the
   * factory's own. `walked`: for an adapter to walk, callers' routers made alike (alikeKey) once.
   */
  routersOf(framework: string, walked = false): RouterObject[] {
    const all = [...this.ev.routers.values()]
      .filter((r) => r.framework === framework && this.standsFor(r.id) === r.id && !this.instancesOf(r.id).some((i) => this.standsApart(i)))
      .sort((a, b) => cmp([a.file, a.at.line, a.at.column], [b.file, b.at.line, b.at.column]));
    if (!walked) return all;
    // (to walk: of callers' routers made alike, the first — the others serve the same routes)
    const keyOf = valueKeys();
    const seen = new Set<string>();
    return all.filter((r) => {
      const key = this.alikeKey(r, keyOf);
      if (key === null) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /**
   * What a caller's router standing apart from its factory's (with no options, views or
   * callers' routers of its own) is made of: each of the factory's registrations as the call
   * makes it — its place, method, arguments' values and the conditions it stays under — and
   * each of its own so. Two such routers of one factory with one key serve the same routes
   * (saltcorn's 104 tests calling `getApp({ disableCsrf: true })`); null for any other router.
   */
  private alikeKey(r: RouterObject, keyOf: (v: Value) => string): string | null {
    const factory = r.instanceOf === undefined ? undefined : this.ev.routers.get(r.instanceOf);
    if (!factory || !r.site || !sameInit(r.init, factory.init) || this.viewsOf(r.id).length > 0 || this.instancesOf(r.id).length > 0) return null;
    const regKey = (file: string, reg: RegistrationFact): string =>
      `${file}:${reg.at.line}:${reg.at.column}:${reg.method}(${argExprs(reg).map((a) => keyOf(this.ev.eval(file, a))).join(',')})[${decide(this.ev, file, reg.when ?? []).open.map((c) => `${condKey(c, file)} ${condLabel(c)}`).join('&')}]`;
    const made = this.atSite(r).map(({ b, made }) => (made === null ? '' : made.map((reg) => regKey(b.file, reg)).join(';')));
    const own = (this.byRouter.get(r.id) ?? []).map((b) => regKey(b.file, b.reg));
    return `${factory.id}\0${made.join('|')}\0${own.join('|')}`;
  }

  registrationsOf(routerId: string): BoundRegistration[] {
    const own = this.byRouter.get(routerId) ?? [];
    const r = this.ev.routers.get(routerId);
    if (r?.instanceOf === undefined) return own;
    return [...this.inheritedBy(r), ...own].sort((a, b) => cmp(a.order, b.order));
  }

  /**
   * A factory's registrations as one call's router gets them: those that read the factory's
   * parameters made with the call's arguments (`statusRouter('/v1')` of a factory registering
   * `` `${prefix}/status` `` serves /v1/status), when the call is known (RouterObject.site).
   */
  private inheritedBy(r: RouterObject): BoundRegistration[] {
    return this.atSite(r).flatMap(({ b, made }) => (made ? made.map((reg) => ({ ...b, reg })) : [b]));
  }

  /**
   * Each of the factory's registrations, with those that read its parameters as the call that
   * got `r` makes them (`made`: none when a condition on its arguments fails; `dropped`, some
   * were), once per router: what it inherits and whether it stands apart both read this.
   */
  private atSite(r: RouterObject): { b: BoundRegistration; made: RegistrationFact[] | null; dropped: boolean }[] {
    let done = this.atSites.get(r.id);
    if (done) return done;
    const site = r.site;
    const constructed = r.constructed;
    const inherited = this.registrationsOf(r.instanceOf!);
    // (registrations the class writes at places where this `new` made one of its own)
    const placeOf = (b: BoundRegistration): string => `${b.file}:${b.reg.at.line}:${b.reg.at.column}`;
    const atNew = constructed ? inherited.map((b) => this.madeAtNew(b, constructed)) : [];
    const ownAt = new Set(inherited.filter((_, i) => atNew[i] === 'this').map(placeOf));
    done = inherited.map((b, i) => {
      if (constructed) {
        const at = atNew[i]!;
        if (at === 'another' && ownAt.has(placeOf(b))) return { b, made: [], dropped: true };
        const made = at === null ? this.constructedAt(b, constructed, functionsTellCalls(r)) : null;
        if (made === null) return { b, made: null, dropped: false };
        const possible = made.filter((reg) => this.possible(b.file, reg));
        return { b, made: possible, dropped: possible.length !== 1 };
      }
      if (!site || !this.readsParamsOf(b, site)) return { b, made: null, dropped: false };
      const all = atCallSite(this.ev, b.file, b.reg, site);
      // (its tests read with this call's arguments only: a property the object it passes lacks is
      // undefined — `if (guard)` of `({ guard } = {})` called with nothing — as Fastify's plugin
      // options are; not for an app, whose calls are one app: what one call rules out another may make)
      const made = all.filter((reg) => this.possible(b.file, reg, functionsTellCalls(r)));
      return { b, made, dropped: made.length !== all.length };
    });
    this.atSites.set(r.id, done);
    return done;
  }

  private readonly atSites = new Map<string, { b: BoundRegistration; made: RegistrationFact[] | null; dropped: boolean }[]>();

  /**
   * A class's registration as the `new C(…)` that got the router (RouterObject.constructed) makes
   * it: each argument whose value is known otherwise read in that call (a path made of the
   * constructor's `mode`), read there; null when it is as the class makes it. (`functions`: a
   * function passed counts, functionsTellCalls.)
   */
  private constructedAt(b: BoundRegistration, c: NonNullable<RouterObject['constructed']>, functions: boolean): RegistrationFact[] | null {
    let changed = false;
    const args = b.reg.args.map((a) => {
      const at: Expr = { k: 'within', e: a, call: c.site };
      const there = knownValue(this.ev.eval(b.file, at), functions);
      if (there === null || there === knownValue(this.ev.eval(b.file, a), functions)) return a;
      changed = true;
      return at;
    });
    // (each field named, rewritten's: facts read back from text keep theirs on a prototype)
    return changed ? [{ ...rewritten(b.reg, (e) => e), args }] : null;
  }

  /**
   * A class's registration made at a `new` of the class (located there, RegistrationFact.site: a
   * path the call passes straight down, `new FeedbackController(config, 'users')`): at this one
   * (`c`), or at another — whose registration a router of this `new` does not hold when this one
   * made its own of it; null for any other registration.
   */
  private madeAtNew(b: BoundRegistration, c: NonNullable<RouterObject['constructed']>): 'this' | 'another' | null {
    const place = b.reg.site;
    if (!place) return null;
    const call = this.files.get(place.file)?.calls.find((x) => x.at.line === place.at.line && x.at.column === place.at.column);
    if (call?.callee.k !== 'ref' || !this.sameDefinition(place.file, call.callee, c.site.argsFile, c.callee)) return null;
    return place.file === c.site.argsFile && place.at.line === c.at.line && place.at.column === c.at.column ? 'this' : 'another';
  }

  /** Do two names, each read in its file, name the same declaration? */
  private sameDefinition(fileA: string, a: Extract<Expr, { k: 'ref' }>, fileB: string, b: Extract<Expr, { k: 'ref' }>): boolean {
    const da = this.ev.definitionOf(fileA, a.scope, a.name);
    const db = this.ev.definitionOf(fileB, b.scope, b.name);
    return !!da && !!db && da.file === db.file && da.scope === db.scope && da.name === db.name;
  }

  /**
   * Does the call that got `r` make a registration of its factory otherwise than the factory
   * alone says: not at all (a condition on its arguments fails), or with a path or a name known
   * statically where the factory's is another or none (`'/v1/status'` for `` `${prefix}/status` ``)?
   * A call whose strings are no better known (`getApp(config, …)` in every test) makes it alike,
   * whatever middleware it hands over: its routes are the factory's, listed once. A router it
   * hands over to be mounted (`startPlugin({ expressRouter })`) makes it otherwise: it adds routes.
   */
  private madeOtherwise(r: RouterObject): boolean {
    const functions = functionsTellCalls(r);
    return this.atSite(r).some(({ b, made, dropped }) => {
      if (made === null) return false;
      if (dropped) return true;
      const own = argExprs(b.reg).map((a) => knownValue(this.ev.eval(b.file, a), functions));
      return made.some((reg) => {
        const at = argExprs(reg).map((a) => knownValue(this.ev.eval(b.file, a), functions));
        return at.length !== own.length || at.some((k, i) => k !== null && k !== own[i]);
      });
    });
  }

  /** Does the registration read a parameter of the function `site` calls (written in it)? */
  private readsParamsOf(b: BoundRegistration, site: CallSite): boolean {
    return b.file === site.file && paramsRead(this.files.get(b.file)!, [...argExprs(b.reg), ...(b.reg.when ?? []).flatMap(condExprs)]).has(site.fn);
  }

  /** The routers callers got from a factory that makes `routerId` afresh (RouterObject.instanceOf). */
  private instancesOf(routerId: string): string[] {
    // (made again once more routers are: a factory's callers' routers are made as calls are read)
    if (this.instances === null || this.instancesMadeOf !== this.ev.routers.size) {
      this.instances = new Map();
      this.instancesMadeOf = this.ev.routers.size;
      for (const r of this.ev.routers.values()) if (r.instanceOf !== undefined) this.instances.set(r.instanceOf, [...(this.instances.get(r.instanceOf) ?? []), r.id]);
    }
    return this.instances.get(routerId) ?? [];
  }

  private instances: Map<string, string[]> | null = null;
  private instancesMadeOf = 0;

  /**
   * A factory's router (or a router class's) whose callers' routers are mounted (`mounted`):
   * served through them, with their options, not on its own — not a router never mounted.
   */
  servedThroughInstances(routerId: string, mounted: ReadonlySet<string>, depth = 0): boolean {
    return depth < 64 && this.instancesOf(routerId).some((i) => mounted.has(i) || this.servedThroughInstances(i, mounted, depth + 1));
  }

  /**
   * A caller's router with registrations of its own or made with other options than the
   * factory's (`createRouter('/v2')` of `(prefix) => new Router({ prefix })`), or one whose
   * callers' routers are, or a view of which is (`getApp()` of `() => new Hono().basePath('/api')`:
   * the caller registers on the view of its own router).
   */
  private standsApart(routerId: string, depth = 0): boolean {
    const r = this.ev.routers.get(routerId);
    const factory = r?.instanceOf === undefined ? undefined : this.ev.routers.get(r.instanceOf);
    if ((this.byRouter.get(routerId)?.length ?? 0) > 0 || (r && factory && !sameInit(r.init, factory.init))) return true;
    // (a factory whose routes the call's arguments make other than its own: each call's apart)
    if ((r?.site || r?.constructed) && factory && this.madeOtherwise(r)) return true;
    if (depth >= 64) return false;
    if (r?.instanceOf !== undefined && this.viewsOf(routerId).some((v) => this.standsApart(v, depth + 1))) return true;
    return this.instancesOf(routerId).some((i) => this.standsApart(i, depth + 1));
  }

  /** The views made of a router (RouterInit.derivedFrom: `app.basePath('/api')`). */
  private viewsOf(routerId: string): string[] {
    if (this.views === null || this.viewsMadeOf !== this.ev.routers.size) {
      this.views = new Map();
      this.viewsMadeOf = this.ev.routers.size;
      for (const r of this.ev.routers.values()) if (r.init.derivedFrom !== undefined) this.views.set(r.init.derivedFrom, [...(this.views.get(r.init.derivedFrom) ?? []), r.id]);
    }
    return this.views.get(routerId) ?? [];
  }

  private views: Map<string, string[]> | null = null;
  private viewsMadeOf = 0;

  /** The router a router value stands for once registrations are bound: a caller's router without registrations or options of its own is the factory's. */
  standsFor(routerId: string): string {
    let r = this.ev.routers.get(routerId);
    for (let i = 0; r?.instanceOf !== undefined && i < 64 && !this.standsApart(r.id); i++) r = this.ev.routers.get(r.instanceOf);
    return r?.id ?? routerId;
  }

  /**
   * Registrations are bound: router values stand for the routers adapters walk (`standsFor`),
   * also those of factory calls first evaluated from now on.
   */
  settle(): void {
    this.instances = null;
    this.views = null;
    this.ev.settle((id) => this.standsFor(id));
  }

  private readonly params = new Map<string, Map<string, ParamCallback[]>>();

  /** `router.param(name, fn)` on a router (Express, @koa/router): the callbacks by parameter name, in registration order. */
  paramCallbacks(routerId: string): Map<string, ParamCallback[]> {
    let byName = this.params.get(routerId);
    if (byName) return byName;
    byName = new Map();
    this.params.set(routerId, byName);
    for (const b of this.registrationsOf(routerId)) {
      if (b.reg.method !== 'param' || b.reg.args.length < 2) continue;
      const name = this.ev.eval(b.file, b.reg.args[0]!);
      if (name.t !== 'str') continue;
      for (const item of this.ev.flatten(b.file, b.reg.args.slice(1))) byName.set(name.v, [...(byName.get(name.v) ?? []), { item, reg: b.reg, file: b.file }]);
    }
    return byName;
  }

  /**
   * A route registration whose last function passes the request on (`next()`): a layer the
   * later routes matching its path and method run behind (`app.all('/api/*', requireAuth)`,
   * Express and @koa/router alike). Its guards for those routes, and whether it also serves —
   * when that last function answers and is no guard (a handler that sometimes defers), or answers
   * before it passes on (`ctx.body = …; return next()`), and then only its guards, not an
   * unclassified handler, are layers. Null when the last function never passes on.
   * `verb`: the registration is a route by its framework's word (@koa/router's `router.get`,
   * koa-route's `route.get`: routes end `return next()` there, for the middleware after them),
   * so a last function that is no guard serves even when the answer is written by a function it
   * hands the context to (`await submitInteraction(interaction, ctx); return next()`) — `byVerb`
   * when only that makes it serve (it sends nothing itself).
   */
  passThrough(items: FlatItem[], at: Loc, verb = false): { guards: AppliedGuard[]; serves: boolean; byVerb?: true } | null {
    const last = items[items.length - 1]?.value;
    const f = last?.t === 'fn' ? this.ev.fnOf(last.file, last.fn) : undefined;
    // (`router.post('/', upload.single('file'))`: a package's middleware that always hands on; a
    // package's guard handing on whatever it lets through, `app.get('/api/Users', expressjwt(…))`)
    const packaged = !!last && (passingPackageMiddleware(last) || handsOnPackageGuard(last));
    if (!packaged && !f?.behaviour.passesOn) return null;
    const guards = items.map((it) => this.guard(it.file, it.expr, it.value, 'pass-through-route', at));
    if (packaged || !f) return { guards: guards.filter((g): g is AppliedGuard => g !== null), serves: false };
    const unclassified = (g: AppliedGuard | null): boolean => !g || g.kinds.every((k) => k === 'unknown');
    // (one that answers and then hands on, `ctx.body = …; return next()`, serves whatever it checked
    // first; one whose only answers are errors handed on or thrown serves nothing itself)
    const answers = f.behaviour.sendsResponse && !f.behaviour.answersOnlyErrors;
    const serves = (answers && f.behaviour.answersThenHandsOn === true) || ((answers || verb) && unclassified(guards[guards.length - 1]!));
    const kept = guards.filter((g): g is AppliedGuard => g !== null && !(serves && unclassified(g)));
    return serves && !answers ? { guards: kept, serves, byVerb: true } : { guards: kept, serves };
  }

  /**
   * The last function of a route registration handing on (passThrough), when it is the app's own
   * and no guard (none, or of unknown kind only): the registration is a route when no route listed
   * after it runs behind it — that function runs for the requests it matches, and what follows
   * answers (a middleware, the framework's 404). A guard or a package's middleware serves nothing
   * of the app's there (the Express and Hono adapters).
   */
  handsOnAsHandler(it: FlatItem, at: Loc): boolean {
    if (it.value.t !== 'fn') return false;
    const g = this.guard(it.file, it.expr, it.value, 'route-middleware', at);
    return !g || g.kinds.every((k) => k === 'unknown');
  }

  /**
   * What the function `fn` of the analysed code returns, as written, when its file imports a
   * module `imported` names; none otherwise. Reading a function's returns makes the kept result
   * depend on them (relocate.ts), so what a handler returns is read only where it can make the
   * package's endpoint an adapter looks for (a tRPC fetch handler, next-auth's handler).
   */
  returnsWhereImported(fn: Extract<Value, { t: 'fn' }>, imported: (source: string) => boolean): readonly Expr[] {
    return this.files.get(fn.file)?.imports.some((i) => imported(i.source)) ? this.ev.returnsOf(fn.file, fn.fn) : [];
  }

  /** An unresolved-route warning (reported once per place and message, as every finding: engine.ts). */
  warn(file: string, at: Loc, message: string, snippet: string): void {
    this.unresolved.push({ file, line: at.line, column: at.column, message, snippet });
  }

  /** A warning about the route a registration makes: where the route would be reported (routePlace). */
  warnRoute(file: string, reg: RegistrationFact, message: string): void {
    const { file: f, line, column, snippet } = routePlace(file, reg);
    this.unresolved.push({ file: f, line, column, message, snippet });
  }

  /**
   * Classify a middleware / guard use into an applied guard; null for known non-guards. `madeBy`:
   * the call that made the value, when `expr` does not lead to it (a Next.js handler's wrapper,
   * `export default withZipline(handler, { user: true })`, is named by its callee).
   */
  guard(file: string, expr: Expr, value: Value, mechanism: GuardMechanism, at: Loc, matchName?: string, madeBy?: FactoryCall): AppliedGuard | null {
    // a middleware a call passes for a parameter (`mount('/api', requireSession, api)`): as written there
    if (expr.k === 'at') return this.guard(expr.file, expr.e, value, mechanism, at, matchName, madeBy);
    if (expr.k === 'choice' && value.t === 'unknown') {
      const chosen = this.chosenGuard(file, expr, mechanism, at, matchName);
      if (chosen !== undefined) return chosen;
    }
    const inner = this.wrappedMiddleware(file, expr, value);
    if (inner && expr.k === 'ref') {
      // `const protect = asyncHandler(async (req, res, next) => …)`: the function wrapped, named as used
      const g = this.guard(inner.file, inner.expr, inner.value, mechanism, at, matchName ?? expr.name);
      if (!g) return null;
      const named = this.placed(g, file, g.line);
      named.name = expr.name;
      return named;
    }
    if (inner) return this.guard(inner.file, inner.expr, inner.value, mechanism, at);
    const fnName = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn)?.name ?? null : null;
    const name = this.calledName(file, expr, fnName) ?? (value.t === 'pkg' ? [value.pkg, ...value.path].join('.') : '(inline middleware)');
    // `createMiddleware(async (c, next) => …)` (hono/factory) is the function it is given.
    if (value.t === 'pkg' && value.called && value.pkg === 'hono/factory' && value.path.join('.') === 'createMiddleware' && value.args[0]?.t === 'fn') value = value.args[0];
    let c = classifyGuard(matchName ?? name, value, this.ev, this.matchers);
    // A layer authenticates by what it does, whatever the status it answers, when it ends the
    // request first when the request has no signed-in user (`if (!res.locals.user) { res.send(…);
    // return }`), or when verifying the request's token throws (`try { … await verifyJWT(request.jwt,
    // secret) } catch (e) { throw ERRORS.AccessDenied(…) }`). (A route's own function doing so is a
    // handler checking for itself, `inHandlerGuards`, not a layer.)
    const f = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn) : undefined;
    if (f && mechanism !== 'pass-through-route' && !c.kinds.includes('auth') && !c.kinds.includes('nonguard')) {
      const fn = value as { file: string; fn: number };
      // (read on past its own answers to requests by their URL alone, which keep those from the route)
      const led = (mechanism === 'in-handler' ? undefined : f.leadingPastServed) ?? f.leading;
      const signedIn = led.some((lg) => signedInCheck(this.ev, fn, lg));
      const verified = signedIn ? undefined : led.map((lg) => tokenVerification(this.ev, fn.file, lg)).find((n) => n !== null);
      // (or when a lookup by the credential the request carries finds nothing, whatever the status:
      // AnythingLLM's `validDeviceToken`, `MobileDevice.get({ token })` of the device-token header, 400)
      // (one named for CSRF checks the request's CSRF token, `if (!csrf.validate(req, req.body._csrf))
      // return res.status(403)…`: no caller's credential — a CSRF check, below)
      const lookups = led.filter((lg) => lg.credential && lg.callee && !lg.endedVia && (lg.refusal || (lg.userVia && !signedInCheck(this.ev, fn, lg))));
      const csrfLookup = (lg: LeadingGuard): boolean => this.matchers.csrf(exprName(lg.callee!) ?? '');
      const looked = signedIn || verified ? undefined : lookups.find((lg) => !csrfLookup(lg));
      const lookedName = looked ? (exprName(looked.callee!) ?? 'a lookup') : null;
      // (or when the credential it reads from a request header differs from the one stored for
      // what the request asks for: Lighthouse CI's `validateAdminTokenMiddleware`, LeadingGuard.inline 'token')
      const stored = signedIn || verified || looked ? false : led.some((lg) => lg.inline === 'token');
      const byBehaviour = signedIn
        ? 'by behaviour (ends the request first when the request has no signed-in user)'
        : verified
          ? `by behaviour (ends the request when ${verified}() throws on what the request carries)`
          : lookedName
            ? `by behaviour (ends the request first when ${lookedName}() finds nothing for the credential the request carries)`
            : stored
              ? 'by behaviour (ends the request first when the credential the request carries in a header differs from the one stored for it)'
              : null;
      if (byBehaviour) {
        const known = c.kinds.filter((k) => k !== 'unknown');
        // (the token verified taken from a request header only: a credential no browser sends by itself)
        const bearer: GuardKind[] = (verified && headerCredentialOf(this.ev, value)) || looked?.credential === 'header' || stored ? ['bearer'] : [];
        const reason = bearer.length > 0 ? `${byBehaviour.slice(0, -1)}; reads its credential from a request header only)` : byBehaviour;
        c = { kinds: ['auth', ...bearer, ...known], families: c.families, reason: known.length > 0 ? `${c.reason}; ${reason}` : reason };
      }
      const token = c.kinds.includes('csrf') ? undefined : lookups.find(csrfLookup);
      if (token) {
        const known = c.kinds.filter((k) => k !== 'unknown');
        const reason = `by behaviour (ends the request first when ${exprName(token.callee!)}() rejects the token the request carries)`;
        c = { kinds: orderKinds(new Set([...known, 'csrf'])), families: c.families, reason: known.length > 0 ? `${c.reason}; ${reason}` : reason };
      }
    }
    // An authentication layer whose credential is what the checks it leads with take: node-red's
    // `needsPermission(p)`, answering 401 itself after `passport.authenticate(['bearer'], { session:
    // false })(req, res, () => …)` — a bearer guard when every check of who calls that it leads with
    // takes a credential no browser sends by itself. (Those checks are judged `in-handler`, which
    // reads no further.)
    if (f && mechanism !== 'in-handler' && mechanism !== 'pass-through-route' && c.kinds.includes('auth') && !c.kinds.includes('bearer')) {
      const led = this.inHandlerGuards(value, undefined, { depth: 0 }).filter((s) => s.kinds.includes('auth'));
      if (led.length > 0 && led.every((s) => s.kinds.includes('bearer')))
        c = { ...c, kinds: orderKinds(new Set([...c.kinds, 'bearer'])), reason: `${c.reason}; bearer: it leads with ${[...new Set(led.map((s) => s.name))].join(', ')} (${led[0]!.reason})` };
    }
    // what a package or the calls of its body make of it, and the requests it lets through untouched
    const ex = exceptionsOf(this.ev, value, f);
    if (ex?.c) c = ex.c;
    // (`if (!config.authEnabled) return next()` first: off where the test holds — always, when it
    // surely does; only where it fails, a condition, when that is not known statically)
    const off = f?.behaviour.switchedOff && value.t === 'fn' && c.kinds.some((k) => GUARDING.has(k)) ? this.switchDecided(file, expr, value, f.behaviour.switchedOff, madeBy) : null;
    const switchedOn = off && off.open.length > 0 ? negatedText(f!.behaviour.switchedOff!.text) : null;
    const passes = f?.behaviour.passesAnonymous === true || (off !== null && !off.never && off.open.length === 0);
    const handedOn = !passes && f ? this.handsOnFirst(value as { file: string; fn: number }, f) : null;
    const swallowed = !passes && !handedOn && c.kinds.includes('auth') && this.swallowsAll(file, expr, value, madeBy);
    if (c.kinds.includes('auth') && (passes || handedOn || swallowed || this.never401(file, expr, value, madeBy))) {
      const kinds = c.kinds.filter((k) => k !== 'auth' && k !== 'bearer');
      const reason = passes
        ? off
          ? `optional authentication: it hands every request on (next()) unchecked, as ${f!.behaviour.switchedOff!.text} holds`
          : 'optional authentication: it hands a request without the credential on (next()) unchecked'
        : handedOn
          ? `optional authentication: it first lets ${handedOn}() hand the request on (next()), which refuses nothing`
          : swallowed
            ? 'optional authentication: the arguments of the factory that made it let go what its check throws'
            : 'optional authentication: the arguments of the factory that made it turn off every 401 it can send';
      c = { kinds: kinds.length > 0 ? kinds : ['session'], families: c.families, reason };
    }
    // one whose exceptions cannot be read is only a candidate
    const skips = ex?.skips;
    if (skips === null && c.kinds.some((k) => k !== 'nonguard' && k !== 'session'))
      c = { kinds: ['unknown'], families: [], reason: `${c.reason}, with exceptions (${ex!.what}) not known statically` };
    if (c.kinds.length === 1 && (c.kinds[0] === 'nonguard' || c.kinds[0] === 'session')) return null;
    const applied: AppliedGuard = { name, kinds: c.kinds, families: c.families, reason: c.reason, mechanism, file, line: at.line, ...(skips === null && c.kinds[0] === 'unknown' ? { exceptionsUnknown: true as const } : {}) };
    placeColumns.set(applied, at.column);
    if (switchedOn !== null && !passes) {
      applied.when = switchedOn;
      this.chosen = true;
    }
    // (a candidate still lets through what the exceptions known statically let through)
    const known = skips ?? (applied.exceptionsUnknown ? ex?.known : undefined);
    if (known) this.skips.set(applied, known);
    return applied;
  }

  /**
   * Is `e` the request `handler` is handed, by its name or a local's given it (`const
   * reqWithLogger = req as RequestWithLogger`)? Not a value read off it (`c.get('config')`).
   */
  private namesRequest(handler: { file: string; fn: number }, e: Expr, depth: number): boolean {
    if (e.k !== 'ref' || depth > 4) return false;
    const d = this.ev.definitionOf(handler.file, e.scope, e.name);
    if (!d || d.file !== handler.file) return false;
    if (d.expr.k === 'param') return d.expr.fn === handler.fn && d.expr.index === 0;
    return this.namesRequest(handler, d.expr, depth + 1);
  }

  /**
   * The name a guard called as `expr` (in `file`) goes by: as written, but a parameter standing
   * for a named function (`middleware` of `withMiddleware(handler, authMiddleware)` read at its
   * call) by that function's name.
   */
  private calledName(file: string, expr: Expr, fnName: string | null): string | null {
    const param = expr.k === 'ref' && fnName !== null && this.ev.definitionOf(file, expr.scope, expr.name)?.expr.k === 'param';
    return (param ? fnName : exprName(expr)) ?? fnName;
  }

  /**
   * `if (!this.handleMissingToken(req, res, next)) return;` leading a middleware, of a function
   * that hands the request on (`next()`) and answers none (`if (!req.headers['x-auth-token']) {
   * next(); return false }`): the requests it lets go on skip every check after it. The name the
   * middleware calls it by, or null.
   */
  private handsOnFirst(fn: { file: string; fn: number }, f: FunctionFact): string | null {
    const first = f.leading[0];
    if (!first?.endedBy || first.inline || !first.callee) return null;
    const v = this.ev.eval(fn.file, first.callee);
    const b = v.t === 'fn' ? this.ev.fnOf(v.file, v.fn)?.behaviour : undefined;
    return b && b.callsNext && !b.sendsResponse && !b.status401 ? (exprName(first.callee) ?? 'the function called') : null;
  }

  /**
   * `allowSharedLinksPublic ? (req, res, next) => next() : requireJwtAuth` (LibreChat's share
   * route), a test not decided statically: the middleware of each branch runs only when the code
   * takes that branch. One branch's guard, the other's none: that guard, under the branch's
   * condition (a conditional guard, which guards nothing for the rules). Two guards (`ldapAuth ?
   * requireLdapAuth : requireLocalAuth`): either, whichever is taken, of the kinds both are.
   * Undefined for two guards of no kind in common: the choice is then one middleware not known.
   */
  private chosenGuard(file: string, expr: Extract<Expr, { k: 'choice' }>, mechanism: GuardMechanism, at: Loc, matchName?: string): AppliedGuard | null | undefined {
    const q = expr.text.indexOf(' ? ');
    const test = q > 0 ? expr.text.slice(0, q) : expr.text;
    const [then, otherwise] = [expr.then, expr.otherwise].map((e) => this.guard(file, e, this.ev.eval(file, e), mechanism, at, matchName));
    if (!then || !otherwise) {
      const g = then ?? otherwise;
      if (!g) return null;
      g.when = then ? test : `!(${test})`;
      this.chosen = true;
      return g;
    }
    const families = then.families.filter((f) => otherwise.families.includes(f));
    const kinds = then.kinds.filter((k) => otherwise.kinds.includes(k) && (k !== 'family' || families.length > 0));
    if (kinds.length === 0 || kinds.includes('unknown')) return undefined;
    then.kinds = kinds;
    then.families = families;
    then.name = `${then.name} or ${otherwise.name}`;
    then.reason = `either, as ${test} decides: ${then.reason}; ${otherwise.reason}`;
    return then;
  }

  /**
   * A guard whose function leaves its checks to the functions it calls (a NestJS guard's
   * `canActivate(context) { const req = …getRequest(); this.auth.assertSignedIn(req); return true }`,
   * or `return this.auth.validate(req)`): what the guards among its leading statements and the
   * call it returns are (`leadingGuard`, each judged on its own and shown by what it does, as a
   * layer's checks are: FollowRequest.shown), named `name`; null when none is.
   * With `verdict` (`canActivate`, whose false answer Nest refuses with 403), also the function
   * whose answer it returns (verdictGuard); not for a middleware's `use`, whose answer is nothing.
   */
  delegatedGuard(file: string, name: string, fn: Value, mechanism: GuardMechanism, at: Loc, verdict: boolean): AppliedGuard | null {
    const f = fn.t === 'fn' ? this.ev.fnOf(fn.file, fn.fn) : undefined;
    // (the requests it hands on when they carry no credential, or a first call hands on, skip
    // the checks after it: passesAnonymous, handsOnFirst)
    if (fn.t !== 'fn' || !f || f.behaviour.passesAnonymous || this.handsOnFirst(fn, f)) return null;
    const returned = this.ev.returnsOf(fn.file, fn.fn).flatMap((r): LeadingGuard[] => (r.k === 'call' ? [{ callee: r.callee, args: r.args, at: r.at }] : []));
    const led = [
      ...f.leading.flatMap((lg) => this.leadingGuard(fn, lg, true) ?? []),
      ...returned.flatMap((lg) => this.leadingGuard(fn, lg, true) ?? (verdict ? this.verdictGuard(fn.file, lg) : null) ?? []),
    ].filter((g) => !g.kinds.includes('unknown'));
    if (led.length === 0) return null;
    const kinds = new Set(led.flatMap((g) => g.kinds));
    const families = new Set(led.flatMap((g) => g.families));
    const reason = `by behaviour (it calls ${led.map((g) => `${g.name}(): ${g.reason}`).join('; ')})`;
    const applied: AppliedGuard = { name, kinds: orderKinds(kinds), families: [...families].sort(), reason, mechanism, file, line: at.line };
    placeColumns.set(applied, at.column);
    return applied;
  }

  /**
   * `return this.members.isMember(request)` in a NestJS guard's `canActivate`: Nest answers 403
   * when the answer is false, so the function whose answer it returns checks the tenant when it
   * compares one, and the signed-in user when it reads the session; null for any other.
   */
  private verdictGuard(file: string, lg: LeadingGuard): AppliedGuard | null {
    const v = this.ev.eval(file, lg.callee!);
    const b = v.t === 'fn' ? this.ev.fnOf(v.file, v.fn)?.behaviour : undefined;
    const kind: GuardKind | null = b?.comparesTenant ? 'tenant' : b?.readsSession ? 'auth' : null;
    if (!kind) return null;
    const does = kind === 'tenant' ? 'compares the tenant' : 'reads the session';
    const name = exprName(lg.callee!) ?? 'the function called';
    return { name, kinds: [kind], families: [], reason: `by behaviour (it ${does}, and canActivate returns its answer: Nest answers 403 when that is false)`, mechanism: 'in-handler', file, line: lg.at.line };
  }

  /** Guards that let some requests through untouched (an allowlist at the top of their body, `.unless()`). */
  private readonly skips = new WeakMap<AppliedGuard, Skip[]>();

  /** The mount paths guards are applied below, where the paths their allowlists read are relative to them. */
  private readonly bases = new WeakMap<AppliedGuard, string>();

  /**
   * A guard applied below a mount path that the request's path, as its allowlist reads it, does
   * not hold (Express's `req.path` in `app.use('/api', guard)` is `/login` for `/api/login`).
   */
  mountedAt(g: AppliedGuard, base: string): AppliedGuard {
    if (base !== '' && base !== '/') this.bases.set(g, base);
    return g;
  }

  /**
   * A guard that lets through untouched the request paths `patterns` match (regular expressions
   * over the whole request path: hono/combine's `except('/api/public/*', bearerAuth(…))`), with
   * what it let through already; when they are not known statically (null), a candidate whose
   * exceptions (`what`) are not known.
   */
  lettingThrough(g: AppliedGuard, patterns: { source: string; label: string }[] | null, what: string): AppliedGuard {
    const copy = this.placed(g, g.file);
    if (patterns === null) return Object.assign(copy, { kinds: ['unknown'], families: [], reason: `${g.reason}, with exceptions (${what}) not known statically`, exceptionsUnknown: true as const });
    this.skips.set(copy, [...(this.skips.get(g) ?? []), ...patterns.map((p) => ({ pattern: p.source, flags: '', label: p.label }))]);
    return copy;
  }

  /** A guard as applied elsewhere than where it was classified (the registration's file, a decorator's line): a copy that keeps its allowlist. */
  placed(g: AppliedGuard, file: string, line = g.line): AppliedGuard {
    const copy = { ...g, file, line };
    const skips = this.skips.get(g);
    if (skips) this.skips.set(copy, skips);
    const base = this.bases.get(g);
    if (base !== undefined) this.bases.set(copy, base);
    const column = line === g.line ? placeColumns.get(g) : undefined;
    if (column !== undefined) placeColumns.set(copy, column);
    return copy;
  }

  /**
   * Drop, from each route, the guards that let some request to it through (skipsRoute): an
   * allowlist naming its full path (and its method, when one is named), `.unless()` naming its
   * method or an extension it can end in. Called once every adapter has listed its routes.
   */
  dropSkippedGuards(): void {
    for (const r of this.routes) {
      const skipped: AppliedGuard[] = [];
      const kept = r.guards.filter((g) => {
        const base = this.bases.get(g);
        const config = this.routeConfig.get(r);
        const skip = (this.skips.get(g) ?? []).find((s) => skipsRoute(s, r, base, config));
        // (a route matched in any case, which every request passes the test for in the case written: one in another case does not)
        const anyCase = skip && 'except' in skip && !r.caseSensitive && coveredBy(skip.except, { ...r, caseSensitive: true }, base, config);
        if (skip) skipped.push({ ...g, skips: anyCase ? `${skip.label}, in the case written (the route is matched in any case)` : skip.label });
        return !skip;
      });
      if (skipped.length === 0) continue;
      r.guards = kept;
      r.skippedGuards = skipped;
    }
  }

  /**
   * The conditions not decided statically that registrations are made under, by the place of
   * the registration (`file:line:column`, and `file:line` for what names only a line): each
   * condition by its key (condKey) with its label.
   */
  private readonly conditionsAt = new Map<string, Map<string, string>>();
  /** a guard chosen by a test not decided statically was made (chosenGuard): it is conditional wherever it is applied */
  private chosen = false;

  /** Registrations bound under conditions reading a function's parameters, not decided (bindRegistration). */
  private readonly openAtParams: { b: BoundRegistration; open: Cond[] }[] = [];

  /**
   * The conditions reading a function's parameters that registrations were bound under, noted
   * once the routers callers get from factories are made: on a router no call's router stands
   * apart from (the router walked), as they are; on a factory's router served through its
   * callers' only, not (each reads them with its call's arguments).
   */
  noteConditionsAtParams(): void {
    for (const { b, open } of this.openAtParams) if (!this.instancesOf(b.router.id).some((i) => this.standsApart(i))) this.noteConditions(b.file, b.reg, open);
    this.openAtParams.length = 0;
  }

  /** A registration bound to a router is made under these conditions, not decided statically. */
  noteConditions(file: string, reg: RegistrationFact, open: Cond[]): void {
    this.noteAt(file, reg, open.map((c) => [condKey(c, file), condLabel(c)] as const));
  }

  /**
   * The paths of a registration's path value (Evaluator's stringsOf). When the value is one of a
   * few (`legacy ? '/v1/*' : '/v2/*'`), each is taken, and the registration is noted as made
   * under the choice: what it applies at one of them runs only when the code takes that one, so
   * it guards only the routes mounted under the same choice — the same test giving the same
   * paths (markConditionalGuards).
   */
  pathsOf(file: string, reg: RegistrationFact, v: Value): string[] | null {
    const paths = stringsOf(v);
    if (paths && v.t === 'unknown') this.noteAt(file, reg, [[v.choice ?? `${file}:${reg.at.line}:${reg.at.column}`, `${v.why} takes its path`]]);
    return paths;
  }

  private noteAt(file: string, reg: RegistrationFact, conds: (readonly [string, string])[]): void {
    const places = [{ file, at: reg.at }, ...(reg.site ? [reg.site] : [])].flatMap((p) => [`${p.file}:${p.at.line}`, `${p.file}:${p.at.line}:${p.at.column}`]);
    for (const place of places) {
      let at = this.conditionsAt.get(place);
      if (!at) this.conditionsAt.set(place, (at = new Map()));
      for (const [key, label] of conds) at.set(key, label);
    }
  }

  /**
   * Whether a registration of `file` may be made, as far as its conditions tell (false under one
   * known to fail); notes those no call can decide (they read no parameter), which hold wherever
   * it is bound, also where no binding notes it (a Fastify plugin's registrations on its
   * instance). An adapter that reads a registration from the facts itself (Nest's `forRoutes`,
   * made on no router) asks for it here.
   */
  possible(file: string, reg: RegistrationFact, absentFalse = false): boolean {
    if (!reg.when) return true;
    const { never, open } = decide(this.ev, file, reg.when, absentFalse);
    if (never) return false;
    const facts = this.files.get(file)!;
    const fixed = open.filter((c) => paramsRead(facts, condExprs(c)).size === 0);
    if (fixed.length > 0) this.noteConditions(file, reg, fixed);
    return true;
  }

  /** The conditions noted at a registration, not decided statically (by key, with their labels). */
  conditionsNoted(file: string, reg: RegistrationFact): ReadonlyMap<string, string> | undefined {
    return this.conditionsOf(file, reg.at.line, reg.at.column);
  }

  /** The conditions of a call made under some (`if (cfg.auth) setupAuth(fastify)`): null when one is known to fail, else those not decided (by key, with their labels). */
  callConditions(file: string, call: CallFact): ReadonlyMap<string, string> | null {
    if (!call.when) return EMPTY_CONDITIONS;
    return this.undecided(file, decide(this.ev, file, call.when));
  }

  /**
   * The conditions of `reg` (written in `file`) that read the parameters of the function `site`
   * calls, read with what the call passes: a Fastify plugin's `if (opts.enforce)
   * fastify.register(requireToken)`, its options those of the `register` loading it (supabase
   * storage's `enforceJwtRoles`). Null when one is known to fail, else those not decided (by key,
   * with their labels). The rest of its conditions are LinkContext.possible's.
   */
  conditionsAtCall(file: string, reg: RegistrationFact, site: CallSite): ReadonlyMap<string, string> | null {
    const facts = this.files.get(file);
    const reading = facts ? (reg.when ?? []).filter((c) => c.file === undefined && paramsRead(facts, condExprs(c)).has(site.fn)) : [];
    if (reading.length === 0) return EMPTY_CONDITIONS;
    const within = (e: Expr): Expr => (e.k === 'ref' ? readAtCall(facts!, e, site) : mapChildExprs(e, within));
    return this.undecided(file, decide(this.ev, file, reading.map((c) => mapCond(c, within)), true));
  }

  /** What `decide` left of some conditions of `file`: null when one fails, else those not decided (by key, with their labels). */
  private undecided(file: string, { never, open }: { never: boolean; open: Cond[] }): ReadonlyMap<string, string> | null {
    return never ? null : open.length === 0 ? EMPTY_CONDITIONS : new Map(open.map((c) => [condKey(c, file), condLabel(c)]));
  }

  /** The conditions noted at a place: at its column when it is known, else anywhere on its line. */
  private conditionsOf(file: string, line: number, column: number | undefined): Map<string, string> | undefined {
    return this.conditionsAt.get(column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`);
  }

  /**
   * A guard applied by a registration made under a condition not decided statically guards a
   * route only when the route itself is registered (or mounted) under the same condition
   * (`if (cfg.admin) { app.use('/admin', requireAdmin); app.use('/admin', admin) }`). Otherwise
   * the route may be served without it (`if (config.auth) app.use(requireAuth)`): it moves to
   * the route's conditional guards, with the conditions it lacks.
   */
  markConditionalGuards(): void {
    if (this.conditionsAt.size === 0 && !this.chosen) return;
    for (const r of this.routes) {
      // (most guards are applied under no condition: the route's own are gathered only for one that is)
      let own: Set<string> | null = null;
      const ownOf = (): Set<string> => {
        const keys = new Set<string>();
        for (const at of [this.conditionsOf(r.file, r.line, r.column), ...r.prefixes.map((p) => this.conditionsOf(p.file, p.line, placeColumns.get(p)))]) for (const key of at?.keys() ?? []) keys.add(key);
        return keys;
      };
      const kept: AppliedGuard[] = [];
      const conditional: AppliedGuard[] = [];
      for (const g of r.guards) {
        // (a route's own middleware is made by the route's registration, under its conditions:
        // what is noted at its line besides is another registration's — a helper's `route()`
        // registering every controller's routes on one line, Unleash's, each under its own)
        const at = g.mechanism === 'route-middleware' ? undefined : this.conditionsOf(g.file, g.line, placeColumns.get(g));
        const lacking: string[] = [];
        if (at) {
          own ??= ownOf();
          for (const [key, label] of at) if (!own.has(key)) lacking.push(label);
        }
        if (g.when) conditional.push(lacking.length === 0 ? g : { ...g, when: [g.when, ...lacking].join(' && ') });
        else if (lacking.length === 0) kept.push(g);
        else conditional.push({ ...g, when: lacking.join(' && ') });
      }
      if (conditional.length === 0) continue;
      r.guards = kept;
      r.conditionalGuards = [...(r.conditionalGuards ?? []), ...conditional];
    }
  }

  /**
   * Whether a middleware's switch (Behaviour.switchedOff) holds: decided as any condition is, or,
   * when it tests a parameter of the factory that made the middleware (`if (!opts.required) return
   * next()` in `auth(opts)`'s), by the argument that factory's call passes (`auth({ required: true
   * })`: never). `never` when it surely fails, no `open` condition when it surely holds.
   */
  private switchDecided(file: string, expr: Expr, value: Value, off: Cond, madeBy?: FactoryCall): { never: boolean; open: Cond[] } {
    const flag = flagOf(off.test);
    const decides = flag ? this.factoryDecides(file, expr, value, madeBy) : null;
    if (flag && decides) {
      if (decides(flag, conditionFalse)) return { never: true, open: [] };
      if (decides(flag, conditionHolds)) return { never: false, open: [] };
    }
    // any other test (`allowedRoles.includes(ROLES.all)` of `flexUserRoleValid([ROLES.all])`):
    // with the factory's parameters standing for the arguments of the call that made the function
    const made = value.t === 'fn' ? this.factoryOf(file, expr, madeBy) : null;
    const site: CallSite | null = made ? { file: made.factory.file, fn: made.factory.fn, argsFile: made.file, args: made.call.args } : null;
    return decide(this.ev, (value as { file: string }).file, [off], false, site);
  }

  /**
   * The call that made the value `expr` names (`madeBy`, or the one it leads to: factoryCall),
   * with the function of the code it calls; null when it calls anything else.
   */
  private factoryOf(file: string, expr: Expr, madeBy?: FactoryCall): (FactoryCall & { factory: Extract<Value, { t: 'fn' }> }) | null {
    const made = madeBy ?? this.factoryCall(file, expr, 0);
    const factory = made ? this.ev.eval(made.file, made.call.callee) : null;
    return made && factory?.t === 'fn' ? { ...made, factory } : null;
  }

  /**
   * A middleware made by a factory call whose arguments make every 401 condition false:
   * `const jwtLoose = authenticate('jwt', 'Unauthorized', false)` where the returned function
   * sends 401 only `if (!user && isStrict)`. Such a middleware authenticates when it can but
   * lets anonymous requests through.
   */
  private never401(file: string, expr: Expr, value: Value, madeBy?: FactoryCall): boolean {
    const sites = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn)?.behaviour.status401If : undefined;
    const decides = sites ? this.factoryDecides(file, expr, value, madeBy) : null;
    return !!decides && sites!.every((site) => site.some((cond) => decides(cond, conditionFalse)));
  }

  /**
   * A middleware made by a factory call whose arguments make every condition under which its
   * `catch` lets an error of its check go hold (Behaviour.swallowsIf): Outline's `auth({ optional:
   * true })`, whose `catch (err) { if (options.optional && …) ctx.state.auth = {}; else throw err }`
   * lets an anonymous request through.
   */
  private swallowsAll(file: string, expr: Expr, value: Value, madeBy?: FactoryCall): boolean {
    const conditions = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn)?.behaviour.swallowsIf : undefined;
    const decides = conditions ? this.factoryDecides(file, expr, value, madeBy) : null;
    return !!decides && conditions!.every((cond) => decides(cond, conditionHolds));
  }

  /**
   * For a function (`value`) a factory call made (`madeBy`, or the call `expr` names): whether
   * the argument the call passes for the factory's parameter a condition names, read along the
   * condition's property path, passes `test`; false for a name that is no parameter of the
   * factory. Null when no such call is known.
   */
  private factoryDecides(file: string, expr: Expr, value: Value, madeBy?: FactoryCall): ((cond: FlagCondition, test: typeof conditionFalse) => boolean) | null {
    const g = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn) : undefined;
    const made = g ? this.factoryOf(file, expr, madeBy) : null;
    if (!g || !made) return null;
    const { factory } = made;
    return (cond, test) => {
      const at = (value as { file: string }).file;
      // (a parameter's default, `(required = true) => …`, or a destructured one's, `({ optional =
      // false } = {})`: what an argument not given, or a property missing, stands for)
      const d = this.ev.definitionOf(at, g.scope, cond.name);
      const defaulted = d?.expr.k === 'fallback' && d.expr.op === '??' ? d.expr : null;
      const p = defaulted ? this.ev.eval(d!.file, defaulted.l) : this.ev.resolveName(at, g.scope, cond.name, 0);
      if (p.t !== 'param' || p.file !== factory.file || p.fn !== factory.fn) return false;
      const fallback = defaulted ? { file: d!.file, expr: defaulted.r } : d?.expr.k === 'param' && d.expr.init && !cond.path?.length && !p.path?.length ? { file: d.file, expr: d.expr.init } : undefined;
      return test(this.ev, made.file, made.call.args[p.index], [...(p.path ?? []), ...(cond.path ?? [])], cond, fallback);
    };
  }

  /**
   * A guard called in a handler with arguments that turn off every 401 it can send:
   * `parseRequest(request, schema, { skipAuth: true })` where the 401 sits under
   * `if (!options?.skipAuth && …)`.
   */
  private never401Call(file: string, value: Value, args: Expr[]): boolean {
    if (value.t !== 'fn') return false;
    const f = this.ev.fnOf(value.file, value.fn);
    const sites = f?.behaviour.status401If;
    if (!f || !sites) return false;
    return sites.every((site) =>
      site.some((cond) => {
        const p = this.ev.resolveName(value.file, f.scope, cond.name, 0);
        if (p.t !== 'param' || p.file !== value.file || p.fn !== value.fn) return false;
        return conditionFalse(this.ev, file, args[p.index], [...(p.path ?? []), ...(cond.path ?? [])], cond);
      }),
    );
  }

  /** The call that made the value an expression names: through consts, imports, object properties. */
  private factoryCall(file: string, expr: Expr, depth: number): FactoryCall | null {
    if (depth > 20) return null;
    if (expr.k === 'call') return { file, call: expr };
    // (an item of a list a function returns, read at its call: `return [auth, loginRequiredStrictly, handler]`)
    if (expr.k === 'within') return this.factoryCall(file, expr.e, depth + 1);
    if (expr.k === 'at') return this.factoryCall(expr.file, expr.e, depth + 1);
    if (expr.k === 'ref') {
      const d = this.ev.definitionOf(file, expr.scope, expr.name);
      return d && d.expr !== expr ? this.factoryCall(d.file, d.expr, depth + 1) : null;
    }
    if (expr.k === 'member') {
      const obj = this.ev.eval(file, expr.obj);
      if (obj.t === 'obj') {
        const e = Object.hasOwn(obj.props, expr.prop) ? obj.props[expr.prop] : undefined;
        return e ? this.factoryCall(obj.file, e, depth + 1) : null;
      }
      if (obj.t === 'ns') {
        const d = this.ev.definitionOf(obj.file, 0, this.files.get(obj.file)?.exports.find((x) => x.exported === expr.prop && x.local)?.local ?? expr.prop);
        return d ? this.factoryCall(d.file, d.expr, depth + 1) : null;
      }
    }
    return null;
  }

  /**
   * `asyncHandler(auth.jwt)`: a pass-through wrapper is the middleware it wraps. A wrapper is
   * an in-code function whose returned function calls the wrapper's parameter, or a call of a
   * well-known async-error wrapper (express-async-handler and its look-alikes), also when only
   * its value says so (`wrapped.list` of an object whose properties are `asyncHandler(controller[key])`).
   */
  private wrappedMiddleware(file: string, expr: Expr, value: Value): Wrapped | null {
    const layers = this.wrappedLayers(file, expr, value);
    return layers[layers.length - 1] ?? null;
  }

  /** `wrappedLayers` of a route's handler, read once for both its guards and how it is written (handlerGuards, writtenHandler). */
  private handlerLayers(handler: { file: string; expr: Expr; value: Value }): Wrapped[] {
    let layers = this.layersByHandler.get(handler);
    if (!layers) this.layersByHandler.set(handler, (layers = this.wrappedLayers(handler.file, handler.expr, handler.value)));
    return layers;
  }

  private readonly layersByHandler = new WeakMap<object, Wrapped[]>();

  /** What `wrappedMiddleware` unwraps, one wrapper at a time: each wrapped function in turn, the innermost last. */
  private wrappedLayers(file: string, expr: Expr, value: Value): Wrapped[] {
    const out: Wrapped[] = [];
    let w = this.wrappedOnce(file, expr, value, 0);
    for (let steps = 0; w && steps < 8 && out.length <= 4; steps++) {
      const last = out[out.length - 1];
      // (a package's async wrapper is unwrapped by its value first, the call staying the
      // expression, then by that call: the same function, as it is written inside the call)
      if (last && w.value.t === 'fn' && last.value.t === 'fn' && w.value.file === last.value.file && w.value.fn === last.value.fn) out[out.length - 1] = w;
      else out.push(w);
      w = this.wrappedOnce(w.file, w.expr, w.value, 0);
    }
    return out;
  }

  /** The function one pass-through wrapper wraps (wrappedMiddleware), or null. */
  private wrappedOnce(file: string, expr: Expr, value: Value, depth: number): Wrapped | null {
    if (depth > 4) return null;
    if (value.t === 'pkg' && value.called && value.path.length === 0 && ASYNC_WRAPPER_PACKAGES.has(value.pkg) && value.args[0]?.t === 'fn') return { file, expr, value: value.args[0] };
    if (expr.k === 'ref') {
      const def = this.ev.definitionOf(file, expr.scope, expr.name);
      return def && def.expr.k === 'call' ? this.wrappedOnce(def.file, def.expr, value, depth + 1) : null;
    }
    if (expr.k !== 'call') return null;
    const callee = this.ev.eval(file, expr.callee);
    if (expr.args.length === 0) return callee.t === 'fn' ? this.factoryWrapped(callee, value, depth) : null;
    let index = -1;
    if (callee.t === 'fn' && value.t === 'fn') {
      const inner = this.ev.fnOf(value.file, value.fn);
      // the leading statements' callees are called, and those the request is handed to whole
      // (`fn.apply(this, arguments)` anywhere in it); the returned expressions may contain calls
      const calls: Expr[] = inner
        ? [
            ...inner.leading.flatMap((l) => (l.callee ? [leadingCall(l.callee, l.at)] : [])),
            ...(inner.behaviour.handsTo ?? []).map((h) => leadingCall(h, inner.at)),
            ...this.ev.returnsOf(value.file, value.fn),
          ]
        : [];
      index = paramCalled(this.ev, value.file, calls, callee);
    } else if (callee.t === 'pkg' || callee.t === 'unknown') {
      if (ASYNC_WRAPPER_NAME.test(exprName(expr.callee) ?? '') || (callee.t === 'pkg' && ASYNC_WRAPPER_PACKAGES.has(callee.pkg))) index = 0;
    }
    const arg = index >= 0 ? expr.args[index] : undefined;
    if (!arg) return callee.t === 'fn' ? this.factoryWrapped(callee, value, depth) : null;
    const v = this.ev.eval(file, arg);
    if (v.t !== 'fn' && v.t !== 'pkg' && v.t !== 'unknown') return null;
    return { file, expr: arg, value: v };
  }

  /**
   * A factory that returns a wrapper's call, the middleware it makes (Gladys's
   * `AuthMiddleware(scope)`: `return asyncMiddleware(async (req, res, next) => …)`): the function
   * that call wraps, as the factory writes it. Null when no call it returns makes `value`.
   */
  private factoryWrapped(factory: Extract<Value, { t: 'fn' }>, value: Value, depth: number): Wrapped | null {
    if (value.t !== 'fn' && value.t !== 'pkg') return null;
    for (const r of this.ev.returnsOf(factory.file, factory.fn)) {
      if (r.k !== 'call') continue;
      const made = this.ev.eval(factory.file, r);
      const same = value.t === 'fn' ? made.t === 'fn' && made.file === value.file && made.fn === value.fn : made.t === 'pkg' && made.pkg === value.pkg && made.path.join('.') === value.path.join('.');
      const w = same ? this.wrappedOnce(factory.file, r, made, depth + 1) : null;
      if (w) return w;
    }
    return null;
  }

  /**
   * `if (!(await canUserAccess(type, ctx.session.id, id))) { …; return }`: the handler ends the
   * request when the check says no, and the check (an in-code function) starts by refusing when
   * the parameters given the request's user — and any credential the request carries, or
   * nothing — are missing. A request without a signed-in user or credential never gets past it.
   * `lg` is the handler's refusal (LeadingGuard.refusal) of what its callee answers.
   */
  private refusalGuard(handler: { file: string; fn: number }, lg: LeadingGuard): AppliedGuard | null {
    const { file } = handler;
    const callee = lg.callee!;
    const kinds = lg.refusal!;
    const at = lg.at;
    const v = this.ev.eval(file, callee);
    const def = v.t === 'fn' ? this.ev.fnOf(v.file, v.fn) : undefined;
    const refuses = !!def?.behaviour.refusesWhen?.some((site) =>
      site.every((c) => {
        const i = def.params.indexOf(c.name);
        return i >= 0 && (kinds[i] === undefined || kinds[i] === 'user' || kinds[i] === 'credential');
      }),
    );
    // `const auth = await getAuthenticatedAdmin(teamId); if (!auth) return 401`: what the function
    // checks by answering nothing (FunctionFact.emptyWhen), with the family its name says
    const empty = def?.emptyWhen;
    const name = exprName(callee) ?? def?.name ?? '(access check)';
    if (empty && empty.length > 0 && !refuses) {
      const family = this.familyRefusal(file, callee, v, at);
      const kinds = new Set<GuardKind>([...empty.map((c) => c.kind), ...(family?.kinds ?? [])]);
      const checks = [...new Set(empty.map((c) => (c.kind === 'auth' ? 'for a request without a signed-in user' : 'when its lookup of the tenant by the signed-in user finds nothing')))].join(', and ');
      return {
        name,
        kinds: orderKinds(kinds),
        families: family?.families ?? [],
        reason: `by behaviour (the handler ends the request when ${name}() answers nothing, as it does ${checks})${family ? `; ${family.reason}` : ''}`,
        mechanism: 'in-handler',
        file,
        line: at.line,
      };
    }
    // `if (!(await canViewWebsite(auth, websiteId))) return unauthorized()`: a function comparing the
    // tenant (Behaviour.comparesTenant: umami's permission checks, each looking the signed-in
    // user up among the team's) says no — a check of the tenant, as a Nest guard's answer is (verdictGuard)
    const tenant = v.t === 'fn' && this.comparesTenantVia(v) && this.checksCallersTenant(handler, lg.args);
    if (!tenant && (!refuses || !def)) return this.familyRefusal(file, callee, v, at);
    const family = tenant ? this.familyRefusal(file, callee, v, at) : null;
    const does = [...(refuses ? ['it says no to a request without a signed-in user or credential'] : []), ...(tenant ? ['it compares the tenant'] : [])].join(', and ');
    return {
      name,
      kinds: orderKinds(new Set<GuardKind>([...(refuses ? (['auth'] as const) : []), ...(tenant ? (['tenant'] as const) : []), ...(family?.kinds ?? [])])),
      families: family?.families ?? [],
      reason: `by behaviour (the handler ends the request when ${name}() says no, and ${does})${family ? `; ${family.reason}` : ''}`,
      mechanism: 'in-handler',
      file,
      line: at.line,
    };
  }

  /**
   * List a route, served by the app `app` (null: none made by a call, Next.js's file-system
   * routes). An app a factory makes at several calls is one app (nameApps): a route that
   * another call's instance gave alike (vendure's `bootstrap()`, called by each script taking
   * the app) is listed once; routes the calls' arguments make differ are each kept. So is one app
   * a choice makes either way (Evaluator.eitherWayOf): a route the other gave alike is listed once.
   */
  addRoute(route: RouteDraft, app: RouterObject | null): void {
    if (app) {
      this.servingApps.add(app);
      // (listed once per app: a route of the same content the app serves already adds nothing)
      const made = this.ev.routers.get(this.ev.eitherWayOf(app.id)) ?? app;
      const key = `${made.file}:${made.at.line}:${made.at.column}\0${route.method}\0${route.path}\0${route.file}:${route.line}:${route.column}`;
      const same = this.listed.get(key);
      if (same) {
        const json = JSON.stringify(route);
        if (same.some((s) => (s.json ??= JSON.stringify(s.route)) === json)) return;
        same.push({ route, json });
      } else this.listed.set(key, [{ route }]);
      this.appRoots.set(route, app);
    }
    this.routes.push(route);
  }

  /**
   * Apps of one name made in different places (the server's `const app = Fastify()` and a test
   * helper's) are each named with the file they are made in too, and the line when one file makes
   * two: `app (test/helper.ts)`. An app a factory makes at several calls is made in one place.
   */
  nameApps(): void {
    const places = new Map<string, Set<string>>();
    const placeOf = (r: RouterObject): string => `${r.file}:${r.at.line}:${r.at.column}`;
    for (const [route, root] of this.appRoots) {
      let set = places.get(route.app);
      if (!set) places.set(route.app, (set = new Set()));
      set.add(placeOf(root));
    }
    for (const route of this.routes) if (!this.appRoots.has(route) && places.has(route.app)) places.get(route.app)!.add('');
    for (const [route, root] of this.appRoots) {
      const set = places.get(route.app)!;
      if (set.size < 2) continue;
      const sameFile = [...set].filter((p) => p.startsWith(`${root.file}:`)).length > 1;
      route.app = `${route.app} (${root.file}${sameFile ? `:${root.at.line}` : ''})`;
    }
  }

  /** The behaviour of the function of the code `callee` calls (in `file`), if it is one. */
  private calleeBehaviour(file: string, callee: Expr): Behaviour | undefined {
    const v = this.ev.eval(file, callee);
    return v.t === 'fn' ? this.ev.fnOf(v.file, v.fn)?.behaviour : undefined;
  }

  /** Whether the function `callee` calls (in `file`) answers the request or throws: `response.errorForbidden(req, res)`. */
  private answers(file: string, callee: Expr): boolean {
    return this.calleeBehaviour(file, callee)?.sendsResponse === true;
  }

  /**
   * A function whose falsy result a 401 refuses, checking no caller's identity: a password
   * compared with its hash (`bcrypt.compare(req.body.password, link.password)`: a
   * password-protected link's form, or the login itself), or a signature checked
   * (`verifySignature(…)`, `verifyHmac(…)`: what a webhook's sender signs; not a token's,
   * `verifyJwtSignature(…)`, nor a session's); or an action (ACTION_NAME), run for every
   * caller, whose outcome the status reports (`const { error } = await disableOpenID(req.body);
   * if (error) return res.status(401)…` of Actual's sync-server).
   */
  private authenticatesNoCaller(file: string, callee: Expr): boolean {
    const name = exprName(callee) ?? '';
    if (WEBHOOK_CHECK_NAME.test(name) && !TOKEN_NAME.test(name)) return true;
    if (ACTION_NAME.test(callee.k === 'member' ? callee.prop : callee.k === 'ref' ? callee.name : '')) return true;
    const hashCompare = (v: Value): boolean => v.t === 'pkg' && PASSWORD_HASHING.has(v.pkg) && /^(compare|verify)(Sync)?$/.test(v.path.at(-1) ?? '');
    const v = this.ev.eval(file, callee);
    if (hashCompare(v)) return true;
    // `compare(password, user.password)` of a function of the code answering what the package's
    // compare does (`return await bcrypt.compare(password, hash)`, `false` when it throws)
    return v.t === 'fn' && this.ev.returnsOf(v.file, v.fn).some((r) => {
      const x = this.ev.eval(v.file, r);
      return x.t === 'pkg' && x.called && hashCompare(x);
    });
  }

  /**
   * `if (!(await verifySignature(rawBody, signature))) throw …`: the handler ends the request
   * when a check named for an excluded family's guard says no — a family guard by its name,
   * as a middleware of that name is (a check of anything else named so proves nothing here).
   */
  private familyRefusal(file: string, callee: Expr, v: Value, at: Loc): AppliedGuard | null {
    const g = this.guard(file, callee, v, 'in-handler', at, callee.k === 'member' ? callee.prop : undefined);
    if (!g || !g.kinds.includes('family')) return null;
    return { ...g, kinds: ['family'], reason: `by name; the handler ends the request when ${g.name}() says no` };
  }

  /**
   * The checks a function of a route that is not itself a guard (unclassified, or never ending
   * the request) starts with, when it does part of the work and hands the request on: a handler
   * stage, whose checks run before anything after it. None for optional authentication (a
   * function that hands a request without credentials on first, `passesAnonymous`). For a
   * `layer` (an app's or router's middleware, a hook), only checks shown by what they do
   * (FollowRequest.shown): a middleware's calls named for auth may only load a session that the
   * routes after it check, as unkey's Next.js proxy's `await authMiddleware(req)`. Each lets
   * through what the function lets through before them (an allowlist at the top of its body, `if
   * (request.url === '/api/health') return`), as a guard's own allowlist does; a candidate when
   * that is not known statically. With the route's `method`, a function dispatching on the
   * request's method (FunctionFact.dispatch) starts with what leads the branch that method takes:
   * Dub's `withCron` verifies a Vercel cron secret for `GET` and a QStash signature for `POST`.
   */
  stageGuards(g: AppliedGuard | null, value: Value, layer = false, written?: { file: string; expr: Expr }, method?: string): AppliedGuard[] {
    // (a guard whose exceptions are not known statically is a candidate as it is)
    if (g && (!g.kinds.includes('unknown') || g.exceptionsUnknown)) return [];
    const f = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn) : undefined;
    // (anonymous requests go on before its checks, or the factory call that made it, `written`,
    // turns off every 401 it can send or lets go what its checks throw: optional authentication,
    // as in `guard`)
    if (f?.behaviour.passesAnonymous || (f && this.handsOnFirst(value as { file: string; fn: number }, f))) return [];
    // (nor where the server's switch may hand every request on first: Behaviour.switchedOff)
    if (f?.behaviour.switchedOff && value.t === 'fn' && !decide(this.ev, value.file, [f.behaviour.switchedOff]).never) return [];
    if (written && (this.never401(written.file, written.expr, value) || this.swallowsAll(written.file, written.expr, value))) return [];
    const leading = method !== undefined && f ? branchTaken(f, method)?.leading : undefined;
    const follow = layer ? { depth: 0, shown: true as const } : { depth: 0 };
    // Read with the factory's parameters standing for what the call making the function passes:
    // `if (middleware) { const result = await middleware(req); … }` of `withMiddleware(handler,
    // authMiddleware)`. (Its call of what the wrapper wraps, `handler(req, context)`, the route's
    // handler or a middleware judged as itself, is no check of its own.)
    const made = written && f && value.t === 'fn' ? value : null;
    const sites = made ? this.madeAt(written!.file, written!.expr, made, 0) : null;
    const stage =
      made && sites
        ? this.ev.withinSites(sites, () => {
            const call = written!.expr;
            const wrapped = new Set((call.k === 'call' ? call.args : []).map((a) => this.ev.eval(written!.file, a)).flatMap((v) => (v.t === 'fn' ? [fnKey(v.file, v.fn)] : [])));
            const own = (leading ?? f!.leading).filter((lg) => {
              const v = lg.callee ? this.ev.eval(made.file, lg.callee) : null;
              return !(v?.t === 'fn' && wrapped.has(fnKey(v.file, v.fn)));
            });
            return this.inHandlerGuards(made, own, follow);
          })
        : this.inHandlerGuards(value, leading, follow);
    return this.withExceptions(stage, value, f);
  }

  /**
   * The calls through which the call `expr` (written in `file`) made the function `made`:
   * `withAuth(handler)`, then `withMiddleware(handler, authMiddleware)` it returns, when the
   * function is written in `withMiddleware`. Null when `made` is written in none of them.
   */
  private madeAt(file: string, expr: Expr, made: { file: string; fn: number }, depth: number): CallSite[] | null {
    if (expr.k !== 'call' || depth > MAX_FACTORY_DEPTH) return null;
    const callee = this.ev.eval(file, expr.callee);
    if (callee.t !== 'fn') return null;
    const site: CallSite = { file: callee.file, fn: callee.fn, argsFile: file, args: expr.args };
    const facts = this.files.get(made.file);
    const scope = facts?.functions[made.fn]?.scope;
    if (callee.file === made.file && facts && scope !== undefined && made.fn !== callee.fn && inFunction(facts, facts.scopes[scope], callee.fn)) return [site];
    for (const r of this.ev.returnsOf(callee.file, callee.fn)) {
      const inner = this.madeAt(callee.file, r, made, depth + 1);
      if (inner) return [site, ...inner];
    }
    return null;
  }

  /**
   * The checks `value` (a function) makes, `led`, with the requests its own allowlist lets
   * through before them (exceptionsOf) added to what each lets through — each a candidate when
   * that allowlist is not known statically.
   */
  private withExceptions(led: AppliedGuard[], value: Value, f: FunctionFact | undefined): AppliedGuard[] {
    const ex = led.length > 0 ? exceptionsOf(this.ev, value, f) : undefined;
    if (!ex) return led;
    return led.map((s) => {
      if (ex.skips === null) {
        const candidate: AppliedGuard = { ...s, kinds: ['unknown'], families: [], reason: `${s.reason}, with exceptions (${ex.what}) not known statically`, exceptionsUnknown: true };
        if (ex.known) this.skips.set(candidate, [...(this.skips.get(s) ?? []), ...ex.known]);
        return candidate;
      }
      this.skips.set(s, [...(this.skips.get(s) ?? []), ...ex.skips]);
      return s;
    });
  }
  /**
   * The guards a layer (an app's or router's middleware, a hook) applies: the checks it leads
   * with when it is no guard itself (stageGuards, `layer`), else itself as `place` puts it (the
   * registration's file, a mount path) — nothing when it is neither.
   */
  layerGuards(g: AppliedGuard | null, value: Value, place: (g: AppliedGuard) => AppliedGuard = (x) => x, written?: { file: string; expr: Expr }, method?: string): AppliedGuard[] {
    const stage = this.stageGuards(g, value, true, written, method);
    if (stage.length > 0) return stage;
    if (!g) return [];
    // A guard by its name only (`withAdmin`, a family's): the guards it calls first, of kinds its
    // name does not give it (`withMiddleware(handler, adminMiddleware)`, leading with the session
    // check). (Its own inline checks are what its name stands for.)
    const named = !g.reason.includes('by behaviour') && !g.kinds.includes('unknown') && !g.kinds.includes('nonguard');
    const more = named ? this.stageGuards(null, value, true, written, method).filter((s) => !s.name.startsWith('(') && s.kinds.some((k) => k !== 'unknown' && !g.kinds.includes(k))) : [];
    return [place(g), ...more];
  }

  /**
   * A route's handler as its author wrote it: through pass-through wrappers
   * (`asyncHandler(listSites)`, `export const GET = withAuth(async (req) => …)`) the innermost
   * function wrapped — the one that answers, named as it is used and placed where it is defined
   * (Route.handler, Route.handlerFn) — or the handler itself when it wraps none.
   */
  writtenHandler(handler: { file: string; expr: Expr; value: Value }): { file: string; expr: Expr; value: Value } {
    const layers = [handler, ...this.handlerLayers(handler)];
    let i = layers.length - 1;
    while (i > 0 && layers[i]!.value.t !== 'fn') i--;
    if (i === 0) return handler;
    const { value } = layers[i]!;
    // (the innermost expression naming it — written in place, the name it is used by: `const
    // getOrders = asyncHandler(async (req, res) => …)` used as `getOrders` —, but no wrapper's
    // parameter, `options.handler.bind(this)`: a call names it by the function's own name)
    for (let j = i; j >= 0; j--) {
      const named = { file: layers[j]!.file, expr: layers[j]!.expr, value };
      if (!this.wrapperInput(named.file, named.expr) && handlerNameOf(this.ev, named) !== null) return named;
    }
    return layers[i]!;
  }

  /**
   * Is `e` what a wrapper was handed rather than a name of the code: its parameter or a member of
   * one (`handler`, `options.handler.bind(this.owner)`), or a member of the value a call site
   * passed for one (`{ path: '/', handler: this.getReady }.handler`)?
   */
  private wrapperInput(file: string, e: Expr): boolean {
    let x = e;
    let f = file;
    let member = false;
    for (;;) {
      if (x.k === 'at') [f, x] = [x.file, x.e];
      else if (x.k === 'within') x = x.e;
      else if (x.k === 'member') [x, member] = [x.obj, true];
      else if (x.k === 'call' && boundFunction(x)) x = boundFunction(x)!;
      else return x.k === 'ref' ? this.ev.eval(f, x).t === 'param' : member && x.k !== 'call';
    }
  }

  /**
   * Guards a route's handler checks for itself: those its function leads with, then, when it is
   * a pass-through wrapper's function (`wrap(userController.getMe)` of `wrap = (fn) => (req, res,
   * next) => fn(req, res).catch(next)`, `wrappedMiddleware`), those of the function it wraps —
   * of each in turn when that is a wrapper's too (`withAuth(withTenant(listSites))`).
   */
  handlerGuards(handler: { file: string; expr: Expr; value: Value }): AppliedGuard[] {
    const out = this.inHandlerGuards(handler.value);
    for (const inner of this.handlerLayers(handler)) out.push(...this.inHandlerGuards(inner.value));
    return out;
  }

  /** Guards called or checked in the leading statements of a handler (or of one branch of it: FunctionFact.dispatch). */
  inHandlerGuards(handler: Value, leading?: readonly LeadingGuard[], follow: FollowRequest = { depth: 0 }): AppliedGuard[] {
    if (handler.t !== 'fn') return [];
    const f = this.ev.fnOf(handler.file, handler.fn);
    if (!f) return [];
    const out: AppliedGuard[] = [];
    // (one leading only the methods of a table whose entry has a flag, LeadingGuard.entryFlag: none
    // but for such a method, `entryLeading`)
    for (const lg of leading ?? f.leading) if (!lg.entryFlag) out.push(...this.leadingGuards(handler, lg, follow));
    return out;
  }

  /**
   * What leads `handler` (a function made from a table of handlers by method) for the method whose
   * entry is `entry`: its leading statements, those of a flag (LeadingGuard.entryFlag) only when
   * the entry has it truthy (`{ auth: true, handle }`).
   */
  entryLeading(handler: Value, entry: Value): LeadingGuard[] | undefined {
    const f = handler.t === 'fn' ? this.ev.fnOf(handler.file, handler.fn) : undefined;
    if (!f?.leading.some((lg) => lg.entryFlag)) return undefined;
    const holds = (path: string[]): boolean => {
      let v = entry;
      for (const p of path) v = this.ev.member(v, p, 0);
      return (v.t === 'bool' && v.v) || (v.t === 'str' && v.v !== '') || (v.t === 'num' && v.v !== 0) || v.t === 'fn' || v.t === 'obj' || v.t === 'arr';
    };
    return f.leading.flatMap((lg) => (!lg.entryFlag ? [lg] : holds(lg.entryFlag) ? [{ ...lg, entryFlag: undefined }] : []));
  }

  /**
   * The guards one of a handler's leading statements makes: the guard it is (`leadingGuard`),
   * or, for the call the handler ends with, handed the request whole as the first argument
   * (`return handleGet(req)`, `(req, res) => ctrl.list(req, res)`), when it calls an in-code
   * function: the guards leading that function, which runs them before anything it answers.
   * (Such a function does the handler's work: a 401 somewhere in it is no check leading it. One
   * dispatching on the method leads the handler with what leads each of its branches.)
   */
  leadingGuards(handler: { file: string; fn: number }, lg: LeadingGuard, follow: FollowRequest = { depth: 0 }): AppliedGuard[] {
    const first = lg.args?.[0];
    if (lg.delegates && lg.callee && first?.k === 'ref' && !follow.no) {
      const p = this.ev.eval(handler.file, first);
      const v = p.t === 'param' && p.file === handler.file && p.fn === handler.fn && p.index === 0 && !p.path?.length ? this.ev.eval(handler.file, lg.callee) : null;
      if (v?.t === 'fn') {
        if (follow.depth >= MAX_DELEGATIONS || (v.file === handler.file && v.fn === handler.fn)) return [];
        const depth = { depth: follow.depth + 1, ...(follow.shown ? { shown: true as const } : {}) };
        const name = exprName(lg.callee) ?? 'the function called';
        // one dispatching on the request's method (FunctionFact.dispatch): what leads every branch
        const branches = this.ev.fnOf(v.file, v.fn)?.dispatch?.map((b) => this.inHandlerGuards(v, b.leading, depth));
        const key = (g: AppliedGuard): string => `${g.file}:${g.line}:${g.name}`;
        const led = branches?.length ? branches[0]!.filter((g) => branches.every((b) => b.some((x) => key(x) === key(g)))) : this.inHandlerGuards(v, undefined, depth);
        // (what the function called lets through before its checks, its allowlist, they do not guard)
        const copies = led.map((g) => {
          const copy = this.placed(g, g.file);
          copy.reason = `${g.reason}, in ${name}(), which the handler hands the request on to`;
          return copy;
        });
        return this.withExceptions(copies, v, this.ev.fnOf(v.file, v.fn));
      }
    }
    // (a returned call of a function not in the analysed code, `return requireSession(req)` of a
    // package, is judged as a concise body's call is: by what it is; one in the code does the
    // handler's work, and its own leading checks lead the handler, above)
    const callee = lg.callee !== undefined ? this.ev.eval(handler.file, lg.callee) : null;
    const inCode = callee?.t === 'fn';
    const g = lg.returned && inCode ? null : this.leadingGuard(handler, lg, follow.shown === true);
    // `const result = await middleware(req); if (result instanceof Response) return result` of a
    // function of the code handed the request (inbox-zero's `emailAccountMiddleware`, leading with
    // `const authReq = await authMiddleware(req); if (authReq instanceof Response) return authReq`):
    // its own leading checks refuse for the handler, which answers with what it returns — those
    // of kinds the call is no guard of by itself (`adminMiddleware`, a family's by its name)
    if (callee?.t === 'fn' && lg.checked && !lg.returned && !lg.unawaited && !lg.inline && follow.depth < MAX_DELEGATIONS && !(callee.file === handler.file && callee.fn === handler.fn)) {
      if (first && this.namesRequest(handler, first, 0)) {
        const name = this.calledName(handler.file, lg.callee!, this.ev.fnOf(callee.file, callee.fn)?.name ?? null) ?? 'the function called';
        const led = this.inHandlerGuards(callee, undefined, { depth: follow.depth + 1, ...(follow.shown ? { shown: true as const } : {}) });
        const more = led.filter((x) => !g || x.kinds.some((k) => k !== 'unknown' && !g.kinds.includes(k)));
        return [
          ...(g ? [g] : []),
          ...more.map((x) => {
            const copy = this.placed(x, x.file);
            copy.reason = `${x.reason}, in ${name}(), which the handler hands the request to and answers with what it returns`;
            return copy;
          }),
        ];
      }
    }
    return g ? [g] : [];
  }

  /** Functions whose leading checks are being judged by ledByAuth, against a cycle of calls. */
  private readonly judging = new Set<string>();

  /**
   * Whether a function of the code whose every 401 tests its parameters (Behaviour.status401OnParams)
   * leads with a check of who asks all the same: a call that is an auth guard (`const userId =
   * requireUser()` after `if (!linkId) return { status: 401 }`), or an inline check ending the
   * request when no one is signed in. Its inline 401 checks test its parameters, and are left out.
   */
  private ledByAuth(v: Extract<Value, { t: 'fn' }>): boolean {
    const key = fnKey(v.file, v.fn);
    if (this.judging.has(key)) return false;
    this.judging.add(key);
    try {
      const leading = this.ev.fnOf(v.file, v.fn)?.leading.filter((lg) => lg.inline !== 'auth' || lg.noUser);
      return this.inHandlerGuards(v, leading, { depth: MAX_DELEGATIONS }).some((x) => x.kinds.includes('auth'));
    } finally {
      this.judging.delete(key);
    }
  }

  /**
   * `if (key) return viaApiKey(key); return viaSession();` (LeadingGuard.either): the function
   * answers one way or another, each led by its own guards; what every way checks, without
   * exceptions or conditions, leads the function (one guard, at the choice). Null when a way
   * checks nothing so.
   */
  private eitherGuard(handler: { file: string; fn: number }, ways: LeadingGuard[][], at: Loc, shown: boolean): AppliedGuard | null {
    const guards = ways.map((way) =>
      way.flatMap((lg) => this.leadingGuards(handler, lg, { depth: 0, ...(shown ? { shown: true as const } : {}) })).filter((g) => !g.when && !g.skips && !g.exceptionsUnknown && !g.kinds.includes('unknown')),
    );
    const common = <T>(of: (g: AppliedGuard) => T[]): T[] => {
      const each = guards.map((gs) => new Set(gs.flatMap(of)));
      return [...each[0]!].filter((x) => each.every((e) => e.has(x)));
    };
    const kinds = common((g) => g.kinds).filter((k) => k !== 'nonguard');
    if (kinds.length === 0) return null;
    // each way by the function it calls (`viaApiKey`), or by its guards when it calls none by name
    const labels = ways.map((way, i) => {
      const called = way.length === 1 && way[0]!.callee ? exprName(way[0]!.callee) : null;
      return called ?? guards[i]!.map((g) => g.name).join(' + ');
    });
    return {
      name: labels.join(' or '),
      kinds: orderKinds(new Set(kinds)),
      families: common((g) => g.families).sort(),
      reason: `by behaviour (the handler answers one of ${ways.length} ways, each checked first: ${labels.map((l, i) => `${l} [${guards[i]!.map((g) => `${g.name}: ${g.reason}`).join('; ')}]`).join(', ')})`,
      mechanism: 'in-handler',
      file: handler.file,
      line: at.line,
    };
  }

  /**
   * Whether `fn`, called by `handler` with `arg(i)` as its i-th argument, checks the tenant of the
   * request's signed-in user before anything else: a tenant check leading it looks the tenant up
   * by a parameter the handler hands that user (LeadingGuard.userParams), or a function it calls
   * first, awaited, does so with that parameter handed on (ever-traduora's `authorizeProjectAction(
   * userOrClient, projectId)` calling `this.mustBeProjectUserOrClient(userOrClient, projectId)`).
   * The name of the function making the check, or null.
   */
  private tenantOfUser(handler: { file: string; fn: number }, fn: { file: string; fn: number }, arg: (i: number) => Expr | undefined, depth: number): string | null {
    const f = this.ev.fnOf(fn.file, fn.fn);
    if (!f || depth > MAX_DELEGATIONS) return null;
    if (f.leading.some((lg) => lg.inline === 'tenant' && lg.userParams?.some((i) => this.signedInUser(handler, arg(i))))) return f.name ?? 'the function called';
    for (const lg of f.leading) {
      if (lg.inline || !lg.callee || !lg.args || lg.unawaited) continue;
      // (what it hands on of its own parameters, whole)
      const passed = (i: number): Expr | undefined => {
        const a = lg.args![i];
        const p = a ? this.ev.eval(fn.file, a) : null;
        return p?.t === 'param' && p.file === fn.file && p.fn === fn.fn && !p.path?.length ? arg(p.index) : undefined;
      };
      if (!this.handsUser(handler, passed, lg.args.length)) continue;
      const next = this.ev.eval(fn.file, lg.callee);
      if (next.t !== 'fn' || (next.file === fn.file && next.fn === fn.fn)) continue;
      const found = this.tenantOfUser(handler, next, passed, depth + 1);
      if (found) return found;
    }
    return null;
  }

  /**
   * Whether one of a call's `count` arguments is the signed-in user of `handler` (signedInUser):
   * tenantOfUser finds nothing in a call handed none, so the function called is not even looked
   * up — a file the prefilter held back is not extracted for nothing.
   */
  private handsUser(handler: { file: string; fn: number }, arg: (i: number) => Expr | undefined, count: number): boolean {
    for (let i = 0; i < count; i++) if (this.signedInUser(handler, arg(i))) return true;
    return false;
  }

  /**
   * Whether `e`, in `handler`, is the request's signed-in user (or its id): read off the
   * handler's parameter (`req.user`, `request.user.id`), or what a function of the code handed
   * that parameter returns (`const user = this.auth.getRequestUserOrClient(req)` of a method
   * returning `req.user`).
   */
  private signedInUser(handler: { file: string; fn: number }, e: Expr | undefined, depth = 0): boolean {
    if (!e || depth > 2) return false;
    const own = (v: Value): v is Extract<Value, { t: 'param' }> => v.t === 'param' && v.file === handler.file && v.fn === handler.fn;
    const v = this.ev.eval(handler.file, e);
    if (own(v)) return isUserPath(v.path ?? []);
    const local = e.k === 'ref' ? this.ev.definitionOf(handler.file, e.scope, e.name) : null;
    const call = local?.file === handler.file && local.expr.k === 'call' ? local.expr : e.k === 'call' ? e : null;
    const callee = call ? this.ev.eval(handler.file, call.callee) : null;
    if (!call || callee?.t !== 'fn') return false;
    const returns = this.ev.returnsOf(callee.file, callee.fn);
    return (
      returns.length > 0 &&
      returns.every((r) => {
        const x = this.ev.eval(callee.file, r);
        if (x.t !== 'param' || x.file !== callee.file || x.fn !== callee.fn) return false;
        const handed = call.args[x.index];
        const h = handed ? this.ev.eval(handler.file, handed) : null;
        return !!h && own(h) && isUserPath([...(h.path ?? []), ...(x.path ?? [])]);
      })
    );
  }

  /**
   * Whether a function comparing the tenant that `handler` calls with `args` checks the caller's
   * tenant: not when it is handed a tenant the request names and nothing but what the request
   * names or a constant (`projects.find(req.params.tenantId, req.params.id)`,
   * `teamExists(teamId)`: the tenant the URL names searched, whoever asks). Anything else handed
   * may say who asks (umami's `canViewTeam(auth, teamId)`, `auth` of its `parseRequest(request)`).
   */
  private checksCallersTenant(handler: { file: string; fn: number }, args: Expr[] | undefined): boolean {
    const input = (a: Expr): string[] | null => {
      const v = this.ev.eval(handler.file, a);
      const path = v.t === 'param' && v.file === handler.file && v.fn === handler.fn ? (v.path ?? []) : [];
      return path.length >= 2 && REQUEST_INPUT.test(path[0]!) ? path : null;
    };
    const named = (args ?? []).some((a) => TENANT_RE.test(input(a)?.at(-1) ?? ''));
    return !named || !args!.every((a) => a.k === 'str' || a.k === 'num' || a.k === 'bool' || input(a) !== null);
  }

  /**
   * Whether function `fn` compares the tenant (Behaviour.comparesTenant), itself or through a
   * function whose answer it returns as its own (Behaviour.returnsAnswerOf: umami's `canViewReport`
   * ending `return !!(await canViewWebsite(auth, report.websiteId))`).
   */
  private comparesTenantVia(fn: { file: string; fn: number }, depth = 0): boolean {
    const b = this.ev.fnOf(fn.file, fn.fn)?.behaviour;
    if (!b) return false;
    if (b.comparesTenant) return true;
    if (depth >= MAX_DELEGATIONS) return false;
    return (b.returnsAnswerOf ?? []).some((c) => {
      const v = this.ev.eval(fn.file, c);
      return v.t === 'fn' && !(v.file === fn.file && v.fn === fn.fn) && this.comparesTenantVia(v, depth + 1);
    });
  }

  /** Whether `handler` also leads with a refusal on what `callee` answers (LeadingGuard.refusal), judged by refusalGuard. */
  private refusedAlso(handler: { file: string; fn: number }, callee: Expr): boolean {
    const name = exprName(callee);
    return !!this.ev.fnOf(handler.file, handler.fn)?.leading.some((x) => x.refusal && x.callee && exprName(x.callee) === name);
  }

  /** The guard one of a handler's leading statements is, if any (each is judged on its own). */
  leadingGuard(handler: { file: string; fn: number }, lg: LeadingGuard, shown = false): AppliedGuard | null {
    // (a check of the tenant of a user the function is handed: judged at its calls, tenantOfUser)
    if (lg.userParams) return null;
    if (lg.either) return this.eitherGuard(handler, lg.either, lg.at, shown);
    if (lg.endedBy && !this.answers(handler.file, lg.callee!)) return null;
    if (lg.endedVia && !this.answers(handler.file, lg.endedVia)) return null;
    // `if (!isAuthorized(req)) return res.status(401)…` of a function returning whether what the
    // request carries equals a secret of the deployment (or an HMAC it computes): that check, made through it
    // (or `if (!isValidInternalApiKey(await headers())) return NextResponse.json({ error: 'Invalid API key' })`,
    // ended whatever the status: the function says no, LeadingGuard.refusal)
    const matched =
      (lg.inline === 'auth' && lg.refuses && this.calleeBehaviour(handler.file, lg.refuses)?.matchesSecret) || (lg.refusal && lg.callee && this.calleeBehaviour(handler.file, lg.callee)?.matchesSecret) || null;
    // (`if (!_user) throw new HttpException(…, 401)` of `await this.userService.findOne(loginUserDto)`: a sign-in's own refusal)
    if (!matched && lg.refuses && (lg.args?.some(signInInput) || this.authenticatesNoCaller(handler.file, lg.refuses))) return null;
    // (`if (!flagValue) return response.sendStatus(401)` of a middleware that never reads its
    // request: a flag of the server decides, not the caller — Behaviour.ignoresRequest)
    if (lg.inline === 'auth' && this.ev.fnOf(handler.file, handler.fn)?.behaviour.ignoresRequest) return null;
    const inline = matched ?? lg.inline;
    if (inline) {
      const check = INLINE_CHECKS[inline];
      const families = check.family === EVERY_FAMILY ? Object.keys(this.matchers.family).sort() : check.family && this.matchers.family[check.family] ? [check.family] : [];
      // a family's check guards only when the contract has that family
      if (check.family && families.length === 0) return null;
      const via = matched ? exprName(lg.refuses ?? lg.callee!) : null;
      const applied: AppliedGuard = {
        name: lg.noUser ? '(inline signed-in check)' : (via ?? check.label ?? `(inline ${check.name} check)`),
        kinds: [...check.kinds],
        families,
        reason: lg.noUser ? 'by behaviour (the handler ends the request first when the request has no signed-in user)' : `by behaviour (the handler ${check.does} first${via ? `, through ${via}()` : ''})`,
        mechanism: 'in-handler',
        file: handler.file,
        line: lg.at.line,
      };
      // (`if (!apiKey) return 401` of `const apiKey = await authenticateApiKeyFromHeaders(req.headers)`:
      // refused on what a function named for an API key or a bearer token (guards.bearer) gives — a
      // credential no browser sends by itself)
      // (`if (!(await canViewWebsite(auth, websiteId))) return unauthorized()`: refused when a
      // function comparing the tenant says no checks the tenant too — said by the refusal of that
      // call when the handler holds one as well, refusalGuard)
      const refusing = inline === 'auth' && lg.refuses && !matched ? this.ev.eval(handler.file, lg.refuses) : undefined;
      if (refusing?.t === 'fn' && this.comparesTenantVia(refusing) && !this.refusedAlso(handler, lg.refuses!) && this.checksCallersTenant(handler, lg.args)) {
        applied.kinds = orderKinds(new Set<GuardKind>([...applied.kinds, 'tenant']));
        applied.reason = `${applied.reason.slice(0, -1)}, when ${exprName(lg.refuses!) ?? 'a function'}() says no, which compares the tenant)`;
      }
      const refusedBy = inline === 'auth' && lg.refuses && !applied.kinds.includes('bearer') ? exprName(lg.refuses) : null;
      if (refusedBy && this.matchers.bearer(refusedBy.slice(refusedBy.lastIndexOf('.') + 1))) {
        applied.kinds = [...applied.kinds, 'bearer'];
        applied.reason = `${applied.reason.slice(0, -1)}; on what ${refusedBy}() gives, named for a bearer credential)`;
      } else if (inline === 'auth' && !applied.kinds.includes('bearer') && headerCredentialOf(this.ev, { t: 'fn', ...handler })) {
        // (`const currentToken = request.headers.get('x-current-token'); if (!currentToken) return 401`,
        // unkey's session refresh: the handler reads its credential from a request header only, as
        // a verified token's above)
        applied.kinds = [...applied.kinds, 'bearer'];
        applied.reason = `${applied.reason.slice(0, -1)}; it reads its credential from a request header only)`;
      }
      // (`if (!user && !pathname.startsWith('/login'))`: the requests a test of the URL in its condition lets through)
      const unread = { count: 0 };
      const skips = lg.skips && allowlistSkips(this.ev, handler.file, lg.skips, 0, unread);
      // (a candidate when some are not known statically, still letting through what those known do)
      const g: AppliedGuard =
        unread.count === 0 ? applied : { ...applied, kinds: ['unknown'], families: [], reason: `${applied.reason}, with exceptions (the tests of the URL in its condition) not known statically`, exceptionsUnknown: true };
      if (skips) this.skips.set(g, skips);
      return g;
    }
    // (one ended by another call, LeadingGuard.endedVia: a family's check by its name only — a
    // lookup the request's values key, `if (!challenge) return sendErrorResponse(…)` of an ACME
    // challenge found by its token, refuses no one's identity)
    // (or one of a function comparing the tenant, `if (!(await canDeleteWebsite(auth, id))) return
    // forbidden()`, which checks the tenant only)
    if (lg.refusal && lg.endedVia) {
      const g = this.refusalGuard(handler, lg);
      if (g?.kinds.includes('family')) return g;
      return g?.kinds.includes('tenant') ? { ...g, kinds: ['tenant'], reason: `by behaviour (the handler ends the request when ${g.name}() says no, and it compares the tenant)` } : null;
    }
    if (lg.refusal) return this.refusalGuard(handler, lg) ?? lookupGuard(handler.file, lg, this.matchers);
    if (lg.userVia) {
      if (!signedInCheck(this.ev, handler, lg)) return lookupGuard(handler.file, lg, this.matchers);
      const name = exprName(lg.callee!) ?? '(signed-in check)';
      return { name, kinds: ['auth'], families: [], reason: `by behaviour (the handler ends the request first when ${name}() gives no signed-in user)`, mechanism: 'in-handler', file: handler.file, line: lg.at.line };
    }
    if (!lg.callee) return null;
    const verified = tokenVerification(this.ev, handler.file, lg);
    if (verified) {
      // (the token verified taken from a request header only, as a layer's: a credential no browser sends by itself)
      const bearer = headerCredentialOf(this.ev, { t: 'fn', ...handler });
      const reason = `by behaviour (the handler ends the request when ${verified}() throws on what the request carries${bearer ? '; it reads its credential from a request header only' : ''})`;
      return { name: verified, kinds: bearer ? ['auth', 'bearer'] : ['auth'], families: [], reason, mechanism: 'in-handler', file: handler.file, line: lg.at.line };
    }
    // Methods of the handler's own request/response (`req.session.destroy()`, `res.set()`) are never guards.
    let root = lg.callee;
    while (root.k === 'member' || root.k === 'call') root = root.k === 'member' ? root.obj : root.callee;
    // (`whole`: the parameter itself, not a local holding part of it, `const userId = req.user.id`)
    const isOwnParam = (e: Expr, whole = false): boolean => {
      const pv = e.k === 'ref' ? this.ev.eval(handler.file, e) : null;
      return pv?.t === 'param' && pv.file === handler.file && pv.fn === handler.fn && !(whole && pv.path?.length);
    };
    const v = this.ev.eval(handler.file, lg.callee);
    // (but for a function of the code a hook or a middleware put on the request, FunctionFact.installs:
    // `await request.getCurrentUserId()` is judged as a call of it)
    if (isOwnParam(root) && v.t !== 'fn') return null;
    // `(c) => auth.handler(c.req.raw)`: better-auth answers, and refuses cross-site mutations first
    const origin = lg.delegates || lg.checked ? betterAuthOriginCheck(this.ev, v, handler.file, lg.at.line) : null;
    if (origin) return origin;
    const def = v.t === 'fn' ? this.ev.fnOf(v.file, v.fn) : undefined;
    // the framework's own handle on the request, whole: Hono's `c.req` and `c.req.raw`, Koa's
    // `ctx.request`, Fastify's `request.raw` (REQUEST_HANDLES); a copy of one, `c.req.raw.clone()`
    const requestHandle = (e: Expr, depth = 0): boolean => {
      if (depth > 4) return false;
      const local = e.k === 'ref' ? this.ev.definitionOf(handler.file, e.scope, e.name) : null;
      const x = local?.file === handler.file && local.expr.k === 'call' ? local.expr : e;
      if (x.k === 'call') return x.args.length === 0 && x.callee.k === 'member' && x.callee.prop === 'clone' && requestHandle(x.callee.obj, depth + 1);
      const pv = this.ev.eval(handler.file, x);
      return pv.t === 'param' && pv.file === handler.file && pv.fn === handler.fn && !!pv.path && pv.path.length <= 2 && pv.path.every((p) => REQUEST_HANDLES.has(p));
    };
    // handed the request itself, or in an object of options: `verifyQstashSignature({ req, rawBody })`;
    // not the response, handed to a function that only writes a response to it (`setAuthCookies(res, tokens)`)
    // (a local holding part of the request, `const userId = req.user.id`, is data as `req.user.id` is)
    const handsRequest = (e: Expr, i: number): boolean =>
      (isOwnParam(e, true) && !def?.behaviour.respondsWith?.includes(i)) || (e.k === 'obj' && Object.values(e.props).some((p) => isOwnParam(p, true)));
    // A guard checks the request: it is handed the request itself (`requireSession(req)`) or
    // nothing (`await auth()`), or its definition behaves like a guard. Data access handed ids
    // (`deleteSiteForTenant(req.tenantId, id)`) is not a guard, whatever its name.
    // A provider's webhook signature check is handed the request's body and signature header.
    // A getter (`this.authService.getAuthProviders()`, `getServerSession()`, `getSession(req)`) is
    // named for what it reads, not for a check, even handed the request: only its definition can
    // make it one (the check of what it returns is a guard of its own).
    const name = lg.callee.k === 'member' ? lg.callee.prop : lg.callee.k === 'ref' ? lg.callee.name : '';
    // A name the config lists in `guards.auth`, `guards.tenant` or `guards.bearer`, written out (not
    // a regular expression, which may match any getter), is a guard by the user's word, whatever it
    // reads or is handed (APITable's `const { userId } = await this.userService.getMe({ cookie })`,
    // asking another service who the cookie's user is).
    const declared = name !== '' && this.matchers.declaredByName(name);
    // (a getter, an event's callback, an action or a URL maker is named for what it reads, what
    // happened, what it does or what it makes: not for a check)
    const getter = !declared && (DATA_GETTER.test(name) || EVENT_CALLBACK.test(name) || ACTION_NAME.test(name) || URL_NAME.test(name));
    // `const payload = await getPayload(request)` of a function of the code leading with a webhook's
    // signature (or a deployment's secret) compared and a throw unless it holds: the throw ends the
    // handler's request as well, when the handler waits for the call (a function answering 401 is
    // judged by that, below)
    // (or handed the request as the framework holds it: `verifySlackRequest(c.req.raw.clone())`;
    // as a guard by its name, such a call is not: `authHandler(request.raw, reply.raw)` hands the
    // whole exchange on to what answers it)
    if (v.t === 'fn' && def && !def.behaviour.status401 && !lg.unawaited && lg.args?.some((e, i) => handsRequest(e, i) || requestHandle(e))) {
      const thrown = def.leading.find((x) => (x.inline === 'signature' || x.inline === 'secret' || x.inline === 'token') && x.throws);
      const g = thrown ? this.leadingGuard({ file: v.file, fn: v.fn }, thrown) : null;
      if (g) return { ...g, reason: `${g.reason}, in ${name || 'the function called'}(), which the handler hands the request to and waits for` };
    }
    // `await this.auth.authorizeProjectAction(user, projectId, …)` of `const user =
    // this.auth.getRequestUserOrClient(req)`: a function checking the tenant of a user it is
    // handed, handed the request's signed-in user
    const tenant = v.t === 'fn' && lg.args && !lg.unawaited && this.handsUser(handler, (i) => lg.args![i], lg.args.length) ? this.tenantOfUser(handler, v, (i) => lg.args![i], 0) : null;
    if (tenant) {
      const named = this.guard(handler.file, lg.callee, v, 'in-handler', lg.at, lg.callee.k === 'member' ? lg.callee.prop : undefined);
      const checks = (named?.kinds ?? []).filter((k) => k !== 'unknown' && k !== 'nonguard' && k !== 'session');
      const reason = `by behaviour (the handler hands it the signed-in user, and ${tenant}() refuses with 403/404 when that user's lookup of the tenant finds nothing)`;
      return named && checks.length > 0
        ? { ...named, kinds: orderKinds(new Set([...checks, 'tenant'])), reason: `${named.reason}; ${reason}` }
        : { name: exprName(lg.callee) ?? (name || tenant), kinds: ['tenant'], families: [], reason, mechanism: 'in-handler', file: handler.file, line: lg.at.line };
    }
    // (or one leading with a check of the signed-in user that ends the request without one,
    // whatever it answers: chatbot-ui's `getServerProfile()`, `if (!user) throw new Error('User not
    // found')` of `(await supabase.auth.getUser()).data.user`, awaited by the handler)
    const signsIn = !!def && !lg.unawaited && def.leading.some((x) => x.inline === 'auth' && x.noUser === true && !x.skips);
    if ((!declared && lg.args && lg.args.length > 0 && !lg.args.some(handsRequest) && webhookVerifier(v) === null) || getter) {
      if (!def || !(def.behaviour.status401 || (def.behaviour.status403or404 && def.behaviour.comparesTenant) || signsIn)) return null;
    }
    // A function that only answers its 401 (`res.status(401).json(…); return null`) stops nothing
    // when the handler goes on whatever it returned.
    if (def?.behaviour.answers401Only && !lg.checked) return null;
    // An `async` function throwing its 401, its promise not awaited: the throw rejects a promise no one waits for.
    if (def?.behaviour.rejects401 && lg.unawaited) return null;
    // (FollowRequest.shown: a call whose definition does not end the request counts by no name)
    if (shown && !(def && (def.behaviour.status401 || (def.behaviour.status403or404 && def.behaviour.comparesTenant) || signsIn))) return null;
    // (`requiresAuth();` in a handler, amplication's: the call makes a middleware no request is handed to)
    if (middlewareMaker(v)) return null;
    // A method call is classified by its own name: `authz.requireTenantAccess(req)` is a tenant guard, `db.tenants.findById(id)` is not.
    let g = this.guard(handler.file, lg.callee, v, 'in-handler', lg.at, lg.callee.k === 'member' ? lg.callee.prop : undefined);
    if (g && g.kinds.includes('auth') && lg.args && this.never401Call(handler.file, v, lg.args)) g = withoutAuth(g, 'its arguments turn off every 401 it can send');
    // `await this.auth.verifyPassword(dto.email, dto.password)`, `await this.authService.login(loginInput)`:
    // a check of a password the request sends checks no caller's identity (the login itself, a
    // password-protected link's form), as a password compared with its hash in the handler does not
    // (authenticatesNoCaller)
    if (g && g.kinds.includes('auth') && (lg.args?.some(passwordArg) || SIGN_IN_CALL.test(name))) g = withoutAuth(g, 'it checks a password the request sends, not who sends it');
    // `const link = await getLinkById(Number(req.query.id))` of a function whose every 401 tests
    // its parameters (`if (!linkId) return { status: 401 }`), handed nothing but what the request
    // asks for: its 401 answers a request that names no link, whoever sends it — as the handler's
    // own `if (!req.query.id)` would (extract.ts, leadingGuards' asksOnly); not one reading a
    // session of its own, throwing errors of other files, or led by a check of who asks
    // (`const userId = requireUser()` after its test of the id)
    if (
      g &&
      g.kinds.includes('auth') &&
      def?.behaviour.status401OnParams &&
      !def.behaviour.readsSession &&
      !def.behaviour.throwsImported &&
      lg.args &&
      asksOnly(this.ev, handler, lg.args) &&
      v.t === 'fn' &&
      !this.ledByAuth(v)
    )
      g = withoutAuth(g, 'its 401 tests only what the handler hands it: what the request asks for, not who asks');
    // `request.account = await this.keys.accountFor(request.headers['x-api-key'])`: a function
    // answering 401 itself, reading no session, handed a credential the handler reads from request
    // headers only — one no browser sends by itself
    if (g && g.kinds.includes('auth') && !g.kinds.includes('bearer') && lg.credential === 'header' && def?.behaviour.status401 && !def.behaviour.readsSession)
      g = { ...g, kinds: orderKinds(new Set<GuardKind>([...g.kinds, 'bearer'])), reason: `${g.reason.slice(0, -1)}; on a credential the handler reads from a request header only)` };
    return g && !g.kinds.includes('unknown') ? g : null;
  }
}

/**
 * A lookup by the credential the request carries that the handler refuses the request on when it
 * finds nothing (LeadingGuard.credential): `const user = await prisma.user.findFirst({ where: { token:
 * req.headers.authorization } }); if (!user) return res.forbidden(…)` — an API token's check,
 * whatever the status; a bearer guard when the credential is a request header's.
 */
function lookupGuard(file: string, lg: LeadingGuard, matchers: GuardMatchers): AppliedGuard | null {
  if (!lg.credential || !lg.callee) return null;
  const name = exprName(lg.callee) ?? '(credential lookup)';
  // (`if (!keystone.security.csrf.validate(req, req.body.authenticity_token)) return res.status(403)…`:
  // the token checked is the request's CSRF token, no caller's credential)
  if (matchers.csrf(name)) {
    const reason = `by name (csrf); by behaviour (the handler ends the request first when ${name}() rejects the token the request carries)`;
    return { name, kinds: ['csrf'], families: [], reason, mechanism: 'in-handler', file, line: lg.at.line };
  }
  const header = lg.credential === 'header';
  return {
    name,
    kinds: header ? ['auth', 'bearer'] : ['auth'],
    families: [],
    reason: `by behaviour (the handler ends the request first when ${name}() finds nothing for the credential the request carries${header ? ', read from a request header' : ''})`,
    mechanism: 'in-handler',
    file,
    line: lg.at.line,
  };
}

/** Is `cond` false when its name is bound to `arg` (evaluated in `file`) read along `path`? An absent argument is undefined, or the default `fallback` declares. */
function conditionFalse(ev: Evaluator, file: string, arg: Expr | undefined, path: string[], cond: FlagCondition, fallback?: Pick<Definition, 'file' | 'expr'>): boolean {
  const lit = argumentLiteral(ev, file, arg, path, fallback);
  if (lit === null) return false;
  if (cond.op === 'truthy') return !lit;
  if (cond.op === 'falsy') return !!lit;
  if (cond.op === 'eq') return lit !== cond.value;
  return lit === cond.value;
}

/** Does the argument (read along `path`) make the condition hold? Only a value known statically does. */
function conditionHolds(ev: Evaluator, file: string, arg: Expr | undefined, path: string[], cond: FlagCondition, fallback?: Pick<Definition, 'file' | 'expr'>): boolean {
  const lit = argumentLiteral(ev, file, arg, path, fallback);
  if (lit === null) return false;
  if (cond.op === 'truthy') return !!lit;
  if (cond.op === 'falsy') return !lit;
  if (cond.op === 'eq') return lit === cond.value;
  return lit !== cond.value;
}

/**
 * What an argument, read along a property path, is as a literal: undefined when it (or the
 * property) is not given, null when it is given but not known statically as a literal. Not
 * given, it is the default (`fallback`) where the parameter or the property declares one.
 */
function argumentLiteral(ev: Evaluator, file: string, arg: Expr | undefined, path: string[], fallback?: Pick<Definition, 'file' | 'expr'>): string | number | boolean | undefined | null {
  let v: Value | null = arg ? ev.eval(file, arg) : null;
  for (const prop of path) {
    if (v === null) break;
    v = v.t === 'obj' ? (Object.hasOwn(v.props, prop) ? ev.eval(v.file, v.props[prop]!) : null) : ev.member(v, prop, 0);
  }
  if (v === null && fallback) v = ev.eval(fallback.file, fallback.expr);
  if (v !== null && v.t !== 'bool' && v.t !== 'str' && v.t !== 'num') return null;
  return v === null ? undefined : v.v;
}

/** Facts an edit added to (or removed from) files (relocate.ts): leading statements of function `fn`, and calls of the file. */
export interface FactChanges {
  leading: { file: string; fn: number; entries: readonly LeadingGuard[] }[];
  calls: { file: string; calls: readonly CallFact[] }[];
}

/**
 * Whether the facts an edit added or removed (relocate.ts) change nothing a run links. Judged
 * with `files`: the file's new facts for those added, its old ones for those removed. Null
 * when they may; else the functions whose returns the judging read (`Evaluator.returnsRead`),
 * which a run reads too: the kept result now depends on them.
 *
 * A function's leading statement: as a handler's leading statement each is no guard
 * (`leadingGuards`), and none calls a parameter, which could make a function wrapped around
 * this one a pass-through wrapper (`wrappedMiddleware`). Those are the only readers of a
 * function's leading statements.
 *
 * A call of the file: what it calls is no function of the analysed files (the linker and the
 * Fastify adapter follow a call only into one, to registrations on its parameter), and no
 * adapter reads it whatever it calls (`Adapter.readsCall`: the Nest adapter's `….setup(…)`).
 * Those are the only readers of a file's calls but the Nest adapter's reading of a file
 * importing @nestjs/core, which relocate.ts leaves out (`Adapter.readsEveryBinding`).
 */
export function inertChanges(files: Map<string, FileFacts>, adapters: Adapter[], matchers: GuardMatchers, project: Project, changes: FactChanges): ReadonlySet<string> | null {
  const ctx = contextOf(files, adapters, matchers, project, DEFAULT_BUDGETS.maxRoutes);
  const inert =
    changes.leading.every(({ file, fn, entries }) =>
      entries.every((lg) => ctx.leadingGuards({ file, fn }, lg).length === 0 && [lg, ...(lg.either?.flat() ?? [])].every((x) => !x.callee || paramCalled(ctx.ev, file, [leadingCall(x.callee, x.at)], null) < 0)),
    ) &&
    // (a call of a router's method may register on it: one a router is given, FileFacts.routerAliases)
    changes.calls.every(({ file, calls }) => calls.every((c) => !adapters.some((a) => a.readsCall?.(c)) && !(c.callee.k === 'member' && ctx.ev.eval(file, c.callee.obj).t === 'router') && ctx.ev.calledFn(file, c.callee) === null));
  // a run linking these changes reads the same returns to find them inert
  return inert ? ctx.ev.returnsRead : null;
}

/** A context over `files` with nothing linked yet: its evaluator resolves bare specifiers through `project`. */
function contextOf(files: Map<string, FileFacts>, adapters: Adapter[], matchers: GuardMatchers, project: Project, maxRoutes: number, values?: ReadonlyMap<string, string>): LinkContext {
  const tree = { listing: new DirectoryListing(project.files), packageDir: (file: string) => project.packageOf(file).dir };
  return new LinkContext(new Evaluator(files, adapters, (from, spec) => project.resolveBare(from, spec), values, tree), files, matchers, project, maxRoutes);
}

/** A leading statement's callee as the call it makes (its arguments left out: a wrapper hands them on). */
function leadingCall(callee: Expr, at: Loc): Expr {
  return { k: 'call', callee, args: [], at, pos: 0 };
}

const ASYNC_WRAPPER_NAME = /^(asyncHandler|asyncMiddleware|asyncWrap|wrapAsync|catchAsync|catchErrors|awaitHandler|expressAsyncHandler)$/i;
const ASYNC_WRAPPER_PACKAGES = new Set(['express-async-handler', 'express-async-wrap', 'express-asyncify']);

/** Packages hashing passwords, whose `compare` / `verify` test a password against its hash. */
const PASSWORD_HASHING = new Set(['bcrypt', 'bcryptjs', 'argon2', '@node-rs/argon2', '@node-rs/bcrypt']);

/** A guard without its auth kinds (`why` says why they are not checks of the caller), null when it has no other. */
function withoutAuth(g: AppliedGuard, why: string): AppliedGuard | null {
  const kinds = g.kinds.filter((k) => k !== 'auth' && k !== 'bearer');
  return kinds.length > 0 ? { ...g, kinds, reason: `${g.reason}; ${why}` } : null;
}

/**
 * Arguments that are nothing but what the request asks for — a route or query parameter, a field
 * of its body, by a name no credential, session or user goes by (`Number(req.query.id)`,
 * `req.params.slug`, a local holding one) — and literals; at least one of the former.
 */
function asksOnly(ev: Evaluator, handler: { file: string; fn: number }, args: Expr[]): boolean {
  let asked = false;
  const ok = (e: Expr, depth: number): boolean => {
    if (e.k === 'str' || e.k === 'num' || e.k === 'bool') return true;
    if (e.k === 'call') return e.callee.k === 'ref' && CONVERSION.test(e.callee.name) && e.args.every((a) => ok(a, depth));
    if (e.k !== 'ref' && e.k !== 'member') return false;
    const v = ev.eval(handler.file, e);
    if (v.t === 'param' && v.file === handler.file && v.fn === handler.fn && v.path) {
      if (!asksForField(v.path)) return false;
      asked = true;
      return true;
    }
    // (`const queryId = Number(req.query.id)`: a local of the handler holding one)
    const local = e.k === 'ref' && depth < 4 ? ev.definitionOf(handler.file, e.scope, e.name) : null;
    return !!local && local.file === handler.file && ok(local.expr, depth + 1);
  };
  return args.every((a) => ok(a, 0)) && asked;
}

/** A function named for signing in with credentials: `login`, `signIn`, `loginWithEmail`, `verifyPassword`, `validateCredentials`. */
const SIGN_IN_CALL = /^(?:log_?in|sign_?in)(?:With[A-Z]\w*)?$|password|credentials?$/i;

/** The name of a password (`password`, `dto.currentPassword`, `passwd`). */
const PASSWORD_NAME = /^(?:current|old)?pass(?:word|wd|phrase)?$/i;

/** An argument that is a password, or an object holding one: `dto.password`, `password`, `{ email, password }`. */
function passwordArg(e: Expr): boolean {
  return argNamed(e, (n) => PASSWORD_NAME.test(n));
}

/** What a sign-in form sends, by its name besides a password: `loginUserDto`, `signInInput`, `credentials`. */
const SIGN_IN_INPUT = /^(?:log_?in|sign_?in)|^credentials?$/i;

/** An argument carrying a sign-in's input: a password, or a name, a property read or an object's key named for the form. */
function signInInput(e: Expr): boolean {
  return argNamed(e, (n) => PASSWORD_NAME.test(n) || SIGN_IN_INPUT.test(n));
}

/** A name read (`password`), a property read (`dto.password`), or an object keyed so (`{ email, password }`), as `named` says. */
function argNamed(e: Expr, named: (name: string) => boolean): boolean {
  if (e.k === 'member') return named(e.prop);
  if (e.k === 'ref') return named(e.name);
  return e.k === 'obj' && Object.keys(e.props).some(named);
}

/** The index of `outer`'s parameter (any function's, when null) that one of `exprs` calls (directly or nested in a call chain), or -1. */
function paramCalled(ev: Evaluator, file: string, exprs: Expr[], outer: { file: string; fn: number } | null): number {
  let found = -1;
  const visit = (e: Expr, depth: number): void => {
    if (found >= 0 || depth > 8) return;
    if (e.k === 'call' || e.k === 'new') {
      if (e.callee.k === 'ref') {
        const v = ev.eval(file, e.callee);
        if (v.t === 'param' && (outer === null || (v.file === outer.file && v.fn === outer.fn))) {
          found = v.index;
          return;
        }
      }
      visit(e.callee, depth + 1);
      for (const a of e.args) visit(a, depth + 1);
    } else if (e.k === 'member') visit(e.obj, depth + 1);
  };
  for (const e of exprs) visit(e, 0);
  return found;
}

export function cmp(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export function link(
  files: Map<string, FileFacts>,
  adapters: Adapter[],
  matchers: GuardMatchers,
  project: Project = emptyProject([...files.keys()]),
  maxRoutes: number = DEFAULT_BUDGETS.maxRoutes,
  /** who imports a file, when known (src/prefilter.ts): narrows the search for calls passing routers */
  importers?: (file: string) => readonly string[],
  /** the config's `values` */
  values?: ReadonlyMap<string, string>,
): LinkContext {
  const ctx = contextOf(files, adapters, matchers, project, maxRoutes, values);
  const ev = ctx.ev;
  const sortedFiles = [...files.keys()].sort();

  // Routers made as values anywhere (so unmounted ones are known too).
  const bind = (b: BoundRegistration): void => ctx.bindRegistration(b);
  // Where a registration made in another module than its router's falls among the router's: at
  // the `require(…)` by which the router's module loads that module, when it does (a route file
  // registering on a global app: `require('./routes/public'); app.use(requireLogin);
  // require('./routes/users')`); after the router's module's own otherwise.
  const requires = new Map<string, Loc[] | null>();
  const orderOf = (file: string, routerFile: string, at: Loc): (string | number)[] => {
    if (file === routerFile) return [0, file, at.line, at.column];
    const key = `${routerFile}\0${file}`;
    let chain = requires.get(key);
    if (chain === undefined) requires.set(key, (chain = requiredAt(ev, files, routerFile, file)));
    return chain ? [0, routerFile, ...chain.flatMap((c) => [c.line, c.column]), at.line, at.column] : [1, file, at.line, at.column];
  };
  const paramRegs: ParamRegistration[] = [];
  const propertyRegs: PropertyRegistration[] = [];
  // the function whose parameter each of propertyRegs is on
  const propertyFns: number[] = [];
  // made on a router, with arguments read from the parameters of the function making them: bound once per call
  const callSiteRegs: CallSiteRegistration[] = [];
  // functions making a router of their own and registering on it what their parameters hold
  // (with that router), and their files
  const factories = new Map<string, { file: string; fn: number; router: RouterObject }>();
  const factoryFiles = new Set<string>();
  const aliases = routerAliases(files);
  for (const file of sortedFiles) {
    const facts = files.get(file)!;
    // One made on neither a router nor a parameter (`rows.get(id)`) is bound nowhere: neither its
    // arguments nor its conditions are read. One on a loop's variable is unrolled first.
    for (const r of [...facts.registrations, ...madeByCalls(ev, adapters, file, facts), ...aliasCalls(ev, file, facts, aliases)]) {
      // (its target's root, read once; a target reading a loop's variable is read per item)
      const root = readsLoopVariable(facts, r.target) ? null : chainRoot(ev, file, r.target);
      if (root && !eachOf(root).some((t) => madeOn(t, file))) continue;
      // (a loop over a list something adds to: what is added is not read, and the warning says so)
      const addedTo = (call: { file: string; fact: CallFact }): void =>
        ctx.warn(file, r.at, `the list this loop goes over is added to (${call.fact.snippet.trim().replace(/;$/, '')} at ${call.file}:${call.fact.at.line}); the routes of what is added are left out`, r.snippet);
      const regs = unrolled(ev, file, facts, r, undefined, addedTo);
      for (const [item, reg] of regs.entries()) {
        // (under a condition known to fail, it is never made)
        if (!ctx.possible(file, reg)) continue;
        // (made on a router that is one of several, `let app; if (test) app = a; else app = b`: on each)
        for (const t of eachOf(root ?? chainRoot(ev, file, reg.target))) {
          if (!madeOn(t, file)) continue;
          if (t.t === 'router') {
            const router = ev.routers.get(t.id)!;
            // (named where it is registered on, not where a caller hands it a request: `boardApp.fetch(req)`)
            if (router.name === null && reg.target.k === 'ref' && reg.method !== 'fetch') router.name = reg.target.name;
            // (a router made in a factory, `new Router({ prefix })`, is made once per call already: `Evaluator.instance`)
            const read = paramsRead(facts, argExprs(reg));
            const fn = read.size === 1 ? [...read][0]! : null;
            if (fn !== null && !localTo(facts, reg.target, fn)) callSiteRegs.push({ reg, file, fn, router });
            else {
              // (on the function's own router, reading its parameters: each call's instance of the
              // router makes it with the call's arguments, when the function returns the router —
              // LinkContext.registrationsOf; the calls are evaluated once the calls are gathered, below)
              if (fn !== null && router.instanceOf === undefined) {
                factories.set(fnKey(file, fn), { file, fn, router });
                factoryFiles.add(file);
              }
              bind({ reg, file, router, order: orderOf(file, router.file, reg.at) });
            }
          } else if (t.t === 'param' && t.file === file && t.path && t.path.length > 0) {
            propertyRegs.push({ fnKey: fnKey(file, t.fn), index: t.index, path: t.path, reg, regFile: file, chain: [reg.at.line, reg.at.column], ...(regs.length > 1 ? { item } : {}) });
            propertyFns.push(t.fn);
          } else if (t.t === 'param' && t.file === file) {
            paramRegs.push({ reg, file, fn: t.fn, index: t.index });
          }
        }
      }
    }
  }
  // Routers passed to functions that register on their parameter: `mountSites(api)`.
  const byFn = ctx.paramRegistrations;
  for (const p of paramRegs) byFn.set(fnKey(p.file, p.fn), [...(byFn.get(fnKey(p.file, p.fn)) ?? []), p]);
  const boundFns = ctx.boundFunctions;
  // A call can reach a function that registers on its parameter only from that function's
  // file or from a file importing it, directly or not: with the import graph, only those are searched.
  // (and a file with a loop that may go over a directory's modules: `fs.readdirSync(…)`, `requireDir(…)`)
  const callerFiles = importers
    ? [...withImporters([...paramRegs.map((p) => p.file), ...propertyRegs.map((p) => p.regFile), ...callSiteRegs.map((p) => p.file), ...factoryFiles, ...sortedFiles.filter((f) => listsDirectories(files.get(f)!))], importers)]
        .filter((f) => files.has(f))
        .sort()
    : sortedFiles;
  // The calls of the analysed functions (and constructors) made in those files, by the function
  // called (one in a loop over a list known statically: for each item).
  const callsTo = new Map<string, CallOf[]>();
  if (paramRegs.length > 0 || callSiteRegs.length > 0 || propertyRegs.length > 0 || factories.size > 0) {
    for (const file of callerFiles) {
      const facts = files.get(file)!;
      for (const written of facts.calls) {
        for (const call of unrolledCall(ev, file, facts, written)) {
          const callees = calledFns(ev, file, call.callee);
          for (const callee of callees) {
            const key = fnKey(callee.file, callee.fn);
            let list = callsTo.get(key);
            if (!list) callsTo.set(key, (list = []));
            const made = madeBy(ev, callee, file, call);
            const site = callSiteOf(callee, file, call);
            list.push({ file, call, site: made ? { ...site, made } : site, origin: { file, call }, ...(callees.length > 1 ? { maybe: true as const } : {}) });
          }
        }
      }
    }
  }
  // the registrations on parameter `index` of function `key` (`file:fn`) made on `router`, and
  // those of the functions it hands that parameter on to, a few calls deep
  const handTo = (key: string, index: number, router: RouterObject, order: (string | number)[], depth: number): void => {
    for (const p of byFn.get(key) ?? []) {
      if (p.index !== index) continue;
      boundFns.add(key);
      bind({ reg: p.reg, file: p.file, router, order: [...order, p.reg.at.line, p.reg.at.column] });
    }
    const at = key.lastIndexOf(':');
    const file = key.slice(0, at);
    const fn = Number(key.slice(at + 1));
    const facts = files.get(file);
    if (!facts || depth >= MAX_CALL_LEVELS) return;
    for (const c of facts.calls) {
      const root = rootOf(c.callee);
      if (root.k !== 'ref' || !inFunction(facts, facts.scopes[root.scope], fn)) continue;
      c.args.forEach((a, j) => {
        const v = ev.eval(file, a);
        if (v.t !== 'param' || v.file !== file || v.fn !== fn || v.index !== index || v.path) return;
        for (const h of calledFns(ev, file, c.callee)) handTo(fnKey(h.file, h.fn), j, router, [...order, c.at.line, c.at.column], depth + 1);
      });
    }
  };
  // `startPlugin({ name, expressRouter })` of a function making an app, mounting the router it is
  // given and returning the app (erxes's plugins): each call gets an app of its own, as a call
  // whose value is read does (Evaluator.instance), though nothing reads this one's
  for (const [key, factory] of factories) {
    // the calls in the factory of a function a parameter holds, handed the factory's router:
    // `if (onServerInit) await onServerInit(app)` of erxes's `startPlugin(configs)`
    const facts = files.get(factory.file)!;
    const handing = facts.calls.filter(
      (c) =>
        c.callee.k === 'ref' &&
        inFunction(facts, facts.scopes[c.callee.scope], factory.fn) &&
        // (a function known without the call's arguments is followed as any other: paramRegs)
        calledFns(ev, factory.file, c.callee).length === 0 &&
        c.args.some((a) => {
          const v = ev.eval(factory.file, a);
          return v.t === 'router' && v.id === factory.router.id;
        }),
    );
    // (a place of its own for each call, apart from any position in the file: a call whose value
    // a name holds, read from that name, is one the instances read alike stand for)
    for (const { file, call, site } of callsTo.get(key) ?? []) {
      const made = ev.eval(file, { k: 'call', callee: call.callee, args: call.args, at: call.at, pos: -(call.at.line * 65536 + call.at.column) });
      const router = made.t === 'router' ? ev.routers.get(made.id) : undefined;
      if (!router || router.instanceOf !== factory.router.id) continue;
      // what such a call registers on its parameter is made on this call's router, where the factory
      // calls it — also through the functions it hands that parameter on to (`onServerInit: async
      // (app) => { await initCallApp(app) }`)
      for (const c of handing)
        for (const callee of calleesAt(ev, factory.file, c, site) ?? [])
          c.args.forEach((a, index) => {
            const v = ev.eval(factory.file, a);
            if (v.t === 'router' && v.id === factory.router.id) handTo(callee, index, router, [0, factory.file, c.at.line, c.at.column], 0);
          });
    }
  }
  for (const [key, calls] of callsTo) {
    for (const { file, call, site, origin, maybe } of calls) {
      for (const p of byFn.get(key) ?? []) {
        const arg = call.args[p.index];
        const v = arg ? ev.eval(file, arg) : paramDefault(ev, p.file, p.fn, p.index);
        // (a name given either of two routers, `let app; if (…) app = … else app = …; configure(app)`: each)
        const given = v ? eachOf(v) : [];
        if (given.length === 0 || given.some((x) => x.t !== 'router')) continue;
        boundFns.add(key);
        const fromCall = givenByCall(files.get(p.file)!, p.reg, p.fn);
        for (const g of given) {
          const router = ev.routers.get((g as Extract<Value, { t: 'router' }>).id)!;
          for (const atSite of atCallSite(ev, p.file, p.reg, site)) {
            const reg = underCall(fromCall ? atOrigin(atSite, origin) : atSite, file, call);
            bind({ reg, file: p.file, router, order: [file === router.file ? 0 : 1, file, call.at.line, call.at.column, reg.at.line, reg.at.column], ...(maybe ? { maybe } : {}) });
          }
        }
      }
    }
  }
  // `mount('/api', users)` of `function mount(prefix, r) { app.use(prefix, r) }`: made at each
  // call, with its arguments. Where in the router's order: a call at module scope, where it is
  // made; one in a function (a constructor calling `this.initializeRoutes(routes)`), where the
  // registration is written, as the registrations of the class's other methods are.
  // (a call that makes what another made — `new App([new UserRoute()])` in a test too — adds nothing:
  // a class's fields are one router for every instance)
  const made = new Set<string>();
  const keyOf = valueKeys();
  const sitesOf = new Map<string, CallOf[]>();
  for (const p of callSiteRegs) {
    const key = fnKey(p.file, p.fn);
    let sites = sitesOf.get(key);
    if (!sites) {
      sitesOf.set(key, (sites = callSitesOf(ev, callsTo, key, 0)));
      if (sites.length >= MAX_CALL_SITES)
        ctx.warn(p.file, p.reg.at, `${ev.fnOf(p.file, p.fn)?.name ?? 'a function'}() is called ${MAX_CALL_SITES} times or more: what this registration makes for the calls past the first ${MAX_CALL_SITES} is left out`, p.reg.snippet);
    }
    const router0 = p.router;
    // No call known: made once, its parameters not known statically.
    if (sites.length === 0) bind({ reg: p.reg, file: p.file, router: router0, order: [p.file === router0.file ? 0 : 1, p.file, p.reg.at.line, p.reg.at.column] });
    const fromCall = givenByCall(files.get(p.file)!, p.reg, p.fn);
    // (what each call as written gives, once for all the calls out it is made for)
    const givenBy = new Map<CallSite, string | null>();
    for (const { file, call, site, origin, written } of sites) {
      // (located at the call furthest out, but for a path the calls out to it do not give:
      // `this.route({ path: '/login', middleware: [openApiService.validPath(…)] })` in a
      // constructor is made for each `new`, for what the middleware reads, where it is written)
      let given: string | null = null;
      if (fromCall && written) {
        if (!givenBy.has(written)) givenBy.set(written, pathsOf(ev, p.file, atCallSite(ev, p.file, p.reg, written)));
        given = givenBy.get(written)!;
      }
      for (const atSite of atCallSite(ev, p.file, p.reg, site)) {
        const locatedAt = given !== null && given === pathsOf(ev, p.file, [atSite]) ? { file, call } : origin;
        const reg = underCall(fromCall ? atOrigin(atSite, locatedAt) : atSite, file, call);
        const t = chainRoot(ev, p.file, reg.target);
        // (on a router that is one of several: the one this registration was found made on)
        const router = t.t === 'router' ? ev.routers.get(t.id)! : eachOf(t).some((x) => x.t === 'router' && x.id === p.router.id) ? p.router : null;
        if (!router) continue;
        const same = `${router.id}|${reg.at.line}:${reg.at.column}|${argExprs(reg).map((a) => keyOf(ev.eval(p.file, a))).join('|')}`;
        if (made.has(same)) continue;
        made.add(same);
        const own = [reg.at.line, reg.at.column];
        const at = [call.at.line, call.at.column];
        // at the call when it is made at module scope, or on the caller's `this` from another file
        // (a base class's method called by a subclass); else where written (a class's constructor
        // calling its methods, whose registrations keep their order among the class's others)
        // — or made by name in the function that declares the function called, or inside it (`function
        // createApp() { … useWith404Fallback('/api', api) … function useWith404Fallback(url, r) {
        // app.use(url, r) } }`, Mailtrain's): where the call runs, among that function's own
        const atCall = rootScope(call.callee) === 0 || (file !== p.file && site.self !== undefined && isThis(rootOf(p.reg.target))) || (file === p.file && declaredAround(files.get(file)!, call.callee, p.fn));
        bind({ reg, file: p.file, router, order: atCall ? [file === router.file ? 0 : 1, file, ...at, ...own] : [p.file === router.file ? 0 : 1, p.file, ...own, file, ...at] });
      }
    }
  }
  // Registrations on a bare parameter reach a router through functions that pass their own
  // parameter on (`registerRoutes(server)` → `authRoutes(fastify)` → `fastify.get(…)`); the
  // direct calls are bound above, so these only travel.
  const handedOn: PropertyRegistration[] = paramRegs.map((p) => ({ fnKey: fnKey(p.file, p.fn), index: p.index, path: [], reg: p.reg, regFile: p.file, chain: [p.reg.at.line, p.reg.at.column], boundDirectly: true }));
  if (propertyRegs.length > 0 || handedOn.length > 0)
    for (const r of bindPropertyRegistrations(ev, files, callsTo, [...propertyRegs, ...handedOn], bind, boundFns)) {
      let list = ctx.handedOn.get(r.fnKey);
      if (!list) ctx.handedOn.set(r.fnKey, (list = []));
      list.push(r);
    }
  // A function no call site binds, whose parameter defaults to a router of its own
  // (`export default function init(app = new Koa())`, called from code not followed): its
  // registrations are made on that router, as when a caller passes none.
  const defaulted = new Set<string>();
  for (const p of paramRegs) {
    const key = fnKey(p.file, p.fn);
    if (boundFns.has(key)) continue;
    const v = paramDefault(ev, p.file, p.fn, p.index);
    if (v?.t !== 'router') continue;
    defaulted.add(key);
    const router = ev.routers.get(v.id)!;
    bind({ reg: p.reg, file: p.file, router, order: [p.file === router.file ? 0 : 1, p.file, p.reg.at.line, p.reg.at.column] });
  }
  for (const key of defaulted) boundFns.add(key);
  // (registrations on the parameter of a callback a package hands a router: the adapter binds them)
  for (const a of adapters) a.bind?.(ctx);
  for (const [id, list] of ctx.byRouter) {
    if (list.some((b) => b.maybe)) {
      const written = (b: BoundRegistration): string => `${b.file}:${b.reg.at.line}:${b.reg.at.column}`;
      const certain = new Set(list.filter((b) => !b.maybe).map(written));
      ctx.byRouter.set(id, list.filter((b) => !b.maybe || !certain.has(written(b))));
    }
  }
  for (const list of ctx.byRouter.values()) list.sort((a, b) => cmp(a.order, b.order));
  ctx.settle();
  // The routers callers get from factories (`healthRouter('/v1')` in `app.use(…)`) are made
  // before the adapters list the routers (routersOf): a factory's router whose routes read its
  // parameters is then served only through its callers' (LinkContext.inheritedBy), never on its own.
  for (const list of ctx.byRouter.values()) for (const b of list) for (const a of b.reg.args) if (callRooted(a)) ev.eval(b.file, a);
  ctx.noteConditionsAtParams();
  for (const a of adapters) a.link(ctx);
  for (const app of ctx.ownApps) if (!ctx.servingApps.has(app)) warnDispatchingApp(ctx, app);
  ctx.nameApps();
  ctx.dropSkippedGuards();
  ctx.markConditionalGuards();
  // Registrations on a parameter that neither a call site nor an adapter bound to a router: one
  // warning for each parameter (or property of one) of a function, at its first registration,
  // saying how many there are (a plugin no app registers: aiRoutes() of 24 routes, one warning).
  const unbound = new Map<string, { file: string; reg: RegistrationFact; message: (count: string) => string; count: number }>();
  const note = (key: string, file: string, reg: RegistrationFact, message: (count: string) => string): void => {
    const seen = unbound.get(key);
    if (seen) seen.count++;
    else unbound.set(key, { file, reg, message, count: 1 });
  };
  for (const p of paramRegs) {
    if (boundFns.has(fnKey(p.file, p.fn))) continue;
    const f = ev.fnOf(p.file, p.fn);
    if (!looksLikeRoute(ev, p.reg, f?.params[p.index] ?? '', p.reg.args.map((a) => ev.eval(p.file, a)))) continue;
    if (methodsNamedByCalls(ev, p, callsTo.get(fnKey(p.file, p.fn)) ?? [])?.every((m) => !REGISTRATION_METHODS.has(m))) continue;
    // (every call passing what is surely no router: rudder-transformer's `getAuthToken(authCache, …)`,
    // `authCache.get(id, async () => …)` on `new Cache(…)` of a class of the code that extends nothing)
    const callers = callsTo.get(fnKey(p.file, p.fn)) ?? [];
    if (callers.length > 0 && callers.every((c) => c.call.args[p.index] !== undefined && surelyNoRouter(ev.eval(c.file, c.call.args[p.index]!)))) continue;
    note(`${fnKey(p.file, p.fn)}#${p.index}`, p.file, p.reg, (count) => `routes${count} registered on the parameter '${f?.params[p.index] ?? '?'}' of ${f?.name ?? 'a function'}() whose callers pass no router known statically; their prefix is unknown`);
  }
  // …and on a property of one (`{ app }: { app: Express }`, `deps.app`), when no call hands a router over in it.
  for (const [i, p] of propertyRegs.entries()) {
    if (boundFns.has(p.fnKey)) continue;
    const file = p.regFile;
    const f = ev.fnOf(file, propertyFns[i]!);
    const name = [f?.params[p.index] || null, ...p.path].filter((x) => x !== null).join('.');
    // (a test's HTTP client, `async ({ api }) => api.post('/api/tags', body)`, is handed data, not a handler)
    const args = p.reg.args.map((a) => ev.eval(file, a));
    if (!args.slice(1).some((v) => v.t === 'fn' || v.t === 'router') || !looksLikeRoute(ev, p.reg, p.path[p.path.length - 1]!, args)) continue;
    note(`${p.fnKey}#${p.index}.${p.path.join('.')}`, file, p.reg, (count) => `routes${count} registered on '${name}' of a parameter of ${f?.name ?? 'a function'}() whose callers pass no router known statically; their prefix is unknown`);
  }
  for (const u of unbound.values()) ctx.warn(u.file, u.reg.at, u.message(u.count > 1 ? ` (${u.count}, this one the first)` : ''), u.reg.snippet);
  return ctx;
}

/**
 * Does a call of `fn` give the registration its path whole (`options.path`, a parameter) or its
 * method? Then its route is reported where the call is made (atOrigin); a prefix the call gives
 * (`${prefix}/reports`) leaves the route where it is written.
 */
function givenByCall(facts: FileFacts, reg: RegistrationFact, fn: number): boolean {
  const givesPath = [reg.args[0], reg.chainPath].some((e) => {
    let r = e;
    while (r?.k === 'member') r = r.obj;
    const b = r?.k === 'ref' ? bindingIn(facts, r.scope, r.name) : undefined;
    return b?.k === 'param' && b.fn === fn;
  });
  return givesPath || (reg.methodExpr !== undefined && paramsRead(facts, [reg.methodExpr]).has(fn));
}

/** The registrations adapters read in the calls of a file (`SwaggerModule.setup(path, app, …)`, `Adapter.registrationOf`). */
function madeByCalls(ev: Evaluator, adapters: Adapter[], file: string, facts: FileFacts): RegistrationFact[] {
  const out: RegistrationFact[] = [];
  for (const a of adapters) {
    if (!a.registrationOf || !a.readsCall) continue;
    for (const call of facts.calls) {
      if (!a.readsCall(call)) continue;
      const reg = a.registrationOf(call, ev.eval(file, call.callee));
      if (reg) out.push(reg);
    }
  }
  return out;
}

/** A test of one name or a property path of it (`!opts.required`, `config.enabled`) as a FlagCondition; null for any other. */
function flagOf(t: CondTest): FlagCondition | null {
  const op = t.k === 'not' ? 'falsy' : 'truthy';
  const inner = t.k === 'not' ? t.c : t;
  if (inner.k !== 'truthy') return null;
  const path: string[] = [];
  let e = inner.e;
  while (e.k === 'member') {
    path.unshift(e.prop);
    e = e.obj;
  }
  return e.k === 'ref' ? { name: e.name, ...(path.length > 0 ? { path } : {}), op } : null;
}

/** Kinds of a guard that refuses requests (an `unknown` candidate, a session read or a non-guard, not). */
const GUARDING = new Set<GuardKind>(['auth', 'bearer', 'tenant', 'csrf', 'family']);

/** The methods routers are given that register on them (FileFacts.routerAliases), by name: where each router is made, and what it registers. */
function routerAliases(files: Map<string, FileFacts>): Map<string, { file: string; at: Loc; method: string }[]> {
  const out = new Map<string, { file: string; at: Loc; method: string }[]>();
  for (const [file, facts] of files)
    for (const a of facts.routerAliases ?? []) {
      let list = out.get(a.name);
      if (!list) out.set(a.name, (list = []));
      list.push({ file, at: a.at, method: a.method });
    }
  return out;
}

/**
 * The registrations a file's calls of such methods make (`router.getAsync('/lists/:listId',
 * passport.loggedIn, handler)`): the route method the router's method registers, on the router
 * the call is made on — the one a factory's call made, when it is one, whose `file` and `at` are
 * the factory's router's (Evaluator) — with the call's arguments.
 */
function aliasCalls(ev: Evaluator, file: string, facts: FileFacts, aliases: Map<string, { file: string; at: Loc; method: string }[]>): RegistrationFact[] {
  if (aliases.size === 0) return [];
  const out: RegistrationFact[] = [];
  for (const call of facts.calls) {
    const c = call.callee;
    const named = c.k === 'member' ? aliases.get(c.prop) : undefined;
    if (!named || c.k !== 'member') continue;
    const v = ev.eval(file, c.obj);
    const router = v.t === 'router' ? ev.routers.get(v.id) : undefined;
    const alias = router && named.find((a) => a.file === router.file && a.at.line === router.at.line && a.at.column === router.at.column);
    if (alias) out.push({ target: c.obj, method: alias.method, args: call.args, chainPath: null, ...(call.when ? { when: call.when } : {}), at: call.at, snippet: call.snippet });
  }
  return out;
}

/**
 * Do the functions its calls pass tell apart the routers a factory (or a class's constructor)
 * makes at them? For a router: `makeRouter(requireKey)` guards its routes with what it is handed.
 * Not for an app: one made at several calls stays one for them — Unleash's `getApp(config, stores,
 * services, unleashSession)` of the server and `getApp(config, {}, { openApiService })` of its
 * tests — its routes listed once, a middleware a parameter holds conditional.
 */
function functionsTellCalls(r: RouterObject): boolean {
  return r.init.kind !== 'app';
}

/**
 * A value as far as a registration made at a call may differ by it: a router, the strings, number
 * or boolean it is, and (`functions`) a function or package value or a list of such; null when not known.
 */
function knownValue(v: Value, functions = true): string | null {
  if (v.t === 'router') return `router ${v.id}`;
  // a function of the code or a package's, such as a middleware handed to a factory
  // (`makeRouter(requireKey)`, `new ChatRouter(...guards)`), and a list of them
  if (functions && v.t === 'fn') return `fn ${v.file}#${v.fn}`;
  if (functions && v.t === 'pkg') return `pkg ${JSON.stringify([v.pkg, v.path, v.called])}`;
  const strings = v.t === 'num' || v.t === 'bool' ? [String(v.v)] : stringsOf(v);
  if (strings !== null) return JSON.stringify(strings);
  if (!functions || v.t !== 'arr' || v.items.length === 0) return null;
  const items = v.items.map((x) => knownValue(x));
  return items.every((i) => i !== null) ? `[${items.join(',')}]` : null;
}

/** What a registration is given besides its target: its arguments, a chain's path, a computed method. */
function argExprs(reg: RegistrationFact): Expr[] {
  return [...reg.args, ...(reg.chainPath ? [reg.chainPath] : []), ...(reg.methodExpr ? [reg.methodExpr] : [])];
}

/** A call, or a property or method of one (`healthRouter('/v1').routes()`). */
function callRooted(e: Expr): boolean {
  let x = e;
  while (x.k === 'member' || (x.k === 'call' && x.callee.k === 'member')) x = x.k === 'member' ? x.obj : x.callee;
  return x.k === 'call';
}

/** The registration as made by `call` (written in `file`): also under the conditions the call is made under. */
function underCall(reg: RegistrationFact, file: string, call: CallFact): RegistrationFact {
  if (!call.when) return reg;
  // (each field named, not spread: facts read back from text keep theirs on a prototype until
  // first read, facts-text.ts — a spread would copy a registration without its arguments)
  return {
    target: reg.target,
    method: reg.method,
    args: reg.args,
    chainPath: reg.chainPath,
    ...(reg.awaited ? { awaited: true } : {}),
    ...(reg.promised ? { promised: true } : {}),
    when: [...carried(call.when, file), ...(reg.when ?? [])],
    ...(reg.methodExpr ? { methodExpr: reg.methodExpr } : {}),
    ...(reg.site ? { site: reg.site } : {}),
    at: reg.at,
    snippet: reg.snippet,
  };
}

/**
 * What registrations are given by the call that makes them (givenByCall): the values of their
 * paths, chains' paths and computed methods; null when one is not known statically.
 */
function pathsOf(ev: Evaluator, file: string, regs: RegistrationFact[]): string | null {
  const known = regs.flatMap((r) => [r.args[0], r.chainPath, r.methodExpr].map((e) => (e ? knownValue(ev.eval(file, e)) : '')));
  return known.includes(null) ? null : JSON.stringify(known);
}

/** The registration as made at a call, located at the outermost call that leads to it. */
function atOrigin(reg: RegistrationFact, origin: CallOf['origin']): RegistrationFact {
  return { ...rewritten(reg, (e) => e), site: { file: origin.file, at: origin.call.at, snippet: origin.call.snippet } };
}

/** The value a function's parameter defaults to (`app = new Koa()`); null when it has no default. */
function paramDefault(ev: Evaluator, file: string, fn: number, index: number): Value | null {
  const f = ev.fnOf(file, fn);
  const scope = f && ev.files.get(file)?.scopes[f.scope];
  const b = scope && f.params[index] ? bindingOf(scope, f.params[index]!) : undefined;
  return b?.k === 'param' && b.init ? ev.eval(file, b.init) : null;
}

/**
 * What a registration is made on: its target, or — for a chain on something the evaluator does
 * not follow, a function's parameter (`fastify.register(a).register(b)` in a plugin, each call
 * answering the instance) — the chain's start. On a router the evaluator follows chains itself.
 */
function chainRoot(ev: Evaluator, file: string, target: Expr): Value {
  let e = target;
  let t = ev.eval(file, e);
  for (let i = 0; i < 64 && t.t === 'unknown' && e.k === 'call' && e.callee.k === 'member' && REGISTRATION_METHODS.has(e.callee.prop); i++) {
    e = e.callee.obj;
    t = ev.eval(file, e);
  }
  // `this.get(…)` in a class extending a router: the class's router
  return ev.classRouter(t, 0) ?? t;
}

/** InlineCheck.family of a check that guards every family the contract has. */
const EVERY_FAMILY = '*';

/** A function a pass-through wrapper wraps: as written where it is passed (`expr`, in `file`), and its value. */
interface Wrapped {
  file: string;
  expr: Expr;
  value: Value;
}

/** An inline check's name, what the handler does in it, the guard kind it gives, and the family it guards (if one; EVERY_FAMILY: all). */
interface InlineCheck {
  name: string;
  does: string;
  kinds: GuardKind[];
  family?: string;
  /** the guard's name, when not `(inline NAME check)` */
  label?: string;
}

/** What an inline check of each kind (LeadingGuard.inline) is called, and what the handler does in it. */
const INLINE_CHECKS: Record<NonNullable<LeadingGuard['inline']>, InlineCheck> = {
  auth: { name: '401', does: 'ends the request with 401', kinds: ['auth'] },
  tenant: { name: 'tenant', does: 'compares the tenant and refuses the request (401, 403 or 404)', kinds: ['tenant'] },
  csrf: { name: 'CSRF', does: 'compares a CSRF token (or the Origin header) and refuses the request', kinds: ['csrf'] },
  // a webhook's signature checked: the webhook family's guard
  signature: { name: 'signature', does: 'compares an HMAC of its own with what the request carries and refuses it', kinds: ['family'], family: 'webhook' },
  // a secret the caller must hold (a service's token, a cron job's): any family's guard, as a service
  // token is, and an API key's authentication: no request without it reaches the handler, and no
  // browser sends it by itself
  secret: { name: 'secret', does: 'compares what the request carries with a secret of its environment and refuses it', kinds: ['family', 'auth', 'bearer'], family: EVERY_FAMILY },
  // an API key or token the caller sends in a header, compared with the one stored for what it
  // asks for (Lighthouse CI's build token of a project): no request without it reaches the
  // handler, and no browser sends it by itself
  token: { name: 'stored-token', does: 'compares a credential the request carries in a header with the one stored for it and refuses it', kinds: ['auth', 'bearer'] },
  // `ctx.status = 405; ctx.body = { error: 'Use POST' }`: a route that serves no one needs no check of who calls it
  refusal: {
    name: 'refusal',
    does: 'answers every request with an error status and does nothing else',
    kinds: ['auth', 'tenant', 'csrf'],
    label: '(refuses every request)',
  },
};

/** How many functions deep a handler's request is followed through the calls it ends with (`LinkContext.leadingGuards`). */
const MAX_DELEGATIONS = 4;
/** How many factories deep a function made by a wrapper's call is looked for (Linker.madeAt). */
const MAX_FACTORY_DEPTH = 4;

/**
 * How a handler's request is followed through the calls it ends with: `depth`, the functions
 * followed so far; `no`, not at all (a handler whose first parameter is not the request).
 */
export interface FollowRequest {
  depth: number;
  no?: true;
  /**
   * only checks shown by what they do (a call whose definition ends the request with 401, or
   * with 403/404 comparing the tenant; an inline check), not a call counted by its name alone:
   * the checks a middleware leads with, which runs before routes that may answer for themselves
   */
  shown?: true;
}

/** The members a handler's parameter names the request by (`c.req.raw`, `ctx.request`, `request.raw`). */
const REQUEST_HANDLES = new Set(['req', 'raw', 'request']);
/** A name that reads data: `getAuthProviders`, `listSessions`, `findTenant`, or what it reads from where: `userFromSession`. */
const DATA_GETTER = /^(get|list|find|fetch|load|read|count|search)[A-Z]|^[a-z]\w*From[A-Z]/;
/** A name for an event's callback: `onAuthorize(user, c)` signs in the user once a check has passed. */
const EVENT_CALLBACK = /^on[A-Z]/;
/**
 * A name for what the call does to the session or the account, not for a check of the caller:
 * `setOAuthFlowCookie(c, …)`, `invalidateSessions(req)`, `createAuthorizationUrl(req)`,
 * `deleteAuthDevice(…)`, `completeOAuthSignIn(req)`, `genAPIKey()` (a key made for the account);
 * or for work done for the request, `sendSessionDigest()`, `processWorkspaceLinksUsageBatch()`,
 * `exportTenantData()` (Dub's cron jobs), a sign-in or sign-up flow carried out,
 * `handleSsoAuthentication(ctx, …)`, `registerWithSsoAuthentication(ctx, …)` (logto's), or
 * what is stored changed, `updateApiKey(user.uid, keyId, name)` (refly's key rename), or a
 * sign-in completed, `finalizeManagedAuthentication({ req, res, user })` (nango's), or the request
 * forwarded to a service that answers it, `serviceProxy.callAuthServer(request, response, …)`
 * (standardnotes' gateway).
 */
const ACTION_NAME = /^(set|clear|delete|remove|destroy|create|generate|gen|invalidate|revoke|enable|disable|complete|send|process|sync|export|record|track|notify|publish|enqueue|schedule|emit|flush|handle|register|update|save|upsert|insert|rename|finalize|regenerate|rotate|reset|call|proxy|forward|relay)[A-Z]/;
/** A name for the URL a call makes: heyform's `socialLoginService.authUrl(kind, query.state)`, `loginRedirectUri(req)`. */
const URL_NAME = /[a-z](Url|URL|Uri|URI)$/;

/** Registrations a loop over a known list makes, one per item, at most this many. */
const MAX_UNROLLED = 1024;
/** The most loops, one in another, a registration is unrolled over (`unrolled`). */
const MAX_NESTED_LOOPS = 3;
/** The most locals a loop's registration is read through (`unrolled`). */
const MAX_INLINED_LOCALS = 16;

/**
 * A registration made in a loop over a list known statically, once per item, in order:
 * `for (const r of routes) router.use(r.path, r.route)`, `routes.forEach((route) => …)` — its
 * loop variable read as the list's item each time, also through the locals it is read by
 * (`` const versionedPath = `/${version}${route.path}` ``, locals bound once). The registration
 * itself when it reads no loop variable (or two), or the list is not known.
 */
function unrolled(
  ev: Evaluator,
  file: string,
  facts: FileFacts,
  reg: RegistrationFact,
  within: (e: Expr) => Expr = (e) => e,
  onAddedTo?: (call: { file: string; fact: CallFact }) => void,
): RegistrationFact[] {
  return unrolledAs(ev, file, facts, reg, [reg.target, ...argExprs(reg)], reg.when, (subst) => rewritten(reg, subst), within, onAddedTo);
}

/**
 * The functions a call may call: the one its callee is; or, for a member of an object of the code
 * read by a key not known statically (NodeBB's `_mounts[original](router, mount, middleware,
 * controllers)` of `const _mounts = { user: require('./user') }; _mounts.topic = (app, name, …) =>
 * …`), each function among the object's members, in the order they are written.
 */
function calledFns(ev: Evaluator, file: string, callee: Expr): { file: string; fn: number }[] {
  const one = ev.calledFn(file, callee);
  if (one) return [one];
  if (callee.k !== 'index') return [];
  const obj = ev.eval(file, callee.obj);
  if (obj.t !== 'obj') return [];
  const out: { file: string; fn: number }[] = [];
  for (const k of Object.keys(obj.props)) {
    if (k.startsWith('*')) continue;
    const v = ev.member(obj, k, 0);
    if (v.t === 'fn' && !out.some((o) => o.file === v.file && o.fn === v.fn)) out.push({ file: v.file, fn: v.fn });
  }
  return out;
}

/**
 * A call made in a loop over a list known statically, once per item, as `unrolled` makes a
 * registration: `routeFiles.forEach((file) => require(\`./routes/${file}\`)(app))`.
 */
function unrolledCall(ev: Evaluator, file: string, facts: FileFacts, call: CallFact): CallFact[] {
  // (each property named: facts read back from the cache may hold them as accessors, which a spread would not copy)
  return unrolledAs(ev, file, facts, call, [call.callee, ...call.args], call.when, (subst) => ({
    callee: subst(call.callee),
    args: call.args.map(subst),
    at: call.at,
    snippet: call.snippet,
    ...(call.self ? { self: subst(call.self) } : {}),
    ...(call.when ? { when: call.when.map((c) => (c.file === undefined ? mapCond(c, subst) : c)) } : {}),
  }));
}

/**
 * `unrolled` of a fact whose expressions are `roots`, made under `when`, made again for an item
 * by `remake`: the conditions written in the loop read the item too (`if (file === 'index.js')
 * return;`), so that each is decided for its item.
 */
function unrolledAs<T>(
  ev: Evaluator,
  file: string,
  facts: FileFacts,
  fact: T,
  roots: Expr[],
  when: Cond[] | undefined,
  remake: (subst: (e: Expr) => Expr) => T,
  within: (e: Expr) => Expr = (e) => e,
  onAddedTo?: (call: { file: string; fact: CallFact }) => void,
): T[] {
  if (!Object.hasOwn(facts.scopes[0]?.bindings ?? {}, LOOPS)) return [fact];
  // The references to the loops' variables: a name bound to an item of a list, or the first
  // parameter of a forEach callback (the callback's scope binds the list as EACH).
  // (a loop is one variable, or the item its names are destructured from: `for (const [name, controller] of …)`)
  const loops = new Map<string, UnrolledLoop>();
  // each reference, with its loop and its place in the item when it names one
  const refs = new Map<Expr, { key: string; index: number | undefined; path?: string[] }>();
  // each local read in the loop whose value reads a variable (`const path = \`/v1${route.path}\``), with that value
  const locals = new Map<Expr, Expr>();
  const via = new Set<string>();
  let moduleLooks = 0;
  // (while the conditions are read: only the loops the fact's own expressions go over count)
  let inConditions = false;
  const find = (e: Expr): boolean => {
    if (e.k !== 'ref') {
      let reads = false;
      forEachChildExpr(e, (c) => {
        if (find(c)) reads = true;
      });
      return reads;
    }
    if (locals.has(e) || refs.has(e)) return true;
    const v = loopVariable(facts, e);
    if (!v) {
      // (a local bound once: its value stands in its place; at most MAX_INLINED_LOCALS of them. One
      // of the module's scope, as a loop at module scope declares its locals there — at most
      // MAX_INLINED_LOCALS of those looked at, as any name of the module is one. Not `this`: a
      // class's fields are given values by any of its methods, so one given a value in a loop,
      // langfuse's `this.haltError = new Error(\`${this.logPrefix} ${verificationError}\`)`, is no
      // value the instance takes per item — read so, it stood in its own place, without end)
      const sc = scopeOf(facts, e.scope, e.name);
      const b = sc && bindingOf(sc, e.name);
      const key = `${sc?.id}:${e.name}`;
      if (!sc || !b || b.k === 'param' || b.k === 'fn' || e.name.startsWith(THIS_PREFIX) || bindingOf(sc, REASSIGNED + e.name) || via.has(key) || locals.size >= MAX_INLINED_LOCALS) return false;
      if (sc.id === 0 && ++moduleLooks > MAX_INLINED_LOCALS) return false;
      via.add(key);
      const reads = find(b);
      via.delete(key);
      if (reads) locals.set(e, b);
      return reads;
    }
    if (inConditions && !loops.has(v.key)) return false;
    if (!loops.has(v.key)) loops.set(v.key, { key: v.key, of: v.of, forOf: v.forOf, after: new Set() });
    refs.set(e, { key: v.key, index: v.index, ...(v.path ? { path: v.path } : {}) });
    return true;
  };
  for (const e of roots) find(e);
  if (loops.size === 0) return [fact];
  // A loop in a loop goes over a list its outer loop's variable names (`for (const ctrl in config)
  // config[ctrl].forEach((item) => …)`): that list is read for each item of the outer list. (Its
  // references found here, as the fact's: the outer loop counts even when the fact reads only the inner.
  // The module's names looked at on the way do not count against what the conditions may look at.)
  const looks = moduleLooks;
  for (const seen = new Set<string>(); seen.size < loops.size; ) {
    for (const l of [...loops.values()]) {
      if (seen.has(l.key)) continue;
      seen.add(l.key);
      const known = refs.size;
      find(l.of);
      // (a Map keeps its order: the references found just now are its last ones)
      for (const r of [...refs.values()].slice(known)) if (r.key !== l.key) l.after.add(r.key);
    }
    if (loops.size > MAX_NESTED_LOOPS) return [fact];
  }
  moduleLooks = looks;
  const order: UnrolledLoop[] = [];
  while (order.length < loops.size) {
    const next = [...loops.values()].find((l) => !order.includes(l) && [...l.after].every((k) => order.some((o) => o.key === k)));
    // (two lists each named by the other's variable: no order to read them in)
    if (!next) return [fact];
    order.push(next);
  }
  inConditions = true;
  for (const c of when ?? []) if (c.file === undefined) for (const e of condExprs(c)) find(e);
  // each loop's item of the fact made
  const items = new Map<string, Expr>();
  // (the locals whose values are being put in place: a value reading its own local, an object
  // built with `headers['X-Forwarded-Host'] = headers[k]`, leaves that reading as written)
  const expanding = new Set<Expr>();
  const subst = (e: Expr): Expr => {
    const local = locals.get(e);
    if (local && !expanding.has(e)) {
      expanding.add(e);
      try {
        return subst(local);
      } finally {
        expanding.delete(e);
      }
    }
    const r = refs.get(e);
    if (!r) return mapChildExprs(e, subst);
    const item = items.get(r.key)!;
    if (r.path) return r.path.reduce((obj: Expr, prop): Expr => ({ k: 'member', obj, prop }), item);
    return r.index === undefined ? item : { k: 'item', of: item, index: r.index };
  };
  const out: T[] = [];
  // (the calls adding to a list read once for each item of an outer list, told once)
  const addedSeen = new Set<CallFact>();
  // (false: a list not known statically, or too many facts: the fact stands as written)
  const unroll = (depth: number): boolean => {
    if (depth === order.length) {
      out.push(remake(subst));
      return out.length <= MAX_UNROLLED;
    }
    const l = order[depth]!;
    // (the list read as a call passes it, when it is a parameter's)
    const of = ev.iterated(file, within(l.after.size > 0 ? subst(l.of) : l.of), l.forOf);
    const list = ev.eval(file, of);
    // (a directory with no entry the loop keeps, or an empty list the call passes: it makes nothing)
    if (list.t === 'arr' && list.items.length === 0 && (ev.isListing(list) || ev.isPassedEmpty(list))) return true;
    if (list.t !== 'arr' || list.items.length === 0 || list.items.length > MAX_UNROLLED) return false;
    const added = onAddedTo ? addedTo(ev, file, of) : null;
    if (added && !addedSeen.has(added.fact)) {
      addedSeen.add(added.fact);
      onAddedTo!(added);
    }
    for (let index = 0; index < list.items.length; index++) {
      items.set(l.key, { k: 'item', of, index });
      if (!unroll(depth + 1)) return false;
    }
    return true;
  };
  return unroll(0) ? out : [fact];
}

/** A loop `unrolledAs` makes a fact again for: its list, and the loops whose variables name the list. */
interface UnrolledLoop {
  key: string;
  of: Expr;
  forOf: boolean;
  after: Set<string>;
}

/**
 * A call adding to the list a loop goes over, in place (`allRoutes.push(...routes)`), in the
 * file that declares it: the loop reads the list as declared, without what such a call adds.
 */
function addedTo(ev: Evaluator, file: string, list: Expr): { file: string; fact: CallFact } | null {
  let f = file;
  let e = list;
  while (e.k === 'at') {
    f = e.file;
    e = e.e;
  }
  const def = e.k === 'ref' ? ev.definitionOf(f, e.scope, e.name) : null;
  const fact = def ? additionsTo(ev, def)[0] : undefined;
  return fact ? { file: def!.file, fact } : null;
}

/** The calls of the file declaring a list that add to it in place (`push`, `unshift`, `splice`), in source order. */
export function additionsTo(ev: Evaluator, def: Definition): CallFact[] {
  return (ev.files.get(def.file)?.calls ?? []).filter((fact) => {
    const c = fact.callee;
    if (c.k !== 'member' || !ADDS_TO_LIST.has(c.prop) || c.obj.k !== 'ref' || c.obj.name !== def.name) return false;
    const d = ev.definitionOf(def.file, c.obj.scope, c.obj.name);
    return !!d && d.file === def.file && d.scope === def.scope;
  });
}

/**
 * The loop a name is the variable of, when it is one: the list it goes over, a key telling the
 * loop, and, for a name destructured from the variable (`for (const [name, controller] of …)`,
 * `.forEach(([name, handler]) => …)`), its place in the item.
 */
function loopVariable(facts: FileFacts, e: Extract<Expr, { k: 'ref' }>): { key: string; of: Expr; index: number | undefined; forOf: boolean; path?: string[] } | null {
  const sc = scopeOf(facts, e.scope, e.name);
  const b = sc && bindingOf(sc, e.name);
  if (!sc || !b) return null;
  // (a name destructured from a forEach callback's item, `({ path, handler }) => …`: that member
  // of the item, the loop the parameter's — one for every name taken out of it)
  if (b.k === 'member') {
    const path: string[] = [];
    let root: Expr = b;
    while (root.k === 'member') {
      path.unshift(root.prop);
      root = root.obj;
    }
    // (or from a `for … of` variable, `for (const { path, handler } of routes)`)
    const of = (root.k === 'param' && root.index === 0 && root.name === '') || (root.k === 'item' && root.index === undefined) ? loopListOf(facts, root) : null;
    return of ? { key: `${sc.id}:${JSON.stringify(root)}`, of, index: undefined, forOf: root.k === 'item', path } : null;
  }
  const whole = b.k === 'item' && b.index !== undefined ? b.of : null;
  const part = whole && loopListOf(facts, whole) ? whole : null;
  const of = part ? loopListOf(facts, part) : loopListOf(facts, b);
  if (!of) return null;
  // (by the loop variable, written out: facts read back from the cache share no objects)
  // (a forEach callback's item is its first parameter; a `for … of` variable, an item)
  const forOf = (part ?? b).k === 'item';
  return part ? { key: `${sc.id}:${JSON.stringify(part)}`, of, index: (b as Extract<Expr, { k: 'item' }>).index, forOf } : { key: `${sc.id}:${e.name}`, of, index: undefined, forOf };
}

/** Whether a file has a loop and imports a module reading directories: its loop may go over a directory's modules. */
function listsDirectories(facts: FileFacts): boolean {
  return Object.hasOwn(facts.scopes[0]?.bindings ?? {}, LOOPS) && facts.imports.some((i) => DIRECTORY_MODULES.has(i.source));
}

/** Whether an expression reads a loop's variable (`unrolled` makes one of it per item). */
function readsLoopVariable(facts: FileFacts, e: Expr): boolean {
  if (!Object.hasOwn(facts.scopes[0]?.bindings ?? {}, LOOPS)) return false;
  let found = false;
  const find = (x: Expr): void => {
    if (found) return;
    if (x.k !== 'ref') return forEachChildExpr(x, find);
    if (loopVariable(facts, x)) found = true;
  };
  find(e);
  return found;
}

/** A value that is one of several routers (`cond ? a : b`, a name given either): each of them; else the value itself. */
function eachOf(t: Value): Value[] {
  return t.t === 'unknown' && t.alts?.length && t.alts.every((a) => a.t === 'router') ? t.alts : [t];
}

/** Whether a registration whose target's chain starts at `t` is made on a router, or on a parameter of a function of `file` (bound through its calls). */
/** How many modules deep `requiredAt` looks for the module loaded. */
const MAX_REQUIRE_DEPTH = 4;

/**
 * The places of the `require(…)` calls (with a string) by which module `from` loads module `to`:
 * one it makes itself, or one of a module it loads so, and so on (at most MAX_REQUIRE_DEPTH
 * modules deep, the shortest such chain, the first call of each module in file order); null when
 * it loads it by no such call.
 */
function requiredAt(ev: Evaluator, files: Map<string, FileFacts>, from: string, to: string): Loc[] | null {
  const seen = new Set<string>([from]);
  let level: { file: string; chain: Loc[] }[] = [{ file: from, chain: [] }];
  for (let depth = 0; depth < MAX_REQUIRE_DEPTH && level.length > 0; depth++) {
    const next: { file: string; chain: Loc[] }[] = [];
    for (const { file, chain } of level) {
      for (const call of files.get(file)?.calls ?? []) {
        const spec = call.args[0];
        if (call.callee.k !== 'ref' || call.callee.name !== 'require' || spec?.k !== 'str' || ev.definitionOf(file, call.callee.scope, 'require')) continue;
        const target = ev.resolveModule(file, spec.v);
        if (target === null || seen.has(target)) continue;
        if (target === to) return [...chain, call.at];
        seen.add(target);
        next.push({ file: target, chain: [...chain, call.at] });
      }
    }
    level = next;
  }
  return null;
}

function madeOn(t: Value, file: string): boolean {
  return t.t === 'router' || (t.t === 'param' && t.file === file);
}

/**
 * The functions whose parameters an expression reads — through the locals and class fields its
 * names are bound to, and the lists its loop variables go over (a forEach callback's item is the
 * list's, `unrolled`) — in its file. At most `MAX_READ` expressions are looked at.
 */
function paramsRead(facts: FileFacts, roots: Expr[]): Set<number> {
  const out = new Set<number>();
  const seen = new Set<Expr>();
  // the helpers whose returns are being read: their own parameters are what the call passes
  // (read as its arguments), not a parameter of a function making the registration
  const called = new Set<number>();
  const visit = (e: Expr): void => {
    if (seen.has(e) || seen.size > MAX_READ) return;
    seen.add(e);
    if (e.k === 'param') {
      const of = loopListOf(facts, e);
      if (of) visit(of);
      else if (!called.has(e.fn)) out.add(e.fn);
    } else if (e.k === 'argc' || e.k === 'argAt') {
      if (!called.has(e.fn)) out.add(e.fn);
    } else if (e.k === 'call' && localFn(facts, e.callee) !== null) {
      // `at('/status')` of `const at = (p) => \`${prefix}${p}\``: what the helper returns reads
      // too (`prefix`, the enclosing function's; not `p`, the helper's own: the call passes it)
      const helper = localFn(facts, e.callee)!;
      const outermost = !called.has(helper);
      called.add(helper);
      for (const r of facts.functions[helper]?.returns ?? []) visit(r);
      if (outermost) called.delete(helper);
      forEachChildExpr(e, visit);
    } else if (e.k === 'ref') {
      // `handler.bind(this)`: the instance is one object whichever call made it (`this.x` reads its field, below)
      if (isThis(e)) return;
      const b = bindingIn(facts, e.scope, e.name);
      if (b) visit(b);
    } else if (e.k === 'member' && e.obj.k === 'ref') {
      // `this.list` reads the one field of the instance, not every field the constructor sets
      // (what a class inherits, SUPER, comes first: its own fields win over it)
      const b = bindingIn(facts, e.obj.scope, e.obj.name);
      if (b?.k === 'obj' && Object.hasOwn(b.props, e.prop) && !Object.keys(b.props).some((k) => k.startsWith('*spread*') && k !== SUPER)) visit(b.props[e.prop]!);
      else visit(e.obj);
    } else forEachChildExpr(e, visit);
  };
  for (const e of roots) visit(e);
  return out;
}

const MAX_READ = 256;

/** The function of the file a callee names (`at` of `const at = (p) => …`), or null. */
function localFn(facts: FileFacts, callee: Expr): number | null {
  const b = callee.k === 'ref' ? bindingIn(facts, callee.scope, callee.name) : undefined;
  return b?.k === 'fn' ? b.id : null;
}

/** The id of the scope a name read in `scope` of a file is declared in; -1 when none declares it (a global). */
export function declaringScope(facts: FileFacts | undefined, scope: number, name: string): number {
  return (facts && scopeOf(facts, scope, name)?.id) ?? -1;
}

/**
 * Is a registration's router a local of function `fn` (`const router = express.Router()` in it)?
 * Each call makes it anew, but it is one router here: bound once per call, its registrations would
 * be repeated on it.
 */
function localTo(facts: FileFacts, target: Expr, fn: number): boolean {
  let e = target;
  while (e.k === 'member' || e.k === 'call') e = e.k === 'member' ? e.obj : e.callee;
  return e.k === 'ref' && inFunction(facts, scopeOf(facts, e.scope, e.name), fn);
}

/** Keys two values share when they are the same value (object literals by identity). */
function valueKeys(): (v: Value) => string {
  const ids = new WeakMap<object, number>();
  let next = 0;
  const idOf = (o: object): number => {
    let id = ids.get(o);
    if (id === undefined) ids.set(o, (id = next++));
    return id;
  };
  const keyOf = (v: Value): string => {
    switch (v.t) {
      case 'arr':
        return `[${v.items.map(keyOf).join(',')}]`;
      case 'obj':
        return `obj:${idOf(v.props)}`;
      case 'pkg':
        return `pkg:${v.pkg}:${v.path.join('.')}:${v.called}(${v.args.map(keyOf).join(',')})`;
      default:
        return JSON.stringify(v);
    }
  };
  return keyOf;
}

/** A call of a function of the analysed files, made in `file`. */
interface CallOf {
  file: string;
  call: CallFact;
  site: CallSite;
  /** the call furthest out this one is made for (`this.get(…)` of a subclass, for `this.route(…)` in the base's get()) */
  origin: { file: string; call: CallFact };
  /** the call as written, its arguments read with no call it is made for (`site` reads them with the calls out to `origin`) */
  written?: CallSite;
  /** one of the functions a member read by a key not known statically may be (calledFns) */
  maybe?: true;
}

/** Calls of one function this many levels up at most (`new App([…])` → `this.initializeRoutes(routes)`), and this many in all. */
const MAX_CALL_LEVELS = 4;
const MAX_CALL_SITES = 1024;

/**
 * The calls of function `key` as they are made: one whose arguments read the parameters of the
 * function it is made in (`this.initializeRoutes(routes)` in a constructor) once per call of that
 * function, its arguments read with that call's (`within`); the others as written.
 */
function callSitesOf(ev: Evaluator, callsTo: Map<string, CallOf[]>, key: string, level: number): CallOf[] {
  const out: CallOf[] = [];
  for (const c of callsTo.get(key) ?? []) {
    const facts = ev.files.get(c.file)!;
    const read = level < MAX_CALL_LEVELS ? paramsRead(facts, c.call.args) : new Set<number>();
    const outer = read.size === 1 ? [...read][0]! : null;
    const outerSites = outer === null ? [] : callSitesOf(ev, callsTo, fnKey(c.file, outer), level + 1);
    if (outerSites.length === 0) out.push(c);
    for (const o of outerSites) {
      // (a call that may be of this function, its callee read by a key not known statically: only where the outer call makes it one)
      const callees = c.maybe ? calleesAt(ev, c.file, c.call, o.site) : null;
      if (callees && !callees.has(key)) continue;
      const args = c.call.args.map((a): Expr => (paramsRead(facts, [a]).has(outer!) ? { k: 'within', e: a, call: o.site } : a));
      // `this.route(…)` in a method called as `this.get(…)`: `this` is what the outer call is made on
      const self = c.site.self && isThis(c.site.self) && o.site.self ? { k: 'at' as const, file: o.site.argsFile, e: o.site.self } : c.site.self;
      out.push({ ...c, site: { ...c.site, args, ...(self ? { self } : {}) }, origin: o.origin, written: c.written ?? c.site });
    }
    if (out.length >= MAX_CALL_SITES) return out.slice(0, MAX_CALL_SITES);
  }
  return out;
}

/** `this` in a class's members (its instance fields, `*this*App`). */
export function isThis(e: Expr): boolean {
  return e.k === 'ref' && e.name.startsWith(THIS_PREFIX);
}

/** An expression's first name: `this` of `this.app.use`, `router` of `router.route('/x').get`. */
function rootOf(e: Expr): Expr {
  if (e.k === 'member') return rootOf(e.obj);
  if (e.k === 'call' || e.k === 'new') return rootOf(e.callee);
  return e;
}

/**
 * Is `callee` a name for function `fn`, called in the scope that declares it (not the module's)
 * or in one inside that scope? A local helper of the function making the call, then.
 */
function declaredAround(facts: FileFacts, callee: Expr, fn: number): boolean {
  const own = facts.functions[fn]?.scope;
  const declared = own === undefined ? null : facts.scopes[own]?.parent;
  if (callee.k !== 'ref' || declared === null || declared === undefined || declared === 0) return false;
  for (let s: number | null | undefined = callee.scope; s !== null && s !== undefined; s = facts.scopes[s]?.parent) if (s === declared) return true;
  return false;
}

/** The scope an expression's first name is looked up from: where a call is written (0: at module scope; `this` is in a class's member). */
function rootScope(e: Expr): number | null {
  const r = rootOf(e);
  return r.k === 'ref' && !isThis(r) ? r.scope : null;
}

/**
 * A registration of function `site.fn` as the call `site` makes it: each name in its arguments
 * or path that reads the function's parameters is read with the call's arguments (`within`),
 * and a loop over a list the call passes is unrolled. Its target is the router the caller bound it to.
 */
function atCallSite(ev: Evaluator, file: string, reg: RegistrationFact, site: CallSite): RegistrationFact[] {
  const facts = ev.files.get(file)!;
  // Only the names are read so: an argument keeps its form (a template, a function) for the
  // adapters, and a parameter is the argument passed for it, as written at the call.
  // (mapChildExprs answers the expression itself when no name in it changes)
  const within = (e: Expr): Expr => {
    // `this.path` set from the constructor's parameter: the field is read in the call's context too
    if (e.k === 'member' && e.obj.k === 'ref' && isThis(e.obj) && paramsRead(facts, [e]).has(site.fn)) return { k: 'within', e, call: site };
    // `at('/status')` of a helper the factory holds, whose returns read the factory's parameters: the whole call in the call's context
    if (e.k === 'call' && localFn(facts, e.callee) !== null && paramsRead(facts, [e]).has(site.fn)) return { k: 'within', e, call: site };
    return e.k === 'ref' ? readAtCall(facts, e, site) : mapChildExprs(e, within);
  };
  // `this.app.use(path, router)` in a base class's method called as `this.use(…)` by a subclass: on the subclass's router
  const self = site.self;
  const onSelf = (e: Expr): Expr => (isThis(e) ? { k: 'at', file: site.argsFile, e: self! } : mapChildExprs(e, onSelf));
  return unrolled(ev, file, facts, reg, within).map((r) => ({ ...rewritten(r, within), target: self ? onSelf(r.target) : r.target }));
}

/**
 * A registration written in the function a call calls (`callee`), as made at that call: the
 * callee's parameters read as the arguments `call` passes, in `callerFile` — a Fastify helper's
 * `server.get(\`/${name}/\`, …)` of `registerResource(api, 'sites')`.
 */
export function registrationAtCall(ev: Evaluator, reg: RegistrationFact, callee: { file: string; fn: number }, callerFile: string, call: CallFact): RegistrationFact[] {
  return atCallSite(ev, callee.file, reg, callSiteOf(callee, callerFile, call));
}

/**
 * A name read at the call `site` when it reads a parameter of the function called: what the call
 * passes for it, or the name read within the call (its default, when it passes none); else as written.
 */
function readAtCall(facts: FileFacts, e: Extract<Expr, { k: 'ref' }>, site: CallSite): Expr {
  const read = paramsRead(facts, [e]);
  // (or of the function the method is written in, as the call making its object passed them)
  if (!read.has(site.fn) && !(site.made && read.has(site.made.fn))) return e;
  return passedFor(facts, e, site) ?? (site.made && passedFor(facts, e, site.made)) ?? { k: 'within', e, call: site };
}

/** What `site` passes for the parameter of its function that `e` names, as written at the call; undefined for any other name. */
function passedFor(facts: FileFacts, e: Extract<Expr, { k: 'ref' }>, site: CallSite): Expr | undefined {
  const b = bindingIn(facts, e.scope, e.name);
  // (a rest parameter, `...guards`, is every argument from its place on: read in the call's context)
  const arg = b?.k === 'param' && b.fn === site.fn && facts.functions[b.fn]?.rest !== b.index ? site.args[b.index] : undefined;
  return arg ? { k: 'at', file: site.argsFile, e: arg } : undefined;
}

/**
 * A registration with its expressions mapped by `f`, every field copied by name: one read back
 * from the cache holds some of them as getters (facts-text.ts), which a spread would drop.
 */
function rewritten(reg: RegistrationFact, f: (e: Expr) => Expr): RegistrationFact {
  return {
    target: f(reg.target),
    method: reg.method,
    args: reg.args.map(f),
    chainPath: reg.chainPath ? f(reg.chainPath) : null,
    ...(reg.awaited ? { awaited: true } : {}),
    // (a call's conditions carried here are read where the call is written)
    ...(reg.when ? { when: reg.when.map((c) => (c.file === undefined ? mapCond(c, f) : c)) } : {}),
    ...(reg.methodExpr ? { methodExpr: f(reg.methodExpr) } : {}),
    ...(reg.site ? { site: reg.site } : {}),
    at: reg.at,
    snippet: reg.snippet,
  };
}

/** Call `f` on each expression directly inside `e`. */
export function forEachChildExpr(e: Expr, f: (c: Expr) => void): void {
  mapChildExprs(e, (c) => {
    f(c);
    return c;
  });
}

/** A registration made on a property of a function's parameter: `function setup({ app }) { app.get(…) }`. */
export interface PropertyRegistration {
  fnKey: string;
  index: number;
  /** the property path from the parameter to the router (`['app']`) */
  path: string[];
  reg: RegistrationFact;
  regFile: string;
  /** positions of the calls between the function and the registration, for registration order */
  chain: number[];
  /** a registration on the bare parameter whose direct callers were already bound */
  boundDirectly?: true;
  /** followed through a call that may be of its function (CallOf.maybe) */
  maybe?: true;
  /**
   * The call it was last followed through when that call may be of its function (CallOf.maybe), made
   * in the function `fnKey` names or one inside it: decided at each call of that function by what
   * the call passes (calleesAt). `fn`, the function it must call; `maybe`, the registration's before it.
   */
  undecided?: { file: string; call: CallFact; fn: string; maybe: boolean };
  /** the function that makes the registration, when `fnKey` is one that passes its parameter on */
  origin?: string;
  /**
   * which of the registrations a loop makes of one written once it is (`unrolled`: `for (const
   * prefix of ['/vscode', '/']) app.router.use(prefix, r)`), each written at the same place
   */
  item?: number;
}

/**
 * Routers handed over inside an object: `registerRoutes({ app, db })` → `registerTagsRoutes(context)`
 * → `setupCreateTagRoute({ app })` → `app.post(…)`. A function that passes its own parameter on
 * inherits the registrations of the callee; a call site that passes an object whose property
 * (along the path) is a router binds them to that router. Answers every registration followed,
 * as each function it reached makes it (the registration as the calls between make it).
 */
function bindPropertyRegistrations(
  ev: Evaluator,
  files: Map<string, FileFacts>,
  callsTo: ReadonlyMap<string, readonly CallOf[]>,
  initial: PropertyRegistration[],
  bind: (b: BoundRegistration) => void,
  boundFns: Set<string>,
): PropertyRegistration[] {
  /**
   * A registration whose path (whole) or method the function writing it is given
   * (`route(router, 'get', '/etapi/app-info', h)` of `function route(router, method, path,
   * handler) { router[method](path, …) }`, called by a function handing on its own router), as
   * the first call out makes it: with what that call passes, located at the call. One given a
   * parameter whole as an argument (NodeBB's `addCoreRoutes(app, router)` mounting
   * `app.use(relativePath || '/', router)`): that argument is what the call passes, where the
   * registration is written. A path written as a template is read at every call out
   * (templatesAt). Any other is kept as written (a middleware list a call passes from a
   * parameter of its own would lose the names it is written with).
   */
  const madeAt = (r: PropertyRegistration, file: string, call: CallFact, site: CallSite): RegistrationFact => {
    const facts = files.get(r.regFile)!;
    if (givenByCall(facts, r.reg, site.fn)) {
      const made = atCallSite(ev, r.regFile, r.reg, site);
      return made.length === 1 ? atOrigin(made[0]!, { file, call }) : r.reg;
    }
    const args = new Set(r.reg.args);
    const passed = (e: Expr): Expr => (args.has(e) && e.k === 'ref' ? passedFor(facts, e, site) : undefined) ?? e;
    return templatesAt(r.reg.args.some((a) => passed(a) !== a) ? rewritten(r.reg, passed) : r.reg, r.regFile, site);
  };
  /** `reg` with each of its arguments written as a template read at the call `site` (templateAtCall). */
  const templatesAt = (reg: RegistrationFact, file: string, site: CallSite): RegistrationFact => {
    if (!reg.args.some((a) => a.k === 'tpl')) return reg;
    const args = new Set(reg.args);
    return rewritten(reg, (a) => (a.k === 'tpl' && args.has(a) ? templateAtCall(a, file, site) : a));
  };
  /**
   * A path written as a template (`/${scalarPath}` of `app.use(\`/${scalarPath}\`, apiReference(…))`,
   * called by a function handing on its own app and its own option, `{ scalarPath = 'docs' }`):
   * each name in it read at the call (readAtCall). Names an earlier call wrote in (`at` another
   * file) are read in their file, so a path handed down through several functions is read at each
   * call (`setupAll(app, 'v2')` → `setupSwagger(app, \`${prefix}-swagger\`)` → `mountDocs(app, swaggerPath)`).
   */
  const templateAtCall = (e: Expr, file: string, site: CallSite): Expr => {
    const read = (x: Expr, xf: FileFacts, xfile: string): Expr => {
      if (x.k === 'at') {
        const ff = files.get(x.file);
        const inner = ff ? read(x.e, ff, x.file) : x.e;
        return inner === x.e ? x : { ...x, e: inner };
      }
      if (x.k !== 'ref') return mapChildExprs(x, (c) => read(c, xf, xfile));
      return xfile === site.file ? readAtCall(xf, x, site) : x;
    };
    return read(e, files.get(file)!, file);
  };
  // Each registration is followed through the calls of its function once; one that a caller
  // hands on from a parameter of its own is followed in turn, up to MAX_HANDED_ON calls out, and
  // never back into a function it came through (a recursive function handing its parameter to
  // itself reaches no other router, and each such call would be one more path to follow).
  const seen = new Set<string>();
  const queue: { r: PropertyRegistration; via: ReadonlySet<string> }[] = [];
  /** `r`, or what `made` makes of it (its registration as a call makes it), to follow when not followed yet. */
  const add = (r: PropertyRegistration, via: ReadonlySet<string>, made?: () => RegistrationFact): void => {
    const key = `${r.fnKey}|${r.index}|${r.path.join('.')}|${r.regFile}:${r.reg.at.line}:${r.reg.at.column}|${r.chain.join(',')}|${r.item ?? ''}`;
    if (seen.has(key) || seen.size > 50_000) return;
    seen.add(key);
    queue.push({ r: made ? { ...r, reg: made() } : r, via });
  };
  for (const r of initial) add(r, new Set([r.fnKey]));
  const bound = new Set<string>();
  for (let next = 0; next < queue.length; next++) {
    const { r, via } = queue[next]!;
    // (the calls of its function, in file order: each looked at once per registration, not once per round)
    for (const { file, call, site, maybe: maybeCall } of callsTo.get(r.fnKey) ?? []) {
      // (followed through a call that may be of the function it came from: only where this call
      // makes it one, `decorate(router, Webhook, ['add'])` of `decs.forEach((m) => decorators[m](router))`)
      const u = r.undecided;
      const decided = u ? calleesAt(ev, u.file, u.call, site) : null;
      if (decided && !decided.has(u!.fn)) continue;
      const before = decided ? u!.maybe : r.maybe === true;
      const maybe = before || maybeCall;
      const arg = call.args[r.index];
      if (!arg) continue;
      const v = ev.eval(file, arg);
      let target: Value = v;
      for (const prop of r.path) target = handedRouter(ev, target, prop);
      // (a name given either of two routers, `let app; if (…) app = … else app = …; setupSwagger(app)`: each)
      const targets = eachOf(target);
      if (targets.every((t) => t.t === 'router')) {
        if (r.boundDirectly) continue;
        for (const t of targets as Extract<Value, { t: 'router' }>[]) {
          const key = `${file}:${call.at.line}:${call.at.column}|${r.regFile}:${r.reg.at.line}:${r.reg.at.column}|${r.chain.join(',')}|${r.item ?? ''}|${t.id}`;
          if (bound.has(key)) continue;
          bound.add(key);
          const router = ev.routers.get(t.id)!;
          boundFns.add(r.origin ?? r.fnKey);
          bind({ reg: underCall(templatesAt(r.reg, r.regFile, site), file, call), file: r.regFile, router, order: [file === router.file ? 0 : 1, file, call.at.line, call.at.column, ...r.chain], ...(maybe ? { maybe } : {}) });
        }
      } else if (target.t === 'param' && target.file === file && via.size <= MAX_HANDED_ON && !via.has(fnKey(file, target.fn))) {
        // the caller's own parameter, or a property of it: `setup(context)` of `function
        // register(context)`, also written in an object, `registerHealthRoute({ app })` of
        // `function registerRoutes(app)` (what is read of it, `target`, the parameter and its path)
        const caller = fnKey(file, target.fn);
        // (the key reads the registration's place only: the conditions the call adds are made once it is new)
        const undecided = maybeCall ? { undecided: { file, call, fn: r.fnKey, maybe: before } } : {};
        add({ fnKey: caller, index: target.index, path: target.path ?? [], reg: r.reg, regFile: r.regFile, chain: [call.at.line, call.at.column, ...r.chain], origin: r.origin ?? r.fnKey, ...(r.item !== undefined ? { item: r.item } : {}), ...(maybe ? { maybe } : {}), ...undecided }, new Set([...via, caller]), () =>
          underCall(r.origin === undefined ? madeAt(r, file, call, site) : templatesAt(r.reg, r.regFile, site), file, call),
        );
      }
    }
  }
  return queue.map((q) => q.r);
}

/**
 * `listProjects.mountHttp(app)` of a method written in a factory, on the object a call of that
 * factory made (`const listProjects = endpoint({ route, handler })`, whose returned `{
 * mountHttp(app) { app.openapi(args.route, args.handler) } }` reads the factory's parameter):
 * that call, as the site of the function the method is written in; null for any other call.
 */
function madeBy(ev: Evaluator, callee: { file: string; fn: number }, file: string, call: CallFact): CallSite | null {
  if (call.callee.k !== 'member') return null;
  const facts = ev.files.get(callee.file)!;
  const outer = enclosingFn(facts, callee.fn);
  if (outer === null) return null;
  const made = writtenCall(ev, file, call.callee.obj);
  return made ? callMaking(ev, { file: callee.file, fn: outer }, made.file, made.call.callee, made.call.args, 0) : null;
}

/**
 * The call of function `fn` a call (its callee and arguments, in `file`) makes: itself, or the
 * call a function it calls returns, its arguments read within the outer call (latitude's
 * `buildLifecycleEndpoint({ pathSuffix, … })` returning `issueEndpoint({ route: createRoute({
 * path: pathSuffix, … }) })`), a few levels deep; null for any other.
 */
function callMaking(ev: Evaluator, fn: { file: string; fn: number }, file: string, callee: Expr, args: Expr[], depth: number): CallSite | null {
  const fns = calledFns(ev, file, callee);
  if (fns.some((f) => f.file === fn.file && f.fn === fn.fn)) return { file: fn.file, fn: fn.fn, argsFile: file, args };
  if (depth >= MAX_MAKING_LEVELS || fns.length !== 1) return null;
  const g = fns[0]!;
  const site: CallSite = { file: g.file, fn: g.fn, argsFile: file, args };
  for (const r of ev.returnsOf(g.file, g.fn)) {
    const inner = writtenCall(ev, g.file, r);
    if (!inner || inner.file !== g.file) continue;
    const made = callMaking(ev, fn, g.file, inner.call.callee, inner.call.args.map((a): Expr => ({ k: 'within', e: a, call: site })), depth + 1);
    if (made) return made;
  }
  return null;
}

/** How many functions returning another's call `callMaking` follows. */
const MAX_MAKING_LEVELS = 3;

/** The function that function `fn` is written in, or null at module scope. */
function enclosingFn(facts: FileFacts, fn: number): number | null {
  const byScope = functionsByScope(facts);
  const own = facts.functions[fn]?.scope;
  const parent = own === undefined ? null : (facts.scopes[own]?.parent ?? null);
  for (let s = parent === null ? undefined : facts.scopes[parent]; s; s = s.parent === null ? undefined : facts.scopes[s.parent]) {
    const f = byScope.get(s.id);
    if (f !== undefined) return f;
  }
  return null;
}

/** A call of `callee` made in `file`, as the function called sees it: its arguments, and the object a method is called on. */
function callSiteOf(callee: { file: string; fn: number }, file: string, call: CallFact): CallSite {
  const self = call.self ?? (call.callee.k === 'member' ? call.callee.obj : undefined);
  return { file: callee.file, fn: callee.fn, argsFile: file, args: call.args, ...(self ? { self } : {}) };
}

/**
 * The functions `call` (written in `file`, in the function `site` calls or one inside it) calls as
 * that call of its function makes it: the names reading the function's parameters read with what
 * the call passes, and the loops the callee reads unrolled over the lists so read (jambonz's
 * `decorate(router, Webhook, ['add'])` of `decs.forEach((m) => decorators[m](router, klass))`,
 * `decs` a choice of `methods`); null when any of them is not known statically.
 */
function calleesAt(ev: Evaluator, file: string, call: CallFact, site: CallSite): Set<string> | null {
  const facts = ev.files.get(file)!;
  const within = (e: Expr): Expr => (e.k === 'ref' ? readAtCall(facts, e, site) : mapChildExprs(e, within));
  const out = new Set<string>();
  for (const callee of unrolledAs(ev, file, facts, call.callee, [call.callee], call.when, (subst) => subst(call.callee), within)) {
    const fn = ev.calledFn(file, within(callee));
    if (!fn) return null;
    out.add(fnKey(fn.file, fn.fn));
  }
  return out;
}

/** How many calls out a registration on a parameter's property is followed, each handing it on from a parameter of its own. */
const MAX_HANDED_ON = 12;

/**
 * `context.app` of `registerRoutes({ app, ...dependencies })`: a key written in the object wins
 * over a later spread whose value is not known statically (a function's parameter holding
 * services) — a router handed over by name is that router.
 */
function handedRouter(ev: Evaluator, obj: Value, prop: string): Value {
  const v = ev.member(obj, prop, 0);
  if (v.t === 'unknown' && obj.t === 'obj' && Object.hasOwn(obj.props, prop)) {
    const own = ev.eval(obj.file, obj.props[prop]!);
    if (own.t === 'router') return own;
  }
  return v;
}

/**
 * A value no registration can be made on: a literal, a list, a function, or an object (an
 * instance of a class of the code) spreading nothing — no base class it extends, no object it
 * copies, either of which may be a router.
 */
function surelyNoRouter(v: Value): boolean {
  if (v.t === 'obj') return !Object.keys(v.props).some((k) => k.startsWith('*spread*'));
  return v.t === 'str' || v.t === 'num' || v.t === 'bool' || v.t === 're' || v.t === 'arr' || v.t === 'fn';
}

/**
 * A registration on an unbound parameter that looks like a route: a route method with a
 * path, and a handler function passed or a parameter named like a router/app. An injected
 * HTTP client (`http.post('/v1/charges', body, { timeout })`) is an outbound call, never a route.
 * `args`: the registration's arguments, evaluated.
 */
function looksLikeRoute(ev: Evaluator, reg: RegistrationFact, paramName: string, args: Value[]): boolean {
  const rest = args.slice(1);
  // `router[method](...params)` of a parameter named for a router (Budibase's `Endpoint.apply(router)`):
  // its method and its arguments, spread, are known only where it is called
  if (reg.method === COMPUTED_METHOD) return !reg.awaited && !reg.promised && ROUTER_PARAM.test(paramName);
  if (!['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'route'].includes(reg.method) || reg.args.length < 2) return false;
  // `api.put(url, body).then(…)`, `await api.get(url, query)`: a request's answer awaited (a browser's API client)
  if (reg.awaited || reg.promised) return false;
  // `api.put(url, {}, function (err) { … })` (a browser's API client): a callback taking an error first is no handler
  const params = (v: Value): string[] => (v.t === 'fn' ? ev.fnOf(v.file, v.fn)?.params ?? [] : []);
  if (rest.some((v) => /^(err|error|e)$/.test(params(v)[0] ?? '') && params(v).length < 4)) return false;
  // No framework's route() takes a function (Hono's takes an app): `page.route(url, (route) => …)`
  // intercepts a browser's requests (Playwright). Nor is a route given only data — a request
  // body or options with no handler (`api.post('/api/customers', { data })` in a test).
  if (reg.method === 'route' && rest.some((v) => v.t === 'fn')) return false;
  // Nor is a registration at an event's name, a path starting with neither `/` nor `*` (which
  // Express and Koa never match; `''` is the mount point's): ShareDB's `backend.use('connect',
  // fn)`, Mongoose's `schema.post('save', fn)` — also each name a loop goes over (erxes's
  // `for (const hook of hookList) schema.post(hook, …)`)
  const names = args[0] ? stringsOf(args[0]) : null;
  if (names && names.length > 0 && names.every((n) => n !== '' && !/^[/*]/.test(n))) return false;
  if (rest.every((v) => v.t === 'obj' && !Object.hasOwn(v.props, 'handler'))) return false;
  return rest.some((v) => v.t === 'fn') || ROUTER_PARAM.test(paramName) || /^api$/i.test(paramName);
}

/**
 * `instance[type](…)` of `function notify(type, messages, instance)` (nocobase's notification
 * helper): the methods the calls of the function name for it (`notify('error', …)`,
 * `notify('success', …)`), each read as that call makes it; null when the name reads none of the
 * function's parameters, or a call names none known statically.
 */
function methodsNamedByCalls(ev: Evaluator, p: ParamRegistration, calls: readonly CallOf[]): string[] | null {
  const e = p.reg.method === COMPUTED_METHOD ? p.reg.methodExpr : undefined;
  if (!e || calls.length === 0 || !paramsRead(ev.files.get(p.file)!, [e]).has(p.fn)) return null;
  const names: string[] = [];
  for (const { site } of calls) {
    const v = ev.eval(p.file, { k: 'within', e, call: site });
    if (v.t !== 'str') return null;
    names.push(v.v);
  }
  return names;
}

/** A parameter named for a router or an app (`router`, `app`, `fastify`, `adminRouter`): one a route is registered on. */
const ROUTER_PARAM = /^(r|app|routes|server|fastify|instance)$|router$|app$/i;

/**
 * Requests a guard lets through untouched, each with what it says (`label`, for the route's
 * skippedGuards): to `path` (and with `method`, when one is named); with `method`, to any path;
 * to any path ending in `ext`; to any path that is `literal` (`match` whole), or starts with it
 * (prefix), ends with it (suffix) or holds it (factor), compared as `caseInsensitive` says;
 * every request (`any`: a test any URL passes once a query string is added). `relative`: the
 * path compared is the one below the mount path where the guard is applied, when its adapter
 * says (LinkContext.mountedAt: Express's `req.path` and `req.url`).
 */
type Skip = { label: string; relative?: true } & (
  | { path: string; method?: string }
  | { method: string }
  | { ext: string }
  | { literal: string; match: Match; caseInsensitive: boolean; method?: string }
  | { any: true; method?: string }
  /** every request none of these lets through (Clerk's `if (isProtectedRoute(req)) await auth.protect()`) */
  | { except: Skip[] }
  /** the request paths a regular expression matches (one of Clerk's route patterns, compiled as Clerk compiles it, or a regular expression given as one) */
  | { pattern: string; flags: string }
  /**
   * the request paths a regular expression matches (wildcards.ts reads it): those of a route it
   * matches some of, or (`every`) all of; with `query`, tested on the URL, which may hold a
   * query string after the path
   */
  | { wildcard: WildcardPattern; method?: string; query?: true }
  /** every request to a route whose route options' `config` passes the test at that path of keys (SkipFor `config`, its value evaluated) */
  | { config: string[]; test: KnownConfigTest }
);

/** A ConfigTest with the value it compares with known statically. */
type KnownConfigTest = Extract<ConfigTest, { is: string }> | { equals: unknown } | { notEquals: unknown };

/**
 * What a route's options hold in their `config` at a path of keys (LinkContext.routeConfig):
 * `value` undefined when nothing is there, an object for an object; null when that is not known
 * statically.
 */
export type RouteConfigReader = (keys: string[]) => { value: unknown } | null;

/**
 * Does a hook's test of the route's config hand on the requests to the route? Only when what the
 * route's options hold there is known statically (a config not known leaves the hook guarding).
 */
function configLets(s: Extract<Skip, { config: string[] }>, config: RouteConfigReader | undefined): boolean {
  const read = config?.(s.config);
  return !!read && passesConfigTest(s.test, read.value);
}

/** Does a config value read pass a hook's test of it? */
function passesConfigTest(test: KnownConfigTest, value: unknown): boolean {
  if ('equals' in test) return value === test.equals;
  if ('notEquals' in test) return value !== test.notEquals;
  if (test.is === 'missing') return value === undefined || value === null;
  if (test.is === 'present') return value !== undefined && value !== null;
  return test.is === 'truthy' ? !!value : !value;
}

function configSkip(keys: string[], test: KnownConfigTest): Skip {
  const at = ['config', ...keys].join('.');
  const label =
    'equals' in test
      ? `routes whose ${at} is ${JSON.stringify(test.equals)}`
      : 'notEquals' in test
        ? `routes whose ${at} is not ${JSON.stringify(test.notEquals)}`
        : `routes whose ${at} is ${test.is === 'missing' ? 'not set' : test.is === 'present' ? 'set' : test.is}`;
  return { config: keys, test, label };
}

/** Which part of a request path a literal is compared with. */
type Match = 'whole' | 'prefix' | 'suffix' | 'factor';

const MATCH_WORDS: Record<Match, string> = { whole: 'the path', prefix: 'paths starting with', suffix: 'paths ending in', factor: 'paths holding' };

function literalSkip(literal: string, match: Match, caseInsensitive: boolean, method?: string): Skip {
  const label = `${method ? `${method} requests to ` : ''}${MATCH_WORDS[match]} ${literal}${caseInsensitive ? ' (in any case)' : ''}`;
  return method ? { literal, match, caseInsensitive, method, label } : { literal, match, caseInsensitive, label };
}

function pathSkip(path: string, method?: string): Skip {
  return method ? { path, method, label: `${method} ${path}` } : { path, label: `the path ${path}` };
}

function methodSkip(method: string): Skip {
  return { method, label: `every ${method} request` };
}

/**
 * The requests `.unless(options)` lets through (express-unless and koa-unless; read at
 * express-unless 2.1): `path` — strings (the request's path, compared whole), regular
 * expressions of the forms `regexSkips` reads, and `{ url, methods }` entries of either;
 * `method` — requests with that method, to any path; `ext` — any path ending in it. Null when
 * the options say anything else, or what they say is not known statically: another regular
 * expression, a `custom` function, `useOriginalUrl: false` (paths then compared below the
 * mount point).
 */
function unlessExceptions(ev: Evaluator, options: Value | undefined): Skip[] | null {
  if (options?.t !== 'obj') return null;
  const out: Skip[] = [];
  const paths = (url: Value, method?: string): boolean => {
    if (url.t === 'str') out.push(pathSkip(url.v, method));
    else if (url.t === 're') {
      const skips = regexSkips(url.source, url.flags, method);
      if (!skips) return false;
      out.push(...skips);
    } else return false;
    return true;
  };
  for (const key of Object.keys(options.props)) {
    const v = ev.member(options, key, 0);
    if (key === 'path') {
      for (const e of v.t === 'arr' ? v.items : [v]) {
        if (e.t === 'str' || e.t === 're') {
          if (!paths(e)) return null;
          continue;
        }
        if (e.t !== 'obj') return null;
        const methods = stringsOf(ev.member(e, 'methods', 0)) ?? stringsOf(ev.member(e, 'method', 0));
        if (!methods) return null;
        const url = ev.member(e, 'url', 0);
        for (const m of methods) if (!paths(url, m.toUpperCase())) return null;
      }
    } else if (key === 'method' || key === 'ext') {
      const list = stringsOf(v);
      if (!list) return null;
      for (const x of list) if (x !== '') out.push(key === 'method' ? methodSkip(x.toUpperCase()) : { ext: x, label: `paths ending in ${x}` });
    } else if (key !== 'useOriginalUrl' || v.t !== 'bool' || !v.v) return null;
  }
  return out;
}


/** Whether an allowlist's item is one a test of it applies to (SkipFor `oneOf`'s `items`). */
function itemFiltered(it: Value, filter: ItemFilter): boolean {
  if (filter === 'str') return it.t !== 're';
  if (filter === 're') return it.t !== 'str';
  if (it.t !== 'str') return false;
  const holds = filter.m === 'equals' ? it.v === filter.lit : filter.m === 'includes' ? it.v.includes(filter.lit) : it.v[filter.m](filter.lit);
  return holds === filter.holds;
}

/**
 * What a guard's allowlist (Behaviour.skipsFor) lets through; null when a list it reads is not
 * known statically — or, given `unread`, what the alternatives known statically let through,
 * those not known counted there (each alternative lets its requests through whatever the others
 * do). A URL compared whole or by its start with a text that is no path (`*`) lets nothing
 * through.
 */
function allowlistSkips(ev: Evaluator, file: string, alternatives: SkipFor[], depth = 0, unread?: { count: number }): Skip[] | null {
  const out: Skip[] = [];
  const texts = (test: SkipTest, lit: string, query: boolean, method?: string): void => {
    if (test === 'equals' || test === 'startsWith') {
      if (!lit.startsWith('/')) return;
      out.push(test === 'equals' ? pathSkip(lit, method) : literalSkip(lit, 'prefix', false, method));
    } else if (query) out.push(anySkip(`whose URL ${test === 'contains' ? 'holds' : 'ends with'} ${JSON.stringify(lit)}`, method));
    else out.push(literalSkip(lit, test === 'contains' ? 'factor' : 'suffix', false, method));
  };
  const regex = (source: string, flags: string, query: boolean, method?: string): boolean => {
    const skips = regexSkips(source, flags, method);
    // an expression not anchored at the start matches some text a query string holds
    if (query && (skips === null ? !source.startsWith('^') : skips.some((x) => 'literal' in x && (x.match === 'factor' || x.match === 'suffix')))) {
      out.push(anySkip(`whose URL matches /${source}/${flags}`, method));
      return true;
    }
    if (skips) {
      out.push(...skips);
      return true;
    }
    // any other the automata of wildcards.ts read (`^\/auth\/.+`, `\/v\d+\/(health|status)$`): compared with each route's paths
    const wildcard = wildcardPattern(source, flags);
    if (!wildcard) return false;
    out.push({ wildcard, label: `${method ? `${method} requests to ` : ''}paths matching /${source}/${flags}`, ...(method ? { method } : {}), ...(query ? { query: true as const } : {}) });
    return true;
  };
  // A glob (micromatch's and picomatch's, or minimatch's: read at micromatch 4.0, picomatch 4.0,
  // minimatch 10), when it is a path written out (`/api/health`: that path, and minimatch that
  // path with a slash after it) or one followed by `/**` (every path below it, and
  // micromatch's the path itself; dot segments aside, which no `**` matches). False for any
  // other: what it matches is not worked out.
  const glob = (pattern: string, flavour: GlobTest, query: boolean, method?: string): boolean => {
    const below = pattern.endsWith('/**') ? pattern.slice(0, -3) : null;
    const lit = below ?? pattern;
    if (/[*?[\]{}()!+@\\]/.test(lit) || (lit !== '' && !lit.startsWith('/')) || (lit === '' && below === null)) return false;
    if (below === null) {
      texts('equals', lit, query, method);
      if (flavour === 'minimatch') texts('equals', `${lit}/`, query, method);
      return true;
    }
    if (flavour === 'glob' && lit !== '') texts('equals', lit, query, method);
    texts('startsWith', `${lit}/`, query, method);
    return true;
  };
  // one alternative read into `out`: false when it is not known statically
  const read = (s: SkipFor): boolean => {
    const query = 'query' in s && s.query === true;
    if ('path' in s) out.push(pathSkip(s.path, s.method));
    else if ('startsWith' in s) texts('startsWith', s.startsWith, false, s.method);
    else if ('contains' in s) texts('contains', s.contains, query, s.method);
    else if ('endsWith' in s) texts('endsWith', s.endsWith, query, s.method);
    else if ('oneOf' in s) {
      const listed = ev.iterated(file, s.oneOf, false);
      const read = ev.eval(file, listed);
      // `WHITELIST_URLS.filter((url) => !denylistURLs.includes(url))`, its test not known
      // statically: some of the list's items, so each is taken as let through
      const v = read.t === 'unknown' ? (filteredFrom(ev, file, listed) ?? read) : read;
      // (a test of one kind of item only: those of the other kind, another test reads)
      const w = s.items && v.t === 'arr' ? { ...v, items: v.items.filter((it) => itemFiltered(it, s.items!)) } : v;
      if (s.test === 'regex') {
        const items = w.t === 'arr' ? w.items : [w];
        for (const it of items) if (it.t !== 're' || !regex(it.source, it.flags, query, s.method)) return false;
      } else if (s.test === 'glob' || s.test === 'minimatch') {
        const items = stringsOf(w);
        if (!items) return false;
        for (const it of items) if (!glob(it, s.test, query, s.method)) return false;
      } else {
        const items = stringsOf(w);
        if (!items) return false;
        for (const it of items) texts(s.test, (s.cut ? it.slice(0, -s.cut) : it) + (s.suffix ?? ''), query, s.method);
      }
    } else if ('helper' in s && s.request) {
      // `isPublicRoute(req)` of `const isPublicRoute = createRouteMatcher(['/sign-in(.*)'])` (Clerk)
      const v = ev.eval(file, s.helper);
      const skips = v.t === 'pkg' && v.pkg.startsWith('@clerk/') && v.called && v.path.join('.') === 'createRouteMatcher' ? routeMatcherSkips(v.args[0]) : null;
      if (!skips) return false;
      out.push(...skips);
    } else if ('helper' in s) {
      // `isPublicPath(req.path)`: what the function returns true for, given what the guard hands it
      const h = helperTests(ev, file, s, depth);
      const skips = h && allowlistSkips(ev, h.file, h.tests, depth + 1);
      if (!skips) return false;
      out.push(...skips);
    } else if ('except' in s) {
      // every request none of these is: what a check under a test of the URL is not run for
      const inner = surelySkips(ev, file, s.except, depth + 1);
      if (!inner) return false;
      // (none when each test is of the URL whole, which a query string added escapes: `req.originalUrl === '/admin'`)
      out.push({ except: inner, label: inner.length > 0 ? `every request outside ${inner.map((x) => x.label).join(' or ')}` : 'every request, a query string added escaping the test of its URL' });
      return true;
    } else if ('config' in s) {
      // (the value compared with, `RouteKind.PUBLIC` of an enum: a literal when known statically)
      const compared = 'equals' in s.test ? s.test.equals : 'notEquals' in s.test ? s.test.notEquals : null;
      const v = compared ? ev.eval(file, compared) : null;
      if (v && v.t !== 'str' && v.t !== 'num' && v.t !== 'bool') return false;
      out.push(configSkip(s.config, !v ? (s.test as KnownConfigTest) : 'equals' in s.test ? { equals: v.v } : { notEquals: v.v }));
    } else out.push(methodSkip(s.method));
    return true;
  };
  for (const s of alternatives) {
    const from = out.length;
    if (!read(s)) {
      // (each alternative lets its requests through whatever the others do: those read stand)
      if (!unread) return null;
      out.length = from;
      unread.count++;
      continue;
    }
    if (!s.root && !('except' in s)) for (let i = from; i < out.length; i++) out[i]!.relative = true;
  }
  return out;
}

/** The list a list is filtered from (`list.filter(…)`, through consts), when that list is known statically. */
function filteredFrom(ev: Evaluator, file: string, e: Expr): Value | null {
  const w = writtenCall(ev, file, e);
  if (!w || w.call.callee.k !== 'member' || w.call.callee.prop !== 'filter') return null;
  const base = ev.eval(w.file, w.call.callee.obj);
  return base.t === 'arr' ? base : null;
}

/**
 * The tests of the helper a guard hands the URL or path to (Behaviour.pathTests, in `file`), as
 * the guard hands it (`handed`); null when it is not a function of the analysed files whose
 * tests are read (or is reached through helpers four deep).
 */
function helperTests(ev: Evaluator, file: string, s: Extract<SkipFor, { helper: Expr }>, depth: number): { file: string; tests: SkipFor[] } | null {
  const v = ev.eval(file, s.helper);
  const tests = v.t === 'fn' && depth < 4 ? ev.fnOf(v.file, v.fn)?.behaviour.pathTests : undefined;
  return v.t === 'fn' && tests ? { file: v.file, tests: tests.flatMap((t) => handed(t, s)) } : null;
}

/**
 * Does each regular expression `e` evaluates to match whatever follows a path it matches (a
 * query string): no `$` at its end, or `.*$` there (Hemmelig's `/^\/api\/admin\/.*$/i`)?
 */
function queryAbsorbed(ev: Evaluator, file: string, e: Expr): boolean {
  const v = ev.eval(file, e);
  const items = v.t === 'arr' ? v.items : [v];
  return items.length > 0 && items.every((r) => r.t === 're' && (!/(^|[^\\])\$$/.test(r.source) || /(^|[^\\])\.\*\$$/.test(r.source)));
}

/**
 * The requests sure to pass some of the tests whatever query string they are sent with (what a
 * check under them is run for, `except`), as skips; null when one is not known statically. A
 * URL holding a text: a path holding it (the same test, of the path alone); a URL matching an
 * expression that matches whatever follows the path too (queryAbsorbed): a path matching it; a
 * URL equal to a text, ending with one or matching any other expression: none (a query string
 * added escapes the test); a helper handed the URL, what its own tests say so. Tests of the path
 * alone, and of the URL's start, stay as they are.
 */
function surelySkips(ev: Evaluator, file: string, tests: SkipFor[], depth: number): Skip[] | null {
  const out: Skip[] = [];
  for (const t of tests) {
    let skips: Skip[] | null;
    if (!('query' in t) || !t.query) skips = allowlistSkips(ev, file, [t], depth);
    else if ('helper' in t) {
      const h = helperTests(ev, file, t, depth);
      skips = h && surelySkips(ev, h.file, h.tests, depth + 1);
    } else if ('oneOf' in t && t.test === 'regex' && queryAbsorbed(ev, file, t.oneOf)) {
      // (`/^\/api\/admin\/.*$/.test(request.url)`: what follows the path, a query string included, matches as well)
      const { query: _query, ...pathAlone } = t;
      skips = allowlistSkips(ev, file, [pathAlone as SkipFor], depth);
    } else if ('path' in t || 'endsWith' in t || ('oneOf' in t && t.test !== 'contains' && t.test !== 'startsWith')) skips = [];
    else {
      const { query: _query, ...pathAlone } = t;
      skips = allowlistSkips(ev, file, [pathAlone as SkipFor], depth);
    }
    if (!skips) return null;
    out.push(...skips);
  }
  return out;
}

/**
 * The branch of a function dispatching on the request's method (FunctionFact.dispatch) that a
 * request with `method` takes: the one naming it, else the rest; none when the function does not
 * dispatch, or refuses the method.
 */
function branchTaken(f: FunctionFact, method: string): MethodBranch | undefined {
  return f.dispatch?.find((b) => b.methods.includes(method)) ?? f.dispatch?.find((b) => b.methods.length === 0);
}

/**
 * What a guard's package, or the calls of its body, make of it (`c`, when not what its name and
 * body say), and the requests it lets through untouched (`skips`; null when they are not known
 * statically, `what` saying which exceptions): `.unless(options)` (express-unless, koa-unless);
 * Clerk v4's `authMiddleware({ publicRoutes })`; Auth.js's `auth`, through the configuration's
 * `callbacks.authorized`; a Clerk handler's `auth.protect()`; an allowlist at the top of its body.
 */
function exceptionsOf(ev: Evaluator, value: Value, f: FunctionFact | undefined): { c?: GuardClass; skips: Skip[] | null; known?: Skip[]; what: string } | undefined {
  if (value.t === 'pkg') {
    if (unlessBase(value.path)) return { skips: unlessExceptions(ev, value.args[0]), what: 'unless' };
    const path = value.path.join('.');
    if (value.called && value.pkg.startsWith('@clerk/nextjs') && path === 'authMiddleware')
      return {
        c: { kinds: ['auth'], families: [], reason: "by package (Clerk's authMiddleware refuses a request without a signed-in user on every route but its publicRoutes and ignoredRoutes)" },
        skips: publicRoutesSkips(ev, value.args[0]),
        what: 'publicRoutes',
      };
    // Auth.js (next-auth 5): `NextAuth(config).auth` guards only through `callbacks.authorized`;
    // NextAuth v4's `withAuth(options)` (or `withAuth(middleware, options)`) through its own, by
    // default one refusing a request without a session token (guards.ts)
    const v5 = value.pkg === 'next-auth' && path === '().auth';
    const v4 = value.pkg === 'next-auth/middleware' && path === 'withAuth' && value.called;
    if (!v5 && !v4) return undefined;
    const config = v5 ? value.made?.[0] : [...value.args].reverse().find((a) => a.t === 'obj');
    if (v4 && !config) return undefined;
    // (Auth.js's `auth(handler)`: the function it wraps runs unless callbacks.authorized returns a response)
    const wrapping = v5 && value.called && value.args[0]?.t === 'fn';
    const authorized = authorizedCallback(ev, config, wrapping);
    if (authorized === 'none' && v4) return undefined;
    if (authorized === 'none' || (authorized.protection && 'never' in authorized.protection))
      return {
        c: { kinds: ['nonguard'], families: [], reason: `by package (its callbacks.authorized, or none, refuses nothing${wrapping ? ' the function it wraps does not run for: only a response it returns does' : ''})` },
        skips: [],
        what: '',
      };
    const protection = authorized.protection;
    const reason = protection && !('unknown' in protection) ? 'by package (its callbacks.authorized refuses a request without a signed-in user)' : 'by package (it refuses what its callbacks.authorized refuses)';
    return { c: { kinds: ['auth'], families: [], reason }, skips: protection ? protectedSkips(ev, authorized.file, protection) : null, what: 'callbacks.authorized' };
  }
  if (value.t !== 'fn' || !f) return undefined;
  // Clerk's `clerkMiddleware(async (auth, req) => { if (!isPublicRoute(req)) await auth.protect() })`
  const protects = f.behaviour.protects;
  if (protects)
    return {
      c: { kinds: ['auth'], families: [], reason: 'by behaviour (calls auth.protect(), which refuses a request without a signed-in user)' },
      skips: protectedSkips(ev, value.file, protects),
      what: 'the requests auth.protect() is called for',
    };
  const skipsFor = f.behaviour.skipsFor;
  if (!skipsFor) return undefined;
  const unread = { count: 0 };
  const skips = allowlistSkips(ev, value.file, skipsFor, 0, unread);
  return unread.count > 0 ? { skips: null, known: skips!, what: 'an allowlist' } : { skips, what: 'an allowlist' };
}

/**
 * A helper's test of its parameter as a path (Behaviour.pathTests), for what a guard hands it
 * (`helper`): the URL with its query string, whose end any request can write; the whole URL,
 * which no path equals or starts (none for those); from the root, not below a mount path.
 */
function handed(t: SkipFor, by: Extract<SkipFor, { helper: Expr }>): SkipFor[] {
  if ('except' in t) return [{ except: t.except.flatMap((x) => handed(x, by)) }];
  if (by.whole && ('path' in t || 'startsWith' in t || ('oneOf' in t && (t.test === 'equals' || t.test === 'startsWith')))) return [];
  const query = by.query && ('path' in t || 'contains' in t || 'endsWith' in t || 'oneOf' in t || 'helper' in t) ? { query: true as const } : {};
  const whole = by.whole && 'helper' in t ? { whole: true as const } : {};
  return [{ ...t, ...query, ...whole, ...(by.root ? { root: true as const } : {}) }];
}

/**
 * The `callbacks.authorized` of an Auth.js configuration (read at next-auth 5) or of NextAuth
 * v4's `withAuth` options (read at next-auth 4.24): 'none' when there is none; else for which
 * requests it refuses one without a signed-in user (Behaviour.authorizes, in `file`; for a
 * function Auth.js's `auth` wraps, `wrapping`, Behaviour.authorizesWrapped), or null when that
 * is not known.
 */
function authorizedCallback(ev: Evaluator, config: Value | undefined, wrapping: boolean): 'none' | { file: string; protection: NonNullable<Behaviour['authorizes']> | null } {
  const unknown = { file: '', protection: null };
  if (config?.t !== 'obj') return unknown;
  const callbacks = Object.hasOwn(config.props, 'callbacks') ? ev.member(config, 'callbacks', 0) : null;
  if (callbacks === null) return 'none';
  if (callbacks.t !== 'obj') return unknown;
  if (!Object.hasOwn(callbacks.props, 'authorized')) return 'none';
  const fn = ev.member(callbacks, 'authorized', 0);
  const b = fn.t === 'fn' ? ev.fnOf(fn.file, fn.fn)?.behaviour : undefined;
  return fn.t === 'fn' ? { file: fn.file, protection: (wrapping ? b?.authorizesWrapped : undefined) ?? b?.authorizes ?? null } : unknown;
}

/**
 * Clerk v4's `authMiddleware({ publicRoutes, ignoredRoutes })` (read at @clerk/nextjs 4.29):
 * the routes either names are let through (none when neither is given); null when the
 * options or a pattern are not known statically.
 */
function publicRoutesSkips(ev: Evaluator, options: Value | undefined): Skip[] | null {
  if (options === undefined) return [];
  if (options.t !== 'obj') return null;
  const out: Skip[] = [];
  for (const key of ['publicRoutes', 'ignoredRoutes']) {
    if (!Object.hasOwn(options.props, key)) continue;
    const skips = routeMatcherSkips(ev.member(options, key, 0));
    if (!skips) return null;
    out.push(...skips);
  }
  return out;
}

const PATTERN_LITERAL = /^[^()*:?+[\]{}\\]*$/;
const PATTERN_PREFIX = /^([^()*:?+[\]{}\\]*)\(\.\*\)$/;
const PATTERN_BELOW = /^([^()*:?+[\]{}\\]*)\/:[A-Za-z0-9_]+\*$/;

/**
 * The paths Clerk's route patterns match (`createRouteMatcher(patterns)`, v4's `publicRoutes`;
 * read at @clerk/nextjs 6, whose createPathMatcher tests each on the request's pathname): a
 * literal path; one ending in `(.*)`, every path starting with what comes before; one ending
 * in `/:name*`, the path before and every path below it; any other path pattern (parameters,
 * groups), what path-to-regexp 6 compiles it to with its defaults, as Clerk's pathToRegexp
 * does; a regular expression, what it matches. Null when one is not known statically or does
 * not compile, and for none.
 */
function routeMatcherSkips(patterns: Value | undefined): Skip[] | null {
  const items = patterns?.t === 'arr' ? patterns.items : patterns ? [patterns] : [];
  const out: Skip[] = [];
  for (const it of items) {
    if (it.t === 're') {
      out.push({ pattern: it.source, flags: it.flags, label: `paths matching /${it.source}/${it.flags}` });
      continue;
    }
    if (it.t !== 'str' || !it.v.startsWith('/')) return null;
    const prefix = PATTERN_PREFIX.exec(it.v);
    const below = PATTERN_BELOW.exec(it.v);
    if (prefix) out.push(literalSkip(prefix[1]!, 'prefix', false));
    else if (below) out.push(pathSkip(below[1] || '/'), literalSkip(`${below[1]}/`, 'prefix', false));
    else if (PATTERN_LITERAL.test(it.v)) out.push(pathSkip(it.v));
    else {
      let re: RegExp;
      try {
        re = pathToRegexp(it.v);
      } catch {
        return null;
      }
      out.push({ pattern: re.source, flags: re.flags, label: `paths matching ${it.v}` });
    }
  }
  return items.length > 0 ? out : null;
}

const compiledPatterns = new Map<string, RegExp | null>();

/** A pattern skip's expression, compiled once (null when the flags or the source do not compile: it matches nothing known). */
function patternOf(s: { pattern: string; flags: string }): RegExp | null {
  const key = `${s.flags}/${s.pattern}`;
  let re = compiledPatterns.get(key);
  if (re === undefined) {
    try {
      // (without g or y, whose lastIndex would carry over from one test to the next)
      re = new RegExp(s.pattern, s.flags.replace(/[gy]/g, ''));
    } catch {
      re = null;
    }
    compiledPatterns.set(key, re);
  }
  return re;
}

/**
 * The request paths of a route a pattern skip is tried on: each parameter given a value no
 * literal text of a pattern spells (only a pattern taking any value there matches it), with
 * wildcards given several segments, and none.
 */
function anyValuePaths(r: RouteDraft): [string, string] {
  return [filledPath(r.path, () => '~1~', () => '~1~/~2~'), filledPath(r.path, () => '~1~', () => '')];
}

/** Does a pattern skip match every request path of the route (each of anyValuePaths)? */
function patternCovers(s: { pattern: string; flags: string }, r: RouteDraft): boolean {
  const re = patternOf(s);
  return re !== null && anyValuePaths(r).every((p) => re.test(p));
}

/** Does a pattern skip match some request path of the route: one of anyValuePaths, or the path with each parameter given its own name? */
function patternSkipsSome(s: { pattern: string; flags: string }, r: RouteDraft): boolean {
  const re = patternOf(s);
  return re !== null && [filledPath(r.path, (name) => name, () => 'x'), ...anyValuePaths(r)].some((p) => re.test(p));
}

/**
 * What a Clerk handler lets through untouched (Behaviour.protects): nothing when it protects
 * every request; what its matchers match when it protects the others; every request outside
 * them when it protects only those. Null when which requests is not known statically.
 */
function protectedSkips(ev: Evaluator, file: string, protects: Protection): Skip[] | null {
  if ('always' in protects) return [];
  if ('unknown' in protects) return null;
  if ('unless' in protects) return allowlistSkips(ev, file, protects.unless);
  const only = allowlistSkips(ev, file, protects.only);
  return only && [{ except: only, label: `every request outside ${only.map((x) => x.label).join(' or ')}` }];
}

/** Every request (with `method`, when one is named), for a test any URL passes once a query string is added. */
function anySkip(what: string, method?: string): Skip {
  const label = `every ${method ? `${method} ` : ''}request ${what}, which a query string can add to any URL`;
  return method ? { any: true, method, label } : { any: true, label };
}

/**
 * What a regular expression tested on a request path exempts (`.unless({ path })`, an
 * allowlist's `re.test(req.path)`), when it is a literal L (`\/` and other escaped punctuation
 * stand for themselves) with an anchor and a tail read here: `^L` and `^L.*` (every path
 * starting with L: `^\/public\/` is every path below /public), `^L$`, `^L\/?$`, `^L(?:\/.*)?$`
 * (L, or below it); unanchored, `L` (every path holding L) and `L$` (every path ending in it);
 * and alternatives of these (`regexAlternatives`), each on its own. Null for any other: which
 * paths it exempts is not worked out, and the guard stays a candidate.
 */
function regexSkips(source: string, flags: string, method?: string): Skip[] | null {
  if (/[^gimsuyd]/.test(flags)) return null;
  // `^(\/api\/|\/assets\/|\/favicon.*)`, `^\/health$|^\/metrics$`: each alternative, with the group's anchor and tail
  const alternatives = regexAlternatives(source);
  if (alternatives) {
    const out: Skip[] = [];
    for (const alt of alternatives) {
      const skips = regexSkips(alt, flags, method);
      if (!skips) return null;
      out.push(...skips);
    }
    return out;
  }
  const anchored = source.startsWith('^');
  const caseInsensitive = flags.includes('i');
  let literal = '';
  let i = anchored ? 1 : 0;
  while (i < source.length) {
    const c = source[i]!;
    const width = c === '\\' && i + 1 < source.length && ESCAPED_LITERAL.test(source[i + 1]!) ? 2 : LITERAL_CHAR.test(c) ? 1 : 0;
    // a character a quantifier follows (`\/?`, `s*`) is part of the tail
    if (width === 0 || /^[?*+{]/.test(source.slice(i + width))) break;
    literal += source[i + width - 1];
    i += width;
  }
  // (sticky, an unanchored expression is anchored where the last match ended)
  if (literal === '' || (!anchored && flags.includes('y'))) return null;
  const skip = (l: string, match: Match): Skip => literalSkip(l, match, caseInsensitive, method);
  const tail = source.slice(i);
  if (!anchored) return tail === '' ? [skip(literal, 'factor')] : tail === '$' ? [skip(literal, 'suffix')] : null;
  switch (tail) {
    case '':
    case '.*':
    case '.*$':
    case '(?:\\/.*)?':
    case '(\\/.*)?':
      return [skip(literal, 'prefix')];
    case '$':
      return [skip(literal, 'whole')];
    case '\\/?$':
      return [skip(literal, 'whole'), skip(`${literal}/`, 'whole')];
    case '(?:\\/.*)?$':
    case '(\\/.*)?$':
      return [skip(literal, 'whole'), skip(`${literal}/`, 'prefix')];
    default:
      return null;
  }
}

/**
 * The alternatives of an expression that is one (`a|b`) or whose only group, anchored and
 * nothing before it, is one (`^(a|b)` and `^(?:a|b)`, followed by a tail: `^(a|b)$`), each whole
 * (`^a`, `^b`, with the tail); null when it is neither, or an alternative opens a group of its own.
 */
function regexAlternatives(source: string): string[] | null {
  const split = (body: string): string[] | null => {
    const parts: string[] = [];
    let part = '';
    let inClass = false;
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c === '\\') {
        part += body.slice(i, i + 2);
        i++;
        continue;
      }
      if (inClass) inClass = c !== ']';
      else if (c === '[') inClass = true;
      else if (c === '(' || c === ')') return null;
      else if (c === '|') {
        parts.push(part);
        part = '';
        continue;
      }
      part += c;
    }
    parts.push(part);
    return parts.length > 1 ? parts : null;
  };
  const group = /^\^\((?:\?:)?(.*)\)([^()|]*)$/.exec(source);
  if (group) return split(group[1]!)?.map((alt) => `^${alt}${group[2]}`) ?? null;
  return split(source);
}

/** The route as a guard applied below `base` sees it: its path without the base (`/` for the base itself); as it is when not below it. */
function below(r: RouteDraft, base: string): RouteDraft {
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  if (r.path !== b && !r.path.startsWith(`${b}/`)) return r;
  return { ...r, path: r.path.slice(b.length) || '/' };
}

/**
 * Does a skip let some request to the route through? A skipped method reaches an `ALL` route,
 * and `HEAD` a `GET` route (Express and @koa/router run it for HEAD requests); an extension
 * reaches a route whose path ends in it, or whose last segment is a parameter or a wildcard
 * (`/sites/x.png` is `/sites/:siteId`); a literal, a route one of whose request paths is it,
 * starts or ends with it, or holds it (`requestPaths`); `except`, a route not every request
 * to which is one of its skips. A skip `relative` to the guard's mount path `base` sees the
 * route's path below it.
 */
function skipsRoute(s: Skip, route: RouteDraft, base: string | undefined, config: RouteConfigReader | undefined): boolean {
  if ('config' in s) return configLets(s, config);
  const r = s.relative && base !== undefined ? below(route, base) : route;
  const method = (m: string): boolean => m === r.method || r.method === 'ALL' || (m === 'HEAD' && r.method === 'GET');
  if ('ext' in s) {
    const last = r.path.slice(r.path.lastIndexOf('/') + 1);
    return r.path.endsWith(s.ext) || last.startsWith(':') || isWildcard(last);
  }
  if ('literal' in s) return (!s.method || method(s.method)) && requestPaths(r, s.match, s.caseInsensitive).test(s.literal);
  if ('pattern' in s) return patternSkipsSome(s, r);
  if ('wildcard' in s) return (!s.method || method(s.method)) && wildcardMatches(s.wildcard, r, s.query).some;
  if ('path' in s) return s.path === r.path && (!s.method || method(s.method));
  if ('any' in s) return !s.method || method(s.method);
  if ('except' in s) return !coveredBy(s.except, route, base, config);
  return method(s.method);
}

/**
 * Is every request to the route one of the skips? One that covers the route (coversRoute), or
 * the methods skipped for every path together: all the methods the route is requested with
 * (`GET` and `HEAD` for a `GET` route; an `ALL` route, any).
 */
function coveredBy(skips: Skip[], route: RouteDraft, base: string | undefined, config: RouteConfigReader | undefined): boolean {
  if (skips.some((x) => coversRoute(x, route, base, config))) return true;
  const methods = new Set(skips.flatMap((x) => ('method' in x && !('path' in x || 'literal' in x || 'any' in x || 'wildcard' in x) && x.method ? [x.method] : [])));
  return route.method !== 'ALL' && methods.has(route.method) && (route.method !== 'GET' || methods.has('HEAD'));
}

/**
 * Does a skip let every request to the route through? A path, the route's own; a prefix (a
 * text held), one the route's path starts with (holds) before any parameter or wildcard, in any
 * case when the skip compares so; any request; with a method,
 * only a route requested with that method alone (not `ALL`, nor `GET`, which takes `HEAD` too);
 * `except`, a route none of whose requests its skips let through.
 */
function coversRoute(s: Skip, route: RouteDraft, base: string | undefined, config: RouteConfigReader | undefined): boolean {
  // (a route has one config: its test lets every request to it through, or none)
  if ('config' in s) return configLets(s, config);
  if ('except' in s) return !s.except.some((x) => skipsRoute(x, route, base, config));
  const r = s.relative && base !== undefined ? below(route, base) : route;
  if ('method' in s && s.method && (s.method !== r.method || r.method === 'GET' || r.method === 'ALL')) return false;
  if ('path' in s) return s.path === r.path && (r.caseSensitive || !/[a-z]/i.test(s.path));
  if ('any' in s) return true;
  if ('pattern' in s) return patternCovers(s, r);
  if ('wildcard' in s) return wildcardMatches(s.wildcard, r, s.query).every;
  if (!('literal' in s)) return false;
  // a route matched in any case (Express's and @koa/router's default) is reached by requests in
  // another case too (`/ADMIN/users` for `/admin/users`), which a test of letters in the case
  // written does not pass
  if (!s.caseInsensitive && !r.caseSensitive && /[a-z]/i.test(s.literal)) return false;
  // every request path to the route starts with its text before any parameter or wildcard (in
  // some case): what that text starts with or holds, every request path does
  const fixed = /^[^:*(]*/.exec(r.path)![0];
  const [text, literal] = s.caseInsensitive ? [fixed.toLowerCase(), s.literal.toLowerCase()] : [fixed, s.literal];
  if (s.match === 'prefix') return text.startsWith(literal);
  if (s.match === 'factor') return text.includes(literal);
  return s.match === 'whole' && fixed === r.path && text === literal;
}

/**
 * The paths a route can be requested at, as a regular expression: a parameter is any text
 * without `/`, a wildcard any text, a trailing slash optional where the route does not tell
 * (`trailingSlashInsensitive`); letters in any case unless both the route and the skip's
 * expression are case-sensitive. With `match` other than whole, the parts of those paths a
 * literal is compared with: every text some request path starts with (prefix), ends with
 * (suffix), or holds (factor).
 */
function requestPaths(r: RouteDraft, match: Match, caseInsensitive: boolean): RegExp {
  const tokens = pathTokens(r.path).map((t) => (t.kind === 'param' ? '[^/]+' : t.kind === 'wild' ? '.*' : t.text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  if (r.trailingSlashInsensitive && !r.path.endsWith('/')) tokens.push('/?');
  // the beginnings of the paths made of tokens[from..]: from the end, a request path may stop
  // before any token, or inside a parameter (what follows it can be empty)
  const prefixes = (from: number): string => {
    let source = '';
    for (let i = tokens.length - 1; i >= from; i--) {
      const t = tokens[i]!;
      if (t === '.*') source = '.*';
      else if (t === '/?') source = `(?:/${source})?`;
      else source = `(?:${t}${source})?`;
    }
    return source;
  };
  // a text starting at token i: inside a parameter, any end of it
  const from = (i: number): string => (tokens[i] === '[^/]+' ? '[^/]*' : tokens[i]!);
  const starts = tokens.map((_, i) => i);
  const source =
    match === 'whole'
      ? tokens.join('')
      : match === 'prefix'
        ? prefixes(0)
        : `(?:${starts.map((i) => from(i) + (match === 'suffix' ? tokens.slice(i + 1).join('') : prefixes(i + 1))).join('|')})`;
  return new RegExp(`^${source}$`, caseInsensitive || !r.caseSensitive ? 'i' : '');
}
