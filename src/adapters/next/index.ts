/**
 * Next.js (App Router route handlers, Pages Router API routes, middleware.ts / proxy.ts).
 * Semantics modelled from Next.js:
 * - an app is a package (its own package.json) that depends on `next` (or, without a
 *   manifest, whose files import it); its routes come from its own `app/` (else `src/app/`)
 *   and `pages/api/` (else `src/pages/api/`), with the extensions of `pageExtensions`;
 * - App Router: `route.ts` exporting GET/HEAD/POST/PUT/DELETE/PATCH/OPTIONS (functions, consts,
 *   `export { handler as GET }`); route groups `(x)` and parallel-route slots `@x` add no
 *   segment; private folders `_x` (and all below) are not routed; intercepting folders
 *   `(.)x` hold no route handlers; `[id]` → `:id`, `[...slug]` → `:slug*`, and the optional
 *   catch-all `[[...slug]]` → `:slug*?` (the `?`: it also serves the path without it);
 * - Pages Router: every file under `pages/api/` is an `ALL` route (`index` names its folder):
 *   its default export answers every method; a handler testing `req.method` answers each
 *   method in its own branch (a route per method, FunctionFact.dispatch);
 * - `next.config.*` is read as data: `basePath` prefixes every route; `trailingSlash: false`
 *   (the default) serves `/x` and redirects `/x/` with a 308, `trailingSlash: true` the
 *   reverse (except paths whose last segment has a file extension, and `.well-known/`):
 *   either way only one form is served, unless `skipTrailingSlashRedirect: true` turns the
 *   redirect off (then both forms reach the route); routing is case-sensitive;
 * - guards: `middleware.ts` (or Next 16's `proxy.ts`, at the app root or in `src/`) for the
 *   routes its `config.matcher` matches (compiled as Next compiles it, path-to-regexp 6;
 *   no matcher = every route; a `has`/`missing` condition makes a matcher conditional, so it
 *   is not relied on), then the functions wrapping the exported handler (outermost first),
 *   then guards called at the top of the handler;
 * - a handler that is `handle(app)` of hono/vercel (or hono/nextjs) hands every request to a Hono
 *   app: it is no route of its own; the Hono app's routes are listed (by the Hono adapter); so
 *   does `app.handle` or `app.fetch` of an Elysia app (Elysia's Next.js integration);
 * - a Pages Router handler that is a next-connect router (read at 1.0.0 `createRouter()`,
 *   `router.handler()`, and 0.13 `nc()`; node.js / router.js) answers the methods its routes
 *   are registered for (`all`: any) and 404 for the others: a route per registration, behind
 *   the router's `use()` middleware registered before it and its own functions before the
 *   last; an App Router handler returning `router.run(request, ctx)` (also of
 *   `createEdgeRouter()`) is behind what the router runs before answering its method.
 */
import { parse, tokensToRegexp } from 'path-to-regexp';
import type { ts as TS } from 'ts-morph';
import type { Adapter, RouterInit } from '../adapter.js';
import type { ExtractApi } from '../../extract/extract.js';
import { prefixNote, stringsOf, writtenCall, type RouterObject, type Value } from '../../link/evaluate.js';
import { cmp, routePlace, type BoundRegistration, type FlatItem, type LinkContext } from '../../link/link.js';
import type { PackageInfo } from '../../project.js';
import type { AppliedGuard, Expr, FileFacts, Loc, MethodBranch, PrefixStep } from '../../types.js';
import { catchAll, filledPath } from '../paths.js';
import { handlerNameOf } from '../handler-name.js';
import { endpointRouter, procedureGuards, procedureMethods, trpcProcedures, trpcUnread, type Procedure as TrpcProcedure } from '../trpc.js';
import { orpcRoutes } from '../orpc.js';
import { openApiEndpoint, openApiRoutes, type OpenApiEndpoint } from '../trpc-openapi.js';
import { answeringGuards } from '../package-handlers.js';
import { nextAuthEndpoints, nextAuthVersion } from '../next-auth.js';

/** tRPC's Next.js and fetch adapters (NextLinker.trpcEndpoint). */
const TRPC_NEXT = '@trpc/server/adapters/next';
const TRPC_FETCH = '@trpc/server/adapters/fetch';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** The route an RPC endpoint (tRPC's, oRPC's) is served at: its method and path, where it is, its app and the guards before it. */
interface EndpointRoute {
  file: string;
  method: string;
  path: string;
  place: { at: Loc; snippet: string };
  app: string;
  prefixes: PrefixStep[];
  guards: AppliedGuard[];
}

/** What makes a trpc-openapi endpoint a route serves (trpc-openapi.ts). */
const OPENAPI_FACTORIES = ['createOpenApiNextHandler', 'createOpenApiFetchHandler'];

/** A route's path without its last (dynamic) segment: where an endpoint at that segment sits. */
function segmentBase(path: string): string {
  return path.replace(/\/[^/]*\/?$/, '');
}
/** Packages whose `handle(app)` serves a Hono app from a route handler. */
const HONO_BRIDGES = new Set(['hono/vercel', 'hono/nextjs']);
const DEFAULT_PAGE_EXTENSIONS = ['tsx', 'ts', 'jsx', 'js'];
const CONFIG_NAMES = ['next.config.js', 'next.config.mjs', 'next.config.cjs', 'next.config.ts', 'next.config.mts'];
const MIDDLEWARE_RE = /^(middleware|proxy)\.(ts|js|mjs|mts|tsx|jsx)$/;

/** Where exported handlers are written, for route locations: plain JSON in `facts.adapterFacts.next`. */
export interface NextFileFacts {
  exports: Record<string, { at: Loc; snippet: string }>;
}

/** Where a route file exports `name`, as recorded for every `route.*` file (Medusa's read it too). */
export function exportPlace(facts: FileFacts, name: string): { at: Loc; snippet: string } | undefined {
  return (facts.adapterFacts.next as NextFileFacts | undefined)?.exports[name];
}

/** `*`: an `export * from …`, where the methods another module exports are served */
const RECORDED = new Set([...METHODS, 'default', 'middleware', 'proxy', 'config', '*']);

