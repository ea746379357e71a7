/**
 * Allowlists at the top of a guard (Behaviour.skipsFor): which requests each form lets through
 * untouched, and so which routes the guard does not guard. Each guard here would guard every
 * route without its allowlist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, cli, guardKinds } from './helpers/run.js';
import { EXPRESS_PACKAGE, writeProject } from './helpers/project.js';

const ROUTES = `
app.get('/api/sites', (req, res) => res.json([]));
app.get('/api/sites/:siteId', (req, res) => res.json({ id: req.params.siteId }));
app.get('/api/public/pricing', (req, res) => res.json({ plans: [] }));
app.get('/assets/app.js.map', (req, res) => res.sendFile('app.js.map'));
app.get('/favicon.ico', (req, res) => res.sendFile('favicon.ico'));
`;

/** An Express app whose one global guard starts with `allowlist`, above its declarations `before`. */
function expressApp(allowlist: string, before = ''): string {
  return writeProject({
    'package.json': EXPRESS_PACKAGE,
    'src/app.ts': `
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
${before}
function requireSession(req: Request, res: Response, next: NextFunction) {
  ${allowlist}
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  next();
}

export const app = express();
app.use(requireSession);
${ROUTES}`,
  });
}

/** A Hono app whose one global guard starts with `allowlist`, above its declarations `before`. */
function honoApp(allowlist: string, before = ''): string {
  return writeProject({
    'package.json': JSON.stringify({ name: 'h', dependencies: { hono: '4.6.0' } }),
    'src/app.ts': `
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
${before}
const requireSession = createMiddleware(async (c, next) => {
  ${allowlist}
  if (!c.get('session')) return c.json({ error: 'unauthorized' }, 401);
  await next();
});

export const app = new Hono();
app.use('*', requireSession);
app.post('/api/auth/login', (c) => c.json({ ok: true }));
app.get('/api/status', (c) => c.json({ ok: true }));
app.get('/api/statuses', (c) => c.json([]));
app.get('/api/sites', (c) => c.json([]));
`,
  });
}

/** `METHOD /path [guard names]` per route, and what each skipped guard lets through. */
async function rows(dir: string): Promise<string[]> {
  const res = await check(dir);
  return res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]${(r.skippedGuards ?? []).map((g) => ` ${g.name} lets through ${g.skips}`).join('')}`);
}

describe('allowlists in a guard', () => {
  it('a path tested with includes() or endsWith() lets through the routes that can hold or end with the text (a parameter may be it)', async () => {
    expect(await rows(expressApp("if (req.path.includes('/public/') || req.path.endsWith('.ico')) return next();"))).toEqual([
      'GET /api/public/pricing [] requireSession lets through paths holding /public/',
      'GET /api/sites [requireSession]',
      // `/api/sites/public/` (Express serves the route with a trailing slash too); `/api/sites/favicon.ico` as well
      'GET /api/sites/:siteId [] requireSession lets through paths holding /public/',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [] requireSession lets through paths ending in .ico',
    ]);
  });

  it('the URL tested with includes() or endsWith() lets every request through: any URL can end with a query string holding the text', async () => {
    expect(await rows(expressApp("if (req.originalUrl.endsWith('.map')) return next();"))).toEqual([
      'GET /api/public/pricing [] requireSession lets through every request whose URL ends with ".map", which a query string can add to any URL',
      'GET /api/sites [] requireSession lets through every request whose URL ends with ".map", which a query string can add to any URL',
      'GET /api/sites/:siteId [] requireSession lets through every request whose URL ends with ".map", which a query string can add to any URL',
      'GET /assets/app.js.map [] requireSession lets through every request whose URL ends with ".map", which a query string can add to any URL',
      'GET /favicon.ico [] requireSession lets through every request whose URL ends with ".map", which a query string can add to any URL',
    ]);
  });

  it('a list of regular expressions each tested on the path, and a path compared with a constant', async () => {
    const dir = expressApp(
      'if (STATIC_FILES.some((pattern) => pattern.test(req.path)) || req.path === PRICING) return next();',
      "const STATIC_FILES = [/^\\/assets\\//, /\\.ico$/i];\nconst PRICING = '/api/public/pricing';",
    );
    expect(await rows(dir)).toEqual([
      'GET /api/public/pricing [] requireSession lets through the path /api/public/pricing',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [] requireSession lets through paths ending in .ico (in any case)',
      'GET /assets/app.js.map [] requireSession lets through paths starting with /assets/',
      'GET /favicon.ico [] requireSession lets through paths ending in .ico (in any case)',
    ]);
  });

  it("a list of paths and regular expressions, each tested by its kind (lunary's `publicRoutes.some((route) => typeof route === 'string' ? route === ctx.path : route.test(ctx.path))`)", async () => {
    const list = "const PUBLIC = [new RegExp('^/assets/'), '/api/public/pricing', /\\.ico$/];";
    const expected = [
      'GET /api/public/pricing [] requireSession lets through the path /api/public/pricing',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [] requireSession lets through paths ending in .ico',
      'GET /assets/app.js.map [] requireSession lets through paths starting with /assets/',
      'GET /favicon.ico [] requireSession lets through paths ending in .ico',
    ];
    expect(await rows(expressApp("if (PUBLIC.some((route) => typeof route === 'string' ? route === req.path : route.test(req.path))) return next();", list))).toEqual(expected);
    // the test the other way round, and instanceof
    expect(await rows(expressApp("if (PUBLIC.some((route) => typeof route !== 'string' ? route.test(req.path) : req.path === route)) return next();", list))).toEqual(expected);
    expect(await rows(expressApp('if (PUBLIC.some((route) => (route instanceof RegExp ? route.test(req.path) : req.path.startsWith(route)))) return next();', list))).toEqual([
      'GET /api/public/pricing [] requireSession lets through paths starting with /api/public/pricing',
      ...expected.slice(1),
    ]);
    // a branch whose test is not read (a string handed to a function): no test of the path is
    // read in the callback, as for any callback not read, and the guard stays on every route
    const res = await check(expressApp("if (PUBLIC.some((route) => typeof route === 'string' ? matches(req.path, route) : route.test(req.path))) return next();", `${list}\ndeclare function matches(a: string, b: string): boolean;`));
    expect(new Set(res.routes.map((r) => r.guards.map(guardKinds).join()))).toEqual(new Set(['requireSession: auth']));
  });

  it('a regular expression of literal text and wildcards (`^\\/assets\\/.+\\.map$`, `\\/sites\\/.+`) lets through the routes some request path to which it matches, a parameter of any value', async () => {
    expect(await rows(expressApp('if (/^\\/assets\\/.+\\.map$/.test(req.path) || /\\/sites\\/.+/.test(req.path)) return next();'))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [] requireSession lets through paths matching /\\/sites\\/.+/',
      'GET /assets/app.js.map [] requireSession lets through paths matching /^\\/assets\\/.+\\.map$/',
      'GET /favicon.ico [requireSession]',
    ]);
    // the same made by `new RegExp` from strings, and under a test of the method
    expect(await rows(expressApp("if (req.method === 'GET' && new RegExp('^/api/.+/pricing$').test(req.path)) return next();"))).toEqual([
      'GET /api/public/pricing [] requireSession lets through GET requests to paths matching /^\\/api\\/.+\\/pricing$/',
      'GET /api/sites [requireSession]',
      // (`GET /api/sites/pricing` reaches it)
      'GET /api/sites/:siteId [] requireSession lets through GET requests to paths matching /^\\/api\\/.+\\/pricing$/',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [requireSession]',
    ]);
  });

  it('a regular expression with classes, groups and alternatives (`^\\/api\\/(public|status)\\/[a-z]+$`, `\\/sites\\/\\d+$`) lets through the routes some request path to which it matches', async () => {
    const allowlist = 'if (/^\\/api\\/(public|status)\\/[a-z]+$/i.test(req.path) || /^\\/[a-z]+\\.ico$/.test(req.path) || /\\/sites\\/\\d+$/.test(req.path)) return next();';
    expect(await rows(expressApp(allowlist))).toEqual([
      'GET /api/public/pricing [] requireSession lets through paths matching /^\\/api\\/(public|status)\\/[a-z]+$/i',
      'GET /api/sites [requireSession]',
      // (`GET /api/sites/42` reaches it, `GET /api/sites/abc` does not)
      'GET /api/sites/:siteId [] requireSession lets through paths matching /\\/sites\\/\\d+$/',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [] requireSession lets through paths matching /^\\/[a-z]+\\.ico$/',
    ]);
  });

  it("a list whose items a test of their own sorts into wildcards and paths (fastify-oauth-api's `if (w.endsWith('*')) return path.startsWith(w.slice(0, -1)); return path === w;`)", async () => {
    const list = "const WHITELISTED = ['/api/public/pricing', '/assets/*'];";
    const expected = [
      'GET /api/public/pricing [] requireSession lets through the path /api/public/pricing',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [] requireSession lets through paths starting with /assets/',
      'GET /favicon.ico [requireSession]',
    ];
    const block = "if (WHITELISTED.some((w) => { if (w.endsWith('*')) { return req.path.startsWith(w.slice(0, -1)); } return req.path === w; })) return next();";
    expect(await rows(expressApp(block, list))).toEqual(expected);
    // the same as `? :`, the test negated
    const conditional = "if (WHITELISTED.some((w) => (!w.endsWith('*') ? req.path === w : req.path.startsWith(w.slice(0, -1))))) return next();";
    expect(await rows(expressApp(conditional, list))).toEqual(expected);
  });

  it("a test of the path made true also by a credential left out (lunary's `if (isPublicRoute && !key) { await next(); return; }`, `key` read from a header): what the path test lets through", async () => {
    const dir = (test: string): string =>
      writeProject({
        'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '2.15.3', '@koa/router': '13.1.0' } }),
        'src/auth.ts': `
