"""Scenario tests for CLUE Master Detective, rule by rule as the rulebook (seed 003) gives them.

The table and the deal are in :mod:`md_games`: Scarlet, Mustard, White and
Green clockwise; the envelope holds Madame Rose, the Horseshoe, the Library.

Distances on ``master_detective.txt`` (a door costs one step, a location
passed through one step, a secret passage one step):

* Cloakroom -> Gazebo 3 (out by r10, s10, in); Cloakroom -> snoop space s8 4,
  s8 -> Gazebo 3; Cloakroom -> Courtyard 4 (r17, s17, s16, in).
* g3 is the Trophy Room's west doorway, m4 its east one; f3 is the Basement
  Stairs (also the Kitchen's doorway), u22 the Garden Walk; c7 is the Kitchen's
  other doorway, c20 the Drawing Room's.
* a14..g14 is a corridor one square wide (Dining Room above, Billiard Room below).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from games import of_type, play, rejected, types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from md_games import (BRUNETTE, DEAL, ENVELOPE, GRAY, GREEN, HANDS, MUSTARD, NEIGHBOURS, PEACH, PEACOCK, PLACES, PLUM,
                      ROSE, SCARLET, SEATS, SNOOP_SPACES, SOLUTION, SQUARES, SUSPECTS, WHITE, game, naive_destinations,
                      scene, start)
from record_spec import carried_cards

from companion import (Accuse, ClueError, DealSpec, EndTurn, GameState, Move, Pass, Roll, Setup, Show, Suggest, apply,
                       legal_destinations, new_game, public_view, seat_view)
from companion.cli.main import main
from companion.rules import movement
from companion.rules.actions import Snoop
from companion.rules.edition import load_edition
from companion.rules.views import event_for

MD = load_edition("master_detective")
BOARD = MD.require_board()


def reach(start: str, steps: int, occupied: tuple[str, ...] = ()) -> frozenset[str]:
    """The engine's destinations under Master Detective's movement rules."""
    return movement.destinations(BOARD, start, steps, frozenset(occupied), rules=MD.movement)


def rolled(state: GameState, seat: str, dice: tuple[int, int]) -> GameState:
    return play(state, Roll(seat, dice))[0]


def dice(total: int) -> tuple[int, int]:
    """Two dice showing ``total`` (2 to 12)."""
    return (total // 2, total - total // 2)


def snoop_card(events: list[dict[str, Any]]) -> str:
    (snooped,) = of_type(events, "snooped")
    card: str = snooped["card"]
    return card


# -- setup ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 11))
def test_three_to_ten_detectives_may_play_and_all_the_cards_are_dealt(players: int) -> None:
    state, events = start(seats=SUSPECTS[:players], deal=None)
    sizes = [len(state.hand(seat)) for seat in state.seats]
    assert sum(sizes) == 27 and max(sizes) - min(sizes) <= 1
    dealt = [card for seat in state.seats for card in state.hand(seat)] + list(state.envelope.cards())
    assert sorted(dealt) == sorted(MD.deck.all)
    assert public_view(state)["face_up"] == []
    assert [event["count"] for event in of_type(events, "cards_dealt")] == sizes


@pytest.mark.parametrize("players", [1, 2])
def test_fewer_than_three_detectives_may_not_play(players: int) -> None:
    with pytest.raises(ClueError) as refusal:
        start(seats=SUSPECTS[:players], deal=None)
    assert refusal.value.code == "bad_input"


def test_some_players_may_receive_more_cards_than_others() -> None:
    state, _ = start()
    assert [len(state.hand(seat)) for seat in SEATS] == [7, 7, 7, 6]


def test_a_deal_with_hands_two_cards_apart_is_refused() -> None:
    hands = dict(HANDS)
    hands[SCARLET] = HANDS[SCARLET] + (GRAY,)
    hands[GREEN] = tuple(card for card in HANDS[GREEN] if card != GRAY)
    with pytest.raises(ClueError) as refusal:
        start(deal=DealSpec(ENVELOPE, hands))
    assert refusal.value.code == "bad_deal"


def test_every_token_starts_in_the_cloakroom_regardless_of_the_number_playing() -> None:
    assert public_view(game())["position"] == {suspect: "Cloakroom" for suspect in SUSPECTS}


def test_all_eight_weapons_start_together_off_the_board() -> None:
    weapons = public_view(game())["weapons"]
    assert len(weapons) == 8 and set(weapons.values()) == {"off the board"}


def roll_off_rounds(events: list[dict[str, Any]], seats: tuple[str, ...]) -> tuple[list[list[dict[str, Any]]], str]:
    """The setup's roll-off split into rounds, checked round by round; returns (rounds, winner)."""
    rolls, rounds, rolling = of_type(events, "rolled"), [], list(seats)
    while True:
        this, rolls = rolls[: len(rolling)], rolls[len(rolling):]
        assert [roll["seat"] for roll in this] == rolling
        for roll in this:
            assert len(roll["dice"]) == 2 and roll["total"] == sum(roll["dice"])
        rounds.append(this)
        best = max(roll["total"] for roll in this)
        rolling = [roll["seat"] for roll in this if roll["total"] == best]
        if len(rolling) == 1:
            assert rolls == []
            return rounds, rolling[0]


