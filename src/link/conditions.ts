/**
 * The conditions registrations are made under (`if (config.auth) app.use(requireAuth)`,
 * `switch (mode) { case 'oss': ossAuthentication(app) }`, the rest of a function after
 * `if (!enabled) return;`), tested with what the evaluator knows.
 *
 * A condition known to fail leaves the registration out (the code never runs). One known to
 * hold is as if not written. One that cannot be decided statically (an environment variable, a
 * configuration file, a parameter no call gives) keeps the registration: its routes may exist,
 * and a guard it applies may not be there — LinkContext.markConditionalGuards.
 */
import { bindingOf } from '../extract/facts-text.js';
import { REASSIGNED } from '../extract/extract.js';
import type { CallSite, Cond, CondTest, Expr } from '../types.js';
import type { Evaluator, Value } from './evaluate.js';
import { ARRAY_INDEX, DIRENT_TESTS, direntTest, pathFunction, stringMethod, STRING_METHODS } from './listing.js';

/** true or false when known statically, null when not */
type Truth = boolean | null;

/** (`undefined`: an index past the end of a list every item of which is written out, `[][0]`) */
type Literal = Extract<Expr, { k: 'str' | 'num' | 'bool' | 'obj' | 'arr' | 'fn' | 're' }> | { k: 'undefined' };

const MAX_DEPTH = 40;

/**
 * The literal an expression certainly stands for, or null. Stricter than the evaluator, which
 * answers what a route or a prefix most likely is (a function's first return known, a variable's
 * first value): a condition is decided only on a literal reached through constants, object
 * literals no assignment changes, imports, and the arguments a call passes for parameters.
 */
