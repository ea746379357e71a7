import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalisePath, parseTruth, routeKey, score, TruthFormatError, type ToolRoute, type TruthRoute } from '../scripts/real-world/score.js';
import { ROOT } from './helpers/run.js';

const HEAD = ['# repository: acme/billing', `# commit: ${'a'.repeat(40)}`, '# root: services/api', '# paths: src', '# exclude: **/*.test.ts **/__tests__/**', '# source: read by hand', 'method\tpath\tfile\tline\tauth'];

describe('real-world truth files', () => {
  it('parses the header, the metadata and the rows', () => {
    const t = parseTruth([...HEAD, 'GET\t/api/invoices/:id\tservices/api/src/invoices.ts\t12\tyes', 'ALL\t*\tservices/api/src/app.ts\t40\tno', ''].join('\n'), 'x.tsv');
    expect(t).toEqual({
      repository: 'acme/billing',
      commit: 'a'.repeat(40),
      root: 'services/api',
      paths: ['src'],
      exclude: ['**/*.test.ts', '**/__tests__/**'],
      source: 'read by hand',
      routes: [
        { method: 'GET', path: '/api/invoices/:id', file: 'services/api/src/invoices.ts', line: 12, auth: true },
        { method: 'ALL', path: '*', file: 'services/api/src/app.ts', line: 40, auth: false },
      ],
    });
  });

  it('rejects malformed rows and missing metadata with the file and line', () => {
    expect(() => parseTruth([...HEAD, 'get\t/x\tf.ts\t1\tyes'].join('\n'), 'x.tsv')).toThrow('x.tsv:8: method "get" is not upper-case letters');
    expect(() => parseTruth([...HEAD, 'GET\t/x\tf.ts\t1\tmaybe'].join('\n'), 'x.tsv')).toThrow('x.tsv:8: auth "maybe" is neither yes nor no');
    expect(() => parseTruth([...HEAD, 'GET\t/x\tf.ts\t1'].join('\n'), 'x.tsv')).toThrow('x.tsv:8: expected 5 tab-separated columns, found 4');
    expect(() => parseTruth(HEAD.filter((l) => !l.startsWith('# commit')).join('\n'), 'x.tsv')).toThrow(TruthFormatError);
  });

  it('every committed truth file parses, names a commit and lists no route twice in the same file and line', () => {
    const dir = path.join(ROOT, 'test', 'real-world');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.tsv'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const t = parseTruth(fs.readFileSync(path.join(dir, f), 'utf8'), f);
      expect(f).toBe(t.repository.replace('/', '__') + '.tsv');
      const keys = t.routes.map((r) => `${routeKey(r)} ${r.file}:${r.line}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});

describe('path normalisation', () => {
  it('spells every framework parameter and catch-all the same way', () => {
    expect(normalisePath('/sites/:siteId/members/:id')).toBe('/sites/:/members/:');
    expect(normalisePath('/sites/{siteId}/members/{id}')).toBe('/sites/:/members/:');
    expect(normalisePath('/sites/[siteId]/members/[id]')).toBe('/sites/:/members/:');
    expect(normalisePath('/files/[...path]')).toBe('/files/*');
    expect(normalisePath('/files/[[...path]]')).toBe('/files/*');
    expect(normalisePath('/files/:path*')).toBe('/files/*');
    expect(normalisePath('/files/*')).toBe('/files/*');
    expect(normalisePath('*')).toBe('/*');
    expect(normalisePath('/users/:id(\\d+)')).toBe('/users/:');
    expect(normalisePath('/users/:id?')).toBe('/users/:');
    expect(normalisePath('/v1/projects:batchGet')).toBe('/v1/projects:batchGet');
  });

  it('drops a trailing slash but keeps the root', () => {
    expect(normalisePath('/api/links/')).toBe('/api/links');
    expect(normalisePath('/')).toBe('/');
  });
});

describe('scoring', () => {
  const t = (method: string, p: string, auth: boolean, file = 'src/a.ts', line = 1): TruthRoute => ({ method, path: p, file, line, auth });
  const r = (method: string, p: string, auth: boolean, file = 'src/a.ts', line = 1): ToolRoute => ({ method, path: p, file, line, auth });

  it('counts recall, precision and auth agreement on method + normalised path', () => {
    const s = score(
      [t('GET', '/api/sites/', true), t('POST', '/api/sites/{id}', true), t('GET', '/health', false), t('DELETE', '/api/sites/:id', true)],
      [r('GET', '/api/sites', true), r('POST', '/api/sites/:siteId', false), r('GET', '/health', false), r('PUT', '/api/sites/:id', true), r('GET', '/debug', false)],
    );
    expect([s.truth, s.found, s.matched, s.authAgree]).toEqual([4, 5, 3, 2]);
    expect(s.recall).toBe(0.75);
    expect(s.precision).toBe(0.6);
    expect(s.authAgreement).toBeCloseTo(2 / 3, 10);
    expect(s.missed.map((x) => `${x.method} ${x.path}`)).toEqual(['DELETE /api/sites/:id']);
    expect(s.extra.map((x) => `${x.method} ${x.path}`)).toEqual(['PUT /api/sites/:id', 'GET /debug']);
    expect(s.authDisagree.map((d) => `${d.truth.method} ${d.truth.path}`)).toEqual(['POST /api/sites/{id}']);
  });

  it('matches as multisets, pairing each truth route with the nearest registration of the same file', () => {
    const s = score(
      [t('GET', '/x', false, 'src/a.ts', 10), t('GET', '/x', true, 'src/b.ts', 20)],
      [r('GET', '/x', true, 'src/b.ts', 21), r('GET', '/x', false, 'src/a.ts', 10), r('GET', '/x', false, 'src/c.ts', 1)],
    );
    expect([s.matched, s.authAgree]).toEqual([2, 2]);
    expect(s.extra).toEqual([r('GET', '/x', false, 'src/c.ts', 1)]);
  });

  it('treats an empty side as perfect rather than dividing by zero', () => {
    const s = score([], []);
    expect([s.recall, s.precision, s.authAgreement]).toEqual([1, 1, 1]);
  });
});
