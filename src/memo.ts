/**
 * `check --cache` also keeps the last run's result, with a key that digests everything the
 * result is computed from: the tool and its extraction settings (the fact cache's key), the
 * run's options, the configuration and the contract as loaded, the path and content of
 * every analysed file (and why an unreadable one is not analysed), and the project
 * manifests the linker reads (every package.json, tsconfig*.json and jsconfig*.json in the
 * tree, the one above it that the root would be compiled with when it has none, and the
 * configs outside it that their `extends` lead to). A run whose key matches
 * returns that result without linking; any change to any of these is a new key. Whatever else
 * a future run reads must join the key (see `runKey`).
 *
 * The result is kept with its scope too (cache.ts, `ResultScope`): the key of all these but
 * the files' contents (its base), and the files whose facts the run never read — held back by
 * the prefilter and not asked for by the linker. When a run's base is the kept result's and
 * only such files changed, each still showing no signal, importing what it did and parsing,
 * then everything the result was computed from is as it was: the result stands (collect.ts,
 * `resultHolds`). So it does, moved, when the only other files that changed have facts that
 * only moved to other lines (relocate.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { readTsconfigData, tsconfigAbove, tsconfigExtends } from './project.js';

const MANIFESTS = ['**/package.json', '**/tsconfig*.json', '**/jsconfig*.json'];
const NOT_PROJECT = ['**/node_modules/**', '**/.git/**'];

/**
 * The content of every project manifest in the tree (package.json, tsconfig*.json,
 * jsconfig*.json), of the tsconfig.json above the root when it has none, and of the configs
 * outside the root that their `extends` lead to (read by the linker too: project.ts).
 */
export function manifestsDigest(cwd: string): string {
  const h = crypto.createHash('sha1');
  const inTree = fg.sync(MANIFESTS, { cwd, ignore: NOT_PROJECT, dot: true, onlyFiles: true, followSymbolicLinks: false, suppressErrors: true }).sort();
  // (a config of the tree is a start of its own: only those outside are followed, each once)
  const outside = new Set<string>();
  const follow = (rel: string, depth: number): void => {
    const data = depth > 8 ? null : readTsconfigData(cwd, rel);
    for (const ext of data ? tsconfigExtends(rel, data) : []) {
      if (!ext.startsWith('../') || outside.has(ext)) continue;
      outside.add(ext);
      follow(ext, depth + 1);
    }
  };
  for (const f of inTree) if (!f.endsWith('package.json')) follow(f, 0);
  const above = tsconfigAbove(cwd);
  if (above) {
    outside.add(above);
    follow(above, 1);
  }
  for (const f of [...inTree, ...[...outside].sort()]) {
    h.update(f).update('\0');
    try {
      h.update(fs.readFileSync(path.join(cwd, f)));
    } catch (err) {
      h.update(`unreadable ${(err as NodeJS.ErrnoException).code ?? ''}`);
    }
    h.update('\0');
  }
  return h.digest('base64url');
}

export interface RunInputs {
  /** the fact cache's key: tool version, code digest, compiler, extraction budgets */
  cacheKey: string;
  /** digest of every analysed file's path and content */
  sources: string;
  /** the run's options that change its result (paths, config and contract names) */
  options: unknown;
  /** the configuration and the contract, as loaded */
  config: unknown;
  contract: unknown;
  /** directories that could not be read */
  unreadable: unknown;
  manifests: string;
}

export function runKey(inputs: RunInputs): string {
  return crypto.createHash('sha1').update(JSON.stringify(inputs)).digest('base64url');
}

/** Data that survives JSON unchanged: plain objects, arrays, strings, finite numbers, booleans, null. */
export function isPlainJson(v: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isPlainJson(x, depth + 1));
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  // An undefined property is dropped by JSON, which is how an absent optional one reads.
  return Object.values(v as Record<string, unknown>).every((x) => x === undefined || isPlainJson(x, depth + 1));
}
