"""opsmind_insights: sentences whose numbers equal pandas computations on small hand-made frames."""
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from opsmind_insights import (box_insights, correlation_insights, distribution_insights, fmt_date, fmt_number,  # noqa: E402
                              fmt_pct, ranking_insights, scale_insights, share_insights, trend_insights,
                              ROWS_LABEL)


def by_kind(insights):
    return {i["kind"]: i for i in insights}


def assert_json_safe(test, insights):
    for insight in insights:
        test.assertEqual(set(insight), {"text", "kind", "numbers"})
        test.assertIsInstance(insight["text"], str)
    json.dumps(insights, allow_nan=False)


class FormatTests(unittest.TestCase):
    def test_numbers_percentages_and_dates_read_well(self):
        self.assertEqual(fmt_number(1234567), "1,234,567")
        self.assertEqual(fmt_number(12.345), "12.3")
        self.assertEqual(fmt_number(0.012345), "0.0123")
        self.assertEqual(fmt_number(-2.2e-17), "0")  # a mean of centred data after summing: no sign
        self.assertEqual(fmt_number(-0.004), "-0.004")
        self.assertEqual(fmt_pct(0.1256), "12.6%")
        self.assertEqual(fmt_date(pd.Timestamp("2024-12-01"), "M"), "Dec 2024")
        self.assertEqual(fmt_date(pd.Timestamp("2024-10-01"), "Q"), "Q4 2024")
        self.assertEqual(fmt_date(pd.Timestamp("2024-12-05"), "D"), "Dec 5, 2024")
        # A time of day alone is read on 1900-01-01: said without the day (ts: insights-format fmtDate).
        self.assertEqual(fmt_date(pd.Timestamp("1900-01-01 14:05"), "H"), "14:05")
        self.assertEqual(fmt_date(pd.Timestamp("2024-01-01 14:05"), "H"), "Jan 1, 2024 14:05")
        self.assertEqual(fmt_date(pd.Timestamp("1900-01-01"), "D"), "Jan 1, 1900")

    def test_times_of_day_alone_are_read_on_one_day(self):
        from opsmind_semantic import on_one_day, to_datetime
        self.assertEqual(list(on_one_day(["6:05 PM", "12:00 AM", None, "07:30:15.5"])),
                         ["1900-01-01 18:05:00", "1900-01-01 00:00:00", None, "1900-01-01 07:30:15.5"])
        self.assertEqual(on_one_day(["06:00", "2024-01-01"]), ["06:00", "2024-01-01"])
        self.assertEqual(on_one_day(["13:00 PM"]), ["13:00 PM"])
        self.assertEqual(str(to_datetime(["1:00 PM"])[0]), "1900-01-01 13:00:00")


