"""The table's own choices around the game: its locale, its box of names, its house names, spoken announcements.

The locale (``en-GB``...), the box of names (``names_variant``: "1990s" for
the German box from the 1990s on, None for the locale's own names;
:mod:`companion.language.boxes`) and the house names are kept in the store,
so they outlive a restart; speech is chosen per game (off when a game opens, unless
the new game asks for it). House names are keyed by card identity (the
edition's printed US name), so a record never depends on them.

>>> house = House()
>>> house = house.changed(locale="de", house_names={"Mr. Green": "Onkel Fritz"}, cards=("Mr. Green",))
>>> house.locale, house.house_names
('de-DE', {'Mr. Green': 'Onkel Fritz'})
>>> house.changed(names_variant="1990s").names_variant, house.changed(names_variant="").names_variant
('1990s', None)
>>> house.changed(house_names={"Mr. Blue": "x"}, cards=("Mr. Green",))
Traceback (most recent call last):
...
companion.rules.errors.BadInput: no card 'Mr. Blue' to name
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.language import DEFAULT, parse_locale
from companion.rules.errors import BadInput

SETTING = "house"
MAX_NAME = 40  # characters: a house name is printed on a 128-px handheld line
_LEAVE = object()  # changed(): a names_variant not given is left as it is (None clears it)


@dataclass(frozen=True)
class House:
    """Locale tag, house names (identity -> name), the box of names and whether announcements are spoken.

    ``names_variant`` is a box's suffix as :func:`~companion.language.boxes.resolve_variant` gives it; the
    table checks it against the edition and locale, the house only that it is short text.
    """

    locale: str = DEFAULT
    house_names: Mapping[str, str] = field(default_factory=dict)
    speech: bool = False
    names_variant: str | None = None

    def changed(self, *, locale: object = None, house_names: object = None, speech: object = None,
                names_variant: object = _LEAVE, cards: Iterable[str] = ()) -> House:
        """A copy with the given fields changed, each checked (:class:`BadInput` says what is wrong).

        None leaves a field as it is, except ``names_variant``: None or "" there puts the locale's own names back.
        """
        changes: dict[str, Any] = {}
        if locale is not None:
            changes["locale"] = parse_locale(locale).tag
        if names_variant is not _LEAVE:
            changes["names_variant"] = _variant(names_variant)
        if house_names is not None:
            changes["house_names"] = _names(house_names, set(cards))
        if speech is not None:
            if not isinstance(speech, bool):
                raise BadInput("speech must be true or false")
            changes["speech"] = speech
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {"locale": self.locale, "house_names": dict(self.house_names), "speech": self.speech,
                "names_variant": self.names_variant}

    def stored(self) -> str:
        """The setting's text (speech is per game: not kept)."""
        return json.dumps({"locale": self.locale, "house_names": dict(self.house_names),
                           "names_variant": self.names_variant}, sort_keys=True)

    @classmethod
    def from_setting(cls, text: str | None) -> House:
        """The stored choices; a damaged or outdated setting gives the defaults rather than an error."""
        try:
            data = json.loads(text or "{}")
            locale = parse_locale(data.get("locale", DEFAULT)).tag
            names = {str(k): str(v) for k, v in dict(data.get("house_names") or {}).items()}
        except (ValueError, TypeError, AttributeError):
            return cls()
        try:  # a damaged box alone is dropped: the locale and house names stay
            variant = _variant(data.get("names_variant"))
        except BadInput:
            variant = None
        return cls(locale=locale, house_names=names, names_variant=variant)


def _variant(given: object) -> str | None:
    """A box's suffix, stripped; None or "" for the locale's own names."""
    if given is None:
        return None
    if not isinstance(given, str):
        raise BadInput("names_variant must be text: a box of names such as 1990s")
    text = given.strip()
    if len(text) > MAX_NAME:
        raise BadInput("names_variant is longer than {most} characters", most=MAX_NAME)
    return text or None


def _names(given: object, cards: set[str]) -> dict[str, str]:
    if not isinstance(given, Mapping):
        raise BadInput("house_names must be an object: card -> name")
    names: dict[str, str] = {}
    for card, name in given.items():
        if not isinstance(card, str) or card not in cards:
            raise BadInput("no card {card!r} to name", card=card)
        if not isinstance(name, str):
            raise BadInput("the house name of {card!r} must be text", card=card)
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise BadInput("the house name of {card!r} is longer than {most} characters", card=card, most=MAX_NAME)
        if name and name != card:  # an empty name (or the card's own) puts the locale's spelling back
            names[card] = name
    return names
