/**
 * A panel's totals across its entities where its measure has gaps (Reported.gaps): five stores a
 * month, one store's revenue blank in some months, three in Aug 2023. A total per month over the
 * stores that have it dips wherever one is missing: "revenue was lowest in Aug 2023" and "2024 was
 * 27% above 2023" (2023 had more blanks) were the blanks, not the stores. A ranking of the stores'
 * totals favours those with fewer blanks the same way. The safe statistic is the average per
 * entity and period, over those that have a value: lines and rankings use it, and say why. A
 * question that asks for the total keeps it, with the gaps said; a pie's shares stay of the total
 * reported (a pie of averages is no whole), with the gaps said.
 */
import type { Analysis } from './plan.js';
import { PERIOD_WORD } from './periods.js';
import { periodsWord, periodText } from './planner-latest.js';
import type { Roles } from './roles.js';
import type { Reported } from './semantics-types.js';
import { ANSWERS } from './question-analysis.js';

const TITLE_CHARS = 120;
const WHY_CHARS = 300;

/** `a` averaging a panel's measure per entity and period where a total would sum its gaps; else `a`. */
export function overGaps(a: Analysis, r: Roles, keepTotal = false): Analysis {
  const latest = r.semantics.latest;
  const t = a.transform;
  if (!latest || (t.type !== 'group' && t.type !== 'resample' && t.type !== 'season')) return a;
  if (t.agg !== 'sum' || t.measure === null || (t.type === 'group' && t.by === latest.column))
    return a;
  // Each entity's own line has its blanks as breaks: nothing summed over them.
  if (t.type !== 'season' && t.series === latest.entity) return a;
  if (t.type !== 'group' && t.date !== latest.column) return a;
  // One measure (a line of several, `measures`, has none of its own: left as it is).
  const gaps = latest.years[t.measure]?.gaps;
  if (!gaps) return a;
  const units = typeof gaps.at === 'number' ? 'years' : periodsWord(r.semantics.table.time?.freq);
  const unit = units.replace(/s$/, '');
  const said = gapsSaid(t.measure, gaps, latest.entity, unit, units);
  if (keepTotal || a.chart === 'pie') {
    const total =
      a.chart === 'pie'
        ? `Shares of the ${t.measure} reported: ${said}, which lowers the share of those they belong to.`
        : `${said}: the totals of those ${units} are of the others.`;
    return { ...a, why: `${a.why} ${total}`.slice(0, WHY_CHARS) };
  }
  // The average's own why (the total's said "summed"), after a question's answer's.
  const why = `${a.why.startsWith(ANSWERS) ? `${a.why} ` : ''}${averageWhy(a, latest.entity, t.measure, units)}: ${said}, and a total would ${t.type === 'group' ? `favour the ${latest.entity} values with fewer of them` : 'dip wherever one is missing'}.`;
  return {
    ...a,
    title: averageTitle(a, latest.entity, unit).slice(0, TITLE_CHARS),
    why: why.slice(0, WHY_CHARS),
    transform: { ...t, agg: 'mean' },
  };
}

/** Whether a question asks for a total ("total revenue per month", "sum of sales"). */
export function totalAsked(question: string | undefined): boolean {
  return (
    question !== undefined && /\b(total|totals|sum|summed|altogether|combined)\b/i.test(question)
  );
}

/** What the average shows, before its gaps are said. */
function averageWhy(a: Analysis, entity: string, measure: string, units: string): string {
  const t = a.transform;
  if (t.type === 'group')
    return `Each ${t.by} value's ${measure} per ${t.by === entity ? '' : `${entity} and `}${units.replace(/s$/, '')} on average, over the ${units} with one`;
  if (t.type === 'season')
    return `The seasonal pattern: ${measure} per ${entity} on average, over the ${entity} values with one`;
  return `How ${measure} moves over time: per ${entity} on average, over the ${entity} values with one`;
}

/** "18 store × month rows have no revenue (3 of 5 stores in Aug 2023)". */
function gapsSaid(
  measure: string,
  gaps: NonNullable<Reported['gaps']>,
  entity: string,
  unit: string,
  units: string,
): string {
  const one = gaps.cells === 1;
  const cells = `${gaps.cells.toLocaleString('en-US')} ${entity} × ${unit} ${one ? 'row' : 'rows'}`;
  const at = periodText(gaps.at, units);
  return `${cells} ${one ? 'has' : 'have'} no ${measure} (${gaps.missing.toLocaleString('en-US')} of ${gaps.rows.toLocaleString('en-US')} ${entity} values in ${at})`;
}

/**
 * The title of the average: "Average revenue per store per month", "Average revenue per month by
 * store", "Average revenue per store by month of year".
 */
function averageTitle(a: Analysis, entity: string, unit: string): string {
  const t = a.transform;
  if (t.type === 'resample') {
    const what = t.measure ?? '';
    const period = PERIOD_WORD[t.freq];
    const per =
      period === unit ? `per ${entity} per ${period}` : `per ${entity} and ${unit}, by ${period}`;
    return `Average ${what} ${per}${t.series ? ` by ${t.series}` : ''}`;
  }
  if (t.type === 'season') {
    const cut = a.title.lastIndexOf(' by ');
    return `Average ${t.measure ?? ''} per ${entity}${cut >= 0 ? a.title.slice(cut) : ''}`;
  }
  if (t.type !== 'group') return a.title;
  const per = t.by === entity ? `per ${unit}` : `per ${entity} and ${unit}`;
  return a.title.startsWith('Top ')
    ? `Top ${t.top_n ?? 10} ${t.by} by average ${t.measure ?? ''} ${per}`
    : `Average ${t.measure ?? ''} ${per} by ${t.by}${t.series ? ` and ${t.series}` : ''}`;
}
