"""Shaping declared data into small, JSON-safe frames the host can trust."""
import numpy as np
import pandas as pd
from pandas.api import types as ptypes

DTYPE_SAMPLE = 2000
NUMERIC_KINDS = {"integer", "floating", "mixed-integer-float", "decimal"}


def coarse_dtype(series):
    """The coarse type of a column: number, string, datetime, boolean, category or other."""
    dtype = series.dtype
    if ptypes.is_bool_dtype(dtype):
        return "boolean"
    if ptypes.is_datetime64_any_dtype(dtype):
        return "datetime"
    if isinstance(dtype, pd.CategoricalDtype):
        return "category"
    if ptypes.is_numeric_dtype(dtype):
        return "number"
    if ptypes.is_string_dtype(dtype) or dtype == object:
        sample = series.iloc[:DTYPE_SAMPLE].dropna()
        if sample.empty:
            sample = series.dropna().iloc[:DTYPE_SAMPLE]
        inferred = pd.api.types.infer_dtype(sample, skipna=True)
        if inferred in ("string", "empty"):
            return "string"
        if inferred == "boolean":
            return "boolean"
        if inferred in NUMERIC_KINDS:
            return "number"
        if inferred in ("datetime", "datetime64", "date"):
            return "datetime"
    return "other"


def column_infos(frame):
    """[{name, dtype}] for every column of a DataFrame."""
    return [{"name": str(name), "dtype": coarse_dtype(frame[name])} for name in frame.columns]


def has_label_index(frame):
    """True when the index carries information (named, labels, or a MultiIndex) rather than row numbers."""
    index = frame.index
    if isinstance(index, pd.MultiIndex) or any(name is not None for name in index.names):
        return True
    if isinstance(index, pd.RangeIndex):
        return False
    return not ptypes.is_integer_dtype(index.dtype)


def to_frame(data):
    """A DataFrame with string column names; a Series or a labelled index become columns."""
    if isinstance(data, pd.Series):
        data = data.to_frame(name=str(data.name) if data.name is not None else "value")
    elif not isinstance(data, pd.DataFrame):
        data = pd.DataFrame(data)
    if has_label_index(data):
        names = [name if name is not None else ("index" if i == 0 else f"level_{i}") for i, name in enumerate(data.index.names)]
        data = data.rename_axis(names).reset_index()
    if any(not isinstance(name, str) for name in data.columns) or not data.columns.is_unique:
        data = data.copy()
        data.columns = _unique([_column_name(name) for name in data.columns])
    return data


def _unique(names):
    """Repeated names get ".1", ".2", … as read_csv does, so no column is lost."""
    seen, out = set(), []
    for name in names:
        candidate, n = name, 0
        while candidate in seen:
            n += 1
            candidate = f"{name}.{n}"
        seen.add(candidate)
        out.append(candidate)
    return out


def _column_name(name):
    if isinstance(name, tuple):
        return " / ".join(str(part) for part in name if str(part) != "")
    return str(name)


def json_safe(frame):
    """A copy whose values pandas' JSON writer renders faithfully (durations and periods as text)."""
    out = frame
    for name in frame.columns:
        series = frame[name]
        if ptypes.is_timedelta64_dtype(series.dtype) or isinstance(series.dtype, pd.PeriodDtype):
            out = out.copy() if out is frame else out
            out[name] = series.astype(str).where(series.notna(), None)
        elif isinstance(series.dtype, pd.CategoricalDtype):
            out = out.copy() if out is frame else out
            out[name] = series.astype(object).where(series.notna(), None)
    return out


# How a table writes an infinite value: JSON has no infinity, and null would show it as missing.
INFINITY_TEXT = {True: "∞", False: "-∞"}


def infinities_as_text(frame):
    """A copy whose infinite floats are "∞" and "-∞" (a table's cells; the host writes its tables so too),
    the frame itself when it holds none."""
    out = frame
    for name in frame.columns:
        series = frame[name]
        if not ptypes.is_float_dtype(series.dtype):
            continue
        values = series.to_numpy(dtype=float, na_value=float("nan"))
        infinite = np.isinf(values)
        if infinite.any():
            out = out.copy() if out is frame else out
            cells = series.astype(object).where(series.notna(), None)
            cells[infinite] = [INFINITY_TEXT[bool(v > 0)] for v in values[infinite]]
            out[name] = cells
    return out


def write_frame(frame, path, infinities=False):
    """Write a frame as `{columns, data}` JSON (NaN/inf → null, timestamps → ISO); with `infinities` (a
    table), an infinite value is the text "∞" or "-∞" instead, not a missing one."""
    frame = infinities_as_text(frame) if infinities else frame
    text = json_safe(frame).to_json(orient="split", index=False, date_format="iso", double_precision=15, default_handler=str)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
