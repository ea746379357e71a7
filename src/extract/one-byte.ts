/**
 * A one-byte twin of a source text whose only characters beyond Latin-1 are in comments.
 *
 * V8 keeps a string in one byte a character when all its characters are Latin-1, and in two
 * otherwise; every slice of a two-byte string is two-byte too, whatever it holds. So one em
 * dash in a comment makes every name, literal and snippet the compiler and the extraction cut
 * from the file two-byte, and so every fact: twice the memory they keep, and JSON and UTF-8
 * written on V8's slow paths (a worker's facts, the cache, the report). Such a file is parsed
 * instead as its twin: each of those characters (UTF-16 code units) replaced by one mark, a
 * control character the file does not hold, so that every offset, line and column stays. The
 * twin is used only when its parse proves it faithful (`faithfulTwin`): no syntax error, and
 * every mark inside a comment, where no character changes what the compiler reads. Text the
 * extraction keeps is cut from the twin unless it holds a mark, and from the original then.
 */
import type { ts as TS } from 'ts-morph';
import type { TSModule } from './compiler.js';

/** A code unit a one-byte string cannot hold. */
const WIDE = /[^\x00-\xff]/g;
/**
 * Characters beyond Latin-1 that the compiler reads as white space or a line break outside a
 * comment, or as the end of a line comment inside one (and regular expressions as `\s`):
 * a file holding one is not twinned.
 */
const WIDE_SPACE = /[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** Marks to choose from: control characters that are neither white space nor a line break. */
const MARKS = '\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f';

export interface Twin {
  /** the text with every character beyond Latin-1 replaced by `mark`, one-byte */
  text: string;
  mark: string;
}

/**
 * The twin of `text` worth parsing: null when the text is all Latin-1 already, holds a character
 * the twin cannot stand for, holds every mark, or has a character beyond Latin-1 on a line where
 * no comment opens before it and that does not continue a block comment (`*` first) — a likely
 * string or name, which would only cost a parse of the twin that `faithfulTwin` refuses.
 */
export function latin1Twin(text: string): Twin | null {
  WIDE.lastIndex = 0;
  if (!WIDE.test(text) || WIDE_SPACE.test(text)) return null;
  let mark = '';
  for (const c of MARKS)
    if (!text.includes(c)) {
      mark = c;
      break;
    }
  if (mark === '') return null;
  // one look per line holding such characters, at what comes before the first of them
  let lineEnd = -1;
  for (WIDE.lastIndex = 0; ; ) {
    const m = WIDE.exec(text);
    if (m === null) break;
    if (m.index < lineEnd) continue;
    const start = text.lastIndexOf('\n', m.index) + 1;
    const before = text.slice(start, m.index);
    if (!before.includes('//') && !before.includes('/*') && !/^\s*\*/.test(before)) return null;
    lineEnd = text.indexOf('\n', m.index);
    if (lineEnd < 0) break;
  }
  return { text: Buffer.from(text.replace(WIDE, mark), 'latin1').toString('latin1'), mark };
}

/**
 * Whether the twin's parse `sf` reads the file as its original would: no syntax error, and each
 * mark inside a comment. A comment ends at its closing star and slash or at a line break, none
 * of which a mark replaced, so the tokens before, between and after comments are the original's,
 * character for character.
 */
export function faithfulTwin(ts: TSModule, sf: TS.SourceFile, mark: string): boolean {
  if (((sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? []).length > 0) return false;
  const text = sf.text;
  // Each comment is looked for from the top of the tree: a file with very many such comments is
  // read as written rather than checked at length (its twin's parse is the only cost).
  const budget = { children: MAX_CHILDREN_LOOKED_AT };
  for (let p = text.indexOf(mark); p >= 0; ) {
    const comment = commentAt(ts, sf, p, budget);
    if (!comment) return false;
    p = text.indexOf(mark, comment.end);
  }
  return true;
}

/** How many children `faithfulTwin` looks at, at most, over all the comments of a file. */
export const MAX_CHILDREN_LOOKED_AT = 100_000;

/**
 * The comment holding offset `p`, read from the last token boundary before it: the end of the
 * last child of the innermost node holding `p` that ends before it, or that node's start. Text
 * from a token boundary up to the next token is white space and comments, but in JSX text,
 * which is read from its own start and never trusted here.
 */
function commentAt(ts: TSModule, sf: TS.SourceFile, p: number, budget: { children: number }): TS.CommentRange | undefined {
  let node: TS.Node = sf;
  for (;;) {
    let from = node.pos;
    let inner: TS.Node | undefined;
    ts.forEachChild(node, (c) => {
      if (--budget.children < 0) return true;
      if (c.end <= p) {
        from = c.end;
        return undefined;
      }
      if (c.pos <= p) inner = c;
      return true;
    });
    if (budget.children < 0) return undefined;
    if (inner === undefined) {
      if (node.kind === ts.SyntaxKind.JsxText) return undefined;
      // the comments before the first line break, and those after it
      const held = (r: TS.CommentRange): boolean => r.pos <= p && p < r.end;
      return ts.getTrailingCommentRanges(sf.text, from)?.find(held) ?? ts.getLeadingCommentRanges(sf.text, from)?.find(held);
    }
    node = inner;
  }
}
