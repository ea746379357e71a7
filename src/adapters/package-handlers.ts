/**
 * Request handlers made by packages that answer every request reaching them, whatever its path
 * below where they are used (none calls `next`): used at a path, each is a route there, for
 * any method, behind what runs before it. Each entry was read in the package's source.
 *
 * Express (an app or router's `use(path, …)`, also the Express instance under a NestJS app):
 * - swagger-ui-express (5.0.1, index.js): `setup(document, …)` sends the Swagger UI page;
 * - @apollo/server/express4 (4.11, express4/index.ts), @as-integrations/express4 and
 *   @as-integrations/express5 (1.1): `expressMiddleware(server, …)` runs every request through
 *   `server.executeHTTPGraphQLRequest` (a 500 when no body parser ran before it; a GET or POST
 *   query is answered, another method with 405);
 * - express-graphql (0.12.0, index.js): `graphqlHTTP(options)` answers GET and POST (405 else);
 * - graphql-http (1.22, lib/use/express.js): `createHandler(options)` answers each request;
 * - @trpc/server/adapters/express (10.45 and 11, adapters/express.ts):
 *   `createExpressMiddleware({ router, … })`, the procedure named by the path below the mount;
 * - trpc-openapi (1.2) and trpc-to-openapi (3.x), src/adapters/express.ts:
 *   `createOpenApiExpressMiddleware({ router, … })`, the procedure whose `openapi` meta gives
 *   the method and the path below the mount (trpc-openapi.ts), a 404 for any other;
 * - graphql-yoga (5.x, src/server.ts): the server `createYoga(options)` makes, used at its
 *   `graphqlEndpoint` (`app.use(yoga.graphqlEndpoint, yoga)`, `packageConstant`; `app.use(yoga)`,
 *   `yogaServerPath`);
 * - @scalar/express-api-reference (0.8, dist/apiReference.js): `apiReference(config)` sends the
 *   API reference page;
 * - @bull-board/express (9.10, dist/ExpressAdapter.js): `new ExpressAdapter().getRouter()`, the
 *   queue dashboard's router — its page, its static files and the API the page calls (@bull-board/api
 *   dist/routes.js: reading, and PUT / POST / DELETE to retry, clean, pause, empty or obliterate
 *   queues and jobs), all below where it is used;
 * - oidc-provider (9.x, lib/provider.js): `provider.callback()`, the request listener of the
 *   OpenID Connect provider's Koa app (`new Provider(issuer, …)`, below), mounted as its
 *   documentation shows, `app.use('/oidc', provider.callback())`.
 *
 * Hono (`app.use(path, …)`):
 * - @hono/graphql-server (0.5, src/index.ts): `graphqlServer(options)` answers GET and POST (405
 *   else);
 * - @hono/trpc-server (0.3, src/index.ts): `trpcServer({ router, endpoint })` hands every
 *   request to tRPC's fetch handler;
 * - @scalar/hono-api-reference (0.9, dist/scalar.js): `Scalar(config)` (also exported as
 *   `apiReference`) answers with the API reference page;
 * - @hono/swagger-ui (0.6, dist/index.js): `swaggerUI(options)` answers with the Swagger UI page;
 * - @bull-board/hono (6.x, src/HonoAdapter.ts): `new HonoAdapter(serveStatic).registerPlugin()`,
 *   the app of the queue dashboard — its page, its static files and the API the page calls, as
 *   the Express adapter's — given to `app.route(path, …)`.
 *
 * Hono's `app.get(path, …)` whose last function is one of these is a route (HonoAdapter.isMiddleware).
 *
 * Koa (`app.use(mount(path, …))` of koa-mount):
 * - koa-graphql (0.12.0, index.js): `graphqlHTTP(options)`, as express-graphql's;
 * - @as-integrations/koa (1.1, src/index.ts): `koaMiddleware(server, …)`, as Apollo's Express one;
 * - oidc-provider (9.x, lib/provider.js: `class Provider extends Koa`, its default export and
 *   `Provider`): `new Provider(issuer, …)`, an OpenID Connect provider, the Koa app answering
 *   its endpoints (authorization, token, userinfo, JWKS, discovery …) below where it is
 *   mounted (logto's `mount('/oidc', provider)`).
 */
