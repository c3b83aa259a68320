"""Scenario tests for suggestions and their refutation.

The table (see ``games.py``): clockwise Scarlet, Mustard, White.
Scarlet holds Scarlet, Candlestick, Ballroom, Conservatory, Dining Room, Lounge;
Mustard holds Mustard, Green, Knife, Lead Pipe, Billiard Room, Library;
White holds White, Peacock, Revolver, Rope, Hall, Study;
the envelope holds Plum, Wrench, Kitchen.
"""

from __future__ import annotations

import pytest
from games import GREEN, HANDS, MUSTARD, PLUM, SCARLET, WHITE, game, of_type, play, rejected, turn, types, where

from companion import EndTurn, GameState, Move, Pass, Roll, Show, Suggest, public_view, seat_view


def scarlet_enters_the_lounge() -> GameState:
    """Scarlet has rolled 6 and entered the Lounge; she may suggest there."""
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    return state


def white_is_asked_about_white_and_the_rope() -> GameState:
    """Scarlet suggested Mrs. White with the Rope in the Lounge; White must show a card."""
    state, _ = play(scarlet_enters_the_lounge(), Suggest(SCARLET, WHITE, "Rope"))
    return state


def white_shows_scarlet_the_rope() -> GameState:
    state, _ = play(white_is_asked_about_white_and_the_rope(), Show(WHITE, "Rope"))
    return state


def white_brought_to_the_lounge_is_on_turn() -> GameState:
    """White, brought into the Lounge by Scarlet's suggestion, begins her next turn there."""
    state, _ = play(white_shows_scarlet_the_rope(), EndTurn(SCARLET), turn(MUSTARD, 1, "b18"))
    return state


# -- bringing the tokens in ----------------------------------------------------


def test_scarlet_suggests_mrs_white_with_the_rope_in_the_lounge() -> None:
    state, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, WHITE, "Rope"))
    assert events == [
        {"type": "suggested", "seat": SCARLET, "suspect": WHITE, "weapon": "Rope", "room": "Lounge"},
        {"type": "moved", "seat": WHITE, "to": "Lounge", "via": "suggestion"},
        {"type": "weapon_moved", "weapon": "Rope", "to": "Lounge"},
        {"type": "passed", "seat": MUSTARD},
        {"type": "refute_requested", "seat": WHITE, "suggester": SCARLET},
    ]
    view = public_view(state)
    assert view["position"][WHITE] == "Lounge"
    assert view["weapons"]["Rope"] == "Lounge"


def test_the_suggested_mover_and_weapon_stay_in_the_lounge() -> None:
    state, _ = play(white_shows_scarlet_the_rope(), EndTurn(SCARLET), turn(MUSTARD, 1, "b18"))
    view = public_view(state)
    assert view["position"][WHITE] == "Lounge"
    assert view["weapons"]["Rope"] == "Lounge"


def test_suggesting_professor_plum_brings_his_mover_though_nobody_plays_him() -> None:
    state = scarlet_enters_the_lounge()
    assert where(state, PLUM) == "x20"
    state, events = play(state, Suggest(SCARLET, PLUM, "Wrench"))
    assert {"type": "moved", "seat": PLUM, "to": "Lounge", "via": "suggestion"} in events
    assert where(state, PLUM) == "Lounge"


def test_a_weapon_already_in_the_lounge_is_not_moved_again() -> None:
    state = scarlet_enters_the_lounge()
    assert public_view(state)["weapons"]["Candlestick"] == "Lounge"  # where seed 7 laid it
    state, events = play(state, Suggest(SCARLET, PLUM, "Candlestick"))
    assert of_type(events, "weapon_moved") == []
    assert public_view(state)["weapons"]["Candlestick"] == "Lounge"


def test_scarlet_may_name_herself_and_stays_where_she_is() -> None:
    state, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, SCARLET, "Wrench"))
    assert of_type(events, "moved") == []
    assert where(state, SCARLET) == "Lounge"


def test_scarlet_may_bluff_with_her_own_cards_and_nobody_can_refute() -> None:
    _, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, SCARLET, "Candlestick"))
    assert events[-3:] == [
        {"type": "passed", "seat": MUSTARD},
        {"type": "passed", "seat": WHITE},
        {"type": "no_refutation", "suggester": SCARLET},
    ]


def test_names_in_a_suggestion_match_case_insensitively() -> None:
    _, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, "mrs white", "ROPE"))
    assert events[0] == {"type": "suggested", "seat": SCARLET, "suspect": WHITE, "weapon": "Rope", "room": "Lounge"}


