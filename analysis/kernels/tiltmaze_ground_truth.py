"""python3 -m analysis.kernels.tiltmaze_ground_truth QD.h5 EXHAUSTIVE.h5 [--out DIR]: a QD run's archives of
4 x 4 tilt mazes against every 4 x 4 maze.

The exhaustive run (configs/tiltmaze_4x4_exhaustive.yaml) counts, for each inner wall count
w = 0..24 and distance d = 0..15, the wall configurations with w walls whose hardest
one-target puzzle takes d tilts (/exhaustive/histograms/walls_distance). A maze whose
hardest puzzle takes D tilts holds a puzzle of every length 1..D (breadth-first layers are
contiguous), and one with D = 0 holds no target (length 0). So the (length, walls) pairs
some maze reaches are {(d, w): 1 <= d <= M(w)}, M(w) the longest distance of row w, and
(0, w) where row w counts a maze of distance 0.

The QD run (configs/tiltmaze_4x4_qd.yaml: 4 x 4, start in the corner, one target on a
resting cell, measures length and wall_density = walls / 24) is looked at on its grid
point's grid, the reference grid: every elite of every task (grid, CVT and novelty alike)
is placed there by its recorded measures with the runner's binning rule, and each cell's
best elite is compared with the exact best fitness its reachable pairs allow (fitness
-|length - target_length|). Prints a table per sweep point and writes
ground_truth_tasks.csv, ground_truth_cells.csv, ground_truth_walls.csv and ground_truth.png
(its numbers in data/ground_truth.csv) into DIR (default: QD.h5's path without .h5, then
-ground-truth). Exit 2 with one line on stderr for a file refused; 1 for a failed write.
docs/analysis.md, "Ground truth for 4 x 4 tilt mazes".
"""

import argparse
import math
import os
import re
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import LoadError, load
from ..drivers.qd import qd_archive_kind, qd_names
from ..figures import Report, matplotlib, plt, point_label, value_text, varied_keys
from ..files import OutputError, WriteError, output_folder, write_whole

WIDTH = HEIGHT = 4
WALLS = (WIDTH - 1) * HEIGHT + WIDTH * (HEIGHT - 1)  # 24 inner walls
DISTANCES = 16  # the histogram's distance slots, 0..15 (the longest 4 x 4 distance is 13)
CONFIGURATIONS = 1 << WALLS
HISTOGRAM = "walls_distance"
MEASURES = ("length", "wall_density")
# The QD run's params that make its mazes those of the exhaustive run.
REQUIRED = {"params.width": WIDTH, "params.height": HEIGHT, "params.targets": 1,
            "params.start": "corner", "params.placement": "resting", "params.collect": "stop"}


class GroundTruthError(LoadError):
    """A file the ground truth cannot use, or a comparison that contradicts it (an elite in a
    cell no maze reaches, a recorded cell the binning rule does not give); the message names
    the file and the problem."""


# The exhaustive run: which (length, walls) pairs some maze reaches.

@dataclass(frozen=True)
class Truth:
    """The walls_distance histogram of an exhaustive run of every 4 x 4 maze.

    counts   (25, 16) int64: row w, column d counts the configurations of w inner walls whose
             hardest one-target puzzle takes d tilts
    path     the exhaustive file
    """

    counts: np.ndarray
    path: str

    @property
    def longest(self):
        """M(w) for w = 0..24: the largest distance with a non-zero count in row w (-1 for a
        row without one)."""
        found = self.counts > 0
        last = DISTANCES - 1 - np.argmax(found[:, ::-1], axis=1)
        return np.where(found.any(axis=1), last, -1)

    @property
    def empty_maze(self):
        """For w = 0..24: whether some maze of w walls holds no target (distance 0)."""
        return self.counts[:, 0] > 0

    def pairs(self):
        """Every reachable (length, walls) pair, ordered by walls, then length."""
        found = []
        for walls, longest in enumerate(self.longest):
            if self.empty_maze[walls]:
                found.append((0, walls))
            found.extend((length, walls) for length in range(1, int(longest) + 1))
        return found

    def walls_table(self):
        """One row per wall count: walls, wall_density, mazes (the row's sum), longest (M(w)),
        without_target (mazes of distance 0: no resting cell but the start)."""
        return pd.DataFrame({"walls": np.arange(WALLS + 1),
                             "wall_density": np.arange(WALLS + 1) / WALLS,
                             "mazes": self.counts.sum(axis=1), "longest": self.longest,
                             "without_target": self.counts[:, 0]})


