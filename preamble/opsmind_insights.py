"""Number-backed sentences about the exact frame a chart shows.

Every function returns a list of {"text", "kind", "numbers"}; the numbers are
the finite values the sentence states, so a reader can check them. Functions
are deterministic and return [] (never raise) on empty, single-row, all-equal
or unusable data. Correlation sentences describe association, never cause.
"""
import functools
import json
import math
import re

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from opsmind_profile import infer_frequency, number_stats, sorted_quantiles, to_datetime

OTHER = re.compile(r"^\(?\s*(other|others|all other|all others|rest|remaining)\b", re.I)
PERIODS_PER_YEAR = {"M": 12, "Q": 4}


def never_raises(function):
    """Insights are extras: unusable input gives [] rather than an exception."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except (ValueError, TypeError, KeyError, IndexError, ArithmeticError, AttributeError):
            return []
    return wrapper


# Digits past the shown ones that fixed() reads before rounding.
_GUARD = 9


def fixed(x, decimals, grouping=False):
    """f"{x:.{decimals}f}" (f"{x:,.{decimals}f}" with grouping), rounded half to even from its first
    decimals + _GUARD digits, not from its exact binary value: a double within float noise of a
    decimal tie is the tie (2.675, stored as 2.67499999999999982…, is "2.68", as written), so a
    statistic two engines compute a last bit apart reads the same (displayFixed in the host)."""
    x = float(x)
    if not math.isfinite(x):
        return f"{x:.{decimals}f}"
    wide = f"{x:.{decimals + _GUARD}f}"
    negative = wide.startswith("-")
    whole, _, fraction = wide.lstrip("-").partition(".")
    scaled = int(whole + fraction[:decimals])
    rest, half = fraction[decimals:], "5" + "0" * (_GUARD - 1)
    if rest > half or (rest == half and scaled % 2):
        scaled += 1
    text = str(scaled).rjust(decimals + 1, "0")
    head, tail = text[:len(text) - decimals], text[len(text) - decimals:]
    return ("-" if negative else "") + (f"{int(head):,}" if grouping else head) + ("." + tail if decimals else "")


def fmt_number(x):
    """1,234,567 / 12.3 / 0.0123: thousands separators, about three significant digits below 1,000."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return f"{int(x):,}"
    if abs(x) >= 999.5:
        return fixed(x, 0, True)
    decimals = min(10, max(0, 2 - math.floor(math.log10(abs(x)))))
    text = fixed(x, decimals)
    shown = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if shown == "-0" else shown  # a value that rounds to nothing is 0, whatever its sign


def fmt_money(x, currency=None):
    """An amount of money as fmt_number writes it, with its currency: a sign before the number ("$1,234", "-€5.2"),
    a code after it ("1,234 EUR"); without one, the number alone."""
    text = fmt_number(x)
    if not currency:
        return text
    if len(currency) > 1:
        return f"{text} {currency}"
    return f"-{currency}{text[1:]}" if text.startswith("-") else f"{currency}{text}"


def fmt_year(x):
    """A calendar year, or a statistic of years: 1687, 1642.75 → "1643"."""
    return fixed(x, 0)


def fmt_pct(fraction):
    """A fraction as a percentage: 0.126 → "12.6%"."""
    value = fraction * 100
    return f"{fixed(value, 0, True)}%" if abs(value) >= 100 else f"{fixed(value, 1)}%"


def fmt_ratio(ratio):
    # Below 1.1 with two decimals: 69.1 against 67.2 is "1.03×", not a "1.0×" that reads as equal.
    if 1 <= ratio < 1.1:
        return f"{fixed(ratio, 2)}×"
    return f"{fixed(ratio, 1)}×" if ratio < 10 else f"{fixed(ratio, 0, True)}×"


def fmt_date(stamp, frequency=None):
    """A timestamp at the grain of its series: "2024", "Q4 2024", "Dec 2024", "Dec 5, 2024", "Dec 5, 2024 14:00"."""
    stamp = pd.Timestamp(stamp)
    if frequency == "Y":
        return str(stamp.year)
    if frequency == "Q":
        return f"Q{stamp.quarter} {stamp.year}"
    if frequency == "M":
        return stamp.strftime("%b %Y")
    day = f"{stamp.strftime('%b')} {stamp.day}, {stamp.year}"
    if frequency in ("H", "min") or (frequency is None and (stamp.hour or stamp.minute)):
        # A time of day alone is read on 1900-01-01 (no day of its own): said without it.
        if (stamp.year, stamp.month, stamp.day) == (1900, 1, 1):
            return stamp.strftime("%H:%M")
        return f"{day} {stamp.strftime('%H:%M')}"
    return day


def _capital(text):
    text = str(text)
    return text[:1].upper() + text[1:]


def _insight(text, kind, **numbers):
    safe = {}
    for key, value in numbers.items():
        if isinstance(value, (bool, np.bool_)) or value is None:
            continue
        value = value.item() if hasattr(value, "item") else value
        if isinstance(value, (int, float)) and math.isfinite(value):
            safe[key] = value
    return {"text": text, "kind": kind, "numbers": safe}


def numbers(values):
    """Float values (NaN where not a number); dates, durations and booleans are not measures, so all NaN."""
    series = values if isinstance(values, pd.Series) else pd.Series(values, dtype=None if len(values) else float)
    if ptypes.is_datetime64_any_dtype(series.dtype) or ptypes.is_timedelta64_dtype(series.dtype) or ptypes.is_bool_dtype(series.dtype):
        return np.full(len(series), np.nan)
    return pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)


def as_datetime(values):
    """A DatetimeIndex for datetime values, date-like strings or years (2023 or "2023"); None when most do not parse."""
    series = pd.Series(values).reset_index(drop=True)
    if isinstance(series.dtype, pd.PeriodDtype):
        return pd.DatetimeIndex(series.dt.to_timestamp())
    if ptypes.is_datetime64_any_dtype(series.dtype):
        return pd.DatetimeIndex(series)
    present = series.dropna()
    if present.empty or ptypes.is_bool_dtype(series.dtype):
        return None
    text = present.astype(str).str.replace(r"\.0$", "", regex=True)
    if text.str.fullmatch(r"\d{4}").all() and text.astype(int).between(1000, 2999).all():
        return pd.DatetimeIndex(pd.to_datetime(series.astype(str).str.replace(r"\.0$", "", regex=True), format="%Y", errors="coerce"))
    if ptypes.is_numeric_dtype(series.dtype):
        return None
    parsed = to_datetime(series.astype(object).where(series.notna(), None))
    return parsed if parsed[series.notna().to_numpy()].notna().mean() >= 0.9 else None


def _series_xy(frame, x, y):
    if frame is None or x not in frame.columns or y not in frame.columns or len(frame) == 0:
        return None
    stamps = as_datetime(frame[x])
    if stamps is None:
        return None
    values = numbers(frame[y])
    data = pd.DataFrame({"x": stamps, "y": values})
    data = data[data["x"].notna() & np.isfinite(data["y"])].sort_values("x", kind="stable").reset_index(drop=True)
    return None if data["x"].duplicated().any() else data


def _year_starts(stamps):
    """Whether every timestamp is at the start of a year (midnight, January 1)."""
    index = pd.DatetimeIndex(stamps)
    return bool(((index.month == 1) & (index.day == 1) & (index == index.normalize())).all())


def _gaps(frame, x, y):
    """The timestamps, sorted, of the periods without a value: gaps in the line."""
    stamps, values = as_datetime(frame[x]), numbers(frame[y])
    return sorted(pd.Timestamp(t) for t, v in zip(stamps, values) if pd.notna(t) and np.isnan(v))


# The label of a line of row counts: "The number of rows peaked at 61 in 1982", never "Count".
ROWS_LABEL = "the number of rows"


def _in_period(when, frequency):
    """A period as a sentence says it: on a day or an hour, in the week ending on its label (a Sunday, as pandas labels "W"), in a month or a year."""
    if re.fullmatch(r"\d{2}:\d{2}", when):
        return f"at {when}"
    if frequency in ("D", "H"):
        return f"on {when}"
    return f"in the week ending {when}" if frequency == "W" else f"in {when}"


