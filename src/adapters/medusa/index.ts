/**
 * Medusa v2 API routes: files under a Medusa package's `src/api/`, served by an Express router.
 * Semantics read from @medusajs/framework 2.0 (src/http/router.ts: ApiRoutesLoader; the
 * middlewares in src/http/middlewares and utils/define-middlewares.ts) and Medusa's
 * documentation (API routes, middlewares, protected routes):
 * - a package depending on `@medusajs/framework` or `@medusajs/medusa` (a project, a plugin,
 *   Medusa's own `@medusajs/medusa`) has one loader for its `src/api/`, with a router of its own
 *   (Express's `Router()`: neither strict nor case-sensitive);
 * - each `route.<ext>` below it is a route file (a file or folder whose name starts with `_` is
 *   left out, and all below it); its path is its folders, `[id]` → `:id`, `[...]` → `*`; it
 *   serves each method it exports a function for (GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD);
 * - what runs before a route's handler, in order: first the route files' own layers
 *   (`router.use(route, …)` per route file, so each runs below its path too) — for a route under
 *   `/admin` (as a string starts) whose file does not export `AUTHENTICATE = false`,
 *   `authenticate('user', ['bearer', 'session', 'api-key'])`; a store route's own
 *   authentication lets anonymous requests through, and the CORS and publishable-key layers
 *   check no caller; then what `src/api/middlewares.<ext>` exports
 *   (`defineMiddlewares({ routes })`, or the route list, or the config object itself), in its
 *   order: each route's `middlewares` under its `matcher`, `router.use(matcher, …)` without a
 *   `method` (`USE`), `router[method](matcher, …)` for each method given (`ALL` included: the
 *   whole path); then the checks the handler leads with;
 * - a matcher is an Express 4 path (`*` any characters: `/store/custom*` matches
 *   `/store/custom` and all below) or a regular expression, tried on the route's path;
 * - Medusa's own middlewares, which a project's router runs after (`@medusajs/medusa`,
 *   not analysed where a project depends on it), authenticate customers under
 *   `/store/customers/me` (its docs: default protected routes).
 */
import type { Adapter } from '../adapter.js';
import { exprName, stringsOf, type Value } from '../../link/evaluate.js';
import type { LinkContext } from '../../link/link.js';
import type { PackageInfo } from '../../project.js';
import type { AppliedGuard, Expr, Loc } from '../../types.js';
import { handlerNameOf } from '../handler-name.js';
import { applying, filledPath } from '../paths.js';
import { exportPlace } from '../next/index.js';

