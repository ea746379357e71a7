// Learned from a public Express server (briefer): the middleware of the mount every workspace
// route is under refuses with 403 unless the workspace the URL names is a key of the session's
// map of the user's workspaces (`req.session.userWorkspaces[workspaceId] !== undefined`): a
// membership test, as `userWorkspaceIds.includes(workspaceId)` is.
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';
import { routeKindLines } from '../helpers/expect.js';

describe("learned: a tenant looked up in the session's map of memberships", () => {
  it('a key read by a tenant name, looked up in a map read by one and tested for undefined or with `in`, is a tenant check; a constant key, or a map of no tenant, is none', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.2', 'express-session': '^1.18.1', uuid: '^11.0.0' } }),
      'src/workspaces.ts': `import { Router } from 'express';
import { validate } from 'uuid';

const PLAN_LIMITS: Record<string, number> = { free: 3, pro: 30 };

export default function workspacesRouter() {
  const router = Router({ mergeParams: true });

  router.get('/', async (req, res) => {
    res.json(Object.keys(req.session.userWorkspaces));
  });

  router.use('/by-key/:orgId', (req, res, next) => {
    if (!(req.params.orgId in req.session.userOrganizations)) return res.status(404).json({ error: 'not found' });
    next();
  }, workspaceRouter());

  router.use('/default', (req, res, next) => {
    if (req.session.userWorkspaces['default'] === undefined) return res.status(403).end();
    next();
  }, workspaceRouter());

  router.use('/plans/:plan', (req, res, next) => {
    if (PLAN_LIMITS[req.params.plan] === undefined) return res.status(404).end();
    next();
  }, workspaceRouter());

  // (after the others: its parameter matches their first segments too)
  router.use(
    '/:workspaceId',
    async (req, res, next) => {
      const workspaceId = req.params['workspaceId']?.toString();
      if (!validate(workspaceId)) {
        res.status(404).end();
        return;
      }

      const isAuthorized = req.session.userWorkspaces[workspaceId] !== undefined;
      if (!isAuthorized) {
        res.status(403).end();
        return;
      }

      next();
    },
    workspaceRouter(),
  );

  return router;
}

function workspaceRouter() {
  const router = Router({ mergeParams: true });
  router.get('/documents', async (req, res) => {
    res.json([]);
  });
  return router;
}
`,
      'src/app.ts': `import express from 'express';
import session from 'express-session';
import workspacesRouter from './workspaces';

export const app = express();
app.use(session({ secret: process.env.SESSION_SECRET!, resave: false, saveUninitialized: false }));

function authenticationMiddleware(req, res, next) {
  if (!req.session.user) return res.status(401).end();
  next();
}

app.use('/v1/workspaces', authenticationMiddleware, workspacesRouter());
`,
    });
    const res = await check(dir);
    expect(routeKindLines(res)).toEqual([
      'GET /v1/workspaces/ [authenticationMiddleware:auth]',
      'GET /v1/workspaces/:workspaceId/documents [authenticationMiddleware:auth, (inline middleware):tenant]',
      'GET /v1/workspaces/by-key/:orgId/documents [authenticationMiddleware:auth, (inline middleware):tenant]',
      'GET /v1/workspaces/default/documents [authenticationMiddleware:auth, (inline middleware):unknown]',
      // (a value the URL names checked against a table, whoever asks: no candidate either)
      'GET /v1/workspaces/plans/:plan/documents [authenticationMiddleware:auth]',
    ]);
  });
});
