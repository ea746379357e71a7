/**
 * Config and contract: every invalid form is exit 2 with one line naming the file and the key
 * (and, for JSON syntax, the line and column) — never a stack trace, never a partial report.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanProjects, cli, project, write } from './helpers.js';

afterAll(cleanProjects);

function expectUsageError(args: string[], files: Record<string, string>, stderr: string): void {
  const dir = project(files);
  for (const cmd of ['check', 'list']) {
    const r = cli([cmd, ...args], dir);
    expect({ cmd, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ cmd, code: 2, stdout: '', stderr: `route-surface: ${stderr}\n` });
  }
}

describe('invalid config files', () => {
  const cases: [string, string, string][] = [
    ['bad JSON: a trailing comma', '{\n  "include": ["src/**/*.ts"],\n  "rules": { "uncontracted-route": "off", }\n}\n', 'route-surface.config.json:3:43: invalid JSON in config: Expected double-quoted property name'],
    ['bad JSON: truncated', '{\n  "guards": {\n    "auth": ["requireSession",', 'route-surface.config.json:3:31: invalid JSON in config: Unexpected end of JSON input'],
    ['bad JSON: empty file', '', 'route-surface.config.json:1:1: invalid JSON in config: Unexpected end of JSON input'],
    ['bad JSON: two documents', '{ "include": ["src"] }\n{ "exclude": [] }\n', 'route-surface.config.json:2:1: invalid JSON in config: Unexpected non-whitespace character after JSON'],
    ['not an object', '["src/**/*.ts"]', 'route-surface.config.json: invalid config: key "(root)" must be object'],
    ['unknown key', '{ "includes": ["src/**/*.ts"] }', 'route-surface.config.json: invalid config: unknown key "includes"'],
    ['unknown nested key', '{ "guards": { "auth": ["requireSession"], "sesion": [] } }', 'route-surface.config.json: invalid config: unknown key "guards.sesion"'],
    ['unknown budget', '{ "budgets": { "maxFiles": 10 } }', 'route-surface.config.json: invalid config: unknown key "budgets.maxFiles"'],
    ['wrong type', '{ "include": "src/**/*.ts" }', 'route-surface.config.json: invalid config: key "include" must be array'],
    ['wrong item type', '{ "guards": { "tenant": ["requireTenant", 42] } }', 'route-surface.config.json: invalid config: key "guards.tenant.1" must be string'],
    ['wrong budget type', '{ "budgets": { "maxFileBytes": "2MB" } }', 'route-surface.config.json: invalid config: key "budgets.maxFileBytes" must be integer'],
    ['budget out of range', '{ "budgets": { "maxFileMs": 0 } }', 'route-surface.config.json: invalid config: key "budgets.maxFileMs" must be >= 1'],
    ['bad severity', '{ "rules": { "missing-csrf-guard": "warn" } }', 'route-surface.config.json: invalid config: key "rules.missing-csrf-guard" must be one of error, warning, info, off'],
    ['unknown rule', '{ "rules": { "missing-cors-guard": "off" } }', 'route-surface.config.json: invalid config: unknown rule "rules.missing-cors-guard"'],
    ['invalid regex', '{ "guards": { "auth": ["/^require(Session/"] } }', 'route-surface.config.json: invalid config: key "guards.auth" has an invalid regular expression /^require(Session/'],
    ['invalid regex in a family list', '{ "guards": { "family": { "webhook": ["/[z-a]/"] } } }', 'route-surface.config.json: invalid config: key "guards.family.webhook" has an invalid regular expression /[z-a]/'],
    ['malformed public route', '{ "publicRoutes": ["/api/health/ready"] }', 'route-surface.config.json: invalid config: key "publicRoutes.0" must look like "METHOD /path"'],
  ];
  it.each(cases)('%s', (_name, text, stderr) => {
    expectUsageError([], { 'route-surface.config.json': text }, stderr);
  });

  it('names a config given with --config as written, and one that cannot be read', () => {
    expectUsageError(['--config', 'ci/rs.json'], { 'ci/rs.json': '{ "exclude": [1] }' }, 'ci/rs.json: invalid config: key "exclude.0" must be string');
    expectUsageError(['--config', 'ci/missing.json'], {}, 'ci/missing.json: cannot read config (ENOENT)');
    expectUsageError(['--config', 'src'], {}, 'src: cannot read config (EISDIR)');
  });

  it('reads a config with a BOM', () => {
    const dir = project();
    write(dir, 'route-surface.config.json', '\uFEFF{ "rules": { "uncontracted-route": "off" } }');
    expect(cli(['check'], dir).code).toBe(0);
  });
});

describe('invalid contracts', () => {
  const route = (extra: object = {}): object => ({ method: 'GET', path: '/api/sites/', auth: 'session', tenantScoped: true, resource: 'site', ...extra });
  const contract = (routes: object[], extra: object = {}): string => JSON.stringify({ name: 'dashboard', version: '2.0.0', routes, ...extra }, null, 2);
  const cases: [string, string, string][] = [
    ['bad JSON', '{ "name": "dashboard", "routes": [ }', "contract.json:1:36: invalid JSON in contract: Unexpected token '}'"],
    ['bad JSON: a trailing comma in an array', '{\n  "name": "dashboard",\n  "routes": [\n    { "method": "GET", "path": "/api/sites/" },\n  ]\n}', "contract.json:5:3: invalid JSON in contract: Unexpected token ']'"],
    ['duplicate routes', contract([route(), route({ method: 'get' })]), 'contract.json: invalid contract: key "routes[1]" duplicates the route GET /api/sites/'],
    ['a route in an excluded family', contract([route(), route({ path: '/api/internal/metrics' })]), 'contract.json: invalid contract: key "routes[1].path" (/api/internal/metrics) is in the excluded family "internal"'],
    [
      'a route in a family the contract itself declares',
      contract([route()], { excludedFamilies: { legacy: ['SITES'] } }),
      'contract.json: invalid contract: key "routes[0].path" (/api/sites/) is in the excluded family "legacy"',
    ],
    ['unknown key', contract([route({ scope: 'tenant' })]), 'contract.json: invalid contract: unknown key "routes[0].scope"'],
    ['unknown top-level key', contract([route()], { owner: 'platform' }), 'contract.json: invalid contract: unknown key "owner"'],
    ['wrong type', contract([route({ tenantScoped: 'yes' })]), 'contract.json: invalid contract: key "routes[0].tenantScoped" must be a boolean'],
    ['routes not an array', JSON.stringify({ name: 'dashboard', version: '2.0.0', routes: {} }), 'contract.json: invalid contract: key "routes" must be an array'],
    ['a path without its slash', contract([route({ path: 'api/sites/' })]), 'contract.json: invalid contract: key "routes[0].path" must be a path starting with /'],
  ];
  it.each(cases)('%s', (_name, text, stderr) => {
    expectUsageError(['--contract', 'contract.json'], { 'contract.json': text }, stderr);
  });

  it('rejects an unknown built-in contract and a contract file that does not exist', () => {
    expectUsageError(['--contract', 'builtin:browser-control-plane@2'], {}, 'unknown built-in contract builtin:browser-control-plane@2 (known: builtin:browser-control-plane@1)');
    expectUsageError(['--contract', 'contracts/v9.json'], {}, 'contracts/v9.json: cannot read contract (ENOENT)');
  });
});
