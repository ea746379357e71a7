import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Each load in a process of its own: V8 keeps what it compiled in the process and would take
 * a second compilation of the same text from there, never looking at the cached code.
 */
function inChild(code: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, path.join(ROOT, 'dist', 'src', 'extract', 'code-cache.js'), ...args], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

describe('requireCached', () => {
  let dir: string;
  let file: string;
  let cache: string;
  const SOURCE = "const path = require('node:path');\nmodule.exports = { where: path.join(__dirname, 'x'), file: __filename, add: (a, b) => a + b };\nexports.lost = true;\n";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-code-cache-'));
    file = path.join(dir, 'mod.cjs');
    cache = path.join(dir, 'mod.code-cache');
    fs.writeFileSync(file, SOURCE);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** How the module was compiled, and what its exports say. */
  const load = () =>
    JSON.parse(
      inChild(
        "const m = await import(process.argv[1]); const r = m.requireCached(process.argv[2], process.argv[3]); console.log(JSON.stringify({ cache: r.cache, where: r.exports.where, file: r.exports.file, add: r.exports.add(2, 3), lost: r.exports.lost ?? null }))",
        file,
        cache,
      ),
    ) as { cache: string; where: string; file: string; add: number; lost: true | null };
  const write = () =>
    inChild("const m = await import(process.argv[1]); m.writeCodeCache(process.argv[2], process.argv[3], (e) => console.log(e.add(1, 1)))", file, cache);

  it('runs the module as CommonJS (its own require, __dirname, __filename, module.exports) without a cache', () => {
    expect(load()).toEqual({ cache: 'absent', where: path.join(dir, 'x'), file, add: 5, lost: null });
  });

  it('enters the module in require.cache, and takes it from there when require loaded it first', () => {
    const code = (first: string) =>
      `const { createRequire } = await import('node:module'); const m = await import(process.argv[1]); const require = createRequire(process.argv[2]);` +
      `${first} const r = m.requireCached(process.argv[2], process.argv[3]); console.log(r.cache, r.exports === require(process.argv[2]), require.cache[process.argv[2]].loaded)`;
    expect(inChild(code(''), file, cache)).toBe('absent true true');
    expect(inChild(code('const before = require(process.argv[2]); before.add = 1;'), file, cache)).toBe('loaded true true');
  });

  it('compiles from the cache it wrote, after the warm-up ran with the exports', () => {
    expect(write()).toBe('2');
    expect(fs.readdirSync(dir).sort()).toEqual(['mod.cjs', 'mod.code-cache']);
    expect(load()).toEqual({ cache: 'accepted', where: path.join(dir, 'x'), file, add: 5, lost: null });
  });

  it('does not use a cache made from other text, for another Node, or damaged — and runs the module all the same', () => {
    write();
    const good = fs.readFileSync(cache);
    const eol = good.indexOf(10);
    const header = JSON.parse(good.toString('utf8', 0, eol)) as Record<string, unknown>;
    const withHeader = (h: Record<string, unknown>, data = good.subarray(eol + 1)) => fs.writeFileSync(cache, Buffer.concat([Buffer.from(JSON.stringify(h) + '\n'), data]));

    // the module changed, even keeping its length
    fs.writeFileSync(file, SOURCE.replace('a + b', 'a * b'));
    expect(load()).toMatchObject({ cache: 'stale', add: 6 });
    fs.writeFileSync(file, SOURCE);
    expect(load()).toMatchObject({ cache: 'accepted', add: 5 });

    withHeader({ ...header, node: 'v0.0.0' });
    expect(load()).toMatchObject({ cache: 'stale', add: 5 });
    withHeader({ ...header, arch: 'none' });
    expect(load()).toMatchObject({ cache: 'stale', add: 5 });

    // a flipped byte in the compiled code
    const flipped = Buffer.from(good);
    flipped[eol + 1 + Math.floor((flipped.length - eol) / 2)]! ^= 0xff;
    fs.writeFileSync(cache, flipped);
    expect(load()).toMatchObject({ cache: 'damaged', add: 5 });

    // no header line, or not JSON
    fs.writeFileSync(cache, good.subarray(0, eol));
    expect(load()).toMatchObject({ cache: 'damaged', add: 5 });
    fs.writeFileSync(cache, Buffer.concat([Buffer.from('{"format":\n'), good.subarray(eol + 1)]));
    expect(load()).toMatchObject({ cache: 'damaged', add: 5 });

    // bytes that sum to their checksum but are not V8's: V8 rejects them and compiles the text
    const junk = Buffer.alloc(4096, 7);
    withHeader({ ...header, crc: zlib.crc32(junk) }, junk);
    expect(load()).toMatchObject({ cache: 'rejected', add: 5 });
  });
});

describe('the compiler', () => {
  it('is loaded from the code cache the build wrote', () => {
    expect(fs.existsSync(path.join(ROOT, 'dist', 'typescript.code-cache'))).toBe(true);
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import(process.argv[1]); const ts = m.loadTypeScript(); console.log(m.typeScriptCodeCache(), ts.createSourceFile('x.ts', 'let a = 1', 99).statements.length)", path.join(ROOT, 'dist', 'src', 'extract', 'compiler.js')],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('accepted 1\n');
  });
});
