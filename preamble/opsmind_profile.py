"""The dataset profile get_data_info returns; src/agent/profile.ts (zod) is the contract.

Counts, distinct values and number statistics are exact; the semantic type of
a text column is judged on a sample of at most 5,000 non-missing values.
Every key is always present, null where it does not apply; numbers are finite.
"""
import datetime
import json
import math
import re
import sys

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from opsmind_semantic import (  # noqa: F401 - re-exported: tests and callers use opsmind_profile.<name>
    PANDAS_MAJOR,
    PARSE_SHARE,
    BOOLEAN_PAIRS,
    CODE_TOKENS,
    KEY_LAST_TOKENS,
    UUID,
    EMAIL,
    ID_TOKEN,
    CODES,
    NUMBER_TEXT,
    FAST_NUMBER,
    MONTH,
    DATE_LIKE,
    DAY,
    FREQUENCIES,
    name_tokens,
    _code_like,
    _id_hint,
    to_datetime,
    infer_frequency,
    _share,
    _currencies_of,
    _number_text_style,
    parse_number_text,
    _is_boolean,
    link_ends,
    may_link,
    node_codes,
    node_columns,
)

DETAIL_LIMIT, SAMPLE_VALUES, MIN_ID_ROWS = 200, 5000, 20
TOP_N, TOP_CHARS, NAMES_LISTED = 5, 80, 8
CORR_ROWS, CORR_COLUMNS, CORR_MIN, CORR_LIMIT = 200_000, 50, 0.3, 10


def _pct(share):
    """A share as a short percentage: 62%, 4.5%, <0.1%."""
    value = share * 100
    return "<0.1%" if 0 < value < 0.1 else f"{value:.0f}%" if value >= 10 or value == 0 else f"{value:.1f}%"


def _names(names):
    return ", ".join(names[:NAMES_LISTED]) + (f" and {len(names) - NAMES_LISTED} more" if len(names) > NAMES_LISTED else "")












def sorted_quantiles(values, qs):
    """Quantiles of sorted values, as np.percentile's default linear method computes them — but the value
    itself at an exact position and an infinity beside a number, where numpy's interpolation gives NaN (its
    75% of -inf, 0.5, 1.5, 2.5, inf), as DuckDB's quantile_cont does; NaN only between -inf and inf."""
    out = []
    for q in qs:
        position = q * (len(values) - 1)
        low = int(math.floor(position))
        a, b, t = values[low], values[min(low + 1, len(values) - 1)], position - low
        if t == 0 or a == b:
            out.append(float(a))
        elif math.isinf(a) or math.isinf(b):
            out.append(math.nan if math.isinf(a) and math.isinf(b) else float(a if math.isinf(a) else b))
        else:
            out.append(float(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t))
    return out


def settled_mean(mean, n, low, high):
    """A mean within the rounding error of summing its values (n × ε × the largest |value|) of zero is zero: centred
    data (residuals, standardised scores) otherwise shows 1.6e-16 here and 2.8e-16 in the other engine. As
    settledMean in profile-numbers.ts."""
    return 0.0 if abs(mean) <= n * sys.float_info.epsilon * max(abs(low), abs(high)) else mean


