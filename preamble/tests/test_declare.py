"""declare_chart / declare_table through Recorder + make_namespace: the spec and the frames it points at."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import opsmind_contract as contract  # noqa: E402
from opsmind_preamble import Recorder, make_namespace  # noqa: E402

DATA_KEYS = {"file", "columns", "source_columns", "rows", "source_rows", "sampled", "reductions", "cap", "error"}
REDUCTIONS = set(contract.REDUCTIONS)
DTYPES = set(contract.COLUMN_TYPES)


def cap(kind, name):
    """A cap of a kind, from the contract the host generated."""
    return contract.caps(kind)[name]


def strict_load(path):
    """json.load that refuses NaN/Infinity, as the host's JSON.parse does."""
    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name} in {path}")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle, parse_constant=refuse)


class DeclareTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.workdir = self._tmp.name
        self.recorder = Recorder(self.workdir)

    def namespace(self, df):
        return make_namespace(self.recorder, df, "data.csv", {"format": "csv"})

    def spec(self):
        self.recorder.finish()
        spec = strict_load(os.path.join(self.workdir, "render_spec.json"))
        for item in spec["charts"] + spec["tables"]:
            self.assertEqual(set(item["data"]), DATA_KEYS)
            self.assertLessEqual(set(item["data"]["reductions"]), REDUCTIONS)
            for info in item["data"]["columns"] + item["data"]["source_columns"]:
                self.assertIn(info["dtype"], DTYPES)
        return spec

    def frame(self, item):
        raw = strict_load(os.path.join(self.workdir, item["data"]["file"]))
        self.assertEqual(set(raw), {"columns", "data"})
        return pd.DataFrame(raw["data"], columns=raw["columns"])

    def declare(self, df, kind, **params):
        """Declare one chart (or a table when kind is "table") over df; return its spec entry and frame."""
        ns = self.namespace(df)
        ident = ns["declare_table"](df, **params) if kind == "table" else ns["declare_chart"](kind, **params)
        spec = self.spec()
        item = next(i for i in spec["charts"] + spec["tables"] if i["id"] == ident)
        return item, (self.frame(item) if item["data"]["file"] else None)


class IdentityTests(DeclareTestCase):
    def test_ids_and_seq_interleave_charts_and_tables(self):
        df = pd.DataFrame({"k": ["a", "b"], "v": [1, 2]})
        ns = self.namespace(df)
        ids = [ns["declare_chart"]("bar", x="k", y="v"), ns["declare_table"](df), ns["declare_chart"]("pie", names="k", values="v")]
        self.assertEqual(ids, ["c1", "t1", "c2"])
        spec = self.spec()
        self.assertEqual([(c["id"], c["seq"]) for c in spec["charts"]], [("c1", 1), ("c2", 3)])
        self.assertEqual([(t["id"], t["seq"]) for t in spec["tables"]], [("t1", 2)])
        self.assertEqual(spec["version"], contract.SPEC_VERSION)
        self.assertIsNone(spec["error"])

    def test_only_used_columns_are_written_but_all_are_listed(self):
        df = pd.DataFrame({f"n{i}": np.arange(5) * i for i in range(8)})
        df["label"] = list("abcde")
        df["when"] = pd.date_range("2024-01-01", periods=5)
        item, frame = self.declare(df, "bar", x="label", y="n3")
        self.assertEqual(list(frame.columns), ["label", "n3"])
        self.assertEqual(len(item["data"]["source_columns"]), 10)
        dtypes = {c["name"]: c["dtype"] for c in item["data"]["source_columns"]}
        self.assertEqual((dtypes["n0"], dtypes["label"], dtypes["when"]), ("number", "string", "datetime"))


