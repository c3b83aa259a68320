"""A handheld's buttons on an MCP23008 I/O expander, read over I2C on the unit's multiplexer channel.

Why the MCP23008 (Microchip DS21919) rather than a PCF8574 (NXP PCF8574/74A
rev. 5): both have eight pins, three address pins (MCP23008 0x20-0x27;
PCF8574 0x20-0x27, PCF8574A 0x38-0x3F) and an open-drain interrupt output.
The pull-ups do not decide it: the MCP23008's (switched on in the GPPU
register) are the weaker, nominally 100 kΩ, about 33 µA at 3.3 V (40-115 µA
at 5 V, DS21919 D070), while the PCF8574's quasi-bidirectional pins source
about 100 µA (30-300 µA, rev. 5 section 8.1 and Table 9); both hold an open
button high. The speed does: the MCP23008 runs at 100 kHz, 400 kHz and
1.7 MHz, the PCF8574 is a 100 kHz (Standard-mode) part, which would hold the
whole shared bus to 100 kHz.

The buttons join a pin to GND; the poller reads the GPIO register (0x09)
``poll_hz`` times a second and turns changes into gpiozero-style callbacks
(``when_pressed``, ``when_released``, ``when_held``), so the handheld wires
them exactly as it wires gpiozero's ``Button``. A read that fails (a unit
unplugged) is reported through ``on_fault``; the next good read sets the
pull-ups again first, because a replugged MCP23008 starts with GPPU = 0.

>>> from hardware.i2c_mock import MockI2CBus, MockMCP23008
>>> from hardware.mux import SharedI2C
>>> bus = MockI2CBus()
>>> chip = bus.attach(MockMCP23008(), 0x20, mux=0x70, channel=3)
>>> shared = SharedI2C(1, open_bus=lambda port: bus)
>>> _ = shared.acquire()  # the bus opens with its first user
>>> buttons = ExpanderButtons(MCP23008(shared, 0x70, 3, 0x20), {"up": 0, "ok": 2}, poll_hz=0)
>>> pressed = []
>>> buttons.open()
>>> buttons["ok"].when_pressed = lambda: pressed.append("ok")
>>> buttons.press("ok")
>>> pressed, buttons["ok"].is_pressed
(['ok'], False)
>>> buttons.close()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .i2c_mock import MockI2CBus, MockMCP23008
from .mux import SharedI2C

log = logging.getLogger(__name__)
IODIR, GPPU, GPIO = 0x00, 0x06, 0x09  # DS21919 table 1-3
Callback = Callable[[], object] | None
Fault = Callable[[BaseException | None], None]  # an error while failing; None when it answers again


class MCP23008:
    """One MCP23008 behind a multiplexer channel: its inputs set up, its pins read."""

    def __init__(self, shared: SharedI2C, mux: int | None, channel: int | None, address: int) -> None:
        self.shared, self.mux, self.channel, self.address = shared, mux, channel, address
        shared.attach(mux)

    def setup(self, mask: int) -> None:
        """The ``mask`` pins as inputs with their pull-ups on."""
        def write(bus: Any) -> None:
            bus.write_byte_data(self.address, IODIR, 0xFF)  # all inputs: the reset state, set again after a glitch
            bus.write_byte_data(self.address, GPPU, mask)

        self.shared.run(self.mux, self.channel, write)

    def levels(self) -> int:
        """The GPIO register: a 0 bit is a pin held low (a pressed button)."""
        value: int = self.shared.run(self.mux, self.channel, lambda bus: bus.read_byte_data(self.address, GPIO))
        return value

    def mock(self) -> MockMCP23008 | None:
        """The mock chip when the bus is a :class:`MockI2CBus`, for pressing its buttons."""
        bus = self.shared.bus
        if not isinstance(bus, MockI2CBus):
            return None
        device = bus.device(self.address, self.mux, self.channel)
        return device if isinstance(device, MockMCP23008) else None

    def place(self) -> str:
        where = f"TCA9548A 0x{self.mux:02X} channel {self.channel}, " if self.mux is not None else ""
        return f"MCP23008 0x{self.address:02X} ({where}I2C bus {self.shared.port})"


class ExpanderButton:
    """One button on an expander pin, shaped like gpiozero's ``Button`` (pulled up, active low)."""

    def __init__(self, pin: int, hold_time: float = 1.0) -> None:
        self.pin = pin
        self.hold_time = hold_time
        self.when_pressed: Callback = None
        self.when_released: Callback = None
        self.when_held: Callback = None
        self.is_pressed = False
        self.is_held = False
        self.pin_factory = None  # not a gpiozero pin
        self._since = 0.0

    def close(self) -> None:
        self.when_pressed = self.when_released = self.when_held = None

    def update(self, pressed: bool, now: float) -> list[Callback]:
        """The new level; the callbacks it fires, in order."""
        if pressed == self.is_pressed:
            if pressed and not self.is_held and now - self._since >= self.hold_time:
                self.is_held = True
                return [self.when_held]
            return []
        self.is_pressed, self.is_held, self._since = pressed, False, now
        return [self.when_pressed if pressed else self.when_released]


