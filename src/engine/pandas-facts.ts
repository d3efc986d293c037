/**
 * The pandas engine's TableFacts (agent/semantics.ts), measured by pandas in the sandbox exactly
 * as profile-facts.ts measures them in SQL — distinct periods, distinct (key…, period) per
 * candidate key, the share of non-decreasing steps per entity in time order, and a category value
 * that is the sum of the others in every period — so both engines describe a table alike and
 * plan the same charts.
 */
import type { DataProfile } from '../agent/profile.js';
import {
  aliasCandidates,
  attributeEntities,
  binCategories,
  candidateKeys,
  derivedMeasures,
  describeData,
  groupCategory,
  headerEntities,
  headerMeasures,
  headerWithin,
  keyLabel,
  LOOSE_SHARE,
  measurePairs,
  REPEATED_GROUPS,
  splitCandidates,
  sumTriples,
  withinCandidates,
} from '../agent/semantics.js';
import { NAMES_DISTINCT, NAMES_MIN } from '../agent/semantics-aggregates.js';
import { quotientCandidates, QUOTIENT_SCREEN } from '../agent/semantics-quotients.js';
import {
  BALANCE_SCREEN,
  balanceCandidates,
  sectionCandidates,
} from '../agent/semantics-balances.js';
import { GAP_SHARE, REPORTED_PERIODS, REPORTED_SHARE } from '../agent/semantics.js';
import type { TableFacts } from '../agent/semantics.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { readWorkdirJson } from '../spec/load.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { FactsSchema } from './pandas-facts-schema.js';

/** The same measures profile-facts.ts checks: numbers, not the time, at most 12. */
const CHECKED_MEASURES = 12;

