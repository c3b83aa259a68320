"""The companion's connection to the board controller, on pyserial.

:class:`BoardLink` opens the port (found by the Pico's USB vendor ID unless
named), runs :class:`~hardware.link_core.LinkCore` on pyserial's threaded
reader, reconnects with backoff after an unplug, and delivers
:mod:`~hardware.link_events` to a callback or a queue. The threads stay in
here: whoever consumes the events sees only plain values.

>>> import queue
>>> from hardware.virtual_board import VirtualBoard
>>> events: queue.Queue[LinkEvent] = queue.Queue()
>>> with VirtualBoard(readers=4) as board, BoardLink(board.port, events) as link:
...     board.place("04:A2:1B:3C", 2)
...     print(events.get(timeout=5).as_dict()["event"], events.get(timeout=5))
link_up TagPlaced(reader=2, uid='04:A2:1B:3C')
"""

from __future__ import annotations

import errno
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import serial
import serial.threaded
from serial.tools import list_ports

from companion.rules.errors import ClueError

from .link_core import LinkCore, LinkTiming
from .link_events import BoardInfo, BoardLog, LinkDown, LinkEvent, LinkStatus, LinkUp, ReadersChanged
from .protocol import Buzzer, Led, Message, SnapshotRequest, StatsRequest

__all__ = ["BoardLink", "LinkEvent", "LinkStatus", "LinkTiming", "PortError", "find_board_port", "PICO_VID"]

PICO_VID = 0x2E8A  # Raspberry Pi (the Pico's USB vendor ID)
PORT_VARIABLE = "CLUE_BOARD_PORT"
SHOWN_LOG = 20  # the board's last log lines the status keeps (across reconnects: a crash, then the reboot)
Opener = Callable[[str], serial.Serial]
Sink = Callable[[LinkEvent], None] | queue.Queue[LinkEvent]


class PortError(ClueError, OSError):
    """The serial port cannot be used, for a reason retrying will not fix."""

    code = "port_error"


def find_board_port() -> str | None:
    """The first serial port whose USB vendor ID is the Pico's, or None."""
    ports = sorted(p.device for p in list_ports.comports() if p.vid == PICO_VID)
    return ports[0] if ports else None


def open_port(port: str) -> serial.Serial:
    """Open ``port`` (a device path or a pyserial URL) the way the board wants it."""
    return serial.serial_for_url(port, baudrate=115200, exclusive=True)


def explain_open_error(port: str, err: Exception) -> tuple[str, bool]:
    """A sentence for a failed open, and whether trying again may help."""
    code = getattr(err, "errno", None)
    if code in (errno.EACCES, errno.EPERM):
        return f"permission denied opening {port}: {permission_fix(port)}", False
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return f"{port} is not there: is the board plugged in?", True
    if code in (errno.EBUSY,) or "lock" in str(err).lower():
        return f"{port} is in use by another program (another companion or board-monitor?)", True
    return f"cannot open {port}: {err}", True


def permission_fix(port: str) -> str:
    """What to do about a port this process may not open: join the group that owns it.

    The group is the device's own (``dialout`` on Debian and Raspberry Pi OS,
    ``uucp`` on Arch); a user already in it whose process started before
    joining only needs a fresh login (or a restart of the service).
    """
    user, group = _user(), _group_of(port)
    if group is None:
        return f"give the user {user} read and write access to {port}"
    if _listed_in(user, group):
        return (f"the user {user} is in the {group} group, but this process started before joining it: "
                f"log out and back in, or restart the service")
    return (f"add the user {user} to the {group} group (sudo usermod -aG {group} {user}), "
            f"then log out and back in, or restart the service")


def _user() -> str:
    try:
        import pwd
        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return os.environ.get("USER") or "$USER"


def _group_of(port: str) -> str | None:
    try:
        import grp
        return grp.getgrgid(os.stat(port).st_gid).gr_name
    except (ImportError, KeyError, OSError):
        return "dialout" if port.startswith("/dev/tty") else None


def _listed_in(user: str, group: str) -> bool:
    try:
        import grp
        return user in grp.getgrnam(group).gr_mem
    except (ImportError, KeyError):
        return False


