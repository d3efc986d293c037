/**
 * Units of the MCP server and run_sql, on real files and a real DuckDB: masking of personal data
 * (src/mcp/mask.ts) against what dataset printouts really contain, the dataset roots
 * (src/mcp/roots.ts) against escapes by `../`, absolute paths and symlinks, result shaping
 * (src/mcp/results.ts), the Prometheus metrics (src/mcp/metrics.ts), and the read-only
 * `select` of the DuckDB engine with the run_sql tool over it (src/engine/duckdb.ts,
 * src/agent/tools/run-sql.ts).
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { executeTool } from '../src/agent/tools/call-tool.js';
import { runSqlTool, sqlResultText } from '../src/agent/tools/run-sql.js';
import type { ToolContext } from '../src/agent/tools/tool.js';
import { DuckDbEngine } from '../src/engine/duckdb-engine.js';
import type { AnalysisEngine } from '../src/engine/engine.js';
import { maskNote, maskText } from '../src/mcp/mask.js';
import type { MaskCounts } from '../src/mcp/mask.js';
import { Metrics } from '../src/mcp/metrics.js';
import { capText, shapeText, textResult } from '../src/mcp/results.js';
import { DatasetError, DatasetRoots } from '../src/mcp/roots.js';
import { ExitCode, OpsmindError } from '../src/shared/exit-codes.js';
import { tempDir } from './helpers/fixtures.js';

const dirs: string[] = [];
function dir(prefix: string): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function zero(): MaskCounts {
  return { email: 0, phone: 0, card: 0 };
}

/** `text` masked, with the counts of this call. */
function masked(text: string): { out: string; counts: MaskCounts } {
  const counts = zero();
  return { out: maskText(text, counts), counts };
}

/** Asserts `text` comes back unchanged and nothing was counted. */
function assertKept(text: string): void {
  const { out, counts } = masked(text);
  assert.equal(out, text, `${JSON.stringify(text)} was changed to ${JSON.stringify(out)}`);
  assert.deepEqual(counts, zero(), `${JSON.stringify(text)} was counted`);
}

// ---------------------------------------------------------------- mask.ts

void test('maskText: e-mail addresses keep their first character and their domain', () => {
  const cases: [string, string][] = [
    ['a.b@example.com', 'a***@example.com'],
    ['first.last+tag@sub.example.co.uk', 'f***@sub.example.co.uk'],
    ['<Foo.Bar@Example.COM>', '<F***@Example.COM>'],
    ['contact: jane_doe99@mail-host.org.', 'contact: j***@mail-host.org.'],
  ];
  for (const [input, expected] of cases) {
    const { out, counts } = masked(input);
    assert.equal(out, expected, input);
    assert.deepEqual(counts, { email: 1, phone: 0, card: 0 }, input);
  }
  const { out, counts } = masked('a@b.co,c@d.org');
  assert.equal(out, 'a***@b.co,c***@d.org');
  assert.equal(counts.email, 2);
  // Package specifiers and local names are not addresses.
  assertKept('react@19.0.0');
  assertKept('user@localhost');
});

void test('maskText: phone numbers written like phones are masked to their last two digits', () => {
  const phones: [string, string][] = [
    ['+1 415-555-0100', '00'],
    ['(415) 555-0100', '00'],
    ['415-555-0100', '00'],
    ['415.555.0100', '00'],
    ['+49 30 1234567', '67'],
    ['030 1234567', '67'],
    ['0171/1234567', '67'],
    ['+44 20 7946 0958', '58'],
    ['+1 415 555 0100', '00'],
    ['+49 (0) 30 1234567', '67'],
    ['(030) 1234567', '67'],
  ];
  for (const [phone, last] of phones) {
    const { out, counts } = masked(`call ${phone} today`);
    assert.equal(out, `call [phone ***${last}] today`, phone);
    assert.deepEqual(counts, { email: 0, phone: 1, card: 0 }, phone);
    assert.ok(!out.includes(phone), phone);
  }
  // In a CSV row and a JSON document too.
  assert.equal(maskText('Jane,415-555-0100,CA'), 'Jane,[phone ***00],CA');
  assert.equal(maskText('{"phone":"+1 415-555-0100"}'), '{"phone":"[phone ***00]"}');
});

void test('maskText: Luhn-valid card numbers become [card ****last4], invalid ones stay', () => {
  const cards: [string, string][] = [
    ['4111 1111 1111 1111', '[card ****1111]'],
    ['4111111111111111', '[card ****1111]'],
    ['5500-0000-0000-0004', '[card ****0004]'],
    ['4111-1111-1111-1111', '[card ****1111]'],
    ['378282246310005', '[card ****0005]'], // Amex, 15 digits
    ['6011111111111117', '[card ****1117]'], // Discover
    ['30569309025904', '[card ****5904]'], // Diners, 14 digits
  ];
  for (const [card, expected] of cards) {
    const { out, counts } = masked(`paid with ${card} on file`);
    assert.equal(out, `paid with ${expected} on file`, card);
    assert.deepEqual(counts, { email: 0, phone: 0, card: 1 }, card);
  }
  // Tab-separated (a frame printed with \t) and quoted.
  assert.equal(maskText('4111111111111111\t5500000000000004'), '[card ****1111]\t[card ****0004]');
  assert.equal(maskText('"4111 1111 1111 1111"'), '"[card ****1111]"');
  // Luhn-invalid 16 digits, and repeated digits (Luhn-valid but not a card).
  assertKept('4111111111111112');
  assertKept('1234 5678 9012 3456');
  assertKept('0000 0000 0000 0000');
});

