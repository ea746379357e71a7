/**
 * NestJS. Semantics modelled from @nestjs/core (RoutesResolver, RoutePathFactory,
 * RouterModule, GuardsContextCreator, MiddlewareModule):
 * - an app is `NestFactory.create(RootModule, …)`; it serves the controllers declared by the
 *   modules reachable from RootModule through `imports` (classes, `X.forRoot()` dynamic
 *   modules, `forwardRef`), each controller once per app;
 * - a route's path is [global prefix, unless `exclude`d] + [`/v{version}` under URI
 *   versioning] + [its module's `RouterModule.register` path] + controller path + method path,
 *   every part given a leading slash, the end slash stripped (`@Get('sites/')` serves
 *   `/api/sites`); string and array paths; controller `version` falls back to `defaultVersion`,
 *   `@Version()` overrides it, `VERSION_NEUTRAL` adds no segment;
 * - Nest on Express is non-strict and case-insensitive (both `/x` and `/x/` served); on
 *   Fastify (`new FastifyAdapter()`) it matches exactly and case-sensitively;
 * - guards run after middleware: `app.use(mw)` (prefix-matched), `consumer.apply(mw)
 *   .exclude(…).forRoutes(…)` (full-path match, or a controller's routes), then global guards
 *   (`useGlobalGuards`, `APP_GUARD` providers), controller `@UseGuards`, method `@UseGuards`;
 *   decorators composed with `applyDecorators` (in any file) are followed;
 * - a guard whose `canActivate` returns true early when a metadata key is set
 *   (`if (isPublic) return true`) is skipped for routes that carry that key with a truthy
 *   value (`@Public()` = `SetMetadata(IS_PUBLIC_KEY, true)`), looked up where its Reflector
 *   looks (handler, class) in that order; one that returns true early when it is not set
 *   (`if (!options) return true`, immich's `@Authenticated()`) for routes that do not;
 * - `PrometheusModule.register(options)` of @willsoto/nestjs-prometheus (read at 6.1.0,
 *   src/module.ts) declares its `controller` (the package's PrometheusController, `@Get()
 *   index`, unless one is given) and sets that controller's path to `path` ('/metrics' unless
 *   given), in place of its `@Controller` path; `registerAsync` sets the one its `useFactory`
 *   returns;
 * - with `SwaggerModule.setup(…, app, …)`, every route is published in the API docs unless
 *   its controller has `@ApiExcludeController()` or its handler `@ApiExcludeEndpoint()`
 *   (and, when the document was created with `include: [Modules]`, only those modules'); the
 *   call registers the docs' own routes on the HTTP adapter there and then (`docsRoutes`);
 * - a `@WebSocketGateway` provider is served at its path on the app's server, outside Nest's
 *   router, by the app's WebSocket adapter (`gatewayRoutes`).
 */
import type { Adapter, RouterInit } from '../adapter.js';
import { bindingOf, bindingsOf } from '../../extract/facts-text.js';
import { prefixNote, stringsOf, valueNote, type Evaluator, type RouterObject, type Value } from '../../link/evaluate.js';
import { additionsTo, type BoundRegistration, type FlatItem, type LinkContext } from '../../link/link.js';
import { ALLOWS_ALL, headerCredentialOf, headerStrategies, jwtHeaderExtractor, passingNamed, passportStrategy, strategiesOf, tenantStrategies, type Strategies } from '../../guards.js';
import { decide, mapTest, truthOf } from '../../link/conditions.js';
import type { AppliedGuard, CallFact, CondTest, Expr, FileFacts, GuardMechanism, Loc, PrefixStep, RegistrationFact } from '../../types.js';
import { joinPath, optionalForms, pathApplies, type OptionalSyntax } from '../paths.js';
import { handlerNameOf } from '../handler-name.js';
import { PROM_BUNDLE, promBundlePath, promBundleUnknown } from '../prom-bundle.js';
import { STATUS_MONITOR, statusMonitorPath, statusMonitorUnknown } from '../status-monitor.js';
import { proxiedPaths, proxyEverywhere, proxyTakes, proxyUnknown } from '../http-proxy.js';
import { answeringGuards, answeringPackage, apolloCsrf, mercuriusCsrf, yogaCsrf } from '../package-handlers.js';
import { servedBy, servedPath } from '../serving.js';
import { routerOption } from '../fastify/options.js';
import { methodValue, nestFactsOf, visitNestClass, visitNestFile, type NestClass, type NestDecorator, type NestMethod } from './facts.js';
import { looksLikePath, pathNote } from '../unknown-heads.js';

/** A test's file (`*.spec.ts`, `*.e2e-spec.ts`, `*.test.ts`, a `test`, `tests`, `__tests__` or `e2e` folder). */
const TEST_FILE = /(^|\/)(tests?|__tests__|e2e)\/|\.(spec|e2e-spec|test)\.[cm]?[jt]sx?$/;

/** The rate limiter whose ThrottlerGuard refuses with 429 only (ThrottlerException). */
const THROTTLER_PACKAGE = '@nestjs/throttler';

/** Nest 10 routes through Express 4 (`:id?`), Nest 11 through Express 5 (`{/:id}`, `{*rest}`): both are read. */
const OPTIONAL: OptionalSyntax = { question: true, braces: true };

const HTTP_DECORATORS: Record<string, string> = {
  Get: 'GET',
  Post: 'POST',
  Put: 'PUT',
  Patch: 'PATCH',
  Delete: 'DELETE',
  All: 'ALL',
  Head: 'HEAD',
  Options: 'OPTIONS',
  Search: 'SEARCH',
  // (a server-sent events route: Nest's `@Sse(path)` sets the path and RequestMethod.GET, as `@Get(path)` does)
  Sse: 'GET',
};

/** The route methods of the HTTP adapter under an app (`app.getHttpAdapter().get(path, handler)`), as Express and Fastify name them. */
const HTTP_ADAPTER_METHODS: Record<string, string> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', head: 'HEAD', options: 'OPTIONS', all: 'ALL' };

/** `RequestMethod.GET` → 'GET' (RequestMethod is an enum of @nestjs/common). */
const REQUEST_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD', 'SEARCH']);

export const nestAdapter: Adapter = {
  name: 'nest',
  title: 'NestJS',
  modules: ['@nestjs/core', '@nestjs/common'],

  create(pkg, path, args, _isNew, ev): RouterInit | null {
    if (pkg !== '@nestjs/core' || path.length !== 2 || path[0] !== 'NestFactory' || path[1] !== 'create') return null;
    const platform = args[1];
    if (platform?.t === 'pkg' && platform.pkg === '@nestjs/platform-fastify') {
      // Fastify matches `/x` and `/x/` as different routes and is case-sensitive, unless told
      // otherwise — FastifyAdapter hands its options to fastify(), `routerOptions` (Fastify 5's
      // place for them, docmost's) winning over the top-level ones
      const opts = platform.args[0];
      return { kind: 'app', strict: !(routerOption(ev, opts, 'ignoreTrailingSlash') ?? false), caseSensitive: routerOption(ev, opts, 'caseSensitive') ?? true };
    }
    return { kind: 'app', strict: false, caseSensitive: false };
  },

  // `app.getHttpAdapter()` (and its `getInstance()`): the HTTP server under the app, where routes
  // registered directly are served (NestLinker.appSetting reads them as such)
  routerMethod(_router, method) {
    return method === 'getHttpAdapter' || method === 'getInstance' ? 'self' : null;
  },

  visitClass: visitNestClass,
  visitFile: visitNestFile,

  link(ctx: LinkContext): void {
    new NestLinker(ctx).run();
  },

  readsEveryBinding: importsNestCore,
  readsCall: maybeDocsSetup,
  registrationOf: docsSetupRegistration,
  provider: moduleProvider,
};

/**
 * A provider a module declares for a token: `{ provide, useClass }` (or `useExisting`) as a new
 * instance of the class, `{ provide, useFactory }` as what the factory returns, `{ provide,
 * useValue }` as the value.
 */
interface ModuleProvider {
  file: string;
  provide: Expr;
  made: Expr;
  /** its token as a key (tokenKey), once worked out */
  key?: string | null;
}

const moduleProviders = new WeakMap<Evaluator, ModuleProvider[]>();

/**
 * The providers the `@Module({ providers: […] })` decorators of the analysed files declare for a
 * token other than the class itself, and those the dynamic modules such a class's static methods
 * return declare (`static forRoot(): DynamicModule { return { module: AccessModule, providers: […] } }`),
 * read once per run (every module file imports @nestjs/common, so the prefilter never holds one
 * back).
 */
