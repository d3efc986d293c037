/**
 * Categories with an order of their own (semantics-ordinal.ts): a survey's answers, bands of a
 * number, sizes, priorities, months in words. Both engines list a small category's every level
 * (ColumnProfile.levels); the host orders them; bars and boxes are drawn in that order with every
 * level, and a survey's answers get a bar of their own, counted in the scale's order.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { answerScale, ordinalOrder } from '../src/agent/semantics-ordinal.js';
import { scaleInsights } from '../src/engine/insights.js';
import { analyzeJson, duckProfile, pandasRead } from './helpers/semantics.js';
import { reportFigures, tempDir } from './helpers/fixtures.js';
import type { ReportFigure } from './helpers/fixtures.js';

const AGES = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'];
const INCOMES = ['Under $25,000', '$25,000 - $49,999', '$50,000 - $99,999', '$100,000 or more'];
const SATISFACTION = [
  'Very dissatisfied',
  'Dissatisfied',
  'Neutral',
  'Satisfied',
  'Very satisfied',
];
const AGREEMENT = [
  'Strongly disagree',
  'Disagree',
  'Neither agree nor disagree',
  'Agree',
  'Strongly agree',
];

/** `levels` shuffled the way a file lists them: in code-point order. */
const sorted = (levels: readonly string[]): string[] => [...levels].sort();

/** Levels and the order they come out in. */
const ORDERED: [string[], string[]][] = [
  [AGES, AGES],
  [INCOMES, INCOMES],
  [SATISFACTION, SATISFACTION],
  [AGREEMENT, AGREEMENT],
  [
    ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
    ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  ],
  [
    ['0-4', '5-9', '10-14', '15-19', '80+'],
    ['0-4', '5-9', '10-14', '15-19', '80+'],
  ],
  [
    ['Lowest', 'Low', 'Medium', 'High', 'Highest'],
    ['Lowest', 'Low', 'Medium', 'High', 'Highest'],
  ],
  [
    ['Trivial', 'Minor', 'Major', 'Critical', 'Blocker'],
    ['Trivial', 'Minor', 'Major', 'Critical', 'Blocker'],
  ],
  [
    ['Not at all important', 'Slightly important', 'Very important', 'Extremely important'],
    ['Not at all important', 'Slightly important', 'Very important', 'Extremely important'],
  ],
  [
    ['Jan', 'Feb', 'Mar', 'Apr', 'Sept'],
    ['Jan', 'Feb', 'Mar', 'Apr', 'Sept'],
  ],
  [
    ['Monday', 'Tuesday', 'Wednesday', 'Sunday'],
    ['Monday', 'Tuesday', 'Wednesday', 'Sunday'],
  ],
  [
    ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'],
    ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'],
  ],
  [
    ['Less than 1 year', '1-3 years', '3-5 years', 'More than 5 years'],
    ['Less than 1 year', '1-3 years', '3-5 years', 'More than 5 years'],
  ],
  [
    ['1-10 employees', '11-50 employees', '51-200 employees', '1001+ employees'],
    ['1-10 employees', '11-50 employees', '51-200 employees', '1001+ employees'],
  ],
  [
    ['<$25k', '$25k-$50k', '$50k-$100k', '>$100k'],
    ['<$25k', '$25k-$50k', '$50k-$100k', '>$100k'],
  ],
  [
    ['1 - Poor', '2', '5', '10 - Excellent'],
    ['1 - Poor', '2', '5', '10 - Excellent'],
  ],
  // Answers outside the scale come after it.
  [
    ["Don't know", 'Somewhat agree', 'Strongly agree', 'Somewhat disagree', 'Strongly disagree'],
    ['Strongly disagree', 'Somewhat disagree', 'Somewhat agree', 'Strongly agree', "Don't know"],
  ],
  [
    ['positive', 'NEGATIVE', 'Neutral'],
    ['NEGATIVE', 'Neutral', 'positive'],
  ],
];

void test('scales, bands, sizes, priorities and months come out in their own order', () => {
  for (const [levels, order] of ORDERED)
    assert.deepEqual(ordinalOrder(sorted(levels)), order, levels.join(', '));
});

void test('plain categories, numbers written as text and scales with two levels on one place have no order', () => {
  for (const levels of [
    ['North', 'South', 'East', 'West'],
    ['Yes', 'No', 'Maybe'],
    ['10001', '10002', '10003'],
    ['Agree', 'Satisfied', 'Disagree'],
    ['Low', 'Medium'],
    ['Neutral', 'Neither agree nor disagree', 'Agree', 'Disagree'],
    ['Store 10', 'Store 2', 'Store 3'],
    ['Good', 'Bad', 'Ugly'],
  ])
    assert.equal(ordinalOrder(levels), null, levels.join(', '));
  const column = { levels: sorted(AGREEMENT) } as Parameters<typeof answerScale>[0];
  assert.equal(answerScale(column), true);
  assert.equal(answerScale({ ...column, levels: sorted(AGES) } as typeof column), false);
});

void test('the sides of a scale share the answers, missing ones left out, as the Python findings say it', () => {
  const rows = [
    ['Agree', 30],
    ['Strongly agree', 10],
    ['Neutral', 20],
    ['Disagree', 15],
    ["Don't know", 5],
    [null, 20],
  ].map(([category, value]) => ({ category, value }));
  const [found] = scaleInsights(rows, 'q', {
    low: ['Disagree'],
    high: ['Agree', 'Strongly agree'],
  });
  // preamble/tests/test_insights.py ScaleTests: the same rows, the same sentence.
  assert.equal(
    found?.text,
    '50.0% of the answers to q are Agree or Strongly agree; 18.8% are Disagree.',
  );
  assert.equal(found?.numbers.total, 80);
  assert.deepEqual(scaleInsights(rows, 'q', { low: [], high: ['Agree'] }), []);
});

