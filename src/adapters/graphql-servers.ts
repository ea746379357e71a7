/**
 * GraphQL servers that serve HTTP on their own, with no app of the analysed code around them:
 * a report listing nothing for them would say there was nothing to check. Each is read from its
 * package's documentation and source:
 * - Apollo Server's `startStandaloneServer(server, options)` (@apollo/server 4.x and 5.x,
 *   src/standalone/index.ts) makes an Express app and uses on it, with no path, `cors()`,
 *   `express.json({ limit: '50mb' })` and `expressMiddleware(server, { context })`: the server
 *   answers every request at every path (a query by GET or POST, 405 for another method) — an
 *   ALL route at `/` as Express's `app.use(fn)` is, behind Apollo's own CSRF prevention
 *   (`apolloCsrf`) and nothing else;
 * - a GraphQL Yoga server (`createYoga(options)`, graphql-yoga 5.x) as the request listener of
 *   Node's HTTP server, as its documentation starts one: `createServer(yoga)` of `node:http`
 *   (`https.createServer(options, yoga)`, `new http.Server(yoga)` too). It answers GraphQL at its
 *   `graphqlEndpoint` ('/graphql' unless given) and 404 at any other path
 *   (plugins/use-unhandled-route.ts): an ALL route there, behind its CSRF prevention when its
 *   plugins hold it (`yogaCsrf`).
 * - apollo-server's `server.listen(…)` (2.x and 3.x, the package before @apollo/server; read at
 *   2.25.4 and 3.13.0, packages/apollo-server/src/index.ts): it makes an Express app and applies
 *   apollo-server-express's middleware to it at path `/` — a router `use`d at the app's root
 *   answering, with `use`, the health check at `/.well-known/apollo/server-health` (3.x:
 *   `healthCheckPath` of the server's options, none when it is null) and GraphQL at `/`, every
 *   path: ALL routes there, the GraphQL one behind Apollo's CSRF prevention when the options turn
 *   it on (`apolloCsrf`, off unless `csrfPrevention` in 3.x; 2.x has none).
 * The routes are located at the call that starts the server.
 */
import type { Adapter } from './adapter.js';
import type { LinkContext } from '../link/link.js';
import { exprName, isNull, nullish, type Value } from '../link/evaluate.js';
import type { CallFact } from '../types.js';
import { apolloCsrf, yogaCsrf, yogaServerPath } from './package-handlers.js';
import { isHttpServerMaker } from './socket-io.js';

const STANDALONE = '@apollo/server/standalone';
const YOGA = 'graphql-yoga';
const APOLLO_SERVER = 'apollo-server';
const APOLLO_HEALTH = '/.well-known/apollo/server-health';

/** Calls that may start such a server (Adapter.readsCall): by the names the packages and Node give them. */
function mayStartServer(call: CallFact): boolean {
  const c = call.callee;
  const name = c.k === 'ref' ? c.name : c.k === 'member' ? c.prop : null;
  if (c.k === 'member' && name === 'listen') return true;
  return call.args.length > 0 && (name === 'startStandaloneServer' || name === 'createServer' || name === 'Server');
}

/** Is `v` `startStandaloneServer` of Apollo Server's standalone entry point? */
function isStandalone(v: Value): boolean {
  return v.t === 'pkg' && v.pkg === STANDALONE && v.path.join('.') === 'startStandaloneServer';
}

function link(ctx: LinkContext): void {
  const ev = ctx.ev;
  for (const [file, facts] of ctx.files) {
    for (const call of facts.calls) {
      if (!mayStartServer(call)) continue;
      const callee = ev.eval(file, call.callee);
      const place = { file, line: call.at.line, column: call.at.column, snippet: call.snippet, prefixes: [], handlerFn: null };
      if (callee.t === 'pkg' && callee.pkg === APOLLO_SERVER && callee.path.join('.') === 'ApolloServer.().listen') {
        const options = callee.made?.[0];
        const given = options?.t === 'obj' && 'healthCheckPath' in options.props ? ev.member(options, 'healthCheckPath', 0) : undefined;
        // (null turns the health check off; undefined is as not given)
        const off = isNull(given);
        const health = given === undefined || (nullish(given) && !off) ? APOLLO_HEALTH : given.t === 'str' ? given.v : null;
        if (health === null && !off) ctx.warn(file, call.at, `the healthCheckPath of the apollo-server this starts is not known statically; its health check route is left out`, call.snippet);
        const app = call.callee.k === 'member' ? (exprName(call.callee.obj) ?? 'server') : 'server';
        if (!ctx.expand(file, call.at, call.snippet)) return;
        const route = { ...place, method: 'ALL', framework: 'express', handler: APOLLO_SERVER, app, trailingSlashInsensitive: true, caseSensitive: false };
        if (health !== null) ctx.addRoute({ ...route, path: health, guards: [] }, null);
        ctx.addRoute({ ...route, path: '/', guards: apolloCsrf(ev, APOLLO_SERVER, options, file, call.at.line) }, null);
        continue;
      }
      if (isStandalone(callee)) {
        const server = ev.eval(file, call.args[0]!);
        const guards = server.t === 'pkg' && server.called && server.path.join('.') === 'ApolloServer' ? apolloCsrf(ev, server.pkg, server.args[0], file, call.at.line) : [];
        if (!ctx.expand(file, call.at, call.snippet)) return;
        ctx.addRoute({ ...place, method: 'ALL', path: '/', framework: 'express', handler: STANDALONE, app: exprName(call.args[0]!) ?? 'server', trailingSlashInsensitive: true, caseSensitive: false, guards }, null);
        continue;
      }
      if (!isHttpServerMaker(callee)) continue;
      for (const arg of call.args) {
        const listener = ev.eval(file, arg);
        const endpoint = yogaServerPath(ev, listener);
        if (endpoint === null || listener.t !== 'pkg') continue;
        if (endpoint.t !== 'str') {
          ctx.warn(file, call.at, `the graphqlEndpoint of the GraphQL Yoga server this HTTP server answers with is not known statically; its route is left out`, call.snippet);
          continue;
        }
        if (!ctx.expand(file, call.at, call.snippet)) return;
        const guards = yogaCsrf(ev, listener.args[0], file, call.at.line);
        ctx.addRoute({ ...place, method: 'ALL', path: endpoint.v, framework: YOGA, handler: YOGA, app: exprName(arg) ?? 'yoga', trailingSlashInsensitive: false, caseSensitive: true, guards }, null);
      }
    }
  }
}

export const graphqlServersAdapter: Adapter = {
  name: 'graphql-servers',
  title: 'GraphQL servers serving HTTP on their own',
  modules: [STANDALONE, YOGA, APOLLO_SERVER],
  readsCall: mayStartServer,
  link,
};
