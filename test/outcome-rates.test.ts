/**
 * A two-valued outcome (Survived 0/1, left_company Yes/No) is charted as a rate: the share of
 * rows per group where it holds, in %, over the rows that have it — by both engines alike, with
 * the numbers counted here by hand. A plan asking for a rate the data cannot give is refused.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan } from '../src/agent/plan.js';
import type { Analysis } from '../src/agent/plan.js';
import { ROOT, tempDir } from './helpers/fixtures.js';
import { bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-rates-');

interface Passenger {
  survived: number;
  pclass: number;
  sex: string;
  port: string;
}

/** 180 passengers: women and first class survive more often; a port is sometimes missing. */
function passengers(): Passenger[] {
  let seed = 11;
  const r = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: 180 }, (_, i) => {
    const sex = r() < 0.4 ? 'female' : 'male';
    const pclass = 1 + Math.floor(r() * 3);
    const p = (sex === 'female' ? 0.7 : 0.2) + (pclass === 1 ? 0.15 : pclass === 3 ? -0.1 : 0);
    return { survived: Number(r() < p), pclass, sex, port: i % 13 ? 'SCQ'.charAt(i % 3) : '' };
  });
}

function titanicCsv(rows: Passenger[]): string {
  const lines = rows.map(
    (p, i) =>
      `${i + 1},${p.survived},${p.pclass},"Person ${i}, Mr. X",${p.sex},${20 + (i % 50)},${(7 + ((i * 37) % 90)).toFixed(2)},${p.port}`,
  );
  const path = join(dir, 'titanic.csv');
  writeFileSync(
    path,
    ['PassengerId,Survived,Pclass,Name,Sex,Age,Fare,Embarked', ...lines].join('\n') + '\n',
  );
  return path;
}

/** The share (%) of `rows` in each group of `key` with the outcome, as the findings print it. */
function rates<T>(rows: T[], key: (r: T) => string, hit: (r: T) => boolean | null) {
  const groups = new Map<string, { n: number; k: number }>();
  for (const row of rows) {
    const h = hit(row);
    if (h === null) continue;
    const g = groups.get(key(row)) ?? { n: 0, k: 0 };
    groups.set(key(row), { n: g.n + 1, k: g.k + Number(h) });
  }
  return new Map([...groups].map(([name, g]) => [name, (100 * g.k) / g.n]));
}

const fmt = (x: number): string => String(Number(x.toPrecision(3)));

function extremes(m: Map<string, number>): [string, number, string, number] {
  const sorted = [...m].sort((a, b) => b[1] - a[1]);
  const [top, bottom] = [sorted[0], sorted[sorted.length - 1]];
  assert.ok(top && bottom);
  return [top[0], top[1], bottom[0], bottom[1]];
}

void test('Survived 0/1: its rate by sex, class and port, the same in both engines and counted by hand', async () => {
  const rows = passengers();
  const file = titanicCsv(rows);
  const plan = heuristicPlan(await duckProfile(file));
  const shares = plan.analyses.filter(
    (a) => a.transform.type === 'group' && a.transform.equals !== undefined,
  );
  assert.deepEqual(
    shares.map((a) => [a.title, a.transform.type === 'group' && a.transform.equals]),
    [
      ['Share with Survived = 1 by Pclass', 1],
      ['Share with Survived = 1 by Sex', 1],
      ['Share with Survived = 1 by Embarked', 1],
    ],
  );
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas, duck);
  const bySex = rates(
    rows,
    (p) => p.sex,
    (p) => p.survived === 1,
  );
  const [hi, hiRate, lo, loRate] = extremes(bySex);
  assert.equal(hi, 'female');
  const sentence = `female has the highest share with Survived = 1 (${fmt(hiRate)}%); ${lo} the lowest (${fmt(loRate)}%), ${fmt(hiRate - loRate)} percentage points apart.`;
  assert.ok(duck.findings.includes(sentence), `${sentence}\n${duck.findings.join('\n')}`);
  const byClass = extremes(
    rates(
      rows,
      (p) => String(p.pclass),
      (p) => p.survived === 1,
    ),
  );
  assert.ok(
    duck.findings.some((t) =>
      t.startsWith(
        `Pclass ${byClass[0]} has the highest share with Survived = 1 (${fmt(byClass[1])}%)`,
      ),
    ),
    duck.findings.join('\n'),
  );
  const html = readFileSync(join(dir, 'duckdb.html'), 'utf8');
  assert.match(
    html,
    /Share \(%\) of rows with Survived = 1 \(rows without Survived left out\) by Sex/,
  );
});

