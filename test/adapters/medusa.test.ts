/**
 * Medusa v2: fixtures/medusa, a control plane whose routes are files under src/api. Expectations
 * derived by hand from @medusajs/framework 2.0 (ApiRoutesLoader in src/http/router.ts: the route
 * files, `parseRoute`, `AUTHENTICATE`, `applyRouteSpecificMiddlewares` then `registerMiddlewares`,
 * each `router.use(matcher, …)` or `router[method](matcher, …)`; `authenticate` in
 * http/middlewares/authenticate-middleware.ts) and Medusa's docs on protected routes.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeLinesAt, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

const DIR = path.join(ROOT, 'fixtures', 'medusa');

const PACKAGE = JSON.stringify({ name: 'store', dependencies: { '@medusajs/framework': '2.0.1', '@medusajs/medusa': '2.0.1' } });

const HANDLER = (method: string) => `import type { MedusaRequest, MedusaResponse } from '@medusajs/framework/http';

export async function ${method}(req: MedusaRequest, res: MedusaResponse) {
  res.json({ ok: true });
}
`;

describe('Medusa', () => {
  it("lists each route file's exported methods at its folders' path, behind the admin routes' own authentication, the middlewares config in its order and Medusa's own customer check", async () => {
    const res = await check(DIR);
    const A = ['authenticate'];
    expect(routeRows(res.routes)).toEqual([
      // AUTHENTICATE = false: Medusa's admin authentication is not applied
      row('POST /admin/invites/accept', 'browser', 'src/api/admin/invites/accept/route.ts:4:1'),
      row('GET /admin/sites', 'browser', 'src/api/admin/sites/route.ts:5:1', { auth: ["authenticate('user', ['bearer', 'session', 'api-key'])"] }),
      row('GET /api/auth/me', 'contract', 'src/api/api/auth/me/route.ts:3:1', { auth: A }, 'GET /api/auth/me/'),
      // a regular expression matcher, tried on the path
      row('GET /api/databases', 'contract', 'src/api/api/databases/route.ts:5:1', { auth: A, tenant: ['requireTenant'] }, 'GET /api/databases/'),
      // `allowUnauthenticated: true` lets anonymous requests through
      row('GET /api/deployments', 'contract', 'src/api/api/deployments/route.ts:4:1', {}, 'GET /api/deployments/'),
      row('GET /api/health/ready', 'public', 'src/api/api/health/ready/route.ts:4:1', {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', 'src/api/api/sites/route.ts:5:1', { auth: A, tenant: ['requireTenant'] }, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', 'src/api/api/sites/route.ts:10:1', { auth: A, tenant: ['requireTenant'], csrf: ['verifyCsrf'] }),
      row('DELETE /api/sites/:siteId', 'browser', 'src/api/api/sites/[siteId]/route.ts:8:1', { auth: A, tenant: ['requireTenant', 'requireSiteMember'], csrf: ['verifyCsrf'] }),
      row('GET /api/sites/:siteId', 'browser', 'src/api/api/sites/[siteId]/route.ts:4:1', { auth: A, tenant: ['requireTenant', 'requireSiteMember'] }),
      // the CSRF check is registered for DELETE only
      row('POST /api/sites/:siteId', 'browser', 'src/api/api/sites/[siteId]/route.ts:14:1', { auth: A, tenant: ['requireTenant', 'requireSiteMember'] }),
      // a matcher without a method is a `router.use`: it runs below its path too
      row('GET /api/sites/:siteId/deployments', 'browser', 'src/api/api/sites/[siteId]/deployments/route.ts:6:1', { auth: A, tenant: ['requireTenant', 'requireSiteMember'] }),
      // an API key only: bearer
      row('POST /internal/cache/purge', 'excluded:internal', 'src/api/internal/cache/purge/route.ts:4:1', { auth: A, bearer: A }),
      row('GET /store/customers/me/sites', 'browser', 'src/api/store/customers/me/sites/route.ts:5:1', { auth: ["authenticate('customer', ['session', 'bearer'])"] }),
    ]);
    expect(res.routes.every((r) => r.framework === 'medusa' && r.app === '.' && r.trailingSlashInsensitive && !r.caseSensitive)).toBe(true);
    const remove = res.routes.find((r) => r.method === 'DELETE')!;
    expect(remove.guards.map((g) => `${g.name} ${g.mechanism} ${g.file}:${g.line}`)).toEqual([
      'authenticate router.use src/api/middlewares.ts:17',
      // (named, not called, in the config: located at its defineMiddlewares call)
      'requireTenant router.use src/api/middlewares.ts:8',
      'requireSiteMember router.use src/api/middlewares.ts:8',
      'verifyCsrf pass-through-route src/api/middlewares.ts:8',
    ]);
    expect(findingRows(res.findings)).toEqual([
      'src/api/admin/invites/accept/route.ts:4:1 error missing-auth-guard POST /admin/invites/accept has no auth guard',
      'src/api/admin/invites/accept/route.ts:4:1 error missing-csrf-guard POST /admin/invites/accept changes state on the browser session without a CSRF guard',
      'src/api/admin/invites/accept/route.ts:4:1 error missing-tenant-guard POST /admin/invites/accept has no tenant guard',
      'src/api/admin/invites/accept/route.ts:4:1 info uncontracted-route POST /admin/invites/accept is on the browser surface but not in the contract',
      'src/api/admin/sites/route.ts:5:1 error missing-tenant-guard GET /admin/sites has no tenant guard',
      'src/api/admin/sites/route.ts:5:1 info uncontracted-route GET /admin/sites is on the browser surface but not in the contract',
      'src/api/api/auth/me/route.ts:3:1 error missing-tenant-guard GET /api/auth/me has no tenant guard',
      'src/api/api/deployments/route.ts:4:1 error missing-auth-guard GET /api/deployments has no auth guard',
      'src/api/api/deployments/route.ts:4:1 error missing-tenant-guard GET /api/deployments has no tenant guard',
      'src/api/api/sites/[siteId]/deployments/route.ts:6:1 info uncontracted-route GET /api/sites/:siteId/deployments is on the browser surface but not in the contract',
      'src/api/api/sites/[siteId]/route.ts:4:1 info uncontracted-route GET /api/sites/:siteId is on the browser surface but not in the contract',
      'src/api/api/sites/[siteId]/route.ts:8:1 info uncontracted-route DELETE /api/sites/:siteId is on the browser surface but not in the contract',
      'src/api/api/sites/[siteId]/route.ts:14:1 error missing-csrf-guard POST /api/sites/:siteId changes state on the browser session without a CSRF guard',
      'src/api/api/sites/[siteId]/route.ts:14:1 info uncontracted-route POST /api/sites/:siteId is on the browser surface but not in the contract',
      'src/api/api/sites/route.ts:10:1 info uncontracted-route POST /api/sites is on the browser surface but not in the contract',
      'src/api/internal/cache/purge/route.ts:4:1 error excluded-family-leak POST /internal/cache/purge is in the excluded family "internal" and is reachable without its family guard (guarded only by authenticate)',
      'src/api/store/customers/me/sites/route.ts:5:1 error missing-tenant-guard GET /store/customers/me/sites has no tenant guard',
      'src/api/store/customers/me/sites/route.ts:5:1 info uncontracted-route GET /store/customers/me/sites is on the browser surface but not in the contract',
    ]);
  });

  it('paths as parseRoute writes them, `_` folders and files left out, only functions served, and an admin route file guarding the routes below its path', async () => {
    const res = await check(
      writeProject({
        'package.json': PACKAGE,
        'src/api/route.ts': HANDLER('GET'),
        'src/api/files/[...]/route.ts': HANDLER('GET'),
        'src/api/store/products/[id]/variants/[variant_id]/route.ts': HANDLER('POST'),
        'src/api/store/_internal/route.ts': HANDLER('GET'),
        'src/api/store/_route.ts': HANDLER('GET'),
        'src/api/store/regions/route.test.ts': HANDLER('GET'),
        'src/api/store/hello/route.ts': `${HANDLER('GET')}export const POST = 'not a handler';\nexport const CORS = false;\n`,
        // (its own authentication turned off, yet /admin/reports's runs for every path below it)
        'src/api/admin/reports/route.ts': HANDLER('GET'),
        'src/api/admin/reports/public/route.ts': `${HANDLER('GET')}export const AUTHENTICATE = false;\n`,
        'src/api/admin/other/route.ts': `${HANDLER('GET')}export const AUTHENTICATE = false;\n`,
        'src/api/admin/flagged/route.ts': `${HANDLER('GET')}export const AUTHENTICATE = process.env.OPEN === '1' ? false : true;\n`,
        // (not below src/api: no route)
        'src/routes/route.ts': HANDLER('GET'),
      }),
    );
    expect(routeLinesAt(res)).toEqual([
      'GET / [] src/api/route.ts:3',
      "GET /admin/flagged [] src/api/admin/flagged/route.ts:3",
      'GET /admin/other [] src/api/admin/other/route.ts:3',
      "GET /admin/reports [authenticate('user', ['bearer', 'session', 'api-key'])] src/api/admin/reports/route.ts:3",
      "GET /admin/reports/public [authenticate('user', ['bearer', 'session', 'api-key'])] src/api/admin/reports/public/route.ts:3",
      'GET /files/* [] src/api/files/[...]/route.ts:3',
      'GET /store/hello [] src/api/store/hello/route.ts:3',
      'POST /store/products/:id/variants/:variant_id [] src/api/store/products/[id]/variants/[variant_id]/route.ts:3',
    ]);
    // an AUTHENTICATE not known statically: the admin authentication applies only when it is not false
    const flagged = res.routes.find((r) => r.path === '/admin/flagged')!;
    expect(flagged.conditionalGuards?.map((g) => `${g.name} when ${g.when}`)).toEqual(["authenticate('user', ['bearer', 'session', 'api-key']) when AUTHENTICATE (exported, not known statically) is not false"]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('the middlewares config as a list or a plain object, `*` matchers, ALL (the whole path, any method), methods not known statically, and what cannot be read, said so', async () => {
    const project = (config: string) =>
      writeProject({
        'package.json': PACKAGE,
        'src/api/custom/route.ts': `${HANDLER('GET')}\nexport const POST = GET;\n`,
        'src/api/custom/deep/route.ts': HANDLER('GET'),
        'src/api/customer/route.ts': HANDLER('GET'),
        'src/api/guards.ts': `import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from '@medusajs/framework/http';

export function requireApiToken(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (req.headers['x-api-token'] !== process.env.API_TOKEN) return res.status(401).json({ message: 'Unauthorized' });
  next();
}
`,
        'src/api/middlewares.ts': config,
      });
    const lines = async (config: string) => {
      const res = await check(project(config));
      return [...routeLinesAt(res), ...unresolvedRows(res)];
    };
    const IMPORTS = `import { authenticate, defineMiddlewares } from '@medusajs/framework/http';
import { requireApiToken } from './guards';
`;
    // `/custom*`: /custom and all below (and /customer: Express 4's `*` is any characters)
    expect(await lines(`${IMPORTS}\nexport default defineMiddlewares([{ matcher: '/custom*', middlewares: [requireApiToken] }]);\n`)).toEqual([
      'GET /custom [requireApiToken] src/api/custom/route.ts:3',
      'POST /custom [requireApiToken] src/api/custom/route.ts:7',
      'GET /custom/deep [requireApiToken] src/api/custom/deep/route.ts:3',
      'GET /customer [] src/api/customer/route.ts:3',
    ]);
    // ALL: `router.all(matcher, …)`, every method of that path, none below it
    expect(await lines(`${IMPORTS}\nexport default { routes: [{ matcher: '/custom', method: 'ALL', middlewares: [authenticate('user', ['bearer'])] }] };\n`)).toEqual([
      'GET /custom [authenticate] src/api/custom/route.ts:3',
      'POST /custom [authenticate] src/api/custom/route.ts:7',
      'GET /custom/deep [] src/api/custom/deep/route.ts:3',
      'GET /customer [] src/api/customer/route.ts:3',
    ]);
    // a method list not known statically: a conditional guard; a matcher not known statically: said so
    const res = await check(
      project(`${IMPORTS}
const methods = JSON.parse(process.env.METHODS ?? '[]');
export default defineMiddlewares({
  routes: [
    { matcher: '/custom', method: methods, middlewares: [requireApiToken] },
    { matcher: process.env.PREFIX, middlewares: [requireApiToken] },
  ],
});
`),
    );
    expect(routeLinesAt(res)).toEqual(['GET /custom [] src/api/custom/route.ts:3', 'POST /custom [] src/api/custom/route.ts:7', 'GET /custom/deep [] src/api/custom/deep/route.ts:3', 'GET /customer [] src/api/customer/route.ts:3']);
    expect(res.routes[0]!.conditionalGuards?.map((g) => g.name)).toEqual(['requireApiToken']);
    expect(unresolvedRows(res)).toEqual([
      'src/api/middlewares.ts:5:16 warning unresolved-route the matcher of this middlewares route is not known statically (property PREFIX of a value not known statically); its middlewares are not taken to run',
    ]);
    // a configuration the code builds at run time: said so, and nothing taken to run
    const built = await check(project(`${IMPORTS}\nimport { load } from './load';\n\nexport default load(process.env.MIDDLEWARES);\n`));
    expect(routeLinesAt(built)).toEqual(['GET /custom [] src/api/custom/route.ts:3', 'POST /custom [] src/api/custom/route.ts:7', 'GET /custom/deep [] src/api/custom/deep/route.ts:3', 'GET /customer [] src/api/customer/route.ts:3']);
    expect(unresolvedRows(built)).toEqual([
      'src/api/middlewares.ts:1:1 warning unresolved-route the middlewares this file exports are not known statically (a call of something not known statically); no route is taken to run them',
    ]);
  });

  it("authenticate's options: allowUnauthenticated lets anonymous requests through, a list without 'session' is bearer auth; Medusa's own middlewares are not assumed where @medusajs/medusa is analysed", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: '@medusajs/medusa', dependencies: { '@medusajs/framework': '2.0.1' } }),
        'src/api/store/customers/me/route.ts': HANDLER('GET'),
        'src/api/store/carts/route.ts': HANDLER('POST'),
        'src/api/store/keys/route.ts': HANDLER('POST'),
        'src/api/middlewares.ts': `import { authenticate, defineMiddlewares } from '@medusajs/framework/http';

export default defineMiddlewares([
  { matcher: '/store/carts', middlewares: [authenticate('customer', ['session', 'bearer'], { allowUnauthenticated: true })] },
  { matcher: '/store/keys', middlewares: [authenticate('customer', 'bearer')] },
]);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} auth [${r.guards.filter((g) => g.kinds.includes('auth')).map((g) => g.name)}] bearer [${r.guards.filter((g) => g.kinds.includes('bearer')).map((g) => g.name)}]`)).toEqual([
      'POST /store/carts auth [] bearer []',
      'GET /store/customers/me auth [] bearer []',
      'POST /store/keys auth [authenticate] bearer [authenticate]',
    ]);
  });
});
