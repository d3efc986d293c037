/**
 * A plan filter as a WHERE condition that keeps exactly the rows pandas'
 * mask keeps: a missing value fails ==, <, > and `in` but passes != (NaN != x
 * is True) and `not in`, a value of another type is never equal, and ordering a column
 * against a value of another type is pandas' TypeError.
 */
import type { z } from 'zod';
import type { FilterSchema } from '../agent/plan.js';
import { ident } from './duckdb.js';
import { isBoolean, isFloat, isNumber, isTemporal, sqlValue } from './sql-text.js';
import type { Column } from './sql-text.js';

type Filter = z.infer<typeof FilterSchema>;
type Scalar = string | number | boolean;

/** Whether pandas compares a value of this JS type with a column of this type (True == 1 in Python). */
function comparable(type: string, value: Scalar): boolean {
  if (isNumber(type) || isBoolean(type)) return typeof value !== 'string';
  if (isTemporal(type)) return typeof value === 'string';
  return typeof value === 'string';
}

function literalFor(type: string, value: Scalar): string {
  if (isTemporal(type)) return `CAST(${sqlValue(value)} AS TIMESTAMP)`;
  if (typeof value === 'boolean' && isNumber(type)) return value ? '1' : '0';
  return sqlValue(value);
}

function notMissing(c: string, type: string): string {
  return isFloat(type) ? `(${c} IS NOT NULL AND NOT isnan(${c}))` : `${c} IS NOT NULL`;
}

function membership(c: string, type: string, value: Filter['value']): string {
  const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v) =>
    comparable(type, v),
  );
  return values.length ? `${c} IN (${values.map((v) => literalFor(type, v)).join(', ')})` : 'FALSE';
}

/**
 * A rate's indicator (compile-plan.ts, groupedRate): `one` (1.0; 100.0 in percent) where the column equals the value as
 * pandas' `eq` finds it, 0.0 where it differs, NULL where the column is missing.
 */
export function indicatorSql(column: Column, value: Scalar, one = 1): string {
  const c = ident(column.name);
  const equal = comparable(column.type, value)
    ? `${c} = ${literalFor(column.type, value)}`
    : 'FALSE';
  return `CASE WHEN ${notMissing(c, column.type)} THEN CASE WHEN ${equal} THEN ${one.toFixed(1)} ELSE 0.0 END END`;
}

/** The condition of one filter on `column` (undefined: the column is not in the data, a KeyError). */
export function filterSql(filter: Filter, column: Column | undefined): string {
  if (!column)
    throw new Error(`KeyError: filter column ${JSON.stringify(filter.column)} is not in the data`);
  const c = ident(column.name);
  const { op, value } = filter;
  if (op === 'notna') return notMissing(c, column.type);
  if (op === 'in') return membership(c, column.type, value);
  // pandas' ~isin: a missing value is in no list, so it is kept.
  if (op === 'not in') return `NOT coalesce(${membership(c, column.type, value)}, FALSE)`;
  if (value === undefined || Array.isArray(value))
    throw new Error(`TypeError: filter ${op} on "${column.name}" needs one value`);
  if (!comparable(column.type, value)) {
    if (op === '==') return 'FALSE';
    if (op === '!=') return 'TRUE';
    throw new Error(
      `TypeError: '${op}' not supported between "${column.name}" (${column.type}) and ${JSON.stringify(value)}`,
    );
  }
  const lit = literalFor(column.type, value);
  if (op === '!=') return `${c} IS DISTINCT FROM ${lit}`;
  return `${c} ${op === '==' ? '=' : op} ${lit}`;
}
