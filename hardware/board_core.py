"""The firmware's half of the protocol in CPython, on an explicit clock.

:class:`BoardCore` is what the virtual board runs: the same conversation as
``firmware/board.py`` (docs/protocol.md, "The board"), with the readers
replaced by a dictionary of where each tag physically lies. It does no I/O;
:class:`hardware.virtual_board.VirtualBoard` moves its bytes over a pty.

>>> core = BoardCore(readers=4)
>>> [type_name(m) for m in core.poll(0.0)]
['HELLO']
>>> core.place(bytes.fromhex("04a21b3c"), 2)
>>> core.receive(encode(Welcome()), 0.1)
>>> [as_dict(m) for m in core.poll(0.1)]
[{'type': 'SNAPSHOT', 'seq': 1, 'part': 0, 'parts': 1, 'tags': [[2, '04:A2:1B:3C']]}, {'type': 'READERS', 'seq': 2, 'readers': 4, 'working': [0, 1, 2, 3]}]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .protocol import (
    MAX_PAYLOAD, PROTOCOL, Buzzer, Heartbeat, Hello, HelloRequest, Led, Log, Message, Parser, Readers,
    Snapshot, SnapshotRequest, Stats, StatsRequest, TagOff, TagOn, Welcome, as_dict, encode, type_name,
)

__all__ = ["BoardCore", "BoardTiming"]  # as_dict and type_name are imported for the doctest

Key = tuple[int, bytes]  # (reader, uid)
VIRTUAL_ID = b"virtual0"  # the virtual board's machine.unique_id(): 8 bytes, as a Pico's


@dataclass(frozen=True)
class BoardTiming:
    """The firmware's constants (firmware/config.py), in seconds."""

    hello_retry: float = 1.0
    heartbeat: float = 1.0
    host_timeout: float = 3.0
    # How long a lifted tag takes to count as gone: MISSES scans of the board.
    debounce: float = 0.15


