"""The ``clue-companion`` command: replay a game record, check editions, ask where a mover may go.

This is the composition root: the one place that does I/O and wires parts
together. Errors become a one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from companion.language import DEFAULT, Locale, parse_locale
from companion.language.boxes import add_names_argument, resolve_variant
from companion.record.lines import read_lines
from companion.record.narrate import Describer, narrate_result, narrator
from companion.record.replay import Replay
from companion.rules import movement
from companion.rules.edition import (
    EDITIONS_VARIABLE,
    Edition,
    load_edition,
)
from companion.rules.edition_files import MAX_EXPORT, export_text, import_text
from companion.rules.errors import ClueError
from companion.rules.places import resolve_place
from companion.rules.spelling import spelling
from companion.table.wording import Wording
from companion.rules.user_editions import (
    editions_folder,
    is_correction,
    list_editions,
    save_files,
)

from . import board as board_command
from . import camera
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
        with _user_editions(args):
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
    replay.add_argument("--narrate", action="store_true", help="print sentences instead of JSON")
    replay.add_argument("--locale", default=DEFAULT, metavar="LOCALE",
                        help="the narration's language and card names (en-US, en-GB, de-DE, ...; default en-US)")
    add_names_argument(replay)
    replay.add_argument("--speak", metavar="OUT.wav", help="with --narrate: also write the narration as speech")
    replay.set_defaults(command=_replay)

    editions = commands.add_parser(
        "edition", help="check an edition (id, name or TOML path) and summarise it; export or import one",
        description="edition [NAME]  |  edition ID --export FILE  |  edition --import FILE")
    editions.add_argument("name", nargs="?", help="edition id, name or .toml path; omit to list every edition")
    editions.add_argument("--export", metavar="FILE", help="write the edition, map included, as one file to share")
    editions.add_argument("--import", dest="import_file", metavar="FILE",
                          help="install an exported edition into this companion's editions folder")
    editions.set_defaults(command=_edition)

    moves = commands.add_parser("destinations", help="where a mover may go with a roll")
    moves.add_argument("start", help="a square (h25) or a room")
    moves.add_argument("roll", type=int, help="the number rolled")
    moves.add_argument("--edition", default="classic", help="edition id or name whose board to use (default classic)")
    moves.add_argument("--occupied", nargs="*", default=[], metavar="SQUARE", help="squares holding other movers")
    moves.set_defaults(command=_destinations)
    board_command.add_parser(commands)
    camera.add_parser(commands)
    notebook_command.add_parser(commands)
    simulate.add_parser(commands)
    # The device commands load pyserial, luma and the web app: the record's commands start without them.
    from . import board_monitor, doctor, enroll, run

    board_monitor.add_parsers(commands)
    enroll.add_parser(commands)
    run.add_parser(commands)
    doctor.add_parser(commands)
    from . import host_login  # a login link for the host page, without the PIN
    host_login.add_parser(commands)
    from . import first_boot, welcome  # the card image's boot file and HDMI screen
    first_boot.add_parser(commands)
    welcome.add_parser(commands)
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
    locale = command_locale(args.locale)
    if args.speak is not None and not args.narrate:
        raise UsageError("--speak writes the narration: add --narrate")
    options = _Narration(args.narrate, locale, [] if args.speak is not None else None, args.names)
    if args.file == "-":
        code = _replay_stream(sys.stdin.buffer, args.view, args.final_view, options)
    else:
        try:
            stream = open(args.file, "rb")
        except OSError as err:
            raise UsageError(f"cannot read {args.file}: {err.strerror}") from None
        with stream:
            code = _replay_stream(stream, args.view, args.final_view, options)
    if options.spoken is not None:
        _speak("\n".join(options.spoken), locale, Path(args.speak))
    return code


def command_locale(text: str) -> Locale:
    """``--locale``'s :class:`Locale`; a usage error listing the known ones."""
    try:
        return parse_locale(text)
    except ClueError as err:
        raise UsageError(f"--locale: {err}") from None


class _Narration:
    """How a replay prints: JSON, or sentences in a locale (kept for ``--speak`` too)."""

    def __init__(self, narrate: bool, locale: Locale, spoken: list[str] | None, box: str | None = None) -> None:
        self.narrate, self.locale, self.spoken, self.box = narrate, locale, spoken, box
        self.names: dict[str, str] = {}
        self.tell: Describer | None = None

    def start(self, edition: Edition) -> None:
        try:
            variant = resolve_variant(edition, self.locale.tag, self.box)
        except ClueError as err:
            raise UsageError(f"--names: {err}") from None
        self.names = spelling(edition, self.locale.tag, variant=variant) if self.narrate else {}
        self.tell = narrator(self.locale.tag, self.names, edition) if self.narrate else None

    def lines(self, result: dict[str, Any], error: ClueError | None) -> list[str]:
        assert self.tell is not None
        return narrate_result(result, self.tell, self.locale.language, self._refusal(error))

    def _refusal(self, error: ClueError | None) -> str | None:
        """A refused line's reason in the locale; None (the record's English) for en-US."""
        if error is None or self.locale.tag == DEFAULT:
            return None
        return Wording(self.locale.language, self.names).told(error)


