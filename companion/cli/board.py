"""``clue-companion board``: draw an edition's board, summarise it, or check a map file.

``board EDITION --svg FILE --png FILE`` writes pictures to compare with the
real board (``--locale TAG``, ``--names VARIANT``: its rooms named as that locale and box write them); ``board EDITION --template FILE`` writes the 1:1 antenna placement
template (docs/hardware.md); ``board EDITION`` prints a text summary;
``board check MAPFILE`` lists every problem of an edited map, as
``FILE:LINE:COL: message`` lines; ``board EDITION --diff`` shows how the
user's correction of a bundled edition differs from the bundled map.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from importlib import resources

from companion.rules import drawing
from companion.rules.board import Board, Legend, check_map, read_map
from companion.rules.board_diff import board_diff
from companion.rules.edition import (
    Edition,
    bundled_ids,
    load_bundled,
    load_edition,
    parse_edition,
    user_file,
)
from companion.rules.edition import (
    _edition_key as edition_key,  # name -> bundled id ("Master Detective" -> master_detective)
)
from companion.rules.errors import ClueError, EditionError
from companion.language import DEFAULT, parse_locale
from companion.language.boxes import add_names_argument, resolve_variant
from companion.table import template
from companion.table.board_labels import board_labels, board_title
from companion.table.zones import ZoneMap
from hardware.hardware_config import load_hardware_config

# "# edition: classic" in a map's comments names the edition whose legend it uses.
EDITION_HEADER = re.compile(r"^#[ \t]+edition:\s*(\S.*?)\s*$", re.IGNORECASE | re.MULTILINE)


class UsageError(ClueError):
    """A bad command line or unreadable file (cli.py's UsageError, kept apart to avoid an import cycle)."""

    code = "usage"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``board`` on the ``clue-companion`` sub-command parser."""
    board = commands.add_parser(
        "board",
        help="draw an edition's board (--svg/--png), summarise it, or check a map file",
        description="board EDITION [--svg FILE] [--png FILE] [--locale TAG [--names VARIANT]] [--template FILE [--square-mm MM] [--config FILE] "
                    "[--all-doors]]  |  board EDITION --diff  |  board check MAPFILE [--edition ID]",
    )
    board.add_argument("target", metavar="EDITION|check", help="an edition id or name, or 'check'")
    board.add_argument("mapfile", nargs="?", metavar="MAPFILE", help="with check: the map file to check")
    board.add_argument("--svg", metavar="FILE", help="write the board as an SVG picture")
    board.add_argument("--png", metavar="FILE", help="write the board as a PNG picture (needs Pillow)")
    board.add_argument("--locale", metavar="TAG", default=None,
                       help=f"with --svg/--png: name the rooms as this locale writes them (default {DEFAULT})")
    add_names_argument(board)
    board.add_argument("--scale", type=float, default=1.0, help="PNG size multiplier (default 1)")
    board.add_argument("--template", metavar="FILE",
                       help="write the 1:1 antenna placement template (SVG in mm: print at 100%%)")
    board.add_argument("--square-mm", type=float, default=template.DEFAULT_SQUARE_MM, metavar="MM",
                       help=f"with --template: one square of your board in mm (default {template.DEFAULT_SQUARE_MM:g}, "
                            "a Classic board)")
    board.add_argument("--config", metavar="FILE", help="with --template: the hardware config whose [zones] to draw "
                       "(default: the edition's default layout)")
    board.add_argument("--all-doors", action="store_true",
                       help="with --template: also draw a door reader under every door, to see which cross-read")
    board.add_argument("--diff", action="store_true",
                       help="how this companion's correction of a bundled edition differs from the bundled map")
    board.add_argument("--edition", metavar="ID", help="with check: the edition whose legend the map uses (default: its '# edition: ID' line)")
    board.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    if args.target == "check":
        if args.mapfile is None:
            raise UsageError("board check needs a MAPFILE")
        if args.svg or args.png:
            raise UsageError("board check does not draw: use board EDITION --svg/--png")
        return check(args.mapfile, args.edition)
    if args.mapfile is not None or args.edition is not None:
        raise UsageError("a MAPFILE and --edition go with board check; to draw, use board EDITION --svg/--png")
    if args.diff:
        if args.svg or args.png or args.template:
            raise UsageError("--diff prints the differences only: draw with a separate board EDITION --svg/--png")
        return diff(args.target)
    edition = load_edition(args.target)
    edition.require_board()
    if args.template is None and (args.config is not None or args.all_doors):
        raise UsageError("--config and --all-doors go with --template FILE")
    if (args.locale is not None or args.names is not None) and args.svg is None and args.png is None:
        raise UsageError("--locale and --names go with --svg FILE or --png FILE")
    locale = parse_locale(args.locale or DEFAULT).tag
    variant = resolve_variant(edition, locale, args.names)
    if args.template is not None:
        zones = template_zones(edition, args.config, args.all_doors)
        _write(args.template, template.template_svg(edition, zones, args.square_mm).encode("utf-8"))
    if args.svg is None and args.png is None:
        if args.template is not None:
            return 0
        for line in summary(edition):
            print(line)
        return 0
    if not 0 < args.scale <= 8:
        raise UsageError(f"--scale must be more than 0 and at most 8, not {args.scale}")
    labels, title = board_labels(edition, locale, variant=variant), board_title(edition, locale)
    if args.svg is not None:
        _write(args.svg, drawing.board_svg(edition, labels, title).encode("utf-8"))
    if args.png is not None:
        _write(args.png, drawing.board_png_bytes(edition, args.scale, labels, title))
    return 0


def template_zones(edition: Edition, config: str | None, all_doors: bool) -> ZoneMap:
    """The readers to draw: the config's ``[zones]`` over the default layout, plus a door reader at every door."""
    specs: dict[int, str] = {}
    if config is not None:
        specs = dict(load_hardware_config(config).zones)
    zones = ZoneMap.with_specs(edition, specs)
    if all_doors:
        first = max(zones.readers(), default=-1) + 1
        board = edition.require_board()
        doors = {first + n: f"door:{door}" for n, door in enumerate(board.door_cells)}
        zones = ZoneMap.with_specs(edition, {**specs, **doors})
    return zones


def _write(path: str, data: bytes) -> None:
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror}") from None
    print(f"wrote {path}")


