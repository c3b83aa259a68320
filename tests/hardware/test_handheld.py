"""The handheld device on mock hardware: gpiozero's MockFactory, luma's dummy and capture displays."""

from __future__ import annotations

import errno
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
from handheld_views import session_view
from PIL import Image, ImageChops

from companion import Move, Roll, Setup, apply, new_game
from companion.table.commands import Command, Play, StartGame
from companion.table.fanout import Mailbox
from companion.table.prompts import Menu, screen_for
from hardware.handheld import DISPLAY_ENV, Handheld, HandheldError, SharedI2C, open_handhelds
from hardware.hardware_config import (HandheldsConfig, HandheldWiring, HardwareConfig, HardwareConfigError,
                                      load_hardware_config)
from hardware.screens import render_image

EXAMPLE = Path(__file__).parents[2] / "hardware" / "clue-companion.example.toml"
SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
WIRING = HandheldWiring(seat=1, up=5, down=6, ok=13, back=19, channel=0)


def _unit(submitted: list[Command], **options: Any) -> Handheld:
    options.setdefault("display", "dummy")
    options.setdefault("pin_factory", MockFactory())
    return Handheld(SEATS[0], options.pop("wiring", WIRING), submitted.append, **options)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


# -- buttons and frames --------------------------------------------------------------------------


def test_scarlet_presses_ok_to_roll_and_the_command_reaches_the_session() -> None:
    submitted: list[Command] = []
    state, _ = new_game(Setup("classic", SEATS, seed=7))
    with _unit(submitted) as unit:
        unit.show(session_view(state, SEATS[0]))
        assert unit.text().startswith("[Your turn]")
        unit.press("ok")
    assert submitted == [Play(SEATS[0], Roll(SEATS[0]))]


def test_a_real_button_edge_drives_the_menu() -> None:
    submitted: list[Command] = []
    factory = MockFactory()
    state, _ = new_game(Setup("classic", SEATS, seed=7))
    state, _ = apply(state, Roll(SEATS[0], (6,)))
    with _unit(submitted, pin_factory=factory) as unit:
        unit.show(session_view(state, SEATS[0]))
        before = unit.image()
        factory.pin(6).drive_low()  # down: the gpiozero when_pressed path, as on a Pi
        factory.pin(6).drive_high()
        assert not _same(before, unit.image())
        assert "> h19" in unit.text()
        factory.pin(13).drive_low()
        factory.pin(13).drive_high()
    assert submitted == [Play(SEATS[0], Move(SEATS[0], "h19"))]


def test_each_frame_is_the_rendered_screen_on_the_device() -> None:
    state, _ = new_game(Setup("classic", SEATS, seed=7))
    view = session_view(state, SEATS[1])
    with _unit([]) as unit:
        unit.show(view)
        expected = render_image(screen_for(view, Menu()))
        assert _same(unit.image(), expected)
        assert _same(unit._device.image, expected)  # what luma's dummy device was given
        unit.press("down")
        assert unit.text().startswith("[Your cards (6)]")
        assert not _same(unit.image(), expected)


def test_a_unit_without_a_back_button_still_takes_back_from_the_console() -> None:
    view = {"stage": "setup", "seat": SEATS[0], "ready": False, "hand": ["Rope"], "problems": []}
    wiring = HandheldWiring(seat=1, up=5, down=6, ok=13)
    with _unit([], wiring=wiring) as unit:
        unit.show(view)
        unit.press("down")
        assert unit.text().startswith("[Your cards (1)]")
        unit.press("back")
        assert unit.text().startswith("[Setting up]")


def test_pressing_an_unknown_button_is_refused() -> None:
    with _unit([]) as unit, pytest.raises(ValueError, match="'left'"):
        unit.press("left")


def test_the_render_thread_shows_each_new_view_until_closed() -> None:
    mailbox = Mailbox(SEATS[0])
    unit = _unit([])
    unit.open()
    unit.start(mailbox)
    mailbox.put({"stage": "setup", "seat": SEATS[0], "ready": True, "hand": [], "problems": []})
    deadline = time.monotonic() + 5
    while not unit.text().startswith("[Ready to start]") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert unit.text().startswith("[Ready to start]")
    unit.close()
    assert mailbox.closed
    assert unit._thread is None


