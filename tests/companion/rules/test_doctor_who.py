"""CLUE Doctor Who (rulebook: seed 001), played as the rulebook tells it.

The standard table (``house_games.py``) seats all six companions clockwise
Clara Oswald, Strax, Jenny, Madame Vastra, River Song, Amy & Rory, three cards
each; the envelope holds the rulebook's accusation: Jenny, Strax's Gun,
Platform One. The Intrigue action cards and the character powers are the
companion's own (``doctor_who.toml``); a test sets the pile by hand to pick the
card drawn. Pocketwatches already face up are set with ``on_top(watches=n)``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from house_games import (BBT, CLARA, DW, DW_ASIDE, DW_ENVELOPE, DW_HANDS, DW_SEATS, DW_TWO_DEAL, DW_TWO_HANDS, JENNY,
                         PENNY, PONDS, RIVER, STRAX, VASTRA, WATCHES, Events, announced, assert_private, of_type,
                         on_top, play, ready, record, rejected, replay, strings, table, the_only, types, use, where)

from companion import (Accuse, ClueError, EndTurn, GameState, Move, Roll, Setup, Show, Suggest, legal_destinations,
                       new_game, public_view, seat_view)
from companion.rules.actions import DealSpec, Draw, PlayCard, UsePower

SOLVED = {"suspect": JENNY, "weapon": "Strax's Gun", "room": "Platform One"}
HOW = pytest.mark.parametrize("how", ["card", "power"])


def dw(first: str = CLARA, **at: str) -> GameState:
    """The standard table with ``first`` on turn; ``at`` places movers (keyword: suspect name)."""
    return table(DW, first, {name.replace("_", " "): place for name, place in at.items()})


def refused_setup(setup: Setup) -> str:
    with pytest.raises(ClueError) as refusal:
        new_game(setup)
    code: str = refusal.value.code
    return code


# -- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each", "left"), [(2, 9, 0), (3, 6, 0), (4, 4, 2), (5, 3, 3), (6, 3, 0)])
def test_two_to_six_companions_get_equal_hands_and_the_leftovers_lie_face_up(players: int, each: int,
                                                                             left: int) -> None:
    state, events = new_game(Setup(DW, DW_SEATS[:players], seed=3))
    face_up = list(state.face_up)
    assert len(face_up) == left and set(public_view(state)["hand_sizes"].values()) == {each}
    assert events[0].to_dict()["face_up"] == face_up
    assert all(seat_view(state, seat)["face_up"] == face_up for seat in state.seats)
    assert public_view(state)["face_up"] == face_up


def test_the_doctor_needs_more_than_one_companion() -> None:
    assert refused_setup(Setup(DW, (CLARA,))) == "bad_input"


@pytest.mark.parametrize("seed", range(4))
def test_everyone_rolls_and_the_highest_roller_goes_first(seed: int) -> None:
    state, events = new_game(Setup(DW, (CLARA, STRAX, JENNY), seed))
    rolls = [event.to_dict() for event in events if event.type == "rolled"]
    first_round = rolls[:3]
    assert all(len(r["dice"]) == 2 for r in rolls)
    best = max(r["total"] for r in first_round)
    leaders = [r["seat"] for r in first_round if r["total"] == best]
    assert public_view(state)["turn"] in leaders


def test_every_mover_and_weapon_starts_in_the_centre() -> None:
    state, _ = new_game(Setup(DW, (CLARA, STRAX), seed=2))
    view = public_view(state)
    assert set(view["position"].values()) == {"Centre"} and len(view["position"]) == 6
    assert set(view["weapons"].values()) == {"Centre"} and len(view["weapons"]) == 6


# -- moving ----------------------------------------------------------------------------------------


def test_strax_rolls_seven_and_moves_from_skaro_through_the_centre_grid_to_trenzalore() -> None:
    state, _ = play(dw(STRAX, Strax="Skaro"), Roll(STRAX, (3, 4)))
    assert "Trenzalore" in legal_destinations(state)
    state, events = play(state, Move(STRAX, "Trenzalore"))
    assert events == [{"type": "moved", "seat": STRAX, "to": "Trenzalore", "via": "roll"}]


def test_you_move_from_trenzalore_to_victorian_london_and_stop() -> None:
    state, events = play(dw(Clara_Oswald="Trenzalore"), Move(CLARA, "Victorian London"))
    assert events == [{"type": "moved", "seat": CLARA, "to": "Victorian London", "via": "passage"}]
    assert rejected(state, Move(CLARA, "The Moon")) == "wrong_phase"
    state, events = play(state, Suggest(CLARA, JENNY, "Strax's Gun"))
    assert events[0]["room"] == "Victorian London"


def test_on_your_next_turn_you_move_through_the_secret_passage_to_the_moon() -> None:
    state = dw(Clara_Oswald="Victorian London")
    assert legal_destinations(state) == ("The Moon", "Trenzalore")
    state, events = play(state, Move(CLARA, "The Moon"), Suggest(CLARA, JENNY, "Strax's Gun"))
    assert events[0]["via"] == "passage" and events[1]["room"] == "The Moon"


@pytest.mark.parametrize(("here", "there"), [
    ("Victorian London", "The Moon"), ("The Moon", "Victorian London"),
    ("Gallifrey", "Platform One"), ("Platform One", "Gallifrey"),
    ("Trenzalore", "Victorian London"), ("Victorian London", "Trenzalore"),
    ("Demon's Run", "Starship UK"), ("Starship UK", "Demon's Run"),
])
def test_every_secret_passage_and_joining_location_counts_as_entering(here: str, there: str) -> None:
    state, events = play(dw(Clara_Oswald=here), Move(CLARA, there), Suggest(CLARA, JENNY, "Strax's Gun"))
    assert events[0]["via"] == "passage" and events[1]["room"] == there


def test_a_passage_is_taken_instead_of_rolling_not_after() -> None:
    state, _ = play(dw(Clara_Oswald="Gallifrey"), Roll(CLARA, (2, 2)))
    assert rejected(state, Move(CLARA, "Platform One")) == "illegal_move"


# -- accusations -----------------------------------------------------------------------------------


def test_i_accuse_jenny_of_using_straxs_gun_on_platform_one_from_the_centre() -> None:
    state, events = play(dw(), Accuse(CLARA, JENNY, "Strax's Gun", "Platform One"))
    assert events[-1] == {"type": "game_over", "winner": CLARA, "solution": SOLVED}


def test_you_must_get_to_the_centre_before_you_accuse() -> None:
    state = dw(Clara_Oswald="l9")
    assert rejected(state, Accuse(CLARA, JENNY, "Strax's Gun", "Platform One")) == "accusation_location"
    state, events = play(state, Roll(CLARA, (1, 1)), Move(CLARA, "Center"),
                         Accuse(CLARA, JENNY, "Strax's Gun", "Platform One"))
    assert events[-1]["winner"] == CLARA


@pytest.mark.parametrize("place", ["Platform One", "Gallifrey", "q13"])
def test_no_accusation_away_from_the_centre(place: str) -> None:
    assert rejected(dw(Clara_Oswald=place), Accuse(CLARA, JENNY, "Strax's Gun", "Platform One")) == \
        "accusation_location"


# -- the question die ------------------------------------------------------------------------------


def test_rolling_a_question_mark_draws_an_intrigue_card_then_you_move_the_other_die() -> None:
    state, events = play(on_top(dw(), "tardis-1", "body_swap-2"), Roll(CLARA, (6, "?")))
    assert events == [
        {"type": "rolled", "seat": CLARA, "dice": [6, "?"], "total": 6},
        {"type": "drew", "seat": CLARA, "deck": "Intrigue Card", "card_id": "tardis-1"},
    ]
    assert public_view(state)["moves_left"] == 6
    assert "Starship UK" in legal_destinations(state)
    state, events = play(state, Move(CLARA, "Starship UK"))
    assert public_view(state)["bonus"]["held"] == {CLARA: ["tardis-1"]}


@pytest.mark.parametrize("dice", [("?", "?"), (7, "?"), ("?",), (2, 3, "?")])
def test_the_dice_show_at_most_one_question_mark(dice: tuple[int | str, ...]) -> None:
    assert rejected(dw(), Roll(CLARA, dice)) == "bad_input"


@pytest.mark.parametrize(("edition", "seats", "dice"), [
    (BBT, (PENNY, "Raj", "Amy"), (4, "?")),
    ("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"), ("?",)),
])
def test_only_doctor_who_has_a_question_face(edition: str, seats: tuple[str, ...], dice: tuple[int | str, ...]) -> None:
    state, _ = new_game(Setup(edition, seats, first=seats[0]))
    assert rejected(state, Roll(seats[0], dice)) == "bad_input"


def test_the_engines_question_die_shows_a_question_mark_never_a_one() -> None:
    faces = []
    for seed in range(40):
        state = on_top(table(DW, CLARA, seats=(CLARA, STRAX), seed=seed), "tardis-1")
        state, events = play(state, Roll(CLARA))
        rolled = events[0]
        faces.append(rolled["dice"][1])
        if rolled["dice"][1] == "?":
            assert rolled["total"] == rolled["dice"][0]
            assert events[1] == {"type": "drew", "seat": CLARA, "deck": "Intrigue Card", "card_id": "tardis-1"}
        else:
            assert "drew" not in types(events)
    assert "?" in faces and 1 not in faces


def test_a_question_mark_drawing_a_sonic_scan_looks_at_a_card_of_the_player_on_the_left() -> None:
    state, events = play(on_top(dw(), "sonic_scan-1"), Roll(CLARA, (3, "?")))
    snooped = the_only(events, "snooped")
    assert (snooped["seat"], snooped["target"]) == (CLARA, STRAX) and snooped["card"] in DW_HANDS[STRAX]
    assert public_view(state)["phase"] == "moving" and public_view(state)["bonus"]["discard"] == ["sonic_scan-1"]
    assert_private(state)


# -- Intrigue spaces -------------------------------------------------------------------------------


@pytest.mark.parametrize(("start", "dice"), [("p13", (1, 1)), ("Centre", (2, 2)), ("Centre", (5, 6))])
def test_stop_on_an_intrigue_space_without_an_exact_roll_and_draw(start: str, dice: tuple[int, int]) -> None:
    state = on_top(dw(Clara_Oswald=start), "psychic_paper-2")
    state, events = play(state, Roll(CLARA, dice), Move(CLARA, "q13"))
    assert events[1:] == [
        {"type": "moved", "seat": CLARA, "to": "q13", "via": "roll"},
        {"type": "drew", "seat": CLARA, "deck": "Intrigue Card", "card_id": "psychic_paper-2"},
    ]
    assert public_view(state)["phase"] == "moved"


def test_an_occupied_intrigue_space_is_no_place_to_stop() -> None:
    state, _ = play(dw(Clara_Oswald="p13", Jenny="q13"), Roll(CLARA, (1, 1)))
    assert "q13" not in legal_destinations(state)
    assert rejected(state, Move(CLARA, "q13")) == "illegal_move"


def test_discarded_intrigue_cards_are_not_used_again() -> None:
    state = on_top(dw(Clara_Oswald="p13"), discard=("tardis-1", "time_vortex-2"))
    state, events = play(state, Roll(CLARA, (1, 1)), Move(CLARA, "q13"))
    assert types(events) == ["rolled", "moved"]
    assert public_view(state)["bonus"]["discard"] == ["tardis-1", "time_vortex-2"]


# -- Pocketwatches ---------------------------------------------------------------------------------


@pytest.mark.parametrize("already", range(7))
def test_the_first_seven_pocketwatches_lie_face_up_and_do_nothing(already: int) -> None:
    state = on_top(dw(Clara_Oswald="p13"), WATCHES[already], watches=already)
    state, events = play(state, Roll(CLARA, (1, 1)), Move(CLARA, "q13"))
    assert types(events) == ["rolled", "moved", "drew"]
    view = public_view(state)
    assert view["bonus"]["watches"] == already + 1 and view["eliminated"] == [] and view["phase"] == "moved"
    play(state, EndTurn(CLARA))


def clara_draws_the_eighth_pocketwatch(*rest: str) -> tuple[GameState, Events]:
    """Seven Pocketwatches lie face up; Clara steps onto the "?" space q13 and draws the eighth."""
    state = on_top(dw(Clara_Oswald="p13"), "pocketwatch-8", *rest, watches=7)
    return play(state, Roll(CLARA, (1, 1)), Move(CLARA, "q13"))


def test_whoever_draws_the_eighth_pocketwatch_is_out_and_lays_their_cards_face_up() -> None:
    state, events = clara_draws_the_eighth_pocketwatch()
    assert events[2:] == [
        {"type": "drew", "seat": CLARA, "deck": "Intrigue Card", "card_id": "pocketwatch-8"},
        {"type": "hand_revealed", "seat": CLARA, "cards": list(DW_HANDS[CLARA])},
        {"type": "eliminated", "seat": CLARA},
    ]
    for view in [public_view(state)] + [seat_view(state, seat) for seat in DW_SEATS]:
        assert view["revealed"] == {CLARA: list(DW_HANDS[CLARA])}
        assert view["eliminated"] == [CLARA]
        assert of_type(view["record"], "hand_revealed")[0]["cards"] == list(DW_HANDS[CLARA])
    assert public_view(state)["phase"] == "out"
    assert rejected(state, UsePower(CLARA, room="Skaro")) == "eliminated"
    assert_private(state)


def test_the_eighth_pocketwatch_is_shuffled_back_even_if_it_is_the_only_card_left() -> None:
    state, _ = clara_draws_the_eighth_pocketwatch()
    assert state.bonus is not None and state.bonus.pile == ("pocketwatch-8",)
    assert public_view(state)["bonus"]["pile"] == 1 and public_view(state)["bonus"]["watches"] == 7


def test_the_eighth_pocketwatch_goes_back_among_the_others() -> None:
    state, _ = clara_draws_the_eighth_pocketwatch("tardis-1", "tardis-2", "body_swap-1")
    assert state.bonus is not None and sorted(state.bonus.pile) == ["body_swap-1", "pocketwatch-8", "tardis-1",
                                                                    "tardis-2"]


def test_and_it_can_put_the_next_drawer_out_too() -> None:
    state, _ = clara_draws_the_eighth_pocketwatch()
    state, events = play(state, EndTurn(CLARA), Roll(STRAX, (2, "?")))
    assert types(events)[-3:] == ["drew", "hand_revealed", "eliminated"]
    assert public_view(state)["eliminated"] == [CLARA, STRAX]
    assert public_view(state)["revealed"] == {CLARA: list(DW_HANDS[CLARA]), STRAX: list(DW_HANDS[STRAX])}


def test_rolling_a_question_mark_onto_the_eighth_pocketwatch_ends_the_move() -> None:
    state, events = play(on_top(dw(), "pocketwatch-8", watches=7), Roll(CLARA, (6, "?")))
    assert types(events) == ["rolled", "drew", "hand_revealed", "eliminated"]
    assert public_view(state)["legal_destinations"] == []
    assert rejected(state, Move(CLARA, "Starship UK")) == "eliminated"
    state, events = play(state, EndTurn(CLARA))
    assert events == [{"type": "turn_started", "seat": STRAX}]


def test_if_every_companion_draws_the_eighth_pocketwatch_nobody_wins() -> None:
    state = on_top(table(DW, CLARA, seats=(CLARA, STRAX), seed=5), "pocketwatch-8", watches=7)
    state, events = play(state, Roll(CLARA, (4, "?")), EndTurn(CLARA), Roll(STRAX, (5, "?")))
    assert events[-1] == {"type": "game_over", "winner": None, "solution": public_view(state)["solution"]}
    assert public_view(state)["solution"] is not None and public_view(state)["winner"] is None
    assert rejected(state, EndTurn(STRAX)) == "game_over"


def test_a_companion_put_out_by_a_pocketwatch_is_still_part_of_rumours_and_still_answers() -> None:
    state, _ = play(on_top(dw(), "pocketwatch-8", watches=7), Roll(CLARA, (6, "?")), EndTurn(CLARA))
    state, events = play(state, Roll(STRAX, (6, 6)), Move(STRAX, "Platform One"),
                         Suggest(STRAX, CLARA, "Hallucinogenic Lipstick"))
    assert where(state, CLARA) == "Platform One"
    assert events[-1] == {"type": "refute_requested", "seat": CLARA, "suggester": STRAX}
    state, events = play(state, Show(CLARA, "Hallucinogenic Lipstick"))
    assert types(events) == ["card_shown"]


def test_a_companion_who_is_out_is_offered_no_intrigue_card_by_a_rumour() -> None:
    state, _ = play(on_top(dw(), "pocketwatch-8", watches=7), Roll(CLARA, (6, "?")), EndTurn(CLARA),
                    Roll(STRAX, (6, 6)), Move(STRAX, "Platform One"), Suggest(STRAX, CLARA, "Hallucinogenic Lipstick"))
    assert public_view(state)["may_draw"] == []


# -- drawing when a rumour brings you in -----------------------------------------------------------


def vastra_brought_to_gallifrey() -> GameState:
    """Clara rolls 10 into Gallifrey and asks about Madame Vastra and the Moment (Strax shows
    Vastra); Strax and Jenny each step out of the Centre; Vastra's turn begins in Gallifrey."""
    state, _ = play(
        on_top(dw(), "psychic_paper-1", "sonic_scan-2"),
        Roll(CLARA, (4, 6)), Move(CLARA, "Gallifrey"), Suggest(CLARA, VASTRA, "The Moment"), Show(STRAX, VASTRA),
        EndTurn(CLARA),
        Roll(STRAX, (1, 1)), Move(STRAX, "l9"), EndTurn(STRAX),
        Roll(JENNY, (1, 1)), Move(JENNY, "p12"), EndTurn(JENNY),
    )
    return state


