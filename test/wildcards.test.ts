/**
 * Regular expressions of literal text and wildcards compared with the paths a route can be
 * requested at (src/link/wildcards.ts): each row is checked against what JavaScript's own
 * RegExp answers for request paths written out, so that a row that disagrees with the engine
 * fails as surely as one that disagrees with the table.
 */
import { describe, expect, it } from 'vitest';
import { wildcardMatches, wildcardPattern } from '../src/link/wildcards.js';

type Route = { path: string; caseSensitive?: boolean; trailingSlashInsensitive?: boolean };

describe('which expressions are read', () => {
  const rows: [string, string, boolean][] = [
    ['^\\/auth\\/.+', '', true],
    ['\\/v1\\/runs\\/.+\\/public', '', true],
    ['^\\/files\\/.*\\.png$', 'i', true],
    ['^\\/api\\/v1?\\/.+?$', '', true],
    ['^\\/price\\$', '', true],
    // classes, groups (named or not) with alternatives, counted repeats, escaped classes
    ['^\\/api\\/[a-z]+', '', true],
    ['^\\/(api|assets)\\/', '', true],
    ['^\\/(?<version>v\\d+)\\/', '', true],
    ['^\\/a{2,}[^/\\s]*$', '', true],
    ['^\\/api\\/\\x41\\u0042[\\b]?', '', true],
    // a lookaround, a backreference, a word boundary, a range from a class, a control escape, a
    // property, a flag that anchors elsewhere: not read
    ['^\\/(?!admin)', '', false],
    ['^\\/api(?=\\/)', '', false],
    ['^\\/(a)\\/\\1', '', false],
    ['\\bhealth\\b', '', false],
    ['^\\/[\\d-z]', '', false],
    ['^\\/\\cJ', '', false],
    ['^\\/\\p{L}', 'u', false],
    ['^\\/health', 'y', false],
    ['^\\/health', 'm', false],
  ];
  it.each(rows)('/%s/%s read: %s', (source, flags, read) => {
    expect(wildcardPattern(source, flags) !== null).toBe(read);
  });
});

/** The request paths of a route, as the frameworks match them: a parameter one segment, a wildcard any text. */
function requestPath(route: Route): RegExp {
  const body = route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+').replace(/\*/g, '.*');
  return new RegExp(`^${body}${route.trailingSlashInsensitive ? '/?' : ''}$`, route.caseSensitive ? '' : 'i');
}

