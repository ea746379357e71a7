/**
 * `check --cache`: per-file facts kept between runs, so an unchanged file is never parsed
 * again (SPEC section 2, `--cache` / `--cache-location`).
 *
 * An entry is keyed by the file's path and the hash of its content; the whole cache by a
 * key made of the tool version, a digest of the code that extracts facts, the TypeScript
 * compiler version and the configuration that changes extraction (budgets). A cache made
 * under another key is ignored and rewritten. A cache that cannot be read, is truncated, or
 * was written by something else is ignored too: never fatal, the run only gets slower. Every
 * entry (and the replayed result) carries a digest of its bytes: one damaged in place, even
 * one that still parses, is not trusted but extracted (computed) again.
 *
 * The file is one line of JSON (the index: key, and per file its hash, text signals and
 * where its facts are) followed by the facts of every file as JSON texts, back to back. Only
 * the facts a run needs are decoded. Writes go to a temporary file renamed over the old one,
 * so a reader never sees half a cache, and concurrent runs leave one complete cache.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Budgets } from './budgets.js';
import { tsMorphVersion } from './extract/compiler.js';
import { VERSION } from './package-root.js';

export const CACHE_FORMAT = 4;
export const CACHE_FILE_NAME = 'route-surface-cache';
/** Bytes copied from the old cache file per read when it is rewritten. */
const COPY_CHUNK = 8 << 20;

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

/** An entry to write: the facts as JSON when they were extracted (or read back) this run. */
export interface NextEntry extends CacheEntry {
  facts: string | null;
}

/** `digest`: of the facts' bytes, checked when they are read back (a damaged entry that still parses is not trusted) */
type IndexRow = [file: string, hash: string, signal: 0 | 1, specifiers: string[], offset: number, length: number, digest: string, stat: string | null];

interface IndexLine {
  tool: 'route-surface';
  format: number;
  key: string;
  rows: IndexRow[];
  /** the last run's result and the key of everything it was computed from */
  result?: [key: string, offset: number, length: number, digest: string];
}

export function contentHash(text: string | Buffer): string {
  return crypto.createHash('sha1').update(text).digest('base64url');
}

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

