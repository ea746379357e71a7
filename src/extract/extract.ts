/**
 * Per-file extraction: one walk over the compiler's own nodes (no ts-morph wrappers,
 * no type checker) turning a file into plain `FileFacts`.
 */
import type { ts as TS } from 'ts-morph';
import type {
  DocumentCookieRead,
  Behaviour,
  Protection,
  SkipFor,
  SkipTest,
  GlobTest,
  Cond,
  CondTest,
  CookieFact,
  EncodedBinding,
  FlagCondition,
  Expr,
  FileFacts,
  FunctionFact,
  ItemFilter,
  LeadingGuard,
  Loc,
  RegistrationFact,
  ResponseField,
  Scope,
} from '../types.js';
import type { Adapter } from '../adapters/adapter.js';
import { DEFAULT_BUDGETS, Deadline, FileBudgetExceeded, isStackOverflow, lineAndColumn, tooDeepBracket, tooDeepNode, type Budgets } from '../budgets.js';
import type { TSModule } from './compiler.js';
import { bindingOf, isEncoded } from './facts-text.js';
import { faithfulTwin, latin1Twin } from './one-byte.js';
import { JSON_MODULE, jsonModuleFacts, jsonSyntaxError } from './json-module.js';
import { FLOW_COOKIE_NAME } from '../cookie-names.js';

/**
 * "team" as a word of a name (`withTeamPermission`, `requireTeam`, `team_guard`, `TEAM_ACCESS`,
 * `teamId`), not inside another word (`steamAuth`): many hosted products' tenant is a team
 * (midday's, cal.com's).
 */
export const TEAM_WORD = /(?<![A-Za-z])team|Team|(?<![A-Za-z])TEAM/;
const TENANT_WORDS = /tenant|organi[sz]ation|\borg(Id|_id|s)?\b|orgId|workspace|membership/i;
/** A name for the tenant, or a team, in the code a check compares or a lookup is keyed by (`teamId`, `organizationId`). */
export const TENANT_RE = { test: (name: string): boolean => TENANT_WORDS.test(name) || TEAM_WORD.test(name) };
/**
 * A session that is no sign-in's, by the call making it: a payment provider's
 * (`stripe.checkout.sessions.create`, `stripe.billingPortal.sessions.create`, a helper named so,
 * unkey's `retrieveWorkspaceCheckoutSession`), or one named for the work it is a session of
 * (`importSessionsService.create`, karakeep's import jobs; `chatSessions.start`,
 * `upload_sessions.insert`).
 */
const OTHER_SESSION =
  /\b(checkout|billingPortal|billing_portal|payments?)\b|(?:checkout|billing_?portal|payment|import|upload|chat|conversation|game|meeting|call|voice|recording|terminal|ssh|shell|study|quiz|workout|practice|training|sync|crawl|scan|agent|interview|playback|streaming)_?sessions?/i;
const SESSION_EXPOSURE_RE =
  /\bsession(ID|Id|_id)\b|\bsession\.id\b|\bcookies\b[^;]*\b(sess|sid|connect\.sid)/i;
const RESPONSE_METHODS = new Set(['json', 'send', 'end', 'sendStatus', 'render', 'redirect', 'sendFile', 'jsonp', 'text', 'html', 'body']);
/** Methods that write a response (`res.status(200)`, `res.cookie(…)`, `reply.code(…)`), the sending ones included. */
const RESPONSE_WRITES = new Set([...RESPONSE_METHODS, 'status', 'cookie', 'clearCookie', 'setCookie', 'set', 'setHeader', 'header', 'headers', 'append', 'type', 'code', 'location', 'attachment', 'vary', 'removeHeader', 'writeHead', 'write']);
const SESSION_COOKIE_NAME_RE = /sess|^sid$|\.sid$|auth/i;

/** A cookie name a session goes by (SESSION_COOKIE_NAME_RE), not one of a sign-in flow's steps (FLOW_COOKIE_NAME). */
function isSessionCookieName(name: string): boolean {
  return SESSION_COOKIE_NAME_RE.test(name) && !FLOW_COOKIE_NAME.test(name);
}

interface Ctx {
  ts: TSModule;
  sf: TS.SourceFile;
  /** the text parsed: the file's, or its one-byte twin (one-byte.ts) */
  text: string;
  /** the file's text as written, where slices of a twin holding `mark` are cut from (textBetween) */
  original: string;
  /** the twin's mark, or null when the file's own text was parsed */
  mark: string | null;
  facts: FileFacts;
  adapters: Adapter[];
  /** the file's time budget, ticked by the walks */
  deadline: Deadline;
  /** one `ref` per name and scope (facts are never mutated): the many uses of a name share it */
  refs: Map<string, Expr>[];
  /** one `member` per object and property, when the object is itself one of a kind (a `ref`, a `member`): `req.params.id` read again shares it */
  members: Map<Expr, Map<string, Expr>>;
  /** where the file spells the words wordsOf looks for */
  words: WordSpans;
  /** where the file spells the word `this` ([start, end, …]), found when first asked (literalSelf) */
  thisSpans: number[] | null;
  /** the error classes the file declares with a status of their own (errorClassStatuses), by name */
  errorClasses: ReadonlyMap<string, number> | null;
  /** the file names a CSRF token somewhere (CSRF_RE): only then can a leading `if` compare one */
  csrf: boolean;
  /** the file computes an HMAC somewhere (`createHmac(`): only then can a leading `if` compare one */
  hmac: boolean;
  /** the file spells `elysia` somewhere (an import of it, its type): only then are ELYSIA_METHODS registrations */
  elysia: boolean;
  /** the file reads a credential header somewhere (CREDENTIAL_HEADER): only then can a function take its credential from one */
  header: boolean;
  /** the file reads a secret of the deployment somewhere (ENV_SECRET): only then can a leading `if` compare one */
  secret: boolean;
  /** what the behaviour walk found in each function body walked so far (BodySummary) */
  summaries: Map<TS.Node, BodySummary>;
  /**
   * inside a class's members: what `this` is (the class's instance fields, THIS_PREFIX + its name);
   * `injects`, the class is decorated, so a container makes it and passes its constructor's
   * parameters by their type (dependency injection: NestJS, TypeDI, tsyringe)
   */
  thisRef: { name: string; scope: number; fields: Record<string, Expr>; base: string | null; extendsAny: boolean; superArgs: Expr[] | null; injects: boolean } | null;
  /** the classes whose members are being walked, innermost last: their names and static members */
  classes: { name: string; statics: Record<string, Expr>; node: TS.ClassLikeDeclaration }[];
  /** what TypeScript's decorator emit hands `__decorate` in the file, by class (decorationsOf; made when first asked) */
  decorations: Map<string, Decorations> | null;
  /** a function of the file gave a property of a parameter a constructed value (SET_PREFIX): reads of properties look for one */
  paramSets: boolean;
  /**
   * Classes written as a constructor function and methods assigned to its prototype
   * (prototypeClasses): what `this` is in each of those functions, by the function's node
   */
  prototypes: Map<TS.Node, { self: NonNullable<Ctx['thisRef']>; method: string | null }> | null;
  /** the bindings of rest parameters (`...args`), whose elements are the arguments from their place on */
  restParams: Set<Expr>;
  /** calls whose answer is handed to `.then` / `.catch` / `.finally`, marked before they are read (onCall) */
  promised: Set<TS.Node>;
  /** callbacks given to `.filter(…)` whose body is an expression or returns one: their return is kept as a test (makeFunctionIn) */
  predicates: Set<TS.Node>;
  /** rejection handlers of the promise of a call handing the request on (`next().catch((err) => …)`): what they rethrow, the rest of the chain threw (analyseBehaviour) */
  rejections: Set<TS.Node>;
  /** the conditions the statement visited runs under, in the function (or module) it is in, outermost first */
  when: Cond[];
  /** the Exprs the walk made of the file's calls, shared by the leading calls and the returned ones (leadingCall, shallowExpr) */
  calls: Map<TS.CallExpression, Extract<Expr, { k: 'call' }>>;
  /** the conditions each `return` in a function runs under, in that function (none for one under none): FunctionFact.returnsWhen */
  returnWhen: Map<TS.Node, Cond[]>;
  /** the function fact made of each function node walked so far, by node (madeFunction) */
  fnIds: Map<TS.Node, number>;
  /** the list a `forEach` / `map` / `filter` callback goes over, by the callback's node: bound as EACH before its body is walked */
  eachList: Map<TS.Node, Expr>;
  /** how many loops (`for`, `while`, `do`) enclose the statement visited, in the function it is in (or the module) */
  loops: number;
  /** `document.cookie` reads picking out the cookie a parameter of their function names (helperPicks) */
  cookieParams: { read: DocumentCookieRead; fn: number; index: number; ref: Expr }[];
}

/** `*this*App`: the binding (beside the class's own) holding a class's instance fields as an object. */
export const THIS_PREFIX = '*this*';
/** `*reassigned*mode`: the binding (beside the name's own) telling that the name is assigned again after its first value. */
export const REASSIGNED = '*reassigned*';
/**
 * `*stale*route`: beside REASSIGNED, telling that an assignment after the first value was not
 * read into the name's binding (in a loop, in another function, of a value not read so: `p = '/b'`
 * under no condition), so that the binding may not hold what the name holds later.
 */
export const STALE = '*stale*';
/** `*ctor*App`: the binding (beside the class's own) of a class's constructor, which `new App(…)` calls. */
export const CTOR_PREFIX = '*ctor*';
/**
 * `*set*keystone.app`: the binding (in the scope of the parameter `keystone`) of what the
 * function first gives a property of that parameter, when it constructs it (`keystone.app =
 * express()`): the function's reads of the property are the caller's value or that one.
 */
const SET_PREFIX = '*set*';
/** `*global*app`: the binding (in the module's scope) of what the module gives a global (`global.app = express()`). */
export const GLOBAL_PREFIX = '*global*';
/** The names of the global object a module sets globals on: `global.app = …`, `globalThis.app = …`. */
export const GLOBAL_OBJECTS = new Set(['global', 'globalThis', 'GLOBAL']);

/** Names not bound in a module whose properties are not those of a global the code sets: CommonJS's, Node's and the browser's own. */
const NOT_GLOBAL_HOLDERS = new Set(['exports', 'module', 'process', 'console', 'window', 'document', 'self', 'navigator', 'location', 'Object', 'Array', 'JSON', 'Math', 'Error', 'Promise', 'Reflect', 'Symbol', 'Buffer']);
/**
 * In a class's instance fields (`*this*Users`), what it inherits: `new Base(…)` of the class it
 * extends, with the arguments its constructor passes to `super(…)`. A spread (Evaluator.member):
 * the class's own fields win over it.
 */
export const SUPER = '*spread*super';
/** The method of a registration whose method is an expression (`this.app[options.method](…)`, RegistrationFact.methodExpr). */
export const COMPUTED_METHOD = '*computed*';
/**
 * An object given a property for each key of another (`Object.keys(controller).forEach((key) => {
 * wrapped[key] = asyncHandler(controller[key]) })`): its properties `*keyed*of` (the other
 * object), `*keyed*key` (the loop's variable) and `*keyed*value` (what is assigned, read with the
 * variable as the key asked for: Evaluator.member).
 */
export const KEYED = '*keyed*';

function refOf(ctx: Ctx, name: string, scope: number): Expr {
  let m = ctx.refs[scope];
  if (m === undefined) ctx.refs[scope] = m = new Map();
  let r = m.get(name);
  if (r === undefined) m.set(name, (r = { k: 'ref', name, scope }));
  return r;
}

/** `obj.prop`: shared with every other read of the same property of the same shared object (Ctx.members). */
function memberOf(ctx: Ctx, obj: Expr, prop: string): Expr {
  if (obj.k !== 'ref' && obj.k !== 'member') return { k: 'member', obj, prop };
  let m = ctx.members.get(obj);
  if (m === undefined) ctx.members.set(obj, (m = new Map()));
  let e = m.get(prop);
  if (e === undefined) m.set(prop, (e = { k: 'member', obj, prop }));
  return e;
}

export function emptyFacts(file: string): FileFacts {
  return {
    file,
    parseError: null,
    imports: [],
    exports: [],
    scopes: [{ id: 0, parent: null, bindings: {} }],
    functions: [],
    registrations: [],
    calls: [],
    cookies: [],
    documentCookieReads: [],
    suppressions: [],
    adapterFacts: {},
  };
}

export function locOf(ctx: { ts: TSModule; sf: TS.SourceFile }, node: TS.Node): Loc {
  return locAt(ctx, node.getStart(ctx.sf));
}

/** The line and column of an offset (a node's start, where both are wanted). */
function locAt(ctx: { ts: TSModule; sf: TS.SourceFile }, pos: number): Loc {
  const { line, character } = ctx.ts.getLineAndCharacterOfPosition(ctx.sf, pos);
  return { line: line + 1, column: character + 1 };
}

/** The trimmed text of a 1-based line, through the source file's own line map (linear scans per call were quadratic on big files). */
function lineText(ctx: Ctx, line: number): string {
  const starts = ctx.sf.getLineStarts();
  const start = starts[line - 1];
  if (start === undefined) return '';
  const end = starts[line] ?? ctx.text.length;
  return textBetween(ctx, start, Math.min(end, start + 4096)).trim().slice(0, 300);
}

/** The file's text between two offsets, as written: from the twin parsed unless it holds the mark there. */
function textBetween(ctx: Ctx, start: number, end: number): string {
  const s = ctx.text.slice(start, end);
  return ctx.mark !== null && s.includes(ctx.mark) ? ctx.original.slice(start, end) : s;
}

/** A node's text as written (`node.getText()`), its first `max` characters. */
function textOf(ctx: Ctx, node: TS.Node, max = Infinity): string {
  const start = node.getStart(ctx.sf);
  return textBetween(ctx, start, Math.min(node.end, start + max));
}

/**
 * How files are parsed: the newest syntax, no parent pointers (setting them costs a quarter of
 * the parse; the walks keep the ancestors they need themselves) and JSDoc comments left
 * unparsed (nothing reads them; syntax errors are found the same).
 */
export function parseOptions(ts: TSModule): TS.CreateSourceFileOptions {
  return { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
}

/** How the compiler reads a file: TSX, JSX (all JavaScript, which may hold JSX) or TS. */
export function scriptKindOf(ts: TSModule, file: string): TS.ScriptKind {
  return /\.tsx$/.test(file) ? ts.ScriptKind.TSX : /\.(jsx?|mjs|cjs)$/.test(file) ? ts.ScriptKind.JSX : ts.ScriptKind.TS;
}

/**
 * Does the file fail to parse? A file held back by the prefilter is only parsed, to report a
 * syntax error anywhere. The parser's own stack overflow (nesting the token budget does not
 * see) throws: the caller decides (extraction reports it against the budgets).
 */
export function hasSyntaxError(ts: TSModule, file: string, text: string): boolean {
  if (JSON_MODULE.test(file)) return jsonSyntaxError(text);
  return syntaxErrors(ts, parseOnly(ts, file, text)).length > 0;
}

/**
 * hasSyntaxError on a worker thread, whose stack is not the main thread's: where the parser
 * runs out of stack depends on the thread, so a file nested deeper than `maxDepth` gets no
 * verdict here (null) and is left to the main thread.
 */
export function hasSyntaxErrorOffMain(ts: TSModule, file: string, text: string, maxDepth: number): boolean | null {
  if (JSON_MODULE.test(file)) return jsonSyntaxError(text);
  const sf = parseOnly(ts, file, text);
  return tooDeepNode(ts, sf, maxDepth) ? null : syntaxErrors(ts, sf).length > 0;
}

/**
 * The file parsed: as its one-byte twin when it has one and the twin's parse is faithful
 * (one-byte.ts), with the twin's mark; else as written, with no mark. (Exported for the bench's
 * parse of every file as a check parses it, bench/floor.mjs.)
 */
export function parseFaithfully(ts: TSModule, file: string, text: string): { sf: TS.SourceFile; mark: string | null } {
  const twin = latin1Twin(text);
  if (twin !== null) {
    const sf = parseOnly(ts, file, twin.text);
    if (faithfulTwin(ts, sf, twin.mark)) return { sf, mark: twin.mark };
  }
  return { sf: parseOnly(ts, file, text), mark: null };
}

function parseOnly(ts: TSModule, file: string, text: string): TS.SourceFile {
  return ts.createSourceFile(file, text, parseOptions(ts), false, scriptKindOf(ts, file));
}

/**
 * A file marked for Flow (`@flow` or `@noflow` in a comment before its first token, where Flow
 * reads its pragma): JavaScript with Flow's type syntax, most of which the compiler
 * reads as TypeScript's, but not all (a cast `(value: any)`, `static f: (T) => void`). Its
 * syntax error says so; what the parser recovered of the file is analysed as any broken file's.
 */
const FLOW_PRAGMA = /@(?:no)?flow\b/;
const FLOW_HINT = " (the file is marked @flow: Flow's type syntax is not all TypeScript's, which route-surface reads)";

/**
 * Annex B's legacy forms (`0755`, `08`, `'\033'`, `'\8'`): JavaScript allows them outside strict
 * mode, but the compiler reports them in every file (TS1121, TS1487, TS1488, TS1489).
 */
const SLOPPY_ONLY = new Set([1121, 1487, 1488, 1489]);

/**
 * The syntax errors the parser found in `sf` — but for Annex B's legacy forms in a JavaScript
 * script not in strict mode (CommonJS, no `'use strict'` directive, no `import` or `export`:
 * wekan's vendored `jade` CLI calls `mkdirp(dir, 0755, …)`), where they are JavaScript. In a
 * template literal, an escape like `\033` is an error in every mode, and stays one.
 */
function syntaxErrors(ts: TSModule, sf: TS.SourceFile): readonly TS.DiagnosticWithLocation[] {
  const diags = (sf as unknown as { parseDiagnostics?: TS.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  if (diags.length === 0 || !diags.some((d) => SLOPPY_ONLY.has(d.code)) || !sloppyScript(ts, sf)) return diags;
  return diags.filter((d) => !SLOPPY_ONLY.has(d.code) || inTemplateLiteral(ts, sf, d.start));
}

/**
 * A JavaScript file read as a script outside strict mode: no `import` / `export`, no `'use strict'`
 * directive first. (A `.js` file of a package whose `type` is `module` is a module, strict, even
 * without them: the file's text alone does not say so, and such a file is read as a script.)
 */
function sloppyScript(ts: TSModule, sf: TS.SourceFile): boolean {
  if (!/\.(js|jsx|cjs)$/.test(sf.fileName)) return false;
  const K = ts.SyntaxKind;
  let prologue = true;
  for (const st of sf.statements) {
    if (prologue && ts.isExpressionStatement(st) && ts.isStringLiteral(st.expression)) {
      if (st.expression.text === 'use strict') return false;
      continue;
    }
    prologue = false;
    if (ts.isImportDeclaration(st) || ts.isExportDeclaration(st) || ts.isExportAssignment(st) || hasModifier(ts, st, K.ExportKeyword)) return false;
  }
  return true;
}

/** Is position `pos` of `sf` inside a template literal (its text, not an expression in it)? */
function inTemplateLiteral(ts: TSModule, sf: TS.SourceFile, pos: number): boolean {
  const K = ts.SyntaxKind;
  let n: TS.Node = sf;
  for (;;) {
    const child: TS.Node | undefined = ts.forEachChild(n, (c) => (c.pos <= pos && pos < c.end ? c : undefined));
    if (!child) return false;
    if (child.kind >= K.FirstTemplateToken && child.kind <= K.LastTemplateToken) return true;
    n = child;
  }
}

/**
 * Extract a file's facts within its budgets (src/budgets.ts). A file that cannot be analysed
 * within them (too slow, nested too deeply, or too deep for the parser's stack) yields facts
 * holding only a `parseError` that says why.
 */
export function extractFacts(
  ts: TSModule,
  file: string,
  text: string,
  adapters: Adapter[],
  budgets: Pick<Budgets, 'maxFileMs' | 'maxNestingDepth'> = DEFAULT_BUDGETS,
): FileFacts {
  const deadline = new Deadline(budgets.maxFileMs);
  const notAnalysed = (message: string, at: Loc): FileFacts => ({ ...emptyFacts(file), parseError: { message, at } });
  if (JSON_MODULE.test(file)) return jsonModuleFacts(text, budgets.maxNestingDepth, emptyFacts(file));
  try {
    return extractWithin(ts, file, text, adapters, budgets.maxNestingDepth, deadline, notAnalysed);
  } catch (err) {
    if (err instanceof FileBudgetExceeded) return notAnalysed(`${err.message}; not analysed`, { line: 1, column: 1 });
    if (isStackOverflow(err)) return notAnalysed('nested too deeply to analyse (stack overflow); not analysed', { line: 1, column: 1 });
    throw err;
  }
}

function extractWithin(
  ts: TSModule,
  file: string,
  text: string,
  adapters: Adapter[],
  maxNestingDepth: number,
  deadline: Deadline,
  notAnalysed: (message: string, at: Loc) => FileFacts,
): FileFacts {
  const facts = emptyFacts(file);
  const kind = scriptKindOf(ts, file);
  const body = text.replace(/^\uFEFF/, '');
  const tooDeep = `syntax nested deeper than budgets.maxNestingDepth (${maxNestingDepth}); not analysed`;
  // Brackets nested past the budget are found in the tokens, before the parser recurses on them.
  const deepBracket = tooDeepBracket(ts, body, kind !== ts.ScriptKind.TS, maxNestingDepth);
  if (deepBracket !== null) return notAnalysed(tooDeep, lineAndColumn(body, deepBracket));
  const { sf, mark } = parseFaithfully(ts, file, body);
  deadline.check();
  // The walks below recurse; bound their depth before they start.
  const deep = tooDeepNode(ts, sf, maxNestingDepth);
  if (deep) return notAnalysed(tooDeep, locOf({ ts, sf }, deep));
  const diags = syntaxErrors(ts, sf);
  if (diags.length > 0) {
    const d = diags[0]!;
    const { line, character } = ts.getLineAndCharacterOfPosition(sf, d.start ?? 0);
    facts.parseError = {
      message: ts.flattenDiagnosticMessageText(d.messageText, ' ') + ((ts.getLeadingCommentRanges(body, 0) ?? []).some((c) => FLOW_PRAGMA.test(body.slice(c.pos, c.end))) ? FLOW_HINT : ''),
      at: { line: line + 1, column: character + 1 },
    };
  }
  const errorClasses = errorClassStatuses(ts, sf);
  if (errorClasses) facts.errorClasses = Object.fromEntries(errorClasses);
  // (every field is given here, none added later: a field added to some files' context only
  // gave the walks' optimised code a second shape to deoptimise on and compile again)
  const ctx: Ctx = { ts, sf, text: sf.text, original: body, mark, facts, adapters, deadline, refs: [], members: new Map(), words: wordSpans(sf.text, errorClasses), errorClasses, csrf: CSRF_RE.test(sf.text) || ORIGIN_HEADER.test(sf.text), hmac: sf.text.includes('createHmac'), elysia: sf.text.includes('elysia'), secret: ENV_SECRET.test(sf.text), header: CREDENTIAL_HEADER.test(sf.text) || JWT_HEADER_EXTRACTOR.test(sf.text), summaries: new Map(), thisRef: null, classes: [], prototypes: prototypeClasses(ts, sf), restParams: new Set(), promised: new Set(), predicates: new Set(), rejections: new Set(), when: [], calls: new Map(), returnWhen: new Map(), fnIds: new Map(), eachList: new Map(), loops: 0, cookieParams: [], thisSpans: null, decorations: null, paramSets: false };
  collectSuppressions(sf.text, facts);
  // (a suppression's reason may be a comment's text the twin marked)
  if (mark !== null && facts.suppressions.some((x) => x.reason?.includes(mark) || x.rules.some((r) => r.includes(mark)))) {
    facts.suppressions = [];
    collectSuppressions(body, facts);
  }
  visitStatements(ctx, sf.statements, 0, null);
  if (ctx.prototypes) prototypeInstances(ctx);
  if (ctx.cookieParams.length > 0) helperPicks(ctx);
  for (const a of adapters) a.visitFile?.(extractApi(ctx));
  shareDefaults(facts.functions);
  return facts;
}

const NONE: readonly never[] = Object.freeze([]);
const NO_BEHAVIOUR: Readonly<Behaviour> = Object.freeze({ status401: false, status403or404: false, comparesTenant: false, readsSession: false, callsNext: false, sendsResponse: false });
const BEHAVIOUR_KEYS = Object.keys(NO_BEHAVIOUR).length;

/**
 * Most functions (a service's methods, callbacks) behave like no guard and put nothing into a
 * response: their empty lists and their all-false behaviour are one shared, frozen value
 * each, not a copy per function (facts are read only once extracted; JSON is the same). The
 * other lists are copied to their length: a list grown by push keeps room for 17 items, which
 * made these lists a tenth of the memory a run keeps its facts in.
 */
function shareDefaults(functions: FunctionFact[]): void {
  const fit = <T>(list: T[]): T[] => (list.length === 0 ? (NONE as never[]) : list.slice());
  for (const f of functions) {
    const b = f.behaviour;
    if (Object.keys(b).length === BEHAVIOUR_KEYS && !b.status401 && !b.status403or404 && !b.comparesTenant && !b.readsSession && !b.callsNext && !b.sendsResponse)
      f.behaviour = NO_BEHAVIOUR as Behaviour;
    f.params = fit(f.params);
    f.returns = fit(f.returns);
    f.leading = fit(f.leading);
    f.responseFields = fit(f.responseFields);
    f.sessionExposures = fit(f.sessionExposures);
    f.returnedSessionExposures = fit(f.returnedSessionExposures);
  }
}

// ---------------------------------------------------------------------------
// Suppressions: `// route-surface-disable-next-line rule-a, rule-b -- reason`

function collectSuppressions(text: string, facts: FileFacts): void {
  if (!text.includes('route-surface-disable')) return;
  const lines = text.split(/\r?\n/);
  lines.forEach((l, i) => {
    const m = /(?:\/\/|\/\*)\s*route-surface-disable-next-line\b(.*?)(?:\*\/\s*)?$/.exec(l);
    if (!m) return;
    const body = m[1] ?? '';
    const sep = body.indexOf('--');
    const rulesPart = sep >= 0 ? body.slice(0, sep) : body;
    const reason = sep >= 0 ? body.slice(sep + 2).trim() : '';
    facts.suppressions.push({
      line: i + 1,
      rules: rulesPart.split(/[\s,]+/).filter(Boolean),
      reason: reason.length > 0 ? reason : null,
      at: { line: i + 1, column: l.indexOf(m[0]) + 1 },
    });
  });
}

// ---------------------------------------------------------------------------
// Scopes and statements

function newScope(ctx: Ctx, parent: number): Scope {
  const s: Scope = { id: ctx.facts.scopes.length, parent, bindings: {} };
  ctx.facts.scopes.push(s);
  return s;
}

function hasModifier(ts: TSModule, node: TS.Node, kind: TS.SyntaxKind): boolean {
  const mods = (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined) ?? [];
  return mods.some((m) => m.kind === kind);
}

/** What visitStatement does with a node, by kind: walk its children (0), read it (1), or nothing (2: a type, which holds no value). */
let statementKinds: Uint8Array | null = null;

function statementKind(ts: TSModule, kind: TS.SyntaxKind): number {
  if (statementKinds === null) {
    const K = ts.SyntaxKind;
    statementKinds = new Uint8Array(K.Count);
    for (const k of [K.ImportDeclaration, K.ImportEqualsDeclaration, K.ExportDeclaration, K.ExportAssignment, K.VariableStatement, K.FunctionDeclaration, K.ClassDeclaration, K.ForOfStatement, K.ForInStatement, K.ExpressionStatement, K.ReturnStatement, K.IfStatement, K.Block, K.SwitchStatement, K.EnumDeclaration])
      statementKinds[k] = 1;
    for (const k of [K.InterfaceDeclaration, K.TypeAliasDeclaration]) statementKinds[k] = 2;
  }
  return statementKinds[kind]!;
}

function visitStatement(ctx: Ctx, node: TS.Node, scope: number, fn: FunctionFact | null): void {
  const { ts, facts } = ctx;
  ctx.deadline.tick();
  // (the tests below, in turn, ran for every node walked)
  const kind = statementKind(ts, node.kind);
  if (kind === 2) return;
  if (kind === 0) {
    const loop = node.kind >= ts.SyntaxKind.DoStatement && node.kind <= ts.SyntaxKind.ForOfStatement;
    if (loop) ctx.loops++;
    visitChildren(ctx, node, scope, fn);
    if (loop) ctx.loops--;
    return;
  }
  if (ts.isExpressionStatement(node)) {
    // (`X = __decorate([…], X)`: the class decorated, the same class — its decorators are read with it, decoratorsOf)
    if (scope === 0 && decorateCall(ts, node.expression)) return;
    // `require("./controllers/sites.controller");`: a module loaded for what it does, as `import
    // './controllers/sites.controller'` (TypeScript's CommonJS output of one)
    const required = scope === 0 ? requireOf(ts, node.expression) : null;
    if (required !== null && !facts.imports.some((i) => i.local === '' && i.source === required)) facts.imports.push({ local: '', imported: '', source: required });
    if (scope === 0 && ts.isCallExpression(node.expression)) compiledExport(ctx, node.expression);
    // `void registerRoutes(app)`: the call, its result let go
    visitEffect(ctx, node.expression.kind === ts.SyntaxKind.VoidExpression ? (node.expression as TS.VoidExpression).expression : node.expression, scope, fn);
    return;
  }
  if (ts.isReturnStatement(node)) {
    // `return registerRoutes(app)`: the call is made as a statement's is, its result handed back
    if (node.expression) recordReturned(ctx, toExpr(ctx, node.expression, scope, fn), scope);
    // (`if (!prefix) return '/' + name`: what it returns, only when the test holds)
    if (fn && ctx.when.length > 0) ctx.returnWhen.set(node, ctx.when.slice());
    return;
  }
  if (ts.isImportDeclaration(node)) {
    // error recovery can leave something else here (`import {` cut short): nothing is imported
    if (!ts.isStringLiteral(node.moduleSpecifier)) return;
    const source = node.moduleSpecifier.text;
    const clause = node.importClause;
    if (clause) {
      if (clause.name) facts.imports.push({ local: clause.name.text, imported: 'default', source });
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) facts.imports.push({ local: nb.name.text, imported: '*', source });
      if (nb && ts.isNamedImports(nb))
        for (const el of nb.elements)
          facts.imports.push({ local: el.name.text, imported: textOf(ctx, el.propertyName ?? el.name), source });
    } else {
      facts.imports.push({ local: '', imported: '', source });
    }
    return;
  }
  if (ts.isImportEqualsDeclaration(node)) {
    const ref = node.moduleReference;
    if (ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression))
      facts.imports.push({ local: node.name.text, imported: '=', source: ref.expression.text });
    return;
  }
  if (ts.isExportDeclaration(node)) {
    const source = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
    const clause = node.exportClause;
    // (`export type { SiteDto } from './dto'`, `export { type SiteDto }`: no value at run time)
    const typeOnly = (el?: TS.ExportSpecifier): { typeOnly?: true } => (node.isTypeOnly || el?.isTypeOnly ? { typeOnly: true } : {});
    if (!clause) {
      if (source) facts.exports.push({ exported: '*', source, ...typeOnly() });
    } else if (ts.isNamespaceExport(clause)) {
      if (source) facts.exports.push({ exported: clause.name.text, source, imported: '*', ...typeOnly() });
    } else {
      for (const el of clause.elements) {
        const local = textOf(ctx, el.propertyName ?? el.name);
        if (source) facts.exports.push({ exported: el.name.text, source, imported: local, ...typeOnly(el) });
        else facts.exports.push({ exported: el.name.text, local, ...typeOnly(el) });
      }
    }
    return;
  }
  if (ts.isExportAssignment(node)) {
    if (ts.isIdentifier(node.expression)) facts.exports.push({ exported: 'default', local: node.expression.text });
    else {
      facts.scopes[0]!.bindings['*default*'] = toExpr(ctx, node.expression, scope, fn);
      facts.exports.push({ exported: 'default', local: '*default*', ...(node.isExportEquals ? {} : { esm: true as const }) });
    }
    return;
  }
  if (ts.isVariableStatement(node)) {
    const exported = scope === 0 && hasModifier(ts, node, ts.SyntaxKind.ExportKeyword);
    for (const d of node.declarationList.declarations) declareVariable(ctx, d, scope, fn, exported);
    return;
  }
  if (ts.isFunctionDeclaration(node)) {
    const f = makeFunction(ctx, node, scope, node.name?.text ?? null);
    if (node.name) facts.scopes[scope]!.bindings[node.name.text] = { k: 'fn', id: f.id };
    if (scope === 0 && hasModifier(ts, node, ts.SyntaxKind.ExportKeyword)) {
      const isDefault = hasModifier(ts, node, ts.SyntaxKind.DefaultKeyword);
      const local = node.name?.text ?? '*default*';
      if (!node.name) facts.scopes[0]!.bindings['*default*'] = { k: 'fn', id: f.id };
      facts.exports.push({ exported: isDefault ? 'default' : local, local, ...(node.name ? {} : { esm: true as const }) });
    }
    return;
  }
  if (ts.isEnumDeclaration(node)) {
    // `@Controller(RouteKey.Asset)` of `enum RouteKey { Asset = 'assets' }` (immich): an enum is
    // an object of constants, a member without an initialiser the number after the one before
    const props: Record<string, Expr> = {};
    let next: number | null = 0;
    for (const m of node.members) {
      const value: Expr = m.initializer ? toExpr(ctx, m.initializer, scope, fn) : next === null ? { k: 'unknown', text: '' } : { k: 'num', v: next };
      next = value.k === 'num' ? value.v + 1 : null;
      if (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) props[m.name.text] = value;
    }
    facts.scopes[scope]!.bindings[node.name.text] = { k: 'obj', props };
    if (scope === 0 && hasModifier(ts, node, ts.SyntaxKind.ExportKeyword)) facts.exports.push({ exported: node.name.text, local: node.name.text });
    return;
  }
  if (ts.isClassDeclaration(node)) {
    const exported = scope === 0 && hasModifier(ts, node, ts.SyntaxKind.ExportKeyword);
    visitClass(ctx, node, node.name?.text ?? null, scope, fn, exported ? (hasModifier(ts, node, ts.SyntaxKind.DefaultKeyword) ? 'default' : 'named') : null);
    return;
  }
  // `for (const route of routes) { … }`: the variable is an item of the list
  if (ts.isForOfStatement(node) && ts.isVariableDeclarationList(node.initializer) && node.initializer.declarations.length === 1) {
    const d = node.initializer.declarations[0]!;
    const of = toExpr(ctx, node.expression, scope, fn);
    // (a `const` or `let` variable is the loop's own: one of a name the scope already binds, an
    // earlier loop's `for (const verb of …)`, is bound in a scope of the loop's, not over the other)
    const props = ts.isObjectBindingPattern(d.name) ? objectNames(ctx, d.name) : [];
    const names = ts.isIdentifier(d.name) ? [d.name.text] : ts.isArrayBindingPattern(d.name) ? listNames(ts, d.name).map(([n]) => n) : props.map(([n]) => n);
    const blockScoped = !/^var\b/.test(textOf(ctx, node.initializer, 4));
    const loopScope = blockScoped && names.some((n) => Object.hasOwn(facts.scopes[scope]!.bindings, n)) ? newScope(ctx, scope).id : scope;
    if (ts.isIdentifier(d.name)) {
      facts.scopes[loopScope]!.bindings[d.name.text] = { k: 'item', of };
      markLoops(ctx);
    } else if (ts.isArrayBindingPattern(d.name)) {
      // `for (const [name, controller] of Object.entries(routes))`: each name, its place in the item
      const item: Expr = { k: 'item', of };
      for (const [name, index] of listNames(ts, d.name)) facts.scopes[loopScope]!.bindings[name] = { k: 'item', of: item, index };
      markLoops(ctx);
    } else if (props.length > 0) {
      // `for (const { path, handler } of routes)`: each name, that property of the item
      const item: Expr = { k: 'item', of };
      for (const [name, prop] of props) facts.scopes[loopScope]!.bindings[name] = { k: 'member', obj: item, prop };
      markLoops(ctx);
    }
    ctx.loops++;
    visitStatement(ctx, node.statement, loopScope, fn);
    ctx.loops--;
    return;
  }
  // `for (const name in routers) { … }`: the variable is an item of `Object.keys(routers)`
  if (node.kind === ts.SyntaxKind.ForInStatement) {
    const forIn = node as TS.ForInStatement;
    const d = ts.isVariableDeclarationList(forIn.initializer) && forIn.initializer.declarations.length === 1 ? forIn.initializer.declarations[0]! : null;
    const obj = toExpr(ctx, forIn.expression, scope, fn);
    if (d && ts.isIdentifier(d.name)) {
      const pos = forIn.expression.getStart(ctx.sf);
      const keys: Expr = { k: 'call', callee: memberOf(ctx, refOf(ctx, 'Object', scope), 'keys'), args: [obj], at: locAt(ctx, pos), pos };
      facts.scopes[scope]!.bindings[d.name.text] = { k: 'item', of: keys };
      markLoops(ctx);
    }
    ctx.loops++;
    visitStatement(ctx, forIn.statement, scope, fn);
    ctx.loops--;
    return;
  }
  if (ts.isIfStatement(node)) {
    visitIf(ctx, node, scope, fn);
    return;
  }
  if (ts.isBlock(node)) {
    visitStatements(ctx, node.statements, scope, fn);
    return;
  }
  if (node.kind === ts.SyntaxKind.SwitchStatement) {
    visitSwitch(ctx, node as TS.SwitchStatement, scope, fn);
    return;
  }
  // Everything else: walk children looking for statements and expressions.
  visitChildren(ctx, node, scope, fn);
}

// ---------------------------------------------------------------------------
// Conditions around statements: `if (config.auth) app.use(requireAuth)`

/** The conditions the statement visited runs under, to keep with a registration or call made there. */
function whenNow(ctx: Ctx): { when?: Cond[] } {
  return ctx.when.length > 0 ? { when: ctx.when.slice() } : {};
}

/**
 * Statements in order. After `if (c) return;` (or `throw`, `break`, `continue`), the rest of the
 * list runs only when `c` does not hold.
 */
function visitStatements(ctx: Ctx, statements: readonly TS.Statement[], scope: number, fn: FunctionFact | null): void {
  const depth = ctx.when.length;
  for (let i = 0; i < statements.length; i++) {
    const st = statements[i]!;
    if (!ctx.ts.isIfStatement(st)) {
      visitStatement(ctx, st, scope, fn);
      if (ctx.facts.documentCookieReads.length > 0 && ctx.ts.isVariableStatement(st)) cookieRowsPicked(ctx, st, statements.slice(i + 1), scope);
      continue;
    }
    const cond = visitIf(ctx, st, scope, fn);
    if (!st.elseStatement && exits(ctx.ts, st.thenStatement)) ctx.when.push({ ...cond, holds: false });
  }
  // (setting an array's length is a call into the runtime even when nothing changes)
  if (ctx.when.length !== depth) ctx.when.length = depth;
}

/** `if (c) … else …`: the branches under `c` and under its negation. Returns the condition (as it holds in the first branch). */
function visitIf(ctx: Ctx, node: TS.IfStatement, scope: number, fn: FunctionFact | null): Cond {
  return visitBranches(ctx, node.expression, true, node.thenStatement, node.elseStatement ?? null, (s) => visitStatement(ctx, s, scope, fn), scope, fn);
}

/**
 * `then` visited under `test` (holding as `holds` says), and `otherwise`, if any, under the
 * opposite: an if's branches, a `? :`'s, the right-hand side of `&&` / `||`. Returns the
 * condition `then` runs under.
 */
function visitBranches<T>(ctx: Ctx, test: TS.Expression, holds: boolean, then: T, otherwise: T | null, visit: (n: T) => void, scope: number, fn: FunctionFact | null): Cond {
  const cond: Cond = { test: condTest(ctx, test, scope, fn), holds, pos: test.getStart(ctx.sf), text: condText(ctx, test) };
  ctx.when.push(cond);
  visit(then);
  ctx.when.pop();
  if (otherwise !== null) {
    ctx.when.push({ ...cond, holds: !holds });
    visit(otherwise);
    ctx.when.pop();
  }
  return cond;
}

/**
 * `switch (d) { case a: … }`: a clause runs when `d === a`, or when the clause before it runs
 * and falls through; `default`, when no case matches (or one before it falls through).
 */
function visitSwitch(ctx: Ctx, node: TS.SwitchStatement, scope: number, fn: FunctionFact | null): void {
  const { ts } = ctx;
  const d = toExpr(ctx, node.expression, scope, fn);
  const dText = condText(ctx, node.expression);
  const clauses = node.caseBlock.clauses;
  const own = clauses.map((c): { test: CondTest; text: string } | null =>
    c.kind === ts.SyntaxKind.CaseClause ? { test: { k: 'eq', l: d, r: toExpr(ctx, (c as TS.CaseClause).expression, scope, fn), neg: false }, text: `${dText} === ${condText(ctx, (c as TS.CaseClause).expression)}` } : null,
  );
  const cases = own.filter((c) => c !== null);
  const noCase: { test: CondTest; text: string } | null =
    cases.length === 0 ? null : { test: { k: 'not', c: cases.map((c) => c.test).reduce((l, r) => ({ k: 'or', l, r })) }, text: `${dText} matches no case` };
  // what the clause before falls through under: 'none' when it does not fall through, null when it runs whatever d is
  let falling: { test: CondTest; text: string } | null | 'none' = 'none';
  clauses.forEach((c, i) => {
    const mine = own[i] ?? noCase;
    const reach = falling === null || mine === null ? null : falling === 'none' ? mine : { test: { k: 'or' as const, l: falling.test, r: mine.test }, text: `${falling.text} || ${mine.text}` };
    if (reach) ctx.when.push({ test: reach.test, holds: true, pos: c.getStart(ctx.sf), text: cut(reach.text) });
    visitStatements(ctx, c.statements, scope, fn);
    if (reach) ctx.when.pop();
    const last = c.statements[c.statements.length - 1];
    falling = last && exits(ts, last) ? 'none' : reach;
  });
}

/**
 * `router.getAsync = (path, ...handlers) => router.get(path, ...replaceLastBySafeHandler(handlers))`
 * (Mailtrain's router-async.js, under no condition and in no loop): a method given to a router
 * made in the function, that registers a route of one method on that router with the path it is
 * handed and the functions it is handed (as they are, or each wrapped, to pass a promise's
 * rejection to `next`). A call of it on the router, or on one a call of the function makes, is
 * that registration (FileFacts.routerAliases, read when linked); the registration written in it
 * is made only by such calls, and is not kept as one of its own. `registered`: the number of
 * the file's registrations before the assignment was read.
 */
function routerAlias(ctx: Ctx, left: TS.Expression, right: TS.Expression, scope: number, registered: number): void {
  const { ts, facts } = ctx;
  if (ctx.when.length > 0 || ctx.loops > 0 || !ts.isPropertyAccessExpression(left) || !ts.isIdentifier(left.expression) || REGISTRATION_METHODS.has(left.name.text)) return;
  const holder = left.expression.text;
  const made = findScopeOf(ctx, scope, holder)?.bindings[holder];
  const f = unwrap(ts, right);
  if (made === undefined || isEncoded(made) || (made.k !== 'new' && made.k !== 'call') || !(ts.isArrowFunction(f) || ts.isFunctionExpression(f))) return;
  const [first, rest, ...more] = f.parameters;
  if (!first || !rest || more.length > 0 || !ts.isIdentifier(first.name) || !rest.dotDotDotToken || !ts.isIdentifier(rest.name)) return;
  const path = first.name.text;
  const handlers = rest.name.text;
  if (path === holder || handlers === holder) return;
  const only = ts.isBlock(f.body) && f.body.statements.length === 1 && ts.isExpressionStatement(f.body.statements[0]!) ? f.body.statements[0].expression : onlyReturn(ts, f.body);
  const call = only && unwrap(ts, only);
  if (!call || !ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) return;
  const on = unwrap(ts, call.expression.expression);
  const method = call.expression.name.text;
  if (!ts.isIdentifier(on) || on.text !== holder || !HTTP_METHODS.includes(method)) return;
  const named = (x: TS.Expression, name: string): boolean => {
    const u = unwrap(ts, x);
    return ts.isIdentifier(u) && u.text === name;
  };
  // the functions as handed (`...handlers`), or made each into another (`...wrap(handlers)`, `...handlers.map(wrap)`)
  const handsOn = (a: TS.Expression): boolean => {
    if (!ts.isSpreadElement(a)) return false;
    const x = unwrap(ts, a.expression);
    if (named(x, handlers)) return true;
    return ts.isCallExpression(x) && ((x.arguments.length === 1 && named(x.arguments[0]!, handlers)) || (ts.isPropertyAccessExpression(x.expression) && named(x.expression.expression, handlers)));
  };
  const [pathArg, handlerArg, ...others] = call.arguments;
  if (!pathArg || !named(pathArg, path) || !handlerArg || others.length > 0 || !handsOn(handlerArg)) return;
  (facts.routerAliases ??= []).push({ at: made.at, name: left.name.text, method });
  for (let i = facts.registrations.length - 1; i >= registered; i--) {
    const r = facts.registrations[i]!;
    if (r.method === method && r.target.k === 'ref' && r.target.name === holder) facts.registrations.splice(i, 1);
  }
}

/**
 * An expression statement, its value let go. Its `&&`, `||` and `? :` are conditions as an
 * `if` is (`config.metrics && app.use('/metrics', metrics)`,
 * `isProduction ? app.use(requireSession) : app.use(devSession)`): their right-hand side and
 * branches run only when the condition holds (fails, for `||` and the second branch).
 */
function visitEffect(ctx: Ctx, node: TS.Expression, scope: number, fn: FunctionFact | null): void {
  const { ts } = ctx;
  const K = ts.SyntaxKind;
  let e = node;
  while (e.kind === K.ParenthesizedExpression) e = (e as TS.ParenthesizedExpression).expression;
  const visit = (x: TS.Expression): void => visitEffect(ctx, x, scope, fn);
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === K.AmpersandAmpersandToken || op === K.BarBarToken) {
      visitBranches(ctx, e.left, op === K.AmpersandAmpersandToken, e.right, null, visit, scope, fn);
      return;
    }
    if (op === K.EqualsToken) {
      const registered = ctx.facts.registrations.length;
      // (`this.metrics = new Prometheus(this.app)`: the call is made, as a declaration's is)
      const rhs = toExpr(ctx, e.right, scope, fn);
      assign(ctx, e.left, rhs, scope);
      recordCall(ctx, rhs, scope, true);
      routerAlias(ctx, e.left, e.right, scope, registered);
      return;
    }
    // `route += '/:instanceName'` of a string: `route = route + '/:instanceName'`
    if (op === K.PlusEqualsToken && ts.isIdentifier(e.left)) {
      const r = toExpr(ctx, e.right, scope, fn);
      if (r.k === 'str' || r.k === 'tpl') {
        assign(ctx, e.left, { k: 'tpl', parts: [toExpr(ctx, e.left, scope, fn), ...(r.k === 'tpl' ? r.parts : [r])] }, scope);
        return;
      }
    }
  }
  if (ts.isConditionalExpression(e)) {
    visitBranches(ctx, e.condition, true, e.whenTrue, e.whenFalse, visit, scope, fn);
    return;
  }
  // (a `super(…)` call is kept whatever it passes: registrations on the base constructor's parameters are made with its arguments)
  const isSuper = ts.isCallExpression(e) && e.expression.kind === K.SuperKeyword;
  recordCall(ctx, toExpr(ctx, e, scope, fn), scope, false, isSuper && ctx.thisRef ? refOf(ctx, ctx.thisRef.name, ctx.thisRef.scope) : null);
}

/** Does the statement always leave the list it is in (return, throw, break, continue)? */
function exits(ts: TSModule, n: TS.Statement): boolean {
  const K = ts.SyntaxKind;
  switch (n.kind) {
    case K.ReturnStatement:
    case K.ThrowStatement:
    case K.BreakStatement:
    case K.ContinueStatement:
      return true;
    case K.Block: {
      const list = (n as TS.Block).statements;
      return list.length > 0 && exits(ts, list[list.length - 1]!);
    }
    case K.IfStatement: {
      const i = n as TS.IfStatement;
      return i.elseStatement !== undefined && exits(ts, i.thenStatement) && exits(ts, i.elseStatement);
    }
    default:
      return false;
  }
}

/** next/navigation's functions that end a route handler by throwing (`redirect()` answers 307, `notFound()` 404: Next.js's `never`-typed helpers). */
const NAVIGATION_THROWS = new Set(['redirect', 'permanentRedirect', 'notFound', 'unauthorized', 'forbidden']);

/** `redirect('/login')` (or `return redirect(…)`) of `import { redirect } from 'next/navigation'`: the statement throws. */
function navigationThrow(ctx: Ctx, st: TS.Statement): boolean {
  const { ts } = ctx;
  const e = ts.isExpressionStatement(st) ? st.expression : ts.isReturnStatement(st) ? st.expression : undefined;
  const c = e ? unwrap(ts, e) : undefined;
  if (!c || !ts.isCallExpression(c) || !ts.isIdentifier(c.expression)) return false;
  const name = c.expression.text;
  return ctx.facts.imports.some((i) => i.local === name && i.source === 'next/navigation' && NAVIGATION_THROWS.has(i.imported));
}

/** A condition as far as it is read statically: `!`, `&&`, `||` and equality over expressions (each walked once, as toExpr walks it). */
function condTest(ctx: Ctx, node: TS.Expression, scope: number, fn: FunctionFact | null, depth = 0): CondTest {
  return condWith(ctx.ts, node, depth, false, (n, d) => toExpr(ctx, n, scope, fn, undefined, d));
}

/**
 * The tests a condition is made of, each operand read by `read` (at the depth it is given);
 * what the condition is wrapped in is taken off first: parentheses, or with `unwrapAll`
 * every wrapper `unwrap` knows.
 */
function condWith(ts: TSModule, node: TS.Expression, depth: number, unwrapAll: boolean, read: (n: TS.Expression, depth: number) => Expr): CondTest {
  if (depth > MAX_DEPTH) return { k: 'truthy', e: { k: 'unknown', text: 'too deep' } };
  const K = ts.SyntaxKind;
  let n = node;
  if (unwrapAll) n = unwrap(ts, n);
  else while (n.kind === K.ParenthesizedExpression) n = (n as TS.ParenthesizedExpression).expression;
  const sub = (x: TS.Expression): CondTest => condWith(ts, x, depth + 1, unwrapAll, read);
  if (n.kind === K.PrefixUnaryExpression && (n as TS.PrefixUnaryExpression).operator === K.ExclamationToken) return { k: 'not', c: sub((n as TS.PrefixUnaryExpression).operand) };
  if (n.kind === K.BinaryExpression) {
    const b = n as TS.BinaryExpression;
    const op = b.operatorToken.kind;
    if (op === K.AmpersandAmpersandToken || op === K.BarBarToken) return { k: op === K.AmpersandAmpersandToken ? 'and' : 'or', l: sub(b.left), r: sub(b.right) };
    if (op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken || op === K.ExclamationEqualsEqualsToken || op === K.ExclamationEqualsToken)
      return { k: 'eq', l: read(b.left, depth + 1), r: read(b.right, depth + 1), neg: op === K.ExclamationEqualsEqualsToken || op === K.ExclamationEqualsToken };
    const cmp = op === K.LessThanToken ? '<' : op === K.LessThanEqualsToken ? '<=' : op === K.GreaterThanToken ? '>' : op === K.GreaterThanEqualsToken ? '>=' : null;
    if (cmp !== null) return { k: 'cmp', op: cmp, l: read(b.left, depth + 1), r: read(b.right, depth + 1) };
  }
  return { k: 'truthy', e: read(n, depth) };
}

function condText(ctx: Ctx, node: TS.Expression): string {
  return cut(textOf(ctx, node).replace(/\s+/g, ' '));
}

/**
 * A condition's text for messages: its first 81 characters, enough for condLabel to tell one
 * longer than 80 (shown cut, with an ellipsis). The ellipsis is not kept here: a character beyond
 * Latin-1 would make the string, and the JSON of every fact holding it, two-byte (one-byte.ts).
 */
function cut(text: string): string {
  return text.slice(0, 81);
}

/** `Promise.all([…])` and its kin, and `Promise.resolve(…)`: what they are handed is made before they are called. */
const PROMISE_COMBINERS = new Set(['all', 'allSettled', 'race', 'any', 'resolve']);

/**
 * A call a statement makes, kept for the linker when it may hand a router to a function of the
 * analysed files: a name, an object, a list or an instance's field (`registerRoutes(this.app)`)
 * among its arguments — or, at module scope, any argument to a function called by name
 * (`mountSites('/v1')`: its parameter may be a prefix).
 * A declaration's initialiser (`const server = new App([…])`, `const api = registerRoutes(app)`)
 * counts when it calls a function or class by name: a method's result kept in a variable
 * (`const rows = items.map(toView)`, common in every body) is left out.
 * A `super(…)` call is kept whatever it passes, with `superOf`, the instance it is made for
 * (`this` in the base's constructor). The call a chain starts from (`routes(app)` of
 * `routes(app).then(…)`) is judged the same way.
 */
function recordCall(ctx: Ctx, ex: Expr, scope: number, declared = false, superOf: Expr | null = null): void {
  // `routes(app).then(…)`: the call a chain starts from is made too
  if ((ex.k === 'call' || ex.k === 'new') && ex.callee.k === 'member' && (ex.callee.obj.k === 'call' || ex.callee.obj.k === 'new')) recordCall(ctx, ex.callee.obj, scope, declared);
  // `await Promise.all([configure({ app }), createServer({ app, server })])` (Etherpad's express.ts),
  // `Promise.resolve(register(app))`: the calls the list is written with are made at once, each
  if (promiseCombiner(ctx, ex)) {
    const first = ex.args[0];
    for (const item of first?.k === 'arr' ? first.items : first && ex.callee.prop === 'resolve' ? [first] : []) recordCall(ctx, item, scope, declared);
  }
  // (`require('./routes')(app)`, `` require(`./routes/${file}`)(app) ``: the module's export, called at once, as a named one is)
  const required = ex.k === 'call' && ex.callee.k === 'call' && ex.callee.callee.k === 'ref' && ex.callee.callee.name === 'require' && ex.callee.args.length === 1;
  // (`Module(metadata)(target)`: a decorator a factory named as decorators are makes, applied at
  // once by hand — in a decorator of the code's own, AFFiNE's `@Plugin`)
  const curried = ex.k === 'call' && ex.callee.k === 'call' && ex.callee.callee.k === 'ref' && /^[A-Z]/.test(ex.callee.callee.name) && !declared;
  // (`routes[name](router)`: a member whose name is computed, called as a named one is; a class
  // read from a module's namespace, `this.io = new socketIO.Server(this.httpServer, …)`
  // (Dockge's), is no method's result even where its instance is kept)
  // (`server.listen()`, `const { url } = await server.listen(4000)`: a server that may start itself, apollo-server's — graphql-servers.ts)
  const listens = ex.k === 'call' && ex.callee.k === 'member' && ex.callee.prop === 'listen';
  // (`app.apis = await api_1.startApis(app)`, `const api = apis.start(app)`: a function of a module
  // of the code read off its namespace — every imported call of TypeScript's CommonJS output is
  // one — is called as a named one is, its result kept or not)
  const ofModule = ex.k === 'call' && ex.callee.k === 'member' && localNamespace(ctx, ex.callee.obj);
  if ((ex.k !== 'call' && ex.k !== 'new') || (ex.callee.k !== 'ref' && !required && !curried && !listens && ((declared && ex.k !== 'new' && !ofModule) || (ex.callee.k !== 'member' && ex.callee.k !== 'index')))) return;
  // (`new FeatureController(config).router`: what an instance of a class holds)
  // (`this.get('/prometheus', async (req, res) => …)`: a function handed to a method of the instance,
  // a base class's route helper — Unleash's Controller)
  const onThis = ex.callee.k === 'member' && ex.callee.obj.k === 'ref' && ex.callee.obj.name.startsWith(THIS_PREFIX);
  // (`server.method('com.example.getRecord', (ctx) => …)`: a function handed to a method with a
  // name first, a route helper's call — atproto's xrpc-server)
  const named = ex.callee.k === 'member' && ex.args[0]?.k === 'str';
  // (`router.getAsync('/lists', passport.loggedIn, lists.list)`: a named call's last argument a
  // function read from an object, a router's own method registering it — Mailtrain's, FileFacts.routerAliases)
  const last = ex.args[ex.args.length - 1];
  const handsOn = (a: Expr): boolean =>
    a.k === 'ref' ||
    a.k === 'obj' ||
    a.k === 'arr' ||
    (a.k === 'member' && ((a.obj.k === 'ref' && a.obj.name.startsWith(THIS_PREFIX)) || a.obj.k === 'new' || (named && a === last && ex.args.length > 1))) ||
    ((onThis || named) && a.k === 'fn');
  // (`allRoutes.push(...config.routes)`: what is added to a module's list, which a loop may go over)
  const addsToModuleList = ex.callee.k === 'member' && ADDS_TO_LIST.has(ex.callee.prop) && ex.callee.obj.k === 'ref' && ex.args.length > 0 && findScopeOf(ctx, ex.callee.obj.scope, ex.callee.obj.name)?.id === 0;
  // (`const app = createExpressServer()`: a call making what a name holds, which an adapter may read as a server)
  const makesNamed = declared && ex.k === 'call' && ex.callee.k === 'ref' && ex.args.length === 0;
  if (superOf || ex.args.some(handsOn) || (scope === 0 && ex.callee.k === 'ref' && ex.args.length > 0) || addsToModuleList || makesNamed || listens)
    keepCall(ctx, ex, superOf);
}

/** Keep a call among the file's calls (CallFact), under the conditions it is made under. */
function keepCall(ctx: Ctx, ex: Extract<Expr, { k: 'call' | 'new' }>, superOf: Expr | null = null): void {
  ctx.facts.calls.push({ callee: ex.callee, args: ex.args, at: ex.at, snippet: lineText(ctx, ex.at.line), ...(superOf ? { self: superOf } : {}), ...whenNow(ctx) });
}

/**
 * A call a function returns (`return registerRoutes(app)`, `(f) => router(f, opts)`) is made as a
 * statement's is: one of a function called by its name (or by a computed member) is recorded (a
 * method's, `res.json(rows)`, `this.service.find(id)`, a handler's answer, hands no router on).
 */
function recordReturned(ctx: Ctx, ex: Expr, scope: number): void {
  if (ex.k !== 'call') return;
  // (`(name) => routes[name](app)`: a member whose name is computed, in a loop over the names;
  // `(file) => require(file).default(app)`: a module's export, called at once)
  const required = ex.callee.k === 'member' && ex.callee.obj.k === 'call' && ex.callee.obj.callee.k === 'ref' && ex.callee.obj.callee.name === 'require';
  // (`return (0, api_1.startApis)(app)`: a function read off a module of the code's namespace, as a named one)
  // (`return Promise.all([configure(app), api_1.start(app)])`: the calls the list is written with, as recordCall takes them)
  if (ex.callee.k === 'ref' || ex.callee.k === 'index' || required || (ex.callee.k === 'member' && localNamespace(ctx, ex.callee.obj)) || promiseCombiner(ctx, ex)) recordCall(ctx, ex, scope);
}

/** `Promise.all(…)`, `Promise.resolve(…)` and the like, of the global Promise. */
function promiseCombiner(ctx: Ctx, ex: Expr): ex is Extract<Expr, { k: 'call' }> & { callee: Extract<Expr, { k: 'member' }> } {
  return ex.k === 'call' && ex.callee.k === 'member' && ex.callee.obj.k === 'ref' && ex.callee.obj.name === 'Promise' && PROMISE_COMBINERS.has(ex.callee.prop) && !findScopeOf(ctx, ex.callee.obj.scope, 'Promise');
}

/** Methods that add to a list in place. */
export const ADDS_TO_LIST = new Set(['push', 'unshift', 'splice']);

function isUnassigned(e: Expr | EncodedBinding | undefined): boolean {
  return e !== undefined && !isEncoded(e) && e.k === 'unknown' && e.text === '';
}

/**
 * Is `e` the name of a module of the code imported whole (`import * as apis from './apis'`, `const
 * api_1 = require('./api')`, also through an interop helper), no local binding hiding it?
 */
function localNamespace(ctx: Ctx, e: Expr): boolean {
  if (e.k !== 'ref' || findScopeOf(ctx, e.scope, e.name) !== null) return false;
  return ctx.facts.imports.some((i) => i.local === e.name && (i.imported === '*' || i.imported === '=') && /^\.\.?\//.test(i.source));
}

function findScopeOf(ctx: Ctx, scope: number, name: string): Scope | null {
  let s: Scope | undefined = ctx.facts.scopes[scope];
  while (s) {
    if (Object.hasOwn(s.bindings, name)) return s;
    s = s.parent === null ? undefined : ctx.facts.scopes[s.parent];
  }
  return null;
}

function visitChildren(ctx: Ctx, node: TS.Node, scope: number, fn: FunctionFact | null): void {
  const { ts } = ctx;
  ts.forEachChild(node, (child) => {
    if (ts.isExpression(child) && !ts.isFunctionLike(child)) toExpr(ctx, child, scope, fn);
    else if (ts.isFunctionLike(child) && (ts.isArrowFunction(child) || ts.isFunctionExpression(child))) toExpr(ctx, child, scope, fn);
    else visitStatement(ctx, child, scope, fn);
  });
}

function declareVariable(ctx: Ctx, d: TS.VariableDeclaration, scope: number, fn: FunctionFact | null, exported: boolean): void {
  const { ts, facts } = ctx;
  const bindings = facts.scopes[scope]!.bindings;
  const init = d.initializer ? unwrap(ts, d.initializer) : undefined;
  const requireSource = init ? requireOf(ts, init) : null;
  if (ts.isIdentifier(d.name)) {
    const name = d.name.text;
    if (requireSource !== null && scope === 0) {
      facts.imports.push({ local: name, imported: '=', source: requireSource });
    } else if (init && ts.isPropertyAccessExpression(init) && requireOf(ts, unwrap(ts, init.expression)) !== null && scope === 0) {
      facts.imports.push({ local: name, imported: init.name.text, source: requireOf(ts, unwrap(ts, init.expression))! });
    } else if (init && ts.isClassExpression(init)) {
      // `let UsersController = class UsersController { … }`: a class of that name
      visitClass(ctx, init, name, scope, fn, null);
    } else {
      // toExpr unwraps the initialiser itself, and so sees an `await` around a registration call
      const value: Expr = d.initializer ? toExpr(ctx, d.initializer, scope, fn, name) : { k: 'unknown', text: '' };
      bindings[name] = value;
      recordCall(ctx, value, scope, true);
    }
    if (exported) facts.exports.push({ exported: name, local: name });
    return;
  }
  if (ts.isObjectBindingPattern(d.name)) {
    // (a `require` in a function, `const { extraEndpoints } = require('./extra')`, is a call the linker evaluates)
    const base = d.initializer && (requireSource === null || scope !== 0) ? toExpr(ctx, d.initializer, scope, fn) : null;
    if (base) recordCall(ctx, base, scope, true);
    // `const { imports = [] } = metadata`: the default when the object has no such property
    // (read as `??` reads it: also for a null one, which the default would not replace)
    const defaulted = (member: Expr, el: TS.BindingElement): Expr => (el.initializer ? { k: 'fallback', op: '??', l: member, r: toExpr(ctx, el.initializer, scope, fn), text: textOf(ctx, el, 80) } : member);
    // `const { api: { v1 } } = config`: each name of a property's own pattern, a member of that property
    const nested = (pattern: TS.ObjectBindingPattern, of: Expr, depth: number): void => {
      for (const el of pattern.elements) {
        const prop = el.propertyName ? textOf(ctx, el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : null;
        if (prop === null || el.dotDotDotToken) continue;
        const value = defaulted({ k: 'member', obj: of, prop }, el);
        if (ts.isIdentifier(el.name)) bindings[el.name.text] = value;
        else if (ts.isObjectBindingPattern(el.name) && depth < 8) nested(el.name, value, depth + 1);
      }
    };
    for (const el of d.name.elements) {
      if (!ts.isIdentifier(el.name)) {
        if (base && ts.isObjectBindingPattern(el.name) && el.propertyName && !el.dotDotDotToken) nested(el.name, defaulted({ k: 'member', obj: base, prop: textOf(ctx, el.propertyName) }, el), 0);
        continue;
      }
      const local = el.name.text;
      const prop = el.propertyName ? textOf(ctx, el.propertyName) : local;
      if (requireSource !== null && scope === 0) facts.imports.push({ local, imported: prop, source: requireSource });
      // `const { name, ...metadata } = options`: the rest is the object's other properties, read
      // from the object itself (one of the names taken out before is not read of it: AFFiNE's
      // `Module(metadata)(target)` reads its controllers, imports and providers)
      else if (base && el.dotDotDotToken) bindings[local] = base;
      else bindings[local] = base ? defaulted({ k: 'member', obj: base, prop }, el) : { k: 'unknown', text: local };
      if (exported) facts.exports.push({ exported: local, local });
    }
    return;
  }
  if (ts.isArrayBindingPattern(d.name)) {
    // `const [router, verb, path] = args` of a rest parameter (`(...args)`): each name is the
    // argument at its place; of anything else, the element at its place
    const rest = init ? restParam(ctx, init, scope) : null;
    const base = !rest && d.initializer && requireSource === null ? toExpr(ctx, d.initializer, scope, fn) : null;
    if (base) recordCall(ctx, base, scope, true);
    for (const [name, i] of listNames(ts, d.name)) {
      bindings[name] = rest ? { k: 'param', fn: rest.fn, index: rest.index + i, name } : base ? { k: 'item', of: base, index: i } : { k: 'unknown', text: name };
      if (exported) facts.exports.push({ exported: name, local: name });
    }
    return;
  }
  if (d.initializer) toExpr(ctx, d.initializer, scope, fn);
}

/** The names an object pattern binds to properties, with the property each takes (`{ path, handler: h }`); none with a default, a rest or a pattern of its own. */
function objectNames(ctx: Ctx, pattern: TS.ObjectBindingPattern): [string, string][] {
  const out: [string, string][] = [];
  for (const el of pattern.elements) {
    if (!ctx.ts.isIdentifier(el.name) || el.initializer || el.dotDotDotToken) continue;
    out.push([el.name.text, el.propertyName ? textOf(ctx, el.propertyName) : el.name.text]);
  }
  return out;
}

/** `await x(…);`: a statement awaiting a call and letting its answer go. */
function awaitedAlone(ts: TSModule, stmt: TS.Statement): boolean {
  if (!ts.isExpressionStatement(stmt)) return false;
  let e: TS.Expression = stmt.expression;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return ts.isAwaitExpression(e) && ts.isCallExpression(unwrap(ts, e.expression));
}

/** The rest parameter (`...args`) `e` names, read in `scope`; null when it names anything else. */
function restParam(ctx: Ctx, e: TS.Expression, scope: number): Extract<Expr, { k: 'param' }> | null {
  if (e.kind !== ctx.ts.SyntaxKind.Identifier) return null;
  const name = (e as TS.Identifier).text;
  const b = findScopeOf(ctx, scope, name)?.bindings[name];
  return b !== undefined && ctx.restParams.has(b as Expr) && (b as Expr).k === 'param' ? (b as Extract<Expr, { k: 'param' }>) : null;
}

/** `K` of `name.length - K` (a whole number, 1 or more); null for any other key. */
function countedFromEnd(ts: TSModule, key: TS.Expression, name: string): number | null {
  const k = unwrap(ts, key);
  if (!ts.isBinaryExpression(k) || k.operatorToken.kind !== ts.SyntaxKind.MinusToken || !ts.isNumericLiteral(k.right)) return null;
  const l = unwrap(ts, k.left);
  const count = Number(k.right.text);
  return ts.isPropertyAccessExpression(l) && l.name.text === 'length' && ts.isIdentifier(l.expression) && l.expression.text === name && Number.isInteger(count) && count >= 1 ? count : null;
}

/** `rhs` with `module.exports` read in it (as a call's argument, or a branch of a choice) replaced by `exported`. */
function withExportsAs(rhs: Expr, exported: Expr): Expr {
  if (rhs.k === 'member' && rhs.prop === 'exports' && rhs.obj.k === 'ref' && rhs.obj.name === 'module') return exported;
  if (rhs.k === 'call' || rhs.k === 'new') return { ...rhs, args: rhs.args.map((a) => withExportsAs(a, exported)) };
  if (rhs.k === 'choice') return { ...rhs, then: withExportsAs(rhs.then, exported), otherwise: withExportsAs(rhs.otherwise, exported) };
  return rhs;
}

/**
 * The interop helpers compilers wrap a `require()` in: TypeScript's (and tslib's)
 * `__importDefault`, `__importStar`, esbuild's and rolldown's `__toESM`, Babel's
 * `_interopRequireDefault`, `_interopRequireWildcard`, rollup's `_interopDefaultCompat`,
 * `_interopNamespaceCompat` (and the older `_interopDefault`, `_interopNamespace…`), swc's
 * `_interop_require_default._(…)`.
 */
const INTEROP_HELPER = /^(?:__importDefault|__importStar|__toESM|_interopRequireDefault|_interopRequireWildcard|_interopDefault(?:Compat|Legacy)?|_interopNamespace(?:Compat|Default)?|_interop_require_default|_interop_require_wildcard)$/;

/** The name an interop helper is called by: `__importDefault(…)`, `tslib_1.__importDefault(…)`, swc's `_interop_require_default._(…)`. */
function interopName(ts: TSModule, callee: TS.Expression): string {
  if (ts.isIdentifier(callee)) return callee.text;
  if (!ts.isPropertyAccessExpression(callee)) return '';
  if (callee.name.text === '_' && ts.isIdentifier(callee.expression)) return callee.expression.text;
  return callee.name.text;
}

/**
 * The exports TypeScript's CommonJS output writes for re-exports: `Object.defineProperty(exports,
 * "users", { enumerable: true, get: function () { return __importDefault(users_1).default; } })`
 * (`export { default as users } from './users'`), the getter's value the export, and
 * `__exportStar(require("./projects"), exports)` (`export * from './projects'`).
 */
function compiledExport(ctx: Ctx, call: TS.CallExpression): void {
  const { ts, facts } = ctx;
  const callee = call.expression;
  const [target, key, descriptor] = call.arguments;
  const toExports = (e: TS.Expression | undefined): boolean => !!e && ts.isIdentifier(e) && e.text === 'exports' && !findScopeOf(ctx, 0, 'exports');
  if (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) {
    const name = ts.isIdentifier(callee) ? callee.text : callee.name.text;
    if (name === '__exportStar' && call.arguments.length === 2 && toExports(key)) {
      const source = requireOf(ts, target!);
      if (source !== null) facts.exports.push({ exported: '*', source });
      return;
    }
  }
  // Babel's and rollup's `export * from './projects'`: `Object.keys(_projects).forEach(function (key)
  // { … Object.defineProperty(exports, key, …) })` (rollup's `exports[k] = _projects[k]`) of
  // `var _projects = require("./projects")`
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'forEach' && ts.isCallExpression(callee.expression) && call.arguments.length === 1) {
    const keys = callee.expression;
    const of = keys.arguments[0];
    const each = unwrap(ts, call.arguments[0]!);
    if (textOf(ctx, keys.expression) !== 'Object.keys' || !of || !ts.isIdentifier(of) || !(ts.isFunctionExpression(each) || ts.isArrowFunction(each)) || !/\bexports\s*(?:\[|,)/.test(textOf(ctx, each))) return;
    // (a `require()` kept whole is an import: ImportFact.imported '=')
    const req = facts.imports.find((i) => i.local === of.text && i.imported === '=');
    if (req) facts.exports.push({ exported: '*', source: req.source });
    return;
  }
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'defineProperty' || !ts.isIdentifier(callee.expression) || callee.expression.text !== 'Object') return;
  if (!toExports(target) || !key || !ts.isStringLiteral(key) || key.text === '__esModule' || !descriptor || !ts.isObjectLiteralExpression(descriptor)) return;
  for (const prop of descriptor.properties) {
    if (!prop.name || !ts.isIdentifier(prop.name) || prop.name.text !== 'get') continue;
    const getter = ts.isPropertyAssignment(prop) ? unwrap(ts, prop.initializer) : prop;
    if (!ts.isFunctionExpression(getter) && !ts.isArrowFunction(getter) && !ts.isMethodDeclaration(getter)) return;
    const body = getter.body;
    const only = body && ts.isBlock(body) && body.statements.length === 1 ? body.statements[0] : undefined;
    const returned = body && !ts.isBlock(body) ? body : only && ts.isReturnStatement(only) ? only.expression : undefined;
    if (!returned) return;
    const local = `*cjs*${key.text}`;
    facts.scopes[0]!.bindings[local] = toExpr(ctx, returned, 0, null);
    // (`exports.users = void 0;` came first)
    if (!facts.exports.some((e) => e.exported === key.text && e.local === local)) facts.exports.push({ exported: key.text, local });
    return;
  }
}

/** `__toESM(express)`: the name an interop helper (INTEROP_HELPER) is handed; null for any other expression. */
function interopOf(ts: TSModule, node: TS.Expression): string | null {
  const u = unwrap(ts, node);
  if (!ts.isCallExpression(u) || u.arguments.length === 0 || !ts.isIdentifier(u.arguments[0]!)) return null;
  return INTEROP_HELPER.test(interopName(ts, u.expression)) ? (u.arguments[0] as TS.Identifier).text : null;
}

function requireOf(ts: TSModule, node: TS.Node): string | null {
  if (
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'require' &&
    node.arguments.length === 1 &&
    ts.isStringLiteralLike(node.arguments[0]!)
  )
    return (node.arguments[0] as TS.StringLiteral).text;
  return null;
}

/**
 * `wrapped[key] = asyncHandler(controller[key])` where `wrapped` is an object literal and `key` goes
 * over the keys of another object (a forEach callback's first parameter over `Object.keys(…)`, or
 * the variable of `for (const key in …)` / `for (const key of Object.keys(…))`): the first such
 * assignment (KEYED).
 */
function keyedAssign(ctx: Ctx, objName: string, keyName: string, rhs: Expr, scope: number): void {
  const obj = findScopeOf(ctx, scope, objName)?.bindings[objName];
  const keyScope = findScopeOf(ctx, scope, keyName);
  const key = keyScope?.bindings[keyName];
  if (!obj || isEncoded(obj) || obj.k !== 'obj' || !keyScope || !key || isEncoded(key) || Object.hasOwn(obj.props, `${KEYED}value`)) return;
  const list = loopListOf(ctx.facts, key);
  if (list?.k !== 'call' || list.args.length !== 1 || list.callee.k !== 'member' || list.callee.prop !== 'keys' || list.callee.obj.k !== 'ref' || list.callee.obj.name !== 'Object') return;
  obj.props[`${KEYED}of`] = list.args[0]!;
  obj.props[`${KEYED}key`] = refOf(ctx, keyName, keyScope.id);
  obj.props[`${KEYED}value`] = rhs;
}

/** The list a loop variable goes over: a name bound to an item of it, or a forEach callback's first parameter (its scope binds the list as EACH). */
export function loopListOf(facts: FileFacts, b: Expr): Expr | null {
  // (an item at a known place, `const [a, b] = list`, is no loop variable)
  if (b.k === 'item') return b.index === undefined ? b.of : null;
  const own = b.k === 'param' && b.index === 0 ? facts.scopes[facts.functions[b.fn]?.scope ?? -1] : undefined;
  const each = own ? bindingOf(own, EACH) : undefined;
  return each?.k === 'item' ? each.of : null;
}

/** The object literal `written` names, or a property of one a name holds (`sess.cookie`), at most a few levels down; null for any other. */
function nestedLiteral(ctx: Ctx, written: TS.Expression, scope: number, depth: number): Extract<Expr, { k: 'obj' }> | null {
  const { ts } = ctx;
  if (depth > 4) return null;
  // (through `!`, casts and parentheses: `sess.cookie!.secure`)
  const e = unwrap(ts, written);
  if (ts.isIdentifier(e)) {
    const b = findScopeOf(ctx, scope, e.text)?.bindings[e.text];
    return b && !isEncoded(b) && b.k === 'obj' ? b : null;
  }
  if (!ts.isPropertyAccessExpression(e)) return null;
  const holder = nestedLiteral(ctx, e.expression, scope, depth + 1);
  const p = holder && Object.hasOwn(holder.props, e.name.text) ? holder.props[e.name.text] : undefined;
  return p && p.k === 'obj' ? p : null;
}

/**
 * What TypeScript's decorator emit (`experimentalDecorators`) hands `__decorate` for one class of
 * the file: `X = __decorate([…], X)` its own decorators, `__decorate([…], X.prototype, "get",
 * null)` a member's (a static member's on `X`), `__param(0, (0, common_1.Req)())` among them a
 * parameter's, and `__metadata("design:paramtypes", […])` the constructor's parameter types.
 */
interface Decorations {
  own: TS.Expression[];
  members: Map<string, TS.Expression[]>;
  /** by member name ('constructor' for the class's), then parameter index */
  params: Map<string, Map<number, TS.Expression[]>>;
  paramTypes?: readonly TS.Expression[];
}

/** What `design:paramtypes` names for a parameter whose type is no class of the code's. */
const BUILT_IN_TYPES = new Set(['Object', 'String', 'Number', 'Boolean', 'Array', 'Function', 'Symbol', 'BigInt', 'Promise', 'Map', 'Set', 'Date']);

/** The name a function is called by: `__decorate(…)`, `tslib_1.__decorate(…)`, `(0, tslib_1.__decorate)(…)`, `(0, common_1.Get)()`. */
export function helperName(ts: TSModule, callee: TS.Expression): string | null {
  let c = unwrap(ts, callee);
  if (ts.isBinaryExpression(c) && c.operatorToken.kind === ts.SyntaxKind.CommaToken) c = unwrap(ts, c.right);
  return ts.isIdentifier(c) ? c.text : ts.isPropertyAccessExpression(c) ? c.name.text : null;
}

/** `__decorate([…], X…)` of a statement, also as assigned (`exports.X = X = __decorate([…], X)`); else null. */
function decorateCall(ts: TSModule, e: TS.Expression): TS.CallExpression | null {
  let x = e;
  while (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.EqualsToken) x = x.right;
  x = unwrap(ts, x);
  return ts.isCallExpression(x) && x.arguments.length >= 2 && ts.isArrayLiteralExpression(x.arguments[0]!) && helperName(ts, x.expression) === '__decorate' ? x : null;
}

/** The file's Decorations by class name, from its module-scope `__decorate` statements (read once). */
function decorationsOf(ctx: Ctx): Map<string, Decorations> {
  if (ctx.decorations) return ctx.decorations;
  const { ts } = ctx;
  const out = new Map<string, Decorations>();
  ctx.decorations = out;
  if (!ctx.text.includes('__decorate')) return out;
  for (const st of ctx.sf.statements) {
    const call = ts.isExpressionStatement(st) ? decorateCall(ts, st.expression) : null;
    if (!call) continue;
    const [list, target, key] = call.arguments as unknown as [TS.ArrayLiteralExpression, TS.Expression, TS.Expression | undefined];
    const t = unwrap(ts, target);
    const proto = ts.isPropertyAccessExpression(t) && t.name.text === 'prototype' ? unwrap(ts, t.expression) : null;
    const cls = proto ?? t;
    const member = key && ts.isStringLiteralLike(key) ? key.text : null;
    if (!ts.isIdentifier(cls) || (proto !== null && member === null)) continue;
    let d = out.get(cls.text);
    if (!d) out.set(cls.text, (d = { own: [], members: new Map(), params: new Map() }));
    for (const el of list.elements) {
      const helper = ts.isCallExpression(el) ? helperName(ts, el.expression) : null;
      const [first, second] = ts.isCallExpression(el) ? el.arguments : [];
      if (helper === '__metadata') {
        if (member === null && first && ts.isStringLiteralLike(first) && first.text === 'design:paramtypes' && second && ts.isArrayLiteralExpression(second)) d.paramTypes = second.elements;
      } else if (helper === '__param' && first && ts.isNumericLiteral(first) && second) {
        const of = member ?? 'constructor';
        const byIndex = d.params.get(of) ?? new Map<number, TS.Expression[]>();
        d.params.set(of, byIndex);
        byIndex.set(Number(first.text), [...(byIndex.get(Number(first.text)) ?? []), second]);
      } else if (member === null) d.own.push(el);
      else d.members.set(member, [...(d.members.get(member) ?? []), el]);
    }
  }
  return out;
}

/**
 * The decorators of a class, of a member of it, or (`param`, its index) of a member's parameter,
 * in the order written: those written on it (`@Get(':id')`), else, in JavaScript TypeScript
 * compiled, those it hands `__decorate` for it (Decorations).
 */
function decoratorsOf(ctx: Ctx, cls: TS.ClassLikeDeclaration, member?: TS.ClassElement, param?: number): readonly DecoratorUse[] {
  const { ts } = ctx;
  const node: TS.Node | undefined = member === undefined ? cls : param === undefined ? member : (member as TS.FunctionLikeDeclaration).parameters[param];
  const written = node && ts.canHaveDecorators(node) ? ts.getDecorators(node) : undefined;
  if (written && written.length > 0) return written.map((d) => ({ expr: d.expression, at: d }));
  const d = cls.name ? decorationsOf(ctx).get(cls.name.text) : undefined;
  const name = member === undefined ? null : ts.isConstructorDeclaration(member) ? 'constructor' : member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : null;
  const compiled = !d ? undefined : member === undefined ? d.own : name === null ? undefined : param === undefined ? d.members.get(name) : d.params.get(name)?.get(param);
  return (compiled ?? []).map((e) => ({ expr: e, at: e }));
}

/** A decorator as written (`@Get(':id')`, placed at its `@`), or compiled: the expression handed `__decorate`. */
export interface DecoratorUse {
  expr: TS.Expression;
  at: TS.Node;
}

/**
 * A class: declared (`class X {}`), or a class expression a variable is given (`let X = class X
 * {}`, what TypeScript writes for a decorated class, `name` the variable's). `exported`: how a
 * declaration at module scope is exported.
 */
function visitClass(ctx: Ctx, node: TS.ClassLikeDeclaration, name: string | null, scope: number, fn: FunctionFact | null, exported: 'default' | 'named' | null): void {
  const { ts, facts } = ctx;
  for (const a of ctx.adapters) a.visitClass?.(extractApi(ctx), node, scope, name);
  // `AccessUtils.canUserAccess(…)`: static members are values read from the class itself.
  const statics: Record<string, Expr> = {};
  // `this.app` in its members: the instance's fields — initialised where declared, by a
  // constructor parameter property, or first assigned (`this.app = express()`) — one object
  // for every instance of the class
  // (one the prototype of is given methods too has its instance made beforehand: prototypeClasses)
  const made = ctx.prototypes?.get(node)?.self;
  const fields: Record<string, Expr> = made?.fields ?? {};
  let ctor: number | null = null;
  const outer = ctx.thisRef;
  // `class UsersController extends BaseController`: the fields it does not set are the base's
  const heritage = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  const base = heritage && ts.isIdentifier(heritage) ? heritage : null;
  ctx.thisRef = name !== null ? Object.assign(made ?? {}, { name: `${THIS_PREFIX}${name}`, scope, fields, base: base?.text ?? null, extendsAny: heritage !== undefined, superArgs: null, injects: decoratorsOf(ctx, node).length > 0 }) : null;
  const thisRef = ctx.thisRef;
  if (name !== null) ctx.classes.push({ name, statics, node });
  for (const m of node.members) {
    if (!ts.isPropertyDeclaration(m) || !m.initializer || !ts.isIdentifier(m.name)) continue;
    if (hasModifier(ts, m, ts.SyntaxKind.StaticKeyword)) statics[m.name.text] = toExpr(ctx, m.initializer, scope, fn);
    else fields[m.name.text] = toExpr(ctx, m.initializer, scope, fn);
  }
  for (const m of node.members) {
    const isStatic = hasModifier(ts, m, ts.SyntaxKind.StaticKeyword);
    if ((ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m) || ts.isGetAccessor(m)) && m.body) {
      const name = ts.isConstructorDeclaration(m) ? 'constructor' : m.name && ts.isIdentifier(m.name) ? m.name.text : null;
      const made = makeFunction(ctx, m, scope, name);
      if (isStatic && name !== null && ts.isMethodDeclaration(m)) statics[name] = { k: 'fn', id: made.id };
      // `this.initializeRoutes(routes)`: a method is what the instance's name for it holds
      else if (name !== null && ts.isMethodDeclaration(m) && !Object.hasOwn(fields, name)) fields[name] = { k: 'fn', id: made.id };
      // `get router() { return this.app; }`: reading the field is what the getter returns
      else if (!isStatic && name !== null && ts.isGetAccessor(m) && made.returns.length === 1 && !Object.hasOwn(fields, name)) fields[name] = made.returns[0]!;
      if (ts.isConstructorDeclaration(m)) {
        ctor = made.id;
        for (const p of m.parameters) {
          // `constructor(private readonly store: Db)`: a parameter property
          if (!ts.isIdentifier(p.name) || !ts.canHaveModifiers(p) || (ts.getModifiers(p) ?? []).length === 0 || Object.hasOwn(fields, p.name.text)) continue;
          const b = facts.scopes[made.scope]!.bindings[p.name.text];
          if (typeof b === 'object') fields[p.name.text] = b;
        }
      }
    }
  }
  if (name !== null) ctx.classes.pop();
  ctx.thisRef = outer;
  let instance = fields;
  if (thisRef && base) {
    const pos = base.getStart(ctx.sf);
    instance = { [SUPER]: { k: 'new', callee: refOf(ctx, base.text, scope), args: thisRef.superArgs ?? [], at: locAt(ctx, pos), pos }, ...fields };
  }
  if (name !== null) {
    facts.scopes[scope]!.bindings[name] = { k: 'unknown', text: `class ${name}` };
    if (Object.keys(statics).length > 0) facts.scopes[scope]!.bindings[`*static*${name}`] = { k: 'obj', props: statics };
    if (Object.keys(instance).length > 0) facts.scopes[scope]!.bindings[`${THIS_PREFIX}${name}`] = { k: 'obj', props: instance };
    if (ctor !== null) facts.scopes[scope]!.bindings[`${CTOR_PREFIX}${name}`] = { k: 'fn', id: ctor };
    if (exported !== null) facts.exports.push({ exported: exported === 'default' ? 'default' : name, local: name });
  }
}

/**
 * What an assignment (`left = rhs`, a statement or inside an expression) makes known: CommonJS
 * exports at module scope (`module.exports = …`, `exports.x = …`), or the value of a variable
 * declared without one (`router = express.Router()` after `let router;`).
 */
function assign(ctx: Ctx, left: TS.Expression, rhs: Expr, scope: number): void {
  const { ts, facts } = ctx;
  const lhs = textOf(ctx, left);
  if (scope === 0 && lhs === 'module.exports') {
    const before = facts.scopes[0]!.bindings['*default*'];
    // `module.exports = withSentryConfig(module.exports, {…})` (what Sentry's wizard appends): the
    // exports object read on the right is what was assigned before
    facts.scopes[0]!.bindings['*default*'] = before !== undefined && !isEncoded(before) ? withExportsAs(rhs, before) : rhs;
    facts.exports.push({ exported: 'default', local: '*default*' });
    if (rhs.k === 'obj')
      for (const [k, v] of Object.entries(rhs.props).filter(([key]) => !key.startsWith('*spread*'))) {
        facts.scopes[0]!.bindings[`*cjs*${k}`] = v;
        facts.exports.push({ exported: k, local: `*cjs*${k}` });
      }
    return;
  }
  const m = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(lhs);
  // …or a property of a name for the exports object: `const Write = module.exports` (NodeBB's
  // modules), or the object `module.exports = Write` exports, then `Write.reload = …`
  const alias = scope === 0 && !m && ts.isPropertyAccessExpression(left) && ts.isIdentifier(left.expression) && isExportsObject(facts, left.expression.text) ? left.name.text : null;
  // `const controllers = {}; controllers.users = …`, `const cookie = {}; if (secure) cookie.secure =
  // true`: an object built up by assignments holds what is assigned; a literal set to another
  // literal somewhere (`{ secure: false }`, then `.secure = true`) is not known statically
  // (a property named as a string, `version['1.1'] = { … }`, is as much one)
  const member = ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left) ? left : null;
  const named = !member ? null : ts.isPropertyAccessExpression(member) ? member.name.text : ts.isStringLiteralLike(member.argumentExpression) ? member.argumentExpression.text : null;
  // (also one held by another: `sess.cookie.secure = true` of `const sess = { cookie: { secure:
  // false } }`, hyperdx's)
  const holder = !m && member && named !== null && (ts.isIdentifier(member.expression) || ts.isPropertyAccessExpression(unwrap(ts, member.expression))) ? member.expression : null;
  const held = holder ? nestedLiteral(ctx, holder, scope, 0) : null;
  if (held) {
    const was = Object.hasOwn(held.props, named!) ? held.props[named!]! : undefined;
    if (was === undefined) held.props[named!] = rhs;
    else if (isLiteral(was) && !(isLiteral(rhs) && rhs.k === was.k && rhs.v === was.v)) held.props[named!] = { k: 'unknown', text: ts.isIdentifier(holder!) ? `${holder.text}.${named}` : textOf(ctx, left, 80) };
  } else if (holder && ts.isIdentifier(holder)) {
    const obj = findScopeOf(ctx, scope, holder.text)?.bindings[holder.text];
    // `middleware.authenticateRequest = helpers.try(async (req, res, next) => …)` of `function
    // (middleware)`: a function given the object passed as a property (FunctionFact.paramProps),
    // in the function's own body (not `ctx.body = { … }` of a handler: no function)
    if (obj && !isEncoded(obj) && obj.k === 'param' && (rhs.k === 'fn' || (rhs.k === 'call' && rhs.args.some((a) => a.k === 'fn'))) && !ctx.restParams.has(obj) && ctx.when.length === 0 && ctx.loops === 0) {
      const f = ctx.facts.functions[obj.fn];
      if (f && oneFunction(ctx, scope, f.scope)) (f.paramProps ??= []).push({ index: obj.index, prop: named!, value: rhs });
    }
    // `if (!keystone.app) keystone.app = express()` of `function createApp(keystone)`: what the
    // function reads there afterwards is the caller's value or the one made (SET_PREFIX, toExpr)
    const own = obj && !isEncoded(obj) && obj.k === 'param' && (rhs.k === 'call' || rhs.k === 'new') ? findScopeOf(ctx, scope, holder.text) : undefined;
    if (own && !Object.hasOwn(own.bindings, `${SET_PREFIX}${holder.text}.${named}`)) {
      own.bindings[`${SET_PREFIX}${holder.text}.${named}`] = rhs;
      ctx.paramSets = true;
    }
  }
  if (ts.isElementAccessExpression(left) && ts.isIdentifier(left.expression) && ts.isIdentifier(left.argumentExpression)) keyedAssign(ctx, left.expression.text, left.argumentExpression.text, rhs, scope);
  // `global.app = express()` (a legacy Express server's, route files then registering on `app`
  // unimported): the global as first set, wherever the module runs it under no condition (in a
  // function too, `exports.getApp = function () { global.app = express(); … }`)
  if (member && named !== null && ts.isIdentifier(member.expression) && GLOBAL_OBJECTS.has(member.expression.text) && !findScopeOf(ctx, scope, member.expression.text)) {
    const key = GLOBAL_PREFIX + named;
    if (ctx.when.length === 0 && ctx.loops === 0 && !Object.hasOwn(facts.scopes[0]!.bindings, key)) facts.scopes[0]!.bindings[key] = rhs;
  } else if (member && named !== null && ts.isIdentifier(member.expression) && !NOT_GLOBAL_HOLDERS.has(member.expression.text) && !findScopeOf(ctx, scope, member.expression.text) && !facts.imports.some((i) => i.local === (member.expression as TS.Identifier).text)) {
    // `WIKI.auth = require('./core/auth').init()` of a global another module sets (`global.WIKI =
    // WIKI`; wiki.js's `/* global WIKI */`): a property of that global, as first set here under no condition
    const key = `${GLOBAL_PREFIX}${member.expression.text}.${named}`;
    if (ctx.when.length === 0 && ctx.loops === 0 && !Object.hasOwn(facts.scopes[0]!.bindings, key)) facts.scopes[0]!.bindings[key] = rhs;
  }
  if (scope === 0 && (m || alias)) {
    const name = m ? m[1]! : alias!;
    facts.scopes[0]!.bindings[`*cjs*${name}`] = rhs;
    facts.exports.push({ exported: name, local: `*cjs*${name}` });
    return;
  }
  // `exports.sessionMiddleware = expressSession({ … })` in a function (Etherpad's
  // `restartServer`), set whenever it runs, under no condition: the export, when the module
  // sets it nowhere before (not a parameter or local named `exports` or `module`, a UMD wrapper's)
  const exported = m && !findScopeOf(ctx, scope, lhs.startsWith('module.') ? 'module' : 'exports') ? `*cjs*${m[1]!}` : null;
  if (exported !== null && ctx.when.length === 0 && ctx.loops === 0 && !Object.hasOwn(facts.scopes[0]!.bindings, exported)) {
    facts.scopes[0]!.bindings[exported] = rhs;
    facts.exports.push({ exported: m![1]!, local: exported });
    return;
  }
  if (ts.isIdentifier(left)) {
    const s = findScopeOf(ctx, scope, left.text);
    const before = s?.bindings[left.text];
    const held = before;
    // (declared empty, `let stripe: Stripe | null = null`, as a lazily made client: what it is first given)
    if (s && (isUnassigned(before) || (before !== undefined && !isEncoded(before) && isEmpty(before) && !isEmpty(rhs)))) s.bindings[left.text] = rhs;
    // `let secure = false; if (production) secure = true`: a flag set to another value somewhere
    // is not known statically (a first value holds for anything else: a prefix, a router)
    else if (s && before && !isEncoded(before) && before.k === 'bool' && !(rhs.k === 'bool' && rhs.v === before.v)) s.bindings[left.text] = { k: 'unknown', text: left.text };
    // `middlewares = [middleware.autoLocale, ...middlewares]` (NodeBB's route helpers): a list
    // (or a string) built on from its first value, where nothing read it before, in the function
    // declaring it, under no condition and in no loop, holds what it is built into from there on
    // (not `app = withTracing(app)`: what a package makes of a router is no router known)
    else if (s && before && !isEncoded(before) && builds(rhs) && ctx.when.length === 0 && ctx.loops === 0 && mentions(rhs, left.text) && oneFunction(ctx, scope, s.id) && unreadSinceDeclared(ctx, left)) {
      const built = builtOn(rhs, left.text, (r) => r.name === left.text && findScopeOf(ctx, r.scope, r.name) === s, before, 0);
      if (built !== null) s.bindings[left.text] = built;
    }
    // `let api; if (v2) api = v2Router; else api = v1Router`, `let prefix = '/internal'; if (legacy)
    // prefix = '/legacy'`: a name given another value under a condition holds either, as the
    // condition chooses (what it held before in the other case) — also one built on its value
    // there, read as for the list above (evolution-api's `let route = '/' + path; param ? (route
    // += '/:instanceName') : null`)
    else if (s && before && !isEncoded(before) && ctx.when.length > 0 && !sameLiteral(before, rhs)) {
      const c = ctx.when[ctx.when.length - 1]!;
      const value = !mentions(rhs, left.text)
        ? rhs
        : builds(rhs) && ctx.loops === 0 && oneFunction(ctx, scope, s.id) && unreadSinceDeclared(ctx, left)
          ? builtOn(rhs, left.text, (r) => r.name === left.text && findScopeOf(ctx, r.scope, r.name) === s, before, 0)
          : null;
      if (value !== null) s.bindings[left.text] = { k: 'choice', test: c.test, then: c.holds ? value : before, otherwise: c.holds ? before : value, text: `${left.text} (${c.text})` };
    }
    // (a name given another value after its first: no condition is decided on it, link/conditions.ts;
    // and one whose binding was not given what it holds now is STALE)
    if (s && before && !isUnassigned(before) && !(!isEncoded(before) && sameLiteral(before, rhs))) {
      s.bindings[REASSIGNED + left.text] = { k: 'bool', v: true };
      if (s.bindings[left.text] === held) s.bindings[STALE + left.text] = { k: 'bool', v: true };
    }
  }
  // `this.app = express()` in a class's member: the field, as first assigned (where it was not
  // declared, or declared empty: `app = undefined`)
  if (ctx.thisRef && ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && isEmpty(ctx.thisRef.fields[left.name.text]))
    ctx.thisRef.fields[left.name.text] = rhs;
  // `Server.instance = new Server()` in the class's members (a singleton's `getInstance()`): the
  // static member, as first assigned (`static instance = null`)
  if (ts.isPropertyAccessExpression(left) && ts.isIdentifier(left.expression)) {
    const name = left.expression.text;
    let cls: Ctx['classes'][number] | undefined;
    for (let i = ctx.classes.length - 1; i >= 0 && !cls; i--) if (ctx.classes[i]!.name === name) cls = ctx.classes[i];
    if (cls && isEmpty(cls.statics[left.name.text])) cls.statics[left.name.text] = rhs;
  }
}

/** Is `rhs` a list or a string built (`[…, ...x]`, `` `${x}/v1` ``, `x + '/v1'`, `x.concat(…)`)? */
function builds(rhs: Expr): boolean {
  return rhs.k === 'arr' || rhs.k === 'tpl' || (rhs.k === 'call' && rhs.callee.k === 'member' && rhs.callee.prop === 'concat');
}

/** Is scope `from` scope `to`, or inside it in the same function (no function's own scope between them)? */
function oneFunction(ctx: Ctx, from: number, to: number): boolean {
  const own = new Set(ctx.facts.functions.map((f) => f.scope));
  for (let sc = from; sc !== to; ) {
    const parent = ctx.facts.scopes[sc]!.parent;
    if (own.has(sc) || parent === null) return false;
    sc = parent;
  }
  return true;
}

/**
 * Is the name assigned at `left` read nowhere between its declaration (`let` / `var`, the last
 * before it) and this assignment? Told from the text: a mention in a comment counts as a read.
 */
function unreadSinceDeclared(ctx: Ctx, left: TS.Identifier): boolean {
  const since = sinceDeclared(ctx, left.text, left.pos, 'let|var');
  if (since === null) return false;
  const name = escapedName(left.text);
  // (what the name is given since is no read of it: `route += '/:id'`, `route = route + '/x'`, each read into its binding)
  const writes = new RegExp(`(?<![\\w$.])${name}\\s*(?:\\+?=(?!=)\\s*(?:${name}(?![\\w$]))?)`, 'g');
  return !new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(since.replace(writes, ''));
}

/** A name as a regular expression's text (`$` escaped). */
function escapedName(name: string): string {
  return name.replace(/[$]/g, '\\$&');
}

/**
 * The text from the last declaration of `name` before `pos` (by one of `keywords`, `'let|var'`)
 * to `pos`; null when there is none. Told from the text: a mention in a comment counts.
 */
function sinceDeclared(ctx: Ctx, name: string, pos: number, keywords: string): string | null {
  const before = ctx.text.slice(0, pos);
  let declared: RegExpExecArray | null = null;
  for (const m of before.matchAll(new RegExp(`(?<![\\w$.])(?:${keywords})\\s+${escapedName(name)}(?![\\w$])`, 'g'))) declared = m;
  return declared === null ? null : before.slice(declared.index + declared[0].length);
}

/**
 * `rhs` with each read of the name it is assigned to (`name`, read as `self` tells) replaced by
 * the value it held (`before`): null when a read of the name is left, in an expression not
 * taken apart here.
 */
function builtOn(rhs: Expr, name: string, self: (r: Extract<Expr, { k: 'ref' }>) => boolean, before: Expr, depth: number): Expr | null {
  if (depth > MAX_DEPTH) return null;
  const sub = (e: Expr): Expr | null => builtOn(e, name, self, before, depth + 1);
  const all = (es: Expr[]): Expr[] | null => {
    const out: Expr[] = [];
    for (const e of es) {
      const x = sub(e);
      if (x === null) return null;
      out.push(x);
    }
    return out;
  };
  switch (rhs.k) {
    case 'ref':
      return self(rhs) ? before : rhs;
    case 'arr': {
      const items = all(rhs.items);
      return items && { k: 'arr', items };
    }
    case 'tpl': {
      const parts = all(rhs.parts);
      return parts && { k: 'tpl', parts };
    }
    case 'member': {
      const obj = sub(rhs.obj);
      return obj && { k: 'member', obj, prop: rhs.prop };
    }
    case 'call':
    case 'new': {
      const callee = sub(rhs.callee);
      const args = all(rhs.args);
      return callee && args && { ...rhs, callee, args };
    }
    case 'str':
    case 'num':
    case 'bool':
    case 'fn':
    case 're':
      return rhs;
    default:
      return mentions(rhs, name) ? null : rhs;
  }
}

/** Is the module-scope `name` the CommonJS exports object: `const X = module.exports` (or `= exports`), or `module.exports = X`? (Facts read back decode as asked: the linker asks too.) */
export function isExportsObject(facts: FileFacts, name: string): boolean {
  const top = facts.scopes[0]!;
  const b = bindingOf(top, name);
  if (b?.k === 'member' && b.prop === 'exports' && b.obj.k === 'ref' && b.obj.name === 'module' && b.obj.scope === 0 && !bindingOf(top, 'module')) return true;
  if (b?.k === 'ref' && b.name === 'exports' && b.scope === 0 && !bindingOf(top, 'exports')) return true;
  const d = bindingOf(top, '*default*');
  return d?.k === 'ref' && d.name === name && d.scope === 0;
}

/** The plain names a list pattern binds (`[router, , verb]`), each with its place in the list. */
function listNames(ts: TSModule, pattern: TS.ArrayBindingPattern): [string, number][] {
  const out: [string, number][] = [];
  pattern.elements.forEach((el, i) => {
    if (!ts.isOmittedExpression(el) && !el.dotDotDotToken && ts.isIdentifier(el.name)) out.push([el.name.text, i]);
  });
  return out;
}

/** Two literals of one value. */
function sameLiteral(a: Expr, b: Expr): boolean {
  return isLiteral(a) && isLiteral(b) && a.k === b.k && a.v === b.v;
}

/** Does `e` read the name `name` (`x = wrap(x)`)? */
function mentions(e: Expr, name: string): boolean {
  return JSON.stringify(e).includes(`"name":${JSON.stringify(name)}`);
}

function isLiteral(e: Expr): e is Extract<Expr, { k: 'str' | 'num' | 'bool' }> {
  return e.k === 'str' || e.k === 'num' || e.k === 'bool';
}

/** No value yet: not there, `null` or `undefined`. */
function isEmpty(e: Expr | undefined): boolean {
  return e === undefined || (e.k === 'unknown' && e.text === 'null') || (e.k === 'ref' && e.name === 'undefined');
}

/** Kinds of expressions that only wrap another (`(x)`, `x as T`, `x!`, `await x` …), by kind number. */
let wrapperKinds: Uint8Array | null = null;

function isWrapper(ts: TSModule, n: TS.Expression): boolean {
  if (wrapperKinds === null) {
    const K = ts.SyntaxKind;
    wrapperKinds = new Uint8Array(K.Count);
    for (const k of [K.ParenthesizedExpression, K.AsExpression, K.NonNullExpression, K.SatisfiesExpression, K.TypeAssertionExpression, K.AwaitExpression]) wrapperKinds[k] = 1;
  }
  return wrapperKinds[n.kind] === 1;
}

/**
 * Is `n` (visited under `ancestors`, the function first) in the `then` branch of an `if` whose
 * test holds only for a request whose method is `OPTIONS`: `x.method === 'OPTIONS'` (either way
 * round, `==` too), alone or a conjunct of an `&&`?
 */
function underPreflightTest(ts: TSModule, n: TS.Node, ancestors: readonly TS.Node[]): boolean {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!;
    const inner = i + 1 < ancestors.length ? ancestors[i + 1]! : n;
    if (ts.isIfStatement(a) && a.thenStatement === inner && requiresPreflight(ts, a.expression)) return true;
  }
  return false;
}

function requiresPreflight(ts: TSModule, test: TS.Expression): boolean {
  const e = unwrap(ts, test);
  if (!ts.isBinaryExpression(e)) return false;
  const op = e.operatorToken.kind;
  if (op === ts.SyntaxKind.AmpersandAmpersandToken) return requiresPreflight(ts, e.left) || requiresPreflight(ts, e.right);
  if (op !== ts.SyntaxKind.EqualsEqualsEqualsToken && op !== ts.SyntaxKind.EqualsEqualsToken) return false;
  const options = (x: TS.Expression): boolean => ts.isStringLiteralLike(x) && x.text === 'OPTIONS';
  const method = (x: TS.Expression): boolean => ts.isPropertyAccessExpression(x) && x.name.text === 'method';
  const [l, r] = [unwrap(ts, e.left), unwrap(ts, e.right)];
  return (options(l) && method(r)) || (options(r) && method(l));
}

function unwrap(ts: TSModule, node: TS.Expression): TS.Expression {
  let n = node;
  while (isWrapper(ts, n)) n = (n as TS.ParenthesizedExpression).expression;
  return n;
}

// ---------------------------------------------------------------------------
// Expressions

const MAX_DEPTH = 200;

/** The binding, in the scope of a `forEach` callback, of the list it is called for (no identifier can be this name). */
export const EACH = '*each*';
/** A binding of the module scope telling that the file has a loop variable (the linker looks for loops only then). */
export const LOOPS = '*loops*';

/** Note that the file has a loop variable (`LOOPS`). */
function markLoops(ctx: Ctx): void {
  ctx.facts.scopes[0]!.bindings[LOOPS] = { k: 'bool', v: true };
}

function toExpr(ctx: Ctx, node: TS.Expression, scope: number, fn: FunctionFact | null, nameHint?: string, depth = 0): Expr {
  const { ts } = ctx;
  ctx.deadline.tick();
  if (depth > MAX_DEPTH) return { k: 'unknown', text: 'too deep' };
  // unwrap(), keeping the node that wraps the expression directly (`await x.get()`)
  let n = node;
  let wrapper: TS.Expression | null = null;
  while (isWrapper(ts, n)) {
    wrapper = n;
    n = (n as TS.ParenthesizedExpression).expression;
  }
  // one branch per kind (a chain of tests ran for every expression of every file)
  const K = ts.SyntaxKind;
  switch (n.kind) {
    case K.Identifier:
      return refOf(ctx, (n as TS.Identifier).text, scope);
    case K.ThisKeyword:
      if (ctx.thisRef) return refOf(ctx, ctx.thisRef.name, ctx.thisRef.scope);
      break;
    case K.StringLiteral:
    case K.NoSubstitutionTemplateLiteral:
      return { k: 'str', v: (n as TS.StringLiteralLike).text };
    case K.NumericLiteral:
      return { k: 'num', v: Number((n as TS.NumericLiteral).text) };
    case K.PrefixUnaryExpression: {
      // `-3` (`file.slice(0, -3)`): a negative number
      const u = n as TS.PrefixUnaryExpression;
      if (u.operator === K.MinusToken && u.operand.kind === K.NumericLiteral) return { k: 'num', v: -Number((u.operand as TS.NumericLiteral).text) };
      break;
    }
    case K.TrueKeyword:
      return { k: 'bool', v: true };
    case K.FalseKeyword:
      return { k: 'bool', v: false };
    case K.RegularExpressionLiteral:
      return regexLiteral(n as TS.RegularExpressionLiteral);
    case K.TemplateExpression: {
      const t = n as TS.TemplateExpression;
      const parts: Expr[] = [{ k: 'str', v: t.head.text }];
      for (const span of t.templateSpans) {
        parts.push(toExpr(ctx, span.expression, scope, fn, undefined, depth + 1));
        parts.push({ k: 'str', v: span.literal.text });
      }
      // (copied to its length: see shareDefaults)
      return { k: 'tpl', parts: parts.slice() };
    }
    case K.BinaryExpression: {
      const b = n as TS.BinaryExpression;
      const opKind = b.operatorToken.kind;
      if (opKind === K.PlusToken) {
        const l = toExpr(ctx, b.left, scope, fn, undefined, depth + 1);
        const r = toExpr(ctx, b.right, scope, fn, undefined, depth + 1);
        return { k: 'tpl', parts: [...(l.k === 'tpl' ? l.parts : [l]), ...(r.k === 'tpl' ? r.parts : [r])] };
      }
      // `route.version ?? 'v1'`, `prefix || '/api'`: the left value, or the right when it is missing
      const op = fallbackOp(ts, b);
      if (op !== null) {
        const l = toExpr(ctx, b.left, scope, fn, undefined, depth + 1);
        const r = toExpr(ctx, b.right, scope, fn, undefined, depth + 1);
        return { k: 'fallback', op, l, r, text: textOf(ctx, b, 80) };
      }
      // `(0, express_1.default)()` (TypeScript's and Babel's CommonJS output): a comma expression is
      // worth its last operand (the first still walked, for the calls and functions in it)
      if (opKind === K.CommaToken) {
        toExpr(ctx, b.left, scope, fn, undefined, depth + 1);
        return toExpr(ctx, b.right, scope, fn, nameHint, depth + 1);
      }
      // `var app = module.exports = express()`: an assignment is worth what it assigns.
      if (opKind === K.EqualsToken) {
        // (`express = __toESM(express)`, rolldown's: the module it holds, as it was)
        if (ts.isIdentifier(b.left) && interopOf(ts, b.right) === b.left.text) return toExpr(ctx, b.left, scope, fn, undefined, depth + 1);
        const rhs = toExpr(ctx, b.right, scope, fn, undefined, depth + 1);
        assign(ctx, b.left, rhs, scope);
        return rhs;
      }
      break;
    }
    case K.ArrayLiteralExpression:
      return {
        k: 'arr',
        items: (n as TS.ArrayLiteralExpression).elements.map((el) =>
          ts.isSpreadElement(el) ? toExpr(ctx, el.expression, scope, fn, undefined, depth + 1) : toExpr(ctx, el, scope, fn, undefined, depth + 1),
        ),
      };
    case K.ObjectLiteralExpression: {
      const o = n as TS.ObjectLiteralExpression;
      // `module.exports = { init() { this.passport = passport; return this }, … }` (wiki.js's core
      // modules): `this` in the object's methods is the object, given what they assign to it
      const self = literalSelf(ctx, o, scope);
      const outer = ctx.thisRef;
      const made = objectExpr(
        ctx,
        o,
        scope,
        (x, key) => toExpr(ctx, x, scope, fn, key ?? undefined, depth + 1),
        (m, key) => {
          if (self) ctx.thisRef = self;
          try {
            return { k: 'fn', id: makeFunction(ctx, m, scope, key).id };
          } finally {
            ctx.thisRef = outer;
          }
        },
      );
      if (self && made.k === 'obj') {
        for (const [k, v] of Object.entries(self.fields)) if (!Object.hasOwn(made.props, k)) made.props[k] = v;
        ctx.facts.scopes[scope]!.bindings[self.name] = made;
      }
      return made;
    }
    case K.PropertyAccessExpression: {
      const a = n as TS.PropertyAccessExpression;
      // A read: the target of an assignment (`document.cookie = …`) is never walked as an expression.
      if (a.expression.kind === K.Identifier && (a.expression as TS.Identifier).text === 'document' && a.name.text === 'cookie' && !onlyTested(ctx, a)) {
        const at = locOf(ctx, a);
        ctx.facts.documentCookieReads.push({ at, snippet: lineText(ctx, at.line) });
      }
      // `args.length` of a rest parameter: how many arguments a call passes from its place on
      const rest = ctx.restParams.size > 0 && a.name.text === 'length' ? restParam(ctx, a.expression, scope) : null;
      if (rest) return { k: 'argc', fn: rest.fn, from: rest.index };
      const read = memberOf(ctx, toExpr(ctx, a.expression, scope, fn, undefined, depth + 1), a.name.text);
      // `keystone.app` of a parameter the function gives that property (SET_PREFIX): the caller's, or the one made
      const owner = ctx.paramSets && a.expression.kind === K.Identifier ? findScopeOf(ctx, scope, (a.expression as TS.Identifier).text) : undefined;
      const made = owner?.bindings[`${SET_PREFIX}${(a.expression as TS.Identifier).text}.${a.name.text}`];
      return made !== undefined && !isEncoded(made) ? { k: 'fallback', op: '||', l: read, r: made, text: textOf(ctx, a, 80) } : read;
    }
    case K.ElementAccessExpression: {
      const a = n as TS.ElementAccessExpression;
      const arg = a.argumentExpression;
      // `args[args.length - 2]` of a rest parameter: the argument so many from the last
      const rest = ctx.restParams.size > 0 ? restParam(ctx, a.expression, scope) : null;
      const fromEnd = rest ? countedFromEnd(ts, arg, (a.expression as TS.Identifier).text) : null;
      if (rest && fromEnd !== null) return { k: 'argAt', fn: rest.fn, from: rest.index, fromEnd, text: textOf(ctx, a, 80) };
      const obj = toExpr(ctx, a.expression, scope, fn, undefined, depth + 1);
      if (ts.isStringLiteralLike(arg)) return memberOf(ctx, obj, arg.text);
      // `file.split('.')[0]`: an index is the property of its name
      if (isIndex(ts, arg)) return memberOf(ctx, obj, arg.text);
      // `routers[name]`: the member a key computed names, when the linker knows it
      return { k: 'index', obj, key: toExpr(ctx, arg, scope, fn, undefined, depth + 1), text: textOf(ctx, a, 80) };
    }
    case K.ArrowFunction:
    case K.FunctionExpression: {
      const f = makeFunction(ctx, n as TS.ArrowFunction | TS.FunctionExpression, scope, nameHint ?? (ts.isFunctionExpression(n) && n.name ? n.name.text : null));
      return { k: 'fn', id: f.id };
    }
    case K.CallExpression: {
      // `__importDefault(require("express"))` (TypeScript's CommonJS output; `__importStar`,
      // tslib's, rolldown's `__toESM`, Babel's `_interopRequireDefault`): the module itself, whose
      // `.default` a package's is (Evaluator.member)
      const c = n as TS.CallExpression;
      if (INTEROP_HELPER.test(interopName(ts, c.expression)) && c.arguments.length >= 1 && (requireOf(ts, c.arguments[0]!) !== null || ts.isIdentifier(c.arguments[0]!))) return toExpr(ctx, c.arguments[0]!, scope, fn, nameHint, depth + 1);
      return callExpr(ctx, c, wrapper, scope, fn, depth);
    }
    case K.NewExpression:
      return callExpr(ctx, n as TS.CallExpression | TS.NewExpression, wrapper, scope, fn, depth);
    // `v2 ? '/api/v2' : '/api/v1'`: either, as the test decides (Evaluator, `choice`)
    case K.ConditionalExpression: {
      const c = n as TS.ConditionalExpression;
      const test = condTest(ctx, c.condition, scope, fn, depth + 1);
      const then = toExpr(ctx, c.whenTrue, scope, fn, undefined, depth + 1);
      const otherwise = toExpr(ctx, c.whenFalse, scope, fn, undefined, depth + 1);
      return { k: 'choice', test, then, otherwise, text: textOf(ctx, c, 80) };
    }
    case K.ClassExpression:
      visitStatement(ctx, n, scope, fn);
      return { k: 'unknown', text: 'class' };
  }
  // Anything else: still walk it, for nested calls and functions.
  ts.forEachChild(n, (c) => {
    if (ts.isExpression(c)) toExpr(ctx, c, scope, fn, undefined, depth + 1);
  });
  return { k: 'unknown', text: textOf(ctx, n, 80) };
}

/**
 * The object a literal's methods read as `this`, when one of its methods spells `this`: the
 * instance its methods assign fields of (as a class's is), bound under a name of its own in the
 * scope the literal is in. Null for any other literal.
 */
function literalSelf(ctx: Ctx, o: TS.ObjectLiteralExpression, scope: number): NonNullable<Ctx['thisRef']> | null {
  // (where the file spells `this`, found once: most literals hold none)
  const spans = (ctx.thisSpans ??= nameSpans(ctx.text, ['this']));
  if (!spelledWithin(spans, o.pos, o.end) || !o.properties.some((p) => ctx.ts.isMethodDeclaration(p) && p.body && spelledWithin(spans, p.body.pos, p.body.end))) return null;
  return { name: `${THIS_PREFIX}#${o.pos}`, scope, fields: {}, base: null, extendsAny: false, superArgs: null, injects: false };
}

/**
 * An object literal's Expr, its props in source order: a spread is kept as `*spread*N` so that a
 * later key wins over it and it over an earlier one, as in JS (Evaluator.member reads them from
 * the end). `value` reads a property's value (given its key when it has one), `method` a method.
 */
function objectExpr(
  ctx: Ctx,
  e: TS.ObjectLiteralExpression,
  scope: number,
  value: (x: TS.Expression, key: string | null) => Expr,
  method: (m: TS.MethodDeclaration, key: string | null) => Expr,
): Expr {
  const { ts } = ctx;
  const props: Record<string, Expr> = {};
  const set = (key: string, v: Expr): void => {
    // (a delete is a call into the runtime even for a key not there)
    if (Object.hasOwn(props, key)) delete props[key];
    props[key] = v;
  };
  let spreads = 0;
  for (const p of e.properties) {
    if (ts.isPropertyAssignment(p)) {
      const key = propName(ts, p.name);
      const v = value(p.initializer, key);
      if (key !== null) set(key, v);
    } else if (ts.isShorthandPropertyAssignment(p)) {
      set(p.name.text, refOf(ctx, p.name.text, scope));
    } else if (ts.isMethodDeclaration(p) && p.body) {
      const key = propName(ts, p.name);
      const v = method(p, key);
      if (key !== null) set(key, v);
    } else if (p.kind === ts.SyntaxKind.GetAccessor) {
      // `get util() { return require('./util'); }` (Ghost's lazy service modules): what it returns,
      // read where the object is (a getter whose one statement is its return holds no locals)
      const only = (p as TS.GetAccessorDeclaration).body?.statements;
      const returned = only?.length === 1 && ts.isReturnStatement(only[0]!) ? only[0].expression : undefined;
      const key = propName(ts, p.name);
      if (key !== null && returned) set(key, value(returned, key));
    } else if (ts.isSpreadAssignment(p)) {
      set(`*spread*${spreads++}`, value(p.expression, null));
    }
  }
  return { k: 'obj', props };
}

/**
 * `router.get.call(router, path, handler)`, `expressApp[method].call(expressApp, route.path,
 * handler)` (parse-server's PromiseRouter), `app.use.apply(app, [path, handler])`: a method called
 * through `call` or `apply` with the object it is read from as `this` is that method's call, with
 * the arguments after `this` (for `apply`, a list written out: writtenList). Null for any other call.
 */
function calledDirectly(ctx: Ctx, n: TS.CallExpression, callee: Expr, args: Expr[]): { callee: Expr; args: Expr[]; computed: { obj: Expr; key: Expr } | null } | null {
  const { ts } = ctx;
  if (callee.k !== 'member' || (callee.prop !== 'call' && callee.prop !== 'apply') || !ts.isPropertyAccessExpression(n.expression) || !n.arguments[0]) return null;
  const method = unwrap(ts, n.expression.expression);
  const owner = ts.isPropertyAccessExpression(method) || ts.isElementAccessExpression(method) ? method.expression : null;
  if (!owner || textOf(ctx, unwrap(ts, owner)) !== textOf(ctx, unwrap(ts, n.arguments[0]))) return null;
  const passed = callee.prop === 'call' ? args.slice(1) : args.length === 2 ? writtenList(args[1]!) : null;
  if (passed === null) return null;
  const of = callee.obj;
  if (of.k === 'member') return { callee: of, args: passed, computed: null };
  return of.k === 'index' ? { callee: of, args: passed, computed: { obj: of.obj, key: of.key } } : null;
}

/**
 * The items of a list written out (`[path, handler]`), or of one written out and extended with
 * `concat` (mockbin's `[endpoint.path].concat(defaults)`: the path, then the list of middleware,
 * which a registration flattens as Express does); null for any other value.
 */
function writtenList(e: Expr): Expr[] | null {
  if (e.k === 'arr') return e.items;
  return e.k === 'call' && e.callee.k === 'member' && e.callee.prop === 'concat' && e.callee.obj.k === 'arr' ? [...e.callee.obj.items, ...e.args] : null;
}

/** A call or `new` (toExpr): its callee and arguments, and what the call tells (registrations, callbacks' parameters). */
function callExpr(ctx: Ctx, n: TS.CallExpression | TS.NewExpression, wrapper: TS.Expression | null, scope: number, fn: FunctionFact | null, depth: number): Expr {
  const { ts } = ctx;
  // `api.put(url, body).then(…)`: the call answers a promise (marked before it is read)
  if (ts.isPropertyAccessExpression(n.expression) && PROMISE_METHODS.has(n.expression.name.text)) {
    const answering = unwrap(ts, n.expression.expression);
    if (ts.isCallExpression(answering)) ctx.promised.add(answering);
  }
  // `super('/users', Router())`: a call of the constructor of the class extended
  const superOf = n.expression.kind === ts.SyntaxKind.SuperKeyword ? ctx.thisRef : null;
  // `this.app[options.method](…)`: a method named by a name or a property, maybe a registration's
  // (`fastify[method as HTTPMethods](…)`: the name under a type assertion too; plane's
  // `(router[method] as (path: string, …) => void)(…)`: the method itself under one)
  const called = unwrap(ts, n.expression);
  const key = ts.isElementAccessExpression(called) ? unwrap(ts, called.argumentExpression) : null;
  const ea = key && (ts.isIdentifier(key) || ts.isPropertyAccessExpression(key)) ? (called as TS.ElementAccessExpression) : null;
  const computed = ea ? { obj: toExpr(ctx, ea.expression, scope, fn, undefined, depth + 1), key: toExpr(ctx, ea.argumentExpression, scope, fn, undefined, depth + 1) } : null;
  // `await import('./routes')`: the module's namespace, as `import()` is no name a binding may
  // take, `import` stands for it (Evaluator: a module's namespace)
  const callee: Expr = superOf?.base
    ? refOf(ctx, superOf.base, superOf.scope)
    : n.expression.kind === ts.SyntaxKind.ImportKeyword
      ? { k: 'ref', name: 'import', scope: 0 }
      : ea
      ? { k: 'index', obj: computed!.obj, key: computed!.key, text: textOf(ctx, ea, 80) }
      : toExpr(ctx, n.expression, scope, fn, undefined, depth + 1);
  // `.filter((f) => f.endsWith('.js') && f !== 'index.js')`: what the callback returns is a test
  const first = n.arguments?.[0];
  if (callee.k === 'member' && callee.prop === 'filter' && first && (ts.isArrowFunction(first) || ts.isFunctionExpression(first)) && onlyReturn(ts, first.body) !== undefined) ctx.predicates.add(first);
  // `next().then(…, (error) => { report(error); throw error })`, `result.catch(…)` of `const result = next()`:
  // the rejection handler of the promise the rest of the chain answers, marked before it is walked
  if (callee.k === 'member' && fn) {
    const rejecting = callee.prop === 'then' ? n.arguments?.[1] : callee.prop === 'catch' ? first : undefined;
    if (rejecting && (ts.isArrowFunction(rejecting) || ts.isFunctionExpression(rejecting)) && handsOnPromise(ctx, callee.obj, scope, fn)) ctx.rejections.add(rejecting);
  }
  // `routes.forEach((route) => …)` (or `.map`, `.filter`): the callback's first parameter is an item
  // of the list (kept as a parameter besides: the linker unrolls the loop when the list is known),
  // bound before its body is walked (keyedAssign reads it there)
  const loops = callee.k === 'member' && (callee.prop === 'forEach' || callee.prop === 'map' || callee.prop === 'filter');
  if (loops && first && (ts.isArrowFunction(first) || ts.isFunctionExpression(first))) ctx.eachList.set(first, callee.obj);
  const args = (n.arguments ?? []).map((a) =>
    ts.isSpreadElement(a) ? toExpr(ctx, a.expression, scope, fn, undefined, depth + 1) : toExpr(ctx, a, scope, fn, undefined, depth + 1),
  );
  const pos = n.getStart(ctx.sf);
  const at = locAt(ctx, pos);
  let e: Expr;
  if (ts.isCallExpression(n)) ctx.calls.set(n, (e = { k: 'call', callee, args, at, pos }));
  else e = { k: 'new', callee, args, at, pos };
  if (n.arguments?.some((a) => ts.isSpreadElement(a))) e.spread = true;
  const each = args[0];
  if (loops && each?.k === 'fn' && ctx.facts.functions[each.id]!.params.length > 0) markLoops(ctx);
  // `NestFactory.create(AppModule).then((app) => …)`: the callback's first parameter is what the
  // call resolves to, as `const app = await NestFactory.create(AppModule)` reads it
  if (callee.k === 'member' && callee.prop === 'then' && each?.k === 'fn' && (callee.obj.k === 'call' || callee.obj.k === 'new')) {
    const f = ctx.facts.functions[each.id]!;
    if (f.params[0]) ctx.facts.scopes[f.scope]!.bindings[f.params[0]] = callee.obj;
  }
  if (ts.isCallExpression(n)) {
    const awaited = wrapper !== null && ts.isAwaitExpression(wrapper);
    const direct = calledDirectly(ctx, n, callee, args);
    if (direct) onCall(ctx, n, direct.callee, direct.args, at, awaited, direct.computed);
    else onCall(ctx, n, callee, args, at, awaited, computed);
    // `app.use('/api', mountSites(express.Router()))`: a call a registration is handed after its
    // path (or alone) is made at once, as a statement's is — a router it is passed gets what it
    // registers on its parameter (not a path helper's, `app.get(under('/ops', '/metrics'), …)`:
    // its parameters are each call's arguments, read where it is called)
    const made = direct ?? { callee, args, computed };
    if ((made.callee.k === 'member' && REGISTRATION_METHODS.has(made.callee.prop)) || made.computed)
      for (const a of made.args.slice(made.args.length > 1 ? 1 : 0))
        if (a.k === 'call' && (a.callee.k === 'ref' || a.callee.k === 'member' || a.callee.k === 'index'))
          keepCall(ctx, a);
  }
  if (ctx.facts.documentCookieReads.length > 0 && ts.isCallExpression(n)) pickedCookie(ctx, n, scope);
  // … and what the class passes to the one it extends (SUPER)
  if (superOf && superOf.superArgs === null) superOf.superArgs = args;
  return e;
}

/**
 * Is `e` what a call handing the request on answers, in function `fn`: a call of its `next`
 * (`next()`, `await next()`), or a local it was put in (`const result = next()`)?
 */
function handsOnPromise(ctx: Ctx, e: Expr, scope: number, fn: FunctionFact): boolean {
  const nextName = nextParam(fn);
  const isNext = (x: Expr | EncodedBinding | undefined): boolean => x !== undefined && !isEncoded(x) && x.k === 'call' && x.callee.k === 'ref' && (x.callee.name === 'next' || x.callee.name === nextName);
  if (isNext(e)) return true;
  return e.k === 'ref' && isNext(findScopeOf(ctx, scope, e.name)?.bindings[e.name]);
}

/**
 * A call picking one cookie out of a `document.cookie` read (DocumentCookieRead.cookie):
 * `document.cookie.split(sep).find((c) => c.startsWith(NAME))` (or `c.trim()`, `filter`,
 * `some`), `document.cookie.includes(NAME)` (`indexOf`, `startsWith`),
 * `document.cookie.match(/…NAME=…/)` and `/…NAME=…/.exec(document.cookie)` (`test`): the
 * read gets what it looks for. Any other read keeps none: it may take every cookie.
 */
function pickedCookie(ctx: Ctx, n: TS.CallExpression, scope: number): void {
  const { ts } = ctx;
  const callee = n.expression;
  if (!ts.isPropertyAccessExpression(callee) || n.arguments.length !== 1) return;
  const method = callee.name.text;
  const arg = unwrap(ts, n.arguments[0]!);
  const isRegex = (e: TS.Expression): e is TS.RegularExpressionLiteral => e.kind === ts.SyntaxKind.RegularExpressionLiteral;
  let read: TS.Expression | null = null;
  let picked: Expr | null = null;
  const on = unwrap(ts, callee.expression);
  if (isDocumentCookie(ts, on) && /^(includes|indexOf|startsWith)$/.test(method) && !isRegex(arg)) [read, picked] = [on, shallowExpr(ctx, arg, scope)];
  else if (isDocumentCookie(ts, on) && method === 'match' && isRegex(arg)) [read, picked] = [on, regexCookie(arg)];
  else if ((method === 'exec' || method === 'test') && isRegex(on) && isDocumentCookie(ts, arg)) [read, picked] = [arg, regexCookie(on)];
  else if (method === 'split' && cookieLine(ts, on) && namedSeparator(ts, arg)) [read, picked] = [cookieLine(ts, on)!, shallowExpr(ctx, arg, scope)];
  else if (isCookieRows(ts, on)) {
    const test = rowPicked(ts, n);
    if (test) [read, picked] = [(on as TS.CallExpression).expression, shallowExpr(ctx, test, scope)];
  }
  if (read && picked) pickCookie(ctx, read, picked);
}

/** The read at `read` picks out the cookie `picked` looks for. */
function pickCookie(ctx: Ctx, read: TS.Expression, picked: Expr): void {
  const at = locOf(ctx, unwrap(ctx.ts, read));
  const r = ctx.facts.documentCookieReads.find((x) => x.at.line === at.line && x.at.column === at.column);
  if (!r) return;
  r.cookie = picked;
  // (`(name) => document.cookie.split('; ').find((row) => row.startsWith(\`${name}=\`))`: what its calls name, helperPicks)
  const refs = picked.k === 'tpl' ? picked.parts.filter((x) => x.k === 'ref') : picked.k === 'ref' ? [picked] : [];
  const params = refs.flatMap((x) => {
    const b = x.k === 'ref' ? findScopeOf(ctx, x.scope, x.name)?.bindings[x.name] : undefined;
    return b && !isEncoded(b) && b.k === 'param' ? [{ ref: x, fn: b.fn, index: b.index }] : [];
  });
  if (params.length === 1) ctx.cookieParams.push({ read: r, ...params[0]! });
}

/**
 * A helper picking out the cookie its parameter names (`getCookie(name)`, maxun's and midday's):
 * the cookie each of its calls names, when all of them are known — the helper is neither
 * exported nor named anywhere in the file but where it is declared and called (DocumentCookieRead.picks).
 */
function helperPicks(ctx: Ctx): void {
  for (const { read, fn, index, ref } of ctx.cookieParams) {
    const name = ctx.facts.functions[fn]!.name;
    if (name === null || ctx.facts.exports.some((e) => e.local === name || e.exported === name)) continue;
    const calls = [...ctx.calls.values()].filter((c) => {
      if (c.callee.k !== 'ref' || c.callee.name !== name) return false;
      const b = findScopeOf(ctx, c.callee.scope, name)?.bindings[name];
      return b !== undefined && !isEncoded(b) && b.k === 'fn' && b.id === fn;
    });
    const named = ctx.text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
    if (calls.length === 0 || named !== calls.length + 1 || calls.some((c) => c.args[index] === undefined)) continue;
    const looked = read.cookie!;
    read.picks = calls.map((c): Expr => {
      const arg = c.args[index]!;
      return looked.k === 'tpl' ? { k: 'tpl', parts: looked.parts.map((x) => (x === ref ? arg : x)) } : arg;
    });
  }
}

/**
 * `!document.cookie`, `document.cookie.length`: a read that only tests whether the page has any
 * cookie it may read, handing none over (Cap's theme script, `if (!document.cookie) return`).
 * Told from the text around it, as the tree holds no parents.
 */
function onlyTested(ctx: Ctx, read: TS.PropertyAccessExpression): boolean {
  const start = read.getStart(ctx.sf);
  return /!\s*$/.test(ctx.text.slice(Math.max(0, start - 8), start)) ? !/^\s*[.[]/.test(ctx.text.slice(read.end, read.end + 8)) : /^\s*\.\s*length(?![\w$])/.test(ctx.text.slice(read.end, read.end + 16));
}

/** `document.cookie`, read. */
function isDocumentCookie(ts: TSModule, e: TS.Expression): boolean {
  const u = unwrap(ts, e);
  return ts.isPropertyAccessExpression(u) && u.name.text === 'cookie' && ts.isIdentifier(u.expression) && u.expression.text === 'document';
}

/**
 * `` `; ${document.cookie}` `` (or `'; ' + document.cookie`): the cookies as one line, each after a
 * `; `, so that splitting it at `; NAME=` leaves that cookie's value after the split; the read.
 */
function cookieLine(ts: TSModule, e: TS.Expression): TS.Expression | null {
  const u = unwrap(ts, e);
  if (ts.isTemplateExpression(u)) return u.templateSpans.length === 1 && isDocumentCookie(ts, u.templateSpans[0]!.expression) ? u.templateSpans[0]!.expression : null;
  return ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.PlusToken && ts.isStringLiteralLike(unwrap(ts, u.left)) && isDocumentCookie(ts, u.right) ? u.right : null;
}

/** A separator naming one cookie, `` `; ${name}=` ``, `'; theme='`: written ending with `=`. */
function namedSeparator(ts: TSModule, e: TS.Expression): boolean {
  const u = unwrap(ts, e);
  if (ts.isStringLiteralLike(u)) return /[\w-]=$/.test(u.text);
  if (ts.isTemplateExpression(u)) return u.templateSpans[u.templateSpans.length - 1]!.literal.text === '=';
  if (!ts.isBinaryExpression(u) || u.operatorToken.kind !== ts.SyntaxKind.PlusToken) return false;
  const r = unwrap(ts, u.right);
  return ts.isStringLiteralLike(r) && r.text.endsWith('=');
}

/** `document.cookie.split(sep)`: the cookies as rows. */
function isCookieRows(ts: TSModule, e: TS.Expression): e is TS.CallExpression {
  const u = unwrap(ts, e);
  return ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && u.expression.name.text === 'split' && isDocumentCookie(ts, u.expression.expression);
}

/**
 * `rows.find((c) => c.startsWith(NAME))` (or `c.trim()`, `filter`, `some`), `rows.includes(ROW)`:
 * the text a call picking one of the cookie rows looks for, if it is one.
 */
function rowPicked(ts: TSModule, call: TS.CallExpression): TS.Expression | null {
  const callee = call.expression;
  // `rows.includes(\`${HIDDEN_COOKIE}=true\`)` (or `indexOf`): a row looked for whole
  if (ts.isPropertyAccessExpression(callee) && /^(includes|indexOf)$/.test(callee.name.text) && call.arguments.length === 1 && unwrap(ts, call.arguments[0]!).kind !== ts.SyntaxKind.RegularExpressionLiteral)
    return call.arguments[0]!;
  if (!ts.isPropertyAccessExpression(callee) || !/^(find|filter|some)$/.test(callee.name.text) || call.arguments.length !== 1) return null;
  const arg = unwrap(ts, call.arguments[0]!);
  const p = (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) && arg.parameters.length === 1 ? arg.parameters[0]!.name : null;
  const test = p && ts.isIdentifier(p) ? returnedExpression(ts, arg as TS.ArrowFunction) : undefined;
  const t = test ? unwrap(ts, test) : null;
  if (!t || !ts.isCallExpression(t) || t.arguments.length !== 1 || !ts.isPropertyAccessExpression(t.expression) || t.expression.name.text !== 'startsWith') return null;
  let subject = unwrap(ts, t.expression.expression);
  if (ts.isCallExpression(subject) && subject.arguments.length === 0 && ts.isPropertyAccessExpression(subject.expression) && subject.expression.name.text === 'trim') subject = unwrap(ts, subject.expression.expression);
  return ts.isIdentifier(subject) && subject.text === (p as TS.Identifier).text ? t.arguments[0]! : null;
}

/**
 * `const cookies = document.cookie.split('; ')` followed, in the statements after it, only by
 * picks of one and the same cookie (`cookies.find((c) => c.startsWith('ui-theme='))`): the read
 * picks out that cookie, as when the pick is chained onto it. So too of the rows made an object,
 * `const cookies = Object.fromEntries(document.cookie.split('; ').map(…))`, read by one key
 * (`cookies['sidebar_state']`, `cookies?.[key]`, `cookies.theme`). Any other use of the rows (handed
 * on, returned, looped over, assigned anew) keeps none.
 */
function cookieRowsPicked(ctx: Ctx, st: TS.VariableStatement, after: readonly TS.Statement[], scope: number): void {
  const { ts } = ctx;
  const list = st.declarationList;
  const d = list.declarations[0];
  if (list.declarations.length !== 1 || !d || !ts.isIdentifier(d.name) || !d.initializer) return;
  // (`const value = \`; ${document.cookie}\``, split at one cookie's name: `value.split(\`; ${name}=\`)`,
  // the getCookie of many a guide)
  const line = cookieLine(ts, d.initializer);
  const rows = line ? null : isCookieRows(ts, d.initializer) ? (d.initializer as TS.CallExpression) : cookieObjectRows(ts, d.initializer);
  const read = line ?? rows?.expression;
  if (!read) return;
  const byKey = rows !== null && rows !== d.initializer;
  const name = d.name.text;
  // the pick: its text (one and the same at every use) and what it looks for
  let picked: { text: string; expr: () => Expr } | null = null;
  let uses = 0;
  let other = false;
  const pickOf = (n: TS.Identifier, parent: TS.Node | null, grandparent: TS.Node | null): { text: string; expr: () => Expr } | null => {
    if (byKey) {
      if (parent && ts.isElementAccessExpression(parent) && parent.expression === n) return { text: textOf(ctx, parent.argumentExpression), expr: () => shallowExpr(ctx, parent.argumentExpression, scope) };
      if (parent && ts.isPropertyAccessExpression(parent) && parent.expression === n) return { text: `'${parent.name.text}'`, expr: () => ({ k: 'str', v: parent.name.text }) };
      return null;
    }
    const access = parent && ts.isPropertyAccessExpression(parent) && parent.expression === n ? parent : null;
    const call = access && grandparent && ts.isCallExpression(grandparent) && grandparent.expression === access ? grandparent : null;
    const sep = line && call && access!.name.text === 'split' && call.arguments.length === 1 && namedSeparator(ts, call.arguments[0]!) ? call.arguments[0]! : null;
    const test = line ? sep : call ? rowPicked(ts, call) : null;
    return test ? { text: textOf(ctx, test), expr: () => shallowExpr(ctx, test, scope) } : null;
  };
  const walk = (n: TS.Node, parent: TS.Node | null, grandparent: TS.Node | null): void => {
    if (other) return;
    if (ts.isIdentifier(n) && n.text === name) {
      uses++;
      const pick = pickOf(n, parent, grandparent);
      if (!pick || (picked !== null && picked.text !== pick.text)) other = true;
      else picked = pick;
      return;
    }
    ts.forEachChild(n, (c) => walk(c, n, parent));
  };
  for (const s of after) walk(s, null, null);
  const found = picked as { text: string; expr: () => Expr } | null;
  if (!other && uses > 0 && found !== null) pickCookie(ctx, read, found.expr());
}

/** `Object.fromEntries(document.cookie.split('; ').map(…))`: the cookies as an object by name; its rows. */
function cookieObjectRows(ts: TSModule, e: TS.Expression): TS.CallExpression | null {
  const u = unwrap(ts, e);
  if (!ts.isCallExpression(u) || u.arguments.length !== 1 || !ts.isPropertyAccessExpression(u.expression) || u.expression.name.text !== 'fromEntries') return null;
  const on = unwrap(ts, u.expression.expression);
  if (!ts.isIdentifier(on) || on.text !== 'Object') return null;
  const mapped = unwrap(ts, u.arguments[0]!);
  if (!ts.isCallExpression(mapped) || !ts.isPropertyAccessExpression(mapped.expression) || mapped.expression.name.text !== 'map') return null;
  const rows = unwrap(ts, mapped.expression.expression);
  return isCookieRows(ts, rows) ? (rows as TS.CallExpression) : null;
}

/** The cookie name a regular expression looks for, written before its first `=` (`/(?:^|; )theme=([^;]*)/`); null when none is. */
function regexCookie(n: TS.RegularExpressionLiteral): Expr | null {
  const source = n.text.slice(1, n.text.lastIndexOf('/'));
  const name = /((?:[\w-]|\\[.-])+)=/.exec(source)?.[1]?.replace(/\\/g, '');
  return name ? { k: 'str', v: `${name}=` } : null;
}

/** `/^\/api\//i` as an expression: its source and flags. */
function regexLiteral(n: TS.RegularExpressionLiteral): Expr {
  const end = n.text.lastIndexOf('/');
  return { k: 're', source: n.text.slice(1, end), flags: n.text.slice(end + 1) };
}

/** The one expression a function's body returns: an arrow's expression body, or a block that is one `return x`. */
function returnedExpression(ts: TSModule, f: TS.FunctionLikeDeclaration): TS.Expression | undefined {
  const body = f.body;
  if (!body || !ts.isBlock(body)) return body as TS.Expression | undefined;
  const only = body.statements.length === 1 ? body.statements[0]! : undefined;
  return only && ts.isReturnStatement(only) ? only.expression : undefined;
}

/** `a || b || c` (with `op`): what `read` makes of each operand, joined; null when it makes nothing of one. */
function joined<T>(ts: TSModule, e: TS.Expression, op: TS.SyntaxKind, read: (operand: TS.Expression) => T[] | null): T[] | null {
  const u = unwrap(ts, e);
  if (!ts.isBinaryExpression(u) || u.operatorToken.kind !== op) return read(u);
  const l = joined(ts, u.left, op, read);
  const r = l && joined(ts, u.right, op, read);
  return l && r ? [...l, ...r] : null;
}

/** `??` or `||` when `n` is a binary expression with that operator, else null. */
function fallbackOp(ts: TSModule, n: TS.Expression): '??' | '||' | null {
  if (!ts.isBinaryExpression(n)) return null;
  const op = n.operatorToken.kind;
  return op === ts.SyntaxKind.QuestionQuestionToken ? '??' : op === ts.SyntaxKind.BarBarToken ? '||' : null;
}

function propName(ts: TSModule, name: TS.PropertyName): string | null {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
  return null;
}

/** Exposed to adapters. */
export interface ExtractApi {
  ts: TSModule;
  sf: TS.SourceFile;
  facts: FileFacts;
  loc(node: TS.Node): Loc;
  snippet(line: number): string;
  expr(node: TS.Expression, scope: number): Expr;
  /** decoratorsOf: a class's, a member's or a member's parameter's decorators, written or compiled */
  decorators(cls: TS.ClassLikeDeclaration, member?: TS.ClassElement, param?: number): readonly DecoratorUse[];
}

function extractApi(ctx: Ctx): ExtractApi {
  return {
    ts: ctx.ts,
    sf: ctx.sf,
    facts: ctx.facts,
    loc: (node) => locOf(ctx, node),
    snippet: (line) => lineText(ctx, line),
    expr: (node, scope) => toExpr(ctx, node, scope, null),
    decorators: (cls, member, param) => decoratorsOf(ctx, cls, member, param),
  };
}

/** Method names that may register routes, middleware, plugins or settings on an app/router. */
export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'del', 'options', 'head', 'search', 'all'];
/** Methods that answer the router they are called on, in every framework: a chain of them stays on it. */
export const CHAINABLE = new Set([...HTTP_METHODS, 'use', 'on']);
export const REGISTRATION_METHODS = new Set([
  ...CHAINABLE,
  'route', 'register', 'addHook', 'set', 'enable', 'disable', 'prefix', 'mount',
  // Express and @koa/router parameter callbacks
  'param',
  // Fastify decorators; Hono base paths; @hono/zod-openapi routes and the documents that publish them
  'decorate', 'basePath', 'openapi', 'doc', 'doc31',
  // NestJS application settings and module middleware (`consumer.apply(mw).forRoutes(...)`)
  'setGlobalPrefix', 'enableVersioning', 'useGlobalGuards', 'forRoutes', 'useWebSocketAdapter',
  // koa-swagger-decorator's SwaggerRouter: its document's routes, and controller classes mapped onto it
  'swagger', 'mapDir', 'applyRoute',
  // an oRPC handler answering a request (`handler.handle(request, { prefix })`, adapters/orpc.ts)
  'handle',
  // express-ws's WebSocket routes (`router.ws('/agent-invocation/:uuid', handler)`)
  'ws',
  // inversify-express-utils' server, handing its callback the Express app (`server.setConfig((app) => …)`)
  'setConfig',
  // an OvernightJS server mounting its controllers on its Express app (`this.addControllers([new Auth()])`)
  'addControllers',
  // a Hono app a handler hands its request to (`return boardApp.fetch(c.req.raw)`: adapters/hono)
  'fetch',
]);

/**
 * Elysia's own methods that register a route, a lifecycle hook, a scope or a macro on an instance
 * (adapters/elysia), besides REGISTRATION_METHODS: registrations only in a file spelling `elysia`,
 * where a chain runs through every method of ELYSIA_CHAIN (each returns the instance).
 */
const ELYSIA_METHODS = new Set(['connect', 'group', 'guard', 'onBeforeHandle', 'onTransform', 'onRequest', 'derive', 'resolve', 'mapDerive', 'mapResolve', 'macro', 'as']);
/** Elysia's methods that return the instance they are called on (adapters/elysia: `routerMethod`). */
export const ELYSIA_CHAIN = new Set([
  ...['get', 'post', 'put', 'patch', 'delete', 'options', 'head', 'all', 'route', 'use', 'on', 'mount', 'ws'],
  ...ELYSIA_METHODS,
  ...['decorate', 'state', 'model', 'headers', 'error', 'onError', 'onParse', 'onAfterHandle', 'mapResponse', 'onAfterResponse', 'onStart', 'onStop', 'trace', 'wrap', 'listen'],
  ...['affix', 'prefix', 'suffix', 'env', 'parser'],
  // (0.x's name of onAfterResponse)
  'onResponse',
]);

/** Global constructors whose values are never routers: `groups.set(…)` of `const groups = new Map()` registers nothing. */
const NOT_ROUTERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'URLSearchParams', 'Headers', 'FormData']);

/**
 * Whether a registration-like call's target (past the registrations chained on it) is no
 * router as the linker reads it, so that the call is not kept as a registration: `this` in a
 * class extending nothing (`this.get(id)` of a service), a new global collection, or a name
 * first bound to one. (Most such calls are `map.get(key)`; kept, they were a sixth of the
 * facts of the generated 2,000-file tree's route, service and controller files, as JSON.)
 */
function neverRouter(ctx: Ctx, target: Expr): boolean {
  let e = target;
  while (e.k === 'call' && e.callee.k === 'member' && REGISTRATION_METHODS.has(e.callee.prop)) e = e.callee.obj;
  if (e.k === 'ref') {
    const self = ctx.thisRef;
    if (self && e.name === self.name && e.scope === self.scope) return !self.extendsAny;
    const b = findScopeOf(ctx, e.scope, e.name)?.bindings[e.name];
    if (b === undefined || isEncoded(b)) return false;
    e = b;
  }
  if (e.k !== 'new' || e.callee.k !== 'ref' || !NOT_ROUTERS.has(e.callee.name)) return false;
  const ctor = e.callee.name;
  return findScopeOf(ctx, e.callee.scope, ctor) === null && !ctx.facts.imports.some((i) => i.local === ctor);
}

/**
 * `list.push(a, b)` (or `unshift`) of a local declared as a list literal in the same function, read
 * nowhere before (its other additions aside): the list holds them from its declaration on, as
 * `list = [...list, a, b]` would make it — under the condition the call is made under, as a spread
 * of `cond ? [a, b] : []` (the items of a list decided when read). What reads the list is
 * evaluated once the function's facts are whole.
 */
function addToList(ctx: Ctx, n: TS.CallExpression, list: Extract<Expr, { k: 'ref' }>, items: Expr[], front: boolean): void {
  const s = findScopeOf(ctx, list.scope, list.name);
  const before = s?.bindings[list.name];
  if (!s || before === undefined || isEncoded(before) || before.k !== 'arr' || !oneFunction(ctx, list.scope, s.id)) return;
  const since = sinceDeclared(ctx, list.name, n.pos, 'const|let|var');
  if (since === null) return;
  const name = escapedName(list.name);
  const reads = since.match(new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, 'g'))?.length ?? 0;
  const adds = since.match(new RegExp(`(?<![\\w$.])${name}\\s*\\.\\s*(?:push|unshift)\\s*\\(`, 'g'))?.length ?? 0;
  if (reads !== adds) return;
  const c = ctx.when[ctx.when.length - 1];
  // (a flag a table's entry lacks tests false: `if (routes[key].admin) params.push(adminMiddleware)`)
  const added: Expr[] = !c ? items : [{ k: 'choice', test: c.test, then: c.holds ? { k: 'arr', items } : { k: 'arr', items: [] }, otherwise: c.holds ? { k: 'arr', items: [] } : { k: 'arr', items }, text: `${list.name} (${c.text})`, absentFalse: true }];
  s.bindings[list.name] = { k: 'arr', items: front ? [...added, ...before.items] : [...before.items, ...added] };
}

/** What a promise is handed on by. */
const PROMISE_METHODS = new Set(['then', 'catch', 'finally']);

function onCall(ctx: Ctx, n: TS.CallExpression, callee: Expr, args: Expr[], at: Loc, isAwaited: boolean, computed: { obj: Expr; key: Expr } | null): void {
  const { ts } = ctx;
  // `const routerParams = []; if (route.authenticated) routerParams.push(authMiddleware)` (Gladys's
  // route setup): the list holds what is added to it, under the condition it is added under
  if (callee.k === 'member' && (callee.prop === 'push' || callee.prop === 'unshift') && callee.obj.k === 'ref' && args.length > 0 && ctx.loops === 0) addToList(ctx, n, callee.obj, args, callee.prop === 'unshift');
  // `const routes = {}; Object.assign(routes, coreRoutes)` (Gladys's route table): the literal
  // holds what each source holds, as spreads after its own — made under no condition, in no loop,
  // in the function declaring it; else what it adds is not known statically (a spread of nothing
  // known: Gladys's `services.forEach((s) => { if (…) Object.assign(routes, s.controllers) })`)
  if (callee.k === 'member' && callee.prop === 'assign' && callee.obj.k === 'ref' && callee.obj.name === 'Object' && args.length >= 2 && findScopeOf(ctx, callee.obj.scope, 'Object') === null) {
    const target = unwrap(ts, n.arguments[0]!);
    const s = ts.isIdentifier(target) ? findScopeOf(ctx, callee.obj.scope, target.text) : null;
    const held = s ? nestedLiteral(ctx, target, callee.obj.scope, 0) : null;
    if (s && held) {
      const applied = ctx.when.length === 0 && ctx.loops === 0 && oneFunction(ctx, callee.obj.scope, s.id);
      let spreads = Object.keys(held.props).filter((k) => k.startsWith('*spread*')).length;
      for (const source of args.slice(1)) held.props[`*spread*${spreads++}`] = applied ? source : { k: 'unknown', text: 'Object.assign(…)' };
    }
  }
  // the text of the call's line, taken only for what is kept
  const snippetOf = (): string => lineText(ctx, at.line);
  // what is done with the call's answer, taken only for a registration
  const answer = (): Pick<RegistrationFact, 'awaited' | 'promised'> => ({ ...(isAwaited ? { awaited: true as const } : {}), ...(ctx.promised.has(n) ? { promised: true as const } : {}) });
  if (computed && args.length > 0)
    ctx.facts.registrations.push({ target: computed.obj, method: COMPUTED_METHOD, methodExpr: computed.key, args, chainPath: null, ...answer(), ...whenNow(ctx), at, snippet: snippetOf() });
  // (2.x's `router.swagger()` takes no argument)
  const elysian = ctx.elysia && callee.k === 'member' && ELYSIA_METHODS.has(callee.prop);
  if (callee.k === 'member' && (REGISTRATION_METHODS.has(callee.prop) || elysian) && (args.length > 0 || callee.prop === 'swagger') && !neverRouter(ctx, callee.obj)) {
    // Unwrap chains: `r.route('/p').get(h).post(h)`, `app.get(...).post(...)`; in Elysia's files,
    // `new Elysia().derive(…).guard(…).get(…)`, every link returning the instance.
    let target = callee.obj;
    let chainPath: Expr | null = null;
    while (target.k === 'call' && target.callee.k === 'member') {
      const m = target.callee.prop;
      if (ctx.elysia && ELYSIA_CHAIN.has(m) && ELYSIA_CHAIN.has(callee.prop) && (m !== 'route' || target.args.length !== 1)) {
        target = target.callee.obj;
      } else if (m === 'route' && CHAINABLE.has(callee.prop) && target.args.length === 1 && target.args[0]!.k !== 'obj') {
        chainPath ??= target.args[0]!;
        target = target.callee.obj;
      } else if (CHAINABLE.has(m) && CHAINABLE.has(callee.prop)) {
        target = target.callee.obj;
      } else break;
    }
    // A later link of a chain is located at its own method name, not at the chain's first line;
    // so is a route or middleware registration whose name starts a line of its own, the first
    // link of such a chain (`exports.api = apiRouter⏎  .get('/wallpaper', …)`, easy-mock: where a
    // suppression comment above it is written)
    const name = ts.isPropertyAccessExpression(n.expression) ? n.expression.name : null;
    const chained = CHAINABLE.has(callee.prop) || (ctx.elysia && ELYSIA_CHAIN.has(callee.prop));
    const regAt = name && (target !== callee.obj || (chained && locOf(ctx, name).line !== at.line)) ? locOf(ctx, name) : at;
    ctx.facts.registrations.push({ target, method: callee.prop, args, chainPath, ...answer(), ...whenNow(ctx), at: regAt, snippet: lineText(ctx, regAt.line) });
  }
  // Cookies: session middleware candidates and `x.cookie(name, value, opts)` calls.
  const first = n.arguments[0];
  // `session({ … })`, or `session(sessionOptions)` when `session` is imported from a package.
  const optionsArg = first ? unwrap(ts, first) : null;
  if (
    callee.k === 'ref' &&
    optionsArg &&
    (ts.isObjectLiteralExpression(optionsArg) ||
      (ts.isIdentifier(optionsArg) && ctx.facts.imports.some((i) => i.local === callee.name && !i.source.startsWith('.'))))
  ) {
    ctx.facts.cookies.push(cookieFact('session-middleware', callee, null, args[0] ?? null, at, snippetOf()));
  } else if (callee.k === 'member' && (callee.prop === 'cookie' || callee.prop === 'setCookie' || (callee.prop === 'set' && /cookies/.test(textOf(ctx, n.expression))))) {
    const name = args[0]?.k === 'str' ? args[0].v : null;
    // (a value written as a literal, `res.cookie('robot_auth_status', 'success', …)`, is a flag
    // for a script to read: no session nor credential is made of a constant)
    const constant = args[1]?.k === 'str' || args[1]?.k === 'num' || args[1]?.k === 'bool';
    if (name !== null && !constant && isSessionCookieName(name)) ctx.facts.cookies.push(cookieFact('set-cookie', callee, name, args[2] ?? null, at, snippetOf()));
    // (one named for no session, set to what a call makes, `res.cookie('token', jwt.sign({ id }, secret))`
    // or a local holding it: a session cookie when that is a signed token, judged when linked)
    else if (name !== null && !FLOW_COOKIE_NAME.test(name) && (args[1]?.k === 'call' || args[1]?.k === 'ref'))
      ctx.facts.cookies.push({ ...cookieFact('set-cookie', callee, name, args[2] ?? null, at, snippetOf()), value: args[1] });
  }
}

function cookieFact(kind: CookieFact['kind'], callee: Expr, name: string | null, options: Expr | null, at: Loc, snippet: string): CookieFact {
  return { kind, callee, name, options, at, snippet };
}

/**
 * Classes written as a function whose prototype is given methods (`function Store() { … }`,
 * `Store.prototype.get = function (id) { … }`), or a class given more methods so (growi's
 * `Crowi.prototype.buildServer = async function () { …; this.express = express; }`), at module
 * scope: `this` in the function or the class's members and in each of those methods is the one
 * instance. Null when the file has none (read from its top-level statements only).
 */
function prototypeClasses(ts: TSModule, sf: TS.SourceFile): Ctx['prototypes'] {
  const methods = new Map<string, [string, TS.FunctionExpression][]>();
  for (const st of sf.statements) {
    const e = ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression) && st.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken ? st.expression : null;
    const fn = e && ts.isFunctionExpression(e.right) ? e.right : null;
    const proto = fn && ts.isPropertyAccessExpression(e!.left) && ts.isPropertyAccessExpression(e!.left.expression) ? e!.left.expression : null;
    if (!proto || proto.name.text !== 'prototype' || !ts.isIdentifier(proto.expression)) continue;
    const list = methods.get(proto.expression.text);
    const method: [string, TS.FunctionExpression] = [(e!.left as TS.PropertyAccessExpression).name.text, fn!];
    if (list) list.push(method);
    else methods.set(proto.expression.text, [method]);
  }
  if (methods.size === 0) return null;
  const out: NonNullable<Ctx['prototypes']> = new Map();
  for (const st of sf.statements) {
    if (!(ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) || !st.name || !methods.has(st.name.text)) continue;
    // (a class's own members make it: its visit fills in the rest, ClassDeclaration in visitStatement)
    const self = { name: `${THIS_PREFIX}${st.name.text}`, scope: 0, fields: {}, base: null, extendsAny: false, superArgs: null, injects: false };
    out.set(st, { self, method: null });
    for (const [method, m] of methods.get(st.name.text)!) out.set(m, { self, method });
  }
  return out.size === 0 ? null : out;
}

/**
 * The instance of each class prototypeClasses found, as a class's (THIS_PREFIX + its name): the
 * fields its functions first assign, and its prototype's methods (`this.setupRoutes()`).
 */
function prototypeInstances(ctx: Ctx): void {
  for (const [node, { self, method }] of ctx.prototypes!) {
    const id = ctx.fnIds.get(node);
    if (method !== null && id !== undefined && !Object.hasOwn(self.fields, method)) self.fields[method] = { k: 'fn', id };
  }
  // (a class's instance, made when its visit ended, is given what its prototype's methods added since)
  const bindings = ctx.facts.scopes[0]!.bindings;
  for (const self of new Set([...ctx.prototypes!.values()].map((p) => p.self))) {
    const made = bindings[self.name] as Expr | undefined;
    if (made?.k === 'obj') {
      for (const [k, v] of Object.entries(self.fields)) if (!Object.hasOwn(made.props, k)) made.props[k] = v;
    } else if (Object.keys(self.fields).length > 0) bindings[self.name] = { k: 'obj', props: self.fields };
  }
}

// ---------------------------------------------------------------------------
// Functions and their behaviour

function makeFunction(ctx: Ctx, node: TS.FunctionLikeDeclaration, parentScope: number, name: string | null): FunctionFact {
  // `function () { … }` has a `this` of its own (an instance of the class whose constructor or
  // prototype's method it is); an arrow function and a class's members keep the class's
  const outer = ctx.thisRef;
  if (ctx.ts.isFunctionDeclaration(node) || ctx.ts.isFunctionExpression(node)) ctx.thisRef = ctx.prototypes?.get(node)?.self ?? null;
  try {
    return makeFunctionIn(ctx, node, parentScope, name);
  } finally {
    ctx.thisRef = outer;
  }
}

/**
 * `constructor(private readonly checker: Checker)` of a decorated class: what a container passes
 * it, `new Token()` of the token it asks for (the class its type names; the token of
 * `@Inject(token)`, a name or a string, and the class of `@Inject(forwardRef(() => Checker))`).
 * The evaluator reads it only when no call of the constructor passes the parameter: the provider
 * a module declares for the token (Evaluator.injectedValue), else an instance of its class.
 */
function injectedToken(ctx: Ctx, cls: TS.ClassLikeDeclaration, ctor: TS.ConstructorDeclaration, p: TS.ParameterDeclaration, index: number, scope: number): Extract<Expr, { k: 'new' }> | null {
  const { ts } = ctx;
  let name: TS.Node | null = null;
  // (`@Inject()` with no token: the type's, as without it)
  const inject = decoratorsOf(ctx, cls, ctor, index).find(({ expr: d }) => ts.isCallExpression(d) && helperName(ts, d.expression) === 'Inject' && d.arguments.length > 0);
  if (inject) {
    let token: TS.Node | undefined = (inject.expr as TS.CallExpression).arguments[0];
    if (token && ts.isCallExpression(token) && ts.isIdentifier(token.expression) && token.expression.text === 'forwardRef' && token.arguments[0] && ts.isArrowFunction(token.arguments[0])) token = token.arguments[0].body;
    // `@Inject('CHECKS')`: a string token, whose provider a module declares
    if (token && ts.isStringLiteralLike(token)) {
      const pos = token.getStart(ctx.sf);
      return { k: 'new', callee: { k: 'str', v: token.text }, args: [], at: locAt(ctx, pos), pos };
    }
    name = token && ts.isIdentifier(token) ? token : null;
  } else if (p.type && p.type.kind === ts.SyntaxKind.TypeReference) {
    const ref = p.type as TS.TypeReferenceNode;
    name = ts.isIdentifier(ref.typeName) && !ref.typeArguments ? ref.typeName : null;
  } else if (!p.type && cls.name) {
    // compiled, the type is what `__metadata("design:paramtypes", [users_service_1.UsersService])` names
    // (not `Object`, `String` …, written for an interface or a primitive type)
    const type = decorationsOf(ctx).get(cls.name.text)?.paramTypes?.[index];
    if (type && (ts.isPropertyAccessExpression(type) || (ts.isIdentifier(type) && !BUILT_IN_TYPES.has(type.text)))) {
      const pos = type.getStart(ctx.sf);
      return { k: 'new', callee: toExpr(ctx, type, scope, null), args: [], at: locAt(ctx, pos), pos };
    }
  }
  if (!name || !ts.isIdentifier(name)) return null;
  const pos = name.getStart(ctx.sf);
  return { k: 'new', callee: refOf(ctx, name.text, scope), args: [], at: locAt(ctx, pos), pos };
}

function makeFunctionIn(ctx: Ctx, node: TS.FunctionLikeDeclaration, parentScope: number, name: string | null): FunctionFact {
  const { ts, facts } = ctx;
  const scope = newScope(ctx, parentScope);
  const f: FunctionFact = {
    id: facts.functions.length,
    name,
    at: locOf(ctx, node),
    scope: scope.id,
    params: [],
    behaviour: { status401: false, status403or404: false, comparesTenant: false, readsSession: false, callsNext: false, sendsResponse: false },
    returns: [],
    leading: [],
    responseFields: [],
    sessionExposures: [],
    returnedSessionExposures: [],
  };
  facts.functions.push(f);
  ctx.fnIds.set(node, f.id);
  runtimeParameters(ts, node).forEach((p, index) => {
    if (ts.isIdentifier(p.name)) {
      f.params.push(p.name.text);
      // `function init(app = new Koa())`: the default is the value when a call passes none
      const param: Extract<Expr, { k: 'param' }> = p.initializer
        ? { k: 'param', fn: f.id, index, name: p.name.text, init: toExpr(ctx, p.initializer, scope.id, f) }
        : { k: 'param', fn: f.id, index, name: p.name.text };
      const cls = ctx.classes.at(-1)?.node;
      const injected = ts.isConstructorDeclaration(node) && ctx.thisRef?.injects && cls ? injectedToken(ctx, cls, node, p, index, parentScope) : null;
      if (injected) param.injected = injected;
      scope.bindings[p.name.text] = param;
      if (p.dotDotDotToken) {
        ctx.restParams.add(param);
        f.rest = index;
      }
    } else if (p.dotDotDotToken && ts.isArrayBindingPattern(p.name)) {
      // `function applicationRoutes(...[router, tenant]: RouterInitArgs<T>)`: each name is the argument at its place
      p.name.elements.forEach((el, i) => {
        const name = !ts.isOmittedExpression(el) && !el.dotDotDotToken && ts.isIdentifier(el.name) ? el.name.text : '';
        f.params.push(name);
        if (name !== '') scope.bindings[name] = { k: 'param', fn: f.id, index: index + i, name };
      });
    } else if (ts.isArrayBindingPattern(p.name)) {
      f.params.push('');
      // `([name, handler]) => …` (a forEach callback over Object.entries): each name, its place in the argument
      const param: Expr = { k: 'param', fn: f.id, index, name: '' };
      for (const [name, i] of listNames(ts, p.name)) scope.bindings[name] = { k: 'item', of: param, index: i };
    } else {
      f.params.push('');
      // `function setupRoutes({ app, db }: Context)`: each name is that property of the parameter;
      // `{ scalarPath = 'docs' }: Options = {}`, the default when the property is missing (the
      // parameter's own default when a call passes none)
      const whole: Extract<Expr, { k: 'param' }> = { k: 'param', fn: f.id, index, name: '' };
      if (p.initializer) whole.init = toExpr(ctx, p.initializer, scope.id, f);
      if (ts.isObjectBindingPattern(p.name))
        for (const el of p.name.elements) {
          if (!ts.isIdentifier(el.name) || el.dotDotDotToken) continue;
          const prop = el.propertyName ? propName(ts, el.propertyName) : el.name.text;
          if (prop === null) continue;
          const member: Expr = { k: 'member', obj: whole, prop };
          scope.bindings[el.name.text] = el.initializer ? { k: 'fallback', op: '??', l: member, r: toExpr(ctx, el.initializer, scope.id, f), text: textOf(ctx, el, 80) } : member;
        }
    }
  });
  const body = node.body;
  const list = ctx.eachList.get(node);
  if (list && f.params.length > 0) scope.bindings[EACH] = { k: 'item', of: list };
  if (!body) return f;
  // (the conditions around a function's definition are not those of its calls)
  const outerWhen = ctx.when;
  const outerLoops = ctx.loops;
  ctx.when = [];
  ctx.loops = 0;
  if (ts.isBlock(body)) {
    visitStatements(ctx, body.statements, scope.id, f);
  } else {
    // `(f) => router(f, opts)`: the body's call is made, as a returned one is; a `.filter`
    // callback's test (`f.endsWith('.js') && f !== 'index.js'`) is kept as a choice of true or false
    const returned: Expr = ctx.predicates.has(node) || booleanExpression(ts, body) ? predicateReturn(ctx, body, (n, d) => toExpr(ctx, n, scope.id, f, undefined, d)) : toExpr(ctx, body, scope.id, f);
    f.returns.push(returned);
    recordReturned(ctx, returned, scope.id);
  }
  ctx.when = outerWhen;
  ctx.loops = outerLoops;
  const words = wordsOf(ctx, body);
  // (`arguments` in an arrow function is the enclosing function's: calledWith)
  const ownArguments = node.kind !== ts.SyntaxKind.ArrowFunction;
  // (the method filter, dispatch and gate below each read `req.method`: a body that does not
  // spell `method` has none of them, and is not walked for them)
  const spellsMethod = f.params.length > 0 && words.method;
  const filter = spellsMethod ? methodFilter(ctx, body, f, scope.id, ownArguments) : null;
  if (filter) f.methodFilter = filter;
  const responses = responseCollector(ctx, body, f, ts.isBlock(body) ? scope.id : null, words);
  // Where the body (outside nested functions) responds or throws: the leading-guard scan asks
  // whether a statement does, without walking it again.
  const responds: number[] = [];
  const own = (n: TS.Node, responseCall: boolean): void => {
    responses.visit(n, responseCall);
    if (respondsAt(ctx, n, responseCall)) responds.push(n.pos);
    else if (closesSocket(ts, n, f)) {
      responds.push(n.pos);
      f.socket = true;
    }
  };
  analyseBehaviour(ctx, node, body, f, own, words, ownArguments);
  headerCredentialOnly(ctx, node, body, f, requestParam(ts, node, f));
  responses.finish();
  if (ts.isBlock(body)) {
    const empty: NonNullable<FunctionFact['emptyWhen']> = [];
    f.leading = leadingGuards(ctx, body.statements, scope.id, f, responds, ownArguments, empty, (past) => (f.leadingPastServed = past));
    if (empty.length > 0) f.emptyWhen = empty;
    const dispatch = spellsMethod && f.params[0] ? methodDispatch(ctx, body.statements, f.params[0]) : null;
    const allows = spellsMethod && f.params[0] ? methodGate(ctx, body.statements, f.params[0], scope.id) : null;
    if (allows) f.allowsMethods = allows;
    if (dispatch) {
      const before = dispatch.before;
      f.dispatch = dispatch.branches.map((b) => {
        const at = locOf(ctx, b.node);
        const leading = leadingGuards(ctx, [...before, ...b.statements], scope.id, f, responds, ownArguments);
        // (a table's function for the method, handed the request: it leads the branch as a call the handler ends with)
        if (b.delegate) leading.push({ ...leadingCall(ctx, b.delegate.call, scope.id), callee: shallowExpr(ctx, b.delegate.fn, scope.id), delegates: true, returned: true });
        return { methods: b.methods, at, snippet: lineText(ctx, at.line), leading };
      });
    }
    // a verification whose failure the `catch` ends the request on (`next(err)` there included)
    if (f.leading.some((l) => l.verifies)) f.behaviour.sendsResponse = true;
    const refusal = refusesEvery(ctx, body, f.params);
    if (refusal) f.leading = [...f.leading, { inline: 'refusal', at: locOf(ctx, refusal) }];
    // `.filter((file) => { return file.endsWith('.js'); })`: its one return, as a test (see below)
    const only = onlyReturn(ts, body);
    const test = only && (ctx.predicates.has(node) || booleanExpression(ts, only)) ? only : undefined;
    if (test) {
      f.returns = [predicateReturn(ctx, test, (n, d) => shallowExpr(ctx, n, scope.id, d))];
      delete f.returnsWhen;
    }
  } else {
    // `(request) => authenticatedApiClient({ request, handler })`: the call the body is leads it,
    // and the function answers with what it returns
    const answer = concludingCall(ctx, body, scope.id, f, ownArguments);
    if (!answer?.delegates && refusesEvery(ctx, body, f.params)) f.leading = [{ inline: 'refusal', at: locOf(ctx, body) }];
    else {
      // (`(req) => key ? viaApiKey(key) : viaSession()`: the call of each way)
      const lead = answer ?? eitherWay(ctx, body, scope.id, f, ownArguments);
      if (lead) f.leading = [lead];
    }
  }
  return f;
}

/**
 * A function's parameters as its calls pass them: TypeScript's `this` parameter
 * (`function requireTenant(this: Audit, req, res, next)`) only types `this`, and is left out.
 */
function runtimeParameters(ts: TSModule, f: TS.SignatureDeclarationBase): readonly TS.ParameterDeclaration[] {
  const first = f.parameters[0];
  return first && ts.isIdentifier(first.name) && first.name.text === 'this' ? f.parameters.slice(1) : f.parameters;
}

/** An array index written as a number (`[0]`), which is the property of its name. */
function isIndex(ts: TSModule, n: TS.Expression): n is TS.NumericLiteral {
  return ts.isNumericLiteral(n) && /^(0|[1-9]\d*)$/.test(n.text);
}

/** The expression a function body is or returns as its one statement (`return (…);`); undefined for any other body. */
function onlyReturn(ts: TSModule, body: TS.ConciseBody): TS.Expression | undefined {
  if (!ts.isBlock(body)) return body;
  const [only, ...more] = body.statements;
  return only && more.length === 0 && ts.isReturnStatement(only) ? only.expression : undefined;
}

/** A predicate's name: `p.endsWith('.ts')`, `list.includes(x)`, `re.test(s)`, `Array.isArray(v)`, `isAdmin(user)`. */
const PREDICATE_CALL = /^(?:endsWith|startsWith|includes|test|has|some|every|is[A-Z$_]\w*)$/;

/**
 * An expression whose value is true or false and is made of tests joined by `&&`, `||` or `!`
 * (`p.endsWith('.plugin.ts') && !p.includes('metrics.plugin.ts')`, an autoload `matchFilter`):
 * each operand a negation, a comparison, or a call of a predicate (PREDICATE_CALL). A function
 * answering one answers true or false on that test (predicateReturn). (`x && x.id` answers a
 * value, not a truth: no such expression.)
 */
function booleanExpression(ts: TSModule, e: TS.Expression): boolean {
  const K = ts.SyntaxKind;
  const u = unwrap(ts, e);
  const operand = (x: TS.Expression): boolean => {
    const v = unwrap(ts, x);
    if (v.kind === K.PrefixUnaryExpression) return (v as TS.PrefixUnaryExpression).operator === K.ExclamationToken;
    if (v.kind === K.BinaryExpression) {
      const op = (v as TS.BinaryExpression).operatorToken.kind;
      if (op === K.AmpersandAmpersandToken || op === K.BarBarToken) return operand((v as TS.BinaryExpression).left) && operand((v as TS.BinaryExpression).right);
      return [K.LessThanToken, K.GreaterThanToken, K.LessThanEqualsToken, K.GreaterThanEqualsToken, K.EqualsEqualsToken, K.ExclamationEqualsToken, K.EqualsEqualsEqualsToken, K.ExclamationEqualsEqualsToken, K.InstanceOfKeyword, K.InKeyword].includes(op);
    }
    return ts.isCallExpression(v) && PREDICATE_CALL.test(calleeName(ts, v));
  };
  if (u.kind === K.PrefixUnaryExpression) return (u as TS.PrefixUnaryExpression).operator === K.ExclamationToken;
  if (u.kind !== K.BinaryExpression) return false;
  const op = (u as TS.BinaryExpression).operatorToken.kind;
  return (op === K.AmpersandAmpersandToken || op === K.BarBarToken) && operand(u);
}

/** What a `.filter` callback returns, as a choice of true or false on its test, each operand read by `read`. */
function predicateReturn(ctx: Ctx, e: TS.Expression, read: (n: TS.Expression, depth: number) => Expr): Expr {
  return { k: 'choice', test: condWith(ctx.ts, e, 0, false, read), then: { k: 'bool', v: true }, otherwise: { k: 'bool', v: false }, text: textOf(ctx, e, 80) };
}

/**
 * An Expr for a returned expression, reusing function facts already made for nested functions:
 * names, literals, members (`ROUTES['admin']` too), calls, lists, objects (their spreads and
 * methods as toExpr reads them), and the strings a helper builds (`\`/tenants/${id}\``,
 * `base + path`, `legacy ? a : b`). (Keeping the Exprs the walk of each `return` made instead
 * measured slower: 3.6 % more instructions in a whole run over 300 generated files.)
 */
function shallowExpr(ctx: Ctx, n: TS.Expression, scope: number, depth = 0): Expr {
  const { ts } = ctx;
  if (depth > MAX_DEPTH) return { k: 'unknown', text: 'too deep' };
  const e = unwrap(ts, n);
  const sub = (x: TS.Expression): Expr => shallowExpr(ctx, x, scope, depth + 1);
  if (ts.isTemplateExpression(e)) {
    const parts: Expr[] = [{ k: 'str', v: e.head.text }];
    for (const span of e.templateSpans) parts.push(sub(span.expression), { k: 'str', v: span.literal.text });
    return { k: 'tpl', parts: parts.slice() };
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const l = sub(e.left);
    const r = sub(e.right);
    return { k: 'tpl', parts: [...(l.k === 'tpl' ? l.parts : [l]), ...(r.k === 'tpl' ? r.parts : [r])] };
  }
  const op = fallbackOp(ts, e);
  if (op !== null) return { k: 'fallback', op, l: sub((e as TS.BinaryExpression).left), r: sub((e as TS.BinaryExpression).right), text: textOf(ctx, e, 80) };
  if (ts.isConditionalExpression(e))
    return { k: 'choice', test: condWith(ts, e.condition, depth + 1, true, (x, d) => shallowExpr(ctx, x, scope, d)), then: sub(e.whenTrue), otherwise: sub(e.whenFalse), text: textOf(ctx, e, 80) };
  if (ts.isIdentifier(e)) return refOf(ctx, e.text, scope);
  if (e.kind === ts.SyntaxKind.ThisKeyword && ctx.thisRef) return refOf(ctx, ctx.thisRef.name, ctx.thisRef.scope);
  if (ts.isStringLiteralLike(e)) return { k: 'str', v: e.text };
  if (ts.isNumericLiteral(e)) return { k: 'num', v: Number(e.text) };
  if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return { k: 'bool', v: e.kind === ts.SyntaxKind.TrueKeyword };
  if (e.kind === ts.SyntaxKind.RegularExpressionLiteral) return regexLiteral(e as TS.RegularExpressionLiteral);
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return madeFunction(ctx, e);
  if (ts.isPropertyAccessExpression(e)) return memberOf(ctx, sub(e.expression), e.name.text);
  if (ts.isElementAccessExpression(e) && (ts.isStringLiteralLike(e.argumentExpression) || isIndex(ts, e.argumentExpression))) return memberOf(ctx, sub(e.expression), e.argumentExpression.text);
  if (ts.isElementAccessExpression(e)) return { k: 'index', obj: sub(e.expression), key: sub(e.argumentExpression), text: textOf(ctx, e, 80) };
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return { k: 'num', v: -Number(e.operand.text) };
  if (ts.isCallExpression(e) || ts.isNewExpression(e)) {
    const made = ts.isCallExpression(e) ? ctx.calls.get(e) : undefined;
    if (made) return made;
    const pos = e.getStart(ctx.sf);
    const at = locAt(ctx, pos);
    const args = (e.arguments ?? []).map((a) => sub(ts.isSpreadElement(a) ? a.expression : a));
    const callee = sub(e.expression);
    const spread: { spread?: true } = e.arguments?.some((a) => ts.isSpreadElement(a)) ? { spread: true } : {};
    return ts.isCallExpression(e) ? { k: 'call', callee, args, at, pos, ...spread } : { k: 'new', callee, args, at, pos, ...spread };
  }
  if (ts.isArrayLiteralExpression(e)) return { k: 'arr', items: e.elements.map((x) => sub(ts.isSpreadElement(x) ? x.expression : x)) };
  if (ts.isObjectLiteralExpression(e)) return objectExpr(ctx, e, scope, sub, (m) => madeFunction(ctx, m));
  return { k: 'unknown', text: textOf(ctx, e, 80) };
}

/** The function the walk made of a function's node (`fn`). */
function madeFunction(ctx: Ctx, node: TS.FunctionLikeDeclaration): Expr {
  const id = ctx.fnIds.get(node);
  return id !== undefined ? { k: 'fn', id } : { k: 'unknown', text: 'function' };
}

/** An error's message saying its request is not authenticated: `'Unauthorized'`, `'not authenticated'`, `'Authentication error'`. */
const NOT_AUTHENTICATED_MESSAGE = /^\s*(?:unauthori[sz]ed|unauthenticated|not[ _-]?authenticated|authentication (?:error|failed|required))\b/i;
const STATUS_WORD_RE = /unauthori[sz]ed|unauthenticated|not_?authenticated|forbidden|not_?found|(?:authenticat|authori[sz]at)ion(?:error|exception)/i;

/**
 * A name that is a status, or what gives it: the word alone (`UNAUTHORIZED`, `unauthorized(res)`,
 * `Forbidden`, plunk's `NotAuthenticated`, `UNAUTHENTICATED`), one more upper-case word
 * (`NOT_FOUND_ERROR`), or a kind of answer or error after it (`unauthorizedError`,
 * `forbiddenResponse`, `notFoundHandler`) — not a value named for
 * something else (`unauthorizedRole`, logto's role claim; `forbiddenWords`, `notFoundCount`).
 */
const STATUS_NAME_TAIL = '(?:_[A-Z_]*|Error|Exception|Response|Reply|Result|Status|Handler|Code)?$';
const UNAUTHORIZED_NAME = new RegExp(`^(?:[Uu]nauthori[sz]ed|UNAUTHORI[SZ]ED|[Uu]nauthenticated|UNAUTHENTICATED|NotAuthenticated|NOT_AUTHENTICATED)${STATUS_NAME_TAIL}`);
const FORBIDDEN_NAME = new RegExp(`^(?:[Ff]orbidden|FORBIDDEN)${STATUS_NAME_TAIL}`);
const NOT_FOUND_NAME = new RegExp(`^(?:[Nn]ot_?[Ff]ound|NOT_?FOUND)${STATUS_NAME_TAIL}`);

function statusOf(ts: TSModule, n: TS.Node, classes: Ctx['errorClasses'] = null): number | null {
  if (ts.isNumericLiteral(n)) {
    const v = Number(n.text);
    return v === 401 || v === 403 || v === 404 ? v : null;
  }
  if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) {
    const t = ts.isIdentifier(n) ? n.text : n.name.text;
    // `throw new NotLoggedError()` of `class NotLoggedError extends AppError { type = 'UNAUTHORIZED' }` in the file
    const declared = classes !== null && ts.isIdentifier(n) ? classes.get(t) : undefined;
    if (declared !== undefined) return declared;
    // Every pattern below names one of these: one test rules out nearly every identifier.
    if (!STATUS_WORD_RE.test(t)) return t.includes('40') ? numberedError(t) : null;
    // (an authentication error is the 401 of a request with no valid credentials, an authorisation error the 403 of one refused)
    if (UNAUTHORIZED_NAME.test(t) || /^(Unauthori[sz]ed|Authentication)(Exception|Error)$/.test(t)) return 401;
    // error factories: `throw createUnauthorizedError()`, `makeForbiddenError()`
    if (/^(create|make|new|build)Unauthori[sz]ed(Error|Exception|Response)?$/.test(t)) return 401;
    if (/^(create|make|new|build)Forbidden(Error|Exception|Response)?$/.test(t)) return 403;
    if (FORBIDDEN_NAME.test(t) || /^Authori[sz]ation(Error|Exception)$/.test(t)) return 403;
    if (NOT_FOUND_NAME.test(t) || /^NotFound(Exception|Error)$/.test(t)) return 404;
    // an error class named for its status after a prefix of its own: `TRPCForbiddenError`, `HttpUnauthorizedError`, `ApiNotFoundException`
    const named = /^[A-Z]\w*?(Unauthori[sz]ed|Unauthenticated|NotAuthenticated|Forbidden|NotFound)(Exception|Error)$/.exec(t);
    if (named) return named[1] === 'Forbidden' ? 403 : named[1] === 'NotFound' ? 404 : 401;
  }
  return null;
}

/** Elysia's names of the statuses statusOf reads (its StatusMap, src/utils.ts). */
const ELYSIA_STATUS_NAMES = new Map([
  ['Unauthorized', 401],
  ['Forbidden', 403],
  ['Not Found', 404],
]);

/**
 * A status Elysia takes by its name, in `n`: `set.status = 'Unauthorized'` (the context's `set`),
 * `status('Forbidden', …)` or `error('Not Found')` (the context's answer makers). Null for
 * anything else.
 */
function elysiaStatus(ts: TSModule, n: TS.Node): number | null {
  let name: TS.Expression | undefined;
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(n.left) && n.left.name.text === 'status') name = n.right;
  else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && (n.expression.text === 'status' || n.expression.text === 'error')) name = n.arguments[0];
  return name && ts.isStringLiteral(name) ? (ELYSIA_STATUS_NAMES.get(name.text) ?? null) : null;
}

/** An error class named for its status by number: `Error401` (Gladys's httpErrors), `Http403Error`, `ApiException404`. */
function numberedError(name: string): number | null {
  const m = /^(?:[A-Z]\w*?)?(?:(?:Error|Exception)(40[134])|(40[134])(?:Error|Exception))$/.exec(name);
  return m ? Number(m[1] ?? m[2]) : null;
}

/**
 * Where a file spells such a number after or before `Error` / `Exception` (numberedError): the
 * spans of the numbers, found by a search for `40` (far cheaper than one more word in WORDS_RE).
 */
function numberedErrorSpans(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('40'); i >= 0; i = text.indexOf('40', i + 2)) {
    const d = text.charCodeAt(i + 2);
    if (d !== 0x31 && d !== 0x33 && d !== 0x34) continue;
    if (text.startsWith('Error', i + 3) || text.startsWith('Exception', i + 3) || text.endsWith('Error', i) || text.endsWith('Exception', i)) out.push(i, i + 3);
  }
  return out;
}

/**
 * `res.unauthorized = (message) => res.json({ code: 401 }, 401)`: a member named for a status,
 * given its value — the function assigned (`n`), or the member's name. A definition gives no
 * status; each call of the member by that name does (zipline's `withZipline`, whose 401 comes
 * only where its options ask for a signed-in user).
 */
function namesStatusMember(ts: TSModule, n: TS.Node, ancestors: readonly TS.Node[]): boolean {
  const named = ts.isIdentifier(n);
  const assignment = ancestors[ancestors.length - (named ? 2 : 1)];
  if (!assignment || !ts.isBinaryExpression(assignment) || assignment.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
  const member = assignment.left;
  if (!ts.isPropertyAccessExpression(member) || (named ? member.name !== n : assignment.right !== n)) return false;
  return statusOf(ts, member.name) !== null;
}

/** `code: 'UNAUTHORIZED'`, `status: "forbidden"`: the status an error code given as a code or status names, if any. */
function errorCodeStatus(ctx: Ctx, p: TS.PropertyAssignment): number | null {
  return ctx.ts.isStringLiteral(p.initializer) && /^(status|statusCode|code)$/.test(textOf(ctx, p.name)) ? statusCode(p.initializer.text) : null;
}

/** An error code that names a status: `UNAUTHORIZED` (tRPC), `unauthorized`, `forbidden`, `not_found`, `NOT_FOUND`. */
function statusCode(text: string): number | null {
  if (/^unauthori[sz]ed$/i.test(text)) return 401;
  if (/^forbidden$/i.test(text)) return 403;
  return /^not_?found$/i.test(text) ? 404 : null;
}

/**
 * A response's method answering with an HTTP error, named for it: @fastify/sensible's
 * `reply.notFound()`, `reply.unauthorized()` (its httpErrors), an app's own (`res.forbidden(msg)`,
 * zipline's).
 */
const ERROR_RESPONSE_METHOD = /^(badRequest|unauthori[sz]ed|paymentRequired|forbidden|notFound|methodNotAllowed|notAcceptable|conflict|gone|unprocessableEntity|tooManyRequests|internalServerError|notImplemented|badGateway|serviceUnavailable|gatewayTimeout)$/;

function isResponseCall(ts: TSModule, n: TS.Node): boolean {
  if (!ts.isCallExpression(n)) return false;
  const c = n.expression;
  if (ts.isPropertyAccessExpression(c)) {
    const prop = c.name.text;
    if (RESPONSE_METHODS.has(prop) || ERROR_RESPONSE_METHOD.test(prop)) {
      const obj = c.expression;
      // res.json(...), res.status(200).json(...), reply.send(), c.json(), Response.json(), NextResponse.json()
      const base = ts.isCallExpression(obj) && ts.isPropertyAccessExpression(obj.expression) ? obj.expression.expression : obj;
      const t = ts.isIdentifier(base) ? base.text : ts.isPropertyAccessExpression(base) ? base.name.text : '';
      return /^(res|response|reply|c|ctx|context|Response|NextResponse|h)$/.test(t) || /res(ponse)?$|reply$/i.test(t);
    }
  }
  return false;
}

/** `res.redirect(\`https://${req.headers.host}${req.url}\`)`, `ctx.redirect('https://' + host)`: a redirect whose URL is written starting `https://`. */
function httpsRedirect(ctx: Ctx, n: TS.CallExpression): boolean {
  const { ts } = ctx;
  const c = n.expression;
  const url = n.arguments[n.arguments.length - 1];
  return ts.isPropertyAccessExpression(c) && c.name.text === 'redirect' && !!url && /^\s*[`'"]https:\/\//.test(textOf(ctx, url, 12));
}

/** What a Koa context answers through when assigned (isContextWrite): `ctx.body`, `context.status`, `ctx.response.body`. */
const CONTEXT_ANSWER = /^(ctx|context)(\.response)?\.(body|status)$/;

/**
 * `ctx.body = …` / `context.status = …` / `ctx.response.body = …` (Koa's context delegates both
 * to its response): the assignment's target, written as `re` matches it. The shape is tested
 * first, so the target's text is taken only for member accesses named so.
 */
function isContextWrite(ctx: Ctx, left: TS.Expression, re: RegExp): boolean {
  const { ts } = ctx;
  if (!ts.isPropertyAccessExpression(left)) return false;
  const on = left.expression;
  if (!ts.isIdentifier(on) && !(ts.isPropertyAccessExpression(on) && on.name.text === 'response' && ts.isIdentifier(on.expression))) return false;
  const name = left.name.text;
  return (name === 'body' || name === 'status') && re.test(textOf(ctx, left));
}

/**
 * Which kinds of words a function's source text holds at all: a name or key that matches a
 * pattern below is spelled in that text, so a body without the word needs no test per node.
 */
interface BodyWords {
  /** STATUS_WORD_RE (`unauthorized`, `forbidden`, `notFound` …) */
  status: boolean;
  /** what CREDENTIAL_KEY_RE finds in response keys */
  credential: boolean;
  /** what session-id exposures are made of (SESSION_EXPOSURE_RE, `sessionID` shorthands) */
  session: boolean;
  /** `method`, as `req.method` is read */
  method: boolean;
}
const CREDENTIAL_WORD_RE = /password|passwd|secret|token|connection_?string|dsn|api_?key|private_?key|credential/i;

/** A property name a credential, a session or a user goes by (`accessToken`, `sessionId`, `userId`): what a request asks for is none of these. */
function namesCredential(name: string): boolean {
  return CREDENTIAL_WORD_RE.test(name) || /auth|sess|user|sign|cookie/i.test(name);
}
const SESSION_WORD_RE = /session|cookies/i;

/** Where each kind of word is spelled in a file: [start, end, start, end …] of every match, in order. */
interface WordSpans {
  status: number[];
  credential: number[];
  session: number[];
  method: number[];
  /** WRITE_WORD: where a call that writes may be named (branchWrites) */
  write: number[];
}

/**
 * The three kinds in one pattern, one group each (no two kinds' words match at the same place,
 * so a match's group tells its kind): the text is searched once, not once per kind.
 */
const WORDS_RE = new RegExp(`(${STATUS_WORD_RE.source})|(${CREDENTIAL_WORD_RE.source})|(${SESSION_WORD_RE.source})`, 'gi');

function wordSpans(text: string, errorClasses: Ctx['errorClasses']): WordSpans {
  const out: WordSpans = { status: [], credential: [], session: [], method: [], write: [] };
  WORDS_RE.lastIndex = 0;
  // every match, overlapping ones too: a body's text holds a word when one of them lies in it
  for (let m = WORDS_RE.exec(text); m !== null; m = WORDS_RE.exec(text)) {
    (m[1] !== undefined ? out.status : m[2] !== undefined ? out.credential : out.session).push(m.index, m.index + m[0].length);
    WORDS_RE.lastIndex = m.index + 1;
  }
  CASED_WORDS_RE.lastIndex = 0;
  for (let m = CASED_WORDS_RE.exec(text); m !== null; m = CASED_WORDS_RE.exec(text)) {
    (m[1] !== undefined ? out.method : out.write).push(m.index, m.index + m[0].length);
    CASED_WORDS_RE.lastIndex = m.index + 1;
  }
  const numbered = numberedErrorSpans(text);
  // (the names of the file's error classes with a status of their own spell one too)
  const named = errorClasses === null ? [] : nameSpans(text, [...errorClasses.keys()]);
  if (numbered.length > 0 || named.length > 0) {
    // (merged in order of their starts, as spelledWithin searches them)
    const pairs: [number, number][] = [];
    for (const spans of [out.status, numbered, named]) for (let i = 0; i < spans.length; i += 2) pairs.push([spans[i]!, spans[i + 1]!]);
    out.status = pairs.sort((a, b) => a[0] - b[0]).flat();
  }
  return out;
}

/** Where `text` spells one of `names` as a whole word: [start, end, …], in order. */
function nameSpans(text: string, names: string[]): number[] {
  const out: number[] = [];
  const re = new RegExp(String.raw`(?<![\w$])(?:${names.map((n) => n.replace(/\$/g, '\\$')).join('|')})(?![\w$])`, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m.index, m.index + m[0].length);
  return out;
}

const ERROR_CLASS_NAME = /(?:Error|Exception)$/;

/**
 * The error classes a file declares at its top with the status they answer with, by name:
 * classes named for an error or an exception, or extending one (`YourSpotifyError`,
 * `HttpError`), that give the status as a field (`type = 'UNAUTHORIZED' as const`, `statusCode =
 * 401`, your_spotify's `NotLoggedError`), to the base's constructor (`super(401, 'not signed
 * in')`, `super({ status: 403 })`) or to their own field in theirs (`this.status = 404`), or
 * whose base in the file does. Null when there are none (most files). Other files throwing them
 * are linked to them (FileFacts.errorClasses, Behaviour.throwsImported).
 */
function errorClassStatuses(ts: TSModule, sf: TS.SourceFile): Map<string, number> | null {
  let out: Map<string, number> | null = null;
  const bases = new Map<string, string>();
  const literal = (e: TS.Expression | undefined, key: string | null): number | null => {
    const u = e && unwrap(ts, e);
    if (!u) return null;
    if (ts.isNumericLiteral(u)) return key === null || /^(status|statusCode|code)$/.test(key) ? statusOf(ts, u) : null;
    if (ts.isStringLiteral(u)) return key !== null && /^(status|statusCode|code|type)$/.test(key) ? statusCode(u.text) : null;
    if (key === null && ts.isObjectLiteralExpression(u))
      for (const p of u.properties) {
        const st = ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) ? literal(p.initializer, p.name.text) : null;
        if (st !== null) return st;
      }
    return null;
  };
  for (const node of sf.statements) {
    if (!ts.isClassDeclaration(node) || !node.name) continue;
    const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    // (an error's: named so, or extending one named so — not any class made with a 404 for a size)
    if (!base || !(ERROR_CLASS_NAME.test(node.name.text) || (ts.isIdentifier(base) && ERROR_CLASS_NAME.test(base.text)) || (ts.isPropertyAccessExpression(base) && ERROR_CLASS_NAME.test(base.name.text)))) continue;
    let st: number | null = null;
    for (const m of node.members) {
      if (st !== null) break;
      if (ts.isPropertyDeclaration(m) && ts.isIdentifier(m.name) && !hasModifier(ts, m, ts.SyntaxKind.StaticKeyword)) st = literal(m.initializer, m.name.text);
      else if (ts.isConstructorDeclaration(m) && m.body)
        for (const x of m.body.statements) {
          const e = ts.isExpressionStatement(x) ? x.expression : null;
          if (e && ts.isCallExpression(e) && e.expression.kind === ts.SyntaxKind.SuperKeyword) for (const a of e.arguments) st ??= literal(a, null);
          else if (e && ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(e.left) && e.left.expression.kind === ts.SyntaxKind.ThisKeyword) st ??= literal(e.right, e.left.name.text);
        }
    }
    if (st !== null) (out ??= new Map()).set(node.name.text, st);
    else if (ts.isIdentifier(base)) bases.set(node.name.text, base.text);
  }
  // (a class whose base in the file has one: `class NoAccountError extends SessionExpiredError {}`)
  for (let changed = out !== null; changed; ) {
    changed = false;
    for (const [name, base] of bases) {
      const st = out!.get(base);
      if (st === undefined || out!.has(name)) continue;
      out!.set(name, st);
      changed = true;
    }
  }
  return out;
}

/** Does a match of `spans` lie within [start, end)? */
function spelledWithin(spans: number[], start: number, end: number): boolean {
  let lo = 0;
  let hi = spans.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[2 * mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = 2 * lo; i < spans.length && spans[i]! < end; i += 2) if (spans[i + 1]! <= end) return true;
  return false;
}

/** The words a function body spells (the file's matches looked up, not its text searched again). */
function wordsOf(ctx: Ctx, body: TS.Node): BodyWords {
  const w = ctx.words;
  return {
    status: spelledWithin(w.status, body.pos, body.end),
    credential: spelledWithin(w.credential, body.pos, body.end),
    session: spelledWithin(w.session, body.pos, body.end),
    method: spelledWithin(w.method, body.pos, body.end),
  };
}

/**
 * `res.fail = (msg) => res.status(400).json({ msg })`, `req.flash = (type, msg) => …`: a function
 * (or, `fn` a construction, an instance: `req.responseHandler = new ApiResponseHandler(req)`)
 * assigned to a property of one of the function's own parameters (its request, response or
 * context), under a name that is no event's (`onerror`, `onload`: called while this request is
 * handled).
 */
function installedHelper(ts: TSModule, fn: TS.Node, ancestors: readonly TS.Node[], params: readonly string[]): { prop: string; on: number } | null {
  const p = ancestors[ancestors.length - 1];
  if (!p || !ts.isBinaryExpression(p) || p.operatorToken.kind !== ts.SyntaxKind.EqualsToken || p.right !== fn) return null;
  const target = unwrap(ts, p.left);
  if (!ts.isPropertyAccessExpression(target) || /^on[a-z]/.test(target.name.text)) return null;
  const on = unwrap(ts, target.expression);
  const index = ts.isIdentifier(on) ? params.indexOf(on.text) : -1;
  return index >= 0 ? { prop: target.name.text, on: index } : null;
}

/** A Nest guard denies with any falsy result: every `return` but `return true` can deny. */
function canReturnFalse(ts: TSModule, e: TS.Expression): boolean {
  return unwrap(ts, e).kind !== ts.SyntaxKind.TrueKeyword;
}

/**
 * What the behaviour walk found in a function's body, kept so that an enclosing function's walk
 * takes it over instead of walking the nested body again (nesting made that quadratic). Only
 * bodies without a 401 are taken over: a 401's conditions are read up to the enclosing body.
 */
interface BodySummary {
  status403or404: boolean;
  comparesTenant: boolean;
  readsSession: boolean;
  sendsResponse: boolean;
  status401: boolean;
  /** names called as plain functions (`next()`, `done()`), nested functions included; null for none */
  called: Set<string> | null;
  /** of those, the names called with no argument somewhere; null for none */
  calledBare: Set<string> | null;
}

/** The glob matcher packages whose match of a path an allowlist's test may be (SkipFor's `oneOf`, GlobTest). */
const GLOB_PACKAGES: Record<string, GlobTest> = { micromatch: 'glob', picomatch: 'glob', minimatch: 'minimatch' };

/**
 * `micromatch.isMatch(subject, patterns)` (or `isMatch` imported from micromatch or picomatch),
 * `minimatch(subject, pattern)`: a test of `subject` against globs, two arguments (no options);
 * null for any other expression.
 */
function globCall(ctx: Ctx, u: TS.Expression): { subject: TS.Expression; patterns: TS.Expression; test: GlobTest } | null {
  const { ts } = ctx;
  if (!ts.isCallExpression(u) || u.arguments.length !== 2) return null;
  const c = u.expression;
  const local = ts.isIdentifier(c) ? c.text : ts.isPropertyAccessExpression(c) && ts.isIdentifier(c.expression) && c.name.text === 'isMatch' ? c.expression.text : null;
  const imp = local === null ? undefined : ctx.facts.imports.find((i) => i.local === local && Object.hasOwn(GLOB_PACKAGES, i.source));
  if (!imp) return null;
  const test = GLOB_PACKAGES[imp.source]!;
  // (a named import is the function itself: micromatch's `isMatch`, minimatch's `minimatch`; a
  // default or namespace import is minimatch's function, or what `isMatch` is read from)
  const whole = imp.imported === 'default' || imp.imported === '*' || imp.imported === '=';
  const ok = ts.isIdentifier(c) ? (test === 'minimatch' ? whole || imp.imported === 'minimatch' : imp.imported === 'isMatch') : whole;
  return ok ? { subject: u.arguments[0]!, patterns: u.arguments[1]!, test } : null;
}

/** The name a chain of property reads starts from (`res` of `res.status(401).json`), or '' for none. */
function rootName(ts: TSModule, e: TS.Expression): string {
  let x = e;
  while (ts.isPropertyAccessExpression(x) || ts.isCallExpression(x) || ts.isElementAccessExpression(x)) x = x.expression;
  return ts.isIdentifier(x) ? x.text : '';
}

/**
 * Is call `n` what its function returns as it is: `return f(…)`, `return await f(…)`, or an
 * arrow function's body (`(req) => f(req)`)? `ancestors` ends with its parent.
 */
function returnedAsIs(ts: TSModule, n: TS.Node, ancestors: readonly TS.Node[], body: TS.Node): boolean {
  if (n === body) return true;
  let i = ancestors.length - 1;
  let p = ancestors[i];
  while (p && (ts.isParenthesizedExpression(p) || ts.isAwaitExpression(p))) p = ancestors[--i];
  return !!p && (ts.isReturnStatement(p) || (ts.isArrowFunction(p) && p.body === (ancestors[i + 1] ?? n)));
}

/**
 * `own` is called, in source order, on every node of the body outside nested functions;
 * `ownArguments`, the function has its own `arguments` (calledWith).
 */
function analyseBehaviour(ctx: Ctx, fnNode: TS.Node, body: TS.Node, f: FunctionFact, own: (n: TS.Node, responseCall: boolean) => void, words: BodyWords, ownArguments: boolean): void {
  const { ts } = ctx;
  const b: Behaviour = f.behaviour;
  const nextName = f.params.length >= 2 ? f.params[f.params.length - 1] : null;
  // a middleware's response (`(req, res, next)`), and the calls handed it (Behaviour.answersVia)
  const resName = f.params.length === 3 && /^(?:res|resp|response)$/.test(f.params[1]!) && /^(?:next|done|cb|callback)$/.test(f.params[2]!) ? f.params[1]! : null;
  const answersVia: { call: TS.CallExpression; index: number }[] = [];
  // calls whose answer the function returns (Behaviour.returnsVia), under an `if` or not, or its truth (Behaviour.returnsAnswerOf)
  const returnsVia: TS.CallExpression[] = [];
  const answerOf: TS.CallExpression[] = [];
  const sites401: FlagCondition[][] = [];
  // error classes imported that the function throws or hands on (Behaviour.throwsImported)
  const thrownImports = new Set<string>();
  const summary: BodySummary = { status403or404: false, comparesTenant: false, readsSession: false, sendsResponse: false, status401: false, called: null, calledBare: null };
  // how many functions (the body itself included, when it is one) enclose the node visited
  let nested = 0;
  // per parameter (by index): true while every use of its name writes a response, false once
  // one does not (see Behaviour.respondsWith); null once a nested function is taken over unread
  let writes: boolean[] | null = f.params.length > 0 ? [] : null;
  // the ancestors of the node visited, from the function itself down to its parent
  const ancestors: TS.Node[] = [fnNode];
  // a 401 met under a `throw` or handed on (`next(err)`, `ctx.throw(401)`, `reject(err)`): one a caller cannot go on past
  let thrown401 = false;
  // a 401 met in a response written or made, or in what the function returns (`res.status(401)`, `new Response(…)`, `return { status: 401 }`)
  let answered401 = false;
  const answers = (a: TS.Node): boolean =>
    ts.isReturnStatement(a) || isResponseCall(ts, a) || isNewResponse(ts, a) || (ts.isBinaryExpression(a) && a.operatorToken.kind === ts.SyntaxKind.EqualsToken && /\.(status|statusCode)$/.test(textOf(ctx, a.left)));
  const hands401On = (a: TS.Node): boolean => {
    if (ts.isThrowStatement(a)) return true;
    if (!ts.isCallExpression(a)) return false;
    const callee = a.expression;
    // (`return failed(401, 'Invalid credentials')` of `const failed = (status, reason) => { res.status(status).send(reason); throw … }`)
    if (ts.isIdentifier(callee)) return callee.text === nextName || callee.text === 'next' || callee.text === 'reject' || callee.text === 'done' || endsThrowing(ts, callee.text, body, ctx.sf);
    return ts.isPropertyAccessExpression(callee) && (callee.name.text === 'throw' || callee.name.text === 'reject');
  };
  // inside a function assigned to a member named for a status (`res.unauthorized = (msg) => res.json(…, 401)`):
  // its calls (`res.unauthorized('not logged in')`) are where the status is given, by that name
  let defining = 0;
  /** Is `n` (a number or a name) where a status is given: a call's or a construction's argument, a `status` field, `res.statusCode = …`? */
  const inStatusContext = (n: TS.Node): boolean => {
    const p: TS.Node | undefined = ancestors[ancestors.length - 1];
    // (`error instanceof NotFoundError`: a test of what was thrown, no status given)
    if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) return false;
    const grandparent: TS.Node | undefined = ancestors[ancestors.length - 2];
    return !!(
      (p && (ts.isCallExpression(p) || ts.isNewExpression(p))) ||
      (p && ts.isPropertyAssignment(p) && /^(status|statusCode|code)$/.test(textOf(ctx, p.name))) ||
      (p && ts.isBinaryExpression(p) && /\.(status|statusCode)$/.test(textOf(ctx, p.left))) ||
      (p && ts.isPropertyAccessExpression(p) && p.name === n) ||
      (p && ts.isNewExpression(grandparent ?? p)) ||
      ts.isIdentifier(n)
    );
  };
  // other error statuses given as numbers: 429 and 503 (a rate limit, maintenance), those of a
  // request it cannot read (UNREADABLE), and the rest; a throw of its own, a nested function
  // answering (Behaviour.refusesBusyOnly, Behaviour.refusesUnreadableOnly)
  let busy = false;
  let unreadable = false;
  let otherStatus = false;
  // `next(new Error(…))` in a function of two parameters (Behaviour.nextError), one saying it is not authenticated
  let nextError = false;
  let nextErrorUnauthenticated = false;
  let threw = false;
  // an answer, a refusal or a throw met other than a `throw err` of the error a `catch` caught
  // (what the `try`'s calls threw, passed on: handsOnAlways judges those calls)
  let ownSend = false;
  // a call named for a check met where no `catch` takes what it throws (Behaviour.callsRefusing)
  let refusingCall = false;
  // an answer written or made (a response call, a context's body, a Fetch API response): not an
  // error handed on or thrown (Behaviour.answersOnlyErrors)
  let answered = false;
  let nestedAnswers = false;
  // something in the body met that may throw where no `try … catch` of the body takes it
  // (Behaviour.throwsNothing, read of a verification called by its name only: asked of no other function)
  let mayThrow = f.name === null || !VERIFY_CALL.test(f.name) || ((fnNode as TS.FunctionLikeDeclaration).parameters?.some((p) => !ts.isIdentifier(p.name) || p.initializer !== undefined) ?? false);
  // answers written: redirects to an `https://` URL, and any other (Behaviour.upgradesToHttpsOnly)
  let httpsRedirects = 0;
  let otherAnswers = false;
  // redirects written (`res.redirect(…)`), and any other answer (Behaviour.redirectsByUrlOnly)
  let redirects = 0;
  let otherThanRedirects = false;
  // every 401 met so far given under tests of the parameters only (Behaviour.status401OnParams)
  let on401Params = true;
  // every answer met so far under a test that the method is OPTIONS (Behaviour.answersPreflightOnly; null: none met)
  let preflightOnly: boolean | null = null;
  const sent = (n: TS.Node): void => {
    if (preflightOnly !== false) preflightOnly = underPreflightTest(ts, n, ancestors);
  };
  /** A status number or name (`st`) met at `n`: counted where it is used as a status. */
  const status = (n: TS.Node, st: number | null): void => {
    if (st === null || defining > 0) return;
    if (!inStatusContext(n)) return;
    if (mapping > 0) return;
    if (st === 401) {
      summary.status401 = true;
      if (on401Params && !givenOnParamTests(ts, n, body, ancestors, f.params)) on401Params = false;
      sites401.push(flagConditions(ctx, n, body, ancestors));
      if (!thrown401 && ancestors.some(hands401On)) thrown401 = true;
      if (!answered401 && ancestors.some(answers)) answered401 = true;
    } else summary.status403or404 = true;
  };
  // `lusca.csrf()(req, res, next)`: the middleware's own request, response and next handed on
  // whole; a Hono or Koa middleware's context and next, `auth(c, next)`
  // (`wrapped.call(this, req, res, next)` too: calledWith)
  const handedTo: TS.Expression[] = [];
  // (`fn.apply(this, arguments)` hands on whatever the function was given, whatever it declares)
  const handedWhole = (call: TS.CallExpression, withArguments: boolean): TS.Expression | null => {
    const passed = passesParams(ts, call, f, withArguments);
    if (!passed || (!passed.all && ((f.params.length !== 3 && f.params.length !== 2) || nextName === null))) return null;
    return !(ts.isIdentifier(passed.callee) && f.params.includes(passed.callee.text)) ? passed.callee : null;
  };
  // `return new Promise((resolve, reject) => { passport.authenticate('jwt', …)(req, res, next) })`:
  // the executor runs at once, as part of the function; what it hands the request to, the function does
  const executorHands = (executor: TS.Node): void => {
    // (`arguments` in an arrow function is the enclosing function's)
    const withArguments = ownArguments && executor.kind === ts.SyntaxKind.ArrowFunction;
    const walk = (x: TS.Node): void => {
      if (ts.isFunctionLike(x)) return;
      const to = ts.isCallExpression(x) ? handedWhole(x, withArguments) : null;
      if (to) handedTo.push(to);
      ts.forEachChild(x, walk);
    };
    const inner = (executor as TS.FunctionLikeDeclaration).body;
    if (inner) ts.forEachChild(inner, walk);
  };
  // how many `catch` clauses mapping what a function handed the request threw enclose the node
  // visited (mapsHandedOnError): what they answer refuses nothing of the function's own
  let mapping = 0;
  const K = ts.SyntaxKind;
  const visit = (n: TS.Node): void => {
    ctx.deadline.tick();
    // (asked once per call: the response walk and the leading-guard scan ask too, through `own`)
    const responseCall = n.kind === K.CallExpression && isResponseCall(ts, n);
    const fnLike = ts.isFunctionLike(n);
    if (fnLike) nested++;
    else if (nested === 0) {
      own(n, responseCall);
      // (an instance of a class put on the request, `req.responseHandler = new ApiResponseHandler(req)`,
      // whose methods a handler calls later — FunctionFact.installs)
      const made = n.kind === K.NewExpression && ts.isIdentifier((n as TS.NewExpression).expression) ? installedHelper(ts, n, ancestors, f.params) : null;
      if (made) (f.installs ??= []).push({ ...made, made: shallowExpr(ctx, n as TS.NewExpression, f.scope) });
    }
    const definition = words.status && n !== body && (fnLike || n.kind === K.Identifier) && namesStatusMember(ts, n, ancestors);
    if (definition) defining++;
    if (fnLike && nested === 1 && n !== body) {
      const p = ancestors[ancestors.length - 1];
      if (p && ts.isNewExpression(p) && ts.isIdentifier(p.expression) && p.expression.text === 'Promise' && p.arguments?.[0] === n) executorHands(n);
    }
    if (n !== body && fnLike) {
      const inner = (n as TS.FunctionLikeDeclaration).body;
      // (a helper put on the request or response for what runs later, `request.getCurrentUserId =
      // async () => { … }`, `res.fail = (msg) => res.status(400).json(…)`: it refuses or answers
      // where that calls it, not in this function — FunctionFact.installs)
      const installed = inner ? installedHelper(ts, n, ancestors, f.params) : null;
      if (installed) {
        const id = ctx.fnIds.get(n);
        if (id !== undefined) (f.installs ??= []).push({ ...installed, fn: id });
        nested--;
        if (definition) defining--;
        return;
      }
      const done = inner ? ctx.summaries.get(inner) : undefined;
      if (inner && done && !done.status401) {
        summary.status403or404 ||= done.status403or404;
        summary.comparesTenant ||= done.comparesTenant;
        summary.readsSession ||= done.readsSession;
        if (done.sendsResponse) summary.sendsResponse = ownSend = true;
        nestedAnswers ||= done.sendsResponse || done.status403or404;
        if (done.called) for (const name of done.called) (summary.called ??= new Set()).add(name);
        if (done.calledBare) for (const name of done.calledBare) (summary.calledBare ??= new Set()).add(name);
        writes = null;
        ancestors.push(n);
        ts.forEachChild(n, (c) => (c === inner ? undefined : visit(c)));
        ancestors.pop();
        nested--;
        if (definition) defining--;
        return;
      }
    }
    if (!mayThrow && nested === 0 && mayThrowKind(ts, n.kind) && !logs(ts, n) && !caught(ts, ancestors)) mayThrow = true;
    switch (n.kind) {
      case K.NumericLiteral: {
        const st = statusOf(ts, n);
        if (st !== null) status(n, st);
        else if (defining === 0) {
          const v = Number((n as TS.NumericLiteral).text);
          // (not one answering what a handed-on function threw: mapsHandedOnError)
          if (v >= 400 && v <= 599 && mapping === 0 && inStatusContext(n)) {
            if (v === 429 || v === 503) busy = true;
            else if (UNREADABLE.has(v)) unreadable = true;
            else otherStatus = true;
          }
        }
        break;
      }
      case K.StringLiteral: {
        // `throw new TRPCError({ code: 'UNAUTHORIZED' })`, `new DubApiError({ code: "unauthorized", … })`:
        // an error code spelled as a status word, given as the code or status of what is made
        const p = ancestors[ancestors.length - 1];
        if (words.status && p && ts.isPropertyAssignment(p) && p.initializer === n) status(n, errorCodeStatus(ctx, p));
        // `set.status = 'Unauthorized'`, `return status('Forbidden')`: a status by Elysia's name of it
        else if (ctx.elysia && words.status && p) status(n, elysiaStatus(ts, p));
        // `throw new ORPCError('UNAUTHORIZED', { … })`: oRPC's error, its code first (@orpc/client error.ts)
        else if (words.status && p && ts.isNewExpression(p) && p.arguments?.[0] === n && ts.isIdentifier(p.expression) && p.expression.text === 'ORPCError') status(n, statusCode((n as TS.StringLiteral).text));
        break;
      }
      case K.Identifier: {
        // no name in the body spells a status word: no identifier can be one
        if (words.status) status(n, statusOf(ts, n, ctx.errorClasses));
        const w = writes;
        const i = w === null ? -1 : f.params.indexOf((n as TS.Identifier).text);
        if (w !== null && i >= 0 && w[i] !== false) {
          const use = useOfName(ts, n, ancestors);
          if (use !== null) w[i] = use;
        }
        break;
      }
      case K.PropertyAccessExpression: {
        if (words.status) status(n, statusOf(ts, n));
        const name = (n as TS.PropertyAccessExpression).name.text;
        // (told by its length first: most names are none of these)
        if (name.length >= 4 && name.length <= 9 && /^(session|user|auth|principal|identity)$/i.test(name)) summary.readsSession = true;
        break;
      }
      case K.BinaryExpression: {
        const e = n as TS.BinaryExpression;
        const op = e.operatorToken.kind;
        if (!summary.comparesTenant && tenantEquality(ts, e)) summary.comparesTenant = true;
        if (op === K.EqualsToken && mapping === 0 && isContextWrite(ctx, e.left, CONTEXT_ANSWER)) {
          summary.sendsResponse = ownSend = answered = true;
          sent(n);
        }
        break;
      }
      case K.CallExpression: {
        const c = (n as TS.CallExpression).expression;
        if (!summary.comparesTenant && tenantMembership(ts, n as TS.CallExpression)) summary.comparesTenant = true;
        if (nested === 0 && !refusingCall && MAY_REFUSE.test(calleeName(ts, n as TS.CallExpression)) && !logsOrAsks(ts, n as TS.CallExpression) && !caughtQuietly(ts, ancestors)) refusingCall = true;
        if (ts.isIdentifier(c)) {
          (summary.called ??= new Set()).add(c.text);
          if ((n as TS.CallExpression).arguments.length === 0) (summary.calledBare ??= new Set()).add(c.text);
          // `if (!req.user) return next(new Unauthorized())`: the request ends with the error (one
          // handed on from a `catch` reports a failure of the middleware's own work, not a refusal)
          else if (nested === 0 && c.text === nextName && handsErrorOn(ts, f, n as TS.CallExpression) && !ancestors.some((a) => a.kind === ts.SyntaxKind.CatchClause)) {
            summary.sendsResponse = ownSend = true;
            sent(n);
          }
          // (a socket.io middleware, `(socket, next)`, refuses the connection with `next(new Error(…))`)
          else if (nested === 0 && c.text === nextName && f.params.length === 2) {
            const made = unwrap(ts, (n as TS.CallExpression).arguments[0]!);
            if (ts.isNewExpression(made)) {
              nextError = true;
              // (`next(new Error('Unauthorized'))`: the message says why)
              const message = made.arguments?.[0];
              if (message && ts.isStringLiteralLike(message) && NOT_AUTHENTICATED_MESSAGE.test(message.text)) nextErrorUnauthenticated = true;
            }
          }
        }
        // (one answering what a handed-on function threw answers for that function: mapsHandedOnError)
        if (responseCall) {
          if (mapping === 0) {
            summary.sendsResponse = ownSend = answered = true;
            sent(n);
            if (httpsRedirect(ctx, n as TS.CallExpression)) httpsRedirects++;
            else otherAnswers = true;
            if (ts.isPropertyAccessExpression(c) && c.name.text === 'redirect') redirects++;
            else otherThanRedirects = true;
          }
        }
        // `verify(req).then(() => next(), next)`, `.catch(next)`: a rejection handed on to `next`
        // as an error, which ends the request (Express's final handler answers its status)
        else if (nextName !== null && ts.isPropertyAccessExpression(c) && rejectsTo(ts, n as TS.CallExpression, nextName)) {
          summary.sendsResponse = ownSend = true;
          sent(n);
        }
        const to = nested === 0 ? handedWhole(n as TS.CallExpression, ownArguments) : null;
        if (to) handedTo.push(to);
        if (resName !== null && nested === 0 && (ts.isIdentifier(c) || ts.isPropertyAccessExpression(c))) {
          const index = (n as TS.CallExpression).arguments.findIndex((a) => ts.isIdentifier(a) && a.text === resName);
          if (index >= 0) answersVia.push({ call: n as TS.CallExpression, index });
        }
        // — a refusal's, under a condition: `if (!adminToken) return sendUnauthorizedResponse(…)`
        // (not a parameter's, nor a method of one: `return next()`, `return res.json(…)`, `return c.text(…)`)
        if (nested === 0 && f.params.length > 0 && !responseCall && (ts.isIdentifier(c) || ts.isPropertyAccessExpression(c)) && ancestors.some((a) => ts.isIfStatement(a)) && !f.params.includes(rootName(ts, c)) && returnedAsIs(ts, n, ancestors, body))
          returnsVia.push(n as TS.CallExpression);
        break;
      }
      // `new Response(…)`, `new NextResponse(…)`: a Fetch API response made, as `Response.json(…)` is
      case K.NewExpression: {
        if (mapping === 0 && isNewResponse(ts, n)) {
          summary.sendsResponse = ownSend = answered = true;
          sent(n);
        }
        // `throw new NotLoggedError()`, `next(new NotLoggedError())` of a class imported, its name
        // no status's: its status is read when linked (Behaviour.throwsImported)
        const made = (n as TS.NewExpression).expression;
        const p = ancestors[ancestors.length - 1];
        if (nextName !== null && nested === 0 && mapping === 0 && defining === 0 && ts.isIdentifier(made) && p && (ts.isThrowStatement(p) || (ts.isCallExpression(p) && p.expression !== n)) && statusOf(ts, made, ctx.errorClasses) === null && ctx.facts.imports.some((i) => i.local === made.text))
          thrownImports.add(made.text);
        break;
      }
      case K.ThrowStatement:
        // (`try { return await next() } catch (error) { report(error); throw error }`: what the rest of the chain threw, passed on)
        // (`(error) => { report(error); throw error }` handed the promise of `next()`: the same, from a rejection handler)
        if (mapping === 0 && !rethrowsNext(ts, n as TS.ThrowStatement, ancestors, nextName) && !(nested === 0 && ctx.rejections.has(fnNode) && rethrowsParam(ts, n as TS.ThrowStatement, f))) {
          summary.sendsResponse = threw = true;
          if (!rethrowsCaughtAt(ts, n as TS.ThrowStatement, ancestors)) ownSend = true;
          sent(n);
        }
        break;
      case K.ReturnStatement: {
        const r = (n as TS.ReturnStatement).expression;
        if (f.name === 'canActivate' && r && canReturnFalse(ts, r) && nested === 0) b.deniesByReturn = true;
        const answer = r && nested === 0 ? answerCall(ts, r) : null;
        if (answer && !f.params.includes(rootName(ts, answer.expression))) answerOf.push(answer);
        break;
      }
    }
    // (a token, a name or a literal, has no children to visit)
    if (n.kind > K.LastToken) {
      const maps = n.kind === K.CatchClause && mapsHandedOnError(ctx, f, ancestors[ancestors.length - 1] as TS.TryStatement, ancestors);
      if (maps) mapping++;
      ancestors.push(n);
      ts.forEachChild(n, visit);
      ancestors.pop();
      if (maps) mapping--;
    }
    if (fnLike) nested--;
    if (definition) defining--;
  };
  visit(body);
  ctx.summaries.set(body, summary);
  b.status401 = summary.status401;
  // A middleware answering from the server's own state (Behaviour.ignoresRequest): an Express one
  // never naming its request; a context one (`(c, next)`, calling its `next`: not a route handler's
  // `(req, context)`) never naming its context (logto's koaTenantGuard, throwing its 403 while the
  // server's own tenant is suspended) or using it only to answer, and with 403 or 404 only (a 401
  // may come of a session read through the async context, not `c`: `app.use('*', async (c, next)
  // => { if (isSelfHosted) return c.json({ error: … }, 404); return next() })`)
  if (nextName !== null && f.params[0] && (summary.status401 || summary.status403or404)) {
    const express = f.params.length >= 3 && ignoresRequest(ctx, body, f.params[0]);
    const context =
      !summary.status401 &&
      f.params.length === 2 &&
      summary.called?.has(nextName) === true &&
      ((writes !== null && writes[0] === true && !/\barguments\b/.test(ctx.text.slice(body.pos, body.end))) || ignoresRequest(ctx, body, f.params[0]));
    // (a Fastify hook, `async (_request, reply) => { if (config.maintenance) return reply.code(404).send() }`,
    // hands nothing on: its reply named only to answer, or not at all — Flood's admin scope, `if
    // (config.authMethod === 'none') throw new NotFoundError()`)
    const hook =
      !summary.status401 &&
      f.params.length === 2 &&
      summary.called?.has(nextName) !== true &&
      ignoresRequest(ctx, body, f.params[0]) &&
      (writes !== null ? writes[1] !== false : ignoresRequest(ctx, body, nextName));
    if (express || context || hook) b.ignoresRequest = true;
  }
  // A tRPC middleware (`(opts) => { …; return opts.next() }`) reading of what it is handed only the
  // procedure called, `opts.type` and `opts.path`, and refusing with 403 or 404 only: karakeep's
  // `isDemoMode`, `if (serverConfig.demoMode && opts.type == 'mutation') throw new TRPCError({ code:
  // 'FORBIDDEN' })`, refuses by a mode of the server, whoever calls
  // (or `async ({ next }) => { if (env.ENABLE_DOCKER || isDemoMode) return next(); throw new
  // TRPCError({ code: 'NOT_FOUND' }) }`, homarr's, taking no more of it than those)
  // (calling nothing but `next`, so reading no session some other way: `if (currentSession()?.role !== 'owner') throw …FORBIDDEN`)
  else if (nextName === null && f.params.length === 1 && summary.status403or404 && !summary.status401 && callsNextOnly(ts, body) && (f.params[0] ? readsProcedureOnly(ctx, body, f.params[0]) : takesProcedureOnly(ts, fnNode, summary))) b.ignoresRequest = true;
  if (summary.status401 && answered401 && !thrown401) b.answers401Only = true;
  if (thrownImports.size > 0 && !summary.status401 && f.params[0] && !ignoresRequest(ctx, body, f.params[0])) b.throwsImported = [...thrownImports].map((name) => refOf(ctx, name, f.scope));
  if (thrown401 && isAsync(ts, fnNode)) b.rejects401 = true;
  b.status403or404 = summary.status403or404;
  // `if (!success) return c.json({ error: 'Too many requests' }, 429)`, `if (maintenance) return c.json(…, 503)`
  if (busy && !unreadable && !otherStatus && !threw && !nestedAnswers && !summary.status401 && !summary.status403or404) b.refusesBusyOnly = true;
  if (summary.status401 && on401Params) b.status401OnParams = true;
  // `catch (e) { res.status(400).send('Invalid Transit in request body.'); return }` (sharetribe's
  // body decoder): a request it cannot read. Not in a file naming a CSRF token, computing an HMAC
  // or reading a secret or a credential header, nor a function naming a credential, reading the
  // session or the environment, or a request header but its content's: a check answering 400
  // there may be one of who calls (`if (req.get('x-admin-region') !== process.env.ADMIN_REGION)`).
  if (unreadable && !busy && !otherStatus && !threw && !nestedAnswers && !summary.status401 && !summary.status403or404 && !summary.readsSession && !(ctx.csrf || ctx.hmac || ctx.secret || ctx.header)) {
    const own = ctx.text.slice(body.pos, body.end);
    if (!CREDENTIAL_WORD.test(own) && !ENV_READ.test(own) && !CALLER_HEADER.test(own)) b.refusesUnreadableOnly = true;
  }
  // refusing, with no 401, no tenant compared and no session read: by what of the request?
  // (Behaviour.refusesOnUrlValuesOnly; refusesByHostOnly, homepage's Next.js middleware: a 400
  // unless `req.headers.get('host')` is an allowed host, a guard against DNS rebinding)
  const refusesUnsigned = !!f.params[0] && (summary.status403or404 || unreadable || otherStatus) && !summary.status401 && !summary.comparesTenant && !summary.readsSession && !nestedAnswers;
  if (refusesUnsigned && resName !== null && readsUrlValuesOnly(ctx, body, f.params[0]!, resName)) b.refusesOnUrlValuesOnly = true;
  if (refusesUnsigned && answersReadingOnly(ctx, body, f.params[0]!, resName, HOST_READ)) b.refusesByHostOnly = true;
  if (preflightOnly === true && !nestedAnswers && !busy && !unreadable && !otherStatus && !nextError && !summary.status401 && !summary.status403or404) b.answersPreflightOnly = true;
  if (httpsRedirects > 0 && !otherAnswers && !busy && !otherStatus && !threw && !nestedAnswers && !summary.status401 && !summary.status403or404) b.upgradesToHttpsOnly = true;
  // NodeBB's `stripLeadingSlashes`: `if (target.startsWith('//')) return res.redirect(…)` of `const
  // target = req.originalUrl.replace(relative_path, '')`
  // (an Express middleware's, its response used only to redirect: `res.locals.user` read is no URL)
  else if (redirects > 0 && !otherThanRedirects && !busy && !unreadable && !otherStatus && !threw && !nestedAnswers && !summary.status401 && !summary.status403or404 && !summary.readsSession && resName !== null && f.params[0] && readsUrlOnly(ctx, body, f.params[0], resName)) b.redirectsByUrlOnly = true;
  b.comparesTenant = summary.comparesTenant;
  b.readsSession = summary.readsSession;
  b.sendsResponse = summary.sendsResponse;
  if (handedTo.length > 0) b.handsTo = handedTo.map((c) => shallowExpr(ctx, c, f.scope));
  if (answersVia.length > 0 && !summary.status401) {
    b.answersVia = answersVia.map((a) => ({ callee: shallowExpr(ctx, a.call.expression, f.scope), index: a.index }));
    // (one naming its request only to hand it to those calls, `if (sqlInit.isDbInitialized()) reject(req,
    // res, 'App already initialized.')`: Behaviour.requestOnlyToAnswer)
    if (f.params[0] && ignoresRequest(ctx, body, f.params[0], answersVia.map((a) => a.call))) b.requestOnlyToAnswer = true;
  }
  if (returnsVia.length > 0 && !summary.status401) b.returnsVia = returnsVia.map((c) => shallowExpr(ctx, c.expression, f.scope));
  if (answerOf.length > 0) b.returnsAnswerOf = answerOf.map((c) => shallowExpr(ctx, c.expression, f.scope));
  if (nextError) b.nextError = true;
  if (nextErrorUnauthenticated) b.nextErrorUnauthenticated = true;
  if (!mayThrow) b.throwsNothing = true;
  if (writes !== null && writes.includes(true)) b.respondsWith = writes.flatMap((w, i) => (w ? [i] : []));
  const called = summary.called;
  b.callsNext = called !== null && ((nextName !== null && called.has(nextName)) || called.has('next'));
  const bare = summary.calledBare;
  if (bare !== null && ((nextName !== null && bare.has(nextName)) || bare.has('next'))) b.passesOn = true;
  if (nextName !== null && f.params.length === 3 && b.callsNext && !b.passesOn && nextOnlyErrors(ts, body, nextName)) b.nextOnlyErrors = true;
  // Conditions on the function's own locals say nothing a caller can decide; its parameters and
  // enclosing names (a factory's parameters) can be fixed by a call's arguments.
  const ownLocals = (): Set<string> => {
    const params = new Set(f.params);
    return new Set(Object.keys(ctx.facts.scopes[f.scope]!.bindings).filter((n) => !params.has(n)));
  };
  if (sites401.length > 0) {
    const locals = ownLocals();
    const free = sites401.map((site) => site.filter((c) => !locals.has(c.name)));
    if (free.every((site) => site.length > 0)) b.status401If = free;
  }
  // `try { …the check… } catch (err) { if (options.optional) { … } else { throw err } }`: what the
  // check threw let go under conditions a factory's arguments can fix (Behaviour.swallowsIf)
  if (!summary.status401 && ts.isBlock(body)) {
    const swallows = swallowConditions(ctx, body);
    const locals = swallows ? ownLocals() : null;
    const free = swallows?.filter((c) => !locals!.has(c.name));
    if (free && free.length > 0) b.swallowsIf = free;
  }
  // (an `if` handing on the requests a test of their URL holds for is an allowlist's, not one of a missing credential)
  const allowing: TS.IfStatement[] = [];
  // (a Nest guard's `canActivate(context)` reads the request it declares, `const request = context.switchToHttp().getRequest()`)
  const reqName = f.name === 'canActivate' && ts.isBlock(body) ? (nestRequestLocal(ts, body.statements) ?? f.params[0]) : f.params[0];
  // (what a wrapper making this function wraps, read once when asked: enclosingParams)
  let wrappedNames: ReadonlySet<string> | undefined | null = null;
  const wrapped = (): ReadonlySet<string> | undefined => (wrappedNames === null ? (wrappedNames = enclosingParams(ctx, f)) : wrappedNames);
  // (a function the allowlist hands the requests it lets through to, `return disabledCsurf(req,
  // res, next)`: a way through, not one of the middlewares the function is — skippedRequests)
  const passedTo = new Set<string>();
  const skips =
    reqName && ts.isBlock(body) ? [...skippedRequests(ctx, f.scope, reqName, nextName, body, { passing: allowing, endHandsOn: !b.callsNext, wrapped, passedTo }), ...routeConfigSkips(ctx, f, body)] : [];
  if (skips.length > 0) b.skipsFor = skips;
  const served = reqName && nextName !== null && summary.sendsResponse && ts.isBlock(body) ? servedRequests(ctx, f.scope, body.statements, f.params, reqName, nextName) : null;
  if (served) b.servesFor = served;
  if (skips.length > 0 && passedTo.size > 0 && b.handsTo) {
    const rest = b.handsTo.filter((h) => !(h.k === 'ref' && passedTo.has(h.name)));
    if (rest.length > 0) b.handsTo = rest;
    else delete b.handsTo;
  }
  // (a tRPC or oRPC middleware, `async ({ ctx, next }) => …`, hands on through its parameter's `next`)
  const handOn = nextName ?? destructuredParam(ctx, f).find(([, prop]) => prop === 'next')?.[0];
  // (an async function of the request, and maybe the reply, taking no `next`: a Fastify hook, which
  // hands the request on by returning)
  const asyncHook = !handOn && (f.params.length === 1 || f.params.length === 2) && f.params[0] !== '' && isAsync(ts, fnNode);
  if (handOn && ts.isBlock(body) && passesWhenMissing(ctx, body, f, handOn, allowing)) b.passesAnonymous = true;
  else if (asyncHook && ts.isBlock(body) && passesWhenMissing(ctx, body, f, null, allowing)) b.passesAnonymous = true;
  else if (f.name === 'canActivate' && ts.isBlock(body) && activatesAnonymous(ctx, body)) b.passesAnonymous = true;
  else if (handOn && ts.isBlock(body)) {
    const off = switchedOff(ctx, body, f, handOn);
    if (off) b.switchedOff = off;
  }
  if (summary.sendsResponse && !answered && !nestedAnswers) b.answersOnlyErrors = true;
  if (nextName && (ts.isBlock(body) ? startsWithNext(ctx, body, nextName) : onlyCallsNext(ts, body, nextName))) b.nextFirst = true;
  else if (nextName && ts.isBlock(body) && summary.sendsResponse && answersThenHandsOn(ctx, body, nextName)) b.answersThenHandsOn = true;
  else if (ts.isBlock(body) && !ownSend && !summary.status401 && !summary.status403or404) {
    // (the function a wrapper makes hands on by calling what it wraps: `return handler(req, { author })`)
    const last = body.statements[body.statements.length - 1];
    const returned = last && ts.isReturnStatement(last) && last.expression ? unwrap(ts, last.expression) : undefined;
    const returnsNamedCall = !!returned && ts.isCallExpression(returned) && ts.isIdentifier(returned.expression);
    const pending: TS.CallExpression[] = [];
    // (a Fastify hook, asyncHook, hands the request on by returning — `async function
    // authenticate(request) { request.user = await getUser(request.headers.authorization) }`)
    const hook = asyncHook && !returnsNamedCall;
    if ((handOn || returnsNamedCall || hook) && handsOnAlways(ctx, body, handOn ?? null, handOn || hook ? undefined : wrapped, handOn || hook ? pending : undefined, f.params[0] || null, f.params, hook)) {
      if (pending.length === 0) b.handsOnAlways = true;
      else b.handsOnUnless = pending.map((c) => shallowExpr(ctx, c, f.scope));
    }
  }
  // (read of a function answering and refusing nothing itself only: callsRefuseNothing)
  if (refusingCall && !summary.sendsResponse && !summary.status401 && !summary.status403or404) b.callsRefusing = true;
  const given = ts.isBlock(body) && !summary.status401 ? refusesOnlyWhenGiven(ctx, body, f.params) : null;
  if (given !== null) {
    b.refusesOnlyWhenGiven = given.index;
    if (given.carried) b.refusesOnlyWhenCarried = true;
  }
  // `function isPublicPath(pathname) { return PUBLIC.some(…) }` (named, not a callback): what
  // an allowlist handing it the path lets through (a guard in another file reads it when linked)
  const tests = f.params.length === 1 && f.params[0] !== '' && f.name !== null && TEST_WORDS.test(ctx.text.slice(body.pos, body.end)) ? testsOf(ts, fnNode as TS.FunctionLikeDeclaration) : null;
  const pathTests = tests ? skippedRequests(ctx, f.scope, '', null, tests) : [];
  if (pathTests.length > 0) b.pathTests = pathTests;
  if (f.params.length >= 2 && f.params[0] !== '' && ts.isBlock(body) && ctx.text.slice(body.pos, body.end).includes('protect(')) {
    const protects = protection(ctx, body, f.scope, f.params[0]!, f.params[1]!);
    if (protects) b.protects = protects;
  }
  const authorizes = authorization(ctx, fnNode, body, f.scope);
  if (authorizes) {
    b.authorizes = authorizes.all;
    if (JSON.stringify(authorizes.wrapped) !== JSON.stringify(authorizes.all)) b.authorizesWrapped = authorizes.wrapped;
  }
  const refuses = ts.isBlock(body) ? refusalSites(ctx, body, f) : [];
  if (refuses.length > 0) b.refusesWhen = refuses;
  if (b.deniesByReturn && ts.isBlock(body) && deniesUncredentialed(ts, body)) b.deniesUncredentialed = true;
  if (f.name === 'canActivate' && ts.isBlock(body)) {
    const activation = activationOf(ctx, body, f.scope);
    if (activation) b.activation = activation;
  }
}

/**
 * The call a returned value is the answer of, or the truth of (`!!(await canViewWebsite(…))`,
 * `Boolean(check(…))`): a function's or a method's, not a parameter's (Behaviour.returnsAnswerOf).
 */
function answerCall(ts: TSModule, r: TS.Expression): TS.CallExpression | null {
  let u = unwrap(ts, r);
  for (let i = 0; i < 4; i++) {
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && ts.isPrefixUnaryExpression(unwrap(ts, u.operand))) {
      const inner = unwrap(ts, u.operand) as TS.PrefixUnaryExpression;
      if (inner.operator !== ts.SyntaxKind.ExclamationToken) return null;
      u = unwrap(ts, inner.operand);
    } else if (ts.isCallExpression(u) && ts.isIdentifier(u.expression) && u.expression.text === 'Boolean' && u.arguments.length === 1) u = unwrap(ts, u.arguments[0]!);
    else break;
  }
  return ts.isCallExpression(u) && (ts.isIdentifier(u.expression) || ts.isPropertyAccessExpression(u.expression)) ? u : null;
}

/** What may throw (Behaviour.throwsNothing): a `throw`, a call, a construction, an `await`, a member read, a `for…of`, a spread. */
let mayThrowKinds: ReadonlySet<TS.SyntaxKind> | null = null;
function mayThrowKind(ts: TSModule, kind: TS.SyntaxKind): boolean {
  const K = ts.SyntaxKind;
  mayThrowKinds ??= new Set([
    K.ThrowStatement,
    K.CallExpression,
    K.NewExpression,
    K.AwaitExpression,
    K.PropertyAccessExpression,
    K.ElementAccessExpression,
    K.TaggedTemplateExpression,
    K.ForOfStatement,
    K.SpreadElement,
    K.SpreadAssignment,
  ]);
  return mayThrowKinds.has(kind);
}

/** `console.error(…)`, or its `console.error`: a log line, which throws nothing (what it is handed is visited on its own). */
function logs(ts: TSModule, n: TS.Node): boolean {
  const access = ts.isCallExpression(n) ? n.expression : n;
  return ts.isPropertyAccessExpression(access) && ts.isIdentifier(access.expression) && access.expression.text === 'console';
}

/** Is the node whose ancestors these are in a `try` block whose `catch` takes what it throws? */
function caught(ts: TSModule, ancestors: readonly TS.Node[]): boolean {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const a = ancestors[i]!;
    if (a.kind === ts.SyntaxKind.TryStatement && (a as TS.TryStatement).catchClause && ancestors[i + 1] === (a as TS.TryStatement).tryBlock) return true;
  }
  return false;
}

/** Is the node visited in the block of a `try` whose `catch` takes what it throws (not throwing it on: rethrowsCaught)? */
function caughtQuietly(ts: TSModule, ancestors: readonly TS.Node[]): boolean {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const a = ancestors[i]!;
    if (ts.isFunctionLike(a)) return false;
    if (a.kind === ts.SyntaxKind.TryStatement && (a as TS.TryStatement).catchClause && ancestors[i + 1] === (a as TS.TryStatement).tryBlock && !rethrowsCaught(ts, (a as TS.TryStatement).catchClause)) return true;
  }
  return false;
}

/**
 * The parameters of the function `f` is made in (`(handler) => async (req) => …`, or returned
 * from its body): what a wrapper wraps, when `f` is the function it makes. Read from the scope
 * `f`'s own is in.
 */
function enclosingParams(ctx: Ctx, f: FunctionFact): ReadonlySet<string> | undefined {
  // (up through block scopes to the nearest holding parameters)
  for (let id = ctx.facts.scopes[f.scope]?.parent; id !== null && id !== undefined && id !== 0; id = ctx.facts.scopes[id]?.parent) {
    const names = Object.entries(ctx.facts.scopes[id]!.bindings).flatMap(([name, b]) => (typeof b !== 'number' && b.k === 'param' ? [name] : []));
    if (names.length > 0) return new Set(names);
  }
  return undefined;
}

/**
 * Does the `catch` of `tried` (a `try` whose ancestors these are) map what a function handed the
 * request threw: its `try` calls a parameter (the handler a wrapper wraps, `next`, a middleware it
 * is handed) before anything else that can throw. inbox-zero's `withMiddleware(handler,
 * middleware)` answers 401 from its `catch` when the error is a `SafeError('No refresh token')`,
 * and 500 for the rest; a Koa error middleware sets `ctx.status = err.status` after `await
 * next()`: statuses for what ran after the checks, no refusal of the function's own. (`try {
 * jwt.verify(token, secret); next() } catch { … 401 }` refuses what `verify` threw: its own.)
 */
function mapsHandedOnError(ctx: Ctx, f: FunctionFact, tried: TS.TryStatement, ancestors: readonly TS.Node[]): boolean {
  const { ts } = ctx;
  const params = new Set<string>();
  for (const a of ancestors)
    if (ts.isFunctionLike(a)) for (const p of a.parameters) if (ts.isIdentifier(p.name)) params.add(p.name.text);
  for (let id: number | null | undefined = f.scope; id !== null && id !== undefined && id !== 0; id = ctx.facts.scopes[id]?.parent)
    for (const [name, b] of Object.entries(ctx.facts.scopes[id]!.bindings)) if (typeof b !== 'number' && b.k === 'param') params.add(name);
  // the calls of the `try` in the order they are made (arguments first), nested functions not run
  let first: boolean | null = null;
  const walk = (n: TS.Node): void => {
    if (first !== null || ts.isFunctionLike(n)) return;
    ts.forEachChild(n, walk);
    if (first !== null || !ts.isCallExpression(n) || logs(ts, n)) return;
    first = ts.isIdentifier(n.expression) && params.has(n.expression.text);
  };
  walk(tried.tryBlock);
  return first === true;
}

/** Calls that only read what a Nest guard is handed: `context.switchToHttp()`, `.getRequest()`. */
const CONTEXT_READS = /^switchTo(Http|Ws|Rpc)$/;

/** How what a call throws is handled where it is made (Behaviour.activation's `super`). */
type Handling = 'propagates' | 'converted' | 'swallowed';
const HANDLING_RANK: Record<Handling, number> = { swallowed: 0, converted: 1, propagates: 2 };

/** Behaviour.activation of a `canActivate` body; null when it neither refuses nothing nor calls `super.canActivate`. */
function activationOf(ctx: Ctx, body: TS.Block, scope: number): Behaviour['activation'] | null {
  const { ts } = ctx;
  const K = ts.SyntaxKind;
  let superCall: Handling | undefined;
  let returnsSuper = false;
  let allows = true;
  // (`req.user = await this.users.maybeFromToken(req.headers.authorization)`: a call of a named
  // function, kept to be judged when linked — `allowsUnless` —, where nothing else refuses)
  const pending: TS.CallExpression[] = [];
  let allowsBut = true;
  const isSuper = (n: TS.Node): n is TS.CallExpression =>
    ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.expression.kind === K.SuperKeyword && n.expression.name.text === 'canActivate';
  // Notes the calls of the overridden method in `n` (outside nested functions), and whether the
  // others only make or read values where what they throw leaves the method
  const passive = (n: TS.Node, handling: Handling): void => {
    if (ts.isFunctionLike(n)) return;
    if (isSuper(n)) superCall = superCall && HANDLING_RANK[superCall] >= HANDLING_RANK[handling] ? superCall : handling;
    else if (ts.isCallExpression(n) && handling === 'propagates') {
      const name = calleeName(ts, n);
      if (!(MAKES_OR_READS.test(name) || VALUE_METHODS.test(name) || CONTEXT_READS.test(name) || logsOrAsks(ts, n)) || MAY_REFUSE.test(name)) {
        allows = false;
        const callee = unwrap(ts, n.expression);
        if (MAY_REFUSE.test(name) || !(ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) || pending.length >= MAX_PENDING_CALLS) allowsBut = false;
        else if (!pending.includes(n)) pending.push(n);
      }
    }
    ts.forEachChild(n, (c) => passive(c, handling));
  };
  // What a `catch` makes of what its `try` threw: throws again, returns anything but true
  // (Nest answers 403 to a falsy answer: the refusal is then its answer), or lets it go
  const throwsIn = (n: TS.Node): boolean => !ts.isFunctionLike(n) && (ts.isThrowStatement(n) || !!ts.forEachChild(n, (c) => (throwsIn(c) ? true : undefined)));
  const returnsOtherIn = (n: TS.Node): boolean =>
    !ts.isFunctionLike(n) && ((ts.isReturnStatement(n) && (!n.expression || unwrap(ts, n.expression).kind !== K.TrueKeyword)) || !!ts.forEachChild(n, (c) => (returnsOtherIn(c) ? true : undefined)));
  // Reads `stmts`; whether every way through them returns.
  const walk = (stmts: readonly TS.Statement[], handling: Handling): boolean => {
    for (const st of stmts) {
      if (ts.isReturnStatement(st)) {
        const e = st.expression ? unwrap(ts, st.expression) : undefined;
        if (e && isSuper(e)) returnsSuper = true;
        else if (e?.kind !== K.TrueKeyword) allows = allowsBut = false;
        if (e) passive(e, handling);
        return true;
      }
      if (ts.isThrowStatement(st)) {
        if (handling === 'propagates') allows = allowsBut = false;
        passive(st, handling);
        return true;
      }
      if (ts.isTryStatement(st)) {
        const clause = st.catchClause;
        const own: Handling = !clause || throwsIn(clause.block) ? 'propagates' : returnsOtherIn(clause.block) ? 'converted' : 'swallowed';
        const tried = walk(st.tryBlock.statements, own === 'propagates' ? handling : own);
        const caught = clause ? walk(clause.block.statements, handling) : true;
        if (st.finallyBlock) walk(st.finallyBlock.statements, handling);
        if (tried && caught) return true;
        continue;
      }
      if (ts.isIfStatement(st)) {
        // (`if (await super.canActivate(context)) return true;`: what it answers follows that answer)
        const tested = unwrap(ts, st.expression);
        if (isSuper(tested) || (ts.isPrefixUnaryExpression(tested) && isSuper(unwrap(ts, tested.operand)))) returnsSuper = true;
        passive(st.expression, handling);
        const then = walk(ts.isBlock(st.thenStatement) ? st.thenStatement.statements : [st.thenStatement], handling);
        const otherwise = st.elseStatement ? walk(ts.isBlock(st.elseStatement) ? st.elseStatement.statements : [st.elseStatement], handling) : false;
        if (then && otherwise) return true;
        continue;
      }
      if (ts.isBlock(st)) {
        if (walk(st.statements, handling)) return true;
        continue;
      }
      // (a loop, a switch: not read, but for the calls of the overridden method it makes)
      if (!ts.isVariableStatement(st) && !ts.isExpressionStatement(st) && st.kind !== K.EmptyStatement) allows = allowsBut = false;
      passive(st, handling);
    }
    return false;
  };
  // (falling off the end returns undefined: Nest answers 403)
  if (!walk(body.statements, 'propagates')) allows = allowsBut = false;
  const unless = !allows && allowsBut && pending.length > 0 ? pending.map((c) => shallowExpr(ctx, c, scope)) : null;
  if (!allows && !unless && superCall === undefined) return null;
  return { allows, ...(unless ? { allowsUnless: unless } : {}), ...(superCall ? { super: superCall } : {}), ...(returnsSuper ? { returnsSuper: true as const } : {}) };
}

/**
 * The conditions under which a leading `try`'s `catch` lets the error go, when that `catch` does
 * nothing else but rethrow it: `catch (err) { if (options.optional && …) { ctx.state.auth = {} }
 * else { throw err } }`. Null for any other body.
 */
function swallowConditions(ctx: Ctx, body: TS.Block): FlagCondition[] | null {
  const { ts } = ctx;
  const tryStmt = body.statements.find((st): st is TS.TryStatement => ts.isTryStatement(st));
  const clause = tryStmt?.catchClause;
  const errName = clause?.variableDeclaration && ts.isIdentifier(clause.variableDeclaration.name) ? clause.variableDeclaration.name.text : null;
  if (!tryStmt || !clause || errName === null || clause.block.statements.length !== 1) return null;
  const branch = clause.block.statements[0]!;
  if (!ts.isIfStatement(branch) || !branch.elseStatement) return null;
  const otherwise = ts.isBlock(branch.elseStatement) ? branch.elseStatement.statements : [branch.elseStatement];
  const rethrow = otherwise[otherwise.length - 1];
  const rethrows = !!rethrow && ts.isThrowStatement(rethrow) && !!rethrow.expression && ts.isIdentifier(unwrap(ts, rethrow.expression)) && (unwrap(ts, rethrow.expression) as TS.Identifier).text === errName;
  // (the branch letting it go neither throws nor leaves)
  let leaves = false;
  const visit = (n: TS.Node): void => {
    if (leaves || ts.isFunctionLike(n)) return;
    if (ts.isThrowStatement(n) || ts.isReturnStatement(n)) leaves = true;
    else ts.forEachChild(n, visit);
  };
  visit(branch.thenStatement);
  if (!rethrows || leaves) return null;
  const conditions = flagConditions(ctx, branch.thenStatement, body, [body, tryStmt, clause, clause.block, branch]);
  return conditions.length > 0 ? conditions : null;
}

/** `p.then(onDone, next)`, `p.catch(next)`: a promise's rejection handed to the function named `nextName`. */
function rejectsTo(ts: TSModule, call: TS.CallExpression, nextName: string): boolean {
  const c = call.expression as TS.PropertyAccessExpression;
  const handler = c.name.text === 'then' ? call.arguments[1] : c.name.text === 'catch' ? call.arguments[0] : undefined;
  const u = handler ? unwrap(ts, handler) : undefined;
  return !!u && ts.isIdentifier(u) && u.text === nextName;
}

/**
 * Does a middleware's body never read its request (`first`, its first parameter: no reference
 * to it, nor to a response's `req`), nor what earlier layers left for it (`res.locals`)? Then
 * whatever it answers, it decides from the server's own state: anything-llm's
 * `featureFlagEnabled(key)` answering 401 while a setting is off, `isSingleUserMode(_request,
 * response, next)` while the instance has users (Behaviour.ignoresRequest).
 */
function ignoresRequest(ctx: Ctx, body: TS.Node, first: string, besides: readonly TS.Node[] = []): boolean {
  if (first === '') return false;
  let text = ctx.text.slice(body.pos, body.end);
  // (what the calls `besides` are handed left out)
  for (const n of besides) text = text.slice(0, n.pos - body.pos) + ' '.repeat(n.end - n.pos) + text.slice(n.end - body.pos);
  const named = new RegExp(`(?<![\\w$.])${first.replace(/[$]/g, '\\$&')}(?![\\w$])|\\.\\s*(?:req|request|locals)\\b|\\barguments\\b`);
  return !named.test(text);
}

/**
 * What follows each use of the name `name` in `body`'s text (a few characters, enough for the
 * property read or the call made), or null when the body reads `arguments`, which hands on any
 * parameter unnamed.
 */
function usesOf(ctx: Ctx, body: TS.Node, name: string): string[] | null {
  const text = ctx.text.slice(body.pos, body.end);
  if (/\barguments\b/.test(text)) return null;
  return [...text.matchAll(new RegExp(`(?<![\\w$.])${name.replace(/[$]/g, '\\$&')}(?![\\w$])`, 'g'))].map((m) => text.slice(m.index! + m[0].length, m.index! + m[0].length + 48));
}

/**
 * Does `body` read of its request `req` only where it was sent (`req.originalUrl`, `.url`, `.path`,
 * `.baseUrl`, `.hostname`, `.protocol`, `.secure`, `.headers.host`) and by what browser (its
 * `user-agent` header: overleaf's `unsupportedBrowserMiddleware`), and use its response `res`
 * only to redirect?
 */
function readsUrlOnly(ctx: Ctx, body: TS.Node, req: string, res: string): boolean {
  const reads = usesOf(ctx, body, req);
  const answers = usesOf(ctx, body, res);
  // (and to give the page views a value, `_.set(res.locals, 'pageMeta.url', …)` of wiki.js's
  // trailing-slash redirect, or `res.locals.canonical = …`: written, never read)
  const locals = (a: string): boolean => /^\s*\.\s*locals\b/.test(a);
  return (
    !!reads &&
    !!answers &&
    reads.length > 0 &&
    reads.every((a) => URL_READ.test(a)) &&
    answers.every((a) => /^\s*\.\s*redirect\s*\(/.test(a) || locals(a)) &&
    (!answers.some(locals) || localsWrittenOnly(ctx, body, res))
  );
}

/**
 * Does `body` read of its request `req` only what `read` matches after the name (`req.params.id`,
 * `req.headers.get('host')`), await nothing, and use its response `res` (when it has one) only to
 * answer (`res.status(404)`, `.json(…)`, `.send(…)`, `.sendStatus(…)`, `.end()`)?
 */
function answersReadingOnly(ctx: Ctx, body: TS.Node, req: string, res: string | null, read: RegExp): boolean {
  const reads = usesOf(ctx, body, req);
  const answers = res === null ? [] : usesOf(ctx, body, res);
  return (
    !!reads &&
    !!answers &&
    reads.length > 0 &&
    reads.every((a) => read.test(a)) &&
    answers.every((a) => /^\s*\.\s*(?:status|json|send|sendStatus|end)\s*\(/.test(a)) &&
    !/\bawait\b/.test(ctx.text.slice(body.pos, body.end))
  );
}

/**
 * Does `body` answer (answersReadingOnly) reading of its request only the values its URL names
 * (`req.params.id`, `req.query.page`), none named for a credential, and no setting of the deployment?
 */
function readsUrlValuesOnly(ctx: Ctx, body: TS.Node, req: string, res: string): boolean {
  const own = ctx.text.slice(body.pos, body.end);
  // (no value named for a credential, `req.query.inviteToken`, nor a setting of the deployment it may be compared with)
  return answersReadingOnly(ctx, body, req, res, URL_VALUE_READ) && !CREDENTIAL_WORD.test(own) && !ENV_READ.test(own);
}
const URL_VALUE_READ = /^\s*\??\.\s*(?:params|query)\s*(?:\??\.\s*[\w$]+|\[\s*(['"])[\w$-]+\1\s*\])/;

/**
 * The host a request was sent to, read after its name: `.headers.get('host')`, `.headers.host`,
 * `.get('host')`, `.hostname`, `.nextUrl.hostname` (answersReadingOnly, Behaviour.refusesByHostOnly).
 */
const HOST_READ = /^\s*\??\.\s*(?:host(?:name)?\b|headers\s*(?:\??\.\s*host\b|\??\.\s*get\s*\(\s*(['"`])host\1\s*\)|\[\s*(['"`])host\2\s*\])|get\s*\(\s*(['"`])host\3\s*\)|nextUrl\s*\??\.\s*host(?:name)?\b)/i;

/** Is each `res.locals` of `body` a value set (`res.locals.x = …`, `_.set(res.locals, …)`, `Object.assign(res.locals, …)`), none read? */
function localsWrittenOnly(ctx: Ctx, body: TS.Node, res: string): boolean {
  const text = ctx.text.slice(body.pos, body.end);
  const uses = [...text.matchAll(new RegExp(`(?<![\\w$.])${res.replace(/[$]/g, '\\$&')}\\s*\\.\\s*locals(?![\\w$])`, 'g'))];
  return uses.every((m) => {
    const before = text.slice(Math.max(0, m.index! - 16), m.index!);
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 64);
    return /(?:\bset|\bassign)\s*\(\s*$/.test(before) || /^\s*\.\s*[\w$]+\s*=(?![=>])/.test(after);
  });
}
const URL_READ = /^\s*\??\.\s*(?:(?:originalUrl|url|path|baseUrl|hostname|protocol|secure|headers\s*\??\.\s*host)\b|headers\s*\[\s*(['"])[Uu]ser-[Aa]gent\1\s*\]|get\s*\(\s*(['"])[Uu]ser-[Aa]gent\2\s*\))/;

/**
 * Does `body` name its tRPC middleware's options `opts` only to read the procedure called and hand
 * the call on (`opts.type`, `opts.path`, `opts.next(…)`), and call `opts.next`?
 */
function readsProcedureOnly(ctx: Ctx, body: TS.Node, opts: string): boolean {
  const uses = usesOf(ctx, body, opts);
  return !!uses && uses.length > 0 && uses.every((a) => /^\s*\??\.\s*(?:next|type|path)\b/.test(a)) && uses.some((a) => /^\s*\??\.\s*next\s*\(/.test(a));
}

/** Does `body` call nothing but `next(…)` / `opts.next(…)` (`new TRPCError(…)` is no call)? */
function callsNextOnly(ts: TSModule, body: TS.Node): boolean {
  let only = true;
  const visit = (n: TS.Node): void => {
    if (!only) return;
    if (ts.isCallExpression(n)) {
      const c = n.expression;
      if (!((ts.isIdentifier(c) && c.text === 'next') || (ts.isPropertyAccessExpression(c) && c.name.text === 'next'))) {
        only = false;
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return only;
}

/**
 * Does the function take, of the tRPC middleware options it is handed, only the procedure called
 * and `next` (`({ next })`, `({ next, type })`), and call `next`?
 */
function takesProcedureOnly(ts: TSModule, fnNode: TS.Node, summary: BodySummary): boolean {
  const p = (fnNode as TS.FunctionLikeDeclaration).parameters?.[0];
  if (!p || !ts.isObjectBindingPattern(p.name) || !summary.called?.has('next')) return false;
  return p.name.elements.every((el) => {
    const key = el.propertyName ?? el.name;
    return !el.dotDotDotToken && ts.isIdentifier(key) && /^(?:next|type|path)$/.test(key.text);
  });
}

/** The local a Nest guard's `canActivate` body first declares the request in (`const request = context.switchToHttp().getRequest<Request>()`), if any. */
function nestRequestLocal(ts: TSModule, statements: readonly TS.Statement[]): string | null {
  for (const stmt of statements) {
    if (!ts.isVariableStatement(stmt)) return null;
    for (const d of stmt.declarationList.declarations) {
      const init = d.initializer && unwrap(ts, d.initializer);
      if (ts.isIdentifier(d.name) && init && ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression) && init.expression.name.text === 'getRequest') return d.name.text;
    }
  }
  return null;
}

/**
 * Does a Nest guard's `canActivate` let a request without a signed-in user through before it
 * refuses anything: `const user = request.user; … if (!user) return true` (swetrix's
 * AuthenticationGuard, which checks the second factor of the users there are)? Its early
 * `return true`s under a metadata read (`if (isTwoFaNotRequired) return true`) are opt-outs,
 * read as such (nest/facts.ts), and passed over here.
 */
function activatesAnonymous(ctx: Ctx, body: TS.Block): boolean {
  const { ts } = ctx;
  const request = nestRequestLocal(ts, body.statements);
  if (!request) return false;
  const users = new Set<string>();
  const metadata = new Set<string>();
  const isUser = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (ts.isIdentifier(u)) return users.has(u.text);
    return ts.isPropertyAccessExpression(u) && u.name.text === 'user' && ts.isIdentifier(unwrap(ts, u.expression)) && (unwrap(ts, u.expression) as TS.Identifier).text === request;
  };
  // `this.reflector.get(IS_TWO_FA_NOT_REQUIRED_KEY, context.getHandler())`
  const readsMetadata = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    return ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && /reflect/i.test(u.expression.expression.getText(ctx.sf));
  };
  for (const stmt of body.statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        if (isUser(d.initializer)) users.add(d.name.text);
        else if (readsMetadata(d.initializer)) metadata.add(d.name.text);
      }
      continue;
    }
    if (!ts.isIfStatement(stmt) || stmt.elseStatement || !returnsTrue(ts, stmt.thenStatement)) return false;
    let test = unwrap(ts, stmt.expression);
    const negated = ts.isPrefixUnaryExpression(test) && test.operator === ts.SyntaxKind.ExclamationToken;
    if (negated) test = unwrap(ts, (test as TS.PrefixUnaryExpression).operand);
    if (negated && isUser(test)) return true;
    if (!((ts.isIdentifier(test) && metadata.has(test.text)) || readsMetadata(test))) return false;
  }
  return false;
}

/**
 * Does a Nest guard's `canActivate` body return false when the request carries no credential,
 * before anything but declarations: `const request = context.switchToHttp().getRequest(); const
 * authHeader = request.headers.authorization; if (!authHeader) return false;` (also `const token =
 * ExtractJwt.fromAuthHeaderAsBearerToken()(request)`; Behaviour.deniesUncredentialed)?
 */
function deniesUncredentialed(ts: TSModule, body: TS.Block): boolean {
  // locals holding the request (`….getRequest()`), and those holding a credential read from it
  const requests = new Set<string>();
  const credentials = new Set<string>();
  const missing = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (!ts.isPrefixUnaryExpression(u) || u.operator !== ts.SyntaxKind.ExclamationToken) return false;
    const x = unwrap(ts, u.operand);
    return (ts.isIdentifier(x) && credentials.has(x.text)) || credentialRead(ts, x, requests);
  };
  const refuses = (s: TS.Statement): boolean => {
    const last = lastStatement(ts, s);
    return !!last && (!ts.isBlock(s) || s.statements.length === 1) && ts.isReturnStatement(last) && !!last.expression && unwrap(ts, last.expression).kind === ts.SyntaxKind.FalseKeyword;
  };
  for (const stmt of body.statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        const init = unwrap(ts, d.initializer);
        if (ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression) && init.expression.name.text === 'getRequest') requests.add(d.name.text);
        else if (credentialRead(ts, init, requests)) credentials.add(d.name.text);
        // `const token = ExtractJwt.fromAuthHeaderAsBearerToken()(request)`
        else if (ts.isCallExpression(init) && jwtExtractor(ts, init) !== null && ts.isIdentifier(unwrap(ts, init.arguments[0]!)) && requests.has((unwrap(ts, init.arguments[0]!) as TS.Identifier).text)) credentials.add(d.name.text);
      }
      continue;
    }
    return ts.isIfStatement(stmt) && !stmt.elseStatement && missing(stmt.expression) && refuses(stmt.thenStatement);
  }
  return false;
}

/**
 * Is `th` a `throw` of the error a `catch` caught from a `try` that first hands the request on
 * (`try { return await next() } catch (error) { Sentry.captureException(error); throw error }`,
 * an error-reporting middleware's; `try { const result = await next(); log(result); return
 * result } catch …`)? The error is then the rest of the chain's (or thrown once it answered),
 * not a refusal of the function's own. `ancestors`: the function, then each node down to the
 * throw's parent.
 */
function rethrowsNext(ts: TSModule, th: TS.ThrowStatement, ancestors: readonly TS.Node[], nextName: string | null | undefined): boolean {
  const tried = th.expression && ts.isIdentifier(th.expression) ? triedFor(ts, th.expression.text, ancestors) : null;
  if (!tried) return false;
  const handsOn = (e: TS.Expression | undefined): boolean => {
    const call = e && unwrap(ts, e);
    return !!call && ts.isCallExpression(call) && ts.isIdentifier(call.expression) && (call.expression.text === 'next' || call.expression.text === nextName);
  };
  // (what follows runs once the rest of the chain has answered: it refuses the request nothing)
  const st = tried.tryBlock.statements[0];
  if (!st) return false;
  if (ts.isReturnStatement(st) || ts.isExpressionStatement(st)) return handsOn(st.expression);
  // `const result = await next()`
  return ts.isVariableStatement(st) && st.declarationList.declarations.length === 1 && handsOn(st.declarationList.declarations[0]!.initializer);
}

/**
 * The `try` whose `catch (name)` is the nearest one around the node visited (`ancestors`, the
 * function first), not across a function; null when that `catch` names another error, or none is.
 */
function triedFor(ts: TSModule, name: string, ancestors: readonly TS.Node[]): TS.TryStatement | null {
  for (let i = ancestors.length - 1; i > 0; i--) {
    const a = ancestors[i]!;
    if (ts.isFunctionLike(a)) return null;
    if (a.kind !== ts.SyntaxKind.CatchClause) continue;
    const caught = (a as TS.CatchClause).variableDeclaration?.name;
    const tried = ancestors[i - 1]!;
    return caught && ts.isIdentifier(caught) && caught.text === name && ts.isTryStatement(tried) ? tried : null;
  }
  return null;
}

/** `throw error` of the function's first parameter, `error`. */
function rethrowsParam(ts: TSModule, th: TS.ThrowStatement, f: FunctionFact): boolean {
  return !!th.expression && ts.isIdentifier(th.expression) && f.params[0] !== undefined && f.params[0] !== '' && th.expression.text === f.params[0];
}

/**
 * What an identifier met in a body says of the name it spells: null when it does not refer to
 * it (a property's name: `x.res`, `{ res: … }`); else whether it writes a response on it — a
 * response method called on it, directly or first in a chain (`res.status(200).send()`).
 */
function useOfName(ts: TSModule, n: TS.Node, ancestors: readonly TS.Node[]): boolean | null {
  const p = ancestors[ancestors.length - 1];
  if (p && (ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p)) && p.name === n) return null;
  const call = ancestors[ancestors.length - 2];
  return !!p && !!call && ts.isPropertyAccessExpression(p) && RESPONSE_WRITES.has(p.name.text) && ts.isCallExpression(call) && call.expression === p;
}

/**
 * `if (!userId && !token) return false;` at the top of a check: the parameters whose absence
 * makes it refuse. Earlier `if … return` statements may only test names that are neither
 * parameters nor locals (`if (inTestMode) return true`, a configuration switch): a check that
 * first lets public records through (`if (doc.visibility === 'public') return true`) does not
 * refuse anonymous callers.
 */
function refusalSites(ctx: Ctx, body: TS.Block, f: FunctionFact): FlagCondition[][] {
  const { ts } = ctx;
  // Only the `if`s that come first (after declarations) are read: most bodies start otherwise.
  const first = body.statements.find((st) => !ts.isVariableStatement(st));
  if (!first || !ts.isIfStatement(first) || first.elseStatement) return [];
  const params = new Set(f.params);
  const out: FlagCondition[][] = [];
  const falsy = (e: TS.Expression | undefined): boolean => {
    if (!e) return true;
    const u = unwrap(ts, e);
    return [ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(u.kind) || (ts.isIdentifier(u) && u.text === 'undefined') || (ts.isNumericLiteral(u) && u.text === '0') || (ts.isStringLiteralLike(u) && u.text === '');
  };
  const refuses = (s: TS.Statement): boolean => {
    const stmts = ts.isBlock(s) ? [...s.statements] : [s];
    const last = stmts[stmts.length - 1];
    return stmts.length === 1 && !!last && (ts.isThrowStatement(last) || (ts.isReturnStatement(last) && falsy(last.expression)));
  };
  const returns = (s: TS.Node): boolean => ts.isReturnStatement(s) || (!ts.isFunctionLike(s) && !!ts.forEachChild(s, (c) => (returns(c) ? true : undefined)));
  // `!a && !b`: the names, or null for any other form
  const missing = (e: TS.Expression): string[] | null => joined(ts, e, ts.SyntaxKind.AmpersandAmpersandToken, missingOne);
  const missingOne = (u: TS.Expression): string[] | null => {
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && ts.isIdentifier(unwrap(ts, u.operand))) return [(unwrap(ts, u.operand) as TS.Identifier).text];
    return null;
  };
  // parameters and the locals declared so far (which may hold what the parameters lead to)
  const own = new Set(params);
  const mentionsOwn = (n: TS.Node): boolean => (ts.isIdentifier(n) && own.has(n.text)) || !!ts.forEachChild(n, (c) => (mentionsOwn(c) ? true : undefined));
  for (const stmt of body.statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) if (ts.isIdentifier(d.name)) own.add(d.name.text);
      continue;
    }
    if (!ts.isIfStatement(stmt) || stmt.elseStatement) break;
    const names = missing(stmt.expression);
    if (names && names.every((n) => params.has(n)) && refuses(stmt.thenStatement)) {
      out.push(names.map((name) => ({ name, op: 'falsy' as const })));
      continue;
    }
    if (returns(stmt.thenStatement) && mentionsOwn(stmt.expression)) break;
  }
  return out;
}

/** Methods testing a request's URL or method against each item of a list (`PUBLIC.includes(req.path)`, `PREFIXES.some(…)`). */
const LIST_TESTS = new Set(['includes', 'has', 'some', 'find']);
/** What a function returning a test of its parameter holds (a comparison, a text or list test): others are not read for pathTests. */
/** `{ status: 401 }`, `status: 503`: a response made with an error status. */
const ERROR_STATUS_OPTION = /\bstatus\s*:\s*[45]\d\d\b/;

const TEST_WORDS = /==|\b(?:startsWith|endsWith|includes|indexOf|test|match|has|some|find)\s*\(/;

/** What `req.originalUrl.split('?')[0]` holds: the path from the root, without the query string. */
const ORIGINAL_PATH = '*originalPath*';
/** Request properties that hold the path alone, and those that hold the query string too (any request can end it with any text). */
const PATH_PROPS = /^(path|pathname|\*originalPath\*)$/;
/** What a request carries that it may leave out: its headers, cookies and query string (skippedRequests, `carried`), and their getters. */
const CARRIED = /^(headers|cookies|signedCookies|query)$/;
const CARRIED_GETTER = /^(header|headers|getHeader|cookie|query)$/;
const QUERY_PROPS = /^(url|originalUrl|href)$/;
/** Request properties that hold the URL from the root below a mount path too (Express strips a mount path from `req.url` and `req.path`). */
const ROOT_PROPS = /^(originalUrl|href|\*originalPath\*)$/;

/**
 * Where a Fastify hook reads the `config` of the route it runs for (the route options'
 * `config`): `request.routeOptions.config` (4.10 and later), the older `request.routeConfig`
 * and `request.context.config` (gone in 5), and `reply.context.config`.
 */
const ROUTE_CONFIG_READS: { param: 0 | 1; keys: string[] }[] = [
  { param: 0, keys: ['routeOptions', 'config'] },
  { param: 0, keys: ['routeConfig'] },
  { param: 0, keys: ['context', 'config'] },
  { param: 1, keys: ['context', 'config'] },
];

/** A test of a value being `null` or `undefined`: lodash's `isNil`, and helpers so named. */
const NIL_TEST = /^(isNil|isNullish|isNullOrUndefined|isUndefined)$/;

/**
 * A hook handing on the requests of some routes by their `config` before anything else
 * (SkipFor `config`): `if (request.routeOptions.config?.security === undefined) return;`, `if
 * (config.public) return done()`, the test one of `||`, of a value a leading local holds
 * (`const security = (request.routeOptions.config as RouteConfig)?.security`, or destructured
 * from the config). Read from the top of the body while each statement is such an `if`, another
 * `if` handing requests on whose test calls nothing (a test of the URL: skippedRequests), or a
 * declaration making no call — what could refuse a request ends the reading.
 */
function routeConfigSkips(ctx: Ctx, f: FunctionFact, body: TS.Block): SkipFor[] {
  const { ts } = ctx;
  // (every read of the config spells it: `routeOptions.config`, `routeConfig`, `context.config`)
  if (!ctx.text.slice(body.pos, body.end).includes('onfig')) return [];
  const K = ts.SyntaxKind;
  const [req, reply] = f.params;
  const done = f.params.length >= 3 ? f.params[f.params.length - 1] : null;
  // locals holding a part of the config: the path of keys to it
  const held = new Map<string, string[]>();
  /** The path of keys below the route's config an expression reads, or null for another expression. */
  const keysOf = (e: TS.Expression): string[] | null => {
    const keys: string[] = [];
    let x = unwrap(ts, e);
    while (ts.isPropertyAccessExpression(x) || (ts.isElementAccessExpression(x) && ts.isStringLiteralLike(x.argumentExpression))) {
      keys.unshift(ts.isPropertyAccessExpression(x) ? x.name.text : (x.argumentExpression as TS.StringLiteralLike).text);
      x = unwrap(ts, x.expression);
    }
    if (!ts.isIdentifier(x)) return null;
    const local = held.get(x.text);
    if (local) return [...local, ...keys];
    const param = x.text === req ? 0 : x.text === reply ? 1 : -1;
    const read = ROUTE_CONFIG_READS.find((r) => r.param === param && r.keys.every((k, i) => keys[i] === k));
    return read ? keys.slice(read.keys.length) : null;
  };
  const isNil = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    return u.kind === K.NullKeyword || (ts.isIdentifier(u) && u.text === 'undefined');
  };
  /** The alternatives a condition lets through, or null when it tests anything else. */
  const tests = (cond: TS.Expression): SkipFor[] | null => {
    const u = unwrap(ts, cond);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.BarBarToken) {
      const [l, r] = [tests(u.left), tests(u.right)];
      return l && r ? [...l, ...r] : null;
    }
    if (ts.isPrefixUnaryExpression(u) && u.operator === K.ExclamationToken) {
      const keys = keysOf(u.operand);
      return keys && keys.length > 0 ? [{ config: keys, test: { is: 'falsy' } }] : null;
    }
    // `isNil(security)` (lodash's, or a helper of that name)
    if (ts.isCallExpression(u) && u.arguments.length === 1 && NIL_TEST.test(calleeName(ts, u))) {
      const keys = keysOf(u.arguments[0]!);
      return keys && keys.length > 0 ? [{ config: keys, test: { is: 'missing' } }] : null;
    }
    if (ts.isBinaryExpression(u)) {
      const op = u.operatorToken.kind;
      const equal = op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken;
      if (!equal && op !== K.ExclamationEqualsEqualsToken && op !== K.ExclamationEqualsToken) return null;
      const [keys, other] = keysOf(u.left) ? [keysOf(u.left), u.right] : [keysOf(u.right), u.left];
      if (!keys || keys.length === 0) return null;
      if (isNil(other)) return [{ config: keys, test: { is: equal ? 'missing' : 'present' } }];
      const value = shallowExpr(ctx, other, f.scope);
      return [{ config: keys, test: equal ? { equals: value } : { notEquals: value } }];
    }
    const keys = keysOf(u);
    return keys && keys.length > 0 ? [{ config: keys, test: { is: 'truthy' } }] : null;
  };
  const isDone = (e: TS.Expression | undefined): boolean => {
    const c = e ? unwrap(ts, e) : undefined;
    return !!c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === done && c.arguments.length === 0;
  };
  // `return;`, `return done();`, `{ done(); return; }`: the request goes on to the next hook
  const handsOn = (s: TS.Statement): boolean => {
    const list = ts.isBlock(s) ? [...s.statements] : [s];
    const last = list.pop();
    return !!last && ts.isReturnStatement(last) && (!last.expression || isDone(last.expression)) && list.every((x) => ts.isExpressionStatement(x) && isDone(x.expression));
  };
  const calls = (n: TS.Node): boolean => ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isAwaitExpression(n) || ts.isFunctionLike(n) || !!ts.forEachChild(n, (c) => (calls(c) ? true : undefined));
  const out: SkipFor[] = [];
  for (const s of body.statements) {
    if (ts.isVariableStatement(s)) {
      if (calls(s)) break;
      for (const d of s.declarationList.declarations) {
        const keys = d.initializer ? keysOf(d.initializer) : null;
        if (!keys) continue;
        if (ts.isIdentifier(d.name)) held.set(d.name.text, keys);
        else if (ts.isObjectBindingPattern(d.name))
          for (const el of d.name.elements) {
            const key = el.propertyName ? propName(ts, el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : null;
            if (!el.dotDotDotToken && !el.initializer && key !== null && ts.isIdentifier(el.name)) held.set(el.name.text, [...keys, key]);
          }
      }
      continue;
    }
    if (!ts.isIfStatement(s) || s.elseStatement || !handsOn(s.thenStatement)) break;
    const read = tests(s.expression);
    if (read) out.push(...read);
    else if (calls(s.expression)) break;
  }
  return out;
}

/**
 * `return disabledCsurf(req, res, next)`: the request, response and next handed whole to a
 * function of the file made before this one that hands every request on (Behaviour.handsOnAlways:
 * saltcorn's `const disabledCsurf = (req, res, next) => { req.csrfToken = () => ''; next(); }`) —
 * a way through, as `return next()` is. Its name, or null.
 */
function passThroughHandedTo(ctx: Ctx, scope: number, e: TS.Expression, reqName: string, nextName: string | null): string | null {
  const { ts } = ctx;
  if (nextName === null || !ts.isCallExpression(e) || !ts.isIdentifier(e.expression) || e.arguments.length !== 3) return null;
  const [req, , next] = e.arguments;
  if (!ts.isIdentifier(req!) || req.text !== reqName || !ts.isIdentifier(next!) || next.text !== nextName) return null;
  const name = e.expression.text;
  const bound = findScopeOf(ctx, scope, name)?.bindings[name];
  const f = bound && !isEncoded(bound) && bound.k === 'fn' ? ctx.facts.functions[bound.id] : undefined;
  return f?.params.length === 3 && f.behaviour.handsOnAlways === true ? name : null;
}

/**
 * The requests a middleware answers itself, handing every other on (Behaviour.servesFor): after
 * declarations naming no `next`, one `if` on which it hands the request on or answers it, `next`
 * named nowhere on the answering side — `if (T) return next(); …the answer…`, `if (T) { …the
 * answer…; return } next()`, or `if (T) { …the answer… } else next()` (either way round) alone —
 * and T read whole as a test of the URL or the method (skippedRequests). Null for any other body.
 */
function servedRequests(ctx: Ctx, scope: number, statements: readonly TS.Statement[], params: readonly string[], reqName: string, nextName: string): SkipFor[] | null {
  const { ts } = ctx;
  const names = (n: TS.Node): boolean => (ts.isIdentifier(n) && n.text === nextName) || !!ts.forEachChild(n, (c) => names(c) || undefined);
  const listOf = (s: TS.Statement): readonly TS.Statement[] => (ts.isBlock(s) ? s.statements : [s]);
  // `next();`, `return next();`, `await next();`, `return;` after one
  const handsOn = (s: TS.Statement): boolean => {
    const list = listOf(s);
    const call = (st: TS.Statement): boolean => {
      const e = ts.isReturnStatement(st) || ts.isExpressionStatement(st) ? st.expression && unwrap(ts, st.expression) : undefined;
      return !!e && onlyCallsNext(ts, ts.isAwaitExpression(e) ? e.expression : e, nextName);
    };
    return list.length > 0 && call(list[0]!) && list.slice(1).every((st) => ts.isReturnStatement(st) && !st.expression);
  };
  let i = 0;
  while (i < statements.length && ts.isVariableStatement(statements[i]!) && !names(statements[i]!)) i++;
  const first = statements[i];
  const rest = statements.slice(i + 1);
  if (!first || !ts.isIfStatement(first)) return null;
  const otherwise = first.elseStatement;
  // (whether the answer is given where the test holds)
  let answersWhen: boolean;
  let answering: readonly TS.Statement[];
  if (!otherwise && handsOn(first.thenStatement) && rest.length > 0 && !rest.some(names)) [answersWhen, answering] = [false, rest];
  else if (!otherwise && rest.length > 0 && !names(first.thenStatement) && exits(ts, first.thenStatement) && rest.every(handsOn)) [answersWhen, answering] = [true, listOf(first.thenStatement)];
  else if (otherwise && rest.length === 0 && handsOn(first.thenStatement) && !names(otherwise)) [answersWhen, answering] = [false, listOf(otherwise)];
  else if (otherwise && rest.length === 0 && handsOn(otherwise) && !names(first.thenStatement)) [answersWhen, answering] = [true, listOf(first.thenStatement)];
  else return null;
  // (a path it only refuses, `if (req.path === '/.env') return res.sendStatus(404); next()`, is blocked, not served)
  if (refusesEvery(ctx, answering, params)) return null;
  const unread: TS.Expression[] = [];
  const locals = statements.slice(0, i) as TS.VariableStatement[];
  const tested = skippedRequests(ctx, scope, reqName, null, { locals, escapes: [{ e: first.expression, holds: false }], unread });
  if (unread.length > 0 || tested.length === 0) return null;
  if (answersWhen) return tested;
  // what the test fails for: a request each of whose `except` alternatives it is one of (`req.path
  // !== '/status' || req.method !== 'GET'`: GET /status)
  let out: (SkipFor | null)[] = [null];
  for (const t of tested) {
    if (!('except' in t)) return null;
    const next: SkipFor[] = [];
    for (const a of out)
      for (const b of t.except) {
        const both = a === null ? b : bothOf(a, b);
        if (both === null) return null;
        if (both !== false) next.push(both);
      }
    out = next;
  }
  return out.length > 0 ? (out as SkipFor[]) : null;
}

/**
 * The requests two alternatives of an allowlist both hold for (servedRequests): the one not
 * only of a method, given the other's method; false when there is none (two methods); null when
 * they are not one alternative (two tests of the path, or of something else).
 */
function bothOf(a: SkipFor, b: SkipFor): SkipFor | false | null {
  const methodOnly = (x: SkipFor): x is { method: string } => 'method' in x && Object.keys(x).every((k) => k === 'method' || k === 'root');
  const [only, other] = methodOnly(a) ? [a, b] : methodOnly(b) ? [b, a] : [null, null];
  if (!only || !other || 'except' in other || 'helper' in other || 'config' in other) return null;
  const method = 'method' in other ? other.method : undefined;
  if (method !== undefined && method !== only.method) return false;
  return { ...other, method: only.method } as SkipFor;
}

/**
 * An allowlist at the top of a middleware / hook: `if (request.url === '/login' && request.method
 * === 'POST') return true;` (or `return next()`), before anything but declarations (also at
 * the top of a leading `try`). Each `||` alternative tests the URL or path at most once and
 * the method at most once, read from the function's first parameter (SkipFor): the URL
 * compared whole, by `startsWith`, `includes`, `endsWith` or `indexOf` with a literal or a name,
 * by a regular expression (`re.test(url)`, `url.match(re)`), or with each item of a list
 * (`LIST.includes(path)`, `SET.has(path)`, `LIST.some((p) => url.startsWith(p))`, a `for … of`
 * loop over it); the method compared with a literal or a list of them. An alternative that tests
 * anything else (`req.session.user`) is left out: it lets no request through for its URL alone.
 * Such a test may be held by a local (`const isPublic = …; if (isPublic) …`) or returned by a
 * function of the file's top level the path is handed to (`if (isPublicPath(pathname)) …`).
 * Hono's `c.req.url` and a Next.js request's `url` are the whole URL (read as `href`); the
 * pathname of `new URL(…)` made from the URL is the path. A check run only under a test of the
 * URL or the method (`if (req.path.startsWith('/admin')) { …the check… }`, `if
 * (!req.path.startsWith('/admin')) return next()`) lets through every request outside what the
 * test holds for (`except`), when each of its alternatives is read. `passing`, when given,
 * gets each `if` handing requests on whose condition was read so; `endHandsOn`, the function
 * hands a request on by ending (it calls no `next`: a Fastify hook, a Next.js middleware).
 */
function skippedRequests(
  ctx: Ctx,
  scope: number,
  reqName: string,
  nextName: string | null,
  read: TS.Block | { param: string; tests: TS.Expression[] } | Escapes,
  how: { passing?: TS.IfStatement[]; endHandsOn?: boolean; wrapped?: () => ReadonlySet<string> | undefined; passedTo?: Set<string> } = {},
): SkipFor[] {
  const { ts } = ctx;
  // (most bodies start with something else: their reading ends before it starts)
  if (!('param' in read) && !('escapes' in read) && !readsTests(ts, read.statements)) return [];
  const { passing, endHandsOn } = how;
  // `return handler(req, caller)` in the function a wrapper makes, `handler` its parameter: the request handed on to what it wraps
  const callsWrapped = (st: TS.Statement): boolean => {
    const c = ts.isReturnStatement(st) && st.expression ? unwrap(ts, st.expression) : undefined;
    return !!c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && !!how.wrapped?.()?.has(c.expression.text);
  };
  const isNextCall = (e: TS.Expression | undefined): boolean => {
    const c = e ? unwrap(ts, e) : undefined;
    return !!c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName;
  };
  // `return;`, `return true;`, `return next();`, `return NextResponse.next();`, `{ next(); return; }`
  const passes = (s: TS.Statement): boolean => {
    const stmts = ts.isBlock(s) ? [...s.statements] : [s];
    const last = stmts[stmts.length - 1];
    if (!last || !ts.isReturnStatement(last)) return false;
    const before = stmts.slice(0, -1);
    if (!before.every((x) => ts.isExpressionStatement(x) && isNextCall(x.expression))) return false;
    const r = last.expression ? unwrap(ts, last.expression) : undefined;
    if (!r || r.kind === ts.SyntaxKind.TrueKeyword || isNextCall(r) || isNextResponseNext(ts, r) || (before.length > 0 && r.kind === ts.SyntaxKind.UndefinedKeyword) || handsOnHeld(r)) return true;
    const through = before.length === 0 ? passThroughHandedTo(ctx, scope, r, reqName, nextName) : null;
    if (through !== null) how.passedTo?.add(through);
    return through !== null;
  };
  // `return supabaseResponse` of `let supabaseResponse = NextResponse.next({ request })`, a local
  // given nothing else anywhere in the body (Supabase's template sets it again, to the same, in a callback)
  const givenOnlyNext = new Map<string, boolean>();
  const handsOnHeld = (r: TS.Expression): boolean => {
    const init = ts.isIdentifier(r) ? heldExprs.get(r.text) : undefined;
    if (!init || !isNextResponseNext(ts, unwrap(ts, init)) || !('statements' in read)) return false;
    const name = (r as TS.Identifier).text;
    let only = givenOnlyNext.get(name);
    if (only === undefined) {
      const other = (n: TS.Node): boolean =>
        (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left) && n.left.text === name && !isNextResponseNext(ts, unwrap(ts, n.right))) ||
        !!ts.forEachChild(n, (c) => (other(c) ? true : undefined));
      givenOnlyNext.set(name, (only = !other(read)));
    }
    return only;
  };
  // `return new Response('pong')`, `return NextResponse.json(…)`: the branch answers the request itself
  // (one made with an error status, `new NextResponse(null, { status: 401 })`, refuses the request: no answer)
  const answers = (s: TS.Statement): boolean => {
    const stmts = ts.isBlock(s) ? [...s.statements] : [s];
    const last = stmts[stmts.length - 1];
    const r = last && ts.isReturnStatement(last) && last.expression ? unwrap(ts, last.expression) : undefined;
    return !!r && isResponse(ts, r) && !ERROR_STATUS_OPTION.test(textOf(ctx, r));
  };
  // `const { pathname } = request.nextUrl`, `const path = req.path`: locals naming a request property
  const aliases = new Map<string, string>();
  const recordAliases = (stmt: TS.VariableStatement): void => {
    for (const d of stmt.declarationList.declarations) {
      if (!d.initializer) continue;
      const init = unwrap(ts, d.initializer);
      if (ts.isIdentifier(d.name)) {
        const prop = requestProp(slashCut(init) ?? init);
        if (prop !== null) aliases.set(d.name.text, prop);
        else if (parsesUrl(init)) parsedUrls.add(d.name.text);
      } else if (ts.isObjectBindingPattern(d.name) && requestRooted(init)) {
        for (const el of d.name.elements) {
          const key = el.propertyName ?? el.name;
          if (!el.dotDotDotToken && ts.isIdentifier(el.name) && ts.isIdentifier(key)) aliases.set(el.name.text, key.text);
        }
      }
    }
  };
  // `req.originalUrl.replace(/\/$/, '')`: the URL with a trailing slash cut, read as the URL (a
  // request for the bare prefix, `/assets/`, is then read as let through by `startsWith('/assets/')`
  // where it is not: what is read as let through is more, never less)
  const slashCut = (e: TS.Expression): TS.Expression | null => {
    const u = unwrap(ts, e);
    if (!ts.isCallExpression(u) || u.arguments.length !== 2 || !ts.isPropertyAccessExpression(u.expression) || u.expression.name.text !== 'replace') return null;
    const [re, by] = [unwrap(ts, u.arguments[0]!), unwrap(ts, u.arguments[1]!)];
    return re.kind === ts.SyntaxKind.RegularExpressionLiteral && /^\/\\\/\+?\$\/$/.test((re as TS.RegularExpressionLiteral).text) && ts.isStringLiteralLike(by) && by.text === '' ? u.expression.expression : null;
  };
  // `url.split('?')[0]`, `url.split('?', 1)[0]`: what comes before a query string
  const queryCut = (e: TS.Expression): TS.Expression | null => {
    if (!ts.isElementAccessExpression(e) || !isIndex(ts, e.argumentExpression) || e.argumentExpression.text !== '0') return null;
    const call = unwrap(ts, e.expression);
    if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'split') return null;
    const [sep, limit] = call.arguments.map((a) => unwrap(ts, a));
    if (!sep || !ts.isStringLiteralLike(sep) || sep.text !== '?' || (limit && !(ts.isNumericLiteral(limit) && Number(limit.text) >= 1)) || call.arguments.length > 2) return null;
    return call.expression.expression;
  };
  // Hono's `c.req.url` and a Fetch API request's `url` (Next.js) hold the whole URL, scheme and host first, as `href` does
  const wholeUrls = ctx.facts.imports.some((i) => /^(hono|next)(\/|$)/.test(i.source));
  // `const url = new URL(request.url)`: locals holding the requested URL parsed
  const parsedUrls = new Set<string>();
  // `new URL(request.url)`, `new URL(c.req.url, base)`
  const parsesUrl = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (!ts.isNewExpression(u) || !ts.isIdentifier(u.expression) || u.expression.text !== 'URL' || !u.arguments?.length) return false;
    // (not `req.originalUrl`: its pathname would be read below a mount path, as `pathname` is)
    const prop = requestProp(u.arguments[0]!);
    return prop !== null && (PATH_PROPS.test(prop) || prop === 'url' || (prop === 'href' && wholeUrls));
  };
  // `request`, `request.nextUrl`, `new URL(request.url)`: the request parameter, its URL parsed, or a chain
  // starting at either, or at a local naming the request object it holds (`req` of Hono's `const { req } = c`)
  const requestRooted = (e: TS.Expression): boolean => {
    let root: TS.Expression = unwrap(ts, e);
    while (ts.isPropertyAccessExpression(root)) root = unwrap(ts, root.expression);
    return ts.isIdentifier(root) ? root.text === reqName || parsedUrls.has(root.text) || REQUEST_OBJECT.test(aliases.get(root.text) ?? '') : parsesUrl(root);
  };
  // `request.url`, `ctx.request.path`, `c.req.path`: the property read, when the chain starts at the request parameter
  const requestProp = (e: TS.Expression): string | null => {
    const u = unwrap(ts, e);
    if (ts.isIdentifier(u)) return aliases.get(u.text) ?? null;
    // `req.originalUrl.split('?', 1)[0]`: the URL without its query string (mongo-express's allowlist)
    const cut = queryCut(u);
    if (cut) {
      const whole = requestProp(cut);
      return whole === 'url' ? 'path' : whole === 'originalUrl' ? ORIGINAL_PATH : null;
    }
    if (!ts.isPropertyAccessExpression(u) || !requestRooted(u.expression)) return null;
    // (`request.routeOptions.url`, `request.routeConfig`: the route's own pattern and settings, not what was requested)
    const on = unwrap(ts, u.expression);
    if (ts.isPropertyAccessExpression(on) && /^route(Options|Config)$/.test(on.name.text)) return null;
    return u.name.text === 'url' && wholeUrls ? 'href' : u.name.text;
  };
  // One test of the request's URL or path: against a literal, a regular expression literal, or
  // each item of a list (`PUBLIC.includes(req.path)`, `PUBLIC.some((p) => req.url.startsWith(p))`).
  type ItemTest = { prop: string; test: SkipTest | 'regex'; suffix?: string; cut?: number; items?: ItemFilter };
  type UrlTest = { prop: string } & ({ test: SkipTest; lit: string } | { test: SkipTest | 'regex' | GlobTest; list: Expr; suffix?: string; cut?: number; items?: ItemFilter });
  const TEXT_TESTS: Record<string, SkipTest> = { startsWith: 'startsWith', endsWith: 'endsWith', includes: 'contains' };
  const K = ts.SyntaxKind;
  const isNumber = (e: TS.Expression, v: number): boolean => {
    const u = unwrap(ts, e);
    if (v < 0) return ts.isPrefixUnaryExpression(u) && u.operator === K.MinusToken && isNumber(u.operand, -v);
    return ts.isNumericLiteral(u) && Number(u.text) === v;
  };
  const indexOfCall = (e: TS.Expression): TS.CallExpression | null => {
    const c = unwrap(ts, e);
    return ts.isCallExpression(c) && ts.isPropertyAccessExpression(c.expression) && c.expression.name.text === 'indexOf' && c.arguments.length === 1 ? c : null;
  };
  // `x.m(arg)`; `x.indexOf(arg) !== -1` (`> -1`, `>= 0`, `~x.indexOf(arg)`) read as `x.includes(arg)`,
  // and `x.indexOf(arg) === 0` as `x.startsWith(arg)`
  const methodCall = (u: TS.Expression): { on: TS.Expression; m: string; arg: TS.Expression } | null => {
    if (ts.isCallExpression(u) && u.arguments.length === 1 && ts.isPropertyAccessExpression(u.expression)) return { on: u.expression.expression, m: u.expression.name.text, arg: u.arguments[0]! };
    let c: TS.CallExpression | null = null;
    let m = 'includes';
    if (ts.isPrefixUnaryExpression(u) && u.operator === K.TildeToken) c = indexOfCall(u.operand);
    else if (ts.isBinaryExpression(u) && (c = indexOfCall(u.left)) !== null) {
      const op = u.operatorToken.kind;
      const found = ([K.ExclamationEqualsEqualsToken, K.ExclamationEqualsToken, K.GreaterThanToken].includes(op) && isNumber(u.right, -1)) || (op === K.GreaterThanEqualsToken && isNumber(u.right, 0));
      if ([K.EqualsEqualsEqualsToken, K.EqualsEqualsToken].includes(op) && isNumber(u.right, 0)) m = 'startsWith';
      else if (!found) c = null;
    }
    return c && { on: (c.expression as TS.PropertyAccessExpression).expression, m, arg: c.arguments[0]! };
  };
  // `x.startsWith(y)`, `x.includes(y)`, `x.endsWith(y)`, `x === y`, `re.test(x)`, `x.match(re)`:
  // what is tested (`subject`), how, and against what (`against`)
  const shapeOf = (u: TS.Expression): { subject: TS.Expression; test: SkipTest | 'regex'; against: TS.Expression } | null => {
    const call = methodCall(u);
    if (call) {
      const arg = unwrap(ts, call.arg);
      if (Object.hasOwn(TEXT_TESTS, call.m)) return { subject: call.on, test: TEXT_TESTS[call.m]!, against: arg };
      if (call.m === 'test') return { subject: arg, test: 'regex', against: call.on };
      if (call.m === 'match') return { subject: call.on, test: 'regex', against: arg };
    }
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === K.EqualsEqualsEqualsToken || u.operatorToken.kind === K.EqualsEqualsToken)) {
      const [l, r] = [unwrap(ts, u.left), unwrap(ts, u.right)];
      return requestProp(l) !== null ? { subject: l, test: 'equals', against: r } : { subject: r, test: 'equals', against: l };
    }
    return null;
  };
  // `p`, `p + '/'`, `${p}/`: the text added to `item` (null for anything else)
  const suffixTo = (item: string, e: TS.Expression): string | null => {
    const isItem = (x: TS.Expression): boolean => ts.isIdentifier(unwrap(ts, x)) && (unwrap(ts, x) as TS.Identifier).text === item;
    if (isItem(e)) return '';
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === K.PlusToken && isItem(e.left) && ts.isStringLiteralLike(unwrap(ts, e.right))) return (unwrap(ts, e.right) as TS.StringLiteral).text;
    const span = ts.isTemplateExpression(e) && e.head.text === '' && e.templateSpans.length === 1 ? e.templateSpans[0]! : null;
    return span && isItem(span.expression) ? span.literal.text : null;
  };
  // `req.path.startsWith(p)`, `p.test(req.path)`, `req.path === p`, `req.path.startsWith(p + '/')`:
  // how each `||` alternative of `e` tests the request against `item`; those that test it
  // otherwise are left out
  const itemTests = (item: string, e: TS.Expression): ItemTest[] => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.BarBarToken) return [...itemTests(item, u.left), ...itemTests(item, u.right)];
    // `typeof route === 'string' ? route === ctx.path : route.test(ctx.path)` (`route instanceof
    // RegExp ? … : …`): each branch's tests, of the items of its kind only (none read when one
    // branch's are not)
    if (ts.isConditionalExpression(u)) return branchTests(item, u.condition, u.whenTrue, u.whenFalse);
    const shape = shapeOf(u);
    // `path.startsWith(w.slice(0, -1))`: the item with its last characters cut off
    const against = shape ? unwrap(ts, shape.against) : null;
    const sliced = against && ts.isCallExpression(against) && ts.isPropertyAccessExpression(against.expression) && against.expression.name.text === 'slice' && against.arguments.length === 2 && isNumber(against.arguments[0]!, 0) ? against : null;
    const cut = sliced ? cutOff(sliced.arguments[1]!) : null;
    const suffix = cut !== null ? (suffixTo(item, (sliced!.expression as TS.PropertyAccessExpression).expression) === '' ? '' : null) : shape ? suffixTo(item, shape.against) : null;
    const prop = suffix !== null && (suffix === '' || shape!.test !== 'regex') && !(cut !== null && shape!.test === 'regex') ? requestProp(shape!.subject) : null;
    return prop === null ? [] : [{ prop, test: shape!.test, ...(suffix ? { suffix } : {}), ...(cut ? { cut } : {}) }];
  };
  // `-1` of `w.slice(0, -1)`: how many characters it cuts off the end (null for anything else)
  const cutOff = (e: TS.Expression): number | null => {
    const u = unwrap(ts, e);
    return ts.isPrefixUnaryExpression(u) && u.operator === K.MinusToken && ts.isNumericLiteral(u.operand) && Number(u.operand.text) > 0 ? Number(u.operand.text) : null;
  };
  // `test ? a : b` of the item (also `if (test) return a; return b;`): each branch's tests, of the
  // items the test holds for and of the others (none read when one branch's are not)
  const branchTests = (item: string, condition: TS.Expression, whenTrue: TS.Expression, whenFalse: TS.Expression): ItemTest[] => {
    const kind = itemKind(item, condition);
    if (kind === null) return [];
    const [then, otherwise] = [itemTests(item, whenTrue), itemTests(item, whenFalse)];
    if (then.length === 0 || otherwise.length === 0) return [];
    const other: ItemFilter = kind === 'str' ? 're' : kind === 're' ? 'str' : { ...kind, holds: !kind.holds };
    return [...then.map((t) => ({ ...t, items: kind })), ...otherwise.map((t) => ({ ...t, items: other }))];
  };
  // `typeof item === 'string'` (`!==` the other way round), `item instanceof RegExp`: which kind
  // of the list's items a test holds for; null for any other test
  const itemKind = (item: string, e: TS.Expression): ItemFilter | null => {
    const u = unwrap(ts, e);
    const isItem = (x: TS.Expression): boolean => ts.isIdentifier(unwrap(ts, x)) && (unwrap(ts, x) as TS.Identifier).text === item;
    // `!w.endsWith('*')`; `w.endsWith('*')` (`startsWith`, `includes`, `=== '/'`): a test of the item's own text
    if (ts.isPrefixUnaryExpression(u) && u.operator === K.ExclamationToken) {
      const inner = itemKind(item, u.operand);
      return inner !== null && typeof inner === 'object' ? { ...inner, holds: !inner.holds } : null;
    }
    const own = methodCall(u);
    if (own && isItem(own.on) && (own.m === 'startsWith' || own.m === 'endsWith' || own.m === 'includes') && ts.isStringLiteralLike(unwrap(ts, own.arg))) return { m: own.m, lit: (unwrap(ts, own.arg) as TS.StringLiteral).text, holds: true };
    if (!ts.isBinaryExpression(u)) return null;
    const op = u.operatorToken.kind;
    if (op === K.InstanceOfKeyword) return isItem(u.left) && ts.isIdentifier(u.right) && u.right.text === 'RegExp' ? 're' : null;
    const equal = op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken;
    if (!equal && op !== K.ExclamationEqualsEqualsToken && op !== K.ExclamationEqualsToken) return null;
    const [l, r] = [unwrap(ts, u.left), unwrap(ts, u.right)];
    for (const [a, b] of [[l, r], [r, l]] as const) if (isItem(a) && ts.isStringLiteralLike(b)) return { m: 'equals', lit: b.text, holds: equal };
    const [of, lit] = ts.isTypeOfExpression(l) ? [l, r] : ts.isTypeOfExpression(r) ? [r, l] : [null, null];
    if (!of || !isItem(of.expression) || !ts.isStringLiteralLike(lit!) || lit.text !== 'string') return null;
    return equal ? 'str' : 're';
  };
  // `(p) => req.path.startsWith(p)` (or `{ return … }`): the tests its body applies to its parameter
  const callbackTests = (fnNode: TS.Expression): ItemTest[] => {
    if (!(ts.isArrowFunction(fnNode) || ts.isFunctionExpression(fnNode)) || fnNode.parameters.length !== 1) return [];
    const param = fnNode.parameters[0]!.name;
    if (!ts.isIdentifier(param)) return [];
    const only = returnedExpression(ts, fnNode);
    if (only) return itemTests(param.text, only);
    // `{ if (w.endsWith('*')) { return path.startsWith(w.slice(0, -1)); } return path === w; }`: as `? :`
    const body = fnNode.body && ts.isBlock(fnNode.body) ? fnNode.body.statements : [];
    const [first, last] = body.length === 2 ? body : [];
    const returned = (x: TS.Statement | undefined): TS.Expression | undefined => {
      const r = x && ts.isBlock(x) && x.statements.length === 1 ? x.statements[0] : x;
      return r && ts.isReturnStatement(r) ? r.expression : undefined;
    };
    const [then, otherwise] = first && ts.isIfStatement(first) && !first.elseStatement ? [returned(first.thenStatement), returned(last)] : [];
    return then && otherwise ? branchTests(param.text, (first as TS.IfStatement).expression, then, otherwise) : [];
  };
  // `['GET', 'HEAD'].includes(req.method)`: the methods of a list written in place
  const methodList = (list: Expr): UrlTest[] | null =>
    list.k === 'arr' && list.items.length > 0 && list.items.every((i) => i.k === 'str') ? list.items.map((i) => ({ prop: 'method', test: 'equals', lit: (i as { v: string }).v })) : null;
  // The tests a condition's `||` alternatives make: each of the URL, or each of the method (null for any other condition)
  const urlTests = (x: TS.Expression): UrlTest[] | null => {
    const all = joined(ts, x, K.BarBarToken, urlTest);
    return all && all.every((t) => (t.prop === 'method') === (all[0]!.prop === 'method')) ? all : null;
  };
  // `parts[parts.length - 1]` of `const parts = req.url.split('/')` (`.at(-1)`, `.pop()`, or the
  // split written in place): the last segment of what the request asked for — the property read
  const lastSegment = (e: TS.Expression): string | null => {
    const u = unwrap(ts, e);
    let list: TS.Expression | null = null;
    if (ts.isElementAccessExpression(u)) {
      const i = unwrap(ts, u.argumentExpression);
      const ofLength = ts.isBinaryExpression(i) && i.operatorToken.kind === K.MinusToken && isNumber(i.right, 1) && ts.isPropertyAccessExpression(unwrap(ts, i.left));
      if (ofLength && textOf(ctx, (unwrap(ts, (i as TS.BinaryExpression).left) as TS.PropertyAccessExpression).expression) === textOf(ctx, u.expression)) list = u.expression;
    } else if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression)) {
      const m = u.expression.name.text;
      if ((m === 'at' && u.arguments.length === 1 && isNumber(u.arguments[0]!, -1)) || (m === 'pop' && u.arguments.length === 0)) list = u.expression.expression;
    }
    if (list === null) return null;
    const l = unwrap(ts, list);
    const split = ts.isIdentifier(l) ? heldExprs.get(l.text) : l;
    const c = split ? unwrap(ts, split) : null;
    if (!c || !ts.isCallExpression(c) || !ts.isPropertyAccessExpression(c.expression) || c.expression.name.text !== 'split') return null;
    const by = c.arguments[0] ? unwrap(ts, c.arguments[0]) : null;
    if (!by || !ts.isStringLiteralLike(by) || by.text !== '/' || c.arguments.length !== 1) return null;
    const prop = requestProp(c.expression.expression);
    return prop !== null && (PATH_PROPS.test(prop) || QUERY_PROPS.test(prop)) ? prop : null;
  };
  const urlTest = (u: TS.Expression): UrlTest[] | null => {
    // `parts[parts.length - 1] === 'cacerts'`: the URL ends with `/cacerts`
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === K.EqualsEqualsEqualsToken || u.operatorToken.kind === K.EqualsEqualsToken)) {
      for (const [a, b] of [[u.left, u.right], [u.right, u.left]] as const) {
        const prop = lastSegment(a);
        const lit = unwrap(ts, b);
        if (prop !== null && ts.isStringLiteralLike(lit)) return [{ prop, test: 'endsWith', lit: `/${lit.text}` }];
      }
    }
    const call = methodCall(u);
    // `LIST.includes(req.path)`, `SET.has(req.path)`; `LIST.some((p) => …)` (or find)
    if (call && LIST_TESTS.has(call.m) && !ts.isStringLiteralLike(unwrap(ts, call.on))) {
      const list = shallowExpr(ctx, call.on, scope);
      if (call.m === 'includes' || call.m === 'has') {
        const prop = requestProp(call.arg);
        if (prop === 'method') return methodList(list);
        if (prop !== null) return [{ prop, test: 'equals', list }];
      }
      if (call.m === 'some' || call.m === 'find') {
        const tests = callbackTests(unwrap(ts, call.arg));
        return tests.length > 0 ? tests.map((t) => ({ ...t, list })) : null;
      }
    }
    // `micromatch.isMatch(pathname, PUBLIC_ROUTES)` (picomatch's too), `minimatch(req.path,
    // '/api/auth/**')`: the path tested against globs, which the linker reads
    const glob = globCall(ctx, u);
    if (glob) {
      const prop = requestProp(glob.subject);
      return prop !== null && (PATH_PROPS.test(prop) || QUERY_PROPS.test(prop)) ? [{ prop, test: glob.test, list: shallowExpr(ctx, glob.patterns, scope) }] : null;
    }
    const shape = shapeOf(u);
    if (!shape) return null;
    const prop = requestProp(shape.subject);
    if (prop === null) return null;
    // (a regular expression written in place is a list of one)
    if (shape.test === 'regex') return [{ prop, test: 'regex', list: shape.against.kind === K.RegularExpressionLiteral ? regexLiteral(shape.against as TS.RegularExpressionLiteral) : shallowExpr(ctx, shape.against, scope) }];
    if (ts.isStringLiteralLike(shape.against)) return [{ prop, test: shape.test, lit: shape.against.text }];
    // `req.path === LOGIN_PATH`, `req.url.startsWith(PREFIXES.public)`: a value the linker reads
    return ts.isIdentifier(shape.against) || ts.isPropertyAccessExpression(shape.against) ? [{ prop, test: shape.test, list: shallowExpr(ctx, shape.against, scope) }] : null;
  };
  const urlProp = (e: TS.Expression): boolean => {
    const prop = requestProp(e);
    return prop !== null && (PATH_PROPS.test(prop) || QUERY_PROPS.test(prop));
  };
  // The requests one test of the URL lets through, for a method when one is given; null for a
  // test no request passes (a whole URL compared with a path)
  const skipOf = (url: UrlTest, method: { method?: string }): SkipFor | null => {
    const query = QUERY_PROPS.test(url.prop) ? { query: true as const } : {};
    const root = ROOT_PROPS.test(url.prop) ? { root: true as const } : {};
    if ('list' in url) return { oneOf: url.list, test: url.test, ...(url.suffix ? { suffix: url.suffix } : {}), ...(url.cut ? { cut: url.cut } : {}), ...(url.items ? { items: url.items } : {}), ...query, ...method, ...root };
    switch (url.test) {
      // (a URL compared whole, or by its start, is one a request can be sent at: it must be a path)
      case 'equals':
        return url.lit.startsWith('/') && url.prop !== 'href' ? { path: url.lit, ...query, ...method, ...root } : null;
      case 'startsWith':
        return url.lit.startsWith('/') && url.prop !== 'href' ? { startsWith: url.lit, ...method, ...root } : null;
      case 'contains':
        return { contains: url.lit, ...query, ...method, ...root };
      case 'endsWith':
        return { endsWith: url.lit, ...query, ...method, ...root };
    }
  };
  // `req.method === 'POST' && (req.path === '/login' || req.path === '/signup')`: the requests
  // one `||` alternative of the condition lets through, each conjunct a test of the URL or of
  // the method (null for any other: a session, a header, a negated test)
  const alternative = (e: TS.Expression): SkipFor[] | null => {
    const conjuncts = joined(ts, e, K.AmpersandAmpersandToken, (u) => {
      const t = urlTests(u);
      return t && [t];
    });
    if (!conjuncts) return null;
    const methods = conjuncts.filter((c) => c[0]!.prop === 'method');
    const urls = conjuncts.filter((c) => PATH_PROPS.test(c[0]!.prop) || QUERY_PROPS.test(c[0]!.prop));
    if (methods.length > 1 || urls.length > 1 || methods.length + urls.length !== conjuncts.length) return null;
    const verbs = methods[0]?.map((t) => ('lit' in t && t.test === 'equals' ? { method: t.lit.toUpperCase() } : null)) ?? [{}];
    if (verbs.some((v) => v === null)) return null;
    if (!urls[0]) return methods.length === 1 ? (verbs as SkipFor[]) : null;
    return verbs.flatMap((v) => urls[0]!.map((u) => skipOf(u, v!))).filter((x): x is SkipFor => x !== null);
  };
  // `const isPublic = PUBLIC.some(…); if (isPublic) return next();`: locals holding an allowlist's test, and the test
  const heldTests = new Map<string, SkipFor[]>();
  const heldExprs = new Map<string, TS.Expression>();
  // `function isPublicPath(pathname) { return PUBLIC.some((p) => pathname.startsWith(p)) }`, in
  // the same file: the tests it returns true for, its parameter standing for what the call
  // passes (a few per guard: a helper calling itself is read no deeper)
  let helpersRead = 0;
  const helperCall = (u: TS.CallExpression): SkipFor[] => {
    const arg = u.arguments.length === 1 ? u.arguments[0]! : null;
    const prop = arg ? requestProp(arg) : null;
    if (prop === null || !(PATH_PROPS.test(prop) || QUERY_PROPS.test(prop))) return [];
    const helper = ts.isIdentifier(u.expression) && helpersRead < 8 ? returnedTests(ts, ctx.sf, u.expression.text) : null;
    // one of another file (or whose body is not read here): what it lets through is its
    // pathTests, read when linked
    if (!helper)
      return [{ helper: shallowExpr(ctx, u.expression, scope), ...(QUERY_PROPS.test(prop) ? { query: true as const } : {}), ...(prop === 'href' ? { whole: true as const } : {}), ...(ROOT_PROPS.test(prop) ? { root: true as const } : {}) }];
    const before = aliases.get(helper.param);
    aliases.set(helper.param, prop!);
    helpersRead++;
    const alts = helper.tests.flatMap(alternatives);
    if (before === undefined) aliases.delete(helper.param);
    else aliases.set(helper.param, before);
    return alts;
  };
  // `key` of `const key = bearer || apiKey`, `const bearer = ctx.request?.headers?.authorization?.split(' ')[1]`,
  // `req.get('x-api-key')`, `req.cookies.token`: a value read off what the request carries (a
  // header, a cookie, the query string), which any request may leave out
  const carried = (e: TS.Expression, depth = 0): boolean => {
    const u = unwrap(ts, e);
    if (depth > 4) return false;
    if (ts.isIdentifier(u)) {
      const init = heldExprs.get(u.text);
      return init !== undefined && carried(init, depth + 1);
    }
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === K.BarBarToken || u.operatorToken.kind === K.QuestionQuestionToken)) return carried(u.left, depth + 1) && carried(u.right, depth + 1);
    for (let n: TS.Expression = u; ; ) {
      if (ts.isPropertyAccessExpression(n)) {
        if (CARRIED.test(n.name.text) && requestRooted(n.expression)) return true;
        n = unwrap(ts, n.expression);
      } else if (ts.isElementAccessExpression(n)) n = unwrap(ts, n.expression);
      else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
        const m = n.expression.name.text;
        // (`get` of a credential's name only: Hono's `c.get('user')` reads what a middleware set)
        const getter = CARRIED_GETTER.test(m) || (m === 'get' && CREDENTIAL_HEADER.test(textOf(ctx, n)));
        if (getter && requestRooted(n.expression.expression)) return true;
        n = unwrap(ts, n.expression.expression);
      } else return false;
    }
  };
  // The requests a condition lets through that its `||` alternatives say: an alternative that
  // tests something else (`req.session.user`, a header) may let more through, but none of them
  // for its URL alone, so it is left out
  const alternatives = (e: TS.Expression): SkipFor[] => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.BarBarToken) return [...alternatives(u.left), ...alternatives(u.right)];
    // `isPublicRoute && !key` (lunary's): a request carrying no credential passes where the
    // rest of the test holds, and anyone may send one so
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.AmpersandAmpersandToken) {
      const rest = joined(ts, u, K.AmpersandAmpersandToken, (c) => [c])!.filter((c) => !(ts.isPrefixUnaryExpression(c) && c.operator === K.ExclamationToken && carried(c.operand)));
      if (rest.length === 1) return alternatives(rest[0]!);
    }
    if (ts.isIdentifier(u) && heldTests.has(u.text)) return heldTests.get(u.text)!;
    // `!req.path.startsWith('/api')`, `req.path !== '/'`: every request outside what the test holds for
    if (ts.isPrefixUnaryExpression(u) && u.operator === K.ExclamationToken) return outside(u.operand);
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === K.ExclamationEqualsEqualsToken || u.operatorToken.kind === K.ExclamationEqualsToken)) {
      const equal = unequal(u);
      return equal.length > 0 ? [{ except: equal }] : [];
    }
    return alternative(u) ?? calledHelper(u);
  };
  // `isPublicPath(req.path)`, `routes.isPublic(req.path)`
  const calledHelper = (u: TS.Expression): SkipFor[] =>
    ts.isCallExpression(u) && (ts.isIdentifier(u.expression) || ts.isPropertyAccessExpression(u.expression)) ? helperCall(u) : [];
  // The requests a condition holds for, read whole: every `||` alternative a test of the URL or
  // the method, or a helper's (null when one tests anything else, or is not read)
  const exactly = (e: TS.Expression): SkipFor[] | null => {
    const u = unwrap(ts, e);
    // (a local holding the test: `const isOnDashboard = nextUrl.pathname.startsWith('/dashboard')`;
    // set aside while its own test is read)
    if (ts.isIdentifier(u) && heldExprs.has(u.text)) {
      const held = heldExprs.get(u.text)!;
      heldExprs.delete(u.text);
      const read = exactly(held);
      heldExprs.set(u.text, held);
      return read;
    }
    // `!pathname.startsWith('/dashboard')`: every request outside those
    if (ts.isPrefixUnaryExpression(u) && u.operator === K.ExclamationToken) {
      const negated = exactly(u.operand);
      return negated && [{ except: negated }];
    }
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.BarBarToken) {
      // (`req.path?.includes('/files/') || false`, OpenSign's: what the other side holds for)
      if (unwrap(ts, u.right).kind === K.FalseKeyword) return exactly(u.left);
      if (unwrap(ts, u.left).kind === K.FalseKeyword) return exactly(u.right);
      const l = exactly(u.left);
      const r = l && exactly(u.right);
      return l && r && [...l, ...r];
    }
    // `pathname !== '/'`: every request but those
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === K.ExclamationEqualsEqualsToken || u.operatorToken.kind === K.ExclamationEqualsToken)) {
      const equal = unequal(u);
      return equal.length > 0 ? [{ except: equal }] : null;
    }
    const alt = alternative(u);
    if (alt) return alt.length > 0 ? alt : null;
    // `!pathname.startsWith('/auth') && pathname !== '/'`: the requests none of its conjuncts is false for
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.AmpersandAmpersandToken) {
      const l = exactly(u.left);
      const r = l && exactly(u.right);
      if (l && r) return [{ except: [...complement(l), ...complement(r)] }];
    }
    const read = calledHelper(u);
    return read.length > 0 ? read : null;
  };
  // The requests a condition is false for: those outside what it holds for, read whole (none
  // when it is not)
  const outside = (e: TS.Expression): SkipFor[] => {
    const held = exactly(e);
    return held ? [{ except: held }] : [];
  };
  // `for (const p of PUBLIC) if (req.path.startsWith(p)) return next();`, as `PUBLIC.some((p) => req.path.startsWith(p))`
  const loopSkips = (stmt: TS.ForOfStatement): SkipFor[] | null => {
    const decl = ts.isVariableDeclarationList(stmt.initializer) && stmt.initializer.declarations.length === 1 ? stmt.initializer.declarations[0]!.name : null;
    const inner = ts.isBlock(stmt.statement) && stmt.statement.statements.length === 1 ? stmt.statement.statements[0]! : stmt.statement;
    if (!decl || !ts.isIdentifier(decl) || !ts.isIfStatement(inner) || inner.elseStatement || !passes(inner.thenStatement)) return null;
    const list = shallowExpr(ctx, stmt.expression, scope);
    return itemTests(decl.text, inner.expression).flatMap((t) => skipOf({ ...t, list }, {}) ?? []);
  };
  const out: SkipFor[] = [];
  // `if (!PUBLIC.includes(req.path) && !req.session.user) return res.sendStatus(401);`, `if
  // (!isPublic(req.path)) { …the check… }`: the requests that a negated conjunct's test holds for
  // make the condition false, and skip the branch; so do those outside what a conjunct testing
  // the URL or the method holds for (`if (req.path.startsWith('/admin')) { …the check… }`)
  const falsifying = (e: TS.Expression): SkipFor[] => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.AmpersandAmpersandToken) return [...falsifying(u.left), ...falsifying(u.right)];
    if (ts.isPrefixUnaryExpression(u) && u.operator === K.ExclamationToken) return alternatives(u.operand);
    return ts.isBinaryExpression(u) && (u.operatorToken.kind === K.ExclamationEqualsEqualsToken || u.operatorToken.kind === K.ExclamationEqualsToken) ? unequal(u) : outside(u);
  };
  // `req.method !== 'GET'`, `req.path !== '/health'`: the requests the comparison is false for
  const unequal = (u: TS.BinaryExpression): SkipFor[] => {
    const [l, r] = [unwrap(ts, u.left), unwrap(ts, u.right)];
    const [side, lit] = requestProp(l) !== null ? [l, r] : [r, l];
    const prop = requestProp(side);
    if (prop === null || !ts.isStringLiteralLike(lit)) return [];
    if (prop === 'method') return [{ method: lit.text.toUpperCase() }];
    const skip = PATH_PROPS.test(prop) || QUERY_PROPS.test(prop) ? skipOf({ prop, test: 'equals', lit: lit.text }, {}) : null;
    return skip ? [skip] : [];
  };
  // `{ return res.status(401).json(…) }`, `{ throw … }`: a branch that ends with a refusal
  const refuses = (s: TS.Statement): boolean => {
    const stmts = ts.isBlock(s) ? s.statements : [s];
    const end = stmts[stmts.length - 1];
    if (!end) return false;
    if (ts.isThrowStatement(end)) return true;
    const r = ts.isReturnStatement(end) && end.expression ? unwrap(ts, end.expression) : undefined;
    return !!r && (isResponseCall(ts, r) || isResponse(ts, r)) && !isNextCall(r);
  };
  // `next();`, `return next();`, `await next();` and nothing else: the function hands the request on
  // (at the top of a `try`, only by returning: what follows the `try` runs otherwise); in the
  // function's own body, also `await next();` followed by anything: what runs once the route
  // has answered (logto's device-flow shortcut reworks a response body) refuses it nothing
  const handsOn = (stmts: readonly TS.Statement[], top: boolean): boolean =>
    stmts.length > 0 &&
    ((stmts.length === 1 && callsWrapped(stmts[0]!)) ||
      (top && ts.isExpressionStatement(stmts[0]!) && isNextCall(stmts[0].expression)) ||
      ((top || ts.isReturnStatement(stmts[stmts.length - 1]!)) &&
        stmts.every((st) => (ts.isExpressionStatement(st) && isNextCall(st.expression)) || (ts.isReturnStatement(st) && passes(st)))));
  const calls = (n: TS.Node): boolean => ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isAwaitExpression(n) || !!ts.forEachChild(n, (c) => (calls(c) ? true : undefined));
  // the locals a branch gives values, when that is all it does (no call made); null otherwise
  const localsSet = (s: TS.Statement): string[] | null => {
    const names: string[] = [];
    for (const st of ts.isBlock(s) ? s.statements : [s]) {
      const e = ts.isExpressionStatement(st) ? unwrap(ts, st.expression) : null;
      if (!e || !ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isIdentifier(e.left) || calls(e.right)) return null;
      names.push(e.left.text);
    }
    return names.length > 0 ? names : null;
  };
  const declare = (stmt: TS.VariableStatement): void => {
    recordAliases(stmt);
    for (const d of stmt.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer) continue;
      const alts = alternatives(d.initializer);
      if (alts.length > 0) heldTests.set(d.name.text, alts);
      heldExprs.set(d.name.text, d.initializer);
    }
  };
  // (`fallsOn`: what follows `stmts`, once they end, hands the request on — a branch read
  // whose `if` is followed by `next()`)
  const leading = (stmts: readonly TS.Statement[], top: boolean, fallsOn = false): void => {
    for (let i = 0; i < stmts.length; i++) {
      const stmt = stmts[i]!;
      if (ts.isVariableStatement(stmt)) {
        declare(stmt);
        continue;
      }
      if (ts.isTryStatement(stmt) && out.length === 0) return leading(stmt.tryBlock.statements, false);
      // `console.log(req.method, req.url)`, `res.header(…)`: a log or a header set changes nothing
      if (isPassiveStatement(ts, stmt)) continue;
      if (ts.isForOfStatement(stmt)) {
        const loop = loopSkips(stmt);
        if (!loop) return;
        out.push(...loop);
        continue;
      }
      if (!ts.isIfStatement(stmt)) return;
      const otherwise = stmt.elseStatement;
      // `if (!url) return;`: every request has a URL, so the branch lets none through
      const test = unwrap(ts, stmt.expression);
      if (!otherwise && ts.isPrefixUnaryExpression(test) && test.operator === ts.SyntaxKind.ExclamationToken && urlProp(test.operand)) continue;
      // requests a branch answers itself (`/ping`) never reach a route: the allowlist goes on after it
      if (!otherwise && answers(stmt.thenStatement)) continue;
      // `if (!SUPPORTED.includes(code)) { code = DEFAULT }`: a branch that only gives locals values
      // (no call made) lets every request on its way: the allowlist goes on after it, those
      // locals no longer known
      // `if (!settings.allowIframe) res.setHeader('Content-Security-Policy', …)`: a branch that only
      // sets headers or logs lets every request on its way too
      if (!otherwise && (ts.isBlock(stmt.thenStatement) ? stmt.thenStatement.statements : [stmt.thenStatement]).every((st) => isPassiveStatement(ts, st))) continue;
      const set = otherwise ? null : localsSet(stmt.thenStatement);
      if (set) {
        for (const name of set) {
          aliases.delete(name);
          heldExprs.delete(name);
          heldTests.delete(name);
          parsedUrls.delete(name);
        }
        continue;
      }
      // `if (…) next(); else …` as the function's last statement hands on as a return would
      const last = top && i === stmts.length - 1;
      const thenPasses = (s: TS.IfStatement): boolean =>
        passes(s.thenStatement) || (last && !!s.elseStatement && handsOn(ts.isBlock(s.thenStatement) ? s.thenStatement.statements : [s.thenStatement], true));
      if (thenPasses(stmt)) {
        const alts = alternatives(stmt.expression);
        if (alts.length > 0) passing?.push(stmt);
        out.push(...alts);
        if (!otherwise) continue;
        // `… else if (isPublic(req.path)) return next(); else { …the check… }`: each condition
        // handing on, for the requests the ones before did not; the reading ends with the check
        for (let e: TS.Statement | undefined = otherwise; e && ts.isIfStatement(e) && thenPasses(e); e = e.elseStatement) out.push(...alternatives(e.expression));
        return;
      }
      const rest = stmts.slice(i + 1);
      // What the branch holding the check lets through on its way (`if (URL_RE.test(req.path)) {
      // if (PUBLIC.some((url) => req.path.startsWith(url))) next(); else { …the check… } } else
      // next()`) is read as if every request came to it: those of them the test fails for are let
      // through anyway, so the skips read are a superset of the requests let through.
      const within = (s: TS.Statement, atEnd: boolean, on = false): void => leading(ts.isBlock(s) ? s.statements : [s], atEnd, on);
      // (the last `if` of a branch whose `if` is followed by `next()`: audiobookshelf's CORS
      // middleware answers preflights only `if (allowed) { …headers; if (req.method === 'OPTIONS')
      // return res.sendStatus(200) }`, before its `next()`)
      if (!otherwise && (handsOn(rest, top) || (top && endHandsOn && rest.length === 0) || (fallsOn && rest.length === 0))) {
        out.push(...falsifying(stmt.expression));
        within(stmt.thenStatement, false, true);
      }
      // `if (c.req.method !== 'GET') { …the check… } else { await next() }` as the function's last
      // statement: the requests the test fails for are handed on untouched
      else if (last && otherwise && !ts.isIfStatement(otherwise) && handsOn(ts.isBlock(otherwise) ? otherwise.statements : [otherwise], true)) {
        out.push(...falsifying(stmt.expression));
        within(stmt.thenStatement, true);
      }
      // `if (URL_CASE_SENSITIVE_REGEX.test(req.path)) { …the check… } else { return res.status(401)… }`
      // as the function's last statement: the requests the test fails for are refused
      else if (last && otherwise && !ts.isIfStatement(otherwise) && refuses(otherwise)) within(stmt.thenStatement, true);
      return;
    }
  };
  if ('param' in read) {
    aliases.set(read.param, 'path');
    return read.tests.flatMap(alternatives);
  }
  if ('escapes' in read) {
    read.locals.forEach(declare);
    // each test the request must pass (`holds`) or fail to be refused: those failing it, or passing it, escape
    return read.escapes.flatMap(({ e, holds }) => {
      const tested = exactly(e);
      if (!tested) read.unread.push(e);
      return !tested ? [] : holds ? [{ except: tested }] : tested;
    });
  }
  leading(read.statements, true);
  return out;
}

/** The requests outside `skips` (those of `x` for `[{ except: x }]`). */
function complement(skips: SkipFor[]): SkipFor[] {
  return skips.length === 1 && 'except' in skips[0]! ? skips[0].except : [{ except: skips }];
}

/**
 * Does skippedRequests' reading of a body (`leading`) come to an `if` or a `for … of`, past
 * declarations, log lines and header sets, and into a leading `try`? It reads nothing else.
 */
function readsTests(ts: TSModule, stmts: readonly TS.Statement[]): boolean {
  for (const stmt of stmts) {
    if (ts.isVariableStatement(stmt)) continue;
    if (ts.isTryStatement(stmt)) return readsTests(ts, stmt.tryBlock.statements);
    if (isPassiveStatement(ts, stmt)) continue;
    return ts.isIfStatement(stmt) || ts.isForOfStatement(stmt);
  }
  return false;
}

/**
 * Tests of the request under which a function refuses one (`escapes`, read by skippedRequests
 * after the declarations `locals`: the requests that escape a refusal), and those that are no
 * test of its URL or method read whole (`unread`).
 */
interface Escapes {
  locals: TS.VariableStatement[];
  escapes: { e: TS.Expression; holds: boolean }[];
  unread: TS.Expression[];
}

/**
 * An Auth.js `callbacks.authorized({ auth, request })` (read at next-auth 5; NextAuth v4's
 * `withAuth` hands it `{ token, req }`): for which requests it refuses one without a signed-in
 * user. Its body is read as a tree of `if`s (after
 * declarations, and log lines and header sets) ending in returns: `true` lets the request through; `false`, a
 * response (`Response.redirect(…)`; `NextResponse.next()` lets it through) or what says whether a user is signed in (`!!auth?.user`,
 * a local holding it) refuses it, but for a branch only a signed-in user reaches (`all`); only
 * a response does for a function `auth(fn)` wraps, which runs on a `false` (`wrapped`). Refused only
 * where the user is not signed in, under no other test: every request (`always`); under tests
 * of the URL or the method read whole, all on one branch: every request but those escaping
 * them (`unless`); nowhere, `never`. Anything else is `unknown`; null for a function whose
 * first parameter does not name `auth` (or `token`).
 */
function authorization(ctx: Ctx, fnNode: TS.Node, body: TS.Node, scope: number): { all: NonNullable<Behaviour['authorizes']>; wrapped: NonNullable<Behaviour['authorizes']> } | null {
  const { ts } = ctx;
  const fn = fnNode as TS.FunctionLikeDeclaration;
  const first = fn.parameters ? runtimeParameters(ts, fn)[0]?.name : undefined;
  if (!first || !ts.isObjectBindingPattern(first)) return null;
  // `{ auth }`, `{ auth: session }`: the element of `key`
  const keyOf = (el: TS.BindingElement): string | null => {
    const key = el.propertyName ?? el.name;
    return !el.dotDotDotToken && ts.isIdentifier(key) ? key.text : null;
  };
  const named = (key: string): TS.BindingElement | undefined => first.elements.find((el) => keyOf(el) === key);
  // (NextAuth v4's is handed `{ token, req }`)
  const authEl = named('auth') ?? named('token');
  if (!authEl || !ts.isIdentifier(authEl.name)) return null;
  const unknown: Protection = { unknown: true };
  // the request, or its `nextUrl`: `{ request }`, `{ request: { nextUrl } }`, v4's `{ req }`
  const requestEl = named('request') ?? named('req');
  let reqName = '';
  if (requestEl && ts.isIdentifier(requestEl.name)) reqName = requestEl.name.text;
  else if (requestEl && ts.isObjectBindingPattern(requestEl.name)) {
    const nextUrl = requestEl.name.elements.find((el) => keyOf(el) === 'nextUrl');
    if (nextUrl && ts.isIdentifier(nextUrl.name)) reqName = nextUrl.name.text;
  }
  // names saying whether a user is signed in: `auth`, `const isLoggedIn = !!auth?.user`
  const signedInNames = new Set([authEl.name.text]);
  const signedIn = (e: TS.Expression): boolean => {
    let u = unwrap(ts, e);
    while (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && ts.isPrefixUnaryExpression(unwrap(ts, u.operand))) u = unwrap(ts, (unwrap(ts, u.operand) as TS.PrefixUnaryExpression).operand);
    if (ts.isCallExpression(u) && ts.isIdentifier(u.expression) && u.expression.text === 'Boolean' && u.arguments.length === 1) u = unwrap(ts, u.arguments[0]!);
    if (ts.isPropertyAccessExpression(u) && u.name.text === 'user') u = unwrap(ts, u.expression);
    return ts.isIdentifier(u) && signedInNames.has(u.text);
  };
  const locals: TS.VariableStatement[] = [];
  // the conditions of each branch that refuses a request, the user not being signed in, and
  // whether it refuses by a response (the only refusal a function `auth(fn)` wraps heeds)
  const refusals: { conds: { e: TS.Expression; holds: boolean }[]; byResponse: boolean }[] = [];
  let unread = false;
  // Reads `stmts` under `conds`; whether they always return.
  const walk = (stmts: readonly TS.Statement[], conds: { e: TS.Expression; holds: boolean }[]): boolean => {
    let under = conds;
    for (const st of stmts) {
      if (ts.isVariableStatement(st) && under === conds) {
        locals.push(st);
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer && signedIn(d.initializer)) signedInNames.add(d.name.text);
        continue;
      }
      if (isPassiveStatement(ts, st)) continue;
      if (ts.isIfStatement(st)) {
        const thenReturns = walk(ts.isBlock(st.thenStatement) ? st.thenStatement.statements : [st.thenStatement], [...under, { e: st.expression, holds: true }]);
        const otherwise = st.elseStatement;
        const elseReturns = otherwise ? walk(ts.isBlock(otherwise) ? otherwise.statements : [otherwise], [...under, { e: st.expression, holds: false }]) : false;
        if (thenReturns && elseReturns) return true;
        if (thenReturns) under = [...under, { e: st.expression, holds: false }];
        else if (otherwise && elseReturns) under = [...under, { e: st.expression, holds: true }];
        else if (otherwise) unread = true;
        continue;
      }
      if (ts.isReturnStatement(st)) {
        returned(st.expression, under);
        return true;
      }
      unread = true;
      return true;
    }
    return false;
  };
  const returned = (e: TS.Expression | undefined, conds: { e: TS.Expression; holds: boolean }[]): void => {
    const u = e ? unwrap(ts, e) : undefined;
    // a branch only a signed-in user reaches refuses no one for that
    if (conds.some((c) => c.holds && signedIn(c.e)) || (conds.some((c) => !c.holds && negatedSignedIn(c.e)))) return;
    if (u?.kind === ts.SyntaxKind.TrueKeyword || (u && isNextResponseNext(ts, u))) return;
    if (u && isResponse(ts, u)) refusals.push({ conds, byResponse: true });
    else if (u?.kind === ts.SyntaxKind.FalseKeyword) refusals.push({ conds, byResponse: false });
    else if (u && signedIn(u)) refusals.push({ conds: [...conds, { e: u, holds: false }], byResponse: false });
    else unread = true;
  };
  const negatedSignedIn = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    return ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && signedIn(u.operand);
  };
  const bodyStmts = ts.isBlock(body) ? body.statements : null;
  if (bodyStmts) {
    if (!walk(bodyStmts, [])) unread = true;
  } else returned(body as TS.Expression, []);
  if (unread) return { all: unknown, wrapped: unknown };
  return { all: protectionOf(refusals.map((r) => r.conds)), wrapped: protectionOf(refusals.filter((r) => r.byResponse).map((r) => r.conds)) };

  /** For which requests these refusals (each a branch's conditions) refuse one without a signed-in user. */
  function protectionOf(refusals: { e: TS.Expression; holds: boolean }[][]): NonNullable<Behaviour['authorizes']> {
    if (refusals.length === 0) return { never: true };
    // each refusal made where the user is not signed in, and its other conditions tests of the request
    const tests: { e: TS.Expression; holds: boolean }[][] = [];
    for (const conds of refusals) {
      const anonymous = conds.some((c) => (!c.holds && signedIn(c.e)) || (c.holds && negatedSignedIn(c.e)));
      if (!anonymous) return unknown;
      tests.push(conds.filter((c) => !signedIn(c.e) && !negatedSignedIn(c.e)));
    }
    // (`if (a) refuse; if (b) refuse`: the second runs where `a` does not hold, but refusing where
    // `a` holds or where `!a && b` is refusing where `a` or `b` does)
    const sole = tests.flatMap((t) => (t.length === 1 && t[0]!.holds ? [t[0]!.e] : []));
    for (let i = 0; i < tests.length; i++) if (tests[i]!.length > 1) tests[i] = tests[i]!.filter((c) => c.holds || !sole.includes(c.e));
    if (tests.some((t) => t.length === 0)) return { always: true };
    if (reqName === '') return unknown;
    // what each refusal lets through: the requests its tests do not all hold for
    const each: SkipFor[][] = [];
    for (const t of tests) {
      const escapes: Escapes = { locals, escapes: t, unread: [] };
      const skips = skippedRequests(ctx, scope, reqName, null, escapes);
      if (escapes.unread.length > 0) return unknown;
      each.push(skips);
    }
    // a request is let through when it escapes every refusal: with one refusal under a test of
    // the URL per branch (`if (onDashboard) …`, `if (onAdmin) …`), every request outside all the
    // tests; else every request none of the refusals' complements is
    if (each.length === 1) return { unless: each[0]! };
    const outsides = each.map((skips) => (skips.length === 1 && 'except' in skips[0]! ? skips[0].except : null));
    if (outsides.every((x) => x !== null)) return { unless: [{ except: outsides.flatMap((x) => x!) }] };
    return { unless: [{ except: each.map((skips) => ({ except: skips })) }] };
  }
}

/** A log line (`console.log(…)`, `logger.info(…)`) or a response header set (isHeaderWrite): a statement that changes nothing a guard decides. */
function isPassiveStatement(ts: TSModule, st: TS.Statement): boolean {
  if (!ts.isExpressionStatement(st)) return false;
  const e = unwrap(ts, st.expression);
  return (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ts.isIdentifier(e.expression.expression) && /^(console|logger|log)$/.test(e.expression.expression.text)) || isHeaderWrite(ts, e);
}

/** The methods that set a response's header (Express `res.header` / `set` / `append` / `vary`, Node's `setHeader`, Koa's `ctx.set`, Hono's `c.header`, Fastify's `reply.header`). */
const HEADER_WRITE = /^(header|setHeader|set|append|vary)$/;

/**
 * `res.header('Access-Control-Allow-Origin', '*')`, `res.set(…).vary('Origin')`, `ctx.response.set(…)`:
 * a header set on what a name holds, which refuses no request, as a log line does not (a CORS
 * middleware's lines before `if (req.method === 'OPTIONS') return res.sendStatus(204)`).
 */
function isHeaderWrite(ts: TSModule, e: TS.Expression): boolean {
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression) || !HEADER_WRITE.test(e.expression.name.text)) return false;
  let on = unwrap(ts, e.expression.expression);
  while (ts.isCallExpression(on) && ts.isPropertyAccessExpression(on.expression) && HEADER_WRITE.test(on.expression.name.text)) on = unwrap(ts, on.expression.expression);
  return ts.isIdentifier(on) || (ts.isPropertyAccessExpression(on) && on.name.text === 'response' && ts.isIdentifier(on.expression));
}

/** `NextResponse.next()`: a Next.js middleware hands the request on. */
function isNextResponseNext(ts: TSModule, e: TS.Expression): boolean {
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'next' && ts.isIdentifier(e.expression.expression) && e.expression.expression.text === 'NextResponse';
}

/**
 * `Response.redirect(…)`, `NextResponse.json(…)`, `new Response(…)`: a response made in place
 * (not `NextResponse.next()`, which hands the request on).
 */
function isResponse(ts: TSModule, u: TS.Expression): boolean {
  if (ts.isNewExpression(u)) return isNewResponse(ts, u);
  return ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && ts.isIdentifier(u.expression.expression) && /^(Response|NextResponse)$/.test(u.expression.expression.text) && /^(json|redirect)$/.test(u.expression.name.text);
}

/**
 * Where a Clerk `clerkMiddleware` handler `(auth, req) => …` calls `auth.protect()` (or v5's
 * `auth().protect()`), as a statement of its body: first and alone (`always`), or as the one
 * statement of an `if` whose test is a call handing the request to a matcher, negated (`if
 * (!isPublicRoute(req))`: `unless`) or not (`if (isProtectedRoute(req))`: `only`), several
 * joined by `||`. Any other place is `unknown`; null when it calls no `protect()`.
 */
function protection(ctx: Ctx, body: TS.Block, scope: number, authName: string, reqName: string): Protection | null {
  const { ts } = ctx;
  const isProtect = (st: TS.Statement): boolean => {
    const only = ts.isBlock(st) && st.statements.length === 1 ? st.statements[0]! : st;
    const e = ts.isExpressionStatement(only) ? unwrap(ts, only.expression) : ts.isReturnStatement(only) && only.expression ? unwrap(ts, only.expression) : null;
    if (!e || !ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression) || e.expression.name.text !== 'protect') return false;
    const on = unwrap(ts, e.expression.expression);
    const callee = ts.isCallExpression(on) && on.arguments.length === 0 ? unwrap(ts, on.expression) : on;
    return ts.isIdentifier(callee) && callee.text === authName;
  };
  // `isPublicRoute(req) || isWebhook(req)`: the matchers handed the request, or null
  const matchers = (e: TS.Expression): SkipFor[] | null => joined(ts, e, ts.SyntaxKind.BarBarToken, matcher);
  const matcher = (u: TS.Expression): SkipFor[] | null => {
    // (`isPublicRoute(req)`, `matchers.isPublic(req)`, `createRouteMatcher([…])(req)`)
    if (!ts.isCallExpression(u) || u.arguments.length !== 1 || !(ts.isIdentifier(u.expression) || ts.isPropertyAccessExpression(u.expression) || ts.isCallExpression(u.expression))) return null;
    const arg = unwrap(ts, u.arguments[0]!);
    return ts.isIdentifier(arg) && arg.text === reqName ? [{ helper: shallowExpr(ctx, u.expression, scope), request: true }] : null;
  };
  // `if (isPublicRoute(req)) return;` before it: requests it lets through first
  const early: SkipFor[] = [];
  // a statement before it that may return under a test not read (`if (pathname.startsWith('/api/')) return;`)
  let unclear = false;
  let found = false;
  let returns = false;
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'protect') found = true;
    if (ts.isReturnStatement(n)) returns = true;
    if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  for (const st of body.statements) {
    if (isProtect(st)) return unclear ? { unknown: true } : early.length > 0 ? { unless: early } : { always: true };
    if (ts.isIfStatement(st) && !st.elseStatement && isProtect(st.thenStatement)) {
      const test = unwrap(ts, st.expression);
      const negated = ts.isPrefixUnaryExpression(test) && test.operator === ts.SyntaxKind.ExclamationToken;
      const named = matchers(negated ? test.operand : test);
      if (!named || unclear || (!negated && early.length > 0)) return { unknown: true };
      return negated ? { unless: [...early, ...named] } : { only: named };
    }
    if (ts.isIfStatement(st) && !st.elseStatement) {
      const then = ts.isBlock(st.thenStatement) ? st.thenStatement.statements[st.thenStatement.statements.length - 1] : st.thenStatement;
      const named = then && ts.isReturnStatement(then) ? matchers(st.expression) : null;
      if (named) {
        early.push(...named);
        continue;
      }
    }
    visit(st);
    if (found) return { unknown: true };
    if (returns) unclear = true;
  }
  return null;
}

/**
 * A function of the file's top level named `name` with one parameter whose body returns a test:
 * one returned expression (`function isPublic(path) { return … }`, `const isPublic = (path) =>
 * …`), or `if (a) return true;` statements before it (`if (OPEN.includes(path)) return true;
 * return path.startsWith('/auth/');`). That parameter, and the tests it returns true for.
 */
function returnedTests(ts: TSModule, sf: TS.SourceFile, name: string): { param: string; tests: TS.Expression[] } | null {
  for (const stmt of sf.statements) {
    if (ts.isFunctionDeclaration(stmt) && stmt.name?.text === name) return testsOf(ts, stmt);
    if (!ts.isVariableStatement(stmt)) continue;
    for (const d of stmt.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
      const init = unwrap(ts, d.initializer);
      return ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? testsOf(ts, init) : null;
    }
  }
  return null;
}

/** A function of one parameter whose body returns a test (returnedTests): that parameter, and the tests it returns true for. */
function testsOf(ts: TSModule, f: TS.FunctionLikeDeclaration): { param: string; tests: TS.Expression[] } | null {
  const params = runtimeParameters(ts, f);
  const p = params.length === 1 ? params[0]!.name : null;
  if (!p || !ts.isIdentifier(p) || !f.body) return null;
  if (!ts.isBlock(f.body)) return { param: p.text, tests: [f.body] };
  const stmts = f.body.statements;
  const last = stmts[stmts.length - 1];
  if (!last || !ts.isReturnStatement(last) || !last.expression) return null;
  const tests: TS.Expression[] = [];
  for (const st of stmts.slice(0, -1)) {
    if (!ts.isIfStatement(st) || st.elseStatement || !returnsTrue(ts, st.thenStatement)) return null;
    tests.push(st.expression);
  }
  return { param: p.text, tests: [...tests, last.expression] };
}

/** `return true;`, alone or in a block. */
function returnsTrue(ts: TSModule, s: TS.Statement): boolean {
  const only = ts.isBlock(s) && s.statements.length === 1 ? s.statements[0]! : s;
  return ts.isReturnStatement(only) && !!only.expression && unwrap(ts, only.expression).kind === ts.SyntaxKind.TrueKeyword;
}

/** `(req, res, next) => next()`: an arrow function whose body is only its `next` called with nothing (Directus's disabled rate limiter). */
function onlyCallsNext(ts: TSModule, body: TS.Node, nextName: string): boolean {
  const c = unwrap(ts, body as TS.Expression);
  return ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName && c.arguments.length === 0;
}

/**
 * `await next();` (or `return next()`) before anything that could end the request — only a log
 * (`console.*(…)`) or a clock read (`const startedAt = Date.now()`) may come first — in the
 * body, or first in a leading `try`.
 */
function startsWithNext(ctx: Ctx, body: TS.Block, nextName: string): boolean {
  const { ts } = ctx;
  const callText = (e: TS.Expression | undefined): string | null => {
    const c = e ? unwrap(ts, e) : undefined;
    return c && ts.isCallExpression(c) ? textOf(ctx, c.expression) : null;
  };
  for (const stmt of body.statements) {
    if (ts.isTryStatement(stmt)) return startsWithNext(ctx, stmt.tryBlock, nextName);
    const e = ts.isExpressionStatement(stmt) ? stmt.expression : ts.isReturnStatement(stmt) ? stmt.expression : undefined;
    const called = callText(e);
    // `next()`: `next(err)` ends the request with an error instead
    if (called === nextName) return (unwrap(ts, e!) as TS.CallExpression).arguments.length === 0;
    if (called !== null && ts.isExpressionStatement(stmt) && /^console\.\w+$/.test(called)) continue;
    if (ts.isVariableStatement(stmt) && stmt.declarationList.declarations.every((d) => !d.initializer || CLOCK_READ.test(callText(d.initializer) ?? ''))) continue;
    return false;
  }
  return false;
}

const CLOCK_READ = /^(Date\.now|performance\.now|process\.hrtime(\.bigint)?)$/;

/**
 * The names a function's one parameter, an object pattern, binds, each with the property it
 * reads (`({ ctx, next: go }) => …`: ctx of ctx, go of next), as makeFunctionIn bound them.
 */
function destructuredParam(ctx: Ctx, f: FunctionFact): [name: string, prop: string][] {
  if (f.params.length !== 1 || f.params[0] !== '') return [];
  const scope = ctx.facts.scopes[f.scope]!;
  return Object.keys(scope.bindings).flatMap((name): [string, string][] => {
    const b = bindingOf(scope, name);
    return b?.k === 'member' && b.obj.k === 'param' && b.obj.fn === f.id && b.obj.index === 0 ? [[name, b.prop]] : [];
  });
}

/**
 * A call that runs the callback it is given in a context it makes (AsyncLocalStorage's
 * `storage.run(store, callback)`, a helper named for it, `runWithAlsSession(id, callback)`), and
 * Sentry's calls that run theirs at once in a scope or span of their own (`Sentry.withIsolationScope(async () =>
 * { … })`, kaneo's API middleware; read at @sentry/core 9: withScope, withIsolationScope,
 * withActiveSpan, startSpan return what the callback returns).
 */
const RUNS_CALLBACK = /^(?:run(?![a-z])|withIsolationScope$|withScope$|withActiveSpan$|startSpan$)/;

/**
 * The names a function's one parameter, an object pattern, gives the request or its context
 * (`ctx` of a tRPC middleware's `({ ctx, next })`, `context` of oRPC's): read as a request
 * parameter is.
 */
function destructuredRequest(ctx: Ctx, f: FunctionFact): string[] {
  return destructuredParam(ctx, f).flatMap(([name, prop]) => (REQUEST_NAMES.test(name) && prop === name ? [name] : []));
}

/**
 * The callback a call named for running it in a context is given last, with a block body and no
 * parameters (`runWithAlsSession(id, async () => { … })`, `storage.run(store, () => { … })`), the
 * one a resolved promise's `then` runs before its `catch` (settledCallback), or a function called
 * where it is written (calledInPlace): its statements and its scope; null for any other expression.
 */
function contextCallback(ctx: Ctx, e: TS.Expression | undefined): { statements: readonly TS.Statement[]; scope: number } | null {
  const cb = runCallback(ctx.ts, e)?.cb ?? settledCallback(ctx.ts, e) ?? calledInPlace(ctx.ts, e);
  if (!cb || !ctx.ts.isBlock(cb.body)) return null;
  const id = ctx.fnIds.get(cb);
  const fn = id === undefined ? undefined : ctx.facts.functions[id];
  return fn ? { statements: cb.body.statements, scope: fn.scope } : null;
}

/**
 * `Promise.resolve().then(async () => { …checks…; next() }).catch((err) => { res.status(403); … })`
 * (Lighthouse CI's token middlewares): the callback runs as part of the function, what it throws
 * handed to the `catch` — as a `try … catch` of its statements; null for any other expression.
 */
function settledCallback(ts: TSModule, e: TS.Expression | undefined): TS.ArrowFunction | TS.FunctionExpression | null {
  const c = e ? unwrap(ts, e) : undefined;
  if (!c || !ts.isCallExpression(c) || c.arguments.length !== 1 || !ts.isPropertyAccessExpression(c.expression) || c.expression.name.text !== 'catch') return null;
  const then = unwrap(ts, c.expression.expression);
  if (!ts.isCallExpression(then) || then.arguments.length !== 1 || !ts.isPropertyAccessExpression(then.expression) || then.expression.name.text !== 'then') return null;
  const start = unwrap(ts, then.expression.expression);
  const resolved = ts.isCallExpression(start) && start.arguments.length === 0 && ts.isPropertyAccessExpression(start.expression) && start.expression.name.text === 'resolve' && ts.isIdentifier(start.expression.expression) && start.expression.expression.text === 'Promise';
  const cb = unwrap(ts, then.arguments[0]!);
  return resolved && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) && cb.parameters.length === 0 ? cb : null;
}

/** `(async () => { try { …checks…; next() } catch (err) { … } })()`: a function called where it is written, its statements run in place. */
function calledInPlace(ts: TSModule, e: TS.Expression | undefined): TS.ArrowFunction | TS.FunctionExpression | null {
  const c = e ? unwrap(ts, e) : undefined;
  if (!c || !ts.isCallExpression(c) || c.arguments.length !== 0) return null;
  const fn = unwrap(ts, c.expression);
  return (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && fn.parameters.length === 0 ? fn : null;
}

/** A call named for running its callback in a context (RUNS_CALLBACK), and that callback, given last and taking no parameters. */
function runCallback(ts: TSModule, e: TS.Expression | undefined): { call: TS.CallExpression; cb: TS.ArrowFunction | TS.FunctionExpression } | null {
  const c = e ? unwrap(ts, e) : undefined;
  if (!c || !ts.isCallExpression(c) || c.arguments.length === 0) return null;
  const name = calleeName(ts, c);
  if (!RUNS_CALLBACK.test(name) || MAY_REFUSE.test(name)) return null;
  const cb = unwrap(ts, c.arguments[c.arguments.length - 1]!);
  return (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) && cb.parameters.length === 0 ? { call: c, cb } : null;
}

/**
 * A test that the request names a tenant: `has('organizationId', input)`, `'orgId' in body`,
 * `input.organizationId`, `input.organizationId !== undefined` (a name of TENANT_RE).
 */
function namesTenant(ts: TSModule, e: TS.Expression): boolean {
  const u = unwrap(ts, e);
  const named = (x: TS.Expression): boolean => {
    const v = unwrap(ts, x);
    if (ts.isPropertyAccessExpression(v)) return TENANT_RE.test(v.name.text);
    return ts.isElementAccessExpression(v) && ts.isStringLiteralLike(v.argumentExpression) && TENANT_RE.test(v.argumentExpression.text);
  };
  if (ts.isCallExpression(u)) return u.arguments.some((a) => ts.isStringLiteralLike(a) && TENANT_RE.test(a.text));
  if (ts.isBinaryExpression(u)) {
    const op = u.operatorToken.kind;
    if (op === ts.SyntaxKind.InKeyword) return ts.isStringLiteralLike(u.left) && TENANT_RE.test(u.left.text);
    const nil = (x: TS.Expression): boolean => unwrap(ts, x).kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(unwrap(ts, x)) && (unwrap(ts, x) as TS.Identifier).text === 'undefined');
    if (op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken) return (named(u.left) && nil(u.right)) || (named(u.right) && nil(u.left));
    return false;
  }
  return named(u);
}

/**
 * A call that makes or reads a value (`createContextFromRequest(…)`, `getSession(…)`, `c.set('ctx', ctx)`,
 * `this.extractTokenFromRequest(request)`): not a check.
 */
export const MAKES_OR_READS = /^(get|set|load|read|fetch|find|create|make|build|init|parse|extract|decode)(?![a-z])/;
/** … unless its name says it may refuse: `getSessionOrThrow`, `requireUser`, `verifyToken`, `loadAndCheckUser`. */
const MAY_REFUSE = /throw|require|ensure|assert|verif|check|valid|guard|protect|must|deny|reject|refuse|authori[sz]|authenticat/i;
/**
 * A call named for a write (`db.items.deleteItem(id)`, `settings.regenerateApiKey()`,
 * `db.delete(items).where(…)`, `Item.findByIdAndUpdate(…)`; MAY_REFUSE aside): the work of a
 * handler — a check after it no longer leads the handler, which has done the work.
 */
const WRITES = /^(soft)?(delete|del|remove|destroy|update|save|upsert|insert|rename|drop|purge|truncate|regenerate|rotate|reset|archive)(?![a-z])|^find(One|ById)And(Update|Delete|Remove|Replace)$/;
/**
 * Where a text may name a call WRITES matches: its words starting a name anywhere in the text (a
 * text without a match names none; a match in a string or a comment only makes a walk happen).
 */
const WRITE_WORD = new RegExp(WRITES.source.replace(/\^/g, '(?<![\\w$])').replace(/\$$/, ''));
/**
 * The words of WordSpans told apart by case (`method` as read off a request; WRITE_WORD's
 * `(?![a-z])` lets `deleteUser` through, which WORDS_RE's `i` would not), one group each.
 */
const CASED_WORDS_RE = new RegExp(`(method)|(${WRITE_WORD.source})`, 'g');
/** A digest or a cipher made, whose `update(…)` feeds it data: `createHash('sha256').update(password).digest('hex')`. */
const DIGEST = /^(create(Hmac|Hash|Sign|Verify|Cipheriv|Decipheriv)|digest)$/;
function writes(ts: TSModule, c: TS.CallExpression): boolean {
  let written = false;
  for (let x: TS.Expression = c; ts.isCallExpression(x); ) {
    const callee = unwrap(ts, x.expression);
    const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
    if (DIGEST.test(name)) return false;
    if (WRITES.test(name) && !MAY_REFUSE.test(name)) written = true;
    if (!ts.isPropertyAccessExpression(callee)) break;
    x = unwrap(ts, callee.expression);
  }
  return written;
}

/**
 * A log line written (`this.logger.warn(…)`, `console.error(…)`, `log.info(…)`) or a question
 * asked (`isDesktop()`, `this.flags.hasFeature(…)`): a call that refuses nothing (one named for a
 * check, `isAuthenticated(req)`, is still told by MAY_REFUSE).
 */
function logsOrAsks(ts: TSModule, c: TS.CallExpression): boolean {
  const callee = unwrap(ts, c.expression);
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  if (/^(is|has)[A-Z]/.test(name)) return true;
  if (!ts.isPropertyAccessExpression(callee) || !/^(log|warn|info|debug|error|trace|verbose|fatal)$/.test(name)) return false;
  const on = callee.expression;
  const held = ts.isIdentifier(on) ? on.text : ts.isPropertyAccessExpression(on) ? on.name.text : '';
  return /^console$|^_?log(ger)?$|Logger$/i.test(held);
}

/** A listener registered (`res.on('finish', () => record(req, res))`): its callback runs later, once the response is done. */
const LISTENS = /^(on|once|addListener|prependListener|prependOnceListener)$/;
/** A string's or an array's own methods (`authHeader.replace(/^Bearer\s+/i, '')`): they make values. */
const VALUE_METHODS = /^(replace|replaceAll|trim|trimStart|trimEnd|split|slice|substring|substr|toLowerCase|toUpperCase|startsWith|endsWith|includes|indexOf|join|concat|toString)$/;

/**
 * `async (c, next) => { const ctx = await createContextFromRequest(c.req.raw); c.set('ctx', ctx);
 * await next(); }`: the body's statements, in order, reach a `next()` at its top level, each before
 * it a declaration, an expression whose calls only make or read values (MAKES_OR_READS,
 * VALUE_METHODS) or register a listener (LISTENS: `res.on('finish', …)`), none named for a check
 * (MAY_REFUSE), an `if` whose test and branches are only such (Unleash's bearer-token
 * rewriter: `if (authHeader) { req.headers.authorization = authHeader.replace(…) }`), or a `try`
 * whose blocks are (Budibase's session lookup, its failure caught as no user). Such a
 * middleware loads what later code reads and hands every request on: whatever its name, it
 * refuses nothing. The function a wrapper makes hands on so by returning what it wraps called
 * with such values (`wrapped`, the wrapper's parameters: `return handler(req, { author })`).
 */
function handsOnAlways(
  ctx: Ctx,
  body: TS.Block,
  nextName: string | null,
  wrapped?: () => ReadonlySet<string> | undefined,
  pending?: TS.CallExpression[],
  reqName: string | null = null,
  params: readonly string[] = [],
  endHandsOn = false,
): boolean {
  const { ts } = ctx;
  // (a call of a named function, kept to be judged when linked: Behaviour.handsOnUnless)
  const named = (n: TS.CallExpression): boolean => {
    const callee = unwrap(ts, n.expression);
    return ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee);
  };
  // (handed none of the function's parameters — its request, response or next —, a call can
  // refuse only by throwing)
  const handedNoParam = (n: TS.CallExpression): boolean => !n.arguments.some((a) => ts.isIdentifier(unwrap(ts, a)) && params.includes((unwrap(ts, a) as TS.Identifier).text));
  // `caught`: in the block of a `try` whose `catch` goes on (`try { jwt.verify(token, secret) …
  // return next() } catch { return next() }`, runtipi's AuthMiddleware): what a call there throws is let go
  // (the request, or what it carries: `req`, `req.token`, `req.headers.authorization`, a getter's
  // answer, `c.req.header('authorization')`)
  const fromRequest = (a: TS.Expression): boolean => {
    const { root } = carriedChain(ts, a);
    return ts.isIdentifier(root) && root.text === reqName;
  };
  // (a getter of the request, `c.req.header('authorization')`, `req.get('x-api-key')`: it reads what the request carries)
  const requestGetter = (n: TS.CallExpression): boolean => ts.isPropertyAccessExpression(n.expression) && REQUEST_GETTER.test(n.expression.name.text) && fromRequest(n.expression.expression);
  // (a header or cookie of the response set, not sent: `res.clearCookie(name, options)`)
  const resName = params.length === 3 ? params[1] : undefined;
  const setsHeader = (n: TS.CallExpression): boolean => {
    const c = unwrap(ts, n.expression);
    return !!resName && ts.isPropertyAccessExpression(c) && RESPONSE_HEADER_WRITES.has(c.name.text) && ts.isIdentifier(c.expression) && c.expression.text === resName;
  };
  const passive = (n: TS.Node, caught = false): boolean => {
    if (ts.isFunctionLike(n)) return true;
    if (ts.isCallExpression(n)) {
      const name = calleeName(ts, n);
      if (
        (!(MAKES_OR_READS.test(name) || LISTENS.test(name) || VALUE_METHODS.test(name) || NUMBER_OR_TEXT.test(name) || logsOrAsks(ts, n) || setsHeader(n) || requestGetter(n) || (READS_CONTEXT.test(name) && n.arguments.length === 0)) || MAY_REFUSE.test(name)) &&
        !(caught && name !== nextName && handedNoParam(n))
      ) {
        // (each call once: a branch may be read twice, as passive and as handing on; its arguments
        // are read again below)
        if (!pending?.includes(n)) {
          if (!pending || pending.length >= MAX_PENDING_CALLS || !named(n) || name === nextName) return false;
          pending.push(n);
        }
      } else if (pending && pending.length < MAX_PENDING_CALLS && reqName !== null && named(n) && MAKES_OR_READS.test(name) && n.arguments.some((a) => fromRequest(a))) {
        // a reading handed the request or what it carries, `{ userId: parseJwt(req) }` (plunk's
        // `isAuthenticated`), `getUserFromToken(req.headers.authorization)`: it may refuse it
        // (`throw new NotAuthenticated()`), which is judged when linked too
        if (!pending.includes(n)) pending.push(n);
      }
    }
    return !ts.forEachChild(n, (c) => (passive(c, caught) ? undefined : true));
  };
  // (statements that neither leave the function nor call anything but such calls; a `try` of
  // such, `try { user = await getSession(cookie) } catch { user = null }`, whose `catch` only
  // makes or reads values too: what failed is let go, the request goes on)
  // (an `if` whose branch hands the request on and leaves, `if (!decoded) return next()` after a
  // `try` verifying a token — logchimp's optional authentication —, goes on either way)
  // (a `try` whose blocks hand the request on and leave, or go on, goes on or has handed it on)
  // (a `try` whose `catch` throws on what it caught, having only made or read values — Directus's
  // `authenticate`, `catch (err) { if (…) res.clearCookie(…); throw err }` —: what its block's
  // calls throw goes on as if nothing caught it, and is judged so)
  const passiveStatement = (st: TS.Statement, caught = false): boolean =>
    ts.isBlock(st)
      ? st.statements.every((x) => passiveStatement(x, caught))
      : ts.isIfStatement(st)
        ? passive(st.expression, caught) && passesOrLeaves(st.thenStatement, caught) && (!st.elseStatement || passesOrLeaves(st.elseStatement, caught))
        : ts.isTryStatement(st)
          ? rethrowsCaught(ts, st.catchClause)
            ? st.catchClause!.block.statements.slice(0, -1).every((x) => passiveStatement(x, caught)) &&
              passesOrLeaves(st.tryBlock, caught) &&
              (!st.finallyBlock || passiveStatement(st.finallyBlock, caught))
            : (!st.catchClause || passesOrLeaves(st.catchClause.block, caught)) &&
              passesOrLeaves(st.tryBlock, caught || !!st.catchClause) &&
              (!st.finallyBlock || passiveStatement(st.finallyBlock, caught))
          : (ts.isVariableStatement(st) || ts.isExpressionStatement(st)) && passive(st, caught);
  const handsOn = (c: TS.Expression): boolean => ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName && c.arguments.length === 0;
  /** `return next()`, or passive statements then `return next()` (or `next(); return`). */
  const handsOnAndLeaves = (st: TS.Statement, caught = false): boolean => {
    const list = ts.isBlock(st) ? st.statements : [st];
    const last = list[list.length - 1];
    const passiveOne = (x: TS.Statement): boolean => passiveStatement(x, caught);
    if (!last || !ts.isReturnStatement(last)) return false;
    if (last.expression) return handsOn(unwrap(ts, last.expression)) && list.slice(0, -1).every(passiveOne);
    const before = list[list.length - 2];
    return !!before && ts.isExpressionStatement(before) && handsOn(unwrap(ts, before.expression)) && list.slice(0, -2).every(passiveOne);
  };
  const passesOrLeaves = (st: TS.Statement, caught = false): boolean => passiveStatement(st, caught) || handsOnAndLeaves(st, caught);
  // `return runWithAlsSession(sessionId, async () => { return next(); })`: the request handed on
  // inside the context such a call makes, what it is given before the callback only made or read
  const inContext = (c: TS.Expression): boolean => {
    const run = runCallback(ts, c);
    if (!run || !run.call.arguments.slice(0, -1).every((x) => passive(x))) return false;
    const cb = run.cb;
    if (!ts.isBlock(cb.body)) return handsOn(unwrap(ts, cb.body));
    const [only, ...more] = cb.body.statements;
    const e = only && more.length === 0 ? (ts.isExpressionStatement(only) ? only.expression : ts.isReturnStatement(only) ? only.expression : undefined) : undefined;
    return !!e && handsOn(unwrap(ts, e));
  };
  // (a response written in `n`, outside the functions in it: a listener's callback runs once it is sent)
  const answers = (n: TS.Node): boolean => !ts.isFunctionLike(n) && (isResponseCall(ts, n) || (ts.isBinaryExpression(n) && isContextWrite(ctx, n.left, CONTEXT_ANSWER)) || !!ts.forEachChild(n, (x) => (answers(x) ? true : undefined)));
  for (const stmt of body.statements) {
    const e = ts.isExpressionStatement(stmt) ? stmt.expression : ts.isReturnStatement(stmt) ? stmt.expression : undefined;
    const c = e ? unwrap(ts, e) : undefined;
    if (c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName) return c.arguments.length === 0;
    // `void (async () => { … })()` (nango's audit middleware): the function called at once is the body
    const called = e ? calledAtOnce(ts, e) : null;
    // (the statements before it were passive: the loop got here; none comes after it)
    if (called) return stmt === body.statements[body.statements.length - 1] && handsOnAlways(ctx, called, nextName, wrapped);
    // `try { … } catch { … } finally { next() }`: whatever its blocks call or throw, the request is
    // handed on, unless one of them answers it first
    if (ts.isTryStatement(stmt) && stmt.finallyBlock && stmt.finallyBlock.statements.some((f) => ts.isExpressionStatement(f) && handsOn(unwrap(ts, f.expression))))
      return !answers(stmt.tryBlock) && !(stmt.catchClause && answers(stmt.catchClause.block));
    // (what a wrapper wraps, handed what only made or read values: `return handler(req, { author })`)
    if (c && ts.isReturnStatement(stmt) && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && wrapped?.()?.has(c.expression.text)) return c.arguments.every((x) => passive(x));
    if (c && inContext(c)) return true;
    if (!passiveStatement(stmt)) return false;
  }
  // (an async hook's end: it hands the request on by returning)
  return endHandsOn;
}

/**
 * Behaviour.refusesOnlyWhenGiven: the index of the parameter that every way the body may refuse
 * is under a test of, `if (token) { … }` or after `if (!token) return accountability;` — or of
 * what it carries, `const header = req.headers.authorization; if (!header) return null`
 * (`carried`, Behaviour.refusesOnlyWhenCarried); null for none. The rest of the body throws nothing itself and calls nothing named for a check, nor
 * anything handed that parameter (`const database = getDatabase()`, a connection, is no refusal).
 */
function refusesOnlyWhenGiven(ctx: Ctx, body: TS.Block, params: readonly string[]): { index: number; carried: boolean } | null {
  const { ts } = ctx;
  // (the test read is of a parameter, in a top-level `if` with no `else`: a body without one, as
  // most are, is not read)
  if (params.length === 0 || !hasIfWithoutElse(ts, body.statements)) return null;
  // locals holding what a parameter carries, declared before the test (`const header =
  // req.headers.authorization`, `req.get('authorization')`): a test of one is of the parameter's
  const carriedBy = new Map<string, number>();
  let viaLocal = false;
  const indexOf = (name: string): number => {
    const i = params.indexOf(name);
    if (i >= 0) return i;
    const held = carriedBy.get(name);
    if (held === undefined) return -1;
    viaLocal = true;
    return held;
  };
  const carriedFrom = (e: TS.Expression): number => {
    const { root, steps } = carriedChain(ts, e);
    return steps > 0 && ts.isIdentifier(root) ? params.indexOf(root.text) : -1;
  };
  // (`token`, `token != null`, `token !== undefined`; negated: `!token`, `token == null`, `token === undefined`)
  const nullTest = (u: TS.Expression, equal: boolean): number => {
    if (!ts.isBinaryExpression(u)) return -1;
    const k = u.operatorToken.kind;
    const ok = equal ? k === ts.SyntaxKind.EqualsEqualsToken || k === ts.SyntaxKind.EqualsEqualsEqualsToken : k === ts.SyntaxKind.ExclamationEqualsToken || k === ts.SyntaxKind.ExclamationEqualsEqualsToken;
    const r = unwrap(ts, u.right);
    const l = unwrap(ts, u.left);
    const nothing = r.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(r) && r.text === 'undefined');
    return ok && nothing && ts.isIdentifier(l) ? indexOf(l.text) : -1;
  };
  // (`header?.startsWith('Bearer ')`: a chain off the parameter that is undefined when it is)
  const optionalRoot = (e: TS.Expression): number => {
    let n: TS.Expression = e;
    while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n) || ts.isCallExpression(n)) {
      const inner = unwrap(ts, n.expression);
      if (ts.isIdentifier(inner)) return 'questionDotToken' in n && n.questionDotToken ? indexOf(inner.text) : -1;
      n = inner;
    }
    return -1;
  };
  // (`typeof token !== 'string'`, `typeof token === 'undefined'`; given: `typeof token === 'string'`)
  const typeTest = (u: TS.Expression, negated: boolean): number => {
    if (!ts.isBinaryExpression(u) || !ts.isTypeOfExpression(u.left) || !ts.isStringLiteral(u.right)) return -1;
    const k = u.operatorToken.kind;
    const equal = k === ts.SyntaxKind.EqualsEqualsEqualsToken || k === ts.SyntaxKind.EqualsEqualsToken;
    const unequal = k === ts.SyntaxKind.ExclamationEqualsEqualsToken || k === ts.SyntaxKind.ExclamationEqualsToken;
    const of = unwrap(ts, u.left.expression);
    const undef = u.right.text === 'undefined';
    const ok = negated ? (equal && undef) || (unequal && !undef) : (equal && !undef) || (unequal && undef);
    return ok && ts.isIdentifier(of) ? indexOf(of.text) : -1;
  };
  // a test true (`negated`: false) whenever the parameter is missing: `!token`, `!token || …`,
  // `!header?.startsWith('Bearer ')`; the index of that parameter
  const paramTest = (e: TS.Expression, negated: boolean): number => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === (negated ? ts.SyntaxKind.BarBarToken : ts.SyntaxKind.AmpersandAmpersandToken)) return paramTest(u.left, negated);
    if (negated && ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken) {
      const o = unwrap(ts, u.operand);
      return ts.isIdentifier(o) ? indexOf(o.text) : optionalRoot(o);
    }
    if (!negated && ts.isIdentifier(u)) return indexOf(u.text);
    if (!negated && optionalRoot(u) >= 0) return optionalRoot(u);
    const typed = typeTest(u, negated);
    return typed >= 0 ? typed : nullTest(u, negated);
  };
  // the statements outside the test, and the index of the parameter it tests
  const outside: TS.Node[] = [];
  let index = -1;
  for (const st of body.statements) {
    if (index < 0 && ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) {
        const from = ts.isIdentifier(d.name) && d.initializer ? carriedFrom(d.initializer) : -1;
        if (from >= 0) carriedBy.set((d.name as TS.Identifier).text, from);
      }
    if (ts.isIfStatement(st) && !st.elseStatement) {
      const given = paramTest(st.expression, false);
      if (given >= 0 && (index < 0 || index === given)) {
        index = given;
        continue;
      }
      // (`if (!token) return null`: what follows runs only when it is given)
      const missing = paramTest(st.expression, true);
      const then = ts.isBlock(st.thenStatement) ? st.thenStatement.statements : [st.thenStatement];
      const last = then[then.length - 1];
      if (missing >= 0 && (index < 0 || index === missing) && last && ts.isReturnStatement(last)) {
        index = missing;
        outside.push(...then);
        break;
      }
    }
    outside.push(st);
  }
  if (index < 0) return null;
  // (neither the parameter nor a local holding what it carries handed to a call outside the test)
  // (read without destructuring the map's entries, whose arrays deoptimised the compiled function)
  const names = new Set([params[index]!]);
  carriedBy.forEach((i, name) => {
    if (i === index) names.add(name);
  });
  const handed = (n: TS.Node): boolean => (ts.isIdentifier(n) && names.has(n.text)) || (!ts.isFunctionLike(n) && !!ts.forEachChild(n, (c) => (handed(c) ? true : undefined)));
  const quiet = (n: TS.Node): boolean => {
    if (ts.isFunctionLike(n) || ts.isThrowStatement(n)) return ts.isFunctionLike(n);
    if (ts.isCallExpression(n) && (MAY_REFUSE.test(calleeName(ts, n)) || isResponseCall(ts, n) || n.arguments.some(handed))) return false;
    return !ts.forEachChild(n, (c) => (quiet(c) ? undefined : true));
  };
  return outside.every(quiet) ? { index, carried: viaLocal } : null;
}

/** `throw err` in `catch (err) { … }` (not in a function within it): the error caught, thrown on. */
function rethrowsCaughtAt(ts: TSModule, th: TS.ThrowStatement, ancestors: readonly TS.Node[]): boolean {
  const thrown = th.expression ? unwrap(ts, th.expression) : undefined;
  return !!thrown && ts.isIdentifier(thrown) && triedFor(ts, thrown.text, ancestors) !== null;
}

/**
 * What a value is read from, through members (`req.headers.authorization`, `req.cookies[name]`)
 * and a request's getters (`c.req.header('authorization')`, `req.get('x-api-key')`), and how
 * many such steps lead there.
 */
function carriedChain(ts: TSModule, e: TS.Expression): { root: TS.Expression; steps: number } {
  let u = unwrap(ts, e);
  let steps = 0;
  for (; ; steps++) {
    if (ts.isPropertyAccessExpression(u) || ts.isElementAccessExpression(u)) u = unwrap(ts, u.expression);
    else if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && REQUEST_GETTER.test(u.expression.name.text)) u = unwrap(ts, u.expression.expression);
    else break;
  }
  return { root: u, steps };
}

/** Is the function declared `async`? */
function isAsync(ts: TSModule, fn: TS.Node): boolean {
  return ts.canHaveModifiers(fn) && (ts.getModifiers(fn) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
}

/** `catch (err) { …; throw err }`: a catch clause whose last statement throws on the error it caught. */
function rethrowsCaught(ts: TSModule, clause: TS.CatchClause | undefined): boolean {
  const name = clause?.variableDeclaration?.name;
  const last = clause?.block.statements[clause.block.statements.length - 1];
  if (!name || !ts.isIdentifier(name) || !last || !ts.isThrowStatement(last)) return false;
  const thrown = unwrap(ts, last.expression);
  return ts.isIdentifier(thrown) && thrown.text === name.text;
}

/** What sets a header or a cookie of an Express response without sending it. */
const RESPONSE_HEADER_WRITES = new Set(['cookie', 'clearCookie', 'setHeader', 'header', 'append', 'vary', 'removeHeader', 'type', 'location', 'attachment']);
/** A hook-style reading of what the process or the request's context holds: `useEnv()`, `useLogger()` (Directus). */
const READS_CONTEXT = /^use[A-Z]\w*$/;

/** `Number(userId)`, `String(id)`, `parseInt(page, 10)`: a value converted, which throws nothing. */
const NUMBER_OR_TEXT = /^(Number|String|Boolean|parseInt|parseFloat)$/;

/** The most calls a middleware handing every request on may leave to be judged when linked (Behaviour.handsOnUnless). */
const MAX_PENDING_CALLS = 4;

/** The block of a function called at once with nothing, `(async () => { … })()` (after `void`, `await`, parentheses); null for any other expression. */
function calledAtOnce(ts: TSModule, e: TS.Expression): TS.Block | null {
  let u = unwrap(ts, e);
  if (u.kind === ts.SyntaxKind.VoidExpression) u = unwrap(ts, (u as TS.VoidExpression).expression);
  if (!ts.isCallExpression(u) || u.arguments.length > 0) return null;
  const fn = unwrap(ts, u.expression);
  return (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isBlock(fn.body) ? fn.body : null;
}

/**
 * `ctx.body = user.customData; return next();`: a statement of the body's top level writes the
 * response (`ctx.body =`, `ctx.status =`, `res.json(…)`), and a later one hands the request on
 * (`next()`, `return next()`, `await next()`).
 */
function answersThenHandsOn(ctx: Ctx, body: TS.Block, nextName: string): boolean {
  const { ts } = ctx;
  let answered = false;
  for (const stmt of body.statements) {
    const e = ts.isExpressionStatement(stmt) ? unwrap(ts, stmt.expression) : ts.isReturnStatement(stmt) && stmt.expression ? unwrap(ts, stmt.expression) : undefined;
    if (!e) continue;
    if (respondsAt(ctx, e)) answered = true;
    else if (answered && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === nextName && e.arguments.length === 0) return true;
  }
  return false;
}

/**
 * Does `e` read nothing of the request — no parameter of `f`, no local of its own (what it
 * declares may be made of the request), no `this` — only names bound outside it (a module's
 * configuration, an imported function, `process.env`)?
 */
function readsNoRequest(ctx: Ctx, e: TS.Expression, f: FunctionFact): boolean {
  const { ts } = ctx;
  const own = ctx.facts.scopes[f.scope]!.bindings;
  let outside = true;
  const visit = (n: TS.Node): void => {
    if (!outside) return;
    if (n.kind === ts.SyntaxKind.ThisKeyword || ts.isFunctionLike(n)) outside = false;
    else if (ts.isIdentifier(n)) {
      // (a local given what reads nothing of the request: `const AUTH_SECRET_KEY = process.env.AUTH_SECRET_KEY`)
      if (f.params.includes(n.text) || (Object.hasOwn(own, n.text) && !initReadsNoRequest(own, n.text, f.scope, 0))) outside = false;
    } else if (ts.isPropertyAccessExpression(n)) visit(n.expression);
    else ts.forEachChild(n, visit);
  };
  visit(e);
  return outside;
}

/**
 * Whether the value a local of a function's body (its scope `scope`, bindings `own`) is declared
 * with reads nothing of the function's parameters, `this` or any other function: only names
 * declared outside it (or locals declared so themselves), literals, and members of those
 * (`process.env.AUTH_SECRET_KEY`).
 */
function initReadsNoRequest(own: Record<string, Expr | EncodedBinding>, name: string, scope: number, depth: number): boolean {
  const init = own[name];
  if (typeof init !== 'object' || depth > 4) return false;
  const reads = (e: Expr): boolean => {
    switch (e.k) {
      case 'str':
      case 'num':
      case 'bool':
      case 're':
        return true;
      case 'ref':
        // (a name read where the local is declared: one of the function's own, or declared outside it)
        return e.scope === scope && (Object.hasOwn(own, e.name) ? e.name !== name && initReadsNoRequest(own, e.name, scope, depth + 1) : true);
      case 'member':
        return reads(e.obj);
      case 'tpl':
        return e.parts.every(reads);
      case 'arr':
        return e.items.every(reads);
      // (not a call: a getter may read the request through the async context, `currentSession()`)
      case 'fallback':
        return reads(e.l) && reads(e.r);
      default:
        return false;
    }
  };
  return reads(init);
}

/**
 * `if (!config.authEnabled) return next()`, `if (req.session?.user || !isAuthEnabled()) return
 * next()` (Z-Wave JS UI's `isAuthenticated`) — or the check under `if (config.authEnabled) { … }`
 * with `else { next() }` or `next()` alone after it — first among the body's statements (after
 * declarations, and after checks of a signed-in user that end the request either way, which no
 * request without one enters: growi's `loginRequired`, `if (req.user != null && …) { … return
 * next() … return res.redirect(…) }` and then `if (isGuestAllowed &&
 * crowi.aclService.isGuestAllowedToRead()) return next()`): the alternatives of the test that
 * read nothing of the request (readsNoRequest; the whole test negated, for a check under it), as
 * the condition the function hands every request on under (Behaviour.switchedOff); null when the
 * body does not start so.
 */
function switchedOff(ctx: Ctx, body: TS.Block, f: FunctionFact, nextName: string): Cond | null {
  const { ts } = ctx;
  const index = body.statements.findIndex((s) => !ts.isVariableStatement(s) && !signedInOnly(ts, s, f.params[0]));
  const stmt = body.statements[index];
  if (!stmt || !ts.isIfStatement(stmt)) return null;
  const statementsOf = (x: TS.Statement): readonly TS.Statement[] => (ts.isBlock(x) ? x.statements : [x]);
  const handsOn = (stmts: readonly TS.Statement[]): boolean =>
    stmts.some((x) => {
      const e = ts.isReturnStatement(x) ? x.expression : ts.isExpressionStatement(x) ? x.expression : undefined;
      return !!e && onlyCallsNext(ts, e, nextName);
    });
  // `if (isNotEmptyString(AUTH_SECRET_KEY)) { …the check… } else { next() }` (chatgpt-web's
  // `auth`), or `if (settings.opsTokenRequired) { …the check… } next()` with nothing else after
  // it: a switch that must hold for the check to run, the request handed on where it does not
  // (a branch that checks: an `if`, `try` or `switch` in it, or a middleware handed the request
  // and `next` (`basicAuth({ … })(req, res, next)`, uptime-kuma's), nothing leaving it first — not
  // the refusal itself, `if (!currentSession()) return c.json(…, 401)`, whose test is the check)
  const handsToMiddleware = (x: TS.Statement): boolean => {
    const e = ts.isExpressionStatement(x) ? unwrap(ts, x.expression) : undefined;
    const args = e && ts.isCallExpression(e) ? e.arguments.map((a) => (ts.isIdentifier(a) ? a.text : '')) : [];
    return args.includes(f.params[0] ?? '') && args.includes(nextName);
  };
  const checks = (stmts: readonly TS.Statement[]): boolean =>
    stmts.some((x) => ts.isIfStatement(x) || ts.isTryStatement(x) || x.kind === ts.SyntaxKind.SwitchStatement || handsToMiddleware(x)) && !stmts.some((x) => ts.isReturnStatement(x) || ts.isThrowStatement(x));
  const rest = body.statements.slice(index + 1);
  const checkedUnder = stmt.elseStatement ? handsOn(statementsOf(stmt.elseStatement)) : rest.length === 1 && handsOn(rest);
  if (checkedUnder && checks(statementsOf(stmt.thenStatement)) && readsNoRequest(ctx, stmt.expression, f)) {
    const text = condText(ctx, stmt.expression);
    const test = condWith(ts, stmt.expression, 0, false, (n, d) => shallowExpr(ctx, n, f.scope, d));
    return { test: { k: 'not', c: test }, holds: true, pos: stmt.expression.getStart(ctx.sf), text: cut(negatedText(text)) };
  }
  if (stmt.elseStatement || !handsOn(statementsOf(stmt.thenStatement))) return null;
  const alternatives = joined(ts, stmt.expression, ts.SyntaxKind.BarBarToken, (u) => [u]) ?? [unwrap(ts, stmt.expression)];
  const switches = alternatives.filter((a) => readsNoRequest(ctx, a, f));
  if (switches.length === 0) return null;
  const read = (n: TS.Expression, d: number): Expr => shallowExpr(ctx, n, f.scope, d);
  const test = switches.map((a) => condWith(ts, a, 0, false, read)).reduce((l, r) => ({ k: 'or' as const, l, r }));
  return { test, holds: true, pos: switches[0]!.getStart(ctx.sf), text: cut(switches.map((a) => condText(ctx, a)).join(' || ')) };
}

/** A condition's text negated: `x` of `!x` and of `!(x)`, `!x` of `x`, `!(a || b)` of `a || b`. */
export function negatedText(text: string): string {
  if (text.startsWith('!(') && text.endsWith(')')) {
    // (the parenthesis opened after `!` closes at the end: `!(a) || !(b)` is no negation of one)
    let depth = 0;
    let closes = -1;
    for (let i = 1; i < text.length && closes < 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) closes = i;
    }
    if (closes === text.length - 1) return text.slice(2, -1);
  }
  if (/^![\w$.()]+$/.test(text)) return text.slice(1);
  return /^[\w$.()]+$/.test(text) ? `!${text}` : `!(${text})`;
}

/**
 * `if (req.user != null && '_id' in req.user) { …; return res.redirect(…) }`: an `if` without an
 * `else` that a request without a signed-in user never enters (a conjunct of its test reads the
 * user of the request parameter `reqName`, userRead: `req.user`, `req.user != null`; or is
 * `req.isAuthenticated()`) and that ends the request with a `return` last.
 */
function signedInOnly(ts: TSModule, s: TS.Statement, reqName: string | undefined): boolean {
  if (!reqName || !ts.isIfStatement(s) || s.elseStatement) return false;
  const then = ts.isBlock(s.thenStatement) ? s.thenStatement.statements : [s.thenStatement];
  if (!then.length || !ts.isReturnStatement(then[then.length - 1]!)) return false;
  const params = new Set([reqName]);
  const isUser = (e: TS.Expression): boolean => userRead(ts, e, params);
  const requiresUser = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return requiresUser(u.left) || requiresUser(u.right);
    if (isUser(u)) return true;
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsToken || u.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsEqualsToken)) {
      const nil = (x: TS.Expression): boolean => unwrap(ts, x).kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(unwrap(ts, x)) && (unwrap(ts, x) as TS.Identifier).text === 'undefined');
      return (isUser(u.left) && nil(u.right)) || (isUser(u.right) && nil(u.left));
    }
    // `req.isAuthenticated()` (SIGNED_IN_FLAG)
    return ts.isCallExpression(u) && u.arguments.length === 0 && ts.isPropertyAccessExpression(u.expression) && SIGNED_IN_FLAG.test(u.expression.name.text) && requestChain(ts, u.expression.expression, params) !== null;
  };
  return requiresUser(s.expression);
}

/**
 * `if (isNil(header)) return next();` / `if (!token) { return next(); }` before anything but
 * declarations, but for an `if` read as an allowlist's (`allowing`: `if
 * (!req.path.startsWith('/api')) return next()`), and statements a request carrying no
 * credential goes past (passedOver): erxes's gateway `userMiddleware` answers 401 only to an app
 * token it is sent that is not known (`if (appToken) { … }`), 400 or 500 when the request or its
 * database fails, then hands on a request without a token (`if (!token) { …; return next(); }`).
 */
function passesWhenMissing(ctx: Ctx, body: TS.Block, f: FunctionFact, nextName: string | null, allowing: readonly TS.IfStatement[]): boolean {
  const { ts } = ctx;
  // (only a top-level `if` with no `else` decides, below: a body without one, as most are, is not read)
  if (!hasIfWithoutElse(ts, body.statements)) return false;
  // (an error handed to next ends the request: `if (!req.user) return next(new Unauthorized())`)
  // (an async hook, `nextName` null, hands on by returning: `if (!request.headers.authorization) return;`)
  const callsNext = (s: TS.Statement): boolean => {
    const stmts = ts.isBlock(s) ? [...s.statements] : [s];
    if (nextName === null) return stmts.length > 0 && stmts.every((x) => ts.isReturnStatement(x) && !x.expression);
    return stmts.some((x) => {
      const e = ts.isReturnStatement(x) ? x.expression : ts.isExpressionStatement(x) ? x.expression : undefined;
      const c = e ? unwrap(ts, e) : undefined;
      return !!c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName && !handsErrorOn(ts, f, c);
    });
  };
  // the locals declared first with a test of the request (`const isTokenEmpty = !req.headers.authorization && …`), never assigned again
  const tests = new Map<string, TS.Expression>();
  const bindings = ctx.facts.scopes[f.scope]!.bindings;
  const missing = (e: TS.Expression, depth = 0): boolean => {
    const u = unwrap(ts, e);
    // (`if (type !== 'mutation' || !ctx.user) return next()`: taken whenever one alternative is)
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.BarBarToken) return missing(u.left, depth) || missing(u.right, depth);
    // (`(!authorization || !authorization.startsWith('Bearer ')) && !req.cookies?.session`: taken
    // for a request that carries none of them, when every conjunct tests what it lacks)
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return missing(u.left, depth) && missing(u.right, depth);
    // (`!config.authEnabled`: the server's switch, no credential the request lacks — switchedOff)
    if (readsNoRequest(ctx, u, f)) return false;
    // (`if (isTokenEmpty) { next(); return }`: the test the local holds — crowd.dev's `authMiddleware`)
    const held = ts.isIdentifier(u) && depth < 4 && !Object.hasOwn(bindings, REASSIGNED + u.text) ? tests.get(u.text) : undefined;
    if (held) return missing(held, depth + 1);
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken) return true;
    if (ts.isCallExpression(u) && ts.isIdentifier(u.expression) && /^(isNil|isNull|isUndefined|isNullish|isEmpty)$/.test(u.expression.text)) return true;
    if (ts.isBinaryExpression(u) && [ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken].includes(u.operatorToken.kind)) {
      const t = (x: TS.Expression): boolean => unwrap(ts, x).kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(unwrap(ts, x)) && (unwrap(ts, x) as TS.Identifier).text === 'undefined');
      return t(u.left) || t(u.right);
    }
    return false;
  };
  // the names a test may read a credential of: the parameters, and the locals declared first
  // as a part of one of those (`const header = req.headers.authorization`, `const { query } = req`;
  // not `const needsAuth = !PUBLIC.has(req.path)`, an allowlist's verdict)
  const own = new Set(f.params);
  // `header`, `query.id`, `req.headers.authorization`, `c.req.query('id')`, `req.get('x-api-key')`:
  // a value of those the request may not carry (read by a getter; not a test, `req.path.startsWith(…)`)
  const present = (e: TS.Expression): boolean => requestRead(e) !== null;
  // (a fallback written as a literal, `x || ''`, `x ?? null`)
  const literalNode = (x: TS.Expression): boolean => {
    const v = unwrap(ts, x);
    return ts.isStringLiteralLike(v) || ts.isNumericLiteral(v) || v.kind === ts.SyntaxKind.NullKeyword;
  };
  // `e` read from one of those names (`header`, `req.headers.authorization`, `(req.headers['x-app-token']
  // || '').toString()`): whether the read goes through where a request carries credentials (its
  // headers, cookies or query); null for any other value
  const requestRead = (e: TS.Expression): boolean | null => {
    let u = unwrap(ts, e);
    let carried = false;
    for (;;) {
      if (ts.isPropertyAccessExpression(u) || ts.isElementAccessExpression(u)) {
        if (ts.isPropertyAccessExpression(u) && CREDENTIAL_PLACE.test(u.name.text)) carried = true;
        u = unwrap(ts, u.expression);
      } else if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && REQUEST_GETTER.test(u.expression.name.text)) {
        carried = true;
        u = unwrap(ts, u.expression.expression);
      } else if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && TEXT_OF.test(u.expression.name.text)) u = unwrap(ts, u.expression.expression);
      else if (ts.isBinaryExpression(u) && (u.operatorToken.kind === ts.SyntaxKind.BarBarToken || u.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) && literalNode(u.right)) u = unwrap(ts, u.left);
      else break;
    }
    return ts.isIdentifier(u) && own.has(u.text) ? carried || credentialLocals.has(u.text) : null;
  };
  // the locals (of `own`) read from where a request carries credentials
  const credentialLocals = new Set<string>();
  // `if (appToken) { … }`, `if (erxesCoreToken && url) { … }`: entered only by a request carrying
  // what a credential is carried in
  const needsCarried = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return needsCarried(u.left) || needsCarried(u.right);
    return requestRead(u) === true;
  };
  // what a statement before the test does that could refuse a request for lacking a credential:
  // a 401 or 403, a call named for a check, a call handed the response or next (but a response
  // written, `res.status(400).json(…)`, whose status is read as any other)
  const mayRefuse = (n: TS.Node): boolean => {
    const status = statusOf(ts, n, ctx.errorClasses);
    if (status === 401 || status === 403) return true;
    if (ts.isStringLiteralLike(n) && /^(unauthori[sz]ed|unauthenticated|forbidden)$/i.test(n.text)) return true;
    if (ts.isCallExpression(n) && !isResponseCall(ts, n) && !logsOrAsks(ts, n)) {
      if (MAY_REFUSE.test(calleeName(ts, n))) return true;
      const handed = (a: TS.Expression): boolean => {
        const u = unwrap(ts, a);
        return ts.isIdentifier(u) && u.text !== f.params[0] && f.params.includes(u.text);
      };
      if (n.arguments.some(handed)) return true;
    }
    return !!ts.forEachChild(n, (c) => (mayRefuse(c) ? true : undefined));
  };
  // whether a test reads where a request carries credentials (through the locals holding a test too)
  const readsCarried = (e: TS.Node, depth = 0): boolean => {
    if (ts.isIdentifier(e)) {
      const held = depth < 4 ? tests.get(e.text) : undefined;
      return credentialLocals.has(e.text) || (held !== undefined && readsCarried(held, depth + 1));
    }
    if (ts.isExpression(e) && requestRead(e) === true) return true;
    return !!ts.forEachChild(e, (c) => (readsCarried(c, depth) ? true : undefined));
  };
  // whether a statement was gone past (passedOver) before the test
  let passed = false;
  // a statement a request carrying no credential goes past: an `if` it does not enter, or one
  // that leaves the function nowhere but in its branches and refuses nothing for a missing credential
  const passedOver = (st: TS.Statement): boolean =>
    (ts.isIfStatement(st) && !st.elseStatement && !allowing.includes(st) && needsCarried(st.expression)) ||
    ((ts.isIfStatement(st) || ts.isTryStatement(st) || ts.isExpressionStatement(st)) && !mayRefuse(st));
  // what follows only hands the request on: `next()`, `return next()`, `await next()`, `next(); return;`
  const handsOnAfter = (rest: readonly TS.Statement[]): boolean => {
    if (nextName === null) return rest.length === 0 || (rest.length === 1 && ts.isReturnStatement(rest[0]!) && !rest[0].expression);
    const isNext = (x: TS.Expression | undefined): boolean => {
      const c = x ? unwrap(ts, x) : undefined;
      return !!c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName && c.arguments.length === 0;
    };
    const [first, second] = rest;
    if (!first || rest.length > 2) return false;
    if (rest.length === 2) return ts.isExpressionStatement(first) && isNext(first.expression) && ts.isReturnStatement(second!) && !second.expression;
    return (ts.isExpressionStatement(first) || ts.isReturnStatement(first)) && isNext(first.expression);
  };
  for (const [i, stmt] of body.statements.entries()) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (!d.initializer) continue;
        if (!present(d.initializer)) {
          if (ts.isIdentifier(d.name)) tests.set(d.name.text, d.initializer);
          continue;
        }
        const carried = requestRead(d.initializer) === true;
        const names = ts.isIdentifier(d.name) ? [d.name.text] : ts.isObjectBindingPattern(d.name) ? d.name.elements.flatMap((el) => (ts.isIdentifier(el.name) ? [el.name.text] : [])) : [];
        for (const name of names) {
          own.add(name);
          if (carried) credentialLocals.add(name);
        }
      }
      continue;
    }
    // (`if (header) { …the token checked… } next()`: checked only when the request carries it —
    // midday's invoice download, `if (query.id) { … }`, an optional bearer token)
    // (past such statements, a test of a credential the request lacks: `!token`, not a switch of
    // the server's a local holds, `!multiUserMode` of AnythingLLM's `flexUserRoleValid`)
    const decides =
      ts.isIfStatement(stmt) &&
      !stmt.elseStatement &&
      !allowing.includes(stmt) &&
      ((missing(stmt.expression) && callsNext(stmt.thenStatement)) || (present(stmt.expression) && handsOnAfter(body.statements.slice(i + 1)))) &&
      // (a hook's test reads where a credential is carried: not activepieces' `if
      // (isNil(request.routeOptions.config?.security)) return;`, a route's own setting)
      (!passed || readsCarried(stmt.expression)) &&
      (nextName !== null || readsCarried(stmt.expression));
    if (decides) return true;
    if (!passedOver(stmt)) return false;
    passed = true;
  }
  return false;
}

/** Is one of `stmts` an `if` with no `else`? */
function hasIfWithoutElse(ts: TSModule, stmts: readonly TS.Statement[]): boolean {
  for (const st of stmts) if (ts.isIfStatement(st) && !st.elseStatement) return true;
  return false;
}

/** A request's getters of what it carries: `req.get(name)`, `req.header(name)`, Hono's `c.req.query()` / `param` / `cookie`, `headers.get(name)`. */
export const REQUEST_GETTER = /^(get|header|headers|query|param|params|cookie|cookies)$/;
/** Where a request carries credentials: its headers, cookies and query (`req.headers.authorization`, `req.cookies.session`). */
const CREDENTIAL_PLACE = /^(headers|cookies|signedCookies|query)$/;
/** A value's own text (`(x || '').toString()`, `token.trim()`): what it is read from, as text. */
const TEXT_OF = /^(toString|trim|toLowerCase|toUpperCase)$/;

/**
 * The conditions under which `node` runs, from the `if` statements around it up to `body`:
 * each condition's `&&` conjuncts of the forms `x`, `!x`, `x === lit`, `x !== lit`.
 */
function flagConditions(ctx: Ctx, node: TS.Node, body: TS.Node, ancestors: readonly TS.Node[]): FlagCondition[] {
  const { ts } = ctx;
  const out: FlagCondition[] = [];
  const literal = (e: TS.Expression): string | number | boolean | undefined => {
    const u = unwrap(ts, e);
    if (ts.isStringLiteralLike(u)) return u.text;
    if (ts.isNumericLiteral(u)) return Number(u.text);
    if (u.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (u.kind === ts.SyntaxKind.FalseKeyword) return false;
    return undefined;
  };
  // `x`, `x.a`, `x?.a.b`: the name and the property path
  const nameAndPath = (e: TS.Expression): { name: string; path?: string[] } | null => {
    const path: string[] = [];
    let n: TS.Expression = e;
    while (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name)) {
      path.unshift(n.name.text);
      n = unwrap(ts, n.expression);
    }
    if (!ts.isIdentifier(n) || path.length > 4) return null;
    return path.length > 0 ? { name: n.text, path } : { name: n.text };
  };
  const conjuncts = (e: TS.Expression): void => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) {
      conjuncts(u.left);
      conjuncts(u.right);
    } else if (nameAndPath(u)) out.push({ ...nameAndPath(u)!, op: 'truthy' });
    else if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && nameAndPath(unwrap(ts, u.operand))) out.push({ ...nameAndPath(unwrap(ts, u.operand))!, op: 'falsy' });
    else if (ts.isBinaryExpression(u)) {
      const k = u.operatorToken.kind;
      const op = k === ts.SyntaxKind.EqualsEqualsEqualsToken || k === ts.SyntaxKind.EqualsEqualsToken ? 'eq' : k === ts.SyntaxKind.ExclamationEqualsEqualsToken || k === ts.SyntaxKind.ExclamationEqualsToken ? 'ne' : null;
      if (!op) return;
      const [id, lit] = ts.isIdentifier(unwrap(ts, u.left)) ? [unwrap(ts, u.left), literal(u.right)] : [unwrap(ts, u.right), literal(u.left)];
      if (ts.isIdentifier(id) && lit !== undefined) out.push({ name: id.text, op, value: lit });
    }
  };
  // `if (optional) return next();` before it in a block: the node is reached only when the test
  // fails, its negation holds (one test, or tests joined by `||`; not `&&`, whose negation no
  // list of conjuncts says)
  const negated = (e: TS.Expression): void => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.BarBarToken) {
      negated(u.left);
      negated(u.right);
      return;
    }
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return;
    const from = out.length;
    conjuncts(u);
    for (let j = from; j < out.length; j++) {
      const c = out[j]!;
      out[j] = { ...c, op: c.op === 'truthy' ? 'falsy' : c.op === 'falsy' ? 'truthy' : c.op === 'eq' ? 'ne' : 'eq' };
    }
  };
  let child: TS.Node = node;
  for (let i = ancestors.length - 1; i >= 0 && child !== body; child = ancestors[i]!, i--) {
    const p = ancestors[i]!;
    if (ts.isIfStatement(p) && p.thenStatement === child) conjuncts(p.expression);
    if (ts.isBlock(p))
      for (const st of p.statements) {
        if (st === child) break;
        if (ts.isIfStatement(st) && !st.elseStatement && exits(ts, st.thenStatement)) negated(st.expression);
      }
  }
  return out;
}

/** `new Response(…)` / `new NextResponse(…)`: a Fetch API response made (route handlers, middleware). */
function isNewResponse(ts: TSModule, n: TS.Node): boolean {
  return ts.isNewExpression(n) && ts.isIdentifier(n.expression) && (n.expression.text === 'Response' || n.expression.text === 'NextResponse');
}

/** What a request or response holds of the server's or of earlier layers' (refusesEvery): not what the caller sent. */
const SERVER_HELD = /^(app|locals|session|user|state|env|var|context|config|services?|db)$/;
/** Methods that answer with their second argument as the status: Hono's `c.json(body, 405)`, `c.text(…)`, `c.body(…)`, `c.html(…)`. */
const STATUS_SECOND = new Set(['json', 'text', 'body', 'html']);

/** A list of statements (a middleware's side that answers: servedRequests), not a function's body. */
function isStatementList(body: TS.ConciseBody | readonly TS.Statement[]): body is readonly TS.Statement[] {
  return Array.isArray(body);
}

/**
 * Where a function's body (or a list of statements) answers every request with an error status
 * and does nothing else, its first statement (null when it does something else): `res.status(405).json({ error: 'Use
 * POST' })`, Koa's `ctx.status = 405; ctx.set('Allow', 'POST'); ctx.body = {…}`, `return new
 * Response(null, { status: 405 })`, `return c.json({…}, 410)`, `throw new
 * MethodNotAllowedException()`. Every statement at the body's top level is a response written
 * on one of its parameters or made, a return of one, or a throw; what they are given is made of
 * literals and of what the request carries (no call, no value of the server's, which an error's
 * body could hand out as well); every status given is 400 or above, and one is given (or the
 * body throws). A route whose handler this is serves nothing, whoever calls it.
 */
function refusesEvery(ctx: Ctx, body: TS.ConciseBody | readonly TS.Statement[], params: readonly string[]): TS.Node | null {
  const { ts } = ctx;
  const K = ts.SyntaxKind;
  let refused = false;
  // a value that calls nothing and holds nothing of the server's: literals, what the request
  // carries (`req.method`, `req.params.id`), and objects, arrays, templates and operations of them
  const inert = (e: TS.Node): boolean => {
    if (isLiteralNode(ts, e)) return true;
    switch (e.kind) {
      case K.Identifier:
        return params.includes((e as TS.Identifier).text) || (e as TS.Identifier).text === 'undefined';
      // (not what the server or an earlier layer put there: `req.app.locals`, `res.locals`, `req.user`, `ctx.state`)
      case K.PropertyAccessExpression:
        return !SERVER_HELD.test((e as TS.PropertyAccessExpression).name.text) && inert((e as TS.PropertyAccessExpression).expression);
      case K.ParenthesizedExpression:
      case K.AsExpression:
      case K.NonNullExpression:
        return inert((e as TS.ParenthesizedExpression).expression);
      case K.PrefixUnaryExpression:
        return inert((e as TS.PrefixUnaryExpression).operand);
      case K.BinaryExpression:
        return inert((e as TS.BinaryExpression).left) && inert((e as TS.BinaryExpression).right);
      case K.TemplateExpression:
        return (e as TS.TemplateExpression).templateSpans.every((sp) => inert(sp.expression));
      case K.ArrayLiteralExpression:
        return (e as TS.ArrayLiteralExpression).elements.every(inert);
      case K.ObjectLiteralExpression:
        return (e as TS.ObjectLiteralExpression).properties.every((p) =>
          ts.isPropertyAssignment(p) ? !ts.isComputedPropertyName(p.name) && inert(p.initializer) : ts.isShorthandPropertyAssignment(p) && params.includes(p.name.text),
        );
      default:
        return false;
    }
  };
  // a status given: an error one refuses, any other serves
  const status = (e: TS.Expression | undefined): boolean => {
    const u = e && unwrap(ts, e);
    if (!u || !ts.isNumericLiteral(u)) return false;
    if (Number(u.text) < 400) return false;
    refused = true;
    return true;
  };
  const statusOption = (e: TS.Expression | undefined): boolean => {
    const u = e && unwrap(ts, e);
    if (!u || !ts.isObjectLiteralExpression(u) || !inert(u)) return false;
    const p = u.properties.find((x) => ts.isPropertyAssignment(x) && ts.isIdentifier(x.name) && x.name.text === 'status') as TS.PropertyAssignment | undefined;
    return status(p?.initializer);
  };
  // `res.set('Allow', 'POST').status(405).json({…})`: a chain of response writes on a parameter
  const written = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (ts.isIdentifier(u)) return params.includes(u.text);
    if (!ts.isCallExpression(u) || !ts.isPropertyAccessExpression(u.expression)) return false;
    const m = u.expression.name.text;
    if (!RESPONSE_WRITES.has(m) && m !== 'throw') return false;
    if (m === 'redirect' || m === 'render' || m === 'sendFile' || m === 'attachment' || !u.arguments.every(inert)) return false;
    if ((m === 'status' || m === 'code' || m === 'sendStatus' || m === 'writeHead' || m === 'throw') && !status(u.arguments[0])) return false;
    // (`c.json(body)` without a status answers 200)
    if (STATUS_SECOND.has(m) && u.arguments.length > 1 && !status(u.arguments[1])) return false;
    return written(u.expression.expression);
  };
  const answer = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    // `new Response(null, { status: 405 })`, `NextResponse.json({…}, { status: 405 })`
    if (isNewResponse(ts, u)) return (u as TS.NewExpression).arguments?.every(inert) === true && statusOption((u as TS.NewExpression).arguments![1]);
    if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && u.expression.name.text === 'json' && ts.isIdentifier(u.expression.expression) && /^(Response|NextResponse)$/.test(u.expression.expression.text))
      return u.arguments.every(inert) && statusOption(u.arguments[1]);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === K.EqualsToken && ts.isPropertyAccessExpression(u.left) && inert(u.right)) {
      const on = unwrap(ts, u.left.expression);
      const target = ts.isIdentifier(on) ? on.text : ts.isPropertyAccessExpression(on) && on.name.text === 'response' && ts.isIdentifier(on.expression) ? on.expression.text : null;
      const prop = u.left.name.text;
      if (target === null || !params.includes(target)) return false;
      if (prop === 'status' || prop === 'statusCode') return status(u.right);
      return prop === 'body' || prop === 'message';
    }
    return ts.isCallExpression(u) && written(u);
  };
  const statements = isStatementList(body) ? body : ts.isBlock(body) ? body.statements : null;
  if (statements === null) return answer(body as TS.Expression) && refused ? (body as TS.Expression) : null;
  if (statements.length === 0) return null;
  for (const st of statements) {
    if (ts.isThrowStatement(st)) {
      const x = unwrap(ts, st.expression);
      // `throw new MethodNotAllowedException()`, `throw NotFoundError()`: what is thrown made of inert arguments
      if (!((ts.isNewExpression(x) || ts.isCallExpression(x)) && ts.isIdentifier(x.expression) && (x.arguments ?? []).every(inert))) return null;
      refused = true;
    } else if (ts.isReturnStatement(st)) {
      if (st.expression && !answer(st.expression)) return null;
    } else if (!ts.isExpressionStatement(st) || !answer(st.expression)) return null;
  }
  return refused ? statements[0]! : null;
}

/** A response sent or made, or a throw, at `n` itself: `res.json(…)`, `new Response(…)`, `throw …`, `ctx.body = …`. */
function respondsAt(ctx: Ctx, n: TS.Node, responseCall = isResponseCall(ctx.ts, n)): boolean {
  const { ts } = ctx;
  if (responseCall || ts.isThrowStatement(n)) return true;
  if (isNewResponse(ts, n)) return true;
  return ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && isContextWrite(ctx, n.left, CONTEXT_ANSWER);
}

/** What ends a WebSocket connection: ws's `close(code, reason)` and `terminate()`. */
const SOCKET_ENDS = new Set(['close', 'terminate']);

/**
 * `socket.close()` of a WebSocket handler's `(socket, request)` (@fastify/websocket 10 and
 * later; express-ws's `(ws, req, next)`), or `connection.socket.close()` of its older
 * `(connection, request)`: closing the connection ends the request, as a response ends an HTTP
 * one. Only the first of two parameters or more is taken for the socket: an HTTP handler's first
 * (a request, Koa's or Hono's context) has no such method.
 */
function closesSocket(ts: TSModule, n: TS.Node, f: FunctionFact): boolean {
  if (!ts.isCallExpression(n) || f.params.length < 2 || !f.params[0]) return false;
  const c = n.expression;
  if (!ts.isPropertyAccessExpression(c) || !SOCKET_ENDS.has(c.name.text)) return false;
  const on = ts.isPropertyAccessExpression(c.expression) && c.expression.name.text === 'socket' ? c.expression.expression : c.expression;
  return ts.isIdentifier(on) && on.text === f.params[0];
}

/**
 * Guard calls and inline checks among the handler's leading statements, before any response.
 * `responds`: where the body responds or throws, outside nested functions (`respondsAt`);
 * `ownArguments`, the function has its own `arguments` (calledWith).
 */
function leadingGuards(
  ctx: Ctx,
  statements: readonly TS.Statement[],
  scope: number,
  f: FunctionFact,
  responds: readonly number[],
  ownArguments: boolean,
  empty?: NonNullable<FunctionFact['emptyWhen']>,
  pastServed?: (leading: LeadingGuard[]) => void,
): LeadingGuard[] {
  const { ts } = ctx;
  const out: LeadingGuard[] = [];
  // where the reading went on past a branch answering requests by their URL alone (FunctionFact.leadingPastServed)
  let served: number | null = null;
  // Whether `n` (a statement of the body, or of a block in it) responds or throws somewhere.
  const containsResponse = (n: TS.Node): boolean => responds.some((p) => p >= n.pos && p < n.end);
  // the statuses (401, 403, 404) met in `n`, outside nested functions: a bit each
  const AUTH = 1;
  const DENIED = 2;
  // (403 or 404 as an error code only, `throw new ApiError({ code: "NOT_FOUND" })`: read where a
  // lookup of the tenant found nothing, not for any test naming a tenant, see `v`)
  const CODED = 4;
  let seen = 0;
  // the node visited lies in a text spelling a status word (STATUS_WORD_RE)
  let worded = false;
  const v = (x: TS.Node): void => {
    if (ts.isFunctionLike(x)) return;
    // (an error code spelled as 401's: `throw new DubApiError({ code: "unauthorized" })`, as analyseBehaviour
    // reads it; `forbidden` and `not_found` are left out, which would make more tests naming a workspace
    // tenant checks, `if (workspace.usage > workspace.usageLimit) throw … "forbidden"`)
    const code = worded && ts.isPropertyAssignment(x) ? errorCodeStatus(ctx, x) : null;
    const st = code === 401 ? code : (statusOf(ts, x, ctx.errorClasses) ?? (worded && ctx.elysia ? elysiaStatus(ts, x) : null));
    if (st !== null) seen |= st === 401 ? AUTH : DENIED;
    else if (code !== null) seen |= CODED;
    ts.forEachChild(x, v);
  };
  const statuses = (n: TS.Node): number => {
    seen = 0;
    worded = spelledWithin(ctx.words.status, n.pos, n.end);
    v(n);
    return seen;
  };
  const callOf = (e: TS.Expression | undefined): TS.CallExpression | null => {
    if (!e) return null;
    const u = unwrap(ts, e);
    return ts.isCallExpression(u) ? u : null;
  };
  // `return viaSession()`, alone or alone in a block: what it returns
  const returnedCall = (s: TS.Statement): TS.Expression | null => {
    const only = ts.isBlock(s) ? (s.statements.length === 1 ? s.statements[0]! : null) : s;
    return only && ts.isReturnStatement(only) && callOf(only.expression) ? only.expression! : null;
  };
  // made when first needed: most bodies have no statement that ends the request
  let requestParamsSet: Set<string> | null = null;
  // (a Nest guard's `const request = context.switchToHttp().getRequest()` too)
  const requestParams = (): Set<string> =>
    (requestParamsSet ??= new Set([...f.params.slice(0, 2).filter((p) => p !== '' && p !== nextParam(f)), ...destructuredRequest(ctx, f), ...(f.name === 'canActivate' ? [nestRequestLocal(ts, statements)].filter((x) => x !== null) : [])]));
  const nextName = nextParam(f);
  // a call handed the request or the response (or, `orNext`, the function's `next`) by name
  const handsRequest = (call: TS.CallExpression, orNext = false): boolean =>
    call.arguments.some((a) => {
      const u = unwrap(ts, a);
      return ts.isIdentifier(u) && (requestParams().has(u.text) || (orNext && u.text === nextName));
    });
  // A branch ends the request when it responds, throws or hands an error to next, and never calls
  // next to go on (`exits`: it must end with a return or a throw, as an if's branch must).
  // The calls of `next` in `s` (nested functions left out): one going on, and one handing an error on.
  // (A Next.js middleware's `NextResponse.next()` goes on: `if (!token) { if (isApiPath) return
  // NextResponse.next(); return NextResponse.redirect(…) }` lets some requests without a token in.)
  const nextCalls = (s: TS.Node): { callsNext: boolean; error: boolean } => {
    let callsNext = false;
    let error = false;
    const v = (x: TS.Node): void => {
      if (callsNext || ts.isFunctionLike(x)) return;
      if (ts.isCallExpression(x) && ts.isIdentifier(x.expression) && x.expression.text === nextName) {
        if (handsErrorOn(ts, f, x)) error = true;
        else callsNext = true;
      } else if (isNextResponseNext(ts, x as TS.Expression)) callsNext = true;
      else ts.forEachChild(x, v);
    };
    v(s);
    return { callsNext, error };
  };
  const ends = (s: TS.Statement, exits: boolean): boolean => {
    const stmts = ts.isBlock(s) ? [...s.statements] : [s];
    const last = stmts[stmts.length - 1];
    const throws = !!last && (ts.isThrowStatement(last) || navigationThrow(ctx, last));
    if (!last || (exits && !(ts.isReturnStatement(last) || throws))) return false;
    const { callsNext, error } = nextCalls(s);
    return !callsNext && (throws || containsResponse(s) || error);
  };
  // `if (…) { …respond…; return; }`, `if (…) throw …`, `if (…) { done(err); return }`: the branch ends the request.
  const endsRequest = (s: TS.Statement): boolean => ends(s, true);
  // `{ return response.errorForbidden(req, res) }`, `{ refuse(ctx); return }`: a branch that exits
  // right after a call handed the request or the response, which may answer it — the call, for
  // the linker to judge by what the function called does (`LeadingGuard.endedBy`). `returned`:
  // also a call the branch returns, handed neither (`return logAndRespond("Invalid signature.",
  // { status: 400 })`: a route handler answers with the Response it returns).
  const endsByCall = (s: TS.Statement, exits: boolean, returned = false): TS.CallExpression | null => {
    const stmts = ts.isBlock(s) ? s.statements : [s];
    const last = stmts[stmts.length - 1];
    if (!last) return null;
    let e: TS.Expression | undefined;
    if (ts.isReturnStatement(last) && last.expression) e = last.expression;
    else if (ts.isReturnStatement(last) || !exits) {
      const before = ts.isReturnStatement(last) ? stmts[stmts.length - 2] : last;
      if (before && ts.isExpressionStatement(before)) e = before.expression;
    }
    const call = callOf(e);
    if (!call || isResponseCall(ts, call) || (ts.isIdentifier(call.expression) && call.expression.text === nextName)) return null;
    return handsRequest(call) || (returned && ts.isReturnStatement(last) && e === last.expression) ? call : null;
  };
  // A local holding a call's result: `const access = await canUserAccess(…)`.
  let results: Map<string, TS.CallExpression> | null = null;
  // `verifyWorkOSWebhook(…).catch(() => null)`: the call whose result (or, when it throws, nothing) a local holds
  const settled = (c: TS.CallExpression): TS.CallExpression => {
    const x = c.expression;
    return ts.isPropertyAccessExpression(x) && x.name.text === 'catch' && ts.isCallExpression(unwrap(ts, x.expression)) ? settled(unwrap(ts, x.expression) as TS.CallExpression) : c;
  };
  // A leading local and what it is first given: `const user = res.locals.user`.
  let inits: Map<string, TS.Expression> | null = null;
  // A leading local destructured from a value, and its property: `user` of `const { user } = req`.
  let picks: Map<string, { from: TS.Expression; prop: string }> | null = null;
  const initOf = (e: TS.Expression): TS.Expression | undefined => {
    const u = unwrap(ts, e);
    return ts.isIdentifier(u) ? inits?.get(u.text) : undefined;
  };
  // `session`, `session.user` of `const session = await getServerSession(authOptions)`: a leading
  // local, named for the signed-in user, holding what a session getter returned
  const userLocal = (e: TS.Expression): boolean => {
    const { root, props } = propertyChain(ts, e);
    const call = ts.isIdentifier(root) ? results?.get(root.text) : undefined;
    return !!call && sessionGetterCall(ts, call) && isUserPath([(root as TS.Identifier).text, ...props]);
  };
  // A member of the request a leading statement gives a value (`req.user = users[req.params.id]`),
  // by its path (`req.user`), and that value.
  let given: Map<string, TS.Expression> | null = null;
  const pathOf = (x: TS.Expression): string | null => {
    const { root, props } = propertyChain(ts, x);
    return ts.isIdentifier(root) && props.length > 0 ? [root.text, ...props].join('.') : null;
  };
  // Does `n` read what the request asks for (a route or query parameter, a field of its body, by
  // names no credential, session or user goes by, as asksOnly's), through leading locals?
  const readsAsked = (n: TS.Node, depth = 0): boolean => {
    if (ts.isIdentifier(n)) {
      const init = depth < 4 ? inits?.get(n.text) : undefined;
      return init !== undefined && readsAsked(init, depth + 1);
    }
    const props = ts.isPropertyAccessExpression(n) ? requestChain(ts, n, requestParams()) : null;
    if (props && CLIENT_SENT.has(props[0] ?? '')) return !props.some(namesCredential);
    return ts.forEachChild(n, (c) => readsAsked(c, depth) || undefined) === true;
  };
  // the request's signed-in user: read from the request, a session getter's result, the request's
  // session cookie, or a leading local given any of these; not a member of the request the
  // function gives a value read from what the request asks for (`req.user = users[req.params.id];
  // if (req.user) next() …`, express's route-separation example: a record the URL names)
  const userOf = (x: TS.Expression): boolean => {
    const init = initOf(x);
    const read = (y: TS.Expression): boolean => userRead(ts, y, requestParams()) || userLocal(y) || sessionCookieRead(ts, y, requestParams());
    const own = given === null ? undefined : given.get(pathOf(x) ?? '');
    if (own !== undefined && readsAsked(own)) return false;
    return read(x) || (init !== undefined && read(init));
  };
  const isNil = (x: TS.Expression): boolean => {
    const u = unwrap(ts, x);
    return u.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(u) && u.text === 'undefined');
  };
  // `if (!ctx.session.id)`, `if (!req.user || !req.user.id)`, `if (!req.isAuthenticated())`, `if (!session?.user)` of a leading local
  const noUser = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    // `!session?.user || params.userId !== session.user.id`: with no user, one alternative holding is enough
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.BarBarToken) return noUser(u.left) || noUser(u.right);
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken) {
      const x = unwrap(ts, u.operand);
      if (ts.isCallExpression(x) && x.arguments.length === 0 && ts.isPropertyAccessExpression(x.expression) && SIGNED_IN_FLAG.test(x.expression.name.text))
        return requestChain(ts, x.expression.expression, requestParams()) !== null;
      // `!request.isAuthenticated`: a flag an earlier hook set on the request
      if (ts.isPropertyAccessExpression(x) && SIGNED_IN_FLAG.test(x.name.text)) return requestChain(ts, x.expression, requestParams()) !== null;
      return userOf(x);
    }
    if (ts.isBinaryExpression(u) && [ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken].includes(u.operatorToken.kind))
      return (isNil(u.right) && userOf(u.left)) || (isNil(u.left) && userOf(u.right));
    return false;
  };
  // `!req.query.id`, `!queryId` of `const queryId = Number(req.query.id)` or of `const { id:
  // queryId } = req.query`: a test of nothing but what the request asks for (a route or query
  // parameter, a field of its body, by names no credential, session or user goes by), through
  // leading locals and number / string conversions. Its 401 answers a request that names
  // nothing, not one that proves no identity.
  const asksOnly = (e: TS.Expression, depth = 0): boolean => {
    let asked = false;
    const K = ts.SyntaxKind;
    // the property names read of the request, as `req.query.id` reads `['query', 'id']`
    const askedFor = (props: string[] | null): boolean => {
      if (!props || !asksForField(props)) return false;
      asked = true;
      return true;
    };
    const ok = (x: TS.Node): boolean => {
      if (isLiteralNode(ts, x)) return true;
      switch (x.kind) {
        case K.Identifier: {
          const init = depth < 4 ? inits?.get((x as TS.Identifier).text) : undefined;
          if (init === undefined) {
            const pick = picks?.get((x as TS.Identifier).text);
            const from = pick && requestChain(ts, pick.from, requestParams());
            return !!pick && !!from && askedFor([...from, pick.prop]);
          }
          if (!asksOnly(init, depth + 1)) return false;
          asked = true;
          return true;
        }
        case K.PropertyAccessExpression:
          return askedFor(requestChain(ts, x as TS.Expression, requestParams()));
        case K.CallExpression: {
          const c = x as TS.CallExpression;
          return ts.isIdentifier(c.expression) && CONVERSION.test(c.expression.text) && c.arguments.every(ok);
        }
        case K.PrefixUnaryExpression:
          return ok((x as TS.PrefixUnaryExpression).operand);
        case K.BinaryExpression:
          return ok((x as TS.BinaryExpression).left) && ok((x as TS.BinaryExpression).right);
        case K.ParenthesizedExpression:
        case K.TypeOfExpression:
        case K.AsExpression:
        case K.NonNullExpression:
        case K.AwaitExpression:
          return ok((x as TS.ParenthesizedExpression).expression);
        default:
          return false;
      }
    };
    return ok(unwrap(ts, e)) && asked;
  };
  // `!_.includes(ACTIONS, action)` in a handler `bulkAction(action)` makes (arena's bulk job
  // routes), `!ALLOWED.includes(kind)`: a test of nothing but what is known where the function is
  // made — a parameter of a function around it, a literal a name around it is given — and of
  // lists of those, through lodash's or a list's own `includes` / `indexOf`. It holds or not for
  // every request alike, so its 401 refuses no caller: it checks no identity.
  const knownWhereMade = (e: TS.Expression): boolean => {
    const K = ts.SyntaxKind;
    const outer = (name: string): Expr | 'lodash' | null => {
      const at = findScopeOf(ctx, scope, name);
      if (at === null) return ctx.facts.imports.some((i) => i.local === name && LODASH.has(i.source) && (i.imported === '=' || i.imported === 'default' || i.imported === '*')) ? 'lodash' : null;
      // (the function's own parameters and locals are bound in its scope: what the request may give)
      if (at.id === scope) return null;
      const b = at.bindings[name];
      return b === undefined || isEncoded(b) ? null : b;
    };
    const literal = (b: Expr): boolean => b.k === 'str' || b.k === 'num' || b.k === 'bool' || (b.k === 'arr' && b.items.every(literal));
    const ok = (x: TS.Node): boolean => {
      if (isLiteralNode(ts, x)) return true;
      switch (x.kind) {
        case K.Identifier: {
          const b = outer((x as TS.Identifier).text);
          return b !== null && b !== 'lodash' && (b.k === 'param' || literal(b));
        }
        case K.CallExpression: {
          const c = x as TS.CallExpression;
          const callee = unwrap(ts, c.expression);
          if (!ts.isPropertyAccessExpression(callee) || !/^(includes|indexOf)$/.test(callee.name.text) || !c.arguments.every(ok)) return false;
          const on = unwrap(ts, callee.expression);
          return (ts.isIdentifier(on) && outer(on.text) === 'lodash') || ok(on);
        }
        case K.PrefixUnaryExpression:
          return ok((x as TS.PrefixUnaryExpression).operand);
        case K.BinaryExpression:
          return ok((x as TS.BinaryExpression).left) && ok((x as TS.BinaryExpression).right);
        case K.ParenthesizedExpression:
          return ok((x as TS.ParenthesizedExpression).expression);
        default:
          return false;
      }
    };
    return ok(unwrap(ts, e));
  };
  // the declarations met so far, for the tests of the URL a local may hold
  const declared: TS.VariableStatement[] = [];
  // `pathname.startsWith('/ping')` of `const { pathname } = request.nextUrl`: a test of the request's URL, read whole
  const testsUrlOnly = (e: TS.Expression): boolean => {
    const reqName = f.params[0];
    if (!reqName) return false;
    const escapes: Escapes = { locals: declared, escapes: [{ e, holds: true }], unread: [] };
    return skippedRequests(ctx, scope, reqName, null, escapes).length > 0 && escapes.unread.length === 0;
  };
  // `!user && !pathname.startsWith('/login') && pathname !== '/'` (Supabase's template): with no
  // user, refused unless a test of the URL or the method is false; the requests it is false for,
  // or null when a conjunct tests anything else (`!error?.message?.includes('refresh_token')`)
  // or none tests the user
  const noUserUnless = (e: TS.Expression): SkipFor[] | null => {
    const conjuncts = joined(ts, e, ts.SyntaxKind.AmpersandAmpersandToken, (u) => [u]);
    const tests = conjuncts?.filter((c) => !noUser(c)) ?? [];
    const reqName = f.params[0];
    if (!conjuncts || tests.length === 0 || tests.length === conjuncts.length || !reqName) return null;
    const escapes: Escapes = { locals: declared, escapes: tests.map((t) => ({ e: t, holds: true })), unread: [] };
    const skips = skippedRequests(ctx, scope, reqName, null, escapes);
    return escapes.unread.length === 0 ? skips.flatMap((s) => ('except' in s ? complement(s.except) : [s])) : null;
  };
  // `req.isAuthenticated()`, `req.user`, `session?.user` of a leading local, `req.user != null`, either
  // side of an `&&`: a test that holds only for a request with a signed-in user (noUser's opposite)
  const signedIn = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return signedIn(u.left) || signedIn(u.right);
    if (ts.isCallExpression(u) && u.arguments.length === 0 && ts.isPropertyAccessExpression(u.expression) && SIGNED_IN_FLAG.test(u.expression.name.text))
      return requestChain(ts, u.expression.expression, requestParams()) !== null;
    if (ts.isPropertyAccessExpression(u) && SIGNED_IN_FLAG.test(u.name.text)) return requestChain(ts, u.expression, requestParams()) !== null;
    if (ts.isBinaryExpression(u) && [ts.SyntaxKind.ExclamationEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(u.operatorToken.kind))
      return (isNil(u.right) && userOf(u.left)) || (isNil(u.left) && userOf(u.right));
    // (`req.session?.authenticated === true`)
    if (ts.isBinaryExpression(u) && [ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken].includes(u.operatorToken.kind))
      return (unwrap(ts, u.right).kind === ts.SyntaxKind.TrueKeyword && userOf(u.left)) || (unwrap(ts, u.left).kind === ts.SyntaxKind.TrueKeyword && userOf(u.right));
    return userOf(u);
  };
  // `{ return next(); }`, `{ next(); return; }`: a branch that only hands the request on
  const handsOnOnly = (s: TS.Statement): boolean => {
    const list = ts.isBlock(s) ? s.statements : [s];
    const call = (e: TS.Expression | undefined): boolean => {
      const c = e && unwrap(ts, e);
      return !!c && ts.isCallExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === nextName && c.arguments.length === 0;
    };
    const [first, second] = list;
    if (list.length === 1 && first) return ts.isReturnStatement(first) ? call(first.expression) : ts.isExpressionStatement(first) && call(first.expression);
    return list.length === 2 && !!first && !!second && ts.isExpressionStatement(first) && call(first.expression) && ts.isReturnStatement(second) && !second.expression;
  };
  // `{ if (req.user.status === User.STATUS_ACTIVE) return next(); return res.redirect('/login'); }`
  // (growi's loginRequired): a branch handing the request on or refusing it, after checks of its
  // own that each do one or the other, with no other way out (and one handing it on: `if (req.user)
  // return res.redirect('/')` before a login page hands no one on)
  // (or, what follows the branch ending the request, one whose checks each hand the request on or
  // go on, to that end: flowise's `checkPermission`, `if (user) { if (user.isOrganizationAdmin)
  // return next(); if (permissions.includes(permission)) return next() } return res.status(403)…`,
  // and `checkAnyPermission`'s loop over the permissions asked for)
  const handsOnOrRefuses = (s: TS.Statement): boolean => {
    if (handsOnOnly(s)) return true;
    const list = ts.isBlock(s) ? s.statements : [s];
    if (list.every(handsOnOrGoesOn) && nextCalls(s).callsNext) return true;
    const last = list[list.length - 1];
    if (!last || !(handsOnOnly(last) || ends(last, true))) return false;
    let handsOn = handsOnOnly(last);
    const checks = list.slice(0, -1).every((x) => {
      if (ts.isIfStatement(x) && !x.elseStatement && handsOnOnly(x.thenStatement)) return (handsOn = true);
      if (ts.isIfStatement(x)) return !x.elseStatement && endsRequest(x.thenStatement);
      const { callsNext, error } = nextCalls(x);
      return ts.isVariableStatement(x) && !callsNext && !error;
    });
    return checks && handsOn;
  };
  // A statement that hands the request on (`return next()`) or goes on to the next, nothing else:
  // declarations, and `if`s and loops of such statements
  const handsOnOrGoesOn = (x: TS.Statement): boolean => {
    if (handsOnOnly(x)) return true;
    if (ts.isBlock(x)) return x.statements.every(handsOnOrGoesOn);
    if (ts.isIfStatement(x)) return handsOnOrGoesOn(x.thenStatement) && (!x.elseStatement || handsOnOrGoesOn(x.elseStatement));
    const K = ts.SyntaxKind;
    if (x.kind === K.ForStatement || x.kind === K.ForOfStatement || x.kind === K.ForInStatement || x.kind === K.WhileStatement) return handsOnOrGoesOn((x as TS.IterationStatement).statement);
    const { callsNext, error } = nextCalls(x);
    return ts.isVariableStatement(x) && !callsNext && !error;
  };
  // What follows a statement ends the request (its last statement responds or throws) and never hands it on.
  // (`exits`: the last must leave the function; not the function's own last statement, after which it leaves)
  const restEnds = (rest: readonly TS.Statement[], exits: boolean): boolean => {
    const last = rest[rest.length - 1];
    return !!last && ends(last, exits) && rest.every((x) => {
      const { callsNext, error } = nextCalls(x);
      return !callsNext && !error;
    });
  };
  // `!(await canAccess(…))`, `canAccess(…) === false`, `!access` / `access === false` for a local holding it
  const refusedCall = (e: TS.Expression): TS.CallExpression | null => {
    const u = unwrap(ts, e);
    let x: TS.Expression | null = null;
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken) x = unwrap(ts, u.operand);
    else if (ts.isBinaryExpression(u) && [ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken].includes(u.operatorToken.kind)) {
      if (unwrap(ts, u.right).kind === ts.SyntaxKind.FalseKeyword) x = unwrap(ts, u.left);
      else if (unwrap(ts, u.left).kind === ts.SyntaxKind.FalseKeyword) x = unwrap(ts, u.right);
    }
    if (!x) return null;
    if (ts.isIdentifier(x)) return results?.get(x.text) ?? null;
    // `!verification.verified` of `const verification = verifyRecallWebhook(…)`: the verdict it returned
    if (ts.isPropertyAccessExpression(x) && ts.isIdentifier(x.expression) && VERDICT.test(x.name.text)) return results?.get(x.expression.text) ?? null;
    return ts.isCallExpression(x) ? x : null;
  };
  // `!user || !(await compare(password, user.password))`: of refusals either side of `||`, the
  // last one's call — a record looked up first, then what is checked of it (a password's hash)
  const lastRefusedCall = (e: TS.Expression): TS.CallExpression | null => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.BarBarToken) return lastRefusedCall(u.right) ?? lastRefusedCall(u.left);
    return refusedCall(u);
  };
  // Whether `e` passes `is`, or a name it reads does, or a leading local it reads (through at most
  // 4 locals) does so in turn
  const traces = (e: TS.Node, is: (x: TS.Node) => boolean, depth = 0): boolean => {
    if (ts.isFunctionLike(e)) return false;
    if (is(e)) return true;
    let found = false;
    const v = (x: TS.Node): void => {
      if (found || ts.isFunctionLike(x)) return;
      if (ts.isPropertyAccessExpression(x)) return v(x.expression);
      if (ts.isIdentifier(x)) {
        const init = inits?.get(x.text);
        found = is(x) || (init !== undefined && depth < 4 && traces(init, is, depth + 1));
        return;
      }
      ts.forEachChild(x, v);
    };
    v(e);
    return found;
  };
  // Whether `e` reads the request: one of its parameters, or a leading local given something that does
  // (`req.headers.authorization?.split(' ')[1]`, `request.jwt`, `token` of `const token = …`); in a
  // Next.js route, the request's headers as next/headers gives them (`(await headers()).get('x-signature')`)
  const nextHeaders = ctx.facts.imports.find((i) => i.source === 'next/headers' && i.imported === 'headers')?.local;
  const readsRequest = (e: TS.Node): boolean => traces(e, (x) => ts.isIdentifier(x) && (requestParams().has(x.text) || x.text === nextHeaders));
  // Whether `e`'s text passes `test`, or that of a leading local it reads: an HMAC computed here
  // (`crypto.createHmac(…)….digest('hex')`, `` `sha256=${createHmac(…)…}` ``,
  // `Uint8Array.from(Buffer.from(computedSignature))`, HMAC_MADE), a secret of the deployment
  // (`` `Bearer ${process.env.CRON_SECRET}` ``, ENV_SECRET)
  const spells = (e: TS.Node, test: RegExp): boolean => traces(e, (x) => test.test(textOf(ctx, x)));
  // a value the request carries and one `expected` spells, either way round (not their lengths:
  // `token.length !== envKey.length` compares no secret)
  const sized = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    return ts.isPropertyAccessExpression(u) && (u.name.text === 'length' || u.name.text === 'byteLength');
  };
  const pair = (a: TS.Expression, b: TS.Expression, expected: RegExp): boolean =>
    !sized(a) && !sized(b) && ((spells(a, expected) && readsRequest(b)) || (spells(b, expected) && readsRequest(a)));
  // `a === b`, `timingSafeEqual(a, b)`, either side of `&&` (`a.length === b.length && timingSafeEqual(a, b)`),
  // or a leading local given one: what the request carries equals what `expected` spells
  const equalsExpected = (e: TS.Expression, expected: RegExp, depth = 0): boolean => {
    const u = unwrap(ts, e);
    if (ts.isIdentifier(u)) {
      const init = inits?.get(u.text);
      return init !== undefined && depth < 4 && equalsExpected(init, expected, depth + 1);
    }
    if (ts.isBinaryExpression(u)) {
      const op = u.operatorToken.kind;
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return equalsExpected(u.left, expected, depth) || equalsExpected(u.right, expected, depth);
      return (op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken) && pair(u.left, u.right, expected);
    }
    return ts.isCallExpression(u) && CONSTANT_TIME_EQUAL.test(calleeName(ts, u)) && u.arguments.length === 2 && pair(u.arguments[0]!, u.arguments[1]!, expected);
  };
  // `signature !== computedSignature`, `!timingSafeEqual(Buffer.from(signature), expected)`, `!isSignatureValid`
  // of a local given such an equality, either side of `||`: a value the request carries compared
  // with one `expected` spells, and refused unless equal
  const refusedUnlessEqual = (e: TS.Expression, expected: RegExp): boolean => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u)) {
      const op = u.operatorToken.kind;
      if (op === ts.SyntaxKind.BarBarToken) return refusedUnlessEqual(u.left, expected) || refusedUnlessEqual(u.right, expected);
      return (op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken) && pair(u.left, u.right, expected);
    }
    return ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && equalsExpected(u.operand, expected);
  };
  // `buildToken !== project.token`, either side of `||`: a credential header read (CREDENTIAL_HEADER,
  // through leading locals) compared with a property named for a stored credential (`token`,
  // `apiKey`, `secret`; not a CSRF token) of something other than the request, refused unless equal
  // (what a lookup returned, `project` of `const project = await storage.findProjectById(…)`: not
  // a property path of the request, `req.body.token`, nor of a local given one, `const { body } = req`)
  const storedCredential = (x: TS.Expression): boolean => {
    const u = unwrap(ts, x);
    if (!ts.isPropertyAccessExpression(u) || !/(?:token|key|secret)$/i.test(u.name.text) || /csrf|xsrf/i.test(u.name.text)) return false;
    const { root } = propertyChain(ts, u);
    if (!ts.isIdentifier(root) || requestParams().has(root.text) || picks?.has(root.text)) return false;
    const init = inits?.get(root.text);
    return init !== undefined && callOf(init) !== null && !readsRequest(unwrap(ts, init).kind === ts.SyntaxKind.CallExpression ? (unwrap(ts, init) as TS.CallExpression).expression : init);
  };
  const refusedUnlessStored = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    if (!ts.isBinaryExpression(u)) return false;
    const op = u.operatorToken.kind;
    if (op === ts.SyntaxKind.BarBarToken) return refusedUnlessStored(u.left) || refusedUnlessStored(u.right);
    if (op !== ts.SyntaxKind.ExclamationEqualsEqualsToken && op !== ts.SyntaxKind.ExclamationEqualsToken) return false;
    return (storedCredential(u.left) && spells(u.right, CREDENTIAL_HEADER)) || (storedCredential(u.right) && spells(u.left, CREDENTIAL_HEADER));
  };
  // In a leading `try` whose `catch` ends the request: the calls of a statement that may verify
  // what the request carries (`await verifyJWT(request.jwt, …)`, either of `c ? verifyA(t) : verifyB(t)`)
  // `request.jwtVerify()`: a call of a method of the request itself
  const requestMethod = (c: TS.CallExpression): boolean => {
    const callee = unwrap(ts, c.expression);
    return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && requestParams().has(callee.expression.text);
  };
  const verifications = (e: TS.Expression | undefined): TS.CallExpression[] => {
    if (!e) return [];
    const u = unwrap(ts, e);
    if (ts.isConditionalExpression(u)) return [...verifications(u.whenTrue), ...verifications(u.whenFalse)];
    if (!ts.isCallExpression(u)) return [];
    return VERIFY_CALL.test(calleeName(ts, u)) && readsRequest(u) ? [u] : [];
  };
  // What of the request `x` reads past what the caller writes (`req.client.organizationId`, Hono's
  // `c.get('orgId')`), also through a leading local given it or destructured from it (`orgId` of
  // `const orgId = c.get('orgId')`, `user.tenantId` of `const user = c.get('user')` or of `const {
  // user } = req`): its property names
  const callerRead = (x: TS.Expression): string[] | null => {
    const read = (y: TS.Expression): string[] | null => {
      const direct = requestChain(ts, y, requestParams()) ?? contextVariable(ctx, y, requestParams());
      if (direct) return direct;
      // (a property of one, `c.get('workspace').id`)
      const { root, props } = propertyChain(ts, y);
      const held = props.length > 0 ? contextVariable(ctx, root, requestParams()) : null;
      return held && [...held, ...props];
    };
    const direct = read(x);
    if (direct) return direct;
    const { root, props } = propertyChain(ts, x);
    if (!ts.isIdentifier(root)) return null;
    const init = inits?.get(root.text);
    const pick = init === undefined ? picks?.get(root.text) : undefined;
    const from = init ?? pick?.from;
    const held = from !== undefined ? read(from) : null;
    return held && [...held, ...(pick ? [pick.prop] : []), ...props];
  };
  // `!membership` of `const membership = await getMembership(session.user.id, orgId)`: a lookup
  // named for the tenant, or keyed by it (`prisma.member.findFirst({ where: { userId:
  // req.session.userId, organizationId } })`), and handed the signed-in user found nothing (either
  // side of `||`); a lookup of the tenant alone (`!workspace` of `await getWorkspace(params.id)`)
  // checks no access
  const noTenantFound = (e: TS.Expression): boolean => {
    const args = tenantLookupMissed(e);
    if (!args) return false;
    // `findFirst({ where: { id, organizationId: req.client.organizationId } })`: the row looked up
    // within the caller's own tenant, as a hook before put it on the request (openpanel's API clients)
    if (args.some((a) => callersTenantKeyed(ts, a, callerRead, 0))) return true;
    let user = false;
    const v = (a: TS.Node): void => {
      // (a condition made by a callback, Drizzle's `where: (member, { and, eq }) => and(eq(member.userId, session.user.id), …)`)
      if (ts.isArrowFunction(a) && !ts.isBlock(a.body)) return v(a.body);
      if (user || ts.isFunctionLike(a)) return;
      if ((ts.isIdentifier(a) || ts.isPropertyAccessExpression(a)) && userOf(a)) user = true;
      else if (ts.isPropertyAccessExpression(a)) v(a.expression);
      else if (ts.isPropertyAssignment(a)) v(a.initializer);
      else ts.forEachChild(a, v);
    };
    args.forEach(v);
    return user;
  };
  // `!membership`, `membership == null` (either side of `||`) of a local holding a lookup named
  // for the tenant or keyed by it: the arguments of that lookup (of each call along a query
  // builder's chain, `db.selectFrom('workspace_members').where('workspace_id', '=', id).where(
  // 'account_id', '=', req.user.id).executeTakeFirst()`); null for any other test. Also
  // `!rows.length`, `rows.length === 0` of the rows a query answers (Drizzle's and Knex's select: an array)
  const tenantLookupMissed = (e: TS.Expression): TS.Expression[] | null => {
    const u = unwrap(ts, e);
    let x: TS.Expression | null = null;
    const rowsOf = (y: TS.Expression): TS.Expression | null => {
      const w = unwrap(ts, y);
      return ts.isPropertyAccessExpression(w) && w.name.text === 'length' ? unwrap(ts, w.expression) : null;
    };
    const zero = (y: TS.Expression): boolean => ts.isNumericLiteral(y) && y.text === '0';
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.BarBarToken) return tenantLookupMissed(u.left) ?? tenantLookupMissed(u.right);
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken) x = rowsOf(u.operand) ?? unwrap(ts, u.operand);
    else if (ts.isBinaryExpression(u) && [ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken].includes(u.operatorToken.kind))
      x = isNil(u.right) ? unwrap(ts, u.left) : isNil(u.left) ? unwrap(ts, u.right) : zero(u.right) ? rowsOf(u.left) : zero(u.left) ? rowsOf(u.right) : null;
    const name = x && ts.isIdentifier(x) ? x.text : '';
    const call = results?.get(name);
    const args = call ? chainArguments(ts, call) : [];
    return call && (TENANT_RE.test(name) || TENANT_RE.test(textOf(ctx, call.expression)) || args.some((a) => tenantKeyed(ts, a, 0))) ? args : null;
  };
  // `if (!membership) throw new ForbiddenException()` of `const membership = await
  // this.projectUserRepo.findOne({ where: { project: { id: projectId }, user: { id: user.id } } })`
  // in a function handed the user (ever-traduora's `mustBeProjectUser(user, projectId)`): the
  // parameters the lookup reads, whole or by their id — a tenant check when a caller hands one of
  // them the request's signed-in user (LeadingGuard.userParams, judged when linked)
  const tenantLookupParams = (e: TS.Expression): number[] => {
    const args = tenantLookupMissed(e);
    const found: number[] = [];
    const v = (a: TS.Node): void => {
      if (ts.isFunctionLike(a)) return;
      if (ts.isIdentifier(a) || ts.isPropertyAccessExpression(a)) {
        const { root, props } = propertyChain(ts, a);
        const i = ts.isIdentifier(root) ? f.params.indexOf(root.text) : -1;
        if (i >= 0 && props.every((p) => ID_PROP.test(p)) && !found.includes(i)) found.push(i);
        else if (!ts.isIdentifier(root)) v(root);
      } else if (ts.isPropertyAssignment(a)) v(a.initializer);
      else ts.forEachChild(a, v);
    };
    args?.forEach(v);
    return found.sort((a, b) => a - b);
  };
  // what each argument of a call refused on is: the request's user, a credential it carries, or other
  const argumentKinds = (call: TS.CallExpression): ('user' | 'credential' | 'other')[] =>
    call.arguments.map((a) => (userRead(ts, a, requestParams()) ? 'user' : credentialRead(ts, a, requestParams()) ? 'credential' : 'other'));
  // `prisma.user.findFirst({ where: { token: req.headers.authorization } })`: a lookup by the credential
  // the request carries (asked for where the refusal is no 401, which is an inline check already)
  const credentialOf = (call: TS.CallExpression): { credential?: 'header' | 'other' } => {
    const by = credentialHanded(ts, call.arguments, requestParams(), initOf);
    return by ? { credential: by } : {};
  };
  // `!user` of `const user = extractUser(res).user`, `!token?.id` of `const token = await
  // getTokenFromRequest(req)`: the call, and the property path read from its result
  const missingFrom = (e: TS.Expression): { call: TS.CallExpression; path: string[] } | null => {
    const u = unwrap(ts, e);
    if (!ts.isPrefixUnaryExpression(u) || u.operator !== ts.SyntaxKind.ExclamationToken) return null;
    let { root, props } = propertyChain(ts, initOf(u.operand) ?? u.operand);
    const init = props.length > 0 ? initOf(root as TS.Expression) : undefined;
    if (init) {
      const inner = propertyChain(ts, init);
      [root, props] = [inner.root, [...inner.props, ...props]];
    }
    return ts.isCallExpression(root) && !sessionGetterCall(ts, root) ? { call: root, path: props } : null;
  };
  // In a leading `try` whose `catch` lets the request go on to a response after it (`try { userId =
  // await requireSession(req) } catch {} res.json(…)`: optional authentication), a throw ends
  // nothing: the calls there, and the branches ending in a throw, check nothing for the handler.
  let swallowing = false;
  // the leading calls whose result a local holds, by the local's name (`checked` when a leading `if` tests it and can leave)
  let held: Map<string, LeadingGuard> | null = null;
  const testsHeld = (e: TS.Node): LeadingGuard[] => {
    const found: LeadingGuard[] = [];
    const names = held;
    if (names === null) return found;
    const v = (x: TS.Node): void => {
      if (ts.isIdentifier(x) && names.has(x.text)) found.push(names.get(x.text)!);
      else if (!ts.isFunctionLike(x)) ts.forEachChild(x, v);
    };
    v(e);
    return found;
  };
  // A test of names the module holds or imports (`isLocalDev`, `process.env.X`, `config.devMode`), none of them
  // the function's own (its parameters, the locals it declared) and nothing called but an
  // environment variable read by its name (`env('NODE_ENV')` of documenso's own `env` helper):
  // the same for every request.
  const deploymentTest = (e: TS.Expression): boolean => {
    const own = new Set<string>(f.params);
    for (const st of declared) for (const d of st.declarationList.declarations) for (const n of boundNames(ts, d.name)) own.add(n);
    let ok = true;
    const visit = (n: TS.Node): void => {
      if (!ok) return;
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && /^(get|read)?env$/i.test(n.expression.text) && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0]!)) visit(n.expression);
      else if (ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isFunctionLike(n)) ok = false;
      else if (ts.isIdentifier(n)) ok = !own.has(n.text) && (n.text === 'process' || Object.hasOwn(ctx.facts.scopes[0]!.bindings, n.text) || ctx.facts.imports.some((i) => i.local === n.text));
      else if (ts.isPropertyAccessExpression(n)) visit(n.expression);
      else ts.forEachChild(n, visit);
    };
    visit(e);
    return ok;
  };
  // `middleware` of `if (middleware)`: a parameter of the function the handler is made in (a wrapper's)
  const handedFunction = (e: TS.Expression): string | null => {
    const u = unwrap(ts, e);
    return ts.isIdentifier(u) && !f.params.includes(u.text) && !declared.some((st) => st.declarationList.declarations.some((d) => boundNames(ts, d.name).includes(u.text))) && enclosingParams(ctx, f)?.has(u.text) ? u.text : null;
  };
  // `handler.auth` of `const handler = api[req.method]` (or of a local given `req.method`), `api` a
  // parameter of the function the handler is made in: the property path, else null
  const entryFlagOf = (e: TS.Expression): string[] | null => {
    const { root, props } = propertyChain(ts, e);
    const entry = ts.isIdentifier(root) && props.length > 0 ? initOf(root) : undefined;
    const at = entry && unwrap(ts, entry);
    if (!at || !ts.isElementAccessExpression(at)) return null;
    const table = unwrap(ts, at.expression);
    if (!ts.isIdentifier(table) || !enclosingParams(ctx, f)?.has(table.text)) return null;
    const key = unwrap(ts, at.argumentExpression);
    const method = (x: TS.Expression): boolean => requestChain(ts, x, requestParams())?.join('.') === 'method';
    return method(key) || (ts.isIdentifier(key) && !!initOf(key) && method(initOf(key)!)) ? props : null;
  };
  // `if (access === 'private') { const session = …; if (!session) return 401 }`: the 401 is a
  // nested test's, made only for the requests the outer one holds for — no check of every request.
  // So too where the branch ends the request otherwise, `if (!file) { if (shared) { …401… } return
  // 404 }` (Palmr's download): the outer test refuses, but checks no one unless it asks for a user.
  const nestedOnly = (stmt: TS.IfStatement): boolean => {
    const then = stmt.thenStatement;
    return ts.isBlock(then) && (!endsRequest(then) || !noUser(stmt.expression)) && then.statements.every((x) => ts.isIfStatement(x) || !(statuses(x) & AUTH));
  };
  // The tenant check every way of an `if` / `else if` / `else` chain makes: the last `else` a
  // refusal alone (`else { throw new ForbiddenException() }`: no request goes past the chain
  // unchecked), each other way a refusal too or led by a tenant check, at least one so (of the
  // parameters every such way's check reads, when each reads some). Null when a way checks no tenant.
  const tenantEveryWay = (stmt: TS.IfStatement): LeadingGuard | null => {
    const ways: TS.Statement[] = [];
    let s: TS.Statement | undefined = stmt;
    for (; s && ts.isIfStatement(s); s = s.elseStatement) ways.push(s.thenStatement);
    const refusal = (way: TS.Statement): boolean => (!ts.isBlock(way) || way.statements.length === 1) && endsRequest(way) && !serves(ctx, way);
    // (told first by what is cheap to tell: a way checking a tenant refuses with 403 or 404 somewhere)
    if (!s || !refusal(s) || ways.some((way) => !refusal(way) && !(statuses(way) & DENIED))) return null;
    let checks = 0;
    let params: number[] | null = null;
    for (const way of ways) {
      if (refusal(way)) continue;
      const stmts = ts.isBlock(way) ? way.statements : [way];
      const before = out.length;
      leading(stmts);
      const tenant = out.splice(before).filter((lg) => lg.inline === 'tenant');
      if (tenant.length === 0) return null;
      checks++;
      if (tenant.some((lg) => !lg.userParams)) continue;
      const read = tenant.flatMap((lg) => lg.userParams!);
      params = params === null ? [...new Set(read)].sort((a, b) => a - b) : params.filter((p) => read.includes(p));
      if (params.length === 0) return null;
    }
    return checks === 0 ? null : { inline: 'tenant', ...(params ? { userParams: params } : {}), at: locOf(ctx, stmt) };
  };
  const leading = (stmts: readonly TS.Statement[], verifying = false, top = false): boolean => {
    for (const [index, stmt] of stmts.entries()) {
      if (ts.isVariableStatement(stmt)) declared.push(stmt);
      else if (ts.isExpressionStatement(stmt) && ts.isBinaryExpression(stmt.expression) && stmt.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        const to = requestChain(ts, stmt.expression.left, requestParams()) !== null ? pathOf(stmt.expression.left) : null;
        if (to !== null) (given ??= new Map()).set(to, stmt.expression.right);
      }
      if (ts.isIfStatement(stmt) && swallowing && endsByThrow(ts, stmt.thenStatement)) continue;
      if (ts.isIfStatement(stmt)) {
        // `if (!member) return;`: the function can leave on what a leading call returned
        if (exits(ts, stmt.thenStatement)) for (const lg of testsHeld(stmt.expression)) lg.checked = true;
        const found = out.length;
        const st = statuses(stmt.thenStatement);
        // the branch refuses the request: it ends it (true), or exits right after a call that may
        // answer it (`return logAndRespond("Invalid signature.", { status: 400 })`, judged when linked);
        // read only in a file that computes an HMAC, reads a secret or names a CSRF token, where it can matter
        const refusal = stmt.elseStatement || !(ctx.hmac || ctx.secret || ctx.csrf || ctx.header) ? null : endsRequest(stmt.thenStatement) ? true : endsByCall(stmt.thenStatement, true, true);
        const refuses = refusal !== null && !serves(ctx, stmt.thenStatement);
        const refusedAs = (inline: 'signature' | 'secret' | 'token'): LeadingGuard =>
          typeof refusal === 'object' && refusal !== null
            ? { ...leadingCall(ctx, refusal, scope), inline, endedBy: true, at: locOf(ctx, stmt) }
            : { inline, at: locOf(ctx, stmt), ...(endsByThrow(ts, stmt.thenStatement) ? { throws: true as const } : {}) };
        // `if (signature !== computedSignature) return new Response(…, { status: 400 })`: a webhook's
        // signature checked (its 401, if any, checks no caller's identity)
        const signed = ctx.hmac && refuses && refusedUnlessEqual(stmt.expression, HMAC_MADE);
        if (signed) out.push(refusedAs('signature'));
        else if (st & AUTH && !asksOnly(stmt.expression) && !nestedOnly(stmt) && !knownWhereMade(stmt.expression)) {
          const refused = lastRefusedCall(stmt.expression);
          const call = refused && (ctx.calls.get(refused) ?? (shallowExpr(ctx, refused, scope) as Extract<Expr, { k: 'call' }>));
          out.push(call ? { inline: 'auth', refuses: call.callee, args: call.args, at: locOf(ctx, stmt) } : { inline: 'auth', at: locOf(ctx, stmt) });
        }
        // (a tenant compared and the request refused with 401, `if (req.raw.workspaceId !== payload.workspaceId)
        // throw new UnauthorizedException('Workspace does not match')`, checks the tenant too; a tenant not
        // found so, `if (!workspace) throw …401…`, the credential only)
        if ((st & DENIED && (comparesTenantValue(ts, stmt.expression) || noTenantFound(stmt.expression))) || (st & AUTH && comparesTenantValue(ts, stmt.expression)) || (st & CODED && noTenantFound(stmt.expression)))
          out.push({ inline: 'tenant', at: locOf(ctx, stmt) });
        else if (st & DENIED) {
          const userParams = tenantLookupParams(stmt.expression);
          if (userParams.length > 0) out.push({ inline: 'tenant', userParams, at: locOf(ctx, stmt) });
        }
        // `if (authHeader !== \`Bearer ${process.env.CRON_SECRET}\`) return 401`: what the request carries
        // compared with a secret of the deployment, the request refused unless they are equal
        if (ctx.secret && refuses && !signed && refusedUnlessEqual(stmt.expression, ENV_SECRET)) out.push(refusedAs('secret'));
        // `if (buildToken !== project.token) throw new Error('Invalid token')` of `const buildToken =
        // req.header('x-lhci-build-token')`, refused whatever the status: a credential the request
        // carries in a header compared with the one stored for what it asks for (its 401, if any,
        // is read as any 401 is)
        else if (ctx.header && refuses && !signed && !(st & AUTH) && refusedUnlessStored(stmt.expression)) out.push(refusedAs('token'));
        // `if (csrfToken !== csrfCookieToken) throw new AppError(…)`: a CSRF token compared, the request refused
        // (ended by the branch itself, not by a helper it returns)
        if (ctx.csrf && refusal === true && refuses && comparesCsrfToken(ctx, stmt.expression)) out.push({ inline: 'csrf', at: locOf(ctx, stmt) });
        // `if (req.isAuthenticated()) { …the work… } else { return response.errorForbidden(req, res) }`:
        // `if (!req.isAuthenticated()) return …; …the work…` written the other way round. (The
        // else branch must exit unless nothing follows the `if` in the body.)
        const otherwise = stmt.elseStatement;
        if (otherwise && !ts.isIfStatement(otherwise) && !(st & AUTH) && signedIn(stmt.expression)) {
          const exits = !top || index < stmts.length - 1;
          const ended = ends(otherwise, exits);
          const via = ended ? null : endsByCall(otherwise, exits);
          if (ended || via) {
            out.push(via ? { ...leadingCall(ctx, via, scope), inline: 'auth', noUser: true, endedBy: true, at: locOf(ctx, stmt) } : { inline: 'auth', noUser: true, at: locOf(ctx, stmt) });
            const then = ts.isBlock(stmt.thenStatement) ? stmt.thenStatement.statements : [stmt.thenStatement];
            if (!leading(then) || containsResponse(stmt.thenStatement)) return false;
            continue;
          }
        }
        // `if (req.session?.authenticated === true || allowed.has(req.path)) return next(); res.redirect(login)`:
        // the request goes on only with a signed-in user (or past the allowlist of the other alternatives)
        // (the redirect the function's last statement, no `return` needed: Passport's `ensureAuthenticated`)
        if (!stmt.elseStatement && !(st & AUTH) && nextName && handsOnOrRefuses(stmt.thenStatement) && restEnds(stmts.slice(index + 1), !top)) {
          const alternatives = joined(ts, stmt.expression, ts.SyntaxKind.BarBarToken, (u) => [u]) ?? [stmt.expression];
          const others = alternatives.filter((a) => !signedIn(a));
          if (others.length < alternatives.length) {
            const reqName = f.params[0];
            const escapes: Escapes = { locals: declared, escapes: others.map((e) => ({ e, holds: true })), unread: [] };
            const skips = others.length === 0 ? [] : reqName ? skippedRequests(ctx, scope, reqName, null, escapes) : null;
            if (skips && escapes.unread.length === 0) {
              out.push({ inline: 'auth', noUser: true, ...(skips.length > 0 ? { skips: skips.flatMap((x) => ('except' in x ? complement(x.except) : [x])) } : {}), at: locOf(ctx, stmt) });
              return false;
            }
          }
        }
        const endsThen = !stmt.elseStatement && endsRequest(stmt.thenStatement);
        // a WebSocket handler refuses by closing its socket, with no status to say why: a tenant's check so too
        if (f.socket && endsThen && !(st & DENIED) && (comparesTenantValue(ts, stmt.expression) || noTenantFound(stmt.expression))) out.push({ inline: 'tenant', at: locOf(ctx, stmt) });
        // (a call the branch returns too: `if (!session?.user) return new ChatSDKError('unauthorized:chat').toResponse()`
        // of a route handler answering with the Response it returns — a check when what it calls answers)
        const viaCall = !stmt.elseStatement && !endsThen && !(st & AUTH) ? endsByCall(stmt.thenStatement, true, true) : null;
        const unless = (endsThen || viaCall) && !(st & AUTH) && !noUser(stmt.expression) ? noUserUnless(stmt.expression) : null;
        const skipping = unless ? { skips: unless } : {};
        if (viaCall && (unless || noUser(stmt.expression))) out.push({ ...leadingCall(ctx, viaCall, scope), inline: 'auth', noUser: true, endedBy: true, ...skipping, at: locOf(ctx, stmt) });
        else if (endsThen && !answersSuccess(ctx, stmt.thenStatement)) {
          const refused = refusedCall(stmt.expression);
          const kinds = refused ? argumentKinds(refused) : [];
          if (!(st & AUTH) && (unless || noUser(stmt.expression))) out.push({ inline: 'auth', noUser: true, ...skipping, at: locOf(ctx, stmt) });
          // A check the handler refuses on: of the signed-in user (unless the 401 says so already),
          // or of anything else — `if (!(await verifySignature(body, sig))) throw …` (a family's check, by its name)
          else if (refused && !(st & AUTH && kinds.includes('user')))
            out.push({ ...leadingCall(ctx, refused, scope), refusal: kinds, ...(st & AUTH ? {} : credentialOf(refused)) });
          // `if (!user) { …; return }` of `const user = extractUser(res).user`: a signed-in check when
          // the function called gives the request's signed-in user there (judged when linked)
          else if (!refused && !(st & AUTH)) {
            const via = missingFrom(stmt.expression);
            if (via) out.push({ ...leadingCall(ctx, via.call, scope), userVia: via.path, ...(via.path.length === 0 ? credentialOf(via.call) : {}) });
          }
        } else if (viaCall && !serves(ctx, stmt.thenStatement) && refusedCall(stmt.expression)) {
          // `if (!isValid) return Response.sendErrorResponse(req, res, …)` of `const isValid =
          // GitHubUtil.verifyWebhookSignature(…)`: a check the handler refuses on by a call that
          // answers (judged when linked, LeadingGuard.endedVia)
          const refused = refusedCall(stmt.expression)!;
          out.push({ ...leadingCall(ctx, refused, scope), refusal: argumentKinds(refused), endedVia: shallowExpr(ctx, viaCall.expression, scope) });
        } else if (!stmt.elseStatement && !(st & AUTH) && answersNothing(ts, stmt.thenStatement)) {
          // `if (!this.handleMissingAuthHeader(req.headers.authorization, res, next)) return;`: the
          // function leaves, answering nothing, when a call handed the request, the response or
          // `next` answers false — the call may have answered the request itself (judged when
          // linked, by what the function called does: LeadingGuard.endedBy). Only a call written in
          // the test: one whose result a leading local holds leads already (`const user = await
          // requireUser(req, res); if (!user) return;`).
          const refused = refusedCall(stmt.expression);
          const inTest = refused !== null && refused.pos >= stmt.expression.pos && refused.end <= stmt.expression.end;
          if (inTest && handsRequest(refused, true)) out.push({ ...leadingCall(ctx, refused, scope), endedBy: true, checked: true });
        }
        // `if (!session) return null;`, `if (!membership) return null;`: checks made by answering nothing (FunctionFact.emptyWhen)
        if (empty && !stmt.elseStatement && answersNothing(ts, stmt.thenStatement)) {
          if (noUser(stmt.expression)) empty.push({ kind: 'auth', at: locOf(ctx, stmt) });
          if (noTenantFound(stmt.expression)) empty.push({ kind: 'tenant', at: locOf(ctx, stmt) });
        }
        // `if (!isLocalDev) { …the signature checked… }`, `if (process.env.NODE_ENV === 'production') { … }`:
        // a setting of the deployment decides, the same for every request — the checks of a block
        // that goes on to what follows lead the rest
        if (!stmt.elseStatement && ts.isBlock(stmt.thenStatement) && !exits(ts, stmt.thenStatement) && deploymentTest(stmt.expression)) {
          if (!leading(stmt.thenStatement.statements)) return false;
          continue;
        }
        // `if (middleware) { const result = await middleware(req); if (result instanceof Response) return result; … }`
        // (inbox-zero's `withMiddleware(handler, middleware?)`): a function the wrapper may be handed,
        // called when it is. Its calls lead the rest: when it is not handed, the call is of nothing and
        // no guard when linked. (Only its calls: the others run for the wrappers handed one.)
        // `if (handler.auth) { …checks… }` of `const handler = api[req.method]`, `api` a table of
        // handlers by method the function's maker is handed (jitsu's `nextJsApiHandler({ GET: {
        // auth: true, handle } })`): the checks lead the methods whose entry has the flag
        const open = !stmt.elseStatement && ts.isBlock(stmt.thenStatement) && !exits(ts, stmt.thenStatement);
        const flag = open ? entryFlagOf(stmt.expression) : null;
        const given = open && !flag ? handedFunction(stmt.expression) : null;
        if (flag || given) {
          const before = out.length;
          const going = leading((stmt.thenStatement as TS.Block).statements);
          const led = out.splice(before);
          if (flag) for (const lg of led) lg.entryFlag = flag;
          out.push(...(flag ? led : led.filter((lg) => lg.callee?.k === 'ref' && lg.callee.name === given)));
          if (!going) return false;
          continue;
        }
        // `if (has('organizationId', input)) { const access = await getOrganizationAccess(…); if (!access) throw … }`:
        // a tenant check made whenever the request names a tenant leads the rest as well. (Only its
        // tenant checks: what else the block calls runs for the requests naming one only.)
        if (!stmt.elseStatement && ts.isBlock(stmt.thenStatement) && namesTenant(ts, stmt.expression)) {
          const before = out.length;
          leading(stmt.thenStatement.statements);
          out.push(...out.splice(before).filter((lg) => lg.inline === 'tenant'));
          continue;
        }
        // `if (userOrClient instanceof User) { …the membership looked up; if (!membership) throw
        // …403…; return membership } else if (…) { …a client's… } else { throw …403… }`
        // (ever-traduora's `mustBeProjectUserOrClient`): each way checks the tenant or refuses
        if (stmt.elseStatement && out.length === found) {
          const checked = tenantEveryWay(stmt);
          if (checked) {
            out.push(checked);
            continue;
          }
        }
        // `if (key) return viaApiKey(key); return viaSession();` (or `else return viaSession()`)
        // ending the body: the function answers with one call or the other, each leading its way
        if (top && out.length === found) {
          const other = stmt.elseStatement ? (index === stmts.length - 1 ? stmt.elseStatement : undefined) : index === stmts.length - 2 ? stmts[index + 1] : undefined;
          const x = other && returnedCall(stmt.thenStatement);
          // (not a callback run in place, `return Sentry.withIsolationScope(async () => { …checks… })`:
          // its statements lead what it answers, below)
          const y = x && returnedCall(other);
          const ways = x && y && !runCallback(ts, y) ? eitherOf(ctx, stmt, x, y, scope, f, ownArguments) : null;
          if (ways) {
            if (!swallowing) out.push(ways);
            return false;
          }
        }
        // A branch that checks nothing and writes (hackathon-starter's `if (req.body.loginByEmailLink ===
        // 'on') { …; await user.save(); …; return res.redirect('/login') }`) has done work for the
        // requests taking it, as a write among the statements has for all: what follows leads no more
        if (out.length === found && !signedIn(stmt.expression) && branchWrites(ctx, stmt)) return false;
        // `if (doc.public) return res.json(doc)`: the requests the test lets in are served before
        // what follows, which leads only the others. (A branch the signed-in user takes serves no
        // one unchecked; one taken by a method, `if (req.method === 'OPTIONS') return res.end()`,
        // serves no route of another.)
        if (endsThen && out.length === found && serves(ctx, stmt.thenStatement) && !signedIn(stmt.expression) && !/\.method\b/.test(textOf(ctx, stmt.expression))) {
          // (`if (pathname.startsWith('/ping')) return new Response('pong')` at the top of a middleware:
          // those requests it answers itself, and the others go on to what follows — read on, apart)
          if (!pastServed || !top || !testsUrlOnly(stmt.expression)) return false;
          served ??= out.length;
        }
        continue;
      }
      // The statements a leading `try` runs first lead the handler too; when its `catch` ends the
      // request, a call among them verifying what the request carries refuses it by throwing.
      if (ts.isTryStatement(stmt)) {
        const caught = !!stmt.catchClause && ends(stmt.catchClause.block, false);
        const outer = swallowing;
        // (a `catch` ending in a `return`, `return errorResponse(e)`, lets nothing go on)
        swallowing ||= !!stmt.catchClause && !caught && !exits(ts, stmt.catchClause.block) && stmts.slice(index + 1).some(containsResponse);
        const going = leading(stmt.tryBlock.statements, caught);
        swallowing = outer;
        // (`try { body = await req.text() } catch { return new Response('Error', { status: 400 }) }`:
        // a `catch` refusing the request leaves what follows leading the rest, as a refusing `if` does)
        const refusing = caught && !serves(ctx, stmt.catchClause!.block);
        if (!going || containsResponse(stmt.tryBlock) || (stmt.catchClause && !refusing && containsResponse(stmt.catchClause)) || (stmt.finallyBlock && containsResponse(stmt.finallyBlock))) return false;
        continue;
      }
      // `return runWithAlsSession(sessionId, async () => { …checks…; return next(); })`: the callback
      // runs in place, in a context the call makes; its statements lead what follows
      const inContext = ts.isReturnStatement(stmt) || ts.isExpressionStatement(stmt) ? contextCallback(ctx, stmt.expression) : null;
      if (inContext) {
        const outer = scope;
        scope = inContext.scope;
        const going = leading(inContext.statements);
        scope = outer;
        if (!going) return false;
        continue;
      }
      let call: TS.CallExpression | null = null;
      // what the statement computes: an expression's right-hand side, or a declared local's initializer
      let value: TS.Expression | undefined;
      // the locals the call's result goes to (`const member = …`, `const { auth, error } = …`)
      let holders: string[] = [];
      if (ts.isExpressionStatement(stmt)) {
        // `event = stripe.webhooks.constructEvent(…)`: a call whose result goes to a declared local;
        // `req.user = await this.auth.sessionUser(req)`, at the body's top, to a member (of the
        // request, mostly): what it throws ends the request there (in a `try`, the `catch` decides)
        const x = unwrap(ts, stmt.expression);
        const assigned = ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.EqualsToken ? x : null;
        value = assigned ? assigned.right : stmt.expression;
        call = callOf(assigned && (ts.isIdentifier(assigned.left) || (top && ts.isPropertyAccessExpression(assigned.left))) ? assigned.right : stmt.expression);
        if (call && assigned && ts.isIdentifier(assigned.left)) {
          (results ??= new Map()).set(assigned.left.text, settled(call));
          holders = [assigned.left.text];
        }
      }
      else if (ts.isVariableStatement(stmt) && stmt.declarationList.declarations.length === 1) {
        const d = stmt.declarationList.declarations[0]!;
        value = d.initializer;
        call = callOf(d.initializer);
        if (call && ts.isIdentifier(d.name)) (results ??= new Map()).set(d.name.text, settled(call));
        // `const { data: { user } } = await supabase.auth.getUser()`: each name a session getter's result is destructured to
        else if (call && sessionGetterCall(ts, settled(call))) for (const name of boundNames(ts, d.name)) (results ??= new Map()).set(name, settled(call));
        // `const user = (await supabase.auth.getUser()).data.user` (chatbot-ui's getServerProfile): a path read off one, likewise
        else if (!call && d.initializer && ts.isIdentifier(d.name)) {
          const { root, props } = propertyChain(ts, d.initializer);
          const getter = props.length > 0 ? callOf(root as TS.Expression) : null;
          if (getter && sessionGetterCall(ts, settled(getter))) (results ??= new Map()).set(d.name.text, settled(getter));
        }
        // `const [membership] = await db.select()…`: the first row of what a query returns
        else if (call && ts.isArrayBindingPattern(d.name) && d.name.elements.length === 1) {
          const el = d.name.elements[0]!;
          if (el.kind === ts.SyntaxKind.BindingElement && !(el as TS.BindingElement).dotDotDotToken && ts.isIdentifier((el as TS.BindingElement).name))
            (results ??= new Map()).set(((el as TS.BindingElement).name as TS.Identifier).text, settled(call));
        }
        if (call) holders = boundNames(ts, d.name);
        if (d.initializer && ts.isIdentifier(d.name)) (inits ??= new Map()).set(d.name.text, d.initializer);
        else if (d.initializer && ts.isObjectBindingPattern(d.name))
          for (const el of d.name.elements) {
            const prop = el.propertyName ? propName(ts, el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : null;
            if (!el.dotDotDotToken && ts.isIdentifier(el.name) && prop !== null) (picks ??= new Map()).set(el.name.text, { from: d.initializer, prop });
          }
      }
      // (or an awaited one the body's top makes, its answer let go, of a method the request is
      // given, `await request.jwtVerify()` of @fastify/jwt: what it throws leaves the function
      // there, so the request goes no further — Fastify and Koa answer the error, Express 5 hands
      // it to its error handler, Express 4 never calls next. A function of the code so called is
      // judged by its own body, as any leading call is.)
      const verified = verifying ? verifications(value) : top && !swallowing && awaitedAlone(ts, stmt) ? verifications(value).filter(requestMethod) : [];
      if (verified.length > 0) {
        for (const c of verified) out.push({ ...leadingCall(ctx, c, scope), verifies: true });
        continue;
      }
      // `return handleGet(req)`, or the body's last statement (`{ await listProjects(req, res) }`):
      // the function ends with the call
      const endsWith = ts.isReturnStatement(stmt) ? stmt.expression : top && index === stmts.length - 1 && ts.isExpressionStatement(stmt) && value === stmt.expression ? value : undefined;
      const handedOn = endsWith ? handedOnCall(ts, endsWith, f, ownArguments) : null;
      if (handedOn) {
        if (!ts.isReturnStatement(stmt)) {
          if (!swallowing) out.push({ ...delegatedCall(ctx, handedOn, scope, f), delegates: true });
          continue;
        }
        if (!swallowing) out.push({ ...delegatedCall(ctx, handedOn, scope, f), delegates: true, returned: true });
      } else if (call && !isResponseCall(ts, call)) {
        if (!swallowing) {
          // (handed the credential the request carries: `this.keys.accountFor(request.headers['x-api-key'])`)
          const lg = { ...leadingCall(ctx, call, scope), ...credentialOf(call) };
          for (const name of holders) (held ??= new Map()).set(name, lg);
          // (`requireSession(req);`: the promise dropped, not awaited; one a local keeps may be awaited later)
          let made = value;
          while (made && (ts.isParenthesizedExpression(made) || ts.isAsExpression(made) || ts.isNonNullExpression(made))) made = made.expression;
          if (made === call && ts.isExpressionStatement(stmt) && value === stmt.expression) lg.unawaited = true;
          out.push(lg);
        }
        // (`await db.items.deleteItem(id); if (!req.user) return res.status(401)…`: the item is gone
        // before the check, which leads nothing; the write itself is judged by what its definition
        // does first — docmost's `removeLabelFromPage` refuses a label of another workspace)
        if (writes(ts, call)) return false;
        continue;
      }
      // `return authenticatedApiClient({ request, handler: async (…) => … })` ending the body: a call
      // handed the function doing the work (itself, or as a property of an object) wraps it — it
      // leads the function, which answers with what it returns (as the call an arrow's body is).
      // (`return this.loginUsecase.execute(command)` is handed no function: it does the work.)
      const returned = top && !swallowing && ts.isReturnStatement(stmt) ? callOf(stmt.expression) : null;
      if (returned && !isResponseCall(ts, returned) && returned.arguments.some((a) => handsFunction(ts, a))) {
        out.push({ ...leadingCall(ctx, returned, scope), checked: true });
        return false;
      }
      // `return a.length === b.length && timingSafeEqual(a, b)` of a token the request carries and a
      // secret of the deployment, ending a body returning nothing else but `false`: a predicate a caller refuses on
      if ((ctx.hmac || ctx.secret) && top && index === stmts.length - 1 && ts.isReturnStatement(stmt) && stmt.expression) {
        const matches = ctx.hmac && equalsExpected(stmt.expression, HMAC_MADE) ? 'signature' : ctx.secret && equalsExpected(stmt.expression, ENV_SECRET) ? 'secret' : null;
        if (matches && onlyFalseReturns(ts, stmts, stmt)) f.behaviour.matchesSecret = matches;
      }
      // `return key ? viaApiKey(key) : viaSession()` ending the body: the call of each way
      const ways = top && !swallowing && index === stmts.length - 1 && ts.isReturnStatement(stmt) && stmt.expression ? eitherWay(ctx, stmt.expression, scope, f, ownArguments) : null;
      if (ways) {
        out.push(ways);
        return false;
      }
      if (containsResponse(stmt) || ts.isReturnStatement(stmt)) {
        // `return res.status(result.status).json(…)`: the answer is made of what a leading call returned
        for (const lg of testsHeld(stmt)) lg.checked = true;
        return false;
      }
    }
    return true;
  };
  leading(statements, false, true);
  if (served === null) return out;
  pastServed?.(out);
  return out.slice(0, served);
}

/** Does every `return` in `stmts` (outside nested functions) but `last` return `false`, `null`, `undefined` or nothing? */
function onlyFalseReturns(ts: TSModule, stmts: readonly TS.Statement[], last: TS.ReturnStatement): boolean {
  let only = true;
  const v = (n: TS.Node): void => {
    if (!only || ts.isFunctionLike(n)) return;
    if (ts.isReturnStatement(n) && n !== last) {
      only = returnsNothing(ts, n);
      return;
    }
    ts.forEachChild(n, v);
  };
  for (const st of stmts) v(st);
  return only;
}

/** `async (…) => …`, `function () {…}`, or an object literal with one as a property (`{ request, handler: async (…) => … }`). */
function handsFunction(ts: TSModule, a: TS.Expression): boolean {
  const u = unwrap(ts, a);
  if (ts.isArrowFunction(u) || ts.isFunctionExpression(u)) return true;
  return ts.isObjectLiteralExpression(u) && u.properties.some((p) => ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && (ts.isArrowFunction(unwrap(ts, p.initializer)) || ts.isFunctionExpression(unwrap(ts, p.initializer)))));
}

/**
 * Is `name` a function declared at the top of `body` or of the file (`const failed = (status) => {
 * …; throw new Error('Authentication failed') }`, `function fail(…) { … }`) whose body ends with a
 * `throw`: a call of it never returns?
 */
function endsThrowing(ts: TSModule, name: string, body: TS.Node, sf: TS.SourceFile): boolean {
  const fnBody = (stmts: readonly TS.Statement[]): TS.Node | undefined => {
    for (const st of stmts) {
      if (ts.isFunctionDeclaration(st) && st.name?.text === name) return st.body;
      if (!ts.isVariableStatement(st)) continue;
      for (const d of st.declarationList.declarations) {
        const init = d.initializer ? unwrap(ts, d.initializer) : undefined;
        if (ts.isIdentifier(d.name) && d.name.text === name && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return init.body;
      }
    }
    return undefined;
  };
  const found = (ts.isBlock(body) ? fnBody(body.statements) : undefined) ?? fnBody(sf.statements);
  return !!found && ts.isBlock(found) && endsByThrow(ts, found);
}

/** `return;`, `return null;`, `return false;`, `return undefined;`, alone (or in a block alone). */
function answersNothing(ts: TSModule, s: TS.Statement): boolean {
  if (ts.isBlock(s) && s.statements.length !== 1) return false;
  const last = lastStatement(ts, s);
  return !!last && ts.isReturnStatement(last) && returnsNothing(ts, last);
}

/** `return;`, `return null;`, `return false;`, `return undefined;` */
function returnsNothing(ts: TSModule, ret: TS.ReturnStatement): boolean {
  const r = ret.expression ? unwrap(ts, ret.expression) : undefined;
  return !r || r.kind === ts.SyntaxKind.NullKeyword || r.kind === ts.SyntaxKind.FalseKeyword || (ts.isIdentifier(r) && r.text === 'undefined');
}

/** A block's last statement, or the statement itself. */
function lastStatement(ts: TSModule, s: TS.Statement): TS.Statement | undefined {
  return ts.isBlock(s) ? s.statements[s.statements.length - 1] : s;
}

/**
 * `{ return res.status(200).send(startupConfig) }`: a branch answering with a success status
 * written out (`.status(200)`, `.sendStatus(204)`, `.code(200)`, `{ status: 200 }`, `ctx.status =
 * 200`), naming no error or refusal: the request is served there, not refused (LibreChat's config
 * route answers a request without a user with the config shown before signing in).
 */
function answersSuccess(ctx: Ctx, s: TS.Statement): boolean {
  const text = textOf(ctx, s);
  return SUCCESS_STATUS.test(text) && !REFUSING_ANSWER.test(text);
}
const SUCCESS_STATUS = /\b(?:status|sendStatus|code)\(\s*2\d\d\s*\)|\bstatus\s*:\s*2\d\d\b|\.status\s*=\s*2\d\d\b/;
/** REFUSING_TEXT, signing in named as words only (`'Login required'`, not a `socialLogins` key), an expiry too. */
const REFUSING_ANSWER = /\b[3-5]\d\d\b|error|invalid|denied|forbidden|unauthori[sz]ed|not.?found|bad.?request|redirect|conflict|too.?many|fail|refus|reject|missing|required|expired|\blog.?in\b|\bsign.?in\b|\bfalse\b/i;

/** Does the branch end with a `throw`? */
function endsByThrow(ts: TSModule, s: TS.Statement): boolean {
  const last = lastStatement(ts, s);
  return !!last && ts.isThrowStatement(last);
}

/**
 * `{ return res.json(doc) }`: a branch answering the request with what it asked for — a response
 * naming no error, no refusal and no status of 300 or more (`res.status(404)…`, `{ error: … }`,
 * `{ ok: false }`, `badRequestResponse()` refuse). (Only asked of a branch that ends the request.)
 */
function serves(ctx: Ctx, s: TS.Statement): boolean {
  const last = lastStatement(ctx.ts, s);
  return !!last && !ctx.ts.isThrowStatement(last) && !REFUSING_TEXT.test(textOf(ctx, s));
}

/** Does `s` (an `if` and its branches), outside nested functions, make a call that writes (`user.save()`: writes)? */
function branchWrites(ctx: Ctx, s: TS.Statement): boolean {
  const { ts } = ctx;
  // (told by the file's words first: most branches name no write)
  if (!spelledWithin(ctx.words.write, s.pos, s.end)) return false;
  let found = false;
  const v = (n: TS.Node): void => {
    if (found || ts.isFunctionLike(n)) return;
    if (ts.isCallExpression(n) && writes(ts, n)) found = true;
    else ts.forEachChild(n, v);
  };
  v(s);
  return found;
}

/**
 * `csrfToken !== csrfCookieToken`, either side of `||` / `&&`: a token named for CSRF compared with
 * another value (not a literal: `typeof csrfToken !== 'string'` checks no token); or the Origin
 * header compared so (ORIGIN_HEADER).
 */
function comparesCsrfToken(ctx: Ctx, e: TS.Expression): boolean {
  const { ts } = ctx;
  const u = unwrap(ts, e);
  if (!ts.isBinaryExpression(u)) return false;
  const K = ts.SyntaxKind;
  const op = u.operatorToken.kind;
  if (op === K.BarBarToken || op === K.AmpersandAmpersandToken) return comparesCsrfToken(ctx, u.left) || comparesCsrfToken(ctx, u.right);
  if (!comparesValues(ts, u)) return false;
  const text = textOf(ctx, u);
  return CSRF_RE.test(text) || ORIGIN_HEADER.test(text);
}

/** `a !== b`, `a == b`: an equality of two values, neither a constant (constantOperand). */
function comparesValues(ts: TSModule, x: TS.BinaryExpression): boolean {
  const K = ts.SyntaxKind;
  const op = x.operatorToken.kind;
  if (op !== K.EqualsEqualsEqualsToken && op !== K.ExclamationEqualsEqualsToken && op !== K.EqualsEqualsToken && op !== K.ExclamationEqualsToken) return false;
  return !constantOperand(ts, x.left) && !constantOperand(ts, x.right);
}

/** A constant compared with (`'free'`, `0`, `null`, `undefined`, `true`, or what `typeof` gives). */
function constantOperand(ts: TSModule, x: TS.Expression): boolean {
  const v = unwrap(ts, x);
  return isLiteralNode(ts, v) || v.kind === ts.SyntaxKind.TypeOfExpression || (ts.isIdentifier(v) && v.text === 'undefined');
}

/**
 * Is the status at `n` given only under `if` tests of nothing but the function's parameters
 * (Behaviour.status401OnParams)? Every statement or expression enclosing it in the function's
 * body is one that only carries it (a block, a `return`, a `throw`, an object, a call) or an `if`
 * entered by its `then` branch whose test reads the parameters and nothing else — at least one.
 */
function givenOnParamTests(ts: TSModule, n: TS.Node, body: TS.Node, ancestors: readonly TS.Node[], params: readonly string[]): boolean {
  const K = ts.SyntaxKind;
  let tested = false;
  // `!linkId`, `typeof id !== 'number' || id < 1`, `!Number.isInteger(Number(opts.page))`
  const readsParams = (e: TS.Node): boolean => {
    if (isLiteralNode(ts, e)) return true;
    switch (e.kind) {
      case K.Identifier:
        if ((e as TS.Identifier).text === 'undefined') return true;
        if (!params.includes((e as TS.Identifier).text)) return false;
        tested = true;
        return true;
      case K.PropertyAccessExpression:
      case K.NonNullExpression:
      case K.ParenthesizedExpression:
      case K.AsExpression:
      case K.TypeOfExpression:
        return readsParams((e as TS.PropertyAccessExpression).expression);
      case K.PrefixUnaryExpression:
        return readsParams((e as TS.PrefixUnaryExpression).operand);
      case K.BinaryExpression: {
        const x = e as TS.BinaryExpression;
        return comparingOrLogical(ts, x.operatorToken.kind) && readsParams(x.left) && readsParams(x.right);
      }
      case K.CallExpression: {
        const c = e as TS.CallExpression;
        const callee = c.expression;
        const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) ? `${callee.expression.text}.${callee.name.text}` : '';
        return VALUE_TESTS.test(name) && c.arguments.every(readsParams);
      }
      default:
        return false;
    }
  };
  let child: TS.Node = n;
  for (let i = ancestors.length - 1; i >= 0 && child !== body; child = ancestors[i]!, i--) {
    const p = ancestors[i]!;
    if (ts.isIfStatement(p)) {
      if (p.thenStatement !== child || !readsParams(p.expression)) return false;
    } else if (!carriesStatus(ts, p.kind)) return false;
  }
  return tested;
}

/** Operators a test of values is made of (givenOnParamTests). */
function comparingOrLogical(ts: TSModule, op: TS.SyntaxKind): boolean {
  const K = ts.SyntaxKind;
  switch (op) {
    case K.EqualsEqualsEqualsToken:
    case K.ExclamationEqualsEqualsToken:
    case K.EqualsEqualsToken:
    case K.ExclamationEqualsToken:
    case K.LessThanToken:
    case K.LessThanEqualsToken:
    case K.GreaterThanToken:
    case K.GreaterThanEqualsToken:
    case K.AmpersandAmpersandToken:
    case K.BarBarToken:
    case K.QuestionQuestionToken:
      return true;
    default:
      return false;
  }
}

/** Conversions of a value the request sends, as a test of it may read it (`Number(req.query.id)`). */
export const CONVERSION = /^(?:Number|String|Boolean|parseInt|parseFloat)$/;

/** Conversions and tests of a value a parameter's test may call (givenOnParamTests). */
const VALUE_TESTS = new RegExp(`${CONVERSION.source}|^(?:isNaN|isFinite|Number\\.(?:isNaN|isInteger|isFinite|isSafeInteger)|Array\\.isArray)$`);

/** What only carries a status given in it to the function's answer (givenOnParamTests). */
function carriesStatus(ts: TSModule, kind: TS.SyntaxKind): boolean {
  const K = ts.SyntaxKind;
  switch (kind) {
    case K.Block:
    case K.ReturnStatement:
    case K.ThrowStatement:
    case K.ExpressionStatement:
    case K.ObjectLiteralExpression:
    case K.PropertyAssignment:
    case K.CallExpression:
    case K.NewExpression:
    case K.ParenthesizedExpression:
    case K.AsExpression:
    case K.AwaitExpression:
      return true;
    default:
      return false;
  }
}

/** A string, number, `null`, `true` or `false` written as such. */
function isLiteralNode(ts: TSModule, n: TS.Node): boolean {
  const K = ts.SyntaxKind;
  switch (n.kind) {
    case K.StringLiteral:
    case K.NumericLiteral:
    case K.NoSubstitutionTemplateLiteral:
    case K.NullKeyword:
    case K.TrueKeyword:
    case K.FalseKeyword:
      return true;
    default:
      return false;
  }
}

/** `String(x)`, `Number(x)`, `parseInt(x, 10)`, `x.toString()`: conversions, which keep what the value is (`String(session.activeOrgId)`). */
const CONVERSIONS = new Set(['String', 'Number', 'parseInt', 'BigInt']);

/**
 * The name a value is read by: `tenantId` of `req.session.tenantId`, `tenant` of
 * `connection.tenant`, `orgId` of `params['orgId']`, `tenantIds` of `(session?.tenantIds ?? [])`.
 */
function readName(ts: TSModule, x: TS.Expression): string {
  let u = withoutFallback(ts, x);
  for (let i = 0; i < 4 && ts.isCallExpression(u); i++) {
    const c = u.expression;
    if (ts.isIdentifier(c) && CONVERSIONS.has(c.text) && u.arguments[0]) u = withoutFallback(ts, u.arguments[0]);
    else if (ts.isPropertyAccessExpression(c) && c.name.text === 'toString' && u.arguments.length === 0) u = withoutFallback(ts, c.expression);
    else break;
  }
  if (ts.isIdentifier(u)) return u.text;
  if (ts.isPropertyAccessExpression(u)) return u.name.text;
  if (ts.isElementAccessExpression(u) && ts.isStringLiteralLike(u.argumentExpression)) return u.argumentExpression.text;
  return '';
}

/** The property naming a record's id (`user.id`, `client._id`). */
const ID_PROP = /^(id|_id|uid|sub)$/i;

/** The methods that test a value's membership of a list or set (`orgIds.includes(orgId)`, `user.workspaces.some(…)`). */
const MEMBERSHIP_METHOD = /^(includes|some|has|find|every|indexOf|findIndex|filter)$/;

/**
 * `project.tenantId !== req.session.tenantId`, `connection.tenant !== teamId`,
 * `orgIds.includes(req.params.orgId)`, `user.workspaces.some((w) => w.id === workspaceId)`: a
 * test comparing a value read by a tenant's name with another value — not with a constant
 * (`workspace.plan === 'free'`), and not a measure (`workspace.usage > workspace.usageLimit`).
 */
function comparesTenantValue(ts: TSModule, e: TS.Expression): boolean {
  let found = false;
  const v = (x: TS.Node): void => {
    if (found) return;
    if ((ts.isBinaryExpression(x) && tenantEquality(ts, x)) || (ts.isCallExpression(x) && tenantMembership(ts, x))) found = true;
    else ts.forEachChild(x, v);
  };
  v(e);
  return found;
}

/** The arguments of a call and of each call its callee is a method of (a query builder's chain: Kysely, Knex, Drizzle). */
function chainArguments(ts: TSModule, call: TS.CallExpression): TS.Expression[] {
  const out: TS.Expression[] = [...call.arguments];
  for (let e = unwrap(ts, call.expression), n = 0; ts.isPropertyAccessExpression(e) && n < 32; n++) {
    const on = unwrap(ts, e.expression);
    if (!ts.isCallExpression(on)) break;
    out.push(...on.arguments);
    e = unwrap(ts, on.expression);
  }
  return out;
}

/** An object literal with a property named for the tenant (`{ where: { userId, organizationId } }`), at most three objects deep. */
function tenantKeyed(ts: TSModule, a: TS.Expression, depth: number): boolean {
  const u = unwrap(ts, a);
  // (Drizzle's `where: and(eq(member.userId, userId), eq(member.organizationId, orgId))`, or the
  // callback form `where: (member, { and, eq }) => and(…)`)
  if (depth <= 2 && ts.isCallExpression(u)) return tenantCondition(ts, u, 0);
  if (depth <= 2 && ts.isArrowFunction(u) && !ts.isBlock(u.body)) return tenantKeyed(ts, u.body, depth + 1);
  if (!ts.isObjectLiteralExpression(u) || depth > 2) return false;
  return u.properties.some(
    (p) =>
      ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ts.isIdentifier(p.name) && TENANT_RE.test(p.name.text)) ||
      (ts.isPropertyAssignment(p) && tenantKeyed(ts, p.initializer, depth + 1)),
  );
}

/**
 * `eq(member.organizationId, orgId)`, either way round, or one of the conditions of `and(…)`
 * (Drizzle's operators, drizzle-orm's `eq` and `and`): a condition on a column named for the tenant
 * — compared with a value `value` holds for, when given (the caller's tenant: callersTenantKeyed).
 */
function tenantCondition(ts: TSModule, c: TS.CallExpression, depth: number, value?: (x: TS.Expression) => boolean): boolean {
  const name = ts.isIdentifier(c.expression) ? c.expression.text : ts.isPropertyAccessExpression(c.expression) ? c.expression.name.text : '';
  const column = (x: TS.Expression): boolean => {
    const u = unwrap(ts, x);
    return ts.isPropertyAccessExpression(u) && TENANT_RE.test(u.name.text);
  };
  if (name === 'eq' && c.arguments.length === 2) {
    const [l, r] = c.arguments as unknown as [TS.Expression, TS.Expression];
    return value ? (column(l) && value(r)) || (column(r) && value(l)) : column(l) || column(r);
  }
  if (name !== 'and' || depth > 3) return false;
  return c.arguments.some((a) => {
    const u = unwrap(ts, a);
    return ts.isCallExpression(u) && tenantCondition(ts, u, depth + 1, value);
  });
}

/** What of the request a caller writes as they like: a tenant read there is the one asked for, not the caller's. */
export const REQUEST_INPUT = /^(params|query|body|headers|cookies|url|path|originalUrl|raw|param|header|json|valid)$/;

/**
 * An object literal (at most three objects deep) with a property named for the tenant whose value
 * is the caller's tenant, read off the request past what the caller writes (`organizationId:
 * req.client.organizationId`, `orgId: request.session.orgId`, `organizationId: c.get('orgId')`):
 * a lookup confined to the caller's tenant. `read` gives the property names a value reads of the
 * request (requestChain), or null.
 */
function callersTenantKeyed(ts: TSModule, a: TS.Expression, read: (e: TS.Expression) => string[] | null, depth: number): boolean {
  const u = unwrap(ts, a);
  // (Drizzle's `and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId))`, as tenantCondition
  // reads it; from 2 deeper, so that an `and` nests to the depth an object literal does)
  if (ts.isCallExpression(u) && depth <= 2) return tenantCondition(ts, u, depth + 2, (x) => callersTenant(read(x)));
  if (!ts.isObjectLiteralExpression(u) || depth > 2) return false;
  return u.properties.some((p) => {
    if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) return false;
    const value = ts.isPropertyAssignment(p) ? p.initializer : p.name;
    if (!ts.isIdentifier(p.name) || !TENANT_RE.test(p.name.text)) return ts.isPropertyAssignment(p) && callersTenantKeyed(ts, p.initializer, read, depth + 1);
    return callersTenant(read(value));
  });
}

/**
 * What a value reads of the request (`read`'s answer) is the caller's tenant, put there past what
 * the caller writes: read by a tenant's name (`req.client.organizationId`), or the id of a value
 * so named (`c.get('workspace').id`, openstatus's workspace an API key belongs to).
 */
function callersTenant(props: string[] | null): boolean {
  if (props === null || props.length === 0 || props.slice(0, -1).some((x) => REQUEST_INPUT.test(x))) return false;
  const last = props[props.length - 1]!;
  return TENANT_RE.test(last) || (last === 'id' && props.length > 1 && TENANT_RE.test(props[props.length - 2]!));
}

/**
 * `project.tenantId !== req.session.tenantId`: an equality of a value read by a tenant's name and
 * another value; or a key test of such a value in a map read by one (tenantKeyTest)
 * (comparesTenantValue).
 */
function tenantEquality(ts: TSModule, x: TS.BinaryExpression): boolean {
  return (comparesValues(ts, x) && !enumMember(ts, x.left) && !enumMember(ts, x.right) && (TENANT_RE.test(readName(ts, x.left)) || TENANT_RE.test(readName(ts, x.right)))) || tenantKeyTest(ts, x);
}

/**
 * `ACCESS_TYPE.ORGANIZATION_GET`, `AccessType.WORKSPACE_SET`: a member named in capitals of an
 * enum or an object of constants — a constant, whatever it names (rap2's `accessType ===
 * ACCESS_TYPE.ORGANIZATION_GET` picks the kind of access asked for, and compares no tenant).
 */
function enumMember(ts: TSModule, x: TS.Expression): boolean {
  const u = unwrap(ts, x);
  return ts.isPropertyAccessExpression(u) && /^[A-Z][A-Z0-9_]*$/.test(u.name.text) && ts.isIdentifier(u.expression) && /^[A-Z]/.test(u.expression.text);
}

/**
 * `req.session.userWorkspaces[workspaceId] !== undefined` (briefer's workspace mount), `orgId in
 * session.userOrganizations`: a value read by a tenant's name, not a constant, looked up as a key
 * of a map read by one — a membership test, as `orgIds.includes(orgId)` is.
 */
function tenantKeyTest(ts: TSModule, x: TS.BinaryExpression): boolean {
  const K = ts.SyntaxKind;
  const op = x.operatorToken.kind;
  const key = (k: TS.Expression): boolean => !constantOperand(ts, k) && TENANT_RE.test(readName(ts, k));
  if (op === K.InKeyword) return key(x.left) && tenantList(ts, x.right);
  if (op !== K.EqualsEqualsEqualsToken && op !== K.ExclamationEqualsEqualsToken && op !== K.EqualsEqualsToken && op !== K.ExclamationEqualsToken) return false;
  const absent = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    return u.kind === K.NullKeyword || (ts.isIdentifier(u) && u.text === 'undefined');
  };
  const looked = absent(x.right) ? unwrap(ts, x.left) : absent(x.left) ? unwrap(ts, x.right) : null;
  return !!looked && ts.isElementAccessExpression(looked) && key(looked.argumentExpression) && tenantList(ts, looked.expression);
}

/**
 * `orgIds.includes(req.params.orgId)`, `(this.rows.get(tenantId) ?? []).find(…)`: a membership
 * test of a value read by a tenant's name, in the tenant's list, or among the tenant's people
 * (comparesTenantValue).
 */
function tenantMembership(ts: TSModule, x: TS.CallExpression): boolean {
  const c = x.expression;
  if (memberLookup(ts, x)) return true;
  if (!ts.isPropertyAccessExpression(c) || !MEMBERSHIP_METHOD.test(c.name.text)) return false;
  return tenantList(ts, c.expression) || x.arguments.some((a) => TENANT_RE.test(readName(ts, a))) || amongTenantMembers(ts, x, c.expression);
}

/**
 * A function named for looking a member up (`findMembership`, `getTeamMember`, `isMember`), or one
 * user of a tenant (`getTeamUser`, umami's: the row joining a team and a user), not for making or
 * removing one, nor for listing them (`getTeamUsers`).
 */
const MEMBER_LOOKUP = /^(?:find|get|fetch|load|look[Uu]p|read|is|has|check|verify|require|ensure|assert)(?:\w*[Mm]ember|\w*(?:Team|Tenant|Org|Organi[sz]ation|Workspace)User$)|^member(?:ship)?(?:Of|For)?$/;

/**
 * `this.memberships.findMembership(req.params.orgId, req.user.id)`: the caller looked up among
 * the members of a tenant the request names, by a function named for it — a tenant read by its
 * name and another value, not a constant (Hoppscotch's `getTeamMember(teamID, user.uid)` guards).
 */
function memberLookup(ts: TSModule, x: TS.CallExpression): boolean {
  const c = x.expression;
  const name = ts.isIdentifier(c) ? c.text : ts.isPropertyAccessExpression(c) ? c.name.text : '';
  if (!MEMBER_LOOKUP.test(name) || x.arguments.length < 2) return false;
  const tenant = x.arguments.findIndex((a) => TENANT_RE.test(readName(ts, a)));
  return tenant >= 0 && x.arguments.some((a, i) => i !== tenant && !constantOperand(ts, a));
}

/** A list read by a tenant's name, or looked up for one: `session.tenantIds`, `(this.rows.get(tenantId) ?? [])`. */
function tenantList(ts: TSModule, x: TS.Expression): boolean {
  if (TENANT_RE.test(readName(ts, x))) return true;
  const u = withoutFallback(ts, x);
  return ts.isCallExpression(u) && u.arguments.some((a) => TENANT_RE.test(readName(ts, a)));
}

/** The lists of a tenant's people (`organization.members`, `workspace.userIds`). */
const MEMBER_LIST = /^(members|memberIds|users|userIds)$/;

/**
 * A search of a tenant's people for a value not written as a constant: GrowthBook's
 * `req.organization.members.filter((m) => m.id === req.userId)`, the user looked for among the
 * members of the organization a header names; `workspace.userIds.includes(userId)`. (A search for
 * a role, `workspace.members.some((m) => m.role === 'owner')`, looks for no one.)
 */
function amongTenantMembers(ts: TSModule, x: TS.CallExpression, list: TS.Expression): boolean {
  const u = withoutFallback(ts, list);
  if (!ts.isPropertyAccessExpression(u) || !MEMBER_LIST.test(u.name.text) || !TENANT_RE.test(readName(ts, u.expression))) return false;
  const arg = x.arguments[0] ? unwrap(ts, x.arguments[0]) : undefined;
  if (!arg) return false;
  if (!ts.isArrowFunction(arg) && !ts.isFunctionExpression(arg)) return !constantOperand(ts, arg);
  let found = false;
  const v = (n: TS.Node): void => {
    if (found || ts.isFunctionLike(n)) return;
    if (ts.isBinaryExpression(n) && comparesValues(ts, n)) found = true;
    else ts.forEachChild(n, v);
  };
  v(arg.body);
  return found;
}

/** The value read before its fallback: `session?.tenantIds` of `(session?.tenantIds ?? [])`, `a` of `a || b`. */
function withoutFallback(ts: TSModule, x: TS.Expression): TS.Expression {
  let u = unwrap(ts, x);
  while (fallbackOp(ts, u)) u = unwrap(ts, (u as TS.BinaryExpression).left);
  return u;
}

/** A test naming a CSRF token (the names the guards' default `csrf` matcher knows). */
const CSRF_RE = /csrf|xsrf/i;
/** Statuses of a request that cannot be read: bad syntax, no length, too large, a media type or content not taken (Behaviour.refusesUnreadableOnly). */
const UNREADABLE = new Set([400, 411, 413, 415, 422]);
/** Packages whose `includes` / `indexOf` read only their arguments (leadingGuards, knownWhereMade). */
const LODASH = new Set(['lodash', 'lodash-es', 'underscore']);
/** Words of a credential in a function's text (Behaviour.refusesUnreadableOnly). */
const CREDENTIAL_WORD = /authori[sz]|authenticat|token|api[-_]?key|secret|passw|session|cookie|credential|signature|login|user/i;
/** The deployment's environment read (Behaviour.refusesUnreadableOnly). */
const ENV_READ = /\bprocess\.env\b|\bimport\.meta\.env\b|\benv\s*[.([]/;
/** A request header read by name, but those of its content and what it accepts (Behaviour.refusesUnreadableOnly). */
const CALLER_HEADER = /\bheaders?\s*(?:\.\s*(?!content|accept)[a-z]|\[\s*['"`](?!content-|accept)[\w-]+['"`]\s*\])|\b(?:get|header|getHeader)\s*\(\s*['"`](?!content-|accept)[\w-]+['"`]/i;
/**
 * The request's Origin header read (`request.headers.get('origin')`, `req.headers.origin`,
 * `req.get('Origin')`, `req.headers?.origin`): compared with the origin expected and refused
 * unless equal, OWASP's origin verification (Cap's `if (request.headers.get('origin') !==
 * request.nextUrl.origin)`).
 */
const ORIGIN_HEADER = /\bheaders?\s*(?:\??\.\s*origin\b|(?:\?\.)?\[\s*['"`]origin['"`]\s*\])|\b(?:get|header|getHeader)\s*\(\s*['"`]origin['"`]\s*\)/i;

/**
 * The request headers named for a credential a caller sends (`authorization`, `x-api-key`,
 * `x-device-token`): CREDENTIAL_HEADER's (a signature's aside), and those a lookup may be handed
 * (credentialHanded).
 */
const CALLER_HEADER_NAMES = String.raw`authorization|x-[\w-]*(?:key|token|secret)|[\w-]*api-?key|[\w-]*-(?:token|secret)`;

/**
 * A read of a header that carries a credential: the Authorization header, or one named for an API
 * key, a token, a secret or a signature (`x-api-key`, `x-openstatus-key`, `x-auth-token`,
 * Openpanel's `openpanel-client-secret`, a webhook's `Upstash-Signature`, `x-hub-signature-256`)
 * — `req.headers.authorization`, `const { authorization } = headers` (langfuse's admin API),
 * `request.headers.apikey`, `request.headers['x-api-key']`, `req.get('Authorization')`,
 * `c.req.header('x-api-key')`, `request.headers.get('authorization')`; optional chains too
 * (lunary's `ctx.request?.headers?.authorization`, `headers?.["x-api-key"]`).
 */
const CREDENTIAL_HEADER = new RegExp(
  String.raw`\{[^{}]*\b(?:authorization|apikey|api_key|token)\b[^{}]*\}\s*=\s*[\w$.]*\bheaders\b|\bheaders?\s*(?:\??\.\s*(?:authorization|apikey|api_key|token)\b|(?:\?\.)?\[\s*['"\x60](?:${CALLER_HEADER_NAMES}|[\w-]*signature[\w-]*)['"\x60]\s*\])|\b(?:header|get|getHeader)\s*\(\s*['"\x60](?:${CALLER_HEADER_NAMES}|[\w-]*signature[\w-]*)['"\x60]`,
  'i',
);
/**
 * What a credential the browser sends by itself spells somewhere: a cookie, or HTTP Basic
 * credentials (which a browser sends again, once entered, with every request to the origin).
 */
const AMBIENT_CREDENTIAL = /cookie|basic/i;
/**
 * A cookie written, not read (`setCookie(…)`, `res.cookie(…)`, `reply.setCookie(…)`,
 * `cookies().set(…)`, `ctx.cookies.set(…)`, `res.clearCookie(…)`, `deleteCookie(c, …)`): unkey's
 * session refresh reads its token from a header and writes the new session cookie.
 */
const COOKIE_WRITE = /\b(?:set|clear|delete|remove)Cookies?\s*\(|\.\s*cookie\s*\(|\bcookies\s*(?:\(\s*\))?\s*\)?\s*\.\s*(?:set|delete)\s*\(/gi;
/** What may name a session, in a name or a string. */
const SESSION_WORD = /session/i;
/** An argument naming the credential already read (`getSession(token)`, `findSession(apiKey)`). */
const CREDENTIAL_ARGUMENT = /token|key|jwt|bearer|credential|header/i;

/** Names a function gives the request (a Nest guard's `const request = context.switchToHttp().getRequest()` included). */
const REQUEST_NAMES = /^(req|request|ctx|context|c|event)$/;
/** What of the request, handed on, hands on what a credential is read from: its headers, cookies, the request underneath. */
const REQUEST_PARTS = /^(headers|req|raw|request|cookies)$/;

/**
 * Does the function take its credential from a request header only (Behaviour.headerCredential),
 * or from a header only if the functions it hands its request to do (Behaviour.credentialVia)?
 * Its body spells no cookie or Basic credentials anywhere (AMBIENT_CREDENTIAL), reads no session
 * the request carries (`ambientSession`), and either reads a credential header (CREDENTIAL_HEADER)
 * handing no function its request whole (its first parameter or a name of REQUEST_NAMES, or their
 * `headers`, `req`, `raw`, `request` or `cookies`, also as a property of an object literal:
 * `getSession({ req })`), or hands it only to functions named in place (`validateSession(req,
 * res)`), which must then read a header only themselves, once linked — or read no credential at
 * all, when it reads a credential header itself (Behaviour.credentialHeader). A named function
 * handed a request whose body spells no credential (CREDENTIAL_SPELLED: `workspaceOf(req)`
 * reading the workspace a request names) reads none, if the functions it hands the request to
 * read none either (Behaviour.readsNoCredential). One whose first parameter takes the
 * Authorization header apart (`({ authorization }) => …`, logto's `extractBearerTokenFromHeaders`,
 * handed `request.headers`) reads that header, when it spells no cookie or Basic credentials.
 */
function headerCredentialOnly(ctx: Ctx, node: TS.FunctionLikeDeclaration, body: TS.Node, f: FunctionFact, first: string | null): void {
  const { ts } = ctx;
  if (!first) {
    const p = runtimeParameters(ts, node)[0];
    const takesApart =
      !!p && ts.isObjectBindingPattern(p.name) && p.name.elements.some((el) => /^authorization$/i.test((el.propertyName ? propName(ts, el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : null) ?? ''));
    if (takesApart && !AMBIENT_CREDENTIAL.test(ctx.text.slice(body.pos, body.end).replace(COOKIE_WRITE, ''))) f.behaviour.headerCredential = true;
    return;
  }
  // (a function that may be a guard: one that hands the request on, a Nest guard's
  // `canActivate`, one that can answer 401 — not a route's handler calling `audit(req)`)
  const b = f.behaviour;
  const mayGuard = b.callsNext || b.passesOn === true || f.name === 'canActivate' || b.status401;
  const text = ctx.text.slice(body.pos, body.end);
  // whether the body reads a credential header (tested once, when first asked; never in a file that reads none)
  let headerRead: boolean | undefined;
  const readsHeader = (): boolean => (headerRead ??= ctx.header && (CREDENTIAL_HEADER.test(text) || JWT_HEADER_EXTRACTOR.test(text)));
  // (a named function: a route's handler is mostly written in place, and its facts then stay
  // the same when its body comes to spell a credential or hand the request to a helper)
  // (or one that only writes to its request, `req.user = user` once the token its caller read is
  // verified: logchimp's `authenticateWithToken(req, res, next, token)`, whatever its body spells)
  const spellsNone = f.name !== null && REQUEST_NAMES.test(first) && ((!CREDENTIAL_SPELLED.test(text) && !readsHeader()) || onlyWritten(ts, body, first));
  if (spellsNone && !handsRequestIn(ctx, body, first)) {
    b.readsNoCredential = true;
    return;
  }
  if (!ctx.header && !spellsNone && !(mayGuard && handsRequestIn(ctx, body, first))) return;
  const header = readsHeader();
  if (AMBIENT_CREDENTIAL.test(text.replace(COOKIE_WRITE, ''))) return;
  // (a local of the body named like a request but awaited is none: openpanel's `const context =
  // await authenticateToken(…)`, the token's organisation, answered with `JSON.stringify(context)`;
  // Nest's `const request = context.switchToHttp().getRequest()` is the request)
  let awaited: Set<string> | null = null;
  const awaitedLocal = (name: string): boolean => {
    if (!awaited) {
      const names = new Set<string>();
      const v = (n: TS.Node): void => {
        if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer?.kind === ts.SyntaxKind.AwaitExpression) names.add(n.name.text);
        ts.forEachChild(n, v);
      };
      v(body);
      awaited = names;
    }
    return awaited.has(name);
  };
  const isRequest = (e: TS.Expression): boolean => ts.isIdentifier(e) && (e.text === first || (REQUEST_NAMES.test(e.text) && !awaitedLocal(e.text)));
  const whole = (a: TS.Expression): boolean => {
    const e = unwrap(ts, a);
    if (ts.isObjectLiteralExpression(e))
      return e.properties.some((p) => (ts.isShorthandPropertyAssignment(p) && REQUEST_NAMES.test(p.name.text)) || (ts.isPropertyAssignment(p) && whole(p.initializer)));
    return isRequest(e) || (ts.isPropertyAccessExpression(e) && isRequest(e.expression) && REQUEST_PARTS.test(e.name.text));
  };
  const helpers: TS.Expression[] = [];
  let unknown = false;
  let written: Set<string> | undefined;
  const visit = (n: TS.Node): void => {
    if (unknown) return;
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const args = n.arguments ?? [];
      const callee = unwrap(ts, n.expression);
      // (`next(err)` of an error handler: a parameter called, the chain's next layer, reads nothing here;
      // `ExtractJwt.fromAuthHeaderAsBearerToken()(request)` reads the header, as written)
      const onward = ts.isIdentifier(callee) && f.params.includes(callee.text);
      // (nor does a log line handed the request, lunary's `console.error("Invalid access token", error, key, ctx)`)
      if (!onward && args.some(whole) && !(ts.isCallExpression(n) && jwtExtractor(ts, n) === 'header') && !logs(ts, n)) {
        if (ts.isNewExpression(n) || !(ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee))) unknown = true;
        else helpers.push(callee);
        args.forEach(visit);
        return;
      }
      if (ambientSession(ctx, n as TS.CallExpression | TS.NewExpression)) unknown = true;
      // (a session service handed the credential already read, `gladys.session.validateAccessToken(token,
      // scope)`, reads no session the request carries: as `getSession(token)`, ambientSession)
      if (ts.isPropertyAccessExpression(callee) && sessionRead(ctx, callee.expression) && args.some((a) => CREDENTIAL_ARGUMENT.test(textOf(ctx, a)))) {
        visit((callee.expression as TS.PropertyAccessExpression).expression);
        args.forEach(visit);
        return;
      }
    } else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && (ts.isPropertyAccessExpression(n.left) || ts.isElementAccessExpression(n.left))) {
      // (`res.locals.session = session`: a session written, for what runs next, is not one read)
      visit(n.left.expression);
      visit(n.right);
      // (nor is what the function wrote itself, read back: wppconnect's `req.session =
      // formatSession(req.params.session); req.client = clientsArray[req.session]`)
      (written ??= new Set()).add(textOf(ctx, n.left));
      return;
    } else if (sessionRead(ctx, n) && !written?.has(textOf(ctx, n))) unknown = true;
    ts.forEachChild(n, visit);
  };
  visit(body);
  if (unknown) return;
  if (spellsNone) b.readsNoCredential = true;
  if (helpers.length === 0) {
    if (header) b.headerCredential = true;
  } else if (mayGuard || spellsNone || header) {
    // (or one reading a credential header itself, handing the request to helpers too: midday's
    // tRPC `createTRPCContext`, `getGeoContext(c.req)` beside `c.req.header('Authorization')`)
    b.credentialVia = helpers.map((c) => shallowExpr(ctx, c, f.scope));
    if (header) b.credentialHeader = true;
  }
}

/**
 * Whether `name` is only written in `body` (`req.user = user`) or used to refuse
 * (`ctx.throw(401, …)`), or not named at all: what the function reads comes from elsewhere.
 */
function onlyWritten(ts: TSModule, body: TS.Node, name: string): boolean {
  let read = false;
  const own = (e: TS.Expression): boolean => ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === name;
  const v = (n: TS.Node): void => {
    if (read) return;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && own(n.left)) v(n.right);
    // (or used to refuse: Koa's `ctx.throw(401, 'Invalid API key')`, `ctx.assert(user, 401)`, lunary's `checkApiKey(ctx, key)`)
    else if (ts.isCallExpression(n) && own(n.expression) && /^(throw|assert)$/.test((n.expression as TS.PropertyAccessExpression).name.text)) n.arguments.forEach(v);
    else if (ts.isIdentifier(n) && n.text === name) read = true;
    else ts.forEachChild(n, v);
  };
  v(body);
  return !read;
}

/**
 * The name a function's request has: its first parameter's, or, for a first parameter taking an
 * object apart, that of its `req` or `request` (`async ({ req, rawBody }) => …`, Dub's
 * `verifyQstashSignature`).
 */
function requestParam(ts: TSModule, node: TS.FunctionLikeDeclaration, f: FunctionFact): string | null {
  if (f.params[0]) return f.params[0];
  const p = runtimeParameters(ts, node)[0];
  if (!p || !ts.isObjectBindingPattern(p.name)) return null;
  for (const el of p.name.elements) {
    const prop = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : ts.isIdentifier(el.name) ? el.name.text : null;
    if (prop !== null && /^(req|request)$/.test(prop) && ts.isIdentifier(el.name) && !el.dotDotDotToken) return el.name.text;
  }
  return null;
}

/** What a credential read spells (AMBIENT_CREDENTIAL's words, a session, the signed-in user, a token…): a body spelling none, nor a CREDENTIAL_HEADER, reads none. */
const CREDENTIAL_SPELLED = /cookie|basic|session|authori[sz]ation|authenticat|\bauth\b|token|api.?key|secret|passw|bearer|jwt|credential|signature|principal|\.user\b/i;

/** Per name of a function's first parameter: a text test for that parameter or a request name given as an argument (or its `headers`…), alone or as `{ req }`. */
const HANDS_REQUEST = new Map<string, RegExp>();

/** Does the text of `body` hand the request as an argument (`validateSession(req, res)`, `getSession({ req })`)? A cheap test before walking it. */
function handsRequestIn(ctx: Ctx, body: TS.Node, first: string): boolean {
  let re = HANDS_REQUEST.get(first);
  if (!re) {
    const names = `${first.replace(/[$]/g, '\\$&')}|${REQUEST_NAMES.source.slice(2, -2)}`;
    re = new RegExp(`[(,{]\\s*(?:${names})(?:\\s*\\.\\s*(?:${REQUEST_PARTS.source.slice(2, -2)}))?\\s*[,)}]`);
    HANDS_REQUEST.set(first, re);
  }
  return re.test(ctx.text.slice(body.pos, body.end));
}

/**
 * A call that may read the session the request carries: one named for a session
 * (`getServerSession(authOptions)`, `auth.getSession()`) given nothing, or given no credential
 * read already (`getSession(token)` looks one up by the token the function read); or a session
 * getter given nothing (SESSION_GETTER: `getCurrentUser()`, `auth()`).
 */
function ambientSession(ctx: Ctx, call: TS.CallExpression | TS.NewExpression): boolean {
  const { ts } = ctx;
  const callee = unwrap(ts, call.expression);
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  const args = call.arguments ?? [];
  // (or a getter of the signed-in user given nothing, `getCurrentUser()`, which reads it: Cap's withAuth)
  if (!SESSION_WORD.test(name)) return args.length === 0 && SESSION_GETTER.test(name);
  // (nor one handed only what the request's URL or body names, wppconnect's `formatSession(req.params.session)`)
  if (args.length > 0 && args.every((a) => namedByRequest(ts, a))) return false;
  return args.length === 0 || !args.some((a) => CREDENTIAL_ARGUMENT.test(textOf(ctx, a)));
}

/** A value the request's URL or body names (`req.params.session`, `ctx.query.sid`, `request.body.token`). */
function namedByRequest(ts: TSModule, e: TS.Expression): boolean {
  const x = unwrap(ts, e);
  return ts.isPropertyAccessExpression(x) && ts.isPropertyAccessExpression(x.expression) && /^(params|query|body)$/.test(x.expression.name.text);
}

/**
 * A session read off something (`req.session`, `req.sessionID`, `ctx.state.session`,
 * `locals['session']`; the caller leaves out one written there) — not a value named for one
 * (`req.params.sessionId`, a route's parameter).
 */
function sessionRead(ctx: Ctx, n: TS.Node): boolean {
  const { ts } = ctx;
  if (ts.isPropertyAccessExpression(n)) return SESSION_PROPERTY.test(n.name.text) && !namedByRequest(ts, n);
  return ts.isElementAccessExpression(n) && ts.isStringLiteralLike(n.argumentExpression) && SESSION_PROPERTY.test(n.argumentExpression.text);
}
/** The property a session is kept in (express-session's `req.session` and `req.sessionID`). */
const SESSION_PROPERTY = /^(session|sessionID)$/;

/** passport-jwt's extractors reading a request header (`ExtractJwt.fromAuthHeaderAsBearerToken()`, lib/extract_jwt.js at 4.0). */
const JWT_HEADER_EXTRACTORS = ['fromAuthHeaderAsBearerToken', 'fromAuthHeaderWithScheme', 'fromHeader'];
/** One of them named in a text. */
const JWT_HEADER_EXTRACTOR = new RegExp(`\\bExtractJwt\\s*\\.\\s*(?:${JWT_HEADER_EXTRACTORS.join('|')})\\b`);

/**
 * `ExtractJwt.fromAuthHeaderAsBearerToken()(request)`: a passport-jwt extractor applied to a
 * request — one reading a header (`header`: fromAuthHeaderAsBearerToken, fromAuthHeaderWithScheme,
 * fromHeader) or elsewhere (`other`: a query parameter, a body field, …); null for any other call.
 */
function jwtExtractor(ts: TSModule, call: TS.CallExpression): 'header' | 'other' | null {
  const made = unwrap(ts, call.expression);
  if (!ts.isCallExpression(made) || call.arguments.length !== 1) return null;
  const m = unwrap(ts, made.expression);
  if (!ts.isPropertyAccessExpression(m) || !ts.isIdentifier(m.expression) || m.expression.text !== 'ExtractJwt' || !m.name.text.startsWith('from')) return null;
  return JWT_HEADER_EXTRACTORS.includes(m.name.text) ? 'header' : 'other';
}

/** An HMAC computed (LeadingGuard.inline `signature`). */
const HMAC_MADE = /\bcreateHmac\s*\(/;
/**
 * A comparison in constant time: Node's `timingSafeEqual`, a wrapper of the code or a package
 * named for one (`secureCompare`, `safeCompare`, `constantTimeEqual`, `tsscmp`, `scmp`).
 */
const CONSTANT_TIME_EQUAL = /^(timingSafeEqual|(secure|safe|constantTime|timingSafe|timeSafe)(Compare|Equals?)|tsscmp|scmp)$/i;
/**
 * A secret the deployment holds: an environment variable named for a secret, a token, a key or a
 * password (`process.env.CRON_SECRET`, `env.INTERNAL_API_KEY` of a validated environment module,
 * `c.env.WEBHOOK_TOKEN` of a Worker's bindings, `serverEnv().MEDIA_SERVER_WEBHOOK_SECRET` of a
 * function returning that module's values).
 */
const ENV_SECRET = /(?:\b(?:process\.env|import\.meta\.env|env)|[eE]nv\(\s*\))(?:\.|\[\s*['"`])[A-Z0-9_]*(?:SECRET|TOKEN|KEY|PASSWORD|CREDENTIAL)/;

/** The text of a branch that refuses the request rather than answer it (`serves` in `leadingGuards`). */
const REFUSING_TEXT = /\b[3-5]\d\d\b|error|invalid|denied|forbidden|unauthori[sz]ed|not.?found|bad.?request|redirect|conflict|too.?many|fail|refus|reject|missing|required|log.?in|sign.?in|\bfalse\b/i;

/** The names a declaration binds: `x`, or each name of a pattern (`{ auth, error }`, `[first, ...rest]`). */
function boundNames(ts: TSModule, name: TS.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const out: string[] = [];
  for (const el of name.elements) if (!ts.isOmittedExpression(el)) out.push(...boundNames(ts, el.name));
  return out;
}

/** The request methods a dispatch names (Node spells them in capitals). */
const DISPATCH_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The words of a refusal of the request's method: a 405, "method not allowed", or an error
 * saying the method is not supported (`throw new Error(\`The HTTP ${req.method} method is not
 * supported at this route.\`)`, Prisma's Pages Router examples: Next.js answers it with a 500).
 */
const METHOD_REFUSAL = /\b405\b|method[\s_-]*not[\s_-]*allowed|\bmethod\b[^;\n]{0,30}?\bnot[\s_-]*supported\b|\bunsupported[\s_-]*(?:http[\s_-]*)?method\b/i;

/** `req.method` of the request named `req` (through parentheses, casts and the like). */
function readsMethod(ts: TSModule, e: TS.Expression, req: string): boolean {
  const u = unwrap(ts, e);
  return ts.isPropertyAccessExpression(u) && u.name.text === 'method' && ts.isIdentifier(u.expression) && u.expression.text === req;
}

/** A branch of a method dispatch as read: the methods (none for the rest), where, and the statements it runs. */
interface ReadBranch {
  methods: string[];
  node: TS.Node;
  statements: TS.Statement[];
  /** a table's function for the method (`HANDLERS[req.method]`), and the call handing it the request */
  delegate?: { fn: TS.Expression; call: TS.CallExpression };
}

/**
 * The first statement of `statements` dispatching on `req.method`, and what each method gets
 * (FunctionFact.dispatch), in the forms Pages Router handlers take:
 * - `if (req.method === 'GET') … else if (req.method === 'POST' || …) … else …`, or such `if`s
 *   one after the other; a branch that does not leave the body runs the statements after the
 *   dispatch too, and those are the rest when there is no final `else`;
 * - `switch (req.method) { case 'GET': case 'HEAD': … default: … }`;
 * - `if (req.method !== 'POST') { …405… }`: the statements after it serve POST, the `if` the rest.
 * The rest is left out when it refuses (a 405, "method not allowed") or does nothing. Any test
 * of the method not in these forms (a method not spelled in capitals included): null, no dispatch.
 * The method is read from the request or from a local declared before (`const { method } = req`).
 */
function methodDispatch(ctx: Ctx, body: readonly TS.Statement[], req: string): { before: TS.Statement[]; branches: ReadBranch[] } | null {
  const { ts } = ctx;
  const K = ts.SyntaxKind;
  // locals holding the method, declared before the dispatch: `const { query, method } = req`, `const method = req.method`
  const aliases = new Set<string>();
  const isMethod = (e: TS.Expression): boolean => {
    const u = unwrap(ts, e);
    return ts.isIdentifier(u) ? aliases.has(u.text) : readsMethod(ts, u, req);
  };
  const alias = (d: TS.VariableDeclaration): void => {
    if (!d.initializer) return;
    if (ts.isIdentifier(d.name)) {
      if (isMethod(d.initializer)) aliases.add(d.name.text);
      return;
    }
    const init = unwrap(ts, d.initializer);
    if (!ts.isObjectBindingPattern(d.name) || !ts.isIdentifier(init) || init.text !== req) return;
    for (const el of d.name.elements) {
      const prop = el.propertyName ? (ts.isIdentifier(el.propertyName) ? el.propertyName.text : null) : ts.isIdentifier(el.name) ? el.name.text : null;
      if (prop === 'method' && ts.isIdentifier(el.name) && !el.dotDotDotToken) aliases.add(el.name.text);
    }
  };
  const method = (e: TS.Expression): string | null => {
    const u = unwrap(ts, e);
    return ts.isStringLiteralLike(u) && DISPATCH_METHODS.has(u.text) ? u.text : null;
  };
  // the methods a test holds for (`negated`: those it does not hold for), or null
  const tested = (e: TS.Expression, negated: boolean): string[] | null => {
    const u = unwrap(ts, e);
    if (ts.isBinaryExpression(u)) {
      const op = u.operatorToken.kind;
      if (op === (negated ? K.AmpersandAmpersandToken : K.BarBarToken)) {
        const l = tested(u.left, negated);
        const r = l && tested(u.right, negated);
        return l && r ? [...l, ...r] : null;
      }
      const eq = negated ? op === K.ExclamationEqualsEqualsToken || op === K.ExclamationEqualsToken : op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken;
      if (!eq) return null;
      const m = isMethod(u.left) ? method(u.right) : isMethod(u.right) ? method(u.left) : null;
      return m ? [m] : null;
    }
    // `['GET', 'HEAD'].includes(req.method)`, negated `!['GET', 'HEAD'].includes(req.method)`
    let call: TS.Expression = u;
    if (negated) {
      if (!ts.isPrefixUnaryExpression(u) || u.operator !== ts.SyntaxKind.ExclamationToken) return null;
      call = unwrap(ts, u.operand);
    }
    if (!ts.isCallExpression(call) || call.arguments.length !== 1 || !isMethod(call.arguments[0]!)) return null;
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'includes' || !ts.isArrayLiteralExpression(callee.expression)) return null;
    const list = callee.expression.elements.map((x) => (ts.isExpression(x) ? method(x) : null));
    return list.length > 0 && list.every((x) => x !== null) ? (list as string[]) : null;
  };
  const listOf = (s: TS.Statement): TS.Statement[] => (ts.isBlock(s) ? [...s.statements] : [s]);
  // a branch leaving the body ends there; one that does not goes on with the statements after the dispatch
  const runs = (list: TS.Statement[], after: TS.Statement[]): TS.Statement[] => (list.length > 0 && exits(ts, list[list.length - 1]!) ? list : [...list, ...after]);
  // what a clause runs: its statements (a block among them read as its statements, `case 'GET':
  // { … }`), then, when it ends with `break` (or does not leave the body), the statements after the switch
  const clauseRuns = (list: readonly TS.Statement[], after: TS.Statement[]): TS.Statement[] => {
    const flat = list.flatMap(listOf);
    const last = flat[flat.length - 1];
    return last?.kind === K.BreakStatement ? [...flat.slice(0, -1), ...after] : runs(flat, after);
  };
  // a 405 (or a method-not-allowed error) answered whatever the request, before any statement
  // choosing what runs: `if (isCallback && req.method !== 'POST') return res.status(405)…` refuses
  // only some requests (langfuse's NextAuth handler)
  const refuses = (list: TS.Statement[]): boolean => {
    if (list.length === 0) return true;
    for (const st of list) {
      const chooses = [K.IfStatement, K.SwitchStatement, K.TryStatement, K.ForStatement, K.ForOfStatement, K.ForInStatement, K.WhileStatement, K.DoStatement].includes(st.kind);
      if (chooses) return false;
      if (METHOD_REFUSAL.test(textOf(ctx, st))) return true;
    }
    return false;
  };
  // `statements`, then `tail` (what runs after them): a dispatch among them, or in a `try` block
  // among them (`try { if (req.method === 'GET') … } catch (e) { … }`), its branches going on
  // with the statements after the `try`
  const scan = (statements: readonly TS.Statement[], tail: readonly TS.Statement[]): { before: TS.Statement[]; branches: ReadBranch[] } | null => {
    for (let i = 0; i < statements.length; i++) {
      const s = statements[i]!;
      if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) alias(d);
      if (s.kind === K.SwitchStatement && isMethod((s as TS.SwitchStatement).expression)) {
        const after = [...statements.slice(i + 1), ...tail];
        const branches: ReadBranch[] = [];
        let rest: ReadBranch | null = null;
        let pending: string[] = [];
        let first: TS.Node | null = null;
        for (const clause of (s as TS.SwitchStatement).caseBlock.clauses) {
          if (clause.kind === K.DefaultClause) {
            // a label falling through into `default` serves what the rest does: no branch of its own
            if (pending.length > 0) return null;
            rest = { methods: [], node: clause, statements: clauseRuns(clause.statements, after) };
            continue;
          }
          const m = method((clause as TS.CaseClause).expression);
          if (!m) return null;
          pending.push(m);
          first ??= clause;
          if (clause.statements.length === 0) continue;
          branches.push({ methods: pending, node: first ?? clause, statements: clauseRuns(clause.statements, after) });
          pending = [];
          first = null;
        }
        if (pending.length > 0 || branches.length === 0) return null;
        rest ??= { methods: [], node: s, statements: after };
        return { before: statements.slice(0, i), branches: refuses(rest.statements) ? branches : [...branches, rest] };
      }
      if (ts.isTryStatement(s)) {
        const inner = scan(s.tryBlock.statements, [...statements.slice(i + 1), ...tail]);
        if (inner) return { before: [...statements.slice(0, i), ...inner.before], branches: inner.branches };
        continue;
      }
      const byTable = tableDispatch(statements, i);
      if (byTable) return byTable;
      if (!ts.isIfStatement(s)) continue;
      const negated = s.elseStatement ? null : tested(s.expression, true);
      if (negated) {
        const after = [...statements.slice(i + 1), ...tail];
        const then = listOf(s.thenStatement);
        if (!exits(ts, s.thenStatement) && !refuses(then)) return null;
        const branches: ReadBranch[] = [{ methods: negated, node: s, statements: after }];
        return { before: statements.slice(0, i), branches: refuses(then) ? branches : [...branches, { methods: [], node: s, statements: then }] };
      }
      const first = tested(s.expression, false);
      if (!first) continue;
      // the chain: `if … else if … else …`, and `if`s of the method one after the other (each
      // after the first read while every branch before it leaves the body); each test read once
      const chain: { methods: string[]; node: TS.Node; list: TS.Statement[] }[] = [];
      let otherwise: { node: TS.Node; list: TS.Statement[] } | null = null;
      let j = i;
      for (let m: string[] | null = first; m; ) {
        let x: TS.IfStatement | undefined = statements[j] as TS.IfStatement;
        let mx: string[] | null = m;
        while (x) {
          if (!mx) return null;
          chain.push({ methods: mx, node: x, list: listOf(x.thenStatement) });
          const e: TS.Statement | undefined = x.elseStatement;
          if (e && ts.isIfStatement(e)) {
            x = e;
            mx = tested(e.expression, false);
          } else {
            if (e) otherwise = { node: e, list: listOf(e) };
            x = undefined;
          }
        }
        j++;
        const next = statements[j];
        m = !otherwise && next && ts.isIfStatement(next) && chain.every((c) => c.list.length > 0 && exits(ts, c.list[c.list.length - 1]!)) ? tested(next.expression, false) : null;
      }
      const after = [...statements.slice(j), ...tail];
      const branches = chain.map((c) => ({ methods: c.methods, node: c.node, statements: runs(c.list, after) }));
      // (what follows dispatching again, `if (req.method !== 'POST') return res.status(405)…` after
      // a HEAD branch: its branches, for the methods no branch before names)
      const again = otherwise ? null : scan(statements.slice(j), tail);
      if (again) {
        const named = new Set(branches.flatMap((b) => b.methods));
        const more = again.branches.filter((b) => b.methods.length === 0 || b.methods.some((m) => !named.has(m)));
        return { before: statements.slice(0, i), branches: [...branches, ...more.map((b) => ({ ...b, methods: b.methods.filter((m) => !named.has(m)), statements: [...again.before, ...b.statements] }))] };
      }
      const rest: ReadBranch = otherwise ? { methods: [], node: otherwise.node, statements: runs(otherwise.list, after) } : { methods: [], node: statements[j] ?? s, statements: after };
      return { before: statements.slice(0, i), branches: refuses(rest.statements) ? branches : [...branches, rest] };
    }
    return null;
  };
  // `HANDLERS[req.method]` of a table written in the file (`const HANDLERS = { GET: list, POST: create }`,
  // at its top level or before the dispatch): its function for each method, or null
  const tableOf = (e: TS.Expression, before: readonly TS.Statement[]): { methods: string[]; node: TS.Node; fn: TS.Expression }[] | null => {
    const u = unwrap(ts, e);
    if (!ts.isElementAccessExpression(u) || !isMethod(u.argumentExpression) || !ts.isIdentifier(unwrap(ts, u.expression))) return null;
    const name = (unwrap(ts, u.expression) as TS.Identifier).text;
    let table: TS.ObjectLiteralExpression | null = null;
    for (const st of [...ctx.sf.statements, ...before])
      if (ts.isVariableStatement(st))
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer && ts.isObjectLiteralExpression(unwrap(ts, d.initializer))) table = unwrap(ts, d.initializer) as TS.ObjectLiteralExpression;
    if (!table) return null;
    const out: { methods: string[]; node: TS.Node; fn: TS.Expression }[] = [];
    for (const p of table.properties) {
      const key = ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) ? (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) ? p.name.text : null) : null;
      if (key === null || !DISPATCH_METHODS.has(key)) return null;
      out.push({ methods: [key], node: p, fn: ts.isPropertyAssignment(p) ? p.initializer : (p as TS.ShorthandPropertyAssignment).name });
    }
    return out.length > 0 ? out : null;
  };
  // The call handing the request to a table's function for the method: `const handler =
  // HANDLERS[req.method]; if (!handler) return res.status(405)…; return handler(req, res)`, or
  // `return HANDLERS[req.method]?.(req, res)` in place. No function for the method: refused
  // (by the 405, or by calling nothing, which throws) or, with `?.`, what follows.
  const tableDispatch = (statements: readonly TS.Statement[], i: number): { before: TS.Statement[]; branches: ReadBranch[] } | null => {
    const s = statements[i]!;
    const callIn = (st: TS.Statement): TS.CallExpression | null => {
      const e = ts.isReturnStatement(st) ? st.expression : ts.isExpressionStatement(st) ? st.expression : undefined;
      const c = e ? unwrap(ts, e) : null;
      return c && ts.isCallExpression(c) ? c : null;
    };
    let lookup: TS.Expression | null = null;
    let call: TS.CallExpression | null = null;
    let rest: TS.Statement[] = [];
    const direct = callIn(s);
    if (direct && ts.isElementAccessExpression(unwrap(ts, direct.expression))) {
      [lookup, call] = [direct.expression, direct];
      rest = direct.questionDotToken ? [...statements.slice(i + 1)] : [];
    } else if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1) {
      const d = s.declarationList.declarations[0]!;
      const init = d.initializer ? unwrap(ts, d.initializer) : null;
      if (!ts.isIdentifier(d.name) || !init || !ts.isElementAccessExpression(init) || !isMethod(init.argumentExpression)) return null;
      const local = d.name.text;
      for (let j = i + 1; j < statements.length; j++) {
        const st = statements[j]!;
        // `if (!handler) return res.status(405)…`
        const t = ts.isIfStatement(st) && !st.elseStatement ? unwrap(ts, st.expression) : null;
        if (t && ts.isPrefixUnaryExpression(t) && t.operator === K.ExclamationToken && ts.isIdentifier(unwrap(ts, t.operand)) && (unwrap(ts, t.operand) as TS.Identifier).text === local) {
          if (!refuses(listOf((st as TS.IfStatement).thenStatement))) return null;
          continue;
        }
        const c = callIn(st);
        if (!c || !ts.isIdentifier(unwrap(ts, c.expression)) || (unwrap(ts, c.expression) as TS.Identifier).text !== local) return null;
        [lookup, call] = [init, c];
        break;
      }
    }
    const entries = lookup && call ? tableOf(lookup, statements.slice(0, i)) : null;
    if (!entries || !call) return null;
    const branches: ReadBranch[] = entries.map((e) => ({ methods: e.methods, node: e.node, statements: [], delegate: { fn: e.fn, call: call! } }));
    return { before: statements.slice(0, i), branches: refuses(rest) ? branches : [...branches, { methods: [], node: s, statements: rest }] };
  };
  return scan(body, []);
}

/**
 * A middleware filtering on the method (FunctionFact.methodFilter): a `(req, res, next)` function
 * whose body is `req.method === M ? handler(req, res, next) : next()` (also returned, or as `if
 * (req.method === M) return handler(req, res, next); next()`), the request, response and next
 * handed on whole, `next` called with nothing.
 */
function methodFilter(ctx: Ctx, body: TS.ConciseBody, f: FunctionFact, scope: number, ownArguments: boolean): FunctionFact['methodFilter'] | null {
  const { ts } = ctx;
  if (f.params.length !== 3 || f.params.some((p) => p === '')) return null;
  const [req, , next] = f.params as [string, string, string];
  const method = (e: TS.Expression): TS.Expression | null => {
    const t = unwrap(ts, e);
    if (!ts.isBinaryExpression(t) || (t.operatorToken.kind !== ts.SyntaxKind.EqualsEqualsEqualsToken && t.operatorToken.kind !== ts.SyntaxKind.EqualsEqualsToken)) return null;
    return readsMethod(ts, t.left, req) ? t.right : readsMethod(ts, t.right, req) ? t.left : null;
  };
  const call = (e: TS.Expression | undefined): TS.CallExpression | null => {
    const u = e ? unwrap(ts, e) : null;
    return u && ts.isCallExpression(u) ? u : null;
  };
  const nextAlone = (c: TS.CallExpression | null): boolean => c !== null && c.arguments.length === 0 && ts.isIdentifier(c.expression) && c.expression.text === next;
  const of = (st: TS.Statement | undefined): TS.Expression | undefined => (st && (ts.isReturnStatement(st) || ts.isExpressionStatement(st)) ? st.expression : undefined);
  let test: TS.Expression | null = null;
  let served: TS.CallExpression | null = null;
  let rest: TS.CallExpression | null = null;
  const e = ts.isBlock(body) ? (body.statements.length === 1 ? of(body.statements[0]) : undefined) : body;
  const cond = e ? unwrap(ts, e) : null;
  if (cond && ts.isConditionalExpression(cond)) [test, served, rest] = [cond.condition, call(cond.whenTrue), call(cond.whenFalse)];
  else if (ts.isBlock(body) && body.statements.length === 2 && ts.isIfStatement(body.statements[0]!) && !body.statements[0].elseStatement) {
    const branch = body.statements[0].thenStatement;
    const only = ts.isBlock(branch) ? (branch.statements.length === 1 ? branch.statements[0] : undefined) : branch;
    if (only && ts.isReturnStatement(only)) [test, served, rest] = [body.statements[0].expression, call(only.expression), call(of(body.statements[1]))];
  }
  const m = test ? method(test) : null;
  const handed = served ? passesParams(ts, served, f, ownArguments) : null;
  if (!m || !handed || !nextAlone(rest) || (ts.isIdentifier(handed.callee) && handed.callee.text === next)) return null;
  return { method: shallowExpr(ctx, m, scope), handsTo: shallowExpr(ctx, handed.callee, scope) };
}

/**
 * The list a function's methods are refused by (FunctionFact.allowsMethods): a statement of its
 * body `if (!LIST.includes(req.method)) { … 405 … }` leaving it, LIST not an array written in
 * place (that is a dispatch: methodDispatch), and no statement before it handing the request
 * to a call (so nothing before the test serves what the test refuses). A method those statements
 * answer by a branch of its own leaving the body (zipline's `if (req.method === 'OPTIONS') return
 * res.status(204).end()`) gets no further, whatever the list holds.
 */
function methodGate(ctx: Ctx, statements: readonly TS.Statement[], req: string, scope: number): FunctionFact['allowsMethods'] | null {
  const { ts } = ctx;
  const K = ts.SyntaxKind;
  const isMethod = (e: TS.Expression): boolean => readsMethod(ts, e, req);
  let handed = false;
  const handsRequest = (n: TS.Node): void => {
    if (handed) return;
    if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && n.arguments?.some((a) => ts.isIdentifier(unwrap(ts, a)) && (unwrap(ts, a) as TS.Identifier).text === req)) handed = true;
    else ts.forEachChild(n, handsRequest);
  };
  // methods answered before the test, each by an `if (req.method === 'OPTIONS') …` leaving the body
  const except: string[] = [];
  for (const s of statements) {
    if (ts.isIfStatement(s) && !s.elseStatement) {
      const t = unwrap(ts, s.expression);
      if (ts.isBinaryExpression(t) && t.operatorToken.kind === K.EqualsEqualsEqualsToken && isMethod(t.left) && ts.isStringLiteralLike(unwrap(ts, t.right)) && exits(ts, s.thenStatement)) {
        except.push((unwrap(ts, t.right) as TS.StringLiteralLike).text);
        continue;
      }
      const call = ts.isPrefixUnaryExpression(t) && t.operator === K.ExclamationToken ? unwrap(ts, t.operand) : null;
      if (call && ts.isCallExpression(call) && call.arguments.length === 1 && isMethod(call.arguments[0]!)) {
        const list = unwrap(ts, call.expression);
        if (ts.isPropertyAccessExpression(list) && list.name.text === 'includes' && !ts.isArrayLiteralExpression(unwrap(ts, list.expression))) {
          const refuses = exits(ts, s.thenStatement) && METHOD_REFUSAL.test(textOf(ctx, s.thenStatement));
          return refuses ? { list: shallowExpr(ctx, list.expression, scope), except } : null;
        }
      }
    }
    handsRequest(s);
    if (handed) return null;
  }
  return null;
}

/**
 * `next(err)` / `done(err)` (a call of `f`'s next parameter) in a `(req, res, next)` middleware or
 * a `(request, reply, done)` hook: the error is handed on and the request ends with it (Express
 * skips to the error handlers, Fastify replies with it). Koa's and Hono's `(ctx, next)` take no
 * argument; `next('route')` / `next('router')` skip on, `done(null)` / `done(undefined)` go on.
 */
function handsErrorOn(ts: TSModule, f: FunctionFact, c: TS.CallExpression): boolean {
  if (f.params.length < 3 || c.arguments.length === 0) return false;
  const a = unwrap(ts, c.arguments[0]!);
  return !(ts.isStringLiteralLike(a) && (a.text === 'route' || a.text === 'router')) && a.kind !== ts.SyntaxKind.NullKeyword && !(ts.isIdentifier(a) && a.text === 'undefined');
}

/**
 * Does every call of `next` in `body` (nested functions' too) hand it an error made in place,
 * `next(new Error(…))` (Behaviour.nextOnlyErrors)? False where a nested function takes a
 * parameter of that name (another `next`), or `next` is handed on as a value.
 */
function nextOnlyErrors(ts: TSModule, body: TS.Node, nextName: string): boolean {
  let ok = true;
  let calls = 0;
  const visit = (n: TS.Node): void => {
    if (!ok) return;
    if (ts.isFunctionLike(n) && n.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === nextName)) ok = false;
    else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === nextName) {
      calls++;
      const a = n.arguments[0];
      if (n.arguments.length !== 1 || !ts.isNewExpression(unwrap(ts, a!))) ok = false;
      else visit(a!);
      return;
    } else if (ts.isIdentifier(n) && n.text === nextName) ok = false;
    ts.forEachChild(n, visit);
  };
  visit(body);
  return ok && calls > 0;
}

/** The name a call's callee is written with, its last property (`verifyJWT`, `verify` of `jwt.verify`), or ''. */
function calleeName(ts: TSModule, c: TS.CallExpression): string {
  const callee = unwrap(ts, c.expression);
  return ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
}

/**
 * The call `e` (what function `f` ends with) makes, when it hands on `f`'s first parameter as
 * its first argument: `return await handleGet(req)`, `=> ctrl.list(req, res)`, `=>
 * ctrl.list(req, res).catch(next)`. None for a response made there.
 */
function handedOnCall(ts: TSModule, e: TS.Expression, f: FunctionFact, ownArguments: boolean): HandedOn | null {
  let u = unwrap(ts, e);
  // `.catch(next)` / `.then(…)` / `.finally(…)` on the call: the call's promise, its errors handed on
  while (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && PROMISE_METHODS.has(u.expression.name.text) && ts.isCallExpression(unwrap(ts, u.expression.expression)))
    u = unwrap(ts, u.expression.expression);
  if (!ts.isCallExpression(u) || isResponseCall(ts, u) || !f.params[0]) return null;
  const first = u.arguments[0] && unwrap(ts, u.arguments[0]);
  if (first && ts.isIdentifier(first) && first.text === f.params[0]) return { call: u, as: null };
  // (`handleGet.call(this, req, res)`: calledWith)
  const as = calledWith(ts, u, ownArguments);
  const given = as?.args?.[0] && unwrap(ts, as.args[0]);
  return as && (as.args === null || (given && ts.isIdentifier(given) && given.text === f.params[0])) ? { call: u, as } : null;
}

/** A call handing the request on (handedOnCall), and, when it does so with a `this`, the call of the function it makes (calledWith). */
interface HandedOn {
  call: TS.CallExpression;
  as: CalledWith | null;
}

/**
 * The call a function answers with, `e` (a concise body, or what it returns): handed the request
 * whole, what the function called leads it with leads this one (`delegates`); another call is
 * judged by what it is (`checked`). Null for a response made here, or no call.
 */
function concludingCall(ctx: Ctx, e: TS.Expression, scope: number, f: FunctionFact, ownArguments: boolean): LeadingGuard | null {
  const { ts } = ctx;
  const handedOn = handedOnCall(ts, e, f, ownArguments);
  if (handedOn) return { ...delegatedCall(ctx, handedOn, scope, f), delegates: true };
  const call = unwrap(ts, e);
  return ts.isCallExpression(call) && !isResponseCall(ts, call) ? { ...leadingCall(ctx, call, scope), checked: true } : null;
}

/**
 * `c ? viaApiKey(key) : viaSession()` a function answers with (a concise body, or what it
 * returns), a test choosing the call: each way's call (LeadingGuard.either). Null unless both
 * are calls `concludingCall` reads.
 */
function eitherWay(ctx: Ctx, e: TS.Expression, scope: number, f: FunctionFact, ownArguments: boolean): LeadingGuard | null {
  const { ts } = ctx;
  const u = unwrap(ts, e);
  if (!ts.isConditionalExpression(u)) return null;
  return eitherOf(ctx, u, u.whenTrue, u.whenFalse, scope, f, ownArguments);
}

/** The `either` entry of a choice (`at`) between answering with `a` and with `b`; null unless each is a call concludingCall reads. */
function eitherOf(ctx: Ctx, at: TS.Node, a: TS.Expression, b: TS.Expression, scope: number, f: FunctionFact, ownArguments: boolean): LeadingGuard | null {
  const x = concludingCall(ctx, a, scope, f, ownArguments);
  const y = x && concludingCall(ctx, b, scope, f, ownArguments);
  return x && y ? { either: [[x], [y]], at: locOf(ctx, at) } : null;
}

/** The call handedOnCall found, as it leads the function: `fn.call(this, req, res)` as `fn(req, res)`. */
function delegatedCall(ctx: Ctx, { call, as }: HandedOn, scope: number, f: FunctionFact): LeadingGuard {
  if (!as) return leadingCall(ctx, call, scope);
  const args = as.args === null ? f.params.map((p, index): Expr => (p === '' ? { k: 'param', fn: f.id, index, name: '' } : refOf(ctx, p, scope))) : as.args.map((a) => shallowExpr(ctx, a, scope));
  return { callee: shallowExpr(ctx, as.callee, scope), args, at: locOf(ctx, call) };
}

/** The function a call with a `this` calls, and its arguments (null: the caller's own, `arguments`). */
interface CalledWith {
  callee: TS.Expression;
  args: readonly TS.Expression[] | null;
}

/**
 * A call of a function with a `this` (Function.prototype.call and apply), as the function sees it:
 * `fn.call(self, req, res, next)` and `fn.apply(self, [req, res, next])` call `fn` with what
 * follows the `this`; `fn.apply(self, arguments)` with the caller's own arguments (`args` null),
 * when `ownArguments` (the call is in a function with its own `arguments`, no arrow function).
 * Null for a call of any other shape. (Read after the call as written: `rpc.call(req, res)` may
 * be a method of its own, handed the request.)
 */
function calledWith(ts: TSModule, call: TS.CallExpression, ownArguments: boolean): CalledWith | null {
  const c = call.expression;
  const self = call.arguments[0];
  if (!ts.isPropertyAccessExpression(c) || !self || ts.isSpreadElement(self)) return null;
  if (c.name.text === 'call') return { callee: c.expression, args: call.arguments.slice(1) };
  const list = c.name.text === 'apply' && call.arguments.length === 2 ? unwrap(ts, call.arguments[1]!) : null;
  if (list && ownArguments && ts.isIdentifier(list) && list.text === 'arguments') return { callee: c.expression, args: null };
  if (list && ts.isArrayLiteralExpression(list) && !list.elements.some((e) => ts.isSpreadElement(e))) return { callee: c.expression, args: list.elements };
  return null;
}

/**
 * Does `call` hand the function `f` its own parameters, every one in its place, as written or
 * with a `this` (calledWith)? `all`: by its `arguments`, so whatever it was given, declared or not.
 */
function passesParams(ts: TSModule, call: TS.CallExpression, f: FunctionFact, ownArguments: boolean): { callee: TS.Expression; all: boolean } | null {
  const passes = (args: readonly TS.Expression[]): boolean => args.length === f.params.length && args.every((a, i) => ts.isIdentifier(a) && a.text === f.params[i]);
  if (passes(call.arguments)) return { callee: call.expression, all: false };
  const as = calledWith(ts, call, ownArguments);
  if (!as) return null;
  if (as.args === null) return { callee: as.callee, all: true };
  return passes(as.args) ? { callee: as.callee, all: false } : null;
}

/** A call leading a function: its callee and arguments, as written, and where. */
function leadingCall(ctx: Ctx, call: TS.CallExpression, scope: number): LeadingGuard {
  // (the Expr the walk made of it, shared: made again, leading calls were a sixth of the
  // generated 2,000-file tree's facts, as JSON)
  const made = ctx.calls.get(call);
  if (made) return { callee: made.callee, args: made.args, at: made.at };
  return { callee: shallowExpr(ctx, call.expression, scope), args: call.arguments.map((a) => shallowExpr(ctx, ctx.ts.isSpreadElement(a) ? a.expression : a, scope)), at: locOf(ctx, call) };
}

/** A handler's `next` parameter: the last of two or more (of three or more for a WebSocket handler). */
function nextParam(f: FunctionFact): string | null {
  return f.params.length >= (f.socket ? 3 : 2) ? f.params[f.params.length - 1]! : null;
}

/** Hono's modules: a file importing one reads its handlers' context variables with `c.get('x')`. */
const HONO_IMPORT = /^(?:hono(?:\/|$)|@hono\/)/;

/**
 * `c.get('orgId')` of one of `params` in a file importing Hono: the context variable a hook set
 * (`c.set('orgId', …)`), read as `c.var.orgId` reads it (`['var', 'orgId']`); null for anything
 * else (Koa's and Express's `get('x-org-id')` read a request header, which the caller writes).
 */
function contextVariable(ctx: Ctx, e: TS.Expression, params: Set<string>): string[] | null {
  const { ts } = ctx;
  const u = unwrap(ts, e);
  if (!ts.isCallExpression(u) || u.arguments.length !== 1 || !ts.isPropertyAccessExpression(u.expression) || u.expression.name.text !== 'get') return null;
  const key = unwrap(ts, u.arguments[0]!);
  const on = unwrap(ts, u.expression.expression);
  if (!ts.isStringLiteralLike(key) || !ts.isIdentifier(on) || !params.has(on.text)) return null;
  return ctx.facts.imports.some((i) => HONO_IMPORT.test(i.source)) ? ['var', key.text] : null;
}

/** `ctx.session.id`, `req.user`: the property names read from one of `params`, or null. */
function requestChain(ts: TSModule, e: TS.Expression, params: Set<string>): string[] | null {
  const { root, props } = propertyChain(ts, e);
  return ts.isIdentifier(root) && params.has(root.text) ? props : null;
}

/** `a.b.c` (wrappers such as `!` and `as` left out): what the property names are read from, and the names. */
function propertyChain(ts: TSModule, e: TS.Expression): { root: TS.Expression; props: string[] } {
  const props: string[] = [];
  let n = unwrap(ts, e);
  while (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name)) {
    props.unshift(n.name.text);
    n = unwrap(ts, n.expression);
  }
  return { root: n, props };
}

/** The request's signed-in user, or its id: `ctx.session.id`, `ctx.state.user`, `req.user.id`, `req.session.userId`. */
function userRead(ts: TSModule, e: TS.Expression, params: Set<string>): boolean {
  const props = requestChain(ts, e, params);
  // (not what the client sends: `req.body.user.email` of a form)
  return !!props && !CLIENT_SENT.has(props[0] ?? '') && isUserPath(props);
}
const CLIENT_SENT = new Set(['body', 'query', 'params']);

/**
 * The property names read of a request (`['query', 'id']`, or `['req', 'query', 'id']` read from
 * a name so called; Koa's `['request', 'body', 'name']`): a field of what the client sends — its
 * query, route parameters or body — by a name no credential, session or user goes by.
 */
export function asksForField(props: readonly string[]): boolean {
  const at = props[0] === 'req' || props[0] === 'request' ? 1 : 0;
  return CLIENT_SENT.has(props[at] ?? '') && props.length > at + 1 && !props.some(namesCredential);
}

/**
 * The session getters of the usual auth libraries (next-auth `getServerSession` / `auth`,
 * Clerk `currentUser` / `getAuth`, iron-session, lucia `validateRequest` …), handed only names
 * (`authOptions`, `req`), argument-less calls (`cookies()`) or objects of those (`{ req }`): a
 * lookup handed request data (`getSession(req.params.id)`) may be any record.
 */
function sessionGetterCall(ts: TSModule, c: TS.CallExpression): boolean {
  const plain = (a: TS.Expression): boolean => {
    const u = unwrap(ts, a);
    if (ts.isIdentifier(u)) return true;
    // `auth(request.headers)`, `getSession({ headers: req.headers })`: the headers the session cookie comes in
    if (ts.isPropertyAccessExpression(u)) return u.name.text === 'headers' && ts.isIdentifier(unwrap(ts, u.expression));
    if (ts.isCallExpression(u)) return u.arguments.length === 0 && ts.isIdentifier(u.expression);
    return ts.isObjectLiteralExpression(u) && u.properties.every((p) => ts.isShorthandPropertyAssignment(p) || (ts.isPropertyAssignment(p) && plain(p.initializer)));
  };
  return (SESSION_GETTER.test(calleeName(ts, c)) && c.arguments.every(plain)) || supabaseSessionGetter(ts, c);
}

/**
 * Supabase's `supabase.auth.getUser()`, `getClaims()` and `getSession()` (@supabase/auth-js,
 * read at 2.x: the user, claims or session of the client's session cookie, null without one),
 * called with no token: what the request's signed-in user is.
 */
function supabaseSessionGetter(ts: TSModule, c: TS.CallExpression): boolean {
  const callee = c.expression;
  return (
    c.arguments.length === 0 &&
    ts.isPropertyAccessExpression(callee) &&
    /^(getUser|getClaims|getSession)$/.test(callee.name.text) &&
    ts.isPropertyAccessExpression(callee.expression) &&
    callee.expression.name.text === 'auth'
  );
}

/** `req.isAuthenticated()` (Passport), `request.isAuthenticated` (a flag a hook set): the request has a signed-in user. */
const SIGNED_IN_FLAG = /^is(Authenticated|LoggedIn|SignedIn)$/;

/** A call that may verify a credential, by its name (`verifyJWT`, `jwt.verify`, `validateToken`, `authenticateToken`); what it verifies is judged when linked. */
const VERIFY_CALL = /verify|validate|authenticat/i;
/** A context's property holding the request, or the request's holding its URL (`c.req`, `ctx.request`, `request.nextUrl`). */
const REQUEST_OBJECT = /^(?:req|request|nextUrl)$/;
/** A property holding a check's verdict (`{ verified: false, reason }`, `{ valid }`, `{ ok }`). */
const VERDICT = /^(?:verified|valid|isValid|ok|success|allowed|authorized|isAuthorized)$/;

const SESSION_GETTER = /^(getServerSession|getServerAuthSession|get(Optional|Current|User)?Session(From(Req|Request|Headers|Context|Ctx))?|getSessionUser|getIronSession|auth|currentUser|getCurrentUser|getAuth|validateRequest)$/;

/** A property path naming the signed-in user or its id: `session`, `session.user.id`, `state.user`. */
export function isUserPath(props: string[]): boolean {
  const i = props.findIndex((p) => /^(session|user|currentUser|authUser|principal|identity|claims)$/i.test(p));
  if (i < 0) return false;
  const rest = props.slice(i + 1);
  // (`req.session.authenticated`, `req.session.loggedin`: the flag a sign-in sets on the session)
  if (rest.length === 1 && /^session$/i.test(props[i]!) && SESSION_SIGNED_IN.test(rest[0]!)) return true;
  // (`session.user.email`: next-auth's session names its user by e-mail, often the only field checked)
  return rest.every((p) => /^(id|_id|uid|userId|user_id|sub|user|email)$/i.test(p));
}

/** A session's flag a sign-in sets (mongo-express's `req.session.authenticated = true`, `req.session.loggedin`). */
const SESSION_SIGNED_IN = /^(is)?(authenticated|authed|logged_?in|signed_?in)$/i;

/**
 * The request's session cookie, by a name isSessionCookieName takes for one: `req.cookies.get('session')`
 * (Next.js's RequestCookies, `?.value` of it, `.has(…)`), `req.cookies.sid`, `req.cookies['connect.sid']`,
 * `req.signedCookies.session`. A request without it has no signed-in user: a Next.js middleware
 * redirecting it to log in refuses it as one answering 401 does.
 */
function sessionCookieRead(ts: TSModule, e: TS.Expression, params: Set<string>): boolean {
  let u = unwrap(ts, e);
  if (ts.isPropertyAccessExpression(u) && u.name.text === 'value') u = unwrap(ts, u.expression);
  let jar: TS.Expression;
  let name: string;
  if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && (u.expression.name.text === 'get' || u.expression.name.text === 'has') && u.arguments.length === 1 && ts.isStringLiteralLike(u.arguments[0]!)) {
    jar = u.expression.expression;
    name = u.arguments[0].text;
  } else if (ts.isPropertyAccessExpression(u)) {
    jar = u.expression;
    name = u.name.text;
  } else if (ts.isElementAccessExpression(u) && ts.isStringLiteralLike(u.argumentExpression)) {
    jar = u.expression;
    name = u.argumentExpression.text;
  } else return false;
  const props = requestChain(ts, jar, params);
  return props !== null && props.length === 1 && (props[0] === 'cookies' || props[0] === 'signedCookies') && isSessionCookieName(name);
}

/** A credential the request carries: `ctx.query.token`, `req.headers.authorization`. */
function credentialRead(ts: TSModule, e: TS.Expression, params: Set<string>): boolean {
  const props = requestChain(ts, e, params);
  return !!props && props.length >= 2 && /token|api_?key|secret|authorization|password|credential/i.test(props[props.length - 1]!);
}

/** A credential a caller proves who it is with (a password is what a sign-in checks, not one sent again on each request). */
const CALLER_CREDENTIAL = /token|api[_-]?key|secret|authorization|credential/i;
/** A request header's name, whole, that is one of CALLER_HEADER_NAMES. */
const CREDENTIAL_HEADER_NAME = new RegExp(`^(?:${CALLER_HEADER_NAMES})$`, 'i');

/**
 * The credential the request carries, handed to a call (`findFirst({ where: { token:
 * req.headers.authorization } })`, through object and array literals; a header read by name,
 * `req.headers['x-api-key']`, too): 'header' when every one read is a request header's, 'other'
 * when some is not (a query's, a cookie's, the body's), null when none is handed.
 */
function credentialHanded(ts: TSModule, args: readonly TS.Expression[], params: Set<string>, initOf?: (e: TS.Expression) => TS.Expression | undefined): 'header' | 'other' | null {
  let found: 'header' | 'other' | null = null;
  let locals = 0;
  const visit = (e: TS.Expression): void => {
    const u = unwrap(ts, e);
    if (ts.isObjectLiteralExpression(u)) {
      for (const p of u.properties) if (ts.isPropertyAssignment(p)) visit(p.initializer);
      return;
    }
    if (ts.isArrayLiteralExpression(u)) {
      u.elements.forEach(visit);
      return;
    }
    // `String(token)`: the value itself, as text
    if (ts.isCallExpression(u) && ts.isIdentifier(u.expression) && u.expression.text === 'String' && u.arguments.length === 1) {
      visit(u.arguments[0]!);
      return;
    }
    // `token` of `const token = request.header('x-device-token')`: a leading local, read as its value
    const init = ts.isIdentifier(u) && !params.has(u.text) && locals < 4 ? initOf?.(u) : undefined;
    if (init) {
      locals++;
      visit(init);
      return;
    }
    // `request.header('x-device-token')`, `ctx.get('x-api-key')`: a header read by a getter of the request, by a credential's name
    if (ts.isCallExpression(u) && u.arguments.length === 1 && ts.isPropertyAccessExpression(u.expression) && /^(header|get)$/.test(u.expression.name.text)) {
      const on = unwrap(ts, u.expression.expression);
      const name = unwrap(ts, u.arguments[0]!);
      if (ts.isIdentifier(on) && params.has(on.text) && ts.isStringLiteralLike(name) && CREDENTIAL_HEADER_NAME.test(name.text)) found = found !== 'other' ? 'header' : 'other';
      return;
    }
    const props: string[] = [];
    let n: TS.Expression = u;
    for (;;) {
      if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name)) props.unshift(n.name.text);
      else if (ts.isElementAccessExpression(n) && ts.isStringLiteralLike(n.argumentExpression)) props.unshift(n.argumentExpression.text);
      else break;
      n = unwrap(ts, n.expression);
    }
    if (!ts.isIdentifier(n) || !params.has(n.text) || props.length < 2 || !CALLER_CREDENTIAL.test(props[props.length - 1]!)) return;
    // (`req.headers.authorization`, Koa's `ctx.request.headers['x-api-key']`)
    found = props[props.length - 2] === 'headers' && found !== 'other' ? 'header' : 'other';
  };
  args.forEach(visit);
  return found;
}

const CREDENTIAL_KEY_RE = /password|passwd|secret|token|connection_?string|\bdsn\b|^dsn$|api_?key|private_?key|credential/i;

/**
 * The fields and session ids a function puts into responses, and — for a block body, given the
 * body's scope as `returnsScope` — its returned values (`f.returns`), in the same walk.
 */
function responseCollector(ctx: Ctx, body: TS.Node, f: FunctionFact, returnsScope: number | null, { credential, session }: BodyWords): { visit: (n: TS.Node, responseCall: boolean) => void; finish: () => void } {
  const { ts } = ctx;
  // The body's locals and their initialisers, collected when a response first needs them.
  let locals: Map<string, TS.Expression> | null = null;
  // the locals taken apart from a value (`const { sessionId } = req.params`): that value, by name
  // (collected in the same walk as the locals: localInit)
  let destructured: Map<string, TS.Expression> | null = null;
  const localInit = (): Map<string, TS.Expression> => {
    if (locals) return locals;
    const found = new Map<string, TS.Expression>();
    const apart = new Map<string, TS.Expression>();
    const collectLocals = (n: TS.Node): void => {
      if (ts.isVariableDeclaration(n) && n.initializer) {
        if (ts.isIdentifier(n.name)) found.set(n.name.text, n.initializer);
        else if (ts.isObjectBindingPattern(n.name)) for (const el of n.name.elements) if (ts.isIdentifier(el.name)) apart.set(el.name.text, n.initializer);
      }
      if (ts.isFunctionLike(n)) return;
      ts.forEachChild(n, collectLocals);
    };
    ts.forEachChild(body, collectLocals);
    destructured = apart;
    return (locals = found);
  };
  const destructuredFrom = (): Map<string, TS.Expression> => {
    if (!destructured) localInit();
    return destructured!;
  };
  // the values a `{ sessionId }` shorthand was read through
  let shorthandRead: Set<TS.Node> | null = null;
  let seen: Set<TS.Node> | null = null;
  const fieldsOf = (e: TS.Node, depth: number): void => {
    if (depth > 6 || seen?.has(e)) return;
    (seen ??= new Set()).add(e);
    const u = ts.isExpression(e) ? unwrap(ts, e) : e;
    if (ts.isObjectLiteralExpression(u)) {
      for (const p of u.properties) {
        const key = p.name && !ts.isComputedPropertyName(p.name) ? propName(ts, p.name as TS.PropertyName) : null;
        if (key !== null && CREDENTIAL_KEY_RE.test(key)) {
          const at = locOf(ctx, p);
          f.responseFields.push({ key, at, snippet: lineText(ctx, at.line) });
        }
        if (ts.isPropertyAssignment(p)) fieldsOf(p.initializer, depth + 1);
        if (ts.isShorthandPropertyAssignment(p)) fieldsOf(p.name, depth + 1);
      }
      return;
    }
    if (ts.isIdentifier(u)) {
      const init = localInit().get(u.text);
      if (init) fieldsOf(init, depth + 1);
      return;
    }
    if (ts.isArrayLiteralExpression(u)) {
      for (const el of u.elements) fieldsOf(el, depth + 1);
      return;
    }
    if (ts.isCallExpression(u) && ts.isPropertyAccessExpression(u.expression) && /^(map|flatMap)$/.test(u.expression.name.text)) {
      const cb = u.arguments[0];
      if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) {
        if (ts.isBlock(cb.body)) {
          const v = (x: TS.Node): void => {
            if (ts.isReturnStatement(x) && x.expression) fieldsOf(x.expression, depth + 1);
            else if (!ts.isFunctionLike(x)) ts.forEachChild(x, v);
          };
          ts.forEachChild(cb.body, v);
        } else fieldsOf(cb.body, depth + 1);
      }
    }
  };
  /**
   * Session ids put into a response. Followed through local variables, but a local made by a
   * call is the call's result: its arguments (`query(sql, [req.sessionID])`) are not returned.
   */
  // The locals this walk has followed (its own: the fields walk, run first, follows the same
  // locals for what it looks for, and a shared set would stop this one at each of them).
  let followed: Set<TS.Node> | null = null;
  /**
   * `req.cookies.get('sid')` of `req.cookies.get('sid')`, `clix().select().where` of a query
   * builder's chain: an access's names, without what calls on the way are given, so that a
   * `session_id` in a query's text or type is not taken for one read.
   */
  const accessPath = (x: TS.Expression): string => {
    const u = unwrap(ts, x);
    if (ts.isPropertyAccessExpression(u)) return `${accessPath(u.expression)}.${u.name.text}`;
    if (ts.isElementAccessExpression(u)) return `${accessPath(u.expression)}[${ts.isStringLiteralLike(u.argumentExpression) ? textOf(ctx, u.argumentExpression) : ''}]`;
    if (ts.isCallExpression(u)) return `${accessPath(u.expression)}()`;
    return ts.isIdentifier(u) ? u.text : '';
  };
  /**
   * Whether an access can read the caller's own session: one on the function's parameters (the
   * request, the context, a Nest `@Session()`), on what is named for a session or cookies
   * (`session.id` of `getSession()`, `cookies().get('sid')`), or through a request's session or
   * cookies (`…session.id`, `….cookies['connect.sid']`). A `session_id` column of rows read from a
   * store (`item.session_id` of analytics events) or of a value the function made is no one's
   * credential.
   */
  const ofCaller = (x: TS.Expression): boolean => {
    let u = unwrap(ts, x);
    let through = false;
    for (;;) {
      if (ts.isPropertyAccessExpression(u) || ts.isElementAccessExpression(u) || ts.isCallExpression(u)) {
        if (ts.isPropertyAccessExpression(u) && /^(session|cookies)$/i.test(u.name.text) && u !== unwrap(ts, x)) through = true;
        u = unwrap(ts, u.expression);
      } else break;
    }
    if (!ts.isIdentifier(u)) return through;
    if (through || f.params.includes(u.text)) return true;
    // `session.id` of `const session = await stripe.checkout.sessions.create(…)`: a payment
    // provider's checkout session, handed to the page to redirect to, is no one's sign-in; nor is
    // an import job's (OTHER_SESSION)
    const init = localInit().get(u.text);
    const made = init && unwrap(ts, init);
    if (made && ts.isCallExpression(made) && OTHER_SESSION.test(accessPath(made.expression))) return false;
    return /sess|cookie/i.test(u.text);
  };
  const exposures = (e: TS.Node, into: FunctionFact['sessionExposures']): void => {
    const found = (x: TS.Node, text: string): void => {
      const at = locOf(ctx, x);
      into.push({ at, snippet: lineText(ctx, at.line), text: text.slice(0, 80) });
    };
    const v = (x: TS.Node, viaLocal: boolean): void => {
      if (ts.isCallExpression(x)) {
        const literalArgs = x.arguments.filter((a) => ts.isStringLiteralLike(a)).map((a) => textOf(ctx, a));
        if (ofCaller(x) && SESSION_EXPOSURE_RE.test(`${accessPath(x.expression)}(${literalArgs.join(', ')})`)) return found(x, textOf(ctx, x));
        if (viaLocal) return v(x.expression, viaLocal);
      } else if ((ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) && ofCaller(x) && SESSION_EXPOSURE_RE.test(accessPath(x))) {
        return found(x, textOf(ctx, x));
      }
      if (ts.isShorthandPropertyAssignment(x) && /^session(ID|Id)$/.test(x.name.text)) {
        // (read where the local is made: `const { sessionId } = req.params`, a chat's id from the URL
        // (Trilium), or `const sessionId = String(Math.random())`, is no one's session; a name of
        // unknown origin is taken for one)
        const name = x.name.text;
        const init = localInit().get(name) ?? destructuredFrom().get(name);
        if (!init) return found(x, name);
        // (each value read once: `const { sessionId } = await create({ sessionId })` reads itself)
        if (shorthandRead?.has(init)) return;
        (shorthandRead ??= new Set()).add(init);
        const made: FunctionFact['sessionExposures'] = [];
        exposures(init, made);
        return made.length > 0 ? found(x, name) : undefined;
      }
      if (ts.isIdentifier(x) && localInit().has(x.text)) {
        const init = localInit().get(x.text)!;
        if (!followed?.has(init)) {
          (followed ??= new Set()).add(init);
          v(init, true);
        }
        return;
      }
      ts.forEachChild(x, (c) => v(c, viaLocal));
    };
    v(e, false);
  };
  // Without a credential word or a session word in the body, neither walk can find anything.
  const inspect = (e: TS.Node, into: FunctionFact['sessionExposures']): void => {
    if (credential || session) fieldsOf(e, 0);
    if (session) exposures(e, into);
  };
  const K = ts.SyntaxKind;
  // Called by the behaviour walk on each node outside nested functions: one walk serves both.
  // (`responseCall`: the node is a call answering the request, isResponseCall)
  const visit = (n: TS.Node, responseCall: boolean): void => {
    switch (n.kind) {
      case K.ReturnStatement: {
        const r = (n as TS.ReturnStatement).expression;
        if (!r) break;
        // A returned expression was already walked as a statement; its Expr is re-derived without
        // re-walking nested functions: identifiers, calls and members are cheap and side-effect free.
        const u = unwrap(ts, r);
        if (returnsScope !== null) {
          const when = ctx.returnWhen.get(n);
          if (when) {
            const all = (f.returnsWhen ??= []);
            while (all.length < f.returns.length) all.push(null);
            all.push(when);
          }
          f.returns.push(shallowExpr(ctx, u, returnsScope));
        }
        if (ts.isObjectLiteralExpression(u) || ts.isIdentifier(u)) inspect(u, f.returnedSessionExposures);
        break;
      }
      case K.CallExpression:
        if (responseCall) for (const a of (n as TS.CallExpression).arguments) inspect(a, f.sessionExposures);
        break;
      case K.BinaryExpression: {
        const e = n as TS.BinaryExpression;
        if (e.operatorToken.kind === K.EqualsToken && isContextWrite(ctx, e.left, /^(ctx|context)(\.response)?\.body$/)) inspect(e.right, f.sessionExposures);
        break;
      }
    }
  };
  const dedupe = <T extends { at: Loc }>(xs: T[]): T[] => {
    if (xs.length < 2) return xs;
    const keys = new Set<string>();
    return xs.filter((x) => {
      const k = `${x.at.line}:${x.at.column}`;
      if (keys.has(k)) return false;
      keys.add(k);
      return true;
    });
  };
  const finish = (): void => {
    f.responseFields = dedupe(f.responseFields) as ResponseField[];
    f.sessionExposures = dedupe(f.sessionExposures);
    f.returnedSessionExposures = dedupe(f.returnedSessionExposures);
  };
  return { visit, finish };
}

