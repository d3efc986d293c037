"""Reading a dataset into `df` exactly as pandas would, with the right dialect.

Detection (encoding, delimiter) is ours; parsing is plain pandas with no
renaming and no type coercion, so numbers computed on `df` equal those
computed on a plain `pd.read_csv` of a clean file.
"""
import codecs
import csv
import gzip
import io
import json
import math
import os
import re

import numpy as np
import pandas as pd

from opsmind_semantic import CODES

DELIMITERS = [",", ";", "\t", "|"]
DELIMITED_EXTENSIONS = {".csv", ".tsv", ".tab", ".txt", ".dat", ".psv", ""}
SAMPLE_BYTES = 64 * 1024
CHUNK_BYTES = 1 << 20
MAX_TITLE_LINES = 10
TITLE_SAMPLE_LINES = 50


class DataLoadError(Exception):
    """The file cannot be read as a dataset; the message says why and what to do."""


def detect_encoding(path, head, whole_file=True):
    """Return (encoding, warning or None) for a file whose first bytes are `head`.
    With whole_file=False only the head is checked for UTF-8 (the caller retries on a decode error)."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig", None
    if head.startswith(codecs.BOM_UTF16_LE) or head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16", None
    if _decodes_head(head) if not whole_file else _decodes_fully(path, "utf-8"):
        return "utf-8", None
    if _decodes_fully(path, "cp1252"):
        return "cp1252", "file is not valid UTF-8; read it as Windows-1252 (Latin-1)"
    return "latin-1", "file is not valid UTF-8; read it as Latin-1"


def _decodes_head(head):
    """True when `head` is valid UTF-8, allowing a character cut at its end."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return True
    except UnicodeDecodeError:
        return False


def _open_bytes(path):
    """The file's bytes as read: a gzip-compressed one (.gz) decompressed."""
    return gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb")


def _decodes_fully(path, encoding):
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        with _open_bytes(path) as handle:
            for chunk in iter(lambda: handle.read(CHUNK_BYTES), b""):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def looks_binary(head):
    """True when the first bytes hold NULs (and no UTF-16 BOM explains them)."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    return b"\x00" in head[:8192]


def _field_counts(text, delimiter):
    """Each sampled line's number of fields split by `delimiter` (the last, maybe cut, left out); None on a csv error."""
    try:
        counts = [len(row) for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if row]
    except csv.Error:
        return None
    return counts[:-1] if len(counts) > 2 else counts  # the sample's last line may be cut


WHITESPACE = r"\s+"
_BLANKS = re.compile(r"[ \t]+")
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def split_whitespace(line):
    """The fields of a line split by runs of spaces and tabs outside double quotes, as written (the host's
    splitWhitespace)."""
    if '"' not in line:
        stripped = line.strip()
        return _BLANKS.split(stripped) if stripped else []
    fields, field, quoted = [], "", False
    for char in line:
        if char == '"':
            quoted = not quoted
        if not quoted and char in " \t":
            if field:
                fields.append(field)
            field = ""
        else:
            field += char
    if field:
        fields.append(field)
    return fields


def tabbed(text):
    """`text` with each line's fields split by one tab: a sample of columns lined up with spaces, read as the
    host's engine reads its tab-separated copy."""
    return "\n".join("\t".join(split_whitespace(line)) for line in _LINE_ENDS.split(text))


def _lined_up(text):
    """Every line (but a last one, maybe cut, and short title lines above) splits into the same number of
    fields, two or more, at runs of blanks, and some column below the first line is all numbers (the host's
    linedUp)."""
    rows = [fields for fields in (split_whitespace(line) for line in _LINE_ENDS.split(text)) if fields]
    if len(rows) > 2:
        rows = rows[:-1]
    count = len(rows[-1]) if rows else 0
    start = 0  # title lines above the header, short as title_lines' titles are
    while start < min(MAX_TITLE_LINES, len(rows) - 2) and _is_short(len(rows[start]), count):
        start += 1
    rows = rows[start:]
    if len(rows) < 2 or count < 2 or any(len(fields) != count for fields in rows):
        return False
    return any(all(PLAIN_NUMBER.match(fields[j]) for fields in rows[1:]) for j in range(count))


def sniff_delimiter(text, preferred=","):
    """Pick the delimiter that splits the sample's lines most consistently; when none splits them, a single
    space that splits every line into the same number of fields, two or more (the host's sniffDelimiter); runs
    of spaces, when the columns are lined up with them (WHITESPACE, pandas' sep=r"\s+")."""
    best, best_score = preferred, (0.0, 0)
    for delimiter in DELIMITERS:
        counts = _field_counts(text, delimiter)
        if not counts:
            continue
        mode = max(set(counts), key=counts.count)
        if mode < 2:
            continue
        score = (counts.count(mode) / len(counts), mode)
        if score > best_score or (score == best_score and delimiter == preferred):
            best, best_score = delimiter, score
    if best_score[1] >= 2:
        return best
    if re.search(r" {2}|^ | $", text, re.M):
        return WHITESPACE if _lined_up(text) else best
    counts = _field_counts(text, " ")
    if not counts or min(counts) != max(counts) or counts[0] < 2:
        return best
    # A column of numbers, as a table split by spaces holds: never a list of two-word names.
    rows = [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=" ") if row][1:len(counts)]
    numeric = any(rows and all(j < len(r) and PLAIN_NUMBER.match(r[j]) for r in rows) for j in range(counts[0]))
    return " " if numeric else best


def _is_short(count, mode):
    return count <= 1 or count < mode / 2


def title_lines(text, delimiter, cut=False):
    """(k, lines): the k non-empty lines above the real header (a title, notes) and the physical lines they span.

    They are the first 1..10 non-empty lines, each with at most one field or
    fewer than half of the fields the rest of the sample consistently has.
    (0, 0) for a clean file.
    """
    rows = _sample_rows(text, delimiter, cut)
    if rows is None:
        return 0, 0
    for k in range(1, min(MAX_TITLE_LINES, len(rows) - 2) + 1):
        rest = [count for count, _, _ in rows[k:]]
        mode = max(set(rest), key=rest.count)
        if mode < 2 or not _is_title(rows[k - 1][2], rows[k][2], mode):
            return 0, 0
        if rest.count(mode) / len(rest) < 0.9 or _is_short(rest[0], mode):
            continue  # the header is further down, or the rest is not yet consistent
        return k, rows[k - 1][1]
    return 0, 0