def number_stats(values, is_sorted=False):
    """Statistics of finite float values (NumberStats); None when there are none or they overflow."""
    n = len(values)
    if n == 0:
        return None
    q1, median, q3 = sorted_quantiles(values if is_sorted else np.sort(values), (0.25, 0.5, 0.75))
    mean, iqr = float(values.mean()), q3 - q1
    with np.errstate(all="ignore"):
        centred = values - mean
        squared = centred * centred
        m2, m3 = float(squared.sum()), float(np.dot(squared, centred))
    low, high = float(values.min()), float(values.max())
    stats = {"min": low, "max": high, "mean": settled_mean(mean, n, low, high) if math.isfinite(mean) else mean,
             "std": math.sqrt(m2 / (n - 1)) if n > 1 and math.isfinite(m2) else None, "median": median, "q1": q1, "q3": q3,
             "zeros": int(np.count_nonzero(values == 0)), "negatives": int(np.count_nonzero(values < 0)),
             "outliers": int(n - np.count_nonzero((values >= q1 - 1.5 * iqr) & (values <= q3 + 1.5 * iqr))), "skew": None}
    if n > 2 and 1e-14 <= m2 < math.inf:  # pandas' adjusted Fisher-Pearson skew
        stats["skew"] = (n * (n - 1) ** 0.5 / (n - 2)) * ((m3 if abs(m3) >= 1e-14 else 0.0) / m2 ** 1.5)
    stats.update({k: None for k in ("std", "skew") if stats[k] is not None and not math.isfinite(stats[k])})
    return stats if all(math.isfinite(stats[k]) for k in ("min", "max", "mean", "median", "q1", "q3")) else None


def _date_stats(stamps, parse_share):
    index = pd.DatetimeIndex(stamps).dropna()
    if len(index) == 0:
        return None
    low, high = index.min(), index.max()
    return {"min": low.isoformat(), "max": high.isoformat(), "span_days": (high - low).total_seconds() / DAY,
            "frequency": infer_frequency(index), "parse_share": parse_share}


def _floats(series):
    values = series.to_numpy()
    return values.astype(np.float64, copy=False) if values.dtype.kind in "iuf" else series.to_numpy(dtype=np.float64, na_value=np.nan)


def factorize(series):
    """(codes, uniques, counts) of the non-missing values (codes -1 where missing); unhashable values compared as text.

    Plain number columns are sorted rather than hashed, which is faster and gives their quartiles: for them
    codes is None (`hash_codes` computes them) and the third item is the sorted non-missing values.
    """
    values = series.to_numpy()
    if values.dtype.kind in "iuf":
        ordered = np.sort(values[~np.isnan(values)] if values.dtype.kind == "f" else values)
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))[:len(ordered)]
        return None, ordered[starts], np.diff(np.append(starts, len(ordered))), ordered
    codes, uniques = hash_codes(series)
    return codes, uniques, np.bincount(codes[codes >= 0], minlength=len(uniques)), None


def hash_codes(series):
    try:
        codes, uniques = pd.factorize(series)
    except TypeError:
        codes, uniques = pd.factorize(series.astype(str).where(series.notna()))
    return np.asarray(codes, dtype=np.int64), uniques


def _text_value(value):
    text = value.isoformat() if isinstance(value, pd.Timestamp) else str(value)
    return text if len(text) <= TOP_CHARS else text[:TOP_CHARS - 1] + "…"


def _top(uniques, counts):
    """The most frequent values, ties in order of first appearance."""
    if len(counts) == 0:
        return []
    candidates = np.flatnonzero(counts >= np.partition(counts, -min(TOP_N, len(counts)))[-min(TOP_N, len(counts))])
    order = candidates[np.argsort(-counts[candidates], kind="stable")][:TOP_N]
    return [{"value": _text_value(uniques[i]), "count": int(counts[i])} for i in order]








NUMBERING_MIN = 10
NUMBERING_SHARE = 10  # rows per number at most a tenth of the numbers: entities over a few periods, not a cycle
CLOCK_TOKENS = {"second", "minute", "hour", "day", "week", "month", "quarter", "year", "period", "time", "date", "weekday",
                "dow", "doy", "hr", "min", "sec", "wk", "mo", "yr", "qtr"}


def _numbering(name, values, distinct, nonmissing, most):
    """Whole numbers counting entities out: every number from 0 or 1 to k (k >= NUMBERING_MIN) on the same number of
    rows, two or more and at most k / NUMBERING_SHARE (epil.csv's subject, four periods each), unless named as a
    unit of time (the host's numbering)."""
    if len(values) != nonmissing or distinct < NUMBERING_MIN or not np.all(np.mod(values, 1) == 0):
        return False
    low, high = float(values.min()), float(values.max())
    return (low in (0, 1) and high - low + 1 == distinct and 2 <= most and most * NUMBERING_SHARE <= distinct
            and most * distinct == nonmissing
            and not CLOCK_TOKENS.intersection(name_tokens(name)))


