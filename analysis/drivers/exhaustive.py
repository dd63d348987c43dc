"""The exhaustive driver (runner/drivers/exhaustive): its tables (`run.exhaustive`, and
`run.reductions`, `run.top`, `run.solutions`), its results table, its figure
(histograms.png) and its part of the netCDF export."""

import textwrap

import numpy as np
import pandas as pd

from ..figures import plt, task_label
from ..loader import DriverTables, _frame, register_driver

TABLES = ("reductions", "solutions")
SOMETIMES = ()
RESULT_TABLE = "reductions"
RESULTS_WHAT = "the count reductions"
UNIT = "chunk"


@register_driver("exhaustive", (*TABLES, "top"))
class ExhaustiveTables(DriverTables):
    """An exhaustive run's tables: reductions, top, solutions."""

    def _uncovered(self):
        """Per task: indices of its range that failed chunks left out of the reductions."""
        ranges = self._file["exhaustive/ranges"][()]
        if "uncovered" in ranges.dtype.names:
            return ranges["uncovered"]
        return np.zeros(len(ranges), dtype=np.int64)  # written before failures were recorded

    @property
    def reductions(self):
        def build():
            parts = []
            if "exhaustive/counts" in self._file:
                counts = _frame(self._file["exhaustive/counts"][()])
                for name in counts.columns:
                    parts.append(pd.DataFrame({
                        "task": np.arange(len(counts)), "reduction": name, "kind": "count",
                        "bin": -1, "low": np.nan, "high": np.nan, "value": counts[name].to_numpy()}))
            histograms = self._file.get("exhaustive/histograms", {})
            for name in histograms:
                dataset = histograms[name]
                low, high, bins = (float(dataset.attrs["low"]), float(dataset.attrs["high"]),
                                   int(dataset.attrs["bins"]))
                width = (high - low) / bins
                # Column 0 is the underflow, bins + 1 the overflow (infinite edges).
                lows = np.concatenate([[-np.inf], low + width * np.arange(bins), [high]])
                highs = np.concatenate([[low], low + width * np.arange(1, bins + 1), [np.inf]])
                values = dataset[()]
                tasks = values.shape[0]
                parts.append(pd.DataFrame({
                    "task": np.repeat(np.arange(tasks), bins + 2), "reduction": name,
                    "kind": "histogram", "bin": np.tile(np.arange(bins + 2), tasks),
                    "low": np.tile(lows, tasks), "high": np.tile(highs, tasks),
                    "value": values.reshape(-1)}))
            columns = ["task", "reduction", "kind", "bin", "low", "high", "value", "uncovered"]
            if not parts:
                return pd.DataFrame(columns=columns)
            frame = pd.concat(parts, ignore_index=True)
            frame["uncovered"] = self._uncovered()[frame["task"].to_numpy()]
            return frame
        return self._cached("reductions", build)

    @property
    def top(self):
        def build():
            tables = {}
            for name, dataset in self._file.get("exhaustive/top", {}).items():
                rows = dataset[()]
                tasks, k = rows.shape
                frame = _frame(rows.reshape(-1))
                frame.insert(0, "rank", np.tile(np.arange(k), tasks))
                frame.insert(0, "task", np.repeat(np.arange(tasks), k))
                frame["uncovered"] = self._uncovered()[frame["task"].to_numpy()]
                tables[name] = frame[frame["index"] >= 0].reset_index(drop=True)
            return tables
        return self._cached("top", build)

    @property
    def solutions(self):
        def build():
            return _frame(self._file["exhaustive/solutions"][()])
        return self._cached("solutions", build)


def more_tables(run):
    """The top-k tables, as top_<name> in the CSV export."""
    return {f"top_{name}": frame for name, frame in run.top.items()}


def describe_lines(run):
    return [f"top[{name!r}]: {frame.shape[0]} rows" for name, frame in run.top.items()]


def task_results(run):
    """(frame, fields): each task's count reductions; (None, []) for a run without counts."""
    counts = run.reductions[run.reductions.kind == "count"]
    if counts.empty:
        return None, []
    frame = run.with_params(counts.pivot(index="task", columns="reduction", values="value").reset_index())
    return frame, sorted(set(counts.reduction))


def sampled_records(run):
    return None


def figures(report, kernel_module):
    """histograms.png, its count axis named by the kernel module's `histogram_counts(run)`."""
    counted = getattr(kernel_module, "histogram_counts", None)
    histograms(report, *([counted(report.run)] if counted else []))


