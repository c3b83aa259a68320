"""The wire protocol's framing (docs/protocol.md): encode frames, parse a stream.

A frame is ``A5 LEN TYPE SEQ PAYLOAD CRC_HI CRC_LO`` with the CRC-16/CCITT-FALSE
of LEN..PAYLOAD. The parser works on raw fields, (type, seq, payload), rather
than message objects: the board only acts on a handful of host types.
"""

import binascii

from micropython import const

PROTOCOL = (1, 1)  # major, minor (docs/protocol.md, Versions); 1.1 added the board id and STATS
SOF = const(0xA5)
MAX_PAYLOAD = const(240)
_SOF = b"\xa5"
_OVERHEAD = const(6)  # SOF, LEN, TYPE, SEQ and two CRC bytes

# Board -> host.
HELLO = const(0x01)
HEARTBEAT = const(0x02)
TAG_ON = const(0x03)
TAG_OFF = const(0x04)
SNAPSHOT = const(0x05)
READERS = const(0x06)
LOG = const(0x07)
STATS = const(0x08)
# Host -> board.
HELLO_REQUEST = const(0x81)
WELCOME = const(0x82)
HOST_HEARTBEAT = const(0x83)
SNAPSHOT_REQUEST = const(0x84)
LED = const(0x85)
BUZZER = const(0x86)
STATS_REQUEST = const(0x87)
STATS_RESTART = const(1)  # STATS_REQUEST flag: start counting afresh after answering

DEBUG = const(0)
INFO = const(1)
WARNING = const(2)
ERROR = const(3)

UID_SIZES = (4, 7, 10)


def _crc_table():
    table = []
    for high in range(256):
        crc = high << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
        table.append(crc)
    return tuple(table)


_TABLE = _crc_table()  # a tuple: read-only, so not mutable module state


def crc16(data, start=0, end=None):
    """CRC-16/CCITT-FALSE of ``data[start:end]``, without copying the slice.

    (MicroPython's binascii has no crc_hqx.) Check value: b"123456789" -> 0x29B1.
    """
    if end is None:
        end = len(data)
    crc = 0xFFFF
    table = _TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ data[i]]
    return crc


def encode(kind, seq, payload):
    """One complete frame; raises ValueError for a payload over 240 bytes."""
    size = len(payload)
    if size > MAX_PAYLOAD:
        raise ValueError("payload over 240 bytes")
    frame = bytearray(size + _OVERHEAD)
    frame[0] = SOF
    frame[1] = size
    frame[2] = kind
    frame[3] = seq & 0xFF
    frame[4 : 4 + size] = payload
    crc = crc16(frame, 1, 4 + size)
    frame[4 + size] = crc >> 8
    frame[5 + size] = crc & 0xFF
    return frame


# ---- board -> host payloads -------------------------------------------------


