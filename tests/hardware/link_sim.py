"""A BoardCore and a LinkCore wired back to back on a fake clock, for the link-core tests.

Every step the clock moves on by ``step`` seconds; the board polls and its frames go to the host,
the host ticks, and everything the host says goes to the board. Frames can be dropped, corrupted,
prefixed with garbage, or cut off for a while, in either direction; all frames sent and all events
are kept with the time they happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hardware.board_core import BoardCore
from hardware.link_core import LinkCore
from hardware.link_events import LinkEvent, TagPlaced, TagRemoved
from hardware.protocol import Message, Parser, encode

# Decides what of one frame reaches the other side: the frame, other bytes, or b"" to lose it.
Tamper = Callable[[Message, bytes], bytes]


class Wire:
    def __init__(self, board: BoardCore | None = None, host: LinkCore | None = None, step: float = 0.01) -> None:
        self.board = board if board is not None else BoardCore(readers=6)
        self.host = host if host is not None else LinkCore("sim")
        self.step = step
        self.ticks = 0
        self.events: list[tuple[float, LinkEvent]] = []
        self.board_sent: list[tuple[float, Message]] = []  # every frame the board sent, delivered or not
        self.host_sent: list[tuple[float, Message]] = []
        self.delivered_at: float | None = None  # when the host last got a board frame
        self.board_cut = False  # nothing from the board reaches the host
        self.host_cut = False  # nothing from the host reaches the board
        self.board_tamper: Tamper | None = None
        self.host_tamper: Tamper | None = None
        self.garbage = b""  # goes to the host just before the board's next frame
        self.is_open = False  # until the host opens the port, what the board sends is lost
        self._host_frames = Parser()

    @property
    def now(self) -> float:
        return round(self.ticks * self.step, 9)

    def open(self) -> Wire:
        """The host opens the port."""
        self.is_open = True
        self._host_frames = Parser()
        self._to_board(self.host.opened(self.now))
        return self

    def unplug(self, reason: str = "the board went away (unplugged, or its USB reset)") -> Wire:
        """The port goes away, as BoardLink reports a read error."""
        self.is_open = False
        self.host.closed(reason)
        self.events += [(self.now, e) for e in self.host.events_due(self.now)]
        return self

    def run(self, seconds: float) -> Wire:
        for _ in range(round(seconds / self.step)):
            self.ticks += 1
            self._step(self.now)
        return self

    def connect(self) -> Wire:
        """Open, and run until the link is up."""
        self.open()
        for _ in range(500):
            if self.host.is_up:
                return self
            self.run(self.step)
        raise AssertionError(f"the link did not come up; events: {self.events}")

    def say(self, message: Message) -> None:
        """The board sends ``message`` now, numbered in its sequence."""
        numbered = replace(message, seq=self.board.seq)
        self.board.seq = (self.board.seq + 1) % 256
        self._to_host(numbered)

    # ---- what happened ----------------------------------------------------------------

    def events_since(self, since: float = 0.0) -> list[LinkEvent]:
        return [e for t, e in self.events if t >= since]

    def of(self, kind: type, since: float = 0.0) -> list[LinkEvent]:
        return [e for e in self.events_since(since) if isinstance(e, kind)]

    def tag_events(self, since: float = 0.0) -> list[LinkEvent]:
        return [e for e in self.events_since(since) if isinstance(e, (TagPlaced, TagRemoved))]

    def times_of(self, kind: type) -> list[float]:
        return [t for t, e in self.events if isinstance(e, kind)]

    def sent_by_host(self, kind: type, since: float = 0.0) -> list[float]:
        """When the host sent frames of ``kind``."""
        return [t for t, m in self.host_sent if isinstance(m, kind) and t >= since]

    def sent_by_board(self, kind: type, since: float = 0.0) -> list[Message]:
        return [m for t, m in self.board_sent if isinstance(m, kind) and t >= since]

    # ---- the shuttle --------------------------------------------------------------------

    def _step(self, now: float) -> None:
        for message in self.board.poll(now):
            self._to_host(message)
        if self.is_open:
            self._to_board(self.host.tick(now))
        self.events += [(now, e) for e in self.host.events_due(now)]

    def _to_host(self, message: Message) -> None:
        now = self.now
        self.board_sent.append((now, message))
        frame = encode(message)
        if self.board_tamper is not None:
            frame = self.board_tamper(message, frame)
        if self.board_cut or not self.is_open or not frame:
            return
        frame, self.garbage = self.garbage + frame, b""
        self.delivered_at = now
        self._to_board(self.host.received(frame, now))

    def _to_board(self, data: bytes) -> None:
        now = self.now
        for message in self._host_frames.feed(data):
            self.host_sent.append((now, message))
            frame = encode(message)
            if self.host_tamper is not None:
                frame = self.host_tamper(message, frame)
            if not self.host_cut and frame:
                self.board.receive(frame, now)


def drop(kind: type, count: int = 1) -> Tamper:
    """Lose the next ``count`` frames of ``kind``."""
    return drop_where(lambda message: isinstance(message, kind), count)


def drop_where(match: Callable[[Message], bool], count: int = 1) -> Tamper:
    """Lose the next ``count`` frames that ``match``."""
    left = [count]

    def tamper(message: Message, frame: bytes) -> bytes:
        if match(message) and left[0] > 0:
            left[0] -= 1
            return b""
        return frame

    return tamper


def corrupt_crc(kind: type, count: int = 1) -> Tamper:
    """Flip a bit of the CRC of the next ``count`` frames of ``kind``."""
    left = [count]

    def tamper(message: Message, frame: bytes) -> bytes:
        if isinstance(message, kind) and left[0] > 0:
            left[0] -= 1
            return frame[:-1] + bytes([frame[-1] ^ 0x01])
        return frame

    return tamper
