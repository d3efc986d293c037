"""What the per-kind preparers (opsmind_chart_<kind>.py) share: the outcome type and the
column, aggregation and top-N helpers. Each preparer turns the declared data into the
small frame its renderer in renderers/<kind>.ts draws. A preparer never rejects a
declaration for a missing column: the preamble writes no frame and the host's
validator explains the problem (with the nearest column names).
"""
import numpy as np
import pandas as pd
from pandas.api import types as ptypes

import opsmind_contract as contract

MISSING = "(missing)"


class Prepared:
    """The outcome of preparing one declaration."""

    def __init__(self, frame, params, inferred=(), reductions=(), sampled=False, cap=None):
        self.frame = frame
        self.params = params
        self.inferred = list(inferred)
        self.reductions = list(reductions) or ["none"]
        self.sampled = sampled
        self.cap = cap


def as_list(value):
    """A parameter naming one column or several, as a list."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def referenced_columns(kind, params):
    """Column names the parameters of a declaration refer to."""
    names = []
    for key in contract.column_params(kind):
        names.extend(v for v in as_list(params.get(key)) if isinstance(v, str))
    return names


def numeric_columns(frame, exclude=()):
    """Numeric, non-boolean columns of `frame`, in order, but those in `exclude`."""
    return [c for c in frame.columns
            if c not in exclude and ptypes.is_numeric_dtype(frame[c]) and not ptypes.is_bool_dtype(frame[c])]


def aggregation(params):
    """The `agg` parameter (default sum); a ValueError naming the accepted ones otherwise."""
    agg = params.get("agg") or "sum"
    if agg not in contract.AGGREGATIONS:
        raise ValueError(f'agg must be one of {", ".join(sorted(contract.AGGREGATIONS))}; got "{agg}"')
    return agg


def is_additive(params):
    """Whether the charted values add up, so the rest of the categories may be summed into "Other"."""
    return params.get("agg") in (None, "sum", "count")


def aggregate(frame, keys, ys, agg, sort=True):
    """One row per key combination: `agg` of every y (count counts rows); sort=False keeps the order keys first appear in."""
    grouped = frame.groupby(keys, dropna=False, sort=sort, observed=True)
    if agg == "count":
        return grouped[ys].count().reset_index()
    return grouped[ys].agg(agg).reset_index()


def fold_top(frame, key, value, n, group=None, additive=True):
    """Keep the n largest `key` categories by |value| total; sum the rest into "Other"
    (only for additive values: the rest of a mean or a median is dropped, not summed). The data's
    own "Other" is part of that rest, so the chart never holds two bars named "Other"."""
    totals = frame.groupby(key, dropna=False, sort=False)[value].sum().abs().sort_values(ascending=False)
    if len(totals) <= n:
        return frame, False
    if additive:
        own = totals.index.map(lambda k: isinstance(k, str) and k == contract.OTHER).to_numpy(dtype=bool)
        totals = pd.concat([totals[~own], totals[own]])
    keep = set(totals.index[:n])
    inside = frame[key].isin(keep)
    if not additive:
        return frame[inside], True
    rest = frame[~inside]
    keys = [group] if group else []
    if keys:
        other = rest.groupby(keys, dropna=False, observed=True).sum(numeric_only=True).reset_index()
    else:
        other = rest.sum(numeric_only=True).to_frame().T
    other[key] = contract.OTHER
    return pd.concat([frame[inside], other[frame.columns]], ignore_index=True), True


def infer_category(data, params, key, inferred):
    """Fill a missing category parameter with the first non-numeric column (else the first column)."""
    if params.get(key) is None:
        others = [c for c in data.columns if c not in numeric_columns(data)]
        params[key] = (others or list(data.columns))[0]
        inferred.append(key)


def finite(series):
    """The finite numbers of a column (text that is no number, NaN and infinities dropped)."""
    values = pd.to_numeric(series, errors="coerce").astype(float)
    return values[np.isfinite(values)]


def top_groups(frame, column, n):
    """The n most frequent values of `column` (missing values count as one)."""
    return list(frame[column].value_counts(dropna=False).index[:n])


def group_label(group):
    """A group value as the label the renderers show."""
    return MISSING if pd.isna(group) else str(group)
