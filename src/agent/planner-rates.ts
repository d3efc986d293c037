/**
 * Rates of a two-valued outcome: a table with a flag (Survived 0/1, Churn Yes/No, a boolean) is
 * asked first how often it holds per group — the share of passengers who survived by sex and by
 * class — which a mean of the flag shown as a number, or a bar of its "average", says badly.
 * The share is the mean of an indicator (the flag equals its positive value), over the rows that
 * have the flag; both engines compute it (group transform with `equals`).
 */
import type { Analysis } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { measureFrequency, PERIOD_DAYS, PERIOD_ORDER, PERIOD_WORD } from './roles.js';
import type { Roles } from './roles.js';
import { repeatedProblem } from './semantics.js';
import { named, words } from './semantics-evidence.js';
import { sortFor, topFor } from './semantics-ordinal.js';

/** Names of an outcome an analyst explains by the other columns (the name only picks which flag). */
const OUTCOME_WORDS = words(
  'survived survival churn churned attrition left quit resigned default defaulted fraud outcome target label converted conversion response responded approved accepted rejected readmitted died death dead deceased cancelled canceled returned clicked purchased subscribed won success successful passed failed delayed late',
);

/** The spellings of a flag's positive side (the word itself is taken from the data). */
const POSITIVE = new Set(['yes', 'y', 'true', 't', '1', '1.0', 'on']);

/** A rate per period needs about this many rows in each (on average over the span). */
const RATE_ROWS = 30;

/** The words both readers take for booleans (pandas' true_values and false_values). */
const PANDAS_BOOLEANS = new Set(['True', 'TRUE', 'true', 'False', 'FALSE', 'false']);

/** At most this many groupings get a rate chart. */
const RATE_CHARTS = 3;

/** A discrete number a rate is grouped by: a handful of whole values (a class 1–3, a rating 1–5). */
export function discreteGroups(c: ColumnProfile): boolean {
  const s = c.numeric;
  return (
    c.semantic === 'numeric' &&
    c.distinct >= 2 &&
    c.distinct <= 8 &&
    s !== null &&
    s !== undefined &&
    c.top.every((t) => /^-?\d+(\.0+)?$/.test(t.value))
  );
}

/** The value a flag's rate counts: true, 1 or the file's word for yes (null: not a flag). */
export function positiveValue(c: ColumnProfile): string | number | boolean | null {
  if (c.semantic !== 'boolean' || c.distinct !== 2) return null;
  if (/^bool/i.test(c.dtype)) return true;
  if (/^(u?int|float|double|bigint|integer|smallint|tinyint|hugeint|decimal)/i.test(c.dtype))
    return 1;
  // True/False with gaps: both readers hold booleans (pandas as objects), never the words.
  if (c.top.every((t) => PANDAS_BOOLEANS.has(t.value))) return true;
  const word = c.top.find((t) => POSITIVE.has(t.value.trim().toLowerCase()));
  return word ? word.value : null;
}

/**
 * The flag whose rate is charted: one named as an outcome, else the last flag (datasets put their
 * outcome last more often than first); none past half missing.
 */
export function outcomeFlag(profile: DataProfile): ColumnProfile | null {
  const flags = profile.column_profiles.filter(
    (c) => positiveValue(c) !== null && c.missing_share <= 0.5,
  );
  return flags.find((c) => named(c.name, OUTCOME_WORDS)) ?? flags[flags.length - 1] ?? null;
}

/** Words of a question that asks how often something holds. */
const RATE_WORDS =
  /\b(rates?|share|proportion|percent(age)?|likely|likelihood|chances?|odds|how often|fraction)\b/i;

/** How a question names an outcome without its column's name ("attrition", "who survived"). */
const ASKED_OUTCOME =
  /\b(surviv\w*|churn\w*|attrition|left|quit|default\w*|fraud\w*|convert\w*|conversion|readmi\w*|died|death|cancel\w*|clicked|subscri\w*|outcome)\b/i;

/** A column's name as a question may say it: "left company", "surviv" (survived, survival). */
const spoken = (name: string): string =>
  name
    .toLowerCase()
    .replace(/_/g, ' ')
    .replace(/(ed|d|s)$/, '');

/**
 * The rate a question asks for ("Which Pclass had the highest share of Survived?", "survival rate
 * by class"): a flag it names, grouped by the category or discrete number it names (else the
 * first the planner would take). None when it names no flag or asks no rate.
 */
