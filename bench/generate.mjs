#!/usr/bin/env node
/**
 * Deterministic generator of synthetic control-plane codebases for `npm run bench`.
 *
 * One repository, five server apps (Express, NestJS, Fastify, Hono, Koa), each split into
 * areas (billing, projects, …) of up to nine domains: eight browser-facing resources and one
 * excluded-family domain (internal, ops, webhooks, edge, compiler, provider-tokens), so about
 * 11 % of the routes are in excluded families. A domain is three files of about 190 lines:
 * its routes (router / controller / plugin / module), a plain service and a plain repository.
 * Prefixes are spread over several files (Express: app → api → v1 → area → domain router;
 * Fastify: server → api plugin → area plugin → domain plugin; Hono: app → area → domain;
 * Koa: api router → area router → domain router; Nest: global prefix + controller + method),
 * and guards are applied at every level the framework offers.
 *
 * The generator also returns (and writes to `expected-routes.json`) the true route list:
 * method, full path, file, line, framework and the names of the auth / tenant / csrf /
 * family guards that protect each route under the framework's own semantics.
 *
 *   node bench/generate.mjs --files 2000 --out /tmp/tree [--seed 1]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------
// Deterministic randomness

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// Names

const AREAS = [
  'billing', 'projects', 'identity', 'storage', 'compute', 'networking', 'observability', 'messaging',
  'commerce', 'support', 'analytics', 'catalog', 'content', 'scheduling', 'security', 'delivery',
];
const RESOURCES = [
  'invoices', 'credits', 'coupons', 'payments', 'subscriptions', 'quotas', 'budgets', 'receipts',
  'members', 'invites', 'roles', 'policies', 'teams', 'profiles', 'preferences', 'devices',
  'buckets', 'volumes', 'snapshots', 'backups', 'assets', 'folders', 'uploads', 'archives',
  'clusters', 'nodes', 'images', 'jobs', 'schedules', 'pipelines', 'builds', 'releases',
  'domains', 'certificates', 'gateways', 'firewalls', 'networks', 'addresses', 'routes', 'tunnels',
  'alerts', 'monitors', 'dashboards', 'incidents', 'traces', 'metrics', 'checks', 'runbooks',
  'channels', 'messages', 'threads', 'templates', 'campaigns', 'segments', 'audiences', 'notifications',
  'orders', 'carts', 'products', 'prices', 'tickets', 'comments', 'attachments', 'labels',
];
const FIELDS = [
  'name', 'description', 'status', 'region', 'plan', 'amount', 'currency', 'priority', 'owner',
  'label', 'size', 'kind', 'visibility', 'retention', 'version', 'notes', 'color', 'position',
];
/** Excluded families, the path segment they use and the guard that protects them. */
const FAMILIES = [
  { family: 'internal', segment: 'internal', guard: 'requireInternalToken', nest: 'InternalTokenGuard' },
  { family: 'ops', segment: 'ops', guard: 'requireStaff', nest: 'StaffGuard' },
  { family: 'webhook', segment: 'webhooks', guard: 'verifyWebhookSignature', nest: 'WebhookSignatureGuard' },
  { family: 'edge', segment: 'edge', guard: 'requireServiceToken', nest: 'ServiceTokenGuard' },
  { family: 'compiler', segment: 'compiler', guard: 'requireServiceToken', nest: 'ServiceTokenGuard' },
  { family: 'provider-token', segment: 'provider-tokens', guard: 'requireServiceToken', nest: 'ServiceTokenGuard' },
];
const FAMILY_RESOURCES = ['reindex-jobs', 'cache-entries', 'replays', 'sync-tasks', 'rotations', 'deliveries', 'rebuilds', 'purges'];

const pascal = (s) => s.replace(/(^|[-_])(\w)/g, (_, __, c) => c.toUpperCase());
const camel = (s) => {
  const p = pascal(s);
  return p[0].toLowerCase() + p.slice(1);
};
function singular(s) {
  if (s.endsWith('ies')) return s.slice(0, -3) + 'y';
  if (s.endsWith('sses') || s.endsWith('ches') || s.endsWith('shes')) return s.slice(0, -2);
  if (s.endsWith('s')) return s.slice(0, -1);
  return s;
}

/** A text file being written, with the line number of what is pushed next. */
class Out {
  constructor() {
    this.lines = [];
  }
  get next() {
    return this.lines.length + 1;
  }
  push(...ls) {
    for (const l of ls) for (const x of String(l).split('\n')) this.lines.push(x);
    return this;
  }
  text() {
    return this.lines.join('\n') + '\n';
  }
}

// ---------------------------------------------------------------------------
// Domain model shared by all frameworks

function makeDomain(rng, area, resource, index, familyOf) {
  const entity = pascal(singular(resource));
  const fields = [];
  const pool = [...FIELDS];
  const count = 4 + Math.floor(rng() * 4);
  for (let i = 0; i < count; i++) fields.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]);
  return {
    area,
    resource,
    index,
    entity,
    id: `${camel(singular(resource))}Id`,
    Service: `${pascal(resource)}Service`,
    service: `${camel(resource)}Service`,
    table: `${area.replace(/-/g, '_')}_${resource.replace(/-/g, '_')}`,
    fields,
    cached: rng() < 0.35,
    family: familyOf ?? null,
  };
}

/** The eight operations every domain serves (method, sub-path, name, mutating). */
function operations(d) {
  const E = d.entity;
  const P = pascal(d.resource);
  return [
    { method: 'GET', sub: '', name: `list${P}`, op: 'list', mutating: false },
    { method: 'POST', sub: '', name: `create${E}`, op: 'create', mutating: true },
    { method: 'GET', sub: `/:${d.id}`, name: `get${E}`, op: 'get', mutating: false },
    { method: 'PATCH', sub: `/:${d.id}`, name: `update${E}`, op: 'update', mutating: true },
    { method: 'DELETE', sub: `/:${d.id}`, name: `delete${E}`, op: 'remove', mutating: true },
    { method: 'GET', sub: `/:${d.id}/history`, name: `list${E}History`, op: 'history', mutating: false },
    { method: 'GET', sub: `/:${d.id}/notes`, name: `list${E}Notes`, op: 'notes', mutating: false },
    { method: 'POST', sub: `/:${d.id}/notes`, name: `add${E}Note`, op: 'addNote', mutating: true },
  ];
}

