"""What the board link tells the rest of the companion: plain, typed events.

Each event turns into the JSON line ``board-monitor`` prints.

>>> TagPlaced(reader=3, uid="04:A2:1B:3C").as_dict()
{'event': 'placed', 'reader': 3, 'uid': '04:A2:1B:3C'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class BoardInfo:
    """What a board said about itself in its HELLO (kept up to date by READERS)."""

    port: str
    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    readers: int
    working: frozenset[int]
    board_id: str | None = None  # the Pico's machine.unique_id() in hex; None from a protocol 1.0 board

    @property
    def failed(self) -> frozenset[int]:
        return frozenset(range(self.readers)) - self.working


@dataclass(frozen=True)
class TagPlaced:
    """A tag has stood on a reader for the settle time."""

    reader: int
    uid: str

    def as_dict(self) -> dict[str, Any]:
        return {"event": "placed", "reader": self.reader, "uid": self.uid}


@dataclass(frozen=True)
class TagRemoved:
    reader: int
    uid: str

    def as_dict(self) -> dict[str, Any]:
        return {"event": "removed", "reader": self.reader, "uid": self.uid}


@dataclass(frozen=True)
class LinkUp:
    """The board answered the handshake and its snapshot is in."""

    info: BoardInfo

    def as_dict(self) -> dict[str, Any]:
        info = self.info
        return {
            "event": "link_up", "port": info.port, "protocol": "%d.%d" % info.protocol,
            "firmware": "%d.%d.%d" % info.firmware, "readers": info.readers,
            "working": sorted(info.working), "failed": sorted(info.failed), "board_id": info.board_id,
        }


@dataclass(frozen=True)
class LinkDown:
    """The link is not usable; ``reason`` says why in words a maker can act on."""

    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"event": "link_down", "reason": self.reason}


@dataclass(frozen=True)
class ReadersChanged:
    """A reader stopped (or started again) answering the board."""

    working: frozenset[int]
    failed: frozenset[int]

    def as_dict(self) -> dict[str, Any]:
        return {"event": "readers", "working": sorted(self.working), "failed": sorted(self.failed)}


@dataclass(frozen=True)
class BoardLog:
    """A LOG line from the firmware."""

    level: str
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"event": "log", "level": self.level, "text": self.text}


@dataclass(frozen=True)
class BoardStats:
    """The board's read counts (the bench survey): (reader, uid, scans that saw it, scans made)."""

    counts: tuple[tuple[int, str, int, int], ...]

    def as_dict(self) -> dict[str, Any]:
        return {"event": "stats", "counts": [
            {"reader": r, "uid": u, "seen": seen, "scans": scans} for r, u, seen, scans in self.counts]}


LinkEvent = Union[TagPlaced, TagRemoved, LinkUp, LinkDown, ReadersChanged, BoardLog, BoardStats]


@dataclass(frozen=True)
class LinkStatus:
    """The link as the host page shows it: up or not, why not, since when, and the board's last words.

    ``state`` is ``"up"``, ``"connecting"`` (a port is open, the handshake under
    way) or ``"down"``. Times are wall-clock seconds (``time.time()``): ``since``
    is when the link last came up or went down, each log line's when it arrived.

    >>> LinkStatus("down", "no board found", since=1700000000.0).as_dict()["reason"]
    'no board found'
    """

    state: str
    reason: str | None = None
    since: float | None = None
    port: str | None = None
    info: BoardInfo | None = None
    log: tuple[tuple[float, BoardLog], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        info = self.info
        return {
            "state": self.state, "reason": self.reason, "since": self.since, "port": self.port,
            "firmware": "%d.%d.%d" % info.firmware if info else None,
            "readers": info.readers if info else None, "failed": sorted(info.failed) if info else [],
            "log": [{"t": at, "level": line.level, "text": line.text} for at, line in self.log],
        }