import type { Context, Next } from 'koa';
const publicRoutes = [new RegExp(\`^/auth/.+\`), '/v1/health'];
export async function authMiddleware(ctx: Context, next: Next) {
  const isPublicRoute = publicRoutes.some((route) => (typeof route === 'string' ? route === ctx.path : route.test(ctx.path)));
  const bearer = ctx.request?.headers?.authorization?.split(' ')[1] as string;
  const apiKey = ctx.request?.headers?.['x-api-key'] as string;
  const key = bearer || apiKey;
  if (${test}) {
    await next();
    return;
  } else if (!key) {
    ctx.throw(401, 'No credential');
  }
  ctx.state.projectId = await projectOf(key);
  await next();
}
declare function projectOf(key: string): Promise<string>;
`,
        'src/app.ts': `
import Router from '@koa/router';
import Koa from 'koa';
import { authMiddleware } from './auth';

const router = new Router();
router.post('/auth/login', (ctx) => { ctx.body = { token: 't' }; });
router.get('/v1/health', (ctx) => { ctx.body = 'ok'; });
router.get('/v1/runs', (ctx) => { ctx.body = []; });
const app = new Koa();
app.use(authMiddleware);
app.use(router.routes());
export default app;
`,
      });
    const open = [
      'POST /auth/login [] authMiddleware lets through paths matching /^\\/auth\\/.+/',
      'GET /v1/health [] authMiddleware lets through the path /v1/health',
      'GET /v1/runs [authMiddleware]',
    ];
    expect(await rows(dir('isPublicRoute && !key'))).toEqual(open);
    expect(await rows(dir("!ctx.get('authorization') && isPublicRoute"))).toEqual(open);
    // a value the server sets, which no request leaves out, is no such test: nothing read
    expect(await rows(dir('isPublicRoute && !ctx.state.maintenance'))).toEqual(['POST /auth/login [authMiddleware]', 'GET /v1/health [authMiddleware]', 'GET /v1/runs [authMiddleware]']);
  });

  it('a list whose items are not known statically makes the guard a candidate; a regular expression not worked out too', async () => {
    for (const dir of [
      expressApp('if (publicPaths.includes(req.path)) return next();', "const publicPaths = (process.env.PUBLIC_PATHS ?? '').split(',');"),
      // (a word boundary is not read: wildcards.ts)
      expressApp('if (/^\\/api\\/(pricing|status)\\b/.test(req.path)) return next();'),
    ]) {
      const res = await check(dir);
      expect(new Set(res.routes.map((r) => r.guards.map(guardKinds).join()))).toEqual(
        new Set(['requireSession: unknown (exceptions unknown)']),
      );
      const explained = cli(['explain', 'GET /api/sites'], dir, { NO_COLOR: '1' }).stdout;
      expect(explained).toContain('; may be one, but lets through requests not known statically: requireSession');
      expect(explained).not.toContain('unclassified middleware');
    }
  });

  it("Hono: a list of prefixes tested on c.req.path with some(); Fastify: the route's own pattern (request.routeOptions.url) is no allowlist", async () => {
    const hono = honoApp('if (OPEN.some((prefix) => c.req.path.startsWith(prefix))) return next();', "const OPEN = ['/api/auth/', '/api/status'];");
    expect(await rows(hono)).toEqual([
      'POST /api/auth/login [] requireSession lets through paths starting with /api/auth/',
      'GET /api/sites [requireSession]',
      'GET /api/status [] requireSession lets through paths starting with /api/status',
      'GET /api/statuses [] requireSession lets through paths starting with /api/status',
    ]);
    const fastify = writeProject({
      'package.json': JSON.stringify({ name: 'f', dependencies: { fastify: '5.1.0' } }),
      'src/server.ts': `
import Fastify from 'fastify';

const server = Fastify();
server.addHook('onRequest', async function authenticate(request, reply) {
  if (request.routeOptions.url === '/health') return;
  if (!request.session?.user) return reply.code(401).send({ error: 'unauthorized' });
});
server.get('/health', async () => ({ ok: true }));
server.get('/api/sites', async () => []);
server.listen({ port: 3000 });
`,
    });
    expect(await rows(fastify)).toEqual(['GET /api/sites [authenticate]', 'GET /health [authenticate]']);
  });

  it('a test held by a local, and one returned by a function of the file the path is handed to (a Next.js middleware)', async () => {
    expect(
      await rows(expressApp("const isPublic = OPEN.some((prefix) => req.path.startsWith(prefix));\n  if (isPublic) return next();", "const OPEN = ['/api/public/'];")),
    ).toEqual([
      'GET /api/public/pricing [] requireSession lets through paths starting with /api/public/',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [requireSession]',
    ]);
    const next = writeProject({
      'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4' } }),
      'middleware.ts': `
import { NextResponse, type NextRequest } from 'next/server';

// unauthenticated access to auth routes and static assets
const PUBLIC_PATHS = ['/login', '/api/auth/', '/_next/', '/favicon'];

function isPublicPath(pathname: string) {
  return PUBLIC_PATHS.some((p) => pathname.startsWith(p));
}

export function middleware(req: NextRequest) {
  const { pathname } = req.nextUrl;
  if (isPublicPath(pathname)) return NextResponse.next();
  const hasSession = Boolean(req.cookies.get('session')?.value);
  if (!hasSession) return NextResponse.json({ error: 'unauthorized' }, { status: 401 });
  return NextResponse.next();
}
`,
      'app/api/auth/session/route.ts': `export async function GET() {\n  return Response.json({ user: null });\n}\n`,
      'app/api/sites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
    });
    expect(await rows(next)).toEqual(['GET /api/auth/session [] middleware lets through paths starting with /api/auth/', 'GET /api/sites [middleware]']);
  });

  it('indexOf() reads as includes() or startsWith(); an alternative testing something else (a session, a header) lets no route through by its URL, and the reading goes on', async () => {
    expect(
      await rows(expressApp("if (OPEN.indexOf(req.path) > -1 || req.session?.userId || req.path.indexOf('/assets/') === 0) return next();", "const OPEN = ['/api/public/pricing'];")),
    ).toEqual([
      'GET /api/public/pricing [] requireSession lets through the path /api/public/pricing',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [] requireSession lets through paths starting with /assets/',
      'GET /favicon.ico [requireSession]',
    ]);
    expect(await rows(expressApp("if (req.headers['x-internal-token'] === process.env.INTERNAL_TOKEN) return next();\n  if (~req.path.indexOf('.ico')) return next();"))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [] requireSession lets through paths holding .ico',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [] requireSession lets through paths holding .ico',
    ]);
  });

  it("the URL with its trailing slash cut (`req.originalUrl.replace(/\\/$/, '')`, ghostfolio's page middleware) is the URL, and a branch that only sets locals is passed by", async () => {
    expect(await rows(expressApp("const path = req.originalUrl.replace(/\\/$/, '');\n  if (path.startsWith('/assets/') || path === '/favicon.ico') return next();"))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [] requireSession lets through paths starting with /assets/',
      'GET /favicon.ico [] requireSession lets through the path /favicon.ico',
    ]);
    // (a branch that only gives locals values goes by; a local it gives one is then not known)
    expect(await rows(expressApp("let lang = req.path.slice(1, 3);\n  if (!LANGS.includes(lang)) {\n    lang = 'en';\n  }\n  if (req.path.startsWith('/assets/')) return next();", "const LANGS = ['en', 'de'];"))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [] requireSession lets through paths starting with /assets/',
      'GET /favicon.ico [requireSession]',
    ]);
    expect(await rows(expressApp("let open = req.path.startsWith('/assets/');\n  if (req.query.all) open = true;\n  if (open) return next();"))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [requireSession]',
    ]);
    // (anything else made of the URL is not read: the guard is a candidate for every route, as before)
    expect(await rows(expressApp("const path = req.originalUrl.toLowerCase();\n  if (path.startsWith('/assets/')) return next();"))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/sites/:siteId [requireSession]',
      'GET /assets/app.js.map [requireSession]',
      'GET /favicon.ico [requireSession]',
    ]);
  });

  it('a loop over a list, a list of methods, a helper returning true for some tests before its last, and a some() callback partly read', async () => {
    const only = (skipped: Record<string, string>) =>
      ['GET /api/public/pricing', 'GET /api/sites', 'GET /api/sites/:siteId', 'GET /assets/app.js.map', 'GET /favicon.ico'].map((r) =>
        skipped[r] ? `${r} [] requireSession lets through ${skipped[r]}` : `${r} [requireSession]`,
      );
    expect(await rows(expressApp('for (const prefix of OPEN) {\n    if (req.path.startsWith(prefix)) return next();\n  }', "const OPEN = ['/api/public/', '/assets/'];"))).toEqual(
      only({ 'GET /api/public/pricing': 'paths starting with /api/public/', 'GET /assets/app.js.map': 'paths starting with /assets/' }),
    );
    expect(await rows(expressApp("if (['GET', 'HEAD'].includes(req.method) && req.path.startsWith('/assets/')) return next();"))).toEqual(
      only({ 'GET /assets/app.js.map': 'GET requests to paths starting with /assets/' }),
    );
    const helper = "const OPEN = ['/favicon.ico'];\nfunction isOpen(path: string) {\n  if (OPEN.includes(path)) return true;\n  return path.startsWith('/api/public/');\n}";
    expect(await rows(expressApp('if (isOpen(req.path)) return next();', helper))).toEqual(
      only({ 'GET /api/public/pricing': 'paths starting with /api/public/', 'GET /favicon.ico': 'the path /favicon.ico' }),
    );
    // (a prefix made by adding to the item is not read: the path compared whole is)
    expect(await rows(expressApp("if (OPEN.some((p) => req.path === p || req.path.startsWith(p + '/'))) return next();", "const OPEN = ['/favicon.ico'];"))).toEqual(
      only({ 'GET /favicon.ico': 'the path /favicon.ico' }),
    );
  });

  it('a check written as the else branch, or under a condition its negated tests (!, !==) make false (a CSRF check skipping safe methods)', async () => {
    const app = (name: string, body: string, before = ''): string =>
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.ts': `
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
${before}
function ${name}(req: Request, res: Response, next: NextFunction) {
  ${body}
}

export const app = express();
app.use(${name});
app.get('/api/sites', (req, res) => res.json([]));
app.get('/api/public/pricing', (req, res) => res.json({ plans: [] }));
app.post('/api/sites', (req, res) => res.status(201).json({}));
`,
      });
    const OPEN = "const OPEN = ['/api/public/pricing'];";
    const pricingOpen = [
      'GET /api/public/pricing [] requireSession lets through the path /api/public/pricing',
      'GET /api/sites [requireSession]',
      'POST /api/sites [requireSession]',
    ];
    for (const body of [
      "if (OPEN.indexOf(req.path) > -1 || req.isAuthenticated()) {\n    return next();\n  } else {\n    res.status(401).json({ error: 'sign in' });\n  }",
      "if (!OPEN.includes(req.path) && !req.session?.userId) return res.status(401).json({ error: 'sign in' });\n  next();",
      "if (!OPEN.includes(req.path)) {\n    if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });\n  }\n  next();",
    ])
      expect(await rows(app('requireSession', body, OPEN))).toEqual(pricingOpen);
    // (a negated test of the session alone lets nothing through)
    expect(await rows(app('requireSession', "if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });\n  next();"))).toEqual([
      'GET /api/public/pricing [requireSession]',
      'GET /api/sites [requireSession]',
      'POST /api/sites [requireSession]',
    ]);
    const check = "if (req.get('x-csrf-token') !== req.session.csrfToken) return res.status(403).json({ error: 'bad csrf token' });";
    for (const csrf of [
      `if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method)) {\n    ${check}\n  }\n  next();`,
      `if (req.method !== 'GET' && req.method !== 'HEAD') {\n    ${check}\n  }\n  next();`,
    ])
      expect(await rows(app('verifyCsrf', csrf))).toEqual([
        'GET /api/public/pricing [] verifyCsrf lets through every GET request',
        'GET /api/sites [] verifyCsrf lets through every GET request',
        'POST /api/sites [verifyCsrf]',
      ]);
  });

  it('chains of if … else if handing on with next() (with or without return), after a log line, and a prefix made from each item (`${p}/`), in a CommonJS app', async () => {
    const app = (body: string, before: string): string =>
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/app.js': `
const express = require('express');
${before}
function auth(req, res, next) {
  ${body}
}
const app = express();
app.use(auth);
app.get('/login', (req, res) => res.render('login'));
app.get('/public/logo.png', (req, res) => res.sendFile('logo.png'));
app.get('/api/sites', (req, res) => res.json([]));
module.exports = app;
`,
      });
    expect(
      await rows(
        app(
          "console.log(req.method, req.url);\n  if (publicPaths.includes(req.path)) {\n    return next();\n  } else if (req.session?.isLoggedIn) {\n    return next();\n  }\n  return res.status(401).render('login');",
          "const publicPaths = ['/', '/login'];",
        ),
      ),
    ).toEqual(['GET /api/sites [auth]', 'GET /login [] auth lets through the path /login', 'GET /public/logo.png [auth]']);
    const both = ['GET /api/sites [auth]', 'GET /login [] auth lets through the path /login', 'GET /public/logo.png [] auth lets through paths starting with /public/'];
    expect(
      await rows(
        app(
          "if (req.session.userID != undefined) {\n    next();\n  } else if (isValidPath(req.path)) {\n    next();\n  } else {\n    res.status(401).redirect('./login');\n  }",
          "function isValidPath(path) {\n  return path == '/login' || path == '/api/login' || path.startsWith('/public/');\n}",
        ),
      ),
    ).toEqual(both);
    expect(
      await rows(app("if (PUBLIC.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();\n  if (!req.session.user) return res.sendStatus(401);\n  next();", "const PUBLIC = ['/login', '/public'];")),
    ).toEqual(both);
  });

  it('a helper of another file the path is handed to lets through what it returns true for; one whose test is not read, or a package matcher, leaves the guard a candidate', async () => {
    const app = (guard: string, paths: string): string =>
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/paths.ts': paths,
        'src/app.ts': `
