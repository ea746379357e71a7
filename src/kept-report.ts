/**
 * `check --cache`: the last report, kept beside the cache (`<cache file>.report`).
 *
 * A run whose inputs are all those of the last one (memo.ts: the result's key) gets the last
 * result back; reporting it again — reading back and decoding the whole result, rendering it
 * — is then much of what the run does (on the bench's 2,000-file tree: 8 MB of result and an
 * 11 MB JSON report, about 0.2 s of a 0.6 s run). The report itself is kept instead, with the
 * key of the result it reports and how it was reported (`reportKey`: the format and every
 * option that changes its bytes, the colours, the working directory); a run with the same
 * key writes those bytes again, as they were written. A result that stands unmoved under a
 * new key (only files it never read changed) keeps its report too (`rekeyReport`), and so
 * does one whose locations only moved, reported as JSON, its lines moved (`movedJsonReport`).
 * The caller keeps only reports made from the result alone (cli.ts: not with a baseline, whose
 * file is not in the key).
 *
 * The file is a header of `HEADER_BYTES` (JSON, padded with spaces, ending in a line break)
 * and the report's bytes. The header holds the key, the summary (the exit code comes from
 * it), the report's length and its CRC-32. It is written through a temporary file renamed over
 * the old one, so a reader sees a whole report or the previous one. Anything amiss — another
 * key, a short or damaged file, one that is not a kept report — and the result is reported as
 * usual. A path that holds something other than a regular file, or a file that is not a kept
 * report, is neither read nor replaced.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import type { RunResult } from './engine.js';
import type { LineMap } from './relocate.js';

const FORMAT = 1;
const HEADER_BYTES = 512;
const HEADER_START = '{"tool":"route-surface","report":';

interface Header {
  tool: 'route-surface';
  report: number;
  key: string;
  summary: RunResult['summary'];
  length: number;
  crc: number;
}

export interface KeptReport {
  bytes: Buffer;
  summary: RunResult['summary'];
}

/** Where the report is kept for the cache file `cacheFile`. */
export function reportFileOf(cacheFile: string): string {
  return `${cacheFile}.report`;
}

/** The key of a report: the result's key and how it is reported (plain JSON). */
export function reportKey(resultKey: string, how: unknown): string {
  return crypto.createHash('sha1').update(resultKey).update('\0').update(JSON.stringify(how)).digest('base64url');
}

