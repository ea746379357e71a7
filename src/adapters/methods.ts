/**
 * Router method names → HTTP methods, as Express and @koa/router spell them (`del` is an old
 * alias of `delete`). Both take every method of the `methods` package; of the rest, only
 * `search` is read (Directus serves its reads with a query in the body so, `router.search(…)`):
 * `copy`, `move`, `lock`, `merge`… are too often another object's method to record each call.
 */
export const ROUTER_METHODS: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  del: 'DELETE',
  options: 'OPTIONS',
  head: 'HEAD',
  search: 'SEARCH',
  all: 'ALL',
};