import express from 'express';
import * as routes from './paths';
import { isPublicPath, matcher } from './paths';

function requireSession(req, res, next) {
  ${guard}
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  next();
}
export const app = express();
app.use(requireSession);
app.get('/login', (req, res) => res.json({}));
app.get('/public/logo.png', (req, res) => res.sendFile('logo.png'));
app.get('/api/sites', (req, res) => res.json([]));
`,
      });
    expect(
      await rows(
        app(
          'if (isPublicPath(req.path)) return next();',
          "export function isPublicPath(pathname: string): boolean {\n  if (PUBLIC.includes(pathname)) return true;\n  return PREFIXES.some((p) => pathname.startsWith(p));\n}\nconst PUBLIC = ['/login'];\nconst PREFIXES = ['/public/'];\n",
        ),
      ),
    ).toEqual([
      'GET /api/sites [requireSession]',
      'GET /login [] requireSession lets through the path /login',
      'GET /public/logo.png [] requireSession lets through paths starting with /public/',
    ]);
    // handed the URL with its query string, the helper's endsWith() lets every request through
    const bypass = 'requireSession lets through every request whose URL ends with ".png", which a query string can add to any URL';
    expect(await rows(app('if (routes.isPublicPath(req.originalUrl)) return next();', "export const isPublicPath = (path: string) => path.endsWith('.png') || path === '/login';\n"))).toEqual([
      `GET /api/sites [] ${bypass}`,
      `GET /login [] ${bypass}`,
      `GET /public/logo.png [] ${bypass}`,
    ]);
    for (const dir of [
      app('if (isPublicPath(req.path)) return next();', "export function isPublicPath(path: string) {\n  const p = path.toLowerCase();\n  return p === '/login';\n}\n"),
      app('if (matcher(req.path)) return next();', "import { match } from 'path-to-regexp';\nexport const matcher = match('/public/:file');\n"),
    ]) {
      const res = await check(dir);
      expect(new Set(res.routes.map((r) => r.guards.map(guardKinds).join()))).toEqual(
        new Set(['requireSession: unknown (exceptions unknown)']),
      );
    }
    // (beside an alternative that is read, a candidate still lets through what that one lets through)
    const partly = await check(app("if (req.path.startsWith('/public/') || matcher(req.path)) return next();", "import { match } from 'path-to-regexp';\nexport const matcher = match('/login');\n"));
    expect(partly.routes.map((r) => `${r.method} ${r.path} [${r.guards.map(guardKinds).join()}]${(r.skippedGuards ?? []).map((g) => ` ${g.name} lets through ${g.skips}`).join('')}`)).toEqual([
      'GET /api/sites [requireSession: unknown (exceptions unknown)]',
      'GET /login [requireSession: unknown (exceptions unknown)]',
      'GET /public/logo.png [] requireSession lets through paths starting with /public/',
    ]);
  });

  it("Hono's c.req.url and a Next.js request's url hold the whole URL: compared with a path it never matches; its pathname parsed does", async () => {
    const hono = honoApp("if (c.req.url.startsWith('/api/auth/')) return next();\n  const { pathname } = new URL(c.req.url);\n  if (pathname === '/api/status') return next();");
    expect(await rows(hono)).toEqual([
      'POST /api/auth/login [requireSession]',
      'GET /api/sites [requireSession]',
      'GET /api/status [] requireSession lets through the path /api/status',
      'GET /api/statuses [requireSession]',
    ]);
    const next = writeProject({
      'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4' } }),
      'middleware.ts': `
