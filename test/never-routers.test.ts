/**
 * Registration-like calls whose target is no router as the linker reads it (`groups.get(key)`
 * of `const groups = new Map()`, `this.get(id)` in a class extending nothing) are not kept as
 * registrations: the linker would drop them anyway, after evaluating each.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../src/adapters/index.js';
import { DEFAULT_BUDGETS } from '../src/budgets.js';
import { loadTypeScript } from '../src/extract/compiler.js';
import { extractFacts } from '../src/extract/extract.js';

const ts = loadTypeScript();
/** The registrations kept of a file: each call's snippet, trimmed. */
const kept = (text: string): string[] => extractFacts(ts, 'src/x.ts', text, ADAPTERS, DEFAULT_BUDGETS).registrations.map((r) => r.snippet.trim());

describe('registration-like calls on what is never a router', () => {
  it.each([
    ['a const Map', `const groups = new Map<string, number>();\nfor (const k of keys) groups.set(k, (groups.get(k) ?? 0) + 1);\n`],
    ['a Set, and Headers and URLSearchParams', `const seen = new Set();\nseen.delete(id);\nconst h = new Headers();\nh.set('x-id', id);\nconst q = new URLSearchParams();\nq.set('page', '2');\n`],
    ['a new Map chained', `export const m = new Map().set('a', 1).set('b', 2);\n`],
    ['`this` in a class extending nothing', `export class SitesService {\n  async get(id: string) { return id; }\n  async touch(id: string) { return this.get(id); }\n}\n`],
    ['a Map first bound to a name (the linker reads a name as its first value)', `let routes = new Map();\nroutes.set('/a', 1);\nroutes = other;\n`],
  ])('drops them on %s', (_what, text) => {
    expect(kept(text)).toEqual([]);
  });

  it.each([
    ['`this` in a class extending a router', `import { Hono } from 'hono';\nclass Api extends Hono {\n  constructor() {\n    super();\n    this.get('/', (c) => c.text('ok'));\n  }\n}\n`, ["this.get('/', (c) => c.text('ok'));"]],
    ['`this` in a class extending what a call returns', `class Api extends withAuth(Base) {\n  mount() { this.use(guard); }\n}\n`, ['mount() { this.use(guard); }']],
    ['a field of `this` in a class extending nothing', `class App {\n  private readonly app = makeApp();\n  routes() { this.app.get('/x', h); }\n}\n`, ["routes() { this.app.get('/x', h); }"]],
    ['a Map imported from a package', `import { Map } from 'immutable';\nconst m = new Map();\nm.set('a', 1);\n`, ["m.set('a', 1);"]],
    ['a Map a local class shadows', `class Map { get(p: string, h: unknown) {} }\nconst m = new Map();\nm.get('/x', h);\n`, ["m.get('/x', h);"]],
    ['a name bound later than the call', `export function mount() { routes.get('/x', h); }\nconst routes = new Map();\n`, ["export function mount() { routes.get('/x', h); }"]],
    ['a parameter', `export function mount(r: Router) { r.get('/x', h); }\n`, ["export function mount(r: Router) { r.get('/x', h); }"]],
  ])('keeps them on %s', (_what, text, expected) => {
    expect(kept(text)).toEqual(expected);
  });
});
