"""A seat's handheld: a 128x64 OLED (luma.oled) and three or four buttons (gpiozero, or an MCP23008).

The unit shows the seat's newest view through :mod:`companion.table.prompts` and
:mod:`hardware.screens`, and turns button presses into commands for the
session. Like gpiozero's devices it has a real and a mock side behind one
interface: the display is luma's SSD1306/SH1106 on I2C (through a TCA9548A
multiplexer) or SPI, or luma's ``dummy`` device, or luma.emulator's
``capture`` (a PNG per frame); the buttons take their pins from a gpiozero
pin factory, ``MockFactory`` in tests, or sit on an MCP23008 expander on the
unit's channel (:mod:`hardware.expander`; :mod:`hardware.i2c_mock` in tests).
:meth:`Handheld.press` is the driving method: on mock pins (or a mock
expander) it drives the button's pin low then high, so the real
``when_pressed`` path runs.

Hot-plug: a transfer that fails marks the unit as failing (:attr:`Handheld.error`,
logged once) and its display as needing its init sequence again; every quarter
second the render thread (:meth:`Handheld.check`) tries again, so a replugged
unit is switched on, shows the current screen and is logged as working again.

Choosing the display: the ``display`` argument, else the config's
``handhelds.display``, else ``$CLUE_HANDHELD_DISPLAY``, else ``"luma"`` (real).
Choosing the pin factory: the ``pin_factory`` argument, else the config's
``handhelds.pin_factory``, else gpiozero's own default (``$GPIOZERO_PIN_FACTORY``).

>>> from gpiozero.pins.mock import MockFactory
>>> from hardware.hardware_config import HandheldWiring
>>> pressed = []
>>> wiring = HandheldWiring(seat=1, up=5, down=6, ok=13, back=19)
>>> view = {"stage": "setup", "seat": "Mrs. White", "ready": True, "hand": [], "problems": []}
>>> with Handheld("Mrs. White", wiring, pressed.append, display="dummy", pin_factory=MockFactory()) as unit:
...     unit.show(view)
...     unit.press("ok")
>>> pressed
[StartGame(seat='Mrs. White')]
"""

from __future__ import annotations

import errno
import logging
import os
import threading
from collections.abc import Callable, Sequence
from functools import partial
from importlib.metadata import entry_points
from pathlib import Path
from types import TracebackType
from typing import Any

from PIL import Image

from companion.rules.errors import ClueError
from companion.table import prompts
from companion.table.commands import Command
from companion.table.fanout import Mailbox
from companion.table.prompts import Menu

from .expander import MCP23008, ExpanderButtons
from .hardware_config import HandheldsConfig, HandheldWiring, HardwareConfig
from .mux import MuxedSerial, SharedI2C
from .screens import HEIGHT, WIDTH, render_image

__all__ = ["DISPLAYS", "DISPLAY_ENV", "Handheld", "HandheldError", "SharedI2C", "open_handhelds"]

log = logging.getLogger(__name__)

DISPLAY_ENV = "CLUE_HANDHELD_DISPLAY"
DISPLAYS = ("luma", "dummy", "capture")
Submit = Callable[[Command], object]  # whatever it returns (a ticket, None) is ignored
DisplayFactory = Callable[[HandheldWiring, HandheldsConfig], Any]  # returns a luma device
View = dict[str, Any]
CHECK_EVERY = 0.25  # seconds between a quiet unit's probes (an unplug shorter than this may go unseen)


class HandheldError(ClueError, OSError):
    """A handheld's display or buttons could not be opened; the message names the seat and the bus."""

    code = "handheld"


