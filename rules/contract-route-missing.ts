import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'contract-route-missing',
    defaultSeverity: 'error',
    description: 'A contract route is not served by any analysed app.',
    rationale: 'The browser dashboard depends on every contract route; a route that is not served breaks it, and the contract is validated against the server\'s routing.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: {
      fires: "// no app serves GET /api/databases/\nrouter.get('/api/sites/', requireSession, requireTenant, listSites);",
      passes: "router.get('/api/databases/', requireSession, requireTenant, listDatabases);",
    },
  },
  check(ctx) {
    for (const c of ctx.contract.routes) {
      const key = `${c.method} ${c.path}`;
      if (ctx.routes.some((r) => r.contractRoute === key)) continue;
      ctx.report({ file: ctx.contract.source, line: c.line, column: 1, message: `contract route ${key} is not served by any analysed app`, snippet: key });
    }
  },
};
