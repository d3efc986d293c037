"""opsmind_profile: the get_data_info profile matches src/agent/profile.ts and its numbers match pandas."""
import json
import math
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import opsmind_profile  # noqa: E402
from opsmind_profile import infer_frequency, parse_number_text, profile, sorted_quantiles, write_profile  # noqa: E402

INFO = {"format": "csv", "encoding": "utf-8", "delimiter": ","}
SEMANTICS = {"numeric", "numeric_text", "datetime", "boolean", "category", "text", "identifier", "constant", "empty"}
NUMBER_KEYS = {"min", "max", "mean", "std", "median", "q1", "q3", "zeros", "negatives", "outliers", "skew"}
COLUMN_KEYS = {"name", "dtype", "semantic", "missing", "missing_share", "distinct", "top", "numeric", "datetime",
               "numeric_text", "text", "notes"}


def _strict(text):
    def refuse(constant):
        raise ValueError(f"non-JSON constant {constant}")
    return json.loads(text, parse_constant=refuse)


def assert_number_stats(test, stats):
    test.assertEqual(set(stats), NUMBER_KEYS)
    for key in ("min", "max", "mean", "median", "q1", "q3"):
        test.assertIsInstance(stats[key], (int, float))
    for key in ("zeros", "negatives", "outliers"):
        test.assertIsInstance(stats[key], int)


def assert_matches_schema(test, result):
    """The shape DataProfileSchema parses: every key present, nullables null or typed."""
    test.assertEqual(set(result), {"rows", "columns", "duplicate_rows", "source", "column_profiles", "omitted_columns", "correlations", "warnings"})
    test.assertEqual(set(result["source"]), {"name", "format", "encoding", "delimiter"})
    test.assertIsInstance(result["source"]["name"], str)
    for column in result["column_profiles"]:
        test.assertEqual(set(column) - {"infinite", "levels"}, COLUMN_KEYS)
        if "levels" in column:  # present only for a text column of 3 to 24 categories
            test.assertEqual(column["levels"], sorted(set(column["levels"])))
            test.assertTrue(3 <= len(column["levels"]) == column["distinct"] <= 24)
            test.assertEqual(column["semantic"], "category")
        if "infinite" in column:  # present only when the column holds ±inf
            test.assertIsInstance(column["infinite"], int)
            test.assertGreater(column["infinite"], 0)
        test.assertIn(column["semantic"], SEMANTICS)
        test.assertTrue(0 <= column["missing_share"] <= 1)
        test.assertLessEqual(len(column["top"]), 5)
        for entry in column["top"]:
            test.assertIsInstance(entry["value"], str)
            test.assertIsInstance(entry["count"], int)
        if column["numeric"] is not None:
            assert_number_stats(test, column["numeric"])
        if column["datetime"] is not None:
            test.assertEqual(set(column["datetime"]), {"min", "max", "span_days", "frequency", "parse_share"})
        if column["numeric_text"] is not None:
            test.assertIn(column["numeric_text"]["style"], {"thousands", "currency", "percent", "plain"})
            if column["numeric_text"]["stats"] is not None:
                assert_number_stats(test, column["numeric_text"]["stats"])
        if column["text"] is not None:
            test.assertEqual(set(column["text"]), {"mean_length", "max_length"})
        test.assertTrue(all(isinstance(note, str) for note in column["notes"]))
    for pair in result["correlations"]:
        test.assertEqual(set(pair), {"a", "b", "r"})
    _strict(json.dumps(result, allow_nan=False))


def column(result, name):
    return next(c for c in result["column_profiles"] if c["name"] == name)


def semantic_of(values, name="value"):
    return column(profile(pd.DataFrame({name: values}), INFO), name)


class QuantileTests(unittest.TestCase):
    def test_numpy_linear_quantiles_and_infinities_beside_numbers(self):
        values = np.sort(np.array([3.0, 1, 4, 1, 5, 9, 2, 6]))
        self.assertEqual(sorted_quantiles(values, (0.25, 0.5, 0.75)), np.percentile(values, [25, 50, 75]).tolist())
        inf = math.inf
        # numpy: 0.5, 1.5, NaN (2.5 + 0 x inf); the value itself at an exact position.
        self.assertEqual(sorted_quantiles([-inf, 0.5, 1.5, 2.5, inf], (0.25, 0.5, 0.75)), [0.5, 1.5, 2.5])
        # An infinity beside a number wins the interpolation; -inf beside inf is NaN.
        self.assertEqual(sorted_quantiles([-inf, 1.0, 2.0, 3.0], (0.25,)), [-inf])
        self.assertEqual(sorted_quantiles([1.0, 2.0, inf, inf], (0.5, 0.75)), [inf, inf])
        self.assertTrue(math.isnan(sorted_quantiles([-inf, inf], (0.5,))[0]))