def read_truth(path):
    """The Truth of the exhaustive result file `path`. GroundTruthError (LoadError for a file
    `analysis.load` refuses) when it is not a complete tiltmaze exhaustive run of every 4 x 4
    configuration with the walls_distance histogram."""
    with load(path) as run:
        if run.driver != "exhaustive" or run.kernel != "tiltmaze":
            raise GroundTruthError(
                f"{path}: a {run.kernel} {run.driver} run, not the tiltmaze exhaustive run of "
                f"every 4 x 4 maze (configs/tiltmaze_4x4_exhaustive.yaml)"
                + (" (the QD file comes first, the exhaustive one second)"
                   if run.driver == "qd" else ""))
        reductions = run.reductions
        rows = reductions[(reductions.reduction == HISTOGRAM) & (reductions.kind == "histogram")]
        if rows.empty:
            raise GroundTruthError(
                f"{path}: no /exhaustive/histograms/{HISTOGRAM} (the distance histogram per wall "
                f"count): written by a levelforge older than that histogram; run "
                f"configs/tiltmaze_4x4_exhaustive.yaml again with a current build")
        tasks = sorted(set(rows.task))
        if len(tasks) != 1:
            raise GroundTruthError(f"{path}: {len(tasks)} tasks; the ground truth needs one "
                                   f"exhaustive task over every 4 x 4 maze")
        slots = (WALLS + 1) * DISTANCES
        values = rows.sort_values("bin").value.to_numpy(dtype=np.int64)
        edges = rows.set_index("bin")
        if len(values) != slots + 2 or edges.low.get(1) != 0 or edges.high.get(slots) != slots:
            raise GroundTruthError(
                f"{path}: /exhaustive/histograms/{HISTOGRAM} has {len(values) - 2} bins; a 4 x 4 "
                f"run has {slots} (25 wall counts x 16 distances)")
        if values[0] or values[-1]:
            raise GroundTruthError(
                f"{path}: /exhaustive/histograms/{HISTOGRAM} counts {values[0]} below and "
                f"{values[-1]} above its bins: not the 4 x 4 histogram this reads")
        if int(rows.uncovered.iloc[0]) != 0:
            raise GroundTruthError(
                f"{path}: failed chunks left {int(rows.uncovered.iloc[0])} configurations out "
                f"of its counts (on_error: record); the ground truth needs every one")
        begin, end = run.setting("exhaustive.begin"), run.setting("exhaustive.end")
        if begin not in (None, 0) or end not in (None, -1, CONFIGURATIONS):
            raise GroundTruthError(
                f"{path}: exhaustive.begin {begin} and exhaustive.end {end} leave configurations "
                f"out; the ground truth needs all 2^24 (begin 0, end -1)")
        counts = reductions[reductions.kind == "count"].set_index("reduction").value
        if "configurations" in counts and int(counts["configurations"]) != CONFIGURATIONS:
            raise GroundTruthError(
                f"{path}: its counts stand for {int(counts['configurations'])} configurations, "
                f"not all {CONFIGURATIONS} of a 4 x 4 maze")
        if "evaluated" in counts and int(counts["evaluated"]) != int(values.sum()):
            raise GroundTruthError(
                f"{path}: /exhaustive/histograms/{HISTOGRAM} counts {int(values.sum())} mazes, "
                f"the run evaluated {int(counts['evaluated'])}")
        return Truth(values[1:-1].reshape(WALLS + 1, DISTANCES), path)


# The runner's binning rule (runner/engine/qd_settings.cpp, MeasureAxis::bin).

def bin_of(values, low, high, bins):
    """The grid bin of each value, as the runner computes it: floor((value - low) / (high -
    low) * bins), below the range (and NaN) the first bin, at or above it the last."""
    scaled = (np.asarray(values, dtype=np.float64) - low) / (high - low) * bins
    inside = np.where(scaled >= 0, scaled, 0.0)  # NaN and below the range: bin 0
    return np.minimum(np.floor(inside), bins - 1).astype(np.int64)


