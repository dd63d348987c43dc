"""Every C++ source and header of the tree compiled on its own, syntax only: what a plain
(non-unity) build compiles, and what the unity builds of scripts/common.sh hide, where a
source that forgot an include compiles because an earlier source of its batch made it.

Usage: compile_alone.py BUILD_FOLDER. The compile commands are the unity build's own
(compile_commands.json): each unity file's command, with the unity file replaced by each
source it includes. A header that is the first include of a source is checked by that
source; any other is compiled as the only line of a translation unit, with the command of a
source in its folder (or the nearest folder above with one, else the command with the most
include folders), so a header that needs another included before it fails. Sources the build
generates are left out, and so is the first source of each unity batch, which the build
compiled with nothing before it. Exit 1 naming each file that does not compile, with the
compiler's first errors. Cost: about 1 s of CPU per source.
"""

import json
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# Errors shown per file: the first names the missing declaration; the rest follow from it.
SHOWN_ERRORS = 3


def unity_sources(unity_file):
    with open(unity_file, encoding="utf-8") as unity:
        return re.findall(r'^#include "([^"]+)"$', unity.read(), flags=re.M)


def first_include(source, root):
    with open(source, encoding="utf-8") as text:
        found = re.search(r'^#include "([^"]+)"$', text.read(), flags=re.M)
    return os.path.join(root, found.group(1)) if found else None


def syntax_only(command, unity_file, replacement):
    """`command` (a unity file's, as an argument list) checking `replacement` instead."""
    arguments = shlex.split(command)
    output = arguments.index("-o")
    del arguments[output:output + 2]
    arguments = [replacement if argument == unity_file else argument for argument in arguments]
    return [argument for argument in arguments if not re.fullmatch(r"-O\d|-g\d?", argument)] + \
        ["-fsyntax-only"]


def commands(build, root, headers):
    """(file, directory, arguments, standard input) for every source, then every header not
    checked through a source."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as listed:
        entries = json.load(listed)
    by_folder = {}
    checked_first = set()
    for entry in entries:
        if "/Unity/" not in entry["file"]:
            continue
        for position, source in enumerate(unity_sources(entry["file"])):
            if not source.startswith(root + "/") or source.startswith(build + "/"):
                continue
            by_folder.setdefault(os.path.dirname(source),
                                 (entry["directory"], entry["command"], entry["file"]))
            checked_first.add(first_include(source, root))
            # A batch's first source has nothing before it in the unity file: the build that
            # wrote these commands compiled it alone already.
            if position == 0:
                continue
            yield source, entry["directory"], syntax_only(entry["command"], entry["file"],
                                                          source), None
    widest = max(by_folder.values(), key=lambda found: found[1].count(" -I"))
    for header in headers:
        if header in checked_first:
            continue
        folder = os.path.dirname(header)
        while folder not in by_folder and folder.startswith(root + "/"):
            folder = os.path.dirname(folder)
        directory, command, unity_file = by_folder.get(folder, widest)
        arguments = syntax_only(command, unity_file, "-")
        yield header, directory, arguments[:-2] + ["-x", "c++", "-", "-fsyntax-only"], \
            f'#include "{header}"\n'


def check(job):
    path, directory, arguments, text = job
    result = subprocess.run(arguments, cwd=directory, input=text, capture_output=True, text=True)
    if result.returncode == 0:
        return path, None
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    return path, "\n".join(errors[:SHOWN_ERRORS]) or result.stderr.strip()


def main():
    build = os.path.realpath(sys.argv[1])
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    tracked = subprocess.run(["git", "ls-files", "*.hpp"], cwd=root, capture_output=True,
                             text=True, check=True).stdout.split()
    # Examples are built against the installed package (tests/out_of_tree_test.py), not here.
    headers = [os.path.join(root, path) for path in tracked if not path.startswith("examples/")]
    jobs = list(commands(build, root, headers))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failures = [(path, why) for path, why in pool.map(check, jobs) if why]
    for path, why in failures:
        print(f"{os.path.relpath(path, root)} does not compile alone:\n{why}")
    sources = sum(1 for job in jobs if not job[0].endswith(".hpp"))
    print(f"check: compiled alone: {sources} sources and {len(jobs) - sources} headers, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