def test_you_bring_madame_vastra_and_the_moment_to_gallifrey() -> None:
    state = vastra_brought_to_gallifrey()
    assert where(state, VASTRA) == "Gallifrey" and public_view(state)["weapons"]["The Moment"] == "Gallifrey"
    assert public_view(state)["may_draw"] == [VASTRA]


def test_moved_to_a_location_by_a_rumour_vastra_may_draw_on_her_turn() -> None:
    state, events = play(vastra_brought_to_gallifrey(), Draw(VASTRA))
    assert events == [{"type": "drew", "seat": VASTRA, "deck": "Intrigue Card", "card_id": "psychic_paper-1"}]
    assert rejected(state, Draw(VASTRA)) == "wrong_phase"  # once
    state, events = play(state, Suggest(VASTRA, JENNY, "Strax's Gun"))  # and she may ask there without moving
    assert events[0]["room"] == "Gallifrey"


def test_she_may_draw_after_moving_on_too_but_not_after_her_turn() -> None:
    state, events = play(vastra_brought_to_gallifrey(), Move(VASTRA, "Platform One"), Draw(VASTRA))
    assert types(events) == ["moved", "drew"]
    # Having entered Platform One she must ask there before ending the turn; River Song shows The Moment.
    state, _ = play(vastra_brought_to_gallifrey(), Move(VASTRA, "Platform One"), Suggest(VASTRA, VASTRA, "The Moment"),
                    Show(RIVER, "The Moment"), EndTurn(VASTRA))
    assert public_view(state)["may_draw"] == []