@dataclass(frozen=True)
class Grid:
    """The reference grid: the grid point's measures, in the archive's order (`names`), with
    their `low`, `high` and `bins`; cells are row-major over them, the last fastest."""

    point: int
    names: tuple
    low: tuple
    high: tuple
    bins: tuple

    @property
    def cells(self):
        return int(np.prod(self.bins))

    def cell_of(self, measures):
        """The cell of each row of `measures` ({name: values})."""
        cell = 0
        for name, low, high, bins in zip(self.names, self.low, self.high, self.bins):
            cell = cell * bins + bin_of(measures[name], low, high, bins)
        return cell

    def bins_of(self, cells):
        """{name: the bin along it} of each cell."""
        cells = np.asarray(cells, dtype=np.int64)
        found = {}
        for name, bins in reversed(list(zip(self.names, self.bins))):
            found[name] = cells % bins
            cells = cells // bins
        return {name: found[name] for name in self.names}

    def describe(self):
        return " x ".join(f"{name} [{value_text(low)}, {value_text(high)}] in {bins} bins"
                          for name, low, high, bins in zip(self.names, self.low, self.high, self.bins))


# The QD run against it.

@dataclass
class Comparison:
    """A QD run against the Truth. `tasks` one row per done task, `cells` one row per reference
    cell (per point: gap_mean_<suffix>, covering_<suffix>), `elites` every elite with its
    reference cell, `points` one row per sweep point with its label and archive kind."""

    qd_path: str
    experiment: str
    truth: Truth
    grid: Grid
    target_length: int
    replicates: int
    points: pd.DataFrame
    tasks: pd.DataFrame
    cells: pd.DataFrame
    per_cell: pd.DataFrame
    elites: pd.DataFrame


def refuse(path, problem):
    raise GroundTruthError(f"{path}: not a QD run of 4 x 4 tilt mazes with one target, the "
                           f"start in the corner and targets on resting cells ({problem}); "
                           f"configs/tiltmaze_4x4_qd.yaml is one")


def check_qd_run(run):
    """GroundTruthError unless `run` maps the mazes of the exhaustive run: the tiltmaze kernel,
    the qd driver, REQUIRED at every point, the measures length and wall_density, one
    target_length. Returns that target_length."""
    path = run.path
    if run.driver != "qd" or run.kernel != "tiltmaze":
        refuse(path, f"a {run.kernel} {run.driver} run"
               + ("; the QD file comes first, the exhaustive one second"
                  if run.driver == "exhaustive" else ""))
    for point in run.points.point:
        for key, wanted in REQUIRED.items():
            found = run.setting(key, point)
            found = found.decode() if isinstance(found, bytes) else found
            if found != wanted:
                refuse(path, f"{key} is {found!r} at point {int(point)}, not {wanted!r}")
    names = qd_names(run)
    if sorted(names) != sorted(MEASURES):
        refuse(path, f"its measures are {', '.join(names)}, not length and wall_density")
    targets = {run.setting("params.target_length", point) for point in run.points.point}
    if len(targets) != 1:
        raise GroundTruthError(f"{path}: params.target_length takes the values "
                               f"{sorted(targets)}; the exact best fitness needs one")
    return int(targets.pop())


def reference_grid(run):
    """The Grid of the first point whose measures all have bins; GroundTruthError if none."""
    measures = run.qd_measures
    for point, rows in measures.groupby("point", sort=True):
        if (rows.bins > 0).all():
            return Grid(int(point), tuple(rows.measure), tuple(float(v) for v in rows.low),
                        tuple(float(v) for v in rows.high), tuple(int(v) for v in rows.bins))
    raise GroundTruthError(f"{run.path}: no sweep point has a grid archive (every point's "
                           f"/qd/measure_bins is 0: CVT or novelty only), so there is no "
                           f"reference grid; sweep qd.archive over grid too")


def exact_best(truth, grid, target_length):
    """Per reference cell: the best fitness -|length - target_length| of the reachable pairs it
    holds (NaN where none) and how many pairs it holds."""
    pairs = np.array(truth.pairs(), dtype=np.int64)
    measures = {"length": pairs[:, 0].astype(np.float64),
                "wall_density": pairs[:, 1].astype(np.float64) / WALLS}
    cells = grid.cell_of(measures)
    fitness = -np.abs(pairs[:, 0] - target_length).astype(np.float64) + 0.0  # 0, not -0
    best = np.full(grid.cells, -np.inf)
    np.maximum.at(best, cells, fitness)
    held = np.bincount(cells, minlength=grid.cells)
    return np.where(held > 0, best, np.nan), held


