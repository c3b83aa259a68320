"""Every problem of an editor document, each pointing at its square of the map when it has one.

The same checks as ``clue-companion board check`` (:func:`~companion.rules.board.check_map`)
plus the edition's own (cards, player counts, the rules base), so the editor
can list them live. Never raises on bad input: a malformed document is a list
of problems too.

>>> from companion.rules.edition import load_edition
>>> from companion.rules.edition_files import document_of
>>> document = document_of(load_edition("classic"))
>>> check_document(document)
[]
>>> document["map"]["rows"][24] = document["map"]["rows"][24].replace("1", ".")
>>> check_document(document)[0].message
"no start square '1' for Miss Scarlet on the map"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import Legend, Problem, check_map, square_name
from .cards import normalise
from .edition import COLOUR, ID_PATTERN, LABEL, MARK_KINDS, MAX_LABEL, load_edition
from .edition_files import (
    MAP_HEADER_LINES,
    MAX_SIDE,
    base_data,
    compose,
    load_files,
    rows_problem,
)
from .errors import ClueError, EditionError

MAX_NAME = 48  # characters of a card, room or edition name
MAX_CARDS = 30  # of each kind


@dataclass(frozen=True)
class DocumentProblem:
    """One problem: where on the grid (0-based ``row`` and ``column`` of ``map.rows``, and the square's name) and what."""

    row: int | None
    column: int | None
    square: str | None
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column, "square": self.square, "message": self.message}

    def __str__(self) -> str:
        return f"{self.square}: {self.message}" if self.square else self.message


def check_document(document: object) -> list[DocumentProblem]:
    """Every problem of ``document``; an empty list means it saves and plays."""
    problems = shape_problems(document)
    if problems:
        return problems
    assert isinstance(document, dict)
    try:
        return _content_problems(document)
    except ClueError as err:  # the rules base cannot be read, say
        return [_none(str(err))]


def _content_problems(document: dict[str, Any]) -> list[DocumentProblem]:
    rows: list[str] = document["map"]["rows"]
    problems = _card_problems(document)
    legend_problems = _legend_problems(document)
    if legend_problems:  # the map cannot be read without a sound legend
        return _unique(problems + legend_problems)
    legend = _legend(document["map"])
    problems += [_at_square(problem, rows) for problem in check_map("map", legend, _text(rows))]
    if problems:
        return _unique(problems)
    try:
        load_files(compose(document))
    except EditionError as err:
        return [_located(err.problem, err.key, rows)]
    except ClueError as err:
        return [DocumentProblem(None, None, None, str(err))]
    return []


# ---- the shape: types and sizes ---------------------------------------------------------------------

def _none(message: str) -> DocumentProblem:
    return DocumentProblem(None, None, None, message)


def shape_problems(document: object) -> list[DocumentProblem]:
    """What makes ``document`` not a document at all: missing parts, wrong types, too large."""
    if not isinstance(document, dict):
        return [_none("the document must be a JSON object")]
    problems = []
    for key, kind in (("id", str), ("name", str), ("base", str), ("players", dict), ("cards", dict), ("map", dict)):
        if not isinstance(document.get(key), kind):
            problems.append(_none(f"{key} is missing or is not a{'n object' if kind is dict else ' string'}"))
    if problems:
        return problems
    problems += _name_problems(document)
    players = document["players"]
    if not all(type(players.get(key)) is int for key in ("min", "max")):
        problems.append(_none("players must have whole numbers min and max"))
    cards = document["cards"]
    for key in ("suspects", "weapons", "rooms"):
        names = cards.get(key)
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            problems.append(_none(f"cards.{key} must be a list of names"))
        elif len(names) > MAX_CARDS:
            problems.append(_none(f"cards.{key}: at most {MAX_CARDS} cards"))
    for key in ("colours", "labels", "aliases"):
        if not _string_map(document.get(key, {}), allow_none=True):
            problems.append(_none(f"{key} must map card names to text"))
    return problems + _map_shape(document["map"])


