"""Setting up the table: a physical deal scanned card by card, the envelope inferred."""

import pytest

from companion.rules.deal import deal_cards
from companion.rules.edition import load_edition
from companion.rules.errors import BadDeal, BadInput, ClueError
from companion.table.lobby import Lobby

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green")


def scan_deal(lobby: Lobby, seed: int = 5) -> tuple[Lobby, tuple[str, ...]]:
    """Scan a real shuffled deal: every hand on its pad, the leftovers on the centre."""
    deal, _ = deal_cards(lobby.edition, lobby.seats, seed)
    for seat, hand in deal.hands.items():
        for card in hand:
            lobby = lobby.scan(seat, card)
    for card in deal.face_up:
        lobby = lobby.scan_face_up(card)
    return lobby, deal.envelope


def test_a_fully_scanned_deal_starts_with_the_unscanned_cards_in_the_envelope() -> None:
    lobby, envelope = scan_deal(Lobby.open("classic", SEATS, deal="physical", seed=3))
    assert lobby.problems() == [] and lobby.ready
    setup = lobby.setup()
    assert setup.deal is not None and set(setup.deal.envelope) == set(envelope)
    assert setup.deal.hands == lobby.scanned


def test_the_game_refuses_to_start_until_every_card_is_scanned() -> None:
    lobby, _ = scan_deal(Lobby.open("classic", SEATS, deal="physical"))
    last = lobby.scanned["Mr. Green"][-1]
    short = lobby.scan("Mr. Green", last)  # tapping again takes it back
    assert last not in short.scanned["Mr. Green"]
    assert short.problems() == ["1 more card(s) to scan: 4 are not accounted for."]
    with pytest.raises(BadDeal, match="not complete"):
        short.setup()


def test_a_card_scanned_at_two_seats_is_named() -> None:
    lobby, _ = scan_deal(Lobby.open("classic", SEATS, deal="physical"))
    card = lobby.scanned["Mrs. White"][0]
    twice = lobby.scan("Miss Scarlet", card)
    named = f"{card} was scanned by Miss Scarlet and Mrs. White: it can only be in one place."
    assert named in twice.problems("Miss Scarlet") and named in twice.problems("Mrs. White")
    assert not twice.ready


def test_the_table_and_other_seats_are_not_told_which_card_was_scanned_twice() -> None:
    lobby, _ = scan_deal(Lobby.open("classic", SEATS, deal="physical"))
    card = lobby.scanned["Mrs. White"][0]
    twice = lobby.scan("Miss Scarlet", card)
    anonymous = "One card was scanned by Miss Scarlet and Mrs. White: a card can only be in one place."
    for viewer in (None, "Mr. Green"):
        assert twice.problems(viewer) == [anonymous]
        assert twice.view(viewer)["problems"] == [anonymous]
    assert card in " ".join(twice.view("Mrs. White")["problems"])


def test_the_cards_nobody_scanned_are_counted_never_named() -> None:
    lobby = Lobby.open("classic", SEATS[:3], deal="physical")
    deck = lobby.edition.deck
    left = [deck.suspects[0], deck.suspects[1], deck.weapons[0]]
    for at, card in enumerate(card for card in deck.all if card not in left):
        lobby = lobby.scan(lobby.seats[at % 3], card)
    said = " ".join(lobby.problems())
    assert "3 card(s) were not scanned" in said and not any(card in said for card in left)


def test_the_envelope_must_be_one_of_each_kind() -> None:
    lobby = Lobby.open("classic", SEATS[:3], deal="physical")
    deck = lobby.edition.deck
    left = [deck.suspects[0], deck.suspects[1], deck.weapons[0]]  # no room left over
    rest = [card for card in deck.all if card not in left]
    for at, card in enumerate(rest):
        lobby = lobby.scan(lobby.seats[at % 3], card)
    assert any("one suspect, one weapon and one room" in problem for problem in lobby.problems())


def test_uneven_hands_are_refused_with_the_sizes() -> None:
    lobby = Lobby.open("classic", SEATS[:3], deal="physical")
    deal, _ = deal_cards(lobby.edition, lobby.seats, 9)
    hands = {seat: list(hand) for seat, hand in deal.hands.items()}
    hands["Miss Scarlet"].append(hands["Mrs. White"].pop())
    for seat, hand in hands.items():
        for card in hand:
            lobby = lobby.scan(seat, card)
    assert any("each hand holds 6 cards" in problem for problem in lobby.problems())


def test_equal_deal_editions_lay_leftovers_on_the_centre_pad() -> None:
    edition = load_edition("master_detective")
    seats = edition.deck.suspects[:4]
    lobby, _ = scan_deal(Lobby.open(edition.id, seats, deal="physical"), seed=11)
    assert lobby.ready == (lobby.problems() == [])
    assert lobby.ready


def test_a_virtual_deal_is_always_ready_and_hides_other_hands() -> None:
    lobby = Lobby.open("classic", SEATS, seed=4)
    assert lobby.ready and lobby.setup().deal is None
    assert lobby.view("Mrs. White")["hand"] == []


def test_a_seat_sees_only_its_own_scanned_cards() -> None:
    lobby = Lobby.open("classic", SEATS, deal="physical").scan("Mr. Green", "Rope")
    assert lobby.view("Mr. Green")["hand"] == ["Rope"]
    assert lobby.view("Mrs. White")["hand"] == [] and lobby.view(None)["hand"] == []
    assert lobby.view(None)["scanned"]["Mr. Green"] == 1


@pytest.mark.parametrize("kwargs", [{"deal": "shuffled"}, {"dice": "loaded"}])
def test_bad_choices_are_refused(kwargs: dict[str, str]) -> None:
    with pytest.raises(BadInput):
        Lobby.open("classic", SEATS, **kwargs)


def test_unknown_seats_and_cards_are_refused() -> None:
    with pytest.raises(ClueError):
        Lobby.open("classic", ("Miss Scarlet", "Nobody"))
    with pytest.raises(ClueError, match="unknown card"):
        Lobby.open("classic", SEATS, deal="physical").scan("Miss Scarlet", "Banana")
