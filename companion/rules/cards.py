"""Cards by category, and matching the names people type to the printed ones.

Names match case-insensitively; full stops and runs of spaces are ignored too,
so "mrs white" finds "Mrs. White". An edition may add aliases (a misprint on
a score pad, say), and every locale's name of a card is one too ("Reverend
Green" is Classic's "Mr. Green"), so a record written in any locale's names
means the same cards.

>>> deck = Deck(("Miss Scarlet", "Mrs. White"), ("Rope",), ("Hall",))
>>> deck.resolve("mrs  WHITE", "suspect")
'Mrs. White'
>>> deck.category_of("rope")
'weapon'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from .errors import UnknownCard

Category = Literal["suspect", "weapon", "room"]
CATEGORIES: tuple[Category, ...] = ("suspect", "weapon", "room")


def normalise(name: str) -> str:
    """The key a name is matched by: casefolded, no full stops, single spaces."""
    return " ".join(name.replace(".", " ").casefold().split())


@dataclass(frozen=True, eq=False)
class Deck:
    """The three categories of an edition's cards, in printed order."""

    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    _index: dict[str, tuple[str, Category]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, tuple[str, Category]] = {}
        for category, names in zip(CATEGORIES, (self.suspects, self.weapons, self.rooms)):
            for name in names:
                index[normalise(name)] = (name, category)
        for alias, target in self.aliases.items():
            index[normalise(alias)] = index[normalise(target)]
        object.__setattr__(self, "_index", index)

    @property
    def all(self) -> tuple[str, ...]:
        """Every card, suspects then weapons then rooms."""
        return self.suspects + self.weapons + self.rooms

    def of(self, category: Category) -> tuple[str, ...]:
        """The cards of one category."""
        return {"suspect": self.suspects, "weapon": self.weapons, "room": self.rooms}[category]

    def resolve(self, name: object, category: Category | None = None) -> str:
        """The printed name for ``name``; :class:`UnknownCard` lists the valid ones."""
        found = self._index.get(normalise(name)) if isinstance(name, str) else None
        if found is None or (category is not None and found[1] != category):
            raise _unknown(name, category, ", ".join(self.of(category) if category else self.all))
        return found[0]

    def category_of(self, name: str) -> Category:
        """The category of a card (any spelling :meth:`resolve` accepts)."""
        found = self._index.get(normalise(name))
        if found is None:
            raise _unknown(name, None, ", ".join(self.all))
        return found[1]

    def resolve_all(self, names: Iterable[object]) -> tuple[str, ...]:
        """Resolve several names, keeping their order."""
        return tuple(self.resolve(name) for name in names)


def _unknown(name: object, category: Category | None, valid: str) -> UnknownCard:
    """The error for a name no card has; one literal message per category, so each can be translated."""
    if category == "suspect":
        return UnknownCard("unknown suspect {name!r}; valid: {valid}", name=name, valid=valid)
    if category == "weapon":
        return UnknownCard("unknown weapon {name!r}; valid: {valid}", name=name, valid=valid)
    if category == "room":
        return UnknownCard("unknown room {name!r}; valid: {valid}", name=name, valid=valid)
    return UnknownCard("unknown card {name!r}; valid: {valid}", name=name, valid=valid)
