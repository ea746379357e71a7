/**
 * Routes a REST API builds from specs (GrowthBook's public API, `packages/back-end/src/api`):
 * each handler made by a curried factory, `createApiRequestHandler(spec)(handler)`, whose inner
 * function returns `{ method, path, handler }` read from the outer function's parameter; the
 * specs in a workspace package whose root `validators.js` only re-exports its build output
 * (`require('./dist/validators')`, not in the checkout) while `src/validators` holds the source;
 * the route objects gathered in one list of spreads and registered in a loop whose path is a
 * local built from the loop variable (`` `/${route.version ?? 'v1'}${route.path}` ``); what the
 * models' configs add to the list (`allRoutes.push(...routes)`) is not read, and a warning says so. Also
 * `??` and `||` (`a ?? b`: b when a is missing; `a || b`: b when a is falsy too), and a loop over
 * a list of 300 routes.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const HANDLER = `import type { NextFunction, Request, Response } from 'express';

export interface EndpointSpec {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  operationId: string;
  version?: string;
}

/** Wraps a typed handler: the spec says where it is served (api.router.ts registers it). */
export function createApiRequestHandler(spec: EndpointSpec) {
  const { method, path, operationId, version } = spec;
  return (handler: (req: Request) => Promise<unknown>) => {
    const wrappedHandler = async (req: Request, res: Response, next: NextFunction) => {
      try {
        const body = await handler(req);
        return res.status(200).json(body);
      } catch (e) {
        next(e);
      }
    };
    const route = { method, path, operationId, version, handler: wrappedHandler };
    return route;
  };
}
`;

const VALIDATORS = `export const listFeaturesValidator = { operationId: 'listFeatures', summary: 'All features', method: 'get' as const, path: '/features' };
export const getFeatureValidator = { operationId: 'getFeature', summary: 'One feature', method: 'get' as const, path: '/features/:id' };
export const postFeatureV2Validator = { operationId: 'postFeatureV2', method: 'post' as const, path: '/features', version: 'v2' };
`;

describe('routes made by a curried handler factory and registered in a loop', () => {
  it('GrowthBook: specs from a workspace package, a list of spreads, a versioned path built in the loop', async () => {
    const dir = writeProject({
      'packages/shared/package.json': JSON.stringify({ name: 'shared', private: true, main: 'dist/index.js', types: 'src/index.ts' }),
      'packages/shared/validators.js': `module.exports = require('./dist/validators');
`,
      'packages/shared/src/validators/index.ts': `export * from './features';
`,
      'packages/shared/src/validators/features.ts': VALIDATORS,
      'packages/back-end/package.json': EXPRESS_PACKAGE,
      'packages/back-end/src/util/handler.ts': HANDLER,
      'packages/back-end/src/middleware/api-key.ts': `import type { NextFunction, Request, Response } from 'express';

export function requireApiKey(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.authorization) return res.status(401).json({ error: 'missing API key' });
  next();
}
`,
      'packages/back-end/src/api/features/listFeatures.ts': `import { listFeaturesValidator } from 'shared/validators';
import { createApiRequestHandler } from '../../util/handler';

export const listFeatures = createApiRequestHandler(listFeaturesValidator)(async (req) => ({ features: [], cursor: req.query.cursor }));
`,
      'packages/back-end/src/api/features/getFeature.ts': `import { getFeatureValidator } from 'shared/validators';
import { createApiRequestHandler } from '../../util/handler';

export const getFeature = createApiRequestHandler(getFeatureValidator)(async (req) => {
  return { feature: { id: req.params.id } };
});
`,
      'packages/back-end/src/api/features/postFeatureV2.ts': `import { postFeatureV2Validator } from 'shared/validators';
import { createApiRequestHandler } from '../../util/handler';

export const postFeatureV2 = createApiRequestHandler(postFeatureV2Validator)(async (req) => ({ created: req.body }));
`,
      'packages/back-end/src/api/models.ts': `import type { EndpointSpec } from '../util/handler';

export const API_MODELS: { apiConfig?: { routes: (EndpointSpec & { handler: unknown })[] } }[] = [];
`,
      'packages/back-end/src/api/features/features.router.ts': `import { getFeature } from './getFeature';
import { listFeatures } from './listFeatures';

export const featureRoutes = [listFeatures, getFeature];
`,
      'packages/back-end/src/api/api.router.ts': `import { Router } from 'express';
import { requireApiKey } from '../middleware/api-key';
import { featureRoutes } from './features/features.router';
import { postFeatureV2 } from './features/postFeatureV2';
import { API_MODELS } from './models';

const router = Router();
router.use(requireApiKey);

export const allRoutes = [...featureRoutes, postFeatureV2];