@pytest.mark.parametrize(
    ("suspect", "weapon"),
    [(PLUM, "Kitchen"), ("Rope", "Wrench"), ("Mr. Boddy", "Rope"), (PLUM, "Poison")],
    ids=["room_as_weapon", "weapon_as_suspect", "no_such_suspect", "no_such_weapon"],
)
def test_a_suggestion_names_a_classic_suspect_and_weapon(suspect: str, weapon: str) -> None:
    assert rejected(scarlet_enters_the_lounge(), Suggest(SCARLET, suspect, weapon)) == "unknown_card"


# -- who may suggest where -----------------------------------------------------


def test_mrs_white_brought_to_the_lounge_may_suggest_there_without_moving() -> None:
    state = white_brought_to_the_lounge_is_on_turn()
    state, events = play(state, Suggest(WHITE, GREEN, "Candlestick"))
    assert events[0] == {"type": "suggested", "seat": WHITE, "suspect": GREEN, "weapon": "Candlestick", "room": "Lounge"}
    assert where(state, WHITE) == "Lounge"


def test_mrs_white_brought_to_the_lounge_may_roll_and_leave_instead() -> None:
    state, events = play(white_brought_to_the_lounge_is_on_turn(), Roll(WHITE, (1,)), Move(WHITE, "g19"))
    assert events[-1] == {"type": "moved", "seat": WHITE, "to": "g19", "via": "roll"}


def test_mrs_white_brought_to_the_lounge_may_not_suggest_once_she_has_rolled() -> None:
    state, _ = play(white_brought_to_the_lounge_is_on_turn(), Roll(WHITE, (1,)))
    assert rejected(state, Suggest(WHITE, GREEN, "Candlestick")) == "wrong_phase"
    state, _ = play(state, Move(WHITE, "g19"))
    assert rejected(state, Suggest(WHITE, GREEN, "Candlestick")) == "not_in_room"


def test_mrs_white_may_not_suggest_in_the_lounge_a_second_turn_without_leaving() -> None:
    state, _ = play(
        white_brought_to_the_lounge_is_on_turn(),
        Suggest(WHITE, PLUM, "Wrench"),
        Show(SCARLET, "Lounge"),
        EndTurn(WHITE),
        turn(SCARLET, 1, "g19"),
        turn(MUSTARD, 1, "c18"),
    )
    assert where(state, WHITE) == "Lounge"
    assert rejected(state, Suggest(WHITE, PLUM, "Wrench")) == "wrong_phase"


def test_scarlet_still_in_the_lounge_next_turn_may_not_suggest_without_moving() -> None:
    state, _ = play(
        game(),
        turn(SCARLET, 6, "Lounge"),
        turn(MUSTARD, 1, "b18"),
        turn(WHITE, 1, "j2"),
    )
    assert rejected(state, Suggest(SCARLET, PLUM, "Wrench")) == "wrong_phase"


def test_scarlet_who_rolled_but_has_not_moved_is_still_in_the_hallway() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)))
    assert rejected(state, Suggest(SCARLET, PLUM, "Wrench")) == "not_in_room"


def test_scarlet_on_the_hallway_cannot_suggest() -> None:
    assert rejected(game(), Suggest(SCARLET, PLUM, "Wrench")) == "not_in_room"
    state, _ = play(game(), Roll(SCARLET, (5,)), Move(SCARLET, "h20"))
    assert rejected(state, Suggest(SCARLET, PLUM, "Wrench")) == "not_in_room"


def test_scarlet_makes_only_one_suggestion_a_turn() -> None:
    state, _ = play(scarlet_enters_the_lounge(), Suggest(SCARLET, PLUM, "Wrench"))
    assert rejected(state, Suggest(SCARLET, GREEN, "Knife")) == "wrong_phase"
    assert rejected(white_shows_scarlet_the_rope(), Suggest(SCARLET, GREEN, "Knife")) == "wrong_phase"


def test_scarlet_may_not_suggest_again_while_a_card_is_awaited() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), Suggest(SCARLET, GREEN, "Knife")) == "wrong_phase"


# -- refutation order ----------------------------------------------------------


def test_mustard_on_scarlets_left_answers_first_and_white_is_not_asked() -> None:
    state, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, GREEN, "Rope"))
    # Mustard holds Mr. Green; White holds the Rope but the question never reaches her.
    assert events[-1] == {"type": "refute_requested", "seat": MUSTARD, "suggester": SCARLET}
    assert of_type(events, "passed") == []
    state, events = play(state, Show(MUSTARD, GREEN))
    assert events == [{"type": "card_shown", "by": MUSTARD, "to": SCARLET, "card": GREEN}]


