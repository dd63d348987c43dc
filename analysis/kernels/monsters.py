"""Monsters (kernels/monsters): the hero's survival against the swept parameters (or the
GA's targets), the motive shares. `analysis.report` calls figures(report) for a run of
this kernel."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..figures import line_panels, point_label, sweep_roles, targets, task_label, varied_keys


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
    keys = [*panels, *lines, x]
    data = records.groupby(keys)["p_survive"].agg(
        p_survive="mean", std="std", replicates="count").reset_index()
    fig, axes = line_panels(data, x, "p_survive", lines, panels, marker="o", linestyle=joined)
    for ax in axes.flat:
        ax.set_ylim(-0.02, 1.02)
    report.save_panels(fig, axes, (x.split(".")[-1], "hero survival probability"),
                       "monsters_survival.png", "Hero survival against the swept parameters",
                       "The fraction of worlds the hero survives, per sweep point (mean over "
                       "replicates; their standard deviation in the data).", data=data)


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
    data = shares.copy()
    data.insert(0, "label", labels)
    data.insert(0, "task" if run.driver == "ga" else "point", rows)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.25 * len(shares)))
    stacked_bars(ax, labels, shares, colors)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the monsters' decisions")
    ax.legend(fontsize="small", ncol=len(shares.columns), loc="lower center",
              bbox_to_anchor=(0.5, 1.0))
    report.save(fig, "monsters_motives.png", "Motive shares",
                "Which motive won the monsters' decisions, per " +
                ("task (its best genome; the record holds fear and aggression, the rest is other)."
                 if run.driver == "ga" else "sweep point (mean over replicates)."), data=data)


SPECIES_TRAITS = ("strength", "hp", "perception")


def monsters_species(report):
    """Who the monsters are: each species of the run's catalogue (params.species) with its
    base motive weights and its strength, HP and perception, as the config gives them (the
    defaults of docs/monsters.md filled in)."""
    table = report.run.param_table("species")
    if not table:
        return
    defaults = {"strength": 2, "hp": 6, "perception": 5}
    motives = [motive for motive in MOTIVES if motive != "none"]
    rows = []
    for species in table:
        weights = species.get("motives") or {}
        rows.append({"species": species.get("name", "?"),
                     **{trait: species.get(trait, defaults[trait]) for trait in SPECIES_TRAITS},
                     **{motive: weights.get(motive, 0) for motive in motives}})
    data = pd.DataFrame(rows)
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.6 + 0.55 * len(data)), squeeze=False,
                             gridspec_kw={"width_ratios": [3, 2]})
    for panel, columns, colors in ((axes[0][0], motives, [MOTIVES[m] for m in motives]),
                                   (axes[0][1], SPECIES_TRAITS, ["#666666", "#999999", "#cccccc"])):
        height = 0.8 / len(columns)
        for k, (column, color) in enumerate(zip(columns, colors)):
            panel.barh(np.arange(len(data)) + (k - (len(columns) - 1) / 2) * height, data[column],
                       height=height, color=color, label=column)
        panel.set_yticks(np.arange(len(data)))
        panel.set_yticklabels(data.species)
        panel.set_ylim(len(data) - 0.5, -0.5)
        panel.grid(alpha=0.3, axis="x")
        panel.legend(fontsize="small", ncol=len(columns), loc="lower center",
                     bbox_to_anchor=(0.5, 1.0))
    axes[0][0].set_xlabel("base motive weight (wander: its level)")
    axes[0][1].set_xlabel("strength, HP, perception (cells)")
    report.save(fig, "monsters_species.png", "The species",
                "The run's species catalogue (params.species) as written: each species' base "
                "motive weights, and its strength, HP and sight range. The parameters aggression, "
                "fear, desire, wander, misc and strength, where a config sets or sweeps them, "
                "replace these values for the placed species (docs/monsters.md).", data=data)


def figures(report):
    if report.run.driver in ("ga", "sweep"):
        monsters_species(report)
        monsters_survival(report)
        monsters_motives(report)