class JsonSafetyTests(DeclareTestCase):
    def test_nan_and_infinities_become_null_in_a_chart(self):
        df = pd.DataFrame({"x": ["a", "b", "c", "d"], "y": [np.nan, np.inf, -np.inf, 1.5]})
        item, _ = self.declare(df, "bar", x="x", y="y")
        raw = strict_load(os.path.join(self.workdir, item["data"]["file"]))
        at = raw["columns"].index("y")
        self.assertEqual(sorted((row[at] for row in raw["data"]), key=str), [1.5, None, None, None])

    def test_a_table_writes_infinities_as_text_not_as_missing(self):
        # A ratio divided by zero is infinite, not unknown: the table says ∞ (null would show "—").
        df = pd.DataFrame({"x": ["a", "b", "c", "d"], "y": [np.nan, np.inf, -np.inf, 1.5],
                           "z": pd.array([np.inf, None, 2.0, 3.0], dtype="Float64")})
        item, frame = self.declare(df, "table")
        self.assertEqual(frame["y"].tolist(), [None, "∞", "-∞", 1.5])
        self.assertEqual(frame["z"].tolist(), ["∞", None, 2.0, 3.0])
        self.assertEqual({c["name"]: c["dtype"] for c in item["data"]["columns"]}["y"], "number")

    def test_timestamps_become_iso_strings(self):
        df = pd.DataFrame({"t": pd.to_datetime(["2024-03-01 12:30", None])})
        _, frame = self.declare(df, "table")
        self.assertTrue(frame["t"][0].startswith("2024-03-01T12:30:00"))
        self.assertIsNone(frame["t"][1])

    def test_categoricals_and_timedeltas_become_text(self):
        df = pd.DataFrame({"c": pd.Categorical(["lo", None, "hi"]), "d": pd.to_timedelta(["1 day", None, "2h"])})
        item, frame = self.declare(df, "table")
        self.assertEqual(frame["c"].tolist(), ["lo", None, "hi"])
        self.assertEqual(frame["d"][0], "1 days 00:00:00")
        self.assertIsNone(frame["d"][1])
        self.assertEqual(item["data"]["source_columns"][0]["dtype"], "category")

    def test_numpy_scalars_in_params_become_numbers(self):
        df = pd.DataFrame({"k": list("abcdef"), "v": np.arange(6)})
        item, _ = self.declare(df, "bar", x="k", y="v", top_n=np.int64(3), opacity=np.float64(0.5), bad=np.float64("nan"))
        self.assertEqual(item["params"]["top_n"], 3)
        self.assertIsInstance(item["params"]["top_n"], int)
        self.assertEqual(item["params"]["opacity"], 0.5)
        self.assertIsNone(item["params"].get("bad"))  # a NaN parameter is dropped or null, never NaN

    def test_float32_nan_param_on_unprepared_declaration_still_writes_spec(self):
        df = pd.DataFrame({"k": ["a"], "v": [1]})
        item, _ = self.declare(df, "bar", x="missing", y="v", opacity=np.float32("nan"))
        self.assertIsNone(item["params"]["opacity"])

    def test_index_valued_param_is_a_list(self):
        df = pd.DataFrame({"t": [1, 2, 3], "a": [1.0, 2, 3], "b": [3.0, 2, 1]})
        item, frame = self.declare(df, "line", x="t", y=df.columns[1:])
        self.assertEqual(item["params"]["y"], ["a", "b"])


