/** Router method names → HTTP methods, as Express and @koa/router spell them (`del` is an old alias of `delete`). */
export const ROUTER_METHODS: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  del: 'DELETE',
  options: 'OPTIONS',
  head: 'HEAD',
  all: 'ALL',
};
