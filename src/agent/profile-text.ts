/**
 * The profile as text for a model's prompt and the terminal: one line per
 * column, bounded to a byte budget (8 KB for a 100-column file), shortening
 * detail before dropping columns and always saying what was left out.
 */
import { quotientFormula } from './semantics-quotients.js';
import { count } from '../util/plural.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import type { ColumnRole, Role, Semantics } from './semantics-types.js';
import { groupsText } from './semantics-aggregates.js';
import { ownOrder } from './semantics-ordinal.js';

/** The default prompt budget for the profile text, in bytes. */
const PROFILE_TEXT_BUDGET = 8 * 1024;

const num = (v: number): string => {
  const abs = Math.abs(v);
  if (abs !== 0 && (abs >= 1e9 || abs < 1e-3)) return v.toExponential(2);
  return v.toLocaleString('en-US', { maximumFractionDigits: abs >= 100 ? 0 : abs >= 1 ? 2 : 4 });
};
const pct = (share: number): string =>
  `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;

function stats(c: ColumnProfile, role?: ColumnRole): string {
  const s = c.numeric ?? c.numeric_text?.stats;
  if (!s) return '';
  // A bearing's median and mean depend on where the circle is cut: only its range is said.
  if (role?.role === 'direction') return `min ${num(s.min)}, max ${num(s.max)}`;
  return `min ${num(s.min)}, median ${num(s.median)}, mean ${num(s.mean)}, max ${num(s.max)}${s.outliers ? `, ${s.outliers.toLocaleString('en-US')} outliers` : ''}`;
}

/** What a model should do with each role's numbers, in a few words. */
const ROLE_HINTS: Record<Role, string> = {
  amount: 'amount: sum it',
  count: 'count: sum it',
  level: 'level: average it, never sum',
  stock: 'stock: sum across entities within one period, average over time',
  cumulative: 'running total: take the last value, never sum',
  ratio: 'ratio: average it, never sum',
  identifier: 'identifier: count distinct, never aggregate',
  code: 'code: a label, not a quantity',
  year: 'year',
  latitude: 'latitude',
  longitude: 'longitude',
  direction:
    'compass bearing: 360° meets 0°, so never sum, average or correlate it; chart its distribution (a histogram), or count rows by it',
  category: 'category',
  text: 'free text',
  date: 'date',
  empty: 'empty or constant',
};

/** Roles the column's type already says. */
const PLAIN = new Set<Role>(['category', 'date', 'text', 'empty']);

function roleHint(role: ColumnRole | undefined): string | null {
  if (!role || PLAIN.has(role.role)) return null;
  return `role ${ROLE_HINTS[role.role]}${role.settled ? '' : ' (unsure: the safe statistic)'}`;
}

/** Notes already said by the line's own figures (missing share, outliers). */
const SAID = /missing$|outliers beyond/;

/** One line for a column at a detail level (2 full, 1 short, 0 minimal). */
function columnLine(c: ColumnProfile, detail: 0 | 1 | 2, role?: ColumnRole): string {
  const head = `- ${c.name} [${c.semantic}${c.semantic === 'numeric' || c.semantic === 'numeric_text' ? ` ${c.dtype}` : ''}]`;
  const missing = c.missing ? ` ${pct(c.missing_share)} missing,` : '';
  const base = `${head}${missing} ${c.distinct.toLocaleString('en-US')} distinct`;
  if (detail === 0) return base;
  const parts: string[] = [];
  const hint = roleHint(role);
  if (hint) parts.push(hint);
  if (c.datetime)
    parts.push(
      `${c.datetime.min.slice(0, 19)} → ${c.datetime.max.slice(0, 19)}${c.datetime.frequency ? ` (${c.datetime.frequency})` : ''}`,
    );
  const st = stats(c, role);
  if (st) parts.push(st);
  if (c.numeric_text)
    parts.push(
      `text like ${c.numeric_text.style} numbers${c.numeric_text.symbol ? ` in ${c.numeric_text.symbol}` : ''}`,
    );
  if (
    (c.semantic === 'category' || c.semantic === 'boolean' || c.semantic === 'constant') &&
    c.top.length
  ) {
    parts.push(
      `top: ${c.top
        .slice(0, detail === 2 ? 5 : 3)
        .map((t) => `${t.value.slice(0, 30)} (${t.count.toLocaleString('en-US')})`)
        .join(', ')}`,
    );
  }
  const order = detail === 2 ? ownOrder(c) : null;
  if (order)
    parts.push(
      `ordered: ${order
        .slice(0, 12)
        .map((l) => l.slice(0, 30))
        .join(' < ')}${order.length > 12 ? ' < …' : ''} (bars keep this order)`,
    );
  const notes = c.notes.filter((n) => !SAID.test(n));
  if (detail === 2 && notes.length) parts.push(notes.join('; '));
  return parts.length ? `${base}; ${parts.join('; ')}` : base;
}

function header(p: DataProfile): string {
  const src = p.source;
  const dialect = [src.format, src.encoding, src.delimiter ? JSON.stringify(src.delimiter) : null]
    .filter(Boolean)
    .join(', ');
  return `Dataset ${src.name}: ${count(p.rows, 'row')} × ${count(p.columns, 'column')} (${dialect}); ${count(p.duplicate_rows, 'duplicate row')}.`;
}

/** What a row is, in one line. */
function grainLine(sem: Semantics): string {
  const t = sem.table;
  const words: Record<Semantics['table']['grain'], string> = {
    event: 'one event (times repeat with no key making them unique)',
    series: 'one period of a time series',
    panel: `one ${t.entity ?? 'entity'} in one period (a panel)`,
    cross_section: t.entity ? `one ${t.entity}` : 'one record (no time column)',
  };
  const time = t.time
    ? `; time: ${t.time.column}${t.time.freq !== 'none' ? ` (${t.time.freq})` : ''}`
    : '';
  return `A row is ${words[t.grain]}${time}.${t.evidence[0] ? ` ${t.evidence[0]}` : ''}`;
}

/** Totals and derived columns, which sums must not count twice. */
function semanticTail(
  sem: Semantics,
  dates: DataProfile['column_profiles'][number]['datetime'],
): string[] {
  const out: string[] = [];
  for (const t of sem.totals.slice(0, 4))
    out.push(
      `Total rows: ${t.column} = ${JSON.stringify(t.value)} is the total of the others for ${t.measure}; leave it out when summing.`,
    );
  for (const g of (sem.aggregates ?? []).slice(0, 2))
    out.push(
      `Groups: ${g.column} lists ${g.values.length} groups of its other values (${groupsText(g.values, 6)}); leave them out (filter "not in") when summing or ranking.`,
    );
  out.push(...reportedLines(sem, dates));
  for (const d of sem.derived.slice(0, 4))
    out.push(`Derived: ${d.column} = ${d.how} of ${d.from.join(', ')} (${d.evidence}).`);
  for (const b of (sem.balances ?? []).slice(0, 2))
    out.push(
      `Running balance: ${b.balance} changes by ${b.amount} from each row to the next; sum ${b.amount} (money in and out), chart ${b.balance} over time with agg "last" (each period's closing balance), never by a category.`,
    );
  for (const q of (sem.quotients ?? []).slice(0, 4))
    out.push(
      `Quotient: ${q.column} = ${quotientFormula(q)} on every row; plan agg "mean" of it and each group's or period's value is computed from its totals (never sum it).`,
    );
  for (const a of (sem.aliases ?? []).slice(0, 4))
    out.push(`Same groups: ${a.column} pairs one to one with ${a.as}; group by ${a.as}.`);
  return out;
}

