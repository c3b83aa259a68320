"""What one seat knows, gathered from the record as that seat may see it.

The input is the stream of event dictionaries that :func:`companion.rules.views.event_for`
gives the seat: other seats' hands and cards shown between others arrive
without their cards, so nothing here can learn more than the seat may. Each
event becomes zero or more :class:`~companion.deduction.notebook.Fact` with a source
that names it, for reporting contradictions.

>>> from companion.rules.edition import load_edition
>>> knows = Knowledge("Mrs. White", load_edition("classic").deck)
>>> knows.learn({"type": "game_started", "seats": ["Miss Scarlet", "Mrs. White"], "face_up": []}, "line 1")
>>> knows.learn({"type": "cards_dealt", "seat": "Miss Scarlet", "count": 9}, "line 1")
>>> knows.learn({"type": "cards_dealt", "seat": "Mrs. White", "count": 9,
...              "cards": ["Mr. Green", "Rope"]}, "line 1")
>>> len(knows.facts), knows.ready
(2, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.cards import Deck as CardDeck
from companion.rules.errors import BadInput

from .notebook import Deck, Fact, Notebook, deduce


@dataclass
class Knowledge:
    """A seat's facts so far, and the deal's shape (seats, hand sizes, face-up cards)."""

    seat: str
    cards: CardDeck
    seats: tuple[str, ...] = ()
    hand_sizes: dict[str, int] = field(default_factory=dict)
    face_up: tuple[str, ...] = ()
    facts: list[Fact] = field(default_factory=list)
    suggestion: tuple[str, str, str] | None = None
    _cached: tuple[int, Notebook] | None = field(default=None, repr=False)

    @property
    def deck(self) -> Deck:
        return (self.cards.suspects, self.cards.weapons, self.cards.rooms)

    @property
    def ready(self) -> bool:
        """True once every seat's hand size is known (the deal is complete)."""
        return bool(self.seats) and all(seat in self.hand_sizes for seat in self.seats)

    @property
    def aside(self) -> int:
        """Cards in no hand and not face up, beside the envelope's three (the two-player variant)."""
        return len(self.cards.all) - 3 - len(self.face_up) - sum(self.hand_sizes.values())

    def learn(self, event: Mapping[str, Any], source: str) -> None:
        """Take in one event as the seat sees it."""
        kind = event.get("type")
        handler = _HANDLERS.get(str(kind))
        if handler is not None:
            handler(self, event, f"{source}: {_describe(event)}")

    def problem(self, facts: int | None = None) -> tuple[Any, ...]:
        """The arguments of :func:`~companion.deduction.notebook.deduce` for the first ``facts`` facts (default all).

        A copy: it may be worked out on another thread while more is learnt.
        """
        order = {seat: self.hand_sizes[seat] for seat in self.seats}
        return (self.deck, order, list(self.facts[:facts]), self.face_up, self.aside)

    def notebook(self) -> Notebook:
        """The exact deduction from the facts so far (cached until a fact is added)."""
        if not self.ready:
            raise BadInput("the cards are not dealt yet")
        if self._cached is None or self._cached[0] != len(self.facts):
            self._cached = (len(self.facts), deduce(*self.problem()))
        return self._cached[1]

    def _add(self, fact: Fact) -> None:
        self.facts.append(fact)

    def _started(self, event: Mapping[str, Any], source: str) -> None:
        self.seats = tuple(event["seats"])
        self.face_up = tuple(event.get("face_up") or ())

    def _dealt(self, event: Mapping[str, Any], source: str) -> None:
        self.hand_sizes[event["seat"]] = int(event["count"])
        for card in event.get("cards") or ():
            self._add(Fact.holds(event["seat"], card, source))

    def _suggested(self, event: Mapping[str, Any], source: str) -> None:
        self.suggestion = (event["suspect"], event["weapon"], event["room"])

    def _passed(self, event: Mapping[str, Any], source: str) -> None:
        if self.suggestion is not None:
            self._add(Fact.lacks(event["seat"], self.suggestion, source))

    def _shown(self, event: Mapping[str, Any], source: str) -> None:
        if "card" in event:
            self._add(Fact.holds(event["by"], event["card"], source))
        elif self.suggestion is not None:
            self._add(Fact.holds_one_of(event["by"], self.suggestion, source))

    def _accused(self, event: Mapping[str, Any], source: str) -> None:
        triple = (event["suspect"], event["weapon"], event["room"])
        if event.get("correct"):
            self._add(Fact.envelope(triple, source))
        else:
            self._add(Fact.not_envelope(triple, source))

    def _snooped(self, event: Mapping[str, Any], source: str) -> None:
        if "card" in event:
            self._add(Fact.holds(event["target"], event["card"], source))

    def _side_card(self, event: Mapping[str, Any], source: str) -> None:
        if "card" in event:
            self._add(Fact.aside(event["card"], source))

    def _revealed(self, event: Mapping[str, Any], source: str) -> None:
        for card in event["cards"]:
            self._add(Fact.holds(event["seat"], card, source))

    def _over(self, event: Mapping[str, Any], source: str) -> None:
        solution = event.get("solution")
        if solution:
            self._add(Fact.envelope((solution["suspect"], solution["weapon"], solution["room"]), source))


_HANDLERS = {
    "game_started": Knowledge._started,
    "cards_dealt": Knowledge._dealt,
    "suggested": Knowledge._suggested,
    "passed": Knowledge._passed,
    "card_shown": Knowledge._shown,
    "accused": Knowledge._accused,
    "snooped": Knowledge._snooped,
    "side_card_seen": Knowledge._side_card,
    "hand_revealed": Knowledge._revealed,
    "game_over": Knowledge._over,
}


def _describe(event: Mapping[str, Any]) -> str:
    """A short reading of an event, for naming it in a contradiction."""
    kind = event.get("type")
    if kind == "cards_dealt":
        cards = event.get("cards")
        return f"{event['seat']} holds {', '.join(cards)}" if cards else f"{event['seat']} holds {event['count']} cards"
    if kind == "passed":
        return f"{event['seat']} passed"
    if kind == "card_shown":
        card = event.get("card")
        return f"{event['by']} showed {event['to']} {card or 'a card'}"
    if kind == "accused":
        verdict = "rightly" if event.get("correct") else "wrongly"
        return f"{event['seat']} {verdict} accused {event['suspect']}, {event['weapon']}, {event['room']}"
    if kind == "snooped":
        return f"{event['seat']} saw {event.get('card', 'a card')} in {event['target']}'s hand"
    if kind == "side_card_seen":
        return f"{event['seat']} saw side card {event.get('card', event.get('index'))}"
    if kind == "hand_revealed":
        return f"{event['seat']} laid out {', '.join(event['cards'])}"
    if kind == "game_over":
        return "the solution was revealed"
    return str(kind)