def _sample_rows(text, delimiter, cut):
    """(field count, physical lines read so far, fields) of the sample's first non-empty rows; None on a csv error."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    try:
        for row in reader:
            if any(field.strip() for field in row):
                rows.append((len(row), reader.line_num, row))
            if len(rows) > TITLE_SAMPLE_LINES:
                break
    except csv.Error:
        return None
    rows = rows[:-1] if cut and len(rows) > 2 else rows  # the sample's last line may be cut
    return rows[:TITLE_SAMPLE_LINES]


# A number as a header never names a column (the host's PLAIN_NUMBER).
PLAIN_NUMBER = re.compile(r"^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$")


def _is_title(row, following, mode):
    """A title above the header: at most one field or fewer than half the rest's; or fewer than half of them
    filled ("506,13,,,,…") when the row after it names every column in words (the host's isTitle)."""
    if _is_short(len(row), mode):
        return True
    named = all(f.strip() and not PLAIN_NUMBER.match(f) for f in following)
    return named and _is_short(sum(1 for f in row if f.strip()), mode)


def headerless(text, delimiter, skipped, cut=False):
    """Whether the row after `skipped` title lines is data, not a header: it and the next row, as long, hold
    numbers alone (the next may leave fields empty); the host's findHeader decides the same."""
    rows = _sample_rows(text, delimiter, cut) or []
    if len(rows) < skipped + 2:
        return False
    header, following = rows[skipped][2], rows[skipped + 1][2]
    return (len(header) >= 1 and len(following) == len(header)
            and all(PLAIN_NUMBER.match(f) for f in header)
            and all(PLAIN_NUMBER.match(f) or not f.strip() for f in following)
            and not _names_of_numbers(header))


def _names_of_numbers(header):
    """Numbers that name columns all the same: years (2019, 2020, 2021) or the columns counted out (1, 2, 3 or
    0, 1, 2); the host's namesOfNumbers."""
    values = [f.strip() for f in header]
    if all(YEAR_COLUMN.match(v) for v in values):
        return True
    return values == [str(i) for i in range(len(values))] or values == [str(i + 1) for i in range(len(values))]


def headerless_names(count):
    """column_1, column_2, … (the host's headerlessNames)."""
    return [f"column_{i + 1}" for i in range(count)]


# Lines under the data that are not data (the host's source-footer.ts finds them alike).
FOOTER_TAIL_BYTES = 64 * 1024
FOOTER_LINES = 10
FOOTER_WORDS = re.compile(
    r"^\s*[\"']?(sources?|notes?|quellen?|anmerkung(en)?|hinweis|fuente|nota|remarks?|disclaimer|copyright|©|\*)",
    re.IGNORECASE,
)


def _field_count(line, delimiter):
    quoted, fields = False, 1
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            fields += 1
    return fields


_COMMENT = re.compile(r"^\s*#(\s|-|$)")


def _comment_sections(lines, delimiter, columns):
    """Index of the first blank line after a line of the table's width that is followed by a comment
    line ("# ----", "# Users": an export's sections, as Google Analytics writes them), or -1
    (source-footer.ts commentSections)."""
    table = False
    for i, (_, text) in enumerate(lines):
        if not text.strip():
            following = next((t for _, t in lines[i + 1:] if t.strip()), None)
            if table and following is not None and _COMMENT.match(following):
                return i
        elif not _COMMENT.match(text) and _field_count(text, delimiter) >= columns:
            table = True
    return -1


def footer_in(tail, delimiter, columns, partial_first):
    """(offset, lines) of a footer in `tail` (latin-1 text: one char per byte), or None: an export's
    commented sections below the table (_comment_sections); else the last 1..10 lines, set apart by
    a blank line and shorter than the header or saying what they are ("Note: …"), or, not set apart,
    each one field that says so."""
    lines, start = [], 0
    for text in tail.split("\n"):
        lines.append((start, text[:-1] if text.endswith("\r") else text))
        start += len(text) + 1
    if partial_first:
        lines = lines[1:]
    while lines and not lines[-1][1].strip():
        lines.pop()
    sections = _comment_sections(lines, delimiter, columns) if columns >= 2 else -1
    if sections >= 0:
        return lines[sections][0], [t.strip() for _, t in lines[sections:] if t.strip()]
    i, block = len(lines) - 1, []
    while i >= 0:
        text = lines[i][1]
        short = _field_count(text, delimiter) < columns
        if not text.strip() or not (short or FOOTER_WORDS.match(text)):
            break
        block.insert(0, lines[i])
        i -= 1
    if not block or len(block) > FOOTER_LINES or i < 1 or columns < 2:
        return None
    blank = not lines[i][1].strip()
    if not blank and not all(_field_count(t, delimiter) == 1 and FOOTER_WORDS.match(t) for _, t in block):
        return None
    first = lines[i][0] if blank else block[0][0]
    return first, [t.strip() for _, t in block]


def file_footer(path, delimiter, columns):
    """(byte offset, lines) of the file's footer, or None."""
    size = os.path.getsize(path)
    base = max(0, size - FOOTER_TAIL_BYTES)
    with open(path, "rb") as handle:
        handle.seek(base)
        tail = handle.read()
    found = footer_in(tail.decode("latin-1"), delimiter, columns, base > 0)
    return (base + found[0], found[1]) if found else None


def _header_fields(sample, delimiter, skip_lines):
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
    try:
        for row in reader:
            if reader.line_num > skip_lines and any(field.strip() for field in row):
                return len(row)
    except csv.Error:
        return 0
    return 0


def _footer_warning(lines):
    shown = [json.dumps(line if len(line) <= 60 else line[:57] + "…", ensure_ascii=False) for line in lines]
    more = ", …" if len(lines) > 2 else ""
    return f"left out {len(lines)} line(s) below the data (a footer: {', '.join(shown[:2])}{more})"


_GROUPS = {".": r"\.", ",": ",", " ": " ", "\u00a0": "\u00a0", "\u202f": "\u202f"}


def _text_columns_matching(frame, pattern):
    """(name, column, stripped text of its values) of each text column whose every value matches `pattern`."""
    for name in list(frame.columns):
        column = frame[name]
        if column.dtype != object:
            continue
        text = column.dropna().astype(str).str.strip()
        if not text.empty and text.str.fullmatch(pattern).all():
            yield name, column, text


def apply_number_locale(frame, numbers):
    """Text columns the host's engine read as numbers (decimal commas, thousands separators), converted
    the same way: only a column whose every value is such a number, so "01.02.2024" or "10.0.0.1" stay
    text. `numbers` is {"decimal": "," or ".", "thousands": a separator or None}; None changes nothing."""
    numbers = numbers or {}
    decimal = numbers.get("decimal") if numbers.get("decimal") in (".", ",") else "."
    thousands = numbers.get("thousands") if numbers.get("thousands") in _GROUPS else None
    if decimal == "." and thousands is None:
        return frame
    group = _GROUPS[thousands] if thousands and thousands != decimal else None
    whole = rf"\d{{1,3}}(?:{group}\d{{3}})+|\d+" if group else r"\d+"
    # Signed before, or with a minus after as SAP and other ledgers write a negative ("1.234,56-"): the host's numberCore.
    number = rf"(?:{whole})(?:{re.escape(decimal)}\d+)?"
    core = rf"(?:[+-]?{number}|{number}-)"
    for name, column, _ in _text_columns_matching(frame, rf"^{core}$"):
        plain = _minus_first(column.astype("string").str.strip())
        if group:
            plain = plain.str.replace(thousands, "", regex=False)
        frame[name] = pd.to_numeric(plain.str.replace(decimal, ".", regex=False), errors="coerce")
    return _rewrite_locale_money(frame, decimal, thousands, core)


def _minus_first(text):
    """Text numbers with a minus after them ("1.234,56-") written with it before."""
    return text.where(~text.str.endswith("-", na=False), "-" + text.str.rstrip("-"))


_CURRENCY = r"(?:[$€£¥₹]|" + CODES + ")"
_SPACES = " \u00a0\u202f"


def _rewrite_locale_money(frame, decimal, thousands, core):
    """Text columns of numbers in the locale written with a currency or a percent sign ("2.217,89 €", "12,5 %"),
    every value such a number or a plain one, rewritten with the separators numbers stored as text are read with:
    "2217.89 €" (the sign kept). Not in the default locale, which they are already written in. As the host's
    rewriteLocaleMoney (source-locale.ts)."""
    if decimal == "." and thousands in (None, ","):
        return frame
    money = re.compile(rf"^\s*[-+]?\s*(?:{_CURRENCY}\s*{core}(?:\s*(?:%|{_CURRENCY}))?|{core}\s*(?:%|{_CURRENCY}))\s*$", re.I)
    plain = re.compile(rf"^{core}$")
    # The host removes any space of a space-grouped locale, and every grouping point or comma.
    drop = re.compile(f"[{_SPACES}]" if thousands in _SPACES else re.escape(thousands)) if thousands else None
    for name in list(frame.columns):
        column = frame[name]
        if column.dtype != object:
            continue
        values = column.dropna().astype(str)
        if values.empty or not any(money.match(v) for v in values):
            continue
        if not all(money.match(v) or plain.match(v.strip()) for v in values):
            continue

        def rewrite(value):
            text = value.strip()
            text = "-" + text.rstrip("-") if text.endswith("-") else text
            text = drop.sub("", text) if drop else text
            return text.replace(",", ".") if decimal == "," else text
        frame[name] = column.map(lambda v: rewrite(str(v)) if isinstance(v, str) else v)
    return frame


_NUMERIC_DATE = r"\d{1,2}([./-])\d{1,2}\1\d{4}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"
_TIMES = ("", " %H:%M", " %H:%M:%S", " %H:%M:%S.%f", "T%H:%M", "T%H:%M:%S", "T%H:%M:%S.%f")


def apply_day_first(frame):
    """Text columns of dates written day first (31.12.2024, 31/12/2024 10:30), parsed as the host's
    engine parsed them, so df holds the dates the report shows instead of text that pd.to_datetime
    would read month first. Only a column whose every value is such a date and parses day first."""
    for name, column, text in _text_columns_matching(frame, _NUMERIC_DATE):
        separators = set(text.str.extract(r"^\d{1,2}([./-])", expand=False))
        times = _TIMES if text.str.contains(":", regex=False).any() else ("",)
        stripped = column.astype("string").str.strip()
        parsed = None
        for sep in separators:
            for time in times:
                attempt = pd.to_datetime(stripped, format=f"%d{sep}%m{sep}%Y{time}", errors="coerce")
                parsed = attempt if parsed is None else parsed.fillna(attempt)
        if parsed is None or parsed[column.notna()].isna().any():
            continue
        frame[name] = parsed
    return frame


_OFFSET_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*[+-]\d{2}(?::?\d{2})?$")
_OFFSET = r"\s*[+-]\d{2}(?::?\d{2})?$"
_ZERO_OFFSET = re.compile(r"^[+-]00(?::?00)?$")


def wall_times(frame):
    """Text columns of times written with a UTC offset ("2023-01-01T00:00:00+02:00") read as the times
    they write, the offsets set aside, as the host's engine reads them (source-offsets.ts): a day, a month,
    an hour of the day are the file's own. Only a column whose every value is such a time; one all in
    UTC ("+0000") is read as those instants, without a warning."""
    warnings = []
    for name in frame.columns:
        column = frame[name]
        if column.dtype != object:
            continue
        text = column.dropna().astype(str).str.strip()
        if text.empty or not text.map(lambda v: bool(_OFFSET_TIME.match(v))).all():
            continue
        offsets = text.str.extract(r"([+-]\d{2}(?::?\d{2})?)$", expand=False)
        wall = pd.to_datetime(column.astype("string").str.strip().str.replace(_OFFSET, "", regex=True), errors="coerce")
        if offsets.map(lambda o: bool(_ZERO_OFFSET.match(o))).all():
            # All in UTC: the instants, as the host's engine reads "…+00:00" (TIMESTAMP WITH TIME ZONE).
            frame[name] = wall.dt.tz_localize("UTC")
            continue
        frame[name] = wall
        seen = list(dict.fromkeys(offsets.head(5000)))
        shown = ", ".join(seen[:3]) + (", …" if len(seen) > 3 else "")
        # The name quoted as the host's engine quotes it (JSON.stringify).
        warnings.append(f"read {json.dumps(str(name), ensure_ascii=False)} as the times it writes, its UTC offsets ({shown}) set aside: "
                        "days, months and hours are the file's own")
    return frame, warnings


def _read_delimited(path, extension, numbers=None):
    try:
        with _open_bytes(path) as handle:
            head = handle.read(SAMPLE_BYTES)
    except (OSError, EOFError) as error:  # gzip.BadGzipFile is an OSError
        raise DataLoadError(f"the gzip stream is truncated or damaged ({error}), so not every row could be read") from None
    if not head.strip():
        raise DataLoadError("the file is empty")
    if looks_binary(head):
        raise DataLoadError("the file looks binary (it contains NUL bytes), not like CSV text")
    # Checking a large file's UTF-8 up front costs a full extra pass; read optimistically
    # and fall back to the full detection only if pandas meets an invalid byte.
    encoding, warning = detect_encoding(path, head, whole_file=False)
    try:
        frame, info, warnings = _parse_delimited(path, extension, head, encoding, warning)
    except UnicodeDecodeError:
        encoding, warning = detect_encoding(path, head, whole_file=True)
        frame, info, warnings = _parse_delimited(path, extension, head, encoding, warning)
    frame = apply_number_locale(frame, numbers)
    if (numbers or {}).get("dates") == "DMY":
        frame = apply_day_first(frame)
    frame, walls = wall_times(frame)
    return frame, info, warnings + walls


ROW_NAMES_WARNING = ("the first column holds row names (the header names one column fewer): left out of the columns, "
                     "as pandas keeps them in its index")


# A month written MM.YYYY with its leading zero ("01.2024"): text to the host's engine, which reads a number with
# a leading zero as text; a float to pandas ("10.2020" would be 10.202), so read as text here too.
DOTTED_MONTH = re.compile(r"^(0?[1-9]|1[0-2])\.(?:1[89]|2[01])[0-9]{2}$")


def _dotted_months(sample, delimiter, skipped, cut):
    """{header name: str} for the columns whose every sampled value is a month written MM.YYYY, one at least
    with its leading zero, so read_csv keeps their text (read as months by _read_text_labels)."""
    rows = _sample_rows(sample, delimiter, cut) or []
    if len(rows) < skipped + 2:
        return {}
    header, body = rows[skipped][2], [row[2] for row in rows[skipped + 1:]]
    texts = {}
    for i, name in enumerate(header):
        values = [row[i].strip() for row in body if i < len(row) and row[i].strip()]
        if values and all(DOTTED_MONTH.match(v) for v in values) and any(v.startswith("0") for v in values):
            texts[name] = str
    return texts


def _parse_delimited(path, extension, head, encoding, warning):
    sample = head.decode(encoding, errors="ignore")
    delimiter = sniff_delimiter(sample, "\t" if extension in (".tsv", ".tab") else ",")
    lined_up = delimiter == WHITESPACE
    # Columns lined up with spaces: the header and titles found on the sample with a tab for each run, as the
    # host's engine finds them on its copy; no footer sought.
    sample, split = (tabbed(sample), "\t") if lined_up else (sample, delimiter)
    cut = len(head) == SAMPLE_BYTES
    skipped, skip_lines = title_lines(sample, split, cut=cut)
    warnings = [warning] if warning else []
    if skipped:
        warnings.append(f"skipped {skipped} line(s) above the header (a title?)")
    names = None
    if headerless(sample, split, skipped, cut):
        names = headerless_names(_header_fields(sample, split, skip_lines))
        last = f" … column_{len(names)}" if len(names) > 2 else ", column_2"
        named = "the column named column_1" if len(names) == 1 else f"the columns named column_1{last}"
        warnings.append(f"the first row holds numbers, not names: read as data, {named}")
    footer = None
    if not lined_up and not path.lower().endswith(".gz") and not encoding.startswith(("utf-16", "utf-32")):
        footer = file_footer(path, delimiter, _header_fields(sample, delimiter, skip_lines))
    source = path
    if footer:
        with open(path, "rb") as handle:
            source = io.BytesIO(handle.read(footer[0]))
        warnings.append(_footer_warning(footer[1]))
    texts = {} if names else _dotted_months(sample, split, skipped, cut)
    try:
        frame = pd.read_csv(
            source, sep=delimiter, encoding=encoding, memory_map=not footer, skiprows=skip_lines or None,
            **({"header": None, "names": names} if names else {}), **({"dtype": texts} if texts else {}),
        )
    except pd.errors.EmptyDataError as error:
        raise DataLoadError("the file has no columns to read") from error
    except UnicodeDecodeError:
        if encoding == "utf-8":
            raise  # _read_delimited retries with the whole file checked
        raise DataLoadError(f"the file is not valid {encoding} text") from None
    except (pd.errors.ParserError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DataLoadError(f"not a well-formed delimited file: {first}") from error
    except (OSError, EOFError) as error:  # a gzip stream cut or damaged past its start
        raise DataLoadError(f"the gzip stream is truncated or damaged ({error}), so not every row could be read") from None
    if not names and not isinstance(frame.index, pd.RangeIndex):
        # R's write.csv: each row's name first, and no column named for them. pandas keeps them as the index (the
        # host's engine leaves them out), so the columns are the header's.
        warnings.append(ROW_NAMES_WARNING)
    info = {"format": "csv", "encoding": encoding, "delimiter": delimiter}
    return frame, info, warnings


_NUMBER = (int, float)


def _feature_row(feature):
    """A GeoJSON feature as the host's engine writes its row: properties, the id (unless a property has that
    name), a Point's longitude and latitude, its third coordinate as z (unless a property has that name)."""
    properties = feature.get("properties") if isinstance(feature, dict) else None
    row = dict(properties) if isinstance(properties, dict) else {}
    if not isinstance(feature, dict):
        return row
    key = feature.get("id")
    if isinstance(key, (str,) + _NUMBER) and not isinstance(key, bool) and "id" not in row:
        row["id"] = key
    geometry = feature.get("geometry")
    coordinates = geometry.get("coordinates") if isinstance(geometry, dict) else None
    if (isinstance(geometry, dict) and geometry.get("type") == "Point" and isinstance(coordinates, list)
            and len(coordinates) >= 2 and all(isinstance(c, _NUMBER) and not isinstance(c, bool) for c in coordinates[:2])):
        row["longitude"], row["latitude"] = coordinates[0], coordinates[1]
        # A third coordinate (an altitude, or USGS's depth) as "z", unless a property has that name.
        if len(coordinates) >= 3 and isinstance(coordinates[2], _NUMBER) and not isinstance(coordinates[2], bool) \
                and "z" not in row:
            row["z"] = coordinates[2]
    return row


def _json_object(path, **load):
    """The file as one JSON object (a dict), when it starts as one and parses; else None."""
    with open(path, "rb") as handle:
        head = handle.read(65536)  # the host's sample
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"{":
        return None
    try:
        with open(path, encoding="utf-8-sig") as handle:
            document = json.load(handle, **load)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def _rows_read(rows, warning):
    """Records read as the host reads the JSON lines it writes of them (with its warning)."""
    lines = "\n".join(json.dumps(r, ensure_ascii=False, allow_nan=False) for r in rows)
    frame = pd.read_json(io.StringIO(lines), lines=True, dtype=False, convert_dates=False) if rows else pd.DataFrame()
    return _nested_as_text(_spread_objects(frame)), {"format": "json", "encoding": "utf-8", "delimiter": None}, [warning]


def _read_geojson(path):
    """A GeoJSON FeatureCollection as JSON lines of its features (source-geojson.ts), or None for other JSON."""
    with open(path, "rb") as handle:
        head = handle.read(65536)  # the host's sample: one object naming a FeatureCollection or its features
    if b'"FeatureCollection"' not in head and b'"features"' not in head:
        return None
    document = _json_object(path)
    if not (document is not None and document.get("type") == "FeatureCollection"
            and isinstance(document.get("features"), list)):
        return None
    features = document["features"]
    warning = (f"read as GeoJSON: one row per feature ({len(features)}), its properties as columns, "
               "a Point's longitude and latitude (a third coordinate as z)")
    return _rows_read([_feature_row(f) for f in features], warning)


def _is_records(value):
    return isinstance(value, list) and len(value) > 0 and all(isinstance(x, dict) for x in value)


def _record_keys(document):
    """The keys of a wrapper object holding records (a non-empty list of objects); if none, those one object
    down (Elasticsearch's {"hits": {"hits": [...]}}), as (path, count) pairs (source-wrapper.ts recordKeys)."""
    top = [([k], len(v)) for k, v in document.items() if _is_records(v)]
    if top:
        return top
    return [([k, k2], len(w)) for k, v in document.items() if isinstance(v, dict)
            for k2, w in v.items() if _is_records(w)]


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")  # as JavaScript's JSON.parse, which the host reads with


_DESCRIBED_BYTES = 64 * 1024 * 1024  # a larger file is not parsed whole to look into its one object


def _read_wrapped(path, records=None):
    """A .json file that is one object whose one key holds the records — or, given `records` (the host's
    --records: "nodes", or "hits.hits" one object down), the key so named — as the host reads it: those
    records, read as JSON lines, with the host's warning; None for any other file."""
    if os.path.getsize(path) > _DESCRIBED_BYTES:
        return None
    document = _json_object(path, parse_constant=_no_constant)
    keys = _record_keys(document) if document is not None else []
    if records is not None:
        keys = [(key, count) for key, count in keys if ".".join(key) == records]
    if len(keys) != 1:
        return None
    (key, count), = keys
    node = document
    for k in key:
        node = node[k]
    others = [json.dumps(k, ensure_ascii=False) for k in document if k != key[0]]
    shown = ", ".join(others[:5]) + (", …" if len(others) > 5 else "")
    where = ".".join(json.dumps(k, ensure_ascii=False) for k in key)
    noun = "record" if count == 1 else "records"
    return _rows_read(node, f"read the {count:,} {noun} under {where}" + (f", leaving out {shown}" if others else ""))


def _read_json(path, lines, records=None):
    geo = None if lines else _read_geojson(path)
    if geo is not None:
        return geo
    wrapped = None if lines else _read_wrapped(path, records)
    if wrapped is not None:
        return wrapped
    try:
        frame = pd.read_json(path, lines=lines, orient=None if lines else "records", dtype=False, convert_dates=False)
    except ValueError as error:
        if not lines:
            try:
                return _read_json(path, True)
            except DataLoadError:
                pass
        raise DataLoadError(f"not a JSON {'lines' if lines else 'records'} file: {error}") from error
    frame = _nested_as_text(_spread_objects(frame))
    return frame, {"format": "jsonl" if lines else "json", "encoding": "utf-8", "delimiter": None}, []


def _with_wall_times(frame, info, warnings):
    """A JSON file's times written with a UTC offset as the times they write, as the host's reader reads
    them (source-offsets.ts jsonWallTimes), with its warning."""
    frame, walls = wall_times(frame)
    return frame, info, warnings + walls


# An object column is spread into at most this many columns, objects followed this deep (as the DuckDB engine).
SPREAD_FIELDS, SPREAD_DEPTH = 20, 3


def _objects_only(series):
    present = [v for v in series if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return bool(present) and all(isinstance(v, dict) for v in present)


def _spread_objects(frame):
    """Each column of objects becomes one column per field, "record.high" and "record.low" in its place (as
    pandas' json_normalize names them), three objects deep; an object of more than 20 fields, or whose spread
    names are taken, stays whole. Without it a column of objects is one category per distinct object."""
    level, kept = {}, set()
    while True:
        target = next((c for c in frame.columns
                       if c not in kept and level.get(c, 0) < SPREAD_DEPTH and _objects_only(frame[c])), None)
        if target is None:
            return frame
        keys = list(dict.fromkeys(k for v in frame[target] if isinstance(v, dict) for k in v))
        names = [f"{target}.{k}" for k in keys]
        if not keys or len(keys) > SPREAD_FIELDS or any(n in frame.columns for n in names):
            kept.add(target)
            continue
        spread = {n: pd.Series([v.get(k) if isinstance(v, dict) else None for v in frame[target]], index=frame.index)
                  for n, k in zip(names, keys)}
        parts = []
        for c in frame.columns:
            parts.extend(spread.items() if c == target else [(c, frame[c])])
        frame = pd.DataFrame(dict(parts), index=frame.index)
        level.update({n: level.get(target, 0) + 1 for n in names})


def _nested_as_text(frame):
    """Objects and lists left in a column become compact JSON text, as DuckDB's to_json writes them."""
    for c in frame.columns:
        if frame[c].dtype == object and frame[c].map(lambda v: isinstance(v, (dict, list))).any():
            frame[c] = frame[c].map(lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False)
                                    if isinstance(v, (dict, list)) else v)
    return frame


def _require_engine(modules, extension, package):
    for module in modules:
        try:
            __import__(module)
            return
        except ImportError:
            continue
    raise DataLoadError(f"reading {extension} files needs {' or '.join(modules)}; install it (e.g. apt-get install {package}) or export the data to CSV")


YEAR_NAME = re.compile(r"^\s*(year|yr|jahr|annee|année|ano|año|anno)\s*$", re.IGNORECASE)
MONTH_NAME = re.compile(r"^\s*(month|mon|monat|mois|mes|mese)\s*$", re.IGNORECASE)
QUARTER_NAME = re.compile(r"^\s*(quarter|qtr|quartal|trimestre)\s*$", re.IGNORECASE)
PERIOD = "period"
DATE_NAME = re.compile(r"(^|[^a-z])(date|datetime|timestamp|datum|fecha)([^a-z]|$)", re.IGNORECASE)


def _number_column(frame, pattern):
    for name in frame.columns:
        if isinstance(name, str) and pattern.match(name):
            series = frame[name]
            if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
                return name
            return None
    return None


# A quarter written as text beside its year (the host's QUARTER_TEXT): "Q1", "q3", "Qtr 2", "3".
QUARTER_TEXT = re.compile(r"^(?:[Qq]|[Qq][Tt][Rr])? ?([1-4])$")


def _quarter_text(frame):
    """The first column named as a quarter when it holds text (or False): its values are read by QUARTER_TEXT."""
    for name in frame.columns:
        if isinstance(name, str) and QUARTER_NAME.match(name):
            series = frame[name]
            text = series.dtype == object or pd.api.types.is_string_dtype(series.dtype)
            return name if text and all(isinstance(v, str) for v in series.dropna()) else False
    return False


def _add_period(frame):
    """(frame, warning): a year and a month column (whole years in pandas' range, months 1–12), or else
    a year and a quarter column (quarters 1–4), made one date, "period", the first of each month or
    quarter (the host's source-period.ts does the same)."""
    year, month = _number_column(frame, YEAR_NAME), _number_column(frame, MONTH_NAME)
    part = month if month is not None else _number_column(frame, QUARTER_NAME)
    written = month is None and part is None and _quarter_text(frame)
    if written:
        part = written
    taken = any(str(c).lower() == PERIOD or DATE_NAME.search(str(c)) for c in frame.columns)
    if year is None or part is None or taken:
        return frame, None
    last = 12 if month is not None else 4
    y = frame[year].astype(float)
    if written:
        text = frame[part].map(lambda v: QUARTER_TEXT.match(v.strip(" ")) if isinstance(v, str) else None)
        m = text.map(lambda found: float(found.group(1)) if found else np.nan)
        if bool((frame[part].notna() & m.isna()).any()):
            return frame, None
    else:
        m = frame[part].astype(float)
    both = y.notna() & m.notna()
    whole = bool(((y[both] % 1 == 0) & (m[both] % 1 == 0)).all())
    if int(both.sum()) < 2 or not whole or m[both].nunique() < 2:
        return frame, None
    if not (y[both].min() >= 1678 and y[both].max() <= 2261 and m[both].min() >= 1 and m[both].max() <= last):
        return frame, None
    first_month = m if month is not None else (m - 1) * 3 + 1
    parts = pd.DataFrame({"year": y.where(both), "month": first_month.where(both), "day": 1.0})
    frame = frame.assign(**{PERIOD: pd.to_datetime(parts, errors="coerce")})
    each = "month" if month is not None else "quarter"
    return frame, f'added the column "{PERIOD}": {year} and {part} as one date (the first of each {each}), so the rows are charted over time'


YEAR_COLUMN = re.compile(r"^\s*(1[89]\d\d|20\d\d|2100)\s*$")
WIDE_YEARS = 3


# A number written plainly, or with commas between groups of three digits ("-2,104,000"); a comma
# that can only group digits (two groups, or a point after one).
TEXT_NUMBER = re.compile(r"^[+-]?(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$")
GROUPED = re.compile(r",\d{3}[,.]")


def _only_text_numbers(column):
    """Whether a text column's every value that is there is a number written as text (TEXT_NUMBER)."""
    if not (column.dtype == object or pd.api.types.is_string_dtype(column.dtype)):
        return False
    return all(isinstance(v, str) and TEXT_NUMBER.match(v.strip()) for v in column[column.notna()])


def _all_text_numbers(column):
    """Whether a text column's every value (one at least) is a number written as text."""
    return column.notna().any() and _only_text_numbers(column)


def _text_numbers(frame, years):
    """The year columns of text as numbers ({column: Series}), when every value of each is one
    (budget.json writes "11,266,775" in quotes): commas dropped, whole numbers as int64, else float64.
    None when a value is anything else, or when commas appear but none surely groups digits ("1,234"
    alone may be a decimal comma): the columns stay text (the host's source-wide.ts alike)."""
    if not all(_only_text_numbers(frame[c]) for c in years):
        return None
    texts = {c: frame[c] for c in years}
    present = [v for column in texts.values() for v in column[column.notna()]]
    if any("," in v for v in present) and not any(GROUPED.search(v) for v in present):
        return None
    whole = not any("." in v for v in present)
    out = {}
    for c, column in texts.items():
        cleaned = column.map(lambda v: v.strip().replace(",", "") if isinstance(v, str) else v)
        numbers = pd.to_numeric(cleaned)
        out[c] = numbers.astype("int64") if whole and numbers.notna().all() else numbers.astype("float64")
    return out


def _melt_years(frame):
    """(frame, warning): one column per year (country, 2015, 2016, …) read as rows, "year" and
    "value", row by row and years in column order (the host's source-wide.ts does the same)."""
    # An Excel header cell 2015 is a number: its column is named by the year all the same.
    years = [c for c in frame.columns if isinstance(c, (str, int)) and YEAR_COLUMN.match(str(c))]
    ids = [c for c in frame.columns if c not in years]
    if len(years) < WIDE_YEARS or not ids:
        return frame, None
    numeric = all(pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c]) for c in years)
    if any(str(c).lower() in ("year", "value") for c in ids):
        return frame, None
    if not numeric:
        parsed = _text_numbers(frame, years)
        if parsed is None:
            return frame, None
        frame = frame.copy()
        for c in years:
            frame[c] = parsed[c]
    # Beside year columns of text numbers, a column of text numbers too is another period's value
    # (budget.json's TQ, 1976's transition quarter): kept, it would repeat in every year's rows.
    periods = [] if numeric else [c for c in ids if _all_text_numbers(frame[c])]
    ids = [c for c in ids if c not in periods]
    if not ids:
        return frame, None
    long = frame.melt(id_vars=ids, value_vars=years, var_name="year", value_name="value")
    n = len(frame)
    order = np.arange(len(long)).reshape(len(years), n).T.ravel()
    long = long.iloc[order].reset_index(drop=True)
    long["year"] = long["year"].astype(str).str.strip().astype("int64")
    first, last = str(years[0]).strip(), str(years[-1]).strip()
    left = (f"; left out {', '.join(str(c) for c in periods)}: numbers written as the years' are, a period that is no year, "
            "which would repeat in every year's rows" if periods else "")
    return long, f'read the {len(years)} year columns ({first} … {last}) as rows: one per {ids[0]} and year, in "year" and "value"{left}'


