/**
 * Where JSON text stops being valid. `JSON.parse` names the position for most syntax errors
 * but not for an unexpected token ("Unexpected token '}', … is not valid JSON"), and a config
 * error must name its line and column. An iterative scan (no recursion: nesting depth is
 * unbounded) following RFC 8259.
 */

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** The offset of the first character that makes `text` invalid JSON (its length when it ends too early); -1 when it is valid. */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  const stack: string[] = [];
  let want: 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'after' = 'value';
  let i = 0;
  const string = (): number => {
    // at the opening quote; returns the offset of an error, or -1 with `i` after the closing quote
    i++;
    while (i < n) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return -1;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return i;
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else return e === undefined ? n : i;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) return i;
      i++;
    }
    return n;
  };
  for (;;) {
    while (i < n && WS.has(text[i]!)) i++;
    if (i >= n) return want === 'after' && stack.length === 0 ? -1 : n;
    const c = text[i]!;
    const top = stack[stack.length - 1];
    switch (want) {
      case 'value':
      case 'valueOrClose': {
        if (want === 'valueOrClose' && c === ']') {
          stack.pop();
          i++;
          want = 'after';
        } else if (c === '{') {
          stack.push('{');
          i++;
          want = 'keyOrClose';
        } else if (c === '[') {
          stack.push('[');
          i++;
          want = 'valueOrClose';
        } else if (c === '"') {
          const e = string();
          if (e >= 0) return e;
          want = 'after';
        } else {
          NUMBER.lastIndex = i;
          LITERAL.lastIndex = i;
          const m = NUMBER.exec(text) ?? LITERAL.exec(text);
          // `tru` at the very end is a document cut short, not a bad token
          if (!m) return ['true', 'false', 'null'].some((l) => l.startsWith(text.slice(i)) && text.length - i < l.length) ? n : i;
          i += m[0].length;
          want = 'after';
        }
        break;
      }
      case 'key':
      case 'keyOrClose': {
        if (want === 'keyOrClose' && c === '}') {
          stack.pop();
          i++;
          want = 'after';
          break;
        }
        if (c !== '"') return i;
        const e = string();
        if (e >= 0) return e;
        want = 'colon';
        break;
      }
      case 'colon':
        if (c !== ':') return i;
        i++;
        want = 'value';
        break;
      case 'after':
        if (top === undefined) return i;
        if (c === ',') {
          i++;
          want = top === '{' ? 'key' : 'value';
        } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
          stack.pop();
          i++;
        } else return i;
        break;
    }
  }
}
