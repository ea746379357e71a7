import { BROWSER_SURFACE, candidatesHint, reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'ALL']);

export const rule: RuleModule = {
  meta: {
    id: 'missing-csrf-guard',
    defaultSeverity: 'error',
    description: 'A POST/PUT/PATCH/DELETE/ALL route on the browser surface has no CSRF guard.',
    rationale:
      'The browser sends the session cookie with cross-site requests; a mutation authenticated by it needs a CSRF check. Routes behind a bearer-token or API-key guard do not: a cross-site request carries no token, so that guard refuses it, whatever else (a role check reading the user the token established) runs beside it.',
    contract: '"Mutations additionally require the CSRF boundary, on top of the session."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { createSite } from './sites.js';",
        "",
        "const app = express();",
        "app.post('/api/sites/', requireSession, requireTenant, createSite);",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import csurf from 'csurf';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { createSite } from './sites.js';",
        "",
        "const app = express();",
        "const csrfProtection = csurf();",
        "app.post('/api/sites/', requireSession, requireTenant, csrfProtection, createSite);",
      ].join('\n'),
    },
    configure: [
      '"guards": { "csrf": ["verifyCsrf"] } replaces the default CSRF names',
      '"guards": { "bearer": ["requireApiToken"] }: routes behind a bearer / API-key guard need no CSRF guard',
    ],
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (!BROWSER_SURFACE(r) || !MUTATING.has(r.method)) continue;
      if (r.guards.some((g) => g.kinds.includes('csrf'))) continue;
      // SPEC §5 names the route whose only auth guard is a bearer guard; any bearer guard the route
      // passes through refuses a forged request as well, whatever other auth guards run beside it.
      if (r.guards.some((g) => g.kinds.includes('bearer'))) continue;
      reportRoute(ctx, r, `${routeLabel(r)} changes state on the browser session without a CSRF guard${candidatesHint(r, 'csrf')}`);
    }
  },
};
