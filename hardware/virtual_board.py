"""The virtual board: the mock twin of the Pico, reachable over a pty.

The real :class:`hardware.board_link.BoardLink` connects to :attr:`VirtualBoard.port`
exactly as to a USB device. Driving methods put tags on readers; fault
injection methods break the link the ways a real one breaks.

>>> with VirtualBoard(readers=4) as board:
...     board.port.startswith("/dev/")
True
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from pathlib import Path

from .board_core import BoardCore, BoardTiming
from .protocol import PROTOCOL, encode, parse_uid

TICK = 0.002  # the board loop's period: a Pico scans 16 readers in about 40 ms
BACKLOG = 65536  # bytes kept for a host that is not reading; older ones are lost, as on USB


def _uid(tag: bytes | str) -> bytes:
    return parse_uid(tag) if isinstance(tag, str) else bytes(tag)


class VirtualBoard:
    """A board controller in a thread, speaking the protocol over a pty.

    ``link``, if given, is a symlink kept pointing at the current pty (as the
    udev rule keeps ``/dev/clue-board``), so a replug does not change the port.
    """

    def __init__(self, readers: int = 16, *, link: str | None = None, firmware: tuple[int, int, int] = (1, 0, 0),
                 protocol: tuple[int, int] = PROTOCOL, timing: BoardTiming = BoardTiming(), seed: int = 0) -> None:
        self.core = BoardCore(readers, firmware=firmware, protocol=protocol, timing=timing)
        self.link = link
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path = ""
        self._outbox = bytearray()
        self._drop = 0
        self._corrupt = 0
        self._frozen = False
        self._rate: float | None = None
        self._running = False
        self._thread: threading.Thread | None = None

    # ---- lifetime --------------------------------------------------------------

    def open(self) -> VirtualBoard:
        with self._lock:
            self._plug()
            self._running = True
        self._thread = threading.Thread(target=self._run, name="virtual-board", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        with self._lock:
            self._unplug()

    def __enter__(self) -> VirtualBoard:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> str:
        """What to connect to: the symlink if there is one, else the pty itself."""
        return self.link or self._slave_path

    @property
    def pty(self) -> str:
        return self._slave_path

    # ---- driving -----------------------------------------------------------------

    def place(self, tag: bytes | str, reader: int) -> None:
        """Put a tag (UID bytes or ``"04:A2:1B:3C"``) on a reader."""
        with self._lock:
            self.core.place(_uid(tag), reader)

    def remove(self, tag: bytes | str) -> None:
        with self._lock:
            self.core.remove(_uid(tag))

    def press_snapshot(self) -> None:
        with self._lock:
            self.core.press_snapshot()

    def fail_reader(self, reader: int) -> None:
        with self._lock:
            self.core.fail_reader(reader)

    def heal_reader(self, reader: int) -> None:
        with self._lock:
            self.core.heal_reader(reader)

    def leds(self) -> dict[int, tuple[str, tuple[int, int, int]]]:
        with self._lock:
            return dict(self.core.leds)

    # ---- faults ----------------------------------------------------------------------

    def send_garbage(self, count: int) -> None:
        """Write ``count`` random bytes (start bytes included) into the stream."""
        with self._lock:
            junk = bytes(self._random.choice((0xA5, self._random.randrange(256))) for _ in range(count))
            self._queue(junk)

    def drop_frames(self, count: int) -> None:
        """Lose the next ``count`` frames (their sequence numbers are still used)."""
        with self._lock:
            self._drop += count

    def corrupt_frames(self, count: int) -> None:
        """Flip a CRC bit in each of the next ``count`` frames."""
        with self._lock:
            self._corrupt += count

    def freeze(self) -> None:
        """Hang: no scanning, no heartbeat, no answers, until :meth:`thaw`."""
        with self._lock:
            self._frozen = True

    def thaw(self) -> None:
        with self._lock:
            self._frozen = False

    def reboot(self) -> None:
        """What the watchdog does: back to HELLO with sequence 0."""
        with self._lock:
            self.core.reboot()
            self._outbox.clear()

    def unplug(self) -> None:
        """Pull the USB cable: the host's port goes away."""
        with self._lock:
            self._unplug()

    def replug(self) -> None:
        """Plug it back in: a new pty, and the board boots afresh."""
        with self._lock:
            if self._master is None:
                self._plug()

    def slow(self, bytes_per_second: float | None) -> None:
        """Throttle what the board writes (None: full speed)."""
        with self._lock:
            self._rate = bytes_per_second

    @property
    def plugged(self) -> bool:
        return self._master is not None

    # ---- the pty ---------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        # Raw from the start: bytes written before the host opens the port
        # must not be echoed or have CR/LF translated.
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._slave_path = os.ttyname(slave)
        self._outbox.clear()
        self.core.reboot()
        if self.link:
            try:
                tmp = Path(f"{self.link}.{os.getpid()}.tmp")
                tmp.unlink(missing_ok=True)
                tmp.symlink_to(self._slave_path)
                tmp.replace(self.link)
            except OSError:
                self._unplug()  # no half-plugged board: close the pty again
                raise

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if self.link:
            Path(self.link).unlink(missing_ok=True)

    def _run(self) -> None:
        last = time.monotonic()
        while self._running:
            master = self._master
            try:
                ready = select.select([master], [], [], TICK)[0] if master is not None else []
            except (OSError, ValueError):
                ready = []  # unplugged between the check and the select
            if master is None:
                time.sleep(TICK)
            now = time.monotonic()
            with self._lock:
                if ready:
                    self._read(now)
                if not self._frozen and self._master is not None:
                    self._emit(now)
                    self._write(now - last)
            last = now

    def _read(self, now: float) -> None:
        try:
            data = os.read(self._master, 4096) if self._master is not None else b""
        except OSError:
            return  # nobody has the port open: nothing to read
        if not self._frozen:
            self.core.receive(data, now)

    def _emit(self, now: float) -> None:
        for message in self.core.poll(now):
            frame = encode(message)
            if self._drop:
                self._drop -= 1
                continue
            if self._corrupt:
                self._corrupt -= 1
                frame = frame[:-1] + bytes([frame[-1] ^ 0x01])
            self._queue(frame)

    def _queue(self, data: bytes) -> None:
        self._outbox += data
        if len(self._outbox) > BACKLOG:
            del self._outbox[: len(self._outbox) - BACKLOG]

    def _write(self, elapsed: float) -> None:
        if not self._outbox or self._master is None:
            return
        budget = len(self._outbox) if self._rate is None else max(1, int(self._rate * elapsed))
        try:
            written = os.write(self._master, bytes(self._outbox[:budget]))
        except (BlockingIOError, OSError):
            return  # the pty is full: the host is not reading; keep the bytes
        del self._outbox[:written]
