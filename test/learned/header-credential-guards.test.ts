// Learned from public servers (openstatus's `c.req.header("x-openstatus-key")`, the NestJS
// realworld example's `req.headers.authorization`, postiz's public API key, hoppscotch's infra
// token): a guard that takes its credential from a request header only is bearer auth — no
// browser sends that header by itself, so a mutation behind it needs no CSRF guard. So is one
// handing its request to a helper of the analysed code that reads a header only (Actual's
// `validateSessionMiddleware` handing it to `validateSession(req, res)`, which reads
// `x-actual-token` and looks the session up by it), one reading the Authorization header that also
// hands its request to a helper reading no credential (dittofeed's admin hook asking
// `getWorkspaceIdentifier(request)` for the workspace), one reading headers of the app's own names for
// a client's id and secret (Openpanel's `openpanel-client-secret`), and a handler's own check of a
// token from the Authorization header. One that may also read a cookie or a session
// the request carries, that checks HTTP Basic credentials (which a browser sends again by
// itself), or whose helper falls back to a cookie is not known to.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'header-credential-guards');

describe('learned: guards whose credential is a request header', async () => {
  const res = await check(DIR);

  it('lists every route with its mount prefix', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'PUT /api/admin/broadcasts/archive src/routes/admin.ts:6',
      'POST /api/admin/partners/broadcasts src/routes/admin.ts:10',
      'POST /api/billing/exports src/routes/billing.ts:6',
      'GET /api/cli/sites src/routes/cli.ts:7',
      'POST /api/cli/sites/:siteId/deployments src/routes/cli.ts:11',
      'DELETE /api/dashboard/sites/:siteId src/routes/dashboard.ts:7',
      'POST /api/exports/events src/routes/exports.ts:7',
      'DELETE /api/exports/mcp-sessions/:sessionId src/routes/exports.ts:11',
      'POST /api/hooks/deploy src/routes/hooks.ts:6',
      'PUT /api/legacy/sites/:siteId/settings src/routes/legacy.ts:6',
      'DELETE /api/runners/jobs/:jobId src/routes/runners.ts:11',
      'POST /api/runners/jobs/:jobId/logs src/routes/runners.ts:7',
      'POST /api/support/tenants/:tenantId/unlock src/routes/support.ts:6',
      'POST /api/sync/files/:fileId/changes src/routes/sync.ts:7',
    ]);
  });

  it('counts the Authorization header and a key header read alone as bearer auth', () => {
    expect(guardLines(res, 'POST', '/api/cli/sites/:siteId/deployments')).toEqual(['requireCliToken:auth+bearer:router.use:src/routes/cli.ts:5']);
    expect(guardLines(res, 'POST', '/api/hooks/deploy')).toEqual(['requireDeployKey:auth+bearer:route-middleware:src/routes/hooks.ts:6']);
    expect(guardLines(res, 'DELETE', '/api/runners/jobs/:jobId')).toEqual(['checkOpsKey:auth+bearer:route-middleware:src/routes/runners.ts:11']);
    expect(res.routes.find((r) => r.path === '/api/hooks/deploy')!.guards[0]!.reason).toBe(
      'by behaviour (ends the request with 401; reads its credential from a request header only)',
    );
  });

  it("counts a token from the Authorization header whose verification's throw ends the request as bearer auth", () => {
    expect(guardLines(res, 'POST', '/api/runners/jobs/:jobId/logs')).toEqual(['checkRunner:auth+bearer:route-middleware:src/routes/runners.ts:7']);
    expect(res.routes.find((r) => r.path === '/api/runners/jobs/:jobId/logs')!.guards[0]!.reason).toBe(
      'by behaviour (ends the request when jwt.verify() throws on what the request carries; reads its credential from a request header only)',
    );
  });

  it('counts a guard handing its request to a helper that reads a header only as bearer auth, a session looked up by that token included', () => {
    expect(guardLines(res, 'POST', '/api/sync/files/:fileId/changes')).toEqual(['validateSessionMiddleware:auth+bearer:router.use:src/routes/sync.ts:5']);
    expect(res.routes.find((r) => r.path === '/api/sync/files/:fileId/changes')!.guards[0]!.reason).toBe(
      'by name (auth); by behaviour (ends the request with 401, answered by validateSession(); reads its credential from a request header only)',
    );
  });

  it("counts a guard reading the Authorization header that also hands its request to a helper reading no credential (the workspace it names) as bearer auth; not one whose helper reads the signed-in user (dittofeed's admin hook)", () => {
    expect(guardLines(res, 'PUT', '/api/admin/broadcasts/archive')).toEqual(['requireAdminKey:auth+bearer+family:route-middleware:src/routes/admin.ts:6']);
    expect(guardLines(res, 'POST', '/api/admin/partners/broadcasts')).toEqual(['requirePartnerKey:auth:route-middleware:src/routes/admin.ts:10']);
  });

  it("counts a client id and secret in headers of the app's own names, handed to a helper as `req.headers`, as bearer auth (Openpanel's `openpanel-client-secret`)", () => {
    expect(guardLines(res, 'POST', '/api/exports/events')).toEqual(['requireExportClient:auth+bearer:route-middleware:src/routes/exports.ts:7']);
  });

  it("counts a handler's own check of a token from the Authorization header, by a helper named for authenticating it whose throw ends the request, as bearer auth", () => {
    expect(guardLines(res, 'DELETE', '/api/exports/mcp-sessions/:sessionId')).toEqual(['authenticateToken:auth+bearer:in-handler:src/routes/exports.ts:15']);
    expect(res.routes.find((r) => r.path === '/api/exports/mcp-sessions/:sessionId')!.guards[0]!.reason).toBe(
      'by behaviour (the handler ends the request when authenticateToken() throws on what the request carries; it reads its credential from a request header only)',
    );
  });

  it("keeps auth alone for a cookie fallback, HTTP Basic, a session read off the request, and a helper's cookie fallback", () => {
    expect(guardLines(res, 'DELETE', '/api/dashboard/sites/:siteId')).toEqual(['requireDashboardUser:auth:router.use:src/routes/dashboard.ts:5']);
    expect(guardLines(res, 'POST', '/api/billing/exports')).toEqual(['requireBillingPassword:auth:route-middleware:src/routes/billing.ts:6']);
    expect(guardLines(res, 'POST', '/api/support/tenants/:tenantId/unlock')).toEqual(['requireSupportAccess:auth:route-middleware:src/routes/support.ts:6']);
    expect(guardLines(res, 'PUT', '/api/legacy/sites/:siteId/settings')).toEqual(['requireLegacyToken:auth:route-middleware:src/routes/legacy.ts:6']);
  });

  it('asks a CSRF guard of those five mutations only', () => {
    expect(res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => `${f.file}:${f.line}`)).toEqual([
      'src/routes/admin.ts:10',
      'src/routes/billing.ts:6',
      'src/routes/dashboard.ts:7',
      'src/routes/legacy.ts:6',
      'src/routes/support.ts:6',
    ]);
  });

  /** A copy of the fixture run with --cache, `rel` edited (`from` → `to`), run again warm: the warm run, checked equal to a cold one. */
  async function warmAfterEdit(rel: string, from: string, to: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-header-'));
    fs.cpSync(DIR, dir, { recursive: true });
    await run({ cwd: dir, paths: [], cache: true });
    const file = path.join(dir, rel);
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace(from, to);
    expect(edited).not.toBe(text);
    fs.writeFileSync(file, edited);
    const warm = await run({ cwd: dir, paths: [], cache: true });
    expect(formatJson(warm)).toBe(formatJson(await run({ cwd: dir, paths: [] })));
    return warm;
  }

  it('check --cache: a cookie fallback added to the token guard makes its mutation need a CSRF guard', async () => {
    const warm = await warmAfterEdit('src/middleware/cli-token.ts', "req.headers.authorization ?? ''", "req.headers.authorization ?? `Bearer ${req.cookies?.cli_token ?? ''}`");
    expect(warm.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => `${f.file}:${f.line}`)).toEqual([
      'src/routes/admin.ts:10',
      'src/routes/billing.ts:6',
      'src/routes/cli.ts:11',
      'src/routes/dashboard.ts:7',
      'src/routes/legacy.ts:6',
      'src/routes/support.ts:6',
    ]);
  });

  it('check --cache: the signed-in user read by the workspace helper makes the admin mutation need a CSRF guard', async () => {
    const warm = await warmAfterEdit('src/lib/workspace.ts', 'req.headers[WORKSPACE_ID_HEADER]]', 'req.headers[WORKSPACE_ID_HEADER], req.user?.workspaceId]');
    expect(guardLines(warm, 'PUT', '/api/admin/broadcasts/archive')).toEqual(['requireAdminKey:auth+family:route-middleware:src/routes/admin.ts:6']);
  });

  it('check --cache: a cookie fallback added to the sync helper makes the sync mutation need a CSRF guard', async () => {
    const warm = await warmAfterEdit('src/lib/sync-session.ts', "token = req.headers['x-sync-token'];", "token = req.headers['x-sync-token'] ?? req.cookies?.sync_token;");
    expect(guardLines(warm, 'POST', '/api/sync/files/:fileId/changes')).toEqual(['validateSessionMiddleware:auth:router.use:src/routes/sync.ts:5']);
  });
});
