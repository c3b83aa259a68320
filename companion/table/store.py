"""The store: one SQLite file holding games, their records, tag enrolment and settings.

Durability is the point. Every accepted action is committed, in a transaction
of its own, before any view shows its effect; the file is in WAL mode with
``synchronous=FULL``, so a returned commit survives a crash or a power cut.
Action numbers must be consecutive, so an action can be neither lost silently
nor stored twice.

Schema (``PRAGMA user_version`` = :data:`SCHEMA_VERSION`, ``PRAGMA
application_id`` = :data:`APPLICATION_ID` marks the file as ours)::

    games(id INTEGER PRIMARY KEY, edition, seats JSON, setup JSON (the record's setup line),
          settings JSON, status 'playing'|'finished'|'abandoned', winner, created, updated)
    actions(game_id, number, line, PRIMARY KEY(game_id, number))  -- number 1 follows the setup
    tags(edition, uid, kind, name, enrolled, PRIMARY KEY(edition, uid))  -- enrolled: order
    settings(key PRIMARY KEY, value)

Timestamps are UTC ISO 8601 text.

>>> from companion.rules.actions import Roll, Setup
>>> with Store(":memory:") as store:
...     game = store.new_game(Setup("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White")), {})
...     store.append(game, 1, Roll("Miss Scarlet", (4,)))
...     store.record(game)[1]
'{"type": "roll", "seat": "Miss Scarlet", "dice": [4]}'
"""

from __future__ import annotations

import json
import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from companion.record.lines import parse_action, parse_setup
from companion.rules.actions import Action, Setup
from companion.rules.errors import BadInput, ClueError

from .tags import KINDS, Piece, TagError, TagMap, normal_uid

