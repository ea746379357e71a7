/**
 * What a compiler makes of a file, parsed as route-surface parses it, as one string: every node's kind, position, flags and text,
 * and the parse diagnostics with their messages. scripts/compiler.ts and
 * test/compiler-cut.test.ts compare the parser cut from the compiler with the whole one by it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { parseOptions, scriptKindOf } from '../src/extract/extract.js';

export function parseShape(ts: typeof TS, file: string, source: string): string {
  // parsed as route-surface parses it (extract.ts)
  const parsed = ts.createSourceFile(file, source, parseOptions(ts), false, scriptKindOf(ts, file));
  const parts: unknown[] = [];
  const visit = (n: TS.Node): void => {
    parts.push(n.kind, n.pos, n.end, n.flags, (n as { text?: string }).text ?? '');
    ts.forEachChild(n, visit);
  };
  visit(parsed);
  const diagnostics = (parsed as unknown as { parseDiagnostics: TS.Diagnostic[] }).parseDiagnostics;
  parts.push(JSON.stringify(diagnostics.map((d) => [d.start, d.length, d.code, ts.flattenDiagnosticMessageText(d.messageText, '\n')])));
  return parts.join(',');
}

/** The source files under `dir`, but for those under node_modules. */
export function sourcesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/.test(f) && !f.split(path.sep).includes('node_modules'))
    .map((f) => path.join(dir, f));
}
