import { ruleTester } from '../helpers/rule-tester.js';

ruleTester('missing-auth-guard', {
  valid: [
    {
      dir: 'valid/context-loader-declared-as-auth',
      name: 'a context loader that always hands the request on stays an auth guard when the config names it in guards.auth',
    },
    { dir: 'valid/route-middleware', name: 'a guard named like one, before the handler' },
    {
      dir: 'valid/permission-checks-of-the-signed-in-user',
      name: "permission middleware handing the request on only inside `if (user)` of `const user = req.user`, by checks that each hand on or go on (a loop over the permissions asked for too), and answering 403 after it (flowise's `checkPermission` and `checkAnyPermission`)",
    },
    {
      dir: 'valid/login-check-refusing-inactive-users',
      name: "a middleware handing on a signed-in user after checks of its own, refusing anyone else (growi's loginRequired: `if (req.user != null) { if (req.user.status === ACTIVE) return next(); return res.redirect(…) }`, then a 403 or the login page)",
    },
    {
      dir: 'valid/next-wrapper-leading-with-a-check',
      name: "a wrapper around the exported handler whose function leads with a check (`withCron(handler)` of `async (req) => { await verifyCronSecret(req); return handler(req) }`, Dub's cron routes)",
    },
    {
      dir: 'valid/next-handler-redirecting-when-signed-out',
      name: "a route handler ending a signed-out request with next/navigation's redirect() or notFound(), which throw (Formbricks)",
    },
    {
      dir: 'valid/next-handler-answering-one-of-two-checked-ways',
      name: 'a handler answering one of two ways, each checked (`if (key) return viaApiKey(key); return viaSession();`, with `else`, and `key ? viaApiKey(key) : viaSession()`)',
    },
    {
      dir: 'valid/next-handler-returning-a-guard-call',
      name: "a handler answering with a package's session check (`return requireSession(request)`, awaited or not), as a concise body's does (Formbricks)",
    },
    {
      dir: 'valid/handler-refuses-every-request',
      name: "handlers that answer every request with an error status and do nothing else (Koa's 405 and ctx.throw(405), Express's 410, a throw) serve no one",
    },
    { dir: 'valid/router-use-before-route', name: 'router.use(guard) before the route' },
    { dir: 'valid/express-guard-passing-an-error-to-next', name: 'a guard (by name) whose first statement hands the request on with an error: next(err) ends it' },
    { dir: 'valid/nested-mounts-across-files', name: "app.use('/api', guard, api) guards routes two mounts and two files down" },
    { dir: 'valid/global-before-mount', name: 'a global app.use(guard) before the mount' },
    { dir: 'valid/in-handler-call', name: '`await requireSession(req)` at the top of the handler' },
    {
      dir: 'valid/in-handler-call-declared-as-auth',
      name: "a getter handed the cookie, not the request, leading the handler (`await userService.getMe({ cookie })`, APITable's): an auth guard when the config names it in guards.auth",
    },
    { dir: 'valid/in-handler-inline-401', name: 'an inline 401 check at the top of the handler' },
    { dir: 'valid/deployment-secret-checked', name: "a middleware refusing requests whose API key is not the deployment's (`process.env.API_KEY !== c.req.header('X-API-Key')`, a 403)" },
    { dir: 'valid/in-handler-401-on-a-credential-in-the-query', name: 'an inline 401 for a request without the token its query must carry (also destructured from the query, or given by a helper handed it)' },
    {
      dir: 'valid/helper-401-for-a-missing-parameter-then-signed-in-check',
      name: "a helper answering 401 for a missing parameter that then checks who asks (`if (!linkId) return { status: 401 }; const userId = requireUser()`, the latter throwing a 401): still the route's auth guard",
    },
    { dir: 'valid/in-handler-passport-is-authenticated', name: "`if (!req.isAuthenticated()) return res.redirect('/login')` at the top of the handler" },
    { dir: 'valid/in-handler-user-null-check', name: "`if (req.user == null) return res.redirect('/login')`: no user, the request ends" },
    { dir: 'valid/by-behaviour', name: 'a middleware with a neutral name that ends the request with 401' },
    {
      dir: 'valid/helper-answering-401-then-throwing',
      name: "a call at the top of the handler answering 401 through a helper that then throws (`return failed(401, …)` of `const failed = (status, reason) => { res.status(status).send(reason); throw … }`)",
    },
    { dir: 'valid/guard-factory', name: "requireRole('owner'): the middleware a factory returns answers 401" },
    {
      dir: 'valid/guards-handed-to-router-factories',
      name: 'guards handed to a router class\'s constructor (`new ChatRouter(...guards)`, a rest parameter registered as `...guards`) or to a router factory guard its routes',
    },
    { dir: 'valid/guard-array', name: 'an imported array of guards, spread or passed whole' },
    { dir: 'valid/passport-authenticate', name: 'passport.authenticate is auth by package' },
    { dir: 'valid/guard-named-login-required', name: "a package's middleware named loginRequired or requireLogin (growi's, Flask's login_required) is auth by name" },
    {
      dir: 'valid/basic-auth-package',
      name: "express-basic-auth's middleware is auth by package: used as it is, and made per request and handed the request by a middleware (uptime-kuma's apiAuth)",
    },
    { dir: 'valid/router-middleware-runs-for-later-siblings', name: "a.use(guard) runs for every request entering a, so it guards b mounted later on the same path" },
    { dir: 'valid/commonjs', name: 'CommonJS: require, module.exports of a router and of an object of guards' },
    { dir: 'valid/guard-wrapped-then-named', name: '`const protect = asyncHandler(async (req, res, next) => …401…)`: a wrapped guard used by its name (a local wrapper and express-async-handler)' },
    { dir: 'valid/handler-wrapper', name: 'authenticated(handler): the wrapper’s function answers 401 before calling the handler' },
    { dir: 'valid/in-handler-check-behind-a-pass-through-wrapper', name: 'wrap(userController.getMe), a wrapper that only forwards errors: the 401 check leading the wrapped handler' },
    {
      dir: 'valid/handed-on-through-call-and-apply',
      name: 'wrappers and middleware handing the request on with a `this` (`fn.call(this, req, res, next)`, `fn.apply(this, arguments)`, `requireSession.call(this, …)`): the checks of the function called',
    },
    { dir: 'valid/commonjs-exports-members', name: 'CommonJS: a guard exported as `exports.checkCaller = …`, required as `require(…).checkCaller`' },
    { dir: 'valid/module-forms', name: 'guards from a CommonJS object imported by name, an `export * as` namespace, and `import x = require()`' },
    { dir: 'valid/status-chosen-in-the-error', name: '`next(new HttpError(session ? 403 : 401, …))`: a status picked inside the constructor call' },
    {
      dir: 'valid/pass-through-route',
      name: "app.all('/api/*', requireAuthentication, loadAccount) and route(p).all(requireSession).get(…): routes whose functions call next() run before the later routes they match",
    },
    {
      dir: 'valid/express-jwt-unless-preflight',
      name: "expressjwt(…).unless({ method: 'OPTIONS' }) guards every route that does not answer OPTIONS itself",
    },
    {
      dir: 'valid/in-handler-session-local',
      name: "`const session = await getServerSession(authOptions); if (!session) return new Response(…, { status: 403 })`, and `!session?.user || …`",
    },
    {
      dir: 'valid/express-route-stage-checks-the-session',
      name: 'a route function that checks the session, loads what the handler needs and calls next(): its checks run before the handler (a handler stage)',
    },
    {
      dir: 'valid/in-handler-check-answering-itself',
      name: '`if (!hasMember(req, res)) return;` (or its result held in a local): a helper handed the response that answers 401 itself, the handler only leaving',
    },
    { dir: 'valid/in-handler-response-helper-refuses', name: 'a helper handed only the response that reads the member from res.locals and answers 401: a guard by behaviour' },
    {
      dir: 'valid/by-behaviour-error-code',
      name: "a middleware with a neutral name that ends the request with an error whose code names the status (`new AppError({ code: 'UNAUTHORIZED' })`, tRPC's spelling)",
    },
    {
      dir: 'valid/by-behaviour-error-class-with-a-status',
      name: "middleware with neutral names throwing or handing on errors whose classes, declared in the file, give a 401: as a field (`type = 'UNAUTHORIZED' as const`, your_spotify's NotLoggedError), to the base's constructor (`super(401, …)`), or through a base of the file",
    },
    {
      dir: 'valid/by-behaviour-error-class-of-another-file',
      name: 'middleware with neutral names throwing, or handing to next, errors of classes they import, declared in their file with a 401 (a field, the status handed to the base)',
    },
    {
      dir: 'valid/by-behaviour-authentication-error',
      name: 'a middleware with a neutral name that refuses a request without a valid API key with an AuthenticationError (the 401 of an authentication error)',
    },
    {
      dir: 'valid/in-handler-401-token-signature-checked',
      name: "a 401 refusing a token's signature check (`verifyJwtSignature(req.get('authorization'))`): the caller's credential, authentication",
    },
    {
      dir: 'valid/wrapper-returning-a-package-wrapper',
      name: "a Next.js route wrapper returning a package's wrapper around its own function (`withContext = (h) => withAxiom(async (req, ctx) => { … throw new ApiError({ code: 'unauthorized' }) … })`): that function answers",
    },
    {
      dir: 'valid/wrapper-handed-its-middleware',
      name: "route wrappers made by one function handed the middleware to run (`withMiddleware(handler, emailAccountMiddleware)`, run as `if (middleware) { const result = await middleware(req); if (result instanceof Response) return result }` in an audit context's callback), that middleware leading with the session check; and a `catch` answering 401 for what the key check before the handler threw",
    },
    {
      dir: 'valid/in-handler-deployment-key-refused-with-an-error-body',
      name: "a function comparing the request's key with the deployment's (`isValidInternalApiKey(await headers())`), the request refused when it says no with an error body and no status: authentication, as a 401 refusing it is",
    },
    {
      dir: 'valid/in-handler-session-user-by-email',
      name: "a session getter handed the request's headers (`auth(request.headers)`) and its user checked by e-mail (`if (!session?.user.email) return …`): a signed-in check, whatever the answer's status",
    },
    {
      dir: 'valid/in-handler-signed-in-branches',
      name: '`if (req.isAuthenticated()) { … } else { return response.errorForbidden(req, res) }`, `if (req.user != null && …) … else 401`, and the check written first with a helper that answers',
    },
    { dir: 'valid/in-handler-refusal-falsy-values', name: 'a caller-scoped lookup that refuses a request without a user by returning undefined, 0 or an empty string, checked before the response' },
    {
      dir: 'valid/in-handler-check-after-refusals',
      name: 'branches refusing the request before the session check (400, 404, `{ ok: false }`) and a preflight answered first: the check still leads every request it serves',
    },
    {
      dir: 'valid/in-handler-check-in-a-try-that-refuses',
      name: 'a session check in a try whose catch answers the 401, returns through an error helper, or whose try holds the work: a refused request is served nothing',
    },
    {
      dir: 'valid/in-handler-error-code-check',
      name: "an access token looked up, the request ended by an error whose code is 401's when none is found (`throw new ApiError({ code: 'unauthorized' })`); the token getter before it checks nothing",
    },
    {
      dir: 'valid/session-token-of-an-in-code-getter',
      name: "`if (!token?.id) return res.status(404)…` of `const token = await getTokenFromRequest(req)`, an in-code function returning next-auth's `getToken(…)` on every path",
    },
    {
      dir: 'valid/session-getter-result-checked',
      name: "the user of what `getOptionalSession(req)` returns, through a local a presigned token may replace, checked before the response (`if (!userId) return res.status(404)…`)",
    },
    {
      dir: 'valid/handler-hands-the-request-on',
      name: "handlers ending with a controller method handed the request (`(req, res) => projects.list(req, res)`, a last `await`, `.catch(next)`, through a second function): the session check leading the method leads them",
    },
    {
      dir: 'valid/route-handler-hands-the-request-on',
      name: 'Next.js route handlers returning what a handler in lib/ makes of the request (`return handleListProjects(request)`, a concise arrow): its session check leads them',
    },
  ],
  invalid: [
    { dir: 'invalid/no-guard', name: 'no middleware at all', errors: [{ line: 5, message: 'GET /api/projects has no auth guard' }] },
    {
      dir: 'invalid/login-page-sending-signed-in-users-away',
      name: "a login page, or a middleware, sending a signed-in user elsewhere and serving anyone else (hackathon-starter's `if (req.user) return res.redirect('/')`): no check that anyone is signed in — nor is one named for that (`checkNotAuthenticated`: \"authenticated\" after \"not\" names no auth guard; `rejectUnauthenticated`, named for refusing such requests, does)",
      errors: [
        { file: 'app.js', line: 5, message: 'GET /login has no auth guard' },
        { file: 'app.js', line: 21, message: 'GET /signup has no auth guard (unclassified middleware that may be one: ensureSignedOut; declare it in guards.auth or guards.ignore)' },
        { file: 'app.js', line: 33, message: 'GET /register has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-getter-matched-by-a-declared-pattern',
      name: 'the same getter when the config names it only by a regular expression (`/getme/`, which may match any getter): no guard',
      errors: [{ line: 8, message: 'GET /api/robots has no auth guard' }],
    },
    {
      dir: 'invalid/error-class-without-an-auth-status',
      name: "error classes whose fields give a 429 (`statusCode = 429`, a class imported) or a code that names no status (`code = 'CLIENT_OUTDATED'`, one of the file) make no auth guard of the middleware throwing them",
      errors: [
        { line: 6, message: 'GET /api/reports has no auth guard (unclassified middleware that may be one: quota; declare it in guards.auth or guards.ignore)' },
        { line: 10, message: 'GET /api/releases has no auth guard (unclassified middleware that may be one: clientVersion; declare it in guards.auth or guards.ignore)' },
      ],
    },
    {
      dir: 'invalid/in-handler-job-named-for-a-session-is-no-guard',
      name: "a leading call named for the work it does (`sendSessionDigest()`, `processWorkspaceUsageBatch()`, Dub's cron jobs) is no guard by the words in its name",
      errors: [{ file: 'app/api/cron/digest/route.ts', line: 3, message: 'POST /api/cron/digest has no auth guard' }],
    },
    {
      dir: 'invalid/next-wrapper-dispatching-on-the-method',
      name: "a wrapper around the exported handler that checks each method in a branch of its own (`if (req.method === 'GET') await verifyVercelCron(req); else if (req.method === 'POST') …`, Dub's withCron): a route takes its method's branch, the GET one guarded, the POST one not",
      errors: [
        {
          file: 'app/api/cron/ingest/route.ts',
          line: 4,
          message: 'POST /api/cron/ingest has no auth guard (unclassified middleware that may be one: withCron; declare it in guards.auth or guards.ignore)',
        },
      ],
    },
    {
      dir: 'invalid/middleware-refusing-through-a-rejection-handed-to-next',
      name: "a middleware ending the request through a rejection handed to next (`verify(req).then(() => next(), next)`, Ghost's SSO adapters) is a candidate, not dropped",
      errors: [
        {
          file: 'src/app.ts',
          line: 11,
          message: 'GET /api/reports has no auth guard (unclassified middleware that may be one: ssoGate; declare it in guards.auth or guards.ignore)',
        },
      ],
    },
    {
      dir: 'invalid/next-middleware-refusing-only-under-a-path',
      name: 'a Next.js middleware without a matcher refusing with a 401 Response only under some paths (`if (isAuthProtectedRoute(pathname) && !session) return new NextResponse(null, { status: 401 })`): the others go on untouched',
      errors: [
        {
          file: 'app/api/surveys/route.ts',
          line: 1,
          message:
            'GET /api/surveys has no auth guard (middleware is one, but lets through untouched every request outside paths starting with /environments or paths starting with /organizations: middleware.ts:10)',
        },
      ],
    },
    {
      dir: 'invalid/fastify-hook-skips-by-last-url-segment',
      name: "a hook skipping requests by the URL's last segment (`const parts = req.url.split('/'); if (parts[parts.length - 1] === 'cacerts') return`): a query string ends any URL so (Infisical's EST hook)",
      errors: [
        { file: 'routes/est.ts', line: 16, column: 3, message: 'GET /.well-known/est/:templateId/cacerts has no auth guard (the inline middleware is one, but lets through untouched every request whose URL ends with \"/cacerts\", which a query string can add to any URL: routes/est.ts:8)' },
        { file: 'routes/est.ts', line: 17, column: 3, message: 'POST /.well-known/est/:templateId/simpleenroll has no auth guard (the inline middleware is one, but lets through untouched every request whose URL ends with \"/cacerts\", which a query string can add to any URL: routes/est.ts:8)' },
      ],
    },
    {
      dir: 'invalid/koa-auth-factory-option-lets-the-error-go',
      name: "a factory's middleware whose catch lets its check's error go when the call's options say so (`catch (err) { if (options.optional && …) … else throw err }`, Outline's auth({ optional: true }))",
      errors: [{ line: 6, message: 'POST /api/shares.info has no auth guard' }],
    },
    {
      dir: 'invalid/koa-auth-factory-option-turns-off-401',
      name: "a factory's middleware whose 401 the call's options turn off (`auth({ optional: true })` of `if (!user && !options.optional) ctx.throw(401)`): its leading check guards nothing either",
      errors: [{ line: 8, message: 'GET /api/shares.info has no auth guard' }],
    },
    {
      dir: 'invalid/public-routes-entry-lists-only-its-path',
      name: 'a publicRoutes entry lists the routes it serves whole (`GET /docs/:slug` lists `/docs/:page`), not one that may serve its path among others (`/admin/:page` for `GET /admin/about`, a catch-all for `GET /robots.txt`)',
      errors: [
        { line: 14, message: 'GET /admin/:page has no auth guard' },
        { line: 17, message: 'GET / has no auth guard' },
        { line: 17, message: 'GET /*rest has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-401-for-a-missing-parameter',
      name: 'a 401 answering a request without a route or query parameter (also through a local converting it or destructured from the parameters, or given by a helper handed it whose every 401 tests its parameters) checks what is asked for, not who asks',
      errors: [
        { line: 7, message: 'GET /api/public/links/:id has no auth guard' },
        { line: 16, message: 'GET /api/avatars/:id has no auth guard' },
        { line: 24, message: 'GET /api/public/collections/:collectionId has no auth guard' },
        { line: 33, message: 'GET /api/public/links/:id/preview has no auth guard' },
      ],
    },
    {
      dir: 'invalid/auth-named-middleware-reading-no-request',
      name: 'a middleware named for auth (`checkOAuthSettings`) answering 403 on a setting of the server, its request never read: it cannot tell who calls; nor can one that only hands the request on (`(_req, _res, next) => next()`)',
      errors: [
        { line: 17, message: 'GET /.well-known/oauth-authorization-server has no auth guard' },
        { line: 24, message: 'POST /oauth/register has no auth guard' },
      ],
    },
    {
      dir: 'invalid/permission-check-handing-anonymous-requests-on',
      name: 'a permission check refusing a signed-in user without the permission but handing a request with no user on, and one handing every request on whatever its user holds: no auth guard',
      errors: [
        { file: 'src/app.ts', line: 28, column: 1, message: 'GET /api/v1/variables has no auth guard (unclassified middleware that may be one: checkPermission; declare it in guards.auth or guards.ignore)' },
        { file: 'src/app.ts', line: 32, column: 1, message: 'GET /api/v1/tools has no auth guard' },
      ],
    },
    {
      dir: 'invalid/status-word-in-a-value-name',
      name: 'a value named with a status word first (`unauthorizedRole`, `forbiddenWords`) gives no status: no inline 401 or 403 check',
      errors: [{ line: 7, message: 'GET /api/roles/preview has no auth guard' }],
    },
    {
      dir: 'invalid/handler-refuses-after-work',
      name: "an error status after work done for every caller, for some requests only, or with the server's values in its body, `c.json(body)` (200), and a 401 refusing what an action returned (`if (!purged)` of `await exportsStore.deleteAll(req.body)`) serve",
      errors: [
        { line: 9, message: 'GET /api/exports has no auth guard' },
        { line: 15, message: 'DELETE /api/exports/:id has no auth guard' },
        { line: 23, message: 'GET /api/status has no auth guard' },
        { line: 26, message: 'GET /api/debug has no auth guard' },
        { line: 29, message: 'GET /api/limits has no auth guard' },
        { line: 33, message: 'POST /api/exports/purge has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-check-answering-400',
      name: '`if (!validName(req, res)) return;` of a helper answering 400 itself: a check of the body, not of who sends it',
      errors: [{ line: 15, message: 'POST /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/middleware-hands-on-first',
      name: "a middleware whose 401 comes after `if (!passAnonymous(req, next)) return;`, a call handing a request without a caller on: optional authentication",
      errors: [{ line: 27, message: 'GET /api/reports has no auth guard' }],
    },
    {
      dir: 'invalid/guard-registered-after-route',
      name: 'router.use(guard) after a route does not guard it (Express runs layers in order)',
      errors: [{ line: 5, message: 'GET /api/projects/export has no auth guard' }],
    },
    {
      dir: 'invalid/session-middleware-is-not-auth',
      name: 'express-session and passport.session() establish a session; they check nothing',
      errors: [{ line: 10, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/unknown-middleware-is-a-candidate',
      name: 'unclassified middleware is named as a candidate',
      errors: [{ line: 6, message: 'GET /api/projects has no auth guard (unclassified middleware that may be one: loadAccount; declare it in guards.auth or guards.ignore)' }],
    },
    {
      dir: 'invalid/guard-on-another-prefix',
      name: "a guard at '/api/projects-admin' does not cover '/api/projects' (prefixes match whole segments)",
      errors: [{ line: 7, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/in-handler-local-not-a-session',
      name: 'a local holding a lookup that is not the signed-in user (`if (!project) return 404`), or a member record named user',
      errors: [
        { file: 'app/api/projects/[projectId]/members/[user]/route.ts', line: 4, message: 'GET /api/projects/:projectId/members/:user has no auth guard' },
        { file: 'app/api/projects/[projectId]/route.ts', line: 4, message: 'GET /api/projects/:projectId has no auth guard' },
      ],
    },
    {
      dir: 'invalid/data-access-call-is-not-a-guard',
      name: 'a leading call named like a guard but handed no request (countSessions(req.query.projectId)), also when what it is handed is held in a local first',
      errors: [
        { line: 6, message: 'GET /api/projects/activity has no auth guard' },
        { line: 12, message: 'GET /api/projects/sessions has no auth guard' },
      ],
    },
    {
      dir: 'invalid/sibling-mounted-before-the-guarded-router',
      name: "a router mounted before the guarded one, or outside its mount path, is not guarded by it",
      errors: [
        { line: 11, message: 'GET /api/status has no auth guard' },
        { line: 18, message: 'GET /health/details has no auth guard' },
      ],
    },
    {
      dir: 'invalid/request-method-is-not-a-guard',
      name: "req.session.regenerate() is a method of the request, not a guard",
      errors: [{ line: 5, message: 'POST /api/session/refresh has no auth guard' }],
    },
    {
      dir: 'invalid/service-getter-named-for-auth',
      name: 'a leading call handed nothing whose name reads data (this.authService.getAuthProviders()) is no guard',
      errors: [{ file: 'src/auth/auth.controller.ts', line: 9, column: 3, message: 'GET /api/auth/providers has no auth guard' }],
    },
    {
      dir: 'invalid/wrapper-returning-a-package-wrapper-checks-nothing',
      name: "the same wrapper checking nothing, 'unauthorized' only in the error text of what its `catch` answers for the handler: no guard, nor a candidate",
      errors: [{ file: 'app/api/projects/route.ts', line: 3, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/in-handler-user-sent-in-the-body',
      name: 'a user the form sends (`if (!req.body.user || !req.body.user.id) return res.status(400)…`) is no signed-in user',
      errors: [{ file: 'src/server.js', line: 8, message: 'POST /api/invites has no auth guard' }],
    },
    {
      dir: 'invalid/pages-handler-table-entry-without-the-flag',
      name: "a Pages Router handler made from a table of entries by method (`nextJsApiHandler({ url, GET: { auth: true, handle }, POST: { auth: false, handle } })`), checking the session for an entry that asks for it (`if (handler.auth) { … 401 }` of `const handler = api[req.method]`): a route per method, the one without the flag unguarded",
      errors: [{ file: 'pages/api/user/keys.ts', line: 17, message: 'POST /api/user/keys has no auth guard' }],
    },
    {
      dir: 'invalid/host-allowlist-is-no-candidate',
      name: "a Next.js middleware refusing with 400 a request sent to a host it does not serve (homepage's DNS-rebinding check, `allowedHosts.includes(req.headers.get('host'))`) is no candidate; one also comparing a key header with the deployment's is an inline secret check",
      errors: [
        { file: 'src/pages/api/docker.js', line: 1, message: 'ALL /api/docker has no auth guard' },
        { file: 'src/pages/api/services.js', line: 1, message: 'ALL /api/services has no auth guard' },
      ],
    },
    {
      dir: 'invalid/url-value-format-check-is-no-candidate',
      name: "a middleware refusing an id its URL names that is malformed (proshop's `checkObjectId`, 404 on `!isValidObjectId(req.params.id)`), awaiting nothing and reading no session, is no candidate; one looking the resource up for the caller (`findOne({ _id, owner: req.user?._id })`) still is",
      errors: [
        { file: 'backend/routes/productRoutes.js', line: 8, message: 'GET /api/products/:id has no auth guard' },
        {
          file: 'backend/routes/productRoutes.js',
          line: 13,
          message: 'GET /api/products/:id/stats has no auth guard (unclassified middleware that may be one: loadOwnedProduct; declare it in guards.auth or guards.ignore)',
        },
      ],
    },
    {
      dir: 'invalid/cors-preflight-middleware-is-no-candidate',
      name: "a CORS middleware answering only preflights (`req.method === 'OPTIONS' && …`, a conjunct) and handing its response to a function that only sets headers is no candidate (cryptpad's); one handing it to a function refusing other origins still is",
      errors: [
        { file: 'lib/server.js', line: 22, message: 'GET /api/config has no auth guard' },
        {
          file: 'lib/server.js',
          line: 36,
          message: 'GET /api/pads/:padId has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)',
        },
      ],
    },
    {
      dir: 'invalid/url-redirect-and-bot-detector-are-no-candidates',
      name: "middleware that checks no one: spider-detector's (it marks bots and hands every request on), a redirect of `//path` to `/path` reading only the request's URL (NodeBB's `stripLeadingSlashes`), one of old browsers to a page saying so, reading the URL and the user agent (overleaf's `unsupportedBrowserMiddleware`), and one of `/docs/` to `/docs` that gives the views the canonical URL in `res.locals` (wiki.js's `seo`): no candidates; one reading the user in `res.locals` to redirect is a signed-in check",
      errors: [
        { file: 'src/server.js', line: 11, message: 'GET /api/topics/:tid has no auth guard' },
        {
          file: 'src/server.js',
          line: 15,
          message:
            'GET /account/settings has no auth guard (accountPagesOnly is one, but lets through untouched every request outside paths starting with /account, in the case written (the route is matched in any case): src/server.js:15)',
        },
      ],
    },
    {
      dir: 'invalid/wrapper-catch-answers-for-the-handler',
      name: "a route wrapper whose `catch` answers 401 for an error the handler threw (inbox-zero's `withError`: a provider's grant expired), handed no middleware: no guard",
      errors: [
        { file: 'app/api/unsubscribe/route.ts', line: 4, message: 'GET /api/unsubscribe has no auth guard' },
        { file: 'app/api/user/settings/route.ts', line: 6, message: 'GET /api/user/settings has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-middleware-made-and-dropped',
      name: "a package's middleware made in a handler and dropped (`requiresAuth();`, amplication's after-callback; `passport.authenticate('jwt', …);`): no request is handed to it, no guard",
      errors: [
        { line: 9, message: 'GET /auth/after-callback has no auth guard' },
        { line: 15, message: 'GET /api/profile has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-one-way-unchecked',
      name: 'a handler answering one of two ways, one of them checking no caller (an `if` and a conditional expression): no guard',
      errors: [
        { file: 'app/api/catalog/route.ts', line: 5, message: 'GET /api/catalog has no auth guard' },
        { file: 'app/api/plans/route.ts', line: 4, message: 'GET /api/plans has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-branch-not-a-signed-in-check',
      name: 'a signed-in check whose branch returns through a helper that only logs, one with no else branch, and an else branch refusing on a query flag: none a guard',
      errors: [
        { file: 'src/app.ts', line: 8, message: 'GET /api/history has no auth guard' },
        { file: 'src/app.ts', line: 9, message: 'GET /api/history/recent has no auth guard' },
        { file: 'src/app.ts', line: 10, message: 'GET /api/history/preview has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-check-after-a-branch-that-serves',
      name: 'a branch answering with the document before the session check (`if (doc.visibility === \'public\') return res.json(doc)`, the same in a Next.js route): the check leads only the other requests',
      errors: [
        { file: 'app/api/shares/[shareId]/route.ts', line: 4, message: 'GET /api/shares/:shareId has no auth guard' },
        { file: 'src/app.ts', line: 10, message: 'GET /api/docs/:id has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-check-in-a-try-that-swallows-its-throw',
      name: 'optional sign-in: a session check, or a token check throwing 401, in a try whose catch only logs, the feed answered after it: the throw is caught, so nothing is checked',
      errors: [
        { file: 'src/app.ts', line: 11, message: 'GET /api/feed has no auth guard' },
        { file: 'src/app.ts', line: 22, message: 'GET /api/feed/tokens has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-key-check-that-throws-nothing',
      name: "an API-key check leading the handler in a refusing try, whose own try … catch takes all it could throw (rybbit's `validateApiKey`, answering `{ error: null }` without a key): no refusal comes of it; a check that throws stays a guard",
      errors: [{ file: 'src/server.ts', line: 14, message: 'POST /api/track has no auth guard' }],
    },
    {
      dir: 'invalid/nest-mixin-guard-letting-anonymous-through',
      name: "a guard a factory makes with @nestjs/common's mixin() (`@UseGuards(OAuthCallbackGuard('google'))`, ghostfolio) is the class it returns: one whose handleRequest never throws guards nothing, whatever its name; one extending AuthGuard(strategy) as it is, or throwing, authenticates",
      errors: [{ file: 'src/auth/auth.controller.ts', line: 9, column: 3, message: 'GET /api/auth/google/callback has no auth guard' }],
    },
    {
      dir: 'invalid/author-lookup-named-for-auth',
      name: "a middleware or a leading lookup named for an author (`loadAuthor`, `authorService.findAuthor`) is no auth guard by its name: the word spells `auth` but names a person; `authorizeEditor` still is",
      errors: [
        { file: 'src/server.ts', line: 9, message: 'GET /api/authors/:authorId has no auth guard (unclassified middleware that may be one: loadAuthor; declare it in guards.auth or guards.ignore)' },
        { file: 'src/server.ts', line: 13, message: 'GET /api/authors/:authorId/bio has no auth guard' },
      ],
    },
    {
      dir: 'invalid/session-getter-handed-the-request',
      name: 'a session getter handed the request (`getSession(req)`, `getOptionalSession(req)`, `userFromSession(req, res)` in a `try`) whose result is never checked: named for what it reads, it checks nothing',
      errors: [
        { file: 'src/app.ts', line: 9, message: 'GET /api/feed has no auth guard' },
        { file: 'src/app.ts', line: 14, message: 'GET /api/feed/summary has no auth guard' },
        { file: 'src/app.ts', line: 19, message: 'GET /api/feed/recommendations has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-helper-answers-and-handler-goes-on',
      name: 'a helper that answers 401 and returns null, never throwing, called by a handler that goes on whatever it returned (Express, a Pages Router handler): the project is deleted or archived all the same',
      errors: [
        { file: 'pages/api/projects/[id].ts', line: 13, message: 'ALL /api/projects/:id has no auth guard' },
        { file: 'src/app.ts', line: 8, message: 'DELETE /api/projects/:id has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-async-check-not-awaited',
      name: 'an async session check throwing 401, called without await (`requireSession(req);`): its rejection stops nothing; awaited on the PUT route, it guards',
      errors: [{ file: 'src/app.ts', line: 10, message: 'POST /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/arrow-applying-arguments-hands-nothing',
      name: "`requireSession.apply(this, arguments)` in an arrow function hands on the module's arguments, not the request: no guard",
      errors: [{ file: 'app.js', line: 15, message: 'GET /api/team/members has no auth guard' }],
    },
    {
      dir: 'invalid/handler-hands-on-no-check-leading',
      name: 'a handler handing the request to a method whose 401 is only in its POST branch: nothing leads the method, so nothing leads the handler',
      errors: [{ file: 'src/app.ts', line: 10, message: 'ALL /api/settings has no auth guard' }],
    },
    {
      dir: 'invalid/response-writer-named-for-auth',
      name: 'a leading call named for auth handed only the response, to a function that only writes a response to it (authCookieHandler(res, tokens), setAuthCookies(res, session)), is no guard',
      errors: [
        { file: 'src/auth/auth.controller.ts', line: 11, column: 3, message: 'POST /api/auth/verify has no auth guard' },
        { file: 'src/invites.ts', line: 8, message: 'GET /api/invites/:code/accept has no auth guard' },
      ],
    },
    {
      dir: 'invalid/koa-middleware-after-next-is-no-candidate',
      name: 'Koa middleware whose first statement is `await next()` (an error mapper, one named for OAuth answering 401, a response envelope) runs after the route, and koa-sslify / koa-useragent check nothing: no candidate',
      errors: [{ line: 43, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/koa-middleware-that-answers-is-a-candidate',
      name: 'a Koa middleware with a neutral name that can end the request (ctx.status = 402; ctx.body = …) is named as a candidate',
      errors: [{ line: 18, message: 'GET /api/projects has no auth guard (unclassified middleware that may be one: planLimits; declare it in guards.auth or guards.ignore)' }],
    },
    {
      dir: 'invalid/login-named-middleware-is-a-candidate',
      name: "a middleware named for logging in (TarsWeb's `loginMidware`) is no logging middleware: it is named as a candidate, `logRequests` is not",
      errors: [{ file: 'app.js', line: 8, message: 'GET /api/servers has no auth guard (unclassified middleware that may be one: loginMidware; declare it in guards.auth or guards.ignore)' }],
    },
    {
      dir: 'invalid/response-named-by-suffix-is-a-candidate',
      name: 'a middleware answering through a response named httpResponse is named as a candidate',
      errors: [{ line: 14, message: 'GET /api/projects has no auth guard (unclassified middleware that may be one: planLimits; declare it in guards.auth or guards.ignore)' }],
    },
    {
      dir: 'invalid/koa-anonymous-branch-hands-on',
      name: 'a Koa branch for anonymous visitors that sets a body and calls next() is no sign-in check',
      errors: [{ line: 9, message: 'GET /api/feed has no auth guard' }],
    },
    {
      dir: 'invalid/commonjs-chained-exports',
      name: '`var app = module.exports = express()` and `var router = module.exports = express.Router()`: an assignment is worth what it assigns',
      errors: [{ file: 'routes/projects.js', line: 6, message: 'GET /api/projects/ has no auth guard' }],
    },
    {
      dir: 'invalid/optional-auth-passes-anonymous',
      name: 'optional authentication: `if (isNil(authorization)) return next()` lets a request without credentials through',
      errors: [{ line: 18, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/guard-on-a-literal-segment-does-not-cover-a-parameter',
      name: "app.use('/api/docs/drafts', guard) runs for GET /api/docs/:collection only when the collection is `drafts`: it does not guard the route",
      errors: [{ file: 'routes/docs.ts', line: 15, message: 'GET /api/docs/:collection has no auth guard' }],
    },
    {
      dir: 'invalid/error-handler-is-not-a-guard',
      name: "an error handler (four parameters) that answers 401 for express-jwt's errors runs only after a failure: it guards nothing, and one mounted at a path is no route",
      errors: [{ file: 'routes/invoices.ts', line: 6, message: 'GET /api/invoices/ has no auth guard' }],
    },
    {
      dir: 'invalid/express-jwt-unless',
      name: "expressjwt(…).unless({ path }) guards every route but the paths (and methods) it names",
      errors: [
        { file: 'routes/status.ts', line: 5, message: 'POST /api/auth/token has no auth guard (expressjwt.unless is one, but lets through untouched the path /api/auth/token: app.ts:10)' },
        { file: 'routes/status.ts', line: 9, message: 'GET /api/status has no auth guard (expressjwt.unless is one, but lets through untouched GET /api/status: app.ts:10)' },
      ],
    },
    {
      dir: 'invalid/express-jwt-credentials-not-required',
      name: 'expressjwt({ credentialsRequired: false }) lets a request without a token through: optional authentication, no guard',
      errors: [{ file: 'routes/profiles.ts', line: 7, message: 'GET /api/profiles/:username has no auth guard' }],
    },
    {
      dir: 'invalid/express-jwt-unless-method-and-ext',
      name: '.unless({ method, ext }) lets through an ALL route for the method, and every route whose path can end in the extension',
      errors: [
        { file: 'routes/projects.ts', line: 12, message: 'GET /api/projects/:projectId has no auth guard (expressjwt.unless is one, but lets through untouched paths ending in .png: app.ts:10)' },
        { file: 'routes/projects.ts', line: 18, message: 'GET /api/projects/:projectId/logo.svg has no auth guard (expressjwt.unless is one, but lets through untouched paths ending in .svg: app.ts:10)' },
        { file: 'routes/projects.ts', line: 24, message: 'ALL /api/projects/:projectId/events has no auth guard (expressjwt.unless is one, but lets through untouched every OPTIONS request: app.ts:10)' },
      ],
    },
    {
      dir: 'invalid/allowlist-in-an-express-guard',
      name: "app.use(guard) whose body first lets POST /api/login through does not guard that route (and only that method)",
      errors: [{ line: 8, message: 'POST /api/login has no auth guard (requireSession is one, but lets through untouched POST /api/login: app.ts:6)' }],
    },
    {
      dir: 'invalid/allowlist-in-a-nest-guard',
      name: "a global Nest guard whose canActivate first returns true for the request it declares (`const request = context.switchToHttp().getRequest()`) under /api/v2 does not guard the routes there (HedgeDoc's public API)",
      errors: [{ file: 'src/public-api/public-notes.controller.ts', line: 8, column: 3, message: 'POST /api/v2/notes has no auth guard (SessionGuard is one, but lets through untouched paths starting with /api/v2: src/app.module.ts:14)' }],
    },
    {
      dir: 'invalid/allowlist-lists-in-an-express-guard',
      name: 'a guard whose allowlists read lists (imported, a Set, prefixes by .some(startsWith)), a regular expression and the method guards none of the routes they let through, and says so',
      errors: [
        { line: 9, message: 'POST /api/login has no auth guard (requireSession is one, but lets through untouched the path /api/login: app.ts:7)' },
        { line: 13, message: 'POST /api/signup has no auth guard (requireSession is one, but lets through untouched the path /api/signup: app.ts:7)' },
        { line: 17, message: 'GET /api/invitations/:token has no auth guard (requireSession is one, but lets through untouched paths starting with /api/invitations/: app.ts:7)' },
        { line: 22, message: 'GET /api/statuses has no auth guard (requireSession is one, but lets through untouched paths starting with /api/status: app.ts:7)' },
        { line: 26, message: 'GET /api/docs/openapi.json has no auth guard (requireSession is one, but lets through untouched paths starting with /api/docs/: app.ts:7)' },
        { line: 30, message: 'GET /api/exports/latest.csv has no auth guard (requireSession is one, but lets through untouched the path /api/exports/latest.csv: app.ts:7)' },
        { file: 'routes/projects.ts', line: 10, message: 'ALL /api/projects/:projectId/events has no auth guard (requireSession is one, but lets through untouched every OPTIONS request: app.ts:7)' },
      ],
    },
    {
      dir: 'invalid/allowlist-bypassed-by-the-query-string',
      name: "a Fastify hook letting through every URL that includes a public path guards nothing: request.url holds the query string, which any request can end with '/api/health'",
      errors: [
        { file: 'src/routes/health.ts', line: 4, column: 3, message: 'GET /api/health has no auth guard (authenticate is one, but lets through untouched every request whose URL holds "/api/health", which a query string can add to any URL: src/server.ts:9)' },
        { file: 'src/routes/sites.ts', line: 5, column: 3, message: 'GET /api/sites has no auth guard (authenticate is one, but lets through untouched every request whose URL holds "/api/health", which a query string can add to any URL: src/server.ts:9)' },
        { file: 'src/routes/sites.ts', line: 9, column: 3, message: 'DELETE /api/sites/:siteId has no auth guard (authenticate is one, but lets through untouched every request whose URL holds "/api/health", which a query string can add to any URL: src/server.ts:9)' },
      ],
    },
    {
      dir: 'invalid/allowlist-not-known-statically',
      name: 'a Koa guard whose allowlist is read from the environment is only a candidate, and the finding says why declaring it would not do',
      errors: [{ file: 'src/app.ts', line: 9, message: 'GET /api/projects has no auth guard (requireSession may be one, but which requests it lets through untouched is not known statically: src/app.ts:15)' }],
    },
    {
      dir: 'invalid/koa-optional-auth-route-middleware',
      name: "a Koa route's optional authentication (`if (!header) return next()` first) is no handler stage: the 401 after it refuses only a wrong token",
      errors: [{ line: 22, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/pass-through-route-elsewhere',
      name: 'a pass-through route guards only later routes whose whole path it matches, with its method; a handler that calls next(err) is still a route',
      errors: [
        { line: 12, message: 'GET /api/admin/users has no auth guard' },
        { line: 16, message: 'POST /api/reports has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-401-checks-no-caller',
      name: "a 401 refusing a password compared with its hash (a protected link's form; a sign-in, `!user || !(await compare(…))` of the app's wrapper of bcryptjs, or a lookup handed the sign-in form, `findUserByLogin(loginUserDto)`) or a signature checked (a webhook): no caller's identity is checked",
      errors: [
        { line: 12, message: 'POST /api/links/:id/protected has no auth guard' },
        { line: 29, message: 'POST /api/intake-emails/ingest has no auth guard' },
        { line: 37, message: 'POST /api/authentication/signin has no auth guard' },
        { line: 48, message: 'POST /api/users/login has no auth guard' },
      ],
    },
    {
      dir: 'invalid/candidate-middleware-lets-the-route-through',
      name: 'an unclassified middleware whose allowlist (`const { path } = req` of `const { req } = c`, tested by `^(\\/api\\/|\\/assets\\/|…)`) lets the route through is no candidate for it',
      errors: [
        { file: 'server.ts', line: 8, message: 'GET /api/documents has no auth guard' },
        { file: 'server.ts', line: 10, message: 'GET /documents has no auth guard (unclassified middleware that may be one: appMiddleware; declare it in guards.auth or guards.ignore)' },
      ],
    },
    {
      dir: 'invalid/in-code-getter-not-always-a-session',
      name: "the same check of an in-code getter that returns next-auth's token on one path and a decoded partner key on another: no signed-in check",
      errors: [{ file: 'pages/api/v1/billing/checkout.ts', line: 10, column: 3, message: 'GET /api/v1/billing/checkout has no auth guard' }],
    },
    {
      dir: 'invalid/in-handler-event-callback-is-no-guard',
      name: "an event's callback named for authorization (onAuthorize: signs the user in once a link's token is checked) is no guard by its name",
      errors: [{ file: 'server.ts', line: 10, message: 'POST /api/auth/magic-link/authorize has no auth guard' }],
    },
    {
      dir: 'invalid/hono-openapi-description-is-no-candidate',
      name: "hono-openapi's describeRoute and validator describe and validate: no candidate for an auth guard",
      errors: [{ line: 10, message: 'POST /api/polls has no auth guard' }],
    },
    {
      dir: 'invalid/hono-otel-instrumentation-is-no-candidate',
      name: "@hono/otel's otel() and httpInstrumentationMiddleware() record spans: no candidate for an auth guard, whatever their local name",
      errors: [{ line: 10, message: 'GET /api/traces/:traceId has no auth guard' }],
    },
    {
      dir: 'invalid/context-loader-named-for-auth',
      name: "a middleware named for auth that only loads the request's context and always hands it on (`nextAuth`: `c.set('ctx', await createContextFromRequest(c)); await next()`) refuses nothing; one calling `getSessionOrThrow` stays a guard by its name",
      errors: [
        { line: 30, message: 'GET /api/health has no auth guard' },
        { line: 31, message: 'GET /api/version has no auth guard' },
      ],
    },
    {
      dir: 'invalid/loader-testing-caught-errors',
      name: 'a middleware putting a token\'s account on the request, every request going on, that tests what it caught (`error instanceof UnauthorizedError`) gives no status: no candidate',
      errors: [{ file: 'app.ts', line: 22, message: 'GET /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/audit-listener-named-for-auth',
      name: "a middleware named for auth that only registers a listener for the response's end and hands every request on (`res.on('finish', …); next()`) refuses nothing",
      errors: [
        { file: 'app.ts', line: 7, message: 'POST /api/account/signin has no auth guard' },
        { file: 'app.ts', line: 11, message: 'POST /api/account/logout has no auth guard' },
      ],
    },
    {
      dir: 'invalid/audit-handing-on-in-finally-named-for-auth',
      name: "a middleware named for API keys or auth whose body, called at once (`void (async () => { try { … } finally { next() } })()`, nango's audit trail), hands every request on in a `finally` refuses nothing; one answering in its `try` stays a guard",
      errors: [
        { file: 'app.ts', line: 7, message: 'POST /api/keys has no auth guard' },
        { file: 'app.ts', line: 11, message: 'PUT /api/password has no auth guard' },
      ],
    },
    {
      dir: 'invalid/helpers-put-on-the-response',
      name: "a middleware putting answering helpers on the response and handing every request on (`res.fail = (message) => res.status(400).json(…)`; `next()`) answers nothing itself: no candidate",
      errors: [
        { file: 'app.ts', line: 8, message: 'GET /api/projects has no auth guard' },
        { file: 'app.ts', line: 12, message: 'POST /api/projects has no auth guard' },
      ],
    },
    {
      dir: 'invalid/work-in-a-branch-before-the-check',
      name: "a handler whose branch writes (a sign-in link saved for whoever asks, hackathon-starter's `loginByEmailLink`) before it calls `passport.authenticate(…)(req, res, next)` is not guarded by that call; one whose branch only sends the request back is",
      errors: [{ file: 'app.ts', line: 9, message: 'POST /api/login has no auth guard' }],
    },
    {
      dir: 'invalid/credential-checked-only-when-sent',
      name: "a middleware checking a token only when one is sent (`if (header) { try { verify } catch { 401 } } next()`), or a key only when a file id is asked for (midday's invoice download), hands the others on unchecked: optional authentication; one refusing a request without the token stays a guard, and so does one whose test is an allowlist's verdict (`const needsAuth = !PUBLIC.has(req.path)`)",
      errors: [
        { file: 'app.ts', line: 7, message: 'GET /api/feed has no auth guard' },
        { file: 'app.ts', line: 12, message: 'GET /api/files/download has no auth guard' },
      ],
    },
    {
      dir: 'invalid/optional-auth-through-a-helper-given-the-token',
      name: "a middleware named for authentication handing on whatever a helper given the request's token returns, the helper checking only a token that is sent (Directus's `authenticate`: `try { req.accountability = await getAccountabilityForToken(req.token, …) } catch (err) { …; throw err } return next()`, of `if (token) { … }`; `if (!sid) return null`; a helper handed the request testing the header it carries): optional authentication; helpers refusing a request without the token (a throw, `jwt.verify` of whatever is sent) keep their guards",
      errors: [
        { file: 'app.ts', line: 23, message: 'GET /api/items/:collection has no auth guard' },
        { file: 'app.ts', line: 27, message: 'GET /api/me has no auth guard' },
        { file: 'app.ts', line: 39, message: 'GET /api/feed has no auth guard' },
      ],
    },
    {
      dir: 'invalid/optional-auth-through-a-helper-in-koa-hono-fastify',
      name: "the same in Koa (`ctx.state.caller = await getCaller(ctx.headers.authorization); await next()`), Hono (`c.req.header('authorization')`, a getter of the request) and a Fastify async `onRequest` hook, which hands on by returning (`if (!request.headers.authorization) return;` first: a request without one goes on); the helper tests the token as written (`if (!header?.startsWith('Bearer ')) return null`): optional authentication, and one throwing instead stays a guard",
      errors: [
        { file: 'fastify.ts', line: 17, column: 5, message: 'GET /fastify/feed has no auth guard' },
        { file: 'fastify.ts', line: 39, column: 5, message: 'GET /fastify/search has no auth guard' },
        { file: 'hono.ts', line: 17, message: 'GET /hono/feed has no auth guard' },
        { file: 'koa.ts', line: 16, message: 'GET /koa/feed has no auth guard' },
      ],
    },
    {
      dir: 'invalid/auth-factory-option-read-before-the-refusal',
      name: "middleware factories whose option turns the 401 off: `auth(false)` of `(required = true) => …` (the default read for `auth()`, which refuses), `authenticate({ optional: true })` of `({ optional = false } = {})` and `sessionGate({ allowAnonymous: true })`, whose `if (optional) return next()` comes before the 401 (reached only when the option is off)",
      errors: [
        { file: 'app.ts', line: 7, message: 'GET /api/posts has no auth guard' },
        { file: 'app.ts', line: 10, message: 'GET /api/search has no auth guard' },
        { file: 'app.ts', line: 13, message: 'GET /api/pricing has no auth guard' },
      ],
    },
    {
      dir: 'invalid/nest-guard-loading-the-caller-through-a-service',
      name: "a Nest guard whose canActivate returns true after loading the caller through an injected service (`req.user = await this.users.maybeFromToken(req.headers.authorization); return true`): optional authentication when the service refuses nothing, a guard when it throws UnauthorizedException",
      errors: [{ file: 'src/projects.controller.ts', line: 30, column: 3, message: 'GET /projects/public has no auth guard' }],
    },
    {
      dir: 'invalid/header-rewriter-named-for-bearer',
      name: "a middleware named for a bearer token that only rewrites the Authorization header and hands every request on (Unleash's `bearerTokenMiddleware`: `if (authHeader) { req.headers.authorization = authHeader.replace(…) }; next()`) refuses nothing; one refusing a request without the header stays a guard",
      errors: [{ file: 'app.ts', line: 7, message: 'DELETE /api/admin/projects/:id has no auth guard' }],
    },
    {
      dir: 'invalid/token-cache-named-for-auth',
      name: "a middleware named for auth that caches the user of a valid token and hands every request on (OWASP Juice Shop's `updateAuthenticatedUsers`: `utils.jwtFrom(req)`, `jwt.verify(token, key, callback)`) refuses nothing; one whose helper throws without a token stays a guard",
      errors: [{ file: 'server.ts', line: 8, message: 'GET /rest/products/search has no auth guard' }],
    },
    {
      dir: 'invalid/optional-auth-handing-on-after-a-try',
      name: "a middleware named for auth whose `if (!decoded) return next()` comes after the `try` verifying the token (logchimp's `authOptional`) hands every request on: no guard; one answering 401 there stays a guard",
      errors: [{ file: 'app.ts', line: 7, message: 'GET /api/v1/boards/:url has no auth guard' }],
    },
    {
      dir: 'invalid/helper-throwing-401-before-handing-on',
      name: "a middleware calling a helper handed the request that throws a 401 (plunk's `isValidKey`, `{ key: parseBearer(req) }`; `isAuthenticated`, whose `parseJwt` throws `new NotAuthenticated()`) before handing every request on refuses the request: a guard; one whose helper never throws is none, whatever its name",
      errors: [{ file: 'app.ts', line: 16, message: 'GET /users/@me has no auth guard' }],
    },
    {
      dir: 'invalid/session-lookup-caught-named-for-auth',
      name: "a middleware named for auth whose session lookup's failure is caught as no user, every request handed on (Budibase's `buildAuthMiddleware`), refuses nothing; one refusing the failure stays a guard",
      errors: [{ file: 'src/app.ts', line: 8, message: 'POST /api/attachments/:datasourceId/url has no auth guard' }],
    },
    {
      dir: 'invalid/https-redirect-is-no-candidate',
      name: "a middleware whose only answer is a redirect to the same place over https:// (code-server's TLS upgrade, express-enforces-ssl) is no candidate for the auth guard; one redirecting elsewhere stays one",
      errors: [
        { file: 'app.ts', line: 24, message: 'GET /api/projects has no auth guard' },
        { file: 'app.ts', line: 34, message: 'GET /api/usage has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)' },
      ],
    },
    {
      dir: 'invalid/maintenance-mode-is-no-candidate',
      name: 'a maintenance-mode middleware (refusing writes with 503 while it is on) is no candidate for the auth guard',
      errors: [{ file: 'app.ts', line: 17, message: 'POST /api/projects has no auth guard' }],
    },
    {
      dir: 'invalid/rate-limit-and-maintenance-are-no-candidates',
      name: "middleware written in place that ends the request only with 429 (a rate limit) or 503 (maintenance), rallly's, is no candidate for the auth guard; one refusing with 409 stays one",
      errors: [
        { file: 'src/app.ts', line: 25, message: 'GET /api/events/:eventId/calendar has no auth guard' },
        { file: 'src/app.ts', line: 37, message: 'POST /api/events/:eventId/rsvp has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)' },
      ],
    },
    {
      dir: 'invalid/unreadable-request-refusal-is-no-candidate',
      name: "middleware written in place that ends the request only with 400 or 415 for a body it cannot read (sharetribe's Transit decoder) is no candidate for the auth guard; one answering 400 for a missing token, or for a header that is not the setting of the deployment, stays one",
      errors: [
        { file: 'app.ts', line: 28, message: 'GET /api/projects has no auth guard' },
        { file: 'app.ts', line: 38, message: 'GET /api/invites has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)' },
        { file: 'app.ts', line: 48, message: 'GET /api/regions has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)' },
      ],
    },
    {
      dir: 'invalid/cache-middleware-is-no-candidate',
      name: "a response cache's middleware (apicache's `cache('5 minutes')`, uptime-kuma's badge routes) is no candidate for the auth guard",
      errors: [
        { file: 'app.js', line: 9, message: 'GET /api/badge/:id/status has no auth guard' },
        { file: 'app.js', line: 13, message: 'GET /api/status-page/:slug has no auth guard' },
      ],
    },
    {
      dir: 'invalid/upload-parser-and-robots-are-no-candidates',
      name: "a multipart parser's middleware (connect-busboy) and express-robots-txt's (it answers /robots.txt only) are no candidates for the auth guard",
      errors: [{ file: 'app.js', line: 11, message: 'POST /v1/files/upload/chunk has no auth guard' }],
    },
    {
      dir: 'invalid/metrics-and-flash-middleware-are-no-candidates',
      name: "a middleware named for Prometheus metrics (`prometheusApiVersion(…)`, tRPC's `prom`) and express-flash's are no candidates for the auth guard",
      errors: [{ file: 'app.js', line: 14, message: 'GET /account/notices has no auth guard' }],
    },
    {
      dir: 'invalid/in-handler-key-or-token-made-is-no-guard',
      name: "a key or token the handler makes for the account (maxun's `const apiKey = genAPIKey()`, handed nothing; Overseerr's `settings.regenerateApiKey()`) is no guard by its name",
      errors: [
        { file: 'server.js', line: 9, message: 'POST /api/accounts/:id/api-key has no auth guard' },
        { file: 'server.js', line: 15, message: 'POST /api/accounts/:id/service-key has no auth guard' },
        { file: 'server.js', line: 20, message: 'POST /api/accounts/:id/api-key/rotate has no auth guard' },
        { file: 'server.js', line: 25, message: 'POST /api/accounts/:id/token has no auth guard' },
        { file: 'server.js', line: 31, message: 'POST /api/settings/main/regenerate has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-401-of-a-nested-test-in-a-refusing-branch',
      name: "a 401 only a test nested in a branch answers, the branch ending the request with another status (Palmr's `if (!file) { if (shared) { …401… } return 404 }`), checks no one; under a test for a signed-in user it still does",
      errors: [{ file: 'server.ts', line: 8, message: 'GET /api/files/download has no auth guard' }],
    },
    {
      dir: 'invalid/in-handler-check-after-a-write',
      name: "a signed-in check after a call named for a write (`await db.items.deleteItem(id)`, `const item = await db.items.updateItem(…)`) leads nothing: the work is done before it; one after a read still leads",
      errors: [
        { file: 'server.ts', line: 9, message: 'POST /api/items/:id/delete has no auth guard' },
        { file: 'server.ts', line: 18, message: 'POST /api/items/:id/rename has no auth guard' },
      ],
    },
    {
      dir: 'invalid/in-handler-action-named-for-auth-is-no-guard',
      name: 'a call named for what it does (`setOAuthFlowCookie`, `createAuthorizationUrl`, a sign-in flow carried out: `handleSsoAuthentication`, `registerWithSsoAuthentication`, `finalizeManagedAuthentication` of nango, a request forwarded to the service answering it: `callAuthServer` of the standardnotes gateway) or for the URL it makes (`authUrl`) is no guard by its name; one whose definition answers 401 (`invalidateSessions`) still is',
      errors: [
        { file: 'server.ts', line: 16, message: 'GET /api/signing/oauth/authorize has no auth guard' },
        { file: 'server.ts', line: 26, message: 'POST /api/sso/:connectorId/authorization-uri has no auth guard' },
        { file: 'server.ts', line: 32, message: 'GET /connect/:kind has no auth guard' },
        { file: 'server.ts', line: 39, message: 'POST /api/sso/:connectorId/authentication has no auth guard' },
        { file: 'server.ts', line: 44, message: 'POST /api/sso/:connectorId/registration has no auth guard' },
        { file: 'server.ts', line: 50, message: 'GET /api/account/managed/callback has no auth guard' },
        { file: 'server.ts', line: 59, message: 'POST /v1/login has no auth guard' },
      ],
    },
  ],
});
