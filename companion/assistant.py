"""The detective's assistant in the product: what a seat view carries, and the post-game review.

The host picks a mode per game: ``off``, ``certain`` (only what is certain:
where a card is, where it is not, and whether the seat can accuse) or
``probabilities`` (everything the notebook knows). The assistant reads only the
seat's own redacted record, so it cannot tell a seat more than the seat could
work out itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Deck
from .deduction import Contradiction, Notebook
from .errors import BadInput
from .knowledge import Knowledge

MODES = ("off", "certain", "probabilities")


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise BadInput(f"assistant must be one of {', '.join(MODES)}, not {mode!r}")
    return mode


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
    """Each seat's knowledge, fed from its redacted record as the record grows."""

    deck: Deck
    fed: dict[str, int] = field(default_factory=dict)
    knows: dict[str, Knowledge] = field(default_factory=dict)

    def notebook(self, seat: str, record: Sequence[dict[str, Any]]) -> Notebook | None:
        """The seat's notebook after ``record`` (its own view of the log); None before the deal."""
        if self.fed.get(seat, 0) > len(record) or seat not in self.knows:
            self.knows[seat], self.fed[seat] = Knowledge(seat, self.deck), 0
        knows = self.knows[seat]
        for index in range(self.fed[seat], len(record)):
            knows.learn(record[index], f"event {index + 1}")
        self.fed[seat] = len(record)
        return knows.notebook() if knows.ready else None

    def view(self, seat: str, record: Sequence[dict[str, Any]], mode: str) -> dict[str, Any] | None:
        if mode == "off":
            return None
        try:
            notebook = self.notebook(seat, record)
        except Contradiction as err:  # cannot happen with a refereed record; say so rather than crash
            return {"mode": mode, "error": str(err)}
        return summary(notebook, mode) if notebook is not None else None


def review(deck: Deck, records: Mapping[str, Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """For each seat, the first moment its own record made the envelope certain.

    ``records`` maps each seat to the whole game's record as that seat saw it.
    The moment is given as the turn number and the event that settled it;
    the game-over event itself does not count.
    """
    result = []
    for seat, record in records.items():
        knows, turn, moment = Knowledge(seat, deck), 0, None
        for index, event in enumerate(record):
            if event.get("type") == "game_over":
                break
            turn += event.get("type") == "turn_started"
            before = len(knows.facts)
            knows.learn(event, f"event {index + 1}")
            if knows.ready and len(knows.facts) > before and knows.notebook().best_accusation[1] == 1:
                moment = {"turn": turn, "event": index + 1, "after": dict(event)}
                break
        result.append({"seat": seat, "could_accuse": moment})
    return result
