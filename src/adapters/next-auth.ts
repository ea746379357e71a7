/**
 * NextAuth.js at its catch-all route (`app/api/auth/[...nextauth]/route.ts`,
 * `pages/api/auth/[...nextauth].ts`): the handler answers the actions the first segment below the
 * route's place names, each for its methods, the provider the second names where an action takes
 * one; any other path or method is answered 400 ("This action with HTTP … is not supported"). So
 * the route is the endpoints of those actions, not one route for every path below it.
 *
 * - next-auth 4 (read at 4.24, src/core/index.ts): the handler is `NextAuth(options)`; GET
 *   answers providers, session, csrf, signin, signout, callback (a provider's), verify-request
 *   and error; POST answers signin and callback (a provider's), signout, session (an update)
 *   and _log (the client's log lines, for a `logger` option).
 * - next-auth 5 (Auth.js, @auth/core 0.37, src/lib/index.ts and utils/actions.ts): the handlers
 *   are `NextAuth(config).handlers.GET` and `.POST`; GET answers the same actions but _log, and
 *   webauthn-options (a provider's); POST answers signin, callback, signout and session.
 *
 * Its CSRF protection: POST signin, signout and session need the double-submit token
 * (`csrfTokenVerified`: the form's `csrfToken` equal to the hash its cookie holds); POST callback
 * needs it for the credentials provider, and an OAuth provider's callback the `state` (and PKCE)
 * its sign-in set in a cookie. _log checks nothing.
 */
import type { Value } from '../link/evaluate.js';

/** One endpoint of NextAuth's: its method and its path below the catch-all's place. */
export interface NextAuthEndpoint {
  method: 'GET' | 'POST';
  path: string;
  /** how NextAuth refuses a cross-site request to it, when it does */
  csrf: string | null;
}

const TOKEN = "next-auth verifies its double-submit CSRF token (the form's csrfToken against its cookie's hash)";

const SHARED: NextAuthEndpoint[] = [
  { method: 'GET', path: 'providers', csrf: null },
  { method: 'GET', path: 'session', csrf: null },
  { method: 'GET', path: 'csrf', csrf: null },
  { method: 'GET', path: 'signin', csrf: null },
  { method: 'GET', path: 'signin/:provider', csrf: null },
  { method: 'GET', path: 'signout', csrf: null },
  { method: 'GET', path: 'callback/:provider', csrf: null },
  { method: 'GET', path: 'verify-request', csrf: null },
  { method: 'GET', path: 'error', csrf: null },
  { method: 'POST', path: 'signin/:provider', csrf: TOKEN },
  { method: 'POST', path: 'signout', csrf: TOKEN },
  { method: 'POST', path: 'session', csrf: TOKEN },
  {
    method: 'POST',
    path: 'callback/:provider',
    csrf: "next-auth verifies its double-submit CSRF token for the credentials provider, and an OAuth provider's state against the cookie its sign-in set",
  },
];

const ENDPOINTS: Record<4 | 5, NextAuthEndpoint[]> = {
  4: [...SHARED, { method: 'POST', path: '_log', csrf: null }],
  5: [...SHARED, { method: 'GET', path: 'webauthn-options/:provider', csrf: null }],
};

/**
 * Which NextAuth a route's handler is: 4 for `NextAuth(options)`, or a handler answering with
 * `NextAuth(req, res, options)` (next-auth 4's "advanced initialization", `handedOn`: what the
 * handler returns); 5 for `NextAuth(config).handlers.GET` / `.POST`; null for any other value.
 */
export function nextAuthVersion(v: Value, handedOn = false): 4 | 5 | null {
  if (v.t !== 'pkg' || v.pkg !== 'next-auth') return null;
  const path = v.path.filter((p) => p !== 'default').join('.');
  if (path === '' && v.called && v.args.length === (handedOn ? 3 : 1)) return 4;
  if (handedOn) return null;
  if (path === '().handlers.GET' || path === '().handlers.POST') return 5;
  return null;
}

/** The endpoints a NextAuth handler answers for `method` (`ALL`: a Pages Router handler, every method). */
export function nextAuthEndpoints(version: 4 | 5, method: string): NextAuthEndpoint[] {
  return ENDPOINTS[version].filter((e) => method === 'ALL' || e.method === method);
}
