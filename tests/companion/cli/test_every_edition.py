"""Every edition on the mock rig: a game opened, rolled and moved, resumed, and opened from the host page.

Master Detective's weapons wait off the board, and the other boards have rooms Classic has not;
the rig, ``run --mock`` and the host page must take each edition's own board.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli.mock_table import MockTable
from companion.rules.edition import bundled_ids, load_edition
from companion.table.store import Store
from hardware.hardware_config import EXAMPLE_CONFIG, HardwareConfig, load_hardware_config
from web import create_app

EDITIONS = bundled_ids()
PIN = "24681357"
WAIT = 20.0  # seconds: generous, for a busy two-core machine
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def seats_of(edition: str) -> tuple[str, ...]:
    return load_edition(edition).deck.suspects[:4]


def wait_screen(rig: MockTable, seat: str, words: str, timeout: float = WAIT) -> None:
    """Wait for a handheld to draw ``words`` (its render thread draws each new view a moment later)."""
    deadline = time.monotonic() + timeout
    while words not in rig.handhelds[seat].text():
        assert time.monotonic() < deadline, f"{seat}'s handheld never showed {words!r}:\n{rig.handhelds[seat].text()}"
        time.sleep(0.01)


def roll_and_move(rig: MockTable) -> tuple[str, str]:
    """The seat on turn rolls on its handheld and moves: its mover onto a reader if one is in reach,
    else the handheld's first choice (a hallway square without a reader is not sensed). (seat, place)."""
    seat = rig.view()["turn"]
    wait_screen(rig, seat, "[Your turn]")
    rig.press(seat, "ok")  # Roll dice
    view = rig.wait_for(lambda v: v.get("phase") == "moving" and bool(v.get("legal_destinations")), seat, WAIT)
    zones = rig.zones
    assert zones is not None
    sensed = [place for place in view["legal_destinations"] if zones.readers_for(place)]
    if sensed:
        assert rig.move(seat, sensed[0])
        place = sensed[0]
    else:
        wait_screen(rig, seat, "where to?")
        place = rig.handhelds[seat].text().split("> ", 1)[1].splitlines()[0]
        rig.press(seat, "ok")
    rig.wait_for(lambda v: v["position"][seat] == place and v.get("phase") != "moving", seat, WAIT)
    return seat, place


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_edition_is_rolled_moved_and_resumed_on_the_mock_rig(tmp_path: Path, edition: str) -> None:
    with Store(tmp_path / "games.db").open() as store:
        with MockTable(store) as rig:  # the rig's own config: the default zones of the edition played
            opened = rig.new_game(edition, seats_of(edition), seed=1)
            assert opened.ok, opened.error
            assert rig.start().ok
            assert rig.wait_for(lambda v: v["board"]["differences"] == [], timeout=WAIT)["stage"] == "playing"
            seat, place = roll_and_move(rig)
            before = rig.view(seat)
            game_id = before["game_id"]
        assert store.unfinished()[0].actions == 2  # the roll and the move
        with MockTable(store) as rig:  # a restart: the stored game, its pieces laid out again
            resumed = rig.resume(game_id)
            assert resumed.ok, resumed.error
            after = rig.wait_for(lambda v: v["board"]["differences"] == [], seat, WAIT)
            assert (after["turn"], after["phase"], after["position"][seat]) == (seat, before["phase"], place)
            assert (after["position"], after["weapons"]) == (before["position"], before["weapons"])


# ---- the host page -------------------------------------------------------------------------------


# The rig as ``run --mock`` makes it (the example's handhelds, no zones), and with no config at all.
RUN_MOCK_CONFIG = replace(load_hardware_config(EXAMPLE_CONFIG), board_port=None, store=None, zones={})


@pytest.mark.parametrize("config", [RUN_MOCK_CONFIG, None], ids=["as-run-mock", "no-config"])
def test_the_host_page_opens_and_starts_a_game_of_every_edition_on_the_mock_rig(
        tmp_path: Path, config: HardwareConfig | None) -> None:
    with Store(tmp_path / "games.db").open() as store, MockTable(store, config=config) as rig:
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "TESTING": True})
        client = app.test_client()
        csrf = CSRF_META.search(client.get("/host").get_data(as_text=True))
        assert csrf, "the host page has no CSRF token"
        headers = {"X-CSRF-Token": csrf.group(1)}
        assert client.post("/host/login", json={"pin": PIN}, headers=headers).status_code == 200
        # One after another on the same rig, as a host would, and back to the first: Master Detective's
        # ten movers must not be left on readers that are seat pads on the next board.
        for edition in (*EDITIONS, EDITIONS[0]):
            body = {"edition": edition, "seats": list(seats_of(edition))}
            answer = client.post("/api/host/new", json=body, headers=headers)
            assert answer.status_code == 200, (edition, answer.get_json())
            started = client.post("/api/host/start", json={}, headers=headers)
            assert started.status_code == 200, (edition, started.get_json())
            view = rig.wait_for(lambda v: v.get("stage") == "playing" and v["board"]["differences"] == [],
                                timeout=WAIT)
            assert view["edition"] == edition
            assert client.post("/api/host/end", json={}, headers=headers).status_code == 200