/** Service file: plain TypeScript (a class over a repository), about 190 lines. */
function serviceFile(d, lib, imports, decorator) {
  const o = new Out();
  const E = d.entity;
  const repo = `${camel(d.resource)}Repository`;
  o.push(`/**`, ` * ${E} service: business rules over the ${d.resource} repository.`, ` */`);
  for (const i of imports) o.push(i);
  o.push(`import * as ${repo} from './${d.resource}.repository';`, `import { NotFoundError, ConflictError, ValidationError } from '${lib}/errors';`, `import { db, type Db } from '${lib}/db';`);
  o.push(``, `export interface ${E} {`, `  id: string;`, `  tenantId: string;`);
  for (const f of d.fields) o.push(`  ${f}: string | null;`);
  o.push(`  createdAt: string;`, `  updatedAt: string;`, `}`, ``);
  o.push(`export interface ${E}Input {`);
  for (const f of d.fields) o.push(`  ${f}?: string | null;`);
  o.push(`}`, ``, `export interface Page<T> {`, `  items: T[];`, `  nextCursor: string | null;`, `}`, ``);
  o.push(`const MAX_PAGE = 200;`, `const FIELDS: (keyof ${E}Input)[] = [${d.fields.map((f) => `'${f}'`).join(', ')}];`, ``);
  o.push(`function clean(input: ${E}Input): ${E}Input {`, `  const out: ${E}Input = {};`, `  for (const key of FIELDS) {`, `    const value = input[key];`, `    if (value === undefined) continue;`, `    if (value !== null && typeof value !== 'string') throw new ValidationError(\`\${key} must be a string\`);`, `    out[key] = value === null ? null : value.trim();`, `  }`, `  return out;`, `}`, ``);
  if (decorator) o.push(decorator);
  o.push(`export class ${d.Service} {`);
  if (d.cached) o.push(`  private readonly cache = new Map<string, ${E}>();`, ``);
  o.push(`  constructor(private readonly store: Db = db) {}`, ``);
  o.push(`  /** Pages through the tenant's rows; the cursor is the last id of the previous page. */`, `  async list(tenantId: string, opts: { cursor?: string; limit?: number; q?: string }): Promise<Page<${E}>> {`, `    const limit = Math.min(Math.max(opts.limit ?? 50, 1), MAX_PAGE);`, `    const rows = await ${repo}.findMany(this.store, tenantId, { cursor: opts.cursor ?? null, limit: limit + 1, q: opts.q ?? null });`, `    const items = rows.slice(0, limit);`, `    return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };`, `  }`, ``);
  o.push(`  /** One row of the tenant, or NotFoundError. */`, `  async get(tenantId: string, id: string): Promise<${E}> {`);
  if (d.cached) o.push(`    const hit = this.cache.get(\`\${tenantId}:\${id}\`);`, `    if (hit) return hit;`);
  o.push(`    const row = await ${repo}.findOne(this.store, tenantId, id);`, `    if (!row) throw new NotFoundError('${singular(d.resource)}', id);`);
  if (d.cached) o.push(`    this.cache.set(\`\${tenantId}:\${id}\`, row);`);
  o.push(`    return row;`, `  }`, ``);
  o.push(`  /** Validates and inserts a row, recording who created it. */`, `  async create(tenantId: string, actor: string, input: ${E}Input): Promise<${E}> {`, `    const data = clean(input);`, `    if (!data.${d.fields[0]}) throw new ValidationError('${d.fields[0]} is required');`, `    const existing = await ${repo}.findBy${pascal(d.fields[0])}(this.store, tenantId, data.${d.fields[0]});`, `    if (existing) throw new ConflictError(\`a ${singular(d.resource)} with this ${d.fields[0]} exists\`);`, `    return this.store.transaction(async (tx) => {`, `      const row = await ${repo}.insert(tx, tenantId, data);`, `      await ${repo}.appendHistory(tx, tenantId, row.id, actor, 'created', data);`, `      return row;`, `    });`, `  }`, ``);
  o.push(`  /** Applies a partial update and records the change in the history table. */`, `  async update(tenantId: string, actor: string, id: string, input: ${E}Input): Promise<${E}> {`, `    const data = clean(input);`, `    if (Object.keys(data).length === 0) throw new ValidationError('nothing to update');`, `    await this.get(tenantId, id);`, `    const row = await this.store.transaction(async (tx) => {`, `      const updated = await ${repo}.update(tx, tenantId, id, data);`, `      await ${repo}.appendHistory(tx, tenantId, id, actor, 'updated', data);`, `      return updated;`, `    });`);
  if (d.cached) o.push(`    this.cache.delete(\`\${tenantId}:\${id}\`);`);
  o.push(`    return row;`, `  }`, ``);
  o.push(`  /** Soft-deletes a row and records who deleted it. */`, `  async remove(tenantId: string, actor: string, id: string): Promise<void> {`, `    await this.get(tenantId, id);`, `    await this.store.transaction(async (tx) => {`, `      await ${repo}.softDelete(tx, tenantId, id);`, `      await ${repo}.appendHistory(tx, tenantId, id, actor, 'deleted', {});`, `    });`);
  if (d.cached) o.push(`    this.cache.delete(\`\${tenantId}:\${id}\`);`);
  o.push(`  }`, ``);
  o.push(`  /** History entries of one row, newest first. */`, `  async history(tenantId: string, id: string, limit = 50) {`, `    await this.get(tenantId, id);`, `    const entries = await ${repo}.history(this.store, tenantId, id, Math.min(limit, MAX_PAGE));`, `    return entries.map((e) => ({ at: e.createdAt, actor: e.actor, action: e.action, changes: Object.keys(e.data ?? {}) }));`, `  }`, ``);
  o.push(`  /** Notes attached to one row. */`, `  async notes(tenantId: string, id: string) {`, `    await this.get(tenantId, id);`, `    return ${repo}.notes(this.store, tenantId, id);`, `  }`, ``);
  o.push(`  /** Adds a note written by \`actor\`. */`, `  async addNote(tenantId: string, actor: string, id: string, body: unknown) {`, `    if (typeof body !== 'string' || body.trim() === '') throw new ValidationError('note body is required');`, `    if (body.length > 4000) throw new ValidationError('note is too long');`, `    await this.get(tenantId, id);`, `    return ${repo}.insertNote(this.store, tenantId, id, actor, body.trim());`, `  }`);
  // Reporting helpers, the bulk of a real service.
  const extra = ['summarize', 'countByStatus', 'exportRows', 'staleSince', 'recentlyChanged', 'byOwner', 'weeklyDigest', 'retentionReport'];
  for (const x of extra) {
    o.push(``, `  async ${x}(tenantId: string, since?: string) {`, `    const rows = await ${repo}.findMany(this.store, tenantId, { cursor: null, limit: MAX_PAGE, q: null });`, `    const cutoff = since ? Date.parse(since) : Date.now() - 30 * 24 * 3600 * 1000;`, `    if (Number.isNaN(cutoff)) throw new ValidationError('since must be a date');`, `    const recent = rows.filter((r) => Date.parse(r.updatedAt) >= cutoff);`, `    const groups = new Map<string, number>();`, `    for (const r of recent) groups.set(String(r.${d.fields[1] ?? d.fields[0]} ?? 'none'), (groups.get(String(r.${d.fields[1] ?? d.fields[0]} ?? 'none')) ?? 0) + 1);`, `    return { total: recent.length, groups: Object.fromEntries(groups), generatedAt: new Date().toISOString() };`, `  }`);
  }
  o.push(`}`, ``, `export const ${d.service} = new ${d.Service}();`);
  return o;
}

/** Repository file: SQL and row mapping, about 190 lines. */
function repositoryFile(d, lib) {
  const o = new Out();
  const E = d.entity;
  const cols = ['id', 'tenant_id', ...d.fields, 'created_at', 'updated_at'];
  o.push(`/**`, ` * ${E} repository: SQL for the ${d.table} table.`, ` */`);
  o.push(`import type { Db, Tx } from '${lib}/db';`, `import type { ${E}, ${E}Input } from './${d.resource}.service';`, ``);
  o.push(`const COLUMNS = ${JSON.stringify(cols.join(', '))};`, ``);
  o.push(`interface Row {`);
  for (const c of cols) o.push(`  ${c}: string | null;`);
  o.push(`}`, ``);
  o.push(`function toEntity(row: Row): ${E} {`, `  return {`, `    id: String(row.id),`, `    tenantId: String(row.tenant_id),`);
  for (const f of d.fields) o.push(`    ${f}: row.${f},`);
  o.push(`    createdAt: String(row.created_at),`, `    updatedAt: String(row.updated_at),`, `  };`, `}`, ``);
  o.push(`/** Rows of a tenant, ordered by id, after an optional cursor. */`, `export async function findMany(db: Db, tenantId: string, opts: { cursor: string | null; limit: number; q: string | null }): Promise<${E}[]> {`, `  const params: unknown[] = [tenantId];`, `  let sql = \`SELECT \${COLUMNS} FROM ${d.table} WHERE tenant_id = $1 AND deleted_at IS NULL\`;`, `  if (opts.cursor) {`, `    params.push(opts.cursor);`, `    sql += \` AND id > $\${params.length}\`;`, `  }`, `  if (opts.q) {`, `    params.push(\`%\${opts.q}%\`);`, `    sql += \` AND ${d.fields[0]} ILIKE $\${params.length}\`;`, `  }`, `  params.push(opts.limit);`, `  sql += \` ORDER BY id LIMIT $\${params.length}\`;`, `  const result = await db.query<Row>(sql, params);`, `  return result.rows.map(toEntity);`, `}`, ``);
  o.push(`/** One live row of a tenant. */`, `export async function findOne(db: Db, tenantId: string, id: string): Promise<${E} | null> {`, `  const result = await db.query<Row>(\`SELECT \${COLUMNS} FROM ${d.table} WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL\`, [tenantId, id]);`, `  return result.rows[0] ? toEntity(result.rows[0]) : null;`, `}`, ``);
  o.push(`/** The live row with this value, used for uniqueness checks. */`, `export async function findBy${pascal(d.fields[0])}(db: Db, tenantId: string, value: string): Promise<${E} | null> {`, `  const result = await db.query<Row>(\`SELECT \${COLUMNS} FROM ${d.table} WHERE tenant_id = $1 AND ${d.fields[0]} = $2 AND deleted_at IS NULL\`, [tenantId, value]);`, `  return result.rows[0] ? toEntity(result.rows[0]) : null;`, `}`, ``);
  o.push(`/** Inserts a row and returns it. */`, `export async function insert(tx: Tx, tenantId: string, data: ${E}Input): Promise<${E}> {`, `  const keys = Object.keys(data) as (keyof ${E}Input)[];`, `  const values = keys.map((k) => data[k] ?? null);`, `  const placeholders = keys.map((_, i) => \`$\${i + 2}\`).join(', ');`, `  const result = await tx.query<Row>(`, `    \`INSERT INTO ${d.table} (tenant_id\${keys.length ? ', ' + keys.join(', ') : ''}) VALUES ($1\${keys.length ? ', ' + placeholders : ''}) RETURNING \${COLUMNS}\`,`, `    [tenantId, ...values],`, `  );`, `  return toEntity(result.rows[0]!);`, `}`, ``);
  o.push(`/** Updates the given columns of a row and returns it. */`, `export async function update(tx: Tx, tenantId: string, id: string, data: ${E}Input): Promise<${E}> {`, `  const keys = Object.keys(data) as (keyof ${E}Input)[];`, `  const sets = keys.map((k, i) => \`\${k} = $\${i + 3}\`).join(', ');`, `  const result = await tx.query<Row>(`, `    \`UPDATE ${d.table} SET \${sets}, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING \${COLUMNS}\`,`, `    [tenantId, id, ...keys.map((k) => data[k] ?? null)],`, `  );`, `  return toEntity(result.rows[0]!);`, `}`, ``);
  o.push(`/** Marks a row deleted; it stays for the audit trail. */`, `export async function softDelete(tx: Tx, tenantId: string, id: string): Promise<void> {`, `  await tx.query(\`UPDATE ${d.table} SET deleted_at = now() WHERE tenant_id = $1 AND id = $2\`, [tenantId, id]);`, `}`, ``);
  o.push(`/** Appends an audit entry. */`, `export async function appendHistory(tx: Tx, tenantId: string, id: string, actor: string, action: string, data: object): Promise<void> {`, `  await tx.query(`, `    \`INSERT INTO ${d.table}_history (tenant_id, entity_id, actor, action, data) VALUES ($1, $2, $3, $4, $5)\`,`, `    [tenantId, id, actor, action, JSON.stringify(data)],`, `  );`, `}`, ``);
  o.push(`/** Audit entries of a row, newest first. */`, `export async function history(db: Db, tenantId: string, id: string, limit: number) {`, `  const result = await db.query<{ actor: string; action: string; data: Record<string, unknown> | null; created_at: string }>(`, `    \`SELECT actor, action, data, created_at FROM ${d.table}_history WHERE tenant_id = $1 AND entity_id = $2 ORDER BY created_at DESC LIMIT $3\`,`, `    [tenantId, id, limit],`, `  );`, `  return result.rows.map((r) => ({ actor: r.actor, action: r.action, data: r.data, createdAt: r.created_at }));`, `}`, ``);
  o.push(`/** Notes of a row, oldest first. */`, `export async function notes(db: Db, tenantId: string, id: string) {`, `  const result = await db.query<{ id: string; author: string; body: string; created_at: string }>(`, `    \`SELECT id, author, body, created_at FROM ${d.table}_notes WHERE tenant_id = $1 AND entity_id = $2 ORDER BY created_at\`,`, `    [tenantId, id],`, `  );`, `  return result.rows.map((r) => ({ id: r.id, author: r.author, body: r.body, createdAt: r.created_at }));`, `}`, ``);
  o.push(`/** Inserts a note and returns it. */`, `export async function insertNote(db: Db, tenantId: string, id: string, author: string, body: string) {`, `  const result = await db.query<{ id: string; created_at: string }>(`, `    \`INSERT INTO ${d.table}_notes (tenant_id, entity_id, author, body) VALUES ($1, $2, $3, $4) RETURNING id, created_at\`,`, `    [tenantId, id, author, body],`, `  );`, `  return { id: result.rows[0]!.id, author, body, createdAt: result.rows[0]!.created_at };`, `}`);
  // Maintenance queries.
  for (const [name, where] of [
    ['countActive', 'deleted_at IS NULL'],
    ['countDeleted', 'deleted_at IS NOT NULL'],
    ['countRecent', "updated_at > now() - interval '7 days'"],
    ['countStale', "updated_at < now() - interval '90 days'"],
    ['countToday', "created_at > date_trunc('day', now())"],
    ['countThisMonth', "created_at > date_trunc('month', now())"],
    ['countThisYear', "created_at > date_trunc('year', now())"],
  ]) {
    o.push(``, `export async function ${name}(db: Db, tenantId: string): Promise<number> {`, `  const result = await db.query<{ n: string }>(\`SELECT count(*) AS n FROM ${d.table} WHERE tenant_id = $1 AND ${where}\`, [tenantId]);`, `  return Number(result.rows[0]?.n ?? 0);`, `}`);
  }
  for (const f of d.fields) {
    o.push(``, `export async function distinct${pascal(f)}(db: Db, tenantId: string): Promise<string[]> {`, `  const result = await db.query<{ v: string | null }>(\`SELECT DISTINCT ${f} AS v FROM ${d.table} WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY 1\`, [tenantId]);`, `  return result.rows.map((r) => r.v).filter((v): v is string => v !== null);`, `}`);
  }
  return o;
}

