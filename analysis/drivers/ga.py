"""The ga driver (runner/drivers/ga): its tables (`run.ga`, and `run.history`, `run.best`,
... as docs/analysis.md lists them), its results table, its figures (fitness.png,
ga_islands.png, and for a kernel with objectives ga_hypervolume.png and ga_pareto_front.png)
and its part of the netCDF export."""

import numpy as np
import pandas as pd

from ..figures import (by_keys, key_scale, line_panels, matplotlib, panels_and_lines, plt,
                       point_label, value_text, varied_keys)
from ..loader import DriverTables, _attribute, _frame, _genomes, register_driver

TABLES = ("history", "best")
# A GA's tables that only a run with islands has rows in (any point's ga.islands > 1).
SOMETIMES = ("island_history", "island_best", "migrations")
# A GA's tables that only a run of a kernel with objectives has (/ga/pareto_history, written
# for every GA run of such a kernel, NSGA-II or not); None for any other run.
OPTIONAL = ("pareto_history", "fronts", "objective_reference")
RESULT_TABLE = "best"
RESULTS_WHAT = "the final best individual's fitness and fields"
UNIT = "task"


@register_driver("ga", (*TABLES, *SOMETIMES, *OPTIONAL, "levels"))
class GaTables(DriverTables):
    """A GA run's tables: history, best, levels, island_history, island_best, migrations;
    for a kernel with objectives pareto_history, fronts and objective_reference."""

    @property
    def history(self):
        def build():
            rows = self._file["ga/history"][()]
            tasks = np.repeat(np.arange(rows.shape[0]), rows.shape[1])
            frame = _frame(rows.reshape(-1))
            frame.insert(0, "task", tasks)
            return self.with_params(self._done(frame[frame["generation"] >= 0]))
        return self._cached("history", build)

    @property
    def best(self):
        def build():
            best = self._file["ga/best"][()]
            tasks, kept = best.shape
            frame = _frame(best.reshape(-1))
            frame.insert(0, "task", np.repeat(np.arange(tasks), kept))
            if "ga/validation" in self._file:
                validation = _frame(self._file["ga/validation"][()].reshape(-1))
                frame = pd.concat([frame, validation], axis=1)
            genomes = self._file["ga/best_genomes"][()].reshape(tasks * kept, -1)
            frame["genome"] = _genomes(genomes, self._genome_lengths("ga", frame["task"]))
            kept = self._done(frame[frame["position"] >= 0])
            # The task's point, replicate and swept values after `task`; the genome last.
            joined = self.with_params(kept)
            added = [c for c in joined.columns if c not in kept.columns]
            rest = [c for c in kept.columns if c not in ("task", "genome")]
            return joined[["task", *added, *rest, "genome"]]
        return self._cached("best", build)

    @property
    def island_history(self):
        def build():
            return self._task_rows("ga/island_history", "generation", {
                "generation": "int64", "island": "int64", "best": "float64", "mean": "float64",
                "std": "float64", "min": "float64", "diversity": "float64",
                "distance_to_others": "float64"})
        return self._cached("island_history", build)

    @property
    def migrations(self):
        def build():
            return self._task_rows("ga/migrations", "generation", {
                "generation": "int64", "from": "int64", "to": "int64", "source": "int64",
                "target": "int64", "fitness": "float64"})
        return self._cached("migrations", build)

    @property
    def island_best(self):
        def build():
            if "ga/island_best" not in self._file:
                empty = self._task_rows("ga/island_best", "island", {"island": "int64", "fitness": "float64"})
                columns = ["task", "point", "replicate", *self.swept_keys, "island", "fitness"]
                return empty[columns].assign(genome=pd.Series(dtype=object))
            best = self._file["ga/island_best"][()]
            tasks, islands = best.shape
            frame = _frame(best.reshape(-1))
            frame.insert(0, "task", np.repeat(np.arange(tasks), islands))
            genomes = self._file["ga/island_best_genomes"][()].reshape(tasks * islands, -1)
            frame["genome"] = _genomes(genomes, self._genome_lengths("ga", frame["task"]))
            kept = self._done(frame[frame["island"] >= 0])
            # As `best`: the task's point, replicate and swept values after `task`, genome last.
            joined = self.with_params(kept)
            added = [c for c in joined.columns if c not in kept.columns]
            rest = [c for c in kept.columns if c not in ("task", "genome")]
            return joined[["task", *added, *rest, "genome"]]
        return self._cached("island_best", build)

    @property
    def levels(self):
        return self._file["ga/best_levels"][()] if "ga/best_levels" in self._file else None

    @property
    def objective_names(self):
        """The kernel's objectives, in the file's order (the `ga` group's `objectives`: "fitness"
        or an evaluation field's name); None for a run without objectives. A run in progress,
        whose checkpoint keeps no names, has `objective_0`, `objective_1`, ..."""
        if "ga/pareto_history" not in self._file:
            return None
        group = self._file["ga"] if "ga" in self._file else None
        if group is not None and "objectives" in group.attrs:
            names = _attribute(group.attrs["objectives"])
            return [names] if isinstance(names, str) else list(names)
        count = self._file["ga/fronts"].shape[-1]
        return [f"objective_{m}" for m in range(count)]

    @property
    def pareto_history(self):
        """One row per task and generation run (/ga/pareto_history, padding dropped): task,
        generation, evaluations (made up to it), front_size, hypervolume, then the task's
        point, replicate and swept values; None for a run without objectives."""
        if "ga/pareto_history" not in self._file:
            return None
        return self._cached("pareto_history", lambda: self._task_rows("ga/pareto_history", "generation", {
            "generation": "int64", "evaluations": "int64", "front_size": "int64",
            "hypervolume": "float64"}))

    @property
    def fronts(self):
        """One row per member of each generation's Pareto front (/ga/fronts): task, the task's
        point, replicate and swept values, generation, member (its index in the front, in
        population order), then one column per objective (objective_names), its value as the
        kernel records it; the padding after a front's last member (front_size of
        pareto_history) dropped. None for a run without objectives."""
        if "ga/pareto_history" not in self._file:
            return None

        def build():
            names = self.objective_names
            fronts = self._file["ga/fronts"][()]
            size = self._file["ga/pareto_history"]["front_size"]
            # front_size is -1 for a generation the task did not run: no members.
            inside = np.arange(fronts.shape[2])[None, None, :] < size[:, :, None]
            task, generation, index = np.nonzero(inside)
            frame = pd.DataFrame({"task": task.astype(np.int64), "generation": generation.astype(np.int64),
                                  "member": index.astype(np.int64)})
            values = fronts[inside]
            for m, name in enumerate(names):
                frame[name] = values[:, m]
            kept = self._done(frame)
            joined = self.with_params(kept)
            added = [c for c in joined.columns if c not in kept.columns]
            return joined[["task", *added, "generation", "member", *names]]
        return self._cached("fronts", build)

    @property
    def objective_reference(self):
        """One row per sweep point and objective, in the kernel's order: point, objective (its
        name), minimize (1 where smaller is better), reference (the hypervolume's reference
        point's coordinate, /ga/objective_reference); None for a run without objectives or
        without the reference (a run in progress)."""
        if "ga/objective_reference" not in self._file:
            return None

        def build():
            names = self.objective_names
            reference = self._file["ga/objective_reference"][()]
            minimize = _attribute(self._file["ga"].attrs["minimize"])
            minimize = [minimize] if not isinstance(minimize, list) else minimize
            points = np.arange(reference.shape[0])
            return pd.DataFrame({
                "point": np.repeat(points, len(names)), "objective": np.tile(names, len(points)),
                "minimize": np.tile(np.asarray(minimize, dtype=np.int64), len(points)),
                "reference": reference.reshape(-1)})
        return self._cached("objective_reference", build)


def task_results(run):
    """(frame, fields): each task's best individual, with its point and swept values, and its
    fitness, fields and validated fields."""
    frame = run.with_params(run.best[run.best.position == 0])
    return frame, [c for c in frame.columns
                   if c not in ("task", "position", "point", "replicate", *run.swept_keys)]


def sampled_records(run):
    """(each task's final best individual, what its fields are) for the sampled figures."""
    return (run.with_params(run.best[run.best.position == 0]).drop(columns=["position", "genome"]),
            "field of the final best individual")


def figures(report, kernel_module):
    """The figures of every GA run: fitness.png, ga_islands.png for a run with islands, and
    ga_hypervolume.png and ga_pareto_front.png for a run of a kernel with objectives."""
    fitness_curves(report)
    island_curves(report)
    hypervolume_curves(report)
    pareto_fronts(report)


def variables(run, joined):
    """The per-task variables of the netCDF export (analysis/export.py)."""
    from ..export import _genes, _levels, _variables
    parts = [_variables(run.history, ["task", "generation"], "history_", joined),
             _variables(run.best, ["task", "position"], "best_", joined),
             _genes(run.best, ["task", "position"], "best_genome")]
    if not run.island_history.empty:
        migrations = run.migrations.assign(migrant=run.migrations.groupby("task").cumcount())
        parts += [_variables(run.island_history, ["task", "generation", "island"],
                             "island_history_", joined),
                  _variables(run.island_best, ["task", "island"], "island_best_", joined),
                  _genes(run.island_best, ["task", "island"], "island_best_genome"),
                  _variables(migrations, ["task", "migrant"], "migration_", joined)]
    if run.pareto_history is not None:
        parts += [_variables(run.pareto_history, ["task", "generation"], "pareto_", joined),
                  _variables(run.fronts, ["task", "generation", "member"], "front_", joined)]
    if run.levels is not None:
        parts.append(_levels(run, run.levels, "position", "best_levels"))
    return parts


def point_variables(run, by_sweep):
    """The netCDF export's per-point variables: a run with objectives, each objective's
    `objective_minimize` and `objective_reference` (the hypervolume's reference point)."""
    reference = run.objective_reference
    if reference is None:
        return []
    frame = reference.set_index(["point", "objective"]).rename(columns=lambda c: f"objective_{c}")
    return [by_sweep(frame.to_xarray())]


def run_variables(run):
    return []


# Figures


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
                       "Fitness over generations",
                       fitness_caption(noisy, validated, summary) + objectives_selection(run),
                       data=stats)


def objectives_selection(run):
    """For fitness.png's caption: where NSGA-II bred (ga.breeding: nsga2), it selected by the
    kernel's objectives, not by the fitness drawn; '' for a run without it."""
    names = run.ga.objective_names
    breeding = (set(run.points["ga.breeding"]) if "ga.breeding" in run.points.columns
                else {run.setting("ga.breeding")})
    if names is None or "nsga2" not in breeding:
        return ""
    where = "" if breeding == {"nsga2"} else " at the points with ga.breeding nsga2"
    return (f" NSGA-II (ga.breeding: nsga2{where}) selects by the objectives ({', '.join(names)}), "
            "not by this fitness: ga_hypervolume.png and ga_pareto_front.png show what it optimizes.")


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
                + ("drops out of the median." if noisy else "keeps its last value.")
                + objectives_selection(run), data=stats)


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
                "another island (how far the islands drifted apart). One line per island, colored "
                "by its index (dark: island 0; a point with one island, black). Both are taken "
                "before migration; dotted lines mark the generations after which migrants left "
                "their island (every ga.migration.every generations).", data=data)


def objective_label(name, minimize):
    """`f1 (minimized)`: an objective's axis label, saying which way is better."""
    return f"{name} ({'minimized' if minimize else 'maximized'})"


def reference_text(reference, names):
    """`(f1, f2) = (1.1, 1.1)`: the hypervolume's reference point of every point, or None
    where the points' reference points differ."""
    per_point = reference.pivot(index="point", columns="objective", values="reference")[names]
    if len(per_point.drop_duplicates()) != 1:
        return None
    values = per_point.iloc[0]
    return f"({', '.join(names)}) = ({', '.join(value_text(float(v)) for v in values)})"


def objectives_note(names, what):
    """For a run of more than two objectives: which two `what` shows, and what that hides."""
    if len(names) <= 2:
        return ""
    return (f" The kernel has {len(names)} objectives ({', '.join(names)}); {what} the first "
            f"two, {names[0]} and {names[1]}: a member that looks dominated there can be better "
            f"in {', '.join(names[2:])}.")


