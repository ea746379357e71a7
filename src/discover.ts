import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import ignore from 'ignore';
import { UsageError } from './errors.js';

export const SOURCE_GLOB = '**/*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}';
const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/dist/**', '**/build/**', '**/.next/**', '**/coverage/**', '**/.git/**'];

export interface Discovered {
  /** every file of the project, relative to the cwd with '/' */
  files: string[];
  /** when explicit files were named: only those (findings are limited to them) */
  focus: Set<string> | null;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** .gitignore files from the cwd down, applied relative to their own directory. */
function gitignoreFilter(cwd: string): (rel: string) => boolean {
  const ignoreFiles = fg.sync(['**/.gitignore'], { cwd, ignore: ALWAYS_EXCLUDED, dot: true, followSymbolicLinks: false, suppressErrors: true });
  const rules = ignoreFiles.map((f) => {
    const dir = path.posix.dirname(f) === '.' ? '' : path.posix.dirname(f) + '/';
    const ig = ignore().add(fs.readFileSync(path.join(cwd, f), 'utf8'));
    return { dir, ig };
  });
  return (rel) => !rules.some(({ dir, ig }) => rel.startsWith(dir) && ig.ignores(rel.slice(dir.length)));
}

export function discover(cwd: string, paths: string[], include?: string[], exclude?: string[]): Discovered {
  const dirs: string[] = [];
  const explicit: string[] = [];
  for (const p of paths.length > 0 ? paths : ['.']) {
    const abs = path.resolve(cwd, p);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw new UsageError(`${p}: no such file or directory`);
    }
    const rel = toPosix(path.relative(cwd, abs));
    if (rel.startsWith('..')) throw new UsageError(`${p}: outside the project root (${toPosix(cwd)})`);
    if (st.isDirectory()) dirs.push(rel === '' ? '.' : rel);
    else explicit.push(rel);
  }
  const patterns = include ?? [SOURCE_GLOB];
  const found = new Set<string>();
  // Explicit files (pre-commit): the whole project is still analysed, findings are limited to them.
  const roots = explicit.length > 0 && dirs.length === 0 ? ['.'] : dirs;
  for (const d of roots) {
    const entries = fg.sync(
      patterns.map((g) => (d === '.' ? g : `${d}/${g}`)),
      { cwd, ignore: [...ALWAYS_EXCLUDED, ...(exclude ?? [])], dot: false, followSymbolicLinks: false, onlyFiles: true, suppressErrors: true },
    );
    for (const e of entries) found.add(e);
  }
  for (const e of explicit) found.add(e);
  const keep = gitignoreFilter(cwd);
  const files = [...found].filter((f) => explicit.includes(f) || keep(f)).filter((f) => !/\.d\.[cm]?ts$/.test(f)).sort();
  return { files, focus: explicit.length > 0 ? new Set(explicit) : null };
}
