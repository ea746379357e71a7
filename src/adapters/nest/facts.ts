/**
 * NestJS per-file facts: the decorators of classes and their methods, and what a guard's
 * `canActivate` reads to let a request through early (`@Public()` opt-outs). Plain JSON,
 * stored in `facts.adapterFacts.nest`.
 */
import type { ts as TS } from 'ts-morph';
import { helperName, type DecoratorUse, type ExtractApi } from '../../extract/extract.js';
import type { Value } from '../../link/evaluate.js';
import type { Expr, Loc } from '../../types.js';

export interface NestDecorator {
  expr: Expr;
  at: Loc;
  snippet: string;
}

export interface NestMethod {
  name: string;
  at: Loc;
  isStatic: boolean;
  decorators: NestDecorator[];
  /**
   * The decorators of its parameters named `CurrentUser` (`@CurrentUser({ required: true }) user`),
   * when it has any: routing-controllers' is a check of the signed-in user (which decorator a
   * name is, is read when linked)
   */
  currentUser?: NestDecorator[];
  /** a parameter of it is decorated `@Next()`: the handler may hand the request on to a later route */
  next?: true;
}

/**
 * `const isPublic = this.reflector.getAllAndOverride(IS_PUBLIC_KEY, [ctx.getHandler(), ctx.getClass()]);
 * if (isPublic) return true;` — the metadata key, and where it is looked up, in lookup order.
 * `optIn`: the test is negated, `if (!options) return true` (immich's AuthGuard of
 * `@Authenticated()`): the guard lets through every route that does not carry the key.
 */
export interface NestOptOut {
  key: Expr;
  levels: ('handler' | 'class')[];
  optIn?: true;
  /** the skip tests that the list read holds this string (`if (roles?.includes('public')) return true`), not that it is truthy */
  includes?: string;
  /** the (opt-in) test is of the list's length (`if (!roles?.length) return true`): an empty list is as good as none */
  length?: true;
}

export interface NestClass {
  name: string;
  at: Loc;
  endLine: number;
  decorators: NestDecorator[];
  /** `extends X` */
  heritage: Expr | null;
  /**
   * What the constructor passes to the base's, when `heritage` is a call (`extends
   * PassportStrategy(Strategy, 'jwt')` with `super({ jwtFromRequest: … })`): read in the class's
   * scope, so a constructor parameter it names is not known
   */
  superArgs?: Expr[];
  methods: NestMethod[];
  /** from `canActivate`, and from a passport AuthGuard's `handleRequest`, when the class has them */
  optOuts: NestOptOut[];
}

export interface NestFileFacts {
  classes: NestClass[];
  /**
   * In a file importing @nestjs/core and naming NestFactory, of the names given what a
   * `….create(…)` call makes (`const app = await NestFactory.create(AppModule)`): those `close()` is
   * called on in the function making them (`configApp.close()`) or made in preview mode
   * (`{ preview: true }`), those `listen(…)`, `getHttpServer()` or `getHttpAdapter()` is (`init()`
   * too when made on an adapter given, as `new ExpressAdapter(server)`: what serves that server
   * serves the routes init registers; with none, nothing listens), and those used otherwise than by
   * calling a method on them (returned, exported, handed to a function, stored: what is done with
   * the app then is not known; handed to @nestjs/swagger's `SwaggerModule.createDocument` or
   * `setup`, which read its routes and add its documentation's, it is known). NestLinker
   * reads an app none of the second makes serve, closed or never used otherwise, as one made only
   * to read its configuration or its services.
   */
  closed?: string[];
  served?: string[];
  escaped?: string[];
}

/**
 * What an app is called with when it serves requests, or hands its server to what does. (`init()`
 * registers the routes on the adapter's server, `listen()` inits and makes that server listen:
 * NestApplication.init and listen, read at @nestjs/core 11.1.)
 */
const SERVING = new Set(['listen', 'listenAsync', 'getHttpServer', 'getHttpAdapter']);

