/**
 * Guard recognition (SPEC section 5): by package, by name, and by behaviour.
 */
import { isRegexEntry, type Config } from './config.js';
import { exprName, stringsOf, type Evaluator, type Value } from './link/evaluate.js';
import { isUserPath, MAKES_OR_READS, REQUEST_GETTER, TEAM_WORD } from './extract/extract.js';
import type { Behaviour, Expr, GuardKind, LeadingGuard } from './types.js';

/**
 * Whether a guard's name matches; `listed`, when the config lists names, whether a name as
 * written is one of them (`gate.check`, the dotted name a finding prints, for a guard whose
 * definition is found and which is matched by its own name, `check`, otherwise).
 */
type Matcher = ((name: string) => boolean) & { listed?: (written: string) => boolean };

export interface GuardMatchers {
  auth: Matcher;
  tenant: Matcher;
  csrf: Matcher;
  bearer: Matcher;
  ignore: Matcher;
  /** generic family guard names, protecting every family */
  familyGeneric: Matcher;
  /** family-specific names */
  family: Record<string, Matcher>;
  /** the names the config lists in `guards.auth`, `guards.tenant` or `guards.bearer`: guards by the user's word */
  declared: Matcher;
  /** those of them written out, not as a regular expression */
  declaredByName: Matcher;
}

/**
 * A check named for a webhook's signature (`verifySignature`, `isValidHmac`, `verifyRecallWebhook`,
 * `validatePlaidWebhook`): the webhook family's guards by name, and no authentication of a caller
 * when its 401 refuses.
 */
export const WEBHOOK_CHECK_NAME = /signature|hmac|(?:verify|validate)\w*webhook|webhook\w*verif/i;

const DEFAULTS = {
  auth: /auth|session|signedin|loggedin|requireuser|authenticated|passport\.authenticate|loginrequired|requirelogin|login_required/i,
  tenant: { test: (n: string): boolean => /tenant|organization|organisation|workspace/i.test(n) || TEAM_WORD.test(n) },
  csrf: /csrf|xsrf/i,
  // (not a name saying it refuses that credential: karakeep's `rejectApiKeyAuth` lets the session
  // through and refuses API keys)
  bearer: /(?<!reject|deny|block|forbid|disallow)(?:bearer|apikey)/i,
  familyGeneric: /internal|servicetoken|serviceauth|mtls|ipallow|allowlist|privatenetwork/i,
  family: { webhook: WEBHOOK_CHECK_NAME, ops: /operator|staff|admin|superuser/i } as Record<string, RegExp>,
};

/** Names of well-known middleware that never guard anything. */
const NON_GUARD_NAME = /^(express\.)?(json|urlencoded|raw|text|static)$|bodyparser|^cors$|helmet|logger|^morgan$|requestlog|^log(?!in|on|out|ged)[a-z]|compression|^compress$|ratelimit|limiter|throttle|validat|celebrate|zvalidator|cookieparser|requestid|responsetime|timing|metrics|prometheus|(^|\.)prom$|tracing|^trace|multer|upload|errorhandler|notfound|asynchandler|^wrap$|catchasync|maintenance|apicache|(^|\.)(no)?cache(seconds|control)?$/i;

/**
 * The word "author" (a person: `authorService.findAuthor`, `loadAuthors`), which spells `auth`
 * without naming authentication (`authorize`, `authority` do); left out of a name before the
 * default auth names are looked for in it.
 */
const AUTHOR_WORD = /[Aa]uthors?(?![a-z])/g;

/**
 * A word saying "not signed in" (`checkNotAuthenticated`, `unauthedOnly`, `isNotLoggedIn`,
 * `noAuth`, `skipAuth`): a guest-only page's middleware, letting only anonymous requests
 * through, or one asking for no authentication — left out of a name before the default auth
 * names are looked for in it. Only where a word starts (the name's start, after a character
 * not a letter, or a capital after a small letter or digit: not the `un` of `runAuth`).
 */
const NEGATED_AUTH_WORD = /(?:un|not?|non|without|skip|bypass)[-_]?(?:auth(?:enticated|enticate|orized|orised|ed)?|signed[-_]?in|logged[-_]?in)/gi;

/**
 * A name saying what it does to such a request (`rejectUnauthenticated`, `blockUnauthorized`,
 * `redirectIfNotLoggedIn`, `handleUnauthorized`): refusing it, which is what an auth guard does.
 */
const REFUSES_NAMED = /reject|deny|denies|block|forbid|refuse|prevent|disallow|kick|bounce|redirect|throw|error|fail|handle|catch|respond|send/i;

/** `name` without its words saying "not signed in" (NEGATED_AUTH_WORD), unless it names a refusal of such requests (REFUSES_NAMED). */
function withoutNegatedAuth(name: string): string {
  if (REFUSES_NAMED.test(name)) return name;
  return name.replace(NEGATED_AUTH_WORD, (m: string, at: number, text: string) => {
    const before = at === 0 ? '' : text[at - 1]!;
    return before === '' || !/[A-Za-z]/.test(before) || (/[a-z0-9]/.test(before) && /[A-Z]/.test(m[0]!)) ? '' : m;
  });
}

/** `name` without its words saying "author" or "not signed in", whose letters spell an auth name (AUTHOR_WORD, NEGATED_AUTH_WORD). */
function authWords(name: string): string {
  return withoutNegatedAuth(name.replace(AUTHOR_WORD, ''));
}

function matcherOf(list: string[] | undefined, fallback: Pick<RegExp, 'test'> | null, words?: (n: string) => string): Matcher {
  if (!list) return fallback ? (n) => fallback.test(words ? words(n) : n) : () => false;
  const exact = new Set<string>();
  const res: RegExp[] = [];
  for (const e of list) {
    if (isRegexEntry(e)) res.push(new RegExp(e.slice(1, -1), 'i'));
    else exact.add(e.toLowerCase());
  }
  const match: Matcher = (n) => {
    const lower = n.toLowerCase();
    const last = lower.slice(lower.lastIndexOf('.') + 1);
    return exact.has(lower) || exact.has(last) || res.some((r) => r.test(n));
  };
  match.listed = (written) => exact.has(written.toLowerCase());
  return match;
}

export function buildMatchers(config: Config, families: string[]): GuardMatchers {
  const g = config.guards ?? {};
  const family: Record<string, Matcher> = {};
  for (const f of families) family[f] = matcherOf(g.family?.[f], DEFAULTS.family[f] ?? null);
  return {
    auth: matcherOf(g.auth, DEFAULTS.auth, authWords),
    tenant: matcherOf(g.tenant, DEFAULTS.tenant),
    csrf: matcherOf(g.csrf, DEFAULTS.csrf),
    bearer: matcherOf(g.bearer, DEFAULTS.bearer),
    ignore: matcherOf(g.ignore, null),
    familyGeneric: matcherOf(g.family?.default, DEFAULTS.familyGeneric),
    family,
    declared: g.auth || g.tenant || g.bearer ? matcherOf([...(g.auth ?? []), ...(g.tenant ?? []), ...(g.bearer ?? [])], null) : () => false,
    declaredByName: matcherOf([...(g.auth ?? []), ...(g.tenant ?? []), ...(g.bearer ?? [])].filter((e) => !isRegexEntry(e)), null),
  };
}

type PackageKind = 'session' | 'csrf' | 'nonguard' | 'auth' | 'bearer';

/**
 * `.unless(options)` (express-unless, koa-unless, mixed into express-jwt and koa-jwt): the same
 * middleware, skipped for the requests the options name. The path of the middleware it is
 * called on, or null when `p` is not such a call.
 */
export function unlessBase(p: string[]): string[] | null {
  return p.length >= 2 && p[p.length - 1] === 'unless' && p[p.length - 2] === '()' ? p.slice(0, -2) : null;
}

/**
 * Packages whose middleware hands every request it does not refuse on to the next layer, and
 * answers none itself: parsers, uploads, loggers, headers, rate limits, validators — non-guards
 * (packageKind) that never serve a route either. A route
 * registration ending with one (`router.post('/', upload.single('file'))`, LibreChat's files
 * router, the handler registered after it) is a layer, not a route.
 */
const PASSING_PACKAGES = new Set([
  'body-parser', 'cors', '@fastify/cors', 'helmet', 'morgan', 'compression', 'express-rate-limit', 'cookie-parser', 'pino-http',
  'express-pino-logger', 'express-winston', 'bunyan-middleware', 'express-bunyan-logger', 'bunyan-request', 'multer', 'express-validator', 'celebrate', 'hpp', 'xss-clean', 'express-xss-sanitizer',
  'express-mongo-sanitize', 'express-sanitizer', 'express-fileupload', 'connect-busboy', 'connect-flash', 'express-flash', 'response-time', 'connect-timeout',
  // request ids, client addresses and request-scoped context, a slower answer past a rate
  'express-request-id', 'cls-rtracer', 'express-http-context', 'request-ip', 'express-slow-down', 'method-override',
  // helpers for the views put in `res.locals` (view-helpers' `helpers(name)`, the 0.2 line);
  // express-paginate's `middleware(limit, maxLimit)` sets `req.query.page` / `limit`, `req.skip`
  // and `res.locals.paginate`, then calls `next()` (read at 1.0)
  'view-helpers', 'express-paginate',
  // express-query-boolean (read at 2.0): `boolParser()` turns the query's 'true' / 'false' into booleans and calls `next()`
  'express-query-boolean',
]);