def test_submit_runs_outside_the_lock_so_it_may_show_a_view_at_once() -> None:
    seen: list[str] = []

    def submit(command: Command) -> None:
        unit.show({"stage": "idle", "seat": SEATS[0]})  # would deadlock if called under a plain lock elsewhere
        seen.append(type(command).__name__)

    unit = Handheld(SEATS[0], WIRING, submit, display="dummy", pin_factory=MockFactory())
    with unit:
        unit.show({"stage": "setup", "seat": SEATS[0], "ready": True, "hand": [], "problems": []})
        unit.press("ok")
    assert seen == ["StartGame"]


def test_capture_writes_each_frame_as_a_png(tmp_path: Path) -> None:
    config = HandheldsConfig(display="capture", capture_dir=str(tmp_path / "frames"))
    view = {"stage": "setup", "seat": SEATS[0], "ready": True, "hand": [], "problems": []}
    with Handheld(SEATS[0], WIRING, [].append, pin_factory=MockFactory(), config=config) as unit:
        unit.show(view)
        frame = unit.image()
    files = sorted((tmp_path / "frames").glob("seat1-*.png"))
    assert len(files) >= 2  # the opening frame, then the view
    written = Image.open(files[-1])
    assert written.size == (512, 256)
    assert _same(written.convert("1").resize((128, 64), Image.NEAREST), frame)


# -- choosing the display and the pins -------------------------------------------------------------


def test_the_display_argument_beats_the_config_which_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DISPLAY_ENV, "capture")
    config = HandheldsConfig(display="dummy")
    with Handheld(SEATS[0], WIRING, [].append, pin_factory=MockFactory(), config=config) as unit:
        assert type(unit._device).__name__ == "dummy"
    made: list[str] = []

    def factory(wiring: HandheldWiring, handhelds: HandheldsConfig) -> Any:
        made.append(f"seat {wiring.seat}")
        from luma.core.device import dummy

        return dummy(mode="1")

    with Handheld(SEATS[0], WIRING, [].append, display=factory, pin_factory=MockFactory(), config=config):
        assert made == ["seat 1"]


def test_the_environment_chooses_the_display_when_nothing_else_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DISPLAY_ENV, "dummy")
    with Handheld(SEATS[0], WIRING, [].append, pin_factory=MockFactory()) as unit:
        assert type(unit._device).__name__ == "dummy"
    monkeypatch.setenv(DISPLAY_ENV, "hologram")
    with pytest.raises(HandheldError, match="unknown display 'hologram'"):
        Handheld(SEATS[0], WIRING, [].append, pin_factory=MockFactory()).open()


def test_the_config_names_the_pin_factory() -> None:
    config = HandheldsConfig(display="dummy", pin_factory="mock")
    with Handheld(SEATS[0], WIRING, [].append, config=config) as unit:
        factory = unit._buttons["ok"].pin_factory
        assert isinstance(factory, MockFactory)
        unit.press("down")  # drives that factory's pin
    assert unit._own_factory is None  # closed with the unit


def test_the_constructor_opens_nothing() -> None:
    factory = MockFactory()
    Handheld(SEATS[0], WIRING, [].append, display="dummy", pin_factory=factory)
    Button(5, pin_factory=factory).close()  # the pin is still free


def test_close_releases_every_pin() -> None:
    factory = MockFactory()
    with _unit([], pin_factory=factory):
        pass
    for pin in (5, 6, 13, 19):
        Button(pin, pin_factory=factory).close()


# -- failures: the seat plays on the phone ---------------------------------------------------------


def test_a_missing_i2c_bus_names_the_seat_and_the_bus() -> None:
    config = HandheldsConfig(display="luma", i2c_port=99)
    unit = Handheld("Colonel Mustard", HandheldWiring(seat=2, up=5, down=6, ok=13, channel=1), [].append,
                    pin_factory=MockFactory(), config=config)
    with pytest.raises(HandheldError) as failure:
        unit.open()
    message = str(failure.value)
    assert message.startswith("Seat 2 (Colonel Mustard): display not found on I2C bus 99 "
                              "(TCA9548A 0x70 channel 1, address 0x3C): ")
    assert message.endswith("Colonel Mustard can play on the phone view.")
    assert failure.value.code == "handheld" and isinstance(failure.value, OSError)