def compare(run, truth):
    """The Comparison of the QD run `run` (a loaded Result) against `truth`. GroundTruthError
    for a run that is not one of 4 x 4 tilt mazes, a recorded grid cell the binning rule does
    not reproduce, an elite outside the cells (or the pairs) some maze reaches, or one fitter
    than its cell's exact best."""
    path = run.path
    target_length = check_qd_run(run)
    grid = reference_grid(run)
    best, held = exact_best(truth, grid, target_length)
    reachable = held > 0

    archive = run.qd_archive
    elites = archive[["task", "point", "replicate", "cell", *(f"measure_{n}" for n in grid.names),
                      "fitness", "length", "walls"]].copy()
    elites["reference_cell"] = grid.cell_of(
        {name: elites[f"measure_{name}"].to_numpy() for name in grid.names})
    on_grid = elites.point == grid.point
    wrong = elites[on_grid & (elites.reference_cell != elites.cell)]
    if len(wrong):
        first = wrong.iloc[0]
        raise GroundTruthError(
            f"{path}: the binning rule puts {len(wrong)} elites of the grid point's tasks in "
            f"another cell than the one recorded (task {int(first.task)}: measures "
            + ", ".join(f"{n} {first[f'measure_{n}']:.6g}" for n in grid.names)
            + f" give cell {int(first.reference_cell)}, recorded {int(first.cell)}): the "
            f"mapping of the other archives onto the grid cannot be trusted")
    pair_set = set(truth.pairs())
    strange = [(int(length), int(walls)) not in pair_set
               for length, walls in zip(elites.length, elites.walls)]
    if any(strange):
        first = elites[strange].iloc[0]
        raise GroundTruthError(
            f"{path}: {sum(strange)} elites have a (length, walls) pair no 4 x 4 maze reaches "
            f"according to {truth.path} (task {int(first.task)}: length {int(first.length)}, "
            f"{int(first.walls)} walls): the ground truth or the run is wrong")
    elites["exact_best"] = best[elites.reference_cell.to_numpy()]

    tasks = run.tasks[run.tasks.status == 1]
    kinds = {int(p): qd_archive_kind(run, int(p)) for p in run.points.point}
    keys = varied_keys(run)
    points = run.points[["point"]].copy()
    points["archive"] = points.point.map(kinds)
    points["label"] = [point_label(run, p, keys) if keys else "all tasks" for p in points.point]
    points["suffix"] = [f"point{int(p)}_{kinds[int(p)]}" for p in points.point]

    # Per task and reference cell: the fittest elite placed there.
    per_cell = (elites.groupby(["task", "reference_cell"])
                .agg(best_fitness=("fitness", "max"), elites=("fitness", "size"))
                .reset_index().rename(columns={"reference_cell": "cell"}))
    per_cell = per_cell.merge(tasks[["task", "point", "replicate"]], on="task")
    per_cell["reachable"] = reachable[per_cell.cell.to_numpy()]
    per_cell["exact_best"] = best[per_cell.cell.to_numpy()]
    per_cell["gap"] = per_cell.exact_best - per_cell.best_fitness
    outside = per_cell[~per_cell.reachable]
    if len(outside):
        first = outside.iloc[0]
        raise GroundTruthError(
            f"{path}: {len(outside)} cells hold an elite though no 4 x 4 maze reaches them "
            f"according to {truth.path} (task {int(first.task)}, reference cell "
            f"{int(first.cell)}): the ground truth or the mapping is wrong")
    fitter = per_cell[per_cell.gap < 0]
    if len(fitter):
        first = fitter.iloc[0]
        raise GroundTruthError(
            f"{path}: {len(fitter)} cells hold an elite fitter than the exact best (task "
            f"{int(first.task)}, cell {int(first.cell)}: {first.best_fitness:g} > "
            f"{first.exact_best:g}): the ground truth or the fitness is wrong")

    summary = tasks[["task", "point", "replicate"]].copy().reset_index(drop=True)
    summary["archive"] = summary.point.map(kinds)
    summary["elites"] = summary.task.map(elites.groupby("task").size()).fillna(0).astype(np.int64)
    grouped = per_cell.groupby("task")
    summary["reachable"] = int(reachable.sum())
    summary["covered"] = summary.task.map(grouped.size()).fillna(0).astype(np.int64)
    summary["coverage_reachable"] = 100 * summary.covered / summary.reachable
    summary["coverage_all_cells"] = 100 * summary.covered / grid.cells
    summary["outside"] = 0
    summary["mean_gap"] = summary.task.map(grouped.gap.mean())
    summary["at_exact_best"] = summary.task.map(
        per_cell[per_cell.gap == 0].groupby("task").size()).fillna(0).astype(np.int64)
    summary["summed_gap"] = summary.task.map(grouped.gap.sum()).fillna(0.0)

    cells = pd.DataFrame({"cell": np.arange(grid.cells)})
    for name, along in grid.bins_of(cells.cell).items():
        cells[f"bin_{name}"] = along
    for name, low, high, bins in zip(grid.names, grid.low, grid.high, grid.bins):
        width = (high - low) / bins
        cells[f"{name}_low"] = low + width * cells[f"bin_{name}"]
        cells[f"{name}_high"] = low + width * (cells[f"bin_{name}"] + 1)
    cells["reachable"] = reachable.astype(np.int64)
    cells["pairs"] = held
    cells["exact_best"] = best
    for row in points.itertuples(index=False):
        at = per_cell[per_cell.point == row.point].groupby("cell")
        cells[f"gap_mean_{row.suffix}"] = cells.cell.map(at.gap.mean())
        cells[f"covering_{row.suffix}"] = cells.cell.map(at.size()).fillna(0).astype(np.int64)
    return Comparison(path, str(run.provenance["experiment"]), truth, grid, target_length,
                      int(run.provenance.get("replicates", 1)), points, summary, cells,
                      per_cell, elites)