def _classify_numeric(name, series, values, distinct, nonmissing, most=0):
    """numeric, identifier, or category for codes (zip, store id) that are numbers only in form. A version (1.1, 2.0,
    15) names a release, whole or not: a category, or an identifier when nearly every row has its own. Numbers that
    count entities out, each on as many rows (_numbering), are an identifier unless named as time."""
    if _numbering(name, values, distinct, nonmissing, most):
        return "identifier"
    if "version" in name_tokens(name) and len(values):
        return "identifier" if nonmissing >= MIN_ID_ROWS and distinct >= 0.9 * nonmissing else "category"
    row_name = re.match(r"^(unnamed: \d+|index)$", str(name), re.I)
    if not (_id_hint(name) or row_name) or not len(values):
        return "numeric"
    integral = ptypes.is_integer_dtype(series.dtype) or bool(np.all(np.mod(values, 1) == 0))
    unique = distinct == nonmissing
    if integral and nonmissing >= MIN_ID_ROWS and ((_id_hint(name) and distinct >= 0.9 * nonmissing)
                                                   or (unique and row_name and values.max() - values.min() + 1 == nonmissing)):
        return "identifier"
    return "category" if integral and _code_like(name) else "numeric"


def _classify_text(name, codes, uniques, counts, nonmissing, rng):
    """(semantic, detail) of a text column from a sample of its values; detail is a numeric_text style or text stats."""
    positions = np.flatnonzero(codes >= 0)
    if len(positions) > SAMPLE_VALUES:
        positions = rng.choice(positions, SAMPLE_VALUES, replace=False)
    strings = [str(value) for value in np.asarray(uniques, dtype=object)[codes[positions]]]
    distinct = len(uniques)
    if _share(strings, UUID) >= PARSE_SHARE or _share(strings, EMAIL) >= PARSE_SHARE:
        return "identifier", None
    if _share(strings, DATE_LIKE) >= PARSE_SHARE and to_datetime(strings).notna().mean() >= PARSE_SHARE:
        return "datetime", None
    style = _number_text_style(strings, name)
    if nonmissing >= MIN_ID_ROWS and distinct >= 0.9 * nonmissing and _id_hint(name) and style in (None, "plain"):
        return "identifier", None
    if style:
        return "numeric_text", (style, _currencies_of(strings) if style == "currency" else [])
    if nonmissing >= MIN_ID_ROWS and distinct == nonmissing and _share(strings, ID_TOKEN) >= PARSE_SHARE:
        return "identifier", None
    lengths = np.fromiter((len(str(u)) for u in uniques), dtype=np.float64, count=distinct)
    mean_length = float(lengths @ counts) / nonmissing
    if (distinct > 0.5 * nonmissing and nonmissing >= MIN_ID_ROWS) or mean_length > 40:
        return "text", {"mean_length": mean_length, "max_length": int(lengths.max())}
    return "category", None




