import fs from 'node:fs';
import { UsageError } from './errors.js';

/** Read a file as text, or fail with one line naming it. */
export function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`${file}: cannot read ${what} (${code})`);
  }
}

/** Parse JSON text; a syntax error names the file, line and column. */
export function parseJson(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    const msg = (err as Error).message;
    const m = /position (\d+)/.exec(msg);
    let where = '';
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const column = pos - before.lastIndexOf('\n');
      where = `:${line}:${column}`;
    }
    throw new UsageError(`${file}${where}: invalid JSON in ${what}: ${msg.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+.*$/, '')}`);
  }
}
