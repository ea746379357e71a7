/**
 * `route-surface diff --base REF [--head REF]`: how a change moves the route surface.
 *
 * Each revision is read from git into a temporary directory (`git ls-tree` + one
 * `git cat-file --batch`: the work tree, the index and HEAD are never touched) and analysed
 * exactly as `route-surface check` would analyse it at that commit, with that commit's
 * config and contract. Without --head, the head side is the work tree as it is.
 *
 * Routes are matched by method and full path. A matched route is "changed" when it gains
 * or loses a guard (by name and kind), changes classification or family, or serves its
 * contract route differently. Findings are matched by their stable fingerprint.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config.js';
import { BUILTIN_CONTRACT_ID } from './contract.js';
import { run, type RunResult } from './engine.js';
import { UsageError } from './errors.js';
import { VERSION } from './package-root.js';
import { routeJson } from './report/json.js';
import { cell, code, contractCoverage, plural, type CoverageRow } from './report/markdown.js';
import type { Finding, Route } from './types.js';

export interface DiffOptions {
  cwd: string;
  base: string;
  /** undefined: the work tree */
  head?: string;
  paths: string[];
  config?: string;
  contract?: string;
  /** errors only, as `check --quiet` */
  quiet?: boolean;
}

interface Side {
  ref: string | null;
  commit: string | null;
  res: RunResult;
}

export interface GuardRef {
  name: string;
  kinds: string[];
}

export interface RouteChange {
  method: string;
  path: string;
  file: string;
  line: number;
  guards: { gained: GuardRef[]; lost: GuardRef[] };
  classification: { from: string; to: string } | null;
  contractRoute: { from: string | null; to: string | null } | null;
}

export interface SurfaceDiff {
  base: Side;
  head: Side;
  added: Route[];
  removed: Route[];
  changed: RouteChange[];
  coverage: { base: CoverageRow[]; head: CoverageRow[]; changed: { route: string; from: string; to: string }[] };
  newFindings: Finding[];
  resolvedFindings: Finding[];
}

// ---------------------------------------------------------------------------
// git

function git(cwd: string, args: string[], input?: string): Buffer {
  const r = spawnSync('git', args, { cwd, input, maxBuffer: 1 << 30 });
  if (r.error) throw new UsageError(`cannot run git (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); diff reads revisions from git`);
  if (r.status !== 0) {
    const msg = r.stderr.toString().trim().split('\n').filter(Boolean).pop() ?? `git ${args[0]} failed`;
    throw new UsageError(`git ${args[0]}: ${msg.replace(/^(fatal|error): /, '')}`);
  }
  return r.stdout;
}

function resolveCommit(cwd: string, ref: string, flag: string): string {
  const r = spawnSync('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd });
  if (r.error) throw new UsageError(`cannot run git (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); diff reads revisions from git`);
  if (r.status !== 0) throw new UsageError(`${flag} ${ref}: not a commit in this repository`);
  return r.stdout.toString().trim();
}

/** Files the analysis can read: sources, package manifests, .gitignore, JSON/YAML config and contracts. */
const WANTED = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|json|ya?ml)$|(^|\/)\.gitignore$/;
const SKIPPED_DIR = /(^|\/)(node_modules|dist|build|\.next|coverage|\.git)\//;

/** Write the tree of `commit` under `dir` (regular files only; symlinks, submodules and paths that lead out are left out). */
function materialise(repoTop: string, commit: string, dir: string): void {
  const listing = git(repoTop, ['ls-tree', '-r', '-z', '--full-tree', commit]).toString('utf8');
  const blobs: { sha: string; file: string }[] = [];
  for (const entry of listing.split('\0')) {
    if (!entry) continue;
    const tab = entry.indexOf('\t');
    const [mode, type, sha] = entry.slice(0, tab).split(' ');
    const file = entry.slice(tab + 1);
    if (type !== 'blob' || mode === '120000' || !sha) continue;
    if (!WANTED.test(file) || SKIPPED_DIR.test(file)) continue;
    // Git refuses to check out a path with a `..`, `.` or empty part, but a crafted commit (a
    // fork's pull request) can hold one: written as it is, it would land outside the copy.
    if (file.split('/').some((part) => part === '' || part === '.' || part === '..')) continue;
    blobs.push({ sha, file });
  }
  if (blobs.length === 0) return;
  const out = git(repoTop, ['cat-file', '--batch'], blobs.map((b) => b.sha).join('\n') + '\n');
  let pos = 0;
  for (const b of blobs) {
    const nl = out.indexOf(0x0a, pos);
    const header = out.subarray(pos, nl).toString('utf8').split(' ');
    const size = Number(header[2]);
    if (header[1] !== 'blob' || !Number.isInteger(size)) throw new UsageError(`git cat-file: unexpected output for ${b.file}`);
    const target = path.join(dir, ...b.file.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, out.subarray(nl + 1, nl + 1 + size));
    pos = nl + 1 + size + 1;
  }
}