export function rateQuestion(
  question: string,
  profile: DataProfile,
  r: Roles,
  named: readonly ColumnProfile[],
  words: { title: string; why: string },
): Analysis | null {
  if (!RATE_WORDS.test(question)) return null;
  const q = question.toLowerCase();
  const says = (c: ColumnProfile): boolean =>
    named.includes(c) || (spoken(c.name).length >= 4 && q.includes(spoken(c.name)));
  // The outcome by another of its words: "attrition" for left_company, "survival" for Survived.
  const outcome = outcomeFlag(profile);
  const asksOutcome = ASKED_OUTCOME.test(question);
  const flag =
    profile.column_profiles.find((c) => positiveValue(c) !== null && says(c)) ??
    (asksOutcome ? outcome : null);
  const equals = flag ? positiveValue(flag) : null;
  if (!flag || equals === null) return null;
  const groups = (c: ColumnProfile): boolean =>
    c !== flag && positiveValue(c) === null && (r.categories.includes(c) || discreteGroups(c));
  const fallback = rateAnalyses(r, profile)[0]?.transform;
  const asked = named.find(groups) ?? profile.column_profiles.find((c) => groups(c) && says(c));
  const column = asked?.name ?? (fallback?.type === 'group' ? fallback.by : null);
  if (!column) return null;
  const grouping = profile.column_profiles.find((c) => c.name === column);
  return {
    title: words.title,
    why: `${words.why} The share of rows with ${flag.name} = ${shown(equals)} in each ${column}, in %.`,
    chart: 'bar',
    transform: {
      type: 'group',
      by: column,
      measure: flag.name,
      agg: 'mean',
      equals,
      ...topFor(grouping, 10),
    },
    options: {
      sort: sortFor(grouping),
      ...((grouping?.distinct ?? 0) > 8 ? { orientation: 'h' as const } : {}),
    },
  };
}

/** At most this many groups in a rate's bar (its top_n), so that none is left out. */
const RATE_GROUPS = 12;

const shown = (equals: string | number | boolean): string =>
  typeof equals === 'boolean' ? (equals ? 'True' : 'False') : String(equals);

/** Bar charts of the outcome flag's rate by the first two categories and the first discrete number. */
export function rateAnalyses(r: Roles, profile: DataProfile): Analysis[] {
  const flag = outcomeFlag(profile);
  const equals = flag ? positiveValue(flag) : null;
  if (!flag || equals === null) return [];
  const usable = (c: ColumnProfile): boolean =>
    c.name !== flag.name &&
    c.missing_share < 0.5 &&
    positiveValue(c) === null &&
    !repeatedProblem(r.semantics, flag.name, c.name);
  // Two values are as good a grouping as twelve here (sex): categories in column order.
  const order = (c: ColumnProfile): number => profile.column_profiles.indexOf(c);
  // Every group drawn: past RATE_GROUPS a bar keeps its highest shares, which are those of the
  // smallest groups (one quake's source list at 100%), not the groups that matter.
  const categories = r.categories
    .filter((c) => usable(c) && c.distinct <= RATE_GROUPS)
    .sort((a, b) => order(a) - order(b));
  const numbers = profile.column_profiles.filter((c) => usable(c) && discreteGroups(c));
  const picked = [categories[0], categories[1], numbers[0], categories[2], numbers[1]]
    .filter((c): c is ColumnProfile => c !== undefined)
    .slice(0, RATE_CHARTS)
    .sort((a, b) => order(a) - order(b));
  const bars = picked.map((by): Analysis => ({
    title: `Share with ${flag.name} = ${shown(equals)} by ${by.name}`,
    chart: 'bar',
    why: `How often ${flag.name} is ${shown(equals)} in each ${by.name}: the share of its rows, in % (rows without ${flag.name} left out).`,
    transform: {
      type: 'group',
      by: by.name,
      measure: flag.name,
      agg: 'mean',
      equals,
      ...topFor(by, RATE_GROUPS),
    },
    options: { sort: sortFor(by), ...(by.distinct > 8 ? { orientation: 'h' as const } : {}) },
  }));
  return [...rateOverTime(r, profile, flag, equals), ...bars];
}

/**
 * Events or a panel over time with an outcome: its share per period (the share of orders
 * returned per month), pooled over all rows of the period. A cross-section's date (a hire date)
 * is when each row began, not a timeline: none there.
 */
function rateOverTime(
  r: Roles,
  profile: DataProfile,
  flag: ColumnProfile,
  equals: string | number | boolean,
): Analysis[] {
  const date = r.dates[0];
  if (!date || date.semantic !== 'datetime' || r.semantics.table.grain === 'cross_section')
    return [];
  // A share of a handful of rows jumps between 0% and 100%: periods of RATE_ROWS rows or more.
  const rows = profile.rows - flag.missing;
  const span = Math.max(date.datetime?.span_days ?? 0, 1);
  const freq = PERIOD_ORDER.slice(PERIOD_ORDER.indexOf(measureFrequency(date, undefined, r))).find(
    (f) => rows / Math.max(span / PERIOD_DAYS[f], 1) >= RATE_ROWS,
  );
  if (!freq) return [];
  const period = PERIOD_WORD[freq];
  return [
    {
      title: `Share with ${flag.name} = ${shown(equals)} per ${period} of ${date.name}`,
      chart: 'line',
      why: `How the share of rows with ${flag.name} = ${shown(equals)} moves with ${date.name}, in % of each ${period}'s rows that have ${flag.name}.`,
      transform: {
        type: 'resample',
        date: date.name,
        measure: flag.name,
        agg: 'mean',
        equals,
        freq,
      },
    },
  ];
}
