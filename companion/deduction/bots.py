"""Computer players: a bot plays a seat through the same actions as a human.

A bot learns only what its seat may see (events through
:func:`companion.rules.views.event_for`, into a :class:`~companion.deduction.knowledge.Knowledge`)
and reads only the public parts of the state (whose turn, the phase, where the
movers stand, the legal destinations) plus its own hand and the cards it may show.

Levels:

- ``random``: moves and suggests at random; accuses only when its notebook is certain.
- ``expert``: heads for the rooms likeliest to be in the envelope, suggests what
  most reduces the expected entropy of the envelope, shows the card that reveals
  least, and accuses when certain.
- ``bold``: plays like ``expert`` but accuses once the likeliest envelope has a
  chance of at least 1/2.

The expected entropy uses the assistant's exact triple probabilities; only the
answer to a suggestion is modelled simply: a card of the suggestion not in the
envelope is shown, each such card equally likely.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.rules.actions import Accuse, Action, EndTurn, Move, Roll, Show, Snoop, Suggest
from companion.rules.edition import Edition
from companion.rules.engine import apply, legal_destinations
from companion.rules.errors import ClueError
from companion.rules.movement import stop_steps
from companion.rules.state import GameState, Phase
from companion.rules.views import seat_view

from .knowledge import Knowledge
from .notebook import ENVELOPE, Notebook, Triple

FAR = 99  # steps: "out of reach" for the route finder


@dataclass(frozen=True)
class Level:
    name: str
    informed: bool  # suggests and moves by the notebook (else at random)
    accuse_at: Fraction  # the likeliest envelope's chance that makes it accuse


LEVELS = {level.name: level for level in (
    Level("random", informed=False, accuse_at=Fraction(1)),
    Level("expert", informed=True, accuse_at=Fraction(1)),
    Level("bold", informed=True, accuse_at=Fraction(1, 2)),
)}


@dataclass
class Routes:
    """Fewest steps from a square to a room, remembered per edition (shared by the bots of a game)."""

    edition: Edition
    known: dict[tuple[str, str], int] = field(default_factory=dict)

    def steps(self, start: str, room: str) -> int:
        if (start, room) not in self.known:
            found = stop_steps(self.edition.require_board(), start, FAR, (), room, self.edition.movement)
            self.known[(start, room)] = FAR if found is None else found
        return self.known[(start, room)]


@dataclass
class Bot:
    seat: str
    level: Level
    knows: Knowledge
    routes: Routes
    rand: random.Random
    shown_to: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # card -> seats shown it

    @classmethod
    def create(cls, seat: str, level: str, edition: Edition, routes: Routes, rand: random.Random) -> Bot:
        if level not in LEVELS:
            raise ClueError("unknown bot level {level!r}; levels: {levels}", level=level, levels=", ".join(LEVELS))
        return cls(seat, LEVELS[level], Knowledge(seat, edition.deck), routes, rand)

    def observe(self, events: Iterable[dict[str, Any]], source: str = "") -> None:
        """Take in events as this seat sees them."""
        for event in events:
            self.knows.learn(event, source)
            if event.get("type") == "card_shown" and event.get("by") == self.seat:
                self.shown_to[event["card"]].add(event["to"])

    def choose(self, state: GameState) -> Action:
        """This seat's next action; call only when it is this seat's to act."""
        turn = state.turn
        if turn.phase is Phase.REFUTING and turn.refutation and turn.refutation.asked == self.seat:
            return self._show(state)
        if turn.phase is Phase.OUT:
            return EndTurn(self.seat)
        accusation = self._accusation(state)
        if accusation is not None:
            return accusation
        if turn.snoop_at is not None and turn.snoop_at == state.position(self.seat):
            return Snoop(self.seat, self._snoop_target(state))
        if turn.phase is Phase.START:
            return self._start(state)
        if turn.phase is Phase.MOVING:
            return Move(self.seat, self._destination(state, legal_destinations(state)))
        if (turn.phase is Phase.MOVED and turn.entered in state.edition.deck.rooms and not turn.refutation
                and state.position(self.seat) == turn.entered):
            return self._suggest(state, turn.entered)
        return EndTurn(self.seat)

    # Accusing

    def _accusation(self, state: GameState) -> Action | None:
        triple, chance = self.knows.notebook().best_accusation
        if chance < self.level.accuse_at:
            return None
        action = Accuse(self.seat, *triple)
        return action if _accepted(state, action) else None

    # Moving

    def _start(self, state: GameState) -> Action:
        here = state.position(self.seat)
        if self.seat in state.summoned and here in state.edition.deck.rooms and not state.turn.refutation:
            return self._suggest(state, here)
        passages = [place for place in legal_destinations(state) if place in state.edition.deck.rooms]
        if passages and self.level.informed:
            best = max(passages, key=self._room_value)
            if self._room_value(best) > self._room_value(here) + 0.25:
                return Move(self.seat, best)
        return Roll(self.seat, None)

    def _destination(self, state: GameState, places: Sequence[str]) -> str:
        rooms = [place for place in places if place in state.edition.deck.rooms]
        goal = state.edition.accuse
        if goal in places and self.knows.notebook().best_accusation[1] >= self.level.accuse_at:
            return goal  # certain, and accusing needs the centre space
        if not self.level.informed:
            return self.rand.choice(rooms if rooms and self.rand.random() < 0.8 else places)
        here = state.position(self.seat)
        if rooms:
            return max(rooms, key=lambda room: (room != here, self._room_value(room)))
        targets = sorted(state.edition.deck.rooms, key=self._room_value, reverse=True)[:3]
        return min(places, key=lambda place: min(self.routes.steps(place, room) for room in targets))

    def _room_value(self, room: str) -> float:
        if room not in self.knows.cards.rooms:
            return -1.0
        return float(self.knows.notebook().probability(room, ENVELOPE))

    # Suggesting

    def _suggest(self, state: GameState, room: str) -> Action:
        deck = state.edition.deck
        if not self.level.informed:
            return Suggest(self.seat, self.rand.choice(deck.suspects), self.rand.choice(deck.weapons))
        notebook = self.knows.notebook()
        hand = set(seat_view(state, self.seat)["hand"])
        triples = _floats(notebook)
        options = [(s, w) for s in deck.suspects for w in deck.weapons]
        gains = {option: information((option[0], option[1], room), triples, hand) for option in options}
        best = max(gains.values())
        chosen = self.rand.choice([option for option, gain in gains.items() if gain >= best - 1e-12])
        return Suggest(self.seat, *chosen)

    # Refuting

    def _show(self, state: GameState) -> Action:
        may = list(seat_view(state, self.seat)["may_show"])
        suggester = state.turn.seat
        if not self.level.informed:
            return Show(self.seat, self.rand.choice(may))
        # A card this suggester has already seen reveals nothing; else the one most others have seen.
        card = max(may, key=lambda c: (suggester in self.shown_to[c], len(self.shown_to[c]), -may.index(c)))
        return Show(self.seat, card)

    def _snoop_target(self, state: GameState) -> str:
        notebook = self.knows.notebook()
        others = [seat for seat in state.seats if seat != self.seat]
        unknown = {seat: sum(1 for card in notebook.counts if 0 < notebook.probability(card, seat) < 1)
                   for seat in others}
        return max(others, key=lambda seat: unknown[seat])


def _accepted(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except ClueError:
        return False
    return True


def _floats(notebook: Notebook) -> dict[Triple, float]:
    return {triple: float(chance) for triple, chance in notebook.triple_probabilities().items()}


def entropy(weights: Iterable[float]) -> float:
    """Shannon entropy in bits of weights that need not sum to 1."""
    values = [w for w in weights if w > 0]
    total = sum(values)
    return -sum(w / total * math.log2(w / total) for w in values) if total > 0 else 0.0


def information(suggestion: Triple, triples: dict[Triple, float], hand: set[str]) -> float:
    """Expected bits a suggestion takes off the envelope's entropy.

    For each possible envelope, the answer is "nobody shows" if every card of the
    suggestion not in the suggester's hand is in the envelope; otherwise one of
    the cards outside it is shown, each equally likely.
    """
    unknown = [card for card in suggestion if card not in hand]
    outcomes: dict[str | None, dict[Triple, float]] = defaultdict(dict)
    for triple, chance in triples.items():
        outside = [card for card in unknown if card not in triple]
        if not outside:
            outcomes[None][triple] = chance
        for card in outside:
            outcomes[card][triple] = chance / len(outside)
    after = sum(sum(weights.values()) * entropy(weights.values()) for weights in outcomes.values())
    return entropy(triples.values()) - after
