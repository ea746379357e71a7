/**
 * Config (SPEC section 6) on fixtures/express-config: a small app whose guards come from a
 * company package, so they are recognised by name only and every config key shows.
 * Expectations derived by hand from the SPEC and the fixture's source.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, check, cli } from './helpers/run.js';
import { findingRows, guards, routeRows } from './helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from './helpers/project.js';

const DIR = path.join(ROOT, 'fixtures', 'express-config');
const R = 'src/routes/';

const hint = (names: string, key: string) => ` (unclassified middleware that may be one: ${names}; declare it in guards.${key} or guards.ignore)`;
const outside = (route: string) => `info uncontracted-route ${route} is on the browser surface but not in the contract`;
const noAuth = (route: string, names?: string) => `error missing-auth-guard ${route} has no auth guard${names ? hint(names, 'auth') : ''}`;
const noTenant = (route: string, names?: string) => `error missing-tenant-guard ${route} has no tenant guard${names ? hint(names, 'tenant') : ''}`;
const noCsrf = (route: string, names?: string) => `error missing-csrf-guard ${route} changes state on the browser session without a CSRF guard${names ? hint(names, 'csrf') : ''}`;
const leak = (route: string, family: string, how: string, names?: string) =>
  `error excluded-family-leak ${route} is in the excluded family "${family}" and is reachable without its family guard (${how})${names ? hint(names, `family.${family}`) : ''}`;

/** Without a config file. */
const DEFAULT = [
  `${R}automation.ts:8:1 ${noAuth('POST /api/automation/deploys', 'auditLog, requireApiToken')}`,
  `${R}automation.ts:8:1 ${noCsrf('POST /api/automation/deploys', 'auditLog, requireApiToken')}`,
  `${R}automation.ts:8:1 ${outside('POST /api/automation/deploys')}`,
  `${R}cdn.ts:6:1 ${outside('POST /api/cdn/purge')}`,
  `${R}resources.ts:6:1 ${noAuth('GET /api/deployments/', 'auditLog, ensureLogin, inAccountScope')}`,
  `${R}resources.ts:6:1 ${noTenant('GET /api/deployments/', 'auditLog, ensureLogin, inAccountScope')}`,
  `${R}resources.ts:9:1 ${noAuth('GET /api/databases/', 'auditLog, ensureLogin, inAccountScope')}`,
  `${R}resources.ts:9:1 ${noTenant('GET /api/databases/', 'auditLog, ensureLogin, inAccountScope')}`,
  `${R}sites.ts:8:1 ${outside('POST /api/sites/')}`,
  `${R}webhooks.ts:7:1 ${leak('POST /webhooks/billing', 'webhook', 'unguarded', 'auditLog, verifyPayload')}`,
  `src/server.ts:17:1 ${noAuth('GET /api/status', 'auditLog')}`,
  `src/server.ts:17:1 ${noTenant('GET /api/status', 'auditLog')}`,
  `src/server.ts:17:1 ${outside('GET /api/status')}`,
];

async function run(config?: string) {
  return check(DIR, [], config ? { config } : {});
}
const without = (list: string[], ...drop: string[]) => list.filter((f) => !drop.some((d) => f.startsWith(d)));
const sorted = (list: string[]) => [...list].sort((a, b) => {
  const [fa, la] = a.split(':');
  const [fb, lb] = b.split(':');
  return fa! < fb! ? -1 : fa! > fb! ? 1 : Number(la) - Number(lb) || (a < b ? -1 : a > b ? 1 : 0);
});

