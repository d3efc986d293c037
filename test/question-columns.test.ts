/** Which columns a question names: word by word, never letters inside another word. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { namedColumns, namedFamily } from '../src/agent/question-columns.js';
import { ROOT, tempDir } from './helpers/fixtures.js';
import { analyzeJson, asked, askedAlike } from './helpers/semantics.js';
import { col, profile, SALES } from './helpers/profiles.js';

/** vega-datasets' files. */
const VEGA = join(ROOT, 'node_modules', 'vega-datasets', 'data');

const names = (question: string, columns: string[]): string[] =>
  namedColumns(
    question,
    columns.map((c) => col(c, 'numeric')),
  ).map((c) => c.name);

void test('a column is named by its words, not by letters inside another word', () => {
  // "average" holds "age"; "by" holds "y"; "latency" is not "latency_ms" as text.
  assert.deepEqual(names('average height by name', ['age', 'height', 'name']), ['height', 'name']);
  assert.deepEqual(names('is x related to y?', ['x', 'y', 'z']), ['x', 'y']);
  assert.deepEqual(names('any trend by day?', ['y', 'day']), ['day']);
  assert.deepEqual(names('median latency per product', ['latency_ms', 'product']), [
    'product',
    'latency_ms',
  ]);
});

void test('named as written first, then in the singular or plural, then by its words without units', () => {
  // "unit price" is about price: named as written, before units in the singular.
  assert.deepEqual(names('which product has the highest unit price', ['units', 'price']), [
    'price',
    'units',
  ]);
  assert.deepEqual(names('top 5 products by revenue', ['product', 'revenue']), [
    'revenue',
    'product',
  ]);
  assert.deepEqual(names('countries by sales', ['country', 'sales']), ['sales', 'country']);
  // Units, currencies and qualifiers set aside: "Cost Total $", "Body Mass (g)", "Total_Receipts".
  assert.deepEqual(names('total cost by phase', ['Cost Total $', 'Cost Repair', 'phase']), [
    'phase',
    'Cost Total $',
  ]);
  assert.deepEqual(names('body mass by species', ['Body Mass (g)', 'Species']), [
    'Species',
    'Body Mass (g)',
  ]);
  assert.deepEqual(names('receipts by party', ['Total_Receipts', 'Party_Affiliation']), [
    'Total_Receipts',
  ]);
  // camelCase and a name written as it is spelled.
  assert.deepEqual(names('mean responseTimeMs per host', ['responseTimeMs', 'host']), [
    'responseTimeMs',
    'host',
  ]);
  assert.deepEqual(names('mean response time per host', ['responseTimeMs', 'host']), [
    'host',
    'responseTimeMs',
  ]);
  // Two columns that differ by what is left (min, max) are both named by the rest, last; the
  // one whose statistic is named too comes first.
  assert.deepEqual(names('average temp by weather', ['temp_min', 'temp_max', 'weather']), [
    'weather',
    'temp_min',
    'temp_max',
  ]);
  assert.deepEqual(names('highest temp max', ['temp_min', 'temp_max']), ['temp_max', 'temp_min']);
  // Abbreviated names, by the start of a longer word, last; never by a word that names another column.
  assert.deepEqual(names('life expectancy by year', ['life_expect', 'year']), [
    'year',
    'life_expect',
  ]);
  assert.deepEqual(names('temperature per month', ['temp', 'month']), ['month', 'temp']);
  assert.deepEqual(names('sum by country', ['count', 'country']), ['country']);
  assert.deepEqual(names('sum by country', ['count', 'region']), ['count']);
  assert.deepEqual(names('agents by region', ['age', 'region']), ['region']);
  // Letters and digits of any script.
  assert.deepEqual(names('Umsatz nach Straße', ['Umsatz', 'Straße', 'Stadt']), [
    'Umsatz',
    'Straße',
  ]);
});

