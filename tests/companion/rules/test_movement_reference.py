"""The fast movement search gives exactly the sets of the plain one it replaced.

``movement_reference.py`` is the search as it was before issue 21 (static
distance pruning only). Here hypothesis draws random small boards (rooms,
doors, passages, snoop and bonus marks, void), random rules (every combination
of the Master Detective flags), starts, rolls, movers and places already used,
and every bundled board is compared from every place for rolls 2 to 12.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection

import movement_reference as reference
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.board import Board, Legend, read_map
from companion.rules.edition import Movement, load_edition
from companion.rules.movement import (
    can_move,
    destinations,
    prepare,
    reaches,
    stop_steps,
    way_to,
)

RULES = tuple(Movement(*flags) for flags in itertools.product((False, True), repeat=3))
LETTERS = "ABCD"


def random_board(seed: int) -> Board:
    """A small map: hallway with holes, up to four rooms each with one to three doors, marks."""
    rand = random.Random(seed)
    width, height = rand.randint(3, 9), rand.randint(3, 9)
    grid = [["." if rand.random() < 0.8 else "#" for _ in range(width)] for _ in range(height)]
    placed: dict[str, list[tuple[int, int]]] = {}
    for letter in LETTERS[: rand.randint(0, 4)]:
        top, left = rand.randrange(height), rand.randrange(width)
        cells = [(r, c) for r in range(top, min(top + 2, height)) for c in range(left, min(left + 2, width))]
        if all(grid[r][c] in ".#" for r, c in cells):
            for r, c in cells:
                grid[r][c] = letter
            placed[letter] = cells
    rooms: dict[str, str] = {}
    for letter, cells in placed.items():  # doors once every room is down, so none is covered
        doors = [((r, c), (r + dr, c + dc)) for r, c in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if 0 <= r + dr < height and 0 <= c + dc < width and grid[r + dr][c + dc] in ".#"]
        if not doors:
            for r, c in cells:
                grid[r][c] = "#"
            continue
        for (r, c), (orow, ocol) in rand.sample(doors, rand.randint(1, min(3, len(doors)))):
            grid[r][c] = letter.lower()
            grid[orow][ocol] = "."
        rooms[letter] = f"Room {letter}"
    for r, c in itertools.product(range(height), range(width)):
        if grid[r][c] == "." and rand.random() < 0.08:
            grid[r][c] = rand.choice("*?")
    names = list(rooms.values())
    pairs = tuple(itertools.combinations(names, 2))[: rand.randint(0, 2)] if len(names) > 1 else ()
    legend = Legend(rooms=rooms, marks={"*": "snoop", "?": "bonus"}, passages=pairs)
    return read_map("random.txt", legend, text="\n".join("".join(row) for row in grid) + "\n")


def same_moves(board: Board, start: str, roll: int, occupied: Collection[str], rules: Movement,
               avoid: Collection[str] = ()) -> frozenset[str]:
    """Assert every public search agrees with the reference; return the destinations."""
    expected = reference.destinations(board, start, roll, occupied, rules, avoid)
    assert destinations(board, start, roll, occupied, rules, avoid) == expected
    # The reference's can_move could stop on the start square itself (a roll of 1 beside a
    # jumped mover) and answer False with places to go; the fast one agrees with destinations.
    assert can_move(board, start, roll, occupied, rules, avoid) == bool(expected)
    for target in board.squares + board.rooms:
        if target != start:
            steps = stop_steps(board, start, roll, occupied, target, rules, avoid)
            assert steps == reference.stop_steps(board, start, roll, occupied, target, rules, avoid), target
            assert reaches(board, start, roll, occupied, target, rules, avoid) == (steps is not None)
    for square in board.marks:
        name = board.squares[square]
        if name != start and reference.stop_steps(board, start, roll, occupied, name, rules, avoid) is not None:
            assert way_to(board, start, roll, occupied, name, rules, avoid) == \
                reference.way_to(board, start, roll, occupied, name, rules, avoid)
    return expected


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    rules=st.sampled_from(RULES),
    roll=st.integers(min_value=0, max_value=12),
    movers=st.integers(min_value=0, max_value=6),
    used=st.integers(min_value=0, max_value=2),
)
def test_random_boards_agree_with_the_reference(seed: int, rules: Movement, roll: int, movers: int, used: int) -> None:
    board = random_board(seed)
    places = board.squares + board.rooms
    rand = random.Random(seed + 1)
    start = rand.choice(places)
    occupied = frozenset(rand.sample(board.squares, min(movers, len(board.squares))))
    avoid = tuple(rand.sample(places, min(used, len(places))))
    same_moves(board, start, roll, occupied - {start}, rules, avoid)


@pytest.mark.parametrize("edition_id", ["classic", "master_detective", "big_bang_theory", "doctor_who"])
def test_every_bundled_board_agrees_from_every_place(edition_id: str) -> None:
    """Rolls 2..12 from every square and room on the empty board; a crowd on every other roll."""
    edition = load_edition(edition_id)
    board, rules = edition.require_board(), edition.movement
    crowd = frozenset(random.Random(12).sample(board.squares, 5))
    for place in board.squares + board.rooms:
        for roll in range(2, 13):
            expected = reference.destinations(board, place, roll, (), rules)
            assert destinations(board, place, roll, (), rules) == expected, (place, roll)
            if roll % 2 == 0:
                near = crowd - {place}
                assert destinations(board, place, roll, near, rules) == \
                    reference.destinations(board, place, roll, near, rules), (place, roll, "crowd")


@pytest.mark.parametrize("rules", RULES)
def test_master_detective_board_agrees_under_every_rule_set(rules: Movement) -> None:
    edition = load_edition("master_detective")
    board = edition.require_board()
    rand = random.Random(str(rules))
    for _ in range(40):
        place = rand.choice(board.squares + board.rooms)
        crowd = frozenset(rand.sample(board.squares, rand.randint(0, 8))) - {place}
        roll = rand.randint(1, 12)
        assert destinations(board, place, roll, crowd, rules) == \
            reference.destinations(board, place, roll, crowd, rules), (place, roll, sorted(crowd))


def test_a_roll_of_1_beside_a_jumped_mover_can_still_move() -> None:
    """The reference's can_move said no here (it counted the start square as a find)."""
    board = load_edition("master_detective").require_board()
    rules = Movement(jump_movers=True)
    start = board.squares[0]
    mover = board.squares[board.neighbours[0][0]]
    found = destinations(board, start, 1, {mover}, rules)
    assert found and can_move(board, start, 1, {mover}, rules)


