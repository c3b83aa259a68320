"""Exact deduction speed: the time to a seat's full notebook after each action of recorded games, against the reference.

Run with ``python benchmarks/deduction.py`` (``--quick`` for a short run, as
``make bench`` wants). Each game is played at random with a fixed number of
players (the edition's first N suspects, clockwise in deck order) by
``companion.deduction.playout.choose``, and recorded as game-record lines. The record is
then replayed as the first seat sees it (``Replay(..., view=seat)``), its events
fed to ``Knowledge``, exactly as ``clue-companion notebook`` does. After every
line whose events added to the seat's facts (an update), ``deduce`` (the exact
count of every deal those facts allow: cards, triples, accusation chance) is
timed with ``time.perf_counter``, and so is the same call with the reference
count (``counter=ReferenceCount``, the algorithm before issue 32), one after the
other on the same facts, so both see the same load. Their results must be the
same integers. Replaying and learning are not timed.

- **Classic, 6 players** and **Master Detective, 10 players**: 5 whole games
  each (``--games N``; 1 each with ``--quick``), seeded (``--seed``).
- Targets (issue 32): Master Detective worst update <= 200 ms and p90 <= 50 ms;
  Classic no slower than the reference (its percentiles and worst, and the
  share of updates where the count took longer than the reference).
- ``--repeat N`` keeps the best of N timings of each call (less noise from
  other processes on the machine); ``--record FILE`` writes every update's
  facts and the reference's result digest, which
  ``tests/companion/deduction/test_reference_games.py`` holds the count to.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.deduction.knowledge import Knowledge
from companion.deduction.notebook import Notebook, deduce
from companion.deduction.playout import choose
from companion.deduction.reference_count import ReferenceCount
from companion.record.replay import Replay
from companion.rules.actions import Setup
from companion.rules.edition import load_edition
from companion.rules.engine import apply, new_game

MD_WORST_TARGET_MS, MD_P90_TARGET_MS = 200.0, 50.0
ACTION_LIMIT = 5000  # a random game that has not ended by then is measured as far as it went
SHARES = (("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("worst", 1.0))


@dataclass(frozen=True)
class Plan:
    """What to measure: how many games of how many players of one edition."""

    edition_id: str
    label: str
    players: int
    games: int


@dataclass(frozen=True)
class Update:
    """One line that added facts: the count's and the reference's time (seconds), and whether they agreed."""

    game: int
    line: int
    count_s: float
    reference_s: float
    same: bool


@dataclass
class Timings:
    """Every update of one plan's games, and the games' facts for ``--record``."""

    plan: Plan
    updates: list[Update] = field(default_factory=list)
    lines: int = 0  # record lines replayed in all
    recorded: list[dict[str, Any]] = field(default_factory=list)

    def ms(self, which: str) -> list[float]:
        return [getattr(update, which) * 1000 for update in self.updates]


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


def seat_lines(record: list[dict[str, Any]], seat: str) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """(line number, events as ``seat`` sees them) for each line of ``record``, replayed as reached."""
    replay = Replay(json.dumps(record[0]), view=seat)
    yield 1, replay.setup_events
    for number, line in enumerate(record[1:], start=2):
        yield number, replay.step(number, json.dumps(line)).get("events", [])


def digest(notebook: Notebook) -> str:
    """Every count of a notebook (deals, card at place, triple) in one short hash, to compare with a recorded one."""
    text = json.dumps([str(notebook.deals),
                       sorted((card, place, str(count)) for card, at in notebook.counts.items()
                              for place, count in at.items()),
                       sorted((list(triple), str(count)) for triple, count in notebook.triples.items())])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def timed(call: Callable[[], Notebook], repeat: int) -> tuple[float, Notebook]:
    """The best of ``repeat`` timings of ``call``, and its result.

    The garbage collector is run before and held off during each call (as
    ``timeit`` does): a collection of the replay's objects lands in whichever
    call happens to be running, a few milliseconds that say nothing about it.
    """
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = call()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    assert result is not None
    return best, result


def measure_game(record: list[dict[str, Any]], game: int, timings: Timings, repeat: int) -> None:
    """Replay ``record`` as its first seat; time the count and the reference after each line that added facts."""
    seat = record[0]["seats"][0]
    knows = Knowledge(seat, load_edition(record[0]["edition"]).deck)
    updates: list[dict[str, Any]] = []
    for number, events in seat_lines(record, seat):
        before = len(knows.facts)
        for event in events:
            knows.learn(event, f"line {number}")
        timings.lines += 1
        if len(knows.facts) == before or not knows.ready:
            continue
        problem = knows.problem()
        count_s, notebook = timed(lambda: deduce(*problem), repeat)
        reference_s, reference = timed(lambda: deduce(*problem, counter=ReferenceCount), repeat)
        same = (notebook.deals, notebook.counts, notebook.triples) == (reference.deals, reference.counts,
                                                                      reference.triples)
        timings.updates.append(Update(game, number, count_s, reference_s, same))
        updates.append({"line": number, "facts": len(knows.facts), "digest": digest(reference)})
    deck, hand_sizes, facts, face_up, aside = knows.problem()
    timings.recorded.append({
        "table": timings.plan.label, "game": game, "edition": record[0]["edition"], "hand_sizes": hand_sizes,
        "face_up": list(face_up), "aside": aside,
        "facts": [[fact.kind, fact.owner, list(fact.cards)] for fact in facts], "updates": updates})


def measure(plan: Plan, seed: int, repeat: int) -> Timings:
    timings = Timings(plan)
    for game in range(1, plan.games + 1):
        rand = random.Random(f"{seed}:{plan.edition_id}:{plan.players}:{game}")
        measure_game(play(rand, plan.edition_id, plan.players), game, timings, repeat)
    return timings


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def describe(timings: Timings) -> str:
    plan = timings.plan
    count, reference = sum(timings.ms("count_s")) / 1000, sum(timings.ms("reference_s")) / 1000
    return (f"{plan.label}: {plan.games} game(s), {timings.lines} lines, {len(timings.updates)} updates timed; "
            f"{count:.1f} s of counting, {reference:.1f} s with the reference")


def table(all_timings: list[Timings]) -> None:
    print(f"{'table':<12}{'count':<11}" + "".join(f"{name + ' ms':>11}" for name, _ in SHARES))
    for timings in all_timings:
        label = timings.plan.label
        count, reference = timings.ms("count_s"), timings.ms("reference_s")
        print(f"{label:<12}{'new':<11}" + "".join(f"{percentile(count, share):>11.1f}" for _, share in SHARES))
        print(f"{label:<12}{'reference':<11}" + "".join(f"{percentile(reference, share):>11.1f}"
                                                     for _, share in SHARES))
        print(f"{label:<12}{'speed-up':<11}" + "".join(
            f"{percentile(reference, share) / percentile(count, share):>10.1f}x" for _, share in SHARES))


def ratios(timings: Timings) -> str:
    """Per update: how many times faster than the reference (median, least), and how many took longer."""
    per_update = [update.reference_s / update.count_s for update in timings.updates]
    slower = [update for update in timings.updates if update.count_s > update.reference_s]
    slowest = max(timings.updates, key=lambda update: update.count_s)
    text = (f"{timings.plan.label} per update: speed-up median {statistics.median(per_update):.1f}x, "
            f"least {min(per_update):.2f}x; slowest: game {slowest.game} line {slowest.line}; "
            f"slower than the reference on {len(slower)} of {len(per_update)}")
    if slower:
        most = max(update.count_s - update.reference_s for update in slower) * 1000
        text += f" (by at most {most:.3f} ms)"
    return text


def verdicts(classic: Timings, master: Timings) -> list[str]:
    md = master.ms("count_s")
    worst, p90 = max(md), percentile(md, 0.9)
    ok = "met" if worst <= MD_WORST_TARGET_MS and p90 <= MD_P90_TARGET_MS else "NOT met"
    lines = [f"target {master.plan.label}: worst {worst:.1f} ms <= {MD_WORST_TARGET_MS:.0f}, "
             f"p90 {p90:.1f} ms <= {MD_P90_TARGET_MS:.0f}: {ok}"]
    count, reference = classic.ms("count_s"), classic.ms("reference_s")
    faster = all(percentile(count, share) <= percentile(reference, share) for _, share in SHARES)
    lines.append(f"target {classic.plan.label}: no slower than the reference at the median, p90, p99 and worst: "
                 f"{'met' if faster else 'NOT met'}")
    updates = classic.updates + master.updates
    differ = [f"{update.game}:{update.line}" for update in updates if not update.same]
    lines.append(f"same integers as the reference on every update: "
                 f"{'yes' if not differ else 'NO, at ' + ', '.join(differ)} ({len(updates)} updates)")
    return lines


def report(classic: Timings, master: Timings) -> None:
    print("deduction: time to the first seat's exact notebook after each line that added facts, "
          "the count against the reference (the count before issue 32), on the same facts")
    for timings in (classic, master):
        print(describe(timings))
    table([classic, master])
    for timings in (classic, master):
        print(ratios(timings))
    for line in verdicts(classic, master):
        print(line)


def record(path: Path, all_timings: list[Timings], seed: int) -> None:
    """The games' facts and the reference's digests, for the test that holds the count to them: a JSON line per game."""
    games = [game for timings in all_timings for game in timings.recorded]
    lines = [json.dumps({"seed": seed, "digest": "benchmarks/deduction.py digest()"})]
    lines += [json.dumps(game, separators=(",", ":")) for game in games]
    path.write_text("\n".join(lines) + "\n")
    print(f"recorded {sum(len(game['updates']) for game in games)} updates of {len(games)} games in {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games per table (default 5, or 1 with --quick)")
    parser.add_argument("--quick", action="store_true", help="1 game per table")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random games (default 1)")
    parser.add_argument("--repeat", type=int, default=1, help="best of N timings per call (default 1)")
    parser.add_argument("--record", type=Path, help="write the updates' facts and the reference's digests here")
    args = parser.parse_args()
    games = args.games if args.games is not None else 1 if args.quick else 5
    classic = measure(Plan("classic", "Classic 6p", 6, games), args.seed, args.repeat)
    master = measure(Plan("master_detective", "MD 10p", 10, games), args.seed, args.repeat)
    report(classic, master)
    if args.record:
        record(args.record, [classic, master], args.seed)


if __name__ == "__main__":
    main()