def _gaps_insight(label, gaps, frequency):
    """The periods without a value, said as gaps (never zeros): listed up to three, else counted."""
    if not gaps:
        return []
    when = [fmt_date(t, frequency) for t in gaps]
    listed = (f"{len(when)} periods (the first {when[0]}, the last {when[-1]})" if len(when) > 3 else
              when[0] if len(when) == 1 else f"{', '.join(when[:-1])} and {when[-1]}")
    what = f"No rows in {listed}" if label in (ROWS_LABEL, "count") else f"{_capital(label)} has no value in {listed}"
    shown = "a gap there, not a zero" if len(gaps) == 1 else "gaps there, not zeros"
    return [_insight(f"{what}: the line has {shown}.", "gaps", gaps=len(gaps))]


def _fmt_level(value, how, money=None):
    """A value of a line as written: a share (how "share") in percent, else the number (in `money`, a currency)."""
    return f"{fmt_number(value)}%" if how == "share" else fmt_money(value, money)


def _fmt_difference(difference, how, money=None):
    """A difference of two of its values: percentage points for a share, else in the values' currency if any."""
    return f"{fmt_number(difference)} percentage points" if how == "share" else fmt_money(difference, money)


def _by_difference(how):
    """Whether a line's changes are said as differences: an interval scale, or a share in percent."""
    return how in ("interval", "share")


# Below this many values, a period's mean is said with how few it is of (as a ranking's group is).
_FEW_VALUES = 10


def _few_values(n, counts):
    """"from 1 value" for a point whose value is of fewer than _FEW_VALUES values on a line where some period
    holds that many or more and twice as many (Nov 1993's mean age, of one person, beside April 1992's of 36);
    else None (counts not known, every period small: a line of one row per day, or the point holds half the
    busiest's)."""
    if n is None or pd.isna(n) or counts is None or n >= _FEW_VALUES or not any(
            c is not None and not pd.isna(c) and c >= _FEW_VALUES and c >= 2 * n for c in counts):
        return None
    n = int(n)
    return f"from {n} value{'' if n == 1 else 's'}"


def _point_counts(data, counts):
    """Each point's count of values (None where not known): `counts` is a Series indexed by period."""
    if counts is None:
        return None
    known = {pd.Timestamp(k): int(v) for k, v in counts.items() if pd.notna(k)}
    return [known.get(pd.Timestamp(t)) for t in data["x"]]


@never_raises
def trend_insights(frame, x, y, label=None, how="sum", period=None, counts=None, money=None):
    """Change first→last, peak and trough, and year-over-year growth of the last full year (monthly or quarterly).
    `how` says what each period holds: "sum" (totals, compared by summing a year), "stock" (totals of a
    standing number, compared by averaging a year: summing counts the same things again), "mean" (levels,
    averaged), "interval" (levels whose zero is not "none", a temperature in °C: averaged, said as differences)
    or "share" (a share in percent: averaged, said in percentage points). `counts`, when given (a Series by
    period), is how many values each period's mean is of: an end or an extreme of few says so (_few_values).
    `money`: the currency the values are in ("$", "EUR"), written with each (fmt_money)."""
    data = _series_xy(frame, x, y)
    if data is None or len(data) < 3 or data["y"].nunique() < 2:
        return []
    # `period`: the series' frequency ("M", "Q", "Y", ...) when the caller knows it, else inferred.
    label, frequency = str(label or y), period or infer_frequency(data["x"])
    if frequency is None and _year_starts(data["x"]):
        frequency = "Y"  # periods years apart (a census), said as years
    when = [fmt_date(t, frequency) for t in data["x"]]
    first, last, out = float(data["y"].iloc[0]), float(data["y"].iloc[-1]), []
    yearly = _year_over_year(data, label, frequency, how, money)
    # With whole years to compare, first-to-last compares different seasons (January against December):
    # the year-over-year sentence says the same thing honestly, so it replaces it.
    ns = _point_counts(data, counts)
    if ns is not None:
        data = data.assign(n=ns)
    few = [None] * len(data) if ns is None else [_few_values(n, ns) for n in ns]
    if not yearly:
        out.extend(_change(label, when, first, last, how, _ends_note(data, when, ns), money))
    values = data["y"].to_numpy()
    for kind, i, words in (("peak", int(values.argmax()), "peaked at"), ("trough", int(values.argmin()), "was lowest at")):
        latest = ", the latest period" if i == len(values) - 1 else ""
        fewer = f", {few[i]}" if few[i] else ""
        out.append(_insight(f"{_capital(label)} {words} {_fmt_level(values[i], how, money)} {_in_period(when[i], frequency)}{latest}{fewer}.",
                            kind, **{kind: values[i]}))
    # The yearly comparison, when there is one, matters most; the gaps come last.
    return yearly + out + _gaps_insight(label, _gaps(frame, x, y), frequency)


def _series_lines(frame, x, series, y, folded=True, counts=None):
    """Each named line's points with a date and a finite value, in time order (three or more, as a single line needs);
    a folded catch-all ("Other") is no line, unless nothing was folded (`folded` False: several measures' lines).
    Given `counts` (a Series by period and series value), each point's count of values is in column "n"."""
    keys, lines = frame[series], {}
    known = None if counts is None else {(pd.Timestamp(t), k): int(c) for (t, k), c in counts.items() if pd.notna(t)}
    for key in pd.unique(keys[keys.notna()]):
        name = _group_name(key, series)
        data = None if folded and _is_other(name) else _series_xy(frame[keys == key], x, y)
        if data is not None and len(data) >= 3:
            if known is not None:
                data = data.assign(n=[known.get((pd.Timestamp(t), key)) for t in data["x"]])
            lines[name] = data
    return lines


def _line_counts(lines):
    """Every point's count of values over all lines (None where not known), or None without counts."""
    if not any("n" in data.columns for data in lines.values()):
        return None
    return [n for data in lines.values() if "n" in data.columns for n in data["n"]]


def _ends_note(data, when, reference):
    """"; Nov 1993 from 1 value" after a change's two values: which end is of few values (_few_values)."""
    if reference is None or "n" not in data.columns:
        return ""
    ends = [f"{w} {f}" for w, f in ((when[0], _few_values(data["n"].iloc[0], reference)),
                                      (when[-1], _few_values(data["n"].iloc[-1], reference))) if f]
    return f"; {', '.join(ends)}" if ends else ""


def _series_compared(lines, frequency, how, money=None):
    """(year, [(name, before, after, span)]): the last full year every line shares against the year before,
    combined as the single line's year-over-year does; else each line's first period against its last."""
    years = [_last_full_years(data, frequency, how) for data in lines.values()]
    year = years[0][0] if years[0] is not None else None
    if year is not None and all(y is not None and y[0] == year for y in years):
        periods = f"{'summing' if how == 'sum' else 'averaging'} {'12 months' if frequency == 'M' else '4 quarters'}"
        return year, [(name, previous, total, f"over {year - 1} ({periods}: {_fmt_level(previous, how, money)} → {_fmt_level(total, how, money)})")
                      for name, (_, total, previous) in zip(lines, years)]
    out, reference = [], _line_counts(lines)
    for name, data in lines.items():
        first, last = float(data["y"].iloc[0]), float(data["y"].iloc[-1])
        when = [fmt_date(data["x"].iloc[0], frequency), fmt_date(data["x"].iloc[-1], frequency)]
        note = _ends_note(data, when, reference)
        span = f"from {when[0]} to {when[1]} ({_fmt_level(first, how, money)} → {_fmt_level(last, how, money)}{note})"
        out.append((name, first, last, span))
    return None, out


