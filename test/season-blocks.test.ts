/**
 * A season's months are tested year by year (a two-way ANOVA within the complete years), so a
 * trend across the years is no noise between the months: a growing series with a December peak
 * has a seasonal pattern, a growing series without one does not — alike in both engines.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { blockedAnova } from '../src/engine/insights-welch.js';
import type { Cell } from '../src/engine/insights-welch.js';
import { preamblePython, seeded, tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

const dir = tempDir('opsmind-season-blocks-');

/** Cells of `blocks` blocks × `keys` keys: a level per block, an effect per key, and noise. */
function cells(blocks: number, keys: number, effect: number, seed: number): Cell[] {
  const random = seeded(seed);
  const out: Cell[] = [];
  for (let b = 0; b < blocks; b += 1)
    for (let k = 0; k < keys; k += 1)
      out.push({
        block: `y${b}`,
        key: `k${k}`,
        value: 100 + b * 25 + effect * Math.sin((2 * Math.PI * k) / keys) + (random() - 0.5) * 8,
      });
  return out;
}

void test('the two-way ANOVA within blocks: as the Python computes it, and as a least-squares fit of the additive model gives it', () => {
  const cases = [cells(6, 12, 10, 1), cells(6, 12, 0, 2), cells(3, 7, 2, 3)];
  // A block missing a key is left out; one block alone, or two keys, is no test.
  const incomplete = cells(4, 12, 10, 4).filter((c) => !(c.block === 'y3' && c.key === 'k5'));
  const ours = [...cases, incomplete].map((c) => blockedAnova(c));
  assert.equal(blockedAnova(cells(1, 12, 10, 5)), null);
  assert.equal(blockedAnova(cells(5, 2, 10, 6)), null);
  assert.equal(ours[3]?.blocks, 3);
  const theirs = preamblePython<({ f: number; p: number; blocks: number; lsq_f: number } | null)[]>(
    [
      'import json, sys, numpy as np, scipy.stats as st, opsmind_insights as i',
      'out = []',
      'for cells in json.load(sys.stdin):',
      '    keys, blocks, values = [c["key"] for c in cells], [c["block"] for c in cells], [c["value"] for c in cells]',
      '    t = i._blocked_anova(keys, blocks, values)',
      // The additive model by least squares, from the complete blocks: an independent F.
      '    full = {(c["block"], c["key"]): c["value"] for c in cells}',
      '    ks = sorted({c["key"] for c in cells}); bs = sorted(b for b in {c["block"] for c in cells} if all((b, k) in full for k in ks))',
      '    y = np.array([full[(b, k)] for b in bs for k in ks])',
      '    X = np.array([[1.0] + [float(b == x) for x in bs[1:]] + [float(k == x) for x in ks[1:]] for b in bs for k in ks])',
      '    Xb = X[:, :len(bs)]',
      '    rss = lambda A: float(np.sum((y - A @ np.linalg.lstsq(A, y, rcond=None)[0]) ** 2))',
      '    df1, df2 = len(ks) - 1, (len(ks) - 1) * (len(bs) - 1)',
      '    lsq = ((rss(Xb) - rss(X)) / df1) / (rss(X) / df2)',
      '    out.append(None if t is None else {"f": t[0], "p": t[3], "blocks": t[4], "lsq_f": lsq, "lsq_p": float(st.f.sf(lsq, df1, df2))})',
      'print(json.dumps(out))',
    ].join('\n'),
    [...cases, incomplete],
  );
  ours.forEach((test, i) => {
    const their = theirs[i];
    assert.ok(test && their, `case ${i}`);
    assert.ok(
      Math.abs(test.f - their.f) <= 1e-9 * Math.max(1, their.f),
      `case ${i}: F as the Python`,
    );
    assert.ok(
      Math.abs(test.f - their.lsq_f) <= 1e-6 * Math.max(1, their.lsq_f),
      `case ${i}: F as least squares`,
    );
    assert.ok(Math.abs(test.p - their.p) <= 1e-9, `case ${i}: p`);
    assert.equal(test.blocks, their.blocks);
  });
  assert.ok((ours[0]?.p ?? 1) < 1e-6, 'a seasonal effect beside a trend is found');
  assert.ok((ours[1]?.p ?? 0) > 0.05, 'a trend alone is no seasonal effect');
});

/** Monthly sales over six years, growing 30% a year, with (or without) a December peak. */
function salesCsv(name: string, peak: boolean): string {
  const random = seeded(peak ? 21 : 22);
  const rows = ['date,region,revenue'];
  for (let year = 2018; year <= 2023; year += 1)
    for (let month = 1; month <= 12; month += 1)
      for (const region of ['North', 'South'])
        rows.push(
          `${year}-${String(month).padStart(2, '0')}-01,${region},${(
            1000 *
            1.3 ** (year - 2018) *
            (peak && month === 12 ? 1.6 : 1) *
            (0.9 + random() * 0.2)
          ).toFixed(2)}`,
        );
  const path = join(dir, name);
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}

void test('a growing series: a December peak is a season, months alike are not (both engines, year by year)', () => {
  // The season's finding alike in both engines (the pandas engine also notes the CSV's dates as
  // text, which DuckDB reads as dates: a difference of their readers, not of the season).
  const season = (findings: string[]) =>
    findings.find((f) => /has the highest average monthly revenue/.test(f));
  const peaked = bothEngines(salesCsv('peak.csv', true), tempDir('opsmind-season-peak-'));
  assert.equal(season(peaked.pandas.findings), season(peaked.duck.findings));
  const withPeak = season(peaked.duck.findings) ?? '';
  assert.match(withPeak, /^Dec has the highest average monthly revenue/);
  assert.doesNotMatch(withPeak, /chance alone/, 'the peak recurs every year: no chance');

  const flat = bothEngines(salesCsv('flat.csv', false), tempDir('opsmind-season-flat-'));
  assert.equal(season(flat.pandas.findings), season(flat.duck.findings));
  assert.match(
    season(flat.duck.findings) ?? '',
    /; chance alone could give differences this size between the 12 months, year by year \(two-way ANOVA over 6 complete years, p = [\d.]+\)\.$/,
  );
});
