/**
 * Link per-file facts into routes: evaluate every registration's target, group the
 * registrations by the router/app they are made on (in registration order), and let
 * each framework adapter walk its routers from their roots.
 */
import type { Adapter } from '../adapters/adapter.js';
import { classifyGuard, type GuardMatchers } from '../guards.js';
import type { AppliedGuard, Expr, FileFacts, GuardMechanism, Loc, RegistrationFact, Route } from '../types.js';
import { Evaluator, exprName, type RouterObject, type Value } from './evaluate.js';

export interface UnresolvedDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  snippet: string;
}

/** A registration bound to the router it is made on, with its place in registration order. */
export interface BoundRegistration {
  reg: RegistrationFact;
  file: string;
  router: RouterObject;
  order: (string | number)[];
}

export interface ParamRegistration {
  reg: RegistrationFact;
  file: string;
  fn: number;
  index: number;
}

/** Key of a function in `paramRegistrations` / `boundFunctions`. */
export function fnKey(file: string, fn: number): string {
  return `${file}:${fn}`;
}

export type RouteDraft = Omit<Route, 'classification' | 'family' | 'contractRoute' | 'contractMatch' | 'driftReason'>;

export class LinkContext {
  readonly routes: RouteDraft[] = [];
  readonly unresolved: UnresolvedDiagnostic[] = [];
  /** registrations per router id, sorted in registration order */
  readonly byRouter = new Map<string, BoundRegistration[]>();
  /** registrations made on a function's parameter (`function plugin(fastify) { fastify.get(…) }`), by function */
  readonly paramRegistrations = new Map<string, ParamRegistration[]>();
  /** functions whose parameter registrations were bound to a router (by a call site or an adapter) */
  readonly boundFunctions = new Set<string>();

  constructor(
    readonly ev: Evaluator,
    readonly files: Map<string, FileFacts>,
    readonly matchers: GuardMatchers,
  ) {}

  routersOf(framework: string): RouterObject[] {
    return [...this.ev.routers.values()].filter((r) => r.framework === framework).sort((a, b) => cmp([a.file, a.at.line, a.at.column], [b.file, b.at.line, b.at.column]));
  }

  registrationsOf(routerId: string): BoundRegistration[] {
    return this.byRouter.get(routerId) ?? [];
  }

  warn(file: string, at: Loc, message: string, snippet: string): void {
    this.unresolved.push({ file, line: at.line, column: at.column, message, snippet });
  }

  /** Classify a middleware / guard use into an applied guard; null for known non-guards. */
  guard(file: string, expr: Expr, value: Value, mechanism: GuardMechanism, at: Loc): AppliedGuard | null {
    const fnName = value.t === 'fn' ? this.ev.fnOf(value.file, value.fn)?.name ?? null : null;
    const name = exprName(expr) ?? fnName ?? (value.t === 'pkg' ? [value.pkg, ...value.path].join('.') : '(inline middleware)');
    const c = classifyGuard(name, value, this.ev, this.matchers);
    if (c.kinds.length === 1 && (c.kinds[0] === 'nonguard' || c.kinds[0] === 'session')) return null;
    return { name, kinds: c.kinds, families: c.families, reason: c.reason, mechanism, file, line: at.line };
  }

  /** Guards called or checked in the leading statements of a handler. */
  inHandlerGuards(handler: Value): AppliedGuard[] {
    if (handler.t !== 'fn') return [];
    const f = this.ev.fnOf(handler.file, handler.fn);
    if (!f) return [];
    const out: AppliedGuard[] = [];
    for (const lg of f.leading) {
      if (lg.inline) {
        out.push({
          name: lg.inline === 'auth' ? '(inline 401 check)' : '(inline tenant check)',
          kinds: [lg.inline],
          families: [],
          reason: lg.inline === 'auth' ? 'by behaviour (the handler ends the request with 401 first)' : 'by behaviour (the handler compares the tenant and ends with 403/404 first)',
          mechanism: 'in-handler',
          file: handler.file,
          line: lg.at.line,
        });
        continue;
      }
      if (!lg.callee) continue;
      const v = this.ev.eval(handler.file, lg.callee);
      const g = this.guard(handler.file, lg.callee, v, 'in-handler', lg.at);
      if (g && !g.kinds.includes('unknown')) out.push(g);
    }
    return out;
  }
}

