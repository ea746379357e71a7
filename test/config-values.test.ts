/**
 * The config's `values`: a prefix the code reads from its configuration or environment is not
 * known statically, so what is mounted under it is listed without it (and said so); named in
 * `values`, it is read as the string given, and the routes are listed under it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from './helpers/run.js';
import { unresolvedRows } from './helpers/expect.js';
import { EXPRESS_PACKAGE, writeProject } from './helpers/project.js';

const PROJECT = {
  'package.json': EXPRESS_PACKAGE,
  'src/routes/sites.ts': `
import { Router } from 'express';

export const sitesRouter = Router();

sitesRouter.get('/', (req, res) => {
  res.json({ sites: [] });
});
`,
  'src/routes/files.ts': `
import { Router } from 'express';

export const filesRouter = Router();

filesRouter.get('/:fileId', (req, res) => {
  res.sendFile(req.params.fileId, { root: '/srv/files' });
});
`,
  'src/server.ts': `
import express from 'express';
import { sitesRouter } from './routes/sites';
import { filesRouter } from './routes/files';

const baseUriPath = process.env.BASE_URI_PATH || '';

export class Server {
  private readonly app = express();

  start(options: { mountPath: string; port: number }) {
    this.app.use(\`\${baseUriPath}/api/sites\`, sitesRouter);
    this.app.use(options.mountPath, filesRouter);
    this.app.listen(options.port);
  }
}
`,
};

function lines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} ${r.file}:${r.line}`);
}

describe('config values', () => {
  it('without them: what is mounted under a configured prefix is listed without it, with a warning each', async () => {
    const res = await check(writeProject(PROJECT));
    expect(lines(res)).toEqual(['GET /:fileId src/routes/files.ts:6', 'GET /api/sites/ src/routes/sites.ts:6']);
    expect(res.routes.map((r) => r.prefixes.map((p) => `${p.prefix} ${p.unknown}`))).toEqual([[' the parameter options.mountPath'], ["/api/sites process.env.BASE_URI_PATH || ''"]]);
    expect(unresolvedRows(res)).toEqual([
      "src/server.ts:12:5 warning unresolved-route the path of this use() is not known statically (process.env.BASE_URI_PATH || ''); the routes under it are listed without that part",
      'src/server.ts:13:5 warning unresolved-route the path of this use() is not known statically (the parameter options.mountPath); the routes under it are listed without that part',
    ]);
  });

  it('with them: a name read from the environment and a parameter’s property are the strings given', async () => {
    const dir = writeProject(PROJECT);
    fs.writeFileSync(path.join(dir, 'route-surface.config.json'), JSON.stringify({ values: { baseUriPath: '/console', 'options.mountPath': '/files' } }));
    const res = await check(dir);
    expect(lines(res)).toEqual(['GET /console/api/sites/ src/routes/sites.ts:6', 'GET /files/:fileId src/routes/files.ts:6']);
    expect(unresolvedRows(res)).toEqual([]);
  });

  it('a call of a function with no argument, written with its parentheses: documenso’s tRPC endpoint at `${getBasePath()}/api/trpc`', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'web', dependencies: { hono: '^4.7.0', '@hono/trpc-server': '^0.3.4', '@trpc/server': '^11.0.0' } }),
      'src/app-path.ts': `
export const getBasePath = (): string => {
  const explicit = process.env.NEXT_PUBLIC_BASE_PATH;
  if (explicit) return explicit.replace(/\\/$/, '');
  return new URL(process.env.NEXT_PUBLIC_WEBAPP_URL ?? 'http://localhost:3000').pathname.replace(/\\/$/, '');
};

export const formatPath = (path: string): string => \`\${getBasePath()}\${path}\`;
`,
      'src/trpc.ts': `
import { initTRPC } from '@trpc/server';

const t = initTRPC.create();

export const appRouter = t.router({
  health: t.procedure.query(() => ({ ok: true })),
});
`,
      'src/server.ts': `
import { Hono } from 'hono';
import { trpcServer } from '@hono/trpc-server';
import { formatPath } from './app-path.js';
import { appRouter } from './trpc.js';

const app = new Hono();
app.use('/api/trpc/*', trpcServer({ router: appRouter, endpoint: formatPath('/api/trpc') }));

export default app;
`,
    });
    const without = await check(dir);
    expect(without.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['ALL /api/trpc/*']);
    expect(unresolvedRows(without)).toEqual(['src/server.ts:8:1 warning unresolved-route the endpoint is not known statically (formatPath() returns nothing known statically): the procedures of this tRPC endpoint are not listed, the endpoint is one route']);
    fs.writeFileSync(path.join(dir, 'route-surface.config.json'), JSON.stringify({ values: { 'getBasePath()': '' } }));
    const res = await check(dir);
    expect(res.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/trpc/health']);
    expect(unresolvedRows(res)).toEqual([]);
  });
});