class Handheld:
    """One seat's unit. No side effects until :meth:`open`; a context manager."""

    def __init__(self, seat: str, wiring: HandheldWiring, submit: Submit, *,
                 display: str | DisplayFactory | None = None, pin_factory: Any = None,
                 config: HandheldsConfig | None = None, i2c: SharedI2C | None = None) -> None:
        self.seat = seat
        self.wiring = wiring
        self.config = config or HandheldsConfig()
        self._submit = submit
        self._display_choice = display
        self._factory_choice = pin_factory
        self._i2c = i2c
        self._lock = threading.RLock()  # menu, view and frame: button threads and the render thread
        self._view: View = {"stage": "idle", "seat": seat}
        self._menu = Menu()
        self._frame = Image.new("1", (WIDTH, HEIGHT))
        self._screen: prompts.Screen | None = None  # the screen last drawn
        self._device: Any = None
        self._serial: MuxedSerial | None = None  # a luma OLED on I2C: probed and re-initialised through it
        self._stale = False  # the display needs its init sequence again (it failed; it may have been replugged)
        self._faults: dict[str, str] = {}  # "display" / "buttons" -> the error while that part fails
        self._buttons: dict[str, Any] = {}
        self._expander: ExpanderButtons | None = None
        self._own_factory: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._mailbox: Mailbox | None = None
        self.frames = 0  # frames rendered so far: lets a viewer (the web simulator) tell a new one

    def __enter__(self) -> Handheld:
        self.open()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def label(self) -> str:
        return f"Seat {self.wiring.seat} ({self.seat})"

    @property
    def error(self) -> str | None:
        """Why the unit is failing now (its display or its buttons stopped answering); None while it works."""
        with self._lock:
            return "; ".join(f"{part}: {text}" for part, text in sorted(self._faults.items())) or None

    def open(self) -> None:
        """Open the display, then the buttons; if the buttons fail, close the display again."""
        if self._device is not None:
            return
        choice = self._chosen_display()
        try:
            device = self._open_display(choice)
        except Exception as err:  # any driver failure: the seat goes on with the phone view
            raise HandheldError(self._failure(f"display {_not_found(err)} on {self.display_place()}", err)) from err
        try:
            self._open_buttons()
        except Exception as err:
            _cleanup(device)
            raise HandheldError(self._failure(f"buttons failed on {self._pins_place()}", err)) from err
        self._device = device
        with self._lock:
            self._screen = None
            self._draw()
        if self._expander is not None:
            self._expander.start()

    def close(self) -> None:
        """Stop the render thread, release the buttons, blank and release the display."""
        self._stop.set()
        if self._mailbox is not None:
            self._mailbox.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        self._close_buttons()
        with self._lock:
            device, self._device = self._device, None
        if device is not None:
            _cleanup(device)

    def showing(self, view: View) -> bool:
        """True once this unit draws ``view``'s moment of the game (same stage, turn, phase, action count, notice)."""
        keys = ("stage", "turn", "phase", "actions", "notice")
        with self._lock:
            return all(self._view.get(key) == view.get(key) for key in keys)

    def show(self, view: View) -> None:
        """Keep ``view`` and draw the screen it gives with the current menu."""
        with self._lock:
            self._view = view
            self._draw()

    def press(self, button: str) -> None:
        """Press ``button``: on mock pins or a mock expander by driving its pin low then high, else directly."""
        if button not in prompts.BUTTONS:
            raise ValueError(f"unknown button {button!r}; expected one of {', '.join(prompts.BUTTONS)}")
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        if self._expander is not None and button in self._expander and self._expander.chip.mock() is not None:
            self._expander.press(button)
            return
        device = self._buttons.get(button)
        factory = getattr(device, "pin_factory", None)
        if isinstance(factory, MockFactory):
            pin = factory.pin(self.wiring.buttons()[button])
            pin.drive_low()
            pin.drive_high()
        else:
            self._pressed(button)

    def image(self) -> Image.Image:
        """The last frame drawn (mode "1", 128x64)."""
        with self._lock:
            return self._frame.copy()

    def text(self) -> str:
        """The current screen as plain text."""
        with self._lock:
            return prompts.screen_text(prompts.screen_for(self._view, self._menu))

    def start(self, mailbox: Mailbox) -> None:
        """Draw each new view from ``mailbox`` on a daemon thread until :meth:`close`."""
        self._mailbox = mailbox
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(mailbox,), name=f"handheld-{self.wiring.seat}",
                                        daemon=True)
        self._thread.start()

    def check(self) -> None:
        """Draw a failing unit again (re-initialising its OLED), or probe a quiet one; the render thread's tick."""
        with self._lock:
            if self._device is None:
                return
            if self._faults.get("display") or self._stale:
                self._send()
                return
            serial = self._serial
        if serial is not None and self._expander is None:  # an expander's polling already watches the cable
            try:
                serial.probe()
            except OSError as err:
                self._display_failed(err)

    def display_place(self) -> str:
        """Where the display is, in words, for messages."""
        config, wiring = self.config, self.wiring
        choice = self._chosen_display()
        if not isinstance(choice, str) or choice != "luma":
            return "the mock display" if isinstance(choice, str) else "the given display"
        if config.bus == "spi":
            return (f"SPI bus {wiring.spi_port} (/dev/spidev{wiring.spi_port}.{wiring.spi_device or 0}, "
                    f"DC GPIO {wiring.dc}, RST GPIO {wiring.rst})")
        mux_address = config.mux_for(wiring)
        mux = f"TCA9548A 0x{mux_address:02X} channel {wiring.channel}, " if mux_address is not None else ""
        return f"I2C bus {config.i2c_port} ({mux}address 0x{config.display_address:02X})"

    # -- inside ----------------------------------------------------------------------------------

    def _run(self, mailbox: Mailbox) -> None:
        while not self._stop.is_set():
            view = mailbox.get(CHECK_EVERY)
            if self._stop.is_set():
                break
            if view is not None:
                self.show(view)
            else:
                self.check()

    def _pressed(self, button: str) -> None:
        """A press, from a gpiozero thread or :meth:`press`: next menu, redraw, then submit."""
        try:
            with self._lock:
                self._menu, command = prompts.press(self._view, self._menu, button)
                self._draw()
            if command is not None:
                self._submit(command)
        except Exception:  # a callback thread has nobody to raise to
            log.exception("%s: the %s button failed", self.label, button)

    def _draw(self) -> None:
        """Render the current screen; a display that fails now is reported once, play goes on.

        A screen equal to the one shown is not drawn again: most views change
        nothing on most seats' screens, and a frame over I2C takes milliseconds.
        """
        screen = prompts.screen_for(self._view, self._menu)
        if screen == self._screen and self._device is not None and "display" not in self._faults and not self._stale:
            return
        self._screen = screen
        self._frame = render_image(screen)
        self.frames += 1
        if self._device is not None:
            self._send()

    def _send(self) -> None:
        """The current frame to the display, switching a replugged OLED on first (under the lock)."""
        try:
            if self._stale:
                self._reinit_display()
            self._device.display(self._frame.convert(self._device.mode))
        except Exception as err:
            self._display_failed(err)
            return
        self._set_fault("display", None)

    def _reinit_display(self) -> None:
        """A luma OLED on I2C: a new driver on the same serial, which sends the whole init sequence.

        A replugged SSD1306/SH1106 powers up switched off with its charge pump
        disabled, so sending the frame alone would leave it dark.
        """
        if self._serial is not None:
            self._device = self._luma_driver()(self._serial, width=WIDTH, height=HEIGHT)
        self._stale = False

    def _display_failed(self, err: BaseException) -> None:
        with self._lock:
            self._stale = self._serial is not None
            if self._expander is not None:
                self._expander.reinit()  # the same cable: its pull-ups are gone too if it was unplugged
            self._set_fault("display", err)

    def _buttons_fault(self, err: BaseException | None) -> None:
        """From the expander's poller: it stopped answering (the unit's cable?), or answers again."""
        with self._lock:
            if err is not None:
                self._stale = self._serial is not None
            self._set_fault("buttons", err)
            if err is None and self._stale:
                self._send()  # replugged: switch the OLED on and show the current screen now

    def _set_fault(self, part: str, err: BaseException | None) -> None:
        """Log when a part starts failing (once) and when the whole unit works again."""
        if err is not None:
            if part not in self._faults:
                where = self.display_place() if part == "display" else self._pins_place()
                log.warning("%s", self._failure(f"{part} stopped answering on {where}", err))
            self._faults[part] = str(err) or type(err).__name__
        elif self._faults.pop(part, None) is not None and not self._faults:
            log.warning("%s: working again", self.label)

    def _failure(self, what: str, err: BaseException) -> str:
        return f"{self.label}: {what}: {str(err).rstrip('.')}. {self.seat} can play on the phone view."

    def _chosen_display(self) -> str | DisplayFactory:
        choice = self._display_choice or self.config.display or os.environ.get(DISPLAY_ENV) or "luma"
        if isinstance(choice, str) and choice not in DISPLAYS:
            raise HandheldError(f"{self.label}: unknown display {choice!r}; expected one of {', '.join(DISPLAYS)} "
                                f"(from the display argument, handhelds.display or ${DISPLAY_ENV})")
        return choice

    def _open_display(self, choice: str | DisplayFactory) -> Any:
        if not isinstance(choice, str):
            return choice(self.wiring, self.config)
        if choice == "dummy":
            from luma.core.device import dummy  # type: ignore[import-untyped]

            return dummy(width=WIDTH, height=HEIGHT, mode="1")
        if choice == "capture":
            return self._capture()
        return self._luma()

    def _capture(self) -> Any:
        """luma.emulator's capture device: one PNG per frame, four times the size."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep pygame's banner off stdout
        from luma.emulator.device import capture  # type: ignore[import-untyped]

        folder = Path(self.config.capture_dir)
        folder.mkdir(parents=True, exist_ok=True)
        template = str(folder / f"seat{self.wiring.seat}-{{0:06}}.png")
        return capture(width=WIDTH, height=HEIGHT, mode="1", transform="identity", scale=4, file_template=template)

    def _luma_driver(self) -> Any:
        from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]

        return sh1106 if self.config.driver == "sh1106" else ssd1306

    def _luma(self) -> Any:
        driver = self._luma_driver()
        serial = self._spi() if self.config.bus == "spi" else self._muxed()
        try:
            device = driver(serial, width=WIDTH, height=HEIGHT)
        except Exception:
            serial.cleanup()
            raise
        self._serial = serial if isinstance(serial, MuxedSerial) else None
        return device

    def _spi(self) -> Any:
        from luma.core.interface.serial import spi  # type: ignore[import-untyped]

        wiring = self.wiring
        return spi(port=wiring.spi_port, device=wiring.spi_device or 0, gpio_DC=wiring.dc, gpio_RST=wiring.rst)

    def _shared(self) -> SharedI2C:
        if self._i2c is None:
            self._i2c = SharedI2C(self.config.i2c_port)
        return self._i2c

    def _muxed(self) -> MuxedSerial:
        config = self.config
        return MuxedSerial(self._shared(), config.mux_for(self.wiring), self.wiring.channel, config.display_address,
                           block=config.i2c_block)

    def _open_buttons(self) -> None:
        if self.wiring.button_source == "expander":
            self._open_expander()
        else:
            self._open_gpio_buttons()

    def _open_expander(self) -> None:
        """The MCP23008's pins set up; its polling starts once the display shows the first frame."""
        wiring = self.wiring
        shared = self._shared()
        chip = MCP23008(shared, self.config.mux_for(wiring), wiring.channel, wiring.expander_address)
        shared.acquire()
        try:
            expander = ExpanderButtons(chip, wiring.buttons(), poll_hz=self.config.expander_poll_hz,
                                       on_fault=self._buttons_fault)
            expander.setup()
        except Exception:
            shared.release()
            raise
        for name, button in expander.items():
            button.when_pressed = partial(self._pressed, name)
        self._expander, self._buttons = expander, dict(expander)

    def _open_gpio_buttons(self) -> None:
        from gpiozero import Button  # type: ignore[import-untyped]
        from gpiozero.pins.mock import MockFactory

        factory = self._pin_factory()
        mock = isinstance(factory, MockFactory)
        try:
            for name, pin in self.wiring.buttons().items():
                button = Button(pin, pull_up=True, bounce_time=None if mock else 0.05, pin_factory=factory)
                self._buttons[name] = button
                button.when_pressed = partial(self._pressed, name)
        except Exception:
            self._close_buttons()
            raise

    def _pin_factory(self) -> Any:
        """The argument's factory, else one made from the config's name, else None (gpiozero's default)."""
        choice = self._factory_choice if self._factory_choice is not None else self.config.pin_factory
        if not isinstance(choice, str):
            return choice
        factories = {point.name: point for point in entry_points(group="gpiozero_pin_factories")}
        if choice.lower() not in factories:
            raise ValueError(f"unknown gpiozero pin factory {choice!r}; expected one of {', '.join(sorted(factories))}")
        self._own_factory = factories[choice.lower()].load()()
        return self._own_factory

    def _pins_place(self) -> str:
        if self._expander is not None or self.wiring.button_source == "expander":
            pins = ", ".join(f"{name} GP{pin}" for name, pin in self.wiring.buttons().items())
            chip = MCP23008(self._shared(), self.config.mux_for(self.wiring), self.wiring.channel,
                            self.wiring.expander_address)
            return f"{pins} on {chip.place()}"
        pins = ", ".join(f"{name} GPIO {pin}" for name, pin in self.wiring.buttons().items())
        choice = self._factory_choice if self._factory_choice is not None else self.config.pin_factory
        factory = choice if isinstance(choice, str) else type(choice).__name__ if choice else "gpiozero's default"
        return f"{pins} (pin factory {factory})"

    def _close_buttons(self) -> None:
        expander, self._expander = self._expander, None
        if expander is not None:
            expander.close()
            expander.chip.shared.release()
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()
        if self._own_factory is not None:
            self._own_factory.close()
            self._own_factory = None