@never_raises
def series_trend_insights(frame, x, series, y, label=None, how="mean", period=None, word=None, counts=None, money=None):
    """The line that rose most and the one that fell most (or, when all moved one way, the most and the least)
    among the lines of `series`: the last full year they all share against the year before, else each line's
    first period against its own last; then the highest point of all lines (_series_peak). Said as differences
    on an interval scale or when a line starts at or below zero (a percentage of a signed quantity means
    nothing), else as percentages. `word` names the lines ("lines" for several measures'), else they are
    "`series` lines". `counts` (a Series by period and series value): how many values each point's mean is of,
    an end or the highest point of few said so (_few_values). `money`: the values' currency (fmt_money)."""
    if frame is None or series not in frame.columns or x not in frame.columns:
        return []
    lines = _series_lines(frame, x, series, y, folded=word is None, counts=counts)
    if len(lines) < 2:
        return []
    frequency = period or infer_frequency(as_datetime(frame[x]).dropna())
    noun = word or f"{series} lines"
    every = f"both {noun}" if len(lines) == 2 else f"all {len(lines)} {noun}"
    return (_series_change(lines, frequency, how, str(label or y), every, word is not None, money)
            + _series_peak(lines, frequency, how, every, money))


def _series_change(lines, frequency, how, label, every, measures=False, money=None):
    """Which line rose most and which fell most (series_trend_insights), or nothing when none moved."""
    year, compared = _series_compared(lines, frequency, how, money)
    differences = _by_difference(how) or any(before <= 0 or after < 0 for _, before, after, _ in compared)
    changed = sorted(((after - before if differences else (after - before) / before, name, span)
                      for name, before, after, span in compared), key=lambda c: (-c[0], c[1]))
    (top, top_name, top_span), (bottom, bottom_name, bottom_span) = changed[0], changed[-1]
    still = (lambda c: c == 0) if differences else (lambda c: abs(c) < 0.0005)
    if still(top) and still(bottom):
        return []
    n, up = len(changed), "rose" if differences else "grew"
    subject = _capital(label) if year is None else f"In {year}, {label}"

    def amount(c):
        return f"by {_fmt_difference(abs(c), how, money)}" if differences else fmt_pct(abs(c))

    if measures:
        # Several measures' lines: the lines are the subject ("the value rose in other" says nothing).
        when = "" if year is None else f"In {year}, "

        def each(c, name, span, verb):
            if still(c):
                return f"{name} was {'' if c == 0 else 'nearly '}unchanged {span}"
            return f"{name} {verb} the most, {amount(c)} {span}"
        if top > 0 and bottom > 0 and not still(bottom):
            text = (f"{_capital(when + every)} {up}: {top_name} the most, {amount(top)} {top_span}; "
                    f"{bottom_name} the least, {amount(bottom)} {bottom_span}.")
        elif top < 0 and bottom < 0 and not still(top):
            text = (f"{_capital(when + every)} fell: {bottom_name} the most, {amount(bottom)} {bottom_span}; "
                    f"{top_name} the least, {amount(top)} {top_span}.")
        else:
            text = (f"{_capital(f'{when}of {every}')}, {each(top, top_name, top_span, up)}, "
                    f"and {each(bottom, bottom_name, bottom_span, 'fell')}.")
    elif top > 0 and bottom > 0 and not still(bottom):
        text = (f"{subject} {up} in {every}: the most in {top_name}, {amount(top)} {top_span}; "
                f"the least in {bottom_name}, {amount(bottom)} {bottom_span}.")
    elif top < 0 and bottom < 0 and not still(top):
        text = (f"{subject} fell in {every}: the most in {bottom_name}, {amount(bottom)} {bottom_span}; "
                f"the least in {top_name}, {amount(top)} {top_span}.")
    else:
        def part(c, name, span, verb):
            if still(c):
                return f"was {'' if c == 0 else 'nearly '}unchanged in {name} {span}"
            return f"{verb} the most in {name}, {amount(c)} {span}"
        text = f"{subject} {part(top, top_name, top_span, up)}, and {part(bottom, bottom_name, bottom_span, 'fell')}."
    scale, key = (1, "change") if differences else (100, "change_pct")
    numbers = {"lines": n, f"highest_{key}": top * scale, f"lowest_{key}": bottom * scale}
    if year is not None:
        numbers["year"] = year
    return [_insight(text, "series_change", **numbers)]


# Past this many other lines, the peak sentence names only the highest one's.
_PEAKS_LISTED = 4


def _series_peak(lines, frequency, how, every, money=None):
    """Which line rose highest, when, and where each other line peaked (up to _PEAKS_LISTED of them, highest
    first; lines that never move said once per level, "drizzle, fog and sun stayed at 0"): the first-to-last
    sentence misses a line that rose and fell back (crimea.json's deaths from disease, 2,761 in Jan 1855 and
    near nothing at both ends). Nothing when the highest line is flat."""
    peaks, reference, few = [], _line_counts(lines), {}
    for name, data in lines.items():
        values = data["y"].to_numpy()
        i = int(values.argmax())
        peaks.append((float(values[i]), name, data["x"].iloc[i], bool((values == values[i]).all())))
        if reference is not None and "n" in data.columns:
            few[name] = _few_values(data["n"].iloc[i], reference)
    peaks.sort(key=lambda p: (-p[0], p[1]))
    (value, name, at, flat), rest = peaks[0], peaks[1:]
    fewer = f", {few[name]}" if few.get(name) else ""
    if flat:
        return []

    def when(stamp):
        return _in_period(fmt_date(stamp, frequency), frequency)

    moving = [f"{n}{' peaked' if i == 0 else ''} at {_fmt_level(v, how, money)} {when(t)}"
              for i, (v, n, t, _) in enumerate(p for p in rest if not p[3])]
    levels = {}
    for v, n, _, still in rest:
        if still:
            levels.setdefault(v, []).append(n)
    flats = [f"{_listed(names)} stayed at {_fmt_level(v, how, money)}" for v, names in levels.items()]
    parts = "; ".join(part for part in [", ".join(moving), *flats] if part)
    others = f" ({parts})" if 0 < len(rest) <= _PEAKS_LISTED else ""
    return [_insight(f"The highest point of {every}: {name} at {_fmt_level(value, how, money)} {when(at)}{fewer}{others}.",
                     "series_peak", lines=len(peaks), peak=value)]