@pytest.mark.parametrize("seed", range(12))
def test_each_player_rolls_the_dice_and_the_highest_roller_starts(seed: int) -> None:
    state, events = start(seed=seed, first=None)
    rounds, winner = roll_off_rounds(events, SEATS)
    assert events[-1] == {"type": "turn_started", "seat": winner}
    assert public_view(state)["turn"] == winner


def test_tied_highest_rollers_roll_again_until_one_is_highest() -> None:
    # Seed 29: White and Green tie on 9, then tie again on 4, then White rolls 6 to Green's 5.
    state, events = start(seed=29, first=None)
    rounds, winner = roll_off_rounds(events, SEATS)
    assert [[roll["seat"] for roll in round_] for round_ in rounds] == [list(SEATS), [WHITE, GREEN], [WHITE, GREEN]]
    assert winner == WHITE and public_view(state)["turn"] == WHITE


def test_the_table_may_say_who_starts_and_then_nobody_rolls_off() -> None:
    state, events = start(first=GREEN)
    assert of_type(events, "rolled") == []
    assert events[-1] == {"type": "turn_started", "seat": GREEN}


def test_the_player_named_to_start_must_be_seated() -> None:
    with pytest.raises(ClueError) as refusal:
        start(first=PEACH)
    assert refusal.value.code == "unknown_seat"


def test_play_proceeds_to_the_left_of_the_highest_roller() -> None:
    state, _ = start(seed=29, first=None)  # White won the roll-off
    state, events = play(state, Roll(WHITE, (1, 2)), Move(WHITE, "Gazebo"), EndTurn(WHITE))
    assert events[-1] == {"type": "turn_started", "seat": GREEN}
    state, events = play(state, Roll(GREEN, (1, 2)), Move(GREEN, "Gazebo"), EndTurn(GREEN))
    assert events[-1] == {"type": "turn_started", "seat": SCARLET}


def test_a_turn_is_rolled_with_two_dice() -> None:
    state, events = play(game(), Roll(SCARLET, (3, 4)))
    assert events == [{"type": "rolled", "seat": SCARLET, "dice": [3, 4], "total": 7}]
    assert rejected(game(), Roll(SCARLET, (6,))) == "bad_input"
    state, events = play(game(), Roll(SCARLET))
    assert len(events[0]["dice"]) == 2


def test_the_murder_never_occurs_in_the_cloakroom_so_no_suggestion_is_made_there() -> None:
    assert rejected(game(), Suggest(SCARLET, MUSTARD, "Rope")) == "not_in_room"
    # Nor after walking back into it: in by i10, through, and no suggestion.
    state = play(scene(scarlet="h10"), Roll(SCARLET, (1, 1)))[0]
    assert "Cloakroom" in legal_destinations(state)
    state, _ = play(state, Move(SCARLET, "Cloakroom"))
    assert rejected(state, Suggest(SCARLET, MUSTARD, "Rope")) == "not_in_room"


def test_the_cloakroom_is_not_a_card_and_may_not_be_accused() -> None:
    assert "Cloakroom" not in MD.deck.all
    assert rejected(game(), Accuse(SCARLET, ROSE, "Horseshoe", "Cloakroom")) == "unknown_card"


# -- moving: locations, passages, re-entry --------------------------------------------


def test_a_mover_may_pass_through_a_location_counting_it_as_one_space() -> None:
    # g3 -> Trophy Room -> m4: two steps; by the hallway m4 is thirteen away.
    state = rolled(scene(scarlet="g3"), SCARLET, (1, 1))
    assert "m4" in legal_destinations(state)
    assert "m4" not in movement.destinations(BOARD, "g3", 2, frozenset())  # Classic rules: a room ends a walk
    state, events = play(state, Move(SCARLET, "m4"))
    assert events == [{"type": "moved", "seat": SCARLET, "to": "m4", "via": "roll"}]


def test_a_location_may_be_entered_without_an_exact_roll() -> None:
    state = rolled(game(), SCARLET, (6, 6))  # the Gazebo is 3 from the Cloakroom
    assert "Gazebo" in legal_destinations(state)
    state, _ = play(state, Move(SCARLET, "Gazebo"))
    assert public_view(state)["phase"] == "moved"
    assert rejected(state, Move(SCARLET, "s10")) == "wrong_phase"  # entering ended the move


def test_a_location_reached_part_way_may_be_stopped_in_or_walked_through() -> None:
    state = rolled(scene(scarlet="g3"), SCARLET, (1, 1))
    assert {"Trophy Room", "m4", "j7"} <= set(legal_destinations(state))
    state, _ = play(state, Move(SCARLET, "Trophy Room"))
    state, events = play(state, Suggest(SCARLET, PLUM, "Rope"))
    assert events[0] == {"type": "suggested", "seat": SCARLET, "suspect": PLUM, "weapon": "Rope",
                         "room": "Trophy Room"}


PASSAGES = [
    ("Drawing Room", "Conservatory"), ("Conservatory", "Drawing Room"),
    ("Library", "Kitchen"), ("Kitchen", "Library"),
    ("f3", "u22"), ("u22", "f3"),
]


