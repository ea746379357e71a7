/**
 * The values a route-loading loop computes from file names (src/link/listing.ts), as
 * JavaScript computes them: each row is the call and what it answers, or null where the
 * evaluator must say "not known statically".
 */
import { describe, expect, it } from 'vitest';
import type { Value } from '../src/link/evaluate.js';
import { DirectoryListing, pathFunction, stringMethod } from '../src/link/listing.js';

const str = (v: string): Value => ({ t: 'str', v });
const num = (v: number): Value => ({ t: 'num', v });
const re = (source: string, flags = ''): Value => ({ t: 're', source, flags });

describe('string methods of a name known statically', () => {
  const rows: [string, Value, string, Value[], Value | null][] = [
    ['replace a string', str('users.js'), 'replace', [str('.js'), str('')], str('users')],
    ['replace a RegExp', str('users.route.js'), 'replace', [re('\\.route\\.js$'), str('')], str('users')],
    ['replaceAll', str('a-b-c.js'), 'replaceAll', [str('-'), str('/')], str('a/b/c.js')],
    ['replaceAll of a RegExp without g throws in JavaScript', str('a-b'), 'replaceAll', [re('-'), str('/')], null],
    ['endsWith', str('users.js'), 'endsWith', [str('.js')], { t: 'bool', v: true }],
    ['startsWith', str('users.js'), 'startsWith', [str('index')], { t: 'bool', v: false }],
    ['includes', str('users.test.js'), 'includes', [str('.test.')], { t: 'bool', v: true }],
    ['indexOf', str('.eslintrc.js'), 'indexOf', [str('.')], num(0)],
    ['lastIndexOf', str('a.b.js'), 'lastIndexOf', [str('.')], num(3)],
    ['search', str('index.js'), 'search', [re('index')], num(0)],
    ['slice with a negative end', str('users.js'), 'slice', [num(0), num(-3)], str('users')],
    ['slice from the end', str('users.js'), 'slice', [num(-3)], str('.js')],
    ['substring', str('users.js'), 'substring', [num(0), str('x')], null],
    ['substr', str('users.js'), 'substr', [num(0), num(5)], str('users')],
    ['split', str('users.route.js'), 'split', [str('.')], { t: 'arr', items: [str('users'), str('route'), str('js')] }],
    ['toLowerCase', str('Users.js'), 'toLowerCase', [], str('users.js')],
    ['trim with an argument is no call JavaScript knows', str(' a '), 'trim', [str('x')], null],
    ['an argument not known statically', str('users.js'), 'endsWith', [{ t: 'unknown', why: 'a parameter' }], null],
    ['a method it does not work out', str('users.js'), 'padStart', [num(10)], null],
    ["a RegExp's test", re('\\.js$'), 'test', [str('users.js')], { t: 'bool', v: true }],
    // (a RegExp of the code is run on short strings only: `/(a+)+b/` on 300 characters would not end)
    ['a RegExp on a long string', str('a'.repeat(300)), 'replace', [re('(a+)+b'), str('')], null],
    ["a RegExp's test of a long string", re('(a+)+b'), 'test', [str('a'.repeat(300))], null],
    ['a string pattern on a long string', str('a'.repeat(300)), 'replace', [str('a'), str('b')], str('b' + 'a'.repeat(299))],
    ['a value that is no string', num(3), 'toString', [], null],
  ];
  for (const [name, obj, m, args, expected] of rows) it(name, () => expect(stringMethod(obj, m, args)).toEqual(expected));
});

describe('path functions', () => {
  it('takes a name apart as node:path does', () => {
    expect(pathFunction('path', ['basename'], [str('src/routes/users.js'), str('.js')])).toEqual(str('users'));
    expect(pathFunction('node:path', ['basename'], [str('src/routes/users.js')])).toEqual(str('users.js'));
    expect(pathFunction('path', ['extname'], [str('users.route.ts')])).toEqual(str('.ts'));
    expect(pathFunction('path', ['join'], [str('..'), str('routes/'), str('users')])).toEqual(str('../routes/users'));
  });

  it('answers null for another module or another function', () => {
    expect(pathFunction('upath', ['basename'], [str('users.js')])).toBeNull();
    expect(pathFunction('path', ['resolve'], [str('a'), str('b')])).toBeNull();
  });

  it('answers a value not known statically for an argument not known statically', () => {
    expect(pathFunction('path', ['basename'], [{ t: 'unknown', why: 'a parameter' }])).toEqual({ t: 'unknown', why: 'path.basename() of a value not known statically' });
    expect(pathFunction('path', ['extname'], [str('a.js'), str('.js')])).toEqual({ t: 'unknown', why: 'path.extname() of a value not known statically' });
  });
});

describe('directory listings', () => {
  const listing = new DirectoryListing(['src/app.ts', 'src/routes/users.ts', 'src/routes/admin/index.ts', 'src/routes/billing.ts', 'README.md']);

  it('lists the files and the directories holding files, by name', () => {
    expect(listing.entries('src/routes')).toEqual(['admin', 'billing.ts', 'users.ts']);
    expect(listing.entries('src/routes/')).toEqual(['admin', 'billing.ts', 'users.ts']);
    expect(listing.entries('./src/routes/../routes')).toEqual(['admin', 'billing.ts', 'users.ts']);
    expect(listing.entries('.')).toEqual(['README.md', 'src']);
  });

  it('knows no directory without an analysed file', () => {
    expect(listing.entries('src/views')).toBeNull();
    expect(listing.entries('src/routes/users.ts')).toBeNull();
  });
});
