"""The circuits as code: ERC passes, netlists and the BOM come out, ERC can fail.

Also the board's review findings (issue 28): the buzzer a GPIO can drive, one
regulator per 16 readers, each module's MISO pulled down, SCK and MOSI fanned
out, and a BOM whose prices each name a dated source or say there is none.
"""

from __future__ import annotations

import csv
import functools
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from hardware.circuits import parts
from hardware.circuits.__main__ import main
from hardware.circuits.board import (
    READERS_PER_FANOUT,
    READERS_PER_REGULATOR,
    build_board,
    reader_rail,
)
from hardware.circuits import build as build_module
from hardware.circuits.build import BuildResult, build
from hardware.circuits.catalogue import NO_PRICE, price_of
from hardware.circuits.pinout import BoardSpec
from hardware.circuits.skidl_session import new_circuit, run_erc, skidl

ROOT = Path(__file__).resolve().parents[2]
CLASSIC_SEATS = (10, 11, 12, 13, 14, 15)


def _bom_rows(result: BuildResult) -> list[dict[str, str]]:
    with result.bom_csv.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _quantity(rows: list[dict[str, str]], circuit: str, value: str) -> int:
    return sum(int(r["quantity"]) for r in rows if r["circuit"].startswith(circuit) and r["value"] == value)


def _netlist_parts(path: Path) -> Counter[str]:
    """Parts per (libsource part) name, read back from the KiCad netlist text."""
    text = path.read_text(encoding="utf-8")
    return Counter(chunk.split('"')[1] for chunk in text.split("(part ")[1:])


Built = Callable[[int, tuple[int, ...]], tuple[BuildResult, Path]]


@functools.cache
def _circuit(readers: int, seats: tuple[int, ...]) -> object:
    """The board circuit of one spec, made once (SKiDL takes seconds over a big board) for every test of
    this file: the builds below check and write it, the board views read its nets."""
    return build_board(BoardSpec(readers, seats))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    """Each build's outputs (10 handhelds), built once for the tests that read them (a build takes seconds)."""
    results: dict[tuple[int, tuple[int, ...]], tuple[BuildResult, Path]] = {}

    def get(readers: int, seats: tuple[int, ...]) -> tuple[BuildResult, Path]:
        if (readers, seats) not in results:
            folder = tmp_path_factory.mktemp(f"build-{readers}")
            results[(readers, seats)] = build(folder, BoardSpec(readers, seats), handhelds=10), folder
        return results[(readers, seats)]

    with pytest.MonkeyPatch.context() as patch:  # build() checks and writes the circuit the views read
        patch.setattr(build_module, "build_board", lambda spec: _circuit(spec.readers, tuple(spec.seats)))
        yield get


