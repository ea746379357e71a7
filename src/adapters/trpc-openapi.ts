/**
 * trpc-openapi (1.2, for @trpc/server 10) and trpc-to-openapi (3.x, for 11), read in their
 * src/adapters/node-http (core.ts, procedures.ts) and src/utils (path.ts, procedure.ts), and
 * the forks published as trpc-swagger (2.0) and @lilyrose2798/trpc-openapi (1.4), alike: an
 * endpoint made of a tRPC router serves each procedure whose meta has an `openapi` (not
 * `enabled: false`; a subscription never) for the method and at the path that `openapi` gives,
 * below where the endpoint is:
 * - the path loses a leading and a trailing slash and gains a leading one (`normalizePath`), its
 *   `{name}` parameters match one segment each, and it is matched case-insensitively (the
 *   RegExp's `i`) against the request's path, itself without its trailing slash;
 * - a request no procedure takes is answered 404 (a HEAD 204), or handed on where the endpoint
 *   is given a `next` (Koa's).
 * The fork @dokploy/trpc-openapi (0.0.19, dist/cjs/utils/procedure.js) serves every procedure
 * but those turned off: at `/<dotted path>`, a query by GET and a mutation by POST, unless its
 * `openapi` gives a method or a path. A procedure's meta is what its builder's `.meta(m)` calls
 * give, each merged over the one before it key by key (@trpc/server procedureBuilder.ts
 * createNewBuilder; `.concat(b)` merges b's over it). `protect` only documents the procedure;
 * it is not checked at run time.
 */
import type { Evaluator, Value } from '../link/evaluate.js';
import { truthOf } from '../link/conditions.js';
import type { LinkContext } from '../link/link.js';
import type { Expr, Loc } from '../types.js';
import { joinPath } from './paths.js';
import { CONCAT, endpointRouter, MAX_DEPTH, ofTrpc, returnedBy, trpcProcedures, trpcUnread, written, type Procedure } from './trpc.js';

/** The packages, each endpoint factory the same in all. */
export const TRPC_OPENAPI = ['trpc-openapi', 'trpc-to-openapi', 'trpc-swagger', '@lilyrose2798/trpc-openapi', '@dokploy/trpc-openapi'];
/** Those serving every procedure not turned off, with or without an `openapi` (`defaultOpenApiMeta`). */
const EVERY_PROCEDURE = new Set(['@dokploy/trpc-openapi']);

/** The HTTP methods an `openapi` meta may give (trpc-openapi's OpenApiMethod). */
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The steps of a tRPC procedure builder, each keeping the meta of the builder it is called on. */
const STEPS = new Set(['use', 'input', 'output', 'meta', ...CONCAT]);

/** A procedure an OpenAPI endpoint serves: at `path` (`:name` for each `{name}`), `below` the endpoint, for `method`. */
export interface OpenApiProcedure {
  procedure: Procedure;
  method: string;
  path: string;
  below: string;
}

/**
 * An endpoint: its router and options, and the `endpoint` option of a fetch handler, which takes
 * it out of the request's whole URL (null for a handler handed the path below where it is used).
 */
export interface OpenApiEndpoint {
  pkg: string;
  router: { file: string; expr: Expr } | null;
  options: Value | undefined;
  endpoint: Value | null;
}

/**
 * The endpoint the handler `v` is: one of `factories` called (`createOpenApiExpressMiddleware({
 * router })`, `createOpenApiNextHandler({ router })`), or a function of the code returning one
 * (`(req) => createOpenApiFetchHandler({ router, endpoint, req })`) or the handler one makes
 * handed the request (`return createOpenApiNextHandler({ router })(req, res)`); null when it is
 * none.
 */
