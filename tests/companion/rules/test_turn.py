"""Scenario tests for the moving part of a turn: who plays, rolling, moving, passages, ending.

Distances are those of ``boards/classic.txt`` (a door costs one step): Scarlet's
start h25 is 6 from the Lounge, whose doorway squares are g19 and h20; the
Lounge's door is 4 from the Dining Room's; Mrs. Peacock's start is 5 from the
Conservatory.
"""

from __future__ import annotations

import pytest
from games import (GREEN, MUSTARD, PEACOCK, PLUM, SCARLET, WHITE, deal_for, game, of_type, play, rejected,
                   scarlet_brings_mustard_into_the_lounge, start, turn, types, where)

from companion import ClueError, EndTurn, GameState, Move, Roll, Show, Suggest, legal_destinations, public_view

# -- a few openings used below ------------------------------------------------


def scarlet_in_the_lounge() -> GameState:
    """Scarlet rolled 6 into the Lounge; Mustard (b18) and White (j2) stepped out; Scarlet is on turn."""
    state, _ = play(
        game(),
        turn(SCARLET, 6, "Lounge"),
        turn(MUSTARD, 1, "b18"),
        turn(WHITE, 1, "j2"),
    )
    return state


def mustard_on_the_lounge_doorway() -> GameState:
    """Scarlet is in the Lounge on turn; Mustard, brought there by her suggestion, stepped out onto h20."""
    state, _ = play(
        game(),
        scarlet_brings_mustard_into_the_lounge(),
        EndTurn(SCARLET),
        turn(MUSTARD, 1, "h20"),
        turn(WHITE, 1, "j2"),
    )
    return state


def mustard_blocked_in_the_lounge() -> GameState:
    """Mustard is in the Lounge on turn, White stands on h20 and Scarlet on g19: both doorways."""
    state, _ = play(
        game(),
        # Scarlet enters the Lounge and brings Mustard in with her suggestion.
        scarlet_brings_mustard_into_the_lounge(),
        EndTurn(SCARLET),
        # Mustard suggests where he was brought, without moving, and brings White in.
        Suggest(MUSTARD, WHITE, "Rope"),
        Show(WHITE, "Rope"),
        EndTurn(MUSTARD),
        # White and then Scarlet step out onto the two doorway squares.
        turn(WHITE, 1, "h20"),
        turn(SCARLET, 1, "g19"),
    )
    return state


# -- order of play -----------------------------------------------------------


def test_miss_scarlet_moves_first_wherever_she_sits() -> None:
    state, events = start(seats=(MUSTARD, WHITE, SCARLET), deal=None)
    assert events[-1] == {"type": "turn_started", "seat": SCARLET}
    assert public_view(state)["turn"] == SCARLET


def test_play_goes_clockwise_from_miss_scarlet() -> None:
    state = game(seats=(MUSTARD, SCARLET, WHITE, GREEN), deal=None)
    state, events = play(
        state,
        turn(SCARLET, 1, "h24"),
        turn(WHITE, 1, "j2"),
        turn(GREEN, 1, "o2"),
        turn(MUSTARD, 1, "b18"),
    )
    started = [event["seat"] for event in of_type(events, "turn_started")]
    assert started == [WHITE, GREEN, MUSTARD, SCARLET]


@pytest.mark.parametrize(
    ("seats", "first"),
    [
        ((PLUM, WHITE, GREEN), WHITE),
        ((PEACOCK, GREEN, PLUM), GREEN),
        ((PLUM, PEACOCK, MUSTARD), MUSTARD),
        ((PLUM, PEACOCK, GREEN, WHITE, MUSTARD), MUSTARD),
    ],
)
def test_without_miss_scarlet_the_next_suspect_in_order_moves_first(seats: tuple[str, ...], first: str) -> None:
    state, events = start(seats=seats, deal=None)
    assert events[-1] == {"type": "turn_started", "seat": first}
    assert public_view(state)["turn"] == first


def test_without_miss_scarlet_the_table_may_choose_who_moves_first() -> None:
    state, events = start(seats=(GREEN, PEACOCK, PLUM), deal=None, first=PLUM)
    assert events[-1] == {"type": "turn_started", "seat": PLUM}
    state, events = play(state, turn(PLUM, 1, "w20"))
    assert events[-1] == {"type": "turn_started", "seat": GREEN}