// ---------------------------------------------------------------------------
// analysis of both sides

async function analyse(cwd: string, opts: DiffOptions): Promise<RunResult> {
  const res = await run({ cwd, paths: opts.paths, config: opts.config, contract: opts.contract });
  return opts.quiet ? { ...res, findings: res.findings.filter((f) => f.severity === 'error') } : res;
}

/**
 * A revision's tree may lack what the command line names (a directory, config or contract
 * file added by the change). Directories are analysed as empty; a config or contract file
 * missing at that revision is taken from the head side, so both sides are judged.
 */
function fillGaps(sideRoot: string, sideCwd: string, headCwd: string, opts: DiffOptions): void {
  for (const p of opts.paths) {
    const abs = path.resolve(sideCwd, p);
    if (isInside(sideRoot, abs) && !fs.existsSync(abs)) fs.mkdirSync(abs, { recursive: true });
  }
  const files: string[] = [];
  const configFile = opts.config ?? 'route-surface.config.json';
  if (fs.existsSync(path.resolve(headCwd, configFile))) files.push(configFile);
  let contract = opts.contract;
  if (contract === undefined && files.length > 0) contract = loadConfig(opts.config, headCwd).config.contract;
  if (contract && contract !== BUILTIN_CONTRACT_ID && !contract.startsWith('builtin:')) files.push(contract);
  for (const f of files) {
    const target = path.resolve(sideCwd, f);
    const from = path.resolve(headCwd, f);
    if (!isInside(sideRoot, target) || fs.existsSync(target) || !fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(from, target);
  }
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Where a side's copy of the repository goes: under its own root, at the repository's own
 * absolute path, so that a config or contract named by a path leading out of the repository
 * (`../shared/contract.json`, not versioned with it) lands at the same relative place, inside
 * the side's root, and is shown under the same name on both sides.
 */
function sideLayout(tmp: string, side: string, top: string, prefix: string): { root: string; repo: string; cwd: string } {
  const root = path.join(tmp, side);
  const repo = path.join(root, path.resolve(top).replace(/^[A-Za-z]:/, ''));
  return { root, repo, cwd: path.join(repo, prefix) };
}

export async function diffSurfaces(opts: DiffOptions): Promise<SurfaceDiff> {
  const top = git(opts.cwd, ['rev-parse', '--show-toplevel']).toString('utf8').trim();
  const prefix = git(opts.cwd, ['rev-parse', '--show-prefix']).toString('utf8').trim();
  const baseCommit = resolveCommit(opts.cwd, opts.base, '--base');
  const headCommit = opts.head !== undefined ? resolveCommit(opts.cwd, opts.head, '--head') : null;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-diff-'));
  try {
    let headCwd = opts.cwd;
    if (headCommit) {
      const h = sideLayout(tmp, 'head', top, prefix);
      materialise(top, headCommit, h.repo);
      fs.mkdirSync(h.cwd, { recursive: true });
      fillGaps(h.root, h.cwd, opts.cwd, opts);
      headCwd = h.cwd;
    }
    const b = sideLayout(tmp, 'base', top, prefix);
    materialise(top, baseCommit, b.repo);
    fs.mkdirSync(b.cwd, { recursive: true });
    fillGaps(b.root, b.cwd, headCwd, opts);
    const base: Side = { ref: opts.base, commit: baseCommit, res: await analyse(b.cwd, opts) };
    const head: Side = { ref: opts.head ?? null, commit: headCommit, res: await analyse(headCwd, opts) };
    return compare(base, head);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// comparison

const SIGNIFICANT = new Set(['auth', 'bearer', 'tenant', 'csrf', 'family', 'unknown']);

function guardRefs(r: Route): GuardRef[] {
  const byName = new Map<string, Set<string>>();
  for (const g of r.guards) {
    const kinds = g.kinds.filter((k) => SIGNIFICANT.has(k));
    if (kinds.length === 0) continue;
    const set = byName.get(g.name) ?? new Set<string>();
    for (const k of kinds) set.add(k);
    byName.set(g.name, set);
  }
  return [...byName].map(([name, kinds]) => ({ name, kinds: [...kinds].sort() })).sort((a, b) => cmp(a.name, b.name));
}

const guardKey = (g: GuardRef): string => `${g.name} (${g.kinds.join(', ')})`;

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Pair routes with the same method and path: same file first, then in order. */
function pairRoutes(base: Route[], head: Route[]): { pairs: [Route, Route][]; added: Route[]; removed: Route[] } {
  const key = (r: Route): string => `${r.method} ${r.path}`;
  const remaining = new Map<string, Route[]>();
  for (const r of base) remaining.set(key(r), [...(remaining.get(key(r)) ?? []), r]);
  const pairs: [Route, Route][] = [];
  const added: Route[] = [];
  const unpaired: Route[] = [];
  for (const h of head) {
    const list = remaining.get(key(h)) ?? [];
    const i = list.findIndex((b) => b.file === h.file);
    if (i >= 0) pairs.push([list.splice(i, 1)[0]!, h]);
    else unpaired.push(h);
  }
  for (const h of unpaired) {
    const list = remaining.get(key(h)) ?? [];
    if (list.length > 0) pairs.push([list.shift()!, h]);
    else added.push(h);
  }
  const removed = [...remaining.values()].flat();
  return { pairs, added, removed };
}

function contractLabel(r: Route): string | null {
  return r.contractRoute ? `${r.contractRoute} (${r.contractMatch})` : null;
}

export function compare(base: Side, head: Side): SurfaceDiff {
  const { pairs, added, removed } = pairRoutes(base.res.routes, head.res.routes);
  const changed: RouteChange[] = [];
  for (const [b, h] of pairs) {
    const bg = guardRefs(b);
    const hg = guardRefs(h);
    const bk = new Set(bg.map(guardKey));
    const hk = new Set(hg.map(guardKey));
    const gained = hg.filter((g) => !bk.has(guardKey(g)));
    const lost = bg.filter((g) => !hk.has(guardKey(g)));
    const bClass = b.classification + (b.family ? `:${b.family}` : '');
    const hClass = h.classification + (h.family ? `:${h.family}` : '');
    const classification = bClass !== hClass ? { from: bClass, to: hClass } : null;
    const contractRoute = contractLabel(b) !== contractLabel(h) ? { from: contractLabel(b), to: contractLabel(h) } : null;
    if (gained.length === 0 && lost.length === 0 && !classification && !contractRoute) continue;
    changed.push({ method: h.method, path: h.path, file: h.file, line: h.line, guards: { gained, lost }, classification, contractRoute });
  }
  const covBase = contractCoverage(base.res);
  const covHead = contractCoverage(head.res);
  const coverageChanged: { route: string; from: string; to: string }[] = [];
  for (const row of covHead) {
    const before = covBase.find((x) => x.route === row.route);
    const from = before ? before.status : 'not in the contract';
    if (from !== row.status) coverageChanged.push({ route: row.route, from, to: row.status });
  }
  for (const row of covBase) if (!covHead.some((x) => x.route === row.route)) coverageChanged.push({ route: row.route, from: row.status, to: 'not in the contract' });
  const baseFp = new Set(base.res.findings.map((f) => f.fingerprint));
  const headFp = new Set(head.res.findings.map((f) => f.fingerprint));
  return {
    base,
    head,
    added,
    removed,
    changed,
    coverage: { base: covBase, head: covHead, changed: coverageChanged },
    newFindings: head.res.findings.filter((f) => !baseFp.has(f.fingerprint)),
    resolvedFindings: base.res.findings.filter((f) => !headFp.has(f.fingerprint)),
  };
}

// ---------------------------------------------------------------------------
// output

function served(rows: CoverageRow[]): string {
  return `${rows.filter((r) => r.status === 'served').length}/${rows.length}`;
}

function findingJson(f: Finding) {
  return { ruleId: f.ruleId, severity: f.severity, message: f.message, file: f.file, line: f.line, column: f.column, ...(f.route ? { route: f.route } : {}), fingerprint: f.fingerprint };
}

function sideJson(s: Side) {
  return s.commit ? { ref: s.ref, commit: s.commit } : { ref: null, commit: null, workTree: true };
}

export function formatDiffJson(d: SurfaceDiff): string {
  return (
    JSON.stringify(
      {
        tool: { name: 'route-surface', version: VERSION },
        base: sideJson(d.base),
        head: sideJson(d.head),
        routes: { added: d.added.map(routeJson), removed: d.removed.map(routeJson), changed: d.changed },
        contractCoverage: { base: served(d.coverage.base), head: served(d.coverage.head), changed: d.coverage.changed },
        findings: { new: d.newFindings.map(findingJson), resolved: d.resolvedFindings.map(findingJson) },
        summary: {
          added: d.added.length,
          removed: d.removed.length,
          changed: d.changed.length,
          newFindings: d.newFindings.length,
          newErrors: d.newFindings.filter((f) => f.severity === 'error').length,
          resolvedFindings: d.resolvedFindings.length,
        },
      },
      null,
      2,
    ) + '\n'
  );
}

function sideLabel(s: Side): string {
  return s.commit ? `${code(s.ref!)} (${s.commit.slice(0, 12)})` : 'the work tree';
}

function guardsCell(r: Route): string {
  const g = guardRefs(r);
  return g.length > 0 ? g.map((x) => cell(guardKey(x))).join(', ') : 'none';
}

function routeRow(r: Route): string {
  return `| ${code(`${r.method} ${r.path}`)} | ${r.classification}${r.family ? `:${r.family}` : ''} | ${guardsCell(r)} | ${code(`${r.file}:${r.line}`)} |`;
}

export function formatDiffMarkdown(d: SurfaceDiff): string {
  const out: string[] = [];
  out.push(`## Route surface: ${sideLabel(d.base)} → ${sideLabel(d.head)}`, '');
  const newErrors = d.newFindings.filter((f) => f.severity === 'error').length;
  out.push(
    `**${plural(d.added.length, 'route')} added, ${d.removed.length} removed, ${d.changed.length} changed** · ${plural(d.newFindings.length, 'new finding')} (${plural(newErrors, 'error')}) · ${plural(d.resolvedFindings.length, 'finding')} resolved · contract routes served: ${served(d.coverage.base)} → ${served(d.coverage.head)}`,
    '',
  );
  if (d.added.length + d.removed.length + d.changed.length + d.newFindings.length + d.resolvedFindings.length + d.coverage.changed.length === 0) {
    out.push('No change to the route surface.', '');
    return out.join('\n');
  }
  const header = ['| Route | Class | Guards | Location |', '|---|---|---|---|'];
  if (d.added.length > 0) out.push('### Added routes', '', ...header, ...d.added.map(routeRow), '');
  if (d.removed.length > 0) out.push('### Removed routes', '', ...header, ...d.removed.map(routeRow), '');
  if (d.changed.length > 0) {
    out.push('### Changed routes', '', '| Route | Change | Location |', '|---|---|---|');
    for (const c of d.changed) {
      const what: string[] = [];
      for (const g of c.guards.lost) what.push(`lost guard ${code(g.name)} (${g.kinds.join(', ')})`);
      for (const g of c.guards.gained) what.push(`gained guard ${code(g.name)} (${g.kinds.join(', ')})`);
      if (c.classification) what.push(`classification ${c.classification.from} → ${c.classification.to}`);
      if (c.contractRoute) what.push(`contract route ${c.contractRoute.from ?? 'none'} → ${c.contractRoute.to ?? 'none'}`);
      out.push(`| ${code(`${c.method} ${c.path}`)} | ${cell(what.join('; '))} | ${code(`${c.file}:${c.line}`)} |`);
    }
    out.push('');
  }
  if (d.coverage.changed.length > 0) {
    out.push('### Contract coverage', '', '| Contract route | Before | After |', '|---|---|---|');
    for (const c of d.coverage.changed) out.push(`| ${code(c.route)} | ${c.from} | ${c.to} |`);
    out.push('');
  }
  if (d.newFindings.length > 0) {
    out.push('### New findings at head', '', '| Severity | Rule | Location | Message |', '|---|---|---|---|');
    for (const f of d.newFindings) out.push(`| ${f.severity} | ${code(f.ruleId)} | ${code(`${f.file}:${f.line}`)} | ${cell(f.message)} |`);
    out.push('');
  }
  if (d.resolvedFindings.length > 0) {
    out.push('### Resolved findings', '', '| Severity | Rule | Location (base) | Message |', '|---|---|---|---|');
    for (const f of d.resolvedFindings) out.push(`| ${f.severity} | ${code(f.ruleId)} | ${code(`${f.file}:${f.line}`)} | ${cell(f.message)} |`);
    out.push('');
  }
  return out.join('\n');
}
