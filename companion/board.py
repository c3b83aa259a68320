"""Board geometry: the text map of an edition, parsed into squares, rooms and doors.

A map is a grid of one character per square (see ``docs/editions.md``). Lines
starting with ``"# "`` (or a lone ``"#"``) are comments; every other non-blank
line is a row. What each character means comes from the edition's ``[board]``
legend, so one parser serves every edition.

Squares are named by column letter and row number from the top-left:

>>> board = load_board("classic")
>>> board.start_of("Miss Scarlet")
'h25'
>>> board.room_at("e7")
'Kitchen'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources

from .errors import EditionError

# Columns are letters, so a map is at most 26 squares wide.
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Legend:
    """What the characters of a map mean, as an edition declares it."""

    hallway: str = "."
    void: str = "#"
    rooms: Mapping[str, str] = field(default_factory=dict)
    starts: Mapping[str, str] = field(default_factory=dict)
    passages: tuple[tuple[str, str], ...] = ()
    marks: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Board:
    """The hallway graph plus the rooms reached through its doors.

    Hallway squares are numbered; ``neighbours[i]`` are the squares one
    orthogonal step from square ``i``, ``doors[i]`` the rooms entered from it.
    A room is one place: ``exits[room]`` are the squares in front of its doors.
    """

    path: str
    width: int
    height: int
    squares: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    doors: tuple[tuple[str, ...], ...]
    rooms: tuple[str, ...]
    exits: Mapping[str, tuple[int, ...]]
    cells: Mapping[str, str]
    starts: Mapping[str, int]
    passages: Mapping[str, tuple[str, ...]]
    marks: Mapping[int, str]
    index: Mapping[str, int]

    def square(self, name: str) -> int:
        """The number of a hallway square by name (KeyError if it is not one)."""
        return self.index[name.strip().lower()]

    def start_of(self, suspect: str) -> str:
        """The name of a suspect's start square."""
        return self.squares[self.starts[suspect]]

    def room_at(self, name: str) -> str | None:
        """The room a square of the grid belongs to, if any."""
        return self.cells.get(name.strip().lower())

    def is_square(self, name: str) -> bool:
        """True for a hallway square's name."""
        return name.strip().lower() in self.index

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """Hallway distances between every pair of squares, ignoring movers.

        Computed once per board; movement uses it as a lower bound to prune its
        search, since movers and visited squares can only make paths longer.
        """
        return tuple(self._bfs(source) for source in range(len(self.squares)))

    @cached_property
    def balls(self) -> tuple[tuple[int, ...], ...]:
        """``balls[x][k]``: bitmask of squares some k-step walk from ``x`` could end on.

        That is every square within ``k`` of ``x`` whose distance has the
        parity of ``k`` (a grid is two-coloured, so every walk between two
        squares has the parity of their distance). Past the board's diameter
        the mask only alternates; :meth:`ball` folds large ``k`` onto it.
        """
        far = len(self.squares) + 1
        longest = max((d for row in self.distances for d in row if d < far), default=0) + 1
        balls = []
        for row in self.distances:
            by_distance = [0] * (longest + 1)
            for target, d in enumerate(row):
                if d < far:
                    by_distance[d] |= 1 << target
            masks = [by_distance[0], by_distance[1]]
            for k in range(2, longest + 1):
                masks.append(masks[k - 2] | by_distance[k])
            balls.append(tuple(masks))
        return tuple(balls)

    def ball(self, square: int, steps: int) -> int:
        """``balls[square][steps]``, for any number of steps."""
        masks = self.balls[square]
        top = len(masks) - 1
        return masks[steps] if steps <= top else masks[top - (steps - top) % 2]

    def _bfs(self, source: int) -> tuple[int, ...]:
        far = len(self.squares) + 1
        dist = [far] * len(self.squares)
        dist[source] = 0
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for there in self.neighbours[here]:
                if dist[there] == far:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return tuple(dist)


def load_board(edition_id: str) -> Board:
    """The board of a bundled edition (a convenience for docs and tests)."""
    from .edition import load_edition

    return load_edition(edition_id).require_board()


def read_map(path: str, legend: Legend, text: str | None = None) -> Board:
    """Parse the map at ``path`` (or ``text``, naming it ``path`` in errors)."""
    if text is None:
        text = _read_text(path)
    rows = _grid_rows(path, text)
    _check_characters(path, rows, legend)
    return _build(path, rows, legend)


def read_bundled_map(filename: str, legend: Legend) -> Board:
    """Parse a map shipped inside ``companion/editions``."""
    resource = resources.files("companion.editions").joinpath(filename)
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(filename, None, f"cannot read map: {err}") from err
    return read_map(filename, legend, text)


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(path, None, f"cannot read map: {err}") from err


def _is_comment(line: str) -> bool:
    return line == "#" or line.startswith("# ") or line.startswith("#\t")


def _grid_rows(path: str, text: str) -> list[tuple[int, str]]:
    rows = [
        (number, line.rstrip("\r\n"))
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not _is_comment(line.rstrip())
    ]
    if not rows:
        raise EditionError(path, None, "no grid rows in the map")
    width = len(rows[0][1])
    if width > len(COLUMNS):
        raise EditionError(path, rows[0][0], f"row is {width} squares wide; at most 26")
    for number, line in rows:
        if len(line) != width:
            raise EditionError(
                path, number, f"row is {len(line)} squares wide, expected {width} like the first row"
            )
    return rows


