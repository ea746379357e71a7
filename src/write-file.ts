/**
 * Writing the files a command produces (a report, a baseline, a starter config) without ever
 * replacing what the path leads to by something else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors.js';

/**
 * Write `pieces` to `file`. A regular file (or a new one) is replaced whole, through a
 * temporary file beside it, so a reader never sees half of it; a link is written through, to
 * the file it leads to (created if need be); a device or a FIFO (`/dev/stdout`, a named pipe) is
 * written to as it is, never replaced. A failure is one line naming the file as `shown`.
 */
export function writeFileSafely(file: string, pieces: Iterable<string | Uint8Array>, shown: string): void {
  let tmp: string | null = null;
  try {
    const here = statOrNull(file, fs.lstatSync);
    const there = here?.isSymbolicLink() ? statOrNull(file, fs.statSync) : here;
    const atomic = !here || there?.isFile() === true;
    const abs = !here ? path.resolve(file) : atomic ? fs.realpathSync(file) : file;
    if (atomic) tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.tmp`);
    const fd = fs.openSync(tmp ?? abs, 'w');
    try {
      for (const piece of pieces) {
        if (typeof piece === 'string') fs.writeSync(fd, piece);
        else fs.writeSync(fd, piece);
      }
    } finally {
      fs.closeSync(fd);
    }
    if (tmp) fs.renameSync(tmp, abs);
  } catch (err) {
    if (tmp) fs.rmSync(tmp, { force: true });
    throw new UsageError(`${shown}: cannot write (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function statOrNull(file: string, stat: (file: string) => fs.Stats): fs.Stats | null {
  try {
    return stat(file);
  } catch {
    return null;
  }
}