/** `closed`, `served` and `escaped` of a file making an app with NestFactory. */
export function visitNestFile(api: ExtractApi): void {
  // (walked again only where an app may be made: guards and modules import @nestjs/core too)
  if (!/\bNestFactory\b/.test(api.sf.text) || !api.facts.imports.some((i) => i.source === '@nestjs/core')) return;
  const { ts } = api;
  const K = ts.SyntaxKind;
  const made = new Set<string>();
  // the names given an app made on an adapter given (`NestFactory.create(AppModule, new
  // ExpressAdapter(server))`: a second argument that is no options object), and those inited
  const adapted = new Set<string>();
  const inited = new Set<string>();
  const closed = new Set<string>();
  const served = new Set<string>();
  const escaped = new Set<string>();
  // the names given a `….create(…)` call's result, declared (exported ones escape) or assigned
  const makes = (e: TS.Expression | undefined): TS.CallExpression | null => {
    let x = e;
    while (x && (x.kind === K.AwaitExpression || x.kind === K.ParenthesizedExpression)) x = (x as TS.AwaitExpression).expression;
    return !!x && ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression) && x.expression.name.text === 'create' ? x : null;
  };
  // `NestFactory.create(ApiModule, { preview: true })`: Nest builds the module graph and
  // constructs no controller or provider (Injector.instantiateClass), to read it (immich's
  // OpenAPI script): an app made only to read, as a closed one
  const preview = (call: TS.CallExpression): boolean =>
    call.arguments.some(
      (a) =>
        ts.isObjectLiteralExpression(a) &&
        a.properties.some((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'preview' && p.initializer.kind === K.TrueKeyword),
    );
  // where each name is given an app: the innermost function around it (none: the module's top)
  const madeIn = new Map<string, (TS.Node | undefined)[]>();
  const make = (name: string, call: TS.CallExpression, fns: readonly TS.Node[]): void => {
    made.add(name);
    madeIn.set(name, [...(madeIn.get(name) ?? []), fns.at(-1)]);
    if (preview(call)) closed.add(name);
    const adapter = call.arguments[1];
    if (adapter && !ts.isObjectLiteralExpression(adapter)) adapted.add(name);
  };
  // `SwaggerModule.createDocument(app, config)`, `SwaggerModule.setup('docs', app, document)`
  const swagger = api.facts.imports.find((i) => i.source === '@nestjs/swagger' && i.imported === 'SwaggerModule')?.local;
  const documents = (call: TS.Node): boolean =>
    swagger !== undefined &&
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    ts.isIdentifier(call.expression.expression) &&
    call.expression.expression.text === swagger &&
    (call.expression.name.text === 'createDocument' || call.expression.name.text === 'setup');
  // the identifiers of the file with their parent, grandparent and the functions around them (a
  // stack, not recursion: the file's nesting was bounded by the walk before, not by this one)
  const uses: [TS.Identifier, TS.Node, TS.Node | null, readonly TS.Node[]][] = [];
  const stack: [TS.Node, TS.Node | null, TS.Node | null, readonly TS.Node[]][] = [[api.sf, null, null, []]];
  while (stack.length > 0) {
    const [n, parent, grandparent, fns] = stack.pop()!;
    let call: TS.CallExpression | null = null;
    if (ts.isIdentifier(n) && parent) uses.push([n, parent, grandparent, fns]);
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && (call = makes(n.initializer))) {
      make(n.name.text, call, fns);
      // (`export const app = …`: what is exported may be served elsewhere)
      if (grandparent && ts.isVariableStatement(grandparent) && (ts.getModifiers(grandparent) ?? []).some((m) => m.kind === K.ExportKeyword)) escaped.add(n.name.text);
    } else if (ts.isBinaryExpression(n) && n.operatorToken.kind === K.EqualsToken && ts.isIdentifier(n.left) && (call = makes(n.right))) make(n.left.text, call, fns);
    const inner = ts.isFunctionLike(n) ? [...fns, n] : fns;
    ts.forEachChild(n, (c) => {
      stack.push([c, n, parent, inner]);
    });
  }
  if (made.size === 0) return;
  for (const [id, p, gp, fns] of uses) {
    const name = id.text;
    if (!made.has(name)) continue;
    // (a name in a function outside the one giving it the app is another binding: a helper's
    // parameter, `const writeSpec = (app) => …`)
    const homes = madeIn.get(name)!;
    if (!homes.some((h) => h === undefined || fns.includes(h))) continue;
    // `app.listen(3000)`, `configApp.close()`, `app.get(ConfigService)`: a method called on it —
    // closed where it is made, not in a callback (a shutdown hook, `setCloseFn(() => app.close())`)
    if (ts.isPropertyAccessExpression(p) && p.expression === id && gp && ts.isCallExpression(gp) && gp.expression === p) {
      if (p.name.text === 'close') {
        if (homes.includes(fns.at(-1))) closed.add(name);
      } else if (SERVING.has(p.name.text)) served.add(name);
      else if (p.name.text === 'init') inited.add(name);
      continue;
    }
    if (documents(p) && (p as TS.CallExpression).arguments.includes(id)) continue;
    // (its declaration, the target of an assignment, a property's name: not a use of the value)
    if ((ts.isVariableDeclaration(p) && p.name === id) || (ts.isPropertyAccessExpression(p) && p.name === id) || (ts.isBinaryExpression(p) && p.operatorToken.kind === K.EqualsToken && p.left === id)) continue;
    escaped.add(name);
  }
  let facts = nestFactsOf(api.facts);
  if (!facts) api.facts.adapterFacts.nest = facts = { classes: [] };
  for (const name of inited) if (adapted.has(name)) served.add(name);
  facts.closed = [...closed].sort();
  facts.served = [...served].sort();
  facts.escaped = [...escaped].sort();
}

