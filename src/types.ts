/**
 * The data model. Everything in `FileFacts` is plain JSON: it depends only on one
 * file's text, so it can be cached by content hash and computed anywhere. (Read back from
 * the cache or a worker, parts of it stay encoded until first read: src/extract/facts-text.ts.)
 */

export type Severity = 'error' | 'warning' | 'info';
export type SeverityOrOff = Severity | 'off';

export interface Loc {
  line: number; // 1-based
  column: number; // 1-based
}

/** A symbolic expression, as written in the source, to be evaluated by the linker. */
export type Expr =
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'bool'; v: boolean }
  | { k: 'tpl'; parts: Expr[] }
  | { k: 'arr'; items: Expr[] }
  | { k: 'obj'; props: Record<string, Expr> }
  | { k: 'ref'; name: string; scope: number }
  | { k: 'member'; obj: Expr; prop: string }
  /**
   * `obj[key]` with a key computed (`routers[name]`): the member the key names when it is known
   * statically. `text`, the expression as written (what a value not known statically is described by).
   */
  | { k: 'index'; obj: Expr; key: Expr; text: string }
  /** `spread`: an argument is spread (`route(...parts)`): those after it are not at their places */
  | { k: 'call'; callee: Expr; args: Expr[]; at: Loc; pos: number; spread?: true }
  | { k: 'new'; callee: Expr; args: Expr[]; at: Loc; pos: number; spread?: true }
  | { k: 'fn'; id: number }
  /**
   * a function's parameter; `init`, its default value when it has one; `injected`, the instance a
   * dependency-injection container passes a decorated class's constructor (extract.ts injectedToken)
   */
  | { k: 'param'; fn: number; index: number; name: string; init?: Expr; injected?: Extract<Expr, { k: 'new' }> }
  /**
   * Read from the arguments of a call of function `fn` through its rest parameter (`...args`, the
   * `from`-th parameter): `argc`, how many it passes from there on (`args.length`); `argAt`, the
   * `fromEnd`-th from the last (`args[args.length - 2]`: NodeBB's route helpers, whose optional
   * middleware list comes before the controller)
   */
  | { k: 'argc'; fn: number; from: number }
  | { k: 'argAt'; fn: number; from: number; fromEnd: number; text: string }
  /** a regular expression literal (`/^\/public\//i`) */
  | { k: 're'; source: string; flags: string }
  /**
   * The variable of a loop over a list (`for (const route of routes)`, `routes.forEach((route) => …)`):
   * an item of `of`, the `index`-th when the linker unrolls the loop (link.ts, `unrolled`)
   */
  | { k: 'item'; of: Expr; index?: number }
  /**
   * `e` as one call of the function it is written in makes it: that function's parameters stand
   * for the arguments the call passes. Made by the linker only (link.ts, `atCallSite`), never a fact.
   */
  | { k: 'within'; e: Expr; call: CallSite }
  /** `e` as written in `file`: the argument a call passes for a parameter (link.ts, `atCallSite`). Made by the linker only. */
  | { k: 'at'; file: string; e: Expr }
  /**
   * `test ? then : otherwise`: one of the two, as the test decides when the code runs. `text`,
   * the expression as written (what a value not known statically is described by). `absentFalse`:
   * a property an object literal lacks tests falsy (a list built by additions under tests of a
   * table entry's flags, `if (routes[key].admin) params.push(adminMiddleware)`: extract.ts addToList).
   */
  | { k: 'choice'; test: CondTest; then: Expr; otherwise: Expr; text: string; absentFalse?: true }
  /**
   * `l ?? r` (`op` '??': `r` when `l` is null or undefined) or `l || r` (`op` '||': `r` when `l`
   * is falsy): `version ?? 'v1'`, `prefix || '/api'`. `text`, the expression as written.
   */
  | { k: 'fallback'; op: '??' | '||'; l: Expr; r: Expr; text: string }
  | { k: 'unknown'; text: string };

/**
 * A condition written around a registration or a call (`if (config.auth) app.use(requireAuth)`),
 * as far as it can be read without running the code: tested when linked (link/conditions.ts).
 */
export type CondTest =
  | { k: 'truthy'; e: Expr }
  | { k: 'not'; c: CondTest }
  | { k: 'and' | 'or'; l: CondTest; r: CondTest }
  /** `===` / `==` (`neg`: `!==` / `!=`) */
  | { k: 'eq'; l: Expr; r: Expr; neg: boolean }
  /** `<`, `<=`, `>`, `>=` of numbers (`args.length > 4`) */
  | { k: 'cmp'; op: '<' | '<=' | '>' | '>='; l: Expr; r: Expr };

/** One condition a statement runs under: `test` is `holds` there (false in an `else`, after `if (…) return`). */
/**
 * Which items of an allowlist a test of it applies to (SkipFor `oneOf`): its strings, its regular
 * expressions, or its strings for which `item.startsWith(lit)` (`endsWith`, `includes`, `===`:
 * `equals`) is `holds`.
 */
export type ItemFilter = 'str' | 're' | { m: 'startsWith' | 'endsWith' | 'includes' | 'equals'; lit: string; holds: boolean };

export interface Cond {
  test: CondTest;
  holds: boolean;
  /** where the condition is written (its offset in the file): the same `if` for every statement it holds */
  pos: number;
  /** the condition as written, for messages: its first 81 characters (condLabel shows 80 at most) */
  text: string;
  /** set by the linker only, on a call's condition carried to the registrations the call makes: the file the condition is written in */
  file?: string;
}

/** A call of function `fn` of `file`, with the arguments written at the call, in `argsFile`. */
export interface CallSite {
  file: string;
  fn: number;
  argsFile: string;
  args: Expr[];
  /** the object a method is called on, as written in `argsFile` (`this.use(…)`: `this`): `this` in the method */
  self?: Expr;
  /**
   * The call of the function the method is written in that made the object it is called on
   * (`endpoint({ route, handler })` of `listProjects.mountHttp(app)`): what the method reads
   * of that function's parameters is what this call passed, as a closure keeps it.
   */
  made?: CallSite;
}

