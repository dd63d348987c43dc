"""What every figure of `analysis.report` shares: the Report that saves figures for the
index, labels of sweep points and tasks, the layout of swept keys into lines and panels, and
the figures of any kernel (GA fitness curves, exhaustive histograms, GA targets against
validated values). The per-kernel figures live in analysis/kernels/<kernel>.py."""

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DPI = 100


class Report:
    """The figures written so far, for the index."""

    def __init__(self, run, directory):
        self.run = run
        self.directory = directory
        self.figures = []  # (file name, title, caption)

    def save_plot(self, fig, ax, labels, name, title, caption, legend_columns=1):
        """A single-axes plot: its (x, y) labels, legend and grid, then saved."""
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.legend(fontsize="small", ncol=legend_columns)
        ax.grid(alpha=0.3)
        self.save(fig, name, title, caption)

    def save_panels(self, fig, axes, labels, name, title, caption):
        """A grid of panels sharing axes: panels left empty hidden, the x label and ticks
        under the lowest panel of each column, the y label left of the first column, one
        legend (the first panel's), grids. Then saved."""
        for column in axes.T:
            shown = [ax for ax in column if ax.has_data()]
            for ax in column:
                ax.set_visible(ax in shown)
            if shown:
                shown[-1].set_xlabel(labels[0])
                shown[-1].xaxis.set_tick_params(labelbottom=True)
        for ax in axes[:, 0]:
            ax.set_ylabel(labels[1])
        for ax in axes.flat:
            ax.grid(alpha=0.3)
        axes[0][0].legend(fontsize="small")
        self.save(fig, name, title, caption)

    def save(self, fig, name, title, caption):
        fig.savefig(os.path.join(self.directory, name), dpi=DPI, bbox_inches="tight")
        plt.close(fig)
        self.figures.append((name, title, caption))


def values_label(keys, values):
    """`aggression=1, fear=3` for swept keys and their values; '' for none."""
    return ", ".join(f"{key.split('.')[-1]}={value}" for key, value in zip(keys, values))


def point_label(run, point, keys=None):
    """A sweep point's swept values (`keys`, default all swept keys)."""
    row = run.points[run.points.point == point].iloc[0]
    keys = run.swept_keys if keys is None else keys
    return values_label(keys, [row[key] for key in keys]) or "all tasks"


def task_label(run, task, point):
    """`task 3, target=0.5`: a task and its point's swept values, if any."""
    return f"task {task}, {point_label(run, point)}" if run.swept_keys else f"task {task}"


def varied_keys(run):
    """The swept keys that take more than one value, in the sweep's order."""
    return [key for key in run.swept_keys if run.points[key].nunique() > 1]


def by_keys(frame, keys):
    """(values as a tuple, rows) per combination of the `keys` columns; all rows for none."""
    if not keys:
        return [((), frame)]
    grouped = frame.groupby(list(keys) if len(keys) > 1 else keys[0])
    return [(key if isinstance(key, tuple) else (key,), rows) for key, rows in grouped]


def sweep_roles(run, preferred):
    """The varied swept keys as (x, lines, panels) of a plot: x the first numeric key in the
    order of `preferred` (then the sweep's), else the first key, else None; one line per
    value of the next key; one panel per combination of the rest. A config sweeping fewer
    keys gets fewer lines and panels."""
    keys = varied_keys(run)
    ranked = [key for key in preferred if key in keys] + [key for key in keys if key not in preferred]
    numeric = [key for key in ranked if pd.api.types.is_numeric_dtype(run.points[key])]
    x = numeric[0] if numeric else (ranked[0] if ranked else None)
    rest = [key for key in ranked if key != x]
    return x, rest[:1], [key for key in keys if key in rest[1:]]


def panel_grid(count, width=4.2, height=3.2):
    """A figure with `count` panels in a near-square grid (axes as a 2-D array)."""
    columns = int(np.ceil(np.sqrt(count)))
    rows = int(np.ceil(count / columns))
    return plt.subplots(rows, columns, figsize=(width * columns, height * rows), squeeze=False,
                        sharex=True, sharey=True)


def fitness_curves(report):
    """Median best fitness per generation over the replicates, with the interquartile band,
    one line per sweep point."""
    run = report.run
    history = run.with_params(run.history)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for point, rows in history.groupby("point"):
        by_generation = rows.groupby("generation")["best"]
        median = by_generation.median()
        low, high = by_generation.quantile(0.25), by_generation.quantile(0.75)
        line, = ax.plot(median.index, median.to_numpy(), label=point_label(run, point))
        ax.fill_between(median.index, low.to_numpy(), high.to_numpy(), color=line.get_color(), alpha=0.2)
    report.save_plot(fig, ax, ("generation", "best fitness (median, IQR band)"), "fitness.png",
                     "Fitness over generations",
                "Best fitness of each generation: median over the replicates of each sweep point, "
                "with the band between the 25th and 75th percentiles.")


def targets(report, field, samples, labels, name, title, caption):
    """A GA swept over `params.target`: each task's best individual's `field`, at selection
    and validated (`validated_<field>`), against its target. `samples` names what was
    sampled (playouts, worlds)."""
    run = report.run
    if "params.target" not in run.points.columns or f"validated_{field}" not in run.best.columns:
        return
    best = run.with_params(run.best[run.best.position == 0])
    fig, ax = plt.subplots(figsize=(5.5, 5))
    target = best["params.target"].to_numpy(dtype=float)
    ax.scatter(target - 0.005, best[field], marker="o", label=f"at selection (noisy {samples})")
    ax.scatter(target + 0.005, best[f"validated_{field}"], marker="s",
               label=f"validated (fresh {samples})")
    ax.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="target")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    report.save_plot(fig, ax, labels, name, title, caption)


def histogram_bars(ax, rows):
    """Bars of one histogram's rows of `reductions`, under- and overflow (infinite edges) left out."""
    inner = rows[np.isfinite(rows["low"]) & np.isfinite(rows["high"])]
    ax.bar(inner["low"], inner["value"], width=(inner["high"] - inner["low"]).to_numpy(), align="edge")


def histograms(report):
    """Every histogram reduction of an exhaustive run, task 0."""
    run = report.run
    reductions = run.reductions
    names = sorted(set(reductions[reductions.kind == "histogram"]["reduction"]))
    if not names:
        return
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 2.6 * len(names)), squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        histogram_bars(ax, reductions[(reductions.reduction == name) & (reductions.task == 0)])
        ax.set_title(name, fontsize="small")
        ax.set_ylabel("count")
    report.save(fig, "histograms.png", "Histograms",
                "Every histogram reduction of task 0 (underflow and overflow bins left out).")
