/**
 * A file's facts as text (the cache's entries, a worker's results) and back.
 *
 * Most of what a file's facts hold is never read by a run: in a `check --cache` run after one
 * edit, on a generated 2,000-file tree, linking read 14 % of the scopes' bindings, 2 % of the
 * functions' return expressions and 17 % of their leading guard calls. So those parts are
 * written apart and decoded the first time something reads them: each binding's expression,
 * and each function's body facts (`params`, `behaviour`, `returns`, `leading`,
 * `responseFields`). Until then they stay UTF-8 bytes outside the JavaScript heap: reading a
 * file's facts back builds about half the objects, and the garbage collector, which copies
 * every young object that survives, never copies the undecoded text. Facts extracted on the
 * thread that links them are plain objects and never go through here.
 */
import type { Behaviour, Expr, FileFacts, FunctionFact, LeadingGuard, Loc, ResponseField, Scope } from '../types.js';

/** One JSON value written by `factsToText`, as UTF-8 bytes: decoded when something reads it. */
export class Encoded {
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

  decode(): unknown {
    return JSON.parse(this.text());
  }

  text(): string {
    return this.bytes.toString('utf8', this.start, this.end);
  }
}

/** The facts of a function that a run reads only for some functions. */
interface FunctionBody {
  params: string[];
  behaviour: Behaviour;
  returns: Expr[];
  leading: LeadingGuard[];
  responseFields: ResponseField[];
}

type Exposure = FunctionFact['sessionExposures'][number];

/** A function's facts read back: its body facts decoded when first read. */
class DecodedFunction implements FunctionFact {
  readonly id: number;
  readonly name: string | null;
  readonly at: Loc;
  readonly scope: number;
  readonly sessionExposures: Exposure[];
  readonly returnedSessionExposures: Exposure[];
  /** the body facts, encoded until first read */
  #body: FunctionBody | Encoded;

  constructor(encoded: EncodedFunction<Encoded>) {
    this.id = encoded.id;
    this.name = encoded.name;
    this.at = encoded.at;
    this.scope = encoded.scope;
    this.sessionExposures = encoded.sessionExposures;
    this.returnedSessionExposures = encoded.returnedSessionExposures;
    this.#body = encoded.body;
  }

  #decoded(): FunctionBody {
    if (this.#body instanceof Encoded) this.#body = this.#body.decode() as FunctionBody;
    return this.#body;
  }

  get params(): string[] {
    return this.#decoded().params;
  }
  get behaviour(): Behaviour {
    return this.#decoded().behaviour;
  }
  get returns(): Expr[] {
    return this.#decoded().returns;
  }
  get leading(): LeadingGuard[] {
    return this.#decoded().leading;
  }
  get responseFields(): ResponseField[] {
    return this.#decoded().responseFields;
  }
}

/** A function's facts but for its body facts, given by `B`: encoded, or (as written) the line that holds them. */
type EncodedFunction<B> = Omit<FunctionFact, keyof FunctionBody> & { body: B };

/** The expression bound to `name` in scope `s` (own bindings only: `toString` is a name like any other). */
export function bindingOf(s: Scope, name: string): Expr | undefined {
  if (!Object.hasOwn(s.bindings, name)) return undefined;
  const b = s.bindings[name]!;
  if (!(b instanceof Encoded)) return b;
  // Decoded once and kept: the evaluator memoises by expression, so a binding must stay one object.
  const expr = b.decode() as Expr;
  s.bindings[name] = expr;
  return expr;
}

/** Every expression bound in scope `s`. */
export function bindingsOf(s: Scope): Expr[] {
  return Object.keys(s.bindings).map((name) => bindingOf(s, name)!);
}

/**
 * A file's facts as text; `factsFromText` reads back its UTF-8. The first line is the facts as
 * JSON, where each function's body facts and each binding's expression is a number: the line,
 * after the first, that holds it as JSON (JSON.stringify never writes a line break). Written on
 * lines of their own, and not as strings inside the first line, they are neither escaped when
 * written nor unescaped when read.
 */
export function factsToText(facts: FileFacts): string {
  const lines: string[] = [];
  const line = (json: string): number => lines.push(json);
  const first = JSON.stringify({
    ...facts,
    scopes: facts.scopes.map((s) => ({ ...s, bindings: mapValues(s.bindings, (b) => line(b instanceof Encoded ? b.text() : JSON.stringify(b))) })),
    functions: facts.functions.map((f): EncodedFunction<number> => {
      const { params, behaviour, returns, leading, responseFields, ...rest } = f;
      return { ...rest, body: line(JSON.stringify({ params, behaviour, returns, leading, responseFields } satisfies FunctionBody)) };
    }),
  });
  return lines.length === 0 ? first : `${first}\n${lines.join('\n')}`;
}

/**
 * Facts written by `factsToText`, from their UTF-8; throws on bytes that are not theirs. The
 * lines after the first are copied apart, so the undecoded ones do not keep the first alive.
 */
export function factsFromText(bytes: Uint8Array): FileFacts {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const firstEnd = buf.indexOf(10);
  const facts = JSON.parse(buf.toString('utf8', 0, firstEnd < 0 ? buf.length : firstEnd)) as Omit<FileFacts, 'functions' | 'scopes'> & {
    scopes: (Omit<Scope, 'bindings'> & { bindings: Record<string, number> })[];
    functions: EncodedFunction<number>[];
  };
  const rest = Buffer.from(firstEnd < 0 ? new Uint8Array(0) : buf.subarray(firstEnd + 1));
  // line n (from 1) of those after the first: rest[starts[n - 1] .. starts[n] - 1)
  const starts = [0];
  for (let at = rest.indexOf(10); at >= 0; at = rest.indexOf(10, at + 1)) starts.push(at + 1);
  starts.push(rest.length + 1);
  const lineOf = (n: number): Encoded => {
    if (!Number.isInteger(n) || n < 1 || n >= starts.length) throw new Error('facts refer to a line they do not have');
    return new Encoded(rest, starts[n - 1]!, starts[n]! - 1);
  };
  return {
    ...facts,
    scopes: facts.scopes.map((s) => ({ ...s, bindings: mapValues(s.bindings, lineOf) })),
    functions: facts.functions.map((f) => new DecodedFunction({ ...f, body: lineOf(f.body) })),
  };
}

function mapValues<T, U>(o: Record<string, T>, f: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const k of Object.keys(o)) out[k] = f(o[k]!);
  return out;
}
