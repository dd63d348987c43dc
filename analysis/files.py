"""Paths looked at before they are opened, and files written whole or not at all.

Opening a FIFO waits for a writer, forever if none comes, and a device (/dev/zero) reads
without end, so every path the package reads is first looked at with stat, as levelforge's
own readers do (runner/files/input_file.cpp), and only a regular file is opened. Every file
it writes goes to a temporary name in its own folder and is renamed into place once complete:
a failed write (a full disk, a read-only folder) leaves nothing that looks complete.
"""

import errno
import os
import secrets
import shutil
import stat
import sys

# What a path names, in the words of levelforge's messages ("is a FIFO (named pipe), not ...").
KINDS = {stat.S_IFREG: "a regular file", stat.S_IFDIR: "a directory",
         stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device",
         stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket"}


class OutputError(Exception):
    """An output refused before anything was written: a folder that cannot be created or
    written into, a path that is not a regular file, an export folder holding another run's
    files. `python3 -m analysis` exits 2, as levelforge does for an output it refuses."""


class WriteError(OSError):
    """Writing an output failed once it had begun (a full disk, an I/O error); the temporary
    file is gone and the previous file, if any, unchanged. `python3 -m analysis` exits 1, as
    levelforge does for a write that fails while running."""

    def __str__(self):
        return self.strerror


def kind(mode):
    """'a regular file', 'a FIFO (named pipe)', ...: what a stat mode says a path is."""
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def special_kind(path):
    """What `path` (a symbolic link followed) is when it is there but neither a regular file
    nor a folder: 'a FIFO (named pipe)', 'a character device', ...; else None (also when it
    cannot be looked at). Opening one would wait for a writer, never end, or (a device) act."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else kind(mode)


def problem(path, expected, folder=False):
    """None when `path` (a symbolic link followed) is a regular file (`folder`: a folder); else
    why not, as the rest of a sentence that starts with the path: 'does not exist', 'is a
    symbolic link to X, which does not exist', 'is a FIFO (named pipe), not EXPECTED',
    'cannot be read: Permission denied'. Only stat is used: nothing is opened, so nothing
    blocks."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            return f"is a symbolic link to {_link_target(path)}, which does not exist"
        return "does not exist"
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if (stat.S_ISDIR if folder else stat.S_ISREG)(mode):
        return None
    return f"is {kind(mode)}, not {expected}"


def _link_target(path):
    try:
        return os.readlink(path)
    except OSError:
        return "a path that cannot be read"


class NotRegularFile(OSError):
    """`open_regular` found something else than a regular file; `kind` says what."""

    def __init__(self, path, what):
        super().__init__(errno.EINVAL, f"{path} is {what}, not a regular file")
        self.kind = what


def open_regular(path):
    """`path` opened for reading as a binary file object, or OSError: NotRegularFile when what
    was opened is not a regular file (a path replaced since it was looked at). O_NONBLOCK:
    opening a FIFO returns at once instead of waiting for a writer."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, kind(mode))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def output_folder(folder, what):
    """Creates `folder` (and its parents) unless it is there; OutputError when it cannot be,
    or is something else than a folder. `what` names it in the message ('the export folder')."""
    found = problem(folder, "a folder", folder=True)
    if found is None:
        return
    if found.startswith("is "):  # something else, or a dangling symbolic link
        raise OutputError(f"{what} {folder} {found}")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{what} {folder} cannot be created: {error.strerror or error}") from None


def standard_stream(path):
    """sys.stdout for '-' or a path naming this process's standard output (/dev/stdout, the
    file it is redirected to), likewise sys.stderr; else None. Such a path is written as the
    stream it is: renaming a new file over it would cut it off from the output."""
    if path == "-":
        return sys.stdout
    try:
        info = os.stat(path)
    except OSError:
        return None
    for stream, fd in ((sys.stdout, 1), (sys.stderr, 2)):
        try:
            if os.path.samestat(info, os.fstat(fd)):
                return stream
        except OSError:
            continue
    return None


def output_file(path, what):
    """The path to write `path` at (a symbolic link followed to the file it names, which is
    replaced, not the link); OutputError when `path` is there but not a regular file (a
    folder, a FIFO, a device: renaming over it would replace it) or its folder is missing or
    not a folder."""
    target = os.path.realpath(path)
    found = problem(target, "a regular file")
    if found is not None and found != "does not exist":
        raise OutputError(f"{what} {path} {found}")
    folder = os.path.dirname(target)
    found = problem(folder, "a folder", folder=True)
    if found is not None:
        raise OutputError(f"{what} {path}: its folder {folder} {found}")
    return target


def _temporary(path):
    """A new, empty file beside `path` with a hidden, unused name; its mode is 0666 less the
    umask, as for a file opened plainly. OutputError when the folder cannot be written into
    (a read-only file system, no permission): nothing has been written yet."""
    folder, name = os.path.split(path)
    for _ in range(100):
        temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
            return temporary
        except FileExistsError:
            continue
        except OSError as error:
            raise OutputError(f"cannot write into {folder or '.'}: {error.strerror or error}") from None
    raise OutputError(f"cannot write into {folder or '.'}: no unused temporary name")


def failure(error, path):
    """WriteError for `error` (an OSError) raised while writing `path`: its reason, and for a
    full disk how much room is left there. A WriteError is returned as it is."""
    if isinstance(error, WriteError):
        return error
    reason = error.strerror or str(error)
    folder = os.path.dirname(path) or "."
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = None
    # A library (netCDF: "HDF error") may not say that the disk is full; the free space does.
    if error.errno in (errno.ENOSPC, errno.EDQUOT) or free == 0:
        reason += f" (the file system of {folder} is full: {free} bytes free)"
    return WriteError(error.errno or errno.EIO, f"writing {path}: {reason}")


def stage(path, write):
    """Calls `write(temporary)` with the path of a new temporary file beside `path` (the final
    name: the temporary is what a later rename turns into it); returns the temporary, complete
    and on disk (fsync). Any failure removes it: OSError becomes WriteError."""
    temporary = _temporary(path)
    try:
        write(temporary)
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
    except OSError as error:
        # The free space is looked at before the temporary goes: its size is what filled it.
        failed = failure(error, path)
        discard(temporary)
        raise failed from None
    except BaseException:
        discard(temporary)
        raise
    return temporary


def discard(*paths):
    """Removes `paths` (temporary files), those already gone or unremovable left alone."""
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


def install(temporary, path):
    """Renames the complete `temporary` to `path`: the file at `path`, if any, is replaced
    whole, never left half-written. WriteError when the rename fails (the temporary removed)."""
    try:
        os.replace(temporary, path)
    except OSError as error:
        discard(temporary)
        raise failure(error, path) from None


def write_whole(path, write):
    """`write(temporary)` staged beside `path` and renamed to it: `path` is either the complete
    new file or what it was before."""
    install(stage(path, write), path)
