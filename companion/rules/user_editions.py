"""User editions: every edition listed with its source, and saving one as ``ID.toml`` and ``ID.txt``.

The folder is ``<folder of the game store>/editions`` (``companion.cli.where``
finds the store); ``load_edition`` reads it through ``$CLUE_COMPANION_EDITIONS``.
Each file is written whole to a temporary name and renamed over the old one,
so a reader (a game starting) never sees half a file. An id equal
to a bundled edition's saves a *correction*, which replaces the bundled
edition on this companion; the bundled files themselves are never written.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .edition import ID_PATTERN, bundled_ids, load_edition, user_file, user_ids
from .edition_files import EditionFiles, load_files
from .errors import BadInput, ClueError, EditionError

FILE_MODE = 0o644  # editions are not secret: the web server and the CLI's user both read them
FOLDER_MODE = 0o755


class SaveError(BadInput):
    """The editions folder cannot be written (permissions, a full disk): one line saying which and why."""


@dataclass(frozen=True)
class EditionEntry:
    """One edition as a list shows it: where it comes from, and what is wrong with it if it does not load."""

    id: str
    name: str
    source: str  # "bundled", "yours" or "correction"
    base: str | None
    path: str
    problem: str | None = None


def list_editions() -> tuple[EditionEntry, ...]:
    """Every edition a game may use, by id: bundled ones (or their corrections), then the user's own.

    A user file that does not load is listed with its problem rather than hiding the rest.
    """
    entries = []
    for edition_id in (*bundled_ids(), *(i for i in user_ids() if i not in bundled_ids())):
        try:
            edition = load_edition(edition_id)
        except ClueError as err:
            source = "correction" if edition_id in bundled_ids() else "yours"
            entries.append(EditionEntry(edition_id, edition_id, source, None, str(user_file(edition_id)), str(err)))
            continue
        entries.append(EditionEntry(edition.id, edition.name, edition.source, edition.base, edition.path))
    return tuple(entries)


def editions_folder(store: Path) -> Path:
    """The user editions folder of a game store file."""
    return store.parent / "editions"


def save_files(folder: Path, files: EditionFiles) -> Path:
    """Write ``files`` into ``folder`` (made if need be) and return the TOML's path.

    The files are checked first (``load_edition`` must accept what is saved).
    Saving over a user edition of the same id replaces it.
    """
    if not ID_PATTERN.fullmatch(files.id):
        raise BadInput(f"edition id {files.id!r}: use 1 to 40 of a-z, 0-9 and _")
    try:
        load_files(files)
    except EditionError as err:
        raise BadInput(f"not saved: {err.problem}") from None
    try:
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        _write_atomic(folder / f"{files.id}.txt", files.map)
        path = folder / f"{files.id}.toml"
        _write_atomic(path, files.toml)
    except OSError as err:
        raise SaveError(f"cannot save into {folder}: {err.strerror or err}") from None
    return path


def is_correction(edition_id: str) -> bool:
    """Saving ``edition_id`` replaces a bundled edition on this companion (by design: same id, same game)."""
    return edition_id in bundled_ids()


def _write_atomic(path: Path, text: str) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, FILE_MODE)  # mkstemp makes 0600
        # rename(2): "If newpath already exists, it will be atomically replaced, so that there is
        # no point at which another process attempting to access newpath will find it missing."
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
