import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'unused-suppression',
    defaultSeverity: 'warning',
    description: 'A suppression comment matched nothing, names no rule, or gives no reason.',
    rationale: 'Suppressions outlive the code they excused; a stale one would silently hide the next real finding on that line. A reason (after --) is required.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession } from './auth.js';",
        "import { me } from './me.js';",
        "",
        "const app = express();",
        "// route-surface-disable-next-line missing-tenant-guard",
        "app.get('/api/me/', requireSession, me);",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireSession } from './auth.js';",
        "import { me } from './me.js';",
        "",
        "const app = express();",
        "// route-surface-disable-next-line missing-tenant-guard -- identity is not tenant data (SEC-112)",
        "app.get('/api/me/', requireSession, me);",
      ].join('\n'),
    },
  },
  check(ctx) {
    for (const s of ctx.suppressions) {
      if (s.problem === null) continue;
      ctx.report({ file: s.file, line: s.line, column: s.column, message: s.problem, snippet: s.snippet });
    }
  },
};
