"""The Classic board map: square names, rooms, doors, passages, and malformed maps."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from companion.rules.board import Board, Legend, load_board, read_map
from companion.rules.errors import ClueError, EditionError

ROOM_LETTERS = {
    "K": "Kitchen", "B": "Ballroom", "C": "Conservatory", "D": "Dining Room", "R": "Billiard Room",
    "L": "Library", "S": "Study", "H": "Hall", "N": "Lounge",
}


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("classic")


def grid() -> list[str]:
    """The bundled map's rows, read here without the parser under test."""
    text = resources.files("companion.rules.editions").joinpath("classic.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("# ") and line != "#"]


def named(row: int, col: int) -> str:
    return f"{'abcdefghijklmnopqrstuvwxyz'[col]}{row + 1}"


# Square names and start squares


def test_the_board_is_24_columns_by_25_rows(board: Board) -> None:
    assert (board.width, board.height) == (24, 25)


def test_miss_scarlet_starts_on_h25(board: Board) -> None:
    assert board.start_of("Miss Scarlet") == "h25"


def test_the_six_start_squares(board: Board) -> None:
    assert {suspect: board.start_of(suspect) for suspect in board.starts} == {
        "Miss Scarlet": "h25",
        "Colonel Mustard": "a18",
        "Mrs. White": "j1",
        "Mr. Green": "o1",
        "Mrs. Peacock": "x7",
        "Professor Plum": "x20",
    }


def test_squares_are_named_column_letter_then_row_from_the_top_left(board: Board) -> None:
    assert board.squares[0] == "j1"  # the first walkable square in reading order: Mrs. White's start
    assert board.squares[1] == "o1"
    assert board.is_square("a8") and board.is_square("w14")
    assert not board.is_square("a1") and not board.is_square("x1")


def test_square_names_are_matched_case_insensitively(board: Board) -> None:
    assert board.square(" H25 ") == board.index["h25"]
    assert board.is_square("A18")


def test_every_hallway_and_start_character_is_a_square(board: Board) -> None:
    expected = {named(r, c) for r, line in enumerate(grid()) for c, ch in enumerate(line) if ch in ".123456"}
    assert set(board.squares) == expected
    assert len(board.squares) == len(expected) == 188
    assert all(board.squares[board.index[name]] == name for name in expected)


def test_neighbours_are_the_orthogonal_hallway_squares(board: Board) -> None:
    for name in board.squares:
        row, col = int(name[1:]) - 1, ord(name[0]) - ord("a")
        around = {named(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                  if 0 <= r < 25 and 0 <= c < 24 and board.is_square(named(r, c))}
        assert {board.squares[i] for i in board.neighbours[board.index[name]]} == around, name


def test_scarlets_start_is_a_nook_with_one_way_out(board: Board) -> None:
    assert [board.squares[i] for i in board.neighbours[board.index["h25"]]] == ["h24"]
    assert [board.squares[i] for i in board.neighbours[board.index["j1"]]] == ["j2"]


# Rooms and doors


@pytest.mark.parametrize(
    ("square", "room"),
    [("a2", "Kitchen"), ("k2", "Ballroom"), ("x2", "Conservatory"), ("a11", "Dining Room"),
     ("x9", "Billiard Room"), ("x16", "Library"), ("a25", "Lounge"), ("j25", "Hall"), ("x25", "Study")],
)
def test_a_square_inside_a_room_belongs_to_it(board: Board, square: str, room: str) -> None:
    assert board.room_at(square) == room
    assert not board.is_square(square)


def test_every_room_letter_on_the_map_resolves_to_its_room(board: Board) -> None:
    for r, line in enumerate(grid()):
        for c, ch in enumerate(line):
            if ch.upper() in ROOM_LETTERS:
                assert board.room_at(named(r, c)) == ROOM_LETTERS[ch.upper()], named(r, c)
    assert set(board.cells.values()) == set(ROOM_LETTERS.values())


@pytest.mark.parametrize(
    ("door", "room"),
    [("e7", "Kitchen"), ("g20", "Lounge"), ("r22", "Study"), ("t6", "Conservatory"), ("l19", "Hall")],
)
def test_a_door_square_belongs_to_its_room(board: Board, door: str, room: str) -> None:
    assert board.room_at(door) == room
    assert not board.is_square(door)


def test_the_nine_rooms(board: Board) -> None:
    assert sorted(board.rooms) == sorted(ROOM_LETTERS.values())


def test_each_room_is_left_onto_the_squares_in_front_of_its_doors(board: Board) -> None:
    exits = {room: sorted(board.squares[i] for i in squares) for room, squares in board.exits.items()}
    assert exits == {
        "Kitchen": ["e8"],
        "Ballroom": ["h6", "j9", "o9", "q6"],
        "Conservatory": ["s6", "t7"],
        "Dining Room": ["g17", "i13"],
        "Billiard Room": ["r10", "w14"],
        "Library": ["q17", "u14"],
        "Lounge": ["g19", "h20"],
        "Hall": ["l18", "m18", "p21"],
        "Study": ["q22", "r21"],
    }


def test_the_squares_in_front_of_the_lounge_lead_into_it(board: Board) -> None:
    assert board.doors[board.index["g19"]] == ("Lounge",)
    assert board.doors[board.index["h20"]] == ("Lounge",)
    assert board.doors[board.index["h25"]] == ()


def test_doors_and_exits_agree(board: Board) -> None:
    for room, squares in board.exits.items():
        for square in squares:
            assert room in board.doors[square]
    for square, rooms in enumerate(board.doors):
        for room in rooms:
            assert square in board.exits[room]


def test_secret_passages_join_kitchen_to_study_and_conservatory_to_lounge(board: Board) -> None:
    assert {room: set(others) for room, others in board.passages.items()} == {
        "Kitchen": {"Study"}, "Study": {"Kitchen"}, "Conservatory": {"Lounge"}, "Lounge": {"Conservatory"},
    }


def test_the_cellar_is_not_walkable(board: Board) -> None:
    cellar = [f"{col}{row}" for col in "klmno" for row in range(11, 18)]
    for name in cellar:
        assert not board.is_square(name)
        assert board.room_at(name) is None
    assert board.is_square("j12") and board.is_square("p12")
    beside = {board.squares[i] for i in board.neighbours[board.index["j12"]]}
    assert beside == {"i12", "j11", "j13"}


# Malformed maps

LEGEND = Legend(rooms={"A": "Attic", "B": "Bar"}, starts={"1": "Miss Scarlet"}, passages=(("Attic", "Bar"),))
TINY = """\
# a tiny board
AAa..1
AAA...
#.....
BBb...
"""


def problem(text: str, legend: Legend = LEGEND) -> str:
    with pytest.raises(EditionError) as caught:
        read_map("tiny.txt", legend, text=text)
    assert isinstance(caught.value, ClueError) and isinstance(caught.value, ValueError)
    return str(caught.value)


def test_a_tiny_map_parses() -> None:
    tiny = read_map("tiny.txt", LEGEND, text=TINY)
    assert tiny.start_of("Miss Scarlet") == "f1"
    assert {room: [tiny.squares[i] for i in s] for room, s in tiny.exits.items()} == {
        "Attic": ["d1"], "Bar": ["c3", "d4"],
    }
    assert tiny.room_at("c1") == "Attic" and tiny.room_at("a4") == "Bar"
    assert not tiny.is_square("a3")


def test_a_ragged_row_names_its_line() -> None:
    message = problem(TINY.replace("AAA...", "AAA.."))
    assert message.startswith("tiny.txt:3: ")
    assert "5" in message and "6" in message


def test_an_unknown_character_names_its_line_and_square() -> None:
    message = problem(TINY.replace("#.....", "#..?.."))
    assert message.startswith("tiny.txt:4: ")
    assert "'?'" in message
    assert " d3" in message  # grid row 3: the comment line is not a row
    assert " d4" not in message


def test_a_door_opening_onto_nothing() -> None:
    message = problem("AAa#.1\nAAA#..\n#.....\nBBb...\n")
    assert message.startswith("tiny.txt:1: ")
    assert "c1" in message and "Attic" in message


def test_a_missing_start_square() -> None:
    message = problem(TINY.replace("1", "."))
    assert message.startswith("tiny.txt")
    assert "Miss Scarlet" in message and "start" in message


def test_a_second_start_square() -> None:
    message = problem(TINY.replace("#.....", "#...1."))
    assert message.startswith("tiny.txt:4: ")
    assert "Miss Scarlet" in message


def test_a_room_in_the_legend_but_not_on_the_map() -> None:
    legend = Legend(rooms={"A": "Attic", "B": "Bar", "C": "Cellar"}, starts={"1": "Miss Scarlet"})
    message = problem(TINY, legend)
    assert message.startswith("tiny.txt")
    assert "Cellar" in message and "not on the map" in message


def test_a_passage_naming_an_unknown_room() -> None:
    legend = Legend(rooms={"A": "Attic", "B": "Bar"}, starts={"1": "Miss Scarlet"}, passages=(("Attic", "Roof"),))
    message = problem(TINY, legend)
    assert message.startswith("tiny.txt")
    assert "Roof" in message and "passage" in message


def test_a_room_without_door_or_passage() -> None:
    legend = Legend(rooms={"A": "Attic", "B": "Bar"}, starts={"1": "Miss Scarlet"})
    message = problem(TINY.replace("BBb", "BBB"), legend)
    assert message.startswith("tiny.txt")
    assert "Bar" in message and "door" in message


@pytest.mark.parametrize("text", ["", "# only a comment\n\n"])
def test_a_map_without_rows(text: str) -> None:
    message = problem(text)
    assert message.startswith("tiny.txt")
    assert "no grid rows" in message


def test_a_map_file_is_read_from_its_path(tmp_path: Path) -> None:
    path = tmp_path / "tiny.txt"
    path.write_text(TINY.replace("AAA...", "AAA....."), encoding="utf-8")
    with pytest.raises(EditionError) as caught:
        read_map(str(path), LEGEND)
    assert str(caught.value).startswith(f"{path}:3: ")


def test_a_missing_map_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.txt"
    with pytest.raises(EditionError) as caught:
        read_map(str(path), LEGEND)
    assert str(caught.value).startswith(str(path))
    assert "cannot read" in str(caught.value)