function literal(ev: Evaluator, file: string, e: Expr, call: CallSite | null, depth: number): { file: string; e: Literal } | null {
  if (depth > MAX_DEPTH) return null;
  switch (e.k) {
    case 'str':
    case 'num':
    case 'bool':
    case 'obj':
    case 'arr':
    case 'fn':
    case 're':
      return { file, e };
    case 'at':
      return literal(ev, e.file, e.e, null, depth + 1);
    case 'within':
      return literal(ev, file, e.e, e.call, depth + 1);
    case 'member': {
      const o = literal(ev, file, e.obj, call, depth + 1);
      // (`file.split('.')[0]`; `methods[0]` of jambonz's `decorate(router, Application, [])`, undefined)
      if (o?.e.k === 'arr' && ARRAY_INDEX.test(e.prop)) {
        const item = o.e.items[Number(e.prop)];
        if (item) return literal(ev, o.file, item, null, depth + 1);
        return o.e.items.every(writtenOut) ? { file, e: { k: 'undefined' } } : null;
      }
      return o?.e.k === 'obj' ? ownLiteral(ev, o.file, o.e, e.prop, depth + 1) : null;
    }
    case 'ref': {
      const def = ev.definitionOf(file, e.scope, e.name);
      // (`undefined`, where no file defines the name: a parameter a call does not pass, Evaluator.builtFrom)
      if (!def && e.name === 'undefined') return { file, e: { k: 'undefined' } };
      if (!def || bindingOf(ev.files.get(def.file)!.scopes[def.scope]!, REASSIGNED + def.name)) return null;
      // (a name of this file can be a parameter of the call read; an imported one is not)
      return literal(ev, def.file, def.expr, def.file === file ? call : null, depth + 1);
    }
    case 'param': {
      // a parameter of the function the call read calls (`[key]` of a callback handed `[k, v]`):
      // the argument passed, or its default
      if (!call || call.file !== file || call.fn !== e.fn) return null;
      const arg = call.args[e.index];
      return arg ? literal(ev, call.argsFile, arg, null, depth + 1) : e.init ? literal(ev, file, e.init, call, depth + 1) : null;
    }
    case 'argc':
    case 'argAt': {
      // `args.length`, `args[args.length - 2]` of a rest parameter: what the call passes
      if (!call || call.file !== file || call.fn !== e.fn) return null;
      if (e.k === 'argc') return { file, e: { k: 'num', v: argCount(call.args, e) } };
      const arg = restArgument(call.args, e);
      return arg ? literal(ev, call.argsFile, arg, null, depth + 1) : null;
    }
    case 'index': {
      // `routes[name]`, its key a literal: that member
      const key = literal(ev, file, e.key, call, depth + 1)?.e;
      return key?.k === 'str' || key?.k === 'num' ? literal(ev, file, { k: 'member', obj: e.obj, prop: String(key.v) }, call, depth + 1) : null;
    }
    case 'item': {
      // an item of a literal list, or of a list read from the analysed tree (a directory's entries)
      if (e.index === undefined) return null;
      const list = literal(ev, file, e.of, call, depth + 1);
      if (list?.e.k === 'arr') return list.e.items[e.index] ? literal(ev, list.file, list.e.items[e.index]!, null, depth + 1) : null;
      const v = call ? null : ev.eval(file, e.of);
      const item = v?.t === 'arr' && ev.isListing(v) ? v.items[e.index] : undefined;
      // (an object, a Dirent among them: its properties, read as a literal's)
      if (item?.t === 'obj') return { file: item.file, e: { k: 'obj', props: item.props } };
      return item?.t === 'str' ? { file, e: { k: 'str', v: item.v } } : null;
    }
    case 'call': {
      // `Array.isArray(methods)` of a literal: whether it is a list
      const c = e.callee;
      if (c.k === 'member' && c.prop === 'isArray' && c.obj.k === 'ref' && c.obj.name === 'Array' && e.args.length === 1 && !ev.definitionOf(file, c.obj.scope, 'Array')) {
        const o = literal(ev, file, e.args[0]!, call, depth + 1);
        return o ? { file, e: { k: 'bool', v: o.e.k === 'arr' } } : null;
      }
      // `file.endsWith('.js')`, `/\.ts$/.test(file)`, `path.basename(file, '.js')` of literals
      const args: Value[] = [];
      for (const a of e.args) {
        const l = literal(ev, file, a, call, depth + 1)?.e;
        args.push(l?.k === 're' ? { t: 're', source: l.source, flags: l.flags } : l?.k === 'str' || l?.k === 'num' ? ({ t: l.k, v: l.v } as Value) : { t: 'unknown', why: 'not a literal' });
      }
      // `uploadVerbs.has(verb)` of `new Set(['post', 'put'])`, `['post', 'put'].includes(verb)`: membership in a list of literals
      const sought = args.length === 1 ? args[0]! : null;
      if (e.callee.k === 'member' && (e.callee.prop === 'has' || e.callee.prop === 'includes') && (sought?.t === 'str' || sought?.t === 'num')) {
        const list = literalList(ev, file, e.callee.obj, e.callee.prop === 'has', call, depth + 1);
        if (list !== null) return { file, e: { k: 'bool', v: list.some((m) => m.k === sought.t && m.v === sought.v) } };
      }
      // `Object.values(extensionMap).filter(…).map(({ id }) => id)`: names the evaluator reads off a list known surely
      if (e.callee.k === 'member' && (e.callee.prop === 'filter' || e.callee.prop === 'map')) {
        const listed = ev.eval(file, call ? { k: 'within', e, call } : e);
        if (listed.t === 'arr' && ev.isListing(listed) && listed.items.every((x) => x.t === 'str')) return { file, e: { k: 'arr', items: listed.items.map((x) => ({ k: 'str', v: (x as Extract<Value, { t: 'str' }>).v })) } };
      }
      let v: Value | null = null;
      // `dirent.isFile()` of a Dirent of a listing
      if (e.callee.k === 'member' && DIRENT_TESTS.has(e.callee.prop) && e.args.length === 0) {
        const o = literal(ev, file, e.callee.obj, call, depth + 1);
        const is = o?.e.k === 'obj' ? direntTest(o.e.props, e.callee.prop) : null;
        if (is !== null) return { file, e: { k: 'bool', v: is } };
      }
      if (e.callee.k === 'member' && STRING_METHODS.has(e.callee.prop)) {
        const o = literal(ev, file, e.callee.obj, call, depth + 1);
        if (o?.e.k === 'str') v = stringMethod({ t: 'str', v: o.e.v }, e.callee.prop, args);
        else if (o?.e.k === 're') v = stringMethod({ t: 're', source: o.e.source, flags: o.e.flags }, e.callee.prop, args);
      } else if (e.callee.k === 'ref' || e.callee.k === 'member') {
        const f = ev.eval(file, e.callee);
        // (`path.basename(__filename)`: a location built from the module's own, as a path)
        if (f.t === 'pkg') v = pathFunction(f.pkg, f.path, ev.asPaths(file, f.path, e.args, args));
        // `moduleName(file)` of `(file) => path.basename(file, path.extname(file))`: its one
        // return, with its parameters standing for this call's arguments (read where written)
        const returned = f.t === 'fn' ? ev.returnsOf(f.file, f.fn) : [];
        if (f.t === 'fn' && returned.length === 1) {
          const site: CallSite = { file: f.file, fn: f.fn, argsFile: file, args: call ? e.args.map((a): Expr => ({ k: 'within', e: a, call })) : e.args };
          return literal(ev, f.file, { k: 'within', e: returned[0]!, call: site }, null, depth + 1);
        }
      }
      if (v?.t === 'arr' && v.items.every((x) => x.t === 'str')) return { file, e: { k: 'arr', items: v.items.map((x) => ({ k: 'str', v: (x as Extract<Value, { t: 'str' }>).v })) } };
      return v?.t === 'str' || v?.t === 'num' || v?.t === 'bool' ? { file, e: { k: v.t, v: v.v } as Literal } : null;
    }
    default:
      // anything not known statically
      return null;
  }
}