def _name_problems(document: dict[str, Any]) -> list[DocumentProblem]:
    problems = []
    if not ID_PATTERN.fullmatch(document["id"]):
        problems.append(_none("id must be 1 to 40 of a-z, 0-9 and _ (it names the files)"))
    if not _good_name(document["name"]):
        problems.append(_none(f"name must be 1 to {MAX_NAME} printable characters"))
    try:
        load_edition(document["base"])
    except ClueError:
        problems.append(_none(f"base {document['base'][:MAX_NAME]!r} is not an installed edition"))
    return problems


def _map_shape(grid: dict[str, Any]) -> list[DocumentProblem]:
    problem = rows_problem(grid.get("rows"))
    problems = [_none(f"map.rows: {problem}")] if problem else []
    for key in ("hallway", "void"):
        value = grid.get(key)
        if not isinstance(value, str) or not value or not _plain_chars(value):
            problems.append(_none(f"map.{key} must be one or more characters"))
    for key in ("rooms", "starts", "marks", "spots", "aliases"):
        if not _string_map(grid.get(key, {}), allow_none=key != "rooms"):
            problems.append(_none(f"map.{key} must map characters or names to text"))
    for key in ("passages", "joins"):
        pairs = grid.get(key) or []
        if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(end, str) for end in p) for p in pairs):
            problems.append(_none(f"map.{key} must be a list of [place, place] pairs"))
    if grid.get("start_room") is not None and not isinstance(grid.get("start_room"), str):
        problems.append(_none("map.start_room must be a room's name or null"))
    return problems


def _string_map(value: object, allow_none: bool) -> bool:
    if value is None:
        return allow_none
    return isinstance(value, dict) and len(value) <= 4 * MAX_CARDS and all(
        isinstance(k, str) and isinstance(v, str) and _good_name(k) and _good_name(v) for k, v in value.items())


def _good_name(text: str) -> bool:
    return 0 < len(text.strip()) and len(text) <= MAX_NAME and text.isprintable() and _encodable(text)


def _plain_chars(text: str) -> bool:
    return all(char.isprintable() and not char.isspace() for char in text) and _encodable(text)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from JSON's \ud800
        return False
    return True


# ---- the cards, the players and the legend ----------------------------------------------------------

def _card_problems(document: dict[str, Any]) -> list[DocumentProblem]:
    cards = document["cards"]
    problems = []
    seen: dict[str, str] = {}
    for key in ("suspects", "weapons", "rooms"):
        if not cards[key]:
            problems.append(_none(f"add at least one of the {key}"))
        for name in cards[key]:
            if not _good_name(name):
                problems.append(_none(f"{key}: {name[:MAX_NAME]!r} must be 1 to {MAX_NAME} printable characters"))
            elif normalise(name) in seen:
                problems.append(_none(f"two cards are called {name!r} (and {seen[normalise(name)]!r})"))
            seen.setdefault(normalise(name), name)
    players = document["players"]
    suspects = len(cards["suspects"])
    if not 2 <= players["min"] <= players["max"] <= suspects:
        problems.append(_none(f"players: need 2 <= min ({players['min']}) <= max ({players['max']}) "
                              f"<= the {suspects} suspects"))
    problems += _styled(document, seen)
    on_map = set(document["map"]["rooms"].values())
    problems += [_none(f"the room card {room!r} is not on the map: give it a letter and paint it")
                 for room in cards["rooms"] if room not in on_map]
    return problems


def _styled(document: dict[str, Any], cards: Mapping[str, str]) -> list[DocumentProblem]:
    """Colours and labels name cards and are "#rrggbb" and 1 to 4 characters."""
    problems = []
    for key, pattern, what in (("colours", COLOUR, 'a colour "#rrggbb"'),
                               ("labels", LABEL, f"1 to {MAX_LABEL} characters")):
        for name, value in (document.get(key) or {}).items():
            if normalise(name) not in cards:
                problems.append(_none(f"{key}: {name!r} is not a card"))
            elif not pattern.fullmatch(value) or value != value.strip():
                problems.append(_none(f"{key}: {name!r} is {value!r}; expected {what}"))
    return problems


