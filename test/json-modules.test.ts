/**
 * JSON files the analysed code imports (src/extract/json-module.ts): read as data with the code,
 * their value the module's default export and each top-level property a named one; only those
 * imported, only where discovery would have found them; broken ones are parse errors; their
 * content is part of what a cached run checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/engine.js';
import { emptyFacts } from '../src/extract/extract.js';
import { jsonModuleFacts } from '../src/extract/json-module.js';
import { check, findingLines, routeLines } from './helpers/run.js';
import { EXPRESS_PACKAGE, writeProject } from './helpers/project.js';

const SERVER = `import express, { Router } from 'express';
import { prefix } from './api.json';
import { listSites } from './sites';
const routes = require('./routes.json');

const api = Router();
for (const route of routes) api.get(route.path, listSites);

const app = express();
app.use(prefix, api);
app.listen(3000);
`;
const SITES = `import type { Request, Response } from 'express';
export function listSites(_req: Request, res: Response) {
  res.json([]);
}
`;
const project = (extra: Record<string, string> = {}): string =>
  writeProject({
    'package.json': EXPRESS_PACKAGE,
    'src/server.ts': SERVER,
    'src/sites.ts': SITES,
    'src/api.json': '\uFEFF{ "prefix": "/api", "default": "not a named export" }\n',
    'src/routes.json': '[\n  { "path": "/sites" },\n  { "path": "/sites/:siteId" }\n]\n',
    // read by nothing: not analysed, however broken
    'src/fixtures/broken.json': '{ "a": 1, }\n',
    ...extra,
  });

describe('imported JSON modules', () => {
  it('a named import reads a top-level property; require() gives the whole value, a list a loop unrolls', async () => {
    const res = await check(project());
    expect(routeLines(res)).toEqual(['GET /api/sites', 'GET /api/sites/:siteId']);
    expect(res.files).toEqual(['src/api.json', 'src/routes.json', 'src/server.ts', 'src/sites.ts']);
    expect(findingLines(res).filter((l) => / (unresolved-route|parse-error) /.test(l))).toEqual([]);
  });

  it('an imported file that is not JSON (as JSON.parse reads it: no trailing commas) is a parse error, placed where JSON.parse says', async () => {
    const res = await check(project({ 'src/routes.json': '[\n  { "path": "/sites" },\n]\n' }));
    expect(findingLines(res).filter((l) => / (unresolved-route|parse-error) /.test(l))).toEqual([
      "src/routes.json:3 parse-error cannot parse: not valid JSON: Unexpected token ']'",
      'src/server.ts:7 unresolved-route GET route with a path not known statically (property path of a value not known statically); it is left out',
    ]);
  });

  it('a JSON file discovery would not have read (.gitignore, the config\'s exclude) is not read: its value is not known', async () => {
    for (const extra of [{ '.gitignore': 'src/api.json\n' }, { 'route-surface.config.json': JSON.stringify({ exclude: ['**/api.json'] }) }]) {
      const res = await check(project(extra));
      expect(res.files).toEqual(['src/routes.json', 'src/server.ts', 'src/sites.ts']);
      expect(routeLines(res)).toEqual(['GET /sites', 'GET /sites/:siteId']);
      expect(findingLines(res).filter((l) => / unresolved-route /.test(l))).toEqual([
        "src/server.ts:10 unresolved-route the path of this use() is not known statically (cannot resolve module './api.json'); the routes under it are listed without that part",
      ]);
    }
  });

  it('JSON nested deeper than budgets.maxNestingDepth is not analysed', async () => {
    const deep = `{ "prefix": "/api", "x": ${'['.repeat(40)}${']'.repeat(40)} }`;
    const dir = project({ 'src/api.json': deep, 'route-surface.config.json': JSON.stringify({ budgets: { maxNestingDepth: 30 } }) });
    const res = await check(dir);
    expect(findingLines(res).filter((l) => / parse-error /.test(l))).toEqual(['src/api.json:1 parse-error cannot parse: JSON nested deeper than budgets.maxNestingDepth (30); not analysed']);
  });

  it('with --cache, an edited JSON file changes the result', async () => {
    const dir = project();
    const cached = () => run({ cwd: dir, paths: [], cache: true });
    expect(routeLines(await cached())).toEqual(['GET /api/sites', 'GET /api/sites/:siteId']);
    fs.writeFileSync(path.join(dir, 'src/api.json'), '{ "prefix": "/v2" }\n');
    const again = await cached();
    expect(routeLines(again)).toEqual(['GET /v2/sites', 'GET /v2/sites/:siteId']);
    expect(again.extraction).toMatchObject({ reused: false });
    // and nothing changed: the result is reused
    expect((await cached()).extraction).toMatchObject({ reused: true });
  });
});

describe('jsonModuleFacts', () => {
  const facts = (text: string) => jsonModuleFacts(text, 500, emptyFacts('x.json'));

  it('the value is the default export, each top-level property a named export reading it ("default" and "__proto__" included as keys)', () => {
    const f = facts('{ "id": "azure", "n": [1, null, true], "default": 2, "__proto__": { "x": 1 } }');
    expect(f.parseError).toBeNull();
    expect(f.exports.map((x) => `${x.exported}=${x.local}`)).toEqual(['default=*default*', 'id=*cjs*id', 'n=*cjs*n', '__proto__=*cjs*__proto__']);
    const root = f.scopes[0]!.bindings['*default*'];
    expect(root).toEqual({
      k: 'obj',
      props: Object.fromEntries([
        ['id', { k: 'str', v: 'azure' }],
        ['n', { k: 'arr', items: [{ k: 'num', v: 1 }, { k: 'unknown', text: 'null' }, { k: 'bool', v: true }] }],
        ['default', { k: 'num', v: 2 }],
        ['__proto__', { k: 'obj', props: { x: { k: 'num', v: 1 } } }],
      ]),
    });
    expect(f.scopes[0]!.bindings['*cjs*id']).toEqual({ k: 'member', obj: { k: 'ref', name: '*default*', scope: 0 }, prop: 'id' });
    // a list or a scalar: the default export only
    expect(facts('["/a"]').exports).toEqual([{ exported: 'default', local: '*default*' }]);
  });

  it.each([
    ['{"a": 1,}', 1, 9],
    ['[\n  { "path": "/sites" },\n]\n', 3, 1],
    ['{\n "x": tru\n}', 2, 7],
    ['{"a" 1}', 1, 6],
    ['{"a":1} x', 1, 9],
    ['// a comment\n{}', 1, 1],
    ['', 1, 1],
    ['{"a":[1,{"b":"c\\q"}]}', 1, 14],
  ])('%j is not JSON from line %i, column %i', (text, line, column) => {
    const err = facts(text).parseError!;
    expect(err.at).toEqual({ line, column });
    // JSON.parse's words, on one line, without the copy of the text it may quote
    expect(err.message).toMatch(/^not valid JSON: [^\n"]+$/);
  });
});
