/**
 * Where JSON text stops being valid. `JSON.parse` names the position for most syntax errors
 * but not for an unexpected token ("Unexpected token '}', … is not valid JSON"), and a config
 * error must name its line and column. An iterative scan (no recursion: nesting depth is
 * unbounded) following RFC 8259.
 */

const WS = new Set([' ', '\t', '\n', '\r']);
const LITERALS: Record<string, string> = { t: 'true', f: 'false', n: 'null' };
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
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
        // errors at the character that cannot follow: after the backslash, or the bad hex digit
        if (e === 'u') {
          for (let k = i + 2; k < i + 6; k++) if (!/[0-9a-fA-F]/.test(text[k] ?? '')) return Math.min(k, n);
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else return e === undefined ? n : i + 1;
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
        } else if (c === '-' || isDigit(c)) {
          // the error of a malformed number is where a digit was expected
          if (c === '-') i++;
          if (!isDigit(text[i])) return i;
          if (text[i] === '0') i++;
          else while (isDigit(text[i])) i++;
          if (text[i] === '.') {
            i++;
            if (!isDigit(text[i])) return i;
            while (isDigit(text[i])) i++;
          }
          if (text[i] === 'e' || text[i] === 'E') {
            i++;
            if (text[i] === '+' || text[i] === '-') i++;
            if (!isDigit(text[i])) return i;
            while (isDigit(text[i])) i++;
          }
          want = 'after';
        } else {
          const word = LITERALS[c];
          if (!word) return i;
          for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return i;
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