/** The identity of a file's version: a cache renamed over it by another run is another file. */
function identity(st: fs.Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

export class FactCache {
  private readonly old = new Map<string, IndexRow>();
  private readonly next = new Map<string, NextEntry>();
  private oldResult: { key: string; json: string } | null = null;
  private nextResult: { key: string; json: string } | null = null;
  /** where the facts start in the file, and the file's identity when it was opened */
  private blobStart = 0;
  private version = '';
  private fd: number | null = null;
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
   * Open the cache at `file` for `key`: only its index is read (and the last result); facts
   * are read when asked for. Whatever is wrong with the file makes an empty cache.
   */
  static open(file: string, key: string): FactCache {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return new FactCache(file, key, code === 'ENOENT' ? null : `cannot read the cache ${file} (${code ?? 'error'})`);
    }
    try {
      const st = fs.fstatSync(fd);
      const head = readLine(fd);
      if (head === null) return new FactCache(file, key, 'not a route-surface cache');
      let index: IndexLine;
      try {
        index = JSON.parse(head.text) as IndexLine;
      } catch {
        return new FactCache(file, key, 'not a route-surface cache');
      }
      if (!isIndex(index)) return new FactCache(file, key, 'not a route-surface cache');
      if (index.key !== key) return new FactCache(file, key, 'made by another version or configuration');
      const blobLength = st.size - head.bytes;
      const cache = new FactCache(file, key, null);
      cache.blobStart = head.bytes;
      cache.version = identity(st);
      for (const row of index.rows) {
        if (row[4] >= 0 && row[4] + row[5] > blobLength) return new FactCache(file, key, 'truncated');
        cache.old.set(row[0], row);
      }
      if (index.result) {
        const [rkey, offset, length, digest] = index.result;
        if (offset + length > blobLength) return new FactCache(file, key, 'truncated');
        const buf = Buffer.alloc(length);
        if (fs.readSync(fd, buf, 0, length, head.bytes + offset) !== length) return new FactCache(file, key, 'truncated');
        // a result that does not match its digest is not replayed (the run computes it again)
        if (contentHash(buf) === digest) cache.oldResult = { key: rkey, json: buf.toString('utf8') };
      }
      return cache;
    } catch (err) {
      return new FactCache(file, key, `cannot read the cache ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The cached entry of `file` when its content still hashes to `hash`. */
  get(file: string, hash: string): CacheEntry | null {
    const row = this.old.get(file);
    if (!row || row[1] !== hash) return null;
    return { hash, signal: row[2] === 1, specifiers: row[3], stat: row[7] };
  }

  /** The cached entry of `file` when the file's stat signature is the one recorded with it. */
  byStat(file: string, stat: string): CacheEntry | null {
    const row = this.old.get(file);
    if (!row || row[7] === null || row[7] !== stat) return null;
    return { hash: row[1], signal: row[2] === 1, specifiers: row[3], stat };
  }

  /** Whether the cache holds `file`'s facts for this content. */
  hasFacts(file: string, hash: string): boolean {
    const row = this.old.get(file);
    return row !== undefined && row[1] === hash && row[4] >= 0;
  }

  /** `file`'s facts as JSON, read from the cache file; null when they cannot be read back. */
  facts(file: string, hash: string): string | null {
    const row = this.old.get(file);
    if (!row || row[1] !== hash || row[4] < 0) return null;
    const buf = this.read(row[4], row[5]);
    if (!buf || contentHash(buf) !== row[6]) return null;
    return buf.toString('utf8');
  }

  private read(offset: number, length: number): Buffer | null {
    try {
      if (this.fd === null) {
        const fd = fs.openSync(this.file, 'r');
        // another run renamed its cache over this one: none of it is read
        if (identity(fs.fstatSync(fd)) !== this.version) {
          fs.closeSync(fd);
          return null;
        }
        this.fd = fd;
      }
      const buf = Buffer.alloc(length);
      return fs.readSync(this.fd, buf, 0, length, this.blobStart + offset) === length ? buf : null;
    } catch {
      return null;
    }
  }

  /** Let go of the cache file (the cache is read no more). */
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  /** The result of the previous run, when it was computed from exactly the inputs `key` digests. */
  result(key: string): string | null {
    return this.oldResult?.key === key ? this.oldResult.json : null;
  }

  setResult(key: string, json: string): void {
    this.nextResult = { key, json };
  }

  /** What the next cache holds for `file` (every analysed file should be set once). */
  set(file: string, entry: NextEntry): void {
    this.next.set(file, entry);
  }

  /** The next cache would hold exactly what the file holds already. */
  private unchanged(): boolean {
    if (this.discarded !== null || this.old.size !== this.next.size) return false;
    if (this.nextResult && this.nextResult.key !== this.oldResult?.key) return false;
    for (const [file, e] of this.next) {
      const row = this.old.get(file);
      if (!row || row[1] !== e.hash || row[2] !== (e.signal ? 1 : 0) || row[7] !== e.stat || (row[4] < 0 && e.facts !== null)) return false;
    }
    return true;
  }

  /**
   * Write the cache atomically (temporary file + rename); facts not extracted this run are
   * copied from the old file as they are, in runs of adjacent bytes, with their digests (so a
   * piece damaged in place is still found out when it is read back, and extracted again).
   * Returns null, or why it could not be written: a cache that cannot be written is not an
   * error of the run.
   */
  save(): string | null {
    if (this.unchanged()) {
      this.close();
      return null;
    }
    type Piece = { text: string } | { from: number; length: number };
    const rows: IndexRow[] = [];
    const pieces: Piece[] = [];
    let offset = 0;
    for (const file of [...this.next.keys()].sort()) {
      const e = this.next.get(file)!;
      const old = this.old.get(file);
      let piece: Piece | null = null;
      let digest = '';
      if (e.facts !== null) {
        piece = { text: e.facts };
        digest = contentHash(e.facts);
      } else if (old && old[1] === e.hash && old[4] >= 0 && this.discarded === null) {
        piece = { from: old[4], length: old[5] };
        digest = old[6];
      }
      const length = piece === null ? 0 : 'text' in piece ? Buffer.byteLength(piece.text) : piece.length;
      rows.push([file, e.hash, e.signal ? 1 : 0, e.specifiers, piece === null ? -1 : offset, length, digest, e.stat]);
      const last = pieces[pieces.length - 1];
      // adjacent in the old file too: one read
      if (piece && 'from' in piece && last && 'from' in last && last.from + last.length === piece.from) last.length += piece.length;
      else if (piece) pieces.push(piece);
      offset += length;
    }
    const index: IndexLine = { tool: 'route-surface', format: CACHE_FORMAT, key: this.key, rows };
    const result = this.nextResult ?? this.oldResult;
    if (result) {
      index.result = [result.key, offset, Buffer.byteLength(result.json), contentHash(result.json)];
      pieces.push({ text: result.json });
    }
    const tmp = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    let out: number | null = null;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      out = fs.openSync(tmp, 'w');
      fs.writeSync(out, JSON.stringify(index) + '\n');
      for (const p of pieces) {
        if ('text' in p) fs.writeSync(out, p.text);
        else {
          // read through a descriptor whose file is the one opened (read() checks its identity)
          for (let at = 0; at < p.length; at += COPY_CHUNK) {
            const buf = this.read(p.from + at, Math.min(COPY_CHUNK, p.length - at));
            if (!buf) throw Object.assign(new Error('the old cache could not be read again'), { code: 'ECHANGED' });
            fs.writeSync(out, buf);
          }
        }
      }
      fs.closeSync(out);
      out = null;
      fs.renameSync(tmp, this.file);
      return null;
    } catch (err) {
      try {
        if (out !== null) fs.closeSync(out);
        fs.rmSync(tmp, { force: true });
      } catch {
        // nothing more to do
      }
      return `cannot write the cache ${this.file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    } finally {
      this.close();
    }
  }
}

/** The first line of a file (its index), read in chunks. */
function readLine(fd: number): { text: string; bytes: number } | null {
  const chunks: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const buf = Buffer.alloc(1 << 20);
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
  }
}

function isIndex(x: unknown): x is IndexLine {
  if (typeof x !== 'object' || x === null) return false;
  const i = x as Partial<IndexLine>;
  if (i.tool !== 'route-surface' || i.format !== CACHE_FORMAT || typeof i.key !== 'string' || !Array.isArray(i.rows)) return false;
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
  ) && (i.result === undefined || (Array.isArray(i.result) && typeof i.result[0] === 'string' && Number.isInteger(i.result[1]) && i.result[1] >= 0 && Number.isInteger(i.result[2]) && i.result[2] >= 0 && typeof i.result[3] === 'string'));
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
 * The key of a cache: the tool, the code that extracts facts, the compiler, and the budgets
 * (a file over a budget has facts that say so).
 */
export function factCacheKey(budgets: Pick<Budgets, 'maxFileBytes' | 'maxNestingDepth'>): string {
  const parts = [
    `route-surface@${VERSION}`,
    codeDigest(path.dirname(fileURLToPath(import.meta.url))),
    `ts-morph@${tsMorphVersion()}`,
    `maxFileBytes=${budgets.maxFileBytes}`,
    `maxNestingDepth=${budgets.maxNestingDepth}`,
  ];
  return crypto.createHash('sha1').update(parts.join('\n')).digest('base64url');
}
