import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CACHE_FILE_NAME } from '../src/cache.js';
import { movedJsonReport } from '../src/kept-report.js';
import { writeProject } from './helpers/project.js';
import { cli, ROOT } from './helpers/run.js';

/** A copy of fixtures/express-clean to edit. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-report-'));
  fs.cpSync(path.join(ROOT, 'fixtures', 'express-clean'), dir, { recursive: true });
  return dir;
}

const CACHE_DIR = path.join('node_modules', '.cache', 'route-surface');
const REPORT = path.join(CACHE_DIR, `${CACHE_FILE_NAME}.report`);
const HEADER_BYTES = 512;

/**
 * Put `text` in the kept report in place of the report, under the same key and summary (its
 * length and CRC-32 made to fit): a run that prints `text` printed the kept report.
 */
function forgeReport(dir: string, text: string, summary?: object): void {
  const file = path.join(dir, REPORT);
  const bytes = fs.readFileSync(file);
  const header = JSON.parse(bytes.toString('utf8', 0, HEADER_BYTES)) as Record<string, unknown>;
  const body = Buffer.from(text);
  const forged = JSON.stringify({ ...header, ...(summary ? { summary } : {}), length: body.length, crc: zlib.crc32(body) });
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`${forged.padEnd(HEADER_BYTES - 1)}\n`), body]));
}

const FORGED = 'the kept report\n';

