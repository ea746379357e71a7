// Learned from a public Express server (Trilium Notes): its middlewares answer 401 through one
// shared helper handed the response, `reject(req, res, message)` writing
// `res.setHeader(…).status(401).send(message)` — for a session check, a header token's check, and
// a gate on the server's own state that never reads the request.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'helper-answered-401');
const ROUTES = 'src/routes/routes.ts';

describe('learned: a 401 answered by a helper handed the response', async () => {
  const res = await check(DIR);
  const details = (method: string, p: string): string[] =>
    res.routes.find((r) => r.method === method && r.path === p)!.guards.map((g) => `${g.name}:${g.kinds.join('+')} (${g.reason})`);

  it('lists every route', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      `GET /api/notes/:noteId ${ROUTES}:7`,
      `POST /api/sender/note ${ROUTES}:16`,
      `POST /api/setup/new-document ${ROUTES}:11`,
    ]);
  });

  it('reads the 401 the helper answers as the middleware’s own', () => {
    expect(details('GET', '/api/notes/:noteId')).toEqual(['auth.checkApiAuth:auth (by name (auth); by behaviour (ends the request with 401, answered by reject()))']);
    expect(details('POST', '/api/sender/note')).toEqual([
      'auth.checkEtapiToken:auth+bearer (by behaviour (ends the request with 401, answered by reject(); reads its credential from a request header only))',
    ]);
  });

  it('leaves out a gate on the server’s state that hands its request only to the helper', () => {
    expect(details('POST', '/api/setup/new-document')).toEqual([]);
  });

  it('reports the header-token write neither unauthenticated nor open to CSRF', () => {
    expect(findingLines(res).filter((l) => l.startsWith(ROUTES) && /missing-(auth|csrf)-guard/.test(l))).toEqual([
      `${ROUTES}:11 missing-auth-guard POST /api/setup/new-document has no auth guard`,
      `${ROUTES}:11 missing-csrf-guard POST /api/setup/new-document changes state on the browser session without a CSRF guard`,
    ]);
  });
});
