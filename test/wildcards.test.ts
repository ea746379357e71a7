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
    // a class, a group, a counted repeat, an escaped class, a flag that anchors elsewhere: not read
    ['^\\/api\\/[a-z]+', '', false],
    ['^\\/(api|assets)\\/', '', false],
    ['^\\/v\\d+\\/', '', false],
    ['^\\/a{2}', '', false],
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
