import { candidatesHint, reportRoute, routeLabel, tenantExpected, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'missing-tenant-guard',
    defaultSeverity: 'error',
    description: 'A non-public, non-excluded route has no tenant guard.',
    rationale:
      'Data is partitioned by tenant: a route that does not check the active tenant can answer with another tenant\'s data. A route serving a contract route the contract says is not tenant-scoped (`"tenantScoped": false`; `x-route-surface-tenant-scoped: false` in OpenAPI), as listing the tenants a user belongs to is, needs none.',
    contract: '"Every non-public request is evaluated inside the active tenant boundary."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession } from './auth.js';",
        "import { listSites } from './sites.js';",
        "",
        "const app = express();",
        "app.get('/api/sites/', requireSession, listSites);",
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
      '"guards": { "tenant": ["scopeToTenant"] } replaces the default tenant names',
      '"guards": { "ignore": ["loadAccount"] } for middleware that is no guard at all',
    ],
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (!tenantExpected(r, ctx.contract)) continue;
      if (r.guards.some((g) => g.kinds.includes('tenant'))) continue;
      reportRoute(ctx, r, `${routeLabel(r)} has no tenant guard${candidatesHint(r, 'tenant')}`);
    }
  },
};
