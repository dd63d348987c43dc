"""What the paper checks in bench/ share (qd_papers.py, zdt_nsga2.py): running a shipped
config under mpiexec with overrides, timed, and appending a section to bench/RESULTS.md
headed by the host and the levelforge version."""

import datetime
import os
import platform
import subprocess
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
LEVELFORGE = str(REPO / "build" / "runner" / "cli" / "levelforge")


def run(levelforge, ranks, config, out, overrides):
    """Runs `config` into `out` with `overrides` (KEY=VALUE each); returns the command as the
    docs show it and its wall seconds."""
    command = ["mpiexec", "-n", str(ranks), "--oversubscribe", levelforge, "run", str(config),
               "-o", str(out), "-q", "--force"]
    for override in overrides:
        command += ["--set", override]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    started = datetime.datetime.now(datetime.timezone.utc)
    subprocess.run(command, check=True, env=env)
    wall = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    return " ".join(["levelforge", *command[5:]]).replace(str(REPO) + "/", ""), wall


def record(results, title, notes, body, levelforge, ranks):
    """Appends to `results` a section `title` (dated), the host and version, `notes` (lines)
    and `body`."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    version = subprocess.run([levelforge, "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    with open(results, "a") as f:
        f.write(f"\n## {now}: {title}\n\n")
        f.write(f"- host: {platform.node()}, nproc {os.cpu_count()}, ranks {ranks}\n"
                f"- levelforge: {version}\n")
        f.write("".join(f"- {note}\n" for note in notes) + "\n")
        f.write(body + "\n")
