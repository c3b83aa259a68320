"""No German page shows "[object …]", "undefined", "NaN" or "null" in any state of a game (page_texts.py walks it).

A file of its own beside test_page_texts.py (the English pages), so a second pytest process takes it.
"""

from __future__ import annotations

from typing import Any

from page_texts import SCARLET, assert_no_leftovers, served, walk  # noqa: F401 - served is the walk's fixture

from companion.cli.mock_table import MockTable


def test_no_german_page_shows_object_undefined_nan_or_null_in_any_state(browser: Any,
                                                                        served: tuple[MockTable, str, Any]) -> None:
    reading, said = walk(browser, served, "de-DE")
    assert_no_leftovers(reading)
    # The phone's folded Board header says where the player is, in words (it said ", ,[object HTMLElement]").
    assert "du bist auf dem Startfeld von Fräulein Ming (h25)" in said[f"seat {SCARLET} (de-DE)"]
    assert reading.pages > 70, reading.pages
