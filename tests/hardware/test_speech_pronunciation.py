"""espeak-ng gets each locale's words it says wrong in a form it says right (hardware/speech.py, PRONUNCIATIONS)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hardware import speech
from hardware.speech import PRONUNCIATIONS, Voice, pronounce

ENTRIES = [(language, written, said) for language, fixes in PRONUNCIATIONS.items() for written, said in fixes]


@pytest.mark.parametrize(("language", "written", "said"), ENTRIES, ids=lambda value: str(value))
def test_each_listed_word_is_replaced_in_its_language(language: str, written: str, said: str) -> None:
    spoken = pronounce(f"Heute {written} und {written}.", language)
    assert spoken == f"Heute {said} und {said}."


@pytest.mark.parametrize(("text", "language", "spoken"), [
    ("Oberst von Gatow würfelt.", "de-CH", "Oberst von Gato würfelt."),  # a locale reads its language's list
    ("Compagnon Cluedo", "FR_fr", "Compagnon Cluédo"),
    ("¡Gana la Senorita Amapola!", "es-ES", "¡Gana la Señorita Amapola!"),
    ("Mrs. White, Mr. Green and Dr. Black.", "en-GB", "Mrs White, Mr Green and Dr Black."),
    ("Cluedo-Begleiter", "de", "[[klu'e:do:]]-Begleiter"),  # a word ends at a hyphen
    ("Cluedo", "en-GB", "Cluedo"),  # the English voice says it well: not listed
    ("Bloomfield, CLUELESS, Mrs.Peacock", "de", "Bloomfield, CLUELESS, Mrs.Peacock"),  # whole words only
    ("Mrs. Peacock", "nb-NO", "Mrs. Peacock"),  # no list: as written
])
def test_whole_words_are_replaced_per_locale(text: str, language: str, spoken: str) -> None:
    assert pronounce(text, language) == spoken


def test_espeak_ng_is_given_the_replaced_text_and_piper_the_written_one(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    fed: list[tuple[str, str]] = []
    monkeypatch.setattr(speech, "feed", lambda argv, text, timeout: fed.append((argv[0], text)))
    espeak = Voice("espeak-ng", "espeak-ng", "de")
    voices = {"auto": espeak, "espeak-ng": espeak,
              "piper": Voice("piper", "piper", "de_DE-x.onnx", tmp_path / "de_DE-x.onnx")}
    monkeypatch.setattr(speech, "choose_voice", lambda language, engine="auto": voices[engine])
    speech.write_wav("Dr. Black", "de-DE", tmp_path / "a.wav", engine="espeak-ng")
    speech.write_wav("Dr. Black", "de-DE", tmp_path / "b.wav", engine="piper")
    speech._play("Frau Weiß und Oberst von Gatow", "de-DE", 5.0)
    assert fed == [("espeak-ng", "Doktor Black"), ("piper", "Dr. Black"),
                   ("espeak-ng", "Frau Weiß und Oberst von Gato")]


def _phonemes(text: str, voice: str) -> str:
    done = subprocess.run(["espeak-ng", "-q", "-x", "-v", voice], input=text.encode(), capture_output=True,
                          timeout=10, check=True)
    return done.stdout.decode().strip()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(("text", "voice", "language", "before", "after"), [
    ("Dr. Black", "de", "de", "d,e:'Er", "d'Okto:r"),  # spelled "De Er" before
    ("Mrs. Peacock", "es", "es", ",eme,e", "m'isis"),  # spelled "eme erre ese" before
    ("Cluedo", "fr-fr", "fr", "kly@d'o", "klyed'o"),
    ("CLUE", "de", "de", "kl'y:", "kl'u:"),
    ("Cluedo", "de", "de", "kl'u:e:d,o:", "klu'e:do:"),
    ("Madame Curry", "de", "de-CH", "m'AdA:m@", "mad'am"),
])
def test_espeak_ng_says_the_replacement_differently(text: str, voice: str, language: str, before: str,
                                                    after: str) -> None:
    """Not how it sounds, which no test can hear: that the phonemes espeak-ng reads change as noted in the table."""
    assert before in _phonemes(text, voice)
    assert after in _phonemes(pronounce(text, language), voice)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_an_english_title_no_longer_ends_a_clause() -> None:
    assert "\n" in _phonemes("Mrs. White rolls 4.", "en-us")  # the full stop made a pause
    assert "\n" not in _phonemes(pronounce("Mrs. White rolls 4.", "en-US"), "en-us")
