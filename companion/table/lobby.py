"""The table before play: seats chosen, cards being dealt by the companion or scanned.

With a physical deal, each player taps the cards of their hand on their seat's
pad, and the leftover face-up cards on the centre pad. The envelope is what
nobody scanned. A second tap of the same card on the same pad takes it back,
so a mistake is undone by tapping again. The game starts only when every card
is accounted for exactly once.

>>> lobby = Lobby.open("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"), deal="physical", seed=1)
>>> lobby = lobby.scan("Mr. Green", "Rope")
>>> lobby.scanned["Mr. Green"], lobby.ready
(('Rope',), False)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from companion.language import N_
from companion.rules.actions import DealSpec, Setup
from companion.rules.cards import CATEGORIES
from companion.rules.deal import check_deal
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import BadDeal, BadInput, ClueError
from companion.rules.setup import new_game

from .wording import Words, in_turn, joined

DEALS = ("virtual", "physical")
DICE = ("companion", "physical")


@dataclass(frozen=True)
class Lobby:
    """A game being set up: who sits where, how cards are dealt and dice rolled."""

    edition: Edition
    seats: tuple[str, ...]
    deal: str
    dice: str
    seed: int
    variant: str | None = None
    bonus_cards: bool = True
    scanned: dict[str, tuple[str, ...]] = field(default_factory=dict)  # seat -> cards, in scan order
    face_up: tuple[str, ...] = ()

    @classmethod
    def open(cls, edition: str, seats: tuple[str, ...], *, deal: str = "virtual", dice: str = "companion",
             seed: int = 0, variant: str | None = None, bonus_cards: bool = True) -> Lobby:
        """Check the choices (raising a :class:`ClueError`) and open the table."""
        if deal not in DEALS:
            raise BadInput("deal must be one of {choices}, not {deal!r}", choices=", ".join(DEALS), deal=deal)
        if dice not in DICE:
            raise BadInput("dice must be one of {choices}, not {dice!r}", choices=", ".join(DICE), dice=dice)
        if deal == "physical" and variant is not None:
            raise BadInput("the {variant} variant sets cards aside: it needs the companion to deal", variant=variant)
        lobby = cls(load_edition(edition), tuple(seats), deal, dice, seed, variant, bonus_cards)
        state, _ = new_game(lobby._setup(None))  # the engine checks edition, seats and variant
        return replace(lobby, seats=state.seats, scanned={seat: () for seat in state.seats})

    def scan(self, seat: str, card: str) -> Lobby:
        """``card`` tapped on ``seat``'s pad: into the hand, or out again if already in it."""
        card = self.edition.deck.resolve(card)
        hand = self.scanned[seat]
        hand = tuple(c for c in hand if c != card) if card in hand else hand + (card,)
        return replace(self, scanned={**self.scanned, seat: hand})

    def scan_face_up(self, card: str) -> Lobby:
        """``card`` tapped on the centre pad: a leftover lying face up (tap again to take back)."""
        card = self.edition.deck.resolve(card)
        face_up = tuple(c for c in self.face_up if c != card) if card in self.face_up else self.face_up + (card,)
        return replace(self, face_up=face_up)

    def problems(self, seat: str | None = None) -> list[str]:
        """Why the game cannot start yet; empty when it can."""
        return [str(words) for words in self.problem_words(seat)]

    def problem_words(self, seat: str | None = None) -> list[Words]:
        """:meth:`problems` as messages, to be said in the table's language.

        Said so that nobody learns a card from it: a card scanned twice is named
        only to a seat that scanned it, and the unscanned cards (the envelope to
        be) are never named, only counted.
        """
        if self.deal == "virtual":
            return []
        holders = self._holders()
        # Sorted as sentences, not by card, so that their order names no card either.
        twice = (self._twice(card, where, seat) for card, where in holders.items() if len(where) > 1)
        problems = sorted(twice, key=str)
        left = [card for card in self.edition.deck.all if card not in holders]
        categories = Counter(self.edition.deck.category_of(card) for card in left)
        if len(left) > 3:
            problems.append(Words(N_("{more} more card(s) to scan: {left} are not accounted for."),
                                  {"more": len(left) - 3, "left": len(left)}))
        elif len(left) < 3 or sorted(categories) != sorted(CATEGORIES):
            problems.append(Words(N_("{left} card(s) were not scanned, and the envelope must hold exactly one "
                                     "suspect, one weapon and one room: check each hand."), {"left": len(left)}))
        if not problems:
            try:
                self.deal_spec()
            except ClueError as err:  # the engine's own words (the rules' catalogue has them), as a sentence
                problems.append(Words("{text}", {"text": str(err)[:1].upper() + str(err)[1:] + "."}))
        return problems

    def _holders(self) -> dict[str, list[str | Words]]:
        holders: dict[str, list[str | Words]] = {}
        for seat, hand in self.scanned.items():
            for card in hand:
                holders.setdefault(card, []).append(seat)
        for card in self.face_up:
            holders.setdefault(card, []).append(Words(N_("the centre pad")))
        return holders

    @staticmethod
    def _twice(card: str, where: list[str | Words], seat: str | None) -> Words:
        places = joined(where)
        if seat in where:
            return Words(N_("{card} was scanned by {places}: it can only be in one place."),
                         {"card": card, "places": places})
        return Words(N_("One card was scanned by {places}: a card can only be in one place."), {"places": places})

    @property
    def ready(self) -> bool:
        return not self.problems()

    def deal_spec(self) -> DealSpec:
        """The scanned deal with the envelope inferred; :class:`BadDeal` if it does not add up."""
        held = {card for hand in self.scanned.values() for card in hand} | set(self.face_up)
        envelope = tuple(card for card in self.edition.deck.all if card not in held)
        if len(envelope) != 3:
            raise BadDeal("the envelope would hold {count} cards, not 3", count=len(envelope))
        return check_deal(self.edition, self.seats, DealSpec(envelope, dict(self.scanned), self.face_up))

    def setup(self) -> Setup:
        """The game record's setup line for this table; raises if a physical deal is incomplete."""
        if self.deal == "physical":
            problems = self.problems()
            if problems:
                raise BadDeal("the deal is not complete: {problems}", problems=in_turn(self.problem_words()))
            return self._setup(self.deal_spec())
        return self._setup(None)

    def _setup(self, deal: DealSpec | None) -> Setup:
        return Setup(self.edition.id, self.seats, seed=self.seed, deal=deal, variant=self.variant,
                     bonus_cards=self.bonus_cards)

    def settings(self) -> dict[str, str]:
        return {"deal": self.deal, "dice": self.dice}

    def view(self, seat: str | None) -> dict[str, Any]:
        """The setup stage as ``seat`` (None: the table) may see it: only its own scanned cards."""
        words = self.problem_words(seat)
        problems = [str(problem) for problem in words]
        return {
            "stage": "setup", "phase": "setup", "turn": None, "seat": seat, "seats": list(self.seats),
            "edition": self.edition.id,
            "hand": list(self.scanned.get(seat, ())) if seat else [],
            "scanned": {s: len(hand) for s, hand in self.scanned.items()},
            "face_up": list(self.face_up), "problems": problems, "ready": not problems,
            "problem_parts": [problem.as_dict() for problem in words],  # problems, to say in the table's language
        }
