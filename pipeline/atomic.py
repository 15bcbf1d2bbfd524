"""Files that appear whole or not at all: written beside their target and renamed into place.

Readers see the old file or the whole new one, also after ``kill -9``; with ``durable`` the
content is also fsynced (it survives a power cut). ``tempfile.mkstemp`` makes private (0600)
files; the renamed file gets the permissions an ordinary ``open()`` would give it (0666 less the
umask), so outputs and datasets can be shared like any other file.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that wants a file name (Parquet, DocBin …);
    renamed onto ``path`` when the block ends without error, removed otherwise."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, _default_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_file(path: Path, durable: bool = True) -> Iterator[TextIO]:
    """A UTF-8 text handle whose content replaces ``path`` when the block ends without error."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        yield fh
        if durable:
            fh.flush()
            os.fsync(fh.fileno())
