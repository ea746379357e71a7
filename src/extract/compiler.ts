/**
 * The TypeScript compiler route-surface parses with: the one ts-morph bundles (pinned with
 * ts-morph; the `typescript` devDependency is the same version, for the type definitions).
 *
 * It is loaded synchronously and only when a file has to be parsed: a run that takes every
 * fact from the cache never loads it. Only the compiler module itself is loaded (the rest of
 * ts-morph — its wrapper classes, file system host, glob — is never used).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ts as TS } from 'ts-morph';

export type TSModule = typeof TS;

const require = createRequire(import.meta.url);

let loaded: TSModule | null = null;

export function loadTypeScript(): TSModule {
  if (loaded) return loaded;
  const fromMorph = createRequire(require.resolve('ts-morph'));
  try {
    loaded = fromMorph('@ts-morph/common/dist/typescript.js') as TSModule;
  } catch {
    // A ts-morph whose layout differs: its public `ts` export is the same compiler.
    loaded = (fromMorph('ts-morph') as { ts: TSModule }).ts;
  }
  return loaded;
}

/** ts-morph's version, which pins the compiler it bundles (read from its package.json, without loading it). */
export function tsMorphVersion(): string {
  let dir = path.dirname(require.resolve('ts-morph'));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) return (JSON.parse(fs.readFileSync(pj, 'utf8')) as { version: string }).version;
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
