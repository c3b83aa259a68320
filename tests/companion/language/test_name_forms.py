"""Name forms in templates: articles, contractions, German cases, gender agreement (issue 31, item 2)."""

from __future__ import annotations

import pytest

from companion.language.grammar import name
from companion.rules.spelling import spelled
from companion.table.wording import Wording


@pytest.mark.parametrize("language, shown, spec, said", [
    ("es", "Coronel Rubio", "de", "del coronel Rubio"),
    ("es", "Coronel Rubio", "a", "al coronel Rubio"),
    ("es", "Señorita Amapola", "de", "de la señorita Amapola"),
    ("es", "Señorita Amapola", "The", "La señorita Amapola"),
    ("es", "Sala", "en", "en la sala"),
    ("es", "Comedor", "En", "En el comedor"),
    ("es", "Señora Celeste", "eliminado|eliminada", "eliminada"),
    ("fr", "Colonel Moutarde", "de", "du colonel Moutarde"),
    ("fr", "Colonel Moutarde", "à", "au colonel Moutarde"),
    ("fr", "Madame Leblanc", "à", "à Madame Leblanc"),
    ("fr", "Salle à manger", "dans", "dans la salle à manger"),
    ("fr", "Hall", "de", "du hall"),
    ("fr", "Evelyn Rose", "de", "d'Evelyn Rose"),
    ("fr", "Révérend Olive", "The", "Le révérend Olive"),
    ("fr", "Madame Leblanc", "éliminé|éliminée", "éliminée"),
    ("fr", "Professeur Violet", "éliminé|éliminée", "éliminé"),
    ("de", "Rohrzange", "mit", "mit der Rohrzange"),
    ("de", "Leuchter", "mit", "mit dem Leuchter"),
    ("de", "Arbeitszimmer", "in", "im Arbeitszimmer"),
    ("de", "Eingangshalle", "ins", "in die Eingangshalle"),
    ("de", "Veranda", "In", "Auf der Veranda"),
    ("de", "Dolch", "The", "Der Dolch"),
    ("de", "Fräulein Gloria", "mit", "mit Fräulein Gloria"),
    ("de", "Frau Weiss", "dat", "Frau Weiss"),
    ("es", "Amy & Rory", "eliminado|eliminada|eliminados", "eliminados"),
    ("fr", "Amy", "éliminé|éliminée", "éliminée"),
    ("es", "Onkel Fritz", "de", "de Onkel Fritz"),
    ("es", "Onkel Fritz", "The", "Onkel Fritz"),
])
def test_a_name_takes_what_the_sentence_needs(language: str, shown: str, spec: str, said: str) -> None:
    assert format(name(language, shown), spec) == said


def test_python_format_specs_still_work_on_a_name() -> None:
    assert f"{name('de', 'Seil'):>6}|{name('de', 'Seil'):s}|{name('de', 'Seil')}" == "  Seil|Seil|Seil"


def test_every_name_of_every_box_has_its_article_and_gender() -> None:
    """Each Classic card's name in es, fr and de (every box) is in its language's table."""
    from companion.language.grammar import FORMS

    for locale, variant in (("es-ES", None), ("es-ES", "current"), ("fr-FR", None), ("fr-FR", "reverend"),
                            ("fr-CH", None), ("de-DE", None), ("de-DE", "1990s"), ("de-CH", None)):
        names = spelled("classic", locale, variant=variant)
        missing = [shown for shown in names.values() if shown not in FORMS[locale[:2]]]
        assert not missing, (locale, variant, missing)


def test_the_tables_wording_gives_templates_the_name_forms() -> None:
    """A handheld or seat template (here one no catalogue has, so it is used as written) may use them."""
    french = Wording.for_table("fr-FR", "classic", {})
    assert french.say("{seat:The} est {seat:éliminé|éliminée}.", seat="Mrs. White") == "Madame Leblanc est éliminée."
    spanish = Wording.for_table("es-ES", "classic", {}, "current")
    assert spanish.say("Turno {seat:de}", seat="Mrs. Peacock") == "Turno de la señora Celeste"
    english = Wording.for_table("en-GB", "classic", {})
    assert english.say("{seat} is out", seat="Mr. Green") == "Reverend Green is out"