/** What a function's body can do, found without running it. */
/**
 * One alternative of a guard's allowlist (Behaviour.skipsFor): requests whose URL or path
 * passes a test, and have `method` when one is named. `path` is compared with the whole URL;
 * `startsWith`, `contains` and `endsWith` test a text the URL starts with, holds, or ends
 * with; `oneOf`, each item of a list the linker evaluates (`PUBLIC_PATHS.includes(req.path)`,
 * `PUBLIC_PREFIXES.some((p) => req.url.startsWith(p))`; `test` says how an item is applied,
 * `regex` for regular expressions: `/^\/public\//.test(req.path)` is a list of one).
 * `query`: the property tested holds the query string (`req.url`, `req.originalUrl`), which any
 * request can end with any text. With only `method`, every
 * request with that method. `helper`: a function the URL or path is handed to (`if
 * (isPublicPath(req.path)) return next()`, the function in another file), which lets through
 * what its `pathTests` say; `whole`: what it is handed is the whole URL (Hono's `c.req.url`);
 * `request`: the request itself (a matcher Clerk's `createRouteMatcher([...])` made).
 * `except`: every request none of these is (a check only run under a test of the URL or the
 * method, `if (req.path.startsWith('/admin')) { …the check… } next()`).
 * `config`: the requests of every route whose route options' `config` passes a test at that
 * path of keys (a Fastify hook's `if (request.routeOptions.config?.security?.kind === 'PUBLIC')
 * return`), ConfigTest saying which.
 */
export type SkipFor = (
  | { path: string; query?: true; method?: string }
  | { startsWith: string; method?: string }
  | { method: string }
  | { contains: string; query?: true; method?: string }
  | { endsWith: string; query?: true; method?: string }
  /** each item of the list, with `suffix` added when given (`PUBLIC.some((p) => path.startsWith(p + '/'))`) */
  /** (`glob`: micromatch's and picomatch's globs, `isMatch(path, patterns)`; `minimatch`: minimatch's, `minimatch(path, pattern)`) */
  /**
   * (`items`: the test applies to the list's strings only, or to its regular expressions only,
   * the others tested another way: `PUBLIC.some((r) => typeof r === 'string' ? r === path : r.test(path))`;
   * or to the strings a test of their own holds for, or fails for: `w.endsWith('*') ?
   * path.startsWith(w.slice(0, -1)) : path === w`, `cut` characters cut off each item's end)
   */
  | { oneOf: Expr; test: SkipTest | 'regex' | GlobTest; suffix?: string; cut?: number; query?: true; method?: string; items?: ItemFilter }
  | { helper: Expr; query?: true; whole?: true; request?: true }
  | { except: SkipFor[] }
  | { config: string[]; test: ConfigTest }
) & {
  /** the property tested holds the URL from the root even below a mount path (Express's `req.originalUrl`; its `req.path` and `req.url` do not) */
  root?: true;
};

/**
 * How a hook tests its route's `config` at a path of keys (SkipFor): the value is not there
 * (`=== undefined`, `== null`, `isNil(x)`), is there, is falsy (`!x`), truthy (`if (x)`), or
 * equals a value or not (`=== 'PUBLIC'`, `=== RouteKind.PUBLIC` of an enum, `!== true`), as
 * written: the linker evaluates it.
 */
export type ConfigTest = { is: 'missing' | 'present' | 'falsy' | 'truthy' } | { equals: Expr } | { notEquals: Expr };

/** How an allowlist compares the request's URL with a text (SkipFor). */
export type SkipTest = 'equals' | 'startsWith' | 'contains' | 'endsWith';

/** How a glob matcher package matches a path against its patterns (SkipFor's `oneOf`). */
export type GlobTest = 'glob' | 'minimatch';

/** For which requests a guard refuses one without a signed-in user (Behaviour.protects, Behaviour.authorizes). */
export type Protection = { always: true } | { unless: SkipFor[] } | { only: SkipFor[] } | { unknown: true };

