/**
 * `route-surface explain "METHOD PATH"`: why a route has or lacks each guard. For every
 * route that serves the request (under its framework's matching: trailing slash, case,
 * parameters, `ALL`), it shows where the route is registered, each prefix it inherits
 * (file and line), each guard applied and the mechanism that applies it, the guards
 * expected by its classification and whether they are there, the contract row it maps to,
 * and its findings. `check --verbose` prints the same text under each finding.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChalkInstance } from 'chalk';
import { RULES } from '../../rules/index.js';
import { routeLabel } from '../rule.js';
import { methodServes, samePath } from '../classify.js';
import { isWildcard } from '../adapters/paths.js';
import { contractRouteOf, type Contract, type ContractRoute } from '../contract.js';
import type { RunResult } from '../engine.js';
import { UsageError } from '../errors.js';
import type { AppliedGuard, Finding, GuardMechanism, Route } from '../types.js';
import { expectations } from './expect.js';
import { levenshtein } from './similar.js';

export interface RequestSpec {
  /** upper case; null: any method */
  method: string | null;
  path: string;
}

/** "GET /api/sites/", "get /api/sites/" or "/api/sites/" (every method). */
export function parseRequestSpec(s: string): RequestSpec {
  const parts = s.trim().split(/\s+/);
  if (parts.length === 1 && parts[0]!.startsWith('/')) return { method: null, path: parts[0]! };
  if (parts.length === 2 && /^[A-Za-z]+$/.test(parts[0]!) && parts[1]!.startsWith('/')) return { method: parts[0]!.toUpperCase(), path: parts[1]! };
  throw new UsageError(`explain: expected "METHOD /path" or "/path", got "${s}"`);
}

function label(r: { method: string; path: string }): string {
  return `${r.method} ${r.path}`;
}

function specLabel(s: RequestSpec): string {
  return s.method ? `${s.method} ${s.path}` : s.path;
}

/**
 * The routes that serve the request under their framework's matching rules. Fastify's router
 * (find-my-way) answers a request with one route of an app, the most specific: at each segment
 * a static one before a parametric one before a wildcard (its README, "Match order"), so of an
 * app's Fastify routes serving one method only that one is; other routers run every route that
 * matches, in registration order.
 */
export function routesServing(routes: Route[], spec: RequestSpec): Route[] {
  const serving = routes.filter(
    (r) => (spec.method === null || methodServes(r.method, spec.method)) && samePath(r.path, spec.path, r.trailingSlashInsensitive, !r.caseSensitive),
  );
  const best = new Map<string, string>();
  // (per method asked for; with none, per method of each route)
  const keyOf = (r: Route): string | null => (r.framework === 'fastify' ? `${r.app}\0${r.method === 'ALL' && spec.method !== null ? spec.method : r.method}` : null);
  for (const r of serving) {
    const k = keyOf(r);
    if (k === null) continue;
    const rank = specificity(r.path);
    const held = best.get(k);
    if (held === undefined || rank < held) best.set(k, rank);
  }
  return serving.filter((r) => {
    const k = keyOf(r);
    return k === null || specificity(r.path) === best.get(k);
  });
}

/** How find-my-way ranks a path among those matching a request: per segment, 0 static, 1 parametric, 2 wildcard (lower first). */
function specificity(p: string): string {
  return p
    .split('/')
    .filter((x) => x !== '')
    .map((seg) => (isWildcard(seg) ? '2' : seg.includes(':') ? '1' : '0'))
    .join('');
}

/** Up to `n` routes whose "METHOD PATH" is close to the request, closest first. */
export function nearMatches(routes: Route[], spec: { method: string | null; path: string }, n = 3): string[] {
  const target = spec.path.toLowerCase();
  const limit = Math.max(3, Math.floor(target.length / 3));
  const scored = new Map<string, number>();
  for (const r of routes) {
    const d = levenshtein(target, r.path.toLowerCase()) + (spec.method && !methodServes(r.method, spec.method) ? 1 : 0);
    const key = label(r);
    if (d <= limit && d < (scored.get(key) ?? Infinity)) scored.set(key, d);
  }
  return [...scored].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, n).map(([k]) => k);
}

/** Reads source lines relative to the project root, once per file. */
export class SourceLines {
  private cache = new Map<string, string[] | null>();

  constructor(private readonly cwd: string) {}

