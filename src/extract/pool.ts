/**
 * Parsing on several threads. The main thread and the workers claim files from one shared
 * counter (so a slow file never leaves a thread idle); a worker reads its files itself and
 * sends back their facts as text (facts-text.ts, in two parts) — or, for the files the prefilter held
 * back, only whether they have a syntax error (those come last in the list: parsed, not
 * walked).
 *
 * A worker costs its start-up (a thread, its own copy of the compiler to load and its own
 * just-in-time compilation to warm up — which on its own keeps a second core busy for about a
 * third of the run) and its facts travel back as text: on the 2-core reference machine, two
 * threads spend 1.3–1.6× the CPU time of one for the same files (docs/performance.md),
 * lose 12 % of the wall time on 2,000 generated files (12 MB to parse) and win 24 % on
 * 10,000 (61 MB). So workers are started only on cores that are idle, and only when each
 * thread gets at least `MIN_BYTES_PER_THREAD` of source. They exist only in the built package
 * (the worker is a .js module).
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Budgets } from '../budgets.js';
import type { WorkerInput, WorkerMessage, WorkerSource } from './worker.js';

/** Source bytes a thread must get for starting it to pay off (see docs/performance.md). */
export const MIN_BYTES_PER_THREAD = 16_000_000;
const MAX_THREADS = 8;
/** Files this thread extracts between two looks at the workers' messages. */
const YIELD_EVERY = 16;

const WORKER = new URL('./worker.js', import.meta.url);

/** CPU time counters of every core, to tell later how busy the machine was meanwhile. */
export function cpuSample(): os.CpuInfo['times'][] {
  return os.cpus().map((c) => c.times);
}

/**
 * Cores that were idle between two samples (this thread's own work included in the busy
 * part), or null when the interval is too short to tell.
 */
export function idleCores(before: os.CpuInfo['times'][], after: os.CpuInfo['times'][]): number | null {
  let idle = 0;
  let total = 0;
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    const b = before[i]!;
    const a = after[i]!;
    idle += a.idle - b.idle;
    total += a.user + a.nice + a.sys + a.irq + a.idle - (b.user + b.nice + b.sys + b.irq + b.idle);
  }
  return total < 20 * after.length ? null : (idle / total) * after.length;
}

/**
 * How many threads (this one included) to parse `bytes` of source with: this thread, plus a
 * worker for each core that was idle while the files were read (a worker on a core other
 * processes keep busy only adds its start-up and contention) — each thread getting at least
 * `MIN_BYTES_PER_THREAD` of source.
 */
export function threadsFor(bytes: number, idle: number | null, cores = os.availableParallelism()): number {
  if (!import.meta.url.endsWith('.js') || !fs.existsSync(fileURLToPath(WORKER))) return 1;
  const spare = idle === null ? cores - 1 : Math.floor(idle + 0.25);
  return Math.max(1, Math.min(1 + spare, cores, MAX_THREADS, Math.floor(bytes / MIN_BYTES_PER_THREAD)));
}

/** What the pool does with file i, on this thread or as a worker reports it. */
export interface PoolHandlers {
  /** extract file i's facts here, or, from `checkFrom` on, parse it for syntax errors here */
  inline(i: number): void;
  /** file i's facts, extracted by a worker: factsToParts' head and rest (a buffer of its own) */
  facts(i: number, head: string, rest: Uint8Array): void;
  /** whether file i (from `checkFrom` on) has a syntax error, as a worker parsed it */
  checked(i: number, broken: boolean): void;
}

/**
 * Extract the facts of `files[0 .. checkFrom)` and parse the rest for syntax errors, on
 * `threads` threads, this one included. A worker reads each file from `source` (and leaves it
 * here if it does not hash as expected). Every index is handled exactly once, here if a worker
 * fails.
 */
export async function extractInPool(
  files: string[],
  checkFrom: number,
  source: WorkerSource,
  budgets: Pick<Budgets, 'maxFileMs' | 'maxNestingDepth'>,
  threads: number,
  handlers: PoolHandlers,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const n = files.length;
  const handled = new Uint8Array(n);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const workers: Promise<void>[] = [];
  for (let w = 1; w < threads; w++) {
    workers.push(
      new Promise<void>((resolve) => {
        const input: WorkerInput = { files, checkFrom, source, budgets: { maxFileMs: budgets.maxFileMs, maxNestingDepth: budgets.maxNestingDepth }, next: next.buffer as SharedArrayBuffer };
        const worker = new Worker(WORKER, { workerData: input });
        worker.on('message', (m: WorkerMessage) => {
          for (const [i, head, rest] of m.results) {
            handled[i] = 1;
            handlers.facts(i, head, rest);
          }
          for (const [i, broken] of m.checks) {
            handled[i] = 1;
            handlers.checked(i, broken);
          }
          if (m.done) void worker.terminate();
        });
        // A worker that fails leaves its files to the main thread (below); it never fails the run.
        worker.on('error', () => undefined);
        worker.on('exit', () => resolve());
      }),
    );
  }
  let sinceYield = 0;
  for (let i = Atomics.add(next, 0, 1); i < n; i = Atomics.add(next, 0, 1)) {
    onProgress?.(Math.min(Atomics.load(next, 0), n), n);
    handlers.inline(i);
    handled[i] = 1;
    // Take the workers' results as they come, rather than holding them all until the end.
    if (workers.length > 0 && ++sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await Promise.all(workers);
  for (let i = 0; i < n; i++) if (!handled[i]) handlers.inline(i);
  onProgress?.(n, n);
}
