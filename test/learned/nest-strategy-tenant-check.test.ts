// Learned from a public NestJS server (docmost): each workspace is served on a subdomain of its
// own, a middleware finds the workspace the hostname names, and the passport strategy behind
// `AuthGuard('jwt')` refuses a token of another workspace in its `validate` (`if
// (req.raw.workspaceId && req.raw.workspaceId !== payload.workspaceId) throw new
// UnauthorizedException('Workspace does not match')`): the tenant boundary of every route the
// guard covers. A strategy whose `validate` compares no tenant leaves the guard auth only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type RunResult } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'nest-strategy-tenant-check');

const guards = (res: RunResult): string[] => res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`);
const tenantFindings = (res: RunResult): string[] => res.findings.filter((f) => f.ruleId === 'missing-tenant-guard').map((f) => `${f.file}:${f.line} ${f.message}`);

describe('learned: a passport strategy refusing a token of another tenant', async () => {
  const res = await check(DIR);

  it("lists the seven routes under the global prefix, with the strategy's tenant check on the guards naming it", () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'POST /api/auth/login src/auth/auth.controller.ts:11',
      'POST /api/auth/profile src/auth/auth.controller.ts:25',
      'POST /api/auth/refresh src/auth/auth.controller.ts:19',
      'POST /api/pages/info src/pages/pages.controller.ts:13',
      'POST /api/pages/update src/pages/pages.controller.ts:19',
      'GET /api/spaces src/spaces/spaces.controller.ts:7',
      'GET /api/spaces/recent src/spaces/spaces.controller.ts:14',
    ]);
    expect(guards(res)).toEqual([
      'POST /api/auth/login ',
      'POST /api/auth/profile JwtAuthGuard:auth+tenant',
      'POST /api/auth/refresh RefreshGuard:auth',
      'POST /api/pages/info JwtAuthGuard:auth+tenant',
      'POST /api/pages/update JwtAuthGuard:auth+tenant',
      'GET /api/spaces AuthGuard:auth+tenant',
      'GET /api/spaces/recent AuthGuard:auth',
    ]);
  });

  it('says which strategy checks the tenant, for a guard class whose canActivate hands the request to its base and for AuthGuard itself', () => {
    const reason = (p: string): string => res.routes.find((r) => r.path === p)!.guards[0]!.reason;
    expect(reason('/api/pages/info')).toBe("by name (auth); strategy 'jwt' (JwtStrategy at src/auth/jwt.strategy.ts:13) refuses a token of another tenant than the request's");
    expect(reason('/api/spaces')).toBe("authentication from @nestjs/passport; strategy 'jwt' (JwtStrategy at src/auth/jwt.strategy.ts:13) refuses a token of another tenant than the request's");
  });

  it('reports the routes no strategy of theirs checks the tenant for: the public sign-in, the refresh token, a list of strategies one of which takes any workspace', () => {
    expect(tenantFindings(res)).toEqual([
      'src/auth/auth.controller.ts:11 POST /api/auth/login has no tenant guard',
      'src/auth/auth.controller.ts:19 POST /api/auth/refresh has no tenant guard',
      'src/spaces/spaces.controller.ts:14 GET /api/spaces/recent has no tenant guard',
    ]);
  });

  it('check --cache: the strategy edited to compare no workspace leaves its guards auth only', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-strategy-tenant-'));
    fs.cpSync(DIR, dir, { recursive: true });
    expect(tenantFindings(await run({ cwd: dir, paths: [], cache: true }))).toEqual(tenantFindings(res));
    const file = path.join(dir, 'src/auth/jwt.strategy.ts');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace('req.raw.workspaceId && req.raw.workspaceId !== payload.workspaceId', '!req.raw.workspaceId');
    expect(edited).not.toBe(text);
    fs.writeFileSync(file, edited);
    const warm = await run({ cwd: dir, paths: [], cache: true });
    expect(formatJson(warm)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
    expect(tenantFindings(warm)).toEqual([
      'src/auth/auth.controller.ts:11 POST /api/auth/login has no tenant guard',
      'src/auth/auth.controller.ts:19 POST /api/auth/refresh has no tenant guard',
      'src/auth/auth.controller.ts:25 POST /api/auth/profile has no tenant guard',
      'src/pages/pages.controller.ts:13 POST /api/pages/info has no tenant guard',
      'src/pages/pages.controller.ts:19 POST /api/pages/update has no tenant guard',
      'src/spaces/spaces.controller.ts:7 GET /api/spaces has no tenant guard',
      'src/spaces/spaces.controller.ts:14 GET /api/spaces/recent has no tenant guard',
    ]);
  });
});