  lines(file: string): string[] | null {
    if (!this.cache.has(file)) {
      let text: string | null = null;
      if (!file.startsWith('builtin:')) {
        try {
          text = fs.readFileSync(path.resolve(this.cwd, file), 'utf8');
        } catch {
          text = null;
        }
      }
      this.cache.set(file, text === null ? null : text.split(/\r?\n/));
    }
    return this.cache.get(file)!;
  }

  line(file: string, line: number): string | null {
    const l = this.lines(file)?.[line - 1];
    return l === undefined ? null : l.trim();
  }
}

const MECHANISM: Record<GuardMechanism, string> = {
  'route-middleware': 'route middleware',
  'router.use': 'router.use() before the route',
  'app.use': 'app.use() before the route',
  'mount-middleware': 'middleware of the mount',
  'pass-through-route': 'an earlier route on a matching path that passes the request on with next()',
  'router.param': 'router.param() callback for a parameter of the path',
  'in-handler': 'called at the top of the handler',
  'global-guard': 'global guard (useGlobalGuards / APP_GUARD)',
  'controller-guard': 'a decorator on the controller class (@UseGuards; routing-controllers: @UseBefore, @Authorized)',
  'method-guard': 'a decorator on the handler method or its parameter (@UseGuards; routing-controllers: @UseBefore, @Authorized, a required @CurrentUser)',
  'module-middleware': 'module middleware (consumer.apply().forRoutes())',
  'wrapper': 'wrapper around the exported handler',
  'next-middleware': 'middleware.ts whose matcher matches the route',
};

function ruleContract(id: string): string {
  return RULES.find((r) => r.meta.id === id)?.meta.contract ?? '';
}

function contractRow(c: ContractRoute, contract: Contract): string {
  const where = contract.source.startsWith('builtin:') ? `${contract.source}, route table row ${c.line}` : `${contract.source}:${c.line}`;
  const bits = [`auth ${c.auth}`, c.tenantScoped ? 'tenant-scoped' : 'not tenant-scoped', ...(c.resource ? [`resource ${c.resource}`] : [])];
  return `${c.method} ${c.path} (${bits.join(', ')}) — ${where}`;
}

function classificationText(r: Route, contract: Contract): string {
  switch (r.classification) {
    case 'contract':
      if (r.contractMatch === 'drift') return `contract — a drifted form of ${r.contractRoute}: ${r.driftReason}`;
      if (r.contractMatch === 'served') return `contract — serves ${r.contractRoute} under ${r.framework}'s matching rules`;
      return `contract — serves ${r.contractRoute} exactly`;
    case 'public':
      return contractRouteOf(contract, r.contractRoute)?.auth === 'public' ? `public — the contract makes ${r.contractRoute} public` : 'public — listed in publicRoutes (config)';
    case 'excluded':
      return `excluded — in the excluded family "${r.family}" (a path segment matches ${JSON.stringify(contract.excludedFamilies[r.family!] ?? [r.family])})`;
    default:
      return 'browser — on the browser surface and not in the contract';
  }
}

/**
 * Findings about this route: carried by it, in its file or its handler's file — but not one
 * reported where another route of that method and path is registered and this one is not (two
 * apps serving one path from one file: code-server's `router.get('/')` and `wsRouter.ws('/')`).
 */
export function findingsOf(r: Route, findings: Finding[], peers: readonly Route[]): Finding[] {
  const at = (x: Route, f: Finding): boolean => x.file === f.file && x.line === f.line && x.column === f.column;
  const another = (f: Finding): boolean => !at(r, f) && peers.some((x) => x !== r && x.method === r.method && x.path === r.path && at(x, f));
  return findings.filter((f) => f.route && f.route.method === r.method && f.route.path === r.path && (f.file === r.file || f.file === r.handlerFn?.file) && !another(f));
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (i < r.length - 1 ? r[i]!.length : 0))));
  return rows.map((r) => r.map((x, i) => (i < r.length - 1 ? x.padEnd(widths[i]!) : x)).join('  ').trimEnd());
}

/** Fastify applies hooks, not middleware: the same mechanisms said in its words. */
const FASTIFY_MECHANISM: Partial<Record<GuardMechanism, string>> = {
  'route-middleware': "a hook of the route's own options (onRequest, preValidation, preHandler)",
  'router.use': 'a hook of the plugin context the route is declared in, or of one enclosing it (addHook)',
  'app.use': 'a hook of the root context (addHook)',
};

