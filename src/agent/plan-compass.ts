/**
 * What a plan gets wrong about a compass bearing (role 'direction', semantics-compass.ts): every
 * aggregate but a count of rows, a box of its quartiles, a correlation, a summary of its mean.
 */
import type { Analysis } from './plan.js';
import { directionProblem, roleOf } from './semantics.js';
import type { Semantics } from './semantics.js';

/** The columns of a transform whose values are aggregated or compared as quantities (`all`: a summary's, unlisted). */
function measured(a: Analysis, all: readonly string[]): string[] {
  const t = a.transform;
  switch (t.type) {
    case 'group':
    case 'season':
      return t.measure && (t.type === 'season' || t.equals === undefined) && t.agg !== 'count'
        ? [t.measure]
        : [];
    case 'resample':
      if (t.agg === 'count' || t.equals !== undefined) return [];
      return [...(t.measure ? [t.measure] : []), ...(t.measures ?? [])];
    case 'distribution':
      return a.chart === 'box' ? [t.column] : [];
    case 'relationship':
      return a.options?.correlation === false ? [] : [t.x, t.y];
    case 'correlation':
      return t.columns;
    case 'summary':
      return t.columns ?? [...all];
    case 'missing':
    case 'top_rows':
      return [];
  }
}

/** A problem for each compass bearing the analysis averages, sums, boxes or correlates. */
export function compassProblems(a: Analysis, sem: Semantics): string[] {
  const roles = measured(
    a,
    sem.columns.map((c) => c.name),
  )
    .map((name) => roleOf(sem, name))
    .filter((r) => r?.role === 'direction');
  return [...new Set(roles)].flatMap((role) => {
    if (!role) return [];
    const t = a.transform;
    if (t.type === 'relationship')
      return [
        `"${role.name}" is a compass bearing: a Pearson or Spearman correlation of it is meaningless (359° lies next to 0°); set options.correlation to false to draw the scatter alone`,
      ];
    if (t.type === 'correlation' || t.type === 'summary')
      return [
        `"${role.name}" is a compass bearing: leave it out of the ${t.type === 'summary' ? `summary (its mean, quartiles and spread are of a cut circle)${t.columns ? '' : ": list the summary's columns"}` : 'correlations (359° lies next to 0°)'}`,
      ];
    return [directionProblem(role)];
  });
}