void test('maskText: dates, decimals, integers and printed numbers are left alone', () => {
  const kept = [
    '2024-01-15',
    '2024-01-15T10:30:00',
    '2024-01-15 10:30:00',
    '2024-01-15T10:30:00.123456',
    '2024-01-15T10:30:00Z',
    '2024-01-15 10:30:00+02:00',
    '1999-12-31 23:59:59.999',
    '2024-01-15 10:30:00.123456789',
    '12.03.2024',
    '2024/01/15',
    '01/15/2024',
    '15-01-2024',
    '20240115',
    '20240115103000',
    '3.14159265358979',
    '-0.123456789012',
    '0.0001234567',
    '12,345,678.90',
    '1,234,567,890',
    '1 234 567,89',
    '1299.99',
    '1234567.891',
    '1234567890',
    '-1234567890',
    '123456789012',
    '1705312200', // epoch seconds
    '10 20 30 40 50',
    '[10 20 30 40 50 60 70]',
    '  42  1999-12-31  17.5',
    '1 2 3 4 5 6 7 8 9 10 11 12 13',
    '+12.5%',
    '+12.5% +3.25% -0.75%',
    '1.234568e+09',
    '+3.5e-07',
    '1.0e+15',
  ];
  for (const text of kept) assertKept(text);
});

void test('maskText: a pandas printout of numeric columns comes back unchanged', () => {
  const frame = [
    '         date  store_id    units       revenue    margin   growth',
    '0  2024-01-15     10234   1234.0  1.234568e+06  0.312500   +12.5%',
    '1  2024-01-16     10235     17.0  9.876543e+05  0.287654    -3.2%',
    '2  2024-01-17     10236  98765.0  3.141593e+00  0.000012    +0.0%',
    '3  2024-01-18     20001      0.0  1.299990e+03  1.000000  +100.0%',
    '4  2024-01-19     99999     42.5  1.234568e+10 -0.500000   -50.0%',
    '',
    '[5 rows x 6 columns]',
  ].join('\n');
  assertKept(frame);
  const describe = [
    '            units        revenue      margin',
    'count  400.000000     400.000000  400.000000',
    'mean    12.000000  123456.789012    0.312345',
    'std      6.633250   98765.432100    0.101010',
    'min      1.000000       5.000000    0.000000',
    '25%      6.000000      60.000000    0.250000',
    '50%     12.000000     144.000000    0.312500',
    '75%     18.000000     276.000000    0.375000',
    'max     23.000000  1234567.890000    0.999999',
  ].join('\n');
  assertKept(describe);
  const series = [
    'region',
    'Central    1234567.89',
    'East        987654.32',
    'North      1111111.11',
    'Name: revenue, dtype: float64',
  ].join('\n');
  assertKept(series);
  const wide = '0    1234567\n1    2345678\n2    3456789\nName: id, dtype: int64';
  assertKept(wide);
});

void test('maskText: identifiers, codes, addresses and versions in dataset printouts stay', () => {
  const kept = [
    '192.168.1.10',
    '10.0.0.1',
    '10.0.0.100:8080',
    '2001:db8::1',
    '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
    '00:1A:2B:3C:4D:5E',
    'v1.2.3',
    'Version 10.15.7',
    '1.2.3.4567',
    'build 2024.01.15.1234',
    'zip 94105',
    '94105-1234', // ZIP+4 (not starting with 0)
    'order_id 100234567',
    'uuid 550e8400-e29b-41d4-a716-446655440000',
    'ISBN 978-3-16-148410-0',
    '978-0-306-40615-7',
    '123-45-6789', // SSN shape: not a phone, and not masked as one
    '2024-W03-1',
    '+2024-01-15',
    '+00:00',
    '10:30:00',
    '0 2024-01-15',
    '2024-01-15  1234567',
    '-4111111111111111', // a negative number, not a card
    '0.4111111111111111',
    '4111111111111111.0',
    '1e+10',
    '1.5 -2.3 0.1',
    '(1234567)',
  ];
  for (const text of kept) assertKept(text);
});

void test('maskText: counts add up over one text and accumulate across calls', () => {
  // As run_sql prints rows (a card after a comma is another case, below).
  const text = [
    'columns: name (VARCHAR) | email (VARCHAR) | phone (VARCHAR) | card (VARCHAR)',
    'Ann | ann@example.com | 415-555-0100 | 4111 1111 1111 1111',
    'Bob | bob@example.org | +44 20 7946 0958 | NULL',
    'Cy | cy@example.net | (415) 555-0100 | NULL',
    'total | 3 | 2024-01-15 | 1299.99',
  ].join('\n');
  const counts = zero();
  const out = maskText(text, counts);
  assert.deepEqual(counts, { email: 3, phone: 3, card: 1 });
  assert.ok(!/ann@|bob@|cy@|555-0100|7946|4111 1111/.test(out), out);
  assert.ok(out.includes('total | 3 | 2024-01-15 | 1299.99'));
  assert.ok(out.includes('\nAnn | a***@example.com | [phone ***00] | [card ****1111]\n'), out);
  maskText('x@example.com', counts);
  assert.deepEqual(counts, { email: 4, phone: 3, card: 1 });
  // Without counts it still masks.
  assert.equal(maskText('x@example.com'), 'x***@example.com');
});

void test('maskNote: null when nothing was masked, singular and plural otherwise', () => {
  assert.equal(maskNote(zero()), null);
  const one = maskNote({ email: 1, phone: 1, card: 1 });
  assert.ok(one?.includes('1 e-mail address, 1 phone number, 1 card number'), one ?? '');
  const many = maskNote({ email: 2, phone: 0, card: 3 });
  assert.ok(many?.startsWith('[masked: 2 e-mail addresses, 3 card numbers'), many ?? '');
  assert.ok(!many?.includes('phone'));
  assert.ok(many?.endsWith(']'));
});

void test('maskText: a ZIP+4 code starting with 0 is not a phone number', () => {
  assertKept('02134-1234'); // Boston
  assertKept('07030-4567'); // Hoboken
});

void test('maskText: a signed decimal (coordinate, change) is not a phone number', () => {
  assertKept('+0.123456789');
  assertKept('+1234.56789');
  assertKept('lat +37.7749295 lon -122.4194155');
});

void test('maskText: a numpy array of 0/1 values is not a card number', () => {
  assertKept('[0 1 0 0 1 1 0 1 0 0 1 0 1 0 0 1]');
  assertKept('[1 1 0 1 1 0 0 0 0 0 0 1 0 1 1 0]');
});

void test('maskText: an epoch-milliseconds timestamp is not a card number', () => {
  assertKept('1705312200002');
  assertKept('ts  1705312200002');
});

