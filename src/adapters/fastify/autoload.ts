/**
 * @fastify/autoload, read at v6.3.1 (index.js, lib/find-plugins.js): which files of a
 * directory it registers as plugins, with which prefix and behind which hook files.
 *
 * - The tree (find-plugins.js `buildTree`): a directory holding an index file (`indexPattern`)
 *   registers that file only, and its subdirectories; otherwise every script file
 *   (`scriptPattern`: `.ts` but not `.d.ts`, `.js`, `.cjs`, `.mjs`, `.cts`, `.mts`) except the
 *   hooks file (`autoHooksPattern`). A subdirectory adds `/<name>` to the prefix
 *   (`dirNameRoutePrefix`, default true), down to `maxDepth`; `ignorePattern` is tested on the
 *   path relative to `dir`, `matchFilter` / `ignoreFilter` on `/` + that path.
 * - Hooks (`autoHooks`): a directory's hooks file is added to the hooks it inherits — those of
 *   its parent with `cascadeHooks`, none otherwise; `overwriteHooks` drops the inherited ones.
 * - Order: one node per directory, parent before children (the tree's insertion order);
 *   `readdir` order within a directory, taken here as sorted by name.
 */
import path from 'node:path';
import type { Expr } from '../../types.js';
import type { Evaluator } from '../../link/evaluate.js';
import { locate } from '../module-location.js';

export interface AutoloadOptions {
  /** the directory, relative to the analysed root ('' for the root itself) */
  dir: string;
  dirNameRoutePrefix: boolean;
  autoHooks: boolean;
  cascadeHooks: boolean;
  overwriteHooks: boolean;
  indexPattern: RegExp;
  scriptPattern: RegExp;
  autoHooksPattern: RegExp;
  ignorePattern: RegExp | null;
  matchFilter: PathFilter | null;
  ignoreFilter: PathFilter | null;
  maxDepth: number;
}

/** A filter: a text the path holds, an expression it matches, or a function of the code answering for it (null: not known statically). */
export type PathFilter = string | RegExp | ((path: string) => boolean | null);

export const AUTOLOAD_DEFAULTS = {
  scriptPattern: /(?:(?:^.?|\.[^d]|[^.]d|[^.][^d])\.ts|\.js|\.cjs|\.mjs|\.cts|\.mts)$/iu,
  indexPattern: /^index(?:\.ts|\.js|\.cjs|\.mjs|\.cts|\.mts)$/iu,
  autoHooksPattern: /^[_.]?auto_?hooks(?:\.ts|\.js|\.cjs|\.mjs|\.cts|\.mts)$/iu,
};

/** One directory: the hook files that apply to its plugins, and its plugin files with their directory prefix. */
export interface AutoloadNode {
  hooks: string[];
  plugins: { file: string; prefix: string | undefined }[];
}

/**
 * The plugin tree autoload builds over `files` (the analysed files, relative paths), in
 * registration order; null when a filter's answer for one of them is not known statically.
 */
