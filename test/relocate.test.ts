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
import { composeMoves, factsMoved, relocateResult } from '../src/relocate.js';
import { formatJson } from '../src/report/json.js';
import type { CallFact, Expr, LeadingGuard } from '../src/types.js';
import { ROOT, routeLines } from './helpers/run.js';

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

const extract = (file: string, text: string) => extractFacts(loadTypeScript(), file, text, ADAPTERS, DEFAULT_BUDGETS);
// the old facts as a run has them: read back from the cache's text
const movedFacts = (file: string, before: string, after: string) => factsMoved(plainFactsFromText(factsToText(extract(file, before))), extract(file, after), ADAPTERS);

/** The lines that moved (old → new), or null when the facts did not only move (leading calls or calls added or removed count as not moved here). */
function moved(file: string, before: string, after: string): [number, number][] | null {
  const how = movedFacts(file, before, after);
  return how && how.leading.length === 0 && how.calls.removed.length + how.calls.added.length === 0 ? [...how.lines].filter(([from, to]) => from !== to).sort((a, b) => a[0] - b[0]) : null;
}

/**
 * Leading calls an edit removed and added, per function, as source-like text (`Date.now()` at
 * 11), with the lines that moved, and the file's calls removed and added (only when some
 * were); null when not only these changed.
 */
function leadingEdit(
  file: string,
  before: string,
  after: string,
): { lines: [number, number][]; leading: { fn: string | null; removed: string[]; added: string[] }[]; calls?: { removed: string[]; added: string[] } } | null {
  const how = movedFacts(file, before, after);
  if (!how) return null;
  const fns = extract(file, after).functions;
  const name = (e: Expr): string => (e.k === 'ref' ? e.name : e.k === 'member' ? `${name(e.obj)}.${e.prop}` : e.k === 'str' ? `'${e.v}'` : e.k);
  const text = (lg: LeadingGuard | CallFact): string => `${lg.callee ? name(lg.callee) : (lg as LeadingGuard).inline}(${(lg.args ?? []).map(name).join(', ')}) at ${lg.at.line}`;
  const { removed, added } = how.calls;
  return {
    lines: [...how.lines].filter(([from, to]) => from !== to).sort((a, b) => a[0] - b[0]),
    leading: how.leading.map((c) => ({ fn: fns.find((f) => f.id === c.fn)?.name ?? null, removed: c.removed.map(text), added: c.added.map(text) })),
    ...(removed.length + added.length > 0 ? { calls: { removed: removed.map(text), added: added.map(text) } } : {}),
  };
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

  it("a class's instance field changed: a new instance of the class reads its fields too", () => {
    const ROUTES = `import { Router } from 'express';

export function usersRouter() {
  class UsersController {
    public path = '/users';
    public router = Router();
  }
  const controller = new UsersController();
  controller.router.get(controller.path, (req, res) => res.json([]));
  return controller.router;
}
`;
    expect(moved('src/routes.ts', ROUTES, ROUTES.replace("'/users'", "'/people'"))).toBe(null);
  });

  it('counts every binding as read in a file whose bindings an adapter reads all (Nest: each create call of a file importing @nestjs/core)', () => {
    expect(moved('src/main.ts', MAIN, insert(MAIN, 6, '  const started = true;'))).toBe(null);
    // the same local in a file no adapter reads whole: moved (no fact after it to move)
    const plain = MAIN.replace("'@nestjs/core'", "'./factory'");
    expect(moved('src/main.ts', plain, insert(plain, 6, '  const started = true;'))).toEqual([]);
  });
});