/** Handler bodies shared by Express and Koa-style code (`req`/`res` or `ctx`). */
function handlerBody(d, op, style) {
  const svc = d.service;
  const who = style === 'koa' ? 'ctx.state.user.id' : style === 'hono' ? "c.get('user').id" : style === 'fastify' ? 'request.user.id' : 'req.user.id';
  const tenant = style === 'koa' ? 'ctx.state.tenant.id' : style === 'hono' ? "c.get('tenant').id" : style === 'fastify' ? 'request.tenant.id' : 'req.tenant.id';
  const param = style === 'koa' ? `ctx.params.${d.id}` : style === 'hono' ? `c.req.param('${d.id}')` : style === 'fastify' ? `(request.params as { ${d.id}: string }).${d.id}` : `req.params.${d.id}`;
  const query = style === 'koa' ? 'ctx.query' : style === 'hono' ? 'c.req.query()' : style === 'fastify' ? '(request.query as Record<string, string>)' : 'req.query';
  const body = style === 'koa' ? '(ctx.request.body as Record<string, unknown>)' : style === 'hono' ? 'await c.req.json()' : style === 'fastify' ? '(request.body as Record<string, unknown>)' : 'req.body';
  const send = (status, expr) =>
    style === 'koa' ? [`ctx.status = ${status};`, `ctx.body = ${expr};`] : style === 'hono' ? [`return c.json(${expr}, ${status});`] : style === 'fastify' ? [`return reply.code(${status}).send(${expr});`] : [`res.status(${status}).json(${expr});`];
  const lines = [];
  const input = `const input = pick${d.entity}Input(${body});`;
  switch (op.op) {
    case 'list':
      lines.push(`const q = ${query};`, `const page = await ${svc}.list(${tenant}, { cursor: typeof q.cursor === 'string' ? q.cursor : undefined, limit: q.limit ? Number(q.limit) : undefined, q: typeof q.q === 'string' ? q.q : undefined });`, ...send(200, `{ items: page.items.map(to${d.entity}View), nextCursor: page.nextCursor }`));
      break;
    case 'create':
      lines.push(input, `const created = await ${svc}.create(${tenant}, ${who}, input);`, ...send(201, `to${d.entity}View(created)`));
      break;
    case 'get':
      lines.push(`const item = await ${svc}.get(${tenant}, ${param});`, ...send(200, `to${d.entity}View(item)`));
      break;
    case 'update':
      lines.push(input, `const updated = await ${svc}.update(${tenant}, ${who}, ${param}, input);`, ...send(200, `to${d.entity}View(updated)`));
      break;
    case 'remove':
      lines.push(`await ${svc}.remove(${tenant}, ${who}, ${param});`, ...send(204, 'null'));
      break;
    case 'history':
      lines.push(`const entries = await ${svc}.history(${tenant}, ${param}, Number(${query}.limit ?? 50));`, ...send(200, '{ entries }'));
      break;
    case 'notes':
      lines.push(`const notes = await ${svc}.notes(${tenant}, ${param});`, ...send(200, '{ notes }'));
      break;
    case 'addNote':
      lines.push(`const note = await ${svc}.addNote(${tenant}, ${who}, ${param}, ${body}.body);`, ...send(201, 'note'));
      break;
  }
  return lines;
}

function viewHelpers(o, d) {
  o.push(`function to${d.entity}View(item: ${d.entity}) {`, `  return {`, `    id: item.id,`);
  for (const f of d.fields) o.push(`    ${f}: item.${f},`);
  o.push(`    createdAt: item.createdAt,`, `    updatedAt: item.updatedAt,`, `  };`, `}`, ``);
  o.push(`function pick${d.entity}Input(body: unknown): ${d.entity}Input {`, `  if (typeof body !== 'object' || body === null) throw new ValidationError('expected a JSON object');`, `  const src = body as Record<string, unknown>;`, `  const out: ${d.entity}Input = {};`);
  for (const f of d.fields) o.push(`  if ('${f}' in src) out.${f} = src.${f} === null ? null : String(src.${f});`);
  o.push(`  return out;`, `}`, ``);
  o.push(`function to${d.entity}Summary(item: ${d.entity}) {`, `  return { id: item.id, ${d.fields[0]}: item.${d.fields[0]}, updatedAt: item.updatedAt };`, `}`, ``);
  o.push(`/** Rejects ids that cannot be ours before they reach the database. */`, `export function assert${d.entity}Id(id: unknown): string {`, `  if (typeof id !== 'string' || !/^[a-z0-9_-]{6,40}$/i.test(id)) throw new ValidationError('invalid ${singular(d.resource)} id');`, `  return id;`, `}`, ``);
  o.push(`/** CSV export of a page (used by the dashboard's download button). */`, `export function ${camel(d.entity)}Csv(items: ${d.entity}[]): string {`, `  const header = ['id', ${d.fields.map((f) => `'${f}'`).join(', ')}, 'updatedAt'];`, `  const escape = (v: string | null) => (v === null ? '' : /[",\\n]/.test(v) ? \`"\${v.replace(/"/g, '""')}"\` : v);`, `  const rows = items.map((i) => [i.id, ${d.fields.map((f) => `i.${f}`).join(', ')}, i.updatedAt].map(escape).join(','));`, `  return [header.join(','), ...rows].join('\\n');`, `}`, ``);
  o.push(`/** Maps a thrown value to the status and body the API documents. */`, `export function describe${d.entity}Error(err: unknown): { status: number; body: { error: string } } {`, `  if (err instanceof ValidationError) return { status: 400, body: { error: err.message } };`, `  if (err instanceof Error && 'status' in err && typeof err.status === 'number') return { status: err.status, body: { error: err.message } };`, `  return { status: 500, body: { error: 'internal error' } };`, `}`, ``);
  o.push(`/** Keys the client may sort by. */`, `const SORT_KEYS = new Set([${['createdAt', 'updatedAt', ...d.fields.slice(0, 2)].map((f) => `'${f}'`).join(', ')}]);`, ``, `export function parse${d.entity}Sort(raw: unknown): { key: string; desc: boolean } {`, `  if (typeof raw !== 'string' || raw === '') return { key: 'createdAt', desc: true };`, `  const desc = raw.startsWith('-');`, `  const key = desc ? raw.slice(1) : raw;`, `  if (!SORT_KEYS.has(key)) throw new ValidationError(\`cannot sort by \${key}\`);`, `  return { key, desc };`, `}`, ``);
}

