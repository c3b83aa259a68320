"""The board as the pages draw it: the SVG from :mod:`companion.rules.drawing` plus where each place is."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.rules.drawing import Layout, board_drawing, place_centre, to_svg
from companion.rules.edition import bundled_ids, load_edition


def editions() -> tuple[str, ...]:
    return bundled_ids()


@lru_cache(maxsize=8)  # four editions; each drawing is immutable once made
def board_data(edition_id: str) -> dict[str, Any]:
    """``{"edition", "width", "height", "svg", "places", "squares", "rooms"}`` for a bundled edition."""
    edition = load_edition(edition_id)
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
    }