export interface Behaviour {
  /** can end the request with 401 */
  status401: boolean;
  /** can end the request with 403 or 404 */
  status403or404: boolean;
  /** compares a tenant / organisation / workspace value (===, !==, includes, some, has…) */
  comparesTenant: boolean;
  /** reads the session / authenticated user from the request */
  readsSession: boolean;
  /** calls its `next` parameter (or returns/awaits next) */
  callsNext: boolean;
  /**
   * It takes its credential from a request header only: it reads the Authorization header (or
   * one named for an API key, a token or a secret), spells no cookie or Basic credentials, reads
   * no session the request carries, and hands its request to no function — a credential no
   * browser sends by itself (bearer).
   */
  headerCredential?: true;
  /**
   * It spells no cookie or Basic credentials, reads no session the request carries, and hands its
   * request (or its headers) whole only to these functions (`validateSession(req, res)`): it takes
   * its credential from a request header only when each of them, once linked, is a function of
   * the analysed code that does (`headerCredentialOf`, guards.ts).
   */
  credentialVia?: Expr[];
  /** With credentialVia: it reads a credential header itself too (the functions it hands its request to may then read none). */
  credentialHeader?: true;
  /**
   * A named function handed a request, its body spells no credential (no cookie, Basic
   * credentials, session, signed-in user, authorization, token, key, secret or password) and hands
   * the request only to credentialVia, if any: it reads no credential when each of them reads
   * none either.
   */
  readsNoCredential?: true;
  /**
   * A middleware (request, response, next) answering 401, 403 or 404 that never reads its request
   * (no reference to its first parameter, nor to a response's `req`) nor what earlier layers left
   * on the response (`res.locals`); or a context middleware (`(c, next)`, Hono's, Koa's, calling
   * its `next`) answering 403 or 404, never 401, that uses its context only to answer
   * (`c.json(…, 404)`), or a Fastify hook (`(request, reply)`, calling neither) answering so that
   * never names its request and names its reply only to answer: what it answers, a mode or a flag
   * of the server decides, not the caller.
   */
  ignoresRequest?: true;
  /** sends a response (res.json, res.send, res.end, ctx.body =, …) */
  sendsResponse: boolean;
  /**
   * The middlewares it hands its own request, response and `next` to, whole (`lusca.csrf()(req,
   * res, next)`, `passport.authenticate('jwt')(req, res, next)`), outside nested functions: on
   * those paths it is what they are.
   */
  handsTo?: Expr[];
  /**
   * Calls `next()` with no argument somewhere (nested callbacks included): on that path the
   * request goes on to the next matching layer (`next(err)` and `next('route')` do not count).
   */
  passesOn?: true;
  /** a Nest guard's `canActivate` that can return something falsy (Nest then answers 403) */
  deniesByReturn?: true;
  /**
   * A function of two parameters calls the second with an error made in place (`next(new
   * Error('unauthorized'))`): how a socket.io middleware refuses a connection (Koa's and Hono's
   * `next` takes no argument).
   */
  nextError?: true;
  /** nextError, the error's message saying the request is not authenticated (`'Unauthorized'`): a socket.io middleware refusing for that */
  nextErrorUnauthenticated?: true;
  /**
   * Every call of an Express middleware's `next` hands it an error made in place (`next(new
   * Error('File names cannot contain forward slashes!'))`, OWASP Juice Shop's key server): it
   * never passes the request on — the error handlers answer what it does not.
   */
  nextOnlyErrors?: true;
  /**
   * A Nest guard's `canActivate` read whole (activationOf): `allows`, it refuses nothing itself —
   * every way out returns true (or the overridden method's answer), and what it runs where what
   * that throws leaves the method only makes or reads values; `super`, how it calls the method it
   * overrides, `super.canActivate(…)`: where what that throws leaves the method ('propagates'),
   * inside a `try` whose `catch` answers anything but true for it ('converted': a refusal by its
   * answer, Nest's 403), or one that lets it go ('swallowed'); `returnsSuper`, what it answers
   * follows that call's answer (it returns it, or tests it: `if (await super.canActivate(context))
   * return true`); `allowsUnless`, it would allow every request but for these calls of named
   * functions (`req.user = await this.users.maybeFromToken(…)`), judged when linked as
   * handsOnUnless is. Absent when it neither refuses nothing nor calls it.
   */
  activation?: { allows: boolean; allowsUnless?: Expr[]; super?: 'swallowed' | 'converted' | 'propagates'; returnsSuper?: true };
  /**
   * A Nest guard's `canActivate` that returns false, first of all, when the request carries no
   * credential (`const authHeader = request.headers.authorization; if (!authHeader) return false`)
   */
  deniesUncredentialed?: true;
  /**
   * It returns whether what its parameters carry equals a secret of the deployment (`secret`:
   * `return a.length === b.length && timingSafeEqual(a, b)` of `req.query.token` and
   * `process.env.PUBSUB_TOKEN`) or an HMAC it computes (`signature`), and `false` (or nothing)
   * anywhere else it returns: a caller refusing the request when it says no checks that secret.
   */
  matchesSecret?: 'secret' | 'signature';
  /**
   * Its body answers a 401 (a response written or made, or a value returned: `res.status(401)…`,
   * `return new Response(…, { status: 401 })`, `return { status: 401 }`) and throws or hands on
   * none (`throw`, `next(err)`, `ctx.throw(401)`): a caller that goes on after calling it,
   * whatever it returned, is not stopped by it.
   */
  answers401Only?: true;
  /**
   * Every error status it gives, as a number, is 429 or 503 (a rate limit, maintenance: `if
   * (!success) return c.json({ error: 'Too many requests' }, 429)`); it throws nothing of its own
   * and no function in it answers: it ends the request for no one's identity.
   */
  refusesBusyOnly?: true;
  /**
   * Every 401 it gives is given under `if` tests of nothing but its parameters, entered by
   * their `then` branch (linkwarden's `getLinkById(linkId)`: `if (!linkId) return { response:
   * 'Please choose a valid link.', status: 401 }`): it checks what it is handed. Handed only what
   * the request asks for (a route or query parameter), its 401 answers a request that names
   * nothing, not one that proves no identity (link.ts, leadingGuard).
   */
  status401OnParams?: true;
  /**
   * Every error status it gives, as a number, is one of a request it cannot read (400, 411, 413,
   * 415, 422: `res.status(400).send('Invalid Transit in request body.')`); it throws nothing of
   * its own, no function in it answers, it reads no session, environment variable or request
   * header but its content's and names no credential, in a file comparing no CSRF token, HMAC or
   * secret and reading no credential header: it ends the request for no one's identity.
   */
  refusesUnreadableOnly?: true;
  /**
   * Every answer it writes is a redirect to an `https://` URL (`return
   * res.redirect(\`https://${req.headers.host}${req.originalUrl}\`)`, code-server's; Outline's apex
   * domain sent to `https://www.…`): it sends the request to TLS or to the canonical host, for no
   * one's identity.
   */
  upgradesToHttpsOnly?: true;
  /**
   * Every answer it writes is a redirect (no status of its own), and it reads of its request only
   * where it was sent (`req.originalUrl`, `req.path`, `req.headers.host` …) and by what browser
   * (its `user-agent` header): NodeBB's `stripLeadingSlashes` sends `//user/x` to `/user/x`,
   * overleaf's `unsupportedBrowserMiddleware` old browsers to a page saying so. A URL put right,
   * for no one's identity.
   */
  redirectsByUrlOnly?: true;
  /**
   * Every answer it gives (written, made, thrown or handed on as an error) is under a test that
   * the request's method is `OPTIONS` (`if (req.method === 'OPTIONS' && /\/blob\//.test(req.url))
   * { …CORS headers…; res.statusCode = 204; return void res.end() }`, cryptpad's), with no status of
   * 401, 403 or 404 and no function in it answering: it answers preflights, for no one's identity
   * (the functions it hands its response to are judged when linked: Behaviour.answersVia).
   */
  answersPreflightOnly?: true;
  /**
   * An Express middleware refusing (400, 403, 404 …, no 401) reading of its request only the
   * values its URL names (`req.params.id`, `req.query.page`), awaiting nothing, comparing no
   * tenant and reading no session, and using its response only to answer: proshop's
   * `checkObjectId`, `if (!isValidObjectId(req.params.id)) { res.status(404); throw … }` — a
   * malformed value refused, for no one's identity.
   */
  refusesOnUrlValuesOnly?: true;
  /**
   * A middleware refusing (no 401) that reads of its request only the host it was sent to
   * (`req.headers.get('host')`, `req.hostname`), awaiting nothing, comparing no tenant and
   * reading no session: homepage's `if (!allowedHosts.includes(host)) return …400`, a host
   * allowlist against DNS rebinding, for no one's identity.
   */
  refusesByHostOnly?: true;
  /** An `async` function throwing its 401: it rejects the promise it returns, which stops only a caller that awaits it. */
  rejects401?: true;
  /**
   * A middleware (given `next`) reading its request, which gives no 401 of its own but throws, or
   * hands a call, an error made of a class it imports whose name gives no status (`throw new
   * NotLoggedError()` of `import { NotLoggedError } from './errors'`): those classes, read when
   * linked for the status their file declares them with (`FileFacts.errorClasses`).
   */
  throwsImported?: Expr[];
  /**
   * Present when every 401 the function can send sits under `if` conditions on names it does
   * not declare itself (a factory's parameters: `if (!user && isStrict) throw …401`): per 401
   * site, those conditions. A factory call whose arguments make each site's condition false
   * (`authenticate('jwt', false)`) yields a middleware that never ends the request with 401.
   */
  status401If?: FlagCondition[][];
  /**
   * Present when the function refuses nothing itself but rethrows what its `try` threw, unless
   * `if` conditions on names it does not declare hold (Outline's `auth(options)`: `catch (err) {
   * if (options.optional && …) ctx.state.auth = {}; else throw err }`): those conditions. A
   * factory call whose arguments make them all true yields a middleware letting go whatever its
   * check threw: optional authentication.
   */
  swallowsIf?: FlagCondition[];
  /**
   * The body starts (after declarations) by calling `next()` when a value is missing —
   * `if (isNil(authorizationHeader)) return next();` — or checks only when one is there and then
   * calls it — `if (header) { …the token verified… } next();` — so anonymous requests pass:
   * whatever it checks, it is optional authentication.
   */
  passesAnonymous?: true;
  /**
   * The body starts (after declarations) by handing every request on under a test that reads
   * nothing of the request — the server's own switch: `if (!config.authEnabled) return next()`,
   * `if (req.session?.user || !isAuthEnabled()) return next()` (Z-Wave JS UI's): that test, as
   * the condition it is handed on under. Its checks run only where the test fails (read when
   * linked: a guard applied under a condition, when the test is not known statically).
   */
  switchedOff?: Cond;
  /**
   * Nothing in the body can throw outside a `try` whose `catch` takes it: no `throw`, call,
   * construction, `await`, member read or `for…of` there, nor a destructured or defaulted
   * parameter (rybbit's `validateApiKey`, `if (!apiKey) return { success: false, error: null };
   * try { … } catch { return { error } }`). A caller's `catch` never sees a refusal of it. Told of
   * functions named for a verification only (`verify…`, `validate…`, `authenticat…`), the calls a
   * caller's `catch` is read for.
   */
  throwsNothing?: true;
  /**
   * The body calls, where no `catch` takes what it throws (one throwing it on aside), a function
   * named for a check (`jwt.verify(token, key)`, `assertMember(…)`): a helper doing so may refuse
   * its caller's request though it answers nothing itself (handsOnUnless judges it so). Told of
   * functions answering nothing, refusing nothing themselves only.
   */
  callsRefusing?: true;
  /**
   * The body's first statement hands the request on (`await next();`, also first in a leading
   * `try`): what it does afterwards (reshape the body, map errors to statuses) happens once the
   * route has run, so it guards nothing.
   */
  nextFirst?: true;
  /**
   * The body hands every request on: it reaches `next()` at its top level through declarations
   * and expressions that only make or read values (`const ctx = await createContextFromRequest(…);
   * c.set('ctx', ctx); await next();`), or — the function a wrapper makes — returns what it
   * wraps called with such values, and never responds, throws or sends 401/403/404. It
   * establishes what later code reads (a session, a context): whatever its name, it refuses nothing.
   */
  handsOnAlways?: true;
  /**
   * The middleware hands every request on as handsOnAlways says, if these calls of its body
   * refuse nothing (`const token = req.cookies.token || utils.jwtFrom(req)`, `jwt.verify(token,
   * key, (err, decoded) => …)`: OWASP Juice Shop's updateAuthenticatedUsers): judged when linked.
   */
  handsOnUnless?: Expr[];
  /**
   * The index of the parameter whose absence the function lets through: every way it may refuse
   * (a throw, a call that may) is under a test that the parameter is given, `if (token) { … }`,
   * or after `if (!token) return null` (Directus's `getAccountabilityForToken(token, …)`). Handed
   * what a request carries, it refuses nothing to a request carrying nothing (handsOnUnless).
   */
  refusesOnlyWhenGiven?: number;
  /**
   * The test is of what that parameter carries, `const header = req.headers.authorization; if
   * (!header) return null` of `getUserFromRequest(req)`: handed the request itself, it refuses
   * nothing to a request carrying nothing.
   */
  refusesOnlyWhenCarried?: true;
  /**
   * The body answers and then hands on, both at its top level: `ctx.body = user; return next();`
   * (Koa's routes end so, for the middleware after them to see the answer). It serves the
   * request, whatever checks it made before answering: a route, not a layer for later ones.
   */
  answersThenHandsOn?: true;
  /**
   * Every way it ends the request hands an error on or throws (`next(err)`, `throw`), none answers
   * (Express's route-separation `user.load`: `if (req.user) next(); else next(err)`): a route's
   * last function so, handing the request on too, serves nothing itself — a layer for the routes
   * after it (LinkContext.passThrough).
   */
  answersOnlyErrors?: true;
  /**
   * Requests it lets through untouched, by a test of the request at the top of its body:
   * `if (request.url === '/api/v1/auth/login' && request.method === 'POST') return true;` —
   * a global guard with an allowlist of public routes. See SkipFor.
   */
  skipsFor?: SkipFor[];
  /**
   * The requests a middleware answers itself, handing every other on untouched, as alternatives
   * of an allowlist (SkipFor): read from the one test at the top of its body, calling `next`
   * nowhere on the side that answers (`if (req.url.split('?')[0] !== '/') return next();
   * res.render('index')`: `/`; `if (req.path === '/internal/metrics') return res.send(…); next()`;
   * `if (ctx.path !== '/health' || ctx.method !== 'GET') return next(); ctx.body = …`: GET
   * `/health`). The linker lists a route for each whole path (and method) among them.
   */
  servesFor?: SkipFor[];
  /**
   * A function of one parameter that returns a test of it as a request's path (`function
   * isPublicPath(pathname) { return PUBLIC.some((p) => pathname.startsWith(p)) }`): the paths
   * it returns true for, read as an allowlist's (SkipFor). A guard handing it the URL or path
   * lets those through (`helper`).
   */
  pathTests?: SkipFor[];
  /**
   * A handler given to Clerk's `clerkMiddleware` calls its first parameter's `protect()`
   * (`await auth.protect()`, v5's `auth().protect()`), which refuses a request without a
   * signed-in user: for every request (`always`), unless a test of the request holds (`if
   * (!isPublicRoute(req)) await auth.protect()`), or only when one does (`if
   * (isProtectedRoute(req)) …`); `unknown` when the call is under any other condition.
   */
  protects?: Protection;
  /**
   * An Auth.js `callbacks.authorized({ auth, request })` (NextAuth v4's `{ token, req }`): when it refuses a request without a
   * signed-in user (returns false, `!!auth`, or a response), as `protects` says; `never`, when
   * it refuses none.
   */
  authorizes?: Protection | { never: true };
  /**
   * The same, for a function Auth.js's `auth(fn)` wraps (a route handler, a middleware): only a
   * response it returns refuses a request — a `false` runs the wrapped function all the same,
   * `req.auth` null (next-auth 5, lib/index.ts `handleAuth`). Absent when it is `authorizes`.
   */
  authorizesWrapped?: Protection | { never: true };
  /**
   * The body starts by refusing — `return false` (or another falsy value) or a throw — under
   * conditions that its parameters are all missing: `if (!userId && !token) return false;`.
   * Per such site, the parameters (each condition is `falsy`).
   */
  refusesWhen?: FlagCondition[][];
  /**
   * The parameters (by index) the function only writes a response to: every use of the name is
   * a call of a response method on it (`res.cookie(…)`, `res.status(200).send()`, `reply.code(…)`).
   * A handler handing its response to such a function (`setAuthCookies(res, tokens)`) does not
   * hand it the request: whatever its name, it checks nothing.
   */
  respondsWith?: number[];
  /**
   * Calls of a middleware's own body (`(req, res, next)`) handed its response: the callee and
   * the argument the response is (`reject(req, res, 'Token not found')`, Trilium's
   * checkEtapiToken). A function answering 401 with that argument (status401, respondsWith)
   * answers it for this one, judged when linked.
   */
  answersVia?: { callee: Expr; index: number }[];
  /**
   * Calls of a function's own body whose answer it returns as its own under an `if` (`if
   * (!adminToken) return sendUnAuthorizedResponse({ message: 'Unauthorized' })`, BoxyHQ
   * Jackson's Next.js middleware; `return await deny(c)`), not a parameter's or a method of
   * one, when it gives no 401 itself: a function of the analysed code that answers 401 and
   * throws none (status401, answers401Only) ends this one's so, judged when linked.
   */
  returnsVia?: Expr[];
  /**
   * Calls whose answer, or its truth (`!!x`, `Boolean(x)`), the function returns outside nested
   * functions, not a parameter's or a method of one: a permission check handing its verdict to
   * another (umami's `canViewReport` ending `return !!(await canViewWebsite(auth,
   * report.websiteId))`), which compares the tenant for it (LinkContext.comparesTenantVia).
   */
  returnsAnswerOf?: Expr[];
  /**
   * The middleware names its request only in those calls: when one of them answers its 401, it
   * answers from the server's own state (as ignoresRequest says of a 401 of its own).
   */
  requestOnlyToAnswer?: true;
}

