"""The detective's assistant in the product: what a seat view carries, and the post-game review.

The host picks a mode per game: ``off``, ``certain`` (only what is certain:
where a card is, where it is not, and whether the seat can accuse) or
``probabilities`` (everything the notebook knows). The assistant reads only the
seat's own redacted record, so it cannot tell a seat more than the seat could
work out itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from companion.rules.cards import Deck
from companion.rules.errors import BadInput

from .knowledge import Knowledge
from .notebook import Contradiction, Notebook, deduce

MODES = ("off", "certain", "probabilities")


ALIASES = {"none": "off", "no": "off", "certain facts": "certain", "certain facts only": "certain", "facts": "certain",
           "probability": "probabilities", "with probabilities": "probabilities", "full": "probabilities"}


def check_mode(mode: str) -> str:
    """The assistant mode meant (the issue's own words, any case, - or _ for spaces, are accepted)."""
    plain = mode.strip().lower().replace("_", " ").replace("-", " ")
    if plain in MODES or plain in ALIASES:
        return ALIASES.get(plain, plain)
    raise BadInput("assistant must be one of {modes}, not {mode!r}", modes=", ".join(MODES), mode=mode)


def summary(notebook: Notebook, mode: str) -> dict[str, Any]:
    """The notebook as a seat view carries it in ``mode`` (``certain`` or ``probabilities``)."""
    full = notebook.to_dict()
    best, chance = notebook.best_accusation
    result: dict[str, Any] = {
        "mode": mode,
        "certain": full["certain"],
        "impossible": full["impossible"],
        "can_accuse": full["can_accuse"],
        "accusation": list(best) if chance == 1 else None,
    }
    if mode == "probabilities":
        result.update(places=full["places"], cards=full["cards"], best_accusation=full["best_accusation"],
                      accuse_chance=full["accuse_chance"],
                      envelope=dict(list(full["envelope"].items())[:10]))  # the ten likeliest triples
    return result


@dataclass
class Assistants:
    """Each seat's knowledge, fed from its redacted record as the record grows.

    Given ``wake`` (which makes the session publish again), every notebook is
    worked out on a helper thread, and the seat's view carries the last one with
    ``"pending": true`` until the new one is ready: a Classic notebook takes
    milliseconds, but a 10-player Master Detective one up to a second, and no
    size of problem says in advance which it will be, so the table never waits
    for one. Without ``wake`` (a replay, a test) it is worked out when the view is made.
    """

    deck: Deck
    wake: Callable[[], None] | None = None
    fed: dict[str, int] = field(default_factory=dict)
    knows: dict[str, Knowledge] = field(default_factory=dict)
    done: dict[str, tuple[int, Notebook | Contradiction]] = field(default_factory=dict)  # seat -> (facts, result)
    queued: set[tuple[str, int]] = field(default_factory=set)
    latest: dict[str, int] = field(default_factory=dict)  # seat -> the newest facts count queued
    shown: dict[str, tuple[object, str, dict[str, Any]]] = field(default_factory=dict)  # seat -> (result, mode, summary)
    lock: threading.Lock = field(default_factory=threading.Lock)
    pool: ThreadPoolExecutor | None = None

    def knowledge(self, seat: str, record: Sequence[dict[str, Any]]) -> Knowledge:
        """The seat's knowledge after ``record`` (its own view of the log)."""
        if self.fed.get(seat, 0) > len(record) or seat not in self.knows:
            self.knows[seat], self.fed[seat] = Knowledge(seat, self.deck), 0
        knows = self.knows[seat]
        for index in range(self.fed[seat], len(record)):
            knows.learn(record[index], f"event {index + 1}")
        self.fed[seat] = len(record)
        return knows

    def view(self, seat: str, record: Sequence[dict[str, Any]], mode: str) -> dict[str, Any] | None:
        if mode == "off":
            return None
        knows = self.knowledge(seat, record)
        if not knows.ready:
            return None
        key = len(knows.facts)
        with self.lock:
            done = self.done.get(seat)
        if done is not None and done[0] == key:
            return self._summary(seat, done[1], mode)
        if self.wake is None:
            return self._summary(seat, self._work(seat, key, knows.problem()), mode)
        self._queue(seat, key, knows.problem())
        return {**(self._summary(seat, done[1], mode) if done else {"mode": mode}), "pending": True}

    def _summary(self, seat: str, result: Notebook | Contradiction, mode: str) -> dict[str, Any]:
        """The notebook as the view carries it, made once per result: every change makes every seat's view again."""
        made = self.shown.get(seat)
        if made is None or made[0] is not result or made[1] != mode:
            made = self.shown[seat] = (result, mode, _shown(result, mode))
        return made[2]

    def _work(self, seat: str, key: int, problem: tuple[Any, ...]) -> Notebook | Contradiction:
        try:
            result: Notebook | Contradiction = deduce(*problem)
        except Contradiction as err:  # cannot happen with a refereed record; say so rather than crash
            result = err
        with self.lock:
            if seat not in self.done or self.done[seat][0] <= key:
                self.done[seat] = (key, result)
        return result

    def _queue(self, seat: str, key: int, problem: tuple[Any, ...]) -> None:
        with self.lock:
            if (seat, key) in self.queued:
                return
            self.queued.add((seat, key))
            self.latest[seat] = max(key, self.latest.get(seat, 0))
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clue-assistant")
        wake = self.wake

        def job() -> None:
            with self.lock:
                stale = self.latest.get(seat, key) > key
            if stale:
                return  # the seat has learnt more since: only its newest notebook is worth the time
            self._work(seat, key, problem)
            if wake is not None:
                wake()

        self.pool.submit(job)


def _shown(result: Notebook | Contradiction, mode: str) -> dict[str, Any]:
    if isinstance(result, Contradiction):
        return {"mode": mode, "error": str(result)}
    return summary(result, mode)


def review(deck: Deck, records: Mapping[str, Sequence[dict[str, Any]]],
           public: Sequence[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """For each seat, the first moment its own record made the envelope certain.

    ``records`` maps each seat to the whole game's record as that seat saw it.
    The moment is given as the turn number and the event that settled it;
    the winning accusation and the game-over event, which show everyone the
    solution, do not count. Certainty only grows as facts
    are added, so the moment is found by bisection: a handful of notebooks
    per seat, not one per event. The review is shown to everyone, so the
    event is given as ``public`` (the record as the table sees it, event for
    event) has it when given: a card shown to the seat stays private.
    """
    return [{"seat": seat, "could_accuse": _first_certain(deck, seat, record, public or record)}
            for seat, record in records.items()]


def _first_certain(deck: Deck, seat: str, record: Sequence[dict[str, Any]],
                   shown: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    knows, steps, turn = Knowledge(seat, deck), [], 0  # steps: (facts so far, event index, turn) per new fact
    for index, event in enumerate(record):
        if event.get("type") == "game_over" or (event.get("type") == "accused" and event.get("correct")):
            break  # the solution is out: nobody "could have" accused from here
        turn += event.get("type") == "turn_started"
        before = len(knows.facts)
        knows.learn(event, f"event {index + 1}")
        if knows.ready and len(knows.facts) > before:
            steps.append((len(knows.facts), index, turn))

    def certain(step: int) -> bool:
        problem = knows.problem(steps[step][0])
        try:
            return deduce(*problem).best_accusation[1] == 1
        except Contradiction:
            return False

    if not steps or not certain(len(steps) - 1):
        return None
    low, high = 0, len(steps) - 1  # the first certain step is in [low, high]
    while low < high:
        middle = (low + high) // 2
        if certain(middle):
            high = middle
        else:
            low = middle + 1
    _, index, turn = steps[low]
    return {"turn": turn, "event": index + 1, "after": dict(shown[index])}