@pytest.mark.parametrize(("here", "there"), PASSAGES)
def test_a_secret_passage_may_be_used_at_the_beginning_of_a_turn_instead_of_rolling(here: str, there: str) -> None:
    state = scene(scarlet=here)
    assert legal_destinations(state) == (there,)
    state, events = play(state, Move(SCARLET, there))
    assert events == [{"type": "moved", "seat": SCARLET, "to": there, "via": "passage"}]
    assert rejected(state, Roll(SCARLET)) == "wrong_phase"  # the passage was the move


def test_the_basement_stairs_and_garden_walk_are_named_spots_at_either_end_of_a_passage() -> None:
    state, events = play(scene(scarlet="f3"), Move(SCARLET, "Garden Walk"))
    assert events[0]["to"] == "u22"
    state, events = play(scene(scarlet="u22"), Move(SCARLET, "Basement Stairs"))
    assert events[0]["to"] == "f3"


def test_a_passage_into_a_location_lets_the_mover_suggest_there() -> None:
    state = play(scene(scarlet="Drawing Room"), Move(SCARLET, "Conservatory"))[0]
    state, events = play(state, Suggest(SCARLET, PLUM, "Rope"))
    assert events[0]["room"] == "Conservatory"


def test_the_garden_walk_is_not_a_location_so_no_suggestion_is_made_there() -> None:
    state = play(scene(scarlet="f3"), Move(SCARLET, "u22"))[0]
    assert rejected(state, Suggest(SCARLET, PLUM, "Rope")) == "not_in_room"


def test_without_a_passage_the_mover_must_roll_before_moving() -> None:
    assert legal_destinations(game()) == ()
    assert rejected(game(), Move(SCARLET, "Gazebo")) == "illegal_move"
    assert rejected(scene(scarlet="Trophy Room"), Move(SCARLET, "g3")) == "illegal_move"


@pytest.mark.parametrize(
    ("here", "roll", "room", "exits"),
    [
        ("c7", 2, "Library", {"x20", "u24"}),  # c7 -> Kitchen -> Library -> out
        ("c20", 2, "Conservatory", {"u3", "x7"}),  # c20 -> Drawing Room -> Conservatory -> out
        ("g3", 2, "u22", {"t22", "u21", "u23"}),  # g3 -> Basement Stairs -> Garden Walk -> on
    ],
)
def test_a_secret_passage_may_be_taken_part_way_through_a_roll_counting_as_one_space(
    here: str, roll: int, room: str, exits: set[str]
) -> None:
    state = rolled(scene(scarlet=here), SCARLET, dice(roll))
    assert room in legal_destinations(state)
    state = rolled(scene(scarlet=here), SCARLET, dice(roll + 1))
    assert exits <= set(legal_destinations(state))


def test_after_a_passage_part_way_the_mover_may_stay_in_the_location() -> None:
    state = rolled(scene(scarlet="c7"), SCARLET, (1, 2))  # 3 to move, the Library is 2 away
    state, _ = play(state, Move(SCARLET, "Library"))
    state, events = play(state, Suggest(SCARLET, ROSE, "Horseshoe"))
    assert events[0]["room"] == "Library"


def test_after_a_passage_part_way_the_mover_may_complete_the_move_by_exiting() -> None:
    state = rolled(scene(scarlet="c7"), SCARLET, (1, 2))
    state, events = play(state, Move(SCARLET, "x20"))
    assert events == [{"type": "moved", "seat": SCARLET, "to": "x20", "via": "roll"}]


def test_a_mover_may_not_re_enter_the_location_it_left_this_turn() -> None:
    # Out of the Trophy Room by g3 and straight back in would be two steps.
    state = rolled(scene(scarlet="Trophy Room"), SCARLET, (1, 1))
    assert "Trophy Room" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Trophy Room")) == "illegal_move"


def test_a_mover_may_not_enter_the_same_square_twice_in_one_turn() -> None:
    # e7 -> e8 -> f8 -> f7 -> e7 is a walk of four, but it comes back to e7.
    state = rolled(scene(scarlet="e7"), SCARLET, (2, 2))
    assert "e7" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "e7")) == "illegal_move"


# -- moving: other tokens ------------------------------------------------------------


def test_a_mover_jumps_over_another_token_counting_the_occupied_space() -> None:
    state = rolled(scene(scarlet="g14", mustard="e14"), SCARLET, (1, 2))
    assert "d14" in legal_destinations(state)  # f14, e14 (Mustard's), d14
    assert "c14" not in legal_destinations(state)  # the jumped square is not free
    state, events = play(state, Move(SCARLET, "d14"))
    assert events[0]["to"] == "d14"


def test_a_mover_may_jump_two_tokens_in_a_row() -> None:
    state = rolled(scene(scarlet="g14", mustard="f14", white="e14"), SCARLET, (1, 2))
    assert "d14" in legal_destinations(state)


def test_a_mover_whose_exact_count_would_land_on_a_token_stops_one_space_behind_it() -> None:
    assert "e14" not in reach("g14", 3)  # e14 is two away: no walk of three ends there
    state = rolled(scene(scarlet="g14", mustard="d14"), SCARLET, (1, 2))
    assert "e14" in legal_destinations(state)
    assert "d14" not in legal_destinations(state)
    state, events = play(state, Move(SCARLET, "e14"))
    assert events[0]["to"] == "e14"


def test_a_mover_with_a_higher_roll_jumps_the_token_and_moves_the_total() -> None:
    state = rolled(scene(scarlet="g14", mustard="d14"), SCARLET, (2, 2))
    assert "c14" in legal_destinations(state)
    assert "e14" not in legal_destinations(state)


