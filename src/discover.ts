import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import ignore from 'ignore';
import { UsageError } from './errors.js';

export const SOURCE_GLOB = '**/*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}';
/**
 * Files and directories whose name starts with a dot are skipped under a root `d` (`.storybook/`,
 * `.eslintrc.js`), whatever the include patterns, but for `.well-known` directories: RFC 8615
 * URIs a server answers (Next.js's `app/.well-known/…/route.ts`). Globbed with `dot: true`, so a
 * configured include reads them as the default does.
 */
function dotIgnore(d: string): string {
  return d === '.' ? '**/.!(well-known)/**' : `${fg.escapePath(d)}/**/.!(well-known)/**`;
}
/**
 * Dependencies and build output. A `build` directory's TypeScript sources are kept: no build
 * writes `.ts` (`tsc` writes `.js` and `.d.ts`), so they are code of the project, a feature
 * named so (amplication's `src/core/build/build.module.ts`).
 */
const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/dist/**', '**/build/**/!(*.@(ts|tsx|mts|cts))', '**/.next/**', '**/coverage/**', '**/.git/**'];

export interface Discovered {
  /** every file of the project, relative to the cwd with '/' */
  files: string[];
  /** when explicit files were named, and no directory: only those (findings are limited to them) */
  focus: Set<string> | null;
  /** directories (and .gitignore files) that could not be read: what they hold is not analysed */
  unreadable: { path: string; message: string }[];
  /**
   * Whether a file the analysed files import (a JSON module, json-module.ts) is analysed with
   * them: a regular file, reached through no symbolic link, under an analysed directory, and
   * left out by neither the exclusions nor .gitignore — as discovery would have found it.
   */
  admits(rel: string): boolean;
}

/**
 * fast-glob's file-system adapter, recording the directories it cannot list: with
 * `suppressErrors` it would skip them silently, and a silently skipped directory is a route
 * surface reported as smaller than it is.
 */
