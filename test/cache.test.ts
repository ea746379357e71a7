import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheFile, CACHE_FILE_NAME, CACHE_FORMAT, contentHash, FactCache } from '../src/cache.js';
import { run, type RunResult } from '../src/engine.js';
import { formatJson } from '../src/report/json.js';
import { BIN, cli, ROOT, routeLines } from './helpers/run.js';
import { writeProject } from './helpers/project.js';

/** A copy of fixtures/express-clean to edit. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-cache-'));
  fs.cpSync(path.join(ROOT, 'fixtures', 'express-clean'), dir, { recursive: true });
  return dir;
}

const cached = (cwd: string, extra: { cacheLocation?: string; config?: string } = {}): Promise<RunResult> => run({ cwd, paths: [], cache: true, ...extra });
const uncached = (cwd: string): Promise<RunResult> => run({ cwd, paths: [] });
const DEFAULT_FILE = path.join('node_modules', '.cache', 'route-surface', CACHE_FILE_NAME);
const HEALTH = 'src/routes/health.ts';
const addVersionRoute = (dir: string): void =>
  fs.appendFileSync(path.join(dir, HEALTH), `\nhealthRouter.get('/version', (_req, res) => {\n  res.json({ version: '3.4.0' });\n});\n`);

describe('check --cache', () => {
  it('keeps facts in node_modules/.cache/route-surface; a second run on an unchanged tree parses nothing and reuses the result', async () => {
    const dir = project();
    const first = await cached(dir);
    expect(first.extraction).toMatchObject({ files: 28, cached: 0, parsed: 28, reused: false, cacheNote: null });
    expect(fs.existsSync(path.join(dir, DEFAULT_FILE))).toBe(true);
    const second = await cached(dir);
    expect(second.extraction).toMatchObject({ cached: 28, parsed: 0, reused: true });
    expect(formatJson(second)).toBe(formatJson(first));
    expect(formatJson(first)).toBe(formatJson(await uncached(dir)));
    // Nothing left behind by the atomic writes.
    expect(fs.readdirSync(path.dirname(path.join(dir, DEFAULT_FILE)))).toEqual([CACHE_FILE_NAME]);
  });

  it('reads again only files whose stat changed, and those changed just before the run that cached them', async () => {
    const dir = project();
    // Files written less than two seconds before a run are read again on the next one
    // (a change within the file system's time resolution would not show in their stat).
    const racy = await cached(dir);
    expect(racy.extraction).toMatchObject({ unread: 0, parsed: 28 });
    expect((await cached(dir)).extraction).toMatchObject({ unread: 0, reused: true });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await cached(dir)).extraction).toMatchObject({ unread: 0, reused: true });
    expect((await cached(dir)).extraction).toMatchObject({ unread: 28, parsed: 0, reused: true });
    // An edit that keeps the size and puts the modification time back still changes the
    // file's change time: the file is read, and the edit seen.
    const file = path.join(dir, HEALTH);
    const st = fs.statSync(file);
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace("'/live'", "'/lve2'");
    expect(edited).not.toBe(text);
    expect(edited.length).toBe(text.length);
    fs.writeFileSync(file, edited);
    fs.utimesSync(file, st.atime, st.mtime);
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ unread: 27, parsed: 1, reused: false });
    expect(routeLines(after)).toContain('GET /api/health/lve2');
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
  });

  it('removes temporary files that runs killed long ago left, and keeps those of runs that may still be writing', async () => {
    const dir = project();
    await cached(dir);
    const cacheDir = path.dirname(path.join(dir, DEFAULT_FILE));
    const stale = path.join(cacheDir, `${CACHE_FILE_NAME}.4242.deadbeef.tmp`);
    const recent = path.join(cacheDir, `${CACHE_FILE_NAME}.4343.cafebabe.tmp`);
    fs.writeFileSync(stale, 'half a cache');
    fs.writeFileSync(recent, 'half a cache');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    addVersionRoute(dir);
    expect((await cached(dir)).extraction).toMatchObject({ parsed: 1, cacheNote: null });
    expect(fs.readdirSync(cacheDir).sort()).toEqual([CACHE_FILE_NAME, path.basename(recent)]);
  });

  it('recomputes a kept result damaged in place, and keeps the new one', async () => {
    const dir = project();
    const truth = formatJson(await uncached(dir));
    await cached(dir);
    const file = path.join(dir, DEFAULT_FILE);
    const text = fs.readFileSync(file, 'latin1');
    // the full path is in the kept result only (a file's facts hold the path it registers)
    expect(text.split('"/api/health/live"').length - 1).toBe(1);
    fs.writeFileSync(file, Buffer.from(text.replace('"/api/health/live"', '"/api/health/lXve"'), 'latin1'));
    const again = await cached(dir);
    expect(again.extraction).toMatchObject({ cached: 28, parsed: 0, reused: false, cacheNote: null });
    expect(formatJson(again)).toBe(truth);
    expect((await cached(dir)).extraction).toMatchObject({ reused: true });
  });

  it('re-parses only the edited file, and links again', async () => {
    const dir = project();
    const before = await cached(dir);
    addVersionRoute(dir);
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ cached: 27, parsed: 1, reused: false });
    const added = routeLines(after).filter((r) => !routeLines(before).includes(r));
    expect(added).toEqual(['GET /api/health/version']);
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    // The new facts are kept: the next run parses nothing.
    expect((await cached(dir)).extraction).toMatchObject({ parsed: 0, reused: true });
  });

  it('links again from cached facts holding registrations a loop makes (once per item of the list)', async () => {
    const dir = project();
    // app.ts mounts its routers in a loop; an edit elsewhere links again with app.ts's facts read back
    const app = path.join(dir, 'src/app.ts');
    const text = fs.readFileSync(app, 'utf8');
    const looped = text.replace('  app.use(`${API_PREFIX}/health`, healthRouter);', '  const mounts = [{ prefix: `${API_PREFIX}/health`, router: healthRouter }];\n  mounts.forEach((m) => app.use(m.prefix, m.router));');
    expect(looped).not.toBe(text);
    fs.writeFileSync(app, looped);
    const before = await cached(dir);
    expect(routeLines(before)).toContain('GET /api/health/live');
    addVersionRoute(dir);
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(routeLines(after).filter((r) => !routeLines(before).includes(r))).toEqual(['GET /api/health/version']);
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
  });

  it('links again from cached facts holding a registration made through a call under a condition', async () => {
    // (`if (process.env.OPS_ENABLED) mountOps({ router: ops })`: the registration in ops.ts is
    // carried under the call's condition — copied whole, though read back from the cache)
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'ops', dependencies: { express: '4.21.2' } }),
      'src/ops.ts': "import type { Router } from 'express';\nexport function mountOps(deps: { router: Router }) {\n  deps.router.get('/ops/ping', (_req, res) => { res.json({ ok: true }); });\n}\n",
      'src/app.ts':
        "import express from 'express';\nimport { mountOps } from './ops';\nconst app = express();\nconst ops = express.Router();\nif (process.env.OPS_ENABLED) mountOps({ router: ops });\napp.use('/internal', ops);\nexport default app;\n",
      'src/extra.ts': 'export const extra = 1;\n',
    });
    expect(routeLines(await cached(dir))).toEqual(['GET /internal/ops/ping']);
    fs.writeFileSync(path.join(dir, 'src/extra.ts'), "import express from 'express';\nexport const extra = express.Router();\nextra.get('/extra', (_req, res) => { res.json({}); });\n");
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(routeLines(after)).toEqual(['GET /extra', 'GET /internal/ops/ping']);
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
  });

  it('links again, from cached facts, when the configuration, a manifest or the file set changes', async () => {
    const dir = project();
    await cached(dir);
    fs.writeFileSync(path.join(dir, 'route-surface.config.json'), JSON.stringify({ publicRoutes: ['GET /api/health/live'], rules: { 'uncontracted-route': 'off' } }));
    const config = await cached(dir);
    expect(config.extraction).toMatchObject({ cached: 28, parsed: 0, reused: false });
    expect(config.findings.filter((f) => f.ruleId === 'uncontracted-route')).toEqual([]);
    expect(formatJson(config)).toBe(formatJson(await uncached(dir)));

    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    pkg.dependencies['left-pad'] = '1.3.0';
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
    expect((await cached(dir)).extraction).toMatchObject({ parsed: 0, reused: false });

    fs.rmSync(path.join(dir, 'src', 'routes', 'ops.ts'));
    const removed = await cached(dir);
    expect(removed.extraction).toMatchObject({ files: 27, parsed: 0, reused: false });
    expect(formatJson(removed)).toBe(formatJson(await uncached(dir)));
  });

  it('ignores an empty, truncated or outdated cache and rebuilds it, never failing the run', async () => {
    const dir = project();
    const file = path.join(dir, DEFAULT_FILE);
    const expected = formatJson(await uncached(dir));

    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    const empty = await cached(dir);
    expect(empty.extraction).toMatchObject({ cached: 0, parsed: 28, cacheNote: 'not a route-surface cache' });
    expect(formatJson(empty)).toBe(expected);
    expect((await cached(dir)).extraction).toMatchObject({ reused: true, cacheNote: null });

    const whole = fs.readFileSync(file);
    fs.writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const truncated = await cached(dir);
    expect(truncated.extraction).toMatchObject({ cached: 0, parsed: 28, cacheNote: 'truncated' });
    expect(formatJson(truncated)).toBe(expected);

    fs.writeFileSync(file, JSON.stringify({ tool: 'route-surface', format: CACHE_FORMAT, key: 'another build', rows: [] }) + '\n');
    const foreign = await cached(dir);
    expect(foreign.extraction).toMatchObject({ cached: 0, parsed: 28, cacheNote: 'made by another version or configuration' });
    expect(formatJson(foreign)).toBe(expected);

    // a cache in an older layout (format 4: the index on its first line)
    fs.writeFileSync(file, JSON.stringify({ tool: 'route-surface', format: CACHE_FORMAT - 1, key: 'any', rows: [] }) + '\n');
    expect((await cached(dir)).extraction).toMatchObject({ cached: 0, parsed: 28, cacheNote: 'made by another version or configuration' });
  });

  it('keys the facts by the budgets that change extraction', async () => {
    const dir = project();
    await cached(dir);
    fs.writeFileSync(path.join(dir, 'route-surface.config.json'), JSON.stringify({ publicRoutes: ['GET /api/health/live', 'GET /api/auth/login', 'GET /api/auth/callback'], budgets: { maxNestingDepth: 400 } }));
    expect((await cached(dir)).extraction).toMatchObject({ cached: 0, parsed: 28, cacheNote: 'made by another version or configuration' });
  });

  it('reports a cache it cannot write, and still gives the full result', async () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, 'not-a-dir'), 'x');
    const res = await cached(dir, { cacheLocation: 'not-a-dir/cache/' });
    expect(res.extraction?.cacheNote).toBe(`cannot write the cache ${path.join(dir, 'not-a-dir', 'cache', CACHE_FILE_NAME)} (ENOTDIR)`);
    expect(formatJson(res)).toBe(formatJson(await uncached(dir)));
  });

  it('never replaces what is not its own cache: a file without its header, a device, a FIFO, a link to nothing', async () => {
    const dir = project();
    const expected = formatJson(await uncached(dir));
    const precious = 'PK\u0003\u0004 definitely not a cache\n{"tool":';
    fs.writeFileSync(path.join(dir, 'notes.txt'), precious);
    const foreign = await cached(dir, { cacheLocation: 'notes.txt' });
    expect(foreign.extraction).toMatchObject({ cached: 0, parsed: 28, cacheNote: `cannot write the cache ${path.join(dir, 'notes.txt')} (not a route-surface cache: left as it is)` });
    expect(formatJson(foreign)).toBe(expected);
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe(precious);

    const fifo = path.join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // opened for reading, a FIFO would wait for a writer for ever: it is not opened at all (in a
    // process of its own, which the time limit ends if it waits)
    const r = spawnSync(process.execPath, [BIN, 'check', '--quiet', '--cache', '--cache-location', 'fifo'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe(`route-surface: warning: cannot write the cache ${fifo} (not a regular file: left as it is)\n`);
    expect(r.status).toBe(0);
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);

    fs.symlinkSync(path.join('nowhere', 'cache.bin'), path.join(dir, 'dangling'));
    expect((await cached(dir, { cacheLocation: 'dangling' })).extraction?.cacheNote).toBe(`cannot write the cache ${path.join(dir, 'dangling')} (a link that leads nowhere: left as it is)`);
    expect(fs.lstatSync(path.join(dir, 'dangling')).isSymbolicLink()).toBe(true);

    // a link to a cache is followed, and stays a link
    fs.writeFileSync(path.join(dir, 'real.cache'), '');
    fs.symlinkSync('real.cache', path.join(dir, 'link.cache'));
    expect((await cached(dir, { cacheLocation: 'link.cache' })).extraction).toMatchObject({ parsed: 28, cacheNote: 'not a route-surface cache' });
    expect((await cached(dir, { cacheLocation: 'link.cache' })).extraction).toMatchObject({ reused: true, cacheNote: null });
    expect(fs.lstatSync(path.join(dir, 'link.cache')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'real.cache'), 'utf8')).toMatch(/^\{"tool":"route-surface"/);
  });

  it('--cache-location names a file, or a directory (existing, or written with a trailing slash)', () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'existing'));
    expect(cacheFile(dir, undefined)).toBe(path.join(dir, DEFAULT_FILE));
    expect(cacheFile(dir, '.rs-cache')).toBe(path.join(dir, '.rs-cache'));
    expect(cacheFile(dir, 'existing')).toBe(path.join(dir, 'existing', CACHE_FILE_NAME));
    expect(cacheFile(dir, 'new-dir/')).toBe(path.join(dir, 'new-dir', CACHE_FILE_NAME));
  });
});

describe('check --cache after an edit', () => {
  const TRAILER = /\n\d{16}\n$/;
  const cacheKey = (file: string): string => (JSON.parse(fs.readFileSync(file, 'utf8').split('\n', 1)[0]!) as { key: string }).key;
  /** Rename the health router's `/live` route (or what it was renamed to). */
  const setLive = (dir: string, segment: string): void => {
    const file = path.join(dir, HEALTH);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/'\/l[a-z0-9]*'/, `'/${segment}'`));
  };

  it('appends to the cache in place: every byte written before stays, and the next run reads the new version', async () => {
    const dir = project();
    await cached(dir);
    const file = path.join(dir, DEFAULT_FILE);
    const before = fs.readFileSync(file);
    const inode = fs.statSync(file).ino;
    addVersionRoute(dir);
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ cached: 27, parsed: 1, reused: false, cacheNote: null });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    const now = fs.readFileSync(file);
    expect(fs.statSync(file).ino).toBe(inode);
    expect(now.length).toBeGreaterThan(before.length);
    expect(now.subarray(0, before.length).equals(before)).toBe(true);
    expect(now.toString('latin1')).toMatch(TRAILER);
    const next = await cached(dir);
    expect(next.extraction).toMatchObject({ cached: 28, parsed: 0, reused: true });
    expect(formatJson(next)).toBe(formatJson(after));
  });

  it('writes the cache whole again once more of it would be replaced bytes than live ones', async () => {
    const dir = project();
    await cached(dir);
    const file = path.join(dir, DEFAULT_FILE);
    const compact = fs.statSync(file).size;
    const inodes = new Set([fs.statSync(file).ino]);
    let biggest = compact;
    for (let i = 0; i < 8; i++) {
      setLive(dir, `l${i}`);
      expect((await cached(dir)).extraction).toMatchObject({ parsed: 1, reused: false, cacheNote: null });
      inodes.add(fs.statSync(file).ino);
      biggest = Math.max(biggest, fs.statSync(file).size);
    }
    // replaced bytes never outgrow the live ones (the kept result and facts) by much
    expect(biggest).toBeLessThan(3 * compact);
    expect(inodes.size).toBeGreaterThan(1);
    const last = await cached(dir);
    expect(last.extraction).toMatchObject({ parsed: 0, reused: true });
    expect(routeLines(last)).toContain('GET /api/health/l7');
    expect(formatJson(last)).toBe(formatJson(await uncached(dir)));
  });

  it('takes the last complete version when an append was cut short, and cuts the rest off when it next saves', async () => {
    const dir = project();
    await cached(dir);
    addVersionRoute(dir);
    await cached(dir);
    const file = path.join(dir, DEFAULT_FILE);
    // What a run killed while appending leaves: facts, and no index or trailer after them. The
    // last trailer is looked for a megabyte at a time from the end: 9 bytes short of one, the
    // first step ends inside it.
    for (const [i, length] of [(1 << 20) - 9, 3 << 20].entries()) {
      const start = '{"file":"src/routes/health.ts","torn":"';
      const end = '"}\n{"params":[';
      fs.appendFileSync(file, start + 'x'.repeat(length - start.length - end.length) + end);
      // the version found is the last one: it holds the facts of the file as it is now
      const reopened = FactCache.open(file, cacheKey(file));
      expect(reopened.discarded).toBe(null);
      expect(reopened.hasFacts(HEALTH, contentHash(fs.readFileSync(path.join(dir, HEALTH), 'utf8')))).toBe(true);
      reopened.close();
      setLive(dir, `lve${i}`);
      const r = await cached(dir);
      expect(r.extraction).toMatchObject({ cached: 27, parsed: 1, reused: false, cacheNote: null });
      expect(formatJson(r)).toBe(formatJson(await uncached(dir)));
      const text = fs.readFileSync(file, 'latin1');
      expect(text).not.toContain('"torn"');
      expect(text).toMatch(TRAILER);
    }
  });

  it('keeps the result of a run whose changed files it never read under the new key, without writing it again (appended or written whole)', async () => {
    const dir = project();
    const util = path.join(dir, 'src/lib/format.ts');
    const setUtil = (digits: number) => fs.writeFileSync(util, `export const money = (cents: number) => (cents / 100).toFixed(${digits});\n`);
    setUtil(2);
    await cached(dir);
    const file = path.join(dir, DEFAULT_FILE);
    const results = () => fs.readFileSync(file, 'latin1').split('"/api/health/live"').length - 1;
    expect(results()).toBe(1);
    const inode = fs.statSync(file).ino;
    setUtil(3);
    const kept = await cached(dir);
    expect(kept.extraction).toMatchObject({ cached: 28, checked: 1, reused: true, cacheNote: null });
    expect(formatJson(kept)).toBe(formatJson(await uncached(dir)));
    expect([fs.statSync(file).ino, results()]).toEqual([inode, 1]);
    // the next run with nothing changed finds the result under its key
    expect((await cached(dir)).extraction).toMatchObject({ checked: 0, reused: true });

    fs.writeFileSync(`${file}.lock`, '');
    setUtil(4);
    expect((await cached(dir)).extraction).toMatchObject({ checked: 1, reused: true, cacheNote: null });
    expect(fs.statSync(file).ino).not.toBe(inode);
    expect(results()).toBe(1);
    const next = await cached(dir);
    expect(next.extraction).toMatchObject({ checked: 0, reused: true });
    expect(formatJson(next)).toBe(formatJson(await uncached(dir)));
  });

  it('writes the cache whole while another run holds the lock, and removes a lock left long ago', async () => {
    const dir = project();
    await cached(dir);
    const file = path.join(dir, DEFAULT_FILE);
    const lock = `${file}.lock`;
    fs.writeFileSync(lock, '');
    const inode = fs.statSync(file).ino;
    setLive(dir, 'lve2');
    const held = await cached(dir);
    expect(held.extraction).toMatchObject({ parsed: 1, cacheNote: null });
    expect(formatJson(held)).toBe(formatJson(await uncached(dir)));
    expect(fs.statSync(file).ino).not.toBe(inode);
    expect(fs.existsSync(lock)).toBe(true);

    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(lock, twoHoursAgo, twoHoursAgo);
    const rewritten = fs.statSync(file).ino;
    setLive(dir, 'lve3');
    expect((await cached(dir)).extraction).toMatchObject({ parsed: 1, cacheNote: null });
    expect(fs.statSync(file).ino).toBe(rewritten);
    expect(fs.readdirSync(path.dirname(file))).toEqual([CACHE_FILE_NAME]);
  });
});

