// Learned from a public Express server (Gladys): one factory makes a middleware per scope,
// `AuthMiddleware(scope, gladys)` returning `asyncMiddleware(async (req, res, next) => …)`, whose
// check throws an error class named for its status by number (`throw new Error401(…)`) and hands
// the token to a session service (`gladys.session.validateAccessToken(token, scope)`).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'factory-wrapped-guards');
const ROUTES = 'server/api/setupRoutes.js';

describe('learned: a guard factory returning a wrapped middleware', async () => {
  const res = await check(DIR);
  const details = (method: string, p: string): string[] =>
    res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')} (${g.reason})`);

  it('lists every route of the router the app mounts', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      `GET /api/v1/house ${ROUTES}:15`,
      `POST /api/v1/house/:house_selector/disarm_with_code ${ROUTES}:16`,
      `GET /api/v1/ping ${ROUTES}:14`,
    ]);
  });

  it('reads the function the factory wraps, whatever name the middleware is bound to', () => {
    const byBehaviour = 'by behaviour (ends the request with 401; reads its credential from a request header only)';
    expect(details('GET', '/api/v1/house')).toEqual([`authMiddleware:auth+bearer (by name (auth); ${byBehaviour})`]);
    expect(details('POST', '/api/v1/house/:house_selector/disarm_with_code')).toEqual([`alarmMiddleware:auth+bearer (${byBehaviour})`]);
  });

  it('reports the unguarded ping and no CSRF finding for the bearer-guarded write', () => {
    expect(findingLines(res).filter((l) => l.startsWith(ROUTES))).toEqual([
      `${ROUTES}:14 missing-auth-guard GET /api/v1/ping has no auth guard`,
      `${ROUTES}:14 missing-tenant-guard GET /api/v1/ping has no tenant guard`,
      `${ROUTES}:14 uncontracted-route GET /api/v1/ping is on the browser surface but not in the contract`,
      `${ROUTES}:15 missing-tenant-guard GET /api/v1/house has no tenant guard`,
      `${ROUTES}:15 uncontracted-route GET /api/v1/house is on the browser surface but not in the contract`,
      `${ROUTES}:16 missing-tenant-guard POST /api/v1/house/:house_selector/disarm_with_code has no tenant guard`,
      `${ROUTES}:16 uncontracted-route POST /api/v1/house/:house_selector/disarm_with_code is on the browser surface but not in the contract`,
    ]);
  });
});