# ---- run --mock ------------------------------------------------------------------------------------


def run_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "CLUE_COMPANION_DB": str(tmp_path / "games.db")}


@pytest.mark.parametrize("edition", EDITIONS)
def test_run_mock_starts_every_edition_with_its_own_suspects(tmp_path: Path, edition: str) -> None:
    (tmp_path / "script.txt").write_text("status\n")
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--new", "--edition", edition, "--port", "0",
         "--host", "127.0.0.1", "--script", str(tmp_path / "script.txt"), "--exit-after-script"],
        capture_output=True, text=True, timeout=60, env=run_env(tmp_path), stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"new {edition} game, seed 1, seats {', '.join(seats_of(edition))}" in done.stdout
    assert "stage: playing   board link: up" in done.stdout and "board differs" not in done.stdout


class Companion:
    """``run --mock`` with its console on a pipe: type a line, read what it prints (bounded in time)."""

    def __init__(self, tmp_path: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--mock", "--no-console", "--port", "0",
             "--host", "127.0.0.1", "--script", "-", *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env=run_env(tmp_path))
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, test: Callable[[str], bool], timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no such line in time; read:\n" + "\n".join(seen)) from None
            assert line is not None, "the companion stopped early; read:\n" + "\n".join(seen)
            seen.append(line)
            if test(line):
                return line

    def ask(self, command: str) -> list[str]:
        """What ``command`` prints: the console answers the made-up ``over`` next, which ends it."""
        self.type(command)
        self.type("over")
        said: list[str] = []
        while (line := self.read_until(lambda _: True)) != "? unknown command 'over': try help":
            said.append(line)
        return said

    def poll(self, command: str, test: Callable[[str], bool], timeout: float = 20.0) -> str:
        """Repeat ``command`` until a line it prints passes ``test`` (the table acts a moment later)."""
        deadline = time.monotonic() + timeout
        while True:
            said = self.ask(command)
            found = next((line for line in said if test(line)), None)
            if found is not None:
                return found
            assert time.monotonic() < deadline, f"{command!r} never printed the line wanted; last:\n" + "\n".join(said)
            time.sleep(0.1)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=20)


@pytest.fixture
def companions() -> Iterator[list[Companion]]:
    started: list[Companion] = []
    yield started
    for companion in started:
        if companion.process.poll() is None:
            companion.kill()
        for stream in (companion.process.stdin, companion.process.stdout):
            if stream is not None:
                stream.close()


def turn_of(line: str) -> tuple[str, str]:
    found = re.match(r"turn: (.+) \((\w+)\)", line)
    assert found, line
    return found.group(1), found.group(2)


def test_a_master_detective_game_killed_mid_turn_is_resumed(tmp_path: Path, companions: list[Companion]) -> None:
    companion = Companion(tmp_path, "--new", "--edition", "master_detective")
    companions.append(companion)
    companion.read_until(lambda line: line.startswith("clue-companion: new master_detective game"))
    seat, _ = turn_of(companion.poll("status", lambda line: line.startswith("turn: ")))
    companion.poll(f"screen {seat}", lambda line: line == "[Your turn]")  # drawn a moment after the table has it
    companion.ask(f"press {seat} ok")  # Roll dice
    reach = companion.poll("status", lambda line: line.startswith("may move to: "))
    rooms = [place for place in reach.removeprefix("may move to: ").split(", ") if not re.fullmatch(r"[a-z]\d+", place)]
    assert rooms, reach  # two dice from the Cloakroom, in the middle of the board, reach a room
    companion.ask(f"move {seat} {rooms[0]}")
    moved = companion.poll("status", lambda line: line.startswith("turn: ") and "(moving)" not in line)
    companion.kill()  # a power cut: no clean shutdown
    assert companion.process.returncode == -signal.SIGKILL

    (tmp_path / "status.txt").write_text("status\n")
    again = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--resume", "--port", "0", "--host", "127.0.0.1",
         "--script", str(tmp_path / "status.txt"), "--exit-after-script"],
        capture_output=True, text=True, timeout=60, env=run_env(tmp_path), stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "resumed game 1 (master_detective, 2 actions)" in again.stdout
    assert moved in again.stdout.splitlines() and turn_of(moved)[0] == seat
    assert "board differs" not in again.stdout and "BOARD:" not in again.stdout
