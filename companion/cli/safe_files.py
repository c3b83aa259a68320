"""Writing a file so that a power cut leaves the old one or the new one, never half of either.

The text goes to a temporary file beside the target, is flushed to the card
(fsync), and is renamed over the target, whose directory is then flushed too
(rename(2) replaces the name at once; fsync(2) on the directory keeps the new
name after a power cut). On the boot partition's FAT the rename is not one step
on the card, but the old file is still whole until it happens.
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_READ = 256 * 1024  # the files written here are small; a larger one is not ours


def write_atomically(path: Path, data: bytes, mode: int, owner: tuple[int, int] | None = None) -> None:
    """Replace ``path`` with ``data`` (``mode``; ``owner``: uid and gid, None: the writer's)."""
    temporary = path.with_name(f".{path.name}.new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            if owner is not None and owner != (os.fstat(fd).st_uid, os.fstat(fd).st_gid):
                os.fchown(fd, *owner)
            os.fchmod(fd, mode)  # past the umask
            handle.write(data)
            handle.flush()
            os.fsync(fd)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_directory(path.parent)


def sync_directory(folder: Path) -> None:
    """fsync ``folder`` so a rename or removal in it lasts; a file system that cannot (FAT) is let be."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # EINVAL: not supported there
    finally:
        os.close(fd)


def read_bounded(path: Path, most: int = MAX_READ) -> bytes:
    """``path``'s bytes; ValueError past ``most`` bytes (OSError as open raises it)."""
    with path.open("rb") as handle:
        data = handle.read(most + 1)
    if len(data) > most:
        raise ValueError(f"{path} is larger than {most // 1024} KiB")
    return data
