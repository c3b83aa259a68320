"""Engine speed in every edition: legal destinations, single actions, whole random games.

Run with ``make bench`` (or ``python benchmarks/engine.py``). Prints a table per
measure, one row per edition, and the ratios of each figure to its target on
this project's reference machine: median ``apply`` under 100 µs, worst-case
destinations for a roll of 12 under 5 ms.

The worst case for a roll of 12 times ``movement.destinations(board, start, 12,
occupied, rules=edition.movement)`` from every hallway square and room of each
board, with the edition's own movement rules (Master Detective: rooms crossed,
passages mid-roll, movers jumped). ``occupied`` is where the other movers stand
at the start of a game (Classic: the start squares; the others start in a room,
so nothing blocks), and again with five movers on random hallway squares.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion import apply, legal_destinations, load_edition, new_game
from companion.deduction.playout import choose, random_game, random_setup
from companion.rules.actions import Setup
from companion.rules.board import Board
from companion.rules.edition import Edition
from companion.rules.movement import destinations
from companion.rules.state import GameState, Phase, Turn

APPLY_TARGET_US = 100.0
WORST_TARGET_MS = 5.0
EDITIONS = ("classic", "master_detective", "big_bang_theory", "doctor_who")
APPLY_GAMES = 200
GAME_SECONDS = 2.0
CROWD = 5  # movers scattered on hallway squares for the crowded worst case


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


def once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def opening(edition: Edition) -> GameState:
    """A fresh game of the edition with as many seats as it allows up to four."""
    seats = edition.deck.suspects[: min(4, edition.max_players)]
    state, _ = new_game(Setup(edition.id, seats, seed=1))
    return state


def rolled(state: GameState, seat: str, place: str, total: int) -> GameState:
    """``state`` with ``seat`` on turn at ``place`` having just rolled ``total``."""
    return state.with_position(seat, place).evolve(turn=Turn(seat, Phase.MOVING, dice=(total,)))


# --- legal destinations from the start places ---------------------------------------------------


def destinations_table(state: GameState) -> None:
    """legal_destinations from each distinct start place, every roll the edition's dice allow."""
    edition = state.edition
    board = edition.require_board()
    rolls = range(1, 6 * edition.dice + 1)
    seat = state.turn.seat
    starts: dict[str, str] = {}
    for suspect in edition.deck.suspects:
        starts.setdefault(board.start_place(suspect), suspect)
    print(f"\n{edition.name}: legal_destinations, µs per call, from each start place")
    print(f"{'start':<24}" + "".join(f"{r:>7}" for r in rolls))
    for place, suspect in starts.items():
        ready = [rolled(state, seat, place, r) for r in rolls]
        times = [per_call(lambda at=at: legal_destinations(at), seconds=0.02) for at in ready]
        label = place if place in board.rooms else f"{suspect} {place}"
        print(f"{label[:23]:<24}" + "".join(f"{t * 1e6:>7.0f}" for t in times))


# --- the worst roll of 12 -----------------------------------------------------------------------


@dataclass
class Worst:
    edition: str
    places: int
    median_ms: float
    worst_ms: float
    worst_from: str
    crowded_ms: float
    crowded_from: str
    legal_ms: float  # legal_destinations (the whole call, state and all) at the worst place


def worst_of(board: Board, edition: Edition, occupied: frozenset[str]) -> tuple[float, str, list[float]]:
    """Screen every start with one timed call, then time the ten slowest properly."""
    rules = edition.movement
    places = board.squares + board.rooms
    screened = []
    for place in places:
        near = occupied - {place}
        screened.append((once(lambda p=place, o=near: destinations(board, p, 12, o, rules=rules)), place))
    screened.sort(reverse=True)
    timed = [(per_call(lambda p=place, o=occupied - {place}: destinations(board, p, 12, o, rules=rules),
                       seconds=0.05), place) for _, place in screened[:10]]
    worst, place = max(timed)
    return worst, place, [t for t, _ in screened]


def worst_twelve(edition: Edition) -> Worst:
    board = edition.require_board()
    state = opening(edition)
    seat = state.turn.seat
    occupied = state.occupied(seat)
    worst, place, screened = worst_of(board, edition, occupied)
    crowd = frozenset(random.Random(12).sample(board.squares, CROWD))
    crowded, crowded_place, _ = worst_of(board, edition, crowd)
    at = rolled(state, seat, place, 12)
    legal = per_call(lambda: legal_destinations(at), seconds=0.05)
    return Worst(edition.id, len(screened), statistics.median(screened) * 1e3, worst * 1e3, place,
                 crowded * 1e3, crowded_place, legal * 1e3)


