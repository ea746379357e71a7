/**
 * CommonJS modules as forum and CMS servers write them (NodeBB's layout): a module naming its
 * exports object (`const Write = module.exports`) and adding functions to it, objects built up
 * by assignments, and route helpers taking their arguments as a rest parameter
 * (`setupApiRoute(...args)`, `const [router, verb, name] = args`) and registering with a method
 * the caller names (`router[verb](…)`).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { routeLinesAt as lines, unresolvedRows } from '../helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

/** src/routes/helpers.js: no registration-like name in it but `router[verb](…)`. */
const HELPERS = `'use strict';

const helpers = module.exports;

// The core middleware every API route runs, then the route's own, then its controller.
helpers.setupApiRoute = function (...args) {
	const [router, verb, name, middlewares, controller] = args;
	router[verb](name, middlewares, helpers.tryRoute(controller));
};

helpers.tryRoute = function (controller) {
	return async (req, res, next) => {
		try {
			await controller(req, res, next);
		} catch (err) {
			next(err);
		}
	};
};
`;

const MIDDLEWARE = `'use strict';

const middleware = {};
module.exports = middleware;

middleware.ensureLoggedIn = function ensureLoggedIn(req, res, next) {
	if (!req.session || !req.session.uid) {
		return res.status(401).json({ status: { code: 'not-authorised' } });
	}
	next();
};
`;

const USERS = `'use strict';

const router = require('express').Router();
const middleware = require('../../middleware');
const controllers = require('../../controllers');
const { setupApiRoute } = require('../helpers');

module.exports = function () {
	setupApiRoute(router, 'get', '/:uid', [middleware.ensureLoggedIn], controllers.users.get);
	setupApiRoute(router, 'put', '/:uid', [middleware.ensureLoggedIn], controllers.users.update);
	setupApiRoute(router, 'delete', '/:uid', [middleware.ensureLoggedIn], controllers.users.remove);
	return router;
};
`;

const CONTROLLERS = `'use strict';

const controllers = {};
controllers.users = {
	get: async (req, res) => res.json({ uid: req.params.uid }),
	update: async (req, res) => res.json({ uid: req.params.uid, updated: true }),
	remove: async (req, res) => res.status(204).end(),
};

module.exports = controllers;
`;

const WRITE = `'use strict';

const Write = module.exports;

Write.reload = async (params) => {
	const { router } = params;
	router.use('/api/v3/users', require('./users')());
	router.get('/api/v3/ping', (req, res) => res.json({ pong: true }));
};
`;

const ROUTES = `'use strict';

const express = require('express');
const writeRoutes = require('./write');

module.exports = async function (app) {
	const router = express.Router();
	await writeRoutes.reload({ router: router });
	app.use('/forum', router);
};
`;

const APP = `'use strict';

const express = require('express');
const routes = require('./routes');

const app = express();
routes(app).then(() => app.listen(4567));
`;

const FORUM = {
	'package.json': EXPRESS_PACKAGE,
	'src/app.js': APP,
	'src/middleware/index.js': MIDDLEWARE,
	'src/controllers/index.js': CONTROLLERS,
	'src/routes/index.js': ROUTES,
	'src/routes/helpers.js': HELPERS,
	'src/routes/write/index.js': WRITE,
	'src/routes/write/users.js': USERS,
};

/** TypeScript 5's helpers, as its CommonJS output writes them at the top of a module that needs them. */
const TSC_CREATE_BINDING = `var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
`;
const TSC_IMPORT_DEFAULT = `var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
`;
const TSC_EXPORT_STAR = `var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
`;

