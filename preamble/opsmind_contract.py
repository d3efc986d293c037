"""The vocabulary shared with the host, read once at import from opsmind_contract.json.

That file is generated from the host's zod schemas and renderer registry
(src/spec/contract.ts, `npm run build`): chart kinds and their parameters,
which parameters name columns, caps per kind, column types, aggregations,
reductions, the spec version and the worker protocol's ops. The preamble
takes them from here and never restates them.
"""
import json
import os

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opsmind_contract.json")


def _load(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise RuntimeError(f"the preamble's contract {path} cannot be read ({error}); it must be staged "
                           "beside the preamble's modules (`npm run build` writes it)") from None


CONTRACT = _load(PATH)
SPEC_VERSION = CONTRACT["spec_version"]
KINDS = tuple(CONTRACT["kinds"])
AGGREGATIONS = tuple(CONTRACT["aggregations"])
REDUCTIONS = tuple(CONTRACT["reductions"])
COLUMN_TYPES = tuple(CONTRACT["column_types"])
OTHER = CONTRACT["other_label"]


def kind(name):
    """The contract of one kind (params, columns, caps, frame_columns), or None for an unknown kind."""
    return CONTRACT["kinds"].get(name)


def caps(name):
    """The caps of a kind, e.g. {"categories": 50}; {} for an unknown kind."""
    entry = kind(name)
    return dict(entry["caps"]) if entry else {}


def column_params(name):
    """The parameters of a kind that name columns; [] for an unknown kind."""
    entry = kind(name)
    return list(entry["columns"]) if entry else []