def test_only_a_companion_brought_in_by_a_rumour_may_draw() -> None:
    state, _ = play(on_top(dw(), "tardis-1"), Roll(CLARA, (4, 6)), Move(CLARA, "Gallifrey"),
                    Suggest(CLARA, VASTRA, "The Moment"))
    assert rejected(state, Draw(VASTRA)) == "not_your_turn"
    state, _ = play(state, Show(STRAX, VASTRA))
    assert rejected(state, Draw(CLARA)) == "wrong_phase"
    state, _ = play(state, EndTurn(CLARA))
    assert rejected(state, Draw(STRAX)) == "wrong_phase"


def test_a_rumour_about_a_companion_already_there_gives_no_draw() -> None:
    state, _ = play(dw(Clara_Oswald="Platform One", Madame_Vastra="Gallifrey"), Move(CLARA, "Gallifrey"),
                    Suggest(CLARA, VASTRA, "The Moment"))
    assert public_view(state)["may_draw"] == []


# -- Intrigue action cards and character powers ----------------------------------------------------


@HOW
def test_tardis_clara_travels_straight_to_any_location_and_may_ask_there(how: str) -> None:
    state = ready(dw(), how, CLARA, "tardis-2")
    state, events = play(state, use(how, CLARA, "tardis", room="Skaro"), Suggest(CLARA, JENNY, "Strax's Gun"))
    assert events[:2] == [announced(how, CLARA, "tardis-2", "The Impossible Girl"),
                          {"type": "moved", "seat": CLARA, "to": "Skaro", "via": how}]
    assert events[2]["room"] == "Skaro"


