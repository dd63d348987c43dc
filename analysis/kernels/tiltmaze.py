"""Tilt mazes (kernels/tiltmaze): solvability against wall density and solution lengths of
a sweep, the hardest mazes of an exhaustive run with their solutions, the mazes spread over a
QD archive. `analysis.report` calls figures(report) for a run of this kernel."""

import textwrap

import matplotlib.pyplot as plt

from . import spread_points
from ..figures import line_panels, panels_and_lines, point_label, qd_levels, varied_keys
from ..render import draw_tiltmaze


# A statistic of fewer mazes than this is drawn hollow: a median of 2 mazes next to one of
# 200 must not look as sure.
FEW_MAZES = 5


def mark_few(axes, data, x, y, count, line_keys, panel_keys):
    """Hollow markers over the points of `line_panels(data, x, y, ...)` taken over fewer than
    FEW_MAZES mazes (the `count` column), with one legend entry saying so."""
    few = data[count] < FEW_MAZES
    if not few.any():
        return
    for ax, (_, lines) in zip(axes.flat, panels_and_lines(data, line_keys, panel_keys)):
        for _, points, color in lines:
            points = points[points[count] < FEW_MAZES]
            ax.scatter(points[x], points[y], s=30, facecolor="white", edgecolor=color, zorder=3)
    # A black proxy, not one line's color: the legend entry is for every line.
    axes.flat[0].scatter([], [], s=30, facecolor="white", edgecolor="black",
                         label=f"fewer than {FEW_MAZES} mazes")


def tiltmaze_sweep(report):
    run = report.run
    records = run.records
    # Sampled points are no grid to draw lines through: the generic sampled.png and
    # sampled_fractions.png show them, solvable as a fraction per bin with its counts.
    if "params.wall_density" not in records.columns or run.sampled_keys:
        return
    x = "params.wall_density"
    others = [key for key in varied_keys(run) if key != x]
    line_keys, panel_keys = others[:1], others[1:]
    # A maze that got no target (no cell to place one on) is solved by standing still: it is
    # counted apart, not as solvable.
    placed = records[records.targets > 0]
    keys = [*panel_keys, *line_keys, x]
    data = placed.groupby(keys).agg(mazes=("solvable", "size"), solvable=("solvable", "sum"))
    data["fraction"] = data.solvable / data.mazes
    data = data.join(records[records.targets == 0].groupby(keys).size().rename("no_target"),
                     how="outer").fillna({"mazes": 0, "solvable": 0, "no_target": 0}).reset_index()
    data = data.astype({"mazes": int, "solvable": int, "no_target": int})
    fig, axes = line_panels(data, x, "fraction", line_keys, panel_keys, marker="o")
    mark_few(axes, data, x, "fraction", "mazes", line_keys, panel_keys)
    for ax in axes.flat:
        ax.set_ylim(-0.02, 1.02)
    report.save_panels(fig, axes, ("wall density", "solvable fraction"),
                       "tiltmaze_solvable.png", "Solvable fraction against wall density",
                       "The fraction of random mazes that are solvable, for every swept value: one "
                       "line per value of the first key, one panel per combination of the others. "
                       "Mazes that got no target are left out (counted in the data as no_target). "
                       f"Hollow: a fraction of fewer than {FEW_MAZES} mazes.",
                       data=data)
    tiltmaze_lengths(report, placed[placed.solvable == 1], x, line_keys, panel_keys)


def tiltmaze_lengths(report, solvable, x, line_keys, panel_keys):
    """The shortest solution lengths of the solvable mazes against wall density, laid out as
    the solvable fraction: median with the interquartile band, per swept combination."""
    if solvable.empty:
        return
    keys = [*panel_keys, *line_keys, x]
    data = solvable.groupby(keys)["length"].agg(
        solvable="size", mean="mean", median="median", q25=lambda v: v.quantile(0.25),
        q75=lambda v: v.quantile(0.75), longest="max").reset_index()
    fig, axes = line_panels(data, x, "median", line_keys, panel_keys, band=("q25", "q75"), marker="o")
    mark_few(axes, data, x, "median", "solvable", line_keys, panel_keys)
    report.save_panels(fig, axes, ("wall density", "shortest solution length (moves)"),
                       "tiltmaze_lengths.png", "Solution lengths against wall density",
                       "The shortest solution length of the solvable mazes: median with the band "
                       "between the 25th and 75th percentiles, laid out as the solvable fraction "
                       "(mean and longest in the data). Hollow: a median of fewer than "
                       f"{FEW_MAZES} solvable mazes (their count, solvable, in the data).", data=data)