def hypervolume_curves(report, max_points=10):
    """A run of a kernel with objectives: each generation's hypervolume against the
    evaluations made, one line per sweep point (the first `max_points`), the mean over its
    replicates with the band between the lowest and the highest, as qd_progress.png draws
    the QD score. The numbers: one row per point and generation."""
    run = report.run
    history = run.pareto_history
    reference = run.objective_reference
    if history is None or history.empty or reference is None:
        return
    names = run.ga.objective_names
    points = sorted(set(history.point))
    shown = points[:max_points]
    history = history[history.point.isin(shown)]
    stats = history.groupby(["point", "generation"]).agg(
        evaluations=("evaluations", "mean"), replicates=("task", "count"),
        hypervolume_mean=("hypervolume", "mean"), hypervolume_min=("hypervolume", "min"),
        hypervolume_max=("hypervolume", "max"), front_size_mean=("front_size", "mean")).reset_index()
    corner = reference.pivot(index="point", columns="objective", values="reference")[names]
    corner = corner.rename(columns=lambda name: f"reference_{name}").reset_index()
    stats = run.points.merge(stats, on="point").merge(corner, on="point", how="left")
    replicates = stats.groupby("point").replicates.max()
    keys = varied_keys(run)
    fig, ax = plt.subplots(figsize=(8, 4.6))
    for k, (point, rows) in enumerate(stats.groupby("point")):
        color = f"C{k % 10}"
        label = point_label(run, point, keys) if keys else "all tasks"
        if replicates.nunique() > 1:
            label += f" (n={int(replicates[point])})"
        ax.plot(rows.evaluations, rows.hypervolume_mean, color=color, label=label,
                marker="o" if len(rows) == 1 else None)
        ax.fill_between(rows.evaluations, rows.hypervolume_min, rows.hypervolume_max, color=color,
                        alpha=0.2, linewidth=0)
    if replicates.max() == 1:
        summary = "one replicate per point"
    elif replicates.min() == replicates.max():
        summary = f"mean of {replicates.max()} replicates, band: lowest to highest"
    else:
        summary = "mean of n replicates (legend), band: lowest to highest"
    corner_text = reference_text(reference, names)
    report.save_plot(fig, ax, ("evaluations", f"hypervolume (units of {' × '.join(names)})\n({summary})"),
                     "ga_hypervolume.png", "Hypervolume against evaluations",
                     hypervolume_caption(names, corner_text, points, shown), data=stats)


def hypervolume_caption(names, corner_text, points, shown):
    where = (f"the reference point {corner_text}" if corner_text else
             "each sweep point's reference point (reference_<objective> in the data; they differ)")
    which = "" if len(shown) == len(points) else f" The first {len(shown)} of {len(points)} points."
    more = (f" The hypervolume is over all {len(names)} objectives ({', '.join(names)})."
            if len(names) > 2 else "")
    return (f"The hypervolume of each generation's population: the volume of objective space its "
            f"members dominate, bounded by {where}, as the runner computes it. It is in the "
            f"objectives' own units (the product of the units of {', '.join(names)}), not "
            f"normalized: compare it between points with the same reference and objectives only. A "
            f"member that is not better than the reference in every objective adds nothing, so a "
            f"curve at 0 means no member has got past the reference yet. Against the evaluations "
            f"made up to the generation (generation 0: the initial population); one line per sweep "
            f"point, the mean over its replicates with the band between the lowest and the highest "
            f"replicate. A task that stopped early drops out of the mean after its last generation "
            f"(replicates in the data).{more}{which}")


def near(corners, values):
    """Whether every one of `corners` lies within the range of `values` widened by that range
    on each side (by 1, or the value's size, where they are all one value): reference points
    so near are drawn in the panels; farther ones would squeeze the fronts into a corner."""
    low, high = float(values.min()), float(values.max())
    span = high - low if high > low else max(abs(high), 1.0)
    return bool(((low - span <= corners) & (corners <= high + span)).all())


