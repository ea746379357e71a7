/**
 * `check --format html`: one self-contained HTML file: summary, contract coverage matrix,
 * the route table (sortable, filterable by text, method, classification and finding),
 * findings grouped by rule with code excerpts read at report time, and the route tree.
 *
 * Nothing is fetched: CSS and JS are inline and pinned by a Content-Security-Policy with
 * their hashes (`default-src 'none'`). Route paths, messages and code come from the
 * analysed, untrusted code, so all data travels as JSON in a `<script type="application/json">`
 * block with `<`, `>` and `&` escaped, and the page builds its DOM with `textContent` only.
 * Rows are rendered a page at a time over the filtered, sorted list, so 10,000 routes stay fast.
 */
import crypto from 'node:crypto';
import { RULES } from '../../rules/index.js';
import { methodServes, samePath } from '../classify.js';
import type { RunResult } from '../engine.js';
import { VERSION } from '../package-root.js';
import { shownPath } from '../rule.js';
import type { Finding, Route } from '../types.js';
import { missingBadges, presentBadges } from './expect.js';
import { SourceLines } from './explain.js';
import { formatTree } from './tree.js';
import { makeChalk } from './color.js';

type CellState = 'ok' | 'bad' | 'na';
interface Cell {
  s: CellState;
  t: string;
}

export interface MatrixRow {
  route: string;
  auth: string;
  tenantScoped: boolean;
  resource: string;
  served: Cell;
  method: Cell;
  slash: Cell;
  authCell: Cell;
  tenant: Cell;
}

const EXCERPT_CONTEXT = 2;
const EXCERPT_MAX_LINE = 240;

function loc(r: { file: string; line: number }): string {
  return `${r.file}:${r.line}`;
}

/** One row per contract route: served / method / trailing slash / auth / tenant. */
export function coverageMatrix(res: RunResult): MatrixRow[] {
  return res.contract.routes.map((c) => {
    const key = `${c.method} ${c.path}`;
    const serving = res.routes.filter((r) => r.contractRoute === key);
    const proper = serving.filter((r) => r.contractMatch !== 'drift');
    const base = { route: key, auth: c.auth, tenantScoped: c.tenantScoped, resource: c.resource };
    if (serving.length === 0) {
      const none: Cell = { s: 'na', t: '—' };
      return { ...base, served: { s: 'bad', t: 'not served' }, method: none, slash: none, authCell: none, tenant: none };
    }
    const where = serving.map(loc).join(', ');
    const served: Cell = proper.length > 0 ? { s: 'ok', t: `served at ${where}` } : { s: 'bad', t: `drift: ${serving.map((r) => `${r.method} ${r.path} (${r.driftReason})`).join('; ')}` };
    const wrongMethod = serving.filter((r) => !methodServes(r.method, c.method));
    const method: Cell = wrongMethod.length < serving.length ? { s: 'ok', t: c.method } : { s: 'bad', t: `${[...new Set(wrongMethod.map((r) => r.method))].join(', ')} instead of ${c.method}` };
    const wrongSlash = serving.filter((r) => !samePath(r.path, c.path, r.trailingSlashInsensitive, true));
    const slash: Cell =
      wrongSlash.length < serving.length ? { s: 'ok', t: c.path.endsWith('/') ? 'with trailing slash' : 'without trailing slash' } : { s: 'bad', t: `served only as ${wrongSlash.map((r) => r.path).join(', ')}` };
    const has = (r: Route, k: string): boolean => r.guards.some((g) => g.kinds.includes(k as never));
    let authCell: Cell;
    if (c.auth === 'public') {
      const guarded = serving.filter((r) => has(r, 'auth') || has(r, 'tenant'));
      authCell = guarded.length === 0 ? { s: 'ok', t: 'public, unguarded' } : { s: 'bad', t: `public in the contract, guarded at ${guarded.map(loc).join(', ')}` };
    } else {
      const open = serving.filter((r) => !has(r, 'auth'));
      authCell = open.length === 0 ? { s: 'ok', t: names(serving, 'auth') } : { s: 'bad', t: `no auth guard at ${open.map(loc).join(', ')}` };
    }
    let tenant: Cell;
    if (!c.tenantScoped) tenant = { s: 'na', t: 'not tenant-scoped' };
    else {
      const open = serving.filter((r) => !has(r, 'tenant'));
      tenant = open.length === 0 ? { s: 'ok', t: names(serving, 'tenant') } : { s: 'bad', t: `no tenant guard at ${open.map(loc).join(', ')}` };
    }
    return { ...base, served, method, slash, authCell, tenant };
  });
}