/** Elysia runs lifecycle hooks, not middleware: the same mechanisms said in its words. */
const ELYSIA_MECHANISM: Partial<Record<GuardMechanism, string>> = {
  'route-middleware': "a hook of the route's own options, its group's or guard's, or of a macro it names (beforeHandle, resolve, derive)",
  'router.use': "a lifecycle hook of the instance the route was added to, registered before it (onBeforeHandle, derive, resolve, onRequest, guard), or a plugin's scoped or global one",
};

const FRAMEWORK_MECHANISM: Record<string, Partial<Record<GuardMechanism, string>>> = { fastify: FASTIFY_MECHANISM, elysia: ELYSIA_MECHANISM };

function guardRows(guards: AppliedGuard[], framework: string): string[][] {
  const said = (m: GuardMechanism): string => FRAMEWORK_MECHANISM[framework]?.[m] ?? MECHANISM[m];
  return guards.map((g) => [g.name, g.kinds.join('+') + (g.families.length > 0 && g.kinds.includes('family') ? `(${g.families.join(',')})` : ''), said(g.mechanism), `${g.file}:${g.line}`, g.reason]);
}

function groupBy<T>(items: T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const list = out.get(key(x));
    if (list) list.push(x);
    else out.set(key(x), [x]);
  }
  return out;
}

/**
 * The explanation of one route, as lines (no trailing newline); `candidates`: findings that may be
 * about it; `peers`: the routes of its method and path (findingsOf).
 */
export function explainRoute(r: Route, res: RunResult, src: SourceLines, c: ChalkInstance, candidates: Finding[], peers: readonly Route[]): string[] {
  const out: string[] = [];
  const field = (name: string, lines: string[]): void => {
    lines.forEach((l, i) => out.push(`  ${(i === 0 ? name : '').padEnd(10)}  ${l}`));
  };
  out.push(c.bold(routeLabel(r)));
  field('app', [`${r.app} (${r.framework})`]);
  field('registered', [`${r.file}:${r.line}:${r.column}  ${c.dim(r.snippet.trim())}`]);
  if (r.handler || r.handlerFn) field('handler', [`${r.handler ?? '(inline function)'}${r.handlerFn && r.handlerFn.file !== r.file ? `  ${r.handlerFn.file}` : ''}`]);
  field(
    'prefixes',
    r.prefixes.length === 0
      ? ['none (registered with its full path)']
      : table(r.prefixes.map((p) => [p.unknown !== undefined ? `(not known statically: ${p.unknown})${p.prefix}` : p.prefix === '' ? '(no path)' : p.prefix, `${p.file}:${p.line}`, c.dim(src.line(p.file, p.line) ?? '')])),
  );
  field('class', [classificationText(r, res.contract)]);
  const cr = contractRouteOf(res.contract, r.contractRoute);
  if (cr) field('contract', [contractRow(cr, res.contract)]);
  else if (r.classification === 'excluded') field('contract', [`excluded: ${ruleContract('excluded-family-leak')}`]);
  else if (r.classification === 'browser') field('contract', [`not in the contract: ${ruleContract('uncontracted-route')}`]);
  else field('contract', ['not in the contract']);
  field('guards', r.guards.length === 0 ? ['none'] : table(guardRows(r.guards, r.framework)));
  const conditional = r.conditionalGuards ?? [];
  if (conditional.length > 0)
    field('only when', table(guardRows(conditional, r.framework).map((row, i) => [...row.slice(0, -1), `${row[row.length - 1]}; applied only when ${conditional[i]!.when}, not known statically`])));
  const skipping = r.skippedGuards ?? [];
  if (skipping.length > 0) field('allowlist', table(guardRows(skipping, r.framework).map((row, i) => [...row.slice(0, -1), `${row[row.length - 1]}; lets through untouched ${skipping[i]!.skips}`])));
  const exp = expectations(r, res.contract);
  const unknown = [...new Set(r.guards.filter((g) => g.kinds.includes('unknown') && !g.exceptionsUnknown).map((g) => g.name))];
  const unread = [...new Set(r.guards.filter((g) => g.exceptionsUnknown).map((g) => g.name))];
  field(
    'expected',
    exp.length === 0
      ? ['no guard (nothing is expected of this route)']
      : exp.map((e) => {
          const names = [...new Set(e.guards.map((g) => g.name))].join(', ');
          if (e.kind === 'no-auth')
            return e.met ? `${c.green('✔')} no auth guard — ${e.because}` : `${c.red('✖')} no auth guard — but guarded by ${names}; ${e.because} (${e.ruleId})`;
          if (e.met) return `${c.green('✔')} ${e.kind.padEnd(6)} ${names}`;
          const maybe = conditional.filter((g) => g.kinds.includes(e.kind as never)).map((g) => `${g.name} only when ${g.when}`);
          const skipped = skipping.filter((g) => g.kinds.includes(e.kind as never)).map((g) => `${g.name} lets through untouched ${g.skips}`);
          const hint =
            (unknown.length > 0 ? `; unclassified middleware that may be one: ${unknown.join(', ')}` : '') +
            (unread.length > 0 ? `; may be one, but lets through requests not known statically: ${unread.join(', ')}` : '') +
            (maybe.length > 0 ? `; applied under a condition not known statically: ${maybe.join(', ')}` : '') +
            (skipped.length > 0 ? `; ${skipped.join(', ')}` : '');
          return `${c.red('✖')} ${e.kind.padEnd(6)} missing (${e.ruleId}) — ${e.because}; contract: ${ruleContract(e.ruleId)}${hint}`;
        }),
  );
  const mine = findingsOf(r, candidates, peers);
  field(
    'findings',
    mine.length === 0
      ? ['none']
      : mine.map((f) => {
          const sev = f.severity === 'error' ? c.red(f.severity) : f.severity === 'warning' ? c.yellow(f.severity) : c.blue(f.severity);
          return `${sev} ${f.ruleId} ${f.file}:${f.line}:${f.column} ${f.message}`;
        }),
  );
  return out;
}

