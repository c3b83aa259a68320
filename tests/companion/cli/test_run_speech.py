"""``run --locale`` sets the table's language before anything starts; ``--speech`` announces the game.

With ``--mock`` the announcements are logged as ``say`` events, not played.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run(tmp_path: Path, script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "script.txt").write_text(script)
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    env.pop("CLUE_COMPANION_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--no-web", "--script",
         str(tmp_path / "script.txt"), "--exit-after-script", *extra],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL, check=False)


def said(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    logs = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    return [line for line in logs if line["event"] == "say"]


def test_with_speech_the_mock_logs_each_announcement_in_the_tables_language(tmp_path: Path) -> None:
    done = run(tmp_path, "press 1 ok\n", "--locale", "de-DE", "--speech")  # Miss Scarlet rolls on her handheld
    assert done.returncode == 0, done.stderr
    sentences = said(done)
    assert sentences and {line["language"] for line in sentences} == {"de-DE"}
    assert all(line["logger"] == "clue_companion.speech" and line["text"] for line in sentences)


def test_without_speech_nothing_is_said_and_a_remembered_locale_is_kept_for_the_next_start(tmp_path: Path) -> None:
    first = run(tmp_path, "press 1 ok\n", "--locale", "fr-FR", "--remember")
    assert first.returncode == 0, first.stderr
    assert said(first) == []
    again = run(tmp_path, "press 1 ok\n", "--speech")
    assert again.returncode == 0, again.stderr
    assert {line["language"] for line in said(again)} == {"fr-FR"}


def test_an_unknown_locale_is_one_line_and_exit_2_before_the_store_is_opened(tmp_path: Path) -> None:
    done = run(tmp_path, "", "--locale", "xx-YY")
    assert done.returncode == 2
    known = "en-US, en-GB, de-DE, de-CH, fr-FR, fr-CH, es-ES, nb-NO"
    assert done.stderr.strip().splitlines() == [f"clue-companion: --locale: unknown locale 'xx-YY'; known: {known}"]
    assert done.stdout == "" and not (tmp_path / "games.db").exists()
