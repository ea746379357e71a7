/**
 * Files whose facts only moved: an edit that changed none of a file's facts that a run reads,
 * but the lines they are on (a comment, a blank line, a local that nothing looks up, a call at
 * the head of a handler that is no guard).
 * Then the kept result stands, its locations in those files moved to their new lines
 * (`--cache`, engine.ts).
 *
 * Why that is the result a full run would give. The facts are all that the linker, the
 * adapters and the rules know of a file, and they read a location only to copy it into the
 * result, to order registrations and classes within one file ((line, column) compared, or a
 * call's `pos`), as an identity (`${file}:${pos}` names a router, `${file}:${line}:${column}`
 * a call site), and to match a suppression comment with the line after it. So when the new
 * facts equal the old ones but for lines and `pos` offsets, columns included, and the old →
 * new line map is a strictly increasing function (and so is the offsets'), every order,
 * identity and copy comes out the same, moved. The one arithmetic use — a suppression covers
 * line + 1 — is checked apart (`nextLinesKept`).
 *
 * Bindings may differ too (`const count = rows.length` added to a handler after its response),
 * when no run can read them: a binding of a function's scope is read only by a lookup of its name from that
 * scope or one inside it — a reference (`ref`, also looking for `*static*name`), or a condition
 * of a 401 or of an error let go (`status401If`, `swallowsIf`, looked up from its function's
 * scope) — unless an adapter reads every binding of the file (`Adapter.readsEveryBinding`).
 * Module-scope bindings are also read through exports and special names: any change there
 * counts. The lookups counted are those
 * outside the differing bindings, which are reached only through one of them.
 *
 * Leading calls may differ too (`FunctionFact.leading`: `const startedAt = Date.now()` or
 * `audit.record(req.path)` put at the head of a handler): for each function, the calls between
 * its longest unchanged head and tail are returned as removed and added, and the caller judges
 * them (link.ts, `inertChanges`: each is no guard and calls no parameter, with the old facts for
 * those removed and the new ones for those added; collect.ts). Those are all a run reads of a
 * function's leading calls, and a call found inert yields nothing: every other order, identity
 * and copy is as before, moved. The lookups of names a removed call makes are judged with it.
 *
 * The file's calls may differ the same way (`FileFacts.calls`: a statement calling something
 * with a name or an object among its arguments, `logger.info({ tenantId }, 'listed')`): the
 * calls between their longest unchanged head and tail are returned as removed and added, for
 * the caller to judge (link.ts, `inertChanges`: each calls nothing the analysed files define,
 * and no adapter reads it whatever it calls, `Adapter.readsCall`). Those are what the linker
 * and the adapters ask of a call; the Nest adapter reads every call of a file importing
 * @nestjs/core (`Adapter.readsEveryBinding`), so there any change counts.
 *
 * A function's returned expressions may differ too (`FunctionFact.returns`: a field added to
 * the object a view helper returns), and its response fields (`responseFields`,
 * `returnedSessionExposures`): the functions are returned for the caller to judge against the
 * kept result's scope (cache.ts, `ResultScope`): every reader of returns asks the evaluator
 * (`Evaluator.returnsOf`), which records the function, and the rules read response fields of
 * the functions that handle routes only. Returns no run read, and response fields of no
 * handler, yield nothing; their locations are not paired (the result holds none of them).
 *
 * A location in the result is an object's `line` beside its `file`. A result with a location in
 * a moved file the map does not know, or a text naming a place in one (`file:line`, as the Nest
 * API-docs note does), is not relocated: the run links again.
 */
import type { Adapter } from './adapters/adapter.js';
import type { CallFact, Expr, FileFacts, FunctionFact, LeadingGuard, Scope } from './types.js';
import { CTOR_PREFIX, THIS_PREFIX } from './extract/extract.js';

/** Where the lines of a file's old facts are now: old line → new line. */
export type LineMap = ReadonlyMap<number, number>;

/**
 * Leading statements of one function (`FunctionFact.leading`) that an edit removed or added,
 * between runs of ones that stayed (moved, maybe).
 */
export interface LeadingChange {
  fn: number;
  removed: LeadingGuard[];
  added: LeadingGuard[];
}

/** The file's calls (`FileFacts.calls`) an edit removed and added, between runs of ones that stayed. */
export interface CallChange {
  removed: CallFact[];
  added: CallFact[];
}

