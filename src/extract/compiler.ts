/**
 * The TypeScript compiler route-surface parses with: the one ts-morph bundles (pinned with
 * ts-morph; the `typescript` devDependency is the same version, for the type definitions).
 *
 * It is loaded synchronously and only when a file has to be parsed: a run that takes every
 * fact from the cache never loads it. Only the compiler module itself is loaded (the rest of
 * ts-morph — its wrapper classes, file system host, glob — is never used), from the code V8
 * compiled at build time when it fits (code-cache.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { PACKAGE_ROOT } from '../package-root.js';
import { requireCached, type CodeCacheUse } from './code-cache.js';

/**
 * What route-surface uses of the compiler, as an object of its own. The compiler's module
 * object has thousands of properties, so V8 keeps it as a hash table and every `ts.isX(node)`
 * of a walk looked its function up by name; an object literal of the few used has fixed
 * slots. Measured on the bench's 2,000-file tree: extracting every file about 20 % faster
 * (2.6 s -> 2.15 s), a cold `check` about 8 %. The type is this object's, so using anything
 * else of the compiler fails to compile until it is added here.
 */
export function compilerApi(ts: typeof TS) {
  return {
    JSDocParsingMode: ts.JSDocParsingMode,
    LanguageVariant: ts.LanguageVariant,
    ScriptKind: ts.ScriptKind,
    ScriptTarget: ts.ScriptTarget,
    SyntaxKind: ts.SyntaxKind,
    canHaveDecorators: ts.canHaveDecorators,
    canHaveModifiers: ts.canHaveModifiers,
    createScanner: ts.createScanner,
    createSourceFile: ts.createSourceFile,
    flattenDiagnosticMessageText: ts.flattenDiagnosticMessageText,
    forEachChild: ts.forEachChild,
    getDecorators: ts.getDecorators,
    getLeadingCommentRanges: ts.getLeadingCommentRanges,
    getLineAndCharacterOfPosition: ts.getLineAndCharacterOfPosition,
    getModifiers: ts.getModifiers,
    getTrailingCommentRanges: ts.getTrailingCommentRanges,
    isArrayLiteralExpression: ts.isArrayLiteralExpression,
    isArrayBindingPattern: ts.isArrayBindingPattern,
    isArrowFunction: ts.isArrowFunction,
    isAsExpression: ts.isAsExpression,
    isAwaitExpression: ts.isAwaitExpression,
    isBinaryExpression: ts.isBinaryExpression,
    isBlock: ts.isBlock,
    isCallExpression: ts.isCallExpression,
    isClassDeclaration: ts.isClassDeclaration,
    isClassExpression: ts.isClassExpression,
    isComputedPropertyName: ts.isComputedPropertyName,
    isConditionalExpression: ts.isConditionalExpression,
    isConstructorDeclaration: ts.isConstructorDeclaration,
    isElementAccessExpression: ts.isElementAccessExpression,
    isEnumDeclaration: ts.isEnumDeclaration,
    isExportAssignment: ts.isExportAssignment,
    isExportDeclaration: ts.isExportDeclaration,
    isExpression: ts.isExpression,
    isExpressionStatement: ts.isExpressionStatement,
    isExternalModuleReference: ts.isExternalModuleReference,
    isFunctionDeclaration: ts.isFunctionDeclaration,
    isFunctionExpression: ts.isFunctionExpression,
    isForOfStatement: ts.isForOfStatement,
    isFunctionLike: ts.isFunctionLike,
    isGetAccessor: ts.isGetAccessor,
    isIdentifier: ts.isIdentifier,
    isIfStatement: ts.isIfStatement,
    isImportDeclaration: ts.isImportDeclaration,
    isImportEqualsDeclaration: ts.isImportEqualsDeclaration,
    isMethodDeclaration: ts.isMethodDeclaration,
    isNamedExports: ts.isNamedExports,
    isNamedImports: ts.isNamedImports,
    isNamespaceExport: ts.isNamespaceExport,
    isNamespaceImport: ts.isNamespaceImport,
    isNewExpression: ts.isNewExpression,
    isNonNullExpression: ts.isNonNullExpression,
    isNumericLiteral: ts.isNumericLiteral,
    isObjectBindingPattern: ts.isObjectBindingPattern,
    isObjectLiteralExpression: ts.isObjectLiteralExpression,
    isOmittedExpression: ts.isOmittedExpression,
    isParenthesizedExpression: ts.isParenthesizedExpression,
    isPrefixUnaryExpression: ts.isPrefixUnaryExpression,
    isPrivateIdentifier: ts.isPrivateIdentifier,
    isPropertyAccessExpression: ts.isPropertyAccessExpression,
    isPropertyAssignment: ts.isPropertyAssignment,
    isPropertyDeclaration: ts.isPropertyDeclaration,
    isReturnStatement: ts.isReturnStatement,
    isShorthandPropertyAssignment: ts.isShorthandPropertyAssignment,
    isSpreadAssignment: ts.isSpreadAssignment,
    isSpreadElement: ts.isSpreadElement,
    isStringLiteral: ts.isStringLiteral,
    isStringLiteralLike: ts.isStringLiteralLike,
    isTemplateExpression: ts.isTemplateExpression,
    isThrowStatement: ts.isThrowStatement,
    isTryStatement: ts.isTryStatement,
    isTypeOfExpression: ts.isTypeOfExpression,
    isVariableDeclaration: ts.isVariableDeclaration,
    isVariableDeclarationList: ts.isVariableDeclarationList,
    isVariableStatement: ts.isVariableStatement,
  };
}

