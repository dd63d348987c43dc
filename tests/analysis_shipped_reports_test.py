"""The report of every shipped config (configs/*.yaml), each run with its work shrunk by
--set (generations, population, playouts, worlds, replicates) and its sweep kept, so that
every figure has the panels, titles, legends and labels of the full run. The figures are
checked as the report saves them (Report.save replaced by a check that keeps the figure's
texts, caption and numbers and writes nothing): no text of a figure prints over another,
and the kernels' figures say what they show.

Run by CTest through tests/run_suites.py, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import concurrent.futures
import glob
import os
import shutil
import tempfile
import unittest
from unittest import mock

import matplotlib
matplotlib.use("Agg")  # files only, no display
import matplotlib.colors  # noqa: E402
import matplotlib.legend  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.text  # noqa: E402
import numpy as np  # noqa: E402

from cli_support import levelforge  # noqa: E402
import analysis  # noqa: E402  (the repository's package: cli_support puts it on the path)
from analysis.figures import Report  # noqa: E402
from analysis.kernels.tiltmaze import FEW_MAZES  # noqa: E402
from analysis.report import kernel_figures  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GA = ["--set", "ga.generations=2", "--set", "ga.population=6"]
MATCH3 = ["--set", "params.playouts=20", "--set", "params.validation_playouts=50"]
MONSTERS = ["--set", "params.worlds=8", "--set", "params.turns=40"]
# Each shipped config's overrides: less work per task, the same sweep points.
SHRUNK = {
    "demo": GA + MATCH3,
    "match3_paper": GA + MATCH3,
    "match3_sweep": GA + MATCH3,
    "match3_qd": ["--set", "qd.iterations=3", "--set", "qd.init=20", "--set", "qd.batch=10", *MATCH3],
    "matchstick_2digit": ["--set", "params.max_value=30"],
    "matchstick_2digit_k2": ["--set", "params.max_value=30"],
    "monsters_ga": GA + MONSTERS + ["--set", "params.validation_worlds=20"],
    "monsters_sweep": MONSTERS,
    "spawn_ga": GA + ["--set", "params.runs=20", "--set", "params.validation_runs=50"],
    "spawn_sweep": ["--set", "params.runs=50"],
    "spawn_es": GA + ["--set", "params.runs=20", "--set", "params.validation_runs=50",
                      "--set", "sweep.replicates=1"],
    "spawn_emitters": ["--set", "qd.iterations=3", "--set", "params.runs=10", "--set", "params.validation_runs=20",
                       "--set", "sweep.replicates=1"],
    "sphere_emitters": ["--set", "qd.iterations=3", "--set", "sweep.replicates=1"],
    "sphere_es": ["--set", "sweep.replicates=1"],
    "sphere_novelty": ["--set", "qd.iterations=3", "--set", "sweep.replicates=1"],
    "sphere_qd": ["--set", "qd.iterations=3", "--set", "qd.cvt_samples=5000"],
    "zdt_nsga2": GA + ["--set", "sweep.replicates=1"],
    "tiltmaze_4x4_exhaustive": [],
    "tiltmaze_4x4_pairs": [],
    "tiltmaze_4x4_qd": ["--set", "qd.iterations=3", "--set", "sweep.replicates=1"],
    "tiltmaze_ga": GA,
    "tiltmaze_nsga2": GA,
    "tiltmaze_islands": ["--set", "ga.generations=3", "--set", "ga.population=32",
                         "--set", "ga.migration.every=1"],
    "tiltmaze_qd": ["--set", "qd.iterations=3", "--set", "qd.init=40", "--set", "qd.batch=20"],
    "tiltmaze_qd_archives": ["--set", "qd.iterations=3", "--set", "qd.init=40", "--set", "qd.batch=20",
                             "--set", "sweep.replicates=1", "--set", "qd.cvt_samples=2560"],
    "tiltmaze_sample": ["--set", "sweep.replicates=2"],
    "tiltmaze_sweep": ["--set", "sweep.replicates=3"],
}


class Figure:
    """What a figure showed when the report saved it."""

    def __init__(self, fig, caption, data):
        self.caption = caption
        self.data = data
        self.texts = drawn_texts(fig)
        # Hollow markers: scatter points filled white.
        self.hollow = sum(len(collection.get_offsets()) for ax in fig.axes
                          for collection in ax.collections
                          if len(collection.get_facecolor())
                          and matplotlib.colors.same_color(collection.get_facecolor()[0], "white"))


def drawn_texts(fig):
    """(text, its box in pixels, rotation, size in pixels, legend) of every text the figure
    draws: the visible, non-blank Text artists its draw reaches (a tick outside the view and
    the texts of a hidden panel are never drawn), `legend` the one holding it, else None.
    Each legend drawn is there too, as its frame's box under the text "legend" and itself:
    a legend hides the texts under it."""
    drawn, legends = [], []
    draw_text, draw_legend = matplotlib.text.Text.draw, matplotlib.legend.Legend.draw

    def record_text(text, renderer):
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)
        return draw_text(text, renderer)

    def record_legend(legend, renderer):
        if legend.get_visible():
            legends.append(legend)
        return draw_legend(legend, renderer)

    with mock.patch.object(matplotlib.text.Text, "draw", record_text), \
            mock.patch.object(matplotlib.legend.Legend, "draw", record_legend):
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    holder = {id(text): legend for legend in legends for text in [*legend.get_texts(), legend.get_title()]}
    return ([(text.get_text(), text.get_window_extent(renderer), text.get_rotation(),
              text.get_fontsize() * fig.dpi / 72, holder.get(id(text))) for text in drawn]
            + [("legend", legend.get_window_extent(renderer), None, 0, legend) for legend in legends])


def clashes(texts):
    """The pairs of texts that print over each other: their boxes overlap, or both read
    left to right on one line with less than an em between them (two titles side by side
    then read as one). A legend clashes with any text but its own."""
    if len(texts) < 2:
        return []
    names, boxes, turns, ems, legends = zip(*texts)
    x0, y0, x1, y1 = (np.array([getattr(box, side) for box in boxes])[:, None]
                      for side in ("x0", "y0", "x1", "y1"))
    # Every pair at once: a figure of many panels draws hundreds of tick labels.
    across = np.minimum(x1, x1.T) - np.maximum(x0, x0.T)
    down = np.minimum(y1, y1.T) - np.maximum(y0, y0.T)
    level = np.array([turn is not None and turn % 180 == 0 for turn in turns])[:, None]
    ems = np.array(ems)[:, None]
    one_line = level & level.T & (down > 0.5 * np.minimum(y1 - y0, (y1 - y0).T))
    clash = ((across > 0) & (down > 0)) | (one_line & (across > -np.maximum(ems, ems.T)))
    frame = np.array([turn is None for turn in turns])[:, None]
    owner = np.array([id(legend) for legend in legends])[:, None]
    clash &= ~((frame | frame.T) & (owner == owner.T))
    return [(names[a], names[b]) for a, b in zip(*np.nonzero(np.triu(clash, 1)))]


class ShippedReports(unittest.TestCase):
    figures = {}  # (config, figure file) -> Figure

    @classmethod
    def setUpClass(cls):
        directory = tempfile.mkdtemp(prefix="levelforge-test-")
        cls.addClassCleanup(shutil.rmtree, directory, ignore_errors=True)

        def run(config):
            result = os.path.join(directory, f"{config}.h5")
            # Alone, not under mpiexec: the figures read the same datasets on any rank count.
            return result, levelforge("run", os.path.join(REPO, "configs", f"{config}.yaml"),
                                      "-o", result, "-q", *SHRUNK[config])

        # Four runs at a time: a small run spends most of its half second of wall waiting
        # (MPI's start), not computing.
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for config, (result, made) in zip(SHRUNK, pool.map(run, SHRUNK)):
                if made.returncode != 0:
                    raise AssertionError(f"{config}: {made.stderr}")

                def check(report, fig, name, title, caption, data, config=config):
                    cls.figures[(config, name)] = Figure(fig, caption, data)
                    plt.close(fig)

                with mock.patch.object(Report, "save", check), analysis.load(result) as loaded:
                    kernel_figures(Report(loaded, directory))

    def test_every_shipped_config_is_reported(self):
        shipped = sorted(os.path.basename(path)[:-len(".yaml")]
                         for path in glob.glob(os.path.join(REPO, "configs", "*.yaml")))
        self.assertEqual(sorted(SHRUNK), shipped)
        self.assertGreater(len(self.figures), 2 * len(shipped))

    def test_a_sampled_sweep_is_not_drawn_as_a_grid(self):
        """configs/tiltmaze_sample.yaml samples its keys: no line through unrelated samples
        (the grid figures tiltmaze_solvable.png and tiltmaze_lengths.png), solvable as the
        fraction per bin instead."""
        drawn = {name for config, name in self.figures if config == "tiltmaze_sample"}
        self.assertFalse(drawn & {"tiltmaze_solvable.png", "tiltmaze_lengths.png"}, drawn)
        self.assertIn("sampled_fractions.png", drawn)
        self.assertIn("tiltmaze_solvable.png",
                      {name for config, name in self.figures if config == "tiltmaze_sweep"})

    def test_no_text_prints_over_another(self):
        for (config, name), figure in sorted(self.figures.items()):
            with self.subTest(config=config, figure=name):
                self.assertEqual(clashes(figure.texts), [])

    def test_the_check_sees_titles_run_together_and_numbers_printed_over(self):
        # The check itself: what it must find, drawn here.
        fig, axes = plt.subplots(1, 2, figsize=(4, 2))
        axes[0].set_title("a title long enough to reach the next")
        axes[1].set_title("another title as long as that")
        axes[0].annotate("1", (0.5, 0.5))
        axes[0].annotate("15", (0.5, 0.5))
        axes[1].text(0.05, 0.9, "under", transform=axes[1].transAxes)
        axes[1].plot([0, 1], [0, 1], label="a line")
        axes[1].legend(loc="upper left")
        found = clashes(drawn_texts(fig))
        plt.close(fig)
        self.assertIn(("a title long enough to reach the next", "another title as long as that"), found)
        self.assertIn(("1", "15"), found)
        self.assertIn(("under", "legend"), found)
        self.assertNotIn(("a line", "legend"), found)

    def test_level_pictures_spread_over_the_sweep(self):
        # tilt-maze GA: 8 target lengths; match3 sweep: 36 points, the target the slowest key.
        for config, name, key, first, last in (
                ("tiltmaze_ga", "tiltmaze_best.png", "params.target_length", 5, 50),
                ("match3_sweep", "match3_boards.png", "params.target", 0.1, 0.9)):
            with self.subTest(config=config):
                figure = self.figures[(config, name)]
                shown = figure.data
                self.assertEqual(len(shown), 6)
                self.assertEqual((shown[key].iloc[0], shown[key].iloc[-1]), (first, last))
                self.assertEqual(list(shown.point), sorted(set(shown.point)))
                points = ", ".join(str(point) for point in shown.point)
                self.assertIn("6 of the", figure.caption)
                self.assertIn(f"(points {points})", figure.caption)

    def test_statistics_of_few_mazes_are_hollow(self):
        # Three replicates a point: every solvable fraction and median is of fewer than 5.
        for name, count, what in (("tiltmaze_solvable.png", "mazes", "a fraction"),
                                  ("tiltmaze_lengths.png", "solvable", "a median")):
            with self.subTest(figure=name):
                figure = self.figures[("tiltmaze_sweep", name)]
                few = int((figure.data[count] < FEW_MAZES).sum())
                self.assertGreater(few, 0)
                self.assertEqual(figure.hollow, few)
                self.assertIn(f"Hollow: {what} of fewer than {FEW_MAZES}", figure.caption)
                self.assertIn(f"fewer than {FEW_MAZES} mazes",
                              [text for text, *_ in figure.texts])

    def test_mazes_counted_up_to_reflection_say_so(self):
        self.assertIn("Counted up to reflection",
                      self.figures[("tiltmaze_4x4_pairs", "tiltmaze_hardest_pair.png")].caption)
        self.assertNotIn("reflection",
                         self.figures[("tiltmaze_4x4_exhaustive", "tiltmaze_hardest.png")].caption)
        # The histograms count the visited mazes: under reflection one per mirror pair.
        counted = {config: [" ".join(text.split())
                            for text, *_ in self.figures[(config, "histograms.png")].texts]
                   for config in ("tiltmaze_4x4_pairs", "tiltmaze_4x4_exhaustive")}
        self.assertTrue(any(text.startswith("mazes, one per reflection class")
                            for text in counted["tiltmaze_4x4_pairs"]), counted)
        self.assertTrue(any(text.startswith("mazes") for text in counted["tiltmaze_4x4_exhaustive"]))
        self.assertFalse(any("reflection" in text for text in counted["tiltmaze_4x4_exhaustive"]))


if __name__ == "__main__":
    unittest.main()
