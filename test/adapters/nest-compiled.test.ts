/**
 * Decorated classes as TypeScript compiles them (`experimentalDecorators`): a decorated class is
 * a class expression (`let SitesController = class SitesController { … }`) and its decorators
 * are calls of `__decorate` after it — `__decorate([(0, common_1.Get)(':id'), __param(0, …),
 * __metadata(…)], SitesController.prototype, "get", null)` for a method's, `SitesController =
 * __decorate([…], SitesController)` for the class's, `__metadata("design:paramtypes", […])`
 * the constructor's parameter types a container injects by. fixtures/nest-compiled is
 * fixtures/nest-clean compiled by tsc 6.0.2 (`--experimentalDecorators --emitDecoratorMetadata
 * --target es2021 --module commonjs`); the second project was compiled the same way to ES
 * modules with `--importHelpers` (the helpers imported from tslib), the last two (NestJS,
 * inversify-express-utils) as the fixture was.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine.js';
import { ROOT, check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

// The helpers tsc writes at the top of each CommonJS module it compiles, as the projects below have them.
const DECORATE = `var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};`;
const METADATA = `var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};`;
const PARAM = `var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};`;

/** A route as the source and its compiled form both serve it: method, path, class, contract match, guards (name, kinds, mechanism). */
function served(res: RunResult): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} ${r.classification} ${r.contractMatch ?? '-'} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}`).join(', ') || '-'}`);
}

/** A finding without its place (the files and lines differ): rule, severity, message with its file references cut. */
function judged(res: RunResult): string[] {
  return res.findings.map((f) => `${f.ruleId} ${f.severity} ${f.message.replace(/(?:src|lib)\/[\w./-]+\.(?:ts|js):\d+/g, '<place>')}`).sort();
}

