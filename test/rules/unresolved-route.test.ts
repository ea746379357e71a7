import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { routeLinesAt } from '../helpers/expect.js';
import { RULE_FIXTURES, ruleTester } from '../helpers/rule-tester.js';

ruleTester('unresolved-route', {
  valid: [
    { dir: 'valid/constants-templates-arrays', name: 'paths from consts, imported consts and objects, templates, arrays, concatenation, a registration function' },
    { dir: 'valid/outbound-http-client', name: 'an injected HTTP client posting to a path is an outbound call, not a route' },
    { dir: 'valid/browser-api-client-callbacks', name: 'a browser API client given a callback taking an error first (api.put(url, {}, function (err) { … })) registers no route' },
    { dir: 'valid/browser-api-client-promises', name: 'a browser API client whose answer is a promise (api.put(url, body).then(…), await api.get(url, query)) registers no route' },
    { dir: 'valid/sharedb-middleware-actions', name: "use() of an action's name (ShareDB's backend.use('connect', fn)) on a parameter is no mount" },
    { dir: 'valid/mongoose-schema-hooks', name: "post() of an event's name (Mongoose's schema.post('save', fn)), or of each name a loop goes over, on a parameter is no route" },
    { dir: 'valid/cache-handed-to-a-helper', name: "get(key, fetcher) on a parameter every caller hands an instance of a class of the code (a cache) is no route" },
    { dir: 'valid/test-request-helpers', name: "a test's request helper posting a body (Playwright's api.post), and page.route() intercepting requests, are no routes" },
  ],
  invalid: [
    {
      dir: 'invalid/path-from-the-environment',
      name: 'a template with a value known only at run time',
      errors: [{ line: 5, message: 'GET route with a path not known statically (property AREA of a value not known statically); it is listed without that part' }],
    },
    {
      dir: 'invalid/mount-path-from-config',
      name: 'use() with a path read from configuration (and none for the files served or the parsers at that path)',
      errors: [{ line: 12, message: 'the path of this use() is not known statically (a value from convict); the routes under it are listed without that part' }],
    },
    {
      dir: 'invalid/mount-of-a-dynamic-module',
      name: 'a router loaded with a dynamic import',
      errors: [
        {
          line: 8,
          column: 3,
          message: "mount at '/api/modules' could not be resolved (property router of a value not known statically); the routes under it are unknown",
        },
      ],
    },
    {
      dir: 'invalid/registration-function-never-called',
      name: 'routes registered on a parameter no call site binds to a router',
      errors: [
        {
          file: 'admin.ts',
          line: 4,
          column: 3,
          message: "routes registered on the parameter 'router' of registerAdminRoutes() whose callers pass no router known statically; their prefix is unknown",
        },
        {
          file: 'errors.ts',
          line: 5,
          column: 3,
          message: "routes registered on the parameter 'router' of adminErrorPages() whose callers pass no router known statically; their prefix is unknown",
        },
        {
          // route options with a handler (Fastify's shorthand form)
          file: 'stats.ts',
          line: 4,
          column: 3,
          message: "routes registered on the parameter 'app' of statsRoutes() whose callers pass no router known statically; their prefix is unknown",
        },
      ],
    },
    {
      dir: 'invalid/registration-at-the-mount-point',
      name: "a route at '' (the mount point's path, as '/' is) on a parameter no call site binds to a router",
      errors: [
        {
          file: 'mount-point.ts',
          line: 5,
          column: 3,
          message: "routes registered on the parameter 'router' of accountRoutes() whose callers pass no router known statically; their prefix is unknown",
        },
      ],
    },
    {
      dir: 'invalid/endpoint-objects-applied-to-a-router',
      name: "a route kept as an object and registered on the router it is applied to, `router[this.method](...params)` (Budibase's Endpoint), no call of it known",
      errors: [
        {
          file: 'src/endpoint.ts',
          line: 23,
          column: 5,
          message: "routes registered on the parameter 'router' of apply() whose callers pass no router known statically; their prefix is unknown",
        },
      ],
    },
    {
      dir: 'invalid/path-without-a-slash',
      name: "a route or use() at a path starting with a name or a parameter, which Express never matches (4.x and 5.x): left out, each one a warning",
      errors: [
        {
          file: 'app.ts',
          line: 9,
          column: 1,
          message: "the path of this use(), 'admin', starts with neither '/' nor a pattern: Express never matches it; what it mounts there is never reached",
        },
        { file: 'sites.ts', line: 7, column: 1, message: "GET route at 'sites/:siteId', a path starting with neither '/' nor a pattern: Express never matches it; it is left out" },
        { file: 'sites.ts', line: 8, column: 1, message: "DELETE route at ':siteId', a path starting with neither '/' nor a pattern: Express never matches it; it is left out" },
        { file: 'sites.ts', line: 9, column: 1, message: "GET route at 'deployments', a path starting with neither '/' nor a pattern: Express never matches it; it is left out" },
      ],
    },
    {
      dir: 'invalid/fastify-path-without-a-slash',
      name: "a Fastify route at a path starting with neither '/' nor '*' and no prefix before it, which find-my-way refuses: left out, a warning",
      errors: [
        {
          file: 'server.ts',
          line: 8,
          column: 1,
          message: "GET route at 'healthz': Fastify refuses a path starting with neither '/' nor '*' (the router throws when it is added, and the server does not start); it is left out",
        },
      ],
    },
    {
      dir: 'invalid/koa-path-without-a-slash',
      name: "a @koa/router route at a path starting with a name or a parameter, no prefix glued before it, which @koa/router never matches: left out, a warning",
      errors: [
        { file: 'deployments.ts', line: 9, column: 1, message: "GET route at 'deployments/:id', a path starting with neither '/' nor a pattern: @koa/router never matches it; it is left out" },
        { file: 'deployments.ts', line: 12, column: 1, message: "POST route at ':id/cancel', a path starting with neither '/' nor a pattern: @koa/router never matches it; it is left out" },
      ],
    },
    {
      dir: 'invalid/koa-route-path-without-a-slash',
      name: "a koa-route route at a path starting with a name or a parameter, which koa-route tests on ctx.path (below a koa-mount too) and never matches: left out, a warning",
      errors: [
        { file: 'app.ts', line: 14, column: 1, message: "POST route at 'api/sites', a path starting with neither '/' nor a pattern: koa-route never matches it; it is left out" },
        { file: 'billing.ts', line: 10, column: 1, message: "GET route at 'invoices/:id', a path starting with neither '/' nor a pattern: koa-route never matches it; it is left out" },
      ],
    },
    {
      dir: 'invalid/koa-use-path-without-a-slash',
      name: "a @koa/router use() of a middleware at a path starting with a name, which @koa/router never matches: the middleware never runs and guards nothing, a warning",
      errors: [
        { file: 'app.ts', line: 10, column: 1, message: "the path of this use(), 'api/admin', starts with neither '/' nor a pattern: @koa/router never matches it; the middleware it adds there never runs" },
      ],
    },
    {
      dir: 'invalid/koa-plugin-router-never-mounted',
      name: "@koa/router routers at paths with no slash (`router.post('webhooks.list', …)`) handed to a plugin registry the API mounts from (outline's plugins): matched only below the prefix of a `router.use('/', plugin.routes())` not known here, they are left out, said once with each router; its routes with a slash are listed",
      errors: [
        { file: 'api.ts', line: 9, column: 3, message: 'mounted router could not be resolved (call of something not known statically); the routes under it are unknown' },
        {
          file: 'plugins/passkeys/api.ts',
          line: 4,
          column: 16,
          message: "router router is never mounted on an app in the analysed files; one route at a path starting with neither '/' nor a pattern ('passkeys.list'), which @koa/router matches only below a prefix a router mounting it glues before it, is left out",
        },
        {
          file: 'plugins/webhooks/api.ts',
          line: 5,
          column: 16,
          message:
            "router router is never mounted on an app in the analysed files; its routes are listed with its own prefix only; 2 routes at a path starting with neither '/' nor a pattern ('webhooks.list'), which @koa/router matches only below a prefix a router mounting it glues before it, are left out",
        },
      ],
    },
    {
      dir: 'invalid/router-never-mounted',
      name: 'a router with routes that nothing mounts',
      errors: [{ file: 'reports.ts', line: 3, column: 24, message: 'router reports is never mounted on an app in the analysed files; its routes are listed without a prefix' }],
    },
  ],
});

