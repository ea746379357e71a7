// Learned from a public Express API (jambonz's api-server): each resource's router gets its
// standard CRUD routes from one helper, `decorate(router, Model, ['add', 'delete'])`, which calls
// `decorators[m](router, …)` for each name in the list it is handed (every one for `['*']`). A
// call whose callee is read by a key not known where it is written had been followed to every
// function of the table: each router was listed with all of them (85 routes where 40 are served).
// Its applications router passes `[]` (its routes all its own): a list the call writes empty,
// which the loop goes over making nothing, had been read as a list not known (five routes more).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-crud-decorators-by-name');
const DECORATE = 'lib/routes/api/decorate.js';

describe('learned: CRUD routes a helper registers from a table, chosen by the names each call passes', async () => {
  const res = await check(DIR);

  it("lists for each router the routes of the names its call passes, every one for ['*'] and none for []", () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'GET /health [] lib/routes/index.js:4',
      'GET /v1/Applications/ [passport.authenticate] lib/routes/api/applications.js:15',
      'DELETE /v1/Applications/:sid [passport.authenticate] lib/routes/api/applications.js:23',
      `GET /v1/PredefinedCarriers/ [passport.authenticate] ${DECORATE}:21`,
      'GET /v1/Sbcs/ [passport.authenticate] lib/routes/api/sbcs.js:13',
      `POST /v1/Sbcs/ [passport.authenticate] ${DECORATE}:31`,
      `DELETE /v1/Sbcs/:sid [passport.authenticate] ${DECORATE}:55`,
      `GET /v1/Tenants/ [passport.authenticate] ${DECORATE}:21`,
      `POST /v1/Tenants/ [passport.authenticate] ${DECORATE}:31`,
      `DELETE /v1/Tenants/:sid [passport.authenticate] ${DECORATE}:55`,
      `GET /v1/Tenants/:sid [passport.authenticate] ${DECORATE}:43`,
      `POST /v1/Webhooks/ [passport.authenticate] ${DECORATE}:31`,
      'GET /v1/Webhooks/:sid [passport.authenticate] lib/routes/api/webhooks.js:7',
    ]);
  });

  it('reports the routes served, none of those the table has and a call does not name', () => {
    expect(findingLines(res).filter((l) => l.includes('excluded-family-leak'))).toEqual([
      `${DECORATE}:31 excluded-family-leak POST /v1/Webhooks/ is in the excluded family "webhook" and is reachable without its family guard (guarded only by passport.authenticate)`,
      'lib/routes/api/webhooks.js:7 excluded-family-leak GET /v1/Webhooks/:sid is in the excluded family "webhook" and is reachable without its family guard (guarded only by passport.authenticate)',
    ]);
  });
});
