import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'parse-error',
    defaultSeverity: 'warning',
    description: 'A file could not be parsed; analysis goes on without what it may hold.',
    rationale: 'A file that does not parse may hide routes; the run goes on, and says so.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: {
      fires: [
        "import express from 'express';",
        "",
        "const app = express();",
        "app.get('/api/sites/', (req, res) => {",
        "  res.json(",
        "});",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "",
        "const app = express();",
        "app.get('/api/sites/', (req, res) => {",
        "  res.json([]);",
        "});",
      ].join('\n'),
    },
    configure: [
      '"exclude": ["src/generated/**"] leaves out files that are not meant to be parsed',
    ],
  },
  check(ctx) {
    for (const [file, facts] of ctx.files)
      if (facts.parseError) ctx.report({ file, line: facts.parseError.at.line, column: facts.parseError.at.column, message: `cannot parse: ${facts.parseError.message}`, snippet: '' });
  },
};