/** An item of a list that is one item: a literal (a list's item `...x` is read as `x`, which may be several). */
function writtenOut(e: Expr): boolean {
  return e.k === 'str' || e.k === 'num' || e.k === 'bool' || e.k === 'obj' || e.k === 'fn' || e.k === 're';
}

/** How many arguments a call passes for a rest parameter (`args.length`): `args`, all it passes. */
export function argCount<T>(args: readonly T[], e: Extract<Expr, { k: 'argc' }>): number {
  return Math.max(args.length - e.from, 0);
}

/** The argument `args[args.length - K]` of a rest parameter reads (`args`, all a call passes); undefined when the call passes too few. */
export function restArgument<T>(args: readonly T[], e: Extract<Expr, { k: 'argAt' }>): T | undefined {
  return e.fromEnd <= args.length - e.from ? args[args.length - e.fromEnd] : undefined;
}

/**
 * The strings and numbers of a list written as literals: an array (`['post', 'put']`), or with
 * `set`, the one a `new Set([…])` is made from (Evaluator.iterated); null when not known.
 */
function literalList(ev: Evaluator, file: string, e: Expr, set: boolean, call: CallSite | null, depth: number): Extract<Literal, { k: 'str' | 'num' }>[] | null {
  const list = set ? ev.iterated(file, e, false) : e;
  if (set && list === e) return null;
  const arr = literal(ev, file, list, set ? null : call, depth + 1);
  if (arr?.e.k !== 'arr') return null;
  const out: Extract<Literal, { k: 'str' | 'num' }>[] = [];
  for (const it of arr.e.items) {
    const l = literal(ev, arr.file, it, null, depth + 1)?.e;
    if (l?.k !== 'str' && l?.k !== 'num') return null;
    out.push(l);
  }
  return out;
}

/**
 * The property `prop` of an object literal, as a literal: its own, or, the keys read from the last,
 * one a spread of an object literal brings (`{ ...coreRoutes }`, the spreads `Object.assign(routes,
 * coreRoutes)` put in a literal); null when not known (a spread of anything else comes first).
 */