import { NextResponse, type NextRequest } from 'next/server';

export function middleware(request: NextRequest) {
  const url = new URL(request.url);
  if (url.pathname.startsWith('/api/auth/') || request.url.includes('/_next/')) return NextResponse.next();
  if (!request.cookies.get('session')?.value) return NextResponse.json({ error: 'unauthorized' }, { status: 401 });
  return NextResponse.next();
}
`,
      'app/api/auth/session/route.ts': `export async function GET() {\n  return Response.json({ user: null });\n}\n`,
      'app/api/sites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
    });
    expect(await rows(next)).toEqual([
      'GET /api/auth/session [] middleware lets through paths starting with /api/auth/',
      'GET /api/sites [] middleware lets through every request whose URL holds "/_next/", which a query string can add to any URL',
    ]);
  });

  it('the JSON report lists a skipped guard in guardDetails with what it lets through, and in no list of guards', async () => {
    const dir = expressApp("if (req.method === 'OPTIONS' || req.path.startsWith('/api/public/')) return next();");
    const { stdout } = cli(['check', '--format', 'json'], dir);
    const route = JSON.parse(stdout).routes.find((r: { path: string }) => r.path === '/api/public/pricing');
    expect(route.guards.auth).toEqual([]);
    expect(route.guardDetails).toEqual([
      expect.objectContaining({ name: 'requireSession', kinds: ['auth'], skips: 'paths starting with /api/public/' }),
    ]);
    const explained = cli(['explain', 'GET /api/public/pricing'], dir, { NO_COLOR: '1' }).stdout.split('\n');
    expect(explained.filter((l) => /^ {2}(guards|allowlist) /.test(l))).toEqual([
      '  guards      none',
      '  allowlist   requireSession  auth  app.use() before the route  src/app.ts:12  by name (auth); by behaviour (ends the request with 401); lets through untouched paths starting with /api/public/',
    ]);
  });
});

describe('allowlists below a mount path (Express)', () => {
  it("req.path and req.url are read below the use() layer's path and a router's mount path; req.originalUrl from the root", async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/auth.ts': `
