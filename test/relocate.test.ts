import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../src/adapters/index.js';
import { DEFAULT_BUDGETS } from '../src/budgets.js';
import { loadTypeScript } from '../src/extract/compiler.js';
import { extractFacts } from '../src/extract/extract.js';
import { factsToText, plainFactsFromText } from '../src/extract/facts-text.js';
import { run, type RunResult } from '../src/engine.js';
import { factsMoved, relocateResult } from '../src/relocate.js';
import { formatJson } from '../src/report/json.js';
import { ROOT } from './helpers/run.js';

const FILE = 'src/routes/sites.ts';
const SITES = `import { Router } from 'express';
import { requireSession } from '../auth/session';
import { sitesService } from '../services/sites';

export const sitesRouter = Router();
sitesRouter.use(requireSession);

// route-surface-disable-next-line missing-tenant-guard -- listing is scoped by the session's account (SEC-118)
sitesRouter.get('/', async (req, res, next) => {
  try {
    const sites = await sitesService.list(req.session.accountId);
    res.json({ sites });
  } catch (err) {
    next(err);
  }
});

sitesRouter.get('/:siteId', async (req, res) => {
  const site = await sitesService.get(req.params.siteId);
  if (!site) return res.status(404).json({ error: 'not found' });
  res.json(site);
});
`;

const APP = `import express from 'express';
import { mountSites } from './routes/sites';

export const app = express();
app.get('/health', (_req, res) => res.send('ok'));
mountSites(app);
`;

const MAIN = `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(3000);
}
bootstrap();
`;

/** `text` with `line` put after its line `after` (0: first). */
const insert = (text: string, after: number, line: string): string => {
  const lines = text.split('\n');
  lines.splice(after, 0, line);
  return lines.join('\n');
};

/** The lines that moved (old → new), or null when the facts did not only move. */
function moved(file: string, before: string, after: string): [number, number][] | null {
  const extract = (text: string) => extractFacts(loadTypeScript(), file, text, ADAPTERS, DEFAULT_BUDGETS);
  // the old facts as a run has them: read back from the cache's text
  const map = factsMoved(plainFactsFromText(factsToText(extract(before))), extract(after), ADAPTERS);
  return map && [...map].filter(([from, to]) => from !== to).sort((a, b) => a[0] - b[0]);
}

describe('factsMoved: the facts of an edited file only moved', () => {
  it.each([
    ['a comment line above the router: every later line moves down one', insert(SITES, 4, '// mounted under /api/sites by app.ts'), [[5, 6], [6, 7], [8, 9], [9, 10], [11, 12], [12, 13], [14, 15], [18, 19], [19, 20], [20, 21], [21, 22]]],
    ['a blank line after a response: only what follows moves', insert(SITES, 20, ''), [[21, 22]]],
    ['a local no name leads to, after the response', insert(SITES, 21, '  const servedAt = new Date().toISOString();'), []],
    ['a local in a try block, read by nothing', insert(SITES, 12, '    const count = sites.length;'), [[14, 15], [18, 19], [19, 20], [20, 21], [21, 22]]],
  ] as [string, string, [number, number][]][])('%s', (_name, after, lines) => {
    expect(moved(FILE, SITES, after)).toEqual(lines);
  });

  it.each([
    ['a route path changed', SITES.replace("'/:siteId'", "'/:siteId/summary'")],
    ['a fact moved along its line (a column changed)', SITES.replace("sitesRouter.get('/:siteId'", "/* v2 */ sitesRouter.get('/:siteId'")],
    ['a line put between a suppression comment and the route it covers', insert(SITES, 8, '// listing')],
    ['a module-scope binding added (exports and imports read those)', insert(SITES, 4, 'const PAGE_SIZE = 50;')],
    ['a local that a name in the handler now finds first', insert(SITES, 9, '  const sitesService = legacySites;')],
    ['a call added before the response (a leading call the linker classifies)', insert(SITES, 10, '    const startedAt = Date.now();')],
    ['a route added', `${SITES}sitesRouter.delete('/:siteId', async (req, res) => res.status(204).end());\n`],
  ])('%s: not moved', (_name, after) => {
    expect(moved(FILE, SITES, after)).toBe(null);
  });

  it('two statements swapped: equal facts, but a route now registered after the call that may guard the app (`app.use(requireSession)` in mountSites)', () => {
    const lines = APP.split('\n');
    [lines[4], lines[5]] = [lines[5]!, lines[4]!];
    expect(moved('src/app.ts', APP, lines.join('\n'))).toBe(null);
    expect(moved('src/app.ts', APP, insert(APP, 4, ''))).toEqual([[5, 6], [6, 7]]);
  });

  it('a local that a 401 condition of a function inside reads, bound to something else (conditions are looked up from their function, as a factory call is judged)', () => {
    const AUTH = `export function authenticate(mode: string) {
  const strict = mode === 'strict';
  return (req, res, next) => {
    if (!req.user && strict) return res.status(401).json({ error: 'sign in' });
    next();
  };
}
`;
    expect(moved('src/auth.ts', AUTH, AUTH.replace("mode === 'strict'", 'true'))).toBe(null);
    expect(moved('src/auth.ts', AUTH, insert(AUTH, 2, "  const realm = 'dashboard';"))).toEqual([[3, 4], [4, 5], [5, 6]]);
  });

  it("a class's static member changed: a reference to the class reads its statics too", () => {
    const GUARD = `import { authorize } from './authorize';

export function adminOnly() {
  class Roles {
    static required = 'admin';
  }
  return authorize(Roles.required);
}
`;
    expect(moved('src/guard.ts', GUARD, GUARD.replace("'admin'", "'owner'"))).toBe(null);
  });

  it('counts every binding as read in a file whose bindings an adapter reads all (Nest: each create call of a file importing @nestjs/core)', () => {
    expect(moved('src/main.ts', MAIN, insert(MAIN, 6, '  const started = true;'))).toBe(null);
    // the same local in a file no adapter reads whole: moved (no fact after it to move)
    const plain = MAIN.replace("'@nestjs/core'", "'./factory'");
    expect(moved('src/main.ts', plain, insert(plain, 6, '  const started = true;'))).toEqual([]);
  });
});

