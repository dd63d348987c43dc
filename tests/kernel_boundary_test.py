"""The runner and the generic analysis know no game: no shipped kernel's name appears in
runner/ or in any file of analysis/ outside analysis/kernels/ (the test kernels, onemax,
collatz and faulty, may: they are the runner's own fixtures). A game's code lives in
kernels/NAME/ and analysis/kernels/NAME.py (its figures and its drawing of a level); the
runner reaches it through the registry, where kernels/NAME/register.cpp puts it.

    /usr/bin/python3 tests/kernel_boundary_test.py
"""

import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_GAMES = {"api", "testing"}


def game_kernels():
    """The shipped kernels: the folders of kernels/ besides the API and the test kernels."""
    folder = os.path.join(ROOT, "kernels")
    return sorted(name for name in os.listdir(folder)
                  if os.path.isdir(os.path.join(folder, name)) and name not in NOT_GAMES)


def tracked(*paths):
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "--", *paths], check=True,
                            capture_output=True, text=True).stdout.split()
    return listed


def mentions(paths, names):
    """'path:line: text' for every line of `paths` naming one of `names` (any case)."""
    pattern = re.compile("|".join(re.escape(name) for name in names), re.IGNORECASE)
    found = []
    for path in paths:
        with open(os.path.join(ROOT, path), encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                if pattern.search(line):
                    found.append(f"{path}:{number}: {line.strip()}")
    return found


class Boundary(unittest.TestCase):
    def test_the_games_are_found(self):
        # The checks below mean something only while they know the games.
        self.assertLessEqual({"match3", "matchstick", "monsters", "spawn", "tiltmaze"},
                             set(game_kernels()))

    def test_the_runner_names_no_game(self):
        runner = tracked("runner")
        self.assertGreater(len(runner), 50)
        self.assertEqual(mentions(runner, game_kernels()), [])

    def test_the_generic_analysis_names_no_game(self):
        # Every tracked file of analysis/ but the kernels' modules: the loader, the drivers'
        # modules, the report, the exports, whatever is added there later.
        generic = [path for path in tracked("analysis")
                   if not path.startswith("analysis/kernels/")]
        self.assertIn("analysis/loader.py", generic)
        self.assertEqual(mentions(generic, game_kernels()), [])

    def test_each_game_has_its_figures(self):
        for name in game_kernels():
            self.assertTrue(os.path.isfile(os.path.join(ROOT, "analysis", "kernels", f"{name}.py")), name)

    def test_a_name_is_found_where_it_is(self):
        # The scan itself can fail: it finds each name in its kernel's registration.
        for name in game_kernels():
            self.assertNotEqual(mentions([f"kernels/{name}/register.cpp"], [name]), [], name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
