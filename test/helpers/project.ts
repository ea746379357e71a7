import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The package.json of a small Express 4 project. */
export const EXPRESS_PACKAGE = JSON.stringify({ name: 'api', dependencies: { express: '^4.21.0' } });

/** Write a small throw-away project (`{ 'src/app.ts': '…' }`) and return its directory. */
export function writeProject(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return dir;
}