# Tables

def point_table(comparison, point):
    """The rows of `point`'s tasks as printed: one per replicate, then their mean."""
    rows = comparison.tasks[comparison.tasks.point == point]
    shown = rows[["replicate", "task", "elites", "covered", "reachable", "coverage_reachable",
                  "coverage_all_cells", "outside", "mean_gap", "at_exact_best"]]
    mean = shown.drop(columns=["replicate", "task"]).mean()
    table = pd.concat([shown.astype(object),
                       pd.DataFrame([{"replicate": "mean", "task": "", **mean.to_dict()}])],
                      ignore_index=True)
    return table.rename(columns={"coverage_reachable": "reachable_cov_%",
                                 "coverage_all_cells": "all_cells_cov_%"})


def number_text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (float, np.floating)):
        return "-" if np.isnan(value) else f"{value:.2f}"
    return str(value)


def header_lines(comparison):
    """What was compared, the reference grid and what the gap is."""
    grid = comparison.grid
    reachable = int(comparison.cells.reachable.sum())
    return [
        f"{comparison.experiment} ({comparison.qd_path}) against every 4 x 4 maze "
        f"({comparison.truth.path})",
        f"reference grid (point {grid.point}'s): {grid.describe()}: {grid.cells} cells, "
        f"{reachable} reachable by some maze, {grid.cells - reachable} by none",
        f"gap: a covered cell's exact best fitness -|length - {comparison.target_length}| minus "
        f"the best fitness of the task's elites placed there, in fitness units (tilts); CVT "
        f"and novelty elites re-binned onto the grid",
    ]


def text(comparison):
    """The printed comparison: what was compared, then a table per sweep point."""
    lines = header_lines(comparison)
    for row in comparison.points.itertuples(index=False):
        table = point_table(comparison, row.point)
        replicates = int((table.replicate != "mean").sum())
        lines += ["", f"point {int(row.point)}: {row.label} ({row.archive} archive), "
                      f"{replicates} replicates"]
        if replicates:
            lines.append(table.applymap(number_text).to_string(index=False))
    return "\n".join(lines)


# The figure

def panel_title(point):
    """`grid archive (point 0)`, with the point's swept values where they say more."""
    said = point.label in ("all tasks", f"archive={point.archive}")
    return f"{point.archive} archive (point {int(point.point)}" + ("" if said else f", {point.label}") + ")"


