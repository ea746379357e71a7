/**
 * Build step (`npm run build`): the CLI and the extraction worker, each as one ES module in
 * dist/bundle/, which bin/route-surface.js runs. Every run used to load some 75 modules of
 * dist/src and 110 files of the packages they import: about 60 ms before any work, a quarter
 * of a warm `check --cache` on 2,000 files. One file each loads in about 10 ms.
 *
 * The packages route-surface loads only when it needs them, through `createRequire` (the
 * TypeScript compiler inside ts-morph, ajv, yaml), stay outside the bundles. dist/src, which
 * tsc writes, stays as it is: the bench and the tests import its modules one by one.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { PACKAGE_ROOT } from '../src/package-root.js';

await build({
  absWorkingDir: PACKAGE_ROOT,
  entryPoints: ['src/cli.ts', 'src/extract/worker.ts'],
  // both in one directory: the pool finds the worker beside itself (`./worker.js`)
  entryNames: '[name]',
  outdir: path.join('dist', 'bundle'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['ts-morph', 'typescript', 'ajv', 'ajv-formats', 'yaml'],
  // the bundled CommonJS packages (commander, fast-glob …) `require` Node's own modules
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});
