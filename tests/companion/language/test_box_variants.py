"""Box variants and every published spelling of a card, through the real CLI (issue 31, item 3).

A record or ``--seats`` may name a card as any box prints it (Fräulein
Gloria, Reverend Grün, Señora Celeste, Révérend Olive), without accents
(Fraulein Ming, Senorita Amapola), in any case, with an abbreviated title
(Rev. Green, Col. Mustard) or in Swiss spelling (Frau Weiss); ``--names``
picks the box whose names a locale shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from written_records import written_as

from companion.cli.main import main
from companion.language.boxes import boxes, boxes_by_locale, resolve_variant
from companion.rules.cards import CardList
from companion.rules.edition import load_edition
from companion.rules.errors import ClueError
from companion.rules.spelling import spelled
from companion.table.wording import Wording

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "examples" / "classic-sample.jsonl"
SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green", "Mrs. Peacock", "Professor Plum")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


SPELLINGS = {
    "German box from the 1990s on": spelled("classic", "de-DE", variant="1990s"),
    "current Spanish box": spelled("classic", "es-ES", variant="current"),
    "French books (Révérend Olive)": spelled("classic", "fr-FR", variant="reverend"),
    "Swiss German": spelled("classic", "de-CH"),
    "without accents, upper case": {card: name.upper().replace("Ä", "A").replace("Ñ", "N").replace("É", "E")
                                    .replace("ß", "SS") for card, name in spelled("classic", "es-ES").items()},
    "as people type them": {"Miss Scarlet": "Fraulein Ming", "Colonel Mustard": "Col. Mustard",
                            "Mrs. White": "Frau Weiss", "Mr. Green": "Rev. Green", "Mrs. Peacock": "Senora Celeste",
                            "Professor Plum": "prof. plum", "Lead Pipe": "Heizungsrohr", "Knife": "Punal"},
}


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_record_in_any_published_spelling_replays_to_the_same_events(spelling: str, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    record = written_as(SAMPLE, SPELLINGS[spelling], tmp_path / "written.jsonl")
    assert record.read_text(encoding="utf-8") != SAMPLE.read_text(encoding="utf-8")
    code, ours, err = run(capsys, "replay", str(record))
    assert (code, err) == (0, "")
    assert ours == run(capsys, "replay", str(SAMPLE))[1]


def test_the_boxes_of_a_locale_and_their_names() -> None:
    classic = load_edition("classic")
    assert [box.id for box in boxes(classic, "de-DE")] == ["1986", "1990s"]
    assert [box.id for box in boxes(classic, "es-ES")] == ["earlier", "current"]
    assert [box.id for box in boxes(classic, "fr-FR")] == ["docteur", "reverend"]
    german = spelled("classic", "de-DE", variant="1990s")
    assert [german[seat] for seat in SEATS] == ["Fräulein Gloria", "Oberst von Gatow", "Frau Weiß", "Reverend Grün",
                                                "Baronin von Porz", "Professor Bloom"]
    spanish = spelled("classic", "es-ES", variant="current")
    assert (spanish["Mrs. Peacock"], spanish["Professor Plum"]) == ("Señora Celeste", "Profesor Mora")
    assert spelled("classic", "fr-CH", variant="reverend")["Mr. Green"] == "Révérend Olive"
    assert spelled("classic", "de-CH", variant="1990s")["Mrs. White"] == "Frau Weiss"


def test_the_pages_get_each_locales_boxes_in_the_readers_language() -> None:
    menu = boxes_by_locale(load_edition("classic"), "de")
    assert menu["de-DE"] == [{"id": "1986", "label": "Deutsche Schachtel von 1986", "default": True},
                             {"id": "1990s", "label": "Deutsche Schachtel ab den 1990er-Jahren", "default": False}]
    assert [box["id"] for box in menu["en-US"]] == ["box"]


def test_an_unknown_box_lists_the_locales() -> None:
    with pytest.raises(ClueError, match=r"unknown box of names 'current' for de-AT; known: 1986, 1990s"):
        resolve_variant(load_edition("classic"), "de-AT", "current")


def test_notebook_names_the_cards_as_the_chosen_box(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "notebook", str(SAMPLE), "--seat", "Fraulein Gloria", "--locale", "de-DE",
                         "--names", "1990s")
    assert (code, err) == (0, "")
    assert "4=Fräulein Gloria" in out and "Reverend Grün" in out and "Fräulein Ming" not in out
    code, _, err = run(capsys, "notebook", str(SAMPLE), "--seat", "Miss Scarlet", "--locale", "es-ES",
                       "--names", "1990s")
    assert code == 2 and err == "clue-companion: --names: unknown box of names '1990s' for es-ES; known: earlier, " \
                                "current\n"


def test_a_refusal_lists_the_cards_in_the_readers_names() -> None:
    classic = load_edition("classic")
    with pytest.raises(ClueError) as refusal:
        classic.deck.resolve("Herr Nobody", "suspect")
    assert isinstance(refusal.value.params["valid"], CardList)
    german = Wording.for_table("de-DE", "classic", {}, "1990s").told(refusal.value)
    assert german.endswith("Fräulein Gloria, Oberst von Gatow, Frau Weiß, Reverend Grün, Baronin von Porz, "
                           "Professor Bloom"), german
    assert str(refusal.value).endswith("valid: Miss Scarlet, Colonel Mustard, Mrs. White, Mr. Green, Mrs. Peacock, "
                                       "Professor Plum")


def test_run_seats_in_published_names_without_accents(tmp_path: Path) -> None:
    (tmp_path / "script.txt").write_text("")
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    env.pop("CLUE_COMPANION_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--host", "127.0.0.1", "--port", "0",
         "--no-web", "--script", str(tmp_path / "script.txt"), "--exit-after-script",
         "--seats", "Fraulein Gloria, rev. green,FRAU WEISS,Senora Celeste"],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "seats Miss Scarlet, Mr. Green, Mrs. White, Mrs. Peacock" in done.stdout


def test_a_refused_seat_lists_the_seats_in_the_readers_names() -> None:
    from games import game

    with pytest.raises(ClueError) as refusal:
        game().seat_named("Herr Nobody")
    spanish = Wording.for_table("es-ES", "classic", {}, "current").told(refusal.value)
    assert "Señorita Amapola, Coronel Rubio, Señora Blanco" in spanish, spanish
