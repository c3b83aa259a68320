"""Records and narration in every locale: a record written in any locale's names replays to the same
events, ``replay``/``notebook --locale`` spell the cards the locale's way, the narration speaks de, fr
and es, and ``--speak`` writes it as speech."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any

import pytest

from written_records import written_as

from companion.cli.main import main
from companion.language import LOCALES
from companion.record.narrate import _describers, foreign, narrator
from companion.rules.edition import load_edition
from companion.rules.spelling import spelled

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
SAMPLE = EXAMPLES / "classic-sample.jsonl"
SAMPLES = sorted(EXAMPLES.glob("*-sample.jsonl"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def twin(record: Path, names: dict[str, str], folder: Path) -> Path:
    """The record with every card and seat written as ``names`` says (identity -> local name)."""
    return written_as(record, names, folder / f"{record.stem}-twin.jsonl")


def test_the_sample_has_mr_green_and_the_wrench() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    assert '"Mr. Green"' in text and '"Wrench"' in text


def test_en_gb_narration_names_reverend_green_and_the_spanner(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", str(SAMPLE), "--narrate", "--locale", "en-GB")
    assert (code, err) == (0, "")
    assert "Reverend Green" in out and "Spanner" in out
    assert "Mr. Green" not in out and "Wrench" not in out
    assert "Miss Scarlett rolls 1." in out.splitlines()


@pytest.mark.parametrize("tag", [tag for tag in LOCALES if tag != "en-US"])
def test_a_record_in_any_locales_names_replays_identically(tag: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    names = spelled("classic", tag)
    written = twin(SAMPLE, names, tmp_path)
    if tag in ("en-GB", "de-DE", "es-ES"):
        assert written.read_text(encoding="utf-8") != SAMPLE.read_text(encoding="utf-8")
    outputs = {}
    for path in (SAMPLE, written):
        outputs[path] = [run(capsys, "replay", str(path))[1],
                         run(capsys, "replay", str(path), "--narrate")[1],
                         run(capsys, "replay", str(path), "--narrate", "--locale", tag)[1]]
    assert outputs[SAMPLE] == outputs[written]
    assert '"ok": false' not in outputs[written][0]


def test_en_us_narration_is_the_identity_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "replay", str(SAMPLE), "--narrate")[1] == \
        run(capsys, "replay", str(SAMPLE), "--narrate", "--locale", "en-US")[1]


@pytest.mark.parametrize("command", [["replay", str(SAMPLE), "--narrate"], ["notebook", str(SAMPLE), "--seat", "Mr. Green"]])
def test_an_unknown_locale_is_one_line_listing_the_known_ones(command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *command, "--locale", "klingon")
    assert (code, out) == (2, "")
    assert err == f"clue-companion: --locale: unknown locale 'klingon'; known: {', '.join(LOCALES)}\n"


@pytest.mark.parametrize("tag, sentence", [
    ("de-DE", "Baronin von Porz verdächtigt Fräulein Ming mit der Pistole auf der Veranda."),
    ("fr-FR", "Madame Pervenche fait une hypothèse : Mademoiselle Rose, avec le revolver, dans la véranda."),
    ("es-ES", "El capitano Azurro sospecha de la señorita Amapola, con la pistola, en el invernadero."),
    ("de-CH", "Madame Curry bekommt 5 Karten: Eingangshalle, Bibliothek, Küche, Pistole, Leuchter."),
])
def test_the_narration_speaks_the_locale(tag: str, sentence: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(SAMPLE), "--narrate", "--locale", tag)
    assert code == 0 and sentence in out.splitlines()


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.stem)
@pytest.mark.parametrize("tag", ["de-DE", "fr-FR", "es-ES"])
def test_every_narrated_line_is_translated(sample: Path, tag: str, capsys: pytest.CaptureFixture[str]) -> None:
    english = run(capsys, "replay", str(sample), "--narrate")[1].splitlines()
    local = run(capsys, "replay", str(sample), "--narrate", "--locale", tag)[1].splitlines()
    assert len(local) == len(english)
    for mine, theirs in zip(local, english):
        assert mine != theirs and "=" not in mine.replace(" = ", ""), mine  # no fallback "key=value" line


def test_every_event_type_has_a_sentence_in_every_language() -> None:
    events: dict[str, dict[str, Any]] = {
        "game_started": {"edition": "classic", "seats": ["Mr. Green"], "face_up": ["Rope"]},
        "cards_dealt": {"seat": "Mr. Green", "count": 2, "cards": ["Rope", "Hall"]},
        "turn_started": {"seat": "Mr. Green"}, "rolled": {"seat": "Mr. Green", "dice": [3, 4], "total": 7},
        "blocked": {"seat": "Mr. Green"}, "moved": {"seat": "Mr. Green", "to": "h24", "via": "passage"},
        "weapon_moved": {"weapon": "Rope", "to": "Hall"},
        "suggested": {"seat": "Mr. Green", "suspect": "Mr. Green", "weapon": "Rope", "room": "Hall"},
        "passed": {"seat": "Mr. Green"}, "refute_requested": {"seat": "Mr. Green", "suggester": "Mrs. White"},
        "card_shown": {"by": "Mr. Green", "to": "Mrs. White"}, "no_refutation": {"suggester": "Mr. Green"},
        "accused": {"seat": "Mr. Green", "suspect": "Mr. Green", "weapon": "Rope", "room": "Hall", "correct": False},
        "eliminated": {"seat": "Mr. Green"},
        "game_over": {"winner": None, "solution": {"suspect": "Mr. Green", "weapon": "Rope", "room": "Hall"}},
        "snooped": {"seat": "Mr. Green", "target": "Mrs. White"}, "side_card_seen": {"seat": "Mr. Green", "index": 0},
        "power_used": {"seat": "Mr. Green", "power": "Sonic"},
        "hand_revealed": {"seat": "Mr. Green", "cards": ["Rope"]},
        "drew": {"seat": "Mr. Green", "deck": "Intrigue Card", "card_id": "psychic_paper-1"},
        "card_played": {"seat": "Mr. Green", "card_id": "psychic_paper-1"},
    }
    assert set(_describers()) | {"drew", "card_played"} == set(events)
    for language in ("de", "fr", "es"):
        lines = {kind: foreign(language, {"type": kind, **fields}) for kind, fields in events.items()}
        english = {kind: narrator("en-US")({"type": kind, **fields}) for kind, fields in events.items()}
        for kind, line in lines.items():
            assert "Mr. Green" in line or kind in ("weapon_moved",), line
            assert line != english[kind] and not line.startswith("type="), line
    assert narrator("de-DE", spelled("classic", "de-DE"))({"type": "moved", "seat": "Mr. Green", "to": "h24",
                                                            "via": "card"}) == "Direktor Grün zieht auf Feld h24 (Karte)."


def test_a_refused_line_is_reported_in_the_locale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "refused.jsonl"
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()[:1] + ['{"type": "roll", "seat": "Mr. Green"}']
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    english = run(capsys, "replay", str(record), "--narrate")[1].splitlines()[-1]
    german = run(capsys, "replay", str(record), "--narrate", "--locale", "de-DE")[1].splitlines()[-1]
    assert english.startswith("line 2 refused (unknown_seat): ")
    assert german.startswith("Zeile 2 abgelehnt (unknown_seat): ") and "Direktor Grün" in german


def test_notebook_in_a_locale(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "notebook", str(SAMPLE), "--seat", "Miss Scarlet", "--locale", "de-DE")
    assert code == 0
    assert "Rohrzange" in out and "wahrscheinlichste Lösung: Baronin von Porz, Dolch, Salon" in out
    assert "Wrench" not in out
    as_json = run(capsys, "notebook", str(SAMPLE), "--seat", "Miss Scarlet", "--json", "--locale", "de-DE")[1]
    assert as_json == run(capsys, "notebook", str(SAMPLE), "--seat", "Miss Scarlet", "--json")[1]


# ---- --speak ---------------------------------------------------------------------------------------

def speak(tag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          record: Path) -> tuple[Path, list[list[str]]]:
    from hardware import speech

    commands: list[list[str]] = []
    real = speech.feed

    def recorded(argv: list[str], text: str, timeout: float) -> None:
        commands.append(list(argv))
        real(argv, text, timeout)
    monkeypatch.setattr(speech, "feed", recorded)
    out = tmp_path / f"{tag}.wav"
    code, _, err = run(capsys, "replay", str(record), "--narrate", "--locale", tag, "--speak", str(out))
    assert (code, err) == (0, "")
    return out, commands


def short_record(tmp_path: Path) -> Path:
    record = tmp_path / "short.jsonl"
    record.write_text("\n".join(SAMPLE.read_text(encoding="utf-8").splitlines()[:3]) + "\n", encoding="utf-8")
    return record


@pytest.mark.parametrize("tag, voice", [("en-GB", "en-gb"), ("de-DE", "de"), ("nb-NO", "en-us")])
def test_speak_writes_the_narration_as_a_wav_in_the_locales_voice(tag: str, voice: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    out, commands = speak(tag, tmp_path, capsys, monkeypatch, short_record(tmp_path))
    assert out.read_bytes()[:4] == b"RIFF" and out.read_bytes()[8:12] == b"WAVE"
    with wave.open(str(out)) as sound:
        assert sound.getnframes() / sound.getframerate() > 2.0  # seconds of speech, not an empty file
    assert len(commands) == 1 and commands[0][commands[0].index("-v") + 1] == voice


def test_speak_needs_narrate_and_espeak(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(capsys, "replay", str(SAMPLE), "--speak", str(tmp_path / "x.wav"))
    assert code == 2 and "--speak writes the narration: add --narrate" in err
    monkeypatch.setenv("PATH", str(tmp_path))
    code, _, err = run(capsys, "replay", str(short_record(tmp_path)), "--narrate", "--speak", str(tmp_path / "x.wav"))
    assert code == 2 and err == "clue-companion: --speak: espeak-ng is not installed: sudo apt install espeak-ng\n"
    assert not (tmp_path / "x.wav").exists()


def test_narrator_for_the_web_spells_and_translates() -> None:
    edition = load_edition("classic")
    tell = narrator("fr-CH", spelled("classic", "fr-CH"), edition)
    assert tell({"type": "turn_started", "seat": "Miss Scarlet"}) == "-- Au tour d'Evelyn Rose --"


def test_the_en_gb_example_is_the_samples_twin(capsys: pytest.CaptureFixture[str]) -> None:
    example = EXAMPLES / "classic-sample-en-gb.jsonl"
    assert "Reverend Green" in example.read_text(encoding="utf-8")
    assert run(capsys, "replay", str(example))[1] == run(capsys, "replay", str(SAMPLE))[1]