export function openApiEndpoint(ctx: LinkContext, v: Value, factories: string[]): OpenApiEndpoint | null {
  const made = (x: Value): OpenApiEndpoint | null => {
    const name = x.t === 'pkg' && TRPC_OPENAPI.includes(x.pkg) ? x.path.join('.') : null;
    const router = name !== null && factories.includes(name) ? endpointRouter(x) : null;
    if (!router || x.t !== 'pkg') return null;
    const options = x.args[0];
    if (name !== 'createOpenApiFetchHandler') return { pkg: x.pkg, router, options, endpoint: null };
    return { pkg: x.pkg, router, options, endpoint: options?.t === 'obj' ? ctx.ev.member(options, 'endpoint', 0) : { t: 'unknown', why: 'its options are not known statically' } };
  };
  if (v.t !== 'fn') return made(v);
  for (const r of ctx.returnsWhereImported(v, (s) => TRPC_OPENAPI.includes(s))) {
    // (`createOpenApiNextHandler({ … })(req, res)`: the handler made, handed the request)
    const found = made(ctx.ev.eval(v.file, r.k === 'call' && r.callee.k === 'call' ? r.callee : r));
    if (found) return found;
  }
  return null;
}

/**
 * The routes of `endpoint`, handed the requests at and below `below` (a fetch handler, at its
 * `endpoint` in the whole URL): each procedure it serves at a path `serves` takes. Null, with a
 * warning at `where`, when its router or its `endpoint` is not known statically (the endpoint is
 * then one route); a warning for each procedure whose `openapi` is not read.
 */
export function openApiRoutes(ctx: LinkContext, endpoint: OpenApiEndpoint, below: string, serves: (path: string) => boolean, where: { file: string; at: Loc; snippet: string }): OpenApiProcedure[] | null {
  const at = endpoint.endpoint === null ? below : endpoint.endpoint.t === 'str' ? endpoint.endpoint.v : null;
  if (at === null) {
    ctx.warn(where.file, where.at, 'the endpoint of this createOpenApiFetchHandler(…) is not known statically: the procedures it serves are not listed, the endpoint is one route', where.snippet);
    return null;
  }
  const found = openApiProcedures(ctx.ev, endpoint);
  if ('why' in found) {
    ctx.warn(where.file, where.at, trpcUnread(found.why), where.snippet);
    return null;
  }
  for (const { procedure, why } of found.skipped) ctx.warn(where.file, where.at, openApiSkipped(procedure.path, why), where.snippet);
  const out: OpenApiProcedure[] = [];
  for (const { procedure, method, path } of found.served) {
    const full = path === '/' ? at || '/' : joinPath(at, path);
    if (serves(full)) out.push({ procedure, method, path: full, below: path });
  }
  return out;
}

/**
 * The procedures `endpoint` serves (at their paths below it), or why its router is not known
 * statically; `skipped`: each procedure whose `openapi` is not read, with the reason.
 */
function openApiProcedures(ev: Evaluator, endpoint: OpenApiEndpoint): { served: Omit<OpenApiProcedure, 'below'>[]; skipped: { procedure: Procedure; why: string }[] } | { why: string } {
  const found = trpcProcedures(ev, endpoint.router, endpoint.options);
  if ('why' in found) return found;
  const every = EVERY_PROCEDURE.has(endpoint.pkg);
  const served: Omit<OpenApiProcedure, 'below'>[] = [];
  const skipped: { procedure: Procedure; why: string }[] = [];
  for (const p of found.procedures) {
    if (p.kind === 'subscription') continue;
    const fallback = every ? { method: p.kind === 'query' ? 'GET' : 'POST', path: `/${p.path}` } : null;
    const meta = openApiMeta(ev, p.builder.file, p.builder.expr, 0);
    if (meta !== null && 'why' in meta) {
      skipped.push({ procedure: p, why: meta.why });
      continue;
    }
    const read = meta === null ? fallback : readMeta(ev, meta.file, meta.expr, fallback);
    if (read === null) continue;
    if ('why' in read) skipped.push({ procedure: p, why: read.why });
    else served.push({ procedure: p, method: read.method, path: `/${read.path.replace(/^\/|\/$/g, '')}`.replace(/\{(.+?)\}/g, ':$1') });
  }
  return { served, skipped };
}