class BoardCore:
    """One board: its readers, the tags on them, and its side of the link."""

    def __init__(self, readers: int = 16, *, firmware: tuple[int, int, int] = (1, 0, 0),
                 protocol: tuple[int, int] = PROTOCOL, timing: BoardTiming = BoardTiming(),
                 board_id: bytes = VIRTUAL_ID) -> None:
        if not 1 <= readers <= 255:
            raise ValueError(f"a board has 1 to 255 readers, not {readers}")
        self.readers = readers
        self.firmware = firmware
        self.protocol = protocol
        self.timing = timing
        self.board_id = board_id
        self.placed: dict[bytes, int] = {}  # where each tag physically lies
        self.failed: set[int] = set()
        self.leds: dict[int, tuple[str, tuple[int, int, int]]] = {}
        self.buzzer: tuple[int, int] = (0, 0)
        self.reboot()

    # ---- the physical world ------------------------------------------------

    def place(self, uid: bytes, reader: int) -> None:
        """Put a tag on a reader (taking it off wherever it was)."""
        if not 0 <= reader < self.readers:
            raise ValueError(f"reader {reader} is not one of 0..{self.readers - 1}")
        self.placed[bytes(uid)] = reader

    def remove(self, uid: bytes) -> None:
        self.placed.pop(bytes(uid), None)

    def fail_reader(self, reader: int) -> None:
        self.failed.add(reader)

    def heal_reader(self, reader: int) -> None:
        self.failed.discard(reader)

    def reboot(self) -> None:
        """Power-on state, as after a watchdog reset or a replug."""
        self.seq = 0
        self.welcomed = False
        self.seen: set[Key] = set()
        self.gone_since: dict[Key, float] = {}
        self.reported_failed: set[int] = set(self.failed)
        self.parser = Parser()
        self.inbox: list[Message] = []
        self.last_hello: float | None = None
        self.last_heartbeat = 0.0
        self.last_host: float | None = None
        self.snapshot_wanted = False
        self.leds = {}
        self.reset_stats()

    def reset_stats(self) -> None:
        """Start the read counts afresh (STATS_REQUEST with restart; a reboot)."""
        self.scans: dict[int, int] = {}  # scans made per reader
        self.reads: dict[Key, int] = {}  # scans that saw each tag, per reader

    # ---- the link ------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> None:
        """Bytes from the host; acted on at the next :meth:`poll`."""
        messages = self.parser.feed(data)
        if messages:
            self.last_host = now
        self.inbox.extend(messages)

    def press_snapshot(self) -> None:
        """Send a snapshot at the next poll, as if the host had asked."""
        self.snapshot_wanted = True

    def poll(self, now: float) -> list[Message]:
        """Scan, answer the host and keep time; returns the frames to send, numbered."""
        out: list[Message] = []
        self._check_host(now)
        self._check_health(out)
        # Scan before answering, so a WELCOME's snapshot already holds every
        # tag seen so far and none of them is also sent as a TAG_ON.
        self._scan(now, out)
        self._count()
        for message in self.inbox:
            self._answer(message, now, out)
        self.inbox = []
        self._keep_time(now, out)
        if self.snapshot_wanted:
            self.snapshot_wanted = False
            out.extend(self._snapshot())
        return [self._numbered(m) for m in out]

    def frames(self, now: float) -> bytes:
        """:meth:`poll`, encoded."""
        return b"".join(encode(m) for m in self.poll(now))

    def _numbered(self, message: Message) -> Message:
        numbered = replace(message, seq=self.seq)
        self.seq = (self.seq + 1) % 256
        return numbered

    def _answer(self, message: Message, now: float, out: list[Message]) -> None:
        match message:
            case HelloRequest():
                self.welcomed = False
                self.last_hello = now
                out.append(self._hello())
            case Welcome(protocol) if protocol[0] == self.protocol[0]:
                self.welcomed = True
                self.last_heartbeat = now
                self.snapshot_wanted = True
            case Welcome(protocol):
                out.append(Log("error", f"host speaks protocol {protocol[0]}.{protocol[1]}; ignored"))
            case SnapshotRequest():
                self.snapshot_wanted = True
            case StatsRequest(restart):
                out.extend(self._stats())
                if restart:
                    self.reset_stats()
            case Led(mode, colour, leds):
                self._set_leds(mode, colour, leds)
            case Buzzer(frequency, duration_ms):
                self.buzzer = (frequency, duration_ms)
            case Hello() | Heartbeat() | TagOn() | TagOff() | Snapshot() | Readers() | Log() | Stats():
                out.append(Log("warning", f"ignored a {type_name(message)} frame from the host"))
            case _:
                pass  # HOST_HEARTBEAT only keeps the link alive; unknown types are ignored

    def _set_leds(self, mode: str, colour: tuple[int, int, int], leds: tuple[int, ...]) -> None:
        for led in leds or range(self.readers):
            if mode == "off":
                self.leds.pop(led, None)
            elif 0 <= led < self.readers:
                self.leds[led] = (mode, colour)

    def _check_host(self, now: float) -> None:
        if self.welcomed and self.last_host is not None and now - self.last_host >= self.timing.host_timeout:
            self.welcomed = False
            self.leds = {}
            self.last_hello = None

    def _check_health(self, out: list[Message]) -> None:
        if self.failed != self.reported_failed:
            self.reported_failed = set(self.failed)
            if self.welcomed:
                out.append(Readers(self.readers, self._working()))

    def _scan(self, now: float, out: list[Message]) -> None:
        present = {(r, uid) for uid, r in self.placed.items() if r not in self.failed}
        for key in sorted(present - self.seen):
            self.seen.add(key)
            self.gone_since.pop(key, None)
            if self.welcomed:
                out.append(TagOn(*key))
        for key in sorted(self.seen - present):
            if key[0] in self.failed:
                continue  # a failed reader is unknown, not empty
            since = self.gone_since.setdefault(key, now)
            if now - since >= self.timing.debounce:
                self.seen.discard(key)
                del self.gone_since[key]
                if self.welcomed:
                    out.append(TagOff(*key))
        for key in [k for k in self.gone_since if k in present]:
            del self.gone_since[key]

    def _keep_time(self, now: float, out: list[Message]) -> None:
        if not self.welcomed:
            if self.last_hello is None or now - self.last_hello >= self.timing.hello_retry:
                self.last_hello = now
                out.append(self._hello())
        elif now - self.last_heartbeat >= self.timing.heartbeat:
            self.last_heartbeat = now
            out.append(Heartbeat())

    def _hello(self) -> Hello:
        board_id = self.board_id if self.protocol >= (1, 1) else None
        return Hello(self.protocol, self.firmware, self.readers, self._working(), board_id=board_id)

    def _count(self) -> None:
        """Each poll is one scan of every working reader; a virtual reader never misses a tag."""
        for reader in self._working():
            self.scans[reader] = self.scans.get(reader, 0) + 1
        for uid, reader in self.placed.items():
            if reader not in self.failed:
                self.reads[(reader, uid)] = self.reads.get((reader, uid), 0) + 1

    def _stats(self) -> list[Message]:
        """STATS parts, as the firmware's frames.stats_payloads splits them."""
        parts: list[list[tuple[int, bytes, int, int]]] = [[]]
        size = 2
        for (reader, uid), seen in sorted(self.reads.items()):
            if size + 10 + len(uid) > MAX_PAYLOAD:
                parts.append([])
                size = 2
            parts[-1].append((reader, uid, seen, self.scans.get(reader, 0)))
            size += 10 + len(uid)
        return [Stats(i, len(parts), tuple(p)) for i, p in enumerate(parts)]

    def _working(self) -> frozenset[int]:
        return frozenset(range(self.readers)) - self.failed

    def _snapshot(self) -> list[Message]:
        entries = sorted(self.seen)
        parts: list[list[Key]] = [[]]
        size = 2
        for reader, uid in entries:
            if size + 2 + len(uid) > MAX_PAYLOAD:
                parts.append([])
                size = 2
            parts[-1].append((reader, uid))
            size += 2 + len(uid)
        snapshot: list[Message] = [Snapshot(i, len(parts), tuple(p)) for i, p in enumerate(parts)]
        # READERS follows, so the snapshot that repairs a gap repairs reader health too.
        return snapshot + [Readers(self.readers, self._working())]
