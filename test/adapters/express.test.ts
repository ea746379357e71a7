/**
 * Express middleware scopes: what a router mounted earlier leaves behind for later mounts of
 * its parent (every request entering it runs its `use` middleware first), and which of those
 * layers a router further down can still meet — the walk drops the others once per router
 * (pathMayApplyBelow) instead of testing them for every route.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { ROOT, check, cli } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';
import { findingRows, routeKindLines, routeLinesAt, unresolvedRows } from '../helpers/expect.js';
import { pathApplies, pathMayApplyBelow, pathMayBeUnder, routePathCovers } from '../../src/adapters/paths.js';

const PKG = JSON.stringify({ name: 'scopes', dependencies: { express: '4.21.2' } });
const GUARDS = `
import type { NextFunction, Request, Response } from 'express';
export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  next();
}
export function requireOrgMember(req: Request, res: Response, next: NextFunction) {
  if (req.params.org !== req.session.orgId) return res.status(404).json({ error: 'not found' });
  next();
}
`;

type Checked = Awaited<ReturnType<typeof check>>;
/** `METHOD /path [guard, …]`, and ` strict` / ` case-sensitive` when asked for the route's matching. */
function routeLines(res: Checked, { mechanism = false, matching = false } = {}): string[] {
  return res.routes.map((r) => {
    const guards = r.guards.map((g) => (mechanism ? `${g.name} (${g.mechanism})` : g.name)).join(', ');
    const how = matching ? `${r.trailingSlashInsensitive ? '' : ' strict'}${r.caseSensitive ? ' case-sensitive' : ''}` : '';
    return `${r.method} ${r.path} [${guards}]${how}`;
  });
}

describe('express: middleware left behind by earlier mounts', () => {
  it('reaches later routes whose paths it matches (a parameter matches any segment), and no others', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { requireOrgMember, requireSession } from './guards.js';

const members = express.Router();
members.use(requireOrgMember);
members.get('/members', (req, res) => res.json([]));

const billing = express.Router();
billing.use(requireSession);
billing.get('/invoices', (req, res) => res.json([]));

const acme = express.Router();
acme.get('/status', (req, res) => res.json({ ok: true }));

const other = express.Router();
other.get('/status', (req, res) => res.json({ ok: true }));

const api = express.Router();
api.use('/orgs/:org', members);
api.use('/billing', billing);
api.use('/orgs/acme', acme);
api.use('/teams/acme', other);
api.get('/billing/summary', (req, res) => res.json({}));

export const app = express();
app.use('/api', api);
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual([
      'GET /api/billing/invoices [requireSession]',
      // billing's requireSession runs for every request entering /api/billing, served there or not
      'GET /api/billing/summary [requireSession]',
      'GET /api/orgs/:org/members [requireOrgMember]',
      // members (mounted at /orgs/:org) runs its middleware for /orgs/acme/… too
      'GET /api/orgs/acme/status [requireOrgMember]',
      'GET /api/teams/acme/status []',
    ]);
  });

  it('a route whose last function calls next() is a layer for later routes, not a route; one that only forwards errors (next(err)) is a route', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express, { type NextFunction, type Request, type Response } from 'express';
import { requireSession } from './guards.js';

export const app = express();
app.all('/api/*', requireSession);
// checks the session itself, and forwards failures to the error handler: a route
app.get('/api/me', async (req: Request, res: Response, next: NextFunction) => {
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  try {
    res.json({ id: req.session.userId });
  } catch (err) {
    next(err);
  }
});
// answers for the ids it knows, defers the others to a later route: a route too
app.get('/api/projects/:id', (req, res, next) => (req.params.id === 'new' ? next() : res.json({ id: req.params.id })));
app.get('/api/projects/new', (req, res) => res.json({ draft: true }));
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true })).toEqual([
      'GET /api/me [requireSession (pass-through-route), (inline 401 check) (in-handler)]',
      'GET /api/projects/:id [requireSession (pass-through-route)]',
      'GET /api/projects/new [requireSession (pass-through-route)]',
    ]);
  });

  it("a route whose last function hands the request on, and otherwise only hands on an error or throws, is a layer for the later routes (express's route-separation `app.all('/user/:id{/:op}', user.load)`); one answering for itself stays a route", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/app.js': `
const express = require('express');

const users = [{ name: 'TJ' }, { name: 'Tobi' }];
const posts = [{ title: 'Foo' }];

function loadUser(req, res, next) {
  const id = req.params.id;
  req.user = users[id];
  if (req.user) {
    next();
  } else {
    const err = new Error('cannot find user ' + id);
    err.status = 404;
    next(err);
  }
}

function loadPost(req, res, next) {
  req.post = posts[req.params.id];
  if (!req.post) throw Object.assign(new Error('no such post'), { status: 404 });
  next();
}

// answers a cached copy itself, hands on the rest: serves what it answers
function cachedUser(req, res, next) {
  if (req.query.cached) return res.json({ cached: true });
  next();
}

const app = express();
app.all('/user/:id{/:op}', loadUser);
app.get('/user/:id', (req, res) => res.json(req.user));
app.put('/user/:id/edit', (req, res) => res.json(Object.assign(req.user, req.body)));
app.get('/post/:id', loadPost);
app.get('/post/:id', (req, res) => res.json(req.post));
app.get('/cached/:id', cachedUser);
app.get('/cached/:id', (req, res) => res.json(users[req.params.id]));
module.exports = app;
`,
    });
    expect(routeLines(await check(dir), { mechanism: true })).toEqual([
      'GET /cached/:id []',
      'GET /cached/:id []',
      'GET /post/:id [loadPost (pass-through-route)]',
      'GET /user/:id [loadUser (pass-through-route)]',
      'PUT /user/:id/edit [loadUser (pass-through-route)]',
    ]);
  });

  it("a route whose last function is the app's own, no guard, and calls next() is a route when no later route runs behind it: its function runs, what follows answers (thelounge's service worker, express's error-pages example)", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express, { type NextFunction, type Request, type Response } from 'express';
import { requireSession } from './guards.js';

function noCache(_req: Request, res: Response, next: NextFunction) {
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  next();
}
function loadReport(req: Request, res: Response, next: NextFunction) {
  res.locals.report = { id: req.params.id };
  next();
}

const api = express.Router();
// handing on out of the router: the app's route after the mount answers
api.get('/status', (_req, res, next) => {
  res.setHeader('X-Served-By', 'api');
  next();
});

export const app = express();
app.get('/', (_req, res) => res.send('<!doctype html>'));
// sets a header and hands on to the static files: served, by express.static
app.get('/service-worker.js', noCache);
// two handing on at one path, static files behind: the later is the route, the earlier a layer for it
app.get('/manifest.json', noCache);
app.get('/manifest.json', (_req, res, next) => {
  res.setHeader('X-Manifest', '1');
  next();
});
// handing on to the route after it: a layer for that route, no route itself
app.get('/reports/:id', loadReport);
app.get('/reports/:id', requireSession, (_req, res) => res.json(res.locals.report));
app.use('/api', api);
app.get('/api/status', (_req, res) => res.json({ ok: true }));
app.use(express.static('public'));
// a guard alone, nothing after it: it runs, then Express answers 404 — nothing of the app's served
app.all('/admin/*', requireSession);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'GET / [] src/app.ts:22',
      'GET /api/status [] src/app.ts:35',
      'GET /manifest.json [] src/app.ts:27',
      'GET /reports/:id [requireSession] src/app.ts:33',
      'GET /service-worker.js [] src/app.ts:24',
    ]);
  });

  it("a route ending with a package's middleware that always hands on (multer, express-rate-limit, a body parser) is a layer, not a route (LibreChat's files router)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'librechat-api', dependencies: { express: '4.21.2', multer: '2.0.1', 'express-rate-limit': '7.5.0' } }),
      'src/guards.ts': GUARDS,
      'api/server/routes/files/index.js': `const express = require('express');
const multer = require('multer');
const rateLimit = require('express-rate-limit');
const { requireSession } = require('../../../../src/guards');

const upload = multer({ dest: '/tmp/uploads', limits: { fileSize: 25 * 1024 * 1024 } });
const fileUploadIpLimiter = rateLimit({ windowMs: 60 * 1000, max: 100 });

const router = express.Router();
router.use(requireSession);
router.post('*', fileUploadIpLimiter);
router.post('/', upload.single('file'));
router.post('/images', express.json({ limit: '1mb' }), upload.single('file'));
router.post('/', async (req, res) => {
  res.status(201).json({ file_id: req.file.filename, bytes: req.file.size });
});
router.post('/images', async (req, res) => {
  res.status(201).json({ file_id: req.file.filename, width: req.body.width });
});

module.exports = router;
`,
      'api/server/index.js': `const express = require('express');
const files = require('./routes/files');

const app = express();
app.use('/api/files', files);
app.listen(3080);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'POST /api/files/ [requireSession] api/server/routes/files/index.js:14',
      'POST /api/files/images [requireSession] api/server/routes/files/index.js:17',
    ]);
  });

  it("a route ending with a package's guard that hands on what it lets through (express-jwt) is a layer in front of the route registered after it (OWASP Juice Shop's `app.get('/api/Users', security.isAuthorized())`)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'juice-shop', dependencies: { express: '4.21.2', 'express-jwt': '0.1.3' } }),
      'lib/insecurity.ts': `import expressJwt from 'express-jwt';

const publicKey = process.env.JWT_PUBLIC_KEY!;

export const isAuthorized = () => expressJwt({ secret: publicKey });
// a secret no token is signed with: every request refused
export const denyAll = () => expressJwt({ secret: '' + Math.random() });
`,
      'server.ts': `import express from 'express';
import * as security from './lib/insecurity';

const app = express();
app.use(express.json());

app.get('/api/Users', security.isAuthorized());
app.route('/api/Users/:id').get(security.isAuthorized()).put(security.denyAll());

app.get('/api/Users', (req, res) => {
  res.json({ status: 'success', data: [] });
});
app.get('/api/Users/:id', (req, res) => {
  res.json({ status: 'success', data: { id: req.params.id } });
});
app.put('/api/Users/:id', (req, res) => {
  res.json({ status: 'success', data: { id: req.params.id, ...req.body } });
});

app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'GET /api/Users [security.isAuthorized:auth+bearer] server.ts:10',
      'GET /api/Users/:id [security.isAuthorized:auth+bearer] server.ts:13',
      'PUT /api/Users/:id [security.denyAll:auth+bearer] server.ts:16',
    ]);
  });

  it("a function mounted at a path that answers, handing `next` only errors made in place (`next(new Error(…))`), is an ALL route there, not a layer of the routes below it (OWASP Juice Shop's key server)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'juice-shop', dependencies: { express: '4.21.2' } }),
      'routes/keyServer.ts': `import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';

export function serveKeyFiles() {
  return ({ params }: Request, res: Response, next: NextFunction) => {
    const file = params.file;

    if (!file.includes('/')) {
      res.sendFile(path.resolve('encryptionkeys/', file));
    } else {
      res.status(403);
      next(new Error('File names cannot contain forward slashes!'));
    }
  };
}

// hands the request on when the file is not one it serves
export function serveKeyFilesOrNext() {
  return ({ params }: Request, res: Response, next: NextFunction) => {
    if (params.file.endsWith('.pub')) {
      res.sendFile(path.resolve('encryptionkeys/', params.file));
    } else {
      next();
    }
  };
}
`,
      'server.ts': `import express from 'express';
import { serveKeyFiles, serveKeyFilesOrNext } from './routes/keyServer';

const app = express();
app.use('/encryptionkeys/:file', serveKeyFiles());
app.use('/keys/:file', serveKeyFilesOrNext());
app.get('/keys/:file/meta', (req, res) => {
  res.json({ file: req.params.file });
});

app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'ALL /encryptionkeys/:file [] server.ts:5',
      'GET /keys/:file/meta [serveKeyFilesOrNext:unknown] server.ts:7',
    ]);
  });

  it('what a helper registers on the app it is handed is registered on each app a name is given either of (`let app; if (…) app = express(); else app = express()`): one app either way, its routes listed once', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { requireSession } from './guards.js';

function mountRoutes(app: express.Express) {
  app.use('/api', requireSession);
  app.get('/api/sites', (req, res) => { res.json([]); });
}

let app: express.Express;
if (process.env.BEHIND_PROXY) {
  app = express();
  app.set('trust proxy', 1);
} else {
  app = express();
}
mountRoutes(app);
app.get('/health', (req, res) => { res.send('ok'); });
app.listen(3000);
`,
    });
    expect(routeLines(await check(dir))).toEqual(['GET /api/sites [requireSession]', 'GET /health []']);
  });

  it('a router handed to a route at a path not known statically is walked as if every request reached it, and said so', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/app.ts': `
import express, { Router } from 'express';

const items = Router();
items.get('/items', (_req, res) => res.json([]));

const app = express();
app.all(process.env.ITEMS_PATH as string, items);
app.listen(1337);
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual(['GET /items []']);
    expect(unresolvedRows(res)).toEqual([
      "src/app.ts:8:1 warning unresolved-route ALL route handing its requests to a router, with a path not known statically (property ITEMS_PATH of a value not known statically); the router's routes are listed as if every request reached them",
    ]);
  });

  it("what a function's own helper registers, called by name, is registered where the call runs among the function's own registrations (Mailtrain's `useWith404Fallback`), declared before its calls or after them", async () => {
    const helper = '  function useWithFallback(url: string, router: express.Router) {\n    app.use(url, router);\n  }\n';
    const calls = "  useWithFallback('/public', publicRouter);\n  app.use(requireSession);\n  useWithFallback('/api', apiRouter);\n";
    for (const body of [helper + calls + '  return app;\n', calls + '  return app;\n' + helper]) {
      const dir = writeProject({
        'package.json': PKG,
        'src/guards.ts': GUARDS,
        'src/routers.ts': `
import { Router } from 'express';
export const publicRouter = Router();
publicRouter.get('/status', (_req, res) => res.json({ ok: true }));
export const apiRouter = Router();
apiRouter.get('/items', (_req, res) => res.json([]));
`,
        'src/app.ts': `
import express from 'express';
import { requireSession } from './guards';
import { apiRouter, publicRouter } from './routers';

function createApp() {
  const app = express();
${body}}

createApp().listen(3000);
`,
      });
      expect(routeLines(await check(dir))).toEqual(['GET /api/items [requireSession]', 'GET /public/status []']);
    }
  });

  it("a helper called from a table by a key its caller's list names (`handlers[m](name)` for each `m` of the list a call passes) registers what that call names, not every function of the table", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { requireSession } from './guards';

const api = express.Router();
const send: express.RequestHandler = (_req, res) => { res.json([]); };
const handlers: Record<string, (name: string) => void> = {
  list: (name) => api.get(\`/\${name}\`, send),
  add: (name) => api.post(\`/\${name}\`, send),
};

function resource(name: string, methods: string[]) {
  methods.forEach((m) => handlers[m](name));
}

resource('users', ['add']);
resource('teams', ['list', 'add']);

export const app = express();
app.use('/api', requireSession, api);
`,
    });
    expect(routeLines(await check(dir))).toEqual(['GET /api/teams [requireSession]', 'POST /api/teams [requireSession]', 'POST /api/users [requireSession]']);
  });

  it("`this` in a constructor function and in the methods its prototype is given is one instance: the app one method keeps there is the app another registers on, and `new` of the function makes it", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/server.js': `
const express = require('express');
const { requireSession } = require('./guards');

function Server(port) {
  this.port = port;
  this.app = express();
  this.app.use(requireSession);
}

const admin = express.Router();
admin.delete('/cache', (req, res) => res.sendStatus(204));

Server.prototype.routes = function () {
  this.app.get('/items', (req, res) => res.json([]));
  this.mountAdmin();
};

Server.prototype.mountAdmin = function () {
  this.app.use('/admin', admin);
};

module.exports = Server;
`,
      'src/main.js': `
const Server = require('./server');

const server = new Server(3000);
server.app.get('/health', (req, res) => res.send('ok'));
server.routes();
`,
      'src/guards.js': "exports.requireSession = (req, res, next) => (req.session && req.session.userId ? next() : res.sendStatus(401));\n",
    });
    expect(routeLines(await check(dir))).toEqual(['DELETE /admin/cache [requireSession]', 'GET /health [requireSession]', 'GET /items [requireSession]']);
  });

  it("router.search(path, …) is a SEARCH route (Express routers take every method of the `methods` package; Directus's reads with a query in the body)", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { requireSession } from './guards.js';

const users = express.Router();
const readUsers: express.RequestHandler = (req, res) => { res.json({ data: [], query: req.body?.query ?? null }); };
users.get('/', readUsers);
users.search('/', readUsers);

export const app = express();
app.use(express.json());
app.use('/users', requireSession, users);
`,
    });
    expect(routeLines(await check(dir))).toEqual(['GET /users/ [requireSession]', 'SEARCH /users/ [requireSession]']);
  });

  it("express-ws's ws(path, …) is a GET route the WebSocket upgrade of its path reaches, behind the middleware before it (anything-llm's agent socket)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'anything-llm-server', dependencies: { express: '4.21.2', '@mintplex-labs/express-ws': '5.0.7' } }),
      'src/guards.ts': GUARDS,
      'server/endpoints/agentWebsocket.js': `function agentWebsocket(app) {
  if (!app) return;
  app.ws('/agent-invocation/:uuid', async function (socket, request) {
    socket.on('message', (message) => socket.send(JSON.stringify({ uuid: request.params.uuid, echo: String(message) })));
  });
}

module.exports = { agentWebsocket };
`,
      'server/index.js': `const express = require('express');
const { requireSession } = require('../src/guards');
const { agentWebsocket } = require('./endpoints/agentWebsocket');

const app = express();
require('@mintplex-labs/express-ws').default(app);
const apiRouter = express.Router();
app.use('/api', apiRouter);
agentWebsocket(apiRouter);
apiRouter.use(requireSession).ws('/terminal', (socket) => socket.close());
app.listen(3001);
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual(['GET /api/agent-invocation/:uuid []', 'GET /api/terminal [requireSession]']);
  });

  it('routers and apps are case-insensitive and non-strict unless told otherwise (Router(), Router({}), Router({ caseSensitive, strict }))', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express, { Router } from 'express';
import { requireSession } from './guards.js';

const plain = Router();
plain.use('/Admin', requireSession);
plain.get('/admin/users', (req, res) => res.json([]));

const empty = Router({});
empty.use('/Admin', requireSession);
empty.get('/admin/users', (req, res) => res.json([]));

const exact = Router({ caseSensitive: true, strict: true });
exact.use('/Admin', requireSession);
exact.get('/admin/users', (req, res) => res.json([]));

export const app = express();
app.use('/plain', plain);
app.use('/empty', empty);
app.use('/exact', exact);
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { matching: true })).toEqual([
      'GET /empty/admin/users [requireSession]',
      'GET /exact/admin/users [] strict case-sensitive',
      'GET /plain/admin/users [requireSession]',
    ]);
  });

  it('express-promise-router makes a router, with the same options', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'pg-api', dependencies: { express: '4.21.2', 'express-promise-router': '4.1.1' } }),
      'src/guards.ts': GUARDS,
      'src/routes/users.ts': `
import Router from 'express-promise-router';
import { requireSession } from '../guards.js';

export const users = Router({ strict: true });
users.use(requireSession);
users.get('/:id', async (req, res) => {
  res.json({ id: req.params.id });
});
`,
      'src/app.ts': `
import express from 'express';
import { users } from './routes/users.js';

export const app = express();
app.use('/users', users);
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { matching: true })).toEqual(['GET /users/:id [requireSession] strict']);
  });

  it("app.disable() turns a setting off again: case-insensitive, non-strict after enable() then disable()", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/app.ts': `
import express from 'express';
import { requireSession } from '@acme/auth';

export const app = express();
app.enable('case sensitive routing');
app.disable('case sensitive routing');
app.enable('strict routing');
app.disable('strict routing');
app.use('/Admin', requireSession);
app.get('/admin/users', (_req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { matching: true })).toEqual([
      'GET /admin/users [requireSession]',
    ]);
  });

  it('a router nothing mounts is still walked: its routes are listed without a prefix, behind its own middleware, with a warning', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/reports.ts': `
import { Router } from 'express';
import { requireSession } from '@acme/auth';

export const reports = Router();
reports.use(requireSession);
reports.get('/daily', (_req, res) => res.json({ rows: [] }));
`,
      'src/app.ts': `
import express from 'express';
export const app = express();
app.get('/health', (_req, res) => res.json({ ok: true }));
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual(['GET /daily [requireSession]', 'GET /health []']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/reports.ts:5 router reports is never mounted on an app in the analysed files; its routes are listed without a prefix',
    ]);
  });

  it("a router handed to a route (`api.all('/activity*', activityRouter)`, Nightscout's API) serves its own routes at their own paths, those the route lets through, behind the route's functions", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/activity.ts': `
import { Router } from 'express';
import { requireSession } from './guards';

export function activityRouter() {
  const api = Router();
  api.use(requireSession);
  api.get('/activity', (_req, res) => res.json([]));
  api.delete('/activity/:id', (req, res) => res.status(204).end());
  // (no request the route hands on has this path)
  api.get('/food', (_req, res) => res.json([]));
  return api;
}
`,
      'src/entries.ts': `
import { Router } from 'express';

export const entries = Router();
entries.get('/entries/current', (_req, res) => res.json({}));
entries.get('/echo/:echo', (req, res) => res.json({ echo: req.params.echo }));
entries.post('/entries', (req, res) => res.status(201).json(req.body));
`,
      'src/app.ts': `
import express from 'express';
import { activityRouter } from './activity';
import { entries } from './entries';
import { requireOrgMember } from './guards';

const api = express();
api.all('/activity*', activityRouter());
// (a GET route lets only GET requests through: not the router's POST /entries)
api.get('/entries*', entries);
api.get('/echo/*', requireOrgMember, entries);

const app = express();
app.use('/api/v1', api);
app.listen(1337);
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true })).toEqual([
      'GET /api/v1/activity [requireSession (router.use)]',
      'DELETE /api/v1/activity/:id [requireSession (router.use)]',
      'GET /api/v1/echo/:echo [requireOrgMember (route-middleware)]',
      'GET /api/v1/entries/current []',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('pathMayApplyBelow keeps a layer exactly when some path under the prefix can match its scope', () => {
    expect(pathMayApplyBelow('', '/api/x', false)).toBe(true);
    expect(pathMayApplyBelow('/api', '', false)).toBe(true);
    expect(pathMayApplyBelow('/api/billing', '/api', false)).toBe(true);
    expect(pathMayApplyBelow('/api/billing', '/api/orgs', false)).toBe(false);
    expect(pathMayApplyBelow('/api/orgs/:org', '/api/orgs/acme/teams', false)).toBe(true);
    expect(pathMayApplyBelow('/api/orgs/acme', '/api/orgs/:org', false)).toBe(true);
    expect(pathMayApplyBelow('/API', '/api', false)).toBe(true);
    expect(pathMayApplyBelow('/API', '/api', true)).toBe(false);
    // wherever it says no, no route under the prefix is matched
    for (const [scope, prefix] of [
      ['/api/billing', '/api/orgs'],
      ['/a/b/c', '/a/x'],
    ] as const) {
      expect(pathMayApplyBelow(scope, prefix, false)).toBe(false);
      for (const tail of ['', '/b/c', '/c', '/b/c/d']) expect(pathApplies(scope, prefix + tail, false)).toBe(false);
    }
  });

  it('routePathCovers matches a route registration’s whole path: parameters, a trailing wildcard, strict trailing slashes', () => {
    expect(routePathCovers('/api/*', '/api/projects/:id', false, false)).toBe(true);
    expect(routePathCovers('/api/*rest', '/api/projects', false, false)).toBe(true);
    expect(routePathCovers('/api/*', '/api', false, false)).toBe(false);
    expect(routePathCovers('/api/projects/:id', '/api/projects/new', false, false)).toBe(true);
    expect(routePathCovers('/api/admin', '/api/admin/users', false, false)).toBe(false);
    expect(routePathCovers('/api/admin', '/api/admin/', false, false)).toBe(true);
    expect(routePathCovers('/api/admin', '/api/admin/', false, true)).toBe(false);
    expect(routePathCovers('/API/admin', '/api/admin', false, false)).toBe(true);
    expect(routePathCovers('/API/admin', '/api/admin', true, false)).toBe(false);
    expect(routePathCovers('/api/projects/drafts', '/api/projects/:id', false, false)).toBe(false);
    expect(routePathCovers('/', '/', false, false)).toBe(true);
    expect(routePathCovers('/', '/api', false, false)).toBe(false);
  });

  it("pathApplies only where the layer runs for every request to the route; pathMayBeUnder where it may run for some", () => {
    // a parameter of the scope takes any value of the route's segment
    expect(pathApplies('/api/orgs/:org', '/api/orgs/acme/status', false)).toBe(true);
    expect(pathApplies('/api/orgs/:org', '/api/orgs/:id/status', false)).toBe(true);
    expect(pathApplies('/files/*', '/files/:name', false)).toBe(true);
    // a literal of the scope takes one value of the route's parameter or wildcard
    expect(pathApplies('/api/docs/drafts', '/api/docs/:collection', false)).toBe(false);
    expect(pathApplies('/admin', '/:page', false)).toBe(false);
    expect(pathApplies('/files/private', '/files/*', false)).toBe(false);
    expect(pathMayBeUnder('/api/docs/drafts', '/api/docs/:collection', false)).toBe(true);
    expect(pathMayBeUnder('/api/deployments', '/api/:kind/:id', false)).toBe(true);
    // both say no to another literal, and to a scope longer than the route
    for (const [scope, full] of [
      ['/api/docs/drafts', '/api/docs/published'],
      ['/api/docs/:collection/items', '/api/docs/:collection'],
    ] as const) {
      expect(pathApplies(scope, full, false)).toBe(false);
      expect(pathMayBeUnder(scope, full, false)).toBe(false);
    }
  });
});

