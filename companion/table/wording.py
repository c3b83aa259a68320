"""Wording: the table's words in the table's language, with its cards spelled as the table spells them.

The handhelds, the shared screen's notices and the board corrections are read
by everyone at the table, so they use the *table's* locale
(``Table.house.locale``), not a reader's. A :class:`Wording` is that choice
made small: ``say(template, **args)`` translates an English message (area
``handheld``) and fills it, spelling every argument that is a card identity;
``name(identity)`` spells one card. In another language than English each
spelled argument is a :class:`~companion.language.grammar.Name`, so a
translation can write ``{piece:the}``, ``{seat:de}`` or
``{seat:éliminé|éliminée}`` (docs/languages.md, "How sentences take
names"). Handheld screens make theirs from the view
they draw (:meth:`Wording.for_view`), so a screen is worded when it is drawn.

A message kept for later is a :class:`Words`: the English template and its
arguments. Notices and corrections carry theirs in the views, so a phone set
to another language can word them again::

    "notice": {"text": "Stelle Oberst von Gatow zurück ...", "code": "put_back", "id": 7,
               "template": "Put {piece} back on {square}", "args": {"piece": "Colonel Mustard", "square": "a18"}}
    "board": {"corrections": ["<the table's language>", ...],
              "correction_parts": [{"template": "...", "args": {...}}, ...], ...}

``text``/``corrections`` are in the table's language (English byte for byte
on an English table). An argument is a string or number (a card's identity is
spelled by the reader), a nested ``{"template", "args"}`` message, or a list
of such messages, said one after the other with a space between.

>>> english = Wording()
>>> english.say("Put {piece} back on {square}", piece="Mr. Green", square="a18")
'Put Mr. Green back on a18'
>>> german = Wording("de", {"Mr. Green": "Onkel Fritz"})
>>> german.name("Mr. Green"), german.name("Rope")
('Onkel Fritz', 'Rope')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.language import N_, parse_locale, say
from companion.language.grammar import name as grammatical
from companion.rules.cards import CardList
from companion.rules.errors import ClueError
from companion.rules.spelling import spelled

Arg = Any  # str | int | float | Words | tuple[Words, ...]


@dataclass(frozen=True)
class Words:
    """An English message and its arguments, to be worded in whatever language reads it."""

    template: str
    args: Mapping[str, Arg] = field(default_factory=dict)

    def __str__(self) -> str:
        """The English sentence (so a message can be an argument of an error's English template)."""
        return Wording().say(self)

    def as_dict(self) -> dict[str, Any]:
        """``{"template", "args"}`` with JSON-safe arguments (nested messages as such objects)."""
        return {"template": self.template, "args": {key: _plain(value) for key, value in self.args.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Words:
        """Back from :meth:`as_dict` (nested messages and lists of them too)."""
        return cls(str(data["template"]), {key: _parsed(value) for key, value in (data.get("args") or {}).items()})

    @classmethod
    def of(cls, err: ClueError) -> Words | None:
        """A refusal's message, or None when it has no template (a maker's diagnostic)."""
        return cls(err.template, dict(err.params)) if err.template else None


@dataclass(frozen=True)
class Wording:
    """A language for the sentences and the table's spelling of the cards (identity -> shown name)."""

    language: str = "en"
    names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def for_table(cls, locale: str, edition_id: str | None, house_names: Mapping[str, str],
                  variant: str | None = None) -> Wording:
        """The table's wording: ``locale``'s language, the edition's cards spelled for it (in the box
        ``variant``'s names, "1990s"; None: the locale's own) and the house."""
        try:
            language = parse_locale(locale).language
        except ClueError:
            language = "en"
        names = spelled(edition_id, locale, house_names, variant) if edition_id else dict(house_names)
        return cls(language, {card: name for card, name in names.items() if name != card})

    @classmethod
    def for_view(cls, view: Mapping[str, Any]) -> Wording:
        """The wording of the table a view came from (its ``house``: locale, house names, names_variant)."""
        house = view.get("house") or {}
        locale = str(house.get("locale") or "en-US")
        edition = view.get("edition")
        variant = house.get("names_variant")
        variant = str(variant) if variant else None
        try:
            return cls.for_table(locale, str(edition) if edition else None, dict(house.get("house_names") or {}),
                                 variant)
        except ClueError:  # an edition this build does not know: its cards keep their identities
            return cls.for_table(locale, None, dict(house.get("house_names") or {}))

    def name(self, identity: object) -> str:
        """A card (or seat, which is a suspect) as this table spells it; anything else as it is."""
        text = str(identity)
        return self.names.get(text, text)

    def say(self, message: str | Words, /, **args: Arg) -> str:
        """``message`` in this language, its arguments filled (cards spelled, nested messages worded)."""
        if isinstance(message, Words):
            return self.say(message.template, **message.args)
        text = say(self.language, message) if self.language != "en" and message else message  # "": the header
        if not args:
            return text
        filled = {key: self._arg(value) for key, value in args.items()}
        try:
            return text.format(**filled)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English, never an error
            return message.format(**filled)

    def told(self, err: ClueError) -> str:
        """A refusal in this language (its English when it has no template)."""
        if self.language == "en" and not self.names:
            return str(err)
        return err.told(lambda text: say(self.language, text) if self.language != "en" else text, self._arg)

    def _arg(self, value: Arg) -> Any:
        if isinstance(value, Words):
            return self.say(value)
        if isinstance(value, tuple) and all(isinstance(part, Words) for part in value):
            return " ".join(self.say(part) for part in value)
        if isinstance(value, CardList):
            return value.spelled(self.names)
        if isinstance(value, str):
            return self.name(value) if self.language == "en" else grammatical(self.language, self.name(value))
        return value


def the(name: str) -> Words:
    """A place or token with its English article ("the Kitchen"; "The Moon" has its own).

    >>> str(the("Kitchen")), str(the("The Moon"))
    ('the Kitchen', 'The Moon')
    """
    if name.lower().startswith("the "):
        return Words("{name}", {"name": name})
    return Words(N_("the {name}"), {"name": name})


def joined(parts: list[str | Words] | list[Words]) -> str | Words:
    """Parts joined by "and": "in the Hall and on seat pad 2".

    >>> str(joined(["Mrs. White", "Mr. Green", Words("the centre pad")]))
    'Mrs. White and Mr. Green and the centre pad'
    """
    result = parts[0]
    for part in parts[1:]:
        result = Words(N_("{first} and {second}"), {"first": result, "second": part})
    return result


def in_turn(sentences: list[Words]) -> Words:
    """Sentences one after the other, a space between (each said in the reader's language)."""
    result = sentences[0] if sentences else Words("")
    for sentence in sentences[1:]:
        result = Words("{first} {second}", {"first": result, "second": sentence})
    return result


def _parsed(value: Any) -> Arg:
    if isinstance(value, Mapping) and isinstance(value.get("template"), str):
        return Words.from_dict(value)
    if isinstance(value, list):
        return tuple(_parsed(part) for part in value)
    return value


def _plain(value: Arg) -> Any:
    if isinstance(value, Words):
        return value.as_dict()
    if isinstance(value, (tuple, list)):
        return [_plain(part) for part in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
