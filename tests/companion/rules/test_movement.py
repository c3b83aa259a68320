"""Where a mover may go with a roll, on the Classic board, as the rulebook tells it.

The last part checks :func:`destinations` against a naive enumeration of every
self-avoiding walk, written here independently of the engine's pruned search.
"""

from __future__ import annotations

from collections.abc import Collection

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.rules.board import Board, Legend, load_board, read_map
from companion.rules.movement import can_move, destinations, reaches

BOARD = load_board("classic")
START_SQUARES = ("h25", "a18", "j1", "o1", "x7", "x20")
ROOMS = BOARD.rooms
EVERYWHERE = tuple(BOARD.squares) + tuple(ROOMS)


def where(start: str, roll: int, occupied: Collection[str] = ()) -> frozenset[str]:
    return destinations(BOARD, start, roll, frozenset(occupied))


# Miss Scarlet's first move


def test_scarlet_rolls_6_and_reaches_the_lounge() -> None:
    assert "Lounge" in where("h25", 6)
    assert reaches(BOARD, "h25", 6, (), "Lounge")


def test_scarlet_rolls_5_and_does_not_reach_the_lounge() -> None:
    assert "Lounge" not in where("h25", 5)
    assert not reaches(BOARD, "h25", 5, (), "Lounge")


def test_a_3_cannot_end_on_h23_a_4_can() -> None:
    assert "h23" not in where("h25", 3)
    assert "h23" in where("h25", 4)


def test_scarlets_6_lists_every_square_six_steps_away_and_the_lounge() -> None:
    assert where("h25", 6) == {"Lounge", "h19", "h21", "h23", "i20", "i22", "i24"}


# Reference distances from boards/classic.txt


REFERENCE = [
    ("h25", "Lounge", 6),
    ("x7", "Conservatory", 5),
    ("x20", "Study", 8),
    ("Dining Room", "Lounge", 4),
    ("Lounge", "Dining Room", 4),
    ("Ballroom", "Conservatory", 4),
    ("Conservatory", "Ballroom", 4),
    ("Billiard Room", "Library", 4),
    ("Library", "Billiard Room", 4),
    ("Hall", "Study", 4),
    ("Study", "Hall", 4),
]


@pytest.mark.parametrize(("start", "room", "roll"), REFERENCE)
def test_a_room_is_reached_with_its_reference_distance_and_not_one_less(start: str, room: str, roll: int) -> None:
    assert room in where(start, roll)
    assert room not in where(start, roll - 1)
    assert reaches(BOARD, start, roll, (), room)
    assert not reaches(BOARD, start, roll - 1, (), room)


# Rooms: no exact roll, doors cost a step, entering ends the move


@pytest.mark.parametrize("roll", range(6, 13))
def test_entering_a_room_needs_no_exact_roll(roll: int) -> None:
    assert "Lounge" in where("h25", roll)


def test_a_mover_in_front_of_a_door_enters_with_a_1() -> None:
    assert where("h20", 1) == {"Lounge", "h19", "h21", "i20"}


def test_leaving_a_room_with_a_1_puts_the_mover_in_front_of_a_door() -> None:
    assert where("Lounge", 1) == {"g19", "h20"}
    assert where("Hall", 1) == {"l18", "m18", "p21"}


def test_entering_a_room_ends_the_move_so_the_ballroom_is_no_shortcut() -> None:
    # h6 and q6 face the Ballroom's two side doors; round by the hallway they are 15 apart.
    assert "Ballroom" in where("h6", 6)
    assert all("q6" not in where("h6", roll) for roll in range(1, 13))


def test_a_secret_passage_is_not_a_roll() -> None:
    assert "Study" not in where("Kitchen", 6)
    assert "Lounge" not in where("Conservatory", 6)


# Other movers


def test_a_mover_may_not_land_on_an_occupied_square() -> None:
    assert "h23" not in where("h25", 4, {"h23"})


def test_a_mover_may_not_pass_through_an_occupied_square() -> None:
    assert where("h25", 3) == {"h22", "i23"}
    assert where("h25", 3, {"h23"}) == {"i23"}


def test_a_mover_on_h24_shuts_scarlet_in_her_start_nook() -> None:
    assert all(where("h25", roll, {"h24"}) == frozenset() for roll in range(1, 13))


def test_a_mover_in_front_of_the_lounge_door_keeps_scarlets_6_out() -> None:
    assert "Lounge" not in where("h25", 6, {"h20"})
    assert "Lounge" in where("h25", 10, {"h20"})  # round by i19, h19 and g19


def test_rooms_hold_any_number_of_movers() -> None:
    assert "Lounge" in where("h25", 6, {"Lounge", "Hall"})


def test_a_mover_does_not_block_itself() -> None:
    assert where("h25", 4, {"h25"}) == where("h25", 4)


@pytest.mark.parametrize("roll", range(1, 7))
def test_a_mover_in_the_kitchen_with_its_one_exit_occupied_stays(roll: int) -> None:
    assert where("Kitchen", roll, {"e8"}) == frozenset()


@pytest.mark.parametrize("roll", range(1, 7))
def test_a_mover_in_the_lounge_with_both_exits_occupied_stays(roll: int) -> None:
    assert where("Lounge", roll, {"g19", "h20"}) == frozenset()
    assert where("Lounge", roll, {"g19"}) != frozenset()


def test_a_mover_leaves_by_a_free_door_when_another_is_occupied() -> None:
    assert where("Lounge", 1, {"h20"}) == {"g19"}


# The room just left, and squares never visited twice


@pytest.mark.parametrize("room", ROOMS)
def test_the_room_just_left_is_never_a_destination(room: str) -> None:
    assert all(room not in where(room, roll) for roll in range(1, 13))


