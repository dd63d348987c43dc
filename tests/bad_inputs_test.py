"""The bad-input catalogue of issue 10: every case of tests/bad_inputs/cases.yaml run under
`mpiexec -n 2`, checked for its exit code and message, for ending at all (a rank that hangs
fails the case), and for leaving no output that looks complete (root attribute
complete = 1, docs/hdf5-layout.md).

The HDF5 inputs are made here, once, from real small runs (make_files): a result, its
shards, the checkpoint and `.partial` file of a run that failed, and damaged copies of
them. Each case gets its own copy of them, so a case cannot spoil another's input.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment;
LEVELFORGE_BAD_INPUT_RANKS runs the cases on that many ranks instead (the sanitizer build: 1,
tests/CMakeLists.txt), except those whose `ranks` key pins theirs.
"""

import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import tempfile
import unittest
import uuid

import h5py
import numpy as np
import yaml

from cli_support import mpi_command, process_ids, reseal

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGUE = os.path.join(HERE, "bad_inputs")
RANKS = 2
CASE_RANKS = int(os.environ.get("LEVELFORGE_BAD_INPUT_RANKS", RANKS))
# A refused command ends in a few seconds; a rank waiting for another never does.
CASE_TIMEOUT = 60
# Cases run this many at a time: an mpiexec spends most of its 2-3 s starting up, idle.
CONCURRENT_CASES = int(os.environ.get("LEVELFORGE_BAD_INPUT_JOBS", "6"))


def processes_marked(marker):
    """Ids of the processes whose environment holds `marker` (a case's own mpiexec ranks)."""
    return process_ids("environ", lambda environment: marker.encode() in environment)


def run_ended(command, cwd, timeout=None):
    """(CompletedProcess, None), or (None, why) when it did not end within `timeout` seconds
    (CASE_TIMEOUT): then mpiexec and every rank it started are killed. Ranks need not be in
    mpiexec's process group, so each run carries a marker in its environment to find them."""
    timeout = CASE_TIMEOUT if timeout is None else timeout
    marker = f"LEVELFORGE_BAD_INPUT_RUN={uuid.uuid4().hex}"
    environment = dict(os.environ, LEVELFORGE_BAD_INPUT_RUN=marker.split("=", 1)[1])
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, env=environment)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        for pid in processes_marked(marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        stdout, stderr = process.communicate()
        return None, (f"no exit after {timeout} s (a rank hangs?)\n"
                      f"stdout:\n{stdout}\nstderr:\n{stderr}")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr), None


def looks_complete(path):
    """Whether `path` is a levelforge result marked complete."""
    if not os.path.isfile(path):
        return False
    try:
        with h5py.File(path, "r") as f:
            return f.attrs.get("format") in (b"levelforge-results", "levelforge-results") and \
                int(f.attrs.get("complete", 0)) == 1
    except OSError:
        return False


def set_attributes(path, seal=True, **attributes):
    """Changes root attributes with h5py, then seals the file again (unless `seal` is
    False): levelforge reads it as if it had written it."""
    with h5py.File(path, "a") as f:
        for name, value in attributes.items():
            f.attrs[name] = np.int64(value) if isinstance(value, int) else value
    if seal:
        reseal(path)


def flip_byte(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ 0x10]))


def truncate(path, size):
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:size if size >= 0 else len(data) // 2])


