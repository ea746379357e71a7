// Learned from Flood (jesec/flood, its Fastify server): the admin scope runs `requireAdmin` and then
// `addHook('preHandler', async (_req, _reply) => { if (config.authMethod === 'none') throw new
// NotFoundError(); })`. A Fastify hook of two parameters that never names its request, and names
// its reply only to answer, refuses by a setting of the server, whoever calls: no guard, and no
// "unclassified middleware that may be one" on every admin route. A hook reading what the request
// names (the feed's owner against the signed-in user) stays a candidate.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'fastify-server-state-hooks');

describe('learned: Fastify hooks answering 404 for a setting of the server', async () => {
  const res = await check(DIR);

  it('lists every route with its plugin prefixes', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/feeds/:id src/routes/api.ts:38',
      'POST /api/torrents/add-urls src/routes/api.ts:46',
      'GET /api/users src/routes/api.ts:23',
      'DELETE /api/users/:username src/routes/api.ts:25',
    ]);
  });

  it('counts the hooks reading nothing of the request, thrown or answered through the reply, as no guard', () => {
    expect(guardLines(res, 'GET', '/api/users')).toEqual([
      'authenticateHook:auth:router.use:src/routes/api.ts:12',
      'requireAdmin:family:router.use:src/routes/api.ts:16',
    ]);
    expect(guardLines(res, 'POST', '/api/torrents/add-urls')).toEqual(['authenticateHook:auth:router.use:src/routes/api.ts:12']);
  });

  it('keeps a hook comparing what the request names as a candidate', () => {
    expect(guardLines(res, 'GET', '/api/feeds/:id')).toEqual([
      'authenticateHook:auth:router.use:src/routes/api.ts:12',
      '(inline middleware):unknown:router.use:src/routes/api.ts:33',
    ]);
  });

  it('names no unclassified middleware on the routes behind the setting hooks', () => {
    expect(res.findings.filter((f) => f.file === 'src/routes/api.ts').map((f) => `${f.ruleId} ${f.line} ${f.message}`)).toEqual([
      'missing-tenant-guard 23 GET /api/users has no tenant guard',
      'uncontracted-route 23 GET /api/users is on the browser surface but not in the contract',
      'missing-csrf-guard 25 DELETE /api/users/:username changes state on the browser session without a CSRF guard',
      'missing-tenant-guard 25 DELETE /api/users/:username has no tenant guard',
      'uncontracted-route 25 DELETE /api/users/:username is on the browser surface but not in the contract',
      'missing-tenant-guard 38 GET /api/feeds/:id has no tenant guard (unclassified middleware that may be one: (inline middleware); declare it in guards.tenant or guards.ignore)',
      'uncontracted-route 38 GET /api/feeds/:id is on the browser surface but not in the contract',
      'missing-csrf-guard 46 POST /api/torrents/add-urls changes state on the browser session without a CSRF guard',
      'missing-tenant-guard 46 POST /api/torrents/add-urls has no tenant guard',
      'uncontracted-route 46 POST /api/torrents/add-urls is on the browser surface but not in the contract',
    ]);
  });
});
