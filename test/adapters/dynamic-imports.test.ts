/**
 * `await import('./routes')`: a server loading its routers (or its middleware) lazily gets the
 * module's namespace, as a static `import * as ns` does — its named exports, its `default`, or
 * a package's module. Derived from the ECMAScript semantics of `import()`: the promise resolves
 * to the module namespace object.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const ROUTES = `import { Router } from 'express';
import { requireSession } from './session';

export const router = Router();
router.use(requireSession);
router.get('/sites', (req, res) => {
  res.json([]);
});
`;

const ADMIN = `import { Router } from 'express';

const admin = Router();
admin.get('/users', (req, res) => {
  res.json([]);
});
export default admin;
`;

const SESSION = `import type { NextFunction, Request, Response } from 'express';

export function requireSession(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.cookie?.includes('sid=')) return res.status(401).json({ error: 'sign in' });
  next();
}
`;

describe('dynamic imports', () => {
  it("a named export, `default` read off the namespace, and a package's module, each loaded with await import()", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/routes.ts': ROUTES,
        'src/admin.ts': ADMIN,
        'src/session.ts': SESSION,
        'src/main.ts': `import express from 'express';

export async function createApp() {
  const { router } = await import('./routes');
  const admin = (await import('./admin')).default;
  const { default: cors } = await import('cors');
  const app = express();
  app.use(cors());
  app.use('/api', router);
  app.use('/admin', admin);
  return app;
}

void createApp().then((app) => app.listen(3000));
`,
      }),
    );
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`)).toEqual([
      'GET /admin/users src/admin.ts:4 []',
      'GET /api/sites src/routes.ts:6 [requireSession:auth]',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a module that cannot be resolved stays unknown, and says so', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/main.ts': `import express from 'express';

const app = express();
const { router } = await import(\`./routes/\${process.env.EDITION}\`);
app.use('/api', router);
app.listen(3000);
`,
      }),
    );
    expect(res.routes).toEqual([]);
    expect(unresolvedRows(res)).toEqual(["src/main.ts:5:1 warning unresolved-route mount at '/api' could not be resolved (property router of a value not known statically); the routes under it are unknown"]);
  });
});
