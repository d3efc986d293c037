"""Box plot data (renderers/box.ts): quartiles, fences and mean per series and group, exact over all rows."""
import numpy as np
import pandas as pd

import opsmind_contract as contract
from opsmind_chart_common import Prepared, as_list, group_label, numeric_columns, top_groups

CAPS = contract.caps("box")
MISSING_KEY = "__missing__"


def _box_stats(values):
    """Tukey statistics: quartiles, fences at 1.5 IQR clipped to the data, mean and count."""
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    iqr = q3 - q1
    inside = values[(values >= q1 - 1.5 * iqr) & (values <= q3 + 1.5 * iqr)]
    return {"q1": q1, "median": median, "q3": q3, "lowerfence": inside.min(), "upperfence": inside.max(),
            "mean": values.mean(), "n": int(len(values))}


def _key(group):
    return MISSING_KEY if group is not None and pd.isna(group) else group


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
        key = MISSING_KEY if code < 0 else _key(uniques[code])
        if key in wanted:
            out[key] = part
    return out


def _infer_y(data, p, inferred):
    """y: the numeric columns but x, up to the series cap."""
    if p.get("y") is None:
        ys = numeric_columns(data, exclude=[p.get("x")])[: CAPS["series"]]
        if not ys:
            raise ValueError("box needs a numeric column and the data has none")
        p["y"] = ys[0] if len(ys) == 1 else ys
        inferred.append("y")


def prepare(data, params):
    """One row of statistics per y column and per group of x (the most frequent top_n groups)."""
    inferred, p = [], dict(params)
    _infer_y(data, p, inferred)
    x, rows = p.get("x"), []
    cap = int(p.get("top_n") or CAPS["categories"])
    groups = top_groups(data, x, cap) if x else [None]
    for y in as_list(p["y"]):
        values_by_group = _split(data, x, y, groups)
        for group in groups:
            values = values_by_group.get(_key(group))
            if values is None or values.empty:
                continue
            label = y if group is None else group_label(group)
            rows.append({"series": y, "group": label, **_box_stats(values.to_numpy())})
    if not rows:
        raise ValueError("no finite numbers to summarise")
    reductions = ["summarized"] + (["top_n"] if x and data[x].nunique(dropna=False) > cap else [])
    return Prepared(pd.DataFrame(rows), p, inferred, reductions, False, cap)
