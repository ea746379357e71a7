// Learned from a public Express dashboard (bee-queue's Arena): its bulk job routes take handlers a
// factory makes per action, `bulkAction('remove')`, each opening with `if (!_.includes(ACTIONS,
// action)) res.status(401)…` — a test of the factory's own argument, the same for every request,
// which was read as an inline 401 check and hid that no route of the API asks who calls it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-handler-factory-checks');
const API = 'src/api/index.js';

describe('learned: a 401 on a test of what a handler factory was given', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] =>
    res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')} (${g.mechanism})`);

  it('lists every route', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      `DELETE /api/queues/:queueName ${API}:10`,
      `GET /api/queues/:queueName/export ${API}:9`,
      `PATCH /api/queues/:queueName/jobs/bulk ${API}:8`,
      `POST /api/queues/:queueName/jobs/bulk ${API}:7`,
    ]);
  });

  it('reads no auth check in a test of the factory’s argument against a list (lodash’s includes, a list’s indexOf)', () => {
    expect(guards('POST', '/api/queues/:queueName/jobs/bulk')).toEqual([]);
    expect(guards('PATCH', '/api/queues/:queueName/jobs/bulk')).toEqual([]);
    expect(guards('GET', '/api/queues/:queueName/export')).toEqual([]);
  });

  it('still reads the check of the signed-in user a factory’s handler makes', () => {
    expect(guards('DELETE', '/api/queues/:queueName')).toEqual(['(inline 401 check):auth (in-handler)']);
  });

  it('reports the routes no one is asked to sign in for', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      `${API}:7 missing-auth-guard POST /api/queues/:queueName/jobs/bulk has no auth guard`,
      `${API}:8 missing-auth-guard PATCH /api/queues/:queueName/jobs/bulk has no auth guard`,
      `${API}:9 missing-auth-guard GET /api/queues/:queueName/export has no auth guard`,
    ]);
  });
});