/** The doc comment written above a handler. */
function doc(o, d, op, indent = '') {
  const what = {
    list: `Lists the tenant's ${d.resource}, newest first, a page at a time (\`cursor\`, \`limit\` ≤ 200, \`q\` filters on ${d.fields[0]}).`,
    create: `Creates a ${singular(d.resource)} from the JSON body; ${d.fields[0]} is required and unique within the tenant.`,
    get: `Returns one ${singular(d.resource)} of the tenant.`,
    update: `Updates the given fields of a ${singular(d.resource)}; fields left out keep their value.`,
    remove: `Soft-deletes a ${singular(d.resource)}; it disappears from lists and lookups at once.`,
    history: `The audit trail of a ${singular(d.resource)}: who changed what, newest first.`,
    notes: `The notes attached to a ${singular(d.resource)}, oldest first.`,
    addNote: `Attaches a note (plain text, at most 4000 characters) to a ${singular(d.resource)}.`,
  }[op.op];
  const status = { list: 200, create: 201, get: 200, update: 200, remove: 204, history: 200, notes: 200, addNote: 201 }[op.op];
  o.push(`${indent}/**`, `${indent} * ${op.method} ${op.sub || '/'} — ${what}`, `${indent} *`, `${indent} * Responds ${status}${op.sub ? '; 404 when it does not exist in the tenant' : ''}; 400 on invalid input.`, `${indent} * Tenant and user come from the guards mounted above this router.`, `${indent} * @see docs/api/${d.area}.md#${d.resource}`, `${indent} */`);
}

// ---------------------------------------------------------------------------
// Express

function expressApp(ctx, budget) {
  const root = 'src/express';
  const w = ctx.writer;
  const routes = [];
  const areas = planAreas(ctx, budget - 10);
  // lib + middleware
  w(`${root}/lib/errors.ts`, errorsLib());
  w(`${root}/lib/db.ts`, dbLib());
  w(`${root}/middleware/session.ts`, expressSessionGuard());
  w(`${root}/middleware/tenant.ts`, expressTenantGuard());
  w(`${root}/middleware/csrf.ts`, expressCsrf());
  w(`${root}/middleware/roles.ts`, expressRoles());
  w(`${root}/middleware/family.ts`, expressFamilyGuards());
  // app.ts
  const app = new Out();
  app.push(`import express from 'express';`, `import session from 'express-session';`, `import helmet from 'helmet';`, `import { apiRouter } from './routes/api';`, `import { errorHandler } from './lib/errors';`, ``);
  app.push(`const app = express();`, `app.disable('x-powered-by');`, `app.use(helmet());`, `app.use(express.json({ limit: '1mb' }));`, `app.use(`, `  session({`, `    secret: process.env.SESSION_SECRET ?? 'dev-only',`, `    resave: false,`, `    saveUninitialized: false,`, `    cookie: { httpOnly: true, secure: true, sameSite: 'lax' },`, `  }),`, `);`, ``);
  routes.push(route('GET', '/api/health/ready', `${root}/app.ts`, app.next, 'express', {}));
  app.push(`app.get('/api/health/ready', (_req, res) => {`, `  res.json({ status: 'ready' });`, `});`, `app.use('/api', apiRouter);`, `app.use(errorHandler);`, ``, `export default app;`);
  w(`${root}/app.ts`, app);
  // api.ts → v1.ts
  const api = new Out();
  api.push(`import { Router } from 'express';`, `import { requireSession } from '../middleware/session';`, `import { v1Router } from './v1';`, ``, `export const apiRouter = Router();`, `apiRouter.use(requireSession);`, `apiRouter.use('/v1', v1Router);`);
  w(`${root}/routes/api.ts`, api);
  const v1 = new Out();
  v1.push(`import { Router } from 'express';`);
  for (const a of areas) v1.push(`import { ${camel(a.name)}Router } from './${a.name}';`);
  v1.push(``, `export const v1Router = Router();`);
  for (const a of areas) v1.push(`v1Router.use('/${a.name}', ${camel(a.name)}Router);`);
  w(`${root}/routes/v1.ts`, v1);
  for (const a of areas) {
    const idx = new Out();
    const mountLines = [];
    idx.push(`import { Router } from 'express';`, `import { requireTenant } from '../../middleware/tenant';`);
    const famGuards = new Set(a.domains.filter((d) => d.family).map((d) => d.family.guard));
    if (famGuards.size) idx.push(`import { ${[...famGuards].join(', ')} } from '../../middleware/family';`);
    for (const d of a.domains) idx.push(`import { ${camel(d.resource)}Router } from './${d.resource}.routes';`);
    idx.push(``, `export const ${camel(a.name)}Router = Router();`);
    for (const d of a.domains) {
      const mount = d.family ? `/${d.family.segment}/${d.resource}` : `/${d.resource}`;
      const mw = d.family ? `${d.family.guard}, ` : d.index % 2 === 0 ? 'requireTenant, ' : '';
      mountLines.push({ d, mount });
      idx.push(`${camel(a.name)}Router.use('${mount}', ${mw}${camel(d.resource)}Router);`);
    }
    w(`${root}/routes/${a.name}/index.ts`, idx);
    for (const { d, mount } of mountLines) {
      const prefix = `/api/v1/${a.name}${mount}`;
      const guards = { auth: ['requireSession'] };
      if (d.family) guards.family = [d.family.guard];
      else guards.tenant = ['requireTenant'];
      const f = expressRoutes(d, `${root}/routes/${a.name}/${d.resource}.routes.ts`, prefix, guards, routes);
      w(`${root}/routes/${a.name}/${d.resource}.routes.ts`, f);
      w(`${root}/routes/${a.name}/${d.resource}.service.ts`, serviceFile(d, '../../lib', [], null));
      w(`${root}/routes/${a.name}/${d.resource}.repository.ts`, repositoryFile(d, '../../lib'));
    }
  }
  return routes;
}

function expressRoutes(d, file, prefix, guards, routes) {
  const o = new Out();
  const r = `${camel(d.resource)}Router`;
  o.push(`import { Router, type NextFunction, type Request, type Response } from 'express';`, `import { verifyCsrf } from '../../middleware/csrf';`, `import { requireRole } from '../../middleware/roles';`);
  if (!d.family && d.index % 2 === 1) o.push(`import { requireTenant } from '../../middleware/tenant';`);
  o.push(`import { ValidationError } from '../../lib/errors';`, `import { ${d.service}, type ${d.entity}, type ${d.entity}Input } from './${d.resource}.service';`, ``);
  o.push(`export const ${r} = Router();`);
  if (!d.family && d.index % 2 === 1) o.push(`${r}.use(requireTenant);`);
  o.push(``);
  viewHelpers(o, d);
  const ops = operations(d);
  // Named handlers for all but the history route, which is written inline.
  for (const op of ops) {
    if (op.op === 'history' || op.op === 'notes' || op.op === 'addNote') continue;
    doc(o, d, op);
    o.push(`async function ${op.name}(req: Request, res: Response, next: NextFunction): Promise<void> {`, `  try {`);
    for (const l of handlerBody(d, op, 'express')) o.push(`    ${l}`);
    o.push(`  } catch (err) {`, `    next(err);`, `  }`, `}`, ``);
  }
  for (const op of ops.filter((x) => x.op === 'notes' || x.op === 'addNote')) {
    doc(o, d, op);
    o.push(`async function ${op.name}(req: Request, res: Response, next: NextFunction): Promise<void> {`, `  try {`);
    for (const l of handlerBody(d, op, 'express')) o.push(`    ${l}`);
    o.push(`  } catch (err) {`, `    next(err);`, `  }`, `}`, ``);
  }
  const g = (op) => ({ ...guards, ...(op.mutating ? { csrf: ['verifyCsrf'] } : {}) });
  const reg = (op, line) => routes.push(route(op.method, prefix + (op.sub === '' ? '/' : op.sub), file, line, 'express', g(op)));
  const byOp = Object.fromEntries(ops.map((x) => [x.op, x]));
  reg(byOp.list, o.next);
  o.push(`${r}.get('/', ${byOp.list.name});`);
  reg(byOp.create, o.next);
  o.push(`${r}.post('/', verifyCsrf, ${byOp.create.name});`);
  reg(byOp.get, o.next);
  o.push(`${r}.get('/:${d.id}', ${byOp.get.name});`);
  reg(byOp.update, o.next);
  o.push(`${r}.patch('/:${d.id}', verifyCsrf, requireRole('editor'), ${byOp.update.name});`);
  reg(byOp.remove, o.next);
  o.push(`${r}.delete('/:${d.id}', verifyCsrf, requireRole('owner'), ${byOp.remove.name});`);
  doc(o, d, byOp.history);
  reg(byOp.history, o.next);
  o.push(`${r}.get('/:${d.id}/history', async (req, res, next) => {`, `  try {`);
  for (const l of handlerBody(d, byOp.history, 'express')) o.push(`    ${l}`);
  o.push(`  } catch (err) {`, `    next(err);`, `  }`, `});`);
  // Each link of a route() chain is located at its own method name (the chain starts at o.next).
  reg(byOp.notes, o.next + 2);
  reg(byOp.addNote, o.next + 3);
  o.push(`${r}`, `  .route('/:${d.id}/notes')`, `  .get(${byOp.notes.name})`, `  .post(verifyCsrf, ${byOp.addNote.name});`);
  return o;
}

function expressSessionGuard() {
  return new Out().push(
    `import type { NextFunction, Request, Response } from 'express';`,
    ``,
    `/** Rejects requests without a signed-in browser session. */`,
    `export function requireSession(req: Request, res: Response, next: NextFunction): void {`,
    `  const userId = req.session?.userId;`,
    `  if (!userId) {`,
    `    res.status(401).json({ error: 'not signed in' });`,
    `    return;`,
    `  }`,
    `  req.user = { id: userId, roles: req.session.roles ?? [] };`,
    `  next();`,
    `}`,
  );
}

