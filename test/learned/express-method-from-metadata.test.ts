// Learned from Plane's live server (Express): its own decorator package records each action's
// method and path with reflect-metadata, and `registerController(router, Controller)` registers
// them with `(router[method] as (path: string, ...handlers: RequestHandler[]) => void)(…)` — the
// method read from the metadata, the member access under a type assertion in parentheses. The
// call was not read as a registration at all: every action left out with no finding.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-method-from-metadata');

describe('learned: a registration whose method is read from metadata, the member under a type assertion', async () => {
  const res = await check(DIR);

  it('lists the route registered directly and says the registrar registers what is not known statically', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /live/health src/server.ts:10']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/decorators/controller.ts:35 a registration whose method is not known statically (method); it is left out',
    ]);
  });
});
