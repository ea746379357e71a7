/**
 * Route modules loaded by a loop over a directory's entries, as many Express servers mount
 * them: `fs.readdirSync(path.join(__dirname, 'routes'))`, filtered by name, each entry required
 * (`require(\`./routes/${file}\`)`, `require(path.join(__dirname, 'routes', file))`) and mounted,
 * often at a prefix made from its file name. Before, no such module was mounted: its routes
 * were listed without their prefix, each router "never mounted".
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { check, ROOT } from '../helpers/run.js';
import { findingRows, routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const SESSION = `'use strict';

module.exports = function requireSession(req, res, next) {
  if (!req.session || !req.session.accountId) {
    return res.status(401).json({ error: 'unauthenticated' });
  }
  next();
};
`;

const PROJECTS = `'use strict';

const router = require('express').Router();
const requireSession = require('../middleware/require-session');
const projects = require('../services/projects');

router.use(requireSession);
router.get('/', async (req, res) => res.json(await projects.list(req.session.accountId)));
router.get('/:projectId', async (req, res) => res.json(await projects.get(req.session.accountId, req.params.projectId)));

module.exports = router;
`;

const BILLING = `'use strict';

const router = require('express').Router();

// called by the billing worker inside the cluster
router.post('/recompute', async (req, res) => {
  res.status(202).json({ queued: true });
});

module.exports = router;
`;

const HELPERS = `'use strict';

exports.page = (req) => Math.max(1, Number(req.query.page) || 1);
`;

const SERVICE = `'use strict';

exports.list = async (accountId) => [{ id: 'p1', accountId }];
exports.get = async (accountId, id) => ({ id, accountId });
`;

/** src/server.js: every module of src/routes but the helpers, mounted at /api/<its name>. */
const SERVER = `'use strict';

const fs = require('fs');
const path = require('path');
const express = require('express');

const app = express();
app.use(express.json());

fs.readdirSync(path.join(__dirname, 'routes')).forEach((file) => {
  if (!file.endsWith('.js') || file === 'helpers.js') return;
  const name = file.replace(/\\.js$/, '');
  app.use(\`/api/\${name}\`, require(\`./routes/\${file}\`));
});

app.listen(process.env.PORT || 3000);
`;

const FILES = {
  'package.json': EXPRESS_PACKAGE,
  'src/server.js': SERVER,
  'src/middleware/require-session.js': SESSION,
  'src/services/projects.js': SERVICE,
  'src/routes/projects.js': PROJECTS,
  'src/routes/internal.js': BILLING,
  'src/routes/helpers.js': HELPERS,
};

/** The same modules written as functions registering on the app they are given. */
const PROJECTS_ON_APP = `'use strict';

const requireSession = require('../middleware/require-session');
const projects = require('../services/projects');

module.exports = function (app, deps) {
  app.use('/api/projects', requireSession);
  app.get('/api/projects', async (req, res) => res.json(await projects.list(req.session.accountId)));
  app.get('/api/projects/:projectId', async (req, res) => res.json(await projects.get(req.session.accountId, req.params.projectId)));
};
`;

const BILLING_ON_APP = `'use strict';

module.exports = (app) => {
  app.post('/api/internal/recompute', async (req, res) => {
    res.status(202).json({ queued: true });
  });
};
`;

const MOUNTED = [
  'POST /api/internal/recompute [] src/routes/internal.js:6',
  // (a router's `/` mounted at a path is that path, its trailing slash optional)
  'GET /api/projects/ [requireSession] src/routes/projects.js:8',
  'GET /api/projects/:projectId [requireSession] src/routes/projects.js:9',
];

/** SERVER with its loop replaced by `loop`, which must mount every module of src/routes but the helpers at /api/<name>. */
async function expectMounted(loop: string): Promise<void> {
  const server = SERVER.replace(/fs\.readdirSync[^]*?\n\}\);\n/, `${loop}\n`);
  expect(server).toContain(loop);
  const res = await check(writeProject({ ...FILES, 'src/server.js': server }));
  expect(lines(res)).toEqual(MOUNTED);
  expect(unresolvedRows(res)).toEqual([]);
}

