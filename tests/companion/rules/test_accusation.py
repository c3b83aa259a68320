"""Scenario tests for accusations: right wins, wrong is out but keeps refuting, all out ends the game.

The table (see ``games.py``): clockwise Scarlet, Mustard, White; the envelope
holds Professor Plum, the Wrench and the Kitchen.
"""

from __future__ import annotations

import pytest
from games import (GREEN, MUSTARD, PLUM, SCARLET, SOLUTION, WHITE, game, of_type, play, rejected,
                   scarlet_brings_mustard_into_the_lounge, turn, types, where)

from companion import (Accuse, Action, EndTurn, GameState, Move, Pass, Roll, Show, Suggest, legal_destinations,
                       public_view, seat_view)

RIGHT = (PLUM, "Wrench", "Kitchen")


def right(seat: str) -> Accuse:
    return Accuse(seat, *RIGHT)


def wrong(seat: str) -> Accuse:
    return Accuse(seat, GREEN, "Rope", "Hall")


def scarlet_accused_wrongly() -> GameState:
    """Scarlet, on h21, accused wrongly and has not yet ended her turn."""
    state, _ = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h21"), wrong(SCARLET))
    return state


def scarlet_is_out() -> GameState:
    """Scarlet accused wrongly and ended her turn; Mustard is on turn."""
    state, _ = play(scarlet_accused_wrongly(), EndTurn(SCARLET))
    return state


def everyone_but_white_is_out() -> GameState:
    state, _ = play(scarlet_is_out(), wrong(MUSTARD), EndTurn(MUSTARD))
    return state


def game_won_by_scarlet() -> GameState:
    state, _ = play(game(), right(SCARLET))
    return state


def game_lost_by_all() -> GameState:
    state, _ = play(everyone_but_white_is_out(), wrong(WHITE))
    return state


# -- a right accusation --------------------------------------------------------


def test_scarlet_accuses_plum_with_the_wrench_in_the_kitchen_and_wins() -> None:
    state, events = play(game(), right(SCARLET))
    assert events == [
        {"type": "accused", "seat": SCARLET, "suspect": PLUM, "weapon": "Wrench", "room": "Kitchen", "correct": True},
        {"type": "game_over", "winner": SCARLET, "solution": SOLUTION},
    ]
    view = public_view(state)
    assert view["winner"] == SCARLET
    assert view["turn"] is None


def test_the_solution_is_revealed_to_everyone_when_scarlet_wins() -> None:
    state = game_won_by_scarlet()
    assert public_view(state)["solution"] == SOLUTION
    for seat in state.seats:
        assert seat_view(state, seat)["solution"] == SOLUTION
        assert seat_view(state, seat)["record"][-1] == {"type": "game_over", "winner": SCARLET, "solution": SOLUTION}


def test_the_solution_is_hidden_from_every_view_before_the_game_is_over() -> None:
    for state in (game(), scarlet_accused_wrongly(), scarlet_is_out()):
        assert public_view(state)["solution"] is None
        for seat in state.seats:
            assert seat_view(state, seat)["solution"] is None


def test_scarlet_may_accuse_from_the_hallway() -> None:
    state, events = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h21"), right(SCARLET))
    assert events[-1] == {"type": "game_over", "winner": SCARLET, "solution": SOLUTION}


def test_scarlet_in_the_lounge_may_accuse_the_kitchen() -> None:
    state, events = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), right(SCARLET))
    assert events[-1] == {"type": "game_over", "winner": SCARLET, "solution": SOLUTION}


def test_scarlet_may_accuse_after_rolling_before_moving() -> None:
    state, events = play(game(), Roll(SCARLET, (3,)), right(SCARLET))
    assert events[-1]["type"] == "game_over"


def test_scarlet_may_accuse_right_after_her_own_suggestion() -> None:
    state, events = play(
        game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, PLUM, "Wrench"), right(SCARLET)
    )
    assert types(events)[-3:] == ["no_refutation", "accused", "game_over"]