def make_files(folder):
    """The HDF5 inputs of the catalogue, made in `folder` from real runs on 2 ranks."""
    fixtures = os.path.join(CATALOGUE, "fixtures")

    def run(*args, expect=0):
        result, hung = run_ended(mpi_command(*args, "-q", ranks=RANKS), folder, timeout=300)
        if hung or result.returncode != expect:
            raise AssertionError(f"making the inputs: levelforge {' '.join(args)}: "
                                 f"{hung or result.stderr}")

    def path(name):
        return os.path.join(folder, name)

    run("run", os.path.join(fixtures, "good_sweep.yaml"), "-o", path("good.h5"))
    run("run", os.path.join(fixtures, "tiltmaze_sweep.yaml"), "-o", path("tiltmaze.h5"))
    for shard in ("0/2", "1/2"):
        run("run", os.path.join(fixtures, "good_sweep.yaml"), "-o", path("shard.h5"), "--shard", shard)
    # A run that fails at its fourth task (exit 1) after checkpointing every finished one: it
    # leaves faulty.h5.checkpoint/ and deletes its .partial.
    run("run", os.path.join(fixtures, "faulty_sweep.yaml"), "-o", path("faulty.h5"), expect=1)
    checkpoint = path("faulty.h5.checkpoint")
    if not os.path.isfile(os.path.join(checkpoint, "manifest.h5")):
        raise AssertionError(f"making the inputs: the failed run left no checkpoint in {checkpoint}")
    if os.path.exists(path("faulty.h5.partial")):
        raise AssertionError("making the inputs: the failed run left its .partial file")
    # What a run killed before HDF5 flushed anything leaves: zeros.
    with open(path("faulty.h5.partial"), "wb") as f:
        f.write(bytes(4096))

    # Damaged results and files of other programs and versions.
    shutil.copy(path("good.h5"), path("truncated.h5"))
    truncate(path("truncated.h5"), -1)
    shutil.copy(path("good.h5"), path("header_only.h5"))
    truncate(path("header_only.h5"), 600)
    open(path("empty.h5"), "wb").close()
    with h5py.File(path("foreign.h5"), "w") as f:
        f["data"] = np.arange(10)
        f.attrs["creator"] = "another program"
    # Changed after levelforge sealed them: an attribute added by h5py, one flipped bit.
    shutil.copy(path("good.h5"), path("changed.h5"))
    set_attributes(path("changed.h5"), seal=False, note="added with h5py")
    shutil.copy(path("good.h5"), path("flipped.h5"))
    flip_byte(path("flipped.h5"), os.path.getsize(path("flipped.h5")) // 2)
    shutil.copy(path("tiltmaze.h5"), path("tiltmaze_flipped.h5"))
    flip_byte(path("tiltmaze_flipped.h5"), os.path.getsize(path("tiltmaze_flipped.h5")) - 100)
    shutil.copy(path("shard.shard-1-of-2.h5"), path("shard_flipped.h5"))
    flip_byte(path("shard_flipped.h5"), 4096)
    shutil.copy(path("good.h5"), path("incomplete.h5"))
    set_attributes(path("incomplete.h5"), complete=0)
    shutil.copy(path("good.h5"), path("format_version_99.h5"))
    set_attributes(path("format_version_99.h5"), format_version=99)
    shard = path("shard.shard-1-of-2.h5")
    for name, attributes in (("shard_other_version.h5", {"levelforge_version": "0.0.1"}),
                             ("shard_format_99.h5", {"format_version": 99}),
                             ("shard_incomplete.h5", {"complete": 0})):
        shutil.copy(shard, path(name))
        set_attributes(path(name), **attributes)

    # Damaged checkpoints: each beside its own output name.
    def damaged_checkpoint(output, damage):
        copy = path(output + ".checkpoint")
        shutil.copytree(checkpoint, copy)
        damage(copy)

    damaged_checkpoint("manifest_truncated.h5",
                       lambda d: truncate(os.path.join(d, "manifest.h5"), -1))

    def write_junk(d):
        with open(os.path.join(d, "manifest.h5"), "w") as f:
            f.write("junk\n")

    damaged_checkpoint("manifest_junk.h5", write_junk)
    damaged_checkpoint("manifest_missing.h5", lambda d: os.remove(os.path.join(d, "manifest.h5")))

    def truncate_a_segment(d):
        segments = sorted(n for n in os.listdir(d) if n != "manifest.h5" and n.endswith(".h5"))
        if not segments:
            raise AssertionError(f"making the inputs: no segment in {checkpoint}")
        truncate(os.path.join(d, segments[0]), -1)

    damaged_checkpoint("segment_truncated.h5", truncate_a_segment)

    # Outputs that are not the run's result, beside an intact checkpoint: --resume must keep it.
    damaged_checkpoint("text_output.h5", lambda d: None)
    with open(path("text_output.h5"), "w") as f:
        f.write("the results are in the other folder\n")
    damaged_checkpoint("empty_output.h5", lambda d: None)
    open(path("empty_output.h5"), "w").close()
    # A folder levelforge did not make where a checkpoint would go.
    os.mkdir(path("not_ours.h5.checkpoint"))
    with open(path("not_ours.h5.checkpoint/notes.txt"), "w") as f:
        f.write("my notes\n")


def load_cases():
    with open(os.path.join(CATALOGUE, "cases.yaml")) as f:
        return yaml.safe_load(f)["cases"]


class Catalogue(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="levelforge-bad-inputs-")
        cls.made = os.path.join(cls.dir, "made")
        os.mkdir(cls.made)
        make_files(cls.made)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_catalogue_is_well_formed(self):
        cases = load_cases()
        names = [case["name"] for case in cases]
        self.assertEqual(len(names), len(set(names)), "case names repeat")
        self.assertGreaterEqual(len(cases), 40)
        for case in cases:
            self.assertEqual(set(case) - {"name", "args", "exit", "message", "stream", "outputs", "ranks"}, set(),
                             case["name"])
            self.assertTrue(case["message"], case["name"])

    def test_every_case(self):
        cases = load_cases()
        with concurrent.futures.ThreadPoolExecutor(CONCURRENT_CASES) as pool:
            outcomes = list(pool.map(self.run_case, cases))
        for case, outcome in zip(cases, outcomes):
            with self.subTest(case["name"]):
                self.check_case(case, *outcome)

    def copy_made(self, case, made):
        """The case's own copy, in `made`, of the made files it names as {made}/NAME, each
        with what levelforge keeps beside it (NAME.checkpoint/, NAME.partial); all of them
        for a case that names the folder {made} itself. Copying all 56 files for each of the
        156 cases took 3 s of CPU; a case reads or changes only what it names."""
        texts = [str(text) for text in (*case["args"], *case.get("outputs", []))]
        if any(re.search(r"\{made\}(?!/)", text) for text in texts):
            shutil.copytree(self.made, made, symlinks=True)
            return
        names = {text.split("{made}/", 1)[1].split("/", 1)[0] for text in texts if "{made}/" in text}
        os.mkdir(made)
        for entry in os.listdir(self.made):
            if any(entry == name or entry.startswith(name + ".") for name in names):
                source, copy = os.path.join(self.made, entry), os.path.join(made, entry)
                if os.path.isdir(source) and not os.path.islink(source):
                    shutil.copytree(source, copy, symlinks=True)
                else:
                    shutil.copy2(source, copy, follow_symlinks=False)

    def run_case(self, case):
        """Runs `case` in its own scratch folder; returns what check_case needs."""
        scratch = tempfile.mkdtemp(dir=self.dir, prefix=case["name"] + "-")
        made = os.path.join(scratch, "made")
        self.copy_made(case, made)
        out = os.path.join(scratch, "out.h5")
        fifo = os.path.join(scratch, "named-pipe.h5")
        big = os.path.join(scratch, "big.yaml")
        if any("{fifo}" in str(arg) for arg in case["args"]):
            os.mkfifo(fifo)
        if any("{big}" in str(arg) for arg in case["args"]):
            with open(big, "wb") as f:
                f.truncate(17 << 20)  # sparse: costs no disk

        def expand(text):
            return (str(text).replace("{out}", out).replace("{made}", made)
                    .replace("{fifo}", fifo).replace("{big}", big))

        args = [expand(arg) for arg in case["args"]]
        result, hung = run_ended(mpi_command(*args, ranks=case.get("ranks", CASE_RANKS)), CATALOGUE)
        outputs = [expand(path) for path in case.get("outputs", [])]
        if any("{out}" in str(arg) for arg in case["args"]):
            outputs.append(out)
        # Looked at now, while the scratch folder exists.
        complete = [candidate for output in outputs for candidate in (output, output + ".partial")
                    if looks_complete(candidate)]
        shutil.rmtree(scratch, ignore_errors=True)
        return f"levelforge {' '.join(args)}", expand(case["message"]), result, hung, complete

    def check_case(self, case, described, message, result, hung, complete):
        self.assertIsNone(hung, f"{described}: {hung}")
        stream = result.stdout if case.get("stream") == "stdout" else result.stderr
        self.assertEqual(result.returncode, case["exit"],
                         f"{described}: exit code\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        self.assertIn(message, stream,
                      f"{described}: message\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        self.assertEqual(complete, [], f"{described}: left output files marked complete")


if __name__ == "__main__":
    unittest.main()
