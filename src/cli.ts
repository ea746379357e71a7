import { Command, CommanderError, Option } from 'commander';
import { RULES } from '../rules/index.js';
import { exitCode, run, runReported, type RunResult } from './engine.js';
import { VERSION } from './package-root.js';
import { UsageError } from './errors.js';
import { makeChalk } from './report/color.js';
import { jsonChunks, routeJson } from './report/json.js';
import { formatStylish } from './report/stylish.js';
import { formatTable } from './report/table.js';
import { leftOutNotes } from './report/left-out.js';
import { formatRuleDoc, formatRuleList, similarRuleIds } from './report/rules.js';
import { filterRoutes, validateFilter, type RouteFilter } from './report/filter.js';
import { progressOnStderr } from './report/progress.js';
import { formatTree } from './report/tree.js';
import { findingExplainer, formatExplain, parseRequestSpec } from './report/explain.js';
import { formatHtml } from './report/html.js';
import { formatBaselineNote, formatGate, gateExitCode, GATE_FORMATS, updateBaseline, withBaseline, type GateOptions } from './gate.js';
import { diffSurfaces, formatDiffJson, formatDiffMarkdown } from './diff.js';
import { init } from './init.js';
import { writeFileSafely } from './write-file.js';

interface CommonOpts {
  config?: string;
  contract?: string;
  format?: string;
  output?: string;
  color?: boolean;
  quiet?: boolean;
}

/** A cache that cannot be read or written slows the next run down; it never fails this one. */
function warnAboutCache(note: string | null | undefined): void {
  if (note?.startsWith('cannot')) process.stderr.write(`route-surface: warning: ${note}\n`);
}

/** Write a report, whole or in pieces (see jsonChunks), to standard output or to a file. */
function writeOut(text: string | Iterable<string | Uint8Array>, output: string | undefined): void {
  const pieces = typeof text === 'string' ? [text] : text;
  if (!output) {
    for (const piece of pieces) process.stdout.write(piece);
    return;
  }
  writeFileSafely(output, pieces, output);
}

