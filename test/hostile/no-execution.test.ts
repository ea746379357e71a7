/**
 * The tool never executes user code: not the analysed sources, not `next.config.*`, not a
 * JavaScript config, not a package's entry point. Proved twice: by running every command on a
 * project whose every executable file leaves a mark when run, and by scanning the tool's own
 * source for the ways code can be loaded or run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/engine.js';
import { ROOT } from '../helpers/run.js';
import { cleanProjects, cli, project, write } from './helpers.js';

afterAll(cleanProjects);

/**
 * Code that leaves `PWNED-<name>` in the project and ends the process, if it ever runs — as
 * CommonJS or as an ES module (it uses neither `require` nor `import`), through any loader.
 */
const trap = (dir: string, name: string): string =>
  `process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(path.join(dir, `PWNED-${name}`))}, 'ran');\nprocess.exit(42);\n`;

function trappedProject(): string {
  const dir = project();
  const files: Record<string, string> = {
    // configs other tools load by running them
    'next.config.js': trap(dir, 'next-config-js'),
    'next.config.mjs': trap(dir, 'next-config-mjs'),
    'next.config.ts': trap(dir, 'next-config-ts'),
    'route-surface.config.js': trap(dir, 'config-js'),
    'route-surface.config.cjs': trap(dir, 'config-cjs'),
    'route-surface.config.mjs': trap(dir, 'config-mjs'),
    'vite.config.ts': trap(dir, 'vite-config'),
    'app/api/sites/route.ts': `${trap(dir, 'next-route')}export async function GET() { return Response.json({ items: [] }); }\n`,
    // the framework itself, as a malicious package in the analysed tree would ship it
    'node_modules/express/package.json': JSON.stringify({ name: 'express', version: '4.21.2', main: 'index.js' }),
    'node_modules/express/index.js': trap(dir, 'express'),
    // analysed sources with top-level side effects, routes included
    'src/routes/trap.ts': `${trap(dir, 'source-ts')}import { Router } from 'express';\nexport const trapRouter = Router();\ntrapRouter.get('/trap', (req, res) => res.json({}));\n`,
    'src/routes/trap.cjs': `${trap(dir, 'source-cjs')}const { Router } = require('express');\nconst r = Router();\nr.get('/cjs-trap', (req, res) => res.json({}));\nmodule.exports = r;\n`,
    'src/routes/lazy.ts': "import { Router } from 'express';\nexport const lazy = Router();\nlazy.get('/lazy', async (req, res) => { const m = await import('./trap.js'); res.json(m); });\nconst name = './trap' + '.cjs';\nrequire(name);\n",
  };
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  return dir;
}

function marks(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.startsWith('PWNED-')) found.push(path.relative(dir, path.join(d, e.name)));
    }
  };
  walk(dir);
  return found;
}

