"""What every figure of `analysis.report` shares: the Report that saves figures for the
index, labels of sweep points and tasks, the layout of swept keys into lines and panels, and
the figures of any driver (a sampled sweep's, results.png of a kernel without a figure
module, GA targets against validated values). Each driver's own figures live in its module,
analysis/drivers/<driver>.py (their names are reachable here too: `analysis.figures.qd_levels`
is `analysis.drivers.qd.qd_levels`), the per-kernel figures in analysis/kernels/<kernel>.py.

matplotlib is imported when the first figure is drawn, not with this module: `import
analysis` (whose drivers' modules import this one) reads tables without it."""

import importlib
import os
import types

import numpy as np
import pandas as pd


class _Later:
    """A module imported when first used."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attribute):
        return getattr(importlib.import_module(self._name), attribute)


plt = _Later("matplotlib.pyplot")
matplotlib = types.SimpleNamespace(cm=_Later("matplotlib.cm"), colors=_Later("matplotlib.colors"),
                                   ticker=_Later("matplotlib.ticker"))


def __getattr__(name):
    """A driver's figure function under its old name here (`analysis.figures.qd_levels`)."""
    from . import drivers
    for module in drivers.modules():
        if not name.startswith("_") and callable(getattr(module, name, None)):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def key_scale(run, key):
    """'log' for a key `sweep.sample` draws `loguniform` (docs/config.md), else 'linear'."""
    space = ((run.provenance.get("effective_config", {}).get("sweep") or {}).get("sample") or {}) \
        .get("space") or {}
    return "log" if "loguniform" in (space.get(key) or {}) else "linear"


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


def sampled_figures(report, max_fields=6):
    """A run with `sweep.sample`: each numeric field that varies (the first `max_fields`) of
    each task's record (sweep) or final best individual (ga; the driver module's
    `sampled_records`) against each sampled key, on a
    log axis where the key is sampled `loguniform`. Fields of other values: one dot per task
    (sampled.png); tasks, not means over a point's replicates, so that a field's sentinel
    value (a -1 for "none") stays in sight. Fields that are 0 or 1 (yes or no): the fraction
    of 1 per bin of the key, with the tasks per bin (sampled_fractions.png): dots at 0 and 1
    would hide how many lie under each."""
    from . import drivers
    run = report.run
    keys = run.sampled_keys
    sampled = drivers.module(run.driver).sampled_records(run) if keys else None
    if sampled is None:
        return
    records, what = sampled
    if records.empty:
        return
    swept = set(run.swept_keys) | {"task", "point", "replicate"}
    fields = [c for c in records.columns if c not in swept
              and pd.api.types.is_numeric_dtype(records[c]) and records[c].nunique() > 1][:max_fields]
    binary = [c for c in fields if records[c].isin([0, 1]).all()]
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
    from . import drivers
    what = drivers.module(run.driver).RESULTS_WHAT
    report.save(fig, "results.png", "Results against the swept keys",
                f"Per sweep point, {what} (each that varies, a row of panels) against "
                f"{x.split('.')[-1]}: the median over its replicates (n, the tasks, in the legend) "
                f"with the band between the 25th and 75th percentiles where n > 1; one line per "
                f"value of {', '.join(k.split('.')[-1] for k in line_keys) or 'nothing else'}"
                + (f", a panel per {', '.join(k.split('.')[-1] for k in panel_keys)}" if panel_keys else "")
                + f". The kernel has no figure module, so these are its figures.{same}", data=stats)
