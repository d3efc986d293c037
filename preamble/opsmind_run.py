"""Entry point of a cold run: load the data, apply limits, run one program.

    python3 -I opsmind_run.py --data FILE --workdir DIR --script FILE
        [--name NAME] [--source-path PATH] [--limits JSON]

Exit status: 0 the program finished; 1 it raised (traceback on stderr);
65 the data could not be read (one line on stderr starting "opsmind-data-error: ").
render_spec.json is written in every case but 65.
"""
import argparse
import json
import linecache
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import opsmind_data  # noqa: E402
import opsmind_limits  # noqa: E402
import opsmind_preamble  # noqa: E402

DATA_ERROR_EXIT = 65


def source_info(path, df, info, shown_path=None):
    return {"path": shown_path or path, "name": os.path.basename(shown_path or path), "format": info["format"],
            "encoding": info["encoding"], "delimiter": info["delimiter"], "rows": int(df.shape[0]),
            "columns": int(df.shape[1]), "size_bytes": os.path.getsize(path)}


def load(path):
    """(df, info, warnings), or exit 65 with a one-line reason."""
    try:
        return opsmind_data.read_dataset(path)
    except opsmind_data.DataLoadError as error:
        print(f"opsmind-data-error: {error}", file=sys.stderr)
        sys.exit(DATA_ERROR_EXIT)
    except MemoryError:
        print("opsmind-data-error: not enough memory to load the dataset", file=sys.stderr)
        sys.exit(DATA_ERROR_EXIT)


def run_program(code, name, namespace, recorder):
    """Execute the program; record and print the error if it raises. Returns the exit status."""
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)  # source lines in tracebacks
    try:
        exec(compile(code, name, "exec"), namespace)
    except SystemExit as stop:
        if stop.code not in (None, 0):
            recorder.record_error(stop, name)
            if not isinstance(stop.code, int):
                print(stop.code, file=sys.stderr)
            return stop.code if isinstance(stop.code, int) else 1
    except BaseException as error:  # noqa: BLE001 - the program's error is data, reported in the spec
        recorder.record_error(error, name)
        tb = opsmind_preamble.user_traceback(error, name)
        traceback.print_exception(type(error), error, tb, file=sys.stderr)
        return 1
    return 0


def execute(code, name, workdir, loaded, data_path, source, limits):
    """Run one program over already-loaded data in `workdir` under `limits`; write the spec. Returns the exit status."""
    df, info, warnings = loaded
    recorder = opsmind_preamble.Recorder(workdir, source, warnings)
    opsmind_preamble.install_atexit(recorder)
    namespace = opsmind_preamble.make_namespace(recorder, df, data_path, info)
    os.chdir(workdir)
    opsmind_limits.apply_limits(limits or {})
    status = run_program(code, name, namespace, recorder)
    sys.stdout.flush()
    recorder.finish()
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--script", required=True)
    parser.add_argument("--name", default=None)
    parser.add_argument("--source-path", default=None)
    parser.add_argument("--limits", default="{}")
    args = parser.parse_args(argv)
    args.data, args.workdir = os.path.abspath(args.data), os.path.abspath(args.workdir)
    loaded = load(args.data)
    with open(args.script, encoding="utf-8") as handle:
        code = handle.read()
    source = source_info(args.data, loaded[0], loaded[1], args.source_path)
    name = args.name or os.path.basename(args.script)
    return execute(code, name, args.workdir, loaded, args.data, source, json.loads(args.limits))


if __name__ == "__main__":
    sys.exit(main())
