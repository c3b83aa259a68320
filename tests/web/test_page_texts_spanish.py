"""No Spanish page shows "[object …]", "undefined", "NaN", "null" or an unfilled "{placeholder}" in any state of
a game (page_texts.py walks it), and the phones' sentences give names their articles ("Turno de la señorita
Amapola", never "Turno de Señorita Amapola"): Spanish is where a name's form matters most.

A file of its own beside test_page_texts.py (the English pages), so a third pytest process takes it.
"""

from __future__ import annotations

import re
from typing import Any

from page_texts import MUSTARD, assert_no_leftovers, served, walk  # noqa: F401 - served is the walk's fixture

from companion.cli.mock_table import MockTable

# A title after a preposition or starting a clause without its article: "de Señorita Amapola", "a Coronel Rubio".
BARE_TITLE = re.compile(r"\b(?:de|a|por|con|en)\s+(?:Señorita|Señora|Coronel|Padre|Capitano|Profesor)\b")


def test_no_spanish_page_shows_leftovers_and_titles_take_their_articles(browser: Any,
                                                                         served: tuple[MockTable, str, Any]) -> None:
    reading, said = walk(browser, served, "es-ES")
    assert_no_leftovers(reading)
    phone = said[f"seat {MUSTARD} (es-ES)"]
    assert "Turno de la señorita Amapola" in phone, phone[:2000]
    bare = sorted({text[max(0, m.start() - 60):m.end() + 30] for text in said.values() for m in BARE_TITLE.finditer(text)})
    assert bare == [], bare
    assert reading.pages > 30, reading.pages