def test_mrs_peacock_chosen_to_start_rolls_5_and_enters_the_conservatory() -> None:
    state = game(seats=(GREEN, PEACOCK, PLUM), deal=None, first=PEACOCK)
    state, _ = play(state, Roll(PEACOCK, (5,)))
    assert "Conservatory" in legal_destinations(state)
    state, events = play(state, Move(PEACOCK, "Conservatory"))
    assert events == [{"type": "moved", "seat": PEACOCK, "to": "Conservatory", "via": "roll"}]


def test_mrs_peacock_rolling_4_cannot_reach_the_conservatory() -> None:
    state = game(seats=(GREEN, PEACOCK, PLUM), deal=None, first=PEACOCK)
    state, _ = play(state, Roll(PEACOCK, (4,)))
    assert "Conservatory" not in legal_destinations(state)
    assert rejected(state, Move(PEACOCK, "Conservatory")) == "illegal_move"


def test_when_miss_scarlet_plays_nobody_else_may_be_chosen_to_start() -> None:
    with pytest.raises(ClueError) as refusal:
        start(first=MUSTARD)
    assert refusal.value.code == "bad_input"


def test_choosing_miss_scarlet_to_start_when_she_plays_is_accepted() -> None:
    _, events = start(first=SCARLET)
    assert events[-1] == {"type": "turn_started", "seat": SCARLET}


def test_the_chosen_first_player_must_be_seated() -> None:
    with pytest.raises(ClueError) as refusal:
        start(seats=(GREEN, PEACOCK, PLUM), deal=None, first=WHITE)
    assert refusal.value.code == "unknown_seat"


# -- rolling and moving ------------------------------------------------------


def test_scarlet_rolls_6_and_enters_the_lounge() -> None:
    state, events = play(game(), Roll(SCARLET, (6,)))
    assert events == [{"type": "rolled", "seat": SCARLET, "dice": [6], "total": 6}]
    assert "Lounge" in legal_destinations(state)
    state, events = play(state, Move(SCARLET, "Lounge"))
    assert events == [{"type": "moved", "seat": SCARLET, "to": "Lounge", "via": "roll"}]
    assert where(state, SCARLET) == "Lounge"


def test_scarlet_rolling_5_cannot_reach_the_lounge() -> None:
    state, _ = play(game(), Roll(SCARLET, (5,)))
    assert "Lounge" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Lounge")) == "illegal_move"


def test_scarlet_rolling_5_reaches_the_lounge_doorway_h20() -> None:
    state, events = play(game(), Roll(SCARLET, (5,)), Move(SCARLET, "h20"))
    assert events[-1] == {"type": "moved", "seat": SCARLET, "to": "h20", "via": "roll"}
    assert where(state, SCARLET) == "h20"


def test_scarlet_rolling_3_cannot_end_on_h23() -> None:
    state, _ = play(game(), Roll(SCARLET, (3,)))
    assert "h23" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "h23")) == "illegal_move"


def test_scarlet_rolling_4_may_end_on_h23_by_a_detour() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h23"))
    assert where(state, SCARLET) == "h23"


def test_scarlet_rolling_4_has_exactly_four_squares_to_choose_from() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)))
    assert legal_destinations(state) == ("h21", "h23", "i22", "i24")
    assert public_view(state)["legal_destinations"] == ["h21", "h23", "i22", "i24"]


def test_scarlet_must_use_her_whole_roll_in_the_hallway() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)))
    # h24 and h22 lie an odd number of steps away: no walk of exactly 6 ends there.
    assert rejected(state, Move(SCARLET, "h24")) == "illegal_move"
    assert rejected(state, Move(SCARLET, "h22")) == "illegal_move"
    # Nor may she come back to her own square: no square twice in one move.
    assert rejected(state, Move(SCARLET, "h25")) == "illegal_move"


def test_scarlet_rolls_4_from_the_lounge_and_enters_the_dining_room() -> None:
    state, _ = play(scarlet_in_the_lounge(), Roll(SCARLET, (4,)))
    assert "Dining Room" in legal_destinations(state)
    state, events = play(state, Move(SCARLET, "dining room"))
    assert events == [{"type": "moved", "seat": SCARLET, "to": "Dining Room", "via": "roll"}]


def test_scarlet_rolling_3_from_the_lounge_cannot_reach_the_dining_room() -> None:
    state, _ = play(scarlet_in_the_lounge(), Roll(SCARLET, (3,)))
    assert "Dining Room" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Dining Room")) == "illegal_move"


def test_scarlet_rolling_6_enters_the_dining_room_without_an_exact_roll() -> None:
    state, _ = play(scarlet_in_the_lounge(), Roll(SCARLET, (6,)), Move(SCARLET, "Dining Room"))
    assert where(state, SCARLET) == "Dining Room"