describe('express-config: defaults', async () => {
  const res = await run();

  it('recognises the default guard names; unknown names are listed as candidates', () => {
    expect(routeRows(res.routes)).toEqual([
      { route: 'GET /api/auth/me/', classification: 'contract', family: null, contractRoute: 'GET /api/auth/me/', at: 'src/server.ts:18:1', guards: guards({ auth: ['requireUser'], tenant: ['scopeToTenant'], unknown: ['auditLog'] }) },
      { route: 'POST /api/automation/deploys', classification: 'browser', family: null, contractRoute: null, at: `${R}automation.ts:8:1`, guards: guards({ tenant: ['scopeToTenant'], unknown: ['auditLog', 'requireApiToken'] }) },
      { route: 'POST /api/cdn/purge', classification: 'browser', family: null, contractRoute: null, at: `${R}cdn.ts:6:1`, guards: guards({ auth: ['requireUser'], tenant: ['scopeToTenant'], csrf: ['verifyCsrf'], unknown: ['auditLog'] }) },
      { route: 'GET /api/databases/', classification: 'contract', family: null, contractRoute: 'GET /api/databases/', at: `${R}resources.ts:9:1`, guards: guards({ unknown: ['auditLog', 'ensureLogin', 'inAccountScope'] }) },
      { route: 'GET /api/deployments/', classification: 'contract', family: null, contractRoute: 'GET /api/deployments/', at: `${R}resources.ts:6:1`, guards: guards({ unknown: ['auditLog', 'ensureLogin', 'inAccountScope'] }) },
      { route: 'GET /api/health/ready', classification: 'public', family: null, contractRoute: 'GET /api/health/ready', at: 'src/server.ts:14:1', guards: guards({ unknown: ['auditLog'] }) },
      { route: 'GET /api/sites/', classification: 'contract', family: null, contractRoute: 'GET /api/sites/', at: `${R}sites.ts:7:1`, guards: guards({ auth: ['requireUser'], tenant: ['scopeToTenant'], unknown: ['auditLog'] }) },
      { route: 'POST /api/sites/', classification: 'browser', family: null, contractRoute: null, at: `${R}sites.ts:8:1`, guards: guards({ auth: ['requireUser'], tenant: ['scopeToTenant'], csrf: ['verifyCsrf'], unknown: ['auditLog'] }) },
      { route: 'GET /api/status', classification: 'browser', family: null, contractRoute: null, at: 'src/server.ts:17:1', guards: guards({ unknown: ['auditLog'] }) },
      { route: 'POST /webhooks/billing', classification: 'excluded', family: 'webhook', contractRoute: null, at: `${R}webhooks.ts:7:1`, guards: guards({ unknown: ['auditLog', 'verifyPayload'] }) },
      { route: 'POST /webhooks/deploy', classification: 'excluded', family: 'webhook', contractRoute: null, at: `${R}webhooks.ts:8:1`, guards: guards({ family: ['requireServiceToken'], unknown: ['auditLog'] }) },
      { route: 'POST /webhooks/stripe', classification: 'excluded', family: 'webhook', contractRoute: null, at: `${R}webhooks.ts:6:1`, guards: guards({ family: ['checkStripeSignature'], unknown: ['auditLog'] }) },
    ]);
  });

  it('reports exactly the expected findings', () => {
    expect(findingRows(res.findings)).toEqual(DEFAULT);
  });
});

describe('express-config: guard lists', () => {
  it('guards.auth / guards.tenant replace the default names (a /regex/ entry is a pattern); guards.ignore drops a middleware', async () => {
    const res = await run('configs/names.json');
    const pair = 'requireUser, scopeToTenant';
    expect(findingRows(res.findings)).toEqual([
      `${R}automation.ts:8:1 ${noAuth('POST /api/automation/deploys', 'requireApiToken, scopeToTenant')}`,
      `${R}automation.ts:8:1 ${noCsrf('POST /api/automation/deploys', 'requireApiToken, scopeToTenant')}`,
      `${R}automation.ts:8:1 ${noTenant('POST /api/automation/deploys', 'requireApiToken, scopeToTenant')}`,
      `${R}automation.ts:8:1 ${outside('POST /api/automation/deploys')}`,
      `${R}cdn.ts:6:1 ${noAuth('POST /api/cdn/purge', pair)}`,
      `${R}cdn.ts:6:1 ${noTenant('POST /api/cdn/purge', pair)}`,
      `${R}cdn.ts:6:1 ${outside('POST /api/cdn/purge')}`,
      `${R}sites.ts:7:1 ${noAuth('GET /api/sites/', pair)}`,
      `${R}sites.ts:7:1 ${noTenant('GET /api/sites/', pair)}`,
      `${R}sites.ts:8:1 ${noAuth('POST /api/sites/', pair)}`,
      `${R}sites.ts:8:1 ${noTenant('POST /api/sites/', pair)}`,
      `${R}sites.ts:8:1 ${outside('POST /api/sites/')}`,
      `${R}webhooks.ts:7:1 ${leak('POST /webhooks/billing', 'webhook', 'unguarded', 'verifyPayload')}`,
      `src/server.ts:17:1 ${noAuth('GET /api/status')}`,
      `src/server.ts:17:1 ${noTenant('GET /api/status')}`,
      `src/server.ts:17:1 ${outside('GET /api/status')}`,
      `src/server.ts:18:1 ${noAuth('GET /api/auth/me/', pair)}`,
      `src/server.ts:18:1 ${noTenant('GET /api/auth/me/', pair)}`,
    ]);
    const deployments = res.routes.find((r) => r.path === '/api/deployments/')!;
    expect(routeRows([deployments])[0]!.guards).toEqual(guards({ auth: ['ensureLogin'], tenant: ['inAccountScope'] }));
  });

  it('guards.bearer: a route authenticated only by a bearer token needs no CSRF guard', async () => {
    const res = await run('configs/bearer.json');
    expect(findingRows(res.findings)).toEqual(without(DEFAULT, `${R}automation.ts:8:1 error`));
    const automation = res.routes.find((r) => r.path === '/api/automation/deploys')!;
    expect(routeRows([automation])[0]!.guards).toEqual(
      guards({ auth: ['requireApiToken'], bearer: ['requireApiToken'], tenant: ['scopeToTenant'], unknown: ['auditLog'] }),
    );
  });

  it("guards.family.webhook replaces the webhook family's names; the generic family names still apply", async () => {
    const res = await run('configs/webhook-family.json');
    expect(findingRows(res.findings)).toEqual(
      sorted([
        ...without(DEFAULT, `${R}webhooks.ts:7:1`),
        `${R}webhooks.ts:6:1 ${leak('POST /webhooks/stripe', 'webhook', 'unguarded', 'auditLog, checkStripeSignature')}`,
      ]),
    );
  });

  it('guards.family.default replaces the generic family names', async () => {
    const res = await run('configs/no-generic-family.json');
    expect(findingRows(res.findings)).toEqual(
      sorted([...DEFAULT, `${R}webhooks.ts:8:1 ${leak('POST /webhooks/deploy', 'webhook', 'unguarded', 'auditLog, requireServiceToken')}`]),
    );
  });
});

