#!/usr/bin/env node
import { main } from '../dist/bundle/cli.js';

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