describe('factsMoved: leading calls added or removed, for the caller to judge', () => {
  const timed = insert(SITES, 10, '    const startedAt = Date.now();');

  it('a call added at the head of a handler (in its try block): the call, and the lines after it moved', () => {
    expect(leadingEdit(FILE, SITES, timed)).toEqual({
      lines: [[11, 12], [12, 13], [14, 15], [18, 19], [19, 20], [20, 21], [21, 22]],
      leading: [{ fn: null, removed: [], added: ['Date.now() at 11'] }],
    });
  });

  it('the same call removed again', () => {
    expect(leadingEdit(FILE, timed, SITES)).toEqual({
      lines: [[12, 11], [13, 12], [15, 14], [19, 18], [20, 19], [21, 20], [22, 21]],
      leading: [{ fn: null, removed: ['Date.now() at 11'], added: [] }],
    });
  });

  it('a local and the leading call that reads it removed together: the lookup goes with the call', () => {
    const traced = insert(insert(SITES, 10, '    const startedAt = Date.now();'), 11, "    const span = tracer.startSpan('sites.list', startedAt);");
    expect(leadingEdit(FILE, traced, SITES)?.leading).toEqual([{ fn: null, removed: ['Date.now() at 11', "tracer.startSpan('sites.list', startedAt) at 12"], added: [] }]);
  });

  it("a leading call's argument changed: the old call removed and the new one added, the others kept", () => {
    const audited = insert(SITES, 10, "    audit.record('sites.list');");
    expect(leadingEdit(FILE, audited, audited.replace("'sites.list'", "'sites.index'"))).toEqual({
      lines: [],
      leading: [{ fn: null, removed: ["audit.record('sites.list') at 11"], added: ["audit.record('sites.index') at 11"] }],
    });
  });

  it('the argument of a leading call whose result a local holds, and the response reads: the local changed too', () => {
    expect(leadingEdit(FILE, SITES, SITES.replace('sitesService.list(req.session.accountId)', 'sitesService.list(req.session.ownerId)'))).toBe(null);
  });

  it('a call added before the response in a named function: named by it', () => {
    const named = SITES.replace("sitesRouter.get('/:siteId', async (req, res) => {", "sitesRouter.get('/:siteId', async function showSite(req, res) {");
    expect(leadingEdit(FILE, named, insert(named, 18, '  metrics.increment(\'sites.show\');'))?.leading).toEqual([{ fn: 'showSite', removed: [], added: ["metrics.increment('sites.show') at 19"] }]);
  });

  it('a line put above a leading call that is on a line of its own: its line moves too (an in-handler guard is reported there)', () => {
    const guarded = insert(SITES, 10, '    await requireSession();');
    expect(moved(FILE, guarded, insert(guarded, 4, '// mounted under /api/sites'))).toContainEqual([11, 12]);
  });

  it('a line split between two leading calls, the second keeping its column: its old line pairs with two new ones', () => {
    const both = insert(SITES, 10, '    await requireSession(); notify(req);');
    const split = insert(SITES, 10, `    await requireSession();\n${' '.repeat(28)}notify(req);`);
    expect(moved(FILE, both, insert(both, 4, '// mounted under /api/sites'))).toContainEqual([11, 12]);
    expect(leadingEdit(FILE, both, split)).toBe(null);
  });

  it('a response moved above a leading call: not only leading calls changed', () => {
    const lines = SITES.split('\n');
    [lines[10], lines[11]] = [lines[11]!, lines[10]!];
    expect(leadingEdit(FILE, SITES, lines.join('\n'))).toBe(null);
  });
});

describe('factsMoved: calls of the file added or removed, for the caller to judge', () => {
  it('a log call with an object added after the response: the call (no leading call: the handler has responded)', () => {
    expect(leadingEdit(FILE, SITES, insert(SITES, 21, '  console.info({ served: req.params.siteId });'))).toEqual({
      lines: [],
      leading: [],
      calls: { removed: [], added: ['console.info(obj) at 22'] },
    });
  });

  it("a call's argument changed: the old call removed and the new one added", () => {
    const logged = insert(SITES, 21, '  logger.info({ site });');
    expect(leadingEdit(FILE, logged, logged.replace('{ site }', '{ site, at: Date.now() }'))?.calls).toEqual({ removed: ['logger.info(obj) at 22'], added: ['logger.info(obj) at 22'] });
  });

  it('a local and the call that reads it removed together: the lookup goes with the call', () => {
    const counted = insert(insert(SITES, 21, '  const served = Date.now();'), 22, '  metrics.record({ served });');
    expect(leadingEdit(FILE, counted, SITES)).toEqual({ lines: [], leading: [], calls: { removed: ['metrics.record(obj) at 23'], added: [] } });
  });

  it('a call at module scope removed, the calls around it kept (and moved)', () => {
    const traced = insert(APP, 6, 'trace(app);');
    expect(leadingEdit('src/app.ts', insert(traced, 5, 'trace(app);'), traced)).toEqual({
      lines: [[7, 6], [8, 7]],
      leading: [],
      calls: { removed: ['trace(app) at 6'], added: [] },
    });
  });

  it('a call the head of a handler gains is a leading call and a call of the file: both', () => {
    const edit = leadingEdit(FILE, SITES, insert(SITES, 18, '  audit(req);'));
    expect(edit?.leading).toEqual([{ fn: null, removed: [], added: ['audit(req) at 19'] }]);
    expect(edit?.calls).toEqual({ removed: [], added: ['audit(req) at 19'] });
  });

  it('in a file whose every call the Nest adapter reads (one importing @nestjs/core): not moved', () => {
    expect(leadingEdit('src/main.ts', MAIN, insert(MAIN, 6, '  console.info({ port: 3000 });'))).toBe(null);
    const plain = MAIN.replace("'@nestjs/core'", "'./factory'");
    expect(leadingEdit('src/main.ts', plain, insert(plain, 6, '  console.info({ port: 3000 });'))?.calls).toEqual({ removed: [], added: ['console.info(obj) at 7'] });
  });
});

