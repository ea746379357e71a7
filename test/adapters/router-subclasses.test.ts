/**
 * Classes extending a framework's router (`class SessionRouter extends Router`, `class
 * ProjectsApi extends Hono`): each `new` makes a router of its own, made with what the call
 * passes (through the constructor's `super(…)`, down every class in between), holding what the
 * class registers on `this` and then what is registered on the instance.
 */
import { describe, expect, it } from 'vitest';
import { check, cli } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

describe('classes extending a router', () => {
  it('Koa: each instance has the prefix its `new` passes, through two levels of classes, and the routes its class registers', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { koa: '^2.15.0', '@koa/router': '^13.0.0' } }),
        'src/auth.ts': `export async function requireSession(ctx: any, next: () => Promise<void>) {
  if (!ctx.session?.userId) ctx.throw(401, 'unauthenticated');
  await next();
}
`,
        'src/routers.ts': `import Router from '@koa/router';
import { requireSession } from './auth';

/** A router every request through which must be signed in. */
export class SessionRouter extends Router {
  constructor(prefix: string) {
    super({ prefix });
    this.use(requireSession);
    this.get('/whoami', (ctx) => {
      ctx.body = { user: ctx.session.userId };
    });
  }
}

export class TenantRouter extends SessionRouter {
  constructor(prefix: string) {
    super(\`\${prefix}/tenants/:tenantId\`);
    this.get('/', (ctx) => {
      ctx.body = { tenant: ctx.params.tenantId };
    });
  }
}

export class PlainRouter extends Router {}

/** No constructor of its own: \`new AdminRouter('/admin')\` passes '/admin' to SessionRouter's. */
export class AdminRouter extends SessionRouter {}
`,
        'src/app.ts': `import Koa from 'koa';
import { AdminRouter, PlainRouter, SessionRouter, TenantRouter } from './routers';

const app = new Koa();
const api = new SessionRouter('/api');
api.get('/projects', async (ctx) => {
  ctx.body = { items: [] };
});
const admin = new AdminRouter('/admin');
admin.get('/users', async (ctx) => {
  ctx.body = { items: [] };
});
const tenants = new TenantRouter('/v2');
const open = new PlainRouter({ prefix: '/public' });
open.get('/status', (ctx) => {
  ctx.body = { ok: true };
});
app.use(api.routes()).use(admin.routes()).use(tenants.routes()).use(open.routes());
`,
      }),
    );
    expect(lines(res)).toEqual([
      'GET /admin/users [requireSession] src/app.ts:10',
      'GET /admin/whoami [requireSession] src/routers.ts:9',
      'GET /api/projects [requireSession] src/app.ts:6',
      'GET /api/whoami [requireSession] src/routers.ts:9',
      // no constructor: the options go to the base's
      'GET /public/status [] src/app.ts:15',
      // `super(\`${prefix}/tenants/:tenantId\`)` of `new TenantRouter('/v2')`, then SessionRouter's `super({ prefix })`
      'GET /v2/tenants/:tenantId [requireSession] src/routers.ts:18',
      'GET /v2/tenants/:tenantId/whoami [requireSession] src/routers.ts:9',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('Hono: an app class registering in its constructor, mounted with route()', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { hono: '^4.6.0' } }),
        'src/app.ts': `import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';

const requireSession = createMiddleware(async (c, next) => {
  if (!c.get('session')) return c.json({ error: 'unauthenticated' }, 401);
  await next();
});

class ProjectsApi extends Hono {
  constructor() {
    super();
    this.use('*', requireSession);
    this.get('/', (c) => c.json({ items: [] }));
    this.post('/', (c) => c.json({ ok: true }, 201));
  }
}

class HealthApi extends Hono {
  constructor() {
    super({ strict: false });
    this.get('/health', (c) => c.json({ ok: true }));
  }
}

export const app = new Hono();
app.route('/api/projects', new ProjectsApi());
app.route('/', new HealthApi());
`,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/projects [requireSession] src/app.ts:13', 'POST /api/projects [requireSession] src/app.ts:14', 'GET /health [] src/app.ts:21']);
    // (`super({ strict: false })` of a sub-app: once mounted, the serving app's `strict` is the one that matches)
    expect(res.routes.map((r) => r.trailingSlashInsensitive)).toEqual([false, false, false]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a prefix the class makes from a value not known statically: its routes listed without it, and said so', async () => {
    const dir = writeProject({
        'package.json': JSON.stringify({ name: 'api', dependencies: { koa: '^2.15.0', '@koa/router': '^13.0.0', '@acme/schemas': '1.0.0' } }),
        'src/schema-router.ts': `import Router from '@koa/router';

export const tableToPathname = (tableName: string) => tableName.replaceAll('_', '-');

export class SchemaRouter extends Router {
  constructor(public readonly schema: { table: string }) {
    super({ prefix: '/' + tableToPathname(schema.table) });
    this.get('/', (ctx) => {
      ctx.body = [];
    });
    this.get('/:id', (ctx) => {
      ctx.body = {};
    });
    this.patch('/:id', (ctx) => {
      ctx.body = {};
    });
  }
}
`,
        'src/app.ts': `import Koa from 'koa';
import Router from '@koa/router';
import { Organizations } from '@acme/schemas';
import { SchemaRouter } from './schema-router';

const app = new Koa();
const api = new Router({ prefix: '/api' });
const organizations = new SchemaRouter(Organizations);
api.use(organizations.routes());
app.use(api.routes());
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /api [] src/schema-router.ts:8', 'GET /api/:id [] src/schema-router.ts:11', 'PATCH /api/:id [] src/schema-router.ts:14']);
    // a step of each route's prefixes says what is missing from its path; such a path is matched to
    // no contract route (GET /api/:id would serve GET /api/sites/) and no rule judges where it lies
    // (PATCH /api/:id would be under the contract's deployments)
    expect(res.routes.map((r) => r.prefixes.map((p) => p.unknown ?? p.prefix))).toEqual(Array(3).fill(['/api', '', 'template with a value not known statically']));
    expect(res.routes.map((r) => r.contractRoute)).toEqual([null, null, null]);
    expect(res.findings.filter((f) => f.ruleId === 'immutable-resource-mutation')).toEqual([]);
    expect(cli(['explain', 'PATCH /api/:id', '--no-color'], dir).stdout).toMatch(/prefixes\s+\/api\s+src\/app\.ts:7 .*\n\s+\(no path\)\s+src\/app\.ts:9 .*\n\s+\(not known statically: template with a value not known statically\)\s+src\/schema-router\.ts:5 /);
    expect(unresolvedRows(res)).toEqual([
      "src/schema-router.ts:5:35 warning unresolved-route router prefix not known statically (template with a value not known statically); the router's routes are listed without it",
    ]);
  });
});