class SemanticTests(unittest.TestCase):
    def test_float_column_is_numeric(self):
        self.assertEqual(semantic_of(np.linspace(0, 10, 50))["semantic"], "numeric")

    def test_year_column_of_ints_is_numeric_not_datetime(self):
        result = semantic_of(list(range(1990, 2030)), "year")
        self.assertEqual(result["semantic"], "numeric")
        self.assertIsNone(result["datetime"])

    def test_year_strings_are_not_dates(self):
        self.assertNotEqual(semantic_of([str(y) for y in range(1990, 2030)], "year")["semantic"], "datetime")

    def test_small_integers_as_text_are_not_dates(self):
        self.assertNotEqual(semantic_of([str(d % 28 + 1) for d in range(60)], "day")["semantic"], "datetime")

    def test_age_ranges_are_categories_not_dates(self):
        self.assertEqual(semantic_of(["18-24", "25-34", "35-44", "45-54"] * 10, "age")["semantic"], "category")

    def test_a_few_categories_list_every_level_in_code_point_order(self):
        answers = ["Very satisfied", "Neutral", "Dissatisfied", "Satisfied", "Ünsure", "Very dissatisfied"] * 5
        self.assertEqual(semantic_of(answers + [None], "satisfaction")["levels"],
                         ["Dissatisfied", "Neutral", "Satisfied", "Very dissatisfied", "Very satisfied", "Ünsure"])
        self.assertNotIn("levels", semantic_of(["a", "b"] * 20, "pair"))
        self.assertNotIn("levels", semantic_of([f"store {i}" for i in range(30)] * 2, "store"))
        self.assertNotIn("levels", semantic_of([1, 2, 3, 4] * 10, "rating"))
        self.assertNotIn("levels", semantic_of(["x" * 61, "y", "z"] * 10, "note"))

    def test_zero_padded_zip_strings_are_categories_not_numbers(self):
        result = semantic_of(["02134", "02139", "10001", "02134", "94105"] * 10, "zip")
        self.assertEqual(result["semantic"], "category")
        self.assertIsNone(result["numeric_text"])

    def test_integer_zip_codes_are_categories_not_measures(self):
        result = semantic_of([2134, 2139, 10001, 94105] * 10, "zip_code")
        self.assertEqual(result["semantic"], "category")
        self.assertIsNone(result["numeric"])

    def test_edge_list_node_codes_are_categories_and_its_weight_a_measure(self):
        source = [(i * 7) % 40 for i in range(60)]
        target = [(i * 11 + 3) % 44 for i in range(60)]
        links = profile(pd.DataFrame({"source": source, "target": target, "value": [i % 5 + 1 for i in range(60)]}), INFO)
        note = "node codes of the links source → target: counted, not averaged"
        for name in ("source", "target"):
            end = column(links, name)
            self.assertEqual((end["semantic"], end["numeric"], end["notes"]), ("category", None, [note]))
        self.assertEqual(column(links, "value")["semantic"], "numeric")
        self.assertEqual(links["correlations"], [])
        named = profile(pd.DataFrame({"to_node": target, "from_node": source}), INFO)
        self.assertEqual([(c["semantic"], c["notes"][-1]) for c in named["column_profiles"]],
                         [("category", "node codes of the links from_node → to_node: counted, not averaged")] * 2)

    def test_link_names_alone_do_not_make_node_codes(self):
        source = [(i * 7) % 40 for i in range(60)]
        target = [(i * 11 + 3) % 44 for i in range(60)]
        cases = [("source", "target", [n + 0.5 for n in source], target),
                 ("source", "target", [n - 20 for n in source], target),
                 ("source", "target", source, [n + 35 for n in target]),
                 ("price_from", "price_to", [100 + i * 40 for i in range(60)], [140 + i * 40 for i in range(60)]),
                 ("source_temp", "sink_temp", source, target)]
        for a, b, x, y in cases:
            result = profile(pd.DataFrame({a: x, b: y}), INFO)
            self.assertEqual([c["semantic"] for c in result["column_profiles"]], ["numeric", "numeric"], (a, b))

    def test_unique_integer_id_column_is_identifier(self):
        result = semantic_of(list(range(1000, 1050)), "id")
        self.assertEqual(result["semantic"], "identifier")
        self.assertIn("identifier: not charted", result["notes"])

    def test_camel_case_id_column_is_identifier(self):
        self.assertEqual(semantic_of(list(range(50)), "CustomerID")["semantic"], "identifier")

    def test_unique_integers_without_id_name_stay_numeric(self):
        self.assertEqual(semantic_of(list(range(1000, 1050)), "amount")["semantic"], "numeric")

    def test_id_column_below_twenty_rows_is_a_category_not_identifier(self):
        self.assertEqual(semantic_of(list(range(10)), "id")["semantic"], "category")

    def test_repeated_store_ids_are_categories(self):
        self.assertEqual(semantic_of([1, 2, 3, 4] * 10, "store_id")["semantic"], "category")

    def test_a_version_names_a_release_whole_or_not(self):
        self.assertEqual(semantic_of([1 + i / 10 for i in range(30)], "version")["semantic"], "identifier")
        self.assertEqual(semantic_of([1.1, 1.2, 2.0, 2.1] * 10, "appVersion")["semantic"], "category")
        self.assertEqual(semantic_of([1 + i / 10 for i in range(30)], "conversion")["semantic"], "numeric")

    def test_pandas_index_column_is_identifier(self):
        self.assertEqual(semantic_of(list(range(30)), "Unnamed: 0")["semantic"], "identifier")

    def test_order_codes_are_identifiers(self):
        self.assertEqual(semantic_of([f"ORD-{i:05d}" for i in range(40)], "order")["semantic"], "identifier")

    def test_uuids_and_emails_are_identifiers(self):
        import uuid
        self.assertEqual(semantic_of([str(uuid.UUID(int=i)) for i in range(5)], "ref")["semantic"], "identifier")
        self.assertEqual(semantic_of([f"user{i % 3}@example.com" for i in range(9)], "who")["semantic"], "identifier")

    def test_bool_dtype_and_yes_no_and_zero_one_are_boolean(self):
        self.assertEqual(semantic_of([True, False] * 5)["semantic"], "boolean")
        self.assertEqual(semantic_of(["Yes", "no", "YES"] * 5)["semantic"], "boolean")
        zero_one = semantic_of([0, 1, 1] * 5, "active")
        self.assertEqual(zero_one["semantic"], "boolean")
        self.assertAlmostEqual(zero_one["numeric"]["mean"], 2 / 3)

    def test_two_other_values_are_a_category_not_boolean(self):
        self.assertEqual(semantic_of(["North", "South"] * 5)["semantic"], "category")

    def test_repeated_labels_are_category(self):
        self.assertEqual(semantic_of(["North", "South", "East", "West"] * 10, "region")["semantic"], "category")

    def test_long_strings_are_text_with_lengths(self):
        values = ["a fairly long free-text comment about the order, number %d" % (i % 3) for i in range(12)]
        result = semantic_of(values, "comment")
        self.assertEqual(result["semantic"], "text")
        lengths = pd.Series(values).str.len()
        self.assertAlmostEqual(result["text"]["mean_length"], lengths.mean())
        self.assertEqual(result["text"]["max_length"], lengths.max())

    def test_mostly_unique_names_are_text(self):
        self.assertEqual(semantic_of([f"Customer {chr(65 + i % 26)}{i}" for i in range(30)], "name")["semantic"], "text")

    def test_single_value_is_constant(self):
        result = semantic_of(["x"] * 10 + [None] * 2, "kind")
        self.assertEqual(result["semantic"], "constant")
        self.assertIn("constant: every value is 'x'", result["notes"])

    def test_all_missing_is_empty(self):
        result = semantic_of([None] * 5)
        self.assertEqual(result["semantic"], "empty")
        self.assertEqual(result["missing"], 5)

    def test_datetime_dtype_is_datetime(self):
        result = semantic_of(pd.date_range("2024-01-01", periods=10, freq="W"))
        self.assertEqual(result["semantic"], "datetime")
        self.assertEqual(result["datetime"]["frequency"], "W")
        self.assertEqual(result["datetime"]["parse_share"], 1.0)


