/**
 * What a row is and what its numbers measure. A cross-section of named entities, one row each
 * (campaigns, states), is ranked by them on the lead measure and on a ratio beside it, in both
 * engines; anonymous ones (respondents 1…n) only by what adds up; a name seen once is never "made
 * of ranges" of a measure. Per event, whole numbers in the thousands (salaries) are averaged;
 * in a panel, counts named as what happens (sessions) are summed over time.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scalesOf } from '../src/agent/compile-plan.js';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { disjointRanges } from '../src/agent/semantics-derived.js';
import { tempDir } from './helpers/fixtures.js';
import { bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-xsec-');

/** Twelve campaigns: visits, conversions and their rate (C07 converts best). */
function campaignsCsv(): string {
  const rows = Array.from({ length: 12 }, (_, i) => {
    const visits = 1_000 + ((i * 7_919) % 12) * 7_500;
    const rate = i === 7 ? 0.09 : 0.01 + ((i * 5) % 12) * 0.005;
    const conversions = Math.round(visits * rate);
    return `C${String(i).padStart(2, '0')},${visits},${conversions},${(conversions / visits).toFixed(4)}`;
  });
  const path = join(dir, 'campaigns.csv');
  writeFileSync(path, ['campaign,visits,conversions,conversion_rate', ...rows].join('\n') + '\n');
  return path;
}

void test('one row per entity: ranked by the lead measure (summed) and by its ratio (averaged)', async () => {
  const profile = await duckProfile(campaignsCsv());
  assert.equal(profile.semantics.table.grain, 'cross_section');
  assert.equal(profile.semantics.table.entity, 'campaign');
  assert.deepEqual(profile.semantics.derived, [], 'a campaign seen once covers no range');
  const bars = heuristicPlan(profile).analyses.filter(
    (a) => a.chart === 'bar' && a.transform.type === 'group' && a.transform.by === 'campaign',
  );
  assert.deepEqual(
    bars.map((a) => [a.title, a.transform.type === 'group' && a.transform.agg]),
    [
      ['Top 10 campaign by visits', 'sum'],
      ['Top 10 campaign by conversion_rate', 'mean'],
    ],
  );
});

void test('points never make ranges: most values must span one', () => {
  const points: [number, number][] = [
    [1, 1],
    [2, 2],
    [3, 3],
  ];
  assert.equal(disjointRanges(points), false);
  assert.equal(
    disjointRanges([
      [1, 2],
      [3, 4],
      [5, 5],
    ]),
    true,
  );
});

void test('both engines rank the campaigns alike, the best converting named', () => {
  const file = campaignsCsv();
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas, duck);
  assert.ok(
    duck.findings.some((t) => /^C07 has the highest conversion_rate \(0\.09\)/.test(t)),
    duck.findings.join('\n'),
  );
});

void test('anonymous entities (respondents numbered 1…n) are never ranked by a score', async () => {
  const rows = Array.from({ length: 60 }, (_, i) => {
    const country = ['DE', 'FR', 'US'][i % 3] ?? 'DE';
    return `${i + 1},${country},${(i * 7) % 11},${1 + ((i * 3) % 5)}`;
  });
  const path = join(dir, 'survey.csv');
  writeFileSync(path, ['respondent_id,country,nps,q1', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.table.grain, 'cross_section');
  const titles = heuristicPlan(profile).analyses.map((a) => a.title);
  assert.ok(!titles.some((t) => t.includes('respondent_id')), titles.join('\n'));
  assert.ok(titles.includes('Average nps by country'), titles.join('\n'));
});

void test('whole numbers in the thousands per event (salaries by hire date) are averaged, small ones counted', async () => {
  const rows = Array.from({ length: 90 }, (_, i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + (i % 12)).padStart(2, '0');
    const dept = ['Sales', 'Support', 'Engineering'][i % 3] ?? 'Sales';
    return `${1000 + i},${dept},20${10 + (i % 12)}-${month}-${day},${50_000 + ((i * 1_300) % 40_000)},${1 + (i % 9)}`;
  });
  const path = join(dir, 'staff.csv');
  writeFileSync(
    path,
    ['employee_id,department,hire_date,salary,trainings', ...rows].join('\n') + '\n',
  );
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.table.grain, 'event');
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('salary')?.role, 'level', role('salary')?.evidence);
  assert.equal(role('salary')?.settled, false, 'the safe choice, said as such');
  assert.equal(role('trainings')?.role, 'count', role('trainings')?.evidence);
  const groups = heuristicPlan(profile).analyses.flatMap((a) =>
    a.transform.type === 'group' ? [[a.transform.measure, a.transform.agg]] : [],
  );
  assert.ok(
    groups.some(([m, agg]) => m === 'salary' && agg === 'mean'),
    JSON.stringify(groups),
  );
  assert.ok(!groups.some(([m, agg]) => m === 'salary' && agg === 'sum'), JSON.stringify(groups));
});

