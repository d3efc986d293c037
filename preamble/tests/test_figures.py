"""opsmind_figures: matplotlib figures captured as PNGs, through a real child interpreter as the host runs it."""
import importlib.util
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import opsmind_figures  # noqa: E402
from test_run import RunTestCase  # noqa: E402

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
HAS_SEABORN = importlib.util.find_spec("seaborn") is not None
PNG = b"\x89PNG\r\n\x1a\n"


class FigureRunCase(RunTestCase):
    def images(self):
        return self.spec()["images"]

    def captured(self):
        return [i for i in self.images() if i["file"]]

    def read(self, name):
        with open(os.path.join(self.workdir, name), "rb") as handle:
            return handle.read()


class WithoutMatplotlibTests(FigureRunCase):
    def test_a_program_that_never_imports_matplotlib_does_not_load_it(self):
        result = self.run_script("""\
            import atexit, sys
            atexit.register(lambda: print("loaded at exit:", any(m.startswith("matplotlib") for m in sys.modules)))
            declare_chart("bar", x="region", y="sales")
            print("loaded now:", "matplotlib" in sys.modules)
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("loaded now: False", result.stdout)
        self.assertIn("loaded at exit: False", result.stdout, "finishing the spec must not import matplotlib either")
        self.assertEqual(self.images(), [])


@unittest.skipUnless(HAS_MATPLOTLIB, "matplotlib is not installed (apt-get install python3-matplotlib)")
class CaptureTests(FigureRunCase):
    def test_saved_then_shown_then_open_at_exit_is_captured_once_and_the_user_file_is_written(self):
        result = self.run_script("""\
            import matplotlib.pyplot as plt
            fig, ax = plt.subplots()
            ax.bar(df["region"], df["sales"])
            ax.set_title("Sales by region")
            fig.savefig("mine.png", dpi=50)
            plt.savefig("mine.svg")
            fig.show()
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        images = self.captured()
        self.assertEqual([(i["id"], i["source"], i["title"]) for i in images], [("f1", "savefig", "Sales by region")])
        self.assertTrue(self.read("mine.png").startswith(PNG), "the program's own file is written where it asked")
        self.assertIn(b"<svg", self.read("mine.svg"))
        png = self.read(images[0]["file"])
        self.assertTrue(png.startswith(PNG))
        self.assertEqual(images[0]["bytes"], len(png))
        self.assertEqual((images[0]["width"], images[0]["height"]), opsmind_figures.png_size(png))

    def test_show_captures_every_open_figure_in_order_between_declarations_and_closes_them(self):
        result = self.run_script("""\
            import matplotlib.pyplot as plt
            declare_chart("bar", x="region", y="sales", title="first")
            plt.figure(); plt.plot([1, 2, 3]); plt.title("one")
            plt.figure(); plt.plot([3, 2, 1]); plt.title("two")
            plt.show()
            print("open after show:", plt.get_fignums())
            declare_table(df, title="table")
            df.plot(x="region", y="sales", kind="bar", title="pandas plot")
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("open after show: []", result.stdout)
        spec = self.spec()
        order = sorted([(d["seq"], d["id"]) for d in spec["charts"] + spec["tables"] + spec["images"]])
        self.assertEqual([ident for _, ident in order], ["c1", "f1", "f2", "t1", "f3"])
        self.assertEqual([(i["title"], i["source"]) for i in spec["images"]],
                         [("one", "show"), ("two", "show"), ("pandas plot", "open_at_exit")])

    def test_a_figure_changed_after_it_was_saved_is_captured_again(self):
        result = self.run_script("""\
            import matplotlib.pyplot as plt
            plt.plot([1, 2]); plt.savefig("a.png")
            plt.plot([2, 1]); plt.savefig("b.png")
            plt.savefig("c.png")
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual([i["source"] for i in self.captured()], ["savefig", "savefig"])

    def test_the_count_cap_keeps_the_first_figures_and_records_the_rest_without_failing(self):
        cap = opsmind_figures.MAX_IMAGES
        result = self.run_script(f"""\
            import matplotlib.pyplot as plt
            for n in range({cap + 3}):
                plt.figure(figsize=(1, 1)); plt.plot([0, n])
            plt.show()
            print("done")
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("done", result.stdout)
        images = self.images()
        self.assertEqual(len(self.captured()), cap)
        self.assertEqual(len(images), cap + 1)
        self.assertEqual(images[-1]["file"], None)
        self.assertEqual(images[-1]["error"], f"this and 2 more figures were not captured: at most {cap} figures are kept per run")
        self.assertEqual(len(os.listdir(os.path.join(self.workdir, "artifacts"))), cap)

    def test_the_byte_cap_lowers_the_resolution_then_records_a_problem_instead_of_raising(self):
        result = self.run_script("""\
            import numpy as np
            import matplotlib.pyplot as plt
            import opsmind_figures
            opsmind_figures.MAX_IMAGE_BYTES = 30_000
            plt.figure(figsize=(4, 4)); plt.imshow(np.random.default_rng(1).random((400, 400)))
            plt.savefig("noise.png")
            plt.close()
            opsmind_figures.MAX_IMAGE_BYTES = 100
            plt.figure(figsize=(4, 4)); plt.plot([1, 2])
            print("still running")
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("still running", result.stdout)
        lowered, refused = self.images()
        self.assertLessEqual(lowered["bytes"], 30_000)
        self.assertLess(lowered["width"], 4 * 100 * 0.9, "drawn below the figure's own 100 dpi to fit")
        self.assertIsNone(refused["file"])
        self.assertRegex(refused["error"], r"^its PNG is 0\.\d MB even at a lowered resolution, over the .* MB cap per image$")

    def test_dpi_and_pixel_caps_bound_a_huge_figure(self):
        result = self.run_script("""\
            import matplotlib.pyplot as plt
            fig = plt.figure(figsize=(60, 10), dpi=600)
            fig.gca().plot([1, 2, 3])
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        (image,) = self.captured()
        self.assertLessEqual(max(image["width"], image["height"]), opsmind_figures.MAX_PIXELS)
        self.assertGreater(image["width"], 1000)

    def test_a_figure_that_cannot_be_drawn_is_recorded_and_the_program_is_not_disturbed(self):
        result = self.run_script("""\
            import matplotlib.pyplot as plt
            plt.figure(); plt.title(r"$\\frac{$")
            plt.show(block=False)
            plt.figure(); plt.plot([1, 2]); plt.title("fine")
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        broken, fine = self.images()  # the broken figure, still open at exit, is not reported twice
        self.assertIsNone(broken["file"])
        self.assertEqual(broken["source"], "show")
        self.assertTrue(broken["error"].startswith("could not be drawn: ValueError"), broken["error"])
        self.assertEqual(fine["title"], "fine")

    def test_figures_made_before_an_error_are_kept(self):
        result = self.run_script("""\
            import matplotlib.pyplot as plt
            plt.plot([1, 2]); plt.title("before")
            raise RuntimeError("boom")
            """)
        self.assertEqual(result.returncode, 1)
        self.assertEqual([i["title"] for i in self.captured()], ["before"])

    @unittest.skipUnless(HAS_SEABORN, "seaborn is not installed (apt-get install python3-seaborn)")
    def test_seaborn_figures_are_captured(self):
        result = self.run_script("""\
            import seaborn as sns
            import matplotlib.pyplot as plt
            sns.barplot(data=df, x="region", y="sales").set_title("seaborn bars")
            plt.show()
            grid = sns.FacetGrid(df, col="region")
            grid.map(plt.hist, "sales")
            grid.savefig("grid.png")
            """)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual([(i["title"], i["source"]) for i in self.captured()],
                         [("seaborn bars", "show"), ("region = north", "savefig")])


class EnvironmentTests(unittest.TestCase):
    def test_without_a_system_matplotlibrc_the_bundled_one_is_used(self):
        with tempfile.TemporaryDirectory() as tmp:
            environ = {"MPLCONFIGDIR": os.path.join(tmp, "config")}
            opsmind_figures.prepare_environment(environ, system_rc=os.path.join(tmp, "no-such-matplotlibrc"))
            self.assertEqual(environ["MPLBACKEND"], "Agg")
            self.assertEqual(environ["MPLCONFIGDIR"], os.path.join(tmp, "config"))
            self.assertTrue(os.path.isdir(environ["MPLCONFIGDIR"]))
            if HAS_MATPLOTLIB:
                self.assertTrue(os.path.isfile(environ["MATPLOTLIBRC"]), environ)

    def test_an_unwritable_config_dir_is_replaced_and_a_system_matplotlibrc_left_alone(self):
        with tempfile.NamedTemporaryFile() as rc:
            environ = {"MPLCONFIGDIR": "/proc/opsmind-cannot-write-here"}
            opsmind_figures.prepare_environment(environ, system_rc=rc.name)
            self.assertNotIn("MATPLOTLIBRC", environ)
            self.assertNotEqual(environ["MPLCONFIGDIR"], "/proc/opsmind-cannot-write-here")
            self.assertTrue(os.access(environ["MPLCONFIGDIR"], os.W_OK))

    def test_png_size_and_capped_dpi(self):
        self.assertEqual(opsmind_figures.png_size(b"not a png"), (0, 0))
        self.assertEqual(opsmind_figures.capped_dpi((6.4, 4.8), 100), 100)
        self.assertEqual(opsmind_figures.capped_dpi((6.4, 4.8), 1000), opsmind_figures.MAX_DPI)
        self.assertEqual(opsmind_figures.capped_dpi((400, 4), 100), opsmind_figures.MAX_PIXELS / 400)


if __name__ == "__main__":
    unittest.main()
