"""Histogram data (renderers/histogram.ts): counts per bin, exact over all rows, per colour group."""
import numpy as np
import pandas as pd

import opsmind_contract as contract
from opsmind_chart_common import Prepared, finite, group_label, numeric_columns, top_groups

CAPS = contract.caps("histogram")


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


def _subset(data, x, color, group, values):
    """The finite x values of one colour group (all of them without a colour)."""
    if group is None:
        return values
    rows = data[color].isna() if pd.isna(group) else data[color] == group
    return finite(data.loc[rows, x])


def prepare(data, params):
    """Infer x (the first numeric column); bin its finite values (at most the bins cap automatically) per group."""
    inferred, p = [], dict(params)
    if p.get("x") is None:
        numeric = numeric_columns(data)
        if not numeric:
            raise ValueError("histogram needs a numeric column and the data has none")
        p["x"] = numeric[0]
        inferred.append("x")
    values = finite(data[p["x"]])
    if values.empty:
        raise ValueError(f'column "{p["x"]}" has no finite numbers to bin')
    bins = int(p.get("bins") or 0) or min(auto_bin_count(values.to_numpy()), CAPS["bins"])
    edges = np.histogram_bin_edges(values, bins=bins)
    rows, color = [], p.get("color")
    for group in top_groups(data, color, CAPS["groups"]) if color else [None]:
        counts, _ = np.histogram(_subset(data, p["x"], color, group, values), bins=edges)
        for i, count in enumerate(counts):
            row = {"bin_start": float(edges[i]), "bin_end": float(edges[i + 1]), "count": int(count)}
            if color:
                row["group"] = group_label(group)
            rows.append(row)
    return Prepared(pd.DataFrame(rows), p, inferred, ["binned"], False, len(edges) - 1)
