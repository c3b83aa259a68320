"""Engine speed in every edition: legal destinations, single actions, whole random games.

Run with ``make bench`` (or ``python benchmarks/engine.py``). Prints a table per
measure, one row per edition, and the ratios of each figure to its target on
this project's reference machine: median ``apply`` under 100 µs, worst-case
destinations for a roll of 12 under 2 ms (issue 21).

The worst case for a roll of 12 times ``movement.destinations(board, start, 12,
occupied, rules=edition.movement)`` from every hallway square and room of each
board, with the edition's own movement rules (Master Detective: rooms crossed,
passages mid-roll, movers jumped): on the empty board, then with the movers of
a game's opening (Classic: the start squares), five movers on random hallway
squares and a few more random crowds, keeping the worst. "tables" is the one-off
cost of a board's movement tables (``movement.prepare``, or a board's first use
with its rules: once per board and rules); "cold" is the worst place's call on a
board just loaded or drawn, right after its tables (nothing else cached); the
first move on a board nobody prepared pays both.
The same runs on generated 40 x 40 user boards (open, a maze of corridors,
rooms with doors; Classic and Master Detective rules), and the search before
issue 21 (``tests/companion/rules/movement_reference.py``) is timed at each
worst place for the speed-up.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion import apply, legal_destinations, load_edition, new_game
from companion.deduction.playout import choose, random_game, random_setup
from companion.rules.actions import Setup
from companion.rules import movement
from companion.rules.board import COLUMNS, Board
from companion.rules.edition import Edition, Movement
from companion.rules.movement import destinations

# The search as it was before issue 21, kept by the tests as the reference: the speed-up column.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "companion" / "rules"))
import movement_reference  # noqa: E402
from companion.rules.state import GameState, Phase, Turn

APPLY_TARGET_US = 100.0
WORST_TARGET_MS = 2.0
EDITIONS = ("classic", "master_detective", "big_bang_theory", "doctor_who")
APPLY_GAMES = 200
GAME_SECONDS = 2.0
CROWD = 5  # movers scattered on hallway squares for the crowded worst case
RANDOM_CROWDS = (3, 5, 8)  # more crowds, of these sizes, on random hallway squares
USER_SIZE = 40  # generated user boards are this many squares a side
MASTER_DETECTIVE = Movement(pass_through_rooms=True, jump_movers=True, passage_mid_roll=True)


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


def best_call(fn: Callable[[], object], seconds: float = 0.05) -> float:
    """Seconds per call in the fastest of a few timed batches: other load on the machine only
    ever adds time, so the minimum is the figure for the code (timeit's advice)."""
    fn()
    runs = []
    for _ in range(7):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 7 or count < 3:
            fn()
            count += 1
        runs.append(elapsed / count)
    return min(runs)


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
    board: str
    places: int
    median_ms: float
    worst_ms: float
    worst_from: str
    crowded_ms: float  # the worst over every crowd
    crowded_from: str
    cold_ms: float  # the worst place's call on a board seen for the first time, right after its tables
    tables_ms: float  # building the board's movement tables (once per board and rules)
    reference_ms: float  # the reference search (before issue 21) at the same place, empty board
    legal_ms: float | None = None  # legal_destinations (the whole call, state and all) at the worst place

    @property
    def ratio(self) -> float:
        return max(self.worst_ms, self.crowded_ms, self.cold_ms) / WORST_TARGET_MS


def worst_of(board: Board, rules: Movement, occupied: frozenset[str]) -> tuple[float, str, list[float]]:
    """Screen every start with the faster of two timed calls, then time the six slowest properly."""
    places = board.squares + board.rooms
    screened = []
    for place in places:
        near = occupied - {place}
        screened.append((min(once(lambda p=place, o=near: destinations(board, p, 12, o, rules=rules))
                             for _ in range(2)), place))
    screened.sort(reverse=True)
    timed = [(best_call(lambda p=place, o=occupied - {place}: destinations(board, p, 12, o, rules=rules),
                        seconds=0.15), place) for _, place in screened[:6]]
    worst, place = max(timed)
    return worst, place, [t for t, _ in screened]


def crowds(board: Board, opening: frozenset[str]) -> list[frozenset[str]]:
    """The opening occupancy, the classic 5-mover crowd and a few random ones."""
    found = [opening, frozenset(random.Random(12).sample(board.squares, CROWD))]
    for seed, movers in enumerate(RANDOM_CROWDS):
        found.append(frozenset(random.Random(seed).sample(board.squares, movers)))
    return found


def forget() -> None:
    """Empty every movement cache, as for a board just drawn or loaded."""
    movement._graph.cache_clear()
    movement._marks.cache_clear()


def cold(board: Board, rules: Movement, place: str) -> tuple[float, float]:
    """The board's tables built from nothing, then one call: seconds for each."""
    forget()
    tables = once(lambda: movement.prepare(board, rules, 12))
    return tables, once(lambda: destinations(board, place, 12, frozenset(), rules=rules))


def worst_twelve(name: str, board: Board, rules: Movement, opening: frozenset[str] = frozenset()) -> Worst:
    worst, place, screened = worst_of(board, rules, frozenset())
    crowded, crowded_place = 0.0, ""
    for crowd in crowds(board, opening):
        time_, at, _ = worst_of(board, rules, crowd)
        if time_ > crowded:
            crowded, crowded_place = time_, at
    colds = [cold(board, rules, place) for _ in range(5)]
    ref = best_call(lambda: movement_reference.destinations(board, place, 12, frozenset(), rules=rules), seconds=0.1)
    return Worst(name, len(screened), statistics.median(screened) * 1e3, worst * 1e3, place,
                 crowded * 1e3, crowded_place, min(c for _, c in colds) * 1e3, min(t for t, _ in colds) * 1e3,
                 ref * 1e3)


def worst_edition(edition: Edition) -> Worst:
    board = edition.require_board()
    state = opening(edition)
    seat = state.turn.seat
    row = worst_twelve(edition.id, board, edition.movement, state.occupied(seat))
    at = rolled(state, seat, row.worst_from, 12)
    row.legal_ms = best_call(lambda: legal_destinations(at), seconds=0.05) * 1e3
    return row


def print_worst(rows: list[Worst]) -> None:
    print("\nmovement.destinations with a roll of 12 from every square and room, ms per call "
          f"(target {WORST_TARGET_MS:.0f} ms; crowded: the worst of the opening, {CROWD} movers and "
          f"random crowds of {', '.join(map(str, RANDOM_CROWDS))})")
    print(f"{'board':<22}{'places':>7}{'median':>8}{'worst':>8}  {'from':<14}{'crowded':>8}  {'from':<14}"
          f"{'cold':>7}{'tables':>8}{'legal_d.':>9}{'ref.':>9}{'speed-up':>9}{'ratio':>7}")
    for r in rows:
        legal = f"{r.legal_ms:>9.3f}" if r.legal_ms is not None else f"{'-':>9}"
        print(f"{r.board[:21]:<22}{r.places:>7}{r.median_ms:>8.3f}{r.worst_ms:>8.3f}  {r.worst_from[:13]:<14}"
              f"{r.crowded_ms:>8.3f}  {r.crowded_from[:13]:<14}{r.cold_ms:>7.3f}{r.tables_ms:>8.2f}{legal}"
              f"{r.reference_ms:>9.2f}{r.reference_ms / r.worst_ms:>8.1f}x{r.ratio:>7.2f}")
    print("cold: the worst place's call on a board just loaded, right after its tables (tables: their one-off "
          "build, once per board and rules). ratio: the worst of worst, crowded and cold over the target. "
          "Times are the fastest of several batches (other load only adds). ref.: the search before issue 21 "
          "at the same place, empty board (its own worst can be elsewhere); speed-up = ref. / worst.")


# --- generated user boards (up to 40 x 40) -------------------------------------------------------


def column_name(col: int) -> str:
    """a..z, then aa, ab...: the parser stops at 26 columns, the engine does not care."""
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = COLUMNS[rest] + name
    return name


def grid_board(path: str, rows: list[str], rooms: dict[str, str]) -> Board:
    """A board from rows of '.', '#', room letters and (lower-case) doors, built without the
    parser so it may be wider than 26 columns."""
    height, width = len(rows), len(rows[0])
    name = {(r, c): f"{column_name(c)}{r + 1}" for r in range(height) for c in range(width)}
    hall = [(r, c) for r in range(height) for c in range(width) if rows[r][c] == "."]
    index = {name[at]: i for i, at in enumerate(hall)}

    def around(r: int, c: int) -> list[tuple[int, int]]:
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < height and 0 <= c + dc < width]

    neighbours = tuple(tuple(index[name[at]] for at in around(*sq) if rows[at[0]][at[1]] == ".") for sq in hall)
    doors: list[set[str]] = [set() for _ in hall]
    exits: dict[str, set[int]] = {}
    cells = {}
    for (r, c), cell in name.items():
        letter = rows[r][c]
        if letter.upper() in rooms:
            cells[cell] = rooms[letter.upper()]
            if letter.islower():
                for at in around(r, c):
                    if rows[at[0]][at[1]] == ".":
                        doors[index[name[at]]].add(rooms[letter.upper()])
                        exits.setdefault(rooms[letter.upper()], set()).add(index[name[at]])
    return Board(path=path, width=width, height=height, squares=tuple(name[at] for at in hall),
                 neighbours=neighbours, doors=tuple(tuple(sorted(d)) for d in doors),
                 rooms=tuple(room for room in dict.fromkeys(rooms.values()) if room in exits),
                 exits={room: tuple(sorted(found)) for room, found in exits.items()}, cells=cells, starts={},
                 passages={}, marks={}, index=index)


