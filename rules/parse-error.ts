import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'parse-error',
    defaultSeverity: 'warning',
    description: 'A file could not be parsed; analysis goes on without what it may hold.',
    rationale: 'A file that does not parse may hide routes; the run goes on, and says so.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: { fires: "router.get('/api/sites/', (req, res) => { res.json(", passes: "router.get('/api/sites/', (req, res) => res.json([]));" },
  },
  check(ctx) {
    for (const [file, facts] of ctx.files)
      if (facts.parseError) ctx.report({ file, line: facts.parseError.at.line, column: facts.parseError.at.column, message: `cannot parse: ${facts.parseError.message}`, snippet: '' });
  },
};
