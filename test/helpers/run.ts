import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, type RunResult } from '../../src/engine.js';
import type { AppliedGuard } from '../../src/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'bin', 'route-surface.js');

/** Run the pipeline in-process with `cwd` as the project root. */
export function check(cwd: string, paths: string[] = [], extra: { config?: string; contract?: string } = {}): Promise<RunResult> {
  return run({ cwd, paths, ...extra });
}

/** Run the built CLI as a user would. */
export function cli(args: string[], cwd: string, env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** "GET /api/sites/" lines, sorted as the tool sorts them. */
export function routeLines(res: RunResult): string[] {
  return res.routes.map((r) => `${r.method} ${r.path}`);
}

/** "file:line ruleId message" lines. */
export function findingLines(res: RunResult): string[] {
  return res.findings.map((f) => `${f.file}:${f.line} ${f.ruleId} ${f.message}`);
}

/** The guards of the route `method path`, as "name:kind+kind:mechanism:file:line". */
export function guardLines(res: RunResult, method: string, routePath: string): string[] {
  return res.routes.find((r) => r.method === method && r.path === routePath)!.guards.map((g) => `${g.name}:${g.kinds.join('+')}:${g.mechanism}:${g.file}:${g.line}`);
}

/** A guard as "name: kind+kind", with " (exceptions unknown)" when which requests its allowlist lets through is not known statically. */
export function guardKinds(g: AppliedGuard): string {
  return `${g.name}: ${g.kinds.join('+')}${g.exceptionsUnknown ? ' (exceptions unknown)' : ''}`;
}
