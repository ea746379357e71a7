// Learned from a public Fastify server (colanode): a hook refusing with 403 unless a membership
// row is found, looked up with a query builder's chain (Kysely, Knex, Drizzle) keyed by the
// tenant the URL names and the signed-in user, is a tenant check, as Prisma's `findFirst({ where })` is.
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

describe('learned: membership lookups through query builders', () => {
  it('Kysely, Knex and Drizzle chains keyed by the workspace and the signed-in user are tenant checks; one keyed by the workspace alone is none', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { fastify: '^5.2.0', 'fastify-plugin': '^5.0.1', kysely: '^0.27.0', knex: '^3.1.0', 'drizzle-orm': '^0.38.0' } }),
      'src/db.ts': `import { Kysely } from 'kysely';
import knex from 'knex';
import { drizzle } from 'drizzle-orm/node-postgres';
export const kdb = new Kysely<any>({ dialect: {} as any });
export const kx = knex({ client: 'pg' });
export const ddb = drizzle(process.env.DATABASE_URL!);
`,
      'src/schema.ts': `import { pgTable, text } from 'drizzle-orm/pg-core';
export const members = pgTable('workspace_members', { workspaceId: text('workspace_id'), userId: text('user_id') });
`,
      'src/hooks.ts': `import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { ddb, kdb, kx } from './db';
import { members } from './schema';

export async function signedIn(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) return reply.code(401).send({ error: 'sign in' });
}

export async function kyselyMember(request: FastifyRequest<{ Params: { workspaceId: string } }>, reply: FastifyReply) {
  const membership = await kdb.selectFrom('workspace_members').selectAll().where('workspace_id', '=', request.params.workspaceId).where('user_id', '=', request.user.id).executeTakeFirst();
  if (!membership) return reply.code(403).send({ error: 'not a member' });
}

export async function knexMember(request: FastifyRequest<{ Params: { workspaceId: string } }>, reply: FastifyReply) {
  const membership = await kx('workspace_members').where({ workspace_id: request.params.workspaceId, user_id: request.user.id }).first();
  if (!membership) return reply.code(403).send({ error: 'not a member' });
}

export async function drizzleMember(request: FastifyRequest<{ Params: { workspaceId: string } }>, reply: FastifyReply) {
  const [membership] = await ddb.select().from(members).where(and(eq(members.workspaceId, request.params.workspaceId), eq(members.userId, request.user.id)));
  if (!membership) return reply.code(403).send({ error: 'not a member' });
}

export async function boardExists(request: FastifyRequest<{ Params: { workspaceId: string } }>, reply: FastifyReply) {
  const found = await kdb.selectFrom('workspaces').selectAll().where('id', '=', request.params.workspaceId).executeTakeFirst();
  if (!found) return reply.code(404).send({ error: 'no such workspace' });
}
`,
      'src/app.ts': `import Fastify from 'fastify';
import { drizzleMember, knexMember, kyselyMember, signedIn, boardExists } from './hooks';

const app = Fastify();
app.addHook('onRequest', signedIn);
app.get('/workspaces/:workspaceId/pages', { preHandler: kyselyMember }, async () => []);
app.get('/workspaces/:workspaceId/files', { preHandler: knexMember }, async () => []);
app.get('/workspaces/:workspaceId/tasks', { preHandler: drizzleMember }, async () => []);
app.get('/workspaces/:workspaceId/summary', { preHandler: boardExists }, async () => ({}));
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      '/workspaces/:workspaceId/files [signedIn:auth, knexMember:tenant]',
      '/workspaces/:workspaceId/pages [signedIn:auth, kyselyMember:tenant]',
      '/workspaces/:workspaceId/summary [signedIn:auth, boardExists:unknown]',
      '/workspaces/:workspaceId/tasks [signedIn:auth, drizzleMember:tenant]',
    ]);
  });
});