describe('express: .unless() options (express-unless, mixed into express-jwt)', () => {
  it('a method it skips lets HEAD through to GET routes; exceptions compared below the mount point, or by a function, make it a candidate', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'unless', dependencies: { express: '4.21.2', 'express-jwt': '8.5.1' } }),
      'src/app.ts': `
import express from 'express';
import { expressjwt } from 'express-jwt';

const jwt = expressjwt({ secret: process.env.JWT_SECRET!, algorithms: ['HS256'] });

// HEAD requests run the GET route (Express routes them there), without the token
const profile = express.Router();
profile.use(jwt.unless({ method: ['HEAD'] }));
profile.get('/', (req, res) => res.json({ sub: req.auth?.sub }));
profile.post('/', (req, res) => res.status(204).end());

// useOriginalUrl: false compares req.url, the path below the mount point
const account = express.Router();
account.use(jwt.unless({ path: ['/login'], useOriginalUrl: false }));
account.get('/settings', (req, res) => res.json({ sub: req.auth?.sub }));

// a custom predicate decides at run time
const reports = express.Router();
reports.use(jwt.unless({ custom: (req) => req.ip === '127.0.0.1' }));
reports.get('/daily', (req, res) => res.json([]));

export const app = express();
app.use('/api/profile', profile);
app.use('/api/account', account);
app.use('/api/reports', reports);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}: ${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/account/settings [jwt.unless: unknown]',
      'GET /api/profile/ []',
      'POST /api/profile/ [jwt.unless: auth+bearer]',
      'GET /api/reports/daily [jwt.unless: unknown]',
    ]);
  });

  it("reads the options of the token check it is called on: credentialsRequired: false makes it optional", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'unless-optional', dependencies: { express: '4.21.2', 'express-jwt': '8.5.1' } }),
      'src/app.ts': `
import express from 'express';
import { expressjwt } from 'express-jwt';

export const app = express();
app.use('/api/feed', expressjwt({ secret: process.env.JWT_SECRET!, algorithms: ['HS256'], credentialsRequired: false }).unless({ method: 'OPTIONS' }));
app.use('/api/drafts', expressjwt({ secret: process.env.JWT_SECRET!, algorithms: ['HS256'], credentialsRequired: true }).unless({ method: 'OPTIONS' }));
app.get('/api/feed', (req, res) => res.json({ personalised: Boolean(req.auth) }));
app.get('/api/drafts', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual(['GET /api/drafts [auth+bearer]', 'GET /api/feed []']);
  });
});

