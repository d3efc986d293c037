/**
 * A time axis whose points each start a month (a quarter, a year): ticks on those periods and
 * labelled by them ("Apr 2024", "Q2 2024", "2024"), and the hover saying the period, not the day. Left to
 * itself Plotly ticks five monthly points at weeks ("Apr 7", "Apr 21"), between the points.
 */

/** The start of a month as the engines write it: 2024-04-01, 2024-04-01T00:00:00.000. */
const MONTH_START = /^(\d{4})-(\d{2})-01(?:[T ]00:00(?::00(?:\.0+)?)?)?$/;

/** Half an average month, in milliseconds. */
const HALF_MONTH = 15.2 * 86_400_000;

/** Tick spacings in months, the nicest first fitting ~12 ticks. */
const NICE_MONTHS = [1, 2, 3, 6, 12, 24, 36, 60, 120, 240, 600, 1200];

/** A day's start as the engines write it: 2024-04-03, 2024-04-03T00:00:00.000. */
const DAY_START = /^(\d{4}-\d{2}-\d{2})(?:[T ]00:00(?::00(?:\.0+)?)?)?$/;

const DAY = 86_400_000;

/** At most this many days apart, a line of days gets a tick per day or week (past it Plotly's own are days or months). */
const SHORT_DAYS = 42;

/**
 * The axis settings for `xs` when every value starts a month (or, over a few weeks, a day); null
 * for any other axis.
 */
export function periodAxis(xs: readonly unknown[]): Record<string, unknown> | null {
  return monthAxis(xs) ?? dayAxis(xs);
}

/**
 * The distinct periods of `xs` in order (each value's number, as `read` gives it; missing values
 * skipped), the first, the last and the smallest step between two; null when a value is not a
 * period or fewer than two are.
 */
function periodsOf(
  xs: readonly unknown[],
  read: (x: string) => number | null,
): { sorted: number[]; first: number; last: number; step: number } | null {
  const seen = new Set<number>();
  for (const x of xs) {
    if (x === null || x === undefined) continue;
    const n = typeof x === 'string' ? read(x) : null;
    if (n === null) return null;
    seen.add(n);
  }
  const sorted = [...seen].sort((a, b) => a - b);
  const [first, last] = [sorted[0], sorted.at(-1)];
  if (first === undefined || last === undefined || sorted.length < 2) return null;
  let step = Infinity;
  for (let i = 1; i < sorted.length; i++)
    step = Math.min(step, (sorted[i] ?? 0) - (sorted[i - 1] ?? 0));
  return { sorted, first, last, step };
}

/**
 * Points that each start a day, over at most SHORT_DAYS: ticked on days (every day, every other,
 * every week from the first), hovered by day. Left to itself Plotly ticks six daily points at 00:00 and 12:00.
 */
function dayAxis(xs: readonly unknown[]): Record<string, unknown> | null {
  const read = (x: string): number | null => {
    const m = DAY_START.exec(x);
    return m ? Date.parse(`${m[1]}T00:00:00Z`) / DAY : null;
  };
  const spread = periodsOf(xs, read);
  if (!spread || spread.last - spread.first > SHORT_DAYS) return null;
  const { first, last, step } = spread;
  const every = [1, 2].find((n) => n >= step && n * 12 >= last - first) ?? 7;
  return {
    type: 'date',
    tick0: new Date(first * DAY).toISOString().slice(0, 10),
    dtick: every * DAY,
    hoverformat: '%b %-d, %Y',
  };
}

function monthAxis(xs: readonly unknown[]): Record<string, unknown> | null {
  const read = (x: string): number | null => {
    const m = MONTH_START.exec(x);
    return m ? Number(m[1]) * 12 + Number(m[2]) - 1 : null;
  };
  const spread = periodsOf(xs, read);
  if (!spread) return null;
  const { sorted, first, last, step } = spread;
  const yearly = step % 12 === 0 && sorted.every((m) => m % 12 === 0);
  const quarterly = !yearly && step % 3 === 0 && sorted.every((m) => m % 3 === 0);
  const period = yearly ? '%Y' : quarterly ? 'Q%q %Y' : '%b %Y';
  const every =
    NICE_MONTHS.find((n) => n % step === 0 && n * 12 >= last - first) ??
    step * Math.ceil((last - first) / step / 12);
  const format = every % 12 === 0 ? '%Y' : period;
  const year = Math.floor(first / 12);
  const month = String((first % 12) + 1).padStart(2, '0');
  // Half a step of room past the first and last points, so their ticks and labels are drawn.
  const at = (m: number, pad: number): string =>
    new Date(Date.UTC(Math.floor(m / 12), m % 12, 1) + pad * HALF_MONTH * step)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
  return {
    type: 'date',
    range: [at(first, -1), at(last, 1)],
    // Ticks a year or more apart sit on the years' starts, which their labels name.
    tick0: every % 12 === 0 ? `${year}-01-01` : `${year}-${month}-01`,
    dtick: `M${every}`,
    tickformat: format,
    hoverformat: period,
  };
}