@pytest.mark.parametrize(("scarlet", "mustard"), [("g14", "d14"), ("b14", "a14")])  # a14 is a snoop space
def test_a_mover_may_never_land_on_a_square_occupied_by_another_token(scarlet: str, mustard: str) -> None:
    state = rolled(scene(scarlet=scarlet, mustard=mustard), SCARLET, (1, 2))
    assert mustard not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, mustard)) == "illegal_move"


def test_the_passage_from_the_basement_stairs_may_not_land_on_a_token_at_the_garden_walk() -> None:
    state = scene(scarlet="f3", mustard="u22")
    assert legal_destinations(state) == ()
    assert rejected(state, Move(SCARLET, "Garden Walk")) == "illegal_move"


# -- moving: the brute-force cross-check -----------------------------------------------


def test_the_naive_walker_reads_the_same_board_as_the_engine() -> None:
    assert SQUARES == set(BOARD.squares)
    assert SNOOP_SPACES == {BOARD.squares[i] for i, kind in BOARD.marks.items() if kind == "snoop"}
    assert len(SNOOP_SPACES) == 9
    assert set(PLACES) - SQUARES == set(BOARD.rooms)


@pytest.mark.parametrize("roll", range(2, 9))
def test_every_start_without_tokens_in_the_way_matches_a_walk_of_every_path(roll: int) -> None:
    wrong = {place for place in PLACES if reach(place, roll) != naive_destinations(place, roll)}
    assert wrong == set()


def _near(start: str, within: int) -> list[str]:
    """Squares within ``within`` steps of ``start`` (so the tokens drawn get in the way)."""
    seen, edge = {start}, [start]
    for _ in range(within):
        edge = [there for here in edge for there in NEIGHBOURS.get(here, ()) if there not in seen]
        seen.update(edge)
    return sorted(seen & SQUARES - {start})


@st.composite
def moves(draw: st.DrawFn) -> tuple[str, int, tuple[str, ...]]:
    start = draw(st.sampled_from(PLACES))
    roll = draw(st.integers(2, 8))
    occupied = draw(st.lists(st.sampled_from(_near(start, 4)), max_size=7, unique=True))
    return start, roll, tuple(sorted(occupied))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves())
def test_with_tokens_in_the_way_destinations_match_a_walk_of_every_path(move: tuple[str, int, tuple[str, ...]]) -> None:
    start, roll, occupied = move
    assert reach(start, roll, occupied) == naive_destinations(start, roll, frozenset(occupied))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves(), st.data())
def test_a_turn_offers_exactly_the_walked_destinations_and_accepts_any_of_them(
    move: tuple[str, int, tuple[str, ...]], data: st.DataObject
) -> None:
    start, roll, occupied = move
    others = dict(zip((MUSTARD, WHITE, GREEN, PEACOCK, PLUM, GRAY, BRUNETTE), occupied))
    state = scene(**{"scarlet": start, **{who.split()[-1]: place for who, place in others.items()}})
    state = rolled(state, SCARLET, dice(roll))
    expected = naive_destinations(start, roll, frozenset(occupied))
    assert set(legal_destinations(state)) == expected
    if not expected:  # nowhere to go: the mover stays put
        assert types(public_view(state)["record"])[-1] == "blocked"
        return
    to = data.draw(st.sampled_from(sorted(expected)))
    after, events = play(state, Move(SCARLET, to))
    assert public_view(after)["position"][SCARLET] == to
    elsewhere = sorted(set(PLACES) - expected - {start})
    assert rejected(state, Move(SCARLET, data.draw(st.sampled_from(elsewhere)))) == "illegal_move"


# -- snoop spaces --------------------------------------------------------------------


def on_s8_with_three_to_go() -> GameState:
    """Scarlet rolled 7 in the Cloakroom and stopped on the snoop space s8 after 4."""
    state = rolled(game(), SCARLET, (3, 4))
    return play(state, Move(SCARLET, "s8"))[0]


def test_nine_snoop_spaces_are_marked_on_the_board() -> None:
    assert sorted(SNOOP_SPACES) == sorted(["n2", "u5", "e8", "s8", "z13", "a14", "n18", "f23", "n25"])


def test_a_mover_may_land_on_a_snoop_space_part_way_snoop_and_continue_the_move() -> None:
    state = on_s8_with_three_to_go()
    view = public_view(state)
    assert (view["phase"], view["moves_left"], view["snoop_at"]) == ("moving", 3, "s8")
    state, events = play(state, Snoop(SCARLET, GREEN))
    assert snoop_card(events) in HANDS[GREEN]
    assert "Gazebo" in legal_destinations(state)  # s8, s9, s10, in: the rest of the roll
    state, events = play(state, Move(SCARLET, "Gazebo"), Suggest(SCARLET, ROSE, "Horseshoe"))
    assert events[0] == {"type": "moved", "seat": SCARLET, "to": "Gazebo", "via": "roll"}
    assert events[1]["room"] == "Gazebo"


def test_the_rest_of_the_roll_is_walked_from_the_snoop_space() -> None:
    # The way there (the fewest steps, out of the Cloakroom) may not be walked again.
    state = on_s8_with_three_to_go()
    assert "Cloakroom" in state.turn.used and "s8" in state.turn.used
    assert set(legal_destinations(state)) == naive_destinations("s8", 3, avoid=state.turn.used)


