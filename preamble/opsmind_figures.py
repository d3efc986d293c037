"""Capturing the matplotlib figures a program makes, as PNG images for the report.

matplotlib is never imported here, so a program that does not use it pays
nothing: a finder on sys.meta_path notices the program's own import, prepares
the environment first (the Agg backend, a writable MPLCONFIGDIR, a
matplotlibrc the sandbox can read), and patches `pyplot.show`, `Figure.show`
and `Figure.savefig` once their modules have run. Every figure that is shown,
saved (the program's own file is still written where it asked), or still open
when the program ends becomes one PNG in artifacts/ (`f1.png`, ...), declared
in the spec's `images` with the same `seq` counter as charts and tables.

A figure is captured again only when its picture changed, so one saved, then
shown, then still open at exit appears once. Caps: MAX_IMAGES per run,
MAX_IMAGE_BYTES per image, MAX_DPI and MAX_PIXELS on the longest side; the
resolution is lowered to fit, and what still does not fit is recorded as an
entry with an `error`, never raised into the program.
"""
import hashlib
import importlib.machinery
import io
import math
import os
import struct
import sys
import weakref

MAX_IMAGES = 20
MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_DPI = 200
MAX_PIXELS = 4000
MIN_DPI = 10
MAX_TITLE = 200
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SYSTEM_RC = "/etc/matplotlibrc"

_active = None  # the FigureCapture of the program now running
_originals = {}  # "Figure.savefig" / "Figure.show" / "pyplot.show" -> the unpatched function


def png_size(png):
    """(width, height) from a PNG's IHDR chunk; (0, 0) when it is not a PNG."""
    if len(png) < 24 or not png.startswith(PNG_SIGNATURE):
        return 0, 0
    return struct.unpack(">II", png[16:24])


def capped_dpi(size_inches, dpi):
    """The figure's dpi, lowered to MAX_DPI and so the longest side stays within MAX_PIXELS."""
    longest = max(float(max(size_inches)), 1e-3)
    return max(MIN_DPI, min(float(dpi or 100), MAX_DPI, MAX_PIXELS / longest))


def _draw(figure, dpi):
    savefig = _originals.get("Figure.savefig") or type(figure).savefig
    buffer = io.BytesIO()
    savefig(figure, buffer, format="png", dpi=dpi, bbox_inches="tight", metadata={"Software": None})
    return buffer.getvalue()


def render_png(figure):
    """The figure as PNG bytes, at a resolution lowered (twice at most) until it fits the caps."""
    dpi = capped_dpi(figure.get_size_inches(), figure.dpi)
    png = _draw(figure, dpi)
    for _ in range(2):
        width, height = png_size(png)
        scale = min(1.0, MAX_PIXELS / max(width, height, 1))
        if len(png) > MAX_IMAGE_BYTES:
            scale = min(scale, 0.9 * math.sqrt(MAX_IMAGE_BYTES / len(png)))
        if scale >= 1.0 or dpi <= MIN_DPI:
            break
        dpi = max(MIN_DPI, dpi * scale)
        png = _draw(figure, dpi)
    return png


def figure_title(figure):
    """The suptitle, else the first axes title, else the figure's label; None when it has none."""
    texts = [getattr(figure, "_suptitle", None)]
    candidates = [t.get_text() for t in texts if t is not None]
    for axes in figure.axes:
        candidates.extend(axes.get_title(loc) for loc in ("center", "left", "right"))
    candidates.append(figure.get_label())
    title = next((str(t).strip() for t in candidates if t and str(t).strip()), None)
    return title[:MAX_TITLE] if title else None


class FigureCapture:
    """The images of one program run; `capture` never raises into the program."""

    def __init__(self, workdir, next_seq):
        self.workdir = workdir
        self.next_seq = next_seq
        self.images = []
        self._digests = weakref.WeakKeyDictionary()  # figure -> digest of its last capture
        self._over_cap = None
        self._busy = False

    def captured(self):
        """How many figures are in artifacts/ so far."""
        return sum(1 for image in self.images if image["file"])

    def capture(self, figure, source):
        """Capture `figure` (source: show, savefig or open_at_exit) unless it is unchanged since the last time."""
        if self._busy:
            return
        self._busy = True
        try:
            self._capture(figure, source)
        except Exception as error:  # noqa: BLE001 - a figure that cannot be drawn is reported, not raised
            problem = f"could not be drawn: {type(error).__name__}: {error}"
            if self._digests.get(figure) != problem:  # the same failure at show and at exit is reported once
                self._digests[figure] = problem
                self._entry(figure, source, error=problem)
        finally:
            self._busy = False

    def _capture(self, figure, source):
        if self.captured() >= MAX_IMAGES:
            if figure not in self._digests:
                self._digests[figure] = "over the cap"
                self._count_over_cap(source)
            return
        png = render_png(figure)
        digest = hashlib.sha256(png).hexdigest()
        if self._digests.get(figure) == digest:
            return
        self._digests[figure] = digest
        if len(png) > MAX_IMAGE_BYTES:
            size, cap = f"{len(png) / 1024 / 1024:.1f} MB", f"{MAX_IMAGE_BYTES / 1024 / 1024:g} MB"
            self._entry(figure, source, error=f"its PNG is {size} even at a lowered resolution, over the {cap} cap per image")
            return
        name = f"artifacts/f{len(self.images) + 1}.png"
        os.makedirs(os.path.join(self.workdir, "artifacts"), exist_ok=True)
        with open(os.path.join(self.workdir, name + ".tmp"), "wb") as handle:
            handle.write(png)
        os.replace(os.path.join(self.workdir, name + ".tmp"), os.path.join(self.workdir, name))
        width, height = png_size(png)
        self._entry(figure, source).update(file=name, width=width, height=height, bytes=len(png))

    def _entry(self, figure, source, error=None):
        ident = f"f{len(self.images) + 1}"
        entry = {"id": ident, "seq": self.next_seq(), "title": figure_title(figure) if figure is not None else None,
                 "file": None, "width": 0, "height": 0, "bytes": 0, "source": source, "error": error}
        self.images.append(entry)
        return entry

    def _count_over_cap(self, source):
        if self._over_cap is None:
            self._over_cap = self._entry(None, source)
            self._over_cap["skipped"] = 0
        self._over_cap["skipped"] += 1
        more = self._over_cap["skipped"] - 1
        what = f"this and {more} more figure{'s' if more > 1 else ''} were" if more else "this figure was"
        self._over_cap["error"] = f"{what} not captured: at most {MAX_IMAGES} figures are kept per run"

    def capture_open(self, source):
        """Capture every figure pyplot still has open, by figure number (none when pyplot was never imported)."""
        helpers = sys.modules.get("matplotlib._pylab_helpers")
        if helpers is None or "matplotlib.pyplot" not in sys.modules:
            return
        try:
            managers = sorted(helpers.Gcf.get_all_fig_managers(), key=lambda m: m.num)
        except Exception:  # noqa: BLE001 - pyplot's state is the program's; never fail the spec over it
            return
        for manager in managers:
            self.capture(manager.canvas.figure, source)

    def finish(self):
        """At the end of the run: the figures still open, then the entries without the bookkeeping."""
        try:
            self.capture_open("open_at_exit")
        except Exception:  # noqa: BLE001 - the spec is written whatever happens here
            pass
        for image in self.images:
            image.pop("skipped", None)
        return self.images


