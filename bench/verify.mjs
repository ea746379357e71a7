/**
 * Compare the routes `route-surface check --format json` found in a generated tree with the
 * generator's true route list (`expected-routes.json`): method, path, file, line, framework,
 * and the auth / tenant / csrf / family guard names. Only frameworks that have an adapter
 * are compared; the others are listed as not checked.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** 'nestjs' and 'nest' are the same framework. */
export function frameworkId(name) {
  return name.toLowerCase().replace(/js$/, '');
}

/**
 * Names of the frameworks route-surface has adapters for (from the built package); not the
 * adapter that only warns about servers of frameworks it lists no routes of (unread.ts), nor
 * the one listing GraphQL servers that serve HTTP on their own (graphql-servers.ts), no
 * framework: its routes carry the framework serving them (Express, GraphQL Yoga).
 */
export async function adapterFrameworks(root) {
  const load = (rel) => import(pathToFileURL(path.join(root, 'dist', 'src', 'adapters', rel)).href);
  const [{ ADAPTERS }, { unreadAdapter }, { graphqlServersAdapter }] = await Promise.all([load('index.js'), load('unread.js'), load('graphql-servers.js')]);
  return ADAPTERS.filter((a) => a !== unreadAdapter && a !== graphqlServersAdapter).map((a) => frameworkId(a.name));
}

const KINDS = ['auth', 'tenant', 'csrf', 'family'];

function key(r) {
  return `${r.method} ${r.path} ${r.file}:${r.line} [${frameworkId(r.framework)}]`;
}

function guardsOf(r) {
  return KINDS.map((k) => `${k}=${[...new Set(r.guards[k] ?? [])].sort().join(',')}`).join(' ');
}

/**
 * @param expected the generator's routes
 * @param found the `routes` of `check --format json`
 * @param frameworks frameworks with an adapter
 * @returns { ok, checked: {framework: count}, unchecked: {framework: count}, missing, extra, guardMismatches }
 */
export function compareRoutes(expected, found, frameworks) {
  const enabled = new Set(frameworks.map(frameworkId));
  const checked = {};
  const unchecked = {};
  const want = new Map();
  for (const r of expected) {
    const fw = frameworkId(r.framework);
    if (!enabled.has(fw)) {
      unchecked[fw] = (unchecked[fw] ?? 0) + 1;
      continue;
    }
    checked[fw] = (checked[fw] ?? 0) + 1;
    want.set(key(r), r);
  }
  const missing = [];
  const extra = [];
  const guardMismatches = [];
  const seen = new Set();
  for (const r of found) {
    const k = key(r);
    const w = want.get(k);
    if (!w) {
      // Routes of a framework without an adapter cannot be found; any other is extra.
      extra.push(k);
      continue;
    }
    seen.add(k);
    if (guardsOf(w) !== guardsOf(r)) guardMismatches.push(`${k}: expected ${guardsOf(w)}, found ${guardsOf(r)}`);
  }
  for (const k of want.keys()) if (!seen.has(k)) missing.push(k);
  return { ok: missing.length === 0 && extra.length === 0 && guardMismatches.length === 0, checked, unchecked, missing, extra, guardMismatches };
}

/** A few lines describing a comparison, for the bench output and test failures. */
export function describeComparison(c, limit = 10) {
  const lines = [];
  const fmt = (o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  lines.push(`routes checked: ${fmt(c.checked)}; not checked (no adapter yet): ${fmt(c.unchecked)}`);
  if (c.ok) lines.push('all generated routes found exactly, with their guards; nothing extra');
  for (const [label, list] of [['missing', c.missing], ['extra', c.extra], ['guards differ', c.guardMismatches]]) {
    if (list.length === 0) continue;
    lines.push(`${label}: ${list.length}`);
    for (const x of list.slice(0, limit)) lines.push(`  ${x}`);
    if (list.length > limit) lines.push(`  … ${list.length - limit} more`);
  }
  return lines.join('\n');
}
