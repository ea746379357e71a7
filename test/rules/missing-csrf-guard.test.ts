import { ruleTester } from '../helpers/rule-tester.js';

const noCsrf = (route: string) => `${route} changes state on the browser session without a CSRF guard`;

ruleTester('missing-csrf-guard', {
  valid: [
    { dir: '../missing-auth-guard/valid/deployment-secret-checked', name: "mutations behind the deployment's API key, sent in a header: no browser sends it by itself (missing-auth-guard's case)" },
    { dir: 'valid/csurf-route-level', name: 'csurf() route-level' },
    {
      dir: 'valid/token-from-the-path-or-header-then-session-named-written',
      name: "mutations behind a token the path (`/api/:session/…`, `name:token`) or the Authorization header carries (wppconnect's verifyToken), which writes the session's name on the request and reads it back: no session the request carries",
    },
    { dir: 'valid/csurf-fork-handed-the-request', name: "a global middleware handing its request to @dr.pogodin/csurf, csurf's maintained fork (saltcorn's)" },
    {
      dir: 'valid/next-wrapper-reading-a-header-key',
      name: "a wrapper refusing with 401 unless the Authorization header names a key, then handing the request to the handler it wraps (Dub's withPublishableKey): a bearer credential",
    },
    {
      dir: 'valid/next-handler-refusing-without-an-api-key',
      name: "a handler refusing with 401 unless a function named for an API key gives something (`authenticateApiKeyFromHeaders(request.headers)`, Formbricks): a bearer credential",
    },
    {
      dir: 'valid/next-handler-verifying-a-signature-header',
      name: "a handler refusing with 401 unless a helper handed `{ req, rawBody }` verifies the request's `Upstash-Signature` header (Dub's QStash callbacks): a credential the browser never sends by itself",
    },
    {
      dir: 'valid/next-handler-token-header-sets-cookie',
      name: "a handler refusing with 401 unless a header of the page's own holds a token, then writing the new session cookie (unkey's session refresh): a cookie written is no credential read",
    },
    {
      dir: 'valid/admin-key-from-destructured-headers',
      name: "an admin key compared with the Authorization header taken apart from the headers (`const { authorization } = headers`, langfuse's admin API): a credential the browser never sends by itself",
    },
    {
      dir: 'valid/token-context-answered',
      name: "a handler verifying a bearer token and answering with what the token gives (`const context = await authenticateToken(token)`, openpanel's MCP endpoint): a local named `context` is no request handed on",
    },
    { dir: 'valid/package-value-imported-elsewhere', name: '`export const protectForms = csurf(…)` keeps its package classification where imported' },
    { dir: 'valid/csrf-csrf-double-submit', name: 'doubleCsrfProtection destructured from csrf-csrf, used globally' },
    { dir: 'valid/lusca-global', name: 'lusca.csrf() before the route' },
    {
      dir: 'valid/csrf-middleware-handed-the-request',
      name: "a global middleware handing its request to lusca.csrf() (`lusca.csrf()(req, res, next)`) but for an upload path, whose route chains `lusca({ csrf: true })` after multer",
    },
    { dir: 'valid/bearer-only', name: 'a route authenticated only by a bearer token needs none' },
    {
      dir: 'valid/trpc-context-from-a-bearer-header',
      name: "tRPC procedures whose middleware checks the session of a context made from the Authorization header only (midday's `createTRPCContext` given to @hono/trpc-server, a helper handed the request reading no credential; one given to createExpressMiddleware, to fastifyTRPCPlugin, to an App Router route's fetchRequestHandler, and create-t3-app's `createContext: () => createTRPCContext({ headers: req.headers })` there): bearer guards",
    },
    {
      dir: 'valid/bearer-header-handed-to-a-helper-with-the-request',
      name: "a middleware reading the Authorization header and handing the token, with the request, to a helper that verifies it and only writes `req.user` (logchimp's `authenticateWithToken(req, res, next, token)`) is bearer auth",
    },
    {
      dir: 'valid/nest-guard-reads-token-header',
      name: "a guard taking its credential from the Authorization header only (`request.headers['authorization']`, no cookie read) is bearer auth",
    },
    {
      dir: 'valid/role-check-after-bearer-token',
      name: "a Fastify role hook reading what the bearer-token hook before it established (`request.isAuthenticated`, 401): the token still refuses a forged request",
    },
    {
      dir: 'valid/nest-roles-guard-after-jwt',
      name: "`@UseGuards(AuthGuard('jwt'), RolesGuard)`, the strategy reading the Authorization header and RolesGuard `request.user`",
    },
    {
      dir: 'valid/nest-guard-handing-its-verdict-to-a-passport-guard',
      name: "a Nest guard whose canActivate returns another guard's (`return this.authGuard.canActivate(context)`, the guard injected by a token a module provides with useClass, or by its class: novu's UserAuthGuard) is what that guard is, bearer auth through its header strategies",
    },
    {
      dir: 'valid/nest-guard-hands-request-to-header-reader',
      name: 'a guard handing its whole request to a helper of the analysed code that reads the Authorization header or a query token, never a cookie, is bearer auth',
    },
    {
      dir: 'valid/koa-middleware-hands-headers-to-an-authorization-reader',
      name: "a Koa middleware handing the request's headers to a helper taking the Authorization header apart (`({ authorization }) => …`, logto's extractBearerTokenFromHeaders) is bearer auth",
    },
    { dir: 'valid/reads-need-none', name: 'GET and HEAD need none' },
    {
      dir: 'valid/in-handler-origin-verified',
      name: "the Origin header compared with the app's own origin and the request refused unless equal (Cap's `request.headers.get('origin') !== request.nextUrl.origin`, Express's `req.get('origin')`, `req.headers?.origin`): an inline CSRF check",
    },
    {
      dir: 'valid/permission-check-after-a-bearer-strategy',
      name: "a middleware answering 401 itself after `passport.authenticate(['bearer'], { session: false })(req, res, () => …)` (node-red's needsPermission): its credential is the bearer token",
    },
    {
      dir: 'valid/better-auth-origin-check',
      name: "better-auth's handler refuses a cookie-carrying request from an untrusted origin: mounted on Hono (`auth.handler(c.req.raw)`), Express (`toNodeHandler(auth)`) and Next.js (`toNextJsHandler(auth)`)",
    },
    { dir: 'valid/in-handler-token-compared', name: 'the form\'s token compared with the cookie\'s in the handler, a mismatch refused (an inline CSRF check)' },
  ],
  invalid: [
    {
      dir: 'invalid/trpc-demo-mode-gate-is-no-candidate',
      name: "tRPC middleware refusing by a setting of the server, reading of what it is handed only the procedure's type (karakeep's `isDemoMode`, 403) or nothing but `next` (homarr's docker routes, 404): no candidate guards; one calling a function (a session read through the request's async context) stays one",
      errors: [
        { file: 'src/app.ts', line: 43, column: 20, message: noCsrf('POST /trpc/archiveBookmark') },
        { file: 'src/app.ts', line: 44, column: 21, message: noCsrf('POST /trpc/restartContainer') },
        {
          file: 'src/app.ts',
          line: 45,
          column: 22,
          message: `${noCsrf('POST /trpc/transferOwnership')} (unclassified middleware that may be one: (inline middleware); declare it in guards.csrf or guards.ignore)`,
        },
      ],
    },
    {
      dir: 'invalid/trpc-context-from-a-cookie',
      name: 'a tRPC procedure checking the session of a context made from the Authorization header or else a cookie (createExpressMiddleware, given the maker or an arrow calling it): the cookie authenticates it',
      errors: [
        { file: 'src/app.ts', line: 21, column: 18, message: noCsrf('POST /trpc-next/renameProject') },
        { file: 'src/app.ts', line: 21, column: 18, message: noCsrf('POST /trpc/renameProject') },
      ],
    },
    { dir: 'invalid/post-with-session-only', name: 'POST with the session only', errors: [{ line: 7, message: noCsrf('POST /api/projects') }] },
    {
      dir: 'invalid/csrf-allowlist-hands-to-a-pass-through',
      name: "a CSRF middleware handing the paths it lets through to a function that only calls next (saltcorn's `return disabledCsurf(req, res, next)`): a guard of every other path",
      errors: [{ file: 'app.js', line: 25, message: `${noCsrf('POST /notifications/share-handler')} (the inline middleware is one, but lets through untouched paths starting with /notifications/share-handler: app.js:15)` }],
    },
    {
      dir: 'invalid/route-chain',
      name: 'router.route(path): only the verb that has the guard is protected',
      errors: [{ line: 17, column: 4, message: noCsrf('DELETE /api/projects/:id') }],
    },
    {
      dir: 'invalid/csrf-middleware-allowlist-route-unprotected',
      name: 'the path that middleware lets through, its route chaining no CSRF check of its own',
      errors: [
        {
          file: 'app.js',
          line: 28,
          message: `${noCsrf('POST /api/upload')} (the inline middleware is one, but lets through untouched the path /api/upload: app.js:16)`,
        },
      ],
    },
    {
      dir: 'invalid/nest-auth-guard-default-strategy',
      name: "`@UseGuards(AuthGuard())` takes the defaultStrategy of the PassportModule.register its controller's module imports: bearer where that strategy reads the Authorization header, not where it reads the session cookie",
      errors: [{ file: 'src/settings.ts', line: 7, column: 3, message: noCsrf('PUT /api/settings') }],
    },
    {
      dir: 'invalid/bearer-token-required-only-by-deployment',
      name: 'a bearer guard applied only under a condition not known statically refuses nothing for sure: the role check after the session keeps needing a CSRF guard',
      errors: [{ line: 20, message: noCsrf('POST /api/projects') }],
    },
    {
      dir: 'invalid/guard-refusing-api-keys',
      name: "a guard named for refusing API keys (`rejectApiKeyAuth`, karakeep's session-only routes) is no bearer guard: the session still needs a CSRF guard",
      errors: [{ file: 'src/app.ts', line: 8, message: noCsrf('POST /api/keys') }],
    },
    {
      dir: 'invalid/in-handler-key-update-is-no-bearer',
      name: "a call in the handler named for what it does to a stored key (`updateApiKey`, `saveApiKey`: refly's key rename) is no bearer guard by its name: the session still needs a CSRF guard",
      errors: [
        { file: 'src/app.module.ts', line: 11, column: 3, message: noCsrf('PATCH /v1/auth/cli/api-key/:keyId') },
        { file: 'src/app.module.ts', line: 21, column: 3, message: noCsrf('PUT /v1/auth/cli/api-key/:keyId') },
      ],
    },
    {
      dir: 'invalid/better-auth-origin-check-turned-off',
      name: "better-auth with `advanced.disableCSRFCheck: true`, or `disableOriginCheck` set by the environment: no check",
      errors: [
        { file: 'app.ts', line: 5, message: noCsrf('POST /api/auth/*') },
        { file: 'app.ts', line: 6, message: noCsrf('POST /dev/auth/*') },
      ],
    },
    { dir: 'invalid/all-methods', name: 'app.all serves every method', errors: [{ line: 7, message: noCsrf('ALL /api/projects/:id/settings') }] },
    {
      dir: 'invalid/csrf-registered-after-route',
      name: 'app.use(csurf()) after a route does not protect it',
      errors: [{ line: 9, message: noCsrf('POST /api/feedback') }],
    },
    {
      dir: 'invalid/api-key-or-else-the-signed-in-user',
      name: "a middleware taking an API key from the Authorization header, or else the user `getCurrentUser()` reads from the session cookie (Cap's withAuth): the cookie authenticates it",
      errors: [{ file: 'app.ts', line: 30, message: noCsrf('DELETE /api/desktop/video/delete') }],
    },
    {
      dir: 'invalid/in-handler-csrf-token-only-read',
      name: "a CSRF cookie read by a getter named for it and never compared, and a form's token only required to be there: neither checks a token",
      errors: [
        { file: 'src/app.ts', line: 8, message: noCsrf('POST /api/account/email') },
        { file: 'src/app.ts', line: 15, message: noCsrf('POST /api/account/name') },
      ],
    },
    {
      dir: 'invalid/next-handler-token-header-or-cookie',
      name: 'a handler taking its token from a header of its own or else from the session cookie',
      errors: [{ file: 'app/api/auth/refresh/route.ts', line: 5, message: noCsrf('POST /api/auth/refresh') }],
    },
    {
      dir: 'invalid/bearer-header-handed-to-a-helper-reading-the-session',
      name: 'the same middleware, its helper letting a browser with a signed-in session go on first (`req.session?.userId`)',
      errors: [
        { file: 'src/routes/votes.ts', line: 7, message: noCsrf('POST /api/v1/votes') },
        { file: 'src/routes/votes.ts', line: 13, message: noCsrf('DELETE /api/v1/votes') },
      ],
    },
    {
      dir: 'invalid/nest-guard-hands-request',
      name: 'a guard reading the Authorization header but handing the whole request to a helper that falls back to a cookie',
      errors: [{ line: 25, column: 3, message: noCsrf('POST /api/infra/rotate') }],
    },
    {
      dir: 'invalid/unknown-candidate',
      name: 'unclassified middleware is named as a candidate',
      errors: [
        { line: 8, message: `${noCsrf('PUT /api/projects/:id')} (unclassified middleware that may be one: checkOrigin; declare it in guards.csrf or guards.ignore)` },
      ],
    },
  ],
});
