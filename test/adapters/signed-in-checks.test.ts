/**
 * Middleware and handlers that end the request when the request has no signed-in user, whatever
 * the status (CapRover's user API: `router.use(Injector.injectUser())` decodes the token into
 * `res.locals.user` and always goes on; the next middleware answers a 200 error body when
 * `InjectionExtractor.extractUserFromInjected(res).user` is missing). The user may be read
 * from the request directly (`res.locals.user`), through a local, or through what a function
 * handed the response returns; a function returning something else, or handed something else,
 * proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const EXTRACTOR = `import type { Request, Response } from 'express';

export interface UserInjected {
  namespace: string;
  initialized: boolean;
}

class InjectionExtractor {
  static extractUserFromInjected(res: Response) {
    return {
      user: res.locals.user as UserInjected,
    };
  }

  /** The user a profile page asks for, not the one signed in. */
  static requestedUser(req: Request) {
    return { user: req.params.username };
  }

  static extractGlobalsFromInjected(res: Response) {
    return { namespace: res.locals.namespace as string };
  }
}

export default InjectionExtractor;
`;

const INJECTOR = `import type { NextFunction, Request, Response } from 'express';
import { decodeAuthToken } from '../user/Authenticator';

/** Decodes the auth header into res.locals.user; a request without one goes on without a user. */
export function injectUser() {
  return function (req: Request, res: Response, next: NextFunction) {
    decodeAuthToken(req.header('x-captain-auth') || '')
      .then((decoded) => {
        if (decoded) res.locals.user = { namespace: decoded.namespace, initialized: true };
        next();
      })
      .catch(() => next());
  };
}
`;

const AUTHENTICATOR = `export async function decodeAuthToken(token: string): Promise<{ namespace: string } | null> {
  return token.startsWith('ey') ? { namespace: 'captain' } : null;
}

export function lookupAccount(id: string) {
  return { user: { id, name: 'someone' } };
}
`;

/** Routes as "METHOD /path auth:[…] unknown:[…]". */
function authLines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => {
    const of = (kind: string) => r.guards.filter((g) => g.kinds.includes(kind as never)).map((g) => g.name);
    return `${r.method} ${r.path} auth:[${of('auth').join(', ')}] unknown:[${of('unknown').join(', ')}]`;
  });
}

describe('signed-in checks that answer without a 401', () => {
  it('CapRover: a middleware refusing when the user a helper extracts from res.locals is missing guards every route after it', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/injection/InjectionExtractor.ts': EXTRACTOR,
      'src/injection/Injector.ts': INJECTOR,
      'src/user/Authenticator.ts': AUTHENTICATOR,
      'src/api/BaseApi.ts': `export default class BaseApi {
  constructor(public status: number, public description: string) {}
}
`,
      'src/routes/user/UserRouter.ts': `import express = require('express');
import BaseApi from '../../api/BaseApi';
import InjectionExtractor from '../../injection/InjectionExtractor';
import * as Injector from '../../injection/Injector';
import { lookupAccount } from '../../user/Authenticator';

const router = express.Router();

router.get('/status', (req, res) => res.send({ status: 100 }));

router.use(Injector.injectUser());

router.use(function (req, res, next) {
  const user = InjectionExtractor.extractUserFromInjected(res).user;

  if (!user) {
    res.send(new BaseApi(1105, 'The request is not authorized.'));
    return;
  }

  if (!user.initialized) {
    res.send(new BaseApi(1106, 'User data is being loaded... Please wait...'));
    return;
  }
  next();
});

router.get('/apps', (req, res) => res.send({ status: 100, data: [] }));

// a helper returning something else than the request's user proves nothing
const other = express.Router();
other.use(function (req, res, next) {
  const user = lookupAccount(String(req.query.id)).user;
  if (!user) {
    res.send(new BaseApi(1105, 'no such account'));
    return;
  }
  next();
});
other.get('/accounts', (req, res) => res.send({ status: 100 }));

