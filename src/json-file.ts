import fs from 'node:fs';
import { UsageError } from './errors.js';
import { jsonErrorOffset } from './json-locate.js';

/** Read a file as text, or fail with one line naming it as the user wrote it (`shown`). */
export function readText(file: string, what: string, shown = file): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`${shown}: cannot read ${what} (${code})`);
  }
}

/** Parse JSON text; a syntax error names the file, line and column. */
export function parseJson(text: string, file: string, what: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body);
  } catch (err) {
    const msg = (err as Error).message;
    const m = /position (\d+)/.exec(msg);
    let where = '';
    // Some messages carry no position ("Unexpected token …", "Unexpected end of JSON input"): locate it.
    const located = m ? Number(m[1]) : jsonErrorOffset(body);
    const pos = located >= 0 ? located : null;
    if (pos !== null) {
      const before = body.slice(0, pos);
      const line = before.split('\n').length;
      const column = pos - before.lastIndexOf('\n');
      where = `:${line}:${column}`;
    }
    const reason = msg
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/( in JSON)? at position \d+.*$/, '')
      .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
    throw new UsageError(`${file}${where}: invalid JSON in ${what}: ${reason}`);
  }
}