describe('CommonJS modules', () => {
	it("reads the names a module exports beside the function it exports whole (Ghost's shared/express.js: `module.exports = (name) => express(); module.exports.Router = …`), not an ES module's", async () => {
		const files = {
			'package.json': EXPRESS_PACKAGE,
			'src/shared/express.js': `'use strict';
const express = require('express');

module.exports = (name) => {
  const app = express();
  app.set('name', name);
  return app;
};
module.exports.Router = (name, options) => express.Router(options);
`,
			'src/api/routes.js': `'use strict';
const express = require('../shared/express');

module.exports = function apiRoutes() {
  const router = express.Router('admin api', { mergeParams: true });
  router.get('/posts', (req, res) => res.json({ posts: [] }));
  router.del('/posts/:id', (req, res) => res.status(204).end());
  return router;
};
`,
			'src/app.js': `'use strict';
const express = require('./shared/express');
const apiRoutes = require('./api/routes');

const app = express('admin');
app.use('/ghost/api/admin', apiRoutes());
module.exports = app;
`,
		};
		const res = await check(writeProject(files));
		expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual(['GET /ghost/api/admin/posts src/api/routes.js:6', 'DELETE /ghost/api/admin/posts/:id src/api/routes.js:7']);
		// (an ES module's default export, imported as such, carries none of its named exports)
		const esm = await check(
			writeProject({
				...files,
				'src/shared/express.js': "import express from 'express';\n\nexport default (name) => express();\nexport const Router = (name, options) => express.Router(options);\n",
				'src/api/routes.js': files['src/api/routes.js'].replace("'use strict';\nconst express = require('../shared/express');", "import express from '../shared/express';").replace('module.exports = function', 'export default function'),
			}),
		);
		expect(esm.routes).toEqual([]);
	});

	it('reads what compilers emit for ES imports and exports: TypeScript\'s `__importDefault(require(…))`, `(0, express_1.default)()` and re-exports, Babel\'s `_interopRequireDefault`, rolldown\'s `express = __toESM(express)`, rollup\'s and swc\'s', async () => {
		// (TypeScript 5's CommonJS output, esModuleInterop on, of a four-file Express app)
		const tsc = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'lib/app.js': `"use strict";
${TSC_CREATE_BINDING}var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
${TSC_IMPORT_DEFAULT}};
Object.defineProperty(exports, "__esModule", { value: true });
const express_1 = __importDefault(require("express"));
const auth_1 = require("./auth");
const projects_1 = __importDefault(require("./routes/projects"));
const keys = __importStar(require("./routes/keys"));
const app = (0, express_1.default)();
app.use('/api', auth_1.requireSession);
app.use('/api/projects', projects_1.default);
app.use('/api/keys', keys.router);
app.get('/health', (_req, res) => res.json({ ok: true }));
exports.default = app;
`,
				'lib/auth.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.requireSession = requireSession;
function requireSession(req, res, next) {
    if (!req.session?.userId)
        return res.status(401).json({ error: 'unauthorized' });
    next();
}
`,
				'lib/routes/projects.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const express_1 = require("express");
const router = (0, express_1.Router)();
router.get('/', (_req, res) => res.json([]));
router.delete('/:id', (_req, res) => res.status(204).end());
exports.default = router;
`,
				'lib/routes/keys.js': `"use strict";
${TSC_IMPORT_DEFAULT}};
Object.defineProperty(exports, "__esModule", { value: true });
exports.router = void 0;
const express_1 = __importDefault(require("express"));
exports.router = express_1.default.Router();
exports.router.post('/', (_req, res) => res.status(201).json({}));
`,
			}),
		);
		expect(lines(tsc)).toEqual([
			'POST /api/keys/ [auth_1.requireSession] lib/routes/keys.js:9',
			'GET /api/projects/ [auth_1.requireSession] lib/routes/projects.js:5',
			'DELETE /api/projects/:id [auth_1.requireSession] lib/routes/projects.js:6',
			'GET /health [] lib/app.js:47',
		]);
		expect(unresolvedRows(tsc)).toEqual([]);
		// (its re-exports: `export { default as users } from './users'`, a getter on `exports`, and `export * from './projects'`, `__exportStar`)
		const reexported = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'lib/app.js': `"use strict";
${TSC_IMPORT_DEFAULT}};
Object.defineProperty(exports, "__esModule", { value: true });
const express_1 = __importDefault(require("express"));
const routes_1 = require("./routes");
const app = (0, express_1.default)();
app.use(routes_1.requireSession);
app.use('/users', routes_1.users);
app.use('/projects', routes_1.projects);
app.listen(3000);
`,
				'lib/routes/index.js': `"use strict";
${TSC_CREATE_BINDING}${TSC_EXPORT_STAR}${TSC_IMPORT_DEFAULT}};
Object.defineProperty(exports, "__esModule", { value: true });
exports.users = void 0;
var users_1 = require("./users");
Object.defineProperty(exports, "users", { enumerable: true, get: function () { return __importDefault(users_1).default; } });
__exportStar(require("./projects"), exports);
__exportStar(require("../auth"), exports);
`,
				'lib/routes/users.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const express_1 = require("express");
const router = (0, express_1.Router)();
router.get('/:id', (req, res) => res.json({ id: req.params.id }));
exports.default = router;
`,
				'lib/routes/projects.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.projects = void 0;
const express_1 = require("express");
exports.projects = (0, express_1.Router)();
exports.projects.get('/', (_req, res) => res.json([]));
`,
				'lib/auth.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.requireSession = void 0;
const requireSession = (req, res, next) => {
    if (!req.session?.userId)
        return res.status(401).end();
    next();
};
exports.requireSession = requireSession;
`,
			}),
		);
		expect(lines(reexported)).toEqual(['GET /projects/ [routes_1.requireSession] lib/routes/projects.js:6', 'GET /users/:id [routes_1.requireSession] lib/routes/users.js:5']);
		expect(unresolvedRows(reexported)).toEqual([]);
		// (Babel's, its `export * from './projects'` an `Object.keys(_projects).forEach(…)` defining each on `exports`)
		const babel = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'lib/app.js': `"use strict";

var _express = _interopRequireDefault(require("express"));
var _routes = require("./routes");
function _interopRequireDefault(e) { return e && e.__esModule ? e : { default: e }; }
const app = (0, _express.default)();
app.use("/users", _routes.users);
app.use("/projects", _routes.projects);
app.listen(3000);
`,
				'lib/routes/index.js': `"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
var _exportNames = {
  users: true
};
Object.defineProperty(exports, "users", {
  enumerable: true,
  get: function () {
    return _users.default;
  }
});
var _users = _interopRequireDefault(require("./users"));
var _projects = require("./projects");
Object.keys(_projects).forEach(function (key) {
  if (key === "default" || key === "__esModule") return;
  if (Object.prototype.hasOwnProperty.call(_exportNames, key)) return;
  if (key in exports && exports[key] === _projects[key]) return;
  Object.defineProperty(exports, key, {
    enumerable: true,
    get: function () {
      return _projects[key];
    }
  });
});
function _interopRequireDefault(e) { return e && e.__esModule ? e : { default: e }; }
`,
				'lib/routes/users.js': `"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.default = void 0;
var _express = require("express");
const router = (0, _express.Router)();
router.get("/:id", (req, res) => res.json({ id: req.params.id }));
var _default = exports.default = router;
`,
				'lib/routes/projects.js': `"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.projects = void 0;
var _express = require("express");
const projects = exports.projects = (0, _express.Router)();
projects.get("/", (req, res) => res.json([]));
`,
			}),
		);
		expect(lines(babel)).toEqual(['GET /projects/ [] lib/routes/projects.js:9', 'GET /users/:id [] lib/routes/users.js:9']);
		const rolldown = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'out/_virtual/runtime.js': 'var __toESM = (mod) => (mod && mod.__esModule ? mod : { default: mod });\nexports.__toESM = __toESM;\n',
				'out/api/index.js': `const require_runtime = require("../_virtual/runtime.js");
let express = require("express");
express = require_runtime.__toESM(express);
function endpoint_default() {
	const app = express.default.Router();
	app.get("/-/ping", (_req, res) => res.json({}));
	return app;
}
exports.default = endpoint_default;
`,
				'out/server.js': `const require_runtime = require("./_virtual/runtime.js");
const require_api_index = require("./api/index.js");
let express = require("express");
express = require_runtime.__toESM(express);
const app = (0, express.default)();
app.use(require_api_index.default());
app.get("/-/static/favicon.ico", (_req, res) => res.end());
app.listen(4873);
`,
			}),
		);
		expect(lines(rolldown)).toEqual(['GET /-/ping [] out/api/index.js:6', 'GET /-/static/favicon.ico [] out/server.js:7']);
		// (rollup's `_interopDefaultCompat`, Backstage's published plugins; swc's `_interop_require_default._`)
		const rollup = await check(
			writeProject({
				'package.json': JSON.stringify({ name: 'plugin', dependencies: { express: '^4.21.0', 'express-promise-router': '^4.1.0' } }),
				'out/service/router.cjs.js': `'use strict';

var Router = require('express-promise-router');

function _interopDefaultCompat (e) { return e && typeof e === 'object' && 'default' in e ? e : { default: e }; }

var Router__default = /*#__PURE__*/_interopDefaultCompat(Router);

async function createRouter(options) {
  const router = Router__default.default();
  router.get("/metadata/:namespace/:kind/:name", async (req, res) => {
    res.json(await options.catalog.getEntityByRef(req.params));
  });
  return router;
}

exports.createRouter = createRouter;
`,
				'out/index.cjs.js': `"use strict";
const _interop_require_default = require("@swc/helpers/_/_interop_require_default");
const _express = /*#__PURE__*/ _interop_require_default._(require("express"));
const _router = require("./service/router.cjs.js");
async function main() {
    const app = (0, _express.default)();
    app.use("/api/techdocs", await (0, _router.createRouter)({ catalog: null }));
    app.listen(7007);
}
main();
`,
			}),
		);
		expect(lines(rollup)).toEqual(['GET /api/techdocs/metadata/:namespace/:kind/:name [] out/service/router.cjs.js:11']);
	});

	it("follows a router through the calls TypeScript's CommonJS output makes on a module's namespace: a call's result kept (`app.apis = await (0, api_1.startApis)(app)`) or returned, also in a list Promise.all waits for, and a class made off it (`new course_1.CourseApi(app)`; Signal K's server), as of `import * as`", async () => {
		const res = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'lib/index.js': `"use strict";
${TSC_IMPORT_DEFAULT}};
Object.defineProperty(exports, "__esModule", { value: true });
const express_1 = __importDefault(require("express"));
const http_1 = __importDefault(require("http"));
const api_1 = require("./api");
class Server {
    constructor(opts) {
        const app = (0, express_1.default)();
        app.use(express_1.default.json());
        this.app = app;
    }
    start() {
        const self = this;
        const app = this.app;
        return new Promise(async (resolve, reject) => {
            createServer(app, async (err, server) => {
                if (err) return reject(err);
                app.server = server;
                app.apis = await (0, api_1.startApis)(app);
                server.listen(3000, () => resolve(self));
            });
        });
    }
}
function createServer(app, cb) {
    cb(null, http_1.default.createServer(app));
}
exports.default = Server;
`,
				'lib/api/index.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startApis = void 0;
const course_1 = require("./course");
const startApis = (app) => {
    const courseApi = new course_1.CourseApi(app);
    return Promise.all([courseApi.start()]).then(() => ({ courseApi }));
};
exports.startApis = startApis;
`,
				'lib/api/course.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CourseApi = void 0;
