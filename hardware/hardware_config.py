"""The hardware config file (TOML): board port, store, web port and PIN, reader zones, handheld wiring.

Every key is optional; a missing file, an unknown key or a bad value is a
:class:`HardwareConfigError` naming the file, the key and what was expected.
``docs/hardware.md`` documents the keys; ``hardware/clue-companion.example.toml``
is a complete example.

>>> config = load_hardware_config(None)
>>> config.web_port, config.handhelds.driver, hex(config.handhelds.mux_address)
(8000, 'ssd1306', '0x70')
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion.rules.errors import ClueError

T = TypeVar("T")
# The mock rig takes its handheld wiring from this file when no config is given; docs/hardware.md starts from it.
EXAMPLE_CONFIG = Path(__file__).with_name("clue-companion.example.toml")
ZONE_KINDS = ("room", "door", "seat", "centre", "space")
DISPLAYS = ("luma", "dummy", "capture")
DRIVERS = ("ssd1306", "sh1106")
BUSES = ("i2c", "spi")
BUTTON_SOURCES = ("gpio", "expander")  # Pi GPIOs (gpiozero), or an MCP23008 on the unit's channel
EXPANDER_PINS = {"up": 0, "down": 1, "ok": 2, "back": 3}  # GP0-GP3 unless the unit says otherwise
I2C_PINS = frozenset({2, 3})  # SDA, SCL
SPI_PINS = frozenset({7, 8, 9, 10, 11})  # CE1, CE0, MISO, MOSI, SCLK (SPI0)


class HardwareConfigError(ClueError, ValueError):
    """A hardware config file that cannot be read, or a key with a bad value."""

    code = "bad_hardware_config"


@dataclass(frozen=True)
class HandheldWiring:
    """One handheld: its seat (1-based, clockwise at the table), display connection, buttons.

    The buttons are BCM GPIOs when ``button_source`` is "gpio", or pins GP0-GP7
    of an MCP23008 at ``expander_address`` on the unit's channel when "expander".
    """

    seat: int
    up: int
    down: int
    ok: int
    back: int | None = None
    channel: int | None = None  # I2C: the TCA9548A channel; None: the display sits on the bus directly
    spi_port: int = 0  # SPI: /dev/spidev<port>.<device>
    spi_device: int | None = None  # SPI: the chip select (CE0 = 0, CE1 = 1)
    dc: int | None = None  # SPI: data/command GPIO
    rst: int | None = None  # SPI: reset GPIO (None: not wired)
    button_source: str = "gpio"
    expander_address: int = 0x20  # MCP23008, 0x20-0x27; every unit on its own channel may use 0x20
    mux_address: int | None = None  # this unit's TCA9548A; None: handhelds.mux_address

    def buttons(self) -> dict[str, int]:
        """The wired buttons by name."""
        pins = {"up": self.up, "down": self.down, "ok": self.ok}
        if self.back is not None:
            pins["back"] = self.back
        return pins


@dataclass(frozen=True)
class HandheldsConfig:
    display: str | None = None  # luma, dummy, capture; None: $CLUE_HANDHELD_DISPLAY, else luma
    pin_factory: str | None = None  # a gpiozero pin factory name ("mock", "lgpio", ...); None: gpiozero's default
    driver: str = "ssd1306"
    bus: str = "i2c"
    i2c_port: int = 1
    mux_address: int = 0x70
    display_address: int = 0x3C
    capture_dir: str = "."  # where the capture display writes its PNG frames
    seats: tuple[HandheldWiring, ...] = ()
    expander_poll_hz: int = 50  # button expanders read this often (0: only when a test polls)
    i2c_block: int = 4096  # bytes of display data per I2C transfer (32: SMBus blocks)

    def mux_for(self, wiring: HandheldWiring) -> int | None:
        """The multiplexer in front of ``wiring``'s unit (None: the unit sits on the bus itself)."""
        if wiring.channel is None:
            return None
        return wiring.mux_address if wiring.mux_address is not None else self.mux_address

    def muxes(self) -> tuple[int, ...]:
        """Every multiplexer the units use, lowest address first."""
        return tuple(sorted({mux for wiring in self.seats if (mux := self.mux_for(wiring)) is not None}))