def figure(report, comparison):
    """ground_truth.png: one panel per sweep point, the reference grid with unreachable cells
    hatched grey, covered cells colored by the gap (mean over the replicates that cover them)
    and reachable cells no replicate covers crossed."""
    from matplotlib.patches import Rectangle
    grid = comparison.grid
    x_name, y_name = grid.names[0], grid.names[1]
    x_low, y_low = grid.low
    x_high, y_high = grid.high
    x_bins, y_bins = grid.bins
    x_width, y_width = (x_high - x_low) / x_bins, (y_high - y_low) / y_bins
    points = comparison.points
    cells = comparison.cells
    per_cell = comparison.per_cell
    stats = per_cell.groupby(["point", "cell"]).gap.agg(["mean", "min", "max", "size"])
    top = max(1.0, float(stats["mean"].max()) if len(stats) else 1.0)
    norm = matplotlib.colors.Normalize(0, top)
    cmap = plt.get_cmap("viridis")
    columns = min(3, len(points))
    lines = int(math.ceil(len(points) / columns))
    fig, axes = plt.subplots(lines, columns, figsize=(4.6 * columns + 1.2, 4.4 * lines),
                             squeeze=False, layout="constrained")
    annotate = grid.cells <= 100
    data = []
    for ax, row in zip(axes.flat, points.itertuples(index=False)):
        replicates = int((comparison.tasks.point == row.point).sum())
        for cell in cells.itertuples(index=False):
            bx, by = getattr(cell, f"bin_{x_name}"), getattr(cell, f"bin_{y_name}")
            left, bottom = x_low + bx * x_width, y_low + by * y_width
            key = (row.point, cell.cell)
            entry = {"point": int(row.point), "archive": row.archive, "cell": int(cell.cell),
                     f"bin_{x_name}": int(bx), f"bin_{y_name}": int(by),
                     "reachable": int(cell.reachable), "exact_best": cell.exact_best,
                     "replicates": replicates, "covering": 0, "gap_mean": np.nan,
                     "gap_min": np.nan, "gap_max": np.nan}
            if not cell.reachable:
                ax.add_patch(Rectangle(
                    (left, bottom), x_width, y_width, facecolor="#d0d0d0", edgecolor="#888888",
                    hatch="///", linewidth=0.5))
                entry["shown"] = "unreachable"
            elif key in stats.index:
                found = stats.loc[key]
                color = cmap(norm(found["mean"]))
                ax.add_patch(Rectangle(
                    (left, bottom), x_width, y_width, facecolor=color, edgecolor="white",
                    linewidth=0.5))
                entry.update(covering=int(found["size"]), gap_mean=float(found["mean"]),
                             gap_min=float(found["min"]), gap_max=float(found["max"]),
                             shown="covered")
                if annotate:
                    light = sum(color[:3]) / 3 > 0.5
                    ax.text(left + x_width / 2, bottom + y_width / 2,
                            f"{found['mean']:.2g}\n{int(found['size'])}/{replicates}",
                            ha="center", va="center", fontsize=6.5,
                            color="black" if light else "white")
            else:
                ax.add_patch(Rectangle(
                    (left, bottom), x_width, y_width, facecolor="white", edgecolor="#bbbbbb",
                    linewidth=0.5))
                ax.plot(left + x_width / 2, bottom + y_width / 2, marker="x", color="crimson",
                        markersize=7, linestyle="none")
                entry["shown"] = "uncovered"
            data.append(entry)
        ax.set_xlim(x_low, x_high)
        ax.set_ylim(y_low, y_high)
        ax.set_xticks(x_low + x_width * np.arange(x_bins + 1))
        ax.set_yticks(y_low + y_width * np.arange(y_bins + 1))
        ax.tick_params(labelsize="small")
        ax.set_xlabel(f"{x_name} ({value_text(x_low)} to {value_text(x_high)}, {x_bins} bins)")
        ax.set_ylabel(f"{y_name} ({value_text(y_low)} to {value_text(y_high)}, {y_bins} bins)")
        tasks = comparison.tasks[comparison.tasks.point == row.point]
        over = "" if replicates == 1 else f"means of {replicates} replicates: "
        ax.set_title(f"{panel_title(row)}\n{over}{tasks.covered.mean():.3g} of "
                     f"{int(cells.reachable.sum())} reachable cells covered,\nmean gap "
                     f"{tasks.mean_gap.mean():.2g}", fontsize="small")
    for ax in axes.flat[len(points):]:
        ax.set_visible(False)
    fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), ax=axes, shrink=0.85,
                 label="gap (fitness units = tilts), mean over replicates")
    reachable = int(cells.reachable.sum())
    kinds = set(points.archive)
    rebinned = (" CVT and novelty elites are re-binned onto this grid by the same rule (their "
                "own cells are not these squares); where several elites of a task fall in one "
                "square, the fittest counts." if kinds - {"grid"} else "")
    caption = (
        f"Each panel is the reference grid, that of the grid point (point {grid.point}): "
        f"{grid.describe()}. Every elite of each replicate is placed on it by its recorded "
        f"measures with the runner's binning rule.{rebinned} Grey, hatched: the "
        f"{grid.cells - reachable} cells no 4 x 4 maze (start in the corner, one target on a "
        f"resting cell) reaches, by the exhaustive run over all 2^24 wall configurations. "
        f"Colour and upper number: the gap, the cell's exact best fitness (the highest "
        f"-|length - {comparison.target_length}| over the lengths and wall counts some maze "
        f"reaches in it) minus the fitness of the best elite there, in fitness units, which are "
        f"tilts; 0: the exact best was found. The mean over the replicates that cover the "
        f"cell, whose count is the lower number (k of N). Red cross: a reachable cell no "
        f"replicate covers.")
    report.save(fig, "ground_truth.png", "Against every 4 x 4 maze", caption,
                data=pd.DataFrame(data))


