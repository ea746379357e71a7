/**
 * Broken and odd source: every such file yields a parse-error (or is skipped with a reason
 * that is reported) and the run goes on — no stack overflow, no hang, no lost routes
 * elsewhere. Large and binary inputs are generated here, never committed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { SERVER_ROUTES, checkJson, cleanProjects, findingKeys, findingLines, project, routeLines, write } from './helpers.js';

afterAll(cleanProjects);

const DEEP = 10_000;
const EXPRESS = "import express from 'express';\n";
const TOO_DEEP_FOR_PARSER = 'parse-error cannot parse: nested too deeply to analyse (stack overflow); not analysed';
const overBudget = (n: number): string => `parse-error cannot parse: syntax nested deeper than budgets.maxNestingDepth (${n}); not analysed`;

/** A mounted router file whose routes prove that the files around a broken one are still analysed. */
function billingRouter(extra = ''): string {
  return [
    "import { Router } from 'express';",
    "import { listInvoices } from '../services/billing.js';",
    '',
    'export const billingRouter = Router();',
    '',
    "billingRouter.get('/invoices', async (req, res) => {",
    '  res.json({ items: await listInvoices(req.tenantId) });',
    '});',
    extra,
  ].join('\n');
}

describe('broken and odd source files', () => {
  // One project holding every kind of broken file at once, next to the clean server.
  const files: Record<string, string | Buffer> = {
    'src/broken/syntax.ts': "import { Router } from 'express';\nexport const r = Router();\nr.get('/half', (req, res) => { res.json(\n",
    'src/broken/string.ts': "import { Router } from 'express';\nexport const r = Router();\nr.get('/greeting', (req, res) => res.send('hello));\n",
    'src/broken/template.ts': "import { Router } from 'express';\nexport const r = Router();\nr.get(`/api/${area}/items, list);\n",
    // cut-short imports: the compiler's recovery leaves an object literal where the module name goes
    'src/broken/imports.ts': "import { Router } from 'express';\nimport {\nimport {\nexport const r = Router();\n",
    'src/broken/empty.ts': '',
    'src/broken/blank.ts': '\n\n   \n',
    'src/broken/types.d.ts': "declare module 'billing' {\n  export function listInvoices(tenant: string): Promise<unknown[]>;\n}\n",
    // A PNG and an MPEG transport stream (the video format) that happen to be named .ts
    'src/broken/logo.ts': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    'src/broken/clip.ts': Buffer.concat([Buffer.from([0x47, 0x40, 0x11, 0x10]), Buffer.alloc(184, 0xff), Buffer.from([0x47, 0x00, 0x00, 0x10])]),
    // Route modules (they import the framework, so they are always parsed) nesting 10,000 deep.
    'src/deep/parens.ts': `${EXPRESS}export const x = ${'('.repeat(DEEP)}1${')'.repeat(DEEP)};\n`,
    'src/deep/arrays.ts': `${EXPRESS}export const x = ${'['.repeat(DEEP)}1${']'.repeat(DEEP)};\n`,
    'src/deep/calls.ts': `${EXPRESS}export const x = ${'f('.repeat(DEEP)}1${')'.repeat(DEEP)};\n`,
    'src/deep/objects.ts': `${EXPRESS}export const x = ${'{ a: '.repeat(DEEP)}1${' }'.repeat(DEEP)};\n`,
    'src/deep/arrows.ts': `${EXPRESS}export const x = ${'() => {'.repeat(DEEP)}${'}'.repeat(DEEP)};\n`,
    'src/deep/blocks.ts': `${EXPRESS}${'if (a) {'.repeat(DEEP)}${'}'.repeat(DEEP)}\n`,
    // These parse (the compiler builds them iteratively) but nest 10,000 levels deep.
    'src/deep/concat.ts': `${EXPRESS}export const x = ${'a + '.repeat(DEEP)}'end';\n`,
    'src/deep/members.ts': `${EXPRESS}export const x = a${'.b'.repeat(DEEP)};\n`,
    'src/deep/chain.ts': `${EXPRESS}app${".get('/x', h)".repeat(DEEP)};\n`,
    'src/deep/nots.ts': `${EXPRESS}export const x = ${'!'.repeat(DEEP)}a;\n`,
    'src/deep/else-if.ts': `${EXPRESS}if (a) {} ${'else if (a) {} '.repeat(DEEP)}\n`,
    'src/routes/billing.ts': billingRouter(),
  };

  it('reports each of them on its own line and still lists every route of the server', () => {
    const dir = project(files);
    write(dir, 'src/app.ts', mountBilling());
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual([
      'src/broken/clip.ts:1:1 parse-error cannot parse: binary file (a NUL byte at offset 189); not analysed',
      'src/broken/imports.ts:3:1 parse-error cannot parse: Identifier expected.',
      'src/broken/logo.ts:1:1 parse-error cannot parse: binary file (a NUL byte at offset 8); not analysed',
      // the compiler places these at the end of the line / of the file, where it gave up
      'src/broken/string.ts:3:52 parse-error cannot parse: Unterminated string literal.',
      "src/broken/syntax.ts:4:1 parse-error cannot parse: ')' expected.",
      'src/broken/template.ts:4:1 parse-error cannot parse: Unterminated template literal.',
      // brackets: found in the tokens, at the 501st opening one, before the parser could overflow
      `src/deep/arrays.ts:2:518 ${overBudget(500)}`,
      `src/deep/arrows.ts:2:3518 ${overBudget(500)}`,
      `src/deep/blocks.ts:2:4004 ${overBudget(500)}`,
      `src/deep/calls.ts:2:1019 ${overBudget(500)}`,
      // chains the compiler builds without recursion: at the first node deeper than 500
      `src/deep/chain.ts:2:1 ${overBudget(500)}`,
      `src/deep/concat.ts:2:18 ${overBudget(500)}`,
      // chains the compiler's parser recurses on: its stack overflow is caught
      `src/deep/else-if.ts:1:1 ${TOO_DEEP_FOR_PARSER}`,
      `src/deep/members.ts:2:18 ${overBudget(500)}`,
      `src/deep/nots.ts:1:1 ${TOO_DEEP_FOR_PARSER}`,
      `src/deep/objects.ts:2:2518 ${overBudget(500)}`,
      `src/deep/parens.ts:2:518 ${overBudget(500)}`,
    ]);
    // The compiler recovers the routes of half-written files (the unterminated template swallows its route).
    expect(routeLines(r)).toEqual([
      'GET /api/auth/me/ src/routes/account.ts:5',
      'GET /api/billing/invoices src/routes/billing.ts:6',
      'GET /api/databases/ src/routes/resources.ts:14',
      'GET /api/deployments/ src/routes/resources.ts:10',
      'GET /api/health/ready src/routes/health.ts:6',
      'POST /api/internal/reindex src/routes/internal.ts:6',
      'GET /api/sites/ src/routes/resources.ts:6',
      'GET /greeting src/broken/string.ts:3',
      'GET /half src/broken/syntax.ts:3',
    ]);
    // Declaration files are never analysed (they hold no runtime code); empty files are.
    expect(r.summary.files).toBe(9 + 1 + 19);
    expect(r.findings.some((f) => f.file.endsWith('.d.ts') || f.file.includes('empty') || f.file.includes('blank'))).toBe(false);
  });

  it('stays within the stack for every kind of nesting up to the depth budget', async () => {
    // Each construct just under maxNestingDepth (500) — the recursive walks must survive it —
    // and a route registered at the bottom of 200 nested blocks is still found.
    const levels = (n: number, open: string, close: string, inner: string): string => open.repeat(n) + inner + close.repeat(n);
    const dir = project({
      'src/near/blocks.ts': EXPRESS + levels(245, 'if (flag) {\n', '}\n', ''),
      'src/near/arrows.ts': EXPRESS + `export const x = ${levels(160, '() => {\n', '}', '')};\n`,
      'src/near/returns.ts': EXPRESS + `export const x = ${levels(160, 'function () { return ', ' }', '1')};\n`,
      'src/near/ternary.ts': EXPRESS + `export const x = ${'a ? b : '.repeat(480)}c;\n`,
      'src/near/concat.ts': EXPRESS + `export const x = ${'a + '.repeat(480)}'end';\n`,
      'src/near/members.ts': EXPRESS + `export const x = a${'.b'.repeat(480)};\n`,
      'src/near/chain.ts': EXPRESS + `export const x = q${".where('a', 1)".repeat(230)};\n`,
      'src/near/parens.ts': EXPRESS + `export const x = ${levels(480, '(', ')', '1')};\n`,
      'src/near/objects.ts': EXPRESS + `export const x = ${levels(80, '{ a: () => ({ b: ', ' }) }', '1')};\n`,
      'src/routes/billing.ts': billingRouter(`${levels(200, 'if (process.env.BILLING !== "off") {\n', '}\n', "billingRouter.get('/deep', (req, res) => res.json({ ok: true }));\n")}`),
    });
    write(dir, 'src/app.ts', mountBilling());
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual([]);
    expect(routeLines(r).filter((l) => l.includes('billing'))).toEqual(['GET /api/billing/deep src/routes/billing.ts:209', 'GET /api/billing/invoices src/routes/billing.ts:6']);
    // In-process too, where the test runner's frames already sit on the stack.
    const inProcess = await run({ cwd: dir, paths: [], prefilter: false });
    expect(inProcess.findings.filter((f) => f.ruleId === 'parse-error')).toEqual([]);
    expect(inProcess.routes.map((x) => `${x.method} ${x.path}`)).toContain('GET /api/billing/deep');
  });

  it('reads a source file spelling a NUL byte in a string as text; a UTF-8 file padded with NUL bytes stays binary', () => {
    const dir = project({
      // (docmost's file-name sanitiser test: `['null\0byte.txt', 'nullbyte.txt']`, the NUL byte raw)
      'src/routes/uploads.ts': [
        "import { Router } from 'express';",
        '',
        "const ILLEGAL = ['null\u0000byte.txt', 'semi;colon.txt'];",
        '',
        'export const uploadsRouter = Router();',
        '',
        "uploadsRouter.get('/illegal-names', (req, res) => {",
        '  res.json({ names: ILLEGAL });',
        '});',
        '',
      ].join('\n'),
      // a tar archive's header: ASCII names and numbers, NUL-padded (valid UTF-8 all the same)
      'src/broken/bundle.ts': Buffer.concat([Buffer.from('src/app.ts'), Buffer.alloc(90, 0), Buffer.from('0000644\u00000000000\u0000'), Buffer.alloc(40, 0)]),
    });
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual(['src/broken/bundle.ts:1:1 parse-error cannot parse: binary file (a NUL byte at offset 10); not analysed']);
    expect(routeLines(r)).toContain('GET /illegal-names src/routes/uploads.ts:7');
  });

  it('takes budgets.maxNestingDepth from the config and names the innermost place', () => {
    const dir = project({
      'route-surface.config.json': JSON.stringify({ budgets: { maxNestingDepth: 40 } }),
      'src/routes/billing.ts': billingRouter(`${'if (process.env.BILLING !== "off") {\n'.repeat(30)}billingRouter.get('/deep', (req, res) => res.json({ ok: true }));\n${'}\n'.repeat(30)}`),
    });
    write(dir, 'src/app.ts', mountBilling());
    const r = checkJson(dir);
    // The k-th `if` (line 8 + k) is at depth 2k - 1 and the `process` of its condition at 2k + 3:
    // the first node deeper than 40 is that of the 19th `if`, on line 27.
    expect(findingLines(r, 'parse-error')).toEqual([`src/routes/billing.ts:27:5 ${overBudget(40)}`]);
    expect(routeLines(r).filter((l) => l.includes('billing'))).toEqual([]);
  });

  it('reads a BOM and CRLF line endings without shifting lines, columns or fingerprints', () => {
    const lf = billingRouter("billingRouter.post('/checkout', async (req, res) => {\n  res.status(201).json({ id: 'chk_1' });\n});\n");
    const plain = project({ 'src/routes/billing.ts': lf });
    write(plain, 'src/app.ts', mountBilling());
    const odd = project({ 'src/routes/billing.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf.replace(/\n/g, '\r\n'))]) });
    write(odd, 'src/app.ts', mountBilling());
    const a = checkJson(plain);
    const b = checkJson(odd);
    expect(findingLines(b, 'parse-error')).toEqual([]);
    expect(b.routes).toEqual(a.routes);
    expect(b.findings).toEqual(a.findings);
    expect(findingKeys(b).filter((l) => l.includes('billing.ts'))).toEqual([
      'src/routes/billing.ts:6:1 missing-auth-guard GET /api/billing/invoices',
      'src/routes/billing.ts:6:1 missing-tenant-guard GET /api/billing/invoices',
      'src/routes/billing.ts:6:1 uncontracted-route GET /api/billing/invoices',
      'src/routes/billing.ts:9:1 missing-auth-guard POST /api/billing/checkout',
      'src/routes/billing.ts:9:1 missing-csrf-guard POST /api/billing/checkout',
      'src/routes/billing.ts:9:1 missing-tenant-guard POST /api/billing/checkout',
      'src/routes/billing.ts:9:1 uncontracted-route POST /api/billing/checkout',
    ]);
  });

  it('decodes UTF-16 with a BOM as the compiler does', () => {
    const text = billingRouter();
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const dir = project({ 'src/routes/billing.ts': le });
    write(dir, 'src/app.ts', mountBilling());
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual([]);
    expect(routeLines(r)).toContain('GET /api/billing/invoices src/routes/billing.ts:6');
  });

  it('reports bytes that are not UTF-8 where they are, and still analyses the file', () => {
    const head = Buffer.from("import { Router } from 'express';\nimport { listInvoices } from '../services/billing.js';\n\n// Factur");
    const latin1 = Buffer.from([0xe9]); // "é" in ISO-8859-1
    const tail = Buffer.from(" en euros\nexport const billingRouter = Router();\n\nbillingRouter.get('/invoices', async (req, res) => {\n  res.json({ items: await listInvoices(req.tenantId) });\n});\n");
    const dir = project({ 'src/routes/billing.ts': Buffer.concat([head, latin1, tail]) });
    write(dir, 'src/app.ts', mountBilling());
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual([
      'src/routes/billing.ts:4:10 parse-error cannot parse: not valid UTF-8 (byte 0xe9); invalid bytes were read as U+FFFD, so strings containing them may be wrong',
    ]);
    expect(routeLines(r)).toContain('GET /api/billing/invoices src/routes/billing.ts:7');
  });

  it('extracts the routes of a minified one-line bundle with exact columns', () => {
    const parts = ['"use strict";var e=require("express"),r=e.Router(),a=e();'];
    for (let i = 0; i < 400; i++) parts.push(`function h${i}(t,n){n.json({id:${i},items:t.query.q?[t.query.q]:[]})}`);
    const routeAt: number[] = [];
    for (let i = 0; i < 400; i++) {
      routeAt.push(parts.join('').length + 1);
      parts.push(`r.get("/item${i}",h${i});`);
    }
    parts.push('a.use("/api/min",r);a.listen(3e3);');
    const bundle = parts.join('');
    expect(bundle.includes('\n')).toBe(false);
    const dir = project({ 'public/bundle.min.js': bundle }, false);
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual([]);
    expect(r.routes).toHaveLength(400);
    const byPath = new Map(r.routes.map((x) => [x.path, x]));
    for (const i of [0, 1, 217, 399]) expect(byPath.get(`/api/min/item${i}`)).toMatchObject({ file: 'public/bundle.min.js', line: 1, column: routeAt[i] });
  });

  it('skips a 5 MB file under the default size budget and analyses it when the budget allows', () => {
    const big = generatedModule(5 * 1024 * 1024, 'data');
    const dir = project({ 'src/generated/catalog.ts': big.text });
    const skipped = checkJson(dir);
    expect(findingLines(skipped, 'parse-error')).toEqual([
      `src/generated/catalog.ts:1:1 parse-error cannot parse: the file is ${big.bytes} bytes, over budgets.maxFileBytes (2000000); not analysed`,
    ]);
    expect(routeLines(skipped)).toEqual(SERVER_ROUTES);

    write(dir, 'route-surface.config.json', JSON.stringify({ budgets: { maxFileBytes: 6_000_000, maxFileMs: 120_000 } }));
    const analysed = checkJson(dir);
    expect(findingLines(analysed, 'parse-error')).toEqual([]);
    expect(routeLines(analysed)).toContain(`GET /api/catalog/last src/generated/catalog.ts:${big.lastRouteLine}`);
  });

  it('turns a file that takes longer than budgets.maxFileMs into a finding', () => {
    // 5 MB of route registrations: several seconds of parsing and extraction on the reference
    // machine, against a 200 ms budget; the extraction stops once the budget is spent.
    const big = generatedModule(5_000_000, 'routes');
    const dir = project({ 'route-surface.config.json': JSON.stringify({ budgets: { maxFileMs: 200, maxFileBytes: 6_000_000 } }), 'src/generated/catalog.ts': big.text });
    const r = checkJson(dir);
    expect(findingLines(r, 'parse-error')).toEqual([
      'src/generated/catalog.ts:1:1 parse-error cannot parse: analysis took longer than budgets.maxFileMs (200 ms); not analysed',
    ]);
    expect(routeLines(r)).toEqual(SERVER_ROUTES);
  });
});

/** The clean server's app.ts with a billing router mounted behind the session and tenant guards. */
function mountBilling(): string {
  return [
    "import express from 'express';",
    "import session from 'express-session';",
    "import { requireSession, requireTenant, requireServiceToken } from './middleware/auth.js';",
    "import { healthRouter } from './routes/health.js';",
    "import { accountRouter } from './routes/account.js';",
    "import { resourcesRouter } from './routes/resources.js';",
    "import { internalRouter } from './routes/internal.js';",
    "import { billingRouter } from './routes/billing.js';",
    '',
    'export function createApp(secret: string) {',
    '  const app = express();',
    "  app.use(express.json({ limit: '1mb' }));",
    "  app.use(session({ secret, name: 'sid', cookie: { httpOnly: true, secure: true, sameSite: 'lax' } }));",
    "  app.use('/api/health', healthRouter);",
    "  app.use('/api/internal', requireServiceToken, internalRouter);",
    "  app.use('/api/auth', requireSession, requireTenant, accountRouter);",
    "  app.use('/api/billing', billingRouter);",
    "  app.use('/api', requireSession, requireTenant, resourcesRouter);",
    '  return app;',
    '}',
    '',
  ].join('\n');
}

/**
 * A generated module of about `size` bytes: an Express app whose bulk is either one route per
 * catalogue entry (`routes`) or a data table, with a last route at the end.
 */
function generatedModule(size: number, bulk: 'routes' | 'data'): { text: string; bytes: number; lastRouteLine: number } {
  const lines = ["import express from 'express';", 'const app = express();', bulk === 'data' ? 'export const CATALOG = [' : ''];
  let n = 0;
  let bytes = lines.join('\n').length + 1;
  const tail = [bulk === 'data' ? '];' : '', "app.get('/api/catalog/last', (req, res) => res.json({ last: true }));", 'export default app;', ''];
  const tailBytes = tail.join('\n').length;
  while (bytes + tailBytes < size - 200) {
    const l =
      bulk === 'routes'
        ? `app.get('/api/catalog/${n}', (req, res) => { res.json({ id: ${n}, name: 'entry ${n}', tags: ['a', 'b'] }); });`
        : `  'entry ${n}: a catalogue line long enough to make the file big without making it deep',`;
    lines.push(l);
    bytes += l.length + 1;
    n++;
  }
  const pad = size - bytes - tailBytes - 1;
  lines.push(`// ${'x'.repeat(Math.max(0, pad - 3))}`);
  const lastRouteLine = lines.length + 2;
  const text = [...lines, ...tail].join('\n');
  return { text, bytes: Buffer.byteLength(text), lastRouteLine };
}
