/**
 * JSON files the analysed code imports: `import config from '../../plugin.json'` (a plugin's
 * id, the path its routes are registered under), `require('./routes.json')`. Node, TypeScript's
 * `resolveJsonModule` and the bundlers make such a file's value its module's default export
 * (CommonJS: `module.exports`), and bundlers each top-level property a named export too. So its
 * facts are those of `module.exports = <the value>`, as a source file saying so would have them
 * (the default export, and one export per top-level property that reads it from the default).
 *
 * The text is read as Node reads it, with `JSON.parse`: comments and trailing commas are errors
 * (a `parse-error` finding, as for source). Nothing in it is executed.
 */
import type { Expr, FileFacts, Loc } from '../types.js';

/** A module specifier or file that names a JSON file. */
export const JSON_MODULE = /\.json$/i;

/** The facts of a JSON file; a parse-error fact when the text is not JSON or nests deeper than `maxDepth`. */
export function jsonModuleFacts(text: string, maxDepth: number, empty: FileFacts): FileFacts {
  const body = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    return { ...empty, parseError: jsonError(body, err) };
  }
  const toExpr = (v: unknown, depth: number): Expr => {
    if (depth > maxDepth) throw new TooDeep();
    if (typeof v === 'string') return { k: 'str', v };
    if (typeof v === 'number') return { k: 'num', v };
    if (typeof v === 'boolean') return { k: 'bool', v };
    if (v === null) return { k: 'unknown', text: 'null' };
    if (Array.isArray(v)) return { k: 'arr', items: v.map((x) => toExpr(x, depth + 1)) };
    // (own properties made by definition: a key "__proto__" stays a key)
    return { k: 'obj', props: Object.fromEntries(Object.entries(v as object).map(([key, x]) => [key, toExpr(x, depth + 1)])) };
  };
  let root: Expr;
  try {
    root = toExpr(value, 0);
  } catch (err) {
    if (!(err instanceof TooDeep)) throw err;
    return { ...empty, parseError: { message: `JSON nested deeper than budgets.maxNestingDepth (${maxDepth}); not analysed`, at: { line: 1, column: 1 } } };
  }
  const facts: FileFacts = { ...empty, exports: [{ exported: 'default', local: '*default*' }], scopes: [{ id: 0, parent: null, bindings: { '*default*': root } }] };
  if (root.k === 'obj') {
    for (const key of Object.keys(root.props)) {
      if (key === 'default') continue;
      facts.exports.push({ exported: key, local: `*cjs*${key}` });
      facts.scopes[0]!.bindings[`*cjs*${key}`] = { k: 'member', obj: { k: 'ref', name: '*default*', scope: 0 }, prop: key };
    }
  }
  return facts;
}

/** Whether the text is not JSON (for a file only checked for syntax errors). */
export function jsonSyntaxError(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return false;
  } catch {
    return true;
  }
}

class TooDeep extends Error {}

/** JSON.parse's complaint, without the copy of the text it may quote, placed at the first offset that is not JSON. */
function jsonError(text: string, err: unknown): { message: string; at: Loc } {
  const said = err instanceof Error ? err.message : String(err);
  const complaint = said
    .replace(/, (?:\.\.\.)?"[^]*" is not valid JSON$/, '')
    .replace(/ at position \d+(?: \(line \d+ column \d+\))?$/, '')
    .replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1));
  const message = `not valid JSON: ${complaint}`;
  const pos = Math.min(notJsonAt(text), text.length);
  const before = text.slice(0, pos);
  return { message, at: { line: before.split('\n').length, column: pos - before.lastIndexOf('\n') } };
}

/** A string, number, true, false or null, from `lastIndex` on. */
const LITERAL = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/**
 * Where a text JSON.parse refuses stops being JSON (RFC 8259): JSON.parse says so only for some
 * errors. Arrays and objects are followed on a stack of their own, so no nesting runs out of it.
 */

function notJsonAt(text: string): number {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (): boolean => {
    LITERAL.lastIndex = i;
    if (!LITERAL.test(text)) return false;
    i = LITERAL.lastIndex;
    return true;
  };
  // a member's name and its colon; false where they are not
  const key = (): boolean => {
    if (text[i] !== '"' || !literal()) return false;
    ws();
    if (text[i] !== ':') return false;
    i++;
    ws();
    return true;
  };
  const open: string[] = [];
  ws();
  for (;;) {
    // a value
    if (text[i] === '[' || text[i] === '{') {
      const c = text[i++]!;
      ws();
      if (text[i] === (c === '[' ? ']' : '}')) i++;
      else {
        open.push(c);
        if (c === '{' && !key()) return i;
        continue;
      }
    } else if (!literal()) return i;
    // what follows it
    for (;;) {
      ws();
      const c = open[open.length - 1];
      if (c === undefined) return i; // text after the value, or none (the error is elsewhere: the end)
      if (text[i] === (c === '[' ? ']' : '}')) {
        open.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return i;
      i++;
      ws();
      if (c === '{' && !key()) return i;
      break;
    }
  }
}
