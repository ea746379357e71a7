/**
 * Authentication recognised by what a layer does when the request's credential does not verify,
 * whatever the status it ends with (supabase/storage's JWT plugin throws `ERRORS.AccessDenied`,
 * a 403, from its `catch`):
 * - a leading `try` verifying a token the request carries (`verifyJWT(request.jwt, …)`,
 *   `jwt.verify(token, …)`, `verify` of jsonwebtoken), whose `catch` ends the request (throws,
 *   responds, or hands the error to `next` / `done`);
 * - `if (!request.isAuthenticated) { done(err); return }`: a flag an earlier hook set, and an
 *   error handed to `done` / `next`, which ends the request in Express and Fastify.
 * A `catch` that lets the request go on (optional authentication), a verification of something
 * else (`validate(request.body)`), a token only decoded, or `next('route')` proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/run.js';
import { EXPRESS_PACKAGE, writeProject } from '../helpers/project.js';

const FASTIFY_PACKAGE = JSON.stringify({ name: 'storage-api', dependencies: { fastify: '^4.28.0', 'fastify-plugin': '^4.5.1', jose: '^5.9.0' } });

const ERRORS = `export class StorageError extends Error {
  constructor(
    message: string,
    public readonly httpStatusCode: number,
    public readonly code: string,
  ) {
    super(message);
  }

  withStatusCode(status: number) {
    return new StorageError(this.message, status, this.code);
  }
}

export const ERRORS = {
  AccessDenied: (action: string, e?: Error) => new StorageError(\`Access denied: \${action}\`, 403, e ? 'AccessDenied' : 'Forbidden'),
  InvalidRequest: (message: string) => new StorageError(message, 400, 'InvalidRequest'),
};
`;

const AUTH = `import * as jose from 'jose';

export async function verifyJWT(token: string, secret: string): Promise<jose.JWTPayload & { role?: string }> {
  const { payload } = await jose.jwtVerify(token, new TextEncoder().encode(secret));
  return payload;
}

export async function verifyJWTWithCache(token: string, secret: string) {
  return verifyJWT(token, secret);
}

export function validate(body: unknown): void {
  if (typeof body !== 'object' || body === null) throw new Error('body must be an object');
}
`;

const JWT_PLUGIN = `import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { verifyJWT, verifyJWTWithCache } from '../auth';
import { ERRORS } from '../errors';

const BEARER = /^Bearer\\s+/i;
const jwtCachingEnabled = process.env.JWT_CACHING === 'true';

export const jwtPlugin = fastifyPlugin(
  async (fastify: FastifyInstance) => {
    fastify.addHook('preHandler', async (request) => {
      request.jwt = (request.headers.authorization || '').replace(BEARER, '');
      const secret = process.env.JWT_SECRET ?? '';
      try {
        const payload = await (jwtCachingEnabled ? verifyJWTWithCache(request.jwt, secret) : verifyJWT(request.jwt, secret));
        request.jwtPayload = payload;
        request.owner = payload.sub;
        request.isAuthenticated = true;
      } catch (e) {
        request.isAuthenticated = false;
        const err = e as Error;
        throw ERRORS.AccessDenied(err.message, err);
      }
    });
  },
  { name: 'auth-jwt' },
);

/** Lets requests without a valid token through as anonymous. */
export const optionalJwt = fastifyPlugin(async (fastify: FastifyInstance) => {
  fastify.addHook('preHandler', async (request) => {
    try {
      request.jwtPayload = await verifyJWT(request.headers.authorization ?? '', process.env.JWT_SECRET ?? '');
    } catch {
      request.jwtPayload = { role: 'anon' };
    }
  });
});

export const enforceServiceRole = fastifyPlugin(async (fastify: FastifyInstance) => {
  fastify.addHook('preHandler', (request, _reply, done) => {
    if (!request.isAuthenticated) {
      done(ERRORS.AccessDenied('JWT is not authenticated').withStatusCode(403));
      return;
    }
    done();
  });
});

export const checkBody = fastifyPlugin(async (fastify: FastifyInstance) => {
  fastify.addHook('preHandler', async (request) => {
    try {
      validate(request.body);
    } catch (e) {
      throw ERRORS.InvalidRequest((e as Error).message);
    }
  });
});
`;

const SERVER = `import Fastify from 'fastify';
import { checkBody, enforceServiceRole, jwtPlugin, optionalJwt } from './plugins/jwt';
import { listBuckets, getObject, renderPublic, emptyBucket } from './storage/handlers';

const app = Fastify({ logger: true });

app.register(async function authenticated(fastify) {
  fastify.register(jwtPlugin);
  fastify.get('/bucket', listBuckets);
  fastify.get('/object/:bucket/*', getObject);
});

app.register(async function serviceRoleOnly(fastify) {
  fastify.register(enforceServiceRole);
  fastify.post('/bucket/:id/empty', emptyBucket);
});

app.register(async function publicRoutes(fastify) {
  fastify.register(optionalJwt);
  fastify.register(checkBody);
  fastify.get('/render/public/:bucket/*', renderPublic);
});

app.listen({ port: 5000 });
`;

const HANDLERS = `import type { FastifyReply, FastifyRequest } from 'fastify';