# The months as a column names them (the host's monthOfColumn): "jan" or "january", any case, "sept" too.
MONTH_COLUMNS = {name: i + 1 for i, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
     ("jul", "july"), ("aug", "august"), ("sep", "september", "sept"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")]) for name in names}


def _month_of_column(name):
    return MONTH_COLUMNS.get(str(name).strip().lower()) if isinstance(name, str) else None


def _melt_months(frame):
    """(frame, warning): a year per row and a column per month (YEAR, JAN … DEC) read as rows, one per row and
    month, the date in "period" (the first of the month) and the number in "value", row by row and months in
    column order; only with the twelve months, each numbers, beside a year column of whole years and nothing
    else numeric (the host's meltMonths)."""
    months = [c for c in frame.columns if _month_of_column(c) is not None]
    if len(months) != 12 or len({_month_of_column(c) for c in months}) != 12:
        return frame, None
    numeric = lambda c: pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])  # noqa: E731
    if not all(numeric(c) for c in months):
        return frame, None
    ids = [c for c in frame.columns if c not in months]
    year = next((c for c in ids if isinstance(c, str) and YEAR_NAME.match(c) and numeric(c)), None)
    if year is None or any(c != year and numeric(c) for c in ids):
        return frame, None
    if any(str(c).lower() in ("period", "value") for c in ids):
        return frame, None
    y = frame[year].astype(float)
    present = y.dropna()
    if not bool(((present % 1 == 0) & (present >= 1678) & (present <= 2261)).all()):
        return frame, None
    long = frame.melt(id_vars=ids, value_vars=months, var_name="_month", value_name="value")
    n = len(frame)
    order = np.arange(len(long)).reshape(len(months), n).T.ravel()
    long = long.iloc[order].reset_index(drop=True)
    parts = pd.DataFrame({"year": long[year].astype(float), "month": long["_month"].map(_month_of_column).astype(float),
                          "day": 1.0})
    period = pd.to_datetime(parts, errors="coerce")
    long = long.drop(columns="_month")
    long.insert(len(ids), PERIOD, period)
    first, last = str(months[0]).strip(), str(months[-1]).strip()
    return long, (f'read the 12 month columns ({first} … {last}) as rows: one per {year} and month, '
                  f'in "period" (the first of each month) and "value"')


