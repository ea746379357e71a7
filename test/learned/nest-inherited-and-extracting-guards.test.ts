// Learned from a public NestJS storage gateway:
// - `class DefaultAuthGuard extends JwtAuthGuard {}` in a file importing nothing from Nest, over
//   `class JwtAuthGuard extends AuthGuard('jwt') {}`: the guard the controller names was
//   "(inline middleware)", unclassified;
// - a canActivate that returns false, first of all, when
//   `ExtractJwt.fromAuthHeaderAsBearerToken()(request)` gives no token was unclassified too.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, guardLines, ROOT } from '../helpers/run.js';

const DIR = path.join(ROOT, 'fixtures', 'learned', 'nest-inherited-and-extracting-guards');

describe('learned: Nest guards by what they extend and by a passport-jwt extractor', async () => {
  const res = await check(DIR);

  it('lists the routes', () => {
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /_health/live', 'GET /storage/:resourceId/:buildId/content', 'GET /storage/:resourceId/:buildId/list']);
  });

  it('classifies a guard by the classes it extends, and one refusing a request without a bearer token', () => {
    expect(guardLines(res, 'GET', '/storage/:resourceId/:buildId/list')).toEqual([
      'DefaultAuthGuard:auth+bearer:controller-guard:src/storage/storage.controller.ts:7',
      'CodeAccessGuard:auth+bearer:controller-guard:src/storage/storage.controller.ts:7',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.line} ${f.message}`)).toEqual(['5 GET /_health/live has no auth guard']);
  });
});