/** Is `value` middleware of a package that always hands the request on (PASSING_PACKAGES, express's body parsers)? */
export function passingPackageMiddleware(value: Value): boolean {
  if (value.t !== 'pkg' || !value.called) return false;
  if (value.pkg === 'express') return value.path.length === 1 && ['json', 'urlencoded', 'raw', 'text'].includes(value.path[0]!);
  return PASSING_PACKAGES.has(value.pkg);
}

/** Packages whose middleware serves files from a directory (not routes the analysis lists). */
// (connect-gzip-static, read at 4.0: serve-static, answering with a compressed file when there is one)
const FILE_SERVERS = new Set(['serve-static', 'express-static-gzip', 'connect-gzip-static', 'koa-static', 'koa-static-cache']);

/**
 * Is `value` middleware that, wherever it is mounted, changes no route the analysis lists:
 * one that always hands the request on (passingPackageMiddleware) or serves files
 * (`express.static(…)`, serve-static's)?
 */
export function listsNothingWherever(value: Value): boolean {
  if (passingPackageMiddleware(value)) return true;
  if (value.t !== 'pkg' || !value.called) return false;
  return value.pkg === 'express' ? value.path.length === 1 && value.path[0] === 'static' : FILE_SERVERS.has(value.pkg);
}

/**
 * A package's guard that hands on every request it lets through and answers none itself
 * (express-jwt, koa-jwt, Hono's bearerAuth and jwt, a CSRF package's): the last function of a
 * route registration, `app.get('/api/Users', expressjwt({ … }))` (OWASP Juice Shop), it is a layer
 * in front of what is registered after it. (passport's `authenticate` may answer, with its
 * redirects.)
 */
export function handsOnPackageGuard(value: Value): boolean {
  if (value.t !== 'pkg' || !value.called) return false;
  const kind = packageKind(value.pkg, value.path);
  return kind === 'bearer' || kind === 'csrf';
}

/**
 * Is `value` a package's maker of middleware itself, not yet called (`requiresAuth` of
 * express-openid-connect, `passport.authenticate`): calling it makes a middleware, which checks
 * nothing until it is handed a request.
 */
export function middlewareMaker(value: Value): boolean {
  return value.t === 'pkg' && !value.called && packageKind(value.pkg, value.path) !== null;
}

/** The modules Medusa's `authenticate` is imported from (packageKind, optionalToken). */
const MEDUSA = new Set(['@medusajs/framework/http', '@medusajs/framework', '@medusajs/medusa']);

/** Middleware classified by the package that makes it, whatever its local name. */
function packageKind(pkg: string, path: string[]): PackageKind | null {
  const p = unlessBase(path) ?? path;
  const first = p[0] ?? '';
  // Sentry's SDKs report and trace (`Sentry.trpcMiddleware(…)`, `Sentry.Handlers.requestHandler()`): they refuse nothing
  if (pkg.startsWith('@sentry/')) return 'nonguard';
  // (file servers too: they answer only for files they find, handing every other request on)
  if (PASSING_PACKAGES.has(pkg) || FILE_SERVERS.has(pkg)) return 'nonguard';
  // Medusa's `authenticate(actorType, authType, options)` answers 401 to a request without a
  // session, bearer token or API key of an actor it names, unless `allowUnauthenticated: true`
  // (read at @medusajs/framework 2.0, http/middlewares/authenticate-middleware.ts; 2.0's
  // `@medusajs/medusa` exported it too)
  if (MEDUSA.has(pkg)) return first === 'authenticate' ? 'auth' : null;
  switch (pkg) {
    case 'express-session':
    case 'cookie-session':
    case '@fastify/session':
    case '@fastify/secure-session':
    case '@fastify/cookie':
    case 'koa-session':
    case 'koa-generic-session':
    case 'iron-session':
      return 'session';
    // (koa-passport 6 exports passport's own singleton, its Koa framework plugged in;
    // @fastify/passport 4 is a port, its `secureSession()` passport's `session()`)
    case 'passport':
    case 'koa-passport':
    case '@fastify/passport':
      if (first === 'initialize' || first === 'session' || first === 'secureSession') return 'session';
      if (first === 'authenticate') return 'auth';
      return null;
    // passwordless (read at 1.1.3, lib/passwordless/passwordless.js): `sessionSupport()` restores
    // the user a session holds, and `acceptToken()` signs in with the token a query carries,
    // handing on a request without one; `restricted()` answers 401 (or redirects to its
    // `failureRedirect`) without a user; `requestToken(…)` and `logout()` are the sign-in's and
    // sign-out's own steps
    case 'passwordless':
      if (first === 'sessionSupport' || first === 'acceptToken') return 'session';
      if (first === 'restricted') return 'auth';
      return first === 'requestToken' || first === 'logout' ? 'nonguard' : null;
    // `auth(options)` verifies an access token from the Authorization header or an access_token
    // parameter (express-oauth2-jwt-bearer, read at 1.10: optional with authRequired: false)
    case 'express-oauth2-jwt-bearer':
      return first === 'auth' ? 'bearer' : null;
    // `requiresAuth()` and the claim checks (claimEquals, claimIncludes, claimCheck) send a request
    // without a login to log in or answer 401; so does `auth(config)` for every route it is applied
    // to unless `authRequired: false` (express-openid-connect, read at 3.4: middleware/auth.js)
    case 'express-openid-connect':
      return first === 'auth' || first === 'requiresAuth' || first.startsWith('claim') ? 'auth' : null;
    case '@nestjs/passport':
      return first === 'AuthGuard' ? 'auth' : null;
    case 'csurf':
    // (a maintained fork of csurf, its API the same: saltcorn's)
    case '@dr.pogodin/csurf':
    case '@fastify/csrf-protection':
    case 'hono/csrf':
    case 'koa-csrf':
    case '@koa/csrf':
    case 'csrf-csrf':
    case 'csrf-sync':
    case 'tiny-csrf':
      return 'csrf';
    case 'lusca':
      return first === 'csrf' ? 'csrf' : 'nonguard';
    case 'hono/bearer-auth':
    case 'hono/jwt':
    // (the plugin itself, as the onRequest hook it adds: adapters/fastify)
    case '@fastify/bearer-auth':
      return 'bearer';
    // `jwk({ jwks_uri })`: a JSON Web Token from the Authorization header, checked against a key set (hono 4.7, middleware/jwk)
    case 'hono/jwk':
      return first === 'jwk' ? 'bearer' : null;
    // a JSON Web Token from the Authorization header: `expressjwt({ … })` (v7+), `jwt({ … })` (the default export before), koa-jwt's default export
    case 'express-jwt':
      return first === 'expressjwt' || p.length === 0 ? 'bearer' : null;
    case 'koa-jwt':
      return p.length === 0 ? 'bearer' : null;
    case 'hono/basic-auth':
      return 'auth';
    // HTTP Basic: `basicAuth({ users, authorizer })` answers 401 (with a challenge when asked)
    // unless the credentials pass (express-basic-auth 1.2, index.js); koa-basic-auth's `auth({ name,
    // pass })` throws a 401 (koa-basic-auth 4)
    case 'express-basic-auth':
    case 'koa-basic-auth':
      return p.length === 0 ? 'auth' : null;
    // NextAuth v4's middleware (`export { default } from 'next-auth/middleware'`, `withAuth(…)`):
    // a request without a session token is sent to sign in (read at next-auth 4.24)
    case 'next-auth/middleware':
      return p.length === 0 || first === 'default' || first === 'withAuth' ? 'auth' : null;
    // A locale middleware: next-intl's `createMiddleware(routing)` (the default export of
    // next-intl/middleware, read at 4.3: it redirects or rewrites a request to its locale's path
    // and sets the locale cookie), fumadocs-core's `createI18nMiddleware(i18n)` (read at 15.x,
    // fumadocs-core/i18n/middleware; `fumadocs-core/i18n` before): they answer no one's identity
    case 'next-intl/middleware':
      return p.length === 0 || first === 'default' ? 'nonguard' : null;
    case 'fumadocs-core/i18n/middleware':
    case 'fumadocs-core/i18n':
      return first === 'createI18nMiddleware' ? 'nonguard' : null;
    // Clerk's middleware guards nothing itself: its handler's `auth.protect()` does (Behaviour.protects)
    case '@clerk/nextjs':
    case '@clerk/nextjs/server':
      return first === 'clerkMiddleware' ? 'nonguard' : null;
    // Clerk's Express and Hono middleware put the request's auth state on it (`getAuth(req)` reads
    // it) and refuse nothing; `requireAuth()` sends a request without a user to sign in (read at
    // @clerk/express 2.1, @hono/clerk-auth 2); the Node SDK's `ClerkExpressWithAuth()` is lax, and
    // `ClerkExpressRequireAuth()` answers 401 (@clerk/clerk-sdk-node 4 and 5)
    case '@clerk/express':
      return first === 'clerkMiddleware' ? 'nonguard' : first === 'requireAuth' ? 'auth' : null;
    case '@hono/clerk-auth':
      return first === 'clerkMiddleware' ? 'nonguard' : null;
    case '@clerk/clerk-sdk-node':
      return first === 'ClerkExpressWithAuth' ? 'nonguard' : first === 'ClerkExpressRequireAuth' ? 'auth' : null;
    // SuperTokens (supertokens-node, read at 24.0): a framework's session recipe's
    // `verifySession(options)` answers 401 without a session, unless `sessionRequired: false`
    // (sessionRequestFunctions.js); `middleware()` (Fastify: `plugin`) of supertokens-node/framework/*
    // serves SuperTokens' own API and hands every other request on
    case 'supertokens-node/recipe/session/framework/express':
    case 'supertokens-node/recipe/session/framework/fastify':
    case 'supertokens-node/recipe/session/framework/koa':
      return first === 'verifySession' ? 'auth' : null;
    case 'supertokens-node/framework/express':
    case 'supertokens-node/framework/fastify':
    case 'supertokens-node/framework/koa':
      return first === 'middleware' || first === 'plugin' || first === 'errorHandler' ? 'nonguard' : null;
    // express-bearer-token (read at 3.0) copies a token from the query, the body, the
    // Authorization header or a cookie to `req.token`: it refuses none that lacks one
    case 'express-bearer-token':
      return 'nonguard';
    // @hono/auth-js (read at 1.1): `initAuthConfig(cb)` only sets the configuration;
    // `verifyAuth()` answers 401 without a signed-in user or token
    case '@hono/auth-js':
      return first === 'initAuthConfig' ? 'nonguard' : first === 'verifyAuth' ? 'auth' : null;
    // @okta/oidc-middleware (read at 5.5): `oidc.router` serves the login and callback routes;
    // `oidc.ensureAuthenticated()` sends a visitor to log in, or answers 401 (src/oidcUtil.js)
    case '@okta/oidc-middleware':
      return p.includes('router') ? 'nonguard' : p.includes('ensureAuthenticated') ? 'auth' : null;
    // `keycloak.middleware()` keeps the session and answers Keycloak's own callbacks;
    // `keycloak.protect()` sends a visitor to log in, or answers 403 (keycloak-connect, read at
    // 26.1: keycloak.js, middleware/protect.js)
    case 'keycloak-connect':
      return p.includes('middleware') ? 'session' : p.includes('protect') ? 'auth' : null;
    case 'express':
      return ['json', 'urlencoded', 'raw', 'text', 'static'].includes(first) ? 'nonguard' : null;
    case '@fastify/helmet':
    case '@fastify/compress':
    case '@fastify/rate-limit':
    case 'rate-limiter-flexible':
    case 'i18n':
    case 'i18next-http-middleware':
    case 'i18next-express-middleware':
    case 'koa-i18n':
    case 'connect-history-api-fallback':
    case 'apicache':
    case 'express-openapi-validator':
    case 'swagger-ui-express':
    case 'express-prom-bundle':
    // (express-status-monitor, read at 1.3.4: answers its status page's path, times every other request and hands it on)
    case 'express-status-monitor':
    case 'http-proxy-middleware':
    case 'express-http-proxy':
    case 'koa-proxies':
    case 'koa-bodyparser':
    case '@koa/bodyparser':
    case 'koa-body':
    // (koa-views, read at 8.1, and its fork @ladjs/koa-views: puts `ctx.render` on the context, hands every request on)
    case 'koa-views':
    case '@ladjs/koa-views':
    case 'koa-favicon':
    case 'serve-favicon':
    // (express-robots-txt, read at 1.0: answers GET /robots.txt, hands every other request on)
    case 'express-robots-txt':
    case 'kcors':
    case '@koa/multer':
    case 'koa-ratelimit':
    case '@koa/cors':
    case 'koa-helmet':
    case 'koa-logger':
    case 'koa-compress':
    case 'koa-sslify':
    case 'express-sslify':
    // (express-enforces-ssl, read at 1.1: GET over plain HTTP sent to https://, any other method
    // refused with 403 — the transport, not who calls)
    case 'express-enforces-ssl':
    // (spider-detector, read at 1.0, and NodeBB's fork: puts `req.isSpider()` on the request, hands every request on)
    case 'spider-detector':
    case '@nodebb/spider-detector':
    case 'koa-useragent':
    case 'express-useragent':
    case 'hono/logger':
    case 'hono/cors':
    case 'hono/secure-headers':
    case 'hono/pretty-json':
    case 'hono/etag':
    case 'hono/compress':
    case 'hono/request-id':
    case 'hono/body-limit':
    case 'hono/timing':
    case 'hono/powered-by':
    case 'hono/cache':
    case 'hono/timeout':
    case 'hono/context-storage':
    case 'hono/method-override':
    case 'hono/trailing-slash':
    case 'hono/jsx-renderer':
    case 'hono/serve-static':
    case 'hono/bun':
    case 'hono/deno':
    case 'hono/cloudflare-workers':
    case '@hono/node-server/serve-static':
    case '@hono/zod-validator':
    case '@hono/sentry':
    // OpenTelemetry's Hono middleware (`otel()`, `httpInstrumentationMiddleware()`): a span and metrics per request
    case '@hono/otel':
    // nestjs-cls: ClsMiddleware / ClsGuard / ClsInterceptor set up the request's continuation-local store
    case 'nestjs-cls':
    // describeRoute / validator / resolver: OpenAPI descriptions and request validation
    case 'hono-openapi':
    // stoker's Hono middleware: notFound, onError, serveEmojiFavicon
    case 'stoker/middlewares':
      return 'nonguard';
    default:
      return null;
  }
}