function ownLiteral(ev: Evaluator, file: string, o: Extract<Expr, { k: 'obj' }>, prop: string, depth: number): { file: string; e: Literal } | null {
  if (depth > MAX_DEPTH) return null;
  const keys = Object.keys(o.props);
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    if (k === prop) return literal(ev, file, o.props[k]!, null, depth + 1);
    if (!k.startsWith('*spread*')) continue;
    const from = literal(ev, file, o.props[k]!, null, depth + 1);
    if (from?.e.k !== 'obj') return null;
    const found = ownLiteral(ev, from.file, from.e, prop, depth + 1);
    if (found || Object.hasOwn(from.e.props, prop) || Object.keys(from.e.props).some((x) => x.startsWith('*'))) return found;
  }
  return null;
}

/**
 * The member expression `e` stands for, with where and with what call to read it: `e` itself, or
 * one a name of the file is bound to, unchanged since (`guard` of `const { guard } = opts`, of a
 * parameter `({ guard }) => …`), also through `within` and `at`; null for anything else.
 */
function memberBehind(ev: Evaluator, file: string, e: Expr, call: CallSite | null, depth: number): { file: string; e: Extract<Expr, { k: 'member' }>; call: CallSite | null } | null {
  if (depth > MAX_DEPTH) return null;
  switch (e.k) {
    case 'member':
      return { file, e, call };
    case 'within':
      return memberBehind(ev, file, e.e, e.call, depth + 1);
    case 'at':
      return memberBehind(ev, e.file, e.e, null, depth + 1);
    case 'ref': {
      const def = ev.definitionOf(file, e.scope, e.name);
      if (!def || def.file !== file || bindingOf(ev.files.get(def.file)!.scopes[def.scope]!, REASSIGNED + def.name)) return null;
      return memberBehind(ev, def.file, def.expr, call, depth + 1);
    }
    default:
      return null;
  }
}

/** Is `e` a property an object literal has not (none of its own, no spread that may bring it)? */
function absent(ev: Evaluator, file: string, e: Extract<Expr, { k: 'member' }>, call: CallSite | null): boolean {
  const o = literal(ev, file, e.obj, call, 0);
  return o?.e.k === 'obj' && !Object.hasOwn(o.e.props, e.prop) && !Object.keys(o.e.props).some((k) => k.startsWith('*')) && !(e.prop in Object.prototype);
}

/** Is the literal truthy, as JavaScript tests it? */
function truthy(v: Literal): boolean {
  switch (v.k) {
    case 'str':
      return v.v !== '';
    case 'num':
      return v.v !== 0 && !Number.isNaN(v.v);
    case 'bool':
      return v.v;
    case 'undefined':
      return false;
    default:
      return true;
  }
}

/**
 * Whether a test holds, when known statically (a `? :`'s, Evaluator's `choice`); null when not.
 * `absentFalse`: a property an object literal lacks tests falsy, as undefined does — for a test
 * read with one call's arguments only (a Fastify plugin's options: LinkContext.conditionsAtCall),
 * not where a value stands for every call made (an app a factory makes at several calls).
 */
export function truthOf(ev: Evaluator, file: string, t: CondTest, call: CallSite | null = null, absentFalse = false): Truth {
  switch (t.k) {
    case 'truthy': {
      const v = literal(ev, file, t.e, call, 0);
      // (`opts.enforce` of options written `{}`: a property the object literal has not is undefined;
      // so is a name destructured from it, `guard` of `({ guard } = {})`)
      if (v === null) {
        const m = absentFalse ? memberBehind(ev, file, t.e, call, 0) : null;
        return m && absent(ev, m.file, m.e, m.call) ? false : null;
      }
      return truthy(v.e);
    }
    case 'not': {
      const c = truthOf(ev, file, t.c, call, absentFalse);
      return c === null ? null : !c;
    }
    case 'and': {
      const l = truthOf(ev, file, t.l, call, absentFalse);
      if (l === false) return false;
      const r = truthOf(ev, file, t.r, call, absentFalse);
      return r === false ? false : l === true && r === true ? true : null;
    }
    case 'or': {
      const l = truthOf(ev, file, t.l, call, absentFalse);
      if (l === true) return true;
      const r = truthOf(ev, file, t.r, call, absentFalse);
      return r === true ? true : l === false && r === false ? false : null;
    }
    case 'eq': {
      const l = literal(ev, file, t.l, call, 0)?.e;
      const r = literal(ev, file, t.r, call, 0)?.e;
      if (!l || !r) return null;
      // (undefined equals no other literal, loosely or strictly)
      if (l.k === 'undefined' || r.k === 'undefined') return (l.k === r.k) !== t.neg;
      if ((l.k !== 'str' && l.k !== 'num' && l.k !== 'bool') || l.k !== r.k) return null;
      return (l.v === r.v) !== t.neg;
    }
    case 'cmp': {
      const l = literal(ev, file, t.l, call, 0)?.e;
      const r = literal(ev, file, t.r, call, 0)?.e;
      if (l?.k !== 'num' || r?.k !== 'num') return null;
      return t.op === '<' ? l.v < r.v : t.op === '<=' ? l.v <= r.v : t.op === '>' ? l.v > r.v : l.v >= r.v;
    }
  }
}

