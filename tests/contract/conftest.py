"""Both implementations of the board's side of the protocol, behind one fixture."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from virtual_core_board import VirtualCoreBoard

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))


@pytest.fixture(params=["virtual board", "firmware on MicroPython"])
def board(request: pytest.FixtureRequest) -> Iterator[object]:
    if request.param == "virtual board":
        made: object = VirtualCoreBoard(readers=4)
    else:
        from firmware_board import FirmwareBoard

        made = FirmwareBoard(readers=4)
    try:
        yield made
    finally:
        made.close()  # type: ignore[attr-defined]
