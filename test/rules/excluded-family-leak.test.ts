import { ruleTester } from '../helpers/rule-tester.js';

const reachable = (route: string, family: string, how: string) =>
  `${route} is in the excluded family "${family}" and is reachable without its family guard (${how})`;

ruleTester('excluded-family-leak', {
  valid: [
    { dir: 'valid/internal-behind-service-token', name: "app.use('/internal', requireServiceToken, internal): a generic family guard at the mount" },
    { dir: 'valid/webhook-signature', name: 'a webhook signature check (webhook family name), defined in the code' },
    {
      dir: 'valid/webhook-hmac-checked-outside-local-development',
      name: "an HMAC compared in a block a setting of the deployment decides (`if (!isLocalDev) { … }`, the setting declared in the module or imported, Dub's Shopify webhook): it leads the handler",
    },
    {
      dir: 'valid/webhook-signature-refused-through-a-response-helper',
      name: "a signature check the handler refuses on by returning a helper that answers (`if (!isValid) return Response.sendErrorResponse(req, res, new BadDataException('Invalid webhook signature'))`, OneUptime's GitHub webhook)",
    },
    {
      dir: 'valid/webhook-signature-by-provider-sdk',
      name: "a provider SDK's signature check in the handler: Stripe's webhooks.constructEvent (Next.js, assigned in a try; Express), svix's Webhook#verify (Hono)",
    },
    {
      dir: 'valid/webhook-signature-by-a-client-that-may-be-null',
      name: "Stripe's constructEvent on a client made or null (`secretKey ? new Stripe(secretKey) : null`, rybbit) in a refusing try: a null client throws there too",
    },
    {
      dir: 'valid/webhook-signature-by-polar-sdk',
      name: "Polar's validateEvent (@polar-sh/sdk/webhooks) in a try whose catch refuses a WebhookVerificationError and reads other events raw (Hono), or refuses every failure (Express)",
    },
    {
      dir: 'valid/webhook-signature-by-provider-client-made-elsewhere',
      name: "a provider SDK's client made in another module: one of two accounts' (`legacy ? stripeLegacy : stripeLive`), made on first use (`let client = null`), its parseThinEvent, WorkOS's webhooks.constructEvent; the check after a try refusing what it cannot read",
    },
    {
      dir: 'valid/webhook-signature-checked-in-the-handler',
      name: 'a signature check the handler refuses on (const ok = await verifySignature(…); if (!ok) throw, in a try), one handed the request in an object ({ req, rawBody }), the verdict one returns (if (!verification.verified) of verifyRecallWebhook(…)), one whose throw settles as null (`await verifySsoWebhook(…).catch(() => null)`), and one named for validating the webhook (`validatePlaidWebhook`, midday\'s, checking a JWT the provider signs)',
    },
    {
      dir: 'valid/webhook-hmac-compared-in-the-handler',
      name: "an HMAC the handler computes compared with the request's signature and refused unless equal (`!==`, `timingSafeEqual` of Buffers after a length test, and a local holding that comparison of byte copies, refused by returning what a helper makes; the signature read from next/headers' `headers()`)",
    },
    {
      dir: 'valid/webhook-hmac-compared-in-a-helper',
      name: "an HMAC compared by a helper the handler hands the request to and waits for, through a constant-time compare of the code (`secureCompare`), throwing unless equal",
    },
    {
      dir: 'valid/webhook-hmac-checked-by-a-helper-handed-the-hono-request',
      name: "an HMAC compared by a helper a Hono handler hands its request to and waits for: a copy of the raw request (`c.req.raw.clone()`, in a try whose catch throws again), Hono's request object (`c.req`)",
    },
    {
      dir: 'valid/webhook-token-compared-in-a-helper',
      name: "a helper the handler refuses on, handed the request, returning whether what it carries equals a secret of the deployment (`timingSafeEqual` of byte copies of `req.query.token` and `process.env.…_TOKEN`) or an HMAC it computes, and `false` anywhere else (linkwarden's Google Play endpoint)",
    },
    {
      dir: 'valid/internal-behind-a-deployment-secret',
      name: "what the request carries compared with a secret of the deployment and refused unless equal (`Bearer ${process.env.CRON_SECRET}`, an internal API key, `!timingSafeEqual` of a validated env's token or of byte copies, answered by a helper making the response; a secret read through `serverEnv()`): every family's guard",
    },
    { dir: 'valid/ops-admin', name: 'an admin guard on an ops route (ops family name)' },
    { dir: 'valid/generic-family-guard', name: 'mTLS protects every family (edge, compiler)' },
  ],
  invalid: [
    { dir: 'invalid/unguarded', name: 'an internal route without any guard', errors: [{ line: 4, message: reachable('POST /internal/search/reindex', 'internal', 'unguarded') }] },
    {
      dir: 'invalid/webhook-signature-refused-through-a-helper-answering-nothing',
      name: 'a signature check the handler leaves on by returning a helper that only logs (`return Audit.reportFailure(req, …)`): nothing ends the request',
      errors: [{ file: 'src/api/github.ts', line: 7, message: reachable('POST /api/github/webhook', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-hmac-helper-not-ending-the-request',
      name: 'an HMAC compared in a helper that only returns false on a mismatch, its result unread: nothing ends the request',
      errors: [{ file: 'app/api/paddle/webhook/route.ts', line: 8, message: reachable('POST /api/paddle/webhook', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-token-helper-open-without-a-secret',
      name: 'a token helper returning true while the deployment sets no token (linkwarden\'s App Store endpoint), and one comparing two values the request sends: no family guard',
      errors: [
        { file: 'pages/api/webhooks/app-store.ts', line: 20, column: 3, message: reachable('POST /api/webhooks/app-store', 'webhook', 'guarded only by (inline 401 check)') },
        { file: 'pages/api/webhooks/paddle.ts', line: 10, message: reachable('ALL /api/webhooks/paddle', 'webhook', 'guarded only by (inline 401 check)') },
      ],
    },
    {
      dir: 'invalid/webhook-hmac-helper-handed-the-hono-request-not-awaited',
      name: 'an HMAC check handed a copy of the request (`c.req.raw.clone()`) that nothing waits for: the event is recorded whatever it finds',
      errors: [{ file: 'src/events.ts', line: 19, message: reachable('POST /webhooks/slack/events', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-signature-failure-swallowed',
      name: "Polar's validateEvent in a try whose catch only logs and reads the body anyway: nothing is refused",
      errors: [{ line: 8, message: reachable('POST /webhooks/polar', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-signature-skipped-when-the-client-is-null',
      name: "Stripe's constructEvent run only `if (stripe)` of a client that may be null, the event taken as sent otherwise: the check is skipped",
      errors: [{ file: 'src/index.ts', line: 8, message: reachable('POST /api/stripe/webhook', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-sdk-call-that-is-no-signature-check',
      name: 'a call of the provider SDK that checks nothing (stripe.events.retrieve of an id the caller sent)',
      errors: [{ file: 'app/api/webhooks/stripe/route.ts', line: 4, message: reachable('POST /api/webhooks/stripe', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-refusal-of-no-signature-check',
      name: 'the handler refuses on a check of something else (parseEvent: the body’s shape, not its sender)',
      errors: [{ file: 'app/api/paypal/webhook/route.ts', line: 4, message: reachable('POST /api/paypal/webhook', 'webhook', 'unguarded') }],
    },
    {
      dir: 'invalid/webhook-signature-only-present',
      name: 'a signature required to be there and an HMAC computed, but never compared: no signature check',
      errors: [{ file: 'app/api/acme/webhook/route.ts', line: 4, message: reachable('POST /api/acme/webhook', 'webhook', 'guarded only by (inline 401 check)') }],
    },
    {
      dir: 'invalid/deployment-value-that-is-no-secret-check',
      name: 'a value of the deployment that is no secret (the host name), a token checked only when the deployment sets one, and a token whose length alone is compared: no family guard',
      errors: [
        { file: 'app/api/internal/flush/route.ts', line: 4, message: reachable('POST /api/internal/flush', 'internal', 'unguarded') },
        { file: 'app/api/internal/reset/route.ts', line: 4, message: reachable('POST /api/internal/reset', 'internal', 'guarded only by (inline 401 check)') },
        { file: 'app/api/internal/stats/route.ts', line: 4, message: reachable('GET /api/internal/stats', 'internal', 'unguarded') },
      ],
    },
    {
      dir: 'invalid/chained-router-export',
      name: '`module.exports = express.Router().get(…).get(…)`: Express router methods return the router, so the chain is the router mounted',
      errors: [
        { file: 'routes/ops.js', line: 7, column: 18, message: reachable('GET /internal/ops/metrics', 'internal', 'guarded only by requireSession') },
        { file: 'routes/ops.js', line: 7, column: 92, message: reachable('GET /internal/ops/queues', 'internal', 'guarded only by requireSession') },
      ],
    },
    {
      dir: 'invalid/router-assigned-later',
      name: '`let opsRouter; opsRouter = express.Router()`: a router declared first and made below',
      errors: [{ line: 11, message: reachable('GET /internal/ops/metrics', 'internal', 'guarded only by requireSession') }],
    },
    {
      dir: 'invalid/browser-session-only',
      name: 'guarded only by the browser session; families match path segments case-insensitively',
      errors: [{ line: 5, message: reachable('GET /api/_Internal/flags', 'internal', 'guarded only by requireSession') }],
    },
    {
      dir: 'invalid/another-familys-guard',
      name: "an ops guard does not protect a webhook",
      errors: [{ line: 5, message: reachable('POST /webhooks/github', 'webhook', 'guarded only by requireAdmin') }],
    },
    {
      dir: 'invalid/unknown-candidate',
      name: 'unclassified middleware is named as a candidate for the family',
      errors: [
        {
          line: 5,
          message: `${reachable('POST /ops/tenants/:tenantId/suspend', 'ops', 'unguarded')} (unclassified middleware that may be one: checkVpn; declare it in guards.family.ops or guards.ignore)`,
        },
      ],
    },
    {
      dir: 'invalid/provider-token-spellings',
      name: 'providerTokens and provider_tokens are the provider-token family',
      errors: [
        { line: 6, message: reachable('GET /api/providerTokens', 'provider-token', 'guarded only by requireSession') },
        { line: 9, message: reachable('POST /api/provider_tokens/:id/rotate', 'provider-token', 'guarded only by requireSession') },
      ],
    },
    {
      dir: 'invalid/listed-in-public-routes',
      name: 'an excluded route listed in publicRoutes (first reason that holds, reported once)',
      errors: [{ line: 5, message: 'POST /webhooks/stripe is in the excluded family "webhook" but is listed in publicRoutes' }],
    },
    {
      dir: 'invalid/contract-path-in-a-family',
      name: 'a families override that puts a contract route in a family',
      errors: [{ line: 6, message: 'GET /api/sites/ is in the excluded family "edge" but is served as the contract route GET /api/sites/' }],
    },
  ],
});