def open_rows(size: int) -> list[str]:
    return ["." * size] * size


def maze_rows(size: int, rand: random.Random, loops: float = 0.1) -> list[str]:
    """One-square corridors carved by a random depth-first walk, then a few walls knocked out."""
    grid = [["#"] * size for _ in range(size)]
    cells = {(r, c) for r in range(1, size - 1, 2) for c in range(1, size - 1, 2)}
    stack = [(1, 1)]
    grid[1][1] = "."
    seen = {(1, 1)}
    while stack:
        r, c = stack[-1]
        ahead = [(r + dr, c + dc) for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2)) if (r + dr, c + dc) in cells - seen]
        if not ahead:
            stack.pop()
            continue
        nr, nc = rand.choice(ahead)
        seen.add((nr, nc))
        grid[(r + nr) // 2][(c + nc) // 2] = grid[nr][nc] = "."
        stack.append((nr, nc))
    for r in range(1, size - 1):
        for c in range(1, size - 1):
            if grid[r][c] == "#" and (r + c) % 2 and rand.random() < loops:
                grid[r][c] = "."
    return ["".join(row) for row in grid]


def rooms_rows(size: int, rand: random.Random) -> tuple[list[str], dict[str, str]]:
    """Rooms of 3 to 5 squares a side on a grid of 8, one to three doors each, hallway between."""
    grid = [["."] * size for _ in range(size)]
    rooms: dict[str, str] = {}
    corners = [(top, left) for top in range(2, size - 6, 8) for left in range(2, size - 6, 8)]
    for letter, (top, left) in zip(COLUMNS.upper(), corners):
        rooms[letter] = f"Room {letter}"
        tall, wide = rand.randint(3, 5), rand.randint(3, 5)
        for r in range(top, top + tall):
            for c in range(left, left + wide):
                grid[r][c] = letter
        for _ in range(rand.randint(1, 3)):
            row, col = rand.randrange(top, top + tall), rand.randrange(left, left + wide)
            r, c = rand.choice([(top, col), (top + tall - 1, col), (row, left), (row, left + wide - 1)])
            grid[r][c] = letter.lower()
    return ["".join(row) for row in grid], rooms


def user_boards(size: int = USER_SIZE) -> list[tuple[str, Board]]:
    rand = random.Random(40)
    rows, rooms = rooms_rows(size, rand)
    return [
        (f"open {size}x{size}", grid_board("open", open_rows(size), {})),
        (f"maze {size}x{size}", grid_board("maze", maze_rows(size, rand), {})),
        (f"rooms {size}x{size}", grid_board("rooms", rows, rooms)),
    ]


def worst_user_boards() -> list[Worst]:
    rows = []
    for name, board in user_boards():
        for rules_name, rules in (("", Movement()), (" MD", MASTER_DETECTIVE)):
            rows.append(worst_twelve(name + rules_name, board, rules))
    return rows


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
    worst = [worst_edition(load_edition(edition_id)) for edition_id in EDITIONS]
    users = worst_user_boards()
    print_worst(worst + users)
    applied = {edition_id: apply_times(edition_id, APPLY_GAMES) for edition_id in EDITIONS}
    print_apply(applied)
    print_games({edition_id: games_per_second(edition_id) for edition_id in EDITIONS})
    print("\nfigure                         edition             measured     target   ratio (measured/target)")
    for edition_id, row in zip(EDITIONS, worst):
        median = statistics.median(applied[edition_id])
        print(f"median apply                   {edition_id:<18}{median * 1e6:>7.1f} µs  {APPLY_TARGET_US:>6.0f} µs"
              f"   {median * 1e6 / APPLY_TARGET_US:.2f}")
    for row in worst + users:
        for label, value in (("worst destinations, roll 12", row.worst_ms), ("  crowded", row.crowded_ms),
                             ("  cold (first call, tables)", row.cold_ms)):
            print(f"{label:<31}{row.board[:19]:<20}{value:>6.2f} ms  {WORST_TARGET_MS:>6.0f} ms"
                  f"   {value / WORST_TARGET_MS:.2f}")
    for row in worst + users:
        print(f"{'board tables, once per game':<31}{row.board[:19]:<20}{row.tables_ms:>6.2f} ms  {'-':>9}"
              f"   (one-off; a first move that pays it too: {row.tables_ms + row.cold_ms:.2f} ms)")


if __name__ == "__main__":
    main()