describe('express: .unless() with regular expressions', () => {
  const project = (paths: string) =>
    writeProject({
      'package.json': JSON.stringify({ name: 'unless-re', dependencies: { express: '4.21.2', 'express-jwt': '8.5.1' } }),
      'src/app.ts': `
import express from 'express';
import { expressjwt } from 'express-jwt';

export const app = express();
// routes match letter case exactly: only an expression with the i flag takes /API as /api
app.set('case sensitive routing', true);
app.use(expressjwt({ secret: process.env.JWT_SECRET!, algorithms: ['HS256'] }).unless({ path: ${paths} }));
app.get('/api/public/status', (req, res) => res.json({ ok: true }));
app.get('/api/sites', (req, res) => res.json([]));
app.get('/api/:section/summary', (req, res) => res.json({}));
app.post('/api/hooks/github', (req, res) => res.status(202).end());
app.get('/api/hooks/github', (req, res) => res.json({ deliveries: [] }));
app.post('/api/hooksx', (req, res) => res.status(202).end());
`,
    });
  const lines = (res: Checked) => res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`);

  it('an anchored literal exempts the request paths it begins (or, with $, is): a route is guarded only where none of its paths is exempt', async () => {
    const res = await check(project("[/^\\/api\\/public\\//, { url: /^\\/API\\/hooks(?:\\/.*)?$/i, methods: ['POST'] }]"));
    expect(lines(res)).toEqual([
      // `/api/public/summary` is one of its paths
      'GET /api/:section/summary []',
      'GET /api/hooks/github [auth+bearer]',
      'POST /api/hooks/github []',
      // neither /api/hooks nor below it
      'POST /api/hooksx [auth+bearer]',
      'GET /api/public/status []',
      'GET /api/sites [auth+bearer]',
    ]);
  });

  it('`^L\\/?$` is L with or without its slash; another expression leaves the guard a candidate', async () => {
    expect(lines(await check(project('[/^\\/api\\/sites\\/?$/]')))).toEqual([
      'GET /api/:section/summary [auth+bearer]',
      'GET /api/hooks/github [auth+bearer]',
      'POST /api/hooks/github [auth+bearer]',
      'POST /api/hooksx [auth+bearer]',
      'GET /api/public/status [auth+bearer]',
      'GET /api/sites []',
    ]);
    const res = await check(project('[/^\\/api\\/(sites|hooks)/]'));
    expect(new Set(res.routes.map((r) => r.guards.map((g) => g.kinds.join('+')).join()))).toEqual(new Set(['unknown']));
  });

  it('an unanchored literal exempts every request path holding it (a parameter may be the part that does); with $, ending in it', async () => {
    expect(lines(await check(project('[/\\/public\\//]')))).toEqual([
      // `/api/public/summary` holds /public/
      'GET /api/:section/summary []',
      'GET /api/hooks/github [auth+bearer]',
      'POST /api/hooks/github [auth+bearer]',
      'POST /api/hooksx [auth+bearer]',
      'GET /api/public/status []',
      'GET /api/sites [auth+bearer]',
    ]);
    expect(lines(await check(project('[/hub$/]')))).toEqual([
      'GET /api/:section/summary [auth+bearer]',
      'GET /api/hooks/github []',
      'POST /api/hooks/github []',
      'POST /api/hooksx [auth+bearer]',
      'GET /api/public/status [auth+bearer]',
      'GET /api/sites [auth+bearer]',
    ]);
  });

  it('a path written as a regular expression is reported: what it mounts is listed without it, a route with it left out', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'use-re', dependencies: { express: '4.21.2' } }),
      'src/app.ts': `
import express from 'express';

const api = express.Router();
api.get('/sites', (req, res) => res.json([]));

export const app = express();
app.use(/^\\/api\\/v[12]/, api);
app.get(/^\\/health(z)?$/, (req, res) => res.json({ ok: true }));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /sites']);
    expect(res.routes[0]!.prefixes).toEqual([{ prefix: '', file: 'src/app.ts', line: 8, unknown: 'a regular expression, /^\\/api\\/v[12]/' }]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.line} ${f.message}`)).toEqual([
      '8 the path of this use() is not known statically (a regular expression, /^\\/api\\/v[12]/); the routes under it are listed without that part',
      '9 GET route with a path not known statically (a regular expression, /^\\/health(z)?$/); it is left out',
    ]);
  });
});

describe('express: anchors in a path string', () => {
  it("a `^` leading a path and a `$` ending it are the anchors Express 4 adds anyway (path-to-regexp 0.1): `app.use('^/$', serverRenderer)`, `app.use('^/backend/', router)`", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'ssr', dependencies: { express: '4.21.2' } }),
      'server/index.js': `const express = require('express');
const fs = require('fs');
const path = require('path');
const { renderApp } = require('./render');

const app = express();

app.use('^/$', (req, res, next) => {
  fs.readFile(path.resolve('./build/index.html'), 'utf-8', (err, data) => {
    if (err) return res.status(500).send('An error occurred');
    return res.send(data.replace('<div id="root"></div>', \`<div id="root">\${renderApp(req.url)}</div>\`));
  });
});
app.use('^/api/docs$', (req, res) => res.json({ docs: [] }));
app.use('^/backend/', require('./backend'));
app.use(express.static(path.resolve(__dirname, '..', 'build')));

app.listen(8080);
`,
      'server/render.js': `exports.renderApp = (url) => '<main data-url="' + encodeURI(url) + '"></main>';\n`,
      'server/backend.js': `const express = require('express');
const router = express.Router();
router.get('/status', (req, res) => res.json({ ok: true }));
module.exports = router;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'ALL / server/index.js:8',
      'ALL /api/docs server/index.js:14',
      'GET /backend/status server/backend.js:3',
    ]);
  });
});

describe('express: parameter callbacks at a mount', () => {
  it("app.param runs at a use() layer whose path names the parameter: first, and once for a later route naming it too", async () => {
    const res = await check(path.join(ROOT, 'fixtures', 'rules', 'missing-tenant-guard', 'valid', 'app-param-on-mount-path'));
    expect(routeLines(res, { mechanism: true })).toEqual([
      'GET /api/orgs/:orgId/members [loadOrganisation (router.param), requireSession (mount-middleware)]',
      'GET /api/orgs/:orgId/projects [loadOrganisation (router.param), requireSession (mount-middleware)]',
      'GET /api/orgs/:orgId/usage [loadOrganisation (router.param), requireSession (mount-middleware)]',
    ]);
  });
});

describe('express: optional authentication by package', () => {
  it("passport.authenticate(['jwt', 'anonymous']) lets a request without credentials through: no guard", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'anonymous', dependencies: { express: '4.21.2', passport: '0.7.0', 'passport-jwt': '4.0.1', 'passport-anonymous': '1.0.1' } }),
      'src/app.ts': `
import express from 'express';
import passport from 'passport';

export const app = express();
app.use(passport.initialize());
// articles are public; a signed-in reader also sees whom they follow
app.get('/api/articles', passport.authenticate(['jwt', 'anonymous'], { session: false }), (req, res) => res.json({ viewer: req.user ?? null }));
app.get('/api/user', passport.authenticate('jwt', { session: false }), (req, res) => res.json(req.user));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual(['GET /api/articles []', 'GET /api/user [auth]']);
  });

  it("passport-anonymous's strategy registered under a name of its own (passport.use('guest', new AnonymousStrategy())) lets a request through where authenticate names it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'guest', dependencies: { express: '4.21.2', passport: '0.7.0', 'passport-jwt': '4.0.1', 'passport-anonymous': '1.0.1' } }),
      'src/app.ts': `
import express from 'express';
import passport from 'passport';
import { Strategy as AnonymousStrategy } from 'passport-anonymous';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';

passport.use(new JwtStrategy({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: process.env.JWT_SECRET! }, (payload, done) => done(null, payload)));
passport.use('guest', new AnonymousStrategy());
export const app = express();
app.use(passport.initialize());
app.get('/api/articles', passport.authenticate(['jwt', 'guest'], { session: false }), (req, res) => res.json({ viewer: req.user ?? null }));
app.get('/api/user', passport.authenticate('jwt', { session: false }), (req, res) => res.json(req.user));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.kinds.join('+')).join(', ')}]`)).toEqual(['GET /api/articles []', 'GET /api/user [auth+bearer]']);
  });

  it("passport.authenticate with a custom callback answers nothing itself: one that goes on without a user (LibreChat's optionalJwtAuth) guards nothing, whatever the wrapper's name; one that refuses does", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'librechat-api', dependencies: { express: '4.21.2', passport: '0.7.0', 'passport-jwt': '4.0.1' } }),
      'api/server/middleware/optionalJwtAuth.js': `const passport = require('passport');

// a signed-in user is attached when the token is valid; anyone else goes on without one
const optionalJwtAuth = (req, res, next) => {
  const callback = (err, user) => {
    if (err) {
      return next(err);
    }
    if (user) {
      req.user = user;
    }
    next();
  };
  passport.authenticate('jwt', { session: false }, callback)(req, res, next);
};

module.exports = optionalJwtAuth;
`,
      'api/server/middleware/requireJwtAuth.js': `const passport = require('passport');

const requireJwtAuth = (req, res, next) => {
  passport.authenticate('jwt', { session: false }, (err, user) => {
    if (err || !user) {
      return res.status(401).json({ message: 'Unauthorized' });
    }
    req.user = user;
    next();
  })(req, res, next);
};

module.exports = requireJwtAuth;
`,
      'api/server/index.js': `const express = require('express');
const optionalJwtAuth = require('./middleware/optionalJwtAuth');
const requireJwtAuth = require('./middleware/requireJwtAuth');

const app = express();
app.get('/api/banner', optionalJwtAuth, (req, res) => res.json({ message: 'Maintenance on Sunday', user: req.user?.id ?? null }));
app.get('/api/convos', requireJwtAuth, (req, res) => res.json({ conversations: [], user: req.user.id }));
app.listen(3080);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/banner []',
      'GET /api/convos [requireJwtAuth:auth]',
    ]);
  });
});

describe("express: Auth0's middleware packages", () => {
  it("express-openid-connect's auth(config) requires a login unless authRequired: false; requiresAuth() always does; express-oauth2-jwt-bearer's auth() requires a bearer token unless authRequired: false", async () => {
    // (read at express-openid-connect 3.4, middleware/auth.js and requiresAuth.js; at
    // express-oauth2-jwt-bearer 1.10: `authRequired === false` hands a request without a token on)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'auth0', dependencies: { express: '4.21.2', 'express-openid-connect': '3.4.0', 'express-oauth2-jwt-bearer': '1.10.0' } }),
      'src/app.ts': `
import express from 'express';
import { auth, requiresAuth } from 'express-openid-connect';
import { auth as accessToken } from 'express-oauth2-jwt-bearer';

const login = { baseURL: 'https://console.example.com', clientID: 'console', issuerBaseURL: 'https://example.eu.auth0.com', secret: process.env.SESSION_SECRET };
export const app = express();
app.use(auth({ ...login, authRequired: false }));
app.get('/api/sites', (req, res) => res.json([]));
app.get('/api/profile', requiresAuth(), (req, res) => res.json(req.oidc.user));

const dashboard = express.Router();
dashboard.use(auth(login));
dashboard.get('/overview', (req, res) => res.json({}));
app.use('/dashboard', dashboard);

const api = express.Router();
api.use(accessToken({ audience: 'https://api.example.com', issuerBaseURL: 'https://example.eu.auth0.com/' }));
api.get('/orders', (req, res) => res.json([]));
app.use('/v1', api);

const feed = express.Router();
feed.use(accessToken({ audience: 'https://api.example.com', issuerBaseURL: 'https://example.eu.auth0.com/', authRequired: false }));
feed.get('/items', (req, res) => res.json([]));
app.use('/feed', feed);

const beta = express.Router();
beta.use(accessToken({ audience: 'https://api.example.com', issuerBaseURL: 'https://example.eu.auth0.com/', authRequired: process.env.BETA_OPEN !== '1' }));
beta.get('/items', (req, res) => res.json([]));
app.use('/beta', beta);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/profile [requiresAuth:auth]',
      'GET /api/sites []',
      'GET /beta/items [accessToken:unknown]',
      'GET /dashboard/overview [auth:auth]',
      'GET /feed/items []',
      'GET /v1/orders [accessToken:auth+bearer]',
    ]);
  });
});

describe('express: Clerk and Keycloak middleware', () => {
  it("clerkMiddleware() and the Node SDK's ClerkExpressWithAuth() only put the auth state on the request; requireAuth(), ClerkExpressRequireAuth() and keycloak.protect() refuse a request without a user; keycloak.middleware() guards nothing", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'clerk', dependencies: { express: '4.21.2', '@clerk/express': '2.1.70', '@clerk/clerk-sdk-node': '5.1.6', 'keycloak-connect': '26.1.1' } }),
      'src/app.ts': `
import express from 'express';
import { clerkMiddleware, getAuth, requireAuth } from '@clerk/express';
import { ClerkExpressRequireAuth, ClerkExpressWithAuth } from '@clerk/clerk-sdk-node';
import Keycloak from 'keycloak-connect';

export const app = express();
app.use(clerkMiddleware());
app.get('/api/sites', (req, res) => res.json({ viewer: getAuth(req).userId }));
app.get('/api/projects', requireAuth(), (req, res) => res.json([]));

const legacy = express.Router();
legacy.use(ClerkExpressWithAuth());
legacy.get('/feed', (req, res) => res.json([]));
legacy.get('/drafts', ClerkExpressRequireAuth(), (req, res) => res.json([]));
app.use('/legacy', legacy);

const keycloak = new Keycloak({});
const admin = express.Router();
admin.use(keycloak.middleware());
admin.get('/status', (req, res) => res.json({ ok: true }));
admin.get('/users', keycloak.protect('realm:admin'), (req, res) => res.json([]));
app.use('/admin', admin);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /admin/status []',
      'GET /admin/users [keycloak.protect:auth]',
      'GET /api/projects [requireAuth:auth]',
      'GET /api/sites []',
      'GET /legacy/drafts [ClerkExpressRequireAuth:auth]',
      'GET /legacy/feed []',
    ]);
  });
});

describe('express: middleware named for a token or a login that refuses nothing', () => {
  it("express-bearer-token's bearerToken() only copies the token to req.token; @okta/oidc-middleware's oidc.router serves the login routes, its ensureAuthenticated() refuses", async () => {
    // (read at express-bearer-token 3.0, index.js; @okta/oidc-middleware 5.5, src/oidcUtil.js)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'tokens', dependencies: { express: '4.21.2', 'express-bearer-token': '3.0.0', '@okta/oidc-middleware': '5.5.1' } }),
      'src/app.ts': `
import express from 'express';
import bearerToken from 'express-bearer-token';
import { ExpressOIDC } from '@okta/oidc-middleware';

export const app = express();
app.use(bearerToken());
app.get('/api/sites', (req, res) => res.json({ token: Boolean(req.token) }));
const oidc = new ExpressOIDC({ issuer: process.env.OKTA_ISSUER, client_id: process.env.OKTA_CLIENT_ID, client_secret: process.env.OKTA_SECRET, appBaseUrl: 'https://console.example.com', scope: 'openid profile' });
app.use(oidc.router);
app.get('/api/profile', oidc.ensureAuthenticated(), (req, res) => res.json(req.userContext));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/profile [oidc.ensureAuthenticated:auth]',
      'GET /api/sites []',
    ]);
  });
});

describe('express: request plumbing by package', () => {
  it('request ids, client addresses, request-scoped context, slow-down and pagination refuse nothing: no guard candidates', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({
        name: 'plumbing',
        dependencies: { express: '4.21.2', 'express-request-id': '3.0.0', 'cls-rtracer': '2.6.3', 'express-http-context': '1.2.4', 'request-ip': '3.3.0', 'express-slow-down': '2.0.3', 'express-paginate': '1.0.2' },
      }),
      'src/app.ts': `
import express from 'express';
import requestId from 'express-request-id';
import rTracer from 'cls-rtracer';
import httpContext from 'express-http-context';
import requestIp from 'request-ip';
import { slowDown } from 'express-slow-down';
import paginate from 'express-paginate';

export const app = express();
app.use(requestId());
app.use(rTracer.expressMiddleware());
app.use(httpContext.middleware);
app.use(requestIp.mw());
app.use(slowDown({ windowMs: 60_000, delayAfter: 50, delayMs: (hits) => hits * 100 }));
app.use(paginate.middleware(+process.env.PAGINATION_PAGE_SIZE!));
app.get('/api/sites', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]`)).toEqual(['GET /api/sites []']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual(['GET /api/sites has no auth guard']);
  });
});

describe('express: compose-middleware', () => {
  it("compose([a, [b]]) is one middleware running a then b: each a guard of its own, at a route or a mount, through a name too", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'composed', dependencies: { express: '4.21.2', 'compose-middleware': '5.0.1' } }),
      'src/middleware/access.ts': `
import type { NextFunction, Request, Response } from 'express';
import { compose } from 'compose-middleware';
export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.userId) return res.status(401).json({ error: 'unauthenticated' });
  next();
}
export function requireTenant(req: Request, res: Response, next: NextFunction) {
  if (req.params.tenantId !== req.session?.tenantId) return res.status(404).json({ error: 'not found' });
  next();
}
export const tenantScoped = compose([requireSession, [requireTenant]]);
`,
      'src/app.ts': `
import express from 'express';
import { compose } from 'compose-middleware';
import { requireSession, tenantScoped } from './middleware/access';

const usage = express.Router();
usage.get('/', (req, res) => res.json({ bytes: 0 }));

export const app = express();
app.get('/api/tenants/:tenantId/sites', tenantScoped, (req, res) => res.json([]));
app.use('/api/usage', compose([requireSession]), usage);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(', ')}]`)).toEqual([
      'GET /api/tenants/:tenantId/sites [requireSession:auth:route-middleware, requireTenant:tenant:route-middleware]',
      'GET /api/usage/ [requireSession:auth:mount-middleware]',
    ]);
  });
});

describe('SuperTokens', () => {
  it("verifySession() answers 401 without a session unless sessionRequired: false; the framework's middleware() serves SuperTokens' own API and guards nothing", async () => {
    // (read at supertokens-node 24.0: recipe/session/framework/*.js, sessionRequestFunctions.js)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'st', dependencies: { express: '4.21.2', fastify: '5.2.1', 'supertokens-node': '24.0.3' } }),
      'src/app.ts': `
import express from 'express';
import { errorHandler, middleware } from 'supertokens-node/framework/express';
import { verifySession } from 'supertokens-node/recipe/session/framework/express';

export const app = express();
app.use(middleware());
app.get('/api/sites', verifySession(), (req, res) => res.json([]));
app.get('/api/feed', verifySession({ sessionRequired: false }), (req, res) => res.json([]));
app.use(errorHandler());
`,
      'src/billing.ts': `
import Fastify from 'fastify';
import { plugin } from 'supertokens-node/framework/fastify';
import { verifySession } from 'supertokens-node/recipe/session/framework/fastify';

const billing = Fastify();
billing.register(plugin);
billing.get('/billing/invoices', { preHandler: verifySession() }, async () => []);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/feed []',
      'GET /api/sites [verifySession:auth]',
      'GET /billing/invoices [verifySession:auth]',
    ]);
  });

  it("a middleware named for authentication that only hands its request to SuperTokens' middleware() guards nothing, whatever its name", async () => {
    // (pezzo's AuthMiddleware: `this.supertokensMiddleware = middleware()` in the constructor,
    // `use(req, res, next) { return this.supertokensMiddleware(req, res, next) }`, applied to every route)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'st-wrapped', dependencies: { '@nestjs/common': '10.4.15', '@nestjs/core': '10.4.15', express: '4.21.2', 'supertokens-node': '24.0.3' } }),
      'src/main.ts': `
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
`,
      'src/auth.middleware.ts': `
import { Injectable, NestMiddleware } from '@nestjs/common';
import { middleware } from 'supertokens-node/framework/express';

@Injectable()
export class AuthMiddleware implements NestMiddleware {
  supertokensMiddleware: any;

  constructor() {
    this.supertokensMiddleware = middleware();
  }

  use(req: Request, res: any, next: () => void) {
    return this.supertokensMiddleware(req, res, next);
  }
}
`,
      'src/app.module.ts': `
import { Controller, Get, MiddlewareConsumer, Module, NestModule, UseGuards } from '@nestjs/common';
import { AuthMiddleware } from './auth.middleware';
import { SessionGuard } from './session.guard';

@Controller('healthz')
export class HealthController {
  @Get()
  healthz() {
    return { status: 'OK' };
  }
}

@UseGuards(SessionGuard)
@Controller('sites')
export class SitesController {
  @Get()
  list() {
    return [];
  }
}

@Module({ controllers: [HealthController, SitesController] })
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(AuthMiddleware).forRoutes('*');
  }
}
`,
      'src/session.guard.ts': `
import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';

@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest();
    if (!req.session) throw new UnauthorizedException();
    return true;
  }
}
`,
      'src/express-app.ts': `
import express from 'express';
import { middleware } from 'supertokens-node/framework/express';

const supertokens = middleware();
function authenticate(req, res, next) {
  return supertokens(req, res, next);
}
// (one sending a request without a session to sign in first, then handing it on the same way:
// it is no guard as a whole, but the check it leads with still guards the route)
function ensureLoggedIn(req, res, next) {
  if (!req.session?.userId) {
    res.redirect('/login');
    return;
  }
  return supertokens(req, res, next);
}

export const app = express();
app.use(authenticate);
app.get('/status', (req, res) => res.json({ ok: true }));
app.get('/account', ensureLoggedIn, (req, res) => res.json({ id: req.session.userId }));
`,
    });
    const res = await check(dir);
    expect(routeKindLines(res)).toEqual([
      'GET /account [(inline signed-in check):auth]',
      'GET /api/healthz []',
      'GET /api/sites [SessionGuard:auth]',
      'GET /status []',
    ]);
  });
});

describe("express: passport's own session strategy", () => {
  it("app.use(passport.authenticate('session')) reads the user a session holds and hands every request on: no auth guard, unless the code registers a 'session' strategy of its own", async () => {
    // (passport 0.6+ writes it in place of passport.session(): lib/strategies/session.js passes
    // a request whose session holds no user; ensureLoggedIn is what refuses one)
    const app = (extra: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'sessions', dependencies: { express: '4.21.2', 'express-session': '1.18.1', passport: '0.7.0', 'connect-ensure-login': '0.1.1' } }),
        'src/app.ts': `
