/**
 * Hostile programs that skip the preamble: each writes its own frames and
 * render_spec.json in the work dir and leaves with os._exit(0), so the
 * preamble's caps never run and only the host's bounds stand. Shared by
 * test/crafted-spec.test.ts and bench/crafted-spec.ts.
 */

/** One crafted case: the Python program and what the host must make of it. */
export interface CraftedCase {
  name: string;
  /** What it does, for the bench table. */
  what: string;
  code: string;
}

const PRELUDE = `
import json, os
os.makedirs("artifacts", exist_ok=True)
COLS = [{"name": "region", "dtype": "string"}, {"name": "revenue", "dtype": "number"}]

def frame(path, mb, cell="North"):
    row = json.dumps([cell, 12.5]) + ","
    n = max(1, int(mb * 1024 * 1024) // len(row))
    with open(path, "w") as f:
        f.write('{"columns": ["region", "revenue"], "data": [')
        f.write(row * (n - 1))
        f.write(row[:-1] + "]}")

def decl(i, kind, file, params, table=False):
    data = {"file": file, "columns": COLS, "source_columns": COLS, "rows": 1, "source_rows": 1,
            "sampled": False, "reductions": ["none"], "cap": None, "error": None}
    return {"id": ("t" if table else "c") + str(i), "seq": i, "kind": kind, "params": params, "inferred": [], "data": data}

def finish(charts=(), tables=(), text=None):
    spec = {"version": 1, "source": None, "charts": list(charts), "tables": list(tables), "warnings": [], "error": None}
    with open("render_spec.json", "w") as f:
        f.write(text if text is not None else json.dumps(spec))
    os._exit(0)
`;

const BAR = '{"x": "region", "y": "revenue", "title": "bar " + str(i)}';

/** The cases of issue 10, part D, and two at the edge of the budgets. */
export const CRAFTED_CASES: readonly CraftedCase[] = [
  {
    name: 'shared-frame',
    what: '100 bar charts over one 60 MB frame',
    code: `${PRELUDE}frame("artifacts/big.json", 60)\nfinish(charts=[decl(i, "bar", "artifacts/big.json", ${BAR}) for i in range(1, 101)])\n`,
  },
  {
    name: 'big-tables',
    what: '12 tables over one 50 MB frame',
    code: `${PRELUDE}frame("artifacts/big.json", 50)\nfinish(tables=[decl(i, "table", "artifacts/big.json", {"title": "t" + str(i)}, table=True) for i in range(1, 13)])\n`,
  },
  {
    name: 'rejected-frames',
    what: 'a 6 MB frame behind two invalid declarations, beside a small valid chart',
    code: `${PRELUDE}frame("artifacts/big.json", 6)\nframe("artifacts/small.json", 0.001)\nfinish(charts=[decl(1, "bar", "artifacts/small.json", {"x": "region", "y": "revenue"}), decl(2, "bar", "artifacts/big.json", {"x": "region", "y": "revenue", "titel": "typo"}), decl(3, "nosuchkind", "artifacts/big.json", {})])\n`,
  },
  {
    name: 'deep-spec',
    what: 'render_spec.json with 200,000 nested arrays in a parameter',
    code: `${PRELUDE}frame("artifacts/small.json", 0.001)\nspec = json.dumps({"version": 1, "source": None, "charts": [decl(1, "bar", "artifacts/small.json", {"x": "region", "y": "revenue", "note": "DEEP"})], "tables": [], "warnings": [], "error": None})\nfinish(text=spec.replace('"DEEP"', "[" * 200000 + "]" * 200000))\n`,
  },
  {
    name: 'deep-frame',
    what: 'a frame with 200,000 nested arrays in a cell, beside a good chart',
    code: `${PRELUDE}frame("artifacts/small.json", 0.001)\nwith open("artifacts/deep.json", "w") as f:\n    f.write('{"columns": ["region", "revenue"], "data": [["x", ' + "[" * 200000 + "]" * 200000 + ']]}')\nfinish(charts=[decl(1, "bar", "artifacts/deep.json", {"x": "region", "y": "revenue"}), decl(2, "bar", "artifacts/small.json", {"x": "region", "y": "revenue"})])\n`,
  },
  {
    name: 'many-rows',
    what: 'a bar chart over a 5 MB frame of 330,000 rows',
    code: `${PRELUDE}frame("artifacts/rows.json", 5)\nfinish(charts=[decl(1, "bar", "artifacts/rows.json", {"x": "region", "y": "revenue"})])\n`,
  },
  {
    name: 'budget-edge',
    what: '6 bar charts over one 7.5 MB frame of 23,000 rows (4 fit the 32 MB report budget)',
    code: `${PRELUDE}frame("artifacts/big.json", 7.5, cell="x" * 320)\nfinish(charts=[decl(i, "bar", "artifacts/big.json", ${BAR}) for i in range(1, 7)])\n`,
  },
  {
    name: 'many-declarations',
    what: '5,000 bar charts over one small frame (1,000 render)',
    code: `${PRELUDE}frame("artifacts/small.json", 0.001)\nfinish(charts=[decl(i, "bar", "artifacts/small.json", {"x": "region", "y": "revenue"}) for i in range(1, 5001)])\n`,
  },
  {
    name: 'long-names',
    what: 'a chart naming a 1 MB column among 12 columns of 1 MB names',
    code: `${PRELUDE}frame("artifacts/small.json", 0.001)\nlong = [{"name": "c" * (1024 * 1024) + str(i), "dtype": "number"} for i in range(12)]\nd = decl(1, "bar", "artifacts/small.json", {"x": "region", "y": ["x" * (1024 * 1024)] * 3})\nd["data"]["source_columns"] = COLS + long\nfinish(charts=[d])\n`,
  },
  {
    name: 'wide-cells',
    what: 'a table of one 6 MB frame whose cells are 1 MB strings',
    code: `${PRELUDE}frame("artifacts/cells.json", 6, cell="<b>" + "x" * (1024 * 1024))\nfinish(tables=[decl(1, "table", "artifacts/cells.json", {"title": "wide"}, table=True)])\n`,
  },
];
