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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .board import Board

NEAR = 3  # steps: within this, a square is "by" a door; farther, the count is said
MARKS = {"snoop": "a snoop square", "bonus": "a bonus square"}
Spell = Callable[[str], str]
# A phrase for another language: a message template and its arguments, each a card's identity, a number or
# a phrase again. The English words are built apart: English puts "the" before a room, which other
# languages could not carry on a name without its gender.
Parts = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Whereabouts:
    """A place in words, the grid code of a square (None for a room or off the board), and the parts
    another language says it from (:data:`Parts`)."""

    words: str
    code: str | None = None
    parts: Parts = field(default=("", {}), compare=False)

    def __str__(self) -> str:
        return f"{self.words} ({self.code})" if self.code else self.words


def _said(words: str, template: str, **args: Any) -> tuple[str, Parts]:
    """English ``words`` and the ``template`` other languages say them from (the catalogues find the template)."""
    return words, (template, args)


def whereabouts(board: Board, place: str, spell: Spell = str) -> Whereabouts:
    """Describe ``place`` (a square's code, a room's or a named space's name) on ``board``; card names
    (rooms, suspects) in the English words are written by ``spell`` (a locale's spelling).

    >>> from companion.rules.board import load_board
    >>> detective = load_board("master_detective")
    >>> str(whereabouts(detective, "Basement Stairs")), whereabouts(detective, "n2").words
    ('on the Basement Stairs (f3)', 'on a snoop square, by the Trophy Room door')
    >>> whereabouts(detective, "the moon").words
    'off the board'
    >>> whereabouts(detective, "n2").parts
    ('{on}, by the door of {room}', {'on': ('on a snoop square', {}), 'room': 'Trophy Room'})
    """
    if place in board.rooms:
        return _place(_said(f"in {the(spell(place))}", "in {room}", room=place))
    if place in board.spots:
        return whereabouts(board, board.squares[board.spots[place]], spell)
    key = place.strip().lower()
    if key not in board.index:
        room = board.room_at(key)
        if room is None:
            return _place(_said("off the board", "off the board"))
        return _place(_said(f"in {the(spell(room))}", "in {room}", room=room))
    return _place(_square_words(board, board.index[key], spell), key)


def _place(said: tuple[str, Parts], code: str | None = None) -> Whereabouts:
    return Whereabouts(said[0], code, said[1])


def every_place(board: Board, spell: Spell = str) -> dict[str, str]:
    """Words for every square and room of ``board``, keyed as the views name places (no codes)."""
    places = [*board.squares, *board.rooms]
    return {place: whereabouts(board, place, spell).words for place in places}


def every_place_parts(board: Board) -> dict[str, Parts]:
    """The parts of every square's and room's words, for another language (:data:`Parts`)."""
    return {place: whereabouts(board, place).parts for place in [*board.squares, *board.rooms]}


def the(name: str) -> str:
    """A place's name as it reads in a sentence ("the Kitchen", "The Moon")."""
    return name if name.lower().startswith("the ") else f"the {name}"


def _square_words(board: Board, square: int, spell: Spell) -> tuple[str, Parts]:
    spot = next((name for name, at in board.spots.items() if at == square), None)
    if spot is not None:
        return _said(f"on {the(spot)}", "on {spot}", spot=spot)
    starter = next((suspect for suspect, at in board.starts.items() if at == square), None)
    if starter is not None:
        return _said(f"on {spell(starter)}'s start square", "on the start square of {suspect}", suspect=starter)
    doors = [room for room in board.rooms if square in board.exits.get(room, ())]
    if doors:
        return _said(f"at {' and '.join(_door(spell(room)) for room in doors)}", "at the door of {room}",
                     room=" / ".join(doors) if len(doors) > 1 else doors[0])
    on = _corridor(board.marks.get(square))
    near = _nearest_door(board, square)
    if near is None:
        return on
    room, steps = near
    mark = board.marks.get(square)
    if steps <= NEAR:
        return _said(f"{on[0]}{',' if mark else ''} by {_door(spell(room))}", "{on}, by the door of {room}",
                     on=on[1], room=room)
    return _said(f"{on[0]}, {steps} squares from {_door(spell(room))}", "{on}, {steps} squares from the door of {room}",
                 on=on[1], steps=steps, room=room)


def _corridor(mark: str | None) -> tuple[str, Parts]:
    if mark is None:
        return _said("in the corridor", "in the corridor")
    if mark == "snoop":
        return _said(f"on {MARKS[mark]}", "on a snoop square")
    if mark == "bonus":
        return _said(f"on {MARKS[mark]}", "on a bonus square")
    return _said(f"on a {mark} square", "on a {mark} square", mark=mark)


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
