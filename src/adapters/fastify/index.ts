/**
 * Fastify (4, 5). Semantics modelled from fastify's own source (lib/route.js,
 * lib/plugin-override.js, lib/hooks.js, read at v5.12 / v6.0.0-alpha.2):
 *
 * - Routes: `fastify.METHOD(url, [opts], handler)`, `fastify.METHOD(url, { handler })`,
 *   `fastify.route({ method | [methods], url | path, handler, ...hooks })`.
 * - Plugins: `register(plugin, { prefix })` makes a child encapsulation context
 *   (`override` in plugin-override.js: `Object.create(old)`, hooks copied with
 *   `buildHooks(old[kHooks])`, prefix joined by `buildRoutePrefix`). A plugin wrapped by
 *   `fastify-plugin` carries `skip-override`: `override` returns the parent instance itself,
 *   so its routes, hooks and decorators belong to the parent context and the `prefix`
 *   option is ignored (docs/Reference/Routes.md, "Route Prefixing and fastify-plugin").
 * - Load order (avvio, `autostart: false`): a registered plugin loads after the body that
 *   registered it has finished, in registration order, unless the `register` is awaited,
 *   which loads everything queued so far at that point. A `register` called while a plugin
 *   loads is queued in that plugin whatever instance it is called on (avvio's `_current`):
 *   `fastify.register(auth)` of an outer `fastify` inside a plugin's body is the plugin's.
 * - Hooks: a route's lifecycle hooks are read from its context at `preReady`
 *   (route.js: `this[kHooks][hook].concat(opts[hook])`), so a hook added anywhere in the
 *   route's own context applies; a child context starts with the hooks its parent had when
 *   the child was created (buildHooks copies them), and a hook added to a context later is
 *   added to every child context made by then as well (fastify.js `addHook` → `_addHook`,
 *   over `kChildren`, read at v3.0.0, v4.0.0, v5.0.0): a hook guards every route of its
 *   context and of the plugins within it, whenever it was added. Guard phases: onRequest,
 *   preParsing, preValidation, preHandler — context hooks of a phase run before the route's own.
 * - Prefix join (route.js `route()`): a url `/` inside a prefixed plugin registers the bare
 *   prefix and, unless `ignoreTrailingSlash` is set (or `ignoreDuplicateSlashes` with a
 *   prefix ending in `/`), also `prefix + '/'` — one route here, serving both forms
 *   (`prefixTrailingSlash: 'slash' | 'no-slash'` keeps one); a prefix ending in `/` drops
 *   the url's leading `/`; otherwise `prefix + url`. Matching is exact on the trailing
 *   slash (`ignoreTrailingSlash: false`) and case-sensitive (`caseSensitive: true`) by
 *   default; `routerOptions.*` wins over the top-level option (route.js buildRouterOptions).
 *   A path ending in an optional parameter (`/sites/:id?`) is two routes, with and without
 *   it (find-my-way's `on`).
 * - Decorators: `decorate(name, fn)` is visible in its context and its descendants
 *   (prototype chain), so `onRequest: fastify.authenticate` is classified by the decorated
 *   function's behaviour.
 * - @fastify/swagger (itself wrapped in fastify-plugin) collects routes with an `onRoute`
 *   hook, which fires when a route is declared: a route is published when the swagger
 *   plugin has loaded in its context or an ancestor before the route is declared, unless
 *   `schema.hide`, `schema.tags` holding the `hiddenTag` (default `X-HIDDEN`), or
 *   `hideUntagged` with no tags (lib/util/should-route-hide.js); `mode: 'static'` documents
 *   a file, not the routes.
 * - @fastify/autoload registers the plugin files of a directory (./autoload.ts); it skips
 *   encapsulation itself, so they are registered in the context that registered it.
 * - fastify-cli: a package.json script running `fastify start <file>` serves that file's
 *   plugin on a server of its own (./cli.ts).
 */
import path from 'node:path';
import type { Adapter, RouterInit } from '../adapter.js';
import { functionsByScope, isNull, mapChildExprs, pathChoices, stringsOf, valueNote, type Evaluator, type RouterObject, type Value } from '../../link/evaluate.js';
import { EMPTY_CONDITIONS, fnKey, prefixStep, registrationAtCall, routePlace, type LinkContext, type RouteConfigReader, type RouteDraft } from '../../link/link.js';
import { headerCredentialOf, orderKinds } from '../../guards.js';
import { joinPath, optionalForms, type OptionalSyntax } from '../paths.js';
import { pathNote, UnknownHeads } from '../unknown-heads.js';
import type { AppliedGuard, CallSite, Expr, Loc, PrefixStep, RegistrationFact } from '../../types.js';
import { handlerNameOf } from '../handler-name.js';
import { COMPUTED_METHOD } from '../../extract/extract.js';
import { AUTOLOAD_DEFAULTS, autoloadTree, commonPrefix, directoryOf, pluginPrefix, type PathFilter } from './autoload.js';
import { fastifyStarts, type FastifyStart } from './cli.js';
import { bool, routerOption } from './options.js';
import { answeringGuards, mercuriusCsrf } from '../package-handlers.js';
import { middlewareGuards, optionsRouter, procedureMethods, trpcProcedures, trpcUnread } from '../trpc.js';
import { openApiRoutes, TRPC_OPENAPI } from '../trpc-openapi.js';
import { ORPC_METHODS, orpcRoutes } from '../orpc.js';

/** find-my-way's optional parameter, `/:id?` (last in the path). */
const OPTIONAL: OptionalSyntax = { question: true, braces: false };
const METHODS: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  options: 'OPTIONS',
  head: 'HEAD',
  all: 'ALL',
};

/** Lifecycle hooks that run before the handler and can end the request: the guard phases, in order. */
const GUARD_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'];

const SWAGGER_PACKAGES = new Set(['@fastify/swagger', 'fastify-swagger']);
const AUTOLOAD_PACKAGES = new Set(['@fastify/autoload', 'fastify-autoload']);
/** A plugin that serves a route of its own (FastifyApp.metrics). */
const METRICS_PACKAGE = 'fastify-metrics';
/** A plugin that proxies the requests under its prefix to another server (FastifyApp.httpProxy). */
const HTTP_PROXY_PACKAGE = '@fastify/http-proxy';
const BEARER_AUTH_PACKAGE = '@fastify/bearer-auth';
/** @fastify/http-proxy's `defaultHttpMethods` and `defaultRoutes` (index.js). */
const HTTP_PROXY_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];
const HTTP_PROXY_URLS = ['/', '/*'];
/** GraphQL and tRPC plugins that serve an endpoint (FastifyApp.mercurius, FastifyApp.apollo, FastifyApp.trpc). */
const MERCURIUS_PACKAGE = 'mercurius';
/** A plugin that serves the files of a directory (FastifyApp.staticFiles). */
const STATIC_PACKAGE = '@fastify/static';
const APOLLO_PACKAGE = '@as-integrations/fastify';
const TRPC_PACKAGE = '@trpc/server/adapters/fastify';
/** The trpc-openapi packages whose Fastify plugin declares five methods, not `all` (trpc-openapi.ts). */
const OPENAPI_FIVE_METHODS = new Set(['trpc-to-openapi', '@dokploy/trpc-openapi']);
/** The files of mercurius's GraphiQL page, below its prefix (lib/routes.js). */
const GRAPHIQL_URLS = ['/graphiql', '/graphiql/main.js', '/graphiql/sw.js', '/graphiql/config.js'];
/** A plugin that serves the Swagger UI's routes (FastifyApp.swaggerUi). */
const SWAGGER_UI_PACKAGE = '@fastify/swagger-ui';
/** What @fastify/swagger-ui serves under its prefix: the page, its two files, the document twice, the UI's assets. */
const SWAGGER_UI_URLS = ['/', '/static/index.html', '/static/swagger-initializer.js', '/json', '/yaml', '/static/*'];
/**
 * The route options a documentation plugin declares its routes with: `schema: { hide: true }`, and
 * the `onRequest` and `preHandler` hooks of the options it is given for them (`uiHooks`, `hooks`).
 */
function hiddenWithHooks(given: Value | undefined, file: string): Value {
  const hooks = given?.t === 'obj' ? Object.fromEntries(['onRequest', 'preHandler'].flatMap((h) => (given.props[h] ? [[h, given.props[h]!]] : []))) : {};
  return { t: 'obj', file: given?.t === 'obj' ? given.file : file, props: { ...hooks, schema: { k: 'obj', props: { hide: { k: 'bool', v: true } } } } };
}

/** A plugin that serves Scalar's API reference page (FastifyApp.scalar). */
const SCALAR_PACKAGE = '@scalar/fastify-api-reference';

interface Swagger {
  pkg: string;
  hiddenTag: string;
  hideUntagged: boolean;
}

/** A use of a middleware-like value (hook function), resolved to a guard once every decorator is known. */
interface HookUse {
  phase: number;
  file: string;
  expr: Expr;
  value: Value;
  at: Loc;
  /** the conditions not decided statically it is added under (Frame.when) */
  when: Conditions;
}

/** Conditions not decided statically, by key, with their labels (LinkContext.conditionsNoted). */
type Conditions = ReadonlyMap<string, string>;

interface Context {
  parent: Context | null;
  prefix: string;
  prefixes: PrefixStep[];
  /** hooks copied from the parent when this context was created */
  inherited: HookUse[];
  /** hooks added to this context itself (by its plugin or a fastify-plugin it loaded) */
  own: HookUse[];
  /** hooks added to an ancestor after this context was created, handed on by `_addHook` (they run after its own) */
  late: HookUse[];
  /** the child contexts created in this one so far (fastify's `kChildren`) */
  children: Context[];
  /** @fastify/swagger's onRoute hook, as copied from the parent */
  swaggerInherited: Swagger | null;
  /** @fastify/swagger loaded into this context itself */
  swaggerOwn: Swagger | null;
  decorations: Map<string, { file: string; expr: Expr; value: Value }>;
}

/** A file @fastify/autoload registers: its plugin function and the settings it exports, or a package's plugin. */
type Autoloaded = { configPrefix?: string } & (
  | { fn: { file: string; fn: number }; skipOverride: boolean; autoPrefix?: string; prefixOverride?: string }
  | { pkg: string; config: Value | null }
);

/** One statement of a plugin body: a registration made on the instance, in source order. */
interface Op {
  reg: RegistrationFact;
  file: string;
  /** the conditions of the calls that make it (`if (cfg.auth) setupAuth(fastify)`), not decided statically */
  when?: Conditions;
}

/** A body being run: its instance's context, and the plugin options it was registered with. */
interface Frame {
  ctx: Context;
  opts: Value | null;
  /** the plugin function and its instance parameter, when the body is a plugin's */
  fn: { file: string; fn: number } | null;
  /** the `register(plugin, opts)` loading it, as a call of the plugin function (its instance and options): what its conditions on them read */
  site?: CallSite;
  /**
   * The conditions not decided statically the body runs under: those of the registrations
   * that loaded its plugin (`if (process.env.AUTH) app.register(auth)`) and of the calls
   * that made them. A hook added under one guards only the routes declared under it too.
   */
  when: Conditions;
}

