"""How one board differs from another: what ``clue-companion board EDITION --diff`` prints for a correction.

Squares are compared by what they are (void, hallway, a room, a door of a
room, a start square, a marked square, a spot), so relettering a room is no
change while moving a door is.

>>> from companion.rules.edition import load_edition
>>> board = load_edition("classic").require_board()
>>> board_diff(board, board)
[]
"""

from __future__ import annotations

from .board import Board, square_name, square_position


def square_kinds(board: Board) -> dict[str, str]:
    """Every square of the grid by name -> what it is, in words."""
    kinds = {square_name(row, col): "void" for row in range(board.height) for col in range(board.width)}
    for name in board.squares:
        kinds[name] = "hallway"
    doors = set(board.door_cells)
    for name, room in board.cells.items():
        kinds[name] = f"door of {room}" if name in doors else room
    for square, kind in board.marks.items():
        kinds[board.squares[square]] = f"{kind} space"
    for spot, square in board.spots.items():
        kinds[board.squares[square]] = f"spot {spot}"
    for suspect, square in board.starts.items():
        kinds[board.squares[square]] = f"start of {suspect}"
    return kinds


def board_diff(old: Board, new: Board) -> list[str]:
    """One line per difference from ``old`` to ``new``; an empty list when they are the same board."""
    lines = []
    if (old.width, old.height) != (new.width, new.height):
        lines.append(f"size: {old.width}x{old.height} -> {new.width}x{new.height}")
    was, now = square_kinds(old), square_kinds(new)
    changed = [name for name in _ordered({*was, *now}) if was.get(name, "off the board") != now.get(name, "off the board")]
    for name in changed:
        lines.append(f"{name}: {was.get(name, 'off the board')} -> {now.get(name, 'off the board')}")
    lines += _set_lines("room", old.rooms, new.rooms)
    lines += _set_lines("door", _doors(old), _doors(new))
    lines += _set_lines("passage", _pairs(old.passage_pairs), _pairs(new.passage_pairs))
    lines += _set_lines("joining rooms", _pairs(old.joins), _pairs(new.joins))
    lines += _set_lines("start", _starts(old), _starts(new))
    if old.start_room != new.start_room:
        lines.append(f"start room: {old.start_room or 'none'} -> {new.start_room or 'none'}")
    return lines


def _ordered(names: set[str]) -> list[str]:
    """Squares in reading order: row by row, left to right."""
    return sorted(names, key=square_position)


def _set_lines(what: str, old: tuple[str, ...] | set[str], new: tuple[str, ...] | set[str]) -> list[str]:
    removed = [item for item in _sorted(old) if item not in set(new)]
    added = [item for item in _sorted(new) if item not in set(old)]
    return [f"{what} removed: {item}" for item in removed] + [f"{what} added: {item}" for item in added]


def _sorted(items: tuple[str, ...] | set[str]) -> list[str]:
    return list(items) if isinstance(items, tuple) else sorted(items)


def _doors(board: Board) -> set[str]:
    return {f"{board.cells[name]} at {name}" for name in board.door_cells}


def _pairs(pairs: tuple[tuple[str, str], ...]) -> set[str]:
    return {" - ".join(sorted(pair)) for pair in pairs}


def _starts(board: Board) -> set[str]:
    return {f"{suspect} at {board.squares[square]}" for suspect, square in board.starts.items()}
