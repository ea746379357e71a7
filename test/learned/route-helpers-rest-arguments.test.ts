// Learned from NodeBB: its routes go through helpers taking `(...args)`, whose optional middleware
// list comes before the controller — `let middlewares = args.length > 4 ? args[args.length - 2] :
// []`, `const controller = args[args.length - 1]` — and which build the list on before registering
// it: `middlewares = [middleware.autoLocale, ...middlewares]`. Read at each call, the list holds
// what that call passes (`[...middlewares]` of `[middleware.ensureLoggedIn]`), each item named as
// written; `...(uploadVerbs.has(verb) ? [upload.any()] : [])` is decided by the verb passed. A list
// read before it is built on keeps its first value there (and, the facts holding one value per
// name, everywhere: `GET /api/account/export` is reported, though it runs behind the sign-in check);
// one built on under a condition keeps it too (the sign-in check may not run); the app given to a
// package's wrapper (`app = withTracing(app)`) stays the app express() made. NodeBB's
// middleware module installs most of its middleware on its exports through calls:
// `require('./user')(middleware)` of `module.exports = function (middleware) { middleware.x = … }`,
// and `Object.assign(middleware, { ...require('./header') })`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'route-helpers-rest-arguments');

describe('learned: route helpers reading their arguments through a rest parameter', async () => {
  const res = await check(DIR);

  it('lists every route the helpers register, with its mount prefix, on the app a package wrapped', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/account/export src/routes/index.js:21',
      'GET /api/account/export-status src/routes/index.js:19',
      'GET /api/admin/config src/routes/index.js:28',
      'POST /api/v3/topics/ src/routes/write/topics.js:15',
      'DELETE /api/v3/topics/:tid src/routes/write/topics.js:17',
      'GET /api/v3/topics/:tid src/routes/write/topics.js:9',
      'PUT /api/v3/topics/:tid/pin src/routes/write/topics.js:16',
      'GET /notifications src/routes/index.js:14',
      'GET /recent src/routes/index.js:13',
      'GET /users src/routes/index.js:15',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('gives each route the middleware list its call passes, each item by its own name', () => {
    // (applied where the helper registers the route)
    expect(guardLines(res, 'POST', '/api/v3/topics/')).toEqual([
      'middleware.ensureLoggedIn:auth:route-middleware:src/routes/helpers.js:38',
      'middleware.checkRequired:unknown:route-middleware:src/routes/helpers.js:38',
    ]);
    expect(guardLines(res, 'PUT', '/api/v3/topics/:tid/pin')).toEqual(['middleware.ensureLoggedIn:auth:route-middleware:src/routes/helpers.js:38']);
    expect(guardLines(res, 'DELETE', '/api/v3/topics/:tid')).toEqual(['middleware.ensureLoggedIn:auth:route-middleware:src/routes/helpers.js:38']);
    expect(guardLines(res, 'GET', '/notifications')).toEqual(['middleware.ensureLoggedIn:auth:route-middleware:src/routes/helpers.js:20']);
  });

  it('passes no list for a call without one, and decides the upload middleware by the verb', () => {
    expect(guardLines(res, 'GET', '/api/v3/topics/:tid')).toEqual([]);
    expect(guardLines(res, 'GET', '/recent')).toEqual([]);
  });

  it('reads the middleware a module installs on its exports through a call (`require(\'./user\')(middleware)`, `Object.assign`)', () => {
    // maintenanceMode (a 503 while a switch is on) and buildHeader (of `...require('./header')`)
    // are known for no guard; checkGlobalPrivacySettings, whose name says nothing, answers 401
    expect(guardLines(res, 'GET', '/users')).toEqual(['middleware.checkGlobalPrivacySettings:auth:route-middleware:src/routes/helpers.js:20']);
    expect(res.findings.filter((f) => f.message.includes('may be one')).map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual([
      'src/routes/write/topics.js:15 missing-csrf-guard',
      'src/routes/write/topics.js:15 missing-tenant-guard',
    ]);
  });

  it('reports the routes with no sign-in check, the one whose list was read before it was built on, and the one built on under a condition', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/routes/index.js:13 GET /recent has no auth guard',
      'src/routes/index.js:19 GET /api/account/export-status has no auth guard',
      'src/routes/index.js:21 GET /api/account/export has no auth guard',
      'src/routes/index.js:28 GET /api/admin/config has no auth guard',
      'src/routes/write/topics.js:9 GET /api/v3/topics/:tid has no auth guard',
    ]);
  });
});
