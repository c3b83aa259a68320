"""Record shared vectors for the twin's MFRC522 port from the Python fake: ``python tests/pico/make_vectors.py``.

The board twin's readers (tests/pico/readers.mjs) are a JavaScript port of the
register-level fake the WebAssembly tests use (tests/firmware/micropython/
fake_mfrc522.py and fake_tags.py). To keep one model of the RF field, this
script runs the driver (firmware/mfrc522.py) and scanner on that fake under
CPython and writes each SPI transaction (MOSI bytes, the MISO bytes the fake
answered, the time it ended) and each tag event to tests/pico/vectors/.
test_reader_vectors.py replays them against both models (:func:`replay` for
the fake, readers.mjs's ``replayVector`` for the port): the driver only made
the traffic, so the vectors stay valid while it changes.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS = Path(__file__).resolve().parent / "vectors"
FAKE_DIR = ROOT / "tests" / "firmware" / "micropython"
FIRMWARE_DIR = ROOT / "firmware"
SCAN_GAP_US = 2_000  # between two scans of the reader (the other readers' turn)


def _modules() -> dict[str, Any]:
    """The fake, the driver and the scanner, imported under CPython (``micropython.const`` stubbed).

    They take plain names (``machine``, ``wiring``...) from their folders: run
    this in a process of its own (``main``), never inside pytest's.
    """
    if "micropython" not in sys.modules:
        stub = types.ModuleType("micropython")
        stub.const = lambda value: value  # type: ignore[attr-defined]
        sys.modules["micropython"] = stub
    for folder in (FAKE_DIR, FIRMWARE_DIR):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    names = ("machine", "fake_tags", "fake_mfrc522", "mfrc522", "scanner")
    return {name: importlib.import_module(name) for name in names}


def _fault(chip: Any, what: str) -> None:
    """``dip`` (a brown-out), ``unplug``, ``plug``, ``overheat`` or ``cool`` on a fake chip."""
    if what == "unplug":
        chip.fail(0x00)
    else:
        {"dip": chip.power_on, "plug": chip.heal, "overheat": chip.overheat, "cool": chip.cool}[what]()


class _Recorder:
    """One reader's SPI bus and chip select, recording every transaction with the chip's answer."""

    def __init__(self, chip: Any, reader: int, steps: list[dict[str, Any]]) -> None:
        self._chip = chip
        self._reader = reader
        self._steps = steps

    def select(self) -> None:
        self._chip.set_selected(True)

    def deselect(self) -> None:
        self._chip.set_selected(False)

    def write(self, buf: Any) -> None:
        self.write_readinto(buf, bytearray(len(buf)))

    def write_readinto(self, out: Any, into: Any) -> None:
        self._chip.transfer(out, into)
        self._steps.append({"t": self._chip.clock.now, "r": self._reader, "mosi": bytes(out).hex(),
                            "miso": bytes(into).hex()})


class Scenario:
    """``readers`` readers with the real driver and scanner on the fake; tag events go into the steps too."""

    def __init__(self, seed: int, readers: int = 1) -> None:
        mods = _modules()
        mods["machine"].reset_world()
        fake = mods["fake_mfrc522"]
        self.fake = fake
        self.clock = fake.VirtualClock()
        mods["mfrc522"].time = self.clock
        mods["scanner"].time = self.clock
        self.chips = [fake.FakeChip(clock=self.clock) for _ in range(readers)]
        self.steps: list[dict[str, Any]] = []
        links = [_Recorder(chip, n, self.steps) for n, chip in enumerate(self.chips)]
        self.drivers = [mods["mfrc522"].MFRC522(link, link) for link in links]
        self.scanner = mods["scanner"].Scanner(self.drivers, 3, 2000)
        self.rng = random.Random(seed)
        self.cards: dict[str, tuple[Any, list[int]]] = {}
        self.reports: list[tuple[int, int, str]] = []

    def start(self) -> None:
        self.scanner.start(self.clock.ticks_ms())

    def scan(self, times: int = 1) -> None:
        for _ in range(times):
            self.scanner.scan(self.clock.ticks_ms(), lambda kind, reader, uid: self.reports.append((kind, reader, uid.hex())))
            self.clock.advance(SCAN_GAP_US)

    def place(self, uid: bytes, readers: tuple[int, ...] = (0,)) -> None:
        card = self.fake.Card(uid)
        for reader in readers:
            self.chips[reader].add(card)
        self.cards[uid.hex()] = (card, list(readers))
        self.steps.append({"t": self.clock.now, "place": uid.hex(), "readers": list(readers)})

    def remove(self, uid_hex: str) -> None:
        card, readers = self.cards.pop(uid_hex)
        for reader in readers:
            self.chips[reader].remove(card)
        self.steps.append({"t": self.clock.now, "remove": uid_hex})

    def fault(self, what: str, reader: int = 0) -> None:
        """``dip`` (a brown-out), ``unplug``, ``plug``, ``overheat``, ``cool``."""
        _fault(self.chips[reader], what)
        self.steps.append({"t": self.clock.now, what: reader})

    def uid(self) -> bytes:
        size = self.rng.choice((4, 7, 7, 10))
        first = self.rng.choice((0x04, 0x1D, 0x53)) if size > 4 else self.rng.randrange(0x100)
        if size == 4 and first == 0x88:
            first = 0x08  # 0x88 is the cascade tag, never a UID's first byte
        return bytes([first] + [self.rng.randrange(0x100) for _ in range(size - 1)])

    def vector(self, name: str, about: str) -> dict[str, Any]:
        return {"name": name, "about": about, "readers": len(self.chips), "unplugged_miso": 0,
                "reports": len(self.reports), "transceives": sum(chip.transceives for chip in self.chips),
                "collisions": sum(chip.collisions for chip in self.chips), "steps": self.steps}


def _one_tag() -> dict[str, Any]:
    s = Scenario(1)
    s.start()
    s.scan(2)
    s.place(bytes.fromhex("04a1b2c3d4e5f6"))
    s.scan(3)
    s.remove("04a1b2c3d4e5f6")
    s.scan(4)  # three misses, then a field reset
    s.place(bytes.fromhex("deadbeef"))
    s.scan(2)
    return s.vector("one_tag", "init, an empty scan, a 7-byte tag laid and lifted, then a 4-byte tag")


def _crowd() -> dict[str, Any]:
    s = Scenario(28)
    s.start()
    for _ in range(5):
        s.place(s.uid())
    s.scan(2)
    for _ in range(7):  # random arrivals and departures, with collisions in every newcomer search
        if s.cards and (len(s.cards) >= 12 or s.rng.random() < 0.4):
            s.remove(s.rng.choice(sorted(s.cards)))
        else:
            s.place(s.uid())
        s.scan()
    return s.vector("crowd", "up to 12 tags of 4, 7 and 10 bytes arriving and leaving at random (seed 28)")


def _faults() -> dict[str, Any]:
    s = Scenario(3)
    s.start()
    s.place(bytes.fromhex("08112233"))
    s.scan(2)
    s.fault("dip")  # a brown-out: registers back to their power-on values
    s.scan(3)
    s.fault("unplug")
    s.scan(2)
    s.fault("plug")
    s.clock.advance(2_100_000)  # the scanner's retry interval
    s.scan(3)
    s.fault("overheat")  # TempErr: drivers off, latched
    s.scan(2)
    s.clock.advance(2_100_000)
    s.scan()  # a retry while still hot: TempSensClear does not clear it
    s.fault("cool")
    s.clock.advance(2_100_000)
    s.scan(3)  # cleared, and the tag read again
    return s.vector("faults", "a power dip, the module unplugged and plugged back, TempErr while hot and after")


def _straddle() -> dict[str, Any]:
    s = Scenario(5, readers=2)
    s.start()
    s.place(bytes.fromhex("04c0ffee123456"), (0, 1))  # across both antennas: powered by either field
    s.place(bytes.fromhex("1d00112233aabb"), (1,))
    s.scan(3)
    s.remove("04c0ffee123456")
    s.scan(4)
    s.place(bytes.fromhex("04c0ffee123456"), (1,))
    s.scan(2)
    return s.vector("straddle", "two readers, a tag across both antennas, lifted, then laid on the second")


SCENARIOS = (_one_tag, _crowd, _faults, _straddle)


def replay(vector: dict[str, Any]) -> list[dict[str, Any]]:
    """Play ``vector`` to fresh Python fakes: every transaction whose MISO bytes differ."""
    mods = _modules()
    mods["machine"].reset_world()
    fake = mods["fake_mfrc522"]
    clock = fake.VirtualClock()
    chips = [fake.FakeChip(clock=clock) for _ in range(vector.get("readers", 1))]
    cards: dict[str, tuple[Any, list[int]]] = {}
    problems = []
    for number, step in enumerate(vector["steps"]):
        clock.now = step["t"]
        if "place" in step:
            card = fake.Card(bytes.fromhex(step["place"]))
            cards[step["place"]] = (card, step["readers"])
            for reader in step["readers"]:
                chips[reader].add(card)
        elif "remove" in step:
            card, readers = cards.pop(step["remove"])
            for reader in readers:
                chips[reader].remove(card)
        elif "mosi" in step:
            chip = chips[step["r"]]
            mosi = bytes.fromhex(step["mosi"])
            clock.now = step["t"] - round(len(mosi) * chip.byte_us)  # the fake moves its clock by the bytes
            chip.set_selected(True)
            into = bytearray(len(mosi))
            chip.transfer(mosi, into)
            chip.set_selected(False)
            if into.hex() != step["miso"]:
                problems.append({"step": number, "t": step["t"], "want": step["miso"], "got": into.hex()})
        else:
            ((what, reader),) = ((k, v) for k, v in step.items() if k != "t")
            _fault(chips[reader], what)
    return problems


def build() -> dict[str, dict[str, Any]]:
    """Every vector, by file name."""
    vectors = {}
    for make in SCENARIOS:
        vector = make()
        vectors[f"{vector['name']}.json"] = vector
    return vectors


def dump(vector: dict[str, Any]) -> str:
    """One step a line: small diffs when the fake changes."""
    head = {key: value for key, value in vector.items() if key != "steps"}
    lines = [json.dumps(step, separators=(",", ":")) for step in vector["steps"]]
    return json.dumps(head)[:-1] + ', "steps": [\n' + ",\n".join(lines) + "\n]}\n"


def main(argv: list[str]) -> None:
    """Write the vectors into tests/pico/vectors/ (or ``--out DIR``); ``--check``: replay them to the fake instead."""
    if "--check" in argv:
        print(json.dumps({path.name: replay(json.loads(path.read_text())) for path in sorted(VECTORS.glob("*.json"))}))
        return
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else VECTORS
    out.mkdir(exist_ok=True)
    for name, vector in build().items():
        (out / name).write_text(dump(vector), encoding="utf-8")
        print(f"{name}: {len(vector['steps'])} steps, {vector['reports']} reports, {vector['collisions']} collisions")


if __name__ == "__main__":
    main(sys.argv[1:])
