import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../src/adapters/index.js';
import { loadTypeScript } from '../src/extract/compiler.js';
import { extractFacts, parseOptions, scriptKindOf } from '../src/extract/extract.js';
import { factsToText } from '../src/extract/facts-text.js';
import { faithfulTwin, latin1Twin, MAX_CHILDREN_LOOKED_AT } from '../src/extract/one-byte.js';
import { condLabel } from '../src/link/conditions.js';

const ts = loadTypeScript();

/** Whether V8 holds `s` in two bytes a character (its serialisation's string tag, after padding). */
function twoByte(s: string): boolean {
  const b = v8.serialize(s);
  let i = 2;
  while (b[i] === 0) i++;
  return b[i] === 0x63;
}

/** The twin as latin1Twin makes it, but without its guess: every character beyond Latin-1 marked. */
function forcedTwin(text: string): { text: string; mark: string } {
  return { text: Buffer.from(text.replace(/[^\x00-\xff]/g, '\x01'), 'latin1').toString('latin1'), mark: '\x01' };
}

function faithful(file: string, text: string): boolean {
  const twin = forcedTwin(text);
  return faithfulTwin(ts, ts.createSourceFile(file, twin.text, parseOptions(ts), false, scriptKindOf(ts, file)), twin.mark);
}

describe('latin1Twin', () => {
  it('keeps every offset, marks each character beyond Latin-1 (each UTF-16 unit of one beyond the BMP), and is one-byte', () => {
    const text = "// sites — the dashboard's list 🚀\nrouter.get('/sites', list); /* café ≤ 10 */\n";
    const twin = latin1Twin(text)!;
    expect(twin.text).toHaveLength(text.length);
    expect(text.includes(twin.mark)).toBe(false);
    const marked = [...twin.text].flatMap((c, i) => (c === twin.mark ? [i] : []));
    expect(marked).toEqual([...Array(text.length).keys()].filter((i) => text.charCodeAt(i) > 0xff));
    expect(marked).toHaveLength(4);
    expect(twin.text.replace(new RegExp(twin.mark, 'g'), '')).toBe(text.replace(/[^\x00-\xff]/g, ''));
    expect(twoByte(text)).toBe(true);
    expect(twoByte(twin.text)).toBe(false);
  });

  it('picks a mark the file does not hold', () => {
    const twin = latin1Twin('// \x01 and \x02 — here\nexport {};\n')!;
    expect(twin.mark).toBe('\x03');
  });

  it.each([
    ['a text all Latin-1', "// café, naïve\nrouter.get('/é', h);\n"],
    ['a line separator (a line break to the compiler)', '// a\u2028b —\nexport {};\n'],
    ['an ideographic space (white space to the compiler)', 'const a =\u30001; // —\n'],
    ['a character beyond Latin-1 in a string', "router.get('/sites', h); const title = 'Sites — all';\n"],
    ['one in a name', 'const größe = 1; const δ = 2;\n'],
  ])('is not made for %s', (_, text) => {
    expect(latin1Twin(text)).toBeNull();
  });

  it('is made for a comment line of a block comment, and for a trailing comment', () => {
    expect(latin1Twin('/**\n * Sites — the list\n */\nrouter.get(\'/\', h); // — note\n')).not.toBeNull();
  });
});

describe('faithfulTwin', () => {
  it.each([
    ['a line comment', "// — sites\nrouter.get('/sites', list);\n"],
    ['a block comment between arguments', "router.get('/sites', /* — */ list);\n"],
    ['a comment before an operator', 'const a = b /* — */ + c;\n'],
    ['a comment inside a template expression', 'const p = `/v1/${base /* — */}/sites`;\n'],
    ['a comment at the end of the file', 'export {};\n// — the end'],
    ['a comment in a class body', 'class A {\n  // — a field\n  x = 1;\n}\n'],
  ])('accepts marks in %s', (_, text) => {
    expect(faithful('a.ts', text)).toBe(true);
  });

  it.each([
    ['a string', "const s = 'Sites — all';\n"],
    ['a string holding //', "const s = 'https://example.com — home';\n"],
    ['a template', 'const s = `Sites — ${n}`;\n'],
    ['the text of a template after an expression', 'const s = `${n}// — sites`;\n'],
    ['a regular expression', 'const re = /[—–]/;\n'],
    ['a name', 'const δ = 1;\n'],
    ['JSX text that reads like a comment', 'const v = <p>// — not a comment</p>;\n'],
    ['a comment in JSX (not trusted: read as JSX text from its own start)', 'const v = <p>{/* — */}</p>;\n'],
    ['a file with a syntax error', "router.get('/sites', // —\n"],
  ])('refuses marks in %s', (_, text) => {
    expect(faithful(/JSX|<p>/.test(text) ? 'a.tsx' : 'a.ts', text)).toBe(false);
  });

  it(`gives up past ${MAX_CHILDREN_LOOKED_AT} children looked at (each comment is looked for from the top of the tree)`, () => {
    const lines = (n: number): string => Array.from({ length: n }, (_, i) => `export const limit${i} = ${i}; // — the ${i}th limit\n`).join('');
    // about n² / 2 children for n comments after n statements
    expect(faithful('a.ts', lines(300))).toBe(true);
    expect(faithful('a.ts', lines(600))).toBe(false);
  });
});