/** Explain every route serving the request; a request no route serves is a usage error listing near matches. */
export function formatExplain(res: RunResult, spec: RequestSpec, cwd: string, c: ChalkInstance): string {
  const routes = routesServing(res.routes, spec);
  if (routes.length === 0) {
    const near = nearMatches(res.routes, spec);
    throw new UsageError(`no route serves ${specLabel(spec)} (${near.length > 0 ? `near matches: ${near.join(', ')}` : 'no near match; see route-surface list'})`);
  }
  const src = new SourceLines(cwd);
  const out: string[] = [];
  if (routes.length > 1) {
    const apps = [...new Set(routes.map((r) => r.app))];
    out.push(`${specLabel(spec)} is served by ${routes.length} routes${apps.length > 1 ? ` in ${apps.length} apps (${apps.join(', ')})` : ''}:`, '');
  }
  routes.forEach((r, i) => {
    if (i > 0) out.push('');
    out.push(...explainRoute(r, res, src, c, res.findings, routes));
  });
  return out.join('\n') + '\n';
}

/**
 * For `check --verbose`: the explanation under a finding. A route is explained under its
 * first finding; later findings on it refer back. A missing contract route shows its
 * contract row and the nearest served routes.
 */
export function findingExplainer(res: RunResult, cwd: string, c: ChalkInstance): (f: Finding) => string[] {
  const src = new SourceLines(cwd);
  const explained = new Set<Route>();
  const byLabel = groupBy(res.routes, label);
  const findingsByLabel = groupBy(
    res.findings.filter((f) => f.route),
    (f) => label(f.route!),
  );
  return (f) => {
    if (f.route) {
      // (the route registered where the finding is, else the first in its file or its handler's)
      const same = byLabel.get(label(f.route)) ?? [];
      const r = same.find((x) => f.file === x.file && f.line === x.line && f.column === x.column) ?? same.find((x) => f.file === x.file || f.file === x.handlerFn?.file);
      if (!r) return [];
      if (explained.has(r)) return [`  (${label(r)} is explained above)`];
      explained.add(r);
      return explainRoute(r, res, src, c, findingsByLabel.get(label(r)) ?? [], same);
    }
    if (f.ruleId === 'contract-route-missing' && f.file === res.contract.source) {
      const cr = res.contract.routes.find((x) => x.line === f.line);
      if (!cr) return [];
      const near = nearMatches(res.routes, cr);
      return [`  contract    ${contractRow(cr, res.contract)}`, `  served      ${near.length > 0 ? `no; nearest routes: ${near.join(', ')}` : 'no; no analysed route is close'}`];
    }
    return [];
  };
}
