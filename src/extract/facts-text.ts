/**
 * A file's facts as text (the cache's entries, a worker's results) and back.
 *
 * Most of what a file's facts hold is never read by a run: in a `check --cache` run that links
 * again after one edit (the bench's (d4), on its generated 2,000-file tree), a run read 14 % of
 * the scopes' bindings and the `LATER` fields of 33 % of the functions, 30 % of the registrations
 * and 9 % of the calls (measured before registrations on what is never a router were dropped:
 * extract.ts `neverRouter`). So those parts (`LATER`, and each binding's expression) are
 * written apart and decoded the first time something reads them. Until then they stay UTF-8
 * bytes outside the JavaScript heap: reading a file's facts back builds a fraction of the
 * objects, and the garbage collector, which copies every young object that survives, never
 * copies the undecoded text. Facts extracted on the thread that links them are plain objects
 * and never go through here.
 */
import type { EncodedBinding, Expr, FileFacts, Scope } from '../types.js';

/**
 * The lines after the first of a file's facts as text, as UTF-8 bytes: each holds one JSON
 * value, decoded when something reads it. Undecoded parts refer to it by line number (a fact
 * or scope keeps it under `LINES`), so reading a file's facts back makes no object per part.
 */
class Lines {
  /** line n (from 1): bytes[starts[n - 1] .. starts[n] - 1) */
  private readonly starts: number[] = [0];

  constructor(private readonly bytes: Buffer) {
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) this.starts.push(at + 1);
    this.starts.push(bytes.length + 1);
  }

  /** `n`, when it is a line this holds; throws otherwise (facts that are not the text's). */
  check(n: unknown): number {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n >= this.starts.length) throw new Error('facts refer to a line they do not have');
    return n;
  }

  text(n: number): string {
    return this.bytes.toString('utf8', this.starts[n - 1], this.starts[n]! - 1);
  }

  decode(n: number): unknown {
    return JSON.parse(this.text(n));
  }
}

/** Where a scope or a fact read back keeps its file's `Lines`. */
const LINES = Symbol('lines');
type WithLines = { [LINES]?: Lines };

/**
 * The fields of a fact that a run reads only for some facts of its kind, written apart:
 * a function's body facts; a registration's all but its target, method, place and conditions
 * (every registration's target is evaluated, to find those made on a router, whose place and
 * conditions are read); a call's arguments, place and conditions.
 */
const LATER = {
  functions: ['params', 'behaviour', 'returns', 'leading', 'leadingPastServed', 'responseFields', 'dispatch', 'allowsMethods', 'methodFilter'],
  registrations: ['args', 'chainPath', 'awaited', 'promised', 'snippet'],
  calls: ['args', 'when', 'at', 'snippet'],
} as const satisfies { [K in 'functions' | 'registrations' | 'calls']: readonly (keyof FileFacts[K][number])[] };

type Later = typeof LATER;
type Kind = keyof Later;
type Fact<K extends Kind> = FileFacts[K][number];
/** A fact as written: its fields but those read later, and the line that holds those. */
type Written<K extends Kind> = Omit<Fact<K>, Later[K][number]> & { later: number };

const LATER_FIELDS = Symbol('later fields');

/**
 * The class of the facts of one kind read back: an instance holds the fields read always as its
 * own, and the others as the number of their line until one of them is first read (then
 * decoded, all together, once: an expression must stay one object, the evaluator memoises by it).
 */
function readBack<K extends Kind>(kind: K): new (written: Written<K>, lines: Lines) => Fact<K> {
  type Fields = Record<string, unknown>;
  type Instance = Fields & { [LATER_FIELDS]: Fields | number; [LINES]: Lines };
  function ReadBack(this: Instance, written: Fields, lines: Lines): void {
    for (const key in written) if (key !== 'later') this[key] = written[key];
    this[LATER_FIELDS] = lines.check(written.later);
    this[LINES] = lines;
  }
  for (const key of LATER[kind]) {
    Object.defineProperty(ReadBack.prototype, key, {
      get(this: Instance): unknown {
        const later = this[LATER_FIELDS];
        return (typeof later === 'number' ? (this[LATER_FIELDS] = this[LINES].decode(later) as Fields) : later)[key];
      },
    });
  }
  return ReadBack as unknown as new (written: Written<K>, lines: Lines) => Fact<K>;
}

const READ_BACK: { [K in Kind]: ReturnType<typeof readBack<K>> } = {
  functions: readBack('functions'),
  registrations: readBack('registrations'),
  calls: readBack('calls'),
};

/** The expression bound to `name` in scope `s` (own bindings only: `toString` is a name like any other). */
export function bindingOf(s: Scope, name: string): Expr | undefined {
  if (!Object.hasOwn(s.bindings, name)) return undefined;
  const b = s.bindings[name]!;
  if (!isEncoded(b)) return b;
  // Decoded once and kept: the evaluator memoises by expression, so a binding must stay one object.
  const expr = (s as Scope & WithLines)[LINES]!.decode(b) as Expr;
  s.bindings[name] = expr;
  return expr;
}

/** Every expression bound in scope `s`. */
export function bindingsOf(s: Scope): Expr[] {
  return Object.keys(s.bindings).map((name) => bindingOf(s, name)!);
}

/** Whether `b` is a binding read back from text and not decoded yet (read it with `bindingOf`). */
export function isEncoded(b: Expr | EncodedBinding | undefined): b is EncodedBinding {
  return typeof b === 'number';
}

