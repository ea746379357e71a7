// Learned from a public Hono server: `registerRoutes({ app, ...dependencies })` where
// `dependencies` is the caller's parameter. A spread written after a key could in principle
// replace it; a spread of values not known statically does not make the app handed over by name
// unknown — the routes registered on `context.app` / `{ app }` further down are the app's.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'router-beside-parameter-spread');

describe('learned: a router handed over beside a spread of parameters', async () => {
  const res = await check(DIR);

  it('lists the routes registered on the handed-over app, with their guards', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/organizations/:organizationId/documents src/modules/documents/documents.routes.ts:15 [requireAuthentication:auth]',
      'DELETE /api/organizations/:organizationId/documents/:documentId src/modules/documents/documents.routes.ts:22 [requireAuthentication:auth]',
      'GET /api/ping src/app/server.routes.ts:12 []',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});
