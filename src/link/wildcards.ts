/**
 * Regular expressions an allowlist tests a path with that are literal text with wildcards
 * (`^\/auth\/.+`, `/v1/runs/.+/public`, `\/files\/.*\.png$`), compared exactly with the paths a
 * route can be requested at: whether some request path to the route matches (the allowlist
 * lets a request to it through), and whether every one does.
 *
 * Both are read as automata over one character at a time. A route's request paths: its literal
 * characters (each in either case where the route is matched in any case), a parameter one
 * character or more other than `/`, a wildcard any text, and a trailing slash optional where
 * the route does not tell. The expression: literal characters, `.` (any character) and either
 * of them repeated (`*`, `+`) or optional (`?`), anchored at the start (`^`) or the end (`$`) or
 * any text allowed there. The characters that tell the two apart are finite (those written in
 * either, `/`, and one standing for every other), so trying each of them at every step decides
 * both questions exactly.
 */
import { pathTokens } from '../adapters/paths.js';

/** One character of a pattern: this one (in either case, with `anyCase`), any but `/`, or any. */
type CharClass = { ch: string; anyCase: boolean } | 'notSlash' | 'any';
/** A pattern's character, to be matched once, any number of times (`*`) or at most once (`?`). */
type Atom = { c: CharClass; repeat: '' | '*' | '?' };

/** The parsed expression, for a route's request paths to be compared with (`answers`: those worked out, by route). */
export interface WildcardPattern {
  atoms: Atom[];
  answers: Map<string, { some: boolean; every: boolean }>;
}