def test_scarlet_may_not_land_on_mustard() -> None:
    state, _ = play(mustard_on_the_lounge_doorway(), Roll(SCARLET, (1,)))
    assert legal_destinations(state) == ("g19",)
    assert rejected(state, Move(SCARLET, "h20")) == "illegal_move"


def test_scarlet_may_not_pass_through_mustard() -> None:
    state, _ = play(mustard_on_the_lounge_doorway(), Roll(SCARLET, (2,)))
    # h21 is two steps from the Lounge, but only through h20, where Mustard stands.
    assert "h21" not in legal_destinations(state)
    assert "h19" in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "h21")) == "illegal_move"


def test_a_rejected_move_leaves_the_roll_to_be_used() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)))
    assert rejected(state, Move(SCARLET, "h24")) == "illegal_move"
    state, events = play(state, Move(SCARLET, "Lounge"))
    assert types(events) == ["moved"]


# -- re-entering the room just left ---------------------------------------------


def test_scarlet_may_not_re_enter_the_lounge_she_just_left() -> None:
    state, _ = play(scarlet_in_the_lounge(), Roll(SCARLET, (3,)))
    assert "Lounge" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Lounge")) == "illegal_move"


def test_scarlet_rolling_1_in_the_lounge_must_step_out() -> None:
    state, _ = play(scarlet_in_the_lounge(), Roll(SCARLET, (1,)))
    assert legal_destinations(state) == ("g19", "h20")


def test_scarlet_re_enters_the_lounge_on_her_next_turn_and_may_suggest_again() -> None:
    state, _ = play(
        scarlet_in_the_lounge(),
        turn(SCARLET, 1, "h20"),
        turn(MUSTARD, 1, "c18"),
        turn(WHITE, 1, "i2"),
        Roll(SCARLET, (1,)),
    )
    assert "Lounge" in legal_destinations(state)
    state, events = play(state, Move(SCARLET, "Lounge"), Suggest(SCARLET, PLUM, "Wrench"))
    assert of_type(events, "suggested") == [
        {"type": "suggested", "seat": SCARLET, "suspect": PLUM, "weapon": "Wrench", "room": "Lounge"}
    ]


# -- secret passages ---------------------------------------------------------


def test_before_rolling_scarlet_in_the_lounge_may_take_the_passage_to_the_conservatory() -> None:
    assert legal_destinations(scarlet_in_the_lounge()) == ("Conservatory",)


def test_scarlet_takes_the_secret_passage_from_the_lounge_to_the_conservatory() -> None:
    state, events = play(scarlet_in_the_lounge(), Move(SCARLET, "Conservatory"))
    assert events == [{"type": "moved", "seat": SCARLET, "to": "Conservatory", "via": "passage"}]
    assert where(state, SCARLET) == "Conservatory"


def test_the_passage_counts_as_entering_so_scarlet_may_suggest_in_the_conservatory() -> None:
    state, events = play(
        scarlet_in_the_lounge(), Move(SCARLET, "Conservatory"), Suggest(SCARLET, PLUM, "Wrench")
    )
    assert of_type(events, "suggested") == [
        {"type": "suggested", "seat": SCARLET, "suspect": PLUM, "weapon": "Wrench", "room": "Conservatory"}
    ]


def test_scarlet_may_not_roll_after_taking_the_passage() -> None:
    state, _ = play(scarlet_in_the_lounge(), Move(SCARLET, "Conservatory"))
    assert rejected(state, Roll(SCARLET, (3,))) == "wrong_phase"


def test_scarlet_may_end_her_turn_after_taking_the_passage() -> None:
    state, events = play(scarlet_in_the_lounge(), Move(SCARLET, "Conservatory"), EndTurn(SCARLET))
    assert events[-1] == {"type": "turn_started", "seat": MUSTARD}


def test_the_passage_is_taken_instead_of_rolling_not_after() -> None:
    state, _ = play(scarlet_in_the_lounge(), Roll(SCARLET, (3,)))
    assert "Conservatory" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Conservatory")) == "illegal_move"


def test_the_passage_from_the_conservatory_leads_back_to_the_lounge() -> None:
    state, _ = play(
        scarlet_in_the_lounge(),
        Move(SCARLET, "Conservatory"),
        EndTurn(SCARLET),
        turn(MUSTARD, 1, "c18"),
        turn(WHITE, 1, "i2"),
    )
    assert legal_destinations(state) == ("Lounge",)
    state, events = play(state, Move(SCARLET, "Lounge"))
    assert events == [{"type": "moved", "seat": SCARLET, "to": "Lounge", "via": "passage"}]


