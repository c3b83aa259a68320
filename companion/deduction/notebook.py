"""The detective's assistant: what one seat can deduce, exactly.

Every deal consistent with what the seat knows is counted, each as equally
likely (a shuffled deal makes every way of filling the envelope and the hands
equally likely, before anything is learnt). Nothing is sampled.

What a seat knows is a list of :class:`Fact` (its hand, cards shown to it, who
passed, who showed a card to someone else, wrong accusations, cards laid out).
The count runs as a dynamic programme over the cards whose place is not yet
certain, those of "one of" facts first, then by category. Its state is what still matters about the cards not yet
placed: how many more cards each hand takes, which card of each category is in
the envelope so far, and which "holds one of these" facts are still unmet. Two
passes (forward: ways to reach a state; backward: ways to finish from it) give
every card's count at every place at once. Facts that settle a card on their own
are applied first, so a late game has few cards left to count.

>>> deck = (("Green", "Plum"), ("Rope", "Knife"), ("Hall", "Study"))
>>> facts = [Fact.holds("me", "Green", "my hand"), Fact.holds("me", "Rope", "my hand")]
>>> notebook = deduce(deck, {"me": 2, "you": 1}, facts)
>>> notebook.envelope["Green"], notebook.certain["Plum"]
(Fraction(0, 1), 'envelope')
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.rules.errors import ClueError

ENVELOPE = "envelope"
ASIDE = "aside"  # cards in no hand and not in the envelope: face down aside (two-player variant)
Deck = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # suspects, weapons, rooms
Triple = tuple[str, str, str]
FIELD = 5  # bits per counter in a packed count state: up to 31 cards in a hand
MASK = (1 << FIELD) - 1


class Contradiction(ClueError):
    """No deal fits the facts; ``entries`` are the facts that together cannot be true."""

    code = "contradiction"

    def __init__(self, entries: Sequence[str]) -> None:
        self.entries = tuple(entries)
        super().__init__("these entries cannot all be true: " + "; ".join(self.entries))


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


def deduce(deck: Deck, hand_sizes: Mapping[str, int], facts: Sequence[Fact], face_up: Iterable[str] = (),
           aside: int = 0) -> Notebook:
    """Count every deal of ``deck`` that fits ``facts``; :class:`Contradiction` if none does.

    ``hand_sizes`` gives every player's hand size, in seat order; ``face_up``
    cards are in nobody's hand; ``aside`` cards lie face down in no hand.
    """
    problem = _Problem(deck, dict(hand_sizes), tuple(face_up), aside)
    notebook = problem.solve(facts)
    if notebook is None:
        raise Contradiction(_responsible(problem, facts))
    return notebook


def _responsible(problem: _Problem, facts: Sequence[Fact]) -> list[str]:
    """A smallest-by-deletion set of facts that cannot all be true."""
    kept = list(facts)
    for fact in list(facts):
        trial = [other for other in kept if other is not fact]
        if problem.solve(trial) is None:
            kept = trial
    return [fact.source for fact in kept]


@dataclass
class _Problem:
    deck: Deck
    hand_sizes: dict[str, int]
    face_up: tuple[str, ...]
    aside: int
    owners: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.owners = tuple(self.hand_sizes) + ((ASIDE,) if self.aside else ())
        cards = sum(len(category) for category in self.deck) - len(self.face_up)
        if sum(self.hand_sizes.values()) + self.aside + 3 != cards:
            raise ClueError(f"{cards} cards cannot fill hands of {sum(self.hand_sizes.values())}, "
                            f"{self.aside} aside and the envelope's 3")

    def solve(self, facts: Sequence[Fact]) -> Notebook | None:
        setup = _Setup.build(self, facts)
        if setup is None:
            return None
        counter = _Count(self, setup)
        deals, counts = counter.card_counts()
        for triple in setup.forbidden:
            # Envelopes are exclusive, so the deals a wrong accusation rules out can be counted and taken away.
            ruled_out = _Setup.build(self, [*facts, Fact.envelope(triple, "")])
            if ruled_out is not None:
                less, fewer = _Count(self, ruled_out).card_counts()
                deals -= less
                for card, at in fewer.items():
                    for place, count in at.items():
                        counts[card][place] = counts[card].get(place, 0) - count
        if deals == 0:
            return None
        counts = {card: {place: count for place, count in at.items() if count} for card, at in counts.items()}
        return Notebook(deals, counts, counter.triples(), self.owners + (ENVELOPE,))


@dataclass
class _Setup:
    """The facts applied: where each card may still be, what is left to place, the unmet "one of" facts."""

    allowed: dict[str, set[str]]  # card -> places it may be
    capacity: dict[str, int]  # owner -> cards still to receive
    clauses: list[tuple[str, frozenset[str]]]  # owner holds at least one of these
    forbidden: set[Triple]  # envelopes a wrong accusation ruled out
    fixed: dict[str, str]  # card -> its certain place

    @classmethod
    def build(cls, problem: _Problem, facts: Sequence[Fact]) -> _Setup | None:
        places = set(problem.owners) | {ENVELOPE}
        allowed = {card: set(places) for category in problem.deck for card in category if card not in problem.face_up}
        setup = cls(allowed, dict(problem.hand_sizes) | ({ASIDE: problem.aside} if problem.aside else {}),
                    [], set(), {})
        if not setup._apply(facts, problem):
            return None
        return setup if setup._propagate(problem.deck) else None

    def _apply(self, facts: Sequence[Fact], problem: _Problem) -> bool:
        for fact in facts:
            unknown = [card for card in fact.cards if card not in self.allowed and card not in problem.face_up]
            if unknown:
                raise ClueError(f"{fact.source}: {', '.join(unknown)} is not a card in this game")
            if fact.owner is not None and fact.owner not in (*problem.owners, ENVELOPE, ASIDE):
                raise ClueError(f"{fact.source}: {fact.owner} is not a player in this game")
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


@dataclass(frozen=True)
class _Holders:
    """Players who still take cards, as the count sees them.

    Players that still take as many cards, may take exactly the same unsettled
    cards and are named by no "one of" fact are interchangeable: any deal stays a fitting deal when their
    hands are swapped. The count then tracks them together, as how many of them
    still take 1, 2, ... cards, and shares what it finds evenly between them.
    Early in a game this turns nine opponents' separate hand counts (3^9 cases
    in a 10-player game) into a few dozen.
    """

    members: tuple[str, ...]
    shift: int  # the first field of this holder in a packed state
    top: int  # the most cards a member still takes (fields: how many members take 1..top)

    @property
    def single(self) -> bool:
        return len(self.members) == 1


class _Count:
    """The count over the cards whose place is not settled, with each state packed into one int.

    A state holds what still matters about the cards not yet placed. Its fields,
    from the lowest bits: for each lone player, how many more cards it takes;
    for each set of interchangeable players, how many of them still take 1, 2,
    ... cards (FIELD bits each); for each category, the envelope's card so far
    (0 for none; else 1, or the card's interchangeable set when the triples are
    wanted); then one bit per unmet "one of" fact. A step that may go to any of
    n interchangeable players in the same position counts n times.
    """

    def __init__(self, problem: _Problem, setup: _Setup) -> None:
        self.setup, self.deck, self.owners = setup, problem.deck, problem.owners
        candidates = [sum(1 for card in category if ENVELOPE in setup.allowed.get(card, ())) for category in self.deck]
        # The triple pass carries the envelope card of each category once it is passed: fewest candidates first.
        self.order = sorted(range(3), key=lambda at: candidates[at])
        self.cards = _card_order(self.deck, self.order, setup)
        category_of = {card: at for at, category in enumerate(self.deck) for card in category}
        self.category = [category_of[card] for card in self.cards]
        self.left = {owner: setup.capacity[owner] - sum(1 for place in setup.fixed.values() if place == owner)
                     for owner in self.owners}
        self.holders = self._holders()
        fields = sum(1 if holder.single else holder.top for holder in self.holders)
        self.envelope_shift = [FIELD * (fields + at) for at in range(3)]
        self.clause_shift = FIELD * (fields + 3)
        self.places: list[_Holders | str] = [*self.holders, ENVELOPE]
        self.moves = [self._moves(card) for card in self.cards]
        self.closing = [self._closing(index) for index in range(len(self.cards))]
        self.last = [index == max(i for i, at in enumerate(self.category) if at == self.category[index])
                     for index in range(len(self.cards))]
        self.groups, self.group_of = self._groups()

    def _holders(self) -> list[_Holders]:
        named = {owner for owner, _ in self.setup.clauses} | {ASIDE}
        sets: dict[object, list[str]] = {}
        for owner in self.owners:
            if self.left[owner] <= 0:
                continue  # a full hand takes nothing more (and over-full cannot happen after propagation)
            key: object = owner if owner in named else (self.left[owner], frozenset(
                card for card in self.cards if owner in self.setup.allowed[card]))
            sets.setdefault(key, []).append(owner)
        holders, shift = [], 0
        for members in sets.values():
            top = max(self.left[owner] for owner in members)
            holders.append(_Holders(tuple(members), shift, top))
            shift += FIELD * (1 if len(members) == 1 else top)
        return holders

    def _groups(self) -> tuple[list[list[list[str]]], dict[str, int]]:
        """Each category's cards split into sets that are interchangeable.

        Two unsettled cards of a category that may go to the same places and
        are named by the same "one of" facts can swap places in any deal, so
        every triple holding either is equally likely. The triple pass tracks
        the set, not the card, and shares its count out evenly at the end.
        """
        groups: list[list[list[str]]] = [[], [], []]
        group_of: dict[str, int] = {}
        keys: dict[object, int] = {}
        for at, category in enumerate(self.deck):
            for card in category:
                if card not in self.setup.allowed:
                    continue
                key: object = (at, card) if card in self.setup.fixed else (
                    at, frozenset(self.setup.allowed[card]),
                    frozenset(j for j, (_, cards) in enumerate(self.setup.clauses) if card in cards))
                if key not in keys:
                    keys[key] = len(groups[at])
                    groups[at].append([])
                groups[at][keys[key]].append(card)
                group_of[card] = keys[key] + 1
        return groups, group_of

    def _moves(self, card: str) -> list[tuple[int, int, int, int]]:
        """Where the card may go: (index into ``places``, the fact bits it meets, field shift, top).

        The shift is -1 for the envelope; top is 0 for a lone player.
        """
        result = []
        for index, place in enumerate(self.places):
            if not isinstance(place, _Holders):
                if ENVELOPE in self.setup.allowed[card]:
                    result.append((index, 0, -1, 0))
            elif place.members[0] in self.setup.allowed[card]:
                owner = place.members[0]
                bits = sum(1 << j for j, (who, cards) in enumerate(self.setup.clauses) if who == owner and card in cards)
                result.append((index, bits << self.clause_shift, place.shift, 0 if place.single else place.top))
        return result

    def _closing(self, index: int) -> int:
        """The facts whose last card is this one: still unmet after it, the state is dead."""
        bits = 0
        for j, (_, cards) in enumerate(self.setup.clauses):
            if max(self.cards.index(card) for card in cards) == index:
                bits |= 1 << j
        return bits << self.clause_shift

    def _start(self, identity: bool) -> int:
        state = 0
        for holder in self.holders:
            for owner in holder.members:
                state += self.left[owner] << holder.shift if holder.single else \
                    1 << (holder.shift + FIELD * (self.left[owner] - 1))
        for at, category in enumerate(self.deck):
            for card in category:
                if self.setup.fixed.get(card) == ENVELOPE:
                    state |= (self.group_of[card] if identity else 1) << self.envelope_shift[at]
        return state | ((1 << len(self.setup.clauses)) - 1) << self.clause_shift

    def _forward(self, identity: bool, stop: int | None = None) -> list[dict[int, int]]:
        layers = [{self._start(identity): 1}]
        for index in range(len(self.cards) if stop is None else stop):
            layers.append(self._forward_step(index, layers[-1], identity))
        return layers

    def _steps(self, index: int, identity: bool) -> list[tuple[int, int, int, int, bool]]:
        """Card ``index``'s moves as state arithmetic: (place, bits kept, field checked, change, counted).

        The field checked is -1 for the envelope (its category's field must be
        empty; the change is OR-ed in); else it must be non-zero and the change
        is added. ``counted``: the field counts interchangeable players, each a
        way.
        """
        shift = self.envelope_shift[self.category[index]]
        result = []
        for place, met, field, top in self.moves[index]:
            if field < 0:
                mark = (self.group_of[self.cards[index]] if identity else 1) << shift
                result.append((place, ~met, -1, mark, False))
            elif not top:
                result.append((place, ~met, field, -(1 << field), False))
            else:
                for left in range(1, top + 1):
                    at = field + FIELD * (left - 1)
                    result.append((place, ~met, at, -(1 << at) + ((1 << (at - FIELD)) if left > 1 else 0), True))
        return result

    def _forward_step(self, index: int, layer: dict[int, int], identity: bool) -> dict[int, int]:
        """The states after card ``index`` and the ways to reach each (the hot loop: kept flat)."""
        shift = self.envelope_shift[self.category[index]]
        closing, last = self.closing[index], self.last[index]
        out: dict[int, int] = defaultdict(int)
        items = list(layer.items())
        for _, keep, at, change, counted in self._steps(index, identity):
            if at < 0:
                for state, count in items:
                    if not (state >> shift) & MASK:
                        after = (state | change) & keep
                        if not after & closing:
                            out[after] += count
                continue
            for state, count in items:
                players = (state >> at) & MASK
                if players:
                    after = (state + change) & keep
                    if after & closing or (last and not (after >> shift) & MASK):
                        continue
                    out[after] += count * players if counted else count
        return out

    def _backward_step(self, index: int, layer: dict[int, int], ways: dict[int, int]) -> tuple[dict[int, int], list[int]]:
        """Ways to finish from each state before card ``index``, and the deals putting it at each place.

        ``ways`` holds only states that can finish, so a dead state needs no check here.
        """
        shift = self.envelope_shift[self.category[index]]
        earlier: dict[int, int] = defaultdict(int)
        at_place = [0] * len(self.places)
        items = list(layer.items())
        for place, keep, at, change, counted in self._steps(index, identity=False):
            total = 0
            for state, count in items:
                if at < 0:
                    if (state >> shift) & MASK:
                        continue
                    finish = ways.get((state | change) & keep)
                elif (players := (state >> at) & MASK):
                    finish = ways.get((state + change) & keep)
                    if finish and counted:
                        finish *= players
                else:
                    continue
                if finish:
                    earlier[state] += finish
                    total += count * finish
            at_place[place] += total
        return dict(earlier), at_place

    def card_counts(self) -> tuple[int, dict[str, dict[str, int]]]:
        """How many deals fit (wrong accusations aside), and for each card how many put it at each place."""
        forward = self._forward(identity=False)
        ways = dict.fromkeys(forward[-1], 1)  # every state reached after the last card is a complete deal
        self.ways = [ways]  # kept (last layer first) for the triple pass
        found: dict[str, dict[str, int]] = {}
        for index in range(len(self.cards) - 1, -1, -1):
            ways, at = self._backward_step(index, forward[index], ways)
            found[self.cards[index]] = self._per_player(at)
            self.ways.append(ways)
        self.ways.reverse()
        self.forward = forward
        deals = sum(ways.values())
        for card, where in self.setup.fixed.items():
            found[card] = {where: deals}
        return deals, {card: found[card] for category in self.deck for card in category if card in found}

    def _per_player(self, at: list[int]) -> dict[str, int]:
        """Counts per holder shared out between its interchangeable players (evenly, by symmetry)."""
        result: dict[str, int] = {}
        for place, count in zip(self.places, at):
            if not isinstance(place, _Holders):
                result[ENVELOPE] = count
            else:
                for owner in place.members:
                    result[owner] = count // len(place.members)
        return result

    def triples(self) -> dict[Triple, int]:
        """How many deals put each triple in the envelope (call after :meth:`card_counts`).

        The last category's envelope card is not carried forward through the
        run of its cards that ends the order (the tail): the count runs forward,
        carrying the envelope cards placed so far, up to the tail, and backward
        over the tail with "how many ways, for each of its cards" packed into
        one integer (a slot per card set, wide enough for any count). The two
        meet where the tail starts. A head state whose last-category envelope
        card was placed early (a "one of" fact's card, taken first) finishes in
        any of the plain ways.
        """
        last = self.order[2]
        start = len(self.cards)
        while start > 0 and self.category[start - 1] == last:
            start -= 1
        shift = self.envelope_shift[last]
        if start == len(self.cards) or (self._start(False) >> shift) & MASK:
            return self._share(self._forward(identity=True)[-1].items())
        width = sum(self.ways[0].values()).bit_length() + 1
        tail = self._tail(start, shift, width)
        met: dict[int, int] = defaultdict(int)  # the head's state (its envelope fields) -> packed counts
        ends = []
        for state, count in self._forward(identity=True, stop=start)[-1].items():
            flags = state
            for at in range(3):
                if (state >> self.envelope_shift[at]) & MASK:
                    flags = flags & ~(MASK << self.envelope_shift[at]) | 1 << self.envelope_shift[at]
            if (state >> shift) & MASK:
                finish = self.ways[start].get(flags)
                if finish:
                    ends.append((self._envelope_fields(state), count * finish))
                continue
            packed = tail.get(flags)
            if packed:
                met[self._envelope_fields(state)] += count * packed
        for fields, packed in met.items():
            for slot in range(len(self.groups[last])):
                value = (packed >> (width * slot)) & ((1 << width) - 1)
                if value:
                    ends.append((fields | (slot + 1) << shift, value))
        return self._share(ends)

    def _envelope_fields(self, state: int) -> int:
        return sum(((state >> shift) & MASK) << shift for shift in self.envelope_shift)

    def _tail(self, start: int, shift: int, width: int) -> dict[int, int]:
        """From each state where the last category's run begins: ways to finish, per envelope card set, packed.

        A state whose last-category envelope card was placed earlier is left
        out: only the head knows which card that was.
        """
        after_layer: dict[int, int] = {}
        for index in range(len(self.cards) - 1, start - 1, -1):
            slot = width * (self.group_of[self.cards[index]] - 1)
            ways, layer = self.ways[index + 1], defaultdict[int, int](int)
            states = [state for state in self.forward[index] if not (state >> shift) & MASK]
            for _, keep, at, change, counted in self._steps(index, identity=False):
                for state in states:
                    if at < 0:  # this card goes to the envelope: its slot gets the plain ways to finish
                        finish = ways.get((state | change) & keep)
                        if finish:
                            layer[state] += finish << slot
                    elif (players := (state >> at) & MASK):
                        packed = after_layer.get((state + change) & keep)
                        if packed:
                            layer[state] += packed * players if counted else packed
            after_layer = dict(layer)
        return after_layer

    def _share(self, ends: Iterable[tuple[int, int]]) -> dict[Triple, int]:
        """Counts by envelope fields (card sets) shared out evenly between the triples of those sets."""
        result: dict[Triple, int] = {}
        for state, count in ends:
            sets = [self.groups[at][((state >> self.envelope_shift[at]) & MASK) - 1] for at in range(3)]
            share = count // (len(sets[0]) * len(sets[1]) * len(sets[2]))
            for triple in itertools.product(*sets):
                if triple not in self.setup.forbidden:
                    result[(triple[0], triple[1], triple[2])] = result.get((triple[0], triple[1], triple[2]), 0) + share
        return result


def _card_order(deck: Deck, order: list[int], setup: _Setup) -> list[str]:
    """The unsettled cards in the order the count takes them.

    Category by category (``order``: the triple pass meets in the middle where
    the last category's run begins), except that the cards of "one of" facts
    come first, smallest facts first. An unmet fact is a bit of state until
    its last card is placed, so a fact whose cards are spread over the whole
    order multiplies every layer; taking them first made a 10-player
    notebook's worst case 40 times faster (40 s to 1 s).
    """
    by_category = [card for at in order for card in deck[at] if card in setup.allowed and card not in setup.fixed]
    position = {card: at for at, card in enumerate(by_category)}
    first: list[str] = []
    for _, cards in sorted(setup.clauses, key=lambda clause: len(clause[1])):
        first.extend(card for card in sorted(cards & position.keys(), key=position.__getitem__) if card not in first)
    return first + [card for card in by_category if card not in first]
