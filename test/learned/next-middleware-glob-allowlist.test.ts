// Learned from BoxyHQ's SAML Jackson (Next.js): its middleware lets through the API routes a
// list of globs names, `if (micromatch.isMatch(pathname, unAuthenticatedApiRoutes)) return
// NextResponse.next()`, checks a session under `/api/admin/**` and an API key under
// `/api/v1/**`, and refuses every other request — each refusal `return
// sendUnauthorizedResponse(…)`, a helper making the 401 response it returns. The middleware was
// read as no guard at all (its 401s are the helper's), 102 routes without an auth guard; with
// the helper read, the globs were not, and the routes they let through would have been guarded.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'next-middleware-glob-allowlist');
const AUTH = 'middleware:auth:next-middleware:middleware.ts:10';

describe('learned: a Next.js middleware refusing through a helper, its allowlist globs', async () => {
  const res = await check(DIR);

  it('takes the 401 the helper makes, and returned, as the middleware’s refusal', () => {
    expect(guardLines(res, 'ALL', '/api/admin/connections')).toEqual([AUTH]);
    expect(guardLines(res, 'ALL', '/api/v1/sso')).toEqual([AUTH]);
    expect(guardLines(res, 'ALL', '/api/import-hack')).toEqual([AUTH]);
    expect(res.routes.find((r) => r.path === '/api/admin/connections')!.guards[0]!.reason).toBe('by behaviour (ends the request with 401, answered by sendUnauthorizedResponse())');
  });

  it('reads the globs: a path written out, and every path below one followed by /**', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'pages/api/auth/session.ts:3 ALL /api/auth/session has no auth guard (middleware is one, but lets through untouched paths starting with /api/auth/: middleware.ts:10)',
      'pages/api/health.ts:3 ALL /api/health has no auth guard (middleware is one, but lets through untouched the path /api/health: middleware.ts:10)',
      'pages/api/setup/[token]/index.ts:3 ALL /api/setup/:token has no auth guard (middleware is one, but lets through untouched paths starting with /api/setup/: middleware.ts:10)',
    ]);
  });

  it("minimatch's and picomatch's matches too, and a glob it does not work out leaves the guard a candidate", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'portal', dependencies: { express: '4.21.2', minimatch: '10.0.1', picomatch: '4.0.2' } }),
      'src/app.ts': `import express from 'express';
import { minimatch } from 'minimatch';
import { isMatch } from 'picomatch';

const app = express();
const api = express.Router();
const docs = express.Router();

api.use((req, res, next) => {
  if (minimatch(req.path, '/status') || minimatch(req.path, '/public/**')) return next();
  if (!req.headers.cookie?.includes('portal.sid=')) return res.status(401).json({ error: 'sign in' });
  next();
});
api.get('/status', (_req, res) => { res.json({ ok: true }); });
api.get('/status/', (_req, res) => { res.json({ ok: true }); });
api.get('/public', (_req, res) => { res.json([]); });
api.get('/public/terms', (_req, res) => { res.json({}); });
api.get('/projects', (_req, res) => { res.json([]); });

docs.use((req, res, next) => {
  if (isMatch(req.path, ['/guides/**', '/{faq,about}'])) return next();
  if (!req.headers.cookie?.includes('portal.sid=')) return res.status(401).json({ error: 'sign in' });
  next();
});
docs.get('/guides/start', (_req, res) => { res.json({}); });

app.use('/api', api);
app.use('/docs', docs);
app.listen(3000);
`,
    });
    const r = await check(dir);
    const kinds = (p: string): string => r.routes.find((x) => x.path === p)!.guards.map((g) => g.kinds.join(',')).join(' ');
    // (minimatch: /status and /status/; every path below /public/ — `/public/` among them, a
    // request Express routes to /public: some of its requests are let through)
    expect(['/api/status', '/api/status/', '/api/public', '/api/public/terms', '/api/projects', '/docs/guides/start'].map((p) => `${p} ${kinds(p)}`)).toEqual([
      '/api/status ',
      '/api/status/ ',
      '/api/public ',
      '/api/public/terms ',
      '/api/projects auth',
      '/docs/guides/start unknown',
    ]);
  });
});
