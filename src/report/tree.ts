/**
 * `list --format tree`: the route surface as a path tree per app, in the spirit of Fastify's
 * `printRoutes()`. Path segments become nodes (a part not known statically, the segment `…`); a chain of nodes without routes and with a
 * single child is folded into one label. Each node lists its routes grouped by
 * classification and guard badges: the guard kinds present (auth / bearer, tenant, csrf,
 * family), `!kind` for an expected guard that is missing, `unknown` for unclassified
 * middleware.
 */
import type { ChalkInstance } from 'chalk';
import type { Contract } from '../contract.js';
import { shownPath } from '../rule.js';
import type { Route } from '../types.js';
import { missingBadges, presentBadges } from './expect.js';

interface Node {
  label: string;
  children: Map<string, Node>;
  routes: Route[];
}

function node(label: string): Node {
  return { label, children: new Map(), routes: [] };
}

/** '/api/sites/' → ['api/', 'sites/']; '/api/sites/:id' → ['api/', 'sites/', ':id']; '/' → []. */
function tokens(p: string): string[] {
  const segs = (p.startsWith('/') ? p.slice(1) : p).split('/');
  return segs.map((s, i) => (i < segs.length - 1 ? `${s}/` : s)).filter((s) => s !== '');
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function build(routes: Route[]): Node {
  const root = node('/');
  for (const r of routes) {
    let n = root;
    for (const t of tokens(shownPath(r))) {
      let child = n.children.get(t);
      if (!child) n.children.set(t, (child = node(t)));
      n = child;
    }
    n.routes.push(r);
  }
  return compress(root);
}

function compress(n: Node): Node {
  let cur = n;
  while (cur.routes.length === 0 && cur.children.size === 1) {
    const only = [...cur.children.values()][0]!;
    cur = { label: cur.label + only.label, children: only.children, routes: only.routes };
  }
  const children = new Map<string, Node>();
  for (const key of [...cur.children.keys()].sort(cmpStr)) {
    const c = compress(cur.children.get(key)!);
    children.set(c.label, c);
  }
  return { ...cur, children };
}

interface Group {
  methods: string[];
  classification: string;
  present: string[];
  missing: string[];
  unknown: boolean;
}

function groups(routes: Route[], contract: Contract): Group[] {
  const out = new Map<string, Group>();
  for (const r of routes) {
    const g: Group = {
      methods: [],
      classification: r.classification + (r.family ? `:${r.family}` : ''),
      present: presentBadges(r),
      missing: missingBadges(r, contract),
      unknown: r.guards.some((x) => x.kinds.includes('unknown')),
    };
    const key = JSON.stringify([g.classification, g.present, g.missing, g.unknown]);
    const existing = out.get(key) ?? (out.set(key, g), g);
    existing.methods.push(r.method);
  }
  return [...out.values()];
}

function methodsText(methods: string[]): string {
  const counts = new Map<string, number>();
  for (const m of methods) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts].map(([m, n]) => (n > 1 ? `${m} ×${n}` : m)).join(', ');
}

function groupText(g: Group, c: ChalkInstance): string {
  const cls = g.classification.startsWith('contract')
    ? c.cyan(g.classification)
    : g.classification.startsWith('public')
      ? c.green(g.classification)
      : g.classification.startsWith('excluded')
        ? c.magenta(g.classification)
        : g.classification;
  const badges = [...g.present.map((b) => c.green(b)), ...g.missing.map((b) => c.red(`!${b}`)), ...(g.unknown ? [c.yellow('unknown')] : [])];
  return `${c.bold(methodsText(g.methods))} ${cls}${badges.length > 0 ? ` [${badges.join(' ')}]` : ''}`;
}

function render(n: Node, prefix: string, connector: string, childPrefix: string, contract: Contract, c: ChalkInstance, out: string[]): void {
  const gs = groups(n.routes, contract);
  const hasChildren = n.children.size > 0;
  out.push(`${prefix}${connector}${n.label}${gs.length > 0 ? ` ${groupText(gs[0]!, c)}` : ''}`);
  for (const g of gs.slice(1)) out.push(`${childPrefix}${hasChildren ? '│' : ' '}${' '.repeat(n.label.length)}${groupText(g, c)}`);
  const kids = [...n.children.values()];
  kids.forEach((k, i) => {
    const last = i === kids.length - 1;
    render(k, childPrefix, last ? '└── ' : '├── ', childPrefix + (last ? '    ' : '│   '), contract, c, out);
  });
}

/** One tree per app (in the order apps first appear among the sorted routes), then a count and `notes` on what it leaves out (left-out.ts). */
export function formatTree(routes: Route[], contract: Contract, c: ChalkInstance, notes: readonly string[] = []): string {
  const apps = new Map<string, Route[]>();
  for (const r of routes) {
    const list = apps.get(r.app);
    if (list) list.push(r);
    else apps.set(r.app, [r]);
  }
  const out: string[] = [];
  for (const [app, list] of [...apps].sort((a, b) => cmpStr(a[0], b[0]))) {
    const frameworks = [...new Set(list.map((r) => r.framework))].join(', ');
    out.push(c.bold(`${app} (${frameworks}, ${list.length} route${list.length === 1 ? '' : 's'})`));
    render(build(list), '', '└── ', '    ', contract, c, out);
    out.push('');
  }
  out.push(`${routes.length} route${routes.length === 1 ? '' : 's'}`, ...notes.map((n) => c.yellow(n)));
  return out.join('\n') + '\n';
}
