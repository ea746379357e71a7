/**
 * Servers of frameworks route-surface has no adapter for. A hapi server, a restify server or an
 * h3 app serves routes the analysis does not list, and a report listing none of them would
 * say there was nothing to check (a hapi service's report held only the contract routes it
 * misses). So each such server made in the analysed code is an unresolved-route warning where it
 * is made: what it serves is not known statically.
 *
 * A server is recognised by the call that makes it, read from each framework's documentation:
 * hapi `Hapi.server(options)` / `new Hapi.Server(options)`; restify `restify.createServer()`;
 * h3 `createApp()` and `createRouter()` (v1) and `new H3()` (v2); polka
 * `polka()`; tinyhttp `new App()`; hyper-express `new HyperExpress.Server()` and `new
 * HyperExpress.Router()`; Feathers `express(feathers())` of @feathersjs/express and
 * `koa(feathers())` of @feathersjs/koa (`feathers()` alone may be a client); microrouter's
 * `router(get('/', hello), …)` (micro's router); itty-router's `Router()`, `AutoRouter()` and
 * `IttyRouter()` (v4 and v5, the Workers router). Importing the
 * package alone (a type, a helper such as h3's `getCookie` in a Nuxt route) makes no server and
 * says nothing.
 */
import type { Adapter } from './adapter.js';
import { declaringScope, type LinkContext } from '../link/link.js';
import type { FileFacts } from '../types.js';
import { evaluatePackageCalls } from './package-calls.js';

interface Unread {
  /** the framework's name, as its documentation writes it, and the article it is said with */
  title: string;
  article: 'a' | 'an';
  modules: string[];
  /** the exports whose call (or `new`) makes a server or router: '' for the module's own value (`polka()`) */
  makers: Record<string, 'server' | 'app' | 'router'>;
}

const UNREAD: Unread[] = [
  { title: 'hapi', article: 'a', modules: ['@hapi/hapi', 'hapi'], makers: { server: 'server', Server: 'server' } },
  { title: 'restify', article: 'a', modules: ['restify'], makers: { createServer: 'server' } },
  { title: 'h3', article: 'an', modules: ['h3'], makers: { createApp: 'app', createRouter: 'router', H3: 'app' } },
  { title: 'polka', article: 'a', modules: ['polka'], makers: { '': 'app' } },
  { title: 'tinyhttp', article: 'a', modules: ['@tinyhttp/app'], makers: { App: 'app' } },
  { title: 'hyper-express', article: 'a', modules: ['hyper-express'], makers: { Server: 'server', Router: 'router' } },
  // (`feathers()` alone may be a client, `feathers().configure(rest(url).fetch(fetch))`: a server is the transport's app)
  { title: 'Feathers', article: 'a', modules: ['@feathersjs/express', '@feathersjs/koa'], makers: { '': 'app', koa: 'app' } },
  { title: 'microrouter', article: 'a', modules: ['microrouter'], makers: { router: 'router' } },
  { title: 'itty-router', article: 'an', modules: ['itty-router'], makers: { Router: 'router', AutoRouter: 'router', IttyRouter: 'router' } },
];

/**
 * Frameworks whose routes are files (their folders and names the paths), in a package that
 * depends on one of `deps`: the route files are those under `dirs` (of the package's directory)
 * that `route` takes, given their path below the folder. Read from each framework's
 * documentation and source: SvelteKit's `+server` endpoints and the `load` functions and form
 * actions of `+page.server` / `+layout.server` under `src/routes/`; Nuxt's `server/api/` and
 * `server/routes/`; Nitro's `api/` and `routes/` (and under `server/`, its usual source
 * directory); Astro's endpoints, the script files under `src/pages/` but those a `_` starts the
 * name of, or of a folder they are in; the route modules of Remix and React Router (framework
 * mode) under `app/routes/`, whose loaders and actions the server answers: with the flat-routes
 * convention (@remix-run/dev's `flatRoutes`), each module the folder holds, and the `route` or
 * `index` module of each folder it holds (their other modules colocated, no routes); Strapi's
 * router files, `src/api/[apiName]/routes/[routerName].ts`; LoopBack 4's controllers,
 * `src/controllers/*.controller.ts` (as its CLI writes them); Sails's `config/routes.js` and the
 * actions under `api/controllers/`, which its blueprints route. Each in its default folders
 * only: one a config moves elsewhere is not looked for.
 */