void test('a question is answered with the measure it names; one naming none says which it shows', () => {
  const people = profile([
    col('name', 'identifier'),
    col('age', 'numeric'),
    col('height', 'numeric'),
    col('team', 'category', { distinct: 4 }),
  ]);
  const first = heuristicPlan(people, 'average height by team').analyses[0];
  assert.deepEqual(first?.transform, {
    type: 'group',
    by: 'team',
    measure: 'height',
    agg: 'mean',
    top_n: 10,
  });
  assert.doesNotMatch(first?.why ?? '', /names no number column/);
  const guessed = heuristicPlan(SALES, 'Which region sells the most?').analyses[0];
  assert.equal(guessed?.transform.type === 'group' && guessed.transform.measure, 'revenue');
  assert.match(
    guessed?.why ?? '',
    /It names no number column of the data, so this shows revenue, its first measure\./,
  );
  // A handful of whole numbers it names are groups; a question naming no measure among the
  // columns it names gets no histogram of some other measure.
  const cluster = col('cluster', 'numeric', {
    distinct: 6,
    top: [0, 1, 2, 3, 4, 5].map((v) => ({ value: String(v), count: 100 })),
  });
  const gap = profile([cluster, col('life_expect', 'numeric'), col('pop', 'numeric')]);
  assert.deepEqual(heuristicPlan(gap, 'life expectancy by cluster').analyses[0]?.transform, {
    type: 'group',
    by: 'cluster',
    measure: 'life_expect',
    agg: 'mean',
    top_n: 10,
  });
  const other = profile([col('cluster', 'numeric', { distinct: 600 }), col('pop', 'numeric')]);
  assert.equal(
    heuristicPlan(other, 'life expectancy by cluster').analyses.some((a) =>
      a.title.includes('life expectancy'),
    ),
    false,
  );
  // Counting rows needs no measure: nothing to say.
  const counted = heuristicPlan(SALES, 'How many orders per region?').analyses[0];
  assert.equal(counted?.transform.type === 'group' && counted.transform.agg, 'count');
  assert.doesNotMatch(counted?.why ?? '', /names no number column/);
});

void test('a question naming a column of many members ranks its top ones, averages over members with rows enough', () => {
  const flights = profile(
    [
      col('origin', 'category', { distinct: 300 }),
      col('delay', 'numeric'),
      col('carrier', 'category', { distinct: 12 }),
    ],
    { rows: 20_000 },
  );
  const roles = heuristicPlan(flights, 'average delay by origin').analyses[0];
  assert.deepEqual(roles?.transform, {
    type: 'group',
    by: 'origin',
    measure: 'delay',
    agg: 'mean',
    top_n: 10,
    min_rows: 30,
  });
  assert.equal(roles?.title, 'average delay by origin');
  assert.match(roles?.why ?? '', /^Answers the question: .*of those with at least 30 delay values/);
  const five = heuristicPlan(flights, 'top 5 origin by mean delay').analyses[0];
  assert.equal(five?.transform.type === 'group' && five.transform.top_n, 5);
});

void test('analyze -q answers with the columns the question names, end to end', () => {
  const dir = tempDir();
  const file = join(dir, 'people.csv');
  const lines = ['name,age,height,team,latency_ms'];
  for (let i = 0; i < 120; i += 1)
    lines.push(
      `p${i},${20 + ((i * 7) % 40)},${150 + ((i * 13) % 50)},${'ABCD'[i % 4]},${10 + ((i * 3) % 17)}`,
    );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const ask = (question: string) =>
    analyzeJson<{
      charts: { title: string; derivation: { measure: string; agg: string; group_by: string[] } }[];
    }>(file, 'duckdb', join(dir, 'r.html'), ['-q', question]).charts[0];
  const height = ask('average height by team');
  assert.equal(height?.title, 'average height by team');
  assert.deepEqual(
    [height?.derivation.measure, height?.derivation.agg, height?.derivation.group_by],
    ['height', 'mean', ['team']],
  );
  const latency = ask('median latency per team');
  assert.deepEqual(
    [latency?.derivation.measure, latency?.derivation.agg],
    ['latency_ms', 'median'],
  );
});