interface PendingRoute {
  methods: string[];
  path: string;
  trailingSlashInsensitive: boolean;
  op: Op;
  ctx: Context;
  hooks: HookUse[];
  handler: { value: Value; expr: Expr; file: string } | null;
  /** its route options (null: none given), whose `config` its hooks may read */
  options: Value | null;
  apiDocs: Swagger | null;
  /** the step of a url whose head is not known statically (UnknownHeads), listed at the rest */
  head: PrefixStep | null;
  /** the conditions not decided statically it is declared under (Frame.when) */
  when: Conditions;
  /** the package that serves it (a plugin's own route), named as its handler */
  servedBy: string | null;
  /**
   * the guards its handler applies before answering (a tRPC procedure's middleware, trpc.ts; a
   * GraphQL server's CSRF prevention, package-handlers.ts), and where it is written when that is
   * not the registration (a tRPC procedure)
   */
  own?: { guards: AppliedGuard[]; place?: { file: string; at: Loc } };
}

/**
 * `fp(plugin)` (fastify-plugin): the plugin it wraps, which skips encapsulation — but with `{
 * encapsulate: true }` in its options (fastify-plugin's `fn[Symbol.for('skip-override')] =
 * options.encapsulate !== true`), which keeps a context of its own.
 */
function unwrapFastifyPlugin(ev: Evaluator, v: Value): { plugin: Value; skipOverride: boolean } {
  if (v.t !== 'pkg' || v.pkg !== 'fastify-plugin' || !v.called) return { plugin: v, skipOverride: false };
  const meta = v.args[1];
  const encapsulate = meta?.t === 'obj' ? ev.member(meta, 'encapsulate', 0) : null;
  return { plugin: v.args[0] ?? { t: 'unknown', why: 'fastify-plugin called without a plugin' }, skipOverride: !(encapsulate?.t === 'bool' && encapsulate.v) };
}

/** A function parameter itself (`fastify`), not a property read from it (`fastify.log`). */
function isBareParam(v: Value): v is Extract<Value, { t: 'param' }> {
  return v.t === 'param' && !(v as { path?: string[] }).path?.length;
}


export const fastifyAdapter: Adapter = {
  name: 'fastify',
  title: 'Fastify',
  modules: ['fastify', 'fastify-plugin'],

  create(pkg, path, args, _isNew, ev): RouterInit | null {
    if (pkg !== 'fastify') return null;
    if (path.length > 1 || (path.length === 1 && path[0] !== 'fastify' && path[0] !== 'default')) return null;
    return {
      kind: 'app',
      strict: !(routerOption(ev, args[0], 'ignoreTrailingSlash') ?? false),
      caseSensitive: routerOption(ev, args[0], 'caseSensitive') ?? true,
    };
  },

  routerMethod(_router, method) {
    // (`withTypeProvider<T>()` answers the same instance, typed: read at fastify 5.x, lib/fastify.js)
    return METHODS[method] || ['route', 'register', 'addHook', 'decorate', 'decorateRequest', 'decorateReply', 'withTypeProvider'].includes(method) ? 'self' : null;
  },

  link(ctx: LinkContext): void {
    for (const app of ctx.routersOf('fastify', true)) new FastifyApp(ctx, app).run();
    for (const entry of cliEntries(ctx)) new FastifyApp(ctx, entry.app).runEntry(entry);
  },
};

/** A plugin file a package.json script serves with `fastify start` (./cli.ts), on a server fastify-cli makes. */
interface CliEntry {
  app: RouterObject;
  file: string;
  start: FastifyStart;
  options: Value | null;
  /** the script, as the registration of the plugin */
  op: Op;
}

/** Build output directories whose files come from `src/` (or the package root) when compiled. */
const OUT_DIRS = new Set(['dist', 'build', 'lib', 'out']);

