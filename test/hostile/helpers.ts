/**
 * Helpers for the hostile-input suites: throw-away projects in temp directories (large,
 * binary and odd inputs are generated here at test time, never committed), the CLI run as an
 * unprivileged user where permissions matter, and the JSON report parsed strictly.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, ROOT } from '../helpers/run.js';

/** The small, clean multi-file Express server every hostile case is added to. */
export const SERVER_FIXTURE = path.join(ROOT, 'fixtures', 'hostile', 'server');

/** Its routes, as "METHOD /path file:line" — a hostile file next to it must not change them. */
export const SERVER_ROUTES = [
  'GET /api/auth/me/ src/routes/account.ts:5',
  'GET /api/databases/ src/routes/resources.ts:14',
  'GET /api/deployments/ src/routes/resources.ts:10',
  'GET /api/health/ready src/routes/health.ts:6',
  'POST /api/internal/reindex src/routes/internal.ts:6',
  'GET /api/sites/ src/routes/resources.ts:6',
];

const made: string[] = [];

/** A fresh project directory holding `files` (and the clean server when `withServer`). */
export function project(files: Record<string, string | Buffer> = {}, withServer = true): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-surface-hostile-'));
  made.push(dir);
  // Readable by an unprivileged user, who runs the CLI in the permission tests.
  fs.chmodSync(dir, 0o755);
  if (withServer) fs.cpSync(SERVER_FIXTURE, dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) write(dir, rel, content);
  return dir;
}

export function write(dir: string, rel: string, content: string | Buffer): void {
  const abs = path.join(dir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

/** Remove every project made so far (afterAll). Permissions are restored first. */
export function cleanProjects(): void {
  for (const dir of made.splice(0)) {
    spawnSync('chmod', ['-R', 'u+rwX', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built CLI. `unprivileged`: as `nobody` when the tests run as root (so permissions bite). */
export function cli(args: string[], cwd: string, opts: { unprivileged?: boolean; timeoutMs?: number } = {}): CliResult {
  const asNobody = opts.unprivileged && process.getuid?.() === 0;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: opts.timeoutMs ?? 120_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
    ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface JsonRoute {
  method: string;
  path: string;
  file: string;
  line: number;
  column: number;
  guards: Record<string, string[]>;
  guardDetails?: { name: string; kinds: string[]; mechanism: string; file: string; line: number }[];
  classification: string;
  family: string | null;
}

export interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  route?: { method: string; path: string };
  fingerprint: string;
}

export interface JsonReport {
  routes: JsonRoute[];
  findings: JsonFinding[];
  summary: { files: number; routes: number; errors: number; warnings: number; infos: number };
}

/** `check --format json`, asserting the run ended normally (exit 0 or 1) with nothing on stderr. */
export function checkJson(cwd: string, args: string[] = [], opts: { unprivileged?: boolean } = {}): JsonReport & { code: number } {
  const r = cli(['check', '--format', 'json', ...args], cwd, opts);
  if (r.code !== 0 && r.code !== 1) throw new Error(`exit ${r.code}: ${r.stderr}`);
  if (r.stderr !== '') throw new Error(`unexpected stderr: ${r.stderr}`);
  return { ...(JSON.parse(r.stdout) as JsonReport), code: r.code };
}

export function routeLines(r: JsonReport): string[] {
  return r.routes.map((x) => `${x.method} ${x.path} ${x.file}:${x.line}`);
}

export function findingLines(r: JsonReport, ...ruleIds: string[]): string[] {
  return r.findings.filter((f) => ruleIds.length === 0 || ruleIds.includes(f.ruleId)).map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

/** "file:line:column ruleId METHOD /path": which findings, where and on what (not their wording). */
export function findingKeys(r: JsonReport, ...ruleIds: string[]): string[] {
  return r.findings
    .filter((f) => ruleIds.length === 0 || ruleIds.includes(f.ruleId))
    .map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}${f.route ? ` ${f.route.method} ${f.route.path}` : ''}`);
}
