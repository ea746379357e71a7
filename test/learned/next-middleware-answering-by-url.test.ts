// Learned from vercel/ai-chatbot: its Next.js `proxy.ts` (Next 16's name for middleware.ts)
// answers the load balancer's `/ping` itself, `if (pathname.startsWith('/ping')) return new
// Response('pong')`, lets `/api/auth` through, and redirects every other request without a
// session token to a guest sign-in. The reading of its leading checks ended at the `/ping`
// branch (a branch that serves some requests before a check leaves those unchecked), so the
// token check was not read and the proxy was an unclassified middleware on every route. A layer's
// own answers to requests by their URL alone keep those requests from every route after it: read
// as a layer, its checks go on past such a branch. A route handler's do not — they answer its
// route's requests unchecked — so a handler answering `?ping` before its session check is no guard.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'next-middleware-answering-by-url');

describe('learned: a Next.js middleware that answers requests by URL before its token check', async () => {
  const res = await check(DIR);

  it('lists the route handlers', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/auth/guest app/api/auth/guest/route.ts:4',
      'GET /api/projects app/api/projects/route.ts:5',
      'GET /api/status app/api/status/route.ts:7',
    ]);
  });

  it('reads the token check after the /ping answer as the middleware’s sign-in check', () => {
    expect(guardLines(res, 'GET', '/api/projects')).toEqual(['proxy:auth:next-middleware:proxy.ts:4']);
  });

  it('does not read a handler’s check past its own answer by URL', () => {
    expect(guardLines(res, 'GET', '/api/status')).toEqual(['proxy:auth:next-middleware:proxy.ts:4']);
  });

  it('still lets the allowlisted /api/auth through', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'app/api/auth/guest/route.ts:4 GET /api/auth/guest has no auth guard (proxy is one, but lets through untouched paths starting with /api/auth: proxy.ts:4)',
    ]);
  });
});