/** The report kept in `file` under `key`, or null. */
export function readKeptReport(file: string, key: string): KeptReport | null {
  let fd: number | null = null;
  try {
    if (!fs.statSync(file).isFile()) return null;
    fd = fs.openSync(file, 'r');
    const head = Buffer.allocUnsafe(HEADER_BYTES);
    if (fs.readSync(fd, head, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return null;
    const header = JSON.parse(head.toString('utf8')) as Header;
    if (header.tool !== 'route-surface' || header.report !== FORMAT || header.key !== key) return null;
    // exactly the file's size (so a header that lies never makes a run allocate what is not there)
    if (header.length !== fs.fstatSync(fd).size - HEADER_BYTES) return null;
    const bytes = Buffer.allocUnsafeSlow(header.length);
    if (fs.readSync(fd, bytes, 0, header.length, HEADER_BYTES) !== header.length || zlib.crc32(bytes) !== header.crc) return null;
    return { bytes, summary: header.summary };
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Keep the report `pieces` make in `file` under `key`, as they pass on to the caller (who
 * writes them out): the pieces are yielded as they come, as UTF-8, and the report is kept
 * once they have all passed. Keeping it never fails the run: what cannot be written is not
 * kept.
 */
export function* keepingReport(file: string, key: string, summary: RunResult['summary'], pieces: Iterable<string>): Generator<Uint8Array> {
  const w = ReportWriter.open(file);
  try {
    for (const piece of pieces) {
      // encoded once: these bytes are kept and written out
      const bytes = Buffer.from(piece, 'utf8');
      w?.add(bytes);
      yield bytes;
    }
    w?.finish(key, summary);
  } finally {
    // (also when the pieces fail, or the caller stops taking them: a write of the report failed)
    w?.close();
  }
}

/**
 * The report kept in `file` under `from`, kept again under `to` (the result it reports stands
 * under a new key), its locations in the `moved` files moved (a JSON report only, see
 * `movedJsonReport`); null when there is none under `from`, or it cannot be moved or kept
 * again.
 */
export function rekeyReport(file: string, from: string, to: string, moved: ReadonlyMap<string, LineMap> = new Map()): KeptReport | null {
  const kept = readKeptReport(file, from);
  const report = kept && moved.size > 0 ? movedJsonReport(kept, moved) : kept;
  const w = report ? ReportWriter.open(file) : null;
  if (!report || !w) return null;
  try {
    w.add(report.bytes);
    return w.finish(to, report.summary) ? report : null;
  } finally {
    w.close();
  }
}

/** How a JSON report starts (report/json.ts); no other format does. */
const JSON_REPORT_START = Buffer.from('{\n  "tool": {\n    "name": "route-surface",\n');
/** What follows a location's `"file": "…",`, a line break and the indentation in a JSON report. */
const LINE_KEY = '"line": ';

/**
 * A JSON report of a result whose locations moved (relocate.ts: `relocateResult`), as the
 * result moved would be reported: each `"line"` beside a `"file"` of a moved file, which is
 * how report/json.ts writes every location, mapped. Null — the result is reported anew — when
 * that is not known to be so: another format; a moved file's name not followed by its line,
 * or on a line the map does not know; a text naming a place in one (`file:line`); a map that
 * changes the order of lines (routes and findings are sorted by line within a file).
 */
export function movedJsonReport(report: KeptReport, moved: ReadonlyMap<string, LineMap>): KeptReport | null {
  const bytes = report.bytes;
  if (!bytes.subarray(0, JSON_REPORT_START.length).equals(JSON_REPORT_START)) return null;
  const edits: [start: number, end: number, line: number][] = [];
  for (const [file, lines] of moved) {
    const order = [...lines].sort((a, b) => a[0] - b[0]);
    if (order.some(([, to], i) => i > 0 && to <= order[i - 1]![1])) return null;
    const name = JSON.stringify(file);
    if (bytes.includes(`${name.slice(1, -1)}:`)) return null;
    // every `"file": "…"` of the file, each followed by its line
    const key = Buffer.from(`"file": ${name}`);
    for (let at = bytes.indexOf(key); at >= 0; at = bytes.indexOf(key, at + key.length)) {
      let i = at + key.length;
      if (bytes[i] !== 0x2c || bytes[i + 1] !== 0x0a) return null;
      for (i += 2; bytes[i] === 0x20; ) i++;
      if (bytes.toString('latin1', i, i + LINE_KEY.length) !== LINE_KEY) return null;
      const start = i + LINE_KEY.length;
      let end = start;
      while (bytes[end]! >= 0x30 && bytes[end]! <= 0x39) end++;
      const line = lines.get(Number(bytes.toString('latin1', start, end)));
      if (end === start || line === undefined) return null;
      edits.push([start, end, line]);
    }
  }
  edits.sort((a, b) => a[0] - b[0]);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const [start, end, line] of edits) {
    pieces.push(bytes.subarray(from, start), Buffer.from(String(line)));
    from = end;
  }
  pieces.push(bytes.subarray(from));
  return { bytes: Buffer.concat(pieces), summary: report.summary };
}

/** A report being kept: written to a temporary file beside `file`, renamed over it when finished. */
class ReportWriter {
  private length = 0;
  private crc = 0;
  private kept = false;

  private constructor(
    private readonly file: string,
    private readonly tmp: string,
    private fd: number | null,
  ) {}

  /** A writer for `file`; null when what is there is not a kept report (or nothing), or nothing can be written beside it. */
  static open(file: string): ReportWriter | null {
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      const there = fs.lstatSync(file, { throwIfNoEntry: false });
      return !there || (there.isFile() && isKeptReport(file)) ? new ReportWriter(file, tmp, fs.openSync(tmp, 'w')) : null;
    } catch {
      return null;
    }
  }

  add(bytes: Uint8Array): void {
    if (this.fd === null) return;
    try {
      if (fs.writeSync(this.fd, bytes, 0, bytes.length, HEADER_BYTES + this.length) !== bytes.length) throw new Error('short write');
      this.length += bytes.length;
      this.crc = zlib.crc32(bytes, this.crc);
    } catch {
      this.close();
    }
  }

  /** Put the header and the report in place; whether it is kept. */
  finish(key: string, summary: RunResult['summary']): boolean {
    if (this.fd === null) return false;
    const header = JSON.stringify({ tool: 'route-surface', report: FORMAT, key, summary, length: this.length, crc: this.crc } satisfies Header);
    if (Buffer.byteLength(header) >= HEADER_BYTES) return false;
    try {
      fs.writeSync(this.fd, `${header.padEnd(HEADER_BYTES - 1)}\n`, 0);
      fs.renameSync(this.tmp, this.file);
      this.kept = true;
    } catch {
      // not kept
    }
    return this.kept;
  }

  /** Close the temporary file, and remove it unless it became the kept report. */
  close(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
      if (!this.kept) fs.rmSync(this.tmp, { force: true });
    } catch {
      // left for the cache's sweep of old temporary files
    }
    this.fd = null;
  }
}

/** Whether `file` starts as a kept report does (so it may be replaced). */
function isKeptReport(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const start = Buffer.alloc(HEADER_START.length);
    return start.subarray(0, fs.readSync(fd, start, 0, start.length, 0)).toString('latin1') === HEADER_START;
  } finally {
    fs.closeSync(fd);
  }
}