class NumbersAsTextTests(unittest.TestCase):
    def assert_style(self, values, style, expected):
        result = semantic_of(values, "amount")
        self.assertEqual(result["semantic"], "numeric_text")
        self.assertEqual(result["numeric_text"]["style"], style)
        stats = result["numeric_text"]["stats"]
        self.assertAlmostEqual(stats["mean"], float(np.mean(expected)))
        self.assertEqual(stats["min"], min(expected))
        self.assertEqual(stats["max"], max(expected))
        self.assertIn(f"numbers stored as text ({style})", result["notes"])
        return result

    def test_thousands_separators(self):
        self.assert_style(["1,234.50", "12", "2,000,000", "999"], "thousands", [1234.5, 12, 2000000, 999])

    def test_dollar_currency(self):
        self.assert_style(["$1,234", "$12.50", "-$3", "$0"], "currency", [1234, 12.5, -3, 0])

    def test_euro_prefix_and_code_suffix_currency(self):
        self.assert_style(["€12.50", "€3"], "currency", [12.5, 3])
        self.assert_style(["12.50 USD", "3 USD", "1,000 USD"], "currency", [12.5, 3, 1000])

    def test_accounting_negatives_in_parentheses(self):
        self.assertEqual(list(parse_number_text(["(300)", "$(1,000.5)", "($2)", "7"])), [-300, -1000.5, -2, 7])

    def test_percent(self):
        self.assert_style(["12.5%", "100%", "0.5%", "40 %"], "percent", [12.5, 100, 0.5, 40])

    def test_plain_numbers_with_some_junk(self):
        values = [str(i) for i in range(1, 20)] + ["unknown"]
        result = semantic_of(values, "amount")
        self.assertEqual(result["semantic"], "numeric_text")
        self.assertEqual(result["numeric_text"]["style"], "plain")
        self.assertAlmostEqual(result["numeric_text"]["parse_share"], 19 / 20)
        self.assertAlmostEqual(result["numeric_text"]["stats"]["mean"], 10.0)
        self.assertIn("1 values are not numbers", result["notes"])

    def test_mostly_words_are_not_numbers(self):
        self.assertEqual(semantic_of(["12", "abc", "def", "ghi"] * 3)["semantic"], "category")