import type { Evaluator, Value } from '../link/evaluate.js';
import type { AppliedGuard } from '../types.js';
import { TRPC_OPENAPI } from './trpc-openapi.js';

/** tRPC's Express adapter and Hono's: an endpoint's routes are its router's procedures (trpc.ts), when that router is known. */
export const TRPC_EXPRESS = '@trpc/server/adapters/express';
export const HONO_TRPC = '@hono/trpc-server';

interface PackageHandler {
  framework: 'express' | 'hono' | 'koa';
  /** the module specifiers it is imported from */
  modules: string[];
  /** the export that makes the handler when called (or, with `method`, the class whose instance does); '' for the module's default export */
  factory: string;
  /** the method of an instance of `factory` that makes the handler (`new ExpressAdapter().getRouter()`) */
  method?: string;
}

const HANDLERS: PackageHandler[] = [
  { framework: 'express', modules: ['swagger-ui-express'], factory: 'setup' },
  { framework: 'express', modules: ['@apollo/server/express4', '@as-integrations/express4', '@as-integrations/express5'], factory: 'expressMiddleware' },
  { framework: 'express', modules: ['express-graphql'], factory: 'graphqlHTTP' },
  { framework: 'express', modules: ['graphql-http/lib/use/express'], factory: 'createHandler' },
  { framework: 'express', modules: [TRPC_EXPRESS], factory: 'createExpressMiddleware' },
  { framework: 'express', modules: TRPC_OPENAPI, factory: 'createOpenApiExpressMiddleware' },
  { framework: 'express', modules: ['graphql-yoga'], factory: 'createYoga' },
  { framework: 'express', modules: ['@scalar/express-api-reference'], factory: 'apiReference' },
  { framework: 'express', modules: ['@bull-board/express'], factory: 'ExpressAdapter', method: 'getRouter' },
  { framework: 'express', modules: ['oidc-provider'], factory: 'Provider', method: 'callback' },
  { framework: 'express', modules: ['oidc-provider'], factory: '', method: 'callback' },
  { framework: 'hono', modules: ['@hono/graphql-server'], factory: 'graphqlServer' },
  { framework: 'hono', modules: [HONO_TRPC], factory: 'trpcServer' },
  { framework: 'hono', modules: ['@scalar/hono-api-reference'], factory: 'Scalar' },
  { framework: 'hono', modules: ['@scalar/hono-api-reference'], factory: 'apiReference' },
  { framework: 'hono', modules: ['@hono/swagger-ui'], factory: 'swaggerUI' },
  { framework: 'hono', modules: ['@bull-board/hono'], factory: 'HonoAdapter', method: 'registerPlugin' },
  { framework: 'koa', modules: ['koa-graphql'], factory: 'graphqlHTTP' },
  { framework: 'koa', modules: ['@as-integrations/koa'], factory: 'koaMiddleware' },
  { framework: 'koa', modules: ['oidc-provider'], factory: 'Provider' },
  { framework: 'koa', modules: ['oidc-provider'], factory: '' },
];

/** The package whose handler `v` is (made by calling its factory), for an app of `framework`; null when it is none. */
export function answeringPackage(v: Value, framework: PackageHandler['framework']): string | null {
  if (v.t !== 'pkg' || !v.called) return null;
  const name = v.path[0] === 'default' ? v.path.slice(1) : v.path;
  // (the names read from the module, `ExpressAdapter`, `()`, `getRouter` of `new ExpressAdapter().getRouter()`)
  const made = (h: PackageHandler): boolean => {
    const expected = [...(h.factory === '' ? [] : [h.factory]), ...(h.method ? ['()', h.method] : [])];
    return name.length === expected.length && expected.every((n, i) => name[i] === n);
  };
  return HANDLERS.some((h) => h.framework === framework && made(h) && h.modules.includes(v.pkg)) ? v.pkg : null;
}

/**
 * The Apollo Server integrations: each handed the server (`expressMiddleware(server)`; Fastify's
 * `fastifyApollo(server)` makes the plugin declaring its route, FastifyApp.apollo; Next.js's
 * `startServerAndCreateNextHandler(server)` the handler a route exports).
 */
const APOLLO_INTEGRATIONS = ['@apollo/server/express4', '@as-integrations/express4', '@as-integrations/express5', '@as-integrations/koa', '@as-integrations/fastify', '@as-integrations/next'];