def _listed(names):
    """"a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _change(label, when, first, last, how="sum", note="", money=None):
    """The first-to-last change sentence; `note` ("; Nov 1993 from 1 value") closes its parenthesis."""
    out = []
    if first < 0 or last < 0 or _by_difference(how):
        # A percentage of a signed quantity (an anomaly, a net change, a return) means nothing:
        # -0.17 -> 1.17 is not "grew 788%". The difference is said instead.
        difference = last - first
        moved = (f"rose by {_fmt_difference(difference, how, money)}" if difference > 0 else
                 f"fell by {_fmt_difference(-difference, how, money)}" if difference < 0 else "was unchanged")
        out.append(_insight(f"{_capital(label)} {moved} from {when[0]} to {when[-1]} "
                            f"({_fmt_level(first, how, money)} → {_fmt_level(last, how, money)}{note}).",
                            "change", first=first, last=last, change=difference))
    elif first != 0:
        change = (last - first) / abs(first)
        # A change that rounds to 0.0% is not "grew 0.0%".
        flat = abs(change) < 0.0005
        verb = ("was unchanged" if change == 0 else "was nearly unchanged" if flat else
                "grew" if change > 0 else "fell")
        amount = "" if flat else f" {fmt_pct(abs(change))}"
        out.append(_insight(f"{_capital(label)} {verb}{amount} from {when[0]} to {when[-1]} ({fmt_money(first, money)} → {fmt_money(last, money)}{note}).",
                            "change", first=first, last=last, change_pct=change * 100))
    else:
        said = f" ({note[2:]})" if note else ""
        out.append(_insight(f"{_capital(label)} went from 0 to {fmt_money(last, money)} between {when[0]} and {when[-1]}{said}.",
                            "change", first=first, last=last))
    return out


def _last_full_years(data, frequency, how="sum"):
    """The last full year of a monthly or quarterly series whose year before is full too, and both years' values
    combined as `how` says (summed for a total, else averaged): (year, total, previous), or None."""
    per_year = PERIODS_PER_YEAR.get(frequency)
    if per_year is None or len(data) < 2 * per_year:
        return None
    years = data["x"].dt.year
    slot = data["x"].dt.month if frequency == "M" else data["x"].dt.quarter
    complete = [year for year, group in slot.groupby(years) if group.nunique() == per_year and len(group) == per_year]
    if len(complete) < 2 or complete[-1] - 1 not in complete:
        return None
    year = complete[-1]
    combine = (lambda v: v.sum()) if how == "sum" else (lambda v: v.mean())
    return year, float(combine(data["y"][years == year])), float(combine(data["y"][years == year - 1]))


def _year_over_year(data, label, frequency, how="sum", money=None):
    full = _last_full_years(data, frequency, how)
    if full is None:
        return []
    year, total, previous = full
    periods = "12 months" if frequency == "M" else "4 quarters"
    if _by_difference(how):
        # A level whose zero is not "none" (a temperature in °C), or a share in percent: the
        # difference (in percentage points for a share), never a percentage.
        difference = total - previous
        moved = "higher than" if difference > 0 else "lower than" if difference < 0 else "the same as"
        by = f"{_fmt_difference(abs(difference), how, money)} " if difference else ""
        return [_insight(f"In {year}, {label} was {by}{moved} in {year - 1} (averaging the {periods} of each year: "
                         f"{_fmt_level(total, how, money)} vs {_fmt_level(previous, how, money)}).", "year_over_year",
                         change=difference, year=year, total=total, previous_total=previous)]
    if previous <= 0 or total < 0:
        return []
    growth = total / previous - 1
    word = "higher" if growth > 0 else "lower" if growth < 0 else "the same as"
    amount = f"{fmt_pct(abs(growth))} " if growth else ""
    than = " than" if growth else ""
    verb = "summing" if how == "sum" else "averaging"
    return [_insight(f"In {year}, {label} was {amount}{word}{than} in {year - 1} ({verb} the {periods} of each year: "
                     f"{fmt_money(total, money)} vs {fmt_money(previous, money)}).", "year_over_year",
                     yoy_pct=growth * 100, year=year, total=total, previous_total=previous)]


def _is_other(name):
    return bool(OTHER.match(str(name).strip()))


@never_raises
def ranking_insights(frame, category, value, label=None, interval=False, percent=False, keys=None, values=None,
                     overall=None, points=False, blocks=None, block=None, money=None):
    """For averages and other non-additive values: the highest and lowest category, and how far apart they are
    (a ratio; a difference when `interval`: on an interval scale, 9.3 °C is not 64× 0.15 °C; in percentage
    points when `percent`: the values are shares in %). Given each row's group (`keys`) and value (`values`) of
    a mean, a gap that Welch's t-test between the two groups finds within chance (p ≥ 0.05, Bonferroni-corrected
    for picking the two of all the groups ranked) is said to be. Given `overall` (the groups' plural: "months"),
    the groups are a cycle whose question is whether they differ at all: Welch's one-way ANOVA of every group
    replaces the test of the two; given each value's `blocks` too (its year, named `block`), the cycle is tested
    within them (_blocked_anova: months year by year, so a trend across the years is no noise between the
    months), over at least two blocks holding every group, else by Welch's ANOVA. `percent`: the values are a
    rate's shares in percent (Fisher's exact test for few rows); `points`: percentages of a measure (a mean
    margin of 17.9%), said as `percent`'s but tested as any mean; `money`: the values' currency (fmt_money)."""
    data = frame[[category, value]].copy()
    data[value] = pd.to_numeric(data[value], errors="coerce")
    data = data[data[value].notna() & data[category].notna() & ~data[category].map(_is_other)]
    if len(data) < 2 or data[value].nunique() < 2:
        return []
    # In the frame's order, as the host sums them.
    everyone = None if keys is None or not overall else [_spread(keys, values, c) for c in data[category]]
    data = data.sort_values(value, ascending=False)
    # Column by column: a row of an int category beside a float value is upcast (Pclass 1 -> "1.0").
    top = {category: data[category].iloc[0], value: data[value].iloc[0]}
    bottom = {category: data[category].iloc[-1], value: data[value].iloc[-1]}
    if fmt_number(top[value]) == fmt_number(bottom[value]):
        return []  # values that print alike (9/27 and 10/30 as 33.3) are a tie, not a ranking
    label = str(label or value)
    high, low = (None, None) if keys is None else (_spread(keys, values, top[category]), _spread(keys, values, bottom[category]))

    def shown(v, group, other):
        return f"{fmt_money(v, money)}{'%' if percent or points else ''}{_few_of(group, other, percent)}"

    top_name, bottom_name = _group_name(top[category], category), _group_name(bottom[category], category)
    text = f"{top_name} has the highest {label} ({shown(top[value], high, low)}); {bottom_name} the lowest ({shown(bottom[value], low, high)})"
    numbers = {"highest": float(top[value]), "lowest": float(bottom[value])}
    if _few_of(high, low, False):
        numbers["highest_n"] = high[0]
    if _few_of(low, high, False):
        numbers["lowest_n"] = low[0]
    if percent or points:
        numbers["difference"] = float(top[value]) - float(bottom[value])
        text += f", {fmt_number(numbers['difference'])} percentage points apart"
    elif interval:
        numbers["difference"] = float(top[value]) - float(bottom[value])
        text += f", {fmt_money(numbers['difference'], money)} apart"
    elif bottom[value] > 0:
        ratio = float(top[value]) / float(bottom[value])
        text += f", {fmt_ratio(ratio)} apart"
        numbers["ratio"] = ratio
    if everyone is not None:
        # A cycle's question is whether its groups differ at all: one test of them all, no pair picked.
        blocked = None if blocks is None else _blocked_anova(keys, blocks, values)
        test = blocked or _welch_anova(everyone)
        if test is not None and test[3] >= 0.05:
            how = (f"{block} by {block} (two-way ANOVA over {fmt_number(blocked[4])} complete {block}s" if blocked
                   else "(Welch's ANOVA")
            text += (f"; chance alone could give differences this size between the {fmt_number(len(data))} {overall}"
                     f"{', ' if blocked else ' '}{how}, p = {fmt_number(test[3])})")
            numbers["p_value"] = test[3]
        return [_insight(text + ".", "ranking", **numbers)]
    chance = _gap_by_chance(high, low, percent, len(data))
    if chance is not None:
        p, test, pairs = chance
        corrected = f" after Bonferroni's correction for the {fmt_number(pairs)} pairs of {fmt_number(len(data))} groups" if pairs > 1 else ""
        text += f"; chance alone could give a gap this size ({test}, p = {fmt_number(p)}{corrected})"
        numbers["p_value"] = p
        if pairs > 1:
            numbers["pairs"] = pairs
    return [_insight(text + ".", "ranking", **numbers)]


# A pair of a correlation matrix is named from this |r| on; at most this many are named.
STRONG_R = 0.3
_NAMED_PAIRS = 3


@never_raises
def matrix_insights(matrix):
    """The strongest pairs of a correlation matrix (DataFrame.corr()): those of |r| ≥ 0.3, strongest first, up to
    three named with r, and how many there are when more; else that no pair reaches 0.3, with the strongest there
    is. Ties in |r| (at 12 significant digits) go by position. As matrixInsights in insights-matrix.ts."""
    names = [str(c) for c in matrix.columns]
    values = matrix.to_numpy(dtype=float)
    pairs = [(i, j, float(values[i][j])) for i in range(len(names)) for j in range(i + 1, len(names))
             if math.isfinite(values[i][j])]
    if not pairs:
        return []
    pairs.sort(key=lambda p: (-float(f"{abs(p[2]):.12g}"), p[0], p[1]))

    def pair(p):
        return f"{names[p[0]]} and {names[p[1]]}"

    strong = [p for p in pairs if abs(p[2]) >= STRONG_R]
    total = len(names) * (len(names) - 1) // 2
    first = pairs[0]
    if not strong:
        return [_insight(f"No pair of the {len(names)} numeric columns has |r| of {STRONG_R} or more "
                         f"(the strongest: {pair(first)}, r = {fixed(first[2], 2)}).",
                         "correlation", r=first[2], strong_pairs=0, pairs=total)]
    named = strong[:_NAMED_PAIRS]
    listed = ", ".join(f"{pair(p)} ({'r = ' if k == 0 else ''}{fixed(p[2], 2)})" for k, p in enumerate(named))
    more = f"; {len(strong)} of the {total} pairs have |r| of {STRONG_R} or more" if len(strong) > len(named) else ""
    head = "The strongest correlation" if len(named) == 1 else "The strongest correlations"
    return [_insight(f"{head}: {listed}{more}.", "correlation", r=first[2], strong_pairs=len(strong), pairs=total)]


def _pairs_of(groups):
    """How many pairs the highest and the lowest of `groups` groups were picked from (pairsOf in insights-welch.ts)."""
    return groups * (groups - 1) // 2 if groups > 2 else 1


@never_raises
def box_insights(data, category, value, label, interval=False, groups=30, points=False, money=None):
    """A box chart by group: its highest and lowest median, as ranking_insights says them — for a text or
    whole-number grouping (a class 1, 2, 3: "Pclass 1") with at most `groups` groups (all drawn) and no missing
    name, else nothing; medians of the finite values, the groups in groupby's order. As boxRanking in
    sql-distribution.ts, which reads the box's own frame."""
    keys = data[category]
    texts = keys.map(lambda k: isinstance(k, str))
    whole = ptypes.is_integer_dtype(keys.dtype)
    if ptypes.is_bool_dtype(data[value]) or not ptypes.is_numeric_dtype(data[value]):
        return []
    if keys.isna().any() or not (whole or texts.all()) or keys.nunique() > groups:
        return []
    values = data[value].astype(float)
    finite = np.isfinite(values)
    medians = values[finite].groupby(keys[finite]).median()
    frame = pd.DataFrame({category: list(medians.index), value: medians.to_numpy()})
    return ranking_insights(frame, category, value, label, interval=interval, points=points, money=money)


