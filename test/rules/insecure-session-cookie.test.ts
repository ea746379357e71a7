import { ruleTester } from '../helpers/rule-tester.js';

ruleTester('insecure-session-cookie', {
  valid: [
    { dir: 'valid/express-session-secure', name: 'express-session with httpOnly and secure' },
    { dir: 'valid/cookie-session-secure', name: "cookie-session with secure (httpOnly is the package's default)" },
    { dir: 'valid/secure-from-an-expression', name: 'secure from an expression: not provably insecure' },
    { dir: 'valid/secure-set-in-production', name: '`let secure = false` set to true in production: not provably insecure' },
    { dir: 'valid/cookie-options-built-up', name: 'cookie options an object is given one by one (`cookie.secure = true` when configured)' },
    { dir: 'valid/cookie-flag-changed-later', name: '`{ secure: false }` then `cookie.secure = true` in production: not provably insecure' },
    { dir: 'valid/nested-cookie-flag-changed-later', name: "session options whose cookie's `secure: false` is set to true in production (`sess.cookie.secure = true`, hyperdx's): not provably insecure" },
    { dir: 'valid/options-from-a-spread', name: 'session({ ...sessionConfig, store }): the cookie options come from the spread' },
    { dir: 'valid/spreads-referring-to-each-other', name: 'options objects that spread each other: not known, not provably insecure (and no endless lookup)' },
    { dir: 'valid/res-cookie', name: "res.cookie('sid', …) with both flags; a 'theme' cookie is not a session cookie" },
    { dir: 'valid/oauth-flow-cookies', name: "a sign-in flow's state, PKCE verifier and return-to cookies are not session cookies" },
    {
      dir: 'valid/flow-result-flags-for-a-script',
      name: "flags an OAuth callback leaves for the SPA, named for auth (maxun): a constant value (`res.cookie('robot_auth_status', 'success', …)`) or a status (`airtable_auth_status`) is no session cookie",
    },
    {
      dir: 'valid/koa-secure-default',
      name: "Koa's ctx.cookies.set and koa-session without `secure`: Koa makes a cookie Secure whenever the request is (`{ secure: request.secure }`), and HttpOnly by default: not provably insecure",
    },
    { dir: 'valid/secure-from-a-method-with-two-answers', name: '`secure: environment.isHttps()`, which returns false on one path only: not provably insecure' },
  ],
  invalid: [
    {
      dir: 'invalid/express-session-defaults',
      name: "express-session's cookie.secure defaults to false",
      errors: [{ line: 5, column: 9, message: 'express-session session cookie is configured without secure: true' }],
    },
    {
      dir: 'invalid/secure-let-never-set',
      name: '`let secure = false` only ever set to false again',
      errors: [{ line: 11, column: 9, message: 'express-session session cookie is configured without secure: true' }],
    },
    {
      dir: 'invalid/http-only-disabled',
      name: 'httpOnly: false',
      errors: [{ line: 6, column: 9, message: 'express-session session cookie is configured without httpOnly: true' }],
    },
    {
      dir: 'invalid/koa-cookies-set',
      name: "Koa's ctx.cookies.set('koa.sess', …) with secure: false",
      errors: [{ line: 10, column: 3, message: "session cookie 'koa.sess' is configured without secure: true" }],
    },
    {
      dir: 'invalid/auth-token-cookie',
      name: "a cookie named for authentication ('auth_token') without secure",
      errors: [{ line: 9, column: 3, message: "session cookie 'auth_token' is configured without secure: true" }],
    },
    {
      dir: 'invalid/signed-token-cookie-named-for-no-session',
      name: "a cookie named for no session that holds a token a JWT package signs (`res.cookie('token', jwt.sign(…))`, maxun; jose's SignJWT) is a session cookie; a theme cookie is not, nor one with both flags",
      errors: [
        { file: 'src/server.ts', line: 19, column: 3, message: "session cookie 'token' is configured without secure: true" },
        { file: 'src/server.ts', line: 32, column: 3, message: "session cookie 'jwt' is configured without httpOnly: true" },
      ],
    },
    {
      dir: 'invalid/secure-from-a-method-always-false',
      name: '`secure: environment.isHttps()`, which returns false on every path',
      errors: [{ line: 19, column: 3, message: "session cookie 'authToken' is configured without secure: true" }],
    },
    {
      dir: 'invalid/res-cookie-defaults',
      name: 'res.cookie defaults both flags to false',
      errors: [{ line: 7, column: 3, message: "session cookie 'session' is configured without httpOnly: true and secure: true" }],
    },
    {
      dir: 'invalid/cookie-session-defaults',
      name: "cookie-session's secure defaults to false",
      errors: [{ line: 5, column: 9, message: 'cookie-session session cookie is configured without secure: true' }],
    },
    {
      dir: 'invalid/options-from-another-module',
      name: 'session(sessionOptions): options imported from another module',
      errors: [{ line: 6, column: 9, message: 'express-session session cookie is configured without secure: true' }],
    },
    {
      dir: 'invalid/spread-then-a-weaker-cookie',
      name: 'a cookie key after the spread replaces its cookie options',
      errors: [{ line: 16, column: 19, message: 'express-session session cookie is configured without secure: true' }],
    },
  ],
});