void test('left_company Yes/No with gaps: the share of Yes per department, the words kept as written', () => {
  const departments = ['Sales', 'Engineering', 'Support', 'HR'];
  const rows = Array.from({ length: 160 }, (_, i) => ({
    id: 1001 + i,
    department: departments[i % 4] ?? 'Sales',
    salary: 40_000 + ((i * 7919) % 90) * 1000,
    left: i % 17 === 0 ? null : (i * 7) % 10 < [2, 1, 4, 3][i % 4]! ? 'Yes' : 'No',
  }));
  const path = join(dir, 'attrition.csv');
  const lines = rows.map((r) => `${r.id},${r.department},${r.salary},${r.left ?? ''}`);
  writeFileSync(path, ['employee_id,department,salary,left_company', ...lines].join('\n') + '\n');
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(pandas, duck);
  assert.ok(
    duck.charts.includes('Share with left_company = Yes by department'),
    duck.charts.join('\n'),
  );
  const [hi, hiRate, lo, loRate] = extremes(
    rates(
      rows,
      (r) => r.department,
      (r) => (r.left === null ? null : r.left === 'Yes'),
    ),
  );
  const sentence = `${hi} has the highest share with left_company = Yes (${fmt(hiRate)}%); ${lo} the lowest (${fmt(loRate)}%), ${fmt(hiRate - loRate)} percentage points apart.`;
  assert.ok(duck.findings.includes(sentence), `${sentence}\n${duck.findings.join('\n')}`);
  assert.ok(
    duck.findings.every((t) => !/\b(True|False)\b/.test(t)),
    "Yes and No stay the file's words",
  );
});

void test('a rate the data cannot give is refused with the reason', async () => {
  const profile = await duckProfile(titanicCsv(passengers()));
  const rate = (transform: Record<string, unknown>): string[] => {
    const a = {
      title: 't',
      why: 'w',
      chart: 'bar',
      transform: { type: 'group', by: 'Sex', measure: 'Survived', agg: 'mean', ...transform },
    } as Analysis;
    return checkPlan({ analyses: [a], notes: [] }, profile);
  };
  assert.deepEqual(rate({ equals: 1 }), []);
  assert.match(
    rate({ equals: 1, agg: 'sum' }).join(),
    /a rate is the mean of "Survived" = 1: use agg "mean"/,
  );
  assert.match(
    rate({ equals: 'yes' }).join(),
    /"Survived" never equals "yes"; its values: "[01]", "[01]"/,
  );
  assert.match(
    rate({ equals: 1, measure: null }).join(),
    /equals counts a value of the measure: it needs a measure/,
  );
  // A text column may be counted (Sex = female); averaging it is still refused.
  assert.deepEqual(rate({ measure: 'Sex', by: 'Pclass', equals: 'female' }), []);
  assert.match(rate({ measure: 'Sex', by: 'Pclass' }).join(), /not a number to measure/);
});

void test('a question about a rate is answered with one, grouped as it asks', async () => {
  const profile = await duckProfile(titanicCsv(passengers()));
  const first = (question: string): unknown[] => {
    const t = heuristicPlan(profile, question).analyses[0]?.transform;
    return t?.type === 'group' ? [t.by, t.measure, t.agg, t.equals] : [t?.type];
  };
  assert.deepEqual(first('Which Pclass had the highest share of Survived?'), [
    'Pclass',
    'Survived',
    'mean',
    1,
  ]);
  assert.deepEqual(first('survival rate by Sex'), ['Sex', 'Survived', 'mean', 1]);
  assert.deepEqual(first('How likely was survival?'), ['Pclass', 'Survived', 'mean', 1]);
  assert.notDeepEqual(first('What share of Fare comes from each Embarked?')[3], 1);
});

void test('examples/customers-churn.csv: churn by contract and by support tickets, as planted', () => {
  const file = join(ROOT, 'examples', 'customers-churn.csv');
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas, duck);
  for (const sentence of [
    'Month-to-month has the highest share with churned = Yes (50.5%); Two year the lowest (2.77%), 47.7 percentage points apart.',
    // 4 of 5 rows against 26.6% is a real gap alone (Fisher's p = 0.02), not as the highest and
    // the lowest of 7 groups: Bonferroni's correction for their 21 pairs.
    "support_tickets 6 has the highest share with churned = Yes (80%, 4 of 5 rows); support_tickets 0 the lowest (26.6%), 53.4 percentage points apart; chance alone could give a gap this size (Fisher's exact test, p = 0.422 after Bonferroni's correction for the 21 pairs of 7 groups).",
    // The regions were not planted: 35.5% against 28.3% alone looks real (p = 0.02), not of 4 groups.
    "West has the highest share with churned = Yes (35.5%); South the lowest (28.3%), 7.16 percentage points apart; chance alone could give a gap this size (Welch's t-test, p = 0.123 after Bonferroni's correction for the 6 pairs of 4 groups).",
  ])
    assert.ok(duck.findings.includes(sentence), `${sentence}\n${duck.findings.join('\n')}`);
});