describe('never executes user code', () => {
  it('runs every command over a project that marks any execution, and nothing runs', async () => {
    const dir = trappedProject();
    const runs = [
      cli(['check', '--format', 'json'], dir),
      cli(['check', 'src/routes/trap.ts'], dir),
      cli(['list', '--format', 'json'], dir),
      cli(['explain', 'GET /api/sites/'], dir),
      cli(['check', '--config', 'route-surface.config.js'], dir),
    ];
    for (const r of runs.slice(0, 4)) expect([0, 1]).toContain(r.code);
    expect(JSON.parse(runs[2]!.stdout).routes.map((x: { path: string }) => x.path)).toEqual(expect.arrayContaining(['/api/sites/']));
    // A JavaScript config is data to us: it is not JSON, so it is rejected, never loaded.
    expect(runs[4]).toMatchObject({ code: 2, stdout: '' });
    expect(runs[4]!.stderr).toMatch(/^route-surface: route-surface\.config\.js:1:1: invalid JSON in config: .*\n$/);
    await run({ cwd: dir, paths: [], prefilter: false });
    expect(marks(dir)).toEqual([]);
  });

  it('the traps do mark an execution', () => {
    const dir = trappedProject();
    expect(spawnSync(process.execPath, ['next.config.js'], { cwd: dir }).status).toBe(42);
    expect(spawnSync(process.execPath, ['-e', "require('express')"], { cwd: dir }).status).toBe(42);
    expect(spawnSync(process.execPath, ['src/routes/trap.cjs'], { cwd: dir }).status).toBe(42);
    expect(marks(dir)).toEqual(['PWNED-express', 'PWNED-next-config-js', 'PWNED-source-cjs']);
  });

  it('loads no code at run time except its own modules and the compiler (scan of the tool’s source)', () => {
    const files = ['src', 'rules', 'bin'].flatMap((d) => listSources(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(30);
    // The one use of node:vm: the compiler (from ts-morph's package) is compiled from V8's code
    // cache there — and the scan below checks that nothing else is loaded through it.
    expect(files.flatMap((f) => executionSites(path.relative(ROOT, f), fs.readFileSync(f, 'utf8')))).toEqual(['src/extract/code-cache.ts:19 imports node:vm']);
  });

  it('the scan finds each way of running code', () => {
    const bad = [
      "import vm from 'node:vm';",
      'const cfg = await import(configPath);',
      'const mod = require(file);',
      'eval(source);',
      "const f = new Function('return 1');",
      "spawnSync('node', [entry]);",
      'new Worker(userFile);',
      'requireCached(file, cacheFile);',
    ].join('\n');
    expect(executionSites('bad.ts', bad)).toEqual([
      'bad.ts:1 imports node:vm',
      'bad.ts:2 import() of a computed specifier',
      'bad.ts:3 require() of a computed specifier',
      'bad.ts:4 eval()',
      'bad.ts:5 new Function()',
      'bad.ts:6 spawnSync() of something other than git',
      "bad.ts:7 a Worker that is not one of the tool's own modules",
      'bad.ts:8 requireCached() of something other than the compiler',
    ]);
  });
});

/** Places in a source file where code could be loaded or run, other than the tool's own modules and git. */
function executionSites(rel: string, text: string): string[] {
  const violations: string[] = [];
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    const at = `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const first = n.arguments[0];
      const literal = first !== undefined && ts.isStringLiteralLike(first);
      if (callee.kind === ts.SyntaxKind.ImportKeyword && !literal) violations.push(`${at} import() of a computed specifier`);
      if (ts.isIdentifier(callee) && callee.text === 'eval') violations.push(`${at} eval()`);
      if (ts.isIdentifier(callee) && callee.text === 'require' && !literal) violations.push(`${at} require() of a computed specifier`);
      if (ts.isIdentifier(callee) && /^(spawn|spawnSync|exec|execSync|execFile|execFileSync|fork)$/.test(callee.text) && !(literal && (first as ts.StringLiteral).text === 'git'))
        violations.push(`${at} ${callee.text}() of something other than git`);
      if (ts.isIdentifier(callee) && callee.text === 'requireCached' && first?.getText(sf) !== 'typeScriptFile()') violations.push(`${at} requireCached() of something other than the compiler`);
    }
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression)) {
      if (n.expression.text === 'Function') violations.push(`${at} new Function()`);
      const arg = n.arguments?.[0];
      const source = n.getText(sf) + (arg && ts.isIdentifier(arg) ? declarationText(sf, arg.text) : '');
      if (n.expression.text === 'Worker' && !/new URL\('\.\/[\w-]+\.js', import\.meta\.url\)/.test(source)) violations.push(`${at} a Worker that is not one of the tool's own modules`);
    }
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && /^(node:)?(vm|repl|inspector)$/.test(n.moduleSpecifier.text))
      violations.push(`${at} imports ${n.moduleSpecifier.text}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return violations;
}

function listSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return listSources(p);
    return /\.(ts|js|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

/** The text of `const name = …` in a file (to see where a value passed by name comes from). */
function declarationText(sf: ts.SourceFile, name: string): string {
  let text = '';
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name) text = n.getText(sf);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return text;
}
