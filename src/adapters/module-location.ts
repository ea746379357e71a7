/**
 * Where a module's code points on the file system: a location built from the module's own
 * (`__dirname`, `import.meta.dirname`, `import.meta.url` through `new URL(…, import.meta.url)`,
 * `fileURLToPath` and a URL's `pathname`, `path.join` / `resolve` / `dirname`) or from
 * `process.cwd()`, taken as the directory of the package that owns the file (where its scripts
 * run). Read by @fastify/autoload's `dir` and routing-controllers' controller globs.
 */
import path from 'node:path';
import type { CallSite, Expr } from '../types.js';
import { valueNote, type Evaluator } from '../link/evaluate.js';

/** A file system location as a module computes it: a path, or a `file:` URL (its path kept). */
export type Location = { url: boolean; p: string };

export const PATH_MODULES = new Set(['path', 'node:path', 'path/posix', 'node:path/posix']);
const URL_MODULES = new Set(['url', 'node:url']);

/**
 * The location an expression names, relative to the analysed root; why not, when it is not
 * built from the module's location (a string or a parameter's value depends on how the
 * program is started).
 */
export function locate(ev: Evaluator, file: string, e: Expr, packageDir: string, depth = 0, site?: CallSite): Location | { why: string } {
  if (depth > 16) return { why: 'too deep' };
  const here = path.posix.dirname(file);
  const within = (f: string, x: Expr): Location | { why: string } => locate(ev, f, x, packageDir, depth + 1, site);
  if (e.k === 'ref') {
    const def = ev.definitionOf(file, e.scope, e.name);
    // (a parameter of the function whose return is read at a call: the argument the call passes)
    if (def && site && def.expr.k === 'param' && def.file === site.file && def.expr.fn === site.fn) {
      const arg = site.args[def.expr.index];
      return arg ? locate(ev, site.argsFile, arg, packageDir, depth + 1) : { why: `no argument for ${e.name}` };
    }
    if (def) return within(def.file, def.expr);
    if (e.name === '__dirname') return { url: false, p: here };
    if (e.name === '__filename') return { url: false, p: file };
    return { why: `${e.name} is not defined in the analysed files` };
  }
  if (e.k === 'member' && e.obj.k === 'unknown' && e.obj.text === 'import.meta') {
    if (e.prop === 'dirname') return { url: false, p: here };
    if (e.prop === 'filename') return { url: false, p: file };
    if (e.prop === 'url') return { url: true, p: file };
  }
  if (e.k === 'str') return { why: `'${e.v}' is read relative to the directory the server is started in` };
  // `` `${__dirname}/routes` ``, `__dirname + '/routes/' + file`: a location, then strings known statically
  if (e.k === 'tpl') {
    const [head, ...rest] = e.parts.filter((p) => !(p.k === 'str' && p.v === ''));
    const base = head ? within(file, head) : null;
    if (!base || 'why' in base || rest.length === 0) return base ?? { why: 'an empty string' };
    let tail = '';
    for (const p of rest) {
      const v = ev.eval(file, p);
      if (v.t !== 'str') return { why: 'a part of the path not known statically' };
      tail += v.v;
    }
    return { url: base.url, p: path.posix.normalize(base.p + tail) };
  }
  // `new URL(import.meta.url).pathname`, `new URL('./routes/', import.meta.url).pathname`: the URL's path
  if (e.k === 'member' && e.prop === 'pathname' && e.obj.k === 'new') {
    const u = within(file, e.obj);
    return 'why' in u ? u : u.url ? { url: false, p: u.p } : { why: 'the pathname of what is no URL' };
  }
  if (e.k === 'new' && e.callee.k === 'ref' && e.callee.name === 'URL' && !ev.definitionOf(file, e.callee.scope, 'URL') && e.args.length === 1) {
    const u = within(file, e.args[0]!);
    return 'why' in u || u.url ? u : { why: 'a URL not known statically' };
  }
  if (e.k === 'new' && e.callee.k === 'ref' && e.callee.name === 'URL' && !ev.definitionOf(file, e.callee.scope, 'URL') && e.args.length === 2) {
    const spec = ev.eval(file, e.args[0]!);
    const base = within(file, e.args[1]!);
    if ('why' in base) return base;
    if (spec.t !== 'str' || !base.url || spec.v.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(spec.v)) return { why: 'a URL not known statically' };
    return { url: true, p: path.posix.join(path.posix.dirname(base.p), spec.v) };
  }
  if (e.k === 'call') {
    const callee = ev.eval(file, e.callee);
    if (callee.t === 'pkg' && callee.path.length === 1) {
      const [fnName] = callee.path;
      if (URL_MODULES.has(callee.pkg) && fnName === 'fileURLToPath' && e.args[0]) {
        const u = within(file, e.args[0]);
        return 'why' in u ? u : { url: false, p: u.p };
      }
      if (PATH_MODULES.has(callee.pkg) && fnName === 'dirname' && e.args[0]) {
        const u = within(file, e.args[0]);
        return 'why' in u ? u : u.url ? { why: 'path.dirname of a URL' } : { url: false, p: path.posix.dirname(u.p) };
      }
      if (PATH_MODULES.has(callee.pkg) && (fnName === 'join' || fnName === 'resolve') && e.args[0]) {
        const first = within(file, e.args[0]);
        if ('why' in first) return first;
        if (first.url) return { why: `path.${fnName} of a URL` };
        const rest: string[] = [];
        for (const a of e.args.slice(1)) {
          const v = ev.eval(file, a);
          if (v.t !== 'str') return { why: `a part of path.${fnName}(…) not known statically` };
          if (fnName === 'resolve' && v.v.startsWith('/')) return { why: `${v.v} is outside the analysed files` };
          rest.push(v.v);
        }
        return { url: false, p: path.posix.join(first.p, ...rest) };
      }
    }
    if (e.callee.k === 'member' && e.callee.prop === 'cwd' && e.callee.obj.k === 'ref' && e.callee.obj.name === 'process' && !ev.definitionOf(file, e.callee.obj.scope, 'process'))
      return { url: false, p: packageDir === '' ? '.' : packageDir };
    // `getDirName(import.meta.url)` of `getDirName = (url) => dirname(fileURLToPath(url))`: a
    // function of the code with one return, read with the call's arguments for its parameters
    const returns = callee.t === 'fn' ? ev.returnsOf(callee.file, callee.fn) : [];
    if (callee.t === 'fn' && returns.length === 1) return locate(ev, callee.file, returns[0]!, packageDir, depth + 1, { file: callee.file, fn: callee.fn, argsFile: file, args: e.args });
  }
  // `path.join(WIKI.SERVERPATH, '/controllers')` of `WIKI = { SERVERPATH: path.join(process.cwd(),
  // 'server') }`: what the object holds under that key, as written
  if (e.k === 'member') {
    const o = ev.eval(file, e.obj);
    if (o.t === 'obj' && Object.hasOwn(o.props, e.prop)) return within(o.file, o.props[e.prop]!);
    // (a global several modules set, `global.WIKI = WIKI` of the server's entry and of its job
    // worker's: the location when each object holds the same one under that key)
    const each = o.t === 'unknown' && o.alts && o.alts.length > 0 ? o.alts.map((a) => (a.t === 'obj' && Object.hasOwn(a.props, e.prop) ? within(a.file, a.props[e.prop]!) : null)) : [];
    const first = each[0];
    if (first && !('why' in first) && each.every((l) => l && !('why' in l) && l.url === first.url && l.p === first.p)) return first;
  }
  const v = ev.eval(file, e);
  return { why: v.t === 'unknown' ? v.why : `${valueNote(v)}, not a path built from the module's location` };
}
