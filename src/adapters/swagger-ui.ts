/**
 * swagger-ui-express (read at 5.0.1, index.js): `setup(document, …)` returns a function that
 * sends the Swagger UI page whatever the request, so used at a path (`app.use('/api-docs',
 * swaggerUi.serve, swaggerUi.setup(doc))`) it answers every request there — in an Express app
 * or router, or in the Express instance under a NestJS app.
 */
import type { Value } from '../link/evaluate.js';

export const SWAGGER_UI_EXPRESS = 'swagger-ui-express';

/** Is `v` swagger-ui-express's `setup(…)`? */
export function isSwaggerUiSetup(v: Value): boolean {
  if (v.t !== 'pkg' || v.pkg !== SWAGGER_UI_EXPRESS || !v.called) return false;
  const name = v.path[0] === 'default' ? v.path.slice(1) : v.path;
  return name.length === 1 && name[0] === 'setup';
}