const COURSE_API_PATH = "/signalk/v2/api/vessels/self/navigation/course";
class CourseApi {
    constructor(app) {
        this.app = app;
        this.course = null;
    }
    async start() {
        this.initCourseRoutes();
    }
    initCourseRoutes() {
        this.app.get(COURSE_API_PATH, (req, res) => {
            res.json(this.course);
        });
        this.app.delete(COURSE_API_PATH, (req, res) => {
            this.course = null;
            res.status(200).json({ state: "COMPLETED" });
        });
    }
}
exports.CourseApi = CourseApi;
`,
				// the same as TypeScript writes it: a namespace import, a class made off it
				'src/v3.ts': `
import express from 'express';
import * as apis from './apis';

export const v3 = express();
const started = apis.start(v3);
new apis.Radar(v3, started);
`,
				// returned, also in a list Promise.all waits for
				'src/v4.ts': `
import express from 'express';
import * as hooks from './hooks';

export const v4 = express();
async function boot(app: express.Express) {
  return Promise.all([hooks.audit(app)]);
}
function health(app: express.Express) {
  return hooks.health(app);
}
boot(v4);
health(v4);
`,
				'src/hooks.ts': `
import type { Express } from 'express';

export function audit(app: Express) {
  app.get('/v4/audit', (_req, res) => res.json([]));
}

