import type { BaselineOutcome } from '../baseline.js';
import type { RunResult } from '../engine.js';
import { VERSION } from '../package-root.js';
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
    guardDetails: r.guards.map((g) => ({ name: g.name, kinds: g.kinds, families: g.families, mechanism: g.mechanism, file: g.file, line: g.line, reason: g.reason })),
  };
}

/**
 * Items of the long lists per piece of `jsonChunks`: few enough that a piece stays well below
 * the size V8 gives a space of its own (large objects are freed only by a full collection).
 */
const ITEMS_PER_CHUNK = 40;

/**
 * The JSON report (SPEC section 3) in pieces, for writing as it is made: the routes and
 * findings are turned into text a few hundred at a time, so a report of tens of thousands of
 * routes never exists whole in memory. Joined, the pieces are exactly `formatJson`.
 */
export function* jsonChunks(res: RunResult, baseline: BaselineOutcome | null = null): Generator<string> {
  const lists = {
    routes: res.routes.map((r) => () => routeJson(r)),
    findings: res.findings.map((f) => () => findingJson(f)),
  };
  // The document with a marker where each list goes: JSON.stringify's indentation of a nested
  // value is its own indentation shifted by its depth, so each item is stringified on its own.
  const marker = (name: string): string => `\u0000${name}\u0000`;
  const skeleton = JSON.stringify(
    {
      tool: { name: 'route-surface', version: VERSION },
      contract: { name: res.contract.name, version: res.contract.version },
      routes: marker('routes'),
      findings: marker('findings'),
      ...(baseline ? { baseline } : {}),
      summary: res.summary,
    },
    null,
    2,
  );
  let rest = skeleton;
  for (const name of ['routes', 'findings'] as const) {
    // with its key: a string of the document before it (the contract's name) holds no bare quote
    const quoted = `"${name}": ${JSON.stringify(marker(name))}`;
    const at = rest.indexOf(quoted);
    yield rest.slice(0, at) + `"${name}": `;
    rest = rest.slice(at + quoted.length);
    const items = lists[name];
    if (items.length === 0) {
      yield '[]';
      continue;
    }
    // A piece is the list's slice stringified at the list's own depth (under its key in an
    // object), its brackets cut off.
    const open = `{\n  "${name}": [\n`;
    const close = '\n  ]\n}';
    for (let i = 0; i < items.length; i += ITEMS_PER_CHUNK) {
      const piece = JSON.stringify({ [name]: items.slice(i, i + ITEMS_PER_CHUNK).map((item) => item()) }, null, 2);
      yield (i === 0 ? '[\n' : ',\n') + piece.slice(open.length, piece.length - close.length);
    }
    yield '\n  ]';
  }
  yield rest + '\n';
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
