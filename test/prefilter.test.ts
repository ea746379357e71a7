import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/engine.js';
import { eagerFiles, frameworkModulePattern, importersGraph, textSignals } from '../src/prefilter.js';
import { formatJson } from '../src/report/json.js';
import { findingLines, ROOT, routeLines } from './helpers/run.js';
import { writeProject } from './helpers/project.js';

const MODULES = frameworkModulePattern(['express', 'fastify', '@nestjs/common', '@nestjs/core']);
const signal = (text: string, file = 'src/x.ts'): boolean => textSignals(file, text, MODULES).signal;

describe('text signals', () => {
  it('sees registration-like member calls, however they are written', () => {
    expect(signal(`api.get('/x', h);`)).toBe(true);
    expect(signal(`router\n  .route('/x')\n  .post(h);`)).toBe(true);
    expect(signal(`app?.use(mw);`)).toBe(true);
    expect(signal(`app. /* the verb */ delete('/x', h);`)).toBe(true);
    expect(signal(`app['patch']('/x', h);`)).toBe(true);
    expect(signal(`fastify.register(plugin, { prefix: '/api' });`)).toBe(true);
    expect(signal(`res.cookie('sid', token, { httpOnly: true });`)).toBe(true);
    // a member whose name the caller gives: the method may be a registration's
    expect(signal(`module.exports = (router, verb, path, handler) => router[verb](path, handler);`)).toBe(true);
    expect(signal(`this.app[route.method.toLowerCase()](route.path, route.handler);`)).toBe(true);
    expect(signal(`handlers[name][kind](event);`)).toBe(true);
  });

  it('sees sessions, cookies, suppressions, framework modules, HTTP-method exports and file-system route paths', () => {
    expect(signal(`const s = req.sessionID;`)).toBe(true);
    expect(signal(`const c = document.cookie;`)).toBe(true);
    expect(signal(`// route-surface-disable-next-line missing-tenant-guard -- why\nconst x = 1;`)).toBe(true);
    expect(signal(`import type { Request } from 'express';\nexport function f(r: Request) { return r.ip; }`)).toBe(true);
    expect(signal(`import { Controller } from "@nestjs/common/decorators";`)).toBe(true);
    expect(signal(`export async function GET() { return Response.json([]); }`)).toBe(true);
    expect(signal(`export default function handler() {}`, 'pages/api/sites.ts')).toBe(true);
    expect(signal(`export const config = { matcher: [] };`, 'src/middleware.ts')).toBe(true);
  });

  it('reads a run of comments between a dot and a name one way only (a file of JSDoc blocks after a sentence ended no run: puter)', () => {
    expect(signal(`app. /* the verb */ // of the route\n /* below */ delete('/x', h);`)).toBe(true);
    expect(signal(`app. /* a * b **/ /** c */ post('/x', h);`)).toBe(true);
    // (the text test of such a file is in a child process, bounded: a regression would never end)
    const blocks = Array.from({ length: 40 }, (_, i) => `/**\n * @typedef {Object} Shape${i}\n * @property {string} name The name. Defaults to \`x\`.\n */`).join('\n\n');
    const text = `// Shapes shared across the operations. JSDoc-only; no runtime exports.\n\n${blocks}\n`;
    const code = `import { textSignals } from ${JSON.stringify(path.join(ROOT, 'dist', 'src', 'prefilter.js'))};\nprocess.stdout.write(JSON.stringify(textSignals('src/types.js', process.argv[1], /['"]express['"]/)));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, text], { encoding: 'utf8', timeout: 60_000 });
    expect([r.status, r.stdout]).toEqual([0, JSON.stringify({ signal: false, specifiers: [] })]);
  });

  it('leaves plain code alone', () => {
    const repo = `import type { Db } from '../lib/db';\nexport async function findSite(db: Db, id: string) {\n  const r = await db.query('SELECT * FROM sites WHERE id = $1', [id]);\n  return r.rows[0] ?? null;\n}\n`;
    expect(textSignals('src/sites.repository.ts', repo, MODULES)).toEqual({ signal: false, specifiers: [] });
    expect(signal(`export const getter = (o: { getValue(): number }) => o.getValue();`)).toBe(false);
    // a Markdown link in a comment or string, a list literal: no name right before the bracket
    expect(signal(`/** Same as [the docs](https://example.com/docs) say. */\nexport const n = 1;`)).toBe(false);
    expect(signal(`export const first = (xs: number[]) => [...xs](0);`)).toBe(false);
  });

  it('lists the specifiers values come from, type-only imports left out', () => {
    const text = [
      `import type { A } from './types';`,
      `import { b, type C } from './b';`,
      `export { d } from './d';`,
      `export type { E } from './e';`,
      `export * from './f';`,
      `const g = require('./g');`,
      `async function load() { return import('./h'); }`,
      `import './side-effect';`,
    ].join('\n');
    expect(textSignals('src/x.ts', text, MODULES).specifiers).toEqual(['./b', './d', './f', './g', './h', './side-effect']);
  });
});

describe('which files are parsed up front', () => {
  const files = ['src/app.ts', 'src/routes.ts', 'src/mount.ts', 'src/repo.ts', 'src/util.ts', 'src/pg.ts'];
  const signals = new Map([
    ['src/app.ts', { signal: true, specifiers: ['./mount'] }],
    ['src/routes.ts', { signal: true, specifiers: ['./repo'] }],
    ['src/mount.ts', { signal: false, specifiers: ['./routes'] }],
    ['src/repo.ts', { signal: false, specifiers: ['./util'] }],
    ['src/util.ts', { signal: false, specifiers: [] }],
    ['src/pg.ts', { signal: false, specifiers: ['pg'] }],
  ]);
  const resolve = (from: string, spec: string): string | null => (spec.startsWith('./') ? `src/${spec.slice(2)}.ts` : null);
  const importers = importersGraph(files, signals, resolve);

  it('keeps files with signals, files taking values from packages, and every file importing one of those', () => {
    expect([...eagerFiles(files, signals, resolve, importers, [])].sort()).toEqual(['src/app.ts', 'src/mount.ts', 'src/pg.ts', 'src/routes.ts']);
  });

  it('always keeps the files named explicitly', () => {
    expect(eagerFiles(files, signals, resolve, importers, ['src/util.ts']).has('src/util.ts')).toBe(true);
  });
});

describe('the prefilter changes no result', () => {
  const fixtures = fs
    .readdirSync(path.join(ROOT, 'fixtures'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

  it.each(fixtures)('fixtures/%s: same output with and without it', async (name) => {
    const cwd = path.join(ROOT, 'fixtures', name);
    const out = async (prefilter: boolean): Promise<string> => {
      try {
        return formatJson(await run({ cwd, paths: [], prefilter }));
      } catch (err) {
        return `error: ${(err as Error).message}`;
      }
    };
    expect(await out(true)).toBe(await out(false));
  });

  it('parses a guard defined in a file without signals when a route uses it, and classifies it by behaviour', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '5.1.0' } }),
      'src/app.ts': [
        `import express from 'express';`,
        `import { ensureMember } from './checks/membership';`,
        `import { listSites } from './sites';`,
        `const app = express();`,
        `app.get('/api/sites/', ensureMember, listSites);`,
        `export default app;`,
      ].join('\n'),
      'src/checks/membership.ts': [
        `// Ends the request unless the caller is signed in.`,
        `export function ensureMember(req: { user?: { id: string } }, res: { status(n: number): { end(): void } }, next: () => void) {`,
        `  if (!req.user) return res.status(401).end();`,
        `  next();`,
        `}`,
      ].join('\n'),
      'src/sites.ts': `export async function listSites(_req: unknown, res: { json(b: unknown): void }) {\n  res.json([]);\n}\n`,
      'src/unused/report.ts': `export function total(xs: number[]) {\n  return xs.reduce((a, b) => a + b, 0);\n}\n`,
    });
    const on = await run({ cwd: dir, paths: [] });
    const off = await run({ cwd: dir, paths: [], prefilter: false });
    expect(formatJson(on)).toBe(formatJson(off));
    expect(on.extraction).toMatchObject({ files: 4, parsed: 1, deferred: 3, demanded: 2 });
    expect(routeLines(on)).toEqual(['GET /api/sites/']);
    expect(on.routes[0]!.guards.map((g) => `${g.name} ${g.kinds.join(',')} ${g.reason}`)).toEqual(['ensureMember auth by behaviour (ends the request with 401)']);
  });

  it('reads a function a handler leads with, but not what it calls, when the handler hands it no signed-in user', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '5.1.0' } }),
      'src/app.ts': [
        `import express from 'express';`,
        `import * as sites from './sites.service';`,
        `const app = express();`,
        `app.get('/api/sites/:id', async (req, res) => {`,
        `  const site = await sites.getSite(req.params.id);`,
        `  res.json(site);`,
        `});`,
        `export default app;`,
      ].join('\n'),
      'src/sites.service.ts': [
        `import * as repository from './sites.repository';`,
        `export async function getSite(id: string) {`,
        `  const row = await repository.findSite(id);`,
        `  if (!row) throw new Error('no such site');`,
        `  return row;`,
        `}`,
      ].join('\n'),
      'src/sites.repository.ts': `const rows: { id: string }[] = [];\nexport async function findSite(id: string) {\n  return rows.find((r) => r.id === id) ?? null;\n}\n`,
    });
    const on = await run({ cwd: dir, paths: [] });
    expect(formatJson(on)).toBe(formatJson(await run({ cwd: dir, paths: [], prefilter: false })));
    // (the service, for whether it guards; a check of the tenant of a user it is handed — LinkContext.tenantOfUser — needs that user)
    expect(on.extraction).toMatchObject({ files: 3, parsed: 1, deferred: 2, demanded: 1 });
  });

  it('reports a syntax error in a file nothing needs as in a file a route needs, cold and from the cache', async () => {
    const dir = writeProject({
      'src/app.ts': `import express from 'express';\nimport { h } from './handler';\nconst app = express();\napp.get('/api/health/ready', h);\n`,
      'src/handler.ts': `export function h(_req: unknown, res: { json(b: unknown): void }) {\n  res.json({ ok: true }\n}\n`,
      'src/scratch.ts': `export const broken = (;\n`,
      'src/util.ts': `export const answer = 42;\n`,
    });
    const expected = ["src/handler.ts:3 parse-error cannot parse: ',' expected.", 'src/scratch.ts:1 parse-error cannot parse: Expression expected.'];
    const off = await run({ cwd: dir, paths: [], prefilter: false });
    expect(findingLines(off).filter((l) => l.includes('parse-error'))).toEqual(expected);
    const on = await run({ cwd: dir, paths: [] });
    expect(findingLines(on).filter((l) => l.includes('parse-error'))).toEqual(expected);
    expect(formatJson(on)).toBe(formatJson(off));
    // warm: the broken file's signal bit in the cache makes it analysed again, with no parse
    expect(on.extraction).toMatchObject({ deferred: 3, checked: 3 });
    const cacheLocation = path.join(dir, '.cache');
    await run({ cwd: dir, paths: [], cache: true, cacheLocation });
    fs.appendFileSync(path.join(dir, 'src/app.ts'), `app.get('/api/sites/', h);\n`);
    const warm = await run({ cwd: dir, paths: [], cache: true, cacheLocation });
    expect(findingLines(warm).filter((l) => l.includes('parse-error'))).toEqual(expected);
    // the clean held-back file was checked on the first run: not parsed again
    expect(warm.extraction).toMatchObject({ reused: false, parsed: 1, checked: 0 });
    fs.writeFileSync(path.join(dir, 'src/util.ts'), `export const answer = 43;\n`);
    expect((await run({ cwd: dir, paths: [], cache: true, cacheLocation })).extraction).toMatchObject({ checked: 1 });
  });
});

