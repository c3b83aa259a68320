"""The board's side of the conversation (docs/protocol.md, "The board").

:class:`Board` is pure logic on an injected clock and transport: main.py
gives it ``time.ticks_ms`` and the USB serial port, the tests a fake clock
and a byte buffer. Call :meth:`Board.poll` once per main-loop pass (or
:meth:`Board.receive` and :meth:`Board.tick` separately).
"""

import time

import frames
from frames import (
    BUZZER, ERROR, HEARTBEAT, HELLO, HELLO_REQUEST, HOST_HEARTBEAT, INFO, LED, LOG, READERS, SNAPSHOT,
    SNAPSHOT_REQUEST, STATS, STATS_REQUEST, STATS_RESTART, TAG_OFF, TAG_ON, WARNING, WELCOME,
)
from mfrc522 import OVERHEATED, WAS_RESET
from scanner import PLACED


class Timing:
    """The link's constants in ms (config.py), gathered so tests can pass their own."""

    def __init__(self, hello_retry=1000, heartbeat=1000, host_timeout=3000, stale=200):
        self.hello_retry = hello_retry
        self.heartbeat = heartbeat
        self.host_timeout = host_timeout
        self.stale = stale  # a half frame with no byte for this long is given up (frames.Parser.expire)


class Board:
    """Unwelcomed after a reset (HELLO every second), welcomed after a WELCOME of our major."""

    def __init__(self, scanner, leds, buzzer, status, transport, clock, *, protocol=frames.PROTOCOL,
                 firmware=(1, 0, 0), timing=None, names=None, board_id=b""):
        self.scanner = scanner
        self.leds = leds
        self.buzzer = buzzer
        self.status = status
        self._transport = transport  # .read() -> bytes or None, .write(bytes)
        self._clock = clock  # () -> ms, as time.ticks_ms
        self._protocol = protocol
        self._firmware = firmware
        self._timing = timing or Timing()
        self._names = names
        self._board_id = board_id  # machine.unique_id(): 8 bytes on the RP2040, sent in HELLO
        self._parser = frames.Parser()
        self._last_byte = 0  # when the host's last byte came
        self.seq = 0
        self.welcomed = False
        self._last_hello = None  # None: say HELLO at the next tick
        self._last_beat = 0
        self._last_host = None  # when the last good frame came; None: not waiting for one
        self._now = 0
        self._logged = 0  # the working bitmask as last logged

    # ---- the outside world ------------------------------------------------------

    def start(self):
        """Set the readers up; the first :meth:`tick` then says HELLO."""
        self._now = self._clock()
        self._logged = self.scanner.start(self._now)
        for i in range(self.scanner.count):
            if not self._logged >> i & 1:
                self._log_reader(i, False)

    @property
    def stop_requested(self):
        """CR or Ctrl-C then Ctrl-C arrived outside any frame: someone wants the REPL."""
        return self._parser.interrupted

    def poll(self):
        """One main-loop pass: take what the host sent, then :meth:`tick`."""
        data = self._transport.read()
        if data:
            self.receive(data)
        elif self._parser.pending and time.ticks_diff(self._clock(), self._last_byte) >= self._timing.stale:
            self._now = self._clock()
            self._act(self._parser.expire())
        self.tick()

    def receive(self, data):
        """Bytes from the host, acted on at once."""
        self._now = self._last_byte = self._clock()
        self._act(self._parser.feed(data))

    def _act(self, found):
        for kind, _seq, payload in found:
            self._last_host = self._now
            self._answer(kind, payload)

    def tick(self):
        """Scan every reader once and keep the link's time."""
        now = self._now = self._clock()
        self._check_host(now)
        if self.scanner.scan(now, self._on_tag):
            self._health_changed()
        self._keep_time(now)
        self.leds.update(now)
        self.buzzer.update(now)
        self.status.update(now, self.welcomed)

    # ---- sending ------------------------------------------------------------------

    def _send(self, kind, payload=b""):
        self._transport.write(frames.encode(kind, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFF

    def log(self, level, text):
        """A LOG frame: the only way text leaves the board."""
        self._send(LOG, frames.log_payload(level, text))

    def _hello(self):
        self._send(HELLO, frames.hello_payload(self._protocol, self._firmware, self.scanner.count,
                                               self.scanner.working, self._board_id))
        self._last_hello = self._now

    def _snapshot(self):
        """Every part back to back, then READERS: the snapshot that repairs a gap repairs health too."""
        for payload in frames.snapshot_payloads(self.scanner.entries()):
            self._send(SNAPSHOT, payload)
        self._readers()

    def _stats(self, flags):
        """Each reader's read counts per tag (the bench survey); with STATS_RESTART, counting starts afresh."""
        for payload in frames.stats_payloads(self.scanner.stats()):
            self._send(STATS, payload)
        if flags & STATS_RESTART:
            self.scanner.reset_stats()

    def _readers(self):
        self._send(READERS, frames.readers_payload(self.scanner.count, self.scanner.working))

    # ---- what the host says -----------------------------------------------------------

    def _answer(self, kind, payload):
        if kind == HOST_HEARTBEAT:
            return  # it only keeps the link alive
        if kind == HELLO_REQUEST:
            self.welcomed = False
            self._hello()
        elif kind == WELCOME:
            self._welcome(payload)
        elif kind == SNAPSHOT_REQUEST:
            self._snapshot()
        elif kind == LED:
            self.leds.set(payload[0], payload[1], payload[2], payload[3], payload[4:])
        elif kind == BUZZER:
            self.buzzer.sound(payload[0] << 8 | payload[1], payload[2] << 8 | payload[3], self._now)
        elif kind == STATS_REQUEST:
            self._stats(payload[0])
        else:  # a board -> host type, or one from a newer minor version
            self.log(WARNING, "ignored a frame of type 0x%02X from the host" % kind)

    def _welcome(self, payload):
        if payload[0] != self._protocol[0]:
            self.log(ERROR, "host speaks protocol %d.%d, this firmware %d.%d: WELCOME ignored"
                     % (payload[0], payload[1], self._protocol[0], self._protocol[1]))
            return
        self.welcomed = True
        self._last_beat = self._now
        self._snapshot()

    # ---- what happens by itself ----------------------------------------------------------

    def _on_tag(self, change, reader, uid):
        if self.welcomed:
            self._send(TAG_ON if change == PLACED else TAG_OFF, frames.tag_payload(reader, uid))

    def _health_changed(self):
        working = self.scanner.working
        changed = working ^ self._logged
        self._logged = working
        for i in range(self.scanner.count):
            if changed >> i & 1:
                self._log_reader(i, working >> i & 1)
        if self.welcomed:  # unwelcomed, the next HELLO carries it
            self._readers()

    def _log_reader(self, i, working):
        """One line each time a reader fails or works again, saying why (Scanner.why)."""
        reader = "reader %d" % i
        if self._names and i < len(self._names):
            reader += " (%s)" % self._names[i]
        why = self.scanner.why(i)
        if working:
            self.log(INFO, reader + (" cooled down; antenna on again" if why == OVERHEATED else " answers again"))
        elif why == WAS_RESET:  # a power dip or a glitch on RST: the scanner sets it up on the next pass
            self.log(WARNING, reader + " reset itself (power dip?): set up again")
        elif why == OVERHEATED:
            self.log(ERROR, reader + " overheated; antenna off until it cools down")
        else:
            read = self.scanner.readers[i].version_read
            seen = " (VersionReg 0x%02X)" % read if read else ""
            self.log(ERROR, reader + ": no module answers%s: check its cable (CS, 3.3 V, GND, MISO)" % seen)

    def _check_host(self, now):
        """Three seconds without a frame: LEDs off and back to HELLO, for a host that comes back."""
        if self._last_host is None or time.ticks_diff(now, self._last_host) < self._timing.host_timeout:
            return
        self._last_host = None
        self.leds.off()
        self.buzzer.silence()
        if self.welcomed:
            self.welcomed = False
            self._last_hello = None
            self.log(WARNING, "no frame from the host for %d ms: saying HELLO again" % self._timing.host_timeout)

    def _keep_time(self, now):
        if not self.welcomed:
            if self._last_hello is None or time.ticks_diff(now, self._last_hello) >= self._timing.hello_retry:
                self._hello()
        elif time.ticks_diff(now, self._last_beat) >= self._timing.heartbeat:
            self._last_beat = now
            self._send(HEARTBEAT)
