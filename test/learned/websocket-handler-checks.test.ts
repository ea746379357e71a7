// Learned from openpanel (a Fastify API): its live dashboard streams are @fastify/websocket routes
// (`fastify.get('/events/:projectId', { websocket: true }, controller.wsProjectEvents)`), whose
// handlers take `(socket, req)` — the socket first, the request second — and refuse a request
// without a session by closing the socket: `if (!userId) { socket.send('No active session');
// socket.close(); return; }`. The second parameter was taken for a `next` and the close for no
// ending, so the check was not read and the routes were reported without an auth guard. A close
// in a callback (an idle timer) refuses nothing; a handler that never closes checks nothing.
// A member check closing the socket is the handler's tenant check (openpanel's
// `/live/organization/:organizationId`), as a 403 would be.
// express-ws's `(ws, req, next)` handlers close the same way, on the app of
// `const { app } = expressWs(express())` (whose routes were not found at all before).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'websocket-handler-checks');

describe('learned: WebSocket handlers that close the socket on a request without a session', async () => {
  const res = await check(DIR);

  it('lists the WebSocket routes of the Fastify plugin and of the express-ws app', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /echo src/terminal/app.ts:20',
      'GET /live/events/:projectId src/live/router.ts:9',
      'GET /live/feed/:projectId src/live/router.ts:11',
      'GET /live/notifications/:projectId src/live/router.ts:10',
      'GET /live/organization/:organizationId src/live/router.ts:12',
      'GET /live/visitors/:projectId src/live/router.ts:8',
      'GET /terminal/:buildId src/terminal/app.ts:11',
    ]);
  });

  it('reads a close of the socket on no signed-in user as the handler\'s sign-in check', () => {
    expect(guardLines(res, 'GET', '/live/events/:projectId')).toEqual(['(inline signed-in check):auth:in-handler:src/live/controller.ts:24']);
    expect(guardLines(res, 'GET', '/live/feed/:projectId')).toEqual(['(inline signed-in check):auth:in-handler:src/live/controller.ts:51']);
    expect(guardLines(res, 'GET', '/terminal/:buildId')).toEqual(['(inline signed-in check):auth:in-handler:src/terminal/app.ts:12']);
  });

  it("reads a close of the socket when the user is no member of the organisation the URL names as the handler's tenant check", () => {
    expect(guardLines(res, 'GET', '/live/organization/:organizationId')).toEqual([
      '(inline signed-in check):auth:in-handler:src/live/controller.ts:62',
      '(inline tenant check):tenant:in-handler:src/live/controller.ts:68',
    ]);
    // (a project's members looked up: no tenant's)
    expect(guardLines(res, 'GET', '/live/events/:projectId')).toEqual(['(inline signed-in check):auth:in-handler:src/live/controller.ts:24']);
  });

  it('reports the streams that check nothing, a close in a callback included', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/live/router.ts:8 GET /live/visitors/:projectId has no auth guard',
      'src/live/router.ts:10 GET /live/notifications/:projectId has no auth guard',
      'src/terminal/app.ts:20 GET /echo has no auth guard',
    ]);
  });
});
