/**
 * The packages of the analysed tree (SPEC 7 "Monorepos"): every directory with its own
 * package.json is a package; each analysed file belongs to the nearest one above it (or to
 * the root, '' , when there is none). Adapters decide from a package's dependencies (and the
 * imports of its files) whether it is one of their apps.
 *
 * Also resolves bare import specifiers that point back into the analysed tree: tsconfig
 * `paths` aliases (`@/lib/auth`), names below its `baseUrl` (`src/auth/jwt.guard`) and
 * workspace packages imported by name (`@acme/auth`).
 * package.json and tsconfig.json are read as data; nothing is executed.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface PackageInfo {
  /** directory relative to the cwd, with '/'; '' for the project root */
  dir: string;
  name: string | null;
  /** the names of its dependencies of every kind, sorted */
  deps: string[];
  /** the version each dependency is declared with (as written, of the first kind naming it) */
  versions: Map<string, string>;
  /** the directory has a readable package.json */
  manifest: boolean;
  /** where the package's own entry points (main / module / exports) lead, relative to the cwd */
  entries: string[];
  /** its package.json scripts, with the line each command is written on */
  scripts: PackageScript[];
  /** its subpath imports (`"imports": { "#src/*": "./build/*" }`): each pattern and where it leads, relative to the cwd */
  imports: [string, string[]][];
  /** its subpath exports (`"exports": { "./orpc/router": "./src/drivers/orpc/router.ts" }`), alike, their patterns without the `./` */
  subpaths: [string, string[]][];
  /** module-alias's `"_moduleAliases": { "~": "." }` (LibreChat's api): `~` and `~/*`, each leading below the package */
  aliases: [string, string[]][];
}

export interface PackageScript {
  name: string;
  command: string;
  line: number;
}

export interface Project {
  /** every analysed file (relative to the cwd, sorted), whether or not its facts are made yet */
  files: string[];
  /** the packages that own analysed files, sorted by directory */
  packages: PackageInfo[];
  packageOf(file: string): PackageInfo;
  /** candidate module paths (relative to the cwd, extension not yet probed) for a bare import specifier */
  resolveBare(fromFile: string, spec: string): string[];
}

/** A project with no package.json and no tsconfig.json: one root package, no aliases. */
export function emptyProject(files: string[] = []): Project {
  const root: PackageInfo = { dir: '', name: null, deps: [], versions: new Map(), manifest: false, entries: [], scripts: [], imports: [], subpaths: [], aliases: [] };
  return { files: [...files].sort(), packages: [root], packageOf: () => root, resolveBare: () => [] };
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}

function join(dir: string, p: string): string {
  const j = path.posix.normalize(path.posix.join(dir, p));
  return j === '.' ? '' : j.replace(/\/$/, '');
}

/** A manifest inside `root` (anywhere when null), read as data; a symbolic link that leads out of the root is not followed. */
function readJson(abs: string, jsonc: boolean, root: string | null): Record<string, unknown> | null {
  return readJsonText(abs, jsonc, root)?.value ?? null;
}

/**
 * A JSON object file inside `root` (anywhere when `root` is null), with its text; null when
 * unreadable, outside the root, or not an object.
 */