WIDE_MONTHS, MONTH_TOTAL_TOLERANCE = 3, 1e-4
_NAMED_MONTH_YEAR = re.compile(r"^([A-Za-z]+)[\s\-.]*('?\d{2}|\d{4})$")
_ISO_MONTH_YEAR = re.compile(r"^(\d{4})[-/.](\d{1,2})$")


def month_year_of(name):
    """(year, month) a column is named as ("Jan 2024", "January-2024", "Jan-24", "2024-01"), or None
    (the host's source-wide-months.ts monthYearOf); two-digit years as %y reads them."""
    if not isinstance(name, str):
        return None
    text = name.strip()
    named = _NAMED_MONTH_YEAR.match(text)
    if named:
        month = _month_of_column(named.group(1))
        digits = named.group(2).replace("'", "")
        year = int(digits) if len(digits) == 4 else (2000 + int(digits) if int(digits) < 69 else 1900 + int(digits))
        return None if month is None else (year, month)
    iso = _ISO_MONTH_YEAR.match(text)
    return (int(iso.group(1)), int(iso.group(2))) if iso and 1 <= int(iso.group(2)) <= 12 else None


def _melt_month_years(frame):
    """(frame, warning): a column per month named by its month and year ("Jan 2024" … "Dec 2024") read as
    rows, one per row and month, the date in "period" and the number in "value"; a number column that is
    the sum of the months on every row (a "Total") left out (the host's meltMonthYears)."""
    months = [c for c in frame.columns if month_year_of(c) is not None]
    numeric = lambda c: pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])  # noqa: E731
    if len(months) < WIDE_MONTHS or not all(numeric(c) for c in months):
        return frame, None
    if len({month_year_of(c) for c in months}) != len(months):
        return frame, None
    ids = [c for c in frame.columns if c not in months]
    if not ids or any(str(c).lower() in ("period", "value") for c in ids):
        return frame, None
    summed = frame[months].astype(float).fillna(0).sum(axis=1)
    totals = []
    for c in ids:
        if not numeric(c):
            continue
        t = frame[c].astype(float)
        present = t.notna()
        if present.any() and bool(((t - summed).abs() <= MONTH_TOTAL_TOLERANCE * t.abs() + 1e-6)[present].all()):
            totals.append(c)
    kept = [c for c in ids if c not in totals]
    if not kept:
        return frame, None
    long = frame[kept + months].melt(id_vars=kept, value_vars=months, var_name="_month", value_name="value")
    n = len(frame)
    order = np.arange(len(long)).reshape(len(months), n).T.ravel()
    long = long.iloc[order].reset_index(drop=True)
    at = long["_month"].map(month_year_of)
    parts = pd.DataFrame({"year": at.map(lambda p: p[0]).astype(float), "month": at.map(lambda p: p[1]).astype(float), "day": 1.0})
    long = long.drop(columns="_month")
    long.insert(len(kept), PERIOD, pd.to_datetime(parts, errors="coerce"))
    first, last = str(months[0]).strip(), str(months[-1]).strip()
    left = (f"; left out {', '.join(str(c) for c in totals)}: the sum of the months on every row, which would repeat in "
            "every month's row") if totals else ""
    return long, (f'read the {len(months)} month columns ({first} … {last}) as rows: one per {kept[0]} and month, '
                  f'in "period" (the first of each month) and "value"{left}')