describe('the request paths of a route an expression matches', () => {
  // [expression, flags, route, a request path to the route it matches (none: it matches
  // none), one it does not match (none: it matches every one)]
  const rows: [string, string, Route, string | null, string | null][] = [
    // a prefix with at least one character after it
    ['^\\/auth\\/.+', '', { path: '/auth/login', caseSensitive: true }, '/auth/login', null],
    ['^\\/auth\\/.+', '', { path: '/auth', caseSensitive: true }, null, '/auth'],
    // matched in any case, the route is also requested as /AUTH/login, which the expression misses
    ['^\\/auth\\/.+', '', { path: '/auth/login' }, '/auth/login', '/AUTH/login'],
    ['^\\/auth\\/.+', 'i', { path: '/auth/login' }, '/AUTH/login', null],
    // a parameter is one segment of one character or more, of any value
    ['\\/v1\\/runs\\/.+\\/public', '', { path: '/v1/runs/:id/public', caseSensitive: true }, '/v1/runs/42/public', null],
    ['\\/v1\\/runs\\/exports\\/.+', '', { path: '/v1/runs/:id/neighbors', caseSensitive: true }, '/v1/runs/exports/neighbors', '/v1/runs/42/neighbors'],
    ['\\/v1\\/runs\\/exports\\/.+', '', { path: '/v1/runs/:id', caseSensitive: true }, null, '/v1/runs/exports'],
    // an end anchor, and an extension a parameter may end in
    ['^\\/files\\/.*\\.png$', '', { path: '/files/:name', caseSensitive: true }, '/files/a.png', '/files/a'],
    ['^\\/files\\/.*\\.png$', '', { path: '/files/:name.png', caseSensitive: true }, '/files/a.png', null],
    ['^\\/files\\/.*\\.png$', '', { path: '/files/:name/raw', caseSensitive: true }, null, '/files/a.png/raw'],
    // a wildcard route holds every path below it; an optional trailing slash is a path of its own
    ['^\\/docs\\/.+', '', { path: '/docs/*', caseSensitive: true }, '/docs/a', '/docs/'],
    ['^\\/health$', '', { path: '/health', caseSensitive: true, trailingSlashInsensitive: true }, '/health', '/health/'],
    ['^\\/health\\/?$', '', { path: '/health', caseSensitive: true, trailingSlashInsensitive: true }, '/health/', null],
    // `.` is any one character, `?` makes one optional
    ['^\\/api\\/v.\\/status$', '', { path: '/api/:version/status', caseSensitive: true }, '/api/v2/status', '/api/v10/status'],
    ['^\\/api\\/v1?\\/status$', '', { path: '/api/v/status', caseSensitive: true }, '/api/v/status', null],
    // classes: a set, its complement, in either case with `i`; `\\d`, `\\w`, `\\s`
    ['^\\/api\\/[a-z]+$', '', { path: '/api/:name', caseSensitive: true }, '/api/sites', '/api/Sites'],
    ['^\\/api\\/[a-z]+$', 'i', { path: '/api/:name', caseSensitive: true }, '/api/Sites', '/api/s1'],
    ['^\\/api\\/[a-z]+$', '', { path: '/api/sites' }, '/api/sites', '/API/sites'],
    ['^\\/files\\/[^/]+$', '', { path: '/files/:name', caseSensitive: true }, '/files/a', null],
    ['^\\/files\\/[^/]+$', '', { path: '/files/*', caseSensitive: true }, '/files/a', '/files/a/b'],
    ['[^/]+\\.png$', '', { path: '/files/*', caseSensitive: true }, '/files/a.png', '/files/a'],
    ['^\\/api\\/v\\d+\\/health$', '', { path: '/api/:version/health', caseSensitive: true }, '/api/v2/health', '/api/x/health'],
    ['\\/\\w+\\.json$', '', { path: '/openapi.json', caseSensitive: true }, '/openapi.json', null],
    // (a request path holds no space, control character or line break as it is; a character
    // past ASCII it may, as Node reads a byte of the request line, a no-break space among them)
    ['^\\/[^\\s]+$', '', { path: '/sites/:id', caseSensitive: true }, '/sites/1', '/sites/a\u00a0b'],
    ['^\\/sites\\/.+$', '', { path: '/sites/:id', caseSensitive: true }, '/sites/1', null],
    ['^\\/[^a-z]', 'i', { path: '/:id', caseSensitive: true }, '/1', '/A'],
    // groups with alternatives, anchors in them, counted repeats
    ['^\\/(health|status)\\/?$', '', { path: '/status', caseSensitive: true, trailingSlashInsensitive: true }, '/status', null],
    ['^\\/health$|^\\/metrics$', '', { path: '/metrics', caseSensitive: true }, '/metrics', null],
    ['^\\/health$|^\\/metrics$', '', { path: '/v1/metrics', caseSensitive: true }, null, '/v1/metrics'],
    ['(^|\\/)public\\/', '', { path: '/v1/public/:id', caseSensitive: true }, '/v1/public/x', null],
    ['(^|\\/)public\\/', '', { path: '/v1/unpublic/:id', caseSensitive: true }, null, '/v1/unpublic/x'],
    ['^\\/(?:docs|api-docs)(?:\\/.*)?$', '', { path: '/api-docs/*', caseSensitive: true }, '/api-docs/', null],
    ['^\\/v\\d{1,2}\\/', '', { path: '/:version/sites', caseSensitive: true }, '/v1/sites', '/v100/sites'],
    ['^\\/(?<version>v[0-9]{2,})\\/', '', { path: '/:version/sites', caseSensitive: true }, '/v10/sites', '/v1/sites'],
    ['^\\/api\\/(?:[a-z]+\\/)*status$', '', { path: '/api/*', caseSensitive: true }, '/api/a/b/status', '/api/a/B/status'],
  ];
  it.each(rows)('/%s/%s on %o: matches %s, not %s', (source, flags, route, hit, miss) => {
    expect(wildcardMatches(wildcardPattern(source, flags)!, route)).toEqual({ some: hit !== null, every: miss === null });
    // each path given is one the route is requested at, and JavaScript's RegExp agrees with it
    for (const [path, matched] of [[hit, true], [miss, false]] as const) {
      if (path === null) continue;
      expect(requestPath(route).test(path)).toBe(true);
      expect(new RegExp(source, flags).test(path)).toBe(matched);
    }
  });
});

describe('the URLs of a route an expression matches (a query string may follow the path)', () => {
  const rows: [string, string, Route, string | null, string | null][] = [
    // an end anchor a query string escapes, and one `.*` lets it through
    ['^\\/reports\\.json$', '', { path: '/reports.json', caseSensitive: true }, '/reports.json', '/reports.json?x=1'],
    ['^\\/(health|status)$', '', { path: '/status', caseSensitive: true }, '/status', '/status?verbose'],
    ['^\\/api\\/admin\\/[a-z]+.*$', '', { path: '/api/admin/:id', caseSensitive: true }, '/api/admin/a?x', '/api/admin/1'],
    ['^\\/api\\/admin\\/.*$', '', { path: '/api/admin/:id', caseSensitive: true }, '/api/admin/1?x', null],
    // what only the query string holds
    ['^\\/api\\/sites.*public', '', { path: '/api/sites', caseSensitive: true }, '/api/sites?public', '/api/sites'],
  ];
  it.each(rows)('/%s/%s on %o: matches %s, not %s', (source, flags, route, hit, miss) => {
    expect(wildcardMatches(wildcardPattern(source, flags)!, route, true)).toEqual({ some: hit !== null, every: miss === null });
    const url = new RegExp(requestPath(route).source.replace(/\$$/, '(\\?.*)?$'), requestPath(route).flags);
    for (const [u, matched] of [[hit, true], [miss, false]] as const) {
      if (u === null) continue;
      expect(url.test(u)).toBe(true);
      expect(new RegExp(source, flags).test(u)).toBe(matched);
    }
  });
});