function recordingFs(cwd: string, unreadableDirs: Map<string, string>): Partial<typeof fs> {
  return {
    readdirSync: ((dir: fs.PathLike, options?: unknown) => {
      try {
        return fs.readdirSync(dir, options as { withFileTypes: true });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        if (code !== 'ENOENT') unreadableDirs.set(toPosix(path.relative(cwd, String(dir))) || '.', code);
        throw err;
      }
    }) as typeof fs.readdirSync,
  };
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/**
 * The .gitignore files that bear on the analysed directories — those under them, and those of
 * the directories between the cwd and them — applied relative to their own directory.
 */
function gitignoreFilter(cwd: string, roots: string[], unreadable: Discovered['unreadable']): (rel: string) => boolean {
  const ignoreFiles = new Set<string>();
  for (const d of roots) {
    for (const f of fg.sync([d === '.' ? '**/.gitignore' : `${d}/**/.gitignore`], { cwd, ignore: ALWAYS_EXCLUDED, dot: true, followSymbolicLinks: false, suppressErrors: true })) ignoreFiles.add(f);
    for (let a = path.posix.dirname(d); d !== '.'; a = path.posix.dirname(a)) {
      const f = a === '.' ? '.gitignore' : `${a}/.gitignore`;
      if (fs.existsSync(path.join(cwd, f))) ignoreFiles.add(f);
      if (a === '.') break;
    }
  }
  const rules = [...ignoreFiles].sort().flatMap((f) => {
    const dir = path.posix.dirname(f) === '.' ? '' : path.posix.dirname(f) + '/';
    let text: string;
    try {
      text = fs.readFileSync(path.join(cwd, f), 'utf8');
    } catch (err) {
      unreadable.push({ path: f, message: `cannot read this .gitignore (${(err as NodeJS.ErrnoException).code ?? 'error'}); its patterns are not applied` });
      return [];
    }
    return [{ dir, ig: ignore().add(text) }];
  });
  return (rel) => !rules.some(({ dir, ig }) => rel.startsWith(dir) && ig.ignores(rel.slice(dir.length)));
}

export function discover(cwd: string, paths: string[], include?: string[], exclude?: string[]): Discovered {
  const dirs: string[] = [];
  const explicit: string[] = [];
  const unreadable: Discovered['unreadable'] = [];
  const unreadableDirs = new Map<string, string>();
  const realRoot = fs.realpathSync(cwd);
  for (const p of paths.length > 0 ? paths : ['.']) {
    const abs = path.resolve(cwd, p);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(code === 'ENOENT' || code === 'ENOTDIR' ? `${p}: no such file or directory` : `${p}: cannot access (${code ?? 'error'})`);
    }
    const given = toPosix(path.relative(cwd, abs));
    if (given === '..' || given.startsWith('../') || path.isAbsolute(given)) throw new UsageError(`${p}: outside the project root (${toPosix(cwd)})`);
    // A symbolic link (or a path through one) that leads out of the root is not followed; one
    // that stays inside is replaced by its target, so every file has one name.
    const real = fs.realpathSync(abs);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep))
      throw new UsageError(`${p}: a symbolic link that leads outside the project root (${toPosix(cwd)}); not followed`);
    const rel = toPosix(path.relative(realRoot, real));
    if (st.isDirectory()) dirs.push(rel === '' ? '.' : rel);
    else if (st.isFile()) explicit.push(rel);
    else throw new UsageError(`${p}: not a regular file or directory`);
  }
  const patterns = include ?? [SOURCE_GLOB];
  const found = new Set<string>();
  // Explicit files (pre-commit): the whole project is still analysed, findings are limited to them.
  const roots = explicit.length > 0 && dirs.length === 0 ? ['.'] : dirs;
  for (const d of roots) {
    const entries = fg.sync(
      patterns.map((g) => (d === '.' ? g : `${d}/${g}`)),
      {
        cwd,
        ignore: [...ALWAYS_EXCLUDED, ...(exclude ?? []), dotIgnore(d)],
        dot: true,
        followSymbolicLinks: false,
        onlyFiles: true,
        suppressErrors: true,
        fs: recordingFs(cwd, unreadableDirs),
      },
    );
    for (const e of entries) found.add(e);
  }
  for (const e of explicit) found.add(e);
  const keep = gitignoreFilter(cwd, roots, unreadable);
  const files = [...found].filter((f) => explicit.includes(f) || keep(f)).filter((f) => !/\.d\.[cm]?ts$/.test(f)).sort();
  // An unreadable directory that .gitignore leaves out was never part of the project.
  for (const [dir, code] of unreadableDirs)
    if (dir === '.' || keep(`${dir}/`)) unreadable.push({ path: dir, message: `cannot read the directory (${code}); the files under it are not analysed` });
  unreadable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const ignored = [...ALWAYS_EXCLUDED, ...(exclude ?? [])];
  const admits = (rel: string): boolean => {
    if (rel.startsWith('../') || path.posix.isAbsolute(rel) || !roots.some((d) => d === '.' || rel.startsWith(`${d}/`)) || !keep(rel)) return false;
    try {
      const abs = path.join(cwd, rel);
      if (!fs.lstatSync(abs).isFile() || fs.realpathSync(abs) !== path.join(realRoot, rel)) return false;
    } catch {
      return false;
    }
    const root = roots.find((d) => d === '.' || rel.startsWith(`${d}/`)) as string;
    return fg.sync([fg.escapePath(rel)], { cwd, ignore: [...ignored, dotIgnore(root)], dot: true, followSymbolicLinks: false, onlyFiles: true, suppressErrors: true }).length === 1;
  };
  // (files named with directories: everything analysed was named, and all its findings are reported)
  return { files, focus: explicit.length > 0 && dirs.length === 0 ? new Set(explicit) : null, unreadable, admits };
}
