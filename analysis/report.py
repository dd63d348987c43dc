"""python3 -m analysis.report RESULT.h5 -o DIR: PNG figures of a result file and an
index.html showing them with the provenance and the sweep (plain HTML, no network).

Figures per kernel (docs/analysis.md): GA fitness curves for every GA run; match3 targets
against validated success probabilities and the best boards; tilt-maze solvability against
wall density, solution lengths and the hardest mazes with their solutions; matchstick
solution counts and good puzzles before and after; monsters' hero survival against the swept
parameters (or the GA's targets) and the motive shares; spawn's difficulty error against
variety and a strip of levels with the enemies that appeared; histograms of any exhaustive
run.
"""

import argparse
import html
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import LoadError, load  # noqa: E402
from .render import (draw_match3, draw_matchstick, draw_spawn_strip, draw_tiltmaze,  # noqa: E402
                     parse_spawn_levels)

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


def match3_targets(report):
    targets(report, "p_empirical", "playouts",
            ("target success probability", "success probability of the best level"),
            "match3_targets.png", "Target against validated success probability",
            "Each task's best board: its success probability as estimated during selection and "
            "as measured again on fresh playouts, against the target it was evolved for.")


def match3_boards(report):
    run = report.run
    levels = run.levels
    if levels is None:
        return
    tasks = min(len(levels), 6)
    fig, axes = plt.subplots(1, tasks, figsize=(2.2 * tasks, 3.2), squeeze=False)
    for task in range(tasks):
        draw_match3(axes[0][task], levels[task, 0])
        row = run.tasks[run.tasks.task == task].iloc[0]
        axes[0][task].set_title(f"task {task}\n{point_label(run, row['point'])}", fontsize="small")
    report.save(fig, "match3_boards.png", "Best boards",
                "The best board of each task (the first six), before play; white cells are empty.")


def tiltmaze_sweep(report):
    run = report.run
    records = run.records
    if "params.wall_density" not in records.columns:
        return
    size = "params.width" if "params.width" in records.columns else None
    collect = "params.collect" if "params.collect" in records.columns else None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    groups = [c for c in (size, collect) if c]
    for key, rows in by_keys(records, groups):
        fraction = rows.groupby("params.wall_density")["solvable"].mean()
        label = values_label(groups, key) or "all"
        ax.plot(fraction.index, fraction.to_numpy(), marker="o", label=label)
    ax.set_ylim(-0.02, 1.02)
    report.save_plot(fig, ax, ("wall density", "solvable fraction"), "tiltmaze_solvable.png",
                     "Solvable fraction against wall density",
                     "The fraction of random mazes that are solvable, per maze size and collect mode.",
                     legend_columns=2)
    solvable = records[records.solvable == 1]
    if len(solvable):
        fig, ax = plt.subplots(figsize=(7, 4))
        for key, rows in (solvable.groupby(collect) if collect else [("all", solvable)]):
            ax.hist(rows["length"], bins=np.arange(0, rows["length"].max() + 2) - 0.5, alpha=0.6,
                    label=f"collect={key}")
        ax.set_xlabel("shortest solution length (moves)")
        ax.set_ylabel("mazes")
        ax.legend(fontsize="small")
        report.save(fig, "tiltmaze_lengths.png", "Solution lengths",
                    "Shortest solution lengths of the solvable mazes.")


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


def tiltmaze_hardest(report):
    top = report.run.top.get("hardest")
    if top is None or "maze" not in top.columns:
        return
    shown = top[top.task == 0].head(6)
    fig, axes = plt.subplots(1, len(shown), figsize=(2.6 * len(shown), 3), squeeze=False)
    for ax, (_, row) in zip(axes[0], shown.iterrows()):
        draw_tiltmaze(ax, row["maze"], path=row["moves"] if "moves" in row else None)
        ax.set_title(f"{int(row['score'])} moves", fontsize="small")
    report.save(fig, "tiltmaze_hardest.png", "Hardest mazes",
                "The hardest mazes of the run (top-k table 'hardest'): start (green), target (red), "
                "walls, and the shortest solution (blue).")


