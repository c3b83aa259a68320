"""Handhelds that scale to ten seats: buttons on MCP23008 expanders, two TCA9548As, hot-plug recovery.

Everything runs on :class:`hardware.i2c_mock.MockI2CBus`: the real multiplexer,
expander and luma code paths, with devices that stop answering when a unit's
cable is pulled and come back from their power-on state when it is plugged in.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageChops

from companion.cli.mock_table import MockTable, mock_config
from companion.rules.edition import load_edition
from companion.table.commands import Command
from companion.table.fanout import Mailbox
from companion.table.store import Store
from hardware.expander import GPPU, MCP23008, ExpanderButton
from hardware.handheld import Handheld, SharedI2C
from hardware.hardware_config import HandheldsConfig, HandheldWiring, load_hardware_config
from hardware.i2c_mock import MockI2CBus, MockMCP23008, MockSSD1306, MockTCA9548A, mock_bus
from hardware.mux import MuxedSerial

# luma.oled 3.16 still calls Image.getdata, which Pillow 13 deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

MASTER = load_edition("master_detective")
TEN = tuple(MASTER.deck.suspects[:10])
SETUP = {"stage": "setup", "seat": TEN[0], "ready": False, "hand": ["Rope", "Hall"], "problems": []}


def ten_units(poll_hz: int = 50, display: str = "luma") -> HandheldsConfig:
    """Seats 1-8 on TCA9548A 0x70 channels 0-7, seats 9 and 10 on 0x71 channels 0 and 1; buttons on GP0-GP3."""
    wirings = tuple(HandheldWiring(seat=n, up=0, down=1, ok=2, back=3, channel=(n - 1) % 8,
                                   mux_address=0x70 if n <= 8 else 0x71, button_source="expander")
                    for n in range(1, 11))
    return HandheldsConfig(display=display, seats=wirings, expander_poll_hz=poll_hz)


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def oled(bus: MockI2CBus, config: HandheldsConfig, seat: int) -> MockSSD1306:
    wiring = config.seats[seat - 1]
    device = bus.device(config.display_address, config.mux_for(wiring), wiring.channel)
    assert isinstance(device, MockSSD1306)
    return device


def expander(bus: MockI2CBus, config: HandheldsConfig, seat: int) -> MockMCP23008:
    wiring = config.seats[seat - 1]
    device = bus.device(wiring.expander_address, config.mux_for(wiring), wiring.channel)
    assert isinstance(device, MockMCP23008)
    return device


def until(test: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


# -- the expander, the multiplexers and the serial interface ---------------------------------------


def test_the_expander_turns_on_the_pull_ups_and_reads_a_pressed_button_as_low() -> None:
    bus = MockI2CBus()
    chip = bus.attach(MockMCP23008(), 0x21, mux=0x70, channel=4)
    assert isinstance(chip, MockMCP23008)
    shared = SharedI2C(1, open_bus=lambda port: bus)
    shared.acquire()
    mcp = MCP23008(shared, 0x70, 4, 0x21)
    mcp.setup(0b1011)
    assert chip.registers[GPPU] == 0b1011
    chip.drive_low(1)
    assert mcp.levels() & 0b1011 == 0b1001
    assert mcp.place() == "MCP23008 0x21 (TCA9548A 0x70 channel 4, I2C bus 1)"


def test_a_button_fires_pressed_then_held_then_released_like_gpiozero() -> None:
    button = ExpanderButton(pin=2, hold_time=0.5)
    fired: list[str] = []
    button.when_pressed, button.when_held = (lambda: fired.append("pressed")), (lambda: fired.append("held"))
    button.when_released = lambda: fired.append("released")
    for pressed, now in ((False, 0.0), (True, 1.0), (True, 1.2), (True, 1.6), (True, 2.5), (False, 3.0)):
        for callback in button.update(pressed, now):
            assert callback is not None
            callback()
    assert fired == ["pressed", "held", "released"]


def test_switching_to_the_second_multiplexer_turns_the_first_one_off() -> None:
    bus = MockI2CBus()
    for mux in (0x70, 0x71):
        bus.attach(MockTCA9548A(), mux)
    shared = SharedI2C(1, open_bus=lambda port: bus)
    shared.attach(0x70)
    shared.attach(0x71)
    shared.acquire()
    bus.control_writes.clear()
    for mux, channel in ((0x70, 2), (0x70, 2), (0x70, 5), (0x71, 0), (0x70, 5)):
        shared.run(mux, channel, lambda raw: None)
        assert bus.channels_on() == [(mux, channel)]
    assert bus.control_writes == [(0x71, 0), (0x70, 1 << 2), (0x70, 1 << 5), (0x70, 0), (0x71, 1 << 0),
                                  (0x71, 0), (0x70, 1 << 5)]


def test_a_failed_transfer_forgets_the_channel_so_the_next_one_selects_it_again() -> None:
    bus = MockI2CBus()
    bus.attach(MockMCP23008(), 0x20, mux=0x70, channel=3)
    shared = SharedI2C(1, open_bus=lambda port: bus)
    shared.acquire()
    mcp = MCP23008(shared, 0x70, 3, 0x20)
    mcp.levels()
    bus.unplug(0x70, 3)
    with pytest.raises(OSError):
        mcp.levels()
    bus.plug(0x70, 3)
    bus.mux(0x70).control = 0  # whatever the glitch did to the multiplexer
    bus.control_writes.clear()
    mcp.levels()
    assert bus.control_writes == [(0x70, 1 << 3)]


@pytest.mark.parametrize(("block", "transfers"), [(32, 32), (128, 8), (4096, 1)])
def test_a_full_frame_goes_in_blocks_of_the_configured_size(block: int, transfers: int) -> None:
    bus = MockI2CBus()
    panel = bus.attach(MockSSD1306(), 0x3C, mux=0x70, channel=0)
    shared = SharedI2C(1, open_bus=lambda port: bus)
    serial = MuxedSerial(shared, 0x70, 0, 0x3C, block=block)
    serial.data(list(range(256)) * 4)
    assert bus.transfers == 1 + transfers  # the channel, then the frame
    assert isinstance(panel, MockSSD1306) and panel.data_bytes == 1024 and panel.ram[:4] == bytes([0, 1, 2, 3])
    serial.cleanup()
    assert bus.closed


# -- ten seats -----------------------------------------------------------------------------------------


@pytest.fixture
def ten(tmp_path: Path) -> Iterator[MockTable]:
    config = replace(mock_config(), handhelds=ten_units())
    with Store(tmp_path / "games.db").open() as store, MockTable(store, config=config, display="luma") as table:
        yield table


def screen(rig: MockTable, seat: str) -> tuple[list[str], int]:
    lines = [line for line in rig.handhelds[seat].text().splitlines() if line.startswith(("> ", "  "))]
    return [line[2:] for line in lines], next((at for at, line in enumerate(lines) if line.startswith("> ")), 0)


def choose(rig: MockTable, seat: str, item: str) -> None:
    """Scroll to ``item`` and press ok, each press through the seat's expander."""
    until(lambda: item in screen(rig, seat)[0], f"{seat} to be offered {item!r}")
    items, cursor = screen(rig, seat)
    target = items.index(item)
    for _ in range(abs(target - cursor)):
        rig.press(seat, "down" if target > cursor else "up")
    assert screen(rig, seat)[0][screen(rig, seat)[1]] == item
    rig.press(seat, "ok")


