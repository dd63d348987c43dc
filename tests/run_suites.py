"""Runs the unittest suites of one test script for CTest (tests/CMakeLists.txt):

    /usr/bin/python3 tests/run_suites.py tests/SCRIPT.py [SUITE ...]

every suite of SCRIPT.py when none is named. Exit 0: every test ran and passed; 1: a test
failed or raised, or nothing ran; SKIPPED (77): none failed, but at least one was skipped
(skipTest, SkipTest in setUpModule or setUpClass, a skip decorator). CTest's
SKIP_RETURN_CODE shows that as a skipped test with the reasons in its output, not as a pass
that did less than it says.
"""

import importlib
import os
import sys
import unittest

SKIPPED = 77


def main(argv):
    if not argv or not argv[0].endswith(".py"):
        print(__doc__, file=sys.stderr)
        return 2
    script, suites = os.path.abspath(argv[0]), argv[1:]
    # The script imports its neighbours (cli_support) as it would run alone.
    sys.path.insert(0, os.path.dirname(script))
    module = importlib.import_module(os.path.splitext(os.path.basename(script))[0])
    loader = unittest.defaultTestLoader
    tests = (loader.loadTestsFromNames(suites, module) if suites
             else loader.loadTestsFromModule(module))
    result = unittest.TextTestRunner(verbosity=2).run(tests)
    if not result.wasSuccessful() or not (result.testsRun or result.skipped):
        return 1
    if result.skipped:
        print(f"run_suites: {len(result.skipped)} of {result.testsRun} tests skipped "
              f"(exit {SKIPPED}, a CTest skip):", file=sys.stderr)
        for test, reason in result.skipped:
            print(f"  {test}: {reason}", file=sys.stderr)
        return SKIPPED
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