def test_scarlet_may_accuse_once_white_has_shown_her_a_card() -> None:
    state, events = play(
        game(),
        Roll(SCARLET, (6,)),
        Move(SCARLET, "Lounge"),
        Suggest(SCARLET, WHITE, "Rope"),
        Show(WHITE, "Rope"),
        right(SCARLET),
    )
    assert types(events)[-3:] == ["card_shown", "accused", "game_over"]


def test_scarlet_may_not_accuse_while_white_must_show_her_a_card() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, WHITE, "Rope"))
    assert rejected(state, right(SCARLET)) == "wrong_phase"


def test_mustard_may_not_accuse_on_scarlets_turn() -> None:
    assert rejected(game(), right(MUSTARD)) == "not_your_turn"


def test_white_who_must_show_may_not_accuse_on_scarlets_turn() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, WHITE, "Rope"))
    assert rejected(state, right(WHITE)) == "not_your_turn"


def test_mustard_accuses_rightly_on_his_own_turn() -> None:
    state, events = play(game(), turn(SCARLET, 4, "h21"), right(MUSTARD))
    assert events[-1] == {"type": "game_over", "winner": MUSTARD, "solution": SOLUTION}


def test_an_accusation_names_cards_case_insensitively() -> None:
    _, events = play(game(), Accuse(SCARLET, "professor plum", "WRENCH", "kitchen"))
    assert events[0]["correct"] is True


@pytest.mark.parametrize(
    "names",
    [("Mr. Boddy", "Wrench", "Kitchen"), (PLUM, "Poison", "Kitchen"), (PLUM, "Wrench", "Cellar"), (PLUM, "Kitchen", "Wrench")],
    ids=["no_such_suspect", "no_such_weapon", "no_such_room", "swapped"],
)
def test_an_accusation_names_a_classic_suspect_weapon_and_room(names: tuple[str, str, str]) -> None:
    assert rejected(game(), Accuse(SCARLET, *names)) == "unknown_card"


def test_each_card_of_the_accusation_must_be_right() -> None:
    for guess in ((GREEN, "Wrench", "Kitchen"), (PLUM, "Rope", "Kitchen"), (PLUM, "Wrench", "Hall")):
        _, events = play(game(), Accuse(SCARLET, *guess))
        assert events[0]["correct"] is False
        assert types(events) == ["accused", "eliminated"]


# -- a wrong accusation ---------------------------------------------------------


def test_scarlet_accuses_mr_green_wrongly_and_is_out() -> None:
    state, _ = play(game(), Roll(SCARLET, (4,)), Move(SCARLET, "h21"))
    state, events = play(state, wrong(SCARLET))
    assert events == [
        {"type": "accused", "seat": SCARLET, "suspect": GREEN, "weapon": "Rope", "room": "Hall", "correct": False},
        {"type": "eliminated", "seat": SCARLET},
    ]
    view = public_view(state)
    assert view["eliminated"] == [SCARLET]
    assert view["winner"] is None
    assert view["solution"] is None
    assert where(state, SCARLET) == "h21"


def test_scarlet_may_accuse_wrongly_right_after_her_own_suggestion() -> None:
    state, events = play(
        game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"), Suggest(SCARLET, PLUM, "Wrench"), wrong(SCARLET)
    )
    assert types(events)[-2:] == ["accused", "eliminated"]
    _, events = play(state, EndTurn(SCARLET))
    assert events == [{"type": "turn_started", "seat": MUSTARD}]


def test_after_her_wrong_accusation_scarlet_ends_her_turn() -> None:
    _, events = play(scarlet_accused_wrongly(), EndTurn(SCARLET))
    assert events == [{"type": "turn_started", "seat": MUSTARD}]


@pytest.mark.parametrize(
    "action",
    [Roll(SCARLET, (3,)), Move(SCARLET, "h22"), Suggest(SCARLET, PLUM, "Wrench"), right(SCARLET), wrong(SCARLET)],
    ids=["roll", "move", "suggest", "accuse_right", "accuse_again"],
)
def test_after_her_wrong_accusation_scarlet_may_only_end_her_turn(action: Action) -> None:
    assert rejected(scarlet_accused_wrongly(), action) == "eliminated"