// the user read from the response directly, through a local, or in the handler itself
const direct = express.Router();
direct.use((req, res, next) => {
  const current = res.locals.user;
  if (!current) {
    res.redirect('/login');
    return;
  }
  next();
});
direct.get('/settings', (req, res) => res.send({ status: 100 }));

const handlers = express.Router();
handlers.get('/profile', (req, res) => {
  const user = InjectionExtractor.extractUserFromInjected(res).user;
  if (!user) {
    res.send(new BaseApi(1105, 'The request is not authorized.'));
    return;
  }
  res.send({ status: 100, data: user.namespace });
});
handlers.get('/account', (req, res) => {
  const user = lookupAccount(String(req.query.id)).user;
  if (!user) {
    res.send(new BaseApi(1105, 'no such account'));
    return;
  }
  res.send({ status: 100, data: user.name });
});
handlers.get('/profiles/:username', (req, res) => {
  const user = InjectionExtractor.requestedUser(req).user;
  if (!user) {
    res.send(new BaseApi(1000, 'no such user'));
    return;
  }
  res.send({ status: 100, data: user });
});
handlers.get('/namespace', (req, res) => {
  const ns = InjectionExtractor.extractGlobalsFromInjected(res).namespace;
  if (!ns) {
    res.send(new BaseApi(1000, 'no namespace'));
    return;
  }
  res.send({ status: 100, data: ns });
});

// handed another object than the request's response
const snapshot = { locals: { user: { namespace: 'captain', initialized: true } } } as unknown as express.Response;
const stale = express.Router();
stale.use((req, res, next) => {
  const user = InjectionExtractor.extractUserFromInjected(snapshot).user;
  if (!user) {
    res.send(new BaseApi(1105, 'The request is not authorized.'));
    return;
  }
  next();
});
stale.get('/cached', (req, res) => res.send({ status: 100 }));

export default router;
export { direct, handlers, other, stale };
`,
      'src/app.ts': `import express = require('express');
import UserRouter, { direct, handlers, other, stale } from './routes/user/UserRouter';