describe('route modules loaded from a directory listing', () => {
  it('mounts each module `fs.readdirSync` lists and the loop keeps, at the prefix made from its name', async () => {
    const res = await check(writeProject(FILES));
    expect(lines(res)).toEqual(MOUNTED);
    expect(unresolvedRows(res)).toEqual([]);
    expect(res.routes.find((r) => r.path === '/api/projects/')!.guards.map((g) => g.kinds)).toEqual([['auth']]);
    // the internal family is served, under the browser-facing prefix
    expect(res.findings.filter((f) => f.ruleId === 'excluded-family-leak').map((f) => `${f.file}:${f.line}`)).toEqual(['src/routes/internal.js:6']);
  });

  it('reads `.filter(…)` callbacks, `path.join` / `__dirname` templates, `path.basename` and `.map` loops', async () => {
    for (const loop of [
      `fs.readdirSync(path.join(__dirname, 'routes'))
  .filter((f) => f.endsWith('.js') && f !== 'helpers.js')
  .forEach((f) => app.use('/api/' + path.basename(f, '.js'), require(path.join(__dirname, 'routes', f))));`,
      `fs.readdirSync(\`\${__dirname}/routes\`)
  .filter((f) => /\\.js$/.test(f))
  .filter((f) => !f.startsWith('helpers'))
  .map((f) => {
    const router = require(\`\${__dirname}/routes/\${f}\`);
    app.use(\`/api/\${f.split('.')[0]}\`, router);
  });`,
      `const routesDir = path.resolve(__dirname, './routes');
for (const file of fs.readdirSync(routesDir).sort()) {
  if (file.indexOf('helpers') === 0) continue;
  app.use('/api/' + file.slice(0, -3), require(path.join(routesDir, file)));
}`,
    ])
      await expectMounted(loop);
  });

  it("reads the Dirents of a listing asked for with `{ withFileTypes: true }`: each one's name, and whether it is a file or a directory", async () => {
    // (web-check's server.js: `fs.readdirSync(dirPath, { withFileTypes: true }).filter((dirent) =>
    // dirent.isFile() && dirent.name.endsWith('.js')).forEach(…)`; src/routes/shared/ is a
    // directory, which a loop mounting every entry but the helpers would mount)
    const files = { ...FILES, 'src/routes/shared/pagination.js': HELPERS };
    for (const loop of [
      `fs.readdirSync(path.join(__dirname, 'routes'), { withFileTypes: true })
  .filter((dirent) => dirent.isFile() && dirent.name !== 'helpers.js')
  .forEach((dirent) => app.use('/api/' + dirent.name.replace('.js', ''), require(path.join(__dirname, 'routes', dirent.name))));`,
      `fs.readdirSync(\`\${__dirname}/routes\`, { encoding: 'utf8', withFileTypes: true, recursive: false })
  .filter((entry) => !entry.isDirectory() && !entry.isSymbolicLink())
  .map((entry) => entry.name)
  .filter((name) => name !== 'helpers.js')
  .forEach((name) => app.use(\`/api/\${name.split('.')[0]}\`, require(\`./routes/\${name}\`)));`,
    ]) {
      const server = SERVER.replace(/fs\.readdirSync[^]*?\n\}\);\n/, `${loop}\n`);
      expect(server).toContain(loop);
      const res = await check(writeProject({ ...files, 'src/server.js': server }));
      expect(lines(res)).toEqual(MOUNTED);
      expect(unresolvedRows(res)).toEqual([]);
    }
  });

  it('lists TypeScript sources as they are named, from an ES module importing `readdirSync` by name', async () => {
    const ts = (text: string): string => text.replace(/'use strict';\n\n/, '');
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/server.ts': `import { readdirSync } from 'node:fs';
import path from 'node:path';
import express from 'express';

const app = express();
for (const file of readdirSync(path.join(__dirname, 'routes')).filter((f) => f.endsWith('.ts'))) {
  app.use(\`/api/\${path.basename(file, '.ts')}\`, require(\`./routes/\${file}\`).default);
}
app.listen(3000);
`,
        'src/routes/projects.ts': ts(PROJECTS).replace("const router = require('express').Router();", "import { Router } from 'express';\nconst router = Router();").replace('module.exports = router;', 'export default router;'),
        'src/middleware/require-session.js': SESSION,
        'src/services/projects.js': SERVICE,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/projects/ [requireSession] src/routes/projects.ts:7', 'GET /api/projects/:projectId [requireSession] src/routes/projects.ts:8']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('calls each module a loop requires with the app: `require(\`./routes/${file}\`)(app)`, `mod(app, deps)`', async () => {
    for (const loop of [
      `fs.readdirSync(path.join(__dirname, 'routes')).forEach((file) => {
  if (file !== 'helpers.js') require('./routes/' + file)(app);
});`,
      `const deps = { db: null };
fs.readdirSync(path.join(__dirname, 'routes'))
  .filter((f) => f.endsWith('.js') && f !== 'helpers.js')
  .forEach((f) => {
    const mod = require(\`./routes/\${f}\`);
    mod(app, deps);
  });`,
    ]) {
      const server = SERVER.replace(/fs\.readdirSync[^]*?\n\}\);\n/, `${loop}\n`);
      expect(server).toContain(loop);
      const res = await check(writeProject({ ...FILES, 'src/server.js': server, 'src/routes/projects.js': PROJECTS_ON_APP, 'src/routes/internal.js': BILLING_ON_APP }));
      expect(lines(res)).toEqual([
        'POST /api/internal/recompute [] src/routes/internal.js:4',
        'GET /api/projects [requireSession] src/routes/projects.js:8',
        'GET /api/projects/:projectId [requireSession] src/routes/projects.js:9',
      ]);
      expect(unresolvedRows(res)).toEqual([]);
    }
  });

  it('mounts the modules beside a routes/index.js that lists its own directory, but those it skips', async () => {
    const users = `'use strict';

const router = require('express').Router();
const requireSession = require('../middleware/require-session');

router.get('/me', requireSession, (req, res) => res.json({ id: req.session.accountId }));

module.exports = router;
`;
    for (const index of [
      // (sequelize-style: every .js file but this one, by a block-bodied filter)
      `const basename = path.basename(__filename);

fs.readdirSync(__dirname)
  .filter((file) => {
    return file.indexOf('.') !== 0 && file !== basename && file.slice(-3) === '.js' && !file.startsWith('legacy');
  })
  .forEach((file) => {
    router.use(\`/\${file.replace('.js', '')}\`, require(path.join(__dirname, file)));
  });`,
      // (a loop at module scope, its locals declared in it)
      `for (const file of fs.readdirSync(__dirname)) {
  const name = file.split('.')[0];
  if (!name || name === 'index' || name === 'legacy') continue;
  router.use(\`/\${name}\`, require(\`./\${name}\`));
}`,
      `fs.readdirSync(__dirname).forEach((file) => {
  const name = file.split('.')[0];
  if (name === 'index' || name === 'legacy') return;
  router.use('/' + name, require('./' + name));
});`,
    ]) {
      const res = await check(
        writeProject({
          'package.json': EXPRESS_PACKAGE,
          'src/server.js': "'use strict';\n\nconst app = require('express')();\napp.use('/api', require('./routes'));\napp.listen(3000);\n",
          'src/routes/index.js': `'use strict';\n\nconst fs = require('fs');\nconst path = require('path');\nconst router = require('express').Router();\n\n${index}\n\nmodule.exports = router;\n`,
          'src/routes/users.js': users,
          'src/routes/internal.js': BILLING,
          // (kept in the tree, no longer served)
          'src/routes/legacy.js': "'use strict';\n\nconst router = require('express').Router();\nrouter.get('/export', (req, res) => res.json([]));\nmodule.exports = router;\n",
          'src/middleware/require-session.js': SESSION,
        }),
      );
      // (the legacy router, skipped by the loop, is served nowhere: listed without a prefix)
      expect(lines(res)).toEqual(['POST /api/internal/recompute [] src/routes/internal.js:6', 'GET /api/users/me [requireSession] src/routes/users.js:6', 'GET /export [] src/routes/legacy.js:4']);
      expect(unresolvedRows(res)).toEqual(['src/routes/legacy.js:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix']);
    }
  });

  it('decides the conditions in the loop per entry from cached facts too, where no two reads of a name are one object', async () => {
    // (`skip` is read by the condition only: its reads of the loop variable are found through it)
    const index = `'use strict';

const fs = require('fs');
const router = require('express').Router();

fs.readdirSync(__dirname).forEach((file) => {
  const name = file.split('.')[0];
  const skip = name.startsWith('legacy');
  if (name === 'index' || skip) return;
  router.use('/' + name, require('./' + name));
});

module.exports = router;
`;
    const dir = writeProject({
      ...FILES,
      'src/server.js': "'use strict';\n\nconst app = require('express')();\napp.use('/api', require('./routes'));\napp.listen(3000);\n",
      'src/routes/index.js': index,
      'src/routes/legacy.js': "'use strict';\n\nconst router = require('express').Router();\nrouter.get('/export', (req, res) => res.json([]));\nmodule.exports = router;\n",
    });
    const cacheLocation = path.join(dir, '.cache');
    const expected = ['POST /api/internal/recompute', 'GET /api/projects/', 'GET /api/projects/:projectId', 'GET /export'];
    expect((await run({ cwd: dir, paths: [], cache: true, cacheLocation })).routes.map((r) => `${r.method} ${r.path}`)).toEqual(expected);
    // an edit of the server: linked again, routes/index.js's facts read from the cache
    fs.appendFileSync(path.join(dir, 'src/server.js'), "app.get('/healthz', (req, res) => res.send('ok'));\n");
    const warm = await run({ cwd: dir, paths: [], cache: true, cacheLocation });
    expect(warm.extraction).toMatchObject({ reused: false, parsed: 1 });
    expect(warm.routes.map((r) => `${r.method} ${r.path}`)).toEqual([...expected, 'GET /healthz']);
    expect(unresolvedRows(warm)).toEqual(['src/routes/legacy.js:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix']);
  });

  it('reads `await fs.promises.readdir(…)` and `await import(…)` of each entry, its default export called with a router', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/server.ts': `import express from 'express';
import loadRoutes from './loaders/routes';

const app = express();
loadRoutes(app).then(() => app.listen(3000));
`,
        'src/loaders/routes.ts': `import { Express, Router } from 'express';
import fs from 'node:fs';
import path from 'node:path';

export default async (app: Express): Promise<void> => {
  const router = Router();
  app.use('/api', router);
  for (const file of await fs.promises.readdir(path.join(__dirname, '..', 'routes'))) {
    if (!file.includes('.test.')) (await import(path.join(__dirname, '..', 'routes', file))).default(router);
  }
};
`,
        'src/routes/projects.ts': `import { Router } from 'express';
import requireSession from '../middleware/require-session';

export default (router: Router): void => {
  router.get('/projects', requireSession, (req, res) => res.json([]));
};
`,
        // (a test beside the routes, skipped by the loop: its route would be served else)
        'src/routes/projects.test.ts': `import { Router } from 'express';

export default (router: Router): void => {
  router.get('/__test/reset', (req, res) => res.status(204).end());
};
`,
        'src/middleware/require-session.js': SESSION,
      }),
    );
    expect(lines(res)).toEqual(['GET /api/projects [requireSession] src/routes/projects.ts:5']);
    // (the test module's function is called by no turn of the loop: nothing it registers is made)
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("reads a loader class's static method: `__dirname + '/..'` joined, and `require(path.join('..' + '/routes/' + name))`", async () => {
    const res = await check(
      writeProject({
        ...FILES,
        'src/server.js': `'use strict';

const app = require('express')();
const { RouteLoader } = require('./loaders/route-loader');

RouteLoader.load(app);
app.listen(3000);
`,
        'src/loaders/route-loader.js': `'use strict';

const fs = require('fs');
const path = require('path');

class RouteLoader {
  static load(app) {
    fs.readdirSync(path.join(__dirname + '/..' + '/routes')).forEach((routeFile) => {
      const routeName = routeFile.split('.')[0]; // to ignore file endings
      if (routeName === 'helpers') return;
      app.use('/api/' + routeName, require(path.join('..' + '/routes/' + routeName)));
    });
  }
}

module.exports = { RouteLoader };
`,
      }),
    );
    expect(lines(res)).toEqual(MOUNTED);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("reads a directory named relative to the package, `fs.readdirSync('./routes/')`, from the directory the server starts in", async () => {
    const others = Object.fromEntries(Object.entries(FILES).filter(([name]) => !name.startsWith('src/')));
    const res = await check(
      writeProject({
        ...others,
        // (at the package's root, as `node index.js` starts it)
        'index.js': `const express = require('express');
var app = new express();
var fs = require('fs');
var routePath = './routes/';
fs.readdirSync(routePath).forEach(function (file) {
  var route = routePath + file;
  require(route)(app);
});
app.listen(80);
`,
        'routes/projects.js': PROJECTS_ON_APP.replace("require('../services/projects')", "require('../src/services/projects')").replace("require('../middleware/require-session')", "require('../src/middleware/require-session')"),
        'routes/internal.js': BILLING_ON_APP,
        'src/middleware/require-session.js': SESSION,
        'src/services/projects.js': SERVICE,
      }),
    );
    expect(lines(res)).toEqual([
      'POST /api/internal/recompute [] routes/internal.js:4',
      'GET /api/projects [requireSession] routes/projects.js:8',
      'GET /api/projects/:projectId [requireSession] routes/projects.js:9',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('reads the files `glob.sync` and fast-glob match, each as the calling file would require it', async () => {
    for (const loop of [
      `const glob = require('glob');
glob
  .sync(\`\${__dirname}/routes/*.js\`)
  .filter((file) => !file.endsWith('helpers.js'))
  .forEach((file) => app.use('/api/' + path.basename(file, '.js'), require(file)));`,
      `const fg = require('fast-glob');
for (const file of fg.sync(path.join(__dirname, 'routes', '*.js'))) {
  if (path.basename(file) === 'helpers.js') continue;
  app.use(\`/api/\${path.basename(file, path.extname(file))}\`, require(file));
}`,
    ])
      await expectMounted(loop);
    // a TypeScript server globbing its compiled names (`*.js` over `src/routes/*.ts`), calling each module's export
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/server.ts': `import express from 'express';
import { globSync } from 'glob';