import type { NextFunction, Request, Response } from 'express';
export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (req.path === '/login' || req.url.startsWith('/invitations/')) return next();
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  next();
}
export function requireAccount(req: Request, res: Response, next: NextFunction) {
  if (req.originalUrl === '/login') return next();
  if (!req.session?.accountId) return res.status(401).json({ error: 'no account' });
  next();
}
`,
      'src/app.ts': `
import express from 'express';
import { requireAccount, requireSession } from './auth';

const accounts = express.Router();
accounts.use(requireSession);
accounts.get('/login', (req, res) => res.json({ form: true }));
accounts.get('/invitations/:token', (req, res) => res.json({ token: req.params.token }));
accounts.get('/settings', requireAccount, (req, res) => res.json({}));

export const app = express();
app.use('/api', requireSession, requireAccount);
app.get('/api/login', (req, res) => res.json({ form: true }));
app.get('/login', (req, res) => res.json({ form: true }));
app.use('/accounts', accounts);
`,
    });
    expect(await rows(dir)).toEqual([
      // the path below /accounts is /login, and /invitations/… for requireSession; requireAccount reads the whole URL
      'GET /accounts/invitations/:token [] requireSession lets through paths starting with /invitations/',
      'GET /accounts/login [] requireSession lets through the path /login',
      'GET /accounts/settings [requireSession, requireAccount]',
      'GET /api/login [requireAccount] requireSession lets through the path /login',
      'GET /login []',
    ]);
  });
});

describe('allowlists below a mount path (Koa)', () => {
  it('koa-mount strips its path: a mounted app\'s guard reads ctx.path below it; @koa/router\'s prefix is not stripped', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '2.15.3', 'koa-mount': '4.0.0', '@koa/router': '13.1.0' } }),
      'src/auth.ts': `
import type { Context, Next } from 'koa';
export async function requireSession(ctx: Context, next: Next) {
  if (ctx.path === '/login') return next();
  if (!ctx.session?.userId) {
    ctx.status = 401;
    return;
  }
  await next();
}
`,
      'src/app.ts': `
import Router from '@koa/router';
import Koa from 'koa';
import mount from 'koa-mount';
import { requireSession } from './auth';

const admin = new Koa();
const adminRoutes = new Router();
adminRoutes.get('/login', (ctx) => { ctx.body = { form: true }; });
adminRoutes.get('/users', (ctx) => { ctx.body = []; });
admin.use(requireSession);
admin.use(adminRoutes.routes());

const api = new Router({ prefix: '/api' });
api.use(requireSession);
api.get('/login', (ctx) => { ctx.body = { form: true }; });

const app = new Koa();
app.use(mount('/admin', admin));
app.use(api.routes());
export default app;
`,
    });
    expect(await rows(dir)).toEqual([
      'GET /admin/login [] requireSession lets through the path /login',
      'GET /admin/users [requireSession]',
      'GET /api/login [requireSession]',
    ]);
  });
});

describe('checks run only under a test of the URL or the method', () => {
  /**
   * An Express app whose one global guard has `body` and whose routes are `routes`, its
   * settings `settings` (made before its router is: Express reads them then).
   */
  const app = (name: string, body: string, routes: string, files: Record<string, string> = {}, settings = ''): string =>
    writeProject({
      'package.json': EXPRESS_PACKAGE,
      ...files,
      'src/app.ts': `
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
${files['src/paths.ts'] ? "import { isAdminPath } from './paths';" : ''}
function ${name}(req: Request, res: Response, next: NextFunction) {
  ${body}
}

export const app = express();
${settings}
app.use(${name});
${routes}
`,
    });
  /** Express matching paths in the case written (it matches them in any case by default) */
  const SENSITIVE = "app.set('case sensitive routing', true);";
  const ADMIN_ROUTES = `