# A name that says a column holds a moment, and the seconds since 1970 of 1990-01-01 and 2100-01-01
# (the host's source-epoch.ts).
TIME_NAME = re.compile(r"(^|[^a-z])(time|timestamp|ts|date|datetime|epoch|created|updated|modified)([^a-z]|$)|_at$",
                       re.IGNORECASE)
TIME_SUFFIX = re.compile(r"[a-z](At|Time)$")
EPOCH_FROM, EPOCH_TO = 631_152_000, 4_102_444_800
# YYYYMMDD of pandas' first and last whole days: dates written as 8-digit numbers (19580329).
YMD_FROM, YMD_TO = 16_780_101, 22_620_411


def _ymd_dates(values):
    """Whole numbers written YYYYMMDD as dates (NaT where a number is no date)."""
    whole = values.astype(float).round().astype("Int64").astype("string")
    return pd.to_datetime(whole, format="%Y%m%d", errors="coerce")


# A name that says a column holds a duration, and a duration written h:mm:ss (the host's source-durations.ts).
DURATION_NAME = re.compile(r"(duration|elapsed|runtime|spent|worked|tracked)|"
                           r"(moving|talk|handle|hold|wait|ride|trip|run|work|response|resolution|total)[ _-]?time",
                           re.IGNORECASE)
