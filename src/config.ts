import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject } from 'ajv';
import { UsageError } from './errors.js';
import { parseJson, readText } from './json-file.js';
import { PACKAGE_ROOT } from './package-root.js';
import type { SeverityOrOff } from './types.js';

export interface Config {
  include?: string[];
  exclude?: string[];
  contract?: string;
  guards?: {
    auth?: string[];
    tenant?: string[];
    csrf?: string[];
    bearer?: string[];
    ignore?: string[];
    family?: Record<string, string[]>;
  };
  publicRoutes?: string[];
  families?: Record<string, string[]>;
  rules?: Record<string, SeverityOrOff>;
  /** what names read from the configuration or environment hold, where not known statically (Evaluator) */
  values?: Record<string, string>;
  /** see src/budgets.ts */
  budgets?: { maxFileBytes?: number; maxFileMs?: number; maxNestingDepth?: number; maxRoutes?: number };
}

export const CONFIG_FILE = 'route-surface.config.json';
export const CONFIG_SCHEMA_PATH = path.join(PACKAGE_ROOT, 'schema', 'route-surface.config.schema.json');

let validator: ReturnType<AjvClass['compile']> | null = null;

/** ajv, loaded only when there is a config to validate (it costs a fifth of the start-up). */
const requireHere = createRequire(import.meta.url);

function describe(err: ErrorObject): string {
  const at = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (err.keyword === 'additionalProperties') {
    const key = (err.params as { additionalProperty: string }).additionalProperty;
    return `unknown key "${at ? at + '.' : ''}${key}"`;
  }
  if (err.keyword === 'enum') return `key "${at}" must be one of ${(err.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
  if (err.keyword === 'pattern') return `key "${at}" must look like "METHOD /path"`;
  return `key "${at || '(root)'}" ${err.message ?? 'is invalid'}`;
}

/** Load and validate a config file. `explicit` means the user named it: then it must exist. */
export function loadConfig(file: string | undefined, cwd: string): { config: Config; file: string | null } {
  const chosen = file ?? CONFIG_FILE;
  const abs = path.resolve(cwd, chosen);
  if (!file && !fs.existsSync(abs)) return { config: {}, file: null };
  // Named relative to the project root, or as the user wrote it when it lies outside.
  const rel = path.relative(cwd, abs).split(path.sep).join('/');
  const shown = rel === '' || rel.startsWith('../') ? chosen : rel;
  const data = parseJson(readText(abs, 'config', shown), shown, 'config');
  validateConfig(data, shown);
  return { config: data as Config, file: shown };
}

export function validateConfig(data: unknown, shown: string): asserts data is Config {
  if (!validator) {
    const schema = JSON.parse(fs.readFileSync(CONFIG_SCHEMA_PATH, 'utf8')) as object;
    const { Ajv } = requireHere('ajv') as typeof import('ajv');
    validator = new Ajv({ allErrors: false, strict: false }).compile(schema);
  }
  if (!validator(data)) {
    const err = validator.errors?.[0];
    throw new UsageError(`${shown}: invalid config: ${err ? describe(err) : 'does not match the schema'}`);
  }
  const cfg = data as Config;
  const lists: [string, string[] | undefined][] = [
    ['guards.auth', cfg.guards?.auth],
    ['guards.tenant', cfg.guards?.tenant],
    ['guards.csrf', cfg.guards?.csrf],
    ['guards.bearer', cfg.guards?.bearer],
    ['guards.ignore', cfg.guards?.ignore],
    ...Object.entries(cfg.guards?.family ?? {}).map(([k, v]) => [`guards.family.${k}`, v] as [string, string[]]),
  ];
  for (const [key, list] of lists)
    for (const entry of list ?? []) {
      if (isRegexEntry(entry)) {
        try {
          new RegExp(entry.slice(1, -1), 'i');
        } catch {
          throw new UsageError(`${shown}: invalid config: key "${key}" has an invalid regular expression ${entry}`);
        }
      }
    }
}

export function isRegexEntry(s: string): boolean {
  return s.length >= 2 && s.startsWith('/') && s.endsWith('/');
}