const REFLECTOR_READS = new Set(['get', 'getAll', 'getAllAndOverride', 'getAllAndMerge', 'getMetadata']);

/** The function fact of a class's method (by its place and name), as a value; unknown when it has no body. */
export function methodValue(files: ReadonlyMap<string, { functions: { at: Loc; name: string | null }[] }>, file: string, cls: NestClass, m: NestMethod): Value {
  const id = files.get(file)?.functions.findIndex((f) => f.at.line === m.at.line && f.at.column === m.at.column && f.name === m.name) ?? -1;
  return id >= 0 ? { t: 'fn', file, fn: id } : { t: 'unknown', why: `${cls.name}.${m.name} has no body` };
}

export function nestFactsOf(facts: { adapterFacts: Record<string, unknown> }): NestFileFacts | null {
  return (facts.adapterFacts.nest as NestFileFacts | undefined) ?? null;
}

export function visitNestClass(api: ExtractApi, node: TS.ClassLikeDeclaration, scope: number, className: string | null): void {
  const { ts } = api;
  if (className === null) return;
  // (a decorator's expression: `Get(':id')` of `@Get(':id')`, or compiled, `(0, common_1.Get)(':id')`)
  const decoratorOf = (d: DecoratorUse): NestDecorator => {
    const at = api.loc(d.at);
    return { expr: api.expr(d.expr, scope), at, snippet: api.snippet(at.line) };
  };
  const decoratorsOf = (m?: TS.ClassElement): NestDecorator[] => api.decorators(node, m).map(decoratorOf);
  // `@CurrentUser(…)` on a parameter, by its name (`CurrentUser`, `rc.CurrentUser`), and whether
  // a parameter is `@Next()`
  const parameterDecorators = (m: TS.MethodDeclaration): { user: NestDecorator[]; next: boolean } => {
    const out: NestDecorator[] = [];
    let next = false;
    for (let i = 0; i < m.parameters.length; i++) {
      for (const d of api.decorators(node, m, i)) {
        // (`(0, rc.CurrentUser)`, compiled)
        const name = helperName(ts, ts.isCallExpression(d.expr) ? d.expr.expression : d.expr);
        if (name === 'CurrentUser') out.push(decoratorOf(d));
        if (name === 'Next') next = true;
      }
    }
    return { user: out, next };
  };
  const methods: NestMethod[] = [];
  let canActivate: TS.MethodDeclaration | null = null;
  let handleRequest: TS.MethodDeclaration | null = null;
  for (const m of node.members) {
    if (!ts.isMethodDeclaration(m) || !(ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) continue;
    const isStatic = (ts.getModifiers(m) ?? []).some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
    const { user: currentUser, next } = parameterDecorators(m);
    methods.push({ name: m.name.text, at: api.loc(m), isStatic, decorators: decoratorsOf(m), ...(currentUser.length > 0 ? { currentUser } : {}), ...(next ? { next: true as const } : {}) });
    if (m.name.text === 'canActivate' && !isStatic && m.body) canActivate = m;
    if (m.name.text === 'handleRequest' && !isStatic && m.body) handleRequest = m;
  }
  const decorators = decoratorsOf();
  const heritageNode = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  const importsNest = api.facts.imports.some((i) => i.source.startsWith('@nestjs/'));
  // (a class with a `use` method may be middleware without a decorator: routing-controllers' `@UseBefore(TenantScope)`;
  // one extending another may be a guard by what it extends: `class DefaultAuthGuard extends JwtAuthGuard {}`)
  const use = methods.some((m) => m.name === 'use' && !m.isStatic);
  if (!importsNest && decorators.length === 0 && !methods.some((m) => m.decorators.length > 0) && !canActivate && !use && !heritageNode) return;
  let facts = nestFactsOf(api.facts);
  if (!facts) api.facts.adapterFacts.nest = facts = { classes: [] };
  const superCall = heritageNode && ts.isCallExpression(heritageNode) ? superCallOf(ts, node) : null;
  facts.classes.push({
    name: className,
    at: api.loc(node),
    endLine: ts.getLineAndCharacterOfPosition(api.sf, node.getEnd()).line + 1,
    decorators,
    heritage: heritageNode ? api.expr(heritageNode, scope) : null,
    ...(superCall ? { superArgs: superCall.arguments.map((a) => api.expr(a, scope)) } : {}),
    methods,
    optOuts: [...(canActivate?.body ? optOutsOf(api, canActivate.body, scope, (s) => returnsTrue(ts, s)) : []), ...(handleRequest?.body ? optOutsOf(api, handleRequest.body, scope, returnsUser(ts, handleRequest)) : [])],
  });
}

/** The constructor's `super(…)` call, a statement of its body. */
function superCallOf(ts: ExtractApi['ts'], node: TS.ClassLikeDeclaration): TS.CallExpression | null {
  for (const m of node.members) {
    if (!ts.isConstructorDeclaration(m) || !m.body) continue;
    for (const stmt of m.body.statements) {
      if (ts.isExpressionStatement(stmt) && ts.isCallExpression(stmt.expression) && stmt.expression.expression.kind === ts.SyntaxKind.SuperKeyword) return stmt.expression;
    }
  }
  return null;
}

/** `return true` first in a branch: canActivate lets the request through. */
function returnsTrue(ts: ExtractApi['ts'], s: TS.Statement): boolean {
  const first = ts.isBlock(s) ? s.statements[0] : s;
  return !!first && ts.isReturnStatement(first) && !!first.expression && unwrapped(ts, first.expression).kind === ts.SyntaxKind.TrueKeyword;
}

/**
 * `return user` last in a branch of a passport AuthGuard's `handleRequest(err, user, …)`
 * (swetrix's `if (isOptionalAuth) { if (err) return super.handleRequest(…); return user }`): the
 * user, none when the request carries no credential, handed on without the base's refusal.
 */
function returnsUser(ts: ExtractApi['ts'], m: TS.MethodDeclaration): (s: TS.Statement) => boolean {
  const user = m.parameters[1]?.name;
  return (s) => {
    const last = ts.isBlock(s) ? s.statements[s.statements.length - 1] : s;
    return !!user && ts.isIdentifier(user) && !!last && ts.isReturnStatement(last) && !!last.expression && ts.isIdentifier(unwrapped(ts, last.expression)) && (unwrapped(ts, last.expression) as TS.Identifier).text === user.text;
  };
}

/** The expression inside parentheses, `await`, `as` and `!`. */
function unwrapped(ts: ExtractApi['ts'], e: TS.Expression): TS.Expression {
  let n = e;
  while (ts.isParenthesizedExpression(n) || ts.isAwaitExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n)) n = n.expression;
  return n;
}

