import type { BaselineOutcome } from '../baseline.js';
import type { RunResult } from '../engine.js';
import { VERSION } from '../package-root.js';
import { jsonPieces } from '../json-pieces.js';
import type { Route } from '../types.js';

export function routeJson(r: Route) {
  const names = (kind: string): string[] => [...new Set(r.guards.filter((g) => g.kinds.includes(kind as never)).map((g) => g.name))];
  return {
    method: r.method,
    path: r.path,
    file: r.file,
    line: r.line,
    column: r.column,
    framework: r.framework,
    handler: r.handler,
    guards: { auth: names('auth'), tenant: names('tenant'), csrf: names('csrf'), family: names('family'), unknown: names('unknown'), bearer: names('bearer') },
    classification: r.classification,
    family: r.family,
    contractRoute: r.contractRoute,
    contractMatch: r.contractMatch,
    app: r.app,
    prefixes: r.prefixes,
    // (a guard applied only under a condition not known statically is listed here with it, `when`,
    // and one whose allowlist lets some request to the route through with what it lets through,
    // `skips`; neither in any list of `guards`)
    guardDetails: [...r.guards, ...(r.conditionalGuards ?? []), ...(r.skippedGuards ?? [])].map((g) => ({
      name: g.name,
      kinds: g.kinds,
      families: g.families,
      mechanism: g.mechanism,
      file: g.file,
      line: g.line,
      reason: g.reason,
      ...(g.when !== undefined ? { when: g.when } : {}),
      ...(g.skips !== undefined ? { skips: g.skips } : {}),
    })),
  };
}

/**
 * The JSON report (SPEC section 3) in pieces, for writing as it is made (see json-pieces.ts):
 * routes and findings are turned into their report form a few dozen at a time. Joined, the
 * pieces are exactly `formatJson`.
 */
export function* jsonChunks(res: RunResult, baseline: BaselineOutcome | null = null): Generator<string> {
  const report = {
    tool: { name: 'route-surface', version: VERSION },
    contract: { name: res.contract.name, version: res.contract.version },
    routes: res.routes,
    findings: res.findings,
    ...(baseline ? { baseline } : {}),
    summary: res.summary,
  };
  yield* jsonPieces(report, 2, { routes: routeJson, findings: findingJson });
  yield '\n';
}

function findingJson(f: RunResult['findings'][number]) {
  return {
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    file: f.file,
    line: f.line,
    column: f.column,
    ...(f.route ? { route: f.route } : {}),
    fingerprint: f.fingerprint,
  };
}

export function formatJson(res: RunResult, baseline: BaselineOutcome | null = null): string {
  return [...jsonChunks(res, baseline)].join('');
}
