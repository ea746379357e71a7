/**
 * NestJS as TypeScript compiles it (`experimentalDecorators`): a decorated class is a class
 * expression (`let SitesController = class SitesController { … }`) and its decorators are
 * calls of `__decorate` after it — `__decorate([(0, common_1.Get)(':id'), __param(0, …),
 * __metadata(…)], SitesController.prototype, "get", null)` for a method's, `SitesController =
 * __decorate([…], SitesController)` for the class's, `__metadata("design:paramtypes", […])`
 * the constructor's parameter types a container injects by. fixtures/nest-compiled is
 * fixtures/nest-clean compiled by tsc 6.0.2 (`--experimentalDecorators --emitDecoratorMetadata
 * --target es2021 --module commonjs`); the second project was compiled the same way to ES
 * modules with `--importHelpers` (the helpers imported from tslib).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine.js';
import { ROOT, check } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

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