def _gap_by_chance(one, two, percent, groups=2):
    """(p, test, pairs) when chance alone could give the gap between two groups (p ≥ 0.05), else None. Means by
    Welch's t-test; a rate's groups too when each has 10 rows of each outcome, else by Fisher's exact test. The
    two are the extremes of `groups` groups, not named in advance: p is multiplied by the pairs they were picked
    from (Bonferroni's correction; at most 1), as gapByChance in insights-welch.ts does."""
    if one is None or two is None:
        return None
    pairs = _pairs_of(groups)
    if percent and not (_counted(one) and _counted(two)):
        p = fisher_two_sided(_count_of(one), _count_of(two))
        test = "Fisher's exact test"
    else:
        found = _welch(one, two)
        p = None if found is None else found[2]
        test = "Welch's t-test"
    if p is None:
        return None
    p = min(1.0, p * pairs)
    return (p, test, pairs) if p >= 0.05 else None


def _count_of(group):
    """A rate's group (n, mean in %, variance) as (hits, rows)."""
    return round(group[0] * group[1] / 100), group[0]


def _log_choose(n, k):
    return _log_gamma(n + 1) - _log_gamma(k + 1) - _log_gamma(n - k + 1)


# Past this many tables, Fisher's test is not summed.
_FISHER_TABLES = 1_000_000


def fisher_two_sided(one, two):
    """The two-sided p of Fisher's exact test of two (hits, rows): the probabilities of every table with the same
    margins no likelier than the observed one (scipy's fisher_exact, relative tolerance 1e-7), as insights-welch.ts sums them."""
    n1, total, hits = one[1], one[1] + two[1], one[0] + two[0]
    low, high = max(0, n1 - (total - hits)), min(hits, n1)
    if high - low + 1 > _FISHER_TABLES:
        return None
    base = _log_choose(total, n1)

    def log_p(k):
        return _log_choose(hits, k) + _log_choose(total - hits, n1 - k) - base
    observed = log_p(one[0]) + math.log1p(1e-7)
    p = 0.0
    for k in range(low, high + 1):
        lp = log_p(k)
        if lp <= observed:
            p += math.exp(lp)
    return min(1.0, p)


def _counted(group):
    """Whether a rate's group (values 0 or 100) has at least 10 rows of each outcome, as the t-test's normal
    approximation of a proportion needs: 4 of 5 rows is no case for it."""
    if group is None:
        return False
    hits = round(group[0] * group[1] / 100)
    return min(hits, group[0] - hits) >= 10


# Below this many values, a group's value is said with how few it is of (_few_of).
_FEW = 10


def _few_of(group, other, percent):
    """", 4 of 5 rows" (a rate's hits of its rows) or ", from 3 values" (a mean's), for a group of fewer than
    _FEW values ranked against one of _FEW or more; nothing when both are small (a chart of one row per customer)."""
    if group is None or other is None or group[0] >= _FEW or other[0] < _FEW:
        return ""
    n, s = group[0], "" if group[0] == 1 else "s"
    return f", {round(n * group[1] / 100)} of {n} row{s}" if percent else f", from {n} value{s}"


def _spread(keys, values, group):
    """(n, mean, variance) of the values of one group, or None for the missing group or one without values."""
    if pd.isna(group):
        return None
    v = pd.to_numeric(pd.Series(values), errors="coerce").astype(float)
    v = v[(pd.Series(keys) == group).to_numpy() & v.notna().to_numpy()]
    return (len(v), float(v.mean()), float(v.var())) if len(v) >= 1 else None


_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)


def _log_gamma(z):
    """ln Γ(z), z > 0 (Lanczos, g = 7, 9 terms), as insights-welch.ts computes it."""
    x = z - 1
    a = _LANCZOS[0] + sum(c / (x + i) for i, c in enumerate(_LANCZOS[1:], start=1))
    t = x + 7.5
    return 0.5 * math.log(2 * math.pi) + (x + 0.5) * math.log(t) - t + math.log(a)


def _stirling_tail(z):
    return 1 / (12 * z) - 1 / (360 * z ** 3) + 1 / (1260 * z ** 5) - 1 / (1680 * z ** 7)


def _log_beta_half(a):
    """ln B(a, 1/2); for large a, ln Γ(a + 1/2) − ln Γ(a) from Stirling's series as one difference."""
    if a < 20:
        return _log_gamma(a) + 0.5 * math.log(math.pi) - _log_gamma(a + 0.5)
    rise = 0.5 * math.log(a) + a * math.log1p(0.5 / a) - 0.5 + _stirling_tail(a + 0.5)
    return 0.5 * math.log(math.pi) - (rise - _stirling_tail(a))


def _beta_fraction(a, b, x):
    """The incomplete beta function's continued fraction (modified Lentz), for x < (a+1)/(a+b+2)."""
    tiny = 1e-300

    def guard(value):
        return tiny if abs(value) < tiny else value

    c, d = 1.0, 1 / guard(1 - (a + b) * x / (a + 1))
    h = d
    for m in range(1, 100_001):
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d, c = 1 / guard(1 + even * d), guard(1 + even / c)
        h *= d * c
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d, c = 1 / guard(1 + odd * d), guard(1 + odd / c)
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def student_two_sided(t, df):
    """The two-sided p-value of Student's t with `df` degrees of freedom (I_x(df/2, 1/2), x = df/(df+t²))."""
    if not math.isfinite(t) or not df > 0:
        return float("nan")
    if t == 0:
        return 1.0
    a, b, x = df / 2, 0.5, df / (df + t * t)
    front = math.exp(a * -math.log1p(t * t / df) + b * math.log(t * t / (df + t * t)) - _log_beta_half(a))
    if x < (a + 1) / (a + b + 2):
        return min(1.0, front * _beta_fraction(a, b, x) / a)
    return max(0.0, 1 - front * _beta_fraction(b, a, t * t / (df + t * t)) / b)


def _incomplete_beta(a, b, x, y):
    """I_x(a, b), the regularized incomplete beta function (0 < x < 1; `y` = 1 − x, given exactly)."""
    front = math.exp(a * math.log(x) + b * math.log(y) - (_log_gamma(a) + _log_gamma(b) - _log_gamma(a + b)))
    if x < (a + 1) / (a + b + 2):
        return min(1.0, front * _beta_fraction(a, b, x) / a)
    return max(0.0, 1 - front * _beta_fraction(b, a, y) / b)