export function health(app: Express) {
  app.get('/v4/health', (_req, res) => res.send('ok'));
}
`,
				'src/apis.ts': `
import type { Express } from 'express';

export function start(app: Express) {
  app.get('/v3/ping', (_req, res) => res.send('pong'));
  return Date.now();
}

export class Radar {
  constructor(private readonly app: Express, since: number) {
    this.app.get('/v3/radars', (_req, res) => res.json({ since, radars: [] }));
  }
}
`,
			}),
		);
		expect(lines(res)).toEqual([
			'DELETE /signalk/v2/api/vessels/self/navigation/course [] lib/api/course.js:17',
			'GET /signalk/v2/api/vessels/self/navigation/course [] lib/api/course.js:14',
			'GET /v3/ping [] src/apis.ts:5',
			'GET /v3/radars [] src/apis.ts:11',
			'GET /v4/audit [] src/hooks.ts:5',
			'GET /v4/health [] src/hooks.ts:9',
		]);
		expect(unresolvedRows(res)).toEqual([]);
	});

	it('follows exports added to a named exports object, rest-parameter helpers and methods the caller names', async () => {
		const res = await check(writeProject(FORUM));
		expect(lines(res)).toEqual([
			'GET /forum/api/v3/ping [] src/routes/write/index.js:8',
			// each made by setupApiRoute, with the path and method its call gives: where the call is made
			'DELETE /forum/api/v3/users/:uid [middleware.ensureLoggedIn] src/routes/write/users.js:11',
			'GET /forum/api/v3/users/:uid [middleware.ensureLoggedIn] src/routes/write/users.js:9',
			'PUT /forum/api/v3/users/:uid [middleware.ensureLoggedIn] src/routes/write/users.js:10',
		]);
		expect(unresolvedRows(res)).toEqual([]);
		expect(res.routes.find((r) => r.method === 'GET' && r.path === '/forum/api/v3/users/:uid')!.guards.map((g) => g.kinds)).toEqual([['auth']]);
	});

	it("calls a module's export at once, `require('./routes')(app)`, as it calls one named first", async () => {
		const app = APP.replace("const routes = require('./routes');\n", '').replace('routes(app).then(() => app.listen(4567));', "require('./routes')(app).then(() => app.listen(4567));");
		const res = await check(writeProject({ ...FORUM, 'src/app.js': app }));
		expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /forum/api/v3/ping', 'DELETE /forum/api/v3/users/:uid', 'GET /forum/api/v3/users/:uid', 'PUT /forum/api/v3/users/:uid']);
		expect(unresolvedRows(res)).toEqual([]);
	});

	it('reads `module.exports = Write` before or after its functions are added, and `const Write = exports`', async () => {
		for (const write of [
			WRITE.replace('const Write = module.exports;', 'const Write = {};\nmodule.exports = Write;'),
			WRITE.replace('const Write = module.exports;', 'const Write = {};') + 'module.exports = Write;\n',
			WRITE.replace('const Write = module.exports;', 'const Write = exports;'),
		]) {
			const res = await check(writeProject({ ...FORUM, 'src/routes/write/index.js': write }));
			expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /forum/api/v3/ping', 'DELETE /forum/api/v3/users/:uid', 'GET /forum/api/v3/users/:uid', 'PUT /forum/api/v3/users/:uid']);
		}
	});

	it('imports by name a function added to the object `module.exports` names', async () => {
		const write = WRITE.replace('const Write = module.exports;', 'const Write = {};\nmodule.exports = Write;');
		const routes = ROUTES.replace("const writeRoutes = require('./write');", "const { reload } = require('./write');").replace('writeRoutes.reload(', 'reload(');
		const res = await check(writeProject({ ...FORUM, 'src/routes/write/index.js': write, 'src/routes/index.js': routes }));
		expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /forum/api/v3/ping', 'DELETE /forum/api/v3/users/:uid', 'GET /forum/api/v3/users/:uid', 'PUT /forum/api/v3/users/:uid']);
	});

	it('does not take a local object named module for the exports', async () => {
		const write = WRITE.replace('const Write = module.exports;', "const module = { exports: {} };\nconst Write = module.exports;");
		const res = await check(writeProject({ ...FORUM, 'src/routes/write/index.js': write }));
		// reload() is not found: the users router is never mounted, and nothing is under /forum
		expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /:uid', 'GET /:uid', 'PUT /:uid']);
	});

	it('warns about routes registered on a property of a parameter that no call hands a router in', async () => {
		const res = await check(
			writeProject({
				...FORUM,
				'src/routes/index.js': ROUTES.replace('await writeRoutes.reload({ router: router });', ''),
				// a test's HTTP client, handed data and no handler: no route
				'test/tags.spec.js': `'use strict';
