"""The board as the pages draw it: the SVG from :mod:`companion.rules.drawing` plus where each place is."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.rules.drawing import Layout, board_drawing, place_centre, to_svg
from companion.rules.edition import Edition, load_edition
from companion.rules.user_editions import list_editions


def editions() -> tuple[str, ...]:
    """Every edition the pages may draw: the bundled ones and this companion's own (loadable ones)."""
    return tuple(entry.id for entry in list_editions() if entry.problem is None)


def board_data(edition_id: str) -> dict[str, Any]:
    """``{"edition", "name", "width", "height", "svg", "places", "squares", "rooms", "spots", "suspects"}`` for any
    installed edition (``suspects`` in the edition's order: the pages give each mover its letters in that order)."""
    return _board_data(load_edition(edition_id))


@lru_cache(maxsize=16)  # keyed by the Edition: load_edition gives a new one when its files change
def _board_data(edition: Edition) -> dict[str, Any]:
    board = edition.require_board()
    layout = Layout()
    drawing = board_drawing(edition.name, board, layout)
    places = {square: list(layout.centre(square)) for square in board.squares}
    for name in (*board.rooms, *board.spots):
        places[name] = list(place_centre(board, name, layout))
    return {
        "edition": edition.id,
        "name": edition.name,
        "width": drawing.width,
        "height": drawing.height,
        "svg": to_svg(drawing),
        "places": places,
        "squares": {square: list(layout.box(square)) for square in board.squares},
        "rooms": list(board.rooms),
        "spots": list(board.spots),
        "suspects": list(edition.deck.suspects),
    }