def variables(run, joined):
    """The per-task variables of the netCDF export (analysis/export.py): the uncovered
    indices, each count, each histogram over its bins, each top-k table."""
    from ..export import _variables
    reductions = run.reductions
    parts = [reductions.groupby("task").uncovered.first().to_xarray().to_dataset()]
    for name, rows in reductions.groupby("reduction", sort=False):
        if (rows.kind == "count").all():
            parts.append(rows.set_index("task").value.rename(name).to_xarray().to_dataset())
            continue
        dimension = f"{name}_bin"
        edges = rows.drop_duplicates("bin").set_index("bin")
        values = rows.set_index(["task", "bin"]).value.rename(name).to_xarray()
        parts.append(values.rename(bin=dimension).assign_coords({
            f"{name}_low": (dimension, edges.low.reindex(values.bin.values).to_numpy()),
            f"{name}_high": (dimension, edges.high.reindex(values.bin.values).to_numpy())}
        ).to_dataset())
    for name, frame in run.top.items():
        parts.append(_variables(frame.drop(columns="uncovered"), ["task", "rank"], f"top_{name}_",
                                ()).rename(rank=f"top_{name}_rank"))
    return parts


def point_variables(run, by_sweep):
    return []


def run_variables(run):
    """The netCDF export's variables of the whole run: every solution record, over `solution`."""
    from ..export import _variables
    solutions = run.solutions
    return [_variables(solutions.assign(solution=np.arange(len(solutions))), ["solution"],
                       "solution_", ())]


# Figures


def histogram_bars(ax, rows, **style):
    """Bars of one histogram's rows of `reductions`, under- and overflow (infinite edges) left
    out; the rows drawn are returned."""
    inner = rows[np.isfinite(rows["low"]) & np.isfinite(rows["high"])]
    ax.bar(inner["low"], inner["value"], width=(inner["high"] - inner["low"]).to_numpy(),
           align="edge", **style)
    return inner


def histogram_figure(report, reductions, names, name, title, caption, y_label="count",
                     log=None, x_label=None):
    """One panel per histogram reduction in `names` that counted anything within its bins (the
    others named in the caption); bars for a run of one task, else one step line per task
    labelled by its point (the first ten tasks), each as its share of the task's counts in
    the bins: tasks of very different sizes on one count axis would leave the small ones flat
    at zero. A log count axis where `log`, or (`log` None) in a panel whose counts span three
    decades or more, which a linear axis would leave flat at zero. The counts drawn go beside
    the figure, one row per bin and task (under- and overflow left out), with `share` for
    several tasks."""
    run = report.run
    inner = reductions[reductions.reduction.isin(names) & np.isfinite(reductions["low"])
                       & np.isfinite(reductions["high"])]
    totals = inner.groupby("reduction")["value"].sum()
    empty = [reduction for reduction in names if totals.get(reduction, 0) == 0]
    names = [reduction for reduction in names if reduction not in empty]
    left_out = f" Left out, nothing counted within their bins: {', '.join(empty)}." if empty else ""
    if not names:
        return
    tasks = sorted(set(inner.task))
    shown_tasks = tasks[:10]
    several = len(tasks) > 1
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 2.8 * len(names) + 0.6), squeeze=False)
    drawn = []
    for ax, reduction in zip(axes[:, 0], names):
        counted = inner.value[(inner.reduction == reduction) & (inner.value > 0)]
        log_axis = log if log is not None else counted.max() >= 1000 * counted.min()
        for task in shown_tasks:
            rows = inner[(inner.reduction == reduction) & (inner.task == task)]
            if several:
                total = rows["value"].sum()
                rows = rows.assign(share=rows["value"] / total if total else np.nan)
                point = int(run.tasks.point[run.tasks.task == task].iloc[0])
                ax.stairs(rows["share"], np.append(rows["low"], rows["high"].iloc[-1]),
                          label=task_label(run, task, point))
            else:
                histogram_bars(ax, rows)
            drawn.append(rows)
        ax.set_title(reduction, fontsize="small")
        ax.set_xlabel(x_label or f"{reduction} (bins of the reduction)")
        # Wrapped: a panel is 2.8 inches high, and a longer label runs into the next one's.
        ax.set_ylabel(textwrap.fill((f"share of the task's {y_label}" if several else y_label)
                                    + (" (log scale)" if log_axis else ""), 26))
        if log_axis:
            ax.set_yscale("log")
        if several:
            ax.legend(fontsize="x-small")
    fig.tight_layout()
    data = pd.concat(drawn, ignore_index=True)
    data = data[["reduction", "task", "low", "high", "value", *(["share"] if several else [])]] \
        .rename(columns={"value": "count"})
    shown = "" if not several else (
        " One line per task, each as its share of the task's counts within the bins." +
        ("" if len(shown_tasks) == len(tasks) else f" The first {len(shown_tasks)} of {len(tasks)} tasks."))
    report.save(fig, name, title, caption + shown + left_out, data=data)


def histograms(report, counted="count"):
    """Every histogram reduction of an exhaustive run; `counted` says what a count is (the
    kernel module's `histogram_counts(run)`: what the kernel visits can stand for more)."""
    reductions = report.run.reductions
    names = sorted(set(reductions[reductions.kind == "histogram"]["reduction"]))
    if names:
        histogram_figure(report, reductions, names, "histograms.png", "Histograms",
                         f"Every histogram reduction (underflow and overflow bins left out); "
                         f"counted: {counted}.", y_label=counted)
