import { candidatesHint, csrfExpected, reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

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
      if (!csrfExpected(r)) continue;
      if (r.guards.some((g) => g.kinds.includes('csrf'))) continue;
      reportRoute(ctx, r, `${routeLabel(r)} changes state on the browser session without a CSRF guard${candidatesHint(r, 'csrf')}`);
    }
  },
};
