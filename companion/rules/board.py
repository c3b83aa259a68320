"""Board geometry: the text map of an edition, parsed into squares, rooms and doors.

A map is a grid of one character per square (see ``docs/editions.md``). Lines
starting with ``"# "`` (or a lone ``"#"``) are comments; every other non-blank
line is a row. What each character means comes from the edition's ``[board]``
legend, so one parser serves every edition.

Squares are named by column letters and row number from the top-left; past
the 26th column, columns are named like a spreadsheet's ("aa" ... "an"):

>>> board = load_board("classic")
>>> board.start_of("Miss Scarlet")
'h25'
>>> board.room_at("e7")
'Kitchen'
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources

from .errors import EditionError

COLUMNS = "abcdefghijklmnopqrstuvwxyz"  # the one-letter column names; wider maps go on as "aa", "ab", ...
MAX_SIDE = 40  # squares: the widest and tallest map (columns "a" to "an", rows 1 to 40)
# A square's name as players type it (lower case): column letters, then the row number.
SQUARE_NAME = re.compile(r"([a-z]{1,2})([0-9]{1,2})")


def column_name(index: int) -> str:
    """The letters of column ``index`` (from 0): "a" to "z", then "aa", "ab", ... like a spreadsheet.

    >>> column_name(0), column_name(25), column_name(26), column_name(39)
    ('a', 'z', 'aa', 'an')
    """
    if not 0 <= index < MAX_SIDE:
        raise ValueError(f"column {index + 1} is off a map of at most {MAX_SIDE} columns")
    if index < len(COLUMNS):
        return COLUMNS[index]
    return COLUMNS[index // len(COLUMNS) - 1] + COLUMNS[index % len(COLUMNS)]


def square_name(row: int, col: int) -> str:
    """The name of the square at ``row`` and ``col`` (from 0): ``square_name(24, 7) == "h25"``."""
    return f"{column_name(col)}{row + 1}"


def square_position(name: str) -> tuple[int, int]:
    """``(row, column)`` from 0 of a square's name; ValueError if it names no square of a map.

    >>> square_position("h25"), square_position("an40")
    ((24, 7), (39, 39))
    """
    found = SQUARE_NAME.fullmatch(name.strip().lower())
    if found is None:
        raise ValueError(f"{name!r} is not a square's name")
    letters, number = found.groups()
    col = _column_index(letters)
    if col >= MAX_SIDE or not 1 <= int(number) <= MAX_SIDE:
        raise ValueError(f"{name!r} is off a map of at most {MAX_SIDE} x {MAX_SIDE} squares")
    return int(number) - 1, col


def _column_index(letters: str) -> int:
    """Column letters read as a spreadsheet's: "a" is 0, "z" 25, "aa" 26."""
    index = 0
    for letter in letters:
        index = index * len(COLUMNS) + COLUMNS.index(letter) + 1
    return index - 1


