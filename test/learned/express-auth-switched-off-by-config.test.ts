// Learned from a public Express server (Z-Wave JS UI): its `isAuthenticated` starts `if
// (isTrustedRequest(req) || req?.session?.user || !isAuthEnabled()) return next()`, the last
// alternative a switch of the server's settings. It was read as optional authentication (a value
// missing, the request handed on) and dropped, so the missing-auth-guard findings named no
// candidate; a guard applied under such a condition at its registration is named. The switch is
// now the condition the guard applies under: decided when it can be (a constant), else named.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-auth-switched-off-by-config');
const APP = 'api/app.ts';

describe('learned: a guard its own settings switch off', async () => {
  const res = await check(DIR);
  const details = (method: string, p: string): string[] => {
    const r = res.routes.find((x) => x.method === method && x.path === p)!;
    return [...r.guards, ...(r.conditionalGuards ?? [])].map((g) => `${g.name}:${g.kinds.join('+')}${g.when ? ` when ${g.when}` : ''}`);
  };

  it('reads the guard as applied only where the switch does not hand the request on', () => {
    expect(details('GET', '/api/settings')).toEqual(['isAuthenticated:auth when isAuthEnabled()']);
    expect(details('POST', '/api/restart')).toEqual(['isAuthenticated:auth when isAuthEnabled()']);
  });

  it('decides a switch known statically: a constant that never turns the check off leaves a guard', () => {
    expect(details('GET', '/api/store/backup')).toEqual(['requireBackupLogin:auth']);
    expect(res.routes.find((r) => r.path === '/api/store/backup')!.guards.map((g) => g.name)).toEqual(['requireBackupLogin']);
  });

  it("decides a switch on a factory's parameter by the argument the factory's call passes", () => {
    expect(details('DELETE', '/api/nodes/:id')).toEqual(['requireLogin:auth']);
    expect(details('GET', '/api/nodes')).toEqual([]);
  });

  it('names the switched guard in the findings of the routes it may not guard', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      `${APP}:37 missing-auth-guard GET /api/settings has no auth guard (isAuthenticated is one, but applied only when \`isAuthEnabled()\`, which is not known statically: ${APP}:37)`,
      `${APP}:41 missing-auth-guard POST /api/restart has no auth guard (isAuthenticated is one, but applied only when \`isAuthEnabled()\`, which is not known statically: ${APP}:41)`,
      `${APP}:53 missing-auth-guard GET /api/nodes has no auth guard`,
    ]);
  });
});
