/**
 * Fields of the calendar stored as numbers (a month 1–12 beside a year column) are places in a
 * cycle, not amounts: never summed, averaged or drawn as a distribution; a count of days named
 * so (days_to_ship) is still a measure.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { usedColumns } from '../src/agent/compile-plan.js';
import { tempDir } from './helpers/fixtures.js';
import { duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-calendar-');

function ledgerCsv(): string {
  const rows: string[] = [];
  for (let year = 2019; year <= 2023; year += 1)
    for (let month = 1; month <= 12; month += 1)
      for (const [r, region] of ['North', 'South', 'East'].entries())
        rows.push(
          `${year},${month},${1 + ((year * 7 + month * 3 + r) % 4)},${region},${1 + ((month * 5 + r) % 9)},${(900 + ((year * 31 + month * 17 + r * 5) % 300) * 1.5).toFixed(2)}`,
        );
  const path = join(dir, 'ledger.csv');
  writeFileSync(path, ['year,month,quarter,region,days_to_ship,sales', ...rows].join('\n') + '\n');
  return path;
}

void test('a month and a quarter stored as numbers are places in the calendar, never measures', async () => {
  const profile = await duckProfile(ledgerCsv());
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('month')?.role, 'code');
  assert.match(role('month')?.evidence ?? '', /named as a month: a place in the calendar/);
  assert.equal(role('quarter')?.role, 'code');
  assert.notEqual(role('days_to_ship')?.role, 'code', 'a count of days is a measure');
  const plan = heuristicPlan(profile);
  const measured = plan.analyses.flatMap((a) =>
    a.transform.type === 'distribution' || a.transform.type === 'summary'
      ? []
      : usedColumns(a.transform).filter((c) => ['month', 'quarter'].includes(c)),
  );
  assert.deepEqual(measured, []);
  assert.ok(
    !plan.analyses.some(
      (a) =>
        a.transform.type === 'distribution' && ['month', 'quarter'].includes(a.transform.column),
    ),
    'no distribution of a month',
  );
  assert.ok(
    plan.analyses.some((a) => a.transform.type === 'resample' && a.transform.measure === 'sales'),
  );
});
