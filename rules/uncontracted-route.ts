import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'uncontracted-route',
    defaultSeverity: 'info',
    description: 'A browser-surface route outside the contract (the contract grants no permission to call it).',
    rationale: 'An inventory, not a defect: these routes exist but clients may not depend on them.',
    contract: '"The contract does not grant permission to call any other route that may exist."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listInvoices } from './billing.js';",
        "",
        "const app = express();",
        "app.get('/api/billing/invoices', requireSession, requireTenant, listInvoices);",
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
      'an inventory (info): "rules": { "uncontracted-route": "off" } silences it',
    ],
  },
  check(ctx) {
    for (const r of ctx.routes) if (r.classification === 'browser') reportRoute(ctx, r, `${routeLabel(r)} is on the browser surface but not in the contract`);
  },
};
