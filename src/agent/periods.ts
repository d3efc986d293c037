/** The periods a time column is charted at, and the frequency that suits a span of dates. */

/**
 * A period is too fine for dates this sparse: they fill fewer than this share of its periods even
 * if each date had one to itself (orders of five days over 20 weeks, charted per week, are a line
 * of 16 gaps).
 */
const SPARSE_SHARE = 0.5;

/**
 * A sensible resampling frequency for a date span: by the span, never finer than the data's own
 * spacing, and coarser while its `distinct` dates could fill fewer than half the periods.
 */
export function frequencyFor(
  spanDays: number,
  observed: string | null,
  distinct = Infinity,
): Period {
  let freq = spacedFrequency(spanDays, observed);
  while (freq !== 'Y' && distinct < SPARSE_SHARE * (spanDays / PERIOD_DAYS[freq] + 1))
    freq = PERIOD_ORDER[PERIOD_ORDER.indexOf(freq) + 1] ?? 'Y';
  return freq;
}

function spacedFrequency(spanDays: number, observed: string | null): Period {
  const bySpan =
    spanDays > 365 * 6
      ? 'Q'
      : spanDays > 365 * 1.5
        ? 'M'
        : spanDays > 90
          ? 'W'
          : spanDays > 3
            ? 'D'
            : 'H';
  // Never finer than the data's own spacing: yearly data charted per quarter shows three empty
  // quarters a year, and a finding then compares a year with a period that is not in the data.
  const seen = PERIOD_ORDER.indexOf(observed as Period);
  return seen > PERIOD_ORDER.indexOf(bySpan) ? (PERIOD_ORDER[seen] ?? bySpan) : bySpan;
}

export type Period = 'H' | 'D' | 'W' | 'M' | 'Q' | 'Y';
/** The months as titles and findings say them ("Aug 2024"). */
export const MONTH_NAMES: readonly string[] =
  'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
/** Periods from the finest to the coarsest. */
export const PERIOD_ORDER: readonly Period[] = ['H', 'D', 'W', 'M', 'Q', 'Y'];
/** Each period in words, for titles, notes and validation messages. */
export const PERIOD_WORD: Readonly<Record<Period, string>> = {
  H: 'hour',
  D: 'day',
  W: 'week',
  M: 'month',
  Q: 'quarter',
  Y: 'year',
};

/** Each period's length in days (a month and a quarter on average). */
export const PERIOD_DAYS: Readonly<Record<Period, number>> = {
  H: 1 / 24,
  D: 1,
  W: 7,
  M: 30.44,
  Q: 91.31,
  Y: 365.25,
};
