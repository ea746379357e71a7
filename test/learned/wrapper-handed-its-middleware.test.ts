// Learned from a public Next.js App Router server (inbox-zero): every route is wrapped by one
// function, `withMiddleware(handler, middleware?)`, which runs the middleware it is handed (if
// any) inside an audit context's callback, then the handler, and answers what the handler throws
// from its `catch` (a provider's expired grant as a 401).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const RULES = path.join(ROOT, 'fixtures', 'rules', 'missing-auth-guard');

describe('learned: route wrappers handed the middleware they run', async () => {
  const handed = await check(path.join(RULES, 'valid', 'wrapper-handed-its-middleware'));
  const bare = await check(path.join(RULES, 'invalid', 'wrapper-catch-answers-for-the-handler'));
  const guards = (res: typeof handed): string[] => res.routes.map((r) => `${r.method} ${r.path}: ${r.guards.map((g) => `${g.name} (${g.kinds.join('+')}) ${g.file}:${g.line}`).join(', ')}`);

  it('names the middleware each wrapper is handed, through the one it calls first (also under a wrapper named for a family)', () => {
    expect(guards(handed)).toEqual([
      'GET /api/admin/top-senders: withAdmin (family) app/api/admin/top-senders/route.ts:4, sessionMiddleware (auth) utils/middleware.ts:56',
      'GET /api/user/me: sessionMiddleware (auth) utils/middleware.ts:21',
      'GET /api/user/stats: sessionMiddleware (auth) utils/middleware.ts:46',
      'GET /api/v1/usage: withPartner (auth) app/api/v1/usage/route.ts:4',
    ]);
    expect(handed.routes[2]!.guards[0]!.reason).toBe(
      'by name (auth); by behaviour (ends the request with 401), in emailAccountMiddleware(), which the handler hands the request to and answers with what it returns',
    );
  });

  it('takes the 401 its `catch` answers for the handler for no check, nor the wrapper for a candidate', () => {
    expect(guards(bare)).toEqual(['GET /api/unsubscribe: ', 'GET /api/user/settings: ']);
  });
});