/**
 * How a file's facts moved: its line map, and leading statements and calls to be judged inert
 * before the result stands; the functions (ids) whose returned expressions differ, and those
 * whose response fields (or returned session ids) do — the result stands when it read none of
 * those returns and none of those functions handles a route of it.
 */
export interface Moved {
  lines: LineMap;
  leading: LeadingChange[];
  calls: CallChange;
  returns: number[];
  responses: number[];
}

/** Keys whose numbers are lines in the file. */
const LINE_KEYS = new Set(['line', 'endLine']);
/** A call's offset in the file (an identity and an order, never reported). */
const OFFSET_KEY = 'pos';

interface Pairs {
  lines: Map<number, number>;
  offsets: Map<number, number>;
}

/**
 * The line map from a file's old facts to its new ones (both plain, decoded whole), when the
 * facts a run can read only moved — but for leading statements of functions added or removed,
 * which the caller must judge (link.ts, `inertLeading`); null when anything else changed.
 */
export function factsMoved(before: FileFacts, after: FileFacts, adapters: readonly Adapter[]): Moved | null {
  const pairs: Pairs = { lines: new Map(), offsets: new Map() };
  const keys = Object.keys(before) as (keyof FileFacts)[];
  if (keys.length !== Object.keys(after).length) return null;
  for (const k of keys) if (k !== 'scopes' && k !== 'functions' && k !== 'calls' && (!Object.hasOwn(after, k) || !sameBut(before[k], after[k], k, pairs))) return null;
  const fns = functionChanges(before.functions, after.functions, pairs);
  if (fns === null) return null;
  const { leading, returns, responses } = fns;
  const calls = splice(before.calls, after.calls, pairs);
  if (calls === null) return null;
  const differing = differingBindings(before.scopes, after.scopes, pairs);
  if (differing === null) return null;
  // (the rest of the facts, imports included, are equal by now: asking of the old ones is enough;
  // lookups made by leading statements and calls removed are judged with them)
  const readsAll = adapters.some((a) => a.readsEveryBinding?.(before));
  if (readsAll && calls.removed.length + calls.added.length > 0) return null;
  const removed = new Set<unknown>([...leading.flatMap((c) => c.removed), ...calls.removed]);
  if (differing.length > 0 && (readsAll || !unreachable(differing, before, removed))) return null;
  if (!increasing(pairs.lines) || !increasing(pairs.offsets)) return null;
  return nextLinesKept(before, after, pairs.lines) ? { lines: pairs.lines, leading, calls, returns, responses } : null;
}

/**
 * The functions' facts equal but for moves, their leading statements, their returned
 * expressions and their response fields: the leading statements equal but for a run removed
 * and a run added (each function's longest common head and tail kept, their locations paired),
 * and the functions whose returns or response fields differ (their locations not paired: what
 * the result holds of them stands only if it read none of them). Null when anything else differs.
 */
function functionChanges(before: FunctionFact[], after: FunctionFact[], pairs: Pairs): { leading: LeadingChange[]; returns: number[]; responses: number[] } | null {
  if (before.length !== after.length) return null;
  const leading: LeadingChange[] = [];
  const returns: number[] = [];
  const responses: number[] = [];
  for (let i = 0; i < before.length; i++) {
    const { leading: x, returns: rx, responseFields: fx, returnedSessionExposures: ex, ...a } = before[i]!;
    const { leading: y, returns: ry, responseFields: fy, returnedSessionExposures: ey, ...b } = after[i]!;
    if (!sameBut(a, b, null, pairs)) return null;
    const change = splice(x, y, pairs);
    if (change === null) return null;
    if (change.removed.length + change.added.length > 0) leading.push({ fn: a.id, ...change });
    const sameReturns = sameInto(rx, ry, pairs);
    if (sameReturns === null) return null;
    if (!sameReturns) returns.push(a.id);
    const sameResponses = sameInto([fx, ex], [fy, ey], pairs);
    if (sameResponses === null) return null;
    if (!sameResponses) responses.push(a.id);
  }
  return { leading, returns, responses };
}

/**
 * Two lists equal but for a run of `x` replaced by a run of `y`: the longest common head and
 * tail kept (their locations paired), the rest returned as removed and added. Null when a
 * kept item's line or offset pairs with another new one already.
 */