def matchstick(report):
    run = report.run
    reductions = run.reductions
    counts = reductions[(reductions.reduction == "solution_count") & (reductions.task == 0)]
    if len(counts):
        fig, ax = plt.subplots(figsize=(7, 4))
        histogram_bars(ax, counts)
        ax.set_yscale("log")
        ax.set_xlabel("solutions of a puzzle")
        ax.set_ylabel("puzzles (log scale)")
        report.save(fig, "matchstick_solutions.png", "Solutions per puzzle",
                    "How many solutions each candidate puzzle has.")
    good = run.top.get("good_puzzles")
    if good is None or not len(good):
        return
    shown = good[good.task == 0].head(5)
    fig, axes = plt.subplots(len(shown), 2, figsize=(8, 1.4 * len(shown)), squeeze=False)
    for row_axes, (_, row) in zip(axes, shown.iterrows()):
        draw_matchstick(row_axes[0], row["puzzle"])
        draw_matchstick(row_axes[1], row["solution"])
    axes[0][0].set_title("puzzle", fontsize="small")
    axes[0][1].set_title("solution", fontsize="small")
    report.save(fig, "matchstick_good.png", "Good puzzles",
                "The best puzzles by difficulty: the false equation and the true one after the move.")


# ---------------------------------------------------------------------------------------
# monsters and spawn

# The motives of a monsters record (kernels/monsters), each with a fixed color.
MOTIVES = {"fear": "#984ea3", "aggression": "#e41a1c", "desire": "#ffd92f", "misc": "#a65628",
           "wander": "#4daf4a", "none": "#bbbbbb"}


def monsters_survival(report):
    """Sweep: p_survive against the swept parameters, one line per value of the second and a
    panel per combination of the rest (means over replicates). GA: the targets figure."""
    run = report.run
    if run.driver == "ga":
        targets(report, "p_survive", "worlds",
                ("target survival probability", "hero survival of the best monsters"),
                "monsters_survival.png", "Target against validated hero survival",
                "Each task's best monster genome: the hero's survival probability as estimated "
                "during selection and as measured again on fresh worlds, against its target.")
        return
    records = run.records
    if "p_survive" not in records.columns:
        return
    x, lines, panels = sweep_roles(run, ("params.fear", "params.group_size", "params.aggression"))
    if x is None:
        x = "sweep"
        records = records.assign(sweep="all tasks")
    joined = "-" if pd.api.types.is_numeric_dtype(records[x]) else "none"  # no line between texts
    groups = by_keys(records, panels)
    fig, axes = panel_grid(len(groups))
    for ax, (key, rows) in zip(axes.flat, groups):
        for line, line_rows in by_keys(rows, lines):
            survival = line_rows.groupby(x)["p_survive"].mean()
            ax.plot(survival.index, survival.to_numpy(), marker="o", linestyle=joined,
                    label=values_label(lines, line) or "all")
        ax.set_title(values_label(panels, key), fontsize="small")
        ax.set_ylim(-0.02, 1.02)
    report.save_panels(fig, axes, (x.split(".")[-1], "hero survival probability"),
                       "monsters_survival.png", "Hero survival against the swept parameters",
                       "The fraction of worlds the hero survives, per sweep point (mean over "
                       "replicates).")


def stacked_bars(ax, labels, shares, colors):
    """Horizontal bars of `shares` (a DataFrame, one column per part) stacked left to right,
    the first label on top."""
    left = np.zeros(len(shares))
    for column in shares.columns:
        values = shares[column].to_numpy(dtype=float)
        ax.barh(np.arange(len(shares)), values, left=left, color=colors[column], label=column)
        left += np.nan_to_num(values)
    ax.set_yticks(np.arange(len(shares)))
    ax.set_yticklabels(labels, fontsize="small")
    ax.set_ylim(len(shares) - 0.5, -0.5)


def monsters_motives(report):
    """The motive shares of the monsters' decisions: per sweep point (mean over
    replicates), or per task of the best GA individual (whose record holds fear and
    aggression: the rest is 'other')."""
    run = report.run
    if run.driver == "ga":
        frame = run.with_params(run.best[run.best.position == 0])
        rows = frame.task.to_numpy()
        labels = [task_label(run, row.task, row.point) for row in frame.itertuples()]
    else:
        frame = run.records
        rows = sorted(set(frame.point))
        labels = [point_label(run, point, varied_keys(run)) for point in rows]
    columns = [f"share_{motive}" for motive in MOTIVES if f"share_{motive}" in frame.columns]
    if not columns or not len(frame):
        return
    shares = frame.groupby("task" if run.driver == "ga" else "point")[columns].mean().loc[rows]
    shares.columns = [column[len("share_"):] for column in columns]
    colors = dict(MOTIVES)
    if len(columns) < len(MOTIVES):
        shares["other"] = (1 - shares.sum(axis=1)).clip(lower=0)
        colors["other"] = "#eeeeee"
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.25 * len(shares)))
    stacked_bars(ax, labels, shares, colors)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the monsters' decisions")
    ax.legend(fontsize="small", ncol=len(shares.columns), loc="lower center",
              bbox_to_anchor=(0.5, 1.0))
    report.save(fig, "monsters_motives.png", "Motive shares",
                "Which motive won the monsters' decisions, per " +
                ("task (its best genome; the record holds fear and aggression, the rest is other)."
                 if run.driver == "ga" else "sweep point (mean over replicates)."))