class FakeBus:
    """An smbus2 stand-in: records writes; a missing multiplexer answers Remote I/O error."""

    def __init__(self, writes: list[tuple[Any, ...]], mux_answers: bool = True) -> None:
        self.writes, self.mux_answers = writes, mux_answers

    def write_byte(self, address: int, value: int) -> None:
        if not self.mux_answers:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes.append(("mux", address, value))

    def write_i2c_block_data(self, address: int, mode: int, data: list[int]) -> None:
        self.writes.append(("oled", address, mode))

    def i2c_rdwr(self, *messages: Any) -> None:
        for message in messages:
            self.writes.append(("oled", message.addr, bytes(message)[0]))

    def close(self) -> None:
        self.writes.append(("closed",))


def test_a_missing_multiplexer_is_reported_with_its_errno() -> None:
    shared = SharedI2C(1, open_bus=lambda port: FakeBus([], mux_answers=False))
    unit = Handheld("Colonel Mustard", HandheldWiring(seat=2, up=5, down=6, ok=13, channel=1), [].append,
                    pin_factory=MockFactory(), config=HandheldsConfig(display="luma"), i2c=shared)
    with pytest.raises(HandheldError, match=r"^Seat 2 \(Colonel Mustard\): display not found on I2C bus 1 "
                       r"\(TCA9548A 0x70 channel 1, address 0x3C\): \[Errno 121\] Remote I/O error\. "
                       r"Colonel Mustard can play on the phone view\.$"):
        unit.open()


# luma.oled 3.16 still calls Image.getdata, which Pillow 13 deprecates.
@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
def test_units_behind_one_multiplexer_select_their_channel_before_writing() -> None:
    writes: list[tuple[Any, ...]] = []
    shared = SharedI2C(1, open_bus=lambda port: FakeBus(writes))
    config = HandheldsConfig(display="luma", driver="sh1106")
    first = Handheld(SEATS[0], HandheldWiring(seat=1, up=5, down=6, ok=13, channel=2), [].append,
                     pin_factory=MockFactory(), config=config, i2c=shared)
    second = Handheld(SEATS[1], HandheldWiring(seat=2, up=12, down=16, ok=20, channel=5), [].append,
                      pin_factory=MockFactory(), config=config, i2c=shared)
    with first, second:
        writes.clear()
        for unit, number in ((first, 1), (second, 2), (first, 3)):  # each a new screen: an unchanged one is not redrawn
            unit.show({"stage": "idle", "seat": unit.seat, "notice": {"text": f"note {number}", "code": None, "id": number}})
        switches = [write for write in writes if write[0] == "mux"]
        assert switches == [("mux", 0x70, 1 << 2), ("mux", 0x70, 1 << 5), ("mux", 0x70, 1 << 2)]
        assert writes[0][0] == "mux" and all(write[1] == 0x3C for write in writes if write[0] == "oled")
    assert writes[-1] == ("closed",)  # the bus closes with its last unit


@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
def test_an_unchanged_screen_is_not_sent_to_the_display_again() -> None:
    writes: list[tuple[Any, ...]] = []
    shared = SharedI2C(1, open_bus=lambda port: FakeBus(writes))
    config = HandheldsConfig(display="luma", driver="sh1106")
    with Handheld(SEATS[0], HandheldWiring(seat=1, up=5, down=6, ok=13, channel=2), [].append,
                  pin_factory=MockFactory(), config=config, i2c=shared) as unit:
        unit.show({"stage": "idle", "seat": SEATS[0]})
        writes.clear()
        unit.show({"stage": "idle", "seat": SEATS[0]})
        assert writes == []
        unit.show({"stage": "idle", "seat": SEATS[0], "notice": {"text": "hello", "code": None, "id": 1}})
        assert any(write[0] == "oled" for write in writes)


