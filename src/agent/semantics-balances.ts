/**
 * Running balances: a bank statement's Balance changes from each row to the next by the row's
 * Amount. That proves the Amount is what flows in and out — summed per period and per category,
 * though half its values are below zero (a signed measure is otherwise averaged, the safe choice)
 * — and the Balance a level at each row, never summed. Found from the values in row order (oldest
 * first, or newest first as banks list them); both engines measure the candidates
 * (profile-balances.ts, opsmind_semantic.balance_facts).
 */
import type { DataProfile } from './profile.js';
import { isMostlyMissing, mostlyMissing } from '../engine/profile-warnings.js';
import { statsOf } from './semantics-evidence.js';
import type { ColumnRole, Semantics, TableFacts } from './semantics-types.js';

/** At most this many number columns are tried as balances and as flows. */
const BALANCE_MEASURES = 8;

/**
 * A candidate: the balance's column and the flow's; for a statement of two columns (Credit and
 * Debit, Paid in and Paid out), the flow's in and then its out: the balance rises by the one and
 * falls by the other, a blank as 0.
 */
export type BalanceCandidate = [string, string] | [string, string, string];

/** At most this many (balance, in, out) triples are tried. */
const PAIRED_CANDIDATES = 24;

/** Triples are first screened on this many first rows (profile-balances.ts, balance_facts). */
export const BALANCE_SCREEN = 2000;

/** At most this many values, and this many columns, are tried as a balance's sections. */
const SECTION_VALUES = 50;
const SECTION_COLUMNS = 10;

/**
 * The columns a running balance may run per section of (balanceFacts' `by`): text columns of 2 to
 * SECTION_VALUES values. A report of several accounts lists each account's rows together, its
 * balance its own: the first whose values come in one run each (its rows contiguous) is the one.
 */
export function sectionCandidates(profile: DataProfile): string[] {
  return profile.column_profiles
    .filter(
      (c) =>
        (c.semantic === 'category' || c.semantic === 'text') &&
        c.distinct >= 2 &&
        c.distinct <= SECTION_VALUES,
    )
    .slice(0, SECTION_COLUMNS)
    .map((c) => c.name);
}

/**
 * The (balance, flow) pairs both engines check: number columns typed as numbers; the flow with
 * values on both sides of zero (money in and money out), the balance with more than ten values.
 * Then (balance, in, out) triples: money in and money out in two columns, neither below zero, each
 * blank or 0 on some rows (those of the other).
 */
export function balanceCandidates(profile: DataProfile): BalanceCandidate[] {
  const measures = profile.column_profiles
    .filter((c) => c.semantic === 'numeric' && /^(u?int|float)/i.test(c.dtype))
    .slice(0, BALANCE_MEASURES);
  const flows = measures.filter((c) => {
    const s = statsOf(c);
    return s !== null && s.min < 0 && s.max > 0;
  });
  const balances = measures.filter((b) => b.distinct > 10);
  const sides = measures.filter((c) => {
    const s = statsOf(c);
    return s !== null && s.min >= 0 && (s.min === 0 || c.missing > 0);
  });
  const paired = balances.flatMap((b) =>
    sides
      .filter((i) => i !== b)
      .flatMap((i) =>
        sides
          .filter((o) => o !== b && o !== i)
          .map((o): BalanceCandidate => [b.name, i.name, o.name]),
      ),
  );
  return [
    ...balances.flatMap((b) =>
      flows.filter((a) => a !== b).map((a): BalanceCandidate => [b.name, a.name]),
    ),
    ...paired.slice(0, PAIRED_CANDIDATES),
  ];
}

/** The balances the facts prove: the first per flow, none that is another's flow. */
export function balancesOf(facts: TableFacts): NonNullable<Semantics['balances']> {
  const flows = (f: { amount: string; debit?: string }): string[] =>
    f.debit === undefined ? [f.amount] : [f.amount, f.debit];
  return (facts.balances ?? [])
    .filter(
      (f, i, all) =>
        all.findIndex((g) => flows(g).some((x) => flows(f).includes(x))) === i &&
        !all.some((g) => flows(f).includes(g.balance) || flows(g).includes(f.balance)),
    )
    .map(({ balance, amount, order, debit, by }) => ({
      balance,
      amount,
      order,
      ...(debit === undefined ? {} : { debit }),
      ...(by === undefined ? {} : { by }),
    }));
}

