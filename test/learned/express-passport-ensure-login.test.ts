// Learned from a public Express demo (madhums/node-express-mongoose-demo), written as Passport's
// guide writes its `ensureAuthenticated`: `if (req.isAuthenticated()) return next();` and then the
// redirect to the login page as the function's last statement, with no `return` before it. Only a
// refusal that returns had been read as one: its `requiresLogin` guarded nothing, and every
// route behind it was a missing-auth-guard error. Its `view-helpers` middleware (view locals, then
// `next()`) was named on each route as unclassified middleware that may be a guard.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-passport-ensure-login');
const ROUTES = 'config/routes.js';

describe('learned: a login check whose refusal is the last statement, without a return', async () => {
  const res = await check(DIR);

  it('reads it as authentication by what it does, on each route it is used on', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /articles [csrf: csrf]',
      'POST /articles [csrf: csrf, auth.requiresLogin: auth]',
      'DELETE /articles/:id [csrf: csrf, auth.requiresLogin: auth, auth.article.hasAuthorization: auth]',
      'GET /articles/:id [csrf: csrf]',
      'GET /articles/new [csrf: csrf, auth.requiresLogin: auth]',
      'GET /login [csrf: csrf]',
      'GET /logout [csrf: csrf]',
      'POST /users/session [csrf: csrf, pauth: auth]',
    ]);
    expect(res.routes.find((r) => r.path === '/articles/new')!.guards[1]!.reason).toBe('by behaviour (ends the request first when the request has no signed-in user)');
  });

  it('reports only the routes no login guards, naming no view-helpers middleware as a possible guard', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      `${ROUTES}:12 missing-auth-guard GET /login has no auth guard`,
      `${ROUTES}:14 missing-auth-guard GET /logout has no auth guard`,
      `${ROUTES}:17 missing-auth-guard GET /articles has no auth guard`,
      `${ROUTES}:20 missing-auth-guard GET /articles/:id has no auth guard`,
    ]);
  });
});
