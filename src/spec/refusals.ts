/**
 * Why declarations of a step were refused, stored with the step. A refused
 * declaration's data file is never stored (the frame budgets bound the
 * store), so a report rebuilt from the store could no longer say why it was
 * refused; the live run's issues are stored instead, and the report model
 * shows them as they were.
 */
import { z } from 'zod';
import { parseJsonBounded } from '../util/json-depth.js';
import { MAX_JSON_DEPTH } from './host-limits.js';
import { ISSUE_CODES } from './validate.js';
import type { ValidationIssue } from './validate.js';

/** The stored name; a data file of that name is not stored (it would collide). */
export const REFUSALS_FILE = '.opsmind-refusals.json';

const IssueSchema = z.object({
  id: z.string(),
  kind: z.string(),
  code: z.enum(ISSUE_CODES),
  param: z.string().optional(),
  message: z.string(),
  suggestions: z.array(z.string()),
});
const RefusalsSchema = z.object({ declarations: z.record(z.string(), z.array(IssueSchema)) });

/** The issues of each refused declaration by its `seq`, as stored JSON; null when none was refused. */
export function refusalsFile(
  items: readonly {
    decl: { seq: number; data: { file: string | null } };
    built?: unknown;
    issues: readonly ValidationIssue[];
  }[],
): Buffer | null {
  const refused = items.filter((i) => !i.built && i.issues.length > 0);
  if (refused.length === 0) return null;
  return Buffer.from(
    JSON.stringify({
      declarations: Object.fromEntries(refused.map((i) => [String(i.decl.seq), i.issues])),
    }),
  );
}

/** The stored refusals by `seq`; empty when the file is missing or unreadable. */
export function parseRefusals(content: Buffer | undefined): ReadonlyMap<number, ValidationIssue[]> {
  if (!content) return new Map();
  try {
    const parsed = RefusalsSchema.parse(parseJsonBounded(content.toString('utf8'), MAX_JSON_DEPTH));
    return new Map(
      Object.entries(parsed.declarations).map(([seq, issues]) => [Number(seq), issues]),
    );
  } catch {
    return new Map();
  }
}