def print_worst(rows: list[Worst]) -> None:
    print("\nmovement.destinations with a roll of 12 from every square and room, ms per call "
          f"(target {WORST_TARGET_MS:.0f} ms)")
    print(f"{'edition':<18}{'places':>7}{'median':>9}{'worst':>9}  {'from':<22}{'legal_dest.':>12}"
          f"{'crowded':>9}  {'from':<22}{'ratio':>7}")
    for r in rows:
        print(f"{r.edition:<18}{r.places:>7}{r.median_ms:>9.3f}{r.worst_ms:>9.3f}  {r.worst_from[:21]:<22}"
              f"{r.legal_ms:>12.3f}{r.crowded_ms:>9.3f}  {r.crowded_from[:21]:<22}"
              f"{max(r.worst_ms, r.crowded_ms) / WORST_TARGET_MS:>7.2f}")


# --- apply --------------------------------------------------------------------------------------


def apply_times(edition_id: str, games: int) -> list[float]:
    """Seconds for each single ``apply`` over random complete games (random setups)."""
    edition = load_edition(edition_id)
    times = []
    for seed in range(games):
        rand = random.Random(seed)
        state, _ = new_game(random_setup(rand, edition))
        while not state.over:
            action = choose(rand, state)
            start = time.perf_counter()
            state, _ = apply(state, action)
            times.append(time.perf_counter() - start)
    return sorted(times)


def print_apply(rows: dict[str, list[float]]) -> None:
    print(f"\napply, one action, over {APPLY_GAMES} random complete games per edition (target median "
          f"{APPLY_TARGET_US:.0f} µs)")
    print(f"{'edition':<18}{'actions':>9}{'median µs':>11}{'p90 µs':>9}{'p99 µs':>9}{'max ms':>9}{'ratio':>7}")
    for edition_id, times in rows.items():
        median = statistics.median(times)
        p90, p99 = times[int(len(times) * 0.9)], times[int(len(times) * 0.99)]
        print(f"{edition_id:<18}{len(times):>9}{median * 1e6:>11.1f}{p90 * 1e6:>9.1f}{p99 * 1e6:>9.1f}"
              f"{times[-1] * 1e3:>9.2f}{median * 1e6 / APPLY_TARGET_US:>7.2f}")


# --- whole games --------------------------------------------------------------------------------


def games_per_second(edition_id: str, seconds: float = GAME_SECONDS) -> tuple[float, float, float]:
    start, games, actions = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        actions += len(random_game(random.Random(games), edition_id)) - 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, actions / games


def print_games(rows: dict[str, tuple[float, float, float]]) -> None:
    print(f"\nrandom complete games (random setups, playout included), {GAME_SECONDS:.0f} s per edition")
    print(f"{'edition':<18}{'games/s':>9}{'actions/s':>11}{'actions/game':>14}")
    for edition_id, (rate, action_rate, length) in rows.items():
        print(f"{edition_id:<18}{rate:>9.0f}{action_rate:>11.0f}{length:>14.1f}")


def main() -> None:
    for edition_id in EDITIONS:
        destinations_table(opening(load_edition(edition_id)))
    worst = [worst_twelve(load_edition(edition_id)) for edition_id in EDITIONS]
    print_worst(worst)
    applied = {edition_id: apply_times(edition_id, APPLY_GAMES) for edition_id in EDITIONS}
    print_apply(applied)
    print_games({edition_id: games_per_second(edition_id) for edition_id in EDITIONS})
    print("\nfigure                         edition             measured     target   ratio (measured/target)")
    for edition_id, row in zip(EDITIONS, worst):
        median = statistics.median(applied[edition_id])
        print(f"median apply                   {edition_id:<18}{median * 1e6:>7.1f} µs  {APPLY_TARGET_US:>6.0f} µs"
              f"   {median * 1e6 / APPLY_TARGET_US:.2f}")
    for edition_id, row in zip(EDITIONS, worst):
        print(f"worst destinations, roll 12    {edition_id:<18}{row.worst_ms:>7.2f} ms  {WORST_TARGET_MS:>6.0f} ms"
              f"   {row.worst_ms / WORST_TARGET_MS:.2f}")
    for edition_id, row in zip(EDITIONS, worst):
        print(f"  crowded ({CROWD} movers)          {edition_id:<18}{row.crowded_ms:>7.2f} ms  "
              f"{WORST_TARGET_MS:>6.0f} ms   {row.crowded_ms / WORST_TARGET_MS:.2f}")


if __name__ == "__main__":
    main()
