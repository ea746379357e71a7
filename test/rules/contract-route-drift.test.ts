import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';
import { RULE_FIXTURES, ruleTester } from '../helpers/rule-tester.js';

const drifts = (route: string, why: string) => `${route} drifts from the contract route GET /api/sites/: ${why}`;
const STRICT = 'trailing slash differs and express matches it exactly (strict routing)';

ruleTester('contract-route-drift', {
  valid: [
    { dir: 'valid/non-strict-without-slash', name: "non-strict routing (the default): '/api/sites' also serves '/api/sites/'" },
    { dir: 'valid/strict-router-root-at-mount', name: "a strict router's '/' at its mount point serves both forms" },
    { dir: 'valid/strict-app-exact', name: 'strict routing with the exact path' },
    { dir: 'valid/case-insensitive-by-default', name: 'case-insensitive routing (the default) serves the contract path' },
  ],
  invalid: [
    { dir: 'invalid/strict-router', name: 'Router({ strict: true }) with no trailing slash', errors: [{ line: 7, message: drifts('GET /api/sites', STRICT) }] },
    { dir: 'invalid/strict-app', name: "app.enable('strict routing') with no trailing slash", errors: [{ line: 8, message: drifts('GET /api/sites', STRICT) }] },
    { dir: 'invalid/method', name: 'served with another method only', errors: [{ line: 8, message: drifts('POST /api/sites/', 'method POST instead of GET') }] },
    {
      dir: 'invalid/case-sensitive-router',
      name: 'Router({ caseSensitive: true }) with another case',
      errors: [{ line: 7, message: drifts('GET /api/Sites/', 'case differs and routing is case-sensitive') }],
    },
    {
      dir: 'invalid/case-sensitive-app',
      name: "app.set('case sensitive routing', true) with another case",
      errors: [{ line: 8, message: drifts('GET /api/Sites/', 'case differs and routing is case-sensitive') }],
    },
  ],
});

describe('a contract route served only in a drifted form (SPEC section 7)', () => {
  it('yields one drift, never also contract-route-missing or uncontracted-route for it', async () => {
    const res = await check(path.join(RULE_FIXTURES, 'contract-route-drift', 'invalid', 'strict-router'));
    const aboutSites = res.findings.filter((f) => f.message.includes('/api/sites') || f.message.includes('/api/Sites'));
    expect(aboutSites.map((f) => f.ruleId)).toEqual(['contract-route-drift']);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.line)).toEqual([1, 2, 4, 5]);
    expect(res.routes.map((r) => [r.method, r.path, r.classification, r.contractRoute])).toEqual([['GET', '/api/sites', 'contract', 'GET /api/sites/']]);
  });

  it("is no catch-all's: a wildcard route reaching the contract path is no form of it, and a route of another method at a public contract route is not public (a catch-all proxy)", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { express: '^4.21.2' } }),
      'server.js': `const express = require('express');
const app = express();
app.use(express.json());
app.post('/api/*', (req, res) => { res.json({ forwarded: true }); });
app.delete('/api/*', (req, res) => { res.json({ deleted: true }); });
app.post('/api/health/ready', (req, res) => { res.json({ ready: true }); });
app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => [r.method, r.path, r.classification, r.contractRoute])).toEqual([
      ['DELETE', '/api/*', 'browser', null],
      ['POST', '/api/*', 'browser', null],
      ['POST', '/api/health/ready', 'contract', 'GET /api/health/ready'],
    ]);
    expect(res.findings.filter((f) => f.file === 'server.js' && (f.line === 4 || f.line === 6)).map((f) => `${f.line} ${f.ruleId}`)).toEqual([
      '4 missing-auth-guard',
      '4 missing-csrf-guard',
      '4 missing-tenant-guard',
      '4 uncontracted-route',
      '6 contract-route-drift',
      '6 missing-auth-guard',
      '6 missing-csrf-guard',
    ]);
    // (the readiness route is not tenant-scoped in the contract)
  });

  it("a GET catch-all reaching every contract path (misskey's API 404 fallback) serves none of them: each is missing, and the catch-all is a browser route", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'x', dependencies: { fastify: '^4.28.1' } }),
      'server.js': `const fastify = require('fastify')();
fastify.register(async (api) => {
  api.get('/*', async (request, reply) => {
    reply.code(404);
    return { error: { message: 'No such endpoint.', code: 'UNKNOWN_API_ENDPOINT' } };
  });
}, { prefix: '/api' });
fastify.listen({ port: 3000 });
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => [r.method, r.path, r.classification, r.contractRoute, r.contractMatch])).toEqual([['GET', '/api/*', 'browser', null, null]]);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.message)).toEqual([
      'contract route GET /api/health/ready is not served by any analysed app',
      'contract route GET /api/auth/me/ is not served by any analysed app',
      'contract route GET /api/sites/ is not served by any analysed app',
      'contract route GET /api/deployments/ is not served by any analysed app',
      'contract route GET /api/databases/ is not served by any analysed app',
    ]);
  });
});