def f_survival(f, d1, d2):
    """P(F > f) for Fisher's F with d1 and d2 degrees of freedom, as fSurvival in insights-welch.ts."""
    if not (f >= 0 and d1 > 0 and d2 > 0):
        return float("nan")
    if f == 0:
        return 1.0
    if not math.isfinite(f):
        return 0.0
    return _incomplete_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f), d1 * f / (d2 + d1 * f))


def _blocked_anova(keys, blocks, values):
    """(F, df1, df2, p, blocks) of a two-way ANOVA without replication of a cycle's groups within blocks (months
    within years): each (block, group) cell's mean of the finite values, over the blocks that hold every group;
    None below 3 groups or 2 such blocks, or with no residual spread (blockedAnova in insights-welch.ts)."""
    cells = pd.DataFrame({"b": np.asarray(blocks), "k": np.asarray(keys, dtype=object),
                          "v": pd.to_numeric(pd.Series(np.asarray(values)), errors="coerce").to_numpy(dtype=float)})
    cells = cells[np.isfinite(cells["v"])]
    if cells.empty:
        return None
    table = cells.groupby(["b", "k"], sort=True)["v"].mean().unstack("k")
    k = table.shape[1]
    x = table.dropna().to_numpy(dtype=float)
    b = len(x)
    if k < 3 or b < 2:
        return None
    grand = math.fsum(x.ravel()) / x.size
    block_means = np.array([math.fsum(row) / k for row in x])
    key_means = np.array([math.fsum(col) / b for col in x.T])
    between = b * math.fsum((key_means - grand) ** 2)
    residual = math.fsum(((x - block_means[:, None] - key_means[None, :] + grand) ** 2).ravel())
    df1, df2 = k - 1, (k - 1) * (b - 1)
    if not residual > 0 or not math.isfinite(between):
        return None
    f = (between / df1) / (residual / df2)
    p = f_survival(f, df1, df2)
    return (f, df1, df2, p, b) if math.isfinite(p) else None


def _welch_anova(groups):
    """(F, df1, df2, p) of Welch's one-way ANOVA of k ≥ 3 (n, mean, variance), or None when undefined (a group
    of one value or of no spread), as welchAnova in insights-welch.ts."""
    k = len(groups)
    if k < 3 or any(g is None or g[0] < 2 or not g[2] > 0 or not math.isfinite(g[2]) for g in groups):
        return None
    w = [g[0] / g[2] for g in groups]
    total = 0.0
    for x in w:
        total += x
    mean = 0.0
    for x, g in zip(w, groups):
        mean += x * g[1]
    mean /= total
    between, lam = 0.0, 0.0
    for x, g in zip(w, groups):
        between += x * (g[1] - mean) ** 2
    between /= k - 1
    for x, g in zip(w, groups):
        lam += (1 - x / total) ** 2 / (g[0] - 1)
    f = between / (1 + 2 * (k - 2) / (k * k - 1) * lam)
    df2 = (k * k - 1) / (3 * lam)
    p = f_survival(f, k - 1, df2)
    return (f, k - 1, df2, p) if math.isfinite(p) else None


def _welch(one, two):
    """(t, df, p) of Welch's t-test between two (n, mean, variance), or None when undefined."""
    if one is None or two is None or one[0] < 2 or two[0] < 2:
        return None
    u, v = one[2] / one[0], two[2] / two[0]
    if not math.isfinite(u + v) or u + v <= 0:
        return None
    t = (one[1] - two[1]) / math.sqrt(u + v)
    df = (u + v) ** 2 / (u ** 2 / (one[0] - 1) + v ** 2 / (two[0] - 1))
    p = student_two_sided(t, df)
    return (t, df, p) if math.isfinite(p) else None


_BLANK = re.compile("[ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def _blank_label(text):
    """Text that shows nothing, named: "" is "(empty)", whitespace alone is '(blank "  ")' (escaped as
    json.dumps writes it), other text itself. The host's blankLabel (src/util/blank-label.ts) is the same."""
    if text == "":
        return "(empty)"
    return f"(blank {json.dumps(text)})" if _BLANK.fullmatch(text) else text


def _group_name(c, category):
    """A group's name in a sentence: a number with its column ("Pclass 3", a whole float without its ".0" as the
    host's frames carry it: "education 9"), a code of digits kept as text too ("county_id 12077"), text that
    shows nothing named (_blank_label), else str(value)."""
    number = isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, (bool, np.bool_))
    digits = isinstance(c, str) and re.fullmatch(r"[0-9]+", c) is not None
    if number and np.isfinite(c) and isinstance(c, (float, np.floating)) and float(c).is_integer() and abs(c) < 1e16:
        return f"{category} {int(c)}"
    if (number and np.isfinite(c)) or digits:
        return f"{category} {c}"
    return _blank_label(c) if isinstance(c, str) else str(c)


SECOND_SHARE = 0.01


def _dwarfed(second, total):
    """Whether a second group this small a share of the total is too small to measure the first against
    (the host's SECOND_SHARE): "3,372× the rows of … (3,372 vs 1)" says nothing the leader's share has not."""
    return second < SECOND_SHARE * total


def _row_counts(keys, values, category):
    """How many rows hold a value of a summed measure, by group name and in all (the host's RowCounts)."""
    if keys is None or values is None:
        return None
    held = pd.Series(values).notna()
    per = held.groupby(pd.Series(keys), dropna=True).sum()
    return {_group_name(k, category): int(n) for k, n in per.items()}, int(held.sum())


def _per_row_reversal(top, second, counts):
    """(rows of the top, of the second, in all) when the larger total comes of more rows each holding less than
    the second's (the host's perRowReversal), else None."""
    if counts is None or "(missing)" in (top[0], second[0]):
        return None
    n_top, n_second = counts[0].get(top[0]), counts[0].get(second[0])
    if not n_top or not n_second or not counts[1] > 0:
        return None
    return (n_top, n_second, counts[1]) if top[1] / n_top < second[1] / n_second else None


def _signed_totals(totals, label, money):
    """Totals on both sides of zero (money in and money out, insights-share.ts signedTotals): no shares, but
    the largest, the most negative and what all the groups come to together."""
    ranked = totals.iloc[np.argsort(-totals.to_numpy(), kind="stable")]
    ranked = ranked[[not _is_other(n) and n != "(missing)" for n in ranked.index]]
    if len(ranked) < 2 or not (float(ranked.iloc[0]) > 0 > float(ranked.iloc[-1])):
        return []
    high, low, net = float(ranked.iloc[0]), float(ranked.iloc[-1]), float(totals.sum())
    text = (f"{ranked.index[0]} has the largest {label} ({fmt_money(high, money)}); {ranked.index[-1]} the most "
            f"negative ({fmt_money(low, money)}); all {len(totals)} together come to {fmt_money(net, money)}.")
    return [_insight(text, "signed_totals", value=high, lowest=low, total=net)]