def test_mustard_rolling_takes_over_the_turn_scarlet_did_not_end() -> None:
    state, events = play(scarlet_accused_wrongly(), Roll(MUSTARD, (1,)))
    assert events == [
        {"type": "turn_started", "seat": MUSTARD},
        {"type": "rolled", "seat": MUSTARD, "dice": [1], "total": 1},
    ]
    assert public_view(state)["turn"] == MUSTARD


def test_mustard_may_also_take_over_by_accusing() -> None:
    _, events = play(scarlet_accused_wrongly(), right(MUSTARD))
    assert types(events) == ["turn_started", "accused", "game_over"]
    assert events[-1]["winner"] == MUSTARD


def test_mustard_brought_to_the_lounge_may_take_over_by_suggesting_there() -> None:
    state, _ = play(
        game(),
        scarlet_brings_mustard_into_the_lounge(),
        wrong(SCARLET),
    )
    _, events = play(state, Suggest(MUSTARD, PLUM, "Wrench"))
    assert events[:2] == [
        {"type": "turn_started", "seat": MUSTARD},
        {"type": "suggested", "seat": MUSTARD, "suspect": PLUM, "weapon": "Wrench", "room": "Lounge"},
    ]


def test_mustard_cannot_end_a_turn_he_has_not_begun() -> None:
    assert rejected(scarlet_accused_wrongly(), EndTurn(MUSTARD)) == "wrong_phase"


def test_white_may_not_jump_in_after_scarlets_wrong_accusation() -> None:
    assert rejected(scarlet_accused_wrongly(), Roll(WHITE, (3,))) == "not_your_turn"


@pytest.mark.parametrize(
    "action",
    [Roll(SCARLET, (3,)), EndTurn(SCARLET), right(SCARLET), Suggest(SCARLET, PLUM, "Wrench")],
    ids=["roll", "end_turn", "accuse", "suggest"],
)
def test_scarlet_once_out_may_do_nothing_on_later_turns(action: Action) -> None:
    assert rejected(scarlet_is_out(), action) == "eliminated"


def test_scarlet_once_out_is_skipped_when_her_turn_would_come() -> None:
    state, events = play(scarlet_is_out(), turn(MUSTARD, 1, "b18"), turn(WHITE, 1, "j2"))
    assert [event["seat"] for event in of_type(events, "turn_started")] == [WHITE, MUSTARD]


def test_a_wrong_accuser_on_a_doorway_is_moved_into_the_room() -> None:
    # h20 is in front of the Lounge door; Scarlet must not block it for the rest of the game.
    state, events = play(game(), Roll(SCARLET, (5,)), Move(SCARLET, "h20"), wrong(SCARLET))
    assert types(events)[-3:] == ["accused", "eliminated", "moved"]
    assert {key: events[-1][key] for key in ("seat", "to")} == {"seat": SCARLET, "to": "Lounge"}
    assert where(state, SCARLET) == "Lounge"


def test_a_wrong_accuser_away_from_any_door_stays_where_she_is() -> None:
    state = scarlet_accused_wrongly()
    assert where(state, SCARLET) == "h21"


# -- out, but still refuting -------------------------------------------------------


def mustard_in_the_conservatory_after_scarlet_is_out() -> GameState:
    """Scarlet brought Mustard into the Lounge, then accused wrongly; Mustard took the passage."""
    state, _ = play(
        game(),
        scarlet_brings_mustard_into_the_lounge(),
        wrong(SCARLET),
        EndTurn(SCARLET),
        Move(MUSTARD, "Conservatory"),
    )
    return state


def test_scarlets_mover_is_still_brought_by_mustards_suggestion_after_she_is_out() -> None:
    state = mustard_in_the_conservatory_after_scarlet_is_out()
    assert where(state, SCARLET) == "Lounge"
    state, events = play(state, Suggest(MUSTARD, SCARLET, "Candlestick"))
    assert {"type": "moved", "seat": SCARLET, "to": "Conservatory", "via": "suggestion"} in events
    assert where(state, SCARLET) == "Conservatory"


