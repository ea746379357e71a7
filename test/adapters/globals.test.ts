/**
 * Globals a module sets (`global.app = express()`, `globalThis.config = …`): legacy Express
 * servers make their app (or a router) a global and require route files that register on it by
 * its bare name, importing nothing. Those routes were left out without a word.
 */
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { formatJson } from '../../src/report/json.js';
import { check } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const SERVER = `'use strict';

const express = require('express');
const session = require('express-session');
const { gatekeeper } = require('./middleware/auth');

global.app = express();
global.api = express.Router();

app.use(express.json());
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false, cookie: { secure: true, httpOnly: true } }));

require('./routes/health');
app.use('/api', gatekeeper, api);
require('./routes/sites');
require('./routes/deployments');

app.listen(process.env.PORT || 3000);
`;

const AUTH = `'use strict';

exports.gatekeeper = function gatekeeper(req, res, next) {
  if (!req.session || !req.session.userId) {
    return res.status(401).json({ error: 'not signed in' });
  }
  next();
};
`;

// registers on the app by its bare name
const HEALTH = `'use strict';

app.get('/healthz', (req, res) => {
  res.json({ ok: true, uptime: process.uptime() });
});
`;

// on the router, read as a property of the global object
const SITES = `'use strict';

const { PATHS } = require('../config');
const sites = require('../services/sites');

globalThis.api.get(PATHS.sites, async (req, res, next) => {
  try {
    res.json(await sites.list(req.session.tenantId));
  } catch (err) {
    next(err);
  }
});
`;

const DEPLOYMENTS = `'use strict';

api.post('/deployments', async (req, res) => {
  res.status(202).json({ queued: true, site: req.body.site });
});
`;

// a path table the route files read, set as a global by a module with nothing else to show
const CONFIG = `'use strict';

const PATHS = { sites: '/sites' };
exports.PATHS = PATHS;
`;

const SERVICES = `'use strict';

exports.list = async function list(tenantId) {
  return [{ id: 'site_1', tenantId }];
};
`;

const LEGACY = {
  'package.json': JSON.stringify({ name: 'legacy', dependencies: { express: '^4.21.0', 'express-session': '^1.18.0' } }),
  'server.js': SERVER,
  'middleware/auth.js': AUTH,
  'routes/health.js': HEALTH,
  'routes/sites.js': SITES,
  'routes/deployments.js': DEPLOYMENTS,
  'config.js': CONFIG,
  'services/sites.js': SERVICES,
};

describe('globals a module sets', () => {
  it('routes registered on a global app or router by its bare name or as `globalThis.api` are listed, behind what the app runs first', async () => {
    const res = await check(writeProject(LEGACY));
    expect(lines(res)).toEqual([
      'POST /api/deployments [gatekeeper] routes/deployments.js:3',
      'GET /api/sites [gatekeeper] routes/sites.js:6',
      'GET /healthz [] routes/health.js:3',
    ]);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it("a route file's registrations fall where the app's module requires it: one required before the app's guard is not behind it", async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'server.js': `'use strict';

const express = require('express');
const { gatekeeper } = require('./middleware/auth');

global.app = express();

require('./routes/public');
app.use(gatekeeper);
require('./routes');

app.listen(3000);
`,
        'middleware/auth.js': AUTH.replace('req.session.userId', 'req.get("x-user-id")').replace('!req.session || ', ''),
        'routes/public.js': `app.get('/status', (req, res) => res.json({ ok: true }));\n`,
        // two modules deep: server.js → routes/index.js → routes/sites.js
        'routes/index.js': `require('./sites');\n`,
        'routes/sites.js': `app.get('/sites', (req, res) => res.json([]));\napp.delete('/sites/:id', (req, res) => res.status(204).end());\n`,
      }),
    );
    expect(lines(res)).toEqual(['GET /sites [gatekeeper] routes/sites.js:1', 'DELETE /sites/:id [gatekeeper] routes/sites.js:2', 'GET /status [] routes/public.js:1']);
  });

  it('a global set by a module that shows nothing else is read (the prefilter parses it up front), the same with the prefilter off', async () => {
    const dir = writeProject({
      ...LEGACY,
      // the path table itself a global, set in a module with no registration, package or session in it
      'config.js': `'use strict';\n\nglobal.PATHS = { sites: '/sites', deployments: '/deployments' };\n`,
      'server.js': SERVER.replace("const express = require('express');", "require('./config');\nconst express = require('express');"),
      'routes/sites.js': SITES.replace("const { PATHS } = require('../config');\n", ''),
      'routes/deployments.js': DEPLOYMENTS.replace("'/deployments'", 'PATHS.deployments'),
    });
    const on = await run({ cwd: dir, paths: [] });
    expect(lines(on)).toEqual([
      'POST /api/deployments [gatekeeper] routes/deployments.js:3',
      'GET /api/sites [gatekeeper] routes/sites.js:5',
      'GET /healthz [] routes/health.js:3',
    ]);
    expect(formatJson(on)).toBe(formatJson(await run({ cwd: dir, paths: [], prefilter: false })));
  });

  it('a name a module binds itself is not the global, one set only under a condition is not known, and one two modules set is either (a route registered on it, on each)', async () => {
    const res = await check(
      writeProject({
        'package.json': EXPRESS_PACKAGE,
        'server.js': `const express = require('express');\n\nglobal.app = express();\nif (process.env.ADMIN) global.admin = express();\nglobal.shared = express();\n\nrequire('./routes/local');\nrequire('./routes/admin');\napp.listen(3000);\n`,
        'worker.js': `const express = require('express');\n\nglobal.shared = express();\nshared.listen(3001);\n`,
        // its own \`app\`, never mounted: listed on its own, not on the global one
        'routes/local.js': `const express = require('express');\n\nconst app = express.Router();\napp.get('/local', (req, res) => res.send('ok'));\nmodule.exports = app;\n`,
        'routes/admin.js': `admin.get('/admin/stats', (req, res) => res.json({}));\nshared.get('/shared', (req, res) => res.json({}));\napp.get('/served', (req, res) => res.json({}));\n`,
      }),
    );
    expect(lines(res)).toEqual(['GET /local [] routes/local.js:4', 'GET /served [] routes/admin.js:3', 'GET /shared [] routes/admin.js:2', 'GET /shared [] routes/admin.js:2']);
    expect(res.routes.filter((r) => r.path === '/shared').map((r) => r.app)).toEqual(['shared (server.js)', 'shared (worker.js)']);
    expect(unresolvedRows(res)).toEqual(['routes/local.js:3:13 warning unresolved-route router app is never mounted on an app in the analysed files; its routes are listed without a prefix']);
  });
});
