"""opsmind_data: messy files load into `df` exactly as pd.read_csv of the clean file would."""
import csv
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import pandas as pd  # noqa: E402
from pandas.testing import assert_frame_equal  # noqa: E402

import opsmind_data  # noqa: E402
from opsmind_data import DataLoadError, read_dataset, sniff_delimiter  # noqa: E402

HEADER = ["region", "sales", "units", "note"]
ROWS = [
    ["North", "10.5", "3", "first"],
    ["South", "", "4", "no sales yet"],
    ["Zürich", "7.25", "1", "São Paulo branch"],
    ["East", "1000", "12", "x"],
]


def dialect_text(header, rows, delimiter=",", newline="\n"):
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _importable(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


class DataTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        self.addCleanup(self._tmp.cleanup)

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as handle:
            handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))
        return path

    def clean(self, header=HEADER, rows=ROWS):
        """What a plain pd.read_csv makes of the clean UTF-8 comma version."""
        path = self.write("clean_reference.csv", dialect_text(header, rows))
        return pd.read_csv(path)

    def assert_loads_like_clean(self, path, header=HEADER, rows=ROWS):
        df, info, warnings = read_dataset(path)
        assert_frame_equal(df, self.clean(header, rows))
        return info, warnings


class DialectTests(DataTestCase):
    def test_utf8_bom_is_stripped_from_first_header(self):
        info, warnings = self.assert_loads_like_clean(self.write("bom.csv", b"\xef\xbb\xbf" + dialect_text(HEADER, ROWS).encode()))
        self.assertEqual(info["encoding"], "utf-8-sig")
        self.assertEqual(warnings, [])

    def test_cr_only_line_ends(self):
        self.assert_loads_like_clean(self.write("cr.csv", dialect_text(HEADER, ROWS, newline="\r")))

    def test_crlf_line_ends(self):
        self.assert_loads_like_clean(self.write("crlf.csv", dialect_text(HEADER, ROWS, newline="\r\n")))

    def test_semicolon_delimiter(self):
        info, _ = self.assert_loads_like_clean(self.write("semi.csv", dialect_text(HEADER, ROWS, ";")))
        self.assertEqual(info["delimiter"], ";")

    def test_tab_delimiter_with_tsv_extension(self):
        info, _ = self.assert_loads_like_clean(self.write("tabs.tsv", dialect_text(HEADER, ROWS, "\t")))
        self.assertEqual(info["delimiter"], "\t")

    def test_tab_delimiter_with_csv_extension(self):
        info, _ = self.assert_loads_like_clean(self.write("tabs.csv", dialect_text(HEADER, ROWS, "\t")))
        self.assertEqual(info["delimiter"], "\t")

    def test_pipe_delimiter(self):
        info, _ = self.assert_loads_like_clean(self.write("pipes.txt", dialect_text(HEADER, ROWS, "|")))
        self.assertEqual(info["delimiter"], "|")

    def test_file_name_with_spaces_equals_and_plus(self):
        self.assert_loads_like_clean(self.write("my data =+ v2.csv", dialect_text(HEADER, ROWS)))

    def test_header_cells_keep_their_spaces(self):
        header = [" Region ", "sales ", "units", "note"]
        df, _, _ = read_dataset(self.write("spaces.csv", dialect_text(header, ROWS, ";")))
        self.assertEqual(list(df.columns), header)
        assert_frame_equal(df, self.clean(header, ROWS))

    def test_unnamed_index_column_is_kept_as_pandas_names_it(self):
        path = os.path.join(self.dir, "indexed.csv")
        pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}).to_csv(path)
        df, _, _ = read_dataset(path)
        self.assertEqual(list(df.columns), ["Unnamed: 0", "a", "b"])
        assert_frame_equal(df, pd.read_csv(path))

    def test_quoted_fields_with_delimiter_and_newlines(self):
        rows = [["North", "1.5", "2", "a, b; c\nsecond line"], ["South", "2.5", "3", 'say "hi"']]
        for delimiter in (",", ";"):
            with self.subTest(delimiter=delimiter):
                path = self.write(f"quoted{ord(delimiter)}.csv", dialect_text(HEADER, rows, delimiter))
                self.assert_loads_like_clean(path, HEADER, rows)

    def test_header_only_file_has_columns_and_no_rows(self):
        df, _, _ = read_dataset(self.write("header.csv", "a,b,c\n"))
        self.assertEqual(list(df.columns), ["a", "b", "c"])
        self.assertEqual(len(df), 0)


