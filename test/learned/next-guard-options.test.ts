// Learned from a public Next.js App Router server: every handler starts with one shared
// parseRequest(request, schema, options) that answers 401 unless `{ skipAuth: true }` is passed.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'next-guard-options');

describe('learned: an in-handler guard turned off by its options argument', async () => {
  const res = await check(DIR);

  it('lists both route handlers', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/config src/app/api/config/route.ts:3',
      'GET /api/websites src/app/api/websites/route.ts:6',
    ]);
  });

  it('counts parseRequest(request, schema) as authentication', () => {
    expect(res.routes[1]!.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`)).toEqual(['parseRequest:auth:in-handler']);
  });

  it('does not count parseRequest(request, null, { skipAuth: true }): its 401 sits under `if (!options?.skipAuth …)`', () => {
    expect(res.routes[0]!.guards).toEqual([]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/app/api/config/route.ts:3 GET /api/config has no auth guard',
    ]);
  });
});
