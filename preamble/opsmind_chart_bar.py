"""Bar chart data (renderers/bar.ts): one row per category (and color), aggregated, top categories kept."""
import opsmind_contract as contract
from opsmind_chart_common import (Prepared, aggregate, aggregation, as_list, fold_top, infer_category, is_additive,
                                  numeric_columns)

CAPS = contract.caps("bar")


def _count_rows(data, keys, p):
    """Without a y: a row count per category, in a column named "count" (or "rows" when "count" is taken)."""
    p["y"] = "count" if "count" not in data.columns else "rows"
    return data.groupby(keys, dropna=False, observed=True).size().reset_index(name=p["y"])


def prepare(data, params):
    """Infer x (a category) and y (a measure, else a row count), aggregate per category, fold the tail into "Other"."""
    inferred, p, reductions = [], dict(params), []
    infer_category(data, p, "x", inferred)
    x, color = p["x"], p.get("color")
    keys = [x] + ([color] if color else [])
    ys = as_list(p.get("y"))
    if not ys:
        candidates = numeric_columns(data, exclude=keys)
        if candidates and not data.duplicated(keys).any():
            p["y"] = candidates[0]
        else:
            data = _count_rows(data, keys, p)
            reductions.append("aggregated")
        inferred.append("y")
        ys = [p["y"]]
    frame = data[keys + [y for y in ys if y not in keys]]
    if p.get("agg") or frame.duplicated(keys).any():
        frame = aggregate(frame, keys, ys, aggregation(p))
        reductions.append("aggregated")
    cap = int(p.get("top_n") or CAPS["categories"])
    frame, folded = fold_top(frame, x, ys[0], cap, color, additive=is_additive(p))
    if folded:
        reductions.append("top_n")
    return Prepared(frame, p, inferred, reductions, False, cap)