class EncodingTests(DataTestCase):
    LATIN = [["café", "1", "2", "niño"], ["Müller", "3", "4", "€5 fee"]]

    def test_windows_1252_text_decodes_and_warns(self):
        raw = dialect_text(HEADER, self.LATIN).encode("cp1252")
        self.assertIn(b"\x80", raw)  # the euro sign: only Windows-1252 has it
        self.assertIn(b"\xe9", raw)  # é in Latin-1
        info, warnings = self.assert_loads_like_clean(self.write("latin.csv", raw), HEADER, self.LATIN)
        self.assertEqual(info["encoding"], "cp1252")
        self.assertEqual(len(warnings), 1)
        self.assertIn("not valid UTF-8", warnings[0])

    def test_bytes_undefined_in_cp1252_fall_back_to_latin1(self):
        raw = "name,v\ncafé,1\n".encode("latin-1") + b"x\x81y,2\n"
        df, info, warnings = read_dataset(self.write("latin1.csv", raw))
        self.assertEqual(info["encoding"], "latin-1")
        self.assertEqual(list(df["name"]), ["café", "x\x81y"])
        self.assertTrue(warnings)

    def test_utf16_with_bom(self):
        raw = dialect_text(HEADER, ROWS, "\t", "\r\n").encode("utf-16")
        info, warnings = self.assert_loads_like_clean(self.write("wide.csv", raw))
        self.assertEqual(info["encoding"], "utf-16")
        self.assertEqual(warnings, [])


