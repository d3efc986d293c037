/**
 * The line and area preparers' point cap (opsmind_chart_line._cap_points) in
 * SQL: past the cap, each series keeps the first, highest and lowest point
 * of each of its buckets, so peaks and troughs survive; with more series
 * than a third of the cap, the largest (by the sum of |y|) are kept.
 */
import type { Declaration } from '../spec/schema.js';
import { ident } from './duckdb.js';
import { freshName, idents } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

type Reduction = Declaration['data']['reductions'][number];

/** The series frame's columns (the CTE `series`). */
export interface SeriesColumns {
  date: Column;
  series: Column | null;
  y: string;
}

interface Names {
  pos: string;
  i: string;
  n: string;
  seen: string;
  bucket: string;
  first: string;
  high: string;
  low: string;
}

// Helper columns, named apart from the frame's own.
function helperNames(s: SeriesColumns): Names {
  const taken = [s.date.name, s.y, ...(s.series ? [s.series.name] : [])];
  const name = (base: string): string => ident(freshName(base, taken));
  return {
    pos: name('_pos'),
    i: name('_i'),
    n: name('_n'),
    seen: name('_seen'),
    bucket: name('_bucket'),
    first: name('_first'),
    high: name('_high'),
    low: name('_low'),
  };
}

// `PARTITION BY a, b ` (with its trailing space), or nothing.
function partitionBy(keys: readonly string[]): string {
  return keys.length ? `PARTITION BY ${keys.join(', ')} ` : '';
}

/** Position in the frame, then in its series (with the series' size and first position). */
function memberCtes(s: SeriesColumns, h: Names, g: string | null): Cte[] {
  const part = partitionBy(g ? [g] : []);
  const order = `${ident(s.date.name)}${g ? `, ${g}` : ''}`;
  return [
    ['numbered', `SELECT *, row_number() OVER (ORDER BY ${order}) - 1 AS ${h.pos}\nFROM series`],
    [
      'members',
      [
        `SELECT *, row_number() OVER (${part}ORDER BY ${h.pos}) - 1 AS ${h.i},`,
        `  count(*) OVER (${part.trim()}) AS ${h.n},`,
        `  min(${h.pos}) OVER (${part.trim()}) AS ${h.seen}`,
        'FROM numbered',
      ].join('\n'),
    ],
  ];
}

/** Each row's bucket, and whether it is its bucket's first, highest or lowest. */
function markCtes(
  s: SeriesColumns,
  h: Names,
  g: string | null,
  buckets: number,
  from: string,
): Cte[] {
  const y = ident(s.y);
  const inBucket = partitionBy([...(g ? [g] : []), h.bucket]);
  return [
    ['bucketed', `SELECT *, ${h.i} * ${buckets} // ${h.n} AS ${h.bucket}\n${from}`],
    [
      'marked',
      [
        `SELECT *, row_number() OVER (${inBucket}ORDER BY ${h.i}) AS ${h.first},`,
        `  row_number() OVER (${inBucket}ORDER BY ${y} DESC NULLS LAST, ${h.i}) AS ${h.high},`,
        `  row_number() OVER (${inBucket}ORDER BY ${y} ASC NULLS LAST, ${h.i}) AS ${h.low}`,
        'FROM bucketed',
      ].join('\n'),
    ],
  ];
}

/** The downsampled frame over the CTE `series`, which holds `groups` series, capped at `cap` points. */
export function downsampledSql(
  s: SeriesColumns,
  cap: number,
  groups: number,
): { ctes: Cte[]; body: string; reductions: Reduction[] } {
  const h = helperNames(s);
  const y = ident(s.y);
  const g = s.series ? ident(s.series.name) : null;
  const trimmed = g !== null && groups > Math.floor(cap / 3);
  const kept = trimmed ? Math.floor(cap / 3) : groups;
  const per = Math.max(3, Math.floor(cap / Math.max(1, kept)));
  const ctes = memberCtes(s, h, g);
  let from = 'FROM members';
  if (trimmed && g) {
    const largest = `SELECT ${g}\nFROM members\nGROUP BY ${g}\nORDER BY coalesce(sum(abs(${y})), 0) DESC, min(${h.seen})\nLIMIT ${kept}`;
    ctes.push(['largest', largest]);
    from = `FROM members\nSEMI JOIN largest USING (${g})`;
  }
  ctes.push(...markCtes(s, h, g, Math.max(1, Math.floor(per / 3)), from));
  const body = [
    `SELECT ${idents([s.date.name, ...(s.series ? [s.series.name] : []), s.y])}`,
    'FROM marked',
    `WHERE ${h.n} <= ${per} OR ${h.first} = 1 OR (${y} IS NOT NULL AND (${h.high} = 1 OR ${h.low} = 1))`,
    `ORDER BY ${h.seen}, ${h.pos}`,
  ].join('\n');
  return { ctes, body, reductions: trimmed ? ['top_n', 'downsampled'] : ['downsampled'] };
}
