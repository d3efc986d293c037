/**
 * A yearly panel (one row per country and year) ranks its countries by the last year nearly all
 * of them report, not by an average of every year, and totals over the countries only the years
 * nearly all of them report: a thin first or last year (a few countries reporting early) is no
 * total. Both engines alike; a filter's year on a year column read as timestamps is that year.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { profileText } from '../src/agent/profile-text.js';
import { analyzeJson, bothEngines, duckProfile, modelPlan } from './helpers/semantics.js';

const dir = tempDir('opsmind-panel-latest-');
after(() => rmSync(dir, { recursive: true, force: true }));

const COUNTRIES = [
  'Chile',
  'Ghana',
  'India',
  'Japan',
  'Kenya',
  'Mexico',
  'Peru',
  'Spain',
  'Togo',
  'Yemen',
];
/** 2001 to 2020 for every country; 2000 and 2021 for two of them only. */
const YEARS = Array.from({ length: 22 }, (_, i) => 2000 + i);

/** Populations in millions: countries of very different sizes. */
const BASE = [19, 31, 1380, 126, 53, 128, 33, 47, 8, 30];

/** A country's population: growing, with a dip now and then (a level, not a running total). */
function value(k: number, i: number): number {
  const base = BASE[k] ?? 1;
  return Math.round(base * 1e6 * (1 + 0.01 * i) - ((i * (k + 2)) % 5) * base * 4e3);
}

function write(name: string, rows: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${['country,year,population', ...rows].join('\n')}\n`);
  return path;
}

/**
 * Every country in 2001 to 2020; in 2000 and 2021 two of them only, the others' rows there
 * `blank` (a World Bank file melted: a row per country and year, its value empty) or `absent`.
 */
function panel(others: 'blank' | 'absent'): string {
  const rows = COUNTRIES.flatMap((country, k) =>
    YEARS.flatMap((year, i) =>
      (i === 0 || i === 21) && k >= 2
        ? others === 'blank'
          ? [`${country},${year},`]
          : []
        : [`${country},${year},${value(k, i)}`],
    ),
  );
  return write(`${others}.csv`, rows);
}

/** The charts' filters by title, as analyze --json derives them. */
function filtersOf(path: string): Record<string, unknown> {
  const json = analyzeJson<{
    charts: { title: string; derivation: { filter: unknown[] | null } }[];
  }>(path, 'duckdb', join(dir, 'filters.html'));
  return Object.fromEntries(json.charts.map((c) => [c.title, c.derivation.filter]));
}

void test('a yearly panel ranks its countries in the last year nearly all report, in both engines', () => {
  const path = panel('blank');
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const { charts, findings } = both.duck;
  assert.ok(charts.includes('Population by country in 2020'), charts.join('\n'));
  // The highest 2020 value: each country's own, not its average over the years.
  const in2020 = COUNTRIES.map((c, k) => ({ c, v: value(k, 20) })).sort((a, b) => b.v - a.v);
  const top = in2020[0] as { c: string; v: number };
  const lowest = in2020.at(-1) as { c: string; v: number };
  const said = `${top.c} has the highest population in 2020 (${top.v.toLocaleString('en-US')}); ${lowest.c} the lowest (${lowest.v.toLocaleString('en-US')})`;
  assert.ok(
    findings.some((f) => f.startsWith(said)),
    `${said}\n${findings.join('\n')}`,
  );
  // The total over the countries runs from 2001 to 2020: 2000 and 2021 hold two countries only.
  const total = (i: number): number => COUNTRIES.reduce((sum, _, k) => sum + value(k, i), 0);
  const grew = `Population grew ${(((total(20) - total(1)) / total(1)) * 100).toFixed(1)}% from 2001 to 2020 (${total(1).toLocaleString('en-US')} → ${total(20).toLocaleString('en-US')}).`;
  assert.ok(findings.includes(grew), `${grew}\n${findings.join('\n')}`);
  const filters = filtersOf(path);
  assert.deepEqual(filters['Population by country in 2020'], [
    { column: 'year', op: '==', value: 2020 },
  ]);
  assert.deepEqual(filters['Population per year'], [
    { column: 'year', op: '>=', value: 2001 },
    { column: 'year', op: '<=', value: 2020 },
  ]);
});

void test('the text a model reads says which years to rank and to total', async () => {
  const profile = await duckProfile(panel('blank'));
  assert.match(
    profileText(profile),
    /Reported years: population has a value for nearly every country from 2001 to 2020; rank them as of 2020 \(filter year == 2020\)/,
  );
});

void test('a year with fewer rows but a value on each misses nothing: its total is kept', () => {
  const path = panel('absent');
  const filters = filtersOf(path);
  // Ranked in the last year nearly every country has a value; the total runs over every year.
  assert.deepEqual(filters['Population by country in 2020'], [
    { column: 'year', op: '==', value: 2020 },
  ]);
  assert.equal(filters['Population per year'], null);
});

void test('a panel with two rows for some country and year averages them, over every year', () => {
  const rows = COUNTRIES.flatMap((country, k) =>
    YEARS.slice(1, 21).map((year, i) => `${country},${year},${value(k, i + 1)}`),
  );
  const path = write('repeated.csv', [...rows, `Chile,2005,${value(0, 5) + 7}`]);
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(duck, pandas);
  assert.ok(!duck.charts.some((c) => / in 20\d\d$/.test(c)), duck.charts.join('\n'));
});

void test("a model's yearly total of the panel keeps to the reported years, and leaves out the groups", async () => {
  const rows = COUNTRIES.flatMap((country, k) =>
    YEARS.map((year, i) =>
      (i === 0 || i === 21) && k >= 2 ? `${country},${year},` : `${country},${year},${value(k, i)}`,
    ),
  );
  const world = YEARS.map(
    (year, i) => `World,${year},${COUNTRIES.reduce((sum, _, k) => sum + value(k, i), 0)}`,
  );
  const profile = await duckProfile(write('model.csv', [...rows, ...world]));
  const plan = {
    notes: [],
    analyses: [
      {
        title: 'Population per year',
        why: 'How the population grows.',
        chart: 'line',
        transform: { type: 'resample', date: 'year', freq: 'Y', measure: 'population', agg: 'sum' },
      },
    ],
  };
  const result = await modelPlan(profile, plan);
  assert.equal(result.planner, 'llm');
  assert.deepEqual(result.plan.analyses[0]?.filters, [
    { column: 'country', op: 'not in', value: ['World'] },
    { column: 'year', op: '>=', value: 2001 },
    { column: 'year', op: '<=', value: 2020 },
  ]);
  assert.match(result.plan.analyses[0]?.why ?? '', /Only 2001 to 2020: /);
});
