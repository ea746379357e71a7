#!/usr/bin/env node
import v8 from 'node:v8';
import { main } from '../dist/bundle/cli.js';

// After each full collection V8 lets the heap grow to as much as four times what it kept before
// collecting again; a cold check of 10,000 files keeps some 500 MB of facts live while linking,
// and the heap grew to hold as much garbage again (peak RSS 970–1,030 MiB). Twice what was kept
// (the flag is read at each collection, in this thread and the workers alike) holds it to about
// 900 MiB, for a few more full collections, each mostly concurrent.
v8.setFlagsFromString('--heap-growing-percent=100');

// A reader that stops early (`route-surface check | head`) closes the pipe: what is left unwritten
// has no one to read it, and the run's exit code stays its own. Any other failure to write the
// report (a full disk) fails the run with one line.
let unwritten = null;
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE' || unwritten) return;
  unwritten = err.code ?? 'error';
  process.stderr.write(`route-surface: cannot write the report to stdout (${unwritten})\n`);
});
// nowhere left to say that stderr failed
process.stderr.on('error', () => {});
process.on('exit', () => {
  if (unwritten) process.exitCode = 2;
});

process.exitCode = await main(process.argv.slice(2));
