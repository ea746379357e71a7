/**
 * The Next.js adapter, on fixtures/next-clean (App Router under src/, route groups, handler
 * wrappers imported through tsconfig `paths`) and fixtures/next-leaky (App and Pages Router,
 * middleware.ts with a matcher), and on small projects for single semantics. Expectations were
 * derived by hand from Next.js: file conventions (route.ts, `(group)`, `_private`, `[id]`,
 * `[...slug]`, `[[...slug]]`, `@slot`, pages/api), next.config `basePath` / `trailingSlash`
 * (308 redirect of the other form; files and .well-known exempt) / `skipTrailingSlashRedirect`
 * / `pageExtensions`, and getMiddlewareMatchers (path-to-regexp 6, `_next/data` and `.json`
 * variants, basePath, no regexp flags).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { middlewareMatcherRegex, segmentOf } from '../../src/adapters/next/index.js';
import { samePath } from '../../src/classify.js';
import { ROOT, check } from '../helpers/run.js';
import { findingRows, routeRows, row, unresolvedRows } from '../helpers/expect.js';
import { writeProject } from '../helpers/project.js';

const outside = (route: string) => `${route} is on the browser surface but not in the contract`;

describe('fixtures/next-clean', () => {
  const DIR = path.join(ROOT, 'fixtures', 'next-clean');
  const CP = 'src/app/(control-plane)/api/';
  // wrappers from src/lib, imported as '@/lib/…' (tsconfig paths): classified by name and by behaviour
  const API = { auth: ['withSession'], tenant: ['withTenant'] };
  const MUTATION = { ...API, csrf: ['withCsrf'] };

  it('lists the route handlers: groups add no segment, private folders are not routed, both slash forms served', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/auth/me', 'contract', 'src/app/api/auth/me/route.ts:6:1', API, 'GET /api/auth/me/'),
      row('GET /api/databases', 'contract', `${CP}databases/route.ts:6:1`, API, 'GET /api/databases/'),
      row('GET /api/deployments', 'contract', `${CP}deployments/route.ts:7:1`, API, 'GET /api/deployments/'),
      row('POST /api/deployments', 'browser', `${CP}deployments/route.ts:19:1`, MUTATION),
      row('GET /api/health/ready', 'public', 'src/app/api/health/ready/route.ts:5:1', {}, 'GET /api/health/ready'),
      row('GET /api/sites', 'contract', `${CP}sites/route.ts:7:1`, API, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', `${CP}sites/route.ts:11:1`, MUTATION),
      row('DELETE /api/sites/:siteId', 'browser', `${CP}sites/[siteId]/route.ts:17:1`, MUTATION),
      row('GET /api/sites/:siteId', 'browser', `${CP}sites/[siteId]/route.ts:9:1`, API),
      row('GET /api/sites/:siteId/files/:path*', 'browser', `${CP}sites/[siteId]/files/[...path]/route.ts:9:1`, API),
      // verifyGithubSignature(req, body) at the top of the handler: webhook family by name, 401 by
      // behaviour, its credential the X-Hub-Signature-256 header only
      row('POST /api/webhooks/github', 'excluded:webhook', 'src/app/api/webhooks/github/route.ts:13:1', {
        auth: ['verifyGithubSignature'],
        bearer: ['verifyGithubSignature'],
        family: ['verifyGithubSignature'],
      }),
    ]);
    // skipTrailingSlashRedirect: true → /api/sites and /api/sites/ both reach the handler
    expect(res.routes.find((r) => r.path === '/api/sites' && r.method === 'GET')).toMatchObject({
      framework: 'next',
      app: '.',
      trailingSlashInsensitive: true,
      caseSensitive: true,
      contractMatch: 'served',
    });
  });

  it('reports only the uncontracted browser routes (the request-id middleware guards nothing)', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      `${CP}deployments/route.ts:19:1 info uncontracted-route ${outside('POST /api/deployments')}`,
      `${CP}sites/[siteId]/files/[...path]/route.ts:9:1 info uncontracted-route ${outside('GET /api/sites/:siteId/files/:path*')}`,
      `${CP}sites/[siteId]/route.ts:9:1 info uncontracted-route ${outside('GET /api/sites/:siteId')}`,
      `${CP}sites/[siteId]/route.ts:17:1 info uncontracted-route ${outside('DELETE /api/sites/:siteId')}`,
      `${CP}sites/route.ts:11:1 info uncontracted-route ${outside('POST /api/sites')}`,
    ]);
  });

  it('lists wrappers outermost first, each classified through its definition', async () => {
    const res = await check(DIR);
    const post = res.routes.find((r) => r.method === 'POST' && r.path === '/api/sites')!;
    expect(post.guards.map((g) => `${g.name} ${g.mechanism} ${g.file}:${g.line} — ${g.reason}`)).toEqual([
      `withSession wrapper ${CP}sites/route.ts:11 — by name (auth); by behaviour (ends the request with 401)`,
      `withTenant wrapper ${CP}sites/route.ts:11 — by name (tenant); by behaviour (compares the tenant and ends with 403/404)`,
      `withCsrf wrapper ${CP}sites/route.ts:11 — by name (csrf)`,
    ]);
  });
});

describe('fixtures/next-leaky', () => {
  const DIR = path.join(ROOT, 'fixtures', 'next-leaky');
  const MW = { auth: ['middleware'] }; // middleware.ts: 401 without a verified session cookie
  const drift = (served: string, contract: string) =>
    `${served.split(' ')[0]} ${served.split(' ')[1]} drifts from the contract route ${contract}: Next.js redirects ${contract.split(' ')[1]} to ${served.split(' ')[1]} (308, trailingSlash: false)`;
  const mwOnly = (route: string) =>
    `${route} is authenticated only by middleware.ts (middleware); a bypassed middleware (CVE-2025-29927) leaves it open: check the session in the handler or a wrapper too`;

  it('lists App Router and Pages Router routes, guarded by middleware.ts only where its matcher matches', async () => {
    const res = await check(DIR);
    expect(routeRows(res.routes)).toEqual([
      // matched by '/api/auth/:path*'; the handler checks the session too (an inline 401)
      row('GET /api/auth/me', 'contract', 'app/api/auth/me/route.ts:4:1', { auth: ['middleware', '(inline 401 check)'] }, 'GET /api/auth/me/'),
      // no matcher entry covers /api/databases
      row('GET /api/databases', 'contract', 'app/api/databases/route.ts:12:1', {}, 'GET /api/databases/'),
      row('GET /api/deployments/:id', 'browser', 'app/api/deployments/[id]/route.ts:4:1', MW),
      row('PATCH /api/deployments/:id', 'browser', 'app/api/deployments/[id]/route.ts:10:1', MW),
      // [[...slug]]: the optional catch-all
      row('GET /api/docs/:slug*?', 'browser', 'app/api/docs/[[...slug]]/route.ts:4:1'),
      row('GET /api/health/ready', 'public', 'app/api/health/ready/route.ts:1:1', {}, 'GET /api/health/ready'),
      // the (internal) route group adds no segment; app/api/_debug is private and absent
      row('POST /api/internal/reindex', 'excluded:internal', 'app/(internal)/api/internal/reindex/route.ts:5:1'),
      // pages/api: export default withSessionRoute(handler), whose `if (req.method === 'DELETE')`
      // branch is a route of its own; the statements after it serve every other method: ALL
      row('ALL /api/legacy/sites/:id', 'browser', 'pages/api/legacy/sites/[id].ts:14:1', { auth: ['withSessionRoute'] }),
      row('DELETE /api/legacy/sites/:id', 'browser', 'pages/api/legacy/sites/[id].ts:6:3', { auth: ['withSessionRoute'] }),
      row('GET /api/sites', 'contract', 'app/api/sites/route.ts:4:1', MW, 'GET /api/sites/'),
      row('POST /api/sites', 'browser', 'app/api/sites/route.ts:10:1', MW),
      row('ALL /api/webhooks/stripe', 'excluded:webhook', 'pages/api/webhooks/stripe.ts:7:1', { family: ['verifyStripeSignature'] }),
    ]);
  });

  it('reports drifts, middleware-only auth, unmatched routes and the other defects', async () => {
    const res = await check(DIR);
    const S = 'app/api/sites/route.ts';
    const D = 'app/api/deployments/[id]/route.ts';
    expect(findingRows(res.findings)).toEqual([
      'app/(internal)/api/internal/reindex/route.ts:5:1 error excluded-family-leak POST /api/internal/reindex is in the excluded family "internal" and is reachable without its family guard (unguarded)',
      `app/api/auth/me/route.ts:4:1 error contract-route-drift ${drift('GET /api/auth/me', 'GET /api/auth/me/')}`,
      'app/api/auth/me/route.ts:4:1 error missing-tenant-guard GET /api/auth/me has no tenant guard',
      `app/api/databases/route.ts:12:1 error contract-route-drift ${drift('GET /api/databases', 'GET /api/databases/')}`,
      'app/api/databases/route.ts:12:1 error missing-auth-guard GET /api/databases has no auth guard',
      'app/api/databases/route.ts:12:1 error missing-tenant-guard GET /api/databases has no tenant guard',
      'app/api/databases/route.ts:14:99 error provider-credential-exposure GET /api/databases returns credential-like field password in database metadata',
      `${D}:4:1 warning middleware-only-guard ${mwOnly('GET /api/deployments/:id')}`,
      `${D}:4:1 error missing-tenant-guard GET /api/deployments/:id has no tenant guard`,
      `${D}:4:1 info uncontracted-route ${outside('GET /api/deployments/:id')}`,
      `${D}:10:1 error immutable-resource-mutation PATCH /api/deployments/:id mutates a deployment, which the contract makes immutable`,
      `${D}:10:1 warning middleware-only-guard ${mwOnly('PATCH /api/deployments/:id')}`,
      `${D}:10:1 error missing-csrf-guard PATCH /api/deployments/:id changes state on the browser session without a CSRF guard`,
      `${D}:10:1 error missing-tenant-guard PATCH /api/deployments/:id has no tenant guard`,
      `${D}:10:1 info uncontracted-route ${outside('PATCH /api/deployments/:id')}`,
      'app/api/docs/[[...slug]]/route.ts:4:1 error missing-auth-guard GET /api/docs/:slug*? has no auth guard',
      'app/api/docs/[[...slug]]/route.ts:4:1 error missing-tenant-guard GET /api/docs/:slug*? has no tenant guard',
      `app/api/docs/[[...slug]]/route.ts:4:1 info uncontracted-route ${outside('GET /api/docs/:slug*?')}`,
      `${S}:4:1 error contract-route-drift ${drift('GET /api/sites', 'GET /api/sites/')}`,
      `${S}:4:1 warning middleware-only-guard ${mwOnly('GET /api/sites')}`,
      `${S}:4:1 error missing-tenant-guard GET /api/sites has no tenant guard`,
      `${S}:10:1 warning middleware-only-guard ${mwOnly('POST /api/sites')}`,
      `${S}:10:1 error missing-csrf-guard POST /api/sites changes state on the browser session without a CSRF guard`,
      `${S}:10:1 error missing-tenant-guard POST /api/sites has no tenant guard`,
      `${S}:10:1 info uncontracted-route ${outside('POST /api/sites')}`,
      'builtin:browser-control-plane@1:4:1 error contract-route-missing contract route GET /api/deployments/ is not served by any analysed app',
      'pages/api/legacy/sites/[id].ts:6:3 error missing-csrf-guard DELETE /api/legacy/sites/:id changes state on the browser session without a CSRF guard',
      'pages/api/legacy/sites/[id].ts:6:3 error missing-tenant-guard DELETE /api/legacy/sites/:id has no tenant guard',
      `pages/api/legacy/sites/[id].ts:6:3 info uncontracted-route ${outside('DELETE /api/legacy/sites/:id')}`,
      'pages/api/legacy/sites/[id].ts:14:1 error missing-csrf-guard ALL /api/legacy/sites/:id changes state on the browser session without a CSRF guard',
      'pages/api/legacy/sites/[id].ts:14:1 error missing-tenant-guard ALL /api/legacy/sites/:id has no tenant guard',
      `pages/api/legacy/sites/[id].ts:14:1 info uncontracted-route ${outside('ALL /api/legacy/sites/:id')}`,
    ]);
    expect({ ...res.summary, files: 0 }).toEqual({ files: 0, routes: 12, errors: 22, warnings: 4, infos: 6 });
  });
});

describe('Next.js semantics on a small project', () => {
  const files = {
    'package.json': JSON.stringify({ name: 'console', dependencies: { next: '16.0.3', 'next-auth': '5.0.0-beta.29' } }),
    'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }',
    'next.config.mjs': `import bundleAnalyzer from '@next/bundle-analyzer';

const withBundleAnalyzer = bundleAnalyzer({ enabled: process.env.ANALYZE === 'true' });

export default withBundleAnalyzer({ basePath: '/console', trailingSlash: true, pageExtensions: ['ts', 'tsx'] });
`,
    'src/auth.ts': `import NextAuth from 'next-auth';

// (auth(handler) runs the handler whatever callbacks.authorized returns but a response: its own check guards it)
export const { handlers, auth } = NextAuth({ providers: [], callbacks: { authorized: ({ auth }) => !!auth } });
`,
    'src/app/api/auth/[...nextauth]/route.ts': `import { handlers } from '@/auth';

export const { GET, POST } = handlers;
`,
    'src/app/api/sites/route.ts': `import { auth } from '@/auth';

const list = auth(async (req) => {
  if (!req.auth) return Response.json({ error: 'unauthenticated' }, { status: 401 });
  return Response.json([]);
});

export { list as GET, list as HEAD };
`,
    // not one of pageExtensions: no route
    'src/app/api/legacy/route.js': `export function GET() {
  return Response.json([]);
}
`,
    'src/app/feed.xml/route.ts': `export async function GET() {
  return new Response('<rss/>', { headers: { 'content-type': 'application/rss+xml' } });
}
`,
    'src/app/.well-known/security.txt/route.ts': `export function GET() {
  return new Response('Contact: mailto:security@example.com');
}
`,
    // Next 16: proxy.ts, in src/ beside app/
    'src/proxy.ts': `import { NextResponse, type NextRequest } from 'next/server';

export function proxy(req: NextRequest) {
  if (!req.cookies.has('console_session')) return new NextResponse('unauthenticated', { status: 401 });
  return NextResponse.next();
}

export const config = {
  matcher: [{ source: '/api/:path*', has: [{ type: 'header', key: 'x-preview' }] }, '/((?!api|_next/static|_next/image|favicon.ico).*)'],
};
`,
  };

  it('basePath, trailingSlash (files exempt), pageExtensions, re-exported handlers, proxy.ts matchers', async () => {
    const res = await check(writeProject(files));
    const PROXY = { auth: ['proxy'] };
    expect(routeRows(res.routes)).toEqual([
      // app/.well-known/ (a directory whose name starts with a dot) is read; its route keeps its form
      row('GET /console/.well-known/security.txt', 'browser', 'src/app/.well-known/security.txt/route.ts:1:1', PROXY),
      // export const { GET, POST } = handlers (Auth.js v5): its actions (adapters/next-auth.ts), trailing slashes added
      ...[
        'GET callback/:provider',
        'POST callback/:provider',
        'GET csrf',
        'GET error',
        'GET providers',
        'GET session',
        'POST session',
        'GET signin',
        'GET signin/:provider',
        'POST signin/:provider',
        'GET signout',
        'POST signout',
        'GET verify-request',
        'GET webauthn-options/:provider',
      ].map((a) => {
        const [method, action] = a.split(' ');
        return row(`${method} /console/api/auth/${action}/`, 'browser', 'src/app/api/auth/[...nextauth]/route.ts:3:1', method === 'POST' ? { csrf: ['NextAuth'] } : {});
      }),
      // export { list as GET, list as HEAD }; auth(handler) from next-auth; the conditional (has) matcher is not relied on
      row('GET /console/api/sites/', 'browser', 'src/app/api/sites/route.ts:8:10', { auth: ['(inline 401 check)'] }),
      row('HEAD /console/api/sites/', 'browser', 'src/app/api/sites/route.ts:8:23', { auth: ['(inline 401 check)'] }),
      // the negative-lookahead matcher reaches everything outside /api
      row('GET /console/feed.xml', 'browser', 'src/app/feed.xml/route.ts:1:1', PROXY),
    ]);
    const sites = res.routes.find((r) => r.path === '/console/api/sites/')!;
    expect(sites.prefixes).toEqual([{ prefix: '/console', file: 'next.config.mjs', line: 1 }]);
    expect(sites.guards.map((g) => g.mechanism)).toEqual(['in-handler']);
    expect(res.findings.filter((f) => f.ruleId === 'middleware-only-guard').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'src/app/.well-known/security.txt/route.ts:1 GET /console/.well-known/security.txt is authenticated only by proxy.ts (proxy); a bypassed middleware (CVE-2025-29927) leaves it open: check the session in the handler or a wrapper too',
      'src/app/feed.xml/route.ts:1 GET /console/feed.xml is authenticated only by proxy.ts (proxy); a bypassed middleware (CVE-2025-29927) leaves it open: check the session in the handler or a wrapper too',
    ]);
  });

  it('a route under .well-known keeps its form with trailingSlash: true, also when its file is named', async () => {
    const dir = writeProject(files);
    const res = await check(dir, ['src/app/.well-known/security.txt/route.ts']);
    expect(routeRows(res.routes.filter((r) => r.path.includes('.well-known')))).toEqual([
      row('GET /console/.well-known/security.txt', 'browser', 'src/app/.well-known/security.txt/route.ts:1:1', { auth: ['proxy'] }),
    ]);
  });

  it("a basePath not known statically is a step of every route's prefixes: the path lacks it, so it is matched to no contract route", async () => {
    const project = (config: string) => ({
      'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4' } }),
      'next.config.mjs': config,
      'app/api/sites/route.ts': `import { cookies } from 'next/headers';

export async function GET() {
  const session = (await cookies()).get('console_session');
  if (!session) return Response.json({ error: 'unauthenticated' }, { status: 401 });
  return Response.json([]);
}
`,
    });
    const rows = (res: Awaited<ReturnType<typeof check>>) => res.routes.map((r) => `${r.method} ${r.path} ${r.contractRoute ?? '-'} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`);
    const known = await check(writeProject(project("export default { basePath: '/console' };\n")));
    expect(rows(known)).toEqual(['GET /console/api/sites - [/console]']);
    const none = await check(writeProject(project('export default { reactStrictMode: true };\n')));
    expect(rows(none)).toEqual(['GET /api/sites GET /api/sites/ []']);
    const unknown = await check(writeProject(project('export default { basePath: process.env.BASE_PATH };\n')));
    expect(rows(unknown)).toEqual(['GET /api/sites - [property BASE_PATH of a value not known statically]']);
    expect(unresolvedRows(unknown)).toEqual(['next.config.mjs:1:1 warning unresolved-route basePath in next.config is not known statically; routes are listed without it']);
    // (a value a package gives is noted by the package)
    const fromPackage = await check(writeProject(project("import { env } from '@acme/env';\n\nexport default { basePath: env.BASE_PATH };\n")));
    expect(rows(fromPackage)).toEqual(['GET /api/sites - [a value from @acme/env]']);
  });

  it("pageExtensions with a dot (`['page.tsx', 'page.ts']`): the whole extension leaves the route's path, and other files are neither pages nor routes", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '15.5.4' } }),
        'next.config.js': "module.exports = { basePath: '/dashboard', pageExtensions: ['page.tsx', 'page.ts'] };\n",
        'src/pages/api/index.page.ts': "export default function handler(req, res) {\n  res.json({ ok: true });\n}\n",
        'src/pages/api/oauth/callback.page.ts': "export default function handler(req, res) {\n  res.redirect(307, '/dashboard');\n}\n",
        // not a page: a helper beside them
        'src/pages/api/oauth/state.ts': "export default function state() {\n  return crypto.randomUUID();\n}\n",
        'src/app/api/sites/route.page.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
        // `route.v2` is no route file's name
        'src/app/api/legacy/route.v2.page.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}`)).toEqual([
      'ALL /dashboard/api src/pages/api/index.page.ts',
      'ALL /dashboard/api/oauth/callback src/pages/api/oauth/callback.page.ts',
      'GET /dashboard/api/sites src/app/api/sites/route.page.ts',
    ]);
  });

  it('a configuration wrapped only under a condition (`isProduction ? withSentryConfig(config, …) : config`) wrapped in place (`module.exports = withSentryConfig(module.exports, …)`) or given values made from itself (`config = rest`) is read', async () => {
    const project = (config: string) => ({
      'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '15.5.4', '@sentry/nextjs': '9.0.0' } }),
      'next.config.ts': config,
      'app/api/sites/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
    });
    const rows = (res: Awaited<ReturnType<typeof check>>) => res.routes.map((r) => `${r.method} ${r.path} [${r.prefixes.map((p) => p.unknown ?? p.prefix)}]`);
    const sentry = "import { withSentryConfig } from '@sentry/nextjs';\n\nconst config = { basePath: '/app', trailingSlash: false };\n";
    const exported = await check(writeProject(project(`${sentry}\nexport default process.env.NODE_ENV === 'production'\n  ? withSentryConfig(config, { org: process.env.SENTRY_ORG, silent: !process.env.CI })\n  : config;\n`)));
    expect(rows(exported)).toEqual(['GET /app/api/sites [/app]']);
    expect(unresolvedRows(exported)).toEqual([]);
    const local = await check(writeProject(project(`${sentry}\nconst exportConfig = process.env.SENTRY_AUTH_TOKEN ? withSentryConfig(config, {}) : config;\n\nexport default exportConfig;\n`)));
    expect(rows(local)).toEqual(['GET /app/api/sites [/app]']);
    // what Sentry's wizard appends to a CommonJS next.config.js: the exports object wrapped in place
    const cjs = project('');
    delete (cjs as Record<string, string>)['next.config.ts'];
    const wizard = await check(
      writeProject({
        ...cjs,
        'next.config.js': `const nextConfig = { basePath: '/app' };\n\nmodule.exports = nextConfig;\n\nconst { withSentryConfig } = require('@sentry/nextjs');\nconst withVercelToolbar = require('@vercel/toolbar/plugins/next')();\n\nmodule.exports = withSentryConfig(module.exports, { org: 'acme', silent: true });\nmodule.exports = withVercelToolbar(module.exports);\n`,
      }),
    );
    expect(rows(wizard)).toEqual(['GET /app/api/sites [/app]']);
    expect(unresolvedRows(wizard)).toEqual([]);
    // teable's: a name given, under conditions, values made from itself (a plugin's, the rest of
    // the object without a key)
    const rebuilt = await check(
      writeProject({
        ...cjs,
        'next.config.js': `const nextConfig = { basePath: '/app', trailingSlash: true, sentry: {} };\n\nlet config = nextConfig;\n\nif (process.env.SENTRY_ENABLED === 'true') {\n  try {\n    const { withSentryConfig } = require('@sentry/nextjs');\n    config = withSentryConfig(config, { silent: true });\n  } catch {\n    console.log('could not enable sentry');\n  }\n} else {\n  const { sentry, ...rest } = config;\n  config = rest;\n}\n\nif (process.env.ANALYZE === 'true') {\n  const withBundleAnalyzer = require('@next/bundle-analyzer');\n  config = withBundleAnalyzer({ enabled: true })(config);\n}\n\nmodule.exports = config;\n`,
      }),
    );
    expect(rows(rebuilt)).toEqual(['GET /app/api/sites/ [/app]']);
    expect(unresolvedRows(rebuilt)).toEqual([]);
    // two different objects: which one is not known statically
    const two = await check(writeProject(project(`const a = { basePath: '/a' };\nconst b = { basePath: '/b' };\n\nexport default process.env.ALT ? a : b;\n`)));
    expect(rows(two)).toEqual(['GET /api/sites []']);
    expect(unresolvedRows(two)).toEqual([
      'next.config.ts:1:1 warning unresolved-route the configuration object of this next.config is not known statically; basePath and trailingSlash are taken as their defaults',
    ]);
  });

  it('without a matcher, middleware.ts runs for every route; a matcher that misses a route does not guard it', async () => {
    const base = {
      'package.json': JSON.stringify({ dependencies: { next: '15.3.2' } }),
      'app/api/sites/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
      'app/api/billing/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
    };
    const mw = (config: string) =>
      `import { NextResponse, type NextRequest } from 'next/server';\n\nexport default function middleware(req: NextRequest) {\n  if (!req.cookies.get('sid')) return NextResponse.json({}, { status: 401 });\n  return NextResponse.next();\n}\n${config}`;
    const everywhere = await check(writeProject({ ...base, 'middleware.ts': mw('') }));
    expect(everywhere.routes.map((r) => `${r.path} ${r.guards.map((g) => g.name).join(',')}`)).toEqual(['/api/billing middleware', '/api/sites middleware']);
    const some = await check(writeProject({ ...base, 'middleware.ts': mw("\nexport const config = { matcher: '/api/sites' };\n") }));
    expect(some.routes.map((r) => `${r.path} ${r.guards.map((g) => g.name).join(',')}`)).toEqual(['/api/billing ', '/api/sites middleware']);
    // case-sensitive, like Next's own compiled matcher
    const upper = await check(writeProject({ ...base, 'middleware.ts': mw("\nexport const config = { matcher: ['/API/:path*'] };\n") }));
    expect(upper.routes.map((r) => r.guards.length)).toEqual([0, 0]);
  });
});

describe('locale middleware', () => {
  // next-forge's docs app (fumadocs) and any next-intl app: the middleware redirects or rewrites a
  // request to its locale's path, for no one's identity
  it("next-intl's createMiddleware(routing) and fumadocs-core's createI18nMiddleware(i18n), called or handed the request by a middleware of the code, are no guards nor candidates; a check before them still guards", async () => {
    const app = {
      'package.json': JSON.stringify({ name: 'docs', dependencies: { next: '16.0.1', 'next-intl': '4.3.4', 'fumadocs-core': '15.8.0' } }),
      'app/[lang]/rss.xml/route.ts': "export async function GET() {\n  return new Response('<rss/>', { headers: { 'content-type': 'application/rss+xml' } });\n}\n",
      'app/[lang]/settings/export/route.ts': "export async function GET() {\n  return Response.json({ format: 'zip' });\n}\n",
    };
    const guards = async (files: Record<string, string>) => (await check(writeProject({ ...app, ...files }))).routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
    const intl = `import createMiddleware from 'next-intl/middleware';

export default createMiddleware({ locales: ['en', 'de'], defaultLocale: 'en' });

export const config = { matcher: ['/((?!api|_next|.*\\\\..*).*)'] };
`;
    expect(await guards({ 'proxy.ts': intl })).toEqual(['GET /:lang/rss.xml []', 'GET /:lang/settings/export []']);
    const fumadocs = `import { createI18nMiddleware } from 'fumadocs-core/i18n/middleware';
import { type NextFetchEvent, type NextRequest, NextResponse } from 'next/server';

const internationalizer = createI18nMiddleware({ languages: ['en', 'cn'], defaultLanguage: 'en' });

const proxy = (request: NextRequest, context: NextFetchEvent) => {
  if (request.nextUrl.pathname.endsWith('.mdx')) {
    return NextResponse.rewrite(new URL(\`/en/llms.mdx\${request.nextUrl.pathname}\`, request.nextUrl));
  }
  return internationalizer(request, context);
};

export default proxy;
`;
    expect(await guards({ 'proxy.ts': fumadocs })).toEqual(['GET /:lang/rss.xml []', 'GET /:lang/settings/export []']);
    const signedIn = `import createMiddleware from 'next-intl/middleware';
import { type NextRequest, NextResponse } from 'next/server';

const intl = createMiddleware({ locales: ['en', 'de'], defaultLocale: 'en' });

export default function middleware(request: NextRequest) {
  if (request.nextUrl.pathname.includes('/settings') && !request.cookies.get('session')) {
    return NextResponse.json({ error: 'sign in' }, { status: 401 });
  }
  return intl(request);
}
`;
    // (`/:lang/rss.xml` too: its language may be "settings")
    expect(await guards({ 'middleware.ts': signedIn })).toEqual(['GET /:lang/rss.xml [middleware:auth]', 'GET /:lang/settings/export [middleware:auth]']);
  });
});

describe('route handlers re-exported from another module', () => {
  it('export { GET } from keeps the wrappers written there; export * from serves every method the module exports, placed at the export', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'links', dependencies: { next: '15.5.4' } }),
        'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"] } } }',
        'lib/auth.ts': `import { cookies } from 'next/headers';
import { NextResponse } from 'next/server';

type Handler = (ctx: { searchParams: Record<string, string> }) => Promise<Response>;

export function withAdmin(handler: Handler) {
  return async (req: Request) => {
    const session = (await cookies()).get('admin_session');
    if (!session) return NextResponse.json({ error: 'unauthorized' }, { status: 401 });
    return handler({ searchParams: Object.fromEntries(new URL(req.url).searchParams) });
  };
}
`,
        'app/api/admin/partners/fraud/route.ts': `import { NextResponse } from 'next/server';
import { withAdmin } from '@/lib/auth';

// GET /api/admin/partners/fraud
export const GET = withAdmin(async ({ searchParams }) => {
  return NextResponse.json({ alerts: [], page: Number(searchParams.page ?? 1) });
});
`,
        'app/api/admin/fraud-alerts/route.ts': `export { GET } from '../partners/fraud/route';
`,
        'app/api/workspaces/route.ts': `import { NextResponse } from 'next/server';
import { withAdmin } from '@/lib/auth';

export const GET = withAdmin(async () => NextResponse.json([]));
export const POST = withAdmin(async () => NextResponse.json({ id: 'ws_1' }, { status: 201 }));
export const dynamic = 'force-dynamic';
`,
        // the legacy path serves whatever the current one does
        'app/api/(old)/projects/route.ts': `export * from '../../workspaces/route';
`,
        'app/api/health/route.ts': `export * from './schema';

export function GET() {
  return Response.json({ status: 'ok' });
}
`,
        'app/api/health/schema.ts': `export const healthSchema = { type: 'object' };
export type Health = { status: string };
`,
      }),
    );
    const ADMIN = { auth: ['withAdmin'], family: ['withAdmin'] };
    expect(routeRows(res.routes)).toEqual([
      row('GET /api/admin/fraud-alerts', 'browser', 'app/api/admin/fraud-alerts/route.ts:1:10', ADMIN),
      row('GET /api/admin/partners/fraud', 'browser', 'app/api/admin/partners/fraud/route.ts:5:1', ADMIN),
      row('GET /api/health', 'browser', 'app/api/health/route.ts:3:1'),
      row('GET /api/projects', 'browser', 'app/api/(old)/projects/route.ts:1:1', ADMIN),
      row('POST /api/projects', 'browser', 'app/api/(old)/projects/route.ts:1:1', ADMIN),
      row('GET /api/workspaces', 'browser', 'app/api/workspaces/route.ts:4:1', ADMIN),
      row('POST /api/workspaces', 'browser', 'app/api/workspaces/route.ts:5:1', ADMIN),
    ]);
  });
});

describe('a handler whose body is one call', () => {
  it('(request) => authenticatedApiClient({ request, handler }) is guarded by the client it hands the request to', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'surveys', dependencies: { next: '15.5.4' } }),
        'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"] } } }',
        'modules/api/auth.ts': `import { NextRequest } from 'next/server';

type Authentication = { workspaceIds: string[] };

export async function authenticatedApiClient({ request, handler }: { request: NextRequest; handler: (ctx: { authentication: Authentication }) => Promise<Response> }) {
  const apiKey = request.headers.get('x-api-key');
  if (!apiKey) return Response.json({ error: 'Not authenticated' }, { status: 401 });
  return handler({ authentication: { workspaceIds: [apiKey.slice(0, 8)] } });
}
`,
        'app/api/v2/surveys/route.ts': `import { NextRequest } from 'next/server';
import { authenticatedApiClient } from '@/modules/api/auth';

export const GET = async (request: NextRequest) =>
  authenticatedApiClient({
    request,
    handler: async ({ authentication }) => Response.json({ data: [], workspaces: authentication.workspaceIds }),
  });

// the body is a response: nothing guards it
export const HEAD = () => Response.json(null);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(' ')}`)).toEqual([
      'GET /api/v2/surveys authenticatedApiClient:auth+bearer:in-handler',
      'HEAD /api/v2/surveys ',
    ]);
  });

  it("a wrapper's options turn off its 401 (zipline's `withZipline(handler, { user: true })`); a token lookup answered with `res.forbidden(…)` authenticates", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'zipline', dependencies: { next: '12.3.4' } }),
        'src/lib/prisma.ts': `import { PrismaClient } from '@prisma/client';
export default new PrismaClient();
`,
        // res.unauthorized / res.forbidden are defined for every request; they answer only where called
        'src/lib/withZipline.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import prisma from './prisma';

export type ZiplineApiConfig = { methods: string[]; user?: boolean; administrator?: boolean };

export const withZipline =
  (handler: (req: NextApiRequest, res: NextApiResponse, user?: unknown) => Promise<unknown>, api_config: ZiplineApiConfig = { methods: ['GET'] }) =>
  (req: any, res: any) => {
    res.unauthorized = (message: string, extra: Record<string, unknown> = {}) => {
      res.json({ error: message, code: 401, ...extra }, 401);
    };
    res.forbidden = (message: string, extra: Record<string, unknown> = {}) => {
      res.json({ error: message, code: 403, ...extra }, 403);
    };
    res.json = (json: unknown, status = 200) => {
      res.setHeader('Content-Type', 'application/json');
      res.status(status);
      res.end(JSON.stringify(json));
    };
    req.user = async () => {
      const userId = req.cookies['user'];
      if (!userId) return null;
      return prisma.user.findFirst({ where: { uuid: userId } });
    };
    if (!api_config.methods.includes(req.method)) return res.json({ error: 'method not allowed', code: 405 }, 405);
    if (api_config.user) {
      return req.user().then((user: { administrator: boolean } | null) => {
        if (!user) return res.unauthorized('not logged in');
        if (api_config.administrator && !user.administrator) return res.forbidden('not an administrator');
        return handler(req, res, user);
      });
    }
    return handler(req, res);
  };
`,
        'src/pages/api/auth/register.ts': `import { withZipline } from '../../../lib/withZipline';
import prisma from '../../../lib/prisma';

async function handler(req: any, res: any) {
  const { username, password } = req.body;
  if (await prisma.user.findFirst({ where: { username } })) return res.badRequest('username taken');
  const user = await prisma.user.create({ data: { username, password } });
  return res.json({ id: user.id });
}

export default withZipline(handler, { methods: ['POST'] });
`,
        'src/pages/api/stats.ts': `import { withZipline } from '../../lib/withZipline';
import prisma from '../../lib/prisma';

async function handler(req: any, res: any, user: { id: number }) {
  const files = await prisma.file.count({ where: { userId: user.id } });
  return res.json({ files });
}

export default withZipline(handler, { methods: ['GET'], user: true });
`,
        'src/pages/api/upload.ts': `import { withZipline } from '../../lib/withZipline';
import prisma from '../../lib/prisma';

async function handler(req: any, res: any) {
  if (!req.headers.authorization) return res.forbidden('no authorization');
  const user = await prisma.user.findFirst({ where: { token: req.headers.authorization } });
  if (!user) return res.forbidden('authorization incorrect');
  const file = await prisma.file.create({ data: { userId: user.id, name: String(req.query.name) } });
  return res.json({ files: [file.name] });
}

export default withZipline(handler, { methods: ['POST'] });
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(' ')}`)).toEqual([
      // the wrapper's 401 is under `if (api_config.user)`, and these options leave it out (the
      // methods are those the options list)
      'POST /api/auth/register ',
      'GET /api/stats withZipline:auth:wrapper',
      'POST /api/upload prisma.user.findFirst:auth+bearer:in-handler',
    ]);
  });

  it('a function ending `return authenticatedApiClient({ request, handler })` is guarded the same; one returning a call handed no function is not', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'surveys', dependencies: { next: '15.5.4' } }),
        'lib/auth.ts': `import { NextRequest } from 'next/server';

type Authentication = { organizationId: string };

export async function authenticatedApiClient({ request, handler }: { request: NextRequest; handler: (ctx: { authentication: Authentication }) => Promise<Response> }) {
  const apiKey = request.headers.get('x-api-key');
  if (!apiKey) return Response.json({ error: 'Not authenticated' }, { status: 401 });
  return handler({ authentication: { organizationId: apiKey.slice(0, 8) } });
}
`,
        'lib/exports.ts': `export async function exportResponses(surveyId: string, downloadToken: string | undefined): Promise<Response> {
  if (!downloadToken) return Response.json({ error: 'the download link has expired' }, { status: 401 });
  return Response.json({ surveyId, url: \`/downloads/\${surveyId}.csv\` });
}
`,
        'app/api/v2/teams/route.ts': `import { NextRequest } from 'next/server';
import { authenticatedApiClient } from '../../../../lib/auth';

export async function GET(request: NextRequest) {
  return authenticatedApiClient({
    request,
    handler: async ({ authentication }) => Response.json({ data: [], organizationId: authentication.organizationId }),
  });
}
`,
        'app/api/v2/exports/route.ts': `import { NextRequest } from 'next/server';
import { exportResponses } from '../../../../lib/exports';

export async function POST(request: NextRequest) {
  const { surveyId, downloadToken } = await request.json();
  return exportResponses(surveyId, downloadToken);
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(' ')}`)).toEqual([
      'POST /api/v2/exports ',
      'GET /api/v2/teams authenticatedApiClient:auth+bearer:in-handler',
    ]);
  });
});

describe('Apollo Server handlers (@as-integrations/next)', () => {
  it("startServerAndCreateNextHandler(server) carries the server's own CSRF prevention, unless it is made with csrfPrevention: false", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'web', dependencies: { next: '15.5.4', '@apollo/server': '^4.11.0', '@as-integrations/next': '^3.2.0' } }),
        'lib/schema.ts': "export const typeDefs = 'type Query { sites: [String] }';\nexport const resolvers = { Query: { sites: () => [] } };\n",
        'pages/api/graphql.ts': `import { ApolloServer } from '@apollo/server';
import { startServerAndCreateNextHandler } from '@as-integrations/next';
import { typeDefs, resolvers } from '../../lib/schema';

const server = new ApolloServer({ typeDefs, resolvers });

export default startServerAndCreateNextHandler(server, { context: async (req) => ({ user: req.session?.user }) });
`,
        'app/api/public-graphql/route.ts': `import { ApolloServer } from '@apollo/server';
import { startServerAndCreateNextHandler } from '@as-integrations/next';
import type { NextRequest } from 'next/server';
import { typeDefs, resolvers } from '../../../lib/schema';

const server = new ApolloServer({ typeDefs, resolvers, csrfPrevention: false });
const handler = startServerAndCreateNextHandler<NextRequest>(server);

export { handler as GET, handler as POST };
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(' ')}`)).toEqual([
      'ALL /api/graphql ApolloServer csrfPrevention:csrf:in-handler',
      'GET /api/public-graphql ',
      'POST /api/public-graphql ',
    ]);
  });
});

describe('Pages Router handlers dispatching on req.method', () => {
  it('a route per method a branch serves, guarded by what leads the branch (the statements before the dispatch included); ALL for the rest unless it refuses (405) or does nothing', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'links', dependencies: { next: '14.2.15' } }),
        'lib/session.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export async function requireUser(req: NextApiRequest, res: NextApiResponse) {
  const user = (req as NextApiRequest & { session?: { user?: { id: string } } }).session?.user;
  if (!user) {
    res.status(401).json({ error: 'sign in first' });
    return null;
  }
  return user;
}
`,
        // switch: labels falling through share a branch; default answers 405
        'pages/api/collections/index.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { requireUser } from '../../../lib/session';

export default async function collections(req: NextApiRequest, res: NextApiResponse) {
  switch (req.method) {
    case 'GET':
    case 'HEAD': {
      const user = await requireUser(req, res);
      if (!user) return;
      return res.json({ owner: user.id, items: [] });
    }
    case 'POST':
      return res.status(201).json({ id: 'c1' });
    default:
      res.setHeader('Allow', ['GET', 'HEAD', 'POST']);
      return res.status(405).end();
  }
}
`,
        // a check before the dispatch leads every branch; else answers 405
        'pages/api/links/[id].ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { requireUser } from '../../../lib/session';

export default async function link(req: NextApiRequest, res: NextApiResponse) {
  const user = await requireUser(req, res);
  if (!user) return;
  if (req.method === 'GET') {
    return res.json({ id: req.query.id, owner: user.id });
  } else if (req.method === 'PUT' || req.method === 'PATCH') {
    return res.json({ id: req.query.id, updated: true });
  } else {
    return res.status(405).json({ error: 'Method not allowed' });
  }
}
`,
        // one method only: the guard clause refuses the others
        'pages/api/auth/forgot-password.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function forgotPassword(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'POST') {
    return res.status(405).json({ response: 'Method not allowed' });
  }
  return res.status(200).json({ response: 'If the address is known, a link was sent.' });
}
`,
        // ifs one after the other: the 401 of the PUT branch guards PUT only, and the statements
        // after them serve every other method
        'pages/api/profile.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function profile(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'GET') {
    return res.json({ name: 'public profile' });
  }
  if (req.method === 'PUT') {
    if (!(req as NextApiRequest & { session?: { user?: object } }).session?.user) return res.status(401).json({ error: 'sign in' });
    return res.json({ saved: true });
  }
  return res.json({ fallback: true });
}
`,
        // the Next.js docs' example: the method destructured from the request first
        'pages/api/user/[id].ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default function userHandler(req: NextApiRequest, res: NextApiResponse) {
  const { query, method } = req;
  const id = parseInt(query.id as string, 10);

  switch (method) {
    case 'GET':
      res.status(200).json({ id, name: \`User \${id}\` });
      break;
    case 'PUT':
      res.status(200).json({ id, name: query.name || \`User \${id}\` });
      break;
    default:
      res.setHeader('Allow', ['GET', 'PUT']);
      res.status(405).end(\`Method \${method} Not Allowed\`);
  }
}
`,
        // a handler returning a call that hands its request on: the dispatch of the function called,
        // after what leads the handler; routes placed at the handler (the branches are elsewhere)
        'lib/billing/cancel-route.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export async function handleRoute(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'POST') {
    const session = (req as NextApiRequest & { session?: { user?: { id: string } } }).session;
    if (!session?.user) {
      res.status(401).end('Unauthorized');
      return;
    }
    return res.json({ cancelled: true });
  } else if (req.method === 'GET') {
    return res.json({ reasons: ['price', 'features'] });
  }
  return res.status(405).end();
}
`,
        'pages/api/teams/[teamId]/billing/cancel.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { handleRoute } from '../../../../../lib/billing/cancel-route';

export default async function handle(req: NextApiRequest, res: NextApiResponse) {
  return handleRoute(req, res);
}
`,
        'pages/api/teams/[teamId]/billing/pause.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { handleRoute } from '../../../../../lib/billing/cancel-route';
import { requireUser } from '../../../../../lib/session';

export default async function handle(req: NextApiRequest, res: NextApiResponse) {
  const user = await requireUser(req, res);
  if (!user) return;
  return await handleRoute(req, res);
}
`,
        // the dispatch in a try block, after a session check and a check in the block: the
        // statements before it lead every branch, the catch answers errors
        'pages/api/account/passkeys.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { requireUser } from '../../../lib/session';

export default async function passkeys(req: NextApiRequest, res: NextApiResponse) {
  const user = await requireUser(req, res);
  if (!user) return;
  try {
    if (!req.headers['x-device']) return res.status(400).json({ error: 'device header required' });
    if (req.method === 'GET') {
      return res.json({ passkeys: [], owner: user.id });
    }
    if (req.method === 'DELETE') {
      res.status(204).end();
      return;
    }
    return res.status(405).json({ error: 'Method not allowed' });
  } catch (error) {
    return res.status(500).json({ error: String(error) });
  }
}
`,
        // in a try block with nothing before it, a branch that does not leave the body goes on
        // with what follows the try: here the 405
        'pages/api/account/export.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function exportAccount(req: NextApiRequest, res: NextApiResponse) {
  try {
    switch (req.method) {
      case 'POST':
        res.status(202).json({ queued: true });
        return;
    }
  } catch (error) {
    return res.status(500).end();
  }
  return res.status(405).end();
}
`,
        // a branch, then a test refusing every other method: each is served (langfuse's
        // `if (req.method === "HEAD") …; if (req.method !== "POST") return res.status(405)…`)
        'pages/api/uploads.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function uploads(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'HEAD') return res.status(200).end();
  if (req.method !== 'POST') return res.status(405).end();
  res.status(201).json({ id: String(Date.now()) });
}
`,
        // a 405 under a condition refuses only some requests: the rest is served (langfuse's NextAuth handler)
        'pages/api/relay.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function relay(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'OPTIONS') return res.status(204).end();
  const isCallback = String(req.query.step ?? '') === 'callback';
  if (isCallback && req.method !== 'POST') return res.status(405).end();
  return res.json({ relayed: true });
}
`,
        // an error saying the method is not supported refuses the rest as a 405 does (Prisma's
        // examples: Next.js answers the throw with a 500), in a switch's default and an else
        'pages/api/drafts/[id].ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function draft(req: NextApiRequest, res: NextApiResponse) {
  switch (req.method) {
    case 'DELETE':
      return res.json({ deleted: req.query.id });
    default:
      throw new Error(
        \`The HTTP \${req.method} method is not supported at this route.\`,
      );
  }
}
`,
        'pages/api/drafts/[id]/publish.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default async function publish(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'PUT') {
    res.json({ published: req.query.id });
  } else {
    res.status(400).json({ error: 'Unsupported HTTP method' });
  }
}
`,
        // a method in lower case never matches (Node spells methods in capitals): no dispatch read
        'pages/api/legacy.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export default function legacy(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'get') return res.json([]);
  return res.status(204).end();
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}:${r.column} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'POST /api/account/export pages/api/account/export.ts:6:7 ',
      'DELETE /api/account/passkeys pages/api/account/passkeys.ts:12:5 requireUser:auth',
      'GET /api/account/passkeys pages/api/account/passkeys.ts:9:5 requireUser:auth',
      'POST /api/auth/forgot-password pages/api/auth/forgot-password.ts:4:3 ',
      'GET /api/collections pages/api/collections/index.ts:6:5 requireUser:auth',
      'HEAD /api/collections pages/api/collections/index.ts:6:5 requireUser:auth',
      'POST /api/collections pages/api/collections/index.ts:12:5 ',
      'DELETE /api/drafts/:id pages/api/drafts/[id].ts:5:5 ',
      'PUT /api/drafts/:id/publish pages/api/drafts/[id]/publish.ts:4:3 ',
      'ALL /api/legacy pages/api/legacy.ts:3:1 ',
      'GET /api/links/:id pages/api/links/[id].ts:7:3 requireUser:auth',
      'PATCH /api/links/:id pages/api/links/[id].ts:9:10 requireUser:auth',
      'PUT /api/links/:id pages/api/links/[id].ts:9:10 requireUser:auth',
      'ALL /api/profile pages/api/profile.ts:3:1 ',
      'GET /api/profile pages/api/profile.ts:4:3 ',
      'PUT /api/profile pages/api/profile.ts:7:3 (inline 401 check):auth',
      'ALL /api/relay pages/api/relay.ts:3:1 ',
      'OPTIONS /api/relay pages/api/relay.ts:4:3 ',
      'GET /api/teams/:teamId/billing/cancel pages/api/teams/[teamId]/billing/cancel.ts:4:1 ',
      'POST /api/teams/:teamId/billing/cancel pages/api/teams/[teamId]/billing/cancel.ts:4:1 (inline 401 check):auth',
      'GET /api/teams/:teamId/billing/pause pages/api/teams/[teamId]/billing/pause.ts:5:1 requireUser:auth',
      'POST /api/teams/:teamId/billing/pause pages/api/teams/[teamId]/billing/pause.ts:5:1 requireUser:auth (inline 401 check):auth',
      'HEAD /api/uploads pages/api/uploads.ts:4:3 ',
      'POST /api/uploads pages/api/uploads.ts:5:3 ',
      'GET /api/user/:id pages/api/user/[id].ts:8:5 ',
      'PUT /api/user/:id pages/api/user/[id].ts:11:5 ',
    ]);
  });

  it("a table of handlers by method handed to the function that makes the handler (langfuse's `withMiddlewares({ GET, POST })`): a route per method it holds, guarded by what leads its entry", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'traces', dependencies: { next: '14.2.15' } }),
        'lib/with-middlewares.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

type Handler = (req: NextApiRequest, res: NextApiResponse) => Promise<void>;
type Handlers = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;

export function withMiddlewares(handlers: Handlers) {
  return async (req: NextApiRequest, res: NextApiResponse) => {
    try {
      const method = req.method as keyof Handlers;
      const handler = handlers[method];
      if (!handler) return res.status(405).json({ message: 'Method not allowed' });
      return await handler(req, res);
    } catch (error) {
      return res.status(500).json({ message: String(error) });
    }
  };
}
`,
        'lib/authed-route.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

type Route<T> = { fn: (args: { req: NextApiRequest; projectId: string }) => Promise<T> };

// an API key in the Authorization header, a project's
export function createAuthedRoute<T>(route: Route<T>) {
  return async (req: NextApiRequest, res: NextApiResponse) => {
    const key = req.headers.authorization;
    if (!key || !key.startsWith('Bearer pk-')) {
      res.status(401).json({ message: 'Invalid API key' });
      return;
    }
    res.status(200).json(await route.fn({ req, projectId: key.slice('Bearer pk-'.length) }));
  };
}
`,
        'pages/api/public/traces.ts': `import { createAuthedRoute } from '../../../lib/authed-route';
import { withMiddlewares } from '../../../lib/with-middlewares';

export default withMiddlewares({
  GET: createAuthedRoute({ fn: async ({ projectId }) => ({ projectId, traces: [] }) }),
  POST: createAuthedRoute({ fn: async ({ req, projectId }) => ({ projectId, id: String(req.body?.id ?? '') }) }),
});
`,
        // the same table with an entry of no check
        'pages/api/public/health.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { withMiddlewares } from '../../../lib/with-middlewares';

async function health(_req: NextApiRequest, res: NextApiResponse) {
  res.status(200).json({ status: 'OK' });
}

export default withMiddlewares({ GET: health });
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'GET /api/public/health pages/api/public/health.ts:8 ',
      // (the entry's own check, as for a handler exported whole: \`export default createAuthedRoute(…)\`)
      'GET /api/public/traces pages/api/public/traces.ts:4 (inline 401 check):auth',
      'POST /api/public/traces pages/api/public/traces.ts:4 (inline 401 check):auth',
    ]);
  });

  it('a table of functions by method (`const handler = HANDLERS[req.method]; … return handler(req, res)`): a route per method it holds, guarded by what leads that function', async () => {
    const session = `import type { NextApiRequest, NextApiResponse } from 'next';
import { getServerSession } from 'next-auth/next';
import { authOptions } from '../../../lib/auth';

async function list(req: NextApiRequest, res: NextApiResponse) {
  const session = await getServerSession(req, res, authOptions);
  if (!session) return res.status(401).json({ error: 'Unauthorized' });
  return res.json([]);
}

async function create(req: NextApiRequest, res: NextApiResponse) {
  const session = await getServerSession(req, res, authOptions);
  if (!session) return res.status(401).json({ error: 'Unauthorized' });
  return res.status(201).json({ id: 1 });
}
`;
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'rooms', dependencies: { next: '14.2.15', 'next-auth': '4.24.0' } }),
        'lib/auth.ts': `export const authOptions = { providers: [] };\n`,
        // a local holding the lookup, refused (405) when the table has no function for the method
        'pages/api/sites/index.ts': `${session}
const handlers = { GET: list, POST: create };

export default async function handle(req: NextApiRequest, res: NextApiResponse) {
  const handler = handlers[req.method as keyof typeof handlers];
  if (!handler) {
    return res.status(405).json({ error: 'Method not allowed' });
  }
  return handler(req, res);
}
`,
        // the lookup called in place, a function written in the table; nothing for another method
        'pages/api/sites/[id].ts': `${session}
const handlers: Record<string, (req: NextApiRequest, res: NextApiResponse) => Promise<unknown>> = {
  GET: list,
  DELETE: async (req, res) => res.status(204).end(),
};

export default async function handle(req: NextApiRequest, res: NextApiResponse) {
  return handlers[req.method!]?.(req, res);
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(' ')}`)).toEqual([
      'GET /api/sites pages/api/sites/index.ts:17 (inline 401 check):auth',
      'POST /api/sites pages/api/sites/index.ts:17 (inline 401 check):auth',
      'DELETE /api/sites/:id pages/api/sites/[id].ts:19 ',
      'GET /api/sites/:id pages/api/sites/[id].ts:18 (inline 401 check):auth',
    ]);
  });

  it("a wrapper refusing (405) the methods its options do not list: the handler's routes are those methods (zipline's `withZipline(handler, { methods })`)", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'shots', dependencies: { next: '12.3.4' } }),
        'lib/api.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

type Handler = (req: NextApiRequest, res: NextApiResponse) => Promise<unknown>;
export type ApiConfig = { methods: string[] };

// answers the preflight itself, then refuses the methods it was not given
export const withApi =
  (handler: Handler, config: ApiConfig = { methods: ['GET', 'OPTIONS'] }) =>
  (req: NextApiRequest, res: NextApiResponse) => {
    res.setHeader('Access-Control-Allow-Methods', config.methods.join(','));
    if (req.method === 'OPTIONS') return res.status(204).end();
    if (!config.methods.includes(req.method as string)) return res.status(405).json({ error: 'method not allowed' });
    return handler(req, res);
  };

// logs the request before it tests the method: what it hands the request to may answer any method
export const withAudit =
  (handler: Handler, config: ApiConfig) =>
  (req: NextApiRequest, res: NextApiResponse) => {
    audit(req);
    if (!config.methods.includes(req.method as string)) return res.status(405).end();
    return handler(req, res);
  };

function audit(req: NextApiRequest) {
  console.log(req.method, req.url);
}
`,
        'pages/api/images.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { withApi } from '../../lib/api';

async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (req.method === 'DELETE') return res.json({ deleted: req.query.id });
  return res.json({ images: [] });
}

// ('patch' is a method no request has: Node spells them in capitals)
export default withApi(handler, { methods: ['GET', 'DELETE', 'patch'] });
`,
        'pages/api/version.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { withApi } from '../../lib/api';

async function handler(_req: NextApiRequest, res: NextApiResponse) {
  return res.json({ version: '3.7.0' });
}

export default withApi(handler);
`,
        'pages/api/upload.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { withApi } from '../../lib/api';

const methods = process.env.UPLOAD_METHODS!.split(',');

async function handler(_req: NextApiRequest, res: NextApiResponse) {
  return res.json({ uploaded: true });
}

export default withApi(handler, { methods });
`,
        'pages/api/audit.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { withAudit } from '../../lib/api';

async function handler(_req: NextApiRequest, res: NextApiResponse) {
  return res.json({ entries: [] });
}

export default withAudit(handler, { methods: ['GET'] });
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      // the handler's own branch, and the rest it serves: GET, the one method left of those listed
      'ALL /api/audit pages/api/audit.ts:8',
      'DELETE /api/images pages/api/images.ts:5',
      'GET /api/images pages/api/images.ts:10',
      // a list not known statically leaves every method
      'ALL /api/upload pages/api/upload.ts:10',
      // no options: the parameter's default, but for OPTIONS, which the wrapper answers before its test
      'GET /api/version pages/api/version.ts:8',
    ]);
  });
});

describe('Pages Router handlers that are next-connect routers', () => {
  it("a route per method the router registers, behind its use() middleware registered before it and the route's own functions: 1.x createRouter().handler() and 0.x nc()", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '14.2.15', 'next-connect': '1.0.0' } }),
        'lib/auth.ts': `import type { NextApiRequest, NextApiResponse } from 'next';

export async function requireSession(req: NextApiRequest, res: NextApiResponse, next: () => Promise<void>) {
  if (!req.cookies['cp.sid']) {
    res.status(401).json({ error: 'sign in first' });
    return;
  }
  await next();
}

export async function requireAdmin(req: NextApiRequest, res: NextApiResponse, next: () => Promise<void>) {
  if ((req as NextApiRequest & { role?: string }).role !== 'admin') {
    res.status(403).json({ error: 'admins only' });
    return;
  }
  await next();
}
`,
        // the listing before the session check; the rest after it
        'pages/api/sites/index.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import { createRouter } from 'next-connect';
import { requireAdmin, requireSession } from '../../../lib/auth';

const router = createRouter<NextApiRequest, NextApiResponse>();

router.get(async (req, res) => {
  res.json([]);
});

router
  .use(requireSession)
  .post(async (req, res) => {
    res.status(201).json({ id: 's1' });
  })
  .delete(requireAdmin, async (req, res) => {
    res.status(204).end();
  });

export default router.handler({
  onError: (err, req, res) => {
    res.status(500).end();
  },
});
`,
        'pages/api/legacy.ts': `import nc from 'next-connect';
import { requireSession } from '../../lib/auth';

const handler = nc()
  .use(requireSession)
  .all((req, res) => res.json({ legacy: true }));

export default handler;
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name} ${g.mechanism}`).join(', ')}]`)).toEqual([
      'ALL /api/legacy pages/api/legacy.ts:6 [requireSession router.use]',
      'DELETE /api/sites pages/api/sites/index.ts:16 [requireSession router.use, requireAdmin route-middleware]',
      'GET /api/sites pages/api/sites/index.ts:7 []',
      'POST /api/sites pages/api/sites/index.ts:13 [requireSession router.use]',
    ]);
  });
});

describe('next-connect without Next.js', () => {
  it('a package importing next-connect but not next is no Next.js app: its pages/ folder routes nothing', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'worker', dependencies: { 'next-connect': '1.0.0' } }),
        'pages/api/ping.ts': `import { createRouter } from 'next-connect';

const router = createRouter();
router.get((req, res) => res.end('pong'));

export default router.handler();
`,
      }),
    );
    expect(res.routes).toEqual([]);
  });
});

describe('App Router handlers that run a next-connect router', () => {
  it("`return router.run(request, ctx)`: the route of each exported method is behind the router's use() functions and the own functions of its first registration for that method", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '14.2.15', 'next-connect': '1.0.0' } }),
        'app/api/projects/route.ts': `import type { NextRequest } from 'next/server';
import { NextResponse } from 'next/server';
import { createEdgeRouter } from 'next-connect';

async function requireSession(req: NextRequest, ctx: unknown, next: () => Promise<Response>) {
  if (!req.cookies.get('cp.sid')) return NextResponse.json({ error: 'sign in first' }, { status: 401 });
  return next();
}

async function requireOwner(req: NextRequest, ctx: unknown, next: () => Promise<Response>) {
  if (req.headers.get('x-role') !== 'owner') return NextResponse.json({ error: 'owners only' }, { status: 403 });
  return next();
}

const router = createEdgeRouter<NextRequest, { params: Record<string, string> }>();
router.get(() => NextResponse.json([]));
router.use(requireSession);
router.post(requireOwner, () => NextResponse.json({ id: 'p1' }, { status: 201 }));

export async function GET(request: NextRequest, ctx: { params: Record<string, string> }) {
  return router.run(request, ctx);
}

export async function POST(request: NextRequest, ctx: { params: Record<string, string> }) {
  return router.run(request, ctx);
}
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name} ${g.mechanism}`).join(', ')}]`)).toEqual([
      'GET /api/projects []',
      'POST /api/projects [requireSession router.use, requireOwner route-middleware]',
    ]);
  });
});

describe('catch-all routes against the contract', () => {
  it('samePath: a catch-all takes one segment or more; an optional one also none', () => {
    expect(samePath('/api/docs/:slug*?', '/api/docs', false, false)).toBe(true);
    expect(samePath('/api/docs/:slug*', '/api/docs', false, false)).toBe(false);
    expect(samePath('/api/docs/:slug*', '/api/docs/guides/setup', false, false)).toBe(true);
    expect(samePath('/api/:org/docs/:slug*', '/api/acme/docs/setup', false, false)).toBe(true);
    expect(samePath('/:slug*', '/pricing', false, false)).toBe(true);
    // the trailing slash, as the route matches it
    expect(samePath('/api/docs/:slug*', '/api/docs/setup/', false, false)).toBe(false);
    expect(samePath('/api/docs/:slug*', '/api/docs/setup/', true, false)).toBe(true);
    expect(samePath('/api/docs/:slug*', '/api/sites/setup', false, false)).toBe(false);
  });

  it("middleware's allowlist read from a destructured pathname, after a branch that answers /ping itself, handing on with NextResponse.next()", async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'chat', dependencies: { next: '15.3.0', 'next-auth': '5.0.0-beta.25' } }),
        'middleware.ts': `
import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';

export async function middleware(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith('/ping')) {
    return new Response('pong', { status: 200 });
  }
  if (pathname.startsWith('/api/auth')) {
    return NextResponse.next();
  }
  const token = await getToken({ req: request, secret: process.env.AUTH_SECRET });
  if (!token) return NextResponse.json({ error: 'sign in' }, { status: 401 });
  return NextResponse.next();
}

export const config = { matcher: ['/api/:path*'] };
`,
        'app/api/auth/guest/route.ts': `export async function GET() {\n  return Response.json({ guest: true });\n}\n`,
        'app/api/chat/route.ts': `export async function POST(request: Request) {\n  const { message } = await request.json();\n  return Response.json({ reply: message });\n}\n`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.guards.map((g) => g.name).join(' ')}`.trim())).toEqual(['GET /api/auth/guest', 'POST /api/chat middleware']);
  });

  it("middleware redirecting a request without the session cookie to log in refuses it, after its allowlist; a cookie named for something else checks no user", async () => {
    const project = (cookie: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.3.0' } }),
        'middleware.ts': `
import { NextResponse, type NextRequest } from 'next/server';

export function middleware(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith('/api/public')) return NextResponse.next();
  const session = request.cookies.get('${cookie}')?.value;
  if (!session) return NextResponse.redirect(new URL('/login', request.url));
  return NextResponse.next();
}

export const config = { matcher: ['/api/:path*'] };
`,
        'app/api/public/status/route.ts': `export async function GET() {
  return Response.json({ ok: true });
}
`,
        'app/api/sites/route.ts': `export async function GET() {
  return Response.json([]);
}
`,
      });
    const rows = (res: Awaited<ReturnType<typeof check>>) => res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(', ')}]`);
    const session = await check(project('__Secure-console.session'));
    expect(rows(session)).toEqual(['GET /api/public/status []', 'GET /api/sites [middleware:auth:next-middleware]']);
    // (auth in the middleware alone: CVE-2025-29927's bypass leaves it open)
    expect(session.findings.filter((f) => f.ruleId === 'middleware-only-guard').map((f) => `${f.file}:${f.line}`)).toEqual(['app/api/sites/route.ts:1']);
    expect(rows(await check(project('theme')))).toEqual(['GET /api/public/status []', 'GET /api/sites [middleware:unknown:next-middleware]']);
  });

  it("Supabase: the user supabase.auth.getUser() gives (destructured), or getClaims()'s claims, is the signed-in user; a middleware handing the request to a helper that redirects without one is guarded by it", async () => {
    const project = (read: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.3.0', '@supabase/ssr': '0.6.1' } }),
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
        'utils/supabase/middleware.ts': `
import { createServerClient } from '@supabase/ssr';
import { NextResponse, type NextRequest } from 'next/server';

export async function updateSession(request: NextRequest) {
  const response = NextResponse.next({ request });
  const supabase = createServerClient(process.env.NEXT_PUBLIC_SUPABASE_URL!, process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!, {
    cookies: { getAll: () => request.cookies.getAll(), setAll: () => {} },
  });
${read}
  if (!user) {
    return NextResponse.redirect(new URL('/login', request.url));
  }
  return response;
}
`,
        'middleware.ts': `
import { type NextRequest } from 'next/server';
import { updateSession } from '@/utils/supabase/middleware';

export async function middleware(request: NextRequest) {
  return await updateSession(request);
}

export const config = { matcher: ['/api/:path*'] };
`,
        'app/api/sites/route.ts': `export async function GET() {\n  return Response.json([]);\n}\n`,
        'app/api/public/ping/route.ts': `export async function GET() {\n  return Response.json({ ok: true });\n}\n`,
      });
    const rows = (res: Awaited<ReturnType<typeof check>>) =>
      res.routes.filter((r) => r.path === '/api/sites').map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
    const getUser = await check(project('  const { data: { user } } = await supabase.auth.getUser();'));
    expect(rows(getUser)).toEqual(['GET /api/sites [(inline signed-in check):auth]']);
    // (what the helper lets through before its check, its allowlist, the check does not guard)
    const open = await check(project("  if (request.nextUrl.pathname.startsWith('/api/public')) return NextResponse.next();\n  const { data: { user } } = await supabase.auth.getUser();"));
    expect(open.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]${(r.skippedGuards ?? []).map((g) => ` ${g.name} lets through ${g.skips}`).join('')}`)).toEqual([
      'GET /api/public/ping [] (inline signed-in check) lets through paths starting with /api/public',
      'GET /api/sites [(inline signed-in check)]',
    ]);
    // (a check the middleware runs, by way of the helper, is the middleware's: bypassed with it)
    expect(getUser.routes[0]!.guards.map((g) => g.mechanism)).toEqual(['next-middleware']);
    expect(getUser.findings.filter((f) => f.ruleId === 'middleware-only-guard').map((f) => `${f.file}:${f.line}`)).toEqual(['app/api/public/ping/route.ts:1', 'app/api/sites/route.ts:1']);
    expect(rows(await check(project('  const { data } = await supabase.auth.getClaims();\n  const user = data?.claims;')))).toEqual(['GET /api/sites [(inline signed-in check):auth]']);
    // (a user looked up by what the request names is no signed-in user)
    expect(rows(await check(project("  const { data: { user } } = await supabase.auth.admin.getUserById(request.nextUrl.searchParams.get('id')!);")))).toEqual(['GET /api/sites []']);
  });

  it("a helper a route handler awaits, throwing when supabase.auth.getUser() has no user (chatbot-ui's getServerProfile, `(await supabase.auth.getUser()).data.user`), checks the signed-in user for it, in a try too; one answering null does not", async () => {
    const dir = (check: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'chat', dependencies: { next: '14.1.3', '@supabase/ssr': '0.0.10' } }),
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
        'lib/server/server-chat-helpers.ts': `
import { createServerClient } from '@supabase/ssr';
import { cookies } from 'next/headers';

export async function getServerProfile() {
  const cookieStore = cookies();
  const supabase = createServerClient(process.env.NEXT_PUBLIC_SUPABASE_URL!, process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!, {
    cookies: { get: (name: string) => cookieStore.get(name)?.value },
  });
  const user = (await supabase.auth.getUser()).data.user;
${check}
  const { data: profile } = await supabase.from('profiles').select('*').eq('user_id', user.id).single();
  return profile;
}
`,
        'app/api/chat/openai/route.ts': `
import { getServerProfile } from '@/lib/server/server-chat-helpers';

export async function POST(request: Request) {
  const { messages } = await request.json();
  try {
    const profile = await getServerProfile();
    return Response.json({ model: profile.model, messages });
  } catch (error: any) {
    return new Response(JSON.stringify({ message: error.message }), { status: error.status || 500 });
  }
}
`,
        'app/api/keys/route.ts': `
import { getServerProfile } from '@/lib/server/server-chat-helpers';

export async function GET() {
  const profile = await getServerProfile();
  return Response.json({ hasKey: !!profile?.openai_api_key });
}
`,
      });
    const rows = async (d: string) => (await check(d)).routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
    expect(await rows(dir("  if (!user) {\n    throw new Error('User not found');\n  }"))).toEqual(['POST /api/chat/openai [getServerProfile:auth]', 'GET /api/keys [getServerProfile:auth]']);
    expect(await rows(dir('  if (!user) return null;'))).toEqual(['POST /api/chat/openai []', 'GET /api/keys []']);
  });

  it("Supabase's template: a redirect when `!user && !pathname.startsWith('/login') && …` guards every path but those the conjuncts test; an allowlist returning the response NextResponse.next() made hands the request on", async () => {
    const project = (check: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.3.0', '@supabase/ssr': '0.6.1' } }),
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
        // (utils/supabase/middleware.ts of the with-supabase template, `create-next-app -e with-supabase`)
        'utils/supabase/middleware.ts': `
import { createServerClient } from '@supabase/ssr';
import { NextResponse, type NextRequest } from 'next/server';

export async function updateSession(request: NextRequest) {
  let supabaseResponse = NextResponse.next({ request });
  const supabase = createServerClient(process.env.NEXT_PUBLIC_SUPABASE_URL!, process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!, {
    cookies: {
      getAll() {
        return request.cookies.getAll();
      },
      setAll(cookiesToSet) {
        cookiesToSet.forEach(({ name, value }) => request.cookies.set(name, value));
        supabaseResponse = NextResponse.next({ request });
        cookiesToSet.forEach(({ name, value, options }) => supabaseResponse.cookies.set(name, value, options));
      },
    },
  });

  const {
    data: { user },
    error,
  } = await supabase.auth.getUser();
${check}
    const url = request.nextUrl.clone();
    url.pathname = '/login';
    return NextResponse.redirect(url);
  }

  return supabaseResponse;
}
`,
        'middleware.ts': `
import { type NextRequest } from 'next/server';
import { updateSession } from '@/utils/supabase/middleware';

export async function middleware(request: NextRequest) {
  return await updateSession(request);
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
`,
        'app/api/sites/route.ts': `export async function GET() {\n  return Response.json([]);\n}\n`,
        'app/auth/callback/route.ts': `export async function GET(request: Request) {\n  return Response.redirect(new URL('/', request.url));\n}\n`,
        'app/api/public/ping/route.ts': `export async function GET() {\n  return Response.json({ ok: true });\n}\n`,
      });
    const rows = (res: Awaited<ReturnType<typeof check>>) =>
      res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => g.name).join(', ')}]${(r.skippedGuards ?? []).map((g) => ` ${g.name} lets through ${g.skips}`).join('')}`);
    const template = await check(project("  if (!user && !request.nextUrl.pathname.startsWith('/login') && !request.nextUrl.pathname.startsWith('/auth')) {"));
    expect(rows(template)).toEqual([
      'GET /api/public/ping [(inline signed-in check)]',
      'GET /api/sites [(inline signed-in check)]',
      'GET /auth/callback [] (inline signed-in check) lets through paths starting with /auth',
    ]);
    expect(template.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => f.file)).toEqual(['app/auth/callback/route.ts']);
    // (the paths tested by a local: `const isProtectedRoute = …; if (!user && isProtectedRoute)`)
    const held = "  const { pathname } = request.nextUrl;\n  const isProtectedRoute = !pathname.startsWith('/auth') && !pathname.startsWith('/api/public') && pathname !== '/';\n  if (!user && isProtectedRoute) {";
    expect(rows(await check(project(held)))).toEqual([
      'GET /api/public/ping [] (inline signed-in check) lets through paths starting with /api/public',
      'GET /api/sites [(inline signed-in check)]',
      'GET /auth/callback [] (inline signed-in check) lets through paths starting with /auth',
    ]);
    // (a conjunct testing anything but the URL lets some requests without a user through for it: no check)
    const errorPasses = "  if (!user && !error?.message?.includes('refresh_token') && !request.nextUrl.pathname.startsWith('/auth')) {";
    expect(rows(await check(project(errorPasses)))).toEqual(['GET /api/public/ping []', 'GET /api/sites []', 'GET /auth/callback []']);
    // (an allowlist handing the request on by returning the response NextResponse.next() made)
    const allowlist = "  if (request.nextUrl.pathname.startsWith('/api/public')) return supabaseResponse;\n  if (!user) {";
    expect(rows(await check(project(allowlist)))).toEqual([
      'GET /api/public/ping [] (inline signed-in check) lets through paths starting with /api/public',
      'GET /api/sites [(inline signed-in check)]',
      'GET /auth/callback [(inline signed-in check)]',
    ]);
  });

  it("a helper returning nothing for a request without a session, or whose membership lookup by the signed-in user finds nothing, checks that for a handler refusing on its empty answer (papermark's getAuthenticatedAdmin, its lookup keyed by a workspace here)", async () => {
    const project = (refuse: string) =>
      writeProject({
        'package.json': JSON.stringify({ name: 'rooms', dependencies: { next: '15.3.0', 'next-auth': '4.24.0', '@prisma/client': '6.0.0' } }),
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
        'lib/auth.ts': `export const authOptions = { providers: [] };\n`,
        'lib/prisma.ts': `import { PrismaClient } from '@prisma/client';\nexport default new PrismaClient();\n`,
        'app/api/workspaces/[workspaceId]/saml/route.ts': `
import { getServerSession } from 'next-auth/next';
import { NextResponse } from 'next/server';
import { authOptions } from '@/lib/auth';
import prisma from '@/lib/prisma';

async function getAuthenticatedAdmin(workspaceId: string) {
  const session = await getServerSession(authOptions);
  if (!session) return null;

  const userId = (session.user as { id: string }).id;

  const access = await prisma.membership.findUnique({
    where: { userId_workspaceId: { userId, workspaceId } },
    select: { role: true },
  });

  if (!access || access.role !== 'ADMIN') return null;

  return { userId, workspaceId };
}

export async function GET(req: Request, { params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const auth = await getAuthenticatedAdmin(workspaceId);
${refuse}
  const connections = await prisma.samlConnection.findMany({ where: { workspaceId } });
  return NextResponse.json(connections);
}
`,
      });
    const rows = (res: Awaited<ReturnType<typeof check>>) => res.routes.map((r) => `${r.method} ${r.path} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);
    // (the family its name says kept beside: an ops guard, by name)
    const refusing = (response: string) => `  if (!auth) {\n    return ${response};\n  }`;
    expect(rows(await check(project(refusing("NextResponse.json({ error: 'Unauthorized' }, { status: 401 })"))))).toEqual([
      'GET /api/workspaces/:workspaceId/saml [(inline 401 check):auth, getAuthenticatedAdmin:auth+tenant+family]',
    ]);
    // (refused whatever the status: the helper says who has no session, or is no member)
    expect(rows(await check(project(refusing("NextResponse.json({ error: 'Not allowed' }, { status: 400 })"))))).toEqual(['GET /api/workspaces/:workspaceId/saml [getAuthenticatedAdmin:auth+tenant+family]']);
    // (its empty answer only logged: the work runs for every request)
    expect(rows(await check(project("  if (!auth) console.warn('no admin for', workspaceId);")))).toEqual(['GET /api/workspaces/:workspaceId/saml []']);
  });

  it('a catch-all whose handlers are handle(app) of hono/vercel is the Hono app: its routes, not the catch-all, are served', async () => {
    const res = await check(
      writeProject({
        'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '15.3.0', hono: '4.7.0' } }),
        'app/api/[[...route]]/route.ts': `
import { Hono } from 'hono';
import { handle } from 'hono/vercel';
import { bearerAuth } from 'hono/bearer-auth';

const app = new Hono().basePath('/api');
app.use('/sites/*', bearerAuth({ token: process.env.DASHBOARD_TOKEN! }));
app.get('/sites/', (c) => c.json({ items: [] }));
app.get('/health/ready', (c) => c.json({ status: 'ready' }));

export const GET = handle(app);
export const POST = handle(app);
`,
      }),
    );
    expect(res.routes.map((r) => `${r.framework} ${r.method} ${r.path}`)).toEqual(['hono GET /api/health/ready', 'hono GET /api/sites/']);
    // the catch-all no longer stands in for contract routes nobody serves
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.message)).toContain('contract route GET /api/auth/me/ is not served by any analysed app');
  });

  it('an optional catch-all serves the contract route of its base (here in the other trailing-slash form: a drift)', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '15.3.0' } }),
      'lib/session.ts': `
import { cookies } from 'next/headers';
export async function getSession() {
  const sid = (await cookies()).get('sid')?.value;
  return sid ? { userId: sid } : null;
}
`,
      'app/api/sites/[[...slug]]/route.ts': `
import { NextResponse } from 'next/server';
import { getSession } from '../../../../lib/session';

export async function GET(_req: Request, { params }: { params: Promise<{ slug?: string[] }> }) {
  const session = await getSession();
  if (!session) return NextResponse.json({ error: 'sign in' }, { status: 401 });
  const { slug } = await params;
  return NextResponse.json({ owner: session.userId, site: slug?.[0] ?? null });
}
`,
    });
    const res = await check(dir);
    const sites = res.routes.find((r) => r.path === '/api/sites/:slug*?')!;
    expect([sites.contractRoute, sites.contractMatch, sites.driftReason]).toEqual([
      'GET /api/sites/',
      'drift',
      'Next.js redirects each path it serves with a trailing slash to the other form (308, trailingSlash: false)',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'contract-route-missing').map((f) => f.message)).not.toContain('contract route GET /api/sites/ is not served by any analysed app');
  });

  it('with trailingSlash: true, an optional catch-all serves its base with the slash: the contract route, served', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '15.3.0' } }),
      'next.config.js': `module.exports = { trailingSlash: true };\n`,
      'app/api/databases/[[...slug]]/route.ts': `
import { NextResponse } from 'next/server';

export async function GET() {
  return NextResponse.json([]);
}
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => [r.method, r.path, r.contractRoute, r.contractMatch])).toEqual([['GET', '/api/databases/:slug*?/', 'GET /api/databases/', 'served']]);
  });
});

describe('middlewareMatcherRegex (getMiddlewareMatchers)', () => {
  it('compiles a matcher like Next.js: _next/data and .json variants, optional trailing slash, case-sensitive', () => {
    const re = middlewareMatcherRegex('/api/:path*', '');
    expect(['/api', '/api/', '/api/sites', '/api/sites/a/b', '/_next/data/build1/api/sites.json'].map((p) => re.test(p))).toEqual([true, true, true, true, true]);
    expect(['/apis', '/API/sites', '/v1/api'].map((p) => re.test(p))).toEqual([false, false, false]);
  });

  it('prefixes the basePath and keeps negative lookaheads', () => {
    expect(middlewareMatcherRegex('/api/:path*', '/docs').test('/docs/api/x')).toBe(true);
    expect(middlewareMatcherRegex('/api/:path*', '/docs').test('/api/x')).toBe(false);
    const all = middlewareMatcherRegex('/((?!_next/static|favicon.ico).*)', '');
    expect([all.test('/api/sites'), all.test('/_next/static/chunk.js')]).toEqual([true, false]);
    expect(['/', '/index'].map((p) => middlewareMatcherRegex('/', '').test(p))).toEqual([true, true]);
  });
});

describe('segmentOf (App Router folder names)', () => {
  it('maps dynamic segments, drops groups and slots', () => {
    expect(['(marketing)', '@modal', '[id]', '[...slug]', '[[...slug]]', '%5Fhealth', 'sites'].map(segmentOf)).toEqual([
      null,
      null,
      ':id',
      ':slug*',
      ':slug*?',
      '_health',
      'sites',
    ]);
  });
});