class DatesAsTextTests(unittest.TestCase):
    def assert_dates(self, values, frequency):
        """Dates in text; ISO 8601 ones (a time of day, no zone) are dates to every reader, as the DuckDB engine
        types them: no note then, and the dtype of dates."""
        result = semantic_of(values, "when")
        self.assertEqual(result["semantic"], "datetime")
        self.assertEqual(result["datetime"]["frequency"], frequency)
        numeric = all(re.match(r"^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?$", v)
                      for v in values)
        if numeric and result["datetime"]["parse_share"] == 1:
            self.assertNotIn("dates stored as text", result["notes"])
            self.assertEqual(result["dtype"], "datetime64[ns]")
        else:
            self.assertIn("dates stored as text", result["notes"])
        return result

    def test_only_dates_that_duckdb_reads_as_text_are_stored_as_text(self):
        # Numbers alone in any order are dates to the DuckDB engine's reader, which says nothing of them.
        for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%Y/%m/%d", "%m/%d/%y %H:%M"):
            dates = semantic_of([d.strftime(fmt) for d in pd.date_range("2024-01-01", periods=10)], "when")
            self.assertEqual((dates["dtype"], dates["notes"]), ("datetime64[ns]", []), fmt)
        named = semantic_of([d.strftime("%b %d, %Y") for d in pd.date_range("2024-01-01", periods=10)], "when")
        self.assertEqual((named["dtype"], named["notes"]), ("object", ["dates stored as text"]))

    def test_daily_iso_dates(self):
        result = self.assert_dates([str(d.date()) for d in pd.date_range("2024-01-01", periods=40)], "D")
        self.assertEqual(result["datetime"]["min"], "2024-01-01T00:00:00")
        self.assertEqual(result["datetime"]["max"], "2024-02-09T00:00:00")
        self.assertEqual(result["datetime"]["span_days"], 39)

    def test_business_days_still_count_as_daily(self):
        self.assert_dates([str(d.date()) for d in pd.bdate_range("2024-01-01", periods=40)], "D")

    def test_monthly_year_month_strings(self):
        self.assert_dates([d.strftime("%Y-%m") for d in pd.date_range("2020-01-01", periods=30, freq="MS")], "M")

    def test_monthly_month_end_us_format(self):
        self.assert_dates([d.strftime("%m/%d/%Y") for d in pd.date_range("2020-01-31", periods=30, freq="M")], "M")

    def test_hourly_timestamps(self):
        self.assert_dates([str(d) for d in pd.date_range("2024-03-01", periods=48, freq="H")], "H")

    def test_quarterly_and_yearly(self):
        self.assert_dates([str(d.date()) for d in pd.date_range("2015-01-01", periods=12, freq="QS")], "Q")
        self.assert_dates([str(d.date()) for d in pd.date_range("2000-01-01", periods=12, freq="AS")], "Y")

    def test_irregular_timestamps_have_no_frequency(self):
        rng = np.random.default_rng(0)
        stamps = pd.Timestamp("2024-01-01") + pd.to_timedelta(np.cumsum(rng.exponential(3600 * 7, 200)), unit="s")
        self.assert_dates([str(s) for s in stamps], None)

    def test_unparseable_share_is_reported(self):
        values = [str(d.date()) for d in pd.date_range("2024-01-01", periods=19)] + ["2024-13-45"]
        result = self.assert_dates(values, "D")
        self.assertAlmostEqual(result["datetime"]["parse_share"], 0.95)

    def test_infer_frequency_needs_three_points(self):
        self.assertIsNone(infer_frequency(pd.to_datetime(["2024-01-01", "2024-01-02"])))