function names(routes: Route[], kind: string): string {
  return [...new Set(routes.flatMap((r) => r.guards.filter((g) => g.kinds.includes(kind as never)).map((g) => g.name)))].join(', ');
}

function findingKey(method: string, p: string): string {
  return `${method} ${p}`;
}

export function htmlData(res: RunResult, cwd: string) {
  const src = new SourceLines(cwd);
  const byRoute = new Map<string, Finding[]>();
  for (const f of res.findings) {
    if (!f.route) continue;
    const k = findingKey(f.route.method, f.route.path);
    const list = byRoute.get(k);
    if (list) list.push(f);
    else byRoute.set(k, [f]);
  }
  // Files and excerpts are stored once and referred to by index: 10,000 routes with several
  // findings each would otherwise repeat them tens of thousands of times.
  const files: string[] = [];
  const fileIndex = new Map<string, number>();
  const fileId = (f: string): number => fileIndex.get(f) ?? (fileIndex.set(f, files.length), files.push(f) - 1);
  const excerpts: { start: number; lines: string[] }[] = [];
  const excerptIndex = new Map<string, number>();
  const excerptId = (file: string, line: number): number => {
    const key = `${file}\0${line}`;
    const known = excerptIndex.get(key);
    if (known !== undefined) return known;
    const lines = src.lines(file);
    let id = -1;
    if (lines && line >= 1 && line <= lines.length) {
      const start = Math.max(1, line - EXCERPT_CONTEXT);
      const end = Math.min(lines.length, line + EXCERPT_CONTEXT);
      id = excerpts.push({ start, lines: lines.slice(start - 1, end).map((l) => (l.length > EXCERPT_MAX_LINE ? `${l.slice(0, EXCERPT_MAX_LINE)}…` : l)) }) - 1;
    }
    excerptIndex.set(key, id);
    return id;
  };
  const routes = res.routes.map((r) => {
    const mine = (byRoute.get(findingKey(r.method, r.path)) ?? []).filter((f) => f.file === r.file || f.file === r.handlerFn?.file);
    return {
      m: r.method,
      p: shownPath(r),
      cls: r.classification,
      fam: r.family,
      ok: presentBadges(r),
      miss: missingBadges(r, res.contract),
      unk: [...new Set(r.guards.filter((g) => g.kinds.includes('unknown')).map((g) => g.name))],
      guards: [...new Set(r.guards.map((g) => g.name))],
      f: fileId(r.file),
      line: r.line,
      h: r.handler,
      app: r.app,
      c: r.contractRoute,
      rules: [...new Set(mine.map((f) => f.ruleId))],
    };
  });
  const findings = res.findings.map((f) => ({ rule: f.ruleId, sev: f.severity, msg: f.message, f: fileId(f.file), line: f.line, col: f.column, ex: excerptId(f.file, f.line) }));
  return {
    tool: { name: 'route-surface', version: VERSION },
    contract: { name: res.contract.name, version: res.contract.version, source: res.contract.source },
    summary: res.summary,
    matrix: coverageMatrix(res),
    files,
    excerpts,
    routes,
    findings,
    rules: RULES.map((r) => ({ id: r.meta.id, severity: r.meta.defaultSeverity, description: r.meta.description })),
    tree: formatTree(res.routes, res.contract, makeChalk({ noColor: true })),
  };
}

/** JSON safe inside a <script> data block: no `<`, `>`, `&` or line separators survive raw. */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function sha256(s: string): string {
  return `'sha256-${crypto.createHash('sha256').update(s, 'utf8').digest('base64')}'`;
}

