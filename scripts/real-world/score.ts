/**
 * Scoring route-surface against an independently established route list (a "truth" file
 * under test/real-world/). Pure functions: parsing, path normalisation, matching, scoring.
 *
 * A truth file is tab-separated text:
 *
 *   # repository: owner/name
 *   # commit: <40 hex>
 *   # root: packages/server        (the directory the tool is run in; '.' = the checkout)
 *   # paths: src                   (optional: what the tool is pointed at, relative to root)
 *   # exclude: <globs>           (optional: the config's `exclude`, e.g. test files, that a user of the repo would set)
 *   # source: how the list was established
 *   method	path	file	line	auth
 *   GET	/api/links	server/routes/link.routes.js	14	yes
 *
 * `file` is relative to the checkout; `auth` is `yes` when no request without valid
 * credentials (a session, a token, an API key, or the login form's password) reaches the
 * route's handler — it is rejected (401) or redirected to log in first — and `no` otherwise
 * (public routes, and optional authentication that lets anonymous requests through).
 */

export interface TruthRoute {
  method: string;
  path: string;
  file: string;
  line: number;
  auth: boolean;
}

export interface Truth {
  repository: string;
  commit: string;
  root: string;
  paths: string[];
  exclude: string[];
  source: string;
  routes: TruthRoute[];
}

export interface ToolRoute {
  method: string;
  path: string;
  file: string;
  line: number;
  auth: boolean;
}

export class TruthFormatError extends Error {}

const HEADER = ['method', 'path', 'file', 'line', 'auth'];

export function parseTruth(text: string, name: string): Truth {
  const meta: Record<string, string> = {};
  const routes: TruthRoute[] = [];
  let sawHeader = false;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line === '') return;
    const m = /^#\s*([a-z]+):\s*(.*)$/.exec(line);
    if (m) {
      meta[m[1]!] = m[2]!.trim();
      return;
    }
    if (line.startsWith('#')) return;
    const cols = line.split('\t');
    if (!sawHeader) {
      if (cols.join(',') !== HEADER.join(',')) throw new TruthFormatError(`${name}:${i + 1}: expected the header "${HEADER.join('\\t')}"`);
      sawHeader = true;
      return;
    }
    if (cols.length !== HEADER.length) throw new TruthFormatError(`${name}:${i + 1}: expected ${HEADER.length} tab-separated columns, found ${cols.length}`);
    const [method, path, file, lineNo, auth] = cols as [string, string, string, string, string];
    if (!/^[A-Z]+$/.test(method)) throw new TruthFormatError(`${name}:${i + 1}: method "${method}" is not upper-case letters`);
    if (!path.startsWith('/') && path !== '*') throw new TruthFormatError(`${name}:${i + 1}: path "${path}" neither starts with / nor is *`);
    if (!/^[1-9]\d*$/.test(lineNo)) throw new TruthFormatError(`${name}:${i + 1}: line "${lineNo}" is not a positive integer`);
    if (auth !== 'yes' && auth !== 'no') throw new TruthFormatError(`${name}:${i + 1}: auth "${auth}" is neither yes nor no`);
    routes.push({ method, path, file, line: Number(lineNo), auth: auth === 'yes' });
  });
  for (const key of ['repository', 'commit', 'root'])
    if (!meta[key]) throw new TruthFormatError(`${name}: missing the "# ${key}: …" line`);
  if (!/^[0-9a-f]{40}$/.test(meta.commit!)) throw new TruthFormatError(`${name}: commit "${meta.commit}" is not a 40-digit hex id`);
  if (!sawHeader) throw new TruthFormatError(`${name}: no header line`);
  return {
    repository: meta.repository!,
    commit: meta.commit!,
    root: meta.root!,
    paths: meta.paths ? meta.paths.split(/\s+/).filter(Boolean) : [],
    exclude: meta.exclude ? meta.exclude.split(/\s+/).filter(Boolean) : [],
    source: meta.source ?? '',
    routes,
  };
}

