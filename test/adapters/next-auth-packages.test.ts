/**
 * Authentication packages' Next.js middleware. NextAuth v4's (next-auth 4.24) sends a request
 * without a session token to sign in, on the routes `config.matcher` matches; Auth.js's
 * (next-auth 5) refuses only what its `callbacks.authorized` refuses — and only by a response it
 * returns when `auth(fn)` wraps a function, which runs on a `false`. Clerk's (read at
 * @clerk/nextjs 6): `clerkMiddleware()` protects no route by
 * itself; its handler does, by calling `auth.protect()` — for every request, for those its
 * public matchers do not match, or only for those its protected matchers match
 * (`createRouteMatcher([...])`, path-to-regexp paths of the request's pathname).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, cli, guardKinds } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

/** A Next.js app whose middleware.ts exports `clerkMiddleware(handler)`, the handler's body `body` (no handler when empty), or `exported`. */
function clerkApp(body: string, exported = `clerkMiddleware(${body ? `async (auth, req) => {\n  ${body}\n}` : ''})`): string {
  return writeProject({
    'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4', '@clerk/nextjs': '6.9.0' } }),
    'middleware.ts': `
import { authMiddleware, clerkMiddleware, createRouteMatcher } from '@clerk/nextjs/server';

const isPublicRoute = createRouteMatcher(['/sign-in(.*)', '/api/webhooks(.*)', '/']);
const isProtectedRoute = createRouteMatcher(['/dashboard(.*)', '/api/sites(.*)']);

export default ${exported};

export const config = {
  matcher: ['/((?!_next|[^?]*\\\\.(?:html?|css|js(?!on)|jpe?g|webp|png|gif|svg|ico)).*)', '/(api|trpc)(.*)'],
};
`,
    'app/api/webhooks/stripe/route.ts': `export async function POST(req: Request) {\n  const event = await req.text();\n  return Response.json({ received: event.length > 0 });\n}\n`,
    'app/api/sites/route.ts': `import { auth } from '@clerk/nextjs/server';\n\nexport async function GET() {\n  return Response.json({ items: [] });\n}\n`,
    'app/api/deployments/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
  });
}

async function rows(dir: string): Promise<string[]> {
  const res = await check(dir);
  return res.routes.map(
    (r) =>
      `${r.method} ${r.path} [${r.guards.map(guardKinds).join(', ')}]${(r.skippedGuards ?? []).map((g) => ` ${g.name} lets through ${g.skips}`).join('')}`,
  );
}

