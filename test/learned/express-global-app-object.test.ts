// Learned from wiki.js (requarks/wiki, Express): the server keeps its services on one global
// object, `global.WIKI = WIKI`, set by its entry and again by its job worker's; `master.js`
// reads it as a free name (`/* global WIKI */`), loads its routers with auto-load from
// `path.join(WIKI.SERVERPATH, '/controllers')`, sets `WIKI.auth = require('./core/auth').init()`
// — an object literal whose `init()` does `this.passport = passport; return this` — and uses
// `WIKI.auth.passport.initialize()` and `WIKI.auth.authenticate` (which lets every request on,
// as the guest when it has no token) before the routers.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-global-app-object');

describe('learned: an Express server whose services hang off one global object', async () => {
  const res = await check(DIR);

  it('mounts the routers auto-load reads from the directory each module setting the global names alike', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.app}`)).toEqual([
      'GET /* server/controllers/common.js:19 app',
      'GET /healthz server/controllers/common.js:6 app',
      'GET /login server/controllers/auth.js:6 app',
      'GET /logout server/controllers/auth.js:10 app',
      'GET /p server/controllers/common.js:11 app',
      'GET /p/* server/controllers/common.js:11 app',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("reads WIKI.auth as the module's object it is set to, passport's initialize and the guest-admitting authenticate no auth guards", () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'GET /* ',
      'GET /healthz ',
      'GET /login ',
      'GET /logout ',
      'GET /p (inline signed-in check):auth',
      'GET /p/* (inline signed-in check):auth',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'server/controllers/auth.js:6 GET /login has no auth guard',
      'server/controllers/auth.js:10 GET /logout has no auth guard',
      'server/controllers/common.js:6 GET /healthz has no auth guard',
      'server/controllers/common.js:19 GET /* has no auth guard',
    ]);
  });
});
