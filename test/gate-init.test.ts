import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers/run.js';

const GATE = path.join(ROOT, 'fixtures', 'gate');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string>; files: string[] };

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-init-'));
  fs.cpSync(GATE, dir, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('route-surface init', () => {
  it('writes a starter config whose $schema resolves to the schema shipped in the package', () => {
    const r = cli(['init'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('wrote route-surface.config.json');
    const text = fs.readFileSync(path.join(dir, 'route-surface.config.json'), 'utf8');
    const config = JSON.parse(text) as Record<string, unknown>;
    expect(config).toEqual({
      $schema: './node_modules/route-surface/schema/route-surface.config.schema.json',
      contract: 'builtin:browser-control-plane@1',
      exclude: ['**/*.test.*', '**/*.spec.*', '**/__tests__/**', '**/__mocks__/**'],
      guards: {},
      publicRoutes: [],
      rules: {},
    });

    // Installed as a dependency, the package ships schema/ (package.json "files"), so the
    // reference resolves; and the written config is valid against that schema.
    expect(pkg.files).toContain('schema');
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'route-surface'), 'dir');
    const schemaFile = path.resolve(dir, config.$schema as string);
    const validate = new Ajv({ strict: false }).compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as object);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);

    // And route-surface runs with it.
    const check = cli(['check', '--format', 'json'], dir);
    expect(check.stderr).toBe('');
    expect((JSON.parse(check.stdout) as { summary: { errors: number } }).summary.errors).toBe(4);
  });

  it('refuses to overwrite an existing config (exit 2) unless --force', () => {
    fs.writeFileSync(path.join(dir, 'route-surface.config.json'), '{ "rules": { "uncontracted-route": "off" } }\n');
    const r = cli(['init'], dir);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'route-surface: route-surface.config.json already exists; use --force to overwrite it\n' });
    expect(fs.readFileSync(path.join(dir, 'route-surface.config.json'), 'utf8')).toBe('{ "rules": { "uncontracted-route": "off" } }\n');
    const forced = cli(['init', '--force'], dir);
    expect(forced.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'route-surface.config.json'), 'utf8'))).toHaveProperty('contract', 'builtin:browser-control-plane@1');
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('writes another file with --config, with a $schema relative to it, and prints hook snippets naming it', () => {
    fs.mkdirSync(path.join(dir, 'config'));
    const r = cli(['init', '--config', 'config/route-surface.json'], dir);
    expect(r.code).toBe(0);
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'config', 'route-surface.json'), 'utf8')) as { $schema: string };
    expect(config.$schema).toBe('../node_modules/route-surface/schema/route-surface.config.schema.json');
    expect(r.stdout).toContain('"lint-staged": { "*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}": "route-surface check --config config/route-surface.json" }');
    expect(r.stdout).toContain('run: npx route-surface check --config config/route-surface.json {staged_files}');
    expect(r.stdout).toContain('        - id: route-surface\n          args: [--config, config/route-surface.json]');
  });

  it('prints ready snippets for husky + lint-staged, lefthook and the pre-commit framework', () => {
    const r = cli(['init'], dir);
    expect(r.stdout).toContain('husky + lint-staged\n  npm i -D husky lint-staged && npx husky init\n  # .husky/pre-commit\n  npx lint-staged\n');
    expect(r.stdout).toContain('"lint-staged": { "*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}": "route-surface check" }');
    expect(r.stdout).toContain('lefthook\n  # lefthook.yml\n  pre-commit:\n    commands:\n      route-surface:\n        glob: "*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}"\n        run: npx route-surface check {staged_files}\n');
    expect(r.stdout).toContain(`  repos:\n    - repo: https://github.com/route-surface/route-surface\n      rev: v${pkg.version}\n      hooks:\n        - id: route-surface\n`);
  });

  it('the staged-files command the snippets run limits findings to those files (absolute paths, as lint-staged passes them)', () => {
    const r = JSON.parse(cli(['check', '--format', 'json', path.join(dir, 'src/routes/deployments.ts')], dir).stdout) as { findings: { ruleId: string; file: string; line: number }[] };
    expect(r.findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual([
      'builtin:browser-control-plane@1:2 contract-route-missing',
      'src/routes/deployments.ts:14 missing-tenant-guard',
      'src/routes/deployments.ts:14 uncontracted-route',
    ]);
  });
});

describe('.pre-commit-hooks.yaml', () => {
  it('declares a node hook that checks the whole project once per commit', () => {
    const hooks = parseYaml(fs.readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    expect(hook).toMatchObject({ id: 'route-surface', name: 'route-surface', entry: 'route-surface check', language: 'node', pass_filenames: false, require_serial: true });
    // the entry's executable is the package's bin
    expect(Object.keys(pkg.bin)).toContain((hook.entry as string).split(' ')[0]);
    const files = new RegExp(hook.files as string);
    for (const f of ['src/app.ts', 'app/api/sites/route.tsx', 'server.mjs', 'route-surface.config.json', 'openapi.yaml', 'contract.yml']) expect(files.test(f), f).toBe(true);
    for (const f of ['README.md', 'logo.png']) expect(files.test(f), f).toBe(false);
  });
});