void test('a quantity named without its statistic names each column of it: temp of temp_max and temp_min', () => {
  const weather = ['date', 'precipitation', 'temp_max', 'temp_min', 'wind'];
  // Its words in another order name it, surest first.
  assert.deepEqual(names('max temp by month', weather), ['temp_max', 'temp_min']);
  assert.deepEqual(names('average temp by month', weather), ['temp_max', 'temp_min']);
  const cols = weather.map((c) => col(c, 'numeric'));
  const all = (): boolean => true;
  assert.deepEqual(
    namedFamily('average temp by month', cols, all).map((c) => c.name),
    ['temp_max', 'temp_min'],
  );
  // A column named whole is no family's; neither is one named by its statistic too.
  assert.deepEqual(namedFamily('average temp_max by month', cols, all), []);
  assert.deepEqual(namedFamily('max temp by month', cols, all), []);
  assert.deepEqual(namedFamily('average wind by month', cols, all), []);
});

void test('analyze -q of a quantity in two columns draws both, or says which it shows', () => {
  const dir = tempDir('opsmind-family-');
  const file = join(VEGA, 'seattle-weather.csv');
  const duck = askedAlike(file, dir, 'average temp by month');
  assert.deepEqual(duck.charts[0]?.derivation.measures, ['temp_max', 'temp_min']);
  assert.match(duck.answer[0] ?? '', /both lines rose: temp_max the most/);
  const bar = asked(file, 'duckdb', dir, 'temp by weather');
  assert.equal(bar.charts[0]?.derivation.measure, 'temp_max');
  const note = JSON.parse(readFileSync(join(dir, 'duckdb.json'), 'utf8')) as {
    spec: { charts: { params: { note?: string } }[] };
  };
  assert.match(
    note.spec.charts[0]?.params.note ?? '',
    /Its words name temp_max and temp_min alike; this shows temp_max\.$/,
  );
});

void test('a name of three words or more is named by its initials, and one of several by its last word', () => {
  const cars = ['Miles_per_Gallon', 'Displacement', 'Origin', 'Year'];
  assert.deepEqual(names('average mpg by origin', cars), ['Origin', 'Miles_per_Gallon']);
  // Initials of two words are too many other words ("in" of Item Number) and are not read.
  assert.deepEqual(names('sales in the north', ['Item Number', 'sales']), ['sales']);
  const movies = ['Major_Genre', 'IMDB Rating', 'Rotten Tomatoes Rating', 'Release Date'];
  assert.deepEqual(names('average rotten tomatoes rating by genre', movies), [
    'Rotten Tomatoes Rating',
    'Major_Genre',
  ]);
  // A last word two names end with names neither; nor do words questions use for time.
  assert.deepEqual(names('rating by genre', movies), ['Major_Genre']);
  assert.deepEqual(names('revenue over time by date', ['Order Date', 'revenue']), ['revenue']);
});

void test('analyze -q: values compared in a panel are a line each; a span of time for a measure alone is its line', () => {
  const dir = tempDir('opsmind-versus-');
  const [gapminder, q] = [join(VEGA, 'gapminder.json'), 'life expectancy of Japan vs China'];
  const versus = askedAlike(gapminder, dir, q);
  assert.equal(versus.charts[0]?.kind, 'line');
  assert.deepEqual(versus.charts[0]?.derivation.group_by, ['country']);
  assert.match(versus.answer[0] ?? '', /grew in both country lines: the most in China/);
  const price = asked(join(VEGA, 'stocks.csv'), 'duckdb', dir, 'price of AAPL in the last 2 years');
  assert.equal(price.charts[0]?.kind, 'line');
  assert.match(
    price.answer[0] ?? '',
    /^Where symbol is AAPL: Price grew [\d.]+% from Jan 2009 to Mar 2010/,
  );
});