class StatisticsTests(unittest.TestCase):
    def test_number_stats_match_pandas(self):
        rng = np.random.default_rng(1)
        values = pd.Series(np.concatenate([rng.lognormal(size=500), [np.nan] * 20, [0, 0, -5, 80]]))
        stats = semantic_of(values, "x")["numeric"]
        present = values.dropna()
        self.assertAlmostEqual(stats["mean"], present.mean())
        self.assertAlmostEqual(stats["std"], present.std())
        self.assertAlmostEqual(stats["median"], present.median())
        self.assertAlmostEqual(stats["q1"], present.quantile(0.25))
        self.assertAlmostEqual(stats["q3"], present.quantile(0.75))
        self.assertAlmostEqual(stats["skew"], present.skew())
        self.assertEqual((stats["min"], stats["max"]), (present.min(), present.max()))
        self.assertEqual(stats["zeros"], 2)
        self.assertEqual(stats["negatives"], 1)
        iqr = stats["q3"] - stats["q1"]
        self.assertEqual(stats["outliers"], int(((present < stats["q1"] - 1.5 * iqr) | (present > stats["q3"] + 1.5 * iqr)).sum()))

    def test_a_mean_within_the_rounding_of_its_sum_is_zero(self):
        residuals = np.array([-2.621, 3.092, -0.471, 0.5, -0.5, 1.1, -1.1, 0.1, -0.1, -1e-16])
        self.assertEqual(semantic_of(list(residuals - residuals.mean()), "resid")["numeric"]["mean"], 0.0)
        self.assertAlmostEqual(semantic_of([3e-10, -1e-10, 2e-10], "drift")["numeric"]["mean"], 4e-10 / 3, places=20)

    def test_missing_distinct_and_top_values(self):
        result = semantic_of(["b", "a", "b", None, "c", "b", "a", None], "k")
        self.assertEqual((result["missing"], result["distinct"]), (2, 3))
        self.assertAlmostEqual(result["missing_share"], 0.25)
        self.assertEqual(result["top"], [{"value": "b", "count": 3}, {"value": "a", "count": 2}, {"value": "c", "count": 1}])
        self.assertIn("25% missing", result["notes"])

    def test_single_value_std_and_skew_are_null(self):
        stats = profile(pd.DataFrame({"x": [1.5, np.nan]}), INFO)["column_profiles"][0]["numeric"]
        self.assertIsNone(stats["std"])
        self.assertIsNone(stats["skew"])

    def test_infinities_are_left_out_and_json_stays_valid(self):
        result = semantic_of([1.0, 2.0, np.inf, -np.inf, 3.0], "x")
        self.assertEqual(result["numeric"]["max"], 3.0)
        self.assertIn("2 infinite values left out of statistics", result["notes"])
        self.assertEqual(result["infinite"], 2)
        self.assertNotIn("infinite", semantic_of([1.0, np.nan, 3.0], "x"))
        _strict(json.dumps(result, allow_nan=False))

    def test_duplicate_rows_match_pandas_including_missing(self):
        frame = pd.DataFrame({"a": [1, 1, 2, np.nan, np.nan, 1], "b": ["x", "x", "y", None, None, "z"]})
        self.assertEqual(profile(frame, INFO)["duplicate_rows"], int(frame.duplicated().sum()))
        self.assertIn("2 duplicate rows (33% of rows)", profile(frame, INFO)["warnings"])

    def test_duplicates_differing_only_beyond_the_detail_limit_are_not_duplicates(self):
        frame = pd.DataFrame(np.zeros((3, 250)))
        frame.iloc[1, 240] = 1
        self.assertEqual(profile(frame, INFO)["duplicate_rows"], int(frame.duplicated().sum()))
        self.assertEqual(profile(frame, INFO)["duplicate_rows"], 1)