describe('extraction of a twinned file', () => {
  const FILE = 'src/routes/sites.ts';
  const TEXT = `import { Router } from 'express';
import { requireSession } from '../auth/session';

/**
 * Sites — the dashboard's list of a tenant's sites.
 */
export const sites = Router();

sites.get('/sites', requireSession, (req, res) => res.json([])); // list — paginated later
if (process.env.SITES_PREVIEW_ENABLED_FOR_EVERY_TENANT_THAT_ASKED_FOR_IT_IN_THE_BETA /* — beta */ === 'yes') {
  sites.get('/preview', (req, res) => res.json({ preview: true }));
}
`;

  it('keeps text as written where it covers a comment, and its facts one-byte elsewhere', () => {
    expect(latin1Twin(TEXT)).not.toBeNull();
    const facts = extractFacts(ts, FILE, TEXT, ADAPTERS);
    expect(facts.parseError).toBeNull();
    const [list, preview] = facts.registrations;
    expect(list!.snippet).toBe("sites.get('/sites', requireSession, (req, res) => res.json([])); // list — paginated later");
    expect(list!.at).toEqual({ line: 9, column: 1 });
    expect(preview!.at).toEqual({ line: 11, column: 3 });
    expect(twoByte(preview!.snippet)).toBe(false);
    // a condition longer than 80 characters: kept to 81, shown cut to 80 with an ellipsis
    const cond = preview!.when![0]!;
    expect(cond.text).toBe('process.env.SITES_PREVIEW_ENABLED_FOR_EVERY_TENANT_THAT_ASKED_FOR_IT_IN_THE_BETA ');
    expect(cond.text).toHaveLength(81);
    expect(condLabel(cond)).toBe('process.env.SITES_PREVIEW_ENABLED_FOR_EVERY_TENANT_THAT_ASKED_FOR_IT_IN_THE_BET…');
  });

  it('keeps the whole facts text one-byte when no kept text covers a comment beyond Latin-1', () => {
    const text = TEXT.replace(' // list — paginated later', '').replace(' /* — beta */', '');
    expect(twoByte(text)).toBe(true);
    expect(twoByte(factsToText(extractFacts(ts, FILE, text, ADAPTERS)))).toBe(false);
  });

  it('reads a file whose characters beyond Latin-1 are not all in comments as written', () => {
    const facts = extractFacts(ts, FILE, "import { Router } from 'express';\nexport const r = Router(); // —\nr.get('/sites/ünïcode—', (req, res) => res.end());\n", ADAPTERS);
    expect(facts.registrations[0]!.args[0]).toEqual({ k: 'str', v: '/sites/ünïcode—' });
  });

  it('takes a suppression whose reason is a marked comment from the text as written', () => {
    const facts = extractFacts(ts, FILE, "import { Router } from 'express';\nexport const r = Router();\n// route-surface-disable-next-line missing-auth-guard -- public — by design (SEC-9)\nr.get('/status', (req, res) => res.end());\n", ADAPTERS);
    expect(facts.suppressions).toEqual([{ line: 3, rules: ['missing-auth-guard'], reason: 'public — by design (SEC-9)', at: { line: 3, column: 1 } }]);
  });
});

describe('condLabel', () => {
  it.each([
    ['a'.repeat(80), 'a'.repeat(80)],
    ['a'.repeat(81), `${'a'.repeat(79)}…`],
  ])('shows a condition of %# as written up to 80 characters', (text, label) => {
    expect(condLabel({ test: { k: 'truthy', e: { k: 'unknown', text } }, holds: true, pos: 0, text })).toBe(label);
  });

  it('negates a cut condition as written', () => {
    const text = `!${'a'.repeat(80)}`;
    expect(condLabel({ test: { k: 'truthy', e: { k: 'unknown', text } }, holds: false, pos: 0, text })).toBe(`!(!${'a'.repeat(78)}…)`);
  });
});
