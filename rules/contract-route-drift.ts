import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'contract-route-drift',
    defaultSeverity: 'error',
    description: 'A contract route is served only with another method, trailing-slash form or case, under the framework\'s own matching rules.',
    rationale: 'A drifted route answers a different request than the one the dashboard sends: with strict routing `/api/sites` does not serve `/api/sites/`.',
    contract: '"All five supported routes use method GET … Paths end with a trailing slash." (the route table\'s paths are kept exactly as written)',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listSites } from './sites.js';",
        "",
        "const app = express();",
        "const api = express.Router({ strict: true }); // strict routing: /api/sites does not serve /api/sites/",
        "api.get('/sites', requireSession, requireTenant, listSites);",
        "app.use('/api', api);",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listSites } from './sites.js';",
        "",
        "const app = express();",
        "const api = express.Router(); // non-strict (the default): /api/sites also serves /api/sites/",
        "api.get('/sites', requireSession, requireTenant, listSites);",
        "app.use('/api', api);",
      ].join('\n'),
    },
    configure: [
      '"contract": "path/to/contract.json" (or --contract FILE) when the published paths differ',
    ],
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (r.contractMatch !== 'drift') continue;
      reportRoute(ctx, r, `${routeLabel(r)} drifts from the contract route ${r.contractRoute}: ${r.driftReason}`);
    }
  },
};
