"""What every figure of `analysis.report` shares: the Report that saves figures for the
index, labels of sweep points and tasks, the layout of swept keys into lines and panels, and
the figures of any kernel (GA fitness curves, exhaustive histograms, GA targets against
validated values). The per-kernel figures live in analysis/kernels/<kernel>.py."""

import itertools
import os
import textwrap

import matplotlib.cm
import matplotlib.colors
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np
import pandas as pd

DPI = 100


class Report:
    """The figures written so far, for the index. Each figure comes with the numbers it plots
    (`data`: a DataFrame, one row per plotted point or bar, columns named as in the figure),
    written beside it as data/<figure>.csv for a researcher to redraw it and a test to check
    it. A figure without them is refused: a picture nobody can check is how wrong ones ship."""

    def __init__(self, run, directory):
        self.run = run
        self.directory = directory
        self.figures = []  # (file name, title, caption, data file)

    def save_plot(self, fig, ax, labels, name, title, caption, data, legend_columns=1):
        """A single-axes plot: its (x, y) labels, legend and grid, then saved."""
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.legend(fontsize="small", ncol=legend_columns)
        ax.grid(alpha=0.3)
        self.save(fig, name, title, caption, data)

    def save_panels(self, fig, axes, labels, name, title, caption, data):
        """A grid of panels sharing axes: panels left empty hidden, the x label and ticks
        under the lowest panel of each column, the y label left of the first column, one
        legend (of every line in any panel), grids. Then saved."""
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
        legend = {}
        for ax in axes.flat:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                legend.setdefault(label, handle)
        axes[0][0].legend(legend.values(), legend.keys(), fontsize="small")
        self.save(fig, name, title, caption, data)

    def save(self, fig, name, title, caption, data):
        if not isinstance(data, pd.DataFrame) or data.empty:
            plt.close(fig)
            raise ValueError(f"figure {name!r}: no data to write beside it (a DataFrame with "
                             f"one row per plotted point or bar); got {type(data).__name__}")
        fig.savefig(os.path.join(self.directory, name), dpi=DPI, bbox_inches="tight")
        plt.close(fig)
        data_file = os.path.join("data", os.path.splitext(name)[0] + ".csv")
        os.makedirs(os.path.join(self.directory, "data"), exist_ok=True)
        data.to_csv(os.path.join(self.directory, data_file), index=False)
        self.figures.append((name, title, caption, data_file))


def value_text(value):
    """A swept value as a label shows it: 6, not 6.0; 0.1, not 0.1000000001."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, (float, np.floating)):
        return f"{value:.6g}"
    return str(value)


def values_label(keys, values):
    """`aggression=1, fear=3` for swept keys and their values; '' for none."""
    return ", ".join(f"{key.split('.')[-1]}={value_text(value)}" for key, value in zip(keys, values))


def point_label(run, point, keys=None):
    """A sweep point's swept values (`keys`, default all swept keys)."""
    rows = run.points[run.points.point == point]
    keys = run.swept_keys if keys is None else keys
    # Column by column: a row of mixed int and float columns would turn the ints into floats.
    return values_label(keys, [rows[key].iloc[0] for key in keys]) or "all tasks"


def task_label(run, task, point):
    """`task 3, target=0.5`: a task and its point's swept values, if any."""
    return f"task {task}, {point_label(run, point)}" if run.swept_keys else f"task {task}"


def varied_keys(run):
    """The swept keys that take more than one value, in the sweep's order; a key that moves
    in lockstep with an earlier one (a `sweep.zip`, like width and height) is left out: it
    would add no line or panel."""
    keys = []
    for key in run.swept_keys:
        values = run.points[key]
        if values.nunique() < 2:
            continue
        if any(run.points.groupby(kept)[key].nunique().max() == 1 and
               run.points.groupby(key)[kept].nunique().max() == 1 for kept in keys):
            continue
        keys.append(key)
    return keys


def by_keys(frame, keys):
    """(values as a tuple, rows) per combination of the `keys` columns; all rows for none."""
    if not keys:
        return [((), frame)]
    grouped = frame.groupby(list(keys) if len(keys) > 1 else keys[0])
    return [(key if isinstance(key, tuple) else (key,), rows) for key, rows in grouped]


def panels_and_lines(frame, line_keys, panel_keys):
    """(panel values, [(line values, rows, color)]) per combination of the `panel_keys`, its
    lines one per combination of the `line_keys`. A line's color follows its values, the same
    in every panel: a panel that lacks a value leaves that color out instead of handing it to
    the next line."""
    colors = {line: f"C{k % 10}" for k, (line, _) in enumerate(by_keys(frame, line_keys))}
    return [(panel, [(line, points, colors[line]) for line, points in by_keys(rows, line_keys)])
            for panel, rows in by_keys(frame, panel_keys)]