describe('fixtures/nest-compiled: fixtures/nest-clean as tsc compiles it', () => {
  it('serves the routes of its source, with the same guards, classes and findings', async () => {
    const source = await check(path.join(ROOT, 'fixtures', 'nest-clean'));
    const compiled = await check(path.join(ROOT, 'fixtures', 'nest-compiled'));
    expect(compiled.routes).toHaveLength(20);
    expect(served(compiled)).toEqual(served(source));
    expect(judged(compiled)).toEqual(judged(source));
    // each route at its compiled decorator, as the source's at its `@Get()`
    expect(compiled.routes.filter((r) => r.path.startsWith('/api/sites')).map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`)).toEqual([
      'GET /api/sites lib/sites/sites.controller.js:42',
      'POST /api/sites lib/sites/sites.controller.js:49',
      'DELETE /api/sites/:siteId lib/sites/sites.controller.js:74',
      'GET /api/sites/:siteId lib/sites/sites.controller.js:57',
      'PATCH /api/sites/:siteId lib/sites/sites.controller.js:65',
    ]);
  });
});

describe('compiled to ES modules, the helpers imported from tslib', () => {
  it('reads the decorators handed __decorate, and the guard through the service its constructor parameter types name', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'sites-api', type: 'module', dependencies: { '@nestjs/common': '11.1.3', '@nestjs/core': '11.1.3', tslib: '2.8.1' } }),
      'lib/main.js': `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
async function bootstrap() {
    const app = await NestFactory.create(AppModule);
    await app.listen(3000);
}
bootstrap();
`,
      'lib/app.module.js': `import { __decorate } from "tslib";
import { Module } from '@nestjs/common';
import { SitesController } from './sites.controller';
import { HealthController } from './health.controller';
import { SitesService } from './sites.service';
import { AuthService } from "./auth.service";
let AppModule = class AppModule {
};
AppModule = __decorate([
    Module({ controllers: [SitesController, HealthController], providers: [SitesService, AuthService] })
], AppModule);
export { AppModule };
`,
      'lib/auth.service.js': `import { __decorate } from "tslib";
import { Injectable, UnauthorizedException } from '@nestjs/common';
let AuthService = class AuthService {
    sessionUser(req) {
        const user = req.session?.user;
        if (!user)
            throw new UnauthorizedException('sign in');
        return user;
    }
};
AuthService = __decorate([
    Injectable()
], AuthService);
export { AuthService };
`,
      // (named for nothing: a guard only by what the injected service does)
      'lib/auth.guard.js': `import { __decorate, __metadata } from "tslib";
import { Injectable } from '@nestjs/common';
import { AuthService } from './auth.service';
let RequestGate = class RequestGate {
    constructor(auth) {
        this.auth = auth;
    }
    canActivate(context) {
        const req = context.switchToHttp().getRequest();
        this.auth.sessionUser(req);
        return true;
    }
};
RequestGate = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AuthService])
], RequestGate);
export { RequestGate };
`,
      'lib/health.controller.js': `import { __decorate, __metadata } from "tslib";
import { Controller, Get } from '@nestjs/common';
let HealthController = class HealthController {
    ready() {
        return { ok: true };
    }
};
__decorate([
    Get('ready'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], HealthController.prototype, "ready", null);
HealthController = __decorate([
    Controller('api/health')
], HealthController);
export { HealthController };
`,
      'lib/sites.service.js': `import { __decorate } from "tslib";
import { Injectable } from '@nestjs/common';
let SitesService = class SitesService {
    list(tenantId) { return [{ id: '1', tenantId }]; }
    get(id) { return { id }; }
    create(name) { return { id: '2', name }; }
};
SitesService = __decorate([
    Injectable()
], SitesService);
export { SitesService };
`,
      'lib/sites.controller.js': `import { __decorate, __metadata, __param } from "tslib";
import { Controller, Get, Param, Post, Body, Req, UseGuards } from '@nestjs/common';
import { RequestGate } from './auth.guard';
import { SitesService } from './sites.service';
let SitesController = class SitesController {
    constructor(sites) {
        this.sites = sites;
    }
    list(req) {
        return this.sites.list(req.tenantId);
    }
    get(id) {
        return this.sites.get(id);
    }
    create(body) {
        return this.sites.create(body.name);
    }
};
__decorate([
    Get(),
    __param(0, Req()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "list", null);
__decorate([
    Get(':id'),
    __param(0, Param('id')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "get", null);
__decorate([
    Post(),
    __param(0, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "create", null);
SitesController = __decorate([
    Controller('api/sites'),
    UseGuards(RequestGate),
    __metadata("design:paramtypes", [SitesService])
], SitesController);
export { SitesController };
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}:${g.file}:${g.line}`).join(', ') || '-'}`)).toEqual([
      'GET /api/health/ready lib/health.controller.js:9 -',
      'GET /api/sites lib/sites.controller.js:20 RequestGate:auth:controller-guard:lib/sites.controller.js:42',
      'POST /api/sites lib/sites.controller.js:34 RequestGate:auth:controller-guard:lib/sites.controller.js:42',
      'GET /api/sites/:id lib/sites.controller.js:27 RequestGate:auth:controller-guard:lib/sites.controller.js:42',
    ]);
    // by what canActivate calls on the AuthService injected: `__metadata("design:paramtypes", [AuthService])`
    expect(res.routes[1]!.guards[0]!.reason).toBe('by behaviour (it calls this.auth.sessionUser(): by name (auth); by behaviour (ends the request with 401))');
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});

describe('compiled CommonJS modules reading one another', () => {
  it("a metadata key the module exports and reads as `exports.ALLOW_ANONYMOUS`, read by a guard as `allow_anonymous_decorator_1.ALLOW_ANONYMOUS`, is one key: the route carrying it skips the global guard", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'badges', dependencies: { '@nestjs/common': '11.1.3', '@nestjs/core': '11.1.3' } }),
      'lib/allow-anonymous.decorator.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AllowAnonymous = exports.ALLOW_ANONYMOUS = void 0;
const common_1 = require("@nestjs/common");
exports.ALLOW_ANONYMOUS = Symbol('allow-anonymous');
const AllowAnonymous = () => (0, common_1.SetMetadata)(exports.ALLOW_ANONYMOUS, true);
exports.AllowAnonymous = AllowAnonymous;
`,
      'lib/app.module.js': `"use strict";
${DECORATE}
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppModule = void 0;
const common_1 = require("@nestjs/common");
const sites_controller_1 = require("./sites.controller");
let AppModule = class AppModule {
};
exports.AppModule = AppModule;
exports.AppModule = AppModule = __decorate([
    (0, common_1.Module)({ controllers: [sites_controller_1.SitesController] })
], AppModule);
`,
      'lib/authenticated.guard.js': `"use strict";
${DECORATE}
${METADATA}
var _a;
Object.defineProperty(exports, "__esModule", { value: true });
exports.AuthenticatedGuard = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const allow_anonymous_decorator_1 = require("./allow-anonymous.decorator");
let AuthenticatedGuard = class AuthenticatedGuard {
    constructor(reflector) {
        this.reflector = reflector;
    }
    canActivate(context) {
        const anonymous = this.reflector.get(allow_anonymous_decorator_1.ALLOW_ANONYMOUS, context.getHandler());
        if (anonymous)
            return true;
        const req = context.switchToHttp().getRequest();
        if (!req.session?.user)
            throw new common_1.UnauthorizedException();
        return true;
    }
};
exports.AuthenticatedGuard = AuthenticatedGuard;
exports.AuthenticatedGuard = AuthenticatedGuard = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [typeof (_a = typeof core_1.Reflector !== "undefined" && core_1.Reflector) === "function" ? _a : Object])
], AuthenticatedGuard);
`,
      'lib/main.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const core_1 = require("@nestjs/core");
const app_module_1 = require("./app.module");
const authenticated_guard_1 = require("./authenticated.guard");
async function bootstrap() {
    const app = await core_1.NestFactory.create(app_module_1.AppModule);
    app.useGlobalGuards(new authenticated_guard_1.AuthenticatedGuard(app.get(core_1.Reflector)));
    await app.listen(3000);
}
void bootstrap();
`,
      'lib/sites.controller.js': `"use strict";
${DECORATE}
${METADATA}
${PARAM}
Object.defineProperty(exports, "__esModule", { value: true });
exports.SitesController = void 0;
const common_1 = require("@nestjs/common");
const allow_anonymous_decorator_1 = require("./allow-anonymous.decorator");
let SitesController = class SitesController {
    list() {
        return [];
    }
    /** Embedded in README files, so it must load without a session. */
    badge(siteId) {
        return \`<svg data-site="\${siteId}"/>\`;
    }
};
exports.SitesController = SitesController;
__decorate([
    (0, common_1.Get)(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "list", null);
__decorate([
    (0, allow_anonymous_decorator_1.AllowAnonymous)(),
    (0, common_1.Get)(':siteId/badge.svg'),
    (0, common_1.Header)('Content-Type', 'image/svg+xml'),
    __param(0, (0, common_1.Param)('siteId')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "badge", null);
exports.SitesController = SitesController = __decorate([
    (0, common_1.Controller)('sites')
], SitesController);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ') || '-'}`)).toEqual([
      'GET /sites lib/sites.controller.js:29 AuthenticatedGuard:auth',
      'GET /sites/:siteId/badge.svg lib/sites.controller.js:36 -',
    ]);
  });

  it('a module required for what it does (`require("./controllers/sites.controller");`) is imported, as `import` of it is: its controllers are the server\'s', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'sites-api', dependencies: { express: '4.21.2', inversify: '6.2.2', 'inversify-express-utils': '6.5.0', 'reflect-metadata': '0.2.2' } }),
      'lib/container.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.container = void 0;
