import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract.js';
import { cli, ROOT } from './helpers/run.js';

const GATE = path.join(ROOT, 'fixtures', 'gate');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-openapi-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const routeRows = (file: string, cwd = dir) => loadContract(file, cwd).routes.map((r) => `${r.method} ${r.path} ${r.auth} tenant=${r.tenantScoped} resource=${r.resource || '-'} line=${r.line}`);

describe('OpenAPI 3 contracts', () => {
  it('maps operations, {params}, the server base path, security and the x-route-surface extensions (YAML)', () => {
    const c = loadContract('openapi.yaml', GATE);
    expect(c.name).toBe('gate-control-plane');
    expect(c.version).toBe('1.4.0');
    expect(c.source).toBe('openapi.yaml');
    expect(routeRows('openapi.yaml', GATE)).toEqual([
      'GET /api/health/ready public tenant=false resource=- line=15',
      'GET /api/auth/me/ session tenant=true resource=identity line=23',
      'GET /api/sites/ session tenant=true resource=site line=30',
      'POST /api/sites/ session tenant=true resource=site line=36',
      'GET /api/deployments/ session tenant=true resource=deployment line=43',
      'GET /api/deployments/:deploymentId session tenant=true resource=deployment line=50',
      'GET /api/databases/ session tenant=true resource=database line=63',
    ]);
    expect(Object.keys(c.excludedFamilies)).toEqual(['internal', 'ops', 'webhook', 'compiler', 'provider-token', 'edge']);
  });

  it('checks a server against it: the route table follows the document, findings point into it', () => {
    const r = cli(['check', '--contract', 'openapi.yaml'], GATE);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'openapi.yaml',
        '  23:1  error  contract route GET /api/auth/me/ is not served by any analysed app  contract-route-missing',
        '',
        'src/routes/databases.ts',
        '  16:9  error  GET /api/databases/ returns credential-like field connectionString in database metadata  provider-credential-exposure',
        '',
        'src/routes/deployments.ts',
        '  14:1  error  GET /api/deployments/:id has no tenant guard  missing-tenant-guard',
        '',
        'src/routes/internal.ts',
        '  6:1  error  POST /api/internal/cache/flush is in the excluded family "internal" and is reachable without its family guard (unguarded)',
        '',
        '✖ 4 problems (4 errors, 0 warnings, 0 infos) — 7 routes in 11 files, contract gate-control-plane@1.4.0',
        '',
      ].join('\n').replace('(unguarded)\n', '(unguarded)  excluded-family-leak\n'),
    );
    const list = JSON.parse(cli(['list', '--format', 'json', '--contract', 'openapi.yaml'], GATE).stdout) as { routes: { method: string; path: string; classification: string; contractRoute: string | null }[] };
    expect(list.routes.map((x) => `${x.method} ${x.path} ${x.classification} ${x.contractRoute ?? '-'}`)).toEqual([
      'GET /api/databases/ contract GET /api/databases/',
      'GET /api/deployments/ contract GET /api/deployments/',
      'GET /api/deployments/:id contract GET /api/deployments/:deploymentId',
      'GET /api/health/ready public GET /api/health/ready',
      'POST /api/internal/cache/flush excluded -',
      'GET /api/sites/ contract GET /api/sites/',
      'POST /api/sites/ contract POST /api/sites/',
    ]);
  });

  it('reads the same document as JSON, found by its "openapi" key whatever the file name', () => {
    const doc = parseYaml(fs.readFileSync(path.join(GATE, 'openapi.yaml'), 'utf8')) as object;
    fs.writeFileSync(path.join(dir, 'api-contract.json'), JSON.stringify(doc, null, 2));
    const fromYaml = loadContract('openapi.yaml', GATE).routes.map((r) => [r.method, r.path, r.auth, r.tenantScoped, r.resource]);
    expect(loadContract('api-contract.json', dir).routes.map((r) => [r.method, r.path, r.auth, r.tenantScoped, r.resource])).toEqual(fromYaml);
    expect(routeRows('api-contract.json')[1]).toBe('GET /api/auth/me/ session tenant=true resource=identity line=37');
  });

  it('security: operation over document, [] or {} means public; servers: most specific list, relative URLs, no path', () => {
    fs.writeFileSync(
      path.join(dir, 'openapi.yml'),
      [
        'openapi: 3.1.0',
        'info: { title: billing, version: 2.0.0 }',
        'servers:',
        '  - url: /v2',
        '  - url: https://billing.example.com/other',
        'paths:',
        '  /invoices/{invoiceId}/:',
        '    servers:',
        '      - url: https://files.example.com',
        '    get:',
        '      security: [{ bearerAuth: [] }]',
        '  /plans/:',
        '    get:',
        '      security: [{}, { sessionCookie: [] }]',
        '      x-route-surface-tenant-scoped: false',
        '  /usage/:',
        '    get:',
        '      servers: [{ url: "https://usage.example.com/metering/" }]',
        '      x-route-surface-resource: usage',
        '    post: {}',
        '  /health:',
        '    $ref: "#/components/pathItems/health"',
        'components:',
        '  pathItems:',
        '    health:',
        '      get: { security: [] }',
      ].join('\n'),
    );
    expect(routeRows('openapi.yml')).toEqual([
      'GET /invoices/:invoiceId/ session tenant=true resource=- line=10',
      'GET /v2/plans/ public tenant=false resource=- line=13',
      'GET /metering/usage/ public tenant=false resource=usage line=17',
      'POST /v2/usage/ public tenant=false resource=- line=20',
      'GET /v2/health public tenant=false resource=- line=21',
    ]);
    // A document-wide requirement makes every operation without its own `security` a session route.
    fs.writeFileSync(path.join(dir, 'secured.yaml'), 'openapi: 3.0.0\ninfo: { title: s, version: "1" }\nsecurity: [{ cookie: [] }]\npaths:\n  /api/sites/:\n    get: {}\n  /api/health/ready:\n    get: { security: [] }\n');
    expect(routeRows('secured.yaml')).toEqual(['GET /api/sites/ session tenant=true resource=- line=6', 'GET /api/health/ready public tenant=false resource=- line=8']);
  });

  it('errors name the file and the JSON pointer, exit 2, one line', () => {
    const bad = (name: string, text: string): { code: number; stderr: string } => {
      fs.writeFileSync(path.join(dir, name), text);
      const { code, stderr } = cli(['check', '--contract', name], dir);
      return { code, stderr };
    };
    const head = 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\n';
    expect(bad('openapi.yaml', head + 'paths:\n  /api/sites/:\n    get: yes\n')).toEqual({ code: 2, stderr: 'route-surface: openapi.yaml: invalid contract at /paths/~1api~1sites~1/get: an operation must be an object\n' });
    expect(bad('openapi.yaml', head + 'paths:\n  /api/sites/:\n    get:\n      security: cookie\n')).toEqual({
      code: 2,
      stderr: 'route-surface: openapi.yaml: invalid contract at /paths/~1api~1sites~1/get/security: must be an array of security requirement objects\n',
    });
    expect(bad('openapi.yaml', head + 'paths:\n  /api/internal/reindex:\n    post: {}\n')).toEqual({
      code: 2,
      stderr: 'route-surface: openapi.yaml: invalid contract at /paths/~1api~1internal~1reindex/post: POST /api/internal/reindex is in the excluded family "internal"; excluded routes must not be in the contract\n',
    });
    expect(bad('openapi.yaml', head + 'paths:\n  /a/{id}:\n    get:\n      x-route-surface-tenant-scoped: "yes"\n')).toEqual({
      code: 2,
      stderr: 'route-surface: openapi.yaml: invalid contract at /paths/~1a~1{id}/get/x-route-surface-tenant-scoped: must be true or false\n',
    });
    expect(bad('openapi.yaml', head + 'paths:\n  /a:\n    $ref: "./other.yaml#/a"\n')).toEqual({
      code: 2,
      stderr: 'route-surface: openapi.yaml: invalid contract at /paths/~1a/$ref: external $ref ./other.yaml#/a is not supported; bundle the document first\n',
    });
    expect(bad('openapi.yaml', head + 'servers:\n  - url: "https://{tenant}.example.com/api"\npaths:\n  /sites/:\n    get: {}\n')).toEqual({
      code: 2,
      stderr: 'route-surface: openapi.yaml: invalid contract at /servers/0/variables/tenant/default: server variable {tenant} needs a string default\n',
    });
    expect(bad('openapi.yaml', 'openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\npaths:\n  /a:\n    get: {}\n    get: {}\n')).toEqual({
      code: 2,
      stderr: 'route-surface: openapi.yaml:8:5: invalid YAML in contract: Map keys must be unique\n',
    });
    expect(bad('swagger.json', JSON.stringify({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }))).toEqual({
      code: 2,
      stderr: 'route-surface: swagger.json: invalid contract at /swagger: Swagger 2.0 is not supported; convert the document to OpenAPI 3\n',
    });
    expect(bad('contract.yaml', 'name: c\nversion: "1"\nroutes: []\n')).toEqual({
      code: 2,
      stderr: 'route-surface: contract.yaml: invalid contract at /openapi: is missing: a YAML contract must be an OpenAPI 3 document\n',
    });
  });
});
