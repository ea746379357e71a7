// Learned from vercel/ai-chatbot (a Next.js App Router app on NextAuth v5): its API route handlers
// check the session and answer through an error class of their own — `const session = await
// auth(); if (!session?.user) return new ChatSDKError('unauthorized:chat').toResponse();` — whose
// `toResponse()` makes the Response (`Response.json(…, { status })`). A branch ending in a call
// was read as ending the request only when the call was handed the request or the response, so
// the check was not read: 10 of its 12 API routes outside /api/auth were reported without an
// auth guard. A route handler answers with the Response it returns: the returned call ends the
// request when the function it calls answers (judged when linked), and not when it answers
// nothing of its own.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'next-signed-in-check-returning-error-response');

describe('learned: a signed-in check whose branch returns a call that makes the Response', async () => {
  const res = await check(DIR);

  it('lists the route handlers', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/export app/api/export/route.ts:7',
      'GET /api/history app/api/history/route.ts:6',
      'PATCH /api/vote app/api/vote/route.ts:5',
    ]);
  });

  it("reads `return new AppError('unauthorized:…').toResponse()` on no signed-in user as the handler's sign-in check", () => {
    expect(guardLines(res, 'GET', '/api/history')).toEqual(['(inline signed-in check):auth:in-handler:app/api/history/route.ts:13']);
    expect(guardLines(res, 'PATCH', '/api/vote')).toEqual(['(inline signed-in check):auth:in-handler:app/api/vote/route.ts:12']);
  });

  it('reads no check where the call returned answers nothing of its own', () => {
    expect(guardLines(res, 'GET', '/api/export')).toEqual([]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'app/api/export/route.ts:7 GET /api/export has no auth guard',
    ]);
  });
});
