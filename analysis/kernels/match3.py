"""Match-3 (kernels/match3): GA targets against validated success probabilities, the best
boards. `analysis.report` calls figures(report) for a run of this kernel."""

import matplotlib.pyplot as plt

from ..figures import point_label, targets
from ..render import draw_match3


def match3_targets(report):
    run = report.run
    targets(report, lambda point: f"p_{run.setting('params.estimator', point)}", "playouts",
            ("target success probability", "success probability of the best level"),
            "match3_targets.png", "Target against validated success probability",
            "Each task's best board: its success probability by the run's estimator (p_normal: a "
            "normal fit of the playout scores, p_empirical: the fraction of playouts over the "
            "threshold), as estimated during selection and as measured again on fresh playouts, "
            "against the target it was evolved for.")


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


def figures(report):
    if report.run.driver == "ga":
        match3_targets(report)
        match3_boards(report)