def line_panels(frame, x, y, line_keys, panel_keys, band=None, errors=None, counts=None, width=4.2,
                height=3.2, **style):
    """A grid of panels, one per combination of the `panel_keys`, each with a line of `y`
    against `x` per combination of the `line_keys` (colors kept across panels), titled by
    their values; `band` (low, high) columns shade around a line, `errors` a column of error
    bars; `counts` a column of how many values each point of a line summarises, given in its
    legend entry as `n=` (its range where the points differ). A line of one point gets a
    marker: a line alone would draw nothing. Returns (fig, axes) for the caller to finish and
    save."""
    panels = panels_and_lines(frame, line_keys, panel_keys)
    fig, axes = panel_grid(len(panels), width=width, height=height)
    for ax, (panel, lines) in zip(axes.flat, panels):
        for line, points, color in lines:
            label = values_label(line_keys, line) or "every task"
            if counts:
                label += f" ({count_text(points[counts])})"
            shown = dict(style, marker=style.get("marker") or "o") if len(points) == 1 else style
            if errors:
                ax.errorbar(points[x], points[y], yerr=points[errors].fillna(0), capsize=3,
                            color=color, label=label, **shown)
            else:
                ax.plot(points[x], points[y], color=color, label=label, **shown)
            if band:
                ax.fill_between(points[x], points[band[0]], points[band[1]], color=color, alpha=0.2)
        if panel_keys:
            ax.set_title(values_label(panel_keys, panel), fontsize="small")
    return fig, axes


def count_text(counts):
    """`n=3`, or `n=1-3` where the counts differ."""
    low, high = int(counts.min()), int(counts.max())
    return f"n={low}" if low == high else f"n={low}-{high}"


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


def best_so_far(run):
    """Per task and generation, the best fitness found so far. A task that stopped early
    (ga.stop_fitness) keeps its last value up to the last generation any task of its point ran,
    so that a replicate reaching the target does not drop out of the median."""
    history = run.history.copy()
    history = history.sort_values(["task", "generation"])
    history["best_so_far"] = history.groupby("task")["best"].cummax()
    last = history.groupby("point")["generation"].max()
    carried = []
    for (task, point), rows in history.groupby(["task", "point"]):
        generations = pd.RangeIndex(int(last[point]) + 1, name="generation")
        rows = rows.set_index("generation")["best_so_far"].reindex(generations).ffill()
        carried.append(pd.DataFrame({"task": task, "point": point, "generation": generations,
                                     "best_so_far": rows.to_numpy()}))
    return pd.concat(carried, ignore_index=True)


def validation_columns(run):
    """The columns of a GA's `best` that the kernel's `validate` measured again on fresh
    streams (/ga/validation): those `best` has beyond the fields `history` records of each
    generation's best. A kernel validates because its fitness is an estimate (docs/kernels.md),
    so [] says the fitness is exact."""
    recorded = {*run.history.columns, "position", "fitness", "genome"}
    return [c for c in run.best.columns if c not in recorded]


def replicate_stats(frame, column):
    """Per point and generation, `column`'s median, quartiles and count over the replicates."""
    return frame.groupby(["point", "generation"])[column].agg(
        median="median", q25=lambda v: v.quantile(0.25), q75=lambda v: v.quantile(0.75),
        replicates="count").reset_index()


def measured_fitness(run):
    """Per point and generation, over the replicates that ran it: the generation's best
    fitness as measured (median, quartiles, count); at each point's last generation, the
    median over its replicates of the final best's validated fitness (the kernel's
    `validated_fitness` field of /ga/validation; NaN where it records none)."""
    stats = replicate_stats(run.history, "best")
    stats["validated"] = np.nan
    if "validated_fitness" in run.best.columns:
        best = run.best[run.best.position == 0]
        validated = best.groupby("point").validated_fitness.median()
        last = stats.generation == stats.groupby("point").generation.transform("max")
        stats.loc[last, "validated"] = stats.point[last].map(validated).to_numpy()
    return stats


def line_layout(run, max_lines=10):
    """The varied swept keys as (line keys, panel keys): one line per value of the first, one
    panel per combination of the others; every key is a line or a panel, none averaged away.
    With few points, every point is a line of one panel."""
    keys = varied_keys(run)
    if len(run.points) <= max_lines or len(keys) <= 1:
        return keys, []
    return keys[:1], keys[1:]


def fitness_curves(report):
    """The fitness per generation, one line per sweep point (panels when points are many):
    the median over its replicates with the interquartile band. An exact fitness: the best
    found so far. An estimate (the kernel validates): the best each generation measured, never
    a running maximum, which would climb on lucky draws alone; and at the last generation the
    validated fitness of the final best, where the kernel records one (`validated_fitness`)."""
    run = report.run
    noisy = bool(validation_columns(run))
    if noisy:
        stats = measured_fitness(run)
    else:
        stats = replicate_stats(best_so_far(run), "best_so_far")
    stats = run.points.merge(stats, on="point")
    replicates = stats.groupby("point").replicates.max()
    if replicates.max() == 1:
        summary, band = "one replicate per point", None
    elif replicates.min() == replicates.max():
        summary, band = f"median of {replicates.max()} replicates, IQR band", ("q25", "q75")
    else:
        summary, band = "median of n replicates (legend), IQR band", ("q25", "q75")
    what = "best fitness measured in the generation" if noisy else "best fitness so far"
    if run.sampled_keys:
        sampled_fitness_curves(report, stats, run.sampled_keys[0], what, summary, noisy)
        return
    line_keys, panel_keys = line_layout(run)
    many = len(by_keys(stats, panel_keys)) > 1
    fig, axes = line_panels(stats, "generation", "median", line_keys, panel_keys, band=band,
                            counts="replicates" if replicates.nunique() > 1 else None,
                            width=5.5 if many else 7, height=3.6 if many else 4.5)
    validated = noisy and stats.validated.notna().any()
    if validated:
        for ax, (_, lines) in zip(axes.flat, panels_and_lines(stats, line_keys, panel_keys)):
            for _, points, color in lines:
                ax.plot(points.generation, points.validated, color=color, marker="D",
                        linestyle="none", markeredgecolor="black")
            axes[0][0].plot([], [], color="grey", marker="D", linestyle="none",
                            markeredgecolor="black", label="final best, validated")
    for ax in axes.flat:
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    report.save_panels(fig, axes, ("generation", f"{what}\n({summary})"), "fitness.png",
                       "Fitness over generations", fitness_caption(noisy, validated, summary),
                       data=stats)


