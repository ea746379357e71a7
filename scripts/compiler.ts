/**
 * Build step (`npm run build`): dist/typescript-parser.cjs, the part of the TypeScript compiler
 * route-surface runs — the parser and what it reaches — cut from the compiler ts-morph bundles.
 *
 * Every run that parses a file loaded the whole compiler first: 9 MB of JavaScript read,
 * decoded, checked against its code cache, deserialised and initialised, about 0.2 s, a fifth of
 * a warm run after one edit on 2,000 files. route-surface calls only the names `compilerApi`
 * picks (src/extract/compiler.ts): `createSourceFile`, `forEachChild`, the node tests and a few
 * enums. The checker, the emitter, the transformers, the language service and tsserver are
 * never reached from those.
 *
 * The compiler's text is one function whose body declares everything at its top level. This
 * keeps the statements that the picked names reach, through the identifiers each statement
 * names — over-approximated: every identifier that is not a property or a declaration's own
 * name — and through the members of its namespace objects (`ts_JsDoc_exports.x` reaches `x`
 * only). Statements that are not declarations run as they do in the compiler, but for those
 * listed in DROPPED, each with why it changes nothing the parser does; any other kind of
 * statement stops the build, so a new compiler is looked at before it is cut.
 *
 * The build then checks the cut: it has every picked name, each of the same type, and it parses
 * every file of fixtures/ to the same tree (every node's kind, position, flags and text) and the
 * same diagnostics as the whole compiler; test/compiler-cut.test.ts does so with the bench's
 * generated trees.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { compilerApi, fullTypeScriptFile, PARSER_FILE } from '../src/extract/compiler.js';
import { PACKAGE_ROOT } from '../src/package-root.js';
import { parseShape, sourcesUnder } from './parse-shape.js';

type TSModule = typeof TS;

/** Statements that run when the compiler loads and are left out (why, beside each). */
const DROPPED: RegExp[] = [
  // the code fixes and refactorings of the language service register themselves in its tables
  /^registerCodeFix\(/,
  /^registerRefactor\(/,
  // the compiler's CommonJS exports, and their names for bundlers: the cut has its own
  /^module\.exports = __toCommonJS\(typescript_exports\)/,
  /^0 && \(module\.exports = \{/,
  // tsc's set-up of its `sys` host (file watching, NODE_ENV's assertion level, --debug)
  /^if \(sys && sys\.(getEnvironmentVariable|debugMode)\)/,
  // an empty block
  /^\{\s*\}$/,
];

const fullFile = fullTypeScriptFile();
const require = createRequire(import.meta.url);
const full = require(fullFile) as TSModule;
const names = Object.keys(compilerApi(full));
const text = fs.readFileSync(fullFile, 'utf8');
const sf = full.createSourceFile(fullFile, text, full.ScriptTarget.Latest, true, full.ScriptKind.JS);

/** The body of `var ts = {}; ((module) => { … })(…)`. */
function compilerBody(): readonly TS.Statement[] {
  for (const st of sf.statements) {
    if (!full.isExpressionStatement(st) || !full.isCallExpression(st.expression)) continue;
    const callee = st.expression.expression;
    if (full.isParenthesizedExpression(callee) && full.isArrowFunction(callee.expression) && full.isBlock(callee.expression.body)) return callee.expression.body.statements;
  }
  throw new Error(`${fullFile}: not the compiler's layout (no top-level function holding it)`);
}

const body = compilerBody();
const textOf = (n: TS.Node): string => text.slice(n.getStart(sf), n.end);
const fail = (st: TS.Node, why: string): never => {
  throw new Error(`${fullFile}:${sf.getLineAndCharacterOfPosition(st.getStart(sf)).line + 1}: ${why}: ${textOf(st).slice(0, 80)}`);
};

/** `__export(ns, { member: () => target, … })`: the namespace object's name and members. */
function namespaceExport(st: TS.Statement): { ns: string; members: Map<string, string> } | null {
  if (!full.isExpressionStatement(st) || !full.isCallExpression(st.expression)) return null;
  const call = st.expression;
  if (!full.isIdentifier(call.expression) || call.expression.text !== '__export') return null;
  const [target, all] = call.arguments;
  if (!target || !all || !full.isIdentifier(target) || !full.isObjectLiteralExpression(all)) return fail(st, 'an __export call of another shape');
  const members = new Map<string, string>();
  for (const p of all.properties) {
    if (!full.isPropertyAssignment(p) || !full.isIdentifier(p.name) || !full.isArrowFunction(p.initializer) || !full.isIdentifier(p.initializer.body)) return fail(st, 'an __export member of another shape');
    members.set(p.name.text, p.initializer.body.text);
  }
  return { ns: target.text, members };
}

/**
 * The top-level name a statement that is not a declaration sets up: `X.y = …` and
 * `((X2) => { … })(X || (X = {}))` (a namespace's body) set up X.
 */
function subjectOf(st: TS.ExpressionStatement): string | null {
  const e = st.expression;
  if (full.isBinaryExpression(e) && e.operatorToken.kind === full.SyntaxKind.EqualsToken) {
    let left = e.left;
    while (full.isPropertyAccessExpression(left) || full.isElementAccessExpression(left)) left = left.expression;
    return full.isIdentifier(left) ? left.text : null;
  }
  if (full.isCallExpression(e) && full.isParenthesizedExpression(e.expression) && full.isArrowFunction(e.expression.expression) && e.arguments.length === 1) {
    let arg = e.arguments[0]!;
    if (full.isBinaryExpression(arg)) arg = arg.left;
    while (full.isPropertyAccessExpression(arg)) arg = arg.expression;
    return full.isIdentifier(arg) ? arg.text : null;
  }
  return null;
}

const declaredAt = new Map<string, number[]>();
const namespaces = new Map<string, { members: Map<string, string>; at: number }>();
const roots: number[] = [];
const declare = (name: string, i: number): void => {
  declaredAt.set(name, [...(declaredAt.get(name) ?? []), i]);
};
body.forEach((st, i) => {
  if ((full.isFunctionDeclaration(st) || full.isClassDeclaration(st)) && st.name) return declare(st.name.text, i);
  if (full.isVariableStatement(st)) {
    for (const d of st.declarationList.declarations) {
      if (!full.isIdentifier(d.name)) fail(st, 'a destructuring declaration');
      declare((d.name as TS.Identifier).text, i);
    }
    return;
  }
  const exported = namespaceExport(st);
  if (exported) {
    if (exported.ns !== 'typescript_exports') namespaces.set(exported.ns, { members: exported.members, at: i });
    return;
  }
  const subject = full.isExpressionStatement(st) ? subjectOf(st) : null;
  if (subject) return declare(subject, i);
  if (DROPPED.some((re) => re.test(textOf(st)))) return;
  // what else runs when the compiler loads: kept, with all it reaches
  if (full.isExpressionStatement(st) && /^("use strict"|setObjectAllocator\(|Debug\.)/.test(textOf(st))) return roots.push(i);
  if (full.isIfStatement(st) && /^if \(typeof console !== "undefined"\) \{\s*Debug\.loggingHost = /.test(textOf(st))) return roots.push(i);
  fail(st, 'a statement the cut does not know');
});

/** The top-level names a statement reads: identifiers, but for properties and declared names; `ns.member` for a namespace object's members. */
function namesRead(st: TS.Statement): Set<string> {
  const read = new Set<string>();
  const visit = (n: TS.Node): void => {
    if (full.isIdentifier(n)) {
      const p = n.parent;
      const named = (full.isPropertyAccessExpression(p) || full.isPropertyAssignment(p) || full.isMethodDeclaration(p) || full.isPropertyDeclaration(p) || full.isGetAccessor(p) || full.isSetAccessor(p) || full.isVariableDeclaration(p) || full.isFunctionDeclaration(p) || full.isClassDeclaration(p)) && p.name === n;
      if (!named) read.add(namespaces.has(n.text) && full.isPropertyAccessExpression(p) && p.expression === n ? `${n.text}.${p.name.text}` : n.text);
    }
    full.forEachChild(n, visit);
  };
  visit(st);
  return read;
}

const kept = new Set<number>();
const queue: number[] = [];
const membersUsed = new Map<string, Set<string> | 'all'>();
const keep = (i: number): void => {
  if (kept.has(i)) return;
  kept.add(i);
  queue.push(i);
};
function reach(name: string): void {
  const dot = name.indexOf('.');
  const nsName = dot > 0 ? name.slice(0, dot) : name;
  const ns = namespaces.get(nsName);
  if (ns) {
    const used = membersUsed.get(nsName) ?? new Set<string>();
    membersUsed.set(nsName, used);
    if (dot < 0) {
      // the namespace object itself: every member
      if (used !== 'all') {
        membersUsed.set(nsName, 'all');
        for (const target of ns.members.values()) reach(target);
      }
    } else if (used !== 'all' && !used.has(name.slice(dot + 1))) {
      used.add(name.slice(dot + 1));
      const target = ns.members.get(name.slice(dot + 1));
      if (target) reach(target);
    }
    keep(ns.at);
  }
  for (const i of declaredAt.get(nsName) ?? []) keep(i);
}
for (const name of [...names, '__export']) reach(name);
for (const i of roots) keep(i);
const namespaceAt = new Set([...namespaces.values()].map((n) => n.at));
while (queue.length > 0) {
  const i = queue.shift()!;
  // a namespace's __export reaches its members one by one (reach above)
  if (!namespaceAt.has(i)) for (const name of namesRead(body[i]!)) reach(name);
}

const out: string[] = [];
body.forEach((st, i) => {
  if (!kept.has(i)) return;
  const exported = namespaceAt.has(i) ? namespaceExport(st) : null;
  if (!exported) return out.push(textOf(st));
  const used = membersUsed.get(exported.ns)!;
  const members = [...exported.members].filter(([m]) => used === 'all' || used.has(m));
  out.push(`__export(${exported.ns}, {\n${members.map(([m, target]) => `  ${m}: () => ${target}`).join(',\n')}\n});`);
});
const version = (full as unknown as { version: string }).version;
const header = `/* The TypeScript ${version} parser, cut from ${path.relative(PACKAGE_ROOT, fullFile)} by scripts/compiler.ts (Apache-2.0, Copyright (c) Microsoft Corporation). */\n`;
const tmp = `${PARSER_FILE}.${process.pid}.tmp.cjs`;
fs.mkdirSync(path.dirname(PARSER_FILE), { recursive: true });
fs.writeFileSync(tmp, `${header}${out.join('\n')}\nmodule.exports = { ${names.join(', ')} };\n`);
let samples: string[];
try {
  samples = checkCut(require(tmp) as TSModule);
} catch (err) {
  fs.rmSync(tmp, { force: true });
  throw err;
}
fs.renameSync(tmp, PARSER_FILE);
console.log(`${path.relative(PACKAGE_ROOT, PARSER_FILE)}: ${kept.size} of ${body.length} statements, ${(fs.statSync(PARSER_FILE).size / 2 ** 20).toFixed(1)} MiB; parses ${samples.length} fixture files as the compiler does`);

/** The cut against the whole compiler: the same picked names, the same trees of the fixtures (returned). */
function checkCut(cut: TSModule): string[] {
  for (const name of names) {
    const [a, b] = [(full as unknown as Record<string, unknown>)[name], (cut as unknown as Record<string, unknown>)[name]];
    if (typeof a !== typeof b || (typeof a === 'object' && JSON.stringify(a) !== JSON.stringify(b))) throw new Error(`${PARSER_FILE}: ${name} differs from the compiler's`);
  }
  const files = sourcesUnder(path.join(PACKAGE_ROOT, 'fixtures'));
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    if (parseShape(full, file, source) !== parseShape(cut, file, source)) throw new Error(`${PARSER_FILE}: parses ${path.relative(PACKAGE_ROOT, file)} unlike the compiler`);
  }
  return files;
}
