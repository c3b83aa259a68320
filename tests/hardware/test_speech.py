"""Speech: espeak-ng writes WAVs in the table's language, text on stdin; the Speaker never makes anyone wait.

These tests need espeak-ng installed (Debian package ``espeak-ng``), as CI has it.
"""

from __future__ import annotations

import logging
import shutil
import stat
import threading
import time
import wave
from pathlib import Path

import pytest

from companion.language import LOCALES
from hardware import speech
from hardware.speech import MockSpeaker, Speaker, SpeechError, choose_voice, feed, voice_for, write_wav

CAT = shutil.which("cat")  # the fake engines run with only their own folder on the PATH


def seconds(path: Path) -> float:
    with wave.open(str(path)) as wav:
        return float(wav.getnframes() / wav.getframerate())


def fake_program(folder: Path, name: str, body: str) -> Path:
    """A shell script named ``name`` in ``folder`` (put on the PATH to stand in for an engine)."""
    program = folder / name
    program.write_text("#!/bin/sh\n" + body)
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def test_write_wav_speaks_english_and_german_into_different_valid_wavs(tmp_path: Path) -> None:
    english, german = tmp_path / "en.wav", tmp_path / "de.wav"
    write_wav("Colonel Mustard shows Miss Scarlet a card.", "en-GB", english)
    write_wav("Oberst von Gatow zeigt Fräulein Gloria eine Karte.", "de-DE", german)
    for path in (english, german):
        head = path.read_bytes()[:12]
        assert head[:4] == b"RIFF" and head[8:12] == b"WAVE"
        assert seconds(path) > 0.3
    assert english.read_bytes() != german.read_bytes()


def test_the_same_text_sounds_different_in_another_voice(tmp_path: Path) -> None:
    write_wav("Mrs. White", "en-US", tmp_path / "us.wav")
    write_wav("Mrs. White", "fr-FR", tmp_path / "fr.wav")
    assert (tmp_path / "us.wav").read_bytes() != (tmp_path / "fr.wav").read_bytes()


def test_every_locale_of_the_table_has_an_installed_espeak_voice() -> None:
    import subprocess

    listed = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True, check=True).stdout
    installed = {line.split()[1] for line in listed.splitlines()[1:] if line.split()}
    for tag in LOCALES:
        assert voice_for(tag) in installed, tag


def test_voices_follow_the_locale_then_the_language() -> None:
    assert [voice_for(tag) for tag in ("en-US", "en-GB", "de-CH", "fr-FR", "fr-CH", "es-ES", "nb-NO", "de")] == \
        ["en-us", "en-gb", "de", "fr-fr", "fr-ch", "es", "nb", "de"]
    with pytest.raises(SpeechError, match="no voice for the language 'xx-YY'"):
        voice_for("xx-YY")