def spawn_tradeoff(report):
    """Difficulty error share against repetition and against per-level entropy. Sweep: a
    point per sweep point (mean over replicates), joined in order of the numeric swept key
    (labelled with its value) within each value of the other keys. GA: every kept genome at
    selection and validated."""
    run = report.run
    measures = (("repetition", "repetition of consecutive levels (%)", 100),
                ("entropy", "entropy of a level's mix (bits)", 1))
    series = []  # (label, marker, frame with error_share and the measures, labels or None)
    if run.driver == "ga":
        best = run.best
        series.append(("at selection", "o", best, None))
        validated = {f"validated_{column}": column
                     for column in ("error_share", "repetition", "entropy")}
        if set(validated) <= set(best.columns):
            series.append(("validated", "s", best[list(validated)].rename(columns=validated), None))
    else:
        records = run.records
        if "error_share" not in records.columns:
            return
        order, lines, panels = sweep_roles(run, ("params.weight_increment", "params.decay"))
        keys = [key for key in (order, *lines, *panels) if key]
        columns = ["error_share", "repetition", "entropy"]
        means = (records.groupby(keys)[columns].mean().reset_index() if keys
                 else records[columns].mean().to_frame().T)
        others = lines + panels
        for key, rows in by_keys(means, others):
            rows = rows.sort_values(order) if order else rows
            series.append((values_label(others, key) or "all tasks", "o", rows,
                           [f"{value:g}" if isinstance(value, float) else str(value)
                            for value in rows[order]] if order else None))
    fig, axes = plt.subplots(1, len(measures), figsize=(11, 4.5), squeeze=False)
    for ax, (measure, ylabel, scale) in zip(axes[0], measures):
        for label, marker, frame, point_labels in series:
            x = 100 * frame["error_share"].to_numpy(dtype=float)
            y = scale * frame[measure].to_numpy(dtype=float)
            line, = ax.plot(x, y, marker=marker, linestyle="-" if point_labels else "none",
                            label=label)
            for text, at_x, at_y in zip(point_labels or [], x, y):
                ax.annotate(text, (at_x, at_y), textcoords="offset points", xytext=(4, 3),
                            fontsize="x-small", color=line.get_color())
        ax.set_xlabel("difficulty error share (%)")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize="small")
    order_name = "" if run.driver == "ga" or not order else f" Numbers: {order.split('.')[-1]}."
    report.save(fig, "spawn_tradeoff.png", "Difficulty error against variety",
                "Sum |required - spawned| / sum required against the share of consecutive levels "
                "with the same set of enemies and the entropy of a level's mix, "
                + ("for each task's kept genomes, at selection and validated." if run.driver == "ga"
                   else "per sweep point (mean over replicates)." + order_name))


def spawn_strip(report):
    """The first run's levels of a few tasks: sweep, replicate 0 of up to four points from
    the most to the least repetitive; GA, the best genome's validation run of up to four
    tasks. Object names from the config's table, else table positions."""
    run = report.run
    if run.driver == "ga":
        if "validated_first_run" not in run.best.columns:
            return
        best = run.with_params(run.best[run.best.position == 0]).head(4)
        shown = [(f"{task_label(run, row.task, row.point)}: validated repetition "
                  f"{100 * row.validated_repetition:.1f} %", row.validated_first_run)
                 for row in best.itertuples()]
    else:
        records = run.records
        if "first_run" not in records.columns:
            return
        repetition = records.groupby("point")["repetition"].mean().sort_values(ascending=False)
        spread = np.linspace(0, len(repetition) - 1, min(len(repetition), 4)).round().astype(int)
        first = records[records.replicate == 0].set_index("point")["first_run"]
        shown = [(f"{point_label(run, point, varied_keys(run))}: repetition "
                  f"{100 * repetition[point]:.1f} %", first[point])
                 for point in repetition.index[np.unique(spread)]]
    shown = [(title, parse_spawn_levels(levels)) for title, levels in shown if levels]
    if not shown:
        return
    table = run.param_table("objects")
    names = [str(item.get("name", k)) for k, item in enumerate(table)] if table else None
    objects = len(names) if names else max(max(masks).bit_length() for _, masks in shown) or 1
    fig, axes = plt.subplots(len(shown), 1, figsize=(10, (0.22 * objects + 0.9) * len(shown)),
                             squeeze=False)
    for ax, (title, masks) in zip(axes[:, 0], shown):
        draw_spawn_strip(ax, masks, names=names, objects=objects)
        ax.set_title(title, fontsize="small", loc="left")
    axes[-1][0].set_xlabel("level of the run")
    report.save(fig, "spawn_strip.png", "Enemies per level",
                "The first run of a task, level by level: a filled cell when the enemy appeared; "
                "a red bar under a level with the same set of enemies as the level before.")