const DEPS = ['@medusajs/framework', '@medusajs/medusa'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
/** A segment the loader leaves out (its `#excludes`): `_`-prefixed names, maps, declarations, Markdown. */
const EXCLUDED = [/^_[^/\\]*(\.[^/\\]+)?$/, /(\.ts\.map|\.js\.map|\.d\.ts|\.md)/];
/** Medusa's own package, whose middlewares authenticate customers under `/store/customers/me` (when not analysed) */
const CORE = '@medusajs/medusa';

/** A route file's path (its folders below `src/api/`), as ApiRoutesLoader.parseRoute writes it. */
function medusaPath(dirs: string[]): string {
  return `/${dirs.join('/')}`
    .replace(/\[\.\.\.\]/g, '*')
    .replace(/\[(\w+)?/g, (_, name: string | undefined) => `:${name ?? ''}`)
    .replace(/\]/g, '');
}

/**
 * Where an Express 4 path (a middleware's `matcher`) applies, as scopes `applying` reads: a `*`
 * closing the last segment (`/store/custom*`) takes the path before it and everything below it;
 * null for a `*` anywhere else (not read).
 */
function matcherScopes(matcher: string): string[] | null {
  const star = matcher.indexOf('*');
  if (star < 0) return [matcher];
  if (star !== matcher.length - 1) return null;
  const base = matcher.slice(0, -1);
  if (base === '' || base.endsWith('/')) return [`${base}*`];
  return [base, `${base}/*`];
}

interface Layer {
  guard: AppliedGuard;
  /** the paths it applies under (`use`) or to (a method's) */
  scopes: string[] | null;
  re: RegExp | null;
  /** null: `router.use`, every method */
  method: string | null;
  /** a package's layer, written nowhere in the analysed code: placed at each route's file */
  atRoute?: true;
}

class MedusaLinker {
  constructor(private readonly ctx: LinkContext) {}

  run(): void {
    for (const pkg of this.ctx.project.packages) if (DEPS.some((d) => pkg.deps.includes(d))) this.linkPackage(pkg);
  }

  private linkPackage(pkg: PackageInfo): void {
    const api = `${pkg.dir === '' ? '' : `${pkg.dir}/`}src/api/`;
    const files = this.ctx.project.files.filter((f) => f.startsWith(api) && this.ctx.project.packageOf(f) === pkg && this.ctx.files.has(f));
    const below = (f: string): string[] => f.slice(api.length).split('/');
    const kept = files.filter((f) => !below(f).some((seg) => EXCLUDED.some((re) => re.test(seg))));
    const routeFiles = kept.filter((f) => /^route\.[^./]+$/.test(below(f).pop()!));
    if (routeFiles.length === 0) return;
    const app = pkg.dir || '.';
    const layers: Layer[] = [];
    // 1. each route file's own layers, run first (applyRouteSpecificMiddlewares)
    const routes = routeFiles.map((file) => ({ file, path: medusaPath(below(file).slice(0, -1)) }));
    for (const r of routes) {
      if (!r.path.startsWith('/admin')) continue;
      const opt = this.ctx.ev.exportValue(r.file, 'AUTHENTICATE', 0);
      const declared = this.ctx.files.get(r.file)!.exports.some((x) => x.exported === 'AUTHENTICATE');
      if (declared && opt.t === 'bool' && !opt.v) continue;
      const guard: AppliedGuard = {
        name: "authenticate('user', ['bearer', 'session', 'api-key'])",
        kinds: ['auth'],
        families: [],
        reason: 'by framework (Medusa authenticates an admin user for every route file under /admin that does not export AUTHENTICATE = false, and below its path)',
        mechanism: 'router.use',
        file: r.file,
        line: 1,
      };
      if (declared && opt.t !== 'bool') guard.when = 'AUTHENTICATE (exported, not known statically) is not false';
      layers.push({ guard, scopes: [r.path], re: null, method: null });
    }
    // 2. the middlewares file's routes, in order
    const mw = kept.find((f) => below(f).length === 1 && below(f)[0]!.replace(/\.[^/.]+$/, '') === 'middlewares');
    if (mw) layers.push(...this.middlewares(mw));
    // 3. Medusa's own, where it is a package of the project's (not analysed)
    if (!this.ctx.project.packages.some((p) => p.name === CORE)) {
      layers.push({
        guard: {
          name: "authenticate('customer', ['session', 'bearer'])",
          kinds: ['auth'],
          families: [],
          reason: `by package (${CORE}'s own middlewares authenticate a customer for every route under /store/customers/me)`,
          mechanism: 'router.use',
          file: '',
          line: 1,
        },
        scopes: ['/store/customers/me'],
        re: null,
        method: null,
        atRoute: true,
      });
    }
    for (const r of routes) {
      const facts = this.ctx.files.get(r.file)!;
      for (const m of METHODS) {
        if (!facts.exports.some((x) => x.exported === m)) continue;
        const def = this.ctx.ev.exportDefinition(r.file, m);
        const value = def ? this.ctx.ev.eval(def.file, def.expr) : this.ctx.ev.exportValue(r.file, m, 0);
        // (only functions are handlers: ApiRoutesLoader skips any other export)
        if (value.t !== 'fn' && value.t !== 'pkg' && value.t !== 'unknown' && value.t !== 'param') continue;
        const handler = def ? { file: def.file, expr: def.expr, value } : null;
        const place = exportPlace(facts, m) ?? { at: { line: 1, column: 1 }, snippet: '' };
        const all = [...applied(layers, m, r.path).map((l) => (l.atRoute ? { ...l.guard, file: r.file } : l.guard)), ...(handler ? this.ctx.handlerGuards(handler) : [])];
        // (one applied only when what is not known statically holds guards nothing: listed apart)
        const conditional = all.filter((g) => g.when !== undefined);
        this.ctx.addRoute(
          {
            method: m,
            path: r.path,
            file: r.file,
            line: place.at.line,
            column: place.at.column,
            framework: 'medusa',
            handler: (handler && handlerNameOf(this.ctx.ev, handler)) ?? m,
            app,
            trailingSlashInsensitive: true,
            caseSensitive: false,
            prefixes: [],
            guards: all.filter((g) => g.when === undefined),
            ...(conditional.length > 0 ? { conditionalGuards: conditional } : {}),
            handlerFn: value.t === 'fn' ? { file: value.file, fn: value.fn } : null,
            snippet: place.snippet,
          },
          null,
        );
      }
    }
  }

  /**
   * The layers `src/api/middlewares.<ext>` makes: its default export, `defineMiddlewares(config)`
   * (of Medusa's, or one of that name), the config object (`{ routes }`) or the list of routes.
   */
  private middlewares(file: string): Layer[] {
    const ev = this.ctx.ev;
    const def = ev.exportDefinition(file, 'default');
    const unknown = (why: string): Layer[] => {
      this.ctx.warn(file, { line: 1, column: 1 }, `the middlewares this file exports are not known statically (${why}); no route is taken to run them`, '');
      return [];
    };
    if (!def) return unknown('no default export of a known value');
    let f = def.file;
    let e: Expr = def.expr;
    // (where an entry is located when its middleware is no call written in it: an object literal has no place of its own)
    let written: Loc = { line: 1, column: 1 };
    for (let depth = 0; depth < 8 && e.k === 'call'; depth++) {
      const callee = ev.eval(f, e.callee);
      const name = callee.t === 'pkg' ? callee.path[callee.path.length - 1] : callee.t === 'fn' ? ev.fnOf(callee.file, callee.fn)?.name : exprName(e.callee);
      if (name !== 'defineMiddlewares' || !e.args[0]) break;
      if (f === file) written = e.at;
      e = e.args[0];
    }
    const config = ev.eval(f, e);
    let list: { file: string; expr: Expr } | null = null;
    if (config.t === 'arr') list = { file: f, expr: e };
    else if (config.t === 'obj') {
      const routes = config.props.routes;
      if (!routes) return [];
      list = { file: config.file, expr: routes };
    }
    if (!list) return unknown(`a ${config.t === 'unknown' ? config.why : config.t}`);
    f = list.file;
    const out: Layer[] = [];
    for (const item of ev.flatten(f, [list.expr])) {
      if (item.value.t !== 'obj') {
        this.ctx.warn(item.file, { line: 1, column: 1 }, 'a route of the middlewares config is not known statically; its middlewares are not taken to run', '');
        continue;
      }
      const o = item.value;
      const matcher = o.props.matcher ? ev.eval(o.file, o.props.matcher) : null;
      let scopes: string[] | null = null;
      let re: RegExp | null = null;
      if (matcher?.t === 'str') scopes = matcherScopes(matcher.v);
      else if (matcher?.t === 're') re = new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, ''));
      if (!scopes && !re) {
        this.ctx.warn(o.file, o.file === file ? written : { line: 1, column: 1 }, `the matcher of this middlewares route is not known statically (${matcher ? valueNote(matcher) : 'none given'}); its middlewares are not taken to run`, '');
        continue;
      }
      const methodValue = o.props.method ? ev.eval(o.file, o.props.method) : null;
      const methods = methodValue ? stringsOf(methodValue) : ['USE'];
      const mws = o.props.middlewares ? ev.flatten(o.file, [o.props.middlewares]) : [];
      for (const it of mws) {
        // (located at the middleware's call when it is one written there)
        const at = it.file === o.file && it.expr.k === 'call' ? it.expr.at : o.file === file ? written : { line: 1, column: 1 };
        // (classified once for `use`, once for the methods named: the same guards for each method)
        const byMechanism = new Map<'router.use' | 'pass-through-route', AppliedGuard[]>();
        const guardsAs = (mechanism: 'router.use' | 'pass-through-route'): AppliedGuard[] => {
          let gs = byMechanism.get(mechanism);
          if (!gs) {
            const g = this.ctx.guard(it.file, it.expr, it.value, mechanism, at);
            gs = this.ctx.layerGuards(g, it.value, (y) => this.ctx.placed(y, o.file, at.line), it).map((x) => (methods ? x : { ...x, when: `the methods of this middlewares route (not known statically) include the route's` }));
            byMechanism.set(mechanism, gs);
          }
          return gs;
        };
        for (const method of methods ?? ['ALL']) {
          const verb = method.toUpperCase();
          for (const guard of guardsAs(verb === 'USE' ? 'router.use' : 'pass-through-route')) out.push({ guard, scopes, re, method: verb === 'USE' ? null : verb });
        }
      }
    }
    return out;
  }
}

/** The layers that run for a `method` request to `path`. */
function applied(layers: Layer[], method: string, path: string): Layer[] {
  const sample = filledPath(path, (name) => name, (name) => name);
  return layers
    .filter((l) => {
      if (l.method !== null && l.method !== 'ALL' && l.method !== method) return false;
      if (l.re) return l.re.test(sample);
      // (a method's layer matches the whole path, `use` its start)
      const route = l.method !== null ? { method: 'ALL', strict: false } : undefined;
      return (l.scopes ?? []).some((scope) => applying([{ guard: l.guard, scope, caseSensitive: false, ...(route ? { route } : {}) }], method, path).length > 0);
    });
}

function valueNote(v: Value): string {
  return v.t === 'unknown' ? v.why : `a ${v.t}`;
}

export const medusaAdapter: Adapter = {
  name: 'medusa',
  title: 'Medusa',
  modules: [],

  link(ctx: LinkContext): void {
    new MedusaLinker(ctx).run();
  },
};
