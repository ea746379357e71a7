import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'unresolved-route',
    defaultSeverity: 'warning',
    description: 'A path, prefix or mount could not be resolved statically; the surface is partly unknown.',
    rationale: 'route-surface never guesses: what it cannot resolve it says, so that a clean run means a fully known surface.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { listItems } from './items.js';",
        "",
        "const app = express();",
        "const area = express.Router();",
        "area.get('/items/', listItems);",
        "app.use(`/api/${process.env.AREA}`, area); // known only at run time",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { listItems } from './items.js';",
        "",
        "const app = express();",
        "const AREA = 'sites';",
        "const area = express.Router();",
        "area.get('/items/', listItems);",
        "app.use(`/api/${AREA}`, area);",
      ].join('\n'),
    },
    configure: [
      '"include" / "exclude" (globs) scope the analysis, e.g. to leave out scripts that build routers dynamically',
    ],
  },
  check(ctx) {
    for (const u of ctx.unresolved) ctx.report({ file: u.file, line: u.line, column: u.column, message: u.message, snippet: u.snippet });
  },
};
