import { parseRouteSpec } from '../src/classify.js';
import { candidatesHint, reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'excluded-family-leak',
    defaultSeverity: 'error',
    description: 'An excluded-family route (internal, ops, webhook, compiler, provider-token, edge) is in the contract, is published in generated API docs, or is reachable on the browser surface without its family guard.',
    rationale: 'Excluded routes must never leak into the browser contract: reachable with only a browser session, an internal or webhook route becomes an undocumented API.',
    contract: '"Excluded from the contract: internal routes, operations routes, webhook routes, compiler-control routes, provider-token routes and edge-control routes. Clients must not depend on them."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession } from './auth.js';",
        "import { rebuild } from './internal.js';",
        "",
        "const app = express();",
        "app.post('/internal/rebuild', requireSession, rebuild); // only the browser session guards it",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireServiceToken } from './service-auth.js';",
        "import { rebuild } from './internal.js';",
        "",
        "const app = express();",
        "app.post('/internal/rebuild', requireServiceToken, rebuild);",
      ].join('\n'),
    },
    configure: [
      '"families": { "edge": ["edge", "cdn"] } adds or replaces the path segments of a family',
      '"guards": { "family": { "webhook": ["checkGithubSignature"] } } names a family\'s own guards ("default" replaces the generic names)',
    ],
  },
  check(ctx) {
    const publicSpecs = (ctx.config.publicRoutes ?? []).map((s) => parseRouteSpec(s));
    for (const r of ctx.routes) {
      if (r.classification !== 'excluded' || !r.family) continue;
      const listed = publicSpecs.some((p) => p.path === r.path && (p.method === r.method || r.method === 'ALL'));
      if (r.contractRoute || listed) {
        reportRoute(ctx, r, `${routeLabel(r)} is in the excluded family "${r.family}" but is ${r.contractRoute ? `served as the contract route ${r.contractRoute}` : 'listed in publicRoutes'}`);
        continue;
      }
      if (r.apiDocs) {
        reportRoute(ctx, r, `${routeLabel(r)} is in the excluded family "${r.family}" but is published in generated API docs by ${r.apiDocs.generator} (hide it with ${r.apiDocs.hide})`);
        continue;
      }
      const familyGuards = r.guards.filter((g) => g.kinds.includes('family') && g.families.includes(r.family!));
      if (familyGuards.length > 0) continue;
      const other = r.guards.filter((g) => !g.kinds.includes('unknown'));
      const how = other.length === 0 ? 'unguarded' : `guarded only by ${[...new Set(other.map((g) => g.name))].join(', ')}`;
      const hint = candidatesHint(r, 'family', r.family!);
      reportRoute(ctx, r, `${routeLabel(r)} is in the excluded family "${r.family}" and is reachable without its family guard (${how})${hint}`);
    }
  },
};
