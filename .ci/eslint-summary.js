/**
 * The ESLint formatter of `npm run lint`: every problem, one line each under its file,
 * then the totals and the warnings counted by rule, so CI shows how far the code is
 * from the size gates (max-lines, max-lines-per-function are warnings; errors fail).
 */
import { relative } from 'node:path';

/** @param {import('eslint').ESLint.LintResult[]} results @param {{ cwd: string }} context */
export default function format(results, context) {
  const lines = [];
  const warningsByRule = new Map();
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    if (result.messages.length === 0) continue;
    lines.push('', relative(context.cwd, result.filePath));
    for (const m of result.messages) {
      const severity = m.severity === 2 ? 'error' : 'warning';
      if (m.severity === 2) errors += 1;
      else {
        warnings += 1;
        warningsByRule.set(
          m.ruleId ?? '(none)',
          (warningsByRule.get(m.ruleId ?? '(none)') ?? 0) + 1,
        );
      }
      lines.push(`  ${m.line ?? 0}:${m.column ?? 0}  ${severity}  ${m.message}  ${m.ruleId ?? ''}`);
    }
  }
  const byRule = [...warningsByRule.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, n]) => `${rule} ${n}`);
  lines.push(
    '',
    `lint: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${byRule.length ? ` (${byRule.join(', ')})` : ''}`,
  );
  return `${lines.join('\n').replace(/^\n/, '')}\n`;
}