/** A condition on one name: `x`, `!x`, `x === 'lit'`, `x !== 'lit'`. */
export interface FlagCondition {
  name: string;
  /** `options.skipAuth`: the property path read from `name` */
  path?: string[];
  op: 'truthy' | 'falsy' | 'eq' | 'ne';
  value?: string | number | boolean;
}

export interface LeadingGuard {
  /** a call among the leading statements: its callee */
  callee?: Expr;
  /** and its arguments (of the inline check, those of the call it refuses on: `refuses`) */
  args?: Expr[];
  /**
   * an inline check among the leading statements; `refusal`: the body answers every request
   * with an error status and does nothing else (extract.ts refusesEvery); `token`: a credential
   * header compared with one stored for what the request asks for
   */
  inline?: 'auth' | 'tenant' | 'csrf' | 'signature' | 'secret' | 'token' | 'refusal';
  /** the inline check's refusal throws (`if (!secureCompare(digest, signature)) throw …`): it ends a caller's request too */
  throws?: true;
  /**
   * The inline tenant check looks the tenant up by these parameters of the function (by index:
   * `mustBeProjectUser(user, projectId)` looking up `{ project: { id: projectId }, user: { id:
   * user.id } }`): a check of the signed-in user's tenant only when a caller hands it that user
   * at one of them (judged when linked, at the call).
   */
  userParams?: number[];
  /** the inline auth check ends the request when the request has no signed-in user (`if (!ctx.session.id) { ctx.body = …; return }`), whatever the status */
  noUser?: true;
  /**
   * The inline auth check's condition also tests the request's URL or method (`if (!user &&
   * !pathname.startsWith('/login'))`, Supabase's template): the requests it lets through, those
   * a test of it is false for.
   */
  skips?: SkipFor[];
  /**
   * The inline 401 check refuses what this function returned (`const matches = await
   * bcrypt.compare(req.body.password, link.password); if (!matches) throw …401`): when linked, no
   * authentication when it compares a password with its hash or checks a signature (what a
   * webhook's sender signs).
   */
  refuses?: Expr;
  /**
   * The inline check's branch ends the request only by the call (`callee`, `args`) handed the
   * request or the response (`if (!req.isAuthenticated()) return response.errorForbidden(req,
   * res)`): a check when the function called answers (Behaviour.sendsResponse), judged when linked.
   */
  endedBy?: true;
  /**
   * The branch refusing on what the call (`callee`, a check) answers ends the request only by
   * another call it returns, handed the request or the response (`if (!isValid) return
   * Response.sendErrorResponse(req, res, new BadDataException('Invalid webhook signature'))`,
   * OneUptime's GitHub webhook): that call's callee, a check when it answers
   * (Behaviour.sendsResponse) and the call refused on is named for a family's, judged when linked.
   */
  endedVia?: Expr;
  /**
   * The handler ends the request when this call's result is falsy (`if (!(await canAccess(T,
   * ctx.session.id, id))) { …; return }`); per argument: the request's signed-in user, a
   * credential the request carries (`ctx.query.token`), or anything else.
   */
  refusal?: ('user' | 'credential' | 'other')[];
  /**
   * The handler ends the request when this property path of the call's result is missing
   * (`const user = extractUserFromInjected(res).user; if (!user) { …; return }`): a signed-in
   * check when the function called returns the request's signed-in user there.
   */
  userVia?: string[];
  /**
   * The call the handler refuses on (`refusal`, `userVia`) is handed the credential the request
   * carries (`prisma.user.findFirst({ where: { token: req.headers.authorization } })`): read from
   * request headers only ('header': one no browser sends by itself), or elsewhere too.
   */
  credential?: 'header' | 'other';
  /**
   * The call is made in a leading `try` whose `catch` ends the request, named as a check
   * (`verify…`, `validate…`) and handed what the request carries (`await verifyJWT(request.jwt,
   * secret)`): the request ends when it throws. Judged when linked, by what it verifies.
   */
  verifies?: true;
  /**
   * The function ends with this call, answering with what it returns or doing nothing after it
   * (`return handleGet(req)`, `(req, res) => ctrl.list(req, res)`, a last `await listProjects(req,
   * res)`): handed the request, the function called leads the rest with its own leading
   * statements. Judged when linked.
   */
  delegates?: true;
  /** The call is returned (`return handleGet(req)`): read only as the call the function ends with, never as a check of its own. */
  returned?: true;
  /**
   * What the call returns decides whether the function goes on: a leading `if` testing it can
   * leave (`const member = memberOrRefuse(res); if (!member) return;`, `if (denied) return
   * denied`), or it is what the function answers (a concise body). A function that only answers
   * its 401 (Behaviour.answers401Only) stops the handler only so.
   */
  checked?: true;
  /**
   * The statement leads only the methods whose entry, in the table of handlers by method the
   * function's maker is handed, has this property path truthy: `if (handler.auth) { …check… }` of
   * `const handler = api[req.method]` (jitsu's `nextJsApiHandler({ GET: { auth: true, handle } })`).
   * Decided when linked, for each method of the table; no check elsewhere.
   */
  entryFlag?: string[];
  /**
   * The function ends one of several ways, each with the call it answers with (`if (key) return
   * viaApiKey(key); return viaSession();`, `return key ? viaApiKey(key) : viaSession()`): what
   * leads each way, read as a concise body's call is. A check when every way checks (judged when
   * linked, each on its own): what they all check leads the function.
   */
  either?: LeadingGuard[][];
  /** The call's promise is not awaited (`requireSession(req);`): an `async` function's throw stops nothing (Behaviour.rejects401). */
  unawaited?: true;
  at: Loc;
}

