/**
 * `route-surface init`: a starter config (validated against the shipped JSON Schema by
 * editors through `$schema`), and ready snippets for pre-commit hooks and CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, validateConfig } from './config.js';
import { BUILTIN_CONTRACT_ID } from './contract.js';
import { SOURCE_GLOB } from './discover.js';
import { UsageError } from './errors.js';
import { VERSION } from './package-root.js';
import { HOMEPAGE } from './report/sarif.js';
import { writeFileSafely } from './write-file.js';

/** The JSON Schema shipped in the package, as seen from a config file in `dir` of a project at `cwd`. */
export function schemaRef(cwd: string, dir: string): string {
  const rel = path.relative(dir, path.join(cwd, 'node_modules', 'route-surface', 'schema', 'route-surface.config.schema.json')).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

export function starterConfig(schema: string): string {
  const config = {
    $schema: schema,
    contract: BUILTIN_CONTRACT_ID,
    exclude: ['**/*.test.*', '**/*.spec.*', '**/__tests__/**', '**/__mocks__/**'],
    guards: {},
    publicRoutes: [],
    rules: {},
  };
  validateConfig(structuredClone(config), CONFIG_FILE);
  return JSON.stringify(config, null, 2) + '\n';
}

const STAGED = SOURCE_GLOB.replace('**/', '');

export function hookSnippets(configFile: string): string {
  const cfg = configFile === CONFIG_FILE ? '' : ` --config ${configFile}`;
  return `Pre-commit hooks. Given the staged files (husky + lint-staged, lefthook), route-surface
still analyses every file (mounts and guards live in other files) and reports findings in
the staged files only, plus contract-level findings; the pre-commit framework hook checks
the whole project once per commit.

husky + lint-staged
  npm i -D husky lint-staged && npx husky init
  # .husky/pre-commit
  npx lint-staged
  # package.json
  "lint-staged": { "${STAGED}": "route-surface check${cfg}" }

lefthook
  # lefthook.yml
  pre-commit:
    commands:
      route-surface:
        glob: "${STAGED}"
        run: npx route-surface check${cfg} {staged_files}

pre-commit framework (https://pre-commit.com)
  # .pre-commit-config.yaml
  repos:
    - repo: ${HOMEPAGE}
      rev: v${VERSION}
      hooks:
        - id: route-surface${cfg ? `\n          args: [${cfg.trim().split(' ').join(', ')}]` : ''}

GitHub Actions: see the README ("CI on GitHub") for a workflow that annotates the pull
request, uploads SARIF to code scanning and comments the route-surface diff.
`;
}

/** Write the starter config; refuse to overwrite unless forced. Returns what to print. */
export function init(cwd: string, file: string | undefined, force: boolean): string {
  const shown = file ?? CONFIG_FILE;
  const abs = path.resolve(cwd, shown);
  if (fs.existsSync(abs) && !force) throw new UsageError(`${shown} already exists; use --force to overwrite it`);
  writeFileSafely(abs, [starterConfig(schemaRef(cwd, path.dirname(abs)))], shown);
  return `wrote ${shown}\n\n${hookSnippets(shown)}`;
}
