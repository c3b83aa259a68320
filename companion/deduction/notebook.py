"""The detective's assistant: what one seat can deduce, exactly.

Every deal consistent with what the seat knows is counted, each as equally
likely (a shuffled deal makes every way of filling the envelope and the hands
equally likely, before anything is learnt). Nothing is sampled.

What a seat knows is a list of :class:`Fact` (its hand, cards shown to it, who
passed, who showed a card to someone else, wrong accusations, cards laid out).
The count runs as a dynamic programme over the marked cards: those whose place
is not yet certain and that some fact singles out, those of "one of" facts
first, then by category. The plain cards (any hand still taking cards may hold
them, and no fact names them) are dealt by a closed formula from each state the
programme ends in. Its state is what still matters about the cards not yet
placed: how many more cards each hand takes, whether the envelope has its card
of each category, and which "holds one of these" facts are still unmet. Two
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

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from .counting import Count
from .facts import ASIDE, ENVELOPE, Contradiction, Deck, Fact, Notebook, Triple
from .settling import Problem, Settled

__all__ = ["ASIDE", "ENVELOPE", "Contradiction", "Counter", "Deck", "Fact", "Notebook", "Triple", "deduce"]


class Counter(Protocol):
    """What counts the deals once the facts are settled: :class:`.counting.Count`, or the reference kept
    to hold it against (:class:`.reference_count.ReferenceCount`)."""

    def __init__(self, problem: Problem, setup: Settled) -> None: ...

    def card_counts(self) -> tuple[int, dict[str, dict[str, int]]]: ...

    def triples(self) -> dict[Triple, int]: ...


def deduce(deck: Deck, hand_sizes: Mapping[str, int], facts: Sequence[Fact], face_up: Iterable[str] = (),
           aside: int = 0, *, counter: type[Counter] = Count) -> Notebook:
    """Count every deal of ``deck`` that fits ``facts``; :class:`Contradiction` if none does.

    ``hand_sizes`` gives every player's hand size, in seat order; ``face_up``
    cards are in nobody's hand; ``aside`` cards lie face down in no hand.
    ``counter`` is for the benchmark and tests, which hold the count against
    the reference.
    """
    problem = Problem(deck, dict(hand_sizes), tuple(face_up), aside)
    notebook = _solve(problem, facts, counter)
    if notebook is None:
        raise Contradiction("these entries cannot all be true: {entries}",
                            entries=_responsible(problem, facts, counter))
    return notebook


def _responsible(problem: Problem, facts: Sequence[Fact], counter: type[Counter]) -> list[str]:
    """A smallest-by-deletion set of facts that cannot all be true."""
    kept = list(facts)
    for fact in list(facts):
        trial = [other for other in kept if other is not fact]
        if _solve(problem, trial, counter) is None:
            kept = trial
    return [fact.source for fact in kept]


def _solve(problem: Problem, facts: Sequence[Fact], counter_type: type[Counter]) -> Notebook | None:
    setup = Settled.build(problem, facts)
    if setup is None:
        return None
    counter = counter_type(problem, setup)
    deals, counts = counter.card_counts()
    for triple in setup.forbidden:
        # Envelopes are exclusive, so the deals a wrong accusation rules out can be counted and taken away.
        ruled_out = setup.narrowed(problem, [Fact.envelope(triple, "")])
        if ruled_out is not None:
            less, fewer = counter_type(problem, ruled_out).card_counts()
            deals -= less
            for card, at in fewer.items():
                for place, count in at.items():
                    counts[card][place] = counts[card].get(place, 0) - count
    if deals == 0:
        return None
    counts = {card: {place: count for place, count in at.items() if count} for card, at in counts.items()}
    return Notebook(deals, counts, counter.triples(), problem.owners + (ENVELOPE,))