export interface ResponseField {
  key: string;
  at: Loc;
  snippet: string;
}

export interface FunctionFact {
  id: number;
  name: string | null;
  at: Loc;
  scope: number; // the scope of the function's own body
  params: string[];
  /** the index of its rest parameter, named (`...roles`), when it has one */
  rest?: number;
  behaviour: Behaviour;
  /** expressions the function returns (for factories) */
  returns: Expr[];
  /**
   * The conditions each of `returns` is returned under, in the function (`if (!prefix) return
   * '/' + name`), null for one under none; absent when no return is under a condition. A list
   * shorter than `returns`: those after it are under none.
   */
  returnsWhen?: (Cond[] | null)[];
  /** guards called or checked in the leading statements of the body */
  leading: LeadingGuard[];
  /**
   * The leading statements read on past branches that answer requests by their URL alone (`if
   * (pathname.startsWith('/ping')) return new Response('pong')`), where `leading` ends: what the
   * function checks when it runs as a layer (a middleware), whose own answers to those requests
   * keep them from every route after it; a route's handler answers its route's requests so too,
   * unchecked, and reads only `leading`. Absent when no such branch leads the checks.
   */
  leadingPastServed?: LeadingGuard[];
  /**
   * Functions it puts on its request for what runs later to call (`request.getCurrentUserId =
   * async () => { … }` in a Fastify hook, `req.requireAdmin = () => { … }` in a middleware), by
   * the property: `fn`, the id of the function put there. Their refusals are not its own: they
   * refuse where a handler calls them (Evaluator.member of the request). `on`: the index of
   * the parameter they are put on. `made`: an instance put there instead, the construction
   * (`req.responseHandler = new ApiResponseHandler(req)`), whose methods a handler calls.
   */
  installs?: ({ prop: string; on: number; fn: number } | { prop: string; on: number; made: Expr })[];
  /**
   * The checks its leading statements make by answering nothing (`if (!session) return null`,
   * `if (!membership) return null` of a lookup keyed by the signed-in user): a caller that
   * refuses the request on its empty answer makes them (LinkContext.refusalGuard)
   */
  emptyWhen?: { kind: 'auth' | 'tenant'; at: Loc }[];
  /**
   * It closes its first parameter as a WebSocket (`socket.close()`): a WebSocket handler, whose
   * request is the second parameter, not a `next` (@fastify/websocket's `(socket, request)`)
   */
  socket?: true;
  /** object keys put into a response body */
  responseFields: ResponseField[];
  /** expressions put into a response body that expose a session id/cookie */
  sessionExposures: { at: Loc; snippet: string; text: string }[];
  /** the same, in values the function returns: a response only when the function is a route handler */
  returnedSessionExposures: { at: Loc; snippet: string; text: string }[];
  /**
   * A handler whose body dispatches on its first parameter's `method` (`if (req.method === 'GET')
   * … else if …`, `switch (req.method)`, `if (req.method !== 'POST') return res.status(405)…`):
   * what each method gets, the rest last when a method no branch names is served. Read for
   * Next.js Pages Router handlers (their routes then take the branches' `leading`, not the
   * function's).
   */
  dispatch?: MethodBranch[];
  /**
   * The list of methods a function lets through, when it refuses every other method with a 405
   * by a test of a list not written in place, no statement before the test handing the request
   * to a call: `if (!api_config.methods.includes(req.method)) return res.json({ … }, 405)` of
   * zipline's `withZipline(handler, api_config)`. The list is read where the function is made
   * (a wrapper's arguments decide it: the Next.js adapter's routes take its methods); `except`,
   * the methods the function answers before the test, by a branch of their own that leaves it
   * (zipline's `if (req.method === 'OPTIONS') return res.status(204).end()`): none of them gets further.
   */
  allowsMethods?: { list: Expr; except: string[] };
  /**
   * A middleware handing the request whole to `handsTo` when its method is `method`, and to the
   * next layer otherwise: `(req, res, next) => (req.method === m ? mw(req, res, next) : next())`
   * of dashy's `method('GET', handler)`. Both are read where the function is made (a factory's
   * arguments decide them): an endpoint of that method, where the Express adapter mounts it.
   */
  methodFilter?: { method: Expr; handsTo: Expr };
  /**
   * The functions the function gives an object passed to it as properties (a function, or a
   * call wrapping one), in order, where its own body does so under no condition and in no loop:
   * `middleware.authenticateRequest = helpers.try(async (req, res, next) => …)` of NodeBB's
   * `module.exports = function (middleware) { … }`, each with the parameter's place (`index`).
   * A module calling it with its exports object (`require('./user')(middleware)`) exports them.
   */
  paramProps?: { index: number; prop: string; value: Expr }[];
}

