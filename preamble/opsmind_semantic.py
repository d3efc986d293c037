"""Semantic detection for the profile: dates, numbers stored as text, booleans, identifier-like names.

Split from opsmind_profile.py; the profile module re-exports these names.
"""
import re
import warnings

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

PANDAS_MAJOR = int(pd.__version__.split(".")[0])
PARSE_SHARE = 0.9

BOOLEAN_PAIRS = [{"yes", "no"}, {"true", "false"}, {"y", "n"}, {"t", "f"}, {"0", "1"}, {"on", "off"}]
CODE_TOKENS = {"id", "identifier", "uuid", "guid", "zip", "zipcode", "postcode", "postal", "phone", "fips", "sku", "isbn"}
KEY_LAST_TOKENS = {"key", "code", "number", "no", "num", "nr"}
UUID = re.compile(r"^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$", re.I)
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.I)
ID_TOKEN = re.compile(r"^(?=.*\d)[\w\-./#:+]{1,40}$")  # "ORD-00001": no spaces, at least one digit
CODES = "USD|EUR|GBP|JPY|CHF|CAD|AUD|INR|CNY|SEK|NOK|DKK"
NUMBER_TEXT = re.compile(
    r"^\s*(?P<neg>[-+\u2212(])?\s*(?P<cur>[$€£¥₹]|(?:" + CODES + r")\s?)?\s*(?P<neg2>[-(])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)"
    r"\s*(?P<pct>%)?\s*(?P<cur2>[$€£¥₹]|(?:" + CODES + r"))?\s*\)?\s*$", re.I)
FAST_NUMBER = str.maketrans({**{c: None for c in "$€£¥₹,% "}, "(": "-", ")": None, "\u2212": "-"})
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
DATE_LIKE = re.compile(  # separators or month names around digits, or a quarter (1974Q1); never a bare 2023
    r"^\s*(?:[a-z]{3,9},?\s+)?(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?!\d)|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}(?!\d)"
    r"|\d{1,2}:\d{2}|\d{4}-?q[1-4](?!\d)|" + MONTH + r"[\s,-]+\d|\d{1,2}[\s/-]+" + MONTH + r")", re.I)
DAY = 86400.0
FREQUENCIES = [("min", 54, 66), ("H", 3240, 3960), ("D", 0.9 * DAY, 1.1 * DAY), ("W", 6.5 * DAY, 7.5 * DAY),
               ("M", 27.5 * DAY, 31.5 * DAY), ("Q", 88 * DAY, 93 * DAY), ("Y", 360 * DAY, 370 * DAY)]


def name_tokens(name):
    """Lower-case words of a column name: "CustomerID" and "customer_id" both give [customer, id]."""
    return [t for t in re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(name)).lower()) if t]


def _code_like(name):
    return bool(CODE_TOKENS.intersection(name_tokens(name)))


def _id_hint(name):
    return _code_like(name) or name_tokens(name)[-1:] in [[t] for t in KEY_LAST_TOKENS]


TIME_OF_DAY = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*(?:([ap])\.?m\.?)?\s*$", re.I)


def _on_one_day(text):
    """A time of day as ISO text on 1900-01-01 ("6:05 PM" → "1900-01-01 18:05:00"), None when it is none."""
    match = TIME_OF_DAY.match(text) if isinstance(text, str) else None
    if not match:
        return None
    hour, minute, half = int(match[1]), match[2], (match[4] or "").lower()
    whole, _, fraction = (match[3] or "0").partition(".")
    if half and not 1 <= hour <= 12:
        return None
    if half:
        hour = hour % 12 + (12 if half == "p" else 0)
    return f"1900-01-01 {hour:02d}:{minute}:{int(whole):02d}" + (f".{fraction}" if fraction else "")


def on_one_day(values):
    """Times of day alone ("06:00", "6:05 PM") as ISO text on one day, 1900-01-01, as DuckDB reads a TIME:
    pandas would put them on the day it runs (and read "1:00 PM" as 01:00 once it infers a format), and the
    findings would name today. Unless every value is a time of day, the values are returned as they are."""
    first = _first_text(values)
    if first is None or _on_one_day(first) is None:
        return values
    series = pd.Series(values, dtype=object)
    times = [None if pd.isna(v) else _on_one_day(v) for v in series]
    if sum(t is not None for t in times) < int(series.notna().sum()):
        return values
    return np.array(times, dtype=object)