/** Characters a regular expression matches as themselves, unescaped. */
export const LITERAL_CHAR = /[A-Za-z0-9/_~:%@!,;=&'-]/;
/** Escaped characters that stand for themselves (`\/`, `\.`); an escaped letter is a class (`\d`). */
export const ESCAPED_LITERAL = /[^A-Za-z0-9]/;

/**
 * The expression as a pattern: null when it holds anything but literal characters, `.`, the
 * quantifiers `*`, `+` and `?` after one of those, and the anchors; or flags other than `i`,
 * `s`, `u`, `d` and `g` (`y` anchors it where the last match ended, `m` at every line).
 */
export function wildcardPattern(source: string, flags: string): WildcardPattern | null {
  if (/[^gisud]/.test(flags)) return null;
  const anyCase = flags.includes('i');
  const atoms: Atom[] = [];
  let i = 0;
  if (source.startsWith('^')) i = 1;
  else atoms.push({ c: 'any', repeat: '*' });
  let end = source.length;
  // (`\$` is a dollar sign: an anchor only when not escaped)
  const anchoredEnd = source.endsWith('$') && !/(?:^|[^\\])(?:\\\\)*\\\$$/.test(source);
  if (anchoredEnd) end--;
  while (i < end) {
    const c = source[i]!;
    let cls: CharClass;
    if (c === '\\' && i + 1 < end && ESCAPED_LITERAL.test(source[i + 1]!)) {
      cls = { ch: source[i + 1]!, anyCase };
      i += 2;
    } else if (c === '.') {
      cls = 'any';
      i++;
    } else if (LITERAL_CHAR.test(c)) {
      cls = { ch: c, anyCase };
      i++;
    } else return null;
    const q = i < end ? source[i] : undefined;
    // (a lazy quantifier, `.+?`, matches the same texts, only found in another order)
    const lazy = (q === '*' || q === '+' || q === '?') && source[i + 1] === '?' && i + 1 < end ? 1 : 0;
    if (q === '*' || q === '?') {
      atoms.push({ c: cls, repeat: q });
      i += 1 + lazy;
    } else if (q === '+') {
      atoms.push({ c: cls, repeat: '' }, { c: cls, repeat: '*' });
      i += 1 + lazy;
    } else if (q === '{') return null;
    else atoms.push({ c: cls, repeat: '' });
  }
  if (!anchoredEnd) atoms.push({ c: 'any', repeat: '*' });
  return { atoms, answers: new Map() };
}

/** A route's request paths as a pattern (see the module's comment). */
function routeAtoms(path: string, caseSensitive: boolean, trailingSlashInsensitive: boolean): Atom[] {
  const atoms: Atom[] = [];
  for (const t of pathTokens(path)) {
    if (t.kind === 'param') atoms.push({ c: 'notSlash', repeat: '' }, { c: 'notSlash', repeat: '*' });
    else if (t.kind === 'wild') atoms.push({ c: 'any', repeat: '*' });
    else atoms.push({ c: { ch: t.text, anyCase: !caseSensitive }, repeat: '' });
  }
  if (trailingSlashInsensitive && !path.endsWith('/')) atoms.push({ c: { ch: '/', anyCase: false }, repeat: '?' });
  return atoms;
}

function holds(c: CharClass, ch: string): boolean {
  if (c === 'any') return true;
  if (c === 'notSlash') return ch !== '/';
  return c.ch === ch || (c.anyCase && c.ch.toLowerCase() === ch.toLowerCase());
}

/** The states reachable from `states` without reading a character (past atoms that may match nothing). */
function closure(atoms: Atom[], states: Iterable<number>): Set<number> {
  const out = new Set<number>();
  for (let s of states) {
    out.add(s);
    while (s < atoms.length && atoms[s]!.repeat !== '') out.add(++s);
  }
  return out;
}

/** The states after reading `ch` from `states` (closed). */
function step(atoms: Atom[], states: Set<number>, ch: string): Set<number> {
  const next: number[] = [];
  for (const s of states) {
    const a = atoms[s];
    if (!a || !holds(a.c, ch)) continue;
    next.push(a.repeat === '*' ? s : s + 1);
  }
  return closure(atoms, next);
}

/** The characters that tell the patterns' classes apart: each written, in both cases, `/`, and one standing for any other. */
function alphabet(...patterns: Atom[][]): string[] {
  const chars = new Set<string>(['/']);
  for (const atoms of patterns)
    for (const a of atoms)
      if (typeof a.c === 'object') {
        chars.add(a.c.ch);
        chars.add(a.c.ch.toLowerCase());
        chars.add(a.c.ch.toUpperCase());
      }
  // (a character no path pattern or expression here spells)
  chars.add('\u0001');
  return [...chars];
}

/**
 * Does the expression match some request path of the route (`some`), and every one (`every`)?
 * Explored over pairs of the route's state and the expression's set of states, so that a path
 * the route takes and the expression does not is found as surely as one both take.
 */
export function wildcardMatches(p: WildcardPattern, route: { path: string; caseSensitive?: boolean; trailingSlashInsensitive?: boolean }): { some: boolean; every: boolean } {
  const key = `${route.caseSensitive === true ? 1 : 0}${route.trailingSlashInsensitive === true ? 1 : 0}${route.path}`;
  let answer = p.answers.get(key);
  if (!answer) p.answers.set(key, (answer = explore(p, routeAtoms(route.path, route.caseSensitive === true, route.trailingSlashInsensitive === true))));
  return answer;
}

function explore(p: WildcardPattern, r: Atom[]): { some: boolean; every: boolean } {
  const chars = alphabet(r, p.atoms);
  let some = false;
  let every = true;
  const seen = new Set<string>();
  const queue: [number, Set<number>][] = [];
  const visit = (rs: number, ps: Set<number>): void => {
    const key = `${rs}|${[...ps].sort((a, b) => a - b).join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([rs, ps]);
  };
  for (const rs of closure(r, [0])) visit(rs, closure(p.atoms, [0]));
  while (queue.length > 0 && (!some || every)) {
    const [rs, ps] = queue.pop()!;
    if (rs === r.length) {
      if (ps.has(p.atoms.length)) some = true;
      else every = false;
    }
    const a = r[rs];
    if (!a) continue;
    for (const ch of chars) {
      if (!holds(a.c, ch)) continue;
      const next = step(p.atoms, ps, ch);
      for (const n of closure(r, [a.repeat === '*' ? rs : rs + 1])) visit(n, next);
    }
  }
  return { some, every };
}