require("reflect-metadata");
const inversify_1 = require("inversify");
require("./controllers/health.controller");
require("./controllers/sites.controller");
exports.container = new inversify_1.Container();
`,
      'lib/server.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const inversify_express_utils_1 = require("inversify-express-utils");
const container_1 = require("./container");
const server = new inversify_express_utils_1.InversifyExpressServer(container_1.container, null, { rootPath: '/api' });
const app = server.build();
app.listen(Number(process.env.PORT ?? 3000));
`,
      'lib/controllers/health.controller.js': `"use strict";
${DECORATE}
${METADATA}
Object.defineProperty(exports, "__esModule", { value: true });
exports.HealthController = void 0;
const inversify_express_utils_1 = require("inversify-express-utils");
let HealthController = class HealthController {
    ready() {
        return { ok: true };
    }
};
exports.HealthController = HealthController;
__decorate([
    (0, inversify_express_utils_1.httpGet)('/ready'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], HealthController.prototype, "ready", null);
exports.HealthController = HealthController = __decorate([
    (0, inversify_express_utils_1.controller)('/health')
], HealthController);
`,
      'lib/controllers/sites.controller.js': `"use strict";
${DECORATE}
${METADATA}
${PARAM}
Object.defineProperty(exports, "__esModule", { value: true });
exports.SitesController = void 0;
const inversify_express_utils_1 = require("inversify-express-utils");
function requireSession(req, res, next) {
    if (!req.session?.userId)
        return res.status(401).json({ error: 'sign in' });
    next();
}
let SitesController = class SitesController {
    list(req) {
        return [{ id: 'site_1', owner: req.session?.userId }];
    }
    create(req) {
        return { id: 'site_2', name: req.body.name };
    }
};
exports.SitesController = SitesController;
__decorate([
    (0, inversify_express_utils_1.httpGet)('/'),
    __param(0, (0, inversify_express_utils_1.request)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "list", null);
__decorate([
    (0, inversify_express_utils_1.httpPost)('/'),
    __param(0, (0, inversify_express_utils_1.request)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], SitesController.prototype, "create", null);
exports.SitesController = SitesController = __decorate([
    (0, inversify_express_utils_1.controller)('/sites', requireSession)
], SitesController);
`,
    });
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line} ${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ') || '-'}`)).toEqual([
      'GET /api/health/ready lib/controllers/health.controller.js:21 -',
      'GET /api/sites lib/controllers/sites.controller.js:32 requireSession:auth',
      'POST /api/sites lib/controllers/sites.controller.js:39 requireSession:auth',
    ]);
    expect(res.findings.filter((f) => f.ruleId === 'unresolved-route')).toEqual([]);
  });
});
