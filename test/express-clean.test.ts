/**
 * fixtures/express-clean: a realistic control plane that follows the contract. Every
 * expectation below was derived by hand from the SPEC and the fixture's source.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, check, cli } from './helpers/run.js';
import { findingRows, routeRows, row } from './helpers/expect.js';

const DIR = path.join(ROOT, 'fixtures', 'express-clean');
const R = 'src/routes/';
const SESSION = { auth: ['rejectAnonymous'] }; // app.use('/api', rejectAnonymous, api): by behaviour (401)
// requireTenant hands a 403 to next when the session has no user (`if (!user || !tenantId) return
// next(new HttpError(403, …))`): it refuses anonymous requests too, so it authenticates as well
const TENANT = { auth: ['rejectAnonymous', 'requireTenant'], tenant: ['requireTenant'] };

/** Sorted by path, then method (SPEC section 3). */
const ROUTES = [
  // passport.authenticate is auth by package; both are listed in publicRoutes
  row('GET /api/auth/callback', 'public', `${R}auth.ts:21:1`, { auth: ['passport.authenticate'] }),
  row('GET /api/auth/login', 'public', `${R}auth.ts:20:1`),
  // in-handler: `await requireSession(req)`; `req.session.destroy()` is not a guard
  row('POST /api/auth/logout', 'browser', `${R}auth.ts:27:1`, { auth: ['requireSession'], csrf: ['protectForms'] }),
  // non-strict router: '/me' also serves the contract's '/api/auth/me/'
  row('GET /api/auth/me', 'contract', `${R}auth.ts:24:1`, { auth: ['requireSession'], tenant: ['requireTenantMembership'] }, 'GET /api/auth/me/'),
  // registerBillingRoutes(api, …): a registration function; requirePlan (unknown package) is unclassified
  row('POST /api/billing/checkout', 'browser', `${R}billing.ts:15:3`, { ...TENANT, csrf: ['protectForms'], unknown: ['requirePlan'] }),
  row('GET /api/billing/invoices', 'browser', `${R}billing.ts:10:3`, { ...TENANT, unknown: ['requirePlan'] }),
  // createDatabasesRouter(deps): a factory router; auditTrail never ends the request (not a guard)
  row('GET /api/databases/', 'contract', `${R}databases.ts:10:3`, { ...TENANT }, 'GET /api/databases/'),
  row('POST /api/databases/', 'browser', `${R}databases.ts:19:3`, { ...TENANT, csrf: ['protectForms'] }),
  row('GET /api/databases/:databaseId', 'browser', `${R}databases.ts:15:3`, { ...TENANT }),
  // ...tenantWrite: an imported array of guards
  row('POST /api/databases/:databaseId/credentials/rotate', 'browser', `${R}databases.ts:24:3`, { ...TENANT, csrf: ['protectForms'] }),
  // strict router, but '/' at a mount point serves both '/api/deployments' and '/api/deployments/'
  row('GET /api/deployments/', 'contract', `${R}deployments.ts:11:1`, { ...TENANT }, 'GET /api/deployments/'),
  row('POST /api/deployments/', 'browser', `${R}deployments.ts:22:1`, { ...TENANT, csrf: ['protectForms'] }),
  row('GET /api/deployments/:deploymentId', 'browser', `${R}deployments.ts:17:1`, { ...TENANT }),
  row('POST /api/deployments/:deploymentId/rollback', 'browser', `${R}deployments.ts:29:1`, { ...TENANT, csrf: ['protectForms'] }),
  row('GET /api/health/live', 'public', `${R}health.ts:14:1`),
  row('GET /api/health/ready', 'public', `${R}health.ts:8:1`, {}, 'GET /api/health/ready'),
  // ensureSameAccount: a tenant guard by behaviour (compares the tenant, answers 403), at a nested mount
  row('GET /api/sites/', 'contract', `${R}sites.ts:42:19`, { ...SESSION, tenant: ['ensureSameAccount'] }, 'GET /api/sites/'),
  row('POST /api/sites/', 'browser', `${R}sites.ts:42:34`, { ...SESSION, tenant: ['ensureSameAccount'], csrf: ['protectForms'] }),
  row('DELETE /api/sites/:siteId', 'browser', `${R}sites.ts:48:4`, { ...SESSION, tenant: ['ensureSameAccount'], csrf: ['protectForms'] }),
  row('GET /api/sites/:siteId', 'browser', `${R}sites.ts:46:4`, { ...SESSION, tenant: ['ensureSameAccount'] }),
  row('PATCH /api/sites/:siteId', 'browser', `${R}sites.ts:47:4`, { ...SESSION, tenant: ['ensureSameAccount'], csrf: ['protectForms'] }),
  // an array of template-literal paths built from a const
  row('GET /api/sites/:siteId/custom-domains', 'browser', `${R}sites.ts:50:1`, { ...SESSION, tenant: ['ensureSameAccount'] }),
  row('GET /api/sites/:siteId/domains', 'browser', `${R}sites.ts:50:1`, { ...SESSION, tenant: ['ensureSameAccount'] }),
  // requireServiceToken: a generic family guard by name, and auth by behaviour (401)
  row('POST /internal/jobs/reindex', 'excluded:internal', `${R}internal.ts:7:1`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
  row('GET /internal/tenants/:tenantId/usage', 'excluded:internal', `${R}internal.ts:13:1`, { auth: ['requireServiceToken'], bearer: ['requireServiceToken'], family: ['requireServiceToken'] }),
  // registerOpsRoutes(app, deps): registered on the app through a parameter
  row('POST /ops/maintenance', 'excluded:ops', `${R}ops.ts:12:3`, { family: ['requireOperator'] }),
  row('GET /ops/queues', 'excluded:ops', `${R}ops.ts:7:3`, { family: ['requireOperator'] }),
  row('POST /webhooks/github', 'excluded:webhook', `${R}webhooks.ts:14:1`, { family: ['verifyGithubHmac'] }),
  row('POST /webhooks/stripe', 'excluded:webhook', `${R}webhooks.ts:7:1`, { family: ['verifyStripeSignature'] }),
];

const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

/** Info findings only: every browser route outside the contract. Sorted by file, line, rule, column, message. */
const FINDINGS = [
  `${R}auth.ts:27:1 info uncontracted-route ${outside('POST /api/auth/logout')}`,
  `${R}billing.ts:10:3 info uncontracted-route ${outside('GET /api/billing/invoices')}`,
  `${R}billing.ts:15:3 info uncontracted-route ${outside('POST /api/billing/checkout')}`,
  `${R}databases.ts:15:3 info uncontracted-route ${outside('GET /api/databases/:databaseId')}`,
  `${R}databases.ts:19:3 info uncontracted-route ${outside('POST /api/databases/')}`,
  `${R}databases.ts:24:3 info uncontracted-route ${outside('POST /api/databases/:databaseId/credentials/rotate')}`,
  `${R}deployments.ts:17:1 info uncontracted-route ${outside('GET /api/deployments/:deploymentId')}`,
  `${R}deployments.ts:22:1 info uncontracted-route ${outside('POST /api/deployments/')}`,
  `${R}deployments.ts:29:1 info uncontracted-route ${outside('POST /api/deployments/:deploymentId/rollback')}`,
  `${R}sites.ts:42:34 info uncontracted-route ${outside('POST /api/sites/')}`,
  `${R}sites.ts:46:4 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
  `${R}sites.ts:47:4 info uncontracted-route ${outside('PATCH /api/sites/:siteId')}`,
  `${R}sites.ts:48:4 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
  `${R}sites.ts:50:1 info uncontracted-route ${outside('GET /api/sites/:siteId/custom-domains')}`,
  `${R}sites.ts:50:1 info uncontracted-route ${outside('GET /api/sites/:siteId/domains')}`,
];

const SUMMARY = { files: 28, routes: 29, errors: 0, warnings: 0, infos: 15 };

describe('fixtures/express-clean (in-process)', async () => {
  const res = await check(DIR);

  it('extracts exactly the served routes, with their guards per kind', () => {
    expect(routeRows(res.routes)).toEqual(ROUTES);
  });

  it('serves all five contract routes', () => {
    expect(res.routes.filter((r) => r.contractRoute).map((r) => r.contractRoute).sort()).toEqual([
      'GET /api/auth/me/',
      'GET /api/databases/',
      'GET /api/deployments/',
      'GET /api/health/ready',
      'GET /api/sites/',
    ]);
  });

  it('reports only info findings: the uncontracted browser routes', () => {
    expect(findingRows(res.findings)).toEqual(FINDINGS);
    expect(res.summary).toEqual(SUMMARY);
  });

  it('honours the suppression of missing-tenant-guard on the logout route', () => {
    const logout = res.routes.find((r) => r.method === 'POST' && r.path === '/api/auth/logout')!;
    expect(logout.guards.some((g) => g.kinds.includes('tenant'))).toBe(false);
    expect(res.findings.filter((f) => f.ruleId === 'missing-tenant-guard' || f.ruleId === 'unused-suppression')).toEqual([]);
  });

  it('records how each guard is applied', () => {
    const byRoute = (m: string, p: string) => res.routes.find((r) => r.method === m && r.path === p)!.guards.map((g) => [g.name, g.mechanism, g.file, g.line]);
    expect(byRoute('GET', '/api/sites/')).toEqual([
      ['rejectAnonymous', 'mount-middleware', 'src/app.ts', 34],
      ['ensureSameAccount', 'mount-middleware', 'src/routes/api.ts', 13],
    ]);
    expect(byRoute('GET', '/api/deployments/')).toEqual([
      ['rejectAnonymous', 'mount-middleware', 'src/app.ts', 34],
      ['requireTenant', 'router.use', 'src/routes/deployments.ts', 9],
    ]);
    expect(byRoute('GET', '/api/auth/me')).toEqual([
      ['requireSession', 'in-handler', 'src/routes/auth.ts', 10],
      ['requireTenantMembership', 'in-handler', 'src/routes/auth.ts', 11],
    ]);
    expect(byRoute('GET', '/api/billing/invoices')).toEqual([
      ['rejectAnonymous', 'mount-middleware', 'src/app.ts', 34],
      ['requirePlan', 'router.use', 'src/routes/billing.ts', 8],
      ['requireTenant', 'route-middleware', 'src/routes/billing.ts', 10],
    ]);
    expect(byRoute('POST', '/internal/jobs/reindex')).toEqual([['requireServiceToken', 'mount-middleware', 'src/app.ts', 23]]);
  });
});

describe('fixtures/express-clean (CLI)', () => {
  it('check --format json prints exactly the expected routes and findings, exit 0', () => {
    const r = cli(['check', '--format', 'json'], DIR);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.tool.name).toBe('route-surface');
    expect(out.contract).toEqual({ name: 'browser-control-plane', version: '1.0.0' });
    expect(routeRows(out.routes)).toEqual(ROUTES);
    expect(findingRows(out.findings)).toEqual(FINDINGS);
    expect(out.summary).toEqual(SUMMARY);
  });

  it('stylish: infos only, exit 0, and a summary naming routes, files and the contract', () => {
    const r = cli(['check'], DIR);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('⚠ 15 problems (0 errors, 0 warnings, 15 infos) — 29 routes in 28 files, contract browser-control-plane@1.0.0');
  });

  it('--quiet: no findings left, the success line', () => {
    const r = cli(['check', '--quiet'], DIR);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ no problems (29 routes in 28 files, contract browser-control-plane@1.0.0)\n');
  });

  it('--max-warnings 0 passes: there are no warnings', () => {
    expect(cli(['check', '--max-warnings', '0'], DIR).code).toBe(0);
  });

  it('a reader that closes the pipe early (check | head) costs no stack trace and keeps the exit code', async () => {
    const child = spawn(process.execPath, [BIN, 'check', '--format', 'json'], { cwd: DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    // closed before the child has loaded: every write it makes to stdout meets a closed pipe
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('--output writes through a link to the file it leads to, and into a FIFO without replacing it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-output-'));
    const quiet = '✔ no problems (29 routes in 28 files, contract browser-control-plane@1.0.0)\n';
    try {
      const report = path.join(dir, 'report.txt');
      const link = path.join(dir, 'link.txt');
      fs.symlinkSync(report, link); // dangling until the report is written
      expect(cli(['check', '--quiet', '--output', link], DIR).code).toBe(0);
      fs.writeFileSync(report, 'an older report\n');
      expect(cli(['check', '--quiet', '--output', link], DIR).code).toBe(0);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(report, 'utf8')).toBe(quiet);
      expect(fs.readdirSync(dir).sort()).toEqual(['link.txt', 'report.txt']);

      const fifo = path.join(dir, 'fifo');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
      let read = '';
      reader.stdout.on('data', (d: Buffer) => (read += d.toString()));
      const readerDone = new Promise((resolve) => reader.on('close', resolve));
      const code = await new Promise((resolve) => spawn(process.execPath, [BIN, 'check', '--quiet', '--output', fifo], { cwd: DIR, stdio: 'ignore' }).on('close', resolve));
      const stillFifo = fs.lstatSync(fifo).isFIFO();
      if (!stillFifo) reader.kill(); // replaced: the reader waits on the old FIFO for ever
      await readerDone;
      expect(code).toBe(0);
      expect(stillFifo).toBe(true);
      expect(read).toBe(quiet);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(fs.existsSync('/dev/full'))('a report that cannot be written (a full disk) fails the run: exit 2, one line', () => {
    const full = fs.openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'check'], { cwd: DIR, stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.stderr).toBe('route-surface: cannot write the report to stdout (ENOSPC)\n');
      expect(r.status).toBe(2);
    } finally {
      fs.closeSync(full);
    }
  });
});
