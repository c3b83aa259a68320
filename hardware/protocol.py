"""The board wire protocol (docs/protocol.md): a pure codec, no I/O.

A frame is ``A5 LEN TYPE SEQ PAYLOAD CRC_HI CRC_LO``, the CRC-16/CCITT-FALSE
of LEN..PAYLOAD. :func:`encode` turns a message into a frame and
:class:`Parser` turns any byte stream back into messages, skipping junk.

>>> frame = encode(TagOn(reader=3, uid=bytes.fromhex("04a21b3c"), seq=7))
>>> frame.hex(" ")
'a5 05 03 07 03 04 a2 1b 3c b6 ca'
>>> parser = Parser()
>>> parser.feed(b"noise" + frame[:4])
[]
>>> parser.feed(frame[4:])
[TagOn(reader=3, uid=b'\\x04\\xa2\\x1b<', seq=7)]
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, field
from typing import Any, Union

PROTOCOL = (1, 1)  # 1.1: HELLO carries the board id; STATS and STATS_REQUEST
SOF = 0xA5
MAX_PAYLOAD = 240
HEADER = 4  # SOF, LEN, TYPE, SEQ
OVERHEAD = HEADER + 2  # plus the CRC
UID_SIZES = (4, 7, 10)  # ISO 14443 single, double and triple size
LOG_LEVELS = ("debug", "info", "warning", "error")
LED_MODES = ("off", "on", "blink")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): the stdlib's crc_hqx.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def format_uid(uid: bytes) -> str:
    """A tag UID as people write it: ``04:A2:1B:3C``."""
    return ":".join(f"{b:02X}" for b in uid)


def parse_uid(text: str) -> bytes:
    """Read ``04:A2:1B:3C`` (or ``04a21b3c``) back; raises ValueError if malformed."""
    raw = bytes.fromhex(text.replace(":", "").replace(" ", ""))
    if len(raw) not in UID_SIZES:
        raise ValueError(f"a tag UID has 4, 7 or 10 bytes, not {len(raw)}: {text!r}")
    return raw


class Malformed(ValueError):
    """A payload that does not fit its type; the parser drops such frames."""


# ---- board -> host ---------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """The board introduces itself; repeated every second until WELCOME."""

    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    readers: int
    working: frozenset[int]
    seq: int = 0
    board_id: bytes | None = None  # machine.unique_id(), since 1.1; None from a 1.0 board


@dataclass(frozen=True)
class Heartbeat:
    """The board is alive (every second once welcomed)."""

    seq: int = 0


@dataclass(frozen=True)
class TagOn:
    reader: int
    uid: bytes
    seq: int = 0


@dataclass(frozen=True)
class TagOff:
    reader: int
    uid: bytes
    seq: int = 0


@dataclass(frozen=True)
class Snapshot:
    """Part ``part`` of ``parts`` of every reader's current tags."""

    part: int
    parts: int
    tags: tuple[tuple[int, bytes], ...]
    seq: int = 0


@dataclass(frozen=True)
class Readers:
    """Which readers answer, sent whenever that changes."""

    readers: int
    working: frozenset[int]
    seq: int = 0


@dataclass(frozen=True)
class Log:
    level: str
    text: str
    seq: int = 0


@dataclass(frozen=True)
class Stats:
    """Part ``part`` of ``parts`` of the read counts: (reader, uid, scans that saw it, scans made)."""

    part: int
    parts: int
    counts: tuple[tuple[int, bytes, int, int], ...]
    seq: int = 0


# ---- host -> board ---------------------------------------------------------


@dataclass(frozen=True)
class HelloRequest:
    """The host asks the board to introduce itself (sent on connect)."""

    protocol: tuple[int, int] = PROTOCOL
    seq: int = 0


@dataclass(frozen=True)
class Welcome:
    """The host accepts the board's HELLO; the board answers with a SNAPSHOT."""

    protocol: tuple[int, int] = PROTOCOL
    seq: int = 0


@dataclass(frozen=True)
class HostHeartbeat:
    seq: int = 0


@dataclass(frozen=True)
class SnapshotRequest:
    seq: int = 0


@dataclass(frozen=True)
class Led:
    """Set LEDs (all of them when ``leds`` is empty) to a colour and mode."""

    mode: str
    colour: tuple[int, int, int] = (0, 0, 0)
    leds: tuple[int, ...] = ()
    seq: int = 0


@dataclass(frozen=True)
class Buzzer:
    """Sound ``frequency`` Hz for ``duration_ms``; frequency 0 is silence."""

    frequency: int
    duration_ms: int
    seq: int = 0