export async function listBuckets(request: FastifyRequest, reply: FastifyReply) {
  return reply.send({ owner: request.owner, buckets: [] });
}

export async function getObject(request: FastifyRequest, reply: FastifyReply) {
  return reply.send({ owner: request.owner, object: null });
}

export async function renderPublic(request: FastifyRequest, reply: FastifyReply) {
  return reply.send({ rendered: true });
}

export async function emptyBucket(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(204).send();
}
`;

/** Routes as "METHOD /path auth:[…]". */
function authLines(res: Awaited<ReturnType<typeof check>>): string[] {
  return res.routes.map((r) => `${r.method} ${r.path} auth:[${r.guards.filter((g) => g.kinds.includes('auth')).map((g) => `${g.name}@${g.line}`).join(', ')}]`);
}

describe('authentication by what a layer does when the credential does not verify', () => {
  it('Fastify: a hook verifying the token in a try and throwing from its catch, and a done(err) on a flag, authenticate', async () => {
    const dir = writeProject({
      'package.json': FASTIFY_PACKAGE,
      'src/errors.ts': ERRORS,
      'src/auth.ts': AUTH,
      'src/plugins/jwt.ts': JWT_PLUGIN,
      'src/storage/handlers.ts': HANDLERS,
      'src/server.ts': SERVER,
    });
    const res = await check(dir);
    expect(authLines(res)).toEqual([
      'GET /bucket auth:[(inline middleware)@11]',
      'POST /bucket/:id/empty auth:[(inline middleware)@41]',
      'GET /object/:bucket/* auth:[(inline middleware)@11]',
      // optional authentication and a body check: no authentication
      'GET /render/public/:bucket/* auth:[]',
    ]);
    const jwt = res.routes.find((r) => r.path === '/bucket')!.guards[0]!;
    // (the token from the Authorization header only: bearer)
    expect(jwt.kinds).toEqual(['auth', 'bearer']);
    expect(jwt.reason).toBe('by behaviour (ends the request when verifyJWTWithCache() throws on what the request carries; reads its credential from a request header only)');
    const flag = res.routes.find((r) => r.path === '/bucket/:id/empty')!.guards[0]!;
    expect(flag.reason).toBe('by behaviour (ends the request first when the request has no signed-in user)');
  });

  it('Express: jwt.verify in a try whose catch hands the error to next, in a middleware and in a handler', async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0', jsonwebtoken: '^9.0.2' } }),
      'src/errors.ts': `export class UnauthorizedError extends Error {
  status = 401;
}
`,
      'src/middleware/token.ts': `import type { NextFunction, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { verify } from 'jsonwebtoken';
import { UnauthorizedError } from '../errors';

const SECRET = process.env.TOKEN_SECRET ?? 'dev';

export function requireToken(req: Request, res: Response, next: NextFunction) {
  const token = req.headers.authorization?.split(' ')[1] ?? '';
  try {
    res.locals.claims = jwt.verify(token, SECRET);
  } catch (err) {
    next(new UnauthorizedError((err as Error).message));
    return;
  }
  next();
}

export function loadClaims(req: Request, res: Response, next: NextFunction) {
  try {
    res.locals.claims = verify(String(req.query.t), SECRET);
  } catch (err) {
    return next(err);
  }
  next();
}

/** Decodes without verifying: proves nothing. */
export function peekClaims(req: Request, res: Response, next: NextFunction) {
  try {
    res.locals.claims = jwt.decode(req.headers.authorization ?? '');
  } catch (err) {
    return next(err);
  }
  next();
}

/** Anonymous requests skip the rest of the route's handlers: not an error. */
export function membersOnly(req: Request, res: Response, next: NextFunction) {
  if (!req.isAuthenticated) {
    next('route');
    return;
  }
  next();
}
`,
      'src/app.ts': `import express from 'express';
import jwt from 'jsonwebtoken';
import { loadClaims, membersOnly, peekClaims, requireToken } from './middleware/token';

const app = express();

app.get('/api/reports', requireToken, (req, res) => res.json({ items: [] }));
app.get('/api/exports', loadClaims, (req, res) => res.json({ items: [] }));
app.get('/api/preview', peekClaims, (req, res) => res.json({ items: [] }));
app.get('/api/members', membersOnly, (req, res) => res.json({ items: [] }));
app.get('/api/invoices', (req, res) => {
  let claims;
  try {
    claims = jwt.verify(req.cookies.session, process.env.TOKEN_SECRET ?? 'dev');
  } catch {
    return res.status(403).json({ error: 'forbidden' });
  }
  res.json({ owner: claims, items: [] });
});

app.listen(3000);
`,
    });
    const res = await check(dir);
    expect(authLines(res)).toEqual([
      'GET /api/exports auth:[loadClaims@8]',
      'GET /api/invoices auth:[jwt.verify@14]',
      'GET /api/members auth:[]',
      'GET /api/preview auth:[]',
      'GET /api/reports auth:[requireToken@7]',
    ]);
    expect(res.routes.find((r) => r.path === '/api/exports')!.guards[0]!.reason).toBe('by behaviour (ends the request when verify() throws on what the request carries)');
  });
});