void test('maskText: a card number followed by a comma or a full stop is masked', () => {
  assert.equal(maskText('4111111111111111,Jane'), '[card ****1111],Jane');
  assert.equal(maskText('id,4111111111111111,x'), 'id,[card ****1111],x');
  assert.equal(maskText('Ann,4111 1111 1111 1111'), 'Ann,[card ****1111]');
  assert.equal(
    maskText('[4111111111111111, 5500000000000004]'),
    '[[card ****1111], [card ****0004]]',
  );
  assert.equal(maskText('Paid with 4111111111111111.'), 'Paid with [card ****1111].');
});

void test('maskText: phone numbers in common national forms and with an extension are masked', () => {
  assert.equal(maskText('020 7946 0958'), '[phone ***58]'); // UK national form of +44 20 7946 0958
  assert.equal(maskText('030 123 4567'), '[phone ***67]');
  assert.ok(!maskText('+1-800-555-0199x123').includes('555-0199'));
});

// ---------------------------------------------------------------- roots.ts

/** A root with data files, subfolders, junk and symlinks in and out, next to a folder outside. */
function rootsFixture(): { base: string; root: string; outside: string; sibling: string } {
  const base = realpathSync(dir('opsmind-roots-'));
  const root = join(base, 'data');
  const outside = join(base, 'outside');
  const sibling = join(base, 'data-secret'); // shares the root's name as a prefix
  for (const d of [root, outside, sibling]) mkdirSync(d);
  writeFileSync(join(outside, 'secret.csv'), 'a,b\n1,2\n');
  writeFileSync(join(sibling, 's.csv'), 'a,b\n1,2\n');
  writeFileSync(join(root, 'sales.csv'), 'region,units\nNorth,3\n');
  writeFileSync(join(root, 'data.JSON'), '[{"a":1}]');
  writeFileSync(join(root, 'notes.md'), '# not data\n');
  writeFileSync(join(root, 'empty.csv'), '');
  writeFileSync(join(root, '.hidden.csv'), 'a\n1\n');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'sub', 'inner.tsv'), 'a\tb\n1\t2\n');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'in-git.csv'), 'a\n1\n');
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'node_modules', 'pkg.csv'), 'a\n1\n');
  mkdirSync(join(root, 'a', 'b', 'c', 'd', 'e'), { recursive: true });
  writeFileSync(join(root, 'a', 'b', 'c', 'd', 'deep.csv'), 'a\n1\n');
  writeFileSync(join(root, 'a', 'b', 'c', 'd', 'e', 'too-deep.csv'), 'a\n1\n');
  mkdirSync(join(root, 'folder.csv')); // a directory named like data
  symlinkSync(join(root, 'sales.csv'), join(root, 'link-in.csv'));
  symlinkSync(join(outside, 'secret.csv'), join(root, 'link-out.csv'));
  symlinkSync(outside, join(root, 'linkdir'));
  symlinkSync(join(root, 'gone.csv'), join(root, 'broken.csv'));
  return { base, root, outside, sibling };
}

