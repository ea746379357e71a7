// Learned from a public Hono server (kaneo's API): its one authentication middleware lets the MCP
// and billing-webhook paths through, then checks every other request inside Sentry's isolation
// scope — `return Sentry.withIsolationScope(async () => { try { await authenticateApiRequest(c);
// … return await eventContext.run(…, next) } catch (error) { … throw error } })`. The last
// `return` was read as one way of answering and `return next()` as the other (Sentry's call, a
// package's, no guard), so the middleware guarded nothing and was only a candidate. Sentry's
// calls that run their callback at once (withIsolationScope, withScope, withActiveSpan,
// startSpan) are read as AsyncLocalStorage's `run` is: their callback's statements lead.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'hono-auth-in-sentry-scope');

describe("learned: a Hono middleware checking the request in Sentry's isolation scope", async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] => res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);

  it('lists the routes of the mounted apps', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/billing/plans src/billing/index.ts:8',
      'POST /api/billing/webhook src/billing/index.ts:4',
      'GET /api/mcp/manifest src/index.ts:12',
      'GET /api/project src/project/index.ts:4',
      'DELETE /api/project/:id src/project/index.ts:5',
    ]);
  });

  it('reads the check made in the scope as the auth guard, with the paths it lets through', () => {
    expect(guards('GET', '/api/project')).toEqual(['authenticateApiRequest:auth']);
    expect(guards('DELETE', '/api/project/:id')).toEqual(['authenticateApiRequest:auth']);
    expect(guards('GET', '/api/billing/plans')).toEqual(['authenticateApiRequest:auth']);
    expect(guards('POST', '/api/billing/webhook')).toEqual([]);
  });

  it('leaves no candidate, and no missing auth guard but on the route registered before it', () => {
    expect(res.routes.flatMap((r) => r.guards.filter((g) => g.kinds.includes('unknown')))).toEqual([]);
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual(['src/index.ts:12 missing-auth-guard GET /api/mcp/manifest has no auth guard']);
  });
});
