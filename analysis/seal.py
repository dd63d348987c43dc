"""The levelforge seal (docs/hdf5-layout.md, "The seal"): the first 512 bytes of every file
levelforge writes hold a text, the byte count of the rest and its XXH3-64. `verify(path)`
checks it before h5py reads a byte, as levelforge's own readers do: a file cut short,
damaged or changed after levelforge wrote it is refused, not read as results."""

import os

import xxhash

from . import files

BLOCK = 512
TEXT = b"levelforge seal xxh3-64\n"
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"


class SealError(Exception):
    """The file does not carry a levelforge seal that matches its bytes; the message says how."""


def block_for(rest):
    """The seal block of a file whose bytes after the block are `rest`."""
    return (TEXT + len(rest).to_bytes(8, "little") +
            xxhash.xxh3_64_intdigest(rest).to_bytes(8, "little")).ljust(BLOCK, b"\0")


def verify(path):
    """Raises SealError unless the file at `path` carries a matching levelforge seal (OSError
    when it cannot be opened). A FIFO or a device is refused without being opened: opening
    one would wait for a writer, read without end or make the device act."""
    special = files.special_kind(path)
    if special is not None:
        raise SealError(f"{path} is {special}, not a levelforge file")
    try:
        f = files.open_regular(path)
    except files.NotRegularFile as error:
        raise SealError(f"{path} is {error.kind}, not a levelforge file") from None
    with f:
        block = f.read(BLOCK)
        if not block.startswith(TEXT):
            if block.startswith(HDF5_SIGNATURE):
                raise SealError(f"{path}: no levelforge seal: written by another program, or by a "
                                f"levelforge that did not seal its files yet")
            if len(block) == BLOCK and block == b"\0" * BLOCK:
                raise SealError(f"{path}: no levelforge seal: levelforge did not finish writing it")
            raise SealError(f"{path} is not an HDF5 file written by levelforge (no seal, no HDF5 "
                            f"signature)")
        count = int.from_bytes(block[len(TEXT):len(TEXT) + 8], "little")
        checksum = int.from_bytes(block[len(TEXT) + 8:len(TEXT) + 16], "little")
        size = os.fstat(f.fileno()).st_size
        if size != count + BLOCK:
            how = (", past the file's end (cut short, or its seal damaged)" if count + BLOCK > size
                   else " (extended by another program, or its seal damaged)")
            raise SealError(f"{path}: changed after levelforge wrote it: {size} bytes, sealed at "
                            f"{count + BLOCK}{how}")
        state = xxhash.xxh3_64()
        for piece in iter(lambda: f.read(1 << 20), b""):
            state.update(piece)
        if state.intdigest() != checksum:
            raise SealError(f"{path}: changed after levelforge wrote it: its bytes no longer match "
                            f"the XXH3-64 checksum in its seal (damaged, or edited by another "
                            f"program)")
