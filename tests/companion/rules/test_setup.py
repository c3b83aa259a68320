"""Scenario tests for setting up a Classic game: seats, the deal, the tokens on the board."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest
from games import ENVELOPE, GREEN, HANDS, MUSTARD, PEACOCK, PLUM, SCARLET, SEATS, WHITE, game, start

from companion import ClueError, DealSpec, GameState, load_edition, public_view, seat_view

CLASSIC = load_edition("classic")
EVERY_CARD = sorted(CLASSIC.deck.all)
SUSPECTS = (SCARLET, MUSTARD, WHITE, GREEN, PEACOCK, PLUM)
TABLES = [SUSPECTS[:n] for n in range(3, 7)]
START_SQUARES = {SCARLET: "h25", MUSTARD: "a18", WHITE: "j1", GREEN: "o1", PEACOCK: "x7", PLUM: "x20"}


def refused(
    seats: tuple[str, ...] = SEATS, deal: DealSpec | None = None, first: str | None = None
) -> ClueError:
    """The error a setup is refused with; fails if the game starts."""
    with pytest.raises(ClueError) as refusal:
        start(seats=seats, deal=deal, first=first)
    return refusal.value


def hands_of(state: GameState) -> dict[str, list[str]]:
    return {seat: seat_view(state, seat)["hand"] for seat in state.seats}


def dealt(hands: Mapping[str, tuple[str, ...]], envelope: tuple[str, ...] = ENVELOPE) -> DealSpec:
    return DealSpec(envelope, hands)


def with_hand(seat: str, cards: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The standard hands with one seat's hand replaced."""
    return {**HANDS, seat: cards}


# -- dealing from the seed ---------------------------------------------------------


@pytest.mark.parametrize("seats", TABLES, ids=lambda seats: f"{len(seats)}_players")
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_the_seeded_deal_puts_every_card_in_exactly_one_place(seats: tuple[str, ...], seed: int) -> None:
    state = game(seats=seats, deal=None, seed=seed)
    cards = list(state.envelope.cards()) + [card for hand in hands_of(state).values() for card in hand]
    assert sorted(cards) == EVERY_CARD
    assert Counter(cards).most_common(1)[0][1] == 1
    assert public_view(state)["face_up"] == []


@pytest.mark.parametrize("seats", TABLES, ids=lambda seats: f"{len(seats)}_players")
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_the_envelope_holds_one_suspect_one_weapon_and_one_room(seats: tuple[str, ...], seed: int) -> None:
    suspect, weapon, room = game(seats=seats, deal=None, seed=seed).envelope.cards()
    assert suspect in CLASSIC.deck.suspects
    assert weapon in CLASSIC.deck.weapons
    assert room in CLASSIC.deck.rooms


@pytest.mark.parametrize(
    ("seats", "sizes"),
    [(TABLES[0], [6, 6, 6]), (TABLES[1], [4, 4, 5, 5]), (TABLES[2], [3, 3, 4, 4, 4]), (TABLES[3], [3] * 6)],
    ids=["3_players", "4_players", "5_players", "6_players"],
)
def test_every_card_is_dealt_and_hands_differ_by_at_most_one(seats: tuple[str, ...], sizes: list[int]) -> None:
    for seed in (0, 1, 7, 2024):
        state = game(seats=seats, deal=None, seed=seed)
        assert sorted(len(hand) for hand in hands_of(state).values()) == sizes


def test_the_same_seed_deals_the_same_cards() -> None:
    one, other = game(deal=None, seed=5), game(deal=None, seed=5)
    assert hands_of(one) == hands_of(other)
    assert one.envelope == other.envelope


def test_another_seed_deals_other_cards() -> None:
    deals = {
        (tuple(map(tuple, hands_of(state).values())), state.envelope.cards())
        for state in (game(deal=None, seed=seed) for seed in range(5))
    }
    assert len(deals) == 5


def test_the_same_seed_lays_the_weapons_in_the_same_rooms() -> None:
    assert public_view(game(seed=5))["weapons"] == public_view(game(seed=5))["weapons"]


# -- a given deal ------------------------------------------------------------------


def test_a_given_deal_is_dealt_as_given() -> None:
    state = game()
    for seat in SEATS:
        assert seat_view(state, seat)["hand"] == list(HANDS[seat])
    assert state.envelope.cards() == ENVELOPE


def test_a_given_deal_may_name_cards_in_any_case_and_the_envelope_in_any_order() -> None:
    hands = {seat.upper(): tuple(card.lower() for card in cards) for seat, cards in HANDS.items()}
    state = game(deal=DealSpec(("kitchen", "WRENCH", "professor plum"), hands))
    assert state.envelope.cards() == ENVELOPE
    assert seat_view(state, WHITE)["hand"] == list(HANDS[WHITE])