class BoardLink:
    """A live link to one board; ``open()``/``close()`` or use it as a context manager.

    ``port`` wins over the ``CLUE_BOARD_PORT`` environment variable, which wins
    over looking the board up by USB vendor ID (like gpiozero's pin factories).
    """

    def __init__(self, port: str | None = None, events: Sink | None = None, *,
                 timing: LinkTiming = LinkTiming(), opener: Opener | None = None,
                 find_port: Callable[[], str | None] = find_board_port) -> None:
        self._named = port or os.environ.get(PORT_VARIABLE) or None
        self._sink = events
        self.timing = timing
        self._opener = opener
        self._find_port = find_port
        self._lock = threading.RLock()
        self._core = LinkCore(self._named or "?", timing)
        self._serial: serial.Serial | None = None
        self._reader: serial.threaded.ReaderThread | None = None
        self._lost: str | None = None
        self._running = False
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._said = ""  # the last LinkDown reason given: said again only after another reason, or an up
        self._status = LinkStatus("down", port=self._named)
        self._board_log: deque[tuple[float, BoardLog]] = deque(maxlen=SHOWN_LOG)
        self.connects = 0

    # ---- lifetime -----------------------------------------------------------------------

    def open(self) -> BoardLink:
        """Connect (or keep trying in the background). Raises :class:`PortError`
        at once if the named port can never work (permission denied)."""
        if self._named is not None:
            self._connect(self._named, raise_fatal=True)
        self._running = True
        self._thread = threading.Thread(target=self._supervise, name="board-link", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._running = False
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self._disconnect("closed")
        self._deliver()

    def __enter__(self) -> BoardLink:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- what the companion asks -------------------------------------------------------------

    @property
    def is_up(self) -> bool:
        with self._lock:
            return self._core.is_up

    @property
    def info(self) -> BoardInfo | None:
        with self._lock:
            return self._core.info

    def status(self) -> LinkStatus:
        """Up or not, why not and since when, and the board's last log lines (for the host page).

        Safe from any thread; every failure reason is in it, even one the events said already.
        """
        with self._lock:
            return replace(self._status, log=tuple(self._board_log))

    @property
    def tags(self) -> frozenset[tuple[int, str]]:
        """Every (reader, uid) reported placed and not since removed."""
        with self._lock:
            return frozenset(self._core.reported)

    def set_leds(self, mode: str, colour: tuple[int, int, int] = (0, 0, 0), leds: tuple[int, ...] = ()) -> None:
        """Light LEDs (``"on"``, ``"blink"``) or turn them ``"off"``; no LEDs named means all."""
        self.send(Led(mode, colour, tuple(leds)))

    def buzz(self, frequency: int, duration_ms: int) -> None:
        self.send(Buzzer(frequency, duration_ms))

    def request_snapshot(self) -> None:
        self.send(SnapshotRequest())

    def request_stats(self, restart: bool = False) -> None:
        """Ask for the read counts (a BoardStats event follows); ``restart`` starts counting afresh after."""
        self.send(StatsRequest(restart))

    def send(self, message: Message) -> None:
        """Send a host command; dropped (like any frame on a dead link) if not connected."""
        with self._lock:
            if self._serial is not None:
                self._write(self._core.command(message))

    # ---- the supervisor thread ---------------------------------------------------------------

    def _supervise(self) -> None:
        backoff = self.timing.backoff_min
        next_try = 0.0
        while self._running:
            with self._lock:
                lost = self._lost
            if lost is not None:
                self._disconnect(lost)  # outside the lock: it waits for the reader thread
            now = time.monotonic()
            with self._lock:
                if self._serial is None and now >= next_try:
                    port = self._named or self._find_port()
                    if port is None:
                        self._failed(f"no board found (no USB serial device with vendor ID 0x{PICO_VID:04X}); "
                                     f"plug it in, or name its device (--serial, or [board] port in the config)")
                    elif self._connect(port):
                        backoff = self.timing.backoff_min
                    if self._serial is None:
                        next_try = now + backoff
                        backoff = min(backoff * 2, self.timing.backoff_max)
                if self._serial is not None:
                    self._write(self._core.tick(now))
            self._deliver()
            self._wake.wait(0.01)
            self._wake.clear()

    def _connect(self, port: str, raise_fatal: bool = False) -> bool:
        try:
            handle = (self._opener or open_port)(port)
        except (serial.SerialException, OSError, ValueError) as err:
            reason, retry = explain_open_error(port, err)
            if raise_fatal and not retry:
                raise PortError(reason) from None
            self._failed(reason)
            return False
        handle.reset_input_buffer()
        self._serial, self._lost = handle, None
        self._core.port = port
        self.connects += 1
        with self._lock:  # a port is open: the last failure is past; the handshake decides what comes next
            self._status = replace(self._status, state="connecting", reason=None, port=port)
        self._write(self._core.opened(time.monotonic()))
        self._reader = _ReaderThread(handle, lambda: _Receiver(self, handle))
        self._reader.start()
        return True

    def _disconnect(self, reason: str) -> None:
        with self._lock:
            reader, self._reader = self._reader, None
            handle, self._serial = self._serial, None
            self._lost = None
            if handle is not None:
                self._core.closed(reason)
                if self._status.state == "connecting" and reason != "closed":  # never up: nothing was said
                    self._status = replace(self._status, state="down", reason=reason)
        if reader is not None and reader is not threading.current_thread():
            reader.stop()
        if handle is not None:
            handle.close()
        self._deliver()  # the LinkDown goes out before any news of reconnecting

    def _failed(self, reason: str) -> None:
        self._put(LinkDown(reason))  # said once per reason (see _note), not at every retry

    def _write(self, data: bytes) -> None:
        if data and self._serial is not None:
            try:
                self._serial.write(data)
            except (serial.SerialException, OSError) as err:
                self._lost = f"the board went away (writing failed: {err})"

    # ---- from the reader thread -------------------------------------------------------------

    def _received(self, handle: serial.Serial, data: bytes) -> None:
        with self._lock:
            if handle is self._serial:
                self._write(self._core.received(data, time.monotonic()))
        self._deliver()

    def _lost_connection(self, handle: serial.Serial, error: BaseException | None) -> None:
        with self._lock:
            if handle is self._serial and self._running:
                self._lost = "the board went away (unplugged, or its USB reset)" if error else "the port closed"
        self._wake.set()

    # ---- delivery ------------------------------------------------------------------------------

    def _deliver(self) -> None:
        with self._lock:
            for event in self._core.events_due(time.monotonic()):
                self._put(event)

    def _put(self, event: LinkEvent) -> None:
        with self._lock:
            if not self._note(event, time.time()):
                return
        if isinstance(self._sink, queue.Queue):
            self._sink.put(event)
        elif self._sink is not None:
            self._sink(event)

    def _note(self, event: LinkEvent, now: float) -> bool:
        """Keep the status up to date; False for a LinkDown whose reason was given already."""
        status = self._status
        match event:
            case LinkDown(reason):
                since = status.since if status.state != "up" and status.since is not None else now
                self._status = replace(status, state="down", reason=reason, since=since)
                if reason == self._said:
                    return False
                self._said = reason
            case LinkUp(info):
                self._status = replace(status, state="up", reason=None, since=now, port=info.port, info=info)
                self._said = ""
            case ReadersChanged() if status.info is not None:
                self._status = replace(status, info=replace(status.info, working=event.working))
            case BoardLog():
                self._board_log.append((now, event))
        return True


class _ReaderThread(serial.threaded.ReaderThread):
    """pyserial's reader thread, but a port that vanishes inside ``in_waiting``
    (EIO from a pty or an unplugged USB device, raised as a bare OSError that
    pyserial does not catch there) is a lost connection, not a crashed thread."""

    def run(self) -> None:
        try:
            super().run()
        except OSError as err:
            self.alive = False
            protocol: serial.threaded.Protocol | None = getattr(self, "protocol", None)
            self.protocol = None  # type: ignore[assignment]  # as pyserial leaves it after a loss
            if protocol is not None:
                protocol.connection_lost(err)


class _Receiver(serial.threaded.Protocol):
    """pyserial's reader thread hands each chunk of bytes here."""

    def __init__(self, link: BoardLink, handle: serial.Serial) -> None:
        self._link = link
        self._handle = handle

    def data_received(self, data: Any) -> None:
        self._link._received(self._handle, bytes(data))

    def connection_lost(self, exc: BaseException | None) -> None:
        self._link._lost_connection(self._handle, exc)
