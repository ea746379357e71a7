import { ruleTester } from '../helpers/rule-tester.js';

const inBody = (text: string) => `the session id (${text}) is put in a response body`;

ruleTester('session-token-exposure', {
  valid: [
    { dir: 'valid/identity-without-the-session-id', name: 'the session user and expiry, not its id' },
    { dir: 'valid/script-writes-a-cookie', name: 'a browser script that writes document.cookie without reading it' },
    { dir: 'valid/script-reads-a-named-cookie', name: 'a browser script reading one cookie by a name no credential has (split/find, a row looked for whole, match, includes, rows kept in a local, or made an object read by one key; the cookies as one line split at `; NAME=`; a getCookie(name) helper the file alone calls, with such names; a test whether any cookie is readable), or a CSRF token or sign-in error, status or message named for auth' },
    { dir: 'valid/session-id-used-not-returned', name: 'the session id keys a query in a service whose return is not a response' },
    { dir: 'valid/analytics-session-ids', name: "analytics session ids: a visit context's, event rows' (a query builder naming session_id)" },
    { dir: 'valid/payment-checkout-session', name: "a payment provider's checkout and portal sessions handed to the page (Stripe's checkout.sessions.create)" },
    { dir: 'valid/domain-sessions', name: "sessions of other work, named so by what makes them (`importSessionsService.create`, karakeep's import jobs; `chatSessions.start`)" },
    { dir: 'valid/session-ids-of-other-things', name: "a `{ sessionId }` shorthand of a local taken from the URL (Trilium's chats) or made by the handler" },
  ],
  invalid: [
    { dir: 'invalid/session-id-in-the-body', name: 'req.sessionID in res.json', errors: [{ line: 6, column: 49, message: inBody('req.sessionID') }] },
    { dir: 'invalid/session-id-sent-as-text', name: "req.session.id through res.type(…).send()", errors: [{ line: 6, column: 31, message: inBody('req.session.id') }] },
    { dir: 'invalid/shorthand-from-a-local', name: '{ sessionId } from a local variable', errors: [{ line: 7, column: 24, message: inBody('sessionId') }] },
    { dir: 'invalid/session-id-through-a-local', name: 'req.sessionID held in a local that goes into res.json', errors: [{ line: 7, column: 18, message: inBody('req.sessionID') }] },
    { dir: 'invalid/session-of-a-lookup-returned', name: 'the session a lookup of the cookie found, its id returned', errors: [{ line: 10, column: 45, message: inBody('session.sessionId') }] },
    { dir: 'invalid/cookie-value-echoed', name: 'the session cookie echoed back', errors: [{ line: 6, column: 19, message: inBody("req.cookies['connect.sid']") }] },
    {
      dir: 'invalid/session-id-returned-by-a-handler',
      name: 'a Nest handler returning req.sessionID (what a handler returns is the body)',
      errors: [{ file: 'session.controller.ts', line: 11, column: 49, message: inBody('req.sessionID') }],
    },
    {
      dir: 'invalid/session-id-returned-through-a-wrapper',
      name: 'a Fastify handler returning the session id through an in-code wrapper that returns what it returns',
      errors: [{ line: 12, column: 53, message: inBody('request.session.sessionId') }],
    },
    {
      dir: 'invalid/script-reads-document-cookie',
      name: 'a browser script reading document.cookie',
      errors: [{ file: 'public/cli-login.js', line: 2, column: 53, message: 'document.cookie is read by script: session cookies must never be handed to scripts' }],
    },
    {
      dir: 'invalid/script-reads-a-token-cookie',
      name: 'a browser script reading a cookie named for a token, and every cookie (chained, and kept in a local handed on; an object of the cookies read by a session key, or by two keys; a getCookie(name) helper one of whose calls names the session, one exported, one handed on as a value)',
      errors: [5, 10, 15, 23, 28, 34, 45, 50].map((line, i) => ({
        file: 'public/api.js',
        line,
        column: [15, 29, 16, 38, 38, 22, 10, 10][i],
        message: 'document.cookie is read by script: session cookies must never be handed to scripts',
      })),
    },
  ],
});
