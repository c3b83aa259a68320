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
I2C_PINS = frozenset({2, 3})  # SDA, SCL
SPI_PINS = frozenset({7, 8, 9, 10, 11})  # CE1, CE0, MISO, MOSI, SCLK (SPI0)


class HardwareConfigError(ClueError, ValueError):
    """A hardware config file that cannot be read, or a key with a bad value."""

    code = "bad_hardware_config"


@dataclass(frozen=True)
class HandheldWiring:
    """One handheld: its seat (1-based, clockwise at the table), display connection, buttons (BCM GPIOs)."""

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


@dataclass(frozen=True)
class HardwareConfig:
    board_port: str | None = None
    store: str | None = None
    web_port: int = 8000
    web_pin: str | None = None  # the host PIN ([web] pin); the CLI checks it with the web page's rule
    web_name: str | None = None  # the mDNS name ([web] name, e.g. "kitchen" for kitchen.local); None: clue
    zones: dict[int, str] = field(default_factory=dict)  # reader -> "room:Kitchen", "door:e7", "seat:1", ...
    handhelds: HandheldsConfig = HandheldsConfig()


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
        unknown = sorted(set(data) - {"board", "store", "web", "zones", "handhelds"})
        if unknown:
            raise HardwareConfigError(
                f"{self.name}: unknown table {unknown[0]}; expected board, store, web, zones, handhelds")
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
        )

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
                "capture_dir", "seat"}
        table = self.table(data, "handhelds", keys)
        bus = self.choice(table, "handhelds.bus", BUSES, "i2c") or "i2c"
        seats = table.get("seat", [])
        if not isinstance(seats, list):
            raise self.fail("handhelds.seat", "an array of tables ([[handhelds.seat]])", seats)
        wirings = tuple(self.wiring(entry, f"handhelds.seat[{i}]", bus) for i, entry in enumerate(seats))
        self.check_unique(wirings, bus)
        return HandheldsConfig(
            display=self.choice(table, "handhelds.display", DISPLAYS, None),
            pin_factory=self.get(table, "handhelds.pin_factory", str, 'a gpiozero pin factory name such as "lgpio" '
                                 'or "mock"', None),
            driver=self.choice(table, "handhelds.driver", DRIVERS, "ssd1306") or "ssd1306",
            bus=bus,
            i2c_port=self.number(table, "handhelds.i2c_port", 0, 99, 1) or 0,
            mux_address=self.number(table, "handhelds.mux_address", 0x70, 0x77, 0x70) or 0x70,
            display_address=self.number(table, "handhelds.display_address", 0x3C, 0x3D, 0x3C) or 0x3C,
            capture_dir=self.get(table, "handhelds.capture_dir", str, "a folder path", ".") or ".",
            seats=wirings,
        )

    def wiring(self, entry: object, key: str, bus: str) -> HandheldWiring:
        allowed = {"seat", "up", "down", "ok", "back", "channel", "spi_port", "spi_device", "dc", "rst"}
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
        return HandheldWiring(
            seat=required("seat", 1, 10, "the seat number 1-10"),
            up=required("up", 0, 27, gpio), down=required("down", 0, 27, gpio), ok=required("ok", 0, 27, gpio),
            back=self.number(entry, f"{key}.back", 0, 27, None),
            channel=self.number(entry, f"{key}.channel", 0, 7, None),
            spi_port=self.number(entry, f"{key}.spi_port", 0, 6, 0) or 0,
            spi_device=self.number(entry, f"{key}.spi_device", 0, 2, 0 if spi else None),
            dc=required("dc", 0, 27, gpio) if spi else self.number(entry, f"{key}.dc", 0, 27, None),
            rst=self.number(entry, f"{key}.rst", 0, 27, None),
        )

    def check_unique(self, wirings: tuple[HandheldWiring, ...], bus: str) -> None:
        """One unit per seat, one per mux channel or chip select, and no GPIO used twice."""
        seen: dict[tuple[str, object], str] = {}
        reserved = I2C_PINS if bus == "i2c" else SPI_PINS
        for i, wiring in enumerate(wirings):
            key = f"handhelds.seat[{i}]"
            display = ("channel", wiring.channel) if bus == "i2c" else ("spi_device", (wiring.spi_port, wiring.spi_device))
            uses: list[tuple[str, tuple[str, object]]] = [("seat", ("seat", wiring.seat)), (display[0], display)]
            pins = {**wiring.buttons(), "dc": wiring.dc, "rst": wiring.rst}
            for name, pin in pins.items():
                if pin in reserved:
                    raise self.fail(f"{key}.{name}", f"a GPIO the {bus.upper()} bus does not use "
                                    f"(not {', '.join(map(str, sorted(reserved)))})", pin)
                if pin is not None:
                    uses.append((name, ("gpio", pin)))
            for name, use in uses:
                if use in seen:
                    raise HardwareConfigError(f"{self.name}: {key}.{name} = {_shown(use[1])} is already used by "
                                              f"{seen[use]}")
                seen[use] = f"{key}.{name}"


def _shown(value: object) -> str:
    if value is None:
        return "(none: wired straight to the bus)"
    if isinstance(value, tuple):
        return ".".join(map(str, value))
    return str(value)
