"""python3 -m analysis.report RESULT.h5 -o DIR [--figures DIR]: PNG figures of a result file
and an index.html showing them with the provenance and the sweep (plain HTML, no network).

Figures (docs/analysis.md): the figures of the run's driver, from its module
analysis/drivers/<driver>.py (GA fitness curves for every GA run, and the islands' curves of
a GA with islands; the archive and its coverage and QD score for every QD run; histograms
of every exhaustive run), those of any run (analysis/figures.py: a sampled sweep's), then the
figures of the run's kernel from the module named for it, whose figures(report) draws them.
The module is looked for in the directories
given with --figures (and in LEVELFORGE_FIGURES, directories joined by ':'), then in
analysis/kernels/, then among the entry points of the group `levelforge.figures` that an
installed package provides. A kernel without one gets the generic figures only.
"""

import argparse
import html
import importlib
import importlib.metadata
import importlib.util
import os
import re
import sys

import numpy as np
import pandas as pd

from . import LoadError, drivers, load
from .figures import Report, results_figure, sampled_figures

ENTRY_POINTS = "levelforge.figures"


def figure_module(kernel, directories=()):
    """The module with `kernel`'s figures, or None: `<kernel>.py` in one of `directories`,
    then analysis/kernels/<kernel>.py, then an entry point named `kernel`."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", kernel):
        return None
    for directory in directories:
        path = os.path.join(directory, f"{kernel}.py")
        if os.path.isfile(path):
            spec = importlib.util.spec_from_file_location(f"levelforge_figures_{kernel}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    if importlib.util.find_spec(f"{__package__}.kernels.{kernel}") is not None:
        return importlib.import_module(f"{__package__}.kernels.{kernel}")
    for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
        if entry.name == kernel:
            return entry.load()
    return None


def figure_directories(given=()):
    """The --figures directories, then those of LEVELFORGE_FIGURES."""
    from_environment = os.environ.get("LEVELFORGE_FIGURES", "")
    return [*given, *(d for d in from_environment.split(os.pathsep) if d)]


def kernel_figures(report, directories=()):
    run = report.run
    module = figure_module(run.kernel, directories)
    drivers.module(run.driver).figures(report, module)
    sampled_figures(report)
    if module is not None:
        module.figures(report)
    else:
        results_figure(report, *task_results(run))


def cell_text(value):
    """A table cell: floats to 4 significant digits (integral ones without a point), bytes
    decoded, everything else as str."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, (float, np.floating)):
        return "" if np.isnan(value) else f"{value:.4g}"
    return str(value)


def table_html(frame, fold_after=50):
    """The whole table; one longer than `fold_after` rows is folded (a <details> to open)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(cell_text(v))}</td>" for v in row) + "</tr>"
                   for row in frame.itertuples(index=False))
    table = f"<table><tr>{head}</tr>{rows}</table>"
    if len(frame) > fold_after:
        return f"<details><summary>{len(frame)} rows (open)</summary>{table}</details>"
    return table


def mean_and_spread(values):
    """`0.953 ± 0.012` (mean ± standard deviation); the mean alone for a single value."""
    values = values.dropna()
    if values.empty:
        return ""
    if len(values) == 1:
        return f"{values.iloc[0]:.4g}"
    return f"{values.mean():.4g} ± {values.std():.2g}"


def task_results(run):
    """(frame, fields): what each task produced, one row per task with its point and swept
    values, and the columns that say it (the driver module's `task_results`): the best
    individual's fitness, fields and validated fields (ga), the record's fields (sweep), the
    final archive's occupied cells, coverage, QD score, best fitness and evaluations (qd), the
    count reductions (exhaustive). (None, []) for an exhaustive run without counts."""
    return drivers.module(run.driver).task_results(run)


def results_table(run):
    """(table, left out): per sweep point, the mean and spread over its replicates of each
    numeric field of `task_results`; `left out` names the fields that have no mean (text,
    lists). (None, left out) for no numbers."""
    frame, fields = task_results(run)
    if frame is None:
        return None, []
    numeric = [c for c in fields if pd.api.types.is_numeric_dtype(frame[c])]
    left_out = [c for c in fields if c not in numeric]
    if not numeric or frame.empty:
        return None, left_out
    table = frame.groupby("point").agg(
        tasks=("task", "count"), **{c: (c, mean_and_spread) for c in numeric}).reset_index()
    return run.points.merge(table, on="point"), left_out


def results_html(run, table, left_out, fields_per_table=8):
    """The results table in parts of at most `fields_per_table` fields, each after the point's
    columns, so a wide one stays readable without a field dropped; then the fields left out
    and where they are."""
    if table is None:
        return left_out_html(run, left_out)
    head = [c for c in table.columns if c in ("point", *run.swept_keys, "tasks")]
    fields = [c for c in table.columns if c not in head]
    parts = [fields[k:k + fields_per_table] for k in range(0, len(fields), fields_per_table)]
    text = "<h2>Results</h2><p>Per sweep point, over its replicates: mean ± standard deviation"
    text += (f"; {len(fields)} fields in {len(parts)} tables of up to {fields_per_table}.</p>"
             if len(parts) > 1 else ".</p>")
    return text + "".join(table_html(table[[*head, *part]]) for part in parts) + \
        left_out_html(run, left_out)


def left_out_html(run, left_out):
    """Which fields the results table leaves out, and where each task's values are."""
    if not left_out:
        return ""
    return (f"<p>Not in the results table (no mean: text or lists): "
            f"{html.escape(', '.join(left_out))}; each task's values are in the table "
            f"<code>{drivers.module(run.driver).RESULT_TABLE}</code> of <code>analysis.load</code> and in "
            f"<code>python3 -m analysis export</code>.</p>")


def write_index(report, result_path, extra=""):
    run = report.run
    provenance = run.provenance
    shown = pd.DataFrame([(name, value) for name, value in provenance.items()
                          if not name.startswith(("config", "effective_config"))],
                         columns=["attribute", "value"])
    tasks = run.tasks.assign(done=run.tasks.status == 1, failed=run.tasks.status == 2)
    summary = tasks.groupby("point").agg(tasks=("task", "count"), done=("done", "sum"),
                                         failed=("failed", "sum"),
                                         wall_time=("wall_time", "sum")).reset_index()
    sweep = run.points.merge(summary, on="point")
    results, left_out = results_table(run)
    results = results_html(run, results, left_out)
    failures = run.failures
    failure_note = ""
    if len(failures):
        failure_note = (
            f'<p><strong>{len(failures)} of the run\'s tasks or chunks failed</strong> (on_error: '
            f'record): the figures leave them out; exhaustive reductions of a failed task miss '
            f'the index ranges listed below.</p><h2>Failures</h2>'
            f'{table_html(failures.drop(columns=["session", "rank", "wall_time"]))}')
    figures = "".join(
        f'<h2>{html.escape(title)}</h2><p>{html.escape(caption)}'
        f' The numbers: <a href="{data}">{data}</a>.</p><img src="{name}" alt="{html.escape(title)}">'
        for name, title, caption, data in report.figures)
    text = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(str(provenance['experiment']))}: levelforge report</title>