@HOW
@pytest.mark.parametrize(("room", "code"), [(None, "bad_input"), ("Centre", "illegal_move"), ("q13", "illegal_move")])
def test_tardis_needs_another_location(how: str, room: str | None, code: str) -> None:
    state = ready(dw(), how, CLARA, "tardis-1")
    assert rejected(state, use(how, CLARA, "tardis-1", **({"room": room} if room else {}))) == code


@HOW
def test_no_tardis_after_a_rumour(how: str) -> None:
    state = ready(dw(Clara_Oswald="Gallifrey"), how, CLARA, "tardis-1")
    state, _ = play(state, Move(CLARA, "Platform One"), Suggest(CLARA, JENNY, "Strax's Gun"))
    assert rejected(state, use(how, CLARA, "tardis-1", room="Skaro")) == "wrong_phase"


@HOW
def test_time_vortex_jenny_rolls_and_moves_again_after_her_move(how: str) -> None:
    state = ready(dw(JENNY), how, JENNY, "time_vortex-1")
    state, _ = play(state, Roll(JENNY, (3, 3)), Move(JENNY, "Starship UK"))
    assert rejected(state, Roll(JENNY, (2, 3))) == "wrong_phase"
    state, events = play(state, use(how, JENNY, "time_vortex"))
    assert events == [announced(how, JENNY, "time_vortex-1", "Quick on her Feet")]
    state, events = play(state, Roll(JENNY, (2, 3)), Move(JENNY, "The Moon"), Suggest(JENNY, RIVER, "Strax's Gun"))
    assert the_only(events, "suggested")["room"] == "The Moon"


