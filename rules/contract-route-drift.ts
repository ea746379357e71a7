import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'contract-route-drift',
    defaultSeverity: 'error',
    description: 'A contract route is served only with another method, trailing-slash form or case, under the framework\'s own matching rules.',
    rationale: 'A drifted route answers a different request than the one the dashboard sends: with strict routing `/api/sites` does not serve `/api/sites/`.',
    contract: '"All five supported routes use method GET … Paths end with a trailing slash." (the route table\'s paths are kept exactly as written)',
    examples: {
      fires: "const r = express.Router({ strict: true });\nr.get('/sites', listSites); // mounted at /api: serves /api/sites, not /api/sites/",
      passes: "const r = express.Router();\nr.get('/sites', listSites); // non-strict: /api/sites/ is served too",
    },
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (r.contractMatch !== 'drift') continue;
      reportRoute(ctx, r, `${routeLabel(r)} drifts from the contract route ${r.contractRoute}: ${r.driftReason}`);
    }
  },
};
