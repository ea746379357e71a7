/**
 * `check --cache`: per-file facts kept between runs, so an unchanged file is never parsed
 * again (SPEC section 2, `--cache` / `--cache-location`).
 *
 * An entry is keyed by the file's path and the hash of its content; the whole cache by a
 * key made of the tool version, a digest of the code that extracts facts, the TypeScript
 * compiler version and the configuration that changes extraction (budgets). A cache made
 * under another key is ignored and rewritten. A cache that cannot be read, is truncated, or
 * was written by something else is ignored too: never fatal, the run only gets slower. Every
 * entry (and the replayed result) carries a checksum of its bytes (CRC-32, `Checksum`): one
 * damaged in place, even one that still parses, is not trusted but extracted (computed) again.
 *
 * The file is a line of JSON naming the tool, the format and the key; then the facts of
 * every file as texts (src/extract/facts-text.ts), back to back (and the last run's result);
 * then the index (per file its hash, stat signature, text signals and where its facts are);
 * and last a fixed-size trailer giving where the index starts. Only the facts a run needs
 * are decoded.
 *
 * A run that extracted few files (an edit, a branch switch) appends to the file in place:
 * its new facts, its result, a new index and a new trailer go after the old trailer, and
 * nothing already written is touched — so a reader of the old version reads on undisturbed,
 * and a reader (or a run killed while appending) that finds no trailer at the end takes the
 * last complete version, the one the last trailer before it describes. Appending runs take
 * turns through a lock file. Otherwise — the cache was absent, foreign or damaged, more of it
 * would be replaced bytes than live ones, many files were extracted, or another run holds
 * the lock — the next cache is written whole as the run goes (facts as they are extracted,
 * the old ones copied, the result in pieces, the index at the end) to a temporary file
 * renamed over the old one. Either way no run holds every file's facts (or the result) as
 * one text in memory, and concurrent runs leave one complete cache.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { Budgets } from './budgets.js';
import { tsMorphVersion } from './extract/compiler.js';
import { reportFileOf } from './kept-report.js';
import type { LineMap } from './relocate.js';
import { VERSION } from './package-root.js';

export const CACHE_FORMAT = 10;
export const CACHE_FILE_NAME = 'route-surface-cache';
/** Bytes copied from the old cache file per read when it is rewritten. */
const COPY_CHUNK = 1 << 20;
/** `\n`, the index's offset in 16 decimal digits, `\n`. */
const TRAILER_BYTES = 18;
/** Temporary files of runs that ended without renaming them (killed), and their locks, are removed after this long (ms). */
const STALE_TMP_MS = 60 * 60 * 1000;
/** New facts held in memory, to be appended when the cache is saved; past this, the next cache is written whole as the run goes. */
const APPEND_MAX_BYTES = 8 << 20;
/** Bytes read per step when looking back for the last complete version of an append cut short. */
const SCAN_CHUNK = 1 << 20;
/** Files a kept result's locations may have moved in before it is written again, moved (`keepResult`). */
const MAX_MOVED_FILES = 64;

/** `--cache-location` default, relative to the project root. */
export const DEFAULT_CACHE_LOCATION = path.join('node_modules', '.cache', 'route-surface');

/**
 * The cache file for a `--cache-location`: a directory (one that exists, or a path written
 * with a trailing separator) holds `route-surface-cache`; anything else is the file itself.
 */
export function cacheFile(cwd: string, location: string | undefined): string {
  const abs = path.resolve(cwd, location ?? DEFAULT_CACHE_LOCATION);
  if (location === undefined || /[\\/]$/.test(location)) return path.join(abs, CACHE_FILE_NAME);
  try {
    if (fs.statSync(abs).isDirectory()) return path.join(abs, CACHE_FILE_NAME);
  } catch {
    // does not exist yet: a file path
  }
  return abs;
}

/** How every cache file starts (JSON.stringify of a Header). */
const HEADER_START = '{"tool":"route-surface",';

/** What a file's text says before it is parsed (see prefilter.ts). */
export interface CachedSignals {
  signal: boolean;
  specifiers: string[];
}

export interface CacheEntry extends CachedSignals {
  hash: string;
  /**
   * The file's stat signature when it was read (`statSignature`), or null: a file whose
   * signature is unchanged on a later run is not read again (its content hash is taken as is).
   */
  stat: string | null;
}

