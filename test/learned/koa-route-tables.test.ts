// Learned from YApi (a Koa server): its API is a table of actions per controller, registered by a
// loop in a loop — `for (let ctrl in routerConfig) routerConfig[ctrl].forEach((item) =>
// createAction(router, '/api', INTERFACE_CONFIG[ctrl].controller, item.action,
// INTERFACE_CONFIG[ctrl].prefix + item.path, item.method))` — through a helper registering with
// `router[method](baseurl + path, …)`. The inner list is named by the outer loop's variable, so it
// is read once for each key of the outer table; a loop over the methods of each entry of
// `Object.entries(…)` reads both variables. Each route was left out before (one loop was
// unrolled, not two), with an unresolved-route finding. An object filled key by key
// (`API_VERSIONS['1.1'] = …`, as etherpad-lite's API versions are) has those keys; one filled
// under names not known statically has some: a loop over `Object.keys` of either made nothing at
// all before, without a finding. Its app is `websockify(new Koa())`: koa-websocket gives back the
// app it is handed, so the router and the sign-in check used on it are the app's (the router was
// reported as never mounted).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'koa-route-tables');

describe('learned: Koa routes registered from tables by loops in loops', async () => {
  const res = await check(DIR);

  it('lists a route for each action of each controller, each method of each export format, each style of each version', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/docs/1.1/flat.json server/router.js:52',
      'GET /api/docs/1.1/rest.json server/router.js:52',
      'GET /api/docs/1/flat.json server/router.js:52',
      'GET /api/docs/1/rest.json server/router.js:52',
      'GET /api/export/json server/router.js:44',
      'GET /api/export/swagger server/router.js:44',
      'POST /api/export/swagger server/router.js:44',
      'GET /api/group/get server/router.js:37',
      'POST /api/group/up server/router.js:37',
      'POST /api/project/add server/router.js:37',
      'POST /api/project/del server/router.js:37',
      'GET /api/project/list server/router.js:37',
      'GET /api/user/status server/router.js:10',
    ]);
    // (the plugins' pages: an object filled under names known only at run time, each a route)
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'server/router.js:58 GET route with a path not known statically; it is left out',
    ]);
  });

  it('serves them on the app koa-websocket hands back, behind the sign-in check used on it', () => {
    expect(guardLines(res, 'GET', '/api/user/status')).toEqual(['requireLogin:auth:app.use:server/app.js:13']);
    expect(guardLines(res, 'POST', '/api/project/del')).toEqual(['requireLogin:auth:app.use:server/app.js:13']);
    expect(guardLines(res, 'POST', '/api/export/swagger')).toEqual(['requireLogin:auth:app.use:server/app.js:13']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard')).toEqual([]);
  });
});