/**
 * One spelling for every framework's path syntax, so that only the route itself is compared:
 * parameters (`:id`, `:id(\\d+)`, `:id?`, `{id}`, `[id]`) become `:`, catch-alls (`*`, `:p*`,
 * `{*p}`, `[...p]`, `[[...p]]`) become `*`, and a trailing slash is dropped (every analysed
 * framework's router either serves both forms or redirects one to the other; the tool reports
 * the form as written, which is compared here only up to that slash).
 */
export function normalisePath(path: string): string {
  const p = path.startsWith('/') ? path : '/' + path; // Express 4 writes a catch-all as '*'
  const segs = p.split('/').filter((s, i, all) => s !== '' || i === 0 || i === all.length - 1);
  const out = segs.map((s) => {
    if (/^\[\[?\.\.\.[^\]]+\]\]?$/.test(s) || /^\{\*[^}]*\}$/.test(s) || s === '*' || /^:[\w$-]+\*$/.test(s) || /^:[\w$-]+\+$/.test(s)) return '*';
    if (/^\[[^\]]+\]$/.test(s) || /^\{[^}]+\}$/.test(s)) return ':';
    // a parameter starts a segment or follows '-' / '.' (`/:from-:to`); `projects:batchGet` is literal
    return s.replace(/(^|[-.]):[A-Za-z_$][\w$]*(\([^)]*\))?\??/g, '$1:').replace(/\{[A-Za-z_$][\w$-]*\}/g, ':');
  });
  let joined = out.join('/');
  if (joined.length > 1 && joined.endsWith('/')) joined = joined.slice(0, -1);
  return joined === '' ? '/' : joined;
}

export function routeKey(r: { method: string; path: string }): string {
  return `${r.method} ${normalisePath(r.path)}`;
}

export interface Score {
  truth: number;
  found: number;
  matched: number;
  recall: number;
  precision: number;
  /** matched routes on which the tool's auth verdict equals the truth */
  authAgree: number;
  authAgreement: number;
  missed: TruthRoute[];
  extra: ToolRoute[];
  authDisagree: { truth: TruthRoute; tool: ToolRoute }[];
}

/**
 * Match tool routes to truth routes on method + normalised path, as multisets: a key listed
 * twice in the truth needs two tool routes. Among several candidates the one in the same file
 * and nearest line is taken, so that auth is compared on the same registration.
 */
export function score(truth: TruthRoute[], tool: ToolRoute[]): Score {
  const pool = new Map<string, ToolRoute[]>();
  for (const r of tool) {
    const k = routeKey(r);
    pool.set(k, [...(pool.get(k) ?? []), r]);
  }
  const missed: TruthRoute[] = [];
  const authDisagree: { truth: TruthRoute; tool: ToolRoute }[] = [];
  let matched = 0;
  let authAgree = 0;
  for (const t of truth) {
    const cands = pool.get(routeKey(t));
    if (!cands || cands.length === 0) {
      missed.push(t);
      continue;
    }
    let best = 0;
    const dist = (c: ToolRoute): number => (c.file === t.file ? Math.abs(c.line - t.line) : 1e9);
    cands.forEach((c, i) => {
      if (dist(c) < dist(cands[best]!)) best = i;
    });
    const [c] = cands.splice(best, 1) as [ToolRoute];
    matched++;
    if (c.auth === t.auth) authAgree++;
    else authDisagree.push({ truth: t, tool: c });
  }
  const extra = [...pool.values()].flat();
  const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);
  return {
    truth: truth.length,
    found: tool.length,
    matched,
    recall: ratio(matched, truth.length),
    precision: ratio(matched, tool.length),
    authAgree,
    authAgreement: ratio(authAgree, matched),
    missed,
    extra,
    authDisagree,
  };
}

export function fmt(x: number): string {
  return x.toFixed(3);
}