def test_the_text_goes_to_espeak_on_stdin_never_on_its_command_line(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fake_program(tmp_path, "espeak-ng", f'echo "$@" > {tmp_path}/argv\n{CAT} > {tmp_path}/stdin\n')
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(speech.PIPER_VOICES, raising=False)
    write_wav("-v xx; rm -rf / Miss Scarlet", "en-GB", tmp_path / "out.wav")
    assert (tmp_path / "argv").read_text().split() == ["-v", "en-gb", "-w", str(tmp_path / "out.wav")]
    assert (tmp_path / "stdin").read_text() == "-v xx; rm -rf / Miss Scarlet"


def test_without_espeak_the_error_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no espeak-ng, no piper
    with pytest.raises(SpeechError, match="espeak-ng is not installed: sudo apt install espeak-ng") as caught:
        write_wav("Miss Scarlet rolls 4.", "en-US", tmp_path / "out.wav")
    assert caught.value.code == "speech"
    assert not (tmp_path / "out.wav").exists()


def test_a_failing_engine_is_a_speech_error_with_its_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_program(tmp_path, "espeak-ng", "echo 'no audio device' >&2\nexit 3\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SpeechError, match="espeak-ng failed: no audio device"):
        write_wav("Miss Scarlet rolls 4.", "en-US", tmp_path / "out.wav")


def test_piper_is_used_when_its_binary_and_a_voice_for_the_locale_are_there(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir, voices = tmp_path / "bin", tmp_path / "voices"
    bin_dir.mkdir()
    voices.mkdir()
    fake_program(bin_dir, "piper", f'echo "$@" > {tmp_path}/argv\n{CAT} > {tmp_path}/stdin\n')
    fake_program(bin_dir, "espeak-ng", "exit 9\n")
    (voices / "de_DE-thorsten-medium.onnx").write_bytes(b"")
    (voices / "en_US-amy-low.onnx").write_bytes(b"")
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv(speech.PIPER_VOICES, str(voices))
    assert choose_voice("de-CH").model == voices / "de_DE-thorsten-medium.onnx"  # the language's, lacking de_CH
    write_wav("Oberst von Gatow würfelt.", "de-DE", tmp_path / "out.wav")
    assert (tmp_path / "argv").read_text().split() == [
        "--model", str(voices / "de_DE-thorsten-medium.onnx"), "--output_file", str(tmp_path / "out.wav")]
    assert (tmp_path / "stdin").read_text() == "Oberst von Gatow würfelt."
    # No French model: espeak-ng; forced to Piper: a clear error.
    assert choose_voice("fr-FR").engine == "espeak-ng"
    with pytest.raises(SpeechError, match="Piper needs"):
        choose_voice("fr-FR", "piper")
    assert choose_voice("de-DE", "espeak-ng").engine == "espeak-ng"


def test_a_sentence_that_takes_too_long_is_killed(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(SpeechError, match="sleep took longer than 0.3 s"):
        feed(["sleep", "10"], "Miss Scarlet", 0.3)
    assert time.monotonic() - started < 2


def test_say_never_waits_and_a_full_queue_drops_its_oldest_sentence() -> None:
    release = threading.Event()
    spoken: list[str] = []

    def play(text: str, language: str, timeout: float) -> None:
        release.wait(5)  # a speaker stuck on its first sentence
        spoken.append(text)

    with Speaker(play, queue_size=2) as speaker:
        started = time.monotonic()
        for number in range(10):
            speaker.say(f"sentence {number}", "en-US")
            if number == 0:
                time.sleep(0.05)  # the worker takes sentence 0 and sticks there
        assert time.monotonic() - started < 2.5  # a caller held by the stuck speaker would wait its 5 s
        release.set()
        deadline = time.monotonic() + 5
        while len(spoken) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert spoken == ["sentence 0", "sentence 8", "sentence 9"]
    assert speaker.dropped == 7


def test_a_speaker_that_cannot_speak_logs_once_and_carries_on(caplog: pytest.LogCaptureFixture) -> None:
    def play(text: str, language: str, timeout: float) -> None:
        raise SpeechError("espeak-ng failed: {why}", why="no audio device")

    with caplog.at_level(logging.WARNING, logger="hardware.speech"), Speaker(play) as speaker:
        for number in range(3):
            speaker.say(f"sentence {number}", "en-US")
            time.sleep(0.05)
        deadline = time.monotonic() + 2
        while speaker.spoken < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert speaker.spoken == 3
    assert [record.getMessage() for record in caplog.records] == ["speech_failed"]


def test_the_real_speaker_runs_espeak_off_the_callers_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine without an audio device espeak-ng fails; the Speaker only logs it.

    The real espeak-ng runs; the test notes the thread that starts it (espeak-ng takes about as long as
    a thread switch on a busy machine, so a stopwatch could not tell the two apart)."""
    run, threads = speech.subprocess.run, []

    def noted(*args: object, **kwargs: object) -> object:
        threads.append(threading.current_thread())
        return run(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(speech.subprocess, "run", noted)
    with Speaker(timeout=5) as speaker:
        speaker.say("Miss Scarlet's turn.", "en-GB")
        deadline = time.monotonic() + 6
        while speaker.spoken < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert speaker.spoken == 1
    assert threads and threading.current_thread() not in threads


def test_the_mock_speaker_records_each_sentence_and_its_language() -> None:
    speaker = MockSpeaker()
    speaker.say("Miss Scarlet rolls 4.", "en-GB")
    speaker.say("Fräulein Gloria würfelt 4.", "de-DE")
    assert speaker.said == [("Miss Scarlet rolls 4.", "en-GB"), ("Fräulein Gloria würfelt 4.", "de-DE")]
