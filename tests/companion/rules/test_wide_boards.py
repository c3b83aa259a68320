"""Boards of up to 40 x 40 squares: columns past "z" are named "aa" to "an", like a spreadsheet's."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.board import (
    COLUMNS,
    MAX_SIDE,
    Board,
    Legend,
    check_map,
    column_name,
    read_map,
    square_name,
    square_position,
)
from companion.rules.board_diff import board_diff
from companion.rules.drawing import Text, board_drawing, position
from companion.rules.edition import Edition
from companion.rules.edition_check import check_document
from companion.rules.edition_files import files_of, load_files
from companion.rules.errors import IllegalMove
from companion.rules.movement import destinations
from companion.rules.places import resolve_place
from companion.rules.whereabouts import whereabouts

LEGEND = Legend(rooms={"A": "Attic", "B": "Barn", "C": "Cellar"}, starts={"1": "Ada", "2": "Bo", "3": "Cy"})
# Where the rooms and starts go on an otherwise all-hallway grid: (row, column) from 0.
ATTIC = [(r, c) for r in range(3) for c in range(3)]       # a1..c3, door c3
BARN = [(r, c) for r in range(36, 39) for c in range(26, 30)]  # aa37..ad39, door ab37
CELLAR = [(r, c) for r in range(3) for c in range(30, 34)]  # ae1..ah3, door af3
STARTS = {(39, 39): "1", (39, 0): "2", (0, 20): "3"}       # an40, a40, u1


def wide_rows() -> list[str]:
    cells = [["."] * 40 for _ in range(40)]
    for letter, squares, door in (("A", ATTIC, (2, 2)), ("B", BARN, (36, 27)), ("C", CELLAR, (2, 31))):
        for r, c in squares:
            cells[r][c] = letter
        cells[door[0]][door[1]] = letter.lower()
    for (r, c), digit in STARTS.items():
        cells[r][c] = digit
    return ["".join(row) for row in cells]


def wide_board(rows: list[str] | None = None) -> Board:
    return read_map("wide.txt", LEGEND, text="\n".join(rows or wide_rows()) + "\n")


def wide_document() -> dict[str, Any]:
    return {
        "id": "wide_board", "name": "Wide Board", "base": "classic", "players": {"min": 3, "max": 3},
        "cards": {"suspects": ["Ada", "Bo", "Cy"], "weapons": ["Rope", "Pan"], "rooms": ["Attic", "Barn", "Cellar"]},
        "map": {"rows": wide_rows(), "hallway": ".", "void": "#", "rooms": dict(LEGEND.rooms),
                "starts": dict(LEGEND.starts), "passages": [], "joins": []},
    }


@pytest.fixture(scope="module")
def edition() -> Edition:
    return load_files(files_of(wide_document()))


# Names

def test_the_first_26_columns_keep_their_one_letter_names() -> None:
    assert [column_name(i) for i in range(26)] == list(COLUMNS)
    assert square_name(24, 7) == "h25" and square_position("h25") == (24, 7)


def test_columns_27_to_40_are_named_like_a_spreadsheets() -> None:
    assert [column_name(i) for i in range(26, MAX_SIDE)] == ["a" + letter for letter in "abcdefghijklmn"]


def test_names_and_positions_are_inverse_over_the_whole_40_by_40_grid() -> None:
    names = {square_name(r, c) for r in range(MAX_SIDE) for c in range(MAX_SIDE)}
    assert len(names) == MAX_SIDE * MAX_SIDE
    assert all(square_name(*square_position(name)) == name for name in names)
    assert square_position("AN40") == (39, 39) and square_position(" aa1 ") == (0, 26)


@pytest.mark.parametrize("name", ["ao1", "a41", "a0", "1a", "aaa1", "a", "", "h25x"])
def test_names_off_a_40_by_40_map_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        square_position(name)


def test_a_column_past_the_40th_has_no_name() -> None:
    with pytest.raises(ValueError):
        column_name(MAX_SIDE)


# A 40 x 40 map

def test_a_40_by_40_map_loads_with_its_squares_named_a1_to_an40() -> None:
    board = wide_board()
    assert (board.width, board.height) == (40, 40)
    assert board.start_of("Ada") == "an40" and board.start_of("Bo") == "a40" and board.start_of("Cy") == "u1"
    assert board.is_square("z1") and board.is_square("aa1") and board.is_square("AN39")
    assert board.room_at("ab37") == "Barn" and board.room_at("ad39") == "Barn" and board.room_at("ae1") == "Cellar"
    assert len(board.squares) == 40 * 40 - len(ATTIC) - len(BARN) - len(CELLAR)
    assert {position(name) for name in board.squares} | set(ATTIC) | set(BARN) | set(CELLAR) == {
        (r, c) for r in range(40) for c in range(40)
    }


def test_neighbours_cross_from_z_to_aa() -> None:
    board = wide_board()
    beside = {board.squares[i] for i in board.neighbours[board.index["aa5"]]}
    assert beside == {"z5", "ab5", "aa4", "aa6"}


def test_doors_past_z_lead_into_their_rooms() -> None:
    board = wide_board()
    assert [board.squares[i] for i in board.exits["Barn"]] == ["ab36"]
    assert [board.squares[i] for i in board.exits["Cellar"]] == ["af4"]


def test_destinations_from_an40() -> None:
    board = wide_board()
    assert destinations(board, "an40", 2, ()) == {"al40", "am39", "an38"}
    assert destinations(board, "an40", 2, ("am39",)) == {"al40", "an38"}


def test_a_roll_reaches_a_room_past_z() -> None:
    board = wide_board()
    assert "Barn" in destinations(board, "ab35", 2, ())


@pytest.mark.parametrize(("rows", "words"), [
    ([row + "." for row in wide_rows()], "41 squares wide; at most 40"),
    ([*wide_rows(), "." * 40], "41 rows; at most 40"),
])
def test_a_map_past_40_either_way_is_refused(rows: list[str], words: str) -> None:
    problems = check_map("wide.txt", LEGEND, "\n".join(rows) + "\n")
    assert [problem.message for problem in problems if words in problem.message]


def test_a_map_exactly_40_by_40_has_no_problems() -> None:
    assert check_map("wide.txt", LEGEND, "\n".join(wide_rows()) + "\n") == []


# Naming places as players type them

def test_players_can_name_squares_past_z(edition: Edition) -> None:
    assert resolve_place(edition, "AB3") == "ab3"
    assert resolve_place(edition, "an40") == "an40"
    assert resolve_place(edition, "ac38") == "Barn"


def test_a_square_off_the_board_is_refused(edition: Edition) -> None:
    with pytest.raises(IllegalMove):
        resolve_place(edition, "ab41")


def test_whereabouts_past_z() -> None:
    assert whereabouts(wide_board(), "AN40").words == "on Ada's start square"
    assert whereabouts(wide_board(), "ab37").words == "in the Barn"


# Drawing, diffs and the editor's problems

def test_the_drawing_labels_40_columns() -> None:
    drawing = board_drawing("Wide", wide_board())
    labels = [shape.text for shape in drawing.shapes if isinstance(shape, Text) and shape.role == "column"]
    assert labels == [*COLUMNS, *("a" + letter for letter in "abcdefghijklmn")]
    xs = [shape.x for shape in drawing.shapes if isinstance(shape, Text) and shape.role == "column"]
    assert xs == sorted(xs)


def test_a_diff_names_squares_past_z_in_reading_order() -> None:
    rows = wide_rows()
    rows[4] = rows[4][:25] + "##" + rows[4][27:]  # z5 and aa5 become void
    assert board_diff(wide_board(), wide_board(rows)) == ["z5: hallway -> void", "aa5: hallway -> void"]


def test_an_editor_problem_points_at_a_square_past_z() -> None:
    document = wide_document()
    document["map"]["rows"][4] = document["map"]["rows"][4][:28] + "?" + document["map"]["rows"][4][29:]
    problem = check_document(document)[0]
    assert (problem.row, problem.column, problem.square) == (4, 28, "ac5")
    assert "unknown character '?' at ac5" in problem.message


def test_the_wide_edition_checks_clean() -> None:
    assert check_document(wide_document()) == []
