import type { ts as TS } from 'ts-morph';
import type { ExtractApi } from '../extract/extract.js';
import type { Evaluator, RouterObject, Value } from '../link/evaluate.js';
import type { LinkContext } from '../link/link.js';
import type { CallFact, Expr, FileFacts, RegistrationFact } from '../types.js';

/** What a router/app object knows about itself. */
export interface RouterInit {
  kind: 'app' | 'router';
  /** Express/Koa/Hono `strict`: `/x` and `/x/` are different routes */
  strict: boolean;
  caseSensitive: boolean;
  prefix?: string;
  /** a prefix that is one of a few (`legacy ? '/v1' : '/v2'`): each (Koa; `prefix` is then unset) */
  prefixOneOf?: string[];
  /** why the prefix it was given is not known statically (the routes are listed without it) */
  prefixUnknown?: string;
  /** the router this one was derived from by a method call (Hono `basePath`: same route table, longer base path) */
  derivedFrom?: string;
}

/** Do two routers take requests alike: the same options (a prefix, strict and case-sensitive matching)? */
export function sameInit(a: RouterInit, b: RouterInit): boolean {
  return a.kind === b.kind && a.strict === b.strict && a.caseSensitive === b.caseSensitive && a.prefix === b.prefix && a.prefixUnknown === b.prefixUnknown && a.derivedFrom === b.derivedFrom;
}

/**
 * One framework. Like a knip plugin: a small declarative object. `modules` enable it
 * (a file importing one of them, a package.json depending on one of them); `create`
 * recognises the calls that make its apps and routers; `link` turns the registrations
 * made on those into routes.
 */
export interface Adapter {
  name: string;
  title: string;
  /** package names whose import enables the adapter */
  modules: string[];
  /** an app/router made by calling (or `new`-ing) a value of one of `modules` */
  create?(pkg: string, path: string[], args: Value[], isNew: boolean, ev: Evaluator): RouterInit | null;
  /**
   * A method called on one of its routers, as a value: 'self' when the call returns the same
   * router (chained registrations, Koa `router.routes()`), a RouterInit when it returns a new
   * router derived from it (Hono `basePath`), null when it returns something else.
   */
  routerMethod?(router: RouterObject, method: string, args: Value[], ev: Evaluator): 'self' | RouterInit | null;
  /** extra per-file extraction (decorators, file-system routes) */
  visitClass?(api: ExtractApi, node: TS.ClassLikeDeclaration, scope: number, name: string | null): void;
  /** extra per-file extraction once the file has been walked (the places of exported handlers) */
  visitFile?(api: ExtractApi): void;
  /**
   * Bind, before any adapter links, the registrations made on the parameter of a callback the
   * package hands a router (inversify-express-utils' `setConfig((app) => …)`, handed the Express
   * app it builds), with LinkContext.bindRegistration: the router's own adapter then reads them.
   */
  bind?(ctx: LinkContext): void;
  /** turn the registrations on this adapter's routers into routes */
  link(ctx: LinkContext): void;
  /**
   * Whether `link` reads every binding and call of this file, not only those a name leads to
   * (the Nest adapter evaluates each `….create(…)` call of a file importing @nestjs/core): then
   * no binding of it is unreachable, and no call added or removed inert (relocate.ts).
   */
  readsEveryBinding?(facts: FileFacts): boolean;
  /**
   * Whether `link` reads this call of a file's calls (`FileFacts.calls`) whatever it calls (the
   * Nest adapter reads each `….setup(…)`, which may publish API docs): then adding or removing
   * it is never inert (link.ts, `inertChanges`).
   */
  readsCall?(call: CallFact): boolean;
  /**
   * A call of a package's function that registers routes on a router it is handed
   * (`SwaggerModule.setup(path, app, …)`), given what its callee is: a registration made on that
   * argument, bound and ordered as those written on it are; null for any other. Asked only of
   * the calls `readsCall` takes.
   */
  registrationOf?(call: CallFact, callee: Value): RegistrationFact | null;
  /**
   * What a dependency-injection container passes for the token `token` (written in `file`) to a
   * constructor that asks for it (`@Inject(AUDIT_SERVICE)`, a parameter typed with an abstract
   * class): the expression a module declares for it (Nest's `{ provide, useClass }`), or null.
   */
  provider?(ev: Evaluator, file: string, token: Expr): { file: string; expr: Expr } | null;
}