@HOW
def test_time_vortex_only_after_moving_and_no_second_rumour(how: str) -> None:
    state = ready(dw(JENNY), how, JENNY, "time_vortex-1")
    assert rejected(state, use(how, JENNY, "time_vortex-1")) == "wrong_phase"
    state, _ = play(state, Roll(JENNY, (3, 3)), Move(JENNY, "Starship UK"), Suggest(JENNY, JENNY, "Strax's Gun"))
    state, _ = play(state, Show(PONDS, "Starship UK"), use(how, JENNY, "time_vortex-1"),
                    Roll(JENNY, (2, 3)), Move(JENNY, "The Moon"))
    assert rejected(state, Suggest(JENNY, RIVER, "Strax's Gun")) == "wrong_phase"


@HOW
@pytest.mark.parametrize("seat", [VASTRA, RIVER])
def test_psychic_paper_look_blind_at_a_card_of_anyone_you_choose(how: str, seat: str) -> None:
    state = ready(dw(seat), how, seat, "psychic_paper-1")
    state, events = play(state, use(how, seat, "psychic_paper", target=CLARA))
    assert events[0] == announced(how, seat, "psychic_paper-1", {VASTRA: "Great Detective", RIVER: "Spoilers"}[seat])
    snooped = the_only(events, "snooped")
    assert (snooped["seat"], snooped["target"]) == (seat, CLARA) and snooped["card"] in DW_HANDS[CLARA]
    assert seat_view(state, seat)["seen"] == [{"from": CLARA, "card": snooped["card"]}]
    assert_private(state)


