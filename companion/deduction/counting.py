"""The count: a dynamic programme over the marked cards; the plain ones are dealt by formula.

A card is *marked* when a fact singles it out: some hand that still takes cards
may not hold it, or a "one of" fact names it. Only the marked cards go through
the programme. The plain cards (:mod:`.plain_cards`) are interchangeable and
fit anywhere, so the ways to deal them from any state the programme ends in
are a closed formula, and those ways are the backward pass's starting values.

Forward (ways to reach a state) and backward (ways to finish from it) passes
over the marked cards give every marked card's count at every place; the
plain cards' counts come from the last layer by formula; a second backward
pass, with a packed integer per state (a slot per envelope), counts envelope
triples.

Why this is fast: the programme's live states are the combinations of cards
each distinct hand still takes and of open facts; at a 10-player table there
were up to 19,601 of them in a layer, over up to 27 layers (one per unsettled
card), three passes. With the plain cards left out there are as many layers as
marked cards (a handful early in a game, at most 16 in the benchmark's games),
and far fewer states in each: few cards reach few combinations (at most 1,416
in the benchmark's 10-player games).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .facts import ASIDE, ENVELOPE, Deck, Triple
from .plain_cards import PlainCards
from .settling import Problem, Settled

FIELD = 5  # bits per counter in a packed count state: up to 31 cards in a hand
MASK = (1 << FIELD) - 1
ENVELOPE_MASK = (1 << (3 * FIELD)) - 1  # the three envelope fields, from the first


@dataclass(frozen=True)
class _Holders:
    """Players who still take cards, as the count sees them.

    Players that still take as many cards, may take exactly the same marked
    cards and are named by no "one of" fact are interchangeable: any deal
    stays a fitting deal when their hands are swapped. The count then tracks
    them together, as how many of them still take 1, 2, ... cards, and shares
    what it finds evenly between them.
    """

    members: tuple[str, ...]
    shift: int  # the first field of this holder in a packed state
    top: int  # the most cards a member still takes (fields: how many members take 1..top)

    @property
    def single(self) -> bool:
        return len(self.members) == 1

    @property
    def mask(self) -> int:
        """This holder's fields, from ``shift``."""
        return (1 << (FIELD * (1 if self.single else self.top))) - 1


