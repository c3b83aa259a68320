"""Exact deduction speed: the time to a seat's full notebook after each action of recorded games.

Run with ``python benchmarks/deduction.py`` (``--quick`` for a short run, as
``make bench`` would want). Each game is played at random with a fixed number of
players (the edition's first N suspects, clockwise in deck order) by
``companion.deduction.playout.choose``, and recorded as game-record lines. The record is
then replayed as the first seat sees it (``Replay(..., view=seat)``), its events
fed to ``Knowledge``, exactly as ``clue-companion notebook`` does. After every
line whose events added to the seat's facts, one ``Knowledge.notebook()`` call
(the exact count of every deal those facts allow) is timed with
``time.perf_counter``; replaying and learning are not timed.

- **Classic, 6 players**: 5 games (``--games N``; 2 with ``--quick``). Targets:
  median under 50 ms, worst under 500 ms.
- **Master Detective, 10 players**: 3 games (1 with ``--quick``), stopped
  early if their deduction time adds up to 120 s (30 s with ``--quick``; the
  report says how many lines were measured). No target: this shows how far the
  exact count scales.

The budget is checked between calls, so one slow call can overrun it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.deduction.knowledge import Knowledge
from companion.deduction.playout import choose
from companion.record.replay import Replay
from companion.rules.actions import Setup
from companion.rules.edition import load_edition
from companion.rules.engine import apply, new_game

MEDIAN_TARGET_MS, WORST_TARGET_MS = 50.0, 500.0
ACTION_LIMIT = 5000  # a random game that has not ended by then is measured as far as it went


@dataclass(frozen=True)
class Plan:
    """What to measure for one edition: how many games of how many players, within what budget."""

    edition_id: str
    label: str
    players: int
    games: int
    budget_s: float | None = None  # cumulative deduction seconds, then stop


@dataclass
class Timings:
    """Notebook times (seconds) for one plan, and how far the budget let it go."""

    plan: Plan
    seconds: list[float] = field(default_factory=list)
    lines: int = 0  # record lines replayed in all, measured or not
    changed: int = 0  # lines that added facts (each one a timing, unless the budget stopped it)
    stopped_at: tuple[int, int] | None = None  # (game number, line number) where the budget ran out

    def over_budget(self) -> bool:
        return self.plan.budget_s is not None and sum(self.seconds) > self.plan.budget_s


def play(rand: random.Random, edition_id: str, players: int) -> list[dict[str, Any]]:
    """A random game with the edition's first ``players`` suspects, as record lines."""
    seats = load_edition(edition_id).deck.suspects[:players]
    setup = Setup(edition_id, tuple(seats), seed=rand.randrange(2**32))
    state, _ = new_game(setup)
    record: list[dict[str, Any]] = [setup.to_record()]
    for _ in range(ACTION_LIMIT):
        if state.over:
            break
        action = choose(rand, state)
        state, _ = apply(state, action)
        record.append(action.to_record())
    return record


def time_notebook(knows: Knowledge) -> float:
    start = time.perf_counter()
    knows.notebook()
    return time.perf_counter() - start


def seat_lines(record: list[dict[str, Any]], seat: str) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """(line number, events as ``seat`` sees them) for each line of ``record``, replayed as reached."""
    replay = Replay(json.dumps(record[0]), view=seat)
    yield 1, replay.setup_events
    for number, line in enumerate(record[1:], start=2):
        yield number, replay.step(number, json.dumps(line)).get("events", [])


def measure_game(record: list[dict[str, Any]], game: int, timings: Timings) -> None:
    """Replay ``record`` as its first seat; time the notebook after each line that added facts."""
    seat = record[0]["seats"][0]
    knows = Knowledge(seat, load_edition(record[0]["edition"]).deck)
    for number, events in seat_lines(record, seat):
        before = len(knows.facts)
        for event in events:
            knows.learn(event, f"line {number}")
        timings.lines += 1
        if len(knows.facts) == before or not knows.ready:
            continue
        timings.changed += 1
        if timings.stopped_at is None:
            timings.seconds.append(time_notebook(knows))
            if timings.over_budget():
                timings.stopped_at = (game, number)


def measure(plan: Plan, seed: int) -> Timings:
    timings = Timings(plan)
    for game in range(1, plan.games + 1):
        rand = random.Random(f"{seed}:{plan.edition_id}:{plan.players}:{game}")
        measure_game(play(rand, plan.edition_id, plan.players), game, timings)
    return timings


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def rows(timings: Timings, targets: bool) -> list[tuple[str, float, float | None]]:
    ms = [s * 1000 for s in timings.seconds] or [float("nan")]
    label = timings.plan.label
    return [(f"{label} median (ms)", statistics.median(ms), MEDIAN_TARGET_MS if targets else None),
            (f"{label} p90 (ms)", percentile(ms, 0.9), None),
            (f"{label} worst (ms)", max(ms), WORST_TARGET_MS if targets else None),
            (f"{label} timings", float(len(timings.seconds)), None)]


def describe(timings: Timings) -> str:
    plan = timings.plan
    text = (f"{plan.label}: {plan.games} game(s), {timings.lines} lines, {timings.changed} added facts, "
            f"{len(timings.seconds)} timed, {sum(timings.seconds):.1f} s of deduction")
    if timings.stopped_at is not None:
        game, line = timings.stopped_at
        text += (f"; stopped over the {plan.budget_s:.0f} s budget at game {game} line {line}: "
                 f"{len(timings.seconds)} of {timings.changed} lines measured")
    return text


def report(classic: Timings, master: Timings) -> None:
    print("deduction: time to the first seat's exact notebook after each line that added facts")
    for timings in (classic, master):
        print(describe(timings))
    print(f"{'measure':<36}{'value':>12}{'target':>12}{'ratio':>8}")
    for name, value, target in rows(classic, True) + rows(master, False):
        if value != value:  # NaN: nothing was timed
            print(f"{name:<36}{'n/a':>12}")
            continue
        ratio = f"{value / target:>7.2f}x" if target else ""
        shown = f"{value:>12.0f}" if name.endswith("timings") else f"{value:>12.1f}"
        print(f"{name:<36}{shown}{target if target is not None else '':>12}{ratio}")
    ms = [s * 1000 for s in classic.seconds] or [float("nan")]
    md = [s * 1000 for s in master.seconds] or [float("nan")]
    print(f"ratios: {classic.plan.label} median/target {statistics.median(ms) / MEDIAN_TARGET_MS:.2f}, "
          f"worst/target {max(ms) / WORST_TARGET_MS:.2f} (under 1 is good); "
          f"{master.plan.label} median / {classic.plan.label} median {statistics.median(md) / statistics.median(ms):.1f}")


def plans(args: argparse.Namespace) -> tuple[Plan, Plan]:
    classic_games = args.games if args.games is not None else 2 if args.quick else 5
    md_games, md_budget = (1, 30.0) if args.quick else (3, 120.0)
    return (Plan("classic", "Classic 6p", 6, classic_games),
            Plan("master_detective", "MD 10p", 10, md_games, md_budget))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="Classic games (default 5, or 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help="2 Classic games, 1 Master Detective game within 30 s")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random games (default 1)")
    args = parser.parse_args()
    classic, master = plans(args)
    report(measure(classic, args.seed), measure(master, args.seed))


if __name__ == "__main__":
    main()