function visitNextFile(api: ExtractApi): void {
  const { ts, sf, facts } = api;
  const file = facts.file;
  if (!/(^|\/)(route|middleware|proxy)\.[cm]?[jt]sx?$/.test(file) && !/(^|\/)pages\/api\//.test(file)) return;
  const out: NextFileFacts['exports'] = {};
  const put = (name: string, node: TS.Node): void => {
    if (!RECORDED.has(name) || out[name]) return;
    const at = api.loc(node);
    out[name] = { at, snippet: api.snippet(at.line) };
  };
  for (const stmt of sf.statements) {
    const exported = ts.canHaveModifiers(stmt) && (ts.getModifiers(stmt) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = ts.canHaveModifiers(stmt) && (ts.getModifiers(stmt) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (ts.isFunctionDeclaration(stmt) && exported) put(isDefault ? 'default' : stmt.name?.text ?? '', stmt);
    else if (ts.isVariableStatement(stmt) && exported) {
      for (const d of stmt.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) put(d.name.text, stmt);
        else if (ts.isObjectBindingPattern(d.name)) for (const el of d.name.elements) if (ts.isIdentifier(el.name)) put(el.name.text, stmt);
      }
    } else if (ts.isExportAssignment(stmt)) put('default', stmt);
    else if (ts.isExportDeclaration(stmt) && stmt.exportClause && ts.isNamedExports(stmt.exportClause)) for (const el of stmt.exportClause.elements) put(el.name.text, el);
    else if (ts.isExportDeclaration(stmt) && !stmt.exportClause) put('*', stmt);
  }
  if (Object.keys(out).length > 0) facts.adapterFacts.next = { exports: out } satisfies NextFileFacts;
}

/** next-connect: its routers (`createRouter()` / `createEdgeRouter()` in 1.x, the module's default `nc()` in 0.x) and their methods. */
const NEXT_CONNECT = 'next-connect';
const NEXT_CONNECT_METHODS: Record<string, string> = { get: 'GET', head: 'HEAD', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', options: 'OPTIONS', trace: 'TRACE', all: 'ALL' };

export const nextAdapter: Adapter = {
  name: 'next',
  title: 'Next.js',
  modules: ['next', NEXT_CONNECT],

  create(pkg, path): RouterInit | null {
    if (pkg !== NEXT_CONNECT) return null;
    const name = path.filter((p) => p !== 'default');
    return name.length === 0 || (name.length === 1 && (name[0] === 'createRouter' || name[0] === 'createEdgeRouter')) ? { kind: 'router', strict: false, caseSensitive: false } : null;
  },

  routerMethod(_router, method) {
    // `router.handler()` (1.x) is the function that runs the router: it stands for it
    return NEXT_CONNECT_METHODS[method] || method === 'use' || method === 'handler' ? 'self' : null;
  },

  visitFile: visitNextFile,
  link(ctx: LinkContext): void {
    new NextLinker(ctx).run();
  },
};

// ---------------------------------------------------------------------------

interface NextConfig {
  basePath: string;
  /** why `basePath` is not known statically, when it is set to a value the code does not give: a step of every route's prefixes */
  basePathUnknown: string | null;
  trailingSlash: boolean;
  skipTrailingSlashRedirect: boolean;
  pageExtensions: string[];
  file: string | null;
  line: number;
}

interface Middleware {
  file: string;
  guards: AppliedGuard[];
  /** null: runs for every route */
  matchers: RegExp[] | null;
}

/** `[id]` → `:id`, `[...slug]` → `:slug*`, `[[...slug]]` → `:slug*?`; null for a segment that adds nothing. */
export function segmentOf(dir: string): string | null {
  if (/^\(.*\)$/.test(dir) || dir.startsWith('@')) return null;
  let m = /^\[\[\.\.\.([^\]]+)\]\]$/.exec(dir);
  if (m) return `:${m[1]}*?`;
  m = /^\[\.\.\.([^\]]+)\]$/.exec(dir);
  if (m) return `:${m[1]}*`;
  m = /^\[([^\]]+)\]$/.exec(dir);
  if (m) return `:${m[1]}`;
  return /^%5f/i.test(dir) ? `_${dir.slice(3)}` : dir;
}

/** The regular expression Next.js builds for one middleware matcher source (getMiddlewareMatchers). */
export function middlewareMatcherRegex(source: string, basePath: string): RegExp {
  const isRoot = source === '/';
  let s = `/:nextData(_next/data/[^/]{1,})?${source}${isRoot ? '(/?index|/?index\\.json)?' : '{(\\.json)}?'}`;
  if (basePath) s = `${basePath}${s}`;
  // Next keeps only the source of the compiled expression: no flags, so matching is case-sensitive.
  return new RegExp(tokensToRegexp(parse(s)).source);
}

/** A next-connect router's route registration, and the guards that run before its handler. */
interface ConnectLayer {
  method: string;
  b: BoundRegistration;
  handler: FlatItem;
  guards: AppliedGuard[];
}

class NextLinker {
  /** whether any next-connect router is made (connectRun), once known */
  private connectRouters: boolean | undefined;
  /** each next-connect router's layers, read once (the routes of its exports share them) */
  private readonly layersOf = new Map<string, ConnectLayer[]>();
  constructor(private readonly ctx: LinkContext) {}

  run(): void {
    // Every analysed file, including those whose facts are only made when asked for.
    const files = this.ctx.project.files.filter((f) => this.ctx.files.has(f));
    const byPackage = new Map<PackageInfo, string[]>();
    for (const f of files) {
      const p = this.ctx.project.packageOf(f);
      let list = byPackage.get(p);
      if (!list) byPackage.set(p, (list = []));
      list.push(f);
    }
    // Whether a package imports next is read from the facts made so far (files importing a framework are made up front).
    const importsNext = new Set<PackageInfo>();
    // (`next` itself: next-connect, also among the adapter's modules, makes no Next.js app)
    for (const [f, facts] of this.ctx.files) if (facts.imports.some((i) => i.source === 'next' || i.source.startsWith('next/'))) importsNext.add(this.ctx.project.packageOf(f));
    for (const [pkg, pkgFiles] of byPackage) if (pkg.deps.includes('next') || importsNext.has(pkg)) this.linkApp(pkg, pkgFiles);
  }