describe('check --cache keeps the report', () => {
  it('prints the kept report when nothing changed and the report is asked for the same way, with the exit code of its summary', () => {
    const dir = project();
    const plain = cli(['check', '--format', 'json'], dir);
    expect(plain.code).toBe(0);
    const cold = cli(['check', '--format', 'json', '--cache'], dir);
    expect([cold.code, cold.stdout]).toEqual([plain.code, plain.stdout]);
    expect(fs.readdirSync(path.join(dir, CACHE_DIR)).sort()).toEqual([CACHE_FILE_NAME, `${CACHE_FILE_NAME}.report`]);
    // the report as written, behind its header
    expect(fs.readFileSync(path.join(dir, REPORT)).subarray(HEADER_BYTES).toString('utf8')).toBe(plain.stdout);
    const warm = cli(['check', '--format', 'json', '--cache'], dir);
    expect([warm.code, warm.stdout, warm.stderr]).toEqual([plain.code, plain.stdout, '']);

    forgeReport(dir, FORGED);
    expect(cli(['check', '--format', 'json', '--cache'], dir)).toEqual({ code: 0, stdout: FORGED, stderr: '' });
    // the exit code is the kept summary's: with an error, 1; --max-warnings is judged on it
    forgeReport(dir, FORGED, { files: 28, routes: 20, errors: 1, warnings: 0, infos: 0 });
    expect(cli(['check', '--format', 'json', '--cache'], dir)).toEqual({ code: 1, stdout: FORGED, stderr: '' });
    // --output writes it to the file
    expect(cli(['check', '--format', 'json', '--cache', '--output', 'out.json'], dir).code).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')).toBe(FORGED);
    forgeReport(dir, FORGED, { files: 28, routes: 20, errors: 0, warnings: 3, infos: 0 });
    expect(cli(['check', '--format', 'json', '--cache', '--max-warnings', '3'], dir).code).toBe(0);
    expect(cli(['check', '--format', 'json', '--cache', '--max-warnings', '2'], dir).code).toBe(1);
  });

  it('reports anew when a file, the format, an option or the colours change, and keeps the new report', () => {
    const dir = project();
    cli(['check', '--format', 'json', '--cache'], dir);
    forgeReport(dir, FORGED);
    // another format, --quiet, colours forced: each is reported anew
    for (const [args, env] of [
      [['check', '--cache'], {}],
      [['check', '--format', 'json', '--cache', '--quiet'], {}],
      [['check', '--format', 'json', '--cache'], { FORCE_COLOR: '1' }],
      [['check', '--format', 'html', '--cache'], {}],
    ] as [string[], Record<string, string>][]) {
      const res = cli(args, dir, env);
      expect(res.stdout).not.toBe(FORGED);
      expect(res.stdout).toBe(cli(args.filter((a) => a !== '--cache'), dir, env).stdout);
      // kept in its turn
      expect(fs.readFileSync(path.join(dir, REPORT)).subarray(HEADER_BYTES).toString('utf8')).toBe(res.stdout);
      forgeReport(dir, FORGED);
      expect(cli(args, dir, env).stdout).toBe(FORGED);
    }
    fs.appendFileSync(path.join(dir, 'src/routes/health.ts'), `\nhealthRouter.get('/version', (_req, res) => {\n  res.json({ version: '3.4.0' });\n});\n`);
    const edited = cli(['check', '--format', 'html', '--cache'], dir);
    expect(edited.stdout).toBe(cli(['check', '--format', 'html'], dir).stdout);
    expect(edited.stdout).toContain('/api/health/version');
  });

  it('keeps the report when only files the result never read changed (the result stands, unmoved), and reports anew when it moves', () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '5.1.0' } }),
      'src/app.ts': [
        `import express from 'express';`,
        `import { listSites } from './sites';`,
        `const app = express();`,
        `app.get('/api/sites/', listSites);`,
        `export default app;`,
      ].join('\n'),
      'src/sites.ts': `export async function listSites(_req: unknown, res: { json(b: unknown): void }) {\n  res.json([]);\n}\n`,
      'src/reports/total.ts': `export function total(xs: number[]) {\n  return xs.reduce((a, b) => a + b, 0);\n}\n`,
    });
    const args = ['check', '--format', 'json', '--cache'];
    const first = cli(args, dir);
    expect(first.stdout).toContain('"path": "/api/sites/"');
    forgeReport(dir, FORGED);
    // a file no route reaches, edited: parsed to know it still shows no signal, and the kept report stands, under the new key
    fs.writeFileSync(path.join(dir, 'src/reports/total.ts'), `export function total(xs: number[]) {\n  const sum = xs.reduce((a, b) => a + b, 0);\n  return sum;\n}\n`);
    expect(cli(args, dir).stdout).toBe(FORGED);
    expect(cli(args, dir).stdout).toBe(FORGED);
    // a line put above the route: the result stands, moved; the report is made anew
    fs.writeFileSync(path.join(dir, 'src/app.ts'), `// the API\n${fs.readFileSync(path.join(dir, 'src/app.ts'), 'utf8')}`);
    const moved = cli(args, dir);
    expect(moved.stdout).toBe(cli(['check', '--format', 'json'], dir).stdout);
    expect(moved.stdout).not.toBe(first.stdout);
  });

  it('keeps a JSON report when the result only moved, its lines moved: what a full run prints', () => {
    const dir = project();
    const args = ['check', '--format', 'json', '--cache'];
    const first = cli(args, dir);
    // marked, so that a run printing the mark printed the kept report, moved
    const marked = (text: string) => text.replaceAll('"framework": "express"', '"framework": "express (kept)"');
    expect(marked(first.stdout)).not.toBe(first.stdout);
    forgeReport(dir, marked(first.stdout));
    const routes = fs.readdirSync(path.join(dir, 'src', 'routes')).sort();
    for (const [i, name] of routes.slice(0, 2).entries()) {
      const file = path.join(dir, 'src', 'routes', name);
      fs.writeFileSync(file, `// reviewed for the v1 contract (${i})\n${fs.readFileSync(file, 'utf8')}`);
      const moved = cli(args, dir);
      const full = cli(['check', '--format', 'json'], dir);
      expect(moved.stdout).not.toBe(full.stdout);
      expect(moved.stdout).toBe(marked(full.stdout));
      expect(moved.code).toBe(full.code);
    }
    // kept under the new key, moved: replayed as it is
    expect(cli(args, dir).stdout).toBe(marked(cli(['check', '--format', 'json'], dir).stdout));
  });

  it('keeps none for the formats and options that read more than the result: SARIF, github, --verbose, a baseline', () => {
    const dir = project();
    for (const args of [
      ['check', '--format', 'sarif', '--cache'],
      ['check', '--format', 'github', '--cache'],
      ['check', '--verbose', '--cache'],
      ['check', '--cache', '--update-baseline'],
      ['check', '--cache', '--baseline', 'route-surface.baseline.json'],
    ]) {
      const first = cli(args, dir);
      expect(first.code).not.toBe(2);
      expect(fs.existsSync(path.join(dir, REPORT))).toBe(false);
    }
  });

  it('reports anew over a damaged kept report, and leaves alone what is not one', () => {
    const dir = project();
    const plain = cli(['check'], dir);
    cli(['check', '--cache'], dir);
    const file = path.join(dir, REPORT);
    // a byte of the report changed: its CRC-32 no longer sums
    const bytes = fs.readFileSync(file);
    bytes[HEADER_BYTES + 3] ^= 1;
    fs.writeFileSync(file, bytes);
    expect(cli(['check', '--cache'], dir).stdout).toBe(plain.stdout);
    expect(fs.readFileSync(file).subarray(HEADER_BYTES).toString('utf8')).toBe(plain.stdout);
    // cut short
    fs.truncateSync(file, HEADER_BYTES + 10);
    expect(cli(['check', '--cache'], dir).stdout).toBe(plain.stdout);
    // a header that claims more than the file holds (a terabyte): reported anew
    const header = JSON.parse(fs.readFileSync(file).toString('utf8', 0, HEADER_BYTES)) as Record<string, unknown>;
    fs.writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, length: 2 ** 40 }).padEnd(HEADER_BYTES - 1)}\n`), Buffer.from(FORGED)]));
    expect(cli(['check', '--cache'], dir).stdout).toBe(plain.stdout);
    // someone else's file, and a directory, at the report's path: not read, not replaced
    fs.writeFileSync(file, 'notes\n');
    expect(cli(['check', '--cache'], dir).stdout).toBe(plain.stdout);
    expect(cli(['check', '--cache'], dir).stdout).toBe(plain.stdout);
    expect(fs.readFileSync(file, 'utf8')).toBe('notes\n');
    fs.rmSync(file);
    fs.mkdirSync(file);
    const res = cli(['check', '--cache'], dir);
    expect([res.code, res.stdout, res.stderr]).toEqual([plain.code, plain.stdout, '']);
    expect(fs.readdirSync(file)).toEqual([]);
    // nothing left behind by the writes
    expect(fs.readdirSync(path.join(dir, CACHE_DIR)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('movedJsonReport', () => {
  const F = 'src/routes/sites.ts';
  const report = (over: { findingFile?: string; message?: string; extra?: object } = {}) => ({
    bytes: Buffer.from(
      `${JSON.stringify(
        {
          tool: { name: 'route-surface', version: '0.1.0' },
          routes: [
            { method: 'GET', path: '/api/sites', file: F, line: 9, column: 1, prefixes: [{ prefix: '/api/sites', file: 'src/app.ts', line: 12 }], guardDetails: [{ name: 'requireSession', file: F, line: 6 }] },
            { method: 'GET', path: '/api/sites/:id', file: F, line: 18, column: 1, ...over.extra },
          ],
          findings: [{ ruleId: 'missing-csrf-guard', message: over.message ?? 'x', file: over.findingFile ?? F, line: 18, column: 1 }],
          summary: { files: 2, routes: 2, errors: 1, warnings: 0, infos: 0 },
        },
        null,
        2,
      )}\n`,
    ),
    summary: { files: 2, routes: 2, errors: 1, warnings: 0, infos: 0 },
  });
  const moves = (lines: [number, number][]) => new Map([[F, new Map(lines)]]);
  const lines = (bytes: Buffer | undefined) => [...(bytes?.toString('utf8') ?? '').matchAll(/"line": (\d+)/g)].map((m) => Number(m[1]));

  it("moves the lines beside the moved file's name, and only those", () => {
    const moved = movedJsonReport(report(), moves([[6, 6], [9, 10], [18, 21]]));
    expect(lines(moved?.bytes)).toEqual([10, 12, 6, 21, 21]);
    expect(moved?.bytes.toString('utf8')).toBe(report().bytes.toString('utf8').replace('"line": 9', '"line": 10').replaceAll('"line": 18', '"line": 21'));
    expect(moved?.summary).toEqual(report().summary);
  });

  it.each<[string, ReturnType<typeof report>, [number, number][]]>([
    ['a line the map does not know', report(), [[6, 6], [9, 10]]],
    ['a map that changes the order of lines (the report is sorted by them)', report(), [[6, 6], [9, 20], [18, 19]]],
    ['a text naming a place in the moved file', report({ message: `published at ${F}:14` }), [[6, 6], [9, 10], [18, 19]]],
    ["the file's name not followed by its line", report({ extra: { via: { file: F } } }), [[6, 6], [9, 10], [18, 19]]],
    ['another format', { bytes: Buffer.from(`${F}\n  9:1  error  x  missing-csrf-guard\n`), summary: report().summary }, [[9, 10]]],
  ])('refuses %s', (_name, kept, map) => {
    expect(movedJsonReport(kept, moves(map))).toBe(null);
  });
});
