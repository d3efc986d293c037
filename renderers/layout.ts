/** The layout every Plotly renderer starts from, driven by the base parameters. */
import type { BaseParams } from './params.js';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Escapes text for Plotly's tiny HTML subset (titles accept <br>, <sup>). */
export function plotlyText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A layout with title, subtitle, axis labels, height and log scale from the base parameters. */
export function baseLayout(
  params: BaseParams,
  defaults: { x?: string | undefined; y?: string | undefined; showLegend?: boolean },
): Record<string, unknown> {
  const title = params.title ? plotlyText(params.title) : '';
  const subtitle = params.subtitle ? `<br><sup>${plotlyText(params.subtitle)}</sup>` : '';
  const xTitle = params.x_label ?? defaults.x;
  const yTitle = params.y_label ?? defaults.y;
  return {
    title: { text: title + subtitle, x: 0, xanchor: 'left' },
    font: { family: FONT, size: 13 },
    height: params.height ?? 420,
    margin: { l: 60, r: 20, t: title || subtitle ? 70 : 30, b: 60 },
    xaxis: { title: { text: xTitle ?? '' }, automargin: true },
    yaxis: { title: { text: yTitle ?? '' }, automargin: true, ...(params.log_y ? { type: 'log' } : {}) },
    showlegend: defaults.showLegend ?? true,
    legend: { orientation: 'h', y: -0.2 },
    plot_bgcolor: '#fff',
    paper_bgcolor: '#fff',
  };
}
