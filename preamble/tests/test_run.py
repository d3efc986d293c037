"""opsmind_run.py end to end: a real child interpreter, as src/sandbox/run-python.ts spawns it."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

PREAMBLE = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
RUNNER = os.path.join(PREAMBLE, "opsmind_run.py")
PYTHON = "/usr/bin/python3"  # Debian's, with pandas; the host also passes -X utf8
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
CSV = "region,sales\nnorth,10\nsouth,20\neast,5\n"


class RunTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = self._tmp.name
        self.workdir = os.path.join(self.root, "work")
        os.mkdir(self.workdir)
        self.data = self.write("sales data.csv", CSV)

    def write(self, name, text):
        path = os.path.join(self.root, name)
        with open(path, "wb") as handle:
            handle.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        return path

    def run_script(self, code, name="report.py", data=None, workdir=None, cwd=None):
        script = self.write("program.py", textwrap.dedent(code))
        args = [PYTHON, "-I", "-X", "utf8", RUNNER, "--data", data or self.data, "--workdir", workdir or self.workdir,
                "--script", script, "--name", name]
        return subprocess.run(args, capture_output=True, text=True, env={**ENV, "HOME": self.workdir},
                              cwd=cwd or self.workdir, timeout=120)

    def spec(self, workdir=None):
        def refuse(constant):
            raise ValueError(f"non-standard JSON constant {constant}")
        with open(os.path.join(workdir or self.workdir, "render_spec.json"), encoding="utf-8") as handle:
            return json.load(handle, parse_constant=refuse)


class ProgramErrorTests(RunTestCase):
    def test_raise_after_two_charts_keeps_them_and_reports_the_line(self):
        result = self.run_script("""\
            declare_chart("bar", x="region", y="sales")
            declare_chart("pie", names="region", values="sales")
            total = df["sales"].sum()
            raise RuntimeError(f"boom {total}")
            """)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn('File "report.py", line 4', result.stderr)
        self.assertIn("RuntimeError: boom 35", result.stderr)
        self.assertNotIn("opsmind_run.py", result.stderr)
        spec = self.spec()
        self.assertEqual([c["id"] for c in spec["charts"]], ["c1", "c2"])
        error = spec["error"]
        self.assertEqual((error["type"], error["message"], error["line"]), ("RuntimeError", "boom 35", 4))
        self.assertEqual(error["declarations_before"], 2)
        self.assertIn("report.py", error["traceback"])
        self.assertNotIn("opsmind_run.py", error["traceback"])

    def test_error_inside_a_function_reports_the_deepest_script_line(self):
        result = self.run_script("""\
            def total(frame):
                return frame["no such column"].sum()

            declare_table(df)
            total(df)
            """)
        self.assertEqual(result.returncode, 1)
        self.assertIn("KeyError", result.stderr)
        spec = self.spec()
        self.assertEqual((spec["error"]["line"], spec["error"]["declarations_before"]), (2, 1))
        self.assertEqual(len(spec["tables"]), 1)

    def test_sys_exit_mid_script_still_writes_spec(self):
        result = self.run_script("""\
            import sys
            declare_chart("bar", x="region", y="sales")
            sys.exit(3)
            declare_chart("pie", names="region", values="sales")
            """)
        self.assertEqual(result.returncode, 3)
        spec = self.spec()
        self.assertEqual([c["id"] for c in spec["charts"]], ["c1"])
        self.assertEqual((spec["error"]["type"], spec["error"]["line"]), ("SystemExit", 3))

    def test_sys_exit_zero_is_success(self):
        result = self.run_script("import sys\ndeclare_table(df)\nsys.exit(0)\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        spec = self.spec()
        self.assertIsNone(spec["error"])
        self.assertEqual(len(spec["tables"]), 1)

    def test_syntax_error_hides_runner_frames(self):
        result = self.run_script("x = (\n", name="broken.py")
        self.assertEqual(result.returncode, 1)
        self.assertIn('File "broken.py", line 1', result.stderr)
        self.assertEqual(self.spec()["error"]["type"], "SyntaxError")
        self.assertNotIn("opsmind_run.py", result.stderr)


class OutputTests(RunTestCase):
    def test_print_only_script_captures_stdout_and_writes_empty_spec(self):
        result = self.run_script('print("rows:", len(df))\nprint("héllo")\n')
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "rows: 3\nhéllo\n")
        spec = self.spec()
        self.assertEqual((spec["charts"], spec["tables"], spec["error"]), ([], [], None))
        source = spec["source"]
        self.assertEqual((source["name"], source["rows"], source["columns"]), ("sales data.csv", 3, 2))
        self.assertEqual((source["format"], source["encoding"], source["delimiter"]), ("csv", "utf-8", ","))
        self.assertEqual(source["size_bytes"], len(CSV))

    def test_data_path_pd_and_np_are_available(self):
        result = self.run_script("""\
            again = pd.read_csv(DATA_PATH)
            assert again.equals(df), "df differs from a plain read"
            print(DATA_PATH)
            print(int(np.sum(df["sales"].to_numpy())), DATA_INFO["delimiter"])
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines(), [self.data, "35 ,"])

    def test_load_warnings_reach_the_spec(self):
        data = self.write("latin.csv", "name,v\ncafé,1\n€,2\n".encode("cp1252"))
        result = self.run_script('print(df["name"].tolist())', data=data)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "['café', '€']")
        self.assertEqual(len(self.spec()["warnings"]), 1)

    def test_artifacts_land_in_workdir(self):
        result = self.run_script('declare_chart("bar", x="region", y="sales")\n')
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.spec()["charts"][0]["data"]["file"], "artifacts/c1.json")
        self.assertTrue(os.path.isfile(os.path.join(self.workdir, "artifacts", "c1.json")))

    def test_relative_workdir_and_data_paths(self):
        result = self.run_script("print(len(pd.read_csv(DATA_PATH)))\n", data="sales data.csv", workdir="work",
                                 cwd=self.root)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "3")
        self.assertIsNone(self.spec()["error"])


class DataErrorTests(RunTestCase):
    def assert_data_error(self, data):
        result = self.run_script('print("should not run")\n', data=data)
        self.assertEqual(result.returncode, 65)
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("opsmind-data-error: "), lines[0])
        self.assertGreater(len(lines[0]), len("opsmind-data-error: "))
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertFalse(os.path.exists(os.path.join(self.workdir, "render_spec.json")))
        return lines[0]

    def test_binary_data_file_exits_65(self):
        self.assertIn("binary", self.assert_data_error(self.write("img.csv", b"\x89PNG\r\n\x1a\n" + bytes(64))))

    def test_missing_data_file_exits_65(self):
        self.assertIn("no such file", self.assert_data_error(os.path.join(self.root, "gone.csv")))

    def test_empty_data_file_exits_65(self):
        self.assertIn("empty", self.assert_data_error(self.write("empty.csv", "")))


if __name__ == "__main__":
    unittest.main()
