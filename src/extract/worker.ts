/**
 * A worker thread of the extraction pool (see pool.ts): it claims files from a shared
 * counter, extracts their facts and sends them back as JSON, in batches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ADAPTERS } from '../adapters/index.js';
import type { Budgets } from '../budgets.js';
import { loadTypeScript } from './compiler.js';
import { extractFacts } from './extract.js';

export interface WorkerInput {
  files: string[];
  texts: string[];
  budgets: Pick<Budgets, 'maxFileMs' | 'maxNestingDepth'>;
  /** Int32Array[1] over a SharedArrayBuffer: the next index to claim */
  next: SharedArrayBuffer;
}

/** Sent while working: extracted facts by index; `done` once nothing is left to claim. */
export type WorkerMessage = { results: [number, string][]; done: boolean };

const BATCH = 32;

const input = workerData as WorkerInput;
const next = new Int32Array(input.next);
const ts = loadTypeScript();
let batch: [number, string][] = [];
for (let i = Atomics.add(next, 0, 1); i < input.files.length; i = Atomics.add(next, 0, 1)) {
  batch.push([i, JSON.stringify(extractFacts(ts, input.files[i]!, input.texts[i]!, ADAPTERS, input.budgets))]);
  if (batch.length >= BATCH) {
    parentPort!.postMessage({ results: batch, done: false } satisfies WorkerMessage);
    batch = [];
  }
}
parentPort!.postMessage({ results: batch, done: true } satisfies WorkerMessage);