app.get('/admin/users', (req, res) => res.json([]));
app.get('/admin', (req, res) => res.json({}));
app.get('/ops/queues/:queue', (req, res) => res.json({ queue: req.params.queue }));
app.get('/reports', (req, res) => res.json([]));
app.get('/administrators', (req, res) => res.json([]));
`;
  const check = "if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });";

  it('a check under a test of the path guards only the routes every request to which passes it (in any case, when the routes are matched so); one handing the others on first is no optional authentication', async () => {
    const adminOnly = [
      'GET /admin [requireSession]',
      'GET /admin/users [requireSession]',
      "GET /administrators [] requireSession lets through every request outside paths starting with /admin/ or the path /admin",
      'GET /ops/queues/:queue [] requireSession lets through every request outside paths starting with /admin/ or the path /admin',
      'GET /reports [] requireSession lets through every request outside paths starting with /admin/ or the path /admin',
    ];
    for (const body of [
      `if (req.path.startsWith('/admin/') || req.path === '/admin') {\n    ${check}\n  }\n  next();`,
      `if ((req.path.startsWith('/admin/') || req.path === '/admin') && !req.session?.userId) return res.status(401).json({ error: 'sign in' });\n  next();`,
      `if (!(req.path.startsWith('/admin/') || req.path === '/admin')) return next();\n  ${check}\n  next();`,
      // the test held by a local
      `const isAdminPath = ['/admin/'].some((prefix) => req.path.startsWith(prefix)) || req.path === '/admin';\n  if (isAdminPath && !req.session?.userId) return res.sendStatus(401);\n  next();`,
      // (a `false` beside it holds for nothing: OpenSign's `req.path?.includes('/files/') || false`)
      `const isAdminPath = req.path?.startsWith('/admin/') || req.path === '/admin' || false;\n  if (isAdminPath) {\n    ${check}\n  }\n  next();`,
    ])
      expect(await rows(app('requireSession', body, ADMIN_ROUTES, {}, SENSITIVE))).toEqual(adminOnly);
    // matched in any case (Express's default), `/ADMIN/users` reaches `/admin/users` and passes no
    // test of `/admin/` in the case written: the check guards none of the routes
    const anyCase = ', in the case written (the route is matched in any case)';
    expect(await rows(app('requireSession', `if (req.path.startsWith('/admin/') || req.path === '/admin') {\n    ${check}\n  }\n  next();`, ADMIN_ROUTES))).toEqual([
      `GET /admin [] requireSession lets through every request outside paths starting with /admin/ or the path /admin${anyCase}`,
      `GET /admin/users [] requireSession lets through every request outside paths starting with /admin/ or the path /admin${anyCase}`,
      ...adminOnly.slice(2),
    ]);
    // the test made by a helper of another file, handed the path; handed the URL from the root,
    // a query string added escapes its comparison with /admin
    const helper = { 'src/paths.ts': "export function isAdminPath(p: string): boolean {\n  return p.startsWith('/admin/') || p === '/admin';\n}\n" };
    expect(await rows(app('requireSession', `if (isAdminPath(req.path)) {\n    ${check}\n  }\n  next();`, ADMIN_ROUTES, helper, SENSITIVE))).toEqual(adminOnly);
    expect(await rows(app('requireSession', `if (isAdminPath(req.originalUrl)) {\n    ${check}\n  }\n  next();`, ADMIN_ROUTES, helper, SENSITIVE))).toEqual([
      'GET /admin [] requireSession lets through every request outside paths starting with /admin/',
      'GET /admin/users [requireSession]',
      ...adminOnly.slice(2).map((row) => row.replace(' or the path /admin', '')),
    ]);
    // prefixes of a path with a parameter: the part before it decides
    expect(await rows(app('requireSession', `if (req.path.startsWith('/ops/') && !req.session?.userId) return res.sendStatus(401);\n  next();`, ADMIN_ROUTES, {}, SENSITIVE))).toEqual([
      'GET /admin [] requireSession lets through every request outside paths starting with /ops/',
      'GET /admin/users [] requireSession lets through every request outside paths starting with /ops/',
      'GET /administrators [] requireSession lets through every request outside paths starting with /ops/',
      'GET /ops/queues/:queue [requireSession]',
      'GET /reports [] requireSession lets through every request outside paths starting with /ops/',
    ]);
  });

  it("a check under a test that the path holds a text (a regular expression, in any case) guards the routes whose path holds it before any parameter; an allowlist in its branch lets its paths through, a list filtered by a test not known statically each of its items (Flowise's global middleware)", async () => {
    const routes = `
app.get('/api/v1/chatflows', (req, res) => res.json([]));
app.get('/api/v1/chatflows/:id', (req, res) => res.json({ id: req.params.id }));
app.get('/api/v1/public-chatflows/:id', (req, res) => res.json({ id: req.params.id }));
app.get('/api/v1/ping', (req, res) => res.send('pong'));
app.get('/canvas', (req, res) => res.send('<html></html>'));
app.get('/:workspace/api/v1/reports', (req, res) => res.json([]));
`;
    const body = `const URL_CASE_INSENSITIVE_REGEX = /\\/api\\/v1\\//i;
  const URL_CASE_SENSITIVE_REGEX = /\\/api\\/v1\\//;
  const denylistURLs = process.env.DENYLIST_URLS ? process.env.DENYLIST_URLS.split(',') : [];
  const whitelistURLs = ['/api/v1/public-chatflows', '/api/v1/ping', '/api/v1/chatflows/apikey/'].filter((url) => !denylistURLs.includes(url));
  if (URL_CASE_INSENSITIVE_REGEX.test(req.path)) {
    if (URL_CASE_SENSITIVE_REGEX.test(req.path)) {
      const isWhitelisted = whitelistURLs.some((url) => req.path.startsWith(url));
      if (isWhitelisted) {
        next();
      } else {
        ${check}
        next();
      }
    } else {
      return res.status(401).json({ error: 'Unauthorized Access' });
    }
  } else {
    next();
  }`;
    // the same, written with no else: the allowlist returns, the check falls through to next()
    const noElse = `const denylistURLs = (process.env.DENYLIST_URLS ?? '').split(',');
  const whitelistURLs = ['/api/v1/public-chatflows', '/api/v1/ping', '/api/v1/chatflows/apikey/'].filter((url) => !denylistURLs.includes(url));
  if (/\\/api\\/v1\\//i.test(req.path)) {
    if (whitelistURLs.some((url) => req.path.startsWith(url))) return next();
    ${check}
  }
  next();`;
    const outside = 'requireSession lets through every request outside paths holding /api/v1/ (in any case)';
    for (const written of [body, noElse])
      expect(await rows(app('requireSession', written, routes))).toEqual([
      `GET /:workspace/api/v1/reports [] ${outside}`,
      'GET /api/v1/chatflows [requireSession]',
      // `/api/v1/chatflows/apikey/` is one of its paths
      'GET /api/v1/chatflows/:id [] requireSession lets through paths starting with /api/v1/chatflows/apikey/',
      'GET /api/v1/ping [] requireSession lets through paths starting with /api/v1/ping',
      'GET /api/v1/public-chatflows/:id [] requireSession lets through paths starting with /api/v1/public-chatflows',
      `GET /canvas [] ${outside}`,
    ]);
  });

  it('a test of the URL, which holds the query string, guards a route only when no query string added escapes it: its start does, its end or the whole of it not', async () => {
    const routes = "app.get('/admin', (req, res) => res.json({}));\napp.get('/admin/users', (req, res) => res.json([]));\napp.get('/reports.json', (req, res) => res.json([]));";
    expect(await rows(app('requireSession', `if (req.originalUrl === '/admin' || req.originalUrl.startsWith('/admin/') || req.url.endsWith('.json')) {\n    ${check}\n  }\n  next();`, routes, {}, SENSITIVE))).toEqual([
      'GET /admin [] requireSession lets through every request outside paths starting with /admin/',
      'GET /admin/users [requireSession]',
      'GET /reports.json [] requireSession lets through every request outside paths starting with /admin/',
    ]);
  });

  it('a regular expression tested on the URL guards the routes it matches when it matches whatever follows the path too (`.*$` at its end, or no `$`); one ending at `$` a query string escapes', async () => {
    // (Hemmelig's Fastify hooks: `const adminRegex = /^\/api\/admin\/.*$/i; if (adminRegex.test(request.url) …)`)
    const routes = "app.get('/admin', (req, res) => res.json({}));\napp.get('/admin/users', (req, res) => res.json([]));\napp.get('/reports.json', (req, res) => res.json([]));";
    const body = `const adminRegex = /^\\/admin\\/.*$/;\n  if (adminRegex.test(req.originalUrl) || /^\\/reports\\.json$/.test(req.originalUrl)) {\n    ${check}\n  }\n  next();`;
    expect(await rows(app('requireSession', body, routes, {}, SENSITIVE))).toEqual([
      'GET /admin [] requireSession lets through every request outside paths starting with /admin/',
      'GET /admin/users [requireSession]',
      'GET /reports.json [] requireSession lets through every request outside paths starting with /admin/',
    ]);
    const whole = `if (/^\\/reports\\.json$/.test(req.originalUrl)) {\n    ${check}\n  }\n  next();`;
    expect(await rows(app('requireSession', whole, routes, {}, SENSITIVE))).toEqual([
      'GET /admin [] requireSession lets through every request, a query string added escaping the test of its URL',
      'GET /admin/users [] requireSession lets through every request, a query string added escaping the test of its URL',
      'GET /reports.json [] requireSession lets through every request, a query string added escaping the test of its URL',
    ]);
  });

  it('a test of something else besides (a setting, a header) leaves the check guarding every route; so does a test not read', async () => {
    const all = ['GET /admin [requireSession]', 'GET /admin/users [requireSession]', 'GET /administrators [requireSession]', 'GET /ops/queues/:queue [requireSession]', 'GET /reports [requireSession]'];
    for (const body of [
      `if (req.path.startsWith('/admin') || process.env.STRICT_AUTH) {\n    ${check}\n  }\n  next();`,
      `if (req.path.startsWith(adminPrefix())) {\n    ${check}\n  }\n  next();`,
    ])
      expect(await rows(app('requireSession', body, ADMIN_ROUTES))).toEqual(all);
  });

  it('a check under a test of the method guards only the routes of that method (a GET route is also requested with HEAD)', async () => {
    const csrf = "if (req.get('x-csrf-token') !== req.session?.csrfToken) return res.status(403).json({ error: 'bad csrf token' });";
    const routes = `