def column_profile(name, series, codes, uniques, counts, rng, ordered=None):
    """The profile of one column (ColumnProfileSchema) from `factorize(series)`."""
    rows, dtype = len(series), str(series.dtype)
    if isinstance(series.dtype, (pd.CategoricalDtype, pd.PeriodDtype)):
        series = series.astype(object)
    missing = rows - int(counts.sum())
    nonmissing, distinct = rows - missing, len(uniques)
    out = {"name": str(name), "dtype": dtype, "semantic": "category", "missing": missing,
           "missing_share": missing / rows if rows else 0.0, "distinct": distinct, "top": _top(uniques, counts),
           "numeric": None, "datetime": None, "numeric_text": None, "text": None, "notes": []}
    notes = out["notes"]
    if missing and nonmissing:
        notes.append(f"{_pct(out['missing_share'])} missing")
    numeric_dtype, values = ptypes.is_numeric_dtype(series.dtype) and not ptypes.is_bool_dtype(series.dtype), None
    if ptypes.is_timedelta64_dtype(series.dtype):
        series, numeric_dtype = series.dt.total_seconds(), True
        notes.append("durations: statistics in seconds")
    if numeric_dtype:
        values = _floats(series) if ordered is None else ordered.astype(np.float64, copy=False)
        values = values[np.isfinite(values)]
        if len(values) < nonmissing:
            out["infinite"] = nonmissing - len(values)
            notes.append(f"{out['infinite']:,} infinite values left out of statistics")
    if nonmissing == 0:
        out["semantic"] = "empty"
        notes.append("every value is missing")
    elif distinct == 1:
        out["semantic"] = "constant"
        notes.append(f"constant: every value is '{_text_value(uniques[0])}'")
    elif _is_boolean(series, uniques):
        out["semantic"] = "boolean"
    elif ptypes.is_datetime64_any_dtype(series.dtype):
        out["semantic"], out["datetime"] = "datetime", _date_stats(uniques, 1.0)
    elif numeric_dtype:
        out["semantic"] = _classify_numeric(name, series, values, distinct, nonmissing, int(counts.max()))
    else:
        out["semantic"], detail = _classify_text(name, codes, uniques, counts, nonmissing, rng)
        _text_details(out, detail, codes, uniques, counts, nonmissing)
    if numeric_dtype and out["semantic"] in ("numeric", "constant", "boolean"):
        out["numeric"] = number_stats(values, is_sorted=ordered is not None)
    if out["semantic"] == "identifier":
        notes.append("identifier: not charted")
    if out["semantic"] == "category" and not numeric_dtype and not ptypes.is_bool_dtype(series.dtype):
        _add_levels(out, uniques)
    stats = out["numeric"] or (out["numeric_text"] or {}).get("stats")
    if out["semantic"] in ("numeric", "numeric_text") and stats and stats["outliers"]:
        notes.append(f"{stats['outliers']:,} outliers beyond 1.5 IQR")
    return out


LEVELS_MIN, LEVELS_MAX, LEVEL_CHARS = 3, 24, 60


def _add_levels(out, uniques):
    """A text column of categories' every value, when it has 3 to 24 of them, none long, in code-point
    order: what the host reads a scale's order from (Low < Medium < High, 18-24 < 25-34)."""
    if not LEVELS_MIN <= len(uniques) <= LEVELS_MAX:
        return
    levels = [str(u) for u in uniques]
    if all(len(text) <= LEVEL_CHARS for text in levels):
        out["levels"] = sorted(levels)


def _mark_node_codes(df, positions, profiles):
    """The number columns that pair as an edge list's node codes (source and target ids) made categories:
    counted, never averaged (opsmind_semantic.node_codes)."""
    ends = []
    for position, out in zip(positions, profiles):
        stats, series = out["numeric"], df.iloc[:, position]
        # Only a link's name can pair: no other column is read a second time.
        if out["semantic"] != "numeric" or stats is None or not may_link(out["name"]):
            ends.append(None)
            continue
        values = _floats(series)
        values = values[np.isfinite(values)]
        integral = ptypes.is_integer_dtype(series.dtype) or bool(np.all(np.mod(values, 1) == 0))
        ends.append({"name": out["name"], "integral": integral, "min": stats["min"], "max": stats["max"],
                     "distinct": out["distinct"]})
    for i, (source, target) in node_columns(ends).items():
        out = profiles[i]
        out["semantic"], out["numeric"] = "category", None
        out["notes"] = [n for n in out["notes"] if not n.endswith(" outliers beyond 1.5 IQR")]
        out["notes"].append(f"node codes of the links {source} → {target}: counted, not averaged")


