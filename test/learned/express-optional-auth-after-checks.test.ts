// Learned from a public Express gateway (erxes's `backend/gateway`): its `userMiddleware`, applied
// to every route, answers 400 to a malformed request and 500 when the tenant's database fails,
// 401 only to an app token it is sent that it does not know (`if (appToken) { … }`), and hands on
// a request carrying no token (`const token = bearerToken || req.cookies['auth-token']; if
// (!token) { …; return next(); }`). That test was read only before any other statement, so the
// 401 made the middleware the auth guard of every route — its queue dashboard (@bull-board, no
// authentication of its own) included. Statements a request carrying no credential goes past
// are now read: an `if` it does not enter (its test needs a value read from the request's
// headers, cookies or query), or one refusing nothing for a missing credential (no 401 or 403,
// no call named for a check or handed the response), the test after them one of a credential's
// place — not a switch of the server's a local holds (AnythingLLM's `flexUserRoleValid`).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-optional-auth-after-checks');

describe('learned: optional authentication decided after checks an anonymous request goes past', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] => res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);

  it('lists the routes', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /health src/server.ts:23',
      'GET /internal/reindex src/server.ts:34',
      'GET /me src/server.ts:27',
      'ALL /queues src/server.ts:21',
      'GET /reports src/server.ts:38',
      'GET /staff/tenants src/routes/staff.ts:5',
    ]);
  });

  it('reads the middleware handing on a request without a token as no auth guard', () => {
    expect(guards('ALL', '/queues')).toEqual([]);
    expect(guards('GET', '/health')).toEqual([]);
    expect(guards('GET', '/me')).toEqual(['(inline 401 check):auth']);
  });

  it('keeps a guard that requires what it checks when sent, and one refusing before its test of a missing key', () => {
    // `if (header) { …401 when it does not verify… } if (!req.staff) return res.status(401)…`
    expect(guards('GET', '/staff/tenants')).toEqual(['requireStaff:auth+bearer+family']);
    // `if (req.path.startsWith('/internal') && !key) return res.status(401)…; if (!key) return next()`
    expect(guards('GET', '/internal/reindex')).toEqual(['apiKey:auth+bearer']);
    // past `if (roles.includes('all')) { next(); return; }`, `if (!multiUser) { next(); return; }`
    // tests a switch of the server's a local holds (AnythingLLM's `flexUserRoleValid`), no credential
    expect(guards('GET', '/reports')).toEqual(['flexRoleValid:auth']);
  });

  it('reports the queue dashboard without an auth guard', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      'src/server.ts:21 missing-auth-guard ALL /queues has no auth guard',
      'src/server.ts:23 missing-auth-guard GET /health has no auth guard',
    ]);
  });
});
