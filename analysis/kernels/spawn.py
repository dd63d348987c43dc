"""Spawn (kernels/spawn): difficulty error against variety, a strip of levels with the
enemies that appeared. `analysis.report` calls figures(report) for a run of this kernel."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from . import spread_points, stored_text
from ..figures import (by_keys, point_label, sweep_roles, task_label, value_text, values_label,
                       varied_keys)


# Drawing (usable on any matplotlib Axes in a notebook)

SPAWN_DIGITS = 4  # docs/spawn.md: hex digits per level in first_run, bit K = object K
_HEX = re.compile(r"[0-9a-f]*")
_SPAWNED = "#377eb8"
_REPEAT = "#e41a1c"


def parse_spawn_levels(text):
    """The masks of a ``first_run`` text: ``SPAWN_DIGITS`` lowercase hex digits per level,
    bit K set when the object at table position K appeared. Raises ValueError otherwise."""
    text = stored_text(text)
    if not isinstance(text, str) or len(text) % SPAWN_DIGITS or not _HEX.fullmatch(text):
        raise ValueError(f"spawn levels {text!r}: expected {SPAWN_DIGITS} lowercase hex digits "
                         f"per level")
    return [int(text[i:i + SPAWN_DIGITS], 16) for i in range(0, len(text), SPAWN_DIGITS)]


def draw_spawn_strip(ax, levels, names=None, objects=None):
    """Draw which objects each level of a run holds: level i is the column x in [i, i+1]
    (left to right), object K the row y in [K, K+1] (object 0 on top), a filled cell when the
    object appeared. A red bar under a level marks the same set of objects as the level
    before (docs/spawn.md, repetition).

    ``levels`` is a ``first_run`` text or a sequence of masks; ``names`` labels the rows
    (table order), ``objects`` sets the row count (default: the names, else up to the
    highest object that appeared). Returns ``ax``.
    """
    if isinstance(levels, (str, bytes)):
        masks = parse_spawn_levels(levels)
    else:
        masks = [int(mask) for mask in levels]
    if not masks:
        raise ValueError("spawn strip: no levels")
    if objects is None:
        objects = len(names) if names else max(max(masks).bit_length(), 1)
    if names is not None and len(names) != objects:
        raise ValueError(f"spawn strip: {len(names)} names for {objects} objects")
    if max(masks) >> objects:
        raise ValueError(f"spawn strip: a level holds an object past the {objects} of the table")
    present = np.array([[mask >> k & 1 for mask in masks] for k in range(objects)], dtype=bool)
    rgb = np.ones((objects, len(masks), 3))
    rgb[present] = to_rgb(_SPAWNED)
    ax.imshow(rgb, extent=(0, len(masks), objects, 0), origin="upper", interpolation="nearest",
              aspect="auto")
    grid = dict(color="0.8", linewidth=0.5, clip_on=False)
    for x in range(len(masks) + 1):
        ax.plot([x, x], [0, objects], **grid)
    for y in range(objects + 1):
        ax.plot([0, len(masks)], [y, y], **grid)
    for level in range(1, len(masks)):
        if masks[level] == masks[level - 1]:
            ax.add_patch(Rectangle((level, objects + 0.15), 1, 0.5, color=_REPEAT, clip_on=False))
    ax.set_xlim(0, len(masks))
    ax.set_ylim(objects + 0.7, 0)
    ax.set_yticks(np.arange(objects) + 0.5)
    ax.set_yticklabels(names if names is not None else [str(k) for k in range(objects)],
                       fontsize="small")
    ax.set_xticks(np.arange(0, len(masks), 10) + 0.5)
    ax.set_xticklabels([str(level) for level in range(0, len(masks), 10)], fontsize="small")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax


# One marker per value of the key that orders a sweep's points along their line: numbers
# written beside the points printed over each other where the lines meet.
ORDER_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")


def spawn_tradeoff(report):
    """Difficulty error share against repetition and against per-level entropy. Sweep: a
    point per sweep point (mean over replicates), joined in order of the numeric swept key
    within each value of the other keys, its marker saying the key's value. GA: every kept
    genome at selection and validated, a color per sweep point where the GA is swept (up to
    ten points)."""
    run = report.run
    measures = (("repetition", "repetition of consecutive levels (%)", 100),
                ("entropy", "entropy of a level's mix (bits)", 1))
    series = []  # (label, marker, frame with error_share and the measures, color)
    order, marker_of, colored = None, {}, []
    if run.driver == "ga":
        # A GA swept over its own settings (configs/spawn_es.yaml: ga.breeding): a color per
        # sweep point, so that the breedings tell apart; the marker says at selection or
        # validated. Past ten points one color, as without a sweep.
        best = run.with_params(run.best)
        swept = varied_keys(run)
        groups = by_keys(best, swept)
        if len(groups) > 10:
            swept, groups = [], by_keys(best, [])
        validated = {f"validated_{column}": column
                     for column in ("error_share", "repetition", "entropy")}
        for k, (values, rows) in enumerate(groups):
            color = f"C{k}" if swept else None
            if swept:
                colored.append((values_label(swept, values), color))
            series.append(("at selection", "o", rows, color))
            if set(validated) <= set(best.columns):
                series.append(("validated", "s", rows[["task", "position", *swept, *validated]]
                               .rename(columns=validated), color))
    else:
        records = run.records
        if "error_share" not in records.columns:
            return
        order, lines, panels = sweep_roles(run, ("params.weight_increment", "params.decay"))
        keys = [key for key in (order, *lines, *panels) if key]
        columns = ["error_share", "repetition", "entropy"]
        means = (records.groupby(keys)[columns].mean().reset_index() if keys
                 else records[columns].mean().to_frame().T)
        if order:
            marker_of = {value: ORDER_MARKERS[k % len(ORDER_MARKERS)]
                         for k, value in enumerate(sorted(set(means[order])))}
        others = lines + panels
        for key, rows in by_keys(means, others):
            series.append((values_label(others, key) or "all tasks", "o",
                           rows.sort_values(order) if order else rows, None))
    identity = ["task", "position", *swept] if run.driver == "ga" else keys
    data = pd.concat([frame[identity].assign(series=label,
                                             error_share_pct=100 * frame["error_share"],
                                             repetition_pct=100 * frame["repetition"],
                                             entropy_bits=frame["entropy"])
                      for label, _, frame, _ in series], ignore_index=True)
    fig, axes = plt.subplots(1, len(measures), figsize=(11, 4.5), squeeze=False)
    for ax, (measure, ylabel, scale) in zip(axes[0], measures):
        for label, marker, frame, color in series:
            x = 100 * frame["error_share"].to_numpy(dtype=float)
            y = scale * frame[measure].to_numpy(dtype=float)
            if colored:
                ax.plot(x, y, marker=marker, linestyle="none", color=color)
                continue
            if not order:
                ax.plot(x, y, marker=marker, linestyle="none" if run.driver == "ga" else "-",
                        label=label)
                continue
            line, = ax.plot(x, y, linestyle="-", label=label)
            for value, at_x, at_y in zip(frame[order], x, y):
                ax.plot(at_x, at_y, marker=marker_of[value], color=line.get_color(),
                        linestyle="none")
        ax.set_xlabel("difficulty error share (%)")
        # At most six ticks, on steps of 1, 2 or 5: the error shares of a few tasks can span
        # a fraction of a percent (2.30-2.47), where the default steps of 0.025 printed nine
        # three-decimal labels into one another.
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10]))
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    for label, color in colored:
        handles.append(Line2D([], [], marker="o", color=color, linestyle="none"))
        labels.append(label)
    if colored:
        for label, marker in dict((label, marker) for label, marker, _, _ in series).items():
            handles.append(Line2D([], [], marker=marker, color="black", linestyle="none"))
            labels.append(label)
    for marker in dict.fromkeys(marker_of.values()):
        shared = [value_text(value) for value, mine in marker_of.items() if mine == marker]
        handles.append(Line2D([], [], marker=marker, color="black", linestyle="none"))
        labels.append(f"{order.split('.')[-1]}={', '.join(shared)}")
    axes[0][0].legend(handles, labels, fontsize="small")
    order_name = "" if not order else (f" Markers: the {order.split('.')[-1]} of the point, the "
                                       "line joining its values in order.")
    report.save(fig, "spawn_tradeoff.png", "Difficulty error against variety",
                "Sum |required - spawned| / sum required against the share of consecutive levels "
                "with the same set of enemies and the entropy of a level's mix, "
                + ("for each task's kept genomes, at selection and validated"
                   + (" (color: the sweep point)." if colored else ".") if run.driver == "ga"
                   else "per sweep point (mean over replicates)." + order_name), data=data)


def spawn_strip(report):
    """The first run's levels of a few tasks: sweep, replicate 0 of up to four points from
    the most to the least repetitive; GA, the best genome's validation run of up to four
    tasks (replicate 0 of points spread over a sweep). Object names from the config's table,
    else table positions."""
    run = report.run
    if run.driver == "ga":
        if "validated_first_run" not in run.best.columns:
            return
        best = run.with_params(run.best[run.best.position == 0]).sort_values("task")
        # One point: its replicates; several: replicate 0 of points spread over the sweep.
        best = (spread_points(best[best.replicate == 0], 4)[0] if best.point.nunique() > 1
                else best.head(4))
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
    # Constrained: each strip's title clear of the level numbers under the strip above.
    fig, axes = plt.subplots(len(shown), 1, figsize=(10, (0.22 * objects + 0.9) * len(shown)),
                             squeeze=False, layout="constrained")
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