def _text_details(out, detail, codes, uniques, counts, nonmissing):
    """Parsed dates or numbers of a text column: exact, from its unique values weighted by their counts."""
    if out["semantic"] == "text":
        out["text"] = detail
    elif out["semantic"] == "datetime":
        parsed = to_datetime([str(u) for u in uniques])
        unparsed = int(counts[parsed.isna()].sum())
        out["datetime"] = _date_stats(parsed, 1 - unparsed / nonmissing)
        if not unparsed and all(_READ_AS_DATES.match(str(u)) for u in uniques):
            out["dtype"] = "datetime64[ns]"  # dates as DuckDB's reader types them: nothing to say
        else:
            out["notes"] += ["dates stored as text"] + ([f"{unparsed:,} values do not parse as dates"] if unparsed else [])
        out["semantic"] = "datetime" if out["datetime"] else "category"
    elif out["semantic"] == "numeric_text":
        parsed = parse_number_text(np.asarray(uniques, dtype=object))[codes[codes >= 0]]
        values = parsed[np.isfinite(parsed)]
        style, currencies = detail
        out["numeric_text"] = {"style": style, "parse_share": len(values) / nonmissing, "stats": number_stats(values)}
        if len(currencies) == 1:
            out["numeric_text"]["symbol"] = currencies[0]
        out["notes"].append(f"numbers stored as text ({style})")
        if len(currencies) > 1:
            out["notes"].append(f"in {len(currencies)} currencies ({', '.join(currencies)}): sums and means mix them")
        if len(values) < nonmissing:
            out["notes"].append(f"{nonmissing - len(values):,} values are not numbers")


def _compress(key):
    codes, uniques = pd.factorize(key)
    return codes.astype(np.int64), len(uniques)


def duplicate_rows(df, code_list):
    """Rows equal to an earlier row (missing equals missing). `code_list` holds (position, codes or None, distinct)
    of the detailed columns; only rows already equal on those are compared on the rest."""
    rows, key, size = len(df), np.zeros(len(df), dtype=np.int64), 1
    if rows < 2 or not code_list or any(distinct == rows for _, _, distinct in code_list):
        return 0  # a column of all-distinct values: no two rows are equal
    for position, codes, distinct in code_list:
        codes = hash_codes(df.iloc[:, position])[0] if codes is None else codes
        if size * (distinct + 1) >= 2 ** 62:
            key, size = _compress(key)
        key, size = key * (distinct + 1) + (codes + 1), size * (distinct + 1)
    key, size = _compress(key)
    if df.shape[1] == len(code_list) or size == rows:
        return rows - size
    candidates = df.iloc[np.flatnonzero(np.bincount(key)[key] > 1)]
    try:
        return int(candidates.duplicated().sum())
    except TypeError:  # unhashable cells (lists, dicts)
        return int(candidates.astype(str).duplicated().sum())


def correlations(df, positions, names):
    """Pearson r between the numeric columns at `positions`: |r| ≥ 0.3, strongest first, at most 10."""
    positions = positions[:CORR_COLUMNS]
    if len(positions) < 2 or len(df) < 3:
        return []
    rows = np.random.RandomState(0).choice(len(df), CORR_ROWS, replace=False) if len(df) > CORR_ROWS else slice(None)
    values = np.column_stack([_floats(df.iloc[:, p])[rows] for p in positions])
    values[~np.isfinite(values)] = np.nan
    with np.errstate(all="ignore"):
        missing = np.isnan(values).any()
        matrix = pd.DataFrame(values).corr(min_periods=3).to_numpy() if missing else np.corrcoef(values, rowvar=False)
    first, second = np.triu_indices(len(positions), 1)
    r = np.clip(matrix[first, second], -1, 1)
    keep = np.flatnonzero(np.isfinite(r) & (np.abs(r) >= CORR_MIN))
    keep = keep[np.argsort(-np.abs(r[keep]), kind="stable")][:CORR_LIMIT]
    return [{"a": names[positions[first[k]]], "b": names[positions[second[k]]], "r": round(float(r[k]), 3)} for k in keep]