class TrendTests(unittest.TestCase):
    def monthly(self, periods=24, start="2023-01-01"):
        months = pd.date_range(start, periods=periods, freq="MS")
        return pd.DataFrame({"month": months, "revenue": 100.0 + np.arange(periods) * 5 + (np.arange(periods) % 12 == 6) * 50})

    def test_change_rounding_to_zero_is_nearly_unchanged(self):
        frame = pd.DataFrame({"month": pd.date_range("2023-01-01", periods=6, freq="MS"),
                              "w": [100, 107, 100, 107, 100, 100.02]})
        kinds = by_kind(trend_insights(frame, "month", "w", "Mean weight"))
        self.assertEqual(kinds["change"]["text"], "Mean weight was nearly unchanged from Jan 2023 to Jun 2023 (100 → 100).")

    def test_change_peak_and_trough_match_pandas(self):
        frame = self.monthly(periods=23)
        kinds = by_kind(trend_insights(frame, "month", "revenue", "Revenue"))
        first, last = frame["revenue"].iloc[0], frame["revenue"].iloc[-1]
        self.assertAlmostEqual(kinds["change"]["numbers"]["change_pct"], (last - first) / first * 100)
        self.assertEqual(kinds["change"]["text"], "Revenue grew 110% from Jan 2023 to Nov 2024 (100 → 210).")
        self.assertEqual(kinds["peak"]["numbers"]["peak"], frame["revenue"].max())
        self.assertIn(frame.loc[frame["revenue"].idxmax(), "month"].strftime("%b %Y"), kinds["peak"]["text"])
        self.assertEqual(kinds["trough"]["numbers"]["trough"], frame["revenue"].min())
        self.assertIn("Jan 2023", kinds["trough"]["text"])

    def test_year_over_year_of_last_full_year(self):
        frame = self.monthly(periods=30, start="2022-01-01")  # 2022, 2023 complete; 2024 half
        kinds = by_kind(trend_insights(frame, "month", "revenue"))
        years = frame["month"].dt.year
        total, previous = frame["revenue"][years == 2023].sum(), frame["revenue"][years == 2022].sum()
        self.assertEqual(kinds["year_over_year"]["numbers"]["year"], 2023)
        self.assertAlmostEqual(kinds["year_over_year"]["numbers"]["yoy_pct"], (total / previous - 1) * 100)
        self.assertIn("In 2023", kinds["year_over_year"]["text"])

    def test_year_over_year_of_a_stock_averages_each_year(self):
        # People unemployed each month: twelve months summed count the same people twelve times.
        frame = self.monthly(periods=30, start="2022-01-01")
        kinds = by_kind(trend_insights(frame, "month", "revenue", "total count", how="stock"))
        years = frame["month"].dt.year
        self.assertAlmostEqual(kinds["year_over_year"]["numbers"]["total"], frame["revenue"][years == 2023].mean())
        self.assertAlmostEqual(kinds["year_over_year"]["numbers"]["previous_total"], frame["revenue"][years == 2022].mean())
        self.assertIn("averaging the 12 months of each year", kinds["year_over_year"]["text"])

    def test_days_are_said_on_weeks_in_the_week_ending_and_rows_as_the_number_of_rows(self):
        days = pd.DataFrame({"day": pd.date_range("2024-01-01", periods=4, freq="D"), "n": [3, 9, 4, 5]})
        kinds = by_kind(trend_insights(days, "day", "n", ROWS_LABEL, period="D"))
        self.assertEqual(kinds["peak"]["text"], "The number of rows peaked at 9 on Jan 2, 2024.")
        self.assertEqual(kinds["trough"]["text"], "The number of rows was lowest at 3 on Jan 1, 2024.")
        weeks = pd.DataFrame({"week": pd.date_range("2024-01-07", periods=4, freq="7D"), "n": [3, 9, None, 5]})
        kinds = by_kind(trend_insights(weeks, "week", "n", ROWS_LABEL, period="W"))
        self.assertEqual(kinds["peak"]["text"], "The number of rows peaked at 9 in the week ending Jan 14, 2024.")
        self.assertEqual(kinds["gaps"]["text"], "No rows in Jan 21, 2024: the line has a gap there, not a zero.")

    def test_whole_years_replace_first_to_last_with_year_over_year(self):
        kinds = by_kind(trend_insights(self.monthly(periods=24), "month", "revenue"))
        self.assertIn("year_over_year", kinds)
        self.assertNotIn("change", kinds, "January against December compares seasons, not growth")

    def test_no_year_over_year_below_24_months(self):
        self.assertNotIn("year_over_year", by_kind(trend_insights(self.monthly(periods=23), "month", "revenue")))

    def test_date_strings_unsorted_are_parsed_and_sorted(self):
        frame = pd.DataFrame({"day": ["2024-01-03", "2024-01-01", "2024-01-02"], "sales": [30, 10, 15]})
        kinds = by_kind(trend_insights(frame, "day", "sales"))
        self.assertAlmostEqual(kinds["change"]["numbers"]["change_pct"], 200.0)
        self.assertIn("Jan 1, 2024 to Jan 3, 2024", kinds["change"]["text"])

    def test_fall_is_worded_as_fell(self):
        frame = pd.DataFrame({"year": [2020, 2021, 2022], "units": [200, 150, 100]})
        kinds = by_kind(trend_insights(frame, "year", "units"))
        self.assertEqual(kinds["change"]["text"], "Units fell 50.0% from 2020 to 2022 (200 → 100).")

    def test_signed_values_get_a_difference_not_a_percentage(self):
        frame = pd.DataFrame({"year": [2021, 2022, 2023], "temp": [-0.17, 0.02, 1.17]})
        kinds = by_kind(trend_insights(frame, "year", "temp"))
        self.assertEqual(kinds["change"]["text"], "Temp rose by 1.34 from 2021 to 2023 (-0.17 → 1.17).")
        self.assertNotIn("change_pct", kinds["change"]["numbers"])
        self.assertAlmostEqual(kinds["change"]["numbers"]["change"], 1.34)
        frame = pd.DataFrame({"year": [2020, 2021, 2022], "net": [5.0, 1.0, -4.0]})
        kinds = by_kind(trend_insights(frame, "year", "net"))
        self.assertEqual(kinds["change"]["text"], "Net fell by 9 from 2020 to 2022 (5 → -4).")

    def test_gaps_are_said_as_gaps_and_census_years_as_years(self):
        frame = pd.DataFrame({"year": pd.to_datetime(["1970", "1980", "1990", "2000", "2010"]),
                              "count": [10.0, 12.0, float("nan"), 15.0, 20.0]})
        kinds = by_kind(trend_insights(frame, "year", "count"))
        self.assertEqual(kinds["gaps"]["text"], "No rows in 1990: the line has a gap there, not a zero.")
        self.assertEqual(kinds["change"]["text"], "Count grew 100% from 1970 to 2010 (10 → 20).")
        frame = pd.DataFrame({"month": pd.date_range("2024-01-01", periods=8, freq="MS"),
                              "v": [1.0, None, 3.0, None, None, 6.0, None, 8.0]})
        kinds = by_kind(trend_insights(frame, "month", "v", "mean v", how="mean", period="M"))
        self.assertEqual(kinds["gaps"]["text"],
                         "Mean v has no value in 4 periods (the first Feb 2024, the last Jul 2024): the line has gaps there, not zeros.")
        self.assertNotIn("gaps", by_kind(trend_insights(self.monthly(), "month", "revenue")))

    def test_calendar_years_without_thousands_separator(self):
        reigns = pd.Series([1565, 1603, 1625, 1649, 1660, 1685, 1689, 1702, 1714, 1727, 1760, 1820])
        texts = [i["text"] for i in distribution_insights(reigns, "start", years=True)]
        self.assertRegex(texts[0], r"^The median start is 1687; the middle half lies between \d{4} and \d{4} \(IQR [\d.]+ years\)\.$")
        self.assertIn("mean 1683 vs median 1687)", texts[1])
        self.assertFalse(any(re.search(r"\d,\d", t) for t in texts), texts)
        plain = distribution_insights(reigns, "price")[0]["text"]
        self.assertTrue(plain.startswith("The median price is 1,687;"), plain)

    def test_unusable_inputs_give_nothing(self):
        self.assertEqual(trend_insights(self.monthly(periods=2), "month", "revenue"), [])
        self.assertEqual(trend_insights(pd.DataFrame({"m": [], "v": []}), "m", "v"), [])
        flat = pd.DataFrame({"m": pd.date_range("2024-01-01", periods=5), "v": [3.0] * 5})
        self.assertEqual(trend_insights(flat, "m", "v"), [])
        self.assertEqual(trend_insights(self.monthly(), "month", "nope"), [])
        words = pd.DataFrame({"m": ["a", "b", "c"], "v": [1, 2, 3]})
        self.assertEqual(trend_insights(words, "m", "v"), [])

    def test_missing_values_are_skipped_and_numbers_json_safe(self):
        frame = self.monthly()
        frame.loc[3, "revenue"] = np.nan
        insights = trend_insights(frame, "month", "revenue")
        self.assertTrue(insights)
        assert_json_safe(self, insights)


