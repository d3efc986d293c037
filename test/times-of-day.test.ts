/**
 * A time of day as a table's only time (`06:00`, `6:05 PM`): no day of its own. Both engines read
 * it on 1900-01-01 — pandas had put it on the day it ran, so the two reports named different days,
 * and once it inferred a format it read "1:00 PM" as 01:00 — and the findings say the time alone:
 * "Sales peaked at 241 at 02:00", not "on Dec 7, 2026 02:00".
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fmtDate } from '../src/engine/insights-format.js';
import { MONTH_NAMES, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile, pandasRead } from './helpers/semantics.js';

/** Minutes from midnight as a clock shows them: "18:05", or "6:05 PM" on a 12-hour clock. */
function clock(minutes: number, twelve: boolean): string {
  const [h, m] = [Math.floor(minutes / 60) % 24, String(minutes % 60).padStart(2, '0')];
  if (!twelve) return `${String(h).padStart(2, '0')}:${m}`;
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'AM' : 'PM'}`;
}

/** A till roll: 150 sales from 06:00, one every 5 minutes, at three tills. */
function tillRoll(dir: string, twelve: boolean): { file: string; minutes: number[] } {
  const minutes = Array.from({ length: 150 }, (_, i) => 360 + i * 5);
  const lines = minutes.map(
    (t, i) => `${clock(t, twelve)},${['A', 'B', 'C'][i % 3]},${(5 + ((i * 37) % 90)).toFixed(2)}`,
  );
  const file = join(dir, twelve ? 'twelve.csv' : 'clock.csv');
  writeFileSync(file, `time,till,sales\n${lines.join('\n')}\n`);
  return { file, minutes };
}

void test('a time of day alone is said without a day', () => {
  assert.equal(fmtDate(Date.UTC(1900, 0, 1, 14, 5), 'H'), '14:05');
  assert.equal(fmtDate(Date.UTC(1900, 0, 1, 14, 5)), '14:05');
  assert.equal(fmtDate(Date.UTC(2024, 0, 1, 14, 5), 'H'), 'Jan 1, 2024 14:05');
  assert.equal(fmtDate(Date.UTC(1900, 0, 1), 'D'), 'Jan 1, 1900');
});

for (const twelve of [false, true]) {
  void test(`times of day written ${twelve ? '6:05 PM' : '18:05'} are read on 1900-01-01 by both engines, the same instants`, async () => {
    const dir = tempDir();
    const { file, minutes } = tillRoll(dir, twelve);
    const at = (m: number) => `1900-01-01T${clock(m, false)}:00`;
    const profile = await duckProfile(file);
    const time = profile.column_profiles.find((c) => c.name === 'time');
    assert.equal(time?.semantic, 'datetime');
    assert.equal(time?.datetime?.min, at(Math.min(...minutes)));
    assert.equal(time?.datetime?.max, at(Math.max(...minutes)));
    const parsed = pandasRead<string[]>(
      file,
      'import opsmind_semantic as s\nprint(json.dumps(list(s.to_datetime(df["time"]).strftime("%Y-%m-%dT%H:%M:%S"))))',
    );
    assert.deepEqual(parsed, minutes.map(at));
    const runs = ['duckdb', 'pandas'].map((engine) =>
      analyzeJson<{ insights: { text: string }[] }>(file, engine, join(dir, `${engine}.html`)),
    );
    // Counts per hour rise from zero in both engines' figures (renderers/line.ts from_zero).
    for (const engine of ['duckdb', 'pandas']) {
      const html = readFileSync(join(dir, `${engine}.html`), 'utf8');
      assert.match(html, /"title":\{"text":"Rows per hour"/, engine);
      const figures = [
        ...html.matchAll(/<script type="application\/json" id="fig-\d+">(.*?)<\/script>/gs),
      ];
      const rows = figures
        .map(
          ([, body]) =>
            JSON.parse(body ?? '{}') as {
              layout: { title?: { text?: string }; yaxis?: { rangemode?: string } };
            },
        )
        .find((f) => f.layout.title?.text === 'Rows per hour');
      assert.equal(rows?.layout.yaxis?.rangemode, 'tozero', engine);
    }
    const [duck = [], pandas = []] = runs.map((r) => r.insights.map((i) => i.text));
    assert.deepEqual(pandas, duck);
    const peak = duck.find((t) => t.startsWith('Sales peaked at'));
    assert.match(peak ?? '', /^Sales peaked at [\d,.]+ at \d{2}:00\.$/, duck.join('\n'));
    assert.ok(!duck.some((t) => /1900|20\d\d/.test(t)), duck.join('\n'));
  });
}

/** `t` on a 12-hour clock after its date, as US exports write it: "01/03/2024 08:15:00 PM", or Strava's "Jan 3, 2024, 8:15:00 PM". */
function stamped(t: Date, strava: boolean): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const h = t.getUTCHours();
  const time = `${two(h % 12 === 0 ? 12 : h % 12)}:${two(t.getUTCMinutes())}:00 ${h < 12 ? 'AM' : 'PM'}`;
  return strava
    ? `"${MONTH_NAMES[t.getUTCMonth()]} ${t.getUTCDate()}, ${t.getUTCFullYear()}, ${time}"`
    : `${two(t.getUTCMonth() + 1)}/${two(t.getUTCDate())}/${t.getUTCFullYear()} ${time}`;
}

for (const strava of [false, true]) {
  void test(`${strava ? 'Strava' : 'US'} times on a 12-hour clock: a PM is the afternoon in both profiles`, async () => {
    const dir = tempDir();
    const stamps = Array.from(
      { length: 80 },
      (_, i) => new Date(Date.UTC(2024, 0, 3, 8, 15) + i * 29 * 3_600_000),
    );
    const lines = stamps.map((t, i) => `${stamped(t, strava)},${1 + (i % 7)}`);
    const file = join(dir, 'activities.csv');
    writeFileSync(file, `when,km\n${lines.join('\n')}\n`);
    const iso = (t: Date) => t.toISOString().slice(0, 19);
    const duck = (await duckProfile(file)).column_profiles.find((c) => c.name === 'when');
    assert.equal(duck?.semantic, 'datetime');
    assert.equal(duck?.datetime?.max, iso(stamps.at(-1) as Date));
    // pandas 1.x inferred "%m/%d/%Y %H:%M:%S %p" and read every PM as AM: 03:15, not 15:15.
    const pandas = pandasRead<{ min: string; max: string }>(
      file,
      'import opsmind_profile as p\nc = [c for c in p.profile(df, info)["column_profiles"] if c["name"] == "when"][0]\nprint(json.dumps(c["datetime"]))',
    );
    assert.equal(pandas.min, iso(stamps[0] as Date));
    assert.equal(pandas.max, iso(stamps.at(-1) as Date));
  });
}
