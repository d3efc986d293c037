"""The API a program sees: `df`, `DATA_PATH`, `declare_chart`, `declare_table`.

Declarations are collected in a `Recorder`; `Recorder.finish()` (also run by
an atexit hook, so it happens even when the program raised or called
sys.exit) writes `render_spec.json` and one data file per declaration, and
the matplotlib figures the program made as images (opsmind_figures).
The format is the zod schema in src/spec/schema.ts.
"""
import atexit
import importlib
import json
import math
import os
import traceback

import numpy as np
import pandas as pd

import opsmind_contract as contract
import opsmind_figures as figures
from opsmind_chart_common import referenced_columns
from opsmind_frames import column_infos, to_frame, write_frame


def _preparers():
    """{kind: prepare} for every kind of the contract, each from its module opsmind_chart_<kind>.py."""
    return {kind: importlib.import_module(f"opsmind_chart_{kind}").prepare for kind in contract.KINDS}


SPEC_VERSION = contract.SPEC_VERSION
PREPARERS = _preparers()
TABLE_ROWS = contract.caps("table")["rows"]


def _jsonable(value):
    """Parameters as JSON: numpy values become Python ones, NaN/inf null, timestamps ISO, the rest text."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "tolist") and getattr(value, "ndim", 0) >= 1:
        value = value.tolist()
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.datetime64, pd.Timestamp)):
        stamp = pd.Timestamp(value)
        return None if pd.isna(stamp) else stamp.isoformat()
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def user_traceback(error, script_name):
    """The traceback from the program's first frame on (the runner's frames hidden)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != script_name:
        tb = tb.tb_next
    return tb


class Recorder:
    """Collects declarations of one program run and writes the spec once."""

    def __init__(self, workdir, source=None, warnings=()):
        self.workdir = workdir
        self.source = source
        self.warnings = list(warnings)
        self.charts, self.tables = [], []
        self.figures = figures.FigureCapture(workdir, self.next_seq)
        self.error = None
        self.finished = False

    def next_seq(self):
        """The report position of the next declaration or image, from 1."""
        return len(self.charts) + len(self.tables) + len(self.figures.images) + 1

    def declare(self, kind, data, params, table=False):
        items = self.tables if table else self.charts
        ident = f"{'t' if table else 'c'}{len(items) + 1}"
        seq = self.next_seq()
        params = {k: _jsonable(v) for k, v in params.items() if v is not None}
        entry = {"id": ident, "seq": seq, "kind": str(kind), "params": params, "inferred": [], "data": None}
        entry["data"] = self._prepare(ident, str(kind), data, entry)
        items.append(entry)
        return ident

    def _prepare(self, ident, kind, data, entry):
        try:
            frame = to_frame(data)
        except Exception as error:  # not tabular data: say so on the declaration
            frame, problem = pd.DataFrame(), f"data must be a DataFrame or Series, not {type(data).__name__} ({error})"
        else:
            problem = None
        meta = {"file": None, "columns": [], "source_columns": column_infos(frame), "rows": 0,
                "source_rows": int(len(frame)), "sampled": False, "reductions": ["none"], "cap": None, "error": problem}
        if problem:
            return meta
        preparer = PREPARERS.get(kind)
        missing = [c for c in referenced_columns(kind, entry["params"]) if c not in frame.columns]
        if preparer is None or missing:
            return meta  # the host names the unknown kind or column, with suggestions
        try:
            prepared = preparer(frame, entry["params"])
        except Exception as error:  # a data problem is reported on the declaration, never raised
            meta["error"] = f"{type(error).__name__}: {error}"
            return meta
        entry["params"] = {k: _jsonable(v) for k, v in prepared.params.items() if v is not None}
        entry["inferred"] = prepared.inferred
        if prepared.frame is None:
            return meta
        out = to_frame(prepared.frame.reset_index(drop=True))
        os.makedirs(os.path.join(self.workdir, "artifacts"), exist_ok=True)
        write_frame(out, os.path.join(self.workdir, "artifacts", f"{ident}.json"), infinities=kind == "table")
        meta.update(file=f"artifacts/{ident}.json", columns=column_infos(out), rows=int(len(out)),
                    sampled=bool(prepared.sampled), reductions=prepared.reductions, cap=prepared.cap)
        return meta

    def record_error(self, error, script_name):
        """Record the program's exception; the traceback starts at the program's own frames."""
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == script_name]
        text = "".join(traceback.format_exception(type(error), error, user_traceback(error, script_name)))
        self.error = {"type": type(error).__name__, "message": str(error), "traceback": text,
                      "line": frames[-1].lineno if frames else getattr(error, "lineno", None),
                      "declarations_before": len(self.charts) + len(self.tables)}

    def finish(self):
        """Write render_spec.json (once); safe to call from atexit."""
        if self.finished:
            return
        self.finished = True
        images = self.figures.finish()
        spec = {"version": SPEC_VERSION, "source": self.source, "charts": self.charts, "tables": self.tables,
                "images": images, "warnings": self.warnings, "error": self.error}
        path = os.path.join(self.workdir, "render_spec.json")
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            json.dump(spec, handle, ensure_ascii=False, allow_nan=False, default=str)
        os.replace(path + ".tmp", path)


def make_namespace(recorder, df, data_path, data_info):
    """The globals a program runs with: the data, the declare functions, pandas and numpy."""
    import numpy as np
    import pandas as pd

    def declare_chart(kind, data=None, *, title=None, **params):
        """Declare a chart of `kind` over `data` (default: df). Returns its id, e.g. "c1"."""
        return recorder.declare(kind, df if data is None else data, {"title": title, **params})

    def declare_table(data, *, title=None, max_rows=TABLE_ROWS, **params):
        """Declare a table of the first `max_rows` rows of `data`. Returns its id, e.g. "t1"."""
        return recorder.declare("table", data, {"title": title, "max_rows": max_rows, **params}, table=True)

    return {"__name__": "__main__", "__builtins__": __builtins__, "df": df, "DATA_PATH": data_path,
            "DATA_INFO": data_info, "pd": pd, "np": np,
            "declare_chart": declare_chart, "declare_table": declare_table}


def install_atexit(recorder):
    """Make sure the spec is written however the program ends (except os._exit or a kill), and capture
    the program's matplotlib figures into it."""
    figures.activate(recorder.figures)
    atexit.register(recorder.finish)
