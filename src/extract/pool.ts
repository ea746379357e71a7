/**
 * Parsing on several threads. The main thread and the workers claim files from one shared
 * counter (so a slow file never leaves a thread idle); a worker sends its facts back as JSON.
 *
 * A worker costs its start-up (a thread, and a copy of the compiler to load: about as much as
 * parsing 1 MB of source on this project's 2-core reference machine), so workers are started
 * only when each one gets at least `MIN_BYTES_PER_THREAD` of source, and only as many as there
 * are cores to run them. They exist only in the built package (the worker is a .js module).
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Budgets } from '../budgets.js';
import type { WorkerInput, WorkerMessage } from './worker.js';

/** Source bytes a thread must get for starting it to pay off (see docs/performance.md). */
export const MIN_BYTES_PER_THREAD = 2_000_000;
const MAX_THREADS = 8;
/** Files this thread extracts between two looks at the workers' messages. */
const YIELD_EVERY = 16;

const WORKER = new URL('./worker.js', import.meta.url);

/** How many threads (the main one included) to parse `bytes` of source with. */
export function threadsFor(bytes: number, cores = os.availableParallelism()): number {
  if (!import.meta.url.endsWith('.js') || !fs.existsSync(fileURLToPath(WORKER))) return 1;
  return Math.max(1, Math.min(cores, MAX_THREADS, Math.floor(bytes / MIN_BYTES_PER_THREAD)));
}

/**
 * Extract the facts of `files` (with their `texts`) on `threads` threads, this one included:
 * `inline(i)` extracts file i here; `fromWorker(i, json)` receives file i's facts extracted
 * by a worker. Every index is handled exactly once, here if a worker fails.
 */
export async function extractInPool(
  files: string[],
  texts: string[],
  budgets: Pick<Budgets, 'maxFileMs' | 'maxNestingDepth'>,
  threads: number,
  inline: (i: number) => void,
  fromWorker: (i: number, json: string) => void,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const n = files.length;
  const handled = new Uint8Array(n);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const workers: Promise<void>[] = [];
  for (let w = 1; w < threads; w++) {
    workers.push(
      new Promise<void>((resolve) => {
        const input: WorkerInput = { files, texts, budgets: { maxFileMs: budgets.maxFileMs, maxNestingDepth: budgets.maxNestingDepth }, next: next.buffer as SharedArrayBuffer };
        const worker = new Worker(WORKER, { workerData: input });
        worker.on('message', (m: WorkerMessage) => {
          for (const [i, json] of m.results) {
            handled[i] = 1;
            fromWorker(i, json);
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
    inline(i);
    handled[i] = 1;
    // Take the workers' results as they come, rather than holding them all until the end.
    if (workers.length > 0 && ++sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await Promise.all(workers);
  for (let i = 0; i < n; i++) if (!handled[i]) inline(i);
  onProgress?.(n, n);
}
