// Learned from a public Koa (koa-router) identity server whose route handlers all end
// `return next()` (for the response-checking middleware around them):
// - a handler that refuses a suspended user with a 401 of its own, then answers and hands on,
//   was read as a guard layer for later routes and its route dropped without a word;
// - a handler whose answer is written by a function it hands the context to, then hands on,
//   was dropped the same way.
// A registration whose only function is a guard handing on stays a layer, not a route.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'koa-routes-handing-on');

describe('learned: Koa routes that answer and then hand on', async () => {
  const res = await check(DIR);

  it('lists every route a handler serves, whatever it checked before handing on', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'POST /interaction/submit src/routes/interaction.ts:8',
      'GET /me src/routes/me.ts:14',
      'GET /me/custom-data src/routes/me.ts:21',
      'PATCH /me/custom-data src/routes/me.ts:30',
      'GET /operator/jobs src/routes/jobs.ts:10',
    ]);
  });

  it('puts the routes behind the router middleware', () => {
    expect(guardLines(res, 'GET', '/me/custom-data')).toEqual(['koaAuth:auth+bearer:router.use:src/app.ts:14']);
    expect(guardLines(res, 'PATCH', '/me/custom-data')).toEqual(['koaAuth:auth+bearer:router.use:src/app.ts:14']);
  });

  it('keeps a guard registered alone on a path as a layer in front of the route after it', () => {
    expect(guardLines(res, 'GET', '/operator/jobs')).toEqual(['requireOperator:auth+family:pass-through-route:src/routes/jobs.ts:8']);
  });
});
