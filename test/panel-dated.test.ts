/**
 * A dated panel (one row per store and month) whose last months are not reported yet — a row for
 * every store, revenue blank for most — totals its stores only over the months nearly all of them
 * report: a month with three stores of eight reporting is no total ("revenue fell 62%"), and a
 * ranking of the stores' totals would put the three first by a month more than the others. Both
 * engines alike; a store opening late (no rows before) misses nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { profileText } from '../src/agent/profile-text.js';
import { analyzeJson, bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-panel-dated-');
after(() => rmSync(dir, { recursive: true, force: true }));

const STORES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
/** Jan 2023 to Dec 2024. */
const MONTHS = Array.from({ length: 24 }, (_, i) => {
  const [year, month] = [2023 + Math.floor(i / 12), (i % 12) + 1];
  return `${year}-${String(month).padStart(2, '0')}-01`;
});

/** A store's revenue in month `i`: stores of different sizes, a little movement, whole numbers. */
const revenue = (k: number, i: number): number => 900 + 20 * k + ((i * (k + 3)) % 7) * 11 + 3 * i;

/**
 * Every store every month; revenue blank from Oct 2024 (i ≥ 21) for all, and in Sep 2024 (i = 20)
 * for stores A to E. `late`: store H has no rows before Jul 2023 instead, and no blanks.
 */
function panel(name: string, late = false): string {
  const rows = STORES.flatMap((store, k) =>
    MONTHS.flatMap((month, i) => {
      if (late) return k === 7 && i < 6 ? [] : [`${month},${store},${revenue(k, i)}`];
      const blank = i >= 21 || (i === 20 && k < 5);
      return [`${month},${store},${blank ? '' : revenue(k, i)}`];
    }),
  );
  const path = join(dir, name);
  writeFileSync(path, `${['month,store,revenue', ...rows].join('\n')}\n`);
  return path;
}

type Charts = { charts: { title: string; derivation: { filter: unknown[] | null } }[] };
/** The summary written beside a report: its spec holds each chart's note. */
type Summary = { spec: { charts: { params: { title?: string; note?: string } }[] } };

const AUG = { column: 'month', op: '<=', value: '2024-08-01 00:00:00' };

void test('a dated panel totals its stores over the months nearly all report, in both engines', () => {
  const path = panel('thin.csv');
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const total = (i: number): number => STORES.reduce((sum, _, k) => sum + revenue(k, i), 0);
  const [first, last] = [total(0), total(19)];
  const fell = first > last ? 'fell' : 'grew';
  const said = `Revenue ${fell} ${((Math.abs(last - first) / first) * 100).toFixed(1)}% from Jan 2023 to Aug 2024 (${first.toLocaleString('en-US')} → ${last.toLocaleString('en-US')}).`;
  assert.ok(both.duck.findings.includes(said), `${said}\n${both.duck.findings.join('\n')}`);
  assert.ok(!both.duck.findings.some((f) => /Sep 2024/.test(f)), both.duck.findings.join('\n'));
  // The stores ranked by their totals of the same 20 months: the three that reported September
  // do not lead by it.
  const totals = STORES.map((s, k) => ({
    s,
    v: MONTHS.slice(0, 20).reduce((sum, _, i) => sum + revenue(k, i), 0),
  })).sort((a, b) => b.v - a.v);
  const all = totals.reduce((sum, t) => sum + t.v, 0);
  const lead = totals[0] as { s: string; v: number };
  const share = `${lead.s} accounts for ${((lead.v / all) * 100).toFixed(1)}% of revenue (${lead.v.toLocaleString('en-US')} of ${all.toLocaleString('en-US')})`;
  assert.ok(
    both.duck.findings.some((f) => f.startsWith(share)),
    `${share}\n${both.duck.findings.join('\n')}`,
  );
  for (const engine of ['duckdb', 'pandas']) {
    const json = analyzeJson<Charts>(path, engine, join(dir, `thin-${engine}.html`));
    const filters = Object.fromEntries(json.charts.map((c) => [c.title, c.derivation.filter]));
    assert.deepEqual(filters['Revenue per month'], [AUG], engine);
    assert.deepEqual(filters['Revenue by store'], [AUG], engine);
    const summary = JSON.parse(readFileSync(join(dir, `thin-${engine}.json`), 'utf8')) as Summary;
    const notes = summary.spec.charts.map((c) => `${c.params.title}: ${c.params.note}`);
    assert.ok(
      notes.some(
        (n) =>
          n.startsWith('Revenue by store: ') &&
          n.includes(
            'Totals of Jan 2023 to Aug 2024 only: in the other months fewer than 90% of store values have revenue',
          ),
      ),
      notes.join('\n'),
    );
  }
});

void test('the text a model reads says which months to total over', async () => {
  const profile = await duckProfile(panel('model.csv'));
  assert.match(
    profileText(profile),
    /Reported periods: revenue has a value for nearly every store from 2023-01-01 00:00:00 to 2024-08-01 00:00:00 only; total it over those periods \(filter month >= "2023-01-01 00:00:00" and <= "2024-08-01 00:00:00"\)/,
  );
  // A panel reported throughout says nothing of it.
  const whole = await duckProfile(panel('whole-model.csv', true));
  assert.doesNotMatch(profileText(whole), /Reported periods/);
});

void test('a store with no rows before it opened misses nothing: every month is totalled', () => {
  const path = panel('late.csv', true);
  const json = analyzeJson<Charts>(path, 'duckdb', join(dir, 'late.html'));
  for (const c of json.charts) assert.equal(c.derivation.filter, null, c.title);
});

void test('a measure missing here and there inside the span is sparse, not reported late: its gaps', async () => {
  // units: blank on a fifth of the rows throughout (by a fixed pattern), and in the last months.
  const rows = STORES.flatMap((store, k) =>
    MONTHS.map((month, i) => {
      const sparse = (i * 7 + k * 3) % 5 === 0 || i >= 21;
      const blank = i >= 21 || (i === 20 && k < 5);
      return `${month},${store},${blank ? '' : revenue(k, i)},${sparse ? '' : 10 + ((i + k) % 9)}`;
    }),
  );
  const path = join(dir, 'sparse.csv');
  writeFileSync(path, `${['month,store,revenue,units', ...rows].join('\n')}\n`);
  const profile = await duckProfile(path);
  const years = profile.semantics.latest?.years ?? {};
  // revenue is reported late, not sparse: no gaps inside Jan 2023 to Aug 2024.
  assert.deepEqual(years.revenue, {
    from: '2023-01-01 00:00:00',
    to: '2024-08-01 00:00:00',
    latest: '2024-08-01 00:00:00',
  });
  // units' span is every month it has a value in (to Sep 2024), its blanks inside it its gaps:
  // one or two stores of eight a month, two first in Jan 2023.
  let cells = 0;
  for (let i = 0; i <= 20; i += 1)
    for (let k = 0; k < STORES.length; k += 1) if ((i * 7 + k * 3) % 5 === 0) cells += 1;
  assert.deepEqual(years.units, {
    from: '2023-01-01 00:00:00',
    to: '2024-09-01 00:00:00',
    // Sep 2024: six values of eight, the fullest months seven: the last full month is August.
    latest: '2024-08-01 00:00:00',
    gaps: { cells, periods: 21, at: '2023-01-01 00:00:00', missing: 2, rows: 8 },
  });
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
});