def test_the_setup_events_tell_each_seat_its_hand() -> None:
    _, events = start()
    assert events[0] == {
        "type": "game_started",
        "edition": "classic",
        "name": "Classic CLUE",
        "seats": list(SEATS),
        "face_up": [],
    }
    assert events[1:4] == [
        {"type": "cards_dealt", "seat": seat, "count": 6, "cards": list(HANDS[seat])} for seat in SEATS
    ]
    assert events[-1] == {"type": "turn_started", "seat": SCARLET}


def test_a_card_dealt_twice_is_a_bad_deal() -> None:
    # Scarlet holds the Rope instead of the Lounge: the Rope is in two hands, the Lounge in none.
    hands = with_hand(SCARLET, (SCARLET, "Candlestick", "Ballroom", "Conservatory", "Dining Room", "Rope"))
    error = refused(deal=dealt(hands))
    assert error.code == "bad_deal"
    assert "Rope" in str(error)


def test_a_card_both_in_the_envelope_and_in_a_hand_is_a_bad_deal() -> None:
    hands = with_hand(WHITE, (WHITE, PEACOCK, "Revolver", "Rope", "Hall", "Kitchen"))
    assert refused(deal=dealt(hands)).code == "bad_deal"


def test_a_card_dealt_nowhere_is_a_bad_deal() -> None:
    hands = with_hand(SCARLET, (SCARLET, "Candlestick", "Ballroom", "Conservatory", "Dining Room"))
    error = refused(deal=dealt(hands))
    assert error.code == "bad_deal"
    assert "Lounge" in str(error)


def test_two_suspects_in_the_envelope_is_a_bad_deal() -> None:
    # Every card still dealt exactly once, six to a hand: only the envelope is wrong.
    hands = with_hand(MUSTARD, (MUSTARD, "Wrench", "Knife", "Lead Pipe", "Billiard Room", "Library"))
    assert refused(deal=dealt(hands, envelope=(PLUM, GREEN, "Kitchen"))).code == "bad_deal"


@pytest.mark.parametrize(
    "envelope",
    [(PLUM, "Wrench"), (PLUM, "Wrench", "Kitchen", GREEN), ()],
    ids=["two_cards", "four_cards", "empty"],
)
def test_an_envelope_without_exactly_three_cards_is_a_bad_deal(envelope: tuple[str, ...]) -> None:
    assert refused(deal=dealt(HANDS, envelope=envelope)).code == "bad_deal"


def test_seven_six_and_five_cards_is_a_bad_deal_for_three_players() -> None:
    hands = {
        SCARLET: HANDS[SCARLET] + ("Rope",),
        MUSTARD: HANDS[MUSTARD],
        WHITE: (WHITE, PEACOCK, "Revolver", "Hall", "Study"),
    }
    assert refused(deal=dealt(hands)).code == "bad_deal"


FOUR = (SCARLET, MUSTARD, WHITE, GREEN)
EIGHTEEN = [card for seat in SEATS for card in HANDS[seat]]


@pytest.mark.parametrize("sizes", [(5, 5, 4, 4), (4, 5, 4, 5), (4, 4, 5, 5)])
def test_four_players_may_be_dealt_five_five_four_and_four(sizes: tuple[int, ...]) -> None:
    state = game(seats=FOUR, deal=dealt(split(EIGHTEEN, FOUR, sizes)))
    assert [len(seat_view(state, seat)["hand"]) for seat in FOUR] == list(sizes)


@pytest.mark.parametrize("sizes", [(6, 4, 4, 4), (5, 5, 5, 3), (6, 6, 6, 0)])
def test_four_players_dealt_unevenly_is_a_bad_deal(sizes: tuple[int, ...]) -> None:
    assert refused(seats=FOUR, deal=dealt(split(EIGHTEEN, FOUR, sizes))).code == "bad_deal"


def split(cards: list[str], seats: tuple[str, ...], sizes: tuple[int, ...]) -> dict[str, tuple[str, ...]]:
    hands, at = {}, 0
    for seat, size in zip(seats, sizes):
        hands[seat] = tuple(cards[at : at + size])
        at += size
    return hands


def test_cards_face_up_are_a_bad_deal_in_classic() -> None:
    hands = with_hand(SCARLET, (SCARLET, "Candlestick", "Ballroom", "Conservatory", "Dining Room"))
    assert refused(deal=DealSpec(ENVELOPE, hands, face_up=("Lounge",))).code == "bad_deal"


