/**
 * A question asking for a cycle — the hours of the day, the days of the week, the months of the
 * year — is a seasonal profile, not a line of every period; only where the data is fine and long
 * enough for the cycle to repeat. And a column of many members a question names is what it ranks,
 * never the data's first category instead.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { cycleAsked } from '../src/agent/question-cycles.js';
import { describeData } from '../src/agent/semantics.js';
import { ROOT, tempDir } from './helpers/fixtures.js';
import { askedAlike } from './helpers/semantics.js';
import { col, date, SALES } from './helpers/profiles.js';

const r = { semantics: describeData(SALES) };

void test('the cycle a question asks for, where the data can give it', () => {
  // `date` holds two years of days.
  assert.equal(cycleAsked('revenue by day of week', date, r), 'weekday');
  assert.equal(cycleAsked('orders on weekdays', date, r), 'weekday');
  assert.equal(cycleAsked('revenue by month of the year', date, r), 'month');
  assert.equal(cycleAsked('seasonality of revenue', date, r), 'month');
  // Days have no hours; a trend by month is no cycle.
  assert.equal(cycleAsked('revenue by hour', date, r), null);
  assert.equal(cycleAsked('revenue by month', date, r), null);
  // Four months of days do not make a year of months.
  const short = col('order_date', 'datetime', {
    distinct: 120,
    datetime: { ...date.datetime!, max: '2023-04-30', span_days: 120 },
  });
  assert.equal(cycleAsked('revenue by month of year', short, r), null);
  const plan = heuristicPlan(SALES, 'revenue by day of week').analyses[0];
  assert.equal(plan?.transform.type, 'season');
  assert.equal(plan?.chart, 'bar');
  assert.match(plan?.why ?? '', /By day of the week \(order_date\): each day's total of revenue/);
});

void test('analyze -q: delays by hour of the day, and the directors a question ranks, in both engines', () => {
  const dir = tempDir('opsmind-cycles-');
  const vega = join(ROOT, 'node_modules', 'vega-datasets', 'data');
  const [flights, movies] = [join(vega, 'flights-20k.json'), join(vega, 'movies.json')];
  const hours = askedAlike(flights, dir, 'average delay by hour');
  assert.equal(hours.charts[0]?.kind, 'bar');
  assert.deepEqual(hours.charts[0]?.derivation.group_by, ['hour of day']);
  assert.match(hours.answer[0] ?? '', /^hour \d+ has the highest mean delay/);
  // Director is named: it is ranked (not Major Genre), and its missing values lead nothing.
  const q = 'which director has the highest worldwide gross';
  const directors = askedAlike(movies, dir, q);
  assert.deepEqual(directors.charts[0]?.derivation.group_by, ['Director']);
  assert.match(directors.answer[0] ?? '', /^Steven Spielberg accounts for /);
});
