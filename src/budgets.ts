/**
 * Budgets: what keeps a pathological input (a 50 MB bundle, 10,000 nested parentheses, a
 * router mounted under two prefixes fifty levels deep) from crashing or stalling a run.
 * Each limit turns the input into a finding and the run goes on.
 *
 * What is enforced, and how:
 * - size: checked with `stat` before a file is read, so a huge file costs nothing;
 * - nesting depth: brackets are counted in the token stream before parsing (the parser
 *   recurses on them), then the syntax tree is measured with an explicit stack (no recursion)
 *   before the recursive extraction walks it; a parser stack overflow on the constructs the
 *   tokens do not show (10,000 chained `else if`) is caught as well;
 * - time: the parse of one file is a synchronous call that cannot be interrupted, but it is
 *   linear in the (size-bounded) input; the extraction walk checks the clock as it goes and
 *   abandons the file once its parse + extraction time exceeds the budget;
 * - route-graph expansion: adapters count every route listed and every mount walked.
 */
import type { ts as TS } from 'ts-morph';
import type { Config } from './config.js';
import type { TSModule } from './extract/compiler.js';

export interface Budgets {
  maxFileBytes: number;
  maxFileMs: number;
  maxNestingDepth: number;
  maxRoutes: number;
}

export const DEFAULT_BUDGETS: Readonly<Budgets> = {
  maxFileBytes: 2_000_000,
  maxFileMs: 10_000,
  maxNestingDepth: 500,
  maxRoutes: 50_000,
};

export function budgetsOf(config: Config): Budgets {
  return { ...DEFAULT_BUDGETS, ...(config.budgets ?? {}) };
}

/** Thrown inside the extraction walk when a file's time budget is spent. */
export class FileBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`analysis took longer than budgets.maxFileMs (${budgetMs} ms)`);
    this.name = 'FileBudgetExceeded';
  }
}

/** A cheap clock check for hot walks: reads the clock once every 1024 ticks. */
export class Deadline {
  private ticks = 0;
  private readonly end: number;

  constructor(
    private readonly budgetMs: number,
    start = performance.now(),
  ) {
    this.end = start + budgetMs;
  }

  tick(): void {
    if ((++this.ticks & 1023) === 0) this.check();
  }

  check(): void {
    if (performance.now() > this.end) throw new FileBudgetExceeded(this.budgetMs);
  }
}

/**
 * The stack of the walk that looks for a node nested too deeply: nodes and their levels, kept
 * between files (so the walk allocates nothing, not even a closure per node: it ran on every
 * node of every parsed file and allocated more than the rest of the extraction together).
 */
const pending: (TS.Node | undefined)[] = [];
const levels: number[] = [];
let top = 0;
/** the level of the children being pushed */
let childLevel = 0;
const pushChild = (c: TS.Node): void => {
  pending[top] = c;
  levels[top++] = childLevel;
};
const anyChild = (): true => true;

/**
 * How many levels a node's subtree may have beyond the characters it spans (`end - pos`,
 * leading trivia included): a child lies within its parent, and only a few kinds of node share
 * their parent's whole text (`x` as an expression statement without `;`) or have none at all (a
 * node the parser makes up for a missing one). Measured: at most 1 over the 48,972 source
 * files of the 51 repositories checked out, at most 2 over 500,000 random token soups; 8 is
 * kept to spare.
 */
const SPAN_MARGIN = 8;

/** The first node nested deeper than `max` levels, found without recursion; null when none is. */
export function tooDeepNode(ts: TSModule, sf: TS.SourceFile, max: number): TS.Node | null {
  // Whether any node is too deep, in whatever order: children go straight onto the stack, with
  // no list per node. Only a file that has one is walked again in source order to name it.
  // A node too short to hold `max` levels below its own is not entered (SPAN_MARGIN): most
  // of a file's statements are.
  pending[0] = sf;
  levels[0] = 0;
  top = 1;
  let tooDeep = false;
  while (top > 0 && !tooDeep) {
    const node = pending[--top]!;
    pending[top] = undefined; // not kept alive until the next file's walk
    const level = levels[top]!;
    if (level + (node.end - node.pos) + SPAN_MARGIN <= max) continue;
    childLevel = level + 1;
    if (childLevel > max) tooDeep = ts.forEachChild(node, anyChild) === true;
    else ts.forEachChild(node, pushChild);
  }
  pending.fill(undefined, 0, top);
  top = 0;
  if (!tooDeep) return null;
  const nodes: TS.Node[] = [sf];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return node;
    const children: TS.Node[] = [];
    ts.forEachChild(node, (c) => {
      children.push(c);
    });
    // Pushed in reverse so the walk is in source order and the node reported is the first one.
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i]!);
      depths.push(depth + 1);
    }
  }
  return null;
}

/**
 * The offset of the first bracket — `(`, `[`, `{` or a template's `${` — that opens deeper
 * than `max`, from the token stream alone (before parsing, without recursion); null when none
 * does. The compiler's parser recurses on such nesting and runs out of stack a little above
 * this budget, at a depth that depends on the thread (a worker has another stack than the main
 * thread): checked first, the same file is always reported the same way.
 */
export function tooDeepBracket(ts: TSModule, text: string, jsx: boolean, max: number): number | null {
  // Every bracket the scan below counts holds a `(`, `[` or `{` of its own (a `${` its `{`): a
  // text with no more of those characters than `max` cannot nest deeper, and most files are
  // told so by a character count, without a second tokenisation of the file.
  // (counted by indexOf, which searches far faster than a loop over every character)
  let brackets = 0;
  for (const open of '([{') for (let i = text.indexOf(open); i >= 0 && brackets <= max; i = text.indexOf(open, i + 1)) brackets++;
  if (brackets <= max) return null;
  const K = ts.SyntaxKind;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text);
  const open: boolean[] = []; // true: a template's `${`
  const ends = new Set([K.Identifier, K.NumericLiteral, K.BigIntLiteral, K.StringLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateTail, K.RegularExpressionLiteral, K.CloseParenToken, K.CloseBracketToken, K.CloseBraceToken, K.ThisKeyword, K.SuperKeyword, K.TrueKeyword, K.FalseKeyword, K.NullKeyword]);
  let prev: TS.SyntaxKind = K.Unknown;
  for (let t = scanner.scan(); t !== K.EndOfFileToken; t = scanner.scan()) {
    // a slash after something that ends an expression divides; anywhere else it starts a regular expression
    if ((t === K.SlashToken || t === K.SlashEqualsToken) && !ends.has(prev)) t = scanner.reScanSlashToken();
    if (t === K.CloseBraceToken && open[open.length - 1] === true) {
      t = scanner.reScanTemplateToken(false);
      if (t === K.TemplateTail) open.pop();
    } else if (t === K.OpenParenToken || t === K.OpenBracketToken || t === K.OpenBraceToken || t === K.TemplateHead) {
      open.push(t === K.TemplateHead);
      if (open.length > max) return scanner.getTokenStart();
    } else if (t === K.CloseParenToken || t === K.CloseBracketToken || t === K.CloseBraceToken) open.pop();
    prev = t;
  }
  return null;
}

/** The 1-based line and column of an offset, with the compiler's line breaks (\n, \r\n, \r, U+2028, U+2029). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue;
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** A stack overflow (as opposed to any other RangeError, which is a bug and must surface). */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}
