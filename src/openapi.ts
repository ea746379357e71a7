/**
 * OpenAPI 3 documents (JSON or YAML) as contracts.
 *
 * - Every operation under `paths` is a contract route: its method, and its path with
 *   `{name}` written `:name`, prefixed by the base path of its server: the first entry of
 *   the most specific `servers` list (operation, then path item, then document) whose URL has
 *   a path (`https://api.example.com/v1` → `/v1`; server variables take their defaults).
 * - Auth: the operation's `security`, else the document's. No requirement, an empty list,
 *   or a list allowing anonymous access (`{}`) means `public`; anything else `session`.
 * - Tenancy: `x-route-surface-tenant-scoped: true|false` on the operation, else its path
 *   item, else the document; without it, a non-public route is tenant-scoped (as in JSON
 *   contracts). Tags are not used: they group documentation and say nothing of tenancy.
 * - Resource: `x-route-surface-resource` (operation, then path item), e.g. `database`.
 * - Excluded families: `x-route-surface-excluded-families` at the top level, shaped like
 *   `excludedFamilies` in a JSON contract; the default families otherwise.
 * Errors name the file and the JSON pointer of what is wrong.
 */
import { createRequire } from 'node:module';
import type { Document, LineCounter } from 'yaml';
import { DEFAULT_FAMILIES, familyOf, type Contract, type ContractRoute } from './contract.js';
import { UsageError } from './errors.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const EXT_TENANT = 'x-route-surface-tenant-scoped';
const EXT_RESOURCE = 'x-route-surface-resource';
const EXT_FAMILIES = 'x-route-surface-excluded-families';

type Obj = Record<string, unknown>;
type Fail = (segments: (string | number)[], msg: string) => never;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON pointer from path segments (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointer(segments: (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('') || '/';
}

export function isOpenApiDocument(data: unknown): boolean {
  return isObj(data) && ('openapi' in data || 'swagger' in data);
}

export function contractFromOpenApi(text: string, file: string): Contract {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax) {
    const at = lineCounter.linePos(syntax.pos[0]);
    throw new UsageError(`${file}:${at.line}:${at.col}: invalid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'} in contract: ${syntax.message.split('\n')[0]}`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new UsageError(`${file}: invalid contract: ${(err as Error).message}`);
  }
  const fail: Fail = (segments, msg) => {
    throw new UsageError(`${file}: invalid contract at ${pointer(segments)}: ${msg}`);
  };
  if (!isObj(data)) fail([], 'the top level must be an object');
  const d = data as Obj;
  if ('swagger' in d && !('openapi' in d)) fail(['swagger'], 'Swagger 2.0 is not supported; convert the document to OpenAPI 3');
  if (d.openapi === undefined) fail(['openapi'], 'is missing: a YAML contract must be an OpenAPI 3 document');
  if (typeof d.openapi !== 'string' || !/^3\.\d+(\.\d+)?(-.+)?$/.test(d.openapi)) fail(['openapi'], 'must be an OpenAPI 3 version such as "3.0.3" or "3.1.0"');
  if (!isObj(d.info)) fail(['info'], 'must be an object with a title and a version');
  const info = d.info as Obj;
  if (typeof info.title !== 'string' || info.title === '') fail(['info', 'title'], 'must be a non-empty string');
  if (typeof info.version !== 'string') fail(['info', 'version'], 'must be a string');

  let families = structuredClone(DEFAULT_FAMILIES);
  if (d[EXT_FAMILIES] !== undefined) {
    const ef = d[EXT_FAMILIES];
    if (!isObj(ef)) fail([EXT_FAMILIES], 'must be an object of family → path segments');
    families = {};
    for (const [k, v] of Object.entries(ef as Obj)) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === '')) fail([EXT_FAMILIES, k], 'must be an array of path segments');
      families[k] = v as string[];
    }
  }
  const docTenant = d[EXT_TENANT];
  if (docTenant !== undefined && typeof docTenant !== 'boolean') fail([EXT_TENANT], 'must be true or false');

  if (d.paths !== undefined && !isObj(d.paths)) fail(['paths'], 'must be an object');
  const routes: ContractRoute[] = [];
  const seen = new Map<string, string>();
  for (const [p, rawItem] of Object.entries((d.paths as Obj | undefined) ?? {})) {
    const itemAt = ['paths', p];
    if (!p.startsWith('/')) fail(itemAt, 'a path must start with /');
    const item = resolveRef(d, rawItem, itemAt, fail);
    if (!isObj(item)) fail(itemAt, 'a path item must be an object');
    const itemTenant = item[EXT_TENANT];
    if (itemTenant !== undefined && typeof itemTenant !== 'boolean') fail([...itemAt, EXT_TENANT], 'must be true or false');
    for (const m of METHODS) {
      if (item[m] === undefined) continue;
      const at = [...itemAt, m];
      const op = item[m];
      if (!isObj(op)) fail(at, 'an operation must be an object');
      const security = op.security !== undefined ? op.security : d.security;
      const securityAt = op.security !== undefined ? [...at, 'security'] : ['security'];
      if (security !== undefined && (!Array.isArray(security) || security.some((s) => !isObj(s)))) fail(securityAt, 'must be an array of security requirement objects');
      const reqs = (security as Obj[] | undefined) ?? [];
      const auth = reqs.length === 0 || reqs.some((r) => Object.keys(r).length === 0) ? 'public' : 'session';
      const tenant = op[EXT_TENANT] ?? itemTenant ?? docTenant;
      if (tenant !== undefined && typeof tenant !== 'boolean') fail([...at, EXT_TENANT], 'must be true or false');
      const resource = op[EXT_RESOURCE] ?? item[EXT_RESOURCE];
      if (resource !== undefined && typeof resource !== 'string') fail([...(op[EXT_RESOURCE] !== undefined ? at : itemAt), EXT_RESOURCE], 'must be a string');
      const servers = op.servers ?? item.servers ?? d.servers;
      const serversAt = op.servers !== undefined ? [...at, 'servers'] : item.servers !== undefined ? [...itemAt, 'servers'] : ['servers'];
      const base = basePath(servers, serversAt, fail);
      const full = joinBase(base, p.replace(/\{([^}]+)\}/g, ':$1'));
      const method = m.toUpperCase();
      const id = `${method} ${full}`;
      if (seen.has(id)) fail(at, `duplicates the route ${id} (also at ${seen.get(id)})`);
      seen.set(id, pointer(at));
      const fam = familyOf(full, families);
      if (fam) fail(at, `${id} is in the excluded family "${fam}"; excluded routes must not be in the contract`);
      routes.push({
        method,
        path: full,
        auth,
        tenantScoped: (tenant as boolean | undefined) ?? auth !== 'public',
        resource: (resource as string | undefined) ?? '',
        line: keyLine(doc, lineCounter, at),
      });
    }
  }
  return { name: info.title as string, version: info.version as string, routes, excludedFamilies: families, source: file };
}