@dataclass(frozen=True)
class StatsRequest:
    """The host asks for the read counts; ``restart`` starts counting afresh after the answer."""

    restart: bool = False
    seq: int = 0


@dataclass(frozen=True)
class Unknown:
    """A well-formed frame of a type this side does not know (a newer minor)."""

    type: int
    payload: bytes = field(repr=False)
    seq: int = 0


Message = Union[
    Hello, Heartbeat, TagOn, TagOff, Snapshot, Readers, Log, Stats,
    HelloRequest, Welcome, HostHeartbeat, SnapshotRequest, Led, Buzzer, StatsRequest, Unknown,
]

TYPE_CODES: dict[type[Any], int] = {
    Hello: 0x01, Heartbeat: 0x02, TagOn: 0x03, TagOff: 0x04, Snapshot: 0x05, Readers: 0x06, Log: 0x07,
    Stats: 0x08,
    HelloRequest: 0x81, Welcome: 0x82, HostHeartbeat: 0x83, SnapshotRequest: 0x84, Led: 0x85, Buzzer: 0x86,
    StatsRequest: 0x87,
}
TYPE_NAMES: dict[type[Any], str] = {
    Hello: "HELLO", Heartbeat: "HEARTBEAT", TagOn: "TAG_ON", TagOff: "TAG_OFF", Snapshot: "SNAPSHOT",
    Readers: "READERS", Log: "LOG", HelloRequest: "HELLO_REQUEST", Welcome: "WELCOME",
    HostHeartbeat: "HOST_HEARTBEAT", SnapshotRequest: "SNAPSHOT_REQUEST", Led: "LED", Buzzer: "BUZZER",
    Stats: "STATS", StatsRequest: "STATS_REQUEST",
}

_BY_CODE: dict[int, type[Any]] = {code: kind for kind, code in TYPE_CODES.items()}


def type_name(message: Message) -> str:
    """The spec's name for a message's type (``TAG_ON``), or ``0x42`` if unknown."""
    if isinstance(message, Unknown):
        return f"0x{message.type:02X}"
    return TYPE_NAMES[type(message)]


# ---- payloads --------------------------------------------------------------