  private linkApp(pkg: PackageInfo, files: string[]): void {
    const rel = (f: string): string => (pkg.dir === '' ? f : f.slice(pkg.dir.length + 1));
    const local = files.map(rel);
    const has = (dir: string): boolean => local.some((f) => f.startsWith(`${dir}/`));
    const config = this.config(pkg, files);
    // the file's path without the page extension it ends with (the longest: `index.page.ts` of
    // `['page.ts', 'ts']` is `index`), or null when it ends with none: not a page, nor a route
    const exts = [...config.pageExtensions].sort((a, b) => b.length - a.length);
    const unextended = (f: string): string | null => {
      const e = exts.find((x) => f.endsWith(`.${x}`));
      return e === undefined ? null : f.slice(0, -(e.length + 1));
    };
    const appRoot = has('app') ? 'app' : has('src/app') ? 'src/app' : null;
    const pagesRoot = has('pages') ? 'pages' : has('src/pages') ? 'src/pages' : null;
    const srcDir = appRoot?.startsWith('src/') || pagesRoot?.startsWith('src/') ? 'src/' : '';
    const mwLocal = local.find((f) => f.startsWith(srcDir) && MIDDLEWARE_RE.test(f.slice(srcDir.length))) ?? null;
    const middleware = mwLocal ? this.middleware(pkg, files[local.indexOf(mwLocal)]!, config) : null;
    const appName = pkg.dir || '.';
    local.forEach((f, i) => {
      const file = files[i]!;
      const base = unextended(f);
      if (base === null) return;
      if (appRoot && f.startsWith(`${appRoot}/`) && /(^|\/)route$/.test(base)) {
        const dirs = f.slice(appRoot.length + 1).split('/').slice(0, -1);
        if (dirs.some((d) => d.startsWith('_') || /^\(\.{1,3}\)/.test(d))) return;
        const segs = dirs.map(segmentOf).filter((s): s is string => s !== null);
        const facts = this.ctx.files.get(file)!;
        const methods = facts.exports.filter((x) => METHODS.includes(x.exported)).map((x) => x.exported);
        // `export * from '../v1/route'`: the methods the other module exports
        if (facts.exports.some((x) => x.exported === '*')) methods.push(...METHODS.filter((m) => !methods.includes(m) && this.ctx.ev.exportDefinition(file, m) !== null));
        for (const m of methods) this.route(file, m, m, segs, config, middleware, appName);
        return;
      }
      if (pagesRoot && f.startsWith(`${pagesRoot}/api/`)) {
        const parts = base.slice(pagesRoot.length + 1).split('/');
        if (parts[parts.length - 1] === 'index') parts.pop();
        const segs = parts.map(segmentOf).filter((s): s is string => s !== null);
        if (this.ctx.files.get(file)!.exports.some((x) => x.exported === 'default')) this.route(file, 'default', 'ALL', segs, config, middleware, appName);
      }
    });
  }

  /** next.config.* read as data (never run): basePath, trailingSlash, pageExtensions. */
  private config(pkg: PackageInfo, files: string[]): NextConfig {
    const out: NextConfig = { basePath: '', basePathUnknown: null, trailingSlash: false, skipTrailingSlashRedirect: false, pageExtensions: DEFAULT_PAGE_EXTENSIONS, file: null, line: 1 };
    const file = CONFIG_NAMES.map((n) => (pkg.dir ? `${pkg.dir}/${n}` : n)).find((n) => files.includes(n));
    if (!file) return out;
    out.file = file;
    const obj = this.configObject(file);
    if (!obj) {
      this.ctx.warn(file, { line: 1, column: 1 }, 'the configuration object of this next.config is not known statically; basePath and trailingSlash are taken as their defaults', '');
      return out;
    }
    const prop = (k: string): Value | null => (obj.expr.props[k] ? this.ctx.ev.eval(obj.file, obj.expr.props[k]!) : null);
    const bp = prop('basePath');
    if (bp?.t === 'str') out.basePath = bp.v.replace(/\/$/, '');
    else if (bp) {
      out.basePathUnknown = prefixNote(bp);
      this.ctx.warn(file, { line: 1, column: 1 }, 'basePath in next.config is not known statically; routes are listed without it', '');
    }
    const ts = prop('trailingSlash');
    if (ts?.t === 'bool') out.trailingSlash = ts.v;
    else if (ts) this.ctx.warn(file, { line: 1, column: 1 }, 'trailingSlash in next.config is not known statically; the default (false) is assumed', '');
    const skip = prop('skipTrailingSlashRedirect');
    if (skip?.t === 'bool') out.skipTrailingSlashRedirect = skip.v;
    const pe = prop('pageExtensions');
    const exts = pe ? stringsOf(pe) : null;
    if (exts) out.pageExtensions = exts;
    return out;
  }

  /**
   * The object literal a next.config exports: directly, through a const, a plugin call
   * (`withX(config)`) or a phase function. A name given another value built from its own
   * (teable's `let config = nextConfig; … const { sentry, ...rest } = config; config = rest`)
   * holds the same object on that way.
   */
  private configObject(file: string): { file: string; expr: Extract<Expr, { k: 'obj' }> } | null {
    type Found = { file: string; expr: Extract<Expr, { k: 'obj' }> };
    const facts = this.ctx.files.get(file)!;
    const def = facts.exports.find((x) => x.exported === 'default' && x.local !== undefined);
    if (!def) return null;
    const start = this.ctx.ev.definitionOf(file, 0, def.local!);
    if (!start) return null;
    // (the expressions being followed: a definition reached again on the way is a value made
    // from itself, `CYCLE`, no other object than the one it holds otherwise)
    const onPath = new Set<Expr>();
    const CYCLE = 'cycle';
    const visit = (f: string, e: Expr, depth: number): Found | typeof CYCLE | null => {
      if (onPath.has(e)) return CYCLE;
      if (depth > 12) return null;
      onPath.add(e);
      const hit = follow(f, e, depth);
      onPath.delete(e);
      return hit;
    };
    const follow = (f: string, e: Expr, depth: number): Found | typeof CYCLE | null => {
      if (e.k === 'obj') return { file: f, expr: e };
      // `process.env.SENTRY_AUTH_TOKEN ? withSentryConfig(nextConfig, options) : nextConfig`: one
      // configuration object whichever way the test goes (a way back to the choice adds none)
      if (e.k === 'choice') {
        const then = visit(f, e.then, depth + 1);
        const otherwise = then ? visit(f, e.otherwise, depth + 1) : null;
        if (!then || !otherwise) return null;
        if (then === CYCLE || otherwise === CYCLE) return then === CYCLE ? otherwise : then;
        return then.expr === otherwise.expr ? then : null;
      }
      if (e.k === 'ref') {
        const d = this.ctx.ev.definitionOf(f, e.scope, e.name);
        return d ? visit(d.file, d.expr, depth + 1) : null;
      }
      if (e.k === 'call') {
        let cycle = false;
        for (const a of e.args) {
          const hit = visit(f, a, depth + 1);
          if (hit === CYCLE) cycle = true;
          else if (hit) return hit;
        }
        return cycle ? CYCLE : null;
      }
      if (e.k === 'fn') {
        for (const r of this.ctx.ev.returnsOf(f, e.id)) {
          const hit = visit(f, r, depth + 1);
          if (hit && hit !== CYCLE) return hit;
        }
      }
      return null;
    };
    const found = visit(start.file, start.expr, 0);
    return found === CYCLE ? null : found;
  }