interface FileRouted {
  title: string;
  article: 'a' | 'an';
  deps: string[];
  dirs: string[];
  /** whether the file `below` one of `dirs` (`dir`, as `dirs` writes it) is a route file */
  route(below: string, dir: string): boolean;
}

/** A script module's name (a declaration file is none). */
const SCRIPT = /^(?!.*\.d\.[cm]?ts$).*\.[cm]?[jt]s$/;
/** What Nitro scans its folders for (nitropack's GLOB_SCAN_PATTERN, `**\/*.{js,mjs,cjs,ts,mts,cts,tsx,jsx}`). */
const NITRO_HANDLER = /^(?!.*\.d\.[cm]?ts$).*\.(?:[cm]?[jt]s|tsx|jsx)$/;
/** Remix's route module extensions, as the analysed files have them (`.md` and `.mdx` are not analysed). */
const ROUTE_MODULE = /^(?!.*\.d\.ts$)[^/]*\.(?:js|jsx|ts|tsx)$/;
const flatRoute = (below: string): boolean => ROUTE_MODULE.test(below) || /^[^/]+\/(?:route|index)\.(?:js|jsx|ts|tsx)$/.test(below);

const FILE_ROUTED: FileRouted[] = [
  { title: 'SvelteKit', article: 'a', deps: ['@sveltejs/kit'], dirs: ['src/routes/'], route: (below) => /(?:^|\/)\+(?:server|page\.server|layout\.server)\.[cm]?[jt]s$/.test(below) },
  { title: 'Nuxt', article: 'a', deps: ['nuxt'], dirs: ['server/api/', 'server/routes/'], route: (below) => NITRO_HANDLER.test(below) },
  { title: 'Nitro', article: 'a', deps: ['nitropack', 'nitro'], dirs: ['api/', 'routes/', 'server/api/', 'server/routes/'], route: (below) => NITRO_HANDLER.test(below) },
  { title: 'Astro', article: 'an', deps: ['astro'], dirs: ['src/pages/'], route: (below) => SCRIPT.test(below) && !/(?:^|\/)_/.test(below) },
  // (a server runtime package: a Remix or React Router app served, not only built for the browser)
  { title: 'Remix', article: 'a', deps: ['@remix-run/node', '@remix-run/cloudflare', '@remix-run/deno', '@remix-run/serve', '@remix-run/express', '@remix-run/architect'], dirs: ['app/routes/'], route: flatRoute },
  { title: 'React Router', article: 'a', deps: ['@react-router/node', '@react-router/cloudflare', '@react-router/serve', '@react-router/express', '@react-router/architect'], dirs: ['app/routes/'], route: flatRoute },
  { title: 'Strapi', article: 'a', deps: ['@strapi/strapi'], dirs: ['src/api/'], route: (below) => /^[^/]+\/routes\/[^/]+$/.test(below) && SCRIPT.test(below) },
  { title: 'LoopBack', article: 'a', deps: ['@loopback/rest'], dirs: ['src/controllers/'], route: (below) => /\.controller\.[cm]?[jt]s$/.test(below) },
  // (`config/routes.js`, and the actions of `api/controllers/`, which its blueprints route too)
  { title: 'Sails', article: 'a', deps: ['sails'], dirs: ['config/', 'api/controllers/'], route: (below, dir) => (dir === 'config/' ? below === 'routes.js' : SCRIPT.test(below)) },
];

/**
 * Routers a package makes once and exports, routes registered on them in the files that import
 * them: AdonisJS's (`import router from '@adonisjs/core/services/router'`, v6; `import Route from
 * '@ioc:Adonis/Core/Route'`, v5), whose routes its documentation puts in `start/routes.ts`.
 */
const SINGLETON_ROUTERS: { title: string; article: 'a' | 'an'; modules: string[] }[] = [
  { title: 'AdonisJS', article: 'an', modules: ['@adonisjs/core/services/router', '@ioc:Adonis/Core/Route'] },
];

const FRAMEWORK = 'unread';

function unreadOf(pkg: string): Unread | undefined {
  return UNREAD.find((u) => u.modules.includes(pkg));
}