/**
 * A panel's reported years: where to rank and what to total; a dated panel's periods only when
 * they leave out its first or last (`dates`: its time column's range).
 */
function reportedLines(
  sem: Semantics,
  dates: DataProfile['column_profiles'][number]['datetime'],
): string[] {
  const latest = sem.latest;
  if (!latest) return [];
  const [min, max] = [dates?.min, dates?.max].map((d) => d?.replace('T', ' ').slice(0, 19));
  return Object.entries(latest.years)
    .slice(0, 3)
    .flatMap(([m, y]) => {
      const gaps = y.gaps
        ? [
            `Gaps: ${m} is missing on ${y.gaps.cells} rows inside those ${typeof y.from === 'number' ? 'years' : 'periods'} (${y.gaps.missing} of ${y.gaps.rows} ${latest.entity} values at ${y.gaps.at}): average it per ${latest.entity} (agg mean) rather than total it across them, or each total dips where one is missing.`,
          ]
        : [];
      if (typeof y.from === 'number')
        return [
          `Reported years: ${m} has a value for nearly every ${latest.entity} from ${y.from} to ${y.to}; rank them as of ${y.latest} (filter ${latest.column} == ${y.latest}), and total them over those years only.`,
          ...gaps,
        ];
      if (y.from === min && y.to === max) return gaps;
      return [
        `Reported periods: ${m} has ${y.gaps ? 'values' : `a value for nearly every ${latest.entity}`} from ${y.from} to ${y.to} only; total it over those periods (filter ${latest.column} >= "${y.from}" and <= "${y.to}").`,
        ...gaps,
      ];
    });
}

/** The profile as text within `budget` bytes. */
export function profileText(p: DataProfile, budget = PROFILE_TEXT_BUDGET): string {
  const sem = p.semantics;
  const roles = new Map(sem?.columns.map((r) => [r.name, r]) ?? []);
  const time = p.column_profiles.find((c) => c.name === sem?.latest?.column);
  const tail: string[] = sem ? semanticTail(sem, time?.datetime ?? null) : [];
  // A compass bearing's r is of a cut circle (359° beside 0°): not offered to a model.
  const linear = p.correlations.filter(
    (c) => roles.get(c.a)?.role !== 'direction' && roles.get(c.b)?.role !== 'direction',
  );
  if (linear.length)
    tail.push(
      `Strongest correlations${p.approximate?.correlations ? ' (r from an even sample of 200,000 rows; a scatter finding gives r over all rows)' : ''}: ${linear
        .slice(0, 6)
        .map((c) => `${c.a}~${c.b} r=${c.r.toFixed(2)}`)
        .join(', ')}`,
    );
  if (p.warnings.length) tail.push(`Warnings: ${p.warnings.slice(0, 6).join('; ')}`);
  if (p.omitted_columns.count)
    tail.push(
      `${p.omitted_columns.count.toLocaleString('en-US')} more columns not profiled (${Object.entries(
        p.omitted_columns.by_dtype,
      )
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')})`,
    );
  for (const detail of [2, 1, 0] as const) {
    const lines = [
      header(p),
      ...(sem ? [grainLine(sem)] : []),
      'Columns:',
      ...p.column_profiles.map((c) =>
        columnLine(c, detail, roles.get(c.name)).slice(0, detail === 2 ? 280 : 160),
      ),
      ...tail,
    ];
    const text = lines.join('\n');
    if (Buffer.byteLength(text) <= budget || detail === 0) return fit(lines, budget);
  }
  return header(p);
}

function fit(lines: string[], budget: number): string {
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const size = Buffer.byteLength(line) + 1;
    if (used + size > budget - 60) {
      out.push(
        `… ${lines.length - i} more lines left out to fit the ${Math.round(budget / 1024)} KB budget`,
      );
      break;
    }
    out.push(line);
    used += size;
  }
  return out.join('\n');
}
