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
