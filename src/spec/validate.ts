/**
 * Validation of a declaration against its renderer, before anything renders.
 * Every problem becomes an issue with a sentence a model or a person can act
 * on: which declaration, which parameter, what was expected, what is close.
 */
import { paramInfos } from '../../renderers/describe.js';
import { KINDS, rendererFor } from '../../renderers/index.js';
import { asList } from '../../renderers/params.js';
import type { ColumnRole } from '../../renderers/params.js';
import type { Renderer } from '../../renderers/types.js';
import { ColumnDtypeSchema } from './schema.js';
import type { ColumnDtype, ColumnInfo, Declaration } from './schema.js';
import { didYouMean, nearest, quote } from './suggest.js';

/**
 * The kinds of problem an issue can be; `over_budget`: its data would pass a byte budget of
 * the report or the session (spec/host-limits.ts).
 */
export const ISSUE_CODES = [
  'unknown_kind',
  'unknown_param',
  'missing_param',
  'invalid_param',
  'unknown_column',
  'wrong_column_type',
  'data_error',
  'invalid_figure',
  'render_failed',
  'over_budget',
] as const;

/** What kind of problem an issue is. */
export type IssueCode = (typeof ISSUE_CODES)[number];

/** One validation problem of one declaration. */
export interface ValidationIssue {
  /** Declaration id, e.g. "c2". */
  id: string;
  kind: string;
  code: IssueCode;
  param?: string;
  /** The full sentence, prefixed with the declaration label, e.g. `chart 2 (bar): …`. */
  message: string;
  suggestions: string[];
}

/** The outcome for one declaration: its parsed parameters when valid. */
export interface DeclarationCheck {
  issues: ValidationIssue[];
  warnings: string[];
  params?: Record<string, unknown>;
}

/** `chart 2 (bar)` / `table 1`: how people and models see a declaration named. */
export function declarationLabel(decl: Pick<Declaration, 'id' | 'kind' | 'seq'>): string {
  const number = /^[ct](\d+)$/.exec(decl.id)?.[1] ?? String(decl.seq);
  return decl.id.startsWith('t')
    ? `table ${number}`
    : `chart ${number} (${decl.kind.length <= 40 ? decl.kind : `${decl.kind.slice(0, 40)}…`})`;
}

/** The parameters of a renderer that name columns, with the role each column must fill. */
export function columnParams(
  renderer: Renderer,
): { name: string; role: ColumnRole; multiple: boolean }[] {
  return paramInfos(renderer).flatMap(({ name, column }) => (column ? [{ name, ...column }] : []));
}

/** The column types that may fill each role (a boolean counts as 0/1). */
export const ROLE_DTYPES: Readonly<Record<ColumnRole, readonly ColumnDtype[]>> = {
  any: ColumnDtypeSchema.options,
  numeric: ['number', 'boolean'],
};

/** Issues listed per declaration; a crafted spec could otherwise produce one per key or column it names. */
const MAX_ISSUES = 10;

function columnIssues(renderer: Renderer, decl: Declaration, make: IssueMaker): ValidationIssue[] {
  const available = decl.data.source_columns;
  const names = available.map((c) => c.name);
  const byName = new Map<string, ColumnInfo>();
  for (const column of available) if (!byName.has(column.name)) byName.set(column.name, column);
  const issues: ValidationIssue[] = [];
  for (const { name: param, role } of columnParams(renderer)) {
    if (decl.inferred.includes(param)) continue;
    const value = decl.params[param];
    if (typeof value !== 'string' && !Array.isArray(value)) continue;
    for (const col of asList(value as string | string[])) {
      if (issues.length > MAX_ISSUES) return issues;
      const info = byName.get(col);
      if (!info) {
        const close = nearest(col, names);
        const listed = names.length <= 12 ? `; columns are: ${names.map(quote).join(', ')}` : '';
        issues.push(
          make(
            'unknown_column',
            `column ${quote(col)} (parameter "${param}") is not in the data${didYouMean(close) || listed}`,
            param,
            close,
          ),
        );
      } else if (role === 'numeric' && !isNumeric(info)) {
        const numeric = available.filter(isNumeric).map((c) => c.name);
        issues.push(
          make(
            'wrong_column_type',
            `parameter "${param}" needs a numeric column, but ${quote(col)} is ${info.dtype}${numeric.length ? `; numeric columns: ${numeric.slice(0, 10).map(quote).join(', ')}` : ''}`,
            param,
            numeric.slice(0, 3),
          ),
        );
      }
    }
  }
  return issues;
}

