/**
 * Reading one source file defensively: the size budget is checked before reading, binary
 * files are recognised and skipped (binaryAt), the encoding is decoded the way the TypeScript compiler
 * does (UTF-8, with or without a BOM; UTF-16 with a BOM), and invalid UTF-8 is reported
 * instead of silently turning into replacement characters.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { ParseErrorFact } from './types.js';

export type SourceText =
  /** `note`: a problem worth a parse-error finding even though the file was analysed */
  | { ok: true; text: string; note: ParseErrorFact | null }
  /** the file is not analysed; `skip` says why */
  | { ok: false; skip: ParseErrorFact; errno?: string };

const AT_START = { line: 1, column: 1 };

/** Git's heuristic: a NUL byte among the first 8000 bytes makes a file binary (see binaryAt). */
const BINARY_SNIFF_BYTES = 8000;
/** NUL bytes a source file may spell in its strings (`'null\0byte.txt'`) and still be text. */
const SOURCE_NULS = 8;

export function readSourceText(abs: string, maxFileBytes: number): SourceText {
  let size: number;
  try {
    const st = fs.statSync(abs);
    if (!st.isFile()) return { ok: false, skip: { message: 'not a regular file; not analysed', at: AT_START } };
    size = st.size;
  } catch (err) {
    return unreadable(err);
  }
  if (size > maxFileBytes)
    return { ok: false, skip: { message: `the file is ${size} bytes, over budgets.maxFileBytes (${maxFileBytes}); not analysed`, at: AT_START } };
  let buf: Buffer;
  try {
    buf = fs.readFileSync(abs);
  } catch (err) {
    return unreadable(err);
  }
  // Re-checked on the bytes read: the file may have grown since the stat.
  if (buf.length > maxFileBytes)
    return { ok: false, skip: { message: `the file is ${buf.length} bytes, over budgets.maxFileBytes (${maxFileBytes}); not analysed`, at: AT_START } };
  return decode(buf);
}

function unreadable(err: unknown): SourceText {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return { ok: false, skip: { message: `cannot read the file (${code}); not analysed`, at: AT_START }, errno: code };
}

/** Decode source bytes as the compiler would, reporting what could not be decoded faithfully. */
export function decode(buf: Buffer): SourceText {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return { ok: true, text: buf.subarray(2).toString('utf16le'), note: null };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    const body = Buffer.from(buf.subarray(2, 2 + ((buf.length - 2) & ~1)));
    return { ok: true, text: body.swap16().toString('utf16le'), note: null };
  }
  const hasBom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const body = hasBom ? buf.subarray(3) : buf;
  const nul = binaryAt(buf, body);
  if (nul >= 0) return { ok: false, skip: { message: `binary file (a NUL byte at offset ${nul}); not analysed`, at: AT_START } };
  const text = body.toString('utf8');
  const bad = isUtf8(body) ? -1 : firstInvalidUtf8(body);
  if (bad < 0) return { ok: true, text, note: null };
  const before = body.subarray(0, bad).toString('utf8');
  const nl = before.lastIndexOf('\n');
  const at = { line: before.split('\n').length, column: before.length - nl };
  const byte = body[bad]!.toString(16).padStart(2, '0');
  return {
    ok: true,
    text,
    note: { message: `not valid UTF-8 (byte 0x${byte}); invalid bytes were read as U+FFFD, so strings containing them may be wrong`, at },
  };
}

/**
 * Where the NUL byte that makes a file binary is (Git's heuristic: one among the first 8000
 * bytes), or -1 for text — also when the file is UTF-8 and its few NUL bytes stand apart, as a
 * source file may spell one inside a string (`['null\0byte.txt', 'nullbyte.txt']` in a test of
 * a file-name sanitiser), which the compiler reads as any other character.
 */
function binaryAt(buf: Buffer, body: Buffer): number {
  const sniff = buf.subarray(0, BINARY_SNIFF_BYTES);
  const first = sniff.indexOf(0);
  if (first < 0) return -1;
  let count = 0;
  for (let i = first; i >= 0; i = sniff.indexOf(0, i + 1)) {
    if (++count > SOURCE_NULS || sniff[i + 1] === 0) return first;
  }
  return isUtf8(body) ? -1 : first;
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
