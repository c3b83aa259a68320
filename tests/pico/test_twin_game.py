"""A game on the twin: the real firmware greets the real host link, and enrolled pieces reach /api/table.

``clue-companion run`` opens the twin's pty as the board's port ([board] port in its hardware
config); the twin's readers (readers.mjs, wired by wiring.py from the netlist) get two enrolled
weapon tokens. The board's HELLO must carry the flash chip's unique id to run's link_up log line,
and the table must see each token in the room of the reader it lies on. The twin's config.py
sends heartbeats every 150 ms of emulated time (twin.TWIN_HEARTBEAT_MS says why).
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

CANDLESTICK = "04A1B2C3"  # laid in the room the game starts it in
KNIFE = "04D4E5F6"  # laid first in another room, then moved to its own
ZONES = ZoneMap.default(load_edition("classic"))  # run's readers without a [zones] table (docs/hardware.md)
BOOT_TIMEOUT = 90.0  # real seconds: the twin runs at a third of real time or less on a busy machine


def colons(uid: str) -> str:
    return ":".join(uid[i:i + 2] for i in range(0, len(uid), 2))


@pytest.fixture(scope="module")
def board() -> Iterator[Twin]:
    require()
    import wiring

    with Twin(files=firmware_with(HEARTBEAT_MS=TWIN_HEARTBEAT_MS), wiring=wiring.wiring(16)) as twin:
        yield twin


@pytest.fixture
def companion(board: Twin, tmp_path: Path) -> Iterator[Companion]:
    run = Companion(tmp_path, board.port, {colons(CANDLESTICK): Piece("weapon", "Candlestick"),
                                           colons(KNIFE): Piece("weapon", "Knife")})
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