const app = express();
globSync(\`\${__dirname}/routes/*.js\`).forEach((item) => require(item).default(app));
app.listen(3000);
`,
        'src/routes/projects.ts': "import type { Express } from 'express';\n\nexport default (app: Express): void => {\n  app.get('/api/projects', (req, res) => res.json([]));\n};\n",
      }),
    );
    expect(lines(res)).toEqual(['GET /api/projects [] src/routes/projects.ts:4']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('makes a call in a loop over a known list once per item: `[projects, billing].forEach((mount) => mount(app))`', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'src/server.js': `'use strict';

const app = require('express')();
const projects = require('./routes/projects');
const billing = require('./routes/internal');

[projects, billing].forEach((mount) => mount(app));
app.listen(3000);
`,
        'src/routes/projects.js': PROJECTS_ON_APP,
        'src/routes/internal.js': BILLING_ON_APP,
        'src/middleware/require-session.js': SESSION,
        'src/services/projects.js': SERVICE,
      }),
    );
    expect(lines(res)).toEqual([
      'POST /api/internal/recompute [] src/routes/internal.js:4',
      'GET /api/projects [requireSession] src/routes/projects.js:8',
      'GET /api/projects/:projectId [requireSession] src/routes/projects.js:9',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('mounts nothing for a listing whose entries the loop all skips: compiled `.js` names asked of TypeScript sources', async () => {
    const server = SERVER.replace("fs.readdirSync(path.join(__dirname, 'routes')).forEach(", "fs.readdirSync(path.join(__dirname, 'routes')).filter((file) => file.endsWith('.js')).forEach(");
    expect(server).not.toBe(SERVER);
    const ts = (text: string): string => text.replace('module.exports = router;', 'export default router;');
    const others = Object.fromEntries(Object.entries(FILES).filter(([name]) => !name.startsWith('src/routes/')));
    const res = await check(writeProject({ ...others, 'src/server.js': server, 'src/routes/projects.ts': ts(PROJECTS), 'src/routes/internal.ts': ts(BILLING) }));
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'GET /:projectId', 'POST /recompute']);
    expect(unresolvedRows(res)).toEqual([
      'src/routes/internal.ts:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix',
      'src/routes/projects.ts:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix',
    ]);
  });

  it("mounts require-dir's object of a directory's modules, read by computed names: `Object.keys(routes)`, `for … in`", async () => {
    const withRequireDir = (loop: string): Record<string, string> => ({
      ...FILES,
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0', 'require-dir': '^1.2.0' } }),
      'src/server.js': `'use strict';

const express = require('express');
const requireDir = require('require-dir');

const app = express();
app.use(express.json());

const routes = requireDir('./routes');
${loop}

app.listen(3000);
`,
    });
    for (const loop of [
      "Object.keys(routes).filter((name) => name !== 'helpers').forEach((name) => app.use('/api/' + name, routes[name]));",
      "for (const name in routes) {\n  if (name === 'helpers') continue;\n  app.use(`/api/${name}`, routes[name]);\n}",
    ]) {
      const dir = writeProject(withRequireDir(loop));
      const res = await check(dir);
      expect(lines(res)).toEqual(MOUNTED);
      expect(unresolvedRows(res)).toEqual([]);
      // the same from cached facts, linked again after an edit of a route module
      const cacheLocation = path.join(dir, '.cache');
      await run({ cwd: dir, paths: [], cache: true, cacheLocation });
      fs.appendFileSync(path.join(dir, 'src/routes/projects.js'), "router.get('/:projectId/usage', async (req, res) => res.json({}));\n");
      const warm = await run({ cwd: dir, paths: [], cache: true, cacheLocation });
      expect(warm.extraction).toMatchObject({ reused: false, parsed: 1 });
      expect(lines(warm)).toEqual(lines(await check(dir)));
      expect(lines(warm)).toContain('GET /api/projects/:projectId/usage [requireSession] src/routes/projects.js:12');
    }
    // the modules' functions, each called with the app by its computed name
    const res = await check(
      writeProject({
        ...withRequireDir("Object.keys(routes).forEach((name) => routes[name](app));"),
        'src/routes/projects.js': PROJECTS_ON_APP,
        'src/routes/internal.js': BILLING_ON_APP,
        'src/routes/helpers.js': "'use strict';\n\nmodule.exports = () => undefined;\n",
      }),
    );
    expect(lines(res)).toEqual([
      'POST /api/internal/recompute [] src/routes/internal.js:4',
      'GET /api/projects [requireSession] src/routes/projects.js:8',
      'GET /api/projects/:projectId [requireSession] src/routes/projects.js:9',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("mounts require-all's object of a directory's modules: its filter's first group names each, directories nested, helpers left out by the filter", async () => {
    const withRequireAll = (call: string, loop: string, routes: Record<string, string> = {}): Record<string, string> => ({
      ...(Object.keys(routes).length > 0 ? Object.fromEntries(Object.entries(FILES).filter(([f]) => !f.startsWith('src/routes/'))) : FILES),
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0', 'require-all': '^3.0.0' } }),
      'src/server.js': `'use strict';

const express = require('express');
const requireAll = require('require-all');

const app = express();
app.use(express.json());

const routes = ${call};
${loop}

app.listen(3000);
`,
      ...routes,
    });
    // the default filter (/^([^.].*)\.js(on)?$/): every module, keyed by its name
    let res = await check(writeProject(withRequireAll("requireAll(__dirname + '/routes')", "Object.keys(routes).filter((name) => name !== 'helpers').forEach((name) => app.use('/api/' + name, routes[name]));")));
    expect(lines(res)).toEqual(MOUNTED);
    expect(unresolvedRows(res)).toEqual([]);
    // a filter whose first group names the module, and a directory read as a nested object
    res = await check(
      writeProject(
        withRequireAll(
          "requireAll({ dirname: __dirname + '/routes', filter: /(.+)Routes\\.js$/ })",
          "for (const name in routes) {\n  if (name === 'v2') continue;\n  app.use(`/api/${name}`, routes[name]);\n}\napp.use('/api/v2/projects', routes.v2.projects);",
          { 'src/routes/projectsRoutes.js': PROJECTS, 'src/routes/internalRoutes.js': BILLING, 'src/routes/helpers.js': HELPERS, 'src/routes/v2/projectsRoutes.js': PROJECTS.replaceAll('../', '../../') },
        ),
      ),
    );
    expect(lines(res)).toEqual([
      'POST /api/internal/recompute [] src/routes/internalRoutes.js:6',
      'GET /api/projects/ [requireSession] src/routes/projectsRoutes.js:8',
      'GET /api/projects/:projectId [requireSession] src/routes/projectsRoutes.js:9',
      'GET /api/v2/projects/ [requireSession] src/routes/v2/projectsRoutes.js:8',
      'GET /api/v2/projects/:projectId [requireSession] src/routes/v2/projectsRoutes.js:9',
    ]);
  });

  it("mounts auto-load's object of a directory's modules (Wiki.js's `autoload(path.join(WIKI.SERVERPATH, '/controllers'))`): names camel-cased, directories nested, only .js and .json files", async () => {
    const files = {
      ...Object.fromEntries(Object.entries(FILES).filter(([f]) => !f.startsWith('src/routes/'))),
      'package.json': JSON.stringify({ name: 'wiki', dependencies: { express: '^4.21.0', 'auto-load': '^3.0.4' } }),
      // the server's paths, a global the entry module sets (a member of it is a location too)
      'src/index.js': `'use strict';

const path = require('path');

let WIKI = {
  ROOTPATH: process.cwd(),
  SERVERPATH: path.join(process.cwd(), 'src'),
};
global.WIKI = WIKI;

require('./server')();
`,
      'src/server.js': `'use strict';

const autoload = require('auto-load');
const express = require('express');
const path = require('path');

/* global WIKI */

module.exports = async () => {
  const ctrl = autoload(path.join(WIKI.SERVERPATH, '/routes'));
  const app = express();
  app.use(express.json());
  app.use('/api/projects', ctrl.projectList);
  app.use('/api/internal', ctrl.internal);
  app.use('/api/v2/projects', ctrl.v2.projectList);
  // a TypeScript module is no module auto-load loads
  app.use('/api/audit', ctrl.audit);
  app.listen(3000);
};
`,
      'src/routes/project-list.js': PROJECTS,
      'src/routes/internal.js': BILLING,
      'src/routes/v2/project-list.js': PROJECTS.replaceAll('../', '../../'),
      'src/routes/audit.ts': BILLING.replace('/recompute', '/audit'),
    };
    const res = await check(writeProject(files));
    expect(lines(res)).toEqual([
      'POST /api/internal/recompute [] src/routes/internal.js:6',
      'GET /api/projects/ [requireSession] src/routes/project-list.js:8',
      'GET /api/projects/:projectId [requireSession] src/routes/project-list.js:9',
      'GET /api/v2/projects/ [requireSession] src/routes/v2/project-list.js:8',
      'GET /api/v2/projects/:projectId [requireSession] src/routes/v2/project-list.js:9',
      'POST /audit [] src/routes/audit.ts:6',
    ]);
    expect(unresolvedRows(res)).toEqual([
      'src/routes/audit.ts:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix',
    ]);
  });

  it('reads a computed member of an object of routers by the names a loop goes over', async () => {
    const res = await check(
      writeProject({
        ...FILES,
        'src/server.js': `'use strict';

const app = require('express')();
const routers = { projects: require('./routes/projects'), internal: require('./routes/internal') };

for (const name of Object.keys(routers).sort()) app.use('/api/' + name, routers[name]);
app.listen(3000);
`,
      }),
    );
    expect(lines(res)).toEqual(MOUNTED);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('leaves a listing it cannot know as before: a directory named by the environment, a recursive one, Buffer names', async () => {
    for (const dir of ["process.env.ROUTES_DIR || 'routes'", "path.join(__dirname, 'routes'), { withFileTypes: true, recursive: true }", "path.join(__dirname, 'routes'), 'buffer'"]) {
      const server = SERVER.replace("fs.readdirSync(path.join(__dirname, 'routes'))", `fs.readdirSync(${dir})`);
      expect(server).toContain(dir);
      const res = await check(writeProject({ ...FILES, 'src/server.js': server }));
      // unmounted: each router's routes without a prefix, and a warning that it is never mounted
      expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'GET /:projectId', 'POST /recompute']);
      expect(unresolvedRows(res)).toEqual([
        'src/routes/internal.js:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix',
        'src/routes/projects.js:3:16 warning unresolved-route router router is never mounted on an app in the analysed files; its routes are listed without a prefix',
        'src/server.js:13:3 warning unresolved-route the path of this use() is not known statically; what it mounts is left out',
      ]);
    }
  });
});

describe('fixtures/express-autoload', () => {
  const DIR = path.join(ROOT, 'fixtures', 'express-autoload');

  it("mounts api/'s modules at /api/<name> behind the guards chosen by name, and machine/'s register functions", async () => {
    const res = await check(DIR);
    expect(lines(res)).toEqual([
      // the identity module: the session only (`name === 'auth' ? [rejectAnonymous] : […]`)
      'GET /api/auth/me [rejectAnonymous] src/routes/api/auth.ts:6',
      'GET /api/databases/ [rejectAnonymous, ensureSameAccount] src/routes/api/databases.ts:7',
      'POST /api/databases/:databaseId/credentials/rotate [rejectAnonymous, ensureSameAccount] src/routes/api/databases.ts:12',
      'GET /api/deployments/ [rejectAnonymous, ensureSameAccount] src/routes/api/deployments.ts:8',
      'POST /api/deployments/:deploymentId/cancel [rejectAnonymous, ensureSameAccount, protectForms] src/routes/api/deployments.ts:12',
      'GET /api/health/ready [] src/routes/health.ts:7',
      // machine/billing.ts's register(app), called by the second loop
      'POST /api/internal/billing/:tenantId/recompute [requireServiceToken] src/routes/machine/billing.ts:7',
      'GET /api/ops/queue-depth [] src/routes/machine/queue.ts:6',
      'GET /api/sites/ [rejectAnonymous, ensureSameAccount] src/routes/api/sites.ts:8',
      'POST /api/sites/ [rejectAnonymous, ensureSameAccount, protectForms] src/routes/api/sites.ts:12',
      'DELETE /api/sites/:siteId [rejectAnonymous, ensureSameAccount, protectForms] src/routes/api/sites.ts:30',
      'GET /api/sites/:siteId [rejectAnonymous, ensureSameAccount] src/routes/api/sites.ts:21',
      'POST /webhooks/stripe [verifyStripeSignature] src/routes/machine/webhooks.ts:6',
    ]);
    expect(res.routes.filter((r) => r.contractRoute).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/auth/me', 'GET /api/databases/', 'GET /api/deployments/', 'GET /api/health/ready', 'GET /api/sites/']);
  });

  it('reports what the loaded modules leak: the ops module unguarded under /api, a form without CSRF, the identity route without a tenant check', async () => {
    const res = await check(DIR);
    expect(findingRows(res.findings)).toEqual([
      'src/routes/api/auth.ts:6:1 error missing-tenant-guard GET /api/auth/me has no tenant guard',
      'src/routes/api/databases.ts:12:1 error missing-csrf-guard POST /api/databases/:databaseId/credentials/rotate changes state on the browser session without a CSRF guard',
      'src/routes/api/databases.ts:12:1 info uncontracted-route POST /api/databases/:databaseId/credentials/rotate is on the browser surface but not in the contract',
      'src/routes/api/deployments.ts:12:1 info uncontracted-route POST /api/deployments/:deploymentId/cancel is on the browser surface but not in the contract',
      'src/routes/api/sites.ts:12:1 info uncontracted-route POST /api/sites/ is on the browser surface but not in the contract',
      'src/routes/api/sites.ts:21:1 info uncontracted-route GET /api/sites/:siteId is on the browser surface but not in the contract',
      'src/routes/api/sites.ts:30:1 info uncontracted-route DELETE /api/sites/:siteId is on the browser surface but not in the contract',
      'src/routes/machine/queue.ts:6:3 error excluded-family-leak GET /api/ops/queue-depth is in the excluded family "ops" and is reachable without its family guard (unguarded)',
    ]);
  });
});
