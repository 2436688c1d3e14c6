"""Compressed logs: a capture shared as ``logcat.txt.gz`` (or ``.bz2``, ``.xz``) is read as the
text it holds, told by its first bytes, not its name. The standard library decompresses it as it
is read (memory stays flat). A file that ends early -- an interrupted download, a cut
attachment -- is read up to there and then said to be so (:attr:`Decompressed.cut`), as a log
cut mid-table is; data that fails to decompress or its checksum is an error, since where the
damage began is not known (garbled text before it would be read as a log). Formats the standard
library cannot read (zstd) and archives (zip: which member?) get a one-line error saying how to
unpack them.

Contract: :func:`compression_of` names the format of a head of bytes (None: not compressed),
from :data:`FIRST_BYTES`;
:class:`Decompressed` reads a file of one of :data:`READ` with the ``read``/``read1`` of a binary
file; :func:`unreadable` is the error for the others, and for compressed data on a pipe.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from rknnprof.errors import InputError

_BZIP2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")
"""bzip2's first block magic (data) or end-of-stream magic (an empty file)."""
FIRST_BYTES: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    *(
        (b"BZh" + bytes([size]) + block, "bzip2")
        for size in b"123456789"
        for block in _BZIP2_BLOCKS
    ),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"PK\x03\x04", "zip"),
)
"""Each format's first bytes; bzip2's with its block size digit and first block's magic, since
``BZh`` alone could begin a line of text."""
READ = frozenset({"gzip", "bzip2", "xz"})
"""The formats read as they are (the standard library's)."""
_CAT = {"gzip": "zcat", "bzip2": "bzcat", "xz": "xzcat", "zstd": "zstdcat", "zip": "unzip -p"}


def unreadable(kind: str, piped: bool) -> str:
    """The one-line error for a compressed input not read here: a format the standard library
    does not read, an archive, or compressed data on a pipe (``piped``)."""
    cat = _CAT[kind]
    if piped:
        return (
            f"{kind}-compressed input: decompress it into the pipe "
            f"({cat} FILE | rknnprof analyze -)"
        )
    if kind == "zip":
        return (
            "a zip archive: extract the log first (unzip FILE), or pipe it "
            "(unzip -p FILE LOG | rknnprof analyze -)"
        )
    return (
        f"{kind}-compressed: decompress it first ({kind} -d FILE), or pipe it "
        f"({cat} FILE | rknnprof analyze -)"
    )


def may_be_compressed(head: bytes) -> bool:
    """Whether ``head`` is too short to tell: a proper prefix of some format's first bytes (the
    reader reads on until it can tell, so that how the input arrives never changes the
    answer)."""
    return any(len(head) < len(first) and first.startswith(head) for first, _ in FIRST_BYTES)


def compression_of(head: bytes) -> str | None:
    """The format whose first bytes ``head`` starts with, or None."""
    return next((kind for first, kind in FIRST_BYTES if head.startswith(first)), None)


class Decompressed:
    """A compressed binary file read as the bytes it holds. A stream that ends before its end
    marker ends there (:attr:`cut` says so); damaged data raises :class:`InputError`."""

    def __init__(self, raw: BinaryIO, kind: str) -> None:
        import zlib

        self.kind = kind
        self.cut: str | None = None
        """Why the data ended early (None: it ended where it should)."""
        self.given = 0
        """Bytes of text given so far."""
        self._file: BinaryIO
        if kind == "gzip":
            import gzip

            self._file = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]  # a binary file
            self._damage: tuple[type[Exception], ...] = (zlib.error, gzip.BadGzipFile)
        elif kind == "bzip2":
            import bz2

            self._file = bz2.BZ2File(raw)  # type: ignore[assignment]  # a binary file
            self._damage = (OSError,)  # "Invalid data stream"
        elif kind == "xz":
            import lzma

            self._file = lzma.LZMAFile(raw)  # type: ignore[assignment]  # a binary file
            self._damage = (lzma.LZMAError,)
        else:
            raise ValueError(f"not read here: {kind}")

    def read1(self, size: int = -1) -> bytes:
        return self._read(self._file.read1, size)  # type: ignore[attr-defined]  # each has read1

    def read(self, size: int = -1) -> bytes:
        return self._read(self._file.read, size)

    def _read(self, method: Callable[[int], bytes], size: int) -> bytes:
        if self.cut is not None:
            return b""
        try:
            data = method(size)
        except EOFError:  # cut short: the text before the cut decompressed as it should
            self.cut = f"the {self.kind} data ends before its end marker"
            return b""
        except self._damage as e:  # where the damage began is not known: no text is trusted
            raise InputError(
                f"the {self.kind} data is damaged ({e}) after {self.given:,} bytes of text: "
                "get the file again"
            ) from None
        self.given += len(data)
        return data


def read_start(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the text of the file at ``path``, decompressed when it is a
    gzip, bzip2 or xz file (a saved report, read whole or sniffed). :class:`OSError` when it
    cannot be read; :class:`InputError` when its compressed data is damaged; data cut short
    gives what came before the cut."""
    with open(path, "rb") as f:
        kind = compression_of_file(f)
        if kind not in READ:
            return f.read(limit)
        text = Decompressed(f, kind)
        parts, size = [], 0
        while size < limit:
            part = text.read(limit - size)
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts)


def compression_of_file(f: BinaryIO) -> str | None:
    """The compression of an open regular file with bytes in it, told by its first bytes. A
    device, FIFO or ``/proc`` file is not peeked at: reading ahead could change how it reads
    (compressed data there meets the reader's own check of its first bytes)."""
    import os
    import stat

    try:
        status = os.fstat(f.fileno())
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size == 0:
        return None
    return compression_of(f.peek(16)[:16])  # type: ignore[attr-defined]  # open(..., "rb")
