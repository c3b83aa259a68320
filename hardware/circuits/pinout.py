"""The board's pin plan, read from firmware/pins.py: the one pin map.

The firmware (config.py), this circuit and the pinout tables in
docs/hardware.md all take the Pico's pins from firmware/pins.py; this module
reads that file (it is MicroPython, but plain assignments), so a pin changed
there changes the netlist too. ``python -m hardware.circuits.pinout --docs``
prints the tables docs/hardware.md holds; a test keeps them equal.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PINS_FILE = Path(__file__).resolve().parents[2] / "firmware" / "pins.py"


def _pin_map() -> dict[str, Any]:
    return {k: v for k, v in runpy.run_path(str(PINS_FILE)).items() if k.isupper()}


_PINS = _pin_map()
SPI0_SCK: int = _PINS["SPI0_SCK"]
SPI0_MOSI: int = _PINS["SPI0_MOSI"]
SPI0_MISO: int = _PINS["SPI0_MISO"]
SPI1_SCK: int = _PINS["SPI1_SCK"]
SPI1_MOSI: int = _PINS["SPI1_MOSI"]
SPI1_MISO: int = _PINS["SPI1_MISO"]
READER_RST: int = _PINS["READER_RST"]
LED_DATA: int = _PINS["LED_DATA"]
BUZZER: int = _PINS["BUZZER"]
STATUS_LED: str = _PINS["STATUS_LED"]
DIRECT_CS: tuple[int, ...] = _PINS["DIRECT_CS"]
DECODER_ADDRESS: tuple[int, ...] = _PINS["DECODER_ADDRESS"]
DECODER_ENABLES: tuple[int, ...] = _PINS["DECODER_ENABLES"]
OUTPUTS_PER_DECODER: int = _PINS["OUTPUTS_PER_DECODER"]
del _PINS


@dataclass(frozen=True)
class BoardSpec:
    """How many readers, and which of them are seat pads (on SPI1).

    >>> BoardSpec(readers=16).decoders
    0
    >>> BoardSpec(readers=22).decoders
    2
    """

    readers: int = 16
    seats: tuple[int, ...] = (10, 11, 12, 13, 14, 15)

    def __post_init__(self) -> None:
        most = OUTPUTS_PER_DECODER * len(DECODER_ENABLES)
        if not 1 <= self.readers <= most:
            raise ValueError(f"readers must be 1 to {most}, got {self.readers}")
        outside = [seat for seat in self.seats if not 0 <= seat < self.readers]
        if outside:
            raise ValueError(f"seat readers {outside} are not among readers 0-{self.readers - 1}")

    @property
    def decoders(self) -> int:
        """74HC154s needed: none while every reader has a GPIO of its own."""
        if self.readers <= len(DIRECT_CS):
            return 0
        return -(-self.readers // OUTPUTS_PER_DECODER)

    def on_spi1(self, reader: int) -> bool:
        """True for a seat pad: the long runs at the table edge get their own bus."""
        return reader in self.seats


def _gpio_row(function: str, gpio: int, goes_to: str) -> str:
    from hardware.circuits.parts import pico_gpio_pin

    return f"| {function} | GP{gpio} | {pico_gpio_pin(gpio)} | {goes_to} |"


def _default_places() -> tuple[str, ...]:
    """The reader names of firmware/config.py's default build (a literal tuple there)."""
    import ast

    tree = ast.parse((PINS_FILE.parent / "config.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "READERS":
            names: tuple[str, ...] = ast.literal_eval(node.value)
            return names
    raise ValueError("firmware/config.py has no READERS tuple")


def docs_tables() -> str:
    """The pinout tables of docs/hardware.md, made from firmware/pins.py (and the reader names of config.py)."""
    places = _default_places()
    seats = BoardSpec().seats
    lines = [f"Reader chip selects, one GPIO per reader, {len(DIRECT_CS)} at most when wired direct:", "",
             "| Reader | CS GPIO | Pico pin | Default place (Classic) | Bus |", "|---|---|---|---|---|"]
    for reader, gpio in enumerate(DIRECT_CS):
        place = places[reader] if reader < len(places) else "spare (a door reader, say)"
        lines.append(_gpio_row(str(reader), gpio, f"{place} | {'SPI1' if reader in seats else 'SPI0'}"))
    lines += ["", f"More than {len(DIRECT_CS)} readers take their chip selects from 74HC154 decoders:", "",
              "| Function | GPIO | Pico pin | Goes to |", "|---|---|---|---|"]
    lines += [_gpio_row(f"Decoder A{bit}", gpio, f"A{bit} of every 74HC154") for bit, gpio in enumerate(DECODER_ADDRESS)]
    lines += [_gpio_row(f"Decoder {index + 1} enable", gpio,
                        f"~E1 of decoder {index + 1} (readers {16 * index}-{16 * index + 15})")
              for index, gpio in enumerate(DECODER_ENABLES)]
    lines += ["", "Shared lines and the rest:", "", "| Function | GPIO | Pico pin | Goes to |", "|---|---|---|---|"]
    for bus, (sck, mosi, miso), who in ((0, (SPI0_SCK, SPI0_MOSI, SPI0_MISO), "rooms, centre and doors"),
                                        (1, (SPI1_SCK, SPI1_MOSI, SPI1_MISO), "seat pads")):
        fan_out = f"the {who}' 74LVC244A fan-out; each output → 33 Ω → up to 8 readers"
        lines += [_gpio_row(f"SPI{bus} SCK", sck, f"1A inputs of {fan_out}"),
                  _gpio_row(f"SPI{bus} MOSI (TX)", mosi, f"2A inputs of {fan_out}"),
                  _gpio_row(f"SPI{bus} MISO (RX)", miso, f"the {who}' MISO buffers (74LVC1G125 Y)")]
    lines += [_gpio_row("Reader reset", READER_RST, "RST of every reader"),
              _gpio_row("WS2812 data", LED_DATA, "74AHCT125 input 1A; output 1Y → 330 Ω → DIN of LED 0"),
              _gpio_row("Buzzer (PWM)", BUZZER, "the buzzer's drive ([Buzzer](#buzzer))"),
              "| Status LED | GP25 (on the Pico) | — | the Pico's own LED: no wiring |",
              "| GND | — | 3, 8, 13, 18, 23, 28, 33, 38 | common ground |",
              "| 3V3(OUT) | — | 36 | not for the readers |",
              "| VSYS / VBUS | — | 39 / 40 | leave unconnected |",
              "| RUN | — | 30 | optional reset button to GND |",
              "| ADC_VREF / 3V3_EN | — | 35 / 37 | leave unconnected |"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--docs"]:
        sys.exit("usage: python -m hardware.circuits.pinout --docs  (prints docs/hardware.md's pinout tables)")
    sys.stdout.write(docs_tables())