describe('express-config: publicRoutes, families, rules', () => {
  it('publicRoutes makes a route public; a contract session route listed there is an auth mismatch', async () => {
    const res = await run('configs/public-routes.json');
    expect(findingRows(res.findings)).toEqual([
      ...without(DEFAULT, 'src/server.ts:17:1'),
      'src/server.ts:18:1 error contract-auth-mismatch GET /api/auth/me/ needs a session in the contract but is listed in publicRoutes',
    ]);
    expect(res.routes.filter((r) => r.classification === 'public').map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/auth/me/',
      'GET /api/health/ready',
      'GET /api/status',
    ]);
  });

  it('families overrides a family\'s path segments', async () => {
    const res = await run('configs/families.json');
    expect(findingRows(res.findings)).toEqual(
      sorted([
        ...without(DEFAULT, `${R}cdn.ts:6:1`),
        `${R}cdn.ts:6:1 ${leak('POST /api/cdn/purge', 'edge', 'guarded only by requireUser, scopeToTenant, verifyCsrf', 'auditLog')}`,
      ]),
    );
    const cdn = res.routes.find((r) => r.path === '/api/cdn/purge')!;
    expect([cdn.classification, cdn.family]).toEqual(['excluded', 'edge']);
  });

  it('rules: severities and off; info findings never fail the run', async () => {
    const res = await run('configs/severities.json');
    const as = (sev: string, f: string) => f.replace(/^error /, `${sev} `);
    expect(findingRows(res.findings)).toEqual([
      `${R}automation.ts:8:1 ${as('warning', noAuth('POST /api/automation/deploys', 'auditLog, requireApiToken'))}`,
      `${R}automation.ts:8:1 ${as('info', noCsrf('POST /api/automation/deploys', 'auditLog, requireApiToken'))}`,
      `${R}resources.ts:6:1 ${as('warning', noAuth('GET /api/deployments/', 'auditLog, ensureLogin, inAccountScope'))}`,
      `${R}resources.ts:6:1 ${as('warning', noTenant('GET /api/deployments/', 'auditLog, ensureLogin, inAccountScope'))}`,
      `${R}resources.ts:9:1 ${as('warning', noAuth('GET /api/databases/', 'auditLog, ensureLogin, inAccountScope'))}`,
      `${R}resources.ts:9:1 ${as('warning', noTenant('GET /api/databases/', 'auditLog, ensureLogin, inAccountScope'))}`,
      `src/server.ts:17:1 ${as('warning', noAuth('GET /api/status', 'auditLog'))}`,
      `src/server.ts:17:1 ${as('warning', noTenant('GET /api/status', 'auditLog'))}`,
    ]);
    expect(res.summary).toMatchObject({ errors: 0, warnings: 7, infos: 1 });
  });
});

