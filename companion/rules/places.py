"""Naming places: hallway squares ("h25") and rooms, as players type them.

>>> from companion.rules.edition import load_edition
>>> classic = load_edition("classic")
>>> resolve_place(classic, "H25"), resolve_place(classic, "the lounge"), resolve_place(classic, "e7")
('h25', 'Lounge', 'Kitchen')
"""

from __future__ import annotations

from .board import SQUARE_NAME
from .cards import normalise
from .edition import Edition
from .errors import IllegalMove, UnknownCard


def resolve_place(edition: Edition, name: str) -> str:
    """A square's name, or a room's printed name; a grid square inside a room means the room."""
    board = edition.require_board()
    key = name.strip().lower()
    if SQUARE_NAME.fullmatch(key):
        if key in board.index:
            return key
        room = board.room_at(key)
        if room is None:
            raise IllegalMove("{name} is not a square a mover can stand on", name=name)
        return room
    wanted = normalise(name).removeprefix("the ")
    for room in board.rooms:
        if normalise(room) in (wanted, normalise(name)):
            return room
    for spot, square in board.spots.items():
        if normalise(spot) in (wanted, normalise(name)):
            return board.squares[square]
    for alias, place in board.aliases.items():
        if normalise(alias) in (wanted, normalise(name)):
            return resolve_place(edition, place)
    raise UnknownCard("unknown room {name!r}; valid: {valid}", name=name, valid=", ".join((*board.rooms, *board.spots)))


def is_room(edition: Edition, place: str) -> bool:
    """True for a room's name (as opposed to a hallway square or an off-board spot)."""
    return place in edition.require_board().rooms