def test_ten_seats_play_a_round_on_their_handhelds_through_two_multiplexers(ten: MockTable) -> None:
    assert ten.new_game("master_detective", TEN).ok
    bus, config = ten.i2c, ten.config.handhelds
    assert bus is not None and list(ten.handhelds) == list(TEN) and ten.problems == []
    choose(ten, TEN[9], "Start game")  # seat 10, behind the second multiplexer
    ten.wait_for(lambda view: view["stage"] == "playing")
    for _ in TEN:  # every seat rolls, walks to the first place offered and ends the turn
        seat = ten.view()["turn"]
        choose(ten, seat, "Roll dice")
        until(lambda seat=seat: "where to?" in ten.handhelds[seat].text(), f"{seat}'s move menu")
        ten.press(seat, "ok")  # the first destination
        ten.wait_for(lambda view: view["phase"] != "moving")
        choose(ten, seat, "End turn")
        ten.wait_for(lambda view, seat=seat: view["turn"] != seat)  # type: ignore[misc]
    record = ten.view()["record"]
    assert {entry["seat"] for entry in record if entry["type"] == "rolled"} == set(TEN)
    for number, seat in enumerate(TEN, start=1):  # each OLED shows its own seat's screen
        until(lambda number=number, seat=seat: same(oled(bus, config, number).image(), ten.handhelds[seat].image()),
              f"seat {number}'s OLED")
    assert bus.collisions == 0 and bus.most_channels_on == 1
    assert ten.handheld_problems() == []


# -- hot-plug ------------------------------------------------------------------------------------------


def _unit(bus: MockI2CBus, config: HandheldsConfig, seat: int, submitted: list[Command]) -> Handheld:
    shared = SharedI2C(1, open_bus=lambda port: bus)
    for mux in config.muxes():
        shared.attach(mux)
    return Handheld(TEN[seat - 1], config.seats[seat - 1], submitted.append, config=config, i2c=shared,
                    pin_factory=MockFactory())


def test_a_replugged_unit_is_switched_on_again_and_shows_the_current_screen(caplog: pytest.LogCaptureFixture) -> None:
    config = ten_units(poll_hz=0)
    bus = mock_bus(config)
    with _unit(bus, config, 9, []) as unit:  # seat 9: TCA9548A 0x71 channel 0
        unit.show(SETUP)
        assert same(oled(bus, config, 9).image(), unit.image())
        bus.unplug(0x71, 0)
        unit.show({**SETUP, "ready": True})  # the frame cannot be written
        assert unit.error is not None and unit.error.startswith("display: [Errno 121]")
        unit.check()  # the render thread's retry, still unplugged
        assert unit.error is not None
        bus.plug(0x71, 0)
        panel = oled(bus, config, 9)
        assert not panel.on and not same(panel.image(), unit.image())  # a replugged OLED wakes up dark
        unit.check()
        assert panel.on and same(panel.image(), unit.image())
        assert unit.text().startswith("[Ready to start]") and unit.error is None
        chip = expander(bus, config, 9)
        assert chip.registers[GPPU] == 0  # its pull-ups were lost with the power...
        unit.press("down")
        assert chip.registers[GPPU] == 0b1111  # ...and set again before the buttons are read
        assert "> Cards, QR" in unit.text()
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert warnings == ["Seat 9 (Monsieur Brunette): display stopped answering on I2C bus 1 (TCA9548A 0x71 channel 0, "
                        "address 0x3C): [Errno 121] Remote I/O error. Monsieur Brunette can play on the phone view.",
                        "Seat 9 (Monsieur Brunette): working again"]