/** Asserts `fn` throws a DatasetError whose message matches `pattern`. */
function assertDatasetError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof DatasetError, `not a DatasetError: ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  });
}

void test('DatasetRoots.resolve: names and absolute paths inside a root resolve to real paths', () => {
  const { root } = rootsFixture();
  const roots = new DatasetRoots([root]);
  assert.deepEqual(roots.roots, [root]);
  const sales = join(root, 'sales.csv');
  assert.equal(roots.resolve('sales.csv'), sales);
  assert.equal(roots.resolve(sales), sales);
  assert.equal(roots.resolve('./sub/../sales.csv'), sales);
  assert.equal(roots.resolve('sub/inner.tsv'), join(root, 'sub', 'inner.tsv'));
  assert.equal(roots.resolve(join(root, 'sub', 'inner.tsv')), join(root, 'sub', 'inner.tsv'));
  // A symlink inside the root to a file inside it resolves to its target.
  assert.equal(roots.resolve('link-in.csv'), sales);
  assert.equal(roots.nameOf(sales), 'sales.csv');
  assert.equal(roots.nameOf(join(root, 'sub', 'inner.tsv')), 'sub/inner.tsv');
});

void test('DatasetRoots.resolve: escapes by ../, absolute paths and symlinks are refused', () => {
  const { root, outside, sibling } = rootsFixture();
  const roots = new DatasetRoots([root]);
  const out = /outside the allowed roots/;
  assertDatasetError(() => roots.resolve('../outside/secret.csv'), out);
  assertDatasetError(() => roots.resolve('sub/../../outside/secret.csv'), out);
  assertDatasetError(() => roots.resolve(join(outside, 'secret.csv')), out);
  assertDatasetError(() => roots.resolve('/etc/passwd'), out);
  assertDatasetError(() => roots.resolve(`${root}/../outside/secret.csv`), out);
  // A sibling folder whose name starts with the root's is outside too.
  assertDatasetError(() => roots.resolve('../data-secret/s.csv'), out);
  assertDatasetError(() => roots.resolve(join(sibling, 's.csv')), out);
  // Symlinks inside the root leading out: to a file, and through a directory.
  assertDatasetError(() => roots.resolve('link-out.csv'), out);
  assertDatasetError(() => roots.resolve(join(root, 'link-out.csv')), out);
  assertDatasetError(() => roots.resolve('linkdir/secret.csv'), out);
  // The refusal does not show the target's real path.
  assert.throws(
    () => roots.resolve('link-out.csv'),
    (e: Error) => !e.message.includes(outside),
  );
});

void test('DatasetRoots.resolve: NUL, missing, empty, directory and broken links are refused', () => {
  const { root } = rootsFixture();
  const roots = new DatasetRoots([root]);
  assertDatasetError(() => roots.resolve('sales.csv\u0000.txt'), /NUL/);
  assertDatasetError(() => roots.resolve('missing.csv'), /not found: missing\.csv/);
  assertDatasetError(() => roots.resolve('broken.csv'), /not found/);
  assertDatasetError(() => roots.resolve('empty.csv'), /empty: empty\.csv/);
  assertDatasetError(() => roots.resolve('sub'), /directory/);
  assertDatasetError(() => roots.resolve('folder.csv'), /directory/);
  assertDatasetError(() => roots.resolve(''), /directory/);
  // Messages name the dataset as given, not the host path.
  assert.throws(
    () => roots.resolve('empty.csv'),
    (e: Error) => !e.message.includes(root),
  );
});

void test('DatasetRoots.list: data files recursively, without junk, hidden, deep or outside', () => {
  const { root } = rootsFixture();
  const { datasets, truncated } = new DatasetRoots([root]).list();
  assert.equal(truncated, false);
  assert.deepEqual(
    datasets.map((d) => d.dataset),
    ['a/b/c/d/deep.csv', 'data.JSON', 'link-in.csv', 'sales.csv', 'sub/inner.tsv'],
  );
  const sales = datasets.find((d) => d.dataset === 'sales.csv');
  assert.equal(sales?.bytes, 'region,units\nNorth,3\n'.length);
  assert.match(sales?.modified ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  // Every listed name resolves.
  for (const d of datasets) assert.ok(new DatasetRoots([root]).resolve(d.dataset));
});

void test('DatasetRoots: several roots, tried in order, listed together', () => {
  const { root, outside } = rootsFixture();
  writeFileSync(join(outside, 'sales.csv'), 'other,file\n1,2\n');
  const roots = new DatasetRoots([root, outside]);
  assert.equal(roots.resolve('secret.csv'), join(outside, 'secret.csv'));
  assert.equal(roots.resolve('sales.csv'), join(root, 'sales.csv')); // the first root wins
  assert.equal(roots.resolve(join(outside, 'sales.csv')), join(outside, 'sales.csv'));
  // With the outside folder allowed, the symlink into it resolves.
  assert.equal(roots.resolve('link-out.csv'), join(outside, 'secret.csv'));
  const names = roots.list().datasets.map((d) => d.dataset);
  assert.ok(names.includes('secret.csv') && names.includes('link-out.csv'), names.join(' '));
  assert.equal(names.filter((n) => n === 'sales.csv').length, 1);
  assert.equal(roots.nameOf(join(outside, 'secret.csv')), 'secret.csv');
});

void test('DatasetRoots: a missing root, a file root and no root are refused', () => {
  const { root, base } = rootsFixture();
  const refused = (roots: string[], pattern: RegExp): void =>
    assert.throws(
      () => new DatasetRoots(roots),
      (e: unknown) =>
        e instanceof OpsmindError && e.exitCode === ExitCode.BAD_INPUT && pattern.test(e.message),
    );
  refused([join(base, 'nope')], /does not exist/);
  refused([join(root, 'sales.csv')], /not a directory/);
  refused([root, join(base, 'nope')], /does not exist/);
  refused([], /at least one --root/);
  // A root given through a symlink is kept as its real path.
  symlinkSync(root, join(base, 'root-link'));
  assert.deepEqual(new DatasetRoots([join(base, 'root-link')]).roots, [root]);
});

// ---------------------------------------------------------------- results.ts

const PLAIN = { mask: false, maxChars: 24_000 };
const MASKED = { mask: true, maxChars: 24_000 };

/** The count a truncation marker states, and the text before it. */
function marker(text: string): { kept: string; cut: number; where: string | undefined } {
  const match = /\n… \[truncated: ([\d,]+) more characters not shown(?:; (.*))?\]$/s.exec(text);
  assert.ok(match, `no marker at the end of …${JSON.stringify(text.slice(-120))}`);
  return {
    kept: text.slice(0, match.index),
    cut: Number(match[1]?.replace(/,/g, '')),
    where: match[2],
  };
}

void test('capText: short text is unchanged; long text is cut to the cap with a true marker', () => {
  assert.equal(capText('hello', 5), 'hello');
  assert.equal(capText('', 1000), '');
  const big = 'x'.repeat(50_000);
  for (const max of [1000, 24_000, 49_999]) {
    const out = capText(big, max, 'the step files hold all of it');
    assert.ok(out.length <= max, `${out.length} > ${max}`);
    const { kept, cut, where } = marker(out);
    assert.equal(kept.length + cut, big.length);
    assert.equal(where, 'the step files hold all of it');
  }
  // Lines: the cut falls at a line end when one is near.
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'y'.repeat(20)}`).join('\n');
  const out = capText(lines, 24_000);
  assert.ok(out.length <= 24_000);
  const { kept, cut, where } = marker(out);
  assert.equal(where, undefined);
  assert.ok(lines.startsWith(kept));
  assert.match(kept, /yyyy$/);
  assert.equal(lines[kept.length], '\n');
  assert.equal(kept.length + cut, lines.length);
});

void test('shapeText: terminal controls are stripped before masking and capping', () => {
  const hostile =
    'a\x1b[2Jb\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\x07c\rd\r\ne\x1b[31mred\x1b[0m\x1b]8;;http://x\x1b\\link';
  const out = shapeText(hostile, PLAIN);
  assert.equal(out, 'abcd\neredlink');
  // eslint-disable-next-line no-control-regex -- checking that no control survives
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(out));
  assert.ok(!out.includes('ZXZpbCBjbGlwYm9hcmQ='));
  // C1 forms of CSI and OSC.
  assert.equal(shapeText('x\u009b2Jy \u009d52;c;AAAA\u009c z', PLAIN), 'xy  z');
  // An escape inside a card number cannot hide it from masking.
  assert.ok(shapeText('4111\x1b[0m 1111 1111 1111', MASKED).startsWith('[card ****1111]\n'));
});