def test_the_rest_of_the_roll_may_not_re_enter_the_location_left_this_turn() -> None:
    # Out of the Cloakroom to n18 in 4; 6 left, and the Cloakroom is 4 back by q18.
    state = play(rolled(game(), SCARLET, (5, 5)), Move(SCARLET, "n18"))[0]
    assert public_view(state)["moves_left"] == 6
    assert "Cloakroom" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Cloakroom")) == "illegal_move"
    assert rejected(state, Move(SCARLET, "n18")) == "illegal_move"


def test_a_mover_with_steps_left_must_finish_the_move_before_ending_the_turn() -> None:
    state = play(on_s8_with_three_to_go(), Snoop(SCARLET, GREEN))[0]
    assert rejected(state, EndTurn(SCARLET)) == "wrong_phase"


def test_a_mover_landing_on_a_snoop_space_by_exact_count_may_snoop_there() -> None:
    state = play(rolled(game(), SCARLET, (2, 2)), Move(SCARLET, "s8"))[0]
    view = public_view(state)
    assert (view["phase"], view["moves_left"], view["snoop_at"]) == ("moved", None, "s8")
    state, events = play(state, Snoop(SCARLET, MUSTARD), EndTurn(SCARLET))
    assert snoop_card(events) in HANDS[MUSTARD]
    assert events[-1] == {"type": "turn_started", "seat": MUSTARD}


@pytest.mark.parametrize("target", [MUSTARD, WHITE, GREEN])
def test_the_snooped_card_is_drawn_from_the_targets_hand(target: str) -> None:
    state, events = play(on_s8_with_three_to_go(), Snoop(SCARLET, target))
    assert of_type(events, "snooped") == [{"type": "snooped", "seat": SCARLET, "target": target,
                                          "card": snoop_card(events)}]
    assert snoop_card(events) in HANDS[target]


def test_the_snooped_card_is_seen_by_the_snooper_alone() -> None:
    state, events = play(on_s8_with_three_to_go(), Snoop(SCARLET, MUSTARD))
    card = snoop_card(events)
    assert seat_view(state, SCARLET)["seen"] == [{"from": MUSTARD, "card": card}]
    assert of_type(seat_view(state, SCARLET)["record"], "snooped")[0]["card"] == card
    for seat in (MUSTARD, WHITE, GREEN):
        assert seat_view(state, seat)["seen"] == []
        assert of_type(seat_view(state, seat)["record"], "snooped") == [
            {"type": "snooped", "seat": SCARLET, "target": MUSTARD}]
    assert of_type(public_view(state)["record"], "snooped") == [{"type": "snooped", "seat": SCARLET, "target": MUSTARD}]
    for view in (public_view(state), seat_view(state, WHITE), seat_view(state, GREEN)):
        assert card not in carried_cards(view)
    event = apply(on_s8_with_three_to_go(), Snoop(SCARLET, MUSTARD))[1][0]
    assert event_for(event, SCARLET)["card"] == card
    assert "card" not in event_for(event, MUSTARD) and "card" not in event_for(event, None)


def test_one_snoop_per_landing() -> None:
    state = play(on_s8_with_three_to_go(), Snoop(SCARLET, GREEN))[0]
    assert rejected(state, Snoop(SCARLET, WHITE)) == "wrong_phase"


def test_a_detective_may_not_snoop_off_a_snoop_space() -> None:
    assert rejected(game(), Snoop(SCARLET, GREEN)) == "wrong_phase"
    assert rejected(rolled(game(), SCARLET, (3, 4)), Snoop(SCARLET, GREEN)) == "wrong_phase"
    in_gazebo = play(rolled(game(), SCARLET, (1, 2)), Move(SCARLET, "Gazebo"))[0]
    assert rejected(in_gazebo, Snoop(SCARLET, GREEN)) == "wrong_phase"
    # Standing on a snoop space from an earlier turn is not landing on it.
    assert rejected(scene(scarlet="s8"), Snoop(SCARLET, GREEN)) == "wrong_phase"


def test_a_detective_snoops_an_opponent_not_themself() -> None:
    assert rejected(on_s8_with_three_to_go(), Snoop(SCARLET, SCARLET)) == "bad_input"
    assert rejected(on_s8_with_three_to_go(), Snoop(SCARLET, PEACH)) == "unknown_seat"


def test_the_snoop_may_be_skipped() -> None:
    state, events = play(on_s8_with_three_to_go(), Move(SCARLET, "Gazebo"))
    assert "snooped" not in types(events)
    assert rejected(state, Snoop(SCARLET, GREEN)) == "wrong_phase"  # walked on: the chance is gone
    state, events = play(play(rolled(game(), SCARLET, (2, 2)), Move(SCARLET, "s8"))[0], EndTurn(SCARLET))
    assert events == [{"type": "turn_started", "seat": MUSTARD}]


def test_a_snoop_only_looks_it_takes_no_card_and_changes_no_turn() -> None:
    before = on_s8_with_three_to_go()
    after, _ = play(before, Snoop(SCARLET, GREEN))
    assert after.hands == before.hands
    assert public_view(after)["moves_left"] == 3 and public_view(after)["turn"] == SCARLET


