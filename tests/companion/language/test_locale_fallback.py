"""A locale tag that is not listed falls back to its language's, keeping the exact tag (issue 31, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import main
from companion.language import parse_locale
from companion.language.titles import companion_title, edition_title, game_title
from companion.rules.errors import ClueError
from companion.rules.spelling import spelled

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "classic-sample.jsonl"


@pytest.mark.parametrize("asked, tag, language, exact", [
    ("de-AT", "de-DE", "de", "de-AT"),
    ("de_at", "de-DE", "de", "de-AT"),
    ("es-MX", "es-ES", "es", "es-MX"),
    ("es-419", "es-ES", "es", "es-419"),
    ("fr-BE", "fr-FR", "fr", "fr-BE"),
    ("fr-CA", "fr-FR", "fr", "fr-CA"),
    ("en-AU", "en-US", "en", "en-AU"),
    ("de-CH", "de-CH", "de", "de-CH"),
    ("de", "de-DE", "de", "de-DE"),
    ("nb-NO", "nb-NO", "en", "nb-NO"),
    ("no", "nb-NO", "en", "nb-NO"),
])
def test_an_unlisted_country_falls_back_to_its_language(asked: str, tag: str, language: str, exact: str) -> None:
    found = parse_locale(asked)
    assert (found.tag, found.language, found.exact) == (tag, language, exact)


@pytest.mark.parametrize("asked", ["xx", "xx-YY", "de-", "", "german"])
def test_an_unknown_language_is_still_refused(asked: str) -> None:
    with pytest.raises(ClueError, match="unknown locale"):
        parse_locale(asked)


def test_austrian_cards_are_the_german_box(capsys: pytest.CaptureFixture[str]) -> None:
    assert spelled("classic", "de-AT") == spelled("classic", "de-DE")
    code = main(["replay", str(SAMPLE), "--narrate", "--locale", "de-AT"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert "Baronin von Porz verdächtigt Fräulein Ming mit der Pistole auf der Veranda." in out.splitlines()


def test_mexican_and_belgian_narration(capsys: pytest.CaptureFixture[str]) -> None:
    for asked, sentence in (("es-MX", "-- Turno de la señorita Amapola --"), ("fr-BE", "-- Au tour du colonel Moutarde --")):
        assert main(["replay", str(SAMPLE), "--narrate", "--locale", asked]) == 0
        assert sentence in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("locale, game, classic, companion", [
    ("en-US", "CLUE", "Classic CLUE", "CLUE companion"),
    ("en-CA", "CLUE", "Classic CLUE", "CLUE companion"),
    ("en-GB", "Cluedo", "Cluedo", "Cluedo companion"),
    ("nb-NO", "Cluedo", "Cluedo", "Cluedo companion"),
    ("de-AT", "Cluedo", "Cluedo", "Cluedo-Begleiter"),
    ("fr-FR", "Cluedo", "Cluedo", "Compagnon de Cluedo"),
    ("es-ES", "Cluedo", "Cluedo", "Compañero de Cluedo"),
    ("en-AU", "Cluedo", "Cluedo", "Cluedo companion"),
    ("es-MX", "CLUE", "CLUE", "Compañero de CLUE"),
    ("fr-CA", "CLUE", "CLUE", "Compagnon de CLUE"),
])
def test_the_box_says_clue_in_the_americas_and_cluedo_elsewhere(locale: str, game: str, classic: str,
                                                                 companion: str) -> None:
    assert (game_title(locale), edition_title("classic", "Classic CLUE", locale), companion_title(locale)) == \
        (game, classic, companion)


def test_the_en_gb_narration_opens_with_cluedo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SAMPLE), "--narrate", "--locale", "en-GB"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("A game of Cluedo for "), first
    assert main(["replay", str(SAMPLE), "--narrate"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("A game of Classic CLUE for ")