describe('relocateResult', () => {
  const result = () => ({
    routes: [
      { method: 'GET', path: '/api/sites', file: FILE, line: 9, column: 1, prefixes: [{ prefix: '/api/sites', file: 'src/app.ts', line: 12 }], guards: [{ name: 'requireSession', file: FILE, line: 6 }] },
    ],
    findings: [{ ruleId: 'missing-csrf-guard', file: FILE, line: 18, column: 1, message: 'x', snippet: "sitesRouter.get('/:siteId', async (req, res) => {" }],
    files: ['src/app.ts', FILE],
  });

  it('moves the lines of locations in the moved files only', () => {
    const r = result();
    expect(relocateResult(r, new Map([[FILE, new Map([[6, 6], [9, 10], [18, 19]])]]))).toBe(true);
    expect([r.routes[0]!.line, r.routes[0]!.prefixes[0]!.line, r.routes[0]!.guards[0]!.line, r.findings[0]!.line]).toEqual([10, 12, 6, 19]);
  });

  it('refuses a location the map does not know, and a text naming a place in a moved file', () => {
    expect(relocateResult(result(), new Map([[FILE, new Map([[9, 10], [18, 19]])]]))).toBe(false);
    const named = result();
    named.findings[0]!.message = `published by SwaggerModule.setup at ${FILE}:14`;
    expect(relocateResult(named, new Map([[FILE, new Map([[6, 6], [9, 10], [18, 19]])]]))).toBe(false);
  });
});

describe('check --cache after edits that only move facts', () => {
  const cached = (cwd: string): Promise<RunResult> => run({ cwd, paths: [], cache: true });
  const uncached = (cwd: string): Promise<RunResult> => run({ cwd, paths: [] });
  const copy = (fixture: string): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-relocate-'));
    fs.cpSync(path.join(ROOT, 'fixtures', fixture), dir, { recursive: true });
    return dir;
  };

  it.each(['express-demo', 'fastify-leaky', 'hono-leaky', 'koa-leaky', 'nest-leaky', 'next-leaky'])(
    '%s: a comment line put in a source file gives what a full run gives, mostly without linking again',
    async (fixture) => {
      const dir = copy(fixture);
      await cached(dir);
      let edits = 0;
      let relocated = 0;
      for (const file of fg.sync('**/*.{ts,tsx}', { cwd: dir, ignore: ['**/node_modules/**'] }).sort()) {
        const text = fs.readFileSync(path.join(dir, file), 'utf8');
        const lines = text.split('\n').length;
        // every seventh line boundary, from a file's first line (a different one in each file)
        for (let after = edits % 7; after < lines; after += 7) {
          fs.writeFileSync(path.join(dir, file), insert(text, after, '// reviewed for the v1 contract'));
          const r = await cached(dir);
          expect(formatJson(r), `${file}, a line put after line ${after}`).toBe(formatJson(await uncached(dir)));
          if (r.extraction!.reused) relocated++;
          edits++;
        }
        fs.writeFileSync(path.join(dir, file), text);
      }
      expect(edits).toBeGreaterThan(20);
      // a comment in a template literal, or between a suppression and its line, is no mere move
      expect(relocated).toBeGreaterThan(edits * 0.8);
    },
    60_000,
  );

  it('links again when a line comes between a suppression comment and its line: the finding it held back is back', async () => {
    const dir = copy('express-demo');
    const before = await cached(dir);
    const file = path.join(dir, 'src/routes/auth.ts');
    const text = fs.readFileSync(file, 'utf8');
    const at = text.split('\n').findIndex((l) => l.startsWith('// route-surface-disable-next-line missing-tenant-guard -- '));
    expect(at).toBeGreaterThan(0);
    fs.writeFileSync(file, insert(text, at + 1, '// (identity is per user)'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    const tenant = (r: RunResult) => r.findings.filter((f) => f.file === 'src/routes/auth.ts' && f.ruleId === 'missing-tenant-guard').length;
    expect(tenant(after)).toBe(tenant(before) + 1);
  });

  it('moves the kept result, keeps it, and the next run with nothing changed replays the moved one', async () => {
    const dir = copy('express-demo');
    await cached(dir);
    const file = path.join(dir, 'src/routes/sites.ts');
    fs.writeFileSync(file, `// Sites: the dashboard's list and detail views.\n${fs.readFileSync(file, 'utf8')}`);
    const moved = await cached(dir);
    expect(moved.extraction).toMatchObject({ cached: 23, parsed: 1, reused: true, cacheNote: null });
    const truth = formatJson(await uncached(dir));
    expect(formatJson(moved)).toBe(truth);
    const again = await cached(dir);
    expect(again.extraction).toMatchObject({ parsed: 0, reused: true });
    expect(formatJson(again)).toBe(truth);
  });
});
