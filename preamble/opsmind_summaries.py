"""Preparation for kinds that summarise all rows exactly: histogram, box, heatmap."""
import numpy as np
import pandas as pd

from opsmind_charts import CAPS, Prepared, _agg, _aggregate, as_list, numeric_columns

GROUP_LIMIT = 8


def _finite(series):
    values = pd.to_numeric(series, errors="coerce").astype(float)
    return values[np.isfinite(values)]


def _top_groups(frame, column, n):
    return list(frame[column].value_counts(dropna=False).index[:n])


def auto_bin_count(values):
    """numpy's "auto" bin count (max of Sturges and Freedman-Diaconis) without building the edges."""
    span = float(values.max() - values.min())
    if span == 0 or len(values) < 2:
        return 1
    sturges = span / (np.log2(len(values)) + 1)
    q75, q25 = np.percentile(values, [75, 25])
    fd = 2 * (q75 - q25) * len(values) ** (-1 / 3)
    width = min(fd, sturges) if fd > 0 else sturges
    return int(np.ceil(span / width))


def prepare_histogram(data, params):
    inferred, p = [], dict(params)
    if p.get("x") is None:
        numeric = numeric_columns(data)
        if not numeric:
            raise ValueError("histogram needs a numeric column and the data has none")
        p["x"] = numeric[0]
        inferred.append("x")
    values = _finite(data[p["x"]])
    if values.empty:
        raise ValueError(f'column "{p["x"]}" has no finite numbers to bin')
    bins = int(p.get("bins") or 0) or min(auto_bin_count(values.to_numpy()), CAPS["histogram"])
    edges = np.histogram_bin_edges(values, bins=bins)
    rows, color = [], p.get("color")
    groups = _top_groups(data, color, GROUP_LIMIT) if color else [None]
    for group in groups:
        subset = values if group is None else _finite(data.loc[data[color] == group, p["x"]]) if pd.notna(group) else _finite(data.loc[data[color].isna(), p["x"]])
        counts, _ = np.histogram(subset, bins=edges)
        for i, count in enumerate(counts):
            row = {"bin_start": float(edges[i]), "bin_end": float(edges[i + 1]), "count": int(count)}
            if color:
                row["group"] = "(missing)" if pd.isna(group) else str(group)
            rows.append(row)
    return Prepared(pd.DataFrame(rows), p, inferred, ["binned"], False, len(edges) - 1)


def _box_stats(values):
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    iqr = q3 - q1
    inside = values[(values >= q1 - 1.5 * iqr) & (values <= q3 + 1.5 * iqr)]
    return {"q1": q1, "median": median, "q3": q3, "lowerfence": inside.min(), "upperfence": inside.max(), "mean": values.mean(), "n": int(len(values))}


def _key(group):
    return "__missing__" if group is not None and pd.isna(group) else group


def _split(data, x, y, groups):
    """Finite values of y per group of x, in one pass (not one boolean mask per group)."""
    numbers = pd.to_numeric(data[y], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    finite = np.isfinite(numbers)
    if x is None:
        return {None: pd.Series(numbers[finite])}
    # Group by integer codes, not by the label column itself: copying an object column
    # in a forked child touches (and so copies) every page its strings live on.
    codes, uniques = pd.factorize(data[x])
    wanted = {_key(g) for g in groups}
    out = {}
    for code, part in pd.Series(numbers[finite]).groupby(codes[finite], sort=False):
        key = "__missing__" if code < 0 else _key(uniques[code])
        if key in wanted:
            out[key] = part
    return out


def prepare_box(data, params):
    inferred, p = [], dict(params)
    if p.get("y") is None:
        ys = numeric_columns(data, exclude=[p.get("x")])[:10]
        if not ys:
            raise ValueError("box needs a numeric column and the data has none")
        p["y"] = ys[0] if len(ys) == 1 else ys
        inferred.append("y")
    x, rows = p.get("x"), []
    cap = int(p.get("top_n") or CAPS["box"])
    groups = _top_groups(data, x, cap) if x else [None]
    for y in as_list(p["y"]):
        values_by_group = _split(data, x, y, groups)
        for group in groups:
            values = values_by_group.get(_key(group))
            if values is None or values.empty:
                continue
            label = y if group is None else ("(missing)" if pd.isna(group) else str(group))
            rows.append({"series": y, "group": label, **_box_stats(values.to_numpy())})
    if not rows:
        raise ValueError("no finite numbers to summarise")
    reductions = ["summarized"] + (["top_n"] if x and data[x].nunique(dropna=False) > cap else [])
    return Prepared(pd.DataFrame(rows), p, inferred, reductions, False, cap)


def _cap_categories(frame, column, n):
    totals = frame.groupby(column, sort=False)["z"].apply(lambda s: s.abs().sum()).sort_values(ascending=False)
    return frame[frame[column].isin(totals.index[:n])], len(totals) > n


def prepare_heatmap(data, params):
    p = dict(params)
    cap, reductions = CAPS["heatmap"], []
    if p.get("x") is None and p.get("y") is None and p.get("z") is None:
        matrix = data.set_index(data.columns[0]) if not numeric_columns(data[[data.columns[0]]]) else data
        matrix = matrix[numeric_columns(matrix)]
        long = matrix.iloc[:cap, :cap].rename_axis(index="y", columns="x").stack(dropna=False).rename("z").reset_index()
        frame = long[["x", "y", "z"]].astype({"x": str, "y": str})
        if matrix.shape[0] > cap or matrix.shape[1] > cap:
            reductions.append("top_n")
        return Prepared(frame, p, [], reductions, False, cap)
    if p.get("x") is None or p.get("y") is None or p.get("z") is None:
        return Prepared(None, p)  # the validator explains: all of x, y, z or none
    frame = _aggregate(data[[p["x"], p["y"], p["z"]]], [p["x"], p["y"]], [p["z"]], _agg(p))
    frame.columns = ["x", "y", "z"]
    reductions.append("aggregated")
    for column in ("x", "y"):
        frame, capped = _cap_categories(frame, column, cap)
        if capped:
            reductions.append("top_n")
    return Prepared(frame, p, [], reductions, False, cap)