/**
 * The guards a package's handler `v` applies itself (Apollo Server's CSRF prevention,
 * `apolloCsrf`; GraphQL Yoga's, `yogaCsrf`), placed where the route is registered.
 */
export function answeringGuards(ev: Evaluator, v: Value, file: string, line: number): AppliedGuard[] {
  if (v.t === 'pkg' && v.pkg === 'graphql-yoga' && v.called && v.path.join('.') === 'createYoga') return yogaCsrf(ev, v.args[0], file, line);
  const origin = betterAuthOriginCheck(ev, v, file, line);
  if (origin) return [origin];
  if (v.t !== 'pkg' || !APOLLO_INTEGRATIONS.includes(v.pkg)) return [];
  const server = v.args[0];
  return server?.t === 'pkg' && server.called && server.path.length === 1 && server.path[0] === 'ApolloServer' ? apolloCsrf(ev, server.pkg, server.args[0], file, line) : [];
}

/**
 * Apollo Server's CSRF prevention (@apollo/server 4 and 5, src/preventCsrf.ts): an operation a
 * browser may send cross-site without a preflight — no content type, or one of the three a form
 * can send — is refused unless it carries `x-apollo-operation-name` or `apollo-require-preflight`.
 * On unless `csrfPrevention: false` from 4.0 (`pkg` @apollo/server); off unless
 * `csrfPrevention: true` in 3.x (apollo-server-express, apollo-server-koa, apollo-server; 2.x
 * has none). `options`: those the server is made with (`new ApolloServer(options)`).
 */
export function apolloCsrf(ev: Evaluator, pkg: string, options: Value | undefined, file: string, line: number): AppliedGuard[] {
  const v4 = pkg === '@apollo/server';
  if (!v4 && pkg !== 'apollo-server-express' && pkg !== 'apollo-server-koa' && pkg !== 'apollo-server') return [];
  const given = options?.t === 'obj' && 'csrfPrevention' in options.props ? ev.member(options, 'csrfPrevention', 0) : undefined;
  // (given as an object, `{ requestHeaders }`, it is on)
  const on = given === undefined ? v4 : given.t === 'bool' ? given.v : given.t === 'obj';
  return on ? [csrfPrevention('ApolloServer csrfPrevention', pkg, file, line)] : [];
}

/**
 * mercurius's CSRF prevention (16.x, lib/csrf.js), the same check as Apollo's (its headers
 * `x-mercurius-operation-name`, `mercurius-require-preflight`): on only with `csrfPrevention`
 * true or a configuration object, in the options mercurius is registered with.
 */
export function mercuriusCsrf(ev: Evaluator, options: Value | null | undefined, file: string, line: number): AppliedGuard[] {
  const given = options?.t === 'obj' && 'csrfPrevention' in options.props ? ev.member(options, 'csrfPrevention', 0) : undefined;
  const on = given !== undefined && ((given.t === 'bool' && given.v) || given.t === 'obj');
  return on ? [csrfPrevention('mercurius csrfPrevention', 'mercurius', file, line)] : [];
}

/**
 * GraphQL Yoga's CSRF prevention (@graphql-yoga/plugin-csrf-prevention 3.x, src/index.ts: a
 * request without one of its `requestHeaders` is refused with 403): only when the server's
 * `plugins` hold `useCSRFPrevention(…)`, in the options it is made with.
 */
export function yogaCsrf(ev: Evaluator, options: Value | null | undefined, file: string, line: number): AppliedGuard[] {
  const plugins = options?.t === 'obj' && 'plugins' in options.props ? ev.member(options, 'plugins', 0) : undefined;
  const on = plugins?.t === 'arr' && plugins.items.some((p) => p.t === 'pkg' && p.called && p.pkg === '@graphql-yoga/plugin-csrf-prevention' && p.path.join('.') === 'useCSRFPrevention');
  return on ? [csrfPrevention('useCSRFPrevention', '@graphql-yoga/plugin-csrf-prevention', file, line)] : [];
}

