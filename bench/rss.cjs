// Preloaded (`node --require bench/rss.cjs …`) into every measured process: on exit, writes the
// process's peak resident set size (KiB, all threads) to $BENCH_RSS_FILE.
//
// Read from /proc/self/status (VmHWM, the high-water mark of this process's own memory) where
// there is one: Linux's getrusage maxrss survives exec, so a child forked from a big bench
// process would report at least the parent's size. Elsewhere, getrusage's maxRSS.
'use strict';
const fs = require('node:fs');

function peakKiB() {
  try {
    const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // no procfs
  }
  return process.resourceUsage().maxRSS;
}

const out = process.env.BENCH_RSS_FILE;
if (out) process.on('exit', () => fs.writeFileSync(out, String(peakKiB())));