/**
 * The option that makes a token middleware let a request without a token through, when its
 * options set it: express-jwt's `credentialsRequired: false`, koa-jwt's `passthrough: true`
 * (read at express-jwt 8.5 and koa-jwt 4.0), Medusa's `allowUnauthenticated: true`. `''` when
 * they do not; null when they are not known statically. The options are the first argument of
 * the package's call, before an `.unless(…)` (Medusa's `authenticate`: the third).
 */
function optionalToken(value: Extract<Value, { t: 'pkg' }>, ev: Evaluator): string | null {
  const flag: { key: string; lets: boolean; arg?: number } | null =
    value.pkg === 'express-jwt' ? { key: 'credentialsRequired', lets: false }
    : value.pkg === 'koa-jwt' ? { key: 'passthrough', lets: true }
    : (value.pkg === 'express-oauth2-jwt-bearer' || value.pkg === 'express-openid-connect') && value.path[0] === 'auth' ? { key: 'authRequired', lets: false }
    : value.pkg.startsWith('supertokens-node/recipe/session/framework/') && value.path[0] === 'verifySession' ? { key: 'sessionRequired', lets: false }
    : MEDUSA.has(value.pkg) && value.path[0] === 'authenticate' ? { key: 'allowUnauthenticated', lets: true, arg: 2 }
    : null;
  if (!flag) return '';
  const options = (unlessBase(value.path) ? value.made : value.called ? value.args : [])?.[flag.arg ?? 0];
  if (options === undefined) return '';
  if (options.t !== 'obj') return null;
  const v = ev.member(options, flag.key, 0);
  if (v.t === 'bool') return v.v === flag.lets ? `${flag.key}: ${v.v}` : '';
  return v.t === 'unknown' && v.why.startsWith('no property') ? '' : null;
}

/**
 * Where a token middleware may take its token from besides a request header, from its options:
 * hono/jwt's and hono/jwk's `cookie` (read at hono 4.7, middleware/jwt and middleware/jwk: the
 * cookie when no Authorization header is sent), koa-jwt's `cookie` and `getToken` (7.x), express-jwt's `getToken` (8.x) — a
 * `getToken` of the analysed code reading a request header only aside; options not known
 * statically may name either. Null when it reads a header only; else what says it may not.
 */
function tokenElsewhere(value: Extract<Value, { t: 'pkg' }>, ev: Evaluator): string | null {
  const keys = value.pkg === 'hono/jwt' || value.pkg === 'hono/jwk' ? ['cookie'] : value.pkg === 'koa-jwt' ? ['cookie', 'getToken'] : value.pkg === 'express-jwt' ? ['getToken'] : [];
  if (keys.length === 0) return null;
  const options = (unlessBase(value.path) ? value.made : value.called ? value.args : [])?.[0];
  if (options === undefined) return null;
  if (options.t !== 'obj' || Object.keys(options.props).some((k) => k.startsWith('*'))) return 'with options not known statically, which may take the token from a cookie';
  const key = keys.find((k) => {
    if (!Object.hasOwn(options.props, k)) return false;
    // (a getToken of the analysed code reading a request header only: `getTokenFromHeaders`)
    const fn = k === 'getToken' ? ev.member(options, k, 0) : null;
    return !headerCredentialOf(ev, fn);
  });
  return key ? `which its ${key} option may take from a cookie the browser sends by itself` : null;
}