const app = express();
app.use('/api/v2/user/', UserRouter);
app.use('/api/v2/other/', other);
app.use('/api/v2/direct/', direct);
app.use('/api/v2/handlers/', handlers);
app.use('/api/v2/stale/', stale);
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(authLines(res)).toEqual([
      'GET /api/v2/direct/settings auth:[(inline middleware)] unknown:[]',
      'GET /api/v2/handlers/account auth:[] unknown:[]',
      'GET /api/v2/handlers/namespace auth:[] unknown:[]',
      'GET /api/v2/handlers/profile auth:[InjectionExtractor.extractUserFromInjected] unknown:[]',
      'GET /api/v2/handlers/profiles/:username auth:[] unknown:[]',
      'GET /api/v2/other/accounts auth:[] unknown:[(inline middleware)]',
      'GET /api/v2/stale/cached auth:[] unknown:[(inline middleware)]',
      'GET /api/v2/user/apps auth:[(inline middleware)] unknown:[]',
      'GET /api/v2/user/status auth:[] unknown:[]',
    ]);
    const reason = res.routes.find((r) => r.path === '/api/v2/user/apps')!.guards.find((g) => g.kinds.includes('auth'))!.reason;
    expect(reason).toBe('by behaviour (ends the request first when the request has no signed-in user)');
  });

  it("LibreChat's config route: a branch answering a request without a user with a success status serves it, and checks nothing", async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'api/server/routes/config.js': `const express = require('express');
const { getAppConfig } = require('../services/Config');

const router = express.Router();

router.get('/', async function (req, res) {
  const appConfig = await getAppConfig();
  if (!req.user) {
    return res.status(200).send({ appTitle: appConfig.appTitle, socialLogins: appConfig.socialLogins });
  }
  return res.status(200).send({ appTitle: appConfig.appTitle, balance: appConfig.balance, interface: appConfig.interface });
});

router.get('/user', async function (req, res) {
  if (!req.user) {
    return res.status(200).json({ error: 'Login required' });
  }
  return res.status(200).json({ id: req.user.id });
});

router.get('/balance', async function (req, res) {
  if (!req.user) {
    return res.sendStatus(401);
  }
  return res.status(200).json({ balance: 0 });
});

module.exports = router;
`,
      'api/server/services/Config.js': `async function getAppConfig() {
  return { appTitle: process.env.APP_TITLE || 'LibreChat', socialLogins: [], balance: {}, interface: {} };
}

module.exports = { getAppConfig };
`,
      'api/server/index.js': `const express = require('express');
const config = require('./routes/config');

const app = express();
app.use('/api/config', config);
app.listen(3080);
`,
    });
    const res = await check(dir);
    expect(authLines(res)).toEqual([
      'GET /api/config/ auth:[] unknown:[]',
      'GET /api/config/balance auth:[(inline 401 check)] unknown:[]',
      'GET /api/config/user auth:[(inline signed-in check)] unknown:[]',
    ]);
  });
  it("mongo-express: a session flag a sign-in sets (`req.session.authenticated`) is a signed-in user; `if (signedIn || allowed.has(path)) return next()` then a redirect refuses the rest", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'mongo-admin', type: 'module', dependencies: { express: '^5.1.0', 'express-session': '^1.18.0' } }),
      'lib/auth.js': `export const loginPath = '/login';

// the request goes on only for a signed-in session, or for the sign-in page and the health check
// (the path compared without its query string)
export function requireVisitor() {
  const allowed = new Set([loginPath, '/status']);
  return function (req, res, next) {
    if (req.session?.authenticated === true || allowed.has(req.originalUrl.split('?', 1)[0])) {
      return next();
    }
    req.session.error = 'Please sign in to continue.';
    return res.redirect(loginPath);
  };
}

// the same check written the other way round, with the flag a tutorial names
export function mustBeLoggedIn(req, res, next) {
  if (!req.session.loggedin) return res.redirect(loginPath);
  next();
}

// a flag set on the session for something else is no sign-in
export function mustHaveSeenTour(req, res, next) {
  if (req.session.tourSeen === true) return next();
  return res.redirect('/tour');
}
`,
      'app.js': `import express from 'express';
import session from 'express-session';
import { loginPath, mustBeLoggedIn, mustHaveSeenTour, requireVisitor } from './lib/auth.js';

const app = express();
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));
app.get(loginPath, (req, res) => res.send('<form method="post"></form>'));
app.get('/tips', mustHaveSeenTour, (req, res) => res.json({ tips: [] }));
app.get('/profile', mustBeLoggedIn, (req, res) => res.json({ user: req.session.username }));
app.use(requireVisitor());
app.get('/status', (req, res) => res.json({ status: 'ok' }));
app.get('/db/:database', (req, res) => res.json({ database: req.params.database }));
app.listen(8081);
`,
    });
    const res = await check(dir);
    expect(authLines(res)).toEqual([
      'GET /db/:database auth:[requireVisitor] unknown:[]',
      'GET /login auth:[] unknown:[]',
      'GET /profile auth:[mustBeLoggedIn] unknown:[]',
      'GET /status auth:[] unknown:[]',
      'GET /tips auth:[] unknown:[mustHaveSeenTour]',
    ]);
  });
  it('a lookup by the credential the request carries, refused when it finds nothing, authenticates whatever the status: bearer for a header', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'reports', dependencies: { koa: '^2.15.0', '@koa/router': '^13.0.0' } }),
      'src/db.ts': `import { PrismaClient } from '@prisma/client';
export const db = new PrismaClient();
`,
      'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { db } from './db';

const router = new Router({ prefix: '/api' });

router.get('/reports', async (ctx) => {
  const key = await db.apiKey.findFirst({ where: { key: ctx.request.headers['x-api-key'], revoked: false } });
  if (!key) {
    ctx.status = 403;
    ctx.body = { error: 'invalid api key' };
    return;
  }
  ctx.body = { reports: await db.report.findMany({ where: { ownerId: key.ownerId } }) };
});

