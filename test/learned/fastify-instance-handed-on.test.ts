// Learned from a public Fastify help-desk server: the app is handed to `registerRoutes(server)`,
// which hands its own parameter on to one `xRoutes(fastify)` function per controller (routes are
// registered two calls away from the app, with no plugin in between), and one global preHandler
// hook authenticates every request except an allowlist written at its top
// (`if (request.url === '/api/v1/auth/login' && request.method === 'POST') return true;`).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'fastify-instance-handed-on');

describe('learned: an instance handed on through helper functions, and a global hook with an allowlist', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] => guardLines(res, method, p);

  it('lists the routes registered two calls away from the app, at their registrations', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET / src/main.ts:12',
      'GET /api/v1/auth/check src/controllers/auth.ts:21',
      'POST /api/v1/auth/login src/controllers/auth.ts:7',
      'GET /api/v1/ticket/:id src/controllers/tickets.ts:20',
      'GET /api/v1/ticket/public/create src/controllers/tickets.ts:12',
      'POST /api/v1/ticket/public/create src/controllers/tickets.ts:5',
      'GET /api/v1/tickets/open src/controllers/tickets.ts:16',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('applies the global hook to every route its allowlist does not name (a hook added after the routes still runs for them)', () => {
    expect(guards('GET', '/api/v1/tickets/open')).toEqual(['(inline middleware):auth+bearer:app.use:src/main.ts:17']);
    expect(guards('GET', '/')).toEqual(['(inline middleware):auth+bearer:app.use:src/main.ts:17']);
    expect(guards('GET', '/api/v1/auth/check')).toEqual(['(inline middleware):auth+bearer:app.use:src/main.ts:17']);
  });

  it('lets the allowlisted URL and method through: the public ticket form is unauthenticated, its GET twin is not allowlisted', () => {
    expect(guards('POST', '/api/v1/ticket/public/create')).toEqual([]);
    expect(guards('GET', '/api/v1/ticket/public/create')).toEqual(['(inline middleware):auth+bearer:app.use:src/main.ts:17']);
  });

  it('keeps the login handler\'s own password check once the hook lets it through', () => {
    expect(guards('POST', '/api/v1/auth/login')).toEqual(['(inline 401 check):auth:in-handler:src/controllers/auth.ts:14']);
  });
});
