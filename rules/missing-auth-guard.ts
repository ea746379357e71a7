import { BROWSER_SURFACE, candidatesHint, reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'missing-auth-guard',
    defaultSeverity: 'error',
    description: 'A non-public, non-excluded route has no session/auth guard.',
    rationale: 'Every browser-surface route that is not explicitly public must check the session before it answers.',
    contract: '"Authenticated reads use a secure, HttpOnly browser session cookie." / "A missing or expired session yields 401."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireTenant } from './auth.js';",
        "import { listSites } from './sites.js';",
        "",
        "const app = express();",
        "app.get('/api/sites/', requireTenant, listSites);",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listSites } from './sites.js';",
        "",
        "const app = express();",
        "app.get('/api/sites/', requireSession, requireTenant, listSites);",
      ].join('\n'),
    },
    configure: [
      '"guards": { "auth": ["mustBeSignedIn", "/^ensure.*User$/"] } replaces the default auth names (an entry in slashes is a regular expression)',
      '"publicRoutes": ["GET /api/status"] for routes that are public by design',
    ],
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (!BROWSER_SURFACE(r)) continue;
      if (r.guards.some((g) => g.kinds.includes('auth'))) continue;
      reportRoute(ctx, r, `${routeLabel(r)} has no auth guard${candidatesHint(r, 'auth')}`);
    }
  },
};