export function formatHtml(res: RunResult, cwd: string): string {
  const data = scriptJson(htmlData(res, cwd));
  const csp = `default-src 'none'; style-src ${sha256(CSS)}; script-src ${sha256(SCRIPT)}; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>route-surface report</title>
<style>${CSS}</style>
</head>
<body>
<header>
  <h1>route-surface report</h1>
  <p id="subtitle"></p>
  <nav><a href="#coverage">Contract coverage</a><a href="#routes">Routes</a><a href="#findings">Findings</a><a href="#tree">Route tree</a></nav>
</header>
<main>
<section id="summary" aria-label="Summary"></section>
<section id="coverage">
  <h2>Contract coverage</h2>
  <table id="matrix"><thead><tr><th>Contract route</th><th>Served</th><th>Method</th><th>Trailing slash</th><th>Auth</th><th>Tenant</th></tr></thead><tbody></tbody></table>
</section>
<section id="routes">
  <h2>Routes</h2>
  <div class="controls">
    <input id="q" type="search" placeholder="Filter: path, file, guard, handler…" aria-label="Filter routes">
    <select id="f-method" aria-label="Method"><option value="">All methods</option></select>
    <select id="f-class" aria-label="Classification"><option value="">All classifications</option></select>
    <select id="f-finding" aria-label="Finding"><option value="">Any findings</option><option value="+">With findings</option><option value="-">Without findings</option></select>
    <span id="count" role="status"></span>
  </div>
  <table id="route-table">
    <thead><tr>
      <th data-key="m" aria-sort="none"><button type="button">Method</button></th>
      <th data-key="p" aria-sort="ascending"><button type="button">Path</button></th>
      <th data-key="cls" aria-sort="none"><button type="button">Class</button></th>
      <th data-key="g" aria-sort="none"><button type="button">Guards</button></th>
      <th data-key="rules" aria-sort="none"><button type="button">Findings</button></th>
      <th data-key="loc" aria-sort="none"><button type="button">Location</button></th>
    </tr></thead>
    <tbody></tbody>
  </table>
  <button id="more" type="button" hidden>Show more</button>
</section>
<section id="findings">
  <h2>Findings</h2>
  <div id="finding-groups"></div>
</section>
<section id="tree">
  <h2>Route tree</h2>
  <details id="tree-details"><summary>Show the route tree</summary><pre id="tree-text"></pre></details>
</section>
</main>
<script type="application/json" id="rs-data">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--info:#0969da;--accent:#0969da}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:16px 24px 0;border-bottom:1px solid var(--line);background:var(--soft)}
h1{margin:0;font-size:20px}h2{font-size:16px;margin:24px 0 8px}
#subtitle{margin:4px 0 8px;color:var(--muted)}
nav a{display:inline-block;margin-right:16px;padding:6px 0;color:var(--accent);text-decoration:none}
main{padding:0 24px 32px}
#summary{display:flex;flex-wrap:wrap;gap:12px;margin-top:16px}
.card{border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:20px}.card span{color:var(--muted);font-size:12px}
.card.error b{color:var(--bad)}.card.warning b{color:var(--warn)}.card.info b{color:var(--info)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--soft);font-weight:600;white-space:nowrap}
th button{all:unset;cursor:pointer}th button:focus-visible{outline:2px solid var(--accent)}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
td.path,td.loc,.mono,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
td.path{min-width:200px;overflow-wrap:anywhere}td.rules{font-size:12px;color:var(--muted)}td.method{font-weight:600}
.ok{color:var(--ok)}.bad{color:var(--bad)}.na{color:var(--muted)}
.cell-note{display:block;color:var(--muted);font-size:12px}
.badge{display:inline-block;border-radius:10px;padding:0 7px;margin:1px 3px 1px 0;font-size:12px;border:1px solid var(--line)}
.badge.ok{border-color:#aceebb;background:#dafbe1}.badge.bad{border-color:#ffcecb;background:#ffebe9}.badge.unk{border-color:#f5e0a0;background:#fff8c5;color:var(--warn)}
.cls-contract{color:var(--accent)}.cls-public{color:var(--ok)}.cls-excluded{color:#8250df}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:8px}
.controls input{flex:1 1 260px;padding:5px 8px;border:1px solid var(--line);border-radius:6px}
.controls select{padding:4px;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
#count{color:var(--muted)}
#more{margin-top:8px}
details.rule{border:1px solid var(--line);border-radius:6px;margin-bottom:8px}
details.rule>summary{cursor:pointer;padding:6px 10px;background:var(--soft)}
.sev{font-weight:600}.sev.error{color:var(--bad)}.sev.warning{color:var(--warn)}.sev.info{color:var(--info)}
.finding{padding:6px 10px;border-top:1px solid var(--line)}
.finding pre{margin:4px 0 0;background:var(--soft);padding:4px 0;overflow-x:auto}
.finding pre span{display:block;padding:0 8px;white-space:pre}
.finding pre span.hit{background:#fff8c5}
.finding pre i{display:inline-block;min-width:4ch;color:var(--muted);font-style:normal;text-align:right;margin-right:12px;user-select:none}
#tree-text{background:var(--soft);padding:8px;overflow-x:auto}
`;

/*
 * The page script. Plain ES2020, no template literals (this file embeds it in one), and
 * only textContent / createElement: data from the analysed code is never parsed as HTML.
 */
const SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('rs-data').textContent);
  var PAGE = 200;
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function num(n) { return n.toLocaleString('en-US'); }
  function plural(n, w) { return num(n) + ' ' + w + (n === 1 ? '' : 's'); }

  document.title = 'route-surface report — ' + data.contract.name + '@' + data.contract.version;
  $('subtitle').textContent = data.tool.name + ' ' + data.tool.version + ' · contract ' + data.contract.name + '@' + data.contract.version + ' (' + data.contract.source + ')';

  // Summary.
  var s = data.summary;
  [['routes', s.routes, ''], ['files', s.files, ''], ['errors', s.errors, 'error'], ['warnings', s.warnings, 'warning'], ['infos', s.infos, 'info']].forEach(function (c) {
    var card = el('div', 'card ' + c[2]);
    card.appendChild(el('b', null, c[1]));
    card.appendChild(el('span', null, c[0]));
    card.setAttribute('data-stat', c[0]);
    $('summary').appendChild(card);
  });

  // Contract coverage matrix.
  var mbody = $('matrix').tBodies[0];
  data.matrix.forEach(function (m) {
    var tr = el('tr');
    var first = el('td', 'mono', m.route);
    first.appendChild(el('span', 'cell-note', m.auth + (m.tenantScoped ? ', tenant-scoped' : '') + (m.resource ? ', ' + m.resource : '')));
    tr.appendChild(first);
    [m.served, m.method, m.slash, m.authCell, m.tenant].forEach(function (c) {
      var td = el('td', c.s);
      td.setAttribute('data-state', c.s);
      td.appendChild(el('span', null, c.s === 'ok' ? '✔' : c.s === 'bad' ? '✖' : '–'));
      td.appendChild(el('span', 'cell-note', c.t));
      tr.appendChild(td);
    });
    mbody.appendChild(tr);
  });

  // Route table.
  var rows = data.routes.map(function (r, i) {
    return {
      r: r,
      i: i,
      hay: [r.m, r.p, r.cls, r.fam || '', data.files[r.f] + ':' + r.line, r.h || '', r.app, r.c || '', r.guards.join(' '), r.ok.join(' '), r.miss.map(function (b) { return '!' + b; }).join(' '), r.rules.join(' ')].join(' ').toLowerCase(),
      key: { m: r.m, p: r.p, cls: r.cls + (r.fam ? ':' + r.fam : ''), g: r.ok.join(' ') + ' ' + r.miss.map(function (b) { return '!' + b; }).join(' '), rules: r.rules.length, loc: data.files[r.f], line: r.line }
    };
  });
  function options(select, values) {
    values.forEach(function (v) { var o = el('option', null, v); o.value = v; select.appendChild(o); });
  }
  function uniq(list) { return Array.from(new Set(list)).sort(); }
  options($('f-method'), uniq(data.routes.map(function (r) { return r.m; })));
  options($('f-class'), uniq(data.routes.map(function (r) { return r.cls; })));
  options($('f-finding'), uniq([].concat.apply([], data.routes.map(function (r) { return r.rules; }))));

  var sortKey = 'p', sortDir = 1, cap = PAGE, sorted = rows.slice(), shown = [];
  function cmp(a, b) {
    var x = a.key[sortKey], y = b.key[sortKey];
    var d = typeof x === 'number' ? x - y : x < y ? -1 : x > y ? 1 : 0;
    if (d === 0 && sortKey === 'loc') d = a.key.line - b.key.line;
    return d * sortDir || a.i - b.i;
  }
  function resort() { sorted = rows.slice().sort(cmp); }
  function filter() {
    var q = $('q').value.trim().toLowerCase().split(/\\s+/).filter(Boolean);
    var m = $('f-method').value, c = $('f-class').value, f = $('f-finding').value;
    shown = sorted.filter(function (row) {
      var r = row.r;
      if (m && r.m !== m) return false;
      if (c && r.cls !== c) return false;
      if (f === '+' && r.rules.length === 0) return false;
      if (f === '-' && r.rules.length > 0) return false;
      if (f && f !== '+' && f !== '-' && r.rules.indexOf(f) < 0) return false;
      for (var k = 0; k < q.length; k++) if (row.hay.indexOf(q[k]) < 0) return false;
      return true;
    });
  }
  function badge(text, cls) { return el('span', 'badge ' + cls, text); }
  function renderRow(row) {
    var r = row.r, tr = el('tr');
    tr.appendChild(el('td', 'method', r.m));
    tr.appendChild(el('td', 'path', r.p));
    tr.appendChild(el('td', 'cls-' + r.cls, r.cls + (r.fam ? ':' + r.fam : '')));
    var g = el('td', 'guards');
    r.ok.forEach(function (b) { g.appendChild(badge(b, 'ok')); });
    r.miss.forEach(function (b) { g.appendChild(badge('!' + b, 'bad')); });
    r.unk.forEach(function (b) { var x = badge('?' + b, 'unk'); x.title = 'unclassified middleware'; g.appendChild(x); });
    tr.appendChild(g);
    tr.appendChild(el('td', 'rules', r.rules.join(', ')));
    tr.appendChild(el('td', 'loc', data.files[r.f] + ':' + r.line));
    return tr;
  }
  function render() {
    var frag = document.createDocumentFragment();
    var n = Math.min(cap, shown.length);
    for (var k = 0; k < n; k++) frag.appendChild(renderRow(shown[k]));
    $('route-table').tBodies[0].replaceChildren(frag);
    $('count').textContent = 'Showing ' + num(n) + ' of ' + plural(shown.length, 'matching route') + (shown.length !== rows.length ? ' (' + num(rows.length) + ' in all)' : '');
    $('more').hidden = shown.length <= n;
    $('more').textContent = 'Show ' + Math.min(PAGE, shown.length - n) + ' more';
  }
  function update() { cap = PAGE; filter(); render(); }
  var pending = 0;
  $('q').addEventListener('input', function () {
    if (pending) cancelAnimationFrame(pending);
    pending = requestAnimationFrame(function () { pending = 0; update(); });
  });
  ['f-method', 'f-class', 'f-finding'].forEach(function (id) { $(id).addEventListener('change', update); });
  $('more').addEventListener('click', function () { cap += PAGE; render(); });
  Array.prototype.forEach.call(document.querySelectorAll('#route-table th'), function (th) {
    th.querySelector('button').addEventListener('click', function () {
      var key = th.getAttribute('data-key');
      sortDir = key === sortKey ? -sortDir : 1;
      sortKey = key;
      Array.prototype.forEach.call(document.querySelectorAll('#route-table th'), function (o) { o.setAttribute('aria-sort', 'none'); });
      th.setAttribute('aria-sort', sortDir === 1 ? 'ascending' : 'descending');
      resort();
      update();
    });
  });
  resort();
  update();

  // Findings grouped by rule, rendered when a group is opened.
  var groups = {};
  data.findings.forEach(function (f) { (groups[f.rule] = groups[f.rule] || []).push(f); });
  function renderFinding(f) {
    var d = el('div', 'finding');
    var head = el('div');
    head.appendChild(el('span', 'mono', data.files[f.f] + ':' + f.line + ':' + f.col));
    head.appendChild(document.createTextNode('  '));
    head.appendChild(el('span', 'sev ' + f.sev, f.sev));
    head.appendChild(document.createTextNode('  ' + f.msg));
    d.appendChild(head);
    var ex = f.ex >= 0 ? data.excerpts[f.ex] : null;
    if (ex) {
      var pre = el('pre');
      ex.lines.forEach(function (line, k) {
        var n = ex.start + k, span = el('span', n === f.line ? 'hit' : null);
        span.appendChild(el('i', null, n));
        span.appendChild(document.createTextNode(line));
        pre.appendChild(span);
      });
      d.appendChild(pre);
    }
    return d;
  }
  data.rules.forEach(function (rule) {
    var list = groups[rule.id];
    if (!list) return;
    var det = el('details', 'rule');
    det.setAttribute('data-rule', rule.id);
    var sum = el('summary');
    sum.appendChild(el('span', 'mono', rule.id));
    sum.appendChild(document.createTextNode(' · '));
    sum.appendChild(el('span', 'sev ' + list[0].sev, list[0].sev));
    sum.appendChild(document.createTextNode(' · ' + plural(list.length, 'finding') + ' — ' + rule.description));
    det.appendChild(sum);
    var body = el('div'), more = el('button', null, 'Show more'), done = 0;
    more.type = 'button';
    more.hidden = true;
    function page() {
      var frag = document.createDocumentFragment(), end = Math.min(list.length, done + PAGE);
      for (; done < end; done++) frag.appendChild(renderFinding(list[done]));
      body.appendChild(frag);
      more.hidden = done >= list.length;
    }
    more.addEventListener('click', page);
    det.addEventListener('toggle', function () { if (det.open && done === 0) page(); });
    det.appendChild(body);
    det.appendChild(more);
    $('finding-groups').appendChild(det);
  });
  if (data.findings.length === 0) $('finding-groups').appendChild(el('p', 'ok', 'No findings.'));

  // Route tree, filled when opened.
  $('tree-details').addEventListener('toggle', function () {
    if (this.open && !$('tree-text').textContent) $('tree-text').textContent = data.tree;
  });
})();
`;
