/**
 * Classes of the analysed code as the decorator frameworks on Express and Koa read them
 * (routing-controllers, inversify-express-utils): a class an expression names, the chain of
 * classes it extends, and a package's decorators on it. The classes are those the Nest
 * extraction records (nest/facts.ts: every decorated class, and every class extending another).
 */
import type { Evaluator } from '../link/evaluate.js';
import type { Expr } from '../types.js';
import { nestFactsOf, type NestClass, type NestDecorator } from './nest/facts.js';

export interface ClassRef {
  file: string;
  cls: NestClass;
}

/** A decorator of a package: its name (the package's export) and arguments. */
export interface Deco {
  name: string;
  args: Expr[];
  use: NestDecorator;
  file: string;
}

/** Every class of the analysed files that `is` holds for, in file order. */
export function classesWhere(ev: Evaluator, is: (c: ClassRef) => boolean): ClassRef[] {
  const out: ClassRef[] = [];
  for (const [file, facts] of [...ev.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) for (const cls of nestFactsOf(facts)?.classes ?? []) if (is({ file, cls })) out.push({ file, cls });
  return out;
}

/** A class an expression names, through consts and imports (also a namespace import's member). */
export function classNamed(ev: Evaluator, file: string, e: Expr, depth = 0): ClassRef | null {
  if (depth > 16) return null;
  if (e.k === 'at') return classNamed(ev, e.file, e.e, depth + 1);
  if (e.k === 'ref') {
    const def = ev.definitionOf(file, e.scope, e.name);
    return def && def.expr !== e ? classNamed(ev, def.file, def.expr, depth + 1) : null;
  }
  if (e.k === 'member') {
    const obj = ev.eval(file, e.obj);
    if (obj.t !== 'ns') return null;
    const def = ev.definitionOf(obj.file, 0, e.prop);
    return def ? classNamed(ev, def.file, def.expr, depth + 1) : null;
  }
  if (e.k === 'unknown' && e.text.startsWith('class ')) {
    const cls = nestFactsOf(ev.files.get(file) ?? { adapterFacts: {} })?.classes.find((c) => c.name === e.text.slice(6));
    return cls ? { file, cls } : null;
  }
  return null;
}

/** The classes of a chain: the class, then the classes it extends, as far as they are known. */
export function classChain(ev: Evaluator, c: ClassRef): ClassRef[] {
  const chain = [c];
  for (let cur = c; cur.cls.heritage && chain.length < 8; ) {
    const parent = classNamed(ev, cur.file, cur.cls.heritage);
    if (!parent || chain.some((x) => x.file === parent.file && x.cls.name === parent.cls.name)) break;
    chain.push(parent);
    cur = parent;
  }
  return chain;
}

/** The decorators among `decorators` that are exports of package `pkg`, in the order written. */
export function packageDecorators(ev: Evaluator, pkg: string, file: string, decorators: NestDecorator[]): Deco[] {
  const out: Deco[] = [];
  for (const d of decorators) {
    const call = d.expr.k === 'call' ? d.expr : null;
    const callee = ev.eval(file, call ? call.callee : d.expr);
    if (callee.t !== 'pkg' || callee.pkg !== pkg || callee.path.length !== 1) continue;
    out.push({ name: callee.path[0]!, args: call?.args ?? [], use: d, file });
  }
  return out;
}