@HOW
@pytest.mark.parametrize(("target", "code"), [(None, "bad_input"), (VASTRA, "bad_input"), ("The Doctor", "unknown_seat")])
def test_psychic_paper_needs_another_player(how: str, target: str | None, code: str) -> None:
    state = ready(dw(VASTRA), how, VASTRA, "psychic_paper-1")
    assert rejected(state, use(how, VASTRA, "psychic_paper-1", **({"target": target} if target else {}))) == code


@HOW
def test_body_swap_strax_swaps_places_with_any_other_mover(how: str) -> None:
    state = ready(dw(STRAX, River_Song="Trenzalore"), how, STRAX, "body_swap-1")
    state, events = play(state, use(how, STRAX, "body_swap", target=RIVER))
    assert events[0] == announced(how, STRAX, "body_swap-1", "Sontaran Tactics")
    assert [(e["seat"], e["to"]) for e in events[1:]] == [(STRAX, "Trenzalore"), (RIVER, "Centre")]


@HOW
@pytest.mark.parametrize(("target", "code"), [(None, "bad_input"), (JENNY, "illegal_move"), ("Dalek", "unknown_card")])
def test_body_swap_needs_a_mover_somewhere_else(how: str, target: str | None, code: str) -> None:
    state = ready(dw(STRAX), how, STRAX, "body_swap-1")
    assert rejected(state, use(how, STRAX, "body_swap-1", **({"target": target} if target else {}))) == code


@HOW
def test_no_body_swap_in_the_middle_of_a_move(how: str) -> None:
    state = ready(dw(STRAX, River_Song="Trenzalore"), how, STRAX, "body_swap-1")
    state, _ = play(state, Roll(STRAX, (2, "?")))
    assert rejected(state, use(how, STRAX, "body_swap-1", target=RIVER)) == "wrong_phase"


def test_amy_and_rory_look_blind_at_a_card_of_the_player_on_their_left() -> None:
    state, events = play(dw(PONDS), UsePower(PONDS))
    assert events[0] == {"type": "power_used", "seat": PONDS, "power": "The Girl Who Waited"}
    snooped = the_only(events, "snooped")
    assert snooped["target"] == CLARA and snooped["card"] in DW_HANDS[CLARA]
    assert rejected(state, UsePower(PONDS)) == "wrong_phase"
    assert_private(state)


def test_keep_an_action_card_and_play_it_when_you_choose() -> None:
    state, _ = play(on_top(dw(Clara_Oswald="p13"), "tardis-1"), Roll(CLARA, (1, 1)), Move(CLARA, "q13"),
                    EndTurn(CLARA))
    assert public_view(state)["bonus"]["held"] == {CLARA: ["tardis-1"]}
    assert rejected(state, PlayCard(CLARA, "tardis-1", room="Skaro")) == "not_your_turn"
    assert rejected(state, PlayCard(STRAX, "tardis-1", room="Skaro")) == "bad_input"


# -- two players or teams --------------------------------------------------------------------------


def two(first: str = CLARA, **at: str) -> GameState:
    return table(DW, first, {name.replace("_", " "): place for name, place in at.items()}, variant="two_player")


def test_two_players_set_four_cards_aside_and_never_use_the_intrigue_cards() -> None:
    state = two()
    view = public_view(state)
    assert view["side_cards"] == 4 and view["hand_sizes"] == {CLARA: 7, STRAX: 7} and view["bonus"] is None
    assert rejected(state, Draw(CLARA)) == "wrong_phase"
    assert rejected(state, PlayCard(CLARA, "tardis-1", room="Skaro")) == "wrong_phase"
    assert_private(state)


