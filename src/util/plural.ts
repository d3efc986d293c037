/** Counts in words for people: "1 table", "2 tables", "1 analysis", "3 analyses". */

/** `n` and the noun in the right number; `plural` defaults to the noun + "s". Large counts get thousands separators. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

/** The charts and tables of a report, and its captured figures when there are any, e.g. "1 chart, 2 tables, 1 figure". */
export function chartsAndTables(charts: number, tables: number, figures = 0): string {
  return `${count(charts, 'chart')}, ${count(tables, 'table')}${figures > 0 ? `, ${count(figures, 'figure')}` : ''}`;
}