def fitness_caption(noisy, validated, summary):
    if not noisy:
        return (f"Best fitness found so far by each task, per generation ({summary}). A task "
                "stopped early by ga.stop_fitness keeps its last value.")
    return ("The fitness is an estimate (the kernel measures its best genomes again on fresh "
            "streams), so the curve is the best fitness each generation measured, not the best "
            "found so far: a running maximum of noisy estimates climbs on lucky draws alone "
            f"({summary}). "
            + ("Diamonds, at the last generation: the fitness of the final best measured again "
               "on fresh streams (validated, median over the replicates)." if validated else
               "The validated fitness of the final best is not drawn: the kernel's validation "
               "records no validated_fitness field; the validated fields are in the results "
               "table."))


def key_scale(run, key):
    """'log' for a key `sweep.sample` draws `loguniform` (docs/config.md), else 'linear'."""
    space = ((run.provenance.get("effective_config", {}).get("sweep") or {}).get("sample") or {}) \
        .get("space") or {}
    return "log" if "loguniform" in (space.get(key) or {}) else "linear"


def sampled_fitness_curves(report, stats, key, what, summary, noisy):
    """fitness.png of a GA over sampled points (`sweep.sample`): a panel or line per sampled
    value would be one per point, so every point's median curve shares one panel, colored
    by its value of the first sampled key (on a log scale where it is sampled loguniform;
    sampled.png draws the final values against every sampled key)."""
    run = report.run
    low, high = float(stats[key].min()), float(stats[key].max())
    norm = (matplotlib.colors.LogNorm if key_scale(run, key) == "log" else matplotlib.colors.Normalize)(
        low, high if high > low else low + 1)
    cmap = plt.get_cmap("viridis")
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for _, line in stats.groupby("point"):
        ax.plot(line.generation, line["median"], color=cmap(norm(line[key].iloc[0])), linewidth=1,
                marker="o" if len(line) == 1 else None)
    fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax,
                 label=f"{key} ({'log scale' if key_scale(run, key) == 'log' else 'linear'})")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("generation")
    ax.set_ylabel(f"{what}\n({summary.replace(', IQR band', '')})")
    ax.grid(alpha=0.3)
    measured = ("the generation's best fitness as measured (an estimate: not a running maximum)"
                if noisy else "the best fitness found so far by each task")
    report.save(fig, "fitness.png", "Fitness over generations",
                f"Per generation, {measured}: the median over the replicates of each sampled "
                f"point, colored by its {key}. A task stopped early by ga.stop_fitness "
                + ("drops out of the median." if noisy else "keeps its last value."), data=stats)


def targets(report, field, samples, labels, name, title, caption):
    """A GA swept over `params.target`: each task's best individual's `field` (the quantity the
    run selected on; a function of the sweep point when that depends on a parameter), at
    selection and validated (`validated_<field>`), against its target. One panel per
    combination of the other varied swept keys. `samples` names what was sampled."""
    run = report.run
    if "params.target" not in run.points.columns:
        return
    field_of = field if callable(field) else (lambda point: field)
    best = run.with_params(run.best[run.best.position == 0])
    quantity = [field_of(point) for point in best.point]
    if any(f"validated_{q}" not in best.columns for q in quantity):
        return
    keys = [key for key in varied_keys(run) if key != "params.target"]
    data = best[["task", "point", *run.swept_keys]].copy()
    data["quantity"] = quantity
    data["at_selection"] = [row[q] for q, (_, row) in zip(quantity, best.iterrows())]
    data["validated"] = [row[f"validated_{q}"] for q, (_, row) in zip(quantity, best.iterrows())]
    panels = by_keys(data, keys)
    fig, axes = panel_grid(len(panels), width=4.8, height=4.6)
    for ax, (panel, rows) in zip(axes.flat, panels):
        target = rows["params.target"].to_numpy(dtype=float)
        ax.scatter(target - 0.005, rows["at_selection"], marker="o",
                   label=f"at selection (noisy {samples})")
        ax.scatter(target + 0.005, rows["validated"], marker="s", label=f"validated (fresh {samples})")
        ax.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="target")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        names = sorted(set(rows.quantity))
        if keys:
            ax.set_title(values_label(keys, panel) + (f": {names[0]}" if len(names) == 1 else ""),
                         fontsize="small")
    shown = sorted(set(quantity))
    y_label = f"{labels[1]} ({shown[0]})" if len(shown) == 1 else f"{labels[1]} (panel titles)"
    report.save_panels(fig, axes, (labels[0], y_label), name, title, caption, data=data)


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


