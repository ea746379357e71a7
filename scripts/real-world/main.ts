/**
 * `npm run real-world -- <checkouts-dir> [--write FILE] [--verbose] [--only NAME]`
 *
 * Scores route-surface on public server repositories against the route lists kept in
 * test/real-world/*.tsv. Fetches nothing: each repository must already be checked out under
 * <checkouts-dir>, as `<name>`, `<owner>__<name>` or `<owner>+<name>`, at the commit the
 * truth file names. Prints one row per repository; `--write` also writes the table (with the
 * commit ids and the residual differences) between the markers of a Markdown file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../src/engine.js';
import { fmt, parseTruth, score, TruthFormatError, type Score, type ToolRoute, type Truth } from './score.js';
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js';

const TRUTH_DIR = path.join(ROOT, 'test', 'real-world');
const BEGIN = '<!-- real-world:begin (written by `npm run real-world -- DIR --write docs/real-world.md`) -->';
const END = '<!-- real-world:end -->';

interface Row {
  name: string;
  truth: Truth;
  score: Score | null;
  framework: string;
  problem: string | null;
  seconds: number;
}

function usage(msg: string): never {
  process.stderr.write(`real-world: ${msg}\nusage: npm run real-world -- <checkouts-dir> [--write FILE] [--verbose] [--only NAME]\n`);
  process.exit(2);
}

function findCheckout(dir: string, repository: string): string | null {
  const [owner, name] = repository.split('/') as [string, string];
  for (const c of [`${owner}__${name}`, `${owner}+${name}`, name]) {
    const p = path.join(dir, c);
    if (fs.existsSync(p) && fs.statSync(p).isDirectory()) return p;
  }
  return null;
}

async function scoreOne(dir: string, file: string): Promise<Row> {
  const name = path.basename(file).replace(/\.tsv$/, '');
  const truth = parseTruth(fs.readFileSync(file, 'utf8'), path.relative(ROOT, file));
  const checkout = findCheckout(dir, truth.repository);
  const row: Row = { name, truth, score: null, framework: '', problem: null, seconds: 0 };
  if (!checkout) {
    row.problem = `no checkout of ${truth.repository} under ${dir}`;
    return row;
  }
  const cwd = path.join(checkout, truth.root);
  const started = process.hrtime.bigint();
  // `exclude` is what a user of that repository would put in route-surface.config.json.
  let config: string | undefined;
  if (truth.exclude.length > 0) {
    config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'real-world-')), 'route-surface.config.json');
    fs.writeFileSync(config, JSON.stringify({ exclude: truth.exclude }));
  }
  const res = await run({ cwd, paths: truth.paths, ...(config ? { config } : {}) });
  if (config) fs.rmSync(path.dirname(config), { recursive: true, force: true });
  row.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rootRel = truth.root === '.' ? '' : truth.root.replace(/\/$/, '') + '/';
  const tool: ToolRoute[] = res.routes.map((r) => ({
    method: r.method,
    path: r.path,
    file: rootRel + r.file,
    line: r.line,
    auth: r.guards.some((g) => g.kinds.includes('auth')),
  }));
  row.framework = [...new Set(res.routes.map((r) => r.framework))].sort().join(', ');
  row.score = score(truth.routes, tool);
  return row;
}

function table(rows: Row[]): string {
  const lines = [
    '| repository | commit | framework | routes (truth) | routes (tool) | matched | recall | precision | auth agreement |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const s = r.score;
    const commit = r.truth.commit.slice(0, 12);
    if (!s) lines.push(`| ${r.truth.repository} | ${commit} | | ${r.truth.routes.length} | – | – | – | – | – |`);
    else lines.push(`| ${r.truth.repository} | \`${commit}\` | ${r.framework} | ${s.truth} | ${s.found} | ${s.matched} | ${fmt(s.recall)} | ${fmt(s.precision)} | ${fmt(s.authAgreement)} (${s.authAgree}/${s.matched}) |`);
  }
  return lines.join('\n');
}

function details(rows: Row[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const s = r.score;
    if (!s) continue;
    const items: string[] = [];
    for (const m of s.missed) items.push(`- missed: \`${m.method} ${m.path}\` (${m.file}:${m.line})`);
    for (const x of s.extra) items.push(`- not in the truth: \`${x.method} ${x.path}\` (${x.file}:${x.line})`);
    for (const d of s.authDisagree) items.push(`- auth: \`${d.truth.method} ${d.truth.path}\` (${d.truth.file}:${d.truth.line}) is ${d.truth.auth ? '' : 'not '}authenticated; the tool says ${d.tool.auth ? 'it is' : 'it is not'}`);
    out.push(`#### ${r.truth.repository} @ \`${r.truth.commit}\``, '', items.length > 0 ? items.join('\n') : '- no differences', '');
  }
  return out.join('\n');
}

async function main(argv: string[]): Promise<number> {
  let dir: string | null = null;
  let write: string | null = null;
  let verbose = false;
  let only: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--write') write = argv[++i] ?? usage('--write needs a file');
    else if (a === '--only') only = argv[++i] ?? usage('--only needs a name');
    else if (a === '--verbose' || a === '-v') verbose = true;
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else if (dir === null) dir = a;
    else usage(`unexpected argument ${a}`);
  }
  if (dir === null) usage('no checkouts directory given');
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) usage(`${dir}: not a directory`);
  const files = fs
    .readdirSync(TRUTH_DIR)
    .filter((f) => f.endsWith('.tsv') && (only === null || f.includes(only)))
    .sort()
    .map((f) => path.join(TRUTH_DIR, f));
  if (files.length === 0) usage(only ? `no truth file matches ${only}` : `no truth files in ${TRUTH_DIR}`);
  const rows: Row[] = [];
  for (const f of files) {
    try {
      rows.push(await scoreOne(dir, f));
    } catch (err) {
      if (err instanceof TruthFormatError) usage(err.message);
      throw err;
    }
  }
  process.stdout.write(table(rows) + '\n');
  for (const r of rows) if (r.problem) process.stdout.write(`${r.name}: ${r.problem}\n`);
  if (verbose) process.stdout.write('\n' + details(rows));
  if (write) {
    const body = `${BEGIN}\n\n${table(rows)}\n\nResidual differences, as measured:\n\n${details(rows)}\n${END}`;
    const old = fs.existsSync(write) ? fs.readFileSync(write, 'utf8') : '';
    const b = old.indexOf(BEGIN.slice(0, 30));
    const e = old.indexOf(END);
    const next = b >= 0 && e > b ? old.slice(0, b) + body + old.slice(e + END.length) : `# Real-world scores\n\n${body}\n`;
    fs.writeFileSync(write, next);
  }
  return rows.some((r) => r.problem) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`real-world: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