/**
 * `if (<metadata read>) return true;` or `if (!<metadata read>) return true;`, directly or through a
 * const, among canActivate's statements; or `if (<read>?.includes('public')) return true` of a list
 * of roles (Hexabot's `Ability` guard and its `@Roles('public')`); `letsThrough`, how the branch
 * lets the request through (`returnsTrue`, or handleRequest's `returnsUser`).
 */
function optOutsOf(api: ExtractApi, body: TS.Block, scope: number, letsThrough: (s: TS.Statement) => boolean): NestOptOut[] {
  const { ts } = api;
  const unwrap = (e: TS.Expression): TS.Expression => unwrapped(ts, e);
  const readOf = (e: TS.Expression): TS.CallExpression | null => {
    const u = unwrap(e);
    if (!ts.isCallExpression(u) || !ts.isPropertyAccessExpression(u.expression) || u.arguments.length === 0) return null;
    if (!REFLECTOR_READS.has(u.expression.name.text) || !/reflect/i.test(u.expression.expression.getText(api.sf))) return null;
    return u;
  };
  const reads = new Map<string, TS.CallExpression>();
  const out: NestOptOut[] = [];
  // `x.length` / `x?.length` (of a name): the name
  const lengthOf = (e: TS.Expression): TS.Identifier | null => {
    const u = unwrap(e);
    return ts.isPropertyAccessExpression(u) && u.name.text === 'length' && ts.isIdentifier(unwrap(u.expression)) ? (unwrap(u.expression) as TS.Identifier) : null;
  };
  // A test that a list read is missing or empty, each way it is written: the list's name; null for any other test
  const unlisted = (e: TS.Expression): TS.Identifier | null => {
    const u = unwrap(e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.BarBarToken) {
      const l = unlisted(u.left) ?? missing(u.left);
      const r = unlisted(u.right) ?? missing(u.right);
      return l && r && l.text === r.text ? l : null;
    }
    if (ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken) return lengthOf(u.operand);
    const zero = (x: TS.Expression): boolean => ts.isNumericLiteral(unwrap(x)) && (unwrap(x) as TS.NumericLiteral).text === '0';
    if (ts.isBinaryExpression(u) && (u.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken || u.operatorToken.kind === ts.SyntaxKind.EqualsEqualsToken))
      return zero(u.right) ? lengthOf(u.left) : zero(u.left) ? lengthOf(u.right) : null;
    return null;
  };
  // `!x` (of a name): the name
  const missing = (e: TS.Expression): TS.Identifier | null => {
    const u = unwrap(e);
    return ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && ts.isIdentifier(unwrap(u.operand)) ? (unwrap(u.operand) as TS.Identifier) : null;
  };
  for (const stmt of body.statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        const r = d.initializer ? readOf(d.initializer) : null;
        if (r && ts.isIdentifier(d.name)) reads.set(d.name.text, r);
      }
      continue;
    }
    if (!ts.isIfStatement(stmt) || !letsThrough(stmt.thenStatement)) continue;
    const test = unwrap(stmt.expression);
    // (`!roles?.length`, `!roles || !roles.length`, `!roles || roles.length === 0`: no roles set, or none listed)
    const none = unlisted(test);
    const optIn = none !== null || (ts.isPrefixUnaryExpression(test) && test.operator === ts.SyntaxKind.ExclamationToken);
    let cond = none ?? (optIn ? unwrap((test as TS.PrefixUnaryExpression).operand) : test);
    // (`roles?.includes('public')`: the list read, and the string it must hold)
    let includes: string | null = null;
    if (ts.isCallExpression(cond) && ts.isPropertyAccessExpression(cond.expression) && cond.expression.name.text === 'includes' && cond.arguments.length === 1 && ts.isStringLiteralLike(cond.arguments[0]!)) {
      includes = cond.arguments[0].text;
      cond = unwrap(cond.expression.expression);
    }
    const call = ts.isIdentifier(cond) ? reads.get(cond.text) ?? null : readOf(cond);
    if (!call) continue;
    const rest = call.arguments.slice(1).map((a) => a.getText(api.sf)).join(' ');
    const levels: ('handler' | 'class')[] = [];
    for (const m of rest.matchAll(/getHandler|getClass/g)) {
      const l = m[0] === 'getHandler' ? 'handler' : 'class';
      if (!levels.includes(l)) levels.push(l);
    }
    out.push({ key: api.expr(call.arguments[0]!, scope), levels: levels.length > 0 ? levels : ['handler', 'class'], ...(optIn ? { optIn: true as const } : {}), ...(includes !== null ? { includes } : {}), ...(none !== null ? { length: true as const } : {}) });
  }
  return out;
}