_HMS = re.compile(r"^\d{1,4}:[0-5]\d:[0-5]\d(\.\d+)?$")


def _read_durations(frame):
    """(frame, warnings): each column named as a duration whose every value is written h:mm:ss ("01:23:45",
    as time trackers export them) read as a number of hours — minutes when every one is under an hour —
    in a column named so ("Duration (hours)"), as the host's engine reads it."""
    warnings = []
    for name in list(frame.columns):
        if not isinstance(name, str) or not DURATION_NAME.search(name) or frame[name].dtype != object:
            continue
        text = frame[name].dropna().astype(str).str.strip()
        if text.empty or not text.map(lambda v: bool(_HMS.match(v))).all():
            continue
        parts = frame[name].astype("string").str.strip().str.split(":", expand=True).astype(float)
        secs = parts[0] * 3600 + parts[1] * 60 + parts[2]
        unit, per = ("minutes", 60) if secs.max() < 3600 else ("hours", 3600)
        renamed = f"{name} ({unit})"
        if renamed in frame.columns:
            continue
        frame[name] = (secs / per).astype(float)
        frame = frame.rename(columns={name: renamed})
        warnings.append(f"read {json.dumps(name, ensure_ascii=False)}, written h:mm:ss, as a number of {unit}, "
                        f"in {json.dumps(renamed, ensure_ascii=False)}")
    return frame, warnings