def _warnings(result):
    out, rows, columns = [], result["rows"], result["column_profiles"]
    n = result["duplicate_rows"]
    if rows == 0:
        out.append("the dataset has no rows")
    elif n:
        out.append(f"{n:,} duplicate row{'s' if n != 1 else ''} ({_pct(n / rows)} of rows)")
    groups = [("empty column{s} (every value missing)", lambda c: c["semantic"] == "empty"),
              ("column{s} more than 50% missing", lambda c: c["semantic"] != "empty" and c["missing_share"] > 0.5),
              ("constant column{s}", lambda c: c["semantic"] == "constant")]
    for label, test in groups:
        group = [c["name"] for c in columns if test(c)]
        if group and rows:
            out.append(f"{len(group)} {label.format(s='s' if len(group) != 1 else '')}: {_names(group)}")
    for label, semantic in (("numbers stored as text in", "numeric_text"), ("dates stored as text in", "datetime")):
        group = [c["name"] for c in columns if c["semantic"] == semantic and c["dtype"] == "object"]
        out += [f"{label}: {_names(group)}"] if group else []
    dropped = [f"{c['name']} ({m.group(1)})" for c in columns if c["semantic"] == "numeric_text"
               for m in [next(filter(None, (_NOT_NUMBERS.match(n) for n in c["notes"])), None)] if m]
    out += [f"values that are not numbers, left out of the numbers of: {_names(dropped)}"] if dropped else []
    mixed = [f"{c['name']} ({m.group(1)})" for c in columns
             for m in [next(filter(None, (_MIXED.match(n) for n in c["notes"])), None)] if m]
    out += [f"numbers in several currencies in: {_names(mixed)}; their sums and means mix them"] if mixed else []
    later = future_dates(columns)
    out += [later] if later else []
    if result["omitted_columns"]["count"]:
        out.append(_detail_warning(result))
    return out


_MIXED = re.compile(r"^in \d+ currencies \(([^)]*)\)")
_NOT_NUMBERS = re.compile(r"^([\d,]+) values are not numbers$")


def future_dates(columns, today=None):
    """The date columns whose latest value is after today (UTC, an ISO date): a schedule or a forecast, or a year
    mistyped or read from two digits as 20xx (movies.json's release dates run to 2046); None when there are none."""
    today = today or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    later = [f"{c['name']} (the latest {c['datetime']['max'][:10]})" for c in columns
             if c["datetime"] and c["datetime"]["max"][:10] > today]
    return f"dates after today in: {_names(later)}" if later else None


def _is_number_dtype(dtype):
    """Whether a dtype is profiled as numbers: ints, floats, complex, durations (not booleans)."""
    return getattr(dtype, "kind", "O") in "iufcm"


def detailed_positions(df):
    """The columns profiled in detail: every one of a frame of DETAIL_LIMIT columns or fewer; of a wider one,
    every column that holds no numbers (the categories, dates and flags a chart is split or ordered by; an ML
    file's label, often last), then the first number columns, up to DETAIL_LIMIT in all, in the frame's order."""
    if df.shape[1] <= DETAIL_LIMIT:
        return list(range(df.shape[1]))
    numbers = [_is_number_dtype(t) for t in df.dtypes]
    others = [i for i, n in enumerate(numbers) if not n][:DETAIL_LIMIT]
    return sorted(others + [i for i, n in enumerate(numbers) if n][:DETAIL_LIMIT - len(others)])