function readJsonText(abs: string, jsonc: boolean, root: string | null): { value: Record<string, unknown>; text: string } | null {
  let text: string;
  try {
    const real = fs.realpathSync(abs);
    const realRoot = root === null ? null : fs.realpathSync(root);
    if (realRoot !== null && real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
    text = fs.readFileSync(real, 'utf8');
  } catch {
    return null;
  }
  try {
    const v: unknown = JSON.parse(jsonc ? stripJsonComments(text) : text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? { value: v as Record<string, unknown>, text } : null;
  } catch {
    return null;
  }
}

/**
 * The configs a tsconfig.json's `extends` names by a relative path (one, or a list whose later
 * entries win), relative to the cwd like `rel`: `../../tsconfig.base.json` of an app run on its
 * own in a monorepo leads out of the project root, and is followed there as the compiler
 * follows it (read as data; its aliases count for the files inside the root). A package's
 * config (`@tsconfig/node20/tsconfig.json`) is not read.
 */
export function tsconfigExtends(rel: string, data: Record<string, unknown>): string[] {
  const named = typeof data.extends === 'string' ? [data.extends] : Array.isArray(data.extends) ? data.extends.filter((x): x is string => typeof x === 'string') : [];
  return named.filter((e) => e.startsWith('.')).map((e) => join(dirOf(rel), e.endsWith('.json') ? e : `${e}.json`));
}

/** A tsconfig.json (or one it extends), relative to the cwd, read as data: outside the root only by a relative `extends`. */
export function readTsconfigData(cwd: string, rel: string): Record<string, unknown> | null {
  return readJson(path.join(cwd, rel), true, rel.startsWith('../') ? null : cwd);
}

/**
 * With no tsconfig.json (or jsconfig.json) at the root, the nearest tsconfig.json above it
 * (`../../tsconfig.json`, relative to the cwd), as `tsc` run there finds its config: a package
 * of a workspace without a config of its own, checked on its own, is compiled with the
 * workspace's aliases.
 */
export function tsconfigAbove(cwd: string): string | null {
  if (fs.existsSync(path.join(cwd, 'tsconfig.json')) || fs.existsSync(path.join(cwd, 'jsconfig.json'))) return null;
  for (let up = '../', dir = path.dirname(cwd); ; up += '../', dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'tsconfig.json'))) return `${up}tsconfig.json`;
    if (path.dirname(dir) === dir) return null;
  }
}

/** tsconfig.json is JSON with comments and trailing commas. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

const DEP_KEYS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

function entriesOf(dir: string, pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (v: unknown): void => {
    if (typeof v === 'string') out.push(join(dir, v));
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const k of ['source', 'import', 'require', 'default', 'node', 'types']) add(o[k]);
    }
  };
  const exp = pkg.exports;
  if (typeof exp === 'object' && exp !== null && !Array.isArray(exp) && '.' in exp) add((exp as Record<string, unknown>)['.']);
  else add(exp);
  for (const k of ['source', 'module', 'main', 'types']) add(pkg[k]);
  // Workspace packages often point their entries at build output, which is not analysed.
  out.push(join(dir, 'src/index'), join(dir, 'index'));
  return [...new Set(out)];
}

/** Build output directories: a target there is taken from the sources below `src/` (tsc's outDir → rootDir). */
const BUILD_DIR = /^(\.\/)?(build|dist|lib|out)\//;

/**
 * The package's subpath imports, each target with its conditions read in order (strings and
 * arrays of them); a target in the build output is also looked up below `src/`.
 */
function importsOf(dir: string, pkg: Record<string, unknown>): [string, string[]][] {
  return patternsOf(dir, pkg.imports, (pattern) => (pattern.startsWith('#') ? pattern : null));
}

/**
 * module-alias (read at 2.2): `"_moduleAliases": { "~": ".", "@models": "./src/models" }` makes
 * `require('~/server/x')` load the package's `./server/x` once `require('module-alias/register')`
 * (or `moduleAlias(base)`) ran: an alias is the name itself or a name it starts, with `/`.
 */
function aliasesOf(dir: string, pkg: Record<string, unknown>): [string, string[]][] {
  const map = pkg._moduleAliases;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
  return Object.entries(map).flatMap(([alias, target]): [string, string[]][] =>
    typeof target === 'string' && !alias.includes('*') ? [[alias, [join(dir, target)]], [`${alias}/*`, [join(dir, `${target}/*`)]]] : [],
  );
}

/** The package's subpath exports (`./orpc/router`, `./react/*`; not `.`, its entry), read as its subpath imports are. */
function subpathsOf(dir: string, pkg: Record<string, unknown>): [string, string[]][] {
  return patternsOf(dir, pkg.exports, (pattern) => (pattern.startsWith('./') && pattern.length > 2 ? pattern.slice(2) : null));
}

/** A map of patterns (those `key` accepts, as it names them) to targets in the package, relative to the cwd. */
function patternsOf(dir: string, map: unknown, key: (pattern: string) => string | null): [string, string[]][] {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
  const out: [string, string[]][] = [];
  for (const [pattern, target] of Object.entries(map)) {
    const name = key(pattern);
    if (name === null) continue;
    const targets: string[] = [];
    const add = (v: unknown): void => {
      if (typeof v === 'string') {
        if (!v.startsWith('./')) return; // a package's export: not in the analysed tree
        if (BUILD_DIR.test(v)) targets.push(join(dir, v.replace(BUILD_DIR, 'src/')));
        targets.push(join(dir, v));
      } else if (Array.isArray(v)) v.forEach(add);
      else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) add(x);
    };
    add(target);
    if (targets.length > 0) out.push([name, [...new Set(targets)]]);
  }
  return out;
}