def test_professor_plum_takes_the_secret_passage_from_the_study_to_the_kitchen() -> None:
    seats = (SCARLET, PLUM, WHITE)
    state, _ = play(
        game(seats=seats, deal=deal_for(seats)),
        turn(SCARLET, 1, "h24"),
        turn(PLUM, 6, "s21"),
        turn(WHITE, 1, "j2"),
        turn(SCARLET, 1, "h23"),
        turn(PLUM, 2, "Study"),
        turn(WHITE, 1, "i2"),
        turn(SCARLET, 1, "h22"),
    )
    assert where(state, PLUM) == "Study"
    assert legal_destinations(state) == ("Kitchen",)
    state, events = play(state, Move(PLUM, "Kitchen"), Suggest(PLUM, PLUM, "Wrench"))
    assert events[0] == {"type": "moved", "seat": PLUM, "to": "Kitchen", "via": "passage"}
    assert events[1] == {"type": "suggested", "seat": PLUM, "suspect": PLUM, "weapon": "Wrench", "room": "Kitchen"}
    # Nobody holds Plum, the Wrench or the Kitchen: they are the envelope.
    assert events[-3:] == [
        {"type": "passed", "seat": WHITE},
        {"type": "passed", "seat": SCARLET},
        {"type": "no_refutation", "suggester": PLUM},
    ]


def test_from_a_start_square_there_is_no_passage_to_take() -> None:
    state = game()
    assert legal_destinations(state) == ()
    assert rejected(state, Move(SCARLET, "Conservatory")) == "illegal_move"


def test_without_rolling_scarlet_may_not_walk_into_the_hallway() -> None:
    assert rejected(game(), Move(SCARLET, "h24")) == "illegal_move"
    assert rejected(scarlet_in_the_lounge(), Move(SCARLET, "h20")) == "illegal_move"


def test_the_lounge_has_no_passage_to_the_dining_room() -> None:
    assert rejected(scarlet_in_the_lounge(), Move(SCARLET, "Dining Room")) == "illegal_move"


# -- blocked in --------------------------------------------------------------


def test_mustard_in_the_lounge_is_blocked_in_by_white_and_scarlet() -> None:
    state = mustard_blocked_in_the_lounge()
    assert (where(state, WHITE), where(state, SCARLET), where(state, MUSTARD)) == ("h20", "g19", "Lounge")
    state, events = play(state, Roll(MUSTARD, (6,)))
    assert events == [
        {"type": "rolled", "seat": MUSTARD, "dice": [6], "total": 6},
        {"type": "blocked", "seat": MUSTARD},
    ]
    assert legal_destinations(state) == ()
    assert where(state, MUSTARD) == "Lounge"


def test_blocked_mustard_stays_and_may_end_his_turn() -> None:
    state, _ = play(mustard_blocked_in_the_lounge(), Roll(MUSTARD, (1,)))
    assert rejected(state, Move(MUSTARD, "g19")) == "wrong_phase"
    state, events = play(state, EndTurn(MUSTARD))
    assert events == [{"type": "turn_started", "seat": WHITE}]
    assert where(state, MUSTARD) == "Lounge"


def test_blocked_mustard_may_still_take_the_secret_passage_instead_of_rolling() -> None:
    state = mustard_blocked_in_the_lounge()
    assert legal_destinations(state) == ("Conservatory",)
    state, events = play(state, Move(MUSTARD, "Conservatory"))
    assert events == [{"type": "moved", "seat": MUSTARD, "to": "Conservatory", "via": "passage"}]


# -- ending the turn ---------------------------------------------------------


def test_scarlet_ends_her_turn_and_mustard_on_her_left_plays() -> None:
    state, events = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h21"), EndTurn(SCARLET))
    assert events[-1] == {"type": "turn_started", "seat": MUSTARD}
    assert public_view(state)["turn"] == MUSTARD


def test_after_white_the_turn_comes_back_to_scarlet() -> None:
    state, events = play(game(), turn(SCARLET, 4, "h21"), turn(MUSTARD, 1, "b18"), turn(WHITE, 1, "j2"))
    assert events[-1] == {"type": "turn_started", "seat": SCARLET}


def test_scarlet_may_end_her_turn_in_a_room_without_suggesting() -> None:
    state, events = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), EndTurn(SCARLET))
    assert types(events) == ["rolled", "moved", "turn_started"]


def test_scarlet_may_not_end_her_turn_before_rolling() -> None:
    assert rejected(game(), EndTurn(SCARLET)) == "wrong_phase"


