"""Where a mover may go with a roll: rooms by shortest path, squares by exact count.

The rules (``RULES.md``, Classic):

* in the hallway a mover uses the whole roll, exactly N orthogonal steps,
  never the same square twice;
* a room may be entered with steps to spare, and entering ends the move;
* stepping through a door costs one step; a room is one place;
* no landing on or passing through a square that holds another mover;
* the room just left may not be re-entered this turn.

Rooms therefore need only a breadth-first search. Squares need a path of
*exactly* N steps that never revisits a square, which is a search over
self-avoiding walks; it is pruned with the board's distance table so that a
branch is dropped as soon as no square still unaccounted for can be reached
from it in the steps that remain.

>>> from companion.board import load_board
>>> board = load_board("classic")
>>> "Lounge" in destinations(board, "h25", 6, frozenset())
True
>>> "Lounge" in destinations(board, "h25", 5, frozenset())
False
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection

from .board import Board
from .errors import IllegalMove


def destinations(board: Board, start: str, steps: int, occupied: Collection[str]) -> frozenset[str]:
    """Every room and hallway square a mover at ``start`` may end on with ``steps``.

    ``start`` is a square or a room name; ``occupied`` the squares holding
    other movers (rooms never block).
    """
    origins, blocked = _origins(board, start, occupied)
    rooms = _rooms_within(board, origins, steps, blocked, exclude=start)
    wanted = _candidates(board, origins, steps, blocked)
    found = _exact_squares(board, origins, steps, blocked, wanted)
    return frozenset(rooms) | {board.squares[i] for i in _bits(found)}


def can_move(board: Board, start: str, steps: int, occupied: Collection[str]) -> bool:
    """True if the mover has anywhere at all to go (stops at the first place found)."""
    origins, blocked = _origins(board, start, occupied)
    if _rooms_within(board, origins, steps, blocked, exclude=start):
        return True
    wanted = _candidates(board, origins, steps, blocked)
    return bool(_exact_squares(board, origins, steps, blocked, wanted, enough=1))


def reaches(board: Board, start: str, steps: int, occupied: Collection[str], target: str) -> bool:
    """True if ``target`` (a room or square name) is among the destinations.

    Cheaper than :func:`destinations` for one target: it stops at the first
    path found.
    """
    origins, blocked = _origins(board, start, occupied)
    if target in board.exits:
        return target in _rooms_within(board, origins, steps, blocked, exclude=start)
    if target not in board.index:
        return False
    wanted = _candidates(board, origins, steps, blocked) & 1 << board.index[target]
    return bool(_exact_squares(board, origins, steps, blocked, wanted))


Origin = tuple[int, int, int]  # (square, steps used so far, visited bitmask)


def _origins(board: Board, start: str, occupied: Collection[str]) -> tuple[list[Origin], int]:
    """Where the walk begins: the start square, or each free square outside a door."""
    blocked = 0
    for square in occupied:
        if square in board.index:
            blocked |= 1 << board.index[square]
    if start in board.index:
        here = board.index[start]
        return [(here, 0, 1 << here)], blocked & ~(1 << here)
    if start not in board.rooms:
        raise IllegalMove(f"{start!r} is not a hallway square or a room of the board")
    exits = board.exits.get(start, ())
    return [(square, 1, 1 << square) for square in exits if not blocked >> square & 1], blocked


def _rooms_within(board: Board, origins: list[Origin], steps: int, blocked: int, exclude: str) -> set[str]:
    """Rooms whose door is at most ``steps`` away along free squares."""
    seen: dict[int, int] = {}
    queue: deque[int] = deque()
    for square, used, _ in sorted(origins, key=lambda origin: origin[1]):
        if square not in seen and used < steps:
            seen[square] = used
            queue.append(square)
    rooms: set[str] = set()
    while queue:
        here = queue.popleft()
        used = seen[here]
        rooms.update(board.doors[here])
        if used + 1 >= steps:
            continue  # the last step can only go through a door, counted above
        for there in board.neighbours[here]:
            if there not in seen and not blocked >> there & 1:
                seen[there] = used + 1
                queue.append(there)
    rooms.discard(exclude)
    return rooms


def _candidates(board: Board, origins: list[Origin], steps: int, blocked: int) -> int:
    """Bitmask of free squares some walk could end on: a superset of the answer."""
    wanted = 0
    for square, used, _ in origins:
        if used <= steps:
            wanted |= board.ball(square, steps - used)
    return wanted & ~blocked


def _exact_squares(
    board: Board, origins: list[Origin], steps: int, blocked: int, wanted: int, enough: int = 0
) -> int:
    """Bitmask of the ``wanted`` squares that end a self-avoiding walk of exactly ``steps``.

    Depth-first over walks; a branch is cut as soon as no wanted square not
    yet found lies within reach (by distance and parity) of where it stands.
    With ``enough`` set, the search stops once that many squares are found.
    """
    neighbours, ball = board.neighbours, board.ball
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
        for there in neighbours[square]:
            if not visited >> there & 1 and ball(there, left) & wanted:
                walk(there, left, visited | 1 << there)

    for square, used, visited in origins:
        if used <= steps and ball(square, steps - used) & wanted:
            walk(square, steps - used, visited | blocked)
    return found


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices
