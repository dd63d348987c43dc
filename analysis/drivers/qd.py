"""The qd driver (runner/drivers/qd): its tables (`run.qd`, and `run.qd_history`,
`run.qd_archive`, ... as docs/analysis.md lists them), its results table, its figures
(qd_archive.png, qd_progress.png; qd_levels for the kernels' modules) and its part of the
netCDF export."""

import itertools

import numpy as np
import pandas as pd

from ..figures import matplotlib, plt, point_label, value_text, varied_keys
from ..loader import DriverTables, _attribute, _frame, _genomes, register_driver

TABLES = ("qd_history", "qd_archive", "qd_measures")
SOMETIMES = ()
RESULT_TABLE = "qd_history"
RESULTS_WHAT = "the final archive's numbers"
UNIT = "task"


def checkpoint_groups(manifest):
    """{group: attributes} of the result file that a checkpoint's manifest holds: /qd's
    measure names, which qd_measures reads."""
    if "measure_names" not in manifest:
        return {}
    names = bytes(manifest["measure_names"]).split(b"\0")[:-1]
    return {"qd": {"measures": [name.decode() for name in names]}}


@register_driver("qd", (*TABLES, "qd_levels", "qd_centroids"))
class QdTables(DriverTables):
    """A QD run's tables: qd_history, qd_archive, qd_measures, qd_levels, qd_centroids."""

    @property
    def qd_history(self):
        def build():
            return self._task_rows("qd/history", "iteration", {
                "iteration": "int64", "evaluations": "int64", "occupied": "int64",
                "coverage": "float64", "qd_score": "float64", "best": "float64",
                "inserted": "int64"})
        return self._cached("qd_history", build)

    @property
    def qd_measures(self):
        def build():
            names = _attribute(self._file["qd"].attrs["measures"])
            names = [names] if isinstance(names, str) else names
            low, high, bins = (self._file[f"qd/measure_{part}"][()] for part in ("low", "high", "bins"))
            points = np.arange(low.shape[0])
            # /qd/cells came with CVT archives; before, every archive was its grid of bins.
            cells = self._file["qd/cells"][()] if "qd/cells" in self._file else bins.prod(axis=1)
            return pd.DataFrame({
                "point": np.repeat(points, len(names)), "measure": np.tile(names, len(points)),
                "low": low.reshape(-1), "high": high.reshape(-1),
                "bins": bins.reshape(-1).astype(np.int64),
                "cells": np.repeat(cells.astype(np.int64), len(names))})
        return self._cached("qd_measures", build)

    @property
    def qd_archive(self):
        def build():
            archive = self._file["qd/archive"][()]
            tasks, cells = archive.shape
            frame = _frame(archive.reshape(-1))
            frame.insert(0, "task", np.repeat(np.arange(tasks), cells))
            if "qd/validation" in self._file:
                validation = _frame(self._file["qd/validation"][()].reshape(-1))
                frame = pd.concat([frame, validation], axis=1)
            genomes = self._file["qd/archive_genomes"][()].reshape(tasks * cells, -1)
            occupied = (frame["cell"].to_numpy() >= 0) & (frame["occupied"].to_numpy() == 1)
            frame = frame[occupied].reset_index(drop=True)
            frame["genome"] = _genomes(genomes[occupied], self._genome_lengths("qd", frame["task"]))
            kept = self._done(frame).drop(columns="occupied")
            # The cell's bin along each measure: the cell is row-major over the point's bins.
            measures = self.qd_measures
            names = list(measures.measure[measures.point == 0])
            point = self.tasks.set_index("task").point.reindex(kept.task).to_numpy()
            bins = measures.bins.to_numpy().reshape(-1, len(names))[point.astype(np.int64)] \
                if len(kept) else np.zeros((0, len(names)), dtype=np.int64)
            # A point of CVT cells has bins 0: no bins (-1), its cell's centroid instead.
            grid = bins > 0
            remaining = kept.cell.to_numpy()
            index = {}
            for m in reversed(range(len(names))):
                along = np.where(grid[:, m], bins[:, m], 1)
                index[names[m]] = np.where(grid[:, m], remaining % along, -1)
                remaining = remaining // along
            for m, name in enumerate(names):
                kept.insert(2 + m, f"bin_{name}", index[name].astype(np.int64))
            if "qd/centroids" in self._file:
                centroids = self._file["qd/centroids"][()]
                at = centroids[point.astype(np.int64), kept.cell.to_numpy()] if len(kept) \
                    else np.zeros((0, len(names)))
                for m, name in enumerate(names):
                    kept.insert(2 + len(names) + m, f"centroid_{name}", at[:, m])
            # As `best`: the task's point, replicate and swept values after `task`; then the
            # cell, its bins, the measures, fitness, the kernel's fields and validation, genome.
            joined = self.with_params(kept)
            added = [c for c in joined.columns if c not in kept.columns]
            centroid = [f"centroid_{n}" for n in names if f"centroid_{n}" in kept.columns]
            placed = ["cell", *(f"bin_{n}" for n in names), *centroid,
                      *(f"measure_{n}" for n in names)]
            rest = [c for c in kept.columns if c not in ("task", "genome", *placed)]
            return joined[["task", *added, *placed, *rest, "genome"]]
        return self._cached("qd_archive", build)

    @property
    def qd_centroids(self):
        """/qd/centroids (point x cell x measure): the CVT archives' centroids, NaN for a grid
        and as padding; None when no point has CVT cells."""
        return self._file["qd/centroids"][()] if "qd/centroids" in self._file else None

    @property
    def qd_levels(self):
        return self._file["qd/archive_levels"][()] if "qd/archive_levels" in self._file else None


def task_results(run):
    """(frame, fields): each task's final archive: its occupied cells, coverage, QD score,
    best fitness and evaluations."""
    return qd_final(run), ["occupied", "coverage", "qd_score", "best", "evaluations"]


def sampled_records(run):
    return None


def figures(report, kernel_module):
    """The figures of every QD run: qd_archive.png and qd_progress.png."""
    qd_archive_map(report)
    qd_progress(report)


def variables(run, joined):
    """The per-task variables of the netCDF export (analysis/export.py)."""
    from ..export import _genes, _levels, _variables
    archive = run.qd_archive
    cells = np.arange(run.qd_measures.cells.max())
    parts = [_variables(run.qd_history, ["task", "iteration"], "qd_history_", joined),
             _variables(archive, ["task", "cell"], "archive_", joined).reindex(cell=cells),
             _genes(archive, ["task", "cell"], "archive_genome").reindex(cell=cells)]
    if run.qd_levels is not None:
        parts.append(_levels(run, run.qd_levels, "cell", "archive_levels"))
    return parts


def point_variables(run, by_sweep):
    """The netCDF export's per-point variables: each measure's range and bins, laid out over
    the sweep by `by_sweep`."""
    measures = run.qd_measures.set_index(["point", "measure"])
    return [by_sweep(measures.rename(columns=lambda c: f"measure_{c}").to_xarray())]


def run_variables(run):
    return []


# Figures


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
    kind = qd_archive_kind(run, point)
    if kind != "grid":
        # CVT cells or novelty entries: squares of a grid of about as many squares as cells,
        # by each elite's centroid (CVT) or its measures (novelty).
        per = max(1, int(round(float(measures.cells.iloc[0]) ** (1 / len(names)))))
        axes = [(name, float(measures.low[name]), float(measures.high[name]), per)
                for name in names[:2]]
        archive = archive.copy()
        at = "centroid" if kind == "cvt" else "measure"
        for name, low, high, bins in axes:
            square = np.floor((archive[f"{at}_{name}"] - low) / (high - low) * bins)
            archive[f"bin_{name}"] = np.clip(square, 0, bins - 1).astype(np.int64)
    else:
        axes = [(name, float(measures.low[name]), float(measures.high[name]),
                 int(measures.bins[name])) for name in names[:2]]
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


def qd_archive_kind(run, point):
    """The archive of `point`: "grid" (its measures have bins), "cvt" (it has centroids) or
    "novelty" (neither)."""
    measures = run.qd_measures
    if (measures.bins[measures.point == point] > 0).all():
        return "grid"
    centroids = run.qd_centroids
    if centroids is not None and not np.isnan(centroids[point]).all():
        return "cvt"
    return "novelty"


def qd_axis_label(axis, cvt=False):
    name, low, high, bins = axis
    return f"{name} ({value_text(low)} to {value_text(high)}" + (")" if cvt else f", {bins} bins)")


