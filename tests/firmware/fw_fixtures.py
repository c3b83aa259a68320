"""Fixtures shared by the firmware tests (import them into a test file: ``from fw_fixtures import mp``).

Not a conftest.py: with ``--doctest-modules`` a second rootless conftest.py
clashes with tests/contract/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from firmware_board import FirmwareBoard
from mpy_runner import MicroPython


@pytest.fixture(scope="module")
def mp() -> Iterator[MicroPython]:
    """One interpreter per test file; each test builds its own fresh rig or bench on it."""
    with MicroPython() as interpreter:
        yield interpreter


@pytest.fixture
def board(mp: MicroPython) -> Iterator[FirmwareBoard]:
    """A freshly reset 4-reader board on the file's interpreter."""
    made = FirmwareBoard(readers=4, mp=mp)
    try:
        yield made
    finally:
        made.close()
