"""CLUE The Big Bang Theory (rulebook: seed 000), played as the rulebook tells it.

The standard table (``house_games.py``) seats all six friends clockwise Penny,
Raj, Leonard, Howard, Bernadette, Amy, three cards each; the envelope holds
the rulebook's answer: Howard, Wiped Hard Drive, Kitchen. The Sheldon Card
deck and the personality powers are the companion's own
(``big_bang_theory.toml``); a test sets the pile by hand to pick the card drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from house_games import (AMY, BBT, BBT_ASIDE, BBT_DEAL, BBT_ENVELOPE, BBT_HANDS, BBT_SEATS, BBT_TWO_DEAL, BBT_TWO_HANDS,
                         BERNADETTE, HOWARD, LEONARD, PENNY, RAJ, Events, announced, assert_private, holding, of_type,
                         on_top, play, ready, record, rejected, replay, strings, table, the_only, types, use, where)

from companion import (Accuse, ClueError, EndTurn, GameState, Move, Roll, Setup, Show, Suggest, apply,
                       legal_destinations, new_game, public_view, seat_view)
from companion.rules.actions import DealSpec, Draw, PlayCard, UsePower

SOLVED = {"suspect": HOWARD, "weapon": "Wiped Hard Drive", "room": "Kitchen"}


def bbt(first: str = PENNY, **at: str) -> GameState:
    """The standard table with ``first`` on turn; ``at`` places movers (keyword: suspect name)."""
    return table(BBT, first, at)


def refused_setup(setup: Setup) -> str:
    with pytest.raises(ClueError) as refusal:
        new_game(setup)
    code: str = refusal.value.code
    return code


# -- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_friends_may_play(players: int) -> None:
    state, _ = new_game(Setup(BBT, BBT_SEATS[:players], seed=players))
    assert public_view(state)["seats"] == list(BBT_SEATS[:players])


def test_sheldon_cannot_play_alone() -> None:
    assert refused_setup(Setup(BBT, (PENNY,))) == "bad_input"


@pytest.mark.parametrize("seed", range(6))
def test_everyone_rolls_two_dice_and_the_highest_roller_goes_first(seed: int) -> None:
    seats = (PENNY, RAJ, LEONARD, AMY)
    state, events = new_game(Setup(BBT, seats, seed))
    rolls = [event.to_dict() for event in events if event.type == "rolled"]
    assert all(len(r["dice"]) == 2 and r["total"] == sum(r["dice"]) for r in rolls)
    rolling = list(seats)
    while rolls:  # tied highest rollers roll again, in seat order
        this_round, rolls = rolls[: len(rolling)], rolls[len(rolling):]
        assert [r["seat"] for r in this_round] == rolling
        best = max(r["total"] for r in this_round)
        rolling = [r["seat"] for r in this_round if r["total"] == best]
    assert rolling == [public_view(state)["turn"]]


def test_the_table_may_agree_who_goes_first() -> None:
    state, events = new_game(Setup(BBT, (PENNY, RAJ, LEONARD), 3, first=LEONARD))
    assert "rolled" not in [event.type for event in events]
    assert public_view(state)["turn"] == LEONARD


@pytest.mark.parametrize(("players", "each", "left"), [(2, 9, 0), (3, 6, 0), (4, 4, 2), (5, 3, 3), (6, 3, 0)])
def test_equal_hands_and_the_two_or_three_leftovers_lie_face_up_for_everyone(players: int, each: int,
                                                                              left: int) -> None:
    state, events = new_game(Setup(BBT, BBT_SEATS[:players], seed=11))
    face_up = list(state.face_up)
    assert len(face_up) == left
    assert set(public_view(state)["hand_sizes"].values()) == {each}
    assert events[0].to_dict()["face_up"] == face_up
    assert public_view(state)["face_up"] == face_up
    assert all(seat_view(state, seat)["face_up"] == face_up for seat in state.seats)
    everything = [card for seat in state.seats for card in state.hand(seat)] + face_up + [*state.envelope.cards()]
    assert sorted(everything) == sorted(state.edition.deck.all)


def four_player_deal(sizes: tuple[int, int, int, int], face_up: int) -> DealSpec:
    cards = [card for card in new_game(Setup(BBT, BBT_SEATS))[0].edition.deck.all if card not in BBT_ENVELOPE]
    hands, at = {}, 0
    for seat, size in zip(BBT_SEATS[:4], sizes):
        hands[seat], at = tuple(cards[at:at + size]), at + size
    return DealSpec(BBT_ENVELOPE, hands, tuple(cards[at:at + face_up]))


def test_a_given_deal_of_equal_hands_and_two_face_up_is_accepted() -> None:
    state, _ = new_game(Setup(BBT, BBT_SEATS[:4], deal=four_player_deal((4, 4, 4, 4), 2)))
    assert len(public_view(state)["face_up"]) == 2


@pytest.mark.parametrize(("sizes", "face_up"), [((5, 5, 4, 4), 0), ((5, 4, 4, 3), 2), ((4, 4, 4, 3), 3)])
def test_a_given_deal_must_give_equal_hands_and_lay_the_rest_face_up(sizes: tuple[int, int, int, int],
                                                                    face_up: int) -> None:
    assert refused_setup(Setup(BBT, BBT_SEATS[:4], deal=four_player_deal(sizes, face_up))) == "bad_deal"


def test_all_six_movers_and_misdeeds_start_in_the_centre_even_with_three_players() -> None:
    state, _ = new_game(Setup(BBT, (PENNY, RAJ, LEONARD), seed=5))
    view = public_view(state)
    assert set(view["position"].values()) == {"Centre"} and len(view["position"]) == 6
    assert set(view["weapons"].values()) == {"Centre"} and len(view["weapons"]) == 6


# -- moving ----------------------------------------------------------------------------------------


def test_leonard_rolls_seven_and_moves_from_the_laundry_room_to_the_stairwell() -> None:
    state, events = play(bbt(LEONARD, Leonard="Laundry Room"), Roll(LEONARD, (3, 4)), Move(LEONARD, "Stairwell"))
    assert events[-1] == {"type": "moved", "seat": LEONARD, "to": "Stairwell", "via": "roll"}
    state, events = play(state, Suggest(LEONARD, RAJ, "Petrified Toothbrush"))
    assert events[0]["room"] == "Stairwell"


def test_amy_brings_penny_and_the_dismantled_shelbot_into_the_laundry_room() -> None:
    state, events = play(bbt(AMY, Amy="Living Room (Penny)"), Move(AMY, "Laundry Room"),
                         Suggest(AMY, PENNY, "Dismantled Shelbot"))
    assert events[1:] == [
        {"type": "suggested", "seat": AMY, "suspect": PENNY, "weapon": "Dismantled Shelbot", "room": "Laundry Room"},
        {"type": "moved", "seat": PENNY, "to": "Laundry Room", "via": "suggestion"},
        {"type": "weapon_moved", "weapon": "Dismantled Shelbot", "to": "Laundry Room"},
        {"type": "refute_requested", "seat": PENNY, "suggester": AMY},  # Penny sits on Amy's left
    ]
    assert seat_view(state, PENNY)["may_show"] == [PENNY, "Dismantled Shelbot", "Laundry Room"]


def test_you_move_from_the_bedroom_into_the_kitchen_and_stop_to_ask() -> None:
    state, events = play(bbt(Penny="Bedroom (Sheldon)"), Move(PENNY, "Kitchen"))
    assert events == [{"type": "moved", "seat": PENNY, "to": "Kitchen", "via": "passage"}]
    assert rejected(state, Move(PENNY, "Roof")) == "wrong_phase"  # no passing through into another room
    assert rejected(state, Roll(PENNY, (3, 3))) == "wrong_phase"
    state, events = play(state, Suggest(PENNY, HOWARD, "Wiped Hard Drive"))
    assert types(events)[-1] == "no_refutation"


def test_on_your_next_turn_you_move_through_the_secret_passage_to_the_roof() -> None:
    state = bbt(Penny="Kitchen")
    assert legal_destinations(state) == ("Bedroom (Sheldon)", "Roof")
    state, events = play(state, Move(PENNY, "Roof"), Suggest(PENNY, RAJ, "Stained Cushion"))
    assert events[0] == {"type": "moved", "seat": PENNY, "to": "Roof", "via": "passage"}
    assert events[1]["room"] == "Roof"


@pytest.mark.parametrize(("here", "there"), [
    ("Kitchen", "Roof"), ("Roof", "Kitchen"),
    ("Laundry Room", "Living Room (Penny)"), ("Living Room (Penny)", "Laundry Room"),
    ("Bedroom (Sheldon)", "Kitchen"), ("Kitchen", "Bedroom (Sheldon)"),
    ("Bathroom", "Bedroom (Leonard)"), ("Bedroom (Leonard)", "Bathroom"),
])
def test_every_secret_passage_and_joining_room_counts_as_entering(here: str, there: str) -> None:
    state, events = play(bbt(Penny=here), Move(PENNY, there), Suggest(PENNY, HOWARD, "Wiped Hard Drive"))
    assert events[0]["via"] == "passage" and events[1]["room"] == there


def test_passages_are_taken_instead_of_rolling_not_after() -> None:
    state, _ = play(bbt(Penny="Kitchen"), Roll(PENNY, (1, 1)))
    assert "Roof" not in legal_destinations(state)
    assert rejected(state, Move(PENNY, "Roof")) == "illegal_move"


def test_the_centre_has_no_passage_so_the_first_move_is_a_roll() -> None:
    assert legal_destinations(bbt()) == ()
    assert rejected(bbt(), Move(PENNY, "Stairwell")) == "illegal_move"


def test_no_question_is_asked_in_the_centre() -> None:
    state, _ = play(bbt(Penny="m8"), Roll(PENNY, (1, 1)), Move(PENNY, "Center"))
    assert where(state, PENNY) == "Centre"
    assert rejected(state, Suggest(PENNY, RAJ, "Dog-eared Comic")) == "not_in_room"


# -- "If you entered a room, you must stop and ask a CLUE question" --------------------------------


def test_if_you_entered_a_room_you_must_ask_before_ending_your_turn() -> None:
    state, _ = play(bbt(Penny="Kitchen"), Move(PENNY, "Roof"))
    assert rejected(state, EndTurn(PENNY)) == "must_suggest"
    state, _ = play(state, Suggest(PENNY, HOWARD, "Wiped Hard Drive"), Show(HOWARD, "Roof"))
    state, events = play(state, EndTurn(PENNY))
    assert events == [{"type": "turn_started", "seat": RAJ}]


def test_a_rolled_move_into_a_room_owes_a_question_too() -> None:
    state, _ = play(bbt(Penny="m8"), Roll(PENNY, (6, 6)))
    room = next(place for place in legal_destinations(state) if not place[0].islower() and place != "Centre")
    state, _ = play(state, Move(PENNY, room))
    assert rejected(state, EndTurn(PENNY)) == "must_suggest"


@pytest.mark.parametrize("how", ["card", "power"])
def test_a_bazinga_into_a_room_owes_a_question(how: str) -> None:
    state, _ = play(ready(bbt(), how, PENNY, "bazinga-1"), use(how, PENNY, "bazinga", room="Roof"))
    assert rejected(state, EndTurn(PENNY)) == "must_suggest"


def test_an_accusation_from_a_room_is_refused_for_the_place_not_the_question() -> None:
    state, _ = play(bbt(Penny="Kitchen"), Move(PENNY, "Roof"))  # asking first would not let her accuse here
    assert rejected(state, Accuse(PENNY, HOWARD, "Wiped Hard Drive", "Kitchen")) == "accusation_location"


def test_entering_the_centre_asks_nothing() -> None:
    state, _ = play(bbt(Penny="m8"), Roll(PENNY, (1, 1)), Move(PENNY, "Centre"))
    state, events = play(state, EndTurn(PENNY))
    assert types(events) == ["turn_started"]


def test_the_refusal_says_where_to_ask() -> None:
    state, _ = play(bbt(Penny="Kitchen"), Move(PENNY, "Roof"))
    with pytest.raises(ClueError, match=r"Penny must make a suggestion in the room just entered \(Roof\) before ending the turn"):
        apply(state, EndTurn(PENNY))


def test_a_record_that_ends_the_turn_without_asking_is_refused_on_that_line(tmp_path: Path, capsys) -> None:
    state, _ = play(bbt(), Roll(PENNY, (6, 6)))
    room = next(place for place in legal_destinations(state) if not place[0].islower() and place != "Centre")
    actions = [Roll(PENNY, (6, 6)), Move(PENNY, room), EndTurn(PENNY), Suggest(PENNY, HOWARD, "Wiped Hard Drive")]
    results = replay(tmp_path, capsys, record(Setup(BBT, BBT_SEATS, 7, BBT_DEAL, PENNY), actions))
    assert [result["ok"] for result in results] == [True, True, True, False, True]
    assert results[3]["error"]["code"] == "must_suggest"


# -- accusations -----------------------------------------------------------------------------------


def test_i_accuse_howard_of_wiping_the_hard_drive_in_the_kitchen_from_the_grey_space() -> None:
    state, events = play(bbt(), Accuse(PENNY, HOWARD, "Wiped Hard Drive", "Kitchen"))
    assert events == [
        {"type": "accused", "seat": PENNY, "suspect": HOWARD, "weapon": "Wiped Hard Drive", "room": "Kitchen",
         "correct": True},
        {"type": "game_over", "winner": PENNY, "solution": SOLVED},
    ]
    assert public_view(state)["solution"] == SOLVED


def test_get_back_to_the_centre_then_accuse() -> None:
    state, events = play(bbt(Penny="m8"), Roll(PENNY, (1, 1)), Move(PENNY, "Centre"),
                         Accuse(PENNY, HOWARD, "Wiped Hard Drive", "Kitchen"))
    assert events[-1]["winner"] == PENNY


@pytest.mark.parametrize("place", ["Kitchen", "Stairwell", "q11", "r11"])
def test_accusations_are_made_only_in_the_centre(place: str) -> None:
    assert rejected(bbt(Penny=place), Accuse(PENNY, HOWARD, "Wiped Hard Drive", "Kitchen")) == "accusation_location"


def test_not_even_right_after_asking_in_the_kitchen() -> None:
    state, _ = play(bbt(Penny="Roof"), Move(PENNY, "Kitchen"), Suggest(PENNY, HOWARD, "Wiped Hard Drive"))
    assert rejected(state, Accuse(PENNY, HOWARD, "Wiped Hard Drive", "Kitchen")) == "accusation_location"


def test_a_wrong_accusation_in_the_centre_puts_you_out_but_you_keep_answering() -> None:
    state, events = play(bbt(), Accuse(PENNY, RAJ, "Wiped Hard Drive", "Kitchen"), EndTurn(PENNY))
    assert types(events) == ["accused", "eliminated", "turn_started"]
    state, events = play(state, Roll(RAJ, (3, 3)), Move(RAJ, "Bathroom"), Suggest(RAJ, PENNY, "Dismantled Shelbot"))
    assert events[-1] == {"type": "refute_requested", "seat": PENNY, "suggester": RAJ}


# -- Sheldon Card spaces ---------------------------------------------------------------------------


@pytest.mark.parametrize(("start", "dice"), [("q11", (1, 1)), ("Centre", (4, 4)), ("p11", (1, 1))])
def test_stop_on_a_sheldon_card_space_without_an_exact_roll_and_draw(start: str, dice: tuple[int, int]) -> None:
    state = on_top(bbt(Penny=start), "bazinga-1", "my_spot-1")
    state, _ = play(state, Roll(PENNY, dice))
    assert "r11" in legal_destinations(state)
    state, events = play(state, Move(PENNY, "r11"))
    assert events == [
        {"type": "moved", "seat": PENNY, "to": "r11", "via": "roll"},
        {"type": "drew", "seat": PENNY, "deck": "Sheldon Card", "card_id": "bazinga-1"},
    ]
    view = public_view(state)
    assert view["phase"] == "moved"
    assert view["bonus"] == {"name": "Sheldon Card", "pile": 1, "discard": [], "watches": 0,
                             "held": {PENNY: ["bazinga-1"]}}


def test_an_occupied_sheldon_card_space_is_no_place_to_stop() -> None:
    state, _ = play(bbt(Penny="q11", Howard="r11"), Roll(PENNY, (1, 1)))
    assert "r11" not in legal_destinations(state)
    assert rejected(state, Move(PENNY, "r11")) == "illegal_move"


def test_soft_kitty_is_played_at_once_on_the_player_to_the_left() -> None:
    state = on_top(bbt(Penny="q11"), "soft_kitty-2")
    state, events = play(state, Roll(PENNY, (1, 1)), Move(PENNY, "r11"))
    snooped = the_only(events, "snooped")
    assert snooped["seat"] == PENNY and snooped["target"] == RAJ and snooped["card"] in BBT_HANDS[RAJ]
    assert public_view(state)["bonus"]["discard"] == ["soft_kitty-2"]
    assert public_view(state)["bonus"]["held"] == {}
    assert seat_view(state, PENNY)["seen"] == [{"from": RAJ, "card": snooped["card"]}]
    assert_private(state)


def test_roll_too_low_for_a_room_grab_a_bazinga_and_go_straight_to_a_room() -> None:
    state = on_top(bbt(Penny="q11"), "bazinga-2")
    state, events = play(state, Roll(PENNY, (1, 1)), Move(PENNY, "r11"),
                         PlayCard(PENNY, "bazinga", room="Roof"), Suggest(PENNY, HOWARD, "Wiped Hard Drive"))
    assert types(events)[1:6] == ["moved", "drew", "card_played", "moved", "suggested"]
    assert events[5]["room"] == "Roof"


def test_used_sheldon_cards_are_reshuffled_when_the_pile_runs_out() -> None:
    state = on_top(bbt(Penny="q11"), discard=("bazinga-1", "my_spot-2"))
    state, events = play(state, Roll(PENNY, (1, 1)), Move(PENNY, "r11"))
    drew = the_only(events, "drew")
    assert drew["card_id"] in ("bazinga-1", "my_spot-2")
    assert public_view(state)["bonus"]["pile"] == 1 and public_view(state)["bonus"]["discard"] == []


def test_no_sheldon_card_for_being_brought_in_by_a_question() -> None:
    state, _ = play(bbt(Penny="Kitchen"), Move(PENNY, "Roof"), Suggest(PENNY, RAJ, "Wiped Hard Drive"),
                    Show(RAJ, RAJ), EndTurn(PENNY))
    assert public_view(state)["may_draw"] == []
    assert rejected(state, Draw(RAJ)) == "wrong_phase"


# -- Sheldon Cards and personality powers ------------------------------------------------------------

HOW = pytest.mark.parametrize("how", ["card", "power"])


@HOW
def test_bazinga_penny_moves_straight_to_any_room_and_may_ask_there(how: str) -> None:
    state = ready(bbt(), how, PENNY, "bazinga-1")
    state, events = play(state, use(how, PENNY, "bazinga", room="Roof"))
    assert events == [announced(how, PENNY, "bazinga-1", "Cheesecake Factory Shift"),
                      {"type": "moved", "seat": PENNY, "to": "Roof", "via": how}]
    state, events = play(state, Suggest(PENNY, HOWARD, "Wiped Hard Drive"))
    assert events[0]["room"] == "Roof"


@HOW
@pytest.mark.parametrize(("room", "code"), [(None, "bad_input"), ("Centre", "illegal_move"),
                                            ("r11", "illegal_move"), ("Sheldon's Spot", "unknown_card")])
def test_bazinga_needs_another_room(how: str, room: str | None, code: str) -> None:
    state = ready(bbt(), how, PENNY, "bazinga-1")
    assert rejected(state, use(how, PENNY, "bazinga-1", **({"room": room} if room else {}))) == code


@HOW
def test_bazinga_not_after_asking_a_question(how: str) -> None:
    state = ready(bbt(Penny="Kitchen"), how, PENNY, "bazinga-1")
    state, _ = play(state, Move(PENNY, "Roof"), Suggest(PENNY, RAJ, "Wiped Hard Drive"), Show(RAJ, RAJ))
    assert rejected(state, use(how, PENNY, "bazinga-1", room="Stairwell")) == "wrong_phase"


@HOW
def test_roommate_agreement_leonard_rolls_and_moves_again_after_his_move(how: str) -> None:
    state = ready(bbt(LEONARD), how, LEONARD, "roommate_agreement-1")
    state, _ = play(state, Roll(LEONARD, (3, 2)), Move(LEONARD, "Stairwell"))
    state, events = play(state, use(how, LEONARD, "roommate_agreement"))
    assert events == [announced(how, LEONARD, "roommate_agreement-1", "Experimental Physicist")]
    assert public_view(state)["phase"] == "start"
    state, events = play(state, Roll(LEONARD, (1, 2)), Move(LEONARD, "Laundry Room"),
                         Suggest(LEONARD, PENNY, "Dismantled Shelbot"))
    assert of_type(events, "suggested")[0]["room"] == "Laundry Room"


@HOW
def test_roll_again_only_after_moving(how: str) -> None:
    state = ready(bbt(LEONARD), how, LEONARD, "roommate_agreement-1")
    assert rejected(state, use(how, LEONARD, "roommate_agreement-1")) == "wrong_phase"
    state, _ = play(state, Roll(LEONARD, (3, 2)))
    assert rejected(state, use(how, LEONARD, "roommate_agreement-1")) == "wrong_phase"


@HOW
def test_after_a_question_rolling_again_allows_no_second_question(how: str) -> None:
    state = ready(bbt(LEONARD), how, LEONARD, "roommate_agreement-1")
    state, _ = play(state, Roll(LEONARD, (3, 2)), Move(LEONARD, "Stairwell"),
                    Suggest(LEONARD, HOWARD, "Wiped Hard Drive"), use(how, LEONARD, "roommate_agreement-1"),
                    Roll(LEONARD, (1, 2)), Move(LEONARD, "Laundry Room"))
    assert rejected(state, Suggest(LEONARD, PENNY, "Dismantled Shelbot")) == "wrong_phase"
    play(state, EndTurn(LEONARD))


@HOW
def test_rolling_again_does_not_take_the_passage_back_into_the_room_just_left(how: str) -> None:
    state = ready(bbt(LEONARD, Leonard="Kitchen"), how, LEONARD, "roommate_agreement-1")
    state, _ = play(state, Move(LEONARD, "Roof"), use(how, LEONARD, "roommate_agreement-1"))
    with pytest.raises(ClueError) as refusal:
        play(state, Move(LEONARD, "Kitchen"))
    assert refusal.value.code in ("illegal_move", "wrong_phase")


@HOW
def test_fun_with_flags_raj_looks_blind_at_a_card_of_anyone_he_chooses(how: str) -> None:
    state = ready(bbt(RAJ), how, RAJ, "fun_with_flags-2")
    state, events = play(state, use(how, RAJ, "fun_with_flags", target=AMY))
    assert events[0] == announced(how, RAJ, "fun_with_flags-2", "Selective Mutism")
    snooped = the_only(events, "snooped")
    assert (snooped["seat"], snooped["target"]) == (RAJ, AMY) and snooped["card"] in BBT_HANDS[AMY]
    assert seat_view(state, RAJ)["seen"] == [{"from": AMY, "card": snooped["card"]}]
    assert_private(state)


@HOW
@pytest.mark.parametrize(("target", "code"), [(None, "bad_input"), (RAJ, "bad_input"), ("Sheldon", "unknown_seat")])
def test_fun_with_flags_needs_another_player(how: str, target: str | None, code: str) -> None:
    state = ready(bbt(RAJ), how, RAJ, "fun_with_flags-1")
    assert rejected(state, use(how, RAJ, "fun_with_flags-1", **({"target": target} if target else {}))) == code


def test_fun_with_flags_only_on_a_seated_player() -> None:
    state = table(BBT, RAJ, seats=(PENNY, RAJ, LEONARD))
    assert rejected(state, UsePower(RAJ, target=HOWARD)) == "unknown_seat"


@HOW
def test_thats_my_spot_howard_swaps_places_with_any_other_mover(how: str) -> None:
    state = ready(bbt(HOWARD, Penny="Roof"), how, HOWARD, "my_spot-1")
    state, events = play(state, use(how, HOWARD, "my_spot", target=PENNY))
    assert events[0] == announced(how, HOWARD, "my_spot-1", "Astronaut")
    assert [(e["type"], e["seat"], e["to"]) for e in events[1:]] == [("moved", HOWARD, "Roof"),
                                                                    ("moved", PENNY, "Centre")]
    assert (where(state, HOWARD), where(state, PENNY)) == ("Roof", "Centre")


@HOW
def test_a_swap_is_reported_as_a_swap(how: str) -> None:
    state = ready(bbt(HOWARD, Penny="Roof"), how, HOWARD, "my_spot-1")
    state, events = play(state, use(how, HOWARD, "my_spot-1", target=PENNY))
    assert [e["via"] for e in of_type(events, "moved")] == ["swap", "swap"]


@HOW
def test_swap_places_after_moving_and_asking(how: str) -> None:
    state = ready(bbt(HOWARD, Howard="Kitchen", Amy="q11"), how, HOWARD, "my_spot-1")
    state, _ = play(state, Move(HOWARD, "Roof"), Suggest(HOWARD, HOWARD, "Wiped Hard Drive"),
                    use(how, HOWARD, "my_spot-1", target=AMY))
    assert (where(state, HOWARD), where(state, AMY)) == ("q11", "Roof")


@HOW
@pytest.mark.parametrize(("target", "code"), [(None, "bad_input"), (RAJ, "illegal_move"), (HOWARD, "illegal_move"),
                                              ("Sheldon", "unknown_card")])
def test_swap_places_needs_a_mover_somewhere_else(how: str, target: str | None, code: str) -> None:
    state = ready(bbt(HOWARD), how, HOWARD, "my_spot-1")
    assert rejected(state, use(how, HOWARD, "my_spot-1", **({"target": target} if target else {}))) == code


@HOW
def test_no_swapping_places_in_the_middle_of_a_move(how: str) -> None:
    state = ready(bbt(HOWARD, Penny="Roof"), how, HOWARD, "my_spot-1")
    state, _ = play(state, Roll(HOWARD, (3, 3)))
    assert rejected(state, use(how, HOWARD, "my_spot-1", target=PENNY)) == "wrong_phase"


def test_bernadette_looks_blind_at_a_card_of_the_player_on_her_left() -> None:
    state, events = play(bbt(BERNADETTE), UsePower(BERNADETTE))
    assert events[0] == {"type": "power_used", "seat": BERNADETTE, "power": "Microbiologist"}
    snooped = the_only(events, "snooped")
    assert snooped["target"] == AMY and snooped["card"] in BBT_HANDS[AMY]
    assert_private(state)


def test_amy_too_may_look_at_a_card_of_anyone_she_chooses() -> None:
    state, events = play(bbt(AMY), UsePower(AMY, target=PENNY))
    assert events[0]["power"] == "Neurobiologist" and the_only(events, "snooped")["card"] in BBT_HANDS[PENNY]


@pytest.mark.parametrize("card_id", ["bazinga", "bazinga-2"])
def test_a_kept_card_is_played_once_then_discarded(card_id: str) -> None:
    state, events = play(holding(bbt(), PENNY, "bazinga-2"), PlayCard(PENNY, card_id, room="Roof"))
    assert events[0] == {"type": "card_played", "seat": PENNY, "card_id": "bazinga-2"}
    assert public_view(state)["bonus"]["discard"] == ["bazinga-2"]
    assert public_view(state)["bonus"]["held"] == {}
    assert rejected(state, PlayCard(PENNY, card_id, room="Kitchen")) == "bad_input"


def test_only_a_card_you_hold_can_be_played() -> None:
    state = holding(bbt(), RAJ, "bazinga-1")
    assert rejected(state, PlayCard(PENNY, "bazinga-1", room="Roof")) == "bad_input"
    assert rejected(state, PlayCard(PENNY, "stolen_flag", room="Roof")) == "bad_input"


def test_cards_and_powers_are_played_on_your_own_turn() -> None:
    state = holding(bbt(), RAJ, "fun_with_flags-1")
    assert rejected(state, PlayCard(RAJ, "fun_with_flags-1", target=AMY)) == "not_your_turn"
    assert rejected(state, UsePower(RAJ, target=AMY)) == "not_your_turn"


def test_not_while_the_question_is_being_answered() -> None:
    state = holding(bbt(Penny="Kitchen"), PENNY, "bazinga-1")
    state, _ = play(state, Move(PENNY, "Roof"), Suggest(PENNY, RAJ, "Wiped Hard Drive"))
    assert rejected(state, PlayCard(PENNY, "bazinga-1", room="Stairwell")) == "wrong_phase"
    assert rejected(state, UsePower(PENNY, room="Stairwell")) == "wrong_phase"


def test_a_power_is_used_once_per_game_then_turned_over() -> None:
    state, _ = play(bbt(RAJ), UsePower(RAJ, target=AMY))
    assert public_view(state)["powers"][RAJ] == {"name": "Selective Mutism", "used": True,
                                                 "text": "Once per game: look at a card of any player you choose, "
                                                         "drawn blind."}
    assert rejected(state, UsePower(RAJ, target=PENNY)) == "wrong_phase"


def test_a_refused_power_is_not_spent() -> None:
    state = bbt()
    assert rejected(state, UsePower(PENNY)) == "bad_input"
    state, events = play(state, UsePower(PENNY, room="Stairwell"))
    assert events[-1]["to"] == "Stairwell"


# -- privacy ---------------------------------------------------------------------------------------


def test_what_raj_looked_at_stays_his_even_in_the_record() -> None:
    state, events = play(bbt(RAJ), UsePower(RAJ, target=AMY))
    card = the_only(events, "snooped")["card"]
    for seat in (PENNY, LEONARD, HOWARD, BERNADETTE, AMY):
        view = seat_view(state, seat)
        assert view["seen"] == []
        assert of_type(view["record"], "snooped") == [{"type": "snooped", "seat": RAJ, "target": AMY}]
    assert of_type(public_view(state)["record"], "snooped")[0].get("card") is None
    assert of_type(seat_view(state, RAJ)["record"], "snooped")[0]["card"] == card
    assert_private(state)


# -- two players or teams --------------------------------------------------------------------------


def two(first: str = PENNY, **at: str) -> GameState:
    return table(BBT, first, at, variant="two_player")


def test_two_players_set_four_cards_face_down_aside_before_dealing() -> None:
    state, _ = new_game(Setup(BBT, (PENNY, LEONARD), seed=4, variant="two_player"))
    view = public_view(state)
    assert view["variant"] == "two_player" and view["side_cards"] == 4
    assert view["hand_sizes"] == {PENNY: 7, LEONARD: 7} and view["face_up"] == []
    assert len(state.aside) == 4
    everything = [*state.hand(PENNY), *state.hand(LEONARD), *state.aside, *state.envelope.cards()]
    assert sorted(everything) == sorted(state.edition.deck.all)
    assert_private(state)


@pytest.mark.parametrize("aside", [(), BBT_ASIDE[:3], (*BBT_ASIDE, "Laundry Room")])
def test_a_given_two_player_deal_sets_exactly_four_cards_aside(aside: tuple[str, ...]) -> None:
    deal = DealSpec(BBT_ENVELOPE, BBT_TWO_HANDS, aside=aside)
    assert refused_setup(Setup(BBT, (PENNY, LEONARD), deal=deal, variant="two_player")) == "bad_deal"


def test_side_cards_belong_to_the_two_player_game_only() -> None:
    assert refused_setup(Setup(BBT, (PENNY, LEONARD), deal=BBT_TWO_DEAL)) == "bad_deal"


def test_the_two_player_rules_are_for_two() -> None:
    assert refused_setup(Setup(BBT, (PENNY, RAJ, LEONARD), variant="two_player")) == "bad_input"
    assert refused_setup(Setup(BBT, (PENNY, LEONARD), variant="three_player")) == "bad_input"


@pytest.mark.parametrize("edition", ["classic", "master_detective"])
def test_editions_without_the_two_player_rules_refuse_them(edition: str) -> None:
    with pytest.raises(ClueError) as refusal:  # three seats, so only the variant is wrong
        new_game(Setup(edition, ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), variant="two_player"))
    assert refusal.value.code == "bad_input" and "variant" in str(refusal.value)


def test_the_dice_have_no_question_mark_here() -> None:
    assert rejected(bbt(), Roll(PENNY, (4, "?"))) == "bad_input"
    assert rejected(bbt(), Roll(PENNY, (4,))) == "bad_input"


def test_never_use_the_sheldon_cards_in_a_two_player_game() -> None:
    state, _ = play(two(Penny="q11"), Roll(PENNY, (1, 1)))
    assert public_view(state)["bonus"] is None
    assert "r11" not in legal_destinations(state)
    assert rejected(state, Move(PENNY, "r11")) == "illegal_move"
    assert rejected(state, PlayCard(PENNY, "bazinga-1", room="Roof")) == "wrong_phase"
    assert rejected(state, Draw(PENNY)) == "wrong_phase"


def test_a_sheldon_card_space_is_a_plain_square_in_a_two_player_game() -> None:
    state, events = play(two(Penny="p11"), Roll(PENNY, (1, 1)), Move(PENNY, "r11"))
    assert types(events) == ["rolled", "moved"]


def test_personality_powers_still_work_in_a_two_player_game() -> None:
    state, events = play(two(), UsePower(PENNY, room="Stairwell"), Suggest(PENNY, LEONARD, "Dog-eared Comic"))
    assert types(events)[:3] == ["power_used", "moved", "suggested"]


def penny_asks_unanswerable_questions(state: GameState, times: int) -> tuple[GameState, list[Events]]:
    """Penny shuttles by the secret passage between her Living Room and the Laundry Room, each time
    asking about three of her own cards; Leonard shuttles between his Bedroom and the Bathroom."""
    side: list[Events] = []
    questions = {"Living Room (Penny)": (PENNY, "Petrified Toothbrush"), "Laundry Room": (RAJ, "Dismantled Shelbot")}
    for _ in range(times):
        there = "Living Room (Penny)" if where(state, PENNY) == "Laundry Room" else "Laundry Room"
        state, events = play(state, Move(PENNY, there), Suggest(PENNY, *questions[there]), EndTurn(PENNY))
        assert of_type(events, "no_refutation") == [{"type": "no_refutation", "suggester": PENNY}]
        side.append(of_type(events, "side_card_seen"))
        other = "Bathroom" if where(state, LEONARD) == "Bedroom (Leonard)" else "Bedroom (Leonard)"
        # He entered a room, so he must ask too: about Penny's Toothbrush, which she shows him.
        state, _ = play(state, Move(LEONARD, other), Suggest(LEONARD, LEONARD, "Petrified Toothbrush"),
                        Show(PENNY, "Petrified Toothbrush"), EndTurn(LEONARD))
    return state, side


def test_when_leonard_cannot_answer_penny_looks_at_a_different_side_card_each_time() -> None:
    state = two(Penny="Laundry Room", Leonard="Bathroom")
    state, side = penny_asks_unanswerable_questions(state, 5)
    assert side == [[{"type": "side_card_seen", "seat": PENNY, "index": i, "card": card}]
                    for i, card in enumerate(BBT_ASIDE)] + [[]]
    assert seat_view(state, PENNY)["seen"] == [{"from": "aside", "index": i, "card": card}
                                               for i, card in enumerate(BBT_ASIDE)]
    assert seat_view(state, LEONARD)["seen"] == []
    assert of_type(seat_view(state, LEONARD)["record"], "side_card_seen")[0] == {
        "type": "side_card_seen", "seat": PENNY, "index": 0}
    assert_private(state)


def test_leonard_has_his_own_row_to_look_through() -> None:
    state, _ = penny_asks_unanswerable_questions(two(Penny="Laundry Room", Leonard="Bathroom"), 1)
    state, events = play(state, Move(PENNY, "Laundry Room"), Suggest(PENNY, RAJ, "Dismantled Shelbot"), EndTurn(PENNY),
                         Move(LEONARD, "Bathroom"), Suggest(LEONARD, LEONARD, "Dog-eared Comic"))
    # Penny's own unanswered question showed her the next card of her row, not of his.
    assert [e for e in of_type(events, "side_card_seen") if e["seat"] == LEONARD] == [
        {"type": "side_card_seen", "seat": LEONARD, "index": 0, "card": BBT_ASIDE[0]}]


def test_an_answered_question_shows_no_side_card() -> None:
    state, events = play(two(Penny="Laundry Room"), Move(PENNY, "Living Room (Penny)"),
                         Suggest(PENNY, LEONARD, "Petrified Toothbrush"), Show(LEONARD, LEONARD))
    assert "side_card_seen" not in types(events)
    assert seat_view(state, PENNY)["seen"] == []


# -- a game record, replayed as one seat sees it ---------------------------------------------------

RECORD = record(
    Setup(BBT, BBT_SEATS, 7, BBT_DEAL, first=RAJ),
    [
        UsePower(RAJ, target=AMY),                      # Raj looks at one of Amy's three bedrooms/living rooms
        Roll(RAJ, (3, 3)), Move(RAJ, "Bathroom"),
        Suggest(RAJ, PENNY, "Dismantled Shelbot"),       # Leonard, Howard, Bernadette, Amy pass; Penny must show
        Show(PENNY, "Dismantled Shelbot"),
        EndTurn(RAJ),
        Roll(LEONARD, (4, 4)), Move(LEONARD, "r11"),    # a Sheldon Card, whatever lies on top
        EndTurn(LEONARD),
    ],
)


def test_a_replayed_record_viewed_by_bernadette_keeps_everyone_elses_secrets(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    output = replay(tmp_path, capsys, RECORD, "--view", BERNADETTE, "--final-view")
    *lines, final = output
    assert all(line["ok"] for line in lines), [line for line in lines if not line["ok"]]
    events = [event for line in lines for event in line["events"]]
    assert [e for e in events if e["type"] in ("snooped", "card_shown", "side_card_seen") and "card" in e] == []
    assert [e["seat"] for e in events if e["type"] == "cards_dealt" and "cards" in e] == [BERNADETTE]
    assert the_only(events, "drew")["seat"] == LEONARD
    assert not strings(output) & set(BBT_HANDS[AMY])      # Amy's rooms: nobody stands in them
    assert final["hand"] == list(BBT_HANDS[BERNADETTE]) and final["seen"] == [] and final["shown_to_me"] == []
    assert final["solution"] is None and final["turn"] == HOWARD


def test_the_same_record_viewed_by_raj_shows_him_what_he_looked_at_and_was_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    *lines, final = replay(tmp_path, capsys, RECORD, "--view", RAJ, "--final-view")
    events = [event for line in lines for event in line["events"]]
    snooped = [e for e in events if e["type"] == "snooped" and e["seat"] == RAJ]
    assert len(snooped) == 1 and snooped[0]["card"] in BBT_HANDS[AMY]
    assert the_only(events, "card_shown")["card"] == "Dismantled Shelbot"
    assert final["seen"][0] == {"from": AMY, "card": snooped[0]["card"]}
    assert final["shown_to_me"] == [{"by": PENNY, "card": "Dismantled Shelbot"}]


def test_bazinga_goes_to_a_room_on_the_cards_not_straight_to_the_centre() -> None:
    # The grey space must be reached on foot before accusing.
    state = bbt(PENNY, Penny="Roof")
    with pytest.raises(ClueError) as refusal:
        apply(state, UsePower(PENNY, room="Centre"))
    assert refusal.value.code == "illegal_move"


def test_a_power_may_not_take_a_mover_back_into_the_room_it_left_this_turn() -> None:
    penny = bbt(PENNY, Penny="Stairwell")
    penny, _ = apply(penny, Roll(PENNY, (3, 3)))
    exit_square = next(p for p in legal_destinations(penny) if p[0].islower() and p[1:].isdigit())
    penny, _ = apply(penny, Move(PENNY, exit_square))
    with pytest.raises(ClueError) as refusal:
        apply(penny, UsePower(PENNY, room="Stairwell"))
    assert refusal.value.code == "illegal_move"


def test_a_mover_swapped_into_a_room_by_another_may_ask_there_without_moving() -> None:
    # "If your mover was moved by another player since your last turn, you can ... ask a question."
    state = bbt(HOWARD, Howard="Roof", Penny="Centre")
    state, _ = apply(state, UsePower(HOWARD, target=PENNY))
    assert state.position(PENNY) == "Roof" and PENNY in state.summoned
