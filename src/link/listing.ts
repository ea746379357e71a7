/**
 * Values a server computes from its own files and names, which the evaluator works out
 * without running anything: a directory's entries as `fs.readdirSync(dir)` lists them (the
 * loop `fs.readdirSync(path.join(__dirname, 'routes')).forEach((file) => app.use(require(…)))`
 * mounts every route module of a directory), and the string methods and `path` functions such
 * loops take file names apart with (`file.replace('.js', '')`, `path.basename(file, '.ts')`).
 *
 * A directory is listed as the analysed files show it: the files directly in it and the
 * directories holding analysed files, by name (`readdirSync` answers in the file system's
 * order, which Node does not sort). Files the analysis does not read (a README, a JSON
 * fixture) are not listed; a loop loading every entry would fail on them when run.
 */
import path from 'node:path';
import { PATH_MODULES } from '../adapters/module-location.js';
import type { Expr } from '../types.js';
import type { Value } from './evaluate.js';

/** The entries of the analysed tree's directories, each built on first use. */
export class DirectoryListing {
  private byDir: Map<string, Set<string>> | null = null;

  constructor(readonly files: readonly string[]) {}

  /** The names `fs.readdirSync` gives for `dir` (relative to the analysed root, '.' for it), or null when no analysed file is in it. */
  entries(dir: string): string[] | null {
    if (this.byDir === null) {
      this.byDir = new Map();
      for (const f of this.files) {
        // every directory on the way holds the next one, down to the file
        const parts = f.split('/');
        for (let i = 0; i < parts.length; i++) {
          const d = i === 0 ? '.' : parts.slice(0, i).join('/');
          let set = this.byDir.get(d);
          if (!set) this.byDir.set(d, (set = new Set()));
          set.add(parts[i]!);
        }
      }
    }
    const set = this.byDir.get(path.posix.normalize(dir).replace(/(.)\/+$/, '$1'));
    return set ? [...set].sort() : null;
  }
}

/**
 * A glob's regular expression over analysed paths: `**` before a slash any directories, a
 * final `**` any file below, `*` any name part, `{a,b}` either; a `.js` / `.ts` ending matches
 * the source of either (a server started from its compiled files names `*.js`, the analysed
 * sources are `.ts`). Read by routing-controllers' controller globs and `glob.sync` (Evaluator).
 */
