import { pathMayBeUnder } from '../src/adapters/paths.js';
import { routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'provider-credential-exposure',
    defaultSeverity: 'error',
    description: 'A database-metadata handler puts credential-like fields (password, secret, token, connectionString, dsn, apiKey …) in its response.',
    rationale: 'Database metadata is shown in the browser; a provider credential in it is one XSS or shared screen away from an attacker.',
    contract: '"Tenant-scoped database metadata, without provider credentials" / "Never contains plaintext provider credentials"',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listDatabases } from './databases.js';",
        "",
        "const app = express();",
        "app.get('/api/databases/', requireSession, requireTenant, async (req, res) => {",
        "  const dbs = await listDatabases(req.session.tenantId);",
        "  res.json(dbs.map((d) => ({ id: d.id, name: d.name, connectionString: d.url })));",
        "});",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import { listDatabases } from './databases.js';",
        "",
        "const app = express();",
        "app.get('/api/databases/', requireSession, requireTenant, async (req, res) => {",
        "  const dbs = await listDatabases(req.session.tenantId);",
        "  res.json(dbs.map((d) => ({ id: d.id, name: d.name, region: d.region })));",
        "});",
      ].join('\n'),
    },
    configure: [
      'the paths come from the contract: routes under a contract route whose resource is "database"',
    ],
  },
  check(ctx) {
    const roots = ctx.contract.routes.filter((c) => c.resource === 'database').map((c) => c.path);
    for (const r of ctx.routes) {
      if (!r.handlerFn || r.classification === 'excluded') continue;
      if (!roots.some((p) => pathMayBeUnder(p, r.path, false))) continue;
      const f = ctx.ev.fnOf(r.handlerFn.file, r.handlerFn.fn);
      if (!f || f.responseFields.length === 0) continue;
      const first = f.responseFields[0]!;
      const keys = [...new Set(f.responseFields.map((x) => x.key))];
      ctx.report({
        file: r.handlerFn.file,
        line: first.at.line,
        column: first.at.column,
        message: `${routeLabel(r)} returns credential-like field${keys.length > 1 ? 's' : ''} ${keys.join(', ')} in database metadata`,
        route: r,
        snippet: first.snippet,
      });
    }
  },
};
