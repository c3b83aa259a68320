"""A game on the twin: the real firmware greets the real host link, enrolled pieces reach /api/table, and a hang
in the scan loop reboots the board while the game goes on.

``clue-companion run`` opens the twin's pty as the board's port ([board] port in its hardware
config); the twin's readers (readers.mjs, wired by wiring.py from the netlist) get three enrolled
weapon tokens. One twin and one ``run`` serve both tests, in order (the hang, which reboots the
board, comes last). The twin's config.py sends heartbeats every 150 ms of emulated time
(twin.TWIN_HEARTBEAT_MS says why).

First the board's HELLO must carry the flash chip's unique id to run's link_up log line, and the
table must see each token in the room of the reader it lies on.

Then the hang: the reader models stop completing SPI bytes on SPI0 (readers.mjs ``stall``), so the
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

import pytest
from table_run import Companion, differences
from twin import DEFAULT_UID, TWIN_HEARTBEAT_MS, Twin, firmware_with, require

from companion.rules.edition import load_edition
from companion.table.tags import Piece
from companion.table.zones import ZoneMap

CANDLESTICK = "04A1B2C3"  # laid in the room the game starts it in
KNIFE = "04D4E5F6"  # laid first in another room, then moved to its own
ROPE = "04C0FFEE"  # laid where it belongs, then the scan loop hangs
ZONES = ZoneMap.default(load_edition("classic"))  # run's readers without a [zones] table (docs/hardware.md)
BOOT_TIMEOUT = 90.0  # real seconds: the twin runs at a third of real time or less on a busy machine
TIMEOUT = 90.0  # real seconds for each wait
WDT_MS = 2000


def colons(uid: str) -> str:
    return ":".join(uid[i:i + 2] for i in range(0, len(uid), 2))


@pytest.fixture(scope="module")
def board() -> Iterator[Twin]:
    require()
    import wiring

    files = firmware_with(HEARTBEAT_MS=TWIN_HEARTBEAT_MS, WDT_TIMEOUT_MS=WDT_MS)
    with Twin(files=files, wiring=wiring.wiring(16)) as twin:
        yield twin


@pytest.fixture(scope="module")
def companion(board: Twin, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Companion]:
    run = Companion(tmp_path_factory.mktemp("run"), board.port,
                    {colons(uid): Piece("weapon", name) for uid, name in
                     ((CANDLESTICK, "Candlestick"), (KNIFE, "Knife"), (ROPE, "Rope"))})
    try:
        yield run
    finally:
        run.stop()


def room_reader(room: str) -> int:
    reader = ZONES.room_reader(room)
    assert reader is not None and reader < 16, (room, reader)
    return reader


def test_run_links_to_the_firmware_and_sees_the_enrolled_pieces(board: Twin, companion: Companion) -> None:
    view = companion.wait_view(lambda v: v["link"] == "up", timeout=BOOT_TIMEOUT)
    # The link came up through the firmware's HELLO: the twin's unique id, its version, 16 working readers.
    up = companion.log("link_up")[-1]
    assert up["board_id"] == DEFAULT_UID.hex() and up["firmware"] == "1.1.0" and up["readers"] == 16
    assert up["working"] == list(range(16))
    candlestick_room, knife_room = view["weapons"]["Candlestick"], view["weapons"]["Knife"]
    elsewhere = next(room for room in ("Kitchen", "Study", "Hall") if room not in (knife_room, candlestick_room))
    board.readers({"cmd": "place", "uid": CANDLESTICK, "reader": room_reader(candlestick_room)})
    board.readers({"cmd": "place", "uid": KNIFE, "reader": room_reader(elsewhere)})

    def knife_astray(v: dict[str, object]) -> bool:
        said = differences(v)
        return not any("Candlestick" in d for d in said) and any("Knife" in d and elsewhere in d for d in said)

    view = companion.wait_view(knife_astray, timeout=BOOT_TIMEOUT)
    assert any("Lead Pipe" in d for d in differences(view))  # not enrolled, so not on the board
    # Moving the Knife to its room on the board puts it right at the table.
    board.readers({"cmd": "remove", "uid": KNIFE})
    board.readers({"cmd": "place", "uid": KNIFE, "reader": room_reader(knife_room)})
    companion.wait_view(lambda v: not any("Knife" in d for d in differences(v)), timeout=BOOT_TIMEOUT)


def test_a_hang_in_the_scan_loop_reboots_the_board_and_the_game_goes_on(board: Twin, companion: Companion) -> None:
    view = companion.wait_view(lambda v: v["link"] == "up", timeout=TIMEOUT)
    board.readers({"cmd": "place", "uid": ROPE, "reader": room_reader(view["weapons"]["Rope"])})
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