CAMERA_DEVICES = ("picamera", "webcam")
CARD_SOURCES = ("phones", "pads")  # at a camera table: cards shown on the phones, or tapped on NFC seat pads


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: the camera over the board (``run --camera``), how cards are shown, and its calibration.

    The calibration keys are those of ``camera read --config`` (docs/camera.md), so one file serves both.
    """

    device: str = "picamera"  # picamera (Camera Module 3 or Wide) or webcam (V4L2)
    number: int = 0  # picamera: which camera connector
    path: str = "/dev/video0"  # webcam: the V4L2 device
    width: int = 1920
    height: int = 1080
    fps: int = 8  # frames read a second (each takes some 40 ms on a Pi 5)
    cards: str = "phones"  # phones, or pads: 6 NFC seat pads on [board] port (readers 0-5 = seats 1-6)
    focal_px: float | None = None
    centre_px: tuple[float, float] | None = None
    distortion: tuple[float, ...] = ()
    square_mm: float = 21.0


@dataclass(frozen=True)
class HardwareConfig:
    board_port: str | None = None
    store: str | None = None
    web_port: int = 8000
    web_pin: str | None = None  # the host PIN ([web] pin); the CLI checks it with the web page's rule
    web_name: str | None = None  # the mDNS name ([web] name, e.g. "kitchen" for kitchen.local); None: clue
    zones: dict[int, str] = field(default_factory=dict)  # reader -> "room:Kitchen", "door:e7", "seat:1", ...
    handhelds: HandheldsConfig = HandheldsConfig()
    camera: CameraConfig = CameraConfig()


def load_hardware_config(path: str | Path | None) -> HardwareConfig:
    """The config in ``path`` (None: the defaults), checked key by key."""
    if path is None:
        return HardwareConfig()
    name = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HardwareConfigError(f"{name}: no such hardware config file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise HardwareConfigError(f"{name}: cannot read the hardware config: {err}") from err
    except tomllib.TOMLDecodeError as err:
        raise HardwareConfigError(f"{name}: not valid TOML: {err}") from err
    return _Reader(name).config(data)


class _Reader:
    """Checks one file's tables; every error names the file and the dotted key."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, key: str, expected: str, value: object) -> HardwareConfigError:
        return HardwareConfigError(f"{self.name}: {key} must be {expected}, not {value!r}")

    def table(self, data: Mapping[str, Any], key: str, allowed: set[str]) -> Mapping[str, Any]:
        value = data.get(key.rpartition(".")[2], {})
        if not isinstance(value, dict):
            raise self.fail(key, "a table", value)
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise HardwareConfigError(
                f"{self.name}: unknown key {key}.{unknown[0]}; expected one of {', '.join(sorted(allowed))}")
        return value

    def get(self, table: Mapping[str, Any], key: str, kind: type[T], expected: str, default: T | None) -> T | None:
        value = table.get(key.rpartition(".")[2], default)
        if value is None or (isinstance(value, kind) and not (kind is int and isinstance(value, bool))):
            return value
        raise self.fail(key, expected, value)

    def number(self, table: Mapping[str, Any], key: str, low: int, high: int, default: int | None) -> int | None:
        value = self.get(table, key, int, f"a whole number from {low} to {high}", default)
        if value is not None and not low <= value <= high:
            raise self.fail(key, f"a whole number from {low} to {high}", value)
        return value

    def choice(self, table: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str | None) -> str | None:
        value = self.get(table, key, str, f"one of {', '.join(allowed)}", default)
        if value is not None and value not in allowed:
            raise self.fail(key, f"one of {', '.join(allowed)}", value)
        return value

    def config(self, data: Mapping[str, Any]) -> HardwareConfig:
        unknown = sorted(set(data) - {"board", "store", "web", "zones", "handhelds", "camera", "table"})
        if unknown:
            raise HardwareConfigError(
                f"{self.name}: unknown table {unknown[0]}; expected board, store, web, zones, handhelds, camera, table")
        board = self.table(data, "board", {"port"})
        store = self.table(data, "store", {"path"})
        web = self.table(data, "web", {"port", "pin", "name"})
        return HardwareConfig(
            board_port=self.get(board, "board.port", str, "a serial port path or URL", None),
            store=self.get(store, "store.path", str, "a file path", None),
            web_port=self.number(web, "web.port", 1, 65535, 8000) or 8000,
            web_pin=self.pin(web),
            web_name=self.get(web, "web.name", str, "one word for the .local name, such as \"clue\"", None),
            zones=self.zones(data.get("zones", {})),
            handhelds=self.handhelds(data),
            camera=self.camera(data),
        )

    def camera(self, data: Mapping[str, Any]) -> CameraConfig:
        keys = {"device", "number", "path", "width", "height", "fps", "cards", "focal_px", "centre_px", "distortion",
                "square_mm"}
        table = self.table(data, "camera", keys)
        default = CameraConfig()
        centre = self.reals(table, "camera.centre_px", (2,))
        return CameraConfig(
            device=self.choice(table, "camera.device", CAMERA_DEVICES, default.device) or default.device,
            number=self.number(table, "camera.number", 0, 7, default.number) or 0,
            path=self.get(table, "camera.path", str, "a V4L2 device such as \"/dev/video0\"", default.path)
            or default.path,
            width=self.number(table, "camera.width", 320, 9152, default.width) or default.width,
            height=self.number(table, "camera.height", 240, 6944, default.height) or default.height,
            fps=self.number(table, "camera.fps", 1, 30, default.fps) or default.fps,
            cards=self.choice(table, "camera.cards", CARD_SOURCES, default.cards) or default.cards,
            focal_px=self.real(table, "camera.focal_px", 50.0, 100_000.0),
            centre_px=(centre[0], centre[1]) if centre else None,
            distortion=self.reals(table, "camera.distortion", (4, 5, 8)) or (),
            square_mm=self.real(table, "camera.square_mm", 5.0, 60.0) or default.square_mm,
        )

    def real(self, table: Mapping[str, Any], key: str, low: float, high: float) -> float | None:
        value = table.get(key.rpartition(".")[2])
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise self.fail(key, f"a number from {low:g} to {high:g}", value)
        return float(value)

    def reals(self, table: Mapping[str, Any], key: str, lengths: tuple[int, ...]) -> tuple[float, ...] | None:
        value = table.get(key.rpartition(".")[2])
        if value is None:
            return None
        numbers = isinstance(value, list) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        if not numbers or len(value) not in lengths:
            raise self.fail(key, f"a list of {' or '.join(map(str, lengths))} numbers", value)
        return tuple(float(v) for v in value)

    def pin(self, web: Mapping[str, Any]) -> str | None:
        """``[web] pin`` as text; a bad one is refused without repeating it (the error may reach the journal)."""
        value = web.get("pin")
        if value is None or isinstance(value, str):
            return value
        raise HardwareConfigError(f'{self.name}: web.pin must be a quoted string of digits, such as "246813"')

    def zones(self, zones: object) -> dict[int, str]:
        if not isinstance(zones, dict):
            raise self.fail("zones", "a table of reader = zone", zones)
        result: dict[int, str] = {}
        for key, spec in zones.items():
            if not key.isdigit():
                raise self.fail(f"zones.{key}", "keyed by a reader number (0, 1, ...)", key)
            kind = spec.partition(":")[0] if isinstance(spec, str) else None
            if kind not in ZONE_KINDS or (kind != "centre" and not spec.partition(":")[2].strip()):
                raise self.fail(f"zones.{key}", 'a zone such as "room:Kitchen", "door:e7", "seat:1", "centre" '
                                "or \"space:h25\"", spec)
            result[int(key)] = spec
        return result

    def handhelds(self, data: Mapping[str, Any]) -> HandheldsConfig:
        keys = {"display", "pin_factory", "driver", "bus", "i2c_port", "mux_address", "display_address",
                "capture_dir", "seat", "buttons", "expander_poll_hz", "i2c_block"}
        table = self.table(data, "handhelds", keys)
        bus = self.choice(table, "handhelds.bus", BUSES, "i2c") or "i2c"
        buttons = self.choice(table, "handhelds.buttons", BUTTON_SOURCES, "gpio") or "gpio"
        seats = table.get("seat", [])
        if not isinstance(seats, list):
            raise self.fail("handhelds.seat", "an array of tables ([[handhelds.seat]])", seats)
        wirings = tuple(self.wiring(entry, f"handhelds.seat[{i}]", bus, buttons) for i, entry in enumerate(seats))
        mux_address = self.number(table, "handhelds.mux_address", 0x70, 0x77, 0x70) or 0x70
        self.check_unique(wirings, bus, mux_address)
        self.check_muxed(wirings, bus)
        return HandheldsConfig(
            display=self.choice(table, "handhelds.display", DISPLAYS, None),
            pin_factory=self.get(table, "handhelds.pin_factory", str, 'a gpiozero pin factory name such as "lgpio" '
                                 'or "mock"', None),
            driver=self.choice(table, "handhelds.driver", DRIVERS, "ssd1306") or "ssd1306",
            bus=bus,
            i2c_port=self.number(table, "handhelds.i2c_port", 0, 99, 1) or 0,
            mux_address=mux_address,
            display_address=self.number(table, "handhelds.display_address", 0x3C, 0x3D, 0x3C) or 0x3C,
            capture_dir=self.get(table, "handhelds.capture_dir", str, "a folder path", ".") or ".",
            seats=wirings,
            expander_poll_hz=self.number(table, "handhelds.expander_poll_hz", 10, 200, 50) or 50,
            i2c_block=self.number(table, "handhelds.i2c_block", 32, 8191, 4096) or 4096,
        )

    def wiring(self, entry: object, key: str, bus: str, buttons: str) -> HandheldWiring:
        allowed = {"seat", "up", "down", "ok", "back", "channel", "spi_port", "spi_device", "dc", "rst", "buttons",
                   "expander_address", "mux_address"}
        if not isinstance(entry, dict):
            raise self.fail(key, "a table", entry)
        unknown = sorted(set(entry) - allowed)
        if unknown:
            raise HardwareConfigError(
                f"{self.name}: unknown key {key}.{unknown[0]}; expected one of {', '.join(sorted(allowed))}")

        def required(name: str, low: int, high: int, what: str) -> int:
            value = self.number(entry, f"{key}.{name}", low, high, None)
            if value is None:
                raise HardwareConfigError(f"{self.name}: {key}.{name} is missing; expected {what}")
            return value

        gpio = "a BCM GPIO number 0-27"
        spi = bus == "spi"
        source = self.choice(entry, f"{key}.buttons", BUTTON_SOURCES, buttons) or buttons
        pins = self.expander_pins(entry, key) if source == "expander" else {
            "up": required("up", 0, 27, gpio), "down": required("down", 0, 27, gpio),
            "ok": required("ok", 0, 27, gpio), "back": self.number(entry, f"{key}.back", 0, 27, None)}
        channel = self.number(entry, f"{key}.channel", 0, 7, None)
        mux = self.number(entry, f"{key}.mux_address", 0x70, 0x77, None)
        if mux is not None and channel is None:
            raise HardwareConfigError(f"{self.name}: {key}.mux_address needs {key}.channel: the multiplexer "
                                      "channel the unit is wired to")
        return HandheldWiring(
            seat=required("seat", 1, 10, "the seat number 1-10"),
            up=pins["up"] or 0, down=pins["down"] or 0, ok=pins["ok"] or 0, back=pins["back"],
            channel=channel,
            button_source=source,
            expander_address=self.number(entry, f"{key}.expander_address", 0x20, 0x27, 0x20) or 0x20,
            mux_address=mux,
            spi_port=self.number(entry, f"{key}.spi_port", 0, 6, 0) or 0,
            spi_device=self.number(entry, f"{key}.spi_device", 0, 2, 0 if spi else None),
            dc=required("dc", 0, 27, gpio) if spi else self.number(entry, f"{key}.dc", 0, 27, None),
            rst=self.number(entry, f"{key}.rst", 0, 27, None),
        )

    def expander_pins(self, entry: Mapping[str, Any], key: str) -> dict[str, int | None]:
        """An expander unit's pins GP0-GP7 (by default up 0, down 1, ok 2, back 3), none used twice."""
        pins = {name: self.number(entry, f"{key}.{name}", 0, 7, default) for name, default in EXPANDER_PINS.items()}
        seen: dict[int, str] = {}
        for name, pin in pins.items():
            if pin in seen:
                raise HardwareConfigError(f"{self.name}: {key}.{name} = {pin} is already used by {key}.{seen[pin]} "
                                          "(expander pins GP0-GP7)")
            if pin is not None:
                seen[pin] = name
        return pins

    def check_muxed(self, wirings: tuple[HandheldWiring, ...], bus: str) -> None:
        """With multiplexers in use, every unit needs a channel: one on the bus itself answers beside each channel."""
        if not any(wiring.channel is not None for wiring in wirings):
            return
        for i, wiring in enumerate(wirings):
            if wiring.channel is None and (bus == "i2c" or wiring.button_source == "expander"):
                raise HardwareConfigError(
                    f"{self.name}: handhelds.seat[{i}].channel is missing; with multiplexers in use every I2C unit "
                    "needs its own channel (its OLED and expander would answer beside every channel's)")

    def check_unique(self, wirings: tuple[HandheldWiring, ...], bus: str, default_mux: int) -> None:
        """One unit per seat, one per mux channel or chip select, one per expander address, and no GPIO used twice."""
        seen: dict[tuple[str, object], str] = {}
        reserved = I2C_PINS if bus == "i2c" else SPI_PINS
        for i, wiring in enumerate(wirings):
            key = f"handhelds.seat[{i}]"
            for name, use, shown in self.uses(wiring, key, bus, reserved, default_mux):
                if use in seen:
                    raise HardwareConfigError(f"{self.name}: {key}.{name} = {shown} is already used by {seen[use]}")
                seen[use] = f"{key}.{name}"

    def uses(self, wiring: HandheldWiring, key: str, bus: str, reserved: frozenset[int],
             default_mux: int) -> list[tuple[str, tuple[str, object], str]]:
        """What one unit takes that no other may: (key, what, as shown in a message)."""
        mux = wiring.mux_address if wiring.mux_address is not None else default_mux
        place = (mux, wiring.channel) if wiring.channel is not None else None
        on = f" (TCA9548A 0x{mux:02X})" if place is not None else ""
        uses: list[tuple[str, tuple[str, object], str]] = [("seat", ("seat", wiring.seat), str(wiring.seat))]
        if bus == "i2c":
            uses.append(("channel", ("channel", place), f"{_shown(wiring.channel)}{on}"))
        else:
            uses.append(("spi_device", ("spi_device", (wiring.spi_port, wiring.spi_device)),
                         f"{wiring.spi_port}.{wiring.spi_device}"))
        if wiring.button_source == "expander":
            uses.append(("expander_address", ("expander", (place, wiring.expander_address)),
                         f"0x{wiring.expander_address:02X}{on}"))
        gpio = wiring.buttons() if wiring.button_source == "gpio" else {}
        for name, pin in {**gpio, "dc": wiring.dc, "rst": wiring.rst}.items():
            if pin in reserved:
                raise self.fail(f"{key}.{name}", f"a GPIO the {bus.upper()} bus does not use "
                                f"(not {', '.join(map(str, sorted(reserved)))})", pin)
            if pin is not None:
                uses.append((name, ("gpio", pin), str(pin)))
        return uses


def _shown(value: object) -> str:
    return "(none: wired straight to the bus)" if value is None else str(value)
