/**
 * A summed measure whose larger total comes of more rows, each holding less: the share and the
 * ratio of the top two are said with the rows behind them (racd10data.csv's income by offer:
 * "offer 0 has 12× the income of offer 1" came of 28× the respondents, each with less).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shareInsights } from '../src/engine/insights.js';
import type { RowCounts } from '../src/engine/insights.js';
import { preamblePython, tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

/** Rows of a group and a value: [group, value][] → the frame of sums and the row counts. */
function summed(rows: readonly [string | number | null, number | null][]) {
  const sums = new Map<string | number | null, number>();
  const counts = new Map<string | number | null, number>();
  for (const [g, v] of rows) {
    sums.set(g, (sums.get(g) ?? 0) + (v ?? 0));
    if (v !== null) counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  const frame = [...sums].map(([category, value]) => ({ category, value }));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const of = (category: unknown): number | null =>
    category === null ? null : (counts.get(category as string | number) ?? null);
  return { frame, counts: { of, total } satisfies RowCounts };
}

const repeat = <T>(n: number, make: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => make(i));

/** Cases: the rows, the group column's name, and the sentences expected. */
const CASES: {
  rows: [string | number | null, number | null][];
  by: string;
  said: string[];
}[] = [
  {
    // Many rows each holding little against few holding much: said with the rows.
    rows: [
      ...repeat(90, (i) => [0, 10 + (i % 5)] as [number, number]),
      ...repeat(10, () => [1, 40] as [number, number]),
    ],
    by: 'offer',
    said: [
      'offer 0 accounts for 73.0% of income (1,080 of 1,480), from 90.0% of the rows.',
      'offer 0 has 2.7× the income of offer 1 (1,080 vs 400) but 9.0× the rows: per row, offer 1 has more (40 vs 12 on average).',
    ],
  },
  {
    // The leader holds more per row too: the sentences as before.
    rows: [
      ...repeat(60, () => ['West', 30] as [string, number]),
      ...repeat(40, () => ['East', 24] as [string, number]),
    ],
    by: 'region',
    said: [
      'West accounts for 65.2% of income (1,800 of 2,760).',
      'West has 1.9× the income of East (1,800 vs 960).',
    ],
  },
  {
    // Rows without a value do not count; a missing group is never weighed.
    rows: [
      ...repeat(30, () => ['a', 5] as [string, number]),
      ...repeat(30, () => ['a', null] as [string, null]),
      ...repeat(10, () => ['b', 11] as [string, number]),
      ...repeat(5, () => [null, 1] as [null, number]),
    ],
    by: 'kind',
    said: [
      'a accounts for 56.6% of income (150 of 265), from 66.7% of the rows.',
      'a has 1.4× the income of b (150 vs 110) but 3.0× the rows: per row, b has more (11 vs 5 on average).',
    ],
  },
];

void test('shareInsights weighs the top two by their rows, as share_insights does given keys and values', () => {
  const program = [
    'import json, sys, pandas as pd, opsmind_insights as ins',
    'out = []',
    'for rows, by in json.load(sys.stdin):',
    '    data = pd.DataFrame(rows, columns=[by, "income"])',
    '    frame = data.groupby(by, dropna=False)["income"].agg("sum").reset_index()',
    '    out.append([f["text"] for f in ins.share_insights(frame, by, "income", "income", keys=data[by], values=data["income"])])',
    'print(json.dumps(out))',
  ].join('\n');
  const python = preamblePython<string[][]>(
    program,
    CASES.map((c) => [c.rows, c.by]),
  );
  CASES.forEach((c, i) => {
    const { frame, counts } = summed(c.rows);
    const said = shareInsights(frame, 'income', c.by, counts).map((f) => f.text);
    assert.deepEqual(said.slice(0, 2), c.said, c.by);
    assert.deepEqual(python[i]?.slice(0, 2), c.said, `python: ${c.by}`);
    // Without the rows, the sentences say the totals alone.
    const bare = shareInsights(frame, 'income', c.by).map((f) => f.text);
    assert.ok(
      bare.every((t) => !t.includes('rows')),
      bare.join('\n'),
    );
  });
});

void test('both engines say a sum of respondents by a flag with the rows behind it', () => {
  const dir = tempDir('opsmind-per-row-');
  const path = join(dir, 'survey.csv');
  const lines = ['offer,age,income'];
  for (let i = 0; i < 400; i++) {
    const offer = i % 16 === 0 ? 1 : 0;
    const income = offer ? 40 + (i % 7) * 3.5 : 8 + ((i * 7) % 23) * 1.25;
    lines.push(`${offer},${65 + (i % 25)},${income.toFixed(2)}`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(pandas, duck);
  const said = duck.findings.filter((f) => f.startsWith('offer 0'));
  assert.ok(
    said.some((f) => /from \d+\.\d% of the rows\.$/.test(f)) &&
      said.some((f) => /per row, offer 1 has more/.test(f)),
    duck.findings.join('\n'),
  );
});
