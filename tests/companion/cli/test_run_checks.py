"""``run`` checks seats, edition, options and config before it opens the store or serves the web page."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``run --mock`` on a store in ``tmp_path`` and a given port; it stops once its empty script has run."""
    (tmp_path / "script.txt").write_text("")
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    env.pop("CLUE_COMPANION_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--host", "127.0.0.1",
         "--script", str(tmp_path / "script.txt"), "--exit-after-script", *extra],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("extra, said", [
    (["--seats", "Miss Scarlet,Nobody,Mr. Green"], "--seats: unknown suspect 'Nobody'; valid: Miss Scarlet, "),
    (["--seats", "Miss Scarlet,Mr. Green,miss scarlet"], "--seats: a suspect is seated twice: Miss Scarlet, Mr. Green, "
                                                "Miss Scarlet"),
    (["--seats", "Miss Scarlet"], "--seats: Classic CLUE is for 3 to 6 players, not 1"),
    (["--seats", "scarlet,mrs,plum"], "--seats: 'mrs' could be Mrs. White or Mrs. Peacock: type more of the name"),
    (["--edition", "cluedo-deluxe"], "cluedo-deluxe"),
    (["--seed", "-1"], "--seed must be 0 or more, not -1"),
    (["--port", "70000"], "--port must be from 0 to 65535, not 70000"),
])
def test_a_bad_start_is_one_line_and_exit_2_with_no_store_and_no_web_page(tmp_path, extra, said):
    port = free_port()
    done = run(tmp_path, "--port", str(port), *extra) if "--port" not in extra else run(tmp_path, *extra)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clue-companion: ") and said in lines[0], done.stderr
    assert done.stdout == ""  # no "store ..." line, no "web page on ..."
    assert sorted(path.name for path in tmp_path.iterdir()) == ["script.txt"]  # no store, no lock file
    with socket.socket() as probe:  # and nothing left on the port
        probe.bind(("127.0.0.1", port))


def test_a_bad_config_pin_is_refused_without_repeating_it(tmp_path):
    config = tmp_path / "clue.toml"
    config.write_text('[web]\npin = "1234"\n')
    done = run(tmp_path, "--port", "0", "--config", str(config))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"clue-companion: {config}: web.pin: the host PIN must be 6 to 12 digits."]
    assert not (tmp_path / "games.db").exists()


def test_seats_may_be_any_unique_part_of_a_name_as_at_the_console(tmp_path):
    done = run(tmp_path, "--port", "0", "--no-web", "--seats", "scarlet,col mustard,white")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "seats Miss Scarlet, Colonel Mustard, Mrs. White" in done.stdout


def test_a_good_seat_list_in_any_spelling_starts_the_game(tmp_path):
    done = run(tmp_path, "--port", "0", "--no-web", "--seats", "miss scarlet, Mr Green ,MRS. PEACOCK")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "seats Miss Scarlet, Mr. Green, Mrs. Peacock" in done.stdout
    assert done.stdout.splitlines()[0] == (
        f"clue-companion: store {tmp_path / 'games.db'} (from $CLUE_COMPANION_DB)")


def test_a_bad_mdns_name_in_the_config_is_refused_before_anything_opens(tmp_path):
    config = tmp_path / "clue.toml"
    config.write_text('[web]\nname = "our kitchen"\n')
    done = run(tmp_path, "--port", "0", "--config", str(config))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{config}: web.name: mDNS name 'our kitchen'" in lines[0], done.stderr
    assert not (tmp_path / "games.db").exists()


def test_the_page_is_announced_under_the_configured_name_when_served_on_every_interface(tmp_path):
    config = tmp_path / "clue.toml"
    config.write_text('[web]\nname = "kitchen"\n')
    (tmp_path / "script.txt").write_text("")
    env = {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--port", "0", "--config", str(config),
         "--script", str(tmp_path / "script.txt"), "--exit-after-script"],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    page = next(line for line in done.stdout.splitlines() if "web page on" in line)
    assert "phones may also open http://kitchen.local:" in page and "127.0.0.1" not in page


def test_no_bonus_cards_is_refused_for_an_edition_without_any(tmp_path):
    done = run(tmp_path, "--port", "0", "--no-web", "--no-bonus-cards")
    assert done.returncode == 2
    assert "--no-bonus-cards: Classic CLUE has no bonus cards to leave out" in done.stderr
    assert not (tmp_path / "games.db").exists()


def test_no_bonus_cards_leaves_the_sheldon_cards_in_the_box_and_the_record_says_so(tmp_path):
    done = run(tmp_path, "--port", "0", "--no-web", "--edition", "big_bang_theory", "--no-bonus-cards")
    assert done.returncode == 0, done.stderr[-2000:]
    from companion.table.store import Store

    with Store(tmp_path / "games.db", exclusive=False) as store:
        setup, _, _ = store.load(store.games()[-1].id)
    assert setup.edition == "big_bang_theory" and setup.bonus_cards is False
