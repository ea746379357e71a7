import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Vitest global setup: the run gets one temporary directory of its own, which every throw-away
 * project the tests write (`os.tmpdir()` reads TMPDIR) and every process they start inherit, and
 * which is removed when the run ends — 575 projects a run were left in /tmp before.
 */
export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-tests-'));
  // Open to all as /tmp is: the hostile tests run the tool as an unprivileged user.
  fs.chmodSync(dir, 0o1777);
  const before = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  process.env.TMPDIR = process.env.TMP = process.env.TEMP = dir;
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
