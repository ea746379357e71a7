// Preloaded (`node --require bench/rss.cjs …`) into every measured process: on exit, writes the
// process's peak resident set size (KiB, all threads) to $BENCH_RSS_FILE.
'use strict';
const fs = require('node:fs');

const out = process.env.BENCH_RSS_FILE;
if (out) process.on('exit', () => fs.writeFileSync(out, String(process.resourceUsage().maxRSS)));
