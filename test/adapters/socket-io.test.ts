/**
 * socket.io servers on an Express or Koa app's HTTP server (socket.io 4 / engine.io 6): engine.io
 * answers every request under its path before the app sees it — GET and POST (polling), GET only
 * when `transports` leaves polling out — behind the server's `io.use` middleware alone.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const lines = (res: Awaited<ReturnType<typeof check>>): string[] =>
  res.routes.map((r) => `${r.method} ${r.path} ${r.framework} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);

describe('socket.io servers attached to an app', () => {
  it("Express: new Server(http.createServer(app)) under /socket.io, behind its io.use middleware and none of the app's; io.attach(app.listen()) with its own path and websocket only; one on a port of its own is not listed", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'monitor', dependencies: { express: '^4.21.2', 'socket.io': '^4.8.1' } }),
      'src/socket-auth.js': `exports.authenticateSocket = function authenticateSocket(socket, next) {
  const token = socket.handshake.auth.token;
  if (!token) return next(new Error('unauthorized'));
  next();
};
`,
      'src/server.js': `const http = require('http');
const express = require('express');
const { Server } = require('socket.io');
const { authenticateSocket } = require('./socket-auth');

const app = express();
app.use(requireSession);
app.get('/api/monitors', (req, res) => res.json([]));
const server = http.createServer(app);
const io = new Server(server, { cors: { origin: process.env.ORIGIN } });
io.use(authenticateSocket);
io.on('connection', (socket) => socket.emit('hello'));
server.listen(3001);

function requireSession(req, res, next) {
  if (!req.session?.userId) return res.status(401).end();
  next();
}
`,
      'src/metrics.ts': `import express from 'express';
import { Server as IOServer } from 'socket.io';

const metrics = express();
const listening = metrics.listen(9100);
const live = new IOServer({ transports: ['websocket'], path: '/live/' });
live.attach(listening);
const elsewhere = new IOServer(9200);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/monitors express src/server.js:8 [requireSession:auth]',
      'GET /live/* express src/metrics.ts:7 []',
      'GET /socket.io/* express src/server.js:10 [authenticateSocket:auth]',
      'POST /socket.io/* express src/server.js:10 [authenticateSocket:auth]',
    ]);
  });

  it("Koa: require('socket.io')(http.createServer(app.callback()), { path }); an io.use middleware handing every connection on is no guard", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'wiki', dependencies: { koa: '^2.16.0', '@koa/router': '^13.1.0', 'socket.io': '^4.8.1' } }),
      'src/app.js': `const http = require('http');
const Koa = require('koa');
const Router = require('@koa/router');

const app = new Koa();
const router = new Router();
router.get('/pages', async (ctx) => { ctx.body = []; });
app.use(router.routes());
const server = http.createServer(app.callback());
const io = require('socket.io')(server, { path: '/realtime' });
io.use((socket, next) => next());
server.listen(3000);
`,
    });
    expect(lines(await check(dir))).toEqual(['GET /pages koa src/app.js:7 []', 'GET /realtime/* koa src/app.js:10 []', 'POST /realtime/* koa src/app.js:10 []']);
  });

  it('an io.use middleware refusing a connection with next(new Error(…)) for a reason its name and body do not say is a candidate', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'chat', dependencies: { express: '^4.21.2', 'socket.io': '^4.8.1' } }),
      'src/server.js': `const http = require('http');
const express = require('express');
const { Server } = require('socket.io');

const app = express();
const server = http.createServer(app);
const io = new Server(server);
io.use((socket, next) => {
  if (!socket.handshake.headers.cookie) return next(new Error('no cookie'));
  next();
});
server.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /socket.io/* express src/server.js:7 [(inline middleware):unknown]', 'POST /socket.io/* express src/server.js:7 [(inline middleware):unknown]']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual([
      'GET /socket.io/* has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)',
      'POST /socket.io/* has no auth guard (unclassified middleware that may be one: (inline middleware); declare it in guards.auth or guards.ignore)',
    ]);
  });

  it("one refusing with an error whose message says the connection is not authenticated (briefer's `next(new Error('Unauthorized'))`) is an auth guard", async () => {
    const server = (refusal: string): string => `import http from 'http';
import express from 'express';
import { Server } from 'socket.io';
import { sessionFromCookies } from './sessions';

const app = express();
const server = http.createServer(app);
const io = new Server(server);
io.use(async (socket, next) => {
  const session = await sessionFromCookies(socket.handshake.headers.cookie ?? '');
  if (session) {
    socket.data.session = session;
    next();
  } else {
    next(new Error(${refusal}));
  }
});
server.listen(3000);
`;
    const guards = async (refusal: string): Promise<string[]> =>
      lines(
        await check(
          writeProject({
            'package.json': JSON.stringify({ name: 'notebooks', dependencies: { express: '^4.21.2', 'socket.io': '^4.8.1' } }),
            'src/sessions.ts': 'export async function sessionFromCookies(cookies: string) {\n  return cookies.includes("sid=") ? { user: {} } : null;\n}\n',
            'src/server.ts': server(refusal),
          }),
        ),
      );
    expect(await guards("'Unauthorized'")).toEqual(['GET /socket.io/* express src/server.ts:8 [(inline middleware):auth]', 'POST /socket.io/* express src/server.ts:8 [(inline middleware):auth]']);
    expect(await guards("'not authenticated'")).toEqual(['GET /socket.io/* express src/server.ts:8 [(inline middleware):auth]', 'POST /socket.io/* express src/server.ts:8 [(inline middleware):auth]']);
    // (a message of something else: what it checks is not known)
    expect(await guards("'too many connections'")).toEqual(['GET /socket.io/* express src/server.ts:8 [(inline middleware):unknown]', 'POST /socket.io/* express src/server.ts:8 [(inline middleware):unknown]']);
  });

  it("Dockge's: a server class keeping the app, its HTTP or HTTPS server and a socket.io server made from the module's namespace in fields", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'stacks', dependencies: { express: '^4.21.2', 'socket.io': '^4.8.1' } }),
      'src/server.ts': `import express from 'express';
import fs from 'fs';
import http from 'http';
import https from 'https';
import * as socketIO from 'socket.io';

export class StacksServer {
  app: express.Express;
  httpServer: http.Server | https.Server;
  io: socketIO.Server;

  constructor(sslKey?: string, sslCert?: string) {
    this.app = express();
    if (sslKey && sslCert) {
      this.httpServer = https.createServer({ key: fs.readFileSync(sslKey), cert: fs.readFileSync(sslCert) }, this.app);
    } else {
      this.httpServer = http.createServer(this.app);
    }
    this.app.get('/robots.txt', (_req, res) => {
      res.type('text/plain').send('User-agent: *');
    });
    this.io = new socketIO.Server(this.httpServer, { cors: undefined });
  }
}

new StacksServer(process.env.SSL_KEY, process.env.SSL_CERT);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /robots.txt express src/server.ts:19 []', 'GET /socket.io/* express src/server.ts:22 []', 'POST /socket.io/* express src/server.ts:22 []']);
  });

  it("briefer's: a function making the socket.io server on the HTTP server it is handed, called with the app's", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'notebooks', dependencies: { express: '^4.21.2', 'socket.io': '^4.8.1' } }),
      'src/websocket/index.ts': `import http from 'http';
import { Server as BaseServer } from 'socket.io';

export type IOServer = BaseServer;

export async function createSocketServer(server: http.Server): Promise<{ io: IOServer; shutdown: () => Promise<void> }> {
  const io: IOServer = new BaseServer(server, { cors: { credentials: true, origin: process.env.FRONTEND_URL } });
  io.on('connection', (socket) => socket.emit('ready'));
  return { io, shutdown: async () => void io.close() };
}
`,
      'src/workers.ts': `import { createSocketServer } from './websocket/index';

// (a server of no app's: nothing is listed for it)
export async function startWorkerSockets(port: number) {
  return createSocketServer(port as never);
}
`,
      'src/index.ts': `import express from 'express';
import http from 'http';
import { createSocketServer } from './websocket/index';

async function main() {
  const app = express();
  const server = http.createServer(app);
  const socketServer = await createSocketServer(server);
  app.get('/livez', (_req, res) => {
    res.sendStatus(200);
  });
  server.listen(8080);
  process.on('SIGTERM', () => void socketServer.shutdown());
}

void main();
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /livez express src/index.ts:9 []', 'GET /socket.io/* express src/websocket/index.ts:7 []', 'POST /socket.io/* express src/websocket/index.ts:7 []']);
  });
});
