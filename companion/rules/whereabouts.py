"""Where a place on the board is, in words a person reads: "in the corridor by the Lounge door".

Grid codes like ``g19`` mean nothing to a family at the table. This module
describes a place from the board model alone: a room, a named space, a start
square, the square in front of a room's door, a special square, or a stretch of
corridor placed by the nearest door. The code may still follow in small type
(:attr:`Whereabouts.code`).

>>> from companion.rules.board import load_board
>>> classic = load_board("classic")
>>> str(whereabouts(classic, "g19")), str(whereabouts(classic, "h22"))
('at the Lounge door (g19)', 'in the corridor by the Lounge door (h22)')
>>> whereabouts(classic, "h25").words, whereabouts(classic, "Kitchen").words
("on Miss Scarlet's start square", 'in the Kitchen')
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board

NEAR = 3  # steps: within this, a square is "by" a door; farther, the count is said
MARKS = {"snoop": "a snoop square", "bonus": "a bonus square"}


@dataclass(frozen=True)
class Whereabouts:
    """A place in words, and the grid code of a square (None for a room or off the board)."""

    words: str
    code: str | None = None

    def __str__(self) -> str:
        return f"{self.words} ({self.code})" if self.code else self.words


def whereabouts(board: Board, place: str) -> Whereabouts:
    """Describe ``place`` (a square's code, a room's or a named space's name) on ``board``.

    >>> from companion.rules.board import load_board
    >>> detective = load_board("master_detective")
    >>> str(whereabouts(detective, "Basement Stairs")), whereabouts(detective, "n2").words
    ('on the Basement Stairs (f3)', 'on a snoop square, by the Trophy Room door')
    >>> whereabouts(detective, "the moon").words
    'off the board'
    """
    if place in board.rooms:
        return Whereabouts(f"in {the(place)}")
    if place in board.spots:
        return whereabouts(board, board.squares[board.spots[place]])
    key = place.strip().lower()
    if key not in board.index:
        room = board.room_at(key)
        return Whereabouts(f"in {the(room)}") if room is not None else Whereabouts("off the board")
    return Whereabouts(_square_words(board, board.index[key]), key)


def every_place(board: Board) -> dict[str, str]:
    """Words for every square and room of ``board``, keyed as the views name places (no codes)."""
    places = [*board.squares, *board.rooms]
    return {place: whereabouts(board, place).words for place in places}


def the(name: str) -> str:
    """A place's name as it reads in a sentence ("the Kitchen", "The Moon")."""
    return name if name.lower().startswith("the ") else f"the {name}"


def _square_words(board: Board, square: int) -> str:
    spot = next((name for name, at in board.spots.items() if at == square), None)
    if spot is not None:
        return f"on {the(spot)}"
    starter = next((suspect for suspect, at in board.starts.items() if at == square), None)
    if starter is not None:
        return f"on {starter}'s start square"
    doors = [room for room in board.rooms if square in board.exits.get(room, ())]
    if doors:
        return f"at {' and '.join(_door(room) for room in doors)}"
    mark = board.marks.get(square)
    on = f"on {MARKS.get(mark, f'a {mark} square')}" if mark else "in the corridor"
    near = _nearest_door(board, square)
    if near is None:
        return on
    room, steps = near
    if steps <= NEAR:
        return f"{on}{',' if mark else ''} by {_door(room)}"
    return f"{on}, {steps} squares from {_door(room)}"


def _door(room: str) -> str:
    return f"{the(room)} door"


def _nearest_door(board: Board, square: int) -> tuple[str, int] | None:
    """The room whose door square is fewest steps away (the first room on a tie), and the steps."""
    distances = board.distances[square]
    far = len(board.squares) + 1
    best: tuple[str, int] | None = None
    for room in board.rooms:
        steps = min((distances[exit_] for exit_ in board.exits.get(room, ())), default=far)
        if steps < far and (best is None or steps < best[1]):
            best = (room, steps)
    return best