def maze_panels(report, rows, name, title, caption, heading):
    """One maze per row of `rows` (a `maze` column, `moves` when known) with its solution
    path, moves numbered in order, titled by `heading(row)`; the rows go beside the figure."""
    fig, axes = plt.subplots(1, len(rows), figsize=(2.8 * len(rows), 3.8), squeeze=False)
    for ax, (_, row) in zip(axes[0], rows.iterrows()):
        moves = row["moves"] if "moves" in row and row["moves"] else None
        draw_tiltmaze(ax, row["maze"], path=moves, number_moves=moves is not None)
        ax.set_title(heading(row), fontsize="small")
    report.save(fig, name, title, caption, data=rows)


def histogram_counts(run):
    """What an exhaustive run's histograms count: the mazes it visited, under
    `symmetry: reflection` one per pair of mirror images (docs/tiltmaze.md)."""
    if "params.symmetry" in run.points.columns:
        return "mazes, one per reflection class at points of symmetry: reflection"
    if run.setting("params.symmetry") == "reflection":
        return "mazes, one per reflection class"
    return "mazes"


def tiltmaze_hardest(report):
    """The five hardest mazes of task 0 of each top-k table of mazes (`hardest`: one target,
    `hardest_pair`: two)."""
    for table, rows in sorted(report.run.top.items()):
        if "maze" not in rows.columns or rows.empty:
            continue
        shown = rows[rows.task == 0].head(5).reset_index(drop=True)
        what = "two targets" if "second" in shown.columns else "one target"
        # The kernel visits one maze of each pair of mirror images (docs/tiltmaze.md).
        mirrored = (" Counted up to reflection (symmetry: reflection): each maze stands for "
                    "itself and its mirror image about the diagonal through the start corner, "
                    "which is as hard and not listed."
                    if report.run.setting("params.symmetry") == "reflection" else "")
        maze_panels(report, shown, f"tiltmaze_{table}.png", f"Hardest mazes ({what})",
                    f"The hardest mazes of the run (top-k table '{table}', {what}): start (green), "
                    "targets (red), walls, and a shortest solution (blue), each move's number "
                    "where it ends (several numbers where the path comes back to a cell); the "
                    f"title spells the moves.{mirrored}",
                    lambda row: f"{int(row['score'])} moves\n{textwrap.fill(row['moves'], 24)}")


def tiltmaze_best(report):
    """A GA's evolved mazes: the best maze of replicate 0 of up to six sweep points spread
    over the sweep."""
    run = report.run
    best = run.best[(run.best.position == 0) & (run.best.replicate == 0)]
    if "maze" not in best.columns or best.empty:
        return
    shown, which = spread_points(best.sort_values("point"), 6)
    columns = ["task", "point", *run.swept_keys, "fitness", "solvable", "length", "targets", "maze"]
    maze_panels(report, shown[[c for c in columns if c in shown.columns]], "tiltmaze_best.png",
                "Evolved mazes",
                f"The best maze of replicate 0 of {which}: start (green), targets (red), walls; "
                "the title gives its point and shortest solution length.",
                lambda row: f"{textwrap.fill(point_label(run, row['point'], varied_keys(run)), 30)}\n"
                            f"length {int(row['length'])}, fitness {row['fitness']:.3g}")


def tiltmaze_examples(report):
    """Random mazes of a sweep as drawn: replicate 0 of up to six points spread over the sweep,
    titled with their point and whether (and in how many moves) they are solvable."""
    run = report.run
    records = run.records
    if "maze" not in records.columns or records.empty:
        return
    shown, which = spread_points(records[records.replicate == 0].sort_values("point"), 6)
    columns = ["task", "point", *run.swept_keys, "solvable", "length", "targets", "maze"]
    maze_panels(report, shown[[c for c in columns if c in shown.columns]], "tiltmaze_examples.png",
                "Example mazes",
                f"Replicate 0 of {which}, as generated: start (green), targets (red), walls; "
                "titles give the point and the shortest solution length.",
                lambda row: textwrap.fill(point_label(run, row["point"], varied_keys(run)), 30) + "\n"
                            + (f"solvable in {int(row['length'])}" if row["solvable"] else "unsolvable"))


def figures(report):
    if report.run.driver == "sweep":
        tiltmaze_examples(report)
        tiltmaze_sweep(report)
    elif report.run.driver == "exhaustive":
        tiltmaze_hardest(report)
    elif report.run.driver == "qd":
        if "maze" in report.run.qd_archive.columns:
            qd_levels(report, lambda ax, row, level: draw_tiltmaze(ax, row["maze"]),
                      "Each maze with its start (green), targets (red) and walls.")
    else:
        tiltmaze_best(report)