class JsonTests(DataTestCase):
    RECORDS = [{"region": "North", "sales": 10.5, "units": 3}, {"region": "Zürich", "sales": 7.25, "units": 1}]

    def expected(self):
        return self.clean(["region", "sales", "units"], [[r["region"], r["sales"], r["units"]] for r in self.RECORDS])

    def test_json_records(self):
        df, info, _ = read_dataset(self.write("records.json", json.dumps(self.RECORDS)))
        assert_frame_equal(df, self.expected())
        self.assertEqual(info["format"], "json")

    def test_json_objects_spread_into_columns_as_the_duckdb_engine(self):
        records = [{"id": 1, "tags": ["a", "b"], "meta": {"x": 1, "at": {"lat": 1.5}}},
                   {"id": 2, "tags": [], "meta": {"x": 2, "at": None}},
                   {"id": 3, "tags": ["c"], "meta": None}]
        df, _, _ = read_dataset(self.write("nested.json", json.dumps(records)))
        self.assertEqual(list(df.columns), ["id", "tags", "meta.x", "meta.at.lat"])
        self.assertEqual(df["tags"].tolist(), ['["a","b"]', "[]", '["c"]'])
        self.assertEqual(df["meta.x"].tolist()[:2], [1, 2])
        self.assertTrue(pd.isna(df["meta.x"].iloc[2]) and pd.isna(df["meta.at.lat"].iloc[1]))
        # Past three objects deep, past 20 fields, or where a spread name is taken: JSON text.
        awkward = [{"deep": {"a": {"b": {"c": {"d": 1}}}}, "wide": {f"f{i}": i for i in range(21)},
                    "clash": {"y": 1}, "clash.y": 0}]
        df, _, _ = read_dataset(self.write("awkward.json", json.dumps(awkward)))
        self.assertEqual(list(df.columns), ["deep.a.b.c", "wide", "clash", "clash.y"])
        self.assertEqual(df["deep.a.b.c"].iloc[0], '{"d":1}')

    def test_jsonl(self):
        df, info, _ = read_dataset(self.write("records.jsonl", "\n".join(json.dumps(r) for r in self.RECORDS) + "\n"))
        assert_frame_equal(df, self.expected())
        self.assertEqual(info["format"], "jsonl")

    def test_json_file_holding_json_lines_falls_back(self):
        df, _, _ = read_dataset(self.write("lines.json", "\n".join(json.dumps(r) for r in self.RECORDS)))
        assert_frame_equal(df, self.expected())

    def test_json_strings_stay_strings(self):
        records = [{"zip": "00123", "date": "2024-01-05"}, {"zip": "01234", "date": "2024-02-01"}]
        df, _, _ = read_dataset(self.write("zips.json", json.dumps(records)))
        self.assertEqual(list(df["zip"]), ["00123", "01234"])
        self.assertEqual(list(df["date"]), ["2024-01-05", "2024-02-01"])

    def test_a_wrappers_one_key_of_records_is_the_table(self):
        wrapped = {"meta": {"n": 2}, "data": self.RECORDS, "status": "ok"}
        df, info, warnings = read_dataset(self.write("wrapped.json", json.dumps(wrapped, indent=2)))
        assert_frame_equal(df, self.expected())
        self.assertEqual(info["format"], "json")
        self.assertEqual(warnings, ['read the 2 records under "data", leaving out "meta", "status"'])
        # One object down (Elasticsearch), only when no key at the top holds records.
        nested = {"took": 1, "hits": {"hits": self.RECORDS}, "aggs": {"x": [{"k": 1}]}, "top": [{"t": 1}]}
        self.assertEqual(opsmind_data._record_keys(nested), [(["top"], 1)])
        del nested["top"]
        self.assertEqual(opsmind_data._record_keys(nested), [(["hits", "hits"], 2), (["aggs", "x"], 1)])
        del nested["aggs"]
        df, _, warnings = read_dataset(self.write("hits.json", json.dumps(nested)))
        assert_frame_equal(df, self.expected())
        self.assertEqual(warnings, ['read the 2 records under "hits"."hits", leaving out "took"'])

    def test_what_is_not_one_key_of_records_is_not_unwrapped(self):
        for name, text in [("two.json", {"nodes": [{"a": 1}], "links": [{"b": 2}]}),
                           ("none.json", {"values": [1, 2], "empty": [], "nulls": [None]})]:
            self.assertIsNone(opsmind_data._read_wrapped(self.write(name, json.dumps(text))), name)
        # NaN is not JSON: JavaScript's JSON.parse, which the host reads with, refuses it.
        self.assertIsNone(opsmind_data._read_wrapped(self.write("nan.json", '{"data": [{"a": NaN}]}')))


class EngineTests(DataTestCase):
    @unittest.skipIf(_importable("openpyxl"), "openpyxl is installed")
    def test_excel_without_engine_says_what_to_install(self):
        with self.assertRaises(DataLoadError) as caught:
            read_dataset(self.write("book.xlsx", b"PK\x03\x04not really"))
        self.assertIn("openpyxl", str(caught.exception))
        self.assertIn("CSV", str(caught.exception))

    @unittest.skipIf(_importable("pyarrow") or _importable("fastparquet"), "a parquet engine is installed")
    def test_parquet_without_engine_says_what_to_install(self):
        with self.assertRaises(DataLoadError) as caught:
            read_dataset(self.write("table.parquet", b"PAR1\x00\x00PAR1"))
        self.assertIn("pyarrow", str(caught.exception))