app.get('/api/sites', (req, res) => res.json([]));
app.post('/api/sites', (req, res) => res.status(201).json({}));
app.delete('/api/sites/:siteId', (req, res) => res.sendStatus(204));
app.all('/api/hooks', (req, res) => res.sendStatus(204));
`;
    expect(await rows(app('verifyCsrf', `if (req.method === 'POST' || req.method === 'DELETE') {\n    ${csrf}\n  }\n  next();`, routes))).toEqual([
      'ALL /api/hooks [] verifyCsrf lets through every request outside every POST request or every DELETE request',
      'GET /api/sites [] verifyCsrf lets through every request outside every POST request or every DELETE request',
      'POST /api/sites [verifyCsrf]',
      'DELETE /api/sites/:siteId [verifyCsrf]',
    ]);
    // handing on first every request but a GET or HEAD one to / (a redirect to the visitor's language)
    const home = `
app.get('/', (req, res) => res.send('home'));
app.post('/', (req, res) => res.sendStatus(204));
app.get('/reports', (req, res) => res.json([]));
`;
    expect(await rows(app('redirectHome', `if (req.path !== '/' || !['GET', 'HEAD'].includes(req.method)) return next();
  if (!req.session?.userId) return res.redirect(401, '/login');
  res.redirect(301, '/en/');`, home))).toEqual([
      // (the middleware answers GET and HEAD / itself: a route of its own, its 401 inline)
      'GET / [(inline 401 check)]',
      'GET / [redirectHome]',
      'POST / [] redirectHome lets through every request outside every GET request or every HEAD request',
      'GET /reports [] redirectHome lets through every request outside the path /',
    ]);
  });

  it('a function that hands a request on by ending, calling no next (a Fastify hook, a Next.js middleware), guards what its test holds for', async () => {
    const fastify = writeProject({
      'package.json': JSON.stringify({ name: 'f', dependencies: { fastify: '4.28.1' } }),
      'src/app.ts': `
import Fastify from 'fastify';

export const app = Fastify();
app.addHook('onRequest', async (request, reply) => {
  if (request.url.startsWith('/admin/')) {
    if (!request.session?.userId) return reply.code(401).send({ error: 'sign in' });
  }
});
app.get('/admin/users', async () => []);
app.get('/reports', async () => []);
`,
    });
    expect(await rows(fastify)).toEqual(['GET /admin/users [(inline middleware)]', 'GET /reports [] (inline middleware) lets through every request outside paths starting with /admin/']);
    const next = writeProject({
      'package.json': JSON.stringify({ name: 'n', dependencies: { next: '15.5.4' } }),
      'middleware.ts': `
import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';

export function middleware(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith('/api/admin/')) {
    const token = request.cookies.get('session')?.value;
    if (!token) return NextResponse.json({ error: 'sign in' }, { status: 401 });
  }
}
`,
      'app/api/admin/users/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
      'app/api/reports/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
    });
    expect(await rows(next)).toEqual(['GET /api/admin/users [middleware]', 'GET /api/reports [] middleware lets through every request outside paths starting with /api/admin/']);
  });

  it("a CORS middleware answering preflights (`if (req.method === 'OPTIONS') return res.status(200).json({})`) after setting headers, or only under tests of the origin (audiobookshelf's), answers no request of another method, and checks no one: no guard, nor a candidate", async () => {
    const routes = `