const PROGRAM = String.raw`
import json
import math
import numpy as np
import pandas as pd

args = json.loads(ARGS)
derived = args["derived"]


def bound(v):
    # A range's end as JSON: an infinity (as DuckDB's min and max give it) spelled as text.
    v = float(v)
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


facts = {"sums": [], "ranges": {}}
for total, a, b in derived["triples"]:
    T, A, B = (pd.to_numeric(df[x], errors="coerce").astype(float) for x in (total, a, b))
    complete = T.notna() & A.notna() & B.notna()
    n = int(complete.sum())
    h = int((complete & ((T - (A + B)).abs() <= 1e-6 * T.abs() + 1e-6)).sum())
    if n >= 10 and h >= n * 0.99:
        facts["sums"].append({"total": total, "parts": [a, b]})
if derived["balances"]:
    import opsmind_semantic
    facts["balances"] = opsmind_semantic.balance_facts(df, derived["balances"], BALANCES, derived["sections"])
if derived["quotients"]:
    import opsmind_semantic
    facts["quotients"] = opsmind_semantic.quotient_facts(df, derived["quotients"], set(args["texts"]), SCREEN)
for c in derived["categories"] if derived["measures"] else []:
    grouped = df[df[c].notna()].groupby(c)[derived["measures"]]
    lo, hi = grouped.min(), grouped.max()
    facts["ranges"][c] = {
        m: [[bound(lo.at[k, m]), bound(hi.at[k, m])] for k in lo.index if pd.notna(lo.at[k, m]) and pd.notna(hi.at[k, m])]
        for m in derived["measures"]
    }
facts["repeated"] = []
for e, candidates in derived["entities"]:
    part = df[df[e].notna()]
    X = part[derived["measures"]].apply(pd.to_numeric, errors="coerce")
    grouped = X.groupby(part[e])
    n, lo, hi = grouped.count(), grouped.min(), grouped.max()
    rows = float(part.groupby(e).size().mean())
    repeated = [m for m in derived["measures"]
                if int((n[m] >= 2).sum()) >= REPEATED and not bool(((n[m] >= 2) & (lo[m] < hi[m])).any())]
    within = [c for c in candidates if bool((part.groupby(e)[c].nunique() <= 1).all())] if repeated else []
    for m in repeated:
        facts["repeated"].append({"measure": m, "entity": e, "rows": rows, "within": within})
for e, candidates, sparse in derived["header"]:  # fields on an entity's first row alone (profile-facts.ts headerFacts)
    if not sparse:
        continue
    part = df[df[e].notna()]
    has, first = part[sparse].apply(pd.to_numeric, errors="coerce").notna(), ~part[e].duplicated()
    n, size = has.groupby(part[e]).sum(), part.groupby(e).size()
    once = [m for m in sparse if not bool((n[m] >= 2).any() or (has[m] & ~first).any())
            and int(((size >= 2) & (n[m] == 1)).sum()) >= REPEATED]
    within = [c for c in candidates if bool((part.groupby(e)[c].nunique() <= 1).all())] if once else []
    for m in once:
        facts["repeated"].append({"measure": m, "entity": e, "rows": float(size.mean()), "within": within, "once": True})
gp = derived["group"]
if gp is not None and derived["pairs"]:
    import numpy as np
    ms = derived["measures"]
    X = df[ms].apply(pd.to_numeric, errors="coerce").astype(float)
    finite = lambda v: float(v) if v is not None and math.isfinite(v) else None
    keyed = df[gp].notna()
    # All pairs at once: pairwise-complete Pearson r pooled and per group, and per group the
    # complete pairs (the product of the "present" masks).
    with np.errstate(all="ignore"):
        pooled = X.corr()
        grouped = X[keyed].groupby(df[gp][keyed], sort=False)
        corrs = grouped.corr()
        present = X[keyed].notna().astype(float)
        counts = {k: v.T @ v for k, v in present.groupby(df[gp][keyed], sort=False)}
    out = []
    for a, b in derived["pairs"]:
        groups = [{"n": int(counts[k].at[a, b]), "r": finite(corrs.at[(k, a), b])} for k in counts]
        out.append({"a": a, "b": b, "overall": finite(pooled.at[a, b]), "groups": groups})
    facts["groupPairs"] = {"by": gp, "pairs": out}
t = args["time"]
if t is not None and args["texts"]:
    import opsmind_semantic
    df = df.assign(**{c: opsmind_semantic.parse_number_text(df[c].to_numpy(dtype=object)) for c in args["texts"]})
if t is not None:
    if args["kind"] == "year":
        when = pd.to_numeric(df[t], errors="coerce")
    elif pd.api.types.is_datetime64_any_dtype(df[t]):
        when = df[t]
    else:
        when = pd.to_datetime(df[t], errors="coerce", dayfirst=args["dayfirst"])
    rows = df.assign(__opsmind_t=when)[when.notna()]
    present = len(rows)
    facts["timeDistinct"] = int(rows["__opsmind_t"].nunique())
    facts["keyDistinct"] = {}
    # Keys matter only where periods repeat (semantics.ts looks for one only then).
    for label, key in (args["keys"] if facts["timeDistinct"] < present else []):
        facts["keyDistinct"][label] = int(len(rows[key + ["__opsmind_t"]].drop_duplicates()))
    keys = None
    if facts["timeDistinct"] == present and present > 1 and args["regular"]:
        keys = []
    else:
        for label, key in args["keys"]:
            combos = 1
            for k in key:
                combos *= args["distinct"].get(k, 1)
            covered = present / (combos * max(facts["timeDistinct"], 1)) >= 0.3
            if facts["timeDistinct"] < present and facts["keyDistinct"].get(label, 0) >= present * 0.995 and covered:
                keys = key
                break
    if keys is not None:
        measures = [m for m in args["measures"] if m not in keys][:CHECKED]
        ordered = rows.sort_values(keys + ["__opsmind_t"], kind="mergesort")
        steps, typical = {}, {}
        for m in measures:
            v = pd.to_numeric(ordered[m], errors="coerce")
            p = v.groupby([ordered[k] for k in keys], dropna=False).shift(1) if keys else v.shift(1)
            both = v.notna() & p.notna()
            if both.any():
                steps[m] = float((v[both] >= p[both]).mean())
            v, p = v.astype("float64"), p.astype("float64")
            larger = np.maximum(v.abs(), p.abs())
            moved = np.isfinite(v) & np.isfinite(p) & (larger > 0)
            if moved.any():
                typical[m] = float(((v - p).abs() / larger)[moved].median())
        facts["nonDecreasing"] = steps
        facts["typicalStep"] = typical
        if len(keys) == 1:
            found = []
            for m in measures[:4]:
                v = pd.to_numeric(rows[m], errors="coerce")
                part = rows.assign(__m=v)[v.notna()]
                per = part.groupby([part[keys[0]].astype("string"), "__opsmind_t"], dropna=False)["__m"].sum().reset_index()
                per.columns = ["k", "t", "m"]
                tot = per.groupby("t", dropna=False)["m"].agg(["sum", "count"]).reset_index()
                j = per.merge(tot, on="t")
                j = j[(j["count"] > 2) & (j["m"] != 0)]
                j = j.assign(hit=((j["m"] - (j["sum"] - j["m"])).abs() <= 1e-6 * j["m"].abs() + 1e-9).astype(float))
                g = j[j["k"].notna()].groupby("k")["hit"].agg(["mean", "count"]).reset_index()
                g = g[(g["mean"] >= 0.9) & (g["count"] >= 3)].sort_values(["mean", "k"], ascending=[False, True])
                if len(g):
                    found.append({"column": keys[0], "value": str(g.iloc[0]["k"]), "measure": m})
                    break
            facts["totals"] = found
        # The years each measure is reported for nearly every entity (profile-latest.ts).
        dated = args["kind"] == "date"
        if len(keys) == 1 and (facts["timeDistinct"] <= PERIODS if dated else pd.api.types.is_numeric_dtype(df[t])):
            # A dated panel's periods by their times as written in filters, in order as text.
            years = rows["__opsmind_t"].dt.strftime("%Y-%m-%d %H:%M:%S") if dated else rows["__opsmind_t"].astype("float64")
            counts = pd.DataFrame({m: pd.to_numeric(rows[m], errors="coerce") for m in measures}).groupby(years).count()
            sizes = years.groupby(years).size()
            facts["reported"] = {}
            for m in measures:
                n = counts[m]
                if not len(n):
                    continue
                full = (n > 0) & (n >= LATEST * n.max())
                reported = n[full | ((n > 0) & (n >= LATEST * sizes))].index
                at = n.index.get_indexer(reported)
                # A measure missing here and there (sparse): its span is every period with a value.
                if dated and len(at) and at.max() - at.min() + 1 != len(at):
                    reported = n[n > 0].index
                if len(reported) and full.any():
                    as_of = str if dated else float
                    facts["reported"][m] = {"from": as_of(reported.min()), "to": as_of(reported.max()), "latest": as_of(n[full].index.max())}
                    # Gaps: rows in the span without the measure (profile-latest.ts gapsOf).
                    size = sizes.reindex(n.index)[(n.index >= reported.min()) & (n.index <= reported.max())]
                    miss = size - n.reindex(size.index)
                    gap = miss[miss > GAP * size]
                    if len(gap):
                        worst = (gap / size.reindex(gap.index)).idxmax()
                        facts["reported"][m]["gaps"] = {"cells": int(miss.sum()), "periods": len(gap), "at": as_of(worst), "missing": int(gap[worst]), "rows": int(size[worst])}
sp = args["splits"]
if sp["columns"]:
    X = pd.DataFrame({m: pd.to_numeric(df[m], errors="coerce").astype(float) for m in sp["measures"]})
    wholes = {m: float(X[m].sum()) for m in sp["measures"]}
    facts["splits"] = []
    facts["names"] = {}
    for c in sp["columns"]:
        parts = X.groupby(df[c].astype("string"), sort=True).sum(min_count=1)
        if NAMES[0] <= len(parts) <= NAMES[1]:
            facts["names"][c] = [str(v) for v in parts.index]
        for m in sp["measures"]:
            p, w = parts[m], wholes[m]
            if not math.isfinite(w):
                continue
            near = p.notna() & (p != 0) & ((p - (w - p)).abs() <= LOOSE * p.abs() + 1e-9)
            for v, part in p[near].items():
                if math.isfinite(part):
                    facts["splits"].append({"column": c, "value": str(v), "measure": m, "part": float(part), "whole": w})
    if not facts["names"]:
        del facts["names"]
# Categories that pair their values one to one (profile-facts.ts aliasFacts): as many distinct
# (a, b) rows, missing ones included, as a has distinct values, and where b is present as many as b has.
def _one_to_one(a, b):
    present = df.loc[df[b].notna(), [a, b]]
    return (len(df[[a, b]].drop_duplicates()) == len(df[[a]].drop_duplicates())
            and len(present.drop_duplicates()) == len(present[[b]].drop_duplicates()))
facts["aliases"] = [[a, b] for a, b in args["aliases"] if _one_to_one(a, b)]
with open("facts.json", "w") as out:
    json.dump(facts, out)
`;

