"""opsmind_data: lines under the data that are not data (a source, a note) are left out; data is kept."""
import os
import sys
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from opsmind_data import footer_in  # noqa: E402

BODY = "region,sales,units\nNorth,10.5,3\nSouth,7.25,1\nEast,1000,12\n"


class FooterTestCase(unittest.TestCase):
    def test_a_block_set_apart_by_a_blank_line_is_a_footer(self):
        text = BODY + "\nSource: the office, 2024\nNote: in USD\n\n"
        offset, lines = footer_in(text, ",", 3, False)
        self.assertEqual(text[:offset], BODY)
        self.assertEqual(lines, ["Source: the office, 2024", "Note: in USD"])

    def test_a_wide_line_that_says_what_it_is_is_a_footer_past_a_blank_line(self):
        text = BODY + "\r\nNote: in USD, see annex, page 4\r\n"
        self.assertEqual(footer_in(text, ",", 3, False)[1], ["Note: in USD, see annex, page 4"])

    def test_without_a_blank_line_only_a_lone_field_saying_so(self):
        self.assertEqual(footer_in(BODY + "Sources: offices\n", ",", 3, False)[1], ["Sources: offices"])
        self.assertIsNone(footer_in(BODY + "West,4\n", ",", 3, False), "a short last row is data")
        self.assertIsNone(footer_in(BODY + "West\n", ",", 3, False), "a lone name is data")

    def test_clean_files_and_long_blocks_are_untouched(self):
        self.assertIsNone(footer_in(BODY, ",", 3, False))
        self.assertIsNone(footer_in(BODY + "\n" + "x\n" * 11, ",", 3, False), "more than 10 lines")
        self.assertIsNone(footer_in("a\nb\n", ",", 1, False), "one column: nothing is short")

    def test_an_exports_commented_sections_below_the_table_are_left_out_however_long(self):
        title = "# ----\n# All Web Site Data\n\n# 20240101-20240331\n# ----\n\n"
        sections = "\n# ----------\n# Users\n# ----------\n\nNew Users,Returning\n" + "12,3\n" * 20
        text = title + BODY + sections
        offset, lines = footer_in(text, ",", 3, False)
        self.assertEqual(text[:offset], title + BODY, "the title's comments and blank lines above the header stay")
        self.assertEqual(lines[:3], ["# ----------", "# Users", "# ----------"])
        self.assertEqual(len(lines), 24)
        # A row of data that starts with "#" is no comment: "#1001" names an order.
        self.assertIsNone(footer_in(BODY + "\n#1001,5,1\n", ",", 3, False))


if __name__ == "__main__":
    unittest.main()
