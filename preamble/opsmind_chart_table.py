"""Table data (renderers/table.ts): the first rows and columns of the data, as they are."""
import opsmind_contract as contract
from opsmind_chart_common import Prepared

CAPS = contract.caps("table")
DEFAULT_ROWS = CAPS["rows"]


def prepare(data, params):
    """The first `max_rows` rows (default: the rows cap) of the first columns (the columns cap)."""
    p = dict(params)
    max_rows = int(p.get("max_rows") or DEFAULT_ROWS)
    frame = data.iloc[:, : CAPS["columns"]]
    reductions = ["truncated"] if len(frame) > max_rows or data.shape[1] > CAPS["columns"] else []
    return Prepared(frame.head(max_rows), p, [], reductions, len(frame) > max_rows, max_rows)
