/**
 * What a renderer's parameters accept, read from its zod schema: the one
 * description the validator, the generated contract and the deep prompt share,
 * so no list of parameters is ever written twice.
 */
import { z } from 'zod';
import { BASE_PARAM_NAMES, baseParams, columnRoles } from './params.js';
import type { ColumnRole } from './params.js';
import type { Renderer } from './types.js';

/** One parameter of a renderer. */
export interface ParamInfo {
  name: string;
  required: boolean;
  /** Set when the parameter names columns of the declared data: the role they fill, and whether a list is accepted. */
  column?: { role: ColumnRole; multiple: boolean };
  /** A short type for people and models: `numeric column(s)`, `v|h`, `2..200`, `true|false`. */
  type: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? unwrap(schema.unwrap() as z.ZodType) : schema;
}

function typeText(field: z.ZodType, column: ParamInfo['column']): string {
  if (column)
    return `${column.role === 'numeric' ? 'numeric column' : 'column'}${column.multiple ? '(s)' : ''}`;
  if (field instanceof z.ZodEnum) return field.options.join('|');
  if (field instanceof z.ZodBoolean) return 'true|false';
  if (field instanceof z.ZodNumber) {
    const bound = (v: number | null) => (v !== null && Number.isFinite(v) ? String(v) : '');
    const range =
      bound(field.minValue) || bound(field.maxValue)
        ? ` ${bound(field.minValue)}..${bound(field.maxValue)}`
        : '';
    return `${field.isInt ? 'integer' : 'number'}${range}`;
  }
  if (field instanceof z.ZodString) return 'text';
  return 'value';
}

function fieldInfos(schema: z.ZodObject): ParamInfo[] {
  return Object.entries(schema.shape).map(([name, raw]) => {
    const field = raw as z.ZodType;
    const inner = unwrap(field);
    const meta = columnRoles.get(inner);
    const column = meta ? { role: meta.role, multiple: meta.multiple } : undefined;
    return {
      name,
      required: !field.safeParse(undefined).success,
      ...(column ? { column } : {}),
      type: typeText(inner, column),
    };
  });
}

/** Every parameter of `renderer` in schema order (the base parameters first). */
export function paramInfos(renderer: Renderer): ParamInfo[] {
  return fieldInfos(renderer.schema);
}

/** The parameters a kind adds to the base ones. */
export function ownParams(renderer: Renderer): ParamInfo[] {
  const base = new Set(BASE_PARAM_NAMES);
  return paramInfos(renderer).filter((p) => !base.has(p.name));
}

function signature(params: readonly ParamInfo[]): string {
  return params.map((p) => `${p.name}${p.required ? '' : '?'}: ${p.type}`).join(', ');
}

/** `bar(x: column, y?: numeric column(s), orientation?: v|h)`: a kind's own parameters, `?` marking optional ones. */
export function kindSignature(renderer: Renderer): string {
  return `${renderer.kind}(${signature(ownParams(renderer))})`;
}

/** The base parameters every kind accepts, typed like `kindSignature`: `title?: text, …, log_y?: true|false`. */
export function baseSignature(): string {
  return signature(fieldInfos(baseParams));
}
