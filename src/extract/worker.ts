/**
 * A worker thread of the extraction pool (see pool.ts): it claims files from a shared
 * counter, reads each one itself (so no copy of every source crosses between the threads),
 * extracts its facts and sends them back as text (facts-text.ts: the first line, and the
 * others as UTF-8 bytes moved to the main thread rather than copied) — or, for a file
 * only to be checked, whether it has a syntax error — in batches. A file whose content no
 * longer hashes to what the main thread read (or that cannot be read now), or that is to be
 * checked but nests deeper than the budget (where running out of stack depends on the
 * thread's stack), is left to the main thread.
 */
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { ADAPTERS } from '../adapters/index.js';
import type { Budgets } from '../budgets.js';
import { contentHash } from '../cache.js';
import { readSourceText } from '../source-text.js';
import { loadTypeScript } from './compiler.js';
import { extractFacts, hasSyntaxErrorOffMain } from './extract.js';
import { factsToParts } from './facts-text.js';

/** Where a worker reads the files, and what each must hash to (as the main thread hashed it). */
export interface WorkerSource {
  cwd: string;
  maxFileBytes: number;
  hashes: string[];
}

export interface WorkerInput {
  files: string[];
  /** files from this index on are only parsed for syntax errors */
  checkFrom: number;
  source: WorkerSource;
  budgets: Pick<Budgets, 'maxFileMs' | 'maxNestingDepth'>;
  /** Int32Array[1] over a SharedArrayBuffer: the next index to claim */
  next: SharedArrayBuffer;
}

/**
 * Sent while working: extracted facts (factsToParts' head and rest) and syntax checks by index;
 * `done` once nothing is left to claim.
 */
export type WorkerMessage = { results: [number, string, Uint8Array][]; checks: [number, boolean][]; done: boolean };

const BATCH = 32;

const input = workerData as WorkerInput;
const next = new Int32Array(input.next);
const ts = loadTypeScript();
let batch: [number, string, Uint8Array<ArrayBuffer>][] = [];
let checks: [number, boolean][] = [];
for (let i = Atomics.add(next, 0, 1); i < input.files.length; i = Atomics.add(next, 0, 1)) {
  const file = input.files[i]!;
  const src = readSourceText(path.join(input.source.cwd, file), input.source.maxFileBytes);
  if (!src.ok || contentHash(src.note ? `${src.text}\0${src.note.message}` : src.text) !== input.source.hashes[i]) continue;
  if (i >= input.checkFrom) {
    let broken: boolean | null;
    try {
      broken = hasSyntaxErrorOffMain(ts, file, src.text, input.budgets.maxNestingDepth);
    } catch {
      broken = null;
    }
    if (broken === null) continue;
    checks.push([i, broken]);
  } else {
    const { head, rest } = factsToParts(extractFacts(ts, file, src.text, ADAPTERS, input.budgets));
    batch.push([i, head, rest]);
  }
  if (batch.length + checks.length >= BATCH) {
    send(false);
    batch = [];
    checks = [];
  }
}
send(true);

function send(done: boolean): void {
  parentPort!.postMessage({ results: batch, checks, done } satisfies WorkerMessage, batch.map(([, , rest]) => rest.buffer));
}