import express from 'express';
import session from 'express-session';
import passport from 'passport';
import { ensureLoggedIn } from 'connect-ensure-login';
${extra}
export const app = express();
app.use(session({ secret: process.env.SESSION_SECRET!, resave: false, saveUninitialized: false }));
app.use(passport.authenticate('session'));
app.get('/api/sites', (req, res) => res.json([]));
app.get('/api/projects', ensureLoggedIn('/login'), (req, res) => res.json([]));
`,
      });
    const rows = (res: Awaited<ReturnType<typeof check>>) => res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
    const res = await check(app(''));
    expect(rows(res)).toEqual(['GET /api/projects [ensureLoggedIn:auth]', 'GET /api/sites []']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:10']);
    // a strategy the code registers under that name is read as any other
    const own = await check(app("import { Strategy } from 'passport-custom';\npassport.use('session', new Strategy((req, done) => done(null, req.session?.user ?? false)));\n"));
    expect(rows(own)).toEqual(['GET /api/projects [passport.authenticate:auth, ensureLoggedIn:auth]', 'GET /api/sites [passport.authenticate:auth]']);
  });
});

describe('express: routers mounted in a loop over a list', () => {
  it('unrolls forEach and for…of over a list known statically: each item mounted at its own path, in order', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'loops', dependencies: { express: '4.21.2' } }),
      'src/guards.ts': GUARDS,
      'src/routes/auth.route.ts': `
import express from 'express';

export const authRoute = express.Router();
authRoute.post('/login', (req, res) => res.json({ token: 'issued' }));
`,
      'src/routes/users.route.ts': `
import express from 'express';
import { requireSession } from '../guards.js';

export const usersRoute = express.Router();
usersRoute.get('/:userId', requireSession, (req, res) => res.json({ id: req.params.userId }));
`,
      'src/routes/orgs.route.ts': `
import express from 'express';

export const orgsRoute = express.Router();
orgsRoute.get('/:org/members', (req, res) => res.json([]));
`,
      'src/routes/index.ts': `
import express from 'express';
import { requireOrgMember, requireSession } from '../guards.js';
import { authRoute } from './auth.route.js';
import { orgsRoute } from './orgs.route.js';
import { usersRoute } from './users.route.js';

export const router = express.Router();

const defaultRoutes = [
  { path: '/auth', route: authRoute },
  { path: '/users', route: usersRoute },
];
defaultRoutes.forEach((route) => {
  router.use(route.path, route.route);
});

// guarded mounts: each with the middleware the list gives it
const guarded = [{ path: '/orgs', route: orgsRoute, guards: [requireSession, requireOrgMember] }];
for (const g of guarded) router.use(g.path, ...g.guards, g.route);

// a route registered on each router of a list, through the loop's variable
const reports = express.Router();
const exportJobs = express.Router();
for (const jobs of [reports, exportJobs]) jobs.get('/status', requireSession, (req, res) => res.json({ queued: 0 }));
router.use('/reports', reports);
router.use('/exports', exportJobs);
`,
      'src/app.ts': `
import express from 'express';
import { router } from './routes/index.js';

export const app = express();
app.use('/v1', router);
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual([
      'POST /v1/auth/login []',
      'GET /v1/exports/status [requireSession]',
      'GET /v1/orgs/:org/members [requireSession, requireOrgMember]',
      'GET /v1/reports/status [requireSession]',
      'GET /v1/users/:userId [requireSession]',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('unrolls a loop whose item is destructured (`forEach(({ path, handler }) => …)`, `for (const { path, handler } of …)`) and a list a `.filter` callback decides for each item', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'loops', dependencies: { express: '4.21.2' } }),
      'src/guards.ts': GUARDS,
      'src/routes.ts': `
import type { Request, Response } from 'express';

export const endpoints = [
  { path: '/sites', secured: true, list: (req: Request, res: Response) => res.json({ items: [] }) },
  { path: '/status', secured: false, list: (req: Request, res: Response) => res.json({ ok: true }) },
];
`,
      'src/app.ts': `
import express from 'express';
import { requireSession } from './guards.js';
import { endpoints } from './routes.js';

export const app = express();
endpoints.forEach(({ path, list }) => app.get(\`/v1\${path}\`, list));
endpoints.filter((e) => e.secured).forEach((e) => app.get(\`/v2\${e.path}\`, requireSession, e.list));
for (const { path, list: handler } of endpoints.filter(({ secured }) => !secured)) app.get(\`/public\${path}\`, handler);
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual(['GET /public/status []', 'GET /v1/sites []', 'GET /v1/status []', 'GET /v2/sites [requireSession]']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("unrolls for…of and forEach over Object.entries, keys and values of a module's object, with the names destructured from each item", async () => {
    const controller = (name: string): string => `'use strict';
const { models } = require('../../sequelize');

async function getAll(req, res) {
	res.status(200).json(await models.${name}.findAll());
}

async function getById(req, res) {
	const row = await models.${name}.findByPk(req.params.id);
	if (!row) return res.status(404).send('404 - Not found');
	res.status(200).json(row);
}

module.exports = { getAll, getById };
`;
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'sequelize-example', dependencies: { express: '4.21.2' } }),
      'src/sequelize/index.js': "'use strict';\nmodule.exports = { models: {} };\n",
      'src/express/routes/users.js': controller('user'),
      'src/express/routes/orchestras.js': controller('orchestra'),
      'src/express/app.js': `'use strict';
const express = require('express');

const routes = {
	users: require('./routes/users'),
	orchestras: require('./routes/orchestras'),
};

const app = express();
const admin = express.Router();

// the standard REST routes of each controller
for (const [routeName, routeController] of Object.entries(routes)) {
	app.get(\`/api/\${routeName}\`, routeController.getAll);
	app.get(\`/api/\${routeName}/:id\`, routeController.getById);
}
for (const name of Object.keys(routes)) admin.delete(\`/\${name}/cache\`, (req, res) => res.status(204).end());
for (const controller of Object.values(routes)) admin.get('/first', controller.getById);
Object.entries(routes).forEach(([name, controller]) => admin.get(\`/\${name}/all\`, controller.getAll));
app.use('/admin', admin);

module.exports = app;
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual([
      // once per value: the first one serves
      'GET /admin/first []',
      'GET /admin/first []',
      'GET /admin/orchestras/all []',
      'DELETE /admin/orchestras/cache []',
      'GET /admin/users/all []',
      'DELETE /admin/users/cache []',
      'GET /api/orchestras []',
      'GET /api/orchestras/:id []',
      'GET /api/users []',
      'GET /api/users/:id []',
    ]);
    const handlers = (p: string): (string | null)[] => res.routes.filter((r) => r.path === p).map((r) => r.handlerFn && `${r.handlerFn.file}#${r.handlerFn.fn}`);
    expect(handlers('/api/users/:id')).toEqual(['src/express/routes/users.js#1']);
    expect(handlers('/admin/first')).toEqual(['src/express/routes/users.js#1', 'src/express/routes/orchestras.js#1']);
    // the same with app.js's facts read back from the cache (linked again: a controller gained an export)
    await run({ cwd: dir, paths: [], cache: true });
    fs.appendFileSync(path.join(dir, 'src/express/routes/users.js'), 'module.exports.count = async (req, res) => res.json({ count: 0 });\n');
    const warm = await run({ cwd: dir, paths: [], cache: true });
    expect(warm.extraction).toMatchObject({ reused: false, parsed: 1 });
    expect(routeLines(warm)).toEqual(routeLines(res));
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it('unrolls for…of over a new Map(entries) and for…of or forEach over a new Set(list); Map.forEach (values first) and a shadowed Map are not read so', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/app.ts': `
import path from 'node:path';
import express from 'express';

const app = express();
const libFiles = new Map([
  ['/js/lib/chart.umd.min.js', 'node_modules/chart.js/dist/chart.umd.min.js'],
  ['/css/lib/cookieconsent.min.css', 'node_modules/vanilla-cookieconsent/dist/cookieconsent.css'],
]);
for (const [fileUrl, filePath] of libFiles) {
  const send = (req, res) => res.sendFile(path.join(__dirname, filePath), { maxAge: '1y' });
  app.head(fileUrl, send);
  app.get(fileUrl, send);
}
const probes = new Set(['/healthz', '/readyz']);
for (const probe of probes) app.get(probe, (req, res) => res.json({ ok: true }));
new Set(['/favicon.ico']).forEach((icon) => app.get(icon, (req, res) => res.status(204).end()));
libFiles.forEach((filePath) => app.options(filePath, (req, res) => res.status(204).end()));
app.listen(3000);
`,
      'src/shadowed.ts': `
import express from 'express';

// an ordered map of the host's own, not the global Map
const Map = (globalThis as any).LinkedMap;

export const other = express();
for (const [p] of new Map([['/not-global', 1]])) other.get(p, (req, res) => res.json({}));
`,
    });
    const res = await check(dir);
    expect(routeLines(res)).toEqual([
      'GET /css/lib/cookieconsent.min.css []',
      'HEAD /css/lib/cookieconsent.min.css []',
      'GET /favicon.ico []',
      'GET /healthz []',
      'GET /js/lib/chart.umd.min.js []',
      'HEAD /js/lib/chart.umd.min.js []',
      'GET /readyz []',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/app.ts:18 OPTIONS route with a path not known statically (the parameter filePath); it is left out',
      'src/shadowed.ts:8 GET route with a path not known statically (item 0 of a list not known statically); it is left out',
    ]);
  });

  it('a loop over a list not known statically stays a registration on a parameter of the callback, reported', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'loops-unknown', dependencies: { express: '4.21.2' } }),
      'src/app.ts': `
import express from 'express';
import { loadRouters } from './plugins.js';

export const app = express();
loadRouters().forEach((router) => {
  router.get('/health', (req, res) => res.json({ ok: true }));
});
`,
      'src/plugins.ts': `
export function loadRouters(): any[] {
  return JSON.parse(process.env.ROUTERS ?? '[]');
}
`,
    });
    const res = await check(dir);
    expect(res.routes).toEqual([]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => f.message)).toEqual([
      "routes registered on the parameter 'router' of a function() whose callers pass no router known statically; their prefix is unknown",
    ]);
  });
});

describe('express: request sanitizers by package', () => {
  it('xss-clean, express-mongo-sanitize, serve-favicon, express-static-gzip, connect-gzip-static, apicache and the like guard nothing, and are no candidates', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({
        name: 'sanitized',
        dependencies: { express: '4.21.2', 'xss-clean': '0.1.4', 'express-mongo-sanitize': '2.2.0', 'express-fileupload': '1.5.1', 'serve-favicon': '2.5.0', 'express-static-gzip': '2.2.0', 'connect-gzip-static': '4.0.0', apicache: '1.6.3' },
      }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import path from 'node:path';
import apicache from 'apicache';
import gzipStatic from 'connect-gzip-static';
import express from 'express';
import fileUpload from 'express-fileupload';
import mongoSanitize from 'express-mongo-sanitize';
import expressStaticGzip from 'express-static-gzip';
import favicon from 'serve-favicon';
import xss from 'xss-clean';
import { requireSession } from './guards.js';

const cache = apicache.middleware;
export const app = express();
app.use(favicon(path.join(__dirname, 'public', 'favicon.ico')));
app.use('/', expressStaticGzip('dist', { enableBrotli: true }));
app.use(gzipStatic(path.resolve('./www')));
app.use(xss());
app.use(mongoSanitize());
app.use(fileUpload({ limits: { fileSize: 5 * 1024 * 1024 } }));
app.post('/api/avatars', requireSession, (req, res) => res.status(201).end());
app.get('/api/badges/:id', cache('5 minutes'), requireSession, (req, res) => res.json({ id: req.params.id }));
`,
    });
    expect(routeLines(await check(dir), { mechanism: true })).toEqual(['POST /api/avatars [requireSession (route-middleware)]', 'GET /api/badges/:id [requireSession (route-middleware)]']);
  });
});

