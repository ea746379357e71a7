// Learned from a public Express server (crowd.dev's backend): its `authMiddleware`, applied to
// every route, only fills `req.currentUser` — it starts `const isTokenEmpty = (!authorization ||
// !authorization.startsWith('Bearer ')) && !(req.cookies && req.cookies.__session) &&
// !req.query.crowdToken; if (isTokenEmpty) { next(); return }`. A test written straight into the
// `if` (`if (!token) return next()`) was read as optional authentication, but not one held by a
// local, nor a conjunction: the middleware was taken for an auth guard of every route, the
// sign-in's included. A local holding the test is now read for its test (when never assigned
// again), and `a && b` is a test of what the request lacks when both are. Its request logger,
// bunyan-middleware, was a candidate guard on every route. Its handlers' own checks end with
// `await req.responseHandler.error(req, res, new Error403()); return`, a method of the instance
// a middleware puts on every request (`req.responseHandler = new ApiResponseHandler(req)`),
// which nothing resolved: the check was no guard.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-optional-auth-by-carriers');

describe('learned: optional authentication decided by a local testing every carrier', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] => res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);

  it('lists the routes mounted through the shared router', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /admin/jobs src/server.ts:25',
      'GET /auth/me src/api/auth/index.ts:10',
      'GET /auth/preferences src/api/auth/index.ts:19',
      'GET /auth/profile src/api/auth/index.ts:17',
      'POST /auth/sign-in src/api/auth/index.ts:4',
      'GET /member src/api/member/index.ts:4',
      'GET /support/tickets src/server.ts:29',
    ]);
  });

  it('reads a middleware that hands on a request carrying no token anywhere as no auth guard', () => {
    expect(guards('GET', '/member')).toEqual([]);
    expect(guards('POST', '/auth/sign-in')).toEqual([]);
    // (the handler's own check is the guard)
    expect(guards('GET', '/auth/me')).toEqual(['(inline 401 check):auth']);
  });

  it('keeps a guard whose pass-through also needs something else, or whose local is assigned again', () => {
    // `!req.headers.authorization && req.method === 'OPTIONS'`: only preflights pass
    expect(guards('GET', '/admin/jobs')).toEqual(['adminAuth:auth+bearer+family']);
    // `let skip = …; if (req.query.escalated === '1') skip = false`
    expect(guards('GET', '/support/tickets')).toEqual(['supportAuth:auth+bearer']);
  });

  it('reads a signed-in check answered by a method of an instance a middleware put on the request', () => {
    // `await req.responseHandler.error(req, res, new Forbidden(…)); return` of
    // `req.responseHandler = new ApiResponseHandler(req)`, whose error() writes the response
    expect(guards('GET', '/auth/profile')).toEqual(['(inline signed-in check):auth']);
    // (`await req.usage.anonymous(req, res); return`: UsageTracker's method answers nothing)
    expect(guards('GET', '/auth/preferences')).toEqual([]);
  });

  it('knows bunyan-middleware for a request logger, no candidate guard', () => {
    expect(res.routes.flatMap((r) => r.guards.filter((g) => g.kinds.includes('unknown')))).toEqual([]);
  });

  it('reports the routes the optional middleware leaves without an auth guard', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      'src/api/auth/index.ts:4 missing-auth-guard POST /auth/sign-in has no auth guard',
      'src/api/auth/index.ts:19 missing-auth-guard GET /auth/preferences has no auth guard',
      'src/api/member/index.ts:4 missing-auth-guard GET /member has no auth guard',
    ]);
  });
});