function scriptsOf(pkg: Record<string, unknown>, text: string): PackageScript[] {
  const scripts = pkg.scripts;
  if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return [];
  const out: PackageScript[] = [];
  for (const [name, command] of Object.entries(scripts)) {
    if (typeof command !== 'string') continue;
    // the command as written (JSON-escaped), after the scripts key; line 1 when written some other way
    const at = text.indexOf(JSON.stringify(command), Math.max(0, text.indexOf('"scripts"')));
    out.push({ name, command, line: at < 0 ? 1 : text.slice(0, at).split('\n').length });
  }
  return out;
}

/** What a pattern's `*` stands for in `spec` ('' for a pattern without one that is `spec`); null when it does not match. */
function starMatch(pattern: string, spec: string): string | null {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === spec ? '' : null;
  if (spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1)) && spec.length >= pattern.length - 1) return spec.slice(star, spec.length - (pattern.length - star - 1));
  return null;
}

/** Where `patterns` (subpath imports or exports, module aliases: `#src/*` → `src/*`) lead `spec`: each matching pattern's targets, its `*` filled. */
function patternTargets(patterns: [string, string[]][], spec: string): string[] {
  return patterns.flatMap(([pattern, targets]) => {
    const rest = starMatch(pattern, spec);
    return rest === null ? [] : targets.map((t) => t.replace('*', rest));
  });
}

interface PathsConfig {
  /** directory the `paths` targets are relative to */
  base: string;
  paths: [string, string[]][];
  /** `baseUrl`: non-relative names are looked up below it too (after `paths`, as tsc does) */
  baseUrl: string | null;
}