describe('express: middleware loaded by require()', () => {
  it("is named by the module it loads (by its folder for an index): a guard is classified by that name, and a candidate is named so in findings; i18n's init guards nothing", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'notes', dependencies: { express: '4.21.2', i18n: '0.15.1' } }),
      // by its name only: it hands the request to a session store this project does not hold
      'lib/middleware/ensureLoggedIn.js': `const sessions = require('@acme/sessions');
module.exports = function (req, res, next) {
  sessions.check(req, next);
};
`,
      // answers 402: it may be a guard
      'lib/plan-limits/index.js': `module.exports = function (req, res, next) {
  if (!req.account || !req.account.active) return res.status(402).json({ error: 'plan inactive' });
  next();
};
`,
      'app.js': `const express = require('express');
const i18n = require('i18n');

const app = express();
app.use(i18n.init);
app.use(require('./lib/plan-limits'));
app.get('/notes', require('./lib/middleware/ensureLoggedIn.js'), (req, res) => res.json([]));
app.get('/status', (req, res) => res.json({ ok: true }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'GET /notes plan-limits:unknown ensureLoggedIn:auth',
      'GET /status plan-limits:unknown',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual([
      'GET /status has no auth guard (unclassified middleware that may be one: plan-limits; declare it in guards.auth or guards.ignore)',
    ]);
  });
});

/** A router of three routes, mounted under a head not known statically below. */
const INDEX_ROUTER = `
import { Router } from 'express';

export const indexRouter = Router();
indexRouter.get('/api/admin/features', (req, res) => res.json({ features: [] }));
indexRouter.get('/api/client/features', (req, res) => res.json({ features: [] }));
indexRouter.get('/health', (req, res) => res.json({ ok: true }));
`;

describe('express: a use() path whose head is not known statically', () => {
  const project = (): string =>
    writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/config.ts': `
import convict from 'convict';

export const config = convict({ server: { baseUriPath: { default: '', env: 'BASE_URI_PATH' }, adminPath: { default: '/admin', env: 'ADMIN_PATH' } } });
`,
      'src/routes/index.ts': INDEX_ROUTER,
      'src/app.ts': `
import express from 'express';
import { config } from './config.js';
import { requireOrgMember, requireSession } from './guards.js';
import { indexRouter } from './routes/index.js';

export function createApp() {
  const app = express();
  const baseUriPath = config.get('server.baseUriPath') || '';
  const adminPath = config.get('server.adminPath');
  app.use(baseUriPath, requireSession);
  [requireOrgMember].forEach((guard) => {
    app.use(\`\${baseUriPath}/api/admin\`, guard);
  });
  // another head: what it places reaches no route under baseUriPath
  app.use(\`\${adminPath}/api/client\`, requireOrgMember);
  app.use(\`\${baseUriPath}/\`, indexRouter);
  // every other API request: a 404, an ALL route
  app.use(\`\${baseUriPath}/api\`, (req, res) => res.status(404).json({ error: 'not found' }));
  // a route's own path: listed after its head when something is known after it
  app.get(\`\${baseUriPath}/ping\`, (req, res) => res.json({ ok: true }));
  app.get(\`\${baseUriPath}\`, (req, res) => res.send('<html></html>'));
  // known text in the head's segment: another head, under which the router is listed too
  app.use(\`/v1\${baseUriPath}\`, indexRouter);
  return app;
}
`,
    });

  it('mounts under its head: routes are listed without it, after the known rest, with a step that says so', async () => {
    const dir = project();
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true })).toEqual([
      'ALL /api [requireSession (app.use), (refuses every request) (in-handler)]',
      'GET /api/admin/features [requireSession (app.use), requireOrgMember (app.use)]',
      'GET /api/admin/features []',
      'GET /api/client/features [requireSession (app.use)]',
      'GET /api/client/features []',
      'GET /health [requireSession (app.use)]',
      'GET /health []',
      'GET /ping [requireSession (app.use)]',
    ]);
    const head = { file: 'src/app.ts', unknown: "config.get('server.baseUriPath') || ''" };
    expect(res.routes.map((r) => r.prefixes)).toEqual([
      // the head is a step of its own, the rest the ALL route's path
      [{ prefix: '', line: 19, ...head }],
      // (under `/v1${baseUriPath}` too: a head of its own, the note its last part's)
      ...[1, 2, 3].flatMap(() => [[{ prefix: '/', line: 17, ...head }], [{ prefix: '', line: 24, ...head }]]),
      [{ prefix: '', line: 21, ...head }],
    ]);
    // an incomplete path is matched to no contract route
    expect(res.routes.map((r) => r.contractRoute)).toEqual([null, null, null, null, null, null, null, null]);
    expect(cli(['explain', 'GET /health', '--no-color'], dir).stdout).toMatch(/prefixes\s+\(not known statically: config\.get\('server\.baseUriPath'\) \|\| ''\)\/\s+src\/app\.ts:17 /);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.line} ${f.message}`)).toEqual([
      "11 the path of this use() is not known statically (config.get('server.baseUriPath') || ''); the routes under it are listed without that part",
      "13 the path of this use() is not known statically (config.get('server.baseUriPath') || ''); the routes under it are listed without that part",
      '16 the path of this use() is not known statically (a value from convict); the routes under it are listed without that part',
      "17 the path of this use() is not known statically (config.get('server.baseUriPath') || ''); the routes under it are listed without that part",
      "19 the path of this use() is not known statically (config.get('server.baseUriPath') || ''); the routes under it are listed without that part",
      "21 GET route with a path not known statically (config.get('server.baseUriPath') || ''); it is listed without that part",
      '22 GET route with a path not known statically (template with a value not known statically); it is left out',
      "24 the path of this use() is not known statically (config.get('server.baseUriPath') || ''); the routes under it are listed without that part",
    ]);
  });

  it("keeps the known text before its head: `/api/${API_VERSION}` lists what it mounts under /api, written /api/…/ where the head stands; a layer at /api or at the same head reaches it", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express, { Router } from 'express';
import { requireOrgMember, requireSession } from './guards.js';

const API_VERSION = process.env.API_VERSION;
const sites = Router();
sites.get('/orgs/:org/sites', (req, res) => res.json([]));

const app = express();
app.use('/api', requireSession);
app.use(\`/api/\${API_VERSION}\`, requireOrgMember);
app.use(\`/api/\${API_VERSION}\`, sites);
app.get(\`/api/v\${API_VERSION}/status\`, (req, res) => res.json({ ok: true }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    // (`/api/v${API_VERSION}`: text begun in the head's segment belongs to the head, another one)
    expect(routeLines(res, { mechanism: true })).toEqual(['GET /api/orgs/:org/sites [requireSession (app.use), requireOrgMember (app.use)]', 'GET /api/status [requireSession (app.use)]']);
    const unknown = 'property API_VERSION of a value not known statically';
    expect(res.routes.map((r) => r.prefixes)).toEqual([[{ prefix: '', file: 'src/app.ts', line: 12, unknown }], [{ prefix: '', file: 'src/app.ts', line: 13, unknown }]]);
    expect(res.findings.filter((f) => f.ruleId !== 'contract-route-missing').map((f) => `${f.line} ${f.ruleId} ${f.message}`)).toEqual([
      '7 uncontracted-route GET /api/…/orgs/:org/sites is on the browser surface but not in the contract',
      '11 unresolved-route the path of this use() is not known statically (property API_VERSION of a value not known statically); the routes under it are listed without that part',
      '12 unresolved-route the path of this use() is not known statically (property API_VERSION of a value not known statically); the routes under it are listed without that part',
      '13 missing-tenant-guard GET /api/…/status has no tenant guard',
      '13 uncontracted-route GET /api/…/status is on the browser surface but not in the contract',
      '13 unresolved-route GET route with a path not known statically (property API_VERSION of a value not known statically); it is listed without that part',
    ]);
    const table = cli(['list', '--no-color'], dir).stdout.split('\n');
    expect(table.slice(1, 3).map((l) => l.split(/ {2,}/).slice(0, 2).join(' '))).toEqual(['GET /api/…/orgs/:org/sites', 'GET /api/…/status']);
  });

  it("what a package's getter gives as a use() path (NodeBB's `nconf.get('relative_path')`) is a path, never a middleware", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import nconf from 'nconf';
import { requireSession } from './guards.js';
import { forumRouter } from './forum.js';

const app = express();
app.use(nconf.get('relative_path'), forumRouter);
app.get('/api/me', requireSession, (req, res) => res.json({ uid: 1 }));
app.listen(4567);
`,
      'src/forum.ts': `
import { Router } from 'express';

export const forumRouter = Router();
forumRouter.get('/topics', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true })).toEqual(['GET /api/me [requireSession (route-middleware)]', 'GET /topics []']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.line} ${f.message}`)).toEqual([
      '8 the path of this use() is not known statically (a value from nconf); the routes under it are listed without that part',
    ]);
  });

  it('text reports write the part not known statically as /…, where the JSON report keeps the known rest', async () => {
    const dir = project();
    const res = await check(dir);
    expect(res.routes.map((r) => r.path)).toEqual(['/api', '/api/admin/features', '/api/admin/features', '/api/client/features', '/api/client/features', '/health', '/health', '/ping']);
    const table = cli(['list', '--no-color'], dir).stdout.split('\n');
    expect(table.slice(1, 9).map((l) => l.split(/ {2,}/).slice(0, 2).join(' '))).toEqual([
      'ALL /…/api',
      'GET /…/api/admin/features',
      'GET /…/api/admin/features',
      'GET /…/api/client/features',
      'GET /…/api/client/features',
      'GET /…/health',
      'GET /…/health',
      'GET /…/ping',
    ]);
    expect(cli(['list', '--format', 'tree', '--no-color', '--filter', 'features'], dir).stdout).toBe(
      [
        'app (express, 4 routes)',
        '└── /…/api/',
        '    ├── admin/features GET browser [auth tenant]',
        '    │                  GET browser [!auth !tenant]',
        '    └── client/features GET browser [auth !tenant]',
        '                        GET browser [!auth !tenant]',
        '',
        '4 routes',
        'routes not fully known at 8 places (src/app.ts:11, src/app.ts:13, src/app.ts:16 and 5 more): `route-surface check` reports each as unresolved-route',
        '',
      ].join('\n'),
    );
    // findings about a route name it so (their fingerprints still use the JSON path)
    const stylish = cli(['check', '--no-color'], dir).stdout;
    expect(stylish).toContain('GET /…/ping has no tenant guard');
    expect(stylish).not.toMatch(/GET \/ping /);
    expect(cli(['explain', 'GET /ping', '--no-color'], dir).stdout.split('\n')[0]).toBe('GET /…/ping');
  });

  it("is the same head wherever a function is handed it: a parameter given it, or a local falling back to '' from it (Unleash's baseUriPath)", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/routes/index.ts': INDEX_ROUTER,
      'src/middleware/oss-authentication.ts': `
import type { Application } from 'express';
import { requireSession } from '../guards.js';

export default function ossAuthentication(app: Application, baseUriPath: string): void {
  app.use(\`\${baseUriPath}/api\`, requireSession);
}
`,
      'src/middleware/admin-only.ts': `
import type { Application } from 'express';
import { requireOrgMember } from '../guards.js';

export function adminOnly(basePath: string, app: Application): void {
  app.use(\`\${basePath}/api/admin\`, requireOrgMember);
}

export function clientOnly(app: Application, mountedAt: string): void {
  app.use(\`\${mountedAt}/api/client\`, requireOrgMember);
}
`,
      'src/app.ts': `
import express from 'express';
import type { Config } from './types.js';
import ossAuthentication from './middleware/oss-authentication.js';
import { adminOnly, clientOnly } from './middleware/admin-only.js';
import { indexRouter } from './routes/index.js';

export default function getApp(config: Config) {
  const app = express();
  const baseUriPath = config.server.baseUriPath || '';
  ossAuthentication(app, config.server.baseUriPath);
  adminOnly(baseUriPath, app);
  // another head: the admin UI's path
  clientOnly(app, config.server.adminPath);
  app.use(\`\${baseUriPath}/\`, indexRouter);
  return app;
}
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true })).toEqual([
      'GET /api/admin/features [requireSession (app.use), requireOrgMember (app.use)]',
      'GET /api/client/features [requireSession (app.use)]',
      'GET /health []',
    ]);
  });
});

describe('apps of one name made in different places', () => {
  it("are each named with the file they are made in (and the line when one file makes two); an app a factory makes at two calls is one app; a name used once stays bare", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'billing', dependencies: { express: '4.21.2', fastify: '5.2.1' } }),
      'src/routes.ts': `
import { Router } from 'express';
export const api = Router();
api.get('/invoices', (_req, res) => res.json({ items: [] }));
`,
      'src/server.ts': `
import express from 'express';
import { api } from './routes';
const app = express();
app.use('/api', api);
app.listen(3000);
`,
      // a test building its own app around the same router
      'test/helper.ts': `
import express from 'express';
import { api } from '../src/routes';
export const app = express();
app.use('/api', api);
`,
      // one file making two apps of one name, in two functions
      'test/two-apps.ts': `
import express from 'express';
import { api } from '../src/routes';
export function withApi() {
  const app = express();
  app.use('/v1', api);
  return app;
}
export function withHealth() {
  const app = express();
  app.get('/health', (_req, res) => res.json({ ok: true }));
  return app;
}
`,
      // a factory's app, made at two calls: one app
      'src/admin.ts': `
import express from 'express';
export function makeAdmin() {
  const admin = express();
  admin.get('/admin/stats', (_req, res) => res.json({}));
  return admin;
}
export const primary = makeAdmin();
export const replica = makeAdmin();
`,
      'src/metrics.ts': `
import Fastify from 'fastify';
const metrics = Fastify();
metrics.get('/metrics', async () => 'ok');
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.app}`)).toEqual([
      'GET /admin/stats admin',
      'GET /api/invoices app (src/server.ts)',
      'GET /api/invoices app (test/helper.ts)',
      'GET /health app (test/two-apps.ts:10)',
      'GET /metrics metrics',
      'GET /v1/invoices app (test/two-apps.ts:5)',
    ]);
  });
});

describe('express: routes a middleware package answers itself', () => {
  it("a regular expression matching every path (code-server's `app.router.use(/.*/, redirect)`, `router.all(/.*/, proxy)`): a use() running for every request, a route serving every path; any other is not known statically", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { requireSession } from './guards.js';

const app = express();
app.use(/.*/, requireSession);
app.get('/me', (req, res) => res.json({ user: req.session.userId }));
app.all(/^\\/(.*)$/, (req, res) => res.sendFile('index.html', { root: 'public' }));
app.get(/^\\/files\\/.*/, (req, res) => res.end());
app.listen(8080);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['ALL /* [requireSession] src/app.ts:8', 'GET /me [requireSession] src/app.ts:7']);
    expect(unresolvedRows(res)).toEqual(['src/app.ts:9:1 warning unresolved-route GET route with a path not known statically (a regular expression, /^\\/files\\/.*/); it is left out']);
  });

  it("a function use()d that hands its request whole to a router mounts the router there (nango's MCP API: `if (req.get('host') !== mcpHost) return next(); mcpRouter(req, res, next)`)", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/mcp.ts': `
import express, { type NextFunction, type Request, type Response } from 'express';
import { requireSession } from './guards.js';

const mcpRouter = express.Router();
mcpRouter.post('/mcp', requireSession, (req, res) => res.json({ ok: true }));
mcpRouter.use((req, res) => res.status(404).json({ error: 'not found' }));

export const mcpApi = (req: Request, res: Response, next: NextFunction) => {
  if (req.get('host') !== process.env.MCP_HOST) return next();
  mcpRouter(req, res, next);
};
`,
      'src/app.ts': `
import express from 'express';
import { mcpApi } from './mcp.js';

const inner = express.Router();
inner.get('/ping', (req, res) => res.send('pong'));

const app = express();
app.use('/v2', mcpApi);
app.use('/v3', (req, res, next) => inner(req, res, next));
// (the requests of other hosts go on past the MCP router's own 404)
app.get('/v2/status', (req, res) => res.json({ ok: true }));
app.listen(8080);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['POST /v2/mcp [requireSession] src/mcp.ts:6', 'GET /v2/status [] src/app.ts:12', 'GET /v3/ping [] src/app.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("made as `express.default()` of a namespace import (code-server's tests): the module's default is the module itself, an app and a router as `express()` and `express.Router()`", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/admin.ts': `
import * as express from 'express';
import { requireSession } from './guards.js';

export const admin = express.default.Router();
admin.post('/reset', requireSession, (req, res) => res.status(204).end());
`,
      'src/app.ts': `
import * as express from 'express';
import { admin } from './admin.js';

const app = express.default();
app.get('/wsup', (req, res) => res.json({ ok: true }));
app.use('/admin', admin);
app.listen(8080);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['POST /admin/reset [requireSession] src/admin.ts:6', 'GET /wsup [] src/app.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("express-actuator's router serves GET /info, /metrics and /health below its basePath and mount path, under the layers before it (Actual's sync server)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'actual-sync', type: 'module', dependencies: { express: '4.21.2', 'express-actuator': '1.8.4' } }),
      'src/guards.ts': GUARDS,
      'src/app.js': `import express from 'express';
import actuator from 'express-actuator';
import { requireSession } from './guards.js';

const app = express();
app.use(actuator()); // Provides /health, /metrics, /info
app.get('/mode', (req, res) => res.send(process.env.NODE_ENV));