def test_the_same_seed_snoops_the_same_card_and_other_seeds_other_cards() -> None:
    def card(seed: int) -> str:
        state = play(rolled(game(seed=seed), SCARLET, (2, 2)), Move(SCARLET, "s8"))[0]
        return snoop_card(play(state, Snoop(SCARLET, MUSTARD))[1])

    assert card(11) == card(11)
    assert len({card(seed) for seed in range(20)}) > 1


def test_the_rest_of_the_roll_may_not_enter_the_square_the_move_started_from() -> None:
    # e7 -> e8 (snoop, 3 left) -> f8 -> f7 -> e7: four steps and back where she started.
    state = play(rolled(scene(scarlet="e7"), SCARLET, (2, 2)), Move(SCARLET, "e8"))[0]
    assert "e7" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "e7")) == "illegal_move"


def test_the_rest_of_the_roll_may_not_re_enter_a_location_passed_through_on_the_way_to_the_snoop_space() -> None:
    # g3 -> Trophy Room -> m4 -> m3 -> m2 -> n2 is the only walk of 5 to the snoop space n2;
    # with 9 rolled, 4 are left, and n2 -> m2 -> m3 -> m4 -> Trophy Room would enter it again.
    state = play(rolled(scene(scarlet="g3"), SCARLET, (4, 5)), Move(SCARLET, "n2"))[0]
    assert public_view(state)["moves_left"] == 4
    assert "Trophy Room" not in legal_destinations(state)
    assert rejected(state, Move(SCARLET, "Trophy Room")) == "illegal_move"


def test_a_mover_may_end_its_move_on_a_snoop_space_reached_by_the_exact_count() -> None:
    # f8 -> f7 -> e7 -> e8 uses all 3 steps and ends on the snoop space e8 ("if you have not
    # used up your dice roll, continue your move": here it is used up).
    state = play(rolled(scene(scarlet="f8"), SCARLET, (1, 2)), Move(SCARLET, "e8"))[0]
    state, events = play(state, Snoop(SCARLET, GREEN), EndTurn(SCARLET))
    assert events[-1] == {"type": "turn_started", "seat": MUSTARD}


# -- suggestions: every player is asked ------------------------------------------------


def scarlet_in_the_gazebo() -> GameState:
    return play(rolled(game(), SCARLET, (1, 2)), Move(SCARLET, "Gazebo"))[0]


def test_every_other_player_is_asked_and_each_holder_shows_one_card() -> None:
    state, events = play(scarlet_in_the_gazebo(), Suggest(SCARLET, MUSTARD, "Rope"))
    assert events[-1] == {"type": "refute_requested", "seat": MUSTARD, "suggester": SCARLET}
    state, events = play(state, Show(MUSTARD, MUSTARD))
    assert events[-1] == {"type": "refute_requested", "seat": WHITE, "suggester": SCARLET}
    state, events = play(state, Show(WHITE, "Rope"))
    assert events[-1] == {"type": "refute_requested", "seat": GREEN, "suggester": SCARLET}
    state, events = play(state, Show(GREEN, "Gazebo"))
    assert types(events) == ["card_shown"]
    assert public_view(state)["phase"] == "suggested"
    assert seat_view(state, SCARLET)["shown_to_me"] == [
        {"by": MUSTARD, "card": MUSTARD}, {"by": WHITE, "card": "Rope"}, {"by": GREEN, "card": "Gazebo"}]


def test_the_suggester_sees_each_card_the_others_only_who_showed() -> None:
    state, _ = play(scarlet_in_the_gazebo(), Suggest(SCARLET, MUSTARD, "Rope"),
                    Show(MUSTARD, MUSTARD), Show(WHITE, "Rope"), Show(GREEN, "Gazebo"))
    shown = {seat: of_type(seat_view(state, seat)["record"], "card_shown") for seat in SEATS}
    assert [event.get("card") for event in shown[SCARLET]] == [MUSTARD, "Rope", "Gazebo"]
    assert [event.get("card") for event in shown[WHITE]] == [None, "Rope", None]
    assert [event["by"] for event in shown[WHITE]] == [MUSTARD, WHITE, GREEN]
    assert [event.get("card") for event in of_type(public_view(state)["record"], "card_shown")] == [None] * 3
    assert seat_view(state, WHITE)["shown_to_me"] == []


def test_players_holding_no_named_card_pass_and_the_question_goes_round() -> None:
    state = play(rolled(game(), SCARLET, (2, 2)), Move(SCARLET, "Courtyard"))[0]
    state, events = play(state, Suggest(SCARLET, ROSE, "Horseshoe"))
    assert events[-2:] == [{"type": "passed", "seat": MUSTARD},
                           {"type": "refute_requested", "seat": WHITE, "suggester": SCARLET}]
    state, events = play(state, Show(WHITE, "Courtyard"))
    assert types(events) == ["card_shown", "passed"] and events[-1]["seat"] == GREEN
    assert public_view(state)["phase"] == "suggested"


def test_a_holder_of_two_named_cards_chooses_which_one_to_show() -> None:
    state = play(rolled(game(), SCARLET, (2, 2)), Move(SCARLET, "Courtyard"))[0]
    state, _ = play(state, Suggest(SCARLET, ROSE, "Rope"))
    assert seat_view(state, WHITE)["may_show"] == ["Rope", "Courtyard"]
    state, events = play(state, Show(WHITE, "Rope"))
    assert events[0] == {"type": "card_shown", "by": WHITE, "to": SCARLET, "card": "Rope"}


