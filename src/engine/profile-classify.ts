/**
 * One column's semantic type and profile from everything the scans found, deciding in the order
 * opsmind_profile.column_profile does (empty, constant, boolean, datetime, numbers, text) and
 * writing its notes in the same words and order.
 */
import type { ColumnProfile } from '../agent/profile.js';
import type { SourceFormat } from './types.js';
import type { ProfileColumn } from './profile-columns.js';
import { isNumberKind, profileDtype } from './profile-columns.js';
import type { DateStats, Frequency } from './profile-dates.js';
import { dateStats } from './profile-dates.js';
import type { DetailScan } from './profile-details.js';
import { pct, thousands } from './profile-format.js';
import type { MomentScan, NumberScan, NumberStats } from './profile-numbers.js';
import { numberStats } from './profile-numbers.js';
import type { ColumnScan } from './profile-scan.js';
import type { NumberTextStyle, TextSampleVerdict } from './profile-semantic.js';
import {
  booleanPair,
  classifyNumeric,
  classifyText,
  mayLink,
  nodeColumns,
} from './profile-semantic.js';
import type { ColumnTop } from './profile-top.js';
import { levelsOf, topList } from './profile-top.js';

type Semantic = ColumnProfile['semantic'];

/** Everything the scans found about one column. */
export interface ColumnFacts {
  column: ProfileColumn;
  rows: number;
  /** The source's format (a CSV reads differently from a typed format). */
  format: SourceFormat;
  scan: ColumnScan;
  top: ColumnTop | undefined;
  /** A text column's sample verdict, when it was judged. */
  verdict: TextSampleVerdict | null;
  /** A text column's parsed dates and numbers, when they were parsed. */
  detail: DetailScan | null;
}

/** A column's semantic type and where its statistics come from. */
export interface Decision {
  semantic: Semantic;
  /** Number statistics from the column's own numbers, or from its text parsed. */
  numbers: 'own' | 'text' | null;
  /** Date statistics from the column's own timestamps, or from its text parsed. */
  dates: 'own' | 'text' | null;
  style: NumberTextStyle | null;
  /** For a column of node codes (profile-semantic nodeCodes): the ends of its link. */
  link?: readonly [string, string];
}

function isBoolean(facts: ColumnFacts, distinct: number): boolean {
  const { column, scan, top } = facts;
  if (column.kind === 'bool') return true;
  if (column.kind === 'int' || column.kind === 'float')
    return distinct === 2 && scan.numbers?.min === 0 && scan.numbers.max === 1;
  if (column.kind !== 'text' || distinct > 6 || !top) return false;
  return booleanPair(top.values.map((value) => value.text));
}

function decideText(facts: ColumnFacts, distinct: number): Decision {
  const { scan, detail, verdict } = facts;
  const judged = verdict ?? { keyLike: false, dateLike: false, style: null, tokenLike: false };
  const parsed = detail?.dates?.parsed ?? 0;
  const semantic = classifyText({
    name: facts.column.name,
    distinct,
    nonmissing: scan.nonmissing,
    meanLength: scan.lengthSum / scan.nonmissing,
    verdict: judged,
    dateShare: detail?.dates !== undefined ? parsed / scan.nonmissing : null,
  });
  return {
    semantic,
    numbers: semantic === 'numeric_text' ? 'text' : null,
    dates: semantic === 'datetime' ? 'text' : null,
    style: semantic === 'numeric_text' ? judged.style : null,
  };
}

/** The semantic type of a column, and which statistics it gets. */
export function decide(facts: ColumnFacts): Decision {
  const { column, scan } = facts;
  const distinct = facts.top?.distinct ?? 0;
  const own = isNumberKind(column.kind) ? 'own' : null;
  const plain = (semantic: Semantic, numbers: 'own' | null = null): Decision => ({
    semantic,
    numbers,
    dates: null,
    style: null,
  });
  if (scan.nonmissing === 0) return plain('empty');
  if (distinct === 1) return plain('constant', own);
  if (isBoolean(facts, distinct)) return plain('boolean', own);
  if (column.kind === 'datetime') return { ...plain('datetime'), dates: 'own' };
  if (own) {
    const numbers = scan.numbers;
    const semantic = classifyNumeric({
      name: column.name,
      distinct,
      nonmissing: scan.nonmissing,
      finite: numbers?.count ?? 0,
      integral: scan.integral,
      min: numbers?.min ?? NaN,
      max: numbers?.max ?? NaN,
      mostRepeated: facts.top?.values[0]?.count ?? 0,
    });
    return plain(semantic, semantic === 'numeric' ? 'own' : null);
  }
  return decideText(facts, distinct);
}

/**
 * The decisions of a table's columns, each decided alone, then the number columns that pair as
 * an edge list's node codes (source and target ids) made categories: counted, never averaged.
 */
export function decideAll(facts: readonly ColumnFacts[]): Decision[] {
  const decisions = facts.map(decide);
  const ends = facts.map(({ column, scan, top }, i) => {
    const numbers = scan.numbers;
    // Only a link's name can pair (its wholeness was counted by the scan: profile-scan).
    const own = decisions[i]?.semantic === 'numeric' && decisions[i]?.numbers === 'own';
    if (!own || !numbers || !mayLink(column.name)) return null;
    const { min, max } = numbers;
    return { name: column.name, integral: scan.integral, min, max, distinct: top?.distinct ?? 0 };
  });
  const nodes = nodeColumns(ends);
  return decisions.map((decision, i) => {
    const link = nodes.get(i);
    return link ? { ...decision, semantic: 'category', numbers: null, link } : decision;
  });
}