export function globRegex(glob: string): RegExp {
  let g = glob.replace(/^\.\//, '');
  const ext = /\.(?:[cm]?[jt]sx?|\{[^}]*\})$/.exec(g);
  if (ext) g = g.slice(0, ext.index);
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const ch = g[i]!;
    if (ch === '*' && g[i + 1] === '*') {
      // `**` and a slash: any directories; a final `**`: anything below
      re += g[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += g[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '{') {
      const end = g.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${g.slice(i + 1, end).split(',').map(escape).join('|')})`;
        i = end;
      }
    } else re += escape(ch);
  }
  return new RegExp(`^${re}${ext ? '\\.(?:[cm]?[jt]sx?)' : ''}$`);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The analysed files a glob matches, sorted. */
export function globMatches(files: readonly string[], glob: string): string[] {
  const re = globRegex(glob);
  return files.filter((f) => re.test(f)).sort();
}

/** A path of the analysed tree as `file` would `require` it (`./routes/users.js`, `../routes/users.js`). */
export function specifierFor(file: string, target: string): string {
  const rel = path.posix.relative(path.posix.dirname(file), target);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** A property name that is an array index (`split('.')[0]`). */
export const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * The key of a Dirent's properties (`fs.readdirSync(dir, { withFileTypes: true })`) telling
 * whether it is a directory (one holding analysed files) or a file.
 */
export const DIRENT = '*dirent*';
/** A Dirent's methods telling what it is (direntTest). */
export const DIRENT_TESTS = new Set(['isFile', 'isDirectory', 'isSymbolicLink', 'isBlockDevice', 'isCharacterDevice', 'isFIFO', 'isSocket']);

/**
 * The properties of a Dirent of a listing: its `name`, and what it is (DIRENT). Where it is,
 * `parentPath` (`path` before Node 20.12), is an absolute path of the machine: not known statically.
 */
export function direntProps(name: string, isDirectory: boolean): Record<string, Expr> {
  const where: Expr = { k: 'unknown', text: 'the directory a Dirent is in' };
  return { name: { k: 'str', v: name }, parentPath: where, path: where, [DIRENT]: { k: 'bool', v: isDirectory } };
}

/**
 * What `dirent.isFile()`, `dirent.isDirectory()` … answer of a Dirent's properties, as the
 * analysed tree shows it (a link is taken for what it links to, as the files are discovered);
 * null when they are no Dirent's, or for another method.
 */
export function direntTest(props: Record<string, Expr>, method: string): boolean | null {
  const d = props[DIRENT];
  if (d?.k !== 'bool' || !DIRENT_TESTS.has(method)) return null;
  return method === 'isDirectory' ? d.v : method === 'isFile' ? !d.v : false;
}

/** Node's file system modules, whose `readdirSync` / `promises.readdir` list a directory (Evaluator.readDir). */
export const FS_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises']);

/** glob and fast-glob, whose `sync` (`globSync`) lists the files a pattern matches (Evaluator.globSync). */
export const GLOB_MODULES = new Set(['glob', 'fast-glob']);

/** Modules that read a directory: Node's file system modules, require-dir, require-all, auto-load and the globs (Evaluator.requireDir, requireAll, autoLoad, globSync). */
export const DIRECTORY_MODULES = new Set([...FS_MODULES, 'require-dir', 'require-all', 'auto-load', ...GLOB_MODULES]);

/** String methods whose result `stringMethod` works out. */
export const STRING_METHODS = new Set(['replace', 'replaceAll', 'endsWith', 'startsWith', 'includes', 'indexOf', 'lastIndexOf', 'search', 'slice', 'substring', 'substr', 'split', 'toLowerCase', 'toUpperCase', 'trim', 'test']);

/**
 * The longest string a RegExp of the analysed code is run on: names of files and parts of paths
 * are far shorter, and a pattern that backtracks badly (`/(a+)+b/`) stays quick on them.
 */
const MAX_MATCHED = 256;

/** A literal pattern argument as JavaScript takes it: a RegExp value (for a subject no longer than MAX_MATCHED) or a string. */
function pattern(v: Value | undefined, subject: string): RegExp | string | null {
  if (v?.t === 'str') return v.v;
  if (v?.t !== 're' || subject.length > MAX_MATCHED) return null;
  try {
    return new RegExp(v.source, v.flags);
  } catch {
    return null;
  }
}

/** `subject.match(re)` of a RegExp value, as JavaScript answers it; undefined when the pattern is not one to run here. */
export function matchOf(re: Value, subject: string): RegExpMatchArray | null | undefined {
  const p = pattern(re, subject);
  return p instanceof RegExp ? subject.match(p) : undefined;
}

const num = (v: Value | undefined): number | null => (v?.t === 'num' ? v.v : null);

/**
 * `s.m(...args)` of a string known statically (or `re.test(s)` of a RegExp), as JavaScript
 * answers it; null when an argument is not known statically or the method is not one of these.
 */
export function stringMethod(obj: Value, m: string, args: Value[]): Value | null {
  if (obj.t === 're') {
    const subject = args[0]?.t === 'str' ? args[0].v : null;
    const re = subject === null ? null : pattern(obj, subject);
    return m === 'test' && re instanceof RegExp && subject !== null ? { t: 'bool', v: re.test(subject) } : null;
  }
  if (obj.t !== 'str') return null;
  const s = obj.v;
  const str = args[0]?.t === 'str' ? args[0].v : null;
  switch (m) {
    case 'replace':
    case 'replaceAll': {
      const p = pattern(args[0], s);
      const by = args[1]?.t === 'str' ? args[1].v : null;
      if (p === null || by === null || (m === 'replaceAll' && p instanceof RegExp && !p.global)) return null;
      return { t: 'str', v: m === 'replace' ? s.replace(p, by) : s.replaceAll(p, by) };
    }
    case 'endsWith':
    case 'startsWith':
    case 'includes':
      return str === null || args.length !== 1 ? null : { t: 'bool', v: m === 'endsWith' ? s.endsWith(str) : m === 'startsWith' ? s.startsWith(str) : s.includes(str) };
    case 'indexOf':
    case 'lastIndexOf':
      return str === null || args.length !== 1 ? null : { t: 'num', v: m === 'indexOf' ? s.indexOf(str) : s.lastIndexOf(str) };
    case 'search': {
      const p = pattern(args[0], s);
      return p === null || args.length !== 1 ? null : { t: 'num', v: s.search(p) };
    }
    case 'slice':
    case 'substring':
    case 'substr': {
      const a = num(args[0]);
      const b = args.length > 1 ? num(args[1]) : undefined;
      if (a === null || b === null || args.length > 2) return null;
      return { t: 'str', v: m === 'slice' ? s.slice(a, b) : m === 'substring' ? s.substring(a, b) : s.substr(a, b) };
    }
    case 'split': {
      const p = pattern(args[0], s);
      return p === null || args.length !== 1 ? null : { t: 'arr', items: s.split(p).map((v): Value => ({ t: 'str', v })) };
    }
    case 'toLowerCase':
      return args.length === 0 ? { t: 'str', v: s.toLowerCase() } : null;
    case 'toUpperCase':
      return args.length === 0 ? { t: 'str', v: s.toUpperCase() } : null;
    case 'trim':
      return args.length === 0 ? { t: 'str', v: s.trim() } : null;
    default:
      return null;
  }
}

/**
 * `path.basename(file, '.js')`, `path.extname(file)`, `path.join('..', 'routes', name)` of strings
 * known statically; of anything else, a value not known statically (no package's value to read
 * further); null for any other call.
 */
export function pathFunction(pkg: string, fn: readonly string[], args: Value[]): Value | null {
  if (!PATH_MODULES.has(pkg) || fn.length !== 1 || (fn[0] !== 'basename' && fn[0] !== 'extname' && fn[0] !== 'join')) return null;
  const strings = args.map((a) => (a.t === 'str' ? a.v : null));
  const arity = fn[0] === 'basename' ? 2 : fn[0] === 'extname' ? 1 : Infinity;
  if (strings.length === 0 || strings.includes(null) || strings.length > arity) return { t: 'unknown', why: `path.${fn[0]}() of a value not known statically` };
  const [a, b] = strings as string[];
  return { t: 'str', v: fn[0] === 'basename' ? path.posix.basename(a!, b) : fn[0] === 'extname' ? path.posix.extname(a!) : path.posix.join(...(strings as string[])) };
}
