// Learned from Gladys (an Express home-automation server): its API is a table of routes made as
// an empty object the services' routes and then the core routes are copied into, `const routes =
// {}; …; Object.assign(routes, coreRoutes); return routes;`, registered by a loop over its keys
// that puts each route's middleware in a list by what its entry says, `if
// (routes[routeKey].authenticated) routerParams.push(authMiddleware)`, and spreads the list into
// `router[method](path, ...routerParams)`. The object filled by Object.assign had no keys known
// statically (every route left out, one unresolved-route finding), and the list filled by push()
// was read as empty (every guard left out, with no finding).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-route-table-assembled');
const SETUP = 'server/api/setupRoutes.js';

describe('learned: an Express route table assembled with Object.assign, its middleware pushed into a list', async () => {
  const res = await check(DIR);

  it("lists a route for each key the table is given, and says that the services' routes are not known", () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      `GET /api/v1/house ${SETUP}:20`,
      `POST /api/v1/house ${SETUP}:20`,
      `DELETE /api/v1/house/:house_selector ${SETUP}:20`,
      `GET /api/v1/ping ${SETUP}:20`,
    ]);
    // (what `Object.assign(routes, service.controllers)` adds under a condition in a callback: keys not known statically)
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      `${SETUP}:20 a registration whose method is not known statically (an expression); it is left out`,
    ]);
  });

  it("guards each route with the middleware its entry's flags add to the list, a flag the entry lacks adding none", () => {
    expect(guardLines(res, 'GET', '/api/v1/ping')).toEqual([]);
    expect(guardLines(res, 'GET', '/api/v1/house')).toEqual([`authMiddleware:auth+bearer:route-middleware:${SETUP}:20`]);
    for (const [method, p] of [['POST', '/api/v1/house'], ['DELETE', '/api/v1/house/:house_selector']] as const)
      expect(guardLines(res, method, p)).toEqual([`authMiddleware:auth+bearer:route-middleware:${SETUP}:20`, `adminMiddleware:auth+family:route-middleware:${SETUP}:20`]);
  });
});