/** A survey: each row a response, its answers and the respondent's spend. */
function survey(dir: string): string {
  const lines = [
    'respondent_id,age_group,household_income,satisfaction,recommend,shirt_size,spend',
  ];
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n);
  };
  for (let i = 1; i <= 600; i++) {
    const age = next(6);
    const row = [
      i,
      AGES[age],
      `"${INCOMES[next(4)]}"`,
      SATISFACTION[Math.min(4, next(3) + (age > 3 ? 2 : 0))],
      AGREEMENT[next(5)],
      ['XS', 'S', 'M', 'L', 'XL'][next(5)],
      (20 + next(200) + age * 15).toFixed(2),
    ];
    lines.push(row.join(','));
  }
  const file = join(dir, 'survey.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

void test("both engines list a small category's every level, the same", async () => {
  const file = survey(tempDir());
  const duck = await duckProfile(file);
  const pandas = pandasRead<Record<string, string[]>>(
    file,
    'import opsmind_profile as p\nprint(json.dumps({c["name"]: c["levels"] for c in p.profile(df, info)["column_profiles"] if "levels" in c}))',
  );
  const levels = Object.fromEntries(
    duck.column_profiles.flatMap((c) => (c.levels ? [[c.name, c.levels]] : [])),
  );
  assert.deepEqual(levels, {
    age_group: sorted(AGES),
    household_income: sorted(INCOMES),
    satisfaction: sorted(SATISFACTION),
    recommend: sorted(AGREEMENT),
    shirt_size: sorted(['XS', 'S', 'M', 'L', 'XL']),
  });
  assert.deepEqual(pandas, levels);
});

void test("a survey's bands and answers are drawn in their own order, every level, counted right, in both engines", () => {
  const dir = tempDir();
  const file = survey(dir);
  const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  const counted = (level: string): number => rows.filter((r) => r.includes(`,${level},`)).length;
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<{ charts: { title: string }[]; insights: { text: string }[] }>(
      file,
      engine,
      out,
    );
    const titles = json.charts.map((c) => c.title);
    const drawn = reportFigures(readFileSync(out, 'utf8'));
    const axis = (title: string): string[] | undefined =>
      drawn.get(title)?.layout.xaxis?.categoryarray;
    assert.deepEqual(axis('Spend by age_group'), AGES, `${engine}: ${titles.join(' | ')}`);
    assert.deepEqual(axis('Spend by household_income'), INCOMES, engine);
    assert.deepEqual(axis('Spread of spend within each age_group'), AGES, engine);
    // The answers, counted in the scale's order: every level, none folded into "Other".
    assert.deepEqual(axis('Rows by satisfaction'), SATISFACTION, engine);
    assert.deepEqual(axis('Rows by recommend'), AGREEMENT, engine);
    const bars = drawn.get('Rows by satisfaction')?.data[0];
    const byLevel = new Map(bars?.x?.map((x, i) => [String(x), Number(bars.y?.[i])]));
    for (const level of SATISFACTION) assert.equal(byLevel.get(level), counted(level), level);
    // The answers' sides, in the scale's order, each share of the answers as the file counts it.
    const said = json.insights
      .map((i) => i.text)
      .find((t) => t.includes('of the answers to satisfaction'));
    const m =
      /^([\d.]+)% of the answers to satisfaction are Satisfied or Very satisfied; ([\d.]+)% are Very dissatisfied or Dissatisfied\.$/.exec(
        said ?? '',
      );
    assert.ok(m, `${engine}: ${said}`);
    const share = (levels: string[]): number =>
      (100 * levels.reduce((n, l) => n + counted(l), 0)) / rows.length;
    assert.ok(Math.abs(Number(m[1]) - share(['Satisfied', 'Very satisfied'])) < 0.05, said);
    assert.ok(Math.abs(Number(m[2]) - share(['Dissatisfied', 'Very dissatisfied'])) < 0.05, said);
    // A size is an order, not an answer: it gets no bar of its own.
    assert.ok(!titles.includes('Rows by shirt_size'), titles.join(' | '));
  }
});

void test('a question by bands keeps their order, every band; a question that ranks them ranks them', () => {
  const dir = tempDir();
  const file = survey(dir);
  const first = (question: string): ReportFigure | undefined => {
    const out = join(dir, 'asked.html');
    analyzeJson(file, 'duckdb', out, ['-q', question]);
    return reportFigures(readFileSync(out, 'utf8')).get(question);
  };
  const plain = first('spend by age group');
  assert.deepEqual(plain?.layout.xaxis?.categoryarray, AGES);
  const ranked = first('which age group spends the most');
  assert.equal(ranked?.layout.xaxis?.categoryarray, undefined);
  const drawn = ranked?.data[0]?.y?.map(Number) ?? [];
  assert.deepEqual(
    drawn,
    [...drawn].sort((a, b) => b - a),
    'largest first',
  );
});

void test("lines per band are listed in the bands' order, in both engines", () => {
  const dir = tempDir();
  const lines = ['day,household_income,spend'];
  for (let d = 1; d <= 28; d++)
    INCOMES.forEach((band, b) =>
      lines.push(`2024-02-${String(d).padStart(2, '0')},"${band}",${10 + ((d * 7 + b * 13) % 50)}`),
    );
  const file = join(dir, 'bands.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const question = 'spend per day by household_income';
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    analyzeJson(file, engine, out, ['-q', question]);
    const names = reportFigures(readFileSync(out, 'utf8'))
      .get(question)
      ?.data.map((t) => (t as { name?: string }).name);
    assert.deepEqual(names, INCOMES, engine);
  }
});