class ErrorTests(DataTestCase):
    def assert_load_error(self, path, *fragments):
        with self.assertRaises(DataLoadError) as caught:
            read_dataset(path)
        message = str(caught.exception)
        self.assertTrue(message.strip())
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_missing_file(self):
        self.assert_load_error(os.path.join(self.dir, "nope.csv"), "no such file")

    def test_directory(self):
        self.assert_load_error(self.dir, "directory")

    def test_empty_file(self):
        self.assert_load_error(self.write("empty.csv", b""), "empty")

    def test_whitespace_only_file(self):
        self.assert_load_error(self.write("blank.csv", b"  \n\t\r\n   \n"), "empty")

    def test_binary_file(self):
        self.assert_load_error(self.write("image.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00" + bytes(200)), "binary")

    def test_columns_lined_up_with_spaces(self):
        text = "READINGS\r\n  site          day   temp\r\n  \"north ridge\" 1     12.5\r\n\r\n  valley        2    -1.0\r\n"
        df, info, warnings = read_dataset(self.write("stations.dat", text.encode()))
        self.assertEqual(info["delimiter"], r"\s+")
        self.assertEqual(list(df.columns), ["site", "day", "temp"])
        self.assertEqual(df.values.tolist(), [["north ridge", 1, 12.5], ["valley", 2, -1.0]])
        self.assertIn("skipped 1 line(s) above the header (a title?)", warnings)

    def test_numbers_lined_up_without_a_header(self):
        df, info, _ = read_dataset(self.write("powers.csv", b" 0   0    0\n 1   1    1\n 2   4    8\n 3   9   27\n"))
        self.assertEqual(list(df.columns), ["column_1", "column_2", "column_3"])
        self.assertEqual(df["column_3"].tolist(), [0, 1, 8, 27])


class SniffTests(unittest.TestCase):
    def test_plain_delimiters(self):
        for delimiter in (",", ";", "\t", "|"):
            with self.subTest(delimiter=repr(delimiter)):
                self.assertEqual(sniff_delimiter(dialect_text(HEADER, ROWS, delimiter)), delimiter)

    def test_comma_file_whose_text_has_semicolons(self):
        sample = "id,desc,val\n1,a;b;c,2\n2,d;e,3\n3,f;g,4\n"
        self.assertEqual(sniff_delimiter(sample), ",")

    def test_semicolon_file_with_decimal_commas(self):
        self.assertEqual(sniff_delimiter("a;b\n1,5;2,5\n3,0;4,25\n7,1;8,2\n"), ";")

    def test_single_column_keeps_preferred(self):
        self.assertEqual(sniff_delimiter("name\nalpha\nbeta\n"), ",")
        self.assertEqual(sniff_delimiter("name\nalpha\nbeta\n", "\t"), "\t")

    def test_cut_last_line_is_ignored(self):
        self.assertEqual(sniff_delimiter("a;b;c\n1;2;3\n4;5;6\n7;8"), ";")

    def test_all_declared_delimiters_are_tried(self):
        self.assertEqual(set(opsmind_data.DELIMITERS), {",", ";", "\t", "|"})


class NumberLocaleTest(unittest.TestCase):
    """The host's reading of a file's numbers, applied to pandas' text columns (opsmind_data.apply_number_locale)."""

    def frame(self):
        return pd.DataFrame({"amount": ["1.234,56", "12,5", None], "ip": ["10.0.0.1", "1.2.3.4", "5.6.7.8"],
                             "day": ["01.02.2024", "31.12.2024", "03.04.2024"], "big": ["1.234.567", "2", "3"]})

    def test_decimal_commas_and_dot_thousands(self):
        out = opsmind_data.apply_number_locale(self.frame(), {"decimal": ",", "thousands": "."})
        self.assertEqual(out["amount"].tolist()[:2], [1234.56, 12.5])
        self.assertTrue(pd.isna(out["amount"].iloc[2]))
        self.assertEqual(out["big"].tolist(), [1234567, 2, 3])
        self.assertEqual(out["ip"].tolist(), ["10.0.0.1", "1.2.3.4", "5.6.7.8"])  # not every value is a number
        self.assertEqual(out["day"].tolist(), ["01.02.2024", "31.12.2024", "03.04.2024"])

    def test_comma_thousands_with_decimal_points(self):
        frame = pd.DataFrame({"a": ["1,234,567", "12.5"], "b": ["1,2", "3"]})
        out = opsmind_data.apply_number_locale(frame, {"decimal": ".", "thousands": ","})
        self.assertEqual(out["a"].tolist(), [1234567.0, 12.5])
        self.assertEqual(out["b"].tolist(), ["1,2", "3"])

    def test_plain_numbers_change_nothing(self):
        frame = self.frame()
        self.assertIs(opsmind_data.apply_number_locale(frame, None), frame)
        self.assertIs(opsmind_data.apply_number_locale(frame, {"decimal": ".", "thousands": None}), frame)

    def test_read_dataset_applies_it_to_a_semicolon_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "de.csv")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("Datum;Umsatz\n01.01.2024;12.066,53\n02.01.2024;9.360,24\n")
            df, _, _ = read_dataset(path, {"decimal": ",", "thousands": "."})
            self.assertEqual(df["Umsatz"].tolist(), [12066.53, 9360.24])
            self.assertEqual(df["Datum"].tolist(), ["01.01.2024", "02.01.2024"])
            plain, _, _ = read_dataset(path)
            self.assertEqual(plain["Umsatz"].tolist(), ["12.066,53", "9.360,24"])


