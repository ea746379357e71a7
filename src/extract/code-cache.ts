/**
 * Loading the compiler with V8's code cache. The compiler is one CommonJS file of 9 MB:
 * compiling it takes about 100 ms on every run that parses a file (measured on the bench
 * machine), longer than parsing a one-file edit. V8 can serialise the code it compiled and
 * take it back instead of compiling again (`vm.Script`'s `cachedData`; what Node's own
 * compile cache does in later versions).
 *
 * The cached code is written at build time (`npm run build`, scripts/code-cache.ts) next
 * to route-surface's own build output — never in the user's cache directory: V8 trusts the
 * code it is handed, so it must come from where route-surface's own code does, not from a
 * directory a CI cache restores. It is used only for the very file it was made from (its
 * size and CRC-32) under the same Node, V8 and architecture, and its own bytes must still
 * sum to their CRC-32; anything else, and the file is compiled as usual. V8 checks the
 * cache again itself and compiles as usual when it rejects it.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';

const FORMAT = 1;

interface Header {
  format: number;
  node: string;
  v8: string;
  arch: string;
  /** the module's size and CRC-32 */
  source: [size: number, crc: number];
  /** the cached code's CRC-32 */
  crc: number;
}

/** Whether the cache was used: `accepted` by V8, or why not (`loaded`: the module was in `require.cache` already). */
export type CodeCacheUse = 'accepted' | 'absent' | 'stale' | 'damaged' | 'rejected' | 'loaded';

/** Node wraps a CommonJS module's text in this function (the module's own variables). */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

function headerFor(source: Buffer, data: Buffer): Header {
  return { format: FORMAT, node: process.version, v8: process.versions.v8, arch: process.arch, source: [source.length, zlib.crc32(source)], crc: zlib.crc32(data) };
}

/** The cached code in `cacheFile` for a module whose text is `source`, or why there is none. */
function cachedCode(cacheFile: string, source: Buffer): Buffer | Exclude<CodeCacheUse, 'accepted' | 'rejected' | 'loaded'> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return 'absent';
  }
  const eol = bytes.indexOf(10);
  if (eol < 0) return 'damaged';
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, eol)) as Header;
  } catch {
    return 'damaged';
  }
  if (typeof header !== 'object' || header === null || !Array.isArray(header.source)) return 'damaged';
  const data = bytes.subarray(eol + 1);
  const want = headerFor(source, data);
  if (header.format !== want.format || header.node !== want.node || header.v8 !== want.v8 || header.arch !== want.arch) return 'stale';
  if (header.source[0] !== want.source[0] || header.source[1] !== want.source[1]) return 'stale';
  if (header.crc !== want.crc) return 'damaged';
  return data;
}

/** Run the compiled wrapper as Node runs a CommonJS module, entered in `require.cache` as `require` enters it. */
function run(script: vm.Script, file: string): unknown {
  const require = createRequire(file);
  const module = new Module(file);
  module.filename = file;
  module.paths = require.resolve.paths('x') ?? [];
  require.cache[file] = module;
  try {
    const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
    fn(module.exports, require, module, file, path.dirname(file));
  } catch (err) {
    delete require.cache[file];
    throw err;
  }
  module.loaded = true;
  return module.exports;
}

/**
 * The exports of the CommonJS module `file`, compiled from the code cached in `cacheFile`
 * when it is there and fits, as Node's `require` would otherwise.
 */
export function requireCached(file: string, cacheFile: string): { exports: unknown; cache: CodeCacheUse } {
  const loaded = createRequire(file).cache[file];
  if (loaded?.loaded) return { exports: loaded.exports, cache: 'loaded' };
  const source = fs.readFileSync(file);
  const cached = cachedCode(cacheFile, source);
  const script = new vm.Script(wrap(source.toString('utf8')), { filename: file, ...(typeof cached === 'string' ? {} : { cachedData: cached }) });
  const exports = run(script, file);
  return { exports, cache: typeof cached === 'string' ? cached : script.cachedDataRejected ? 'rejected' : 'accepted' };
}

/**
 * Compile `file`, run it and then `warmUp` with its exports (the functions it calls are
 * compiled then, and cached with the rest), and write the cache `requireCached` reads.
 */
export function writeCodeCache(file: string, cacheFile: string, warmUp: (exports: unknown) => void): number {
  const source = fs.readFileSync(file);
  const script = new vm.Script(wrap(source.toString('utf8')), { filename: file });
  warmUp(run(script, file));
  const data = script.createCachedData();
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(headerFor(source, data))}\n`), data]));
  fs.renameSync(tmp, cacheFile);
  return data.length;
}
