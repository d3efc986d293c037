"""Line chart data (renderers/line.ts): sorted by x, aggregated per x, downsampled keeping peaks and troughs."""
import numpy as np
import pandas as pd
from pandas.api import types as ptypes

import opsmind_contract as contract
from opsmind_chart_common import Prepared, aggregate, aggregation, as_list, numeric_columns


def _downsample(frame, y, cap):
    """Keep each bucket's first, min and max rows so peaks and troughs survive."""
    buckets = max(1, cap // 3)
    position = np.arange(len(frame)) * buckets // len(frame)
    values = pd.to_numeric(frame[y], errors="coerce")
    by = pd.Series(position, index=frame.index)
    rows = set(by.groupby(by).head(1).index)
    rows |= set(values.groupby(position).idxmax().dropna())
    rows |= set(values.groupby(position).idxmin().dropna())
    return frame.loc[sorted(rows)]


def _infer(data, p, inferred, kind, caps):
    """x: the first datetime column (else the first column); y: the numeric columns (up to the series cap)."""
    if p.get("x") is None:
        dates = [c for c in data.columns if ptypes.is_datetime64_any_dtype(data[c])]
        p["x"] = (dates or list(data.columns))[0]
        inferred.append("x")
    if p.get("y") is None:
        keys = [p["x"]] + ([p["color"]] if p.get("color") else [])
        ys = numeric_columns(data, exclude=keys)[: caps["series"]]
        if not ys:
            raise ValueError(f"{kind} needs a numeric y column and the data has none")
        p["y"] = ys[0] if len(ys) == 1 else ys
        inferred.append("y")


def _cap_points(frame, color, ys, cap, reductions):
    """At most `cap` rows: the largest series (by |first y|) kept, each downsampled to its share."""
    groups = [g for _, g in frame.groupby(color, sort=False)] if color else [frame]
    if len(groups) > cap // 3:
        groups = sorted(groups, key=lambda g: -pd.to_numeric(g[ys[0]], errors="coerce").abs().sum())[: cap // 3]
        reductions.append("top_n")
    per = max(3, cap // len(groups))
    reductions.append("downsampled")
    return pd.concat([_downsample(g, ys[0], per) if len(g) > per else g for g in groups])


def prepare_series(data, params, kind):
    """The frame of a line-like chart of `kind` (line, area): its caps come from the contract."""
    caps = contract.caps(kind)
    inferred, p, reductions = [], dict(params), []
    _infer(data, p, inferred, kind, caps)
    x, color = p["x"], p.get("color")
    keys = [x] + ([color] if color else [])
    ys = as_list(p["y"])
    frame = data[keys + [y for y in ys if y not in keys]]
    frame = frame[frame[x].notna()]
    if p.get("agg") or frame.duplicated(keys).any():
        frame = aggregate(frame, keys, ys, aggregation(p))
        reductions.append("aggregated")
    frame = frame.sort_values(keys, kind="stable").reset_index(drop=True)
    cap, sampled = caps["points"], False
    if len(frame) > cap:
        frame, sampled = _cap_points(frame, color, ys, cap, reductions), True
    return Prepared(frame, p, inferred, reductions, sampled, cap)


def prepare(data, params):
    """Line chart data."""
    return prepare_series(data, params, "line")