/** The routes listed for a fixture of this rule, as routeLinesAt writes them. */
async function routeLines(fixture: string): Promise<string[]> {
  return routeLinesAt(await check(path.join(RULE_FIXTURES, 'unresolved-route', fixture)));
}

describe('unresolved-route: what is resolved instead', () => {
  // what each fixture lists: [test name, fixture, routes as routeLinesAt writes them]
  const listed: [string, string, string[]][] = [
    [
      "a path Express never matches is no route: only those starting with '/' are listed",
      'invalid/path-without-a-slash',
      ['GET /api/sites [requireSession] sites.ts:5', 'GET /api/sites/:siteId/deployments [requireSession] sites.ts:9', 'GET /health/ready [] app.ts:10'],
    ],
    [
      'a Fastify path without a slash is glued to the prefix before it, as Fastify does, and listed there; with none, it is no route',
      'invalid/fastify-path-without-a-slash',
      ['GET /api/sites [] sites.ts:4', 'GET /apisites/:siteId [] sites.ts:6'],
    ],
    [
      'a @koa/router path without a slash is glued to the path of the use() copying it, and served there; with none, it is no route',
      'invalid/koa-path-without-a-slash',
      ['GET /deployments [] deployments.ts:5', 'GET /v1/deployments [] deployments.ts:5', 'POST /v1:id/cancel [] deployments.ts:12', 'GET /v1deployments/:id [] deployments.ts:9'],
    ],
    [
      "koa-route's routes at a path with a slash, behind the app middleware before them; those without one left out",
      'invalid/koa-route-path-without-a-slash',
      ['GET /api/billing/invoices [requireSession] billing.ts:6', 'GET /api/health/ready [requireSession] app.ts:10'],
    ],
    [
      "@koa/router's routes behind the middleware a use() at a path with a slash adds, not the one at a path without",
      'invalid/koa-use-path-without-a-slash',
      ['GET /api/admin/tenants [requireSession] app.ts:11', 'DELETE /api/admin/tenants/:id [requireSession] app.ts:14'],
    ],
    [
      'every statically known path form is joined with its prefixes',
      'valid/constants-templates-arrays',
      ['GET /api/members [requireSession] app.ts:11', 'GET /api/projects [requireSession] app.ts:14', 'POST /api/projects [requireSession] projects.ts:4', 'GET /api/projects/:id/settings [requireSession] app.ts:17', 'GET /api/projects/archived [requireSession] app.ts:14', 'GET /api/v2/status [requireSession] app.ts:8'],
    ],
  ];
  it.each(listed)('%s', async (_name, fixture, routes) => {
    expect(await routeLines(fixture)).toEqual(routes);
  });

  it('an unresolved mount path is not guessed: its routes are listed without it, with a step that says so, and matched to no contract route', async () => {
    const res = await check(path.join(RULE_FIXTURES, 'unresolved-route', 'invalid', 'mount-path-from-config'));
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name} (${g.mechanism})`).join(', ')}] ${r.contractRoute}`)).toEqual([
      'GET / [requireSession (mount-middleware)] null',
    ]);
    expect(res.routes[0]!.prefixes).toEqual([{ prefix: '', file: 'app.ts', line: 12, unknown: 'a value from convict' }]);
  });
});
