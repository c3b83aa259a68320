"""The host's half of the protocol on an explicit clock: no threads, no serial.

:class:`LinkCore` takes bytes and the time, and gives back bytes to send and
:mod:`~hardware.link_events` to deliver. :class:`hardware.board_link.BoardLink`
runs it on a real port; tests run it on a fake clock.

>>> from hardware.board_core import BoardCore
>>> board, host = BoardCore(readers=2), LinkCore("pty")
>>> board.receive(host.opened(0.0), 0.0)
>>> board.receive(host.received(board.frames(0.0), 0.0), 0.0)
>>> board.place(bytes.fromhex("04a21b3c"), 1)
>>> host.received(board.frames(0.01), 0.01)
b''
>>> host.events_due(0.01)
[LinkUp(info=BoardInfo(port='pty', protocol=(1, 1), firmware=(1, 0, 0), readers=2, working=frozenset({0, 1}), board_id='7669727475616c30'))]
>>> host.tick(0.3)
b''
>>> host.events_due(0.3)
[TagPlaced(reader=1, uid='04:A2:1B:3C')]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from .link_events import (
    BoardInfo, BoardLog, BoardStats, LinkDown, LinkEvent, LinkUp, ReadersChanged, TagPlaced, TagRemoved,
)
from .protocol import (
    PROTOCOL, Hello, HelloRequest, HostHeartbeat, Log, Message, Parser, Readers, Snapshot, Stats,
    SnapshotRequest, TagOff, TagOn, Welcome, encode, format_uid,
)

Key = tuple[int, str]  # (reader, uid as "04:A2:...")
BOOT_LOG = 20  # LOG lines kept from before the handshake, per connection (the boot and crash messages)
LOG_RATE = 20  # LOG lines passed on per second at most: a board stuck logging must not flood the journal


@dataclass(frozen=True)
class LinkTiming:
    """The host's timing (docs/protocol.md, "Timing"), in seconds."""

    hello_retry: float = 1.0
    heartbeat: float = 1.0
    timeout: float = 3.0
    settle: float = 0.25
    backoff_min: float = 0.1
    backoff_max: float = 2.0
    handshake: float = 5.0  # an open port not up by then is reported down (and still asked)


def refusal(board: tuple[int, int], host: tuple[int, int] = PROTOCOL) -> str:
    """Why a HELLO of another major version is refused, and what to update."""
    said = f"the board's firmware speaks protocol {board[0]}.{board[1]} but this companion speaks {host[0]}.{host[1]}"
    if board[0] < host[0]:
        return f"{said}: update the firmware (copy firmware/*.py to the Pico, see docs/hardware.md)"
    return f"{said}: update the companion (pip install --upgrade clue-companion)"


def no_answer(port: str, last_log: BoardLog | None = None, junk: int = 0, hello: bool = False) -> str:
    """Why an open port has not come up: what was heard on it, and what to check.

    >>> no_answer("/dev/ttyACM0")
    'the device on /dev/ttyACM0 is not a CLUE board (no answer to HELLO): is the firmware on its Pico?'
    """
    if hello:
        return (f"the board on {port} says HELLO but did not take the WELCOME (no snapshot came): "
                f"unplug it and plug it in again; if that does not help, copy the firmware again")
    if last_log is not None:
        return (f"the board on {port} sent log lines but no HELLO; its last: "
                f"{last_log.level}: {last_log.text} (see docs/hardware.md, Troubleshooting)")
    said = f"the device on {port} is not a CLUE board (no answer to HELLO): is the firmware on its Pico?"
    if junk:  # a MicroPython prompt, another program's output, or a wrong baud rate on a UART adapter
        said += f" (it sent {junk} bytes that are not frames: copy firmware/*.py to the Pico, see docs/hardware.md)"
    return said