def test_a_2_cannot_go_out_and_back() -> None:
    assert where("h25", 2) == {"h23", "i24"}


def test_leaving_the_kitchen_with_a_3_cannot_step_back_onto_e8() -> None:
    assert where("Kitchen", 2) == {"d8", "e9", "f8"}
    assert "e8" not in where("Kitchen", 3)


def test_two_rooms_facing_one_square_are_two_steps_apart() -> None:
    legend = Legend(rooms={"A": "Attic", "B": "Bar"})
    tiny = read_map("tiny.txt", legend, text="AAA##\nAAa..\nBBBb.\nBBBB.\n")
    assert destinations(tiny, "Attic", 1, ()) == {"d2"}
    assert destinations(tiny, "Attic", 2, ()) == {"Bar", "e2"}
    assert destinations(tiny, "Bar", 1, ()) == {"d2", "e3"}
    assert "Attic" in destinations(tiny, "Bar", 2, ())
    assert destinations(tiny, "Attic", 2, {"d2"}) == frozenset()


@pytest.mark.parametrize("roll", [1, 3, 5])
def test_an_odd_roll_never_ends_an_even_distance_away(roll: int) -> None:
    here = BOARD.index["m18"]
    for square in where("m18", roll):
        if square in BOARD.index:
            assert BOARD.distances[here][BOARD.index[square]] % 2 == 1


# A naive enumerator, independent of the engine's pruned search


def naive_destinations(board: Board, start: str, roll: int, occupied: Collection[str]) -> set[str]:
    """Walk every self-avoiding path; a room counts if its door is one step past a prefix."""
    blocked = {board.index[square] for square in occupied if square in board.index}
    found: set[str] = set()

    def walk(square: int, used: int, visited: frozenset[int]) -> None:
        if used == roll:
            found.add(board.squares[square])
            return
        found.update(room for room in board.doors[square] if room != start)
        for there in board.neighbours[square]:
            if there not in visited and there not in blocked:
                walk(there, used + 1, visited | {there})

    if start in board.index:
        here = board.index[start]
        blocked.discard(here)
        walk(here, 0, frozenset({here}))
    else:
        for square in board.exits[start]:
            if square not in blocked:
                walk(square, 1, frozenset({square}))
    return found


@pytest.mark.parametrize("start", EVERYWHERE)
def test_destinations_match_every_self_avoiding_walk(start: str) -> None:
    for roll in range(1, 7):
        assert where(start, roll) == naive_destinations(BOARD, start, roll, ()), roll


@pytest.mark.parametrize("start", START_SQUARES + ROOMS)
def test_reaches_agrees_with_destinations_for_every_target(start: str) -> None:
    occupied = frozenset({"h23", "g17", "q6", "r20"}) - {start}
    for roll in range(1, 7):
        for blockers in (frozenset(), occupied):
            found = where(start, roll, blockers)
            for target in EVERYWHERE:
                assert reaches(BOARD, start, roll, blockers, target) == (target in found), (roll, target)


@settings(max_examples=300, deadline=None)
@given(
    start=st.sampled_from(START_SQUARES + ROOMS) | st.sampled_from(BOARD.squares),
    roll=st.integers(min_value=1, max_value=12),
    occupied=st.frozensets(st.sampled_from(BOARD.squares), max_size=12),
)
def test_destinations_match_the_naive_walk_among_other_movers(
    start: str, roll: int, occupied: frozenset[str]
) -> None:
    found = where(start, roll, occupied)
    assert found == naive_destinations(BOARD, start, roll, occupied)
    assert not found & (occupied - {start})
    for target in sorted(found)[:5] + [square for square in BOARD.squares[::17] if square not in found]:
        assert reaches(BOARD, start, roll, occupied, target) == (target in found)
    assert can_move(BOARD, start, roll, occupied) == bool(found)


def test_a_mover_hemmed_in_by_other_movers_cannot_move() -> None:
    assert not can_move(BOARD, "h25", 3, {"h24"})
    assert not can_move(BOARD, "Kitchen", 4, {"e8"})
    assert can_move(BOARD, "Kitchen", 4, set()) and can_move(BOARD, "h25", 3, {"g24"})


# The command line helper


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_cli_lists_scarlets_destinations_for_a_6(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(["destinations", "h25", "6"], capsys)
    assert (code, err) == (0, "")
    assert lines == ["Lounge", "h19", "h21", "h23", "i20", "i22", "i24"]


def test_cli_names_rooms_and_squares_as_players_type_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["destinations", "the lounge", "1"], capsys) == (0, ["g19", "h20"], "")
    assert run(["destinations", "H25", "2", "--edition", "Classic"], capsys) == (0, ["h23", "i24"], "")


def test_cli_respects_occupied_squares(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["destinations", "h25", "3", "--occupied", "h23"], capsys) == (0, ["i23"], "")
    assert run(["destinations", "Kitchen", "4", "--occupied", "E8"], capsys) == (0, [], "")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["destinations", "z99", "3"], "z99"),
        (["destinations", "k12", "3"], "k12"),
        (["destinations", "the cellar", "3"], "cellar"),
        (["destinations", "h25", "0"], "0"),
        (["destinations", "h25", "3", "--occupied", "q99"], "q99"),
        (["destinations", "h25", "3", "--edition", "monopoly"], "monopoly"),
        (["destinations", "h25", "3", "--edition", "doctor_who"], "h25"),
    ],
)
def test_cli_bad_input_is_one_line_on_stderr_and_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines, err = run(argv, capsys)
    assert code == 2 and lines == []
    assert err.count("\n") == 1 and err.startswith("clue-companion: ")
    assert needle in err and "Traceback" not in err


def test_cli_a_roll_that_is_not_a_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["destinations", "h25", "six"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "six" in err and "Traceback" not in err