  private place(file: string, name: string, fallback: Loc | null): { at: Loc; snippet: string } {
    const facts = this.ctx.files.get(file);
    // a method only an `export * from …` exports is written there
    const star = METHODS.includes(name) && facts ? exportPlace(facts, '*') : undefined;
    return (facts && exportPlace(facts, name)) ?? star ?? { at: fallback ?? { line: 1, column: 1 }, snippet: '' };
  }

  /**
   * Can the argument `a` (written in `file`) of a call around an exported handler be the handler
   * it wraps: a function, a call, or a name for a call of the analysed code or for one handed one
   * in turn (`const handler = withTenant(list)`)? A name for a package's call handed none (`const
   * auth = betterAuth({ … })`) is a value the call makes the handler from
   * (`oauthProviderAuthServerMetadata(auth)`), not one it wraps; nor is a call making an object.
   */
  private mayBeHandler(file: string, a: Expr, depth: number): boolean {
    // (a call making an object is options, `NextAuth(authOptions())` of Cap: no handler)
    if (a.k === 'call') return this.ctx.ev.eval(file, a).t !== 'obj';
    if (this.ctx.ev.eval(file, a).t === 'fn') return true;
    if (a.k !== 'ref' || depth > 8) return false;
    const d = this.ctx.ev.definitionOf(file, a.scope, a.name);
    // (a function of the analysed code may return one: `const handler = makeHandler(config)`)
    return d?.expr.k === 'call' && (this.ctx.ev.eval(d.file, d.expr.callee).t === 'fn' || d.expr.args.some((x) => this.mayBeHandler(d.file, x, depth + 1)));
  }

  /**
   * An exported handler: the wrappers around it (`withAuth(withTenant(handler))`, outermost
   * first) and the handler itself.
   */
  private unwrap(file: string, exported: string): { wrappers: { file: string; call: Extract<Expr, { k: 'call' }>; value: Value }[]; handler: Value; name: string | null; at: Loc | null } {
    // `export { GET } from '../partners/route'` is the handler as written there, wrappers and all
    const def = this.ctx.ev.exportDefinition(file, exported);
    if (!def) {
      const v = this.ctx.ev.exportValue(file, exported, 0);
      return { wrappers: [], handler: v, name: null, at: v.t === 'fn' ? this.ctx.ev.fnOf(v.file, v.fn)?.at ?? null : null };
    }
    const wrappers: { file: string; call: Extract<Expr, { k: 'call' }>; value: Value }[] = [];
    let f = def.file;
    let e = def.expr;
    let name: string | null = null;
    for (let depth = 0; depth < 12; depth++) {
      if (e.k === 'ref') {
        name = e.name;
        const d = this.ctx.ev.definitionOf(f, e.scope, e.name);
        if (!d || d.expr === e) break;
        f = d.file;
        e = d.expr;
        continue;
      }
      if (e.k !== 'call') break;
      const call = e;
      const inner = call.args.find((a) => this.mayBeHandler(f, a, 0));
      if (!inner) break;
      const made = this.ctx.ev.eval(f, call);
      // (a wrapper of the analysed code returning a package's: the function it is handed answers)
      wrappers.push({ file: f, call, value: this.ctx.ev.eval(f, call.callee).t === 'fn' ? wrappedBy(made) : made });
      e = inner;
    }
    const handler = this.ctx.ev.eval(f, e);
    const fn = handler.t === 'fn' ? this.ctx.ev.fnOf(handler.file, handler.fn) : undefined;
    return { wrappers, handler, name: fn?.name ?? name, at: fn?.at ?? null };
  }

  /**
   * The methods the wrappers of a handler let through (FunctionFact.allowsMethods): each list read
   * with the wrapper's parameters standing for the arguments of its call (zipline's
   * `withZipline(handler, { methods: ['GET', 'POST'] })`, or the parameter's default) but those it
   * answers itself before, those every wrapper lets through; null when none refuses methods that
   * way, or a list is not known statically.
   */
  private allowedMethods(wrappers: { file: string; call: Extract<Expr, { k: 'call' }>; value: Value }[]): string[] | null {
    const ev = this.ctx.ev;
    let allowed: string[] | null = null;
    for (const w of wrappers) {
      const gate = w.value.t === 'fn' ? ev.fnOf(w.value.file, w.value.fn)?.allowsMethods : undefined;
      const factory = gate ? ev.calledFn(w.file, w.call.callee) : null;
      if (!gate || !factory || w.value.t !== 'fn') continue;
      const v = ev.eval(w.value.file, { k: 'within', e: gate.list, call: { file: factory.file, fn: factory.fn, argsFile: w.file, args: w.call.args } });
      const listed = stringsOf(v);
      if (!listed) return null;
      // (one not spelled in capitals is none a request has: Node gives `req.method` so)
      const methods = listed.filter((m) => /^[A-Z]+$/.test(m) && !gate.except.includes(m));
      allowed = allowed ? allowed.filter((m) => methods.includes(m)) : [...new Set(methods)];
    }
    return allowed;
  }

  /**
   * The method dispatch a Pages Router handler answers with (FunctionFact.dispatch): its own, or
   * that of the function it returns a call of, handing its request on (`return handleRoute(req,
   * res)`), after the guards leading the handler itself (`before`).
   */
  private dispatchOf(handler: Value): { fn: Extract<Value, { t: 'fn' }>; dispatch: MethodBranch[]; before: AppliedGuard[] } | null {
    if (handler.t !== 'fn') return null;
    const ev = this.ctx.ev;
    const own = ev.fnOf(handler.file, handler.fn)?.dispatch;
    if (own) return { fn: handler, dispatch: own, before: [] };
    const handsOn = ev.returnsOf(handler.file, handler.fn).filter((r): r is Extract<Expr, { k: 'call' }> => {
      const v = r.k === 'call' && r.args[0] ? ev.eval(handler.file, r.args[0]) : null;
      return v?.t === 'param' && v.file === handler.file && v.fn === handler.fn && v.index === 0 && !v.path;
    });
    if (handsOn.length !== 1) return null;
    const callee = ev.eval(handler.file, handsOn[0]!.callee);
    const dispatch = callee.t === 'fn' ? ev.fnOf(callee.file, callee.fn)?.dispatch : undefined;
    return callee.t === 'fn' && dispatch ? { fn: callee, dispatch, before: this.ctx.inHandlerGuards(handler) } : null;
  }