def _check_characters(path: str, rows: list[tuple[int, str]], legend: Legend) -> None:
    doors = {letter.lower() for letter in legend.rooms}
    known = set(legend.hallway + legend.void) | set(legend.rooms) | doors
    known |= set(legend.starts) | set(legend.marks)
    for row, (number, line) in enumerate(rows, start=1):
        for column, char in enumerate(line):
            if char not in known:
                raise EditionError(
                    path,
                    number,
                    f"unknown character {char!r} at {COLUMNS[column]}{row}; "
                    f"the legend has {''.join(sorted(known))!r}",
                )


def _build(path: str, rows: list[tuple[int, str]], legend: Legend) -> Board:
    grid = [line for _, line in rows]
    lines = [number for number, _ in rows]
    walkable = set(legend.hallway) | set(legend.starts) | set(legend.marks)

    def name(row: int, col: int) -> str:
        return f"{COLUMNS[col]}{row + 1}"

    squares: list[str] = []
    index: dict[str, int] = {}
    cells: dict[str, str] = {}
    door_cells: list[tuple[int, int, str]] = []
    for row, line in enumerate(grid):
        for col, char in enumerate(line):
            if char in walkable:
                index[name(row, col)] = len(squares)
                squares.append(name(row, col))
            elif char.upper() in legend.rooms and char.isalpha():
                cells[name(row, col)] = legend.rooms[char.upper()]
                if char.islower():
                    door_cells.append((row, col, legend.rooms[char.upper()]))

    def around(row: int, col: int) -> list[tuple[int, int]]:
        steps = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        return [(r, c) for r, c in steps if 0 <= r < len(grid) and 0 <= c < len(grid[0])]

    neighbours = [
        tuple(index[name(r, c)] for r, c in around(*_position(sq)) if name(r, c) in index)
        for sq in squares
    ]
    doors: list[set[str]] = [set() for _ in squares]
    exits: dict[str, set[int]] = {}
    for row, col, room in door_cells:
        outside = [index[name(r, c)] for r, c in around(row, col) if name(r, c) in index]
        if not outside:
            raise EditionError(path, lines[row], f"door {name(row, col)} of the {room} opens onto no hallway square")
        for square in outside:
            doors[square].add(room)
            exits.setdefault(room, set()).add(square)

    rooms = tuple(dict.fromkeys(legend.rooms.values()))
    passages = _passages(path, legend, rooms)
    for room in rooms:
        if room not in cells.values():
            raise EditionError(path, None, f"the legend's room {room!r} is not on the map", key=_letter(legend, room))
        if room not in exits and room not in passages:
            raise EditionError(path, None, f"the {room} has no door and no passage", key=_letter(legend, room))
    return Board(
        path=path,
        width=len(grid[0]),
        height=len(grid),
        squares=tuple(squares),
        neighbours=tuple(neighbours),
        doors=tuple(tuple(sorted(found)) for found in doors),
        rooms=rooms,
        exits={room: tuple(sorted(found)) for room, found in exits.items()},
        cells=cells,
        starts=_starts(path, legend, grid, lines, index),
        passages=passages,
        marks=_marks(legend, grid, index),
        index=index,
    )


def _letter(legend: Legend, room: str) -> str:
    return next(letter for letter, name in legend.rooms.items() if name == room)


def _position(square: str) -> tuple[int, int]:
    return int(square[1:]) - 1, COLUMNS.index(square[0])


def _starts(
    path: str, legend: Legend, grid: list[str], lines: list[int], index: Mapping[str, int]
) -> dict[str, int]:
    starts: dict[str, int] = {}
    for row, line in enumerate(grid):
        for col, char in enumerate(line):
            if char in legend.starts:
                suspect = legend.starts[char]
                if suspect in starts:
                    raise EditionError(path, lines[row], f"a second start square for {suspect} ({char!r})")
                starts[suspect] = index[f"{COLUMNS[col]}{row + 1}"]
    on_map = {char for line in grid for char in line}
    for char, suspect in legend.starts.items():
        if char not in on_map:
            raise EditionError(path, None, f"no start square {char!r} for {suspect} on the map", key=char)
    return starts


def _marks(legend: Legend, grid: list[str], index: Mapping[str, int]) -> dict[int, str]:
    return {
        index[f"{COLUMNS[col]}{row + 1}"]: legend.marks[char]
        for row, line in enumerate(grid)
        for col, char in enumerate(line)
        if char in legend.marks
    }


def _passages(path: str, legend: Legend, rooms: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    links: dict[str, list[str]] = {}
    for one, other in legend.passages:
        for room in (one, other):
            if room not in rooms:
                raise EditionError(path, None, f"passage names {room!r}, which is not a room of the map", key="pairs")
        links.setdefault(one, []).append(other)
        links.setdefault(other, []).append(one)
    return {room: tuple(found) for room, found in links.items()}
