// Learned from a public Fastify SaaS API (rcrdk/nextjs-fastify-saas-rbac, after Rocketseat's
// course): its `auth` plugin's preHandler hook only puts helpers on the request,
// `request.getCurrentUserId = async () => { try { … jwtVerify() … } catch { throw new
// UnauthorizedError(…) } }` and `request.getCurrentUserMembership`, and each handler that needs a
// user calls them. The 401 in those helpers was taken for the hook's own, so every route
// registering the plugin was guarded by it, the two that never call a helper too. A helper put
// on the request is now no refusal of the function putting it there (FunctionFact.installs), and
// a handler's leading call of it is judged as a call of that function.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'fastify-request-helpers-from-a-hook');
const ROUTES = 'src/http/routes';

describe('learned: helpers a Fastify hook puts on the request', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] =>
    res.routes.find((x) => x.method === method && x.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}:${g.file}:${g.line}`);

  it('takes the helpers, called at the top of a handler, for its checks', () => {
    expect(guards('GET', '/profile')).toEqual([`request.getCurrentUserId:auth:in-handler:${ROUTES}/get-profile.ts:8`]);
    expect(guards('GET', '/organizations/:slug/membership')).toEqual([`request.getCurrentUserMembership:auth:in-handler:${ROUTES}/get-membership.ts:8`]);
  });

  it('takes the hook that only puts them there for no guard: a route whose handler never calls one has none', () => {
    expect(guards('POST', '/organizations/:slug/domain')).toEqual([]);
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([`${ROUTES}/authorize-domain.ts:9 missing-auth-guard POST /organizations/:slug/domain has no auth guard`]);
  });
});