<style>body {{ font-family: sans-serif; max-width: 1000px; margin: 2em auto; }}
table {{ border-collapse: collapse; font-size: small; }} td, th {{ border: 1px solid #ccc; padding: 2px 6px; }}
img {{ max-width: 100%; }} pre {{ background: #f4f4f4; padding: 1em; }}</style></head>
<body><h1>{html.escape(str(provenance['experiment']))}</h1>
<p>{html.escape(result_path)}: {html.escape(run.kernel)} kernel, {html.escape(run.driver)} driver</p>
<h2>Provenance</h2>{table_html(shown)}
<h2>Sweep</h2>{table_html(sweep)}
{results}
{extra}
{failure_note}
{figures}
<h2>Config</h2><pre>{html.escape(str(provenance.get('config_text', '')))}</pre>
</body></html>
"""
    path = os.path.join(report.directory, "index.html")
    with open(path, "w") as out:
        out.write(text)
    return path


def build(result_path, directory, figure_paths=(), ground_truth=None):
    """Writes the figures and index.html of `result_path` into `directory`; returns the
    index's path. `figure_paths`: directories with kernels' figure modules, before those of
    LEVELFORGE_FIGURES. `ground_truth`: a result file that knows every answer the run could
    have found (an exhaustive run), for a kernel with a module `analysis/kernels/
    KERNEL_ground_truth.py` (read_truth, compare, report_section) to hold the run against.
    Raises LoadError for a file `analysis.load` refuses or a pair of files the ground truth
    cannot compare; both before anything is written."""
    with load(result_path) as run:
        comparison = None
        if ground_truth is not None:
            truth = ground_truth_module(run.kernel)
            comparison = truth.compare(run, truth.read_truth(ground_truth))
        os.makedirs(directory, exist_ok=True)
        report = Report(run, directory)
        kernel_figures(report, figure_directories(figure_paths))
        extra = truth.report_section(report, comparison) if comparison is not None else ""
        return write_index(report, result_path, extra)


def ground_truth_module(kernel):
    """The kernel's ground-truth module; LoadError when it has none."""
    name = f"{__package__}.kernels.{kernel}_ground_truth"
    if importlib.util.find_spec(name) is None:
        raise LoadError(f"--ground-truth: the kernel '{kernel}' has no ground truth to compare "
                        f"with (no module {name})")
    return importlib.import_module(name)


def main(argv=None):
    # Files only: no display is needed (a notebook calling build() keeps its own backend).
    import matplotlib
    matplotlib.use("Agg")
    parser = argparse.ArgumentParser(prog="python3 -m analysis.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="a levelforge result file")
    parser.add_argument("-o", "--output",
                        help="directory for the figures and index.html (default: RESULT's path "
                             "without .h5, then -report: results/demo.h5 gives results/demo-report)")
    parser.add_argument("--figures", action="append", default=[], metavar="DIR",
                        help="a directory of figure modules, KERNEL.py with figures(report); repeatable")
    parser.add_argument("--ground-truth", metavar="EXHAUSTIVE.h5",
                        help="a result that knows every answer (an exhaustive run), to add how "
                             "far the run is from the exact best, for kernels with a module "
                             "analysis/kernels/KERNEL_ground_truth.py")
    args = parser.parse_args(argv)
    output = args.output or re.sub(r"\.h5$", "", args.result) + "-report"
    try:
        index = build(args.result, output, args.figures, args.ground_truth)
    except LoadError as error:
        print(f"analysis.report: error: {error}", file=sys.stderr)
        return 2
    print(f"report: {os.path.abspath(index)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
