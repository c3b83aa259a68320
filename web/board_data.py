"""The board as the pages draw it: the SVG from :mod:`companion.rules.drawing` plus where each place is.

The drawing names the rooms as the page's locale writes them (a German table's board says "Küche"), the
table's house names first (:mod:`companion.table.board_labels`); the places keep their identities."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.language.boxes import resolve_variant
from companion.rules.drawing import Layout, board_drawing, place_centre, to_svg
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import ClueError
from companion.rules.user_editions import list_editions
from companion.table.board_labels import board_labels, board_title


def editions() -> tuple[str, ...]:
    """Every edition the pages may draw: the bundled ones and this companion's own (loadable ones)."""
    return tuple(entry.id for entry in list_editions() if entry.problem is None)


def board_data(edition_id: str, locale: str = "en-US", house: tuple[tuple[str, str], ...] = (),
               variant: str | None = None) -> dict[str, Any]:
    """``{"edition", "name", "width", "height", "svg", "places", "squares", "rooms", "room_names", "spots",
    "suspects"}`` for any
    installed edition (``suspects`` in the edition's order: the pages give each mover its letters in that order),
    drawn in ``locale`` and its box ``variant`` with the table's ``house`` names ((identity, name) pairs)."""
    edition = load_edition(edition_id)
    try:
        chosen = resolve_variant(edition, locale, variant)
    except ClueError:  # a box this locale does not have (the table changed language): the locale's own names
        chosen = None
    return _board_data(edition, locale, house, chosen)


@lru_cache(maxsize=32)  # keyed by the Edition (load_edition gives a new one when its files change) and the words
def _board_data(edition: Edition, locale: str, house: tuple[tuple[str, str], ...], variant: str | None) -> dict[str, Any]:
    board = edition.require_board()
    layout = Layout()
    labels = board_labels(edition, locale, dict(house), variant)
    drawing = board_drawing(board_title(edition, locale), board, layout, labels)
    places = {square: list(layout.centre(square)) for square in board.squares}
    for name in (*board.rooms, *board.spots):
        places[name] = list(place_centre(board, name, layout))
    return {
        "edition": edition.id,
        "name": board_title(edition, locale),
        "width": drawing.width,
        "height": drawing.height,
        "svg": to_svg(drawing),
        "places": places,
        "squares": {square: list(layout.box(square)) for square in board.squares},
        "rooms": list(board.rooms),
        "room_names": {room: labels.name(room) for room in board.rooms},  # as the drawing writes them
        "spots": list(board.spots),
        "suspects": list(edition.deck.suspects),
    }
