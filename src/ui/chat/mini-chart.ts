/** Small terminal pictures of charts, so a chart's shape is visible without opening the browser. */
import { plainText } from '../../../renderers/plotly-text.js';
import type { Built } from '../../../renderers/types.js';
import type { BuiltImage } from '../../report/images.js';
import { count } from '../../util/plural.js';

const SPARKS = '▁▂▃▄▅▆▇█';

/** A sparkline of numbers (missing values as spaces), resampled to at most `width` characters. */
export function sparkline(values: readonly (number | null)[], width = 40): string {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (finite.length === 0) return '';
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const step = Math.max(1, values.length / width);
  let out = '';
  for (let i = 0; i < values.length && out.length < width; i += step) {
    const v = values[Math.floor(i)];
    out +=
      typeof v === 'number' && Number.isFinite(v)
        ? SPARKS[hi === lo ? 3 : Math.round(((v - lo) / (hi - lo)) * (SPARKS.length - 1))]
        : ' ';
  }
  return out;
}

/** Horizontal bars for the top `n` categories: `West     ████████████ 441,568`. */
export function topBars(
  labels: readonly unknown[],
  values: readonly unknown[],
  n = 5,
  width = 24,
): string[] {
  const rows = labels
    .map((label, i) => ({
      label: plainText(String(label)),
      value: typeof values[i] === 'number' ? values[i] : NaN,
    }))
    .filter((r) => Number.isFinite(r.value))
    .sort((a, b) => b.value - a.value)
    .slice(0, n);
  const max = Math.max(...rows.map((r) => Math.abs(r.value)), 1e-12);
  const pad = Math.min(14, Math.max(...rows.map((r) => r.label.length), 1));
  return rows.map(
    (r) =>
      `${r.label.slice(0, pad).padEnd(pad)} ${'█'.repeat(Math.max(1, Math.round((Math.abs(r.value) / max) * width)))} ${r.value.toLocaleString('en-US', { maximumFractionDigits: 2 })}`,
  );
}

function numbers(v: unknown): (number | null)[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'number' ? x : null)) : [];
}

/** Up to a few lines picturing a built chart; tables, captured images and unknown shapes get a one-line summary. */
export function miniChart(built: Built | BuiltImage): string[] {
  if (built.type === 'image') return [`image ${built.width} × ${built.height} px`];
  if (built.type === 'html')
    return [`table (${count((built.html.match(/<tr>/g) ?? []).length - 1, 'row')})`];
  const first = built.figure.data[0] ?? {};
  const type = typeof first.type === 'string' ? first.type : 'scatter';
  if (type === 'bar' && Array.isArray(first.width)) return [sparkline(numbers(first.y))]; // a histogram: its shape, in bin order
  if (type === 'bar' && first.orientation !== 'h')
    return topBars(Array.isArray(first.x) ? first.x : [], Array.isArray(first.y) ? first.y : []);
  if (type === 'bar')
    return topBars(Array.isArray(first.y) ? first.y : [], Array.isArray(first.x) ? first.x : []);
  if (type === 'pie')
    return topBars(
      Array.isArray(first.labels) ? first.labels : [],
      Array.isArray(first.values) ? first.values : [],
    );
  if ((type === 'scatter' || type === 'scattergl') && first.mode !== 'markers')
    return [sparkline(numbers(first.y))];
  if (type === 'scatter' || type === 'scattergl') return [count(numbers(first.x).length, 'point')];
  if (type === 'box') return [count(built.figure.data.length, 'box series', 'box series')];
  if (type === 'heatmap')
    return [
      `${Array.isArray(first.y) ? first.y.length : 0} × ${Array.isArray(first.x) ? first.x.length : 0} grid`,
    ];
  return [];
}
