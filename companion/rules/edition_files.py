"""The editor's document and an edition's files: one converted to the other, and the one-file export.

The document is the JSON the editor pages edit (docs/editions.md, "The editor
document"): an edition's id, title, cards, player counts and map, plus
``base``, the edition whose rules (dice, turn order, accusations, movement,
bonus deck, powers) it copies. Saved, it becomes the two files every edition
has: ``ID.toml`` and the map ``ID.txt`` beside it. The export is the TOML
alone, with the map's rows in ``[board] rows``.

Pure: texts in, texts out (bundled editions are read as package resources).

>>> from companion.rules.edition import load_edition
>>> document = document_of(load_edition("classic"))
>>> document["base"], document["map"]["rooms"]["K"], document["map"]["rows"][24][7]
('classic', 'Kitchen', '1')
>>> load_files(files_of(document)).deck.all == load_edition("classic").deck.all
True
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .board import MAX_SIDE as MAX_SIDE  # the editor's largest grid either way is the map's limit
from .board import Board, Legend, bundled_map_text, read_map
from .cards import normalise
from .edition import (
    HIGHEST_ROLL,
    ID_PATTERN,
    Edition,
    bundled_ids,
    load_edition,
    parse_edition,
)
from .errors import BadInput, ClueError, EditionError
from .toml_writer import toml_text

MAX_EXPORT = 256 * 1024  # bytes of an export file: the largest bundled edition is under 8 KiB
EXPORT_COMMENTS = ("A CLUE edition exported by clue-companion (docs/editions.md).",
                   "Install it with: clue-companion edition --import FILE")
FILE_COMMENTS = ("An edition made with the clue-companion editor. Format: docs/editions.md.",)


@dataclass(frozen=True)
class EditionFiles:
    """An edition as saved: its id, the TOML text and the map text (named ``ID.txt`` by the TOML)."""

    id: str
    toml: str
    map: str


class DocumentError(BadInput):
    """A document or export file that cannot become an edition; ``problems`` lists every reason."""

    def __init__(self, problems: list[Any]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems[:3])
                         + (f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""))
        self.problems = problems


# ---- reading an installed edition -----------------------------------------------------------------

def source_texts(edition: Edition) -> tuple[dict[str, Any], str]:
    """The parsed TOML of an installed edition and the text of its map."""
    if edition.source == "bundled":
        text = resources.files("companion.rules.editions").joinpath(f"{edition.id}.toml").read_text(encoding="utf-8")
    else:
        text = _read(Path(edition.path))
    data = tomllib.loads(text)
    board = data.get("board")
    if not isinstance(board, dict) or not isinstance(board.get("map"), str):
        raise BadInput(f"{edition.name} has no board map yet, so the editor cannot open it")
    if edition.source == "bundled":
        return data, bundled_map_text(board["map"])
    return data, _read(Path(edition.path).parent / board["map"])


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(str(path), None, f"cannot read: {err}") from None


def map_rows(text: str) -> list[str]:
    """The grid rows of a map text: its lines less comments and blank lines (as the map reader skips them)."""
    return [line.rstrip("\r\n") for line in text.splitlines() if line.strip() and not is_comment(line.rstrip())]


def is_comment(line: str) -> bool:
    """A line the map reader skips as a comment (board.py's rule)."""
    return line == "#" or line.startswith(("# ", "#\t"))


def base_data(base: str) -> dict[str, Any]:
    """The TOML of the edition whose rules a document copies: the bundled one for a bundled id."""
    if base in bundled_ids():
        text = resources.files("companion.rules.editions").joinpath(f"{base}.toml").read_text(encoding="utf-8")
        return tomllib.loads(text)
    data, _ = source_texts(load_edition(base))
    return data


# ---- edition -> document --------------------------------------------------------------------------

def document_of(edition: Edition) -> dict[str, Any]:
    """The editor document of an installed edition (bundled or user)."""
    data, map_text = source_texts(edition)
    board = data["board"]
    cards = data["cards"]
    passages = board.get("passages", {})
    return {
        "id": edition.id,
        "name": edition.name,
        "base": _base_of(edition),
        "players": {"min": edition.min_players, "max": edition.max_players},
        "cards": {"suspects": list(edition.deck.suspects), "weapons": list(edition.deck.weapons),
                  "rooms": list(edition.deck.rooms)},
        "colours": dict(edition.colours),
        "labels": dict(edition.labels),
        "aliases": dict(cards.get("aliases", {})),
        "map": {
            "rows": map_rows(map_text),
            "hallway": board["hallway"],
            "void": board["void"],
            "rooms": dict(board.get("rooms", {})),
            "starts": dict(board.get("starts", {})),
            "marks": dict(board.get("marks", {})),
            "passages": [list(pair) for pair in passages.get("pairs", [])],
            "joins": [list(pair) for pair in passages.get("joins", [])],
            "start_room": board.get("start_room"),
            "spots": dict(board.get("spots", {})),
            "aliases": dict(board.get("aliases", {})),
        },
    }


def _base_of(edition: Edition) -> str:
    """The rules base to edit with: the one recorded, if still installed, else the edition itself."""
    base = edition.base
    if base is None or base == edition.id:
        return edition.id
    try:
        load_edition(base)
    except ClueError:
        return edition.id
    return base


def blank_document(base: Edition, width: int, height: int, fill: str = "void") -> dict[str, Any]:
    """A new document on ``base``'s rules and cards: a ``width`` x ``height`` grid all void (or all hallway).

    The base's room letters, start digits and marks come along as a palette to
    paint with; until they are painted the checks say what is missing.
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise BadInput(f"the grid must be 1 to {MAX_SIDE} squares each way, not {width} x {height}")
    if fill not in ("void", "hallway"):
        raise BadInput(f"fill is {fill!r}; expected void or hallway")
    document = document_of(base)
    grid = document["map"]
    char = (grid["void"] if fill == "void" else grid["hallway"])[0]
    grid.update(rows=[char * width] * height, passages=[], joins=[], spots={}, aliases={})
    document.update(id="new_board", name="New board", base=document["base"])
    return document


# ---- document -> files ----------------------------------------------------------------------------

def files_of(document: Any) -> EditionFiles:
    """The two files of a sound document; :class:`DocumentError` with every problem otherwise."""
    from .edition_check import check_document

    problems = check_document(document)
    if problems:
        raise DocumentError(problems)
    return compose(document)


def compose(document: dict[str, Any]) -> EditionFiles:
    """The files a well-formed document makes (its shape checked, its content not: see ``check_document``)."""
    edition_id: str = document["id"]
    data = copy.deepcopy(base_data(document["base"]))
    grid = document["map"]
    suspects = list(document["cards"]["suspects"])
    out: dict[str, Any] = {"id": edition_id, "name": document["name"], "base": document["base"],
                           "players": dict(document["players"]), "cards": _cards(document, data)}
    rules = dict(data.get("rules", {}))
    if rules.get("first") not in (HIGHEST_ROLL, *suspects):
        rules["first"] = suspects[0]  # the base's first suspect is not in this edition: its first one starts
    out["rules"] = rules
    if "movement" in data:
        out["movement"] = data["movement"]
    out["board"] = _board(edition_id, grid, data.get("board", {}))
    names = _names(document, data)
    if names:
        out["names"] = names
    if "bonus" in data:
        out["bonus"] = data["bonus"]
    powers = {name: power for name, power in data.get("powers", {}).items() if name in suspects}
    if powers:
        out["powers"] = powers
    return EditionFiles(edition_id, toml_text(out, FILE_COMMENTS), _map_text(edition_id, grid["rows"]))


def _cards(document: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    cards = document["cards"]
    names = {*cards["suspects"], *cards["weapons"], *cards["rooms"]}
    out: dict[str, Any] = {key: list(cards[key]) for key in ("suspects", "weapons", "rooms")}
    aliases = document.get("aliases")
    if aliases is None:  # not in the document: the base's, for the cards this edition still has
        aliases = {a: card for a, card in data.get("cards", {}).get("aliases", {}).items() if card in names}
    for key in ("aliases", "colours", "labels"):
        table = aliases if key == "aliases" else document.get(key) or {}
        if table:
            out[key] = dict(table)
    return out


def _names(document: dict[str, Any], data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The ``[names.TAG]`` tables: the document's, else the base's for the cards this edition still has.

    A base's local name that is now another card's printed name is dropped (it would clash).
    """
    given = document.get("names")
    if isinstance(given, dict):
        return {tag: dict(table) for tag, table in given.items() if isinstance(table, dict) and table}
    cards = document["cards"]
    names = {*cards["suspects"], *cards["weapons"], *cards["rooms"]}
    out = {}
    for tag, table in (data.get("names") or {}).items():
        kept = {card: local for card, local in table.items() if card in names
                and not any(normalise(local) == normalise(other) for other in names if other != card)}
        if kept:
            out[tag] = kept
    return out


def _board(edition_id: str, grid: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The ``[board]`` table: the document's map; what it leaves out, the base's where it still fits."""
    rows = grid["rows"]
    chars = set("".join(rows))
    rooms = dict(grid["rooms"])
    out: dict[str, Any] = {"map": f"{edition_id}.txt", "hallway": grid["hallway"], "void": grid["void"]}
    start_room = grid["start_room"] if "start_room" in grid else base.get("start_room")
    if start_room is not None and ("start_room" in grid or start_room in rooms.values()):
        out["start_room"] = start_room
    out["rooms"] = rooms
    out["starts"] = dict(grid.get("starts") or {})
    marks = grid["marks"] if grid.get("marks") is not None else base.get("marks", {})
    if marks:
        out["marks"] = dict(marks)
    spots = grid["spots"] if grid.get("spots") is not None else {
        char: name for char, name in base.get("spots", {}).items() if char in chars}
    if spots:
        out["spots"] = dict(spots)
    out["passages"] = {"pairs": [list(p) for p in grid.get("passages") or []],
                       "joins": [list(p) for p in grid.get("joins") or []]}
    places = {*rooms.values(), *spots.values()}
    aliases = grid["aliases"] if grid.get("aliases") is not None else {
        alias: place for alias, place in base.get("aliases", {}).items() if place in places}
    if aliases:
        out["aliases"] = dict(aliases)
    return out


def _map_text(edition_id: str, rows: list[str]) -> str:
    return "\n".join([f"# edition: {edition_id}", "#", *rows]) + "\n"


MAP_HEADER_LINES = 2  # the lines _map_text writes before the first row


def load_files(files: EditionFiles) -> Edition:
    """The edition two files make, checked as ``load_edition`` checks an installed one."""
    return parse_edition(f"{files.id}.toml", files.toml, lambda _file, legend: _read_board(files, legend),
                         source="yours")


def _read_board(files: EditionFiles, legend: Legend) -> Board:
    return read_map(f"{files.id}.txt", legend, files.map)


# ---- the one-file export --------------------------------------------------------------------------

def export_text(edition: Edition) -> str:
    """An installed edition as one TOML file: its own TOML with the map's rows in ``[board] rows``."""
    data, map_text = source_texts(edition)
    board = {key: value for key, value in data["board"].items() if key != "map"}
    data["board"] = {"rows": map_rows(map_text), **board}
    if edition.source == "bundled":
        data.setdefault("base", edition.id)
    return toml_text(data, EXPORT_COMMENTS)


def import_text(text: str) -> EditionFiles:
    """The files an export file holds, checked strictly; BadInput with one clear line when it is not sound."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_EXPORT:
        raise BadInput(f"the file is larger than {MAX_EXPORT // 1024} KiB: not an exported edition")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BadInput(f"not an exported edition: not valid TOML ({err})") from None
    except RecursionError:
        raise BadInput("not an exported edition: nested too deeply") from None
    edition_id = data.get("id")
    if not isinstance(edition_id, str) or not ID_PATTERN.fullmatch(edition_id):
        raise BadInput("not an exported edition: id must be 1 to 40 of a-z, 0-9 and _")
    board = data.get("board")
    if not isinstance(board, dict) or "map" in board or "rows" not in board:
        raise BadInput("not an exported edition: [board] must hold the map as rows = [...] (and no map = file)")
    rows = board.pop("rows")
    problem = rows_problem(rows)
    if problem:
        raise BadInput(f"not an exported edition: [board] rows: {problem}")
    data["board"] = {"map": f"{edition_id}.txt", **board}
    files = EditionFiles(edition_id, toml_text(data, FILE_COMMENTS), _map_text(edition_id, rows))
    try:
        load_files(files)
    except EditionError as err:
        raise BadInput(f"the edition in the file is not sound: {err.problem}") from None
    return files


def rows_problem(rows: object) -> str | None:
    """What is wrong with a map's rows as data (not as a map: ``check_map`` says that), or None."""
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        return "must be a non-empty list of strings"
    if len(rows) > MAX_SIDE or any(len(row) > MAX_SIDE for row in rows):
        return f"at most {MAX_SIDE} rows of at most {MAX_SIDE} squares"
    for number, row in enumerate(rows, start=1):
        if not row.strip() or is_comment(row) or any(not char.isprintable() or char.isspace() for char in row):
            return f"row {number} is empty, has a space or control character, or would read as a comment"
    return None