function expressTenantGuard() {
  return new Out().push(
    `import type { NextFunction, Request, Response } from 'express';`,
    ``,
    `/** Resolves the active tenant from the header and checks the session belongs to it. */`,
    `export function requireTenant(req: Request, res: Response, next: NextFunction): void {`,
    `  const requested = req.header('x-tenant-id');`,
    `  const tenants: string[] = req.session?.tenantIds ?? [];`,
    `  if (!requested || !tenants.includes(requested)) {`,
    `    res.status(403).json({ error: 'not a member of this tenant' });`,
    `    return;`,
    `  }`,
    `  req.tenant = { id: requested };`,
    `  next();`,
    `}`,
  );
}

function expressCsrf() {
  return new Out().push(
    `import type { NextFunction, Request, Response } from 'express';`,
    ``,
    `export function verifyCsrf(req: Request, res: Response, next: NextFunction): void {`,
    `  const token = req.header('x-csrf-token');`,
    `  if (!token || token !== req.session?.csrfToken) {`,
    `    res.status(403).json({ error: 'bad csrf token' });`,
    `    return;`,
    `  }`,
    `  next();`,
    `}`,
  );
}

function expressRoles() {
  return new Out().push(
    `import type { NextFunction, Request, Response } from 'express';`,
    ``,
    `export function requireRole(role: string) {`,
    `  return (req: Request, res: Response, next: NextFunction): void => {`,
    `    if (!req.user?.roles.includes(role)) {`,
    `      res.status(403).json({ error: \`requires the \${role} role\` });`,
    `      return;`,
    `    }`,
    `    next();`,
    `  };`,
    `}`,
  );
}

function expressFamilyGuards() {
  return new Out().push(
    `import crypto from 'node:crypto';`,
    `import type { NextFunction, Request, Response } from 'express';`,
    ``,
    `const deny = (res: Response) => res.status(403).json({ error: 'forbidden' });`,
    ``,
    `export function requireInternalToken(req: Request, res: Response, next: NextFunction): void {`,
    `  if (req.header('x-internal-token') !== process.env.INTERNAL_TOKEN) return void deny(res);`,
    `  next();`,
    `}`,
    ``,
    `export function requireStaff(req: Request, res: Response, next: NextFunction): void {`,
    `  if (!req.user?.roles.includes('staff')) return void deny(res);`,
    `  next();`,
    `}`,
    ``,
    `export function requireServiceToken(req: Request, res: Response, next: NextFunction): void {`,
    `  if (req.header('x-service-token') !== process.env.SERVICE_TOKEN) return void deny(res);`,
    `  next();`,
    `}`,
    ``,
    `export function verifyWebhookSignature(req: Request, res: Response, next: NextFunction): void {`,
    `  const expected = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET ?? '').update(JSON.stringify(req.body)).digest('hex');`,
    `  if (req.header('x-signature') !== expected) return void deny(res);`,
    `  next();`,
    `}`,
  );
}

function errorsLib() {
  return new Out().push(
    `export class HttpError extends Error {`,
    `  constructor(readonly status: number, message: string) {`,
    `    super(message);`,
    `  }`,
    `}`,
    `export class ValidationError extends HttpError {`,
    `  constructor(message: string) {`,
    `    super(400, message);`,
    `  }`,
    `}`,
    `export class NotFoundError extends HttpError {`,
    `  constructor(what: string, id: string) {`,
    `    super(404, \`\${what} \${id} not found\`);`,
    `  }`,
    `}`,
    `export class ConflictError extends HttpError {`,
    `  constructor(message: string) {`,
    `    super(409, message);`,
    `  }`,
    `}`,
    ``,
    `export function errorHandler(err: unknown, _req: unknown, res: { status(n: number): { json(b: unknown): void } }, _next: unknown): void {`,
    `  const status = err instanceof HttpError ? err.status : 500;`,
    `  res.status(status).json({ error: err instanceof HttpError ? err.message : 'internal error' });`,
    `}`,
  );
}

function dbLib() {
  return new Out().push(
    `import { Pool, type PoolClient } from 'pg';`,
    ``,
    `export interface Tx {`,
    `  query<R = unknown>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;`,
    `}`,
    `export interface Db extends Tx {`,
    `  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;`,
    `}`,
    ``,
    `const pool = new Pool({ connectionString: process.env.DATABASE_URL });`,
    ``,
    `export const db: Db = {`,
    `  query: (sql, params) => pool.query(sql, params) as never,`,
    `  async transaction(fn) {`,
    `    const client: PoolClient = await pool.connect();`,
    `    try {`,
    `      await client.query('BEGIN');`,
    `      const out = await fn({ query: (sql, params) => client.query(sql, params) as never });`,
    `      await client.query('COMMIT');`,
    `      return out;`,
    `    } catch (err) {`,
    `      await client.query('ROLLBACK');`,
    `      throw err;`,
    `    } finally {`,
    `      client.release();`,
    `    }`,
    `  },`,
    `};`,
  );
}

// ---------------------------------------------------------------------------
// NestJS

function nestApp(ctx, budget) {
  const root = 'src/nest';
  const w = ctx.writer;
  const routes = [];
  const areas = planAreas(ctx, budget - 8);
  w(`${root}/lib/errors.ts`, errorsLib());
  w(`${root}/lib/db.ts`, dbLib());
  w(`${root}/guards/session.guard.ts`, nestGuard('SessionGuard', ['UnauthorizedException'], `const req = context.switchToHttp().getRequest();`, `if (!req.session?.userId) throw new UnauthorizedException('not signed in');`, `return true;`));
  w(`${root}/guards/tenant.guard.ts`, nestGuard('TenantGuard', ['ForbiddenException'], `const req = context.switchToHttp().getRequest();`, `const requested = req.headers['x-tenant-id'];`, `if (!requested || !(req.session?.tenantIds ?? []).includes(requested)) throw new ForbiddenException('not a member of this tenant');`, `req.tenant = { id: requested };`, `return true;`));
  w(`${root}/guards/csrf.guard.ts`, nestGuard('CsrfGuard', [], `const req = context.switchToHttp().getRequest();`, `// double-submit cookie: the header must repeat the csrf cookie`, `return typeof req.headers['x-csrf-token'] === 'string' && req.headers['x-csrf-token'] === req.cookies?.['csrf-token'];`));
  w(`${root}/guards/family.guards.ts`, nestFamilyGuards());
  const main = new Out();
  main.push(`import { NestFactory } from '@nestjs/core';`, `import { AppModule } from './app.module';`, ``, `async function bootstrap() {`, `  const app = await NestFactory.create(AppModule);`, `  app.setGlobalPrefix('api');`, `  await app.listen(process.env.PORT ?? 3000);`, `}`, ``, `void bootstrap();`);
  w(`${root}/main.ts`, main);
  const mod = new Out();
  mod.push(`import { Module } from '@nestjs/common';`);
  for (const a of areas) mod.push(`import { ${pascal(a.name)}Module } from './${a.name}/${a.name}.module';`);
  mod.push(``, `@Module({`, `  imports: [`);
  for (const a of areas) mod.push(`    ${pascal(a.name)}Module,`);
  mod.push(`  ],`, `})`, `export class AppModule {}`);
  w(`${root}/app.module.ts`, mod);
  for (const a of areas) {
    const am = new Out();
    am.push(`import { Module } from '@nestjs/common';`);
    for (const d of a.domains) am.push(`import { ${d.Service.replace('Service', '')}Controller } from './${d.resource}.controller';`, `import { ${d.Service} } from './${d.resource}.service';`);
    am.push(``, `@Module({`, `  controllers: [${a.domains.map((d) => `${d.Service.replace('Service', '')}Controller`).join(', ')}],`, `  providers: [${a.domains.map((d) => d.Service).join(', ')}],`, `})`, `export class ${pascal(a.name)}Module {}`);
    w(`${root}/${a.name}/${a.name}.module.ts`, am);
    for (const d of a.domains) {
      const file = `${root}/${a.name}/${d.resource}.controller.ts`;
      w(file, nestController(d, a.name, file, routes));
      w(`${root}/${a.name}/${d.resource}.service.ts`, serviceFile(d, '../lib', [`import { Injectable } from '@nestjs/common';`], '@Injectable()'));
      w(`${root}/${a.name}/${d.resource}.repository.ts`, repositoryFile(d, '../lib'));
    }
  }
  return routes;
}

function nestGuard(name, extraImports, ...body) {
  const o = new Out();
  o.push(`import { ${['CanActivate', 'ExecutionContext', 'Injectable', ...extraImports].sort().join(', ')} } from '@nestjs/common';`, ``, `@Injectable()`, `export class ${name} implements CanActivate {`, `  canActivate(context: ExecutionContext): boolean {`);
  for (const b of body) o.push(`    ${b}`);
  o.push(`  }`, `}`);
  return o;
}

function nestFamilyGuards() {
  const o = new Out();
  o.push(`import crypto from 'node:crypto';`, `import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';`);
  const bodies = {
    InternalTokenGuard: `return req.headers['x-internal-token'] === process.env.INTERNAL_TOKEN;`,
    StaffGuard: `if (!(req.session?.roles ?? []).includes('staff')) throw new ForbiddenException();\n    return true;`,
    ServiceTokenGuard: `return req.headers['x-service-token'] === process.env.SERVICE_TOKEN;`,
    WebhookSignatureGuard: `const mac = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET ?? '').update(JSON.stringify(req.body)).digest('hex');\n    return req.headers['x-signature'] === mac;`,
  };
  for (const [name, body] of Object.entries(bodies))
    o.push(``, `@Injectable()`, `export class ${name} implements CanActivate {`, `  canActivate(context: ExecutionContext): boolean {`, `    const req = context.switchToHttp().getRequest();`, `    ${body}`, `  }`, `}`);
  return o;
}