describe("Clerk's clerkMiddleware", () => {
  it('auth.protect() unless a public matcher matches: the routes it matches are let through', async () => {
    expect(await rows(clerkApp('if (!isPublicRoute(req)) {\n    await auth.protect();\n  }'))).toEqual([
      'GET /api/deployments [middleware: auth]',
      'GET /api/sites [middleware: auth]',
      'POST /api/webhooks/stripe [] middleware lets through paths starting with /api/webhooks',
    ]);
  });

  it('auth.protect() only when a protected matcher matches: every other route is let through, and its finding says so', async () => {
    const dir = clerkApp('if (isProtectedRoute(req)) await auth.protect();');
    const outside = 'middleware lets through every request outside paths starting with /dashboard or paths starting with /api/sites';
    expect(await rows(dir)).toEqual([`GET /api/deployments [] ${outside}`, 'GET /api/sites [middleware: auth]', `POST /api/webhooks/stripe [] ${outside}`]);
    expect(cli(['check'], dir, { NO_COLOR: '1' }).stdout).toContain(
      'GET /api/deployments has no auth guard (middleware is one, but lets through untouched every request outside paths starting with /dashboard or paths starting with /api/sites: middleware.ts:',
    );
  });

  it('auth.protect() for every request (v5 wrote auth().protect()); clerkMiddleware() alone protects nothing', async () => {
    for (const body of ['await auth.protect();', 'const { userId } = await auth();\n  console.log(userId);\n  auth().protect();'])
      expect(await rows(clerkApp(body))).toEqual([
        'GET /api/deployments [middleware: auth]',
        'GET /api/sites [middleware: auth]',
        'POST /api/webhooks/stripe [middleware: auth]',
      ]);
    expect(await rows(clerkApp(''))).toEqual(['GET /api/deployments []', 'GET /api/sites []', 'POST /api/webhooks/stripe []']);
  });

  it("a matcher's /:path* pattern is the path and every path below it; v4's authMiddleware protects every route but its publicRoutes and ignoredRoutes", async () => {
    expect(await rows(clerkApp('', "clerkMiddleware(async (auth, req) => {\n  if (!createRouteMatcher(['/api/webhooks/:path*'])(req)) await auth.protect();\n})"))).toEqual([
      'GET /api/deployments [middleware: auth]',
      'GET /api/sites [middleware: auth]',
      'POST /api/webhooks/stripe [] middleware lets through paths starting with /api/webhooks/',
    ]);
    expect(await rows(clerkApp('', "authMiddleware({ publicRoutes: ['/', '/api/webhooks(.*)'], ignoredRoutes: ['/api/deployments'] })"))).toEqual([
      'GET /api/deployments [] middleware lets through the path /api/deployments',
      'GET /api/sites [middleware: auth]',
      'POST /api/webhooks/stripe [] middleware lets through paths starting with /api/webhooks',
    ]);
  });

  it('a pattern with a parameter or a group, or a regular expression: the paths path-to-regexp 6 (or the expression) matches', async () => {
    // a parameter stands for any one segment: the webhook route is one of the paths
    expect(await rows(clerkApp("if (!createRouteMatcher(['/api/webhooks/:provider'])(req)) await auth.protect();"))).toEqual([
      'GET /api/deployments [middleware: auth]',
      'GET /api/sites [middleware: auth]',
      'POST /api/webhooks/stripe [] middleware lets through paths matching /api/webhooks/:provider',
    ]);
    // a group: either alternative, then anything
    const group = clerkApp('', "clerkMiddleware(async (auth, req) => {\n  if (createRouteMatcher(['/(dashboard|api/sites)(.*)'])(req)) await auth.protect();\n})");
    const outside = 'middleware lets through every request outside paths matching /(dashboard|api/sites)(.*)';
    expect(await rows(group)).toEqual([`GET /api/deployments [] ${outside}`, 'GET /api/sites [middleware: auth]', `POST /api/webhooks/stripe [] ${outside}`]);
    // a regular expression, tested on the pathname as written (no anchor: anywhere in it)
    expect(await rows(clerkApp("if (!createRouteMatcher([/^\\/api\\/web/])(req)) await auth.protect();"))).toEqual([
      'GET /api/deployments [middleware: auth]',
      'GET /api/sites [middleware: auth]',
      'POST /api/webhooks/stripe [] middleware lets through paths matching /^\\/api\\/web/',
    ]);
  });

  it("a route with a parameter is let through only when the pattern takes any value there; one that names some values leaves it protected", async () => {
    const app = (pattern: string): string =>
      writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4', '@clerk/nextjs': '6.9.0' } }),
        'middleware.ts': `import { clerkMiddleware, createRouteMatcher } from '@clerk/nextjs/server';\n\nconst isPublicRoute = createRouteMatcher(['${pattern}']);\n\nexport default clerkMiddleware(async (auth, req) => {\n  if (!isPublicRoute(req)) await auth.protect();\n});\n`,
        'app/api/orgs/[orgId]/invites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
      });
    expect(await rows(app('/api/orgs/:slug/invites'))).toEqual(['GET /api/orgs/:orgId/invites [] middleware lets through paths matching /api/orgs/:slug/invites']);
    expect(await rows(app('/api/orgs/:slug(.*)'))).toEqual(['GET /api/orgs/:orgId/invites [] middleware lets through paths matching /api/orgs/:slug(.*)']);
    expect(await rows(app('/api/orgs/:slug(\\\\d+)/invites'))).toEqual(['GET /api/orgs/:orgId/invites [middleware: auth]']);
    expect(await rows(app('/api/orgs/acme/:rest'))).toEqual(['GET /api/orgs/:orgId/invites [middleware: auth]']);
  });

  it('auth.protect() after a return under a test not read, or under another condition: a candidate whose exceptions are not known', async () => {
    for (const body of ["if (req.nextUrl.pathname.startsWith('/api/')) return;\n  await auth.protect();", "if (process.env.AUTH_ENABLED) await auth.protect();"])
      expect(new Set(await rows(clerkApp(body)))).toEqual(
        new Set(['GET /api/deployments [middleware: unknown (exceptions unknown)]', 'GET /api/sites [middleware: unknown (exceptions unknown)]', 'POST /api/webhooks/stripe [middleware: unknown (exceptions unknown)]']),
      );
  });
});