/**
 * `passport.authenticate(['jwt', 'anonymous'])`, `AuthGuard(['jwt', 'anonymous'])`,
 * `passport.authenticate('session')`: passport tries the strategies in turn, and one that passes
 * hands the request on (lib/middleware/authenticate.js, `strategy.pass`) — passport-anonymous's
 * always does, and so does passport's own `session` strategy (lib/strategies/session.js, read at
 * passport 0.7) when the session holds no user, unless the analysed code registers a strategy of
 * that name itself. The passing strategy's description, or null.
 */
function passingStrategy(value: Extract<Value, { t: 'pkg' }>, ev: Evaluator): string | null {
  if ((!PASSPORTS.has(value.pkg) && value.pkg !== '@nestjs/passport') || !value.called) return null;
  const first = value.args[0];
  const names = strategyNames(first);
  if (names.includes('anonymous')) return 'the anonymous strategy (passport-anonymous) lets a request without credentials through';
  if (PASSPORTS.has(value.pkg)) {
    const registered = passingNamed(first, passportUses(ev));
    if (registered) return registered;
  }
  if (names.includes('session') && !passportUses(ev)?.has('session')) return "passport's own session strategy reads the user the session holds and lets a request without one through";
  return null;
}

/**
 * `passport.authenticate('jwt', { session: false }, (err, user) => { …; next() })`: with a custom
 * callback passport answers nothing itself (lib/middleware/authenticate.js hands a failure to the
 * callback, user false) — the callback decides. One of the analysed code that goes on and ends
 * no request with a 401, 403 or 404 lets a request without credentials through (LibreChat's
 * optionalJwtAuth). Its description, or null.
 */
function passingCallback(value: Extract<Value, { t: 'pkg' }>, ev: Evaluator): string | null {
  if (!PASSPORTS.has(value.pkg) || !value.called || value.path.join('.') !== 'authenticate') return null;
  const callback = value.args.slice(1, 3).find((a) => a.t === 'fn');
  const b = callback ? functionOf(callback, ev)?.behaviour : undefined;
  if (!b || b.status401 || b.status403or404 || !b.passesOn) return null;
  return 'passport.authenticate with a custom callback, which decides, and goes on without refusing a request passport found no user for';
}

/** passport, koa-passport (which exports passport's singleton) and @fastify/passport (a port: its session strategy passes too, dist/strategies/session-strategy.js). */
const PASSPORTS = new Set(['passport', 'koa-passport', '@fastify/passport']);

/** The name a passport strategy registers under when given none (each package's Strategy constructor). */
const DEFAULT_STRATEGY_NAMES: Record<string, string> = {
  'passport-jwt': 'jwt',
  'passport-http-bearer': 'bearer',
  'passport-headerapikey': 'headerapikey',
  'passport-local': 'local',
  'passport-anonymous': 'anonymous',
  'passport-custom': 'custom',
  'passport-github': 'github',
  'passport-github2': 'github',
  'passport-google-oauth20': 'google',
  'passport-facebook': 'facebook',
  'passport-microsoft': 'microsoft',
};

/** Strategies that take their credential from a request header whatever their options. */
const HEADER_STRATEGIES: Record<string, string> = {
  'passport-headerapikey': 'the API key header',
  // (or an `access_token` field of the query or the body: no cookie either)
  'passport-http-bearer': 'the Authorization header',
};

/**
 * The request header a passport-jwt extractor (`ExtractJwt.fromAuthHeaderAsBearerToken()`,
 * `fromAuthHeaderWithScheme(…)`, `fromHeader(name)`, or `fromExtractors([…])` of only those)
 * takes the token from; null for any other value (one reading a cookie, a function of the code).
 */
export function jwtHeaderExtractor(v: Value): string | null {
  if (v.t !== 'pkg' || v.pkg !== 'passport-jwt' || !v.called || v.path.length !== 2 || v.path[0] !== 'ExtractJwt') return null;
  const method = v.path[1]!;
  if (method === 'fromAuthHeaderAsBearerToken' || method === 'fromAuthHeaderWithScheme') return 'the Authorization header';
  if (method === 'fromHeader') return v.args[0]?.t === 'str' ? `the ${v.args[0].v} header` : 'a request header';
  if (method !== 'fromExtractors' || v.args[0]?.t !== 'arr' || v.args[0].items.length === 0) return null;
  const each = v.args[0].items.map(jwtHeaderExtractor);
  return each.every((h) => h !== null) ? [...new Set(each)].join(' or ') : null;
}

/**
 * A passport strategy (read at passport-jwt 4, passport-http-bearer 1, passport-headerapikey 1):
 * `pkg`'s Strategy, made with `options`, registered as `name` (its package's own name when
 * null); the request header it takes its credential from, or null when it may take it from
 * elsewhere (a cookie: passport-jwt's `jwtFromRequest` made of extractors other than
 * `fromAuthHeaderAsBearerToken`, `fromAuthHeaderWithScheme`, `fromHeader`). Undefined when its
 * name is not known statically.
 */
export function passportStrategy(ev: Evaluator, pkg: string | null, name: Value | undefined, options: Value | undefined): { name: string; via: string | null; passes?: true } | undefined {
  const named = name === undefined ? (pkg !== null ? DEFAULT_STRATEGY_NAMES[pkg] : undefined) : name.t === 'str' ? name.v : undefined;
  if (named === undefined) return undefined;
  const via = pkg === null ? null : (HEADER_STRATEGIES[pkg] ?? (pkg === 'passport-jwt' && options?.t === 'obj' ? jwtHeaderExtractor(ev.member(options, 'jwtFromRequest', 0)) : null));
  // (passport-anonymous's strategy passes every request on, whatever name it is registered under)
  return { name: named, via, ...(pkg === 'passport-anonymous' ? { passes: true as const } : {}) };
}

/**
 * The strategies given to passport by name, each with the header it reads (null: maybe
 * elsewhere) and whether it passes every request (passport-anonymous); null when a name is not
 * known statically.
 */
export type Strategies = Map<string, Strategy[]> | null;

/**
 * A strategy registered under a name: where, the header it reads (null: maybe elsewhere), whether
 * it passes every request (passport-anonymous), and whether its verify refuses a credential of a
 * tenant other than the one the request is for (`tenant`).
 */
interface Strategy {
  where: string;
  via: string | null;
  passes?: true;
  tenant?: true;
}

/** The strategies found (`where` each is), by name; null when one's name is not known statically (undefined). */
export function strategiesOf(found: Iterable<({ name: string } & Strategy) | undefined>): Strategies {
  const out = new Map<string, Strategy[]>();
  for (const s of found) {
    if (!s) return null;
    let list = out.get(s.name);
    if (!list) out.set(s.name, (list = []));
    list.push({ where: s.where, via: s.via, ...(s.passes ? { passes: s.passes } : {}), ...(s.tenant ? { tenant: s.tenant } : {}) });
  }
  return out;
}

/** The strategy names `passport.authenticate(…)` or `AuthGuard(…)` is given first: a name, or those of a list written as strings. */
function strategyNames(first: Value | undefined): string[] {
  return first?.t === 'str' ? [first.v] : first?.t === 'arr' ? first.items.flatMap((i) => (i.t === 'str' ? [i.v] : [])) : [];
}

/**
 * A strategy `passport.authenticate(…)` or `AuthGuard(…)` names (`first`: a name or a list of
 * them) that is registered as passport-anonymous's, which lets every request through: where it
 * is, or null.
 */
export function passingNamed(first: Value | undefined, strategies: Strategies): string | null {
  for (const name of strategyNames(first)) {
    const passing = strategies?.get(name)?.find((s) => s.passes);
    if (passing) return `strategy '${name}' (${passing.where}) is passport-anonymous's, which lets a request without credentials through`;
  }
  return null;
}

const registeredStrategies = new WeakMap<Evaluator, Strategies>();

/**
 * The strategies `passport.use([name,] new Strategy(options, verify))` registers in the analysed
 * files (passport's own registry, which `passport.authenticate(name)` reads).
 */
function passportUses(ev: Evaluator): Strategies {
  if (registeredStrategies.has(ev)) return registeredStrategies.get(ev)!;
  function* found(): Generator<{ name: string; where: string; via: string | null } | undefined> {
    for (const [file, facts] of ev.files) {
      for (const r of facts.registrations) {
        if (r.method !== 'use' || r.args.length === 0 || r.args.length > 2) continue;
        const target = ev.eval(file, r.target);
        if (target.t !== 'pkg' || !PASSPORTS.has(target.pkg) || target.path.length > 0) continue;
        const strategy = ev.eval(file, r.args[r.args.length - 1]!);
        const made = strategy.t === 'pkg' && strategy.called ? strategy : null;
        const s = passportStrategy(ev, made?.pkg ?? null, r.args.length === 2 ? ev.eval(file, r.args[0]!) : undefined, made?.args[0]);
        yield s && { ...s, where: `${file}:${r.at.line}` };
      }
    }
  }
  const result = strategiesOf(found());
  registeredStrategies.set(ev, result);
  return result;
}

