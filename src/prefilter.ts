/**
 * The cheap text test that decides which files are parsed up front.
 *
 * The linker and the adapters read some facts by walking every file: registrations
 * (`x.get(…)`, `x.use(…)`, … — the method names of `REGISTRATION_METHODS`), calls that pass a
 * router to a function registering on its parameter or that use a package-made value
 * (`SwaggerModule.setup(…)`), adapter facts (decorators, file-system routes), and the facts
 * rules scan in every file (session / cookie configuration, session ids in responses,
 * `document.cookie`, suppression comments), and the globals a file sets (`global.app = …`),
 * which other files read by name. A file whose text shows none of them, that takes no value
 * from outside the analysed files (a package, a builtin), and that imports no file which does
 * any of this, cannot contribute such facts, and no value reached through it can be a router,
 * a package value or a function registering routes. Its facts matter only when
 * the linker follows an import into it (a guard's definition, a path constant), and then they
 * are extracted on demand (see `FactStore`). So the routes and the findings are the same with
 * or without the prefilter; a held-back file is still parsed (not walked) once, so that its
 * syntax errors are reported (collect.ts).
 */
import { REGISTRATION_METHODS } from './extract/extract.js';
import { JSON_MODULE } from './extract/json-module.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const METHODS = [...REGISTRATION_METHODS, 'cookie', 'setCookie'].map(escape).join('|');

/**
 * A member call or access with a registration-like name (`app.get`, `r?.use`, `x['post']`, a
 * comment between the dot and the name), a word that session / cookie / suppression facts
 * need, or an exported name of an HTTP method (file-system routers export `GET`, `POST` …).
 */
const SIGNAL = new RegExp(
  // (a block comment written so that it cannot hold `*/`, one way only to match a run of them: a
  // lazy `/\*[^]*?\*/` could also span several, and a `.` before a run of JSDoc blocks and no
  // method name after them took time exponential in their number — puter's FileSystem/types.js,
  // 39 of them, never ended)
  String.raw`\.\s*(?:/\*[^*]*\*+(?:[^/*][^*]*\*+)*/\s*|//[^\n]*\n\s*)*(?:${METHODS})\b` +
    String.raw`|\[\s*['"\x60](?:${METHODS})['"\x60]\s*\]` +
    String.raw`|\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b`,
);
const SIGNAL_WORDS = /session|cookie|route-surface-disable/i;
/**
 * A global set (`global.app = express()`, `globalThis['config'] = …`): other modules read it by
 * its bare name, importing nothing (Evaluator.globalDefinition reads the files parsed up front).
 */
const SETS_GLOBAL = /\b(?:global|globalThis|GLOBAL)\s*(?:\.\s*[\w$]+|\[\s*['"\x60][^'"\x60\n]+['"\x60]\s*\])\s*=(?![=>])/;

/** Files whose place in the tree makes them routes or route middleware (Next.js and the like). */
const SIGNAL_PATH = /(?:^|\/)(?:app|pages)\/|(?:^|\/)(?:middleware|proxy|route)\.[cm]?[jt]sx?$/;

/** `from 'x'`, `import 'x'`, `import('x')`, `require('x')`: every module specifier a file names. */
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"\x60])([^'"\x60\n]+)\1/g;
/** `import type … from 'x'` / `export type … from 'x'`: no value crosses these. */
const TYPE_ONLY = /\b(?:import|export)\s+type\s[^;'"\x60]*?from\s*$/;

export interface TextSignals {
  /** the file may hold facts the linker or a rule reads without being asked for them */
  signal: boolean;
  /** module specifiers it imports values from (type-only imports left out) */
  specifiers: string[];
}

/** Framework module names as they would be written in an import (`'express'`, `"@nestjs/common/…"`). */
export function frameworkModulePattern(modules: string[]): RegExp {
  return new RegExp(String.raw`['"\x60](?:${modules.map(escape).join('|')})(?:/[^'"\x60]*)?['"\x60]`);
}

/**
 * A call of a member whose name is computed, `router[verb](…)` (the method a caller names may be
 * a registration's): a `](` closing at most 80 characters of one line opened right after a name,
 * `)` or `]`. Looked for from each `](` (few in any file) rather than by one more pattern that
 * every name would start.
 */
function computedCall(text: string): boolean {
  for (let close = text.indexOf(']('); close >= 0; close = text.indexOf('](', close + 2)) {
    const open = text.lastIndexOf('[', close);
    if (open <= 0 || close - open > 81 || text.slice(open, close).includes('\n')) continue;
    if (/[\w$)\]]/.test(text[open - 1]!)) return true;
  }
  return false;
}

export function textSignals(file: string, text: string, frameworkModules: RegExp): TextSignals {
  // A JSON module (json-module.ts) is data: it registers, mounts and imports nothing.
  if (JSON_MODULE.test(file)) return { signal: false, specifiers: [] };
  const signal = SIGNAL_PATH.test(file) || SIGNAL_WORDS.test(text) || SETS_GLOBAL.test(text) || frameworkModules.test(text) || SIGNAL.test(text) || computedCall(text);
  const specifiers: string[] = [];
  SPECIFIER.lastIndex = 0;
  for (let m = SPECIFIER.exec(text); m; m = SPECIFIER.exec(text)) {
    if (TYPE_ONLY.test(text.slice(Math.max(0, m.index - 300), m.index + m[0].length - m[2]!.length - 2))) continue;
    // a copy: a piece cut from the text would keep the whole text alive as long as the signals
    specifiers.push((' ' + m[2]!).slice(1));
  }
  return { signal, specifiers: [...new Set(specifiers)] };
}

/**
 * Who imports whom, from the specifiers of every file: for each file, the files that import
 * it (by `import`, `export … from`, `require` or `import()`, type-only imports left out).
 */
export function importersGraph(
  files: string[],
  signals: Map<string, TextSignals>,
  resolve: (fromFile: string, spec: string) => string | null,
): Map<string, string[]> {
  const importers = new Map<string, string[]>();
  for (const f of files) {
    for (const spec of signals.get(f)?.specifiers ?? []) {
      const target = resolve(f, spec);
      if (target === null || target === f) continue;
      let list = importers.get(target);
      if (!list) importers.set(target, (list = []));
      list.push(f);
    }
  }
  return importers;
}

/** `start` and every file that imports one of them, directly or through other files. */
export function withImporters(start: Iterable<string>, importers: (file: string) => readonly string[]): Set<string> {
  const out = new Set<string>(start);
  const queue = [...out];
  while (queue.length > 0) {
    for (const imp of importers(queue.pop()!)) {
      if (out.has(imp)) continue;
      out.add(imp);
      queue.push(imp);
    }
  }
  return out;
}

/**
 * The files to parse up front: those with a signal, those named explicitly, and every file
 * that imports one of them (directly or through other files), since it may pass a router to
 * a function that registers routes on it.
 */
export function eagerFiles(
  files: string[],
  signals: Map<string, TextSignals>,
  resolve: (fromFile: string, spec: string) => string | null,
  importers: Map<string, string[]>,
  always: Iterable<string>,
): Set<string> {
  const start = new Set<string>(always);
  for (const f of files) {
    const s = signals.get(f);
    // A value from outside the analysed files (a package, a builtin): adapters and rules look
    // for package-made values in every file (\`SwaggerModule.setup(…)\`, \`session({…})\`).
    if (!s || s.signal || s.specifiers.some((spec) => resolve(f, spec) === null)) start.add(f);
  }
  return withImporters(start, (f) => importers.get(f) ?? []);
}