  private middleware(pkg: PackageInfo, file: string, config: NextConfig): Middleware {
    const facts = this.ctx.files.get(file)!;
    const exportName = ['middleware', 'proxy', 'default'].find((n) => facts.exports.some((x) => x.exported === n));
    const guards: AppliedGuard[] = [];
    if (exportName) {
      const u = this.unwrap(file, exportName);
      for (const w of u.wrappers) {
        const g = this.ctx.guard(w.file, w.call.callee, w.value, 'next-middleware', w.call.at, undefined, w);
        if (g) guards.push(this.ctx.placed(g, file, this.place(file, exportName, w.call.at).at.line));
      }
      const label: Expr = { k: 'ref', name: u.name && u.name !== 'default' ? u.name : exportName === 'default' ? 'middleware' : exportName, scope: 0 };
      const g = this.ctx.guard(file, label, u.handler, 'next-middleware', this.place(file, exportName, u.at).at);
      // (no guard itself, but leading with checks, `const refused = refuseAnonymous(req); if (refused) return refused`:
      // those, run by the middleware as it is: a bypassed middleware skips them too)
      for (const x of this.ctx.layerGuards(g, u.handler, (y) => this.ctx.placed(y, file))) {
        const run = x.mechanism === 'next-middleware' ? x : this.ctx.placed(x, x.file);
        run.mechanism = 'next-middleware';
        guards.push(run);
      }
    }
    const cfg = this.ctx.ev.exportValue(file, 'config', 0);
    if (cfg.t === 'unknown' && !facts.exports.some((x) => x.exported === 'config')) return { file, guards, matchers: null };
    const matcher = cfg.t === 'obj' ? this.ctx.ev.member(cfg, 'matcher', 0) : cfg;
    if (cfg.t === 'obj' && matcher.t === 'unknown' && !cfg.props.matcher) return { file, guards, matchers: null };
    const items = matcher.t === 'arr' ? matcher.items : [matcher];
    const matchers: RegExp[] = [];
    const at = this.place(file, 'config', null).at;
    for (const it of items) {
      let source: Value = it;
      if (it.t === 'obj') {
        if (it.props.has || it.props.missing) continue;
        source = this.ctx.ev.member(it, 'source', 0);
      }
      if (source.t !== 'str') {
        this.ctx.warn(file, at, `a config.matcher entry of ${file.slice(pkg.dir ? pkg.dir.length + 1 : 0)} is not known statically; it is taken to match no route`, this.place(file, 'config', null).snippet);
        continue;
      }
      try {
        matchers.push(middlewareMatcherRegex(source.v, config.basePath));
      } catch {
        this.ctx.warn(file, at, `config.matcher '${source.v}' is not a valid path pattern; it is taken to match no route`, this.place(file, 'config', null).snippet);
      }
    }
    return { file, guards, matchers };
  }

  /** Is the export `app.handle` or `app.fetch` of an Elysia app (adapters/elysia)? */
  private elysiaHandle(file: string, exported: string): boolean {
    const def = this.ctx.ev.exportDefinition(file, exported);
    if (def?.expr.k !== 'member' || (def.expr.prop !== 'handle' && def.expr.prop !== 'fetch')) return false;
    const app = this.ctx.ev.eval(def.file, def.expr.obj);
    return app.t === 'router' && this.ctx.ev.routers.get(app.id)?.framework === 'elysia';
  }