/**
 * `passport.authenticate('jwt', …)`, @nestjs/passport's `AuthGuard('jwt')`: the strategies it
 * names, when each of them (`strategies`) takes its credential from a request header — a
 * credential no browser sends by itself: how, for a guard's reason; null otherwise.
 */
export function headerStrategies(first: Value | undefined, strategies: Strategies): string | null {
  const names = first?.t === 'str' ? [first.v] : first?.t === 'arr' ? first.items.map((i) => (i.t === 'str' ? i.v : null)) : [];
  if (names.length === 0 || strategies === null) return null;
  const how: string[] = [];
  for (const name of names) {
    const each = name === null ? undefined : strategies.get(name);
    if (!each || each.some((x) => x.via === null)) return null;
    for (const x of each) how.push(`strategy '${name}' (${x.where}) reads ${x.via}`);
  }
  return `with a credential no browser sends by itself: ${how.join('; ')}`;
}

/**
 * The strategies `AuthGuard(…)` names (`first`: a name or a list of them), when each one
 * registered under each name refuses a credential of another tenant than the request's: how, for
 * a guard's reason; else null. (Passport tries them in turn until one succeeds: each must check.)
 */
export function tenantStrategies(first: Value | undefined, strategies: Strategies): string | null {
  const names = strategyNames(first);
  if (names.length === 0 || strategies === null || (first?.t === 'arr' && names.length < first.items.length)) return null;
  const how: string[] = [];
  for (const name of names) {
    const each = strategies.get(name);
    if (!each || !each.every((x) => x.tenant)) return null;
    for (const x of each) how.push(`strategy '${name}' (${x.where})`);
  }
  return `${how.join(' and ')} refuses a token of another tenant than the request's`;
}

export interface GuardClass {
  kinds: GuardKind[];
  families: string[];
  reason: string;
}

/**
 * A webhook signature check of a provider's SDK, which throws unless the payload carries the
 * provider's signature — Stripe's `stripe.webhooks.constructEvent(body, signature, secret)` (and
 * `constructEventAsync`, a client's `parseThinEvent` / `parseEventNotification`,
 * `webhooks.signature.verifyHeader`), svix's and standardwebhooks' `new Webhook(secret).verify(…)`,
 * WorkOS's `workos.webhooks.constructEvent({ payload, sigHeader, secret })`, @octokit/webhooks'
 * `verify` / `verifyAndReceive`, Polar's `validateEvent(body, headers, secret)` — or one of
 * several such checks (`(legacy ? stripeLegacy : stripeLive).webhooks.constructEvent`): the
 * provider's package, else null.
 */
export function webhookVerifier(value: Value): string | null {
  if (value.t === 'unknown') {
    const each = value.alts?.map(webhookVerifier) ?? [];
    return each.length > 0 && each.every((p) => p !== null) ? each[0]! : null;
  }
  return value.t === 'pkg' && verifiesSignature(value) ? value.pkg : null;
}

function verifiesSignature(value: Extract<Value, { t: 'pkg' }>): boolean {
  const [last, before] = [value.path[value.path.length - 1], value.path[value.path.length - 2]];
  switch (value.pkg) {
    case 'stripe':
      // (a client's `parseThinEvent` calls `webhooks.constructEvent`; `parseEventNotification`, its
      // successor, `webhooks.signature.verifyHeader`)
      return (
        (before === 'webhooks' && (last === 'constructEvent' || last === 'constructEventAsync')) ||
        (before === '()' && (last === 'parseThinEvent' || last === 'parseEventNotification' || last === 'parseEventNotificationAsync')) ||
        (before === 'signature' && value.path[value.path.length - 3] === 'webhooks' && (last === 'verifyHeader' || last === 'verifyHeaderAsync'))
      );
    case 'svix':
    case 'standardwebhooks':
      return last === 'verify' && value.path[0] === 'Webhook';
    case '@workos-inc/node':
      // (its `constructEvent` awaits `verifyHeader` first)
      return before === 'webhooks' && (last === 'constructEvent' || last === 'verifyHeader');
    case '@octokit/webhooks':
    case '@octokit/webhooks-methods':
      return last === 'verify' || last === 'verifyAndReceive';
    case '@polar-sh/sdk/webhooks':
      // (standardwebhooks' `Webhook#verify` first; a bad signature throws WebhookVerificationError)
      return last === 'validateEvent' && value.path.length === 1;
    default:
      return false;
  }
}

/**
 * Classify one middleware / guard. `name` is how the use site writes it; `value` is what
 * the evaluator made of it. Returns kinds in a fixed order.
 */
/** Why a Nest guard whose canActivate lets every request through is none (Behaviour.activation). */
export const ALLOWS_ALL = 'canActivate returns true every way and lets what it runs throw nothing (by behaviour): it refuses nothing';

