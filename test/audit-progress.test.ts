import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/engine.js';
import { progressReporter, type ProgressStream } from '../src/report/progress.js';
import { cli, ROOT } from './helpers/run.js';

const AUDIT = path.join(ROOT, 'fixtures', 'audit');
const ERASE = '\r\x1b[2K';

function fakeStream(isTTY: boolean): ProgressStream & { chunks: string[] } {
  const chunks: string[] = [];
  return { isTTY, chunks, write: (s: string) => (chunks.push(s), true) };
}

describe('progress reporter', () => {
  it('on a TTY, stays silent for the first second, then redraws at most every 100 ms and erases its line at the end', () => {
    let now = 5_000;
    const stream = fakeStream(true);
    const progress = progressReporter(stream, { env: {}, now: () => now })!;
    progress(0, 400);
    now += 600;
    progress(100, 400);
    expect(stream.chunks).toEqual([]);
    now += 450; // 1,050 ms in
    progress(180, 400);
    now += 50;
    progress(190, 400); // within 100 ms of the last draw
    now += 60;
    progress(200, 400);
    progress(400, 400);
    expect(stream.chunks).toEqual([`${ERASE}route-surface: parsed 180/400 files`, `${ERASE}route-surface: parsed 200/400 files`, ERASE]);
  });

  it('a run shorter than the delay prints nothing at all, not even the erase', () => {
    let now = 0;
    const stream = fakeStream(true);
    const progress = progressReporter(stream, { env: {}, now: () => now })!;
    for (let i = 0; i < 10; i++) {
      progress(i, 10);
      now += 20;
    }
    progress(10, 10);
    expect(stream.chunks).toEqual([]);
  });

  it('is off when the stream is not a TTY, and in CI', () => {
    expect(progressReporter(fakeStream(false), { env: {} })).toBeUndefined();
    expect(progressReporter(fakeStream(true), { env: { CI: 'true' } })).toBeUndefined();
    expect(progressReporter(fakeStream(true), { env: { CI: '1' } })).toBeUndefined();
    expect(progressReporter(fakeStream(true), { env: { CI: 'false' } })).toBeTypeOf('function');
    expect(progressReporter(fakeStream(true), { env: { CI: '' } })).toBeTypeOf('function');
  });

  it('is driven by the engine while it parses: same total throughout, done never goes back, ends with done === total', async () => {
    const calls: [number, number][] = [];
    const res = await run({ cwd: AUDIT, paths: [], onProgress: (d, t) => calls.push([d, t]) });
    expect(calls.length).toBeGreaterThan(1);
    const total = calls[0]![1];
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(res.files.length);
    for (const [i, [done, t]] of calls.entries()) {
      expect(t).toBe(total);
      if (i > 0) expect(done).toBeGreaterThanOrEqual(calls[i - 1]![0]);
    }
    expect(calls.at(-1)).toEqual([total, total]);

    const stream = fakeStream(true);
    await run({ cwd: AUDIT, paths: [], onProgress: progressReporter(stream, { env: {}, delayMs: 0, intervalMs: 0 }) });
    expect(stream.chunks.length).toBeGreaterThan(1);
    expect(stream.chunks.at(-1)).toBe(ERASE);
    for (const c of stream.chunks.slice(0, -1)) expect(c).toMatch(/^\r\x1b\[2Kroute-surface: parsed \d+\/\d+ files$/);
  });
});

describe('progress in the CLI', () => {
  it('piped runs print nothing on stderr (check, list, explain, html)', () => {
    for (const args of [['check'], ['list', '--format', 'tree'], ['explain', 'GET /api/sites/'], ['check', '--format', 'html']]) {
      const r = cli(args, AUDIT, { CI: '' });
      expect(r.stderr).toBe('');
      expect(r.stdout).not.toContain('route-surface: parsed');
    }
  });
});
