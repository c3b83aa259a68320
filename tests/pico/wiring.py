"""The board twin's wiring, traced from the circuit's netlist (hardware/circuits), not from pins.py.

:func:`wiring` builds a board's circuit with ``hardware.circuits`` and follows
each reader module's pins through the nets, its series resistors and its
MISO buffer back to the Pico's GPIOs and the 74HC154 decoders' pins. The
result is the JSON tests/pico/readers.mjs wires its models by:

- ``readers[i]``: ``bus`` (a key of ``buses``), ``select`` (``{"gpio": n,
  "pull": "up"}`` for a direct chip select, ``{"decoder": d, "output": y}``
  behind a decoder), ``miso_enable`` (what enables its MISO buffer, the same
  shape), ``unplugged_miso`` (what MISO reads with the module gone: 0 when the
  buffer's input is pulled down, 255 pulled up, None floating);
- ``buses``: ``{"SPI0": {"sck": 18, "mosi": 19, "miso": 16}, ...}``;
- ``decoders[d]``: ``address`` (GPIOs of A0-A3), ``enable`` (the GPIO of ~E1),
  ``enable_pull``;
- ``rst``: the GPIO on every reader's RST.

``swap`` exchanges pairs of Pico pins in the circuit before tracing (wiring
mistakes in the netlist, for the test that such a mistake fails the twin).

``python tests/pico/wiring.py --readers 29 [--no-seats] [--swap 16,17 ...] OUT.json``
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SEATS = (10, 11, 12, 13, 14, 15)
BUFFER_OUTPUT = re.compile(r"^(\d?)Y(\d*)$")  # 74LVC1G125 Y, 74LVC244A 1Y1..2Y4, 74AHCT125 1Y..4Y
Net = Any  # SKiDL's objects are untyped
Pin = Any


class WiringError(ValueError):
    """The netlist does not connect a reader the way the twin can model."""


def _pins(net: Net) -> list[Pin]:
    return list(net.pins) if net is not None else []


def _is_resistor(part: Any) -> bool:
    return bool(part.kind.name == "R")


def _other(pin: Pin) -> Pin:
    """The other end of a two-pin part."""
    (other,) = [p for p in pin.part.pins if p is not pin]
    return other


def _rail(net: Net) -> str | None:
    """"up" for a supply rail (+3V3, +3V3_B, +5V), "down" for GND, else None."""
    name = net.name if net is not None else ""
    return "up" if name.startswith("+") else "down" if name == "GND" else None


def _pull(net: Net) -> str | None:
    """"up" or "down" when a resistor ties ``net`` to a rail, else None."""
    for pin in _pins(net):
        if _is_resistor(pin.part) and _rail(_other(pin).net):
            return _rail(_other(pin).net)
    return None


def _buffer_input(pin: Pin) -> Pin | None:
    """The input behind a non-inverting buffer's output pin, if that section is always enabled."""
    match = BUFFER_OUTPUT.match(pin.name)
    if not match or pin.part.tag.startswith("decoder"):
        return None
    section, number = match.groups()
    names = {p.name: p for p in pin.part.pins}
    source = names.get(f"{section}A{number}")
    enable = names.get(f"~{section}OE") or names.get("~OE")
    if source is None or enable is None or _rail(enable.net) != "down":
        return None  # the MISO buffers: enabled by a select, traced on their own
    return source


def _sources(net: Net, seen: set[int] | None = None) -> list[Pin]:
    """The Pico and decoder output pins that drive ``net``, through series resistors (not pulls)."""
    seen = set() if seen is None else seen
    if net is None or id(net) in seen:
        return []
    seen.add(id(net))
    found: list[Pin] = []
    for pin in _pins(net):
        tag = pin.part.tag
        if tag == "pico" or (tag.startswith("decoder") and pin.name.startswith("Y")):
            found.append(pin)
        elif _is_resistor(pin.part):
            far = _other(pin).net
            if far is not None and not _rail(far):
                found += _sources(far, seen)
        elif (source := _buffer_input(pin)) is not None:
            found += _sources(source.net, seen)  # a fan-out buffer: on to what drives its input
    return found


def _gpio(pin: Pin) -> int:
    return int(pin.name.removeprefix("GP"))


def _one_gpio(net: Net, what: str) -> int:
    pico = [pin for pin in _sources(net) if pin.part.tag == "pico"]
    if len(pico) != 1:
        raise WiringError(f"{what}: {len(pico)} Pico pins on its net {net.name if net is not None else None}")
    return _gpio(pico[0])