class ExpanderButtons(Mapping[str, ExpanderButton]):
    """A unit's buttons on one MCP23008, polled on a daemon thread (``poll_hz`` 0: only by :meth:`poll`)."""

    def __init__(self, chip: MCP23008, pins: Mapping[str, int], *, poll_hz: float = 50,
                 on_fault: Fault | None = None) -> None:
        self.chip = chip
        self._buttons = {name: ExpanderButton(pin) for name, pin in pins.items()}
        self._mask = sum(1 << pin for pin in pins.values())
        self.poll_hz = poll_hz
        self._on_fault = on_fault
        self._lock = threading.RLock()  # one poll at a time: the thread's or a press's
        self._stale = True  # pull-ups not (or no longer known to be) set
        self._failing = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __getitem__(self, name: str) -> ExpanderButton:
        return self._buttons[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._buttons)

    def __len__(self) -> int:
        return len(self._buttons)

    def open(self) -> None:
        """:meth:`setup`, then :meth:`start`."""
        self.setup()
        self.start()

    def setup(self) -> None:
        """The button pins as inputs with pull-ups (OSError if the chip does not answer)."""
        self.chip.setup(self._mask)
        self._stale = False

    def start(self) -> None:
        """Poll on a daemon thread until :meth:`close` (nothing with ``poll_hz`` 0)."""
        if self.poll_hz > 0 and self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"expander-{self.chip.channel}", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        for button in self._buttons.values():
            button.close()

    def reinit(self) -> None:
        """Set the pull-ups again before the next read (the unit may have been replugged)."""
        self._stale = True

    def poll(self) -> None:
        """Read the pins once and fire the callbacks of what changed (on this thread)."""
        with self._lock:
            try:
                if self._stale:
                    self.chip.setup(self._mask)
                    self._stale = False
                levels = self.chip.levels()
            except OSError as err:
                self._stale = True
                self._fault(err)
                return
            self._fault(None)
            now = time.monotonic()
            fired = [callback for name, button in self._buttons.items()
                     for callback in button.update(not levels >> button.pin & 1, now)]
            for callback in fired:
                if callback is not None:
                    callback()

    def press(self, name: str) -> None:
        """Press and release ``name``: on a mock chip by driving its pin, then polling; else its callback."""
        button = self._buttons[name]
        chip = self.chip.mock()
        with self._lock:
            if chip is None:
                if button.when_pressed is not None:
                    button.when_pressed()
                return
            chip.drive_low(button.pin)
            self.poll()
            chip.drive_high(button.pin)
            self.poll()

    def _fault(self, err: BaseException | None) -> None:
        failing = err is not None
        if failing == self._failing:
            return  # reported when it starts failing and when it answers again, not at every poll
        self._failing = failing
        if self._on_fault is not None:
            self._on_fault(err)

    def _run(self) -> None:
        period = 1 / self.poll_hz
        while not self._stop.wait(period):
            try:
                self.poll()
            except Exception:  # a callback's failure must not end the polling
                log.exception("%s: polling failed", self.chip.place())