/**
 * better-auth's origin check (read at 1.2 and 1.3, src/api/middlewares/origin-check.ts, run by its
 * router before every endpoint): a request other than GET, OPTIONS or HEAD that carries cookies is
 * refused (403 "Invalid origin") unless its Origin (or Referer) is one of `trustedOrigins` —
 * unless the instance's `advanced.disableCSRFCheck` (or, before, `advanced.disableOriginCheck`)
 * turns it off. `v` answers the request through an instance `betterAuth({ … })` made: its
 * `handler` (on Hono, `(c) => auth.handler(c.req.raw)`), `toNodeHandler(auth)` of
 * better-auth/node (Express), a method of `toNextJsHandler(auth)` of better-auth/next-js. Null for
 * any other value, or when the options may turn the check off.
 */
export function betterAuthOriginCheck(ev: Evaluator, v: Value, file: string, line: number): AppliedGuard | null {
  if (v.t !== 'pkg') return null;
  const path = v.path.join('.');
  const handed = v.pkg === 'better-auth/node' && v.called && path === 'toNodeHandler' ? v.args[0] : v.pkg === 'better-auth/next-js' && /^toNextJsHandler\.\(\)\.(GET|POST)$/.test(path) ? v.made?.[0] : v;
  // (the instance itself, or its handler)
  const options = handed?.t !== 'pkg' || handed.pkg !== 'better-auth' ? null : handed.called && handed.path.join('.') === 'betterAuth' ? handed.args[0] : handed.path.join('.') === 'betterAuth.().handler' ? handed.made?.[0] : null;
  if (options?.t !== 'obj') return null;
  const advanced = 'advanced' in options.props ? ev.member(options, 'advanced', 0) : undefined;
  if (advanced !== undefined && advanced.t !== 'obj') return null;
  for (const key of ['disableCSRFCheck', 'disableOriginCheck']) {
    const off = advanced && key in advanced.props ? ev.member(advanced, key, 0) : undefined;
    if (off !== undefined && !(off.t === 'bool' && !off.v)) return null;
  }
  return {
    name: 'better-auth origin check',
    kinds: ['csrf'],
    families: [],
    reason: 'by package (better-auth refuses a request other than GET that carries cookies from an origin not in its trustedOrigins)',
    mechanism: 'in-handler',
    file,
    line,
  };
}

/** A GraphQL server's own CSRF prevention, as a guard in its handler. */
function csrfPrevention(name: string, pkg: string, file: string, line: number): AppliedGuard {
  return { name, kinds: ['csrf'], families: [], reason: `by package (${pkg} refuses an operation a browser may send cross-site without a preflight)`, mechanism: 'in-handler', file, line };
}

/**
 * A property of a package-made value that the package fixes: `yoga.graphqlEndpoint` of
 * `const yoga = createYoga(options)` (graphql-yoga 5, src/server.ts) is `options.graphqlEndpoint`,
 * '/graphql' unless given. Null for any other value.
 */
export function packageConstant(ev: Evaluator, v: Value): Value | null {
  if (v.t !== 'pkg' || v.pkg !== 'graphql-yoga' || v.path.join('.') !== 'createYoga.().graphqlEndpoint') return null;
  return yogaEndpoint(ev, v.made?.[0]);
}

/**
 * Where a Yoga server used without a path (`app.use(yoga)`) answers: its `graphqlEndpoint`. Its
 * node adapter reads the request's whole URL (@whatwg-node/server 0.11, utils.ts: `originalUrl`)
 * and answers GraphQL at a path ending with the endpoint, 404 (or its landing page) at any other
 * (graphql-yoga 5.24, plugins/use-unhandled-route.ts). Null when `v` is no Yoga server.
 */
export function yogaServerPath(ev: Evaluator, v: Value): Value | null {
  if (v.t !== 'pkg' || v.pkg !== 'graphql-yoga' || !v.called || v.path.join('.') !== 'createYoga') return null;
  return yogaEndpoint(ev, v.args[0]);
}

/** A Yoga server's `graphqlEndpoint`, from the options it is made with. */
function yogaEndpoint(ev: Evaluator, opts: Value | undefined): Value | null {
  if (opts === undefined) return { t: 'str', v: '/graphql' };
  if (opts.t !== 'obj') return null;
  const given = ev.member(opts, 'graphqlEndpoint', 0);
  return given.t === 'unknown' && given.why.startsWith('no property ') ? { t: 'str', v: '/graphql' } : given;
}