# Output

def write(comparison, directory, run=None):
    """The CSV files and the figure of `comparison` into `directory` (created if need be)."""
    output_folder(directory, "the output folder")
    tables = {"ground_truth_tasks.csv": comparison.tasks,
              "ground_truth_cells.csv": comparison.cells,
              "ground_truth_walls.csv": comparison.truth.walls_table()}
    written = []
    for name, frame in tables.items():
        path = os.path.join(directory, name)
        write_whole(path, lambda temporary, frame=frame: frame.to_csv(temporary, index=False))
        written.append(path)
    report = Report(run, directory)
    figure(report, comparison)
    written += [os.path.join(directory, name) for name, *_ in report.figures]
    return written


def report_section(report, comparison):
    """For analysis.report --ground-truth: the figure saved into `report`, and the HTML of the
    per-point tables."""
    import html
    figure(report, comparison)
    parts = ["<h2>Ground truth: every 4 x 4 maze</h2>",
             *(f"<p>{html.escape(line)}</p>" for line in header_lines(comparison))]
    for row in comparison.points.itertuples(index=False):
        table = point_table(comparison, row.point)
        rows = "".join("<tr>" + "".join(f"<td>{html.escape(number_text(v))}</td>" for v in values)
                       + "</tr>" for values in table.itertuples(index=False))
        head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
        parts.append(f"<h3>point {int(row.point)}: {html.escape(row.label)} ({row.archive} "
                     f"archive)</h3><table><tr>{head}</tr>{rows}</table>")
    return "".join(parts)


def run_comparison(qd_path, exhaustive_path):
    """(the loaded QD run, its Comparison): the exhaustive file read and checked first. The
    caller closes the run."""
    truth = read_truth(exhaustive_path)
    run = load(qd_path)
    try:
        return run, compare(run, truth)
    except BaseException:
        run.close()
        raise


def main(argv=None):
    import matplotlib as backend
    backend.use("Agg")
    parser = argparse.ArgumentParser(prog="python3 -m analysis.kernels.tiltmaze_ground_truth",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("qd", help="a qd result file of 4 x 4 tilt mazes (configs/tiltmaze_4x4_qd.yaml)")
    parser.add_argument("exhaustive", help="the exhaustive result file of every 4 x 4 maze "
                                           "(configs/tiltmaze_4x4_exhaustive.yaml)")
    parser.add_argument("--out", metavar="DIR",
                        help="folder for the CSV files and the figure (default: QD's path "
                             "without .h5, then -ground-truth)")
    args = parser.parse_args(argv)
    out = args.out or re.sub(r"\.h5$", "", args.qd) + "-ground-truth"
    try:
        run, comparison = run_comparison(args.qd, args.exhaustive)
        with run:
            print(text(comparison))
            written = write(comparison, out, run)
    except (LoadError, GroundTruthError, OutputError) as error:
        print(f"analysis.kernels.tiltmaze_ground_truth: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # WriteError: a full disk, an I/O error
        message = str(error) if isinstance(error, WriteError) else (error.strerror or str(error))
        print(f"analysis.kernels.tiltmaze_ground_truth: error: {message}", file=sys.stderr)
        return 1
    print()
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