app.get('/api/sites', (req, res) => res.json([]));
app.post('/api/sites', (req, res) => res.status(201).json({ id: 'site_1' }));
app.options('/api/sites', (req, res) => res.sendStatus(204));
`;
    const letThrough = ['GET /api/sites []', 'OPTIONS /api/sites []', 'POST /api/sites []'];
    const canonical = [
      "res.header('Access-Control-Allow-Origin', '*');",
      "  res.header('Access-Control-Allow-Headers', 'Origin, X-Requested-With, Content-Type, Accept, Authorization');",
      "  if (req.method === 'OPTIONS') {",
      "    res.header('Access-Control-Allow-Methods', 'PUT, POST, PATCH, DELETE, GET');",
      '    return res.status(200).json({});',
      '  }',
      '  next();',
    ].join('\n');
    expect(await rows(app('allowCrossOrigin', canonical, routes))).toEqual(letThrough);
    const nested = [
      'const settings = { allowIframe: false, allowCors: process.env.ALLOW_CORS === "1" };',
      '  if (!settings.allowIframe) {',
      '    res.setHeader(\'Content-Security-Policy\', "frame-ancestors \'self\'");',
      '  }',
      "  res.setHeader('Referrer-Policy', 'no-referrer');",
      '  if (settings.allowCors || req.path.match(/\\/api\\/items\\/([a-z0-9-]{36})\\/(ebook|cover)/)) {',
      "    const allowedOrigins = ['capacitor://localhost', 'http://localhost'];",
      "    if (settings.allowCors || allowedOrigins.some((o) => o === req.get('origin'))) {",
      "      res.header('Access-Control-Allow-Origin', req.get('origin'));",
      "      res.header('Access-Control-Allow-Credentials', 'true');",
      "      if (req.method === 'OPTIONS') {",
      '        return res.sendStatus(200);',
      '      }',
      '    }',
      '  }',
      '  next();',
    ].join('\n');
    expect(await rows(app('allowCrossOrigin', nested, routes))).toEqual(letThrough);
  });

  it("what a middleware does once it has handed the request on (after `await next()`) refuses no route: its check before guards only what its test holds for (logto's device-flow shortcut)", async () => {
    const koa = writeProject({
      'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '2.15.3', '@koa/router': '13.1.0' } }),
      'src/middleware/koa-device-flow-shortcut.ts': `
import type { MiddlewareType } from 'koa';

const shorten = (uri: string): string => uri.replace('/oidc/device', '/device');

export default function koaDeviceFlowShortcut<StateT, ContextT extends { path: string; method: string; body?: unknown; search: string; cookies: { get: (name: string) => string | undefined }; redirect: (url: string) => void }, BodyT>(): MiddlewareType<StateT, ContextT, BodyT> {
  return async (ctx, next) => {
    if (ctx.path === '/device' && ctx.method === 'GET' && !ctx.cookies.get('_device_xsrf')) {
      ctx.redirect(\`/oidc/device\${ctx.search}\`);
      return;
    }

    await next();

    if (ctx.path === '/oidc/device/auth' && ctx.method === 'POST' && typeof ctx.body === 'object' && ctx.body !== null) {
      const body = ctx.body as { verification_uri: string };
      ctx.body = { ...body, verification_uri: shorten(body.verification_uri) };
    }
  };
}
`,
      'src/app.ts': `
import Router from '@koa/router';
import Koa from 'koa';
import koaDeviceFlowShortcut from './middleware/koa-device-flow-shortcut';

const router = new Router({ sensitive: true });
router.get('/device', (ctx) => { ctx.body = 'device sign-in'; });
router.get('/api/applications', (ctx) => { ctx.body = []; });

const app = new Koa();
app.use(koaDeviceFlowShortcut());
app.use(router.routes());
export default app;
`,
    });
    expect(await rows(koa)).toEqual([
      'GET /api/applications [] koaDeviceFlowShortcut lets through every request outside the path /device',
      // (a HEAD request, which the GET route answers too, escapes the test of the method)
      'GET /device [] koaDeviceFlowShortcut lets through every request outside every GET request',
    ]);
    // Express: a counter bumped after next()
    const body = "if (req.path.startsWith('/admin/') && !req.session?.userId) return res.sendStatus(401);\n  next();\n  servedRequests.inc({ path: req.path });";
    expect(await rows(app('requireSession', body, ADMIN_ROUTES, {}, `const servedRequests = { inc: (labels: object) => labels };\n${SENSITIVE}`))).toEqual([
      'GET /admin [] requireSession lets through every request outside paths starting with /admin/',
      'GET /admin/users [requireSession]',
      'GET /administrators [] requireSession lets through every request outside paths starting with /admin/',
      'GET /ops/queues/:queue [] requireSession lets through every request outside paths starting with /admin/',
      'GET /reports [] requireSession lets through every request outside paths starting with /admin/',
    ]);
  });

  it('below a mount path, the path tested is the one below it (Express); Hono and Koa read the same forms', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/app.ts': `
import express from 'express';

// (matching paths in the case written, as the test of the path does)
const v1 = express.Router({ caseSensitive: true });
v1.use((req, res, next) => {
  if (!req.path.startsWith('/sites')) return next();
  if (!req.session?.userId) return res.status(401).json({ error: 'sign in' });
  next();
});
v1.get('/sites', (req, res) => res.json([]));
v1.get('/status', (req, res) => res.json({ ok: true }));

export const app = express();
app.use('/api/v1', v1);
`,
    });
    expect(await rows(dir)).toEqual([
      'GET /api/v1/sites [(inline middleware)]',
      'GET /api/v1/status [] (inline middleware) lets through every request outside paths starting with /sites',
    ]);
    const hono = writeProject({
      'package.json': JSON.stringify({ name: 'h', dependencies: { hono: '4.6.0' } }),
      'src/app.ts': `
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';

const requireSession = createMiddleware(async (c, next) => {
  if (c.req.path.startsWith('/api/admin/')) {
    if (!c.get('session')) return c.json({ error: 'unauthorized' }, 401);
  }
  await next();
});

export const app = new Hono();
app.use('*', requireSession);
app.get('/api/admin/users', (c) => c.json([]));
app.get('/api/sites', (c) => c.json([]));
`,
    });
    expect(await rows(hono)).toEqual([
      'GET /api/admin/users [requireSession]',
      'GET /api/sites [] requireSession lets through every request outside paths starting with /api/admin/',
    ]);
    const koa = writeProject({
      'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '2.15.3', '@koa/router': '13.1.0' } }),
      'src/app.ts': `
import Router from '@koa/router';
import Koa from 'koa';

async function requireSession(ctx: Koa.Context, next: Koa.Next) {
  if (ctx.path.startsWith('/api/admin/') && !ctx.session?.userId) {
    ctx.status = 401;
    return;
  }
  await next();
}

const router = new Router();
router.get('/api/admin/users', (ctx) => { ctx.body = []; });
router.get('/api/sites', (ctx) => { ctx.body = []; });

const app = new Koa();
app.use(requireSession);
app.use(router.routes());
export default app;
`,
    });
    // (@koa/router matches paths in any case unless `sensitive`: `/API/admin/users` escapes the test)
    expect(await rows(koa)).toEqual([
      'GET /api/admin/users [] requireSession lets through every request outside paths starting with /api/admin/, in the case written (the route is matched in any case)',
      'GET /api/sites [] requireSession lets through every request outside paths starting with /api/admin/',
    ]);
    const koaSource = fs.readFileSync(path.join(koa, 'src/app.ts'), 'utf8');
    fs.writeFileSync(path.join(koa, 'src/app.ts'), koaSource.replace('new Router()', 'new Router({ sensitive: true })'));
    expect(await rows(koa)).toEqual([
      'GET /api/admin/users [requireSession]',
      'GET /api/sites [] requireSession lets through every request outside paths starting with /api/admin/',
    ]);
  });
});
