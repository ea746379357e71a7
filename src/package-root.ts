import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory of route-surface's own package.json (works from src/, dist/src/ and dist/bundle/). */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj) && (JSON.parse(fs.readFileSync(pj, 'utf8')) as { name?: string }).name === 'route-surface') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('route-surface: cannot find its own package.json');
    dir = up;
  }
}

export const PACKAGE_ROOT = findRoot();
export const VERSION = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
