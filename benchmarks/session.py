"""The whole chain: a mover set down on the board to its player's handheld showing the move.

Run with ``make bench`` (or ``python benchmarks/session.py``). A virtual board
runs in a process of its own (a real board is its own device); this process
runs what the Pi runs: the board link over a pty, the session with its SQLite
store on disk (WAL, synchronous=FULL), and four emulated handhelds (luma dummy
displays, gpiozero mock pins), each with its own render thread.

Each measured step is Miss Scarlet taking a secret passage (Lounge <->
Conservatory) by moving her mover: the board sends TAG_ON, the link reports
it, the session turns it into a ``Move``, commits it, publishes, and her
handheld renders the new screen. Latency runs from just before the board
places the tag to the end of that render, both stamped with CLOCK_MONOTONIC.
The link's settle time (0.25 s by default: a deliberate wait so a mover slid
across the board is not a move) is set to 0 here, so the figures are the
companion's own work. The other seats play by calling the session directly.

Prints median and p99 against the 20 ms target, and the peak memory (max RSS)
of this process against 80 MB.
"""

from __future__ import annotations

import multiprocessing
import resource
import statistics
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.cli.mock_table import FAST_BOARD, MockTable  # noqa: E402
from companion.rules.actions import EndTurn, Move, Roll  # noqa: E402
from companion.rules.engine import legal_destinations  # noqa: E402
from companion.table.commands import Play  # noqa: E402
from companion.table.store import Store  # noqa: E402
from companion.table.tags import Piece  # noqa: E402
from hardware.board_core import BoardTiming  # noqa: E402
from hardware.link_core import LinkTiming  # noqa: E402
from hardware.virtual_board import VirtualBoard  # noqa: E402

TURNS = 300
from companion.cli.run import SWITCH_INTERVAL  # noqa: E402

P99_TARGET_MS = 20.0
MEMORY_TARGET_MB = 80.0
SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green")
LOUNGE, CONSERVATORY = 6, 2


def _board_process(commands: Connection, timing: BoardTiming) -> None:
    with VirtualBoard(24, timing=timing) as board:
        commands.send(board.port)
        while True:
            command = commands.recv()
            if command is None:
                return
            verb, uid, reader = command
            if verb == "place":
                commands.send(time.perf_counter())
                board.place(uid, reader)
            else:
                board.remove(uid)
                commands.send(None)


class Stopwatch:
    """Wraps a handheld's ``show`` to note when a view with a new action has been drawn."""

    def __init__(self, handheld: Any) -> None:
        self.drawn = threading.Event()
        self.actions = -1
        self.at = 0.0
        original = handheld.show

        def show(view: dict[str, Any]) -> None:
            original(view)
            if view.get("actions", -1) > self.actions:
                self.actions = view["actions"]
                self.at = time.perf_counter()
                self.drawn.set()

        handheld.show = show


def _others(rig: MockTable) -> None:
    """Every seat after Scarlet rolls, steps somewhere and ends the turn."""
    while True:
        state = rig.session.inspect(lambda table: table.state)
        seat = state.turn.seat
        if seat == "Miss Scarlet":
            return
        rig.session.call(Play(seat, Roll(seat, (1,))))
        state = rig.session.inspect(lambda table: table.state)
        rig.session.call(Play(seat, Move(seat, legal_destinations(state)[0])))
        rig.session.call(Play(seat, EndTurn(seat)))


def run() -> tuple[list[float], float]:
    sys.setswitchinterval(SWITCH_INTERVAL)  # as `clue-companion run` does
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    child = context.Process(target=_board_process, args=(theirs, FAST_BOARD))
    child.start()
    port = ours.recv()
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.db").open() as store:
        with MockTable(store, port=port, link_timing=LinkTiming(settle=0.0)) as rig:
            rig.new_game("classic", SEATS, dice="physical", seed=5)
            rig.start()
            watch = Stopwatch(rig.handhelds["Miss Scarlet"])
            uid = rig.uid(Piece("mover", "Miss Scarlet"))
            rig.session.call(Play("Miss Scarlet", Roll("Miss Scarlet", (6,))))
            where = None
            for turn in range(TURNS + 1):
                target = LOUNGE if where != LOUNGE else CONSERVATORY
                ours.send(("remove", uid, 0))
                ours.recv()
                time.sleep(0.03)  # the TAG_OFF (after the board's debounce) goes by unmeasured
                watch.drawn.clear()
                ours.send(("place", uid, target))
                placed = ours.recv()
                if not watch.drawn.wait(5):
                    view = rig.view("Miss Scarlet")
                    raise RuntimeError(f"turn {turn}: the move was never drawn: {view['notice']} "
                                       f"{view['phase']} {view['turn']} {view['record'][-6:]}")
                if turn:  # the first is the warm-up
                    latencies.append((watch.at - placed) * 1000)
                where = target
                rig.session.call(Play("Miss Scarlet", EndTurn("Miss Scarlet")))
                _others(rig)
    ours.send(None)
    child.join(5)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return latencies, peak_mb


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def main() -> None:
    latencies, peak = run()
    median, worst = statistics.median(latencies), p99(latencies)
    print(f"Tag placed -> move committed -> handheld drawn, {len(latencies)} moves, settle 0")
    print(f"{'measure':<34}{'value':>10}{'target':>10}{'ratio':>8}")
    print(f"{'latency median (ms)':<34}{median:>10.2f}{P99_TARGET_MS:>10.0f}{median / P99_TARGET_MS:>8.2f}")
    print(f"{'latency p99 (ms)':<34}{worst:>10.2f}{P99_TARGET_MS:>10.0f}{worst / P99_TARGET_MS:>8.2f}")
    print(f"{'latency max (ms)':<34}{max(latencies):>10.2f}")
    print(f"{'peak memory, max RSS (MB)':<34}{peak:>10.1f}{MEMORY_TARGET_MB:>10.0f}{peak / MEMORY_TARGET_MB:>8.2f}")


if __name__ == "__main__":
    main()