describe("NextAuth v4's middleware", () => {
  it('re-exported whole, or made by withAuth(options): an auth guard on the routes the matcher matches', async () => {
    for (const middleware of [
      "export { default } from 'next-auth/middleware';\n",
      "import { withAuth } from 'next-auth/middleware';\n\nexport default withAuth({ pages: { signIn: '/login' } });\n",
    ]) {
      const dir = writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '14.2.15', 'next-auth': '4.24.10' } }),
        'middleware.ts': `${middleware}\nexport const config = { matcher: ['/api/sites/:path*'] };\n`,
        'app/api/sites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
        'app/api/deployments/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
      });
      expect(await rows(dir)).toEqual(['GET /api/deployments []', 'GET /api/sites [middleware: auth]']);
    }
  });

  it("withAuth's callbacks.authorized({ token, req }) is read as Auth.js's: the routes it lets a visitor through are not guarded by it", async () => {
    const app = (withAuth: string): string =>
      writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '14.2.15', 'next-auth': '4.24.10' } }),
        'middleware.ts': `import { withAuth } from 'next-auth/middleware';\n\nexport default ${withAuth};\n`,
        'app/api/sites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
        'app/api/public/pricing/route.ts': `export async function GET() {\n  return Response.json({ plans: [] });\n}\n`,
      });
    // (a guard made by a call with a function is named after the call)
    const publicOpen = ['GET /api/public/pricing [] withAuth lets through paths starting with /api/public/', 'GET /api/sites [withAuth: auth]'];
    expect(await rows(app("withAuth({\n  callbacks: {\n    authorized: ({ token, req }) => req.nextUrl.pathname.startsWith('/api/public/') || !!token,\n  },\n})"))).toEqual([
      'GET /api/public/pricing [middleware: unknown (exceptions unknown)]',
      'GET /api/sites [middleware: unknown (exceptions unknown)]',
    ]);
    expect(
      await rows(app("withAuth(function middleware(req) {\n  return undefined;\n}, {\n  callbacks: {\n    authorized({ token, req }) {\n      if (req.nextUrl.pathname.startsWith('/api/public/')) return true;\n      return !!token;\n    },\n  },\n})")),
    ).toEqual(publicOpen);
    // (without callbacks.authorized, a request without a session token is refused everywhere)
    expect(await rows(app("withAuth({ pages: { signIn: '/login' } })"))).toEqual(['GET /api/public/pricing [middleware: auth]', 'GET /api/sites [middleware: auth]']);
  });

  it("a middleware of its own sending a request without getToken's token to sign in: an auth guard; one letting the API paths through so is no sure guard of them", async () => {
    const app = (ifNoToken: string, getter = "import { getToken } from 'next-auth/jwt';\n", token = 'getToken({ req })'): string =>
      writeProject({
        'package.json': JSON.stringify({ name: 'console', dependencies: { next: '16.0.1', 'next-auth': '4.24.10', 'iron-session': '8.0.4' } }),
        'proxy.ts': `import { NextResponse, type NextRequest } from 'next/server';
${getter}
export default async function proxy(req: NextRequest) {
  const url = new URL(req.url);
  const isApiPath = url.pathname.startsWith('/api/');
  const token = await ${token};
  if (!token) {
    ${ifNoToken}
    return NextResponse.redirect(new URL('/sign-in', url));
  }
  return NextResponse.next();
}
`,
        'app/api/sites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
        'app/reports/route.ts': `export async function GET() {\n  return new Response('report');\n}\n`,
      });
    expect(await rows(app('// no exception'))).toEqual(['GET /api/sites [proxy: auth]', 'GET /reports [proxy: auth]']);
    // (\`return NextResponse.next()\` hands the request on: the branch does not end every request without a token)
    expect(await rows(app('if (isApiPath) return NextResponse.next();'))).toEqual(['GET /api/sites [proxy: unknown]', 'GET /reports [proxy: unknown]']);
    // (iron-session's session is an object whatever happens: \`!session\` refuses no one)
    const iron = app('// no exception', "import { getIronSession } from 'iron-session';\nimport { cookies } from 'next/headers';\n", "getIronSession(await cookies(), { password: process.env.SESSION_PASSWORD!, cookieName: 'console' })");
    expect(await rows(iron)).toEqual(['GET /api/sites [proxy: unknown]', 'GET /reports [proxy: unknown]']);
  });
});

