"""Scatter plot data (renderers/scatter.ts): the used columns, sampled reproducibly past the point cap."""
import numpy as np

import opsmind_contract as contract
from opsmind_chart_common import Prepared, numeric_columns

CAPS = contract.caps("scatter")


def prepare(data, params):
    """Infer x and y (the first two numeric columns); keep at most the point cap of rows, chosen with a fixed seed."""
    inferred, p = [], dict(params)
    numeric = numeric_columns(data)
    for key, i in (("x", 0), ("y", 1)):
        if p.get(key) is None:
            if len(numeric) <= i:
                raise ValueError("scatter needs two numeric columns for x and y")
            p[key] = numeric[i]
            inferred.append(key)
    cols = list(dict.fromkeys([p["x"], p["y"]] + [c for c in (p.get("color"), p.get("size")) if c]))
    cap = min(CAPS["points"], int(p.get("max_points") or CAPS["points"]))
    if len(data) > cap:
        # Choose the rows first, then copy only them: a million-row copy costs more than the sample.
        rows = np.sort(np.random.default_rng(0).choice(len(data), size=cap, replace=False))
        return Prepared(data.iloc[rows, [data.columns.get_loc(c) for c in cols]], p, inferred, ["sampled"], True, cap)
    return Prepared(data[cols], p, inferred, [], False, cap)
