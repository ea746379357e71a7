// Learned from a public Express server (chatgpt-web's service): its `auth` middleware checks the
// bearer secret only under `if (isNotEmptyString(AUTH_SECRET_KEY)) { … } else { next() }`, the key
// read from the environment into a local first. Only a switch handing the request on first
// (`if (!config.authEnabled) return next()`) was read, and only one reading no local: the guard
// was taken to apply always. A check under a switch of the server's own (a branch with an `if`,
// a `try` or a middleware handed the request, as uptime-kuma's metrics gate makes
// express-basic-auth's unless its `disableAuth` setting is on), with `else { next() }` or `next()`
// alone after it, now applies only where the switch holds: decided when it can be (a constant),
// else named in the findings. A refusal written under the test itself, `if (!currentSession())
// return c.json(…, 401)`, stays a check (test/learned/hono-server-state-gates.test.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-auth-switched-on-by-config');
const INDEX = 'service/src/index.ts';

describe('learned: a guard checking only when a setting switches it on', async () => {
  const res = await check(DIR);
  const details = (method: string, p: string): string[] => {
    const r = res.routes.find((x) => x.method === method && x.path === p)!;
    return [...r.guards, ...(r.conditionalGuards ?? [])].map((g) => `${g.name}:${g.kinds.join('+')}${g.when ? ` when ${g.when}` : ''}`);
  };

  it('reads the guard as applied only where the switch holds, with `else { next() }` or `next()` after it', () => {
    expect(details('POST', '/api/chat-process')).toEqual(['auth:auth+bearer when isNotEmptyString(AUTH_SECRET_KEY)']);
    expect(details('POST', '/api/config')).toEqual(['auth:auth+bearer when isNotEmptyString(AUTH_SECRET_KEY)']);
    expect(details('POST', '/api/ops/reload')).toEqual(['requireOpsToken:auth+bearer when settings.opsTokenRequired']);
    expect(details('GET', '/metrics')).toEqual(["metricsGate:auth when !(await settings.get('disableAuth'))"]);
    expect(details('POST', '/api/session')).toEqual([]);
  });

  it('decides a switch known statically: a constant that always turns the check on leaves a guard', () => {
    expect(details('GET', '/api/exports')).toEqual(['requireExportToken:auth+bearer']);
    expect(res.routes.find((r) => r.path === '/api/exports')!.guards.map((g) => g.name)).toEqual(['requireExportToken']);
  });

  it('names the switched guard in the findings of the routes it may not guard', () => {
    expect(findingLines(res).filter((l) => l.includes('missing-auth-guard'))).toEqual([
      `${INDEX}:12 missing-auth-guard POST /api/chat-process has no auth guard (auth is one, but applied only when \`isNotEmptyString(AUTH_SECRET_KEY)\`, which is not known statically: ${INDEX}:12)`,
      `${INDEX}:18 missing-auth-guard POST /api/config has no auth guard (auth is one, but applied only when \`isNotEmptyString(AUTH_SECRET_KEY)\`, which is not known statically: ${INDEX}:18)`,
      `${INDEX}:22 missing-auth-guard POST /api/session has no auth guard`,
      `${INDEX}:35 missing-auth-guard GET /metrics has no auth guard (metricsGate is one, but applied only when \`!(await settings.get('disableAuth'))\`, which is not known statically: ${INDEX}:35)`,
    ]);
  });
});
