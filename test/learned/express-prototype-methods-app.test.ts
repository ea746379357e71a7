// Learned from a public Express wiki (growi): its server is one class whose methods are added
// to its prototype after it (`Crowi.prototype.buildServer = async function () { … this.express =
// express }`), and its routes are registered by `require('../routes')(this, this.express)` in
// another of them. `this` in a function assigned to a prototype was no instance: the app was
// not known, its 289 routes were listed without their mounts' prefixes or app-wide middleware,
// with 60 unresolved-route warnings.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-prototype-methods-app');
const API = 'src/server/routes/apiv3/index.js';

describe("learned: an app kept on a class's instance by methods its prototype is given", async () => {
  const res = await check(DIR);

  it('lists the routes on the app the prototype methods make, with its prefixes and middleware', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      `POST /_api/v3/login [csrf] ${API}:8`,
      `PUT /_api/v3/pages/:id [csrf, loginRequiredStrictly] ${API}:19`,
      `GET /_api/v3/pages/recent [csrf, loginRequiredStrictly] ${API}:15`,
      'GET /login [csrf] src/server/routes/index.js:6',
      'GET /me [csrf, loginRequiredStrictly] src/server/routes/index.js:7',
    ]);
  });

  it('says nothing is unresolved, and finds no missing CSRF guard behind the app-wide csurf', () => {
    expect(findingLines(res).filter((l) => /unresolved-route|missing-(auth|csrf)-guard/.test(l))).toEqual([
      `${API}:8 missing-auth-guard POST /_api/v3/login has no auth guard`,
      'src/server/routes/index.js:6 missing-auth-guard GET /login has no auth guard',
    ]);
  });
});