class _Tracer:
    def __init__(self, circuit: Any) -> None:
        self.parts = {part.tag: part for part in circuit.parts}
        self.decoders: dict[str, dict[str, Any]] = {}
        self.buses: dict[str, dict[str, int]] = {}

    def select(self, net: Net, what: str) -> dict[str, Any]:
        sources = _sources(net)
        if len(sources) != 1:
            raise WiringError(f"{what}: driven by {len(sources)} pins")
        source = sources[0]
        if source.part.tag == "pico":
            return {"gpio": _gpio(source), "pull": _pull(source.net)}
        return {"decoder": self.decoder(source.part), "output": int(source.name.removeprefix("Y"))}

    def decoder(self, part: Any) -> int:
        if part.tag not in self.decoders:
            if part.n["~E2"].net is None or part.n["~E2"].net.name != "GND":
                raise WiringError(f"{part.tag}: ~E2 is not tied to GND")
            enable = part.n["~E1"].net
            self.decoders[part.tag] = {
                "address": [_one_gpio(part.n[f"A{bit}"].net, f"{part.tag} A{bit}") for bit in range(4)],
                "enable": _one_gpio(enable, f"{part.tag} ~E1"), "enable_pull": _pull(enable),
            }
        return list(self.decoders).index(part.tag)

    def bus(self, module: Any, buffer: Any) -> str:
        what = module.tag
        sck = _one_gpio(module.n["SCK"].net, f"{what} SCK")
        mosi = _one_gpio(module.n["MOSI"].net, f"{what} MOSI")
        miso = _one_gpio(buffer.n["Y"].net, f"{what} MISO buffer")
        pico_nets = [source.net.name for line in (module.n["SCK"], buffer.n["Y"]) for source in _sources(line.net)
                     if source.part.tag == "pico"]
        names = {net.split("_")[0] for net in pico_nets}
        name = names.pop() if len(names) == 1 else f"GP{sck}"
        lines = {"sck": sck, "mosi": mosi, "miso": miso}
        if self.buses.setdefault(name, lines) != lines:
            name = f"{name}_GP{sck}_{mosi}_{miso}"  # the same name, other pins: a miswired reader
            self.buses[name] = lines
        return name

    def reader(self, index: int) -> tuple[dict[str, Any], int]:
        module = self.parts.get(f"reader{index}")
        buffer = self.parts.get(f"reader{index}.miso_buffer")
        if module is None or buffer is None:
            raise WiringError(f"reader{index}: no module or no MISO buffer")
        if module.n["MISO"].net is not buffer.n["A"].net:
            raise WiringError(f"reader{index}: its MISO does not reach its buffer's input")
        entry = {
            "index": index, "bus": self.bus(module, buffer),
            "select": self.select(module.n["SDA"].net, f"reader{index} SDA"),
            "miso_enable": self.select(buffer.n["~OE"].net, f"reader{index} buffer ~OE"),
            "unplugged_miso": {"down": 0x00, "up": 0xFF, None: None}[_pull(buffer.n["A"].net)],
        }
        return entry, _one_gpio(module.n["RST"].net, f"reader{index} RST")


def _swap(circuit: Any, a: int, b: int) -> None:
    """Exchange the nets of Pico pins GP``a`` and GP``b`` (a wire crossed in the netlist)."""
    pico = next(part for part in circuit.parts if part.tag == "pico")
    pin_a, pin_b = pico.n[f"GP{a}"], pico.n[f"GP{b}"]
    net_a, net_b = pin_a.net, pin_b.net
    pin_a.disconnect()
    pin_b.disconnect()
    net_b += pin_a
    net_a += pin_b


def trace(circuit: Any, readers: int) -> dict[str, Any]:
    """The wiring JSON of a built circuit with ``readers`` reader modules."""
    tracer = _Tracer(circuit)
    entries = []
    resets = set()
    for index in range(readers):
        entry, rst = tracer.reader(index)
        entries.append(entry)
        resets.add(rst)
    if len(resets) != 1:
        raise WiringError(f"the readers' RST lines go to {sorted(resets)}, not one GPIO")
    rst = resets.pop()
    return {"readers": entries, "buses": tracer.buses, "decoders": list(tracer.decoders.values()), "rst": rst}


Swaps = tuple[tuple[int, int], ...]


def wiring(readers: int = 16, seats: tuple[int, ...] = SEATS, swap: Swaps = ()) -> dict[str, Any]:
    """Build the board's circuit (hardware.circuits) and trace its wiring; ``swap`` pairs of Pico pins first."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from hardware.circuits.board import build_board
    from hardware.circuits.pinout import BoardSpec

    circuit = build_board(BoardSpec(readers=readers, seats=tuple(s for s in seats if s < readers)))
    for a, b in swap:
        _swap(circuit, a, b)
    return trace(circuit, readers)


def write(path: Path, readers: int = 16, seats: tuple[int, ...] = SEATS, swap: Swaps = ()) -> Path:
    """Write the wiring JSON for twin.mjs's ``--wiring``; returns ``path``."""
    path.write_text(json.dumps(wiring(readers, seats, swap), indent=1) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--readers", type=int, default=16)
    parser.add_argument("--no-seats", action="store_true", help="the seat pads share SPI0")
    parser.add_argument("--swap", action="append", default=[], help="two Pico GPIOs to exchange, e.g. 16,17")
    args = parser.parse_args(argv)
    pairs = [tuple(int(n) for n in pair.split(",")) for pair in args.swap]
    if any(len(pair) != 2 for pair in pairs):
        parser.error("--swap takes two GPIO numbers")
    write(args.out, args.readers, () if args.no_seats else SEATS, tuple((p[0], p[1]) for p in pairs))


if __name__ == "__main__":
    main()
