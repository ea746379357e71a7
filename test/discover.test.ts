import { describe, expect, it } from 'vitest';
import { discover } from '../src/discover.js';
import { writeProject } from './helpers/project.js';

describe('discover: .gitignore', () => {
  const dir = writeProject({
    '.gitignore': 'apps/api/generated/\n',
    'apps/api/.gitignore': 'scratch.ts\n',
    'apps/api/src/app.ts': 'export {};\n',
    'apps/api/src/scratch.ts': 'export {};\n',
    'apps/api/generated/client.ts': 'export {};\n',
    'apps/web/.gitignore': 'page.ts\n',
    'apps/web/page.ts': 'export {};\n',
  });

  it('applies the .gitignore files under an analysed directory and those between the cwd and it', () => {
    expect(discover(dir, ['apps/api']).files).toEqual(['apps/api/src/app.ts']);
    expect(discover(dir, ['apps/api/src']).files).toEqual(['apps/api/src/app.ts']);
  });

  it('applies each .gitignore relative to its own directory', () => {
    expect(discover(dir, ['.']).files).toEqual(['apps/api/src/app.ts']);
    expect(discover(dir, ['apps/web']).files).toEqual([]);
  });
});

describe('discover: directories whose name starts with a dot', () => {
  const dir = writeProject({
    'app/.well-known/security.txt/route.ts': 'export function GET() { return new Response("Contact: mailto:security@example.com"); }\n',
    'app/api/sites/route.ts': 'export function GET() { return Response.json([]); }\n',
    '.storybook/main.ts': 'export default {};\n',
    'scripts/.cache/build.js': 'module.exports = {};\n',
    'scripts/.eslintrc.ts': 'export default {};\n',
    'scripts/dot.ts': 'export {};\n',
    'app/.well-known/jwks.json': '{ "keys": [] }\n',
    '.storybook/data.json': '{}\n',
  });

  it('reads a .well-known directory (RFC 8615 URIs a server answers), and no other', () => {
    expect(discover(dir, ['.']).files).toEqual(['app/.well-known/security.txt/route.ts', 'app/api/sites/route.ts', 'scripts/dot.ts']);
  });

  it('reads it with a configured include too, and no other there either', () => {
    expect(discover(dir, ['.'], ['app/**/*.ts', '**/*.js']).files).toEqual(['app/.well-known/security.txt/route.ts', 'app/api/sites/route.ts']);
    expect(discover(dir, ['.'], ['**/*.ts'], ['**/.well-known/**']).files).toEqual(['app/api/sites/route.ts', 'scripts/dot.ts']);
  });

  it('reads a directory starting with a dot that is named as the root', () => {
    expect(discover(dir, ['.storybook']).files).toEqual(['.storybook/main.ts']);
  });

  it('admits a JSON module under .well-known, not one under another dot directory', () => {
    const found = discover(dir, ['.']);
    expect(found.admits('app/.well-known/jwks.json')).toBe(true);
    expect(found.admits('.storybook/data.json')).toBe(false);
  });
});

describe('discover: build output', () => {
  const dir = writeProject({
    'src/core/build/build.module.ts': 'export class BuildModule {}\n',
    'src/core/build/build.controller.ts': 'export class BuildController {}\n',
    'src/core/build/build.module.d.ts': 'export declare class BuildModule {}\n',
    'src/core/build/status.json': '{}\n',
    'src/main.ts': 'export {};\n',
    'build/main.js': 'module.exports = {};\n',
    'build/static/js/app.mjs': 'export {};\n',
    'dist/main.ts': 'export {};\n',
    'coverage/lcov-report/sorter.js': 'module.exports = {};\n',
  });

  it("leaves out build output, but not a build directory's TypeScript sources (no build writes them)", () => {
    const found = discover(dir, ['.']);
    expect(found.files).toEqual(['src/core/build/build.controller.ts', 'src/core/build/build.module.ts', 'src/main.ts']);
    expect(found.admits('src/core/build/status.json')).toBe(false);
  });
});
