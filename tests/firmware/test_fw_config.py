"""firmware/config.py: the pin plan and timing of docs/hardware.md and docs/protocol.md, as main.py wires them."""

from __future__ import annotations

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython, MicroPythonError

DIRECT_CS = [*range(16), 17]


def test_the_constants(mp: MicroPython) -> None:
    got = mp.eval("{k: getattr(config, k) for k in ('SPI_SCK', 'SPI_MOSI', 'SPI_MISO', 'READER_RST', 'LED_PIN', "
                  "'BUZZER_PIN', 'STATUS_LED', 'HELLO_RETRY_MS', 'HEARTBEAT_MS', 'HOST_TIMEOUT_MS', 'MISSES', "
                  "'HEALTH_RETRY_MS', 'FIRMWARE', 'WDT_TIMEOUT_MS', 'CS_PINS', 'DECODER')}", "import config")
    assert got == {
        "SPI_SCK": 18, "SPI_MOSI": 19, "SPI_MISO": 16, "READER_RST": 22, "LED_PIN": 20, "BUZZER_PIN": 21,
        "STATUS_LED": "LED", "HELLO_RETRY_MS": 1000, "HEARTBEAT_MS": 1000, "HOST_TIMEOUT_MS": 3000, "MISSES": 3,
        "HEALTH_RETRY_MS": 2000, "FIRMWARE": [1, 1, 0], "WDT_TIMEOUT_MS": 8000,
        "CS_PINS": DIRECT_CS, "DECODER": None,
    }


def test_the_default_board_has_the_sixteen_classic_readers(mp: MicroPython) -> None:
    names = mp.eval("list(config.READERS)", "import config")
    assert names[:9] == ["Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library", "Lounge",
                         "Hall", "Study"]
    assert names[9] == "centre" and names[10:] == [f"seat {n}" for n in range(1, 7)]


def test_main_builds_the_default_board_on_the_planned_pins(mp: MicroPython) -> None:
    mp.run("import fw_rig, machine\nrig = fw_rig.Rig(16)")
    lines = mp.eval("{str(k): [v.mode, v.value] for k, v in machine._pins.items()}")
    for gpio in range(16):
        assert lines[str(gpio)] == [1, 1], gpio  # an output, idle high: no reader selected
    assert "17" not in lines  # the spare CS pin stays free with 16 readers
    assert lines["22"] == [1, 1]  # RST released after the shared reset
    assert mp.eval("[rig.pixels.n, rig.board.leds.count, rig.board.scanner.count]") == [16, 16, 16]
    assert mp.eval("machine.line(22).changes") == 3  # driven high, pulsed low, back high
    assert mp.eval("rig.board.scanner.working") == 0xFFFF
    # The LED chain and the buzzer are on the pins the circuit wires (pins.py: GP20, GP21).
    assert mp.eval("[rig.pixels.pin._line.ident, rig.buzzer.pin._line.ident]") == [20, 21]


def test_the_seat_pads_talk_over_spi1_and_the_rooms_over_spi0(mp: MicroPython) -> None:
    mp.run("import fw_rig, machine\nrig = fw_rig.Rig(16)\nrig.advance(200)")
    assert mp.eval("[machine.buses[0].pins, machine.buses[1].pins]") == [[18, 19, 16], [26, 27, 28]]
    on_bus = mp.eval("[[rig.chips.index(d) for d in machine.buses[n].devices] for n in (0, 1)]")
    assert sorted(on_bus[0]) == list(range(10)) and sorted(on_bus[1]) == list(range(10, 16))


def test_without_seat_pads_on_spi1_every_reader_is_on_spi0_and_spi1_stays_free(mp: MicroPython) -> None:
    mp.run("import config, fw_rig, machine\nconfig.SPI1_READERS = ()\n"
           "try:\n    rig = fw_rig.Rig(16)\n    rig.advance(200)\nfinally:\n    config.SPI1_READERS = (10, 11, 12, 13, 14, 15)")
    assert mp.eval("sorted(machine.buses)") == [0]
    assert mp.eval("sorted(rig.chips.index(d) for d in machine.buses[0].devices)") == list(range(16))
    assert mp.eval("[str(p) in [str(k) for k in machine._pins] for p in (26, 27, 28)]") == [False] * 3


def test_seventeen_readers_use_every_direct_cs_pin(mp: MicroPython) -> None:
    mp.run("import fw_rig, machine\nrig = fw_rig.Rig(17)")
    assert mp.eval("rig.board.scanner.working") == (1 << 17) - 1
    assert mp.eval("[machine.line(p).mode for p in config.CS_PINS]", "import config") == [1] * 17


def test_more_readers_than_cs_pins_need_the_decoder(mp: MicroPython) -> None:
    with pytest.raises(MicroPythonError, match="set DECODER in config.py"):
        mp.run("import chipselect, config\nchipselect.make_selects(18, config.CS_PINS, None)")
    with pytest.raises(MicroPythonError, match="more readers than decoder outputs"):
        mp.run("chipselect.make_selects(33, config.CS_PINS, ((0, 1, 2, 3), (4, 5)))")


def test_the_reader_settings_of_issue_20(mp: MicroPython) -> None:
    got = mp.eval("[config.SPI_BAUDRATE, config.ANTENNA_SETTLE_US, config.FIELD_RESET_US, config.MAX_CARDS, "
                  "config.RX_GAIN, config.TX_GS_N, config.TX_CW_GS_P]", "import config")
    # 1 MHz SPI; 5.1 ms of field before a request and 5 ms off for a reset (ISO 14443-3, NXP);
    # room for 12 pieces and spares; RxGain 33 dB; transmitter conductance at its most.
    assert got == [1_000_000, 5100, 5100, 16, 0x40, 0xF8, 0x3F]


def test_the_driver_defaults_are_the_configured_values(mp: MicroPython) -> None:
    # main.py passes settle, gain and capacity; the transmitter and reset values come from the
    # driver's defaults, which must stay those of config.py.
    mp.run("import config, fw_bench, mfrc522, chipselect\nbench = fw_bench.Bench(1)\n"
           "reader = mfrc522.MFRC522(bench.spi, chipselect.DirectSelect(0))")
    driver = mp.eval("[reader._settle_us, reader._gain, reader.max_cards, reader._gs_n, reader._cw_gs_p, "
                     "reader._reset_us]")
    assert driver == mp.eval("[config.ANTENNA_SETTLE_US, config.RX_GAIN, config.MAX_CARDS, config.TX_GS_N, "
                             "config.TX_CW_GS_P, config.FIELD_RESET_US]")