/** `digest`: the facts' checksum (`checksumOf`), checked when they are read back (a damaged entry that still parses is not trusted) */
type IndexRow = [file: string, hash: string, signal: 0 | 1, specifiers: string[], offset: number, length: number, digest: string, stat: string | null];

interface Header {
  tool: 'route-surface';
  format: number;
  key: string;
}

/**
 * What a kept result depends on besides its key: `base`, the key of all its inputs but the
 * files' contents (memo.ts); `unused`, the files the run never read facts of (held back by the
 * prefilter and not needed by the linker) — for those only their having no signal, their
 * imports and their parsing mattered; `returnsRead`, the functions (`file:fn`) whose returned
 * expressions it read (Evaluator.returnsOf), and `handlers`, those that handle its routes,
 * whose response fields the rules read — no other function's returns or response fields
 * mattered.
 */
export interface ResultScope {
  base: string;
  unused: string[];
  returnsRead: string[];
  handlers: string[];
}

/**
 * Where a kept result's locations are now, when runs since it was written only moved them
 * (relocate.ts): per file, each old line and its line now, the files in order.
 */
type Moves = [file: string, lines: [from: number, to: number][]][];

interface Index {
  rows: IndexRow[];
  /** the last run's result, the key of everything it was computed from, its scope and where its locations moved since its bytes were written */
  result: [key: string, offset: number, length: number, digest: string, scope: ResultScope, moves: Moves] | null;
}

export function contentHash(text: string | Uint8Array): string {
  return crypto.createHash('sha1').update(text).digest('base64url');
}

/**
 * What an entry's bytes must sum to when read back, summed over the pieces they are written
 * in. A CRC-32 catches damage (a torn write, a flipped bit); it is no defence against
 * forgery, and need not be: whoever can write the cache can write its checksums too.
 */
class Checksum {
  private sum = 0;

  add(bytes: Uint8Array): this {
    this.sum = zlib.crc32(bytes, this.sum);
    return this;
  }

  text(): string {
    return this.sum.toString(36);
  }
}

const checksumOf = (bytes: Uint8Array): string => new Checksum().add(bytes).text();

/** Files changed this close to a run (ms) are read again on the next one, whatever their stat says. */
const RACY_MS = 2000;

/**
 * What identifies a version of a file without reading it: its inode, size, and modification
 * and change times. A write always moves the change time (which no tool can set back), so an
 * unchanged signature means unchanged content — unless the file changed within the file
 * system's time resolution of the read, which is why a file changed less than `RACY_MS`
 * before `runStart` gets no signature (it is read again next time, as git does with "racily
 * clean" entries).
 */