class ScaleTests(unittest.TestCase):
    def test_the_sides_of_a_scale_share_the_answers_missing_ones_left_out(self):
        frame = pd.DataFrame({"q": ["Agree", "Strongly agree", "Neutral", "Disagree", "Don't know", None],
                              "count": [30, 10, 20, 15, 5, 20]})
        [found] = scale_insights(frame, "q", "count", ["Disagree"], ["Agree", "Strongly agree"])
        self.assertEqual(found["text"], "50.0% of the answers to q are Agree or Strongly agree; 18.8% are Disagree.")
        self.assertEqual(found["numbers"]["total"], 80)
        self.assertEqual(scale_insights(frame, "q", "count", [], ["Agree"]), [])
        self.assertEqual(scale_insights(frame.assign(count=0), "q", "count", ["Disagree"], ["Agree"]), [])


class ShareTests(unittest.TestCase):
    FRAME = pd.DataFrame({"region": ["North", "West", "East", "South", "Other"], "revenue": [220.0, 312, 200, 100, 500]})

    def test_top_share_ratio_and_top3_match_pandas(self):
        kinds = by_kind(share_insights(self.FRAME, "region", "revenue"))
        total = self.FRAME["revenue"].sum()
        self.assertAlmostEqual(kinds["top_share"]["numbers"]["share_pct"], 312 / total * 100)
        self.assertEqual(kinds["top_share"]["text"], f"West accounts for {312 / total * 100:.1f}% of revenue (312 of 1,332).")
        self.assertAlmostEqual(kinds["top_vs_second"]["numbers"]["ratio"], 312 / 220)
        self.assertIn("1.4× the revenue of North", kinds["top_vs_second"]["text"])
        self.assertAlmostEqual(kinds["top3_share"]["numbers"]["share_pct"], (312 + 220 + 200) / total * 100)
        self.assertIn("(West, North, East)", kinds["top3_share"]["text"])

    def test_the_member_asked_about_is_said_first_unless_it_leads(self):
        named = share_insights(self.FRAME, "region", "revenue", named="East")
        self.assertEqual(named[0]["kind"], "named_share")
        self.assertEqual(named[0]["text"], "East accounts for 15.0% of revenue (200 of 1,332).")
        self.assertEqual(named[1]["kind"], "top_share")
        leader = share_insights(self.FRAME, "region", "revenue", named="West")
        self.assertNotIn("named_share", [f["kind"] for f in leader])
        self.assertNotIn("named_share", [f["kind"] for f in share_insights(self.FRAME, "region", "revenue", named="Nowhere")])

    def test_a_leader_beside_groups_under_one_percent_is_stated_by_its_share_alone(self):
        frame = pd.DataFrame({"country": ["USA", "Federated States of Micronesia", "N Mariana Islands", "Guam"],
                              "count": [3372, 1, 2, 1]})
        self.assertEqual([f["text"] for f in share_insights(frame, "country", "count")],
                         ["USA accounts for 99.9% of rows (3,372 of 3,376)."])
        more = pd.concat([frame, pd.DataFrame({"country": ["Palau"], "count": [40]})], ignore_index=True)
        kinds = by_kind(share_insights(more, "country", "count"))
        self.assertIn("the rows of Palau", kinds["top_vs_second"]["text"])
        self.assertIn("(USA, Palau, N Mariana Islands)", kinds["top3_share"]["text"])

    def test_rows_without_a_category_count_in_the_total_but_lead_no_ranking(self):
        frame = pd.DataFrame({"director": [None, "Spielberg", "Cameron", "Zemeckis", None],
                              "gross": [400.0, 300, 200, 100, 100]})
        kinds = by_kind(share_insights(frame, "director", "gross"))
        self.assertEqual(kinds["top_share"]["text"], "Spielberg accounts for 27.3% of gross (300 of 1,100).")
        self.assertIn("(Spielberg, Cameron, Zemeckis)", kinds["top3_share"]["text"])
        means = by_kind(ranking_insights(frame.assign(gross=[900.0, 300, 200, 100, 1]), "director", "gross"))
        self.assertTrue(means["ranking"]["text"].startswith("Spielberg has the highest gross (300); Zemeckis the lowest (100)"))

    def test_a_numeric_group_is_named_with_its_column(self):
        frame = pd.DataFrame({"Pclass": [1, 2, 3, 4], "Fare": [18177.4, 3801.8, 6714.7, 1000]})
        kinds = by_kind(share_insights(frame, "Pclass", "Fare"))
        self.assertEqual(kinds["top_share"]["text"], "Pclass 1 accounts for 61.2% of Fare (18,177 of 29,694).")
        self.assertIn("the Fare of Pclass 3", kinds["top_vs_second"]["text"])
        self.assertIn("(Pclass 1, Pclass 3, Pclass 2)", kinds["top3_share"]["text"])

    def test_other_is_never_the_top_category(self):
        for insight in share_insights(self.FRAME, "region", "revenue"):
            self.assertNotIn("Other", insight["text"])

    def test_repeated_categories_are_summed(self):
        frame = pd.DataFrame({"r": ["a", "b", "a"], "v": [1.0, 2.0, 3.0]})
        self.assertAlmostEqual(by_kind(share_insights(frame, "r", "v"))["top_share"]["numbers"]["share_pct"], 4 / 6 * 100)

    def test_totals_on_both_sides_of_zero_get_no_shares_but_their_ends_and_net(self):
        frame = pd.DataFrame({"c": ["Salary", "Rent", "Food", "Other", "Food"], "v": [3200.0, -1500.0, -80.0, -9000.0, -40.0]})
        found = share_insights(frame, "c", "v", label="Amount", money="$")
        self.assertEqual([i["kind"] for i in found], ["signed_totals"])
        self.assertEqual(found[0]["text"], "Salary has the largest Amount ($3,200); Rent the most negative (-$1,500); "
                                           "all 4 together come to -$7,420.")

    def test_unusable_inputs_give_nothing(self):
        self.assertEqual(share_insights(self.FRAME.iloc[:1], "region", "revenue"), [])
        self.assertEqual(share_insights(pd.DataFrame({"r": ["a", "b"], "v": [5, 5]}), "r", "v"), [])
        self.assertEqual(share_insights(pd.DataFrame({"r": ["a", "b"], "v": [-5, -1]}), "r", "v"), [])
        self.assertEqual(share_insights(pd.DataFrame({"r": [], "v": []}), "r", "v"), [])
        self.assertEqual(share_insights(pd.DataFrame({"r": ["a", "b"], "v": [np.nan, np.nan]}), "r", "v"), [])


