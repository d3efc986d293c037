"""The analysis libraries a program can import in the sandbox, with their versions.

    python3 -I opsmind_libraries.py

prints one JSON line: {"libraries": [{"name", "module", "version", "error"}], "paths": [...]}.
LIBRARIES is the one list of what is probed; `opsmind doctor`, the deep
system prompt and the ImportError hint of run_code all read the result.
Each library is really imported (matplotlib after the same environment
preparation a program gets), so "available" means a program can use it.
`paths` are the places imports come from, so the host can tell when an
installation changed (their modification times) and probe again.
"""
import importlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import opsmind_figures  # noqa: E402

# (name people know, module to import), in the order they are listed.
LIBRARIES = (
    ("pandas", "pandas"),
    ("numpy", "numpy"),
    ("scipy", "scipy"),
    ("matplotlib", "matplotlib"),
    ("seaborn", "seaborn"),
    ("scikit-learn", "sklearn"),
    ("statsmodels", "statsmodels"),
    ("pyarrow", "pyarrow"),
    ("openpyxl", "openpyxl"),
)


def probe_one(name, module):
    """{name, module, version, error}: version None and the reason when it cannot be imported."""
    try:
        imported = importlib.import_module(module)
    except Exception as error:  # noqa: BLE001 - any failure to import means "not available"
        return {"name": name, "module": module, "version": None, "error": f"{type(error).__name__}: {error}"[:300]}
    version = getattr(imported, "__version__", None)
    return {"name": name, "module": module, "version": str(version) if version else "unknown", "error": None}


def probe():
    """Every library of LIBRARIES, and the import path (whether each entry exists yet or not)."""
    opsmind_figures.prepare_environment()
    libraries = [probe_one(name, module) for name, module in LIBRARIES]
    here = os.path.dirname(os.path.abspath(__file__))
    paths = sorted({p for p in sys.path if p and p != here})
    return {"libraries": libraries, "paths": paths}


if __name__ == "__main__":
    result = probe()
    sys.stdout.flush()
    print(json.dumps(result))
