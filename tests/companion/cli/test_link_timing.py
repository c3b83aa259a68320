"""A real board gets the protocol's link timing; only the virtual board the fast one."""

from __future__ import annotations

from pathlib import Path

from companion.cli.mock_table import FAST_LINK, MockTable
from companion.table.store import Store
from hardware.hardware_config import HardwareConfig
from hardware.link_core import LinkTiming


def test_a_real_board_keeps_the_protocols_timing_and_the_virtual_board_the_fast_one(tmp_path: Path) -> None:
    with Store(tmp_path / "games.db").open() as store:
        real = MockTable(store, mock=False, config=HardwareConfig(board_port="/dev/ttyACM0"))
        virtual = MockTable(store)
        elsewhere = MockTable(store, mock=False, port="/dev/pts/9")  # a virtual board in another process
    assert real.link_timing == LinkTiming() and real.link_timing.timeout >= 3.0  # docs/protocol.md: 3 s
    assert virtual.link_timing == FAST_LINK and elsewhere.link_timing == FAST_LINK
