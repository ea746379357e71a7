/**
 * GraphQL servers serving HTTP on their own: Apollo Server's `startStandaloneServer` (an Express
 * app answering every path) and a GraphQL Yoga server as the request listener of Node's HTTP
 * server (its graphqlEndpoint). Before, both were silent: no route, no warning.
 */
import { describe, expect, it } from 'vitest';
import { check, findingLines } from '../helpers/run.js';
import { writeProject } from '../helpers/project.js';

const lines = (res: Awaited<ReturnType<typeof check>>): string[] =>
  res.routes.map((r) => `${r.method} ${r.path} ${r.framework} ${r.handler} ${r.app} ${r.file}:${r.line} [${r.guards.map((g) => `${g.name}:${g.kinds.join('+')}`).join(', ')}]`);

describe('GraphQL servers serving HTTP on their own', () => {
  it("Apollo's startStandaloneServer answers every path (ALL /), behind Apollo's CSRF prevention unless it is turned off", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'catalog-graph', dependencies: { '@apollo/server': '^4.11.0', graphql: '^16.9.0', jsonwebtoken: '^9.0.2' } }),
      'src/context.ts': `import jwt from 'jsonwebtoken';
import type { IncomingMessage } from 'node:http';

export interface Context {
  userId: string | null;
}

export async function createContext({ req }: { req: IncomingMessage }): Promise<Context> {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : null;
  if (!token) return { userId: null };
  const claims = jwt.verify(token, process.env.JWT_SECRET!) as { sub: string };
  return { userId: claims.sub };
}
`,
      'src/schema.ts': `export const typeDefs = \`#graphql
  type Site { id: ID!, name: String! }
  type Query { sites: [Site!]! }
\`;
export const resolvers = { Query: { sites: () => [] } };
`,
      'src/server.ts': `import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createContext, type Context } from './context';
import { typeDefs, resolvers } from './schema';

const server = new ApolloServer<Context>({ typeDefs, resolvers });

const { url } = await startStandaloneServer(server, {
  context: createContext,
  listen: { port: Number(process.env.PORT ?? 4000) },
});
console.log(\`catalog graph ready at \${url}\`);
`,
      'src/playground.ts': `import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { typeDefs, resolvers } from './schema';

const playground = new ApolloServer({ typeDefs, resolvers, csrfPrevention: false, introspection: true });
startStandaloneServer(playground, { listen: { port: 4001 } }).then(({ url }) => console.log(url));
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'ALL / express @apollo/server/standalone playground src/playground.ts:6 []',
      'ALL / express @apollo/server/standalone server src/server.ts:8 [ApolloServer csrfPrevention:csrf]',
    ]);
  });

  it("apollo-server's own listen() (2.x, 3.x) answers GraphQL at every path and its health check, which healthCheckPath moves or (null) turns off; CSRF prevention only when csrfPrevention is on", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'billing-graph', dependencies: { 'apollo-server': '^3.13.0', graphql: '^16.9.0', express: '^4.21.2' } }),
      'src/schema.ts': `import { gql } from 'apollo-server';

export const typeDefs = gql\`
  type Invoice { id: ID!, total: Int! }
  type Query { invoices(tenantId: ID!): [Invoice!]! }
\`;
export const resolvers = { Query: { invoices: () => [] } };
`,
      'src/index.ts': `import { ApolloServer } from 'apollo-server';
import { typeDefs, resolvers } from './schema';
import { sessionFrom } from './session';

const server = new ApolloServer({
  typeDefs,
  resolvers,
  csrfPrevention: true,
  healthCheckPath: '/healthz',
  context: ({ req }) => ({ session: sessionFrom(req.headers.cookie ?? '') }),
});

server.listen({ port: Number(process.env.PORT ?? 4000) }).then(({ url }) => {
  console.log(\`billing graph ready at \${url}\`);
});
`,
      'src/session.ts': `export function sessionFrom(cookie: string): { id: string } | null {
  const match = /(?:^|; )sid=([^;]+)/.exec(cookie);
  return match ? { id: decodeURIComponent(match[1]!) } : null;
}
`,
      'src/legacy.js': `const { ApolloServer, gql } = require('apollo-server');

const legacy = new ApolloServer({
  typeDefs: gql\`type Query { version: String }\`,
  resolvers: { Query: { version: () => '2.25.4' } },
});
legacy.listen().then(({ url }) => console.log(url));
`,
      'src/quiet.ts': `import { ApolloServer } from 'apollo-server';
import { typeDefs, resolvers } from './schema';

const quiet = new ApolloServer({ typeDefs, resolvers, healthCheckPath: null });
const { url } = await quiet.listen(4002);
console.log(\`quiet graph at \${url}\`);
`,
      'src/metrics.ts': `import express from 'express';

const app = express();
app.get('/metrics', (_req, res) => res.type('text/plain').send('up 1'));
app.listen(9100);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'ALL / express apollo-server server src/index.ts:13 [ApolloServer csrfPrevention:csrf]',
      'ALL / express apollo-server legacy src/legacy.js:7 []',
      'ALL / express apollo-server quiet src/quiet.ts:5 []',
      'ALL /.well-known/apollo/server-health express apollo-server legacy src/legacy.js:7 []',
      'ALL /healthz express apollo-server server src/index.ts:13 []',
      'GET /metrics express null app src/metrics.ts:4 []',
    ]);
    expect(findingLines(res).filter((l) => l.includes('unresolved-route'))).toEqual([]);
  });

  it("a GraphQL Yoga server as Node's request listener answers at its graphqlEndpoint (createServer(yoga), https.createServer(options, yoga), new http.Server(yoga)); one not known statically is a warning; an app's HTTP server adds nothing", async () => {
    const dir = writeProject({
      'package.json': JSON.stringify({ name: 'yoga-graph', dependencies: { 'graphql-yoga': '^5.10.0', '@graphql-yoga/plugin-csrf-prevention': '^3.10.0', express: '^4.21.2' } }),
      'src/schema.ts': `import { createSchema } from 'graphql-yoga';

export const schema = createSchema({
  typeDefs: 'type Query { deployments: [String!]! }',
  resolvers: { Query: { deployments: () => [] } },
});
`,
      'src/yoga.ts': `import { createYoga } from 'graphql-yoga';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { schema } from './schema';

export const yoga = createYoga({
  schema,
  graphqlEndpoint: '/api/graphql',
  plugins: [useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] })],
});
`,
      'src/server.ts': `import { createServer } from 'node:http';