@never_raises
def share_insights(frame, category, value, label=None, keys=None, values=None, money=None, named=None):
    """Share of total of the top category, top vs second, top-3 share ("Other" never counts as a top category).
    Given a sum's rows (each row's group, `keys`, and value, `values`), a leader whose rows each hold less than
    the second's is said to lead by its rows. `money`: the values' currency (fmt_money). `named`: a member the
    question asks about, its share said first when it is not the leader."""
    if frame is None or category not in frame.columns or value not in frame.columns or len(frame) == 0:
        return []
    sums = numbers(frame[value])
    names = np.array([_group_name(c, category) for c in frame[category].astype(object).where(frame[category].notna(), "(missing)")], dtype=object)
    keep = np.isfinite(sums)
    totals = pd.Series(sums[keep]).groupby(names[keep], sort=False).sum()
    label = "rows" if str(label or value) == "count" else str(label or value)
    if len(totals) >= 2 and (totals < 0).any() and (totals > 0).any():
        return _signed_totals(totals, label, money)
    if len(totals) < 2 or (totals < 0).any() or totals.sum() <= 0 or totals.nunique() < 2:
        return []
    total = float(totals.sum())
    ranked = totals.iloc[np.argsort(-totals.to_numpy(), kind="stable")]
    ranked = ranked[[not _is_other(n) and n != "(missing)" for n in ranked.index]]
    if ranked.empty:
        return []
    out, top = [], float(ranked.iloc[0])
    if named is not None and str(named) in ranked.index and float(ranked[str(named)]) != top:
        part = float(ranked[str(named)])
        out.append(_insight(f"{named} accounts for {fmt_pct(part / total)} of {label} ({fmt_money(part, money)} of {fmt_money(total, money)}).",
                            "named_share", share_pct=part / total * 100, value=part, total=total))
    leaders = [str(n) for n, v in ranked.items() if v == top]
    if len(leaders) > 1:
        out.append(_insight(f"{', '.join(leaders[:-1])} and {leaders[-1]} tie for the largest share of {label}: "
                            f"{fmt_pct(top / total)} each ({fmt_money(top, money)} of {fmt_money(total, money)}).",
                            "top_share", share_pct=top / total * 100, value=top, total=total))
    else:
        second = float(ranked.iloc[1]) if len(ranked) > 1 else 0.0
        compared = second > 0 and not _dwarfed(second, total)
        reversed_ = _per_row_reversal((leaders[0], top), (str(ranked.index[1]), second),
                                      _row_counts(keys, values, category)) if compared else None
        rows = f", from {fmt_pct(reversed_[0] / reversed_[2])} of the rows" if reversed_ else ""
        out.append(_insight(f"{leaders[0]} accounts for {fmt_pct(top / total)} of {label} ({fmt_money(top, money)} of {fmt_money(total, money)}){rows}.",
                            "top_share", share_pct=top / total * 100, value=top, total=total))
        if compared:
            per_row = (f" but {fmt_ratio(reversed_[0] / reversed_[1])} the rows: per row, {ranked.index[1]} has more "
                       f"({fmt_money(second / reversed_[1], money)} vs {fmt_money(top / reversed_[0], money)} on average)") if reversed_ else ""
            out.append(_insight(f"{leaders[0]} has {fmt_ratio(top / second)} the {label} of {ranked.index[1]} "
                                f"({fmt_money(top, money)} vs {fmt_money(second, money)}){per_row}.", "top_vs_second", ratio=top / second, value=top,
                                second=second))
    if len(totals) > 3 and len(ranked) >= 3 and not _dwarfed(float(ranked.iloc[1]), total):
        top3 = float(ranked.iloc[:3].sum())
        out.append(_insight(f"The top 3 ({', '.join(str(n) for n in ranked.index[:3])}) account for {fmt_pct(top3 / total)} of {label}.",
                            "top3_share", share_pct=top3 / total * 100, value=top3, total=total))
    return out


def scale_insights(frame, category, value, low, high):
    """A survey question's answers by side of its scale (`low`, `high`: the levels either side of the middle, in
    the scale's order): the share of the answers on each, missing answers left out (ts: insights-share scaleInsights)."""
    if frame is None or category not in frame.columns or value not in frame.columns or not low or not high:
        return []
    counts = numbers(frame[value])
    names = [None if pd.isna(c) else str(c) for c in frame[category].astype(object)]
    answered = [(n, v) for n, v in zip(names, counts) if n is not None and math.isfinite(v)]
    total = math.fsum(v for _, v in answered)
    if total <= 0 or any(v < 0 for _, v in answered):
        return []
    part = {side: math.fsum(v for n, v in answered if n in side) for side in (tuple(low), tuple(high))}
    lo, hi = part[tuple(low)], part[tuple(high)]
    said = lambda levels: levels[0] if len(levels) == 1 else f"{', '.join(levels[:-1])} or {levels[-1]}"
    text = (f"{fmt_pct(hi / total)} of the answers to {category} are {said(list(high))}; "
            f"{fmt_pct(lo / total)} are {said(list(low))}.")
    return [_insight(text, "scale_sides", share_pct=hi / total * 100, low_pct=lo / total * 100, value=hi, total=total)]


def _unsigned_zero(text):
    """'0.00' for '-0.00': a skew rounding to zero is summation noise whose sign depends on the order of the sum."""
    return text[1:] if re.fullmatch(r"-0(\.0*)?", text) else text


COMPASS_POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _sector_of(degrees):
    """The 45° sector of a bearing: 0 for north (337.5° up to 22.5°), then clockwise."""
    return int(math.floor((math.fmod(math.fmod(degrees, 360) + 360, 360) + 22.5) / 45)) % 8


def _gathered(r):
    """How the values gather around their mean direction, by the mean resultant length."""
    return ("and the values are tightly gathered around it" if r >= 0.8 else "and the values are gathered around it" if r >= 0.5
            else "and the values are loosely gathered around it" if r >= 0.2 else "but the values are spread around the compass")


def compass_insights(values, label):
    """A compass bearing: its circular mean (atan2 of the mean sine and cosine) with the mean resultant
    length R, and its busiest 45° sector; never a plain mean, median or skew (350° and 10° average to 180°)."""
    raw = numbers(values)
    data = raw[np.isfinite(raw)].astype(float)
    n = len(data)
    if n < 2:
        return []
    angles = np.radians(data)
    s, c = math.fsum(np.sin(angles)), math.fsum(np.cos(angles))
    r = min(1.0, math.hypot(s, c) / n)
    subject, length, out = f"{_capital(label)} is a compass bearing (360° is 0°: north)", fixed(r, 2), []
    if r < 0.05:
        out.append(_insight(f"{subject}: its values balance out around the compass (mean resultant length {length} of 1), "
                            "so they have no mean direction.", "direction", resultant=r, n=n))
    else:
        mean = math.fmod(math.fmod(math.degrees(math.atan2(s, c)), 360) + 360, 360)
        shown = fixed(mean, 0)
        out.append(_insight(f"{subject}, so it is averaged on the circle: its mean direction is {'0' if shown == '360' else shown}° "
                            f"({COMPASS_POINTS[_sector_of(mean)]}), {_gathered(r)} (mean resultant length {length} of 1)"
                            f"{': that mean says little' if r < 0.2 else ''}.",
                            "direction", mean_deg=mean, resultant=r, n=n))
    turned = np.mod(np.mod(data, 360) + 360, 360)
    sectors = np.bincount((np.floor((turned + 22.5) / 45).astype(int) % 8), minlength=8)
    ranked = sorted(range(8), key=lambda i: (-int(sectors[i]), i))
    first, second = ranked[0], ranked[1]
    if sectors[first] > sectors[second] and sectors[first] > 0:
        lo, hi = (first * 45 - 22.5 + 360) % 360, (first * 45 + 22.5) % 360
        count = int(sectors[first])
        out.append(_insight(f"The most common direction of {label} is {COMPASS_POINTS[first]} ({lo:g}°–{hi:g}°): "
                            f"{count:,} of {n:,} values ({fmt_pct(count / n)})"
                            + (f", then {COMPASS_POINTS[second]} ({fmt_pct(int(sectors[second]) / n)})." if sectors[second] else "."), "sector", count=count, share_pct=count / n * 100))
    return out