describe('check --cache on the command line', () => {
  it('prints what a run without the cache prints, and a warm run never loads the TypeScript compiler', () => {
    const dir = project();
    const probe = path.join(dir, 'probe.cjs');
    const loaded = path.join(dir, 'loaded.txt');
    // the compiler, or the parser the build cut from it (scripts/compiler.ts)
    fs.writeFileSync(
      probe,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loaded)}, String(Object.keys(require.cache).some((k) => /typescript(\\.js|-parser\\.cjs)$/.test(k)))));\n`,
    );
    const env = { NODE_OPTIONS: `--require ${probe}` };
    const plain = cli(['check', '--format', 'json'], dir, env);
    expect(fs.readFileSync(loaded, 'utf8')).toBe('true');
    const cold = cli(['check', '--format', 'json', '--cache', '--cache-location', '.rs-cache'], dir, env);
    const warm = cli(['check', '--format', 'json', '--cache', '--cache-location', '.rs-cache'], dir, env);
    expect(fs.readFileSync(loaded, 'utf8')).toBe('false');
    expect([cold.code, warm.code, cold.stdout, warm.stdout]).toEqual([plain.code, plain.code, plain.stdout, plain.stdout]);
    expect(fs.existsSync(path.join(dir, '.rs-cache'))).toBe(true);
    // One edited file: parsed, so the compiler is loaded, and the output is what a plain run gives.
    addVersionRoute(dir);
    const edited = cli(['check', '--format', 'json', '--cache', '--cache-location', '.rs-cache'], dir, env);
    expect(fs.readFileSync(loaded, 'utf8')).toBe('true');
    expect(edited.stdout).toBe(cli(['check', '--format', 'json'], dir).stdout);
    expect(edited.stdout).toContain('"path": "/api/health/version"');
  });

  it('warns on stderr when the cache cannot be written, and prints the full result all the same', () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, 'not-a-dir'), 'x');
    const plain = cli(['check'], dir);
    const res = cli(['check', '--cache', '--cache-location', 'not-a-dir/'], dir);
    expect(res.stderr).toBe(`route-surface: warning: cannot write the cache ${path.join(dir, 'not-a-dir', CACHE_FILE_NAME)} (EEXIST)\n`);
    expect([res.code, res.stdout]).toEqual([plain.code, plain.stdout]);
  });

  it('two runs at once both finish, and leave one complete cache', async () => {
    const dir = project();
    const once = (): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve) => {
        const p = spawn(process.execPath, [BIN, 'check', '--format', 'json', '--cache'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
        let out = '';
        p.stdout.on('data', (d: Buffer) => (out += d.toString()));
        p.on('close', (code) => resolve({ code, out }));
      });
    const [a, b] = await Promise.all([once(), once()]);
    expect(a).toEqual(b);
    expect(a.code).toBe(cli(['check', '--format', 'json'], dir).code);
    // The cache the built CLI wrote opens under the built CLI's key (its code is the bundle's), with every file's facts.
    const built = (await import(pathToFileURL(path.join(ROOT, 'dist', 'src', 'cache.js')).href)) as typeof import('../src/cache.js');
    const { budgetsOf } = (await import(pathToFileURL(path.join(ROOT, 'dist', 'src', 'budgets.js')).href)) as typeof import('../src/budgets.js');
    const builtKey = built.factCacheKey(budgetsOf({}), path.join(ROOT, 'dist', 'bundle'));
    const reopened = built.FactCache.open(path.join(dir, DEFAULT_FILE), builtKey);
    expect(reopened.discarded).toBe(null);
    const sources = (fs.readdirSync(path.join(dir, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => `src/${f.split(path.sep).join('/')}`);
    expect(sources.length).toBe(28);
    expect(sources.filter((f) => !reopened.hasFacts(f, built.contentHash(fs.readFileSync(path.join(dir, f), 'utf8'))))).toEqual([]);
    // (and the report, kept beside it: kept-report.test.ts)
    expect(fs.readdirSync(path.join(dir, 'node_modules', '.cache', 'route-surface')).sort()).toEqual([CACHE_FILE_NAME, `${CACHE_FILE_NAME}.report`]);
    reopened.close();

    // Two runs after an edit: at most one appends (they take turns through the lock, and one
    // that finds the file changed since it opened it writes it whole).
    addVersionRoute(dir);
    const [c, d] = await Promise.all([once(), once()]);
    expect(c).toEqual(d);
    expect(c.out).toBe(cli(['check', '--format', 'json'], dir).stdout);
    const again = built.FactCache.open(path.join(dir, DEFAULT_FILE), builtKey);
    expect(again.discarded).toBe(null);
    expect(sources.filter((f) => !again.hasFacts(f, built.contentHash(fs.readFileSync(path.join(dir, f), 'utf8'))))).toEqual([]);
    again.close();
    expect(fs.readdirSync(path.join(dir, 'node_modules', '.cache', 'route-surface')).sort()).toEqual([CACHE_FILE_NAME, `${CACHE_FILE_NAME}.report`]);
  });
});