/** A branch of a handler dispatching on its request's method (FunctionFact.dispatch). */
export interface MethodBranch {
  /** the methods it serves (`GET`, `POST` …); none for the rest: any method no branch names */
  methods: string[];
  at: Loc;
  snippet: string;
  /** the guards called or checked in the statements leading it, those before the dispatch first */
  leading: LeadingGuard[];
}

export interface Scope {
  id: number;
  parent: number | null; // null for module scope (id 0)
  /**
   * local bindings (const/let/var/function/param); in facts read back from text, encoded until
   * first read — read them with `bindingOf` (src/extract/facts-text.ts)
   */
  bindings: Record<string, Expr | EncodedBinding>;
}

/** A binding read back from text and not decoded yet: the number of the line that holds it (src/extract/facts-text.ts). */
export type EncodedBinding = number;

export interface ImportFact {
  local: string;
  /** 'default', '*', or the imported name */
  imported: string;
  source: string;
}

export interface ExportFact {
  exported: string;
  /** a local name, when exporting a local binding */
  local?: string;
  /** re-export: `export { a as b } from './x'` or `export * from './x'` (exported '*') */
  source?: string;
  imported?: string;
  /**
   * an ES module's default export of a value no local names (`export default (app) => …`):
   * `require()` of the module gives its namespace, not that value (as for `module.exports = …`)
   */
  esm?: true;
  /** `export type { … }`, `export { type … }`: a type's name, not in the module's namespace at run time */
  typeOnly?: true;
}