class LinkCore:
    """The host side of one board link: handshake, heartbeat, resync, settle."""

    def __init__(self, port: str, timing: LinkTiming = LinkTiming(), protocol: tuple[int, int] = PROTOCOL) -> None:
        self.port = port
        self.timing = timing
        self.protocol = protocol
        self.state = "closed"  # closed, handshake, welcomed, up, refused
        self.info: BoardInfo | None = None
        self.sensed: set[Key] = set()
        self.reported: set[Key] = set()
        self._changed: dict[Key, float] = {}
        self._events: list[LinkEvent] = []
        self._parser = Parser()
        self._seq = 0
        self._expected: int | None = None
        self._parts: list[Snapshot] = []
        self._stats: list[Stats] = []
        self._snapshot_asked: float | None = None
        self._last_rx = 0.0
        self._last_request = 0.0
        self._last_heartbeat = 0.0
        self._waiting_since = 0.0  # when the handshake (re)started: the port opened, or the board fell silent
        self._said = False  # a LinkDown was given since the handshake (re)started: say no more until up
        self._heard_hello = False
        self.boot_log: deque[BoardLog] = deque(maxlen=BOOT_LOG)  # this connection's LOG lines before the link is up
        self._log_window = 0.0
        self._log_count = 0
        self._log_skipped = 0
        self.gaps = 0

    # ---- what the transport calls ------------------------------------------------

    def opened(self, now: float) -> bytes:
        """The port is open: start the handshake."""
        self._parser = Parser()
        self.state = "handshake"
        self._expected = None
        self._last_rx = now
        self._last_request = now
        self._waiting(now)
        self.boot_log.clear()
        return self._send(HelloRequest(self.protocol))

    def closed(self, reason: str) -> None:
        """The port went away (unplugged, or closed by us)."""
        self._down(reason)
        self.state = "closed"

    def received(self, data: bytes, now: float) -> bytes:
        """Bytes from the board; returns the bytes to answer with."""
        out = b""
        for message in self._parser.feed(data):
            self._last_rx = now
            out += self._handle(message, now)
        return out

    def tick(self, now: float) -> bytes:
        """Keep time: retries, heartbeats, the silence timeout, settled tags."""
        out = b""
        if self.state in ("welcomed", "up") and now - self._last_rx >= self.timing.timeout:
            self._waiting(now)  # first: after this, a silent handshake is not said again
            self._down(f"no word from the board for {self.timing.timeout:g} s (frozen, reset or cable?)")
            self.state = "handshake"
            self._last_request = -self.timing.hello_retry
        waited = now - self._waiting_since
        if self.state in ("handshake", "welcomed") and not self._said and waited >= self.timing.handshake:
            self._events.append(LinkDown(self._silence()))  # once; the requests go on
            self._said = True
        if self.state == "handshake" and now - self._last_request >= self.timing.hello_retry:
            self._last_request = now
            out += self._send(HelloRequest(self.protocol))
        if self.state in ("welcomed", "up") and now - self._last_heartbeat >= self.timing.heartbeat:
            self._last_heartbeat = now
            out += self._send(HostHeartbeat())
        if self._snapshot_asked is not None and now - self._snapshot_asked >= self.timing.hello_retry:
            out += self._ask_snapshot(now)
        self._count_logs(now)
        self._settle(now)
        return out

    def events_due(self, now: float) -> list[LinkEvent]:
        """Hand over the events produced so far (after settling what is due)."""
        self._settle(now)
        events, self._events = self._events, []
        return events

    def command(self, message: Message) -> bytes:
        """Bytes for a host command (LED, buzzer, snapshot request), numbered."""
        return self._send(message)

    @property
    def is_up(self) -> bool:
        return self.state == "up"

    # ---- frames from the board -------------------------------------------------------------

    def _handle(self, message: Message, now: float) -> bytes:
        if isinstance(message, Hello):
            return self._hello(message, now)
        if isinstance(message, Log) and self.state != "refused":  # even before HELLO: boot and crash messages
            self._board_said(BoardLog(message.level, message.text), now)
        if self.state not in ("welcomed", "up"):
            return b""
        out = self._check_sequence(message, now)
        match message:
            case Snapshot():
                self._snapshot_part(message, now)
            case Stats():
                self._stats_part(message)
            case TagOn(reader, uid):
                self._sense((reader, format_uid(uid)), True, now)
            case TagOff(reader, uid):
                self._sense((reader, format_uid(uid)), False, now)
            case Readers(readers, working) if self.info is not None:
                if (readers, working) != (self.info.readers, self.info.working):
                    self.info = replace(self.info, readers=readers, working=working)
                    self._events.append(ReadersChanged(working, self.info.failed))
            case _:
                pass  # HEARTBEAT only proves the board alive; unknown types are for newer hosts
        return out

    def _hello(self, hello: Hello, now: float) -> bytes:
        if hello.protocol[0] != self.protocol[0]:
            if self.state != "refused":
                self._down(refusal(hello.protocol, self.protocol), always=True)
                self.state = "refused"
            return b""
        if self.state == "up":
            self._down("the board restarted")
        self._heard_hello = True
        self.state = "welcomed"
        board_id = None if hello.board_id is None else hello.board_id.hex()
        self.info = BoardInfo(self.port, hello.protocol, hello.firmware, hello.readers, hello.working, board_id)
        self._expected = (hello.seq + 1) % 256
        self._parts = []
        self._snapshot_asked = None
        self._last_heartbeat = now
        return self._send(Welcome(self.protocol))

    def _check_sequence(self, message: Message, now: float) -> bytes:
        expected, self._expected = self._expected, (message.seq + 1) % 256
        if expected is None or message.seq == expected:
            return b""
        self.gaps += 1
        self._parts = []
        return self._ask_snapshot(now) if self._snapshot_asked is None else b""

    def _ask_snapshot(self, now: float) -> bytes:
        self._snapshot_asked = now
        return self._send(SnapshotRequest())

    def _snapshot_part(self, part: Snapshot, now: float) -> None:
        if part.part == 0:
            self._parts = [part]
        elif self._parts and self._parts[-1].part == part.part - 1 and self._parts[-1].parts == part.parts:
            self._parts.append(part)
        else:
            self._parts = []  # a part went missing: the sequence check has asked again
            return
        if part.part == part.parts - 1:
            tags = {(reader, format_uid(uid)) for p in self._parts for reader, uid in p.tags}
            self._parts = []
            self._snapshot_asked = None
            self._replace(tags, now)

    def _stats_part(self, part: Stats) -> None:
        """Gather STATS parts; all of them in order make one BoardStats (a gap drops them: ask again)."""
        if part.part == 0:
            self._stats = [part]
        elif self._stats and self._stats[-1].part == part.part - 1 and self._stats[-1].parts == part.parts:
            self._stats.append(part)
        else:
            self._stats = []
            return
        if part.part == part.parts - 1:
            counts = tuple((r, format_uid(u), seen, scans) for p in self._stats for r, u, seen, scans in p.counts)
            self._stats = []
            self._events.append(BoardStats(counts))

    def _replace(self, tags: set[Key], now: float) -> None:
        if self.state == "welcomed" and self.info is not None:
            self.state = "up"
            self._said = False
            self._events.append(LinkUp(self.info))
        for key in tags ^ self.sensed:
            self._sense(key, key in tags, now)

    # ---- settle ------------------------------------------------------------------------------

    def _sense(self, key: Key, present: bool, now: float) -> None:
        if present:
            self.sensed.add(key)
        else:
            self.sensed.discard(key)
        if present == (key in self.reported):
            self._changed.pop(key, None)  # back as reported before it settled: nothing happened
        else:
            self._changed[key] = now
        if self.timing.settle <= 0:
            self._settle(now)

    def _settle(self, now: float) -> None:
        for key, since in sorted(self._changed.items(), key=lambda item: item[1]):
            if now - since < self.timing.settle:
                continue
            del self._changed[key]
            if key in self.sensed:
                self.reported.add(key)
                self._events.append(TagPlaced(*key))
            else:
                self.reported.discard(key)
                self._events.append(TagRemoved(*key))

    # ---- the board's own words ---------------------------------------------------------------

    def _board_said(self, line: BoardLog, now: float) -> None:
        if self.state not in ("welcomed", "up"):
            self.boot_log.append(line)
        self._count_logs(now)
        if self._log_count >= LOG_RATE:
            self._log_skipped += 1
            return
        self._log_count += 1
        self._events.append(line)

    def _count_logs(self, now: float) -> None:
        """Start a new second of LOG lines, saying first how many of the last were skipped."""
        if now - self._log_window < 1.0:
            return
        if self._log_skipped:
            self._events.append(BoardLog("warning", f"(the companion skipped {self._log_skipped} of the board's "
                                                    f"log lines: more than {LOG_RATE} a second)"))
        self._log_window, self._log_count, self._log_skipped = now, 0, 0

    # ---- plumbing ------------------------------------------------------------------------

    def _silence(self) -> str:
        last = self.boot_log[-1] if self.boot_log else None
        return no_answer(self.port, last, self._parser.stats.skipped_bytes, self._heard_hello)

    def _waiting(self, now: float) -> None:
        self._waiting_since = now
        self._said = False
        self._heard_hello = False

    def _down(self, reason: str, always: bool = False) -> None:
        # Only a link reported up is reported down; a refusal or a silent port is said even if never up.
        if self.state == "up" or always:
            self._events.append(LinkDown(reason))
            self._said = True
        self._snapshot_asked = None
        self._parts = []

    def _send(self, message: Message) -> bytes:
        frame = encode(replace(message, seq=self._seq))
        self._seq = (self._seq + 1) % 256
        return frame