class DistributionTests(unittest.TestCase):
    def test_bearings_are_averaged_on_the_circle(self):
        # 350° and 10° are both near north: their plain mean, 180°, points the other way.
        texts = [i["text"] for i in distribution_insights(pd.Series([350, 10, 355, 5, 0, 360]), "wind", direction=True)]
        self.assertIn("its mean direction is 0° (N), and the values are tightly gathered around it", texts[0])
        self.assertEqual(texts[1], "The most common direction of wind is N (337.5°–22.5°): 6 of 6 values (100%).")
        self.assertFalse(any("median" in t or "skew" in t for t in texts))
        balanced = distribution_insights(pd.Series([0, 90, 180, 270, np.nan, np.inf]), "wind", direction=True)
        self.assertIn("so they have no mean direction", balanced[0]["text"])
        self.assertEqual(balanced[0]["numbers"]["n"], 4)

    VALUES = pd.Series([1.0, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 40, np.nan])

    def test_median_iqr_and_outliers_match_pandas(self):
        kinds = by_kind(distribution_insights(self.VALUES, "order value"))
        present = self.VALUES.dropna()
        q1, q3 = present.quantile(0.25), present.quantile(0.75)
        self.assertEqual(kinds["spread"]["numbers"]["median"], present.median())
        self.assertAlmostEqual(kinds["spread"]["numbers"]["iqr"], q3 - q1)
        outliers = int(((present < q1 - 1.5 * (q3 - q1)) | (present > q3 + 1.5 * (q3 - q1))).sum())
        self.assertEqual(kinds["outliers"]["numbers"]["outliers"], outliers)
        self.assertAlmostEqual(kinds["outliers"]["numbers"]["share_pct"], outliers / len(present) * 100)

    def test_a_middle_half_of_one_value_is_said_so(self):
        costs = pd.Series([0.0] * 96 + [5, 120, 3000, 8])
        texts = [i["text"] for i in distribution_insights(costs, "cost")]
        self.assertEqual(texts[0], "Cost is 0 across its middle half: the median and both quartiles are 0 (IQR 0).")
        self.assertEqual(texts[2], "4 values (4.0%) of cost differ from 0 (all above it): "
                                   "with an IQR of 0, each lies beyond 1.5 IQR of the quartiles.")
        both = [i["text"] for i in distribution_insights(pd.concat([costs, pd.Series([-2.0])]), "cost")]
        self.assertTrue(both[2].startswith("5 values (5.0%) of cost differ from 0: with an IQR of 0"))
        one = [i["text"] for i in distribution_insights(pd.Series([0.0] * 96 + [7]), "cost")]
        self.assertTrue(one[2].startswith("1 value (1.0%) of cost differs from 0 (above it):"))

    def test_infinities_are_left_out_and_said_so(self):
        plain = by_kind(distribution_insights(self.VALUES, "order value"))
        with_inf = pd.concat([self.VALUES, pd.Series([np.inf, -np.inf])], ignore_index=True)
        kinds = by_kind(distribution_insights(with_inf, "order value"))
        self.assertEqual(kinds["spread"]["numbers"], plain["spread"]["numbers"])
        self.assertEqual(kinds["spread"]["text"],
                         plain["spread"]["text"][:-1] + ", over its 12 finite values (2 infinite values left out).")
        self.assertTrue(kinds["skew"]["text"].startswith("Order value's finite values are right-skewed"))
        self.assertTrue(kinds["outliers"]["text"].startswith("1 finite value (8.3%) of order value lies beyond"))
        one = by_kind(distribution_insights(pd.Series([1.0, 2, 3, np.inf]), "x"))
        self.assertTrue(one["spread"]["text"].endswith("(1 infinite value left out)."))
        self.assertNotIn("finite", " ".join(i["text"] for i in plain.values()))

    def test_skew_direction_in_words(self):
        kinds = by_kind(distribution_insights(self.VALUES, "order value"))
        self.assertAlmostEqual(kinds["skew"]["numbers"]["skew"], self.VALUES.skew())
        self.assertIn("right-skewed: a long tail of large values", kinds["skew"]["text"])
        left = by_kind(distribution_insights(-self.VALUES, "x"))
        self.assertIn("left-skewed", left["skew"]["text"])
        symmetric = by_kind(distribution_insights(np.arange(1, 101), "x"))
        self.assertIn("roughly symmetric", symmetric["skew"]["text"])
        self.assertNotIn("outliers", symmetric)

    def test_skew_that_rounds_to_zero_has_no_sign(self):
        slightly_left = pd.Series(list(range(1, 101)) + [52])
        self.assertLess(slightly_left.skew(), 0)
        kinds = by_kind(distribution_insights(slightly_left, "x"))
        self.assertIn("(skew 0.00;", kinds["skew"]["text"])
        self.assertLess(kinds["skew"]["numbers"]["skew"], 0)

    def test_percentages_are_written_with_percent_and_their_iqr_in_points(self):
        margins = pd.Series([8.4, 11.4, 12.0, 15.2, 17.4, 18.1, 21.4, 22.0, 29.5, 60.0])
        kinds = by_kind(distribution_insights(margins, "margin", points=True))
        self.assertEqual(kinds["spread"]["text"], "The median margin is 17.8%; the middle half lies between 12.8% and "
                                                  "21.8% (IQR 9.05 percentage points).")
        self.assertIn("(skew 2.25; mean 21.5% vs median 17.8%)", kinds["skew"]["text"])
        self.assertTrue(kinds["outliers"]["text"].endswith("(above 35.4%)."))
        self.assertNotIn("%", by_kind(distribution_insights(margins, "margin"))["spread"]["text"])

    def test_unusable_inputs_give_nothing(self):
        self.assertEqual(distribution_insights([], "x"), [])
        self.assertEqual(distribution_insights([5.0], "x"), [])
        self.assertEqual(distribution_insights([2, 2, 2], "x"), [])
        self.assertEqual(distribution_insights([np.nan, np.inf], "x"), [])