export function loadProject(cwd: string, files: string[]): Project {
  const manifests = new Map<string, PackageInfo | null>();
  const manifestAt = (dir: string): PackageInfo | null => {
    if (manifests.has(dir)) return manifests.get(dir)!;
    const abs = path.join(cwd, dir, 'package.json');
    let info: PackageInfo | null = null;
    if (fs.existsSync(abs)) {
      const read = readJsonText(abs, false, cwd);
      const pkg = read?.value ?? null;
      const deps = new Set<string>();
      const versions = new Map<string, string>();
      for (const k of DEP_KEYS) {
        const d = pkg?.[k];
        if (typeof d !== 'object' || d === null) continue;
        for (const [n, v] of Object.entries(d)) {
          deps.add(n);
          if (typeof v === 'string' && !versions.has(n)) versions.set(n, v);
        }
      }
      info = {
        dir,
        name: typeof pkg?.name === 'string' ? pkg.name : null,
        deps: [...deps].sort(),
        versions,
        manifest: pkg !== null,
        entries: pkg ? entriesOf(dir, pkg) : [],
        scripts: read ? scriptsOf(read.value, read.text) : [],
        imports: pkg ? importsOf(dir, pkg) : [],
        subpaths: pkg ? subpathsOf(dir, pkg) : [],
        aliases: pkg ? aliasesOf(dir, pkg) : [],
      };
    }
    manifests.set(dir, info);
    return info;
  };
  const root: PackageInfo = manifestAt('') ?? { dir: '', name: null, deps: [], versions: new Map(), manifest: false, entries: [], scripts: [], imports: [], subpaths: [], aliases: [] };
  const owner = new Map<string, PackageInfo>();
  const packageOfDir = (dir: string): PackageInfo => {
    const hit = owner.get(dir);
    if (hit) return hit;
    const own = dir === '' ? root : manifestAt(dir) ?? packageOfDir(dirOf(dir));
    owner.set(dir, own);
    return own;
  };
  const used = new Set<PackageInfo>();
  for (const f of files) used.add(packageOfDir(dirOf(f)));
  const packages = [...used].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  const byName = new Map<string, PackageInfo>();
  for (const p of packages) if (p.name && p.manifest) byName.set(p.name, p);

  // tsconfig.json `paths` and `baseUrl`, from the nearest tsconfig.json (or jsconfig.json) above a file (following relative `extends`; out of the root too).
  const tsconfigs = new Map<string, PathsConfig | null>();
  type Read = { baseUrl?: string; paths?: [string, string[]][]; pathsDir: string };
  const readTsconfig = (rel: string, depth: number): Read | null => {
    if (depth > 8) return null;
    const data = readTsconfigData(cwd, rel);
    if (!data) return null;
    const dir = dirOf(rel);
    // (of several, each option from the last that sets it)
    const inherited = tsconfigExtends(rel, data).reduce<Read | null>((acc, ext) => {
      const base = readTsconfig(ext, depth + 1);
      if (!base) return acc;
      return { baseUrl: base.baseUrl ?? acc?.baseUrl, paths: base.paths ?? acc?.paths, pathsDir: base.paths || !acc ? base.pathsDir : acc.pathsDir };
    }, null);
    const co = (typeof data.compilerOptions === 'object' && data.compilerOptions !== null ? data.compilerOptions : {}) as Record<string, unknown>;
    const own: Read = { ...(inherited ?? { pathsDir: dir }) };
    if (typeof co.baseUrl === 'string') own.baseUrl = join(dir, co.baseUrl);
    if (typeof co.paths === 'object' && co.paths !== null) {
      own.paths = Object.entries(co.paths as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []]);
      own.pathsDir = dir;
    }
    return own;
  };
  const pathsFor = (dir: string): PathsConfig | null => {
    if (tsconfigs.has(dir)) return tsconfigs.get(dir)!;
    let found: PathsConfig | null = null;
    // (a JavaScript project's jsconfig.json is read as a tsconfig.json, which wins beside it)
    const own = ['tsconfig.json', 'jsconfig.json'].map((n) => (dir === '' ? n : `${dir}/${n}`)).find((r) => fs.existsSync(path.join(cwd, r)));
    const rel = own ?? (dir === '' ? tsconfigAbove(cwd) : null);
    if (rel) {
      const t = readTsconfig(rel, 0);
      if (t?.paths || t?.baseUrl !== undefined) found = { base: t.baseUrl ?? t.pathsDir, paths: t.paths ?? [], baseUrl: t.baseUrl ?? null };
    } else if (dir !== '') {
      found = pathsFor(dirOf(dir));
    }
    tsconfigs.set(dir, found);
    return found;
  };

  const inside = (p: string): boolean => !p.startsWith('..') && !path.posix.isAbsolute(p);
  // a path from a config outside the root (`../../apps/api/src/*`), as the root names it (`src/*`)
  const fromRoot = (p: string): string => (p.startsWith('../') ? path.relative(cwd, path.resolve(cwd, p)).split(path.sep).join('/') : p);
  return {
    files: [...files].sort(),
    packages,
    packageOf: (file) => packageOfDir(dirOf(file)),
    resolveBare(fromFile, spec) {
      const out: string[] = [];
      // `#src/middleware/koa-auth.js`: the subpath imports of the file's package (and a tsconfig
      // `paths` pattern, which TypeScript applies to `#` names too: vrite's `"#*": ["./src/*"]`)
      if (spec.startsWith('#')) out.push(...patternTargets(packageOfDir(dirOf(fromFile)).imports, spec));
      else out.push(...patternTargets(packageOfDir(dirOf(fromFile)).aliases, spec));
      const pc = pathsFor(dirOf(fromFile));
      if (pc) {
        for (const [pattern, targets] of pc.paths) {
          const rest = starMatch(pattern, spec);
          if (rest === null) continue;
          for (const t of targets) out.push(fromRoot(join(pc.base, t.replace('*', rest))));
        }
        // `import { InfraTokenGuard } from 'src/guards/infra-token.guard'` with `baseUrl: "./"`
        if (pc.baseUrl !== null && !spec.startsWith('#')) out.push(fromRoot(join(pc.baseUrl, spec)));
      }
      const m = /^((?:@[^/]+\/)?[^/@][^/]*)(?:\/(.+))?$/.exec(spec);
      const ws = m ? byName.get(m[1]!) : undefined;
      if (ws && m) {
        const sub = m[2];
        if (sub) {
          // (`@typebot.io/spaces/orpc/router`: where the package's exports lead it, else its own directory or src/)
          out.push(...patternTargets(ws.subpaths, sub), join(ws.dir, sub), join(ws.dir, `src/${sub}`));
        } else out.push(...ws.entries);
      }
      return out.filter(inside);
    },
  };
}