// the routes each model's API config generates
API_MODELS.forEach((model) => {
  const apiConfig = model.apiConfig;
  if (!apiConfig) return;
  allRoutes.push(...apiConfig.routes);
});

allRoutes.forEach((route) => {
  // v1 routes live at /v1/..., v2 at /v2/...
  const version = (route as { version?: string }).version ?? 'v1';
  const versionedPath = \`/\${version}\${route.path}\`;
  router[route.method](versionedPath, route.handler);
});

export default router;
`,
      'packages/back-end/src/app.ts': `import express from 'express';
import apiRouter from './api/api.router';

const app = express();
app.use('/api', apiRouter);
app.listen(3100);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /api/v1/features [requireApiKey] packages/back-end/src/api/api.router.ts:23',
      'GET /api/v1/features/:id [requireApiKey] packages/back-end/src/api/api.router.ts:23',
      'POST /api/v2/features [requireApiKey] packages/back-end/src/api/api.router.ts:23',
    ]);
    // each named as its item is written in the list
    expect(res.routes.map((r) => r.handler)).toEqual(['listFeatures.handler', 'getFeature.handler', 'postFeatureV2.handler']);
    // what the models add to the list is not read: said once, where the loop registers
    expect(unresolvedRows(res)).toEqual([
      'packages/back-end/src/api/api.router.ts:23:3 warning unresolved-route the list this loop goes over is added to (allRoutes.push(...apiConfig.routes) at packages/back-end/src/api/api.router.ts:16); the routes of what is added are left out',
    ]);
  });

  it('?? and ||: the right value when the left is missing (and, for ||, falsy); not known when the left is not (a package value)', async () => {
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/app.ts': `import express from 'express';
import nconf from 'nconf';
const settings = { prefix: '', version: 'v3', legacyBase: undefined, mirror: null };
const prefix = settings.prefix || '/svc';
const version = settings.version ?? 'v1';

const app = express();
app.get(\`\${prefix}/\${version}/status\`, (req, res) => res.json({ ok: true }));
app.get(\`\${settings.legacyBase ?? '/legacy'}/status\`, (req, res) => res.json({ ok: true }));
app.get(\`\${settings.mirror ?? '/mirror'}/status\`, (req, res) => res.json({ ok: true }));
app.get(\`\${(settings as { docs?: string }).docs || '/docs'}/status\`, (req, res) => res.json({ ok: true }));
app.get(\`\${settings.prefix ?? '/kept'}/health\`, (req, res) => res.json({ ok: true }));
app.get(process.env.STATUS_PATH ?? '/status', (req, res) => res.json({ ok: true }));
app.get(nconf.get('status_path') || '/status', (req, res) => res.json({ ok: true }));
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'GET /docs/status [] src/app.ts:11',
      'GET /health [] src/app.ts:12',
      'GET /legacy/status [] src/app.ts:9',
      'GET /mirror/status [] src/app.ts:10',
      'GET /svc/v3/status [] src/app.ts:8',
    ]);
    expect(unresolvedRows(res)).toEqual([
      'src/app.ts:13:1 warning unresolved-route GET route with a path not known statically (process.env.STATUS_PATH ?? \'/status\'); it is left out',
      // a package's value may be missing when the code runs
      'src/app.ts:14:1 warning unresolved-route GET route with a path not known statically (nconf.get(\'status_path\') || \'/status\'); it is left out',
    ]);
  });

  it('a loop over a list of 300 routes registers each of them', async () => {
    const items = Array.from({ length: 300 }, (_, i) => `  { method: 'get', path: '/reports/r${i}', handler: showReport },`);
    const dir = writeProject({
      'package.json': EXPRESS_PACKAGE,
      'src/reports.ts': `import { Router, type Request, type Response } from 'express';

async function showReport(req: Request, res: Response) {
  res.json({ path: req.path });
}

const routes = [
${items.join('\n')}
] as const;

export const reports = Router();
for (const r of routes) reports[r.method](r.path, r.handler);

// another list added to: not the one the loop goes over
export const mounted: string[] = [];
mounted.push(...routes.map((r) => r.path));
`,
      'src/app.ts': `import express from 'express';
import { reports } from './reports';

const app = express();
app.use('/internal', reports);
app.listen(3000);
`,
    });
    const res = await check(dir);
    const paths = res.routes.map((r) => r.path);
    expect(paths).toHaveLength(300);
    expect(new Set(paths)).toEqual(new Set(Array.from({ length: 300 }, (_, i) => `/internal/reports/r${i}`)));
    expect(res.routes.every((r) => r.method === 'GET' && r.line === 311 && r.handler === 'showReport')).toBe(true);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
