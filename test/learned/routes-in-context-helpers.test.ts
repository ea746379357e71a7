// Learned from a public Hono server: the app travels inside a context object —
// registerRoutes({ app, ...deps }) → registerTagsRoutes(context) → setupCreateTagRoute({ app, db }) —
// and every route is registered on the destructured `app` of a small helper function.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'routes-in-context-helpers');

describe('learned: routes registered on a destructured context parameter', async () => {
  const res = await check(DIR);

  it('binds the helpers’ registrations to the app passed at the outermost call', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/health src/modules/health/health.routes.ts:4',
      'GET /api/organizations/:organizationId/tags src/modules/tags/tags.routes.ts:10',
      'POST /api/organizations/:organizationId/tags src/modules/tags/tags.routes.ts:17',
    ]);
  });

  it('keeps the route-level guard of each helper', () => {
    expect(res.routes.map((r) => r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`))).toEqual([
      [],
      ['requireAuthentication:auth:route-middleware'],
      ['requireAuthentication:auth:route-middleware'],
    ]);
  });

  it('leaves nothing unresolved', () => {
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});