def sampled_figures(report, max_fields=6):
    """A run with `sweep.sample`: each numeric field that varies (the first `max_fields`) of
    each task's record (sweep) or final best individual (ga) against each sampled key, on a
    log axis where the key is sampled `loguniform`. Fields of other values: one dot per task
    (sampled.png); tasks, not means over a point's replicates, so that a field's sentinel
    value (a -1 for "none") stays in sight. Fields that are 0 or 1 (yes or no): the fraction
    of 1 per bin of the key, with the tasks per bin (sampled_fractions.png): dots at 0 and 1
    would hide how many lie under each."""
    run = report.run
    keys = run.sampled_keys
    if not keys or run.driver not in ("ga", "sweep"):
        return
    records = run.records if run.driver == "sweep" else \
        run.with_params(run.best[run.best.position == 0]).drop(columns=["position", "genome"])
    if records.empty:
        return
    swept = set(run.swept_keys) | {"task", "point", "replicate"}
    fields = [c for c in records.columns if c not in swept
              and pd.api.types.is_numeric_dtype(records[c]) and records[c].nunique() > 1][:max_fields]
    binary = [c for c in fields if records[c].isin([0, 1]).all()]
    what = "record field" if run.driver == "sweep" else "field of the final best individual"
    scattered = [c for c in fields if c not in binary]
    if scattered:
        sampled_scatter(report, records, scattered, what,
                        f" Fields that are 0 or 1 ({', '.join(binary)}) are in sampled_fractions.png."
                        if binary else "")
    if binary:
        sampled_fractions(report, records, binary, what)


def sampled_scatter(report, records, fields, what, elsewhere):
    run = report.run
    keys = run.sampled_keys
    data = records[["task", "point", "replicate", *run.swept_keys, *fields]]
    fig, axes = plt.subplots(len(fields), len(keys), figsize=(3.6 * len(keys), 2.6 * len(fields)),
                             squeeze=False, sharex="col")
    # Tasks that share a position (an integer field, replicates of a point) would hide under
    # one dot: its area counts them, on one scale for every panel.
    shared = {(field, key): data.groupby([key, field]).size().rename("tasks").reset_index()
              for field in fields for key in keys}
    most = max(int(frame.tasks.max()) for frame in shared.values())
    for row, field in zip(axes, fields):
        for ax, key in zip(row, keys):
            dots = shared[(field, key)]
            ax.scatter(dots[key], dots[field], s=np.maximum(120 * dots.tasks / most, 4), alpha=0.4)
            ax.set_xscale(key_scale(run, key))
            ax.grid(alpha=0.3)
        row[0].set_ylabel(field)
    for ax, key in zip(axes[-1], keys):
        ax.set_xlabel(key_axis_label(run, key))
    fig.tight_layout()
    report.save(fig, "sampled.png", "Results against the sampled keys",
                f"Every task of the sampled sweep (sweep.sample, {len(data)} tasks): every {what} "
                "that varies against every sampled key, a dot per value, its area proportional to "
                f"the tasks there (the largest: {most}).{elsewhere}", data=data)


def key_axis_label(run, key):
    return key.split(".")[-1] + (" (log scale: sampled loguniform)" if key_scale(run, key) == "log" else "")


def key_bins(run, values, key, most=8):
    """(low, high, label) of the bins of a sampled key's `values`: one per value where there
    are at most `most` (text keys: every value), else `most` bins of equal width, on a log
    scale where the key is sampled loguniform."""
    distinct = sorted(set(values))
    if not pd.api.types.is_numeric_dtype(values):
        return [(value, value, value_text(value)) for value in distinct]
    if len(distinct) <= most:
        return [(value, value, value_text(value)) for value in distinct]
    log = key_scale(run, key) == "log"
    edges = (np.geomspace if log else np.linspace)(min(distinct), max(distinct), most + 1)
    return [(low, high, f"{low:.3g}-{high:.3g}") for low, high in zip(edges[:-1], edges[1:])]


def sampled_fractions(report, records, fields, what):
    """sampled_fractions.png: per 0/1 field and sampled key, the fraction of tasks whose field
    is 1 in each bin of the key, a bar per bin, the tasks per bin in the panel's title."""
    run = report.run
    keys = run.sampled_keys
    rows = []
    fig, axes = plt.subplots(len(fields), len(keys), figsize=(3.8 * len(keys), 2.8 * len(fields)),
                             squeeze=False)
    for line, field in zip(axes, fields):
        for ax, key in zip(line, keys):
            bins = key_bins(run, records[key], key)
            last = len(bins) - 1
            drawn = []
            for k, (low, high, label) in enumerate(bins):
                inside = records[key] == low if low == high else \
                    (records[key] >= low) & ((records[key] < high) if k < last else (records[key] <= high))
                values = records[field][inside]
                drawn.append({"field": field, "key": key, "bin": label, "low": low, "high": high,
                              "tasks": len(values), "ones": int(values.sum()),
                              "fraction": values.mean() if len(values) else np.nan})
            frame = pd.DataFrame(drawn)
            if all(low == high for low, high, _ in bins):
                numeric = pd.api.types.is_numeric_dtype(records[key])
                where = frame.low if numeric else np.arange(len(frame))
                ax.bar(where, frame.fraction, width=0.8 * (np.diff(where).min() if len(where) > 1 else 1))
                if not numeric:
                    ax.set_xticks(where, frame.bin)
            else:
                ax.bar(frame.low, frame.fraction, width=frame.high - frame.low, align="edge",
                       edgecolor="white")
                ax.set_xscale(key_scale(run, key))
            ax.set_ylim(0, 1.05)
            ax.set_title(f"tasks per bar: {count_text(frame.tasks)[2:]}", fontsize="small")
            ax.set_xlabel(key_axis_label(run, key))
            ax.grid(alpha=0.3)
            rows.append(frame)
        line[0].set_ylabel(f"fraction {field} = 1")
    fig.tight_layout()
    report.save(fig, "sampled_fractions.png", "Yes-or-no results against the sampled keys",
                f"Every {what} that is 0 or 1, as the fraction of the tasks with 1 in each bin of "
                "each sampled key (a bar per value of a key with few values, else 8 bins of equal "
                "width, on a log scale for a key sampled loguniform); each panel's title gives "
                "the tasks per bar (tasks and ones per bin in the data).",
                data=pd.concat(rows, ignore_index=True))