import { yoga } from './yoga';

const server = createServer(yoga);
server.listen(4000, () => console.info(\`GraphQL at http://localhost:4000\${yoga.graphqlEndpoint}\`));
`,
      'src/secure.ts': `import https from 'node:https';
import fs from 'node:fs';
import { createYoga } from 'graphql-yoga';
import { schema } from './schema';

const open = createYoga({ schema });
https.createServer({ key: fs.readFileSync('key.pem'), cert: fs.readFileSync('cert.pem') }, open).listen(4443);
`,
      'src/legacy.js': `const http = require('http');
const { createYoga } = require('graphql-yoga');
const { schema } = require('./schema');

const legacy = createYoga({ schema, graphqlEndpoint: process.env.GRAPHQL_PATH });
new http.Server(legacy).listen(4100);
`,
      'src/health.ts': `import http from 'node:http';
import express from 'express';

const app = express();
app.get('/healthz', (_req, res) => res.send('ok'));
http.createServer(app).listen(8080);
`,
    });
    const res = await check(dir);
    expect(lines(res)).toEqual([
      'ALL /api/graphql graphql-yoga graphql-yoga yoga src/server.ts:4 [useCSRFPrevention:csrf]',
      'ALL /graphql graphql-yoga graphql-yoga open src/secure.ts:7 []',
      'GET /healthz express null app src/health.ts:5 []',
    ]);
    expect(findingLines(res).filter((l) => l.includes('unresolved-route'))).toEqual([
      'src/legacy.js:6 unresolved-route the graphqlEndpoint of the GraphQL Yoga server this HTTP server answers with is not known statically; its route is left out',
    ]);
  });
});