def test_a_holder_asked_must_show_and_only_the_one_asked_answers() -> None:
    state = play(scarlet_in_the_gazebo(), Suggest(SCARLET, MUSTARD, "Rope"))[0]
    assert rejected(state, Pass(MUSTARD)) == "must_show"
    assert rejected(state, Show(WHITE, "Rope")) == "not_your_turn"
    assert rejected(state, Show(MUSTARD, "Lead Pipe")) == "cannot_show"


def test_when_no_other_player_holds_a_named_card_everyone_learns_it() -> None:
    state = play(rolled(scene(scarlet="x20"), SCARLET, (1, 1)), Move(SCARLET, "Library"))[0]
    state, events = play(state, Suggest(SCARLET, ROSE, "Horseshoe"))
    assert events[-4:] == [{"type": "passed", "seat": MUSTARD}, {"type": "passed", "seat": WHITE},
                           {"type": "passed", "seat": GREEN}, {"type": "no_refutation", "suggester": SCARLET}]


def test_the_suggested_suspect_and_weapon_are_brought_into_the_location() -> None:
    state, events = play(scarlet_in_the_gazebo(), Suggest(SCARLET, PEACOCK, "Poison"))
    assert {"type": "moved", "seat": PEACOCK, "to": "Gazebo", "via": "suggestion"} in events
    assert {"type": "weapon_moved", "weapon": "Poison", "to": "Gazebo"} in events
    view = public_view(state)
    assert view["position"][PEACOCK] == "Gazebo" and view["weapons"]["Poison"] == "Gazebo"
    assert view["weapons"]["Rope"] == "off the board"


def test_a_player_out_of_the_game_still_answers_suggestions() -> None:
    state = play(game(), Accuse(SCARLET, PLUM, "Rope", "Gazebo"), EndTurn(SCARLET))[0]
    state = play(state, Roll(MUSTARD, (1, 2)), Move(MUSTARD, "Gazebo"), Suggest(MUSTARD, SCARLET, "Knife"))[0]
    state, events = play(state, Show(GREEN, "Gazebo"))
    assert events[-1] == {"type": "refute_requested", "seat": SCARLET, "suggester": MUSTARD}
    state, events = play(state, Show(SCARLET, "Knife"))
    assert events == [{"type": "card_shown", "by": SCARLET, "to": MUSTARD, "card": "Knife"}]


# -- suggesting ends movement ---------------------------------------------------------


def test_a_mover_that_suggested_may_not_move_again_that_turn() -> None:
    state = play(scarlet_in_the_gazebo(), Suggest(SCARLET, MUSTARD, "Rope"),
                 Show(MUSTARD, MUSTARD), Show(WHITE, "Rope"), Show(GREEN, "Gazebo"))[0]
    assert rejected(state, Move(SCARLET, "s10")) == "wrong_phase"
    assert rejected(state, Roll(SCARLET)) == "wrong_phase"


def test_a_player_brought_into_a_location_may_suggest_there_instead_of_moving_and_then_may_not_move() -> None:
    # Scarlet takes the passage to the Conservatory and brings Mustard in; on his turn he
    # suggests there without rolling, and may then neither roll nor take the passage back.
    state = play(scene(scarlet="Drawing Room"), Move(SCARLET, "Conservatory"), Suggest(SCARLET, MUSTARD, "Knife"),
                 Show(MUSTARD, MUSTARD), EndTurn(SCARLET))[0]
    assert legal_destinations(state) == ("Drawing Room",)
    state, events = play(state, Suggest(MUSTARD, PLUM, "Rope"), Show(WHITE, PLUM))
    assert events[0]["room"] == "Conservatory"
    assert rejected(state, Roll(MUSTARD)) == "wrong_phase"
    assert rejected(state, Move(MUSTARD, "Drawing Room")) == "wrong_phase"


# -- accusations --------------------------------------------------------------------


@pytest.mark.parametrize("where", ["Cloakroom", "e7", "Gazebo", "u22"])
def test_an_accusation_may_name_any_location_from_anywhere(where: str) -> None:
    state, events = play(scene(scarlet=where), Accuse(SCARLET, ROSE, "Horseshoe", "Library"))
    assert events[-1] == {"type": "game_over", "winner": SCARLET, "solution": SOLUTION}
    assert seat_view(state, WHITE)["solution"] == SOLUTION


def test_an_accusation_may_be_made_part_way_through_a_move() -> None:
    state, events = play(on_s8_with_three_to_go(), Accuse(SCARLET, ROSE, "Horseshoe", "Library"))
    assert events[-1]["winner"] == SCARLET


def test_a_suggestion_and_an_accusation_may_be_made_on_the_same_turn() -> None:
    state, events = play(scarlet_in_the_gazebo(), Suggest(SCARLET, ROSE, "Horseshoe"), Show(GREEN, "Gazebo"),
                         Accuse(SCARLET, ROSE, "Horseshoe", "Library"))
    assert events[-1]["winner"] == SCARLET


