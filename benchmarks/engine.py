"""Engine speed: legal destinations, single actions, whole random games.

Run with ``make bench`` (or ``python benchmarks/engine.py``). Prints tables and
the ratios of each figure to its target on this project's reference machine:
median ``apply`` under 100 µs, worst-case destinations for a roll of 12 under
5 ms.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from companion import Setup, apply, legal_destinations, new_game
from companion.playout import choose, random_game
from companion.state import GameState, Phase, Turn

APPLY_TARGET_US = 100.0
WORST_TARGET_MS = 5.0


def per_call(fn: Callable[[], object], seconds: float = 0.05) -> float:
    """Median seconds per call over a few timed batches."""
    fn()
    runs = []
    for _ in range(5):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 5 or count < 3:
            fn()
            count += 1
        runs.append(elapsed / count)
    return statistics.median(runs)


def rolled(state: GameState, seat: str, place: str, total: int) -> GameState:
    """``state`` with ``seat`` on turn at ``place`` having just rolled ``total``."""
    return replace(state.with_position(seat, place), turn=Turn(seat, Phase.MOVING, dice=(total,)))


def destinations_table(state: GameState) -> None:
    board = state.edition.require_board()
    print("legal_destinations, µs per call, from each start square")
    print(f"{'start':<18}" + "".join(f"{'roll ' + str(r):>9}" for r in range(1, 7)))
    seat = state.turn.seat
    for suspect, square in ((s, board.start_of(s)) for s in state.edition.deck.suspects):
        ready = [rolled(state, seat, square, r) for r in range(1, 7)]
        times = [per_call(lambda at=at: legal_destinations(at)) for at in ready]
        print(f"{suspect + ' ' + square:<18}" + "".join(f"{t * 1e6:>9.0f}" for t in times))


def worst_twelve(state: GameState) -> float:
    board = state.edition.require_board()
    seat = state.turn.seat
    timed = []
    for place in board.squares + board.rooms:
        at = rolled(state, seat, place, 12)
        timed.append((per_call(lambda at=at: legal_destinations(at), seconds=0.01), place))
    worst, place = max(timed)
    at = rolled(state, seat, place, 12)
    worst = per_call(lambda: legal_destinations(at), seconds=0.2)
    print(f"\nroll of 12 from every square and room: median {statistics.median(t for t, _ in timed) * 1e3:.2f} ms, "
          f"worst {worst * 1e3:.2f} ms from {place}")
    return worst


def apply_times(games: int) -> list[float]:
    """Seconds for each single ``apply`` over random complete games."""
    times = []
    for seed in range(games):
        rand = random.Random(seed)
        state, _ = new_game(Setup("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White", "Mr. Green"), seed))
        while not state.over:
            action = choose(rand, state)
            start = time.perf_counter()
            state, _ = apply(state, action)
            times.append(time.perf_counter() - start)
    return times


def games_per_second(seconds: float = 3.0) -> tuple[float, float]:
    start, games, actions = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        actions += len(random_game(random.Random(games))) - 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    state, _ = new_game(Setup("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=1))
    destinations_table(state)
    worst = worst_twelve(state)
    times = sorted(apply_times(200))
    median = statistics.median(times)
    p99 = times[int(len(times) * 0.99)]
    rate, action_rate = games_per_second()
    print(f"\napply over {len(times)} actions of 200 random games: median {median * 1e6:.1f} µs, "
          f"p99 {p99 * 1e6:.1f} µs, max {times[-1] * 1e3:.2f} ms")
    print(f"random complete games (playout included): {rate:.0f} games/s, {action_rate:.0f} actions/s")
    print("\nfigure                         measured     target   ratio (measured/target)")
    print(f"median apply                  {median * 1e6:>7.1f} µs  {APPLY_TARGET_US:>6.0f} µs   {median * 1e6 / APPLY_TARGET_US:.2f}")
    print(f"worst destinations, roll 12   {worst * 1e3:>7.2f} ms  {WORST_TARGET_MS:>6.0f} ms   {worst * 1e3 / WORST_TARGET_MS:.2f}")


if __name__ == "__main__":
    main()