/**
 * A method call on something that may be an app or router: `x.get(...)`, `x.use(...)`,
 * `x.route('/p').get(...)`, `x.set('strict routing', true)`. Which framework (if any) it
 * belongs to is decided by the linker, from what `target` evaluates to.
 */
export interface RegistrationFact {
  target: Expr;
  /** the method name as written (`get`, `use`, `route`, `register`, `addHook`, `set` …) */
  method: string;
  args: Expr[];
  /** for `x.route(path).get(...)` chains: the path given to `route` */
  chainPath: Expr | null;
  /** the call is awaited (`await fastify.register(plugin)` loads the plugin before the next statement) */
  awaited?: true;
  /** its answer is handed to `.then` / `.catch` / `.finally`: a request's promise (`api.put(url, body).then(…)`), which no framework's registration answers */
  promised?: true;
  /** the conditions the registration is made under, outermost first, in the function (or module) that makes it */
  when?: Cond[];
  /** `this.app[options.method](…)`: the method as an expression (`method` is then COMPUTED_METHOD), read when linked */
  methodExpr?: Expr;
  /**
   * Made (when linked) by a call whose arguments give its path or method (`this.route({ method:
   * 'get', path: '/x' })` of a helper registering `this.app[options.method](options.path, …)`):
   * that call's place, where its route is reported
   */
  site?: { file: string; at: Loc; snippet: string };
  at: Loc;
  /** the source line, for fingerprints and excerpts */
  snippet: string;
}

/** A statement-level call passing identifiers: `mountSites(api)`, `await registerRoutes(app, deps)`. */
export interface CallFact {
  callee: Expr;
  args: Expr[];
  at: Loc;
  /** the source line: where a route the call makes is reported (RegistrationFact.site) */
  snippet: string;
  /** a `super(…)` call: the instance it is made for (`this` of the class calling it), `this` in the constructor it calls */
  self?: Expr;
  /** the conditions the call is made under (RegistrationFact.when) */
  when?: Cond[];
}

export interface CookieFact {
  kind: 'session-middleware' | 'set-cookie';
  callee: Expr;
  /** cookie name when known */
  name: string | null;
  options: Expr | null;
  /**
   * what a cookie whose name is no session's is set to (`res.cookie('token', jwt.sign(…))`): a
   * session cookie when that is a token a JWT package signs (read when linked)
   */
  value?: Expr;
  at: Loc;
  snippet: string;
}