def test_mustard_holding_none_of_the_cards_passes_and_white_is_asked() -> None:
    _, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, WHITE, "Rope"))
    assert types(events)[-2:] == ["passed", "refute_requested"]
    assert events[-2:] == [
        {"type": "passed", "seat": MUSTARD},
        {"type": "refute_requested", "seat": WHITE, "suggester": SCARLET},
    ]


def test_refuting_white_asks_scarlet_on_her_left_before_mustard() -> None:
    # White suggests Mr. Green (Mustard's) with the Candlestick (Scarlet's): clockwise from
    # White, Scarlet comes before Mustard.
    _, events = play(white_brought_to_the_lounge_is_on_turn(), Suggest(WHITE, GREEN, "Candlestick"))
    assert events[-1] == {"type": "refute_requested", "seat": SCARLET, "suggester": WHITE}
    assert of_type(events, "passed") == []


def test_refuting_mustard_goes_past_white_round_to_scarlet() -> None:
    # Scarlet brings Mustard into the Lounge; on his turn he suggests there without moving.
    state, _ = play(
        scarlet_enters_the_lounge(),
        Suggest(SCARLET, MUSTARD, "Knife"),
        Show(MUSTARD, "Knife"),
        EndTurn(SCARLET),
    )
    # White, on Mustard's left, holds none of Scarlet, Candlestick, Lounge; Scarlet holds all three.
    _, events = play(state, Suggest(MUSTARD, SCARLET, "Candlestick"))
    assert events[-2:] == [
        {"type": "passed", "seat": WHITE},
        {"type": "refute_requested", "seat": SCARLET, "suggester": MUSTARD},
    ]


def test_nobody_can_refute_plum_with_the_wrench_in_scarlets_own_lounge() -> None:
    state, events = play(scarlet_enters_the_lounge(), Suggest(SCARLET, PLUM, "Wrench"))
    assert events[-3:] == [
        {"type": "passed", "seat": MUSTARD},
        {"type": "passed", "seat": WHITE},
        {"type": "no_refutation", "suggester": SCARLET},
    ]
    assert public_view(state)["suggestion"]["asked"] is None


# -- answering -------------------------------------------------------------------


def test_white_holding_the_rope_cannot_say_she_cannot_answer() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), Pass(WHITE)) == "must_show"


@pytest.mark.parametrize("card", [WHITE, "Rope"])
def test_white_shows_the_named_card_of_her_choice(card: str) -> None:
    state, events = play(white_is_asked_about_white_and_the_rope(), Show(WHITE, card))
    assert events == [{"type": "card_shown", "by": WHITE, "to": SCARLET, "card": card}]
    assert seat_view(state, SCARLET)["shown_to_me"] == [{"by": WHITE, "card": card}]


def test_white_cannot_show_the_revolver_which_was_not_named() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), Show(WHITE, "Revolver")) == "cannot_show"


def test_white_cannot_show_the_lounge_which_she_does_not_hold() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), Show(WHITE, "Lounge")) == "cannot_show"


def test_mustard_asked_cannot_show_the_rope_which_white_holds() -> None:
    state, _ = play(scarlet_enters_the_lounge(), Suggest(SCARLET, GREEN, "Rope"))
    assert rejected(state, Show(MUSTARD, "Rope")) == "cannot_show"


def test_white_cannot_show_a_card_that_does_not_exist() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), Show(WHITE, "Poison")) == "unknown_card"


def test_mustard_who_was_passed_may_not_show_instead_of_white() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), Show(MUSTARD, "Knife")) == "not_your_turn"


def test_a_cannot_answer_from_mustard_who_holds_nothing_is_accepted_and_changes_nothing() -> None:
    state = white_is_asked_about_white_and_the_rope()
    after, events = play(state, Pass(MUSTARD))
    assert events == []
    # Only the count of accepted actions moves on.
    assert {**public_view(after), "actions": None} == {**public_view(state), "actions": None}
    assert seat_view(after, WHITE)["may_show"] == [WHITE, "Rope"]
    _, events = play(after, Show(WHITE, "Rope"))
    assert types(events) == ["card_shown"]


def test_white_may_show_only_one_card() -> None:
    assert rejected(white_shows_scarlet_the_rope(), Show(WHITE, WHITE)) == "wrong_phase"


def test_nothing_may_be_shown_when_no_suggestion_was_made() -> None:
    state, _ = play(game(), Roll(SCARLET, (6,)), Move(SCARLET, "Lounge"))
    assert rejected(state, Show(MUSTARD, "Knife")) == "wrong_phase"
    assert rejected(state, Pass(MUSTARD)) == "wrong_phase"


def test_scarlet_may_not_end_her_turn_while_white_must_show() -> None:
    assert rejected(white_is_asked_about_white_and_the_rope(), EndTurn(SCARLET)) == "wrong_phase"