HALF_DAY = re.compile(r"\d\s*[ap]\.?m\.?\s*$", re.I)


def _first_text(values):
    """The first value present when it is text (None for dates, numbers, or nothing), without copying the values."""
    if isinstance(values, pd.DatetimeIndex) or ptypes.is_datetime64_any_dtype(getattr(values, "dtype", None)):
        return None
    for value in values:
        if isinstance(value, str):
            return value
        if not pd.isna(value):
            return None
    return None


def _twelve_hour(values):
    """Whether the first value present is text on a 12-hour clock ("8:15:00 PM")."""
    first = _first_text(values)
    return first is not None and bool(HALF_DAY.search(first))


def to_datetime(values):
    """pd.to_datetime with errors="coerce", quietly, with format inference on pandas 1.x; mixed offsets → UTC;
    times of day alone on 1900-01-01 (on_one_day)."""
    values = on_one_day(values)
    # pandas 1.x infers "%m/%d/%Y %H:%M:%S %p" from "01/03/2024 08:15:00 PM" and reads every PM as AM: a
    # 12-hour clock is parsed value by value (dateutil), as the program's own pd.to_datetime parses it.
    extra = {"infer_datetime_format": True} if PANDAS_MAJOR < 2 and not _twelve_hour(values) else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            parsed = pd.to_datetime(values, errors="coerce", **extra)
            if not ptypes.is_datetime64_any_dtype(getattr(parsed, "dtype", None)):
                parsed = pd.to_datetime(values, errors="coerce", utc=True, **extra)
        except (ValueError, TypeError, OverflowError):
            parsed = pd.to_datetime(values, errors="coerce", utc=True)
    return pd.DatetimeIndex(parsed)


def infer_frequency(stamps):
    """pandas alias of the typical (median) spacing of the sorted unique timestamps; None when irregular."""
    index = pd.DatetimeIndex(stamps)
    values = np.unique(index.asi8[~index.isna()])
    if len(values) < 3:
        return None
    gaps = np.diff(values) / 1e9
    median = float(np.median(gaps))
    for alias, low, high in FREQUENCIES:
        if low <= median <= high:
            return alias if np.mean((gaps >= low) & (gaps <= high)) >= 0.5 else None
    return None


def _share(strings, pattern):
    return sum(1 for s in strings if pattern.match(s)) / len(strings) if strings else 0.0


# A dash standing in for a number ("-", "–", "--"): Excel's accounting format writes zero so, and reports write one
# for none. Not counted for or against a column of numbers; it parses as none.
PLACEHOLDER = re.compile(r"^\s*[-–—]{1,2}\s*$")


def _number_text_style(strings, name):
    """The numeric_text style of sampled strings, or None when they are not numbers stored as text."""
    strings = [s for s in strings if not PLACEHOLDER.match(s)]
    found = [m for m in map(NUMBER_TEXT.match, strings) if m]
    if not strings or len(found) < PARSE_SHARE * len(strings):
        return None
    if sum(1 for m in found if m["cur"] or m["cur2"]) >= len(found) / 2:
        return "currency"
    if sum(1 for m in found if m["pct"]) >= len(found) / 2:
        return "percent"
    if any("," in m["num"] for m in found):
        return "thousands"
    if _code_like(name) or any(re.match(r"^0\d", m["num"]) for m in found):
        return None  # zip codes, phone numbers, zero-padded codes: labels, not numbers
    return "plain"


def _currencies_of(strings):
    """The currencies sampled numbers are written in ("$", "€", or upper-case codes such as "EUR"), in order of
    appearance, a code and its sign one currency (the first written kept). One is the column's currency; several
    mean its sums and means add dollars to euros."""
    seen = {}
    for m in map(NUMBER_TEXT.match, strings):
        sign = ((m["cur"] or m["cur2"] or "") if m else "").strip().upper()
        if sign:
            seen.setdefault(_SAME_CURRENCY.get(sign, sign), sign)
    return list(seen.values())


# Codes written for the one currency a sign stands for ("12 EUR" beside "€5" is one currency).
_SAME_CURRENCY = {"EUR": "€", "GBP": "£", "INR": "₹", "USD": "$"}