def _speak(text: str, locale: Locale, path: Path) -> None:
    """Write the narration as speech in its language (loaded only here: replay needs no audio otherwise)."""
    from hardware.speech import SpeechError, write_wav

    # The voice speaks the sentences' language: nb-NO narrates in English, so an English voice reads it.
    voice = locale.tag if locale.tag.split("-")[0] == locale.language else locale.language
    try:
        write_wav(text, voice, path)
    except SpeechError as err:
        raise UsageError(f"--speak: {err}") from None


def _replay_stream(stream: IO[bytes], view: str | None, final_view: bool, options: _Narration) -> int:
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
    options.start(game.state.edition)
    _emit({"line": number, "ok": True, "events": game.setup_events}, options, None)
    for number, line in lines:
        _emit(game.step(number, line), options, game.last_error)
    if final_view:
        print(json.dumps(game.final_view()))
    return 0


def _emit(result: dict[str, Any], options: _Narration, error: ClueError | None) -> None:
    if not options.narrate:
        print(json.dumps(result))
        return
    for text in options.lines(result, error):
        print(text)
        if options.spoken is not None:
            options.spoken.append(text)


@contextmanager
def _user_editions(args: argparse.Namespace) -> Iterator[None]:
    """Every command sees the user editions: ``$CLUE_COMPANION_EDITIONS`` is the data folder's, unless set.

    Restored afterwards, so a test calling :func:`main` leaves the environment as it found it.
    """
    if EDITIONS_VARIABLE in os.environ:
        yield
        return
    os.environ[EDITIONS_VARIABLE] = str(editions_dir(args, os.environ))
    try:
        yield
    finally:
        os.environ.pop(EDITIONS_VARIABLE, None)


def editions_dir(args: argparse.Namespace, environ: Mapping[str, str]) -> Path:
    """``<folder of the game store>/editions``, the store found as every command finds it (``where``).

    Cheap: the config is read for its ``[store] path`` only, so a broken
    config does not stop ``replay`` (the commands that use it report it).
    """
    from .where import find_config, find_store

    mock = bool(getattr(args, "mock", False))
    config = find_config(getattr(args, "config", None), environ, mock=mock)
    store_path = None
    if config is not None:
        try:
            store = tomllib.loads(config.path.read_text(encoding="utf-8")).get("store", {})
            store_path = store.get("path") if isinstance(store, dict) and isinstance(store.get("path"), str) else None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            store_path = None
    chosen = find_store(getattr(args, "db", None), config.path if config else None, store_path,
                        environ=environ, mock=mock)
    return editions_folder(chosen.path)


def _edition(args: argparse.Namespace) -> int:
    if args.import_file is not None:
        if args.name is not None or args.export is not None:
            raise UsageError("edition --import FILE takes no edition name and no --export")
        return _import(args.import_file)
    if args.name is None:
        if args.export is not None:
            raise UsageError("edition --export FILE needs the edition's id: edition ID --export FILE")
        for entry in list_editions():
            shown = "" if entry.source == "bundled" else f" ({entry.source}{', broken: ' + entry.problem if entry.problem else ''})"
            print(f"{entry.id}: {entry.name}{shown}")
        return 0
    edition = load_edition(args.name)
    if args.export is not None:
        return _export(edition, args.export)
    _summarise(edition)
    return 0


def _summarise(edition: Edition) -> None:
    deck = edition.deck
    source = "" if edition.source == "bundled" else f" [{edition.source}: {edition.path}]"
    print(f"{edition.name} ({edition.id}): {edition.min_players}-{edition.max_players} players, "
          f"{edition.dice} {'die' if edition.dice == 1 else 'dice'}{source}")
    for label, cards in (("suspects", deck.suspects), ("weapons", deck.weapons), ("rooms", deck.rooms)):
        print(f"  {label}: {', '.join(cards)}")
    board = edition.board
    if board is None:
        print("  board: none yet")
    else:
        joins = f", joins: {len(board.joins)}" if board.joins else ""
        print(f"  board: {board.width}x{board.height}, {len(board.squares)} hallway squares, "
              f"{len(board.rooms)} rooms, passages: {len(board.passage_pairs)}{joins}")


def _export(edition: Edition, path: str) -> int:
    text = export_text(edition)
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror}") from None
    print(f"wrote {path}: {edition.name} ({edition.id}), map included")
    return 0


def _import(path: str) -> int:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_EXPORT + 1)
        if len(data) > MAX_EXPORT:
            raise UsageError(f"{path}: larger than {MAX_EXPORT // 1024} KiB: not an exported edition")
        text = data.decode("utf-8")
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        files = import_text(text)
    except ClueError as err:
        raise UsageError(f"{path}: {err}") from None
    first = os.environ[EDITIONS_VARIABLE].split(os.pathsep)[0]
    if not first:
        raise UsageError(f"${EDITIONS_VARIABLE} is set but names no folder to install into")
    folder = Path(first)
    saved = save_files(folder, files)
    what = "a correction of the bundled edition" if is_correction(files.id) else "a new edition"
    print(f"installed {files.id} ({what}) as {saved}")
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