describe('an edit to files the last result never read (check --cache)', () => {
  it('keeps the result when only such files changed and they still parse, show no signal and import the same; links again otherwise', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '5.1.0' } }),
      'src/app.ts': [
        `import express from 'express';`,
        `import { PREFIX } from './paths';`,
        `import { ensureMember } from './checks/membership';`,
        `import { listSites } from './sites';`,
        `const app = express();`,
        `app.get(\`\${PREFIX}/sites/\`, ensureMember, listSites);`,
        `export default app;`,
      ].join('\n'),
      'src/paths.ts': `export const PREFIX = '/api';\n`,
      'src/checks/membership.ts': `export function ensureMember(req: { user?: unknown }, res: { status(n: number): { end(): void } }, next: () => void) {\n  if (!req.user) return res.status(401).end();\n  next();\n}\n`,
      'src/sites.ts': `export async function listSites(_req: unknown, res: { json(b: unknown): void }) {\n  res.json([]);\n}\n`,
      'src/reports/total.ts': `import { round } from './round';\nexport function total(xs: number[]) {\n  return round(xs.reduce((a, b) => a + b, 0));\n}\n`,
      'src/reports/round.ts': `export const round = (x: number) => Math.round(x * 100) / 100;\n`,
      'src/reports/format.ts': `export const format = (x: number) => x.toFixed(2);\n`,
    });
    const cacheLocation = path.join(dir, '.cache');
    const edit = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);
    /** A cached run: what it says, whether it kept the last result, and how many changed files it parsed to know. */
    const cached = async () => {
      const res = await run({ cwd: dir, paths: [], cache: true, cacheLocation });
      const plain = await run({ cwd: dir, paths: [] });
      expect(formatJson(res)).toBe(formatJson(plain));
      return { routes: routeLines(res), parseErrors: findingLines(res).filter((l) => l.includes('parse-error')), reused: res.extraction!.reused, checked: res.extraction!.checked };
    };
    expect(await cached()).toEqual({ routes: ['GET /api/sites/'], parseErrors: [], reused: false, checked: 6 });

    // an edit to code no route reaches: kept, after parsing the edited files
    edit('src/reports/total.ts', `import { round } from './round';\nexport function total(xs: number[]) {\n  const sum = xs.reduce((a, b) => a + b, 0);\n  return round(sum);\n}\n`);
    edit('src/reports/round.ts', `export const round = (x: number) => Math.round(x * 1000) / 1000;\n`);
    expect(await cached()).toEqual({ routes: ['GET /api/sites/'], parseErrors: [], reused: true, checked: 2 });

    // a file without signals that the linker read (a path constant): linked again
    edit('src/paths.ts', `export const PREFIX = '/v2';\n`);
    expect(await cached()).toMatchObject({ routes: ['GET /v2/sites/'], reused: false });
    edit('src/checks/membership.ts', `export function ensureMember(req: { user?: unknown }, res: unknown, next: () => void) {\n  next();\n}\n`);
    expect(await cached()).toMatchObject({ routes: ['GET /v2/sites/'], reused: false });

    // an unread file that does not parse (parsed once to know: then analysed, not checked again),
    // shows a signal, or imports a file with signals: linked again
    edit('src/reports/round.ts', `export const round = (x: number) => Math.round(x * 100 / 100;\n`);
    expect(await cached()).toMatchObject({ parseErrors: ["src/reports/round.ts:1 parse-error cannot parse: ')' expected."], reused: false, checked: 0 });
    edit('src/reports/total.ts', `import { round } from './round';\nexport function total(xs: number[]) {\n  return round(xs.length);\n}\nexport const theme = () => document.cookie;\n`);
    expect((await cached()).reused).toBe(false);
    expect(findingLines(await run({ cwd: dir, paths: [] })).filter((l) => l.startsWith('src/reports/'))).toEqual([
      'src/reports/round.ts:1 parse-error cannot parse: \')\' expected.',
      'src/reports/total.ts:5 session-token-exposure document.cookie is read by script: session cookies must never be handed to scripts',
    ]);
    edit('src/reports/format.ts', `import app from '../app';\nexport const format = (x: number) => (app ? x.toFixed(2) : String(x));\n`);
    expect(await cached()).toMatchObject({ reused: false });
  });
});