def test_buttons_that_fail_close_the_display_that_opened() -> None:
    cleaned: list[str] = []

    class Display:
        mode = "1"

        def display(self, image: Image.Image) -> None:
            pass

        def cleanup(self) -> None:
            cleaned.append("display")

    factory = MockFactory()
    taken = Button(13, pin_factory=factory)  # ok's pin is already in use
    unit = Handheld(SEATS[0], WIRING, [].append, display=lambda wiring, config: Display(), pin_factory=factory)
    with pytest.raises(HandheldError, match=r"^Seat 1 \(Miss Scarlet\): buttons failed on up GPIO 5, down GPIO 6, "
                       r"ok GPIO 13, back GPIO 19 \(pin factory MockFactory\): .*GPIO13.*phone view\.$"):
        unit.open()
    assert cleaned == ["display"]
    taken.close()
    for pin in (5, 6, 19):
        Button(pin, pin_factory=factory).close()  # the buttons opened before the failure were closed


def test_open_handhelds_skips_a_failing_unit_and_says_why() -> None:
    handhelds = HandheldsConfig(display="dummy", seats=(
        HandheldWiring(seat=1, up=5, down=6, ok=13, channel=0),
        HandheldWiring(seat=2, up=12, down=16, ok=20, channel=1),
        HandheldWiring(seat=3, up=17, down=27, ok=22, channel=2),
        HandheldWiring(seat=5, up=23, down=24, ok=25, channel=4),  # nobody in seat 5 tonight
    ))

    def display(wiring: HandheldWiring, config: HandheldsConfig) -> Any:
        if wiring.seat == 2:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        from luma.core.device import dummy

        return dummy(mode="1")

    submitted: list[Command] = []
    units, problems = open_handhelds(HardwareConfig(handhelds=handhelds), SEATS, submitted.append,
                                     display=display, pin_factory=MockFactory())
    try:
        assert [unit.seat for unit in units] == ["Miss Scarlet", "Mrs. White"]
        assert problems == ["Seat 2 (Colonel Mustard): display not found on the given display: [Errno 121] "
                            "Remote I/O error. Colonel Mustard can play on the phone view."]
        units[1].show({"stage": "setup", "seat": "Mrs. White", "ready": True, "hand": [], "problems": []})
        units[1].press("ok")
        assert submitted == [StartGame("Mrs. White")]
    finally:
        for unit in units:
            unit.close()


# -- the config file -----------------------------------------------------------------------------------


def test_the_example_config_loads() -> None:
    config = load_hardware_config(EXAMPLE)
    assert config.web_port == 8000 and config.zones[0] == "room:Kitchen" and config.zones[9] == "centre"
    assert [wiring.seat for wiring in config.handhelds.seats] == [1, 2, 3, 4]
    assert config.handhelds.seats[0].buttons() == {"up": 5, "down": 6, "ok": 13, "back": 19}
    assert (config.handhelds.mux_address, config.handhelds.display_address) == (0x70, 0x3C)


def test_no_file_means_the_defaults() -> None:
    assert load_hardware_config(None) == HardwareConfig()


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(HardwareConfigError, match="nowhere.toml: no such hardware config file"):
        load_hardware_config(tmp_path / "nowhere.toml")