def parse_number_text(strings):
    """Floats from numbers stored as text ("$1,234.50", "12.5%" → 12.5, "(300)" → -300); NaN where one does not parse.

    Fast path: drop currency signs, commas, spaces and percent signs and let pandas parse what is left;
    only what that misses (currency codes, say) goes through the full pattern.
    """
    text = pd.Series(strings, dtype=object).astype(str)
    values = pd.to_numeric(text.str.translate(FAST_NUMBER), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    missed = np.flatnonzero(np.isnan(values))
    if len(missed):
        parts = text.iloc[missed].str.extract(NUMBER_TEXT)
        numbers = pd.to_numeric(parts["num"].str.replace(",", "", regex=False), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        negative = (parts["neg"].isin(["-", "\u2212", "("]) | parts["neg2"].isin(["-", "("])).to_numpy()
        values[missed] = np.where(negative, -numbers, numbers)
    return values


def _is_boolean(series, uniques):
    """bool dtype, 0/1 numbers, or two values such as yes/no in any letter case."""
    if ptypes.is_bool_dtype(series.dtype) or len(uniques) > 6:
        return ptypes.is_bool_dtype(series.dtype)
    if ptypes.is_numeric_dtype(series.dtype):
        return len(uniques) == 2 and all(isinstance(u, (int, float, np.number)) and u in (0, 1) for u in uniques)
    return {str(u).strip().lower() for u in uniques} in BOOLEAN_PAIRS


# Pairs of words that name the two ends of a link: a row of an edge list joins a source to a target, a
# sender to a receiver, a parent to its child. From/to also names a range of a measure (from_km, to_km),
# so its codes must be dense too (node_codes).
LINK_ENDS = [("source", "target"), ("src", "dst"), ("src", "dest"), ("sender", "receiver"),
             ("sender", "recipient"), ("parent", "child"), ("origin", "destination"), ("from", "to")]


LINK_WORDS = {word for pair in LINK_ENDS for word in pair}


def may_link(name):
    """Whether a name holds a word of a link's end (source, to…): only then is its wholeness looked at."""
    return bool(LINK_WORDS.intersection(name_tokens(name)))


def link_ends(a, b):
    """((source, target), (word, word)) when two column names differ in one word only and those words are a
    LINK_ENDS pair ("source"/"target", "from_node"/"to_node"), else None."""
    first, second = name_tokens(a), name_tokens(b)
    if len(first) != len(second):
        return None
    differ = [i for i, token in enumerate(first) if token != second[i]]
    if len(differ) != 1:
        return None
    words = (first[differ[0]], second[differ[0]])
    pair = next((p for p in LINK_ENDS if words in (p, p[::-1])), None)
    if pair is None:
        return None
    return ((a, b) if words[0] == pair[0] else (b, a)), pair


def node_codes(a, b):
    """The link's ends when two number columns (dicts of name, integral, min, max, distinct) are the node codes
    of an edge list: named as a link's two ends, both whole numbers from 0 up, drawn from one range (each covers
    at least half of the span of both) and, for from/to, dense (distinct values at least half that span)."""
    link = link_ends(a["name"], b["name"])
    if link is None or not (a["integral"] and b["integral"]) or not (a["min"] >= 0 and b["min"] >= 0):
        return None
    span = max(a["max"], b["max"]) - min(a["min"], b["min"])
    shared = min(a["max"], b["max"]) - max(a["min"], b["min"])
    if not span > 0 or shared < 0.5 * span:
        return None
    loose = link[1][0] == "from"
    return link[0] if not loose or max(a["distinct"], b["distinct"]) >= 0.5 * (span + 1) else None


def node_columns(ends):
    """{position: (source, target)} of the columns (dicts for node_codes, or None) that pair as node codes."""
    found = {}
    for i, a in enumerate(ends):
        for j in range(i + 1, len(ends)):
            b = ends[j]
            if a is None or b is None or i in found or j in found:
                continue
            link = node_codes(a, b)
            if link:
                found[i] = found[j] = link
    return found


# Quotient columns (agent/semantics-quotients.ts; profile-quotients.ts measures the same in SQL).
QUOTIENT_DECIMALS = 6


def _decimals(q):
    """The fewest decimals (0 to 6) that write every value of q; None when none do."""
    q = q.dropna()
    for d in range(QUOTIENT_DECIMALS + 1):
        s = q * float(10 ** d)
        if ((s - s.round()).abs() <= 1e-9 * s.abs().clip(lower=1.0)).all():
            return d
    return None


def _quotient_counts(Q, N, D, scale, decimals):
    """The rows with all three and a denominator other than 0, and those where Q = scale × N ÷ D."""
    rows = Q.notna() & N.notna() & D.notna() & (D != 0)
    exact = float(scale) * N / D
    half = 0.0 if decimals is None else 0.5 * 10.0 ** -decimals
    with np.errstate(all="ignore"):
        close = (Q - exact).abs() <= half + 1e-9 + 0.001 * exact.abs()
    return int(rows.sum()), int((rows & close).sum())


def quotient_facts(df, candidates, texts, screen):
    """Each candidate [q, n, d, scale] that holds on 90% of the first `screen` rows and 99% of all
    (at least 10 rows), with the decimals q is written with (read on those first rows)."""
    columns = {c for cand in candidates for c in cand[:3]}
    values = {
        c: pd.Series(parse_number_text(df[c].to_numpy(dtype=object)), index=df.index) if c in texts
        else pd.to_numeric(df[c], errors="coerce").astype(float)
        for c in columns
    }
    head = {c: v.iloc[:screen] for c, v in values.items()}
    decimals = {q: _decimals(head[q]) for q, _, _, _ in candidates}
    found = []
    for q, n, d, scale in candidates:
        rows, hits = _quotient_counts(head[q], head[n], head[d], scale, decimals[q])
        if rows == 0 or hits < 0.9 * rows:
            continue
        rows, hits = _quotient_counts(values[q], values[n], values[d], scale, decimals[q])
        if rows >= 10 and hits >= 0.99 * rows:
            found.append({"column": q, "numerator": n, "denominator": d, "scale": scale, "decimals": decimals[q]})
    return found


def _balance_order(df, b, a, out, share):
    """The order in which `b` steps by the flow `a` (less `out`, a blank as 0, on the rows with
    either) on `share` of the rows that have them all (10 or more): from the row before
    ("ascending"), to the row after ("descending"), or None."""
    def number(c):
        return pd.to_numeric(df[c], errors="coerce").astype(float).reset_index(drop=True)

    B, A = number(b), number(a)
    present = A.notna() if out is None else A.notna() | number(out).notna()
    flow = A if out is None else A.fillna(0) - number(out).fillna(0)
    for order, other in (("ascending", B.shift(1)), ("descending", B.shift(-1))):
        # A balance before of 0 is no evidence: a column of zeros steps by its own value from one.
        rows = B.notna() & other.notna() & (other != 0) & present
        with np.errstate(all="ignore"):
            close = ((B - other) - flow).abs() <= 1e-6 * (B.abs() + flow.abs()) + 1e-6
        n, h = int(rows.sum()), int((rows & close).sum())
        if n >= 10 and h >= share * n:
            return order
    return None


def _section(df, columns):
    """The first of `columns` whose values each come in one run in row order (a missing value one more
    value), or None: a report of several accounts, each account's balance its own (profile-balances.ts
    sectionOf)."""
    for c in columns:
        key = df[c].astype(object).where(df[c].notna(), "\0missing").reset_index(drop=True)
        runs = int((key != key.shift()).sum())
        if runs == key.nunique():
            return c
    return None


def balance_facts(df, pairs, screen=None, sections=()):
    """Running balances (agent/semantics-balances.ts; profile-balances.ts in SQL): each [balance, flow]
    whose step from the row before (ascending) or to the row after (descending) is the flow on 99% of
    the rows that have all three (10 or more); each [balance, in, out] alike, the flow in less out,
    once it holds on 90% of the first `screen` rows."""
    found = []
    for b, a, *out in pairs:
        debit = out[0] if out else None
        if debit is not None and screen and _balance_order(df.head(screen), b, a, debit, 0.9) is None:
            continue
        order = _balance_order(df, b, a, debit, 0.99)
        if order is not None:
            found.append({"balance": b, "amount": a, "order": order, **({"debit": debit} if debit else {})})
    by = _section(df, sections) if found else None
    return [{**f, "by": by} for f in found] if by is not None else found