/** The warning for a procedure whose `openapi` is not read. */
function openApiSkipped(path: string, why: string): string {
  return `the OpenAPI route of the tRPC procedure ${path} is not known statically (${why}); it is not listed`;
}

/**
 * `{ method, path, enabled }` of an `openapi` meta, each not given taken from `fallback`: the
 * method and path (as written), null when it is turned off, or why it is not known.
 */
function readMeta(ev: Evaluator, file: string, e: Expr, fallback: { method: string; path: string } | null): { method: string; path: string } | null | { why: string } {
  const v = ev.eval(file, e);
  if (v.t !== 'obj') return { why: 'its openapi is not an object written out' };
  // (only `false` turns it off, procedure.ts `openapi.enabled !== false`: one not known statically may be on)
  const enabled = ev.member(v, 'enabled', 0);
  if (enabled.t === 'bool' && !enabled.v) return null;
  const given = (key: 'method' | 'path'): Value => (fallback && !(key in v.props) ? { t: 'str', v: fallback[key] } : ev.member(v, key, 0));
  const method = given('method');
  const path = given('path');
  if (method.t !== 'str' || !METHODS.has(method.v)) return { why: 'its method is not one of GET, POST, PUT, PATCH, DELETE written out' };
  if (path.t !== 'str') return { why: 'its path is not known statically' };
  return { method: method.v, path: path.v };
}

/**
 * The `openapi` of the meta the procedure builder `e` carries, as written (an expression and its
 * file), null when it has none, or why it is not known statically: walked from the last step of
 * the chain back, the first `.meta()` with an `openapi` key (or `.concat(b)` of a b that has one)
 * gives it.
 */
function openApiMeta(ev: Evaluator, file: string, e: Expr, depth: number): { file: string; expr: Expr } | null | { why: string } {
  if (depth > MAX_DEPTH) return { why: 'builders nested too deep' };
  const w = written(ev, file, e, depth);
  const x = w.expr;
  if (x.k === 'member' && x.prop === 'procedure' && ofTrpc(ev.eval(w.file, x.obj))) return null;
  if (x.k === 'choice') {
    const holds = truthOf(ev, w.file, x.test);
    if (holds !== null) return openApiMeta(ev, w.file, holds ? x.then : x.otherwise, depth + 1);
    const a = openApiMeta(ev, w.file, x.then, depth + 1);
    const b = openApiMeta(ev, w.file, x.otherwise, depth + 1);
    return a === null && b === null ? null : { why: 'its builder is chosen by a test not known statically' };
  }
  if (x.k !== 'call') return { why: 'its builder is not known statically' };
  const callee = x.callee;
  if (callee.k !== 'member' || !STEPS.has(callee.prop)) {
    // a function of the analysed code returning the builder (`requiresPermission('admin')`, `onboardingProcedure.requiresStep('user')`)
    const made = returnedBy(ev, w.file, x);
    return made ? openApiMeta(ev, made.file, made.expr, depth + 1) : { why: 'its builder is not known statically' };
  }
  const arg = x.args[0];
  if (callee.prop === 'meta' && arg) {
    const m = written(ev, w.file, arg, depth);
    if (m.expr.k !== 'obj' || Object.keys(m.expr.props).some((k) => k.startsWith('*spread*'))) return { why: 'a meta of its builder is not an object written out' };
    if ('openapi' in m.expr.props) return { file: m.file, expr: m.expr.props['openapi']! };
  } else if (CONCAT.has(callee.prop) && arg) {
    const given = openApiMeta(ev, w.file, arg, depth + 1);
    if (given !== null) return given;
  }
  return openApiMeta(ev, w.file, callee.obj, depth + 1);
}