def test_the_buttons_notice_an_unplug_between_frames_and_redraw_the_screen_on_replug() -> None:
    config = ten_units(poll_hz=0)
    bus = mock_bus(config)
    with _unit(bus, config, 3, []) as unit:
        unit.show(SETUP)
        poll = unit._expander.poll if unit._expander is not None else None
        assert poll is not None
        bus.unplug(0x70, 2)
        poll()
        assert unit.error is not None and unit.error.startswith("buttons: [Errno 121]")
        bus.plug(0x70, 2)
        poll()  # answers again: the OLED is re-initialised and redrawn at once
        assert unit.error is None
        assert oled(bus, config, 3).on and same(oled(bus, config, 3).image(), unit.image())


def test_a_unit_with_gpio_buttons_is_probed_while_quiet_and_recovers() -> None:
    config = replace(ten_units(poll_hz=0), seats=(HandheldWiring(seat=1, up=5, down=6, ok=13, channel=0),))
    bus = mock_bus(config)
    with _unit(bus, config, 1, []) as unit:
        unit.show(SETUP)
        bus.unplug(0x70, 0)
        unit.check()  # nothing to draw: the probe finds it gone
        assert unit.error is not None
        bus.plug(0x70, 0)
        unit.check()
        assert unit.error is None and same(oled(bus, config, 1).image(), unit.image())


def test_the_render_thread_brings_a_replugged_unit_back_by_itself() -> None:
    config = ten_units(poll_hz=50)
    bus = mock_bus(config)
    mailbox = Mailbox(TEN[4])
    with _unit(bus, config, 5, []) as unit:
        unit.start(mailbox)
        bus.unplug(0x70, 4)
        mailbox.put({**SETUP, "seat": TEN[4], "ready": True})
        until(lambda: unit.error is not None, "the unit to be reported failing")
        time.sleep(0.3)  # a few failed retries and polls
        bus.plug(0x70, 4)
        until(lambda: unit.error is None, "the unit to be reported working again")
        until(lambda: same(oled(bus, config, 5).image(), unit.image()), "the current screen on the OLED")
        assert unit.text().startswith("[Ready to start]")


def test_the_rig_reports_a_failing_unit_until_it_answers_again(ten: MockTable) -> None:
    ten.new_game("master_detective", TEN[:4])
    bus = ten.i2c
    assert bus is not None
    bus.unplug(0x70, 1)
    until(lambda: any(problem.startswith("Seat 2 (Colonel Mustard): not answering") for problem in
                      ten.handheld_problems()), "seat 2 to be reported")
    bus.plug(0x70, 1)
    until(lambda: ten.handheld_problems() == [], "seat 2 to work again")


def test_an_expander_that_does_not_answer_at_open_names_the_chip_and_channel() -> None:
    config = ten_units(poll_hz=0)
    bus = mock_bus(config)
    bus.unplug(0x70, 6)
    bus.attach(MockSSD1306(), 0x3C, mux=0x70, channel=6)  # the OLED is there, the expander is not
    unit = Handheld(TEN[6], config.seats[6], [].append, display="dummy", config=config,
                    i2c=SharedI2C(1, open_bus=lambda port: bus))
    with pytest.raises(OSError, match=r"^Seat 7 \(Sergeant Gray\): buttons failed on up GP0, down GP1, ok GP2, "
                       r"back GP3 on MCP23008 0x20 \(TCA9548A 0x70 channel 6, I2C bus 1\): \[Errno 121\]"):
        unit.open()


def test_the_commented_ten_seat_example_loads_as_these_tests_wire_it(tmp_path: Path) -> None:
    example = (Path(__file__).parents[2] / "hardware" / "clue-companion.example.toml").read_text()
    ten_seats = example[example.index("# Ten seats"):]
    lines = [line[2:] for line in ten_seats.splitlines()
             if re.match(r"# (\[\[|seat =|channel =|mux_address =|expander_address =)", line)]
    path = tmp_path / "ten.toml"
    path.write_text('[handhelds]\nbuttons = "expander"\n' + "\n".join(lines) + "\n")
    loaded, wired = load_hardware_config(path).handhelds, ten_units()
    assert [(loaded.mux_for(w), w.channel, w.expander_address, w.buttons()) for w in loaded.seats] == \
        [(wired.mux_for(w), w.channel, w.expander_address, w.buttons()) for w in wired.seats]