def test_the_two_player_rules_need_two_players_and_four_side_cards() -> None:
    assert refused_setup(Setup(DW, (CLARA, STRAX, JENNY), variant="two_player")) == "bad_input"
    short = DealSpec(DW_ENVELOPE, DW_TWO_HANDS, aside=DW_ASIDE[:3])
    assert refused_setup(Setup(DW, (CLARA, STRAX), deal=short, variant="two_player")) == "bad_deal"
    state, _ = new_game(Setup(DW, (CLARA, STRAX), deal=DW_TWO_DEAL, variant="two_player"))
    assert state.aside == DW_ASIDE


def test_in_a_two_player_game_the_question_mark_counts_nothing_and_draws_nothing() -> None:
    state, events = play(two(), Roll(CLARA, (5, "?")))
    assert events == [{"type": "rolled", "seat": CLARA, "dice": [5, "?"], "total": 5}]
    assert public_view(state)["moves_left"] == 5


def test_in_a_two_player_game_an_intrigue_space_is_a_plain_square() -> None:
    state, _ = play(two(Clara_Oswald="p13"), Roll(CLARA, (1, 1)))
    assert "q13" not in legal_destinations(state)
    state, events = play(two(Clara_Oswald="o13"), Roll(CLARA, (1, 1)), Move(CLARA, "q13"))
    assert types(events) == ["rolled", "moved"]


def test_in_a_two_player_game_a_rumour_brings_no_draw_but_powers_still_work() -> None:
    state, events = play(two(), UsePower(CLARA, room="Skaro"), Suggest(CLARA, STRAX, "Cyberman Gun"))
    assert types(events)[:3] == ["power_used", "moved", "suggested"]
    assert public_view(state)["may_draw"] == []


# -- "If you want to play original CLUE, return them [the Intrigue Cards] to the box" ---------------


def boxed(first: str = CLARA, **at: str) -> GameState:
    """Six companions with the Intrigue Cards left in the box."""
    return table(DW, first, {name.replace("_", " "): place for name, place in at.items()}, bonus_cards=False)


def test_with_the_intrigue_cards_in_the_box_none_is_ever_drawn() -> None:
    state = boxed()
    assert public_view(state)["bonus"] is None
    assert rejected(state, Draw(CLARA)) == "wrong_phase"


def test_in_the_box_a_question_mark_counts_nothing_and_draws_nothing() -> None:
    state, events = play(boxed(), Roll(CLARA, (5, "?")))
    assert events == [{"type": "rolled", "seat": CLARA, "dice": [5, "?"], "total": 5}]


def test_in_the_box_an_intrigue_space_is_a_plain_square() -> None:
    state, _ = play(boxed(Clara_Oswald="p13"), Roll(CLARA, (1, 1)))
    assert "q13" not in legal_destinations(state)
    state, events = play(boxed(Clara_Oswald="o13"), Roll(CLARA, (1, 1)), Move(CLARA, "q13"))
    assert types(events) == ["rolled", "moved"]


def test_in_the_box_the_powers_still_work() -> None:
    state, events = play(boxed(), UsePower(CLARA, room="Skaro"), Suggest(CLARA, STRAX, "Cyberman Gun"))
    assert types(events)[:3] == ["power_used", "moved", "suggested"]


def test_the_record_says_the_cards_stayed_in_the_box_and_replays_the_same(tmp_path: Path, capsys) -> None:
    setup = Setup(DW, DW_SEATS[:3], seed=5, first=CLARA, bonus_cards=False)
    line = setup.to_record()
    assert line["bonus_cards"] is False and "bonus_cards" not in Setup(DW, DW_SEATS[:3], seed=5).to_record()
    results = replay(tmp_path, capsys, [line, Roll(CLARA, (3, "?")).to_record()])
    assert [result["ok"] for result in results] == [True, True]
    assert results[1]["events"] == [{"type": "rolled", "seat": CLARA, "dice": [3, "?"], "total": 3}]


def test_only_an_edition_with_bonus_cards_can_leave_them_out() -> None:
    assert refused_setup(Setup("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"), bonus_cards=False)) == \
        "bad_input"


def test_entering_a_location_owes_a_rumour_there() -> None:
    state, _ = play(dw(), UsePower(CLARA, room="Skaro"))
    assert rejected(state, EndTurn(CLARA)) == "must_suggest"
    assert rejected(state, Accuse(CLARA, JENNY, "Strax's Gun", "Platform One")) == "accusation_location"