/** What a package call makes: the framework and the word for it, or null. */
function made(pkg: string, path: string[]): { u: Unread; what: 'server' | 'app' | 'router' } | null {
  const u = unreadOf(pkg);
  if (!u || path.length > 1) return null;
  const key = path[0] ?? '';
  return Object.hasOwn(u.makers, key) ? { u, what: u.makers[key]! } : null;
}

/** Whether a file imports one of these packages: the linker then reads every binding and call of it (evaluatePackageCalls). */
function importsUnread(facts: FileFacts): boolean {
  return facts.imports.some((i) => unreadOf(i.source));
}

/**
 * The route files of a file-routed framework, once per package depending on it: a warning at
 * the first (in path order) says how many there are and where.
 */
function warnRouteFiles(ctx: LinkContext): void {
  for (const pkg of ctx.project.packages) {
    for (const fw of FILE_ROUTED) {
      if (!fw.deps.some((d) => pkg.deps.includes(d))) continue;
      const base = pkg.dir === '' ? '' : `${pkg.dir}/`;
      const dirs = fw.dirs.map((d) => base + d);
      const files = ctx.project.files.filter((f) => ctx.project.packageOf(f) === pkg && fw.dirs.some((d, i) => f.startsWith(dirs[i]!) && fw.route(f.slice(dirs[i]!.length), d)));
      if (files.length === 0) continue;
      const under = [...new Set(dirs.filter((d) => files.some((f) => f.startsWith(d))))].join(', ');
      const what =
        files.length === 1
          ? `this is ${fw.article} ${fw.title} route file (under ${under}), and route-surface has no adapter for ${fw.title}: the routes it serves are not listed`
          : `this is the first of ${files.length} ${fw.title} route files (under ${under}), and route-surface has no adapter for ${fw.title}: the routes they serve are not listed`;
      ctx.warn(files[0]!, { line: 1, column: 1 }, what, '');
    }
  }
}

/**
 * Each file registering routes on a package's one router (SINGLETON_ROUTERS): a warning at its
 * first registration on it.
 */
function warnSingletonRoutes(ctx: LinkContext): void {
  // (in any order: findings are sorted when reported)
  for (const [file, facts] of ctx.files) {
    for (const fw of SINGLETON_ROUTERS) {
      const imp = facts.imports.find((i) => fw.modules.includes(i.source) && (i.imported === 'default' || i.imported === '='));
      if (!imp) continue;
      // (`router.use([…])` in start/kernel.ts: the router's middleware, no route)
      const on = facts.registrations
        .filter((r) => {
          if (r.method === 'use') return false;
          let e = r.target;
          while (e.k === 'member' || e.k === 'call') e = e.k === 'member' ? e.obj : e.callee;
          return e.k === 'ref' && e.name === imp.local && declaringScope(facts, e.scope, e.name) === -1;
        })
        .sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
      const first = on[0];
      if (first) ctx.warn(file, first.at, `${fw.article} ${fw.title} route is registered here (on the router of ${imp.source}), and route-surface has no adapter for ${fw.title}: the routes this file registers are not listed`, first.snippet);
    }
  }
}

export const unreadAdapter: Adapter = {
  name: FRAMEWORK,
  title: 'frameworks route-surface reads no routes of',
  modules: UNREAD.flatMap((u) => u.modules),

  create(pkg, path) {
    return made(pkg, path) ? { kind: 'app', strict: false, caseSensitive: false } : null;
  },

  readsEveryBinding: importsUnread,

  link(ctx: LinkContext): void {
    for (const [file, facts] of ctx.files) evaluatePackageCalls(ctx, file, facts, (source) => unreadOf(source) !== undefined);
    const said = new Set<string>();
    for (const r of ctx.routersOf(FRAMEWORK)) {
      const m = r.made && made(r.made.pkg, r.made.path);
      const place = `${r.file}:${r.at.line}:${r.at.column}`;
      if (!m || said.has(place)) continue;
      said.add(place);
      ctx.warn(r.file, r.at, `${m.u.article} ${m.u.title} ${m.what} (${r.made!.pkg}) is made here, and route-surface has no adapter for ${m.u.title}: the routes it serves are not listed`, '');
    }
    warnRouteFiles(ctx);
    warnSingletonRoutes(ctx);
  },
};
