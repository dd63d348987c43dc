"""Spawn (kernels/spawn): difficulty error against variety, a strip of levels with the
enemies that appeared. `analysis.report` calls figures(report) for a run of this kernel."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..figures import values_label, point_label, task_label, varied_keys, by_keys, sweep_roles
from ..render import draw_spawn_strip, parse_spawn_levels


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
            series.append(("validated", "s",
                           best[["task", "position", *validated]].rename(columns=validated), None))
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
    identity = ["task", "position"] if run.driver == "ga" else keys
    data = pd.concat([frame[identity].assign(series=label,
                                              error_share_pct=100 * frame["error_share"],
                                              repetition_pct=100 * frame["repetition"],
                                              entropy_bits=frame["entropy"])
                      for label, _, frame, _ in series], ignore_index=True)
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
                   else "per sweep point (mean over replicates)." + order_name), data=data)


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
    data = pd.DataFrame([(title, level, mask) for title, masks in shown
                         for level, mask in enumerate(masks)], columns=["run", "level", "mask"])
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
                "a red bar under a level with the same set of enemies as the level before. The "
                "data: each level's mask, bit K set when object K appeared.", data=data)


def figures(report):
    if report.run.driver in ("ga", "sweep"):
        spawn_tradeoff(report)
        spawn_strip(report)
