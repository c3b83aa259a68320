"""Where a mover may go with a roll: rooms by shortest path, squares by exact count.

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
self-avoiding walks, depth-first with the walk as a bitmask. What makes it
fast (issue 21's target: a roll of 12 in under 2 ms, on 40 x 40 boards too):

* a branch is dropped as soon as no square still wanted, and not on the walk
  already, is among the ends of *any* walk (self-avoiding or not) of the steps
  left from where it stands: one AND with a table ``masks[k][x]`` (``_Reach``);
  in the hallway those are the squares at most k away with k's parity;
* the table covers the whole board, built a level of steps at a time (one OR
  per step of every node) the first time a board is used with its rules, or
  ahead of play by :func:`prepare`: a few milliseconds once on a 40 x 40 board,
  after which no move pays for it (filling only around each start made every
  new start pay again, about a millisecond on such a board);
* nothing is searched for that cannot be an end: the start square itself, and
  squares the movers put beyond the roll (the rooms' breadth-first search
  already knows which);
* the last two steps are mask operations, not calls, and the search stops the
  moment nothing is left to find;
* with Master Detective's rules, walks that stay in the hallway are searched
  first, with the hallway's parity (rooms and passages break it, so the
  general table cannot use it), then walks that take the shortest way into a
  room and go on by the hallway from its far doors; the full search then only
  looks for the rest (more rooms, passages) and for proof that nothing else
  is left, pruned by the table and by the fewest steps to a square still
  wanted around the walls (``_Graph.gaps``), which proves most of them out
  of reach at once;
* stopping a square short of a jumped mover is a walk one step shorter that
  never touches that mover: the same search again, with the mover as a wall,
  so the quick passes serve it too.

The sets are exactly those of the plain search this replaced, which the tests
keep as ``tests/companion/rules/movement_reference.py`` and compare against.

>>> from companion.rules.board import load_board
>>> board = load_board("classic")
>>> "Lounge" in destinations(board, "h25", 6, frozenset())
True
>>> "Lounge" in destinations(board, "h25", 5, frozenset())
False
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .board import Board
from .edition import Movement
from .errors import IllegalMove

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
    graph = _graph(board, rules)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    near = graph.reach(origin, steps, blocked, banned, rules.jump_movers)
    found = graph.stops(near, origin, blocked, _marks(board, stops))
    return frozenset(found) | {board.squares[i] for i in _bits(graph.exact(origin, steps, blocked, banned, near=near))}


def can_move(
    board: Board, start: str, steps: int, occupied: Collection[str],
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> bool:
    """True if the mover has anywhere at all to go (stops at the first place found)."""
    graph = _graph(board, rules)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    near = graph.reach(origin, steps, blocked, banned, rules.jump_movers)
    if graph.stops(near, origin, blocked, _marks(board, stops)):
        return True
    return bool(graph.exact(origin, steps, blocked, banned, enough=1, near=near))


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
    graph = _graph(board, rules)
    origin, blocked, banned = graph.begin(start, occupied, avoid)
    node = graph.node(target)
    if node is None:
        return None
    near = graph.reach(origin, steps, blocked, banned, rules.jump_movers)
    if node in graph.stops_at(near, origin, blocked, _marks(board, stops)):
        return near[node]
    if node >= graph.squares or node not in near:
        return None
    return steps if graph.exact(origin, steps, blocked, banned, want=1 << node, near=near) else None


def way_to(
    board: Board, start: str, steps: int, occupied: Collection[str], target: str,
    rules: Movement = CLASSIC, avoid: Collection[str] = (), stops: tuple[str, ...] = STOP_MARKS,
) -> tuple[tuple[str, ...], bool]:
    """For a stop part-way (a snoop space): the places of one fewest-steps way there, and
    whether the whole roll could also end there (so the mover may stop for good).

    The rest of the move may not enter those places again.
    """
    graph = _graph(board, rules)
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
    behind: tuple[tuple[int, ...], ...]  # the nodes a step leads from (a passage may be one-way)

    @cached_property
    def hallway(self) -> _Reach:
        """Walk-reachability of the hallway alone (Classic walks, and the quick passes of Master Detective's)."""
        return _Reach(self.board.neighbours, self.board.neighbours)

    @cached_property
    def free(self) -> _Reach:
        """Walk-reachability of squares and rooms (rooms that end a walk lead nowhere)."""
        if self.adjacent == self.board.neighbours:
            return self.hallway  # no rooms, no passages: one table to fill on a board just drawn, not two
        if self.rules.pass_through_rooms:
            return _Reach(self.adjacent, self.adjacent)
        onward = list(self.adjacent)
        onward[self.squares:] = [()] * (len(onward) - self.squares)
        return _Reach(tuple(onward), self.adjacent, ends=range(self.squares, len(onward)))

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
            raise IllegalMove("{start!r} is not a hallway square or a room of the board", start=start)
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
        return self.spread(origin, steps, banned | (0 if jump else blocked), parents)

    def spread(self, origin: int, steps: int, walls: int, parents: bool = False) -> dict[int, int]:
        """:meth:`reach` around the nodes of ``walls``."""
        seen = {origin: 0}
        came = {origin: origin}
        stop = set(_bits(walls))  # a few nodes: a set is cheaper to ask than a board-wide bitmask
        ring = [origin]
        open_rooms, squares, adjacent = self.rules.pass_through_rooms, self.squares, self.adjacent
        for used in range(1, steps + 1):  # ring by ring: the order of a queue, so the same parents
            onward = []
            for here in ring:
                if here >= squares and here != origin and not open_rooms:
                    continue
                for there in adjacent[here]:
                    if there not in seen and there not in stop:
                        seen[there] = used
                        came[there] = here
                        onward.append(there)
            ring = onward
        return came if parents else seen

    def gaps(self, targets: int, walls: int, steps: int, dist: dict[int, int]) -> list[int]:
        """Fewest steps from each node to the nearest of ``targets`` around ``walls`` (``steps`` + 1 if more).

        A breadth-first search back from the targets; a closed room is reached
        but not walked through (a walk that enters one ends there). Only nodes
        a walk of ``steps`` from the start (``dist``: its fewest steps to
        each) could stand on on its way to a target are worth a figure: the
        others keep ``steps`` + 1, and every way through them is too long too.
        """
        far = steps + 1
        gap = [far] * len(self.names)
        ring = _bits(targets)
        for target in ring:
            gap[target] = 0
        open_rooms = self.rules.pass_through_rooms
        for distance in range(1, far):
            onward = []
            for node in ring:
                for before in self.behind[node]:
                    if gap[before] == far and not walls >> before & 1 and dist.get(before, far) + distance <= steps:
                        gap[before] = distance
                        if before < self.squares or open_rooms:
                            onward.append(before)
            ring = onward
        return gap

    def stops_at(self, near: dict[int, int], origin: int, blocked: int, marks: int) -> set[int]:
        """The rooms and stop marks (``marks``, a bitmask) among ``near``: ends of a move that need no exact roll."""
        return {
            node for node in near
            if node != origin and (node >= self.squares or (marks >> node & 1 and not blocked >> node & 1))
        }

    def stops(self, near: dict[int, int], origin: int, blocked: int, marks: int) -> set[str]:
        return {self.names[node] for node in self.stops_at(near, origin, blocked, marks)}

    def exact(
        self, origin: int, steps: int, blocked: int, banned: int, enough: int = 0, want: int = -1,
        near: dict[int, int] | None = None,
    ) -> int:
        """Bitmask of free squares that end a walk of exactly ``steps`` (within ``want``).

        ``near`` is :meth:`reach` of the same move, if already known: a square
        the movers put out of reach of the roll is never searched for.
        """
        if near is None:
            near = self.reach(origin, steps, blocked, banned, self.rules.jump_movers)
        want &= _mask(near)
        if self.classic:
            return _classic_exact(self, origin, steps, blocked | banned, want, enough)
        return _free_exact(self, origin, steps, blocked, banned, want, enough, near)


def prepare(board: Board, rules: Movement = CLASSIC, steps: int = 12) -> None:
    """Build the board's movement tables for rolls up to ``steps`` now, rather than on the first move.

    Every later call on the board with these rules (and no larger roll) then
    starts warm. Tables are kept per board and rules, so once per game at most.
    """
    graph = _graph(board, rules)
    graph.hallway.extend(steps)
    if not graph.classic:
        graph.free.extend(steps)


@lru_cache(maxsize=32)
def _marks(board: Board, stops: tuple[str, ...]) -> int:
    """Bitmask of the squares of the kinds in ``stops``: where a move may end with steps to spare."""
    return sum(1 << square for square, kind in board.marks.items() if kind in stops)


@lru_cache(maxsize=8)
def _graph(board: Board, rules: Movement) -> _Graph:
    """The movement graph of a board under a set of rules, with its tables: built once per board and rules."""
    count = len(board.squares)
    names = board.squares + board.rooms
    nodes = dict(board.index)  # the squares' (a copy, not a dict built name by name)
    nodes.update((room, count + i) for i, room in enumerate(board.rooms))
    # Only squares with doors and passage ends get edges beyond the hallway's: patch those, so a
    # large board's graph costs one list copy rather than a list per square.
    ahead: dict[int, list[int]] = {}
    back: dict[int, list[int]] = {}
    for square, rooms in enumerate(board.doors):
        for room in rooms:
            for one, other in ((square, nodes[room]), (nodes[room], square)):
                ahead.setdefault(one, []).append(other)
                back.setdefault(other, []).append(one)
    if rules.passage_mid_roll:
        for place, others in board.passages.items():
            for end in others:
                ahead.setdefault(nodes[place], []).append(nodes[end])
                back.setdefault(nodes[end], []).append(nodes[place])
    adjacent = _patched(board, ahead)
    # Doors lead both ways, so only passages could make the steps back differ from the steps ahead.
    behind = _patched(board, back) if rules.passage_mid_roll and board.passages else adjacent
    return _Graph(board, rules, count, names, nodes, adjacent, behind)


def _patched(board: Board, extra: dict[int, list[int]]) -> tuple[tuple[int, ...], ...]:
    """The hallway's neighbours (rooms have none) with the ``extra`` steps of some nodes added."""
    nodes: list[tuple[int, ...]] = list(board.neighbours) + [() for _ in board.rooms]
    for node, more in extra.items():
        nodes[node] = tuple(dict.fromkeys(nodes[node] + tuple(more)))
    return tuple(nodes)


def _classic_exact(graph: _Graph, origin: int, steps: int, blocked: int, want: int, enough: int) -> int:
    """Classic: self-avoiding hallway walks; a room is only ever the start, left by a door."""
    if origin < graph.squares:
        starts = [(origin, steps)]
    else:
        exits = graph.board.exits.get(graph.names[origin], ())
        starts = [(square, steps - 1) for square in exits if not blocked >> square & 1 and steps >= 1]
    masks = graph.hallway.extend(steps)
    wanted = 0
    for square, left in starts:
        wanted |= masks[left][square]
    wanted &= ~blocked & want
    if origin < graph.squares and steps:
        wanted &= ~(1 << origin)  # a walk never comes back to its own first square
    return _exact_squares(graph, masks, starts, blocked, wanted, enough)


def _exact_squares(
    graph: _Graph, masks: list[list[int]], starts: list[tuple[int, int]], blocked: int, wanted: int, enough: int
) -> int:
    """Bitmask of the ``wanted`` squares that end a self-avoiding walk of exactly the steps left.

    Depth-first over walks; a branch is cut as soon as no wanted square not
    yet found, and not on the walk already, lies within reach (by distance and
    parity) of where it stands. The last two steps are mask operations, and
    the search ends as soon as nothing is left to find.
    With ``enough`` set, the search stops once that many squares are found.
    """
    neighbours, near = graph.board.neighbours, graph.hallway.near
    found = 0

    def walk(square: int, left: int, visited: int) -> None:
        """``left`` is at least 3 and ``square`` is on the walk (in ``visited``)."""
        nonlocal found, wanted
        left -= 1
        reach = masks[left]
        free = ~visited
        for there in neighbours[square]:
            if free >> there & 1:
                step = 1 << there
                if reach[there] & wanted & free & ~step:  # a walk never ends where it stands
                    (walk if left > 2 else last)(there, left, visited | step)
                    if not wanted:
                        return

    def last(square: int, left: int, visited: int) -> None:
        """The last two steps (or fewer), without a call per square."""
        nonlocal found, wanted
        free = ~visited
        if left == 2:
            hits = 0
            for there in neighbours[square]:
                if free >> there & 1:
                    hits |= near[there]
            hits &= wanted & free
        else:
            hits = near[square] & wanted & free if left else 1 << square & wanted
        found |= hits
        wanted &= ~hits
        if enough and found.bit_count() >= enough:
            wanted = 0

    for square, left in starts:
        if masks[left][square] & wanted:
            (walk if left > 2 else last)(square, left, 1 << square | blocked)
    return found


def _free_exact(
    graph: _Graph, origin: int, steps: int, blocked: int, banned: int, want: int, enough: int, dist: dict[int, int]
) -> int:
    """Master Detective's walks: through open rooms and passages, jumping movers.

    A walk never enters a node twice. It may pass an occupied square but not
    end there; a walk whose last step would land on one ends a step short
    instead. So a square beside a mover also ends a move when a walk one step
    shorter that never touched that mover ends there: one more search per
    mover, with the mover as a wall, which the quick passes can then serve too.
    """
    walls = banned | (0 if graph.rules.jump_movers else blocked)
    free = ((1 << graph.squares) - 1) & ~blocked & ~banned & want & ~(1 << origin)
    graph.free.extend(steps)
    found = _walks(graph, origin, steps, walls, graph.free.from_start(origin, steps) & free, enough, dist)
    if not graph.rules.jump_movers or steps < 1:
        return found
    shorter = graph.free.from_start(origin, steps - 1) & free
    for mover in _bits(blocked):
        if enough and found.bit_count() >= enough:
            break
        beside = shorter & _mask(graph.adjacent[mover]) & ~found
        if beside:
            more = enough and enough - found.bit_count()
            found |= _walks(graph, origin, steps - 1, walls | 1 << mover, beside, more, dist)
    return found


def _walks(graph: _Graph, origin: int, steps: int, walls: int, wanted: int, enough: int, dist: dict[int, int]) -> int:
    """The ``wanted`` squares that end a walk of exactly ``steps`` from ``origin`` avoiding ``walls``.

    ``dist`` is the fewest steps from ``origin`` to each node (with no more walls).

    Quick passes first (the hallway alone, then the shortest way into each
    room): together they find nearly every square, so the full search is left
    with a few hard or unreachable ones, for which its pruning is tight.
    """
    found = _hallway_first(graph, origin, steps, walls, wanted, enough)
    if graph.rules.pass_through_rooms and wanted & ~found and not (enough and found):
        found |= _through_rooms(graph, origin, steps, walls, wanted & ~found, enough)
    rest = wanted & ~found
    if not rest or (enough and found.bit_count() >= enough):
        return found
    return found | _full_search(graph, origin, steps, walls, rest, enough and enough - found.bit_count(), dist)


def _full_search(
    graph: _Graph, origin: int, steps: int, walls: int, wanted: int, enough: int, dist: dict[int, int]
) -> int:
    """Every walk, through rooms and passages, for the ``wanted`` squares the quick passes missed.

    Pruned twice: by the graph's walk-reachability table (``masks``, which
    knows nothing of walls) and by the steps from each node to the nearest
    wanted square around the walls (``gap``, which knows no parity). The
    wanted squares are few by now, so ``gap`` is cheap and usually proves
    at once that a square is out of reach.
    """
    squares, ahead, near, masks = graph.squares, graph.free.ahead, graph.free.near, graph.free.masks
    open_rooms = graph.rules.pass_through_rooms
    gap = graph.gaps(wanted, walls | 1 << origin, steps, dist)
    found = 0

    def walk(node: int, left: int, visited: int) -> None:
        """``left`` is at least 3 and ``node`` is on the walk (in ``visited``)."""
        nonlocal found, wanted
        left -= 1
        reach = masks[left]
        stop, unseen = visited | walls, ~visited
        for there in ahead[node]:
            if stop >> there & 1 or gap[there] > left:
                continue
            step = 1 << there
            if reach[there] & wanted & unseen & ~step:  # a walk never ends where it stands
                (walk if left > 2 else last)(there, left, visited | step)
                if not wanted:
                    return

    def last(node: int, left: int, visited: int) -> None:
        """The last two steps (or fewer), without a call per node."""
        nonlocal found, wanted
        if left == 2:
            stop = visited | walls
            hits = 0
            for there in ahead[node]:
                if not stop >> there & 1:
                    hits |= near[there]
            hits &= wanted & ~stop
        elif left == 1:
            walks_on = node < squares or open_rooms or node == origin  # a closed room ends the walk
            hits = near[node] & wanted & ~visited & ~walls if walks_on else 0
        else:
            hits = 1 << node & wanted
        found |= hits
        wanted &= ~hits
        if enough and found.bit_count() >= enough:
            wanted = 0

    (walk if steps > 2 else last)(origin, steps, 1 << origin)
    return found


def _hallway_first(graph: _Graph, origin: int, steps: int, walls: int, wanted: int, enough: int) -> int:
    """The ``wanted`` squares some walk reaches in the hallway alone, without rooms or passages.

    Every such walk is a legal Master Detective walk too, and the hallway's
    parity makes its search as quick as Classic's. Found first, they are no
    longer chased by the full search, whose pruning ignores parity and would
    otherwise spend most of its time looking for them the long way round.
    """
    if origin < graph.squares:
        starts = [(origin, steps)]
    else:
        starts = [(square, steps - 1) for square in graph.adjacent[origin]
                  if square < graph.squares and not walls >> square & 1 and steps >= 1]
    return _exact_squares(graph, graph.hallway.extend(steps), starts, walls, wanted, enough)


def _through_rooms(graph: _Graph, origin: int, steps: int, walls: int, wanted: int, enough: int) -> int:
    """The ``wanted`` squares a walk reaches by the shortest way into a room, then the hallway.

    Crossing a room changes the hallway's parity, so these are most of what
    the hallway search cannot find; each is a legal walk, found by a hallway
    search from the room's far doors with the way in as its walls.
    """
    came = graph.spread(origin, steps, walls, parents=True)
    found = 0
    for room in range(graph.squares, len(graph.names)):
        if room == origin or room not in came:
            continue
        way, node = 1 << room, room
        while node != origin:
            node = came[node]
            way |= 1 << node
        left = steps - way.bit_count()  # the steps after the room's far door
        for door in graph.adjacent[room]:
            if left < 0 or door >= graph.squares or (way | walls) >> door & 1 or not wanted & ~found:
                continue
            starts = [(door, left)]
            found |= _exact_squares(graph, graph.hallway.extend(left), starts, way | walls, wanted & ~found, enough)
    return found


class _Reach:
    """``masks[k][x]``: nodes some walk of exactly k steps from ``x`` may end on.

    Walks follow ``onward`` (a node may lead nowhere: a room that ends a walk),
    except from the first node, which follows ``first``. The table covers the
    whole board, one level of steps at a time as rolls need them: a level is
    one OR per step of every node, far cheaper per entry than filling around
    each start, and every search after it finds its entries ready.
    """

    def __init__(
        self, onward: tuple[tuple[int, ...], ...], first: tuple[tuple[int, ...], ...], ends: Iterable[int] = ()
    ) -> None:
        self.onward = onward
        self.first = first
        self.near = [_mask(nodes) for nodes in first]  # each node's neighbours as a bitmask
        # Where a walk may step next: a room that ends walks is never worth stepping into mid-walk
        # (rooms are no square destinations), so only nodes that lead on or are squares.
        ahead = list(first)
        closed = set(ends)
        for end in closed:
            for node in first[end]:
                ahead[node] = tuple(n for n in first[node] if n not in closed)
        self.ahead = tuple(ahead)
        self.masks: list[list[int]] = [[1 << x for x in range(len(onward))]]

    def extend(self, steps: int) -> list[list[int]]:
        """The table, filled for walks of up to ``steps`` from every node."""
        masks, onward = self.masks, self.onward
        while len(masks) <= steps:
            below = masks[-1]
            level = []
            for after in onward:
                total = 0
                for y in after:
                    total |= below[y]
                level.append(total)
            masks.append(level)
        return masks

    def from_start(self, node: int, steps: int) -> int:
        """Like ``masks[steps][node]``, for the walk's first node (a room one may always leave)."""
        if steps == 0:
            return 1 << node
        return _union(self.masks[steps - 1], self.first[node])


def _union(masks: list[int], nodes: tuple[int, ...]) -> int:
    total = 0
    for node in nodes:
        total |= masks[node]
    return total


def _mask(nodes: Iterable[int]) -> int:
    total = 0
    for node in nodes:
        total |= 1 << node
    return total


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices
