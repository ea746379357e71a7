/**
 * Paths whose head is not known statically (`` `${baseUriPath}/api` ``, `options.mountPath`, a
 * regular expression): what is mounted or served there is listed at an unknown head
 * (paths.ts, `unknownHead`) and the known rest, the head a step of the routes' prefixes. Two
 * paths written with the same head — the same expression, each name read from the same
 * binding, in the same file; or the same parameter read, in any file (parameterRead) — get the
 * same head, so a layer placed under one guards what is mounted under the other (Express, Koa,
 * Hono), and under no other head.
 */
import { bindingOf } from '../extract/facts-text.js';
import { prefixNote, scopeOf, type Evaluator, type Value } from '../link/evaluate.js';
import { declaringScope } from '../link/link.js';
import type { Expr } from '../types.js';
import { joinPath, unknownHead } from './paths.js';

/** How many calls (or locals) a head is followed through to the parameter it reads. */
const MAX_HANDED = 8;

/** A path not known statically, as far as it is known. */
export interface HeadPath {
  /** the unknown head and the rest, joined: a path to join and match as any other */
  path: string;
  /** the whole segments of known text before the head (`/api` of `` `/api/${version}/sites` ``), '' when none */
  lead: string;
  /** what is known after the head (`/api`), '' when nothing is */
  tail: string;
  /** why the head is not known statically, for the step and the warning */
  note: string;
}

/** Why a path is not known statically: a parameter (or its property) by name, else as prefixNote says. */
export function pathNote(v: Value): string {
  return v.t === 'param' ? `the parameter ${[v.name, ...(v.path ?? [])].join('.')}` : prefixNote(v);
}

/**
 * A first argument not known statically that is a path, not a middleware or a handler (for
 * methods whose path is optional): a template, or a value from a parameter, a package or
 * anything else not known whose expression is named like a path.
 */
export function looksLikePath(e: Expr, v: Value): boolean {
  if (!(v.t === 'unknown' || v.t === 'param' || (v.t === 'pkg' && !v.called))) return false;
  // (a parameter by its name or its property's, however long the expression read to reach it)
  if (v.t === 'param' && PATH_PARAMETER.test(v.path?.at(-1) ?? v.name)) return true;
  return e.k === 'tpl' || /path|prefix|url|route|base/i.test(JSON.stringify(e).slice(0, 200));
}

/**
 * A parameter, or its property, named like a path (`prefix`, `options.mountPath`, vendure's
 * `mid.route`); `router` and `routes` are not.
 */
export const PATH_PARAMETER = /path|prefix|url|base|route$/i;

/** A template part's text, when it is known. */
function knownText(v: Value): string | null {
  return v.t === 'str' ? v.v : v.t === 'num' ? String(v.v) : null;
}

export class UnknownHeads {
  /** heads numbered by what they are written as */
  private readonly ids = new Map<string, number>();

  constructor(private readonly ev: Evaluator) {}

