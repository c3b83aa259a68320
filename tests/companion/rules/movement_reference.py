"""The movement search as it was before issue 21 made it fast, kept as the reference.

Tests compare :mod:`companion.rules.movement` with this plain pruned search
(depth-first over every self-avoiding walk, cut by the static distance and
parity ball only): the results must be exactly the same sets. Do not speed it
up; it is the specification by example.

The original module notes follow.

Where a mover may go with a roll: rooms by shortest path, squares by exact count.

The rules (``RULES.md``, Classic):

* in the hallway a mover uses the whole roll, exactly N orthogonal steps,
  never the same square twice;
* a room may be entered with steps to spare, and entering ends the move;
* stepping through a door costs one step; a room is one place;
* no landing on or passing through a square that holds another mover;
* the room just left may not be re-entered this turn;
* marked spaces where a mover may stop without an exact roll (Sheldon Card
  and "?" spaces, snoop spaces) are reached like rooms.

Master Detective changes three of these (``[movement]`` in the edition): a
room may be passed through as one step, a secret passage may be taken
part-way through a roll as one step, and a mover in the way is jumped (its
square counts) though never landed on: a walk whose last step would land on it
stops one square short. Those rules run on a graph whose nodes are squares and
rooms; Classic keeps its faster hallway-only search.

Rooms therefore need only a breadth-first search. Squares need a path of
*exactly* N steps that never revisits a square, which is a search over
self-avoiding walks; it is pruned with the board's distance table so that a
branch is dropped as soon as no square still unaccounted for can be reached
from it in the steps that remain.

>>> from companion.rules.board import load_board
>>> board = load_board("classic")
>>> "Lounge" in destinations(board, "h25", 6, frozenset())
True
>>> "Lounge" in destinations(board, "h25", 5, frozenset())
False
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from companion.rules.board import Board
from companion.rules.edition import Movement
from companion.rules.errors import IllegalMove

CLASSIC = Movement()
STOP_MARKS = ("snoop", "bonus")  # marked squares a mover may stop on with steps to spare


def destinations(
    board: Board, start: str, steps: int, occupied: Collection[str],
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> frozenset[str]:
    """Every room and square a mover at ``start`` may end on with ``steps``.

    ``start`` is a square or a room name; ``occupied`` the squares holding
    other movers (rooms never block); ``avoid`` places already used this turn.
    """
    graph = _graph(board, rules, stops)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    near = graph.reach(origin, steps, blocked, banned, rules.jump_movers)
    found = graph.stops(near, origin, blocked)
    return frozenset(found) | {board.squares[i] for i in _bits(graph.exact(origin, steps, blocked, banned))}


def can_move(
    board: Board, start: str, steps: int, occupied: Collection[str],
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> bool:
    """True if the mover has anywhere at all to go (stops at the first place found)."""
    graph = _graph(board, rules, stops)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    if graph.stops(graph.reach(origin, steps, blocked, banned, rules.jump_movers), origin, blocked):
        return True
    return bool(graph.exact(origin, steps, blocked, banned, enough=1))


def reaches(
    board: Board, start: str, steps: int, occupied: Collection[str], target: str,
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> bool:
    """True if ``target`` (a room or square name) is among the destinations.

    Cheaper than :func:`destinations` for one target: it stops at the first
    path found.
    """
    return stop_steps(board, start, steps, occupied, target, rules, avoid, stops) is not None


def stop_steps(
    board: Board, start: str, steps: int, occupied: Collection[str], target: str,
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> int | None:
    """How many steps of the roll a move to ``target`` uses, or None if it is out of reach.

    Rooms and stop marks (snoop, bonus spaces) count the fewest steps there;
    any other square uses the whole roll (or one less, stopping short of a
    jumped mover).
    """
    graph = _graph(board, rules, stops)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    node = graph.node(target)
    if node is None:
        return None
    near = graph.reach(origin, steps, blocked, banned, rules.jump_movers)
    if node in graph.stops_at(near, origin, blocked):
        return near[node]
    if node >= graph.squares:
        return None
    return steps if graph.exact(origin, steps, blocked, banned, want=1 << node) else None


def way_to(
    board: Board, start: str, steps: int, occupied: Collection[str], target: str,
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> tuple[tuple[str, ...], bool]:
    """For a stop part-way (a snoop space): the places of one fewest-steps way there, and
    whether the whole roll could also end there (so the mover may stop for good).

    The rest of the move may not enter those places again.
    """
    graph = _graph(board, rules, stops)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    node = graph.nodes[target]
    parents = graph.reach(origin, steps, blocked, banned, rules.jump_movers, parents=True)
    way = [node]
    while way[-1] != origin:
        way.append(parents[way[-1]])
    whole = bool(node < graph.squares and graph.exact(origin, steps, blocked, banned, want=1 << node))
    return tuple(graph.names[n] for n in reversed(way)), whole


@dataclass(frozen=True, eq=False)
class _Graph:
    """Squares (nodes ``0..squares-1``) and rooms (the nodes after them) with the steps between.

    In Classic a room ends a walk (``open_rooms`` false) and its doors are only
    used to leave it at the start; Master Detective's rooms can be crossed and
    its passages walked as one step.
    """

    board: Board
    rules: Movement
    squares: int
    names: tuple[str, ...]
    nodes: dict[str, int]
    adjacent: tuple[tuple[int, ...], ...]
    stop_marks: int  # bitmask of squares a mover may stop on with steps to spare

    @property
    def classic(self) -> bool:
        r = self.rules
        return not (r.pass_through_rooms or r.jump_movers or r.passage_mid_roll)

    def node(self, place: str) -> int | None:
        return self.nodes.get(place)

    def begin(self, start: str, occupied: Collection[str], avoid: Collection[str]) -> tuple[int, int, int]:
        """The start node, the bitmask of occupied squares and of places not to enter."""
        origin = self.nodes.get(start)
        if origin is None:
            raise IllegalMove(f"{start!r} is not a hallway square or a room of the board")
        blocked = 0
        for square in occupied:
            at = self.nodes.get(square)
            if at is not None and at < self.squares and at != origin:
                blocked |= 1 << at
        banned = 0
        for place in avoid:
            at = self.nodes.get(place)
            if at is not None and at != origin:
                banned |= 1 << at
        return origin, blocked, banned

    def reach(self, origin: int, steps: int, blocked: int, banned: int, jump: bool, parents: bool = False) -> dict[int, int]:
        """Fewest steps to every node within ``steps``, walking the rules' graph.

        With ``parents``, each node maps instead to the node it was reached from.
        """
        seen = {origin: 0}
        came = {origin: origin}
        queue = deque([origin])
        walls = banned | (0 if jump else blocked)
        open_rooms = self.rules.pass_through_rooms
        while queue:
            here = queue.popleft()
            used = seen[here]
            if used >= steps or (here >= self.squares and here != origin and not open_rooms):
                continue
            for there in self.adjacent[here]:
                if there not in seen and not walls >> there & 1:
                    seen[there] = used + 1
                    came[there] = here
                    queue.append(there)
        return came if parents else seen

    def stops_at(self, near: dict[int, int], origin: int, blocked: int) -> set[int]:
        """The rooms and stop marks among ``near``: ends of a move that need no exact roll."""
        return {
            node for node in near
            if node != origin and (node >= self.squares or (self.stop_marks >> node & 1 and not blocked >> node & 1))
        }

    def stops(self, near: dict[int, int], origin: int, blocked: int) -> set[str]:
        return {self.names[node] for node in self.stops_at(near, origin, blocked)}

    def exact(self, origin: int, steps: int, blocked: int, banned: int, enough: int = 0, want: int = -1) -> int:
        """Bitmask of free squares that end a walk of exactly ``steps`` (within ``want``)."""
        if self.classic:
            return _classic_exact(self, origin, steps, blocked | banned, want, enough)
        return _free_exact(self, origin, steps, blocked, banned, want, enough)


@lru_cache(maxsize=32)
def _graph(board: Board, rules: Movement, stops: tuple[str, ...]) -> _Graph:
    """The movement graph of a board under a set of rules, built once per board and rules.

    ``stops`` are the kinds of marked square a move may end on with steps to spare.
    """
    count = len(board.squares)
    names = board.squares + board.rooms
    nodes = {name: i for i, name in enumerate(names)}
    adjacent: list[list[int]] = [list(around) for around in board.neighbours]
    adjacent += [[] for _ in board.rooms]
    for square, rooms in enumerate(board.doors):
        for room in rooms:
            adjacent[square].append(nodes[room])
            adjacent[nodes[room]].append(square)
    if rules.passage_mid_roll:
        for place, others in board.passages.items():
            adjacent[nodes[place]].extend(nodes[other] for other in others)
    marks = sum(1 << square for square, kind in board.marks.items() if kind in stops)
    return _Graph(board, rules, count, names, nodes, tuple(tuple(dict.fromkeys(a)) for a in adjacent), marks)


def _classic_exact(graph: _Graph, origin: int, steps: int, blocked: int, want: int, enough: int) -> int:
    """Classic: self-avoiding hallway walks; a room is only ever the start, left by a door."""
    board = graph.board
    if origin < graph.squares:
        origins = [(origin, 0, 1 << origin)]
    else:
        exits = board.exits.get(graph.names[origin], ())
        origins = [(square, 1, 1 << square) for square in exits if not blocked >> square & 1]
    wanted = 0
    for square, used, _ in origins:
        if used <= steps:
            wanted |= board.ball(square, steps - used)
    wanted &= ~blocked & want
    return _exact_squares(board, origins, steps, blocked, wanted, enough)


def _exact_squares(
    board: Board, origins: list[tuple[int, int, int]], steps: int, blocked: int, wanted: int, enough: int = 0
) -> int:
    """Bitmask of the ``wanted`` squares that end a self-avoiding walk of exactly ``steps``.

    Depth-first over walks; a branch is cut as soon as no wanted square not
    yet found lies within reach (by distance and parity) of where it stands.
    With ``enough`` set, the search stops once that many squares are found.
    """
    neighbours, ball = board.neighbours, board.ball
    table = _ball_table(board, steps)
    found = 0

    def walk(square: int, left: int, visited: int) -> None:
        nonlocal found, wanted
        if left == 0:
            found |= 1 << square
            wanted &= ~(1 << square)
            if enough and found.bit_count() >= enough:
                wanted = 0
            return
        left -= 1
        reach = table[left]
        for there in neighbours[square]:
            if not visited >> there & 1 and reach[there] & wanted:
                walk(there, left, visited | 1 << there)

    for square, used, visited in origins:
        if used <= steps and ball(square, steps - used) & wanted:
            walk(square, steps - used, visited | blocked)
    return found


@lru_cache(maxsize=64)
def _ball_table(board: Board, steps: int) -> tuple[tuple[int, ...], ...]:
    """``table[k][x]`` is ``board.ball(x, k)`` for k up to ``steps``: indexing beats a call in the hot loop."""
    return tuple(tuple(board.ball(x, k) for x in range(len(board.squares))) for k in range(steps + 1))


def _free_exact(graph: _Graph, origin: int, steps: int, blocked: int, banned: int, want: int, enough: int) -> int:
    """Master Detective's walks: through open rooms and passages, jumping movers.

    A walk never enters a node twice. It may pass an occupied square but not
    end there; a walk whose last step would land on one ends a step short
    instead. Pruned like Classic, with walk-reachability sets of the graph
    (which has odd cycles through rooms, so distance parity does not apply).
    """
    adjacent, squares = graph.adjacent, graph.squares
    balls = _balls(graph)
    balls.ball(0, steps)  # grow the table once; the walk then indexes it directly
    masks = balls.masks
    jump, open_rooms = graph.rules.jump_movers, graph.rules.pass_through_rooms
    walls = banned | (0 if jump else blocked)
    free = ((1 << squares) - 1) & ~blocked & ~banned & want
    wanted = balls.from_start(origin, steps) & free
    if jump:
        near_mover = 0
        for square in _bits(blocked):
            for there in adjacent[square]:
                near_mover |= 1 << there
        short = (balls.from_start(origin, steps - 1) if steps >= 1 else 0) & free & near_mover
    else:
        short = 0
    found = 0

    def walk(node: int, left: int, visited: int) -> None:
        nonlocal found, wanted, short
        if left == 0:
            if wanted >> node & 1:
                found |= 1 << node
                wanted &= ~(1 << node)
            return
        if left == 1 and short >> node & 1:
            if any(blocked >> there & 1 and not visited >> there & 1 for there in adjacent[node]):
                found |= 1 << node
                short &= ~(1 << node)
                wanted &= ~(1 << node)
        if enough and found.bit_count() >= enough:
            wanted = short = 0
            return
        if node >= squares and node != origin and not open_rooms:
            return
        left -= 1
        for there in adjacent[node]:
            if visited >> there & 1 or walls >> there & 1:
                continue
            if masks[left][there] & wanted or (left and masks[left - 1][there] & short):
                walk(there, left, visited | 1 << there)

    walk(origin, steps, 1 << origin)
    return found & ~(1 << origin)


class _Balls:
    """``ball(x, k)``: nodes some walk of exactly k steps from ``x`` may end on.

    Rooms that end a walk are not walked through, except as the first node.
    Grown on demand, one step for every node at a time.
    """

    def __init__(self, graph: _Graph) -> None:
        open_rooms = graph.rules.pass_through_rooms
        self.onward = [adj if node < graph.squares or open_rooms else () for node, adj in enumerate(graph.adjacent)]
        self.first = graph.adjacent
        self.masks: list[list[int]] = [[1 << node for node in range(len(graph.adjacent))]]

    def ball(self, node: int, steps: int) -> int:
        while steps >= len(self.masks):
            last = self.masks[-1]
            self.masks.append([_union(last, adj) for adj in self.onward])
        return self.masks[steps][node]

    def from_start(self, node: int, steps: int) -> int:
        """Like :meth:`ball`, for the walk's first node (a room one may always leave)."""
        if steps == 0:
            return 1 << node
        return _union([self.ball(n, steps - 1) for n in range(len(self.first))], self.first[node])


def _union(masks: list[int], nodes: tuple[int, ...]) -> int:
    total = 0
    for node in nodes:
        total |= masks[node]
    return total


@lru_cache(maxsize=32)
def _balls(graph: _Graph) -> _Balls:
    return _Balls(graph)


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices
