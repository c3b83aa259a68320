"""A hang in the scan loop: the watchdog reboots the twin, the host link comes back, the game goes on.

The hang: the reader models stop completing SPI bytes on SPI0 (readers.mjs ``stall``), so the
firmware waits inside machine.SPI for a byte that never ends, mid-scan, and stops feeding the
watchdog. The twin's watchdog counts emulated time and reboots the chip (flash kept, the readers
and their tags untouched, as on a board whose Pico resets). Nothing may be lost: ``clue-companion
run`` must link up again to the same board, in the same game, with the tag still where it was.

The twin's config.py sets WDT_TIMEOUT_MS to 2 s instead of 8 s: the hang is a busy wait, which
the emulator runs at a third of real time or less, so 8 s would cost half a minute of real time
for the same path (measured: the 8 s watchdog rebooted 7.99 s of emulated time after the stall).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from companion.rules.edition import load_edition
from companion.table.tags import Piece
from companion.table.zones import ZoneMap
from table_run import Companion, differences
from twin import DEFAULT_UID, TWIN_HEARTBEAT_MS, Twin, firmware_with, require

ROPE = "04C0FFEE"
WDT_MS = 2000
TIMEOUT = 90.0  # real seconds for each wait


@pytest.fixture
def board() -> Iterator[Twin]:
    require()
    import wiring

    files = firmware_with(HEARTBEAT_MS=TWIN_HEARTBEAT_MS, WDT_TIMEOUT_MS=WDT_MS)
    with Twin(files=files, wiring=wiring.wiring(16)) as twin:
        yield twin


@pytest.fixture
def companion(board: Twin, tmp_path: Path) -> Iterator[Companion]:
    run = Companion(tmp_path, board.port, {"04:C0:FF:EE": Piece("weapon", "Rope")})
    try:
        yield run
    finally:
        run.stop()


def test_a_hang_in_the_scan_loop_reboots_the_board_and_the_game_goes_on(board: Twin, companion: Companion) -> None:
    view = companion.wait_view(lambda v: v["link"] == "up", timeout=TIMEOUT)
    reader = ZoneMap.default(load_edition("classic")).room_reader(view["weapons"]["Rope"])
    assert reader is not None and reader < 16
    board.readers({"cmd": "place", "uid": ROPE, "reader": reader})
    before = companion.wait_view(lambda v: v["link"] == "up" and not any("Rope" in d for d in differences(v)),
                                 timeout=TIMEOUT)
    links = len(companion.log("link_up"))

    board.readers({"cmd": "stall", "spi": 0})
    stalled_at = board.now_us()
    reboot = board.wait_event("boot", 2, timeout=TIMEOUT)
    board.readers({"cmd": "unstall", "spi": 0})
    assert reboot["reason"] == "watchdog"
    hung_us = reboot["us"] - stalled_at
    print(f"watchdog reboot {hung_us / 1e6:.2f} s of emulated time after the hang began")
    # The watchdog's timeout, neither sooner nor later: it ran out since the last feed, which came
    # within one pass of the scan loop of the stall (a pass of 16 readers is well under 0.5 s).
    assert abs(hung_us - WDT_MS * 1000) <= 500_000

    # The host link handshakes again with the same board, and the table sees what it saw before.
    after = companion.wait_view(lambda v: len(companion.log("link_up")) > links and v["link"] == "up"
                                and not any("Rope" in d for d in differences(v)), timeout=TIMEOUT)
    assert companion.log("link_up")[-1]["board_id"] == DEFAULT_UID.hex()
    assert any(entry["reason"] for entry in companion.log("link_down")[-1:])  # the host did notice the hang
    for key in ("game_id", "stage", "weapons", "position", "record", "turn"):
        assert after[key] == before[key], key
    assert differences(after) == differences(before)
    assert len(board.boots()) == 2  # one reboot, no loop