class CorrelationTests(unittest.TestCase):
    def frame(self):
        rng = np.random.default_rng(2)
        x = rng.normal(size=400)
        return pd.DataFrame({"x": x, "strong": 3 * x + rng.normal(size=400) * 0.3, "negative": -x + rng.normal(size=400),
                             "moderate": x + rng.normal(size=400) * 2.5, "noise": rng.normal(size=400),
                             "order_id": np.arange(400), "region": ["a", "b"] * 200})

    def test_content_order_and_rounding_match_pandas(self):
        frame = self.frame()
        pairs = profile(frame, INFO)["correlations"]
        corr = frame[["x", "strong", "negative", "moderate", "noise"]].corr()
        self.assertEqual((pairs[0]["a"], pairs[0]["b"]), ("x", "strong"))
        for pair in pairs:
            self.assertEqual(pair["r"], round(corr.loc[pair["a"], pair["b"]], 3))
            self.assertGreaterEqual(abs(pair["r"]), 0.3)
        magnitudes = [abs(p["r"]) for p in pairs]
        self.assertEqual(magnitudes, sorted(magnitudes, reverse=True))
        names = {p["a"] for p in pairs} | {p["b"] for p in pairs}
        self.assertNotIn("noise", names)
        self.assertNotIn("order_id", names)

    def test_at_most_ten_pairs(self):
        rng = np.random.default_rng(3)
        base = rng.normal(size=200)
        frame = pd.DataFrame({f"c{i}": base + rng.normal(size=200) * 0.1 for i in range(8)})
        self.assertEqual(len(profile(frame, INFO)["correlations"]), 10)

    def test_missing_values_use_pairwise_complete_rows(self):
        frame = self.frame()[["x", "strong"]].copy()
        frame.loc[::7, "strong"] = np.nan
        pair = profile(frame, INFO)["correlations"][0]
        self.assertEqual(pair["r"], round(frame["x"].corr(frame["strong"]), 3))

    def test_constant_column_gives_no_pair(self):
        self.assertEqual(profile(pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [5.0] * 4}), INFO)["correlations"], [])


