"""Checks docs/hdf5-layout.md against a real result file.

    /usr/bin/python3 tests/docs_snippet_test.py RESULT.h5

- GA files: runs the doc's three-line pandas snippet on RESULT.h5 (the lines below must be
  the doc's first python block, path aside) and checks the DataFrame: the documented
  columns, one row per generation, padding rows only after the last generation.
- Every file: every dataset the doc's dataset table marks "always" for the file's driver
  exists; every table's documented columns are its first members, in order; every
  documented attribute of the root group, of /ga and of each histogram exists.

Exits 0 when all holds, 1 with one line per mismatch otherwise, 2 on bad usage.
"""

import math
import pathlib
import re
import sys

import h5py

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "hdf5-layout.md"
DOC_PATH = "results/demo.h5"  # the path the doc's snippet uses

# The doc's snippet, verbatim; RESULT_PATH replaces the doc's path when it runs.
SNIPPET = """\
import h5py, pandas as pd
f = h5py.File("results/demo.h5", "r")
history = pd.DataFrame(f["ga/history"][0])   # task 0, one row per generation
"""

HISTORY_COLUMNS = ["generation", "best", "mean", "std", "min"]

failures = []


def fail(message):
    failures.append(message)


def one_backticked(cell):
    """The name in a cell that is exactly `name` (plus an optional remark), else None."""
    match = re.fullmatch(r"`([^`]+)`(?:\s*\([^)]*\))?", cell.strip())
    return match.group(1) if match else None


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def parse_doc(text):
    """Returns (dataset rows, column lists by path, attribute names by owner path)."""
    datasets = []  # (path, driver, present)
    columns = {}  # path -> documented leading columns
    attributes = {}  # owner path -> names
    owner = None
    table_kind = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        heading = re.match(r"^(#+)\s+(.*)$", line)
        if heading:
            path = re.match(r"`(/[^`]*)`", heading.group(2))
            owner = path.group(1) if path else ("/" if heading.group(2) == "Root attributes" else None)
            table_kind = None
            continue
        group = re.match(r"^Group `(/[^`]*)`, with attributes", line)
        if group:
            owner = group.group(1)
            continue
        if not line.startswith("|"):
            table_kind = None
            continue
        row = cells(line)
        if table_kind is None:
            # A header row: the next line is the |---| separator.
            if i + 1 < len(lines) and re.match(r"^\|[-| ]+\|$", lines[i + 1].strip()):
                table_kind = row[0]
                table_kind_header = row
                if table_kind == "column" and owner:
                    columns.setdefault(owner, [])
                    columns[owner + "#open"] = True
            continue
        if re.match(r"^[-| ]+$", line.strip().strip("|")):
            continue
        if table_kind == "path" and table_kind_header[:3] == ["path", "driver", "present"]:
            path = one_backticked(row[0])
            if path:
                datasets.append((path, row[1], row[2]))
        elif table_kind == "column" and owner and columns.get(owner + "#open"):
            name = one_backticked(row[0])
            if name is None or not re.fullmatch(r"[A-Za-z_][\w.]*", name):
                columns[owner + "#open"] = False  # kernel fields or dynamic columns follow
            else:
                columns[owner].append(name)
        elif table_kind == "attribute" and owner:
            name = one_backticked(row[0])
            if name:
                attributes.setdefault(owner, []).append(name)
    columns = {k: v for k, v in columns.items() if not k.endswith("#open") and v}
    return datasets, columns, attributes


def datasets_matching(f, path):
    """Datasets a documented path names: itself, or every dataset of a NAME group."""
    if "NAME" not in path:
        return [path] if path in f and isinstance(f[path], h5py.Dataset) else []
    parent = path.rsplit("/", 1)[0]
    if parent not in f:
        return []
    return [f"{parent}/{name}" for name, obj in f[parent].items() if isinstance(obj, h5py.Dataset)]