/** The statistics the second scan and the frequency query completed. */
export interface Completion {
  moments: MomentScan | undefined;
  frequency: Frequency | null;
}

function numbersOf(facts: ColumnFacts, decision: Decision, done: Completion): NumberStats | null {
  const scan: NumberScan | null | undefined =
    decision.numbers === 'own' ? facts.scan.numbers : facts.detail?.numbers;
  if (!scan || !done.moments) return null;
  return numberStats(scan, done.moments);
}

function datesOf(facts: ColumnFacts, decision: Decision, done: Completion): DateStats | null {
  const scan = decision.dates === 'own' ? facts.scan.dates : facts.detail?.dates;
  if (!scan) return null;
  const share =
    decision.dates === 'own'
      ? 1
      : 1 - (facts.scan.nonmissing - scan.parsed) / facts.scan.nonmissing;
  return dateStats(scan, done.frequency, share);
}

/** The profile of one column (ColumnProfileSchema). */
export function columnProfile(
  facts: ColumnFacts,
  decision: Decision,
  done: Completion,
): ColumnProfile {
  const { column, rows, scan } = facts;
  const missing = rows - scan.nonmissing;
  const numbers = numbersOf(facts, decision, done);
  const semantic = decision.semantic;
  const infinite = infiniteCount(facts);
  return {
    name: column.name,
    dtype: profileDtype(column, rows, scan.nonmissing, facts.format),
    semantic,
    missing,
    missing_share: rows ? missing / rows : 0,
    distinct: facts.top?.distinct ?? 0,
    top: topList(facts.top),
    numeric: decision.numbers === 'own' ? numbers : null,
    datetime: decision.dates ? datesOf(facts, decision, done) : null,
    numeric_text:
      decision.numbers === 'text' && decision.style
        ? {
            style: decision.style,
            parse_share: (facts.detail?.numbers?.count ?? 0) / scan.nonmissing,
            stats: numbers,
            ...(decision.style === 'currency' && facts.verdict?.currencies?.length === 1
              ? { symbol: facts.verdict.currencies[0] }
              : {}),
          }
        : null,
    text:
      semantic === 'text'
        ? { mean_length: scan.lengthSum / scan.nonmissing, max_length: scan.maxLength }
        : null,
    ...(infinite ? { infinite } : {}),
    ...levelsFor(facts, semantic),
    notes: columnNotes(facts, decision, numbers),
  };
}

/** A text column of categories' levels (ColumnProfile.levels), when it has few. */
function levelsFor(facts: ColumnFacts, semantic: ColumnProfile['semantic']): { levels?: string[] } {
  if (semantic !== 'category' || facts.column.kind !== 'text') return {};
  const levels = levelsOf(facts.top);
  return levels ? { levels } : {};
}

/** How many values of a number column are ±inf: those it holds that are not finite numbers. */
export function infiniteCount({ column, scan }: ColumnFacts): number {
  return isNumberKind(column.kind) ? scan.nonmissing - (scan.numbers?.count ?? 0) : 0;
}

function columnNotes(
  facts: ColumnFacts,
  decision: Decision,
  numbers: NumberStats | null,
): string[] {
  const { column, rows, scan } = facts;
  const missing = rows - scan.nonmissing;
  const notes: string[] = [];
  if (missing && scan.nonmissing) notes.push(`${pct(missing / rows)} missing`);
  if (column.kind === 'duration') notes.push('durations: statistics in seconds');
  const infinite = infiniteCount(facts);
  if (infinite) notes.push(`${thousands(infinite)} infinite values left out of statistics`);
  if (decision.semantic === 'empty') notes.push('every value is missing');
  if (decision.semantic === 'constant')
    notes.push(`constant: every value is '${topList(facts.top)[0]?.value ?? ''}'`);
  if (decision.dates === 'text') {
    const unparsed = scan.nonmissing - (facts.detail?.dates?.parsed ?? 0);
    notes.push('dates stored as text');
    if (unparsed) notes.push(`${thousands(unparsed)} values do not parse as dates`);
  }
  if (decision.numbers === 'text') {
    const notNumbers = scan.nonmissing - (facts.detail?.numbers?.count ?? 0);
    notes.push(`numbers stored as text (${decision.style ?? 'plain'})`);
    const currencies = facts.verdict?.currencies ?? [];
    if (decision.style === 'currency' && currencies.length > 1)
      notes.push(
        `in ${currencies.length} currencies (${currencies.join(', ')}): sums and means mix them`,
      );
    if (notNumbers) notes.push(`${thousands(notNumbers)} values are not numbers`);
  }
  if (decision.semantic === 'identifier') notes.push('identifier: not charted');
  if (decision.link)
    notes.push(
      `node codes of the links ${decision.link[0]} → ${decision.link[1]}: counted, not averaged`,
    );
  const outlierSemantic = decision.semantic === 'numeric' || decision.semantic === 'numeric_text';
  if (outlierSemantic && numbers?.outliers)
    notes.push(`${thousands(numbers.outliers)} outliers beyond 1.5 IQR`);
  return notes;
}