class BoxTests(unittest.TestCase):
    def test_highest_and_lowest_median_as_the_host_says_them(self):
        # As test/engine-execute.test.ts's box by a text grouping: a tie at the top goes to the first name.
        frame = pd.DataFrame({"g": ["y", "y", "x", "z", "z", "z", "w"], "v": [4.0, 6, 5, 1, 2, np.inf, np.nan]})
        [found] = box_insights(frame, "g", "v", "median v")
        self.assertEqual(found["text"], "x has the highest median v (5); z the lowest (1.5), 3.3× apart.")

    def test_percentages_apart_by_points_and_tested_as_means(self):
        frame = pd.DataFrame({"g": ["a"] * 12 + ["b"] * 3, "v": [10.0 + i % 3 for i in range(12)] + [30.0, 31, 29]})
        [found] = box_insights(frame, "g", "v", "median margin", points=True)
        self.assertEqual(found["text"], "b has the highest median margin (30%); a the lowest (11%), "
                                        "19 percentage points apart.")
        self.assertEqual(found["numbers"]["difference"], 19.0)
        from opsmind_insights import ranking_insights
        means = pd.DataFrame({"g": ["a", "b"], "v": [11.0, 30.0]})
        keys = pd.Series(frame["g"])
        [ranked] = ranking_insights(means, "g", "v", "mean margin", points=True, keys=keys, values=frame["v"])
        # A mean of few values is said "from 3 values", never "1 of 3 rows" as a rate's share would be.
        self.assertIn("(30%, from 3 values)", ranked["text"])
        self.assertNotIn("Fisher", ranked["text"])

    def test_nothing_with_a_missing_group_or_more_groups_than_drawn(self):
        missing = pd.DataFrame({"g": ["a", "b", None], "v": [1.0, 2, 3]})
        self.assertEqual(box_insights(missing, "g", "v", "median v"), [])
        many = pd.DataFrame({"g": [f"g{i % 31}" for i in range(93)], "v": np.arange(93.0)})
        self.assertEqual(box_insights(many, "g", "v", "median v"), [])
        fractions = pd.DataFrame({"g": [1.5, 1.5, 2.5], "v": [1.0, 2, 3]})
        self.assertEqual(box_insights(fractions, "g", "v", "median v"), [])

    def test_a_whole_number_grouping_names_its_groups_with_the_column(self):
        # Classes 1, 2, 3 and 10: in numeric order (the tie of 2 and 10 goes to 2, not to "10" < "2"), each named
        # with its column.
        classes = pd.DataFrame({"class": [1, 1, 2, 2, 3, 3, 10], "fare": [8.0, 9, 60, 80, 20, 22, 70]})
        [found] = box_insights(classes, "class", "fare", "median fare")
        self.assertEqual(found["text"], "class 2 has the highest median fare (70); class 1 the lowest (8.5), 8.2× apart.")