def check_snippet(doc_text, result):
    blocks = re.findall(r"```python\n(.*?)```", doc_text, re.S)
    if not blocks or blocks[0] != SNIPPET:
        fail("docs/hdf5-layout.md: the first python block is no longer the snippet this test runs;"
             " update SNIPPET in tests/docs_snippet_test.py and the doc together")
    namespace = {}
    code = SNIPPET.replace(f'"{DOC_PATH}"', repr(str(result)))
    exec(compile(code, "hdf5-layout.md snippet", "exec"), namespace)
    history = namespace["history"]
    f = namespace["f"]
    generations = f["ga/history"].shape[1]
    if list(history.columns[:5]) != HISTORY_COLUMNS:
        fail(f"snippet: history columns start {list(history.columns[:5])}, documented {HISTORY_COLUMNS}")
    kernel_fields = list(f["ga/best"].dtype.names[2:])
    if list(history.columns[5:]) != kernel_fields:
        fail(f"snippet: history kernel fields {list(history.columns[5:])}, ga/best has {kernel_fields}")
    if len(history) != generations:
        fail(f"snippet: {len(history)} rows, ga/history has {generations} generations per task")
    run = int((history["generation"] >= 0).sum())
    if run < 1 or list(history["generation"][:run]) != list(range(run)):
        fail(f"snippet: generations are not 0..{run - 1} in order: {list(history['generation'][:run])}")
    padding = history.iloc[run:]
    if not (padding["generation"] == -1).all() or not padding["best"].map(math.isnan).all():
        fail("snippet: rows after the last generation are not padding (generation -1, best NaN)")
    f.close()
    # Every further python block of the doc runs on the same file, as a reader would run it.
    for number, block in enumerate(blocks[1:], start=2):
        namespace = {}
        try:
            exec(compile(block.replace(f'"{DOC_PATH}"', repr(str(result))),
                         f"hdf5-layout.md python block {number}", "exec"), namespace)
        except Exception as error:  # noqa: BLE001  (any error is the doc's fault)
            fail(f"hdf5-layout.md python block {number} fails on {result}: {error!r}")
            continue
        if "table" in namespace and len(namespace["table"]) != len(namespace["tasks"]):
            fail(f"hdf5-layout.md python block {number}: {len(namespace['table'])} rows for "
                 f"{len(namespace['tasks'])} tasks")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    result = pathlib.Path(sys.argv[1])
    doc_text = DOC.read_text()
    datasets, columns, attributes = parse_doc(doc_text)
    if not datasets:
        fail(f"{DOC}: found no dataset table (| path | driver | present | ...)")

    try:
        f = h5py.File(result, "r")
    except OSError as error:
        print(f"docs_snippet_test: cannot open {result}: {error}", file=sys.stderr)
        return 1
    with f:
        driver = f.attrs.get("driver")
        if driver not in ("ga", "sweep", "exhaustive"):
            print(f"{result}: not a levelforge result (driver attribute {driver!r})", file=sys.stderr)
            return 1
        mine = [(path, present) for path, drv, present in datasets if drv in ("all", driver)]
        checked = []
        for path, present in mine:
            found = datasets_matching(f, path)
            if present == "always" and not found:
                fail(f"{path}: documented for driver {driver}, missing in {result}")
            for name in found:
                checked.append(name)
                dataset = f[name]
                documented = columns.get(path, [])
                if dataset.dtype.names is not None and documented:
                    actual = list(dataset.dtype.names[: len(documented)])
                    if actual != documented:
                        fail(f"{name}: columns start {actual}, documented {documented}")
        for owner, names in attributes.items():
            for target in datasets_matching(f, owner) if "NAME" in owner else [owner]:
                if target not in f and target != "/":
                    continue  # another driver's group
                for name in names:
                    if name not in f[target].attrs:
                        fail(f"{target}: documented attribute '{name}' is missing")
        undocumented = []
        f.visititems(lambda name, obj: undocumented.append("/" + name)
                     if isinstance(obj, h5py.Dataset) and "/" + name not in checked else None)
        for name in undocumented:
            fail(f"{name}: in the file but not in the doc's dataset table")

    if driver == "ga":
        check_snippet(doc_text, result)

    if failures:
        for message in failures:
            print(f"docs_snippet_test: {message}", file=sys.stderr)
        return 1
    print(f"docs_snippet_test: {result} ({driver}) matches docs/hdf5-layout.md: "
          f"{len(checked)} datasets" + (", pandas snippet" if driver == "ga" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
