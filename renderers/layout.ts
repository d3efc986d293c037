/** The layout every Plotly renderer starts from, driven by the base parameters. */
import type { BaseParams } from './params.js';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/**
 * A layout with title, subtitle, axis labels, height and log scale from the base parameters.
 * Text is plain: every figure's text is escaped once after it is built (plotly-text.ts).
 */
export function baseLayout(
  params: BaseParams,
  defaults: { x?: string | undefined; y?: string | undefined; showLegend?: boolean },
): Record<string, unknown> {
  const title = params.title ?? '';
  const subtitle = params.subtitle ?? '';
  const xTitle = params.x_label ?? defaults.x;
  const yTitle = params.y_label ?? defaults.y;
  return {
    title: {
      text: title,
      ...(subtitle ? { subtitle: { text: subtitle } } : {}),
      x: 0,
      xanchor: 'left',
    },
    font: { family: FONT, size: 13 },
    height: params.height ?? 420,
    margin: { l: 60, r: 20, t: title || subtitle ? 70 : 30, b: 60 },
    xaxis: { title: { text: xTitle ?? '' }, automargin: true },
    yaxis: {
      title: { text: yTitle ?? '' },
      automargin: true,
      // A log axis labels 1, 2 and 5 of each decade, not every digit (which overlap).
      ...(params.log_y ? { type: 'log', dtick: 'D2' } : {}),
    },
    showlegend: defaults.showLegend ?? true,
    legend: { orientation: 'h', y: -0.2 },
    plot_bgcolor: '#fff',
    paper_bgcolor: '#fff',
  };
}
