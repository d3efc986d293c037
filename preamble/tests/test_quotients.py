"""opsmind_semantic.quotient_facts: a column that is one column divided by another on every row."""
import os
import sys
import unittest

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from opsmind_semantic import _decimals, quotient_facts  # noqa: E402


def ads(rows=200, seed=3):
    rng = np.random.default_rng(seed)
    impressions = rng.integers(100, 50_000, rows)
    clicks = np.maximum(1, (impressions * rng.uniform(0.001, 0.1, rows)).astype(int))
    cost = np.round(clicks * rng.uniform(0.2, 3.0, rows), 2)
    return pd.DataFrame({
        "impr": impressions,
        "clicks": clicks,
        "ctr": [f"{c / i * 100:.2f}%" for c, i in zip(clicks, impressions)],
        "cpc": np.round(cost / clicks, 2),
        "cost": cost,
        "noise": np.round(rng.uniform(0, 100, rows), 2),
    })


class QuotientTestCase(unittest.TestCase):
    def test_decimals_are_the_fewest_that_write_every_value(self):
        self.assertEqual(_decimals(pd.Series([1.0, 2.0, np.nan])), 0)
        self.assertEqual(_decimals(pd.Series([8.42, 0.1, 3.0])), 2)
        self.assertIsNone(_decimals(pd.Series([1 / 3])))

    def test_a_percentage_and_a_price_per_click_are_found_with_their_scales(self):
        df = ads()
        candidates = [["ctr", "clicks", "impr", 1], ["ctr", "clicks", "impr", 100],
                      ["cpc", "cost", "clicks", 1], ["noise", "cost", "clicks", 1]]
        found = quotient_facts(df, candidates, {"ctr"}, 2000)
        self.assertEqual(found, [
            {"column": "ctr", "numerator": "clicks", "denominator": "impr", "scale": 100, "decimals": 2},
            {"column": "cpc", "numerator": "cost", "denominator": "clicks", "scale": 1, "decimals": 2},
        ])

    def test_rows_without_a_denominator_are_left_out_and_a_few_wrong_rows_are_not(self):
        df = ads()
        df.loc[:9, "clicks"] = 0  # no clicks: no cost per click to check
        df.loc[:9, "cost"] = 0.0
        self.assertEqual(len(quotient_facts(df, [["cpc", "cost", "clicks", 1]], set(), 2000)), 1)
        df.loc[10:19, "cpc"] = 99.0  # 10 of 190 rows wrong: 5%, past the 1% a quotient may miss
        self.assertEqual(quotient_facts(df, [["cpc", "cost", "clicks", 1]], set(), 2000), [])

    def test_the_first_rows_screen_and_every_row_decides(self):
        df = ads(rows=400)
        df.loc[300:, "cpc"] = 50.0  # the first 300 rows hold; all 400 do not
        self.assertEqual(len(quotient_facts(df, [["cpc", "cost", "clicks", 1]], set(), 300)), 0)
        df = ads(rows=400)
        df.loc[:50, "cpc"] = 50.0  # the screen fails: every row is not read
        self.assertEqual(quotient_facts(df, [["cpc", "cost", "clicks", 1]], set(), 100), [])


class BalanceTestCase(unittest.TestCase):
    def frame(self, newest_first):
        rng = np.random.default_rng(4)
        amount = np.round(rng.uniform(-200, 150, 60), 2)
        balance = np.round(1000 + np.cumsum(amount), 2)
        df = pd.DataFrame({"amount": amount, "balance": balance})
        return df.iloc[::-1].reset_index(drop=True) if newest_first else df

    def test_a_running_balance_is_found_in_either_order(self):
        from opsmind_semantic import balance_facts
        self.assertEqual(balance_facts(self.frame(False), [["balance", "amount"]]),
                         [{"balance": "balance", "amount": "amount", "order": "ascending"}])
        self.assertEqual(balance_facts(self.frame(True), [["balance", "amount"]]),
                         [{"balance": "balance", "amount": "amount", "order": "descending"}])

    def test_a_level_that_does_not_follow_the_flow_is_none(self):
        from opsmind_semantic import balance_facts
        df = self.frame(False)
        df["balance"] = df["balance"].sample(frac=1, random_state=1).to_numpy()
        self.assertEqual(balance_facts(df, [["balance", "amount"]]), [])

    def test_money_in_and_out_in_two_columns_with_blanks(self):
        from opsmind_semantic import balance_facts
        df = self.frame(True)
        df["paid_in"] = df["amount"].where(df["amount"] > 0)
        df["paid_out"] = (-df["amount"]).where(df["amount"] < 0)
        self.assertEqual(balance_facts(df, [["balance", "paid_in", "paid_out"]]),
                         [{"balance": "balance", "amount": "paid_in", "order": "descending", "debit": "paid_out"}])
        # Swapped, the balance would fall by money in: no balance.
        self.assertEqual(balance_facts(df, [["balance", "paid_out", "paid_in"]]), [])

    def test_a_column_of_mostly_zeros_is_no_balance_of_the_two_it_is_the_difference_of(self):
        from opsmind_semantic import balance_facts
        rng = np.random.default_rng(2)
        other = np.zeros(2000)
        other[::250] = np.round(rng.uniform(1, 900, 8), 2)  # 8 rows of 2,000 (birdstrikes' Cost Other)
        repair = np.where(rng.random(2000) < 0.9, 0.0, np.round(rng.uniform(1, 900, 2000), 2))
        df = pd.DataFrame({"other": other, "repair": repair, "total": other + repair})
        # From a 0 it steps by its own value, total − repair, on 1,992 of the 2,000 rows.
        self.assertEqual(balance_facts(df, [["other", "total", "repair"]], 2000), [])

    def test_two_columns_are_screened_on_the_first_rows_as_in_sql(self):
        from opsmind_semantic import balance_facts
        rng = np.random.default_rng(9)
        amount = np.round(rng.uniform(-200, 150, 400), 2)
        df = pd.DataFrame({"balance": np.round(1000 + np.cumsum(amount), 2),
                           "paid_in": np.where(amount > 0, amount, np.nan),
                           "paid_out": np.where(amount < 0, -amount, np.nan)})
        df.loc[5, "balance"] += 1  # 2 of the first 19 steps miss (89%); 2 of 399 in all (99.5%)
        pairs = [["balance", "paid_in", "paid_out"]]
        self.assertEqual(len(balance_facts(df, pairs)), 1)
        self.assertEqual(balance_facts(df, pairs, 20), [])


if __name__ == "__main__":
    unittest.main()
