"""Successive readings of the board become events like the board link's: a piece is at a place, or unseen.

API (the live camera, ``run --camera``):

- ``Watcher(timing).see(reading, now) -> list[CameraEvent]``: pure, on an explicit clock (like
  :class:`hardware.link_core.LinkCore`); ``reset()`` after the camera was away;
- ``Settled(places)``: the first steady reading after a (re)start: every piece seen, where;
- ``PieceAt(piece, place)``: a piece now stands somewhere else (a move, for the table to judge);
- ``PieceUnseen(piece)``: a piece seen before has been out of sight for ``forget`` seconds;
- ``CameraUp(name)`` and ``CameraDown(reason)``: said by :class:`hardware.camera.device.CameraLink`.

Why the rules: a hand reaching over the board hides pieces and corner markers, and a piece being
carried is read at the wrong height. So a frame counts only when every corner marker is seen (a
frame that does not starts the count again), and a piece's new place counts once it has been read
there in the last ``frames`` frames, spanning ``still`` seconds, with every piece seen before seen
in them; or, when some piece is missing (a hand resting over it, the moved piece standing in front
of it, a sticker that flickers), once for ``hold`` seconds it has been read there at least
``frames`` times and nowhere else, the frames missing a piece all missing the same ones (a hand
moving over the board hides one piece, then another). A piece that vanishes is never gone nor moved: the table keeps
it where it was last settled.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from .read import Reading


EPSILON = 1e-6  # s: frames 0.1 s apart span 0.2 s in three, whatever the float sums say


@dataclass(frozen=True)
class WatchTiming:
    frames: int = 3  # clear frames in a row whose readings must be the same
    still: float = 0.2  # seconds those frames must span: the piece stood still
    hold: float = 0.5  # seconds they must span while a piece seen before is missing from them
    forget: float = 3.0  # seconds a piece may stay hidden before it no longer holds changes up
    corners: int = 4  # corner markers a frame needs (a hand over one hides the reading's trust, not the board)


@dataclass(frozen=True)
class Settled:
    places: Mapping[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {"event": "camera_settled", "places": dict(self.places)}


@dataclass(frozen=True)
class PieceAt:
    piece: str
    place: str

    def as_dict(self) -> dict[str, object]:
        return {"event": "piece_at", "piece": self.piece, "place": self.place}


@dataclass(frozen=True)
class PieceUnseen:
    piece: str

    def as_dict(self) -> dict[str, object]:
        return {"event": "piece_unseen", "piece": self.piece}


@dataclass(frozen=True)
class CameraUp:
    name: str

    def as_dict(self) -> dict[str, object]:
        return {"event": "camera_up", "name": self.name}


@dataclass(frozen=True)
class CameraDown:
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"event": "camera_down", "reason": self.reason}


CameraEvent = Union[Settled, PieceAt, PieceUnseen, CameraUp, CameraDown]


class Watcher:
    """Readings in, settled events out (see the module's note). Not thread-safe: one thread feeds it."""

    def __init__(self, timing: WatchTiming | None = None) -> None:
        self.timing = timing or WatchTiming()
        self.places: dict[str, str] = {}  # where each piece was last settled
        self.settled = False
        self._visible: set[str] = set()  # pieces seen at the last settling: each must be seen for a frame to count
        self._hidden_since: dict[str, float] = {}
        self._frames: deque[tuple[float, dict[str, str]]] = deque()  # clear frames in a row, ``hold`` s of them

    def reset(self) -> None:
        """Start again (the camera was away): the next steady reading is a new ``Settled``."""
        self.settled = False
        self._visible.clear()
        self._hidden_since.clear()
        self._frames.clear()

    def see(self, reading: Reading, now: float) -> list[CameraEvent]:
        if not self._clear(reading):
            self._frames.clear()  # a hand over a corner, or no board: nothing before it counts either
            return []
        events: list[CameraEvent] = list(self._forget(reading, now))
        frames = self._frames
        frames.append((now, dict(reading.pieces)))
        while len(frames) > 1 and now - frames[1][0] >= self.timing.hold - EPSILON:
            frames.popleft()  # the oldest kept is the last at least ``hold`` old
        steady = self._steady(now)
        if not self.settled:
            if steady is None or now - frames[0][0] < self.timing.hold - EPSILON and not self._recent_whole(now):
                return events
            self.settled, self.places = True, dict(steady)
            self._visible = set(steady)
            return [*events, Settled(dict(steady))]
        for piece, place in sorted((steady or {}).items()):
            self._visible.add(piece)
            if self.places.get(piece) != place:
                self.places[piece] = place
                events.append(PieceAt(piece, place))
        return events

    def _steady(self, now: float) -> dict[str, str] | None:
        """Each piece whose place is sure now (see the module's note); None before enough frames."""
        count = self.timing.frames
        frames = list(self._frames)
        if len(frames) < count:
            return None
        recent = frames[-count:]
        whole = self._recent_whole(now)
        # A hand moving over the board hides one piece, then another: the long wait needs one set missing throughout
        missing = {frozenset(self._visible - f.keys()) for _, f in frames} - {frozenset()}
        long = now - frames[0][0] >= self.timing.hold - EPSILON and len(missing) <= 1
        sure: dict[str, str] = {}
        for piece, place in frames[-1][1].items():
            if whole and all(f.get(piece) == place for _, f in recent):
                sure[piece] = place
            elif long and sum(f.get(piece) == place for _, f in frames) >= count \
                    and all(f.get(piece) in (place, None) for _, f in frames):
                sure[piece] = place
        return sure

    def _recent_whole(self, now: float) -> bool:
        """The last ``frames`` frames span ``still`` seconds and show every piece seen before."""
        recent = list(self._frames)[-self.timing.frames:]
        return len(recent) == self.timing.frames and now - recent[0][0] >= self.timing.still - EPSILON \
            and all(piece in f for _, f in recent for piece in self._visible)

    def _clear(self, reading: Reading) -> bool:
        corners = 4 - len(reading.missing_corners)
        return reading.board_found and corners >= self.timing.corners and not reading.duplicates

    def _forget(self, reading: Reading, now: float) -> list[CameraEvent]:
        """Pieces hidden for ``forget`` seconds stop holding changes up (a sticker in glare, a piece off the board)."""
        gone: list[CameraEvent] = []
        for piece in sorted(self._visible):
            if piece in reading.pieces:
                self._hidden_since.pop(piece, None)
                continue
            since = self._hidden_since.setdefault(piece, now)
            if now - since >= self.timing.forget:
                self._visible.discard(piece)
                del self._hidden_since[piece]
                gone.append(PieceUnseen(piece))
        return gone