export function autoloadTree(files: readonly string[], o: AutoloadOptions): AutoloadNode[] | null {
  let unknown = false;
  const filterPath = (p: string, filter: PathFilter): boolean => {
    const holds = typeof filter === 'string' ? p.includes(filter) : filter instanceof RegExp ? filter.test(p) : filter(p);
    if (holds === null) unknown = true;
    return holds === true;
  };
  const under = o.dir === '' ? '' : o.dir + '/';
  // directory -> entry name -> is a directory
  const listing = new Map<string, Map<string, boolean>>();
  for (const f of files) {
    if (!f.startsWith(under)) continue;
    let dir = o.dir;
    const parts = f.slice(under.length).split('/');
    parts.forEach((name, i) => {
      let entries = listing.get(dir);
      if (!entries) listing.set(dir, (entries = new Map()));
      entries.set(name, i < parts.length - 1);
      dir = dir === '' ? name : `${dir}/${name}`;
    });
  }
  const nodes: AutoloadNode[] = [];
  const rel = (p: string): string => (o.dir === '' ? p : p.slice(under.length));
  const accumulate = (node: AutoloadNode, file: string, prefix: string | undefined): void => {
    const filePath = '/' + rel(file);
    if (o.matchFilter !== null && !filterPath(filePath, o.matchFilter)) return;
    if (o.ignoreFilter !== null && filterPath(filePath, o.ignoreFilter)) return;
    node.plugins.push({ file, prefix });
  };
  const build = (dir: string, prefix: string | undefined, depth: number, inherited: string[]): void => {
    const node: AutoloadNode = { hooks: [], plugins: [] };
    nodes.push(node);
    const entries = [...(listing.get(dir) ?? new Map<string, boolean>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const join = (name: string): string => (dir === '' ? name : `${dir}/${name}`);
    let hooks: string[] = [];
    if (o.autoHooks) {
      hooks = [...inherited];
      const own = entries.find(([name]) => o.autoHooksPattern.test(name));
      if (own) {
        if (o.overwriteHooks) hooks = [];
        hooks.push(join(own[0]));
      }
    }
    node.hooks = hooks;
    // an index file stands for its directory: the other files are left to it, the subdirectories are not
    const index = entries.find(([name]) => o.indexPattern.test(name));
    if (index) accumulate(node, join(index[0]), prefix);
    for (const [name, isDir] of entries) {
      const file = join(name);
      if (o.ignorePattern && new RegExp(o.ignorePattern).test(rel(file))) continue;
      if (isDir && !(o.maxDepth <= depth)) {
        const crumb = (prefix ? `${prefix}/` : '/') + (o.dirNameRoutePrefix ? name : '');
        build(file, crumb, depth + 1, o.autoHooks && o.cascadeHooks ? hooks : []);
      } else if (!index && !isDir && o.scriptPattern.test(name) && !o.autoHooksPattern.test(name)) {
        accumulate(node, file, prefix);
      }
    }
  };
  build(o.dir, undefined, 0, []);
  return unknown ? null : nodes;
}

/**
 * index.js `handlePrefixConfig`: the prefix a plugin file is registered with, from the
 * override options' prefix (one trailing `/` dropped), the file's `autoPrefix` (else its
 * directory's prefix) and its `prefixOverride`; with `routeParams`, `/_name` is `/:name`.
 */
export function pluginPrefix(optionsPrefix: string | undefined, directoryPrefix: string | undefined, autoPrefix: string | undefined, prefixOverride: string | undefined, routeParams: boolean): string | undefined {
  let prefix = optionsPrefix?.endsWith('/') ? optionsPrefix.slice(0, -1) : optionsPrefix;
  const own = autoPrefix !== undefined ? autoPrefix : directoryPrefix;
  if (prefixOverride !== undefined) prefix = prefixOverride;
  else if (own) prefix = (prefix || '') + own.replace(/\/+/gu, '/');
  if (routeParams && prefix) {
    if (/__/u.test(prefix)) prefix = prefix.replace(/__/gu, ':');
    else prefix = prefix.replace(/\/_/gu, '/:');
  }
  return prefix;
}

/**
 * index.js `findCommonHooksPrefix`: a directory with hooks is registered as one plugin, under
 * its plugins' prefix when they all share one (each then registered with the rest of theirs).
 */
export function commonPrefix(prefixes: (string | undefined)[]): string | undefined {
  const set = prefixes.filter((p): p is string => typeof p === 'string' && p.length > 0);
  return set.length > 0 && set.every((p) => p === set[0]) ? set[0] : undefined;
}

/**
 * The directory an expression names, relative to the analysed root, when it is built from the
 * module's own location (module-location.ts); why not, when it is not, or is a URL, or lies
 * outside the analysed files.
 */
export function directoryOf(ev: Evaluator, file: string, e: Expr, packageDir: string): { dir: string } | { why: string } {
  const loc = locate(ev, file, e, packageDir);
  if ('why' in loc) return loc;
  // autoload 6 splits and joins dir as a string: a URL object throws (getPackageType)
  if (loc.url) return { why: 'a URL; autoload takes a path: fileURLToPath(url)' };
  const dir = path.posix.normalize(loc.p);
  if (dir === '..' || dir.startsWith('../') || path.posix.isAbsolute(dir)) return { why: `${dir} is outside the analysed files` };
  return { dir: dir === '.' ? '' : dir.replace(/\/$/, '') };
}