void test('shapeText/textResult: masking only with policy.mask, with a note', () => {
  const text = 'mail a.b@example.com card 4111 1111 1111 1111 tel 415-555-0100';
  const on = shapeText(text, MASKED);
  assert.equal(
    on,
    'mail a***@example.com card [card ****1111] tel [phone ***00]\n' +
      '[masked: 1 e-mail address, 1 phone number, 1 card number — the server runs with masking on; the data itself is unchanged]',
  );
  assert.equal(shapeText(text, PLAIN), text);
  assert.equal(shapeText('nothing personal: 1299.99', MASKED), 'nothing personal: 1299.99');

  const result = textResult(text, MASKED, { isError: true, traceId: 'trace-1' });
  assert.deepEqual(result, {
    content: [{ type: 'text', text: on }],
    isError: true,
    _meta: { trace_id: 'trace-1' },
  });
  const plain = textResult('ok', PLAIN);
  assert.deepEqual(plain, { content: [{ type: 'text', text: 'ok' }] });
  assert.ok(!('isError' in plain) && !('_meta' in plain));
  const capped = textResult('z'.repeat(5000), { mask: false, maxChars: 1000 }, { where: 'file' });
  const first = capped.content[0]?.text ?? '';
  assert.ok(first.length <= 1000);
  assert.equal(marker(first).where, 'file');
});

void test('capText: the cut never splits a surrogate pair', () => {
  const emoji = '😀'.repeat(20_000);
  for (const max of [1000, 1001, 24_000, 24_001]) {
    const out = capText(emoji, max);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    assert.ok(!loneSurrogate.test(out), `max ${max}: a lone surrogate before the marker`);
  }
});

void test('shapeText: a truncated masked result still says it was masked', () => {
  const out = shapeText(`a.b@example.com\n${'q'.repeat(5000)}`, { mask: true, maxChars: 1000 });
  assert.ok(out.length <= 1000);
  assert.ok(out.includes('[masked: 1 e-mail address'), out.slice(-200));
});

// ---------------------------------------------------------------- metrics.ts

/** The sample lines of an exposition text, by `name{labels}`. */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    map.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return map;
}

void test('Metrics.request: methods counted apart, odd names as "other"', () => {
  const m = new Metrics();
  m.request('tools/list');
  m.request('tools/call');
  m.request('tools/call');
  m.request('initialize');
  m.request('notifications/initialized');
  for (const odd of ['x\ny', '', 'a'.repeat(65), 'tools/call"} 9', 'résumé', 'v2/x', '{}'])
    m.request(odd);
  const s = samples(m.text());
  assert.equal(s.get('opsmind_mcp_requests_total{method="tools/list"}'), 1);
  assert.equal(s.get('opsmind_mcp_requests_total{method="tools/call"}'), 2);
  assert.equal(s.get('opsmind_mcp_requests_total{method="initialize"}'), 1);
  // A notification is not a request: whoever calls request() with one gets "other".
  assert.equal(s.get('opsmind_mcp_requests_total{method="other"}'), 8);
  assert.equal([...s.keys()].filter((k) => k.startsWith('opsmind_mcp_requests_total')).length, 4);
});