def open_handhelds(config: HardwareConfig, seats: Sequence[str], submit: Submit, *,
                   display: str | DisplayFactory | None = None, pin_factory: Any = None,
                   open_bus: Callable[[int], Any] | None = None) -> tuple[list[Handheld], list[str]]:
    """Open a unit for each configured seat that is playing (seat N: the Nth seat clockwise).

    Returns the open units and, for each unit that failed, a message naming
    the seat and the bus; that seat plays on the phone view. ``open_bus``:
    the I2C bus for a port (None: smbus2's; ``run --mock`` passes a
    :class:`hardware.i2c_mock.MockI2CBus`).
    """
    units: list[Handheld] = []
    problems: list[str] = []
    shared = SharedI2C(config.handhelds.i2c_port, open_bus=open_bus)
    for mux in config.handhelds.muxes():
        shared.attach(mux)  # switching to one multiplexer turns every other one off
    for wiring in config.handhelds.seats:
        if wiring.seat > len(seats):
            continue
        unit = Handheld(seats[wiring.seat - 1], wiring, submit, display=display, pin_factory=pin_factory,
                        config=config.handhelds, i2c=shared)
        try:
            unit.open()
        except HandheldError as err:
            problems.append(str(err))
            continue
        units.append(unit)
    return units, problems


def _not_found(err: BaseException) -> str:
    """ "not found" for a missing bus, device or answer; "failed" for anything else."""
    missing = isinstance(err, FileNotFoundError) or type(err).__name__ == "DeviceNotFoundError"
    if isinstance(err, OSError) and err.errno in (errno.EREMOTEIO, errno.EIO, errno.ENXIO, errno.ENODEV):
        missing = True
    return "not found" if missing else "failed"


def _cleanup(device: Any) -> None:
    """Blank and release a display; one that has gone away already is left be."""
    try:
        device.cleanup()
    except Exception as err:
        log.debug("display cleanup failed: %s", err)
