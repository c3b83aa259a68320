"""The ``clue-companion`` command: replay a game record, check editions, ask where a mover may go.

This is the composition root: the one place that does I/O and wires parts
together. Errors become a one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import IO, Any

from companion.record.lines import read_lines
from companion.record.narrate import describe_result
from companion.record.replay import Replay
from companion.rules import movement
from companion.rules.edition import Edition, bundled_ids, load_edition
from companion.rules.errors import ClueError
from companion.rules.places import resolve_place

from . import board as board_command
from . import notebook as notebook_command
from . import simulate

PACKAGE = "clue-companion"


class UsageError(ClueError):
    code = "usage"


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    # JSON output is ASCII-escaped; narration on a console that cannot show a
    # name's accents gets escapes instead of a crash.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        return int(args.command(args))
    except ClueError as err:
        print(f"clue-companion: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clue-companion", description="A referee for the CLUE board game.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    replay = commands.add_parser("replay", help="apply a game record and print each line's result as JSON")
    replay.add_argument("file", help="a JSON Lines game record, or - for standard input")
    replay.add_argument("--view", metavar="SEAT", help="show only what SEAT may know")
    replay.add_argument("--final-view", action="store_true", help="end with the (seat's) view as JSON")
    replay.add_argument("--narrate", action="store_true", help="print plain English instead of JSON")
    replay.set_defaults(command=_replay)

    editions = commands.add_parser("edition", help="check an edition (bundled name or TOML path) and summarise it")
    editions.add_argument("name", nargs="?", help="edition id, name or .toml path; omit to list the bundled ones")
    editions.set_defaults(command=_edition)

    moves = commands.add_parser("destinations", help="where a mover may go with a roll")
    moves.add_argument("start", help="a square (h25) or a room")
    moves.add_argument("roll", type=int, help="the number rolled")
    moves.add_argument("--edition", default="classic")
    moves.add_argument("--occupied", nargs="*", default=[], metavar="SQUARE", help="squares holding other movers")
    moves.set_defaults(command=_destinations)
    board_command.add_parser(commands)
    notebook_command.add_parser(commands)
    simulate.add_parser(commands)
    # The device commands load pyserial, luma and the web app: the record's commands start without them.
    from . import board_monitor, doctor, enroll, run

    board_monitor.add_parsers(commands)
    enroll.add_parser(commands)
    run.add_parser(commands)
    doctor.add_parser(commands)
    return _with_version(parser, f"{PACKAGE} {version()}")


def _with_version(parser: argparse.ArgumentParser, shown: str) -> argparse.ArgumentParser:
    """``--version`` on ``parser`` and on every command registered under it, whoever added the command."""
    parser.add_argument("--version", action="version", version=shown, help="print the version and exit")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in {id(p): p for p in action.choices.values()}.values():  # aliases share a parser
                _with_version(command, shown)
    return parser


def version() -> str:
    """The installed package's version (``pyproject.toml``), or "unknown" when run from an uninstalled copy."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "unknown"


def _replay(args: argparse.Namespace) -> int:
    if args.file == "-":
        return _replay_stream(sys.stdin.buffer, args.view, args.final_view, args.narrate)
    try:
        stream = open(args.file, "rb")
    except OSError as err:
        raise UsageError(f"cannot read {args.file}: {err.strerror}") from None
    with stream:
        return _replay_stream(stream, args.view, args.final_view, args.narrate)


def _replay_stream(stream: IO[bytes], view: str | None, final_view: bool, narrate: bool) -> int:
    lines = read_lines(stream)
    first = next(lines, None)
    if first is None:
        raise UsageError("the record is empty: it needs a setup line")
    number, setup = first
    if isinstance(setup, ClueError):
        raise UsageError(f"line {number}: {setup}")
    try:
        game = Replay(setup)
    except ClueError as err:
        raise UsageError(f"line {number}: invalid setup ({err.code}): {err}") from None
    if view is not None:
        try:
            game.view_as(view)
        except ClueError as err:
            raise UsageError(f"--view: {err}") from None
    edition = game.state.edition
    _emit({"line": number, "ok": True, "events": game.setup_events}, narrate, edition)
    for number, line in lines:
        _emit(game.step(number, line), narrate, edition)
    if final_view:
        print(json.dumps(game.final_view()))
    return 0


def _emit(result: dict[str, Any], narrate: bool, edition: Edition) -> None:
    if narrate:
        for text in describe_result(result, edition):
            print(text)
    else:
        print(json.dumps(result))


def _edition(args: argparse.Namespace) -> int:
    if args.name is None:
        for edition_id in bundled_ids():
            print(f"{edition_id}: {load_edition(edition_id).name}")
        return 0
    edition = load_edition(args.name)
    deck = edition.deck
    print(f"{edition.name} ({edition.id}): {edition.min_players}-{edition.max_players} players, "
          f"{edition.dice} {'die' if edition.dice == 1 else 'dice'}")
    for label, cards in (("suspects", deck.suspects), ("weapons", deck.weapons), ("rooms", deck.rooms)):
        print(f"  {label}: {', '.join(cards)}")
    board = edition.board
    if board is None:
        print("  board: none yet")
    else:
        joins = f", joins: {len(board.joins)}" if board.joins else ""
        print(f"  board: {board.width}x{board.height}, {len(board.squares)} hallway squares, "
              f"{len(board.rooms)} rooms, passages: {len(board.passage_pairs)}{joins}")
    return 0


def _destinations(args: argparse.Namespace) -> int:
    edition = load_edition(args.edition)
    board = edition.require_board()
    start = resolve_place(edition, args.start)
    occupied = [resolve_place(edition, square) for square in args.occupied]
    if args.roll < 1:
        raise UsageError(f"the roll must be at least 1, not {args.roll}")
    for place in sorted(movement.destinations(board, start, args.roll, occupied, edition.movement)):
        print(place)
    return 0


if __name__ == "__main__":
    sys.exit(main())
