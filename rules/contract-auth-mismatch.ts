import { methodServes, parseRouteSpec } from '../src/classify.js';
import { contractRouteOf } from '../src/contract.js';
import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'contract-auth-mismatch',
    defaultSeverity: 'error',
    description: 'The contract says public but the route is guarded, or says session but the route is made public.',
    rationale: 'Readiness must be reachable without a session (load balancers have none); a session route opened as public leaks identity or tenant data.',
    contract: '"The readiness route needs no authentication." / "Authenticated reads use a secure, HttpOnly browser session cookie."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession } from './auth.js';",
        "import { ready } from './health.js';",
        "",
        "const app = express();",
        "app.get('/api/health/ready', requireSession, ready); // load balancers have no session",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { ready } from './health.js';",
        "",
        "const app = express();",
        "app.get('/api/health/ready', ready);",
      ].join('\n'),
    },
    configure: [
      '"publicRoutes": ["GET /api/health/ready"] lists the routes that are public by design',
      '"guards": { "ignore": ["auditLog"] } when a middleware taken for a guard is not one',
    ],
  },
  check(ctx) {
    const publicSpecs = (ctx.config.publicRoutes ?? []).map(parseRouteSpec);
    for (const r of ctx.routes) {
      if (!r.contractRoute || r.classification === 'excluded') continue;
      const c = contractRouteOf(ctx.contract, r.contractRoute)!;
      if (c.auth === 'public' && methodServes(r.method, c.method)) {
        const guards = r.guards.filter((g) => g.kinds.includes('auth') || g.kinds.includes('tenant'));
        if (guards.length > 0)
          reportRoute(ctx, r, `${routeLabel(r)} is public in the contract but is guarded by ${[...new Set(guards.map((g) => g.name))].join(', ')}`);
      } else if (r.classification === 'public' && publicSpecs.length > 0) {
        reportRoute(ctx, r, `${routeLabel(r)} needs a ${c.auth} in the contract but is listed in publicRoutes`);
      }
    }
  },
};