def pareto_fronts(report, max_points=12, max_colors=10):
    """A run of a kernel with objectives: each sweep point's final Pareto fronts (the first
    `max_points` points), one panel per point, each replicate's front of its last generation
    overlaid as a scatter of the first two objectives, a color per replicate (up to
    `max_colors`; more share one), with the hypervolume's reference point. The numbers: one
    row per member drawn."""
    run = report.run
    history = run.pareto_history
    fronts = run.fronts
    reference = run.objective_reference
    if history is None or history.empty or fronts.empty or reference is None:
        return
    names = run.ga.objective_names
    x, y = names[0], names[1]
    minimize = reference.groupby("objective").minimize.first()
    last = history.groupby("task").generation.max().rename("last").reset_index()
    final = fronts.merge(last, on="task")
    final = final[final.generation == final["last"]].drop(columns="last")
    points = sorted(set(final.point))
    shown = points[:max_points]
    final = final[final.point.isin(shown)]
    corner = reference.pivot(index="point", columns="objective", values="reference")[[x, y]]
    corner = corner.rename(columns=lambda name: f"reference_{name}").reset_index()
    data = final.merge(corner, on="point", how="left").sort_values(
        ["point", "replicate", "member"]).reset_index(drop=True)
    data = data[["task", "point", "replicate", *run.swept_keys, "generation", "member", *names,
                 f"reference_{x}", f"reference_{y}"]]
    replicates = int(data.replicate.max()) + 1
    colored = replicates <= max_colors
    keys = varied_keys(run)
    columns = int(np.ceil(np.sqrt(len(shown))))
    lines = int(np.ceil(len(shown) / columns))
    # Shared axes, so that points compare at a glance; a reference point far beyond every
    # front (a bound on the worst value) would squeeze them into a corner: named instead.
    fig, axes = plt.subplots(lines, columns, figsize=(4.6 * columns, 4.0 * lines), squeeze=False,
                             sharex=True, sharey=True)
    drawn_corner = near(data[f"reference_{x}"], data[x]) and near(data[f"reference_{y}"], data[y])
    for ax, (point, rows) in zip(axes.flat, data.groupby("point")):
        for replicate, members in rows.groupby("replicate"):
            label = f"replicate {replicate}" if colored else f"a replicate ({replicates})"
            ax.scatter(members[x], members[y], s=14, alpha=0.8 if colored else 0.4,
                       color=f"C{replicate % 10}" if colored else "C0", label=label, linewidths=0)
        corner = (float(rows[f"reference_{x}"].iloc[0]), float(rows[f"reference_{y}"].iloc[0]))
        generations = sorted(set(rows.generation))
        at = (f"generation {generations[0]}" if len(generations) == 1 else
              f"generations {generations[0]}-{generations[-1]}")
        title = f"{point_label(run, point, keys)}\n" if keys else ""
        if drawn_corner:
            ax.scatter([corner[0]], [corner[1]], marker="x", s=50, color="black", label="reference point")
        else:
            at += f"\nreference point ({value_text(corner[0])}, {value_text(corner[1])}) off the axes"
        ax.set_title(f"{title}final fronts, {at}", fontsize="small")
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=5))
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(shown):]:
        ax.set_visible(False)
    for column in axes.T:
        shown_axes = [ax for ax in column if ax.get_visible()]
        shown_axes[-1].set_xlabel(objective_label(x, minimize[x]))
        shown_axes[-1].xaxis.set_tick_params(labelbottom=True)
    for ax in axes[:, 0]:
        ax.set_ylabel(objective_label(y, minimize[y]))
    handles = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    axes[0, 0].legend(handles.values(), handles.keys(), fontsize="x-small")
    fig.tight_layout()
    which = "" if len(shown) == len(points) else f" The first {len(shown)} of {len(points)} points."
    corner_text = reference_text(reference, [x, y])
    report.save(fig, "ga_pareto_front.png", "Final Pareto fronts",
                f"Each sweep point's final Pareto fronts: for every replicate, the members of its last "
                f"generation's population that no other member dominates, at their {x} and {y} as "
                f"the kernel records them. The replicates' fronts are overlaid, not pooled"
                + (", a color per replicate" if colored else f", all {replicates} replicates in one color")
                + ": one replicate's members may be dominated by another's, which shows how far the "
                "replicates agree, and a later replicate's marker can hide an earlier one's at the "
                "same place. The cross is the hypervolume's reference point"
                + (f" {corner_text}" if corner_text else " of the point (they differ)")
                + "; where it lies far beyond the fronts it is named in each panel's title instead of "
                "drawn. The panels share their axes."
                + f"{objectives_note(names, 'the panels show')}{which}", data=data)
