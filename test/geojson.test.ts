/**
 * GeoJSON FeatureCollections (src/engine/source-geojson.ts, opsmind_data._read_geojson): one row
 * per feature, its properties as columns, its id and a Point's longitude and latitude, read alike
 * by the DuckDB engine and the sandbox's pandas reader; the vega earthquakes file end to end.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { attachSource } from '../src/engine/source.js';
import { tableRows, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { bothEngines, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-geojson-');
const scratchDir = join(dir, 'scratch');
const database = testDatabase(dir);

// Nulls, an id beside a property named id, a Polygon (no coordinates), a Point with a third
// coordinate, 2.0 beside 2, an object property (spread), and text that is not ASCII.
const COLLECTION = `{
  "type": "FeatureCollection",
  "metadata": {"title": "test"},
  "features": [
    {"type": "Feature", "id": "q1", "properties": {"mag": 2.0, "place": "Łódź", "felt": null, "site": {"code": "A", "n": 1}},
     "geometry": {"type": "Point", "coordinates": [-118.5, 34.25, 7.1]}},
    {"type": "Feature", "id": 7, "properties": {"mag": 3.5, "place": "Castaic, CA", "felt": 4, "id": "own"},
     "geometry": {"type": "Point", "coordinates": [-150, 61.5]}},
    {"type": "Feature", "properties": {"mag": 1, "place": "area", "felt": null},
     "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}},
    {"type": "Feature", "properties": null, "geometry": null}
  ]
}`;

void test('a FeatureCollection is read as its features, the same by DuckDB and by pandas', async () => {
  const path = join(dir, 'quakes.json');
  writeFileSync(path, COLLECTION);
  const info = await attachSource(database(), path, { scratchDir });
  assert.match(info.warnings.join('\n'), /read as GeoJSON: one row per feature \(4\)/);
  const rows = await tableRows(database());
  assert.deepEqual(Object.keys(rows[0] ?? {}), [
    'mag',
    'place',
    'felt',
    'site.code',
    'site.n',
    'id',
    'longitude',
    'latitude',
    'z',
  ]);
  assert.deepEqual(
    rows.map((r) => [r.mag, r.place, r.felt, r.id, r.longitude, r.latitude, r.z]),
    [
      [2, 'Łódź', null, 'q1', -118.5, 34.25, 7.1],
      [3.5, 'Castaic, CA', 4, 'own', -150, 61.5, null],
      [1, 'area', null, null, null, null, null],
      [null, null, null, null, null, null, null],
    ],
  );
  mkdirSync(scratchDir, { recursive: true });
  assert.deepEqual(readdirSync(scratchDir), [], 'the lines written for the read are removed');
  const pandas = pandasRead<{ columns: string[]; rows: unknown[][]; warnings: string[] }>(
    path,
    'print(json.dumps({"columns": list(df.columns), "rows": json.loads(df.to_json(orient="values")), "warnings": w}))',
  );
  assert.deepEqual(pandas.columns, Object.keys(rows[0] ?? {}));
  assert.deepEqual(
    pandas.rows,
    rows.map((r) => Object.values(r)),
  );
  assert.deepEqual(pandas.warnings, info.warnings);
});

void test('JSON that is an object but not a FeatureCollection is still refused in one line', async () => {
  const path = join(dir, 'object.json');
  writeFileSync(path, '{"type": "Topology", "objects": {}}\n{"broken": ');
  await assert.rejects(attachSource(database(), path, { scratchDir }), /not a JSON records file/);
});

void test('the vega earthquakes (USGS GeoJSON): both engines chart it alike', () => {
  const file = join(
    import.meta.dirname,
    '..',
    'node_modules',
    'vega-datasets',
    'data',
    'earthquakes.json',
  );
  const { duck, pandas } = bothEngines(file, dir);
  assert.ok(duck.charts.length >= 5, duck.charts.join('; '));
  assert.deepEqual(pandas.charts, duck.charts);
  assert.deepEqual(pandas.findings, duck.findings);
});