/** What the program measures of the derived columns, the repeated and the header fields. */
function derivedArgs(profile: DataProfile) {
  const derivable = derivedMeasures(profile);
  const sparse = headerMeasures(profile);
  return {
    measures: derivable,
    triples: sumTriples(derivable, profile),
    quotients: quotientCandidates(profile),
    balances: balanceCandidates(profile),
    sections: sectionCandidates(profile),
    categories: binCategories(profile),
    group: groupCategory(profile),
    pairs: measurePairs(derivable),
    entities: (derivable.length ? attributeEntities(profile) : []).map((e) => [
      e,
      withinCandidates(profile, e),
    ]),
    header: (sparse.length ? headerEntities(profile) : []).map((e) => [
      e,
      headerWithin(profile, e),
      headerMeasures(profile, e),
    ]),
  };
}

/** The facts of the sandbox's `df` (profile-facts.ts, in pandas). */
export async function sandboxFacts(
  sandbox: Sandbox,
  profile: DataProfile,
  dayFirst: boolean,
  signal?: AbortSignal,
): Promise<TableFacts> {
  if (profile.rows === 0) return {};
  const time = describeData(profile).table.time;
  const column = profile.column_profiles.find((c) => c.name === time?.column);
  const measures = profile.column_profiles
    .filter(
      (c) =>
        c.name !== time?.column &&
        ((c.semantic === 'numeric' && /^(u?int|float)/i.test(c.dtype)) ||
          c.semantic === 'numeric_text'),
    )
    .map((c) => c.name);
  // Numbers stored as text read as the cleaning reads them (profile-facts.ts numberValue).
  const texts = profile.column_profiles.flatMap((c) =>
    c.semantic === 'numeric_text' && !/^(u?int|float)/i.test(c.dtype) ? [c.name] : [],
  );
  const args = {
    time: time?.column ?? null,
    kind: time?.kind ?? null,
    derived: derivedArgs(profile),
    dayfirst: dayFirst,
    regular: time?.kind === 'year' || (column?.datetime?.frequency ?? null) !== null,
    keys: candidateKeys(profile).map((key) => [keyLabel(key), key]),
    distinct: Object.fromEntries(profile.column_profiles.map((c) => [c.name, c.distinct])),
    measures,
    texts,
    splits: splitCandidates(profile),
    aliases: aliasCandidates(profile),
  };
  const code = `ARGS = ${JSON.stringify(JSON.stringify(args))}\nCHECKED = ${CHECKED_MEASURES}\nREPEATED = ${REPEATED_GROUPS}\nLOOSE = ${LOOSE_SHARE}\nNAMES = (${NAMES_MIN}, ${NAMES_DISTINCT})\nLATEST = ${REPORTED_SHARE}\nPERIODS = ${REPORTED_PERIODS}\nGAP = ${GAP_SHARE}\nSCREEN = ${QUOTIENT_SCREEN}\nBALANCES = ${BALANCE_SCREEN}\n${PROGRAM}`;
  const run = await sandbox.run({
    code,
    scriptName: 'table_facts.py',
    ...(signal ? { signal } : {}),
  });
  if (run.exitCode !== 0)
    throw new OpsmindError(
      `measuring the table's grain failed: ${run.limitHit ?? (run.stderr.trim().split('\n').at(-1) || 'no output')}`,
      run.limitHit ? ExitCode.SANDBOX : ExitCode.INTERNAL,
    );
  return FactsSchema.parse(readWorkdirJson(run.workdir, 'facts.json'));
}
