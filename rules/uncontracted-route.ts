import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'uncontracted-route',
    defaultSeverity: 'info',
    description: 'A browser-surface route outside the contract (the contract grants no permission to call it).',
    rationale: 'An inventory, not a defect: these routes exist but clients may not depend on them.',
    contract: '"The contract does not grant permission to call any other route that may exist."',
    examples: {
      fires: "router.get('/api/billing/invoices', requireSession, requireTenant, listInvoices);",
      passes: "router.get('/api/sites/', requireSession, requireTenant, listSites);",
    },
  },
  check(ctx) {
    for (const r of ctx.routes) if (r.classification === 'browser') reportRoute(ctx, r, `${routeLabel(r)} is on the browser surface but not in the contract`);
  },
};
