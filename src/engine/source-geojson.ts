/**
 * GeoJSON: a FeatureCollection is a table of its features, one row each: the feature's
 * properties as columns, its "id" (unless a property has that name), and for a Point its
 * "longitude" and "latitude" (and a third coordinate as "z"; other geometries add no column). The
 * rows are written as JSON lines
 * by DuckDB itself, every number as the file wrote it, and then read as any JSON lines file is
 * (opsmind_data._read_geojson builds the same lines for the sandbox's `df`).
 */
import { literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { scratchPath } from './source-common.js';
import type { ReadContext } from './source-common.js';

/**
 * Whether the start of a file may be GeoJSON: one object, naming a FeatureCollection or its
 * features early (the whole document is parsed only then).
 */
export function geoJsonHead(sample: string): boolean {
  return (
    sample.trimStart().startsWith('{') &&
    (sample.includes('"FeatureCollection"') || sample.includes('"features"'))
  );
}

/** The whole document as one JSON value, however large (DuckDB's default stops at 16 MB). */
export function documentSql(path: string, bytes: number): string {
  return `read_json_objects(${literal(path)}, format='unstructured', maximum_object_size=${Math.max(bytes + 1, 16 << 20)})`;
}

/** How many features the file holds when it is one GeoJSON FeatureCollection; else null. */
async function collectionSize(
  db: DuckDb,
  path: string,
  bytes: number,
  signal?: AbortSignal,
): Promise<number | null> {
  try {
    const result = await db.all(
      `SELECT json ->> '$.type' = 'FeatureCollection' AND json_type(json, '$.features') = 'ARRAY' AS geo, json_array_length(json, '$.features') AS features, count(*) OVER () AS n FROM ${documentSql(path, bytes)} LIMIT 1`,
      signal,
    );
    const [geo, features, n] = result.rows[0] ?? [];
    return geo === true && Number(n) === 1 ? Number(features) : null;
  } catch {
    signal?.throwIfAborted();
    return null;
  }
}

const NUMBER_TYPES = `('UBIGINT', 'BIGINT', 'DOUBLE')`;
const LON_LAT = `'longitude', f -> '$.geometry.coordinates[0]', 'latitude', f -> '$.geometry.coordinates[1]'`;

/**
 * One feature's row: its properties, then the id and a Point's coordinates where they apply; a
 * third coordinate as "z" (an altitude, or the depth of USGS's earthquakes), unless a property
 * has that name.
 */
const ROW_SQL = `CASE WHEN f ->> '$.geometry.type' = 'Point'
    AND json_type(f, '$.geometry.coordinates[0]') IN ${NUMBER_TYPES}
    AND json_type(f, '$.geometry.coordinates[1]') IN ${NUMBER_TYPES}
  THEN json_merge_patch(r, CASE WHEN json_type(f, '$.geometry.coordinates[2]') IN ${NUMBER_TYPES} AND NOT json_exists(r, '$.z')
    THEN json_object(${LON_LAT}, 'z', f -> '$.geometry.coordinates[2]')
    ELSE json_object(${LON_LAT}) END)
  ELSE r END`;
const WITH_ID_SQL = `CASE WHEN json_type(f, '$.id') IN ('VARCHAR', 'UBIGINT', 'BIGINT', 'DOUBLE') AND NOT json_exists(p, '$.id')
  THEN json_merge_patch(p, json_object('id', f -> '$.id')) ELSE p END`;

/**
 * When the file is a GeoJSON FeatureCollection, writes its features as JSON lines into the
 * scratch directory and returns that file (and how many features it holds); else null.
 */
export async function featureLines(
  ctx: ReadContext,
  path: string,
  bytes: number,
): Promise<{ path: string; features: number } | null> {
  const size = await collectionSize(ctx.db, path, bytes, ctx.signal);
  if (size === null) return null;
  const features = `SELECT unnest(json_extract(json, '$.features[*]')) AS f FROM ${documentSql(path, bytes)}`;
  const props = `SELECT f, CASE json_type(f, '$.properties') WHEN 'OBJECT' THEN f -> '$.properties' ELSE '{}'::JSON END AS p FROM (${features})`;
  const rows = `SELECT ${ROW_SQL} AS row FROM (SELECT f, ${WITH_ID_SQL} AS r FROM (${props}))`;
  return { path: await jsonLines(ctx, rows), features: size };
}

/**
 * Writes the JSON values of `rows` (a query of one JSON column) as JSON lines into the scratch
 * directory, each as written, and returns that file.
 */
export async function jsonLines(ctx: ReadContext, rows: string): Promise<string> {
  const out = scratchPath(ctx, '.jsonl');
  // One JSON text a line, as written (a JSON text holds no raw newline or control character).
  await ctx.db.run(
    `COPY (${rows}) TO ${literal(out)} (FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER '\x1f')`,
    ctx.signal,
  );
  return out;
}
