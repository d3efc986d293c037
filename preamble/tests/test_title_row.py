"""opsmind_data: title or preamble lines above the header are skipped; clean files are untouched."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import pandas as pd  # noqa: E402
from pandas.testing import assert_frame_equal  # noqa: E402

from opsmind_data import read_dataset, title_lines  # noqa: E402

BODY = "region,sales,units\nNorth,10.5,3\nSouth,7.25,1\nEast,1000,12\n"


class TitleRowTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)

    def write(self, name, text, encoding="utf-8"):
        path = os.path.join(self._tmp.name, name)
        with open(path, "wb") as handle:
            handle.write(text.encode(encoding))
        return path

    def read(self, text, name="data.csv"):
        return read_dataset(self.write(name, text))

    def clean(self, text=BODY):
        return pd.read_csv(self.write("reference.csv", text))


class SkipsTitleTests(TitleRowTestCase):
    def test_single_title_line_is_skipped_with_a_warning(self):
        df, _, warnings = self.read("Quarterly sales report 2024\n" + BODY)
        assert_frame_equal(df, self.clean())
        self.assertIn("skipped 1 line(s) above the header (a title?)", warnings)

    def test_title_then_blank_line(self):
        df, _, warnings = self.read("Quarterly sales report 2024\n\n" + BODY)
        assert_frame_equal(df, self.clean())
        self.assertIn("skipped 1 line(s) above the header (a title?)", warnings)

    def test_several_preamble_lines(self):
        df, _, warnings = self.read("ACME Corp\nSales export\nGenerated 2024-05-01 by the system\n" + BODY)
        assert_frame_equal(df, self.clean())
        self.assertIn("skipped 3 line(s) above the header (a title?)", warnings)

    def test_title_with_a_comma_but_fewer_than_half_the_fields(self):
        body = "a,b,c,d,e\n1,2,3,4,5\n6,7,8,9,10\n"
        df, _, warnings = self.read("Sales, 2024\n" + body)
        assert_frame_equal(df, self.clean(body))
        self.assertIn("skipped 1 line(s) above the header (a title?)", warnings)

    def test_semicolon_file_with_title(self):
        df, info, warnings = self.read("Report: Q1\n" + BODY.replace(",", ";"))
        self.assertEqual(info["delimiter"], ";")
        assert_frame_equal(df, self.clean())
        self.assertEqual(len(warnings), 1)

    def test_crlf_title_and_bom(self):
        path = self.write("bom.csv", "\ufeffMonthly report\r\n" + BODY.replace("\n", "\r\n"))
        df, _, warnings = read_dataset(path)
        assert_frame_equal(df, self.clean())
        self.assertIn("skipped 1 line(s) above the header (a title?)", warnings)

    def test_title_lines_reports_lines_to_skip_including_blanks(self):
        self.assertEqual(title_lines("Title\n\n\nnote\n" + BODY, ","), (2, 4))


class LeavesCleanFilesTests(TitleRowTestCase):
    def assert_untouched(self, text):
        df, _, warnings = self.read(text)
        assert_frame_equal(df, self.clean(text))
        self.assertFalse(any("skipped" in w for w in warnings))

    def test_normal_file(self):
        self.assert_untouched(BODY)

    def test_one_column_file(self):
        self.assert_untouched("name\nalpha\nbeta\ngamma\n")

    def test_single_column_header_whose_values_hold_commas_in_quotes(self):
        self.assert_untouched('comment\n"good, fast"\n"slow, late"\nfine\n')

    def test_header_and_one_row(self):
        self.assert_untouched("a,b,c\n1,2,3\n")

    def test_rows_with_missing_trailing_fields(self):
        self.assert_untouched("a,b,c,d\n1,2,,\n3,4,5,6\n7,8,9,10\n")

    def test_two_column_file(self):
        self.assert_untouched("key,value\nx,1\ny,2\nz,3\n")

    def test_title_lines_is_zero_for_clean_text(self):
        self.assertEqual(title_lines(BODY, ","), (0, 0))
        self.assertEqual(title_lines("name\nalpha\nbeta\n", ","), (0, 0))

    def test_more_than_ten_preamble_lines_are_left_alone(self):
        self.assertEqual(title_lines("".join(f"note {i}\n" for i in range(11)) + BODY * 3, ","), (0, 0))


if __name__ == "__main__":
    unittest.main()
