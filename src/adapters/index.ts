import type { Adapter } from './adapter.js';
import { elysiaAdapter } from './elysia/index.js';
import { expressAdapter } from './express/index.js';
import { fastifyAdapter } from './fastify/index.js';
import { graphqlServersAdapter } from './graphql-servers.js';
import { honoAdapter } from './hono/index.js';
import { inversifyExpressUtilsAdapter } from './inversify-express-utils/index.js';
import { koaAdapter } from './koa/index.js';
import { medusaAdapter } from './medusa/index.js';
import { nestAdapter } from './nest/index.js';
import { nextAdapter } from './next/index.js';
import { overnightAdapter } from './overnight/index.js';
import { routingControllersAdapter } from './routing-controllers/index.js';
import { unreadAdapter } from './unread.js';

export const ADAPTERS: Adapter[] = [expressAdapter, fastifyAdapter, honoAdapter, koaAdapter, nestAdapter, nextAdapter, routingControllersAdapter, inversifyExpressUtilsAdapter, overnightAdapter, medusaAdapter, elysiaAdapter, graphqlServersAdapter, unreadAdapter];