def test_a_seat_without_a_hand_is_a_bad_deal() -> None:
    hands = {SCARLET: HANDS[SCARLET], MUSTARD: HANDS[MUSTARD] + HANDS[WHITE]}
    assert refused(deal=dealt(hands)).code == "bad_deal"


@pytest.mark.parametrize(
    "hands",
    [
        with_hand(WHITE, (WHITE, PEACOCK, "Revolver", "Poison", "Hall", "Study")),
        with_hand(WHITE, (WHITE, PEACOCK, "Revolver", "Rope", "Cellar", "Study")),
    ],
    ids=["poison", "cellar"],
)
def test_an_unknown_card_in_a_hand_is_unknown_card(hands: dict[str, tuple[str, ...]]) -> None:
    assert refused(deal=dealt(hands)).code == "unknown_card"


def test_an_unknown_card_in_the_envelope_is_unknown_card() -> None:
    assert refused(deal=dealt(HANDS, envelope=(PLUM, "Horseshoe", "Kitchen"))).code == "unknown_card"


def test_a_hand_for_mr_green_who_is_not_seated_is_unknown_seat() -> None:
    hands = {SCARLET: HANDS[SCARLET], MUSTARD: HANDS[MUSTARD], GREEN: HANDS[WHITE]}
    assert refused(deal=dealt(hands)).code == "unknown_seat"


def test_an_extra_hand_for_mr_green_who_is_not_seated_is_unknown_seat() -> None:
    assert refused(deal=dealt({**HANDS, GREEN: ()})).code == "unknown_seat"


# -- seats -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seats",
    [(), (SCARLET,), (SCARLET, MUSTARD)],
    ids=["nobody", "one_player", "two_players"],
)
def test_classic_needs_at_least_three_players(seats: tuple[str, ...]) -> None:
    assert refused(seats=seats).code == "bad_input"


def test_seven_seats_is_bad_input() -> None:
    assert refused(seats=SUSPECTS + (SCARLET,)).code == "bad_input"


@pytest.mark.parametrize(
    "seats",
    [(SCARLET, MUSTARD, SCARLET), (SCARLET, "miss scarlet", WHITE, GREEN)],
    ids=["same_name", "same_suspect_other_spelling"],
)
def test_a_suspect_may_be_seated_only_once(seats: tuple[str, ...]) -> None:
    assert refused(seats=seats).code == "bad_input"


@pytest.mark.parametrize("seats", TABLES, ids=lambda seats: f"{len(seats)}_players")
def test_three_to_six_players_may_play(seats: tuple[str, ...]) -> None:
    state = game(seats=seats, deal=None)
    assert tuple(public_view(state)["seats"]) == seats


def test_seats_are_named_case_insensitively() -> None:
    state = game(seats=("MISS SCARLET", "colonel mustard", "mrs white"))
    assert tuple(public_view(state)["seats"]) == SEATS


# -- the board at the start ------------------------------------------------------------


@pytest.mark.parametrize("seats", [SEATS, (GREEN, PEACOCK, PLUM), SUSPECTS], ids=["three", "no_scarlet", "six"])
def test_every_mover_played_or_not_stands_on_its_start_square(seats: tuple[str, ...]) -> None:
    state = game(seats=seats, deal=None)
    assert public_view(state)["position"] == START_SQUARES
    for seat in seats:
        assert seat_view(state, seat)["position"] == START_SQUARES


@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_each_weapon_starts_in_a_room_of_its_own(seed: int) -> None:
    weapons = public_view(game(seed=seed))["weapons"]
    assert sorted(weapons) == sorted(CLASSIC.deck.weapons)
    assert set(weapons.values()) <= set(CLASSIC.deck.rooms)
    assert len(set(weapons.values())) == len(CLASSIC.deck.weapons)


# -- what each seat sees at the start --------------------------------------------------


def test_mrs_white_sees_her_own_hand_and_nothing_else_secret() -> None:
    view = seat_view(game(), WHITE)
    assert view["seat"] == WHITE
    assert view["hand"] == list(HANDS[WHITE])
    assert view["face_up"] == []
    assert view["shown_to_me"] == []
    assert view["turn"] == SCARLET
    assert view["eliminated"] == []
    assert view["solution"] is None
    assert view["may_show"] == []
    for event in view["record"]:
        if event["type"] == "cards_dealt":
            assert ("cards" in event) == (event["seat"] == WHITE)


def test_the_table_sees_no_hand_at_the_start() -> None:
    view = public_view(game())
    assert view["hand"] == []
    assert view["solution"] is None
    assert [event for event in view["record"] if "cards" in event] == []


def test_mr_green_who_is_not_seated_has_no_view() -> None:
    with pytest.raises(ClueError) as refusal:
        seat_view(game(), GREEN)
    assert refusal.value.code == "unknown_seat"

