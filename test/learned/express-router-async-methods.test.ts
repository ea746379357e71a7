// Learned from a public Express server (Mailtrain): its routers come from one factory that gives
// each router methods of its own, `router.getAsync = (path, ...handlers) => router.get(path,
// ...safeLast(handlers))`, and every route file registers through them. Calls of those methods
// were calls of something not known statically: of its 240 routes, 25 were listed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check, findingLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'express-router-async-methods');
const LISTS = 'server/routes/rest/lists.js';
const SUBSCRIPTIONS = 'server/routes/rest/subscriptions.js';

describe("learned: a router's own methods that register routes on it", async () => {
  const res = await check(DIR);

  it('lists the routes each router file registers through them, on its own router, where that router is mounted', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}] ${r.file}:${r.line}`)).toEqual([
      `POST /rest/lists [passport.loggedIn, passport.csrfProtection] ${LISTS}:12`,
      `DELETE /rest/lists/:listId [passport.loggedIn] ${LISTS}:16`,
      `GET /rest/lists/:listId [passport.loggedIn] ${LISTS}:8`,
      `POST /rest/subscriptions/:listCid [] ${SUBSCRIPTIONS}:8`,
    ]);
  });

  it('says nothing of the registration the methods make with the path they are handed', () => {
    expect(findingLines(res).filter((l) => l.includes('unresolved-route'))).toEqual([]);
    expect(findingLines(res).filter((l) => /missing-(auth|csrf)-guard/.test(l))).toEqual([
      `${LISTS}:16 missing-csrf-guard DELETE /rest/lists/:listId changes state on the browser session without a CSRF guard`,
      `${SUBSCRIPTIONS}:8 missing-auth-guard POST /rest/subscriptions/:listCid has no auth guard`,
      `${SUBSCRIPTIONS}:8 missing-csrf-guard POST /rest/subscriptions/:listCid changes state on the browser session without a CSRF guard`,
    ]);
  });

  it('links again with --cache when a call of one is added: the route is there, as a run without the cache finds it', async () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'route-surface-aliases-'));
    fs.cpSync(DIR, dir, { recursive: true });
    const cached = () => run({ cwd: dir, paths: [], cache: true });
    await cached();
    // (a call and nothing else: no function, no binding added — a call of nothing the files define would change no result)
    fs.appendFileSync(path.join(dir, SUBSCRIPTIONS), "\nrouter.deleteAsync('/subscriptions/:listCid', subscriptions.create);\n");
    const after = await cached();
    expect(after.routes.map((r) => `${r.method} ${r.path}`)).toContain('DELETE /rest/subscriptions/:listCid');
    expect(formatJson(after)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
  });
});