export function classifyGuard(name: string, value: Value, ev: Evaluator, m: GuardMatchers, depth = 0): GuardClass {
  // 1. Package-made values keep their package's classification.
  const pkg = webhookVerifier(value);
  if (pkg !== null) {
    const families = m.family['webhook'] ? ['webhook'] : [];
    return families.length > 0 ? { kinds: ['family'], families, reason: `webhook signature check of ${pkg}` } : { kinds: ['nonguard'], families: [], reason: `webhook signature check of ${pkg}, and the contract has no webhook family` };
  }
  if (value.t === 'pkg') {
    // `lusca({ csrf: true, xframe: 'SAMEORIGIN' })`: each protection the options turn on (read at lusca 1.7)
    if (value.pkg === 'lusca' && value.path.length === 0 && value.called) {
      const options = value.args[0];
      const csrf = options?.t === 'obj' ? ev.member(options, 'csrf', 0) : null;
      if (csrf && (csrf.t === 'obj' || (csrf.t === 'bool' && csrf.v))) return { kinds: ['csrf'], families: [], reason: 'CSRF protection from lusca (its csrf option)' };
    }
    const pk = packageKind(value.pkg, value.path);
    if (pk === 'nonguard') return { kinds: ['nonguard'], families: [], reason: `made by the package ${value.pkg}` };
    if (pk === 'session') return { kinds: ['session'], families: [], reason: `${value.pkg} establishes a session; it is not an auth guard` };
    if (pk === 'csrf') return { kinds: ['csrf'], families: [], reason: `CSRF protection from ${value.pkg}` };
    if (pk === 'bearer') {
      const optional = optionalToken(value, ev);
      if (optional === null) return { kinds: ['unknown'], families: [], reason: `bearer-token auth from ${value.pkg}, required or optional as options not known statically say` };
      if (optional) return { kinds: ['session'], families: [], reason: `optional authentication: ${value.pkg} with ${optional} lets a request without a token through` };
      const elsewhere = tokenElsewhere(value, ev);
      if (elsewhere) return { kinds: ['auth'], families: [], reason: `token auth from ${value.pkg}, ${elsewhere}` };
      return { kinds: ['auth', 'bearer'], families: [], reason: `bearer-token auth from ${value.pkg}` };
    }
    if (pk === 'auth') {
      const passing = passingStrategy(value, ev) ?? passingCallback(value, ev);
      if (passing) return { kinds: ['session'], families: [], reason: `optional authentication: ${passing}` };
      const optional = optionalToken(value, ev);
      if (optional === null) return { kinds: ['unknown'], families: [], reason: `authentication from ${value.pkg}, required or optional as options not known statically say` };
      if (optional) return { kinds: ['session'], families: [], reason: `optional authentication: ${value.pkg} with ${optional} lets a request without a login through` };
      // `passport.authenticate('jwt', { session: false })` of a strategy reading the Authorization header
      const bearer = PASSPORTS.has(value.pkg) && value.called && value.path.join('.') === 'authenticate' ? headerStrategies(value.args[0], passportUses(ev)) : null;
      if (bearer) return { kinds: ['auth', 'bearer'], families: [], reason: `authentication from passport, ${bearer}` };
      // Medusa's `authenticate('user', ['bearer', 'api-key'])`: a token or key from a header, no session cookie
      const types = MEDUSA.has(value.pkg) && value.called && value.args[1] ? stringsOf(value.args[1]) : null;
      if (types && !types.includes('session')) return { kinds: ['auth', 'bearer'], families: [], reason: `authentication from ${value.pkg}, by ${types.join(' or ')} (no session)` };
      return { kinds: ['auth'], families: [], reason: `authentication from ${value.pkg}` };
    }
  }
  const fn = functionOf(value, ev);
  // The use site's name, and the definition's own name when it differs (an alias).
  // For a function defined in the analysed code, `handlers.jwt` is named by its property: the
  // object it is read from (a module of handlers called `auth`) says nothing about what it checks.
  const useName = fn && /^[\w$]+(\.[\w$]+)+$/.test(name) ? name.slice(name.lastIndexOf('.') + 1) : name;
  const names = fn?.name && fn.name !== useName && fn.name !== name && !name.endsWith(`.${fn.name}`) ? [useName, fn.name] : [useName];
  const any = (match: Matcher): boolean => names.some((n) => match(n)) || (useName !== name && match.listed?.(name) === true);
  if (any(m.ignore)) return { kinds: ['nonguard'], families: [], reason: 'listed in guards.ignore' };
  // Whatever its name: what runs after the handler (an error handler, `try { await next() } catch …`) cannot stop it.
  if (fn?.behaviour.nextFirst) return { kinds: ['nonguard'], families: [], reason: 'hands the request on before anything else (by behaviour)' };
  // Named for a check by SPEC's default names (`nextAuth`, `loadTenant`) but handing every request
  // on, having only made or read values: it refuses nothing. CSRF and family guards stay what
  // their names say (SPEC: by name only), and a name the config lists stays a guard.
  // (a Nest guard's canActivate returning true every way, Behaviour.activation: OptionalJwtAuthGuard)
  const activation = fn?.behaviour.activation;
  const allowsAll =
    (!!activation?.allows || (!!activation?.allowsUnless && value.t === 'fn' && callsRefuseNothing(value.file, value.fn, activation.allowsUnless, ev))) &&
    (activation!.super === undefined || (activation!.super === 'swallowed' && !activation!.returnsSuper));
  if ((fn?.behaviour.handsOnAlways || allowsAll || (value.t === 'fn' && callsRefuseNothing(value.file, value.fn, fn?.behaviour.handsOnUnless, ev))) && (any(m.auth) || any(m.bearer) || any(m.tenant)) && !any(m.declared) && !any(m.csrf) && !any(m.familyGeneric) && !Object.values(m.family).some((f) => any(f))) {
    const reason = allowsAll ? ALLOWS_ALL : 'hands every request on, having only made or read values (by behaviour): it refuses nothing';
    return any(m.auth) || any(m.bearer) ? { kinds: ['session'], families: [], reason: `${reason}; it loads what later code reads (a session)` } : { kinds: ['nonguard'], families: [], reason };
  }
  // What the middlewares it hands its request to are (classified once, when asked):
  // `(req, res, next) => { if (req.path === '/api/upload') next(); else lusca.csrf()(req, res, next) }`
  const from = fn && value.t === 'fn' && depth < MAX_HANDED ? value.file : null;
  const handsTo = from !== null ? fn!.behaviour.handsTo : undefined;
  const handedTo = handsTo?.map((e) => exprName(e) ?? 'a middleware').join(', ');
  let handedValues: Value[] | undefined;
  const handedValue = (): Value[] => (handedValues ??= handsTo!.map((e) => ev.eval(from!, e)));
  let handedAs: GuardClass[] | undefined;
  const handed = (): GuardClass[] => (handedAs ??= handsTo!.map((e, i) => classifyGuard(exprName(e) ?? name, handedValue()[i]!, ev, m, depth + 1)));
  // Hands the request whole to a middleware that is there but says nothing of what it checks, and
  // may end it: a package's, a function of the code, or a method of what a parameter holds (a
  // Fastify decorator, `fastify.verifySession(request, reply)`, an injected service's) — not a
  // parameter itself (a wrapper's, `helpers.try(fn)`, read through the call that makes it:
  // LinkContext.wrappedMiddleware), nor a value not known at all (`multer()[method](…args)`)
  const handsToUnknown = (): boolean =>
    !!handsTo &&
    handed().some((h, i) => {
      const v = handedValue()[i]!;
      return h.kinds.includes('unknown') && (v.t === 'pkg' || v.t === 'fn' || (v.t === 'param' && !!v.path?.length));
    });
  // Named for a check but handing its request only to optional authentication, refusing nothing
  // itself (LibreChat's `optionalJwtAuth`, handing it to `passport.authenticate('jwt', …, cb)` whose
  // callback goes on without a user): optional authentication, whatever the name says
  const own = fn?.behaviour;
  const refusesNothingItself = !!handsTo && !!own && !own.status401 && !own.status403or404 && !own.deniesByReturn && !any(m.declared);
  if (refusesNothingItself && handed().every((h) => h.kinds.length === 1 && h.kinds[0] === 'session'))
    return { kinds: ['session'], families: [], reason: `by behaviour (hands the request on to ${handedTo}: ${handed()[0]!.reason})` };
  // Refusing nothing itself and handing its request only to middleware that guards nothing, it
  // guards nothing, whatever its name: pezzo's `AuthMiddleware`, whose `use` is `return
  // this.supertokensMiddleware(req, res, next)` (SuperTokens' own API), cella's `dynamicBodyLimit`
  // (hono/body-limit's). CSRF and family guards stay what their names say (SPEC: by name only).
  if (refusesNothingItself && !any(m.csrf) && !any(m.familyGeneric) && !Object.values(m.family).some((f) => any(f)) && handed().every((h) => h.kinds.length === 1 && h.kinds[0] === 'nonguard'))
    return { kinds: ['nonguard'], families: [], reason: `by behaviour (hands the request on only to ${handedTo}: ${handed()[0]!.reason})` };
  const kinds = new Set<GuardKind>();
  const reasons: string[] = [];
  const families = new Set<string>();
  // 2. By name.
  const byName: string[] = [];
  // Named for a check of who calls, but answering its refusal without reading its request
  // (Behaviour.ignoresRequest): a mode or a flag of the server decides (Directus's
  // `checkOAuthSettings(_req, res, next)`, 403 while a setting is off). CSRF and family guards stay
  // what their names say (SPEC: by name only), and a name the config lists stays a guard.
  const blind = fn?.behaviour.ignoresRequest === true && !any(m.declared);
  if (!blind && any(m.auth)) kinds.add('auth'), byName.push('auth');
  if (!blind && any(m.bearer)) kinds.add('auth'), kinds.add('bearer'), byName.push('bearer');
  if (!blind && any(m.tenant)) kinds.add('tenant'), byName.push('tenant');
  if (any(m.csrf)) kinds.add('csrf'), byName.push('csrf');
  if (any(m.familyGeneric)) for (const f of Object.keys(m.family)) families.add(f);
  for (const [f, match] of Object.entries(m.family)) if (any(match)) families.add(f);
  if (families.size > 0) kinds.add('family'), byName.push('family');
  if (byName.length > 0) reasons.push(`by name (${byName.join(', ')})`);
  // 3. By behaviour, when the definition is in the analysed code.
  if (fn) {
    const b = fn.behaviour;
    const byBehaviour: string[] = [];
    // (or by a function it hands its response to: `reject(req, res, 'Token not found')`)
    const via401 = b.status401 || value.t !== 'fn' ? null : answers401Via(value.file, b, ev);
    if (b.status401 && !b.ignoresRequest) kinds.add('auth'), byBehaviour.push('ends the request with 401');
    else if (via401 && !b.ignoresRequest && !b.requestOnlyToAnswer) kinds.add('auth'), byBehaviour.push(`ends the request with 401, answered by ${via401}()`);
    // (or by a function it calls before handing the request on, throwing the 401: plunk's
    // `isValidKey`, `res.locals.auth = { key: parseBearer(req) }; next()`)
    else if (value.t === 'fn' && !b.status401) {
      const thrower = throws401(value.file, b.handsOnUnless, ev);
      if (thrower) kinds.add('auth'), byBehaviour.push(`ends the request with 401, thrown by ${thrower}() before it hands the request on`);
    }
    // (or by an error class of another file, declared with its status: Behaviour.throwsImported)
    const thrown = value.t === 'fn' && !b.status401 && !kinds.has('auth') ? thrown401Class(value.file, b, ev) : null;
    if (thrown) kinds.add('auth'), byBehaviour.push(`ends the request with 401, an error of class ${thrown} (declared so in its file)`);
    if (b.status403or404 && b.comparesTenant) kinds.add('tenant'), byBehaviour.push('compares the tenant and ends with 403/404');
    // (a check of the tenant leading it after another, `if (!ctx.session?.userId) throw …401…; …
    // if (!(await getOrganizationAccess({ organizationId, userId }))) throw …403…`: a guard of both kinds)
    else if (fn.leading.some((l) => l.inline === 'tenant' && !l.userParams)) kinds.add('tenant'), byBehaviour.push('refuses the request (401, 403 or 404) when a check of the tenant leading it fails');
    // A Nest guard denies by returning false from canActivate (Nest answers 403).
    if (b.deniesByReturn && b.readsSession && !b.status401) kinds.add('auth'), byBehaviour.push('canActivate reads the session and can return false');
    else if (b.deniesUncredentialed && !b.status401) kinds.add('auth'), byBehaviour.push('canActivate returns false when the request carries no credential');
    if (b.deniesByReturn && b.comparesTenant && !b.status403or404) kinds.add('tenant'), byBehaviour.push('canActivate compares the tenant and can return false');
    // (a credential the browser does not send by itself: `req.headers.authorization`, no cookie read)
    if (kinds.has('auth') && !kinds.has('bearer') && headerCredentialOf(ev, value)) kinds.add('bearer'), byBehaviour.push('reads its credential from a request header only');
    if (byBehaviour.length > 0) reasons.push(`by behaviour (${byBehaviour.join('; ')})`);
    // it is what it hands the request to, when every middleware it hands it to is the same guard
    if (kinds.size === 0 && handsTo) {
      const [first] = handed();
      const same = handed().every((h) => h.kinds.join() === first!.kinds.join() && h.families.join() === first!.families.join());
      if (same && !first!.kinds.some((k) => k === 'unknown' || k === 'nonguard' || k === 'session')) {
        for (const k of first!.kinds) kinds.add(k);
        for (const f of first!.families) families.add(f);
        reasons.push(`by behaviour (hands the request on to ${handedTo}: ${first!.reason})`);
      }
    }
    // `auth = () => (req, res, next) => … passport.authenticate('jwt', …)(req, res, next)`: an
    // authentication guard whose credential is what the middleware it hands the request to reads
    if (kinds.has('auth') && !kinds.has('bearer') && handsTo && handed().every((h) => h.kinds.includes('auth') && h.kinds.includes('bearer'))) {
      kinds.add('bearer');
      reasons.push(`bearer: it hands the request on to ${handedTo} (${handed()[0]!.reason})`);
    }
    // (one handing the request whole to a middleware not known may end it there: it stays unknown)
    if (kinds.size === 0 && !b.sendsResponse && !b.status401 && !via401 && !b.status403or404 && !b.deniesByReturn && !handsToUnknown())
      return { kinds: ['nonguard'], families: [], reason: 'never ends the request (by behaviour)' };
    if (kinds.size === 0 && (b.ignoresRequest || (via401 && b.requestOnlyToAnswer)))
      return { kinds: ['nonguard'], families: [], reason: `ends the request with ${b.status401 || via401 ? '401' : '403 or 404'} without reading the request (by behaviour): a mode or a flag of the server decides` };
    if (kinds.size === 0 && b.refusesBusyOnly)
      return { kinds: ['nonguard'], families: [], reason: 'ends the request only with 429 or 503 (by behaviour): a rate limit or maintenance, no check of who calls' };
    if (kinds.size === 0 && b.refusesUnreadableOnly)
      return { kinds: ['nonguard'], families: [], reason: 'ends the request only with 400, 411, 413, 415 or 422 (by behaviour): a request it cannot read, no check of who calls' };
    if (kinds.size === 0 && b.upgradesToHttpsOnly)
      return { kinds: ['nonguard'], families: [], reason: 'ends the request only with a redirect to an https:// URL (by behaviour): to TLS or to the canonical host, no check of who calls' };
    if (kinds.size === 0 && b.refusesByHostOnly && !b.handsTo)
      return { kinds: ['nonguard'], families: [], reason: 'ends the request only by the host it was sent to (by behaviour): a host allowlist against DNS rebinding, no check of who calls' };
    if (kinds.size === 0 && b.refusesOnUrlValuesOnly && !b.handsTo)
      return { kinds: ['nonguard'], families: [], reason: 'ends the request only on values its URL names, awaiting nothing and reading no session (by behaviour): a malformed value, no check of who calls' };
    if (kinds.size === 0 && b.answersPreflightOnly && !b.handsTo && value.t === 'fn' && answersViaNothing(value.file, b, ev))
      return { kinds: ['nonguard'], families: [], reason: 'ends only preflight requests (OPTIONS), answering them itself (by behaviour): CORS, no check of who calls' };
    if (kinds.size === 0 && b.redirectsByUrlOnly)
      return { kinds: ['nonguard'], families: [], reason: 'ends the request only with a redirect, reading of it only where it was sent and by what browser (by behaviour): a URL put right, no check of who calls' };
  }
  if (kinds.size > 0) return { kinds: orderKinds(kinds), families: [...families].sort(), reason: reasons.join('; ') };
  // Named for requests without a signed-in user (`checkNotAuthenticated`, a guest-only page's
  // middleware sending a signed-in user elsewhere; `unauthedOnly`, `noAuth`), and no check by
  // what it does: no guard (by name, as an auth guard's name says the other).
  if (names.some((n) => withoutNegatedAuth(n) !== n)) return { kinds: ['nonguard'], families: [], reason: 'named for requests without a signed-in user (by name): a guest-only or no-auth middleware' };
  // (a class named for what it wraps, `MorganMiddleware`: the name without the word)
  if (names.some((n) => NON_GUARD_NAME.test(n) || NON_GUARD_NAME.test(n.replace(/[-_]?middleware$/i, '')))) return { kinds: ['nonguard'], families: [], reason: 'a well-known non-guard (by name)' };
  return { kinds: ['unknown'], families: [], reason: 'neither its name nor its behaviour says what it checks' };
}