// a share link's token, in the query: only its holder gets the share
router.get('/shared/:id', async (ctx) => {
  const share = await db.share.findFirst({ where: { id: ctx.params.id, token: ctx.query.token } });
  if (!share) {
    ctx.status = 404;
    return;
  }
  ctx.body = share;
});

// a lookup by what the request names, no credential: anyone gets the report
router.get('/public/:slug', async (ctx) => {
  const report = await db.report.findFirst({ where: { slug: ctx.params.slug, public: true } });
  if (!report) {
    ctx.status = 404;
    return;
  }
  ctx.body = report;
});

const app = new Koa();
app.use(router.routes());
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'GET /api/public/:slug ',
      'GET /api/reports db.apiKey.findFirst:auth+bearer',
      'GET /api/shared/:id db.share.findFirst:auth',
    ]);
  });

  it("a middleware whose lookup by the credential header it reads finds nothing ends the request, whatever the status: an auth guard, bearer (AnythingLLM's validDeviceToken, 400s)", async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'models/device.js': `const devices = new Map();
module.exports = { MobileDevice: { get: async (where) => devices.get(where.token ?? where.slug) ?? null } };
`,
      'middleware/device.js': `const { MobileDevice } = require('../models/device');

async function validDeviceToken(request, response, next) {
  try {
    const token = request.header('x-anythingllm-mobile-device-token');
    if (!token) return response.status(400).json({ error: 'Device token is required' });
    const device = await MobileDevice.get({ token: String(token) });
    if (!device) return response.status(400).json({ error: 'Device not found' });
    response.locals.device = device;
    next();
  } catch (error) {
    response.status(500).json({ error: 'Invalid middleware response' });
  }
}

// the same lookup by what the URL names: no credential, no guard
async function deviceFromSlug(request, response, next) {
  const device = await MobileDevice.get({ slug: String(request.params.slug) });
  if (!device) return response.status(404).json({ error: 'Device not found' });
  response.locals.device = device;
  next();
}

module.exports = { validDeviceToken, deviceFromSlug };
`,
      'app.js': `const express = require('express');
const { deviceFromSlug, validDeviceToken } = require('./middleware/device');

const app = express();
app.get('/api/mobile/auth', [validDeviceToken], (_req, res) => res.json({ success: true }));
app.get('/api/mobile/devices/:slug', deviceFromSlug, (_req, res) => res.json(res.locals.device));
app.listen(3001);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'GET /api/mobile/auth validDeviceToken:auth+bearer',
      'GET /api/mobile/devices/:slug deviceFromSlug:unknown',
    ]);
  });

  it("a member of the request the middleware itself gives a record the URL names (express's route-separation: `req.user = users[id]` of `req.params.id`) is no signed-in user; one given what a credential it is sent verifies is", async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/app.js': `
const express = require('express');

const users = [{ name: 'TJ' }, { name: 'Tobi' }];

function loadUser(req, res, next) {
  const id = req.params.id;
  req.user = users[id];
  if (req.user) {
    next();
  } else {
    next(new Error('cannot find user ' + id));
  }
}

// the session's user put where the next functions read it: still the signed-in user
function currentUser(req, res, next) {
  req.user = req.session.user;
  if (req.user) {
    next();
  } else {
    res.redirect('/login');
  }
}

// a token the form posts, verified: a credential, not a record the request names
function tokenUser(req, res, next) {
  req.user = verifyToken(req.body.accessToken);
  if (req.user) {
    next();
  } else {
    res.redirect('/login');
  }
}

function verifyToken(token) {
  return token && token.startsWith('ey') ? { name: 'TJ' } : null;
}

const app = express();
app.get('/user/:id', loadUser, (req, res) => res.json(req.user));
app.get('/me', currentUser, (req, res) => res.json(req.user));
app.post('/embed', tokenUser, (req, res) => res.json(req.user));
module.exports = app;
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'POST /embed tokenUser:auth',
      'GET /me currentUser:auth',
      'GET /user/:id loadUser:unknown',
    ]);
  });
});
