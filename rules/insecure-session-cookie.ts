import type { Value } from '../src/link/evaluate.js';
import type { RuleModule } from '../src/rule.js';

/** A flag's default: on, off, or decided per request (null: not known statically). */
type Defaults = { httpOnly: boolean | null; secure: boolean | null };

/**
 * Per session package: where its cookie options live and its defaults. koa-session hands its
 * options to Koa's `ctx.cookies.set`, whose `secure` defaults to the request's own
 * (`request.secure`, koa/lib/context.js): Secure on every HTTPS request.
 */
const SESSION_PACKAGES: Record<string, { nested: boolean } & Defaults> = {
  'express-session': { nested: true, httpOnly: true, secure: false },
  '@fastify/session': { nested: true, httpOnly: true, secure: true },
  '@fastify/secure-session': { nested: true, httpOnly: false, secure: false },
  'cookie-session': { nested: false, httpOnly: true, secure: false },
  'koa-session': { nested: false, httpOnly: true, secure: null },
};

/**
 * A token a JWT package signs: jsonwebtoken's `sign(…)`, jose's `new SignJWT(…)….sign(…)` — what a
 * cookie holding it authenticates, whatever its name (maxun's `res.cookie('token', jwt.sign({ id }, secret))`).
 */
function signedToken(v: Value): boolean {
  if (v.t !== 'pkg' || !v.called) return false;
  const last = v.path[v.path.length - 1];
  return (v.pkg === 'jsonwebtoken' && v.path.length === 1 && last === 'sign') || (v.pkg === 'jose' && v.path[0] === 'SignJWT' && last === 'sign');
}

export const rule: RuleModule = {
  meta: {
    id: 'insecure-session-cookie',
    defaultSeverity: 'error',
    description: 'A session cookie is configured without httpOnly: true and secure: true.',
    rationale: 'Without HttpOnly, any script on the page can read the session; without Secure, it travels in clear text. Package defaults are modelled (express-session and cookie-session default httpOnly to true but secure to false; res.cookie defaults both to false; Koa\'s ctx.cookies.set, and koa-session through it, default httpOnly to true and secure to the request\'s own, Secure over HTTPS, which is not provably insecure). Only a flag provably false fires: one computed (`secure: isProduction`), or set to another value somewhere (`let secure = false; if (production) secure = true`), is not known statically. A cookie set by hand is a session cookie by its name (sess, sid, auth in it), unless the name is a sign-in flow\'s step, error or status (an OAuth state, a PKCE verifier, a return-to, auth_error, auth_status) or a CSRF token\'s, or it is set to a constant; whatever its name, a cookie set to a token a JWT package signs (jsonwebtoken\'s sign, jose\'s SignJWT) is one too.',
    contract: '"Authenticated reads use a secure, HttpOnly browser session cookie."',
    examples: {
      fires: [
        "import express from 'express';",
        "import session from 'express-session';",
        "",
        "const app = express();",
        "app.use(",
        "  session({",
        "    secret: process.env.SESSION_SECRET!,",
        "    resave: false,",
        "    saveUninitialized: false,",
        "    cookie: { httpOnly: true } // secure defaults to false,",
        "  }),",
        ");",
      ].join('\n'),
      passes: [
        "import express from 'express';",
        "import session from 'express-session';",
        "",
        "const app = express();",
        "app.use(",
        "  session({",
        "    secret: process.env.SESSION_SECRET!,",
        "    resave: false,",
        "    saveUninitialized: false,",
        "    cookie: { httpOnly: true, secure: true, sameSite: 'lax' },",
        "  }),",
        ");",
      ].join('\n'),
    },
  },
  check(ctx) {
    for (const [file, facts] of ctx.files) {
      for (const c of facts.cookies) {
        const callee = ctx.ev.eval(file, c.callee);
        let defaults: Defaults;
        let opts: Value = c.options ? ctx.ev.eval(file, c.options) : { t: 'unknown', why: 'none' };
        let what: string;
        if (c.kind === 'session-middleware') {
          if (callee.t !== 'pkg' || callee.path.length > 0) continue;
          const pkg = SESSION_PACKAGES[callee.pkg];
          if (!pkg) continue;
          defaults = pkg;
          if (pkg.nested) opts = opts.t === 'obj' ? ctx.ev.member(opts, 'cookie', 0) : opts;
          what = `${callee.pkg} session cookie`;
        } else {
          // (one named for no session: a session cookie when it holds a token a JWT package signs)
          if (c.value && !signedToken(ctx.ev.eval(file, c.value))) continue;
          // (Koa's cookies: HttpOnly by default, Secure as the request is, `{ secure: request.secure }`)
          const koa = c.snippet.includes('ctx.cookies.set') || c.snippet.includes('context.cookies.set');
          defaults = koa ? { httpOnly: true, secure: null } : { httpOnly: false, secure: false };
          what = `session cookie '${c.name}'`;
          if (opts.t === 'unknown' && c.options) continue; // options not known statically
        }
        const flag = (k: 'httpOnly' | 'secure'): boolean | null => {
          if (opts.t !== 'obj') return opts.t === 'unknown' && opts.why !== 'none' && !opts.why.startsWith('no property') ? null : defaults[k];
          const v = ctx.ev.member(opts, k, 0);
          if (v.t === 'bool') return v.v;
          if (v.t === 'unknown' && v.why.startsWith('no property')) return defaults[k];
          return null; // an expression: not provably insecure
        };
        const missing = (['httpOnly', 'secure'] as const).filter((k) => flag(k) === false);
        if (missing.length === 0) continue;
        ctx.report({
          file,
          line: c.at.line,
          column: c.at.column,
          message: `${what} is configured without ${missing.map((k) => `${k}: true`).join(' and ')}`,
          snippet: c.snippet,
        });
      }
    }
  },
};