function splice<T>(x: T[], y: T[], pairs: Pairs): { removed: T[]; added: T[] } | null {
  let same: boolean | null = true;
  let head = 0;
  while (head < x.length && head < y.length && (same = sameInto(x[head], y[head], pairs))) head++;
  let tail = 0;
  while (same !== null && tail < x.length - head && tail < y.length - head && (same = sameInto(x[x.length - 1 - tail], y[y.length - 1 - tail], pairs))) tail++;
  if (same === null) return null;
  return { removed: x.slice(head, x.length - tail), added: y.slice(head, y.length - tail) };
}

/**
 * Whether `x` and `y` are the same but for moves (their pairs then join `pairs`); null when
 * they are, but an old line or offset of theirs is paired with another new one already.
 */
function sameInto(x: unknown, y: unknown, pairs: Pairs): boolean | null {
  const own: Pairs = { lines: new Map(), offsets: new Map() };
  if (!sameBut(x, y, null, own)) return false;
  for (const [p, q] of own.lines) if (!pair(pairs.lines, p, q)) return null;
  for (const [p, q] of own.offsets) if (!pair(pairs.offsets, p, q)) return null;
  return true;
}

/**
 * Whether `x` and `y` are equal but for the numbers under a line or offset key, which are
 * recorded as pairs (each old number must always pair with the same new one). `key` is the
 * property `x` is the value of.
 */
function sameBut(x: unknown, y: unknown, key: string | null, pairs: Pairs): boolean {
  if (typeof x === 'number' && typeof y === 'number' && key !== null) {
    if (LINE_KEYS.has(key)) return pair(pairs.lines, x, y);
    if (key === OFFSET_KEY) return pair(pairs.offsets, x, y);
  }
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return x === y;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameBut(x[i], y[i], null, pairs)) return false;
    return true;
  }
  const ox = x as Record<string, unknown>;
  const oy = y as Record<string, unknown>;
  const kx = Object.keys(ox);
  if (kx.length !== Object.keys(oy).length) return false;
  for (const k of kx) if (!Object.hasOwn(oy, k) || !sameBut(ox[k], oy[k], k, pairs)) return false;
  return true;
}

function pair(map: Map<number, number>, from: number, to: number): boolean {
  const known = map.get(from);
  if (known === undefined) map.set(from, to);
  return known === undefined || known === to;
}

/**
 * The bindings that differ between the old scopes and the new ones (added, removed or bound
 * to something else), as [scope, name]; the others' locations paired. Null when the scopes
 * themselves differ.
 */
function differingBindings(before: Scope[], after: Scope[], pairs: Pairs): [number, string][] | null {
  if (before.length !== after.length) return null;
  const out: [number, string][] = [];
  for (let i = 0; i < before.length; i++) {
    const a = before[i]!;
    const b = after[i]!;
    if (a.id !== b.id || a.parent !== b.parent) return null;
    for (const name of new Set([...Object.keys(a.bindings), ...Object.keys(b.bindings)])) {
      const x = Object.hasOwn(a.bindings, name) ? a.bindings[name] : undefined;
      const y = Object.hasOwn(b.bindings, name) ? b.bindings[name] : undefined;
      // compared apart: a differing binding's locations are not paired
      const same = x === undefined || y === undefined ? false : sameInto(x, y, pairs);
      if (same === null) return null;
      if (!same) out.push([a.id, name]);
    }
  }
  return out;
}