describe("Auth.js's middleware (next-auth 5)", () => {
  /** An app whose auth.ts exports Auth.js's `auth` made from `callbacks` (none when empty), re-exported as the middleware. */
  const authJsApp = (callbacks: string, middleware = "export { auth as middleware } from '@/auth';\n"): string =>
    writeProject({
      'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4', 'next-auth': '5.0.0-beta.25' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
      'auth.ts': `import NextAuth from 'next-auth';\nimport GitHub from 'next-auth/providers/github';\n\nexport const { handlers, auth, signIn, signOut } = NextAuth({\n  providers: [GitHub],${callbacks ? `\n  callbacks: {\n    ${callbacks}\n  },` : ''}\n});\n`,
      'middleware.ts': middleware,
      'app/api/sites/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
    });

  it('guards every route when callbacks.authorized returns whether a user is signed in; nothing without it; a candidate when it decides otherwise', async () => {
    expect(await rows(authJsApp('authorized({ auth }) {\n      return !!auth?.user;\n    },'))).toEqual(['GET /api/sites [middleware: auth]']);
    expect(await rows(authJsApp('authorized: ({ auth }) => !!auth,', "import { auth } from '@/auth';\n\nexport default auth;\n"))).toEqual(['GET /api/sites [middleware: auth]']);
    expect(await rows(authJsApp(''))).toEqual(['GET /api/sites []']);
    expect(await rows(authJsApp("authorized({ auth, request: { nextUrl } }) {\n      return !!auth?.user || nextUrl.pathname === '/login';\n    },"))).toEqual([
      'GET /api/sites [middleware: unknown (exceptions unknown)]',
    ]);
  });

  it('auth(fn) wrapping the middleware or a route handler runs it whatever callbacks.authorized returns but a response: a false refuses nothing', async () => {
    const signedIn = 'authorized: ({ auth }) => !!auth,';
    const wrapped = "import { auth } from '@/auth';\n\nexport default auth((req) => {\n  console.log(req.nextUrl.pathname, req.auth?.user?.id);\n});\n";
    expect(await rows(authJsApp(signedIn, wrapped))).toEqual(['GET /api/sites []']);
    // (a response returned for a visitor stops the request before the wrapped function)
    const redirects = "authorized({ auth, request }) {\n      if (!auth) return Response.redirect(new URL('/login', request.url));\n      return true;\n    },";
    expect(await rows(authJsApp(redirects, wrapped))).toEqual(['GET /api/sites [auth: auth]']);
    expect((await check(authJsApp(redirects, wrapped))).routes[0]!.guards.map((g) => g.mechanism)).toEqual(['next-middleware']);
    // a route handler wrapped, with nothing in the middleware: the same (next-auth 5 lib/index.ts handleAuth)
    const handler = (callbacks: string): string => {
      const dir = authJsApp(callbacks, 'export const config = { matcher: [] };\n');
      writeFileSync(path.join(dir, 'app/api/sites/route.ts'), "import { auth } from '@/auth';\n\nexport const GET = auth(async (req) => Response.json({ user: req.auth?.user ?? null }));\n");
      return dir;
    };
    expect(await rows(handler(signedIn))).toEqual(['GET /api/sites []']);
    expect(await rows(handler(redirects))).toEqual(['GET /api/sites [auth: auth]']);
    expect((await check(handler(redirects))).routes[0]!.guards.map((g) => g.mechanism)).toEqual(['wrapper']);
  });

  it("Auth.js's auth through React's cache() (homarr's `export const auth = cache(defaultAuth)`) is Auth.js's auth", async () => {
    const dir = authJsApp('', 'export const config = { matcher: [] };\n');
    writeFileSync(path.join(dir, 'session.ts'), "import { cache } from 'react';\nimport { auth as defaultAuth } from '@/auth';\n\nexport const auth = cache(defaultAuth);\n");
    writeFileSync(path.join(dir, 'app/api/sites/route.ts'), "import { auth } from '@/session';\n\nexport const GET = auth(async (req) => Response.json({ user: req.auth?.user ?? null }));\n");
    const res = await check(dir);
    // (no callbacks.authorized: the wrapper refuses nothing, whatever its name says)
    expect(await rows(dir)).toEqual(['GET /api/sites []']);
    expect(res.findings.filter((f) => f.ruleId === 'missing-auth-guard').map((f) => `${f.file}:${f.line}`)).toEqual(['app/api/sites/route.ts:3']);
  });

  /** The Next.js Learn dashboard's configuration: auth.config.ts, the middleware made from it, and an API beside the dashboard. */
  const learnApp = (authorized: string): string =>
    writeProject({
      'package.json': JSON.stringify({ name: 'dashboard', dependencies: { next: '15.5.4', 'next-auth': '5.0.0-beta.25' } }),
      'auth.config.ts': `import type { NextAuthConfig } from 'next-auth';

export const authConfig = {
  pages: {
    signIn: '/login',
  },
  callbacks: {
    ${authorized}
  },
  providers: [],
} satisfies NextAuthConfig;
`,
      'middleware.ts': `import NextAuth from 'next-auth';
import { authConfig } from './auth.config';

export default NextAuth(authConfig).auth;

export const config = {
  matcher: ['/((?!_next/static|_next/image|.*\\\\.png$).*)'],
};
`,
      'app/dashboard/invoices/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
      'app/dashboard/route.ts': `export async function GET() {\n  return Response.json({ ok: true });\n}\n`,
      'app/api/invoices/route.ts': `export async function GET() {\n  return Response.json({ items: [] });\n}\n`,
    });

  it('callbacks.authorized refusing a visitor only on some paths (the Next.js Learn dashboard): an auth guard of the routes every request to which is refused', async () => {
    const outside = 'middleware lets through every request outside paths starting with /dashboard';
    const learn = `authorized({ auth, request: { nextUrl } }) {
      const isLoggedIn = !!auth?.user;
      const isOnDashboard = nextUrl.pathname.startsWith('/dashboard');
      if (isOnDashboard) {
        if (isLoggedIn) return true;
        return false; // Redirect unauthenticated users to login page
      } else if (isLoggedIn) {
        return Response.redirect(new URL('/dashboard', nextUrl));
      }
      return true;
    },`;
    const expected = ['GET /api/invoices [] ' + outside, 'GET /dashboard [middleware: auth]', 'GET /dashboard/invoices [middleware: auth]'];
    const candidates = ['GET /api/invoices', 'GET /dashboard', 'GET /dashboard/invoices'].map((r) => `${r} [middleware: unknown (exceptions unknown)]`);
    expect(await rows(learnApp(learn))).toEqual(expected);
    // the same written with the public paths handed on first, and refused by what says whether a user is signed in
    const handedOn = `authorized({ auth, request }) {
      const { pathname } = request.nextUrl;
      if (!pathname.startsWith('/dashboard')) return true;
      return !!auth;
    },`;
    expect(await rows(learnApp(handedOn))).toEqual(expected);
    // refusing under a test of something else (a role) is not read: a candidate
    const role = `authorized({ auth, request: { nextUrl } }) {
      if (nextUrl.pathname.startsWith('/dashboard') && auth?.user?.role !== 'admin') return false;
      return true;
    },`;
    expect(await rows(learnApp(role))).toEqual(candidates);
    // refusing in several branches, each under a test of the URL: every route one of them refuses is guarded
    const twoAreas = `authorized({ auth, request: { nextUrl } }) {
      const isLoggedIn = !!auth?.user;
      if (nextUrl.pathname.startsWith('/dashboard/invoices')) {
        if (isLoggedIn) return true;
        return false;
      }
      if (nextUrl.pathname.startsWith('/api/')) return isLoggedIn;
      return true;
    },`;
    expect(await rows(learnApp(twoAreas))).toEqual([
      'GET /api/invoices [middleware: auth]',
      'GET /dashboard [] middleware lets through every request outside paths starting with /dashboard/invoices or paths starting with /api/',
      'GET /dashboard/invoices [middleware: auth]',
    ]);
    // … and a refusal under a test the other branches' reading cannot take (a role) still leaves a candidate
    expect(await rows(learnApp(twoAreas.replace("if (nextUrl.pathname.startsWith('/api/')) return isLoggedIn;", "if (nextUrl.pathname.startsWith('/api/') && auth?.user?.role !== 'admin') return false;")))).toEqual(candidates);
    // NextResponse.next() lets the request through, as true does
    expect(await rows(learnApp(learn.replace(/return true;\n    },$/, 'return NextResponse.next();\n    },')))).toEqual(expected);
    // one that refuses no request is no guard
    expect(await rows(learnApp('authorized({ auth }) {\n      console.log(auth);\n      return true;\n    },'))).toEqual(['GET /api/invoices []', 'GET /dashboard []', 'GET /dashboard/invoices []']);
  });
});

