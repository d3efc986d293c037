"""The preamble behaves as opsmind_contract.json (generated from the host's zod schemas) says:
one preparer per kind, the caps per kind, the aggregations, the column types, the
reductions, the "Other" label, the spec version and the worker protocol's ops."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

PREAMBLE = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, PREAMBLE)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import opsmind_contract as contract  # noqa: E402
import opsmind_frames  # noqa: E402
import opsmind_preamble  # noqa: E402
from opsmind_chart_common import as_list  # noqa: E402
from test_declare import DeclareTestCase  # noqa: E402

ROWS = 20_000
CATEGORIES = 300

# One declaration per kind over WIDE: the caps below must bind for each of them.
DECLARATIONS = {
    "bar": {"x": "cat", "y": "v"},
    "line": {"x": "t", "y": "v"},
    "area": {"x": "t", "y": "v"},
    "scatter": {"x": "t", "y": "v"},
    "histogram": {"x": "v", "color": "cat"},
    "box": {"y": "v", "x": "cat"},
    "pie": {"names": "cat", "values": "w"},
    "heatmap": {"x": "cat", "y": "cat2", "z": "w"},
    "table": {},
}


def wide_frame():
    """ROWS rows over CATEGORIES categories, a continuous x and 120 extra numeric columns."""
    rng = np.random.default_rng(11)
    frame = pd.DataFrame({"cat": [f"k{i % CATEGORIES:03d}" for i in range(ROWS)],
                          "cat2": [f"j{(i * 7) % CATEGORIES:03d}" for i in range(ROWS)],
                          "t": np.arange(ROWS, dtype=float), "v": rng.normal(size=ROWS), "w": rng.random(ROWS)})
    extra = pd.DataFrame(rng.random((ROWS, 120)), columns=[f"n{i}" for i in range(120)])
    return pd.concat([frame, extra], axis=1)


class PreparerTests(unittest.TestCase):
    def test_every_kind_has_its_preparer_module(self):
        self.assertEqual(set(opsmind_preamble.PREPARERS), set(contract.KINDS))
        for kind in contract.KINDS:
            self.assertTrue(os.path.isfile(os.path.join(PREAMBLE, f"opsmind_chart_{kind}.py")), kind)

    def test_no_preparer_module_without_a_kind(self):
        modules = {os.path.basename(p)[len("opsmind_chart_"):-3] for p in glob.glob(os.path.join(PREAMBLE, "opsmind_chart_*.py"))}
        self.assertEqual(modules - {"common"}, set(contract.KINDS))

    def test_this_test_declares_every_kind(self):
        self.assertEqual(set(DECLARATIONS), set(contract.KINDS))


class CapTests(DeclareTestCase):
    """Every cap the contract gives a kind binds on data far larger than it."""

    def prepared(self, kind, **params):
        item, frame = self.declare(wide_frame(), kind, **params)
        self.assertIsNone(item["data"]["error"], kind)
        self.assertIsNotNone(frame, kind)
        return item, frame

    def check_cap(self, kind, name, cap):
        if name == "series":  # y omitted over 122 numeric columns: the first `cap` are charted
            item, _ = self.prepared(kind, **({"x": "t"} if kind in ("line", "area") else {}))
            self.assertEqual(len(as_list(item["params"]["y"])), cap)
            return
        item, frame = self.prepared(kind, **DECLARATIONS[kind])
        if name in ("points", "rows"):
            self.assertLessEqual(len(frame), cap)
        elif name == "categories":
            column = {"bar": "cat", "pie": "cat", "box": "group", "heatmap": "x"}[kind]
            self.assertLessEqual(frame[column].nunique(), cap + 1)  # + "Other" where the rest is summed
            self.assertEqual(item["data"]["cap"], cap)
        elif name == "bins":
            self.assertLessEqual(len(frame) / frame["group"].nunique(), cap)
        elif name == "groups":
            self.assertLessEqual(frame["group"].nunique(), cap)
        elif name == "columns":
            self.assertLessEqual(frame.shape[1], cap)
        else:
            self.fail(f"{kind}: the contract has a cap {name!r} this test does not check")

    def test_every_cap_binds(self):
        for kind in contract.KINDS:
            for name, cap in contract.caps(kind).items():
                with self.subTest(kind=kind, cap=name):
                    self.setUp()
                    self.check_cap(kind, name, cap)

    def test_fixed_frame_columns_are_written(self):
        for kind in contract.KINDS:
            fixed = contract.kind(kind)["frame_columns"]
            with self.subTest(kind=kind):
                self.setUp()
                _, frame = self.prepared(kind, **DECLARATIONS[kind])
                if fixed is None and kind != "table":
                    named = {v for key in contract.column_params(kind) for v in [DECLARATIONS[kind].get(key)] if v}
                    self.assertEqual(set(frame.columns), named)
                elif fixed is not None:
                    self.assertLessEqual(set(fixed), set(frame.columns))


class VocabularyTests(DeclareTestCase):
    def test_every_aggregation_is_accepted_and_no_other(self):
        df = pd.DataFrame({"k": list("aabbc"), "v": [1.0, 2, 3, 4, 5]})
        for agg in contract.AGGREGATIONS:
            with self.subTest(agg=agg):
                self.setUp()
                item, _ = self.declare(df, "bar", x="k", y="v", agg=agg)
                self.assertIsNone(item["data"]["error"])
        self.setUp()
        item, _ = self.declare(df, "bar", x="k", y="v", agg="average")
        self.assertIn(", ".join(sorted(contract.AGGREGATIONS)), item["data"]["error"])

    def test_column_types_are_the_contracts(self):
        df = pd.DataFrame({"n": [1.5, 2], "s": ["a", "b"], "d": pd.to_datetime(["2024-01-01", None]),
                           "b": [True, False], "c": pd.Categorical(["x", "y"]), "o": [{"a": 1}, [2]]})
        self.assertEqual([i["dtype"] for i in opsmind_frames.column_infos(df)], list(contract.COLUMN_TYPES))

    def test_other_label_is_the_contracts(self):
        df = pd.DataFrame({"k": [f"c{i}" for i in range(20)], "v": np.arange(20, 0, -1)})
        _, frame = self.declare(df, "bar", x="k", y="v", top_n=3)
        self.assertEqual(frame["k"].iloc[-1], contract.OTHER)

    def test_spec_version_is_the_contracts(self):
        self.assertEqual(self.spec()["version"], contract.SPEC_VERSION)

    def test_contract_is_plain_json_with_every_section(self):
        with open(contract.PATH, encoding="utf-8") as handle:
            raw = json.load(handle)
        self.assertLessEqual({"spec_version", "kinds", "aggregations", "column_types", "reductions",
                              "other_label", "worker", "exit_codes"}, set(raw))


class WorkerProtocolTests(unittest.TestCase):
    """The worker speaks only the ops the host's protocol schema knows."""

    def replies(self, data_text, requests):
        with tempfile.TemporaryDirectory() as root:
            data = os.path.join(root, "data.csv")
            with open(data, "w", encoding="utf-8") as handle:
                handle.write(data_text)
            workroot = os.path.join(root, "work")
            os.mkdir(workroot)
            args = ["/usr/bin/python3", "-I", "-X", "utf8", os.path.join(PREAMBLE, "opsmind_worker.py"),
                    "--data", data, "--workroot", workroot, "--oneshot"]
            stdin = "".join(json.dumps(r) + "\n" for r in requests)
            result = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=120,
                                    env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
        return result, [json.loads(line) for line in result.stdout.splitlines()]

    def test_a_run_uses_only_contract_ops(self):
        request = {"op": contract.CONTRACT["worker"]["requests"][0], "id": "r1", "name": "x.py", "timeout_s": 60,
                   "code": 'declare_chart("bar", x="k", y="v")\n', "limits": {}, "output_bytes": 65536,
                   "max_bundle_bytes": 1 << 24}
        result, replies = self.replies("k,v\na,1\nb,2\n", [request])
        self.assertEqual(result.returncode, 0, result.stderr)
        ops = [r["op"] for r in replies]
        self.assertLessEqual(set(ops), set(contract.CONTRACT["worker"]["replies"]))
        self.assertEqual((ops[0], ops[-1]), ("ready", "done"))
        self.assertIn("file", ops)

    def test_a_data_error_is_a_contract_op(self):
        result, replies = self.replies("", [])
        self.assertEqual([r["op"] for r in replies], ["data_error"])
        self.assertIn("data_error", contract.CONTRACT["worker"]["replies"])


if __name__ == "__main__":
    unittest.main()