def _legend_problems(document: dict[str, Any]) -> list[DocumentProblem]:
    grid = document["map"]
    rows: list[str] = grid["rows"]
    suspects = document["cards"]["suspects"]
    problems = [_none(f"map.rooms: {letter!r} must be one upper-case letter")
                for letter in grid["rooms"] if len(letter) != 1 or not letter.isupper() or not letter.isalpha()]
    for char, suspect in (grid.get("starts") or {}).items():
        if len(char) != 1 or suspect not in suspects:
            problems.append(_located(f"start {char!r} = {suspect!r}: need one character and a suspect", char, rows))
    bonus = "bonus" in base_data(document["base"])
    for char, kind in (grid.get("marks") or {}).items():
        if len(char) != 1 or kind not in MARK_KINDS:
            problems.append(_located(f"mark {char!r} = {kind!r}: need one character and a kind "
                                     f"({', '.join(MARK_KINDS)})", char, rows))
        elif kind == "bonus" and not bonus:
            problems.append(_located(f"a bonus space ({char!r}), but the rules base {document['base']} has no "
                                     "bonus cards to draw", char, rows))
    problems += [_none(f"map.spots: {char!r} must be one character") for char in grid.get("spots") or {} if len(char) != 1]
    return problems + _clashes(grid)


def _clashes(grid: dict[str, Any]) -> list[DocumentProblem]:
    """A character may mean one thing only."""
    meanings: dict[str, str] = {}
    problems = []
    named = [(char, "hallway") for char in grid["hallway"]] + [(char, "void") for char in grid["void"]]
    for letter, room in grid["rooms"].items():
        named += [(letter, room), (letter.lower(), f"a door of {room}")]
    for key in ("starts", "marks", "spots"):
        named += [(char, f"{key[:-1]} {value}") for char, value in (grid.get(key) or {}).items()]
    for char, meaning in named:
        if char in meanings and meanings[char] != meaning:
            problems.append(_none(f"the character {char!r} means both {meanings[char]} and {meaning}"))
        meanings.setdefault(char, meaning)
    return problems


def _legend(grid: dict[str, Any]) -> Legend:
    return Legend(
        hallway=grid["hallway"], void=grid["void"], rooms=dict(grid["rooms"]),
        starts=dict(grid.get("starts") or {}), marks=dict(grid.get("marks") or {}),
        passages=tuple((a, b) for a, b in grid.get("passages") or []),
        joins=tuple((a, b) for a, b in grid.get("joins") or []),
        start_room=grid.get("start_room"), spots=dict(grid.get("spots") or {}),
        aliases=dict(grid.get("aliases") or {}),
    )


# ---- pointing at squares ----------------------------------------------------------------------------

def _text(rows: list[str]) -> str:
    return "\n".join(["# map", "#", *rows]) + "\n"  # MAP_HEADER_LINES lines, then the rows


def _at_square(problem: Problem, rows: list[str]) -> DocumentProblem:
    """A map problem at a line and column of the map text, or at the legend entry it blames."""
    message = problem.message
    if problem.line is None or problem.column is None:
        return _located(message, problem.key, rows)
    row, column = problem.line - MAP_HEADER_LINES - 1, problem.column - 1
    square = square_name(row, column) if 0 <= row < MAX_SIDE and column < MAX_SIDE else None
    return DocumentProblem(row, column, square, message)


def _located(message: str, key: str | None, rows: list[str]) -> DocumentProblem:
    """Point at the first square showing ``key`` (a legend character), if the map has one."""
    if key is not None and len(key) == 1:
        for row, line in enumerate(rows):
            column = line.find(key) if not key.isupper() else _first_of_room(line, key)
            if column >= 0:
                square = square_name(row, column) if row < MAX_SIDE and column < MAX_SIDE else None
                return DocumentProblem(row, column, square, message)
    return _none(message)


def _first_of_room(line: str, letter: str) -> int:
    found = [i for i in (line.find(letter), line.find(letter.lower())) if i >= 0]
    return min(found, default=-1)


def _unique(problems: list[DocumentProblem]) -> list[DocumentProblem]:
    return list(dict.fromkeys(problems))