SCHEMA_VERSION = 1
APPLICATION_ID = 0x436C7565  # "Clue" in ASCII
STATUSES = ("playing", "finished", "abandoned")

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    edition TEXT NOT NULL,
    seats TEXT NOT NULL,
    setup TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    winner TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL CHECK (number >= 1),
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
) WITHOUT ROWID;
CREATE TABLE tags (
    edition TEXT NOT NULL,
    uid TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('card', 'mover', 'weapon')),
    name TEXT NOT NULL,
    enrolled INTEGER NOT NULL,
    PRIMARY KEY (edition, uid)
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(ClueError, OSError):
    """The store cannot do it: not a companion database, corrupt, or an action out of order."""

    code = "store"


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the store lives: ``$CLUE_COMPANION_DB``, else under ``$XDG_DATA_HOME``.

    ``environ`` defaults to the process environment.

    >>> default_path({"XDG_DATA_HOME": "/data"})
    PosixPath('/data/clue-companion/companion.db')
    >>> default_path({"CLUE_COMPANION_DB": "/tmp/clue.db", "XDG_DATA_HOME": "/data"})
    PosixPath('/tmp/clue.db')
    """
    env = os.environ if environ is None else environ
    chosen = env.get("CLUE_COMPANION_DB")
    if chosen:
        return Path(chosen)
    data = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "clue-companion" / "companion.db"


@dataclass(frozen=True)
class GameSummary:
    """One stored game, without its record."""

    id: int
    edition: str
    seats: tuple[str, ...]
    status: str  # "playing", "finished" or "abandoned"
    winner: str | None
    actions: int  # committed actions after the setup line
    created: str
    updated: str
    settings: dict[str, str] = field(hash=False)


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Store:
    """The companion's SQLite file. ``Store(path)`` does nothing until :meth:`open`.

    Use from one thread at a time; it may be opened in another thread than
    the one that uses it.
    """

    def __init__(self, path: str | Path, clock: Callable[[], datetime] = _utc_now, exclusive: bool = True) -> None:
        self.path = str(path)
        self.exclusive = exclusive  # False: an observer (a test, a report) beside the companion that holds it
        self._clock = clock
        self._db: sqlite3.Connection | None = None
        self._lock: int | None = None  # the descriptor holding the store's lock file while it is open

    # -- opening and closing --

    def open(self) -> Self:
        """Open (creating the file, its folder and the schema if new); return the store."""
        if self._db is not None:
            return self
        if self.path != ":memory:":
            _private_file(Path(self.path))
            self._lock = _exclusive(Path(self.path)) if self.exclusive else None
        try:
            # Autocommit: transactions are explicit (see _write).
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            self._unlock()
            raise StoreError(f"cannot open the store {self.path}: {err}") from None
        try:
            _prepare(db, self.path)
        except BaseException:
            db.close()
            self._unlock()
            raise
        self._db = db
        return self

    def close(self) -> None:
        """Close the file; everything committed is already on disk."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the lock
            self._lock = None

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # -- games --

    def new_game(self, setup: Setup, settings: Mapping[str, str]) -> int:
        """Store a new game (status "playing") from its setup; its id."""
        now = self._now()
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO games (edition, seats, setup, settings, status, created, updated)"
                " VALUES (?, ?, ?, ?, 'playing', ?, ?)",
                (setup.edition, json.dumps(list(setup.seats)), json.dumps(setup.to_record()),
                 json.dumps(dict(settings)), now, now),
            )
            return int(cursor.lastrowid or 0)

    def append(self, game_id: int, number: int, action: Action) -> None:
        """Commit ``action`` as number ``number`` of the game (1 is the first after setup).

        Numbers are consecutive: one already stored, or one leaving a gap, is a
        :class:`StoreError`. Returns once the action is durable.
        """
        with self._write() as db:
            status, count = self._status(db, game_id)
            if status != "playing":
                raise StoreError(f"game {game_id} is {status}: no more actions may be added")
            if number != count + 1:
                held = f"actions 1 to {count}" if count else "no actions"
                raise StoreError(f"game {game_id} has {held}; the next must be number {count + 1}, not {number}")
            db.execute("INSERT INTO actions (game_id, number, line) VALUES (?, ?, ?)",
                       (game_id, number, json.dumps(action.to_record())))
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (self._now(), game_id))

    def finish(self, game_id: int, status: str = "finished", winner: str | None = None) -> None:
        """Mark a game under way "finished" (with its winner, if any) or "abandoned"."""
        if status not in STATUSES[1:]:
            raise BadInput(f"a game ends 'finished' or 'abandoned', not {status!r}")
        with self._write() as db:
            now, _ = self._status(db, game_id)
            if now != "playing":
                raise StoreError(f"game {game_id} is already {now}")
            db.execute("UPDATE games SET status = ?, winner = ?, updated = ? WHERE id = ?",
                       (status, winner, self._now(), game_id))

    def game(self, game_id: int) -> GameSummary:
        """One game's summary, or :class:`StoreError` if there is no such game."""
        found = self.find(game_id)
        if found is None:
            raise StoreError(f"there is no game {game_id} in the store")
        return found

    def find(self, game_id: int) -> GameSummary | None:
        """One game's summary, or None if there is no such game."""
        rows = self._summaries("WHERE g.id = ?", (game_id,))
        return rows[0] if rows else None

    def games(self) -> list[GameSummary]:
        """Every stored game, newest first."""
        return self._summaries("", ())

    def unfinished(self) -> list[GameSummary]:
        """The games still "playing" (interrupted ones, after a crash), newest first."""
        return self._summaries("WHERE g.status = 'playing'", ())

    def record(self, game_id: int) -> list[str]:
        """The game record as JSON Lines (no newlines): the setup line, then each action.

        Exactly what ``clue-companion replay`` reads: write them out one per line
        to export a game.
        """
        db = self._connection()
        with self._reading():
            row = db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in the store")
            lines = db.execute("SELECT line FROM actions WHERE game_id = ? ORDER BY number", (game_id,))
            return [str(row[0])] + [str(line) for (line,) in lines]

    def load(self, game_id: int) -> tuple[Setup, list[Action], dict[str, str]]:
        """The game's setup, its actions in order, and its settings, parsed."""
        lines = self.record(game_id)
        try:
            setup = parse_setup(lines[0])
        except ClueError as err:
            raise StoreError(f"game {game_id} in {self.path}: the stored setup is unreadable: {err}") from None
        actions: list[Action] = []
        for number, line in enumerate(lines[1:], start=1):
            try:
                actions.append(parse_action(line))
            except ClueError as err:
                raise StoreError(f"game {game_id} in {self.path}: stored action {number} is unreadable: {err}") from None
        return setup, actions, self.game(game_id).settings

    # -- tags --

    def enrol(self, edition: str, uid: str, piece: Piece) -> None:
        """Enrol tag ``uid`` as ``piece`` in ``edition``; the same pair again changes nothing.

        A piece may have several tags (spares); a tag already standing for a
        different piece is a :class:`~companion.table.tags.TagError`.
        """
        uid = _checked_uid(uid)
        if piece.kind not in KINDS:
            raise TagError(f"a piece is a {', '.join(KINDS)}, not a {piece.kind!r}")
        with self._write() as db:
            row = db.execute("SELECT kind, name FROM tags WHERE edition = ? AND uid = ?", (edition, uid)).fetchone()
            if row is not None:
                held = _piece(str(row[0]), str(row[1]))
                if held == piece:
                    return
                raise TagError(f"tag {uid} is already {held.describe()}; re-enrol it first")
            (last,) = db.execute("SELECT COALESCE(MAX(enrolled), 0) FROM tags WHERE edition = ?", (edition,)).fetchone()
            db.execute("INSERT INTO tags (edition, uid, kind, name, enrolled) VALUES (?, ?, ?, ?, ?)",
                       (edition, uid, piece.kind, piece.name, int(last) + 1))

    def forget(self, edition: str, uid: str) -> Piece | None:
        """Drop one tag; the piece it stood for, or None if it was not enrolled."""
        uid = normal_uid(uid)
        with self._write() as db:
            row = db.execute("SELECT kind, name FROM tags WHERE edition = ? AND uid = ?", (edition, uid)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM tags WHERE edition = ? AND uid = ?", (edition, uid))
            return _piece(str(row[0]), str(row[1]))

    def forget_piece(self, edition: str, piece: Piece) -> list[str]:
        """Drop every tag of ``piece`` (before re-enrolling it); their UIDs, first enrolled first."""
        where = "WHERE edition = ? AND kind = ? AND name = ?"
        with self._write() as db:
            uids = [str(uid) for (uid,) in db.execute(
                f"SELECT uid FROM tags {where} ORDER BY enrolled", (edition, piece.kind, piece.name))]
            db.execute(f"DELETE FROM tags {where}", (edition, piece.kind, piece.name))
            return uids

    def tag_map(self, edition: str) -> TagMap:
        """Every tag enrolled for ``edition``, first enrolled first."""
        db = self._connection()
        with self._reading():
            rows = db.execute("SELECT uid, kind, name FROM tags WHERE edition = ? ORDER BY enrolled",
                              (edition,)).fetchall()
        return TagMap({str(uid): _piece(str(kind), str(name)) for uid, kind, name in rows})

    # -- settings --

    def setting(self, key: str, default: str | None = None) -> str | None:
        """A stored setting, or ``default``."""
        db = self._connection()
        with self._reading():
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        """Store (or replace) a setting."""
        with self._write() as db:
            db.execute("INSERT INTO settings (key, value) VALUES (?, ?)"
                       " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # -- internals --

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"the store {self.path} is not open; call open() first")
        return self._db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed (durably) on leaving, rolled back on any error."""
        db = self._connection()
        with self._reading():
            # IMMEDIATE: take the write lock now, so the checks inside see what gets written.
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:  # SQLite may have rolled back by itself (disk full)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """SQLite's own errors (disk full, I/O error, corruption) as :class:`StoreError`."""
        try:
            yield
        except sqlite3.Error as err:
            raise StoreError(f"the store {self.path} failed: {err}") from None

    def _status(self, db: sqlite3.Connection, game_id: int) -> tuple[str, int]:
        row = db.execute("SELECT g.status, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
                         " FROM games g WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id} in the store")
        return str(row[0]), int(row[1])

    def _summaries(self, where: str, args: tuple[Any, ...]) -> list[GameSummary]:
        db = self._connection()
        with self._reading():
            rows = db.execute(
                "SELECT g.id, g.edition, g.seats, g.status, g.winner,"
                " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id), g.created, g.updated, g.settings"
                f" FROM games g {where} ORDER BY g.id DESC", args).fetchall()
        return [GameSummary(int(row[0]), str(row[1]), tuple(json.loads(row[2])), str(row[3]), row[4],
                            int(row[5]), str(row[6]), str(row[7]), dict(json.loads(row[8]))) for row in rows]

    def _now(self) -> str:
        return self._clock().astimezone(timezone.utc).isoformat(timespec="seconds")


def _private_file(path: Path) -> None:
    """Make the store's file (and a folder made for it) readable by its owner only, before SQLite opens it.

    The store holds the cookie-signing key, the join tokens, the host PIN and
    each game's seed (which gives every hand). SQLite gives its -wal and -shm
    files the database file's mode, so they follow.
    """
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        raise StoreError(f"cannot make the folder for the store {path}: {err.strerror}") from None
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            if name.exists() and name.stat().st_uid == os.getuid() and name.stat().st_mode & 0o077:
                name.chmod(0o600)  # a store made by an older version was world-readable
    except OSError as err:
        raise StoreError(f"cannot open the store {path}: {err.strerror}") from None


def _exclusive(path: Path) -> int:
    """Lock ``path``'s lock file for this process alone, or :class:`StoreError` naming the holder.

    Two companions on one store would both resume the same game and then refuse
    each other's actions. The lock is ``flock`` on a file beside the store (never
    the database itself: closing any descriptor of it would drop SQLite's own
    locks); the kernel releases it when the process ends, even when killed.
    """
    lock_path = Path(f"{path}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as err:
        raise StoreError(f"cannot open the store's lock file {lock_path}: {err.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 32).decode(errors="replace").strip() or "another"
        os.close(fd)
        raise StoreError(f"the store {path} is in use by process {holder}") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _prepare(db: sqlite3.Connection, path: str) -> None:
    """Check the file is a companion database (or new), then set it up for durability."""
    try:
        (application,) = db.execute("PRAGMA application_id").fetchone()
        (version,) = db.execute("PRAGMA user_version").fetchone()
        (tables,) = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        if application != APPLICATION_ID and (application != 0 or tables):
            raise StoreError(f"{path} is not a clue-companion database")
        if application == APPLICATION_ID and version > SCHEMA_VERSION:
            raise StoreError(f"{path} was written by a newer clue-companion (schema {version}, this one knows "
                             f"up to {SCHEMA_VERSION})")
        (check,) = db.execute("PRAGMA quick_check").fetchone()
        if check != "ok":
            raise StoreError(f"{path} is damaged: {check}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a returned COMMIT is on disk, even after a power cut
        db.execute("PRAGMA foreign_keys=ON")
        if not tables:
            db.executescript(f"BEGIN; {SCHEMA} PRAGMA application_id={APPLICATION_ID};"
                             f" PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
    except sqlite3.Error as err:
        raise StoreError(f"{path} is not a usable clue-companion database: {err}") from None


def _checked_uid(uid: str) -> str:
    normal = normal_uid(uid)
    if not normal:
        raise TagError(f"a tag UID is hex pairs like 04:A2:1B:3C, not {uid!r}")
    return normal


def _piece(kind: str, name: str) -> Piece:
    for known in KINDS:
        if kind == known:
            return Piece(known, name)
    raise StoreError(f"a stored tag has unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