def results_figure(report, frame, fields):
    """results.png, for a kernel without a figure module: each numeric field of what each task
    produced (`frame`, one row per task; `fields` its columns that say it) against the varied
    swept keys of a grid (a sampled sweep has sampled.png): a row of panels per field that
    varies, x the first numeric key, one line per value of the next, a panel per combination
    of the rest; each point the median over its replicates with the interquartile band, n in
    the legend."""
    run = report.run
    x, line_keys, panel_keys = sweep_roles(run, [])
    if frame is None or frame.empty or x is None or run.sampled_keys:
        return
    numeric = [c for c in fields if pd.api.types.is_numeric_dtype(frame[c])]
    varying = [c for c in numeric if frame[c].nunique() > 1]
    if not varying:
        return
    stats = pd.concat([frame.groupby("point")[field].agg(
        median="median", q25=lambda v: v.quantile(0.25), q75=lambda v: v.quantile(0.75),
        tasks="count").reset_index().assign(field=field) for field in varying], ignore_index=True)
    stats = run.points.merge(stats, on="point")
    stats = stats[["field", "point", *run.swept_keys, "median", "q25", "q75", "tasks"]]
    panels = panels_and_lines(stats[stats.field == varying[0]], line_keys, panel_keys)
    fig, axes = plt.subplots(len(varying), len(panels), figsize=(4.4 * len(panels), 2.9 * len(varying)),
                             squeeze=False, sharex=True)
    for row, field in zip(axes, varying):
        for ax, (panel, _) in zip(row, panels):
            rows = stats[stats.field == field]
            for key, value in zip(panel_keys, panel):
                rows = rows[rows[key] == value]
            for line, points, color in panels_and_lines(rows, line_keys, [])[0][1]:
                points = points.sort_values(x)
                label = f"{values_label(line_keys, line) or 'all'} ({count_text(points.tasks)})"
                ax.plot(points[x], points["median"], color=color, marker="o", label=label)
                if points.tasks.max() > 1:
                    ax.fill_between(points[x], points.q25, points.q75, color=color, alpha=0.2)
            if panel_keys:
                ax.set_title(values_label(panel_keys, panel), fontsize="small")
            ax.grid(alpha=0.3)
        row[0].set_ylabel(field)
    for ax in axes[-1]:
        ax.set_xlabel(x.split(".")[-1])
    axes[0][0].legend(fontsize="x-small")
    fig.tight_layout()
    constant = [c for c in numeric if c not in varying]
    same = (" The same in every task, not drawn: " + ", ".join(
        f"{c} = {value_text(frame[c].iloc[0])}" for c in constant) + ".") if constant else ""
    what = {"ga": "the final best individual's fitness and fields", "sweep": "the record's fields",
            "qd": "the final archive's numbers", "exhaustive": "the count reductions"}[run.driver]
    report.save(fig, "results.png", "Results against the swept keys",
                f"Per sweep point, {what} (each that varies, a row of panels) against "
                f"{x.split('.')[-1]}: the median over its replicates (n, the tasks, in the legend) "
                f"with the band between the 25th and 75th percentiles where n > 1; one line per "
                f"value of {', '.join(k.split('.')[-1] for k in line_keys) or 'nothing else'}"
                + (f", a panel per {', '.join(k.split('.')[-1] for k in panel_keys)}" if panel_keys else "")
                + f". The kernel has no figure module, so these are its figures.{same}", data=stats)


