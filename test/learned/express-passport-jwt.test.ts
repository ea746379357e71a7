// Learned from hagopj13/node-express-boilerplate (and the servers built from it, neb among the
// swept ones): `auth(...rights)` makes a middleware that hands its request, response and next to
// `passport.authenticate('jwt', { session: false }, cb)` inside a `new Promise(…)` executor, and
// `passport.use('jwt', jwtStrategy)` registers a passport-jwt strategy reading the token from the
// Authorization header. No browser sends that header by itself: the mutations behind `auth()`
// need no CSRF guard. A strategy reading a cookie keeps them needing one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type RunResult } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-passport-jwt');
const csrf = (res: RunResult): string[] => res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => `${f.file}:${f.line}`);

describe('learned: passport-jwt strategies registered with passport.use', async () => {
  const res = await check(DIR);

  it('lists the routes under their mounts', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'DELETE /v1/admin/users/:userId src/routes/v1/admin.route.js:8',
      'GET /v1/users/ src/routes/v1/user.route.js:7',
      'POST /v1/users/ src/routes/v1/user.route.js:7',
      'DELETE /v1/users/:userId src/routes/v1/user.route.js:9',
      'PATCH /v1/users/:userId src/routes/v1/user.route.js:9',
    ]);
  });

  it("counts auth() as bearer auth: it hands the request to passport.authenticate('jwt'), whose strategy reads the Authorization header", () => {
    expect(guardLines(res, 'POST', '/v1/users/')).toEqual(['auth:auth+bearer:route-middleware:src/routes/v1/user.route.js:7']);
    expect(guardLines(res, 'DELETE', '/v1/users/:userId')).toEqual(['auth:auth+bearer:route-middleware:src/routes/v1/user.route.js:9']);
    expect(res.routes.find((r) => r.method === 'POST')!.guards[0]!.reason).toBe(
      "by name (auth); bearer: it hands the request on to passport.authenticate (authentication from passport, with a credential no browser sends by itself: strategy 'jwt' (src/app.js:13) reads the Authorization header)",
    );
  });

  it('keeps auth alone for the strategy reading a cookie, and asks a CSRF guard of its mutation only', () => {
    expect(guardLines(res, 'DELETE', '/v1/admin/users/:userId')).toEqual(['passport.authenticate:auth:route-middleware:src/routes/v1/admin.route.js:8']);
    expect(csrf(res)).toEqual(['src/routes/v1/admin.route.js:8']);
  });

  it('check --cache: the strategy switched to the cookie one, or made to read a cookie, makes auth() routes need a CSRF guard', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-passport-'));
    fs.cpSync(DIR, dir, { recursive: true });
    await run({ cwd: dir, paths: [], cache: true });
    const edit = async (file: string, from: string, to: string): Promise<RunResult> => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(text).toContain(from);
      fs.writeFileSync(path.join(dir, file), text.replace(from, to));
      const warm = await run({ cwd: dir, paths: [], cache: true });
      expect(formatJson(warm)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
      return warm;
    };
    const all = ['src/routes/v1/admin.route.js:8', 'src/routes/v1/user.route.js:7', 'src/routes/v1/user.route.js:9', 'src/routes/v1/user.route.js:9'];
    expect(csrf(await edit('src/app.js', "passport.use('jwt', jwtStrategy);", "passport.use('jwt', cookieJwtStrategy);"))).toEqual(all);
    expect(csrf(await edit('src/app.js', "passport.use('jwt', cookieJwtStrategy);", "passport.use('jwt', jwtStrategy);"))).toEqual(['src/routes/v1/admin.route.js:8']);
    expect(csrf(await edit('src/config/passport.js', 'jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken() }', 'jwtFromRequest: (req) => req.cookies.access_token }'))).toEqual(all);
  });
});
