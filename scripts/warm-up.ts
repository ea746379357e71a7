/**
 * What a compiler is warmed up with before its compiled code is kept: the build's code cache of
 * the parser route-surface loads (scripts/code-cache.ts), and bench/load.mjs's of the whole
 * compiler it is measured against, warmed alike.
 */
import { ADAPTERS } from '../src/adapters/index.js';
import { compilerApi } from '../src/extract/compiler.js';
import { extractFacts, hasSyntaxError } from '../src/extract/extract.js';

/** What the parser and the extraction meet in a server: imports, types, classes and decorators, handlers, routes. */
const WARM_UP = `import express, { type Request, type Response, type NextFunction } from 'express';
import { Controller, Get, Post, UseGuards, Param, Body } from '@nestjs/common';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Hono } from 'hono';
import Router from '@koa/router';
import { requireSession, requireTenant } from '../middleware/auth';
import * as sites from '../services/sites';

export interface SiteInput { name: string; region?: 'eu' | 'us'; tags: readonly string[] }
type Handler<T = unknown> = (req: Request, res: Response, next: NextFunction) => Promise<T> | void;
enum Plan { Free = 'free', Pro = 'pro' }
declare const process: { env: Record<string, string | undefined> };

const limit = Number(process.env.PAGE_LIMIT ?? 50);
export const router = express.Router({ mergeParams: true });
router.use(requireSession);
router.get('/sites', requireTenant, async (req, res, next) => {
  try {
    const { page = '1', q } = req.query as { page?: string; q?: string };
    const items = await sites.list(req.session!.tenantId, { page: Number(page), q, limit });
    if (!items.length && q) return res.status(404).json({ error: \`no site matches \${q}\` });
    res.json({ items, next: items.length === limit ? Number(page) + 1 : null });
  } catch (err: unknown) {
    next(err instanceof Error ? err : new Error(String(err)));
  }
});
router.post('/sites/:id/deploy', requireTenant, function deploy(req, res) {
  const body = req.body as Partial<SiteInput>;
  if (!req.user?.id || req.user.tenantId !== req.params.tenantId) { res.status(403).end(); return; }
  res.status(202).send({ ...body, plan: Plan.Pro, at: new Date().toISOString() });
});

export const plugin: FastifyPluginAsync<{ prefix: string }> = async (app: FastifyInstance, opts) => {
  app.addHook('onRequest', async (request, reply) => { if (!request.headers.cookie) return reply.code(401).send(); });
  app.get<{ Params: { id: string } }>('/deployments/:id', { schema: { params: { type: 'object' } } }, async (request) => ({ id: request.params.id, prefix: opts.prefix }));
};

export const api = new Hono().basePath('/api');
api.get('/health', (c) => c.json({ ok: true }));
const koa = new Router({ prefix: '/v1' });
koa.get('/me', async (ctx) => { if (!ctx.state.user) { ctx.status = 401; return; } ctx.body = ctx.state.user; });

@Controller('projects')
@UseGuards(SessionGuard)
export class ProjectsController {
  constructor(private readonly projects: ProjectsService, protected readonly log = console) {}

  @Get(':id')
  async get(@Param('id') id: string): Promise<Project | undefined> {
    return this.projects.find(id) as Project | undefined;
  }

  @Post()
  create(@Body() input: SiteInput) {
    const [first, ...rest] = input.tags;
    return this.projects.create({ ...input, first, rest, total: rest.length + 1 });
  }
}

export default function mount(app: ReturnType<typeof express>): void {
  app.use('/api', router);
  for (const [path, handler] of Object.entries<Handler>({})) app.get(path, handler);
}
`;

/** Parse and extract the server module above with `exports`, a compiler module's exports. */
export function warmUp(exports: unknown): void {
  const ts = compilerApi(exports as Parameters<typeof compilerApi>[0]);
  extractFacts(ts, 'src/warm-up.ts', WARM_UP, ADAPTERS);
  hasSyntaxError(ts, 'src/warm-up.js', WARM_UP);
}
