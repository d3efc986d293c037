"""Heatmap data (renderers/heatmap.ts): long (x, y, z) cells from long data or a matrix, the largest categories kept."""
import opsmind_contract as contract
from opsmind_chart_common import Prepared, aggregate, aggregation, numeric_columns

CAPS = contract.caps("heatmap")


def _cap_categories(frame, column, n):
    """Keep the n categories of `column` with the largest |z| total; says whether any were dropped."""
    totals = frame.groupby(column, sort=False)["z"].apply(lambda s: s.abs().sum()).sort_values(ascending=False)
    return frame[frame[column].isin(totals.index[:n])], len(totals) > n


def _from_matrix(data, p, cap):
    """A matrix such as df.corr(): its first column (if not numeric) labels the rows; numeric columns are cells."""
    matrix = data.set_index(data.columns[0]) if not numeric_columns(data[[data.columns[0]]]) else data
    matrix = matrix[numeric_columns(matrix)]
    long = matrix.iloc[:cap, :cap].rename_axis(index="y", columns="x").stack(dropna=False).rename("z").reset_index()
    frame = long[["x", "y", "z"]].astype({"x": str, "y": str})
    reductions = ["top_n"] if matrix.shape[0] > cap or matrix.shape[1] > cap else []
    return Prepared(frame, p, [], reductions, False, cap)


def prepare(data, params):
    """Cells from all of x, y, z (aggregated with agg) or from none of them (a matrix); anything between writes no frame."""
    p = dict(params)
    cap = CAPS["categories"]
    given = [p.get(k) is not None for k in ("x", "y", "z")]
    if not any(given):
        return _from_matrix(data, p, cap)
    if not all(given):
        return Prepared(None, p)  # the validator explains: all of x, y, z or none
    # Cells in the order they first appear, so rows and columns keep the frame's order (Mon…Sun, 0…23).
    frame = aggregate(data[[p["x"], p["y"], p["z"]]], [p["x"], p["y"]], [p["z"]], aggregation(p), sort=False)
    frame.columns = ["x", "y", "z"]
    reductions = ["aggregated"]
    for column in ("x", "y"):
        frame, capped = _cap_categories(frame, column, cap)
        if capped:
            reductions.append("top_n")
    return Prepared(frame, p, [], reductions, False, cap)