def _bitmap(readers: int, working: frozenset[int]) -> bytes:
    bits = bytearray((readers + 7) // 8)
    for reader in working:
        if not 0 <= reader < readers:
            raise ValueError(f"working reader {reader} is not one of 0..{readers - 1}")
        bits[reader // 8] |= 1 << (reader % 8)
    return bytes(bits)


def _read_bitmap(readers: int, data: bytes) -> frozenset[int]:
    if len(data) < (readers + 7) // 8:
        raise Malformed(f"a bitmap of {readers} readers needs {(readers + 7) // 8} bytes")
    working = frozenset(i for i in range(len(data[: (readers + 7) // 8]) * 8) if data[i // 8] >> (i % 8) & 1)
    if any(i >= readers for i in working):
        raise Malformed(f"bitmap marks a reader beyond {readers}")
    return working


def _uid(uid: bytes) -> bytes:
    if len(uid) not in UID_SIZES:
        raise ValueError(f"a tag UID has 4, 7 or 10 bytes, not {len(uid)}")
    return uid


def _byte(value: int, what: str) -> int:
    if not 0 <= value <= 255:
        raise ValueError(f"{what} must be 0..255, not {value}")
    return value


def _u16(value: int, what: str) -> bytes:
    if not 0 <= value <= 0xFFFF:
        raise ValueError(f"{what} must be 0..65535, not {value}")
    return value.to_bytes(2, "big")


def _u32(value: int, what: str) -> bytes:
    if not 0 <= value <= 0xFFFFFFFF:
        raise ValueError(f"{what} must be 0..4294967295, not {value}")
    return value.to_bytes(4, "big")


def _board_id(board_id: bytes | None) -> bytes:
    """A 1.1 HELLO's tail: the id's length and bytes; nothing for a 1.0 HELLO (None)."""
    if board_id is None:
        return b""
    return bytes([_byte(len(board_id), "board id length")]) + board_id


def _part(part: int, parts: int, what: str) -> bytes:
    if not 0 <= part < parts <= 255:
        raise ValueError(f"{what} part {part} of {parts}")
    return bytes([part, parts])


def _payload(message: Message) -> bytes:
    match message:
        case Hello(protocol, firmware, readers, working, _, board_id):
            head = bytes([*protocol, *firmware, _byte(readers, "reader count")])
            return head + _bitmap(readers, working) + _board_id(board_id)
        case Stats(part, parts, counts):
            return _part(part, parts, "stats") + b"".join(
                bytes([_byte(r, "reader"), len(u)]) + _uid(u) + _u32(seen, "seen") + _u32(scans, "scans")
                for r, u, seen, scans in counts)
        case StatsRequest(restart):
            return bytes([1 if restart else 0])
        case Readers(readers, working):
            return bytes([_byte(readers, "reader count")]) + _bitmap(readers, working)
        case TagOn(reader, uid) | TagOff(reader, uid):
            return bytes([_byte(reader, "reader")]) + _uid(uid)
        case Snapshot(part, parts, tags):
            return _part(part, parts, "snapshot") + b"".join(bytes([_byte(r, "reader"), len(u)]) + _uid(u) for r, u in tags)
        case Log(level, text):
            return bytes([LOG_LEVELS.index(level)]) + text.encode()
        case HelloRequest(protocol) | Welcome(protocol):
            return bytes(protocol)
        case Led(mode, colour, leds):
            return bytes([LED_MODES.index(mode), *colour, *leds])
        case Buzzer(frequency, duration_ms):
            return _u16(frequency, "frequency") + _u16(duration_ms, "duration")
        case Unknown(_, payload):
            return payload
    return b""  # the heartbeats and SNAPSHOT_REQUEST carry nothing


def encode(message: Message) -> bytes:
    """One complete frame for ``message`` (its ``seq`` taken modulo 256).

    Raises ValueError for a message that cannot be put on the wire (a UID of
    the wrong size, a payload over 240 bytes).
    """
    payload = _payload(message)
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes; at most {MAX_PAYLOAD} fit in a frame")
    code = message.type if isinstance(message, Unknown) else TYPE_CODES[type(message)]
    body = bytes([len(payload), code, message.seq % 256]) + payload
    return bytes([SOF]) + body + crc16(body).to_bytes(2, "big")


def _exact(payload: bytes, size: int, name: str) -> None:
    if len(payload) != size:
        raise Malformed(f"{name} carries {size} bytes, not {len(payload)}")


def _tag(payload: bytes) -> tuple[int, bytes]:
    if len(payload) - 1 not in UID_SIZES:
        raise Malformed(f"a tag UID has 4, 7 or 10 bytes, not {len(payload) - 1}")
    return payload[0], bytes(payload[1:])


def _snapshot_tags(data: bytes) -> tuple[tuple[int, bytes], ...]:
    tags = []
    at = 0
    while at < len(data):
        if at + 2 > len(data) or data[at + 1] not in UID_SIZES or at + 2 + data[at + 1] > len(data):
            raise Malformed(f"snapshot entry at byte {at + 2} is cut short or has a bad UID size")
        tags.append((data[at], bytes(data[at + 2 : at + 2 + data[at + 1]])))
        at += 2 + data[at + 1]
    return tuple(tags)


def _stats_counts(data: bytes) -> tuple[tuple[int, bytes, int, int], ...]:
    counts = []
    at = 0
    while at < len(data):
        if at + 2 > len(data) or data[at + 1] not in UID_SIZES or at + 2 + data[at + 1] + 8 > len(data):
            raise Malformed(f"stats entry at byte {at + 2} is cut short or has a bad UID size")
        end = at + 2 + data[at + 1]
        counts.append((data[at], bytes(data[at + 2 : end]), int.from_bytes(data[end : end + 4], "big"),
                       int.from_bytes(data[end + 4 : end + 8], "big")))
        at = end + 8
    return tuple(counts)


def _hello(payload: bytes, seq: int) -> Hello:
    if len(payload) < 6:
        raise Malformed("HELLO carries at least 6 bytes")
    readers = payload[5]
    working = _read_bitmap(readers, payload[6:])
    tail = payload[6 + (readers + 7) // 8 :]
    board_id = None
    if tail:  # 1.1: the id's length, the id; bytes after it belong to a later minor version
        if len(tail) < 1 + tail[0]:
            raise Malformed("HELLO's board id is cut short")
        board_id = bytes(tail[1 : 1 + tail[0]])
    return Hello((payload[0], payload[1]), (payload[2], payload[3], payload[4]), readers, working, seq, board_id)


def _version(payload: bytes) -> tuple[int, int]:
    if len(payload) < 2:
        raise Malformed("a protocol version takes 2 bytes")
    return payload[0], payload[1]


def decode(code: int, seq: int, payload: bytes) -> Message:
    """The message for one frame's fields; raises :class:`Malformed`."""
    kind = _BY_CODE.get(code)
    if kind is None:
        return Unknown(code, bytes(payload), seq)
    if kind in (Heartbeat, HostHeartbeat, SnapshotRequest):
        _exact(payload, 0, TYPE_NAMES[kind])
        return kind(seq=seq)  # type: ignore[no-any-return]
    if kind is Hello:
        return _hello(payload, seq)
    if kind is Stats:
        if len(payload) < 2 or not payload[0] < payload[1]:
            raise Malformed("STATS starts with part < parts")
        return Stats(payload[0], payload[1], _stats_counts(payload[2:]), seq)
    if kind is StatsRequest:
        if not payload:
            raise Malformed("STATS_REQUEST carries its flags")
        return StatsRequest(bool(payload[0] & 1), seq)
    if kind is Readers:
        if not payload:
            raise Malformed("READERS carries the reader count")
        _exact(payload, 1 + (payload[0] + 7) // 8, "READERS")
        return Readers(payload[0], _read_bitmap(payload[0], payload[1:]), seq)
    if kind in (TagOn, TagOff):
        return kind(*_tag(payload), seq=seq)  # type: ignore[no-any-return]
    if kind is Snapshot:
        if len(payload) < 2 or not payload[0] < payload[1]:
            raise Malformed("SNAPSHOT starts with part < parts")
        return Snapshot(payload[0], payload[1], _snapshot_tags(payload[2:]), seq)
    if kind is Log:
        if not payload or payload[0] >= len(LOG_LEVELS):
            raise Malformed("LOG starts with a level 0..3")
        return Log(LOG_LEVELS[payload[0]], bytes(payload[1:]).decode("utf-8", "replace"), seq)
    if kind in (HelloRequest, Welcome):
        return kind(_version(payload), seq)  # type: ignore[no-any-return]
    if kind is Led:
        if len(payload) < 4 or payload[0] >= len(LED_MODES):
            raise Malformed("LED starts with a mode 0..2 and a colour")
        return Led(LED_MODES[payload[0]], (payload[1], payload[2], payload[3]), tuple(payload[4:]), seq)
    _exact(payload, 4, "BUZZER")
    return Buzzer(int.from_bytes(payload[0:2], "big"), int.from_bytes(payload[2:4], "big"), seq)


# ---- the incremental parser ------------------------------------------------


@dataclass
class ParserStats:
    frames: int = 0
    crc_errors: int = 0
    false_starts: int = 0  # incomplete frames given up because a valid one followed
    malformed: int = 0
    skipped_bytes: int = 0


class Parser:
    """Turn a byte stream into messages; never raises on any input.

    A start byte followed by a bad length or a bad CRC is a false start: only
    that one byte is dropped and the search goes on from the next, so a real
    frame hidden behind garbage is found again (the resync). An incomplete
    frame is also given up as soon as a complete valid frame follows it, so
    a false start never holds back the frames behind it.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.stats = ParserStats()

    def feed(self, data: bytes) -> list[Message]:
        self._buffer += data
        messages: list[Message] = []
        while True:
            start = self._buffer.find(SOF)
            if start < 0:
                self._skip(len(self._buffer))
                return messages
            self._skip(start)
            if len(self._buffer) < 2:
                return messages
            length = self._buffer[1]
            if length > MAX_PAYLOAD:
                self._skip(1)
                continue
            if len(self._buffer) < OVERHEAD + length:
                later = self._later_frame()
                if later < 0:
                    return messages
                self.stats.false_starts += 1
                self._skip(later)
                continue
            message = self._frame(length)
            if message is not None:
                messages.append(message)

    def _later_frame(self) -> int:
        """Where a complete, valid frame starts after the (incomplete) one at 0, or -1.

        Garbage may hold a start byte with a long length; rather than wait for
        up to 246 bytes (seconds, at heartbeat pace), the first complete frame
        behind it proves it false.
        """
        at = self._buffer.find(SOF, 1)
        while at >= 0:
            if at + 1 < len(self._buffer):
                length = self._buffer[at + 1]
                end = at + HEADER + length
                if length <= MAX_PAYLOAD and end + 2 <= len(self._buffer):
                    if crc16(bytes(self._buffer[at + 1 : end])) == int.from_bytes(self._buffer[end : end + 2], "big"):
                        return at
            at = self._buffer.find(SOF, at + 1)
        return -1

    def _frame(self, length: int) -> Message | None:
        end = HEADER + length
        body = bytes(self._buffer[1:end])
        if crc16(body) != int.from_bytes(self._buffer[end : end + 2], "big"):
            self.stats.crc_errors += 1
            self._skip(1)
            return None
        del self._buffer[: end + 2]
        try:
            message = decode(body[1], body[2], body[3:])
        except Malformed:
            self.stats.malformed += 1
            return None
        self.stats.frames += 1
        return message

    def _skip(self, count: int) -> None:
        self.stats.skipped_bytes += count
        del self._buffer[:count]

    @property
    def pending(self) -> int:
        """Bytes held back waiting for the rest of a frame."""
        return len(self._buffer)


# ---- the spec's JSON form (test vectors, board-monitor --raw) --------------


def as_dict(message: Message) -> dict[str, Any]:
    """A message as the test vectors write it: ``{"type": "TAG_ON", "seq": 7, ...}``."""
    fields: dict[str, Any] = {"type": type_name(message), "seq": message.seq}
    match message:
        case Hello(protocol, firmware, readers, working, _, board_id):
            fields.update(protocol=list(protocol), firmware=list(firmware), readers=readers, working=sorted(working))
            if board_id is not None:
                fields.update(board_id=board_id.hex())
        case Stats(part, parts, counts):
            fields.update(part=part, parts=parts, counts=[[r, format_uid(u), s, n] for r, u, s, n in counts])
        case StatsRequest(restart):
            fields.update(restart=restart)
        case Readers(readers, working):
            fields.update(readers=readers, working=sorted(working))
        case TagOn(reader, uid) | TagOff(reader, uid):
            fields.update(reader=reader, uid=format_uid(uid))
        case Snapshot(part, parts, tags):
            fields.update(part=part, parts=parts, tags=[[r, format_uid(u)] for r, u in tags])
        case Log(level, text):
            fields.update(level=level, text=text)
        case HelloRequest(protocol) | Welcome(protocol):
            fields.update(protocol=list(protocol))
        case Led(mode, colour, leds):
            fields.update(mode=mode, colour=list(colour), leds=list(leds))
        case Buzzer(frequency, duration_ms):
            fields.update(frequency=frequency, duration_ms=duration_ms)
        case Unknown(_, payload):
            fields.update(payload=payload.hex())
    return fields


def from_dict(fields: dict[str, Any]) -> Message:
    """The inverse of :func:`as_dict`; raises KeyError or ValueError if malformed."""
    name, seq = fields["type"], int(fields.get("seq", 0))
    kinds = {v: k for k, v in TYPE_NAMES.items()}
    if name not in kinds:
        return Unknown(int(name, 16), bytes.fromhex(fields.get("payload", "")), seq)
    kind = kinds[name]
    if kind is Hello:
        board_id = fields.get("board_id")
        return Hello(_pair(fields["protocol"]), _triple(fields["firmware"]), int(fields["readers"]),
                     frozenset(fields["working"]), seq, None if board_id is None else bytes.fromhex(board_id))
    if kind is Stats:
        counts = tuple((int(r), parse_uid(u), int(s), int(n)) for r, u, s, n in fields["counts"])
        return Stats(int(fields["part"]), int(fields["parts"]), counts, seq)
    if kind is StatsRequest:
        return StatsRequest(bool(fields["restart"]), seq)
    if kind is Readers:
        return Readers(int(fields["readers"]), frozenset(fields["working"]), seq)
    if kind in (TagOn, TagOff):
        return kind(int(fields["reader"]), parse_uid(fields["uid"]), seq)  # type: ignore[no-any-return]
    if kind is Snapshot:
        tags = tuple((int(r), parse_uid(u)) for r, u in fields["tags"])
        return Snapshot(int(fields["part"]), int(fields["parts"]), tags, seq)
    if kind is Log:
        return Log(fields["level"], fields["text"], seq)
    if kind in (HelloRequest, Welcome):
        return kind(_pair(fields["protocol"]), seq)  # type: ignore[no-any-return]
    if kind is Led:
        return Led(fields["mode"], _triple(fields["colour"]), tuple(fields["leds"]), seq)
    if kind is Buzzer:
        return Buzzer(int(fields["frequency"]), int(fields["duration_ms"]), seq)
    return kind(seq=seq)  # type: ignore[no-any-return]


def _pair(values: list[int]) -> tuple[int, int]:
    first, second = values
    return int(first), int(second)


def _triple(values: list[int]) -> tuple[int, int, int]:
    first, second, third = values
    return int(first), int(second), int(third)
