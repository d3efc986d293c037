/**
 * An issue tracker's export, as Jira writes it: `Created` and `Resolved` as `02/Jan/24 12:32 PM`
 * (day, month's name and two-digit year between slashes, a 12-hour time), `Priority` from Lowest
 * to Highest. Both engines read those times as dates — before, they were free text and the report
 * drew no line over time — and the same instants; the priorities keep their order.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MONTH_NAMES, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile, pandasRead } from './helpers/semantics.js';

const PRIORITIES = ['Lowest', 'Low', 'Medium', 'High', 'Highest'];

/** A time as Jira writes it: 02/Jan/24 12:32 PM (hours 1 to 12). */
function jiraTime(t: Date): string {
  const hour = t.getUTCHours() % 12 === 0 ? 12 : t.getUTCHours() % 12;
  const two = (n: number) => String(n).padStart(2, '0');
  const month = MONTH_NAMES[t.getUTCMonth()] ?? '';
  return `${two(t.getUTCDate())}/${month}/${two(t.getUTCFullYear() % 100)} ${two(hour)}:${two(t.getUTCMinutes())} ${t.getUTCHours() < 12 ? 'AM' : 'PM'}`;
}

/** 300 issues over ten months; every fifth unresolved. */
function issues(dir: string): { file: string; created: Date[] } {
  const lines = ['Issue key,Issue Type,Priority,Created,Resolved,Story Points'];
  const created: Date[] = [];
  for (let i = 0; i < 300; i++) {
    const t = new Date(Date.UTC(2024, 0, 2, 9, 0) + i * 1422 * 60_000 + (i % 7) * 660_000);
    const done = new Date(t.getTime() + (1 + (i % 11)) * 86_400_000 + (i % 5) * 3_600_000);
    created.push(t);
    lines.push(
      [
        `PROJ-${i + 1}`,
        ['Bug', 'Story', 'Task'][i % 3],
        PRIORITIES[(i * 7) % 5],
        jiraTime(t),
        i % 5 === 4 ? '' : jiraTime(done),
        [1, 2, 3, 5, 8][i % 5],
      ].join(','),
    );
  }
  const file = join(dir, 'jira.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, created };
}

void test("Jira's 02/Jan/24 12:32 PM are dates in both engines, the same instants", async () => {
  const dir = tempDir();
  const { file, created } = issues(dir);
  const profile = await duckProfile(file);
  const column = (name: string) => profile.column_profiles.find((c) => c.name === name);
  assert.equal(column('Created')?.semantic, 'datetime');
  assert.equal(column('Resolved')?.semantic, 'datetime');
  const iso = (t: Date) => t.toISOString().slice(0, 19);
  assert.equal(column('Created')?.datetime?.min, iso(created[0] as Date));
  assert.equal(column('Created')?.datetime?.max, iso(created.at(-1) as Date));
  // The sandbox's reader parses them to the same instants (pandas' to_datetime, dateutil).
  const parsed = pandasRead<string[]>(
    file,
    'import opsmind_semantic as s\nprint(json.dumps(list(s.to_datetime(df["Created"]).strftime("%Y-%m-%dT%H:%M:%S"))))',
  );
  assert.deepEqual(parsed, created.map(iso));
});

void test('a Jira export is charted over time and its priorities in their order, alike in both engines', () => {
  const dir = tempDir();
  const { file } = issues(dir);
  const runs = ['duckdb', 'pandas'].map((engine) => {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<{ charts: { title: string }[]; insights: { text: string }[] }>(
      file,
      engine,
      out,
    );
    return { json, html: readFileSync(out, 'utf8') };
  });
  for (const { json, html } of runs) {
    const titles = json.charts.map((c) => c.title);
    assert.ok(
      titles.some((t) => t.endsWith(' per week')),
      titles.join(' | '),
    );
    assert.ok(titles.includes('Average Story Points by Priority'), titles.join(' | '));
    assert.ok(html.includes(`"categoryarray":${JSON.stringify(PRIORITIES)}`));
  }
  const [duck, pandas] = runs.map((r) => r.json.insights.map((i) => i.text));
  assert.deepEqual(pandas, duck);
});