@pytest.mark.parametrize(
    ("readers", "seats", "decoders"),
    [(16, CLASSIC_SEATS, 0), (29, CLASSIC_SEATS, 2), (17, CLASSIC_SEATS, 0), (18, (), 2), (3, (), 0)],
)
def test_every_circuit_passes_erc_and_writes_netlists_and_bom(
    built: Built, readers: int, seats: tuple[int, ...], decoders: int
) -> None:
    result, folder = built(readers, seats)

    for circuit in result.circuits:
        print(circuit.name, "ERC warnings:", circuit.erc.warnings)  # listed, not failed on
    assert result.erc_errors == []
    board = _netlist_parts(folder / "board.net")
    assert board["RC522_module"] == readers
    assert board["74LVC1G125"] == readers  # one MISO buffer per reader
    assert board["74HC154"] == decoders
    assert board["WS2812B"] == readers
    assert board["RPi_Pico"] == 1
    assert board["AMS1117-3.3"] == -(-readers // 16)
    room_groups, seat_groups = -(-(readers - len(seats)) // 8), -(-len(seats) // 8)
    assert board["74LVC244A"] == -(-room_groups // 4) + -(-seat_groups // 4)
    rows = _bom_rows(result)
    assert _quantity(rows, "board", "33") == 3 * readers  # SCK, MOSI, CS of each reader
    assert _quantity(rows, "board", "74LVC1G125") == readers
    assert _quantity(rows, "board", "74HC154") == decoders
    assert _netlist_parts(folder / "handheld_hub.net")["TCA9548A"] == 2
    handheld = _netlist_parts(folder / "handheld.net")
    assert (handheld["MCP23008"], handheld["SW_Push"], handheld["SSD1306_OLED_module"]) == (1, 4, 1)


def test_the_bom_prices_a_line_only_with_a_dated_source_and_totals_the_priced_lines(built: Built) -> None:
    result, _ = built(29, CLASSIC_SEATS)
    rows = _bom_rows(result)

    assert rows and all(r["mpn"] and r["price_source"] for r in rows)
    priced = [r for r in rows if r["unit_usd"]]
    unpriced = [r for r in rows if not r["unit_usd"]]
    assert priced and unpriced
    for row in priced:
        assert row["price_date"] and row["price_source"] != NO_PRICE
        assert float(row["line_usd"]) == pytest.approx(int(row["quantity"]) * float(row["unit_usd"]), abs=0.01)
    assert all(r["price_source"] == NO_PRICE and not r["line_usd"] and not r["price_date"] for r in unpriced)
    markdown = result.bom_md.read_text(encoding="utf-8")
    handheld = next(c.assembly for c in result.circuits if c.name == "handheld")
    assert handheld.copies == 10
    grand = sum(c.assembly.unit_usd * c.assembly.copies for c in result.circuits)
    assert grand == pytest.approx(sum(float(r["line_usd"]) * (10 if r["circuit"] == "handheld" else 1)
                                      for r in priced))
    assert f"| **all** | | | **{grand:.2f}** | {len(unpriced)} |" in markdown
    assert "counts the priced lines only" in markdown


def test_the_100n_capacitor_is_the_part_its_lcsc_number_names() -> None:
    # LCSC C14663 is Yageo's CC0603KRX7R9BB104, not a Samsung part.
    cap = price_of("C", "100n")
    assert (cap.manufacturer, cap.mpn, cap.supplier_pn) == ("YAGEO", "CC0603KRX7R9BB104", "C14663")


class BoardView(NamedTuple):
    """A built board read back: each tag:pin's net, each net's tag:pins, each part's value."""

    nets: dict[str, str]
    members: dict[str, list[str]]
    values: dict[str, str]


def _board(readers: int, seats: tuple[int, ...] = ()) -> BoardView:
    """The board of ``readers`` readers, built once per build for the tests that only read it."""
    return _built_board(readers, seats)  # one cache key whether ``seats`` is given or not


@functools.cache
def _built_board(readers: int, seats: tuple[int, ...]) -> BoardView:
    circuit: Any = _circuit(readers, seats)
    nets: dict[str, str] = {}
    members: dict[str, list[str]] = {}
    for part in circuit.parts:
        for pin in part.pins:
            if pin.net is not None:
                nets[f"{part.tag}:{pin.name}"] = pin.net.name
                members.setdefault(pin.net.name, []).append(f"{part.tag}:{pin.name}")
    return BoardView(nets, members, {part.tag: str(part.value) for part in circuit.parts})


@pytest.mark.parametrize("readers", [3, 18])  # without and with decoders; boards the builds above made
def test_each_miso_buffer_is_enabled_by_its_own_readers_chip_select(readers: int) -> None:
    nets = _board(readers).nets

    for reader in range(readers):
        select = nets[f"reader{reader}.miso_buffer:~OE"]
        assert select == f"CS{reader}"
        assert nets[f"reader{reader}.sda_series:1"] == select  # the resistor's hub end
        assert nets[f"reader{reader}:SDA"] == nets[f"reader{reader}.sda_series:2"]
        assert nets[f"reader{reader}.miso_buffer:A"] == nets[f"reader{reader}:MISO"]
        assert nets[f"reader{reader}.miso_buffer:Y"] == "SPI0_MISO"


def _two_modules_sharing(net_name: str) -> list[str]:
    """Two reader modules with their MISO pins on one net, as the unbuffered board had."""
    circuit = new_circuit()
    with circuit:
        net = skidl().Net
        gnd, vcc, miso = net("GND"), net("+3V3"), net(net_name)
        supply = parts.make(parts.AMS1117_33, "regulator")
        supply["VOUT"] += vcc
        supply["GND"] += gnd
        supply["VIN"] += circuit.NC
        for index in range(2):
            module = parts.make(parts.RC522_MODULE, f"reader{index}")
            module.n["MISO"] += miso
            module.n["3V3"] += vcc
            module.n["GND"] += gnd
            for name in ("SDA", "SCK", "MOSI", "RST", "IRQ"):
                module.n[name] += circuit.NC
    return run_erc(circuit).errors


def test_erc_fails_two_readers_driving_one_unbuffered_miso() -> None:
    errors = _two_modules_sharing("MISO")

    assert errors and any("MISO" in error for error in errors)


def test_erc_fails_an_external_supply_on_the_picos_vbus() -> None:
    circuit = new_circuit()
    with circuit:
        five = skidl().Net("+5V")
        gnd = skidl().Net("GND")
        supply = parts.make(parts.SUPPLY_5V, "supply")
        supply["+5V"] += five
        supply["GND"] += gnd
        pico = parts.make(parts.PICO, "pico")
        pico.n["VBUS"] += five  # docs/hardware.md: never connect the external 5 V here
        for pin in pico.pins:
            if not pin.is_connected():
                pin += gnd if pin.name == "GND" else circuit.NC
    errors = run_erc(circuit).errors

    assert any("VBUS" in error for error in errors)


def test_erc_fails_a_floating_input() -> None:
    circuit = new_circuit()
    with circuit:
        net = skidl().Net
        gnd, vcc = net("GND"), net("+3V3")
        supply = parts.make(parts.AMS1117_33, "regulator")
        supply["VOUT"] += vcc
        supply["GND"] += gnd
        supply["VIN"] += circuit.NC
        buffer = parts.make(parts.LVC1G125, "reader0.miso_buffer")
        buffer.n["VCC"] += vcc
        buffer.n["GND"] += gnd
        buffer.n["Y"] += circuit.NC
        buffer.n["A"] += circuit.NC
        # ~OE left floating: the buffer would drive MISO at random
    errors = run_erc(circuit).errors

    assert errors == [next(e for e in errors if "~OE" in e)]


def test_the_buzzer_is_a_piezo_its_gpio_drives_through_1k() -> None:
    nets, _, values = _board(16, CLASSIC_SEATS)

    assert nets["buzzer.series:1"] == "BUZZER" and values["buzzer.series"] == "1k"
    assert nets["buzzer.series:2"] == nets["buzzer:1"] and nets["buzzer:2"] == "GND"
    assert price_of("Buzzer", "Buzzer").mpn == "PS1240P02BT"  # piezo, external drive: no coil, no transistor


@pytest.mark.parametrize(("readers", "seats", "rails"), [(16, CLASSIC_SEATS, 1), (17, CLASSIC_SEATS, 2), (29, (), 2)])
def test_each_regulator_feeds_at_most_16_readers(readers: int, seats: tuple[int, ...], rails: int) -> None:
    nets, members, _ = _board(readers, seats)

    outputs = {net: [m for m in pins if m.endswith(":VOUT")] for net, pins in members.items()}
    powered = {nets[f"reader{r}:3V3"] for r in range(readers)}
    assert len(powered) == rails
    for rail in powered:
        assert len(outputs[rail]) == 1  # one AMS1117 per rail
        fed = [r for r in range(readers) if nets[f"reader{r}:3V3"] == rail]
        assert len(fed) <= READERS_PER_REGULATOR
        assert all(reader_rail(r) == rail for r in fed)


@pytest.mark.parametrize("readers", [3, 29])
def test_each_modules_miso_is_pulled_down_at_its_buffer(readers: int) -> None:
    nets, members, values = _board(readers)

    for reader in range(readers):
        miso = nets[f"reader{reader}.miso_buffer:A"]
        ends = {nets[f"reader{reader}.miso_pulldown:1"], nets[f"reader{reader}.miso_pulldown:2"]}
        assert ends == {miso, "GND"} and values[f"reader{reader}.miso_pulldown"] == "10k"
        assert sorted(members[miso]) == sorted([f"reader{reader}:MISO", f"reader{reader}.miso_buffer:A",
                                                f"reader{reader}.miso_pulldown:1"])


@pytest.mark.parametrize(("readers", "seats"), [(29, CLASSIC_SEATS), (29, ()), (16, CLASSIC_SEATS)])
def test_no_pico_pad_drives_more_than_a_few_buffer_inputs(readers: int, seats: tuple[int, ...]) -> None:
    nets, members, _ = _board(readers, seats)

    for bus in ("SPI0", "SPI1") if seats else ("SPI0",):
        for signal in ("SCK", "MOSI"):
            loads = [m for m in members[f"{bus}_{signal}"] if not m.startswith("pico:")]
            assert loads and all(".fanout" in m for m in loads)  # only 74LVC244A inputs
    for reader in range(readers):
        sck, mosi = nets[f"reader{reader}.sck_series:1"], nets[f"reader{reader}.mosi_series:1"]
        bus = "SPI1" if reader in seats else "SPI0"
        assert sck.startswith(f"{bus}_SCK_G") and mosi == sck.replace("SCK", "MOSI")  # one group, both lines
        branches = [m for m in members[sck] if m.endswith("_series:1")]
        assert 1 <= len(branches) <= READERS_PER_FANOUT


def test_board_spec_refuses_impossible_builds() -> None:
    with pytest.raises(ValueError, match="readers must be 1 to 32"):
        BoardSpec(33)
    with pytest.raises(ValueError, match=r"seat readers \[10, 11\]"):
        BoardSpec(10, (9, 10, 11))


def test_the_command_line_builds_and_reports_errors_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", str(tmp_path / "out"), "--readers", "5", "--seats", "none",
                 "--handhelds", "3"]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "board.net", "bom.csv", "bom.md", "handheld.net", "handheld_hub.net"]
    capsys.readouterr()

    assert main(["build", str(tmp_path / "bad"), "--handhelds", "17"]) == 2
    err = capsys.readouterr().err
    assert err == "error: handhelds must be 1 to 16, got 17\n"


def test_loading_skidl_writes_nothing_in_the_working_directory_and_prints_nothing(tmp_path: Path) -> None:
    # A bare import of skidl writes <script>.log and .erc here and warns on stderr.
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    code = "from hardware.circuits.skidl_session import skidl, new_circuit; skidl(); new_circuit()"
    done = subprocess.run([sys.executable, "-c", code], cwd=work, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "HOME": str(home), "PATH": "/usr/bin:/bin"},
                          timeout=120, check=False)

    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert list(work.iterdir()) == []
