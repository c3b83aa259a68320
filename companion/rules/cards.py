"""Cards by category, and matching the names people type to the printed ones.

Names match case-insensitively and without accents; full stops and runs of
spaces are ignored too, and a card's title may be abbreviated, so "mrs white"
finds "Mrs. White", "Fraulein Ming" "Fräulein Ming", "Frau Weiss" "Frau Weiß"
and "Rev. Green" "Reverend Green". An edition may add aliases (a misprint on
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

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Self

from .errors import UnknownCard

Category = Literal["suspect", "weapon", "room"]
CATEGORIES: tuple[Category, ...] = ("suspect", "weapon", "room")


# Titles some boxes and score pads abbreviate: "Rev. Green", "Col. Mustard", "Sra. Blanco", "Mme Leblanc".
# A card whose name starts with the full title is also found by the abbreviation (typed words are not
# expanded, so the console's "rev" still starts "Revolver").
ABBREVIATIONS = {"reverend": ("rev", "revd"), "colonel": ("col",), "professor": ("prof",), "sergeant": ("sgt",),
                 "senora": ("sra",), "senorita": ("srta",), "madame": ("mme",), "mademoiselle": ("mlle",),
                 "fraulein": ("frl",), "doctor": ("dr",), "docteur": ("dr",)}


def normalise(name: str) -> str:
    """The key a name is matched by: casefolded ("ß" is "ss"), without accents or full stops, single spaces.

    >>> normalise("Fräulein  Ming"), normalise("Frau Weiß"), normalise("Rev. Green"), normalise("Señorita Amapola")
    ('fraulein ming', 'frau weiss', 'rev green', 'senorita amapola')
    """
    plain = unicodedata.normalize("NFKD", name.replace(".", " ").casefold())
    return " ".join("".join(char for char in plain if not unicodedata.combining(char)).split())


def abbreviated(key: str) -> tuple[str, ...]:
    """Other keys for a normalised name whose first word is a title: "reverend green" -> ("rev green", ...)."""
    first, _, rest = key.partition(" ")
    return tuple(f"{short} {rest}" for short in ABBREVIATIONS.get(first, ())) if rest else ()


class CardList(str):
    """Cards named in a refusal ("valid: ..."): the English list, and the cards, for a reader to spell them.

    >>> valid = CardList(("Mr. Green", "Rope"))
    >>> str(valid), valid.spelled({"Mr. Green": "Direktor Grün"})
    ('Mr. Green, Rope', 'Direktor Grün, Rope')
    """

    cards: tuple[str, ...]

    def __new__(cls, cards: Iterable[str]) -> Self:
        listed = tuple(cards)
        made = super().__new__(cls, ", ".join(listed))
        made.cards = listed
        return made

    def spelled(self, names: Mapping[str, str]) -> str:
        """The list with each card as ``names`` spells it."""
        return ", ".join(names.get(card, card) for card in self.cards)


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
        for key, found in list(index.items()):
            for short in abbreviated(key):
                index.setdefault(short, found)
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
            raise _unknown(name, category, CardList(self.of(category) if category else self.all))
        return found[0]

    def category_of(self, name: str) -> Category:
        """The category of a card (any spelling :meth:`resolve` accepts)."""
        found = self._index.get(normalise(name))
        if found is None:
            raise _unknown(name, None, CardList(self.all))
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
