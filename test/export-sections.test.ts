/**
 * A report exported as Google Analytics writes it: comment lines above the header, the table of
 * days, its total on a last row with no date, then more commented sections below. The sections
 * were read as rows ("# Users" a day of no date) and the total as one more day, the largest by
 * far: "Users is right-skewed (skew 9.58; mean 3,235 vs median 1,544)". Both readers leave out
 * the sections below (a footer) and the total row (source-total-row.ts, _drop_total_row).
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { footerIn } from '../src/engine/source-footer.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';

const dir = tempDir('opsmind-sections-');
after(() => rmSync(dir, { recursive: true, force: true }));

const BODY = 'region,sales,units\nNorth,10.5,3\nSouth,7.25,1\nEast,1000,12\n';

void test("an export's commented sections below the table are a footer, however long; its title's are not", () => {
  const title = '# ----\n# All Web Site Data\n\n# 20240101-20240331\n# ----\n\n';
  const sections = `\n# ----------\n# Users\n# ----------\n\nNew Users,Returning\n${'12,3\n'.repeat(20)}`;
  const text = title + BODY + sections;
  const found = footerIn(text, ',', 3, false);
  assert.equal(text.slice(0, found?.offset), title + BODY);
  assert.deepEqual(found?.lines.slice(0, 3), ['# ----------', '# Users', '# ----------']);
  assert.equal(found?.lines.length, 24);
  // A row that starts with "#" is no comment: "#1001" names an order.
  assert.equal(footerIn(`${BODY}\n#1001,5,1\n`, ',', 3, false), null);
});

interface Report {
  warnings: string[];
  charts: { title: string; derivation: { rows_used: number | null } | null }[];
  insights: { text: string }[];
}

/** Days of users and sessions, written as Google Analytics writes them ("1/1/24", "1,234"). */
function analytics(): { text: string; users: number[] } {
  const users = Array.from({ length: 91 }, (_, d) => 900 + ((d * 7919) % 1600));
  const day = (d: number) => {
    const at = new Date(Date.UTC(2024, 0, 1 + d));
    return `${at.getUTCMonth() + 1}/${at.getUTCDate()}/24`;
  };
  const n = (v: number) => `"${v.toLocaleString('en-US')}"`;
  const rows = users.map((u, d) => `${day(d)},${n(u)},${n(Math.round(u * 1.3))}`);
  const sessions = users.reduce((s, u) => s + Math.round(u * 1.3), 0);
  // Users of the whole quarter are counted once each: less than the days' sum.
  const total = `,${n(Math.round(users.reduce((s, u) => s + u, 0) * 0.8))},${n(sessions)}`;
  const text = [
    '# ----------------------------------------',
    '# All Web Site Data',
    '# Audience Overview',
    '# 20240101-20240331',
    '# ----------------------------------------',
    '',
    'Day Index,Users,Sessions',
    ...rows,
    total,
    '',
    '# ----------------------------------------',
    '# Users',
    '# ----------------------------------------',
    '',
    'New Users,Returning Users',
    '"61,000","14,000"',
    '',
  ].join('\n');
  return { text, users };
}

void test('a Google Analytics export is read as its days alone, in both engines', () => {
  const { text, users } = analytics();
  const path = join(dir, 'Analytics All Web Site Data Audience Overview.csv');
  writeFileSync(path, text);
  const read = (engine: string) => analyzeJson<Report>(path, engine, join(dir, `${engine}.html`));
  const [duck, pandas] = [read('duckdb'), read('pandas')];
  const warnings = [
    'skipped 5 line(s) above the header (a title?)',
    'left out 5 line(s) below the data (a footer: "# ----------------------------------------", "# Users", …)',
    'left out the last row: a total of the rows above (no label, its "Sessions" their sum)',
  ];
  assert.deepEqual(duck.warnings, warnings);
  assert.deepEqual(pandas.warnings, warnings);
  assert.deepEqual(
    pandas.charts.map((c) => c.title),
    duck.charts.map((c) => c.title),
  );
  assert.ok(
    duck.charts.every((c) => c.derivation?.rows_used === 91),
    JSON.stringify(duck.charts),
  );
  const sorted = [...users].sort((a, b) => a - b);
  const median = sorted[45] ?? 0;
  const said = `The median Users is ${median.toLocaleString('en-US')};`;
  const texts = duck.insights.map((i) => i.text);
  assert.ok(
    texts.some((t) => t.startsWith(said)),
    `${said}\n${texts.join('\n')}`,
  );
  assert.ok(!texts.some((t) => /Users is right-skewed/.test(t)), texts.join('\n'));
  for (const t of texts.filter((x) => !x.startsWith('dates stored as text')))
    assert.ok(
      pandas.insights.some((i) => i.text === t),
      t,
    );
});

void test('a last row is kept when it is no total: numbers that are no sum, or its labels blank on another row too', () => {
  const days = Array.from(
    { length: 7 },
    (_, d) => `2024-01-0${d + 1},Store ${d % 2},${10 * (d + 1)}`,
  );
  const files = {
    'no-sum.csv': [...days, ',,3'],
    'gappy.csv': [...days.map((l, i) => (i === 2 ? ',,30' : l)), ',,280'],
  };
  for (const [name, rows] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, `day,store,sales\n${rows.join('\n')}\n`);
    for (const engine of ['duckdb', 'pandas']) {
      const json = analyzeJson<Report>(path, engine, join(dir, `${name}-${engine}.html`));
      assert.ok(
        !json.warnings.some((w) => w.includes('a total of the rows above')),
        `${name} ${engine}: ${json.warnings.join('\n')}`,
      );
    }
  }
});
