// Learned from a public NestJS server: `AuthGuard('jwt')` authenticates with the passport
// strategy class registered as 'jwt'; when that strategy reads its token from the Authorization
// header (`ExtractJwt.fromAuthHeaderAsBearerToken()`), no browser sends the credential by itself,
// and a mutation behind it needs no CSRF guard. A strategy that may read a cookie keeps it needed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type RunResult } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'nest-bearer-passport-strategy');

const guards = (res: RunResult, method: string, p: string): string[] =>
  res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`);
const csrfFindings = (res: RunResult): string[] => res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => `${f.file}:${f.line}`);

describe('learned: passport strategies that read a bearer credential', async () => {
  const res = await check(DIR);

  it('lists the five routes under the global prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'POST /api/projects src/projects/projects.controller.ts:13',
      'DELETE /api/projects/:id src/projects/projects.controller.ts:27',
      'PATCH /api/projects/:id src/projects/projects.controller.ts:20',
      'POST /api/projects/:id/deploy src/projects/projects.controller.ts:41',
      'POST /api/projects/:id/deploy-keys src/projects/projects.controller.ts:34',
    ]);
  });

  it("counts AuthGuard('jwt') as bearer auth, directly and as a guard class's base, naming the strategy", () => {
    expect(guards(res, 'POST', '/api/projects')).toEqual(['AuthGuard:auth+bearer']);
    expect(guards(res, 'POST', '/api/projects/:id/deploy-keys')).toEqual(['CliTokenGuard:auth+bearer']);
    const reason = res.routes.find((r) => r.path === '/api/projects' && r.method === 'POST')!.guards[0]!.reason;
    expect(reason).toBe(
      "authentication from @nestjs/passport, with a credential no browser sends by itself: strategy 'jwt' (JwtStrategy at src/auth/jwt.strategy.ts:13) reads the Authorization header",
    );
  });

  it("counts the API-key strategy under its package's default name as bearer auth", () => {
    expect(guards(res, 'POST', '/api/projects/:id/deploy')).toEqual(['AuthGuard:auth+bearer']);
  });

  it('keeps auth alone when a named strategy may read a cookie, alone or among others', () => {
    expect(guards(res, 'DELETE', '/api/projects/:id')).toEqual(['SessionGuard:auth']);
    expect(guards(res, 'PATCH', '/api/projects/:id')).toEqual(['AuthGuard:auth']);
  });

  it('asks a CSRF guard only of the mutations a cookie authenticates', () => {
    expect(csrfFindings(res)).toEqual(['src/projects/projects.controller.ts:20', 'src/projects/projects.controller.ts:27']);
  });

  it('check --cache: a strategy edited to read a cookie makes its routes need a CSRF guard again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-strategy-'));
    fs.cpSync(DIR, dir, { recursive: true });
    expect(csrfFindings(await run({ cwd: dir, paths: [], cache: true }))).toEqual(csrfFindings(res));
    const file = path.join(dir, 'src/auth/jwt.strategy.ts');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace('ExtractJwt.fromAuthHeaderAsBearerToken()', "(req: { cookies?: Record<string, string> }) => req.cookies?.['cli_token'] ?? null");
    expect(edited).not.toBe(text);
    fs.writeFileSync(file, edited);
    const warm = await run({ cwd: dir, paths: [], cache: true });
    expect(formatJson(warm)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
    expect(csrfFindings(warm)).toEqual([
      'src/projects/projects.controller.ts:13',
      'src/projects/projects.controller.ts:20',
      'src/projects/projects.controller.ts:27',
      'src/projects/projects.controller.ts:34',
    ]);
  });
});