void test('Metrics.request: a method no MCP client sends is counted as "other"', () => {
  const m = new Metrics();
  for (let i = 0; i < 50; i++) m.request(`made/up_${'x'.repeat(i)}`);
  const series = m.text().match(/^opsmind_mcp_requests_total\{/gm) ?? [];
  assert.equal(series.length, 1, `${series.length} series for 50 invented methods`);
});

void test('Metrics.call: counters, errors and cumulative histograms per tool', () => {
  const m = new Metrics();
  m.call('run_sql', 'ok', 0.003);
  m.call('run_sql', 'ok', 0.04);
  m.call('run_sql', 'tool_error', 0.2);
  m.call('run_sql', 'timeout', 400); // beyond the last bucket
  m.call('analyze', 'cancelled', 2.5); // on a bucket's edge
  m.call('analyze', 'error', 7);
  m.call('list_datasets', 'ok', 0);
  const text = m.text();
  const s = samples(text);
  const calls = (tool: string, outcome: string): number | undefined =>
    s.get(`opsmind_mcp_tool_calls_total{tool="${tool}",outcome="${outcome}"}`);
  assert.equal(calls('run_sql', 'ok'), 2);
  assert.equal(calls('run_sql', 'tool_error'), 1);
  assert.equal(calls('run_sql', 'timeout'), 1);
  assert.equal(calls('analyze', 'cancelled'), 1);
  assert.equal(calls('analyze', 'ok'), undefined);
  assert.equal(s.get('opsmind_mcp_tool_errors_total{tool="run_sql"}'), 2);
  assert.equal(s.get('opsmind_mcp_tool_errors_total{tool="analyze"}'), 2);
  assert.equal(s.get('opsmind_mcp_tool_errors_total{tool="list_datasets"}'), undefined);

  for (const [tool, count, sum] of [
    ['run_sql', 4, 400.243],
    ['analyze', 2, 9.5],
    ['list_datasets', 1, 0],
  ] as const) {
    const buckets = [...s]
      .filter(([k]) => k.startsWith(`opsmind_mcp_tool_duration_seconds_bucket{tool="${tool}",`))
      .map(([k, v]) => ({ le: /le="([^"]+)"/.exec(k)?.[1] ?? '', v }));
    assert.equal(buckets.at(-1)?.le, '+Inf');
    assert.equal(buckets.at(-1)?.v, count);
    assert.equal(s.get(`opsmind_mcp_tool_duration_seconds_count{tool="${tool}"}`), count);
    const total = s.get(`opsmind_mcp_tool_duration_seconds_sum{tool="${tool}"}`) ?? NaN;
    assert.ok(Math.abs(total - sum) < 1e-6, `${tool} sum ${total}`);
    const bounds = buckets.slice(0, -1).map((b) => Number(b.le));
    assert.deepEqual(
      bounds,
      [...bounds].sort((a, b) => a - b),
    );
    for (let i = 1; i < buckets.length; i++)
      assert.ok((buckets[i]?.v ?? 0) >= (buckets[i - 1]?.v ?? 0), `${tool} buckets decrease`);
  }
  const le = (tool: string, bound: string): number | undefined =>
    s.get(`opsmind_mcp_tool_duration_seconds_bucket{tool="${tool}",le="${bound}"}`);
  assert.equal(le('run_sql', '0.005'), 1);
  assert.equal(le('run_sql', '0.05'), 2);
  assert.equal(le('run_sql', '0.25'), 3);
  assert.equal(le('run_sql', '300'), 3); // 400 s is only in +Inf
  assert.equal(le('analyze', '1'), 0);
  assert.equal(le('analyze', '2.5'), 1); // le is inclusive
  assert.equal(le('analyze', '10'), 2);
  assert.equal(le('list_datasets', '0.005'), 1);
});

void test('Metrics.text: valid exposition text, with label values escaped', () => {
  const m = new Metrics();
  m.request('tools/call');
  m.call('run_sql', 'ok', 0.1);
  m.call('we"ird\\tool\nname', 'tool_error', 1.5);
  const text = m.text();
  assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
  const lines = text.slice(0, -1).split('\n');
  for (const line of lines) {
    if (line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      assert.match(line, /^# TYPE [a-z_]+ (counter|gauge|histogram)$/);
      continue;
    }
    assert.match(line, /^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$/, `bad sample line: ${line}`);
  }
  // Every metric has its HELP and TYPE before its samples.
  for (const name of [
    'opsmind_mcp_requests_total',
    'opsmind_mcp_tool_calls_total',
    'opsmind_mcp_tool_errors_total',
    'opsmind_mcp_tool_duration_seconds',
    'opsmind_mcp_uptime_seconds',
  ]) {
    const help = lines.indexOf(lines.find((l) => l.startsWith(`# HELP ${name} `)) ?? '');
    const type = lines.indexOf(lines.find((l) => l.startsWith(`# TYPE ${name} `)) ?? '');
    const first = lines.findIndex((l) => l.startsWith(name) && !l.startsWith('#'));
    assert.ok(help >= 0 && type === help + 1 && first > type, name);
  }
  assert.ok(
    text.includes(
      'opsmind_mcp_tool_calls_total{tool="we\\"ird\\\\tool\\nname",outcome="tool_error"} 1\n',
    ),
    text,
  );
  assert.ok(text.includes('opsmind_mcp_tool_errors_total{tool="we\\"ird\\\\tool\\nname"} 1\n'));
  // The raw newline never reaches the text: one line per sample.
  assert.equal(lines.filter((l) => l.startsWith('name')).length, 0);
  assert.match(text, /^opsmind_mcp_uptime_seconds \d+\.\d{3}$/m);
});

// ---------------------------------------------------------------- DuckDB select and run_sql

const LONG = 'L'.repeat(300);
let engine: DuckDbEngine;
let dataDir: string;
let spill: string;

before(async () => {
  dataDir = dir('opsmind-select-');
  const csv = [
    'id,name,amount,note',
    '1,alpha,1.5,plain',
    '2,beta,2.5,"a|b"',
    '3,gamma,3.5,"line1\nline2"',
    `4,delta,4.5,${LONG}`,
    '5,epsilon,5.5,',
  ].join('\n');
  writeFileSync(join(dataDir, 'data.csv'), `${csv}\n`);
  const scratchDir = dir('opsmind-select-scratch-');
  engine = await DuckDbEngine.open({
    dataPath: join(dataDir, 'data.csv'),
    memoryMb: 256,
    maxTempMb: 256,
    threads: 2,
    scratchDir,
  });
  spill = join(scratchDir, 'spill');
});
after(() => engine.close());

/** Asserts `sql` is refused with an OpsmindError (bad input) whose message matches `pattern`. */
async function assertRefused(sql: string, pattern: RegExp): Promise<string> {
  let message = '';
  await assert.rejects(engine.select(sql, 10), (error: unknown) => {
    assert.ok(error instanceof OpsmindError, `${sql}: ${String(error)}`);
    assert.equal(error.exitCode, ExitCode.BAD_INPUT, sql);
    assert.match(error.message, pattern, sql);
    message = error.message;
    return true;
  });
  return message;
}

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    sandbox: () => Promise.reject(new Error('no sandbox')),
    engine,
    sourceName: 'data.csv',
    question: 'test',
    step: 1,
    libraries: [],
    memory: { profile: null, plan: null, ids: {} },
    emit: () => {},
    ...overrides,
  };
}

void test('select: a SELECT returns columns, DuckDB types and rows', async () => {
  const result = await engine.select('SELECT id, name, amount FROM data ORDER BY id', 10);
  assert.deepEqual(result.columns, ['id', 'name', 'amount']);
  assert.deepEqual(result.types, ['BIGINT', 'VARCHAR', 'DOUBLE']);
  assert.deepEqual(result.rows, [
    [1, 'alpha', 1.5],
    [2, 'beta', 2.5],
    [3, 'gamma', 3.5],
    [4, 'delta', 4.5],
    [5, 'epsilon', 5.5],
  ]);
  assert.equal(result.more, false);
  const note = await engine.select('SELECT note FROM data WHERE id = 3', 10);
  assert.deepEqual(note.rows, [['line1\nline2']]);
});

void test('select: maxRows caps the rows and says more were left', async () => {
  const two = await engine.select('SELECT id FROM data ORDER BY id', 2);
  assert.deepEqual(two.rows, [[1], [2]]);
  assert.equal(two.more, true);
  const exact = await engine.select('SELECT id FROM data ORDER BY id', 5);
  assert.equal(exact.rows.length, 5);
  assert.equal(exact.more, false);
  const none = await engine.select('SELECT id FROM data WHERE id > 99', 5);
  assert.deepEqual(none.rows, []);
  assert.equal(none.more, false);
  const big = await engine.select('SELECT range AS n FROM range(1000000)', 3);
  assert.deepEqual(big.rows, [[0], [1], [2]]);
  assert.equal(big.more, true);
  const one = await engine.select('SELECT 42 AS answer', 1);
  assert.deepEqual(one, { columns: ['answer'], types: ['INTEGER'], rows: [[42]], more: false });
});

void test('select: WITH … SELECT, VALUES, FROM-first and a trailing semicolon run', async () => {
  const cte = await engine.select(
    'WITH t AS (SELECT amount FROM data WHERE id <= 2) SELECT sum(amount) AS s FROM t',
    10,
  );
  assert.deepEqual(cte.rows, [[4]]);
  assert.deepEqual((await engine.select('FROM data SELECT count(*) AS n;', 10)).rows, [[5]]);
  assert.deepEqual((await engine.select('-- a comment\nSELECT 1 AS x', 10)).rows, [[1]]);
});

void test('select: statements that are not a SELECT are refused before they run', async () => {
  const notSelect = /^only read-only SELECT queries run here; this is a [A-Z_]+ statement$/;
  const refused: [string, RegExp][] = [
    ['DROP TABLE data', notSelect],
    ["INSERT INTO data VALUES (6, 'zeta', 6.5, 'x')", notSelect],
    ['UPDATE data SET amount = 0', notSelect],
    ['DELETE FROM data', notSelect],
    ['CREATE TABLE copy AS SELECT * FROM data', notSelect],
    ['CREATE MACRO m() AS 1', notSelect],
    ["ATTACH '/tmp/opsmind-attach.db' AS other", notSelect],
    ['DETACH memory', notSelect],
    ["SET memory_limit = '10GB'", notSelect],
    ['RESET memory_limit', notSelect],
    ["PRAGMA memory_limit = '10GB'", notSelect],
    ['PRAGMA threads = 64', notSelect],
    ['PRAGMA enable_profiling', notSelect],
    ['CALL pragma_version()', notSelect],
    ['INSTALL httpfs', notSelect],
    ['LOAD httpfs', notSelect],
    ['EXPLAIN SELECT 1', notSelect],
    ['CHECKPOINT', notSelect],
    ['USE memory', notSelect],
    ["COPY data TO '/tmp/x.csv'", /only read-only SELECT|disabled by configuration/],
    ["EXPORT DATABASE '/tmp/opsmind-export'", /only read-only SELECT|disabled by configuration/],
    ['SELECT 1; SELECT 2', /^send exactly one SELECT statement \(got 2\)$/],
    ['SELECT 1; DROP TABLE data', /^send exactly one SELECT statement \(got 2\)$/],
    ['SELECT * FROM data; DELETE FROM data; SELECT 1', /got 3/],
  ];
  for (const [sql, pattern] of refused) await assertRefused(sql, pattern);
  // Even into the spill directory (the one folder DuckDB may write), COPY is refused by its type.
  const target = join(spill, 'leak.csv');
  await assertRefused(`COPY data TO '${target}'`, /this is a COPY statement/);
  await assertRefused(`COPY (SELECT * FROM data) TO '${target}'`, /COPY/);
  assert.equal(existsSync(target), false);
  const exported = join(dir('opsmind-export-'), 'out');
  await assertRefused(`EXPORT DATABASE '${exported}'`, /disabled|only read-only/);
  assert.equal(existsSync(exported), false);
});

void test('select: the PRAGMAs DuckDB rewrites to queries only read; the others are refused', async () => {
  const info = await engine.select("PRAGMA table_info('data')", 50);
  assert.ok(info.rows.length > 0);
  await assertRefused('PRAGMA threads = 64', /PRAGMA|only read-only/);
  const rows = await engine.select('SELECT count(*) FROM data', 1);
  assert.equal(Number(rows.rows[0]?.[0]), 5);
});

void test('select: an empty or comment-only query gets a clear message', async () => {
  for (const sql of ['   ', ';', '/* nothing */', '-- only a comment'])
    await assertRefused(sql, /send one SELECT statement; this text has none/);
});

void test('select: no file of the host can be read (external access is off)', async () => {
  const denied = /Permission Error|disabled by configuration/;
  for (const sql of [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_csv_auto('/etc/passwd', header = false)",
    "SELECT * FROM read_text('/etc/hostname')",
    "SELECT * FROM read_blob('/etc/hostname')",
    "SELECT * FROM glob('/*')",
    "SELECT * FROM sniff_csv('/etc/passwd')",
    "SELECT * FROM read_json('/etc/os-release')",
    "SELECT * FROM read_parquet('/etc/passwd')",
    // Not even the data file itself: the table is already loaded.
    `SELECT * FROM read_csv('${join(dataDir, 'data.csv')}')`,
  ]) {
    const message = await assertRefused(sql, denied);
    assert.ok(!message.includes('root:x:0:0'), message);
  }
  // A path as a table name is not scanned (no replacement scan without external access).
  await assertRefused("SELECT * FROM '/etc/passwd'", /Permission Error|does not exist/);
  await assertRefused("SELECT * FROM query('DROP TABLE data')", /SELECT/);
  // The limits cannot be read back as changed, and the lock holds.
  const locked = await engine.select(
    "SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_external_access', 'lock_configuration') ORDER BY name",
    10,
  );
  assert.deepEqual(locked.rows, [
    ['enable_external_access', 'false'],
    ['lock_configuration', 'true'],
  ]);
});

void test('select: getenv is not available, so the host environment does not leak', async () => {
  const home = process.env.HOME ?? '/root';
  for (const sql of ["SELECT getenv('HOME')", "SELECT getenv('PATH') AS p"]) {
    try {
      const result = await engine.select(sql, 5);
      const value = result.rows[0]?.[0];
      assert.ok(value === null || value === '', `${sql} returned ${String(value)}`);
    } catch (error) {
      assert.ok(error instanceof OpsmindError);
      assert.match(error.message, /getenv does not exist|Catalog Error/);
      assert.ok(!error.message.includes(home));
    }
  }
  const setting = await engine.select("SELECT current_setting('home_directory') AS h", 5);
  assert.notEqual(setting.rows[0]?.[0], home);
});

void test('select: no error message reveals the host home directory', async () => {
  const home = process.env.HOME ?? '/root';
  for (const sql of ['SELECT * FROM duckdb_secrets()', 'SELECT * FROM duckdb_extensions()']) {
    try {
      await engine.select(sql, 5);
    } catch (error) {
      assert.ok(!(error as Error).message.includes(home), (error as Error).message);
    }
  }
});

void test('select: a long query is interrupted by its AbortSignal', async () => {
  const controller = new AbortController();
  const started = Date.now();
  setTimeout(() => controller.abort(), 200);
  await assert.rejects(
    engine.select('SELECT count(*) FROM range(10000000000) a', 5, controller.signal),
    (error: unknown) => error instanceof Error && error.name === 'AbortError',
  );
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  // An already aborted signal stops it before it starts; the engine then still answers.
  await assert.rejects(engine.select('SELECT 1', 5, AbortSignal.abort()));
  assert.deepEqual((await engine.select('SELECT 1 AS one', 5)).rows, [[1]]);
});

void test('run_sql: an ok result has a typed header, the rows and "(N rows)"', async () => {
  const result = await executeTool(
    runSqlTool,
    { sql: 'SELECT id, name, amount FROM data ORDER BY id' },
    context(),
  );
  assert.equal(result.ok, true);
  const lines = result.forModel.split('\n');
  assert.equal(lines[0], 'columns: id (BIGINT) | name (VARCHAR) | amount (DOUBLE)');
  assert.equal(lines[1], '1 | alpha | 1.5');
  assert.equal(lines.at(-1), '(5 rows)');
  assert.equal(lines.length, 7);
  assert.equal(result.forDisplay.kind, 'sql');

  const one = await executeTool(runSqlTool, { sql: 'SELECT count(*) AS n FROM data' }, context());
  assert.equal(one.forModel, 'columns: n (BIGINT)\n5\n(1 row)');
  const capped = await executeTool(
    runSqlTool,
    { sql: 'SELECT id FROM data ORDER BY id', max_rows: 2 },
    context(),
  );
  assert.match(capped.forModel, /\n1\n2\n\(first 2 rows shown; the query returns more/);
});

void test('run_sql: a binder error is a tool error naming the candidate columns', async () => {
  const result = await executeTool(runSqlTool, { sql: 'SELECT amout FROM data' }, context());
  assert.equal(result.ok, false);
  assert.match(result.forModel, /^error: the query failed: Binder Error: .*"amout"/);
  assert.match(result.forModel, /Candidate bindings: .*"amount"/);
  assert.equal(result.forDisplay.kind, 'tool_error');
  const table = await executeTool(runSqlTool, { sql: 'SELECT * FROM dta' }, context());
  assert.equal(table.ok, false);
  assert.match(table.forModel, /Catalog Error: .*dta/);
  const drop = await executeTool(runSqlTool, { sql: 'DROP TABLE data' }, context());
  assert.equal(drop.ok, false);
  assert.equal(
    drop.forModel,
    'error: the query failed: only read-only SELECT queries run here; this is a DROP statement',
  );
});

void test('run_sql: cells with |, newlines, controls and long strings are escaped and cut', async () => {
  const result = await executeTool(
    runSqlTool,
    {
      sql: `SELECT id, note AS "a|b", chr(27) || '[2Jx' || chr(9) || 'y' AS ctl FROM data ORDER BY id`,
    },
    context(),
  );
  assert.equal(result.ok, true);
  const lines = result.forModel.split('\n');
  assert.equal(lines.length, 7, result.forModel);
  assert.equal(lines[0], 'columns: id (BIGINT) | a\\|b (VARCHAR) | ctl (VARCHAR)');
  assert.equal(lines[1], '1 | plain | x y');
  assert.equal(lines[2], '2 | a\\|b | x y');
  assert.equal(lines[3], '3 | line1 line2 | x y');
  assert.equal(lines[4], `4 | ${'L'.repeat(119)}… | x y`);
  assert.equal(lines[5], '5 | NULL | x y');
  assert.ok(!result.forModel.includes('\x1b'));
});

void test('sqlResultText: lists, structs, booleans and nulls are shown as text', () => {
  const text = sqlResultText({
    columns: ['l', 's', 'b', 'n'],
    types: ['INTEGER[]', 'STRUCT(a INTEGER)', 'BOOLEAN', 'VARCHAR'],
    rows: [[[1, 2], { a: 1, big: 9007199254740993n }, true, null]],
    more: false,
  });
  assert.equal(
    text,
    'columns: l (INTEGER[]) | s (STRUCT(a INTEGER)) | b (BOOLEAN) | n (VARCHAR)\n' +
      '[1,2] | {"a":1,"big":9007199254740992} | true | NULL\n(1 row)',
  );
  assert.equal(
    sqlResultText({ columns: ['x'], types: ['INTEGER'], rows: [], more: false }),
    'columns: x (INTEGER)\n(0 rows)',
  );
});

void test('run_sql: bad arguments and a session without an engine are tool errors', async () => {
  const noEngine = await executeTool(
    runSqlTool,
    { sql: 'SELECT 1' },
    context({ engine: undefined }),
  );
  assert.equal(noEngine.ok, false);
  assert.match(noEngine.forModel, /^error: run_sql needs the DuckDB engine/);
  const withoutSelect: AnalysisEngine = {
    name: 'pandas',
    label: 'pandas',
    profile: () => Promise.reject(new Error('unused')),
    execute: () => Promise.reject(new Error('unused')),
    close: () => {},
  };
  const pandas = await executeTool(
    runSqlTool,
    { sql: 'SELECT 1' },
    context({ engine: withoutSelect }),
  );
  assert.equal(pandas.ok, false);
  assert.match(pandas.forModel, /needs the DuckDB engine/);
  for (const args of [{}, { sql: '' }, { sql: 'SELECT 1', max_rows: 500 }, { sql: 1 }]) {
    const bad = await executeTool(runSqlTool, args, context());
    assert.equal(bad.ok, false);
    assert.match(bad.forModel, /^error: invalid arguments for run_sql: /);
  }
  // A cancelled call throws (the caller ends the step), it is not a tool error.
  await assert.rejects(
    executeTool(runSqlTool, { sql: 'SELECT 1' }, context({ signal: AbortSignal.abort() })),
  );
});

void test('select: after every refused statement the table still holds all its rows', async () => {
  const result = await engine.select(
    'SELECT count(*) AS n, sum(amount) AS total, max(length(note)) AS longest FROM data',
    5,
  );
  assert.deepEqual(result.rows, [[5, 17.5, 300]]);
  assert.equal(readFileSync(join(dataDir, 'data.csv'), 'utf8').split('\n').length, 8);
  assert.equal(existsSync('/tmp/opsmind-attach.db'), false);
});