const { test, expect } = require('./fixtures');

const cases = require('./tag-cases.json');
for (const { name, body, status } of cases) {
	test(name, async ({ api }) => {
		expect((await api.post('/api/tags', body)).status).toBe(status);
	});
}
`,
			}),
		);
		expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /:uid', 'GET /:uid', 'PUT /:uid']);
		expect(unresolvedRows(res)).toEqual([
			// (one warning for the two registrations on it, at the first)
			"src/routes/write/index.js:7:2 warning unresolved-route routes (2, this one the first) registered on 'params.router' of a parameter of a function() whose callers pass no router known statically; their prefix is unknown",
			'src/routes/write/users.js:3:16 warning unresolved-route router is never mounted on an app in the analysed files; its routes are listed without a prefix',
		]);
	});

	it('takes the elements of an array destructured from a list it knows', async () => {
		const res = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'src/app.js': `'use strict';
const express = require('express');

const app = express();
const [publicRouter, adminRouter] = [express.Router(), express.Router()];
publicRouter.get('/status', (req, res) => res.json({ ok: true }));
for (const resource of ['tenants', 'plans']) {
	adminRouter.get(\`/\${resource}\`, (req, res) => res.json({ items: [] }));
}
app.use('/public', publicRouter);
app.use('/admin', adminRouter);
app.listen(3000);
`,
			}),
		);
		expect(lines(res)).toEqual(['GET /admin/plans [] src/app.js:8', 'GET /admin/tenants [] src/app.js:8', 'GET /public/status [] src/app.js:6']);
	});

	// anything-llm's endpoints/utils.js: provider endpoints required where they are registered
	it('takes the names destructured from a require inside a function', async () => {
		const res = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'server/index.js': `const express = require('express');
const { validatedRequest } = require('./middleware/validatedRequest');
const { utilEndpoints } = require('./endpoints/utils');

const app = express();
const apiRouter = express.Router();
app.use('/api', apiRouter);
utilEndpoints(apiRouter);
app.listen(3001);
`,
				'server/middleware/validatedRequest.js': `async function validatedRequest(request, response, next) {
  const auth = request.header('Authorization');
  const token = auth ? auth.split(' ')[1] : null;
  if (!token) return response.status(401).json({ error: 'No auth token found.' });
  next();
}

module.exports = { validatedRequest };
`,
				'server/endpoints/utils.js': `const { validatedRequest } = require('../middleware/validatedRequest');

function utilEndpoints(app) {
  if (!app) return;
  app.get('/utils/metrics', [validatedRequest], (_, response) => response.status(200).json({ online: true }));

  const { dockerModelRunnerEndpoints } = require('./utils/dockerModelRunner');
  dockerModelRunnerEndpoints(app);
  const lemonade = require('./utils/lemonade').lemonadeEndpoints;
  lemonade(app);
}

module.exports = { utilEndpoints };
`,
				'server/endpoints/utils/dockerModelRunner.js': `const { validatedRequest } = require('../../middleware/validatedRequest');

function dockerModelRunnerEndpoints(app) {
  app.post('/utils/dmr/download-model', [validatedRequest], async (request, response) => {
    const { modelId } = request.body;
    response.status(200).json({ success: true, modelId });
  });
}

module.exports = { dockerModelRunnerEndpoints };
`,
				'server/endpoints/utils/lemonade.js': `const { validatedRequest } = require('../../middleware/validatedRequest');

function lemonadeEndpoints(app) {
  app.post('/utils/lemonade/delete-model', [validatedRequest], async (request, response) => response.status(200).json({ success: true }));
}

module.exports = { lemonadeEndpoints };
`,
			}),
		);
		expect(lines(res)).toEqual([
			'POST /api/utils/dmr/download-model [validatedRequest] server/endpoints/utils/dockerModelRunner.js:4',
			'POST /api/utils/lemonade/delete-model [validatedRequest] server/endpoints/utils/lemonade.js:4',
			'GET /api/utils/metrics [validatedRequest] server/endpoints/utils.js:5',
		]);
		expect(unresolvedRows(res)).toEqual([]);
	});
});

