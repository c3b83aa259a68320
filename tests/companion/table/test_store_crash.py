"""Pulling the plug: a game killed (SIGKILL) at a random moment resumes to exactly its committed state.

Each run starts ``crash_driver.py`` in a child process, playing a seeded random
game into a store, and kills it either after a random delay or right after it
reported a random "committed N". The store must then hold a prefix of the
uninterrupted game at least N actions long (nothing accepted is lost), resume
to the state that prefix replays to, and take the next action at the next
number, and no number twice (nothing is applied twice).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from crash_driver import seeded_game

from companion.rules.actions import Action, Setup
from companion.table.resume import replay_game, resume
from companion.table.store import Store, StoreError

ROOT = Path(__file__).resolve().parents[3]
DRIVER = Path(__file__).with_name("crash_driver.py")
EDITIONS = ("classic", "master_detective", "doctor_who", "big_bang_theory")
PLAY_ON = 5  # actions played after resuming
GAMES = (("classic", 1), ("classic", 2), ("classic", 3), ("master_detective", 1), ("master_detective", 2),
         ("doctor_who", 1), ("doctor_who", 2), ("doctor_who", 3), ("big_bang_theory", 1), ("big_bang_theory", 2))


@dataclass(frozen=True)
class Kill:
    """When to kill one run: ``delay`` seconds after the game is stored, or right after "committed ``line``"."""

    edition: str
    seed: int
    delay: float | None = None
    line: int | None = None
    early: bool = False  # count the delay from the start of the process, not from the stored game


@dataclass(frozen=True)
class Outcome:
    kill: Kill
    path: Path
    game: int | None  # the id the driver printed, if it got that far
    committed: int  # the last "committed N" read (0: none)


@cache
def uninterrupted(edition: str, seed: int) -> tuple[Setup, tuple[Action, ...]]:
    setup, actions = seeded_game(edition, seed)
    return setup, tuple(actions)


def kills() -> list[Kill]:
    """Two kills of each game (one timed, one after a commit), and two during start-up."""
    rand = random.Random(20240611)
    plan = [Kill("classic", 4, delay=rand.uniform(0.2, 0.5), early=True),
            Kill("doctor_who", 4, delay=rand.uniform(0.2, 0.5), early=True)]
    for edition, seed in GAMES:
        total = len(uninterrupted(edition, seed)[1])
        plan.append(Kill(edition, seed, delay=rand.uniform(0.0, 0.1)))
        plan.append(Kill(edition, seed, line=rand.randint(1, max(1, total - 10))))
    return plan


def run(kill: Kill, path: Path) -> Outcome:
    """Start the driver, kill it as planned, and read what it had reported."""
    command = [sys.executable, str(DRIVER), str(path), kill.edition, str(kill.seed)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env) as driver:
        assert driver.stdout is not None
        seen: list[str] = []
        if kill.early:
            time.sleep(kill.delay or 0.0)
        else:
            seen.append(driver.stdout.readline())  # "game N"
            if kill.line is not None:
                while seen[-1] and seen[-1].strip() != f"committed {kill.line}":
                    seen.append(driver.stdout.readline())
            else:
                time.sleep(kill.delay or 0.0)
        driver.send_signal(signal.SIGKILL)
        seen += driver.stdout.readlines()  # whatever it printed before it died
    words = [line.split() for line in seen if line.strip()]
    game = next((int(w[1]) for w in words if w[0] == "game"), None)
    committed = max((int(w[1]) for w in words if w[0] == "committed"), default=0)
    return Outcome(kill, path, game, committed)


def check(outcome: Outcome) -> bool:
    """Everything committed survived, once; True if the kill landed mid-game."""
    setup, full = uninterrupted(outcome.kill.edition, outcome.kill.seed)
    with Store(outcome.path) as store:
        games = store.games()
        if outcome.game is None and not games:
            return False  # killed before the game was stored: nothing was accepted
        assert [game.id for game in games] == [outcome.game or games[0].id]
        game_id = games[0].id
        stored_setup, actions, _ = store.load(game_id)
        done = len(actions)
        assert stored_setup == setup
        assert tuple(actions) == full[:done], "the stored actions are not the game's own, in order"
        assert done >= outcome.committed, f"{outcome.committed} were reported committed, {done} survived"
        assert resume(store, game_id) == replay_game(setup, full[:done])
        if games[0].status == "finished":
            assert done == len(full)
            return False
        play_on(store, game_id, done, setup, full)
    return 0 < done < len(full)


def play_on(store: Store, game_id: int, done: int, setup: Setup, full: tuple[Action, ...]) -> None:
    """After resuming, the game goes on at the next number, as the uninterrupted one did."""
    if done > 0:
        with pytest.raises(StoreError, match=f"next must be number {done + 1}, not {done}"):
            store.append(game_id, done, full[done - 1])
    more = min(len(full), done + PLAY_ON)
    for number in range(done + 1, more + 1):
        store.append(game_id, number, full[number - 1])
    assert resume(store, game_id) == replay_game(setup, full[:more])
    assert store.game(game_id).actions == more


def test_a_killed_game_resumes_with_every_committed_action_once(tmp_path: Path) -> None:
    plan = kills()
    with ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 1))) as pool:
        outcomes = list(pool.map(lambda item: run(item[1], tmp_path / f"kill{item[0]}.db"), enumerate(plan)))
    mid_game = [outcome for outcome in outcomes if check(outcome)]
    assert len(outcomes) >= 20
    # The kills after a "committed N" line always land mid-game; timed ones mostly do.
    assert len(mid_game) >= len(GAMES)
    assert {outcome.kill.edition for outcome in mid_game} == set(EDITIONS)