/**
 * Is a leading statement of function `fn` a check that ends the request when the request has no
 * signed-in user: one read from the request (`if (!res.locals.user) { res.send(…); return }`,
 * `noUser`), from an auth package's session getter (`refusal` of `getToken({ req })`), or from what
 * a function it hands the request to returns (`userVia`: `const user =
 * extractUserFromInjected(res).user; if (!user) …` of `extractUserFromInjected(res) { return {
 * user: res.locals.user } }`)?
 */
export function signedInCheck(ev: Evaluator, fn: { file: string; fn: number }, lg: LeadingGuard): boolean {
  if (lg.noUser) return true;
  // `if (!token) return NextResponse.redirect(…)` of `const token = await getToken({ req })`: the
  // request refused when an auth package's session getter answers nothing (one that answers an
  // object whatever happens, iron-session's, refuses no one so)
  if (lg.refusal && lg.callee && sessionGetter(ev.eval(fn.file, lg.callee), false, true)) return true;
  if (!lg.userVia || !lg.callee || !lg.args) return false;
  const callee = ev.eval(fn.file, lg.callee);
  if (callee.t !== 'fn') return false;
  // the request or the response of `fn`: one of its first two parameters, whole
  const ofFn = (arg: Expr | undefined): boolean => {
    const a = arg ? ev.eval(fn.file, arg) : null;
    return a?.t === 'param' && a.file === fn.file && a.fn === fn.fn && !a.path?.length && a.index < 2;
  };
  const returns = ev.returnsOf(callee.file, callee.fn);
  // `getTokenFromRequest(req)` returning next-auth's `getToken({ req })` on every path: handed the
  // request, it gives the request's session, and nothing there (`!token?.id`) is no signed-in user
  if (lg.args.some(ofFn) && returns.length > 0 && returns.every((r) => sessionGetter(ev.eval(callee.file, r), true))) return lg.userVia.length === 0 || isUserPath(['session', ...lg.userVia]);
  for (const r of returns) {
    // what is returned there: a property path of one of the called function's parameters (`res.locals.user`)
    let v = ev.eval(callee.file, r);
    for (const p of lg.userVia) v = ev.member(v, p, 0);
    if (v.t !== 'param' || v.file !== callee.file || v.fn !== callee.fn || !isUserPath(v.path ?? [])) continue;
    // … handed the request or the response of `fn`
    if (ofFn(lg.args[v.index])) return true;
  }
  return false;
}

/** How many middlewares deep a middleware is followed to the one it hands the request to (Behaviour.handsTo). */
const MAX_HANDED = 3;

/**
 * Is `v` a function of the analysed code taking its credential from a request header only: it
 * reads one itself (Behaviour.headerCredential), or each function it hands its request to does
 * (Behaviour.credentialVia: Actual's `validateSessionMiddleware` handing it to
 * `validateSession(req, res)`, which reads `x-actual-token`)?
 */
export function headerCredentialOf(ev: Evaluator, v: Value | null, depth = 0): boolean {
  const b = v?.t === 'fn' ? ev.fnOf(v.file, v.fn)?.behaviour : undefined;
  if (!b || v?.t !== 'fn') return false;
  if (b.headerCredential) return true;
  if (!b.credentialVia || depth >= MAX_HANDED) return false;
  // (dittofeed's admin hook reads the Authorization header and hands its request to
  // `getWorkspaceIdentifier(request)`, which reads the workspace it names: no credential)
  // (a parameter of an enclosing function handed the request is what a wrapper wraps, `return
  // handler(req)` of `withKey(handler)`: the route's own work, run once the check passed, no credential of it)
  const handed = b.credentialVia.map((e) => ev.eval(v.file, e)).filter((h) => !(h.t === 'param' && !h.path?.length && (h.file !== v.file || h.fn !== v.fn)));
  const fromHeader = handed.map((h) => headerCredentialOf(ev, h, depth + 1));
  return handed.every((h, i) => fromHeader[i] || readsNoCredential(ev, h, depth + 1)) && (b.credentialHeader === true || fromHeader.some(Boolean));
}

