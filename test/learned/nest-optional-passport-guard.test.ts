// Learned from a public NestJS server: an `AuthGuard('…')` subclass whose handleRequest()
// override returns the user without throwing is optional authentication, not an auth guard.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'nest-optional-passport-guard');

describe('learned: passport AuthGuard subclass that never rejects', async () => {
  const res = await check(DIR);
  const guards = (p: string): string[] => res.routes.find((r) => r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);

  it('lists both routes under the global prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/resume src/resume/resume.controller.ts:10',
      'GET /api/resume/public/:username/:slug src/resume/resume.controller.ts:16',
    ]);
  });

  it('keeps the plain passport guard as authentication', () => {
    expect(guards('/api/resume')).toEqual(['JwtGuard:auth']);
  });

  it('does not count the never-throwing handleRequest override as an auth guard', () => {
    // (nor as a candidate to declare: it is optional authentication, as passport-anonymous is)
    expect(guards('/api/resume/public/:username/:slug')).toEqual([]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line}`)).toEqual(['src/resume/resume.controller.ts:16']);
  });
});
