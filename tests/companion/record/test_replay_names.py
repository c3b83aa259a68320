"""``replay --names``: a locale's other box of names, in the narration and in its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import main

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "classic-sample.jsonl"


def replay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_german_family_with_a_1990s_box_hears_its_own_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = replay(capsys, str(SAMPLE), "--narrate", "--locale", "de-DE", "--names", "1990s")
    assert code == 0
    assert "Fräulein Gloria" in out and "Oberst von Gatow" in out and "Fräulein Ming" not in out
    _, usual, _ = replay(capsys, str(SAMPLE), "--narrate", "--locale", "de-DE")
    assert "Fräulein Ming" in usual and "Fräulein Gloria" not in usual


def test_a_refusal_names_the_seat_from_the_box_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "refused.jsonl"
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()[:1] + ['{"type": "roll", "seat": "Mr. Green"}']
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused = replay(capsys, str(record), "--narrate", "--locale", "de-DE", "--names", "1990s")[1].splitlines()[-1]
    assert refused.startswith("Zeile 2 abgelehnt (unknown_seat): ") and "Reverend Grün" in refused


def test_an_unknown_box_is_one_line_naming_the_locales_boxes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(capsys, str(SAMPLE), "--narrate", "--locale", "es-ES", "--names", "1990s")
    assert code == 2 and out == ""
    assert err.strip() == "clue-companion: --names: unknown box of names '1990s' for es-ES; known: earlier, current"
