/**
 * SARIF 2.1.0, in the subset GitHub code scanning reads: every rule in `tool.driver.rules`,
 * every result with a level, a message, one physical location (a path relative to the
 * project root, under %SRCROOT%, with a region) and `partialFingerprints` carrying the
 * finding's stable fingerprint, so alerts follow their code across edits.
 */
import { RULES } from '../../rules/index.js';
import type { RunResult } from '../engine.js';
import { VERSION } from '../package-root.js';
import type { RuleModule } from '../rule.js';
import type { Finding, Severity } from '../types.js';

/** The project's home, for `tool.driver.informationUri` (the same as the config schema's `$id`). */
export const HOMEPAGE = 'https://github.com/route-surface/route-surface';
export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** The key of our fingerprint in `partialFingerprints` (versioned, as SARIF recommends). */
export const FINGERPRINT_KEY = 'routeSurface/v1';

export interface SarifOptions {
  /**
   * Where findings about a built-in contract are shown: code scanning accepts only
   * repository paths, and a built-in contract is no file. null: the findings keep only a
   * logical location (code scanning rejects those, so callers pass an anchor).
   */
  contractAnchor: string | null;
  /** a baseline was applied: every result shown is new relative to it */
  baseline: boolean;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

function ruleDescriptor(rule: RuleModule) {
  const m = rule.meta;
  const help = [
    m.description,
    '',
    `Why: ${m.rationale}`,
    `Contract: ${m.contract}`,
    '',
    `Fires on: ${m.examples.fires}`,
    `Does not fire on: ${m.examples.passes}`,
    '',
    `Suppress one finding (the reason is required): // route-surface-disable-next-line ${m.id} -- why this is safe`,
  ].join('\n');
  const markdown = [
    m.description,
    '',
    `**Why.** ${m.rationale}`,
    '',
    `**Contract.** ${m.contract}`,
    '',
    'Fires on:',
    '```ts',
    m.examples.fires,
    '```',
    'Does not fire on:',
    '```ts',
    m.examples.passes,
    '```',
    `Configure it in \`route-surface.config.json\` with \`{ "rules": { "${m.id}": "error" | "warning" | "info" | "off" } }\`; suppress one finding with \`// route-surface-disable-next-line ${m.id} -- reason\` on the line above.`,
  ].join('\n');
  return {
    id: m.id,
    name: m.id.replace(/(^|-)([a-z])/g, (_s, _d: string, c: string) => c.toUpperCase()),
    shortDescription: { text: m.description },
    fullDescription: { text: `${m.description} ${m.rationale}` },
    help: { text: help, markdown },
    defaultConfiguration: { level: LEVEL[m.defaultSeverity] },
    properties: { tags: ['security', 'route-surface'] },
  };
}

function isProjectFile(res: RunResult, f: Finding): boolean {
  return !(f.file === res.contract.source && f.file.startsWith('builtin:'));
}

function location(res: RunResult, f: Finding, opts: SarifOptions) {
  if (isProjectFile(res, f)) {
    return {
      physicalLocation: {
        artifactLocation: { uri: encodeUri(f.file), uriBaseId: '%SRCROOT%' },
        region: { startLine: f.line, startColumn: f.column },
      },
    };
  }
  const logical = { logicalLocations: [{ name: f.file, fullyQualifiedName: f.route ? `${f.file}#${f.route.method} ${f.route.path}` : f.file, kind: 'resource' }] };
  if (!opts.contractAnchor) return logical;
  return {
    physicalLocation: { artifactLocation: { uri: encodeUri(opts.contractAnchor), uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 1 } },
    message: { text: `contract ${res.contract.name}@${res.contract.version} (${f.file}), line ${f.line} of its route table` },
    ...logical,
  };
}

/** A relative URI reference: each path segment percent-encoded, `/` kept. */
function encodeUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

export function formatSarif(res: RunResult, opts: SarifOptions): string {
  const ruleIndex = new Map(RULES.map((r, i) => [r.meta.id, i]));
  const results = res.findings.map((f) => ({
    ruleId: f.ruleId,
    ruleIndex: ruleIndex.get(f.ruleId)!,
    level: LEVEL[f.severity],
    message: { text: f.message },
    locations: [location(res, f, opts)],
    partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
    ...(opts.baseline ? { baselineState: 'new' } : {}),
    ...(f.route ? { properties: { route: `${f.route.method} ${f.route.path}` } } : {}),
  }));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'route-surface',
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: HOMEPAGE,
            rules: RULES.map(ruleDescriptor),
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
        properties: {
          contract: { name: res.contract.name, version: res.contract.version },
          summary: res.summary,
        },
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
