"""Pie chart data (renderers/pie.ts): a total per name, largest first, small slices summed into "Other"."""
import opsmind_contract as contract
from opsmind_chart_common import (Prepared, aggregate, aggregation, fold_top, infer_category, is_additive,
                                  numeric_columns)

CAPS = contract.caps("pie")


def _infer_values(data, p, names, inferred):
    """values: the first numeric column when every name has one row; else none (rows are counted)."""
    if p.get("values") is None:
        candidates = numeric_columns(data, exclude=[names])
        if candidates and not data[names].duplicated().any():
            p["values"] = candidates[0]
            inferred.append("values")


def prepare(data, params):
    """One row per name with its (non-negative) total, sorted, the tail beyond top_n folded into "Other"."""
    inferred, p, reductions = [], dict(params), []
    infer_category(data, p, "names", inferred)
    names = p["names"]
    _infer_values(data, p, names, inferred)
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
            frame = aggregate(frame, [names], [values], aggregation(p))
            reductions.append("aggregated")
    frame = frame.sort_values(values, ascending=False, kind="stable")
    cap = int(p.get("top_n") or CAPS["categories"])
    frame, folded = fold_top(frame, names, values, cap, additive=is_additive(p))
    if folded:
        reductions.append("top_n")
    return Prepared(frame, p, inferred, reductions, False, cap)
