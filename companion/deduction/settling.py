"""The facts applied before counting: where each card may still be, and what that settles on its own.

A card with one possible place is placed, a full hand takes no more, an
envelope with its category's card takes no other, and a "one of" fact with one
possible card places it. A late game then leaves few cards for the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.rules.errors import ClueError

from .facts import ASIDE, ENVELOPE, Deck, Fact, Triple


@dataclass
class Problem:
    """What is dealt: the deck, each hand's size, the face-up cards and how many lie aside."""

    deck: Deck
    hand_sizes: dict[str, int]
    face_up: tuple[str, ...]
    aside: int
    owners: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.owners = tuple(self.hand_sizes) + ((ASIDE,) if self.aside else ())
        cards = sum(len(category) for category in self.deck) - len(self.face_up)
        if sum(self.hand_sizes.values()) + self.aside + 3 != cards:
            raise ClueError("{cards} cards cannot fill hands of {hands}, {aside} aside and the envelope's 3",
                            cards=cards, hands=sum(self.hand_sizes.values()), aside=self.aside)


@dataclass
class Settled:
    """The facts applied: where each card may still be, what is left to place, the unmet "one of" facts."""

    allowed: dict[str, set[str]]  # card -> places it may be
    capacity: dict[str, int]  # owner -> cards still to receive
    clauses: list[tuple[str, frozenset[str]]]  # owner holds at least one of these
    forbidden: set[Triple]  # envelopes a wrong accusation ruled out
    fixed: dict[str, str]  # card -> its certain place

    @classmethod
    def build(cls, problem: Problem, facts: Sequence[Fact]) -> Settled | None:
        places = set(problem.owners) | {ENVELOPE}
        allowed = {card: set(places) for category in problem.deck for card in category if card not in problem.face_up}
        setup = cls(allowed, dict(problem.hand_sizes) | ({ASIDE: problem.aside} if problem.aside else {}),
                    [], set(), {})
        if not setup._apply(facts, problem):
            return None
        return setup if setup._propagate(problem.deck) else None

    def narrowed(self, problem: Problem, facts: Sequence[Fact]) -> Settled | None:
        """What :meth:`build` gives with ``facts`` added, from this one (narrowing is monotone: same result).

        A wrong accusation is counted as the deals with its triple in the
        envelope; starting from the settled facts spares re-reading the whole
        record for each one (late in a game, most of a small notebook's time).
        """
        setup = Settled({card: set(places) for card, places in self.allowed.items()}, dict(self.capacity),
                        list(self.clauses), set(self.forbidden), dict(self.fixed))
        if not setup._apply(facts, problem):
            return None
        return setup if setup._propagate(problem.deck) else None

    def _apply(self, facts: Sequence[Fact], problem: Problem) -> bool:
        for fact in facts:
            unknown = [card for card in fact.cards if card not in self.allowed and card not in problem.face_up]
            if unknown:
                raise ClueError("{source}: {cards} is not a card in this game", source=fact.source,
                                cards=", ".join(unknown))
            if fact.owner is not None and fact.owner not in (*problem.owners, ENVELOPE, ASIDE):
                raise ClueError("{source}: {owner} is not a player in this game", source=fact.source, owner=fact.owner)
            cards = [card for card in fact.cards if card in self.allowed]
            if fact.kind in ("holds", "aside", "envelope"):
                if len(cards) < len(fact.cards):
                    return False  # a face-up card is in no hand and not in the envelope
                for card in cards:
                    self.allowed[card] &= {fact.owner or ASIDE}
            elif fact.kind == "lacks":
                for card in cards:
                    self.allowed[card].discard(fact.owner or "")
            elif fact.kind == "holds_one_of":
                if not cards:
                    return False  # one of cards that are all face up: cannot be
                self.clauses.append((fact.owner or "", frozenset(cards)))
            elif fact.kind == "not_envelope":
                self.forbidden.add((fact.cards[0], fact.cards[1], fact.cards[2]))
        return True

    def _propagate(self, deck: Deck) -> bool:
        """Settle what the facts settle on their own; False on a contradiction."""
        changed = True
        while changed:
            changed = False
            for card, places in self.allowed.items():
                if not places:
                    return False
                if len(places) == 1 and card not in self.fixed:
                    self.fixed[card] = next(iter(places))
                    changed = True
            if not self._settle_counts(deck):
                return False
            clauses = self._settle_clauses()
            if clauses is None:
                return False
            changed = changed or clauses
        return True

    def _settle_counts(self, deck: Deck) -> bool:
        for owner, room in self.capacity.items():
            placed = sum(1 for place in self.fixed.values() if place == owner)
            if placed > room:
                return False
            if placed == room:
                for card, places in self.allowed.items():
                    if card not in self.fixed:
                        places.discard(owner)
        for category in deck:
            in_envelope = [card for card in category if self.fixed.get(card) == ENVELOPE]
            if len(in_envelope) > 1 or not any(ENVELOPE in self.allowed.get(card, ()) for card in category):
                return False
            if in_envelope:
                for card in category:
                    if card in self.allowed and card not in self.fixed:
                        self.allowed[card].discard(ENVELOPE)
        return True

    def _settle_clauses(self) -> bool | None:
        """Drop met "one of" facts, narrow the rest; None if one cannot be met."""
        kept: list[tuple[str, frozenset[str]]] = []
        changed = False
        for owner, cards in self.clauses:
            if any(self.fixed.get(card) == owner for card in cards):
                continue
            possible = frozenset(card for card in cards if owner in self.allowed[card])
            if not possible:
                return None
            if len(possible) == 1:
                card = next(iter(possible))
                self.allowed[card] = {owner}
                changed = True
                continue
            kept.append((owner, possible))
        self.clauses = kept
        return changed