def qd_voronoi(run, task, x, y, pixels=300):
    """The fitness of each pixel's cell of a CVT archive over the measures x and y (NaN where
    the cell is empty): a pixel takes the centroid nearest it with each range scaled to
    [0, 1], as the runner assigns a genome its cell. With more than two measures, the
    centroids are seen along x and y alone."""
    point = int(run.tasks.point[run.tasks.task == task].iloc[0])
    centroids = run.qd_centroids[point]
    centroids = centroids[~np.isnan(centroids).any(axis=1)]
    names = qd_names(run)
    elites = run.qd_archive[run.qd_archive.task == task]
    fitness = np.full(len(centroids), np.nan)
    fitness[elites.cell.to_numpy()] = elites.fitness.to_numpy()
    shown = [names.index(x[0])] + ([names.index(y[0])] if y else [])
    ends = [(x[1], x[2])] + ([(y[1], y[2])] if y else [])
    unit = np.stack([(centroids[:, m] - low) / (high - low) for m, (low, high) in zip(shown, ends)],
                    axis=1)
    steps = (np.arange(pixels) + 0.5) / pixels
    grid = np.stack(np.meshgrid(steps, steps if y else [0.5]), axis=-1).reshape(-1, len(shown))
    nearest = np.empty(len(grid), dtype=np.int64)
    for start in range(0, len(grid), 4096):
        block = grid[start:start + 4096]
        nearest[start:start + 4096] = ((block[:, None, :] - unit[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    return fitness[nearest].reshape(pixels if y else 1, pixels)


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
        kind = qd_archive_kind(run, final.point)
        cvt = kind != "grid"
        if kind != "grid":
            # Every elite is a cell of its own: the data has them all, not squares.
            rows = run.qd_archive[run.qd_archive.task == final.task].assign(elites=1)
        if kind == "cvt":
            grid = qd_voronoi(run, int(final.task), x, y)
        elif kind == "novelty":
            grid = np.full((1, 1), np.nan)
            ax.scatter(rows[f"measure_{name}"], rows[f"measure_{y[0]}"] if y else np.zeros(len(rows)),
                       c=rows.fitness, cmap=cmap, norm=norm, s=4, linewidths=0)
        else:
            grid = np.full((y_bins, bins), np.nan)
            grid[rows[f"bin_{y[0]}"] if y else 0, rows[f"bin_{name}"]] = rows.fitness
        image = ax.imshow(grid, origin="lower", extent=(low, high, y_low, y_high), aspect="auto",
                          cmap=cmap, norm=norm, interpolation="nearest")
        ax.set_xlabel(qd_axis_label(x, cvt))
        if y:
            ax.set_ylabel(qd_axis_label(y, cvt))
        else:
            ax.set_yticks([])
        label = f"{point_label(run, final.point, keys)}\n" if keys else ""
        # A novelty archive's "coverage" is the share of its room it filled, not of a space.
        filled = (f"{int(final.occupied)} entries" if kind == "novelty"
                  else f"coverage {100 * final.coverage:.0f}%")
        ax.set_title(f"{label}task {final.task} (replicate {final.replicate}): {filled}, "
                     f"QD score {final.qd_score:.4g}", fontsize="small")
        rows = rows.assign(coverage=final.coverage, qd_score=final.qd_score)
        drawn.append(rows)
    for ax in axes.flat[len(grids):]:
        ax.set_visible(False)
    fig.colorbar(image, ax=axes, label="fitness of the elite", shrink=0.9)
    squares = [f"bin_{name}" for name in names[:2]]
    edges = [f"{name}_{end}" for name in names[:2] for end in ("low", "high")]
    data = pd.concat(drawn, ignore_index=True)
    centroids = [f"centroid_{name}" for name in names if f"centroid_{name}" in data.columns]
    data = data.reindex(columns=["task", "point", "replicate", *run.swept_keys, *squares, *edges,
                                 "cell", *centroids, *(f"measure_{name}" for name in names),
                                 "fitness", "elites", "coverage", "qd_score"])
    over = (f" Over more than two measures a square shows the fittest of the elites whose "
            f"{names[0]} and {names[1]} fall in it (elites in the data)." if len(names) > 2 else
            " The colored area is the coverage.")
    which = "" if points == len(shown) else f" The first {len(shown)} of {points} points."
    kinds = {qd_archive_kind(run, point) for point in shown.point}
    if "cvt" in kinds:
        over += (" A CVT archive (qd.archive: cvt) is drawn as its Voronoi cells: each pixel "
                 "takes the cell of the centroid nearest it, each measure's range scaled to "
                 "[0, 1] as the runner does; its data rows are its elites, with their centroids.")
    if "novelty" in kinds:
        over += (" A novelty archive (qd.archive: novelty) is drawn as a dot per entry at its "
                 "measures; its data rows are its entries.")
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
