import { Chalk, type ChalkInstance } from 'chalk';

/** Colour only on a TTY; NO_COLOR and --no-color turn it off; FORCE_COLOR turns it on. */
export function makeChalk(opts: { noColor?: boolean; toFile?: boolean; stream?: NodeJS.WriteStream }): ChalkInstance {
  const env = process.env;
  let level: 0 | 1 | 2 | 3 = 0;
  const force = env.FORCE_COLOR ?? '';
  if (force !== '' && force !== '0' && force !== 'false') {
    const n = Number(force);
    level = n >= 1 && n <= 3 ? (n as 1 | 2 | 3) : 1;
  } else if (force === '' && !env.NO_COLOR && !opts.toFile && (opts.stream ?? process.stdout).isTTY) {
    level = 1;
  }
  if (opts.noColor) level = 0;
  return new Chalk({ level });
}
