import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers/run.js';

const AUDIT = path.join(ROOT, 'fixtures', 'audit');

describe('list --format tree', () => {
  it('prints one path tree per app with methods, classification and guard badges (plain when piped)', () => {
    const r = cli(['list', '--format', 'tree'], AUDIT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'app (express, 11 routes)',
        '└── /',
        '    ├── api/',
        '    │   ├── auth/me/ GET contract [auth tenant]',
        '    │   ├── databases/ GET contract [auth !tenant unknown]',
        '    │   ├── deployments/ GET contract [auth tenant]',
        '    │   │   └── :deploymentId PATCH browser [auth tenant csrf]',
        '    │   ├── health/ready GET public',
        '    │   ├── internal/cache/purge POST excluded:internal [auth !family]',
        '    │   └── sites/ GET contract [auth tenant]',
        '    │       │      POST browser [auth tenant csrf]',
        '    │       └── :siteId DELETE browser [auth tenant !csrf]',
        '    │                   GET browser [auth tenant]',
        '    └── webhooks/billing POST excluded:webhook [bearer family]',
        '',
        'opsApp (express, 2 routes)',
        '└── /',
        '    ├── api/health/ready GET public',
        '    └── metrics GET browser [!auth !tenant]',
        '',
        '13 routes',
        '',
      ].join('\n'),
    );
  });

  it('colours badges on a colour terminal: present green, missing red, unknown yellow', () => {
    const r = cli(['list', '--format', 'tree', '--filter', 'databases'], AUDIT, { NO_COLOR: '', FORCE_COLOR: '1' });
    expect(r.stdout).toContain('databases/ \x1b[1mGET\x1b[22m \x1b[36mcontract\x1b[39m [\x1b[32mauth\x1b[39m \x1b[31m!tenant\x1b[39m \x1b[33munknown\x1b[39m]');
    expect(cli(['list', '--format', 'tree', '--no-color'], AUDIT, { NO_COLOR: '', FORCE_COLOR: '1' }).stdout).not.toContain('\x1b[');
  });

  it('badges a missing guard exactly where the rules report one: no !csrf on a route a bearer guard runs for, beside another auth check', () => {
    const dir = path.join(ROOT, 'fixtures', 'rules', 'missing-csrf-guard', 'valid', 'role-check-after-bearer-token');
    const r = cli(['list', '--format', 'tree'], dir);
    expect(r.stdout).toBe(['app (fastify, 2 routes)', '└── /api/', '    ├── buckets POST browser [auth !tenant]', '    └── buckets/:bucketId DELETE browser [auth !tenant]', '', '2 routes', ''].join('\n'));
    expect(cli(['check', '--format', 'json'], dir).stdout).not.toContain('missing-csrf-guard');
  });

  it('folds a single-route tree into one line', () => {
    const r = cli(['list', '--format', 'tree', '--method', 'post', '--filter', 'webhooks'], AUDIT);
    expect(r.stdout).toBe('app (express, 1 route)\n└── /webhooks/billing POST excluded:webhook [bearer family]\n\n1 route\n');
  });
});

