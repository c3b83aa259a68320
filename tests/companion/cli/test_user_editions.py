"""User editions through the ``clue-companion`` command: export, import, list, corrections, --diff, replay, run --mock.

Each test runs the command as a subprocess with its own ``XDG_DATA_HOME``, so
the editions folder is ``<tmp>/clue-companion/editions`` as on a laptop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import main
from companion.rules.edition import EDITIONS_VARIABLE
from companion.rules.edition_files import files_of
from companion.rules.user_editions import save_files


def small_document() -> dict[str, Any]:
    """A 10 x 8 board on the Classic rules: three rooms, three suspects, a passage (as in test_edition_files)."""
    return {
        "id": "our_board", "name": "Our Board", "base": "classic", "players": {"min": 3, "max": 3},
        "cards": {"suspects": ["Ada", "Bo", "Cy"], "weapons": ["Rope", "Pan"], "rooms": ["Attic", "Barn", "Cellar"]},
        "map": {"rows": ["AAAA##BBBB", "AAAa..bBBB", "..........", "1...##...2",
                         "..........", "CCc....3..", "CCC.......", "CCC#######"],
                "hallway": ".", "void": "#", "rooms": {"A": "Attic", "B": "Barn", "C": "Cellar"},
                "starts": {"1": "Ada", "2": "Bo", "3": "Cy"}, "passages": [["Attic", "Cellar"]], "joins": []},
    }


def environment(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("CLUE_COMPANION_")}
    return {**env, "XDG_DATA_HOME": str(tmp_path / "data")}


def folder(tmp_path: Path) -> Path:
    return tmp_path / "data" / "clue-companion" / "editions"


def cli(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, check=False,
                          timeout=60, env=environment(tmp_path), input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def test_export_then_import_under_a_new_id_installs_a_new_edition(tmp_path: Path) -> None:
    exported = tmp_path / "classic.edition.toml"
    done = cli(tmp_path, "edition", "classic", "--export", str(exported))
    assert done.returncode == 0, done.stderr
    text = exported.read_text(encoding="utf-8").replace('id = "classic"', 'id = "family_classic"')
    (tmp_path / "family.toml").write_text(text.replace('name = "Classic CLUE"', 'name = "Family Classic"'))
    done = cli(tmp_path, "edition", "--import", str(tmp_path / "family.toml"))
    assert done.returncode == 0, done.stderr
    assert "installed family_classic (a new edition)" in done.stdout
    assert sorted(p.name for p in folder(tmp_path).iterdir()) == ["family_classic.toml", "family_classic.txt"]
    listing = cli(tmp_path, "edition").stdout.splitlines()
    assert "family_classic: Family Classic (yours)" in listing and "classic: Classic CLUE" in listing
    summary = cli(tmp_path, "edition", "family_classic")
    assert summary.returncode == 0 and summary.stdout.startswith("Family Classic (family_classic): 3-6 players")


@pytest.mark.parametrize(("content", "message"), [
    ("id = 3\n", "id must be 1 to 40"),
    ("this is not toml [\n", "not valid TOML"),
    ('id = "x"\n[board]\nmap = "x.txt"\n', "rows = [...]"),
])
def test_a_bad_file_is_refused_with_one_line_and_nothing_installed(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "bad.toml").write_text(content)
    done = cli(tmp_path, "edition", "--import", str(tmp_path / "bad.toml"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert not folder(tmp_path).exists()


def test_a_missing_or_huge_file_is_one_line(tmp_path: Path) -> None:
    missing = cli(tmp_path, "edition", "--import", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2 and missing.stderr.startswith("clue-companion: cannot read")
    (tmp_path / "big.toml").write_bytes(b"#" * (300 * 1024))
    huge = cli(tmp_path, "edition", "--import", str(tmp_path / "big.toml"))
    assert huge.returncode == 2 and "larger than 256 KiB" in huge.stderr and huge.stderr.count("\n") == 1


def test_a_correction_is_diffed_against_the_bundled_map(tmp_path: Path) -> None:
    none = cli(tmp_path, "board", "classic", "--diff")
    assert none.returncode == 0 and "no correction installed" in none.stdout
    exported = tmp_path / "classic.edition.toml"
    assert cli(tmp_path, "edition", "classic", "--export", str(exported)).returncode == 0
    lines = exported.read_text(encoding="utf-8").splitlines()
    row = lines.index('    "........BbBBBBbB.......#",')  # row 8 of the Classic map
    lines[row] = '    "#.......BbBBBBbB.......#",'
    exported.write_text("\n".join(lines) + "\n")
    done = cli(tmp_path, "edition", "--import", str(exported))
    assert "installed classic (a correction of the bundled edition)" in done.stdout, done.stderr
    diff = cli(tmp_path, "board", "classic", "--diff")
    assert diff.returncode == 0
    assert diff.stdout.splitlines()[1:] == ["  a8: hallway -> void"]
    assert "1 difference" in diff.stdout
    assert "classic: Classic CLUE (correction)" in cli(tmp_path, "edition").stdout
    checked = cli(tmp_path, "board", "check", str(folder(tmp_path) / "classic.txt"))
    assert checked.returncode == 0 and ": ok, " in checked.stdout


def test_a_user_edition_game_replays(tmp_path: Path) -> None:
    save_files(folder(tmp_path), files_of(small_document()))
    record = [
        {"type": "setup", "edition": "our_board", "seats": ["Ada", "Bo", "Cy"], "seed": 7},
        {"type": "roll", "seat": "Ada", "dice": [5]},
        {"type": "move", "seat": "Ada", "to": "Barn"},
        {"type": "move", "seat": "Ada", "to": "Attic"},
        {"type": "end_turn", "seat": "Ada"},
        {"type": "roll", "seat": "Bo", "dice": [2]},
        {"type": "move", "seat": "Bo", "to": "h4"},
    ]
    done = cli(tmp_path, "replay", "-", stdin="".join(json.dumps(line) + "\n" for line in record))
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [result["ok"] for result in results] == [True, True, False, True, True, True, True]
    assert results[2]["error"]["code"] == "illegal_move"
    assert results[0]["events"][0]["edition"] == "our_board"


def test_a_user_edition_is_unknown_where_it_is_not_installed(tmp_path: Path) -> None:
    setup = json.dumps({"type": "setup", "edition": "our_board", "seats": ["Ada", "Bo", "Cy"], "seed": 7})
    done = cli(tmp_path, "replay", "-", stdin=setup + "\n")
    assert done.returncode == 2 and "unknown edition 'our_board'" in done.stderr


def test_run_mock_plays_a_user_edition(tmp_path: Path) -> None:
    save_files(folder(tmp_path), files_of(small_document()))
    (tmp_path / "script.txt").write_text("press 1 ok\npress 1 ok\nstatus\n")  # roll; go to the first choice
    done = cli(tmp_path, "run", "--mock", "--new", "--edition", "our_board", "--no-web", "--seed", "1",
               "--script", str(tmp_path / "script.txt"), "--exit-after-script")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "new our_board game, seed 1, seats Ada, Bo, Cy" in done.stdout
    assert "In the Attic." in done.stdout and "turn: Ada (moved), dice [5]" in done.stdout


def test_main_leaves_the_environment_as_it_found_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(EDITIONS_VARIABLE, raising=False)
    monkeypatch.delenv("CLUE_COMPANION_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    save_files(folder(tmp_path), files_of(small_document()))
    assert main(["edition", "our_board"]) == 0
    assert capsys.readouterr().out.startswith("Our Board (our_board)")
    assert EDITIONS_VARIABLE not in os.environ


def test_the_store_given_on_the_command_line_chooses_the_editions_folder(tmp_path: Path) -> None:
    save_files(tmp_path / "elsewhere" / "editions", files_of(small_document()))
    env = {**environment(tmp_path), "CLUE_COMPANION_DB": str(tmp_path / "elsewhere" / "games.db")}
    done = subprocess.run([sys.executable, "-m", "companion.cli", "edition"], capture_output=True, text=True, check=False,
                          timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert "our_board: Our Board (yours)" in done.stdout.splitlines()