export type TSModule = ReturnType<typeof compilerApi>;

const require = createRequire(import.meta.url);

let loaded: TSModule | null = null;
let codeCache: CodeCacheUse | null = null;

/** Where the build writes the compiler's compiled code (code-cache.ts, scripts/code-cache.ts). */
export const CODE_CACHE_FILE = path.join(PACKAGE_ROOT, 'dist', 'typescript.code-cache');

/** Where the build writes the parser cut from the compiler (scripts/compiler.ts). */
export const PARSER_FILE = path.join(PACKAGE_ROOT, 'dist', 'typescript-parser.cjs');

/** The whole compiler's module file, in ts-morph's package. */
export function fullTypeScriptFile(): string {
  return createRequire(require.resolve('ts-morph')).resolve('@ts-morph/common/dist/typescript.js');
}

/**
 * The compiler module route-surface loads: the parser the build cut from it, a sixth of its
 * size and as much faster to load; the whole compiler where the build step has not run (a
 * plain `tsc`, as `npm run real-world` builds).
 */
export function typeScriptFile(): string {
  return fs.existsSync(PARSER_FILE) ? PARSER_FILE : fullTypeScriptFile();
}

export function loadTypeScript(): TSModule {
  if (loaded) return loaded;
  let ts: typeof TS;
  try {
    const r = requireCached(typeScriptFile(), CODE_CACHE_FILE);
    ts = r.exports as typeof TS;
    codeCache = r.cache;
  } catch {
    // A ts-morph whose layout differs: its public `ts` export is the same compiler.
    ts = (createRequire(require.resolve('ts-morph'))('ts-morph') as { ts: typeof TS }).ts;
  }
  loaded = compilerApi(ts);
  return loaded;
}

/** Whether the compiler was loaded from the code cache (or why not); null before it is loaded, or when it was loaded through ts-morph. */
export function typeScriptCodeCache(): CodeCacheUse | null {
  return codeCache;
}

/** ts-morph's version, which pins the compiler it bundles (read from its package.json, without loading it). */
export function tsMorphVersion(): string {
  let dir = path.dirname(require.resolve('ts-morph'));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) return (JSON.parse(fs.readFileSync(pj, 'utf8')) as { version: string }).version;
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