describe('functions of an object called by a key not known statically', () => {
	// NodeBB's src/routes/index.js: `_mounts[original](router, mount, middleware, controllers)` for
	// each key of a list a plugin hook may rename; `_mounts.main` called by its name as well
	const INDEX = `'use strict';

const express = require('express');
const middleware = require('../middleware');
const controllers = require('../controllers');

const _mounts = {
	user: require('./user'),
};

_mounts.main = (app, middleware, controllers) => {
	app.get('/tos', controllers.tos);
};

_mounts.categories = (app, name, middleware, controllers) => {
	app.get('/categories', controllers.categories);
};

_mounts.topic = (app, name, middleware, controllers) => {
	app.get(\`/\${name}/:topic_id/:slug?\`, controllers.topic);
};

module.exports = function (app) {
	const router = express.Router();
	const mounts = ['categories', 'topic', 'user'].reduce((memo, mount) => {
		memo[mount] = mount;
		return memo;
	}, {});

	_mounts.main(router, middleware, controllers);
	addRemountableRoutes(router, mounts);

	app.use('/forum', router);
};

function addRemountableRoutes(router, mounts) {
	Object.keys(mounts).map(async (mount) => {
		const original = mount;
		mount = mounts[original];
		if (!mount) {
			return;
		}
		_mounts[original](router, mount, middleware, controllers);
	});
}
`;
	const USER = `'use strict';

module.exports = function (app, name, middleware, controllers) {
	app.get('/notifications', middleware.ensureLoggedIn, controllers.notifications);
	app.get(\`/\${name}/:userslug\`, controllers.profile);
};
`;
	const MIDDLEWARE = `'use strict';

module.exports = {
	ensureLoggedIn(req, res, next) {
		if (!req.loggedIn) {
			return res.status(401).json({ error: 'not-logged-in' });
		}
		next();
	},
};
`;
	const CONTROLLERS = `'use strict';

const send = (what) => (req, res) => res.json({ page: what, uid: req.uid });

module.exports = {
	tos: send('tos'),
	categories: send('categories'),
	topic: send('topic'),
	notifications: send('notifications'),
	profile: send('profile'),
};
`;
	const APP = `'use strict';

const express = require('express');
const routes = require('./src/routes');

const app = express();
routes(app);
app.listen(4567);
`;

	it("registers each member's routes on the router handed to it, once, the one called by name too", async () => {
		const res = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'app.js': APP,
				'src/routes/index.js': INDEX,
				'src/routes/user.js': USER,
				'src/middleware/index.js': MIDDLEWARE,
				'src/controllers/index.js': CONTROLLERS,
			}),
		);
		// (the mount's name is not known statically: listed without that part)
		expect(lines(res)).toEqual([
			'GET /forum/:topic_id [] src/routes/index.js:20',
			'GET /forum/:topic_id/:slug [] src/routes/index.js:20',
			'GET /forum/:userslug [] src/routes/user.js:5',
			'GET /forum/categories [] src/routes/index.js:16',
			'GET /forum/notifications [middleware.ensureLoggedIn] src/routes/user.js:4',
			'GET /forum/tos [] src/routes/index.js:12',
		]);
		expect(unresolvedRows(res)).toEqual([
			'src/routes/index.js:20:2 warning unresolved-route GET route with a path not known statically (the parameter mount); it is listed without that part',
			'src/routes/user.js:5:2 warning unresolved-route GET route with a path not known statically (the parameter mount); it is listed without that part',
		]);
	});
});

