/**
 * `check --format html` in a real browser: Debian's chromium driven by playwright-core
 * (no browser download). The page must render, filter, sort, escape untrusted route data
 * and make no network request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageMatrix } from '../src/report/html.js';
import { check, cli, ROOT } from './helpers/run.js';

const AUDIT = path.join(ROOT, 'fixtures', 'audit');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser: Browser;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-html-'));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Write the report of `cwd` and open it; every request and page error is recorded. */
async function openReport(cwd: string, name: string): Promise<{ page: Page; requests: string[]; errors: string[]; url: string }> {
  const out = path.join(tmp, `${name}.html`);
  const r = cli(['check', '--format', 'html', '--output', out], cwd);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('');
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  const url = pathToFileURL(out).href;
  await page.goto(url);
  return { page, requests, errors, url };
}

const cells = (page: Page, col: number): Promise<string[]> => page.$$eval(`#route-table tbody tr td:nth-child(${col})`, (tds) => tds.map((td) => td.textContent ?? ''));

describe('check --format html (fixtures/audit)', () => {
  let page: Page;
  let requests: string[];
  let errors: string[];
  let url: string;

  beforeAll(async () => {
    ({ page, requests, errors, url } = await openReport(AUDIT, 'audit'));
  });

  it('is one self-contained file: inline CSS/JS pinned by a CSP, no external reference', () => {
    const html = fs.readFileSync(path.join(tmp, 'audit.html'), 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(html).not.toMatch(/<link\b|<script[^>]+src=|@import|url\(|https?:\/\//);
  });

  it('renders the summary, the contract coverage matrix and the route table', async () => {
    expect(await page.title()).toBe('route-surface report — browser-control-plane@1.0.0');
    const stats = await page.$$eval('#summary .card', (cards) => cards.map((c) => `${c.getAttribute('data-stat')}=${c.querySelector('b')!.textContent}`));
    expect(stats).toEqual(['routes=13', 'files=18', 'errors=7', 'warnings=0', 'infos=5']);
    const matrix = await page.$$eval('#matrix tbody tr', (trs) =>
      trs.map((tr) => [tr.cells[0]!.firstChild!.textContent, ...[...tr.cells].slice(1).map((td) => `${td.getAttribute('data-state')}:${td.querySelector('.cell-note')!.textContent}`)]),
    );
    expect(matrix).toEqual([
      ['GET /api/health/ready', 'ok:served at src/ops.ts:7, src/routes/health.ts:6', 'ok:GET', 'ok:without trailing slash', 'ok:public, unguarded', 'na:not tenant-scoped'],
      ['GET /api/auth/me/', 'ok:served at src/routes/auth.ts:7', 'ok:GET', 'ok:with trailing slash', 'ok:requireSession', 'ok:scopeToTenant'],
      ['GET /api/sites/', 'ok:served at src/routes/sites.ts:7', 'ok:GET', 'ok:with trailing slash', 'ok:requireSession', 'ok:scopeToTenant'],
      ['GET /api/deployments/', 'ok:served at src/routes/deployments.ts:7', 'ok:GET', 'ok:with trailing slash', 'ok:requireSession', 'ok:scopeToTenant'],
      ['GET /api/databases/', 'ok:served at src/routes/databases.ts:13', 'ok:GET', 'ok:with trailing slash', 'ok:requireSession', 'bad:no tenant guard at src/routes/databases.ts:13'],
    ]);
    expect(await page.textContent('#count')).toBe('Showing 13 of 13 matching routes');
    const rows = await page.$$eval('#route-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent).join(' | ')));
    expect(rows).toEqual([
      'GET | /api/auth/me/ | contract | authtenant |  | src/routes/auth.ts:7',
      'GET | /api/databases/ | contract | auth!tenant?loadAccount | missing-tenant-guard, provider-credential-exposure | src/routes/databases.ts:13',
      'GET | /api/deployments/ | contract | authtenant |  | src/routes/deployments.ts:7',
      'PATCH | /api/deployments/:deploymentId | browser | authtenantcsrf | immutable-resource-mutation, uncontracted-route | src/routes/deployments.ts:12',
      'GET | /api/health/ready | public |  |  | src/ops.ts:7',
      'GET | /api/health/ready | public |  |  | src/routes/health.ts:6',
      'POST | /api/internal/cache/purge | excluded:internal | auth!family | excluded-family-leak | src/routes/internal.ts:6',
      'GET | /api/sites/ | contract | authtenant |  | src/routes/sites.ts:7',
      'POST | /api/sites/ | browser | authtenantcsrf | uncontracted-route | src/routes/sites.ts:11',
      'DELETE | /api/sites/:siteId | browser | authtenant!csrf | missing-csrf-guard, uncontracted-route | src/routes/sites.ts:20',
      'GET | /api/sites/:siteId | browser | authtenant | uncontracted-route | src/routes/sites.ts:16',
      'GET | /metrics | browser | !auth!tenant | missing-auth-guard, missing-tenant-guard, uncontracted-route | src/ops.ts:12',
      'POST | /webhooks/billing | excluded:webhook | bearerfamily |  | src/routes/webhooks.ts:7',
    ]);
  });

  it('filters the table by text, method, classification and finding', async () => {
    await page.fill('#q', 'sites');
    await page.waitForFunction(() => document.querySelectorAll('#route-table tbody tr').length === 4);
    expect(await cells(page, 2)).toEqual(['/api/sites/', '/api/sites/', '/api/sites/:siteId', '/api/sites/:siteId']);
    expect(await page.textContent('#count')).toBe('Showing 4 of 4 matching routes (13 in all)');
    await page.selectOption('#f-method', 'DELETE');
    expect(await cells(page, 2)).toEqual(['/api/sites/:siteId']);
    // Several words must all match: a guard name and a path fragment.
    await page.selectOption('#f-method', '');
    await page.fill('#q', 'scopetotenant deployments');
    await page.waitForFunction(() => document.querySelectorAll('#route-table tbody tr').length === 2);
    expect(await cells(page, 2)).toEqual(['/api/deployments/', '/api/deployments/:deploymentId']);
    await page.fill('#q', '');
    await page.waitForFunction(() => document.querySelectorAll('#route-table tbody tr').length === 13);
    await page.selectOption('#f-class', 'excluded');
    expect(await cells(page, 2)).toEqual(['/api/internal/cache/purge', '/webhooks/billing']);
    await page.selectOption('#f-class', '');
    await page.selectOption('#f-finding', 'missing-tenant-guard');
    expect(await cells(page, 2)).toEqual(['/api/databases/', '/metrics']);
    await page.selectOption('#f-finding', '-');
    expect(await cells(page, 2)).toEqual(['/api/auth/me/', '/api/deployments/', '/api/health/ready', '/api/health/ready', '/api/sites/', '/webhooks/billing']);
    await page.selectOption('#f-finding', '');
    expect((await cells(page, 2)).length).toBe(13);
  });

  it('sorts by a column, and reverses on a second click', async () => {
    await page.click('#route-table th[data-key="p"] button');
    expect(await page.getAttribute('#route-table th[data-key="p"]', 'aria-sort')).toBe('descending');
    expect((await cells(page, 2)).slice(0, 3)).toEqual(['/webhooks/billing', '/metrics', '/api/sites/:siteId']);
    await page.click('#route-table th[data-key="m"] button');
    expect(await page.getAttribute('#route-table th[data-key="m"]', 'aria-sort')).toBe('ascending');
    expect(await page.getAttribute('#route-table th[data-key="p"]', 'aria-sort')).toBe('none');
    expect(await cells(page, 1)).toEqual(['DELETE', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'PATCH', 'POST', 'POST', 'POST']);
    await page.click('#route-table th[data-key="rules"] button');
    await page.click('#route-table th[data-key="rules"] button');
    expect((await cells(page, 2))[0]).toBe('/metrics');
    await page.click('#route-table th[data-key="loc"] button');
    expect((await cells(page, 6)).slice(0, 3)).toEqual(['src/ops.ts:7', 'src/ops.ts:12', 'src/routes/auth.ts:7']);
  });

  it('groups findings by rule, with the source lines around each finding', async () => {
    const groups = await page.$$eval('#finding-groups details', (ds) => ds.map((d) => d.querySelector('summary')!.textContent));
    expect(groups).toEqual([
      'excluded-family-leak · error · 1 finding — An excluded-family route (internal, ops, webhook, compiler, provider-token, edge) is in the contract, is published in generated API docs, or is reachable on the browser surface without its family guard.',
      'missing-auth-guard · error · 1 finding — A non-public, non-excluded route has no session/auth guard.',
      'missing-tenant-guard · error · 2 findings — A non-public, non-excluded route has no tenant guard.',
      'missing-csrf-guard · error · 1 finding — A POST/PUT/PATCH/DELETE/ALL route on the browser surface has no CSRF guard.',
      'immutable-resource-mutation · error · 1 finding — A PUT or PATCH route on deployments (an immutable resource).',
      'provider-credential-exposure · error · 1 finding — A database-metadata handler puts credential-like fields (password, secret, token, connectionString, dsn, apiKey …) in its response.',
      'uncontracted-route · info · 5 findings — A browser-surface route outside the contract (the contract grants no permission to call it).',
    ]);
    await page.click('details[data-rule="provider-credential-exposure"] > summary');
    await page.waitForSelector('details[data-rule="provider-credential-exposure"] .finding');
    const finding = await page.$eval('details[data-rule="provider-credential-exposure"] .finding', (d) => ({
      head: d.firstChild!.textContent,
      lines: [...d.querySelectorAll('pre span')].map((s) => `${s.className === 'hit' ? '>' : ' '}${s.textContent}`),
    }));
    expect(finding).toEqual({
      head: 'src/routes/databases.ts:20:7  error  GET /api/databases/ returns credential-like field connectionString in database metadata',
      lines: [' 18      name: db.name,', ' 19      engine: db.engine,', '>20      connectionString: db.provider_url,', ' 21    })),', ' 22  );'],
    });
  });

  it('shows the route tree', async () => {
    await page.click('#tree-details > summary');
    await page.waitForFunction(() => document.getElementById('tree-text')!.textContent !== '');
    expect(await page.textContent('#tree-text')).toBe(cli(['list', '--format', 'tree'], AUDIT).stdout);
  });

  it('made no network request and raised no error', () => {
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
  });
});

describe('check --format html escapes untrusted route data', () => {
  it('renders hostile paths, messages and source lines as text', async () => {
    const dir = path.join(tmp, 'hostile');
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'hostile', private: true, dependencies: { express: '^4.21.2' } }));
    const paths = ['/api/x/<img src=x onerror="window.__pwned=1">', '/api/y/</script><script>window.__pwned=2</script>', '/api/z/&lt;b&gt;\u2028'];
    fs.writeFileSync(
      path.join(dir, 'src', 'app.ts'),
      ["import express from 'express';", 'const app = express();', ...paths.map((p) => `app.post(${JSON.stringify(p)}, (req, res) => res.json(req.body));`), 'app.listen(3000);', ''].join('\n'),
    );
    const { page, requests, errors, url } = await openReport(dir, 'hostile');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$eval('img, main script, iframe', (n) => n.length)).toBe(0);
    expect((await cells(page, 2)).sort()).toEqual([...paths].sort());
    await page.click('details[data-rule="missing-auth-guard"] > summary');
    await page.waitForSelector('details[data-rule="missing-auth-guard"] .finding');
    const heads = await page.$$eval('details[data-rule="missing-auth-guard"] .finding > div', (ds) => ds.map((d) => d.textContent));
    expect(heads).toEqual(paths.map((p, i) => `src/app.ts:${i + 3}:1  error  POST ${p} has no auth guard`));
    const hit = await page.$eval('details[data-rule="missing-auth-guard"] .finding pre span.hit', (s) => s.textContent);
    expect(hit).toBe(`3app.post(${JSON.stringify(paths[0])}, (req, res) => res.json(req.body));`);
    await page.click('#tree-details > summary');
    await page.waitForFunction(() => document.getElementById('tree-text')!.textContent !== '');
    expect(await page.textContent('#tree-text')).toContain('<img src=x onerror="window.__pwned=1">');
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('check --format html with 10,000 routes', () => {
  it('renders a page of rows, narrows with the filter and pages on', async () => {
    const dir = path.join(tmp, 'big');
    fs.mkdirSync(path.join(dir, 'src', 'routes'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'big', private: true, dependencies: { express: '^4.21.2' } }));
    fs.writeFileSync(path.join(dir, 'src', 'session.ts'), 'export function requireSession(req: any, res: any, next: any) {\n  if (!req.session.userId) return res.status(401).end();\n  next();\n}\n');
    const mounts: string[] = [];
    for (let f = 0; f < 100; f++) {
      const lines = ["import { Router } from 'express';", "import { requireSession } from '../session.js';", `export const area${f} = Router();`];
      for (let i = 0; i < 100; i++) lines.push(`area${f}.${['get', 'post', 'delete', 'patch'][i % 4]}('/items${i}/:id', requireSession, async (req, res) => res.json({ id: req.params.id }));`);
      fs.writeFileSync(path.join(dir, 'src', 'routes', `area${f}.ts`), lines.join('\n') + '\n');
      mounts.push(`import { area${f} } from './routes/area${f}.js';`, `app.use('/api/area${f}', area${f});`);
    }
    fs.writeFileSync(path.join(dir, 'src', 'app.ts'), ["import express from 'express';", 'const app = express();', ...mounts, 'app.listen(3000);', ''].join('\n'));
    const { page, requests, errors, url } = await openReport(dir, 'big');
    expect(await page.textContent('#summary .card[data-stat="routes"] b')).toBe('10000');
    expect(await page.textContent('#count')).toBe('Showing 200 of 10,000 matching routes');
    expect(await page.$$eval('#route-table tbody tr', (trs) => trs.length)).toBe(200);
    await page.click('#more');
    expect(await page.$$eval('#route-table tbody tr', (trs) => trs.length)).toBe(400);
    await page.fill('#q', 'area42/items7/');
    await page.waitForFunction(() => document.querySelectorAll('#route-table tbody tr').length === 1);
    expect(await cells(page, 2)).toEqual(['/api/area42/items7/:id']);
    await page.fill('#q', 'routes/area42.ts');
    await page.waitForFunction(() => document.querySelectorAll('#route-table tbody tr').length === 100);
    await page.selectOption('#f-method', 'PATCH');
    expect(await page.textContent('#count')).toBe('Showing 25 of 25 matching routes (10,000 in all)');
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('contract coverage matrix', () => {
  it('marks drift (trailing slash, method), missing routes and auth / tenant gaps per contract route', async () => {
    const dir = path.join(tmp, 'drift');
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'drift', private: true, dependencies: { express: '^4.21.2' } }));
    fs.writeFileSync(
      path.join(dir, 'src', 'app.ts'),
      [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "import * as h from './handlers.js';",
        '',
        'const app = express();',
        'const api = express.Router({ strict: true });',
        "api.get('/sites', requireSession, requireTenant, h.listSites);",
        "api.post('/deployments/', requireSession, requireTenant, h.createDeployment);",
        "api.get('/auth/me/', requireSession, h.me);",
        "app.use('/api', api);",
        "app.get('/api/health/ready', requireSession, h.ready);",
        '',
      ].join('\n'),
    );
    const rows = coverageMatrix(await check(dir)).map((m) => [m.route, ...[m.served, m.method, m.slash, m.authCell, m.tenant].map((c) => `${c.s}:${c.t}`)]);
    expect(rows).toEqual([
      ['GET /api/health/ready', 'ok:served at src/app.ts:11', 'ok:GET', 'ok:without trailing slash', 'bad:public in the contract, guarded at src/app.ts:11', 'na:not tenant-scoped'],
      ['GET /api/auth/me/', 'ok:served at src/app.ts:9', 'ok:GET', 'ok:with trailing slash', 'ok:requireSession', 'bad:no tenant guard at src/app.ts:9'],
      [
        'GET /api/sites/',
        'bad:drift: GET /api/sites (trailing slash differs and express matches it exactly (strict routing))',
        'ok:GET',
        'bad:served only as /api/sites',
        'ok:requireSession',
        'ok:requireTenant',
      ],
      ['GET /api/deployments/', 'bad:drift: POST /api/deployments/ (method POST instead of GET)', 'bad:POST instead of GET', 'ok:with trailing slash', 'ok:requireSession', 'ok:requireTenant'],
      ['GET /api/databases/', 'bad:not served', 'na:—', 'na:—', 'na:—', 'na:—'],
    ]);
  });
});