# ISO 8601 dates, with a time of day but no zone: DuckDB's reader types them as dates (DATE,
# TIMESTAMP), so the DuckDB engine's profile says nothing of them; nor does this one, though
# read_csv leaves them as text (its parse_dates would not).
# Dates written with numbers alone (ISO, 12/31/2024, 31.12.2024, 2024/12/31), with or without a 24-hour time: the
# DuckDB engine's reader types them as dates (its sniffer, or its day/month settling) and says nothing of them, so
# neither does this profile; a month's name (Jan 5, 2024) or a 12-hour clock is text to both, and said so.
_TIME = r"(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"
_READ_AS_DATES = re.compile(r"^(?:\d{4}([-/.])\d{1,2}\1\d{1,2}|\d{1,2}([-/.])\d{1,2}\2\d{2}(?:\d{2})?)" + _TIME + "$")
_NUMBER_DTYPE = re.compile(r"^(u?int|U?Int|float|Float|complex|timedelta)")


def _detail_warning(result):
    """Which columns a wide file's profile details (detailed_positions), said from the profile alone."""
    detailed, total = result["column_profiles"], result["columns"]
    numbers = sum(1 for c in detailed if _NUMBER_DTYPE.match(c["dtype"]))
    others = len(detailed) - numbers
    left = result["omitted_columns"]["by_dtype"]
    left_others = sum(n for dtype, n in left.items() if not _NUMBER_DTYPE.match(dtype))
    head = f"only {len(detailed):,} of {total:,} columns are profiled in detail: "
    if left_others:
        return head + f"the first {others:,} of the {others + left_others:,} columns that hold no numbers"
    every = "every column that holds no numbers and " if others else ""
    return head + f"{every}the first {numbers:,} of the {numbers + result['omitted_columns']['count']:,} number columns"


def profile(df, info, name=None):
    """The profile of `df` (read with opsmind_data.read_dataset's `info`) as a JSON-ready dict (DataProfileSchema)."""
    info, rng, names = info or {}, np.random.default_rng(0), [str(c) for c in df.columns]
    code_list, profiles = [], []
    positions = detailed_positions(df)
    for position in positions:
        series = df.iloc[:, position]
        codes, uniques, counts, ordered = factorize(series)
        code_list.append((position, codes, len(uniques)))
        profiles.append(column_profile(names[position], series, codes, uniques, counts, rng, ordered))
    _mark_node_codes(df, positions, profiles)
    numeric_positions = [p for p, c in zip(positions, profiles) if c["semantic"] == "numeric" and c["numeric"] is not None]
    kept = set(positions)
    omitted = df.dtypes.iloc[[i for i in range(df.shape[1]) if i not in kept]].astype(str).value_counts()
    result = {"rows": int(df.shape[0]), "columns": int(df.shape[1]), "duplicate_rows": duplicate_rows(df, code_list),
              "source": {"name": str(name or info.get("name") or "data"), "format": str(info.get("format") or "unknown"),
                         "encoding": info.get("encoding"), "delimiter": info.get("delimiter")},
              "column_profiles": profiles,
              "omitted_columns": {"count": df.shape[1] - len(positions), "by_dtype": {str(k): int(v) for k, v in omitted.items()}},
              "correlations": correlations(df, numeric_positions, names), "warnings": []}
    result["warnings"] = _warnings(result)
    return result


_PRECOMPUTED = {}


def precompute(df, info, name=None):
    """Profile `df` now and keep the result: the warm worker does this before forking, so a run's
    get_data_info reads it instead of touching every object again in a copy-on-write child."""
    _PRECOMPUTED[(id(df), name)] = (df.shape, list(df.columns), profile(df, info, name))


def write_profile(df, info, path, name=None):
    """Write profile(df, info, name) to `path` as strict JSON (no NaN or infinity); return the dict.
    Uses the precomputed profile when `df` is the very frame it was computed for, unchanged in shape and columns."""
    kept = _PRECOMPUTED.get((id(df), name))
    result = kept[2] if kept and kept[0] == df.shape and kept[1] == list(df.columns) else profile(df, info, name)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(result, handle, ensure_ascii=False, allow_nan=False)
    return result
