import type { Value } from '../src/link/evaluate.js';
import type { RuleModule } from '../src/rule.js';
import { FLOW_COOKIE_NAME } from '../src/cookie-names.js';

/** Cookie names a session or a credential may go by (`sid` and `key` as a word of the name: not `sidebar_state`). */
const CREDENTIAL_COOKIE = /sess|(?:^|[._-])(?:sid|key)(?:$|[._-])|auth|token|jwt|bearer|credential|secret|api_?key|login|user|account|identity/i;

/**
 * Can the one cookie a `document.cookie` read picks out (DocumentCookieRead.cookie, the text it
 * looks for, its name first) hold a session or a credential? Yes unless its name is known and
 * named for nothing of the kind (`sidebar_state`, `theme`, `consent`), or for a sign-in flow's
 * step, error or CSRF token (FLOW_COOKIE_NAME: `auth_error`, `XSRF-TOKEN`).
 */
function mayHoldCredential(looked: Value): boolean {
  if (looked.t !== 'str') return true;
  // (`; theme=`, a separator the cookies are split at)
  const name = looked.v.replace(/=[^]*$/, '').replace(/^[;\s]+/, '').trim();
  return name === '' || (CREDENTIAL_COOKIE.test(name) && !FLOW_COOKIE_NAME.test(name));
}

export const rule: RuleModule = {
  meta: {
    id: 'session-token-exposure',
    defaultSeverity: 'error',
    description: 'A session id / session cookie value is returned in a response body, or read via document.cookie.',
    rationale:
      "A session handed to scripts becomes an exportable credential: it can be copied into automation or stolen by any script on the page. A session id counts when it is the caller's: read off the request (its session, its cookies) or off something named for a session or cookies; a session_id of stored rows (analytics events) or of a value the handler made is no one's credential. A read of document.cookie that picks out one cookie by a name no session or credential goes by (theme, sidebar_state, consent; a CSRF token, which a double-submit check has the script send back; a sign-in flow's error or state), chained or through a local holding the rows, or the cookies as one line split at `; NAME=`, hands over none; a helper picking the cookie its parameter names is judged by what each of its calls names, when the file alone calls it.",
    contract: '"Browser sessions are not exportable credentials. A session cookie must never be copied into a script, read from frontend code, or published as an API key."',
    examples: {
      fires: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "",
        "const app = express();",
        "app.get('/api/auth/me/', requireSession, requireTenant, (req, res) => {",
        "  res.json({ user: req.session.user, sessionId: req.sessionID });",
        "});",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import { requireSession, requireTenant } from './auth.js';",
        "",
        "const app = express();",
        "app.get('/api/auth/me/', requireSession, requireTenant, (req, res) => {",
        "  res.json({ user: req.session.user });",
        "});",
      ].join('\n'),
    },
  },
  check(ctx) {
    // What a function returns is a response body only when the function is a route handler.
    const handlers = new Set(ctx.routes.flatMap((r) => (r.handlerFn ? [`${r.handlerFn.file}:${r.handlerFn.fn}`] : [])));
    for (const [file, facts] of ctx.files) {
      const exposed = (x: { at: { line: number; column: number }; text: string; snippet: string }): void =>
        ctx.report({ file, line: x.at.line, column: x.at.column, message: `the session id (${x.text}) is put in a response body`, snippet: x.snippet });
      for (const f of facts.functions) {
        f.sessionExposures.forEach(exposed);
        // (most functions return none: the handler key is built only for those that do)
        if (f.returnedSessionExposures.length > 0 && handlers.has(`${file}:${f.id}`)) f.returnedSessionExposures.forEach(exposed);
      }
      for (const d of facts.documentCookieReads) {
        const looked = d.picks ?? (d.cookie ? [d.cookie] : []);
        if (looked.length > 0 && !looked.some((e) => mayHoldCredential(ctx.ev.eval(file, e)))) continue;
        ctx.report({ file, line: d.at.line, column: d.at.column, message: 'document.cookie is read by script: session cookies must never be handed to scripts', snippet: d.snippet });
      }
    }
  },
};