def test_scarlet_out_of_the_game_must_still_refute_mustard() -> None:
    # White holds none of Scarlet, Candlestick, Conservatory; Scarlet holds all three.
    state, events = play(mustard_in_the_conservatory_after_scarlet_is_out(), Suggest(MUSTARD, SCARLET, "Candlestick"))
    assert events[-2:] == [
        {"type": "passed", "seat": WHITE},
        {"type": "refute_requested", "seat": SCARLET, "suggester": MUSTARD},
    ]
    assert seat_view(state, SCARLET)["may_show"] == [SCARLET, "Candlestick", "Conservatory"]
    assert rejected(state, Pass(SCARLET)) == "must_show"
    state, events = play(state, Show(SCARLET, "Conservatory"))
    assert events == [{"type": "card_shown", "by": SCARLET, "to": MUSTARD, "card": "Conservatory"}]
    assert seat_view(state, MUSTARD)["shown_to_me"] == [{"by": SCARLET, "card": "Conservatory"}]


def test_white_out_of_the_game_is_still_asked_and_passes_holding_nothing_named() -> None:
    state, _ = play(
        game(),
        turn(SCARLET, 6, "Lounge"),
        turn(MUSTARD, 1, "b18"),
        wrong(WHITE),
        EndTurn(WHITE),
        Move(SCARLET, "Conservatory"),
    )
    _, events = play(state, Suggest(SCARLET, PLUM, "Wrench"))
    assert events[-3:] == [
        {"type": "passed", "seat": MUSTARD},
        {"type": "passed", "seat": WHITE},
        {"type": "no_refutation", "suggester": SCARLET},
    ]


# -- everybody out ---------------------------------------------------------------


def test_when_everyone_has_accused_wrongly_nobody_wins() -> None:
    state, events = play(everyone_but_white_is_out(), wrong(WHITE))
    assert events == [
        {"type": "accused", "seat": WHITE, "suspect": GREEN, "weapon": "Rope", "room": "Hall", "correct": False},
        {"type": "eliminated", "seat": WHITE},
        {"type": "game_over", "winner": None, "solution": SOLUTION},
    ]
    view = public_view(state)
    assert view["winner"] is None
    assert view["solution"] == SOLUTION
    assert view["turn"] is None
    assert view["eliminated"] == [SCARLET, MUSTARD, WHITE]


def test_white_the_last_detective_in_plays_on_until_she_accuses() -> None:
    state, events = play(everyone_but_white_is_out(), turn(WHITE, 1, "j2"))
    assert events[-1] == {"type": "turn_started", "seat": WHITE}
    state, events = play(state, right(WHITE))
    assert events[-1] == {"type": "game_over", "winner": WHITE, "solution": SOLUTION}


# -- after the game is over ---------------------------------------------------------


AFTER_THE_END = [
    Roll(SCARLET, (3,)),
    Roll(MUSTARD),
    Move(SCARLET, "h24"),
    Suggest(SCARLET, PLUM, "Wrench"),
    Show(WHITE, "Rope"),
    Pass(MUSTARD),
    right(SCARLET),
    right(MUSTARD),
    EndTurn(SCARLET),
    EndTurn(MUSTARD),
]


@pytest.mark.parametrize("action", AFTER_THE_END, ids=lambda action: f"{action.type}-{action.seat}")
def test_after_scarlet_wins_every_action_is_game_over(action: Action) -> None:
    assert rejected(game_won_by_scarlet(), action) == "game_over"


@pytest.mark.parametrize("action", AFTER_THE_END, ids=lambda action: f"{action.type}-{action.seat}")
def test_after_everyone_is_out_every_action_is_game_over(action: Action) -> None:
    assert rejected(game_lost_by_all(), action) == "game_over"


def test_after_the_game_is_over_nobody_has_anywhere_to_go() -> None:
    assert legal_destinations(game_won_by_scarlet()) == ()
    assert public_view(game_won_by_scarlet())["legal_destinations"] == []
