"""No English page shows "[object …]", "undefined", "NaN" or "null" in any state of a game (page_texts.py walks it).

test_page_texts_german.py walks the German pages: a file of its own, so a second pytest process takes it.
"""

from __future__ import annotations

from typing import Any

from page_texts import SCARLET, assert_no_leftovers, served, walk  # noqa: F401 - served is the walk's fixture

from companion.cli.mock_table import MockTable


def test_no_page_shows_object_undefined_nan_or_null_in_any_state(browser: Any, served: tuple[MockTable, str, Any]) -> None:
    reading, said = walk(browser, served, "en-US")
    assert_no_leftovers(reading)
    # The phone's folded Board header says where the player is, in words (it said ", ,[object HTMLElement]"),
    # and the simulator says the opening of its notice (it said "[object Object] The board matches the game.").
    assert "you are on Miss Scarlet's start square (h25)" in said[f"seat {SCARLET} (en-US)"]
    assert "The game starts. The board matches the game." in said["sim (en-US)"]
    assert reading.pages > 90, reading.pages