const ops = express.Router();
ops.use(requireSession);
ops.use(actuator({ basePath: '/management' }));
app.use('/ops', ops);
app.use(actuator(process.env.ACTUATOR_BASE));
app.get('/*', (req, res) => res.sendFile('index.html'));
app.listen(5006);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'GET /* [] src/app.js:14',
      'GET /health [] src/app.js:6',
      'GET /info [] src/app.js:6',
      'GET /metrics [] src/app.js:6',
      'GET /mode [] src/app.js:7',
      'GET /ops/management/health [requireSession] src/app.js:11',
      'GET /ops/management/info [requireSession] src/app.js:11',
      'GET /ops/management/metrics [requireSession] src/app.js:11',
    ]);
    expect(unresolvedRows(res)).toEqual([
      "src/app.js:13:1 warning unresolved-route the base path of express-actuator's routes is not known statically (property ACTUATOR_BASE of a value not known statically); its /info, /metrics and /health routes are left out",
    ]);
  });

  it("express-prom-bundle answers its metricsPath, any method, where requests for it reach the middleware: under the layers before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'metered', dependencies: { express: '4.21.2', 'express-prom-bundle': '8.0.0', 'prom-client': '15.1.3' } }),
      'src/guards.ts': `${GUARDS}
export function requireOpsToken(req: Request, res: Response, next: NextFunction) {
  if (req.get('x-ops-token') !== process.env.OPS_TOKEN) return res.status(401).end();
  next();
}
`,
      // the dashboard: metrics first, so the session check that follows does not cover them
      'src/app.ts': `
import express from 'express';
import promBundle from 'express-prom-bundle';
import { requireSession } from './guards.js';
import { api } from './api.js';

export const app = express();
app.use(promBundle({ includeMethod: true, includePath: true }));
app.use(requireSession);
app.use('/api', api);
`,
      // a router mounted at /api: a request for /metrics never reaches its middleware
      'src/api.ts': `
import { Router } from 'express';
import promBundle from 'express-prom-bundle';

export const api = Router();
api.use(promBundle());
api.get('/sites', (req, res) => res.json([]));
`,
      // the operations server: behind the token check, at a path of its own; one not served, one not known statically
      'src/ops.ts': `
import express from 'express';
import promBundle from 'express-prom-bundle';
import { requireOpsToken } from './guards.js';

const ops = express();
ops.use('/internal', requireOpsToken, promBundle({ metricsPath: '/internal/metrics' }));
ops.use(promBundle({ autoregister: false }));
ops.use(promBundle({ metricsPath: process.env.METRICS_PATH }));
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true, matching: true })).toEqual([
      'GET /api/sites [requireSession (app.use)]',
      'ALL /internal/metrics [requireOpsToken (app.use)] case-sensitive',
      'ALL /metrics [] case-sensitive',
    ]);
    expect(res.routes.filter((r) => r.method === 'ALL').map((r) => `${r.path} ${r.handler} ${r.file}:${r.line}`)).toEqual([
      '/internal/metrics express-prom-bundle src/ops.ts:7',
      '/metrics express-prom-bundle src/app.ts:8',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/ops.ts:9 the metrics path express-prom-bundle answers is not known statically (property METRICS_PATH of a value not known statically); its route is left out',
    ]);
  });

  it("express-status-monitor answers its status page's path (`/status` unless told), any method, exactly as written, below where it is used: under the layers before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'monitored', dependencies: { express: '4.21.2', 'express-status-monitor': '1.3.4' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import statusMonitor from 'express-status-monitor';
import { requireSession } from './guards.js';

export const app = express();
// the monitor first, as its README has it: the session check that follows does not cover the page
app.use(statusMonitor({ title: 'Control plane', chartVisibility: { mem: false } }));
app.use(requireSession);
const ops = express.Router();
// (its \`middleware\` is the same middleware; a path that is no string keeps the default)
ops.use(statusMonitor({ path: '/queues/status' }).middleware);
ops.use(statusMonitor({ path: 42 }));
ops.use(statusMonitor({ path: process.env.STATUS_PATH }));
app.use('/ops', ops);
const monitor = statusMonitor({ path: '' });
app.use(monitor);
app.get('/api/sites', monitor.pageRoute);
`,
    });
    const res = await check(dir);
    expect(routeLines(res, { mechanism: true, matching: true })).toEqual([
      'GET /api/sites [requireSession (app.use)]',
      'ALL /ops/queues/status [requireSession (app.use)] strict case-sensitive',
      'ALL /ops/status [requireSession (app.use)] strict case-sensitive',
      'ALL /status [] strict case-sensitive',
    ]);
    expect(res.routes.filter((r) => r.method === 'ALL').map((r) => `${r.path} ${r.handler} ${r.file}:${r.line}`)).toEqual([
      '/ops/queues/status express-status-monitor src/app.ts:12',
      '/ops/status express-status-monitor src/app.ts:13',
      '/status express-status-monitor src/app.ts:8',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/app.ts:14 the path express-status-monitor answers is not known statically (property STATUS_PATH of a value not known statically); its route is left out',
    ]);
    // what it hands on it only times: no guard, and no candidate
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual(['ALL /status has no auth guard']);
  });

  it("a function use()d at a path taking only (req, res) ends every request reaching it, whoever writes the answer (anything-llm's single-page app)", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'server/utils/boot/IndexPage.js': `const fs = require('fs');
const path = require('path');

const IndexPage = {
  generate(response) {
    response.sendFile(path.join(__dirname, '../../public/index.html'));
  },
  log(request) {
    console.log(request.path);
  },
};

module.exports = { IndexPage };
`,
      'server/index.js': `const express = require('express');
const { IndexPage } = require('./utils/boot/IndexPage');

const app = express();
app.get('/robots.txt', (_, response) => response.type('text/plain').send('User-agent: *\nDisallow: /'));
app.use('/api/debug', function (request, response, next) {
  IndexPage.log(request);
  next();
});
app.use('/', function (_, response) {
  IndexPage.generate(response);
  return;
});
app.listen(3001);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['ALL / [] server/index.js:11', 'GET /robots.txt [] server/index.js:5']);
  });

  it('a function use()d at a path that hands its next to a guard, answering only when that throws, is a middleware: no route, its routes guarded', async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': `${GUARDS}
export function assertSession(req: Request, _res: Response, next: NextFunction) {
  if (!req.session?.userId) throw new Error('no session');
  next();
}
`,
      'src/app.ts': `import express from 'express';
import { assertSession } from './guards';

const app = express();
app.use('/api', (req, res, next) => {
  try {
    assertSession(req, res, next);
  } catch {
    res.status(401).json({ error: 'sign in' });
  }
});
app.get('/api/projects', (req, res) => {
  res.json([]);
});
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['GET /api/projects [(inline middleware)] src/app.ts:12']);
    expect(res.routes[0]!.guards.map((g) => g.kinds.join('+'))).toEqual(['auth']);
  });

  it("a middleware answering the requests to a path itself, handing every other on, is a route there (The Lounge's `index`), and no layer of the other routes", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/server.ts': `import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { requireSession } from './guards';
import { renderIndex, metricsText, maintenanceMode } from './views';

function index(req: Request, res: Response, next: NextFunction) {
  if (req.url.split('?')[0] !== '/') {
    return next();
  }
  res.send(renderIndex({ version: process.env.APP_VERSION }));
}

const app = express().use(index);
app.use(function metrics(req: Request, res: Response, next: NextFunction) {
  if (req.path === '/internal/metrics') {
    return res.type('text/plain').send(metricsText());
  }
  next();
});
app.use((req, res, next) => {
  if (req.method === 'GET' && req.path === '/status') return res.json({ up: true });
  return next();
});
app.use((req, res, next) => {
  if (req.path === '/robots.txt') {
    res.type('text/plain').send('User-agent: *\\nDisallow: /');
  } else {
    next();
  }
});
app.use('/ops', function ping(req: Request, res: Response, next: NextFunction) {
  if (req.path !== '/ping') return next();
  res.end('pong');
});
app.use('/ops', (req, res, next) => {
  if (req.originalUrl !== '/ops/version') return next();
  res.json({ version: process.env.APP_VERSION });
});
// a check of one path, handing on what it lets through: a guard, not a route
app.use(function adminOnly(req: Request, res: Response, next: NextFunction) {
  if (req.path !== '/admin/panel') return next();
  if (!req.session?.isAdmin) return res.status(401).json({ error: 'admins only' });
  next();
});
// a CORS preflight's answer, of every path: no route of its own
app.use((req, res, next) => {
  if (req.method !== 'OPTIONS') return next();
  res.set('Access-Control-Allow-Methods', 'GET,POST').sendStatus(204);
});
// what it answers is no one path
app.use((req, res, next) => {
  if (!req.path.startsWith('/downloads/')) return next();
  res.sendFile(req.path.slice('/downloads/'.length), { root: '/srv/files' });
});
// a path tested from the root, at the root
app.use((req, res, next) => {
  if (req.originalUrl !== '/healthz') return next();
  res.send('ok');
});
// of one method at one path, the test failing for it
app.use((req, res, next) => {
  if (req.path !== '/version' || req.method !== 'GET') return next();
  res.json({ version: process.env.APP_VERSION });
});
// a refusal under a test of something besides the request (Unleash's maintenance mode): no route
app.use(async (req, res, next) => {
  const isProtectedPath = !req.path.includes('/maintenance');
  const writeMethod = ['POST', 'PUT', 'DELETE'].includes(req.method);
  if (isProtectedPath && writeMethod && (await maintenanceMode())) {
    res.status(503).send({ message: 'Unleash is currently in maintenance mode.' });
  } else {
    next();
  }
});
// a path it only refuses: blocked, not served
app.use((req, res, next) => {
  if (req.path === '/.env') return res.sendStatus(404);
  next();
});
app.get('/admin/panel', requireSession, (req, res) => res.json({ panel: true }));
app.get('/api/projects', requireSession, (req, res) => res.json({ projects: [] }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'ALL / [] src/server.ts:13',
      // (adminOnly's test is case-sensitive, the route not: `/ADMIN/panel` gets past it)
      'GET /admin/panel [requireSession] src/server.ts:80',
      'GET /api/projects [requireSession] src/server.ts:81',
      'ALL /healthz [] src/server.ts:56',
      'ALL /internal/metrics [] src/server.ts:14',
      'ALL /ops/ping [] src/server.ts:31',
      'ALL /ops/version [] src/server.ts:35',
      'ALL /robots.txt [] src/server.ts:24',
      'GET /status [] src/server.ts:20',
      'GET /version [] src/server.ts:61',
    ]);
    expect(res.routes.find((r) => r.path === '/')!.handler).toBe('index');
    // (each compares the path as written)
    expect(routeLines(res, { matching: true }).filter((l) => l.startsWith('ALL /ops') || l.startsWith('GET /status'))).toEqual([
      'ALL /ops/ping [] strict case-sensitive',
      'ALL /ops/version [] strict case-sensitive',
      'GET /status [] strict case-sensitive',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'excluded-family-leak' || f.ruleId === 'unresolved-route'))).toEqual([
      'src/server.ts:14:1 error excluded-family-leak ALL /internal/metrics is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'src/server.ts:31:1 error excluded-family-leak ALL /ops/ping is in the excluded family "ops" and is reachable without its family guard (unguarded)',
      'src/server.ts:35:1 error excluded-family-leak ALL /ops/version is in the excluded family "ops" and is reachable without its family guard (unguarded)',
      'src/server.ts:51:1 warning unresolved-route this middleware answers the requests a test of their path picks, not one path: they are not listed as routes',
    ]);
  });

  it("a function use()d at a path handing requests of one method to a handler, the rest to next, is a route of that method (dashy's `method('GET', handler)`)", async () => {
    const dir = writeProject({
      'package.json': PKG,
      'src/guards.ts': GUARDS,
      'src/server.ts': `import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { requireSession } from './guards';

type Handler = (req: Request, res: Response, next: NextFunction) => void;
/* A middleware for Connect that filters requests on their method */
const method = (m: string, mw: Handler): Handler => (req, res, next) => (req.method === m ? mw(req, res, next) : next());
function only(m: string, mw: Handler): Handler {
  return function (req, res, next) {
    if (req.method === m) return mw(req, res, next);
    return next();
  };
}
const verb = process.env.STATUS_METHOD ?? 'GET';

const app = express();
app.use('/status-check', method('GET', (req, res) => {
  res.json({ up: true, url: req.url });
}));
app.use('/config/save', requireSession, only('POST', (req, res) => {
  res.json({ saved: Object.keys(req.body ?? {}) });
}));
app.use('/probe', method(verb, (_req, res) => {
  res.end('ok');
}));
// (Node spells req.method in capitals: a filter on 'get' hands every request on, serving none)
app.use('/legacy', method('get', (_req, res) => {
  res.end('legacy');
}));
app.listen(4000);
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'POST /config/save [requireSession] src/server.ts:20',
      // a method not known statically: every method, reported
      'ALL /probe [] src/server.ts:23',
      'GET /status-check [] src/server.ts:17',
    ]);
    expect(unresolvedRows(res)).toEqual([
      "src/server.ts:23:1 warning unresolved-route the method this use() hands on to its handler is not known statically (process.env.STATUS_METHOD ?? 'GET'); it is listed as ALL",
    ]);
  });

  it('http-proxy-middleware and express-http-proxy answer what they take with another server: ALL routes at the mount path or the path filter, under the layers before them, no guard', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'bff', dependencies: { express: '4.21.2', 'express-http-proxy': '2.1.2', 'http-proxy-middleware': '3.0.5' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import proxy from 'express-http-proxy';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { requireSession } from './guards.js';
import { reports } from './reports.js';

export const app = express();
// the billing service, mounted before the session check
app.use('/internal/billing', createProxyMiddleware({ target: 'http://billing.internal:8080', changeOrigin: true }));
// the ops service's two paths, below no mount (3.x: matched on req.url)
app.use(createProxyMiddleware({ target: 'http://ops.internal:9090', pathFilter: ['/ops/metrics', '/ops/health/**'] }));
app.use(requireSession);
app.use('/api/reports', reports);
app.use(createProxyMiddleware({ target: 'http://search:7700', pathFilter: (path) => path.startsWith('/search') }));
app.get('/api/sites', (req, res) => res.json([]));
// express-http-proxy: every request under its mount path, unless its filter says otherwise
app.use('/api/legacy', proxy('legacy.internal:8080', { proxyReqPathResolver: (req) => req.url }));
app.use('/api/maps', proxy('maps:8080', { filter: (req) => req.method === 'GET' }));
`,
      // 2.x: the context is matched against the whole original URL
      'src/reports.ts': `
import { Router } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

export const reports = Router();
reports.use(createProxyMiddleware('/api/reports/exports', { target: 'http://exports:8080' }));
reports.use(createProxyMiddleware('/elsewhere', { target: 'http://never:8080' }));
reports.get('/', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'ALL /api/legacy [requireSession] src/app.ts:18',
      'GET /api/reports/ [requireSession] src/reports.ts:8',
      'ALL /api/reports/exports [requireSession] src/reports.ts:6',
      'GET /api/sites [requireSession] src/app.ts:16',
      'ALL /internal/billing [] src/app.ts:10',
      'ALL /ops/health [] src/app.ts:12',
      'ALL /ops/metrics [] src/app.ts:12',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route' || f.ruleId === 'excluded-family-leak').map((f) => `${f.file}:${f.line} ${f.ruleId} ${f.message}`)).toEqual([
      'src/app.ts:10 excluded-family-leak ALL /internal/billing is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      'src/app.ts:12 excluded-family-leak ALL /ops/health is in the excluded family "ops" and is reachable without its family guard (unguarded)',
      'src/app.ts:12 excluded-family-leak ALL /ops/metrics is in the excluded family "ops" and is reachable without its family guard (unguarded)',
      'src/app.ts:15 unresolved-route the paths http-proxy-middleware proxies are not known statically (a function chooses them); its routes are left out',
      'src/app.ts:19 unresolved-route the paths express-http-proxy proxies are not known statically (its filter option); its routes are left out',
    ]);
  });

  it("swagger-ui-express's setup() used at a path sends its page to every request reaching it: an ALL route there, under the layers before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'documented', dependencies: { express: '4.21.2', 'swagger-ui-express': '5.0.1' } }),
      'src/guards.ts': GUARDS,
      'src/openapi.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'Control plane', version: '1.0.0' }, paths: {} }),
      'src/app.ts': `
import express from 'express';
import * as swaggerUi from 'swagger-ui-express';
import document from './openapi.json';
import { requireSession } from './guards.js';

export const app = express();
app.use('/api-docs', swaggerUi.serve, swaggerUi.setup(document, { explorer: true }));
app.use(requireSession);
app.use('/internal/docs', swaggerUi.serveFiles(document), swaggerUi.setup(document));
app.use(swaggerUi.serve);
app.get('/api/sites', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      'ALL /api-docs [] src/app.ts:8',
      'GET /api/sites [requireSession] src/app.ts:12',
      'ALL /internal/docs [requireSession] src/app.ts:10',
    ]);
  });

  it("@scalar/express-api-reference's apiReference() used at a path sends its page to every request reaching it: an ALL route there", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'documented', dependencies: { express: '4.21.2', '@scalar/express-api-reference': '0.8.48' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { apiReference } from '@scalar/express-api-reference';
import { requireSession } from './guards.js';

export const app = express();
app.use('/reference', apiReference({ url: '/openapi.json' }));
app.use(requireSession);
app.get('/api/sites', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['GET /api/sites [requireSession] src/app.ts:9', 'ALL /reference [] src/app.ts:7']);
  });

  it("@bull-board/express's dashboard router (new ExpressAdapter().getRouter()) used at a path serves its page and its queue API below it: an ALL route there, behind the layers before it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'worker', dependencies: { express: '4.21.2', bullmq: '5.34.0', '@bull-board/api': '9.10.2', '@bull-board/express': '9.10.1' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { requireSession } from './guards.js';

const board = new ExpressAdapter();
board.setBasePath('/ops/queues');
createBullBoard({ queues: [new BullMQAdapter(new Queue('emails'))], serverAdapter: board });
const admin = new ExpressAdapter();
admin.setBasePath('/admin/queues');
createBullBoard({ queues: [new BullMQAdapter(new Queue('billing'))], serverAdapter: admin });

export const app = express();
app.use('/ops/queues', board.getRouter());
app.use(requireSession);
app.use('/admin/queues', admin.getRouter());
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['ALL /admin/queues [requireSession] src/app.ts:19', 'ALL /ops/queues [] src/app.ts:17']);
  });

  it("oidc-provider's request listener used at a path (`app.use('/oidc', provider.callback())`, as its documentation mounts it) serves the OpenID Connect endpoints below it: an ALL route there", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'idp', dependencies: { express: '4.21.2', 'oidc-provider': '9.1.0' } }),
      'src/guards.ts': GUARDS,
      'src/app.ts': `
import express from 'express';
import Provider from 'oidc-provider';
import { requireSession } from './guards.js';

const provider = new Provider('https://id.example.com/oidc', { clients: [{ client_id: 'dashboard', redirect_uris: ['https://app.example.com/callback'] }] });

export const app = express();
app.use('/oidc', provider.callback());
app.use(requireSession);
app.get('/account', (req, res) => {
  res.json({ user: req.session.userId });
});
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['GET /account [requireSession] src/app.ts:11', 'ALL /oidc [] src/app.ts:9']);
  });

  it('a GraphQL or tRPC endpoint used at a path (Apollo, express-graphql, graphql-http, tRPC) answers every request reaching it: an ALL route there, under the layers before it', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({
        name: 'graph',
        dependencies: { express: '4.21.2', '@apollo/server': '4.11.3', 'express-graphql': '0.12.0', 'graphql-http': '1.22.4', '@trpc/server': '10.45.2' },
      }),
      'src/guards.ts': GUARDS,
      'src/schema.ts': `export const schema = { query: 'Query' };\n`,
      'src/trpc.ts': `export const appRouter = {};\nexport const createContext = ({ req }) => ({ user: req.session?.userId });\n`,
      'src/app.ts': `
import express from 'express';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@apollo/server/express4';
import { graphqlHTTP } from 'express-graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import * as trpcExpress from '@trpc/server/adapters/express';
import { schema } from './schema';
import { appRouter, createContext } from './trpc';
import { requireSession } from './guards.js';

export const app = express();
const apollo = new ApolloServer({ schema });
await apollo.start();
app.use('/graphql', express.json(), expressMiddleware(apollo, { context: async ({ req }) => ({ userId: req.session?.userId }) }));
app.use(requireSession);
app.use('/internal/graphql', graphqlHTTP({ schema, graphiql: true }));
app.use('/api/graphql-http', createHandler({ schema }));
app.use('/api/trpc', trpcExpress.createExpressMiddleware({ router: appRouter, createContext }));
app.use(express.json());
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'ALL /api/graphql-http graphql-http/lib/use/express [requireSession] src/app.ts:18',
      'ALL /api/trpc @trpc/server/adapters/express [requireSession] src/app.ts:19',
      // (Apollo Server 4 refuses what a browser may send cross-site without a preflight: a CSRF guard of its own)
      'ALL /graphql @apollo/server/express4 [ApolloServer csrfPrevention] src/app.ts:15',
      'ALL /internal/graphql express-graphql [requireSession] src/app.ts:17',
    ]);
  });

  it("a GraphQL endpoint used with no path (app.use(expressMiddleware(server)), Apollo's standalone server's own form) is used at '/': an ALL route at the router's path", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'graph', dependencies: { express: '4.21.2', '@apollo/server': '4.11.3', 'express-graphql': '0.12.0' } }),
      'src/guards.ts': GUARDS,
      'src/schema.ts': `export const schema = { query: 'Query' };\n`,
      'src/admin.ts': `
import { Router } from 'express';
import { graphqlHTTP } from 'express-graphql';
import { schema } from './schema';
import { requireSession } from './guards.js';

export const admin = Router();
admin.use(requireSession, graphqlHTTP({ schema, graphiql: false }));
`,
      'src/app.ts': `
import express from 'express';
import cors from 'cors';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@apollo/server/express4';
import { schema } from './schema';
import { admin } from './admin';

const app = express();
const apollo = new ApolloServer({ schema });
await apollo.start();
app.use('/internal/admin-graphql', admin);
app.use(cors(), express.json({ limit: '50mb' }), expressMiddleware(apollo, { context: async ({ req }) => ({ token: req.headers.authorization }) }));
app.listen(4000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'ALL / @apollo/server/express4 [ApolloServer csrfPrevention] src/app.ts:13',
      'ALL /internal/admin-graphql/ express-graphql [requireSession] src/admin.ts:8',
    ]);
  });

  it("GraphQL Yoga used at its graphqlEndpoint (app.use(yoga.graphqlEndpoint, yoga)) is an ALL route there, not a middleware of every later route", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'graph', dependencies: { express: '4.21.2', 'graphql-yoga': '5.10.4', '@graphql-yoga/plugin-csrf-prevention': '3.10.4' } }),
      'src/guards.ts': GUARDS,
      'src/schema.ts': "export const schema = { typeDefs: 'type Query { ok: Boolean }' };\n",
      'src/app.ts': `