export function cmp(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export function link(files: Map<string, FileFacts>, adapters: Adapter[], matchers: GuardMatchers): LinkContext {
  const ev = new Evaluator(files, adapters);
  const ctx = new LinkContext(ev, files, matchers);
  const sortedFiles = [...files.keys()].sort();

  // Routers made as values anywhere (so unmounted ones are known too).
  const bind = (b: BoundRegistration): void => {
    let list = ctx.byRouter.get(b.router.id);
    if (!list) ctx.byRouter.set(b.router.id, (list = []));
    list.push(b);
  };
  const paramRegs: ParamRegistration[] = [];
  for (const file of sortedFiles) {
    const facts = files.get(file)!;
    for (const reg of facts.registrations) {
      const t = ev.eval(file, reg.target);
      if (t.t === 'router') {
        const router = ev.routers.get(t.id)!;
        if (router.name === null && reg.target.k === 'ref') router.name = reg.target.name;
        bind({ reg, file, router, order: [file === router.file ? 0 : 1, file, reg.at.line, reg.at.column] });
      } else if (t.t === 'param' && t.file === file) {
        paramRegs.push({ reg, file, fn: t.fn, index: t.index });
      }
    }
  }
  // Routers passed to functions that register on their parameter: `mountSites(api)`.
  const byFn = ctx.paramRegistrations;
  for (const p of paramRegs) byFn.set(fnKey(p.file, p.fn), [...(byFn.get(fnKey(p.file, p.fn)) ?? []), p]);
  const boundFns = ctx.boundFunctions;
  if (paramRegs.length > 0) {
    for (const file of sortedFiles) {
      for (const call of files.get(file)!.calls) {
        const callee = ev.eval(file, call.callee);
        if (callee.t !== 'fn') continue;
        const regs = byFn.get(fnKey(callee.file, callee.fn));
        if (!regs) continue;
        for (const p of regs) {
          const arg = call.args[p.index];
          const v = arg ? ev.eval(file, arg) : null;
          if (v?.t !== 'router') continue;
          const router = ev.routers.get(v.id)!;
          boundFns.add(fnKey(p.file, p.fn));
          bind({ reg: p.reg, file: p.file, router, order: [file === router.file ? 0 : 1, file, call.at.line, call.at.column, p.reg.at.line, p.reg.at.column] });
        }
      }
    }
  }
  for (const list of ctx.byRouter.values()) list.sort((a, b) => cmp(a.order, b.order));
  for (const a of adapters) a.link(ctx);
  // Registrations on a parameter that neither a call site nor an adapter bound to a router.
  for (const p of paramRegs) {
    if (boundFns.has(fnKey(p.file, p.fn))) continue;
    const f = ev.fnOf(p.file, p.fn);
    if (!looksLikeRoute(p.reg, f?.params[p.index] ?? '', p.reg.args.slice(1).map((a) => ev.eval(p.file, a)))) continue;
    ctx.warn(p.file, p.reg.at, `routes registered on the parameter '${f?.params[p.index] ?? '?'}' of ${f?.name ?? 'a function'}() whose callers pass no router known statically; their prefix is unknown`, p.reg.snippet);
  }
  return ctx;
}

/**
 * A registration on an unbound parameter that looks like a route: a route method with a
 * path, and a handler function passed or a parameter named like a router/app. An injected
 * HTTP client (`http.post('/v1/charges', body, { timeout })`) is an outbound call, never a route.
 */
function looksLikeRoute(reg: RegistrationFact, paramName: string, rest: Value[]): boolean {
  if (!['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'route'].includes(reg.method) || reg.args.length < 2) return false;
  return rest.some((v) => v.t === 'fn') || /^(r|app|api|routes|server|fastify|instance)$|router$|app$/i.test(paramName);
}