function nestController(d, area, file, routes) {
  const o = new Out();
  const C = `${d.Service.replace('Service', '')}Controller`;
  const base = d.family ? `${area}/${d.family.segment}/${d.resource}` : `${area}/${d.resource}`;
  const classGuards = d.family ? ['SessionGuard', d.family.nest] : ['SessionGuard', 'TenantGuard'];
  o.push(`import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';`, `import { SessionGuard } from '../guards/session.guard';`);
  if (d.family) o.push(`import { ${d.family.nest} } from '../guards/family.guards';`);
  else o.push(`import { TenantGuard } from '../guards/tenant.guard';`);
  o.push(`import { CsrfGuard } from '../guards/csrf.guard';`, `import { ValidationError } from '../lib/errors';`, `import { ${d.Service}, type ${d.entity}, type ${d.entity}Input } from './${d.resource}.service';`, ``);
  o.push(`interface AuthedRequest {`, `  user: { id: string };`, `  tenant: { id: string };`, `}`, ``);
  viewHelpers(o, d);
  o.push(`@Controller('${base}')`, `@UseGuards(${classGuards.join(', ')})`, `export class ${C} {`, `  constructor(private readonly ${d.service}: ${d.Service}) {}`);
  const guards = { auth: ['SessionGuard'], ...(d.family ? { family: [d.family.nest] } : { tenant: ['TenantGuard'] }) };
  const svc = `this.${d.service}`;
  const bodies = {
    list: [`const page = await ${svc}.list(req.tenant.id, { cursor: query.cursor, limit: query.limit ? Number(query.limit) : undefined, q: query.q });`, `return { items: page.items.map(to${d.entity}View), nextCursor: page.nextCursor };`],
    create: [`const created = await ${svc}.create(req.tenant.id, req.user.id, pick${d.entity}Input(body));`, `return to${d.entity}View(created);`],
    get: [`return to${d.entity}View(await ${svc}.get(req.tenant.id, id));`],
    update: [`const updated = await ${svc}.update(req.tenant.id, req.user.id, id, pick${d.entity}Input(body));`, `return to${d.entity}View(updated);`],
    remove: [`await ${svc}.remove(req.tenant.id, req.user.id, id);`],
    history: [`const entries = await ${svc}.history(req.tenant.id, id, Number(query.limit ?? 50));`, `return { entries };`],
    notes: [`return { notes: await ${svc}.notes(req.tenant.id, id) };`],
    addNote: [`return ${svc}.addNote(req.tenant.id, req.user.id, id, (body as { body?: unknown }).body);`],
  };
  for (const op of operations(d)) {
    const dec = { GET: 'Get', POST: 'Post', PATCH: 'Patch', DELETE: 'Delete' }[op.method];
    const sub = op.sub.replace(`:${d.id}`, ':id').replace(/^\//, '');
    o.push(``);
    doc(o, d, op, '  ');
    routes.push(route(op.method, `/api/${base}${sub ? '/' + sub : ''}`, file, o.next, 'nest', op.mutating ? { ...guards, csrf: ['CsrfGuard'] } : guards));
    o.push(`  @${dec}(${sub ? `'${sub}'` : ''})`);
    if (op.mutating) o.push(`  @UseGuards(CsrfGuard)`);
    if (op.op === 'create' || op.op === 'addNote') o.push(`  @HttpCode(201)`);
    if (op.op === 'remove') o.push(`  @HttpCode(204)`);
    const params = [`@Req() req: AuthedRequest`];
    if (op.sub.includes(':')) params.push(`@Param('id') id: string`);
    if (op.op === 'list' || op.op === 'history') params.push(`@Query() query: Record<string, string>`);
    if (op.mutating && op.op !== 'remove') params.push(`@Body() body: unknown`);
    o.push(`  async ${op.name}(${params.join(', ')}) {`);
    for (const l of bodies[op.op]) o.push(`    ${l}`);
    o.push(`  }`);
  }
  o.push(`}`);
  return o;
}

// ---------------------------------------------------------------------------
// Fastify

function fastifyApp(ctx, budget) {
  const root = 'src/fastify';
  const w = ctx.writer;
  const routes = [];
  const areas = planAreas(ctx, budget - 5);
  w(`${root}/lib/errors.ts`, errorsLib());
  w(`${root}/lib/db.ts`, dbLib());
  w(`${root}/hooks/guards.ts`, fastifyGuards());
  const server = new Out();
  server.push(`import Fastify from 'fastify';`, `import cookie from '@fastify/cookie';`, `import apiPlugin from './plugins/api';`, ``, `export function buildServer() {`, `  const app = Fastify({ logger: true });`, `  app.register(cookie);`);
  routes.push(route('GET', '/healthz', `${root}/server.ts`, server.next, 'fastify', {}));
  server.push(`  app.get('/healthz', async () => ({ ok: true }));`, `  app.register(apiPlugin, { prefix: '/api' });`, `  return app;`, `}`);
  w(`${root}/server.ts`, server);
  const api = new Out();
  api.push(`import type { FastifyInstance } from 'fastify';`, `import { requireSession } from '../hooks/guards';`);
  for (const a of areas) api.push(`import ${camel(a.name)}Area from '../areas/${a.name}';`);
  api.push(``, `export default async function apiPlugin(app: FastifyInstance): Promise<void> {`, `  app.addHook('onRequest', requireSession);`);
  for (const a of areas) api.push(`  app.register(${camel(a.name)}Area, { prefix: '/${a.name}' });`);
  api.push(`}`);
  w(`${root}/plugins/api.ts`, api);
  for (const a of areas) {
    const idx = new Out();
    idx.push(`import type { FastifyInstance } from 'fastify';`);
    for (const d of a.domains) idx.push(`import ${camel(d.resource)}Routes from './${d.resource}.routes';`);
    idx.push(``, `export default async function ${camel(a.name)}Area(app: FastifyInstance): Promise<void> {`);
    for (const d of a.domains) idx.push(`  app.register(${camel(d.resource)}Routes${d.family ? `, { prefix: '/${d.family.segment}' }` : ''});`);
    idx.push(`}`);
    w(`${root}/areas/${a.name}/index.ts`, idx);
    for (const d of a.domains) {
      const file = `${root}/areas/${a.name}/${d.resource}.routes.ts`;
      const prefix = `/api/${a.name}${d.family ? '/' + d.family.segment : ''}/${d.resource}`;
      w(file, fastifyRoutes(d, file, prefix, routes));
      w(`${root}/areas/${a.name}/${d.resource}.service.ts`, serviceFile(d, '../../lib', [], null));
      w(`${root}/areas/${a.name}/${d.resource}.repository.ts`, repositoryFile(d, '../../lib'));
    }
  }
  return routes;
}

function fastifyGuards() {
  return new Out().push(
    `import crypto from 'node:crypto';`,
    `import type { FastifyReply, FastifyRequest } from 'fastify';`,
    ``,
    `export async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  const userId = request.cookies['sid'] ? await lookupUser(request.cookies['sid']) : null;`,
    `  if (!userId) return reply.code(401).send({ error: 'not signed in' });`,
    `  request.user = { id: userId };`,
    `}`,
    ``,
    `async function lookupUser(sid: string): Promise<string | null> {`,
    `  return sid.length > 10 ? sid.slice(0, 10) : null;`,
    `}`,
    ``,
    `export async function requireTenant(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  const requested = request.headers['x-tenant-id'];`,
    `  if (typeof requested !== 'string' || !(request.user?.tenantIds ?? []).includes(requested)) return reply.code(403).send({ error: 'not a member of this tenant' });`,
    `  request.tenant = { id: requested };`,
    `}`,
    ``,
    `export async function verifyCsrf(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  if (request.headers['x-csrf-token'] !== request.cookies['csrf']) return reply.code(403).send({ error: 'bad csrf token' });`,
    `}`,
    ``,
    `export async function requireInternalToken(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  if (request.headers['x-internal-token'] !== process.env.INTERNAL_TOKEN) return reply.code(403).send({ error: 'forbidden' });`,
    `}`,
    ``,
    `export async function requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  if (!(request.user?.roles ?? []).includes('staff')) return reply.code(403).send({ error: 'forbidden' });`,
    `}`,
    ``,
    `export async function requireServiceToken(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  if (request.headers['x-service-token'] !== process.env.SERVICE_TOKEN) return reply.code(403).send({ error: 'forbidden' });`,
    `}`,
    ``,
    `export async function verifyWebhookSignature(request: FastifyRequest, reply: FastifyReply): Promise<void> {`,
    `  const mac = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET ?? '').update(JSON.stringify(request.body)).digest('hex');`,
    `  if (request.headers['x-signature'] !== mac) return reply.code(403).send({ error: 'forbidden' });`,
    `}`,
  );
}

function fastifyRoutes(d, file, prefix, routes) {
  const o = new Out();
  const guardName = d.family ? d.family.guard : 'requireTenant';
  o.push(`import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';`, `import { ${guardName}, verifyCsrf } from '../../hooks/guards';`, `import { ValidationError } from '../../lib/errors';`, `import { ${d.service}, type ${d.entity}, type ${d.entity}Input } from './${d.resource}.service';`, ``);
  viewHelpers(o, d);
  const schema = `{ params: { type: 'object', properties: { ${d.id}: { type: 'string' } }, required: ['${d.id}'] } }`;
  o.push(`const byIdSchema = ${schema};`, ``);
  const ops = operations(d);
  for (const op of ops) {
    doc(o, d, op);
    o.push(`async function ${op.name}(request: FastifyRequest, reply: FastifyReply) {`);
    for (const l of handlerBody(d, op, 'fastify')) o.push(`  ${l}`);
    o.push(`}`, ``);
  }
  o.push(`export default async function ${camel(d.resource)}Routes(app: FastifyInstance): Promise<void> {`, `  app.addHook('preHandler', ${guardName});`);
  const guards = { auth: ['requireSession'], ...(d.family ? { family: [d.family.guard] } : { tenant: ['requireTenant'] }) };
  const base = `/${d.resource}`;
  for (const op of ops) {
    const m = op.method.toLowerCase();
    const url = `${base}${op.sub}`;
    routes.push(route(op.method, prefix.slice(0, prefix.length - base.length) + url, file, o.next, 'fastify', op.mutating ? { ...guards, csrf: ['verifyCsrf'] } : guards));
    const opts = [];
    if (op.sub.includes(':')) opts.push('schema: byIdSchema');
    if (op.mutating) opts.push('preHandler: [verifyCsrf]');
    o.push(`  app.${m}('${url}', ${opts.length ? `{ ${opts.join(', ')} }, ` : ''}${op.name});`);
  }
  o.push(`}`);
  return o;
}

// ---------------------------------------------------------------------------
// Hono

function honoApp(ctx, budget) {
  const root = 'src/hono';
  const w = ctx.writer;
  const routes = [];
  const areas = planAreas(ctx, budget - 5);
  w(`${root}/lib/errors.ts`, errorsLib());
  w(`${root}/lib/db.ts`, dbLib());
  w(`${root}/middleware/guards.ts`, honoGuards());
  const app = new Out();
  app.push(`import { Hono } from 'hono';`, `import { secureHeaders } from 'hono/secure-headers';`, `import { requireSession } from './middleware/guards';`);
  for (const a of areas) app.push(`import ${camel(a.name)} from './areas/${a.name}';`);
  app.push(``, `const app = new Hono();`, `app.use('*', secureHeaders());`);
  routes.push(route('GET', '/status', `${root}/app.ts`, app.next, 'hono', {}));
  app.push(`app.get('/status', (c) => c.json({ ok: true }));`, `app.use('/api/*', requireSession);`);
  for (const a of areas) app.push(`app.route('/api/${a.name}', ${camel(a.name)});`);
  app.push(``, `export default app;`);
  w(`${root}/app.ts`, app);
  w(`${root}/env.ts`, new Out().push(`export type AppEnv = { Variables: { user: { id: string }; tenant: { id: string } } };`));
  for (const a of areas) {
    const idx = new Out();
    idx.push(`import { Hono } from 'hono';`, `import type { AppEnv } from '../../env';`);
    for (const d of a.domains) idx.push(`import ${camel(d.resource)} from './${d.resource}.routes';`);
    idx.push(``, `const ${camel(a.name)} = new Hono<AppEnv>();`);
    for (const d of a.domains) idx.push(`${camel(a.name)}.route('/${d.family ? d.family.segment + '/' : ''}${d.resource}', ${camel(d.resource)});`);
    idx.push(``, `export default ${camel(a.name)};`);
    w(`${root}/areas/${a.name}/index.ts`, idx);
    for (const d of a.domains) {
      const file = `${root}/areas/${a.name}/${d.resource}.routes.ts`;
      const prefix = `/api/${a.name}/${d.family ? d.family.segment + '/' : ''}${d.resource}`;
      w(file, honoRoutes(d, file, prefix, routes));
      w(`${root}/areas/${a.name}/${d.resource}.service.ts`, serviceFile(d, '../../lib', [], null));
      w(`${root}/areas/${a.name}/${d.resource}.repository.ts`, repositoryFile(d, '../../lib'));
    }
  }
  return routes;
}

function honoGuards() {
  return new Out().push(
    `import type { Context, Next } from 'hono';`,
    `import { getCookie } from 'hono/cookie';`,
    ``,
    `export async function requireSession(c: Context, next: Next) {`,
    `  const sid = getCookie(c, 'sid');`,
    `  if (!sid) return c.json({ error: 'not signed in' }, 401);`,
    `  c.set('user', { id: sid.slice(0, 12) });`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireTenant(c: Context, next: Next) {`,
    `  const requested = c.req.header('x-tenant-id');`,
    `  const tenants: string[] = c.get('user')?.tenantIds ?? [];`,
    `  if (!requested || !tenants.includes(requested)) return c.json({ error: 'not a member of this tenant' }, 403);`,
    `  c.set('tenant', { id: requested });`,
    `  await next();`,
    `}`,
    ``,
    `export async function verifyCsrf(c: Context, next: Next) {`,
    `  if (c.req.header('x-csrf-token') !== getCookie(c, 'csrf')) return c.json({ error: 'bad csrf token' }, 403);`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireInternalToken(c: Context, next: Next) {`,
    `  if (c.req.header('x-internal-token') !== process.env.INTERNAL_TOKEN) return c.json({ error: 'forbidden' }, 403);`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireStaff(c: Context, next: Next) {`,
    `  if (!(c.get('user')?.roles ?? []).includes('staff')) return c.json({ error: 'forbidden' }, 403);`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireServiceToken(c: Context, next: Next) {`,
    `  if (c.req.header('x-service-token') !== process.env.SERVICE_TOKEN) return c.json({ error: 'forbidden' }, 403);`,
    `  await next();`,
    `}`,
    ``,
    `export async function verifyWebhookSignature(c: Context, next: Next) {`,
    `  if (!c.req.header('x-signature')) return c.json({ error: 'forbidden' }, 403);`,
    `  await next();`,
    `}`,
  );
}

function honoRoutes(d, file, prefix, routes) {
  const o = new Out();
  const guardName = d.family ? d.family.guard : 'requireTenant';
  const v = camel(d.resource);
  o.push(`import { Hono, type Context } from 'hono';`, `import type { AppEnv } from '../../env';`, `import { ${guardName}, verifyCsrf } from '../../middleware/guards';`, `import { ValidationError } from '../../lib/errors';`, `import { ${d.service}, type ${d.entity}, type ${d.entity}Input } from './${d.resource}.service';`, ``);
  viewHelpers(o, d);
  const ops = operations(d);
  for (const op of ops) {
    doc(o, d, op);
    o.push(`async function ${op.name}(c: Context<AppEnv>) {`);
    for (const l of handlerBody(d, op, 'hono')) o.push(`  ${l}`);
    o.push(`}`, ``);
  }
  o.push(`const ${v} = new Hono<AppEnv>();`, `${v}.use('*', ${guardName});`);
  const guards = { auth: ['requireSession'], ...(d.family ? { family: [d.family.guard] } : { tenant: ['requireTenant'] }) };
  for (const op of ops) {
    // Hono's mergePath joins a mount path and '/' without a trailing slash.
    routes.push(route(op.method, prefix + op.sub, file, o.next, 'hono', op.mutating ? { ...guards, csrf: ['verifyCsrf'] } : guards));
    o.push(`${v}.${op.method.toLowerCase()}('${op.sub || '/'}', ${op.mutating ? 'verifyCsrf, ' : ''}${op.name});`);
  }
  o.push(``, `export default ${v};`);
  return o;
}

// ---------------------------------------------------------------------------
// Koa (@koa/router)

function koaApp(ctx, budget) {
  const root = 'src/koa';
  const w = ctx.writer;
  const routes = [];
  const areas = planAreas(ctx, budget - 6);
  w(`${root}/lib/errors.ts`, errorsLib());
  w(`${root}/lib/db.ts`, dbLib());
  w(`${root}/middleware/guards.ts`, koaGuards());
  const app = new Out();
  app.push(`import Koa from 'koa';`, `import bodyParser from '@koa/bodyparser';`, `import { apiRouter } from './api';`, ``, `const app = new Koa();`, `app.use(bodyParser());`, `app.use(apiRouter.routes());`, `app.use(apiRouter.allowedMethods());`, ``, `export default app;`);
  w(`${root}/app.ts`, app);
  const api = new Out();
  api.push(`import Router from '@koa/router';`, `import { requireSession } from './middleware/guards';`);
  for (const a of areas) api.push(`import { ${camel(a.name)}Router } from './areas/${a.name}';`);
  api.push(``, `export const apiRouter = new Router({ prefix: '/api' });`);
  routes.push(route('GET', '/api/ping', `${root}/api.ts`, api.next, 'koa', {}));
  api.push(`apiRouter.get('/ping', (ctx) => {`, `  ctx.body = { ok: true };`, `});`, `apiRouter.use(requireSession);`);
  for (const a of areas) api.push(`apiRouter.use('/${a.name}', ${camel(a.name)}Router.routes(), ${camel(a.name)}Router.allowedMethods());`);
  w(`${root}/api.ts`, api);
  w(`${root}/types.ts`, new Out().push(`export interface AppState {`, `  user: { id: string; roles: string[] };`, `  tenant: { id: string };`, `}`));
  for (const a of areas) {
    const idx = new Out();
    idx.push(`import Router from '@koa/router';`);
    for (const d of a.domains) idx.push(`import { ${camel(d.resource)}Router } from './${d.resource}.routes';`);
    idx.push(``, `export const ${camel(a.name)}Router = new Router();`);
    for (const d of a.domains) idx.push(`${camel(a.name)}Router.use(${camel(d.resource)}Router.routes());`);
    w(`${root}/areas/${a.name}/index.ts`, idx);
    for (const d of a.domains) {
      const file = `${root}/areas/${a.name}/${d.resource}.routes.ts`;
      w(file, koaRoutes(d, file, `/api/${a.name}`, routes));
      w(`${root}/areas/${a.name}/${d.resource}.service.ts`, serviceFile(d, '../../lib', [], null));
      w(`${root}/areas/${a.name}/${d.resource}.repository.ts`, repositoryFile(d, '../../lib'));
    }
  }
  return routes;
}

function koaGuards() {
  return new Out().push(
    `import crypto from 'node:crypto';`,
    `import type { Context, Next } from 'koa';`,
    ``,
    `export async function requireSession(ctx: Context, next: Next) {`,
    `  const userId = ctx.session?.userId;`,
    `  if (!userId) ctx.throw(401, 'not signed in');`,
    `  ctx.state.user = { id: userId, roles: ctx.session?.roles ?? [] };`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireTenant(ctx: Context, next: Next) {`,
    `  const requested = ctx.get('x-tenant-id');`,
    `  if (!requested || !(ctx.session?.tenantIds ?? []).includes(requested)) ctx.throw(403, 'not a member of this tenant');`,
    `  ctx.state.tenant = { id: requested };`,
    `  await next();`,
    `}`,
    ``,
    `export async function verifyCsrf(ctx: Context, next: Next) {`,
    `  if (ctx.get('x-csrf-token') !== ctx.session?.csrfToken) ctx.throw(403, 'bad csrf token');`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireInternalToken(ctx: Context, next: Next) {`,
    `  if (ctx.get('x-internal-token') !== process.env.INTERNAL_TOKEN) ctx.throw(403, 'forbidden');`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireStaff(ctx: Context, next: Next) {`,
    `  if (!(ctx.state.user?.roles ?? []).includes('staff')) ctx.throw(403, 'forbidden');`,
    `  await next();`,
    `}`,
    ``,
    `export async function requireServiceToken(ctx: Context, next: Next) {`,
    `  if (ctx.get('x-service-token') !== process.env.SERVICE_TOKEN) ctx.throw(403, 'forbidden');`,
    `  await next();`,
    `}`,
    ``,
    `export async function verifyWebhookSignature(ctx: Context, next: Next) {`,
    `  const mac = crypto.createHmac('sha256', process.env.WEBHOOK_SECRET ?? '').update(JSON.stringify(ctx.request.body)).digest('hex');`,
    `  if (ctx.get('x-signature') !== mac) ctx.throw(403, 'forbidden');`,
    `  await next();`,
    `}`,
  );
}

function koaRoutes(d, file, areaPrefix, routes) {
  const o = new Out();
  const guardName = d.family ? d.family.guard : 'requireTenant';
  const r = `${camel(d.resource)}Router`;
  o.push(`import Router from '@koa/router';`, `import type { AppState } from '../../types';`, `import { ${guardName}, verifyCsrf } from '../../middleware/guards';`, `import { ValidationError } from '../../lib/errors';`, `import { ${d.service}, type ${d.entity}, type ${d.entity}Input } from './${d.resource}.service';`, ``);
  viewHelpers(o, d);
  const ops = operations(d);
  for (const op of ops) {
    doc(o, d, op);
    o.push(`async function ${op.name}(ctx: Router.RouterContext<AppState>) {`);
    for (const l of handlerBody(d, op, 'koa')) o.push(`  ${l}`);
    o.push(`}`, ``);
  }
  const base = `/${d.family ? d.family.segment + '/' : ''}${d.resource}`;
  o.push(`export const ${r} = new Router<AppState>({ prefix: '${base}' });`);
  const guards = { auth: ['requireSession'], ...(d.family ? { family: [d.family.guard] } : { tenant: ['requireTenant'] }) };
  for (const op of ops) {
    const mw = [guardName, ...(op.mutating ? ['verifyCsrf'] : [])];
    // @koa/router (non-strict): a '/' route under a prefix is the prefix itself.
    routes.push(route(op.method, `${areaPrefix}${base}${op.sub}`, file, o.next, 'koa', op.mutating ? { ...guards, csrf: ['verifyCsrf'] } : guards));
    o.push(`${r}.${op.method.toLowerCase()}('${op.sub || '/'}', ${mw.join(', ')}, ${op.name});`);
  }
  return o;
}

// ---------------------------------------------------------------------------
// Planning and assembly

function route(method, p, file, line, framework, guards) {
  const g = { auth: [], tenant: [], csrf: [], family: [] };
  for (const k of Object.keys(g)) g[k] = [...(guards[k] ?? [])].sort();
  return { method, path: p, file, line, framework, guards: g };
}

/**
 * Areas of up to nine domains for a budget of files (an area costs its index file plus
 * three files a domain). Every ninth domain, counted over the whole tree, is an
 * excluded-family domain, so about 11 % of the routes are in excluded families.
 */
function planAreas(ctx, budget) {
  const areas = [];
  let left = budget;
  while (left >= 4) {
    const k = ctx.areaCounter++;
    const name = k < AREAS.length ? AREAS[k] : `${AREAS[k % AREAS.length]}-${Math.floor(k / AREAS.length) + 1}`;
    const n = Math.min(9, Math.floor((left - 1) / 3));
    const domains = [];
    for (let i = 0; i < n; i++) {
      const g = ctx.domainCounter++;
      const family = g % 9 === 8 ? FAMILIES[Math.floor(g / 9) % FAMILIES.length] : null;
      const resource = family ? FAMILY_RESOURCES[(k + i) % FAMILY_RESOURCES.length] : RESOURCES[(k * 8 + i) % RESOURCES.length];
      domains.push(makeDomain(ctx.rng, name, resource, i, family));
    }
    areas.push({ name, domains });
    left -= 1 + 3 * n;
  }
  return areas;
}

/** Plain utility modules that fill the budget exactly (no routes, no guards). */
function utilFile(i) {
  const o = new Out();
  o.push(`/** Formatting helpers ${i}. */`, ``);
  for (let k = 0; k < 12; k++) {
    o.push(`export function format${k}_${i}(value: number, unit = 'B'): string {`, `  const steps = ['', 'K', 'M', 'G', 'T'];`, `  let v = value;`, `  let s = 0;`, `  while (Math.abs(v) >= 1024 && s < steps.length - 1) {`, `    v /= 1024;`, `    s += 1;`, `  }`, `  return \`\${v.toFixed(${k % 3})} \${steps[s]}\${unit}\`;`, `}`, ``);
  }
  o.push(`export const UTIL_${i} = true;`);
  return o;
}

const WEIGHTS = [
  ['express', 0.4, expressApp],
  ['nest', 0.2, nestApp],
  ['fastify', 0.2, fastifyApp],
  ['hono', 0.1, honoApp],
  ['koa', 0.1, koaApp],
];

/**
 * Generate a tree of exactly `files` source files under `dir` (emptied first).
 * Returns { files, lines, routes } where routes is the true route list.
 */
export function generate({ dir, files, seed = 1 }) {
  if (!Number.isInteger(files) || files < 100) throw new Error('generate: files must be an integer of at least 100');
  const ctx = { rng: mulberry32(seed), areaCounter: 0, domainCounter: 0, files: new Map() };
  ctx.writer = (file, o) => {
    if (ctx.files.has(file)) throw new Error(`generate: ${file} written twice`);
    ctx.files.set(file, o);
  };
  const routes = [];
  for (const [, weight, fn] of WEIGHTS) routes.push(...fn(ctx, Math.floor(files * weight)));
  for (let u = 0; ctx.files.size < files; u++) ctx.writer(`src/shared/format-${String(u).padStart(4, '0')}.ts`, utilFile(u));
  if (ctx.files.size !== files) throw new Error(`generate: produced ${ctx.files.size} files instead of ${files}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let lines = 0;
  const dirs = new Set();
  for (const [file, o] of [...ctx.files].sort((a, b) => cmp(a[0], b[0]))) {
    const abs = path.join(dir, file);
    const d = path.dirname(abs);
    if (!dirs.has(d)) {
      fs.mkdirSync(d, { recursive: true });
      dirs.add(d);
    }
    fs.writeFileSync(abs, o.text());
    lines += o.lines.length;
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'synthetic-control-plane', private: true, dependencies: DEPENDENCIES }, null, 2) + '\n');
  routes.sort((a, b) => cmp(a.path, b.path) || cmp(a.method, b.method) || cmp(a.file, b.file) || a.line - b.line);
  fs.writeFileSync(path.join(dir, 'expected-routes.json'), JSON.stringify({ files, lines, routes }, null, 1) + '\n');
  return { files, lines, routes };
}

const DEPENDENCIES = {
  '@fastify/cookie': '11.0.2',
  '@koa/bodyparser': '6.0.0',
  '@koa/router': '13.1.0',
  '@nestjs/common': '11.1.0',
  '@nestjs/core': '11.1.0',
  express: '5.1.0',
  'express-session': '1.18.1',
  fastify: '5.4.0',
  helmet: '8.1.0',
  hono: '4.8.0',
  koa: '3.0.0',
  pg: '8.16.0',
};

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Route files of a generated tree, for the "one route file edited" measurement. */
export function routeFileOf(routes, framework = 'express', next = 0) {
  const files = [...new Set(routes.filter((r) => r.framework === framework && /\.routes\.ts$/.test(r.file)).map((r) => r.file))].sort();
  // the middle one, or the `next`-th after it
  return files[(Math.floor(files.length / 2) + next) % files.length];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const get = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : def;
  };
  const out = get('--out');
  const n = Number(get('--files', '2000'));
  if (!out) {
    process.stderr.write('usage: node bench/generate.mjs --files N --out DIR [--seed S]\n');
    process.exit(2);
  }
  const res = generate({ dir: path.resolve(out), files: n, seed: Number(get('--seed', '1')) });
  process.stdout.write(`${res.files} files, ${res.lines} lines (${(res.lines / res.files).toFixed(0)} a file), ${res.routes.length} routes → ${out}\n`);
}
