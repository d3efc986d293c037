/**
 * The property over what fast mode actually draws: for every chart of every corpus file (real
 * DuckDB, the heuristic plan executed), read its frame and its derivation — no level, ratio or
 * running total is summed, no period is finer than the data's, every value of a mean, median, min
 * or max line or bar lies within its column's range, and every count over a whole category or over
 * time adds up to the rows it used.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { provenanceOf } from '../src/agent/provenance.js';
import { semanticsOf } from '../src/agent/semantics.js';
import { DuckDbEngine } from '../src/engine/duckdb-engine.js';
import { ROOT } from './helpers/fixtures.js';

const VEGA = join(ROOT, 'node_modules', 'vega-datasets', 'data');
const FILES = [
  ...[
    'cars.json',
    'penguins.json',
    'stocks.csv',
    'disasters.csv',
    'airports.csv',
    'gapminder.json',
    'global-temp.csv',
    'iowa-electricity.csv',
    'seattle-weather.csv',
    'population.json',
    'birdstrikes.csv',
    'movies.json',
  ].map((f) => join(VEGA, f)),
  ...['sales.csv', 'air-quality.csv', 'umsatz-filialen.csv'].map((f) => join(ROOT, 'examples', f)),
];
const ORDER = ['h', 'D', 'W', 'MS', 'QS', 'YS'];

void test('property over the drawn frames: right aggregation, right period, values in range, counts add up', async () => {
  let checked = 0;
  let counts = 0;
  for (const file of FILES) {
    const engine = await DuckDbEngine.open({
      dataPath: file,
      memoryMb: 512,
      maxTempMb: 1024,
      scratchDir: mkdtempSync(join(tmpdir(), 'opsmind-frames-')),
    });
    try {
      const { profile } = await engine.profile(file.split('/').at(-1) ?? 'data');
      const sem = semanticsOf(profile);
      const plan = heuristicPlan(profile);
      const executed = await engine.execute(plan, profile, {
        step: 3,
        usedIds: {},
        storedBytes: 0,
        planner: 'heuristic',
      });
      assert.ok(executed.spec, file);
      const provenance = provenanceOf(
        profile,
        plan,
        executed.spec,
        executed.insights.failed,
        executed.rowsUsed,
      );
      const decls = [...executed.spec.charts, ...executed.spec.tables];
      assert.equal(provenance.derivations.length, decls.length, `${file}: every item derived`);
      for (const { id, analysis, derivation: d } of provenance.derivations) {
        const label = `${file.split('/').at(-1)} ${id} (${plan.analyses[analysis - 1]?.title})`;
        const decl = decls.find((x) => x.id === id);
        assert.ok(decl);
        const role = sem.columns.find((c) => c.name === d.measure)?.role;
        if (d.agg === 'sum')
          assert.ok(
            !['level', 'ratio', 'cumulative'].includes(role ?? ''),
            `${label} sums a ${role}`,
          );
        if (d.time && sem.table.time?.column === d.time.column && sem.table.time.freq !== 'none')
          assert.ok(
            ORDER.indexOf(d.time.freq) >= ORDER.indexOf(sem.table.time.freq),
            `${label}: per ${d.time.freq}, finer than the data's ${sem.table.time.freq}`,
          );
        const file_ = executed.files.find((f) => f.name === decl.data.file);
        if (!file_ || decl.data.error) continue;
        const frame = JSON.parse(file_.content.toString('utf8')) as {
          columns: string[];
          data: unknown[][];
        };
        const column = profile.column_profiles.find((c) => c.name === d.measure);
        const stats = column?.numeric ?? column?.numeric_text?.stats;
        if (['mean', 'median', 'min', 'max'].includes(d.agg) && stats && d.measure) {
          const at = frame.columns.lastIndexOf(d.measure);
          assert.ok(at >= 0, `${label}: the frame holds ${d.measure}`);
          const slack = 1e-9 * Math.max(Math.abs(stats.min), Math.abs(stats.max), 1);
          for (const row of frame.data) {
            const v = row[at];
            if (typeof v !== 'number') continue;
            assert.ok(
              v >= stats.min - slack && v <= stats.max + slack,
              `${label}: ${v} outside ${stats.min}…${stats.max}`,
            );
          }
          checked += 1;
        }
        if (
          d.agg === 'count' &&
          d.measure === null &&
          d.rows_used !== null &&
          !d.filter &&
          !d.cycle
        ) {
          const at = frame.columns.lastIndexOf('count');
          if (at < 0) continue;
          const total = frame.data.reduce((n, row) => n + Number(row[at] ?? 0), 0);
          const key = d.time?.column ?? d.group_by[0];
          const missing = profile.column_profiles.find((c) => c.name === key)?.missing ?? 0;
          assert.ok(
            total === d.rows_used || total === d.rows_used - missing,
            `${label}: counts add up to ${total}, not the ${d.rows_used} rows used (${missing} missing)`,
          );
          counts += 1;
        }
      }
    } finally {
      engine.close();
    }
  }
  assert.ok(checked >= 8, `${checked} mean/median/min/max frames checked`);
  assert.ok(counts >= 4, `${counts} count frames checked`);
});
