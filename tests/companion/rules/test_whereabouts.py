"""Places in words: every square and room of every edition reads as a person would say it."""

from __future__ import annotations

import re

import pytest

from companion.rules.board import Board, load_board
from companion.rules.edition import bundled_ids
from companion.rules.whereabouts import NEAR, every_place, whereabouts

CODE = re.compile(r"\b[a-z][0-9]{1,2}\b")


def door_steps(board: Board, square: str, room: str) -> int:
    """Steps from ``square`` to the nearest square in front of a door of ``room``."""
    row = board.distances[board.index[square]]
    return min(row[exit_] for exit_ in board.exits[room])


@pytest.mark.parametrize("edition", bundled_ids())
def test_every_place_of_every_edition_has_words_without_a_grid_code(edition: str) -> None:
    board = load_board(edition)
    words = every_place(board)
    assert set(words) == set(board.squares) | set(board.rooms)
    for place, text in words.items():
        assert text and not CODE.search(text), (place, text)
        assert text.startswith(("in ", "on ", "at ")), (place, text)
    for room in board.rooms:
        assert words[room] in (f"in the {room}", f"in {room}")
    for square in board.squares:
        assert whereabouts(board, square).code == square


@pytest.mark.parametrize("edition", bundled_ids())
def test_a_corridor_square_names_the_nearest_door_and_how_far(edition: str) -> None:
    board = load_board(edition)
    for square in board.squares:
        text = whereabouts(board, square).words
        named = re.search(r"(?:by|from) (?:the )?(.+?) door$", text)
        if named is None:
            continue
        room = next(r for r in board.rooms if r == named.group(1) or r == "the " + named.group(1) or
                    r.lower() == named.group(1).lower())
        nearest = min(door_steps(board, square, r) for r in board.rooms if board.exits.get(r))
        assert door_steps(board, square, room) == nearest, (square, text)
        if text.endswith((f"by the {room} door", f"by {room} door")):
            assert 1 <= nearest <= NEAR, (square, text)
        else:
            assert f"{nearest} squares from" in text and nearest > NEAR, (square, text)


def test_the_classic_board_in_words() -> None:
    board = load_board("classic")
    assert str(whereabouts(board, "g19")) == "at the Lounge door (g19)"
    assert str(whereabouts(board, "h22")) == "in the corridor by the Lounge door (h22)"
    assert whereabouts(board, "h24").words == "in the corridor, 4 squares from the Lounge door"
    assert whereabouts(board, "h25").words == "on Miss Scarlet's start square"
    assert whereabouts(board, "a18").words == "on Colonel Mustard's start square"
    assert whereabouts(board, "Kitchen") == whereabouts(board, "e7")  # a grid square inside a room is the room
    assert whereabouts(board, "Kitchen").code is None
    assert whereabouts(board, "Narnia").words == "off the board"


def test_master_detective_spaces_and_snoop_squares() -> None:
    board = load_board("master_detective")
    assert str(whereabouts(board, "Basement Stairs")) == "on the Basement Stairs (f3)"
    assert whereabouts(board, "u22").words == "on the Garden Walk"
    assert whereabouts(board, "n2").words == "on a snoop square, by the Trophy Room door"
    assert whereabouts(board, "Cloakroom").words == "in the Cloakroom"


def test_doctor_who_and_big_bang_theory_rooms_and_bonus_squares() -> None:
    who = load_board("doctor_who")
    assert whereabouts(who, "The Moon").words == "in The Moon"
    assert whereabouts(who, "t18").words == "at The Moon door"
    assert whereabouts(who, "b7").words.startswith("on a bonus square")
    bang = load_board("big_bang_theory")
    assert whereabouts(bang, "Living Room (Penny)").words == "in the Living Room (Penny)"
    assert whereabouts(bang, "e18").words == "at the Living Room (Penny) door"