export interface DocumentCookieRead {
  at: Loc;
  snippet: string;
  /**
   * The one cookie the read picks out, when it does (`document.cookie.split('; ').find((c) =>
   * c.startsWith(`${NAME}=`))`, `document.cookie.match(/(?:^|; )theme=([^;]*)/)`,
   * `document.cookie.includes('consent=')`): the text it looks for, the cookie's name first
   */
  cookie?: Expr;
  /**
   * when `cookie` is made of a parameter of a helper the file alone calls (`getCookie(name)`):
   * what it looks for at each call, the call's argument in the parameter's place
   */
  picks?: Expr[];
}

export interface Suppression {
  line: number; // the line the comment is on
  rules: string[];
  reason: string | null;
  at: Loc;
}

export interface ParseErrorFact {
  message: string;
  at: Loc;
}

export interface FileFacts {
  file: string;
  parseError: ParseErrorFact | null;
  imports: ImportFact[];
  exports: ExportFact[];
  scopes: Scope[];
  functions: FunctionFact[];
  registrations: RegistrationFact[];
  calls: CallFact[];
  cookies: CookieFact[];
  documentCookieReads: DocumentCookieRead[];
  suppressions: Suppression[];
  /** adapter-specific facts (decorators, file-system routes), keyed by adapter name; plain JSON */
  adapterFacts: Record<string, unknown>;
  /**
   * The error classes the file declares with a status of their own (a `type`, `code`, `status` or
   * `statusCode` field, `super(401, …)`, a base of the file with one), by name; absent when none
   */
  errorClasses?: Record<string, number>;
  /**
   * Methods given to a router made in the file that register a route on it (`router.getAsync =
   * (path, ...handlers) => router.get(path, ...wrap(handlers))`): where the router is made (the
   * call or `new` making it), the method's name, and the route method it registers; absent when none
   */
  routerAliases?: { at: Loc; name: string; method: string }[];
}

// ---------------------------------------------------------------------------
// The linked model.

export type GuardKind = 'auth' | 'tenant' | 'csrf' | 'family' | 'bearer' | 'session' | 'nonguard' | 'unknown';

export type GuardMechanism =
  | 'route-middleware'
  | 'router.use'
  | 'app.use'
  | 'mount-middleware'
  /**
   * Express and @koa/router: a route registration whose last function passes the request on with `next()`
   * (`app.all('/api/*', requireAuthentication)`, `route(p).all(guard).get(…)`): it runs for the
   * routes registered after it whose path its path matches, for its method
   */
  | 'pass-through-route'
  /** Express and @koa/router: `router.param(name, fn)`, for the routes whose path names the parameter */
  | 'router.param'
  | 'in-handler'
  /**
   * NestJS: `useGlobalGuards` / `APP_GUARD` providers, `@UseGuards` on the controller class, on
   * the handler method (routing-controllers: `@UseBefore` and `@Authorized` on the class, on the
   * method; a required `@CurrentUser` parameter)
   */
  | 'global-guard'
  | 'controller-guard'
  | 'method-guard'
  /** NestJS: `consumer.apply(mw).forRoutes(...)` in a module's `configure` */
  | 'module-middleware'
  /** Next.js: a function wrapping the exported handler (`export const GET = withAuth(handler)`) */
  | 'wrapper'
  /** Next.js: `middleware.ts` / `proxy.ts` whose `config.matcher` matches the route */
  | 'next-middleware';

export interface AppliedGuard {
  name: string;
  kinds: GuardKind[];
  /** families this guard protects (for family guards) */
  families: string[];
  /** how the kinds were established */
  reason: string;
  mechanism: GuardMechanism;
  file: string;
  line: number;
  /**
   * Applied only under a condition that cannot be decided statically (`if (config.auth)
   * app.use(requireAuth)`) and that the route is not itself registered under: the condition as
   * written. Such a guard is listed (Route.conditionalGuards) but guards nothing for the rules.
   */
  when?: string;
  /**
   * Applied, but its allowlist lets some request to the route through untouched: what it lets
   * through (`POST /api/login`, `paths starting with /public/`). Such a guard is listed
   * (Route.skippedGuards) but guards nothing for the rules.
   */
  skips?: string;
  /** Its kinds are unknown because which requests it lets through (`.unless()`, an allowlist) is not known statically. */
  exceptionsUnknown?: true;
}

export interface PrefixStep {
  prefix: string;
  file: string;
  line: number;
  /**
   * Why this step's prefix is not known statically (a router's `prefix` made from a value the
   * code does not give): the route's path lacks it, so it is matched to no contract route and
   * no rule judges where it lies.
   */
  unknown?: string;
}

export type Classification = 'contract' | 'public' | 'browser' | 'excluded';

export interface Route {
  method: string;
  path: string;
  /**
   * The path as reports show it when a part of it is not known statically: `/…` where that part
   * stands (`/api/…/sites`); absent otherwise, and where the adapter does not tell where it
   * stands (shownPath then writes `/…` first).
   */
  shown?: string;
  file: string;
  line: number;
  column: number;
  framework: string;
  handler: string | null;
  /** the app (root) this route belongs to */
  app: string;
  /** `/x` also serves `/x/` and vice versa */
  trailingSlashInsensitive: boolean;
  /** what the framework does with the other trailing-slash form, for drift messages (Next.js: a 308 redirect) */
  slashRule?: string;
  caseSensitive: boolean;
  /** set when a generated API document publishes the route: the generator, and how to hide the route from it */
  apiDocs?: { generator: string; hide: string };
  prefixes: PrefixStep[];
  guards: AppliedGuard[];
  /** guards applied only when a condition not known statically holds (AppliedGuard.when); absent when none */
  conditionalGuards?: AppliedGuard[];
  /** guards applied to the route whose allowlists let some request to it through (AppliedGuard.skips) */
  skippedGuards?: AppliedGuard[];
  /** handler function, when resolved */
  handlerFn: { file: string; fn: number } | null;
  snippet: string;
  classification: Classification;
  family: string | null;
  contractRoute: string | null;
  /** how the route relates to its contract route */
  contractMatch: 'exact' | 'served' | 'drift' | null;
  driftReason: string | null;
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
  route?: { method: string; path: string };
  fingerprint: string;
  snippet: string;
}