if __name__ == "__main__":
    unittest.main()


class WallTimesTest(unittest.TestCase):
    """Times written with a UTC offset are the times they write (source-offsets.ts reads them alike)."""

    def test_offsets_are_set_aside_across_a_change_of_summer_time(self):
        frame = pd.DataFrame({"at": ["2024-03-09T19:00:00-05:00", "2024-03-11 20:30:00-04:00", None],
                              "n": [1, 2, 3]})
        frame, warnings = opsmind_data.wall_times(frame)
        self.assertEqual(list(frame["at"].dt.strftime("%Y-%m-%d %H:%M").fillna("")),
                         ["2024-03-09 19:00", "2024-03-11 20:30", ""])
        self.assertEqual(warnings, ['read "at" as the times it writes, its UTC offsets (-05:00, -04:00) set aside: '
                                    "days, months and hours are the file's own"])

    def test_times_in_utc_are_instants_and_text_that_is_no_time_is_left_as_it_is(self):
        # Shopify's "+0000" after a space too: DuckDB's sniffer leaves it text, source-offsets.ts reads it.
        frame = pd.DataFrame({"z": ["2024-03-09T19:00:00+00:00", "2024-03-10 19:00:00 +0000"],
                              "mixed": ["2024-03-09T19:00:00+02:00", "soon"]})
        kept, warnings = opsmind_data.wall_times(frame.copy())
        self.assertEqual(str(kept["z"].dtype), "datetime64[ns, UTC]")
        self.assertEqual(list(kept["z"].dt.strftime("%Y-%m-%d %H:%M")), ["2024-03-09 19:00", "2024-03-10 19:00"])
        assert_frame_equal(kept[["mixed"]], frame[["mixed"]])
        self.assertEqual(warnings, [])


class TotalRowTest(DataTestCase):
    """A last row that totals the rows above with no label is left out (source-total-row.ts alike)."""

    DAYS = "day,users,sessions\n" + "".join(f"2024-01-0{d},{10 * d},{13 * d}\n" for d in range(1, 8))

    def test_the_total_under_the_days_is_left_out(self):
        path = self.write("ga.csv", self.DAYS + ",281,364\n")  # users deduplicated: no sum
        df, _, warnings = read_dataset(path)
        self.assertEqual(len(df), 7)
        self.assertEqual(int(df["users"].sum()), 280)
        self.assertIn('left out the last row: a total of the rows above (no label, its "sessions" their sum)', warnings)

    def test_a_last_row_that_is_no_total_is_kept(self):
        for last, why in [(",3,4\n", "numbers that are no sum"), ("2024-01-08,280,364\n", "a labelled row"),
                          ("", "no last row to leave out")]:
            df, _, warnings = read_dataset(self.write("days.csv", self.DAYS + last))
            self.assertEqual(len(df), 8 if last else 7, why)
            self.assertFalse(any("a total of the rows above" in w for w in warnings), why)
        # A label missing on another row too: the blank is a missing value, not a total's.
        gappy = self.DAYS.replace("2024-01-03,", ",") + ",280,364\n"
        df, _, _ = read_dataset(self.write("gappy.csv", gappy))
        self.assertEqual(len(df), 8)
