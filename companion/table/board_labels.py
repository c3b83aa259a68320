"""The board drawing in the table's words: room names and labels as the locale in use writes them.

Every picture of a board (the pages' ``GET /api/board``, ``clue-companion board --svg/--png --locale``) takes
its labels from :func:`board_labels`, the one place that asks :func:`~companion.rules.spelling.spelled` for
a drawing's names, so a German table's board says "Küche" where its cards do.

>>> from companion.rules.edition import load_edition
>>> labels = board_labels(load_edition("classic"), "de-DE")
>>> labels.name("Kitchen"), labels.name("Study")
('Küche', 'Arbeitszimmer')
>>> board_labels(load_edition("classic"), "de-DE", variant="1990s").name("Mr. Green"), board_title(load_edition("classic"), "de-DE")
('Reverend Grün', 'Cluedo')
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.language import N_, parse_locale, say
from companion.language.titles import edition_title
from companion.rules.drawing import Labels
from companion.rules.edition import Edition
from companion.rules.spelling import spelled

# Translators: under the name of the room every mover starts in, on the board drawing.
START = N_("(start)")


def board_labels(edition: Edition, locale: str, house_names: Mapping[str, str] | None = None,
                 variant: str | None = None) -> Labels:
    """The drawing's labels for ``edition`` in ``locale`` (a tag) and its box ``variant`` ("1990s", None for the
    locale's own names), the table's house names first."""
    language = parse_locale(locale).language
    return Labels(spelled(edition.id, locale, house_names, variant), say(language, START))


def board_title(edition: Edition, locale: str) -> str:
    """The edition's title over the drawing as the locale's box says it ("Cluedo" outside North America)."""
    return edition_title(edition.id, edition.name, locale)
