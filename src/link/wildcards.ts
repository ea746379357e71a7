/**
 * Regular expressions an allowlist tests a path with (`^\/auth\/.+`, `/v1/runs/.+/public`,
 * `^\/api\/v\d+\/(health|status)$`, `[^/]+\.png$`), compared exactly with the paths a route can
 * be requested at: whether some request path to the route matches (the allowlist lets a request
 * to it through), and whether every one does.
 *
 * Both are read as automata over one character at a time. A route's request paths: its literal
 * characters (each in either case where the route is matched in any case), a parameter one
 * character or more other than `/`, a wildcard any text, and a trailing slash optional where
 * the route does not tell — no control character or space in them (IN_REQUEST_PATH). The expression (a Thompson automaton): characters, `.`, classes
 * (`[a-z0-9_-]`, `[^/]`, `\d`, `\w`, `\s` and their complements), groups (capturing, named or
 * not) with alternatives, every quantifier (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not:
 * a lazy one matches the same texts, only found in another order), and the anchors `^` and `$`
 * wherever they are written; a match may start and end anywhere, as RegExp.prototype.test finds
 * one. Not read (null): lookarounds, backreferences, word boundaries, control escapes, and the
 * flags `m` (anchors at every line) and `y` (anchored where the last match ended). With `i`,
 * letters match in either case as ASCII ones do (request paths are ASCII: a letter beyond it is
 * matched as written). The characters are told apart by the ranges the sets of both automata
 * start and end at, so trying one character of each such range at every step decides both
 * questions exactly.
 */
import { pathTokens } from '../adapters/paths.js';

/** A set of UTF-16 code units: sorted, disjoint, inclusive ranges `[lo0, hi0, lo1, hi1, …]`. */
type CharSet = number[];

/** A route's character, to be matched once, any number of times (`*`) or at most once (`?`). */
type Atom = { c: CharSet; repeat: '' | '*' | '?' };

/**
 * A state of the expression's automaton: reading a character of `set` (to `next`), passing the
 * anchor `assert` without reading one (to `next`), or moving on to `eps` without reading one.
 */
type State = { set: CharSet; next: number } | { assert: '^' | '$'; next: number } | { eps: number[] };

/** The parsed expression, for a route's request paths to be compared with (`answers`: those worked out, by route). */
export interface WildcardPattern {
  states: State[];
  start: number;
  accept: number;
  answers: Map<string, { some: boolean; every: boolean }>;
}

/** Characters a regular expression matches as themselves, unescaped. */
export const LITERAL_CHAR = /[A-Za-z0-9/_~:%@!,;=&'-]/;
/** Escaped characters that stand for themselves (`\/`, `\.`); an escaped letter is a class (`\d`). */
export const ESCAPED_LITERAL = /[^A-Za-z0-9]/;

const MAX_CHAR = 0xffff;
const ALL: CharSet = [0, MAX_CHAR];
const DIGIT: CharSet = [0x30, 0x39];
const WORD: CharSet = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
// (ECMAScript's WhiteSpace and LineTerminator)
const SPACE: CharSet = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];
const LINE_TERMINATORS: CharSet = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
/**
 * What a parameter's or a wildcard's text is made of: no control character, space or line
 * separator, which a request line cannot carry as they are (Node's parser refuses them; a
 * request made with `new Request(url)` has them percent-encoded).
 */
const IN_REQUEST_PATH: CharSet = complement(union([0x00, 0x20, 0x7f, 0x7f], LINE_TERMINATORS));
/** Automata larger than this are not built (a counted repeat of a counted repeat…). */
const MAX_STATES = 4000;

