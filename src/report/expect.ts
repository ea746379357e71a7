/**
 * The guards a route is expected to carry, by its classification (SPEC sections 4 and 7),
 * and whether it carries them. Used by the tree badges, `explain` and the HTML coverage
 * matrix; the findings themselves come from the rules.
 */
import { contractRouteOf, type Contract } from '../contract.js';
import { csrfExpected, tenantExpected } from '../rule.js';
import type { AppliedGuard, Route } from '../types.js';

export type ExpectedKind = 'auth' | 'tenant' | 'csrf' | 'family' | 'no-auth';

export interface Expectation {
  kind: ExpectedKind;
  /** the rule that reports the expectation when it is not met */
  ruleId: string;
  met: boolean;
  /** the guards that meet it (or, for `no-auth`, that break it) */
  guards: AppliedGuard[];
  /** why it is expected */
  because: string;
}

const has = (g: AppliedGuard, kind: string): boolean => g.kinds.includes(kind as never);

/** True when every auth guard of the route is a bearer-token / API-key guard: its badge says `bearer`, not `auth` (csrfExpected decides CSRF). */
export function bearerOnly(r: Route): boolean {
  const auth = r.guards.filter((g) => has(g, 'auth'));
  return auth.length > 0 && auth.every((g) => has(g, 'bearer'));
}

export function expectations(r: Route, contract: Contract): Expectation[] {
  const out: Expectation[] = [];
  const c = contractRouteOf(contract, r.contractRoute);
  if (r.classification === 'excluded') {
    const fam = r.family!;
    const guards = r.guards.filter((g) => has(g, 'family') && g.families.includes(fam));
    out.push({ kind: 'family', ruleId: 'excluded-family-leak', met: guards.length > 0, guards, because: `the route is in the excluded family "${fam}"` });
    return out;
  }
  if (r.classification === 'public') {
    if (c?.auth === 'public') {
      const guards = r.guards.filter((g) => has(g, 'auth') || has(g, 'tenant'));
      out.push({ kind: 'no-auth', ruleId: 'contract-auth-mismatch', met: guards.length === 0, guards, because: `the contract makes ${c.method} ${c.path} public` });
    }
    return out;
  }
  const surface = r.classification === 'contract' ? `the contract route ${r.contractRoute} needs a ${c?.auth ?? 'session'}` : 'the route is on the browser surface and not public';
  const auth = r.guards.filter((g) => has(g, 'auth'));
  out.push({ kind: 'auth', ruleId: 'missing-auth-guard', met: auth.length > 0, guards: auth, because: surface });
  const tenant = r.guards.filter((g) => has(g, 'tenant'));
  if (tenantExpected(r, contract))
    out.push({
      kind: 'tenant',
      ruleId: 'missing-tenant-guard',
      met: tenant.length > 0,
      guards: tenant,
      because: c ? `the contract route ${r.contractRoute} is tenant-scoped` : 'every non-public route is evaluated inside the active tenant boundary',
    });
  if (csrfExpected(r)) {
    const csrf = r.guards.filter((g) => has(g, 'csrf'));
    out.push({ kind: 'csrf', ruleId: 'missing-csrf-guard', met: csrf.length > 0, guards: csrf, because: `${r.method} changes state and the browser session cookie authenticates it` });
  }
  return out;
}

/** Guard kinds a route carries, in badge order: auth (or bearer), tenant, csrf, family. */
export function presentBadges(r: Route): string[] {
  const b: string[] = [];
  if (r.guards.some((g) => has(g, 'auth'))) b.push(bearerOnly(r) ? 'bearer' : 'auth');
  if (r.guards.some((g) => has(g, 'tenant'))) b.push('tenant');
  if (r.guards.some((g) => has(g, 'csrf'))) b.push('csrf');
  if (r.guards.some((g) => has(g, 'family'))) b.push('family');
  return b;
}

/** Expected guard kinds the route lacks (`no-auth` is reported as `guarded`). */
export function missingBadges(r: Route, contract: Contract): string[] {
  return expectations(r, contract)
    .filter((e) => !e.met)
    .map((e) => (e.kind === 'no-auth' ? 'guarded' : e.kind));
}
