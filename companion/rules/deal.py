"""Dealing: the envelope, the hands and any face-up leftovers.

Each category is shuffled apart and its top card goes into the envelope; the
rest are shuffled together and dealt clockwise from the first seat. Editions
with ``deal = "all"`` deal every card (some hands one larger); ``"equal"``
editions give equal hands and lay the leftovers face up.

>>> from companion.rules.edition import load_edition
>>> deal = deal_cards(load_edition("classic"), ("Miss Scarlet", "Mr. Green", "Mrs. White"), 1)[0]
>>> [len(hand) for hand in deal.hands.values()], deal.face_up
([6, 6, 6], ())
"""

from __future__ import annotations

from collections import Counter

from . import rng
from .actions import DealSpec
from .cards import CATEGORIES, CardList
from .edition import Edition
from .errors import BadDeal, UnknownSeat

ASIDE = 4  # the two-player variant's face-down side cards


def deal_cards(edition: Edition, seats: tuple[str, ...], state: int, aside: int = 0) -> tuple[DealSpec, int]:
    """A random deal drawn from the generator ``state``; returns the next state.

    ``aside`` cards are taken from the top of the shuffled pile before dealing
    (the two-player variant's side cards).
    """
    deck = edition.deck
    envelope = []
    rest: list[str] = []
    for category in CATEGORIES:
        cards, state = rng.shuffled(state, deck.of(category))
        envelope.append(cards[0])
        rest.extend(cards[1:])
    shuffled, state = rng.shuffled(state, rest)
    side, pile = shuffled[:aside], shuffled[aside:]
    dealt = len(pile) if edition.deal == "all" else len(pile) // len(seats) * len(seats)
    hands = {seat: pile[at:dealt:len(seats)] for at, seat in enumerate(seats)}
    return DealSpec(tuple(envelope), hands, pile[dealt:], side), state


def check_deal(edition: Edition, seats: tuple[str, ...], given: DealSpec, aside: int = 0) -> DealSpec:
    """A given deal with names resolved, or :class:`BadDeal` saying what is wrong."""
    deck = edition.deck
    envelope = deck.resolve_all(given.envelope)
    if sorted(deck.category_of(card) for card in envelope) != sorted(CATEGORIES):
        raise BadDeal("the envelope must hold one suspect, one weapon and one room, not {cards}", cards=list(envelope))
    hands = _resolve_hands(edition, seats, given)
    face_up = deck.resolve_all(given.face_up)
    side = deck.resolve_all(given.aside)
    if len(side) != aside:
        if aside:
            raise BadDeal("the deal must set aside exactly {aside} side cards in \"aside\", not {count}", aside=aside,
                          count=len(side))
        raise BadDeal("the deal must set aside no side cards (only the two_player variant has them), not {count}",
                      count=len(side))
    _check_each_card_once(edition, envelope, hands, face_up + side)
    _check_hand_sizes(edition, seats, hands, face_up, aside)
    ordered = tuple(sorted(envelope, key=lambda card: CATEGORIES.index(deck.category_of(card))))
    return DealSpec(ordered, hands, face_up, side)


def _resolve_hands(edition: Edition, seats: tuple[str, ...], given: DealSpec) -> dict[str, tuple[str, ...]]:
    hands: dict[str, tuple[str, ...]] = {}
    for name, cards in given.hands.items():
        seat = edition.deck.resolve(name, "suspect") if name not in seats else name
        if seat not in seats:
            raise UnknownSeat("the deal has a hand for {seat}, who is not seated; seats: {seats}", seat=seat,
                              seats=CardList(seats))
        if seat in hands:
            raise BadDeal("the deal has two hands for {seat}", seat=seat)
        hands[seat] = edition.deck.resolve_all(cards)
    missing = [seat for seat in seats if seat not in hands]
    if missing:
        raise BadDeal("the deal has no hand for {seats}", seats=CardList(missing))
    return {seat: hands[seat] for seat in seats}


def _check_each_card_once(
    edition: Edition, envelope: tuple[str, ...], hands: dict[str, tuple[str, ...]], face_up: tuple[str, ...]
) -> None:
    counts = Counter(envelope + face_up + tuple(card for hand in hands.values() for card in hand))
    twice = sorted(card for card, count in counts.items() if count > 1)
    missing = [card for card in edition.deck.all if card not in counts]
    if twice:
        raise BadDeal("dealt more than once: {cards}", cards=CardList(twice))
    if missing:
        raise BadDeal("not dealt anywhere: {cards}", cards=CardList(missing))


def _check_hand_sizes(
    edition: Edition, seats: tuple[str, ...], hands: dict[str, tuple[str, ...]], face_up: tuple[str, ...],
    aside: int,
) -> None:
    pile = len(edition.deck.all) - 3 - aside
    sizes = {seat: len(cards) for seat, cards in hands.items()}
    share, left = divmod(pile, len(seats))
    if edition.deal == "all":
        if face_up:
            raise BadDeal("{edition} deals every card: no cards lie face up", edition=edition.name)
        legal = {share, share + 1} if left else {share}
    else:
        if len(face_up) != left:
            raise BadDeal("{edition} lays {left} leftover card(s) face up, not {count}", edition=edition.name,
                          left=left, count=len(face_up))
        legal = {share}
    wrong = {seat: size for seat, size in sizes.items() if size not in legal}
    if not wrong:
        return
    listed = ", ".join(f"{seat} has {size}" for seat, size in wrong.items())
    if len(legal) > 1:
        raise BadDeal("with {players} players each hand holds {fewer} or {more} cards: {hands}", players=len(seats),
                      fewer=share, more=share + 1, hands=listed)
    raise BadDeal("with {players} players each hand holds {size} cards: {hands}", players=len(seats), size=share,
                  hands=listed)
