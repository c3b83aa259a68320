"""One pin map: for every supported build, the netlist's Pico nets are the pins the firmware drives.

Each build is firmware/config.py as a maker edits it (its own comments say how:
the crowded-room readers and the DECODER line uncommented, SPI1_READERS
emptied for seat pads on SPI0), run on MicroPython, and the circuit built by
hardware/circuits for the same build, read back from its KiCad netlist.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython

from hardware.circuits import parts
from hardware.circuits.board import build_board
from hardware.circuits.pinout import BoardSpec
from hardware.circuits.skidl_session import netlist

ROOT = Path(__file__).resolve().parents[2]
CONFIG = (ROOT / "firmware" / "config.py").read_text(encoding="utf-8")
SEATS = (10, 11, 12, 13, 14, 15)
BUILDS = {
    "16 readers, seat pads on SPI1": (16, SEATS),
    "16 readers, seat pads on SPI0": (16, ()),
    "29 readers with decoders, seat pads on SPI1": (29, SEATS),
    "29 readers with decoders, seat pads on SPI0": (29, ()),
}


def edited_config(readers: int, seats: tuple[int, ...]) -> str:
    """config.py with the edits its comments describe for this build."""
    text = CONFIG
    if readers == 29:
        text, crowded = re.subn(r'^    # ("Kitchen 2".*|"Dining Room 3".*|"Hall 3".*)$', r"    \1", text, flags=re.M)
        assert crowded == 3, "config.py's commented crowded-room readers moved: update this test"
        text, switched = re.subn(r"^# (DECODER = \(pins.*)$\n((?:#.*\n)*)DECODER = None$", r"\1\n\2", text, flags=re.M)
        assert switched == 1, "config.py's commented decoder plan moved: update this test"
    if not seats:
        text, emptied = re.subn(r"^SPI1_READERS = \(.*\)$", "SPI1_READERS = ()", text, flags=re.M)
        assert emptied == 1
    return text


def firmware_pins(mp: MicroPython, readers: int, seats: tuple[int, ...]) -> dict[str, int]:
    """{net: GPIO} of the build as the firmware's wiring plans it, checked against what main.build drives."""
    mp.run(
        "import config, fw_rig, machine, wiring\n"
        "saved = {k: getattr(config, k) for k in dir(config) if k.isupper()}\n"
        f"edited = {{}}\nexec({edited_config(readers, seats)!r}, edited)\n"
        "for k, v in edited.items():\n"
        "    if k.isupper():\n"
        "        setattr(config, k, v)\n"
        "try:\n"
        "    count = len(config.READERS)\n"
        "    plan = wiring.plan(count, config.CS_PINS, config.DECODER, config.SPI1_READERS)\n"
        "    rig = fw_rig.Rig(count, decoder=config.DECODER)\n"
        "finally:\n"
        "    for k, v in saved.items():\n"
        "        setattr(config, k, v)\n"
    )
    plan: dict[str, int] = mp.eval("plan")
    driven = mp.eval(
        "{'spi': {str(n): list(b.pins) for n, b in machine.buses.items()},"
        " 'out': sorted(k for k, v in machine._pins.items() if isinstance(k, int) and v.mode == machine.Pin.OUT),"
        " 'led': rig.pixels.pin._line.ident, 'buzzer': rig.buzzer.pin._line.ident, 'count': count}")
    assert driven["count"] == readers
    for bus, gpios in driven["spi"].items():
        assert gpios == [plan[f"SPI{bus}_{signal}"] for signal in ("SCK", "MOSI", "MISO")]
    assert set(driven["spi"]) == {name[3] for name in plan if name.startswith("SPI")}
    selects = {gpio for name, gpio in plan.items() if name.startswith("CS") or name == "READER_RST"}
    assert set(driven["out"]) == selects | {plan["LED_DATA_3V3"]}  # the NeoPixel's pin is an output too
    assert (driven["led"], driven["buzzer"]) == (plan["LED_DATA_3V3"], plan["BUZZER"])
    return plan


def netlist_pins(readers: int, seats: tuple[int, ...]) -> dict[str, int]:
    """{net: GPIO} of every Pico pin the board's KiCad netlist connects to something."""
    text, _ = netlist(build_board(BoardSpec(readers, seats)))
    pico = re.search(r'\(comp\s+\(ref "(\w+)"\)\s+\(value "RPi_Pico"\)', text)
    assert pico is not None
    gpio_of_pin = {parts.pico_gpio_pin(gpio): gpio for gpio in [*range(23), 26, 27, 28]}
    found: dict[str, int] = {}
    for net in re.finditer(r'\(net\s+\(code "?\d+"?\)\s+\(name "([^"]+)"\)(.*?)(?=\(net\s+\(code|\Z)', text, flags=re.S):
        name, body = net.group(1), net.group(2)
        for pin in re.findall(rf'\(ref "{pico.group(1)}"\)\s+\(pin "(\d+)"\)', body):
            if int(pin) in gpio_of_pin and not name.startswith("__"):
                found[name.lstrip("/")] = gpio_of_pin[int(pin)]
    return found


@pytest.mark.parametrize("build", BUILDS)
def test_every_pico_net_of_the_netlist_is_what_the_firmware_drives(mp: MicroPython, build: str) -> None:
    readers, seats = BUILDS[build]
    from_firmware = firmware_pins(mp, readers, seats)
    from_netlist = netlist_pins(readers, seats)
    assert from_netlist == from_firmware, json.dumps({"netlist": from_netlist, "firmware": from_firmware})
    # The status LED is the Pico's own (GP25, not on the header): nothing of the board's is wired to it.
    assert mp.eval("config.STATUS_LED", "import config") == "LED" and 25 not in from_netlist.values()


def test_a_pin_moved_in_the_netlist_alone_fails_the_comparison(mp: MicroPython, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.circuits import board

    monkeypatch.setattr(board.pins, "BUZZER", 17)  # the circuit's buzzer moved, the firmware's not
    assert netlist_pins(16, SEATS) != firmware_pins(mp, 16, SEATS)


def test_the_pinout_tables_in_the_docs_are_generated_from_the_pin_map() -> None:
    from hardware.circuits.pinout import docs_tables

    text = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    begin = "<!-- pinout tables: generated from firmware/pins.py, do not edit by hand -->\n"
    end = "<!-- end of the generated pinout tables -->"
    assert text[text.index(begin) + len(begin):text.index(end)] == docs_tables(), (
        "docs/hardware.md's pinout tables differ from firmware/pins.py: paste `python -m hardware.circuits.pinout --docs`")
