/**
 * A small-size smoke run of the bench's generator and correctness check (no timing: that
 * is `npm run bench`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, type RunResult } from '../src/engine.js';
import { formatJson, routeJson } from '../src/report/json.js';
import { cli, ROOT } from './helpers/run.js';

interface ExpectedRoute {
  method: string;
  path: string;
  file: string;
  line: number;
  framework: string;
  guards: Record<'auth' | 'tenant' | 'csrf' | 'family', string[]>;
}
interface Generator {
  generate(o: { dir: string; files: number; seed?: number }): { files: number; lines: number; routes: ExpectedRoute[] };
  routeFileOf(routes: ExpectedRoute[]): string;
}
interface Verify {
  adapterFrameworks(root: string): Promise<string[]>;
  compareRoutes(expected: ExpectedRoute[], found: unknown[], frameworks: string[]): { ok: boolean; checked: Record<string, number>; unchecked: Record<string, number>; missing: string[]; extra: string[]; guardMismatches: string[] };
  describeComparison(c: unknown): string;
}

const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(ROOT, rel)).href)) as T;

function treeDigest(dir: string): string {
  const h = crypto.createHash('sha1');
  for (const f of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const abs = path.join(dir, f);
    if (fs.statSync(abs).isFile()) h.update(f).update(fs.readFileSync(abs));
  }
  return h.digest('hex');
}

describe('bench: generated control-plane trees', () => {
  let gen: Generator;
  let verify: Verify;
  let dir: string;
  let made: ReturnType<Generator['generate']>;
  let res: RunResult;

  beforeAll(async () => {
    gen = await load<Generator>('bench/generate.mjs');
    verify = await load<Verify>('bench/verify.mjs');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-bench-smoke-'));
    made = gen.generate({ dir, files: 300 });
    res = await run({ cwd: dir, paths: [] });
  });

  it('are made of exactly the files asked for, about 190 lines each, every framework, about 11 % excluded-family routes', () => {
    const sources = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBe(300);
    expect(made.files).toBe(300);
    expect(made.lines / made.files).toBeGreaterThan(150);
    expect([...new Set(made.routes.map((r) => r.framework))].sort()).toEqual(['express', 'fastify', 'hono', 'koa', 'nest']);
    const excluded = made.routes.filter((r) => r.guards.family.length > 0).length / made.routes.length;
    expect(excluded).toBeGreaterThan(0.08);
    expect(excluded).toBeLessThan(0.14);
  });

  it('are deterministic', () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-bench-smoke-'));
    gen.generate({ dir: again, files: 300 });
    expect(treeDigest(again)).toBe(treeDigest(dir));
  });

  it('check finds exactly the generated routes, with their guards, for every framework that has an adapter', async () => {
    const frameworks = await verify.adapterFrameworks(ROOT);
    // (not the adapter that only warns about servers of frameworks without one: it lists no routes)
    expect(frameworks).toEqual(['express', 'fastify', 'hono', 'koa', 'nest', 'next', 'routing-controllers', 'inversify-express-utils', 'overnight', 'medusa', 'elysia']);
    const c = verify.compareRoutes(made.routes, res.routes.map(routeJson), frameworks);
    expect(verify.describeComparison(c)).toContain('all generated routes found exactly');
    expect(c.ok).toBe(true);
    expect(Object.values(c.checked).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('the comparison notices a route missing, one too many, and a guard lost', async () => {
    const frameworks = await verify.adapterFrameworks(ROOT);
    const found = res.routes.map(routeJson);
    const dropped = found.slice(1);
    expect(verify.compareRoutes(made.routes, dropped, frameworks).missing).toHaveLength(1);
    const extra = [...found, { ...found[0]!, path: '/api/not-generated' }];
    expect(verify.compareRoutes(made.routes, extra, frameworks).extra).toHaveLength(1);
    const unguarded = found.map((r, i) => (i === 0 ? { ...r, guards: { ...r.guards, auth: [] } } : r));
    expect(verify.compareRoutes(made.routes, unguarded, frameworks).guardMismatches).toHaveLength(made.routes.find((r) => r.path === found[0]!.path && r.method === found[0]!.method)!.guards.auth.length > 0 ? 1 : 0);
  });

  it('the prefilter changes nothing on it', async () => {
    expect(formatJson(await run({ cwd: dir, paths: [], prefilter: false }))).toBe(formatJson(res));
    expect(res.extraction!.deferred).toBeGreaterThan(0);
    // and the linker reads few of the files held back after all (each is then parsed twice: once
    // for its syntax errors, once extracted); following every service's calls read nearly all
    expect(res.extraction!.demanded).toBeLessThan(res.extraction!.deferred / 10);
  });

  it('the built CLI (which may parse on several threads) prints the same result', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-bench-out-')), 'check.json');
    cli(['check', '--format', 'json', '--output', file], dir);
    expect(fs.readFileSync(file, 'utf8')).toBe(formatJson(res));
  });

  it('facts extracted, and syntax checks made, by a worker thread are the ones the main thread makes', async () => {
    const pool = await load<typeof import('../src/extract/pool.js')>('dist/src/extract/pool.js');
    const routeFiles = made.routes.map((r) => r.file).filter((f, i, all) => all.indexOf(f) === i).slice(0, 40);
    // then files only checked for syntax errors, broken ones among them
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-pool-'));
    const sources = new Map<string, string>(routeFiles.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
    for (let k = 0; k < 24; k++) sources.set(`src/held/ok-${k}.ts`, `export const limit${k} = ${k} * 2;\n`);
    for (let k = 0; k < 8; k++) sources.set(`src/held/broken-${k}.ts`, `export function f${k}( {\n  return 1;\n`);
    // nested deeper than the budget: where the parser runs out of stack depends on the thread, so only this one decides
    for (let k = 0; k < 8; k++) sources.set(`src/held/deep-${k}.ts`, `export const d${k} = ${'('.repeat(520)}${k}${')'.repeat(520)};\n`);
    for (const [f, text] of sources) {
      fs.mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
      fs.writeFileSync(path.join(work, f), text);
    }
    const files = [...sources.keys()];
    const texts = [...sources.values()];
    const { loadTypeScript } = await load<typeof import('../src/extract/compiler.js')>('dist/src/extract/compiler.js');
    const { extractFacts, hasSyntaxError, hasSyntaxErrorOffMain } = await load<typeof import('../src/extract/extract.js')>('dist/src/extract/extract.js');
    const { factsToText, partsToText } = await load<typeof import('../src/extract/facts-text.js')>('dist/src/extract/facts-text.js');
    const { ADAPTERS } = await load<typeof import('../src/adapters/index.js')>('dist/src/adapters/index.js');
    const { DEFAULT_BUDGETS } = await load<typeof import('../src/budgets.js')>('dist/src/budgets.js');
    const here = new Map<number, string | boolean>();
    const there = new Map<number, string | boolean>();
    // This thread is slowed down, so that the worker (which has a compiler to load first) gets files too.
    const slowly = (i: number): void => {
      here.set(i, i < routeFiles.length ? factsToText(extractFacts(loadTypeScript(), files[i]!, texts[i]!, ADAPTERS, DEFAULT_BUDGETS)) : hasSyntaxError(loadTypeScript(), files[i]!, texts[i]!));
      const until = Date.now() + 60;
      while (Date.now() < until);
    };
    const { contentHash } = await load<typeof import('../src/cache.js')>('dist/src/cache.js');
    // The worker reads the files itself; one that changed since this thread read it stays here.
    const hashes = texts.map((t) => contentHash(t));
    hashes[3] = 'not-what-the-file-hashes-to';
    await pool.extractInPool(files, routeFiles.length, { cwd: work, maxFileBytes: DEFAULT_BUDGETS.maxFileBytes, hashes }, DEFAULT_BUDGETS, 2, {
      inline: slowly,
      facts: (i, head, rest) => there.set(i, Buffer.from(partsToText(head, rest)).toString('utf8')),
      checked: (i, broken) => there.set(i, broken),
    });
    expect(there.has(3)).toBe(false);
    expect(here.has(3)).toBe(true);
    expect(here.size + there.size).toBe(files.length);
    expect([...there.keys()].some((i) => i < routeFiles.length)).toBe(true);
    expect([...there.keys()].some((i) => i >= routeFiles.length)).toBe(true);
    expect([...there.keys()].filter((i) => files[i]!.includes('deep'))).toEqual([]);
    expect(hasSyntaxErrorOffMain(loadTypeScript(), files.at(-1)!, texts.at(-1)!, DEFAULT_BUDGETS.maxNestingDepth)).toBe(null);
    for (const [i, r] of [...here, ...there]) {
      if (i < routeFiles.length) expect(r).toBe(factsToText(extractFacts(loadTypeScript(), files[i]!, texts[i]!, ADAPTERS, DEFAULT_BUDGETS)));
      else expect(r).toBe(files[i]!.includes('broken'));
    }
  });
});

describe('threads for parsing', () => {
  it('a worker per core left idle while the files were read, each thread getting at least 16 MB of source', async () => {
    const pool = await load<typeof import('../src/extract/pool.js')>('dist/src/extract/pool.js');
    expect(pool.threadsFor(40_000_000, 1.0, 2)).toBe(2);
    expect(pool.threadsFor(40_000_000, 0.1, 2)).toBe(1);
    expect(pool.threadsFor(20_000_000, 1.0, 2)).toBe(1);
    expect(pool.threadsFor(80_000_000, 3.9, 4)).toBe(4);
    expect(pool.threadsFor(80_000_000, null, 4)).toBe(4);
    const t = (idle: number, busy: number) => ({ user: busy, nice: 0, sys: 0, idle, irq: 0 });
    expect(pool.idleCores([t(0, 0), t(0, 0)], [t(0, 500), t(500, 0)])).toBe(1);
    expect(pool.idleCores([t(0, 0), t(0, 0)], [t(1, 1), t(1, 1)])).toBe(null);
  });
});