void test('an event log with an outcome: its share per month, peaking where it was planted', async () => {
  let seed = 5;
  const r = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const orders = Array.from({ length: 2400 }, (_, i) => {
    const month = Math.floor(i / 100); // 24 months, 100 orders each, days 1..25
    const date = new Date(Date.UTC(2023, month, 1 + (i % 25))).toISOString().slice(0, 10);
    const p = month === 5 ? 0.4 : 0.1;
    const returned = i % 31 === 0 ? '' : r() < p ? 'Yes' : 'No';
    return {
      month,
      date,
      returned,
      line: `${date},${['Shoes', 'Bags'][i % 2]},${(10 + (i % 90)).toFixed(2)},${returned}`,
    };
  });
  const path = join(dir, 'orders.csv');
  writeFileSync(
    path,
    ['order_date,category,amount,returned', ...orders.map((o) => o.line)].join('\n') + '\n',
  );
  const profile = await duckProfile(path);
  const plan = heuristicPlan(profile);
  const check = (extra: Record<string, unknown>): string => {
    const transform = { ...line?.transform, ...extra } as Analysis['transform'];
    const a = { title: 't', why: 'w', chart: 'line', transform } as Analysis;
    return checkPlan({ analyses: [a], notes: [] }, profile).join();
  };
  const line = plan.analyses.find(
    (a) => a.title === 'Share with returned = Yes per month of order_date',
  );
  assert.deepEqual(line?.transform, {
    type: 'resample',
    date: 'order_date',
    measure: 'returned',
    agg: 'mean',
    equals: 'Yes',
    freq: 'M',
  });
  assert.equal(check({}), '');
  assert.match(check({ agg: 'sum' }), /a rate is the mean of "returned" = "Yes": use agg "mean"/);
  assert.match(
    check({ series: 'category', rebase: true }),
    /rebase compares levels or amounts: not a rate/,
  );
  assert.match(
    check({ equals: 'yes please' }),
    /"returned" never equals "yes please"; its values: "No", "Yes"/,
  );
  const june = orders.filter((o) => o.month === 5 && o.returned !== '');
  const peak = (100 * june.filter((o) => o.returned === 'Yes').length) / june.length;
  const { duck, pandas } = bothEngines(path, dir);
  // The pandas program also says which text columns it parsed as dates; the rest is the same.
  const parsed = (t: string): boolean => !/^dates stored as text in/.test(t);
  assert.deepEqual({ ...pandas, findings: pandas.findings.filter(parsed) }, duck);
  const sentence = `% with returned = Yes peaked at ${fmt(peak)}% in Jun 2023.`;
  assert.ok(duck.findings.includes(sentence), `${sentence}\n${duck.findings.join('\n')}`);
});

void test('True/False with gaps: counted as booleans in both engines, not as the words', () => {
  const rows = Array.from({ length: 60 }, (_, i) => ({
    grp: i % 2 ? 'b' : 'a',
    converted: i % 11 === 0 ? null : i % 3 === 0 || i % 10 === 0,
  }));
  const path = join(dir, 'converted.csv');
  const lines = rows.map(
    (r, i) => `${i + 1},${r.grp},${r.converted === null ? '' : r.converted ? 'True' : 'False'}`,
  );
  writeFileSync(path, ['id,grp,converted', ...lines].join('\n') + '\n');
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(pandas, duck);
  const [hi, hiRate, lo, loRate] = extremes(
    rates(
      rows,
      (r) => r.grp,
      (r) => r.converted,
    ),
  );
  // 13 of 27 against 9 of 27: a gap Fisher's exact test finds within chance, and says so.
  const sentence = `${hi} has the highest share with converted = True (${fmt(hiRate)}%); ${lo} the lowest (${fmt(loRate)}%), ${fmt(hiRate - loRate)} percentage points apart; chance alone could give a gap this size (Fisher's exact test, p = 0.406).`;
  assert.ok(duck.findings.includes(sentence), `${sentence}\n${duck.findings.join('\n')}`);
});

void test('a rate is charted only by a grouping whose every group fits the bar (12 or fewer)', async () => {
  // 30 source lists, most of one row: a bar of the 12 highest shares would show lone rows at 100%.
  const rows = Array.from({ length: 300 }, (_, i) => {
    const plan = ['basic', 'plus', 'pro'][i % 3];
    const source = i < 240 ? `src${i % 4}` : `src${4 + (i % 26)}`;
    const churn = i % 7 === 0 || (i >= 240 && i % 2 === 0) ? 1 : 0;
    return `C${i},${plan},${source},${churn}`;
  });
  const path = join(dir, 'churn.csv');
  writeFileSync(path, ['customer,plan,source,churn', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const titles = heuristicPlan(profile).analyses.map((a) => a.title);
  assert.ok(titles.includes('Share with churn = 1 by plan'), titles.join('\n'));
  assert.ok(!titles.some((t) => t.startsWith('Share with churn = 1 by source')), titles.join('\n'));
});
