/**
 * Baselines, for adopting route-surface in an existing codebase: `--update-baseline`
 * records today's findings; `--baseline FILE` then reports only findings that are not
 * recorded, and lists recorded entries that no longer match any finding (fixed, or changed
 * so that they are no longer the same finding), so the file cannot rot.
 *
 * Entries match by the finding's fingerprint (rule + route + file + normalised snippet,
 * never the line: see `assignFingerprints` in engine.ts), so moving unrelated lines keeps
 * them matching. The file holds no line numbers either: rewriting it after such an edit
 * yields no diff to review.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors.js';
import { parseJson } from './json-file.js';
import type { Finding } from './types.js';

export const DEFAULT_BASELINE = 'route-surface.baseline.json';
const FORMAT_VERSION = 1;

export interface BaselineEntry {
  fingerprint: string;
  ruleId: string;
  file: string;
  /** "METHOD /path" for findings about a route */
  route?: string;
  /** the message when it was recorded, for reviewers */
  message: string;
}

export interface BaselineOutcome {
  /** the baseline file, as the user named it */
  file: string;
  /** entries in the file */
  total: number;
  /** findings hidden because the baseline records them */
  matched: number;
  /** entries that match no finding any more */
  stale: BaselineEntry[];
  /** --baseline-strict: stale entries fail the run */
  strict: boolean;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function entryOf(f: Finding): BaselineEntry {
  return {
    fingerprint: f.fingerprint,
    ruleId: f.ruleId,
    file: f.file,
    ...(f.route ? { route: `${f.route.method} ${f.route.path}` } : {}),
    message: f.message,
  };
}

/** The baseline file's text: entries in a stable order, one key order, a trailing newline. */
export function serializeBaseline(entries: BaselineEntry[]): string {
  const sorted = [...entries].sort((a, b) => cmp(a.file, b.file) || cmp(a.ruleId, b.ruleId) || cmp(a.route ?? '', b.route ?? '') || cmp(a.fingerprint, b.fingerprint));
  return JSON.stringify({ tool: 'route-surface', version: FORMAT_VERSION, findings: sorted.map((e) => ({ fingerprint: e.fingerprint, ruleId: e.ruleId, file: e.file, ...(e.route !== undefined ? { route: e.route } : {}), message: e.message })) }, null, 2) + '\n';
}

export function readBaseline(cwd: string, file: string): BaselineEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read baseline (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const data = parseJson(text, file, 'baseline');
  const fail = (pointer: string, msg: string): never => {
    throw new UsageError(`${file}: invalid baseline at ${pointer || '/'}: ${msg}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('', 'the top level must be an object');
  const d = data as Record<string, unknown>;
  if (d.tool !== 'route-surface') fail('/tool', 'must be "route-surface" (is this a route-surface baseline?)');
  if (d.version !== FORMAT_VERSION) fail('/version', `unsupported baseline version ${JSON.stringify(d.version)} (this route-surface writes ${FORMAT_VERSION})`);
  if (!Array.isArray(d.findings)) fail('/findings', 'must be an array');
  return (d.findings as unknown[]).map((e, i) => {
    const at = `/findings/${i}`;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) fail(at, 'must be an object');
    const o = e as Record<string, unknown>;
    for (const key of ['fingerprint', 'ruleId', 'file', 'message'])
      if (typeof o[key] !== 'string' || o[key] === '') fail(`${at}/${key}`, 'must be a non-empty string');
    if (o.route !== undefined && typeof o.route !== 'string') fail(`${at}/route`, 'must be a string');
    return { fingerprint: o.fingerprint as string, ruleId: o.ruleId as string, file: o.file as string, ...(o.route !== undefined ? { route: o.route as string } : {}), message: o.message as string };
  });
}

/**
 * Split findings into new ones and those the baseline records. When only some files are
 * analysed for findings (explicit files, pre-commit), entries of other files are out of
 * view and never stale.
 */
export function applyBaseline(
  findings: Finding[],
  entries: BaselineEntry[],
  inView: (file: string) => boolean,
): { fresh: Finding[]; matched: number; stale: BaselineEntry[] } {
  const known = new Set(entries.map((e) => e.fingerprint));
  const seen = new Set(findings.map((f) => f.fingerprint));
  const fresh = findings.filter((f) => !known.has(f.fingerprint));
  const stale = entries.filter((e) => !seen.has(e.fingerprint) && inView(e.file));
  return { fresh, matched: findings.length - fresh.length, stale };
}
