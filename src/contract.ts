import path from 'node:path';
import { UsageError } from './errors.js';
import { parseJson, readText } from './json-file.js';
import { contractFromOpenApi, isOpenApiDocument } from './openapi.js';

export interface ContractRoute {
  method: string;
  path: string;
  /** 'public' needs no authentication; anything else (e.g. 'session') does */
  auth: string;
  tenantScoped: boolean;
  resource: string;
  /** where the route is written, for findings about it */
  line: number;
}

export interface Contract {
  name: string;
  version: string;
  routes: ContractRoute[];
  excludedFamilies: Record<string, string[]>;
  /** shown as the file of contract-level findings */
  source: string;
}

/** The contract route a route was matched to (Route.contractRoute, `METHOD PATH`), if any. */
export function contractRouteOf(contract: Contract, key: string | null | undefined): ContractRoute | undefined {
  return key ? contract.routes.find((x) => `${x.method} ${x.path}` === key) : undefined;
}

export const BUILTIN_CONTRACT_ID = 'builtin:browser-control-plane@1';

export const DEFAULT_FAMILIES: Record<string, string[]> = {
  internal: ['internal', '_internal'],
  ops: ['ops', 'operations'],
  webhook: ['webhook', 'webhooks'],
  compiler: ['compiler'],
  'provider-token': ['provider-token', 'provider-tokens', 'provider_token', 'provider_tokens', 'providerToken', 'providerTokens'],
  edge: ['edge'],
};

/** Browser Control-Plane Contract v1, route table as published (paths exactly as written). */
export function builtinContract(): Contract {
  const rows: [string, string, string, boolean, string][] = [
    ['GET', '/api/health/ready', 'public', false, 'readiness'],
    ['GET', '/api/auth/me/', 'session', true, 'identity'],
    ['GET', '/api/sites/', 'session', true, 'site'],
    ['GET', '/api/deployments/', 'session', true, 'deployment'],
    ['GET', '/api/databases/', 'session', true, 'database'],
  ];
  return {
    name: 'browser-control-plane',
    version: '1.0.0',
    routes: rows.map(([method, p, auth, tenantScoped, resource], i) => ({ method, path: p, auth, tenantScoped, resource, line: i + 1 })),
    excludedFamilies: structuredClone(DEFAULT_FAMILIES),
    source: BUILTIN_CONTRACT_ID,
  };
}

const ROUTE_KEYS = new Set(['method', 'path', 'auth', 'tenantScoped', 'resource']);
const TOP_KEYS = new Set(['name', 'version', 'routes', 'excludedFamilies', '$schema']);

export function loadContract(spec: string | undefined, cwd: string): Contract {
  if (!spec || spec === BUILTIN_CONTRACT_ID) return builtinContract();
  if (spec.startsWith('builtin:')) throw new UsageError(`unknown built-in contract ${spec} (known: ${BUILTIN_CONTRACT_ID})`);
  const abs = path.resolve(cwd, spec);
  const shown = path.relative(cwd, abs).split(path.sep).join('/');
  const text = readText(abs, 'contract', shown);
  // OpenAPI 3 (YAML, or JSON with an "openapi" key): see openapi.ts for the mapping.
  if (/\.ya?ml$/i.test(abs)) return contractFromOpenApi(text, shown);
  const data = parseJson(text, shown, 'contract');
  if (isOpenApiDocument(data)) return contractFromOpenApi(text, shown);
  return contractFromJson(data, text, shown);
}

function fail(file: string, msg: string): never {
  throw new UsageError(`${file}: invalid contract: ${msg}`);
}

function lineOf(text: string, needle: string): number {
  const i = text.indexOf(needle);
  return i < 0 ? 1 : text.slice(0, i).split('\n').length;
}

export function contractFromJson(data: unknown, text: string, file: string): Contract {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(file, 'the top level must be an object');
  const d = data as Record<string, unknown>;
  for (const k of Object.keys(d)) if (!TOP_KEYS.has(k)) fail(file, `unknown key "${k}"`);
  if (typeof d.name !== 'string' || d.name === '') fail(file, 'key "name" must be a non-empty string');
  if (typeof d.version !== 'string') fail(file, 'key "version" must be a string');
  if (!Array.isArray(d.routes)) fail(file, 'key "routes" must be an array');
  let families = structuredClone(DEFAULT_FAMILIES);
  if (d.excludedFamilies !== undefined) {
    const ef = d.excludedFamilies;
    if (typeof ef !== 'object' || ef === null || Array.isArray(ef)) fail(file, 'key "excludedFamilies" must be an object');
    families = {};
    for (const [k, v] of Object.entries(ef)) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === ''))
        fail(file, `key "excludedFamilies.${k}" must be an array of path segments`);
      families[k] = v as string[];
    }
  }
  const seen = new Set<string>();
  const routes: ContractRoute[] = d.routes.map((r: unknown, i: number) => {
    const key = `routes[${i}]`;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) fail(file, `key "${key}" must be an object`);
    const o = r as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!ROUTE_KEYS.has(k)) fail(file, `unknown key "${key}.${k}"`);
    if (typeof o.method !== 'string' || !/^[A-Za-z]+$/.test(o.method)) fail(file, `key "${key}.method" must be an HTTP method`);
    if (typeof o.path !== 'string' || !o.path.startsWith('/')) fail(file, `key "${key}.path" must be a path starting with /`);
    if (o.auth !== undefined && typeof o.auth !== 'string') fail(file, `key "${key}.auth" must be a string`);
    if (o.tenantScoped !== undefined && typeof o.tenantScoped !== 'boolean') fail(file, `key "${key}.tenantScoped" must be a boolean`);
    if (o.resource !== undefined && typeof o.resource !== 'string') fail(file, `key "${key}.resource" must be a string`);
    const method = o.method.toUpperCase();
    const id = `${method} ${o.path}`;
    if (seen.has(id)) fail(file, `key "${key}" duplicates the route ${id}`);
    seen.add(id);
    const auth = (o.auth as string | undefined) ?? 'session';
    return {
      method,
      path: o.path,
      auth,
      tenantScoped: (o.tenantScoped as boolean | undefined) ?? auth !== 'public',
      resource: (o.resource as string | undefined) ?? '',
      line: lineOf(text, JSON.stringify(o.path)),
    };
  });
  for (const [i, r] of routes.entries()) {
    const fam = familyOf(r.path, families);
    if (fam) fail(file, `key "routes[${i}].path" (${r.path}) is in the excluded family "${fam}"`);
  }
  return { name: d.name, version: d.version, routes, excludedFamilies: families, source: file };
}

/** The excluded family a full path belongs to, matched on its segments (case-insensitive). */
export function familyOf(p: string, families: Record<string, string[]>): string | null {
  return familyMatcher(families)(p);
}

/** `familyOf` for many paths: the families' tokens lower-cased once. */
export function familyMatcher(families: Record<string, string[]>): (p: string) => string | null {
  const lowered = Object.entries(families).map(([fam, tokens]) => [fam, new Set(tokens.map((t) => t.toLowerCase()))] as const);
  return (p) => {
    const segs = p.toLowerCase().split('/').filter(Boolean);
    for (const [fam, tokens] of lowered) if (segs.some((s) => tokens.has(s))) return fam;
    return null;
  };
}