/**
 * A file's facts as text; `factsFromText` reads back its UTF-8. The first line is the facts as
 * JSON, but for each binding's expression and each function's, registration's and call's
 * fields read later (`LATER`), where it has a number: the line, after the first, that holds
 * them as JSON (JSON.stringify never writes a line break). Written on lines of their own, and
 * not as strings inside the first line, they are neither escaped when written nor unescaped
 * when read.
 */
export function factsToText(facts: FileFacts): string {
  const { head, lines } = textParts(facts);
  return lines.length === 0 ? head : `${head}\n${lines.join('\n')}`;
}

/**
 * The same text in two parts: its first line, and the lines after it as UTF-8 (empty when
 * there are none). A worker sends its results so (pool.ts): the bytes are moved to the main
 * thread, not copied, and `factsFromParts` keeps them as they come.
 */
export function factsToParts(facts: FileFacts): { head: string; rest: Uint8Array<ArrayBuffer> } {
  const { head, lines } = textParts(facts);
  return { head, rest: UTF8.encode(lines.join('\n')) };
}

/** The whole text (`factsToText`) of facts sent in parts (`factsToParts`), as UTF-8. */
export function partsToText(head: string, rest: Uint8Array): Uint8Array {
  return rest.length === 0 ? UTF8.encode(head) : Buffer.concat([Buffer.from(`${head}\n`), rest]);
}

const UTF8 = new TextEncoder();

function textParts(facts: FileFacts): { head: string; lines: string[] } {
  const lines: string[] = [];
  const line = (json: string): number => lines.push(json);
  const written = <K extends Kind>(kind: K): Written<K>[] =>
    (facts[kind] as Fact<K>[]).map((fact) => {
      const always: Record<string, unknown> = {};
      const later: Record<string, unknown> = {};
      const laterKeys: readonly string[] = LATER[kind];
      for (const [key, value] of Object.entries(fact)) if (!laterKeys.includes(key)) always[key] = value;
      for (const key of laterKeys) later[key] = (fact as unknown as Record<string, unknown>)[key];
      always.later = line(JSON.stringify(later));
      return always as Written<K>;
    });
  const head = JSON.stringify({
    ...facts,
    scopes: facts.scopes.map((s) => ({ ...s, bindings: mapValues(s.bindings, (b) => line(isEncoded(b) ? (s as Scope & WithLines)[LINES]!.text(b) : JSON.stringify(b))) })),
    functions: written('functions'),
    registrations: written('registrations'),
    calls: written('calls'),
  });
  return { head, lines };
}

/**
 * Facts written by `factsToText`, from their UTF-8; throws on bytes that are not theirs. The
 * lines after the first are copied apart, so the undecoded ones do not keep the first alive
 * (nor the buffer they came in, which the cache reuses).
 */
export function factsFromText(bytes: Uint8Array): FileFacts {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const firstEnd = buf.indexOf(10);
  // (a copy made by Buffer.from(subarray) goes element by element: slower than reading the file)
  const rest = Buffer.allocUnsafeSlow(firstEnd < 0 ? 0 : buf.length - firstEnd - 1);
  if (firstEnd >= 0) buf.copy(rest, 0, firstEnd + 1);
  return factsFromParts(buf.toString('utf8', 0, firstEnd < 0 ? buf.length : firstEnd), rest);
}

/**
 * Facts sent as `factsToParts` made them; throws on parts that are not theirs. `rest` is kept
 * as it is, undecoded but for the lines something reads: it must be a buffer of its own.
 */
export function factsFromParts(head: string, rest: Uint8Array): FileFacts {
  const facts = JSON.parse(head) as Omit<FileFacts, Kind> & { [K in Kind]: Written<K>[] };
  const lines = new Lines(Buffer.from(rest.buffer, rest.byteOffset, rest.byteLength));
  // The parsed objects are the facts: scopes keep their bindings' line numbers, facts of the
  // kinds read later are made instances of their class. Every line number is checked now.
  for (const s of facts.scopes as (Scope & WithLines)[]) {
    for (const name in s.bindings) lines.check(s.bindings[name]);
    s[LINES] = lines;
  }
  const readBackAll = <K extends Kind>(kind: K): Fact<K>[] => (facts[kind] as Written<K>[]).map((written) => new READ_BACK[kind](written, lines));
  return { ...facts, functions: readBackAll('functions'), registrations: readBackAll('registrations'), calls: readBackAll('calls') };
}

function mapValues<T, U>(o: Record<string, T>, f: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const k of Object.keys(o)) out[k] = f(o[k]!);
  return out;
}

/**
 * A file's facts as text (`factsToText`), decoded whole at once into plain objects, each part
 * in place of its line number; throws on a text that is not theirs.
 */
export function plainFactsFromText(text: string): FileFacts {
  const [first, ...rest] = text.split('\n');
  const facts = JSON.parse(first!) as Omit<FileFacts, Kind> & { [K in Kind]: Written<K>[] };
  const line = (n: unknown): unknown => {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > rest.length) throw new Error('facts refer to a line they do not have');
    return JSON.parse(rest[n - 1]!);
  };
  for (const s of facts.scopes) for (const name in s.bindings) s.bindings[name] = line(s.bindings[name]) as Expr;
  const whole = <K extends Kind>(kind: K): Fact<K>[] => (facts[kind] as Written<K>[]).map(({ later, ...always }) => ({ ...always, ...(line(later) as object) }) as unknown as Fact<K>);
  return { ...facts, functions: whole('functions'), registrations: whole('registrations'), calls: whole('calls') };
}
