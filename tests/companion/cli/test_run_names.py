"""``run --names``: the box whose card names the table's locale uses, and ``--seats`` in those names.

Through the real CLI on a mock table; with ``--speech`` the mock logs each announcement as a ``say`` event,
which is how the narration's names are read here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    env.pop("CLUE_COMPANION_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--no-web", "--speech", "--script", "-",
         "--exit-after-script", *extra],
        input="press 1 ok\n", capture_output=True, text=True, timeout=60, env=env, check=False)


def said(done: subprocess.CompletedProcess[str]) -> list[str]:
    logs = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    return [line["text"] for line in logs if line["event"] == "say"]


def stored_house(tmp_path: Path) -> dict[str, object]:
    from companion.table.store import Store
    with Store(tmp_path / "games.db") as store:
        text = store.setting("house")
    found: dict[str, object] = json.loads(text) if text else {}
    return found


def test_the_1990s_german_box_seats_and_narrates_fraulein_gloria(tmp_path: Path) -> None:
    done = run(tmp_path, "--locale", "de-DE", "--names", "1990s",
               "--seats", "Fräulein Gloria,Oberst von Gatow,Frau Weiss")
    assert done.returncode == 0, done.stderr
    assert "seats Miss Scarlet, Colonel Mustard, Mrs. White" in done.stdout
    assert said(done) and said(done)[0] == "Fräulein Gloria ist am Zug"
    assert not any("Ming" in text for text in said(done))
    assert stored_house(tmp_path).get("names_variant") is None  # this run only, without --remember


def test_seats_may_be_any_unique_part_of_the_boxs_names_and_remember_keeps_the_box(tmp_path: Path) -> None:
    done = run(tmp_path, "--locale", "es-ES", "--names", "current", "--seats", "celeste,mora,amapola", "--remember")
    assert done.returncode == 0, done.stderr
    assert "seats Mrs. Peacock, Professor Plum, Miss Scarlet" in done.stdout
    assert "box of names current kept for later starts (--remember)" in done.stdout
    assert stored_house(tmp_path)["names_variant"] == "current"
    again = run(tmp_path, "--locale", "de-DE")  # a German run: the kept Spanish box is set aside, not lost
    assert again.returncode == 0, again.stderr
    assert said(again)[0] == "Fräulein Ming ist am Zug"
    assert stored_house(tmp_path)["names_variant"] == "current"


def test_an_unknown_box_is_one_line_listing_the_locales_boxes(tmp_path: Path) -> None:
    done = run(tmp_path, "--locale", "de-DE", "--names", "2010")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["clue-companion: --names: unknown box of names '2010' for de-DE; "
                                                "known: 1986, 1990s"]
    assert not (tmp_path / "games.db").exists()


def test_an_unknown_seat_lists_the_names_of_the_runs_locale_and_box(tmp_path: Path) -> None:
    done = run(tmp_path, "--locale", "de-DE", "--names", "1990s", "--seats", "gloria,gatow,Herr Nobody")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "clue-companion: --seats: unknown suspect 'Herr Nobody'; valid: Fräulein Gloria, Oberst von Gatow, "
        "Frau Weiß, Reverend Grün, Baronin von Porz, Professor Bloom"]
