/**
 * `list` filters, shared by every list format: --method, --filter, --classification, --family.
 * Each list option takes one value or a comma-separated list.
 */
import { UsageError } from '../errors.js';
import type { Classification, Route } from '../types.js';

export interface RouteFilter {
  method?: string;
  filter?: string;
  classification?: string;
  family?: string;
}

const CLASSIFICATIONS: Classification[] = ['contract', 'public', 'browser', 'excluded'];

function list(v: string | undefined): string[] | null {
  if (v === undefined) return null;
  const items = v.split(',').map((x) => x.trim()).filter(Boolean);
  return items.length > 0 ? items : null;
}

/**
 * Check the option values; a bad value is a usage error naming the flag. Families are checked
 * only when the known ones are given (they come from the contract and the config).
 */
export function validateFilter(f: RouteFilter, families?: string[]): void {
  for (const c of list(f.classification) ?? [])
    if (!CLASSIFICATIONS.includes(c.toLowerCase() as Classification))
      throw new UsageError(`--classification: unknown classification "${c}" (one of: ${CLASSIFICATIONS.join(', ')})`);
  const known = families ?? [];
  for (const fam of families ? (list(f.family) ?? []) : [])
    if (!known.some((x) => x.toLowerCase() === fam.toLowerCase()))
      throw new UsageError(`--family: unknown family "${fam}" (one of: ${known.join(', ')})`);
  for (const m of list(f.method) ?? [])
    if (!/^[A-Za-z]+$/.test(m)) throw new UsageError(`--method: not an HTTP method: "${m}"`);
}

export function filterRoutes(routes: Route[], f: RouteFilter): Route[] {
  const methods = list(f.method)?.map((m) => m.toUpperCase());
  const classes = list(f.classification)?.map((c) => c.toLowerCase());
  const fams = list(f.family)?.map((x) => x.toLowerCase());
  const needle = f.filter?.toLowerCase();
  return routes.filter(
    (r) =>
      (!methods || methods.includes(r.method)) &&
      (!needle || r.path.toLowerCase().includes(needle)) &&
      (!classes || classes.includes(r.classification)) &&
      (!fams || (r.family !== null && fams.includes(r.family.toLowerCase()))),
  );
}