def test_a_wrong_accuser_takes_no_more_turns() -> None:
    state, events = play(game(), Accuse(SCARLET, PLUM, "Rope", "Gazebo"))
    assert types(events) == ["accused", "eliminated"]
    state, events = play(state, EndTurn(SCARLET))
    assert events == [{"type": "turn_started", "seat": MUSTARD}]
    assert rejected(state, Roll(SCARLET)) == "eliminated"


# -- records and the command line -------------------------------------------------------


def record(tmp_path: Path, *lines: dict[str, Any]) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return str(path)


def replay(path: str, capsys: pytest.CaptureFixture[str], *options: str) -> list[dict[str, Any]]:
    assert main(["replay", path, *options]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


SETUP = Setup("master_detective", SEATS, 7, DEAL).to_record()  # seed 7: Scarlet wins the roll-off

SHORT_GAME = [
    SETUP,
    {"type": "roll", "seat": SCARLET, "dice": [3, 4]},
    {"type": "move", "seat": SCARLET, "to": "s8"},
    {"type": "snoop", "seat": SCARLET, "target": MUSTARD},
    {"type": "move", "seat": SCARLET, "to": "Gazebo"},
    {"type": "suggest", "seat": SCARLET, "suspect": MUSTARD, "weapon": "Rope"},
    {"type": "show", "seat": MUSTARD, "card": MUSTARD},
    {"type": "show", "seat": WHITE, "card": "Rope"},
    {"type": "show", "seat": GREEN, "card": "Gazebo"},
    {"type": "end_turn", "seat": SCARLET},
    {"type": "suggest", "seat": MUSTARD, "suspect": WHITE, "weapon": "Horseshoe"},  # brought in: no roll
    {"type": "show", "seat": WHITE, "card": WHITE},
    {"type": "show", "seat": GREEN, "card": "Gazebo"},
    {"type": "accuse", "seat": MUSTARD, "suspect": WHITE, "weapon": "Horseshoe", "room": "Gazebo"},
    {"type": "end_turn", "seat": MUSTARD},
    {"type": "move", "seat": WHITE, "to": "Conservatory"},  # no passage from the Gazebo: refused
    {"type": "accuse", "seat": WHITE, "suspect": ROSE, "weapon": "Horseshoe", "room": "Library"},
]


def test_a_short_game_replayed_from_its_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = replay(record(tmp_path, *SHORT_GAME), capsys)
    assert [result["line"] for result in results] == list(range(1, len(SHORT_GAME) + 1))
    assert [result["ok"] for result in results] == [True] * 15 + [False, True]
    setup_events = results[0]["events"]
    assert [e["seat"] for e in of_type(setup_events, "rolled")] == [*SEATS, SCARLET, WHITE]  # a tie, rolled again
    assert setup_events[-1] == {"type": "turn_started", "seat": SCARLET}
    assert results[15]["error"]["code"] == "illegal_move"
    assert types(results[13]["events"]) == ["accused", "eliminated"]
    assert results[-1]["events"][-1] == {"type": "game_over", "winner": WHITE, "solution": SOLUTION}


def test_a_replay_viewed_by_one_seat_hides_others_snooped_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record(tmp_path, *SHORT_GAME[:4])
    (snooped,) = of_type(replay(path, capsys, "--view", SCARLET)[3]["events"], "snooped")
    assert snooped["card"] in HANDS[MUSTARD]
    for seat in (MUSTARD, WHITE):
        assert of_type(replay(path, capsys, "--view", seat)[3]["events"], "snooped") == [
            {"type": "snooped", "seat": SCARLET, "target": MUSTARD}]
    final = replay(path, capsys, "--view", WHITE, "--final-view")[-1]
    assert final["seen"] == [] and snooped["card"] not in carried_cards(final)
    final = replay(path, capsys, "--view", SCARLET, "--final-view")[-1]
    assert final["seen"] == [{"from": MUSTARD, "card": snooped["card"]}] and final["moves_left"] == 3


def test_the_replayed_game_matches_the_engine_played_directly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = replay(record(tmp_path, *SHORT_GAME[:10]), capsys, "--final-view")
    state, _ = new_game(Setup("master_detective", SEATS, 7, DEAL))
    state, _ = play(state, Roll(SCARLET, (3, 4)), Move(SCARLET, "s8"), Snoop(SCARLET, MUSTARD),
                    Move(SCARLET, "Gazebo"), Suggest(SCARLET, MUSTARD, "Rope"), Show(MUSTARD, MUSTARD),
                    Show(WHITE, "Rope"), Show(GREEN, "Gazebo"), EndTurn(SCARLET))
    assert results[-1] == json.loads(json.dumps(public_view(state)))


def destinations_cli(capsys: pytest.CaptureFixture[str], *args: str) -> set[str]:
    assert main(["destinations", "--edition", "master_detective", *args]) == 0
    return set(capsys.readouterr().out.splitlines())


def test_the_destinations_command_reaches_a_location_from_the_cloakroom(capsys: pytest.CaptureFixture[str]) -> None:
    assert "Gazebo" in destinations_cli(capsys, "Cloakroom", "3")


def test_the_destinations_command_moves_by_master_detective_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert destinations_cli(capsys, "g3", "2") == set(reach("g3", 2))  # m4, j7 through the Trophy Room; u22
    assert destinations_cli(capsys, "g14", "3", "--occupied", "e14") == {"d14", "h12", "h16", "i13", "i15"}