class WarningsAndShapeTests(unittest.TestCase):
    def test_dataset_warnings(self):
        frame = pd.DataFrame({"a": [None, None, None, 1.0, 2.0], "b": [None, None, 1.0, 2.0, 3.0], "c": ["k"] * 5,
                              "price": ["$1", "$2", "$3", "$4", "$5"], "day": ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"]})
        warnings = profile(frame, INFO)["warnings"]
        self.assertIn("1 column more than 50% missing: a", warnings)
        self.assertIn("1 constant column: c", warnings)
        self.assertIn("numbers stored as text in: price", warnings)
        # ISO dates are dates to every reader (the DuckDB engine types them): nothing to warn of.
        self.assertFalse([w for w in warnings if w.startswith("dates stored as text")], warnings)
        frame["day"] = ["Jan %d, 2024" % d for d in range(1, 6)]
        self.assertIn("dates stored as text in: day", profile(frame, INFO)["warnings"])

    def test_dates_after_today_are_named_with_their_latest(self):
        frame = pd.DataFrame({"released": ["1998-06-12", "2046-11-05", "2001-01-01"] * 4,
                              "shown": pd.to_datetime(["2099-01-02", "2000-01-01", None] * 4),
                              "filed": pd.to_datetime(["2001-03-04", "2000-01-01", "2010-05-06"] * 4)})
        warnings = profile(frame, INFO)["warnings"]
        self.assertIn("dates after today in: released (the latest 2046-11-05), shown (the latest 2099-01-02)", warnings)
        columns = profile(frame, INFO)["column_profiles"]
        self.assertIsNone(opsmind_profile.future_dates(columns, today="2100-01-01"))
        self.assertEqual(opsmind_profile.future_dates(columns, today="2046-11-05"),
                         "dates after today in: shown (the latest 2099-01-02)")

    def test_source_and_schema_shape(self):
        frame = pd.DataFrame({"a": [1, 2, 3], "b": ["x", None, "y"], "c": pd.to_datetime(["2024-01-01", None, "2024-02-01"]),
                              "d": [None, None, None], "e": [1.5, np.nan, np.inf]})
        result = profile(frame, INFO, "sales.csv")
        self.assertEqual(result["source"], {"name": "sales.csv", "format": "csv", "encoding": "utf-8", "delimiter": ","})
        self.assertEqual((result["rows"], result["columns"]), (3, 5))
        assert_matches_schema(self, result)

    def test_empty_frames(self):
        for frame in (pd.DataFrame(), pd.DataFrame({"a": []}), pd.DataFrame({"a": [np.nan]})):
            with self.subTest(shape=frame.shape):
                assert_matches_schema(self, profile(frame, {}))

    def test_odd_dtypes_do_not_break_the_profile(self):
        frame = pd.DataFrame({"cat": pd.Categorical(["a", "b", "a"]), "td": pd.to_timedelta([1, 2, 3], unit="h"),
                              "nullable": pd.array([1, None, 3], dtype="Int64"), "tz": pd.date_range("2024-01-01", periods=3, tz="UTC"),
                              "lists": [[1], [2], [1]], "mixed": [1, "a", 2.5]})
        assert_matches_schema(self, profile(frame, {}))

    def test_written_file_is_strict_json(self):
        frame = pd.DataFrame({"a": [1.0, np.nan, np.inf], "b": ["x", "y", None], "c": [None, None, None]})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "profile.json")
            write_profile(frame, INFO, path, "f.csv")
            with open(path, encoding="utf-8") as handle:
                loaded = _strict(handle.read())
        assert_matches_schema(self, loaded)
        self.assertEqual(loaded["source"]["name"], "f.csv")


class ScaleTests(unittest.TestCase):
    # Speed is measured in bench/ (bench/fast.ts profiles 1M rows); these tests check correctness at scale only.
    def test_only_first_200_of_5000_columns_are_profiled(self):
        rng = np.random.default_rng(0)
        frame = pd.DataFrame(rng.normal(size=(1000, 5000)), columns=[f"c{i}" for i in range(5000)])
        frame["c4999"] = frame["c4999"].round().astype(int)
        result = profile(frame, INFO)
        self.assertEqual(len(result["column_profiles"]), opsmind_profile.DETAIL_LIMIT)
        self.assertEqual(result["omitted_columns"], {"count": 4800, "by_dtype": {"float64": 4799, "int64": 1}})
        self.assertEqual(result["columns"], 5000)

    def test_million_rows_by_ten_columns(self):
        rng = np.random.default_rng(0)
        n = 1_000_000
        dates = np.array([str(d.date()) for d in pd.date_range("2021-01-01", periods=1000)], dtype=object)
        frame = pd.DataFrame({
            "date": dates[rng.integers(0, 1000, n)], "region": np.array(["North", "South", "East", "West"], dtype=object)[rng.integers(0, 4, n)],
            "price": rng.uniform(1, 100, n).round(2), "qty": rng.integers(1, 50, n), "revenue": rng.normal(1000, 200, n),
            "cost": rng.normal(500, 100, n), "flag": np.array(["yes", "no"], dtype=object)[rng.integers(0, 2, n)],
            "discount": np.where(rng.random(n) < 0.2, np.nan, rng.random(n)), "score": rng.normal(size=n), "units": rng.integers(0, 1000, n)})
        result = profile(frame, INFO)
        self.assertEqual(column(result, "date")["semantic"], "datetime")
        self.assertEqual(column(result, "discount")["missing"], int(frame["discount"].isna().sum()))
        self.assertAlmostEqual(column(result, "revenue")["numeric"]["q3"], frame["revenue"].quantile(0.75))


if __name__ == "__main__":
    unittest.main()