function union(a: CharSet, b: CharSet): CharSet {
  const ranges: [number, number][] = [];
  for (const s of [a, b]) for (let i = 0; i < s.length; i += 2) ranges.push([s[i]!, s[i + 1]!]);
  ranges.sort((x, y) => x[0] - y[0]);
  const out: CharSet = [];
  for (const [lo, hi] of ranges) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function complement(a: CharSet): CharSet {
  const out: CharSet = [];
  let from = 0;
  for (let i = 0; i < a.length; i += 2) {
    if (a[i]! > from) out.push(from, a[i]! - 1);
    from = a[i + 1]! + 1;
  }
  if (from <= MAX_CHAR) out.push(from, MAX_CHAR);
  return out;
}

/** The set with each ASCII letter's other case. */
function anyCase(a: CharSet): CharSet {
  const other: CharSet = [];
  for (let i = 0; i < a.length; i += 2) {
    // the part of the range in A–Z, moved to a–z, and the other way round
    for (const [lo, hi, by] of [[0x41, 0x5a, 0x20], [0x61, 0x7a, -0x20]] as const) {
      const l = Math.max(lo, a[i]!);
      const h = Math.min(hi, a[i + 1]!);
      if (l <= h) other.push(l + by, h + by);
    }
  }
  return union(a, other);
}

function holds(set: CharSet, ch: number): boolean {
  for (let i = 0; i < set.length && set[i]! <= ch; i += 2) if (ch <= set[i + 1]!) return true;
  return false;
}

/** An expression's syntax tree. */
type Node = { t: 'set'; set: CharSet } | { t: 'seq'; items: Node[] } | { t: 'alt'; alts: Node[] } | { t: 'rep'; node: Node; min: number; max: number } | { t: 'assert'; a: '^' | '$' };

/** Not read: the parser gives up (see the module's comment). */
class Unread extends Error {}

/** The syntax tree of `source` (ECMAScript's pattern grammar, the part the module reads). */
function parse(source: string, flags: string): Node {
  const caseless = flags.includes('i');
  const unicode = flags.includes('u');
  const dot = flags.includes('s') ? ALL : complement(LINE_TERMINATORS);
  let i = 0;
  const peek = (): string | undefined => source[i];
  const char = (code: number): CharSet => (caseless ? anyCase([code, code]) : [code, code]);

  /**
   * An escape after `\` (in a class when `inClass`): the character it stands for (its code
   * unit), or the class it names.
   */
  const escape = (inClass: boolean): number | CharSet => {
    const c = source[i++];
    if (c === undefined) throw new Unread();
    const hex = (digits: number): number => {
      const m = new RegExp(`^[0-9a-fA-F]{${digits}}`).exec(source.slice(i));
      if (!m) throw new Unread();
      i += digits;
      return parseInt(m[0], 16);
    };
    switch (c) {
      case 'd':
        return DIGIT;
      case 'D':
        return complement(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return complement(WORD);
      case 's':
        return SPACE;
      case 'S':
        return complement(SPACE);
      case 'n':
        return 0x0a;
      case 't':
        return 0x09;
      case 'r':
        return 0x0d;
      case 'f':
        return 0x0c;
      case 'v':
        return 0x0b;
      case 'x':
        return hex(2);
      case 'u':
        return hex(4);
      case 'b':
        // (a backspace in a class, a word boundary outside one)
        if (inClass) return 0x08;
        throw new Unread();
      case '0':
        if (/[0-9]/.test(source[i] ?? '')) throw new Unread();
        return 0;
      default:
        // `\/`, `\.`, `\-`: the character itself; an escaped letter or digit other than those above
        // (a backreference, `\k<name>`, `\cX`, `\p{…}`, `\B`) is not read
        if (ESCAPED_LITERAL.test(c)) return c.charCodeAt(0);
        throw new Unread();
    }
  };

  /** A character of a class (its code unit), or a class escape in it. */
  const classAtom = (): number | CharSet => {
    const c = source[i++];
    if (c === undefined) throw new Unread();
    return c === '\\' ? escape(true) : c.charCodeAt(0);
  };

  const charClass = (): CharSet => {
    const negated = peek() === '^';
    if (negated) i++;
    let set: CharSet = [];
    while (peek() !== ']') {
      const from = classAtom();
      if (peek() === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
        i++;
        const to = classAtom();
        // (a range from or to a class, `[\d-z]`, is not read)
        if (typeof from !== 'number' || typeof to !== 'number' || from > to) throw new Unread();
        set = union(set, [from, to]);
      } else set = union(set, typeof from === 'number' ? [from, from] : from);
    }
    i++;
    return caseless ? (negated ? complement(anyCase(set)) : anyCase(set)) : negated ? complement(set) : set;
  };

  const quantified = (node: Node): Node => {
    const q = peek();
    let min: number;
    let max: number;
    if (q === '*') [min, max, i] = [0, Infinity, i + 1];
    else if (q === '+') [min, max, i] = [1, Infinity, i + 1];
    else if (q === '?') [min, max, i] = [0, 1, i + 1];
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) throw new Unread();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (max < min) throw new Unread();
      i += m[0].length;
    } else return node;
    if (node.t === 'assert') throw new Unread();
    if (peek() === '?') i++;
    return { t: 'rep', node, min, max };
  };

  const atom = (): Node => {
    const c = source[i]!;
    if (c === '^' || c === '$') {
      i++;
      return { t: 'assert', a: c };
    }
    if (c === '(') {
      i++;
      if (peek() === '?') {
        if (source[i + 1] === ':') i += 2;
        else if (source[i + 1] === '<' && /^<[A-Za-z_$][\w$]*>/.test(source.slice(i + 1))) i = source.indexOf('>', i) + 1;
        // (a lookahead or lookbehind)
        else throw new Unread();
      }
      const inner = alternatives();
      if (peek() !== ')') throw new Unread();
      i++;
      return inner;
    }
    if (c === '[') {
      i++;
      return { t: 'set', set: charClass() };
    }
    if (c === '.') {
      i++;
      return { t: 'set', set: dot };
    }
    if (c === '\\') {
      i++;
      const e = escape(false);
      return { t: 'set', set: typeof e === 'number' ? char(e) : e };
    }
    // (a quantifier with nothing before it, or a bracket or brace standing for itself)
    if ('*+?{}])|'.includes(c)) throw new Unread();
    const code = c.charCodeAt(0);
    if (unicode && code >= 0xd800 && code <= 0xdfff) throw new Unread();
    i++;
    return { t: 'set', set: char(code) };
  };

  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < source.length && peek() !== '|' && peek() !== ')') items.push(quantified(atom()));
    return { t: 'seq', items };
  };

  const alternatives = (): Node => {
    const alts = [sequence()];
    while (peek() === '|') {
      i++;
      alts.push(sequence());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
  };

  const tree = alternatives();
  if (i < source.length) throw new Unread();
  return tree;
}