describe("NextAuth's own route handler at its catch-all", () => {
  const v4 = (files: Record<string, string>): string =>
    writeProject({
      'package.json': JSON.stringify({ name: 'console', dependencies: { next: '14.2.15', 'next-auth': '4.24.11' } }),
      'lib/auth.ts': `import type { NextAuthOptions } from 'next-auth';
import GithubProvider from 'next-auth/providers/github';

export const authOptions: NextAuthOptions = {
  providers: [GithubProvider({ clientId: process.env.GITHUB_ID ?? '', clientSecret: process.env.GITHUB_SECRET ?? '' })],
  session: { strategy: 'jwt' },
};
`,
      ...files,
    });

  it('next-auth 4 (`NextAuth(authOptions)` exported as GET and POST): its actions, not every path below /api/auth; the POST ones checking its CSRF token but _log', async () => {
    const dir = v4({
      'app/api/auth/[...nextauth]/route.ts': `import NextAuth from 'next-auth';
import { authOptions } from '../../../../lib/auth';

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
`,
    });
    expect(await rows(dir)).toEqual([
      'POST /api/auth/_log []',
      'GET /api/auth/callback/:provider []',
      'POST /api/auth/callback/:provider [NextAuth: csrf]',
      'GET /api/auth/csrf []',
      'GET /api/auth/error []',
      'GET /api/auth/providers []',
      'GET /api/auth/session []',
      'POST /api/auth/session [NextAuth: csrf]',
      'GET /api/auth/signin []',
      'GET /api/auth/signin/:provider []',
      'POST /api/auth/signin/:provider [NextAuth: csrf]',
      'GET /api/auth/signout []',
      'POST /api/auth/signout [NextAuth: csrf]',
      'GET /api/auth/verify-request []',
    ]);
    const res = await check(dir);
    // the built-in contract's GET /api/auth/me/ is no action of NextAuth's: not served
    expect(res.findings.filter((f) => f.ruleId.startsWith('contract-route')).map((f) => f.message)).toContain('contract route GET /api/auth/me/ is not served by any analysed app');
    expect(res.findings.filter((f) => f.ruleId === 'missing-csrf-guard').map((f) => f.message)).toEqual(['POST /api/auth/_log changes state on the browser session without a CSRF guard']);
    // (the options a function makes, `NextAuth(authOptions())` of Cap: the same endpoints, no wrapper's auth guard)
    const made = v4({
      'lib/options.ts': `import { authOptions } from './auth';

export const makeAuthOptions = () => ({ ...authOptions, debug: false });
`,
      'app/api/auth/[...nextauth]/route.ts': `import NextAuth from 'next-auth';
import { makeAuthOptions } from '../../../../lib/options';

const handler = NextAuth(makeAuthOptions());

export { handler as GET, handler as POST };
`,
    });
    expect(await rows(made)).toEqual(await rows(dir));
  });

  it("next-auth 4 in the Pages Router (`export default NextAuth(…)`) answers both methods' actions; Auth.js (next-auth 5) its handlers' own", async () => {
    const pages = v4({ 'pages/api/auth/[...nextauth].ts': `import NextAuth from 'next-auth';\nimport { authOptions } from '../../../lib/auth';\n\nexport default NextAuth(authOptions);\n` });
    const listed = await rows(pages);
    expect(listed).toHaveLength(14);
    expect(listed).toContain('POST /api/auth/signout [NextAuth: csrf]');
    expect(listed).toContain('GET /api/auth/session []');
    // next-auth 4's advanced initialization: a handler of its own answering with NextAuth(req, res, options)
    const advanced = v4({
      'pages/api/auth/[...nextauth].ts': `import type { NextApiRequest, NextApiResponse } from 'next';
import NextAuth from 'next-auth';
import { authOptions } from '../../../lib/auth';

export default async function auth(req: NextApiRequest, res: NextApiResponse) {
  res.setHeader('Cache-Control', 'no-store');
  return await NextAuth(req, res, authOptions);
}
`,
    });
    expect(await rows(advanced)).toEqual(listed);
    const v5 = writeProject({
      'package.json': JSON.stringify({ name: 'console', dependencies: { next: '15.5.4', 'next-auth': '5.0.0-beta.25' } }),
      'auth.ts': `import NextAuth from 'next-auth';
import GitHub from 'next-auth/providers/github';

export const { handlers, auth, signIn, signOut } = NextAuth({ providers: [GitHub] });
`,
      'app/api/auth/[...nextauth]/route.ts': `import { handlers } from '../../../../auth';\n\nexport const { GET, POST } = handlers;\n`,
    });
    const actions = (await rows(v5)).map((r) => r.replace(/ \[.*$/, ''));
    expect(actions).toEqual([
      'GET /api/auth/callback/:provider',
      'POST /api/auth/callback/:provider',
      'GET /api/auth/csrf',
      'GET /api/auth/error',
      'GET /api/auth/providers',
      'GET /api/auth/session',
      'POST /api/auth/session',
      'GET /api/auth/signin',
      'GET /api/auth/signin/:provider',
      'POST /api/auth/signin/:provider',
      'GET /api/auth/signout',
      'POST /api/auth/signout',
      'GET /api/auth/verify-request',
      'GET /api/auth/webauthn-options/:provider',
    ]);
  });
});
