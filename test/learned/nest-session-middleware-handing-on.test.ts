// Learned from a public NestJS server (runtipi's backend): its `AuthMiddleware`, applied to every
// route (`consumer.apply(AuthMiddleware).forRoutes('*all')`), only puts the user a session or a
// CLI token names on the request — every way out is `return next()`, its token verified in a
// `try` whose `catch` hands on too. A `try` whose block left with `return next()` was not read as
// handing on, nor was `Number(userId)` a conversion: the middleware, named for auth, was the auth
// guard of every route, hiding the controller that has no guard at all (its user-config routes).
// A `try` whose blocks hand the request on and leave is read so now, what a call in its block
// throws let go by a `catch` that goes on (a call handed the request, which may answer it, is
// still judged when linked).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'nest-session-middleware-handing-on');

describe('learned: a Nest middleware named for auth that hands every request on', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] => res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);

  it('lists the controllers under the global prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'POST /api/auth/login src/modules/auth/auth.controller.ts:7',
      'GET /api/auth/me src/modules/auth/auth.controller.ts:12',
      'GET /api/links src/modules/links/links.controller.ts:5',
      'GET /api/user-config/:urn src/modules/user-config/user-config.controller.ts:7',
      'PUT /api/user-config/:urn src/modules/user-config/user-config.controller.ts:12',
    ]);
  });

  it('reads the middleware as no guard, and the guard a controller applies as the one', () => {
    expect(guards('POST', '/api/auth/login')).toEqual([]);
    expect(guards('GET', '/api/auth/me')).toEqual(['AuthGuard:auth']);
    expect(guards('GET', '/api/user-config/:urn')).toEqual([]);
  });

  it("keeps a middleware whose `catch` refuses for a guard", () => {
    expect(guards('GET', '/api/links')).toEqual(['StrictTokenMiddleware:auth+bearer']);
  });

  it('reports the routes no guard reaches', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      'src/modules/auth/auth.controller.ts:7 missing-auth-guard POST /api/auth/login has no auth guard',
      'src/modules/user-config/user-config.controller.ts:7 missing-auth-guard GET /api/user-config/:urn has no auth guard',
      'src/modules/user-config/user-config.controller.ts:12 missing-auth-guard PUT /api/user-config/:urn has no auth guard',
    ]);
  });
});
