import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ts as TS } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullTypeScriptFile, PARSER_FILE, typeScriptFile } from '../src/extract/compiler.js';
import { parseShape, sourcesUnder } from '../scripts/parse-shape.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
type TSModule = typeof TS;

describe('the parser the build cuts from the compiler (scripts/compiler.ts)', () => {
  const full = require(fullTypeScriptFile()) as TSModule;
  const cut = require(PARSER_FILE) as TSModule;
  let tree: string;
  beforeAll(async () => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-cut-'));
    const { generate } = (await import(pathToFileURL(path.join(ROOT, 'bench', 'generate.mjs')).href)) as { generate: (o: { dir: string; files: number }) => unknown };
    generate({ dir: tree, files: 200 });
  });
  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('is what route-surface loads, a sixth of the compiler or less', () => {
    expect(typeScriptFile()).toBe(PARSER_FILE);
    expect(fs.statSync(PARSER_FILE).size * 6).toBeLessThan(fs.statSync(fullTypeScriptFile()).size);
    // none of the checker, the emitter or the language service
    const text = fs.readFileSync(PARSER_FILE, 'utf8');
    for (const left of ['function createTypeChecker(', 'function createProgram(', 'function emitFiles(', 'function createLanguageService(', 'registerCodeFix(']) expect(text).not.toContain(left);
  });

  it('parses the fixtures and a generated control-plane tree as the compiler does, whole and cut short', () => {
    const files = [...sourcesUnder(path.join(ROOT, 'fixtures')), ...sourcesUnder(tree)];
    expect(files.length).toBeGreaterThan(800);
    let broken = 0;
    for (const file of files) {
      const source = fs.readFileSync(file, 'utf8');
      // cut short in a statement: error recovery, and its diagnostics' messages
      const short = source.slice(0, Math.floor(source.length / 2));
      for (const text of [source, short]) {
        const want = parseShape(full, file, text);
        if (!want.endsWith(',[]')) broken++;
        expect(parseShape(cut, file, text), file).toBe(want);
      }
    }
    expect(broken).toBeGreaterThan(files.length / 2);
  });
});