/** A path item may be a local `$ref` (`#/components/pathItems/x`); external refs must be bundled first. */
function resolveRef(root: Obj, v: unknown, at: (string | number)[], fail: Fail): unknown {
  let cur = v;
  for (let hops = 0; isObj(cur) && typeof cur.$ref === 'string'; hops++) {
    const ref = cur.$ref;
    if (hops > 16) fail(at, `$ref cycle through ${ref}`);
    if (!ref.startsWith('#/')) fail([...at, '$ref'], `external $ref ${ref} is not supported; bundle the document first`);
    let target: unknown = root;
    for (const seg of ref.slice(2).split('/')) {
      const key = decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObj(target) ? target[key] : undefined;
    }
    if (target === undefined) fail([...at, '$ref'], `${ref} does not exist in the document`);
    cur = target;
  }
  return cur;
}

/** The base path of the first server, without its trailing slash ('' for none). */
function basePath(servers: unknown, at: (string | number)[], fail: Fail): string {
  if (servers === undefined) return '';
  if (!Array.isArray(servers)) fail(at, 'must be an array of server objects');
  const first = (servers as unknown[])[0];
  if (first === undefined) return '';
  if (!isObj(first) || typeof first.url !== 'string') fail([...at, 0, 'url'], 'must be a string');
  const server = first as Obj;
  const vars = isObj(server.variables) ? server.variables : {};
  const url = (server.url as string).replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = vars[name];
    if (!isObj(v) || typeof v.default !== 'string') fail([...at, 0, 'variables', name, 'default'], `server variable {${name}} needs a string default`);
    return (v as Obj).default as string;
  });
  let p: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      p = new URL(url).pathname;
    } catch {
      fail([...at, 0, 'url'], `not a valid URL: ${url}`);
    }
  } else {
    p = url.replace(/[?#].*$/, '');
    if (p === '.' || p === './') p = '';
    else if (p !== '' && !p.startsWith('/')) p = '/' + p.replace(/^\.\//, '');
  }
  return p.replace(/\/+$/, '');
}

function joinBase(base: string, p: string): string {
  return base === '' ? p : base + p;
}

/** The line of the key that names `segments` (the method key of an operation), else of its nearest parent written in the file. */
/** The YAML parser, loaded only for an OpenAPI contract (not on every run). */
const requireHere = createRequire(import.meta.url);
const yaml = (): typeof import('yaml') => requireHere('yaml') as typeof import('yaml');

function keyLine(doc: Document, lc: LineCounter, segments: string[]): number {
  for (let n = segments.length; n > 0; n--) {
    const parent = doc.getIn(segments.slice(0, n - 1), true);
    const last = segments[n - 1];
    const { isMap, isScalar } = yaml();
    if (!isMap(parent)) continue;
    const pair = parent.items.find((it) => isScalar(it.key) && it.key.value === last);
    const range = pair && isScalar(pair.key) ? pair.key.range : null;
    if (range) return lc.linePos(range[0]).line;
  }
  return 1;
}