class Count:
    """The count over the marked cards, with each state packed into one int.

    A state holds what still matters about the cards not yet placed. Its fields,
    from the lowest bits: for each lone player, how many more cards it takes;
    for each set of interchangeable players, how many of them still take 1, 2,
    ... cards (FIELD bits each); for each category, whether the envelope has
    its card yet (1) or not (0); then one bit per unmet "one of" fact. A step
    that may go to any of n interchangeable players in the same position counts
    n times.
    """

    def __init__(self, problem: Problem, setup: Settled) -> None:
        self.setup, self.deck, self.owners = setup, problem.deck, problem.owners
        self.left = {owner: setup.capacity[owner] - sum(1 for place in setup.fixed.values() if place == owner)
                     for owner in self.owners}
        category_of = {card: at for at, category in enumerate(self.deck) for card in category}
        plain = _plain_cards(self.deck, setup, self.left)
        self.plain = _plain_count(self.deck, setup, plain)
        self.plain_of = {category_of[card]: card for card in plain}  # one plain card per category, for its counts
        self.cards = _card_order([[card for card in category if card in setup.allowed and card not in setup.fixed
                                   and card not in plain] for category in self.deck], setup.clauses)
        self.category = [category_of[card] for card in self.cards]
        self.holders = self._holders()
        fields = sum(1 if holder.single else holder.top for holder in self.holders)
        self.envelope_shift = [FIELD * (fields + at) for at in range(3)]
        self.clause_shift = FIELD * (fields + 3)
        self.places: list[_Holders | str] = [*self.holders, ENVELOPE]
        self.moves = [self._moves(card) for card in self.cards]
        self.closing = [self._closing(index) for index in range(len(self.cards))]
        # A category's envelope card must be among its marked cards when it has no plain candidate.
        self.last = [not self.plain.candidates[at] and index == max(i for i, c in enumerate(self.category) if c == at)
                     for index, at in enumerate(self.category)]
        self.groups, self.group_of = self._groups()
        self.hands_mask = (1 << self.envelope_shift[0]) - 1  # the holders' fields of a state
        self.hands_seen: dict[int, tuple[int, list[int]]] = {}
        self.parts_seen: list[dict[int, tuple[int, int]]] = [{} for _ in self.holders]
        self.missing_seen: dict[int, tuple[int, ...]] = {}

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
        the set, not the card, and shares its count out evenly at the end. A
        category's plain cards are one such set.
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

    def _start(self) -> int:
        state = 0
        for holder in self.holders:
            for owner in holder.members:
                state += self.left[owner] << holder.shift if holder.single else \
                    1 << (holder.shift + FIELD * (self.left[owner] - 1))
        for at, category in enumerate(self.deck):
            for card in category:
                if self.setup.fixed.get(card) == ENVELOPE:
                    state |= 1 << self.envelope_shift[at]
        return state | ((1 << len(self.setup.clauses)) - 1) << self.clause_shift

    def _forward(self) -> list[dict[int, int]]:
        layers = [{self._start(): 1}]
        for index in range(len(self.cards)):
            layers.append(self._forward_step(index, layers[-1]))
        return layers

    def _steps(self, index: int) -> list[tuple[int, int, int, int, bool]]:
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
                result.append((place, ~met, -1, 1 << shift, False))
            elif not top:
                result.append((place, ~met, field, -(1 << field), False))
            else:
                for left in range(1, top + 1):
                    at = field + FIELD * (left - 1)
                    result.append((place, ~met, at, -(1 << at) + ((1 << (at - FIELD)) if left > 1 else 0), True))
        return result

    def _forward_step(self, index: int, layer: dict[int, int]) -> dict[int, int]:
        """The states after card ``index`` and the ways to reach each (the hot loop: kept flat)."""
        shift = self.envelope_shift[self.category[index]]
        closing, last = self.closing[index], self.last[index]
        out: dict[int, int] = defaultdict(int)
        items = list(layer.items())
        for _, keep, at, change, counted in self._steps(index):
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
        for place, keep, at, change, counted in self._steps(index):
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

    def _missing(self, state: int) -> tuple[int, ...]:
        """The categories whose envelope card is not among the marked cards placed so far."""
        key = (state >> self.envelope_shift[0]) & ENVELOPE_MASK
        found = self.missing_seen.get(key)
        if found is None:
            found = self.missing_seen[key] = tuple(at for at in range(3) if not (key >> (FIELD * at)) & MASK)
        return found

    def _needs(self, holder: _Holders, state: int) -> list[int]:
        """How many cards each of a holder's members still takes (members taking none left out)."""
        if holder.single:
            return [(state >> holder.shift) & MASK]
        return [left for left in range(1, holder.top + 1)
                for _ in range((state >> (holder.shift + FIELD * (left - 1))) & MASK)]

    def _hands(self, state: int) -> tuple[int, list[int]]:
        """Ways to deal the plain cards left to the hands (:meth:`PlainCards.hands`), and the cards each holder
        still takes.

        The multinomial's denominator is built holder by holder, each holder's
        part worked out once per value of its fields, and the whole once per
        combination of the hands' fields (the states the programme ends in
        share them: they differ in the envelope, and in few fields each).
        """
        key = state & self.hands_mask
        found = self.hands_seen.get(key)
        if found is None:
            denominator, takes = 1, []
            for holder, seen in zip(self.holders, self.parts_seen):
                part = seen.get(bits := (key >> holder.shift) & holder.mask)
                if part is None:
                    needs = self._needs(holder, key)
                    part = seen[bits] = (math.prod(math.factorial(need) for need in needs), sum(needs))
                denominator *= part[0]
                takes.append(part[1])
            found = self.hands_seen[key] = (math.factorial(sum(takes)) // denominator, takes)
        return found

    def _deal_plain(self, state: int) -> int:
        """Ways to deal the plain cards once the marked ones are placed as ``state`` says."""
        choices = self.plain.choices(self._missing(state))
        return choices * self._hands(state)[0] if choices else 0

    def card_counts(self) -> tuple[int, dict[str, dict[str, int]]]:
        """How many deals fit (wrong accusations aside), and for each card how many put it at each place."""
        forward = self._forward()
        ways = {state: finish for state in forward[-1] if (finish := self._deal_plain(state))}
        self.ways = [ways]  # kept (last layer first) for the triple pass
        found: dict[str, dict[str, int]] = self._plain_counts(forward[-1])
        for index in range(len(self.cards) - 1, -1, -1):
            ways, at = self._backward_step(index, forward[index], ways)
            found[self.cards[index]] = self._per_player(at)
            self.ways.append(ways)
        self.ways.reverse()
        deals = sum(ways.values())
        for card, where in self.setup.fixed.items():
            found[card] = {where: deals}
        return deals, {card: found[card] for category in self.deck for card in category if card in found}

    def _plain_counts(self, layer: dict[int, int]) -> dict[str, dict[str, int]]:
        """Each plain card's deals at each place, by formula from the states the programme ends in.

        The states are summed by the envelope categories they miss (the
        formula depends on the state only through that and the weights), and
        the plain cards of a category, being interchangeable, share one result.
        """
        sums: dict[tuple[int, ...], list[int]] = {}  # missing -> [weight per holder..., weight]
        for state, count in layer.items():
            hands, takes = self._hands(state)
            weight = count * hands
            row = sums.setdefault(self._missing(state), [0] * (len(self.holders) + 1))
            row[-1] += weight
            for index, cards in enumerate(takes):
                row[index] += weight * cards
        found: dict[str, dict[str, int]] = {}
        for at, sample in self.plain_of.items():
            at_place = [0] * len(self.places)
            for missing, row in sums.items():
                envelope, held = self.plain.one_card(at, missing, row[-1], row[:-1])
                at_place[-1] += envelope
                for index, count in enumerate(held):
                    at_place[index] += count
            where = self._per_player(at_place)
            for card in self.groups[at][self.group_of[sample] - 1]:
                found[card] = dict(where)
        return found

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

        A third pass, backward like the second over the states that can
        finish, carries for each state not one number but one per envelope
        (a card set of each category, or none yet), packed side by side into
        one integer: slot ``g0 + n0 * (g1 + n1 * g2)``, each slot wide enough
        for the number of deals. The programme's moves do not depend on which
        card is in the envelope, only on whether its category has one, so
        every move acts on all slots at once: a card going to the envelope
        shifts the whole integer to its set's slots, a card going to a hand
        adds or multiplies it. The states stay those of the plain count; only
        the numbers grow. (Carrying the envelope's cards in the states instead
        multiplied them several times over.)
        """
        # Slots only for the card sets that may be in the envelope, numbered from 1 (0: none yet).
        candidates = [[number for number, cards in enumerate(groups, start=1)
                       if ENVELOPE in self.setup.allowed[cards[0]]] for groups in self.groups]
        slot_of = {(at, number): slot for at in range(3) for slot, number in enumerate(candidates[at], start=1)}
        sizes = [len(numbers) + 1 for numbers in candidates]
        width = -(-(sum(self.ways[0].values()).bit_length() + 1) // 8) * 8  # whole bytes, for reading it out
        step = [width, width * sizes[0], width * sizes[0] * sizes[1]]  # bits from one slot of a category to the next

        def offset(at: int, card: str) -> int:  # 0 for a card that cannot be in the envelope (never shifted)
            return step[at] * slot_of.get((at, self.group_of[card]), 0)

        after = {state: ways << sum(offset(at, self.plain_of[at]) for at in self._missing(state))
                 for state, ways in self.ways[-1].items()}
        for index in range(len(self.cards) - 1, -1, -1):
            after = self._packed_step(index, after, offset(self.category[index], self.cards[index]))
        packed = after.get(self._start(), 0)
        for at, category in enumerate(self.deck):  # an envelope card known from the start
            packed <<= sum(offset(at, card) for card in category if self.setup.fixed.get(card) == ENVELOPE)
        return self._share(packed, width, [[0, *numbers] for numbers in candidates])

    def _packed_step(self, index: int, after: dict[int, int], into: int) -> dict[int, int]:
        """The packed ways to finish from each state before card ``index`` (``into``: the shift to its slot)."""
        shift = self.envelope_shift[self.category[index]]
        earlier: dict[int, int] = defaultdict(int)
        states = list(self.ways[index])
        for _, keep, at, change, counted in self._steps(index):
            for state in states:
                if at < 0:
                    if not (state >> shift) & MASK and (packed := after.get((state | change) & keep)):
                        earlier[state] += packed << into
                elif (players := (state >> at) & MASK) and (packed := after.get((state + change) & keep)):
                    earlier[state] += packed * players if counted else packed
        return earlier

    def _share(self, packed: int, width: int, numbers: list[list[int]]) -> dict[Triple, int]:
        """The packed counts read out by slot, each shared evenly between the triples of its card sets.

        ``numbers`` gives each category's card set for each slot number.
        """
        result: dict[Triple, int] = {}
        data = packed.to_bytes(-(-packed.bit_length() // 8), "little")
        size, sizes = width // 8, [len(at) for at in numbers]
        for slot in range(len(data) // size + 1):
            count = int.from_bytes(data[slot * size:(slot + 1) * size], "little")
            if not count:
                continue
            first, second, third = slot % sizes[0], slot // sizes[0] % sizes[1], slot // (sizes[0] * sizes[1])
            sets = (self.groups[0][numbers[0][first] - 1], self.groups[1][numbers[1][second] - 1],
                    self.groups[2][numbers[2][third] - 1])
            share = count // (len(sets[0]) * len(sets[1]) * len(sets[2]))
            for triple in itertools.product(*sets):
                if triple not in self.setup.forbidden:
                    result[triple] = result.get(triple, 0) + share
        return result


def _envelope_open(category: tuple[str, ...], setup: Settled) -> bool:
    return not any(setup.fixed.get(card) == ENVELOPE for card in category)


def _plain_cards(deck: Deck, setup: Settled, left: dict[str, int]) -> set[str]:
    """The unsettled cards that any hand still taking cards may hold, the envelope too while its card is unknown,
    and that no "one of" fact names."""
    hands = {owner for owner, room in left.items() if room > 0}
    named = {card for _, cards in setup.clauses for card in cards}
    plain: set[str] = set()
    for category in deck:
        everywhere = hands | ({ENVELOPE} if _envelope_open(category, setup) else set())
        plain.update(card for card in category if card in setup.allowed and card not in setup.fixed
                     and card not in named and setup.allowed[card] == everywhere)
    return plain


def _plain_count(deck: Deck, setup: Settled, plain: set[str]) -> PlainCards:
    """How many plain cards, and how many of each category may be the envelope's (none once its card is known)."""
    first, second, third = (sum(1 for card in category if card in plain) if _envelope_open(category, setup) else 0
                            for category in deck)
    return PlainCards((first, second, third), len(plain))


def _card_order(marked: list[list[str]], clauses: list[tuple[str, frozenset[str]]]) -> list[str]:
    """The marked cards in the order the count takes them.

    Category by category (``marked``, in the order the triple pass wants),
    except that the cards of "one of" facts come first, smallest facts first.
    An unmet fact is a bit of state until its last card is placed, so a fact
    whose cards are spread over the whole order multiplies every layer; taking
    them first made a 10-player notebook's worst case 40 times faster (40 s
    to 1 s).
    """
    by_category = [card for category in marked for card in category]
    position = {card: at for at, card in enumerate(by_category)}
    first: list[str] = []
    for _, cards in sorted(clauses, key=lambda clause: len(clause[1])):
        first.extend(card for card in sorted(cards & position.keys(), key=position.__getitem__) if card not in first)
    return first + [card for card in by_category if card not in first]