describe('express-config: CLI exit codes', () => {
  it('0 without errors, 1 with errors or more warnings than --max-warnings', () => {
    expect(cli(['check'], DIR).code).toBe(1);
    expect(cli(['check', '--config', 'configs/severities.json'], DIR).code).toBe(0);
    expect(cli(['check', '--config', 'configs/severities.json', '--max-warnings', '7'], DIR).code).toBe(0);
    const over = cli(['check', '--config', 'configs/severities.json', '--max-warnings', '6'], DIR);
    expect(over.code).toBe(1);
    expect(over.stdout.trimEnd().split('\n').at(-1)).toBe('⚠ 8 problems (0 errors, 7 warnings, 1 info) — 12 routes in 7 files, contract browser-control-plane@1.0.0');
  });

  it('--max-warnings must be a whole number', () => {
    const r = cli(['check', '--max-warnings', 'many'], DIR);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--config is honoured through the CLI, with --format json', () => {
    const r = cli(['check', '--config', 'configs/bearer.json', '--format', 'json'], DIR);
    expect(r.code).toBe(1);
    expect(findingRows(JSON.parse(r.stdout).findings)).toEqual(without(DEFAULT, `${R}automation.ts:8:1 error`));
  });
});

describe('express-config: invalid config → exit 2, one line naming the file and the key', () => {
  const cases: [string, string][] = [
    ['unknown-key.json', 'invalid config: unknown key "guard"'],
    ['unknown-nested-key.json', 'invalid config: unknown key "guards.admin"'],
    ['unknown-family.json', 'invalid config: unknown key "guards.family.webhooks" (families: internal, ops, webhook, compiler, provider-token, edge, or default)'],
    ['wrong-type.json', 'invalid config: key "publicRoutes" must be array'],
    ['bad-route-spec.json', 'invalid config: key "publicRoutes.0" must look like "METHOD /path"'],
    ['invalid-regex.json', 'invalid config: key "guards.tenant" has an invalid regular expression /(unclosed/'],
    ['unknown-rule.json', 'invalid config: unknown rule "rules.missing-auth"'],
    ['bad-severity.json', 'invalid config: key "rules.missing-auth-guard" must be one of error, warning, info, off'],
    ['values-not-string.json', 'invalid config: key "values.process.env.API_PREFIX" must be string'],
  ];
  for (const [file, message] of cases) {
    it(file, () => {
      const r = cli(['check', '--config', `configs/invalid/${file}`], DIR);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`route-surface: configs/invalid/${file}: ${message}\n`);
    });
  }

  it('malformed JSON: file, line and column', () => {
    const r = cli(['check', '--config', 'configs/invalid/malformed.json'], DIR);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('route-surface: configs/invalid/malformed.json:4:3: invalid JSON in config: Expected double-quoted property name\n');
  });

  it('a --config file that does not exist', () => {
    const r = cli(['check', '--config', 'configs/missing.json'], DIR);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('route-surface: configs/missing.json: cannot read config (ENOENT)\n');
  });

  it('the same validation in-process (list uses it too)', async () => {
    await expect(run('configs/invalid/unknown-key.json')).rejects.toThrow('configs/invalid/unknown-key.json: invalid config: unknown key "guard"');
    expect(cli(['list', '--config', 'configs/invalid/wrong-type.json'], DIR).code).toBe(2);
  });
});

describe('guard names as written', () => {
  // Ghost-like: middleware reached through modules, `gate.check` of `exports.check = function check…`,
  // `auth.util.logRequest` of an object whose getter returns the module (`get util() { return require('./util') }`)
  const files = {
    'package.json': EXPRESS_PACKAGE,
    'src/gate.js': `exports.check = function check(req, res, next) {
  if (req.get('x-admin-region') !== process.env.ADMIN_REGION) return res.status(400).json({ error: 'wrong region' });
  next();
};
`,
    'src/auth/index.js': `module.exports = {
  get util() {
    return require('./util');
  },
};
`,
    'src/auth/util.js': `exports.logRequest = function logRequest(req, res, next) {
  console.log(req.method, req.originalUrl);
  next();
};
`,
    'src/app.js': `const express = require('express');
const gate = require('./gate');
const auth = require('./auth');

const app = express();
app.post('/items', gate.check, auth.util.logRequest, (req, res) => res.status(201).json({}));
module.exports = app;
`,
  };

  it('a dotted name the config lists (`gate.check`, as findings print it) is the guard of that name, its definition found', async () => {
    const dir = writeProject({ ...files, 'route-surface.config.json': JSON.stringify({ guards: { csrf: ['gate.check'] } }) });
    const res = await check(dir, [], { config: path.join(dir, 'route-surface.config.json') });
    expect(res.routes.find((r) => r.path === '/items')!.guards.map((g) => `${g.name}:${g.kinds.join('+')}`)).toEqual(['gate.check:csrf']);
    expect(res.findings.some((f) => f.ruleId === 'missing-csrf-guard')).toBe(false);
  });

  it('a function reached through a module a getter returns is named by its own name, not the variable it is read through', async () => {
    const res = await check(writeProject(files));
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.message)).toEqual(['POST /items has no auth guard (unclassified middleware that may be one: gate.check; declare it in guards.auth or guards.ignore)']);
  });
});
