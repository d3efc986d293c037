/**
 * Groups listed beside their members: a World Bank or Our World in Data file holds "World",
 * regions, continents and income groups as rows of the same column as the countries they add up
 * (or average). Summed over that column, every country is counted several times (the World Bank's
 * population file sums to about four times the world's); ranked, "World" has the highest of
 * everything. Each engine lists the distinct values of the candidate columns (TableFacts.names);
 * this module decides which of them are groups, from the names the statistics offices give them,
 * and only where the column also holds more members than groups (a table of continents alone
 * compares continents, and keeps them); a continent's name only beside an office's own groups.
 */
import type { Semantics, TableFacts } from './semantics-types.js';

/** A column's values are listed when it has this many distinct values or fewer (and NAMES_MIN or more). */
export const NAMES_DISTINCT = 2000;
/** A column's values are listed from this many distinct values (a pivot's one group, its subtotal and the grand total). */
export const NAMES_MIN = 3;
/** Fewer distinct values than this: no office groups are looked for (a handful of regions are compared). */
export const GROUPS_MIN = 6;

/**
 * Names only statistics offices give groups of countries (the World Bank, the UN, OWID): found in
 * a column of countries, they are groups of them.
 */
const OFFICE_NAMES = new RegExp(
  [
    // The whole world, and the world less a part ("World excl. EU-27").
    String.raw`^world\b`,
    // The World Bank's and the UN's regions.
    String.raw`^(sub-saharan africa|middle east (&|and) north africa|east asia (&|and) (the )?pacific|europe (&|and) central asia|latin america (&|and) (the )?caribbean|central europe and the baltics|euro area|european union|arab world)\b`,
    // Income and lending groups (World Bank: "Upper middle income"; OWID: "High-income countries").
    String.raw`^(high|low|middle|upper[- ]middle|lower[- ]middle|low (&|and) middle)[- ]income\b`,
    String.raw`^(ida|ibrd)( |$)`,
    String.raw`\((ida|ibrd|ida & ibrd)\b[^)]*\)$|\(excl(\.|uding\b)[^)]*\)$`,
    // Other World Bank and UN groups.
    String.raw`\bsmall states$|\bdemographic dividend$|^(heavily indebted poor countries|fragile and conflict affected situations|least developed countries|land-?locked developing countries|small island developing states|less developed regions|more developed regions|not classified|oecd members|non-oecd)\b`,
    // OWID's regions as another source draws them: "Africa (UN)", "Asia Pacific (EI)".
    String.raw`\((un|wb|who|fao|ei|ember|bp|shift|eia|imf|gcp|mpd|bis|27)\)$`,
  ].join('|'),
  'i',
);

/**
 * Names of continents, their parts and clubs of countries: groups where a statistics office's
 * groups are listed too, but in a customer's country column "Europe" may be a country left
 * unnamed, whose sales count once.
 */
const PLACE_NAMES = new RegExp(
  [
    String.raw`^(africa|asia|europe|oceania|americas|antarctica|north america|south america|latin america|central america|caribbean|middle east|north africa|eurasia|australia and new zealand|asia[- ]pacific)$`,
    // Parts of a continent, but not the country South Africa.
    String.raw`^(?!south africa$)(east|west|north|south|central|eastern|western|northern|southern|middle|south-eastern|southeastern|south-east|southeast) (africa|asia|europe|america)$`,
    String.raw`^(oecd|g7|g8|g20|eu-?2[78]|eu|opec|asean|brics|cis)$`,
  ].join('|'),
  'i',
);

/** Whether `name` is a statistics office's group of countries, a place's that may be one, or neither. */
export function groupName(name: string): 'office' | 'place' | null {
  const text = name.trim().replace(/\s+/g, ' ');
  return OFFICE_NAMES.test(text) ? 'office' : PLACE_NAMES.test(text) ? 'place' : null;
}