class CorrelationTests(unittest.TestCase):
    def test_few_pairs_say_chance_could_give_it(self):
        few = correlation_insights(pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [2, 4, 5, 4, 6]}), "a", "b")[0]
        self.assertTrue(few["text"].endswith("With only 5 pairs, chance alone could give it."))
        ten = pd.DataFrame({"a": range(10), "b": [v * v for v in range(10)]})
        self.assertNotIn("chance", correlation_insights(ten, "a", "b")[0]["text"])

    def test_pearson_and_spearman_match_pandas(self):
        rng = np.random.default_rng(4)
        x = rng.normal(size=100)
        frame = pd.DataFrame({"price": x, "units": -2 * x + rng.normal(size=100)})
        frame.loc[5, "units"] = np.nan
        insight = by_kind(correlation_insights(frame, "price", "units"))["correlation"]
        complete = frame.dropna()
        self.assertAlmostEqual(insight["numbers"]["r"], complete["price"].corr(complete["units"]))
        self.assertAlmostEqual(insight["numbers"]["rho"], complete["price"].rank().corr(complete["units"].rank()))
        self.assertEqual(insight["numbers"]["n"], 99)
        self.assertIn("strong negative correlation between price and units", insight["text"])
        self.assertIn("not evidence that one causes the other", insight["text"])

    def test_strength_words(self):
        rng = np.random.default_rng(5)
        x = rng.normal(size=2000)
        for noise, word in ((0.3, "strong"), (1.5, "moderate"), (5.0, "weak")):
            frame = pd.DataFrame({"a": x, "b": x + rng.normal(size=2000) * noise})
            with self.subTest(word=word):
                self.assertIn(f" {word} positive", correlation_insights(frame, "a", "b")[0]["text"])

    def test_monotonic_but_curved_relation_is_noted(self):
        x = np.linspace(0, 10, 50)
        kinds = by_kind(correlation_insights(pd.DataFrame({"x": x, "y": np.exp(x)}), "x", "y"))
        self.assertIn("correlation_shape", kinds)
        self.assertAlmostEqual(kinds["correlation"]["numbers"]["rho"], 1.0)

    def test_unusable_inputs_give_nothing(self):
        self.assertEqual(correlation_insights(pd.DataFrame({"a": [1, 2], "b": [2, 3]}), "a", "b"), [])
        self.assertEqual(correlation_insights(pd.DataFrame({"a": [1, 2, 3], "b": [4, 4, 4]}), "a", "b"), [])
        self.assertEqual(correlation_insights(pd.DataFrame({"a": ["x", "y", "z"], "b": [1, 2, 3]}), "a", "b"), [])


if __name__ == "__main__":
    unittest.main()
