/**
 * Categories that name the same groups (a code beside its name) are charted once, as the most
 * readable of them, by both engines: the facts come from the rows (one to one), never the names.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import type { DataProfile } from '../src/agent/profile.js';
import { profileText } from '../src/agent/profile-text.js';
import { aliasesOf } from '../src/agent/semantics-aliases.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-aliases-');

const STORES = [
  ['S-01', 'Harbour Mall'],
  ['S-02', 'Airport'],
  ['S-03', 'Old Town Square'],
  ['S-04', 'Riverside'],
] as const;

/** Orders: store_id and store name one to one; channel has as many values but crosses them. */
function orders(path: string, broken = false): void {
  const rows = Array.from({ length: 160 }, (_, i) => {
    const [id, name] = STORES[i % 4] ?? STORES[0];
    const day = new Date(Date.UTC(2024, 0, 1 + (i % 90))).toISOString().slice(0, 10);
    const channel = ['web', 'phone', 'shop', 'app'][(i * 3 + Math.floor(i / 4)) % 4];
    // One row names S-02 with another store's name: no longer one to one.
    const shown = broken && i === 5 ? 'Riverside' : name;
    return `${day},${id},${shown},${channel},${(20 + ((i * 37) % 80) + i / 10).toFixed(2)}`;
  });
  writeFileSync(path, ['date,store_id,store,channel,amount', ...rows].join('\n') + '\n');
}

void test('a code beside its name is charted once, as the name, by both engines', async () => {
  const path = join(dir, 'orders.csv');
  orders(path);
  const profile = await duckProfile(path);
  assert.deepEqual(profile.semantics.aliases, [{ column: 'store_id', as: 'store' }]);
  const skipped = profile.semantics.skipped.find((s) => s.column === 'store_id');
  assert.match(skipped?.reason ?? '', /the same groups as store .*charted as store/);
  assert.match(profileText(profile), /Same groups: store_id pairs one to one with store/);
  const used = JSON.stringify(heuristicPlan(profile).analyses.map((a) => a.transform));
  assert.ok(!used.includes('"store_id"'), used);
  assert.ok(used.includes('"store"'), used);
  assert.ok(used.includes('"channel"'), 'a category with as many values, not one to one, stays');
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(pandas.charts, duck.charts);
  assert.ok(!duck.charts.some((t) => t.includes('store_id')), duck.charts.join('\n'));
  const json = analyzeJson<{ skipped: { column: string }[] }>(path, 'pandas', join(dir, 'p.html'));
  assert.ok(
    json.skipped.some((s) => s.column === 'store_id'),
    'the pandas engine measures it too',
  );
});

void test('one row that pairs a code with another name keeps both columns', async () => {
  const path = join(dir, 'broken.csv');
  orders(path, true);
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.aliases, undefined);
});

void test('aliases: a group of three is charted as its most word-like column', () => {
  const column = (name: string, values: string[]) => ({
    name,
    top: values.map((value) => ({ value, count: 1 })),
  });
  const profile = {
    column_profiles: [
      column('item_id', ['58fa3f0be4b0b7ea54524859', '58fe0f4fe4b0074928294eb2']),
      column('code', ['aAMBUx', 'mCOCHx']),
      column('common_name', ['American Bullfrog', 'Columbian Chipmunk']),
    ],
  } as unknown as DataProfile;
  const facts = {
    aliases: [
      ['item_id', 'code'],
      ['code', 'common_name'],
    ] as [string, string][],
  };
  assert.deepEqual(aliasesOf(facts, profile), [
    { column: 'item_id', as: 'common_name' },
    { column: 'code', as: 'common_name' },
  ]);
});

/** Our World in Data's shape: a code for each country, none for a region, one row per year. */
function owid(path: string, shared = false): void {
  const entities = [
    ['Chile', 'CHL'],
    ['France', 'FRA'],
    ['Ghana', 'GHA'],
    ['India', 'IND'],
    ['Japan', shared ? 'IND' : 'JPN'],
    ['Africa', ''],
    ['Europe', ''],
  ];
  const rows = entities.flatMap(([entity, code], k) =>
    Array.from(
      { length: 15 },
      (_, i) => `${entity},${code},${2000 + i},${50 + k * 7 + ((i * (k + 2)) % 9) * 3}.5`,
    ),
  );
  writeFileSync(path, ['Entity,Code,Year,Share (%)', ...rows].join('\n') + '\n');
}

void test('a code only some groups have (none for regions) is charted as their name, by both engines', async () => {
  const path = join(dir, 'owid.csv');
  owid(path);
  const profile = await duckProfile(path);
  assert.deepEqual(profile.semantics.aliases, [{ column: 'Code', as: 'Entity' }]);
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(pandas.charts, duck.charts);
  assert.ok(!duck.charts.some((t) => /\bCode\b/.test(t)), duck.charts.join('\n'));
  assert.ok(
    duck.charts.some((t) => /\bEntity\b/.test(t)),
    duck.charts.join('\n'),
  );
  const json = analyzeJson<{ skipped: { column: string }[] }>(path, 'pandas', join(dir, 'o.html'));
  assert.ok(
    json.skipped.some((s) => s.column === 'Code'),
    'the pandas engine measures it too',
  );
  // One code for two names is no alias.
  const shared = join(dir, 'owid-shared.csv');
  owid(shared, true);
  assert.equal((await duckProfile(shared)).semantics.aliases, undefined);
});