describe('a value the module sets on its exports, read back by that name', () => {
	// Etherpad's src/node/hooks/express.ts: `exports.sessionMiddleware = expressSession({ … })`
	// in restartServer(), then `app.use(exports.sessionMiddleware)`
	const SERVER = `'use strict';

const express = require('express');
const expressSession = require('express-session');

exports.requireSignIn = (req, res, next) => {
	if (!req.session || !req.session.user || !req.session.user.id) {
		return res.status(401).send('Authentication Required');
	}
	next();
};

exports.restartServer = async () => {
	const app = express();
	exports.sessionMiddleware = expressSession({
		rolling: true,
		secret: process.env.SESSION_KEY,
		resave: false,
		saveUninitialized: false,
		name: 'express_sid',
		cookie: { sameSite: 'lax', secure: 'auto' },
	});
	app.use(exports.sessionMiddleware);
	app.post('/tokenTransfer', (req, res) => res.send({ id: req.sessionID }));
	app.get('/admin/settings', exports.requireSignIn, (req, res) => res.json({ settings: {} }));
	app.listen(9001);
};

exports.restartServer();
`;

	it('is what was set: express-session guards nothing, the sign-in check is auth by behaviour', async () => {
		const res = await check(
			writeProject({
				'package.json': JSON.stringify({ name: 'pad-server', dependencies: { express: '^4.21.2', 'express-session': '^1.18.1' } }),
				'src/server.js': SERVER,
			}),
		);
		expect(lines(res)).toEqual(['GET /admin/settings [exports.requireSignIn] src/server.js:25', 'POST /tokenTransfer [] src/server.js:24']);
		expect(res.routes.find((r) => r.path === '/admin/settings')!.guards.map((g) => [g.kinds, g.reason])).toEqual([[['auth'], 'by behaviour (ends the request with 401)']]);
	});

	it("requires a directory's module by a trailing slash or `..` (`require('../api/')`, Nightscout's server), never a file of that name beside it", async () => {
		const res = await check(
			writeProject({
				'package.json': EXPRESS_PACKAGE,
				'lib/server/app.js': `'use strict';
const express = require('express');

function create(env) {
	const app = express();
	const api = require('../api/')(env);
	app.use('/api/v1', api);
	return app;
}

module.exports = create;
`,
				'lib/api/index.js': `'use strict';
const express = require('express');

module.exports = function create(env) {
	const api = express.Router();
	api.get('/status', (req, res) => res.json({ status: 'ok', name: env.name }));
	require('./entries')(api);
	return api;
};
`,
				'lib/api/entries.js': `'use strict';
const { requireApiSecret } = require('..');

module.exports = function entries(api) {
	api.get('/entries', requireApiSecret, (req, res) => res.json([]));
};
`,
				'lib/index.js': `'use strict';
exports.requireApiSecret = function requireApiSecret(req, res, next) {
	if (req.get('api-secret') !== process.env.API_SECRET) return res.status(401).json({ message: 'Unauthorized' });
	next();
};
`,
				// what require('../api/') and require('..') would load, were they read as files: not Node's answers
				'lib/api.js': `'use strict';
const express = require('express');

module.exports = function create() {
	return express.Router();
};
`,
				'lib.js': `'use strict';
exports.requireApiSecret = function requireApiSecret(req, res, next) {
	next();
};
`,
			}),
		);
		expect(lines(res)).toEqual(['GET /api/v1/entries [requireApiSecret] lib/api/entries.js:5', 'GET /api/v1/status [] lib/api/index.js:6']);
		// (the API secret read from a header: a bearer credential)
		expect(res.routes[0]!.guards.map((g) => g.kinds)).toEqual([['auth', 'bearer']]);
		expect(unresolvedRows(res)).toEqual([]);
	});

	it("requires the root's index by `require('.')` and `require('./')` from a module at the root", async () => {
		for (const spec of ['.', './']) {
			const res = await check(
				writeProject({
					'package.json': EXPRESS_PACKAGE,
					'index.js': "'use strict';\nconst express = require('express');\n\nconst router = express.Router();\nrouter.get('/health', (req, res) => res.json({ ok: true }));\nmodule.exports = router;\n",
					'server.js': `'use strict';\nconst express = require('express');\nconst routes = require('${spec}');\n\nconst app = express();\napp.use('/api', routes);\napp.listen(3000);\n`,
				}),
			);
			expect(lines(res), spec).toEqual(['GET /api/health [] index.js:5']);
		}
	});
});