@dataclass(frozen=True)
class Legend:
    """What the characters of a map mean, as an edition declares it."""

    hallway: str = "."
    void: str = "#"
    rooms: Mapping[str, str] = field(default_factory=dict)
    starts: Mapping[str, str] = field(default_factory=dict)
    passages: tuple[tuple[str, str], ...] = ()
    marks: Mapping[str, str] = field(default_factory=dict)
    start_room: str | None = None  # where movers without a start square begin
    spots: Mapping[str, str] = field(default_factory=dict)  # character -> name of one square
    joins: tuple[tuple[str, str], ...] = ()  # joining rooms: a passage drawn as a shared doorway
    aliases: Mapping[str, str] = field(default_factory=dict)  # other names for places


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
    marks: Mapping[int, str]  # square -> kind ("snoop", "bonus", ...)
    index: Mapping[str, int]
    start_room: str | None = None
    spots: Mapping[str, int] = field(default_factory=dict)  # name -> square
    passage_pairs: tuple[tuple[str, str], ...] = ()  # as declared: room or spot names
    joins: tuple[tuple[str, str], ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    door_cells: tuple[str, ...] = ()  # grid squares that are doors (they belong to their room)

    def start_place(self, suspect: str) -> str:
        """Where a suspect's mover begins: its start square, else the start room."""
        if suspect in self.starts:
            return self.squares[self.starts[suspect]]
        if self.start_room is None:
            raise KeyError(suspect)
        return self.start_room

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
    """Parse the map at ``path`` (or ``text``, naming it ``path`` in errors).

    Raises :class:`EditionError` for the first problem :func:`check_map` finds.
    """
    board, problems = _parse(path, legend, text)
    if problems or board is None:
        raise (problems[0] if problems else Problem(None, None, "no grid rows in the map")).error(path)
    return board


def read_bundled_map(filename: str, legend: Legend) -> Board:
    """Parse a map shipped inside ``companion/editions``."""
    return read_map(filename, legend, bundled_map_text(filename))


def bundled_map_text(filename: str) -> str:
    resource = resources.files("companion.rules.editions").joinpath(filename)
    try:
        return resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(filename, None, f"cannot read map: {err}") from err


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(path, None, f"cannot read map: {err}") from err


def _is_comment(line: str) -> bool:
    return line == "#" or line.startswith("# ") or line.startswith("#\t")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a map: where (line and column of the file, when known) and what."""

    line: int | None
    column: int | None
    message: str
    key: str | None = None  # the legend entry to blame when no line of the map is

    def error(self, path: str) -> EditionError:
        error = EditionError(path, self.line, self.message, key=self.key)
        error.column = self.column
        return error

    def describe(self, path: str) -> str:
        where = ":".join(str(part) for part in (path, self.line, self.column) if part is not None)
        return f"{where}: {self.message}"


class _Grid:
    """The rows of a map file with their line numbers, and the square names of its cells."""

    def __init__(self, rows: list[tuple[int, str]]) -> None:
        self.rows = [line for _, line in rows]
        self.lines = [number for number, _ in rows]

    def name(self, row: int, col: int) -> str:
        return square_name(row, col)

    def cells(self) -> Iterator[tuple[int, int, str]]:
        for row, line in enumerate(self.rows):
            for col, char in enumerate(line):
                yield row, col, char

    def around(self, row: int, col: int) -> list[tuple[int, int]]:
        steps = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        return [(r, c) for r, c in steps if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[0])]

    def at(self, row: int, col: int, message: str) -> Problem:
        return Problem(self.lines[row], col + 1, message)


def check_map(path: str, legend: Legend, text: str | None = None) -> list[Problem]:
    """Every problem with a map, in file order; an empty list means it is sound.

    ``clue-companion board check`` prints these; :func:`read_map` raises the first.
    """
    try:
        _, problems = _parse(path, legend, text)
    except EditionError as err:
        return [Problem(err.line, err.column, err.problem, err.key)]
    return problems


def _parse(path: str, legend: Legend, text: str | None) -> tuple[Board | None, list[Problem]]:
    if text is None:
        text = _read_text(path)
    rows, problems = _grid_rows(text)
    if problems or not rows:
        return None, problems or [Problem(None, None, "no grid rows in the map")]
    grid = _Grid(rows)
    # Unknown characters are reported, then read as void, so one run lists the rest too.
    problems = _check_characters(grid, legend)
    board, more = _build(path, grid, legend)
    problems += more + _check_reachable(board, legend)
    return board, sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))


def _grid_rows(text: str) -> tuple[list[tuple[int, str]], list[Problem]]:
    rows = [
        (number, line.rstrip("\r\n"))
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not _is_comment(line.rstrip())
    ]
    if not rows:
        return rows, []
    width = len(rows[0][1])
    if width > MAX_SIDE:
        return rows, [Problem(rows[0][0], MAX_SIDE + 1, f"row is {width} squares wide; at most {MAX_SIDE}")]
    if len(rows) > MAX_SIDE:
        return rows, [Problem(rows[MAX_SIDE][0], 1, f"the map has {len(rows)} rows; at most {MAX_SIDE}")]
    problems = [
        Problem(number, min(len(line), width) + 1, f"row is {len(line)} squares wide, expected {width} like the first row")
        for number, line in rows
        if len(line) != width
    ]
    return rows, problems


def _check_characters(grid: _Grid, legend: Legend) -> list[Problem]:
    doors = {letter.lower() for letter in legend.rooms}
    known = set(legend.hallway + legend.void) | set(legend.rooms) | doors
    known |= set(legend.starts) | set(legend.marks) | set(legend.spots)
    return [
        grid.at(row, col, f"unknown character {char!r} at {grid.name(row, col)}; "
                          f"the legend has {''.join(sorted(known))!r}")
        for row, col, char in grid.cells()
        if char not in known
    ]


def _build(path: str, grid: _Grid, legend: Legend) -> tuple[Board, list[Problem]]:
    walkable = set(legend.hallway) | set(legend.starts) | set(legend.marks) | set(legend.spots)
    problems: list[Problem] = []
    squares: list[str] = []
    index: dict[str, int] = {}
    cells: dict[str, str] = {}
    door_cells: list[tuple[int, int, str]] = []
    for row, col, char in grid.cells():
        if char in walkable:
            index[grid.name(row, col)] = len(squares)
            squares.append(grid.name(row, col))
        elif char.upper() in legend.rooms and char.isalpha():
            cells[grid.name(row, col)] = legend.rooms[char.upper()]
            if char.islower():
                door_cells.append((row, col, legend.rooms[char.upper()]))

    neighbours = [
        tuple(index[grid.name(r, c)] for r, c in grid.around(*square_position(sq)) if grid.name(r, c) in index)
        for sq in squares
    ]
    doors: list[set[str]] = [set() for _ in squares]
    exits: dict[str, set[int]] = {}
    for row, col, room in door_cells:
        outside = [index[grid.name(r, c)] for r, c in grid.around(row, col) if grid.name(r, c) in index]
        if not outside:
            problems.append(grid.at(row, col, f"door {grid.name(row, col)} of the {room} opens onto no hallway square"))
        for square in outside:
            doors[square].add(room)
            exits.setdefault(room, set()).add(square)

    rooms = tuple(dict.fromkeys(legend.rooms.values()))
    for room in rooms:
        if room not in cells.values():
            problems.append(Problem(None, None, f"the legend's room {room!r} is not on the map", _letter(legend, room)))
    starts, found = _starts(grid, legend, index)
    spots, more = _spots(grid, legend, index)
    problems += found + more
    if legend.start_room is not None and legend.start_room not in rooms:
        problems.append(Problem(None, None, f"start_room {legend.start_room!r} is not a room of the map", "start_room"))
    passages, more = _passages(legend, rooms, spots, squares)
    problems += more
    board = Board(
        path=path,
        width=len(grid.rows[0]),
        height=len(grid.rows),
        squares=tuple(squares),
        neighbours=tuple(neighbours),
        doors=tuple(tuple(sorted(found)) for found in doors),
        rooms=rooms,
        exits={room: tuple(sorted(found)) for room, found in exits.items()},
        cells=cells,
        starts=starts,
        passages=passages,
        marks=_marks(grid, legend, index),
        index=index,
        start_room=legend.start_room,
        spots=spots,
        passage_pairs=legend.passages,
        joins=legend.joins,
        aliases=dict(legend.aliases),
        door_cells=tuple(grid.name(row, col) for row, col, _ in door_cells),
    )
    return board, sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))


def _letter(legend: Legend, room: str) -> str:
    return next(letter for letter, name in legend.rooms.items() if name == room)


def _starts(grid: _Grid, legend: Legend, index: Mapping[str, int]) -> tuple[dict[str, int], list[Problem]]:
    return _single_squares(grid, legend.starts, index, "a second start square for {name} ({char!r})",
                           "no start square {char!r} for {name} on the map")


def _spots(grid: _Grid, legend: Legend, index: Mapping[str, int]) -> tuple[dict[str, int], list[Problem]]:
    """Named single squares (passage ends): each character exactly once on the map."""
    return _single_squares(grid, legend.spots, index, "a second square for the spot {name} ({char!r})",
                           "no square {char!r} for the spot {name} on the map")


def _single_squares(
    grid: _Grid, chars: Mapping[str, str], index: Mapping[str, int], twice: str, absent: str
) -> tuple[dict[str, int], list[Problem]]:
    """Where each legend character that names one square stands: name -> square, and the problems."""
    found: dict[str, int] = {}
    problems: list[Problem] = []
    for row, col, char in grid.cells():
        if char in chars:
            name = chars[char]
            if name in found:
                problems.append(grid.at(row, col, twice.format(name=name, char=char)))
            else:
                found[name] = index[grid.name(row, col)]
    for char, name in chars.items():
        if name not in found:
            problems.append(Problem(None, None, absent.format(name=name, char=char), char))
    return found, problems


def _marks(grid: _Grid, legend: Legend, index: Mapping[str, int]) -> dict[int, str]:
    return {
        index[grid.name(row, col)]: legend.marks[char]
        for row, col, char in grid.cells()
        if char in legend.marks
    }


def _passages(
    legend: Legend, rooms: tuple[str, ...], spots: Mapping[str, int], squares: list[str]
) -> tuple[dict[str, tuple[str, ...]], list[Problem]]:
    """Where each passage end leads: rooms by name, spots by their square's name."""
    links: dict[str, list[str]] = {}
    problems: list[Problem] = []
    used: set[str] = set()
    for one, other in (*legend.passages, *legend.joins):
        ends = []
        for end in (one, other):
            if end in rooms:
                ends.append(end)
            elif end in spots:
                ends.append(squares[spots[end]])
            else:
                problems.append(Problem(None, None, f"passage names {end!r}, which is not a room or spot of the map", "pairs"))
        if one == other:
            problems.append(Problem(None, None, f"a passage must join two places, not {one!r} to itself", "pairs"))
        if len(ends) == 2 and one != other:
            links.setdefault(ends[0], []).append(ends[1])
            links.setdefault(ends[1], []).append(ends[0])
            used.update((one, other))
    for name in spots:
        if name not in used:
            problems.append(Problem(None, None, f"the spot {name} is the end of no passage: passages must pair up", "pairs"))
    return {place: tuple(found) for place, found in links.items()}, problems


def _check_reachable(board: Board, legend: Legend) -> list[Problem]:
    """Rooms no mover can get to from where movers start, through doors and passages."""
    starts = [board.squares[i] for i in board.starts.values()]
    if board.start_room is not None:
        starts.append(board.start_room)
    if not starts or any(room not in board.cells.values() for room in board.rooms):
        return []
    seen = set(starts)
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        if here in board.index:
            at = board.index[here]
            nexts = [board.squares[i] for i in board.neighbours[at]] + list(board.doors[at])
        else:
            nexts = [board.squares[i] for i in board.exits.get(here, ())]
        nexts += board.passages.get(here, [])
        for there in nexts:
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return [
        Problem(None, None, f"the {room} cannot be reached from the start: no door or passage leads to it",
                _letter(legend, room))
        for room in board.rooms
        if room not in seen
    ]
