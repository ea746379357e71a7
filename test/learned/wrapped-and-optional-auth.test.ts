// Learned from a public Express server: every middleware is wrapped in an in-code asyncHandler(),
// one passport factory makes both strict and optional ("loose") authentication, and the handler
// modules are imported under the name `auth` even for checks that are not authentication.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'wrapped-and-optional-auth');

describe('learned: wrapped middleware and optional authentication', async () => {
  const res = await check(DIR);
  const guards = (method: string, p: string): string[] =>
    res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);

  it('lists every route with its prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/links/ src/routes/links.js:9',
      'DELETE /api/links/admin/:id src/routes/links.js:25',
      'GET /api/links/public/:id src/routes/links.js:14',
      'POST /api/links/report src/routes/links.js:20',
    ]);
  });

  it('sees through asyncHandler(auth.jwt) to the guard it wraps', () => {
    expect(guards('GET', '/api/links/')).toEqual(['auth.jwt:auth']);
    expect(guards('DELETE', '/api/links/admin/:id')).toEqual(['auth.jwt:auth', 'auth.admin:auth+family']);
  });

  it('treats a factory-made middleware whose arguments turn off its 401 as optional authentication, not a guard', () => {
    // apikey and jwtLoose are authenticate(…, false): `if (!user && isStrict)` never throws.
    expect(guards('GET', '/api/links/public/:id')).toEqual([]);
    expect(guards('GET', '/api/links/')).not.toContain('auth.apikey:auth+bearer');
  });

  it('does not call auth.featureAccess an auth guard because of the module it is read from', () => {
    expect(guards('POST', '/api/links/report')).toEqual(['auth.featureAccess:unknown']);
  });

  it('reports the missing auth guard on the optional-auth and feature-flag routes only', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/routes/links.js:14 GET /api/links/public/:id has no auth guard',
      'src/routes/links.js:20 POST /api/links/report has no auth guard (unclassified middleware that may be one: auth.featureAccess; declare it in guards.auth or guards.ignore)',
    ]);
  });
});