  private route(file: string, exported: string, method: string, segs: string[], config: NextConfig, mw: Middleware | null, app: string): void {
    // `export const GET = handle(app)` (hono/vercel): the Hono app answers, and its routes are listed as the Hono app's
    const v = this.ctx.ev.exportValue(file, exported, 0);
    if (v.t === 'pkg' && v.called && HONO_BRIDGES.has(v.pkg) && v.path.join('.') === 'handle' && v.args[0]?.t === 'router') return;
    // `export const GET = app.handle` (Elysia's Next.js integration): the Elysia app answers the
    // request whole, and its routes are listed as the Elysia app's
    if (this.elysiaHandle(file, exported)) return;
    const connect = v.t === 'router' ? this.ctx.ev.routers.get(v.id) : undefined;
    let path = `${config.basePath}/${segs.join('/')}`;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path === '') path = '/';
    const last = segs[segs.length - 1] ?? '';
    const exempt = /\.\w+$/.test(last) || segs.includes('.well-known');
    if (config.trailingSlash && !path.endsWith('/') && !exempt) path += '/';
    // the other slash form of a path the file serves (none for the root and an exempt file)
    const otherForm = (p: string): string | null => (p === '/' || exempt ? null : p.endsWith('/') ? p.slice(0, -1) : `${p}/`);
    const other = otherForm(path);
    const u = this.unwrap(file, exported);
    const place = this.place(file, exported, u.at);
    // a route the export serves at `r.path` (its other slash form redirected to it, unless the config skips that)
    const serve = (r: { method: string; path: string; at: Loc & { snippet: string }; handler: string | null; guards: AppliedGuard[]; handlerFn: { file: string; fn: number } | null }): void => {
      const o = otherForm(r.path);
      this.ctx.addRoute(
        {
          method: r.method,
          path: r.path,
          file,
          line: r.at.line,
          column: r.at.column,
          framework: 'next',
          handler: r.handler,
          app,
          trailingSlashInsensitive: config.skipTrailingSlashRedirect,
          caseSensitive: true,
          ...(o && !config.skipTrailingSlashRedirect ? { slashRule: slashRule(r.path, o, config.trailingSlash) } : {}),
          prefixes,
          guards: r.guards,
          handlerFn: r.handlerFn,
          snippet: r.at.snippet,
        },
        null,
      );
    };
    const wrappers: AppliedGuard[] = [];
    // (a next-connect router's calls around its handler are its own chain, `nc().use(…).get(…)`: no wrappers)
    for (const w of connect?.made?.pkg === NEXT_CONNECT ? [] : u.wrappers) {
      const g = this.ctx.guard(w.file, w.call.callee, w.value, 'wrapper', w.call.at, undefined, w);
      // (one that is no guard itself but whose function leads with checks, `withCron(handler)` of
      // `(handler) => async (req) => { await verifySecret(req); return handler(req) }`: those checks,
      // of the branch the route's method takes when it dispatches on the method)
      wrappers.push(...this.ctx.layerGuards(g, w.value, (x) => this.ctx.placed(x, file, place.at.line), { file: w.file, expr: w.call }, method === 'ALL' ? undefined : method));
    }
    // a concrete request path to test matchers with: each parameter replaced by its own name
    const sample = filledPath(path, (name) => name, (name) => name);
    const middleware = mw && (mw.matchers === null || mw.matchers.some((re) => re.test(sample))) ? mw.guards : [];
    const prefixes: PrefixStep[] =
      config.file === null ? [] : config.basePath ? [{ prefix: config.basePath, file: config.file, line: config.line }] : config.basePathUnknown ? [{ prefix: '', file: config.file, line: config.line, unknown: config.basePathUnknown }] : [];
    // A Pages Router handler dispatching on the method serves a route per method it names, each
    // guarded by what leads its branch, and `ALL` for the other methods unless it refuses them
    // (FunctionFact.dispatch): a method's route located at its branch when the handler is written
    // in the route's file, the others' where the handler is exported.
    if (connect?.made?.pkg === NEXT_CONNECT) {
      this.connectRoutes(connect, { path, app, config, prefixes, guards: [...middleware, ...wrappers], other });
      return;
    }
    // a tRPC endpoint (`createNextApiHandler({ router })`, a handler returning `fetchRequestHandler({ router, … })`): its procedures
    const trpc = this.trpcEndpoint(v) ?? this.trpcEndpoint(u.handler);
    if (trpc && last.startsWith(':') && this.trpcRoutes(trpc, { file, method, path, place, app, prefixes, guards: [...middleware, ...wrappers] })) return;
    // a trpc-openapi endpoint (`createOpenApiNextHandler({ router })`, a handler returning `createOpenApiFetchHandler({ router, endpoint, req })`): the procedures it serves over REST
    const openApi = openApiEndpoint(this.ctx, v, OPENAPI_FACTORIES) ?? openApiEndpoint(this.ctx, u.handler, OPENAPI_FACTORIES);
    if (openApi && last.startsWith(':') && this.openApiRoutes(openApi, { file, method, path, place, app, prefixes, guards: [...middleware, ...wrappers, ...this.ctx.inHandlerGuards(u.handler)] })) return;
    // NextAuth.js at a catch-all (`const handler = NextAuth(authOptions)`, Auth.js's `handlers.GET`): its actions (next-auth.ts)
    const nextAuth = nextAuthVersion(v) ?? nextAuthVersion(u.handler) ?? (u.handler.t === 'fn' ? this.nextAuthHandedOn(u.handler) : null);
    const caught = catchAll(path);
    if (nextAuth && caught) {
      for (const e of nextAuthEndpoints(nextAuth, method)) {
        let p = `${caught.base === '/' ? '' : caught.base}/${e.path}`;
        if (caught.slash) p += '/';
        const csrf: AppliedGuard[] = e.csrf ? [{ name: 'NextAuth', kinds: ['csrf'], families: [], reason: `by package (${e.csrf})`, mechanism: 'in-handler', file, line: place.at.line }] : [];
        serve({ method: e.method, path: p, at: { ...place.at, snippet: place.snippet }, handler: exported === 'default' ? 'handler' : exported, guards: [...middleware, ...wrappers, ...csrf], handlerFn: null });
      }
      return;
    }
    // an oRPC endpoint (a handler calling `handler.handle(request, { prefix })` of `new RPCHandler(router)` / `new OpenAPIHandler(router)`): its procedures
    if (last.startsWith(':') && this.orpcRoutes(u.handler, { file, method, path, place, app, prefixes, guards: [...middleware, ...wrappers, ...this.ctx.inHandlerGuards(u.handler)] })) return;
    // (an Apollo Server's handler, `startServerAndCreateNextHandler(server)`, prevents CSRF itself: package-handlers.ts)
    const own = answeringGuards(this.ctx.ev, v, file, place.at.line);
    // a table of handlers by method handed to the in-code function that makes the handler
    // (langfuse's `export default withMiddlewares({ GET: list, POST: create })`): a route per
    // method it holds, behind what leads the function made, then what leads its entry
    const table = method === 'ALL' ? this.methodTable(file, exported) : null;
    if (table) {
      const made = this.ctx.inHandlerGuards(u.handler);
      for (const [m, entry] of table.entries) {
        const item = { file: table.file, expr: entry, value: this.ctx.ev.eval(table.file, entry) };
        const written = this.ctx.writtenHandler(item);
        const handlerFn = written.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null;
        // (jitsu's `{ GET: { auth: true, handle } }`: the checks the function makes for an entry with the flag)
        const forEntry = this.ctx.entryLeading(u.handler, item.value);
        const led = forEntry ? this.ctx.inHandlerGuards(u.handler, forEntry) : made;
        serve({ method: m, path, at: { ...place.at, snippet: place.snippet }, handler: handlerNameOf(this.ctx.ev, written) ?? m, guards: [...middleware, ...wrappers, ...own, ...led, ...this.ctx.handlerGuards(item)], handlerFn });
      }
      return;
    }
    const d = method === 'ALL' ? this.dispatchOf(u.handler) : null;
    const dispatched = d ? d.dispatch.flatMap((b) => (b.methods.length > 0 ? b.methods : ['ALL']).map((m) => ({ method: m, branch: b }))) : [{ method, branch: null }];
    // (a wrapper letting only the methods its options list through: what the handler serves of them)
    const allowed = method === 'ALL' ? this.allowedMethods(u.wrappers) : null;
    const served = allowed
      ? dispatched.flatMap((s) => (s.method === 'ALL' ? allowed.filter((m) => !dispatched.some((o) => o.method === m)).map((m) => ({ ...s, method: m })) : allowed.includes(s.method) ? [s] : []))
      : dispatched;
    for (const { method: m, branch } of served) {
      const at = d && branch && branch.methods.length > 0 && d.fn.file === file ? { line: branch.at.line, column: branch.at.column, snippet: branch.snippet } : { ...place.at, snippet: place.snippet };
      const inHandler = d && branch ? [...d.before, ...this.ctx.inHandlerGuards(d.fn, branch.leading)] : [...this.ctx.inHandlerGuards(u.handler), ...this.connectRun(u.handler, m)];
      const handler = u.name && u.name !== 'default' ? u.name : exported === 'default' ? 'handler' : exported;
      serve({ method: m, path, at, handler, guards: [...middleware, ...wrappers, ...own, ...inHandler], handlerFn: u.handler.t === 'fn' ? { file: u.handler.file, fn: u.handler.fn } : null });
    }
  }

  /**
   * The table of handlers by method a Pages Router handler is made from: the object, every key of
   * it a method (`{ GET: list, POST: create }`) or lower-case (`url`), handed to an in-code
   * function that makes the exported handler; null for any other handler.
   */
  private methodTable(file: string, exported: string): { file: string; entries: [string, Expr][] } | null {
    const ev = this.ctx.ev;
    const def = ev.exportDefinition(file, exported);
    const made = def ? writtenCall(ev, def.file, def.expr) : null;
    if (!made || ev.eval(made.file, made.call.callee).t !== 'fn') return null;
    for (const a of made.call.args) {
      const v = ev.eval(made.file, a);
      if (v.t !== 'obj') continue;
      // (beside the methods, lower-case keys the dispatch never picks: jitsu's `{ url: inferUrl(__filename), GET: … }`)
      const keys = Object.keys(v.props).filter((k) => !/^[a-z]/.test(k));
      if (keys.length > 0 && keys.every((k) => METHODS.includes(k))) return { file: v.file, entries: keys.map((k) => [k, v.props[k]!] as [string, Expr]) };
    }
    return null;
  }

  /** A handler answering with `NextAuth(req, res, options)` (next-auth 4's advanced initialization): 4, else null. */
  private nextAuthHandedOn(handler: Extract<Value, { t: 'fn' }>): 4 | null {
    for (const r of this.ctx.returnsWhereImported(handler, (s) => s === 'next-auth')) if (nextAuthVersion(this.ctx.ev.eval(handler.file, r), true) === 4) return 4;
    return null;
  }

  /**
   * The router of a tRPC endpoint a handler is: `createNextApiHandler({ router })`
   * (@trpc/server/adapters/next), or a function returning `fetchRequestHandler({ router, … })`
   * (@trpc/server/adapters/fetch, in an App Router route); null when it is none.
   */
  private trpcEndpoint(handler: Value): { router: { file: string; expr: Expr }; options: Value | undefined } | null {
    const made = (v: Value): { router: { file: string; expr: Expr }; options: Value | undefined } | null => {
      const router = v.t === 'pkg' && ((v.pkg === TRPC_NEXT && v.path.join('.') === 'createNextApiHandler') || (v.pkg === TRPC_FETCH && v.path.join('.') === 'fetchRequestHandler')) ? endpointRouter(v) : null;
      return router && v.t === 'pkg' ? { router, options: v.args[0] } : null;
    };
    if (handler.t !== 'fn') return made(handler);
    for (const r of this.ctx.returnsWhereImported(handler, (s) => s === TRPC_FETCH)) {
      const found = made(this.ctx.ev.eval(handler.file, r));
      if (found) return found;
    }
    return null;
  }

  /**
   * A tRPC endpoint at a dynamic segment (`pages/api/trpc/[trpc].ts`, `app/api/trpc/[trpc]/route.ts`,
   * whose parameter names the procedure): each procedure of its router at the segment's place,
   * for its kind's method — those the exported handler answers — behind the route's middleware
   * and wrappers and the procedure's own (trpc.ts), located where the procedure is written. False
   * (with a warning) when the router is not known statically: the endpoint is then one route.
   */
  private trpcRoutes(
    endpoint: { router: { file: string; expr: Expr }; options: Value | undefined },
    r: EndpointRoute,
  ): boolean {
    const found = trpcProcedures(this.ctx.ev, endpoint.router, endpoint.options);
    if ('why' in found) {
      this.ctx.warn(r.file, r.place.at, trpcUnread(found.why), r.place.snippet);
      return false;
    }
    const base = segmentBase(r.path);
    for (const p of found.procedures) {
      for (const method of procedureMethods(this.ctx.ev, p.kind, endpoint.options)) {
        if (r.method !== 'ALL' && r.method !== method) continue;
        this.procedureRoute(p, r, { method, path: `${base}/${p.path}`, handler: p.path, trailingSlashInsensitive: false });
      }
    }
    return true;
  }

  /**
   * A trpc-openapi endpoint at a dynamic segment (`app/api/[...trpc]/route.ts`; trpc-openapi.ts):
   * `createOpenApiNextHandler({ router })`, handed the path its catch-all segment takes
   * (`req.query.trpc`), or a function returning `createOpenApiFetchHandler({ router, endpoint,
   * req })`, the request's path with `endpoint` taken out. Each procedure it serves over REST,
   * for its `openapi.method` — those the exported handler answers — at the paths the route's
   * file is asked for (below its catch-all), behind the route's middleware and wrappers and the
   * procedure's own, located where the procedure is written. False (with a warning) when its
   * router or `endpoint` is not known statically: it is then one route.
   */
  private openApiRoutes(endpoint: OpenApiEndpoint, r: EndpointRoute): boolean {
    const base = segmentBase(r.path);
    const optional = /\?\/?$/.test(r.path);
    const served = (path: string): boolean => path.startsWith(`${base}/`) || (optional && path === (base || '/'));
    const routes = openApiRoutes(this.ctx, endpoint, base, served, { file: r.file, ...r.place });
    if (!routes) return false;
    for (const { procedure, method, path } of routes) if (r.method === 'ALL' || r.method === method) this.procedureRoute(procedure, r, { method, path, handler: procedure.path, trailingSlashInsensitive: true });
    return true;
  }

  /** An RPC procedure's route (tRPC's, oRPC's) at an endpoint's route `r`: located where the procedure is written, behind the route's guards and its own. */
  private procedureRoute(
    p: Pick<TrpcProcedure, 'file' | 'at' | 'middleware' | 'resolver' | 'context'>,
    r: { app: string; prefixes: PrefixStep[]; guards: AppliedGuard[] },
    route: { method: string; path: string; handler: string; trailingSlashInsensitive: boolean },
  ): void {
    this.ctx.addRoute(
      {
        ...route,
        file: p.file,
        line: p.at.line,
        column: p.at.column,
        framework: 'next',
        app: r.app,
        caseSensitive: true,
        prefixes: r.prefixes,
        guards: [...r.guards, ...procedureGuards(this.ctx, p)],
        handlerFn: p.resolver?.value.t === 'fn' ? { file: p.resolver.value.file, fn: p.resolver.value.fn } : null,
        snippet: '',
      },
      null,
    );
  }

  /**
   * The procedures of the oRPC endpoints a handler serves (orpc.ts), at a catch-all segment
   * (`app/api/rpc/[[...rest]]/route.ts`): each for the methods of the route's that reach it,
   * at its path under the endpoint's `prefix` — those outside the paths the route's file
   * serves are never asked of it — behind the route's middleware, wrappers and the handler's
   * leading checks, then the procedure's middleware and its own; located where the procedure
   * is written. False when the handler serves none, or (with a warning) when an endpoint's
   * prefix or router is not known statically: the route is then one route.
   */
  private orpcRoutes(
    handler: Value,
    r: EndpointRoute,
  ): boolean {
    // the paths the route's file serves: below the catch-all's place (at it too when optional)
    const base = segmentBase(r.path);
    const optional = /\?\/?$/.test(r.path);
    const served = (path: string): boolean => path.startsWith(`${base}/`) || (optional && path === (base || '/'));
    const routes = orpcRoutes(this.ctx, handler, r.method === 'ALL' ? METHODS : [r.method], served, { file: r.file, ...r.place });
    // (both matchers take one trailing slash)
    for (const { procedure: p, method, path } of routes ?? []) this.procedureRoute(p, r, { method, path, handler: p.keys.join('.'), trailingSlashInsensitive: true });
    return routes !== null;
  }

  /**
   * An App Router handler returning `router.run(request, ctx)` of a next-connect router: the
   * functions the router runs before answering `method` — its `use()` functions and, of the
   * first registration for the method (or `all`), those before the last (the router runs the
   * matching routes in order; the first handler answers).
   */
  private connectRun(handler: Value, method: string): AppliedGuard[] {
    const ev = this.ctx.ev;
    // (a handler's returns are read only when a next-connect router exists: reading them makes
    // the kept result depend on them, and an edit making one changes an import anyway)
    this.connectRouters ??= [...ev.routers.values()].some((r) => r.made?.pkg === NEXT_CONNECT);
    if (handler.t !== 'fn' || !this.connectRouters) return [];
    for (const e of ev.returnsOf(handler.file, handler.fn)) {
      const call = e.k === 'call' ? e : null;
      if (!call || call.callee.k !== 'member' || call.callee.prop !== 'run') continue;
      const v = ev.eval(handler.file, call.callee.obj);
      const router = v.t === 'router' ? ev.routers.get(v.id) : undefined;
      if (router?.made?.pkg !== NEXT_CONNECT) continue;
      return this.connectLayers(router).find((l) => l.method === method || l.method === 'ALL')?.guards ?? [];
    }
    return [];
  }

  /**
   * A next-connect router's method registrations in order, each with the guards that run before
   * its handler: the router's `use()` functions registered before it, then its own functions
   * before the last.
   */
  private connectLayers(router: RouterObject): ConnectLayer[] {
    const done = this.layersOf.get(router.id);
    if (done) return done;
    const ev = this.ctx.ev;
    const out: ConnectLayer[] = [];
    this.layersOf.set(router.id, out);
    const uses: AppliedGuard[] = [];
    for (const b of this.ctx.registrationsOf(router.id).sort((x, y) => cmp(x.order, y.order))) {
      const { reg, file } = b;
      const first = reg.args[0] ? ev.eval(file, reg.args[0]) : null;
      // `router.get('/api/x', …)` / `router.use('/', …)`: a pattern (not matched) before the functions
      const items = ev.flatten(file, first?.t === 'str' ? reg.args.slice(1) : reg.args);
      if (reg.method === 'use') {
        for (const it of items) {
          const g = this.ctx.guard(it.file, it.expr, it.value, 'router.use', reg.at);
          if (g) uses.push(this.ctx.placed(g, file));
        }
        continue;
      }
      const method = NEXT_CONNECT_METHODS[reg.method];
      const handler = items[items.length - 1];
      if (!method || !handler) continue;
      const own: AppliedGuard[] = [];
      for (const it of items.slice(0, -1)) {
        const g = this.ctx.guard(it.file, it.expr, it.value, 'route-middleware', reg.at);
        if (g) own.push(this.ctx.placed(g, file));
      }
      out.push({ method, b, handler, guards: [...uses, ...own] });
    }
    return out;
  }

  /**
   * The routes of a next-connect router exported as a Pages Router handler, at the file's path:
   * one per registration of a method (in registration order), behind `outer` (middleware.ts,
   * wrappers), the router's `use()` functions registered before it, and its own functions before
   * the last. (A registration's own route pattern is not matched: it is listed at the file's path.)
   */
  private connectRoutes(router: RouterObject, r: { path: string; app: string; config: NextConfig; prefixes: PrefixStep[]; guards: AppliedGuard[]; other: string | null }): void {
    for (const { method, b, handler, guards } of this.connectLayers(router)) {
      const at = routePlace(b.file, b.reg);
      const written = this.ctx.writtenHandler(handler);
      this.ctx.addRoute(
        {
          method,
          path: r.path,
          file: at.file,
          line: at.line,
          column: at.column,
          framework: 'next',
          handler: handlerNameOf(this.ctx.ev, written),
          app: r.app,
          trailingSlashInsensitive: r.config.skipTrailingSlashRedirect,
          caseSensitive: true,
          ...(r.other && !r.config.skipTrailingSlashRedirect ? { slashRule: slashRule(r.path, r.other, r.config.trailingSlash) } : {}),
          prefixes: r.prefixes,
          guards: [...r.guards, ...guards, ...this.ctx.handlerGuards(handler)],
          handlerFn: written.value.t === 'fn' ? { file: written.value.file, fn: written.value.fn } : null,
          snippet: at.snippet,
        },
        null,
      );
    }
  }
}

/** What Next.js does with the other trailing-slash form of a route's paths, for drift messages. */
function slashRule(path: string, other: string, trailingSlash: boolean): string {
  // a catch-all serves many paths: the rule, not one path
  if (catchAll(path)) return `Next.js redirects each path it serves ${trailingSlash ? 'without' : 'with'} a trailing slash to the other form (308, trailingSlash: ${trailingSlash})`;
  return `Next.js redirects ${other} to ${path} (308, trailingSlash: ${trailingSlash})`;
}

/**
 * What a wrapper of the analysed code gives, as a guard is judged: the function it hands the
 * package wrapper it returns (`withWorkspace = (handler) => withAxiomBodyLog(async (req, ctx) =>
 * { …401… })`: the package logs and calls that function, which answers the request), else the value.
 */
function wrappedBy(v: Value): Value {
  if (v.t !== 'pkg' || !v.called) return v;
  const fns = v.args.filter((a) => a.t === 'fn');
  return fns.length === 1 ? fns[0]! : v;
}