function common(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'config file (default: route-surface.config.json in the cwd, if any)')
    .option('--contract <contract>', 'builtin:browser-control-plane@1 or a contract file')
    .option('--output <file>', 'write the report to a file instead of stdout')
    .option('--no-color', 'no colours')
    .option('--quiet', 'report errors only');
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command('route-surface')
    .description('Static route-surface linter: extracts every route, diffs it against a contract, reports leaks and missing guards.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str.replace(/^error: /, 'route-surface: ')) });

  common(
    program
      .command('check', { isDefault: true })
      .description('lint the route surface against the contract')
      .argument('[paths...]', 'files or directories (default: .)'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['stylish', 'json', 'html', ...GATE_FORMATS]).default('stylish'))
    .option('--baseline <file>', 'report only findings not recorded in this baseline file; list its stale entries')
    .option('--update-baseline', 'record the current findings in the baseline file (--baseline FILE, default route-surface.baseline.json)')
    .option('--baseline-strict', 'fail when the baseline has entries that no longer match (fixed or changed)')
    .option('--verbose', 'stylish: under each finding, explain its route (as route-surface explain does)')
    .option('--cache', 'keep per-file facts between runs: unchanged files are not parsed again')
    .option('--cache-location <path>', 'cache file, or directory to hold it (default: node_modules/.cache/route-surface)')
    .option('--max-warnings <n>', 'fail when there are more warnings than this', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n)) throw new UsageError(`--max-warnings: not a whole number: ${v}`);
      return n;
    })
    .action(async (paths: string[], opts: CommonOpts & GateOptions & { format: string; maxWarnings?: number; verbose?: boolean; cache?: boolean; cacheLocation?: string }) => {
      const runOpts = {
        cwd: process.cwd(),
        paths,
        config: opts.config,
        contract: opts.contract,
        onProgress: progressOnStderr(),
        cache: opts.cache === true,
        cacheLocation: opts.cacheLocation,
      };
      const c = makeChalk({ noColor: opts.color === false, toFile: Boolean(opts.output) });
      // With the cache, the report is kept (kept-report.ts) under how it is made: every option
      // but where it goes, the cache's own and --max-warnings (the exit code comes from the
      // summary), and the colours and directory it is made with. Only for the formats made from
      // the result alone: not with a baseline (its file is read anew each run), --verbose (it
      // quotes source lines), SARIF (it looks for a file to anchor contract findings to) or
      // github (it appends to the step summary).
      const { cache: _cache, cacheLocation: _location, output: _output, maxWarnings: _max, ...how } = opts;
      const keepable = opts.cache && ['stylish', 'json', 'html'].includes(opts.format) && !opts.verbose && !opts.baseline && !opts.updateBaseline && !opts.baselineStrict;
      const reported = keepable ? await runReported(runOpts, { ...how, paths, colorLevel: c.level, cwd: process.cwd() }) : { result: await run(runOpts), keep: (pieces: Iterable<string>) => pieces };
      if ('kept' in reported) {
        warnAboutCache(reported.cacheNote);
        writeOut([reported.kept.bytes], opts.output);
        code = exitCode(reported.kept.summary, opts.maxWarnings);
        return;
      }
      const all = reported.result;
      warnAboutCache(all.extraction?.cacheNote);
      if (opts.updateBaseline) {
        writeOut(updateBaseline(all, process.cwd(), opts), undefined);
        return;
      }
      const { res, baseline } = withBaseline(all, process.cwd(), opts);
      const explain = opts.verbose ? findingExplainer(res, process.cwd(), c) : undefined;
      const gateFormat = GATE_FORMATS.find((f) => f === opts.format);
      const report =
        opts.format === 'html'
          ? [formatHtml(quietResult(res, opts.quiet), process.cwd())]
          : gateFormat
            ? [formatGate(gateFormat, quietResult(res, opts.quiet), baseline, process.cwd(), opts)]
            : opts.format === 'json'
              ? jsonChunks(quietResult(res, opts.quiet), baseline)
              : [formatStylish(res, c, opts.quiet, explain) + (baseline ? formatBaselineNote(baseline) : '')];
      writeOut(reported.keep(report), opts.output);
      code = gateExitCode(res, opts.maxWarnings, baseline);
    });

  common(
    program
      .command('list')
      .description('print the extracted route inventory')
      .argument('[paths...]', 'files or directories (default: .)'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'tree', 'json']).default('table'))
    .option('--method <methods>', 'only routes with this method (comma-separated list allowed)')
    .option('--filter <substring>', 'only routes whose path contains this')
    .option('--classification <classes>', 'only routes of this classification: contract, public, browser, excluded (comma-separated list allowed)')
    .option('--family <families>', 'only routes of this excluded family (comma-separated list allowed)')
    .action(async (paths: string[], opts: CommonOpts & RouteFilter) => {
      validateFilter(opts);
      const res = await run({ cwd: process.cwd(), paths, config: opts.config, contract: opts.contract, onProgress: progressOnStderr() });
      validateFilter(opts, Object.keys({ ...res.contract.excludedFamilies, ...(res.config.families ?? {}) }));
      const routes = filterRoutes(res.routes, opts);
      const c = makeChalk({ noColor: opts.color === false, toFile: Boolean(opts.output) });
      // (what the inventory cannot show: under a table or tree; on stderr beside JSON, which keeps its shape)
      const notes = leftOutNotes(quietResult(res, opts.quiet).findings);
      const text =
        opts.format === 'json'
          ? JSON.stringify({ routes: routes.map(routeJson) }, null, 2) + '\n'
          : opts.format === 'tree'
            ? formatTree(routes, res.contract, c, notes)
            : formatTable(routes, c, notes);
      writeOut(text, opts.output);
      if (opts.format === 'json') for (const n of notes) process.stderr.write(`route-surface: ${n}\n`);
    });

  common(
    program
      .command('explain')
      .description('why a route has or lacks each guard: registration, prefixes, guards, expectations, contract row, findings')
      .argument('<request>', '"METHOD /path" (or "/path" for every method), matched as the framework matches requests')
      .argument('[paths...]', 'files or directories (default: .)'),
  ).action(async (request: string, paths: string[], opts: CommonOpts) => {
    const spec = parseRequestSpec(request);
    const res = await run({ cwd: process.cwd(), paths, config: opts.config, contract: opts.contract, onProgress: progressOnStderr() });
    const c = makeChalk({ noColor: opts.color === false, toFile: Boolean(opts.output) });
    writeOut(formatExplain(res, spec, process.cwd(), c), opts.output);
  });

  common(
    program
      .command('diff')
      .description('the route-surface change between two git revisions: routes added, removed and changed, contract coverage, new findings')
      .requiredOption('--base <ref>', 'the base revision (branch, tag or commit)')
      .option('--head <ref>', 'the head revision (default: the work tree)')
      .argument('[paths...]', 'files or directories (default: .)'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['markdown', 'json']).default('markdown'))
    .action(async (paths: string[], opts: CommonOpts & { base: string; head?: string }) => {
      const d = await diffSurfaces({ cwd: process.cwd(), base: opts.base, head: opts.head, paths, config: opts.config, contract: opts.contract, quiet: opts.quiet });
      writeOut(opts.format === 'json' ? formatDiffJson(d) : formatDiffMarkdown(d), opts.output);
    });

  program
    .command('init')
    .description('write a starter route-surface.config.json and print pre-commit hook snippets')
    .option('--config <file>', 'the config file to write', 'route-surface.config.json')
    .option('--force', 'overwrite an existing config file')
    .action((opts: { config: string; force?: boolean }) => {
      process.stdout.write(init(process.cwd(), opts.config, Boolean(opts.force)));
    });

  program
    .command('rules')
    .description('list the rules, or print one rule\'s documentation')
    .argument('[ruleId]', 'a rule id')
    .action((ruleId: string | undefined) => {
      if (!ruleId) {
        process.stdout.write(formatRuleList(RULES));
        return;
      }
      const rule = RULES.find((r) => r.meta.id === ruleId);
      if (!rule) {
        const similar = similarRuleIds(ruleId, RULES);
        throw new UsageError(`unknown rule ${ruleId} (${similar.length > 0 ? `did you mean ${similar.join(', ')}? ` : ''}see route-surface rules)`);
      }
      process.stdout.write(formatRuleDoc(rule));
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UsageError) {
      process.stderr.write(`route-surface: ${err.message}\n`);
      return 2;
    }
    const e = err as Error;
    process.stderr.write(`route-surface: internal error: ${e.message}\n`);
    if (process.env.ROUTE_SURFACE_DEBUG) process.stderr.write(`${e.stack}\n`);
    return 2;
  }
}

function quietResult(res: RunResult, quiet: boolean | undefined): RunResult {
  return quiet ? { ...res, findings: res.findings.filter((f) => f.severity === 'error') } : res;
}