function isNumeric(column: ColumnInfo): boolean {
  return ROLE_DTYPES.numeric.includes(column.dtype);
}

type IssueMaker = (
  code: IssueCode,
  detail: string,
  param?: string,
  suggestions?: string[],
) => ValidationIssue;

function paramIssues(
  renderer: Renderer,
  decl: Declaration,
  make: IssueMaker,
): { issues: ValidationIssue[]; params?: Record<string, unknown> } {
  const parsed = renderer.schema.safeParse(decl.params);
  if (parsed.success) return { issues: [], params: parsed.data };
  const accepted = Object.keys(renderer.schema.shape);
  const issues = parsed.error.issues.flatMap((issue): ValidationIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const close = nearest(key, accepted, 1);
        return make(
          'unknown_param',
          `unknown parameter ${quote(key)}${didYouMean(close) || `; ${renderer.kind} accepts: ${accepted.join(', ')}`}`,
          key,
          close,
        );
      });
    }
    const param = String(issue.path[0] ?? '');
    if (!(param in decl.params))
      return [make('missing_param', `missing required parameter "${param}"`, param)];
    const got = JSON.stringify(decl.params[param]) ?? 'undefined';
    return [
      make(
        'invalid_param',
        `parameter "${param}" is invalid (${issue.message.replace(/^Invalid input: /, '')}); got ${got.slice(0, 80)}`,
        param,
      ),
    ];
  });
  return { issues };
}

/** Checks one declaration against its renderer: kind, parameters, columns and column types. */
export function validateDeclaration(decl: Declaration): DeclarationCheck {
  const label = declarationLabel(decl);
  const make: IssueMaker = (code, detail, param, suggestions = []) => ({
    id: decl.id,
    kind: decl.kind,
    code,
    ...(param ? { param } : {}),
    message: `${label}: ${detail}`,
    suggestions,
  });
  const renderer = rendererFor(decl.kind);
  if (!renderer) {
    const close = nearest(decl.kind, KINDS, 2);
    return {
      issues: [
        make(
          'unknown_kind',
          `unknown kind ${quote(decl.kind)}${didYouMean(close)}; kinds are: ${KINDS.join(', ')}`,
          undefined,
          close,
        ),
      ],
      warnings: [],
    };
  }
  const { issues, params } = paramIssues(renderer, decl, make);
  issues.push(...columnIssues(renderer, decl, make));
  if (params && issues.length === 0) {
    for (const problem of renderer.check?.(params, decl.data.source_columns) ?? [])
      issues.push(make('invalid_param', problem));
  }
  if (issues.length === 0 && decl.data.error) issues.push(make('data_error', decl.data.error));
  if (issues.length === 0 && decl.data.file === null)
    issues.push(make('data_error', 'the preamble wrote no data for this declaration'));
  const warnings = (renderer.ignores ?? [])
    .filter((name) => decl.params[name] !== undefined)
    .map(
      (name) => `${label}: parameter "${name}" has no effect on a ${renderer.kind} and was ignored`,
    );
  return issues.length
    ? { issues: capped(issues, make), warnings }
    : { issues, warnings, params: params ?? {} };
}

function capped(issues: ValidationIssue[], make: IssueMaker): ValidationIssue[] {
  if (issues.length <= MAX_ISSUES) return issues;
  return [
    ...issues.slice(0, MAX_ISSUES),
    make(
      issues[MAX_ISSUES]?.code ?? 'invalid_param',
      `further problems not listed (the first ${MAX_ISSUES} are)`,
    ),
  ];
}