def _read_epochs(frame):
    """(frame, warnings): each column named as a time whose every number is seconds, or milliseconds, since
    1970 between 1990 and 2100, read as those dates (UTC, to the microsecond), in place; or whose every
    number writes a date as YYYYMMDD (19580329), read as that date."""
    warnings = []
    for column in list(frame.columns):
        name, values = str(column), frame[column]
        if not (TIME_NAME.search(name) or TIME_SUFFIX.search(name)):
            continue
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        present = values.dropna().astype(float)
        if present.empty:
            continue
        seconds = bool(((present >= EPOCH_FROM) & (present < EPOCH_TO)).all())
        millis = bool(((present >= EPOCH_FROM * 1000) & (present < EPOCH_TO * 1000)).all())
        if not (seconds or millis):
            in_range = bool(((present >= YMD_FROM) & (present <= YMD_TO) & (present % 1 == 0)).all())
            dates = _ymd_dates(values) if in_range else None
            if dates is not None and bool(dates[values.notna()].notna().all()):
                frame = frame.assign(**{column: dates.astype("datetime64[ns]")})
                warnings.append(f'read "{name}" as dates: its numbers write each date as YYYYMMDD')
            continue
        micros = (values.astype(float) * (1_000_000 if seconds else 1_000)).round()
        # Whole microseconds as integers: a float's conversion would land a microsecond off.
        dates = pd.Series(pd.NaT, index=frame.index, dtype="datetime64[ns]")
        known = micros.notna()
        dates[known] = pd.to_datetime(micros[known].astype("int64"), unit="us")
        frame = frame.assign(**{column: dates})
        unit = "seconds" if seconds else "milliseconds"
        warnings.append(f'read "{name}" as dates: its numbers are {unit} since 1970-01-01 (UTC)')
    return frame, warnings


# Periods written as labels (the host's source-labels.ts): quarters ("Q1 2022", "Q4-23", "Qtr 2 2024", then
# "2022 Q1", "2022/Q1") and months ("Jan-23", "01/2024"); pandas reads 1974Q1 and 1974-q3 itself.
QUARTER_FIRST = re.compile(r"^(?:[Qq]|[Qq][Tt][Rr]) ?([1-4]) *[-/.' ] *'?((?:1[89]|2[01])[0-9]{2}|[0-9]{2})$")
YEAR_FIRST = re.compile(r"^((?:1[89]|2[01])[0-9]{2}) *[-/. ]? *(?:[Qq]|[Qq][Tt][Rr]) ?([1-4])$")
MONTH_NAMED = re.compile(r"(?i)^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july"
                         r"|august|september|october|november|december)\.?(?:-|'|-'| ')([0-9]{2})$")
MONTH_NUMBERED = re.compile(r"^(0?[1-9]|1[0-2])[-/.]((?:1[89]|2[01])[0-9]{2})$")
SCREEN_ROWS = 100
WEEK_YEAR_FIRST = re.compile(r"^((?:1[89]|2[01])[0-9]{2}) ?-? ?[Ww](0?[1-9]|[1-4][0-9]|5[0-3])$")
WEEK_FIRST = re.compile(r"^(?:[Ww]|[Kk][Ww]) ?(0?[1-9]|[1-4][0-9]|5[0-3]) *[-/ ] *((?:1[89]|2[01])[0-9]{2})$")
MONTH_WORDS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
# Each kind: its unit, its forms (pattern, year group, part group, the part's first month), pandas' own forms.
LABEL_KINDS = [
    ("quarter", [(QUARTER_FIRST, 2, 1, lambda q: (int(q) - 1) * 3 + 1), (YEAR_FIRST, 1, 2, lambda q: (int(q) - 1) * 3 + 1)],
     re.compile(r"^[0-9]{4}-?[Qq][1-4]$")),
    ("month", [(MONTH_NAMED, 2, 1, lambda m: MONTH_WORDS.index(m[:3].lower()) + 1), (MONTH_NUMBERED, 2, 1, int)], None),
    # An ISO week: no month, its Monday.
    ("week", [(WEEK_YEAR_FIRST, 1, 2, None), (WEEK_FIRST, 2, 1, None)], None),
]
MONTH_NUMBER_NAME = re.compile(r"(^|[^a-z])(month|period|yyyymm|yearmonth|monat|periode)([^a-z]|$)|month$", re.IGNORECASE)


def _label_start(forms, label):
    """The first day of the period a label writes (a two-digit year as %y reads it), or None."""
    for pattern, year_group, part_group, month in forms:
        match = pattern.match(label)
        if match:
            year = match.group(year_group)
            number = int(year) + ((2000 if int(year) < 69 else 1900) if len(year) == 2 else 0)
            if month is None:  # the Monday of ISO week `part` (week 1 holds January 4th), as the host's isoWeekSql
                jan4 = pd.Timestamp(year=number, month=1, day=4)
                return jan4 - pd.Timedelta(days=jan4.isoweekday() - 1) + pd.Timedelta(weeks=int(match.group(part_group)) - 1)
            return pd.Timestamp(year=number, month=month(match.group(part_group)), day=1)
    return None


def _label_kind(labels):
    """The unit and forms of the kind every label is written in (and not all in pandas' own forms), or None."""
    for unit, forms, pandas_reads in LABEL_KINDS:
        if not labels.map(lambda v: any(p.match(v) for p, *_ in forms)).all():
            continue
        if pandas_reads is not None and labels.map(lambda v: bool(pandas_reads.match(v))).all():
            return None
        return unit, forms
    return None


def _read_text_labels(frame):
    """(frame, warnings): each text column whose every value is a period label pandas does not read
    ("Q1 2022", "2022 Q3", "Jan-23", "01/2024") read as dates, the first day of each period, in place."""
    warnings = []
    for column in list(frame.columns):
        values = frame[column]
        if not (values.dtype == object or pd.api.types.is_string_dtype(values.dtype)):
            continue
        present = values.dropna()
        if present.empty or not all(isinstance(v, str) for v in present):
            continue
        # Screened on the first rows first (the host's SCREEN_ROWS), as a file may have thousands of columns.
        head = values.head(SCREEN_ROWS).dropna()
        head = head[head.str.strip(" ") != ""].str.strip(" ")
        if head.empty or not any(head.map(lambda v: any(p.match(v) for p, *_ in forms)).all() for _, forms, _ in LABEL_KINDS):
            continue
        labels = present.str.strip(" ")
        kind = _label_kind(labels)
        if kind is None:
            continue
        unit, forms = kind
        starts = values.map(lambda v: _label_start(forms, v.strip(" ")) if isinstance(v, str) else None)
        frame = frame.assign(**{column: pd.to_datetime(starts).astype("datetime64[ns]")})
        name = json.dumps(str(column), ensure_ascii=False)
        warnings.append(f"read {name} as dates: each {unit} (such as {json.dumps(min(labels), ensure_ascii=False)}) "
                        f"as its {'Monday' if unit == 'week' else 'first day'}")
    return frame, warnings