export function statSignature(st: fs.Stats, runStart: number): string | null {
  if (Math.max(st.mtimeMs, st.ctimeMs) > runStart - RACY_MS) return null;
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** The next cache, as it is written: a temporary file, and where each file's new facts went in it. */
interface Writer {
  tmp: string;
  fd: number;
  /** bytes written after the header line */
  offset: number;
  headerBytes: number;
  added: Map<string, { offset: number; length: number; digest: string }>;
}

export class FactCache {
  private readonly old = new Map<string, IndexRow>();
  private readonly next = new Map<string, CacheEntry>();
  private oldResult: Index['result'] = null;
  /** the result the next cache keeps: new (in pieces), or the old one's bytes (`pieces` null) under a new key */
  private nextResult: { key: string; scope: ResultScope; pieces: (() => Iterable<string>) | null; moves: Moves } | null = null;
  /** where the facts start in the file; the file stays open (renamed over, it is still this one) */
  private blobStart = 0;
  private fd: number | null = null;
  /** where the version read ends (its trailer's last byte + 1), and the file as it was opened: an append needs it unchanged since */
  private end = 0;
  private opened: { dev: number; ino: number; size: number } | null = null;
  /** new facts held to be appended when the cache is saved, by file; null once the next cache is written whole */
  private held: Map<string, Buffer> | null = new Map();
  private heldBytes = 0;
  /** an entry or the result failed its checksum: the next cache is written whole, not appended to a damaged file */
  private damaged = false;
  /** what `facts` reads into (grown to the largest entry read) */
  private scratch = Buffer.allocUnsafeSlow(0);
  private writer: Writer | null = null;
  /** why the next cache cannot be written, once a write failed */
  private writeError: string | null = null;
  /** why what is at the cache's path is neither read nor written, when it is not a cache */
  private refusedWhy: string | null = null;
  /** why the previous cache was not used, when it was not */
  readonly discarded: string | null;

  private constructor(
    readonly file: string,
    readonly key: string,
    discarded: string | null,
  ) {
    this.discarded = discarded;
  }

  /**
   * Open the cache at `file` for `key`: only its header and index are read; facts and the
   * result are read when asked for. Whatever is wrong with the file makes an empty cache.
   */
  static open(location: string, key: string): FactCache {
    // Only a regular file can be a cache: a link is followed to the file it leads to (the link
    // stays), and anything else there — a device, a FIFO (reading it would wait), a link that
    // leads nowhere — is neither read nor replaced.
    let file = location;
    try {
      if (!fs.statSync(location).isFile()) return FactCache.refused(location, key, 'not a regular file');
      file = fs.realpathSync(location);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return new FactCache(location, key, `cannot read the cache ${location} (${code ?? 'error'})`);
      if (fs.lstatSync(location, { throwIfNoEntry: false })?.isSymbolicLink()) return FactCache.refused(location, key, 'a link that leads nowhere');
      return new FactCache(location, key, null);
    }
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (err) {
      return new FactCache(file, key, `cannot read the cache ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    let keep = false;
    try {
      const st = fs.fstatSync(fd);
      // A file that does not start as a cache's header does (or, cut short, as part of it) is
      // someone else's — a mistyped --cache-location — and is left as it is. One that does is a
      // damaged cache, rebuilt; so is an empty one, which holds nothing to lose.
      const foreign = (): FactCache => {
        const start = Buffer.alloc(HEADER_START.length);
        const text = start.subarray(0, fs.readSync(fd, start, 0, start.length, 0)).toString('latin1');
        return HEADER_START.startsWith(text) ? new FactCache(file, key, 'not a route-surface cache') : FactCache.refused(file, key, 'not a route-surface cache');
      };
      const head = readLine(fd);
      if (head === null) return foreign();
      let header: Header;
      try {
        header = JSON.parse(head.text) as Header;
      } catch {
        return foreign();
      }
      if (typeof header !== 'object' || header === null || header.tool !== 'route-surface') return foreign();
      // an older build's cache (another layout) is, like one for another configuration, rebuilt
      if (header.format !== CACHE_FORMAT || header.key !== key) return new FactCache(file, key, 'made by another version or configuration');
      // The trailer at the end says where the index starts; a file whose last append was cut
      // short has none there, and its last complete version ends at the last trailer before.
      let version = versionAt(fd, head.bytes, st.size);
      if (version === 'foreign') return new FactCache(file, key, 'not a route-surface cache');
      if (version === 'truncated') version = lastCompleteVersion(fd, head.bytes, st.size) ?? 'truncated';
      if (version === 'truncated') return new FactCache(file, key, 'truncated');
      const { index, indexAt, end } = version;
      const blobLength = indexAt - head.bytes;
      const cache = new FactCache(file, key, null);
      cache.blobStart = head.bytes;
      for (const row of index.rows) {
        if (row[4] >= 0 && row[4] + row[5] > blobLength) return new FactCache(file, key, 'truncated');
        cache.old.set(row[0], row);
      }
      if (index.result && index.result[1] + index.result[2] <= blobLength) cache.oldResult = index.result;
      cache.fd = fd;
      cache.end = end;
      cache.opened = { dev: st.dev, ino: st.ino, size: st.size };
      keep = true;
      return cache;
    } catch (err) {
      return new FactCache(file, key, `cannot read the cache ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    } finally {
      if (!keep) fs.closeSync(fd);
    }
  }

  /** No cache: what is at `file` is not one, and is neither read nor written. */
  private static refused(file: string, key: string, why: string): FactCache {
    const cache = new FactCache(file, key, why);
    cache.writeError = `cannot write the cache ${file} (${why}: left as it is)`;
    cache.refusedWhy = why;
    return cache;
  }

  /** The cached entry of `file`, whatever its content now. */
  entry(file: string): CacheEntry | null {
    const row = this.old.get(file);
    return row ? { hash: row[1], signal: row[2] === 1, specifiers: row[3], stat: row[7] } : null;
  }

  /** The cached entry of `file` when its content still hashes to `hash`. */
  get(file: string, hash: string): CacheEntry | null {
    const e = this.entry(file);
    return e?.hash === hash ? e : null;
  }

  /** The cached entry of `file` when the file's stat signature is the one recorded with it. */
  byStat(file: string, stat: string): CacheEntry | null {
    const e = this.entry(file);
    return e?.stat != null && e.stat === stat ? e : null;
  }

  /** How many files the cache has entries for. */
  get size(): number {
    return this.old.size;
  }

  /** Whether the cache holds `file`'s facts for this content. */
  hasFacts(file: string, hash: string): boolean {
    const row = this.old.get(file);
    return row !== undefined && row[1] === hash && row[4] >= 0;
  }

  /**
   * `file`'s facts as they were added, read from the cache file; null when they cannot be read
   * back. The bytes are those of a buffer every call reuses (a run reads thousands of entries;
   * one allocated for each cost more than reading it): valid until the next call.
   */
  facts(file: string, hash: string): Buffer | null {
    const row = this.old.get(file);
    if (!row || row[1] !== hash || row[4] < 0) return null;
    if (this.scratch.length < row[5]) this.scratch = Buffer.allocUnsafeSlow(Math.max(row[5], 2 * this.scratch.length));
    const buf = this.read(row[4], row[5], this.scratch);
    if (buf && checksumOf(buf) === row[6]) return buf;
    this.damaged = true;
    return null;
  }

  private read(offset: number, length: number, into?: Buffer): Buffer | null {
    return this.fd === null ? null : readAt(this.fd, this.blobStart + offset, length, into);
  }

  /** Let go of the cache file (the cache is read no more). */
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  /** The key of the previous run's result (the digest of the inputs it was computed from), when there is one; nothing is read. */
  get keptResultKey(): string | null {
    return this.oldResult?.[0] ?? null;
  }

  /** Where the last report is kept beside this cache (kept-report.ts); null when this cache is not written (what is at its path is not one). */
  get reportFile(): string | null {
    return this.refusedWhy === null ? reportFileOf(this.file) : null;
  }

  /** The result of the previous run, when it was computed from exactly the inputs `key` digests. */
  result(key: string): string | null {
    return this.keptResultKey === key ? this.keptResult() : null;
  }

  /** What the previous run's result depends on besides its key (ResultScope), when all its other inputs but the files' contents are those `base` digests. */
  resultScope(base: string): ResultScope | null {
    const scope = this.oldResult?.[4];
    return scope?.base === base ? scope : null;
  }

  /** The previous run's result, whatever its key; null when there is none or it is damaged. */
  keptResult(): string | null {
    const r = this.oldResult;
    if (!r) return null;
    const buf = this.read(r[1], r[2]);
    if (buf && checksumOf(buf) === r[3]) return buf.toString('utf8');
    // not replayed (the run computes it again), nor kept: the next cache gets the new one
    this.oldResult = null;
    this.damaged = true;
    return null;
  }

  /** Where the kept result's locations (`keptResult`) are now: relocate them so before use (relocate.ts). */
  keptMoves(): Map<string, LineMap> {
    return new Map((this.oldResult?.[5] ?? []).map(([file, lines]) => [file, new Map(lines)]));
  }

  /** The result to keep, as JSON in pieces (written as they come, when the cache is saved). */
  setResult(key: string, scope: ResultScope, pieces: () => Iterable<string>): void {
    this.nextResult = { key, scope, pieces, moves: [] };
  }

  /**
   * Keep the previous run's result (`keptResult`) as this run's, under this run's key, its
   * locations `moved` from those its bytes hold: its bytes are not written again. False when
   * they are moved in too many files: the result is to be written (`setResult`).
   */
  keepResult(key: string, scope: ResultScope, moved: ReadonlyMap<string, LineMap>): boolean {
    if (!this.oldResult || moved.size > MAX_MOVED_FILES) return false;
    const moves: Moves = [...moved].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([file, lines]) => [file, [...lines]]);
    this.nextResult = { key, scope, pieces: null, moves };
    return true;
  }

  /** What the next cache holds for `file` (every analysed file should be set once). */
  set(file: string, entry: CacheEntry): void {
    this.next.set(file, entry);
  }

  /**
   * `file`'s facts extracted this run, as text (or its UTF-8): held, to be appended when the
   * cache is saved, or written to the next cache now once it is written whole.
   */
  addFacts(file: string, text: string | Uint8Array): void {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    const held = this.held;
    const before = held?.get(file)?.length ?? 0;
    if (held && this.appendable() && this.heldBytes - before + bytes.length <= APPEND_MAX_BYTES) {
      this.heldBytes += bytes.length - before;
      held.set(file, bytes);
      return;
    }
    const w = this.openWriter();
    if (w) this.write(w, file, bytes);
  }

  /** Whether the next cache can be this file with an append. */
  private appendable(): boolean {
    return this.fd !== null && this.discarded === null && !this.damaged && this.writer === null && this.writeError === null;
  }

  private write(w: Writer, file: string, bytes: Buffer): void {
    try {
      fs.writeSync(w.fd, bytes);
      w.added.set(file, { offset: w.offset, length: bytes.length, digest: checksumOf(bytes) });
      w.offset += bytes.length;
    } catch (err) {
      this.fail(err);
    }
  }

  private openWriter(): Writer | null {
    if (this.writer || this.writeError !== null) return this.writer;
    const tmp = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      removeStaleTemporaries(this.file);
      const fd = fs.openSync(tmp, 'w');
      this.writer = { tmp, fd, offset: 0, headerBytes: 0, added: new Map() };
      const header: Header = { tool: 'route-surface', format: CACHE_FORMAT, key: this.key };
      const line = Buffer.from(JSON.stringify(header) + '\n', 'utf8');
      fs.writeSync(fd, line);
      this.writer.headerBytes = line.length;
    } catch (err) {
      this.fail(err);
    }
    // facts held for an append go first
    const held = this.held;
    this.held = null;
    this.heldBytes = 0;
    for (const [file, bytes] of held ?? []) if (this.writer) this.write(this.writer, file, bytes);
    return this.writer;
  }

  /** A write failed: the next cache is not written (the old one stays), and `save` says why. */
  private fail(err: unknown): void {
    this.writeError ??= `cannot write the cache ${this.file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    this.abandon();
  }

  /** Remove the next cache's temporary file, if any (a run that ends without saving). */
  abandon(): void {
    this.held = null;
    this.heldBytes = 0;
    const w = this.writer;
    this.writer = null;
    if (!w) return;
    try {
      fs.closeSync(w.fd);
    } catch {
      // already closed
    }
    fs.rmSync(w.tmp, { force: true });
  }

  /** The next cache would hold exactly what the file holds already. */
  private unchanged(): boolean {
    if (this.discarded !== null || this.writer !== null || (this.held?.size ?? 0) > 0 || (this.opened !== null && this.end !== this.opened.size) || this.old.size !== this.next.size) return false;
    if (this.nextResult && this.nextResult.key !== this.oldResult?.[0]) return false;
    for (const [file, e] of this.next) {
      const row = this.old.get(file);
      if (!row || row[1] !== e.hash || row[2] !== (e.signal ? 1 : 0) || row[7] !== e.stat) return false;
    }
    return true;
  }

  /**
   * Finish the next cache: append to the file in place (`append`) when it can be, else
   * rename the whole next cache over the old one — facts not extracted this run copied from
   * the old file as they are, in runs of adjacent bytes, with their digests (so a piece
   * damaged in place is still found out when it is read back, and extracted again); then the
   * result, in pieces; then the index and the trailer. Returns null, or why it could not be
   * written: a cache that cannot be written is not an error of the run.
   */
  save(): string | null {
    if (this.writeError === null && this.unchanged()) {
      this.close();
      return null;
    }
    if (this.held && this.appendable()) {
      const appended = this.append(this.held);
      if (appended !== 'rewrite') {
        this.close();
        return appended;
      }
    }
    const w = this.openWriter();
    if (!w) {
      this.close();
      return this.writeError;
    }
    try {
      const rows: IndexRow[] = [];
      // Old facts to copy: [from (in the old blob), length] runs, written in order after the new ones.
      const copies: [number, number][] = [];
      for (const file of [...this.next.keys()].sort()) {
        const e = this.next.get(file)!;
        const added = w.added.get(file);
        const old = this.old.get(file);
        let at = -1;
        let length = 0;
        let digest = '';
        if (added) ({ offset: at, length, digest } = added);
        else if (old && old[1] === e.hash && old[4] >= 0 && this.discarded === null) {
          at = w.offset;
          length = old[5];
          digest = old[6];
          const last = copies[copies.length - 1];
          if (last && last[0] + last[1] === old[4]) last[1] += length;
          else copies.push([old[4], length]);
          w.offset += length;
        }
        rows.push([file, e.hash, e.signal ? 1 : 0, e.specifiers, at, length, digest, e.stat]);
      }
      for (const [from, length] of copies) {
        for (let done = 0; done < length; done += COPY_CHUNK) {
          const buf = this.read(from + done, Math.min(COPY_CHUNK, length - done));
          if (!buf) throw Object.assign(new Error('the old cache could not be read again'), { code: 'ECHANGED' });
          fs.writeSync(w.fd, buf);
        }
      }
      let result: Index['result'] = null;
      if (this.nextResult?.pieces) {
        result = this.writeResult(w.offset, (bytes) => {
          fs.writeSync(w.fd, bytes);
          w.offset += bytes.length;
        });
      } else if (this.oldResult && this.discarded === null) {
        const [, from, length, digest] = this.oldResult;
        const start = w.offset;
        for (let done = 0; done < length; done += COPY_CHUNK) {
          const buf = this.read(from + done, Math.min(COPY_CHUNK, length - done));
          if (!buf) throw Object.assign(new Error('the old cache could not be read again'), { code: 'ECHANGED' });
          fs.writeSync(w.fd, buf);
          w.offset += buf.length;
        }
        result = this.keptAt(start, length, digest);
      }
      fs.writeSync(w.fd, indexAndTrailer({ rows, result }, w.headerBytes + w.offset));
      fs.closeSync(w.fd);
      this.writer = null;
      fs.renameSync(w.tmp, this.file);
      return null;
    } catch (err) {
      this.fail(err);
      return this.writeError;
    } finally {
      this.close();
    }
  }

  /** The result to keep, written in pieces by `write` from `offset` in the blob: its place in the index. */
  private writeResult(offset: number, write: (bytes: Buffer) => void): NonNullable<Index['result']> {
    const { key, scope, pieces, moves } = this.nextResult!;
    const sum = new Checksum();
    let length = 0;
    for (const piece of pieces!()) {
      const bytes = Buffer.from(piece, 'utf8');
      sum.add(bytes);
      write(bytes);
      length += bytes.length;
    }
    return [key, offset, length, sum.text(), scope, moves];
  }

  /** The old result's place in the index, its bytes now at `offset`: under the key and scope `keepResult` gave, if any. */
  private keptAt(offset: number, length: number, digest: string): NonNullable<Index['result']> {
    const [key, , , , scope, moves] = this.oldResult!;
    return this.nextResult ? [this.nextResult.key, offset, length, digest, this.nextResult.scope, this.nextResult.moves] : [key, offset, length, digest, scope, moves];
  }

  /**
   * Write the held facts, the result, the index and a trailer after the version read, in
   * place, touching no byte before. 'rewrite' when the next cache is to be written whole
   * instead: more of the file would be replaced bytes than live ones (old results, old
   * indexes, facts of files that changed), the file changed since it was opened, or another
   * run holds the lock. Null, or why it could not be written (a reader then finds the version
   * read, the last complete one).
   */
  private append(held: Map<string, Buffer>): string | null | 'rewrite' {
    // Offsets count from the start of the facts: the old ones stay where they are.
    const start = this.end - this.blobStart;
    let at = start;
    let kept = 0;
    const rows: IndexRow[] = [];
    const added: Buffer[] = [];
    for (const file of [...this.next.keys()].sort()) {
      const e = this.next.get(file)!;
      const bytes = held.get(file);
      const old = this.old.get(file);
      let where: [offset: number, length: number, digest: string] = [-1, 0, ''];
      if (bytes) {
        where = [at, bytes.length, checksumOf(bytes)];
        added.push(bytes);
        at += bytes.length;
      } else if (old && old[1] === e.hash && old[4] >= 0) {
        where = [old[4], old[5], old[6]];
        kept += old[5];
      }
      rows.push([file, e.hash, e.signal ? 1 : 0, e.specifiers, ...where, e.stat]);
    }
    let result: Index['result'] = !this.nextResult?.pieces && this.oldResult ? this.keptAt(this.oldResult[1], this.oldResult[2], this.oldResult[3]) : null;
    if (result) kept += result[2];
    if (start - kept > kept + (at - start)) return 'rewrite';
    removeStaleTemporaries(this.file);
    const lock = takeLock(`${this.file}.lock`);
    if (lock === null) return 'rewrite';
    let fd: number | null = null;
    try {
      // A file that cannot be opened for writing (read-only, say) may still be replaced whole.
      try {
        fd = fs.openSync(this.file, 'r+');
      } catch {
        return 'rewrite';
      }
      const st = fs.fstatSync(fd);
      if (st.dev !== this.opened!.dev || st.ino !== this.opened!.ino || st.size !== this.opened!.size) return 'rewrite';
      let pos = this.end;
      const put = (bytes: Buffer): void => {
        fs.writeSync(fd!, bytes, 0, bytes.length, pos);
        pos += bytes.length;
      };
      for (const bytes of added) put(bytes);
      if (this.nextResult?.pieces) result = this.writeResult(pos - this.blobStart, put);
      put(indexAndTrailer({ rows, result }, pos));
      // what followed the version read (an append cut short) is cut off
      if (pos < st.size) fs.ftruncateSync(fd, pos);
      return null;
    } catch (err) {
      this.fail(err);
      return this.writeError;
    } finally {
      if (fd !== null) fs.closeSync(fd);
      fs.closeSync(lock.fd);
      fs.rmSync(lock.path, { force: true });
    }
  }
}

/** `length` bytes of `fd` at `position`, in a buffer of their own or at the start of `into`; null when the file ends before. */
function readAt(fd: number, position: number, length: number, into?: Buffer): Buffer | null {
  try {
    // not zero-filled: returned only when the read filled it
    const buf = into ? into.subarray(0, length) : Buffer.allocUnsafeSlow(length);
    return fs.readSync(fd, buf, 0, length, position) === length ? buf : null;
  } catch {
    return null;
  }
}

/** The end of a cache: its index, and the trailer saying where the index starts (`indexAt`, in the file). */
function indexAndTrailer(index: Index, indexAt: number): Buffer {
  return Buffer.from(`${JSON.stringify(index)}\n${String(indexAt).padStart(16, '0')}\n`, 'utf8');
}

/** A complete version of the cache in its file: its index, where the index starts, where its trailer ends. */
interface Version {
  index: Index;
  indexAt: number;
  end: number;
}

/**
 * The version whose trailer ends at `end`, or why there is none: no trailer there, or an
 * index that cannot be read whole ('truncated'), or one that is not a route-surface index.
 */
function versionAt(fd: number, start: number, end: number): Version | 'truncated' | 'foreign' {
  if (end < start + TRAILER_BYTES) return 'truncated';
  const m = /^\n(\d{16})\n$/.exec(readAt(fd, end - TRAILER_BYTES, TRAILER_BYTES)?.toString('latin1') ?? '');
  const indexAt = m ? Number(m[1]) : -1;
  if (indexAt < start || indexAt > end - TRAILER_BYTES) return 'truncated';
  let index: unknown;
  try {
    index = JSON.parse(readAt(fd, indexAt, end - TRAILER_BYTES - indexAt)?.toString('utf8') ?? '');
  } catch {
    return 'truncated';
  }
  return isIndex(index) ? { index, indexAt, end } : 'foreign';
}

/**
 * The last complete version of a cache whose end is none (an append cut short: the run was
 * killed, the disk filled): the one whose trailer is the last before the end, read back from
 * the end a chunk at a time. Only trailers are lines of 16 digits: facts, results and indexes
 * are JSON values that are objects or arrays. Null when there is none.
 */
function lastCompleteVersion(fd: number, start: number, size: number): Version | null {
  for (let to = size; to - start >= TRAILER_BYTES; ) {
    const from = Math.max(start, to - SCAN_CHUNK);
    const text = readAt(fd, from, to - from)?.toString('latin1') ?? '';
    const ends = [...text.matchAll(/\n\d{16}\n/g)].map((m) => from + m.index + TRAILER_BYTES);
    for (let i = ends.length - 1; i >= 0; i--) {
      const version = versionAt(fd, start, ends[i]!);
      if (typeof version === 'object') return version;
    }
    if (from === start) break;
    // the next chunk overlaps this one by a trailer's length less one: a trailer across the boundary is found whole
    to = from + TRAILER_BYTES - 1;
  }
  return null;
}

/**
 * The lock that appending runs take turns with (created exclusively), or null when another
 * run holds it. A lock older than `STALE_TMP_MS` was left by a run killed while it appended
 * (an append takes milliseconds): it is removed and taken.
 */
function takeLock(lock: string): { fd: number; path: string } | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return { fd: fs.openSync(lock, 'wx'), path: lock };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) return null;
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs <= STALE_TMP_MS) return null;
        fs.rmSync(lock, { force: true });
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Temporary files next to `file` left by runs killed before they renamed theirs into place. */
function removeStaleTemporaries(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    try {
      const p = path.join(dir, name);
      if (now - fs.statSync(p).mtimeMs > STALE_TMP_MS) fs.rmSync(p, { force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/** The first line of a file (its header), read in chunks. */
function readLine(fd: number): { text: string; bytes: number } | null {
  const chunks: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const buf = Buffer.alloc(1 << 16);
    const n = fs.readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) return null;
    const nl = buf.subarray(0, n).indexOf(0x0a);
    if (nl >= 0) {
      chunks.push(buf.subarray(0, nl));
      const text = Buffer.concat(chunks).toString('utf8');
      return { text, bytes: pos + nl + 1 };
    }
    chunks.push(buf.subarray(0, n));
    pos += n;
    // a header is a short line: a long first line is not one
    if (pos > 1 << 20) return null;
  }
}

function isIndex(x: unknown): x is Index {
  if (typeof x !== 'object' || x === null) return false;
  const i = x as Partial<Index>;
  if (!Array.isArray(i.rows)) return false;
  return i.rows.every(
    (r) =>
      Array.isArray(r) &&
      r.length === 8 &&
      typeof r[0] === 'string' &&
      typeof r[1] === 'string' &&
      (r[2] === 0 || r[2] === 1) &&
      Array.isArray(r[3]) &&
      r[3].every((s) => typeof s === 'string') &&
      Number.isInteger(r[4]) &&
      Number.isInteger(r[5]) &&
      r[5] >= 0 &&
      typeof r[6] === 'string' &&
      (r[7] === null || typeof r[7] === 'string'),
  ) && (i.result === null || (Array.isArray(i.result) && typeof i.result[0] === 'string' && Number.isInteger(i.result[1]) && i.result[1] >= 0 && Number.isInteger(i.result[2]) && i.result[2] >= 0 && typeof i.result[3] === 'string' && isScope(i.result[4]) && isMoves(i.result[5])));
}

function isMoves(x: unknown): x is Moves {
  const line = (n: unknown): boolean => Number.isInteger(n) && (n as number) > 0;
  return Array.isArray(x) && x.every((m) => Array.isArray(m) && m.length === 2 && typeof m[0] === 'string' && Array.isArray(m[1]) && m[1].every((p) => Array.isArray(p) && p.length === 2 && line(p[0]) && line(p[1])));
}

function isScope(x: unknown): x is ResultScope {
  const s = x as Partial<ResultScope> | null;
  const strings = (a: unknown): boolean => Array.isArray(a) && a.every((f) => typeof f === 'string');
  return typeof s === 'object' && s !== null && typeof s.base === 'string' && strings(s.unused) && strings(s.returnsRead) && strings(s.handlers);
}

/**
 * The part of the cache key that describes the code: a digest of route-surface's own
 * modules (so a rebuilt tool never reads facts an older build extracted, even at the same
 * version number).
 */
export function codeDigest(dir: string): string {
  const h = crypto.createHash('sha1');
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.[cm]?[jt]s$/.test(e.name)) h.update(e.name).update(fs.readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('base64url');
}

/**
 * The key of a cache: the tool, the code that extracts facts (every module in `codeDir`: the
 * directory of this one, which is the bundle's in the built CLI), the compiler, and the
 * budgets (a file over a budget has facts that say so).
 */
export function factCacheKey(budgets: Pick<Budgets, 'maxFileBytes' | 'maxNestingDepth'>, codeDir = path.dirname(fileURLToPath(import.meta.url))): string {
  const parts = [
    `route-surface@${VERSION}`,
    codeDigest(codeDir),
    `ts-morph@${tsMorphVersion()}`,
    `maxFileBytes=${budgets.maxFileBytes}`,
    `maxNestingDepth=${budgets.maxNestingDepth}`,
  ];
  return crypto.createHash('sha1').update(parts.join('\n')).digest('base64url');
}