function cliEntries(ctx: LinkContext): CliEntry[] {
  const out: CliEntry[] = [];
  const seen = new Set<string>();
  for (const pkg of ctx.project.packages) {
    // the `fastify` command is fastify-cli's
    if (!pkg.deps.includes('fastify-cli')) continue;
    const manifest = pkg.dir === '' ? 'package.json' : `${pkg.dir}/package.json`;
    for (const script of pkg.scripts) {
      for (const start of fastifyStarts(script.command)) {
        const at = { line: script.line, column: 1 };
        const op: Op = { file: manifest, reg: { target: { k: 'unknown', text: 'fastify start' }, method: 'register', args: [], chainPath: null, at, snippet: script.command } };
        const file = entryFile(ctx, manifest, start.file);
        if (!file) {
          ctx.warn(manifest, at, `the script ${script.name} serves ${start.file} with fastify start, which is no analysed file (nor built from one); its routes are left out`, script.command);
          continue;
        }
        const key = `${file}\0${start.prefix}\0${start.options}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const options = start.options && ctx.files.get(file)?.exports.some((x) => x.exported === 'options') ? ctx.ev.exportValue(file, 'options', 0) : null;
        const app: RouterObject = {
          id: `fastify-cli:${key}`,
          framework: 'fastify',
          init: { kind: 'app', strict: !(routerOption(ctx.ev, options ?? undefined, 'ignoreTrailingSlash') ?? false), caseSensitive: routerOption(ctx.ev, options ?? undefined, 'caseSensitive') ?? true },
          file: manifest,
          at,
          name: 'app',
          args: [],
        };
        out.push({ app, file, start, options, op });
      }
    }
  }
  return out;
}

/** The analysed file `fastify start` loads: the one named, or the source a build output was compiled from. */
function entryFile(ctx: LinkContext, manifest: string, file: string): string | null {
  const rel = path.posix.normalize(file);
  const [first, ...rest] = rel.split('/');
  const candidates = [rel, ...(first && OUT_DIRS.has(first) && rest.length > 0 ? [['src', ...rest].join('/'), rest.join('/')] : [])];
  for (const c of candidates) {
    const hit = ctx.ev.resolveModule(manifest, `./${c}`);
    if (hit) return hit;
  }
  return null;
}

/** @fastify/jwt (and its former name), whose `request.jwtVerify()` reads the token (jwtHeaderOnly). */
const JWT_PACKAGES = new Set(['@fastify/jwt', 'fastify-jwt']);

class FastifyApp {
  private clock = 0;
  private readonly routes: PendingRoute[] = [];
  /** whether every @fastify/jwt registration of the app reads the token from a header only (jwtHeaderOnly); null when none is loaded */
  private jwtFromHeader: boolean | null = null;
  private readonly stack: string[] = [];
  /**
   * `register` calls a plugin's body makes on an instance of a body around it, by the plugin
   * (fnKey): avvio queues a `register` in the plugin loading when it is called, whatever instance
   * it is called on (pluginOps)
   */
  private readonly adopted = new Map<string, Op[]>();
  /** urls whose heads are not known statically */
  private readonly heads: UnknownHeads;

  constructor(
    private readonly ctx: LinkContext,
    private readonly app: RouterObject,
  ) {
    this.heads = new UnknownHeads(ctx.ev);
  }

  private static root(): Context {
    return { parent: null, prefix: '', prefixes: [], inherited: [], own: [], late: [], children: [], swaggerInherited: null, swaggerOwn: null, decorations: new Map() };
  }

  run(): void {
    const ops = this.ctx.registrationsOf(this.app.id).map((b) => ({ reg: b.reg, file: b.file }));
    this.body(ops, { ctx: FastifyApp.root(), opts: null, fn: null, when: EMPTY_CONDITIONS });
    for (const r of this.routes) this.emit(r);
  }

  /** start.js: `fastify.register(file.default || file, { ...options, prefix })` on a new server. */
  runEntry(e: CliEntry): void {
    const { reg, file } = e.op;
    const { plugin, skipOverride } = unwrapFastifyPlugin(this.ctx.ev, this.ctx.ev.exportValue(e.file, 'default', 0));
    if (plugin.t !== 'fn') {
      this.ctx.warn(file, reg.at, `fastify start serves ${e.file}, whose export is not a plugin function known statically (${valueNote(plugin)}); its routes are left out`, reg.snippet);
      return;
    }
    const optionsPrefix = e.options ? this.optionOf(e.options, 'prefix', null) : undefined;
    if (optionsPrefix !== undefined && optionsPrefix.t !== 'str') {
      this.ctx.warn(file, reg.at, `the prefix in the options ${e.file} exports is not known statically (${valueNote(optionsPrefix)}); its routes are left out`, reg.snippet);
      return;
    }
    const prefix = e.start.prefix ?? optionsPrefix?.v ?? '';
    this.enter(plugin, skipOverride ? null : prefix, e.options?.t === 'obj' ? e.options : null, FastifyApp.root(), e.op, EMPTY_CONDITIONS);
    for (const r of this.routes) this.emit(r);
  }

  /** Run one plugin body: its registrations in order, loading registered plugins as avvio does. */
  private body(ops: Op[], frame: Frame): void {
    const queue: Op[] = [];
    for (const written of ops) {
      this.clock++;
      // (`if (opts.enforce) fastify.register(requireToken)`: read with the options it was registered with)
      const atCall = frame.site && written.file === frame.site.file ? this.ctx.conditionsAtCall(written.file, written.reg, frame.site) : EMPTY_CONDITIONS;
      if (atCall === null) continue;
      const conditioned = atCall.size === 0 ? written : { ...written, when: new Map([...(written.when ?? []), ...atCall]) };
      // (`fastify[method](path, …)`, supabase storage's S3 routes: the method the member names)
      const computed = conditioned.reg.method === COMPUTED_METHOD ? this.ctx.withComputedMethod(conditioned.file, conditioned.reg) : conditioned.reg;
      if (!computed) continue;
      const made = computed === conditioned.reg ? conditioned : { ...conditioned, reg: computed };
      for (const op of this.atSite(made, frame)) {
        const m = op.reg.method;
        if (m === 'register') {
          queue.push(op);
          if (op.reg.awaited) this.flush(queue, frame);
        } else if (m === 'addHook') this.addHook(op, frame.ctx, this.conditionsOf(op, frame));
        else if (m === 'decorate') this.decorate(op, frame.ctx);
        else if (m === 'route') this.route(op, frame.ctx, null, this.conditionsOf(op, frame));
        else if (METHODS[m]) this.route(op, frame.ctx, METHODS[m]!, this.conditionsOf(op, frame));
      }
    }
    this.flush(queue, frame);
  }

  /**
   * A route's url or a plugin's options written in the plugin's own function, each name of its
   * options parameter read as the `register` call loading it passes them (leon's
   * `` url: `/api/${options.apiVersion}/info` `` of `register(getInfo, options)` of
   * `register(infoPlugin, { apiVersion: API_VERSION })`); the op as written when it reads none.
   * (The instance parameter stays the plugin's own context.)
   */
  private atSite(op: Op, frame: Frame): Op[] {
    const { reg } = op;
    const m = reg.method;
    const site = frame.site;
    const fn = frame.fn;
    if (!site || !fn || op.file !== site.file || (m !== 'register' && m !== 'route' && !METHODS[m])) return [op];
    const ev = this.ctx.ev;
    const passed = site.args[1]!;
    const read = (e: Expr): Expr => {
      if (e.k !== 'ref') return mapChildExprs(e, read);
      const v = ev.eval(op.file, e);
      return isBareParam(v) && v.file === fn.file && v.fn === fn.fn && v.index === 1 ? { k: 'at', file: site.argsFile, e: passed } : e;
    };
    // (a shorthand's url, `route({ url })`'s url or path, a plugin's options)
    let changed = false;
    const readArg = (a: Expr, i: number): Expr => {
      let out = a;
      if (m === 'register') out = i === 1 ? read(a) : a;
      else if (i > 0) out = a;
      else if (m !== 'route') out = read(a);
      else if (a.k === 'obj') {
        const props: Record<string, Expr> = {};
        for (const [k, v] of Object.entries(a.props)) props[k] = k === 'url' || k === 'path' ? read(v) : v;
        if (Object.keys(props).some((k) => props[k] !== a.props[k])) out = { k: 'obj', props };
      }
      if (out !== a) changed = true;
      return out;
    };
    const args = reg.args.map(readArg);
    if (!changed) return [op];
    // (every field named: one read back from the cache holds some as getters, which a spread drops)
    const at: RegistrationFact = {
      target: reg.target,
      method: reg.method,
      args,
      chainPath: reg.chainPath,
      ...(reg.awaited ? { awaited: true as const } : {}),
      ...(reg.promised ? { promised: true as const } : {}),
      ...(reg.when ? { when: reg.when } : {}),
      ...(reg.methodExpr ? { methodExpr: reg.methodExpr } : {}),
      ...(reg.site ? { site: reg.site } : {}),
      at: reg.at,
      snippet: reg.snippet,
    };
    return [{ ...op, reg: at }];
  }

  /** The conditions not decided statically an op of a body runs under: the body's, the calls' that make it, its own. */
  private conditionsOf(op: Op, frame: Frame): Conditions {
    const own = this.ctx.conditionsNoted(op.file, op.reg);
    if (!op.when?.size && !own?.size) return frame.when;
    return new Map([...frame.when, ...(op.when ?? []), ...(own ?? [])]);
  }

  private flush(queue: Op[], frame: Frame): void {
    while (queue.length > 0) this.load(queue.shift()!, frame);
  }

  private evalArg(op: Op, e: Expr, frame: Frame): Value {
    // `fastify.register(child, opts)` passing the plugin's own options along.
    return this.optionValue(op.file, e, frame) ?? { t: 'unknown', why: 'no options' };
  }

  /** Load a registered plugin: a child context, or the parent's own for fastify-plugin. */
  private load(op: Op, frame: Frame): void {
    const { reg, file } = op;
    this.clock++;
    const found = this.pluginValue(op, reg.args[0]!);
    let opts = reg.args[1] ? this.evalArg(op, reg.args[1], frame) : null;
    // `register(plugin, (parent) => ({ prefix: … }))`: options computed from the parent instance.
    if (opts?.t === 'fn') opts = this.ctx.ev.callFn(opts.file, opts.fn, 0);
    if (found.t === 'pkg' && SWAGGER_PACKAGES.has(found.pkg) && !found.called) return this.swagger(found.pkg, opts, frame.ctx);
    if (found.t === 'pkg' && AUTOLOAD_PACKAGES.has(found.pkg)) {
      this.autoload(op, found.pkg, opts, frame);
      return;
    }
    const { plugin, skipOverride } = unwrapFastifyPlugin(this.ctx.ev, found);
    if (plugin.t === 'pkg') {
      // a package plugin (cors, helmet, sensible …): no application routes, but its own
      if (JWT_PACKAGES.has(plugin.pkg) && !plugin.called && plugin.path.every((p) => p === 'default')) this.jwtFromHeader = (this.jwtFromHeader ?? true) && this.jwtHeaderOnly(opts);
      if (plugin.pkg === METRICS_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default')) this.metrics(op, opts, frame);
      if (plugin.pkg === SWAGGER_UI_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default' || p === 'fastifySwaggerUi')) this.swaggerUi(op, opts, frame);
      if (plugin.pkg === SCALAR_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default')) this.scalar(op, opts, frame);
      if (plugin.pkg === HTTP_PROXY_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default' || p === 'fastifyHttpProxy')) this.httpProxy(op, opts, frame);
      if (plugin.pkg === STATIC_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default' || p === 'fastifyStatic')) this.staticFiles(op, opts, frame);
      if (plugin.pkg === MERCURIUS_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default' || p === 'mercurius')) this.mercurius(op, opts, frame);
      if (plugin.pkg === APOLLO_PACKAGE && plugin.called && plugin.path.length === 1 && plugin.path[0] === 'fastifyApollo') this.apollo(op, opts, frame);
      if (plugin.pkg === TRPC_PACKAGE && !plugin.called && plugin.path.length === 1 && plugin.path[0] === 'fastifyTRPCPlugin') this.trpc(op, opts, frame);
      if (TRPC_OPENAPI.includes(plugin.pkg) && !plugin.called && plugin.path.length === 1 && plugin.path[0] === 'fastifyTRPCOpenApiPlugin') this.trpcOpenApi(op, plugin.pkg, opts, frame);
      if (plugin.pkg === BEARER_AUTH_PACKAGE && !plugin.called && plugin.path.every((p) => p === 'default' || p === 'fastifyBearerAuth')) this.bearerAuth(op, plugin, opts, frame);
      return;
    }
    if (plugin.t !== 'fn') {
      this.ctx.warn(file, reg.at, `plugin not known statically (${valueNote(plugin)}); the routes it registers are unknown`, reg.snippet);
      return;
    }
    let prefixes = [''];
    // why the prefix is not known statically: the step that stands for it in the routes' prefixes
    let unknown: string | null = null;
    if (!skipOverride) {
      const p = opts?.t === 'obj' && 'prefix' in opts.props ? this.ctx.ev.member(opts, 'prefix', 0) : opts?.t === 'unknown' || opts?.t === 'param' ? opts : null;
      // one of a few (`legacy ? '/v1' : '/v2'`): the plugin's routes under each
      const known = p ? pathChoices(p) : null;
      // (a known rest after a head not known statically, `${base}/api/v1`, or known text before it,
      // `/api/${version}`: the routes under what is known, the head a step of their prefixes)
      const written = opts?.t === 'obj' ? opts.props['prefix'] : undefined;
      const whole = !known && p && written && opts?.t === 'obj' ? this.heads.pathOf(opts.file, written, p) : null;
      const head = whole && (whole.lead !== '' || whole.tail !== '') ? whole : null;
      if (known) prefixes = known;
      else if (head) prefixes = [joinPath(head.lead, head.tail)];
      if (!known && p) unknown = head ? head.note : pathNote(p);
      if (unknown !== null) this.ctx.warn(file, reg.at, `the prefix of this plugin is not known statically (${unknown}); the routes it registers are listed without ${head ? 'that part' : 'it'}`, reg.snippet);
    }
    // (Fastify hands a plugin registered without options an empty object)
    const site: CallSite = { file: plugin.file, fn: plugin.fn, argsFile: file, args: [reg.target, reg.args[1] ?? { k: 'obj', props: {} }] };
    for (const prefix of prefixes) this.enter(plugin, skipOverride ? null : prefix, opts, frame.ctx, op, this.conditionsOf(op, frame), unknown, site);
  }

  /** @fastify/swagger loaded into a context (it skips encapsulation): the routes declared there from now on are published. */
  private swagger(pkg: string, opts: Value | null, ctx: Context): void {
    if (opts?.t === 'obj' && this.str(opts, 'mode') === 'static') return;
    const hiddenTag = opts?.t === 'obj' ? this.str(opts, 'hiddenTag') : null;
    const hideUntagged = opts?.t === 'obj' ? bool(this.ctx.ev.member(opts, 'hideUntagged', 0)) : undefined;
    ctx.swaggerOwn = { pkg, hiddenTag: hiddenTag ?? 'X-HIDDEN', hideUntagged: hideUntagged ?? false };
  }

  /**
   * fastify-metrics (9 and later, read at v13.2 src/fastify-metrics.ts `registerMetricsRoute`):
   * the plugin, wrapped in fastify-plugin, declares in the context that registers it `GET` at
   * its `endpoint` option (default `/metrics`; `null`: no route), or, when `endpoint` is route
   * options, a route with them, its method made GET and its handler the plugin's own.
   */
  private metrics(op: Op, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const endpoint = opts === null ? undefined : this.optionOf(opts, 'endpoint', frame);
    if (isNull(endpoint)) return;
    const options = endpoint?.t === 'obj' ? endpoint : null;
    const url = endpoint === undefined ? { t: 'str' as const, v: '/metrics' } : options ? (this.optionOf(options, 'url', frame) ?? this.optionOf(options, 'path', frame)) : endpoint;
    const urls = url ? stringsOf(url) : null;
    if (!urls || urls.length !== 1) {
      this.ctx.warn(file, reg.at, `the endpoint ${METRICS_PACKAGE} serves is not known statically (${url ? pathNote(url) : 'no url'}); its route is left out`, reg.snippet);
      return;
    }
    this.declare(op, frame.ctx, ['GET'], urls, options, null, null, this.conditionsOf(op, frame), METRICS_PACKAGE);
  }

  /**
   * @fastify/swagger-ui (read at 6.1.3, index.js and lib/routes.js; a fastify-plugin): its
   * routes plugin, registered in the registering context with the prefix `routePrefix`
   * ('/documentation' unless given), declares GET `/` (the page), `/static/index.html`,
   * `/static/swagger-initializer.js`, `/json`, `/yaml`, the UI's assets (`/static/*`, through
   * @fastify/static) and, with `baseDir`, `/*` — each with `schema: { hide: true }` and the
   * `onRequest` / `preHandler` hooks of `uiHooks`.
   */
  private swaggerUi(op: Op, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const given = opts === null ? undefined : this.optionOf(opts, 'routePrefix', frame);
    const prefixes = given === undefined ? ['/documentation'] : stringsOf(given);
    if (!prefixes || prefixes.length !== 1) {
      this.ctx.warn(file, reg.at, `the routePrefix of ${SWAGGER_UI_PACKAGE} is not known statically (${given ? pathNote(given) : 'none'}); its routes are left out`, reg.snippet);
      return;
    }
    const options = hiddenWithHooks(opts === null ? undefined : this.optionOf(opts, 'uiHooks', frame), file);
    const baseDir = opts === null ? undefined : this.optionOf(opts, 'baseDir', frame);
    const urls = baseDir === undefined ? SWAGGER_UI_URLS : [...SWAGGER_UI_URLS, '/*'];
    this.declare(op, this.childOf(frame.ctx, prefixes[0]!, op), ['GET'], urls, options, null, null, this.conditionsOf(op, frame), SWAGGER_UI_PACKAGE);
  }

  /**
   * @scalar/fastify-api-reference (read at 1.x, src/fastifyApiReference.ts; a fastify-plugin):
   * declares, in the registering context, GET at `routePrefix` ('/reference' unless given, its
   * end slash cut) + `/` (the page), + `/js/scalar.js`, + the document's two endpoints
   * (`openApiDocumentEndpoints`, '/openapi.json' and '/openapi.yaml' unless given) and, unless
   * the app ignores trailing slashes, the prefix itself (a redirect to the page) — each with
   * `schema: { hide: true }` and the `onRequest` / `preHandler` hooks of `hooks`.
   */
  private scalar(op: Op, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const option = (o: Value | null, key: string): Value | undefined => (o === null ? undefined : this.optionOf(o, key, frame));
    const given = option(opts, 'routePrefix');
    const prefixes = given === undefined ? ['/reference'] : stringsOf(given);
    const endpoints = option(opts, 'openApiDocumentEndpoints') ?? null;
    const json = option(endpoints, 'json');
    const yaml = option(endpoints, 'yaml');
    const documents = [json === undefined ? ['/openapi.json'] : stringsOf(json), yaml === undefined ? ['/openapi.yaml'] : stringsOf(yaml)];
    if (!prefixes || prefixes.length !== 1 || documents.some((d) => !d || d.length !== 1)) {
      this.ctx.warn(file, reg.at, `the routes of ${SCALAR_PACKAGE} are not known statically (${given && !prefixes ? pathNote(given) : 'its routePrefix or document endpoints'}); they are left out`, reg.snippet);
      return;
    }
    const prefix = prefixes[0]!.replace(/\/$/, '');
    const options = hiddenWithHooks(option(opts, 'hooks'), file);
    const urls = [`${prefix}/`, `${prefix}/js/scalar.js`, ...documents.map((d) => prefix + d![0]!), ...(this.app.init.strict && prefix ? [prefix] : [])];
    this.declare(op, frame.ctx, ['GET'], urls, options, null, null, this.conditionsOf(op, frame), SCALAR_PACKAGE);
  }

  /**
   * mercurius (read at 16.10.0, index.js and lib/routes.js; a fastify-plugin): unless `routes` is
   * false, it registers its routes plugin with the prefix `prefix`, which declares GET and POST
   * at `path` ('/graphql' unless given), with its CSRF prevention when `csrfPrevention` is on
   * (package-handlers.ts), and, with `graphiql` (or `ide`) true or 'graphiql', the GraphiQL page
   * and its three files under `/graphiql`.
   */
  private mercurius(op: Op, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const option = (key: string): Value | undefined => (opts === null ? undefined : this.optionOf(opts, key, frame));
    if (bool(option('routes')) === false) return;
    const path = this.endpointPaths(op, option('path'), '/graphql', MERCURIUS_PACKAGE);
    if (path === null) return;
    const child = this.endpointContext(op, option('prefix'), frame, MERCURIUS_PACKAGE);
    const when = this.conditionsOf(op, frame);
    this.declare(op, child, ['GET', 'POST'], [path], null, null, null, when, MERCURIUS_PACKAGE, { guards: mercuriusCsrf(this.ctx.ev, opts, file, reg.at.line) });
    const ide = option('graphiql') ?? option('ide');
    if (ide === undefined) return;
    const on = ide.t === 'bool' ? ide.v : ide.t === 'str' ? ide.v === 'graphiql' : ide.t === 'obj' ? (ide.props['enabled'] === undefined ? true : (bool(this.ctx.ev.member(ide, 'enabled', 0)) ?? null)) : null;
    if (on === null) this.ctx.warn(file, reg.at, `whether ${MERCURIUS_PACKAGE} serves its GraphiQL page is not known statically (${pathNote(ide)}); those routes are left out`, reg.snippet);
    else if (on) this.declare(op, child, ['GET'], GRAPHIQL_URLS, null, null, null, when, MERCURIUS_PACKAGE);
  }

  /**
   * @as-integrations/fastify (read at 2.x and 3.x, src/plugin.ts): `fastifyApollo(server)` is a
   * fastify-plugin that declares, in the context registering it, a route at `path`
   * ('/graphql' unless given) for the methods `method` (GET and POST unless given).
   */
  private apollo(op: Op, opts: Value | null, frame: Frame): void {
    const option = (key: string): Value | undefined => (opts === null ? undefined : this.optionOf(opts, key, frame));
    const path = this.endpointPaths(op, option('path'), '/graphql', APOLLO_PACKAGE);
    const given = option('method');
    const methods = given === undefined ? ['GET', 'POST'] : stringsOf(given)?.map((m) => m.toUpperCase());
    if (!methods) this.ctx.warn(op.file, op.reg.at, `the methods ${APOLLO_PACKAGE} serves are not known statically (${pathNote(given!)}); its route is left out`, op.reg.snippet);
    if (path === null || !methods) return;
    // (its handler is the plugin's, the server's CSRF prevention its guard: package-handlers.ts)
    const handler = { value: this.pluginValue(op, op.reg.args[0]!), expr: op.reg.args[0]!, file: op.file };
    this.declare(op, frame.ctx, methods, [path], null, handler, null, this.conditionsOf(op, frame), APOLLO_PACKAGE);
  }

  /**
   * tRPC's `fastifyTRPCPlugin` (@trpc/server/adapters/fastify, read at 10.45 and 11.x): a plain
   * plugin, so in a child context under the `prefix` it is registered with, declaring every
   * method at `/:path` (the procedure) and, with `useWSS`, GET `/` for the WebSocket. With the
   * router of its `trpcOptions` known, `/:path` is a route per procedure (trpc.ts), at
   * `/<procedure>`, for its kind's method, named and located as the procedure.
   */
  private trpc(op: Op, opts: Value | null, frame: Frame): void {
    const option = (key: string): Value | undefined => (opts === null ? undefined : this.optionOf(opts, key, frame));
    const child = this.endpointContext(op, option('prefix'), frame, TRPC_PACKAGE);
    const when = this.conditionsOf(op, frame);
    const found = trpcProcedures(this.ctx.ev, optionsRouter(option('trpcOptions')), option('trpcOptions'));
    if ('why' in found) {
      this.ctx.warn(op.file, op.reg.at, trpcUnread(found.why), op.reg.snippet);
      this.declare(op, child, ['ALL'], ['/:path'], null, null, null, when, TRPC_PACKAGE);
    } else
      for (const p of found.procedures)
        this.declare(op, child, procedureMethods(this.ctx.ev, p.kind, option('trpcOptions')), [`/${p.path}`], null, p.resolver, null, when, p.path, { guards: middlewareGuards(this.ctx, p), place: { file: p.file, at: p.at } });
    if (bool(option('useWSS'))) this.declare(op, child, ['GET'], ['/'], null, null, null, when, TRPC_PACKAGE);
  }

  /**
   * trpc-openapi's `fastifyTRPCOpenApiPlugin` (trpc-openapi 1.2 and trpc-to-openapi 3.2,
   * src/adapters/fastify.ts): a plain plugin, so in a child context under the `prefix` it is
   * registered with, declaring `<basePath>/*` (a slash at its end dropped) for every method
   * (those of `OPENAPI_FIVE_METHODS`: GET, POST, PATCH, PUT and DELETE). With the router of its
   * options known, that is a route per procedure it serves over REST (trpc-openapi.ts), at
   * `basePath` and its `openapi.path`, for its `openapi.method`, named and located as the
   * procedure.
   */
  private trpcOpenApi(op: Op, pkg: string, opts: Value | null, frame: Frame): void {
    const option = (key: string): Value | undefined => (opts === null ? undefined : this.optionOf(opts, key, frame));
    const child = this.endpointContext(op, option('prefix'), frame, pkg);
    const when = this.conditionsOf(op, frame);
    const basePath = this.endpointPaths(op, option('basePath'), '', pkg);
    if (basePath === null) return;
    const base = basePath.replace(/\/$/, '');
    const routes = openApiRoutes(this.ctx, { pkg, router: optionsRouter(opts ?? undefined), options: opts ?? undefined, endpoint: null }, base || '/', () => true, { file: op.file, at: op.reg.at, snippet: op.reg.snippet });
    if (!routes) {
      this.declare(op, child, OPENAPI_FIVE_METHODS.has(pkg) ? ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] : ['ALL'], [`${base}/*`], null, null, null, when, pkg);
      return;
    }
    for (const { procedure: p, method, path } of routes) this.declare(op, child, [method], [path], null, p.resolver, null, when, p.path, { guards: middlewareGuards(this.ctx, p), place: { file: p.file, at: p.at } });
  }

  /**
   * The child context a package's plugin declares its routes in, under its `prefix` option; one
   * not known statically is a step of the routes' prefixes (they are listed without it), as a
   * plugin's own `prefix` is (`load`).
   */
  private endpointContext(op: Op, given: Value | undefined, frame: Frame, pkg: string): Context {
    const prefixes = given === undefined ? [''] : stringsOf(given);
    if (prefixes?.length === 1) return this.childOf(frame.ctx, prefixes[0]!, op);
    const unknown = pathNote(given!);
    this.ctx.warn(op.file, op.reg.at, `the prefix of ${pkg} is not known statically (${unknown}); the routes it registers are listed without it`, op.reg.snippet);
    return this.childOf(frame.ctx, '', op, unknown);
  }

  /** A path option of a package's plugin, `fallback` when not given; null (with a warning) when not known statically. */
  /**
   * @fastify/static (read at 6.12.0 and 8.3.0, index.js; a fastify-plugin): unless `serve` is
   * false, it declares in the registering context GET and HEAD at `prefix` ('/' unless given, a
   * slash put at its end unless `prefixAvoidTrailingSlash`) followed by `*`, hidden from the API
   * docs unless `schemaHide` is false, and, with `redirect` true and that slash put, GET at the
   * prefix as given (a redirect to the other). With `wildcard` false it declares a route for each
   * file it finds under `root` when the server starts: not known statically, left out and warned.
   */
  private staticFiles(op: Op, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const option = (key: string): Value | undefined => (opts === null ? undefined : this.optionOf(opts, key, frame));
    const flag = (key: string, fallback: boolean): boolean | null => {
      const v = option(key);
      return v === undefined ? fallback : (bool(v) ?? null);
    };
    const serve = flag('serve', true);
    if (serve === false) return;
    const wildcard = flag('wildcard', true);
    if (serve === null || wildcard !== true) {
      const what = serve === null ? 'whether it serves files' : wildcard === false ? 'the files it serves (`wildcard: false`: a route for each file found under its root when the server starts)' : 'whether it serves its files through one wildcard route';
      this.ctx.warn(file, reg.at, `${what} is not known statically; the routes ${STATIC_PACKAGE} declares are left out`, reg.snippet);
      return;
    }
    const given = this.endpointPaths(op, option('prefix'), '/', STATIC_PACKAGE);
    const avoidSlash = flag('prefixAvoidTrailingSlash', false);
    const hidden = flag('schemaHide', true);
    const redirect = flag('redirect', false);
    if (given === null || avoidSlash === null || hidden === null || redirect === null) {
      if (given !== null) this.ctx.warn(file, reg.at, `the options prefixAvoidTrailingSlash, schemaHide and redirect of ${STATIC_PACKAGE} are not known statically; its routes are left out`, reg.snippet);
      return;
    }
    const prefix = avoidSlash || given.endsWith('/') ? given : `${given}/`;
    const options: Value | null = hidden ? hiddenWithHooks(undefined, file) : null;
    const when = this.conditionsOf(op, frame);
    this.declare(op, frame.ctx, ['GET', 'HEAD'], [`${prefix}*`], options, null, null, when, STATIC_PACKAGE);
    if (redirect && prefix !== given) this.declare(op, frame.ctx, ['GET'], [given], options, null, null, when, STATIC_PACKAGE);
  }

  private endpointPaths(op: Op, given: Value | undefined, fallback: string, pkg: string): string | null {
    if (given === undefined) return fallback;
    const paths = stringsOf(given);
    if (paths?.length === 1) return paths[0]!;
    this.ctx.warn(op.file, op.reg.at, `a path ${pkg} serves is not known statically (${pathNote(given)}); its routes are left out`, op.reg.snippet);
    return null;
  }

  /**
   * @fastify/http-proxy (read at 11.6.3, index.js; a fastify-plugin that keeps encapsulation, so
   * its `prefix` applies): in a child of the registering context, each of `routes` (`/` and `/*`
   * unless given) for each of `httpMethods` (DELETE, GET, HEAD, PATCH, POST, PUT, OPTIONS unless
   * given), answered by the upstream server, behind `preHandler` (`beforeHandler`) and the
   * `preValidation` hook it adds there.
   */
  private httpProxy(op: Op, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const option = (key: string): Value | undefined => (opts === null ? undefined : this.optionOf(opts, key, frame));
    const prefix = option('prefix');
    const prefixes = prefix === undefined ? [''] : stringsOf(prefix);
    const methodsGiven = option('httpMethods');
    const methods = methodsGiven === undefined ? HTTP_PROXY_METHODS : stringsOf(methodsGiven)?.map((m) => m.toUpperCase());
    const routes = option('routes');
    const urls = routes === undefined ? HTTP_PROXY_URLS : stringsOf(routes);
    if (!prefixes || prefixes.length !== 1 || !methods || !urls) {
      const what = !prefixes || prefixes.length !== 1 ? 'prefix' : !methods ? 'httpMethods' : 'routes';
      this.ctx.warn(file, reg.at, `the ${what} of ${HTTP_PROXY_PACKAGE} is not known statically; its routes are left out`, reg.snippet);
      return;
    }
    const hooks: Record<string, Expr> = {};
    const given = opts?.t === 'obj' ? opts : null;
    if (given) {
      const pre = given.props['preHandler'] ?? given.props['beforeHandler'];
      if (pre) hooks['preHandler'] = pre;
      if (given.props['preValidation']) hooks['preValidation'] = given.props['preValidation'];
    }
    const options: Value = { t: 'obj', file: given?.file ?? file, props: hooks };
    this.declare(op, this.childOf(frame.ctx, prefixes[0]!, op), methods, urls, options, null, null, this.conditionsOf(op, frame), HTTP_PROXY_PACKAGE);
  }

  /** A context for an encapsulated plugin registered with `prefix` in `parent` (or with one not known statically, `unknown` saying why). */
  private childOf(parent: Context, prefix: string, op: Op, unknown: string | null = null): Context {
    const step: PrefixStep | null = unknown !== null ? { prefix: '', file: op.file, line: op.reg.at.line, unknown } : prefix !== '' ? { prefix, file: op.file, line: op.reg.at.line } : null;
    const child: Context = {
      parent,
      prefix: buildRoutePrefix(parent.prefix, prefix),
      prefixes: step ? [...parent.prefixes, step] : parent.prefixes,
      inherited: [...parent.inherited, ...parent.own, ...parent.late],
      own: [],
      late: [],
      children: [],
      swaggerInherited: parent.swaggerOwn ?? parent.swaggerInherited,
      swaggerOwn: null,
      decorations: new Map(),
    };
    parent.children.push(child);
    return child;
  }

  /** A lifecycle hook added to context `c`: its own, and handed on to every child context made so far (fastify.js `_addHook`). */
  private hook(c: Context, h: HookUse): void {
    c.own.push(h);
    const handOn = (d: Context): void => {
      for (const child of d.children) {
        child.late.push(h);
        handOn(child);
      }
    };
    handOn(c);
  }

  /**
   * Run a plugin function registered in `parent`: in a child context under `prefix`, or in
   * `parent` itself when it skips encapsulation (`prefix` null: fastify-plugin, autoload's hooks).
   */
  private enter(plugin: { file: string; fn: number }, prefix: string | null, opts: Value | null, parent: Context, op: Op, when: Conditions, unknown: string | null = null, site?: CallSite): void {
    const { reg, file } = op;
    const child = prefix === null ? parent : this.childOf(parent, prefix, op, unknown);
    const key = fnKey(plugin.file, plugin.fn);
    if (this.stack.includes(key) || this.stack.length > 64) {
      this.ctx.warn(file, reg.at, `plugin registers itself (a cycle); its routes are listed once`, reg.snippet);
      return;
    }
    // the route-graph budget: a plugin registered twice in each of its parents multiplies
    if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
    this.stack.push(key);
    this.body(this.pluginOps(plugin.file, plugin.fn, 0), { ctx: child, opts, fn: { file: plugin.file, fn: plugin.fn }, when, ...(site ? { site } : {}) });
    this.stack.pop();
  }

  /**
   * `register(autoload, { dir, … })`: autoload skips encapsulation, so what it loads is
   * registered in this context — each directory's plugin files in turn, and a directory with
   * hook files as one plugin of its own (under its plugins' common prefix) whose hooks run in
   * it before its plugins load (index.js `registerNode`).
   */
  private autoload(op: Op, pkg: string, opts: Value | null, frame: Frame): void {
    const { reg, file } = op;
    const ev = this.ctx.ev;
    const leftOut = (why: string): void => this.ctx.warn(file, reg.at, `the files ${pkg} loads are not known statically (${why}); the routes they register are left out`, reg.snippet);
    if (opts?.t !== 'obj') return leftOut(opts ? valueNote(opts) : 'no options');
    const dirExpr = opts.props['dir'];
    if (!dirExpr) return leftOut('no dir option');
    const where = directoryOf(ev, opts.file, dirExpr, this.ctx.project.packageOf(opts.file).dir);
    if ('why' in where) return leftOut(`dir: ${where.why}`);
    const flag = (key: string, fallback: boolean): boolean | string => {
      const v = this.optionOf(opts, key, frame);
      return v === undefined ? fallback : v.t === 'bool' ? v.v : `${key}: ${valueNote(v)}`;
    };
    const pattern = (key: string, fallback: RegExp | null, strings: 'pattern' | 'filter' | 'none'): PathFilter | null | { why: string } => {
      const v = this.optionOf(opts, key, frame);
      if (v === undefined) return fallback;
      if (v.t === 'str' && strings === 'filter') return v.v;
      // (a function of the code, `(p) => p.endsWith('.router.v1.ts')`: asked for each path)
      if (v.t === 'fn' && strings === 'filter') return (p: string) => ev.returnsTruthy(v, [{ k: 'str', v: p }], opts.file);
      if (v.t === 're' || (v.t === 'str' && strings === 'pattern')) {
        try {
          return v.t === 're' ? new RegExp(v.source, v.flags) : new RegExp(v.v);
        } catch {
          return { why: `${key}: not a valid regular expression` };
        }
      }
      return { why: `${key}: ${valueNote(v)}` };
    };
    const flags = {
      dirNameRoutePrefix: flag('dirNameRoutePrefix', true),
      autoHooks: flag('autoHooks', false),
      cascadeHooks: flag('cascadeHooks', false),
      overwriteHooks: flag('overwriteHooks', false),
      routeParams: flag('routeParams', false),
      encapsulate: flag('encapsulate', true),
    };
    const patterns = {
      indexPattern: pattern('indexPattern', AUTOLOAD_DEFAULTS.indexPattern, 'none'),
      scriptPattern: pattern('scriptPattern', AUTOLOAD_DEFAULTS.scriptPattern, 'none'),
      autoHooksPattern: pattern('autoHooksPattern', AUTOLOAD_DEFAULTS.autoHooksPattern, 'none'),
      ignorePattern: pattern('ignorePattern', null, 'pattern'),
      matchFilter: pattern('matchFilter', null, 'filter'),
      ignoreFilter: pattern('ignoreFilter', null, 'filter'),
    };
    for (const v of Object.values(flags)) if (typeof v === 'string') return leftOut(v);
    for (const v of Object.values(patterns)) if (v !== null && typeof v === 'object' && 'why' in v) return leftOut(v.why);
    const depth = this.optionOf(opts, 'maxDepth', frame);
    if (depth !== undefined && depth.t !== 'num') return leftOut(`maxDepth: ${valueNote(depth)}`);
    // `options`: given to every plugin file, its `prefix` before the directory's. One not known
    // statically (`options: config`, its prefix read from the environment) is a step of the
    // routes' prefixes of each plugin it applies to: they are listed without it.
    const overrideExpr = opts.props['options'];
    const overridePrefix = overrideExpr ? this.sourcesOf(opts.file, overrideExpr, frame, 'prefix', 0) : undefined;
    const unknownPrefix = overridePrefix !== undefined && overridePrefix.t !== 'str' ? `options.prefix: ${pathNote(overridePrefix)}` : null;
    const nodes = autoloadTree(this.ctx.project.files, {
      dir: where.dir,
      ...(flags as Record<keyof typeof flags, boolean>),
      ...(patterns as { indexPattern: RegExp; scriptPattern: RegExp; autoHooksPattern: RegExp; ignorePattern: RegExp | null; matchFilter: PathFilter | null; ignoreFilter: PathFilter | null }),
      maxDepth: depth?.t === 'num' ? depth.v : Infinity,
    });
    if (nodes === null) return leftOut('matchFilter or ignoreFilter: a function whose answer is not known statically');
    if (nodes.every((n) => n.plugins.length === 0)) {
      this.ctx.warn(file, reg.at, `${pkg} loads ${where.dir || 'the root directory'}, which holds no analysed plugin file`, reg.snippet);
      return;
    }
    const override = overrideExpr ? this.optionValue(opts.file, overrideExpr, frame) : null;
    const pluginOpts = override?.t === 'obj' ? override : null;
    let warned = false;
    for (const node of nodes) {
      const loaded = node.plugins.flatMap((p) => {
        const plugin = this.autoloaded(op, pkg, p.file);
        if (!plugin) return [];
        const own = 'fn' in plugin ? plugin : null;
        // (the options' prefix, known or not, wins over the file's autoConfig one; a prefixOverride over both)
        const unknown = unknownPrefix !== null && own?.prefixOverride === undefined ? unknownPrefix : null;
        const optionsPrefix = unknownPrefix !== null ? '' : overridePrefix?.t === 'str' ? overridePrefix.v : plugin.configPrefix;
        const prefix = pluginPrefix(optionsPrefix, p.prefix, own?.autoPrefix, own?.prefixOverride, flags.routeParams === true);
        return [{ plugin, prefix, unknown }];
      });
      if (loaded.length === 0) continue;
      let ctx = frame.ctx;
      let common: string | undefined;
      // (a directory with hooks is one plugin under its plugins' common prefix: the unknown head too, when each has it)
      const hooksUnknown = node.hooks.length > 0 && loaded.every((p) => p.unknown !== null) ? unknownPrefix : null;
      // an unknown prefix matters only to the plugins it puts their routes under (not fastify-plugin ones)
      const under = (p: (typeof loaded)[number]): boolean => 'fn' in p.plugin && !p.plugin.skipOverride && flags.encapsulate !== false && p.unknown !== null;
      if (!warned && unknownPrefix !== null && (hooksUnknown !== null || loaded.some(under))) {
        warned = true;
        this.ctx.warn(file, reg.at, `the prefix of the plugins ${pkg} loads is not known statically (${unknownPrefix}); the routes they register are listed without it`, reg.snippet);
      }
      if (node.hooks.length > 0) {
        common = commonPrefix(loaded.map((p) => p.prefix));
        ctx = this.childOf(ctx, common ?? '', op, hooksUnknown);
        for (const hookFile of node.hooks) {
          const hook = this.autoloaded(op, pkg, hookFile);
          if (hook && 'fn' in hook) this.enter(hook.fn, null, null, ctx, op, this.conditionsOf(op, frame));
        }
      }
      for (const { plugin, prefix: full, unknown } of loaded) {
        if ('pkg' in plugin) {
          if (SWAGGER_PACKAGES.has(plugin.pkg)) this.swagger(plugin.pkg, plugin.config, ctx);
          continue;
        }
        const prefix = common !== undefined && full?.startsWith(common) ? full.slice(common.length) : full;
        const encapsulated = !plugin.skipOverride && flags.encapsulate !== false;
        this.enter(plugin.fn, encapsulated ? prefix ?? '' : null, pluginOpts, ctx, op, this.conditionsOf(op, frame), encapsulated && hooksUnknown === null ? unknown : null);
      }
    }
  }

  /** What autoload takes from a file: its default export as a plugin, and the settings it exports beside it. */
  private autoloaded(op: Op, pkg: string, file: string): Autoloaded | null {
    const ev = this.ctx.ev;
    const facts = this.ctx.files.get(file);
    if (!facts) return null;
    const exported = (name: string): Value | undefined => (facts.exports.some((x) => x.exported === name) ? ev.exportValue(file, name, 0) : undefined);
    const warn = (why: string): null => {
      this.ctx.warn(op.file, op.reg.at, `${pkg} loads ${file}, whose ${why}; its routes are left out`, op.reg.snippet);
      return null;
    };
    // a file without a default export is skipped by autoload (it is no plugin)
    const exportedPlugin = exported('default');
    if (exportedPlugin === undefined) return null;
    const off = exported('autoload');
    if (off?.t === 'bool' && !off.v) return null;
    const { plugin, skipOverride } = unwrapFastifyPlugin(this.ctx.ev, exportedPlugin);
    const config = exported('autoConfig');
    const configPrefix = config?.t === 'obj' ? this.optionOf(config, 'prefix', null) : undefined;
    if (configPrefix !== undefined && configPrefix.t !== 'str') return warn(`autoConfig.prefix is not known statically (${valueNote(configPrefix)})`);
    const configured = configPrefix ? { configPrefix: configPrefix.v } : {};
    // a package's plugin (`export default cors`): no application routes; @fastify/swagger publishes them
    if (plugin.t === 'pkg' && !plugin.called) return { pkg: plugin.pkg, config: config ?? null, ...configured };
    if (plugin.t !== 'fn') return warn(`default export is not a plugin function known statically (${valueNote(plugin)})`);
    const text = (name: string): string | undefined | { why: string } => {
      const v = exported(name);
      return v === undefined ? undefined : v.t === 'str' ? v.v : { why: `${name} export: ${valueNote(v)}` };
    };
    const autoPrefix = text('autoPrefix');
    const prefixOverride = text('prefixOverride');
    for (const v of [autoPrefix, prefixOverride]) if (typeof v === 'object') return warn(v.why);
    return {
      fn: { file: plugin.file, fn: plugin.fn },
      skipOverride,
      ...(typeof autoPrefix === 'string' ? { autoPrefix } : {}),
      ...(typeof prefixOverride === 'string' ? { prefixOverride } : {}),
      ...configured,
    };
  }

  /**
   * A property of an options object; undefined when it has none. Spreads of the plugin's own
   * options (`{ ...opts }`) read the options it was registered with, as do the sources of
   * `Object.assign({}, opts, { … })`, the last one that has the property winning.
   */
  private optionOf(obj: Value, key: string, frame: Frame | null, depth = 0): Value | undefined {
    if (obj.t !== 'obj') return obj.t === 'unknown' || obj.t === 'param' || depth > 8 ? obj : undefined;
    const keys = Object.keys(obj.props);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      if (k === key) return this.optionValue(obj.file, obj.props[k]!, frame) ?? undefined;
      if (!k.startsWith('*spread*')) continue;
      const found = this.sourcesOf(obj.file, obj.props[k]!, frame, key, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** `key` of the options an expression makes, through `Object.assign` and spreads of the plugin's own options. */
  private sourcesOf(file: string, e: Expr, frame: Frame | null, key: string, depth: number): Value | undefined {
    if (e.k === 'call' && this.ctx.ev.objectMethod(file, e.callee) === 'assign') {
      for (let i = e.args.length - 1; i >= 0; i--) {
        const found = this.sourcesOf(file, e.args[i]!, frame, key, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    const v = this.optionValue(file, e, frame);
    return v === null ? undefined : this.optionOf(v, key, frame, depth);
  }

  /** An options value: the plugin's own options for its parameter (null when registered with none). */
  private optionValue(file: string, e: Expr, frame: Frame | null): Value | null {
    const v = this.ctx.ev.eval(file, e);
    if (frame?.fn && isBareParam(v) && v.file === frame.fn.file && v.fn === frame.fn.fn && v.index === 1) return frame.opts;
    return v;
  }

  /** `register(import('./routes/sites.js'))` awaits the module and uses its default export. */
  private pluginValue(op: Op, e: Expr): Value {
    if (e.k === 'call' && e.callee.k === 'ref' && e.callee.name === 'import' && e.args[0]?.k === 'str')
      return this.ctx.ev.importValue(op.file, e.args[0].v, 'default', 0);
    return this.ctx.ev.eval(op.file, e);
  }

  /**
   * The registrations a function makes on its parameter `index` (the plugin's instance), in
   * source order, with those of helpers it passes the instance to (`registerSites(fastify)`)
   * in place of the call.
   */
  private pluginOps(file: string, fn: number, index: number, depth = 0): Op[] {
    this.ctx.boundFunctions.add(fnKey(file, fn));
    const out: { op: Op; at: Loc; sub: number }[] = [];
    for (const p of this.ctx.paramRegistrations.get(fnKey(file, fn)) ?? []) if (p.index === index) out.push({ op: { reg: p.reg, file: p.file }, at: p.reg.at, sub: 0 });
    if (depth < 16) {
      for (const call of this.ctx.files.get(file)?.calls ?? []) {
        const argIndex = call.args.findIndex((a) => {
          const v = this.ctx.ev.eval(file, a);
          return isBareParam(v) && v.file === file && v.fn === fn && v.index === index;
        });
        if (argIndex < 0) continue;
        const callee = this.ctx.ev.eval(file, call.callee);
        if (callee.t !== 'fn') continue;
        // (under a condition known to fail, the call is never made)
        const when = this.ctx.callConditions(file, call);
        if (when === null) continue;
        // (what the helper registers reads its other parameters as this call passes them: `registerResource(api, 'sites')`)
        const atCall = (op: Op): Op[] => (op.file === callee.file ? registrationAtCall(this.ctx.ev, op.reg, callee, file, call).map((reg) => ({ ...op, reg })) : [op]);
        this.pluginOps(callee.file, callee.fn, argIndex, depth + 1)
          .flatMap(atCall)
          .forEach((op, i) => out.push({ op: when.size === 0 ? op : { ...op, when: new Map([...when, ...(op.when ?? [])]) }, at: call.at, sub: i + 1 }));
      }
    }
    for (const op of this.adopted.get(fnKey(file, fn)) ?? []) out.push({ op, at: op.reg.at, sub: 0 });
    out.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column || a.sub - b.sub);
    return this.adopt(file, fn, out.map((o) => o.op));
  }

  /**
   * The ops of a body but the `register` calls made inside a plugin it registers, written in
   * place (`fastify.register(async (f) => { await fastify.register(requestContext); … }, { prefix
   * })`): avvio queues a `register` in the plugin loading when it is called (avvio's `_current`),
   * so `requestContext` is the inner plugin's, and its hooks guard the inner plugin's routes
   * only. They are kept for that plugin's body (`adopted`).
   */
  private adopt(file: string, fn: number, ops: Op[]): Op[] {
    if (!ops.some((op) => op.reg.method === 'register')) return ops;
    const facts = this.ctx.files.get(file);
    if (!facts) return ops;
    // the plugins this body registers that are written in its file, by function id
    const plugins = new Set<number>();
    for (const op of ops) {
      if (op.reg.method !== 'register' || op.file !== file || !op.reg.args[0]) continue;
      const v = this.ctx.ev.eval(file, op.reg.args[0]);
      if (v.t === 'fn' && v.file === file && v.fn !== fn) plugins.add(v.fn);
    }
    if (plugins.size === 0) return ops;
    const fnOfScope = functionsByScope(facts);
    // the function directly inside `fn` that a scope lies in (null: in `fn` itself, or outside it)
    const childOf = (scope: number): number | null => {
      let inner: number | null = null;
      for (let s: number | null = scope; s !== null; s = facts.scopes[s]?.parent ?? null) {
        const f = fnOfScope.get(s);
        if (f === fn) return inner;
        if (f !== undefined) inner = f;
      }
      return null;
    };
    return ops.filter((op) => {
      if (op.reg.method !== 'register' || op.file !== file) return true;
      let root = op.reg.target;
      while (root.k === 'member') root = root.obj;
      const inner = root.k === 'ref' ? childOf(root.scope) : null;
      if (inner === null || !plugins.has(inner)) return true;
      const key = fnKey(file, inner);
      const kept = this.adopted.get(key) ?? [];
      // (once, however often the body around it runs)
      if (!kept.some((k) => k.reg === op.reg)) this.adopted.set(key, [...kept, op]);
      return false;
    });
  }

  private str(obj: Value, key: string): string | null {
    const v = this.ctx.ev.member(obj, key, 0);
    return v.t === 'str' ? v.v : null;
  }

  /**
   * @fastify/bearer-auth (read at 10.1, index.js): a fastify-plugin adding its check of the
   * Authorization header's bearer token as an `onRequest` hook of the context registering it
   * (`addHook: 'preParsing'` there instead; `addHook: false` adds none, only decorating the
   * instance with the check's factory).
   */
  private bearerAuth(op: Op, plugin: Value, opts: Value | null, frame: Frame): void {
    const given = opts?.t === 'obj' && Object.hasOwn(opts.props, 'addHook') ? this.ctx.ev.member(opts, 'addHook', 0) : null;
    const hook = given === null || (given.t === 'bool' && given.v) ? 'onRequest' : given.t === 'str' ? given.v : null;
    const phase = hook === null ? -1 : GUARD_HOOKS.indexOf(hook);
    if (phase >= 0) this.hook(frame.ctx, { phase, file: op.file, expr: op.reg.args[0]!, value: plugin, at: op.reg.at, when: this.conditionsOf(op, frame) });
  }

  private addHook(op: Op, c: Context, when: Conditions): void {
    const name = this.ctx.ev.eval(op.file, op.reg.args[0]!);
    if (name.t !== 'str') return;
    const phase = GUARD_HOOKS.indexOf(name.v);
    if (phase < 0) return;
    for (const it of this.ctx.ev.flatten(op.file, op.reg.args.slice(1))) this.hook(c, { phase, file: it.file, expr: it.expr, value: it.value, at: op.reg.at, when });
  }

  private decorate(op: Op, c: Context): void {
    const name = this.ctx.ev.eval(op.file, op.reg.args[0]!);
    const e = op.reg.args[1];
    if (name.t !== 'str' || !e) return;
    c.decorations.set(name.v, { file: op.file, expr: e, value: this.ctx.ev.eval(op.file, e) });
  }

  private route(op: Op, c: Context, shorthand: string | null, when: Conditions): void {
    const { reg, file } = op;
    const ev = this.ctx.ev;
    let options: Value | null = null;
    let urlValue: Value;
    // the url as written, and where
    let urlExpr: { file: string; e: Expr } | null = null;
    let handler: { value: Value; expr: Expr; file: string } | null = null;
    let methods: string[] | null;
    if (shorthand) {
      if (reg.args.length < 2) return;
      urlValue = ev.eval(file, reg.args[0]!);
      urlExpr = { file, e: reg.args[0]! };
      const second = ev.eval(file, reg.args[1]!);
      if (second.t === 'obj') options = second;
      else handler = { value: second, expr: reg.args[1]!, file };
      if (reg.args[2]) handler = { value: ev.eval(file, reg.args[2]), expr: reg.args[2], file };
      methods = [shorthand];
    } else {
      options = ev.eval(file, reg.args[0]!);
      if (options.t !== 'obj') {
        this.ctx.warn(file, reg.at, `route options not known statically (${valueNote(options)}); the route is left out`, reg.snippet);
        return;
      }
      urlValue = 'url' in options.props ? ev.member(options, 'url', 0) : ev.member(options, 'path', 0);
      const written = options.props['url'] ?? options.props['path'];
      if (written) urlExpr = { file: options.file, e: written };
      const m = stringsOf(ev.member(options, 'method', 0));
      methods = m ? m.map((x) => x.toUpperCase()) : null;
      if (!methods) {
        this.ctx.warn(file, reg.at, `route method not known statically; the route is left out`, reg.snippet);
        return;
      }
    }
    if (options?.t === 'obj' && !handler && options.props['handler']) {
      const e = options.props['handler'];
      handler = { value: ev.eval(options.file, e), expr: e, file: options.file };
    }
    let urls = stringsOf(urlValue);
    // A known rest after a head not known statically (`${base}/health`): listed at the rest, the
    // head a step of its prefixes (hooks go by context, not by path: no head to match), after the
    // known text before the head (`/v1/${base}/ping`: `/v1/ping`).
    const head = !urls && urlExpr ? this.heads.routePathOf(urlExpr.file, urlExpr.e, urlValue) : null;
    if (head) {
      this.ctx.warn(file, reg.at, `${methods.join(',')} route with a url not known statically (${head.note}); it is listed without that part`, reg.snippet);
      urls = [joinPath(head.lead, head.tail)];
    }
    // (a url is one string: a list is none; one of a few, `legacy ? '/sites' : '/projects'`, is each of them)
    if (!urls || (urls.length !== 1 && !(urlValue.t === 'unknown' && urlValue.alts))) {
      this.ctx.warn(file, reg.at, `${methods.join(',')} route with a url not known statically (${valueNote(urlValue)}); it is left out`, reg.snippet);
      return;
    }
    if (!head && handler && this.orpcRoutes(op, c, methods, urls, options, handler, when)) return;
    this.declare(op, c, methods, urls, options, handler, head ? prefixStep('', file, reg, head.note) : null, when, null);
  }

  /**
   * A route whose handler hands the request to an oRPC handler (`fastify.all('/rpc/*', async
   * (req, reply) => { const { matched } = await handler.handle(req, reply, { prefix }) … })`,
   * oRPC's documented Fastify mount; orpc.ts): each procedure it answers, at its oRPC path
   * (the request's whole path) where one of `urls` takes it, for the route's methods, behind
   * the route's hooks and the procedure's middleware, located where the procedure is written.
   * False when the handler hands no request to oRPC, or (with a warning) the endpoint is not read.
   */
  private orpcRoutes(op: Op, c: Context, methods: string[], urls: string[], options: Value | null, handler: { value: Value; expr: Expr; file: string }, when: Conditions): boolean {
    const { reg, file } = op;
    // (find-my-way: a url ending in `*` takes every path it starts; the context's prefix before each)
    const full = urls.map((u) => joinRoute(c.prefix, u, 'both', false).path);
    const takes = (path: string): boolean => full.some((u) => (u.endsWith('*') ? path.startsWith(u.slice(0, -1)) : path === u || path === `${u}/`));
    const reaching = ORPC_METHODS.filter((m) => methods.includes(m) || methods.includes('ALL'));
    const routes = orpcRoutes(this.ctx, handler.value, reaching, (path) => path.startsWith(c.prefix) && takes(path), { file, at: reg.at, snippet: reg.snippet });
    for (const { procedure: p, method, path } of routes ?? []) {
      const url = path.slice(c.prefix.replace(/\/$/, '').length) || '/';
      this.declare(op, c, [method], [url], options, p.resolver, null, when, p.keys.join('.'), { guards: middlewareGuards(this.ctx, p), place: { file: p.file, at: p.at } });
    }
    return routes !== null;
  }

  /**
   * Declare a route at each of `urls` in context `c`: its hooks and documentation read from its
   * route options (`options`), `servedBy` the package serving it when no handler of the
   * analysed code does.
   */
  private declare(
    op: Op,
    c: Context,
    methods: string[],
    urls: string[],
    options: Value | null,
    handler: PendingRoute['handler'],
    headStep: PrefixStep | null,
    when: Conditions,
    servedBy: string | null,
    own?: PendingRoute['own'],
  ): void {
    const { reg, file } = op;
    const ev = this.ctx.ev;
    const hooks: HookUse[] = [];
    let hidden = { hide: false, tags: [] as string[] };
    let prefixTrailingSlash = 'both';
    if (options?.t === 'obj') {
      const o = options;
      GUARD_HOOKS.forEach((h, phase) => {
        const e = o.props[h];
        if (e) for (const it of ev.flatten(o.file, [e])) hooks.push({ phase, file: it.file, expr: it.expr, value: it.value, at: reg.at, when });
      });
      const schema = ev.member(o, 'schema', 0);
      if (schema.t === 'obj') hidden = { hide: bool(ev.member(schema, 'hide', 0)) === true, tags: stringsOf(ev.member(schema, 'tags', 0)) ?? [] };
      prefixTrailingSlash = this.str(o, 'prefixTrailingSlash') ?? 'both';
    }
    const swagger = c.swaggerOwn ?? c.swaggerInherited;
    const published = swagger && !hidden.hide && !(hidden.tags.length === 0 && swagger.hideUntagged) && !hidden.tags.includes(swagger.hiddenTag) ? swagger : null;
    for (const url of urls) {
      const { path, bothForms } = joinRoute(c.prefix, url, prefixTrailingSlash, !this.app.init.strict);
      // find-my-way registers a path ending in an optional parameter twice: with it, and without it
      for (const form of optionalForms(path, OPTIONAL)) {
        if (!this.ctx.expand(file, reg.at, reg.snippet)) return;
        this.routes.push({
          methods,
          path: form,
          trailingSlashInsensitive: !this.app.init.strict || bothForms,
          op,
          ctx: c,
          hooks,
          handler,
          options,
          apiDocs: published,
          head: headStep,
          when,
          servedBy,
          ...(own ? { own } : {}),
        });
      }
    }
  }

  /**
   * A hook value: decorated functions (`fastify.authenticate`) resolve through the context chain.
   * A hook that is no guard itself but leads with one (`async (request) => { await
   * assertSignedIn(request) }`: what it throws ends the request) is those checks, as an Express
   * middleware doing so is (LinkContext.stageGuards).
   */
  private hookGuards(h: HookUse, c: Context, mechanism: 'route-middleware' | 'app.use' | 'router.use'): AppliedGuard[] {
    const decorated = (prop: string): Value | undefined => {
      for (let x: Context | null = c; x; x = x.parent) {
        const d = x.decorations.get(prop);
        if (d) return d.value;
      }
      return undefined;
    };
    let { file, expr, value } = h;
    // `fastify.authenticate`: a property of the instance, not a value the evaluator knows.
    if (expr.k === 'member' && (value.t === 'unknown' || value.t === 'param')) value = decorated(expr.prop) ?? value;
    // `async (request, reply) => { await fastify.verifyJWT(request, reply); await
    // fastify.verifyRole(['ADMIN'])(request, reply) }`: a hook handing its request and reply whole
    // to decorators of the instance, and doing nothing else, is those decorators, in turn
    else if (value.t === 'fn') {
      const at = value.file;
      const b = this.ctx.ev.fnOf(at, value.fn)?.behaviour;
      const handed = b && !b.sendsResponse && !b.status401 && !b.status403or404 ? (b.handsTo ?? []).map((to) => this.decoratorHanded(at, to, decorated)) : [];
      if (handed.length > 0 && handed.every((x) => x !== null)) return handed.flatMap((x) => this.guardsOf(x!.file, x!.expr, x!.value, mechanism, h.at));
    }
    return this.guardsOf(file, expr, value, mechanism, h.at);
  }

  /** A hook's value as the guards it applies (LinkContext.layerGuards), @fastify/jwt's bearer reading included. */
  private guardsOf(file: string, expr: Expr, value: Value, mechanism: 'route-middleware' | 'app.use' | 'router.use', at: Loc): AppliedGuard[] {
    const g = this.ctx.guard(file, expr, value, mechanism, at);
    return this.ctx.layerGuards(g && this.jwtBearer(g, value), value);
  }

  /**
   * The decorator a hook of `file` hands its request and reply to (`to`): one of the instance
   * (`fastify.verifyJWT`, `app.verifyJWT`), or what one returns when called
   * (`fastify.verifyRole(['ADMIN'])` of a decorator returning a function); null for anything else.
   */
  private decoratorHanded(file: string, to: Expr, decorated: (prop: string) => Value | undefined): { file: string; expr: Expr; value: Value } | null {
    const ev = this.ctx.ev;
    const member = to.k === 'call' ? to.callee : to;
    if (member.k !== 'member' || !['param', 'router', 'unknown'].includes(ev.eval(file, member.obj).t)) return null;
    const d = decorated(member.prop);
    if (!d) return null;
    if (to.k !== 'call') return { file, expr: to, value: d };
    if (d.t !== 'fn') return null;
    for (const r of ev.returnsOf(d.file, d.fn)) {
      const v = ev.eval(d.file, r);
      if (v.t === 'fn') return { file, expr: member, value: v };
    }
    return null;
  }

  /**
   * @fastify/jwt registered with `options` (read at 8.0, jwt.js `lookupToken`): does
   * `request.jwtVerify()` take the token from the Authorization header only? It takes a `Bearer`
   * header, else the cookie its `cookie` option names; a `verify.extractToken` takes it where
   * that function reads it (a header only: Behaviour.headerCredential).
   */
  private jwtHeaderOnly(options: Value | null): boolean {
    const ev = this.ctx.ev;
    if (options?.t !== 'obj' || Object.keys(options.props).some((k) => k.startsWith('*'))) return false;
    if (['cookie', 'namespace', 'jwtVerify'].some((k) => Object.hasOwn(options.props, k))) return false;
    const verify = Object.hasOwn(options.props, 'verify') ? ev.member(options, 'verify', 0) : null;
    if (verify && (verify.t !== 'obj' || Object.keys(verify.props).some((k) => k.startsWith('*')))) return false;
    // (a token extractor of its own reading a request header only: `(req) => req.headers.authorization.replace(/^Token /, '')`)
    const extract = verify && Object.hasOwn(verify.props, 'extractToken') ? ev.member(verify, 'extractToken', 0) : null;
    return !extract || headerCredentialOf(ev, extract);
  }

  /**
   * An auth hook starting with `await request.jwtVerify()` (`try { … } catch (err) {
   * reply.send(err) }`, no options) in an app whose @fastify/jwt reads the token from the
   * Authorization header only: bearer auth, a credential no browser sends by itself.
   */
  private jwtBearer(g: AppliedGuard, value: Value): AppliedGuard {
    if (!this.jwtFromHeader || value.t !== 'fn' || !g.kinds.includes('auth') || g.kinds.includes('bearer') || g.kinds.includes('unknown')) return g;
    const ev = this.ctx.ev;
    const f = ev.fnOf(value.file, value.fn);
    const verifies = f?.leading.some((lg) => {
      const c = lg.callee;
      return c?.k === 'member' && c.prop === 'jwtVerify' && c.obj.k === 'ref' && c.obj.name === f.params[0] && lg.args?.length === 0 && ev.eval(value.file, c.obj).t === 'param';
    });
    if (!verifies) return g;
    const copy = this.ctx.placed(g, g.file);
    copy.kinds = orderKinds(new Set([...g.kinds, 'bearer']));
    copy.reason = `${g.reason}; request.jwtVerify() of @fastify/jwt, registered without a cookie, reads the token from the Authorization header only`;
    return copy;
  }

  private emit(r: PendingRoute): void {
    const { reg, file } = r.op;
    // find-my-way refuses a path starting with neither `/` nor `*` (`fastify.get('users', …)` with
    // no prefix before it): the route is never served, and the server never starts
    if (r.path !== '' && !/^[/*]/.test(r.path)) {
      this.ctx.warnRoute(file, reg, `${r.methods.join(',')} route at '${r.path}': Fastify refuses a path starting with neither '/' nor '*' (the router throws when it is added, and the server does not start); it is left out`);
      return;
    }
    const guards: AppliedGuard[] = [];
    const conditional: AppliedGuard[] = [];
    // A hook added under conditions the route is not declared under may not run for it.
    const push = (h: HookUse, gs: AppliedGuard[]): void => {
      const lacking = [...h.when].filter(([key]) => !r.when.has(key)).map(([, label]) => label);
      for (const g of gs) {
        if (lacking.length === 0) guards.push(g);
        else conditional.push({ ...g, when: lacking.join(' && ') });
      }
    };
    for (let phase = 0; phase < GUARD_HOOKS.length; phase++) {
      for (const h of r.ctx.inherited) if (h.phase === phase) push(h, this.hookGuards(h, r.ctx, 'router.use'));
      for (const h of r.ctx.own) if (h.phase === phase) push(h, this.hookGuards(h, r.ctx, r.ctx.parent ? 'router.use' : 'app.use'));
      for (const h of r.ctx.late) if (h.phase === phase) push(h, this.hookGuards(h, r.ctx, 'router.use'));
      for (const h of r.hooks) if (h.phase === phase) push(h, this.hookGuards(h, r.ctx, 'route-middleware'));
    }
    // (in the handler, before it answers: a tRPC procedure's middleware, before its resolver)
    if (r.own) guards.push(...r.own.guards);
    if (r.handler) guards.push(...this.ctx.handlerGuards(r.handler), ...answeringGuards(this.ctx.ev, r.handler.value, file, reg.at.line));
    // (the same hook added again without the condition — the plugin loaded twice — guards the route anyway)
    const whenOnly = conditional.filter((c) => !guards.some((g) => g.name === c.name && g.file === c.file && g.line === c.line));
    const written = r.handler ? this.ctx.writtenHandler(r.handler) : null;
    const handlerName = r.servedBy ?? (written ? this.handlerName(written) : null);
    const config = this.configReader(r.options);
    for (const method of r.methods) {
      const route: RouteDraft = {
        method,
        path: r.path,
        ...(r.own?.place ? { file: r.own.place.file, line: r.own.place.at.line, column: r.own.place.at.column, snippet: '' } : routePlace(file, reg)),
        framework: 'fastify',
        handler: handlerName,
        app: this.app.name ?? 'app',
        trailingSlashInsensitive: r.trailingSlashInsensitive,
        caseSensitive: this.app.init.caseSensitive,
        ...(r.apiDocs ? { apiDocs: { generator: r.apiDocs.pkg, hide: `schema: { hide: true } in the route options` } } : {}),
        prefixes: r.head ? [...r.ctx.prefixes, r.head] : r.ctx.prefixes,
        guards,
        ...(whenOnly.length > 0 ? { conditionalGuards: whenOnly } : {}),
        handlerFn: written?.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null,
      };
      this.ctx.routeConfig.set(route, config);
      this.ctx.addRoute(route, this.app);
    }
  }

  /**
   * What a route's options hold in their `config`, as its hooks read it (`request.routeOptions.config`:
   * route.js gives the context the options' `config` with the route's `url` and `method` added).
   */
  private configReader(options: Value | null): RouteConfigReader {
    const ev = this.ctx.ev;
    return (keys) => {
      // (`url` and `method`: what Fastify adds, read here as not known)
      if (keys[0] === 'url' || keys[0] === 'method') return null;
      if (options === null) return { value: undefined };
      let v = options;
      for (const key of ['config', ...keys]) {
        if (v.t === 'unknown' && v.why.startsWith('no property')) return { value: undefined };
        if (v.t !== 'obj') return null;
        v = ev.member(v, key, 0);
      }
      if (v.t === 'str' || v.t === 'num' || v.t === 'bool') return { value: v.v };
      if (v.t === 'obj' || v.t === 'arr' || v.t === 'fn') return { value: {} };
      return v.t === 'unknown' && v.why.startsWith('no property') ? { value: undefined } : null;
    };
  }

  private handlerName(h: { value: Value; expr: Expr }): string | null {
    // `{ handler: async (request, reply) => … }`: the property name is not the handler's name.
    if (h.expr.k === 'fn' && h.value.t === 'fn' && this.ctx.ev.fnOf(h.value.file, h.value.fn)?.name === 'handler') return null;
    return handlerNameOf(this.ctx.ev, h);
  }
}

/** plugin-override.js buildRoutePrefix: one `/` between the parent's prefix and the plugin's. */
export function buildRoutePrefix(instancePrefix: string, pluginPrefix: string): string {
  if (!pluginPrefix) return instancePrefix;
  let p = pluginPrefix;
  if (instancePrefix.endsWith('/') && p[0] === '/') p = p.slice(1);
  else if (p[0] !== '/' && !instancePrefix.endsWith('/')) p = '/' + p;
  return instancePrefix + p;
}

/**
 * route.js `route()`: the url(s) a route is registered under inside a prefixed context.
 * `bothForms` when the bare prefix and `prefix + '/'` are both registered.
 */
export function joinRoute(prefix: string, url: string, prefixTrailingSlash: string, ignoreTrailingSlash: boolean): { path: string; bothForms: boolean } {
  if (url === '/' && prefix.length > 0) {
    if (prefixTrailingSlash === 'slash') return { path: prefix + '/', bothForms: false };
    if (prefixTrailingSlash === 'no-slash') return { path: prefix, bothForms: false };
    // 'both': '' always; '/' too unless ignoreTrailingSlash (then '' already serves both).
    // With a prefix ending in '/', the second form is `prefix + '/'` (a doubled slash), which no contract path uses.
    return { path: prefix, bothForms: !ignoreTrailingSlash && !prefix.endsWith('/') };
  }
  if (url[0] === '/' && prefix.endsWith('/')) return { path: prefix + url.slice(1), bothForms: false };
  return { path: prefix + url, bothForms: false };
}