/** Whether no lookup of a name, from the old facts outside the differing bindings (and `skipped`), can read one of them. */
function unreachable(differing: [number, string][], facts: FileFacts, skipped: ReadonlySet<unknown>): boolean {
  if (differing.some(([scope]) => scope === 0)) return false;
  const skip = new Set(differing.map(([scope, name]) => `${scope}\0${name}`));
  /** per name looked up, the scopes it is looked up from */
  const lookups = new Map<string, Set<number>>();
  const lookup = (name: string, scope: number): void => {
    let at = lookups.get(name);
    if (!at) lookups.set(name, (at = new Set()));
    at.add(scope);
  };
  const visit = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || skipped.has(v)) return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item);
      return;
    }
    const e = v as Expr;
    if (e.k === 'ref' && typeof e.name === 'string' && typeof e.scope === 'number') {
      lookup(e.name, e.scope);
      // a class's name reads what is kept beside it: its statics (`X.member`), its instance fields and constructor (`new X()`)
      lookup(`*static*${e.name}`, e.scope);
      lookup(`${THIS_PREFIX}${e.name}`, e.scope);
      lookup(`${CTOR_PREFIX}${e.name}`, e.scope);
    }
    for (const x of Object.values(v)) visit(x);
  };
  for (const k of Object.keys(facts) as (keyof FileFacts)[]) if (k !== 'scopes') visit(facts[k]);
  for (const s of facts.scopes) for (const name of Object.keys(s.bindings)) if (!skip.has(`${s.id}\0${name}`)) visit(s.bindings[name]);
  for (const f of facts.functions) for (const c of [...(f.behaviour.status401If ?? []).flat(), ...(f.behaviour.swallowsIf ?? [])]) lookup(c.name, f.scope);
  // A lookup from scope O reads the scopes from O up: the differing binding's scope must not be one of them.
  const parent = new Map(facts.scopes.map((s) => [s.id, s.parent]));
  return differing.every(([scope, name]) => {
    for (const from of lookups.get(name) ?? []) for (let s: number | null | undefined = from; s !== null && s !== undefined; s = parent.get(s)) if (s === scope) return false;
    return true;
  });
}

/** Whether the map keeps order, strictly (so also tells apart what it told apart). */
function increasing(map: Map<number, number>): boolean {
  const from = [...map.keys()].sort((p, q) => p - q);
  for (let i = 1; i < from.length; i++) if (map.get(from[i]!)! <= map.get(from[i - 1]!)!) return false;
  return true;
}

/**
 * A suppression comment covers the line after it: each one must cover the same located facts
 * after the edit as before — the old next line moved to the line after the comment's new one,
 * or, when no fact was on it, none moved there.
 */
function nextLinesKept(before: FileFacts, after: FileFacts, lines: LineMap): boolean {
  const reached = new Set(lines.values());
  return before.suppressions.every((s, i) => {
    const next = after.suppressions[i]!.line + 1;
    const moved = lines.get(s.line + 1);
    return moved === undefined ? !reached.has(next) : moved === next;
  });
}

/**
 * Where locations are after `first` and then `then` moved them: per file, each old line `first`
 * moved to a line `then` knows, to where `then` moved that one. A location on a line either
 * does not know stays unknown, and relocateResult refuses it, as it would refuse it in two steps.
 */
export function composeMoves(first: ReadonlyMap<string, LineMap>, then: ReadonlyMap<string, LineMap>): Map<string, LineMap> {
  const out = new Map<string, LineMap>(first);
  for (const [file, lines] of then) {
    const before = first.get(file);
    if (!before) {
      out.set(file, lines);
      continue;
    }
    const both = new Map<number, number>();
    for (const [from, mid] of before) {
      const to = lines.get(mid);
      if (to !== undefined) both.set(from, to);
    }
    out.set(file, both);
  }
  return out;
}

/**
 * Move the kept result's locations in the `moved` files (in place). False when it cannot be
 * done soundly: a location there the map does not know, or a text naming a place in one.
 */
export function relocateResult(result: unknown, moved: ReadonlyMap<string, LineMap>): boolean {
  const names = [...moved.keys()].map((f) => `${f}:`);
  const shortest = Math.min(...names.map((n) => n.length));
  const namesPlace = (v: string): boolean => v.length >= shortest && names.some((n) => v.includes(n));
  // a walk of the whole result (tens of thousands of routes): plain loops, no for…in
  const walk = (v: object): boolean => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string' ? namesPlace(item) : typeof item === 'object' && item !== null && !walk(item)) return false;
      }
      return true;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const item = o[k];
      if (typeof item === 'string' ? k !== 'file' && namesPlace(item) : typeof item === 'object' && item !== null && !walk(item)) return false;
    }
    if (typeof o.file === 'string' && typeof o.line === 'number') {
      const map = moved.get(o.file);
      if (map) {
        const line = map.get(o.line);
        if (line === undefined) return false;
        o.line = line;
      }
    }
    return true;
  };
  return typeof result !== 'object' || result === null || walk(result);
}
