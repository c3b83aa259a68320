"""A whole 10-player Master Detective game on the web page: bytes per action per stream, push latency, memory.

Run with ``python benchmarks/game_streams.py`` (``--quick``: a 6-player game).
It builds the companion in this process as ``run`` does (a session over a
SQLite store, the Flask app served by waitress on 127.0.0.1) with the host's
assistant on "probabilities", and plays a random legal game to its end through
the session, one action every ``--pace`` seconds. Seven SSE streams (four
seats' ``/events/seat`` and three ``/events/table``) are read over real
sockets by a second process, so the readers do not share the companion's
interpreter. For every action it measures the time from just before the action
until each stream has a view whose record has grown (both processes read the
same monotonic clock), and it counts every byte each stream receives. RSS is
the companion's process, sampled after every action.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.cli.run import SWITCH_INTERVAL  # noqa: E402
from companion.deduction.playout import choose  # noqa: E402
from companion.rules.actions import Roll  # noqa: E402
from companion.rules.edition import load_edition  # noqa: E402
from companion.table.commands import NewGame, Play, StartGame  # noqa: E402
from companion.table.session import Session  # noqa: E402
from companion.table.store import Store  # noqa: E402
from companion.table.table import Table  # noqa: E402
from web import create_app  # noqa: E402
from web.deltas import apply  # noqa: E402
from web.serve import WebServer  # noqa: E402

PIN = "24682468"
BYTES_TARGET, RSS_TARGET_MB, P99_TARGET_MS = 10 * 1024, 80.0, 50.0
SEAT_STREAMS, TABLE_STREAMS = 4, 3


@dataclass
class Reader:
    """One SSE client on its own socket: bytes received, and when each record length first arrived."""

    label: str
    path: str
    cookie: str | None = None
    bytes: int = 0
    arrivals: dict[int, float] = field(default_factory=dict)  # record length -> first arrival
    ready: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, port: int, stop: threading.Event) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", self.path, headers={"Cookie": self.cookie} if self.cookie else {})
        response = connection.getresponse()
        event, view = "", None
        while not stop.is_set():
            line = response.fp.readline()
            if not line:
                return
            with self.lock:
                self.bytes += len(line)
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: ") and event in ("view", "delta"):
                data = json.loads(text[6:])
                view = data if event == "view" or view is None else apply(view, data)
                with self.lock:
                    self.arrivals.setdefault(len(view.get("record") or []), time.monotonic())
                self.ready.set()


def read_streams(port: int, streams: list[tuple[str, str, str | None]], ready: Any, stop: Any, results: Any) -> None:
    """The child process: read every stream until told to stop, then send back bytes and arrivals."""
    readers = [Reader(label, path, cookie) for label, path, cookie in streams]
    done = threading.Event()
    for reader in readers:
        threading.Thread(target=reader.run, args=(port, done), daemon=True).start()
    if all(reader.ready.wait(10) for reader in readers):
        ready.set()
    stop.wait()
    done.set()
    results.put([(reader.label, reader.bytes, dict(reader.arrivals)) for reader in readers])


def join(port: int, url: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", url[url.index("/j/"):])
    response = connection.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie") or ""
    return cookie.split(";", 1)[0]


def play_game(session: Session, seed: int, pace: float) -> tuple[list[tuple[float, int]], list[float]]:
    """Every action to the game's end, one per ``pace`` seconds: (start, record length after), RSS samples (MB)."""
    rand, process = random.Random(seed), psutil.Process()
    played: list[tuple[float, int]] = []
    rss = [process.memory_info().rss / 2**20]
    while True:
        state = session.inspect(lambda table: table.state)
        if state is None or state.over:
            return played, rss
        action = choose(rand, state)
        if isinstance(action, Roll) and action.dice is None:  # real dice: the player says what was rolled
            action = Roll(action.seat, tuple(rand.randint(1, 6) for _ in range(state.edition.dice)))
        start = time.monotonic()
        outcome = session.call(Play(action.seat, action))
        if not outcome.ok:
            raise SystemExit(f"{action} refused: {outcome.error}")
        played.append((start, session.inspect(lambda table: len(table.state.log))))
        rss.append(process.memory_info().rss / 2**20)
        time.sleep(max(0.0, start + pace - time.monotonic()))


