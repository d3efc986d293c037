/**
 * The time a question names beyond one year: a range of years, several years, a quarter, a
 * month, the data's latest periods. Each keeps its rows (filters of the time column), is said in
 * the answer's note and before its findings, and a line drawn over it starts and ends on whole
 * periods of its own.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { alignedTo, narrowed, timeReading } from '../src/agent/question-times.js';
import { findingScope } from '../src/agent/question-values.js';
import { ROOT, tempDir } from './helpers/fixtures.js';
import { asked } from './helpers/semantics.js';
import { col, date, SALES } from './helpers/profiles.js';

const span = (from: string, to: string) => [
  { column: 'order_date', op: '>=' as const, value: `${from} 00:00:00` },
  { column: 'order_date', op: '<' as const, value: `${to} 00:00:00` },
];
const years = col('year', 'numeric', {
  numeric: { ...col('y', 'numeric').numeric!, min: 1955, max: 2005 },
});

void test('a range of years keeps its rows: from the first one to the end of the last', () => {
  // `date` runs from 2023-01-01 to 2024-12-31.
  for (const q of [
    'revenue from 2023 to 2024',
    'revenue between 2023 and 2024',
    'revenue 2023-2024',
    'revenue in 2023 and 2024',
  ])
    assert.deepEqual(timeReading(q, date).filters, span('2023-01-01', '2025-01-01'), q);
  assert.equal(timeReading('revenue from 2023 to 2024', date).said, 'from 2023 to 2024');
  // Outside the data; two years apart on a date column (no filter keeps just those): nothing,
  // not the first year alone.
  for (const q of ['revenue from 2015 to 2020', 'revenue in 2023 and 2019'])
    assert.deepEqual(timeReading(q, date).filters, [], q);
  assert.deepEqual(timeReading('population from 1960 to 1980', years).filters, [
    { column: 'year', op: '>=', value: 1960 },
    { column: 'year', op: '<=', value: 1980 },
  ]);
  assert.deepEqual(timeReading('population in 1960 and 1980', years).filters, [
    { column: 'year', op: 'in', value: [1960, 1980] },
  ]);
});

void test('a quarter or a month a question names keeps its rows', () => {
  assert.deepEqual(
    timeReading('revenue in Q3 2024', date).filters,
    span('2024-07-01', '2024-10-01'),
  );
  assert.deepEqual(timeReading('revenue 2024 q3', date).filters, span('2024-07-01', '2024-10-01'));
  assert.deepEqual(
    timeReading('units in March 2024', date).filters,
    span('2024-03-01', '2024-04-01'),
  );
  assert.deepEqual(
    timeReading('units in Sept 2023', date).filters,
    span('2023-09-01', '2023-10-01'),
  );
  assert.equal(timeReading('units in Dec 2024', date).said, 'in Dec 2024');
  assert.deepEqual(timeReading('revenue in Q3 2019', date).filters, []);
  // A column of years holds no quarters.
  assert.deepEqual(timeReading('population in Q3 1980', years).filters, []);
});

void test("'the last 3 months' are the data's latest months, whole, and the note says so", () => {
  const months = timeReading('revenue by region in the last 3 months', date);
  assert.deepEqual(months.filters, span('2024-10-01', '2025-01-01'));
  assert.equal(
    months.said,
    'in the last 3 months of the data (from Oct 2024; its latest date is Dec 31, 2024)',
  );
  assert.deepEqual(
    timeReading('top products in the last quarter', date).filters,
    span('2024-10-01', '2025-01-01'),
  );
  // Dec 31, 2024 is a Tuesday: its week from Monday Dec 30, the one before from Dec 23.
  assert.deepEqual(
    timeReading('orders in the past two weeks', date).filters,
    span('2024-12-23', '2025-01-06'),
  );
  assert.deepEqual(timeReading('population in the last 5 years', years).filters, [
    { column: 'year', op: '>=', value: 2001 },
  ]);
});

void test("'this year', 'year to date', 'this month' are the data's latest year or month", () => {
  for (const q of [
    'revenue by region this year',
    'revenue by region year to date',
    'YTD revenue',
  ]) {
    const reading = timeReading(q, date);
    assert.deepEqual(reading.filters, span('2024-01-01', '2025-01-01'), q);
    assert.equal(
      reading.said,
      'in the latest year of the data (from 2024; its latest date is Dec 31, 2024)',
      q,
    );
  }
  assert.deepEqual(
    timeReading('orders this month', date).filters,
    span('2024-12-01', '2025-01-01'),
  );
  assert.deepEqual(timeReading('population this year', years).filters, [
    { column: 'year', op: '>=', value: 2005 },
  ]);
});

void test('a season it names keeps every row, and the note says so', () => {
  const reading = timeReading('average pm25 by city in winter', date);
  assert.deepEqual(reading.filters, []);
  assert.match(reading.note ?? '', /^The time it names is not one the rows can be kept to \(/);
  assert.equal(timeReading('average pm25 by city', date).note, undefined);
});

void test("a line's rows start and end on whole periods of its own", () => {
  // Oct 1, 2024 is a Tuesday and Jan 1, 2025 a Wednesday: weeks from Oct 7 to Dec 29.
  assert.deepEqual(
    alignedTo(span('2024-10-01', '2025-01-01'), 'order_date', 'W'),
    span('2024-10-07', '2024-12-30'),
  );
  assert.deepEqual(
    alignedTo(span('2024-10-01', '2025-01-01'), 'order_date', 'M'),
    span('2024-10-01', '2025-01-01'),
  );
  assert.deepEqual(
    alignedTo(span('2024-03-15', '2024-07-10'), 'order_date', 'Q'),
    span('2024-04-01', '2024-07-01'),
  );
  // No whole quarter inside: unchanged.
  assert.deepEqual(
    alignedTo(span('2024-03-15', '2024-06-10'), 'order_date', 'Q'),
    span('2024-03-15', '2024-06-10'),
  );
  const plan = heuristicPlan(SALES, 'revenue per week in the last 3 months').analyses[0];
  assert.deepEqual(plan?.filters?.slice(0, 2), span('2024-10-07', '2024-12-30'));
});

void test('the findings say the quarter, month or years their rows are of', () => {
  const scope = (q: string) => findingScope(heuristicPlan(SALES, q).analyses[0], SALES);
  assert.equal(scope('revenue by region in Q3 2024'), 'In Q3 2024: ');
  assert.equal(scope('revenue by region in March 2024'), 'In Mar 2024: ');
  assert.equal(scope('revenue by region from 2023 to 2024'), 'From 2023 to 2024: ');
  assert.equal(scope('revenue by region in the last 2 months'), 'From Nov 2024 to Dec 2024: ');
  // A line's findings say their own span.
  assert.equal(scope('revenue per month from 2023 to 2024'), '');
  const why = heuristicPlan(SALES, 'revenue by region in the last quarter').analyses[0]?.why;
  assert.match(
    why ?? '',
    /Only rows in the last quarter of the data \(from Oct 2024; its latest date is Dec 31, 2024\)\.$/,
  );
});

void test('the latest weeks of the example, end to end, in both engines', () => {
  const dir = tempDir('opsmind-question-times-');
  const file = join(ROOT, 'examples', 'sales.csv');
  const weeks = asked(file, 'duckdb', dir, 'revenue per week in the last 3 months').answer;
  // The example ends on Dec 31, 2024: its last 3 months from the first whole week, Oct 7–13.
  assert.match(weeks[0] ?? '', /^Revenue (grew|fell) [\d.]+% from Oct 13, 2024 to Dec 29, 2024 /);
  assert.deepEqual(
    asked(file, 'pandas', dir, 'revenue per week in the last 3 months').answer,
    weeks,
  );
  const quarter = asked(file, 'duckdb', dir, 'top products in the last quarter').answer;
  assert.ok(
    quarter.length > 0 && quarter.every((f) => f.startsWith('In Q4 2024: ')),
    quarter.join('\n'),
  );
});

void test("a line of a question's span is drawn in periods that suit the span", () => {
  // Two years of days, kept to their last 3 months: seen as 3 months of days (weeks), not two years.
  const span = narrowed(date, timeReading('revenue in the last 3 months', date).filters);
  assert.equal(span.datetime?.min, '2024-10-01 00:00:00');
  assert.equal(span.datetime?.max, '2024-12-31 00:00:00');
  assert.ok(Math.abs((span.datetime?.span_days ?? 0) - 91) < 1e-6);
  assert.equal(span.distinct, Math.round((730 * 91) / 730));
  const plan = heuristicPlan(SALES, 'revenue in the last 3 months').analyses[0];
  assert.equal(plan?.chart, 'line');
  assert.equal(plan?.transform.type === 'resample' && plan.transform.freq, 'W');
  // Filters of no time leave it as it was.
  assert.equal(narrowed(date, []), date);
});

void test('a time the rows cannot be kept to is said, not passed over', () => {
  const note =
    'The time it names is not one the rows can be kept to (order_date runs from 2023-01-01 to 2024-12-31): every row is shown.';
  for (const q of ['revenue in 2019', 'revenue by channel in 2022 and 2024', 'revenue in Q1 2020'])
    assert.equal(timeReading(q, date).note, note, q);
  for (const q of ['top 2000 products', 'revenue in 2024', 'revenue by region'])
    assert.equal(timeReading(q, date).note, undefined, q);
  const why = heuristicPlan(SALES, 'revenue by region in 2019').analyses[0]?.why ?? '';
  assert.ok(why.endsWith(note), why);
});

void test('a German question asks its period in German: "Umsatz pro Monat", "monatlicher Umsatz"', () => {
  const dir = tempDir('opsmind-question-times-de-');
  const file = join(ROOT, 'examples/umsatz-filialen.csv');
  for (const [engine, q] of [
    ['duckdb', 'Umsatz pro Monat'],
    ['pandas', 'monatlicher Umsatz'],
    ['duckdb', 'Kunden je Woche'],
  ] as const) {
    const answer = asked(file, engine, dir, q);
    const chart = answer.charts[0];
    assert.equal(chart?.kind, 'line', `${engine} ${q}`);
    assert.equal(chart?.derivation.time?.freq, q.includes('Woche') ? 'W' : 'MS', `${engine} ${q}`);
    assert.equal(chart?.derivation.measure, q.includes('Kunden') ? 'Kunden' : 'Umsatz (EUR)', q);
  }
});

void test("a period finer than the data's times is said, not silently coarsened", () => {
  const a = heuristicPlan(SALES, 'revenue per hour').analyses[0];
  assert.equal(a?.transform.type, 'resample');
  assert.match(
    a?.why ?? '',
    /It asks per hour, finer than the data's own times: this is per \w+\.$/,
  );
  // A period the data holds is said nothing of.
  assert.doesNotMatch(heuristicPlan(SALES, 'revenue per month').analyses[0]?.why ?? '', /asks per/);
});

void test("'year to date' names a time, not the date column: totals of the latest year by region", () => {
  const a = heuristicPlan(SALES, 'revenue year to date by region').analyses[0];
  assert.equal(a?.chart, 'bar');
  assert.deepEqual(a?.filters?.slice(0, 2), span('2024-01-01', '2025-01-01'));
});