describe('factsMoved: returns and response fields, for the caller to judge', () => {
  const VIEWS = `import { Router } from 'express';
import { db } from '../db';

function toSiteView(site: { id: string; name: string; region: string }) {
  return { id: site.id, name: site.name };
}

export const sitesRouter = Router();

sitesRouter.get('/:siteId', async (req, res) => {
  const site = await db.site.findFirst({ where: { id: req.params.siteId } });
  res.json(toSiteView(site));
});
`;
  const changes = (before: string, after: string) => {
    const how = movedFacts(FILE, before, after);
    return how && { returns: how.returns, responses: how.responses, leading: how.leading.length, lines: [...how.lines].filter(([a, b]) => a !== b).length };
  };

  it('a field added to the object a view function returns: its returns, nothing else', () => {
    expect(changes(VIEWS, VIEWS.replace('name: site.name }', 'name: site.name, region: site.region }'))).toEqual({ returns: [0], responses: [], leading: 0, lines: 0 });
  });

  it('a credential put in the response a handler sends: its response fields', () => {
    const handler = VIEWS.replace('res.json(toSiteView(site));', 'res.json({ ...toSiteView(site), apiKey: site.apiKey });');
    expect(changes(VIEWS, handler.replace('apiKey: site.apiKey', 'apiKey: site.apiKey, secret: site.secret'))).toMatchObject({ returns: [], responses: [1] });
  });

  it('lines moved around a changed return: paired outside it only', () => {
    const moved = insert(VIEWS, 3, '// Views: what the dashboard shows of a site.');
    expect(changes(VIEWS, moved.replace('name: site.name }', 'name: site.name, region: site.region }'))).toEqual({ returns: [0], responses: [], leading: 0, lines: 4 });
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

describe('composeMoves', () => {
  const A = 'src/a.ts';
  const B = 'src/b.ts';
  it.each<[string, [string, [number, number][]][], [string, [number, number][]][], [string, [number, number][]][]]>([
    ['a file moved twice: each old line to where the second move took its first place', [[A, [[3, 4], [7, 8]]]], [[A, [[4, 4], [8, 10]]]], [[A, [[3, 4], [7, 10]]]]],
    ['another file moved second: both', [[A, [[3, 4]]]], [[B, [[1, 2]]]], [[A, [[3, 4]]], [B, [[1, 2]]]]],
    ['a line the second move does not know: unknown (refused, as in two steps)', [[A, [[3, 4], [7, 8]]]], [[A, [[8, 9]]]], [[A, [[7, 9]]]]],
    ['nothing moved first', [], [[A, [[2, 3]]]], [[A, [[2, 3]]]]],
  ])('%s', (_name, first, then, want) => {
    const maps = (m: [string, [number, number][]][]) => new Map(m.map(([f, lines]) => [f, new Map(lines)]));
    expect([...composeMoves(maps(first), maps(then))].map(([f, lines]) => [f, [...lines]])).toEqual(want);
  });

  it('relocates as the two moves do one after the other', () => {
    const route = () => ({ routes: [{ file: A, line: 3 }, { file: A, line: 7 }, { file: B, line: 5 }] });
    const first = new Map([[A, new Map([[3, 4], [7, 8]])]]);
    const then = new Map([[A, new Map([[4, 5], [8, 12]])], [B, new Map([[5, 6]])]]);
    const stepwise = route();
    expect(relocateResult(stepwise, first) && relocateResult(stepwise, then)).toBe(true);
    const once = route();
    expect(relocateResult(once, composeMoves(first, then))).toBe(true);
    expect(once).toEqual(stepwise);
    expect(once.routes.map((r) => r.line)).toEqual([5, 12, 6]);
  });
});

const cached = (cwd: string): Promise<RunResult> => run({ cwd, paths: [], cache: true });
const uncached = (cwd: string): Promise<RunResult> => run({ cwd, paths: [] });
/** A fixture copied to a directory of its own. */
const copy = (fixture: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-relocate-'));
  fs.cpSync(path.join(ROOT, 'fixtures', fixture), dir, { recursive: true });
  return dir;
};

/**
 * express-demo with `src/middleware/<name>.ts` holding `source`, and the usage router running
 * `<wrapper>(requireSession)` before its routes (`imports`: what usage.ts takes from that file).
 */
const wrappedUsage = (name: string, source: string, wrapper: string, imports: string): string => {
  const dir = copy('express-demo');
  fs.writeFileSync(path.join(dir, `src/middleware/${name}.ts`), source);
  const routes = path.join(dir, 'src/routes/usage.ts');
  const usage = fs.readFileSync(routes, 'utf8');
  const wrapped = usage.replace(/^(export const usageRouter = Router\(\);\n)/m, `$1usageRouter.use(${wrapper}(requireSession));\n`);
  expect(wrapped).not.toBe(usage);
  fs.writeFileSync(routes, `import { ${imports} } from '../middleware/${name}.js';\n${wrapped}`);
  return dir;
};

/** The guards of the usage export, the one route the usage router registers before its own guards. */
const exportGuards = (r: RunResult): string[] => r.routes.find((x) => x.path === '/api/usage/export.csv')!.guards.map((g) => g.name);

describe('check --cache after edits that only move facts', () => {

  it.each(['express-demo', 'express-autoload', 'fastify-leaky', 'hono-leaky', 'koa-leaky', 'koa-route', 'nest-leaky', 'next-leaky', 'routing-controllers'])(
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

  it('keeps a moved result without writing it again, its moves with it, moved again and again; written again when moved in more than 64 files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-moves-'));
    const count = 70;
    const routeFile = (i: number) => `src/routes/r${String(i).padStart(2, '0')}.ts`;
    fs.mkdirSync(path.join(dir, 'src/routes'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'moves', dependencies: { express: '^4.19.2' } }));
    const imports = Array.from({ length: count }, (_, i) => `import { router${i} } from './routes/r${String(i).padStart(2, '0')}';`).join('\n');
    const mounts = Array.from({ length: count }, (_, i) => `app.use('/api/area${i}', router${i});`).join('\n');
    fs.writeFileSync(path.join(dir, 'src/app.ts'), `import express from 'express';\n${imports}\n\nexport const app = express();\n${mounts}\n`);
    for (let i = 0; i < count; i++)
      fs.writeFileSync(
        path.join(dir, routeFile(i)),
        `import { Router } from 'express';\n\nexport const router${i} = Router();\n\nrouter${i}.get('/items/:id', async (req, res) => {\n  res.json({ id: req.params.id });\n});\n`,
      );
    const cacheFile = path.join(dir, 'node_modules/.cache/route-surface/route-surface-cache');
    // each written result holds a summary; appending never removes the bytes of an older one
    const written = () => fs.readFileSync(cacheFile, 'latin1').split('"summary":{').length - 1;
    // the files the kept result's locations moved in since it was written: in the index, which
    // the trailer's last 16 digits point to (src/cache.ts)
    const movedIn = (): string[] => {
      const bytes = fs.readFileSync(cacheFile, 'latin1');
      const index = JSON.parse(bytes.slice(Number(bytes.slice(-17, -1)), -18)) as { result: [string, number, number, string, unknown, [string, unknown][]] };
      return index.result[5].map(([file]) => file);
    };
    const comment = (i: number, text: string) => {
      const file = path.join(dir, routeFile(i));
      fs.writeFileSync(file, `// ${text}\n${fs.readFileSync(file, 'utf8')}`);
    };
    const same = async () => {
      const r = await cached(dir);
      expect(formatJson(r)).toBe(formatJson(await uncached(dir)));
      return r;
    };
    await cached(dir);
    expect(written()).toBe(1);
    // one file, another, the first again: moved each time, the bytes kept
    for (const i of [3, 41, 3]) {
      comment(i, `reviewed (${i})`);
      expect((await same()).extraction).toMatchObject({ parsed: 1, reused: true });
      expect(written()).toBe(1);
    }
    expect(movedIn()).toEqual([routeFile(3), routeFile(41)]);
    const r03 = (await same()).routes.find((r) => r.file === routeFile(3))!;
    expect(r03.line).toBe(7);
    // moved in 65 files in all: the result is written again, and its moves start afresh
    for (let i = 0; i < 64; i++) if (i !== 3 && i !== 41) comment(i, 'owned by the platform team');
    comment(69, 'owned by the platform team');
    expect((await same()).extraction).toMatchObject({ parsed: 63, reused: true });
    expect(movedIn()).toEqual([]);
    comment(69, 'reviewed');
    expect((await same()).extraction).toMatchObject({ parsed: 1, reused: true });
    expect(movedIn()).toEqual([routeFile(69)]);
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

describe('check --cache after a call is added to or removed from the head of a function', () => {
  // A line that opens a function's body: `async (req, res) => {`, `async list(@Param('id') id: string) {`.
  const OPENS_FUNCTION = /(=>|\)(\s*:\s*[\w<>[\], .|]+)?)\s*\{\s*$/;
  const NOT_A_FUNCTION = /^\s*(if|for|while|switch|catch|else|try|do)\b|\b(if|while|for|switch|catch)\s*\(/;
  const STATEMENTS = [
    ['a timing local', 'const startedAt = Date.now();'],
    ['a log call', "console.debug('served');"],
    ['a structured log call', 'console.info({ served: Date.now() });'],
    ['a guard call', 'await requireSession();'],
  ] as const;

  it.each(['express-demo', 'express-autoload', 'fastify-leaky', 'hono-leaky', 'koa-leaky', 'koa-route', 'nest-leaky', 'next-leaky', 'routing-controllers'])(
    '%s: each gives what a full run gives; a call that is no guard without linking again, a guard call by linking again',
    async (fixture) => {
      const dir = copy(fixture);
      const original = formatJson(await cached(dir));
      const tally = { edits: 0, reused: 0, guarded: 0 };
      const opening: [string, number][] = [];
      for (const file of fg.sync('**/*.{ts,tsx}', { cwd: dir, ignore: ['**/node_modules/**'] }).sort())
        fs.readFileSync(path.join(dir, file), 'utf8').split('\n').forEach((l, i) => {
          if (OPENS_FUNCTION.test(l) && !NOT_A_FUNCTION.test(l)) opening.push([file, i + 1]);
        });
      // five functions spread over the fixture
      const picked = opening.filter((_, i) => i % Math.max(1, Math.floor(opening.length / 5)) === 0).slice(0, 5);
      expect(picked.length).toBe(5);
      for (const [file, line] of picked) {
        const text = fs.readFileSync(path.join(dir, file), 'utf8');
        const truths: Record<string, string> = {};
        for (const [what, statement] of STATEMENTS) {
          fs.writeFileSync(path.join(dir, file), insert(text, line, `  ${statement}`));
          const r = await cached(dir);
          truths[what] = formatJson(await uncached(dir));
          expect(formatJson(r), `${file}: ${what} put after line ${line}`).toBe(truths[what]);
          tally.edits++;
          if (what !== 'a guard call' && r.extraction!.reused) tally.reused++;
          // the guard call guards the route whose handler it leads (the same line put, a log call, does not)
          if (what === 'a guard call' && truths[what] !== truths['a log call']) {
            tally.guarded++;
            expect(r.extraction!.reused, `${file}: a guard call put after line ${line}`).toBe(false);
          }
        }
        // (taking the guard call out again is linked again too: a run for it, before the next place)
        fs.writeFileSync(path.join(dir, file), text);
        expect(formatJson(await cached(dir))).toBe(original);
      }
      expect(tally.edits).toBe(20);
      expect(tally.guarded).toBeGreaterThan(0);
      // the calls that are no guards change no fact but leading calls, calls of the file and
      // bindings nothing reads — but in a file importing @nestjs/core, whose every binding and
      // call the Nest adapter reads
      expect(tally.reused).toBeGreaterThanOrEqual(fixture === 'nest-leaky' ? 12 : 15);
    },
    60_000,
  );

  it("links again when judging a call added reads a file the last result did not (its scope would not cover it)", async () => {
    const dir = copy('express-demo');
    // a file that shows no signal and imports nothing: held back by the prefilter
    fs.writeFileSync(path.join(dir, 'src/services/audit.ts'), `const views: { tenantId: string; what: string; at: number }[] = [];\n\nexport async function recordView(tenantId: string, what: string) {\n  views.push({ tenantId, what, at: Date.now() });\n}\n`);
    const file = path.join(dir, 'src/routes/sites.ts');
    const sites = `import { recordView } from '../services/audit.js';\n${fs.readFileSync(file, 'utf8')}`;
    fs.writeFileSync(file, sites);
    await cached(dir);
    const at = sites.split('\n').findIndex((l) => l.startsWith("sitesRouter.get('/', requireTenant, async (req, res) => {")) + 1;
    expect(at).toBeGreaterThan(0);
    // a call given the tenant, not the request: a guard only if its definition behaves like one
    fs.writeFileSync(file, insert(sites, at, "  await recordView(req.tenantId, 'sites');"));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    // the same call of a function the last result read: judged, and the result stands
    fs.writeFileSync(file, insert(sites, at, "  await recentLogLines(req.tenantId, 1);"));
    await cached(dir);
    fs.writeFileSync(file, insert(sites, at, "  await recentLogLines(req.tenantId, 2);"));
    const again = await cached(dir);
    expect(again.extraction).toMatchObject({ parsed: 1, reused: true });
    expect(formatJson(again)).toBe(formatJson(await uncached(dir)));
  });

  it('links again when a leading call removed was the call of a parameter that made its function a pass-through wrapper', async () => {
    const dir = wrappedUsage(
      'checked',
      `import type { NextFunction, Request, Response } from 'express';

type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;

/** Runs a check, counting the time it takes. */
export const checked = (check: Middleware) => async (req: Request, res: Response, next: NextFunction) => {
  const startedAt = Date.now();
  const verdict = await check(req, res, next);
  console.debug('checked', req.path, Date.now() - startedAt);
};
`,
      'checked',
      'checked',
    );
    const before = await cached(dir);
    expect(before.routes.filter((r) => r.file === 'src/routes/usage.ts').every((r) => r.guards.some((g) => g.name === 'requireSession'))).toBe(true);
    const file = path.join(dir, 'src/middleware/checked.ts');
    // only the leading call changed (a local holds its result): its old callee was the parameter
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('await check(req, res, next);', 'await audit(req.path);'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    // the route registered before usageRouter.use(requireSession, …) is no longer behind it
    expect(exportGuards(after)).toEqual([]);
  });
});

describe('check --cache after returns or response fields change', () => {
  // each a place where a function returns, or a handler responds with, an object literal
  const RESPONDS = /return \{|=> \(\{|\.json\(\{|\.send\(\{|body = \{/g;

  it.each(['express-demo', 'express-autoload', 'fastify-leaky', 'hono-leaky', 'koa-leaky', 'koa-route', 'nest-leaky', 'next-leaky', 'routing-controllers'])(
    '%s: a field put in each object returned or sent gives what a full run gives, mostly without linking again',
    async (fixture) => {
      const dir = copy(fixture);
      const original = formatJson(await cached(dir));
      let edits = 0;
      let reused = 0;
      for (const file of fg.sync('**/*.{ts,tsx}', { cwd: dir, ignore: ['**/node_modules/**'] }).sort()) {
        const text = fs.readFileSync(path.join(dir, file), 'utf8');
        for (const m of text.matchAll(RESPONDS)) {
          const at = m.index! + m[0].length;
          fs.writeFileSync(path.join(dir, file), `${text.slice(0, at)} servedAt: Date.now(),${text.slice(at)}`);
          const r = await cached(dir);
          expect(formatJson(r), `${file}: a field put at offset ${at}`).toBe(formatJson(await uncached(dir)));
          if (r.extraction!.reused) reused++;
          edits++;
          // and taken out again (the next edit is made from the fixture as it was)
          fs.writeFileSync(path.join(dir, file), text);
          expect(formatJson(await cached(dir)), `${file}: the field at offset ${at} taken out`).toBe(original);
        }
      }
      expect(edits).toBeGreaterThanOrEqual(3);
      // a field put beside a credential in a handler's response moves that field: linked again
      expect(reused).toBeGreaterThan(edits * 0.5);
    },
    60_000,
  );

  it('links again when the returns changed are read: a factory returning the router it registers on', async () => {
    const dir = copy('express-demo');
    fs.writeFileSync(
      path.join(dir, 'src/routes/status.ts'),
      `import { Router } from 'express';

/** The status page's router: a fresh one per app. */
export function statusRouter() {
  const router = Router();
  router.get('/status', (_req, res) => res.json({ ok: true, version: process.env.APP_VERSION }));
  return router;
}
`,
    );
    const app = path.join(dir, 'src/app.ts');
    const text = fs.readFileSync(app, 'utf8');
    const mounted = text.replace(/^(export const app = express\(\);\n)/m, "$1app.use('/api', statusRouter());\n");
    expect(mounted).not.toBe(text);
    fs.writeFileSync(app, `import { statusRouter } from './routes/status.js';\n${mounted}`);
    const before = await cached(dir);
    expect(before.routes.some((r) => r.path === '/api/status')).toBe(true);
    const file = path.join(dir, 'src/routes/status.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('return router;', 'return Router();'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    expect(after.routes.some((r) => r.path === '/api/status')).toBe(false);
  });

  it('links again when the returns changed are those a pass-through wrapper hands the request on by', async () => {
    const dir = wrappedUsage(
      'timed',
      `import type { NextFunction, Request, Response } from 'express';

type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;

/** The check, timed by the request logger's span. */
export const timed = (check: Middleware) => (req: Request, res: Response, next: NextFunction) => check(req, res, next);

export function audit(req: Request, _res: Response, next: NextFunction) {
  console.info('usage export', req.path);
  next();
}
`,
      'timed',
      'timed',
    );
    expect(exportGuards(await cached(dir))).toEqual(['requireSession']);
    // only the returned call changed: the wrapper no longer calls its parameter
    const file = path.join(dir, 'src/middleware/timed.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('=> check(req, res, next);', '=> audit(req, res, next);'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    expect(exportGuards(after)).toEqual([]);
  });

  it('links again when the returns changed are those judging a call at the head of a handler read', async () => {
    const dir = copy('express-demo');
    fs.writeFileSync(
      path.join(dir, 'src/services/checks.ts'),
      `import type { Request } from 'express';

function logAccess(req: Request) {
  console.info('usage viewed', req.path);
}

function mustSignIn(req: Request) {
  if (!req.session?.userId) throw Object.assign(new Error('sign in'), { status: 401 });
}

/** The check the usage export runs first. */
export function pickCheck() {
  return logAccess;
}
`,
    );
    const routes = path.join(dir, 'src/routes/usage.ts');
    const usage = `import { pickCheck } from '../services/checks.js';\n${fs.readFileSync(routes, 'utf8')}`;
    fs.writeFileSync(routes, usage);
    await cached(dir);
    // a call of what pickCheck() returns, no guard: judged, the result kept — having read pickCheck's returns
    const head = "usageRouter.get('/export.csv', async (req, res) => {\n";
    expect(usage).toContain(head);
    fs.writeFileSync(routes, usage.replace(head, `${head}  await pickCheck()(req);\n`));
    const judged = await cached(dir);
    expect(judged.extraction).toMatchObject({ reused: true });
    expect(exportGuards(judged)).toEqual([]);
    // pickCheck now returns a check that answers 401
    const file = path.join(dir, 'src/services/checks.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('return logAccess;', 'return mustSignIn;'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    expect(exportGuards(after)).toEqual(['pickCheck']);
  });

  it("links again when the returns changed are a Nest dynamic module's or a composed decorator's", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-relocate-'));
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'nest-returns', dependencies: { '@nestjs/common': '^11.0.0', '@nestjs/core': '^11.0.0', '@nestjs/passport': '^11.0.0' } }),
      'src/main.ts': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(3000);
}
bootstrap();
`,
      'src/app.module.ts': `import { Module } from '@nestjs/common';
import { SitesModule } from './sites/sites.module';

@Module({ imports: [SitesModule.forRoot({ cache: true })] })
export class AppModule {}
`,
      'src/sites/sites.module.ts': `import { DynamicModule, Module } from '@nestjs/common';
import { SitesController } from './sites.controller';

@Module({})
export class SitesModule {
  static forRoot(options: { cache: boolean }): DynamicModule {
    return { module: SitesModule, controllers: [SitesController], providers: [{ provide: 'SITES_OPTIONS', useValue: options }] };
  }
}
`,
      'src/sites/signed-in.decorator.ts': `import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

export const SignedInController = (path: string) =>
  applyDecorators(
    Controller(path),
    UseGuards(AuthGuard('jwt')),
  );
`,
      'src/sites/sites.controller.ts': `import { Get } from '@nestjs/common';
import { SignedInController } from './signed-in.decorator';

@SignedInController('api/sites')
export class SitesController {
  @Get()
  list() {
    return [];
  }
}
`,
    };
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const lines = (r: RunResult) => r.routes.map((x) => `${x.method} ${x.path} [${x.guards.map((g) => g.kinds.join('+')).join(', ')}]`);
    expect(lines(await cached(dir))).toEqual(['GET /api/sites [auth]']);
    const edit = async (file: string, from: string, to: string): Promise<RunResult> => {
      const at = path.join(dir, file);
      const text = fs.readFileSync(at, 'utf8');
      expect(text).toContain(from);
      fs.writeFileSync(at, text.replace(from, to));
      const r = await cached(dir);
      expect(r.extraction).toMatchObject({ parsed: 1, reused: false });
      expect(formatJson(r)).toBe(formatJson(await uncached(dir)));
      return r;
    };
    // the decorator the controller is written with no longer guards it
    expect(lines(await edit('src/sites/signed-in.decorator.ts', "    UseGuards(AuthGuard('jwt')),\n", ''))).toEqual(['GET /api/sites []']);
    // the module forRoot() makes no longer holds the controller
    expect(lines(await edit('src/sites/sites.module.ts', 'controllers: [SitesController], ', ''))).toEqual([]);
  });

  it("links again when a handler's response fields change (the rules read them)", async () => {
    const dir = copy('express-demo');
    const before = await cached(dir);
    const file = path.join(dir, 'src/routes/databases.ts');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('status: database.status });', 'status: database.status, password: database.password });'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
    const exposures = (r: RunResult) => r.findings.filter((f) => f.file === 'src/routes/databases.ts' && f.ruleId === 'provider-credential-exposure').length;
    expect(exposures(after)).toBe(exposures(before) + 1);
  });
});

describe('check --cache after a call of a file is added or removed', () => {
  it('keeps the result for a log call added at module scope; links again when a call handing the app to a function that registers on it goes, or comes back', async () => {
    const dir = copy('express-demo');
    const file = path.join(dir, 'src/app.ts');
    const app = fs.readFileSync(file, 'utf8');
    const original = formatJson(await cached(dir));
    const logged = app.replace('await mountPlugins(app);\n', "await mountPlugins(app);\nconsole.info({ mounted: 'plugins' });\n");
    expect(logged).not.toBe(app);
    fs.writeFileSync(file, logged);
    const kept = await cached(dir);
    expect(kept.extraction).toMatchObject({ parsed: 1, reused: true });
    expect(formatJson(kept)).toBe(formatJson(await uncached(dir)));
    // mountPlugins mounts on the app it is handed (at a path not known statically)
    const plugins = (r: RunResult) => r.findings.filter((f) => f.file === 'src/plugins/index.ts').map((f) => f.message);
    expect(plugins(kept)).toEqual(['the path of this use() is not known statically; what it mounts is left out']);
    fs.writeFileSync(file, logged.replace('await mountPlugins(app);\n', ''));
    const unplugged = await cached(dir);
    expect(unplugged.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(unplugged)).toBe(formatJson(await uncached(dir)));
    expect(plugins(unplugged)).toEqual(["routes registered on the parameter 'app' of mountPlugins() whose callers pass no router known statically; their prefix is unknown"]);
    fs.writeFileSync(file, app);
    const back = await cached(dir);
    expect(back.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(back)).toBe(original);
  });

  it("links again when a statement hands the app to a class's constructor that registers on it", async () => {
    const dir = copy('express-demo');
    fs.writeFileSync(
      path.join(dir, 'src/routes/status.ts'),
      `import type { Express, Request, Response } from 'express';\n\nexport class StatusRoutes {\n  constructor(app: Express) {\n    app.get('/status', (req: Request, res: Response) => {\n      res.json({ status: 'ok' });\n    });\n  }\n}\n`,
    );
    const file = path.join(dir, 'src/app.ts');
    const app = fs.readFileSync(file, 'utf8').replace("import { mountPlugins } from './plugins/index.js';\n", "import { mountPlugins } from './plugins/index.js';\nimport { StatusRoutes } from './routes/status.js';\n");
    fs.writeFileSync(file, app);
    const before = await cached(dir);
    expect(routeLines(before)).not.toContain('GET /status');
    fs.writeFileSync(file, app.replace('await mountPlugins(app);\n', 'await mountPlugins(app);\nnew StatusRoutes(app);\n'));
    const after = await cached(dir);
    expect(after.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(routeLines(after)).toContain('GET /status');
    expect(formatJson(after)).toBe(formatJson(await uncached(dir)));
  });

  it('links again when `SwaggerModule.setup(…)` comes into a file that does not import @nestjs/core (the Nest adapter reads every `….setup` call)', async () => {
    const dir = copy('nest-leaky');
    const main = path.join(dir, 'src/main.ts');
    const text = fs.readFileSync(main, 'utf8');
    const moved = text
      .replace("import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';\n", '')
      .replace("import { AuthenticatedGuard } from './auth/authenticated.guard';\n", "import { AuthenticatedGuard } from './auth/authenticated.guard';\nimport { publishApiDocs } from './docs';\n")
      .replace(/  const config = new DocumentBuilder\(\)[^\n]*\n[^\n]*\n  SwaggerModule.setup[^\n]*\n/, '  publishApiDocs(app);\n');
    expect(moved).toContain('publishApiDocs(app);');
    expect(moved).not.toContain('SwaggerModule');
    fs.writeFileSync(main, moved);
    const docs = path.join(dir, 'src/docs.ts');
    const DOCS = `import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export function publishApiDocs(app: INestApplication): void {
  const config = new DocumentBuilder().setTitle('Control plane API').setVersion('0.9').build();
  const document = SwaggerModule.createDocument(app, config);
  if (process.env.API_DOCS !== 'off') {
    SwaggerModule.setup('docs', app, document);
  }
}
`;
    const OFF = DOCS.replace("SwaggerModule.setup('docs', app, document);", "console.info('API docs are not published');");
    fs.writeFileSync(docs, OFF);
    const published = (r: RunResult) => r.findings.filter((f) => f.message.includes('SwaggerModule.setup')).length;
    expect(published(await cached(dir))).toBe(0);
    // (in a block: no leading call of the function, only a call of the file changes; and the last
    // result names no place in the file, which would keep it from being moved)
    fs.writeFileSync(docs, DOCS);
    const on = await cached(dir);
    expect(on.extraction).toMatchObject({ parsed: 1, reused: false });
    expect(formatJson(on)).toBe(formatJson(await uncached(dir)));
    expect(published(on)).toBeGreaterThan(0);
    fs.writeFileSync(docs, OFF);
    const off = await cached(dir);
    expect(formatJson(off)).toBe(formatJson(await uncached(dir)));
    expect(published(off)).toBe(0);
  });
});