import express from 'express';
import { createYoga } from 'graphql-yoga';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { schema } from './schema';
import { requireSession } from './guards.js';

export const app = express();
app.use(requireSession);
const yoga = createYoga({ schema });
app.use(yoga.graphqlEndpoint, yoga);
const admin = createYoga({ schema, graphqlEndpoint: '/admin/graphql', plugins: [useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] })] });
app.use(admin.graphqlEndpoint, admin);
app.get('/api/sites', (req, res) => res.json([]));
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual([
      // (its CSRF prevention plugin: a guard of its own)
      'ALL /admin/graphql [requireSession, useCSRFPrevention] src/app.ts:13',
      'GET /api/sites [requireSession] src/app.ts:14',
      'ALL /graphql [requireSession] src/app.ts:11',
    ]);
  });

  it('GraphQL Yoga used without a path (app.use(yoga), router.use(yoga)) answers at its graphqlEndpoint, below the mount', async () => {
    // (its node adapter reads the whole URL, and a path ending with the endpoint is answered:
    // @whatwg-node/server originalUrl, graphql-yoga plugins/use-unhandled-route.ts)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'graph', dependencies: { express: '4.21.2', 'graphql-yoga': '5.24.1' } }),
      'src/guards.ts': GUARDS,
      'src/schema.ts': "export const schema = { typeDefs: 'type Query { ok: Boolean }' };\n",
      'src/app.ts': `
import express from 'express';
import { createYoga } from 'graphql-yoga';
import { schema } from './schema';
import { requireSession } from './guards.js';

export const app = express();
const internal = express.Router();
internal.use(requireSession);
internal.use(createYoga({ schema, graphqlEndpoint: '/internal/graphql' }));
app.use('/ops', internal);
app.use(createYoga({ schema }));
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['ALL /graphql [] src/app.ts:12', 'ALL /ops/internal/graphql [requireSession] src/app.ts:10']);
  });

  it("apollo-server-express's server.applyMiddleware({ app, path }) mounts a router serving the endpoint and a health check where it is called, also on a router", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'graph', dependencies: { express: '4.21.2', 'apollo-server-express': '3.13.0' } }),
      'src/guards.ts': GUARDS,
      'src/schema.ts': "export const typeDefs = 'type Query { ok: Boolean }';\nexport const resolvers = {};\n",
      'src/app.ts': `
import express from 'express';
import { ApolloServer } from 'apollo-server-express';
import { typeDefs, resolvers } from './schema';
import { requireSession } from './guards.js';

export async function start() {
  const app = express();
  const server = new ApolloServer({ typeDefs, resolvers });
  await server.start();
  server.applyMiddleware({ app });
  app.use(requireSession);
  const admin = new ApolloServer({ typeDefs, resolvers, csrfPrevention: true });
  await admin.start();
  const router = express.Router();
  admin.applyMiddleware({ app: router, path: '/admin/graphql', disableHealthCheck: true });
  app.use('/internal', router);
  admin.applyMiddleware({ app, path: process.env.GRAPHQL_PATH, disableHealthCheck: true });
  return app;
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      'ALL /.well-known/apollo/server-health apollo-server-express [] src/app.ts:11',
      'ALL /graphql apollo-server-express [] src/app.ts:11',
      // (Apollo Server 3 prevents CSRF only when told to: the first server does not)
      'ALL /internal/admin/graphql apollo-server-express [requireSession, ApolloServer csrfPrevention] src/app.ts:16',
    ]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/app.ts:18:3 warning unresolved-route the path of this ApolloServer.applyMiddleware(…) is not known statically; its GraphQL endpoint is left out',
    ]);
  });

  it("an app serving no route whose own middleware answers every request (a test proxy, a dispatcher) is said to serve what is not known statically; one with only an error handler, `(err, req, res, next)`, is not", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'proxy', dependencies: { express: '4.21.2' } }),
        'src/proxy.ts': `
import express from 'express';

export function makeProxy() {
  return express()
    .use(express.json())
    .use((req, res) => {
      res.end('proxy ' + decodeURIComponent(req.url.substring(1)));
    });
}

export const failing = express();
failing.use((err, req, res, next) => res.status(500).end('failed'));
`,
      }),
    );
    expect(res.routes).toEqual([]);
    expect(findingRows(res.findings.filter((f) => f.ruleId === 'unresolved-route'))).toEqual([
      'src/proxy.ts:7:6 warning unresolved-route the app serves no route the analysis lists: an inline middleware answers every request that reaches it itself, so what the app serves is not known statically',
    ]);
  });
});

describe('express: controllers wrapped key by key', () => {
  // GrowthBook's wrapController: `Object.keys(controller).forEach((key) => { wrapped[key] = asyncHandler(controller[key]) })`
  const WRAP = `
import asyncHandler from 'express-async-handler';
import type { RequestHandler } from 'express';

export function wrapController<T extends string>(controller: Record<T, unknown>): Record<T, RequestHandler> {
  const wrapped = {} as Record<T, RequestHandler>;
  (Object.keys(controller) as T[]).forEach((key) => {
    const entry = typeof controller[key];
    if (entry !== 'function') return;
    wrapped[key] = asyncHandler(controller[key] as RequestHandler);
  });
  return wrapped;
}
`;
  const CONTROLLER = `
import type { Request, Response } from 'express';

const installations = new Map<string, { id: string; tenantId: string; plan: string }>();

export async function getInstallation(req: Request<{ id: string }>, res: Response) {
  const token = req.headers.authorization?.replace(/^Bearer /, '');
  if (!token) return res.status(401).send('Invalid credentials');
  const installation = installations.get(req.params.id);
  if (!installation) return res.status(404).send('Unknown installation');
  res.json(installation);
}

export async function listPlans(_req: Request, res: Response) {
  res.json([{ id: 'starter' }, { id: 'pro' }]);
}

export const MAX_INSTALLATIONS = 50;
`;

  it("a route's handler read through the object is the controller's function, with the checks leading it", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'wrapped', dependencies: { express: '4.21.2', 'express-async-handler': '1.2.0' } }),
      'src/wrap.ts': WRAP,
      // the same, over the keys with `for … in`
      'src/wrap-each.ts': `
import asyncHandler from 'express-async-handler';
import type { RequestHandler } from 'express';

export function wrapEach(controller: Record<string, RequestHandler>): Record<string, RequestHandler> {
  const wrapped: Record<string, RequestHandler> = {};
  for (const key in controller) {
    wrapped[key] = asyncHandler(controller[key]!);
  }
  return wrapped;
}
`,
      'src/installations.controller.ts': CONTROLLER,
      'src/app.ts': `
import express from 'express';
import { wrapController } from './wrap.js';
import { wrapEach } from './wrap-each.js';
import * as rawInstallations from './installations.controller.js';

const installations = wrapController(rawInstallations);
const legacy = wrapEach(rawInstallations);

export const app = express();
app.get('/v1/installations/:id', installations.getInstallation);
app.get('/v1/plans', installations.listPlans);
app.get('/v0/installations/:id', legacy.getInstallation);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.file}:${g.line}`).join(', ')}]`)).toEqual([
      'GET /v0/installations/:id [(inline 401 check):auth+bearer:src/installations.controller.ts:8]',
      'GET /v1/installations/:id [(inline 401 check):auth+bearer:src/installations.controller.ts:8]',
      'GET /v1/plans []',
    ]);
  });
});

describe('express: a middleware putting on the request what a check returns', () => {
  it("`req.account = accountOf(req)` at the body's top ends the request where the helper throws, as `accountOf(req)` alone does", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'dashboard-api', dependencies: { express: '4.21.2', 'http-errors': '2.0.0' } }),
      'src/auth.js': `const createError = require('http-errors');

function accountOf(req) {
  const account = req.session && req.session.account;
  if (!account) throw createError(401, 'sign in');
  return account;
}

function accountOrNull(req) {
  return (req.session && req.session.account) || null;
}

module.exports = { accountOf, accountOrNull };
`,
      'src/app.js': `const express = require('express');
const { accountOf, accountOrNull } = require('./auth');

const app = express();

function withAccount(req, res, next) {
  req.account = accountOf(req);
  next();
}

function loadAccount(req, res, next) {
  req.account = accountOrNull(req);
  next();
}

app.get('/api/sites', withAccount, (req, res) => res.json([]));
app.get('/api/changelog', loadAccount, (req, res) => res.json([]));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')} (${g.reason})`).join(', ') || '-'}`)).toEqual([
      'GET /api/changelog -',
      'GET /api/sites accountOf:auth (by behaviour (ends the request with 401))',
    ]);
  });
});

describe('express: a check handed a credential read from a request header', () => {
  it("is a bearer check when the function refusing it with 401 reads no session (`req.account = await accountFor(req.get('x-api-key'))`): no CSRF guard is wanted; handed a value of the session, it is not", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'reports-api', dependencies: { express: '4.21.2', 'http-errors': '2.0.0' } }),
      'src/db.js': `module.exports = { findAccountByKey: async (key) => (key === process.env.DEMO_KEY ? { id: 'acct_1' } : null) };
`,
      'src/keys.js': `const createError = require('http-errors');
const db = require('./db');

async function accountFor(key) {
  if (!key) throw createError(401, 'an API key is required');
  const account = await db.findAccountByKey(key);
  if (!account) throw createError(401, 'unknown API key');
  return account;
}

module.exports = { accountFor };
`,
      'src/app.js': `const express = require('express');
const { accountFor } = require('./keys');

const app = express();

async function withSessionKey(req, res, next) {
  req.account = await accountFor(req.session.apiKey);
  next();
}

app.post('/api/reports', async (req, res, next) => {
  req.account = await accountFor(req.get('x-api-key'));
  next();
}, (req, res) => res.status(201).json({ id: 'rep_1' }));
app.post('/api/exports', withSessionKey, (req, res) => res.status(201).json({ id: 'exp_1' }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ') || '-'}`)).toEqual([
      'POST /api/exports withSessionKey:auth',
      'POST /api/reports accountFor:auth+bearer',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => f.message)).toEqual(['POST /api/exports changes state on the browser session without a CSRF guard']);
  });
});

describe('express: a header credential compared with the one stored for what the request asks for', () => {
  it("Lighthouse CI's project token middlewares: checked in `Promise.resolve().then(async () => …).catch(…)`, an async function called in place or a plain `try`, they are bearer checks; a token from the body, or compared with the request's own, is none", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'lhci-server', dependencies: { express: '4.21.2' } }),
      'src/api/storage.js': `module.exports = {
  async findProjectById(id) {
    return { id, token: process.env.DEMO_BUILD_TOKEN, adminToken: process.env.DEMO_ADMIN_TOKEN };
  },
};
`,
      'src/api/express-utils.js': `const crypto = require('crypto');
const storage = require('./storage');

const hashAdminToken = (token, salt) => crypto.createHash('sha256').update(salt + token).digest('hex');

module.exports = {
  validateBuildTokenMiddleware() {
    return (req, res, next) => {
      Promise.resolve()
        .then(async () => {
          const project = await storage.findProjectById(req.params.projectId);
          if (!project) throw new Error('Invalid token');

          const buildToken = req.header('x-lhci-build-token') || '';
          if (buildToken !== project.token) throw new Error('Invalid token');

          next();
        })
        .catch((err) => {
          res.status(403);
          res.send(JSON.stringify({ message: err.message }));
        });
    };
  },
  async validateAdminToken(req, res, next) {
    try {
      const project = await storage.findProjectById(req.params.projectId);
      const adminToken = req.header('x-lhci-admin-token') || '';
      const hashed = hashAdminToken(adminToken, project.id);
      if (hashed !== project.adminToken) throw new Error('Invalid token');
      next();
    } catch (err) {
      res.status(403).json({ message: err.message });
    }
  },
  async validateBodyToken(req, res, next) {
    const project = await storage.findProjectById(req.params.projectId);
    if (req.body.token !== project.token) return res.status(403).json({ message: 'Invalid token' });
    next();
  },
  sameTokenTwice(req, res, next) {
    if (req.header('x-lhci-build-token') !== req.query.token) return res.status(403).json({ message: 'Invalid token' });
    next();
  },
  validateUploadToken(req, res, next) {
    (async () => {
      try {
        const project = await storage.findProjectById(req.params.projectId);
        const uploadToken = req.header('x-lhci-build-token');
        if (uploadToken !== project.token) throw new Error('Invalid token');
        next();
      } catch (err) {
        res.status(403).json({ message: err.message });
      }
    })();
  },
  async projectFor(req) {
    const project = await storage.findProjectById(req.params.projectId);
    const token = req.header('x-lhci-build-token');
    if (!project || token !== project.token) throw new Error('Invalid token');
    return project;
  },
};
`,
      'src/server.js': `const express = require('express');
const { projectFor, validateAdminToken, validateBodyToken, validateBuildTokenMiddleware, validateUploadToken, sameTokenTwice } = require('./api/express-utils');

const app = express();
app.use(express.json());
app.post('/v1/projects/:projectId/builds', validateBuildTokenMiddleware(), (req, res) => res.json({ id: 'build_1' }));
app.put('/v1/projects/:projectId', validateAdminToken, (req, res) => res.sendStatus(204));
app.post('/v1/projects/:projectId/runs', validateBodyToken, (req, res) => res.json({ id: 'run_1' }));
app.post('/v1/projects/:projectId/urls', sameTokenTwice, (req, res) => res.json([]));
app.post('/v1/projects/:projectId/artifacts', validateUploadToken, (req, res) => res.status(201).json({ id: 'artifact_1' }));
app.get('/v1/projects/:projectId/statistics', async (req, res) => {
  const project = await projectFor(req);
  res.json({ project: project.id, statistics: [] });
});
app.listen(9001);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ') || '-'}`)).toEqual([
      // (an ops family's guard by its name, as before; a bearer check by what it compares)
      'PUT /v1/projects/:projectId validateAdminToken:auth+bearer+family',
      // (checked in an async function called where it is written, `(async () => { try … })()`)
      'POST /v1/projects/:projectId/artifacts (inline stored-token check):auth+bearer',
      'POST /v1/projects/:projectId/builds (inline stored-token check):auth+bearer',
      'POST /v1/projects/:projectId/runs -',
      // (a function of the code making the check, handed the request and waited for: the handler's check)
      'GET /v1/projects/:projectId/statistics (inline stored-token check):auth+bearer',
      // (a middleware refusing with 403 that its name and behaviour leave unclassified)
      'POST /v1/projects/:projectId/urls sameTokenTwice:unknown',
    ]);
  });
});

describe('express: a handler refusing on a lookup of what the request carries', () => {
  it("is a CSRF check when the lookup is named for one (KeystoneJS's `keystone.security.csrf.validate(req, req.body.authenticity_token)`), in a handler or a middleware, an auth check otherwise", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'cms', dependencies: { express: '4.21.2' } }),
      'lib/security/csrf.js': `
const crypto = require('crypto');

exports.SECRET_KEY = '_csrf_secret';

exports.validate = function (req, token) {
  const secret = req.session[exports.SECRET_KEY];
  if (!secret || !token) return false;
  const expected = crypto.createHmac('sha256', secret).update('csrf').digest('hex');
  return crypto.timingSafeEqual(Buffer.from(token), Buffer.from(expected));
};
`,
      'lib/keys.js': `
const keys = new Map();
exports.findByToken = async function (token) {
  return keys.get(token) ?? null;
};
`,
      'server.js': `
const express = require('express');
const security = { csrf: require('./lib/security/csrf') };
const keys = require('./lib/keys');

const router = express.Router();
router.post('/uploads', (req, res) => {
  if (!security.csrf.validate(req, req.body.authenticity_token)) {
    return res.status(403).send({ error: { message: 'invalid csrf' } });
  }
  res.json({ uploaded: true });
});
// (a middleware doing so, named for neither)
function checkForm(req, res, next) {
  if (!security.csrf.validate(req, req.body.authenticity_token)) return res.status(403).send('invalid form');
  next();
}
router.post('/forms', checkForm, (req, res) => res.json({ saved: true }));
router.post('/imports', async (req, res) => {
  const key = await keys.findByToken(req.body.api_token);
  if (!key) return res.status(403).send({ error: { message: 'invalid key' } });
  res.json({ imported: true, owner: key.owner });
});

const app = express();
app.use(express.json());
app.use('/api', router);
module.exports = app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(' ')}`)).toEqual([
      'POST /api/forms checkForm:csrf:route-middleware',
      'POST /api/imports keys.findByToken:auth:in-handler',
      'POST /api/uploads security.csrf.validate:csrf:in-handler',
    ]);
  });
});