def test_scarlet_may_not_end_her_turn_after_rolling_but_before_moving() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)))
    assert rejected(state, EndTurn(SCARLET)) == "wrong_phase"


def test_scarlet_in_a_room_may_not_end_her_turn_without_moving() -> None:
    assert rejected(scarlet_in_the_lounge(), EndTurn(SCARLET)) == "wrong_phase"


# -- not your turn, wrong phase ------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [Roll(MUSTARD, (3,)), Move(MUSTARD, "b18"), EndTurn(MUSTARD), Roll(WHITE), Suggest(WHITE, PLUM, "Rope")],
    ids=["roll", "move", "end_turn", "seeded_roll", "suggest"],
)
def test_mustard_and_white_wait_for_scarlets_turn(action: Roll | Move | EndTurn | Suggest) -> None:
    assert rejected(game(), action) == "not_your_turn"


def test_scarlet_may_not_act_once_her_turn_has_ended() -> None:
    state, _ = play(game(), turn(SCARLET, 4, "h21"))
    assert rejected(state, Roll(SCARLET, (3,))) == "not_your_turn"


def test_scarlet_may_not_roll_twice() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)))
    assert rejected(state, Roll(SCARLET, (6,))) == "wrong_phase"


def test_scarlet_may_not_roll_after_moving() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h21"))
    assert rejected(state, Roll(SCARLET, (2,))) == "wrong_phase"


def test_scarlet_may_not_move_twice() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h21"))
    assert rejected(state, Move(SCARLET, "h20")) == "wrong_phase"


@pytest.mark.parametrize("name", [GREEN, "Mr. Boddy", "Rope"])
def test_only_seated_suspects_take_turns(name: str) -> None:
    assert rejected(game(), Roll(name, (3,))) == "unknown_seat"


def test_seats_are_named_case_insensitively() -> None:
    state, events = play(game(), Roll("miss scarlet", (6,)), Move("MISS SCARLET", "lounge"))
    assert events[-1] == {"type": "moved", "seat": SCARLET, "to": "Lounge", "via": "roll"}


@pytest.mark.parametrize(
    "dice", [(0,), (7,), (3, 4), (), (True,)], ids=["zero", "seven", "two_dice", "none", "a_boolean"]
)
def test_classic_rolls_one_die_from_1_to_6(dice: tuple[int, ...]) -> None:
    assert rejected(game(), Roll(SCARLET, dice)) == "bad_input"


# -- dice given or rolled ----------------------------------------------------


def test_given_dice_are_used_as_given() -> None:
    for face in range(1, 7):
        _, events = play(game(), Roll(SCARLET, (face,)))
        assert events == [{"type": "rolled", "seat": SCARLET, "dice": [face], "total": face}]


def test_without_dice_scarlet_rolls_the_seeded_die() -> None:
    state, events = play(game(), Roll(SCARLET))
    (rolled,) = events
    assert rolled["type"] == "rolled" and rolled["seat"] == SCARLET
    assert len(rolled["dice"]) == 1 and 1 <= rolled["dice"][0] <= 6
    assert rolled["total"] == rolled["dice"][0]
    assert public_view(state)["dice"] == rolled["dice"]
    assert legal_destinations(state)


def rolls_of_a_game(seed: int, turns: int = 12) -> list[int]:
    """Play ``turns`` turns with the engine's own dice, each mover taking its first destination."""
    state = game(seed=seed)
    faces = []
    for _ in range(turns):
        seat = public_view(state)["turn"]
        state, events = play(state, Roll(seat))
        faces.extend(of_type(events, "rolled")[0]["dice"])
        if "blocked" not in types(events):
            state, _ = play(state, Move(seat, legal_destinations(state)[0]))
        state, _ = play(state, EndTurn(seat))
    return faces


def test_the_same_seed_rolls_the_same_dice() -> None:
    assert rolls_of_a_game(11) == rolls_of_a_game(11)


def test_another_seed_rolls_other_dice() -> None:
    assert rolls_of_a_game(11) != rolls_of_a_game(12)


def test_dice_given_do_not_use_up_the_seeded_dice() -> None:
    # Whatever Scarlet's given die showed, Mustard's seeded die comes out the same.
    after_a_4, _ = play(game(seed=3), turn(SCARLET, 4, "h21"))
    after_a_6, _ = play(game(seed=3), turn(SCARLET, 6, "Lounge"))
    assert play(after_a_4, Roll(MUSTARD))[1] == play(after_a_6, Roll(MUSTARD))[1]