void test('a panel of daily counts named as what happens (sessions, conversions per page) is summed over time', async () => {
  const pages = ['/home', '/pricing', '/blog'];
  const rows: string[] = [];
  for (let d = 0; d < 60; d += 1)
    for (const [i, page] of pages.entries()) {
      const day = new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
      const sessions = 300 + i * 250 + ((d * 37 + i * 11) % 90);
      rows.push(
        `${day},${page},${sessions},${Math.round(sessions * 0.02)},${40 + ((d * 13) % 30)}`,
      );
    }
  const path = join(dir, 'web.csv');
  writeFileSync(path, ['date,page,sessions,conversions,bounce_rate', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.table.grain, 'panel');
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name)?.role;
  assert.equal(role('sessions'), 'count');
  assert.equal(role('conversions'), 'count');
  assert.equal(role('bounce_rate'), 'ratio');
  const lines = heuristicPlan(profile).analyses.flatMap((a) =>
    a.transform.type === 'resample' ? [[a.transform.measure, a.transform.agg]] : [],
  );
  assert.deepEqual(lines[0], ['sessions', 'sum'], JSON.stringify(lines));
});

void test('an amount with a few returns below zero is still summed, its quantities counted', async () => {
  const rows = Array.from({ length: 120 }, (_, i) => {
    const day = new Date(Date.UTC(2024, 0, 1 + (i % 90))).toISOString().slice(0, 10);
    const qty = i % 15 === 0 ? -2 : 1 + (i % 4);
    const total = qty * [19.99, 49.5, 899][i % 3]!;
    return `${day},INV-${10_000 + i},${['Mall', 'Airport'][i % 2]},${qty},${total.toFixed(2)}`;
  });
  const path = join(dir, 'returns.csv');
  writeFileSync(path, ['date,invoice,store,qty,total', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('total')?.role, 'amount', role('total')?.evidence);
  assert.match(role('total')?.evidence ?? '', /returns or refunds/);
  assert.equal(role('qty')?.role, 'count', role('qty')?.evidence);
  const bars = heuristicPlan(profile).analyses.flatMap((a) =>
    a.transform.type === 'group' && a.transform.by === 'store'
      ? [[a.transform.measure, a.transform.agg]]
      : [],
  );
  assert.deepEqual(bars[0], ['total', 'sum'], JSON.stringify(bars));
});

void test('whole-number measurements per event (blood pressure 132 ± 12) are averaged; a visit number never leads', async () => {
  const rows: string[] = [];
  for (let p = 0; p < 30; p += 1)
    for (let v = 1; v <= 6; v += 1) {
      const day = new Date(Date.UTC(2024, 0, 1 + (p % 5) + v * 30)).toISOString().slice(0, 10);
      rows.push(`P${p},${p % 2 ? 'drug' : 'placebo'},${day},${v},${120 + ((p * 7 + v * 5) % 25)}`);
    }
  const path = join(dir, 'trial.csv');
  writeFileSync(path, ['patient,arm,visit_date,visit,systolic_bp', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.table.grain, 'event');
  const bp = profile.semantics.columns.find((c) => c.name === 'systolic_bp');
  assert.equal(bp?.role, 'level', bp?.evidence);
  assert.match(bp?.evidence ?? '', /held close to their mean/);
  const plan = heuristicPlan(profile).analyses;
  const measures = plan.flatMap((a) =>
    a.transform.type === 'resample' || a.transform.type === 'group'
      ? [[a.transform.measure, a.transform.agg]]
      : [],
  );
  assert.ok(
    !measures.some(([m, agg]) => m === 'systolic_bp' && agg === 'sum'),
    JSON.stringify(measures),
  );
  assert.deepEqual(measures[0], ['systolic_bp', 'mean'], JSON.stringify(measures));
});

void test('hourly kWh per meter is energy used: summed per day, its meters compared by their totals', async () => {
  const rows: string[] = [];
  for (let h = 0; h < 24 * 10; h += 1)
    for (const [i, meter] of ['M1', 'M2', 'M3'].entries()) {
      const at = new Date(Date.UTC(2024, 2, 1, h)).toISOString().slice(0, 19).replace('T', ' ');
      rows.push(`${at},${meter},${(1 + i + ((h * 7 + i) % 10) / 10).toFixed(2)}`);
    }
  const path = join(dir, 'meters.csv');
  writeFileSync(path, ['timestamp,meter,kwh', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.table.grain, 'panel');
  assert.equal(profile.semantics.columns.find((c) => c.name === 'kwh')?.role, 'amount');
  const first = heuristicPlan(profile).analyses[0];
  assert.equal(first?.transform.type === 'resample' && first.transform.agg, 'sum');
});

void test('a heavy-tailed minimum or maximum per event is a level (the USGS dmin), an amount beside it still summed', async () => {
  const rows = Array.from({ length: 150 }, (_, i) => {
    const stamp = new Date(Date.UTC(2024, 0, 1, i * 5))
      .toISOString()
      .slice(0, 16)
      .replace('T', ' ');
    const tail = (k: number) => (0.001 * Math.exp((((i * k) % 97) / 97) * 9)).toFixed(4);
    return `${stamp},${tail(13)},${tail(31)},${tail(7)}`;
  });
  const path = join(dir, 'minmax.csv');
  writeFileSync(path, ['time,dmin,delay_max,amount', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('amount')?.role, 'amount', role('amount')?.evidence);
  for (const name of ['dmin', 'delay_max'])
    assert.equal(role(name)?.role, 'level', `${name}: ${role(name)?.evidence ?? ''}`);
});

void test('whole numbers in the tens or hundreds per event (an azimuthal gap, a significance score) are averaged; a few items per event counted', async () => {
  const rows = Array.from({ length: 200 }, (_, i) => {
    const stamp = new Date(Date.UTC(2024, 0, 1, i * 3))
      .toISOString()
      .slice(0, 16)
      .replace('T', ' ');
    const mag = (0.5 + ((i * 37) % 50) / 10).toFixed(1);
    // sig grows fast with the magnitude: a heavy tail of whole numbers, as USGS writes it.
    const sig = Math.round(Math.exp(Number(mag) * 1.3));
    return `${stamp},${mag},${20 + ((i * 53) % 320)},${sig},${1 + (i % 15)}`;
  });
  const path = join(dir, 'quakes.csv');
  writeFileSync(path, ['time,mag,gap,sig,stations', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  assert.equal(profile.semantics.table.grain, 'event');
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('gap')?.role, 'level', role('gap')?.evidence);
  assert.equal(role('gap')?.settled, false, 'the safe choice, said as such');
  assert.match(role('gap')?.evidence ?? '', /whole numbers with a median of/);
  assert.equal(role('sig')?.role, 'level', role('sig')?.evidence);
  assert.equal(role('stations')?.role, 'count', role('stations')?.evidence);
  const plan = heuristicPlan(profile).analyses;
  const summed = plan.flatMap((a) =>
    (a.transform.type === 'resample' || a.transform.type === 'group') && a.transform.agg === 'sum'
      ? [a.transform.measure]
      : [],
  );
  assert.ok(!summed.includes('gap') && !summed.includes('sig'), JSON.stringify(summed));
});

void test('a running number (0 to n-1, as pandas writes its index) is an identifier, never a measure, in a short table too (monarchs.json)', async () => {
  const rows = Array.from(
    { length: 12 },
    (_, i) =>
      `item ${i},${i},${['A', 'B', 'C'][i % 3]},${(10 + ((i * 37) % 23) * 1.5).toFixed(1)},${12 - i}`,
  );
  const path = join(dir, 'indexed.csv');
  writeFileSync(path, ['name,index,kind,score,rank', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('index')?.role, 'identifier', role('index')?.evidence);
  assert.match(role('index')?.evidence ?? '', /running number/);
  // 12 down to 1 is a running number too, read from the other end.
  assert.equal(role('rank')?.role, 'identifier', role('rank')?.evidence);
  assert.equal(role('score')?.role, 'level', role('score')?.evidence);
  const used = JSON.stringify(heuristicPlan(profile).analyses.map((a) => a.transform));
  assert.ok(!/"index"|"rank"/.test(used), used);
});

void test('years are no bar lengths: rulers are not ranked, nor houses averaged, by the year a reign began', async () => {
  const reigns = (withWealth: boolean): string => {
    const rows = Array.from({ length: 14 }, (_, i) => {
      const start = 1550 + i * 19 + ((i * 7) % 5);
      const wealth = withWealth ? `,${(20 + ((i * 13) % 9) * 2.5).toFixed(1)}` : '';
      return `King ${String.fromCharCode(65 + i)},${['Tudor', 'Stuart', 'Hanover'][i % 3]},${start},${start + 8 + ((i * 11) % 17)}${wealth}`;
    });
    const path = join(dir, withWealth ? 'reigns-wealth.csv' : 'reigns.csv');
    const head = withWealth ? 'name,house,start,end,wealth' : 'name,house,start,end';
    writeFileSync(path, [head, ...rows].join('\n') + '\n');
    return path;
  };
  const barredOf = (analyses: ReturnType<typeof heuristicPlan>['analyses']) =>
    analyses
      .filter((a) => a.chart === 'bar')
      .map((a) => (a.transform.type === 'group' ? a.transform.measure : null));
  // monarchs.json: names and the years of each reign; the years still have their charts.
  const years = heuristicPlan(await duckProfile(reigns(false))).analyses;
  assert.deepEqual(
    barredOf(years).filter((m) => m === 'start' || m === 'end'),
    [],
    JSON.stringify(years),
  );
  assert.ok(
    years.some((a) => a.title === 'Distribution of start'),
    JSON.stringify(years),
  );
  // A quantity beside the years has its bars.
  const wealth = heuristicPlan(await duckProfile(reigns(true))).analyses;
  assert.ok(barredOf(wealth).includes('wealth'), JSON.stringify(wealth));
  assert.ok(!barredOf(wealth).includes('start'), JSON.stringify(wealth));
});

void test('members ranked by a mean need half the rows of a typical member: a lone late flight does not top the ranking', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 1200; i += 1) {
    const day = new Date(Date.UTC(2024, 0, 1 + (i % 60), i % 24)).toISOString().slice(0, 13);
    rows.push(
      `${day}:00,A${String(i % 60).padStart(2, '0')},${((i * 37) % 41) - 12},${300 + (i % 7) * 90}`,
    );
  }
  rows.push('2024-02-01T09:00,BGR,500,420');
  const path = join(dir, 'late.csv');
  writeFileSync(path, ['time,origin,delay,distance', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const ranking = heuristicPlan(profile).analyses.find((a) => a.title.startsWith('Top 10 origin'));
  assert.ok(ranking?.transform.type === 'group', JSON.stringify(ranking));
  assert.equal(ranking.transform.type === 'group' && ranking.transform.min_rows, 10);
  const { duck, pandas } = bothEngines(path, dir);
  // The pandas program also says which text columns it parsed as dates; the rest is the same.
  const parsed = (t: string): boolean => !/^dates stored as text in/.test(t);
  assert.deepEqual(pandas.findings.filter(parsed), duck.findings);
  assert.ok(!duck.findings.some((f) => f.includes('BGR')), duck.findings.join('\n'));
});

void test('one value on a few rows, missing on the rest, is said so, not "throughout"', async () => {
  const rows = Array.from(
    { length: 12 },
    (_, i) => `K${i},${1600 + i * 20},${i === 3 ? 'True' : ''}`,
  );
  const path = join(dir, 'marked.csv');
  writeFileSync(path, ['name,start,commonwealth', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const marked = profile.semantics.columns.find((c) => c.name === 'commonwealth');
  assert.equal(marked?.role, 'empty', marked?.evidence);
  assert.equal(marked?.evidence, 'one value, on 1 of 12 rows, the rest missing (True)');
});

void test('a handful of whole numbers is no scatter axis: cylinders against displacement is left to the box', async () => {
  const rows = Array.from({ length: 120 }, (_, i) => {
    const cylinders = [4, 6, 8][i % 3] ?? 4;
    const displacement = cylinders * 40 + ((i * 17) % 30);
    const weight = 1500 + displacement * 8 + ((i * 53) % 400);
    return `car ${i},${cylinders},${displacement},${weight},${['EU', 'US', 'JP'][i % 3]}`;
  });
  const path = join(dir, 'cars.csv');
  writeFileSync(path, ['name,cylinders,displacement,weight,origin', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  const scatters = heuristicPlan(profile).analyses.flatMap((a) =>
    a.transform.type === 'relationship' ? [[a.transform.x, a.transform.y].sort().join(' ~ ')] : [],
  );
  assert.ok(scatters.includes('displacement ~ weight'), scatters.join('; '));
  assert.ok(!scatters.some((s) => s.includes('cylinders')), scatters.join('; '));
});

void test('whole numbers between 1500 and 2100 are years: their ranking says a difference, not a ratio', async () => {
  const rows = Array.from({ length: 12 }, (_, i) => `King ${i},${1565 + i * 23},${1580 + i * 23}`);
  const path = join(dir, 'reigns.csv');
  writeFileSync(path, ['name,start,end', ...rows].join('\n') + '\n');
  const profile = await duckProfile(path);
  assert.ok(scalesOf(profile).intervals.includes('start'), JSON.stringify(scalesOf(profile)));
});

void test('calendar years in distribution findings: 1687, not 1,687, both engines alike', async () => {
  const rows = Array.from({ length: 12 }, (_, i) => `King ${i},${1565 + i * 23},${1580 + i * 23}`);
  const path = join(dir, 'reign-years.csv');
  writeFileSync(path, ['name,start,end', ...rows].join('\n') + '\n');
  assert.deepEqual(scalesOf(await duckProfile(path)).years, ['start', 'end']);
  const { duck, pandas } = bothEngines(path, dir);
  const spread = duck.findings.find((f) => f.startsWith('The median start is'));
  // Quartiles 1628.25, 1691.5 and 1754.75 (pandas' linear interpolation), written as years.
  assert.equal(
    spread,
    'The median start is 1692; the middle half lies between 1628 and 1755 (IQR 126 years).',
    duck.findings.join('\n'),
  );
  assert.ok(!duck.findings.some((f) => /1,\d{3}/.test(f)), duck.findings.join('\n'));
  assert.deepEqual(pandas.findings, duck.findings);
});

void test('years kept as text ("1565") are the time of the table: whole numbers, though their quartiles are not', async () => {
  const rows = Array.from(
    { length: 52 },
    (_, i) => `{"year": "${1565 + 5 * i}", "wheat": ${40 + ((i * 7) % 30) + 0.5}}`,
  );
  const path = join(dir, 'wheat.json');
  writeFileSync(path, `[${rows.join(',\n')}]\n`);
  const profile = await duckProfile(path);
  assert.equal(
    profile.semantics.table.time?.column,
    'year',
    JSON.stringify(profile.semantics.table),
  );
  assert.equal(profile.semantics.table.time?.kind, 'year');
});

/** Thirty states: a median income held within ±14% of its mean, a population spread widely. */
function statesCsv(): string {
  const rows = Array.from({ length: 30 }, (_, i) => {
    const income = 27_000 + ((i * 7) % 17) * 1_150;
    const population = 600_000 + ((i * 5) % 17) ** 2 * 95_000;
    return `S${String(i).padStart(2, '0')},${i % 3 === 0 ? 'South' : 'North'},${income},${population},${9_000 + i * 13}`;
  });
  const path = join(dir, 'states.csv');
  writeFileSync(path, ['state,region,income,population,identifier', ...rows].join('\n') + '\n');
  return path;
}

void test('an amount by name held close to its mean is a level of each entity: averaged, never summed', async () => {
  const file = statesCsv();
  const profile = await duckProfile(file);
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('income')?.role, 'level', role('income')?.evidence);
  assert.match(role('income')?.evidence ?? '', /held within ±\d+(\.\d+)?% of the mean/);
  assert.ok(
    ['amount', 'count'].includes(role('population')?.role ?? ''),
    `a size spread widely still adds up: ${role('population')?.evidence ?? ''}`,
  );
  assert.equal(
    profile.column_profiles.find((c) => c.name === 'identifier')?.semantic,
    'identifier',
    'named an identifier and unique on every row: no measure',
  );
  const { duck, pandas } = bothEngines(file, dir);
  for (const run of [duck, pandas]) {
    assert.ok(!run.findings.some((f) => /of income \(/.test(f)), run.findings.join('\n'));
    assert.ok(!run.charts.some((t) => /identifier/.test(t)), run.charts.join('\n'));
    assert.ok(run.charts.includes('Average income by region'), run.charts.join('\n'));
  }
});

/** 360 respondents: an income bracket 1–12 (every one used), a vote, an age. */
function respondentsCsv(): string {
  const rows = Array.from({ length: 360 }, (_, i) => {
    const bracket = 1 + ((i * 7) % 12);
    return `${bracket},${(i * 5) % 3 === 0 ? 1 : 0},${20 + ((i * 11) % 60)},${1 + ((i * 13) % 5)}`;
  });
  const path = join(dir, 'respondents.csv');
  writeFileSync(path, ['income,vote,age,visits', ...rows].join('\n') + '\n');
  return path;
}

void test('money written as the whole numbers 1 to k, every one used many times, is a bracket code: averaged, never summed', async () => {
  const file = respondentsCsv();
  const profile = await duckProfile(file);
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name);
  assert.equal(role('income')?.role, 'level', role('income')?.evidence);
  assert.equal(role('income')?.settled, false, 'the safe choice, said as such');
  assert.match(
    role('income')?.evidence ?? '',
    /whole numbers 1 to 12, every one used \(360 values\): codes of brackets/,
  );
  // A count by name is no money: its few whole numbers still count things.
  assert.notEqual(role('visits')?.evidence ?? '', role('income')?.evidence ?? '');
  assert.doesNotMatch(role('visits')?.evidence ?? '', /codes of brackets/);
  const { duck, pandas } = bothEngines(file, dir);
  for (const run of [duck, pandas]) {
    assert.ok(!run.findings.some((f) => /of income \(/.test(f)), run.findings.join('\n'));
    assert.ok(
      run.findings.some((f) => /mean income/.test(f)),
      `the brackets are compared by their mean: ${run.findings.join('\n')}`,
    );
  }
});

void test('money in a wide range of whole numbers, or few codes with gaps, keeps its sum', async () => {
  const gaps = join(dir, 'gaps.csv');
  // 1 to 12 but 7 never used: not every bracket is there, so no rule of codes.
  const rows = Array.from({ length: 360 }, (_, i) => {
    const v = 1 + ((i * 7) % 12);
    return `${v === 7 ? 8 : v},R${i % 4}`;
  });
  writeFileSync(gaps, ['income,region', ...rows].join('\n') + '\n');
  const profile = await duckProfile(gaps);
  const income = profile.semantics.columns.find((c) => c.name === 'income');
  assert.doesNotMatch(income?.evidence ?? '', /codes of brackets/, income?.evidence);
});

void test("R's row numbers under an empty name number the rows, they name no entity; row names in words still do", async () => {
  const numbered = join(dir, 'numbered.csv');
  const rows = Array.from(
    { length: 40 },
    (_, i) => `"${i + 1}",${(i * 7) % 23},"${i % 2 ? 'placebo' : 'drug'}",${20 + (i % 9)}`,
  );
  writeFileSync(numbered, ['"","y","trt","age"', ...rows].join('\n') + '\n');
  const profile = await duckProfile(numbered);
  assert.deepEqual(profile.semantics.table.keys, [], JSON.stringify(profile.semantics.table));
  const { duck, pandas } = bothEngines(numbered, dir);
  for (const run of [duck, pandas])
    assert.ok(!run.charts.some((t) => /Unnamed: 0/.test(t)), run.charts.join('\n'));
  const named = join(dir, 'cars.csv');
  const cars = Array.from({ length: 12 }, (_, i) => `"Car ${i}",${18 + i},${100 + i * 9}`);
  writeFileSync(named, ['"","mpg","hp"', ...cars].join('\n') + '\n');
  assert.deepEqual((await duckProfile(named)).semantics.table.keys, ['Unnamed: 0']);
});