/**
 * The columns' values that are groups of the others: named as groups, and outnumbered by the
 * values that are not (at least as many members as groups, and GROUPS_MIN values in all).
 */
export function tableAggregates(names: TableFacts['names']): NonNullable<Semantics['aggregates']> {
  return Object.entries(names ?? {}).flatMap(([column, values]) => {
    if (values.length < GROUPS_MIN) return [];
    const named = values.map((v) => ({ v, as: groupName(v) }));
    // Continents count as groups only beside a statistics office's own (World, income groups).
    const office = named.some((x) => x.as === 'office');
    const groups = named.filter((x) => x.as === 'office' || (office && x.as)).map((x) => x.v);
    const members = values.length - groups.length;
    return groups.length > 0 && members >= Math.max(3, groups.length)
      ? [{ column, values: groups.sort(worldFirst) }]
      : [];
  });
}

/**
 * A pivot table's subtotal as spreadsheets label it, with the group it totals (group 1 or 2):
 * "North Total" (Excel), "North Ergebnis" (German Excel), "North Totaal" (Dutch), "Total North"
 * (French and Spanish Excel), "Subtotal North", "Total for Checking" (QuickBooks). RE2 and Python alike (source-pivot.ts, the
 * sandbox's reader); matched here on text whose spaces are single.
 */
export const SUBTOTAL_LABEL =
  '(?i)^(.+?) +(?:sub-?)?(?:total|totaal|ergebnis|summe|gesamt)$|^(?:sub-?)?(?:total|totale|summe) +(?:(?:for|of) +)?(.+)$';
const SUBTOTAL = new RegExp(SUBTOTAL_LABEL.slice('(?i)'.length), 'i');
/** The grand total beside a pivot's subtotals: "Grand Total", "Gesamtergebnis", "Total général", "Eindtotaal". */
const GRAND_TOTAL =
  /^(?:grand\s+total|gesamtergebnis|gesamtsumme|total\s+g[ée]n[ée]ral|totale\s+(?:complessivo|generale)|eindtotaal|(?:sub-?)?totals?|summe|gesamt|insgesamt)$/i;

/**
 * A pivot table's total rows: the values labelled as a subtotal of another value of the column
 * ("North Total" beside "North"), and the grand total beside them. Summed with the rest, each
 * posting counts two or three times ("Grand Total accounts for 33.3% of Sales"). A label alone
 * never says so: the group it totals must be a value of the column too.
 */
export function subtotalGroups(names: TableFacts['names']): NonNullable<Semantics['aggregates']> {
  return Object.entries(names ?? {}).flatMap(([column, values]) => {
    const trimmed = values.map((v) => v.trim().replace(/\s+/g, ' '));
    const present = new Set(trimmed.map((v) => v.toLowerCase()));
    const subtotals = values.filter((_, i) => {
      const found = SUBTOTAL.exec(trimmed[i] ?? '');
      const stem = (found?.[1] ?? found?.[2] ?? '').toLowerCase();
      return stem !== '' && present.has(stem) && !GRAND_TOTAL.test(trimmed[i] ?? '');
    });
    if (subtotals.length === 0) return [];
    const grand = values.filter((_, i) => GRAND_TOTAL.test(trimmed[i] ?? ''));
    return [{ column, values: [...grand, ...subtotals].sort() }];
  });
}

/** "World" (the group of every other) first, then the others in text order. */
function worldFirst(a: string, b: string): number {
  const world = (v: string): number => Number(/^\s*world\s*$/i.test(v));
  return world(b) - world(a) || (a < b ? -1 : a > b ? 1 : 0);
}

/** What a group's values are said as, in notes and evidence: "World, High income, … (16 groups)". */
export function groupsText(values: readonly string[], shown = 4): string {
  const named = values.slice(0, shown).map((v) => JSON.stringify(v));
  return values.length > shown
    ? `${named.join(', ')} and ${values.length - shown} more`
    : named.join(', ');
}