/** The roles the balances prove: each flow an amount, its balance a level. */
export function balanceRoles(
  columns: ColumnRole[],
  found: NonNullable<Semantics['balances']>,
): ColumnRole[] {
  return columns.map((c) => {
    const flow = found.find((f) => f.amount === c.name || f.debit === c.name);
    if (flow)
      return {
        ...c,
        role: 'amount',
        evidence:
          flow.debit === undefined
            ? `"${flow.balance}" changes by ${c.name} from each row to the next (a running balance): ${c.name} is what flows in and out, summed`
            : `"${flow.balance}" rises by ${flow.amount} and falls by ${flow.debit} from each row to the next (a running balance): ${c.name} is money ${c.name === flow.amount ? 'in' : 'out'}, summed`,
        settled: true,
      };
    const balance = found.find((f) => f.balance === c.name);
    return balance
      ? {
          ...c,
          role: 'level',
          evidence: `the running balance of ${flowsOf(balance)} (it changes by ${flowsOf(balance)} from each row to the next): a level at each row, never summed`,
          settled: true,
        }
      : c;
  });
}

/**
 * A question's line over time of `measure`: its aggregate (closingAgg) and its series, which for a
 * running balance of several accounts is the accounts (sectionOf), each account's balance its own.
 */
export function balanceLine<A extends string>(
  question: string,
  measure: string | undefined,
  agg: A,
  sem: Pick<Semantics, 'balances'>,
  series: string | undefined,
): { agg: A | 'last'; series?: string } {
  const by = sem.balances?.find((b) => b.balance === measure)?.by ?? series;
  return { agg: closingAgg(question, measure, agg, sem), ...(by ? { series: by } : {}) };
}

/**
 * A running balance of several sections (accounts, each listed together) drawn over time: only
 * per section, as a period's balance over every account is whichever account booked last.
 */
export function sectionProblem(
  sem: Pick<Semantics, 'balances'>,
  measure: string | null | undefined,
  series: string | undefined,
): string | null {
  const found = sem.balances?.find((b) => b.balance === measure && b.by !== undefined);
  if (!found?.by || series === found.by) return null;
  return `"${found.balance}" runs per "${found.by}" (each ${found.by}'s rows are listed together, with a balance of its own): over every ${found.by} it mixes them; add series: "${found.by}"`;
}

/**
 * The profile's warnings with money in and out in two columns taken from the columns "more than
 * 50% missing": each is blank where the other holds the row's money, a 0, not a missing value, and
 * a warning says so instead. Both engines' profiles (their warnings are worded alike).
 */
export function statementWarnings(
  profile: DataProfile,
  sem: Pick<Semantics, 'balances'>,
): string[] {
  const sides = pairedFlows(sem);
  if (sides.length === 0) return profile.warnings;
  const left = mostlyMissing(profile.column_profiles, sides);
  const said = `${sides.join(' and ')} are money in and out in two columns: each is blank where the other holds the row's money, a 0, not a missing value`;
  return profile.warnings.flatMap((w) =>
    isMostlyMissing(w) ? [...(left ? [left] : []), said] : [w],
  );
}

/** The columns of money in and out in two columns (a balance's `amount` and `debit`): a blank is 0. */
export function pairedFlows(sem: Pick<Semantics, 'balances'>): string[] {
  return (sem.balances ?? []).flatMap((b) => (b.debit === undefined ? [] : [b.amount, b.debit]));
}

/** What a balance changes by: its flow, or its in less its out ("Credit − Debit"). */
export function flowsOf(b: { amount: string; debit?: string }): string {
  return b.debit === undefined ? b.amount : `${b.amount} − ${b.debit}`;
}

/**
 * A running balance split by a category (repeatedProblem): each group would hold the balance at
 * the moments its rows were booked, which says nothing of the group.
 */
export function balanceProblem(
  sem: Pick<Semantics, 'balances'>,
  measure: string | null | undefined,
  by: string | null | undefined,
): string | null {
  const found = sem.balances?.find((b) => b.balance === measure);
  if (!found || !by) return null;
  const flows =
    found.debit === undefined ? `"${found.amount}"` : `"${found.amount}" or "${found.debit}"`;
  return `"${found.balance}" is the running balance of ${flowsOf(found) === found.amount ? `"${found.amount}"` : flowsOf(found)}: by "${by}" it would give the balance when those rows were booked, which says nothing of "${by}"; chart ${flows} by "${by}", or "${found.balance}" over time`;
}

/**
 * A question's aggregate of a running balance over time: where it stood at each period's end
 * ("last"), unless the question asks for its average or another statistic.
 */
function closingAgg<A extends string>(
  question: string,
  measure: string | undefined,
  agg: A,
  sem: Pick<Semantics, 'balances'>,
): A | 'last' {
  const balance = sem.balances?.some((b) => b.balance === measure);
  return balance && agg === 'mean' && !/\b(average|mean|avg)\b/i.test(question) ? 'last' : agg;
}
