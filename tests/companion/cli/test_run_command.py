"""``clue-companion run --mock``: the whole companion on mock hardware, driven by a console script."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path


def run(tmp_path: Path, script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "script.txt").write_text(script)
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--script", str(tmp_path / "script.txt"),
         "--exit-after-script", "--port", "0", *extra],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)


def test_a_seeded_game_starts_and_is_played_from_the_console(tmp_path: Path) -> None:
    done = run(tmp_path, "status\nscreen 1\npress 1 ok\nstatus\nmove scarlet lounge\nstatus\n", "--new")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "new classic game, seed 1" in out
    assert "stage: playing   board link: up" in out
    assert "[Miss Scarlet]\n[Your turn]" in out  # her handheld's screen, as text
    assert "turn: Miss Scarlet (moving), dice [" in out
    logs = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    events = [line["event"] for line in logs]
    assert "game_started" in events and "action" in events
    assert all({"t", "level", "event"} <= line.keys() for line in logs)


def test_an_unfinished_game_is_resumed_to_where_it_was(tmp_path: Path) -> None:
    first = run(tmp_path, "press 1 ok\n", "--new")
    assert first.returncode == 0, first.stderr
    again = run(tmp_path, "status\n")  # not a terminal: an unfinished game is resumed without asking
    assert again.returncode == 0, again.stderr
    assert "resumed game 1 (classic, 1 actions)" in again.stdout
    assert "turn: Miss Scarlet (moving)" in again.stdout
    assert "The board matches the game." in again.stdout or "board differs" not in again.stdout


def test_console_mistakes_are_answered_not_raised(tmp_path: Path) -> None:
    done = run(tmp_path, "fly away\nmove nobody lounge\npress 9 ok\npng\n", "--new")
    assert done.returncode == 0, done.stderr
    assert "? unknown command 'fly'" in done.stdout
    assert done.stdout.count("? ") == 4 and "Traceback" not in done.stdout + done.stderr


def test_screens_are_saved_as_png(tmp_path: Path) -> None:
    done = run(tmp_path, f"png {tmp_path / 'shots'}\n", "--new")
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (tmp_path / "shots").iterdir()) == [f"seat-{n}.png" for n in range(1, 5)]


def test_a_bad_edition_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run(tmp_path, "", "--new", "--edition", "cluedo-deluxe")
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].startswith("clue-companion: ")


def test_the_web_page_is_served_with_its_address_pin_and_join_urls(tmp_path: Path) -> None:
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    with subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-console", "--new", "--port", "0",
         "--host", "127.0.0.1", "--pin", "246813"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, stdin=subprocess.DEVNULL,
    ) as companion:
        try:
            out = _read_until(companion, "clue-companion: join Mr. Green")
            url = re.search(r"web page on (http://127.0.0.1:\d+)", out)
            assert url and f"host PIN in {tmp_path / 'host-pin'}" in out and "246813" not in out
            with urllib.request.urlopen(url.group(1) + "/api/table", timeout=10) as answer:
                view = json.load(answer)
            assert view["stage"] == "playing" and view["hand"] == [] and view["solution"] is None
            joins = re.findall(r"join (.+?): (http://\S+/j/[\w-]{22})$", out, re.MULTILINE)
            assert [seat for seat, _ in joins] == ["Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green"]
        finally:
            companion.send_signal(signal.SIGTERM)
            companion.wait(timeout=20)
    assert companion.returncode == 0


def _read_until(process: subprocess.Popen[str], start: str) -> str:
    """The process's output up to and including the first line starting with ``start``."""
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith(start):
        line = process.stdout.readline()
        assert line, "the companion stopped early:\n" + "".join(lines)
        lines.append(line)
    return "".join(lines)


def _join_urls(tmp_path: Path, *extra: str) -> dict[str, str]:
    """Each seat's join URL as ``run --mock`` printed it, then the companion stopped."""
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    with subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-console", "--port", "0",
         "--host", "127.0.0.1", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, stdin=subprocess.DEVNULL,
    ) as companion:
        try:
            out = _read_until(companion, "clue-companion: join Mr. Green")
        finally:
            companion.send_signal(signal.SIGTERM)
            companion.wait(timeout=20)
    return dict(re.findall(r"join (.+?): http://\S+/j/([\w-]{22})$", out, re.MULTILINE))


def test_a_new_game_issues_new_join_urls_unless_the_phones_are_kept(tmp_path: Path) -> None:
    first = _join_urls(tmp_path, "--new")
    restarted = _join_urls(tmp_path, "--resume")  # the same game after a restart: its phones stay joined
    assert restarted == first
    second = _join_urls(tmp_path, "--new")  # last game's phones are not this game's players
    assert len(second) == 4 and not set(second.values()) & set(first.values())
    kept = _join_urls(tmp_path, "--new", "--keep-phones")
    assert kept == second


def test_a_second_companion_on_the_same_store_exits_2_naming_the_first(tmp_path: Path) -> None:
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    with subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-console", "--new", "--port", "0",
         "--host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, stdin=subprocess.DEVNULL,
    ) as first:
        try:
            _read_until(first, "clue-companion: join Mr. Green")
            for command in (["run", "--mock", "--no-console", "--port", "0"], ["enroll", "--list"]):
                second = subprocess.run([sys.executable, "-m", "companion.cli", *command], capture_output=True,
                                        text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
                assert second.returncode == 2, second.stderr
                assert second.stderr.strip().splitlines()[-1] == (
                    f"clue-companion: the store {tmp_path / 'games.db'} is in use by process {first.pid}")
        finally:
            first.send_signal(signal.SIGTERM)
            first.wait(timeout=20)
    assert first.returncode == 0