def clara_asks_unanswerable_rumours(state: GameState, times: int) -> tuple[GameState, list[Events]]:
    """Clara shuttles by the passage between Victorian London and the Moon asking about her own cards;
    Strax shuttles between Demon's Run and the Starship UK."""
    rumours = {"The Moon": (CLARA, "Hallucinogenic Lipstick"), "Victorian London": (VASTRA, "Cyberman Gun")}
    side: list[Events] = []
    for _ in range(times):
        there = "The Moon" if where(state, CLARA) == "Victorian London" else "Victorian London"
        state, events = play(state, Move(CLARA, there), Suggest(CLARA, *rumours[there]), EndTurn(CLARA))
        side.append(of_type(events, "side_card_seen"))
        other = "Starship UK" if where(state, STRAX) == "Demon's Run" else "Demon's Run"
        # He entered a location, so he must ask too: about Clara's Lipstick, which she shows him.
        state, _ = play(state, Move(STRAX, other), Suggest(STRAX, STRAX, "Hallucinogenic Lipstick"),
                        Show(CLARA, "Hallucinogenic Lipstick"), EndTurn(STRAX))
    return state, side


def test_when_strax_cannot_answer_clara_looks_at_a_different_side_card_each_time() -> None:
    state, side = clara_asks_unanswerable_rumours(two(Clara_Oswald="Victorian London", Strax="Demon's Run"), 5)
    assert side == [[{"type": "side_card_seen", "seat": CLARA, "index": i, "card": card}]
                    for i, card in enumerate(DW_ASIDE)] + [[]]
    assert [item["index"] for item in seat_view(state, CLARA)["seen"]] == [0, 1, 2, 3]
    assert seat_view(state, STRAX)["seen"] == [] and public_view(state)["seen"] == []
    assert all("card" not in event for event in of_type(seat_view(state, STRAX)["record"], "side_card_seen"))
    assert_private(state)


def test_when_strax_can_answer_no_side_card_is_seen() -> None:
    state, events = play(two(Clara_Oswald="Victorian London"), Move(CLARA, "The Moon"),
                         Suggest(CLARA, STRAX, "Strax's Gun"), Show(STRAX, STRAX))
    assert "side_card_seen" not in types(events)


# -- a game record, replayed as one seat sees it ---------------------------------------------------

RECORD = record(
    Setup(DW, (CLARA, STRAX), 7, DW_TWO_DEAL, first=CLARA, variant="two_player"),
    [
        UsePower(CLARA, room="Victorian London"),
        Suggest(CLARA, CLARA, "Hallucinogenic Lipstick"),   # all Clara's own: Strax cannot answer
        EndTurn(CLARA),
        Roll(STRAX, (3, "?")), Move(STRAX, "l8"), EndTurn(STRAX),
        Move(CLARA, "The Moon"),
        Suggest(CLARA, VASTRA, "Cyberman Gun"),             # Clara's own again: a second side card
        EndTurn(CLARA),
    ],
)


def test_a_replayed_two_player_record_viewed_by_strax_hides_claras_side_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = replay(tmp_path, capsys, RECORD, "--view", STRAX, "--final-view")
    *lines, final = output
    assert all(line["ok"] for line in lines), [line for line in lines if not line["ok"]]
    events = [event for line in lines for event in line["events"]]
    assert [e for e in events if e["type"] == "side_card_seen"] == [
        {"type": "side_card_seen", "seat": CLARA, "index": 0}, {"type": "side_card_seen", "seat": CLARA, "index": 1}]
    assert {"type": "rolled", "seat": STRAX, "dice": [3, "?"], "total": 3} in events
    assert "drew" not in [e["type"] for e in events]
    assert not strings(output) & set(DW_ASIDE)
    assert not strings(output) & (set(DW_TWO_HANDS[CLARA]) - {CLARA, VASTRA, "Hallucinogenic Lipstick",
                                                              "Cyberman Gun", "Victorian London", "The Moon"})
    assert final["hand"] == list(DW_TWO_HANDS[STRAX]) and final["seen"] == [] and final["side_cards"] == 4


def test_the_same_record_viewed_by_clara_shows_her_the_first_two_side_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    *lines, final = replay(tmp_path, capsys, RECORD, "--view", CLARA, "--final-view")
    seen = [e for line in lines for e in line["events"] if e["type"] == "side_card_seen"]
    assert [e["card"] for e in seen] == list(DW_ASIDE[:2])
    assert final["seen"] == [{"from": "aside", "index": 0, "card": DW_ASIDE[0]},
                             {"from": "aside", "index": 1, "card": DW_ASIDE[1]}]