@pytest.mark.parametrize(("text", "message"), [
    ("[web]\nport = 0", "web.port must be a whole number from 1 to 65535, not 0"),
    ("[web]\nport = true", "web.port must be a whole number from 1 to 65535, not True"),
    ("[handhelds]\ndriver = 'ssd1351'", "handhelds.driver must be one of ssd1306, sh1106, not 'ssd1351'"),
    ("[handhelds]\nmux_address = 0x20", "handhelds.mux_address must be a whole number from 112 to 119, not 32"),
    ("[handhelds]\ncolour = 'blue'", "unknown key handhelds.colour"),
    ("[board]\nport = 3", "board.port must be a serial port path or URL, not 3"),
    ("[zones]\n0 = 'attic:Kitchen'", "zones.0 must be a zone such as"),
    ("[zones]\nkitchen = 'room:Kitchen'", "zones.kitchen must be keyed by a reader number"),
    ("[lights]\non = true", "unknown table lights"),
    ("[[handhelds.seat]]\nseat = 1\nup = 5\ndown = 6", "handhelds.seat[0].ok is missing; expected a BCM GPIO number"),
    ("[[handhelds.seat]]\nseat = 1\nup = 5\ndown = 6\nok = 40", "handhelds.seat[0].ok must be a whole number from 0 "
     "to 27, not 40"),
    ("[[handhelds.seat]]\nseat = 1\nup = 2\ndown = 6\nok = 13", "handhelds.seat[0].up must be a GPIO the I2C bus "
     "does not use"),
    ("[[handhelds.seat]]\nseat = 1\nchannel = 0\nup = 5\ndown = 6\nok = 13\n"
     "[[handhelds.seat]]\nseat = 2\nchannel = 0\nup = 12\ndown = 16\nok = 20",
     "handhelds.seat[1].channel = 0 (TCA9548A 0x70) is already used by handhelds.seat[0].channel"),
    ("[[handhelds.seat]]\nseat = 1\nchannel = 0\nup = 5\ndown = 6\nok = 13\n"
     "[[handhelds.seat]]\nseat = 2\nchannel = 0\nmux_address = 0x70\nbuttons = 'expander'",
     "handhelds.seat[1].channel = 0 (TCA9548A 0x70) is already used by handhelds.seat[0].channel"),
    ("[[handhelds.seat]]\nseat = 1\nchannel = 0\nbuttons = 'expander'\nok = 1",
     "handhelds.seat[0].ok = 1 is already used by handhelds.seat[0].down (expander pins GP0-GP7)"),
    ("[[handhelds.seat]]\nseat = 1\nchannel = 0\nbuttons = 'expander'\nup = 8",
     "handhelds.seat[0].up must be a whole number from 0 to 7, not 8"),
    ("[[handhelds.seat]]\nseat = 1\nchannel = 0\nbuttons = 'keypad'", "handhelds.seat[0].buttons must be one of "
     "gpio, expander, not 'keypad'"),
    ("[[handhelds.seat]]\nseat = 1\nbuttons = 'expander'\nexpander_address = 0x40",
     "handhelds.seat[0].expander_address must be a whole number from 32 to 39, not 64"),
    ("[[handhelds.seat]]\nseat = 1\nbuttons = 'expander'\nmux_address = 0x71",
     "handhelds.seat[0].mux_address needs handhelds.seat[0].channel"),
    ("[handhelds]\nbuttons = 'expander'\n[[handhelds.seat]]\nseat = 1\nchannel = 0\n[[handhelds.seat]]\nseat = 2",
     "handhelds.seat[1].channel is missing; with multiplexers in use every I2C unit needs its own channel"),
    ("[handhelds]\nexpander_poll_hz = 1", "handhelds.expander_poll_hz must be a whole number from 10 to 200, not 1"),
    ("[handhelds]\ni2c_block = 9000", "handhelds.i2c_block must be a whole number from 32 to 8191, not 9000"),
    ("[[handhelds.seat]]\nseat = 1\nchannel = 0\nup = 5\ndown = 6\nok = 13\n"
     "[[handhelds.seat]]\nseat = 2\nchannel = 1\nup = 12\ndown = 5\nok = 20",
     "handhelds.seat[1].down = 5 is already used by handhelds.seat[0].up"),
    ("[handhelds]\nbus = 'spi'\n[[handhelds.seat]]\nseat = 1\nup = 5\ndown = 6\nok = 13",
     "handhelds.seat[0].dc is missing"),
    ("[web\nport = 1", "not valid TOML"),
])
def test_bad_values_name_the_file_the_key_and_what_was_expected(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "hardware.toml"
    path.write_text(text)
    with pytest.raises(HardwareConfigError) as failure:
        load_hardware_config(path)
    assert str(failure.value).startswith(f"{path}: ")
    assert message in str(failure.value)
    assert failure.value.code == "bad_hardware_config" and isinstance(failure.value, ValueError)


def test_an_spi_unit_is_described_by_its_device_and_pins() -> None:
    path_config = HandheldsConfig(display="luma", bus="spi")
    unit = Handheld(SEATS[0], HandheldWiring(seat=1, up=5, down=6, ok=13, spi_device=1, dc=24, rst=25), [].append,
                    config=path_config)
    assert unit.display_place() == "SPI bus 0 (/dev/spidev0.1, DC GPIO 24, RST GPIO 25)"