def bitmap(count, working):
    """The working bitmap: bit i of byte i // 8 set when reader i answers.

    ``working`` is an int with bit i set for each working reader.
    """
    bits = bytearray((count + 7) // 8)
    for i in range(count):
        if working >> i & 1:
            bits[i >> 3] |= 1 << (i & 7)
    return bits


def hello_payload(protocol, firmware, count, working, board_id=b""):
    """HELLO; since 1.1 the bitmap is followed by the board id's length and bytes (machine.unique_id())."""
    head = bytes((protocol[0], protocol[1], firmware[0], firmware[1], firmware[2], count))
    return head + bitmap(count, working) + bytes((len(board_id),)) + board_id


def readers_payload(count, working):
    return bytes((count,)) + bitmap(count, working)


def tag_payload(reader, uid):
    return bytes((reader,)) + uid


def log_payload(level, text):
    """A LOG payload, the text cut to fit one frame without splitting a character."""
    raw = text.encode()
    if len(raw) > MAX_PAYLOAD - 1:
        cut = MAX_PAYLOAD - 1
        while cut and raw[cut] & 0xC0 == 0x80:  # never end inside a UTF-8 sequence
            cut -= 1
        raw = raw[:cut]
    return bytes((level,)) + raw


def snapshot_payloads(entries):
    """SNAPSHOT payloads for ``entries`` (reader, uid), split at 240 bytes.

    An empty board is one part with no tags.
    """
    parts = []
    part = bytearray(2)
    for reader, uid in entries:
        if len(part) + 2 + len(uid) > MAX_PAYLOAD:
            parts.append(part)
            part = bytearray(2)
        part.append(reader)
        part.append(len(uid))
        part.extend(uid)
    parts.append(part)
    for index, part in enumerate(parts):
        part[0] = index
        part[1] = len(parts)
    return parts


def _u32(value):
    value = min(value, 0xFFFFFFFF)
    return bytes((value >> 24 & 0xFF, value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF))


def stats_payloads(stats):
    """STATS payloads for ``stats`` ({reader: {uid_hex: (seen, scans)}}, as Scanner.stats()), split at 240 bytes.

    Each entry: reader, UID length, UID, then how many scans saw the tag and
    how many scans the reader made while counting (4 bytes each). No
    counts at all is one part with no entries.
    """
    parts = []
    part = bytearray(2)
    for reader in sorted(stats):
        tags = stats[reader]
        for uid_hex in sorted(tags):
            seen, scans = tags[uid_hex]
            entry = bytes((reader, len(uid_hex) // 2)) + binascii.unhexlify(uid_hex) + _u32(seen) + _u32(scans)
            if len(part) + len(entry) > MAX_PAYLOAD:
                parts.append(part)
                part = bytearray(2)
            part.extend(entry)
    parts.append(part)
    for index, part in enumerate(parts):
        part[0] = index
        part[1] = len(parts)
    return parts


# ---- what a payload must look like -----------------------------------------


def _bitmap_fits(count, data, start):
    """The bitmap at data[start:] covers ``count`` readers and marks none beyond."""
    size = (count + 7) // 8
    if len(data) - start < size:
        return False
    for i in range(count, size * 8):
        if data[start + (i >> 3)] >> (i & 7) & 1:
            return False
    return True


def _id_fits(payload, at):
    """A 1.1 HELLO's board id (length, bytes) after the bitmap, if any, is all there."""
    return at >= len(payload) or len(payload) - at >= 1 + payload[at]


def _entries_fit(payload, tail):
    """SNAPSHOT (``tail`` 0) and STATS (``tail`` 8): part < parts, then entries of reader, UID size, UID, tail."""
    if len(payload) < 2 or payload[0] >= payload[1]:
        return False
    at = 2
    while at < len(payload):
        if at + 2 > len(payload) or payload[at + 1] not in UID_SIZES:
            return False
        at += 2 + payload[at + 1] + tail
    return at == len(payload)


def fits(kind, payload):
    """Whether ``payload`` is well formed for ``kind`` (docs/protocol.md, Messages).

    A frame that fails this is dropped whole; unknown types pass (a newer
    minor version may add them) and so do extra bytes after HELLO,
    HELLO_REQUEST, WELCOME and STATS_REQUEST.
    """
    size = len(payload)
    if kind in (HEARTBEAT, HOST_HEARTBEAT, SNAPSHOT_REQUEST):
        return size == 0
    if kind in (TAG_ON, TAG_OFF):
        return size - 1 in UID_SIZES
    if kind == HELLO:
        return size >= 6 and _bitmap_fits(payload[5], payload, 6) and _id_fits(payload, 6 + (payload[5] + 7) // 8)
    if kind == READERS:
        return size >= 1 and size == 1 + (payload[0] + 7) // 8 and _bitmap_fits(payload[0], payload, 1)
    if kind == SNAPSHOT:
        return _entries_fit(payload, 0)
    if kind == STATS:
        return _entries_fit(payload, 8)
    if kind == LOG:
        return size >= 1 and payload[0] <= ERROR
    if kind in (HELLO_REQUEST, WELCOME):
        return size >= 2
    if kind == STATS_REQUEST:
        return size >= 1
    if kind == LED:
        return size >= 4 and payload[0] <= 2
    if kind == BUZZER:
        return size == 4
    return True


# ---- the incremental parser -------------------------------------------------


class Parser:
    """Turns any byte stream into (type, seq, payload) frames; never raises.

    Resync as the spec says: a start byte followed by a LEN over 240 or a bad
    CRC is a false start, and only that one byte is dropped. An incomplete
    frame is given up as soon as a complete valid frame starts later in the
    buffer, so a false start with a long LEN never holds back real frames.
    """

    def __init__(self):
        self._buf = bytearray()
        self.skipped = 0  # bytes that were not part of any good frame
        self.interrupted = False  # the stop sequence came outside frames: see ``_skip``
        self._last = 0  # the byte skipped before, outside any frame
        self._shadow = 0  # bytes still to skip that a rejected frame's LEN covered

    @property
    def pending(self):
        """Bytes held back waiting for the rest of a frame."""
        return len(self._buf)

    def feed(self, data):
        """Add ``data``; returns the list of frames it completed."""
        buf = self._buf
        buf.extend(data)
        found = []
        while True:
            start = buf.find(_SOF)
            if start < 0:
                self._skip(len(buf))
                return found
            self._skip(start)
            if len(buf) < 2:
                return found
            size = buf[1]
            if size > MAX_PAYLOAD:
                self._skip(1)
            elif len(buf) < size + _OVERHEAD:
                later = self._later_frame()
                if later < 0:
                    return found
                self._shadow = max(self._shadow, later)  # an incomplete frame's bytes
                self._skip(later)
            elif self._crc_ok(0, size):
                self._take(size, found)
            else:
                self._shadow = max(self._shadow, size + _OVERHEAD)  # a damaged frame's bytes
                self._skip(1)

    def expire(self):
        """Give up the incomplete frame held (the host went quiet halfway); returns frames after it.

        The board calls this when no byte has come for a while: the host writes
        each frame whole, so a half frame that waits is one whose writer died
        (a killed companion). Its bytes are then read as bytes outside frames,
        so an ``mpremote`` that follows can still stop the firmware.
        """
        if not self._buf:
            return []
        self._shadow = 0
        self._skip(1)
        return self.feed(b"")

    def _crc_ok(self, at, size):
        buf = self._buf
        end = at + 4 + size
        return crc16(buf, at + 1, end) == (buf[end] << 8 | buf[end + 1])

    def _later_frame(self):
        """Where a complete, valid frame starts after the incomplete one at 0, or -1."""
        buf = self._buf
        at = buf.find(_SOF, 1)
        while 0 <= at < len(buf) - 1:
            size = buf[at + 1]
            if size <= MAX_PAYLOAD and at + size + _OVERHEAD <= len(buf) and self._crc_ok(at, size):
                return at
            at = buf.find(_SOF, at + 1)
        return -1

    def _take(self, size, found):
        buf = self._buf
        kind = buf[2]
        seq = buf[3]
        payload = bytes(buf[4 : 4 + size])
        buf[0 : size + _OVERHEAD] = b""
        self._last = 0
        self._shadow = 0
        if fits(kind, payload):
            found.append((kind, seq, payload))
        else:
            self.skipped += size + _OVERHEAD

    def _skip(self, count):
        """Drop ``count`` bytes that belong to no good frame, watching for the stop sequence.

        The host only ever sends frames, so a Ctrl-C (0x03) right after a CR
        or another Ctrl-C, outside any frame, is someone asking for the REPL:
        ``mpremote`` sends CR, Ctrl-C to interrupt a program (then CR, Ctrl-A
        for the raw REPL: main.py leaves that to the REPL, see UsbSerial.read)
        and a person at ``mpremote repl`` presses Ctrl-C twice. main.py acts on
        ``interrupted``. Frames have no escaping: LEN says where one ends, so
        any byte inside a frame is data. Bytes that a damaged or abandoned
        frame's LEN covered are skipped without looking ("shadow"), so a 0x03
        in a frame never stops the firmware, even in one that failed its CRC.
        """
        if not count:
            return
        buf = self._buf
        for i in range(count):
            byte = buf[i]
            if self._shadow:
                self._shadow -= 1
                byte = 0
            elif byte == 0x03 and (self._last == 0x0D or self._last == 0x03):
                self.interrupted = True
            self._last = byte
        self.skipped += count
        buf[0:count] = b""