def latencies_of(played: list[tuple[float, int]], arrivals: dict[str, dict[int, float]]) -> list[float]:
    """For every action and stream, milliseconds from the action to the first view that carries it."""
    found = []
    for start, records in played:
        for label, arrived in arrivals.items():
            at = next((at for length, at in arrived.items() if length >= records and at >= start), None)
            if at is None:
                raise SystemExit(f"{label} never got the view after the action at record length {records}")
            found.append((at - start) * 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a 6-player game")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between actions (default 0.25)")
    args = parser.parse_args()
    measure_game(6 if args.quick else 10, args.seed, args.pace)


def measure_game(players: int, seed: int = 5, pace: float = 0.25) -> None:
    """Play the whole game, then print the table (benchmarks/abuse.py calls this too)."""
    sys.setswitchinterval(SWITCH_INTERVAL)  # as ``run`` does: a woken thread gets the interpreter sooner
    edition = load_edition("master_detective")
    seats = edition.deck.suspects[:players]
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.db") as store, \
            Session(Table(store=store, seed_source=lambda: seed)) as session:
        app = create_app(session, {"HOST_PIN": PIN})
        web = app.extensions["clue"]
        # Physical dice: the random player says what it rolled (as a player entering real dice would).
        assert session.call(NewGame(edition.id, seats, dice="physical", assistant="probabilities")).ok
        web.inspect(lambda table: web.new_players(table.seats()))
        with WebServer(app, "127.0.0.1", 0) as server:
            web.pairing.base_url = f"http://127.0.0.1:{server.port}"
            assert session.call(StartGame()).ok
            streams: list[tuple[str, str, str | None]] = [
                (seat, "/events/seat", join(server.port, web.pairing.join_url(seat) or "")) for seat in seats[:SEAT_STREAMS]]
            streams += [(f"table {n + 1}", "/events/table", None) for n in range(TABLE_STREAMS)]
            context = multiprocessing.get_context("spawn")  # a fresh interpreter: none of the companion's threads
            ready, stop, results = context.Event(), context.Event(), context.Queue()
            child = context.Process(target=read_streams, args=(server.port, streams, ready, stop, results))
            child.start()
            if not ready.wait(15):
                raise SystemExit("the streams gave no first view")
            played, rss = play_game(session, seed, pace)
            time.sleep(1.0)  # the last views on their way
            stop.set()
            got = results.get(timeout=30)
            child.join(timeout=10)
    arrivals = {label: arrived for label, _, arrived in got}
    latencies = latencies_of(played, arrivals)
    per_action = {label: total / len(played) for label, total, _ in got}
    report(len(seats), len(played), latencies, rss, per_action)


def report(players: int, actions: int, latencies: list[float], rss: list[float], per_action: dict[str, float]) -> None:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    worst_stream = max(per_action.values())
    print(f"game streams: Master Detective, {players} players, assistant probabilities, {actions} actions, "
          f"{len(per_action)} streams ({len(latencies)} deliveries)")
    print(f"{'measure':<44}{'value':>12}{'target':>12}{'ratio':>8}")
    rows = [("bytes per action per stream, worst (B)", worst_stream, BYTES_TARGET),
            ("bytes per action per stream, mean (B)", statistics.mean(per_action.values()), None),
            ("action -> all streams median (ms)", statistics.median(latencies), None),
            ("action -> all streams p99 (ms)", p99, P99_TARGET_MS),
            ("action -> all streams max (ms)", max(latencies), None),
            ("RSS at start (MB)", rss[0], None), ("RSS peak over the game (MB)", max(rss), RSS_TARGET_MB),
            ("RSS at the end (MB)", rss[-1], None)]
    for name, value, target in rows:
        ratio = f"{value / target:>7.2f}x" if target else ""
        print(f"{name:<44}{value:>12.1f}{target if target else '':>12}{ratio:>8}")
    print("ratios: value/target, under 1 is within the target")


if __name__ == "__main__":
    main()
