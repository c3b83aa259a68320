"""firmware/config.py: the pin plan and timing of docs/hardware.md and docs/protocol.md, as main.py wires them."""

from __future__ import annotations

import pytest
from fw_fixtures import mp  # noqa: F401 - pytest fixture
from mpy_runner import MicroPython, MicroPythonError

DIRECT_CS = [*range(16), 17, 20, 21, 26]


def test_the_constants(mp: MicroPython) -> None:
    got = mp.eval("{k: getattr(config, k) for k in ('SPI_SCK', 'SPI_MOSI', 'SPI_MISO', 'READER_RST', 'LED_PIN', "
                  "'BUZZER_PIN', 'STATUS_LED', 'HELLO_RETRY_MS', 'HEARTBEAT_MS', 'HOST_TIMEOUT_MS', 'MISSES', "
                  "'HEALTH_RETRY_MS', 'FIRMWARE', 'WDT_TIMEOUT_MS', 'CS_PINS', 'DECODER')}", "import config")
    assert got == {
        "SPI_SCK": 18, "SPI_MOSI": 19, "SPI_MISO": 16, "READER_RST": 22, "LED_PIN": 28, "BUZZER_PIN": 27,
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
    for spare in (17, 20, 21, 26):
        assert str(spare) not in lines  # the spare CS pins stay free with 16 readers
    assert lines["22"] == [1, 1]  # RST released after the shared reset
    assert mp.eval("[rig.pixels.n, rig.board.leds.count, rig.board.scanner.count]") == [16, 16, 16]
    assert mp.eval("machine.line(22).changes") == 3  # driven high, pulsed low, back high
    assert mp.eval("rig.board.scanner.working") == 0xFFFF


def test_twenty_readers_use_every_direct_cs_pin(mp: MicroPython) -> None:
    mp.run("import fw_rig, machine\nrig = fw_rig.Rig(20)")
    assert mp.eval("rig.board.scanner.working") == (1 << 20) - 1
    assert mp.eval("[machine.line(p).mode for p in config.CS_PINS]", "import config") == [1] * 20


def test_more_readers_than_cs_pins_need_the_decoder(mp: MicroPython) -> None:
    with pytest.raises(MicroPythonError, match="set DECODER in config.py"):
        mp.run("import chipselect, config\nchipselect.make_selects(21, config.CS_PINS, None)")
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
