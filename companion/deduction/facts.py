"""What a seat knows, and what the count makes of it: :class:`Fact` in, :class:`Notebook` out.

A fact names an owner (a player, ``aside`` or the ``envelope``), the cards it
is about and where it was learnt, so that a :class:`Contradiction` can name the
record's entries that cannot all be true.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.rules.errors import ClueError

ENVELOPE = "envelope"
ASIDE = "aside"  # cards in no hand and not in the envelope: face down aside (two-player variant)
Deck = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # suspects, weapons, rooms
Triple = tuple[str, str, str]


class Contradiction(ClueError):
    """No deal fits the facts; ``entries`` are the facts that together cannot be true."""

    code = "contradiction"

    def __init__(self, message: str, /, entries: Sequence[str]) -> None:
        self.entries = tuple(entries)
        super().__init__(message, entries="; ".join(self.entries))


@dataclass(frozen=True)
class Fact:
    """One thing a seat knows, with where it was learnt (``source``, for reporting contradictions)."""

    kind: str  # holds, lacks, holds_one_of, not_envelope, envelope, aside
    owner: str | None
    cards: tuple[str, ...]
    source: str

    @classmethod
    def holds(cls, owner: str, card: str, source: str) -> Fact:
        return cls("holds", owner, (card,), source)

    @classmethod
    def lacks(cls, owner: str, cards: Iterable[str], source: str) -> Fact:
        return cls("lacks", owner, tuple(cards), source)

    @classmethod
    def holds_one_of(cls, owner: str, cards: Iterable[str], source: str) -> Fact:
        return cls("holds_one_of", owner, tuple(cards), source)

    @classmethod
    def not_envelope(cls, triple: Triple, source: str) -> Fact:
        return cls("not_envelope", None, tuple(triple), source)

    @classmethod
    def envelope(cls, triple: Iterable[str], source: str) -> Fact:
        return cls("envelope", ENVELOPE, tuple(triple), source)

    @classmethod
    def aside(cls, card: str, source: str) -> Fact:
        return cls("aside", ASIDE, (card,), source)


@dataclass
class Notebook:
    """The exact result: counts of consistent deals and the probabilities they give."""

    deals: int  # how many deals fit
    counts: dict[str, dict[str, int]]  # card -> place -> deals with the card there
    triples: dict[Triple, int]  # envelope triple -> deals
    places: tuple[str, ...]  # the players in seat order, then aside (if any), then the envelope

    def probability(self, card: str, place: str) -> Fraction:
        """0 everywhere for a face-up card: it lies in no hand and not in the envelope."""
        return Fraction(self.counts.get(card, {}).get(place, 0), self.deals)

    @property
    def envelope(self) -> dict[str, Fraction]:
        return {card: self.probability(card, ENVELOPE) for card in self.counts}

    @property
    def certain(self) -> dict[str, str]:
        """Cards whose place is certain: card -> place."""
        return {card: place for card, at in self.counts.items() for place, count in at.items() if count == self.deals}

    @property
    def impossible(self) -> dict[str, tuple[str, ...]]:
        """For each card, the places it certainly is not."""
        return {card: tuple(place for place in self.places if not at.get(place)) for card, at in self.counts.items()}

    def triple_probabilities(self) -> dict[Triple, Fraction]:
        return {triple: Fraction(count, self.deals) for triple, count in self.triples.items() if count}

    @property
    def best_accusation(self) -> tuple[Triple, Fraction]:
        """The likeliest envelope, and the chance an accusation of it is right."""
        triple, count = max(self.triples.items(), key=lambda item: (item[1], item[0]))
        return triple, Fraction(count, self.deals)

    def to_dict(self) -> dict[str, Any]:
        best, chance = self.best_accusation
        return {
            "deals": self.deals,
            "places": list(self.places),
            "cards": {card: {place: float(self.probability(card, place)) for place in self.places}
                      for card in self.counts},
            "certain": self.certain,
            "impossible": {card: list(places) for card, places in self.impossible.items()},
            "envelope": {" / ".join(triple): float(p) for triple, p in
                         sorted(self.triple_probabilities().items(), key=lambda item: -item[1])},
            "best_accusation": list(best),
            "accuse_chance": float(chance),
            "can_accuse": chance == 1,
        }