def rooms_board(seed: int, size: int = 22) -> Board:
    """A larger map than hypothesis draws: rooms of 2 to 4 squares a side on a grid of 7, one to
    three doors each, a few passages and marks, and hallway between (where the quick passes of the
    fast search find most squares, and the rest must still come out the same)."""
    rand = random.Random(seed)
    grid = [["." if rand.random() < 0.95 else "#" for _ in range(size)] for _ in range(size)]
    rooms: dict[str, str] = {}
    corners = [(top, left) for top in range(1, size - 4, 7) for left in range(1, size - 4, 7)]
    for letter, (top, left) in zip("ABCDEFGHIJKLMNOP", corners):
        tall, wide = rand.randint(2, 4), rand.randint(2, 4)
        for r in range(top, top + tall):
            for c in range(left, left + wide):
                grid[r][c] = letter
        sides = [(top, c) for c in range(left, left + wide)] + [(top + tall - 1, c) for c in range(left, left + wide)]
        sides += [(r, left) for r in range(top, top + tall)] + [(r, left + wide - 1) for r in range(top, top + tall)]
        outside = [(r, c) for r, c in dict.fromkeys(sides) if any(
            0 <= r + dr < size and 0 <= c + dc < size and grid[r + dr][c + dc] == "."
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))]
        for r, c in rand.sample(outside, min(len(outside), rand.randint(1, 3))):
            grid[r][c] = letter.lower()
        rooms[letter] = f"Room {letter}"
    for r, c in itertools.product(range(size), range(size)):
        if grid[r][c] == "." and rand.random() < 0.02:
            grid[r][c] = rand.choice("*?")
    names = list(rooms.values())
    pairs = tuple(tuple(rand.sample(names, 2)) for _ in range(2))
    legend = Legend(rooms=rooms, marks={"*": "snoop", "?": "bonus"}, passages=pairs)
    return read_map("rooms.txt", legend, text="\n".join("".join(row) for row in grid) + "\n")


@pytest.mark.parametrize("seed", range(3))
def test_larger_boards_agree_under_master_detective_rules(seed: int) -> None:
    """Long rolls on a board with room to go round: rooms crossed, passages, movers jumped."""
    board = rooms_board(seed)
    rand = random.Random(seed)
    for rules in (Movement(True, True, True), Movement(True, False, True), Movement(False, True, False)):
        for _ in range(12):
            place = rand.choice(board.squares + board.rooms)
            crowd = frozenset(rand.sample(board.squares, rand.randint(0, 8))) - {place}
            avoid = tuple(rand.sample(board.rooms, rand.randint(0, 1)))
            roll = rand.randint(7, 12)
            assert destinations(board, place, roll, crowd, rules, avoid) == \
                reference.destinations(board, place, roll, crowd, rules, avoid), (place, roll, sorted(crowd), avoid)


def test_prepared_tables_serve_longer_rolls_and_other_rules() -> None:
    """Tables built ahead for short rolls grow for a longer one; each set of rules keeps its own."""
    board = rooms_board(7)
    full = Movement(True, True, True)
    prepare(board, full, 3)
    prepare(board, Movement(), 12)
    rand = random.Random(7)
    for _ in range(10):
        place = rand.choice(board.squares + board.rooms)
        for rules in (full, Movement()):
            assert destinations(board, place, 12, (), rules) == reference.destinations(board, place, 12, (), rules)


def test_stop_marks_follow_each_call_on_a_board_already_used() -> None:
    """The tables are shared whatever marks a move may stop on (bonus spaces come and go with the cards)."""
    legend = Legend(rooms={"A": "Room A"}, marks={"?": "bonus", "*": "snoop"})
    board = read_map("marks.txt", legend, text="Aa....\n..?...\n.....*\n")
    for stops in (("snoop", "bonus"), ("snoop",), ("bonus",), ("snoop", "bonus")):
        for roll in (3, 4, 5):  # the bonus space is an even number of steps from the room
            found = destinations(board, "Room A", roll, (), stops=stops)
            assert found == reference.destinations(board, "Room A", roll, (), stops=stops), (stops, roll)
            assert ("c2" in found) == ("bonus" in stops or roll == 4), (stops, roll)
