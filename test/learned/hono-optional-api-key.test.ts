// Learned from a public Hono server: a global API-key middleware made with hono/factory's
// createMiddleware() that lets requests without an Authorization header through (optional
// authentication, not a guard), and handlers that reject with `throw createUnauthorizedError()`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'hono-optional-api-key');

describe('learned: optional API-key middleware and error-factory 401s', async () => {
  const res = await check(DIR);

  it('lists the routes with their mounts', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/api-keys src/routes/keys.ts:15',
      'GET /api/api-keys/current src/routes/keys.ts:7',
      'GET /api/health src/index.ts:8',
    ]);
  });

  it('does not count the pass-through API-key middleware as a guard, even though its name says API key', () => {
    expect(res.routes.find((r) => r.path === '/api/health')!.guards).toEqual([]);
  });

  it('sees 401s thrown through an error factory, in a middleware and in a handler', () => {
    expect(res.routes.map((r) => r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`))).toEqual([
      ['requireUser:auth:route-middleware'],
      // (the handler refuses unless `c.get('apiKey')`, the key the middleware took from the Authorization header: a bearer credential)
      ['(inline 401 check):auth+bearer:in-handler'],
      [],
    ]);
  });
});
