import type { RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'unresolved-route',
    defaultSeverity: 'warning',
    description: 'A path, prefix or mount could not be resolved statically; the surface is partly unknown.',
    rationale: 'route-surface never guesses: what it cannot resolve it says, so that a clean run means a fully known surface.',
    contract: '"The contract is validated against the server\'s routing."',
    examples: {
      fires: "app.use(`/api/${process.env.AREA}`, areaRouter);",
      passes: "const AREA = 'sites';\napp.use(`/api/${AREA}`, areaRouter);",
    },
  },
  check(ctx) {
    for (const u of ctx.unresolved) ctx.report({ file: u.file, line: u.line, column: u.column, message: u.message, snippet: u.snippet });
  },
};
