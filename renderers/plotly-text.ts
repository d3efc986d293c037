/**
 * Plotly renders a subset of HTML in every text it draws — titles, axis
 * titles, tick labels, legend entries, hover labels, slice labels,
 * annotations — so a category value `<a href="…">` would become a live link
 * and `<span style="font-size:90px">` would apply. Every figure passes
 * through `escapeFigureText` once, after its renderer built it, so no
 * renderer escapes on its own. Plotly decodes the entities, so the text
 * shows literally.
 */
import type { PlotlyFigure } from './types.js';

/** Escapes `&`, `<`, `>` so Plotly shows `text` literally. */
export function plotlyText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The inverse of `plotlyText`, for places that show a figure's labels outside Plotly (terminal pictures). */
export function plainText(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Keys whose strings are Plotly templates written by renderers (`%{x}`, `<extra>`), not
 * data: they are kept. Values substituted into a template are escaped where they live.
 */
function isTemplate(key: string): boolean {
  return key.endsWith('template');
}

function escapeValue(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes('&') || value.includes('<') || value.includes('>')
      ? plotlyText(value)
      : value;
  if (Array.isArray(value)) return value.map(escapeValue);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    out[key] = isTemplate(key) ? field : escapeValue(field);
  return out;
}

/**
 * A copy of `figure` with every string Plotly may render as HTML escaped. All
 * strings but templates are escaped: enumerated values, colours and font names
 * never hold `&`, `<` or `>`, so only text changes.
 */
export function escapeFigureText(figure: PlotlyFigure): PlotlyFigure {
  return {
    data: figure.data.map((trace) => escapeValue(trace) as Record<string, unknown>),
    layout: escapeValue(figure.layout) as Record<string, unknown>,
  };
}
