// Learned from a public Koa wiki server: each authentication plugin reads its id from the
// plugin's own plugin.json (`import config from '../plugin.json'`, or `require`) and registers
// its routes under it (`router.get(config.id, …)`, `` router.get(`${config.id}.callback`, …) ``).
// The JSON files are read as data with the code that imports them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'koa-plugin-json-ids');

describe('learned: route paths read from an imported plugin.json', async () => {
  const res = await check(DIR);

  it('lists each plugin route under the id its plugin.json gives', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => g.name)}]`)).toEqual([
      'GET /auth/github plugins/github/server/github.ts:9 []',
      'GET /auth/github.callback plugins/github/server/github.ts:12 [checkProviderState]',
      // require('../plugin.json') and a nested object destructured from it
      'GET /auth/oidc plugins/oidc/server/oidc.ts:10 []',
      'GET /auth/oidc.callback plugins/oidc/server/oidc.ts:11 [checkProviderState]',
      'POST /auth/oidc.logout plugins/oidc/server/oidc.ts:16 []',
    ]);
  });

  it('analyses the imported JSON files with the sources, and leaves nothing unresolved', () => {
    expect(res.files).toEqual([
      'plugins/github/plugin.json',
      'plugins/github/server/github.ts',
      'plugins/oidc/plugin.json',
      'plugins/oidc/server/oidc.ts',
      'server/index.ts',
      'server/middlewares/provider-flow.ts',
      'server/routes/auth.ts',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route' || f.ruleId === 'parse-error')).toEqual([]);
  });
});
