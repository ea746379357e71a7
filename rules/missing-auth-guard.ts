import { BROWSER_SURFACE, candidatesHint, reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'missing-auth-guard',
    defaultSeverity: 'error',
    description: 'A non-public, non-excluded route has no session/auth guard.',
    rationale: 'Every browser-surface route that is not explicitly public must check the session before it answers.',
    contract: '"Authenticated reads use a secure, HttpOnly browser session cookie." / "A missing or expired session yields 401."',
    examples: {
      fires: "router.get('/api/sites/', requireTenant, listSites);",
      passes: "router.get('/api/sites/', requireSession, requireTenant, listSites);",
    },
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (!BROWSER_SURFACE(r)) continue;
      if (r.guards.some((g) => g.kinds.includes('auth'))) continue;
      reportRoute(ctx, r, `${routeLabel(r)} has no auth guard${candidatesHint(r, 'auth')}`);
    }
  },
};