@never_raises
def distribution_insights(values, label, years=False, points=False, direction=False, money=None):
    """Median and IQR, skew direction in words, outliers beyond 1.5 IQR.

    years: the values are calendar years, written 1687 and their IQR as a number of years.
    points: the values are percentages, written 17.4% and their IQR in percentage points.
    direction: the values are compass bearings in degrees (compass_insights).
    money: the values' currency ("$", "EUR"), written with each value and the IQR (fmt_money).
    """
    if direction:
        return compass_insights(values, str(label))
    raw = numbers(values)
    data, infinite = raw[np.isfinite(raw)], int(np.isinf(raw).sum())
    if len(data) < 2 or data.min() == data.max():
        return []
    stats, label = number_stats(data), str(label)
    q1, median, q3, mean, skew = stats["q1"], stats["median"], stats["q3"], stats["mean"], stats["skew"]
    iqr, out = q3 - q1, []
    value = fmt_year if years else (lambda x: f"{fmt_number(x)}%") if points else (lambda x: fmt_money(x, money))
    unit = " years" if years else " percentage points" if points else ""
    # With infinities the figures are of the finite values; pandas' describe() counts them in its quartiles.
    left_out = (f", over its {len(data):,} finite values ({'1 infinite value' if infinite == 1 else f'{infinite:,} infinite values'} left out)"
                if infinite else "")
    # A middle half of one value (IQR 0): said as such, not "between 0 and 0".
    spread = (f"{_capital(label)} is {value(median)} across its middle half: the median and both quartiles are {value(median)} "
              f"(IQR 0{unit}){left_out}." if iqr == 0 else
              f"The median {label} is {value(median)}; the middle half lies between {value(q1)} and {value(q3)} "
              f"(IQR {fmt_number(iqr) if years or points else value(iqr)}{unit}){left_out}.")
    out.append(_insight(spread, "spread", median=median, q1=q1, q3=q3, iqr=iqr))
    if skew is not None:
        shape = ("right-skewed: a long tail of large values" if skew >= 0.5 else
                 "left-skewed: a long tail of small values" if skew <= -0.5 else "roughly symmetric")
        subject = f"{_capital(label)}'s finite values are" if infinite else f"{_capital(label)} is"
        skew_text, its = _unsigned_zero(fixed(skew, 2)), "their" if infinite else "its"
        # A tail one way and the bulk the other (sp500's volume: skew 0.68, the mean below the median).
        if (skew >= 0.5 and mean < median) or (skew <= -0.5 and mean > median):
            text = (f"{subject} skewed two ways: {its} skew is {skew_text} (a tail of {'large' if skew > 0 else 'small'} values), "
                    f"but {its} mean lies {'below' if skew > 0 else 'above'} {its} median ({value(mean)} vs {value(median)}).")
        else:
            text = f"{subject} {shape} (skew {skew_text}; mean {value(mean)} vs median {value(median)})."
        out.append(_insight(text, "skew", skew=skew, mean=mean, median=median))
    low, high, outliers = q1 - 1.5 * iqr, q3 + 1.5 * iqr, stats["outliers"]
    if outliers:
        values = f"{outliers:,} {'finite ' if infinite else ''}value{'s' if outliers != 1 else ''} ({fmt_pct(outliers / len(data))}) of {label}"
        # A fence beyond the data's own range (e.g. below zero for amounts) has no values past it: leave it out.
        fences = [f"below {value(low)}" if low > float(data.min()) else "", f"above {value(high)}" if high < float(data.max()) else ""]
        where = " or ".join(f for f in fences if f)
        text = (_flat_outliers(values, outliers, value(q1), fences) if iqr == 0 else
                f"{values} {'lie' if outliers != 1 else 'lies'} beyond 1.5 IQR of the quartiles{f' ({where})' if where else ''}.")
        out.append(_insight(text, "outliers", outliers=outliers, share_pct=outliers / len(data) * 100, low=low, high=high))
    return out


def _flat_outliers(values, count, at, fences):
    """The outliers of a middle half of one value (IQR 0): the values that differ from it, and why each counts."""
    below, above = bool(fences[0]), bool(fences[1])
    side = "" if below and above else f" ({'' if count == 1 else 'all '}{'below' if below else 'above'} it)"
    return (f"{values} {'differs' if count == 1 else 'differ'} from {at}{side}: "
            "with an IQR of 0, each lies beyond 1.5 IQR of the quartiles.")


def _strength(r):
    return "weak" if abs(r) < 0.3 else "moderate" if abs(r) < 0.6 else "strong"


@never_raises
def correlation_insights(frame, a, b):
    """Pearson r and Spearman rho of two columns over complete pairs, in words; association, not cause."""
    if frame is None or a not in frame.columns or b not in frame.columns:
        return []
    x = numbers(frame[a])
    y = numbers(frame[b])
    both = np.isfinite(x) & np.isfinite(y)
    x, y, n = x[both], y[both], int(both.sum())
    if n < 3 or x.min() == x.max() or y.min() == y.max():
        return []
    r = float(np.clip(np.corrcoef(x, y)[0, 1], -1, 1))
    rho = float(np.clip(np.corrcoef(pd.Series(x).rank().to_numpy(), pd.Series(y).rank().to_numpy())[0, 1], -1, 1))
    if not (math.isfinite(r) and math.isfinite(rho)):
        return []
    direction = "positive" if r > 0 else "negative" if r < 0 else "no"
    out = [_insight(f"There is a {_strength(r)} {direction} correlation between {a} and {b} (Pearson r = {fixed(r, 2)}, Spearman ρ = {fixed(rho, 2)}, "
                    f"n = {n:,} pairs); this is an association, not evidence that one causes the other."
                    + (f" With only {n} pairs, chance alone could give it." if n < FEW_PAIRS else ""),
                    "correlation", r=r, rho=rho, n=n)]
    if abs(rho) - abs(r) >= 0.2:
        out.append(_insight(f"The rank correlation (ρ = {fixed(rho, 2)}) is stronger than the linear one (r = {fixed(r, 2)}): {a} and {b} move together "
                            f"consistently but not along a straight line.", "correlation_shape", r=r, rho=rho))
    elif abs(r) - abs(rho) >= 0.2:
        out.append(_insight(f"The linear correlation (r = {fixed(r, 2)}) is stronger than the rank correlation (ρ = {fixed(rho, 2)}): "
                            f"a few extreme values may drive it.", "correlation_shape", r=r, rho=rho))
    return out


_GROUP_PAIRS = 10
# Below this many pairs, a correlation finding says chance alone could give it.
FEW_PAIRS = 10


@never_raises
def group_correlation_insights(frame, a, b, by):
    """What pooling the groups of a scatter hides: within every group (10+ complete pairs, neither side
    constant; two groups or more) a correlation of one sign, at least moderate, while over all rows it has
    the other sign or is near zero, or is weaker by 0.2 or more."""
    if frame is None or any(c not in frame.columns for c in (a, b, by)):
        return []
    x = numbers(frame[a])
    y = numbers(frame[b])
    both = np.isfinite(x) & np.isfinite(y)
    xs, ys = x[both], y[both]
    if len(xs) < 3 or xs.min() == xs.max() or ys.min() == ys.max():
        return []
    overall = float(np.clip(np.corrcoef(xs, ys)[0, 1], -1, 1))
    if not math.isfinite(overall):
        return []
    pairs = pd.DataFrame({"g": frame[by].to_numpy()[both], "x": xs, "y": ys}).dropna(subset=["g"])
    rs = []
    for _, group in pairs.groupby("g", sort=False):
        gx, gy = group["x"].to_numpy(), group["y"].to_numpy()
        if len(gx) < _GROUP_PAIRS or gx.min() == gx.max() or gy.min() == gy.max():
            continue
        r = float(np.corrcoef(gx, gy)[0, 1])
        if math.isfinite(r):
            rs.append(float(np.clip(r, -1, 1)))
    if len(rs) < 2:
        return []
    sign = np.sign(rs[0])
    if sign == 0 or any(np.sign(r) != sign for r in rs):
        return []
    weakest = min(abs(r) for r in rs)
    if weakest < 0.3:
        return []
    lo, hi = min(rs), max(rs)
    span = f"r from {fixed(lo, 2)} to {fixed(hi, 2)} in {len(rs)} groups"
    direction = "positive" if sign > 0 else "negative"
    found = dict(overall=overall, r_min=lo, r_max=hi, groups=len(rs))
    if np.sign(overall) != sign or abs(overall) < 0.1:
        pooled = "close to none" if abs(overall) < 0.1 else "positive" if overall > 0 else "negative"
        return [_insight(f"Within each {by} the correlation between {a} and {b} is {direction} ({span}), while over all rows "
                         f"it is {pooled} (r = {fixed(overall, 2)}): the {by} groups differ in both, and pooling them hides the relation within each.",
                         "group_correlation", **found)]
    if weakest - abs(overall) >= 0.2:
        return [_insight(f"Within each {by} the correlation between {a} and {b} is stronger ({span}) than over all rows "
                         f"(r = {fixed(overall, 2)}): the {by} groups differ, and pooling them weakens the relation.",
                         "group_correlation", **found)]
    return []

