"""Per-kind data preparation: infer missing parameters, aggregate, cap.

Each `prepare_<kind>` turns the declared data into the small frame its
renderer in renderers/<kind>.ts draws. The preamble never rejects a
declaration: when a named column is missing it writes no frame and the host's
validator explains the problem (with the nearest column names).
"""
import numpy as np
import pandas as pd
from pandas.api import types as ptypes

# Parameters that name columns, per kind. test/preamble-contract.test.ts checks this against renderers/.
COLUMN_PARAMS = {
    "bar": ["x", "y", "color"],
    "line": ["x", "y", "color"],
    "area": ["x", "y", "color"],
    "scatter": ["x", "y", "color", "size"],
    "histogram": ["x", "color"],
    "box": ["y", "x", "color"],
    "pie": ["names", "values", "color"],
    "heatmap": ["x", "y", "z", "color"],
    "table": ["color"],
}
CAPS = {"bar": 50, "line": 5000, "area": 5000, "scatter": 5000, "histogram": 60, "box": 30, "pie": 5, "heatmap": 60}
AGGS = {"sum", "mean", "median", "count", "min", "max"}
OTHER = "Other"


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
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def referenced_columns(kind, params):
    """Column names the parameters of a declaration refer to."""
    names = []
    for key in COLUMN_PARAMS.get(kind, []):
        names.extend(v for v in as_list(params.get(key)) if isinstance(v, str))
    return names


def numeric_columns(frame, exclude=()):
    return [c for c in frame.columns if c not in exclude and ptypes.is_numeric_dtype(frame[c]) and not ptypes.is_bool_dtype(frame[c])]


def _agg(params):
    agg = params.get("agg") or "sum"
    if agg not in AGGS:
        raise ValueError(f'agg must be one of {", ".join(sorted(AGGS))}; got "{agg}"')
    return agg


def _aggregate(frame, keys, ys, agg):
    """One row per key combination: `agg` of every y (count counts rows)."""
    grouped = frame.groupby(keys, dropna=False, sort=True, observed=True)
    if agg == "count":
        return grouped[ys].count().reset_index()
    return grouped[ys].agg(agg).reset_index()


def _fold_top(frame, key, value, n, group=None, additive=True):
    """Keep the n largest `key` categories by |value| total; sum the rest into "Other"
    (only for additive values: the rest of a mean or a median is dropped, not summed)."""
    totals = frame.groupby(key, dropna=False, sort=False)[value].sum().abs().sort_values(ascending=False)
    if len(totals) <= n:
        return frame, False
    keep = set(totals.index[:n])
    inside = frame[key].isin(keep)
    if not additive:
        return frame[inside], True
    rest = frame[~inside]
    keys = [group] if group else []
    other = rest.groupby(keys, dropna=False, observed=True).sum(numeric_only=True).reset_index() if keys else rest.sum(numeric_only=True).to_frame().T
    other[key] = OTHER
    return pd.concat([frame[inside], other[frame.columns]], ignore_index=True), True


def _infer_category(data, p, key, inferred):
    """Fill a missing category parameter with the first non-numeric column (else the first column)."""
    if p.get(key) is None:
        others = [c for c in data.columns if c not in numeric_columns(data)]
        p[key] = (others or list(data.columns))[0]
        inferred.append(key)


def prepare_bar(data, params):
    inferred, p = [], dict(params)
    _infer_category(data, p, "x", inferred)
    x, color = p["x"], p.get("color")
    keys = [x] + ([color] if color else [])
    ys = as_list(p.get("y"))
    reductions = []
    if not ys:
        candidates = numeric_columns(data, exclude=keys)
        if candidates and not data.duplicated(keys).any():
            p["y"] = candidates[0]
        else:
            p["y"] = "count" if "count" not in data.columns else "rows"
            data = data.groupby(keys, dropna=False, observed=True).size().reset_index(name=p["y"])
            reductions.append("aggregated")
        inferred.append("y")
        ys = [p["y"]]
    frame = data[keys + [y for y in ys if y not in keys]]
    if p.get("agg") or frame.duplicated(keys).any():
        frame = _aggregate(frame, keys, ys, _agg(p))
        reductions.append("aggregated")
    cap = int(p.get("top_n") or CAPS["bar"])
    frame, folded = _fold_top(frame, x, ys[0], cap, color, additive=p.get("agg") in (None, "sum", "count"))
    if folded:
        reductions.append("top_n")
    return Prepared(frame, p, inferred, reductions, False, cap)