def kernel_figures(report):
    run = report.run
    if run.driver == "ga":
        fitness_curves(report)
        if run.kernel == "match3":
            match3_targets(report)
            match3_boards(report)
    elif run.driver == "sweep" and run.kernel == "tiltmaze":
        tiltmaze_sweep(report)
    if run.kernel == "monsters" and run.driver in ("ga", "sweep"):
        monsters_survival(report)
        monsters_motives(report)
    if run.kernel == "spawn" and run.driver in ("ga", "sweep"):
        spawn_tradeoff(report)
        spawn_strip(report)
    elif run.driver == "exhaustive":
        histograms(report)
        if run.kernel == "tiltmaze":
            tiltmaze_hardest(report)
        if run.kernel == "matchstick":
            matchstick(report)


def table_html(frame, limit=50):
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in frame.head(limit).itertuples(index=False))
    more = f"<p>... {len(frame) - limit} more rows</p>" if len(frame) > limit else ""
    return f"<table><tr>{head}</tr>{rows}</table>{more}"


def write_index(report, result_path):
    run = report.run
    provenance = run.provenance.iloc[0]
    shown = [k for k in provenance.index if k != "config"]
    tasks = run.tasks.assign(done=run.tasks.status == 1, failed=run.tasks.status == 2)
    summary = tasks.groupby("point").agg(tasks=("task", "count"), done=("done", "sum"),
                                         failed=("failed", "sum"),
                                         wall_time=("wall_time", "sum")).reset_index()
    sweep = run.points.merge(summary, on="point")
    failures = run.failures
    failure_note = ""
    if len(failures):
        failure_note = (
            f'<p><strong>{len(failures)} of the run\'s tasks or chunks failed</strong> (on_error: '
            f'record): the figures leave them out; exhaustive reductions of a failed task miss '
            f'the index ranges listed below.</p><h2>Failures</h2>'
            f'{table_html(failures.drop(columns=["session", "rank", "wall_time"]))}')
    figures = "".join(
        f'<h2>{html.escape(title)}</h2><p>{html.escape(caption)}</p><img src="{name}" alt="{html.escape(title)}">'
        for name, title, caption in report.figures)
    text = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(str(provenance['experiment']))}: levelforge report</title>
<style>body {{ font-family: sans-serif; max-width: 1000px; margin: 2em auto; }}
table {{ border-collapse: collapse; font-size: small; }} td, th {{ border: 1px solid #ccc; padding: 2px 6px; }}
img {{ max-width: 100%; }} pre {{ background: #f4f4f4; padding: 1em; }}</style></head>
<body><h1>{html.escape(str(provenance['experiment']))}</h1>
<p>{html.escape(result_path)}: {html.escape(run.kernel)} kernel, {html.escape(run.driver)} driver</p>
<h2>Provenance</h2>{table_html(run.provenance[shown].T.reset_index().set_axis(["attribute", "value"], axis=1), 100)}
<h2>Sweep</h2>{table_html(sweep)}
{failure_note}
{figures}
<h2>Config</h2><pre>{html.escape(str(provenance.get('config', '')))}</pre>
</body></html>
"""
    path = os.path.join(report.directory, "index.html")
    with open(path, "w") as out:
        out.write(text)
    return path


def build(result_path, directory):
    """Writes the figures and index.html of `result_path` into `directory`; returns the
    index's path. Raises LoadError for a file `analysis.load` refuses."""
    with load(result_path) as run:
        os.makedirs(directory, exist_ok=True)
        report = Report(run, directory)
        kernel_figures(report)
        return write_index(report, result_path)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m analysis.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="a levelforge result file")
    parser.add_argument("-o", "--output", required=True, help="directory for the figures and index.html")
    args = parser.parse_args(argv)
    try:
        index = build(args.result, args.output)
    except LoadError as error:
        print(f"analysis.report: error: {error}", file=sys.stderr)
        return 2
    print(f"report: {os.path.abspath(index)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