def _patched_show(*args, **kwargs):
    capture = _active
    if capture is None:
        return _originals["pyplot.show"](*args, **kwargs)
    capture.capture_open("show")
    if kwargs.get("block", True) is not False:  # a blocking show returns once its windows are closed
        sys.modules["matplotlib.pyplot"].close("all")
    return None


def _patched_figure_show(self, *args, **kwargs):
    if _active is None:
        return _originals["Figure.show"](self, *args, **kwargs)
    _active.capture(self, "show")
    return None


def _patched_savefig(self, *args, **kwargs):
    result = _originals["Figure.savefig"](self, *args, **kwargs)
    if _active is not None:
        _active.capture(self, "savefig")
    return result


def _patch(owner, attribute, key, replacement):
    current = getattr(owner, attribute, None)
    if current is None or getattr(current, "_opsmind_patched", False):
        return
    _originals[key] = current
    replacement._opsmind_patched = True
    setattr(owner, attribute, replacement)


def _patch_figure_module(module):
    _patch(module.Figure, "savefig", "Figure.savefig", _patched_savefig)
    _patch(module.Figure, "show", "Figure.show", _patched_figure_show)


def _patch_pyplot_module(module):
    _patch(module, "show", "pyplot.show", _patched_show)


PATCHERS = {"matplotlib.figure": _patch_figure_module, "matplotlib.pyplot": _patch_pyplot_module}


def _writable_dir(path):
    if not path:
        return False
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def _config_dir():
    import tempfile

    shared = os.path.join(tempfile.gettempdir(), f"opsmind-matplotlib-{os.getuid()}")
    if _writable_dir(shared) and os.stat(shared).st_uid == os.getuid():
        return shared
    return tempfile.mkdtemp(prefix="opsmind-matplotlib-")


def bundled_rc():
    """The matplotlibrc shipped with the package (mpl-data), or Debian's copy under /usr/share; None if neither."""
    spec = importlib.machinery.PathFinder.find_spec("matplotlib")
    places = list(spec.submodule_search_locations or []) if spec else []
    candidates = [os.path.join(p, "mpl-data", "matplotlibrc") for p in places]
    candidates.append("/usr/share/matplotlib/mpl-data/matplotlibrc")
    return next((c for c in candidates if os.path.isfile(c)), None)


def prepare_environment(environ=None, system_rc=SYSTEM_RC):
    """Before matplotlib's first import: Agg, a writable config dir, and a matplotlibrc that can be read."""
    environ = os.environ if environ is None else environ
    environ["MPLBACKEND"] = "Agg"
    if not _writable_dir(environ.get("MPLCONFIGDIR")):
        environ["MPLCONFIGDIR"] = _config_dir()
    if not environ.get("MATPLOTLIBRC") and not os.path.isfile(system_rc):
        rc = bundled_rc()
        if rc:
            environ["MATPLOTLIBRC"] = rc


class _MatplotlibFinder:
    """A sys.meta_path finder that finds nothing itself: it prepares and patches matplotlib as it is imported."""

    def find_spec(self, name, path=None, target=None):
        if name == "matplotlib":
            prepare_environment()
        patch = PATCHERS.get(name)
        if patch is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return None
        run = loader.exec_module

        def exec_module(module):
            run(module)
            try:
                patch(module)
            except Exception:  # noqa: BLE001 - an unknown matplotlib: figures are just not captured
                pass

        loader.exec_module = exec_module
        return spec

    def invalidate_caches(self):
        return None


def activate(capture):
    """Capture the figures of the program about to run into `capture` (idempotent; patches what is loaded)."""
    global _active
    _active = capture
    if not any(isinstance(f, _MatplotlibFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _MatplotlibFinder())
    for name, patch in PATCHERS.items():
        if name in sys.modules:
            patch(sys.modules[name])