# The summary


def summary(edition: Edition) -> list[str]:
    """A few lines describing the board, to read against the real one."""
    board = edition.require_board()
    lines = [f"{edition.name} ({edition.id}): {board.width}x{board.height} grid, "
             f"{len(board.squares)} hallway squares, {len(board.rooms)} rooms, {len(board.door_cells)} doors"]
    for room in board.rooms:
        doors = [cell for cell in board.door_cells if board.cells[cell] == room]
        exits = [board.squares[i] for i in board.exits.get(room, ())]
        card = "" if room in edition.deck.rooms else " (not a card)"
        lines.append(f"  {room}{card}: {_count(len(doors), 'door')}"
                     + (f" ({', '.join(doors)}) onto {', '.join(exits)}" if doors else ""))
    lines.append(f"  passages: {_pairs(board.passage_pairs)}")
    lines.append(f"  joins: {_pairs(board.joins)}")
    lines.append(f"  marks: {_marks(board)}")
    spots = [f"{name} {board.squares[square]}" for name, square in board.spots.items()]
    lines.append(f"  spots: {', '.join(spots) or 'none'}")
    starts = [f"{suspect} {board.squares[square]}" for suspect, square in board.starts.items()]
    lines.append(f"  start squares: {', '.join(starts) or 'none'}")
    if board.start_room is not None:
        lines.append(f"  start room: {board.start_room}")
    return lines


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _pairs(pairs: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{one} - {other}" for one, other in pairs) or "none"


def _marks(board: Board) -> str:
    kinds: dict[str, list[str]] = {}
    for square, kind in sorted(board.marks.items()):
        kinds.setdefault(kind, []).append(board.squares[square])
    return "; ".join(f"{kind} {len(found)} ({', '.join(found)})" for kind, found in kinds.items()) or "none"


# board EDITION --diff


def diff(name: str) -> int:
    """Print how the installed correction of a bundled edition differs from the bundled map; 0 either way."""
    edition = load_edition(name)
    if edition.source != "correction":
        what = "a bundled edition" if edition.source == "bundled" else "not a correction of a bundled edition"
        print(f"{edition.id}: no correction installed ({what}): the map in use is "
              + ("the bundled one" if edition.source == "bundled" else "its own"))
        return 0
    bundled = load_bundled(edition.id)
    lines = board_diff(bundled.require_board(), edition.require_board())
    print(f"{edition.id}: the correction {edition.path} against the bundled map: "
          + (_count(len(lines), "difference") if lines else "no differences"))
    for line in lines:
        print(f"  {line}")
    return 0


# board check


def check(mapfile: str, edition_name: str | None) -> int:
    """Print every problem of a map file; 0 when it is sound, 1 when it is not."""
    text = _read(mapfile)
    name = edition_name or _header_edition(text)
    if name is None:
        raise UsageError(f"{mapfile} has no '# edition: ID' line: pass --edition ID "
                         f"(one of {', '.join(bundled_ids())}) to say whose legend it uses")
    legend = edition_legend(name)
    problems = check_map(mapfile, legend, text)
    for problem in problems:
        print(problem.describe(mapfile))
    if problems:
        print(f"{mapfile}: {_count(len(problems), 'problem')}")
        return 1
    board = read_map(mapfile, legend, text)
    print(f"{mapfile}: ok, {len(board.squares)} hallway squares, {len(board.rooms)} rooms")
    return 0


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: it is not UTF-8 text") from None


def _header_edition(text: str) -> str | None:
    found = EDITION_HEADER.search(text)
    return found.group(1) if found else None


class _Legend(Exception):
    """Carries the legend out of the edition loader before it reads the bundled map."""

    def __init__(self, legend: Legend) -> None:
        super().__init__("legend")
        self.legend = legend


def _stop_at_legend(_file: str, legend: Legend) -> Board:
    raise _Legend(legend)


def edition_legend(name: str) -> Legend:
    """The ``[board]`` legend of an edition (bundled id or name, or a .toml path).

    The edition loader validates the TOML and builds the legend, then reads its
    own map; stopping it there reuses that code and lets a user check an edited
    copy of a bundled map even while the bundled map itself is broken.
    """
    path, text = _edition_text(name)
    read_board: Callable[[str, Legend], Board] = _stop_at_legend
    try:
        edition = parse_edition(path, text, read_board)
    except _Legend as found:
        return found.legend
    raise EditionError(path, None, f"{edition.name} has no [board] table, so no map legend to check against")


def _edition_text(name: str) -> tuple[str, str]:
    found = None if name.endswith(".toml") else user_file(name if name in bundled_ids() else edition_key(name))
    if found is not None:  # a user edition, or a correction, is what this companion plays
        name = str(found)
    if name.endswith(".toml"):
        path = name
        try:
            with open(path, encoding="utf-8") as handle:
                return path, handle.read()
        except (OSError, UnicodeDecodeError) as err:
            raise UsageError(f"cannot read edition {path}: {err}") from None
    key = name if name in bundled_ids() else edition_key(name)
    if key not in bundled_ids():
        raise UsageError(f"unknown edition {name!r}; valid: {', '.join(bundled_ids())}")
    return f"{key}.toml", resources.files("companion.rules.editions").joinpath(f"{key}.toml").read_text(encoding="utf-8")