  /**
   * The path `e` of `file` (evaluated: `whole`) as far as it is known: the whole segments of
   * known text before its head (`/api` of `` `/api/${version}/status` ``), its head, and the known
   * rest after it when the rest starts a segment of its own.
   */
  pathOf(file: string, e: Expr, whole: Value): HeadPath {
    let head: Expr[] = [e];
    let tail = '';
    let lead = '';
    let note = pathNote(whole);
    if (e.k === 'tpl') {
      const parts = this.spliced(file, e.parts);
      const texts = parts.map((p) => knownText(this.ev.eval(file, p)));
      const first = texts.indexOf(null);
      // Known text before it (`` `/api/${version}` ``): its whole segments stay before the head
      // (`/api`; the head is the rest, `/${version}`, and a segment begun before it, `/v${major}`)
      const before = texts.slice(0, first).join('');
      if (before.replace(/\//g, '') !== '') lead = before.slice(0, before.lastIndexOf('/'));
      const last = texts.lastIndexOf(null);
      const rest = texts.slice(last + 1).join('');
      if (last >= 0 && rest.startsWith('/')) {
        head = parts.slice(0, last + 1);
        tail = rest;
      }
      if (last >= 0) note = pathNote(this.ev.eval(file, parts[last]!));
    }
    // (known parts as their text: `${base}` and base are one head; a parameter's value as the
    // parameter it is, in whichever file it is read; anything else as written in this file)
    const written = head.map((h) => knownText(this.ev.eval(file, h)) ?? this.parameterRead(file, h) ?? `\0${file}\0${this.written(file, h)}\0`);
    const key = written.join('');
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return { path: joinPath(joinPath(lead, unknownHead(id)), tail), lead, tail, note };
  }

  /**
   * A template's parts, each call of a function of the code whose one return is a template (and
   * whose value is not known statically) in place of its own parts: lemmy-ui's
   * `` `${getStaticDir()}/css/themes/:name` `` of `` getStaticDir() { return
   * `/static/${process.env.COMMIT_HASH}` } `` is `/static/`, the environment's value and the rest.
   */
  private spliced(file: string, parts: Expr[]): Expr[] {
    return parts.flatMap((p): Expr[] => {
      if (p.k !== 'call' || knownText(this.ev.eval(file, p)) !== null) return [p];
      const fn = this.ev.calledFn(file, p.callee);
      const returns = fn ? this.ev.returnsOf(fn.file, fn.fn) : [];
      const ret = returns.length === 1 ? returns[0]! : null;
      return ret?.k === 'tpl' ? ret.parts.map((x): Expr => ({ k: 'at', file: fn!.file, e: x })) : [p];
    });
  }

  /**
   * A route's own path not known statically, when it is listed at its head: a template with a
   * known rest after the head (`` `${relativePath}/ping` ``). Any other is left out — a route's
   * path that is all head says nothing of where it is served.
   */
  routePathOf(file: string, e: Expr, whole: Value): HeadPath | null {
    const head = e.k === 'tpl' ? this.pathOf(file, e, whole) : null;
    return head && head.tail !== '' ? head : null;
  }

  /**
   * The parameter a head part reads, when that is what it is: the one its value is (a property
   * of a parameter of the function that made the app, `config.server.baseUriPath`, handed on to
   * the function the path is written in), or one that a local, or an argument a call handed on,
   * falls back to '' from (`const baseUriPath = config.server.baseUriPath || ''`: the same
   * prefix, a missing one being none). Two paths reading the same parameter of the same function
   * have the same head, wherever they are written. Null for anything else.
   */
  private parameterRead(file: string, e: Expr, depth = 0): string | null {
    if (depth > MAX_HANDED) return null;
    const v = this.ev.eval(file, e);
    if (v.t === 'param') return `\0param(${v.file}:${v.fn}:${v.index}${(v.path ?? []).map((p) => `.${p}`).join('')})\0`;
    // (an argument a call passed, as the linker puts it in place of the parameter: read where it is written)
    if (e.k === 'at') return this.parameterRead(e.file, e.e, depth + 1);
    const facts = this.ev.files.get(file);
    const sc = e.k === 'ref' && facts ? scopeOf(facts, e.scope, e.name) : undefined;
    const bound = e.k === 'ref' ? sc && bindingOf(sc, e.name) : e;
    if (bound?.k === 'fallback' && knownText(this.ev.eval(file, bound.r)) === '') return this.parameterRead(file, bound.l, depth + 1);
    return null;
  }

  /**
   * An expression as written, each name as the binding it reads (where it is declared), so that
   * the same name read in a function and in a callback inside it is written alike.
   */
  private written(file: string, e: unknown): string {
    if (Array.isArray(e)) return `[${e.map((x) => this.written(file, x)).join(',')}]`;
    if (e === null || typeof e !== 'object') return JSON.stringify(e) ?? '';
    const x = e as Expr;
    switch (x.k) {
      case 'ref':
        return `ref(${declaringScope(this.ev.files.get(file), x.scope, x.name)}:${x.name})`;
      case 'param':
        return `param(${file}:${x.fn}:${x.index})`;
      case 'at':
        return `at(${x.file}:${this.written(x.file, x.e)})`;
      case 'within':
        return `within(${this.written(file, x.e)}|${x.call.argsFile}:${this.written(x.call.argsFile, x.call.args)})`;
      default:
        return `{${Object.keys(x)
          .sort()
          .map((k) => `${k}:${this.written(file, (x as unknown as Record<string, unknown>)[k])}`)
          .join(',')}}`;
    }
  }
}