function providersOf(ev: Evaluator): ModuleProvider[] {
  let list = moduleProviders.get(ev);
  if (list) return list;
  list = [];
  for (const [file, facts] of [...ev.files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    for (const cls of nestFactsOf(facts)?.classes ?? []) {
      for (const d of cls.decorators) {
        if (d.expr.k !== 'call' || !d.expr.args[0]) continue;
        const callee = ev.eval(file, d.expr.callee);
        if (callee.t !== 'pkg' || callee.pkg !== '@nestjs/common' || callee.path.join('.') !== 'Module') continue;
        const metas = [ev.eval(file, d.expr.args[0])];
        // (what each static method returns, its parameters not known: a dynamic module's metadata)
        for (const m of cls.methods) {
          const fn = m.isStatic ? methodValue(ev.files, file, cls, m) : null;
          if (fn?.t === 'fn') for (const r of ev.returnsOf(fn.file, fn.fn)) metas.push(ev.eval(fn.file, r));
        }
        for (const meta of metas) {
          const providers = meta.t === 'obj' ? ev.member(meta, 'providers', 0) : null;
          for (const item of providers?.t === 'arr' ? providers.items : []) {
            if (item.t !== 'obj' || !Object.hasOwn(item.props, 'provide')) continue;
            const useClass = item.props.useClass ?? item.props.useExisting;
            const factory = item.props.useFactory;
            // (`useFactory: (config) => new SqlProjects(config)`: what the factory returns, its injected arguments not known)
            const made: Expr | undefined = useClass ? { k: 'new', callee: useClass, args: [], at: d.at, pos: -1 } : factory ? { k: 'call', callee: factory, args: [], at: d.at, pos: -1 } : item.props.useValue;
            if (made) list.push({ file: item.file, provide: item.props.provide!, made });
          }
        }
      }
    }
  }
  moduleProviders.set(ev, list);
  return list;
}

/** A token as a key: a string's value, or where the name it is read through is defined (a class, a const holding a symbol). */
function tokenKey(ev: Evaluator, file: string, token: Expr): string | null {
  if (token.k === 'str') return `"${token.v}"`;
  if (token.k !== 'ref') return null;
  const d = ev.definitionOf(file, token.scope, token.name);
  if (!d) return null;
  return d.expr.k === 'str' ? `"${d.expr.v}"` : `${d.file}:${d.scope}:${d.name}`;
}

/** The provider a module declares for `token` (the first, in file order), when one does. */
function moduleProvider(ev: Evaluator, file: string, token: Expr): { file: string; expr: Expr } | null {
  const key = tokenKey(ev, file, token);
  if (key === null) return null;
  const p = providersOf(ev).find((x) => (x.key === undefined ? (x.key = tokenKey(ev, x.file, x.provide)) : x.key) === key);
  return p ? { file: p.file, expr: p.made } : null;
}

/**
 * nest-keycloak-connect (read at 1.10: guards/auth.guard.ts, decorators/public.decorator.ts): its
 * `AuthGuard` lets every request through, with a token or without, on a class or handler that
 * `@Public()` or `@Unprotected()` marks (META_UNPROTECTED, looked up on the class first).
 */
const KEYCLOAK = 'nest-keycloak-connect';
const GOLEVELUP_STRIPE = '@golevelup/nestjs-stripe';
const KEYCLOAK_UNPROTECTED = `pkg:${KEYCLOAK}:unprotected`;

/** The metadata opt-outs of a package's guard (GuardUse.optOuts). */
function packageOptOuts(v: Value): GuardUse['optOuts'] {
  return v.t === 'pkg' && v.pkg === KEYCLOAK && v.path.join('.') === 'AuthGuard' ? [{ key: KEYCLOAK_UNPROTECTED, levels: ['class', 'handler'] }] : [];
}

/** The method of the registration `SwaggerModule.setup(path, app, …)` is read as, on `app`. */
const DOCS_SETUP = 'SwaggerModule.setup';

/** Is `v` @nestjs/swagger's `SwaggerModule.setup`? */
function isDocsSetup(v: Value): boolean {
  return v.t === 'pkg' && v.pkg === '@nestjs/swagger' && v.path.join('.') === DOCS_SETUP;
}

/** `SwaggerModule.setup(path, app, document, options)`: routes registered on the app's HTTP adapter, there and then. */
function docsSetupRegistration(call: CallFact, callee: Value): RegistrationFact | null {
  const app = call.args[1];
  if (!app || !isDocsSetup(callee)) return null;
  return { target: app, method: DOCS_SETUP, args: call.args, chainPath: null, ...(call.when ? { when: call.when } : {}), at: call.at, snippet: call.snippet };
}

/** A call `findDocs` evaluates wherever it is: only `X.setup(…)` can be SwaggerModule.setup. */
function maybeDocsSetup(call: CallFact): boolean {
  return call.callee.k === 'member' && call.callee.prop === 'setup';
}

/** A file whose every `….create(…)` call is evaluated, wherever it is bound (`discoverApps`). */
function importsNestCore(facts: FileFacts): boolean {
  return facts.imports.some((i) => i.source === '@nestjs/core');
}

// ---------------------------------------------------------------------------

/** Parameters of custom decorator factories bound to the arguments they were called with. */
type Env = ReadonlyMap<string, Bound>;
interface Bound {
  file: string;
  expr: Expr;
  env: Env;
}
const NO_ENV: Env = new Map();
/** How many functions up a root module handed on through parameters is looked for (NestLinker.rootModule). */
const MAX_CALLER_LEVELS = 4;

interface ClassRef {
  file: string;
  cls: NestClass;
}

/** One primitive decorator of a package (`Controller`, `UseGuards`, `SetMetadata`, …), custom decorators flattened. */
interface Prim {
  pkg: string;
  name: string;
  args: Bound[];
  /** the decorator as written on the class or method */
  use: NestDecorator;
}

interface GuardUse {
  guard: AppliedGuard;
  /**
   * metadata keys (ids) whose truthy value skips this guard (optIn: whose absence does; includes:
   * a list holding that string; length: an empty list counts as absent), and where they are looked up
   */
  optOuts: { key: string; levels: ('handler' | 'class')[]; optIn?: true; includes?: string; length?: true }[];
}

/** A metadata value: truthy or not, or a list of strings known statically (truthy). */
type MetaValue = boolean | string[];

/**
 * Whether the opt-out `o` skips its guard on a route whose handler and class carry the metadata
 * `meta` and `classMeta` (key id → value): the first level of its lookup that sets the key
 * decides (none: not set).
 */
function skips(o: GuardUse['optOuts'][number], meta: Map<string, MetaValue>, classMeta: Map<string, MetaValue>): boolean {
  const level = o.levels.find((l) => (l === 'handler' ? meta : classMeta).has(o.key));
  const v = level === undefined ? false : (level === 'handler' ? meta : classMeta).get(o.key)!;
  // (`@Roles()` with no role, for `if (!roles?.length) return true`: an empty list)
  const set = o.includes !== undefined ? Array.isArray(v) && v.includes(o.includes) : o.length && Array.isArray(v) ? v.length > 0 : v !== false;
  return o.optIn ? !set : set;
}

interface PathTarget {
  regex: RegExp;
  method: string;
  /** the global prefix it was made under, when the app may have one of several: it matches only routes listed under it */
  under?: PrefixStep;
}

interface ModuleMiddleware {
  guards: AppliedGuard[];
  all: boolean;
  paths: PathTarget[];
  controllers: Set<string>;
  exclude: PathTarget[];
}

interface Versioning {
  prefix: string;
  defaultVersion: Versions | null;
  /** the prefix is not known statically (`prefix: \`${CONTEXT_PATH}v\``): versioned routes are listed without their version's segment */
  unknown?: PrefixStep;
}

/**
 * The versions a route is served under (null: version-neutral, no segment), or, when they are
 * not known statically, why and where: the route is listed without the segment, and a step of
 * its prefixes says so.
 */
type Versions = (string | null)[] | { unknown: string; file: string; line: number };

/** A module's RouterModule path; `unknown` when a path above it is not known statically (its step: why, and where). */
interface ModulePath {
  path: string;
  unknown: { note: string; file: string; line: number } | null;
}

interface Exclusion {
  regex: RegExp;
  method: string;
}

interface AppState {
  name: string;
  /** the NestFactory.create(…) call's app; null for controllers no app declares */
  root: RouterObject | null;
  /**
   * `setGlobalPrefix`: its step of the routes' prefixes, one per prefix it may be (`cond ? 'api'
   * : 'v1'`: each route is listed under each, as a mount's alternatives are); one step, `unknown`,
   * when not known statically; none when not set
   */
  prefixSteps: PrefixStep[];
  exclusions: Exclusion[];
  /** URI versioning; null when off (or not by URI) */
  versioning: Versioning | null;
  uses: { guard: AppliedGuard; scope: string }[];
  globalGuards: GuardUse[];
  middleware: ModuleMiddleware[];
  docs: { file: string; line: number; include: Set<string> | null } | null;
  /**
   * The WebSocket adapter its gateways are served by (`app.useWebSocketAdapter(…)`): @nestjs/platform-ws's
   * WsAdapter, or socket.io's IoAdapter (Nest's default, or a class of the code extending it); null
   * when not known statically
   */
  webSocket: { kind: 'ws' | 'socket.io'; file: string; line: number } | { kind: null; note: string; file: string; line: number } | { kind: 'socket.io'; file: null };
}

interface ControllerDecl {
  ref: ClassRef;
  module: ClassRef;
  /** the paths PrometheusModule gives the controller, in place of its `@Controller` path (and of any RouterModule path) */
  metricsPaths?: string[];
}

const PROMETHEUS = '@willsoto/nestjs-prometheus';

/** The controller a `PrometheusModule.register(…)` imported by `module` declares, at `paths`: one of the analysed code, or (null) the package's. */
interface MetricsController {
  ref: ClassRef | null;
  paths: string[];
  module: ClassRef;
  file: string;
  at: Loc;
  snippet: string;
}

/**
 * The webhook controller of @golevelup/nestjs-stripe a `StripeModule.forRoot(…)` (`forRootAsync`)
 * import declares (NestLinker.stripeWebhook): its path (`webhookConfig.controllerPrefix`, null when
 * not known statically) and the decorators `webhookConfig.decorators` applies to it.
 */
interface StripeWebhook {
  prefix: string | null;
  decorators: Bound[];
  module: ClassRef;
  file: string;
  at: Loc;
  snippet: string;
}

/** The GraphQL endpoint `GraphQLModule.forRoot(…)` (`forRootAsync`) serves (NestLinker.graphqlRoutes). */
interface GraphqlEndpoint {
  /** the driver's package: @nestjs/apollo, @nestjs/mercurius or @graphql-yoga/nestjs */
  driver: string;
  path: string;
  useGlobalPrefix: boolean;
  /** the CSRF prevention of the server the driver makes with the options (package-handlers.ts) */
  guards: AppliedGuard[];
  /** Apollo Server 3's health check, at the app's root (@nestjs/apollo 10, unless `disableHealthCheck`) */
  healthCheck: boolean;
  file: string;
  at: Loc;
  snippet: string;
}

/** The packages of Apollo Server 3 that @nestjs/apollo 10 needs, one per platform (11 and later need @apollo/server). */
const APOLLO_SERVER_3 = ['apollo-server-express', 'apollo-server-fastify', 'apollo-server-core'];

/** The drivers of @nestjs/apollo and @nestjs/mercurius, each registering the endpoint as its package's base driver does. */
const GRAPHQL_DRIVERS: Record<string, string[]> = {
  '@nestjs/apollo': ['ApolloDriver', 'ApolloFederationDriver', 'ApolloGatewayDriver'],
  '@nestjs/mercurius': ['MercuriusDriver', 'MercuriusFederationDriver', 'MercuriusGatewayDriver'],
  '@graphql-yoga/nestjs': ['YogaDriver', 'YogaFederationDriver'],
};

function classKey(r: ClassRef): string {
  return `${r.file}#${r.cls.name}`;
}

function paramKey(file: string, fn: number, index: number): string {
  return `${file}:${fn}:${index}`;
}

/** Nest's `addLeadingSlash`. */
function addLeadingSlash(p: string): string {
  return p === '' ? '' : p.startsWith('/') || p.startsWith('{/') ? p : `/${p}`;
}

/** Nest's `stripEndSlash` (one slash). */
function stripEndSlash(p: string): string {
  return p.endsWith('/') ? p.slice(0, -1) : p;
}

/** Nest's `normalizePath`: a leading slash, no trailing or doubled slashes. */
function normalizePath(p: string): string {
  if (!p) return '/';
  return (p.startsWith('/') ? `/${p.replace(/\/+$/, '')}` : `/${p.replace(/\/+$/, '')}`).replace(/\/+/g, '/');
}

/** RoutePathFactory.appendToAllIfDefined */
function appendAll(paths: string[], frags: string[] | undefined): string[] {
  if (!frags || frags.length === 0 || (frags.length === 1 && frags[0] === '')) return paths;
  return paths.flatMap((p) => frags.map((f) => stripEndSlash(p) + addLeadingSlash(f)));
}

const FULL_WILDCARD = /^\/?(\*|\(\.\*\)|\{?\*[\w$]*\}?)\/?$/;

/**
 * A Nest route pattern (path-to-regexp 3 as in Nest 10, or 8 as in Nest 11: `:id`, `(.*)`,
 * `*`, `*splat`, `{*splat}`, `{/optional}`) as a full-path, case-insensitive regular
 * expression with an optional trailing slash.
 */
export function nestPatternRegex(pattern: string): RegExp {
  const convert = (src: string): string => {
    let out = '';
    for (let i = 0; i < src.length; ) {
      const rest = src.slice(i);
      if (rest.startsWith('(.*)')) {
        out += '.*';
        i += 4;
      } else if (rest[0] === '{') {
        let depth = 0;
        let j = i;
        for (; j < src.length; j++) {
          if (src[j] === '{') depth++;
          else if (src[j] === '}' && --depth === 0) break;
        }
        out += `(?:${convert(src.slice(i + 1, j))})?`;
        i = j + 1;
      } else if (rest[0] === '*') {
        const m = /^\*[\w$]*/.exec(rest)!;
        out += '.*';
        i += m[0].length;
      } else if (rest[0] === ':') {
        const m = /^:[\w$]+(\?)?/.exec(rest);
        if (!m) {
          out += ':';
          i++;
          continue;
        }
        out += m[1] ? '[^/]*' : '[^/]+';
        i += m[0].length;
      } else {
        out += rest[0]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
        i++;
      }
    }
    return out;
  };
  return new RegExp(`^${convert(addLeadingSlash(pattern) || '/')}\\/?$`, 'i');
}

/** The instance method `name` of the first class of `chain` (a class, then the classes it extends) declaring one. */
function nearestMethod(chain: readonly ClassRef[], name: string): { c: ClassRef; m: NestMethod } | null {
  for (const c of chain) {
    const m = c.cls.methods.find((x) => x.name === name && !x.isStatic);
    if (m) return { c, m };
  }
  return null;
}

class NestLinker {
  private readonly ev: Evaluator;
  private readonly served = new Set<string>();
  /** Packages with an app whose root module is not known statically (linkApp): the first such app, its settings and the place of its NestFactory.create(…), by package. */
  private readonly unknownRoots = new Map<string, { place: string; app: AppState; init: RouterInit }>();

  constructor(private readonly ctx: LinkContext) {
    this.ev = ctx.ev;
  }

  private classIn(file: string, name: string): ClassRef | null {
    const facts = this.ctx.files.get(file);
    const cls = facts ? nestFactsOf(facts)?.classes.find((c) => c.name === name) : undefined;
    return cls ? { file, cls } : null;
  }

  /**
   * Evaluate every `….create(…)` call of files that import @nestjs/core, so that an app is
   * known even when nothing is registered on it (`SwaggerModule.setup(…, app, …)` alone).
   */
  private discoverApps(): void {
    for (const [file, facts] of this.ctx.files) {
      if (!importsNestCore(facts)) continue;
      const seen = new Set<Expr>();
      const visit = (e: Expr, depth: number): void => {
        if (depth > 40 || seen.has(e)) return;
        seen.add(e);
        switch (e.k) {
          case 'call':
          case 'new':
            if (e.k === 'call' && e.callee.k === 'member' && e.callee.prop === 'create') this.ev.eval(file, e);
            visit(e.callee, depth + 1);
            for (const a of e.args) visit(a, depth + 1);
            return;
          case 'member':
            return visit(e.obj, depth + 1);
          case 'arr':
            for (const it of e.items) visit(it, depth + 1);
            return;
          case 'obj':
            for (const v of Object.values(e.props)) visit(v, depth + 1);
            return;
          case 'tpl':
            for (const p of e.parts) visit(p, depth + 1);
            return;
          default:
            return;
        }
      };
      for (const s of facts.scopes) for (const b of bindingsOf(s)) visit(b, 0);
      for (const c of facts.calls) for (const e of [c.callee, ...c.args]) visit(e, 0);
      for (const f of facts.functions) for (const r of this.ev.returnsOf(file, f.id)) visit(r, 0);
    }
  }

  run(): void {
    this.discoverApps();
    const apps = this.withoutConfigApps(this.ctx.routersOf('nest'));
    const appPackages = new Set<string>();
    for (const r of apps) {
      appPackages.add(this.ctx.project.packageOf(r.file).dir);
      this.linkApp(r);
    }
    // Controllers no bootstrapped module declares.
    const all: ClassRef[] = [];
    for (const [file, facts] of this.ctx.files) for (const cls of nestFactsOf(facts)?.classes ?? []) all.push({ file, cls });
    // (a base class of a served controller is served through it, whatever its own decorator says:
    // Hexabot's `ReadWriteUserController extends ReadOnlyUserController`)
    const bases = new Set(all.filter((c) => this.served.has(classKey(c))).flatMap((c) => this.ancestors(c).slice(1).map(classKey)));
    const orphans = all.filter((c) => !this.served.has(classKey(c)) && !bases.has(classKey(c)) && this.controllerPrim(c));
    for (const c of orphans.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.cls.at.line - b.cls.at.line))) {
      const pkg = this.ctx.project.packageOf(c.file).dir;
      // (an app of the package whose root module is not known may serve it, but for a controller of a
      // test's own, served by the testing module it is given to: AFFiNE's `tests/**/*.spec.ts`)
      const unknownRoot = TEST_FILE.test(c.file) ? undefined : this.unknownRoots.get(pkg);
      if (appPackages.has(pkg) && !unknownRoot) {
        this.ctx.warn(c.file, c.cls.at, `controller ${c.cls.name} is not declared by any module reachable from the app's root module; Nest does not serve it`, this.snippetOf(c));
        continue;
      }
      if (unknownRoot) {
        // (as that app's, with its global prefix, guards and middleware: the modules it imports are not known)
        this.ctx.warn(c.file, c.cls.at, `whether controller ${c.cls.name} is served is not known: the root module of the NestFactory.create(…) at ${unknownRoot.place} is not known statically; its routes are listed as that app's`, this.snippetOf(c));
        this.controllerRoutes(unknownRoot.app, { ref: c, module: c }, new Map(), unknownRoot.init);
        continue;
      }
      this.ctx.warn(c.file, c.cls.at, `no NestFactory.create(…) in the analysed files bootstraps a module declaring controller ${c.cls.name}; its routes are listed without a global prefix`, this.snippetOf(c));
      const app: AppState = { name: pkg || '.', root: null, prefixSteps: [], exclusions: [], versioning: null, uses: [], globalGuards: [], middleware: [], docs: null, webSocket: { kind: 'socket.io', file: null } };
      this.controllerRoutes(app, { ref: c, module: c }, new Map(), { strict: false, caseSensitive: false });
    }
  }

  /**
   * The apps but those made only to read configuration or services: an app nothing in its file
   * listens on, inits or takes the server of, which is closed there (`await configApp.close()`) or
   * never used but by calling its methods (a migration's `const app = await
   * NestFactory.create(AppModule); const repo = app.get(UserRepository)`), when another app of the
   * same root module is left (ghostfolio makes `configApp` from its AppModule for the log levels,
   * then the app it serves). Nest registers an app's routes when it is initialised (`init()`,
   * which `listen()` calls: NestApplication.init, registerRouter), so such an app serves nothing;
   * its routes would be the served app's again, without its prefix and versioning.
   */
  private withoutConfigApps(apps: RouterObject[]): RouterObject[] {
    const closedOnly = (r: RouterObject): boolean => {
      const facts = this.ctx.files.get(r.file);
      const nest = facts ? nestFactsOf(facts) : null;
      if (!facts || !nest?.closed) return false;
      const name = facts.scopes
        .flatMap((s) => Object.keys(s.bindings).filter((n) => {
          const b = bindingOf(s, n);
          return b?.k === 'call' && b.at.line === r.at.line && b.at.column === r.at.column;
        }))
        .at(0);
      return name !== undefined && !nest.served!.includes(name) && (nest.closed.includes(name) || !nest.escaped!.includes(name));
    };
    const configOnly = new Set(apps.filter(closedOnly));
    if (configOnly.size === 0) return apps;
    const servedRoots = new Set(apps.filter((r) => !configOnly.has(r)).map((r) => this.rootOf(r)));
    return apps.filter((r) => !configOnly.has(r) || !servedRoots.has(this.rootOf(r)));
  }

  /** The root module an app is made from (`NestFactory.create(AppModule)`), as a key; null when not known statically. */
  private rootOf(r: RouterObject): string | null {
    const root = this.rootModule(r);
    return root ? classKey(root) : null;
  }

  /**
   * The root module an app is made from: the class `NestFactory.create(…)` is given, or, when
   * that is a parameter of the function making the app, the class every call of that function
   * passes, through the parameters of the functions calling it in turn (hexabot's
   * `createHexabotApplication(moduleRef)`, called by `bootstrapHexabotApp(moduleRef)`, called by
   * main.ts with `HexabotApplicationModule`). Null when not known statically, or when the calls
   * pass different modules.
   */
  private rootModule(r: RouterObject): ClassRef | null {
    if (!r.args[0]) return null;
    const found = new Map<string, ClassRef>();
    let unknown = false;
    const visit = (b: Bound, level: number): void => {
      const direct = this.classOf(b);
      if (direct) {
        found.set(classKey(direct), direct);
        return;
      }
      const p = this.resolve(b);
      const calls = p.expr.k === 'param' && level < MAX_CALLER_LEVELS ? this.ev.callsOf(p.file, p.expr.fn) : [];
      if (p.expr.k !== 'param' || calls.length === 0) unknown = true;
      else for (const c of calls) visit({ file: c.file, expr: c.call.args[p.expr.index] ?? { k: 'unknown', text: 'not passed' }, env: NO_ENV }, level + 1);
    };
    visit({ file: r.file, expr: r.args[0], env: NO_ENV }, 0);
    return !unknown && found.size === 1 ? [...found.values()][0]! : null;
  }

  private snippetOf(c: ClassRef): string {
    return c.cls.decorators[0]?.snippet ?? `class ${c.cls.name}`;
  }

  // -------------------------------------------------------------------------
  // Values, with custom decorator parameters bound.

  private evalIn(b: Bound, depth = 0): Value {
    const v = this.ev.eval(b.file, b.expr);
    if (v.t === 'param' && depth < 16) {
      const bound = b.env.get(paramKey(v.file, v.fn, v.index));
      if (bound) return this.evalIn(bound, depth + 1);
    }
    if (v.t === 'unknown' && b.env.size > 0 && depth < 16) {
      if (b.expr.k === 'tpl') {
        let s = '';
        for (const p of b.expr.parts) {
          const pv = this.evalIn({ ...b, expr: p }, depth + 1);
          if (pv.t !== 'str' && pv.t !== 'num') return v;
          s += String(pv.v);
        }
        return { t: 'str', v: s };
      }
      if (b.expr.k === 'arr') return { t: 'arr', items: b.expr.items.map((it) => this.evalIn({ ...b, expr: it }, depth + 1)) };
    }
    return v;
  }

  /**
   * A test as the call of the function it is written in reads it: the names of its parameters as
   * the literals that call passes (`allowApiKeyAuth ? UseGuards(MultiAuthGuard, …) :
   * UseGuards(JwtAccessTokenGuard, …)` of swetrix's `@Auth(true)`), the rest as written.
   */
  private testIn(b: Bound, test: CondTest): CondTest {
    if (b.env.size === 0) return test;
    return mapTest(test, (e) => {
      const r = this.resolve({ ...b, expr: e });
      return r.expr !== e && (r.expr.k === 'str' || r.expr.k === 'num' || r.expr.k === 'bool') ? { k: 'at', file: r.file, e: r.expr } : e;
    });
  }

  /** Follow names to their definitions (consts, imports, bound parameters). */
  private resolve(b: Bound, depth = 0): Bound {
    if (depth > 24) return b;
    if (b.expr.k === 'param') {
      const bound = b.env.get(paramKey(b.file, b.expr.fn, b.expr.index));
      return bound ? this.resolve(bound, depth + 1) : b;
    }
    if (b.expr.k === 'member') {
      // `appModules.imports` of `const appModules = { imports: [...] }`: the property as written
      // (not when a spread after it may replace it)
      // `allow_anonymous_decorator_1.ALLOW_ANONYMOUS` of a module's namespace, `exports.ALLOW_ANONYMOUS`
      // in the module itself (TypeScript's CommonJS output): what the module exports under that name
      const exported = this.ev.exportedMember(b.file, b.expr);
      if (exported) return this.resolve({ file: exported.file, expr: exported.expr, env: NO_ENV }, depth + 1);
      const obj = this.resolve({ ...b, expr: b.expr.obj }, depth + 1);
      if (obj.expr.k !== 'obj') return b;
      const keys = Object.keys(obj.expr.props);
      for (let i = keys.length - 1; i >= 0; i--) {
        if (keys[i] === b.expr.prop) return this.resolve({ ...obj, expr: obj.expr.props[keys[i]!]! }, depth + 1);
        if (keys[i]!.startsWith('*spread*')) return b;
      }
      return b;
    }
    if (b.expr.k !== 'ref') return b;
    const def = this.ev.definitionOf(b.file, b.expr.scope, b.expr.name);
    if (!def || def.expr === b.expr) return b;
    if (def.expr.k === 'unknown' && def.expr.text === '') return b;
    return this.resolve({ file: def.file, expr: def.expr, env: def.file === b.file ? b.env : NO_ENV }, depth + 1);
  }

  private classOf(b: Bound, depth = 0): ClassRef | null {
    if (depth > 8) return null;
    const r = this.resolve(b);
    const e = r.expr;
    if (e.k === 'new') return this.classOf({ ...r, expr: e.callee }, depth + 1);
    // `app.get(AuthGuard)`, `moduleRef.get(AuthGuard)`: the instance the container made of the
    // class (INestApplicationContext.get), AFFiNE's `app.useGlobalGuards(app.get(AuthGuard))`
    if (e.k === 'call' && e.callee.k === 'member' && e.callee.prop === 'get' && e.args.length >= 1 && e.args.length <= 2) {
      const cls = this.classOf({ ...r, expr: e.args[0]! }, depth + 1);
      if (cls) return cls;
    }
    if (e.k === 'unknown' && e.text.startsWith('class ')) return this.classIn(r.file, e.text.slice(6));
    if (e.k === 'call') {
      const callee = this.evalIn({ ...r, expr: e.callee });
      // `mixin(OAuthCallbackGuardMixin)`: @nestjs/common's mixin() returns the class it is given
      if (callee.t === 'pkg' && callee.pkg === '@nestjs/common' && callee.path.join('.') === 'mixin' && !callee.called && e.args.length === 1) return this.classOf({ ...r, expr: e.args[0]! }, depth + 1);
      // `@UseGuards(OAuthCallbackGuard('google'))` of `function OAuthCallbackGuard(strategy) { class
      // M extends AuthGuard(strategy) {…}; return mixin(M) }` (ghostfolio): the class a factory of the code returns
      if (callee.t === 'fn') {
        const returns = this.ev.returnsOf(callee.file, callee.fn);
        if (returns.length === 1) return this.classOf({ file: callee.file, expr: returns[0]!, env: NO_ENV }, depth + 1);
      }
    }
    if (e.k === 'member') {
      const obj = this.ev.eval(r.file, e.obj);
      if (obj.t === 'ns') {
        // (the module's export of that name, also one it exports `*` from: a barrel's)
        const def = this.ev.exportDefinition(obj.file, e.prop) ?? this.ev.definitionOf(obj.file, 0, e.prop);
        if (def) return this.classOf({ file: def.file, expr: def.expr, env: NO_ENV }, depth + 1);
      }
    }
    return null;
  }

  /**
   * The items of a list written as an array, a const array, spreads of those, a function
   * returning one, or a `concat` of lists; with what calls add to a module's list
   * (`if (process.env.SEGMENT_TOKEN) modules.push(AnalyticsModule)`).
   */
  private items(b: Bound, out: Bound[] = [], depth = 0): Bound[] {
    if (depth > 16) return out;
    const added = b.expr.k === 'ref' ? this.addedItems(b.file, b.expr) : null;
    if (added) {
      for (const a of added.front) this.items(a, out, depth + 1);
      this.items(added.list, out, depth + 1);
      for (const a of added.back) this.items(a, out, depth + 1);
      return out;
    }
    const r = this.resolve(b);
    if (r.expr.k === 'arr') {
      for (const it of r.expr.items) this.items({ ...r, expr: it }, out, depth + 1);
      return out;
    }
    if (r.expr.k === 'choice') {
      // `process.env.MCP_ONLY ? [RootController, OAuthController] : [RootController, …]`: the
      // list the test picks when it is known statically; else either may be served: the items
      // of both, each once
      const holds = truthOf(this.ev, r.file, this.testIn(r, r.expr.test));
      if (holds !== null) return this.items({ ...r, expr: holds ? r.expr.then : r.expr.otherwise }, out, depth + 1);
      return this.eachOnce([{ ...r, expr: r.expr.then }, { ...r, expr: r.expr.otherwise }], out, depth);
    }
    // `options.imports || []`: the list given, or, when the object it is read from has none, the fallback
    if (r.expr.k === 'fallback') {
      const given = this.resolve({ ...r, expr: r.expr.l });
      if (given.expr.k === 'arr') return this.items(given, out, depth + 1);
      if (this.absent(r, r.expr.l)) return this.items({ ...r, expr: r.expr.r }, out, depth + 1);
    }
    // `baseModules.concat(enterpriseModules)`: the items of the list, then of each argument
    if (r.expr.k === 'call' && r.expr.callee.k === 'member' && r.expr.callee.prop === 'concat') {
      this.items({ ...r, expr: r.expr.callee.obj }, out, depth + 1);
      for (const a of r.expr.args) this.items({ ...r, expr: a }, out, depth + 1);
      return out;
    }
    // `...Object.values(Controllers)` of `import * as Controllers from './controller'`: each export
    // of the module (Evaluator.exportNames), read as a member of its namespace
    if (r.expr.k === 'call' && r.expr.args.length === 1 && this.ev.objectMethod(r.file, r.expr.callee) === 'values') {
      const arg = r.expr.args[0]!;
      const ns = this.evalIn({ ...r, expr: arg });
      const names = ns.t === 'ns' ? this.ev.exportNames(ns.file) : null;
      if (names) {
        for (const prop of names) this.items({ ...r, expr: { k: 'member', obj: arg, prop } }, out, depth + 1);
        return out;
      }
    }
    // `models.map((model) => RegisterTenancyModel(model))` (bigcapital's), `FEATURES.map((f) =>
    // f.module)`: what a callback of one return gives for each item of the list
    if (r.expr.k === 'call' && r.expr.callee.k === 'member' && r.expr.callee.prop === 'map' && r.expr.args.length === 1) {
      const cb = this.evalIn({ ...r, expr: r.expr.args[0]! });
      const returned = cb.t === 'fn' ? this.ev.returnsOf(cb.file, cb.fn) : [];
      if (cb.t === 'fn' && returned.length === 1) {
        for (const item of this.items({ ...r, expr: r.expr.callee.obj }, [], depth + 1)) this.items({ file: cb.file, expr: returned[0]!, env: this.callEnv(r.env, cb, [item]) }, out, depth + 1);
        return out;
      }
    }
    if (r.expr.k === 'call') {
      const callee = this.evalIn({ ...r, expr: r.expr.callee });
      // (`function getControllers() { if (isClerkEnabled()) return [EEOrganizationController]; return [OrganizationController] }`:
      // the function returns one of its lists, which is not known here: the items of each, each once)
      const returns = callee.t === 'fn' ? this.ev.returnsOf(callee.file, callee.fn).map((ret) => ({ file: callee.file, expr: ret, env: NO_ENV })) : [];
      // (a list built under conditions, `if (ee) modules.push(EeModule); return modules`: a choice of lists)
      if (returns.some((ret) => ['arr', 'choice'].includes(this.resolve(ret).expr.k))) return this.eachOnce(returns, out, depth);
    }
    out.push(r);
    return out;
  }

  /** Is `e` a property its object, written as an object literal with no spread, does not have? */
  private absent(b: Bound, e: Expr): boolean {
    if (e.k !== 'member') return false;
    const obj = this.resolve({ ...b, expr: e.obj });
    if (obj.expr.k !== 'obj') return false;
    const keys = Object.keys(obj.expr.props);
    return !keys.includes(e.prop) && !keys.some((k) => k.startsWith('*spread*'));
  }

  /** The items of each of `lists` (one of which is the list, which is not known statically), each once. */
  private eachOnce(lists: Bound[], out: Bound[], depth: number): Bound[] {
    const seen = new Set<string>();
    for (const it of lists.flatMap((l) => this.items(l, [], depth + 1))) {
      const key = `${it.file}\0${JSON.stringify(it.expr)}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(it);
      }
    }
    return out;
  }

  /**
   * A list a name holds at module scope, with the items calls in its file add to it: those
   * `unshift` puts first, those `push` puts last, as they run in the order written (one under a
   * condition known to fail adds nothing; one not known may, so its items are listed). Null when
   * nothing is added to it.
   */
  private addedItems(file: string, e: Extract<Expr, { k: 'ref' }>): { list: Bound; front: Bound[]; back: Bound[] } | null {
    const def = this.ev.definitionOf(file, e.scope, e.name);
    if (!def || def.expr === e || def.scope !== 0) return null;
    const front: Bound[] = [];
    const back: Bound[] = [];
    for (const fact of additionsTo(this.ev, def)) {
      const prop = fact.callee.k === 'member' ? fact.callee.prop : '';
      if ((prop !== 'push' && prop !== 'unshift') || (fact.when && decide(this.ev, def.file, fact.when).never)) continue;
      const args = fact.args.map((a) => ({ file: def.file, expr: a, env: NO_ENV }));
      if (prop === 'push') back.push(...args);
      else front.unshift(...args);
    }
    if (front.length === 0 && back.length === 0) return null;
    return { list: { file: def.file, expr: def.expr, env: NO_ENV }, front, back };
  }

  private strings(b: Bound | undefined): string[] | null {
    return b ? stringsOf(this.evalIn(b)) : null;
  }

  private truthy(b: Bound | undefined, absent: boolean): boolean {
    if (!b) return absent;
    const v = this.evalIn(b);
    if (v.t === 'bool') return v.v;
    if (v.t === 'num') return v.v !== 0;
    if (v.t === 'str') return v.v !== '';
    return true;
  }

  private objProp(b: Bound, key: string): Bound | undefined {
    const r = this.resolve(b);
    if (r.expr.k !== 'obj') return undefined;
    const e = r.expr.props[key];
    return e ? { ...r, expr: e } : undefined;
  }

  /**
   * The items of a list property. Of metadata that is one of several objects (`@Module(getModuleConfig())`
   * of `function getModuleConfig() { if (isClerkEnabled()) return getEEModuleConfig(); else return
   * getCommunityAuthModuleConfig(); }`, or `cond ? a : b`, the test not known statically): the
   * items of each, each once.
   */
  private listProp(b: Bound, key: string): Bound[] {
    const lists = this.alternatives(b, 0).flatMap((alt) => this.objProp(alt, key) ?? []);
    if (lists.length <= 1) return lists[0] ? this.items(lists[0]) : [];
    return this.eachOnce(lists, [], 0);
  }

  /** What a value may be: each value a function called returns, each branch of a choice its test does not decide. */
  private alternatives(b: Bound, depth: number): Bound[] {
    const r = this.resolve(b);
    if (depth > 8) return [r];
    if (r.expr.k === 'choice') {
      const holds = truthOf(this.ev, r.file, r.expr.test);
      if (holds !== null) return this.alternatives({ ...r, expr: holds ? r.expr.then : r.expr.otherwise }, depth + 1);
      return [...this.alternatives({ ...r, expr: r.expr.then }, depth + 1), ...this.alternatives({ ...r, expr: r.expr.otherwise }, depth + 1)];
    }
    if (r.expr.k === 'call') {
      const callee = this.evalIn({ ...r, expr: r.expr.callee });
      if (callee.t === 'fn') {
        const returns = this.ev.returnsOf(callee.file, callee.fn);
        if (returns.length > 0) return returns.flatMap((ret) => this.alternatives({ file: callee.file, expr: ret, env: NO_ENV }, depth + 1));
      }
    }
    return [r];
  }

  /**
   * The strings an option of the object `b` holds (a list, or one): undefined when the object
   * lacks it, null when they are not known statically. Read from the object written (objProp), or
   * from the value it evaluates to (an object a function makes).
   */
  private option(b: Bound, key: string): string[] | null | undefined {
    if (this.isObj(b)) {
      const p = this.objProp(b, key);
      return p ? this.strings(p) : undefined;
    }
    const v = this.evalIn(b);
    if (v.t !== 'obj') return null;
    const m = this.ctx.ev.member(v, key, 0);
    return m.t === 'unknown' && m.why.startsWith('no property') ? undefined : stringsOf(m);
  }

  private isObj(b: Bound): boolean {
    return this.resolve(b).expr.k === 'obj';
  }

  /** A metadata key's identity: its string value, or where it is defined (a Symbol, a unique const). */
  private keyId(b: Bound): string {
    const v = this.evalIn(b);
    if (v.t === 'str') return `str:${v.v}`;
    const r = this.resolve(b);
    return `def:${r.file}:${r.expr.k === 'call' || r.expr.k === 'new' ? r.expr.pos : JSON.stringify(r.expr).slice(0, 120)}`;
  }

  // -------------------------------------------------------------------------
  // Decorators.

  private prims(decorators: NestDecorator[], file: string): Prim[] {
    const out: Prim[] = [];
    // Decorators apply bottom-up: the one written last is applied first.
    for (const d of [...decorators].reverse()) this.flattenDecorator({ file, expr: d.expr, env: NO_ENV }, d, out, 0);
    return out;
  }

  /**
   * `env` with the parameters of `fn` standing for the arguments of one call, `args`, and a
   * parameter the call passes nothing for standing for its default (`(metadata: ModuleMetadata
   * = {}) => …` of hexabot's `@HexabotModule()`); a rest parameter, for the list of the arguments
   * from its place on (`@Roles('admin', 'public')` of `Roles = (...roles) => SetMetadata('roles', roles)`).
   */
  private callEnv(env: Env, fn: { file: string; fn: number }, args: Bound[]): Env {
    const out = new Map(env);
    args.forEach((a, i) => out.set(paramKey(fn.file, fn.fn, i), a));
    const f = this.ev.fnOf(fn.file, fn.fn);
    const rest = f?.rest;
    if (rest !== undefined) {
      const from = args.slice(rest);
      const first = from[0];
      // (arguments of one call, read in one file and environment)
      if (!first || from.every((a) => a.file === first.file && a.env === first.env)) out.set(paramKey(fn.file, fn.fn, rest), { file: first?.file ?? fn.file, expr: { k: 'arr', items: from.map((a) => a.expr) }, env: first?.env ?? env });
    }
    const scope = f ? this.ctx.files.get(fn.file)?.scopes[f.scope] : undefined;
    if (!f || !scope) return out;
    for (let i = args.length; i < f.params.length; i++) {
      const p = f.params[i] ? bindingOf(scope, f.params[i]!) : undefined;
      if (p?.k === 'param' && p.init) out.set(paramKey(fn.file, fn.fn, i), { file: fn.file, expr: p.init, env: out });
    }
    return out;
  }

  private flattenDecorator(b: Bound, use: NestDecorator, out: Prim[], depth: number): void {
    if (depth > 16) return;
    const e = b.expr;
    if (e.k === 'call') {
      const callee = this.evalIn({ ...b, expr: e.callee });
      const args = e.args.map((a) => ({ ...b, expr: a }));
      if (callee.t === 'pkg' && callee.path.length > 0) {
        const name = callee.path[callee.path.length - 1]!;
        if (callee.pkg === '@nestjs/common' && name === 'applyDecorators') {
          for (const a of args) for (const it of this.items(a)) this.flattenDecorator(it, use, out, depth + 1);
        } else out.push({ pkg: callee.pkg, name, args, use });
        return;
      }
      if (callee.t === 'fn') {
        if (!this.ev.fnOf(callee.file, callee.fn)) return;
        const env = this.callEnv(b.env, callee, args);
        for (const r of this.ev.returnsOf(callee.file, callee.fn)) this.flattenDecorator({ file: callee.file, expr: r, env }, use, out, depth + 1);
      }
      return;
    }
    // `(target) => { …; Module(metadata)(target) }`, a decorator a factory of the code returns
    // (AFFiNE's `Plugin(options)`): each decorator it applies to its target by hand
    if (e.k === 'fn') {
      const f = this.ev.fnOf(b.file, e.id);
      const target = f?.params[0];
      if (!f || !target) return;
      for (const c of this.ctx.files.get(b.file)?.calls ?? []) {
        const a = c.args[0];
        if (c.callee.k === 'call' && c.args.length === 1 && a?.k === 'ref' && a.name === target && a.scope === f.scope) this.flattenDecorator({ ...b, expr: c.callee }, use, out, depth + 1);
      }
      return;
    }
    const r = this.resolve(b);
    if (r.expr !== e) this.flattenDecorator(r, use, out, depth + 1);
  }

  private find(prims: Prim[], name: string, pkg = '@nestjs/common'): Prim[] {
    return prims.filter((p) => p.name === name && p.pkg === pkg);
  }

  private controllerPrim(c: ClassRef): Prim | null {
    return this.find(this.prims(c.cls.decorators, c.file), 'Controller')[0] ?? null;
  }

  // -------------------------------------------------------------------------
  // Guards.

  private ancestors(c: ClassRef): ClassRef[] {
    const chain: ClassRef[] = [c];
    let cur: ClassRef | null = c;
    while (cur?.cls.heritage && chain.length < 8) {
      cur = this.classOf({ file: cur.file, expr: cur.cls.heritage, env: NO_ENV });
      if (!cur || chain.some((x) => classKey(x) === classKey(cur!))) break;
      chain.push(cur);
    }
    return chain;
  }

  /** Is `e`, a function a guard's canActivate hands its request to, the base's (`super.…`) or one reading its credential from a header only? */
  private headerOrBase(file: string, e: Expr): boolean {
    if (e.k === 'member' && e.obj.k === 'unknown' && e.obj.text === 'super') return true;
    const v = this.ev.eval(file, e);
    return jwtHeaderExtractor(v) !== null || headerCredentialOf(this.ev, v);
  }

  private methodFn(c: ClassRef, m: NestMethod): Value {
    return methodValue(this.ctx.files, c.file, c.cls, m);
  }

  /**
   * A guard or middleware class (or instance, or package value) as an applied guard; `module`,
   * that of the controller it guards, when known (its imports may name @nestjs/passport's default strategy).
   */
  private guardUse(b: Bound, mechanism: GuardMechanism, at: Loc, method: 'canActivate' | 'use', module?: ClassRef): GuardUse | null {
    const cls = this.classOf(b);
    if (!cls) {
      const r = this.resolve(b);
      const value = this.evalIn(r);
      const g = this.ctx.guard(r.file, r.expr, value, mechanism, at);
      const guard = g ? this.byStrategies(g, value, module) : null;
      return guard ? { guard: this.strategiesTenant(guard, value, module), optOuts: packageOptOuts(value) } : null;
    }
    // (`this` in a canActivate or use the class inherits is the class's instance: what it overrides answers)
    return this.ev.asInstance(cls.file, 0, cls.cls.name, () => this.classGuardUse(cls, mechanism, at, method, module));
  }

  /**
   * The guard a guard's own `canActivate` hands its verdict to, `return
   * this.authGuard.canActivate(context)` of `constructor(@Inject('USER_AUTH_GUARD') private
   * authGuard: IAuthGuard)` (novu's UserAuthGuard): what the container passes for that
   * constructor parameter — the provider a module declares for its token, else an instance of its
   * class. Null for any other body.
   */
  private verdictDelegate(ownFn: Value): Bound | null {
    if (ownFn.t !== 'fn') return null;
    const returns = this.ev.returnsOf(ownFn.file, ownFn.fn);
    const r = returns.length === 1 ? returns[0]! : null;
    if (r?.k !== 'call' || r.callee.k !== 'member' || r.callee.prop !== 'canActivate') return null;
    const held = this.resolve({ file: ownFn.file, expr: r.callee.obj, env: NO_ENV });
    if (held.expr.k !== 'param' || !held.expr.injected) return null;
    const provided = moduleProvider(this.ev, held.file, held.expr.injected.callee);
    return provided ? { file: provided.file, expr: provided.expr, env: NO_ENV } : { file: held.file, expr: held.expr.injected, env: NO_ENV };
  }

  /** Guard classes whose verdict delegate is being read (classGuardUse): a cycle of them is read once. */
  private readonly delegating = new Set<string>();

  /** A guard or middleware class as an applied guard (guardUse), `this` in its methods its instance. */
  private classGuardUse(cls: ClassRef, mechanism: GuardMechanism, at: Loc, method: 'canActivate' | 'use', module?: ClassRef): GuardUse | null {
    const chain = this.ancestors(cls);
    const own = nearestMethod(chain, method);
    const named: Expr = { k: 'ref', name: cls.cls.name, scope: 0 };
    const ownFn = own ? this.methodFn(own.c, own.m) : null;
    let g = this.ctx.guard(cls.file, named, ownFn ?? { t: 'unknown', why: `class ${cls.cls.name}` }, mechanism, at);
    const last = chain[chain.length - 1]!;
    const base = last.cls.heritage ? this.ev.eval(last.file, last.cls.heritage) : null;
    // @nestjs/passport's AuthGuard rejects in handleRequest(); a subclass whose override never
    // throws (`handleRequest(err, user) { return user; }`) lets anonymous requests through,
    // whatever its name says (`OptionalJwtAuthGuard`): unless its own canActivate refuses, no guard.
    const hr = nearestMethod(chain, 'handleRequest');
    const hrFn = hr ? this.methodFn(hr.c, hr.m) : null;
    const hrFacts = hrFn?.t === 'fn' ? this.ev.fnOf(hrFn.file, hrFn.fn) : undefined;
    // (one returning the base's answer, `return super.handleRequest(err, user, …)` after its own
    // work, throws as the base does: amplication's GitHubAuthGuard)
    const toBase = hrFn?.t === 'fn' && this.ev.returnsOf(hrFn.file, hrFn.fn).some((r) => r.k === 'call' && r.callee.k === 'member' && r.callee.prop === 'handleRequest' && r.callee.obj.k === 'unknown' && r.callee.obj.text === 'super');
    const optional = !!hrFacts && !hrFacts.behaviour.status401 && !hrFacts.behaviour.sendsResponse && !toBase;
    const passportBase = base?.t === 'pkg' && base.pkg === '@nestjs/passport' && base.called && base.path.join('.') === 'AuthGuard';
    const ownFacts = ownFn?.t === 'fn' ? this.ev.fnOf(ownFn.file, ownFn.fn) : undefined;
    const ownRefuses = !!ownFacts?.behaviour.status401;
    if (optional && passportBase && !ownRefuses) return null;
    // A rate limiter's override answering true or the limiter's verdict, `if (req.session?.user)
    // return true; return super.canActivate(context)` (AFFiNE's CloudThrottlerGuard): @nestjs/throttler's
    // ThrottlerGuard refuses with 429 only, so the session read lets signed-in callers skip the
    // limit and checks no one. No guard, as the limiter it extends is none, unless it refuses itself.
    const throttlerBase = base?.t === 'pkg' && base.pkg === THROTTLER_PACKAGE && !base.called && base.path.join('.') === 'ThrottlerGuard';
    if (throttlerBase && ownFn?.t === 'fn' && ownFacts && !ownFacts.behaviour.status401 && !ownFacts.behaviour.status403or404) {
      const verdicts = this.ev.returnsOf(ownFn.file, ownFn.fn);
      const superVerdict = (r: Expr): boolean => r.k === 'call' && r.callee.k === 'member' && r.callee.prop === method && r.callee.obj.k === 'unknown' && r.callee.obj.text === 'super';
      if (verdicts.length > 0 && verdicts.every((r) => (r.k === 'bool' && r.v) || superVerdict(r))) return null;
    }
    // Does a refusal of the base's canActivate reach the request? Not past an override that does
    // not call it, nor one letting what it throws go (`try { return await super.canActivate(ctx) }
    // catch { return true }`: @nestjs/passport's throws, never answers false)
    const reaches = this.baseRefusalReaches(chain, method);
    if (g && ownFacts?.behaviour.activation?.allows && !reaches && passportBase) {
      // (what its name says it checks, it lets through: no guard but by the CSRF and family names, SPEC's by name only)
      const kinds = g.kinds.filter((k) => k === 'csrf' || k === 'family');
      g = kinds.length > 0 ? { ...g, kinds, reason: `${ALLOWS_ALL}; it lets what ${base!.t === 'pkg' ? 'the AuthGuard of @nestjs/passport' : 'its base class'} throws go` } : null;
      if (!g) return null;
    }
    if ((!g || g.kinds.every((k) => k === 'unknown')) && reaches) {
      // `class JwtGuard extends AuthGuard('jwt')`: a base class from a package classifies it.
      const byBase = base?.t === 'pkg' ? this.ctx.guard(cls.file, named, base, mechanism, at) : null;
      if (byBase && !byBase.kinds.includes('unknown') && !optional) g = { ...byBase, reason: `${byBase.reason} (its base class)` };
    }
    // `return this.authGuard.canActivate(context)`: what the guard it hands its verdict to is
    const delegate = ownFn && method === 'canActivate' ? this.verdictDelegate(ownFn) : null;
    const key = classKey(cls);
    if (delegate && !this.delegating.has(key)) {
      this.delegating.add(key);
      const handed = this.guardUse(delegate, mechanism, at, method, module);
      this.delegating.delete(key);
      if (handed) g = { ...handed.guard, name: cls.cls.name, file: cls.file, reason: `its canActivate hands its verdict to ${handed.guard.name}, ${handed.guard.reason}` };
    }
    // `canActivate(context) { …; this.auth.assertSignedIn(request); return true }`: the checks of what it calls
    if (ownFn && (!g || g.kinds.every((k) => k === 'unknown'))) g = this.ctx.delegatedGuard(cls.file, cls.cls.name, ownFn, mechanism, at, method === 'canActivate') ?? g;
    if (!g) return null;
    // (with no canActivate of its own, the strategies of its base `AuthGuard('jwt')` take the credential)
    if (base && !own) {
      const byBase = this.byStrategies(g, base, module);
      if (!byBase) return null;
      g = byBase;
    }
    // (with one of its own reading no cookie or session, handing the request only to the base,
    // `super.canActivate(context)`, and to passport-jwt header extractors or functions reading a
    // header only — nest-admin's JwtAuthGuard, `this.jwtFromRequestFn(request)` of a field
    // `ExtractJwt.fromAuthHeaderAsBearerToken()` —, the base's strategies take the credential too)
    else if (base && passportBase && reaches && ownFn?.t === 'fn' && ownFacts?.behaviour.credentialVia?.every((e) => this.headerOrBase(ownFn.file, e))) {
      const byBase = this.byStrategies(g, base, module);
      if (byBase) g = byBase;
    }
    // (the strategies run for each request its canActivate hands the base: `return super.canActivate(context)`)
    if (base && reaches) g = this.strategiesTenant(g, base, module);
    // (those of the class whose canActivate runs, and of the one whose handleRequest a passport
    // AuthGuard calls: swetrix's `if (isOptionalAuth) { …; return user }`, anonymous requests handed on)
    const optClasses = [...new Set([own?.c, passportBase ? hr?.c : undefined].filter((c): c is ClassRef => c !== undefined))];
    const optOuts = optClasses.flatMap((c) => c.cls.optOuts.map((o) => ({ key: this.keyId({ file: c.file, expr: o.key, env: NO_ENV }), levels: o.levels, ...(o.optIn ? { optIn: o.optIn } : {}), ...(o.includes !== undefined ? { includes: o.includes } : {}), ...(o.length ? { length: o.length } : {}) })));
    // (the opt-outs of a package's guard it extends, whose canActivate runs: keycloak's @Public())
    if (base && reaches) optOuts.push(...packageOptOuts(base));
    return { guard: g, optOuts };
  }

  /**
   * Does a refusal of the package base's `method` reach the request through the class chain
   * (Behaviour.activation of each override, from the base's side to the class)? It leaves the
   * base by a throw (@nestjs/passport's AuthGuard throws 401); an override passes a throw on where
   * it calls `super.canActivate(…)` outside a `try` that catches it, turns it into its answer
   * where the `catch` answers anything but true, and passes an answer on only by returning it.
   * An override not calling it, or letting the throw go, stops it.
   */
  private baseRefusalReaches(chain: ClassRef[], method: string): boolean {
    let by: 'throw' | 'answer' | null = 'throw';
    for (let i = chain.length - 1; i >= 0 && by !== null; i--) {
      const m = chain[i]!.cls.methods.find((x) => x.name === method && !x.isStatic);
      if (!m) continue;
      const fn = this.methodFn(chain[i]!, m);
      const a = fn.t === 'fn' ? this.ev.fnOf(fn.file, fn.fn)?.behaviour.activation : undefined;
      if (!a?.super) by = null;
      else if (by === 'throw') by = a.super === 'propagates' ? 'throw' : a.super === 'converted' ? 'answer' : null;
      else by = a.returnsSuper ? 'answer' : null;
    }
    return by !== null;
  }

  /**
   * @nestjs/passport's `AuthGuard('jwt')` authenticates with the passport strategies it names.
   * When each is a strategy class of the analysed files (`class JwtStrategy extends
   * PassportStrategy(Strategy, 'jwt')`) that takes its credential from a request header, never
   * from a cookie the browser sends by itself, the guard is bearer-token auth (`guard`'s kinds
   * plus `bearer`); otherwise `guard` as it is. `AuthGuard()` names none: it takes the
   * `defaultStrategy` of the `PassportModule.register(…)` the guarded controller's module imports
   * (the AuthModuleOptions injected there; without one, passport has no strategy to run). Read at
   * @nestjs/passport 10. Null when a strategy it names is passport-anonymous's (a class extending
   * `PassportStrategy(Strategy, 'guest')` of it): no guard.
   */
  private byStrategies(guard: AppliedGuard, value: Value, module?: ClassRef): AppliedGuard | null {
    if (guard.kinds.length !== 1 || guard.kinds[0] !== 'auth') return guard;
    const named = this.strategiesNamed(value, module);
    if (!named) return guard;
    // (one of them passport-anonymous's, under a name of its own: every request goes through)
    if (passingNamed(named.first, this.passportStrategies())) return null;
    const how = headerStrategies(named.first, this.passportStrategies());
    return how ? { ...guard, kinds: ['auth', 'bearer'], reason: `${guard.reason}, ${how}${named.byDefault}` } : guard;
  }

  /**
   * The strategy names `AuthGuard(…)` of @nestjs/passport is given (`value`), or with none the
   * default one (`byDefault` says so, for a reason); null for any other value.
   */
  private strategiesNamed(value: Value, module?: ClassRef): { first: Value | undefined; byDefault: string } | null {
    if (value.t !== 'pkg' || value.pkg !== '@nestjs/passport' || !value.called || value.path.join('.') !== 'AuthGuard') return null;
    if (value.args.length > 0) return { first: value.args[0], byDefault: '' };
    return { first: module ? this.defaultStrategy(module) : undefined, byDefault: module ? ` (the default strategy of PassportModule.register in ${module.cls.name})` : '' };
  }

  /**
   * An authenticating guard of @nestjs/passport's `AuthGuard(…)` (`value`, itself or the base
   * class whose refusal reaches the request) whose strategies each refuse a token of another
   * tenant than the request's (a check leading the strategy class's `validate`, docmost's
   * `req.raw.workspaceId !== payload.workspaceId` with the workspace the request's hostname
   * names): a tenant guard too.
   */
  private strategiesTenant(guard: AppliedGuard, value: Value, module?: ClassRef): AppliedGuard {
    if (!guard.kinds.includes('auth') || guard.kinds.includes('tenant')) return guard;
    const named = this.strategiesNamed(value, module);
    const how = named ? tenantStrategies(named.first, this.passportStrategies()) : null;
    return how ? { ...guard, kinds: [...guard.kinds, 'tenant'], reason: `${guard.reason}; ${how}${named!.byDefault}` } : guard;
  }

  /** `defaultStrategy` of the `PassportModule.register({ defaultStrategy })` a module's `@Module` imports. */
  private defaultStrategy(module: ClassRef): Value | undefined {
    const meta = this.find(this.prims(module.cls.decorators, module.file), 'Module')[0]?.args[0];
    for (const imp of meta ? this.listProp(meta, 'imports') : []) {
      const v = this.evalIn(imp);
      if (v.t !== 'pkg' || v.pkg !== '@nestjs/passport' || !v.called || v.path.join('.') !== 'PassportModule.register') continue;
      const options = v.args[0];
      return options ? this.ev.member(options, 'defaultStrategy', 0) : undefined;
    }
    return undefined;
  }

  private strategies: Strategies | undefined;

  /**
   * The passport strategy classes of the analysed files by name (`extends
   * PassportStrategy(Strategy, name)`, the options its constructor hands `super(…)`).
   */
  private passportStrategies(): Strategies {
    if (this.strategies !== undefined) return this.strategies;
    const ev = this.ev;
    const files = this.ctx.files;
    function* found(): Generator<{ name: string; where: string; via: string | null } | undefined> {
      for (const [file, facts] of files) {
        for (const cls of nestFactsOf(facts)?.classes ?? []) {
          const base = cls.heritage ? ev.eval(file, cls.heritage) : null;
          if (base?.t !== 'pkg' || base.pkg !== '@nestjs/passport' || !base.called || base.path.join('.') !== 'PassportStrategy') continue;
          const [strategy, named] = base.args;
          const pkg = strategy?.t === 'pkg' && !strategy.called ? strategy.pkg : null;
          const s = passportStrategy(ev, pkg, named, cls.superArgs?.[0] ? ev.eval(file, cls.superArgs[0]) : undefined);
          // (its `validate`, passport's verify: `if (req.raw.workspaceId !== payload.workspaceId) throw
          // new UnauthorizedException()` refuses a token of another tenant, as a check leading it)
          const validate = cls.methods.find((m) => m.name === 'validate' && !m.isStatic);
          const fn = validate ? methodValue(files, file, cls, validate) : null;
          const tenant = fn?.t === 'fn' && !!ev.fnOf(fn.file, fn.fn)?.leading.some((l) => l.inline === 'tenant' && !l.userParams);
          yield s && { ...s, where: `${cls.name} at ${file}:${cls.at.line}`, ...(tenant ? { tenant: true as const } : {}) };
        }
      }
    }
    return (this.strategies = strategiesOf(found()));
  }

  // -------------------------------------------------------------------------
  // Apps.

  private linkApp(router: RouterObject): void {
    const root = this.rootModule(router);
    const pkg = this.ctx.project.packageOf(router.file).dir;
    // (a package's module, `NestFactory.create(GraphQLSchemaBuilderModule)` of @nestjs/graphql,
    // made to build a schema: known, and it declares none of the analysed controllers)
    const packaged = !root && router.args[0] ? this.ev.eval(router.file, router.args[0]) : null;
    const packageRoot = packaged?.t === 'pkg' && !packaged.called && packaged.path.length > 0 ? packaged : null;
    if (packageRoot) this.ctx.warn(router.file, router.at, `the root module of this NestFactory.create(…) is ${packageRoot.path.join('.')} of ${packageRoot.pkg}: the routes of a package's modules are not read`, '');
    else if (!root) this.ctx.warn(router.file, router.at, 'the root module of this NestFactory.create(…) is not known statically; its routes are unknown', '');
    const app: AppState = {
      name: pkg ? `${pkg}:${root?.cls.name ?? 'app'}` : (root?.cls.name ?? 'app'),
      root: router,
      prefixSteps: [],
      exclusions: [],
      versioning: null,
      uses: [],
      globalGuards: [],
      middleware: [],
      docs: null,
      webSocket: { kind: 'socket.io', file: null },
    };
    // (the first SwaggerModule.setup(…) made on this app, wherever written: it publishes the API docs)
    let docsSetup: BoundRegistration | null = null;
    for (const b of this.ctx.registrationsOf(router.id)) {
      if (HTTP_ADAPTER_METHODS[b.reg.method] && this.onHttpAdapter(b.file, b.reg.target)) this.adapterRoute(app, b.file, HTTP_ADAPTER_METHODS[b.reg.method]!, b.reg.args, b.reg.at, b.reg.snippet, router.init);
      else if (b.reg.method === DOCS_SETUP) {
        docsSetup ??= b;
        this.docsRoutes(app, b.file, b.reg, router.init);
      } else this.appSetting(app, b.file, b.reg.method, b.reg.args.map((a) => ({ file: b.file, expr: a, env: NO_ENV })), b.reg.at, b.reg.snippet);
    }
    // (its settings are known: the controllers of its package no known app serves may be its)
    if (!root) {
      if (!packageRoot && !this.unknownRoots.has(pkg)) this.unknownRoots.set(pkg, { place: `${router.file}:${router.at.line}`, app, init: router.init });
      return;
    }

    // The module graph.
    const modules: ClassRef[] = [];
    const controllers: ControllerDecl[] = [];
    const modulePaths = new Map<string, ModulePath>();
    const appGuards: GuardUse[] = [];
    const metrics: MetricsController[] = [];
    const graphql: GraphqlEndpoint[] = [];
    const stripe: StripeWebhook[] = [];
    const gateways: { ref: ClassRef; prim: Prim }[] = [];
    const seen = new Set<string>();
    const visit = (m: ClassRef, dynamics: Bound[], depth: number): void => {
      if (depth > 64) return;
      const first = !seen.has(classKey(m));
      seen.add(classKey(m));
      if (first) modules.push(m);
      const meta = first ? this.find(this.prims(m.cls.decorators, m.file), 'Module')[0]?.args[0] : undefined;
      for (const source of [meta, ...dynamics]) {
        if (!source) continue;
        for (const c of this.listProp(source, 'controllers')) {
          const ref = this.classOf(c);
          if (ref) controllers.push({ ref, module: m });
          else this.ctx.warn(c.file, m.cls.at, `a controller of module ${m.cls.name} is not known statically; its routes are unknown`, this.snippetOf(m));
        }
        for (const p of this.listProp(source, 'providers')) {
          if (!this.isObj(p)) {
            const ref = this.classOf(p);
            const prim = ref ? this.gatewayPrim(ref) : null;
            if (prim) gateways.push({ ref: ref!, prim });
            continue;
          }
          const provide = this.objProp(p, 'provide');
          const pv = provide ? this.evalIn(provide) : null;
          if (pv?.t !== 'pkg' || pv.pkg !== '@nestjs/core' || pv.path.join('.') !== 'APP_GUARD') continue;
          const impl = this.objProp(p, 'useClass') ?? this.objProp(p, 'useExisting') ?? this.objProp(p, 'useValue') ?? this.objProp(p, 'useFactory');
          const at = m.cls.at;
          const g = impl ? this.guardUse(impl, 'global-guard', at, 'canActivate') : null;
          if (g) appGuards.push({ ...g, guard: this.ctx.placed(g.guard, m.file, at.line) });
        }
        for (const imp of this.listProp(source, 'imports')) {
          const next = this.importedModule(imp, modulePaths, m, { metrics, graphql, stripe });
          if (next) visit(next.module, next.dynamics, depth + 1);
        }
      }
    };
    visit(root, [], 0);
    app.globalGuards.push(...appGuards);
    for (const m of modules) app.middleware.push(...this.moduleMiddleware(app, m));
    for (const mc of metrics) if (mc.ref) controllers.push({ ref: mc.ref, module: mc.module, metricsPaths: mc.paths });
    const decls: ControllerDecl[] = [];
    const declared = new Set<string>();
    for (const d of controllers) {
      if (declared.has(classKey(d.ref))) continue;
      declared.add(classKey(d.ref));
      decls.push(d);
    }
    // (a setup in a helper of another package handed the app, postiz's `loadSwagger(app)`, is this app's too)
    if (docsSetup) app.docs = { file: docsSetup.file, line: docsSetup.reg.at.line, include: this.docInclude(docsSetup.file, docsSetup.reg.args[2], modules) };
    else this.findDocs(app, router, modules);
    for (const d of decls) {
      this.served.add(classKey(d.ref));
      this.controllerRoutes(app, d, modulePaths, router.init);
    }
    const gatewayPaths = new Set<string>();
    for (const g of gateways) this.gatewayRoutes(app, g.ref, g.prim, gatewayPaths);
    const packageMetrics = new Set<string>();
    for (const mc of metrics) {
      const key = mc.paths.join('\0');
      if (mc.ref || packageMetrics.has(key)) continue;
      packageMetrics.add(key);
      const guards = app.globalGuards.map((g) => g.guard);
      this.metricsIndexRoutes(app, mc, mc.paths, app.versioning?.defaultVersion ?? null, guards, 'PrometheusController.index', '', router.init);
    }
    for (const g of graphql) this.graphqlRoutes(app, g, router);
    for (const s of stripe) this.stripeWebhookRoute(app, s, router.init);
  }

  /** `app.setGlobalPrefix`, `app.enableVersioning`, `app.useGlobalGuards`, `app.use`. */
  private appSetting(app: AppState, file: string, method: string, args: Bound[], at: Loc, snippet: string): void {
    if (method === 'setGlobalPrefix') {
      const p = this.strings(args[0]);
      if (p && p.length > 0) app.prefixSteps = [...new Set(p)].map((prefix) => ({ prefix, file, line: at.line }));
      else {
        // (the routes it prefixes lack it: a step of their prefixes says so)
        this.ctx.warn(file, at, 'the global prefix is not known statically; routes are listed without it', snippet);
        app.prefixSteps = [{ prefix: '', file, line: at.line, unknown: args[0] ? prefixNote(this.evalIn(args[0])) : 'no prefix given' }];
      }
      app.exclusions = [];
      const ex = args[1] ? this.objProp(args[1], 'exclude') : undefined;
      for (const it of ex ? this.items(ex) : []) {
        const path = this.isObj(it) ? this.strings(this.objProp(it, 'path')) : this.strings(it);
        if (!path) {
          this.ctx.warn(file, at, 'a global-prefix exclusion is not known statically', snippet);
          continue;
        }
        const m = this.isObj(it) ? this.requestMethod(this.objProp(it, 'method')) : 'ALL';
        for (const p1 of path) app.exclusions.push({ regex: nestPatternRegex(p1), method: m });
      }
      return;
    }
    if (method === 'enableVersioning') {
      const opts = args[0];
      const type = opts ? this.objProp(opts, 'type') : undefined;
      const tv = type ? this.evalIn(type) : null;
      if (type && !(tv?.t === 'pkg' && tv.path.join('.') === 'VersioningType.URI')) {
        app.versioning = null;
        return;
      }
      const pb = opts ? this.objProp(opts, 'prefix') : undefined;
      const pv = pb ? this.evalIn(pb) : null;
      const known = !pv || pv.t === 'str' || (pv.t === 'bool' && !pv.v);
      const prefix = pv?.t === 'str' ? pv.v : pv?.t === 'bool' && !pv.v ? '' : 'v';
      const dv = opts ? this.objProp(opts, 'defaultVersion') : undefined;
      app.versioning = { prefix, defaultVersion: dv ? this.versions(dv, file, at, snippet) : null };
      if (!known) {
        this.ctx.warn(file, at, "the URI versioning prefix is not known statically; versioned routes are listed without their version's segment", snippet);
        app.versioning.unknown = { prefix: '', file, line: at.line, unknown: prefixNote(pv) };
      }
      return;
    }
    if (method === 'useWebSocketAdapter') {
      const kind = args[0] ? this.webSocketAdapter(args[0]) : null;
      app.webSocket = kind ? { kind, file, line: at.line } : { kind: null, note: args[0] ? valueNote(this.evalIn(args[0])) : 'none given', file, line: at.line };
      return;
    }
    if (method === 'useGlobalGuards') {
      for (const a of args) for (const it of this.items(a)) {
        const g = this.guardUse(it, 'global-guard', at, 'canActivate');
        if (g) app.globalGuards.push({ ...g, guard: this.ctx.placed(g.guard, file, at.line) });
      }
      return;
    }
    if (method === 'use') {
      const first = args[0] ? this.strings(args[0]) : null;
      // (a template literal is a path, never a middleware, as Express reads it: `/${process.env.DOCS_PATH}`;
      // so is a value not known statically named like one, vendure's `app.use(mid.route, mid.handler)`)
      const head = !first && args.length >= 2 ? this.evalIn(args[0]!) : null;
      if (head && looksLikePath(this.resolve(args[0]!).expr, head)) {
        this.ctx.warn(file, at, `the path of this use() is not known statically${head.t === 'param' ? ` (${pathNote(head)})` : ''}; what it mounts is left out`, snippet);
        return;
      }
      const fns = first ? args.slice(1) : args;
      for (const scope of first ?? ['']) {
        const flat = this.ev.flatten(file, fns.map((f) => f.expr));
        for (const [idx, it] of flat.entries()) {
          // express-prom-bundle in the Express instance under the app: a route outside Nest's own (no prefix, guard, interceptor)
          const metricsPath = promBundlePath(this.ev, it.value);
          if (typeof metricsPath === 'object' && metricsPath !== null) this.ctx.warn(file, at, promBundleUnknown(metricsPath.why), snippet);
          else if (metricsPath !== null && pathApplies(scope, metricsPath, true)) this.instanceRoute(app, { file, at, snippet }, { method: 'ALL', path: metricsPath, caseSensitive: true, trailingSlashInsensitive: true }, { pkg: PROM_BUNDLE });
          const statusPath = statusMonitorPath(this.ev, it.value);
          if (typeof statusPath === 'object' && statusPath !== null) this.ctx.warn(file, at, statusMonitorUnknown(statusPath.why), snippet);
          else if (statusPath !== null) this.instanceRoute(app, { file, at, snippet }, { method: 'ALL', path: joinPath(scope, statusPath), caseSensitive: true, trailingSlashInsensitive: false }, { pkg: STATUS_MONITOR });
          // a package's handler answering every request there likewise, at the use() path
          // (swagger-ui-express's page, a GraphQL or tRPC endpoint: package-handlers.ts)
          const answering = answeringPackage(it.value, 'express');
          if (answering !== null && scope !== '') {
            this.instanceRoute(app, { file, at, snippet }, { method: 'ALL', path: scope, caseSensitive: false, trailingSlashInsensitive: true }, { pkg: answering, guards: answeringGuards(this.ev, it.value, file, at.line) });
            continue;
          }
          // a proxy there likewise: what it takes (http-proxy.ts)
          const proxied = proxyTakes(this.ev, it.value);
          if (proxied) {
            if ('why' in proxied) this.ctx.warn(file, at, proxyUnknown(proxied.pkg, proxied.why), snippet);
            else if (proxied.paths === null && scope !== '') this.instanceRoute(app, { file, at, snippet }, { method: 'ALL', path: scope, caseSensitive: false, trailingSlashInsensitive: true }, { pkg: proxied.pkg });
            else if (proxied.paths === null) this.ctx.warn(file, at, proxyEverywhere(proxied.pkg), snippet);
            else
              for (const path of proxiedPaths({ paths: proxied.paths, whole: proxied.whole }, scope, false))
                this.instanceRoute(app, { file, at, snippet }, { method: 'ALL', path, caseSensitive: true, trailingSlashInsensitive: true }, { pkg: proxied.pkg });
            continue;
          }
          // a function of the analysed code at a path, last, that answers and never hands the request
          // on (or is given no next): an ALL route there, as Express reads one (adapters/express),
          // behind the functions before it, used there already (postiz's MCP endpoints, `app.use('/mcp/:id',
          // async (req, res) => …)`)
          if (scope !== '' && idx === flat.length - 1 && it.value.t === 'fn') {
            const f = this.ev.fnOf(it.value.file, it.value.fn);
            if (f && !f.behaviour.callsNext && (f.behaviour.sendsResponse || f.params.length === 2)) {
              this.instanceRoute(app, { file, at, snippet }, { method: 'ALL', path: scope, caseSensitive: false, trailingSlashInsensitive: true }, { items: [it] });
              continue;
            }
          }
          // one answering the requests to a path itself, handing every other on (serving.ts): a
          // route at each path it answers, as Express reads one, and a middleware still
          const served = idx === flat.length - 1 ? servedBy(this.ev, it.value, (m) => this.ctx.warn(file, at, m, snippet)) : [];
          for (const s of served) {
            const path = servedPath(s, scope, scope);
            if (path !== null) this.instanceRoute(app, { file, at, snippet }, { method: s.method ?? 'ALL', path, caseSensitive: true, trailingSlashInsensitive: false }, { items: [it] });
          }
          const g = this.ctx.guard(it.file, it.expr, it.value, 'app.use', at);
          if (g) app.uses.push({ guard: g, scope });
        }
      }
    }
  }

  /**
   * The kind of WebSocket adapter `app.useWebSocketAdapter(adapter)` is given: @nestjs/platform-ws's
   * WsAdapter or @nestjs/platform-socket.io's IoAdapter, made (`new WsAdapter(app)`) or extended by a
   * class of the code (`class RedisIoAdapter extends IoAdapter`); null for any other.
   */
  private webSocketAdapter(b: Bound): 'ws' | 'socket.io' | null {
    const kind = (v: Value | null): 'ws' | 'socket.io' | null =>
      v?.t !== 'pkg' ? null : v.pkg === '@nestjs/platform-ws' ? 'ws' : v.pkg === '@nestjs/platform-socket.io' ? 'socket.io' : null;
    const made = kind(this.evalIn(b));
    if (made) return made;
    const ref = this.classOf(b);
    for (const c of ref ? this.ancestors(ref) : []) {
      const base = c.cls.heritage ? kind(this.ev.eval(c.file, c.cls.heritage)) : null;
      if (base) return base;
    }
    return null;
  }

  /** A class's `@WebSocketGateway(…)` decorator (@nestjs/websockets), if it has one. */
  private gatewayPrim(c: ClassRef): Prim | null {
    return this.find(this.prims(c.cls.decorators, c.file), 'WebSocketGateway', '@nestjs/websockets')[0] ?? null;
  }

  /**
   * The endpoint of a `@WebSocketGateway(port?, options?)` provider (@nestjs/websockets, read at
   * 10.4: SocketServerProvider; @nestjs/platform-ws WsAdapter; @nestjs/platform-socket.io
   * IoAdapter): on the app's own HTTP server when the port is 0 or not given (another port is a
   * server of its own, not listed). With WsAdapter, a GET (the upgrade) whose pathname is the
   * gateway's `path` exactly, normalised ('/' unless given); with IoAdapter (Nest's default when
   * `useWebSocketAdapter` is not called), engine.io's GET and POST requests under `path`
   * ('/socket.io' unless given; namespaces are no paths; only GET, the upgrade, when its
   * `transports` leave out polling). Outside Nest's router: no global prefix, middleware or
   * guard (`@UseGuards` on a gateway guards its message handlers, not the connection); what
   * refuses a connection is its `handleConnection`, read as a handler's checks (a ws client
   * closed: a socket's refusal). `prim` is its decorator; `done` holds the endpoints listed
   * already: gateways sharing a path share one server.
   */
  private gatewayRoutes(app: AppState, c: ClassRef, prim: Prim, done: Set<string>): void {
    const { at, snippet } = prim.use;
    const [first, second] = prim.args;
    // (Nest takes a first argument that is no whole number for the options: one a function makes,
    // `@WebSocketGateway(buildWebSocketGatewayOptions())` of Hexabot, too)
    const firstValue = first && !this.isObj(first) ? this.evalIn(first) : null;
    const port = firstValue?.t === 'obj' ? null : firstValue;
    const options = first && !port ? first : second;
    const warn = (what: string): void => this.ctx.warn(c.file, at, `gateway ${c.cls.name}: ${what}; its WebSocket endpoint is left out`, snippet);
    if (port && !(port.t === 'num' && port.v === 0)) return warn(port.t === 'num' ? `it listens on port ${port.v}, a server of its own` : `its port is not known statically (${valueNote(port)})`);
    const ws = app.webSocket;
    if (ws.kind === null) return warn(`the WebSocket adapter given at ${ws.file}:${ws.line} is not known statically (${ws.note})`);
    const given = options ? this.option(options, 'path') : undefined;
    const paths = given !== undefined ? given : [ws.kind === 'ws' ? '/' : '/socket.io'];
    if (!paths || paths.length !== 1) return warn(`its path is not known statically`);
    const path = ws.kind === 'ws' ? normalizePath(paths[0]!) : `${paths[0]!.replace(/\/$/, '')}/*`;
    // (engine.io's polling transport sends with POST; `transports: ['websocket']` leaves only the upgrade)
    const only = ws.kind === 'socket.io' && options ? this.option(options, 'transports') ?? null : null;
    const methods = ws.kind === 'ws' || (only && !only.includes('polling')) ? ['GET'] : ['GET', 'POST'];
    const connection = this.ancestors(c)
      .flatMap((owner) => owner.cls.methods.filter((m) => !m.isStatic && m.name === 'handleConnection').map((m) => this.methodFn(owner, m)))
      .find((v) => v.t === 'fn');
    const guards = connection ? this.ctx.inHandlerGuards(connection, undefined, { depth: 0, no: true }) : [];
    for (const method of methods) {
      if (done.has(`${method} ${path}`) || !this.ctx.expand(c.file, at, snippet)) continue;
      done.add(`${method} ${path}`);
      this.ctx.addRoute(
        {
          method,
          path,
          file: c.file,
          line: at.line,
          column: at.column,
          framework: 'nest',
          handler: connection ? `${c.cls.name}.handleConnection` : c.cls.name,
          app: app.name,
          trailingSlashInsensitive: false,
          caseSensitive: true,
          prefixes: [],
          guards,
          handlerFn: connection?.t === 'fn' ? { file: connection.file, fn: connection.fn } : null,
          snippet,
        },
        app.root,
      );
    }
  }

  /**
   * A route the HTTP server under the app answers itself, at `path` (the whole path): outside
   * Nest's own routes (no global prefix, guard or interceptor), behind the `app.use` middleware
   * before it — a package's (`app.use(…)` of one answering a path) or one registered on the
   * HTTP adapter (`handler`: its functions, the last answering).
   */
  private instanceRoute(
    app: AppState,
    place: { file: string; at: Loc; snippet: string },
    route: { method: string; path: string; caseSensitive: boolean; trailingSlashInsensitive: boolean },
    handler: { pkg: string; guards?: AppliedGuard[] } | { items: FlatItem[] },
  ): void {
    if (!this.ctx.expand(place.file, place.at, place.snippet)) return;
    const { method, path, caseSensitive, trailingSlashInsensitive } = route;
    const guards = app.uses.filter((u) => pathApplies(u.scope, path, caseSensitive)).map((u) => u.guard);
    let name: string | null = 'pkg' in handler ? handler.pkg : null;
    if ('pkg' in handler) guards.push(...(handler.guards ?? []));
    let handlerFn: { file: string; fn: number } | null = null;
    if ('items' in handler) {
      const last = handler.items[handler.items.length - 1]!;
      for (const it of handler.items.slice(0, -1)) {
        const g = this.ctx.guard(it.file, it.expr, it.value, 'route-middleware', place.at);
        if (g) guards.push(this.ctx.placed(g, place.file));
      }
      guards.push(...this.ctx.handlerGuards(last));
      name = handlerNameOf(this.ev, last);
      handlerFn = last.value.t === 'fn' ? { file: last.value.file, fn: last.value.fn } : null;
    }
    this.ctx.addRoute(
      {
        method,
        path,
        file: place.file,
        line: place.at.line,
        column: place.at.column,
        framework: 'nest',
        handler: name,
        app: app.name,
        trailingSlashInsensitive,
        caseSensitive,
        prefixes: [],
        guards,
        handlerFn,
        snippet: place.snippet,
      },
      app.root,
    );
  }

  /**
   * Is a registration's target the HTTP adapter under the app (`app.getHttpAdapter()`, its
   * `getInstance()`, or a const holding either), not the app itself (whose `get(Token)` is a
   * provider lookup)?
   */
  private onHttpAdapter(file: string, target: Expr, depth = 0): boolean {
    if (depth > 8) return false;
    if (target.k === 'call' && target.callee.k === 'member' && (target.callee.prop === 'getHttpAdapter' || target.callee.prop === 'getInstance')) return true;
    if (target.k !== 'ref') return false;
    const def = this.ev.definitionOf(file, target.scope, target.name);
    return def !== null && def.expr !== target && this.onHttpAdapter(def.file, def.expr, depth + 1);
  }

  /**
   * A route registered on the HTTP adapter under the app (`app.getHttpAdapter().get('/health',
   * (req, res) => …)`): served by the server itself, outside Nest's routes (no global prefix, no
   * guard), behind the `app.use` middleware before it.
   */
  private adapterRoute(app: AppState, file: string, method: string, args: Expr[], at: Loc, snippet: string, init: { strict: boolean; caseSensitive: boolean }): void {
    const paths = args[0] ? this.strings({ file, expr: args[0], env: NO_ENV }) : null;
    const items = this.ev.flatten(file, args.slice(1));
    if (!paths) this.ctx.warn(file, at, `${method} route of the HTTP adapter with a path not known statically; it is left out`, snippet);
    if (!paths || items.length === 0) return;
    for (const path of paths) this.instanceRoute(app, { file, at, snippet }, { method, path, caseSensitive: init.caseSensitive, trailingSlashInsensitive: !init.strict }, { items });
  }

  /**
   * What `SwaggerModule.setup(path, app, document, options)` serves (@nestjs/swagger, read at
   * 11.4.7 and 12.0.0-alpha.2, lib/swagger-module.ts): GET routes registered on the app's HTTP
   * adapter when it is called — outside Nest's own routes, so behind the `app.use` middleware
   * before it and nothing else. Under `finalPath` (`path` with a leading slash; after the global
   * prefix set so far when `useGlobalPrefix`): with the UI (`ui`, `swaggerUiEnabled`; on unless
   * false) the page at `finalPath` (and `finalPath/`), `finalPath/index.html` and its script at
   * `finalPath/swagger-ui-init.js` and `finalPath/<last segment>/swagger-ui-init.js`; with `raw`
   * (true unless false, or the formats listed) the document at `jsonDocumentUrl` /
   * `yamlDocumentUrl` (after the global prefix when `useGlobalPrefix`), `finalPath-json` /
   * `finalPath-yaml` unless given. Left out: `finalPath/LICENSE`, which only answers 404, and the
   * UI's static files, served as any `useStaticAssets` directory is.
   */
  private docsRoutes(app: AppState, file: string, reg: RegistrationFact, init: { strict: boolean; caseSensitive: boolean }): void {
    const bound = (e: Expr | undefined): Bound | undefined => (e ? { file, expr: e, env: NO_ENV } : undefined);
    const options = bound(reg.args[3]);
    const option = (key: string): Value | null => {
      const b = options ? this.objProp(options, key) : undefined;
      return b ? this.evalIn(b) : null;
    };
    // each setting as @nestjs/swagger reads it; undefined when not known statically
    const bool = (v: Value | null, absent: boolean): boolean | undefined => (v === null ? absent : v.t === 'bool' ? v.v : undefined);
    const one = (v: Value | null): string | null | undefined => {
      if (v === null) return null;
      const s = stringsOf(v);
      return s?.length === 1 ? s[0] : undefined;
    };
    const given = this.strings(bound(reg.args[0]));
    const useGlobalPrefix = bool(option('useGlobalPrefix'), false);
    const uiOption = option('ui') ?? option('swaggerUiEnabled');
    const ui = bool(uiOption, true);
    const rawOption = option('raw');
    const formats = rawOption === null ? ['json', 'yaml'] : rawOption.t === 'bool' ? (rawOption.v ? ['json', 'yaml'] : []) : stringsOf(rawOption);
    const urls = { json: one(option('jsonDocumentUrl')), yaml: one(option('yamlDocumentUrl')) };
    const unknown: [string, boolean][] = [
      ['path', given?.length !== 1],
      ['useGlobalPrefix option', useGlobalPrefix === undefined],
      ['ui option', ui === undefined],
      ['raw option', formats === null],
      ['jsonDocumentUrl', urls.json === undefined],
      ['yamlDocumentUrl', urls.yaml === undefined],
    ];
    const what = unknown.find(([, is]) => is)?.[0];
    if (what) {
      this.ctx.warn(file, reg.at, `the ${what} of this SwaggerModule.setup(…) is not known statically; the API docs routes it serves are left out`, reg.snippet);
      return;
    }
    // `getGlobalPrefix(app)` when it is called: the prefix set so far, unless '' or '/' (`validateGlobalPrefix`)
    const steps = useGlobalPrefix ? app.prefixSteps.filter((s) => s.unknown !== undefined || !/^\/?$/.test(s.prefix)) : [];
    if (steps.some((s) => s.unknown !== undefined)) this.ctx.warn(file, reg.at, 'the global prefix this SwaggerModule.setup(…) puts its API docs routes under is not known statically; they are listed without it', reg.snippet);
    // (@nestjs/swagger's `validatePath`, which gives '' a slash too: not Nest's addLeadingSlash)
    const withSlash = (p: string): string => (p.startsWith('/') ? p : `/${p}`);
    const normal = (p: string): string => p.replace(/\/\/+/g, '/');
    // each path, and whether it is the page (registered at `finalPath/` too: served with and without the end slash)
    const paths = new Map<string, boolean>();
    for (const prefix of new Set(steps.length === 0 ? [''] : steps.map((s) => (s.unknown !== undefined ? '' : s.prefix)))) {
      const finalPath = withSlash(`${prefix}${withSlash(given![0]!)}`);
      if (ui) {
        const last = finalPath.split('/').pop() ?? '';
        paths.set(finalPath, true);
        for (const p of [`${finalPath}/index.html`, normal(`${finalPath}/swagger-ui-init.js`), normal(`${finalPath}/${last}/swagger-ui-init.js`)]) if (!paths.has(p)) paths.set(p, false);
      }
      for (const format of ['json', 'yaml'] as const) {
        if (!formats!.includes(format)) continue;
        const url = urls[format];
        const p = normal(url ? `${prefix === '' ? '' : withSlash(prefix)}${withSlash(url)}` : `${finalPath}-${format}`);
        if (!paths.has(p)) paths.set(p, false);
      }
    }
    for (const [path, page] of paths) this.instanceRoute(app, { file, at: reg.at, snippet: reg.snippet }, { method: 'GET', path, caseSensitive: init.caseSensitive, trailingSlashInsensitive: page || !init.strict }, { pkg: '@nestjs/swagger' });
  }

  private requestMethod(b: Bound | undefined): string {
    if (!b) return 'ALL';
    const v = this.evalIn(b);
    const name = v.t === 'pkg' ? v.path[v.path.length - 1] ?? '' : '';
    return REQUEST_METHODS.has(name) ? name : 'ALL';
  }

  /** '1', ['1', '2'], VERSION_NEUTRAL; null = neutral (no segment). */
  private versions(b: Bound, file: string, at: Loc, snippet: string): Versions {
    const one = (v: Value): string | null | undefined => (v.t === 'str' ? v.v : v.t === 'num' ? String(v.v) : v.t === 'pkg' && v.path.join('.') === 'VERSION_NEUTRAL' ? null : undefined);
    const v = this.evalIn(b);
    const items = v.t === 'arr' ? v.items : [v];
    const unknown = items.find((x) => one(x) === undefined);
    if (unknown) {
      this.ctx.warn(file, at, 'a version is not known statically; the route is listed without it', snippet);
      return { unknown: prefixNote(unknown), file, line: at.line };
    }
    return items.map(one) as (string | null)[];
  }

  /**
   * An entry of a module's `imports`: the module it brings in (with a dynamic module's own
   * metadata: each that its static method may return), or RouterModule paths.
   */
  private importedModule(b: Bound, modulePaths: Map<string, ModulePath>, from: ClassRef, found: { metrics: MetricsController[]; graphql: GraphqlEndpoint[]; stripe: StripeWebhook[] }): { module: ClassRef; dynamics: Bound[] } | null {
    const r = this.resolve(b);
    const e = r.expr;
    const cls = this.classOf(r);
    if (cls) return { module: cls, dynamics: [] };
    if (e.k === 'obj') {
      const mod = this.objProp(r, 'module');
      const m = mod ? this.classOf(mod) : null;
      return m ? { module: m, dynamics: [r] } : null;
    }
    if (e.k === 'call') {
      const callee = this.evalIn({ ...r, expr: e.callee });
      if (callee.t === 'pkg') {
        const name = callee.path.join('.');
        if (callee.pkg === '@nestjs/core' && name === 'RouterModule.register' && e.args[0]) this.routerModule({ ...r, expr: e.args[0] }, null, modulePaths, from);
        // `ConditionalModule.registerWhen(GithubModule, (env) => …)`: imported when the environment
        // says so, which is not known here: its routes may be served, so they are listed
        if (callee.pkg === '@nestjs/config' && name === 'ConditionalModule.registerWhen' && e.args[0]) {
          const cls = this.classOf({ ...r, expr: e.args[0] });
          if (cls) return { module: cls, dynamics: [] };
        }
        if (callee.pkg === '@nestjs/common' && name === 'forwardRef' && e.args[0]) {
          const fv = this.evalIn({ ...r, expr: e.args[0] });
          const ret = fv.t === 'fn' ? this.ev.returnsOf(fv.file, fv.fn)[0] : undefined;
          if (fv.t === 'fn' && ret) return this.importedModule({ file: fv.file, expr: ret, env: NO_ENV }, modulePaths, from, found);
        }
        if (callee.pkg === PROMETHEUS && (name === 'PrometheusModule.register' || name === 'PrometheusModule.registerAsync')) {
          const mc = this.metricsController({ ...r, expr: e }, name.endsWith('Async'), from);
          if (mc) found.metrics.push(mc);
        }
        if (callee.pkg === '@nestjs/graphql' && (name === 'GraphQLModule.forRoot' || name === 'GraphQLModule.forRootAsync')) {
          const g = this.graphqlEndpoint({ ...r, expr: e }, name.endsWith('Async'), from);
          if (g) found.graphql.push(g);
        }
        if (callee.pkg === GOLEVELUP_STRIPE && (name === 'StripeModule.forRoot' || name === 'StripeModule.forRootAsync')) found.stripe.push(this.stripeWebhook({ ...r, expr: e }, name.endsWith('Async'), from));
        return null;
      }
      // `SitesModule.forRoot(opts)`: the class, and what its static method returns — every object
      // it may return (`static register(enabled) { if (!enabled) return { module: SocketModule };
      // return { module: SocketModule, controllers: […] } }`, APITable's: which one a condition not
      // known here picks, so the routes either may serve are listed, as registerWhen's are)
      if (e.callee.k === 'member') {
        const owner = this.classOf({ ...r, expr: e.callee.obj });
        if (owner) {
          const sm = owner.cls.methods.find((m) => m.name === (e.callee as { prop: string }).prop && m.isStatic);
          const fn = sm ? this.methodFn(owner, sm) : null;
          if (fn?.t !== 'fn') return { module: owner, dynamics: [] };
          // (read with the method's parameters the call's arguments: `imports: options.imports || []`)
          const env = this.callEnv(r.env, fn, e.args.map((a) => ({ ...r, expr: a })));
          return { module: owner, dynamics: this.ev.returnsOf(fn.file, fn.fn).map((ret) => ({ file: owner.file, expr: ret, env })).filter((dyn) => this.isObj(dyn)) };
        }
      }
    }
    const v = this.evalIn(r);
    if (v.t !== 'pkg') this.ctx.warn(r.file, from.cls.at, `an import of module ${from.cls.name} is not known statically (${valueNote(v)}); the routes it brings are unknown`, this.snippetOf(from));
    return null;
  }

  /**
   * RouterModule.register(routes): flattenRoutePaths, path per module. A path not known
   * statically leaves its module's routes, and its children's, listed without it, with a step
   * that says so (what is known after it, a child's path, is the step's prefix).
   */
  private routerModule(b: Bound, parent: ModulePath | null, out: Map<string, ModulePath>, from: ClassRef): void {
    for (const it of this.items(b)) {
      if (!this.isObj(it)) {
        const cls = this.classOf(it);
        if (cls && parent !== null) out.set(classKey(cls), { ...parent, path: parent.unknown && !parent.path ? '' : normalizePath(parent.path) });
        continue;
      }
      const pathProp = this.objProp(it, 'path');
      const p = this.strings(pathProp);
      let full: ModulePath;
      if (!p || p.length !== 1) {
        this.ctx.warn(it.file, from.cls.at, 'a RouterModule path is not known statically; its modules are listed without it', this.snippetOf(from));
        // (placed at the module that registers the routes, as the warning is)
        full = { path: '', unknown: { note: pathProp ? prefixNote(this.evalIn(pathProp)) : 'no path', file: from.file, line: from.cls.at.line } };
      } else if (parent === null) full = { path: p[0]!, unknown: null };
      else full = { ...parent, path: normalizePath(normalizePath(parent.path) + normalizePath(p[0]!)) };
      const mod = this.objProp(it, 'module');
      const cls = mod ? this.classOf(mod) : null;
      if (cls && (full.path || full.unknown !== null)) out.set(classKey(cls), { ...full, path: full.path ? normalizePath(full.path) : '' });
      const children = this.objProp(it, 'children');
      if (children) this.routerModule(children, full, out, from);
    }
  }

  /** `configure(consumer) { consumer.apply(A, B).exclude(…).forRoutes(…) }` inside a module class. */
  private moduleMiddleware(app: AppState, m: ClassRef): ModuleMiddleware[] {
    const facts = this.ctx.files.get(m.file);
    const out: ModuleMiddleware[] = [];
    for (const reg of facts?.registrations ?? []) {
      if (reg.method !== 'forRoutes' || reg.at.line < m.cls.at.line || reg.at.line > m.cls.endLine) continue;
      // (made on no router, it is read here only: its conditions are decided, and noted, here)
      if (!this.ctx.possible(m.file, reg)) continue;
      const applied: Bound[] = [];
      const excluded: Bound[] = [];
      let t: Expr = reg.target;
      while (t.k === 'call' && t.callee.k === 'member') {
        const list = t.callee.prop === 'apply' ? applied : t.callee.prop === 'exclude' ? excluded : null;
        if (list) list.unshift(...t.args.map((a) => ({ file: m.file, expr: a, env: NO_ENV })));
        t = t.callee.obj;
      }
      const mw: ModuleMiddleware = { guards: [], all: false, paths: [], controllers: new Set(), exclude: [] };
      for (const a of applied) for (const it of this.items(a)) {
        const g = this.guardUse(it, 'module-middleware', reg.at, 'use');
        if (g) mw.guards.push(this.ctx.placed(g.guard, m.file, reg.at.line));
      }
      for (const a of reg.args) for (const it of this.items({ file: m.file, expr: a, env: NO_ENV })) {
        const cls = this.classOf(it);
        if (cls) {
          mw.controllers.add(classKey(cls));
          continue;
        }
        const target = this.routeInfo(app, it);
        if (target === 'all') mw.all = true;
        else if (target) mw.paths.push(...target);
        else this.ctx.warn(m.file, reg.at, 'a forRoutes() target is not known statically; the middleware is not applied to it', reg.snippet);
      }
      for (const it of excluded.flatMap((x) => this.items(x))) {
        const target = this.routeInfo(app, it);
        if (target && target !== 'all') mw.exclude.push(...target);
      }
      out.push(mw);
    }
    return out;
  }

  /** A forRoutes()/exclude() path (string or { path, method, version }) as the full paths Nest registers the middleware on, one per global prefix it may have. */
  private routeInfo(app: AppState, b: Bound): PathTarget[] | 'all' | null {
    const obj = this.isObj(b);
    const paths = obj ? this.strings(this.objProp(b, 'path')) : this.strings(b);
    if (!paths || paths.length !== 1) return null;
    const path = paths[0]!;
    const method = obj ? this.requestMethod(this.objProp(b, 'method')) : 'ALL';
    if (FULL_WILDCARD.test(path)) return 'all';
    const vb = obj ? this.objProp(b, 'version') : undefined;
    const given = vb && app.versioning ? this.versions(vb, b.file, { line: 1, column: 1 }, '') : [];
    const versions = Array.isArray(given) ? given : [];
    const excluded = app.exclusions.some((x) => (x.method === 'ALL' || x.method === method) && x.regex.test(addLeadingSlash(path)));
    const v = versions.find((x): x is string => x !== null);
    const rest = (v !== undefined && !app.versioning!.unknown ? `/${app.versioning!.prefix}${v}` : '') + addLeadingSlash(path);
    const steps = excluded || app.prefixSteps.length === 0 ? [null] : app.prefixSteps;
    return steps.map((s) => ({
      regex: nestPatternRegex((s?.prefix ? addLeadingSlash(stripEndSlash(s.prefix)) : '') + rest),
      method,
      ...(s && steps.length > 1 ? { under: s } : {}),
    }));
  }

  /** `SwaggerModule.setup(path, app, document)` for this app (or, when the app is passed around, in its package). */
  private findDocs(app: AppState, router: RouterObject, modules: ClassRef[]): void {
    const pkg = this.ctx.project.packageOf(router.file).dir;
    for (const [file, facts] of [...this.ctx.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      for (const call of facts.calls) {
        // Evaluating every other call would pull every file the prefilter held back into the parse.
        if (!maybeDocsSetup(call)) continue;
        const callee = this.ev.eval(file, call.callee);
        if (!isDocsSetup(callee)) continue;
        const target = call.args[1] ? this.ev.eval(file, call.args[1]) : null;
        const mine = target?.t === 'router' ? target.id === router.id : this.ctx.project.packageOf(file).dir === pkg;
        if (!mine || app.docs) continue;
        app.docs = { file, line: call.at.line, include: this.docInclude(file, call.args[2], modules) };
      }
    }
  }

  /** `SwaggerModule.createDocument(app, config, { include: [SitesModule] })`: only those modules' controllers. */
  private docInclude(file: string, docExpr: Expr | undefined, modules: ClassRef[]): Set<string> | null {
    if (!docExpr) return null;
    const doc = this.resolve({ file, expr: docExpr, env: NO_ENV });
    if (doc.expr.k !== 'call' || !doc.expr.args[2]) return null;
    const include = this.objProp({ ...doc, expr: doc.expr.args[2] }, 'include');
    if (!include) return null;
    const keys = new Set<string>();
    for (const it of this.items(include)) {
      const c = this.classOf(it);
      if (c && modules.some((m) => classKey(m) === classKey(c))) keys.add(classKey(c));
    }
    return keys;
  }

  // -------------------------------------------------------------------------
  // Routes.

  /**
   * The controller `PrometheusModule.register(options)` (`registerAsync`) declares, and its path:
   * `options.path` (of what `useFactory` returns, for registerAsync), '/metrics' when not given;
   * null, warned about, when not known statically.
   */
  private metricsController(call: Bound, isAsync: boolean, from: ClassRef): MetricsController | null {
    const e = call.expr as Extract<Expr, { k: 'call' }>;
    const fact = this.ctx.files.get(call.file)?.calls.find((c) => c.at.line === e.at.line && c.at.column === e.at.column);
    const place = { module: from, file: call.file, at: e.at, snippet: fact?.snippet ?? this.snippetOf(from) };
    const opts: Bound | undefined = e.args[0] ? { ...call, expr: e.args[0] } : undefined;
    if (opts && !this.isObj(opts)) {
      this.ctx.warn(call.file, e.at, `the options of PrometheusModule.${isAsync ? 'registerAsync' : 'register'} are not known statically; its metrics route is left out`, place.snippet);
      return null;
    }
    const given = opts ? this.objProp(opts, 'controller') : undefined;
    const ref = given ? this.classOf(given) : null;
    if (given && !ref && this.evalIn(given).t !== 'pkg') {
      this.ctx.warn(call.file, e.at, `the controller given to PrometheusModule is not known statically; its metrics route is left out`, place.snippet);
      return null;
    }
    // registerAsync: the path of the options its factory returns (configureServer runs in that factory)
    let source = opts;
    if (isAsync) {
      const factory = opts ? this.objProp(opts, 'useFactory') : undefined;
      const fv = factory ? this.evalIn(factory) : null;
      const ret = fv?.t === 'fn' ? this.ev.returnsOf(fv.file, fv.fn)[0] : undefined;
      source = fv?.t === 'fn' && ret ? { file: fv.file, expr: ret, env: NO_ENV } : undefined;
      if (!source || !this.isObj(source)) {
        this.ctx.warn(call.file, e.at, `the options PrometheusModule.registerAsync is given at run time are not known statically; its metrics route is left out`, place.snippet);
        return null;
      }
    }
    const p = source ? this.objProp(source, 'path') : undefined;
    const paths = p ? this.strings(p) : ['/metrics'];
    if (!paths) {
      this.ctx.warn(call.file, e.at, `the path of PrometheusModule's metrics route is not known statically; it is left out`, place.snippet);
      return null;
    }
    return { ref, paths, ...place };
  }

  /**
   * `StripeModule.forRoot(options)` of @golevelup/nestjs-stripe (also the older
   * `forRoot(StripeModule, options)`; `forRootAsync({ useFactory })`, the options its factory
   * returns): the module declares StripeWebhookController whatever the options say, its path
   * `webhookConfig.controllerPrefix` ('stripe' unless given), `webhookConfig.decorators` applied
   * to it (read at 1.1, lib/stripe.module.ts).
   */
  private stripeWebhook(call: Bound, isAsync: boolean, from: ClassRef): StripeWebhook {
    const e = call.expr as Extract<Expr, { k: 'call' }>;
    const fact = this.ctx.files.get(call.file)?.calls.find((c) => c.at.line === e.at.line && c.at.column === e.at.column);
    const place = { module: from, file: call.file, at: e.at, snippet: fact?.snippet ?? this.snippetOf(from) };
    const last = e.args.length > 0 ? { ...call, expr: e.args[e.args.length - 1]! } : undefined;
    let options: Bound | undefined = last && this.isObj(last) ? last : undefined;
    if (isAsync && options) {
      const factory = this.objProp(options, 'useFactory');
      const fv = factory ? this.evalIn(factory) : null;
      const ret = fv?.t === 'fn' ? this.ev.returnsOf(fv.file, fv.fn)[0] : undefined;
      options = fv?.t === 'fn' && ret ? { file: fv.file, expr: ret, env: NO_ENV } : undefined;
      if (options && !this.isObj(options)) options = undefined;
    }
    const webhook = options ? this.objProp(options, 'webhookConfig') : undefined;
    const given = webhook && this.isObj(webhook) ? this.objProp(webhook, 'controllerPrefix') : undefined;
    const prefixes = given ? this.strings(given) : null;
    const prefix = !options || (webhook && !this.isObj(webhook)) || (given && prefixes?.length !== 1) ? null : (prefixes?.[0] ?? 'stripe');
    const decorators = webhook && this.isObj(webhook) ? this.listProp(webhook, 'decorators') : [];
    return { prefix, decorators, ...place };
  }

  /**
   * The route of StripeWebhookController (stripeWebhook): `POST <controllerPrefix>/webhook`, in
   * Nest's router (global prefix and guards, the decorators given to it), its Stripe signature
   * checked by the package (`stripe.webhooks.constructEvent` with `webhookConfig.stripeSecrets`):
   * a webhook family guard. A path not known statically is a step of its prefixes.
   */
  private stripeWebhookRoute(app: AppState, s: StripeWebhook, init: { strict: boolean; caseSensitive: boolean }): void {
    const prims: Prim[] = [];
    for (const d of s.decorators) this.flattenDecorator(d, { expr: d.expr, at: s.at, snippet: s.snippet }, prims, 0);
    const classGuards = this.guardsOf(prims, 'controller-guard', s.module, s.module);
    const classMeta = this.metadata(prims);
    const skipped = (g: GuardUse): boolean => g.optOuts.some((o) => skips(o, new Map(), classMeta));
    const families = this.ctx.matchers.family['webhook'] ? ['webhook'] : [];
    const signature: AppliedGuard[] = families.length > 0 ? [{ name: 'StripeWebhookController', kinds: ['family'], families, reason: `webhook signature check of ${GOLEVELUP_STRIPE} (stripe.webhooks.constructEvent)`, mechanism: 'in-handler', file: s.file, line: s.at.line }] : [];
    const unknown: PrefixStep[] = s.prefix === null ? [{ prefix: '', file: s.file, line: s.at.line, unknown: `webhookConfig.controllerPrefix of StripeModule is not known statically` }] : [];
    if (s.prefix === null) this.ctx.warn(s.file, s.at, `the path of @golevelup/nestjs-stripe's webhook controller is not known statically; its route is listed without it`, s.snippet);
    for (const { path, step } of this.fullPaths(app, 'POST', null, undefined, [s.prefix ?? '/'], ['/webhook'])) {
      this.ctx.addRoute(
        {
          method: 'POST',
          path,
          file: s.file,
          line: s.at.line,
          column: s.at.column,
          framework: 'nest',
          handler: 'StripeWebhookController.handleWebhook',
          app: app.name,
          trailingSlashInsensitive: !init.strict,
          caseSensitive: init.caseSensitive,
          prefixes: [...(step ? [step] : []), ...unknown],
          guards: [
            ...this.middlewareBefore(app, '', path, 'POST', step, init.caseSensitive),
            ...[...app.globalGuards, ...classGuards].filter((g) => !skipped(g)).map((g) => g.guard),
            ...signature,
          ],
          handlerFn: null,
          snippet: s.snippet,
        },
        app.root,
      );
    }
  }

  /**
   * `GraphQLModule.forRoot(options)` of @nestjs/graphql (read at 13.x, lib/graphql.module.ts,
   * lib/drivers/abstract-graphql.driver.ts): its driver (`options.driver`, of @nestjs/apollo or
   * @nestjs/mercurius) serves `options.path` ('/graphql' unless given, after the global prefix
   * when `useGlobalPrefix`); `forRootAsync({ driver, useFactory })` the path of the options the
   * factory returns (`useClass` / `useExisting`: those its class's `createGqlOptions()` returns).
   */
  private graphqlEndpoint(call: Bound, isAsync: boolean, from: ClassRef): GraphqlEndpoint | null {
    const e = call.expr as Extract<Expr, { k: 'call' }>;
    const fact = this.ctx.files.get(call.file)?.calls.find((c) => c.at.line === e.at.line && c.at.column === e.at.column);
    const place = { file: call.file, at: e.at, snippet: fact?.snippet ?? this.snippetOf(from) };
    const what = `GraphQLModule.${isAsync ? 'forRootAsync' : 'forRoot'}`;
    const opts: Bound | undefined = e.args[0] ? { ...call, expr: e.args[0] } : undefined;
    const dv = opts && this.isObj(opts) ? this.objProp(opts, 'driver') : undefined;
    const driver = dv ? this.evalIn(dv) : null;
    const pkg = driver?.t === 'pkg' && driver.path.length === 1 && GRAPHQL_DRIVERS[driver.pkg]?.includes(driver.path[0]!) ? driver.pkg : null;
    if (!pkg) {
      this.ctx.warn(call.file, e.at, `the driver of this ${what} is not known statically (one of @nestjs/apollo's, @nestjs/mercurius's or @graphql-yoga/nestjs's); the GraphQL endpoint it serves is left out`, place.snippet);
      return null;
    }
    let source = opts;
    if (isAsync) {
      const factory = this.objProp(opts!, 'useFactory');
      // (or a class implementing GqlOptionsFactory, `useClass` / `useExisting`: what its
      // `createGqlOptions()` returns — lib/graphql.module.ts, createAsyncOptionsProvider)
      const byClass = factory ? undefined : (this.objProp(opts!, 'useClass') ?? this.objProp(opts!, 'useExisting'));
      const cls = byClass ? this.classOf(byClass) : null;
      const method = cls ? nearestMethod(this.ancestors(cls), 'createGqlOptions') : null;
      const fv = factory ? this.evalIn(factory) : method ? this.methodFn(method.c, method.m) : null;
      const ret = fv?.t === 'fn' ? this.ev.returnsOf(fv.file, fv.fn)[0] : undefined;
      source = fv?.t === 'fn' && ret ? { file: fv.file, expr: ret, env: NO_ENV } : undefined;
    }
    const p = source && this.isObj(source) ? this.objProp(source, 'path') : undefined;
    const paths = !source || !this.isObj(source) ? null : p ? this.strings(p) : ['/graphql'];
    const prefixFlag = source && this.isObj(source) ? this.objProp(source, 'useGlobalPrefix') : undefined;
    const useGlobalPrefix = prefixFlag ? this.evalIn(prefixFlag) : { t: 'bool' as const, v: false };
    if (!paths || paths.length !== 1 || useGlobalPrefix.t !== 'bool') {
      const unknown = !source || !this.isObj(source) ? `the options ${what} is given at run time` : !paths || paths.length !== 1 ? 'the path' : 'useGlobalPrefix';
      this.ctx.warn(call.file, e.at, `${unknown} of this ${what} ${unknown.startsWith('the options') ? 'are' : 'is'} not known statically; the GraphQL endpoint it serves is left out`, place.snippet);
      return null;
    }
    // (@nestjs/apollo makes `new ApolloServer({ …, ...options })` of @apollo/server; 10.x, whose
    // package needs apollo-server-express or -fastify instead, of Apollo Server 3 — read at 10.2.1,
    // drivers/apollo-base.driver.ts: on Express `applyMiddleware({ app, path, disableHealthCheck })`)
    // (@nestjs/mercurius registers mercurius with them)
    const made = this.evalIn(source!);
    const deps = this.ctx.project.packageOf(call.file).deps;
    const server3 = !deps.includes('@apollo/server') && deps.some((d) => APOLLO_SERVER_3.includes(d));
    const guards =
      pkg === '@nestjs/apollo' ? apolloCsrf(this.ev, server3 ? 'apollo-server-express' : '@apollo/server', made, call.file, e.at.line) : pkg === '@nestjs/mercurius' ? mercuriusCsrf(this.ev, made, call.file, e.at.line) : yogaCsrf(this.ev, made, call.file, e.at.line);
    const disabled = made.t === 'obj' && 'disableHealthCheck' in made.props ? this.ev.member(made, 'disableHealthCheck', 0) : undefined;
    const healthCheck = pkg === '@nestjs/apollo' && server3 && !(disabled?.t === 'bool' && disabled.v);
    return { driver: pkg, path: paths[0]!, useGlobalPrefix: useGlobalPrefix.v, guards, healthCheck, ...place };
  }

  /**
   * The GraphQL endpoint a driver registers on the HTTP adapter when the app starts (after the
   * bootstrap's own calls: behind every `app.use` middleware, and no Nest guard — resolvers have
   * their own): @nestjs/apollo on Express, `app.use(path, expressMiddleware(server))`, every
   * method below the path; on Fastify, GET, POST and OPTIONS at the path
   * (drivers/apollo-base.driver.ts); @nestjs/mercurius registers mercurius, which serves GET and
   * POST at the path (its GraphiQL page is not listed); @graphql-yoga/nestjs (3.x,
   * src/index.ts) `app.use(path, yoga)` on Express, `app.all(path, …)` on Fastify. Nest's
   * `normalizeRoutePath` gives the path one leading slash and no end slash (`normalizePath`).
   */
  private graphqlRoutes(app: AppState, g: GraphqlEndpoint, router: RouterObject): void {
    const platform = router.args[1] ? this.ev.eval(router.file, router.args[1]) : null;
    const fastify = platform?.t === 'pkg' && platform.pkg === '@nestjs/platform-fastify';
    const steps = g.useGlobalPrefix ? app.prefixSteps.filter((s) => s.unknown !== undefined || s.prefix !== '') : [];
    if (steps.some((s) => s.unknown !== undefined)) this.ctx.warn(g.file, g.at, 'the global prefix this GraphQL endpoint is served under is not known statically; it is listed without it', g.snippet);
    const place = { file: g.file, at: g.at, snippet: g.snippet };
    for (const prefix of new Set(steps.length === 0 ? [''] : steps.map((s) => (s.unknown !== undefined ? '' : s.prefix)))) {
      const path = prefix === '' ? normalizePath(g.path) : normalizePath(prefix) + normalizePath(g.path);
      if (g.driver !== '@nestjs/mercurius' && !fastify) this.instanceRoute(app, place, { method: 'ALL', path, caseSensitive: false, trailingSlashInsensitive: true }, { pkg: g.driver, guards: g.guards });
      else
        for (const method of g.driver === '@nestjs/apollo' ? ['GET', 'POST', 'OPTIONS'] : g.driver === '@nestjs/mercurius' ? ['GET', 'POST'] : ['ALL'])
          this.instanceRoute(app, place, { method, path, caseSensitive: router.init.caseSensitive, trailingSlashInsensitive: !router.init.strict }, { pkg: g.driver, guards: g.guards });
    }
    // (Apollo Server 3's health check: applyMiddleware's router `use`s it at the app's root)
    if (g.healthCheck && !fastify) this.instanceRoute(app, place, { method: 'ALL', path: '/.well-known/apollo/server-health', caseSensitive: false, trailingSlashInsensitive: true }, { pkg: g.driver, guards: [] });
  }

  /**
   * The route of PrometheusController's `@Get() index` (the package's, not analysed) at the paths
   * PrometheusModule gives it: under the global prefix and `version` (the default one), behind
   * the app's middleware and `guards` (global ones, which it carries no metadata to skip, and a
   * subclass's own).
   */
  private metricsIndexRoutes(app: AppState, at: { file: string; at: Loc; snippet: string }, paths: string[], version: Versions | null, guards: AppliedGuard[], handler: string, controller: string, init: { strict: boolean; caseSensitive: boolean }): void {
    const versions = Array.isArray(version) ? version : null;
    const versionStep = this.versionSteps(app, version);
    for (const { path, step } of this.fullPaths(app, 'GET', app.versioning ? versions : null, undefined, paths, ['/'])) {
      this.ctx.addRoute(
        {
          method: 'GET',
          path,
          file: at.file,
          line: at.at.line,
          column: at.at.column,
          framework: 'nest',
          handler,
          app: app.name,
          trailingSlashInsensitive: !init.strict,
          caseSensitive: init.caseSensitive,
          prefixes: step ? [step, ...versionStep] : versionStep,
          guards: [...this.middlewareBefore(app, controller, path, 'GET', step, init.caseSensitive), ...guards],
          handlerFn: null,
          snippet: at.snippet,
        },
        app.root,
      );
    }
  }

  /** Does class `c` extend the package's PrometheusController (its top analysed ancestor's base)? */
  private extendsPrometheusController(c: ClassRef): boolean {
    const top = this.ancestors(c).at(-1)!;
    if (!top.cls.heritage) return false;
    const base = this.evalIn({ file: top.file, expr: top.cls.heritage, env: NO_ENV });
    return base.t === 'pkg' && base.pkg === PROMETHEUS && base.path.join('.') === 'PrometheusController';
  }

  private controllerRoutes(app: AppState, d: ControllerDecl, modulePaths: Map<string, ModulePath>, init: { strict: boolean; caseSensitive: boolean }): void {
    const c = d.ref;
    const classPrims = this.prims(c.cls.decorators, c.file);
    const ctrl = this.find(classPrims, 'Controller')[0];
    if (!ctrl) return;
    const at = ctrl.use.at;
    // @Controller(path | paths | { path, version })
    let ctrlPaths: string[] = ['/'];
    let ctrlVersion: Versions | null = null;
    const arg = ctrl.args[0];
    if (arg && this.isObj(arg)) {
      const p = this.objProp(arg, 'path');
      const ps = p ? this.strings(p) : ['/'];
      if (!ps) return this.ctx.warn(c.file, at, `the path of controller ${c.cls.name} is not known statically; its routes are left out`, ctrl.use.snippet);
      ctrlPaths = ps;
      const v = this.objProp(arg, 'version');
      if (v) ctrlVersion = this.versions(v, c.file, at, ctrl.use.snippet);
    } else if (arg) {
      const ps = this.strings(arg);
      if (!ps) return this.ctx.warn(c.file, at, `the path of controller ${c.cls.name} is not known statically; its routes are left out`, ctrl.use.snippet);
      ctrlPaths = ps;
    }
    // PrometheusModule's path replaces the controller's (Reflect.defineMetadata('path', …))
    if (d.metricsPaths) ctrlPaths = d.metricsPaths;
    if (ctrlVersion === null && app.versioning) ctrlVersion = app.versioning.defaultVersion;
    // Nest reads a controller's guards and metadata with Reflect.getMetadata, which looks up the
    // classes it extends, and @UseGuards adds to what that finds (extendArrayMetadata): a base
    // class's @UseGuards(SessionGuard) guards its subclasses' routes, before their own; a
    // subclass's SetMetadata overrides its base's
    const lineage = this.ancestors(c).reverse().map((a) => ({ a, prims: a === c ? classPrims : this.prims(a.cls.decorators, a.file) }));
    const classGuards = lineage.flatMap(({ a, prims }) => this.guardsOf(prims, 'controller-guard', a, d.module));
    const classMeta = this.metadata(lineage.flatMap(({ prims }) => prims));
    const hiddenClass = this.find(classPrims, 'ApiExcludeController', '@nestjs/swagger').some((p) => this.truthy(p.args[0], true));
    // (a controller PrometheusModule declares is PrometheusModule's, which no RouterModule path names)
    const known = d.metricsPaths ? undefined : modulePaths.get(classKey(d.module));
    const modulePath = known?.path || undefined;
    const moduleStep: PrefixStep[] = !known
      ? []
      : known.unknown !== null
        ? [{ prefix: known.path, file: known.unknown.file, line: known.unknown.line, unknown: known.unknown.note }]
        : [{ prefix: known.path, file: d.module.file, line: d.module.cls.at.line }];
    // Route methods, the subclass's own first (inherited handlers are served too).
    const seenMethods = new Set<string>();
    // The method and path of each route a handler of the controller answers, in the order Nest
    // registers them: its proxy never hands a request on (router-proxy.ts) but through a
    // `@Next()` parameter, so a later handler of the same method and path never runs
    // (Maintainerr's two `@Post()` of one controller), nor one behind an `@All()` of that path.
    const answered = new Set<string>();
    for (const owner of this.ancestors(c)) {
      for (const m of owner.cls.methods) {
        if (m.isStatic || seenMethods.has(m.name)) continue;
        seenMethods.add(m.name);
        const prims = this.prims(m.decorators, owner.file);
        const http = prims.filter((p) => p.pkg === '@nestjs/common' && HTTP_DECORATORS[p.name]);
        if (http.length === 0) continue;
        const methodGuards = this.guardsOf(prims, 'method-guard', owner, d.module);
        const meta = this.metadata(prims);
        const versionPrim = this.find(prims, 'Version')[0];
        const methodVersion = versionPrim?.args[0] ? this.versions(versionPrim.args[0], owner.file, versionPrim.use.at, versionPrim.use.snippet) : null;
        const given = app.versioning ? methodVersion ?? ctrlVersion : null;
        const versions = Array.isArray(given) ? given : null;
        // (the global prefix's step, for the paths it prefixes: not those its `exclude` names; a version's not known statically)
        const versionStep = this.versionSteps(app, given);
        const prefixes = [...versionStep, ...moduleStep];
        const hidden = hiddenClass || this.find(prims, 'ApiExcludeEndpoint', '@nestjs/swagger').some((p) => this.truthy(p.args[0], true));
        const handler = this.methodFn(owner, m);
        // (its parameters are what their decorators pick, seldom the request: the call it ends with is not followed)
        const inHandler = this.ctx.inHandlerGuards(handler, undefined, { depth: 0, no: true });
        for (const h of http) {
          const verb = HTTP_DECORATORS[h.name]!;
          const methodPaths = h.args[0] ? this.strings(h.args[0]) : ['/'];
          if (!methodPaths) {
            this.ctx.warn(owner.file, h.use.at, `${verb} route of ${c.cls.name}.${m.name} with a path not known statically; it is left out`, h.use.snippet);
            continue;
          }
          for (const { path, step } of this.fullPaths(app, verb, versions, modulePath, ctrlPaths, methodPaths)) {
            if (answered.has(`${verb} ${path}`) || answered.has(`ALL ${path}`)) continue;
            if (!m.next) answered.add(`${verb} ${path}`);
            const skipped = (g: GuardUse): boolean => g.optOuts.some((o) => skips(o, meta, classMeta));
            const middleware = this.middlewareBefore(app, classKey(c), path, verb, step, init.caseSensitive);
            const guards = [...app.globalGuards, ...classGuards, ...methodGuards].filter((g) => !skipped(g)).map((g) => g.guard);
            const docs = app.docs && !hidden && (!app.docs.include || app.docs.include.has(classKey(d.module))) ? app.docs : null;
            this.ctx.addRoute(
              {
                method: verb,
                path,
                file: owner.file,
                line: h.use.at.line,
                column: h.use.at.column,
                framework: 'nest',
                handler: `${c.cls.name}.${m.name}`,
                app: app.name,
                trailingSlashInsensitive: !init.strict,
                caseSensitive: init.caseSensitive,
                ...(docs ? { apiDocs: { generator: `@nestjs/swagger (SwaggerModule.setup at ${docs.file}:${docs.line})`, hide: '@ApiExcludeController() on the controller or @ApiExcludeEndpoint() on the handler' } } : {}),
                prefixes: step ? [step, ...prefixes] : prefixes,
                guards: [...middleware, ...guards, ...inHandler],
                handlerFn: handler.t === 'fn' ? { file: handler.file, fn: handler.fn } : null,
                snippet: h.use.snippet,
              },
              app.root,
            );
          }
        }
      }
    }
    // PrometheusController's own `index`, inherited by a subclass that does not override it
    if (d.metricsPaths && !seenMethods.has('index') && this.extendsPrometheusController(c)) {
      const skipped = (g: GuardUse): boolean => g.optOuts.some((o) => skips(o, new Map(), classMeta));
      const guards = [...app.globalGuards, ...classGuards].filter((g) => !skipped(g)).map((g) => g.guard);
      this.metricsIndexRoutes(app, { file: c.file, at, snippet: ctrl.use.snippet }, ctrlPaths, app.versioning ? ctrlVersion : null, guards, `${c.cls.name}.index`, classKey(c), init);
    }
  }

  /** The guards of `@UseGuards(…)` among `prims`, on a controller of `module` (whose imports configure @nestjs/passport). */
  private guardsOf(prims: Prim[], mechanism: GuardMechanism, owner: ClassRef, module: ClassRef): GuardUse[] {
    const out: GuardUse[] = [];
    for (const p of this.find(prims, 'UseGuards'))
      for (const a of p.args) for (const it of this.items(a)) {
        const g = this.guardUse(it, mechanism, p.use.at, 'canActivate', module);
        if (g) out.push({ ...g, guard: this.ctx.placed(g.guard, owner.file, p.use.at.line) });
      }
    return out;
  }

  /**
   * SetMetadata(key, value) on one target: key id → truthy (and what a package's decorators set,
   * KEYCLOAK_UNPROTECTED). The decorator applied last wins.
   */
  private metadata(prims: Prim[]): Map<string, MetaValue> {
    const out = new Map<string, MetaValue>();
    for (const p of prims) {
      if (p.pkg === '@nestjs/common' && p.name === 'SetMetadata' && p.args[0]) {
        // (`@Roles('public')` of `Roles = (...roles) => SetMetadata('roles', roles)`: the list itself)
        const list = p.args[1] ? this.evalIn(p.args[1]) : null;
        const strings = list?.t === 'arr' ? stringsOf(list) : null;
        out.set(this.keyId(p.args[0]), strings ?? this.truthy(p.args[1], false));
      }
      else if (p.pkg === KEYCLOAK && (p.name === 'Public' || p.name === 'Unprotected')) out.set(KEYCLOAK_UNPROTECTED, true);
    }
    return out;
  }

  /** What runs before a route of Nest's router at `path`: the app's `app.use` middleware there, then the modules' middleware that applies to it (`controller`'s, when one serves it). */
  private middlewareBefore(app: AppState, controller: string, path: string, method: string, step: PrefixStep | null, caseSensitive: boolean): AppliedGuard[] {
    return [
      ...app.uses.filter((u) => pathApplies(u.scope, path, caseSensitive)).map((u) => u.guard),
      ...app.middleware.filter((mw) => this.middlewareApplies(mw, controller, path, method, step)).flatMap((mw) => mw.guards),
    ];
  }

  private middlewareApplies(mw: ModuleMiddleware, controller: string, path: string, method: string, step: PrefixStep | null): boolean {
    const hit = (t: PathTarget): boolean => (t.method === 'ALL' || t.method === method) && (!t.under || t.under === step) && t.regex.test(path);
    if (mw.exclude.some(hit)) return false;
    return mw.all || mw.controllers.has(controller) || mw.paths.some(hit);
  }

  /**
   * The steps of a route's path that its version (`given`) puts there and that are not known
   * statically: the version itself, or the app's versioning prefix before a version.
   */
  private versionSteps(app: AppState, given: Versions | null): PrefixStep[] {
    if (given && !Array.isArray(given)) return [{ prefix: '', file: given.file, line: given.line, unknown: given.unknown }];
    const unknown = app.versioning?.unknown;
    return unknown && given?.some((v) => v !== null) ? [unknown] : [];
  }

  /**
   * RoutePathFactory.create, once for each global prefix the app may have; `step`, the global
   * prefix's step of the path (set, known or not), or null when none is put before it.
   */
  private fullPaths(app: AppState, method: string, versions: (string | null)[] | null, modulePath: string | undefined, ctrlPaths: string[], methodPaths: string[]): { path: string; step: PrefixStep | null }[] {
    let paths = [''];
    const vp = app.versioning?.prefix ?? 'v';
    if (versions && app.versioning) paths = versions.map((v) => (v === null || app.versioning!.unknown ? '' : `/${vp}${v}`));
    paths = appendAll(paths, modulePath ? [modulePath] : undefined);
    paths = appendAll(paths, ctrlPaths);
    paths = appendAll(paths, methodPaths);
    const out = new Map<string, PrefixStep | null>();
    const put = (full: string, step: PrefixStep | null): void => {
      full = addLeadingSlash(full || '/');
      if (full !== '/') full = stripEndSlash(full);
      if (!out.has(full)) out.set(full, step);
    };
    const excluded = (p: string): boolean => {
      let bare = p;
      for (const v of versions ?? []) if (v !== null && app.versioning && bare.startsWith(`/${vp}${v}`)) bare = bare.replace(`/${vp}${v}`, '');
      return app.exclusions.some((x) => (x.method === 'ALL' || x.method === method) && x.regex.test(addLeadingSlash(bare)));
    };
    // (optional parts, `{*rest}` and `{/:id}` of Nest 11's path-to-regexp 8, `:id?` of Nest 10's: a route of each form)
    for (const p of paths.flatMap((x) => optionalForms(x, OPTIONAL))) {
      if (app.prefixSteps.length === 0 || excluded(p)) put(p, null);
      else for (const step of app.prefixSteps) put(stripEndSlash(step.prefix) + p, step);
    }
    return [...out].map(([path, step]) => ({ path, step }));
  }
}