def island_curves(report, max_points=12):
    """A GA with islands (ga.islands > 1 at some point): for one task per sweep point (its
    first replicate; the first `max_points` points), the best fitness on each island per
    generation over its diversity, one line per island colored by its index, with dotted
    lines at the generations after which migrants left. The numbers beside it: one row per
    task, generation and island, with the migrants that left the island after it."""
    run = report.run
    islands = run.island_history
    if islands.empty:
        return
    first = islands.sort_values(["point", "replicate"]).groupby("point")["task"].first()
    shown = first.head(max_points)
    migrations = run.migrations
    left = migrations.groupby(["task", "generation", "from"]).size().rename("emigrants")
    data = islands[islands.task.isin(shown)].merge(
        left.reset_index().rename(columns={"from": "island"}), on=["task", "generation", "island"],
        how="left")
    data["emigrants"] = data["emigrants"].fillna(0).astype("int64")
    data = data.sort_values(["point", "generation", "island"]).reset_index(drop=True)
    data = data[["task", "point", "replicate", *run.swept_keys, "generation", "island", "best",
                 "diversity", "distance_to_others", "emigrants"]]

    count = len(shown)
    columns = count if count <= 4 else int(np.ceil(np.sqrt(count)))
    pairs = int(np.ceil(count / columns))
    fig, axes = plt.subplots(2 * pairs, columns, figsize=(4.2 * columns, 5.4 * pairs),
                             squeeze=False, sharex=True)
    for ax in axes[0::2].flat:
        ax.sharey(axes[0, 0])
    for ax in axes[1::2].flat:
        ax.sharey(axes[1, 0])
    keys = varied_keys(run)
    cmap = plt.get_cmap("viridis")
    for k, (point, task) in enumerate(shown.items()):
        top, bottom = axes[2 * (k // columns), k % columns], axes[2 * (k // columns) + 1, k % columns]
        rows = data[data.task == task]
        count_here = int(rows.island.max()) + 1
        for island, line in rows.groupby("island"):
            color = "black" if count_here == 1 else cmap(island / (count_here - 1) * 0.9)
            top.plot(line.generation, line.best, color=color, linewidth=1)
            bottom.plot(line.generation, line.diversity, color=color, linewidth=1)
            bottom.plot(line.generation, line.distance_to_others, color=color, linewidth=1,
                        linestyle="--")
        for generation in sorted(set(rows.generation[rows.emigrants > 0])):
            for ax in (top, bottom):
                ax.axvline(generation, color="grey", linestyle=":", linewidth=0.8)
        label = point_label(run, point, keys) if keys else ""
        if "ga.islands" not in keys:
            label = f"{label}, {count_here} islands" if label else f"{count_here} islands"
        top.set_title(f"{label} (task {task})", fontsize="small")
    for k in range(count, pairs * columns):
        axes[2 * (k // columns), k % columns].set_visible(False)
        axes[2 * (k // columns) + 1, k % columns].set_visible(False)
    for column in axes.T:
        shown_axes = [ax for ax in column if ax.get_visible()]
        shown_axes[-1].set_xlabel("generation")
        shown_axes[-1].xaxis.set_tick_params(labelbottom=True)
    for ax in axes[0::2, 0]:
        ax.set_ylabel("best fitness on the island")
    for ax in axes[1::2, 0]:
        ax.set_ylabel("genome distance\n(solid: within, dashed: to others)")
    for ax in axes.flat:
        ax.grid(alpha=0.3)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    fig.tight_layout()
    which = "" if len(first) == len(shown) else f" (the first {len(shown)} of {len(first)} points)"
    report.save(fig, "ga_islands.png", "Islands: best fitness and diversity",
                f"One task per sweep point, its first replicate{which}: above, the best fitness on "
                "each island per generation; below, solid, the island's diversity, the mean "
                "distance between two of its genomes (the fraction of genome positions in which "
                "they differ), and dashed, the mean distance from one of its genomes to one of "
                "another island (how far the islands drifted apart). One line per island, colored by its index (dark: island 0; a point "
                "with one island, black). Both are taken before migration; dotted lines mark the "
                "generations after which migrants left their island (every ga.migration.every "
                "generations).", data=data)


def qd_names(run):
    """The measures of a QD run's grid, in its order (those of the first point)."""
    measures = run.qd_measures
    return list(measures.measure[measures.point == measures.point.min()])


def qd_final(run):
    """A QD run's last history row of each done task: its archive at the end."""
    history = run.qd_history.sort_values(["task", "iteration"])
    return history.groupby("task").tail(1).reset_index(drop=True)


def qd_best_tasks(run):
    """Per sweep point, its final row of the replicate with the highest final QD score (the
    lowest task on a tie), in point order."""
    final = qd_final(run).sort_values(["point", "qd_score", "task"], ascending=[True, False, True])
    return final.groupby("point").head(1).reset_index(drop=True)


def qd_grid(run, task):
    """(x, y, rows) for one task's archive seen over the first two measures: x and y are
    (name, low, high, bins) of those measures (y None for a run of one measure), rows one
    per square of their grid that holds an elite: the fittest elite whose bins along x and y
    are the square's (with more than two measures, several cells share a square), with
    `elites` (how many share it) and the square's edges `<name>_low`, `<name>_high`."""
    names = qd_names(run)
    archive = run.qd_archive[run.qd_archive.task == task]
    point = int(run.tasks.point[run.tasks.task == task].iloc[0])
    measures = run.qd_measures[run.qd_measures.point == point].set_index("measure")
    axes = [(name, float(measures.low[name]), float(measures.high[name]), int(measures.bins[name]))
            for name in names[:2]]
    squares = [f"bin_{name}" for name, *_ in axes]
    rows = archive.sort_values(["fitness", "cell"], ascending=[False, True])
    count = rows.groupby(squares).size().rename("elites")
    rows = rows.drop_duplicates(squares).merge(count.reset_index(), on=squares)
    for name, low, high, bins in axes:
        width = (high - low) / bins
        rows[f"{name}_low"] = low + width * rows[f"bin_{name}"]
        rows[f"{name}_high"] = low + width * (rows[f"bin_{name}"] + 1)
    rows = rows.sort_values(squares[::-1]).reset_index(drop=True)
    return axes[0], (axes[1] if len(axes) > 1 else None), rows


def qd_axis_label(axis):
    name, low, high, bins = axis
    return f"{name} ({value_text(low)} to {value_text(high)}, {bins} bins)"


def qd_archive_map(report, max_points=12):
    """A QD run's final archive as a heatmap of its elites' fitness over the first two
    measures, one panel per sweep point (the first `max_points`) showing its replicate with
    the highest final QD score; empty cells blank. The numbers: one row per filled square."""
    run = report.run
    shown = qd_best_tasks(run)
    if shown.empty or run.qd_archive.empty:
        return
    names = qd_names(run)
    points = len(shown)
    shown = shown.head(max_points)
    grids = [(row, *qd_grid(run, int(row.task))) for row in shown.itertuples(index=False)]
    values = pd.concat([rows.fitness for *_, rows in grids if not rows.empty])
    norm = matplotlib.colors.Normalize(float(values.min()), float(values.max())
                                       if values.max() > values.min() else float(values.min()) + 1)
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("#eeeeee")
    columns = int(np.ceil(np.sqrt(len(grids))))
    lines = int(np.ceil(len(grids) / columns))
    height = 3.9 if len(names) > 1 else 2.2
    fig, axes = plt.subplots(lines, columns, figsize=(4.4 * columns + 1, height * lines), squeeze=False,
                             layout="constrained")
    keys = varied_keys(run)
    drawn = []
    for ax, (final, x, y, rows) in zip(axes.flat, grids):
        name, low, high, bins = x
        y_bins, y_low, y_high = (y[3], y[1], y[2]) if y else (1, 0, 1)
        grid = np.full((y_bins, bins), np.nan)
        grid[rows[f"bin_{y[0]}"] if y else 0, rows[f"bin_{name}"]] = rows.fitness
        image = ax.imshow(grid, origin="lower", extent=(low, high, y_low, y_high), aspect="auto",
                          cmap=cmap, norm=norm, interpolation="nearest")
        ax.set_xlabel(qd_axis_label(x))
        if y:
            ax.set_ylabel(qd_axis_label(y))
        else:
            ax.set_yticks([])
        label = f"{point_label(run, final.point, keys)}\n" if keys else ""
        ax.set_title(f"{label}task {final.task} (replicate {final.replicate}): coverage "
                     f"{100 * final.coverage:.0f}%, QD score {final.qd_score:.4g}", fontsize="small")
        rows = rows.assign(coverage=final.coverage, qd_score=final.qd_score)
        drawn.append(rows)
    for ax in axes.flat[len(grids):]:
        ax.set_visible(False)
    fig.colorbar(image, ax=axes, label="fitness of the elite", shrink=0.9)
    squares = [f"bin_{name}" for name in names[:2]]
    edges = [f"{name}_{end}" for name in names[:2] for end in ("low", "high")]
    data = pd.concat(drawn, ignore_index=True)
    data = data[["task", "point", "replicate", *run.swept_keys, *squares, *edges, "cell",
                 *(f"measure_{name}" for name in names), "fitness", "elites", "coverage",
                 "qd_score"]]
    over = (f" Over more than two measures a square shows the fittest of the elites whose "
            f"{names[0]} and {names[1]} fall in it (elites in the data)." if len(names) > 2 else
            " The colored area is the coverage.")
    which = "" if points == len(shown) else f" The first {len(shown)} of {points} points."
    report.save(fig, "qd_archive.png", "The archive",
                "The final archive of each sweep point's replicate with the highest final QD "
                "score (its task in the title): each cell colored by the fitness of its elite, "
                f"over {' and '.join(names[:2])}; empty cells are left blank (grey).{over}{which}",
                data=data)


def qd_progress(report, max_points=10):
    """Coverage and QD score of a QD run against the evaluations made: per sweep point (the
    first `max_points`), the mean over its replicates with the band between their lowest
    and highest."""
    run = report.run
    history = run.qd_history
    if history.empty:
        return
    points = sorted(set(history.point))
    shown = points[:max_points]
    history = history[history.point.isin(shown)]
    stats = history.groupby(["point", "iteration"]).agg(
        evaluations=("evaluations", "mean"), replicates=("task", "count"),
        coverage_mean=("coverage", "mean"), coverage_min=("coverage", "min"),
        coverage_max=("coverage", "max"), qd_score_mean=("qd_score", "mean"),
        qd_score_min=("qd_score", "min"), qd_score_max=("qd_score", "max"),
        best_mean=("best", "mean")).reset_index()
    stats = run.points.merge(stats, on="point")
    keys = varied_keys(run)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), squeeze=False)
    for k, (point, rows) in enumerate(stats.groupby("point")):
        color = f"C{k % 10}"
        label = point_label(run, point, keys) if keys else "all tasks"
        for ax, column, scale in ((axes[0, 0], "coverage", 100), (axes[0, 1], "qd_score", 1)):
            ax.plot(rows.evaluations, scale * rows[f"{column}_mean"], color=color, label=label)
            ax.fill_between(rows.evaluations, scale * rows[f"{column}_min"],
                            scale * rows[f"{column}_max"], color=color, alpha=0.2, linewidth=0)
    offset = run.setting("qd.score_offset") if "qd.score_offset" not in run.swept_keys else None
    score = "QD score: sum over elites of fitness" + (
        f" - {value_text(offset)}" if offset else " - qd.score_offset" if offset is None else "")
    for ax, y_label in zip(axes[0], ("coverage (% of the cells holding an elite)", score)):
        ax.set_xlabel("evaluations")
        ax.set_ylabel(y_label)
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize="small")
    fig.tight_layout()
    which = "" if len(shown) == len(points) else f" The first {len(shown)} of {len(points)} points."
    report.save(fig, "qd_progress.png", "Coverage and QD score",
                "How the archive fills: its coverage (the share of cells holding an elite) and QD "
                "score (the sum over its elites of fitness - qd.score_offset) against the "
                "evaluations made, iteration 0 being the initial random genomes. One line per sweep "
                "point, the mean over its replicates, with the band between the lowest and the "
                f"highest replicate.{which}", data=stats)


def qd_blocks(first, last, count):
    """The bins first..last cut into at most `count` runs of consecutive bins, as even as can be."""
    return [block for block in np.array_split(np.arange(first, last + 1), count) if block.size]


def qd_levels(report, draw, drawing="", grid=4):
    """For a kernel's figure module: the levels of a QD run's elites spread over its archive,
    as the kernel draws them. The task is the one with the highest final QD score. The bins
    its elites reach along the first two measures are cut into at most `grid` runs each; a
    panel per pair of runs (the second measure rising upwards, as in qd_archive.png) shows
    the elite of that block nearest its middle (the fitter on a tie; "no elite" for a block
    without one), titled with its measures and fitness. `draw(ax, row, level)` draws one:
    `row` its row of `qd_archive`, `level` its rendered level (`qd_levels`) or None when the
    run has none. `drawing` tells the caption how to read a level."""
    run = report.run
    final = qd_final(run)
    if final.empty or run.qd_archive.empty:
        return
    chosen = final.sort_values(["qd_score", "task"], ascending=[False, True]).iloc[0]
    task = int(chosen.task)
    x, y, rows = qd_grid(run, task)
    if rows.empty:
        return
    bin_x = rows[f"bin_{x[0]}"].to_numpy()
    bin_y = rows[f"bin_{y[0]}"].to_numpy() if y else np.zeros(len(rows), dtype=np.int64)
    columns = qd_blocks(bin_x.min(), bin_x.max(), grid)
    lines = qd_blocks(bin_y.min(), bin_y.max(), grid)[::-1] if y else [np.array([0])]
    levels = run.qd_levels
    names = qd_names(run)
    fig, axes = plt.subplots(len(lines), len(columns), figsize=(2.5 * len(columns), 2.9 * len(lines)),
                             squeeze=False)
    data = []
    for (line, along_y), (column, along_x) in itertools.product(enumerate(lines), enumerate(columns)):
        ax = axes[line, column]
        inside = np.flatnonzero(np.isin(bin_x, along_x) & np.isin(bin_y, along_y))
        if inside.size == 0:
            ax.text(0.5, 0.5, "no elite", ha="center", va="center", color="grey",
                    fontsize="small", transform=ax.transAxes)
            ax.axis("off")
            continue
        # Nearest the block's middle, in bins; the fitter first (rows are sorted by fitness).
        distance = np.hypot(bin_x[inside] - along_x.mean(), bin_y[inside] - along_y.mean())
        row = rows.iloc[inside[np.argmin(distance)]]
        draw(ax, row, None if levels is None else levels[task, int(row["cell"])])
        measured = ", ".join(f"{name} {round(float(row[f'measure_{name}']), 3):g}" for name in names)
        ax.set_title(f"{measured}\nfitness {row['fitness']:.4g}", fontsize="x-small")
        block = {f"block_{x[0]}_first": along_x[0], f"block_{x[0]}_last": along_x[-1]}
        if y:
            block.update({f"block_{y[0]}_first": along_y[0], f"block_{y[0]}_last": along_y[-1]})
        data.append({"panel_row": line, "panel_column": column, **block,
                     **row.drop(labels=["genome"]).to_dict()})
    first = ["task", "point", "replicate", *run.swept_keys]
    keys = varied_keys(run)
    where = f"{point_label(run, chosen.point, keys)}, " if keys else ""
    fig.suptitle(f"task {task} ({where}replicate {int(chosen.replicate)}): {len(data)} of its "
                 f"{int(chosen.occupied)} elites", fontsize="small")
    fig.supxlabel(f"{x[0]} rises to the right", fontsize="small")
    if y:
        fig.supylabel(f"{y[0]} rises upwards", fontsize="small")
    fig.tight_layout()
    frame = pd.DataFrame(data)
    frame = frame[[*first, *(c for c in frame.columns if c not in first)]]
    report.save(fig, "qd_levels.png", "Elites across the archive",
                f"The levels of the task with the highest final QD score (task {task}), spread over "
                f"its archive: the bins its elites reach along {x[0]}"
                + (f" and {y[0]} (rising upwards)" if y else "") + f" cut into up to {grid} runs "
                "each, a panel per block showing the elite nearest its middle, titled with its "
                f"measures and fitness. {drawing}".rstrip(), data=frame)
