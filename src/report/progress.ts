/**
 * Progress on a terminal: "files parsed / total" on stderr, for runs that take longer than
 * about a second. Never when stderr is not a TTY (piped, redirected) or in CI (`CI` set),
 * and never on stdout, so reports stay clean.
 */

export interface ProgressStream {
  isTTY?: boolean;
  write(chunk: string): boolean;
}

export interface ProgressOptions {
  /** show nothing before this many milliseconds have passed (default 1000) */
  delayMs?: number;
  /** redraw at most this often (default 100 ms) */
  intervalMs?: number;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
}

export type ProgressCallback = (done: number, total: number) => void;

/** `CI=false` and `CI=0` are how some set-ups say "not CI"; any other value means CI. */
function inCi(env: NodeJS.ProcessEnv): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * A progress callback writing to `stream`, or undefined when progress must not be shown.
 * The line is redrawn in place (`\r`, erase line) and erased when the last file is done.
 */
export function progressReporter(stream: ProgressStream, opts: ProgressOptions = {}): ProgressCallback | undefined {
  const env = opts.env ?? process.env;
  if (!stream.isTTY || inCi(env)) return undefined;
  const now = opts.now ?? Date.now;
  const delay = opts.delayMs ?? 1000;
  const interval = opts.intervalMs ?? 100;
  const start = now();
  let lastDraw = -Infinity;
  let shown = false;
  return (done, total) => {
    if (done >= total) {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
      return;
    }
    const t = now();
    if (t - start < delay || t - lastDraw < interval) return;
    lastDraw = t;
    shown = true;
    stream.write(`\r\x1b[2Kroute-surface: parsed ${done}/${total} files`);
  };
}

/** The CLI's reporter: the process's stderr. */
export function progressOnStderr(): ProgressCallback | undefined {
  return progressReporter(process.stderr);
}
