"""How a locale writes an edition's cards: every card keeps its identity (its US printed name).

A locale's name of a card comes from, first found: the table's house names,
the edition's ``[names.TAG]`` table for the locale, the table of its
language's main locale (de-CH falls back to de-DE, fr-CH to fr-FR), and
last the identity itself. The rules engine only ever sees identities: a name
is how a page, a handheld or the narration writes it.

>>> spelled("classic", "en-GB")["Mr. Green"]
'Reverend Green'
>>> spelled("classic", "de-CH")["Miss Scarlet"], spelled("classic", "de-CH")["Mr. Green"]
('Evelyn Rose', 'Direktor Grün')
>>> spelled("classic", "en-US", {"Mr. Green": "Uncle Fred"})["Mr. Green"]
'Uncle Fred'
"""

from __future__ import annotations

from collections.abc import Mapping

from .edition import Edition, load_edition


def spelled(edition_id: str, locale: str, house_names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every card of the edition (identity -> name in ``locale``), the table's house names first."""
    return spelling(load_edition(edition_id), locale, house_names)


def spelling(edition: Edition, locale: str, house_names: Mapping[str, str] | None = None) -> dict[str, str]:
    """:func:`spelled` for an edition already loaded."""
    house = house_names or {}
    tables = [edition.names.get(tag, {}) for tag in fallbacks(locale)]
    return {card: house.get(card) or next((t[card] for t in tables if card in t), card) for card in edition.deck.all}


def fallbacks(locale: str) -> tuple[str, ...]:
    """The tags whose names tables ``locale`` reads, first first: "de-CH" -> ("de-CH", "de-DE"); "de" -> ("de-DE",).

    >>> fallbacks("fr_ch"), fallbacks("es"), fallbacks("nb-NO")
    (('fr-CH', 'fr-FR'), ('es-ES',), ('nb-NO', 'nb-NB'))
    """
    language, _, country = locale.strip().replace("_", "-").partition("-")
    language = language.casefold()
    main = f"{language}-{language.upper()}"
    tag = f"{language}-{country.upper()}" if country else main
    return (tag,) if tag == main else (tag, main)
