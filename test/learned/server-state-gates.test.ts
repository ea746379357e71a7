// Learned from anything-llm: `featureFlagEnabled(key)` answers 401 while an instance setting is
// off, and `isSingleUserMode(_request, response, next)` answers 401 once the instance has users.
// Neither reads its request, nor what an earlier layer left on the response (`res.locals`): the
// server's own state decides, so neither authenticates anyone — a route behind such a gate alone
// has no auth guard. A middleware that reads `res.locals.user` (the user an earlier layer signed
// in) still checks the caller. The same for a 404 (learned from rallly): `cloudOnly` answers 404
// on self-hosted instances, reading nothing of the request — no tenant check, no guard at all.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'server-state-gates');

describe('learned: middlewares answering 401 or 404 for a mode or a flag of the server', async () => {
  const res = await check(DIR);

  it('lists every route with its mount prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'DELETE /api/instance/members/:memberId src/routes/instance.ts:11',
      'GET /api/instance/setup src/routes/instance.ts:7',
      'GET /api/sites/ src/routes/sites.ts:8',
      'GET /api/sites/:siteId/analytics src/routes/sites.ts:16',
      'POST /api/sites/:siteId/preview-builds src/routes/sites.ts:12',
    ]);
  });

  it('counts a feature-flag gate and a mode gate as no guard', () => {
    expect(guardLines(res, 'POST', '/api/sites/:siteId/preview-builds')).toEqual(['requireSession:auth:route-middleware:src/routes/sites.ts:12']);
    expect(guardLines(res, 'GET', '/api/instance/setup')).toEqual([]);
  });

  it('counts a gate answering 404 on self-hosted instances as no guard, and names it in no finding', () => {
    expect(guardLines(res, 'GET', '/api/sites/:siteId/analytics')).toEqual(['requireSession:auth:route-middleware:src/routes/sites.ts:16']);
    expect(res.findings.filter((f) => f.file === 'src/routes/sites.ts' && f.line === 16).map((f) => `${f.ruleId} ${f.message}`)).toEqual([
      'missing-tenant-guard GET /api/sites/:siteId/analytics has no tenant guard',
      'uncontracted-route GET /api/sites/:siteId/analytics is on the browser surface but not in the contract',
    ]);
  });

  it('keeps a middleware reading the user an earlier layer signed in (`res.locals.user`) as auth', () => {
    expect(guardLines(res, 'DELETE', '/api/instance/members/:memberId')).toEqual([
      'requireSession:auth:route-middleware:src/routes/instance.ts:11',
      'requireOwner:auth:route-middleware:src/routes/instance.ts:11',
    ]);
  });

  it('reports the route behind the mode gate alone as having no auth guard', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/routes/instance.ts:7 GET /api/instance/setup has no auth guard',
    ]);
  });
});
