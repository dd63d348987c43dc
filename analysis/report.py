"""python3 -m analysis.report RESULT.h5 -o DIR: PNG figures of a result file and an
index.html showing them with the provenance and the sweep (plain HTML, no network).

Figures per kernel (docs/analysis.md): GA fitness curves for every GA run; match3 targets
against validated success probabilities and the best boards; tilt-maze solvability against
wall density, solution lengths and the hardest mazes with their solutions; matchstick
solution counts and good puzzles before and after; histograms of any exhaustive run.
"""

import argparse
import html
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import numpy as np  # noqa: E402

from . import LoadError, load  # noqa: E402
from .render import draw_match3, draw_matchstick, draw_tiltmaze  # noqa: E402

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

    def save(self, fig, name, title, caption):
        fig.savefig(os.path.join(self.directory, name), dpi=DPI, bbox_inches="tight")
        plt.close(fig)
        self.figures.append((name, title, caption))


def point_label(run, point):
    row = run.points[run.points.point == point].iloc[0]
    keys = run.swept_keys
    return ", ".join(f"{key.split('.')[-1]}={row[key]}" for key in keys) if keys else "all tasks"


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


def match3_targets(report):
    run = report.run
    if "params.target" not in run.points.columns or "validated_p_empirical" not in run.best.columns:
        return
    best = run.with_params(run.best[run.best.position == 0])
    fig, ax = plt.subplots(figsize=(5.5, 5))
    targets = best["params.target"].to_numpy(dtype=float)
    ax.scatter(targets - 0.005, best["p_empirical"], marker="o", label="at selection (noisy playouts)")
    ax.scatter(targets + 0.005, best["validated_p_empirical"], marker="s", label="validated (fresh playouts)")
    ax.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="target")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    report.save_plot(fig, ax, ("target success probability", "success probability of the best level"),
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
    for key, rows in (records.groupby(groups) if groups else [((), records)]):
        key = key if isinstance(key, tuple) else (key,)
        fraction = rows.groupby("params.wall_density")["solvable"].mean()
        label = ", ".join(f"{g.split('.')[-1]}={k}" for g, k in zip(groups, key)) or "all"
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


def kernel_figures(report):
    run = report.run
    if run.driver == "ga":
        fitness_curves(report)
        if run.kernel == "match3":
            match3_targets(report)
            match3_boards(report)
    elif run.driver == "sweep" and run.kernel == "tiltmaze":
        tiltmaze_sweep(report)
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
    summary = run.tasks.groupby("point").agg(tasks=("task", "count"), done=("status", "sum"),
                                             wall_time=("wall_time", "sum")).reset_index()
    sweep = run.points.merge(summary, on="point")
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
