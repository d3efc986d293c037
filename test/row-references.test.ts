/**
 * A number naming another row of the table (a tree's parent, an employee's reports_to) is a
 * label: never averaged or drawn as a distribution; a rating by a manager stays a measure.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { usedColumns } from '../src/agent/compile-plan.js';
import { ROOT, seeded, tempDir } from './helpers/fixtures.js';
import { bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-references-');

/** An org chart: each employee's id, manager (an earlier id), a rating by the manager, a salary. */
function staffCsv(keyed: boolean): string {
  const random = seeded(11);
  const rows = [`${keyed ? 'employee_id,' : ''}name,reports_to,manager_rating,salary`];
  for (let id = 1; id <= 300; id += 1) {
    const boss = id === 1 ? '' : String(1 + Math.floor(random() * Math.min(id - 1, 40)));
    const rating = 1 + Math.floor(random() * 5);
    const salary = (42_000 + random() * 60_000).toFixed(2);
    rows.push(`${keyed ? `${id},` : ''}Person ${id},${boss},${rating},${salary}`);
  }
  const path = join(dir, keyed ? 'staff.csv' : 'staff-nokey.csv');
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}

void test('a reports_to of whole numbers beside a key of the rows is a code; a manager_rating is not', async () => {
  const profile = await duckProfile(staffCsv(true));
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('employee_id')?.role, 'identifier');
  assert.equal(role('reports_to')?.role, 'code');
  assert.match(
    role('reports_to')?.evidence ?? '',
    /named as a reference to another row, beside "employee_id", a whole-number key of the 300 rows/,
  );
  assert.notEqual(role('manager_rating')?.role, 'code', 'a rating by the manager is a measure');
  const plan = heuristicPlan(profile);
  assert.ok(
    !plan.analyses.some((a) => usedColumns(a.transform).includes('reports_to')),
    'nothing averages, sums or draws the distribution of a reference',
  );

  const keyless = await duckProfile(staffCsv(false));
  assert.notEqual(
    keyless.semantics.columns.find((c) => c.name === 'reports_to')?.role,
    'code',
    'without a key of the rows the name alone settles nothing',
  );
});

void test('flare.json: a node’s parent is no measure (both engines)', () => {
  const file = join(ROOT, 'node_modules', 'vega-datasets', 'data', 'flare.json');
  const { duck, pandas } = bothEngines(file, tempDir('opsmind-references-flare-'));
  assert.deepEqual(pandas, duck);
  assert.deepEqual(duck.charts, ['Distribution of size']);
  for (const text of duck.findings) assert.doesNotMatch(text, /parent/i, text);
  assert.match(duck.findings[0] ?? '', /^The median size is 2,774;/);
});

void test('whole numbers beside a column naming them ("dept" and "dept_name") are a code; units beside product_name are not', async () => {
  const random = seeded(5);
  const depts = ['Sales', 'Legal', 'Research', 'Support', 'Finance', 'Ops'];
  const rows = ['dept,dept_name,product_name,units,cost'];
  for (let i = 0; i < 240; i += 1) {
    const d = Math.floor(random() * depts.length);
    rows.push(
      `${d + 1},${depts[d]},Item ${i % 30},${1 + Math.floor(random() * 40)},${(random() * 900).toFixed(2)}`,
    );
  }
  const path = join(dir, 'depts.csv');
  writeFileSync(path, rows.join('\n') + '\n');
  const profile = await duckProfile(path);
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('dept')?.role, 'code');
  assert.match(
    role('dept')?.evidence ?? '',
    /^whole numbers 1 to 6 beside "dept_name", which names them$/,
  );
  assert.notEqual(role('units')?.role, 'code');
  assert.ok(
    !heuristicPlan(profile).analyses.some((a) =>
      a.transform.type === 'distribution' ? a.transform.column === 'dept' : false,
    ),
  );
});