/** Is `v` a function of the analysed code handed a request that reads no credential of it (Behaviour.readsNoCredential), nor do those it hands it to? */
function readsNoCredential(ev: Evaluator, v: Value, depth: number): boolean {
  const b = behaviourOf(v, ev);
  if (!b?.readsNoCredential || v.t !== 'fn' || depth >= MAX_HANDED) return false;
  return (b.credentialVia ?? []).every((e) => readsNoCredential(ev, ev.eval(v.file, e), depth + 1));
}

/**
 * Auth packages' session getters, by package and name: the request's session (or token, or user);
 * when no one is signed in, nothing (`true`), or an object without a user (`false`: iron-session's
 * session, Clerk's `auth()`).
 */
const PACKAGE_SESSION_GETTERS: Record<string, Record<string, boolean>> = {
  'next-auth': { getServerSession: true, auth: true },
  'next-auth/next': { getServerSession: true },
  'next-auth/jwt': { getToken: true },
  '@clerk/nextjs/server': { auth: false, currentUser: true },
  'iron-session': { getIronSession: false },
};

/**
 * A package's session getter itself (`getToken` of next-auth/jwt), or, `called`, what a call of it
 * returned (`getToken({ req })`, `getServerSession(authOptions)`); `nothingSignedOut`: only one
 * answering nothing when no one is signed in, whose answer alone tells.
 */
function sessionGetter(v: Value, called: boolean, nothingSignedOut = false): boolean {
  if (v.t !== 'pkg' || v.called !== called) return false;
  const getters = Object.hasOwn(PACKAGE_SESSION_GETTERS, v.pkg) ? PACKAGE_SESSION_GETTERS[v.pkg]! : {};
  const name = v.path.at(-1) ?? '';
  return Object.hasOwn(getters, name) && (getters[name] === true || !nothingSignedOut);
}

/** What a verification refuses when it throws, by its name: a token, a session, a credential. */
export const TOKEN_NAME = /jwt|token|bearer|session|credential|api_?key/i;
/** Packages whose functions verify a token (`jsonwebtoken`'s `verify`, `jose`'s `jwtVerify`). */
const TOKEN_PACKAGES = new Set(['jsonwebtoken', 'jose']);

/**
 * A leading verification (`LeadingGuard.verifies`) that authenticates: the request ends when it
 * throws, and it verifies a token or session (`verifyJWT`, `jwt.verify`, `admin.auth().verifyIdToken`,
 * `verify` imported from jsonwebtoken). Its name, or null when it verifies something else
 * (`validate(request.body)`).
 */
export function tokenVerification(ev: Evaluator, file: string, lg: LeadingGuard): string | null {
  if (!lg.verifies || !lg.callee) return null;
  const v = ev.eval(file, lg.callee);
  // (a function of the code whose own `try … catch` takes all it could throw refuses nothing so:
  // rybbit's `validateApiKey`, answering `{ error: null }` when no key is sent)
  if (behaviourOf(v, ev)?.throwsNothing) return null;
  const name = exprName(lg.callee);
  if (name !== null && TOKEN_NAME.test(name)) return name;
  return v.t === 'pkg' && TOKEN_PACKAGES.has(v.pkg) ? (name ?? [v.pkg, ...v.path].join('.')) : null;
}

const KIND_ORDER: GuardKind[] = ['auth', 'bearer', 'tenant', 'csrf', 'family', 'session', 'nonguard', 'unknown'];
export function orderKinds(s: Set<GuardKind>): GuardKind[] {
  return KIND_ORDER.filter((k) => s.has(k));
}

/** The in-code function a guard value runs: the function itself, or what a factory returns. */
/**
 * Do these calls of a middleware handing every request on otherwise (Behaviour.handsOnUnless)
 * refuse nothing? Each is of a function of the analysed code that neither answers nor throws
 * (Juice Shop's `utils.jwtFrom(req)`), or jsonwebtoken's `verify` given a callback (which gets the
 * error instead of a throw) that refuses nothing either.
 */
function callsRefuseNothing(file: string, fn: number, calls: readonly Expr[] | undefined, ev: Evaluator): boolean {
  if (!calls) return false;
  const quiet = (b: Behaviour | undefined, answering: boolean): boolean => !!b && !b.status401 && !b.status403or404 && !b.deniesByReturn && !(answering && (b.sendsResponse || b.callsRefusing));
  // (handed, where it refuses only what it is given, what the request carries: `req.token`,
  // `req.headers.authorization` — a request carrying nothing goes on: Behaviour.refusesOnlyWhenGiven)
  // (`c.req.header('authorization')`: a getter's answer, read back to the request it is asked of)
  const carried = (b: Behaviour | undefined, args: readonly Expr[]): boolean => {
    const given = b?.refusesOnlyWhenGiven;
    let arg = given !== undefined ? args[given] : undefined;
    let steps = 0;
    for (; arg; steps++) {
      if (arg.k === 'member' || arg.k === 'index') arg = arg.obj;
      else if (arg.k === 'call' && arg.callee.k === 'member' && REQUEST_GETTER.test(arg.callee.prop)) arg = arg.callee.obj;
      else break;
    }
    const v = arg ? ev.eval(file, arg) : null;
    // (the request itself, where the helper tests what it carries: `getUserFromRequest(req)`)
    return v?.t === 'param' && v.file === file && v.fn === fn && v.index === 0 && (steps > 0 || !!v.path?.length || !!b?.refusesOnlyWhenCarried);
  };
  return calls.every((c) => {
    if (c.k !== 'call') return false;
    const v = ev.eval(file, c.callee);
    if (v.t === 'fn') return quiet(behaviourOf(v, ev), true) || carried(behaviourOf(v, ev), c.args);
    const last = c.args[c.args.length - 1];
    const cb = last ? ev.eval(file, last) : null;
    return v.t === 'pkg' && v.pkg === 'jsonwebtoken' && v.path.join('.') === 'verify' && cb !== null && quiet(behaviourOf(cb, ev), false);
  });
}

/** The behaviour of the function of the code a value is, if it is one. */
function behaviourOf(v: Value, ev: Evaluator): Behaviour | undefined {
  return v.t === 'fn' ? ev.fnOf(v.file, v.fn)?.behaviour : undefined;
}

/**
 * The first of the readings a middleware makes before handing every request on (Behaviour.handsOnUnless:
 * `parseBearer(req)`; not a call named for a check, `assertSignedIn(req)`, which the layer's leading
 * checks read) whose function of the code throws a 401 (not one answering it, `answers401Only`), by
 * the name it is called by; null for none.
 */
function throws401(file: string, calls: readonly Expr[] | undefined, ev: Evaluator): string | null {
  for (const c of calls ?? []) {
    if (c.k !== 'call') continue;
    const name = exprName(c.callee);
    if (!name || !MAKES_OR_READS.test(name.slice(name.lastIndexOf('.') + 1))) continue;
    const b = behaviourOf(ev.eval(file, c.callee), ev);
    if (b?.status401 && !b.answers401Only) return name;
  }
  return null;
}

/** Of the imported error classes the function throws (Behaviour.throwsImported), the name of the first declared with a 401. */
function thrown401Class(file: string, b: Behaviour, ev: Evaluator): string | null {
  for (const e of b.throwsImported ?? []) if (e.k === 'ref' && ev.errorClassStatus(file, e.scope, e.name) === 401) return e.name;
  return null;
}

/**
 * The function a middleware hands its response to that answers 401 with it (Behaviour.answersVia:
 * Trilium's `reject(req, res, message)`, `res.status(401).send(message)`), or whose answer it
 * returns, a 401 it makes and throws none (Behaviour.returnsVia, answers401Only: Jackson's `return
 * sendUnAuthorizedResponse(…)`, `return new NextResponse(…, { status: 401 })`), by the name it is
 * called by; null for none.
 */
function answers401Via(file: string, b: Behaviour, ev: Evaluator): string | null {
  for (const { callee, index } of b.answersVia ?? []) {
    const v = ev.eval(file, callee);
    const cb = behaviourOf(v, ev);
    if (cb?.status401 && cb.respondsWith?.includes(index)) return exprName(callee) ?? 'a function';
  }
  for (const callee of b.returnsVia ?? []) {
    const cb = behaviourOf(ev.eval(file, callee), ev);
    if (cb?.status401 && cb.answers401Only) return exprName(callee) ?? 'a function';
  }
  return null;
}

/**
 * Does each function a middleware hands its response to (Behaviour.answersVia: `setHeaders(req,
 * res)`) answer nothing itself, as read of its definition in the analysed code?
 */
function answersViaNothing(file: string, b: Behaviour, ev: Evaluator): boolean {
  return (b.answersVia ?? []).every(({ callee }) => {
    const cb = behaviourOf(ev.eval(file, callee), ev);
    return !!cb && !cb.sendsResponse && !cb.status401 && !cb.status403or404 && !cb.answersVia;
  });
}

function functionOf(value: Value, ev: Evaluator) {
  if (value.t === 'fn') return ev.fnOf(value.file, value.fn) ?? null;
  return null;
}
