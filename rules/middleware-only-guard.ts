import { reportRoute, routeLabel, type RuleModule } from '../src/rule.js';

export const rule: RuleModule = {
  meta: {
    id: 'middleware-only-guard',
    defaultSeverity: 'warning',
    description: 'A Next.js route whose auth comes only from middleware.ts (a bypassed middleware, as in CVE-2025-29927, leaves it open).',
    rationale:
      'Next.js middleware runs before routing and can be skipped: CVE-2025-29927 let a single x-middleware-subrequest header bypass it, and a matcher that forgets a path skips it silently. A route handler that does not check the session itself (or through a wrapper) is then open.',
    contract: '"A missing or expired session yields 401." / "Authenticated reads use a secure, HttpOnly browser session cookie."',
    examples: {
      fires: [
        '// file: middleware.ts',
        "import { NextResponse, type NextRequest } from 'next/server';",
        '',
        'export function middleware(req: NextRequest) {',
        "  if (!req.cookies.get('session')) return NextResponse.json({ error: 'unauthenticated' }, { status: 401 });",
        '  return NextResponse.next();',
        '}',
        '',
        "export const config = { matcher: ['/api/:path*'] };",
        '',
        '// file: app/api/sites/route.ts',
        "import { listSites } from '../../../lib/sites';",
        '',
        'export async function GET() {',
        '  return Response.json(await listSites());',
        '}',
      ].join('\n'),
      passes: [
        '// file: middleware.ts',
        "import { NextResponse, type NextRequest } from 'next/server';",
        '',
        'export function middleware(req: NextRequest) {',
        "  if (!req.cookies.get('session')) return NextResponse.json({ error: 'unauthenticated' }, { status: 401 });",
        '  return NextResponse.next();',
        '}',
        '',
        "export const config = { matcher: ['/api/:path*'] };",
        '',
        '// file: app/api/sites/route.ts',
        "import { requireSession } from '../../../lib/session';",
        "import { listSites } from '../../../lib/sites';",
        '',
        'export async function GET() {',
        '  await requireSession();',
        '  return Response.json(await listSites());',
        '}',
      ].join('\n'),
    },
    configure: ['"guards": { "auth": ["verifySession"] } names the in-handler or wrapper guard that checks the session again'],
  },
  check(ctx) {
    for (const r of ctx.routes) {
      if (r.classification === 'public') continue;
      const auth = r.guards.filter((g) => g.kinds.includes('auth'));
      if (auth.length === 0 || !auth.every((g) => g.mechanism === 'next-middleware')) continue;
      const names = [...new Set(auth.map((g) => g.name))].join(', ');
      const file = auth[0]!.file.slice(auth[0]!.file.lastIndexOf('/') + 1);
      reportRoute(ctx, r, `${routeLabel(r)} is authenticated only by ${file} (${names}); a bypassed middleware (CVE-2025-29927) leaves it open: check the session in the handler or a wrapper too`);
    }
  },
};