/** The Thompson automaton of a syntax tree: its start, and the state its matches end at. */
function build(tree: Node): { states: State[]; start: number; accept: number } {
  const states: State[] = [];
  const add = (s: State): number => {
    if (states.length >= MAX_STATES) throw new Unread();
    states.push(s);
    return states.length - 1;
  };
  const link = (from: number, to: number): void => void (states[from] as { eps: number[] }).eps.push(to);
  // a fragment: its start, and its end (a state with `eps`, to be linked on)
  const make = (n: Node): { start: number; end: number } => {
    switch (n.t) {
      case 'set':
      case 'assert': {
        const end = add({ eps: [] });
        return { start: add(n.t === 'set' ? { set: n.set, next: end } : { assert: n.a, next: end }), end };
      }
      case 'seq': {
        const first = add({ eps: [] });
        let end = first;
        for (const item of n.items) {
          const f = make(item);
          link(end, f.start);
          end = f.end;
        }
        return { start: first, end };
      }
      case 'alt': {
        const start = add({ eps: [] });
        const end = add({ eps: [] });
        for (const alt of n.alts) {
          const f = make(alt);
          link(start, f.start);
          link(f.end, end);
        }
        return { start, end };
      }
      case 'rep': {
        const start = add({ eps: [] });
        let end = start;
        for (let k = 0; k < n.min; k++) {
          const f = make(n.node);
          link(end, f.start);
          end = f.end;
        }
        if (n.max === Infinity) {
          const f = make(n.node);
          link(end, f.start);
          link(f.end, f.start);
          const out = add({ eps: [] });
          link(end, out);
          link(f.end, out);
          return { start, end: out };
        }
        const out = add({ eps: [] });
        for (let k = n.min; k < n.max; k++) {
          link(end, out);
          const f = make(n.node);
          link(end, f.start);
          end = f.end;
        }
        link(end, out);
        return { start, end: out };
      }
    }
  };
  const whole = make(tree);
  return { states, start: whole.start, accept: whole.end };
}

/**
 * The expression as a pattern: null when it holds what the module does not read (see its
 * comment), or flags other than `i`, `s`, `u`, `d` and `g`.
 */
export function wildcardPattern(source: string, flags: string): WildcardPattern | null {
  if (/[^gisud]/.test(flags)) return null;
  try {
    return { ...build(parse(source, flags)), answers: new Map() };
  } catch (e) {
    if (e instanceof Unread) return null;
    throw e;
  }
}

/** A route's request paths as a pattern (see the module's comment). */
function routeAtoms(path: string, caseSensitive: boolean, trailingSlashInsensitive: boolean): Atom[] {
  const atoms: Atom[] = [];
  const notSlash = complement(union(complement(IN_REQUEST_PATH), [0x2f, 0x2f]));
  for (const t of pathTokens(path)) {
    if (t.kind === 'param') atoms.push({ c: notSlash, repeat: '' }, { c: notSlash, repeat: '*' });
    else if (t.kind === 'wild') atoms.push({ c: IN_REQUEST_PATH, repeat: '*' });
    else {
      const code = t.text.charCodeAt(0);
      atoms.push({ c: caseSensitive ? [code, code] : anyCase([code, code]), repeat: '' });
    }
  }
  if (trailingSlashInsensitive && !path.endsWith('/')) atoms.push({ c: [0x2f, 0x2f], repeat: '?' });
  return atoms;
}

