import { ruleTester } from '../helpers/rule-tester.js';

ruleTester('missing-tenant-guard', {
  valid: [
    { dir: 'valid/route-middleware', name: 'a tenant guard by name, route-level' },
    { dir: 'valid/by-behaviour', name: 'a neutral name comparing the org in the URL with the session’s, answering 404' },
    {
      dir: 'valid/by-behaviour-organization-members',
      name: "a global middleware answering 403 unless the signed-in user is among the members of the organization a header names (GrowthBook's processJWT: `req.organization.members.filter((m) => m.id === req.userId)`), 404 when it is not found",
    },
    {
      dir: 'valid/hono-tenant-compared-after-a-conversion',
      name: "a tenant compared once converted (`c.req.param('workspaceId') !== String(session.workspaceId)`, `Number(…)`): a route parameter is a string (openstatus's numeric workspace ids)",
    },
    {
      dir: 'valid/nest-guard-looking-up-membership',
      name: "a Nest guard looking the caller up among the members of the organization in the URL through a service (`findMembership(req.params.orgId, req.user.id)`), 403 when not one (Hoppscotch's team guards)",
    },
    { dir: 'valid/by-behaviour-error-factory', name: 'a neutral name comparing the org with the session’s, throwing createForbiddenError()' },
    { dir: 'valid/by-behaviour-error-class-with-a-prefix', name: 'a neutral name comparing the org with the session’s, throwing an error class named for 403 after a prefix of its own (`new HttpForbiddenError()`)' },
    { dir: 'valid/in-handler-call', name: 'assertTenantAccess(req, project) among the leading statements' },
    {
      dir: 'valid/middleware-checking-session-then-membership',
      name: "a middleware answering 401 without a session, then 403 unless the caller is a member of the organisation the URL names (openpanel's chart procedures): a guard of both kinds",
    },
    { dir: 'valid/in-handler-inline-check', name: 'an inline tenant comparison answering 404 before the response' },
    {
      dir: 'valid/in-handler-nested-wrappers',
      name: 'a handler wrapped twice (`withSession(withProject(handler))`, and the other way round): the tenant check of the wrapper in the middle runs before the handler too',
    },
    {
      dir: 'valid/in-handler-membership-checks',
      name: "inline: no membership found for the signed-in user, the URL's org not among the user's, a row's workspace not one of the user's, an organisation access check refused with an AuthorizationError (403), a lookup keyed by the URL's organisation and the signed-in user (`db.member.findFirst({ where: { userId, organizationId } })`) found nothing, in the handler or in a route middleware, or whenever the request names an organisation (`if (req.body.organizationId) { … }`)",
    },
    {
      dir: 'valid/nest-service-checking-the-membership-of-the-user-handed-it',
      name: "a Nest handler awaiting a service handed the signed-in user (`req.user`, or what `getRequestUserOrClient(req)` returns), the service looking up that user's membership of the URL's project and throwing a ForbiddenException when none is found — itself, through a method it awaits first, or in each branch of an `if (user instanceof User) … else if … else throw` (ever-traduora's AuthorizationService)",
    },
    {
      dir: 'valid/query-rows-none-found',
      name: "Drizzle lookups of the signed-in user's membership of the organization the request names, refused with 403 when none is found: `!rows.length` (either side of `||`) and `rows.length === 0` of a select keyed by `and(eq(member.userId, userId), eq(member.organizationId, organizationId))`, and `!member` of a relational `findFirst({ where: (member, { and, eq }) => and(…) })` (rybbit)",
    },
    {
      dir: 'valid/membership-of-the-user-a-request-session-getter-returns',
      name: "a membership lookup keyed by `session.user.id` of the session a getter named for the request's session returns (`getSessionFromReq(request)`, rybbit's wrapper of better-auth's getSession), refused with 403 when none is found",
    },
    { dir: 'valid/global-tenant-middleware', name: 'a global tenant middleware before the mount (SPEC: it satisfies every route)' },
    { dir: 'valid/workspace-name', name: 'workspace is a tenant name by default' },
    { dir: 'valid/team-name', name: 'team is a tenant name by default, as a word of the name (`withTeamPermission`, `team_access`: midday\'s tenant is its team)' },
    {
      dir: 'valid/contract-route-not-tenant-scoped',
      name: 'routes serving contract routes whose contract says `"tenantScoped": false` (who is signed in, the tenants the user belongs to): the contract’s own word for them',
    },
    {
      dir: 'valid/router-param-callback',
      name: "router.param('projectId', loadProject) checks the organisation for every route of the router naming :projectId, even those registered before it",
    },
    {
      dir: 'valid/app-param-on-mount-path',
      name: "app.param('orgId', fn) runs at app.use('/api/orgs/:orgId', …): for every route of the router mounted there, and for the app's later routes under that path",
    },
  ],
  invalid: [
    {
      dir: 'invalid/lookup-scoped-by-the-caller',
      name: "a lookup confined to the caller's organisation as a hook put it on the request (`findFirst({ where: { id, organizationId: req.client.organizationId } })`, openpanel's API clients), a miss answered 404, checks the tenant; one keyed by the organisation the URL names does not",
      errors: [{ file: 'src/app.ts', line: 11, column: 5, message: 'GET /manage/organizations/:organizationId/projects/:id has no tenant guard' }],
    },
    {
      dir: 'invalid/hono-lookup-scoped-by-the-context',
      name: "a Hono lookup confined to the organisation a hook put on the context, read as `c.var.orgId`, `c.get('orgId')`, a local holding it or the user holding it (`user.organizationId` of `const user = c.get('user')`), a miss answered 404, checks the tenant, as a Koa one keyed by the user destructured from the state does; one keyed by the organisation the URL or the query string names does not, nor Koa's `ctx.get('orgId')` (a request header)",
      errors: [
        { file: 'src/admin.ts', line: 14, column: 1, message: 'GET /api/admin/projects/:projectId has no tenant guard' },
        { file: 'src/admin.ts', line: 29, column: 1, message: 'GET /api/admin/payouts/:payoutId has no tenant guard' },
        { file: 'src/app.ts', line: 32, column: 1, message: 'GET /api/orgs/:orgId/sites/:siteId has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/hono-drizzle-lookup-scoped-by-the-key-workspace',
      name: "a Drizzle lookup confined to the workspace an API-key hook put on the context (`and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId))` of `c.get('workspace').id`, or `c.var.workspace.id`, either side of `eq`), a miss answered 404 or thrown as an error whose code is `NOT_FOUND` (openstatus's API), checks the tenant; one keyed by the workspace the URL names does not, nor one with no workspace, nor one of conditions joined by `or`",
      errors: [
        { file: 'src/app.ts', line: 32, column: 1, message: 'GET /v1/workspaces/:workspaceId/monitors/:id has no tenant guard' },
        { file: 'src/app.ts', line: 46, column: 1, message: 'GET /v1/monitor/:id/status has no tenant guard' },
        { file: 'src/app.ts', line: 56, column: 1, message: 'GET /v1/incident/:id has no tenant guard' },
      ],
    },
    { dir: 'invalid/session-only', name: 'a session guard only', errors: [{ line: 6, message: 'GET /api/projects has no tenant guard' }] },
    {
      dir: 'invalid/tenant-checks-answered-401',
      name: "a project's organisation compared with the caller's and the request refused with 401 (lunary's export links, `if (project.orgId !== account.orgId) return ctx.throw(401, …)`) checks the tenant; an organisation only looked up and refused with 401 when missing does not",
      errors: [{ file: 'src/app.ts', line: 22, column: 1, message: 'GET /v1/runs/archives/:token has no tenant guard' }],
    },
    {
      dir: 'invalid/permission-checks-comparing-the-team',
      name: "a handler refusing (401, a 403 it answers, or `return forbidden()`) when a permission function looking the signed-in user up among the website's team says no (umami's `if (!(await canViewWebsite(auth, websiteId))) return unauthorized()`, `getTeamUser(website.teamId, user.id)`), also handed the team the URL names beside the caller's `auth` (`canViewTeam(auth, teamId)`), or returning such a function's verdict (`return !!(await canUpdateWebsite(auth, report.websiteId))`), checks the tenant; one asking for an admin, or for a report's author, does not, nor one comparing the kind of access asked for with an enum's member named for a team (`access === Access.TEAM_SETTINGS`, rap2's `ACCESS_TYPE.ORGANIZATION_GET`), nor one searching every team for the team the URL names (`teamExists(teamId)`: handed a tenant the request names, and no signed-in user)",
      errors: [
        { file: 'app/api/reports/[reportId]/route.ts', line: 7, column: 1, message: 'GET /api/reports/:reportId has no tenant guard' },
        { file: 'app/api/settings/route.ts', line: 7, column: 1, message: 'GET /api/settings has no tenant guard' },
        { file: 'app/api/teams/[teamId]/websites/route.ts', line: 7, column: 1, message: 'GET /api/teams/:teamId/websites has no tenant guard' },
        { file: 'app/api/users/route.ts', line: 7, column: 1, message: 'GET /api/users has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/team-scoped-lookups',
      name: "a lookup confined to the team the session works in (`teamId: req.user.teamId`), or a team compared with the session's, a miss answered 404, checks the tenant; the team the URL names does not, nor \"team\" inside another word (`steamId`)",
      errors: [
        { file: 'src/app.ts', line: 25, column: 1, message: 'GET /api/teams/:teamId/projects/:projectId has no tenant guard' },
        { file: 'src/app.ts', line: 32, column: 1, message: 'GET /api/games/:gameId has no tenant guard' },
      ],
    },
    { dir: 'invalid/team-inside-another-word', name: '"team" inside another word (`steamLinked`) names no team', errors: [{ line: 7, message: 'GET /api/games has no tenant guard (unclassified middleware that may be one: steamLinked; declare it in guards.tenant or guards.ignore)' }] },
    {
      dir: 'invalid/tenant-lookup-of-a-user-the-request-names',
      name: "a service's membership check of a user it is handed checks no tenant when the handler hands it a user the request names (`req.body.owner`, `{ id: userId }` of a query parameter), or does not wait for it",
      errors: [
        { file: 'src/controllers/member.controller.ts', line: 11, column: 3, message: 'GET /api/v1/projects/:projectId/members/owner has no tenant guard' },
        { file: 'src/controllers/member.controller.ts', line: 18, column: 3, message: 'GET /api/v1/projects/:projectId/members/role has no tenant guard' },
        { file: 'src/controllers/member.controller.ts', line: 26, column: 3, message: 'GET /api/v1/projects/:projectId/members/self has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/koa-gate-on-the-server-state-named-for-tenant',
      name: "a Koa middleware named for the tenant that never names its context and refuses with 403 on the server's own state (logto's koaTenantGuard) checks no tenant; one reading the caller's memberships does",
      errors: [{ file: 'src/app.ts', line: 9, message: 'GET /api/organizations/:organizationId has no tenant guard' }],
    },
    {
      dir: 'invalid/not-tenant-scoped-is-the-contract-route-alone',
      name: 'a contract route not tenant-scoped exempts the route serving it alone: not a contract route of the default tenancy, nor a route outside the contract',
      errors: [
        { line: 13, message: 'GET /api/sites/ has no tenant guard' },
        { line: 18, message: 'GET /api/tenants/:tenantId/invitations has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/router-param-elsewhere',
      name: "app.param() runs for the app's own routes naming the parameter, not for a mounted router's (nor for routes without it)",
      errors: [
        { file: 'routes/projects.ts', line: 6, message: 'GET /api/projects/:projectId has no tenant guard' },
        { file: 'routes/projects.ts', line: 10, message: 'GET /api/projects/ has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/loader-is-not-a-tenant-guard',
      name: 'a loader answering 404 without comparing tenants is only a candidate',
      errors: [
        {
          line: 16,
          message: 'GET /api/projects/:projectId has no tenant guard (unclassified middleware that may be one: loadProject; declare it in guards.tenant or guards.ignore)',
        },
      ],
    },
    {
      dir: 'invalid/data-access-call-is-not-a-guard',
      name: 'listProjectsForTenant(…) is data access handed no request, whatever its name',
      errors: [{ line: 7, message: 'GET /api/projects has no tenant guard' }],
    },
    {
      dir: 'invalid/guard-on-a-sibling-mount',
      name: "app.use('/api/billing', requireTenant, billing) does not cover /api/projects",
      errors: [{ line: 11, message: 'GET /api/projects/ has no tenant guard' }],
    },
    {
      dir: 'invalid/in-handler-check-of-something-else',
      name: "inline 403/404 tests naming the workspace that check no access: a usage limit, the plan compared with a constant, the workspace found; and a check called only when the request names an organisation, which the other requests never reach",
      errors: [
        { line: 8, message: 'POST /api/workspaces/:workspaceId/links has no tenant guard' },
        { line: 17, message: 'PUT /api/workspaces/:workspaceId/branding has no tenant guard' },
        { line: 26, message: 'GET /api/workspaces/:workspaceId has no tenant guard' },
        { line: 36, message: 'GET /api/orgs has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/plan-check-is-not-a-tenant-check',
      name: "a 403 after comparing the workspace's plan with a constant and its usage with its limit compares no tenant",
      errors: [
        {
          line: 13,
          message: 'POST /api/projects/:id/exports has no tenant guard (unclassified middleware that may be one: paidPlanOnly; declare it in guards.tenant or guards.ignore)',
        },
      ],
    },
    {
      dir: 'invalid/role-among-members-is-not-a-tenant-check',
      name: "a 403 after looking for a role among the members of the workspace the query names (`workspace.members.some((m) => m.role === 'owner')`) compares no tenant, and reading no more of the request than that, checks no one: no candidate",
      errors: [
        {
          line: 21,
          message: 'POST /api/exports has no tenant guard',
        },
      ],
    },
    {
      dir: 'invalid/query-rows-of-the-tenant-alone',
      name: "a Drizzle lookup keyed by the organization alone (`!rows.length` of a select of its members, `!owner` of a relational findFirst whose callback names no user) checks no access of the caller",
      errors: [
        { file: 'src/index.ts', line: 15, message: 'GET /api/get-sites-from-org/:organizationId has no tenant guard' },
        { file: 'src/index.ts', line: 28, message: 'GET /api/organizations/:organizationId/owner has no tenant guard' },
      ],
    },
    {
      dir: 'invalid/role-check-is-not-a-tenant-check',
      name: 'a 403 after a role check compares no tenant',
      errors: [
        {
          line: 12,
          message: 'DELETE /api/projects/:id has no tenant guard (unclassified middleware that may be one: ownersOnly; declare it in guards.tenant or guards.ignore)',
        },
      ],
    },
  ],
});
