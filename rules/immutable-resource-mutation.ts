import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';
import { pathMayBeUnder } from '../src/adapters/paths.js';

export const rule: RuleModule = {
  meta: {
    id: 'immutable-resource-mutation',
    defaultSeverity: 'error',
    description: 'A PUT or PATCH route on deployments (an immutable resource).',
    rationale: 'Deployments are immutable once created: a route that edits one in place breaks rollbacks and audit trails. Create a new deployment instead.',
    contract: '"Deployments are immutable" / "The only stated property is that a deployment, once created, is immutable."',
    examples: {
      fires: [
        "import express from 'express';",
        "import csurf from 'csurf';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { updateDeployment } from './deployments.js';",
        "",
        "const app = express();",
        "app.patch('/api/deployments/:id', requireSession, requireTenant, csurf(), updateDeployment);",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import csurf from 'csurf';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { redeploy } from './deployments.js';",
        "",
        "const app = express();",
        "// A new deployment instead of an edit in place.",
        "app.post('/api/deployments/:id/redeploy', requireSession, requireTenant, csurf(), redeploy);",
      ].join('\n'),
    },
    configure: [
      'the paths come from the contract: routes under a contract route whose resource is "deployment"',
    ],
  },
  check(ctx) {
    const roots = ctx.contract.routes.filter((c) => c.resource === 'deployment').map((c) => c.path);
    for (const r of ctx.routes) {
      if (r.method !== 'PUT' && r.method !== 'PATCH') continue;
      if (r.classification === 'excluded') continue;
      // (a path that lacks a prefix not known statically says nothing of where the route lies)
      if (r.prefixes.some((p) => p.unknown !== undefined)) continue;
      if (!roots.some((p) => pathMayBeUnder(p, r.path, false))) continue;
      reportRoute(ctx, r, `${routeLabel(r)} mutates a deployment, which the contract makes immutable`);
    }
  },
};
