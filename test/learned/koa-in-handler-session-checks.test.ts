// Learned from a public Koa (koa-router) API-management server whose handlers do their own
// checks and answer refusals with a 200 error body, not a 401:
// - `if (!ctx.session.id) { ctx.body = …; return }` (also `throw` inside a leading `try`);
// - `if (!await AccessUtils.canUserAccess(type, ctx.session.id, id)) { …; return }`, a static
//   method that starts by returning false when neither a user nor a token is given — also as
//   `const access = await …; if (access === false) …`, and after parameter checks and a lookup;
// - a route function that does the work and calls next() before a logging function: the
//   checks it starts with run before anything after it;
// - koa-generic-session establishes a session; it authenticates nobody.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'koa-in-handler-session-checks');

describe('learned: Koa handlers that check the session user themselves', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] => guardLines(res, method, p);

  it('lists the routes the route modules register on the shared router', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/account/info src/routes/account.ts:4',
      'GET /api/account/logger src/routes/account.ts:25',
      'POST /api/account/updateAccount src/routes/account.ts:10',
      'GET /api/document/:repositoryId src/routes/repository.ts:73',
      'GET /api/interface/get src/routes/repository.ts:42',
      'GET /api/interface/remove src/routes/repository.ts:60',
      'POST /api/repository/create src/routes/repository.ts:28',
      'GET /api/repository/get src/routes/repository.ts:8',
      'GET /api/repository/list src/routes/repository.ts:17',
      'POST /api/repository/unlock src/routes/repository.ts:33',
      'GET /api/status src/routes/router.ts:5',
    ]);
  });

  it('does not count the session, body-parsing or response-shaping middleware as guards', () => {
    expect(guards('GET', '/api/status')).toEqual([]);
  });

  it('sees a leading check that ends the request when there is no session user, whatever the status', () => {
    expect(guards('POST', '/api/repository/unlock')).toEqual(['(inline signed-in check):auth:in-handler:src/routes/repository.ts:34']);
    expect(guards('POST', '/api/account/updateAccount')).toEqual(['(inline signed-in check):auth:in-handler:src/routes/account.ts:13']);
  });

  it('does not count an optional read of the session, nor a check that does not end the request', () => {
    expect(guards('GET', '/api/account/info')).toEqual([]);
    expect(guards('GET', '/api/account/logger')).toEqual([]);
  });

  it('sees an access check that refuses a request with neither a user nor a token', () => {
    expect(guards('GET', '/api/repository/get')).toEqual(['AccessUtils.canUserAccess:auth:in-handler:src/routes/repository.ts:9']);
    expect(guards('GET', '/api/interface/get')).toEqual(['AccessUtils.canUserAccess:auth:in-handler:src/routes/repository.ts:53']);
  });

  it('reads the checks of a route function that calls next() before the last one', () => {
    expect(guards('GET', '/api/interface/remove')).toEqual(['AccessUtils.canUserAccess:auth:in-handler:src/routes/repository.ts:62']);
  });

  it('does not count an access check that lets public records through first, nor one made only for some requests', () => {
    expect(guards('GET', '/api/document/:repositoryId')).toEqual([]);
    expect(guards('GET', '/api/repository/list')).toEqual([]);
  });

  it('still classifies a named middleware by its name', () => {
    expect(guards('POST', '/api/repository/create')).toEqual(['isLoggedIn:auth:route-middleware:src/routes/repository.ts:28']);
  });
});
