/**
 * Nothing lost: the baseline, and a cache written whole, are written atomically (a temporary
 * file, then a rename); a cache appended to in place keeps every byte written before, and its
 * last complete version is found after a run killed while appending. So a reader never sees
 * half a file and a run killed at any moment leaves a whole one; a corrupt cache is rebuilt,
 * never trusted, never fatal.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FactCache } from '../../src/cache.js';
import { run, type RunResult } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { BIN } from '../helpers/run.js';
import { cleanProjects, cli, project, write } from './helpers.js';

afterAll(cleanProjects);

const sha = (s: string | Buffer): string => crypto.createHash('sha256').update(s).digest('hex');

/** A router file with `n` unguarded routes: three findings each, so the baseline is big. */
function reportsRouter(n: number, tag: string): string {
  const lines = ["import { Router } from 'express';", 'export const reportsRouter = Router();'];
  for (let i = 0; i < n; i++) lines.push(`reportsRouter.get('/${tag}/${i}', async (req, res) => { res.json(await req.app.locals.db.report('${tag}', ${i})); });`);
  return lines.join('\n') + '\n';
}

function serverWithReports(n: number, tag: string): string {
  const dir = project({ 'src/routes/reports.ts': reportsRouter(n, tag) });
  const app = fs.readFileSync(path.join(dir, 'src/app.ts'), 'utf8');
  write(
    dir,
    'src/app.ts',
    app.replace("import { internalRouter } from './routes/internal.js';", "import { internalRouter } from './routes/internal.js';\nimport { reportsRouter } from './routes/reports.js';").replace("  app.use('/api', requireSession", "  app.use('/api/reports', reportsRouter);\n  app.use('/api', requireSession"),
  );
  return dir;
}

/**
 * A process that reads `file` in a tight loop until `stop` exists, and prints the distinct
 * contents it saw (by hash) and how many reads were not valid JSON.
 */
