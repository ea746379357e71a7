/**
 * Fastify hooks added by a plugin that is loaded only under a condition not decided statically
 * (`if (config.authEnabled) app.register(sessionAuth)`, or a set-up function called so): such a
 * hook guards the routes declared under the same condition, and is only a conditional guard
 * (`when`) of the others — the server may run without it. Before, the register's condition was
 * read for the register call alone and its plugin's hooks were taken to run for every route.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const PACKAGE = JSON.stringify({ name: 'control-plane', dependencies: { fastify: '^4.28.0', 'fastify-plugin': '^4.5.1' } });

const CONFIG = `export const config = {
  authEnabled: process.env.AUTH_ENABLED === 'true',
  auditLog: process.env.AUDIT_LOG,
  demoMode: false,
};
`;

const SESSION_AUTH = `import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Rejects requests without a signed-in session (401). */
export const sessionAuth = fp(async (fastify: FastifyInstance) => {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.session?.userId) {
      return reply.code(401).send({ error: 'not signed in' });
    }
  });
});

/** The same check as a set-up function called with the instance. */
export function setupSessionAuth(fastify: FastifyInstance) {
  fastify.addHook('preHandler', async (request, reply) => {
    if (!request.session?.userId) {
      return reply.code(401).send({ error: 'not signed in' });
    }
  });
}
`;

const SERVER = `import Fastify from 'fastify';
import { config } from './config';
import { sessionAuth, setupSessionAuth } from './plugins/session-auth';
import { listProjects, listMembers } from './services/projects';

export const app = Fastify({ logger: true });

// loaded only when auth is enabled: its hook may not run for /api/projects
if (config.authEnabled) app.register(sessionAuth);

app.get('/api/projects', async (request) => listProjects(request.query));

app.register(
  async (teams) => {
    // the same plugin, loaded under a condition known to fail: never loaded
    if (config.demoMode) teams.register(sessionAuth);
    teams.get('/', async () => ({ items: [] }));
  },
  { prefix: '/api/teams' },
);

app.register(
  async (members) => {
    // a set-up function called under a condition not known statically
    if (config.auditLog) setupSessionAuth(members);
    members.get('/', async (request) => listMembers(request.query));
  },
  { prefix: '/api/members' },
);

// loaded and declared under the same condition: the hook guards its routes
if (config.authEnabled) {
  app.register(async (admin) => {
    admin.register(sessionAuth);
    admin.get('/api/admin/tenants', async () => ({ items: [] }));
  });
}

// loaded without a condition: guards every route of its context
app.register(async (billing) => {
  billing.register(sessionAuth);
  billing.get('/api/billing/invoices', async () => ({ items: [] }));
});
`;

const SERVICES = `export async function listProjects(query: unknown) {
  return { items: [], query };
}

export async function listMembers(query: unknown) {
  return { items: [], query };
}
`;

/** `METHOD /path [guard@line, …] [guard@line when condition, …]`: each route's guards, then its conditional ones. */
function guardLines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => {
    const guards = r.guards.map((g) => `${g.name}@${g.line}`).join(', ');
    const conditional = (r.conditionalGuards ?? []).map((g) => `${g.name}@${g.line} when ${g.when}`).join(', ');
    return `${r.method} ${r.path} [${guards}] [${conditional}]`;
  });
}

describe('Fastify: hooks of a plugin loaded under a condition', () => {
  it('guard only the routes declared under the same condition, and are conditional guards of the others', async () => {
    const dir = writeProject({
      'package.json': PACKAGE,
      'src/config.ts': CONFIG,
      'src/plugins/session-auth.ts': SESSION_AUTH,
      'src/services/projects.ts': SERVICES,
      'src/server.ts': SERVER,
    });
    const res = await check(dir);
    expect(guardLines(res)).toEqual([
      // (the root's conditional hook again, loaded here without the condition or under another `if`)
      'GET /api/admin/tenants [(inline middleware)@6] []',
      'GET /api/billing/invoices [(inline middleware)@6] []',
      // contexts made after the root's conditional load inherit its hook, conditionally
      'GET /api/members [] [(inline middleware)@6 when config.authEnabled, (inline middleware)@15 when config.auditLog]',
      'GET /api/projects [] [(inline middleware)@6 when config.authEnabled]',
      'GET /api/teams [] [(inline middleware)@6 when config.authEnabled]',
    ]);
    const missingAuth = res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.route!.method} ${f.route!.path}`).sort();
    expect(missingAuth).toEqual(['GET /api/members', 'GET /api/projects', 'GET /api/teams']);
  });

  it("a plugin's own test of the options it is registered with (supabase storage's `if (opts.enforceJwtRoles) fastify.register(enforceJwtRole)`): read with those options, through a helper's parameter too", async () => {
    const dir = writeProject({
      'package.json': PACKAGE,
      'src/plugins/auth.ts': `import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Refuses a request without the service's bearer token (401). */
const requireToken = fp(async (fastify: FastifyInstance) => {
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== \`Bearer \${process.env.SERVICE_KEY}\`) {
      return reply.code(401).send({ error: 'unauthorized' });
    }
  });
});

/** Adds the check only when asked to. */
const authPlugin = fp(async (fastify: FastifyInstance, opts: { enforce?: boolean }) => {
  if (opts.enforce) {
    fastify.register(requireToken);
  }
});

export function registerAuth(fastify: FastifyInstance, opts: { enforce?: boolean } = {}) {
  fastify.register(authPlugin, opts);
}
`,
      'src/server.ts': `import Fastify from 'fastify';
import { registerAuth } from './plugins/auth';

export const app = Fastify();

app.register(async (objects) => {
  registerAuth(objects);
  objects.get('/', async () => ({ items: [] }));
}, { prefix: '/object' });

app.register(async (admin) => {
  registerAuth(admin, { enforce: true });
  admin.get('/', async () => ({ tenants: [] }));
}, { prefix: '/admin' });

app.register(async (vectors) => {
  registerAuth(vectors, { enforce: process.env.ENFORCE === '1' });
  vectors.get('/', async () => ({ items: [] }));
}, { prefix: '/vector' });
`,
    });
    const res = await check(dir);
    expect(guardLines(res)).toEqual([
      'GET /admin [(inline middleware)@6] []',
      'GET /object [] []',
      // (as written in the plugin: the options' value is not known statically)
      'GET /vector [] [(inline middleware)@6 when opts.enforce]',
    ]);
  });

  it("an app a factory makes at several calls (supabase storage's admin app: `if (opts.exposeDocs)`) keeps what one call's options rule out and another's may not", async () => {
    const dir = writeProject({
      'package.json': PACKAGE,
      'src/app.ts': `import Fastify from 'fastify';

export const build = (opts: { exposeDocs?: boolean } = {}) => {
  const app = Fastify();
  if (opts.exposeDocs) app.get('/documentation/json', async () => ({ openapi: '3.0.0' }));
  app.get('/status', async () => 'ok');
  return app;
};
`,
      'src/worker.ts': `import { build } from './app';

build({}).listen({ port: 5001 });
`,
      'src/server.ts': `import { build } from './app';

build({ exposeDocs: process.env.EXPOSE_DOCS === 'true' }).listen({ port: 5000 });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /documentation/json', 'GET /status']);
  });
});
