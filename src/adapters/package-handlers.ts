/**
 * Request handlers made by packages that answer every request reaching them, whatever its path
 * below where they are used: used at a path (`app.use('/graphql', expressMiddleware(server))`),
 * each is a route there, for any method, behind the layers before it — in an Express app or
 * router, or in the Express instance under a NestJS app. Each entry was read in the package's
 * source:
 * - swagger-ui-express (5.0.1, index.js): `setup(document, …)` sends the Swagger UI page;
 * - @apollo/server/express4 (4.11, dist/esm/express4/index.js), @as-integrations/express4 and
 *   @as-integrations/express5 (1.1): `expressMiddleware(server, …)` runs every request through
 *   `server.executeHTTPGraphQLRequest` (a 500 when no body parser ran before it; a GET or POST
 *   query is answered, another method with 405);
 * - express-graphql (0.12.0, index.js): `graphqlHTTP(options)` answers GET and POST (405 else);
 * - graphql-http (1.22, lib/use/express.js): `createHandler(options)` answers each request;
 * - @trpc/server/adapters/express (10.45 and 11, adapters/express.ts):
 *   `createExpressMiddleware({ router, … })` answers each request, the procedure named by the
 *   path below the mount path.
 */
import type { Value } from '../link/evaluate.js';

interface PackageHandler {
  /** the module specifiers it is imported from */
  modules: string[];
  /** the export that makes the handler when called */
  factory: string;
}

const HANDLERS: PackageHandler[] = [
  { modules: ['swagger-ui-express'], factory: 'setup' },
  { modules: ['@apollo/server/express4', '@as-integrations/express4', '@as-integrations/express5'], factory: 'expressMiddleware' },
  { modules: ['express-graphql'], factory: 'graphqlHTTP' },
  { modules: ['graphql-http/lib/use/express'], factory: 'createHandler' },
  { modules: ['@trpc/server/adapters/express'], factory: 'createExpressMiddleware' },
];

/** The package whose handler `v` is (made by calling its factory), or null. */
export function answeringPackage(v: Value): string | null {
  if (v.t !== 'pkg' || !v.called) return null;
  const name = v.path[0] === 'default' ? v.path.slice(1) : v.path;
  if (name.length !== 1) return null;
  return HANDLERS.some((h) => h.factory === name[0] && h.modules.includes(v.pkg)) ? v.pkg : null;
}