def _downsample(frame, x, y, cap):
    """Keep each bucket's first, min and max rows so peaks and troughs survive."""
    buckets = max(1, cap // 3)
    position = np.arange(len(frame)) * buckets // len(frame)
    values = pd.to_numeric(frame[y], errors="coerce")
    by = pd.Series(position, index=frame.index)
    rows = set(by.groupby(by).head(1).index)
    rows |= set(values.groupby(position).idxmax().dropna())
    rows |= set(values.groupby(position).idxmin().dropna())
    return frame.loc[sorted(rows)]


def prepare_line(data, params, kind="line"):
    inferred, p = [], dict(params)
    if p.get("x") is None:
        dates = [c for c in data.columns if ptypes.is_datetime64_any_dtype(data[c])]
        p["x"] = (dates or list(data.columns))[0]
        inferred.append("x")
    x, color = p["x"], p.get("color")
    keys = [x] + ([color] if color else [])
    if p.get("y") is None:
        ys = numeric_columns(data, exclude=keys)[:10]
        if not ys:
            raise ValueError(f"{kind} needs a numeric y column and the data has none")
        p["y"] = ys[0] if len(ys) == 1 else ys
        inferred.append("y")
    ys = as_list(p["y"])
    frame, reductions = data[keys + [y for y in ys if y not in keys]], []
    frame = frame[frame[x].notna()]
    if p.get("agg") or frame.duplicated(keys).any():
        frame = _aggregate(frame, keys, ys, _agg(p))
        reductions.append("aggregated")
    frame = frame.sort_values(keys, kind="stable").reset_index(drop=True)
    cap, sampled = CAPS[kind], False
    if len(frame) > cap:
        groups = [g for _, g in frame.groupby(color, sort=False)] if color else [frame]
        if len(groups) > cap // 3:
            groups = sorted(groups, key=lambda g: -pd.to_numeric(g[ys[0]], errors="coerce").abs().sum())[: cap // 3]
            reductions.append("top_n")
        per = max(3, cap // len(groups))
        frame = pd.concat([_downsample(g, x, ys[0], per) if len(g) > per else g for g in groups])
        reductions.append("downsampled")
        sampled = True
    return Prepared(frame, p, inferred, reductions, sampled, cap)


def prepare_area(data, params):
    return prepare_line(data, params, "area")


def prepare_scatter(data, params):
    inferred, p = [], dict(params)
    numeric = numeric_columns(data)
    for key, i in (("x", 0), ("y", 1)):
        if p.get(key) is None:
            if len(numeric) <= i:
                raise ValueError("scatter needs two numeric columns for x and y")
            p[key] = numeric[i]
            inferred.append(key)
    cols = list(dict.fromkeys([p["x"], p["y"]] + [c for c in (p.get("color"), p.get("size")) if c]))
    cap = CAPS["scatter"]
    if len(data) > cap:
        # Choose the rows first, then copy only them: a million-row copy costs more than the sample.
        rows = np.sort(np.random.default_rng(0).choice(len(data), size=cap, replace=False))
        return Prepared(data.iloc[rows, [data.columns.get_loc(c) for c in cols]], p, inferred, ["sampled"], True, cap)
    return Prepared(data[cols], p, inferred, [], False, cap)


def prepare_pie(data, params):
    inferred, p = [], dict(params)
    _infer_category(data, p, "names", inferred)
    names, reductions = p["names"], []
    if p.get("values") is None:
        candidates = numeric_columns(data, exclude=[names])
        if candidates and not data[names].duplicated().any():
            p["values"] = candidates[0]
            inferred.append("values")
    values = p.get("values")
    if values is None:
        frame = data.groupby(names, dropna=False).size().reset_index(name="count")
        reductions.append("aggregated")
        values = "count"
    else:
        frame = data[[names, values]]
        if frame[values].lt(0).any():
            raise ValueError(f'pie values must not be negative; column "{values}" has negative values (use a bar chart)')
        if p.get("agg") or frame[names].duplicated().any():
            frame = _aggregate(frame, [names], [values], _agg(p))
            reductions.append("aggregated")
    frame = frame.sort_values(values, ascending=False, kind="stable")
    cap = int(p.get("top_n") or CAPS["pie"])
    frame, folded = _fold_top(frame, names, values, cap, additive=p.get("agg") in (None, "sum", "count"))
    if folded:
        reductions.append("top_n")
    return Prepared(frame, p, inferred, reductions, False, cap)


def prepare_table(data, params):
    p = dict(params)
    max_rows = int(p.get("max_rows") or 50)
    frame = data.iloc[:, :100]
    reductions = ["truncated"] if len(frame) > max_rows or data.shape[1] > 100 else []
    return Prepared(frame.head(max_rows), p, [], reductions, len(frame) > max_rows, max_rows)