/**
 * Test the conditions a registration of `file` is made under: `never` when one is known to
 * fail; otherwise those that cannot be decided (none when every one is known to hold). With
 * `call`, a parameter of the function it calls stands for the argument the call passes.
 */
export function decide(ev: Evaluator, file: string, when: readonly Cond[], absentFalse = false, call: CallSite | null = null): { never: boolean; open: Cond[] } {
  const open: Cond[] = [];
  for (const c of when) {
    const t = truthOf(ev, file, c.test, call, absentFalse);
    if (t === null) open.push(c);
    else if (t !== c.holds) return { never: true, open: [] };
  }
  return { never: false, open };
}

/** The condition with each expression in it mapped by `f`. */
export function mapCond(c: Cond, f: (e: Expr) => Expr): Cond {
  return { ...c, test: mapTest(c.test, f) };
}

/** The test with each expression in it mapped by `f` (`t` itself when none changes). */
export function mapTest(t: CondTest, f: (e: Expr) => Expr): CondTest {
  switch (t.k) {
    case 'truthy': {
      const e = f(t.e);
      return e === t.e ? t : { k: 'truthy', e };
    }
    case 'not': {
      const c = mapTest(t.c, f);
      return c === t.c ? t : { k: 'not', c };
    }
    case 'and':
    case 'or': {
      const [l, r] = [mapTest(t.l, f), mapTest(t.r, f)];
      return l === t.l && r === t.r ? t : { k: t.k, l, r };
    }
    case 'eq': {
      const [l, r] = [f(t.l), f(t.r)];
      return l === t.l && r === t.r ? t : { k: 'eq', l, r, neg: t.neg };
    }
    case 'cmp': {
      const [l, r] = [f(t.l), f(t.r)];
      return l === t.l && r === t.r ? t : { k: 'cmp', op: t.op, l, r };
    }
  }
}

/** The expressions a condition reads. */
export function condExprs(c: Cond): Expr[] {
  const out: Expr[] = [];
  mapCond(c, (e) => {
    out.push(e);
    return e;
  });
  return out;
}

/** A call's conditions, carried to the registrations the call makes in another file: read where the call is written. */
export function carried(when: readonly Cond[], file: string): Cond[] {
  return when.map((c) => (c.file !== undefined ? c : { ...mapCond(c, (e) => ({ k: 'at', file, e })), file }));
}

/** The same condition wherever it is carried: its file, its place and whether it holds or fails there. */
export function condKey(c: Cond, file: string): string {
  return `${c.file ?? file}:${c.pos}:${c.holds ? 1 : 0}`;
}

/** The condition as the registration runs under it: `config.auth`, `!(config.auth)` in an else. */
export function condLabel(c: Cond): string {
  // (the extraction keeps 81 characters: one more tells that the text goes on)
  const text = c.text.length > 80 ? `${c.text.slice(0, 79)}…` : c.text;
  if (c.holds) return text;
  // `if (!config.serveStatic) return;`: what follows runs when `config.serveStatic`
  return /^!\s*[\w$.]+$/.test(text) ? text.replace(/^!\s*/, '') : `!(${text})`;
}
