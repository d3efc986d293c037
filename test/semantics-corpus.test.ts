/**
 * Fast mode over a corpus of real public datasets (npm vega-datasets) and our own examples: the
 * table's grain and each column's role decided from the data, and the property that no plan sums
 * a level, a ratio or a running total, charts a period finer than the data's own, or averages a
 * panel's entities together — for every file, with the real DuckDB engine.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan, semanticProblems } from '../src/agent/plan.js';
import type { DataProfile } from '../src/agent/profile.js';
import { captionOf, derivationOf } from '../src/agent/provenance.js';
import { intervalMeasures } from '../src/agent/compile-plan.js';
import { timeFrequencyOf } from '../src/agent/roles.js';
import type { Semantics } from '../src/agent/semantics.js';
import { duckProfile } from './helpers/semantics.js';
import { ROOT, runCli, tempDir } from './helpers/fixtures.js';

const VEGA = join(ROOT, 'node_modules', 'vega-datasets', 'data');
const CORPUS = [
  'airports.csv',
  'barley.json',
  'birdstrikes.csv',
  'cars.json',
  'crimea.json',
  'disasters.csv',
  'gapminder.json',
  'gapminder-health-income.csv',
  'global-temp.csv',
  'iowa-electricity.csv',
  'jobs.json',
  'movies.json',
  'penguins.json',
  'population.json',
  'seattle-weather.csv',
  'stocks.csv',
  'unemployment-across-industries.json',
  'us-employment.csv',
  'zipcodes.csv',
].map((f) => join(VEGA, f));
const EXAMPLES = ['sales.csv', 'air-quality.csv', 'umsatz-filialen.csv'].map((f) =>
  join(ROOT, 'examples', f),
);

const profileOf = (file: string) => duckProfile(file, 512);

const profiles = new Map<string, Promise<DataProfile & { semantics: Semantics }>>();
const profiled = (file: string) => {
  let p = profiles.get(file);
  if (!p) profiles.set(file, (p = profileOf(file)));
  return p;
};
const role = (p: { semantics: Semantics }, name: string) =>
  p.semantics.columns.find((c) => c.name === name)?.role;

void test('the grain of each kind of table is read from its rows', async () => {
  const grain = async (f: string) => (await profiled(join(VEGA, f))).semantics.table;
  const stocks = await grain('stocks.csv');
  assert.equal(stocks.grain, 'panel');
  assert.deepEqual(stocks.keys, ['symbol']);
  assert.deepEqual(stocks.time, { column: 'date', freq: 'MS', kind: 'date' });
  assert.equal((await grain('global-temp.csv')).grain, 'series');
  assert.deepEqual((await grain('global-temp.csv')).time, {
    column: 'year',
    freq: 'YS',
    kind: 'year',
  });
  assert.equal((await grain('seattle-weather.csv')).grain, 'series');
  assert.equal((await grain('birdstrikes.csv')).grain, 'event');
  assert.equal((await grain('cars.json')).grain, 'event');
  assert.equal((await grain('penguins.json')).grain, 'cross_section');
  const airports = await grain('airports.csv');
  assert.equal(airports.grain, 'cross_section');
  assert.equal(airports.entity, 'iata');
  const population = await grain('population.json');
  assert.equal(population.grain, 'panel');
  assert.deepEqual([...population.keys].sort(), ['age', 'sex']);
  // Order lines of a few region × product × channel combinations a day: unique, but 7% covered.
  const sales = (await profiled(join(ROOT, 'examples', 'sales.csv'))).semantics.table;
  assert.equal(sales.grain, 'event');
  assert.match(sales.evidence.join(' '), /only 7% of its combinations occur/);
  const disasters = await grain('disasters.csv');
  assert.equal(disasters.grain, 'panel');
  assert.deepEqual(disasters.time, { column: 'Year', freq: 'YS', kind: 'year' });
});

void test('roles come from the values: levels, amounts, stocks, ratios, codes, coordinates, years', async () => {
  const p = async (f: string) => profiled(join(VEGA, f));
  const cars = await p('cars.json');
  for (const c of ['Displacement', 'Horsepower', 'Miles_per_Gallon', 'Acceleration'])
    assert.equal(role(cars, c), 'level', `cars ${c}`);
  const penguins = await p('penguins.json');
  assert.equal(role(penguins, 'Body Mass (g)'), 'level');
  assert.equal(role(await p('stocks.csv'), 'price'), 'level');
  assert.equal(role(await p('global-temp.csv'), 'temp'), 'level');
  assert.equal(role(await p('disasters.csv'), 'Deaths'), 'count');
  assert.equal(role(await p('seattle-weather.csv'), 'precipitation'), 'amount');
  const gap = await p('gapminder.json');
  assert.equal(role(gap, 'pop'), 'stock');
  assert.equal(role(gap, 'cluster'), 'code');
  assert.equal(role(gap, 'year'), 'year');
  assert.equal(role(await p('jobs.json'), 'perc'), 'ratio');
  // Burtin's antibiotics: the least concentration that stops each bacterium, heavy-tailed across
  // 16 bacteria and fractional. A level as far as anyone can tell: its shares would mean nothing.
  const burtin = await p('burtin.json');
  for (const c of ['Penicillin', 'Neomycin']) {
    assert.equal(role(burtin, c), 'level', `burtin ${c}`);
    assert.equal(burtin.semantics.columns.find((x) => x.name === c)?.settled, false, c);
  }
  const airports = await p('airports.csv');
  assert.equal(role(airports, 'latitude'), 'latitude');
  assert.equal(role(airports, 'longitude'), 'longitude');
  assert.equal(role(airports, 'iata'), 'identifier');
  assert.ok(airports.semantics.skipped.some((s) => s.column === 'iata'));
});

void test('a total row is found from the sums and left out of every chart, with a note', async () => {
  const profile = await profiled(join(VEGA, 'disasters.csv'));
  assert.deepEqual(profile.semantics.totals, [
    { column: 'Entity', value: 'All natural disasters', measure: 'Deaths' },
  ]);
  const plan = heuristicPlan(profile);
  for (const a of plan.analyses.filter((x) => x.transform.type !== 'missing'))
    assert.ok(
      a.filters?.some(
        (f) => f.column === 'Entity' && f.op === '!=' && f.value === 'All natural disasters',
      ),
      a.title,
    );
  assert.ok(plan.notes.some((n) => n.includes('All natural disasters')));
});

void test('property: no plan of the corpus sums a level, charts a period finer than the data, or mixes a panel', async () => {
  for (const file of [...CORPUS, ...EXAMPLES]) {
    const profile = await profiled(file);
    const plan = heuristicPlan(profile);
    assert.deepEqual(checkPlan(plan, profile), [], file);
    for (const a of plan.analyses) {
      const t = a.transform;
      assert.deepEqual(semanticProblems(a, profile), [], `${file}: ${a.title}`);
      if (t.type !== 'group' && t.type !== 'resample') continue;
      const r = role(profile, t.measure ?? '');
      if (r === 'level' || r === 'ratio' || r === 'cumulative')
        assert.notEqual(t.agg, 'sum', `${file}: ${a.title} sums a ${r}`);
      if (a.chart === 'pie')
        assert.ok(t.agg === 'sum' || t.agg === 'count', `${file}: pie of a ${t.agg}`);
      if (t.type === 'resample') {
        const date = profile.column_profiles.find((c) => c.name === t.date);
        assert.ok(date);
        const own = timeFrequencyOf(date, profile);
        const order = ['H', 'D', 'W', 'M', 'Q', 'Y'];
        if (own)
          assert.ok(
            order.indexOf(t.freq) >= order.indexOf(own),
            `${file}: ${a.title} per ${t.freq}`,
          );
        if (profile.semantics.table.grain === 'panel' && t.measure && t.agg !== 'sum')
          assert.ok(t.series, `${file}: ${a.title} averages every entity together`);
      }
    }
  }
});

void test('the checker refuses a sum of a level and a period finer than the data, in words a model can act on', async () => {
  const profile = await profiled(join(VEGA, 'stocks.csv'));
  const plan = {
    analyses: [
      {
        title: 'Total price per quarter',
        why: 'x',
        chart: 'line' as const,
        transform: {
          type: 'resample' as const,
          date: 'date',
          measure: 'price',
          agg: 'sum' as const,
          freq: 'Q' as const,
        },
      },
      {
        title: 'Average price per month',
        why: 'x',
        chart: 'line' as const,
        transform: {
          type: 'resample' as const,
          date: 'date',
          measure: 'price',
          agg: 'mean' as const,
          freq: 'M' as const,
        },
      },
      {
        title: 'Price per day',
        why: 'x',
        chart: 'line' as const,
        transform: {
          type: 'resample' as const,
          date: 'date',
          measure: 'price',
          agg: 'mean' as const,
          freq: 'D' as const,
          series: 'symbol',
        },
      },
    ],
    notes: [],
  };
  const problems = checkPlan(plan, profile);
  assert.ok(
    problems.some((p) => /analysis 1 .*"price" is a level .*use mean or median, not sum/.test(p)),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => /analysis 2 .*panel .*add series: "symbol"/.test(p)),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => /analysis 3 .*one value per month.*use freq "M"/.test(p)),
    problems.join('\n'),
  );
});

void test('analyze --json gives the table, the roles, what was skipped and a derivation for every chart', () => {
  const dir = tempDir();
  const out = join(dir, 'disasters.html');
  const r = runCli(['analyze', join(VEGA, 'disasters.csv'), '--json', '-o', out], {
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  interface Derived {
    measure: string | null;
    agg: string;
    group_by: string[];
    time: { column: string; freq: string } | null;
    filter: unknown[] | null;
    rows_used: number | null;
    sampled: boolean;
  }
  const json = JSON.parse(r.stdout) as {
    table: Semantics['table'];
    columns: Semantics['columns'];
    skipped: Semantics['skipped'];
    charts: { kind: string; derivation?: Derived }[];
  };
  assert.equal(json.table.grain, 'panel');
  assert.equal(json.columns.find((c) => c.name === 'Year')?.role, 'year');
  assert.ok(json.charts.length >= 3);
  for (const chart of json.charts) assert.ok(chart.derivation, `${chart.kind} has a derivation`);
  const yearly = json.charts.find((c) => c.derivation?.time?.column === 'Year');
  assert.ok(yearly, 'integer years are charted as time');
  assert.equal(yearly.derivation?.time?.freq, 'YS');
  assert.equal(yearly.derivation?.agg, 'sum');
  // 686 rows without the 118 of the total row.
  assert.equal(yearly.derivation?.rows_used, 686);
  const summary = JSON.parse(readFileSync(out.replace(/\.html$/, '.json'), 'utf8')) as {
    table: Semantics['table'];
  };
  assert.equal(summary.table.grain, 'panel');
  // The caption under each chart is written from the same derivation.
  const html = readFileSync(out, 'utf8');
  assert.ok(
    html.includes(
      '<p class="derivation">Sum of Deaths per year · rows where Entity ≠ &#34;All natural disasters&#34; · 686 rows used · all rows</p>',
    ),
    'the yearly line has its derivation as its caption',
  );
});

void test('both engines describe a table alike: the pandas engine measures the same facts in the sandbox', () => {
  for (const file of [
    ...[
      'stocks.csv',
      'disasters.csv',
      'population.json',
      'airports.csv',
      'cars.json',
      'penguins.json',
      'gapminder-health-income.csv',
      'income.json',
    ].map((f) => join(VEGA, f)),
    join(ROOT, 'examples', 'air-quality.csv'),
  ]) {
    const name = file.split('/').at(-1) ?? file;
    const describe = (engine: string) => {
      const out = join(tempDir(), `${engine}.html`);
      const r = runCli(['analyze', file, '--engine', engine, '--json', '-o', out], {
        env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
      });
      assert.equal(r.status, 0, `${name} ${engine}: ${r.stderr}`);
      const json = JSON.parse(r.stdout) as {
        table: Semantics['table'];
        columns: Semantics['columns'];
        charts: { kind: string; title: string | null; derivation?: { agg: string } }[];
      };
      return {
        grain: json.table.grain,
        keys: json.table.keys,
        time: json.table.time,
        roles: json.columns.map((c) => [c.name, c.role]),
        charts: json.charts.map((c) => [c.kind, c.title, c.derivation?.agg]),
      };
    };
    assert.deepEqual(describe('pandas'), describe('duckdb'), name);
  }
});

void test('a value repeated on each row of its entity is averaged, never summed, and grouped only by what holds one value per entity', async () => {
  // income.json: a state's total households on each of its 10 income brackets.
  const profile = await profiled(join(VEGA, 'income.json'));
  const total = profile.semantics.columns.find((c) => c.name === 'total');
  assert.equal(total?.role, 'level');
  assert.match(
    total?.evidence ?? '',
    /^one value per name, repeated on each of its rows \(10 on average\)/,
  );
  assert.deepEqual(profile.semantics.repeated?.[0]?.within, ['region', 'id']);
  const plan = heuristicPlan(profile);
  for (const a of plan.analyses) {
    const t = a.transform as { measure?: string; column?: string; agg?: string; by?: string };
    if (t.measure !== 'total' && t.column !== 'total') continue;
    assert.notEqual(t.agg, 'sum', a.title);
    assert.notEqual(t.by, 'group', a.title);
  }
  assert.ok(plan.analyses.some((a) => a.title === 'Top 10 name by average total'));
  const group = (by: string, agg: 'sum' | 'mean') => ({
    title: `${agg} total by ${by}`,
    why: 'x',
    chart: 'bar' as const,
    transform: { type: 'group' as const, by, measure: 'total', agg },
  });
  const problems = checkPlan(
    {
      notes: [],
      analyses: [group('region', 'sum'), group('group', 'mean'), group('region', 'mean')],
    },
    profile,
  );
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(
    problems[1] ?? '',
    /"total" is one value per name, repeated on each of its rows, and "group" varies within each name: .*group it by "name" or "region" or "id"/,
  );
});

void test('derived columns are found from the rows and never charted against their sources', async () => {
  const air = await profiled(join(ROOT, 'examples', 'air-quality.csv'));
  assert.ok(
    air.semantics.derived.some(
      (d) => d.column === 'aqi_category' && d.how === 'bins' && d.from.includes('pm25'),
    ),
    JSON.stringify(air.semantics.derived),
  );
  const airPlan = heuristicPlan(air);
  for (const a of airPlan.analyses) {
    const t = a.transform;
    const by = t.type === 'group' ? t.by : t.type === 'distribution' ? t.by : undefined;
    const measure = t.type === 'group' ? t.measure : t.type === 'distribution' ? t.column : null;
    assert.ok(!(by === 'aqi_category' && measure === 'pm25'), a.title);
  }
  assert.ok(airPlan.notes.some((n) => /aqi_category is made of ranges of pm25/.test(n)));
  const birds = await profiled(join(VEGA, 'birdstrikes.csv'));
  assert.deepEqual(
    birds.semantics.derived.filter((d) => d.how === 'sum'),
    [
      {
        column: 'Cost Total $',
        from: ['Cost Other', 'Cost Repair'],
        how: 'sum',
        evidence: 'Cost Total $ = Cost Other + Cost Repair on every complete row',
      },
    ],
  );
  // Cost Other, mostly 0, steps by its own value from a 0: no running balance of Total − Repair.
  assert.equal(birds.semantics.balances, undefined);
  for (const a of heuristicPlan(birds).analyses)
    if (a.transform.type === 'relationship')
      assert.ok(![a.transform.x, a.transform.y].includes('Cost Total $'), a.title);
  const jobs = await profiled(join(VEGA, 'us-employment.csv'));
  assert.ok(jobs.semantics.derived.some((d) => d.column === 'nonfarm' && d.how === 'sum'));
});

void test('quality flags: dates after today, and zeros that stand apart from a level', async () => {
  const movies = await profiled(join(VEGA, 'movies.json'));
  const plan = heuristicPlan(movies);
  assert.ok(
    plan.notes.some((n) => /"Release Date" has dates after today \(up to 2046/.test(n)),
    plan.notes.join('\n'),
  );
});

void test('partial first and last periods are left out of charts at a coarser period, with a note', async () => {
  const birds = await profiled(join(VEGA, 'birdstrikes.csv'));
  const plan = heuristicPlan(birds);
  const quarterly = plan.analyses.filter(
    (a) => a.transform.type === 'resample' && a.transform.freq === 'Q',
  );
  assert.ok(quarterly.length > 0);
  // The data runs 1990-01-08 .. 2002-07-25: the first and the last quarter are partial.
  for (const a of quarterly)
    assert.deepEqual(
      a.filters?.filter((f) => f.column === 'Flight Date'),
      [
        { column: 'Flight Date', op: '>=', value: '1990-04-01 00:00:00' },
        { column: 'Flight Date', op: '<', value: '2002-07-01 00:00:00' },
      ],
      a.title,
    );
  assert.ok(
    plan.notes.some((n) =>
      /Per quarter, the first .* and the last .* are only partly covered/.test(n),
    ),
  );
  // A year of daily data ending on a Saturday (shops closed on Sundays) has whole weeks.
  const shops = heuristicPlan(await profiled(join(ROOT, 'examples', 'umsatz-filialen.csv')));
  assert.ok(!shops.notes.some((n) => /partly covered/.test(n)), shops.notes.join('\n'));
  // Monthly data charted per quarter from January to March: whole quarters, nothing left out.
  const stocks = heuristicPlan(await profiled(join(VEGA, 'stocks.csv')));
  assert.ok(!stocks.notes.some((n) => /partly covered/.test(n)));
  // Deaths on 10 days over 19 months (la-riots.csv): snapshots, no month partly covered; before,
  // the month of its last death (one, November 1993) was left out as a short month.
  const riots = heuristicPlan(await profiled(join(VEGA, 'la-riots.csv')));
  const monthly = riots.analyses.filter(
    (a) => a.transform.type === 'resample' && a.transform.freq === 'M',
  );
  assert.ok(monthly.length > 0);
  for (const a of monthly) assert.equal(a.filters, undefined, a.title);
  assert.ok(!riots.notes.some((n) => /partly covered/.test(n)), riots.notes.join('\n'));
  // A partial month that holds the most rows is where the events are: kept (40 events on its last
  // two days); the short last month of daily data is left out.
  const lines = ['at,n'];
  for (let i = 0; i < 40; i++) lines.push(`2024-01-${30 + (i % 2)},1`);
  for (let d = Date.UTC(2024, 1, 1); d <= Date.UTC(2026, 0, 12); d += 86_400_000)
    lines.push(`${new Date(d).toISOString().slice(0, 10)},1`);
  const events = join(tempDir('opsmind-partial-'), 'events.csv');
  writeFileSync(events, `${lines.join('\n')}\n`);
  const busy = heuristicPlan(await profiled(events));
  const perMonth = busy.analyses.filter(
    (a) => a.transform.type === 'resample' && a.transform.freq === 'M',
  );
  assert.ok(perMonth.length > 0, busy.analyses.map((a) => a.title).join('; '));
  for (const a of perMonth)
    assert.deepEqual(
      a.filters?.map((f) => [f.op, f.value]),
      [['<', '2026-01-01 00:00:00']],
      a.title,
    );
});

void test('a category with many members is ranked (top 10), not dropped', async () => {
  const airports = heuristicPlan(await profiled(join(VEGA, 'airports.csv')));
  const state = airports.analyses.find(
    (a) => a.transform.type === 'group' && a.transform.by === 'state',
  );
  assert.ok(state, 'the 56 states are ranked');
  assert.deepEqual(state.transform, {
    type: 'group',
    by: 'state',
    measure: null,
    agg: 'count',
    top_n: 10,
  });
  const gapminder = heuristicPlan(await profiled(join(VEGA, 'gapminder.json')));
  assert.ok(
    gapminder.analyses.some((a) => a.transform.type === 'group' && a.transform.by === 'country'),
    "the panel's 62 countries are ranked",
  );
});

void test('a size that does not grow with the entities is a value per unit: averaged, and said to be unsettled', async () => {
  // gapminder-health-income: income is GDP per person. Its tail is as heavy as a total's, but it
  // does not move with population, so summing it by region means nothing.
  const gap = await profiled(join(VEGA, 'gapminder-health-income.csv'));
  const income = gap.semantics.columns.find((c) => c.name === 'income');
  assert.equal(income?.role, 'level');
  assert.equal(income?.settled, false);
  assert.match(income?.evidence ?? '', /does not grow with "population"/);
  assert.equal(role(gap, 'population'), 'stock');
  const plan = heuristicPlan(gap);
  for (const a of plan.analyses)
    if (a.transform.type === 'group' && a.transform.measure === 'income')
      assert.notEqual(a.transform.agg, 'sum', a.title);
  // A stock in a table without time adds up across the entities of a group.
  const byRegion = plan.analyses.find(
    (a) => a.transform.type === 'group' && a.transform.measure === 'population',
  );
  assert.equal(byRegion?.transform.type === 'group' && byRegion.transform.agg, 'sum');

  // Our own fixture: a total that scales with population stays an amount; the same figure per
  // person (independent of population) becomes a level, whatever the names say.
  let seed = 7;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lognormal = (mu: number, sigma: number): number => {
    const u = Math.max(rand(), 1e-9);
    const v = rand();
    return Math.exp(mu + sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  };
  const lines = ['nation,people,output,output_pp'];
  for (let i = 0; i < 80; i++) {
    const people = Math.round(lognormal(16, 1.6));
    const pp = Math.round(lognormal(9, 1.1));
    lines.push(`n${i},${people},${people * pp},${pp}`);
  }
  const file = join(tempDir('opsmind-perunit-'), 'nations.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const nations = await profileOf(file);
  assert.equal(nations.semantics.table.grain, 'cross_section');
  assert.equal(role(nations, 'people'), 'stock');
  assert.equal(role(nations, 'output'), 'amount');
  assert.equal(role(nations, 'output_pp'), 'level');
});

void test('a map of coordinates has no correlation finding: longitude against latitude is a place', () => {
  const out = tempDir('opsmind-place-');
  const run = runCli([
    'analyze',
    join(VEGA, 'airports.csv'),
    '--no-llm',
    '--json',
    '-o',
    join(out, 'r.html'),
  ]);
  assert.equal(run.status, 0, run.stderr);
  const summary = JSON.parse(run.stdout) as {
    charts: { kind: string; derivation: { measure: string | null; against?: string } }[];
    insights: { kind: string; text: string }[];
  };
  assert.ok(
    summary.charts.some(
      (c) =>
        c.kind === 'scatter' &&
        c.derivation.measure === 'latitude' &&
        c.derivation.against === 'longitude',
    ),
    'the rows are placed by their coordinates',
  );
  assert.deepEqual(
    summary.insights.filter((i) => /latitude|longitude/.test(i.text)).map((i) => i.text),
    [],
  );
});

void test('a relation the groups hide is found from the rows, drawn per group, and said in a finding', async () => {
  const penguins = await profiled(join(VEGA, 'penguins.json'));
  const effect = penguins.semantics.groupEffects?.find(
    (g) => g.a === 'Beak Length (mm)' && g.b === 'Beak Depth (mm)',
  );
  assert.equal(effect?.by, 'Species');
  assert.equal(effect?.kind, 'reversal');
  assert.ok((effect?.overall ?? 0) < 0 && (effect?.lo ?? 0) > 0.3, JSON.stringify(effect));
  const scatter = heuristicPlan(penguins).analyses.find((a) => a.transform.type === 'relationship');
  assert.deepEqual(scatter?.transform, {
    type: 'relationship',
    x: 'Beak Length (mm)',
    y: 'Beak Depth (mm)',
    color: 'Species',
  });
  // Pairs the groups do not hide are not flagged: cars' sizes rise together in every origin too.
  const cars = await profiled(join(VEGA, 'cars.json'));
  assert.ok(
    !(cars.semantics.groupEffects ?? []).some((g) => g.kind === 'reversal'),
    JSON.stringify(cars.semantics.groupEffects),
  );
  const out = join(tempDir('opsmind-group-'), 'r.html');
  const run = runCli(['analyze', join(VEGA, 'penguins.json'), '--no-llm', '--json', '-o', out]);
  assert.equal(run.status, 0, run.stderr);
  const found = (JSON.parse(run.stdout) as { insights: { kind: string; text: string }[] }).insights;
  const within = found.find((i) => i.kind === 'group_correlation');
  assert.match(
    within?.text ?? '',
    /^Within each Species the correlation between Beak Length \(mm\) and Beak Depth \(mm\) is positive \(r from 0\.39 to 0\.65 in 3 groups\), while over all rows it is negative \(r = -0\.24\)/,
  );
});

void test('quality flags: placeholders at either end of a measure (-1 below, 999 above) are named', async () => {
  let seed = 3;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines = ['user,minutes,age,score'];
  for (let i = 0; i < 400; i++) {
    const minutes = i % 20 === 0 ? -1 : Math.round(rand() * 500 * 10) / 10;
    const age = i % 100 === 7 ? 999 : 18 + Math.floor(rand() * 60);
    // A real extreme that repeats is not flagged unless it is a run of 9s far above the rest.
    const score = i % 50 === 0 ? 100 : Math.round(rand() * 90);
    lines.push(`u${i},${minutes},${age},${score}`);
  }
  const file = join(tempDir('opsmind-placeholder-'), 'users.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const p = await profileOf(file);
  const notes = heuristicPlan(p).notes;
  assert.ok(
    notes.some((n) =>
      /^"minutes" has 20 values \(5%\) of -1 while its other values are 0 or more/.test(n),
    ),
    notes.join('\n'),
  );
  assert.ok(
    notes.some((n) => /^"age" has values of exactly 999, far above its other values/.test(n)),
    notes.join('\n'),
  );
  assert.ok(!notes.some((n) => n.startsWith('"score"')), notes.join('\n'));
});

void test('seasonality: month of year over years, weekday over weeks, weekday × hour for hourly data', async () => {
  const season = (p: DataProfile) =>
    heuristicPlan(p).analyses.find((a) => a.transform.type === 'season');
  const weather = season(await profiled(join(VEGA, 'seattle-weather.csv')));
  assert.deepEqual(weather?.transform, {
    type: 'season',
    date: 'date',
    measure: 'precipitation',
    agg: 'sum',
    cycle: 'month',
  });
  assert.equal(weather?.chart, 'bar');
  // The caption, written from the derivation, says how each bar was made.
  assert.ok(weather);
  const derivation = derivationOf(weather, undefined, 1461);
  assert.equal(derivation.cycle, 'month');
  assert.equal(
    captionOf(derivation),
    "Average monthly total precipitation by month of year of date (each month's total, averaged over the months of the span; months without values left out) · 1,461 rows used · all rows",
  );
  // Yearly data has no season; nor does a panel's level (averaging entities mixes them).
  assert.equal(season(await profiled(join(VEGA, 'global-temp.csv'))), undefined);
  assert.equal(season(await profiled(join(VEGA, 'stocks.csv'))), undefined);

  const dir = tempDir('opsmind-season-');
  const hourly = ['when,load'];
  const start = Date.UTC(2024, 0, 1);
  for (let h = 0; h < 24 * 28; h++)
    hourly.push(
      `${new Date(start + h * 3600e3).toISOString().slice(0, 19).replace('T', ' ')},${50 + (h % 24)}`,
    );
  writeFileSync(join(dir, 'hourly.csv'), `${hourly.join('\n')}\n`);
  const hours = season(await profileOf(join(dir, 'hourly.csv')));
  assert.equal(hours?.chart, 'heatmap');
  assert.equal(hours?.transform.type === 'season' && hours.transform.cycle, 'weekday_hour');
  const events = ['day,amount'];
  for (let i = 0; i < 300; i++)
    events.push(
      `${new Date(start + Math.floor(i / 3) * 86400e3 * 0.9).toISOString().slice(0, 10)},${(i * 37) % 100}.5`,
    );
  writeFileSync(join(dir, 'events.csv'), `${events.join('\n')}\n`);
  const days = season(await profileOf(join(dir, 'events.csv')));
  assert.equal(days?.transform.type === 'season' && days.transform.cycle, 'weekday');
});

void test('the checker refuses a season the data cannot have, in words a model can act on', async () => {
  const check = (p: DataProfile, transform: object, chart = 'bar') =>
    checkPlan(
      { analyses: [{ title: 't', why: 'w', chart, transform } as never], notes: [] },
      p,
    ).join('\n');
  const temp = await profiled(join(VEGA, 'global-temp.csv'));
  assert.match(
    check(temp, { type: 'season', date: 'year', measure: 'temp', agg: 'mean', cycle: 'month' }),
    /"year" holds whole years: it has no months, weekdays or hours/,
  );
  const weather = await profiled(join(VEGA, 'seattle-weather.csv'));
  assert.match(
    check(weather, {
      type: 'season',
      date: 'date',
      measure: 'temp_max',
      agg: 'mean',
      cycle: 'hour',
    }),
    /"date" has one value per day; a profile by hour needs data per hour or finer/,
  );
  assert.match(
    check(weather, {
      type: 'season',
      date: 'date',
      measure: 'temp_max',
      agg: 'sum',
      cycle: 'month',
    }),
    /"temp_max" is a level .*use mean or median, not sum/,
  );
  assert.match(
    check(
      weather,
      { type: 'season', date: 'date', measure: null, agg: 'count', cycle: 'month' },
      'heatmap',
    ),
    /a profile by month is drawn as a bar, a line or a table, not a heatmap/,
  );
  assert.equal(
    check(weather, {
      type: 'season',
      date: 'date',
      measure: 'temp_max',
      agg: 'mean',
      cycle: 'month',
    }),
    '',
  );
});

void test('a panel of many entities is drawn as its largest few, the rest of a sum as one "Other" line', async () => {
  const gapminder = heuristicPlan(await profiled(join(VEGA, 'gapminder.json')));
  const lines = gapminder.analyses.find(
    (a) => a.transform.type === 'resample' && a.transform.series === 'country',
  );
  assert.deepEqual(lines?.transform, {
    type: 'resample',
    date: 'year',
    measure: 'pop',
    agg: 'sum',
    freq: 'Y',
    series: 'country',
    top: 8,
  });
  assert.match(lines?.why ?? '', /the other 54 are summed as one "Other" line/);
  // The checker wants a series to pick from.
  const p = await profiled(join(VEGA, 'gapminder.json'));
  assert.match(
    semanticProblems(
      {
        title: 't',
        why: 'w',
        chart: 'line',
        transform: {
          type: 'resample',
          date: 'year',
          measure: 'pop',
          agg: 'sum',
          freq: 'Y',
          top: 3,
        },
      },
      p,
    ).join('\n'),
    /top keeps the largest of several series: it needs series/,
  );
});

void test('growth of a panel of prices is compared as an index from the first common period', () => {
  const out = join(tempDir('opsmind-rebase-'), 'r.html');
  const run = runCli([
    'analyze',
    join(VEGA, 'stocks.csv'),
    '-q',
    'Which stock grew the most?',
    '--no-llm',
    '--json',
    '-o',
    out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const chart = (
    JSON.parse(run.stdout) as { charts: { kind: string; derivation: Record<string, unknown> }[] }
  ).charts[0];
  assert.equal(chart?.kind, 'line');
  assert.deepEqual(
    [
      chart?.derivation.measure,
      chart?.derivation.agg,
      chart?.derivation.group_by,
      chart?.derivation.rebased,
    ],
    ['price', 'mean', ['symbol'], true],
  );
  // Every symbol's line starts at 100, at the first quarter GOOG (listed in 2004) has a price.
  const html = readFileSync(out, 'utf8');
  const traces = [
    ...html.matchAll(/"name":"(AAPL|AMZN|GOOG|IBM|MSFT)","x":\["([^"]+)"[^\]]*\],"y":\[([^,\]]+)/g),
  ];
  // The question's chart is the report's first: each symbol's first trace is its line there.
  const symbols = new Map<string, [string, string]>();
  for (const [, symbol, x, y] of traces)
    if (symbol && !symbols.has(symbol)) symbols.set(symbol, [x ?? '', y ?? '']);
  assert.equal(symbols.size, 5, 'one line per symbol');
  for (const [symbol, [x, y]] of symbols) {
    assert.equal(Number(y), 100, `${symbol} starts at 100`);
    assert.match(x ?? '', /^2004-07-01/, `${symbol} starts at the first common quarter`);
  }
  assert.match(html, /price, index \(100 = the first quarter every symbol has a value\)/);
});

void test('past 100,000 rows a running total is still found, from the steps between sampled rows', async () => {
  const dir = tempDir('opsmind-running-');
  const lines = ['minute,flow,total'];
  const start = Date.UTC(2024, 0, 1);
  let total = 0;
  for (let i = 0; i < 250_000; i++) {
    const flow = (i * 7919) % 97;
    total += flow;
    lines.push(
      `${new Date(start + i * 60e3).toISOString().slice(0, 16).replace('T', ' ')},${flow},${total}`,
    );
  }
  writeFileSync(join(dir, 'running.csv'), `${lines.join('\n')}\n`);
  const p = await profileOf(join(dir, 'running.csv'));
  assert.equal(p.semantics.table.grain, 'series');
  const totalColumn = p.semantics.columns.find((c) => c.name === 'total');
  assert.equal(totalColumn?.role, 'cumulative');
  assert.match(totalColumn?.evidence ?? '', /100% of steps between sampled rows/);
  assert.notEqual(role(p, 'flow'), 'cumulative');
});

void test('a level that only rose is a level, not a running total: the name breaks the tie', async () => {
  // wheat.json: weekly wages in shillings, 1565–1821, every five years; they never fell.
  const wheat = await profiled(join(VEGA, 'wheat.json'));
  const wages = wheat.semantics.columns.find((c) => c.name === 'wages');
  assert.equal(wages?.role, 'level');
  assert.match(wages?.evidence ?? '', /named as a level/);
  // The same steps under a name that says nothing stay a running total.
  const dir = tempDir('opsmind-rising-');
  const lines = ['year,wages,tally'];
  for (let i = 0; i < 40; i++) lines.push(`${1800 + i},${(5 + i * 0.4).toFixed(2)},${5 + i * 3}`);
  writeFileSync(join(dir, 'rising.csv'), `${lines.join('\n')}\n`);
  const p = await profileOf(join(dir, 'rising.csv'));
  assert.equal(role(p, 'wages'), 'level');
  assert.equal(role(p, 'tally'), 'cumulative');
});

void test('a series that rose through zero is a level, never a running total', async () => {
  // danish_data.csv's lpy: a log price level from -0.62 to 0.47 that never fell, said a running total.
  const dir = tempDir('opsmind-through-zero-');
  const lines = ['year,lpy,tally'];
  for (let i = 0; i < 40; i++)
    lines.push(`${1950 + i},${(-0.62 + i * 0.028).toFixed(4)},${(i * 2.5).toFixed(1)}`);
  writeFileSync(join(dir, 'prices.csv'), `${lines.join('\n')}\n`);
  const p = await profileOf(join(dir, 'prices.csv'));
  assert.equal(role(p, 'lpy'), 'level');
  // The same steps from zero up stay a running total.
  assert.equal(role(p, 'tally'), 'cumulative');
});

void test('past 100,000 rows a category made of ranges is found over all rows, and one overlap anywhere refutes it', async () => {
  const dir = tempDir('opsmind-bins-');
  const lines = ['size,band,tier,weight'];
  // Three rows spread over the file put one tier value inside another's range. None of them is in
  // the facts' even sample (hash(rowid) % 3 = 2 for each), so only all rows show the overlap.
  const strays = new Set([1_001, 77_777, 200_005]);
  for (let i = 0; i < 250_000; i++) {
    const size = (i * 7919) % 1000;
    const band = size < 300 ? 'low' : size < 700 ? 'mid' : 'high';
    const tier = strays.has(i) ? 'bottom' : size < 250 ? 'bottom' : size < 600 ? 'middle' : 'top';
    lines.push(`${size},${band},${tier},${(i * 31) % 577}`);
  }
  writeFileSync(join(dir, 'bins.csv'), `${lines.join('\n')}\n`);
  const p = await profileOf(join(dir, 'bins.csv'));
  const band = p.semantics.derived.find((d) => d.column === 'band' && d.how === 'bins');
  assert.deepEqual(band?.from, ['size'], JSON.stringify(p.semantics.derived));
  assert.match(band?.evidence ?? '', /each of the 3 band values covers its own range of size/);
  assert.ok(
    !p.semantics.derived.some((d) => d.column === 'tier'),
    JSON.stringify(p.semantics.derived),
  );
  assert.ok(!p.semantics.derived.some((d) => d.from.includes('weight')));
});

void test('past 100,000 rows a value repeated per entity is found over all rows, and one differing row refutes it', async () => {
  const dir = tempDir('opsmind-repeated-');
  // 5,000 stores × 50 lines: each store's floor area on every line of it; units vary.
  const lines = ['store,region,area,units'];
  for (let i = 0; i < 250_000; i++) {
    const store = i % 5000;
    const area = i === 249_999 ? 1 : 100 + ((store * 37) % 900);
    lines.push(`s${store},${['N', 'S', 'E', 'W'][store % 4]},${area},${(i * 13) % 41}`);
  }
  writeFileSync(join(dir, 'stores.csv'), `${lines.join('\n')}\n`);
  const refuted = await profileOf(join(dir, 'stores.csv'));
  assert.equal(refuted.semantics.repeated, undefined, 'one line differs: not one value per store');
  const area = refuted.semantics.columns.find((c) => c.name === 'area');
  assert.doesNotMatch(area?.evidence ?? '', /one value per/);
  lines[250_000] = lines[250_000]?.replace(/,1,(\d+)$/, `,${100 + ((4999 * 37) % 900)},$1`) ?? '';
  writeFileSync(join(dir, 'stores.csv'), `${lines.join('\n')}\n`);
  const p = await profileOf(join(dir, 'stores.csv'));
  assert.equal(role(p, 'area'), 'level');
  assert.deepEqual(p.semantics.repeated, [
    { measure: 'area', entity: 'store', rows: 50, within: ['region'] },
  ]);
  assert.notEqual(role(p, 'units'), 'level');
});

void test('a count per entity and month, named only, is a stock: summed across entities in a month, never across months', async () => {
  // unemployment-across-industries.json: people unemployed in each of 14 industries, monthly.
  // The values cannot say whether a count per period is a flow or a standing number; summing
  // three months of the unemployed into a quarter counts the same people three times.
  const file = join(VEGA, 'unemployment-across-industries.json');
  const profile = await profiled(file);
  const count = profile.semantics.columns.find((c) => c.name === 'count');
  assert.equal(count?.role, 'stock');
  assert.equal(count?.settled, false, 'the name alone does not settle it: the report says so');
  const plan = heuristicPlan(profile);
  assert.ok(
    plan.notes.some((n) =>
      /^summed across entities within each period but averaged over periods.*: count$/.test(n),
    ),
    plan.notes.join('\n'),
  );
  const lines = plan.analyses.filter((a) => a.transform.type === 'resample');
  assert.ok(lines.length > 0, 'the stock is still charted over time');
  for (const a of plan.analyses) {
    const t = a.transform as { measure?: string; agg?: string; freq?: string; type: string };
    if (t.measure !== 'count') continue;
    if (t.type === 'resample') {
      assert.equal(t.freq, 'M', `${a.title}: at the data's own month, not summed into quarters`);
      assert.equal(t.agg, 'sum', `${a.title}: summed across industries within each month`);
    } else if (t.type === 'group') assert.equal(t.agg, 'mean', `${a.title}: averaged over months`);
  }
  const out = join(tempDir(), 'unemployment.html');
  const r = runCli(['analyze', file, '--json', '-o', out], {
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as {
    insights: { kind: string; text: string; numbers: Record<string, number> }[];
  };
  const yearly = json.insights.find((i) => i.kind === 'year_over_year');
  assert.ok(yearly, 'ten whole years of months: a year-over-year finding');
  assert.match(yearly.text, /averaging the 12 months of each year/);
  // 2009: the 14 industries' unemployed summed per month, averaged over the 12 months.
  assert.ok(Math.abs((yearly.numbers.total ?? 0) - 158759 / 12) < 1e-6, yearly.text);
  for (const i of json.insights) {
    assert.doesNotMatch(i.text, /summing the 12 months|of total count/, i.text);
    assert.notEqual(i.kind, 'share', i.text);
  }
});

void test('levels whose zero is not "none" (below zero, or temperatures) are compared by differences in both engines', async () => {
  const intervals = async (f: string) => intervalMeasures(await profiled(join(VEGA, f)));
  assert.deepEqual((await intervals('seattle-weather.csv')).sort(), ['temp_max', 'temp_min']);
  // Hourly normals stay above 0 °C all year: only the name says it is a temperature.
  assert.ok((await intervals('seattle-weather-hourly-normals.csv')).includes('temperature'));
  assert.deepEqual(await intervals('stocks.csv'), [], 'a price is on a ratio scale');
  assert.deepEqual(await intervals('cars.json'), []);
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(tempDir(), `${engine}.html`);
    const r = runCli(
      ['analyze', join(VEGA, 'seattle-weather.csv'), '--engine', engine, '--json', '-o', out],
      { env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } },
    );
    assert.equal(r.status, 0, r.stderr);
    const { insights } = JSON.parse(r.stdout) as { insights: { kind: string; text: string }[] };
    const ranked = insights.find((i) => i.kind === 'ranking' && i.text.includes('temp_min'));
    assert.ok(ranked, `${engine}: the average temp_min by weather is ranked`);
    assert.match(ranked.text, /, 9\.2 apart\.$/, `${engine}: ${ranked.text}`);
  }
});

void test('counts of one scale, one row per period, are one chart of lines; fractions and panels are not', async () => {
  const crimea = await profiled(join(VEGA, 'crimea.json'));
  const plan = heuristicPlan(crimea);
  const lines = plan.analyses.filter((a) => a.transform.type === 'resample');
  // Deaths by cause per month side by side; the army's size (thousands) is another scale.
  assert.equal(lines.length, 1);
  const [line] = lines;
  assert.deepEqual(line?.transform, {
    type: 'resample',
    date: 'date',
    measure: null,
    measures: ['wounds', 'other', 'disease'],
    agg: 'mean',
    freq: 'M',
  });
  assert.equal(line?.title, 'Wounds, other and disease per month');
  assert.deepEqual(checkPlan(plan, crimea), []);
  assert.equal(
    line && captionOf(derivationOf(line)).split(' · ')[0],
    'Mean of each of wounds, other and disease per month of date',
  );
  for (const file of ['seattle-weather.csv', 'stocks.csv', 'us-employment.csv']) {
    const other = heuristicPlan(await profiled(join(VEGA, file)));
    assert.ok(
      other.analyses.every((a) => a.transform.type !== 'resample' || !a.transform.measures),
      file,
    );
  }
});

void test('an edge list’s node codes are counted, never averaged or correlated (both engines, real files)', () => {
  const cases: [string, string[], RegExp][] = [
    ['flare-dependencies.json', [], /^source \d+ accounts for [\d.]+% of rows/],
    ['miserables.json', ['--records', 'links'], /^target \d+ accounts for [\d.]+% of value/],
  ];
  for (const [name, extra, lead] of cases) {
    const said = (engine: string) => {
      const out = join(tempDir(), `${engine}.html`);
      const r = runCli(
        ['analyze', join(VEGA, name), ...extra, '--engine', engine, '--json', '-o', out],
        { env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } },
      );
      assert.equal(r.status, 0, `${name} ${engine}: ${r.stderr}`);
      const json = JSON.parse(r.stdout) as {
        insights: { text: string }[];
        charts: { kind: string; title: string | null }[];
      };
      return {
        insights: json.insights.map((i) => i.text),
        charts: json.charts.map((c) => [c.kind, c.title ?? ''] as const),
      };
    };
    const duck = said('duckdb');
    assert.deepEqual(said('pandas'), duck, name);
    assert.match(duck.insights[0] ?? '', lead, duck.insights.join('\n'));
    // Both ends of a link are ranked: the nodes most links leave, and those most links reach.
    if (name === 'flare-dependencies.json')
      assert.deepEqual(
        duck.charts.map((c) => c[1]),
        ['Top 10 source by rows', 'Top 10 target by rows'],
      );
    for (const text of [...duck.insights, ...duck.charts.map((c) => c[1])])
      assert.doesNotMatch(
        text,
        /(median|mean|average) (source|target)|correlation between (source|target)|(source|target) is .*skewed|(Source|Target) vs/i,
        `${name}: ${text}`,
      );
  }
});