class CapTests(DeclareTestCase):
    def test_million_row_line_is_downsampled_keeping_extremes(self):
        n = 1_000_000
        y = np.random.default_rng(7).normal(size=n)
        y[123_457], y[876_543] = 50.0, -50.0
        item, frame = self.declare(pd.DataFrame({"x": np.arange(n), "y": y}), "line", x="x", y="y")
        data = item["data"]
        self.assertLessEqual(data["rows"], cap("line", "points"))
        self.assertLessEqual(len(frame), cap("line", "points"))
        self.assertIn("downsampled", data["reductions"])
        self.assertTrue(data["sampled"])
        self.assertEqual(data["source_rows"], n)
        self.assertEqual(frame["y"].max(), 50.0)
        self.assertEqual(frame["y"].min(), -50.0)
        self.assertTrue(frame["x"].is_monotonic_increasing)

    def test_line_with_many_series_stays_under_cap(self):
        df = pd.DataFrame({"x": np.tile(np.arange(10), 2000), "g": np.repeat(np.arange(2000), 10),
                           "y": np.random.default_rng(1).normal(size=20_000)})
        item, _ = self.declare(df, "line", x="x", y="y", color="g")
        self.assertLessEqual(item["data"]["rows"], cap("line", "points"))

    def test_scatter_is_sampled_reproducibly(self):
        rng = np.random.default_rng(3)
        df = pd.DataFrame({"a": rng.normal(size=100_000), "b": rng.normal(size=100_000)})
        first, frame1 = self.declare(df, "scatter", x="a", y="b")
        self.setUp()
        _, frame2 = self.declare(df, "scatter", x="a", y="b")
        self.assertEqual(len(frame1), cap("scatter", "points"))
        self.assertTrue(first["data"]["sampled"])
        self.assertIn("sampled", first["data"]["reductions"])
        pd.testing.assert_frame_equal(frame1, frame2)

    def test_bar_over_200_categories_folds_into_other_preserving_total(self):
        df = pd.DataFrame({"cat": [f"c{i:03d}" for i in range(200)], "v": np.arange(1, 201)})
        item, frame = self.declare(df, "bar", x="cat", y="v", top_n=10)
        self.assertEqual(len(frame), 11)
        self.assertEqual(frame["cat"].iloc[-1], contract.OTHER)
        self.assertEqual(frame["v"].sum(), df["v"].sum())
        self.assertIn("top_n", item["data"]["reductions"])

    def test_bar_default_cap_is_the_top_categories_plus_other(self):
        df = pd.DataFrame({"cat": [f"c{i:03d}" for i in range(200)], "v": np.arange(1, 201)})
        item, frame = self.declare(df, "bar", x="cat", y="v")
        self.assertEqual((len(frame), item["data"]["cap"]), (cap("bar", "categories") + 1, cap("bar", "categories")))
        self.assertEqual(frame["v"].sum(), df["v"].sum())
        self.assertEqual(set(frame["cat"][:-1]), {f"c{i:03d}" for i in range(200 - cap("bar", "categories"), 200)})

    def test_histogram_counts_every_finite_value_of_a_million(self):
        y = np.random.default_rng(5).lognormal(size=1_000_000)
        y[:100] = np.nan
        y[100:110] = np.inf
        item, frame = self.declare(pd.DataFrame({"y": y}), "histogram", x="y")
        self.assertEqual(int(frame["count"].sum()), 1_000_000 - 110)
        self.assertLessEqual(len(frame), cap("histogram", "bins"))
        self.assertEqual(item["data"]["reductions"], ["binned"])
        self.assertFalse(item["data"]["sampled"])

    def test_histogram_with_far_outlier_still_bins(self):
        y = np.append(np.random.default_rng(0).random(100_000), 1e9)
        item, frame = self.declare(pd.DataFrame({"y": y}), "histogram", x="y")
        self.assertIsNone(item["data"]["error"])
        self.assertEqual(int(frame["count"].sum()), len(y))

    def test_box_statistics_equal_numpy_percentiles(self):
        y = np.random.default_rng(9).exponential(size=10_001)
        _, frame = self.declare(pd.DataFrame({"y": y}), "box", y="y")
        q1, median, q3 = np.percentile(y, [25, 50, 75])
        row = frame.iloc[0]
        self.assertAlmostEqual(row["q1"], q1, places=12)
        self.assertAlmostEqual(row["median"], median, places=12)
        self.assertAlmostEqual(row["q3"], q3, places=12)
        self.assertAlmostEqual(row["mean"], y.mean(), places=12)
        self.assertEqual(row["n"], len(y))

    def test_pie_over_20_categories_folds_to_six_slices(self):
        df = pd.DataFrame({"name": [f"n{i}" for i in range(20)], "share": np.arange(20, 0, -1)})
        item, frame = self.declare(df, "pie", names="name", values="share")
        self.assertLessEqual(len(frame), cap("pie", "categories") + 1)
        self.assertIn(contract.OTHER, frame["name"].tolist())
        self.assertEqual(frame["share"].sum(), df["share"].sum())

    def test_table_truncates_to_max_rows(self):
        df = pd.DataFrame({"a": np.arange(500)})
        item, frame = self.declare(df, "table", max_rows=20)
        self.assertEqual((item["id"], item["data"]["rows"], item["data"]["source_rows"]), ("t1", 20, 500))
        self.assertEqual(frame["a"].tolist(), list(range(20)))
        self.assertIn("truncated", item["data"]["reductions"])


class InferenceAndProblemTests(DeclareTestCase):
    def test_groupby_series_gets_inferred_x_and_y(self):
        df = pd.DataFrame({"region": ["n", "s", "n", "e"], "sales": [1.0, 2.0, 3.0, 4.0]})
        ns = self.namespace(df)
        ns["declare_chart"]("bar", df.groupby("region")["sales"].sum())
        item = self.spec()["charts"][0]
        self.assertEqual((item["params"]["x"], item["params"]["y"]), ("region", "sales"))
        self.assertEqual(sorted(item["inferred"]), ["x", "y"])
        frame = self.frame(item)
        self.assertEqual(dict(zip(frame["region"], frame["sales"])), {"e": 4.0, "n": 4.0, "s": 2.0})

    def test_unknown_column_writes_no_file_and_does_not_raise(self):
        item, frame = self.declare(pd.DataFrame({"a": [1], "b": [2]}), "bar", x="a", y="nope")
        self.assertIsNone(item["data"]["file"])
        self.assertIsNone(frame)
        self.assertEqual([c["name"] for c in item["data"]["source_columns"]], ["a", "b"])

    def test_unknown_kind_writes_no_file_and_does_not_raise(self):
        item, _ = self.declare(pd.DataFrame({"a": [1]}), "sunburst", x="a")
        self.assertEqual(item["kind"], "sunburst")
        self.assertIsNone(item["data"]["file"])
        self.assertFalse(os.path.exists(os.path.join(self.workdir, "artifacts", "c1.json")))

    def test_data_problem_is_recorded_not_raised(self):
        df = pd.DataFrame({"k": ["a", "b"], "v": [3, -1]})
        item, _ = self.declare(df, "pie", names="k", values="v")
        self.assertIsNone(item["data"]["file"])
        self.assertIn("negative", item["data"]["error"])

    def test_duplicate_column_names_do_not_raise(self):
        df = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
        item, frame = self.declare(pd.concat([df, df], axis=1), "table")
        self.assertEqual(len(item["data"]["source_columns"]), 4)
        self.assertEqual(frame.shape, (2, 4))


if __name__ == "__main__":
    unittest.main()
