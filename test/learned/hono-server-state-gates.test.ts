// Learned from rallly: its licence API (Hono, mounted in a Next.js catch-all route) runs
// `app.use('*', async (c, next) => { if (isSelfHosted) return c.json({ error: … }, 404); return next() })`
// first. The context is used only to answer, and the 404 answers a switch of the deployment: no
// guard, so the licence-key check behind it alone has no auth guard (as it has not: self-hosted
// instances call it). A context middleware reading the request (`c.req.param('orgId')`) to answer
// 404 stays a check; one answering 401 stays a sign-in check even when it reads its session
// through the async context rather than through `c`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'hono-server-state-gates');

describe('learned: Hono middlewares answering 404 for a switch of the deployment', async () => {
  const res = await check(DIR);

  it('lists every route with its mount prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/account src/index.ts:10',
      'GET /api/health src/index.ts:8',
      'POST /api/licensing/v1/licenses src/routes/licensing.ts:12',
      'POST /api/licensing/v1/licenses/actions/validate-key src/routes/licensing.ts:18',
      'GET /api/licensing/v1/orgs/:orgId/licenses src/routes/licensing.ts:23',
    ]);
  });

  it('counts the hosted-only gates, named and inline, as no guard', () => {
    expect(guardLines(res, 'POST', '/api/licensing/v1/licenses/actions/validate-key')).toEqual([]);
    expect(guardLines(res, 'POST', '/api/licensing/v1/licenses')).toEqual(['bearerAuth:auth+bearer:route-middleware:src/routes/licensing.ts:12']);
  });

  it('keeps a 404 answered on what the request names, and a 401 from the async context, as checks', () => {
    expect(guardLines(res, 'GET', '/api/licensing/v1/orgs/:orgId/licenses')).toEqual(['orgMember:tenant:route-middleware:src/routes/licensing.ts:23']);
    expect(guardLines(res, 'GET', '/api/account')).toEqual(['requireSession:auth:route-middleware:src/index.ts:10']);
  });

  it('reports the licence-key check as having no auth guard, naming no middleware that may be one', () => {
    expect(res.findings.filter((f) => f.file === 'src/routes/licensing.ts').map((f) => `${f.ruleId} ${f.line} ${f.message}`)).toEqual([
      'missing-tenant-guard 12 POST /api/licensing/v1/licenses has no tenant guard',
      'uncontracted-route 12 POST /api/licensing/v1/licenses is on the browser surface but not in the contract',
      'missing-auth-guard 18 POST /api/licensing/v1/licenses/actions/validate-key has no auth guard',
      'missing-csrf-guard 18 POST /api/licensing/v1/licenses/actions/validate-key changes state on the browser session without a CSRF guard',
      'missing-tenant-guard 18 POST /api/licensing/v1/licenses/actions/validate-key has no tenant guard',
      'uncontracted-route 18 POST /api/licensing/v1/licenses/actions/validate-key is on the browser surface but not in the contract',
      'missing-auth-guard 23 GET /api/licensing/v1/orgs/:orgId/licenses has no auth guard',
      'uncontracted-route 23 GET /api/licensing/v1/orgs/:orgId/licenses is on the browser surface but not in the contract',
    ]);
  });
});
