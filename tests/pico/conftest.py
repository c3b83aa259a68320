"""The board twin's tests: skipped when the MicroPython image is not built, failed instead with CLUE_PICO_REQUIRED=1.

``make test`` runs them when ``tools/build-pico-image.sh`` has built the image
(into ``$CLUE_PICO_CACHE``, else ~/.cache/clue-companion/pico), and the summary
(the root conftest.py) says how many were skipped and the one command that builds it; ``make
test-pico`` sets CLUE_PICO_REQUIRED=1, so a missing image fails there.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# tests/pico is a package (a second top-level ``conftest`` clashes with tests/contract's under
# --doctest-modules); its modules import each other by their plain names, as the other test folders do.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from twin import Twin, require  # noqa: E402


@pytest.fixture
def twin_ready() -> None:
    """For a test that starts its own twin: skipped (or failed) as :func:`twin.require` says."""
    require()


@pytest.fixture(scope="module")
def booted() -> Iterator[Twin]:
    """One twin per test module running firmware/*.py, no readers wired; stopped at the module's end."""
    require()
    with Twin() as board:
        yield board


def _is_twin_test(nodeid: str) -> bool:
    return nodeid.replace("\\", "/").split("::")[0].startswith("tests/pico/")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that boots a twin is slow (left out of make check), whoever wrote it."""
    for item in items:
        if _is_twin_test(item.nodeid) and item.nodeid.split("::")[0].rsplit("/", 1)[-1].startswith("test_twin_"):
            item.add_marker(pytest.mark.slow)
