"""Box variants: the name sets of one locale, each named by the box it comes from.

A locale's own ``[names.TAG]`` table is its first box; an edition may add
others as ``[names.TAG-VARIANT]`` tables (``[names.de-DE-1990s]``), read
before the locale's own (docs/languages.md, "Box variants"). A variant is
chosen by its suffix: ``--names 1990s`` on the command line, the house
setting ``names_variant`` at a table.

>>> from companion.rules.edition import load_edition
>>> classic = load_edition("classic")
>>> [(box.id, box.label) for box in boxes(classic, "de-DE")]
[('1986', 'German box, 1986'), ('1990s', 'German box, from the 1990s on')]
>>> [box.id for box in boxes(classic, "de-CH")], [box.id for box in boxes(classic, "en-US")]
(['swiss', '1990s'], ['box'])
>>> resolve_variant(classic, "de-DE", "1990S"), resolve_variant(classic, "de-AT", "1986"), resolve_variant(classic, "en-US", None)
('1990s', None, None)
>>> resolve_variant(classic, "es-ES", "1990s")
Traceback (most recent call last):
...
companion.rules.errors.BadInput: unknown box of names '1990s' for es-ES; known: earlier, current
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from companion.rules.edition import Edition
from companion.rules.errors import BadInput
from companion.rules.spelling import fallbacks

from . import N_, say

# What each names table is called, by the box it comes from; the first box of a locale (its own table)
# is named by its id here too. A table not listed is named by its suffix.
LABELS: dict[str, tuple[str, str]] = {
    "de-DE": ("1986", N_("German box, 1986")),
    "de-DE-1990s": ("1990s", N_("German box, from the 1990s on")),
    "es-ES": ("earlier", N_("Spanish box, earlier")),
    "es-ES-current": ("current", N_("Spanish box, current")),
    "fr-FR": ("docteur", N_("French box (Docteur Olive)")),
    "fr-FR-reverend": ("reverend", N_("French box and books, later (Révérend Olive)")),
    "en-GB": ("uk", N_("UK Cluedo box")),
    "de-CH": ("swiss", N_("Swiss box")),
    "fr-CH": ("swiss", N_("Swiss box")),
    "nb-NO": ("norway", N_("Norwegian box")),
}


@dataclass(frozen=True)
class Box:
    """One name set of a locale: ``variant`` is None for the locale's own table."""

    id: str
    label: str
    variant: str | None

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """For the pages: ``{"id", "label", "default"}``, the label in ``language``."""
        return {"id": self.id, "label": say(language, self.label), "default": self.variant is None}


def boxes(edition: Edition, locale: str) -> list[Box]:
    """The name sets ``locale`` can use with ``edition``, its own first; one (its own) when it has no variant."""
    tags = fallbacks(locale)
    main = tags[-1]
    own = next((tag for tag in tags if tag in edition.names), main)
    first_id, first_label = LABELS.get(own, ("box", N_("Usual names")))
    found = [Box(first_id, first_label, None)]
    for tag in edition.names:
        for base in tags:
            if tag.startswith(base + "-") and tag.count("-") == 2:
                suffix = tag[len(base) + 1:]
                if all(box.variant != suffix for box in found):
                    box_id, label = LABELS.get(tag, (suffix, suffix))
                    found.append(Box(box_id, label, suffix))
    return found


def resolve_variant(edition: Edition, locale: str, text: str | None) -> str | None:
    """The variant suffix ``text`` chooses for ``locale`` (None: the locale's own names); BadInput lists them.

    ``text`` is a box's id ("1990s"), its full table tag ("de-DE-1990s") or None.
    """
    if text is None or not text.strip():
        return None
    wanted = text.strip().casefold()
    for box in boxes(edition, locale):
        tags = {box.id.casefold()} | ({f"{tag}-{box.variant}".casefold() for tag in fallbacks(locale)}
                                    if box.variant else {tag.casefold() for tag in fallbacks(locale)})
        if wanted in tags:
            return box.variant
    known = ", ".join(box.id for box in boxes(edition, locale))
    raise BadInput("unknown box of names {name!r} for {locale}; known: {known}", name=text.strip(),
                   locale=fallbacks(locale)[0], known=known)


def boxes_by_locale(edition: Edition, language: str = "en") -> dict[str, list[dict[str, Any]]]:
    """Every listed locale's name sets for ``edition`` (for the host page's menu), labels in ``language``."""
    from .locales import LOCALES

    return {tag: [box.as_dict(language) for box in boxes(edition, tag)] for tag in LOCALES}


def add_names_argument(parser: argparse.ArgumentParser) -> None:
    """``--names VARIANT``: which box's names the locale uses (resolved with :func:`resolve_variant`)."""
    parser.add_argument("--names", metavar="VARIANT", default=None,
                        help="the box whose card names the locale uses (e.g. 1990s for de-DE, current for es-ES); "
                             "default: the locale's usual names; see docs/languages.md")