def _read_month_numbers(frame):
    """(frame, warnings): each column named as a month or period whose every value is a whole number writing
    a month as YYYYMM (190001–210012), two at least, read as the first day of that month."""
    warnings = []
    for column in list(frame.columns):
        values = frame[column]
        if not MONTH_NUMBER_NAME.search(str(column)):
            continue
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        present = values.dropna().astype(float)
        months = (present % 1 == 0) & (present >= 190001) & (present <= 210012) & ((present % 100).between(1, 12))
        if present.empty or not bool(months.all()) or present.nunique() < 2:
            continue
        whole = values.astype(float)
        parts = pd.DataFrame({"year": whole // 100, "month": whole % 100, "day": 1.0})
        frame = frame.assign(**{column: pd.to_datetime(parts, errors="coerce").astype("datetime64[ns]")})
        warnings.append(f"read {json.dumps(str(column), ensure_ascii=False)} as dates: its numbers write each month as YYYYMM")
    return frame, warnings


def _read_labels(frame):
    """(frame, warnings): period labels read as dates, text labels then YYYYMM numbers (the host's readLabels)."""
    frame, texts = _read_text_labels(frame)
    frame, numbers = _read_month_numbers(frame)
    return frame, texts + numbers


# A subtotal's label and the group it totals (the host's SUBTOTAL_LABEL, semantics-aggregates.ts).
SUBTOTAL_LABEL = re.compile(r"(?i)^(.+?) +(?:sub-?)?(?:total|totaal|ergebnis|summe|gesamt)$|^(?:sub-?)?(?:total|totale|summe) +(?:(?:for|of) +)?(.+)$")
PIVOT_COLUMNS = 10


def _subtotal_stem(value):
    """The lower-case group a subtotal's label totals ("North Total" → "north"), or None."""
    match = SUBTOTAL_LABEL.match(value.strip(" ")) if isinstance(value, str) else None
    return (match.group(1) or match.group(2)).lower() if match else None


def _fill_pivot_labels(frame):
    """(frame, warnings): a compact pivot's blank label cells — between a label and its own subtotal, in file
    order — filled with the label, in the leftmost text columns (the host's fillPivotLabels)."""
    warnings = []
    texts = [c for c in frame.columns if frame[c].dtype == object][:PIVOT_COLUMNS]
    for column in texts:
        values = frame[column]
        blank = values.isna()
        if not blank.any() or not values[~blank].map(_subtotal_stem).notna().any():
            continue
        before, after = values.ffill().shift(1), values.bfill().shift(-1)
        fill = blank & before.notna() & (after.map(_subtotal_stem) == before.map(
            lambda v: v.strip(" ").lower() if isinstance(v, str) else None))
        if not fill.any():
            continue
        frame = frame.assign(**{column: values.where(~fill, before)})
        example = json.dumps(str(min(before[fill])), ensure_ascii=False)
        warnings.append(f"filled {int(fill.sum())} blank {json.dumps(str(column), ensure_ascii=False)} cell(s) with the group label above "
                        f"them, as a pivot table's compact layout leaves them blank down to the group's subtotal (such as {example})")
        frame, heading = _drop_headings(frame, column)
        warnings += [heading] if heading else []
    return frame, warnings


def _drop_headings(frame, column):
    """(frame, warning or None): without the rows that hold only a group's label, every other cell blank,
    above the group's rows (QuickBooks' "Checking" over its transactions): a report's heading, not a record,
    which would count once more in the rows of its group (the host's dropHeadings)."""
    values = frame[column]
    bare = frame.drop(columns=[column]).isna().all(axis=1)
    heading = values.notna() & bare & (values.shift(-1) == values) & values.map(_subtotal_stem).isna()
    if not heading.any():
        return frame, None
    example = json.dumps(str(min(values[heading])), ensure_ascii=False)
    return frame[~heading].reset_index(drop=True), (
        f"left out {int(heading.sum())} row(s) that hold only a group's label in {json.dumps(str(column), ensure_ascii=False)}, above the group's "
        f"rows, every other cell blank (such as {example}): a report's heading, not a record")


TOTAL_TOLERANCE = 1e-3


def _drop_total_row(frame):
    """The frame without a last row that totals the rows above with no label (Google Analytics'
    total under its days; a sheet's SUM at its foot), and the warning, or None: every column not a
    number blank on it, one of them filled on every other row, and a number column holding the sum
    of the rows above within 0.1%. As the host's engine reads it (source-total-row.ts)."""
    if len(frame) < 5:
        return frame, None
    numeric = [i for i, (_, c) in enumerate(frame.items())
               if pd.api.types.is_numeric_dtype(c) and not pd.api.types.is_bool_dtype(c)]
    labels = [i for i in range(frame.shape[1]) if i not in numeric]
    if not numeric or not labels:
        return frame, None
    last, above = frame.iloc[-1], frame.iloc[:-1]
    if not all(pd.isna(last.iloc[i]) for i in labels) or not any(above.iloc[:, i].notna().all() for i in labels):
        return frame, None
    for i in numeric:
        value, total = last.iloc[i], float(above.iloc[:, i].astype(float).sum())
        if pd.notna(value) and math.isfinite(total) and total != 0 and abs(float(value) - total) <= TOTAL_TOLERANCE * abs(total):
            name = json.dumps(str(frame.columns[i]), ensure_ascii=False)
            return frame.iloc[:-1], f"left out the last row: a total of the rows above (no label, its {name} their sum)"
    return frame, None


def read_dataset(path, numbers=None):
    """The file as read (_read_dataset); one column per year melted into rows (_melt_years), a year
    and a month column made one date, "period", and times written as numbers since 1970 read as dates."""
    frame, info, warnings = _read_dataset(path, numbers)
    frame, total = _drop_total_row(frame)
    frame, melted = _melt_years(frame)
    if melted is None:
        frame, melted = _melt_months(frame)
    if melted is None:
        frame, melted = _melt_month_years(frame)
    frame, pivot = _fill_pivot_labels(frame)
    frame, added = _add_period(frame)
    frame, labels = _read_labels(frame)
    frame, epochs = _read_epochs(frame)
    frame, durations = _read_durations(frame)
    return frame, info, warnings + [w for w in [total, melted] if w] + pivot + [w for w in [added] if w] + labels + epochs + durations


def _read_dataset(path, numbers=None):
    """Read `path` into a DataFrame; return (df, info, warnings). Raises DataLoadError.
    `numbers` ({"decimal", "thousands", "dates"}) is how the host's engine read the numbers of a delimited
    file, and "dates": "DMY" that its numeric dates read day first; "records" the key of a JSON wrapper whose
    records the host read (--records)."""
    if not os.path.exists(path):
        raise DataLoadError(f"no such file: {path}")
    if os.path.isdir(path):
        raise DataLoadError(f"{path} is a directory, not a data file")
    if os.path.getsize(path) == 0:
        raise DataLoadError("the file is empty")
    extension = os.path.splitext(path)[1].lower()
    if extension == ".json":
        return _with_wall_times(*_read_json(path, False, (numbers or {}).get("records")))
    if extension in (".jsonl", ".ndjson"):
        return _with_wall_times(*_read_json(path, True))
    if extension in (".xlsx", ".xlsm", ".xls"):
        _require_engine(["openpyxl"] if extension != ".xls" else ["xlrd"], extension, "python3-openpyxl")
        return pd.read_excel(path), {"format": "excel", "encoding": None, "delimiter": None}, []
    if extension == ".parquet":
        _require_engine(["pyarrow", "fastparquet"], extension, "python3-pyarrow")
        return pd.read_parquet(path), {"format": "parquet", "encoding": None, "delimiter": None}, []
    if extension == ".gz":  # a gzip-compressed delimited file (data.csv.gz, data.tsv.gz), as the host reads it
        extension = os.path.splitext(path[:-3])[1].lower()
    return _read_delimited(path, extension, numbers)