describe('express: handlers wrapped by an in-code async wrapper', () => {
  it('are the functions wrapped, named as written (not by the wrapper\'s parameter) and placed where they are defined (Directus\'s asyncHandler)', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'wrapped-handlers', dependencies: { express: '4.21.2' } }),
      'src/utils/async-handler.ts': `
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export const asyncHandler = (handler: RequestHandler) => (req: Request, res: Response, next: NextFunction) =>
  Promise.resolve(handler(req, res, next)).catch(next);
`,
      'src/controllers/items.ts': `
import express from 'express';
import { asyncHandler } from '../utils/async-handler.js';
import * as itemsService from '../services/items.js';

const router = express.Router();

router.get(
  '/',
  asyncHandler(async (req, res) => {
    res.json({ data: await itemsService.list(req.query) });
  }),
);

async function readItem(req: express.Request, res: express.Response) {
  res.json({ data: await itemsService.read(req.params.id) });
}

router.get('/:id', asyncHandler(readItem));

// (proshop's controllers: the wrapper's call bound to a name, used by it)
const removeItem = asyncHandler(async (req, res) => {
  await itemsService.remove(req.params.id);
  res.status(204).end();
});
router.delete('/:id', removeItem);

// (Unleash's Controller.route(): a helper handed the function in its options, wrapping it)
function route(options: { method: 'post' | 'put'; path: string; handler: express.RequestHandler }) {
  router[options.method](options.path, asyncHandler(options.handler.bind(null)));
}
async function createItem(req: express.Request, res: express.Response) {
  res.status(201).json({ data: await itemsService.create(req.body) });
}
route({ method: 'post', path: '/', handler: createItem });

export default router;
`,
      'src/services/items.ts': `
const rows = new Map<string, { id: string; title: string }>();
export async function list(_query: unknown) {
  return [...rows.values()];
}
export async function read(id: string) {
  return rows.get(id) ?? null;
}
export async function remove(id: string) {
  rows.delete(id);
}
export async function create(input: { title: string }) {
  const row = { id: String(rows.size + 1), title: input.title };
  rows.set(row.id, row);
  return row;
}
`,
      'src/app.ts': `
import express from 'express';
import items from './controllers/items.js';

export const app = express();
app.use('/items', items);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.handler} ${r.handlerFn?.file}`)).toEqual([
      'GET /items/ null src/controllers/items.ts',
      'POST /items/ createItem src/controllers/items.ts',
      'DELETE /items/:id removeItem src/controllers/items.ts',
      'GET /items/:id readItem src/controllers/items.ts',
    ]);
  });
});

describe("express: the MCP SDK's createMcpExpressApp()", () => {
  it('is an Express app: its routes are listed, under the path a parent app mounts it at', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'observability-api', dependencies: { express: '4.21.2', '@modelcontextprotocol/sdk': '1.32.2' } }),
      'src/guards.ts': GUARDS,
      'src/mcp/app.ts': `
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import type { Request, Response } from 'express';
import { requireSession } from '../guards.js';

const app = createMcpExpressApp();

// a stateless transport: no SSE stream (GET), no session to end (DELETE)
const methodNotAllowed = (_req: Request, res: Response) => {
  res.set('Allow', 'POST').sendStatus(405);
};
app.get('/', methodNotAllowed);
app.post('/', requireSession, async (req, res) => {
  res.json({ jsonrpc: '2.0', id: req.body?.id ?? null, result: {} });
});

export default app;
`,
      'src/app.ts': `
import express from 'express';
import mcp from './mcp/app.js';

export const app = express();
app.use('/mcp', mcp);
app.get('/api/health/ready', (_req, res) => res.json({ ok: true }));
`,
    });
    const res = await check(dir);
    expect(routeLinesAt(res)).toEqual(['GET /api/health/ready [] src/app.ts:7', 'GET /mcp/ [(refuses every request)] src/mcp/app.ts:12', 'POST /mcp/ [requireSession] src/mcp/app.ts:13']);
  });
});

describe('values that read themselves', () => {
  it('an object built in a loop from its own keys is read through a call after that loop without end (saltcorn)', async () => {
    // (headers['X-Forwarded-Host'] = headers[name]: the local's value reads the local; put in its
    // own place for the loop's items, it overflowed the stack, and the run failed)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'self-reading-object', dependencies: { express: '4.21.2' } }),
      'src/upstream.js': `
export class UpstreamRequest {
  constructor(fetchImpl, method, url) {
    this.fetch = fetchImpl;
    this.method = method;
    this.url = url;
  }

  async send() {
    const headers = {};
    // fetch will not send a Host header of ours: forward it
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'host') headers['X-Forwarded-Host'] = headers[name];
    const opts = { method: this.method, headers, redirect: 'manual' };
    const response = await this.fetch(this.url, opts);
    return decode(response);
  }
}

// the forwarded Host header is the one Express reads
export function trustUpstream(app) {
  app.set('trust proxy', true);
}
`,
      'src/app.js': `
import express from 'express';
import { UpstreamRequest, trustUpstream } from './upstream.js';

export const app = express();
trustUpstream(app);
app.get('/relay/*', async (req, res) => {
  const out = await new UpstreamRequest(fetch, 'GET', process.env.UPSTREAM + req.path).send();
  res.status(out.status).send(out.body);
});
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /relay/* src/app.js:7']);
  });

  it('a property given a choice on what was made of it is read without end (growthbook)', async () => {
    // (out.teams = mapped.length > 0 ? mapped : undefined of mapped = out.teams.map(…): deciding
    // the test read the property, which is that choice again, until the stack overflowed)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'self-reading-property', dependencies: { express: '4.21.2' } }),
      'src/teams.ts': `
export function withTeamIds(payload: Record<string, unknown>, teamIds?: Map<string, string>): Record<string, unknown> {
  const out = { ...payload };
  if (teamIds && Array.isArray(out.teams)) {
    const mapped = (out.teams as string[]).map((name) => teamIds.get(name)).filter((id) => id !== undefined);
    out.teams = mapped.length > 0 ? mapped : undefined;
  }
  return out;
}
`,
      'src/app.ts': `
import express from 'express';
import { withTeamIds } from './teams.js';

export const app = express();
app.post('/import/preview', express.json(), (req, res) => res.json(withTeamIds(req.body)));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['POST /import/preview src/app.ts:6']);
  });
});

describe('a module namespace read as an object', () => {
  it('Object.values of import * as routers mounts each router the module exports, also through export *, not its default nor a type', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'namespace-routers', type: 'module', dependencies: { express: '4.21.2' } }),
      'src/routes/index.ts': `export { sites } from './sites.js';
export type { SiteRow } from './sites.js';
export * from './deployments.js';
`,
      'src/routes/sites.ts': `import { Router } from 'express';

export type SiteRow = { id: string; name: string };
export const sites = Router();
sites.get('/sites', (req, res) => res.json([]));
`,
      'src/routes/deployments.ts': `import { Router } from 'express';

export const deployments = Router();
deployments.get('/deployments', (req, res) => res.json([]));
export default deployments;
`,
      'src/app.ts': `import express from 'express';
import * as routers from './routes/index.js';

const app = express();
for (const router of Object.values(routers)) app.use('/api', router);
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /api/deployments src/routes/deployments.ts:4', 'GET /api/sites src/routes/sites.ts:5']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});

describe('an app that may be null', () => {
  it("node-red's admin app, made under a setting and set to null otherwise, and an app made by a `? :` with null: the routes registered on it are its", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'editor-api', dependencies: { express: '4.21.2' } }),
      'lib/index.js': `const express = require('express');

var adminApp;

function init(settings) {
  if (settings.httpAdminRoot !== false) {
    adminApp = express();
    adminApp.get('/auth/login', (req, res) => res.json({ type: 'credentials' }));
    adminApp.post('/auth/token', (req, res) => res.json({ access_token: 'x' }));
  } else {
    adminApp = null;
  }
}

const nodeApp = process.env.NODE_RED_HTTP_NODE === 'off' ? null : express();
nodeApp.get('/flows/status', (req, res) => res.json({ running: true }));

module.exports = {
  init,
  get httpAdmin() {
    return adminApp;
  },
  nodeApp,
};
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /auth/login lib/index.js:8', 'POST /auth/token lib/index.js:9', 'GET /flows/status lib/index.js:16']);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });

  it("an app the caller may pass, made when it passes none (jsreport's `let app = options.app; if (!app) app = express()`, `options.admin || express()`, `if (!keystone.app) keystone.app = express()`): the routes registered on it are the made app's, or the caller's app's when a caller passes one", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'report-server', dependencies: { express: '4.21.2' } }),
      'lib/auth.js': `exports.requireSession = function requireSession(req, res, next) {
  if (!req.session || !req.session.userId) return res.status(401).json({ error: 'sign in' });
  next();
};
`,
      'lib/server.js': `const express = require('express');
const { requireSession } = require('./auth');

function configureApp(options) {
  let app = options.app;
  if (!app) app = express();
  app.use(requireSession);
  app.get('/api/reports', (req, res) => res.json([]));
  return app;
}

function createAdmin(options = {}) {
  const admin = options.admin || express();
  admin.get('/health', (req, res) => res.json({ ok: true }));
  return admin;
}

function createKeystoneApp(keystone) {
  if (!keystone.app) keystone.app = express();
  const app = keystone.app;
  app.get('/keystone/api/session', requireSession, (req, res) => res.json({ userId: req.session.userId }));
  return app;
}

module.exports = { configureApp, createAdmin, createKeystoneApp };
`,
      'lib/main.js': `const express = require('express');
const { createAdmin } = require('./server');

const root = express();
const ops = express.Router();
root.use('/internal', createAdmin({ admin: ops }));
root.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => g.name).join(',') || '-'}`)).toEqual([
      'GET /api/reports lib/server.js:8 requireSession',
      'GET /internal/health lib/server.js:14 -',
      // (KeystoneJS's `if (!keystone.app) keystone.app = express()` on the object the caller passes)
      'GET /keystone/api/session lib/server.js:21 requireSession',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});

describe('express: the passwordless package', () => {
  it("reads sessionSupport() and acceptToken() as session middleware, restricted() as the guard, and requestToken() and logout() as the sign-in's own steps", async () => {
    // (read at passwordless 1.1.3, lib/passwordless/passwordless.js; set up as async-labs/saas's
    // API server sets it up, its routes' own check a router-level middleware answering 401)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'saas-api', dependencies: { express: '4.21.2', 'express-session': '1.18.1', passwordless: '1.1.3', 'passwordless-mongostore': '0.1.3' } }),
      'src/server.ts': `
import express from 'express';
import session from 'express-session';
import * as passwordless from 'passwordless';
import MongoStore from 'passwordless-mongostore';
import { teamMemberRouter } from './team-member';

passwordless.init(new MongoStore(process.env.MONGO_URL));
passwordless.addDelivery(async (tokenToSend, uidToSend, recipient, callback) => {
  callback();
});

export const server = express();
server.use(express.json());
server.use(session({ name: 'saas.sid', secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));
server.use(passwordless.sessionSupport());

server.post('/auth/email-login-link', passwordless.requestToken(async (email, _delivery, callback) => callback(null, email)), (req, res) => {
  res.json({ done: 1 });
});
server.get('/auth/logged_in', passwordless.acceptToken(), (req, res) => {
  res.redirect('/');
});
server.get('/logout', passwordless.logout(), (req, res) => {
  res.redirect('/login');
});
server.get('/api/v1/account', passwordless.restricted(), (req, res) => {
  res.json({ user: req.user });
});
server.use('/api/v1/team-member', teamMemberRouter);
`,
      'src/team-member.ts': `
import express from 'express';

export const teamMemberRouter = express.Router();

teamMemberRouter.use((req, res, next) => {
  if (!req.user) {
    res.status(401).json({ error: 'Unauthorized' });
    return;
  }
  next();
});

teamMemberRouter.get('/teams/get-members', async (req, res) => {
  res.json({ users: [] });
});
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /api/v1/account [passwordless.restricted:auth]',
      'GET /api/v1/team-member/teams/get-members [(inline middleware):auth]',
      'POST /auth/email-login-link []',
      'GET /auth/logged_in []',
      'GET /logout []',
    ]);
  });
});

describe('guards handed to what makes a router', () => {
  // evolution-api's routers: `new ChatRouter(...guards)` of a class registering `...guards` (a
  // rest parameter) before each handler, and router factories handed them
  it('a constructor or factory handed its guards, one by one, as a rest parameter or a list spread into it, guards each route with them', async () => {
    const res = await check(path.join(ROOT, 'fixtures/rules/missing-auth-guard/valid/guards-handed-to-router-factories'));
    expect(routeLinesAt(res)).toEqual([
      'DELETE /chat/deleteMessage/:instanceName [authGuard.apikey] src/routes/chat.router.ts:11',
      'POST /chat/findChats/:instanceName [authGuard.apikey] src/routes/chat.router.ts:8',
      'POST /instance/create [authGuard.apikey] src/routes/instance.router.ts:10',
      'GET /label/findLabels/:instanceName [authGuard.apikey] src/routes/labels.ts:6',
      'POST /template/create/:instanceName [authGuard.apikey] src/routes/labels.ts:15',
    ]);
  });

  it('an app a factory makes at two calls handing it different middleware stays one app', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'flags', dependencies: { express: '4.21.2' } }),
        'src/app.ts': `import express, { type RequestHandler } from 'express';

export default async function getApp(config: { baseUriPath: string }, sessionMiddleware?: RequestHandler) {
  const app = express();
  const baseUriPath = config.baseUriPath || '';
  if (sessionMiddleware) app.use(\`\${baseUriPath}/api/admin\`, sessionMiddleware);
  app.get(\`\${baseUriPath}/api/admin/features\`, (req, res) => res.json({ features: [] }));
  return app;
}
`,
        'src/server.ts': `import type { NextFunction, Request, Response } from 'express';
import getApp from './app';

function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.user) return res.status(401).json({ error: 'sign in' });
  next();
}

export async function start(config: { baseUriPath: string }) {
  const app = await getApp(config, requireSession);
  return app.listen(4242);
}
`,
        'src/app.test.ts': `import getApp from './app';

test('serves the features', async () => {
  const app = await getApp({ baseUriPath: '' });
  const server = app.listen(0);
  server.close();
});
`,
      }),
    );
    // (its middleware applied only when a session middleware is passed, which the app's own calls say differently)
    expect(routeLinesAt(res)).toEqual(['GET /api/admin/features [] src/app.ts:7']);
  });

  it('so does an app a class makes, constructed at two places handing it different middleware', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'flags', dependencies: { express: '4.21.2' } }),
        'src/app.ts': `import express, { type Application, type RequestHandler } from 'express';

export class FlagsApp {
  public readonly app: Application;
  constructor(private readonly config: { baseUriPath: string }, sessionMiddleware?: RequestHandler) {
    this.app = express();
    if (sessionMiddleware) this.app.use(\`\${config.baseUriPath}/api/admin\`, sessionMiddleware);
    this.app.get(\`\${config.baseUriPath}/api/admin/features\`, (req, res) => res.json({ features: [] }));
  }
}
`,
        'src/server.ts': `import type { NextFunction, Request, Response } from 'express';
import { FlagsApp } from './app';

function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.session?.user) return res.status(401).json({ error: 'sign in' });
  next();
}

new FlagsApp({ baseUriPath: '' }, requireSession).app.listen(4242);
`,
        'src/app.test.ts': `import { FlagsApp } from './app';

test('serves the features', () => {
  const server = new FlagsApp({ baseUriPath: '' }).app.listen(0);
  server.close();
});
`,
      }),
    );
    expect(routeLinesAt(res)).toEqual(['GET /api/admin/features [] src/app.ts:8']);
  });
});

describe('paths a helper builds on a local', () => {
  // evolution-api's RouterBroker.routerPath: `let route = '/' + path; param ? (route += '/:instanceName') : null; return route`
  it("a local built on with `+=` under a test, `? :` or `&&` of the helper's parameters holds either value, as each call decides", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'gateway', dependencies: { express: '4.21.2' } }),
        'src/abstract.router.ts': `export abstract class RouterBroker {
  public routerPath(path: string, param = true) {
    let route = '/' + path;
    param ? (route += '/:instanceName') : null;
    return route;
  }
}

export function versioned(path: string, version = 'v1', latest = false) {
  let route = path;
  if (version !== 'v1') route += \`/\${version}\`;
  latest && (route += '/latest');
  return route;
}
`,
        'src/instance.router.ts': `import { Router } from 'express';
import { RouterBroker, versioned } from './abstract.router';

export class InstanceRouter extends RouterBroker {
  public readonly router: Router = Router();
  constructor() {
    super();
    this.router
      .get(this.routerPath('connectionState'), (req, res) => res.json({ state: 'open' }))
      .get(this.routerPath('fetchInstances', false), (req, res) => res.json([]))
      .get(versioned('/schema'), (req, res) => res.json({}))
      .get(versioned('/schema', 'v2', true), (req, res) => res.json({}));
  }
}
`,
        'src/main.ts': `import express from 'express';
import { InstanceRouter } from './instance.router';

const app = express();
app.use('/instance', new InstanceRouter().router);
app.listen(8080);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /instance/connectionState/:instanceName',
      'GET /instance/fetchInstances',
      'GET /instance/schema',
      'GET /instance/schema/v2/latest',
    ]);
  });
});

describe('express-query-boolean', () => {
  it("boolParser() only turns the query's 'true' and 'false' into booleans: no guard, nor a candidate", async () => {
    const res = await check(path.join(ROOT, 'fixtures/rules/missing-csrf-guard/valid/token-from-the-path-or-header-then-session-named-written'));
    expect(routeKindLines(res)).toEqual([
      'POST /api/:session/close-session [verifyToken:auth+bearer]',
      'POST /api/:session/send-message [verifyToken:auth+bearer]',
      'GET /healthz []',
    ]);
  });
});
