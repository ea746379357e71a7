import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'contract-route-missing',
    defaultSeverity: 'error',
    description: 'A contract route is not served by any analysed app.',
    rationale: 'The browser dashboard depends on every contract route; a route that is not served breaks it, and the contract is validated against the server\'s routing.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listSites } from './sites.js';",
        "",
        "const app = express();",
        "// Nothing serves GET /api/databases/ (nor the other contract routes): each one is reported.",
        "app.get('/api/sites/', requireSession, requireTenant, listSites);",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import * as handlers from './handlers.js';",
        "",
        "const app = express();",
        "app.get('/api/health/ready', handlers.ready);",
        "app.get('/api/auth/me/', requireSession, requireTenant, handlers.me);",
        "app.get('/api/sites/', requireSession, requireTenant, handlers.listSites);",
        "app.get('/api/deployments/', requireSession, requireTenant, handlers.listDeployments);",
        "app.get('/api/databases/', requireSession, requireTenant, handlers.listDatabases);",
      ].join('\n'),
    },
    configure: [
      '"contract": "path/to/contract.json" (or --contract FILE; JSON or OpenAPI 3) checks against another contract',
    ],
  },
  check(ctx) {
    for (const c of ctx.contract.routes) {
      const key = `${c.method} ${c.path}`;
      if (ctx.routes.some((r) => r.contractRoute === key)) continue;
      ctx.report({ file: ctx.contract.source, line: c.line, column: 1, message: `contract route ${key} is not served by any analysed app`, snippet: key });
    }
  },
};