/** The route's states reachable from `states` without reading a character (past atoms that may match nothing). */
function routeClosure(atoms: Atom[], states: Iterable<number>): Set<number> {
  const out = new Set<number>();
  for (let s of states) {
    out.add(s);
    while (s < atoms.length && atoms[s]!.repeat !== '') out.add(++s);
  }
  return out;
}

/** A match found (in a set of the expression's states): it stays found whatever follows. */
const MATCHED = -1;

/**
 * The expression's states reachable from `seeds` without reading a character: past `^` only at
 * the start of the path, past `$` only at its end. With MATCHED once the match's end is among them.
 */
function closure(p: WildcardPattern, seeds: Iterable<number>, atStart: boolean, atEnd: boolean): number[] {
  const seen = new Set<number>();
  const todo = [...seeds];
  while (todo.length > 0) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    if (s === MATCHED) continue;
    const st = p.states[s]!;
    if ('eps' in st) todo.push(...st.eps);
    else if ('assert' in st && (st.assert === '^' ? atStart : atEnd)) todo.push(st.next);
  }
  if (seen.has(p.accept)) seen.add(MATCHED);
  return [...seen].sort((a, b) => a - b);
}

/** The expression's states after reading `ch` (a match may also start after it). */
function step(p: WildcardPattern, states: number[], ch: number): number[] {
  const next: number[] = [p.start];
  for (const s of states) {
    if (s === MATCHED) next.push(MATCHED);
    else {
      const st = p.states[s]!;
      if ('set' in st && holds(st.set, ch)) next.push(st.next);
    }
  }
  return closure(p, next, false, false);
}

/** One character of each range the sets of both automata tell apart. */
function alphabet(route: Atom[], p: WildcardPattern): number[] {
  const bounds = new Set<number>([0]);
  const sets = [...route.map((a) => a.c), ...p.states.flatMap((s) => ('set' in s ? [s.set] : []))];
  for (const set of sets)
    for (let i = 0; i < set.length; i += 2) {
      bounds.add(set[i]!);
      if (set[i + 1]! < MAX_CHAR) bounds.add(set[i + 1]! + 1);
    }
  return [...bounds].sort((a, b) => a - b);
}

/**
 * Does the expression match some request path of the route (`some`), and every one (`every`)?
 * With `query`, tested on the URL: a request path alone, or followed by `?` and a query string.
 * Explored over pairs of the route's state and the expression's set of states, so that a path
 * the route takes and the expression does not is found as surely as one both take.
 */
export function wildcardMatches(p: WildcardPattern, route: { path: string; caseSensitive?: boolean; trailingSlashInsensitive?: boolean }, query = false): { some: boolean; every: boolean } {
  const key = `${route.caseSensitive === true ? 1 : 0}${route.trailingSlashInsensitive === true ? 1 : 0}${query ? 1 : 0}${route.path}`;
  let answer = p.answers.get(key);
  if (!answer) {
    const atoms = routeAtoms(route.path, route.caseSensitive === true, route.trailingSlashInsensitive === true);
    answer = explore(p, atoms);
    if (query) {
      const withQuery = explore(p, [...atoms, { c: [0x3f, 0x3f], repeat: '' }, { c: IN_REQUEST_PATH, repeat: '*' }]);
      answer = { some: answer.some || withQuery.some, every: answer.every && withQuery.every };
    }
    p.answers.set(key, answer);
  }
  return answer;
}

function explore(p: WildcardPattern, r: Atom[]): { some: boolean; every: boolean } {
  const chars = alphabet(r, p);
  let some = false;
  let every = true;
  const seen = new Set<string>();
  const queue: [number, number[], boolean][] = [];
  const visit = (rs: number, ps: number[], atStart: boolean): void => {
    const key = `${rs}|${atStart ? '^' : ''}${ps.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([rs, ps, atStart]);
  };
  const initial = closure(p, [p.start], true, false);
  for (const rs of routeClosure(r, [0])) visit(rs, initial, true);
  while (queue.length > 0 && (!some || every)) {
    const [rs, ps, atStart] = queue.pop()!;
    if (rs === r.length) {
      if (closure(p, ps, atStart, true).includes(MATCHED)) some = true;
      else every = false;
    }
    const a = r[rs];
    if (!a) continue;
    for (const ch of chars) {
      if (!holds(a.c, ch)) continue;
      const next = step(p, ps, ch);
      for (const n of routeClosure(r, [a.repeat === '*' ? rs : rs + 1])) visit(n, next, false);
    }
  }
  return { some, every };
}
