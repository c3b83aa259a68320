"""The narration of a whole game, read in Spanish, French and German as a family would say it (issue 31).

Each language replays the Classic sample (examples/classic-sample.jsonl) and
the other editions' samples; key sentences are checked word for word, and
every line for what would give a log away: a bare title where the sentence
needs an article, a masculine form for a woman, the US title "Classic CLUE",
"la sala {room}" doubling or a word the glossary bans.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
SAMPLE = EXAMPLES / "classic-sample.jsonl"
SAMPLES = sorted(EXAMPLES.glob("*-sample.jsonl"))


def narration(capsys: pytest.CaptureFixture[str], locale: str, record: Path = SAMPLE, *extra: str) -> list[str]:
    code = main(["replay", str(record), "--narrate", "--locale", locale, *extra])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out.splitlines()


KEY_SENTENCES = {
    "es-ES": [
        "Una partida de Cluedo. Juegan: Coronel Rubio, Capitano Azurro, Señora Blanco, Señorita Amapola.",
        "El coronel Rubio recibe 5 cartas: Vestíbulo, Biblioteca, Cocina, Pistola, Candelabro.",
        "-- Turno de la señorita Amapola --",
        "-- Turno del coronel Rubio --",
        "La señorita Amapola tira el dado y saca 1.",
        "La señorita Amapola va a la casilla h24.",
        "El capitano Azurro entra en el invernadero.",
        "El capitano Azurro sospecha de la señorita Amapola, con la pistola, en el invernadero.",
        "La sospecha lleva a la señorita Amapola al invernadero.",
        "La señora Blanco debe enseñar una carta al capitano Azurro.",
        "La señora Blanco enseña al capitano Azurro la carta Invernadero.",
        "La señorita Amapola sospecha del padre Prado, con la tubería, en el salón de baile.",
        "El capitano Azurro toma el pasadizo secreto hacia la sala.",
        "El coronel Rubio no puede refutar y pasa.",
        "La señora Blanco acusa a la señorita Amapola, con el puñal, en el vestíbulo: se equivoca.",
        "La señora Blanco queda eliminada, pero sigue enseñando cartas.",
        "¡La señorita Amapola gana! Fue el capitano Azurro, con el puñal, en la sala.",
    ],
    "fr-FR": [
        "Une partie de Cluedo. Joueurs : Colonel Moutarde, Madame Pervenche, Madame Leblanc, Mademoiselle Rose.",
        "-- Au tour de Mademoiselle Rose --",
        "-- Au tour du colonel Moutarde --",
        "Mademoiselle Rose lance le dé : 1.",
        "Mademoiselle Rose avance jusqu'à la case h24.",
        "Madame Pervenche entre dans la véranda.",
        "Madame Pervenche fait une hypothèse : Mademoiselle Rose, avec le revolver, dans la véranda.",
        "L'hypothèse amène Mademoiselle Rose dans la véranda.",
        "Le revolver est apporté dans la véranda.",
        "Madame Leblanc doit montrer une carte à Madame Pervenche.",
        "Madame Leblanc accuse Mademoiselle Rose, avec le poignard, dans le hall : c'est faux.",
        "Madame Leblanc est éliminée, mais montre encore des cartes.",
        "Mademoiselle Rose gagne ! C'était Madame Pervenche, avec le poignard, dans le salon.",
    ],
    "de-DE": [
        "Ein Spiel Cluedo mit Oberst Gatow, Baronin von Porz, Frau Weiß, Fräulein Ming.",
        "-- Fräulein Ming ist am Zug --",
        "Fräulein Ming würfelt eine 1.",
        "Fräulein Ming zieht auf Feld h24.",
        "Baronin von Porz geht auf die Veranda.",
        "Baronin von Porz verdächtigt Fräulein Ming mit der Pistole auf der Veranda.",
        "Fräulein Ming wird durch den Verdacht auf die Veranda geholt.",
        "Die Pistole wird auf die Veranda gebracht.",
        "Frau Weiß muss Baronin von Porz eine Karte zeigen.",
        "Fräulein Ming geht ins Billardzimmer.",
        "Frau Weiß erhebt Anklage gegen Fräulein Ming mit dem Dolch in der Eingangshalle: falsch.",
        "Frau Weiß ist ausgeschieden, zeigt aber weiter Karten.",
        "Fräulein Ming gewinnt! Es war Baronin von Porz mit dem Dolch im Salon.",
    ],
}


@pytest.mark.parametrize("locale", KEY_SENTENCES)
def test_a_whole_game_reads_as_sentences(locale: str, capsys: pytest.CaptureFixture[str]) -> None:
    lines = narration(capsys, locale)
    missing = [sentence for sentence in KEY_SENTENCES[locale] if sentence not in lines]
    assert not missing, "\n".join(lines)


# What a log-like or ungrammatical line would show, per language.
WRONG = {
    "es": [r"\b(?:de|a|por|en|con) (?:Señorita|Señora|Coronel|Padre|Capitano|Profesor|Dr\.)", r"\bde el\b",
           r"\ba el\b", r"la sala (?:Sala|Comedor|Cocina|Estudio)\b", r"el arma \w", r"sugerencia", r"Eliminad[oa]:",
           r"Señora \w+ queda eliminado\b"],
    "fr": [r"\bde le\b", r"\bà le\b", r" — ", r"suggestion", r"Madame \w+ est éliminé\b",
           r"Mademoiselle \w+ est éliminé\b", r"\b(?:Lancer|Tirage|Hypothèse) (?:de|—)"],
    "de": [r"Gewinner(?:in)?:", r"Verdächtigung", r"\bin dem\b", r"\bin der Veranda\b", r"\bZiel:"],
}


@pytest.mark.parametrize("locale", ["es-ES", "fr-FR", "de-DE", "de-CH", "fr-CH"])
@pytest.mark.parametrize("record", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_no_line_of_any_sample_reads_like_a_log(locale: str, record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = narration(capsys, locale, record)
    language = locale[:2]
    for line in lines:
        assert "Classic CLUE" not in line and "CLUE " not in line, line
        assert "{" not in line and "None" not in line, line
        for pattern in WRONG[language]:
            assert not re.search(pattern, line), (pattern, line)


def test_swiss_german_writes_no_eszett(capsys: pytest.CaptureFixture[str]) -> None:
    lines = narration(capsys, "de-CH")
    assert "Frau Weiss ist ausgeschieden, zeigt aber weiter Karten." in lines
    assert not any("ß" in line for line in lines)


def test_the_box_variant_names_the_game_in_its_names(capsys: pytest.CaptureFixture[str]) -> None:
    """``--names`` on replay: the German box from the 1990s on (wired by the CLI: see docs/languages.md)."""
    from companion.language.boxes import resolve_variant
    from companion.record.narrate import narrator
    from companion.rules.edition import load_edition
    from companion.rules.spelling import spelling

    classic = load_edition("classic")
    names = spelling(classic, "de-DE", variant=resolve_variant(classic, "de-DE", "1990s"))
    tell = narrator("de-DE", names, classic)
    assert tell({"type": "suggested", "seat": "Mr. Green", "suspect": "Miss Scarlet", "weapon": "Rope",
                 "room": "Kitchen"}) == "Reverend Grün verdächtigt Fräulein Gloria mit dem Seil in der Küche."
    names = spelling(classic, "es-ES", variant="current")
    assert narrator("es-ES", names, classic)({"type": "eliminated", "seat": "Mrs. Peacock"}) == \
        "La señora Celeste queda eliminada, pero sigue enseñando cartas."


@pytest.mark.parametrize("locale, line", [
    ("es-ES", "El profesor Mora queda eliminado, pero sigue enseñando cartas."),
    ("fr-FR", "Le professeur Violet est éliminé, mais montre encore des cartes."),
    ("fr-FR", "Madame Pervenche est bloquée et ne bouge pas."),
    ("es-ES", "La señora Blanco está bloqueada y no se mueve."),
    ("es-ES", "El puñal pasa al estudio."),
    ("fr-FR", "Le pion du colonel Moutarde est placé à l'intérieur du bureau, hors de la porte."),
    ("de-DE", "Die Figur von Oberst Gatow wird aus der Tür ins Arbeitszimmer gestellt."),
])
def test_words_agree_with_the_seat(locale: str, line: str) -> None:
    from companion.record.narrate import narrator
    from companion.rules.edition import load_edition
    from companion.rules.spelling import spelling

    classic = load_edition("classic")
    tell = narrator(locale, spelling(classic, locale, variant="current" if locale == "es-ES" else None), classic)
    events = [{"type": "eliminated", "seat": "Professor Plum"}, {"type": "blocked", "seat": "Mrs. Peacock"},
              {"type": "blocked", "seat": "Mrs. White"}, {"type": "weapon_moved", "weapon": "Knife", "to": "Study"},
              {"type": "moved", "seat": "Colonel Mustard", "to": "Study", "via": "cleared"}]
    assert line in [tell(event) for event in events]


@pytest.mark.parametrize("locale, line", [
    ("es-ES", "Amy & Rory tiran los dados y sacan 3 + 5: 8 casillas."),
    ("fr-FR", "Amy & Rory lancent les dés : 3 + 5, soit 8 cases."),
    ("de-DE", "Amy & Rory würfeln 3 + 5: 8 Felder."),
])
def test_a_seat_of_two_takes_a_plural_verb(locale: str, line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert line in narration(capsys, locale, EXAMPLES / "doctor-who-sample.jsonl")