def test_the_others_may_not_take_a_turn_while_white_must_show() -> None:
    state = white_is_asked_about_white_and_the_rope()
    assert rejected(state, Roll(MUSTARD, (3,))) == "not_your_turn"
    assert rejected(state, Roll(WHITE, (3,))) == "not_your_turn"


def test_once_the_rope_is_shown_scarlet_ends_her_turn() -> None:
    _, events = play(white_shows_scarlet_the_rope(), EndTurn(SCARLET))
    assert events == [{"type": "turn_started", "seat": MUSTARD}]


# -- who learns what ---------------------------------------------------------------


def test_only_scarlet_sees_the_rope_white_showed_her() -> None:
    state = white_shows_scarlet_the_rope()
    assert seat_view(state, SCARLET)["shown_to_me"] == [{"by": WHITE, "card": "Rope"}]
    assert seat_view(state, MUSTARD)["shown_to_me"] == []
    assert seat_view(state, WHITE)["shown_to_me"] == []
    assert public_view(state)["shown_to_me"] == []


def test_mustard_and_the_table_learn_only_that_white_showed_scarlet_a_card() -> None:
    state = white_shows_scarlet_the_rope()
    for view in (seat_view(state, MUSTARD), public_view(state)):
        assert of_type(view["record"], "card_shown") == [{"type": "card_shown", "by": WHITE, "to": SCARLET}]


def test_scarlet_and_white_both_see_which_card_passed_between_them() -> None:
    state = white_shows_scarlet_the_rope()
    for seat in (SCARLET, WHITE):
        assert of_type(seat_view(state, seat)["record"], "card_shown") == [
            {"type": "card_shown", "by": WHITE, "to": SCARLET, "card": "Rope"}
        ]


def test_everyone_learns_who_was_asked_and_who_passed() -> None:
    state = white_shows_scarlet_the_rope()
    for view in (seat_view(state, MUSTARD), public_view(state)):
        assert {"type": "passed", "seat": MUSTARD} in view["record"]
        assert {"type": "refute_requested", "seat": WHITE, "suggester": SCARLET} in view["record"]
        assert {"type": "suggested", "seat": SCARLET, "suspect": WHITE, "weapon": "Rope", "room": "Lounge"} in view[
            "record"
        ]


def test_everyone_learns_that_nobody_could_refute() -> None:
    state, _ = play(scarlet_enters_the_lounge(), Suggest(SCARLET, PLUM, "Wrench"))
    for view in (seat_view(state, MUSTARD), seat_view(state, WHITE), public_view(state)):
        assert view["record"][-1] == {"type": "no_refutation", "suggester": SCARLET}


def test_only_white_is_told_which_cards_she_may_show() -> None:
    state = white_is_asked_about_white_and_the_rope()
    assert seat_view(state, WHITE)["may_show"] == [WHITE, "Rope"]
    assert seat_view(state, SCARLET)["may_show"] == []
    assert seat_view(state, MUSTARD)["may_show"] == []
    assert public_view(state)["may_show"] == []


def test_the_table_sees_the_open_suggestion_and_who_must_answer() -> None:
    assert public_view(white_is_asked_about_white_and_the_rope())["suggestion"] == {
        "suggester": SCARLET,
        "suspect": WHITE,
        "weapon": "Rope",
        "room": "Lounge",
        "asked": WHITE,
    }


def test_no_view_of_the_suggestion_leaks_another_seats_hand() -> None:
    state = white_shows_scarlet_the_rope()
    assert public_view(state)["hand"] == []
    for seat in state.seats:
        assert sorted(seat_view(state, seat)["hand"]) == sorted(HANDS[seat])
    for viewer in (*state.seats, None):
        view = public_view(state) if viewer is None else seat_view(state, viewer)
        for event in view["record"]:
            if event["type"] == "cards_dealt" and event["seat"] != viewer:
                assert "cards" not in event
            if event["type"] == "card_shown" and viewer not in (event["by"], event["to"]):
                assert "card" not in event


def test_once_white_has_shown_a_card_her_cannot_answer_is_out_of_turn() -> None:
    state, _ = play(white_is_asked_about_white_and_the_rope(), Show(WHITE, "Rope"))
    assert rejected(state, Pass(WHITE)) == "wrong_phase"


def test_mustard_who_holds_none_may_still_say_he_cannot_answer_after_the_card_is_shown() -> None:
    state, _ = play(white_is_asked_about_white_and_the_rope(), Show(WHITE, "Rope"))
    after, events = play(state, Pass(MUSTARD))
    assert events == []
    assert public_view(after)["record"] == public_view(state)["record"]