function startReader(file: string, stop: string): { done: Promise<{ seen: string[]; invalid: number; reads: number }> } {
  const code = `
    const fs = require('fs'); const crypto = require('crypto');
    const seen = new Set(); let invalid = 0; let reads = 0;
    while (!fs.existsSync(${JSON.stringify(stop)})) {
      let text; try { text = fs.readFileSync(${JSON.stringify(file)}); } catch { continue; }
      reads++;
      seen.add(crypto.createHash('sha256').update(text).digest('hex'));
      try { JSON.parse(text.toString('utf8')); } catch { invalid++; }
    }
    process.stdout.write(JSON.stringify({ seen: [...seen], invalid, reads }));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return { done: new Promise((resolve) => child.on('exit', () => resolve(JSON.parse(out)))) };
}

const waitFor = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
};

describe('baseline writes', () => {
  it('a reader never sees half a baseline while it is rewritten', async () => {
    const dir = serverWithReports(3000, 'old');
    expect(cli(['check', '--update-baseline', '--baseline', 'rs-baseline.json'], dir).code).toBe(0);
    const file = path.join(dir, 'rs-baseline.json');
    const before = sha(fs.readFileSync(file));
    expect(fs.statSync(file).size).toBeGreaterThan(1_000_000);
    write(dir, 'src/routes/reports.ts', reportsRouter(3000, 'new'));

    const stop = path.join(dir, 'STOP');
    const reader = startReader(file, stop);
    await new Promise((r) => setTimeout(r, 200));
    const update = await new Promise<number>((resolve) => spawn(process.execPath, [BIN, 'check', '--update-baseline', '--baseline', 'rs-baseline.json'], { cwd: dir, stdio: 'ignore' }).on('exit', (c) => resolve(c ?? -1)));
    await new Promise((r) => setTimeout(r, 200));
    fs.writeFileSync(stop, '');
    const seen = await reader.done;
    const after = sha(fs.readFileSync(file));

    expect(update).toBe(0);
    expect(after).not.toBe(before);
    expect(seen.invalid).toBe(0);
    expect(seen.seen.sort()).toEqual([before, after].sort());
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('the same reader does see half a file written in place (the check above can fail)', async () => {
    const dir = project({}, false);
    const file = path.join(dir, 'in-place.json');
    const big = (tag: string): string => JSON.stringify({ findings: Array.from({ length: 60_000 }, (_, i) => ({ fingerprint: `${tag}${i}`, ruleId: 'missing-auth-guard' })) });
    fs.writeFileSync(file, big('a'));
    const stop = path.join(dir, 'STOP');
    const reader = startReader(file, stop);
    await new Promise((r) => setTimeout(r, 100));
    const texts = [big('a'), big('b')];
    for (let i = 0, t0 = performance.now(); performance.now() - t0 < 1500; i++) fs.writeFileSync(file, texts[i % 2]!);
    fs.writeFileSync(stop, '');
    const seen = await reader.done;
    expect(seen.invalid).toBeGreaterThan(0);
  });

  it('a run killed at any moment leaves the previous baseline intact', async () => {
    const dir = serverWithReports(2000, 'old');
    expect(cli(['check', '--update-baseline', '--baseline', 'rs-baseline.json'], dir).code).toBe(0);
    const file = path.join(dir, 'rs-baseline.json');
    const old = fs.readFileSync(file);
    write(dir, 'src/routes/reports.ts', reportsRouter(2000, 'new'));
    const t0 = performance.now();
    expect(cli(['check', '--update-baseline', '--baseline', 'rs-after.json'], dir).code).toBe(0);
    const full = performance.now() - t0;
    const after = sha(fs.readFileSync(path.join(dir, 'rs-after.json')));
    const outcomes = new Set<string>();
    for (const fraction of [0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0, 1.1]) {
      fs.writeFileSync(file, old);
      const child = spawn(process.execPath, [BIN, 'check', '--update-baseline', '--baseline', 'rs-baseline.json'], { cwd: dir, stdio: 'ignore' });
      let exited = false;
      child.on('exit', () => (exited = true));
      await new Promise((r) => setTimeout(r, full * fraction));
      child.kill('SIGKILL');
      await waitFor(() => exited);
      const now = sha(fs.readFileSync(file));
      expect([sha(old), after]).toContain(now);
      outcomes.add(now === after ? 'new' : 'old');
    }
    expect(outcomes.has('old')).toBe(true);
  });

  it('a baseline that cannot be written fails with one line and leaves the old one', () => {
    const dir = serverWithReports(20, 'old');
    fs.mkdirSync(path.join(dir, 'ci'));
    expect(cli(['check', '--update-baseline', '--baseline', 'ci/rs-baseline.json'], dir).code).toBe(0);
    const file = path.join(dir, 'ci', 'rs-baseline.json');
    const before = fs.readFileSync(file);
    write(dir, 'src/routes/reports.ts', reportsRouter(20, 'new'));
    fs.chmodSync(path.join(dir, 'ci'), 0o555);
    const r = cli(['check', '--update-baseline', '--baseline', 'ci/rs-baseline.json'], dir, { unprivileged: true });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'route-surface: ci/rs-baseline.json: cannot write (EACCES)\n' });
    expect(fs.readFileSync(file)).toEqual(before);
    expect(fs.readdirSync(path.join(dir, 'ci'))).toEqual(['rs-baseline.json']);
  });
});

describe('the cache', () => {
  const strip = (r: RunResult): string => formatJson(r);

  async function withCache(dir: string): Promise<RunResult> {
    return run({ cwd: dir, paths: [], cache: true, cacheLocation: '.rs-cache/facts' });
  }

  it('rebuilds a cache that is truncated, empty or damaged, and answers as without it', async () => {
    const dir = serverWithReports(50, 'c');
    const truth = strip(await run({ cwd: dir, paths: [] }));
    const first = await withCache(dir);
    expect(strip(first)).toBe(truth);
    const file = path.join(dir, '.rs-cache', 'facts');
    const good = fs.readFileSync(file);
    const damages: [string, (b: Buffer) => Buffer][] = [
      ['truncated in the header', (b) => b.subarray(0, 12)],
      ['header damaged', (b) => Buffer.concat([b.subarray(0, 30), Buffer.alloc(b.length - 30, 0x7b)])],
      ['truncated in the index', (b) => b.subarray(0, b.indexOf(10) + 40)],
      ['truncated in the facts', (b) => b.subarray(0, Math.floor(b.length * 0.6))],
      ['empty', () => Buffer.alloc(0)],
      ['facts overwritten', (b) => Buffer.concat([b.subarray(0, b.indexOf(10) + 1), Buffer.alloc(b.length - b.indexOf(10) - 1, 0x7b)])],
    ];
    for (const [what, damage] of damages) {
      fs.writeFileSync(file, damage(good));
      // edit a source too, so the run's result cannot simply be replayed
      write(dir, 'src/routes/reports.ts', reportsRouter(50, 'c') + `// ${what}\n`);
      const r = await withCache(dir);
      expect({ what, json: strip(r) }).toEqual({ what, json: truth });
      // …and the cache it wrote is whole and used by the next run
      expect(FactCache.open(file, readKey(file)).discarded).toBe(null);
      write(dir, 'src/routes/reports.ts', reportsRouter(50, 'c'));
      const again = await withCache(dir);
      expect(strip(again)).toBe(truth);
      expect(again.extraction?.cached ?? 0).toBeGreaterThan(0);
    }
  });

  it('leaves a file that is not a cache as it is, and answers as without it', async () => {
    const dir = serverWithReports(50, 'c');
    const truth = strip(await run({ cwd: dir, paths: [] }));
    const file = path.join(dir, '.rs-cache', 'facts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    for (const [what, bytes] of [
      ['random bytes', crypto.randomBytes(4096)],
      ['a line of JSON that is not a cache', Buffer.from('{"tool":"eslint","rows":[]}\n')],
    ] as const) {
      fs.writeFileSync(file, bytes);
      const r = await withCache(dir);
      expect({ what, json: strip(r) }).toEqual({ what, json: truth });
      expect(r.extraction?.cacheNote).toBe(`cannot write the cache ${file} (not a route-surface cache: left as it is)`);
      expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    }
  });

  it('does not trust a cache altered in place, even when it still parses', async () => {
    const dir = serverWithReports(50, 'c');
    const truth = strip(await run({ cwd: dir, paths: [] }));
    await withCache(dir);
    expect(strip(await withCache(dir))).toBe(truth); // the result is replayed from the cache now
    const file = path.join(dir, '.rs-cache', 'facts');
    const text = fs.readFileSync(file, 'latin1');
    // same length, still valid JSON: one route's path, in its facts and in the replayed result
    expect(text.split('/c/1"').length - 1).toBeGreaterThanOrEqual(2);
    fs.writeFileSync(file, Buffer.from(text.replaceAll('/c/1"', '/c/Z"'), 'latin1'));
    const r = await withCache(dir);
    expect(strip(r)).toBe(truth);
    expect(fs.readFileSync(file, 'latin1')).not.toContain('/c/Z"');
  });

  it('answers as without it when the cache cannot be written', async () => {
    const dir = serverWithReports(10, 'c');
    const truth = strip(await run({ cwd: dir, paths: [] }));
    fs.mkdirSync(path.join(dir, '.rs-cache'));
    fs.chmodSync(path.join(dir, '.rs-cache'), 0o555);
    const r = cli(['check', '--format', 'json', '--cache', '--cache-location', '.rs-cache/facts'], dir, { unprivileged: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(truth);
    expect(fs.readdirSync(path.join(dir, '.rs-cache'))).toEqual([]);
  });

  it('replaces whole a cache that cannot be appended to in place (a read-only file in a writable directory)', () => {
    const dir = serverWithReports(10, 'c');
    fs.mkdirSync(path.join(dir, '.rs-cache'));
    fs.chmodSync(path.join(dir, '.rs-cache'), 0o777);
    const args = ['check', '--format', 'json', '--cache', '--cache-location', '.rs-cache/facts'];
    expect(cli(args, dir, { unprivileged: true }).stderr).toBe('');
    const file = path.join(dir, '.rs-cache', 'facts');
    fs.chmodSync(file, 0o444);
    const inode = fs.statSync(file).ino;
    write(dir, 'src/routes/reports.ts', reportsRouter(10, 'c2'));
    const truth = cli(['check', '--format', 'json'], dir);
    const r = cli(args, dir, { unprivileged: true });
    expect([r.code, r.stdout, r.stderr]).toEqual([truth.code, truth.stdout, '']);
    expect(fs.statSync(file).ino).not.toBe(inode);
    expect(FactCache.open(file, readKey(file)).discarded).toBe(null);
  });

  it('a run killed at any moment leaves a cache that is whole', async () => {
    const dir = serverWithReports(3000, 'k');
    expect(cli(['check', '--cache', '--cache-location', '.rs-cache/facts'], dir).code).toBe(1);
    const file = path.join(dir, '.rs-cache', 'facts');
    const before = sha(fs.readFileSync(file));
    write(dir, 'src/routes/reports.ts', reportsRouter(3000, 'k2'));
    const t0 = performance.now();
    const probe = cli(['check', '--cache', '--cache-location', '.rs-cache/probe'], dir);
    expect(probe.code).toBe(1);
    const full = performance.now() - t0;
    const seen = new Set<string>();
    for (const fraction of [0.2, 0.5, 0.8, 0.9, 1.0, 1.2]) {
      const child = spawn(process.execPath, [BIN, 'check', '--cache', '--cache-location', '.rs-cache/facts'], { cwd: dir, stdio: 'ignore' });
      let exited = false;
      child.on('exit', () => (exited = true));
      await new Promise((r) => setTimeout(r, full * fraction));
      child.kill('SIGKILL');
      await waitFor(() => exited);
      expect(FactCache.open(file, readKey(file)).discarded).toBe(null);
      seen.add(sha(fs.readFileSync(file)) === before ? 'old' : 'new');
    }
    expect(seen.has('old')).toBe(true);
  });
});

/** The key a cache file was written for (its first line's `key`). */
function readKey(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  return (JSON.parse(text.slice(0, text.indexOf('\n'))) as { key: string }).key;
}