describe('list filters apply to every format', () => {
  it('--classification takes one value or a list', () => {
    const json = JSON.parse(cli(['list', '--format', 'json', '--classification', 'excluded,public'], AUDIT).stdout) as { routes: { method: string; path: string; file: string }[] };
    expect(json.routes.map((r) => `${r.method} ${r.path} ${r.file}`)).toEqual([
      'GET /api/health/ready src/ops.ts',
      'GET /api/health/ready src/routes/health.ts',
      'POST /api/internal/cache/purge src/routes/internal.ts',
      'POST /webhooks/billing src/routes/webhooks.ts',
    ]);
  });

  it('--family keeps the routes of that excluded family', () => {
    const r = cli(['list', '--family', 'internal'], AUDIT);
    expect(r.stdout).toBe(
      [
        'METHOD  PATH                       CLASS              GUARDS  LOCATION',
        'POST    /api/internal/cache/purge  excluded:internal  auth    src/routes/internal.ts:6',
        '',
        '1 route',
        '',
      ].join('\n'),
    );
  });

  it('--method (list, any case), --filter and --classification combine', () => {
    const r = cli(['list', '--format', 'tree', '--method', 'get,delete', '--filter', '/api/sites', '--classification', 'browser'], AUDIT);
    expect(r.stdout).toBe(
      ['app (express, 2 routes)', '└── /api/sites/:siteId DELETE browser [auth tenant !csrf]', '                       GET browser [auth tenant]', '', '2 routes', ''].join('\n'),
    );
  });

  it('an unknown classification, family or method is a usage error (exit 2, one line)', () => {
    const a = cli(['list', '--classification', 'private'], AUDIT);
    expect([a.code, a.stdout, a.stderr]).toEqual([2, '', 'route-surface: --classification: unknown classification "private" (one of: contract, public, browser, excluded)\n']);
    const b = cli(['list', '--family', 'billing'], AUDIT);
    expect([b.code, b.stdout, b.stderr]).toEqual([2, '', 'route-surface: --family: unknown family "billing" (one of: internal, ops, webhook, compiler, provider-token, edge)\n']);
    const c = cli(['list', '--method', 'GET,/x'], AUDIT);
    expect([c.code, c.stderr]).toEqual([2, 'route-surface: --method: not an HTTP method: "/x"\n']);
    const d = cli(['list', '--format', 'graph'], AUDIT);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain("option '--format <format>' argument 'graph' is invalid. Allowed choices are table, tree, json.");
  });

  it('a family declared in the config is a valid --family', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-audit-'));
    const config = path.join(dir, 'route-surface.config.json');
    fs.writeFileSync(config, JSON.stringify({ families: { metrics: ['metrics'] } }));
    const r = cli(['list', '--family', 'metrics', '--format', 'tree', '--config', config], AUDIT);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('opsApp (express, 1 route)\n└── /metrics GET excluded:metrics [!family]\n\n1 route\n');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('list says what it cannot show', () => {
  const RULES_DIR = path.join(ROOT, 'fixtures', 'rules');

  it('under a table: the places check reports as unresolved-route, three named, the rest counted', () => {
    const dir = path.join(RULES_DIR, 'unresolved-route', 'invalid', 'registration-function-never-called');
    const r = cli(['list'], dir);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        'METHOD  PATH  CLASS  GUARDS  LOCATION',
        '',
        '0 routes',
        'routes not fully known at 3 places (admin.ts:4, errors.ts:5, stats.ts:4): `route-surface check` reports each as unresolved-route',
        '',
      ].join('\n'),
    );
  });

  it('under a tree: a file with a parse error, whose routes may be missing', () => {
    const dir = path.join(RULES_DIR, 'parse-error', 'invalid', 'unclosed-function');
    const r = cli(['list', '--format', 'tree', '--filter', '/api/sites'], dir);
    expect(r.stdout).toBe(
      [
        'app (express, 1 route)',
        '└── /api/sites/ GET contract [auth !tenant]',
        '',
        '1 route',
        '1 file with a parse error (billing.ts), whose routes may be missing here: `route-surface check` reports it as parse-error',
        '',
      ].join('\n'),
    );
  });

  it('beside JSON on stderr, the JSON unchanged; --quiet keeps only what check reports as an error', () => {
    const dir = path.join(RULES_DIR, 'unresolved-route', 'invalid', 'router-never-mounted');
    const r = cli(['list', '--format', 'json'], dir);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['routes']);
    expect(r.stderr).toBe('route-surface: routes not fully known at 1 place (reports.ts:3): `route-surface check` reports it as unresolved-route\n');
    expect(cli(['list', '--format', 'json', '--quiet'], dir).stderr).toBe('');
    expect(cli(['list', '--quiet'], dir).stdout.endsWith('\n1 route\n')).toBe(true);
  });
});
