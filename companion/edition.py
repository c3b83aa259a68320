"""Editions as data: one TOML file each under ``companion/editions/``.

Rule differences are fields here, read once and validated with errors that
name the file, the line and what is wrong; the engine consults them instead of
asking which edition it is playing.

>>> classic = load_edition("Classic")
>>> classic.name, classic.dice, len(classic.deck.all)
('Classic CLUE', 1, 21)
>>> classic.first_player(("Mrs. White", "Professor Plum", "Mr. Green"))
'Mrs. White'
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from .board import Board, Legend, read_bundled_map, read_map
from .cards import Deck, normalise
from .errors import BadInput, EditionError

HIGHEST_ROLL = "highest roll"
Deal = Literal["all", "equal"]
Refute = Literal["first", "every"]
T = TypeVar("T")


@dataclass(frozen=True)
class Movement:
    """Board rules that differ between editions (all off in Classic)."""

    pass_through_rooms: bool = False  # a room may be crossed, counting as one step
    jump_movers: bool = False  # a mover in the way is jumped, not a wall
    passage_mid_roll: bool = False  # a secret passage may be taken part-way through a roll


@dataclass(frozen=True, eq=False)
class Edition:
    """One edition's cards, player counts and rule flags, plus its board."""

    id: str
    name: str
    path: str
    deck: Deck
    min_players: int
    max_players: int
    dice: int
    first: str
    deal: Deal
    refute: Refute
    accuse: str
    weapons_start: str
    movement: Movement
    board: Board | None

    def first_player(self, seats: tuple[str, ...]) -> str | None:
        """Who starts, for editions with a fixed first suspect; None means roll for it.

        If the named suspect is not played, the next played suspect in the
        edition's suspect order (the order round the board) starts.
        """
        if self.first == HIGHEST_ROLL:
            return None
        order = self.deck.suspects
        start = order.index(self.first)
        return next(s for s in order[start:] + order[:start] if s in seats)

    def require_board(self) -> Board:
        """The board, or a clear error for an edition that has none yet."""
        if self.board is None:
            raise EditionError(self.path, None, f"{self.name} has no board map yet, so it cannot be played")
        return self.board


def bundled_ids() -> tuple[str, ...]:
    """The ids of the editions shipped with the package."""
    folder = resources.files("companion.editions")
    return tuple(sorted(item.name[:-5] for item in folder.iterdir() if item.name.endswith(".toml")))


@lru_cache(maxsize=None)
def load_edition(name: str) -> Edition:
    """A bundled edition by id or name ("classic", "Master Detective"), or a TOML path.

    Cached: editions are immutable, and parsing the board's distance table is
    the slow part of starting a game.
    """
    if name.endswith(".toml"):
        path = Path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise EditionError(name, None, f"cannot read edition: {err}") from err
        return parse_edition(name, text, lambda file, legend: read_map(str(path.parent / file), legend))
    key = _edition_key(name)
    if key in bundled_ids():
        text = resources.files("companion.editions").joinpath(f"{key}.toml").read_text(encoding="utf-8")
        return parse_edition(f"{key}.toml", text, read_bundled_map)
    raise BadInput(f"unknown edition {name!r}; valid: {', '.join(bundled_ids())}")


def _edition_key(name: str) -> str:
    """The id a name means: "CLUE The Big Bang Theory" and "big-bang theory" are big_bang_theory."""
    words = [word for word in normalise(name).replace("-", " ").replace("_", " ").split()
             if word not in ("clue", "cluedo")]
    if words[:1] == ["the"]:
        words = words[1:]
    return "_".join(words) or "classic"


MapReader = Callable[[str, Legend], Board]


def parse_edition(path: str, text: str, read_board: MapReader) -> Edition:
    """Build an :class:`Edition` from TOML text; ``path`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise EditionError(path, _toml_line(str(err)), f"not valid TOML: {err}") from err
    fields = _Fields(path, text, data)
    fields.check_keys()
    deck = _deck(fields)
    rules = fields.table("rules")
    edition = Edition(
        id=fields.get(data, "id", str),
        name=fields.get(data, "name", str),
        path=path,
        deck=deck,
        min_players=fields.get(fields.table("players"), "min", int),
        max_players=fields.get(fields.table("players"), "max", int),
        dice=fields.get(rules, "dice", int),
        first=fields.get(rules, "first", str),
        deal=fields.choice(rules, "deal", ("all", "equal")),  # type: ignore[arg-type]
        refute=fields.choice(rules, "refute", ("first", "every")),  # type: ignore[arg-type]
        accuse=fields.get(rules, "accuse", str),
        weapons_start=fields.get(rules, "weapons_start", str),
        movement=_movement(fields),
        board=_board(fields, deck, read_board) if "board" in data else None,
    )
    _check_rules(fields, edition)
    return edition


_KNOWN = {
    "": {"id", "name", "players", "cards", "rules", "movement", "board"},
    "players": {"min", "max"},
    "cards": {"suspects", "weapons", "rooms", "aliases"},
    "rules": {"dice", "first", "deal", "refute", "accuse", "weapons_start"},
    "movement": {"pass_through_rooms", "jump_movers", "passage_mid_roll"},
    "board": {"map", "hallway", "void", "rooms", "starts", "passages", "marks"},
}


class _Fields:
    """Typed access to the parsed TOML, with errors that point at the line."""

    def __init__(self, path: str, text: str, data: dict[str, Any]) -> None:
        self.path, self.text, self.data = path, text, data
        self.headers: dict[int, str] = {id(data): ""}  # table -> its dotted name

    def check_keys(self) -> None:
        """Refuse keys the loader does not know, so a misspelt rule is not ignored."""
        for table, allowed in _KNOWN.items():
            within = self.data if table == "" else self.data.get(table, {})
            if not isinstance(within, dict):
                raise self.fail(table, f"[{table}] must be a table")
            for key in within:
                if key not in allowed:
                    where = f"[{table}]" if table else "the top level"
                    raise self.fail(key, f"unknown key {key!r} in {where}; known: {', '.join(sorted(allowed))}")

    def fail(self, key: str, problem: str) -> EditionError:
        return EditionError(self.path, self.line_of(key), problem)

    def line_of(self, key: str) -> int | None:
        pattern = re.compile(rf'^\s*(\[\s*)?"?{re.escape(key)}"?\s*[=\]]', re.MULTILINE)
        found = pattern.search(self.text)
        return self.text.count("\n", 0, found.start()) + 1 if found else None

    def missing(self, table: dict[str, Any], what: str) -> EditionError:
        """An error for something absent, pointing at the header of the table it belongs in."""
        name = self.headers.get(id(table), "")
        found = re.search(rf"^\s*\[\s*{re.escape(name)}\s*\]", self.text, re.MULTILINE) if name else None
        line = self.text.count("\n", 0, found.start()) + 1 if found else 1
        return EditionError(self.path, line, f"missing {what}" + (f" in [{name}]" if name else ""))

    def table(self, key: str, within: dict[str, Any] | None = None) -> dict[str, Any]:
        parent = self.data if within is None else within
        value = parent.get(key)
        if not isinstance(value, dict):
            raise self.missing(parent, f"table [{key}]")
        prefix = self.headers.get(id(parent), "")
        self.headers[id(value)] = f"{prefix}.{key}" if prefix else key
        return value

    def get(self, table: dict[str, Any], key: str, kind: type[T]) -> T:
        if key not in table:
            raise self.missing(table, f"key {key!r}")
        value = table[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(key, f"{key} must be of type {kind.__name__}, not {value!r}")
        return value

    def choice(self, table: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
        value = self.get(table, key, str)
        if value not in allowed:
            raise self.fail(key, f"{key} is {value!r}; expected one of {', '.join(allowed)}")
        return value

    def names(self, table: dict[str, Any], key: str) -> tuple[str, ...]:
        value = self.get(table, key, list)
        if not value or not all(isinstance(item, str) and item.strip() for item in value):
            raise self.fail(key, f"{key} must be a non-empty list of names")
        return tuple(value)


def _deck(fields: _Fields) -> Deck:
    cards = fields.table("cards")
    lists = [fields.names(cards, key) for key in ("suspects", "weapons", "rooms")]
    seen: dict[str, str] = {}
    for key, names in zip(("suspects", "weapons", "rooms"), lists):
        for name in names:
            if normalise(name) in seen:
                raise fields.fail(key, f"card {name!r} clashes with {seen[normalise(name)]!r}")
            seen[normalise(name)] = name
    aliases = cards.get("aliases", {})
    if not isinstance(aliases, dict):
        raise fields.fail("aliases", "aliases must be a table of alias = card name")
    for alias, target in aliases.items():
        if not isinstance(target, str) or normalise(target) not in seen:
            raise fields.fail(alias, f"alias {alias!r} names {target!r}, which is not a card")
    return Deck(lists[0], lists[1], lists[2], aliases)


def _check_rules(fields: _Fields, edition: Edition) -> None:
    suspects = len(edition.deck.suspects)
    if not 2 <= edition.min_players <= edition.max_players <= suspects:
        raise fields.fail("min", f"players must satisfy 2 <= min <= max <= {suspects} suspects")
    if not 1 <= edition.dice <= 3:
        raise fields.fail("dice", f"dice must be 1 to 3, not {edition.dice}")
    if edition.first != HIGHEST_ROLL and edition.first not in edition.deck.suspects:
        raise fields.fail(
            "first", f"first is {edition.first!r}; expected {HIGHEST_ROLL!r} or one of {', '.join(edition.deck.suspects)}"
        )
    if edition.board is not None:
        for flag, on in vars(edition.movement).items():
            if on:
                # Only Classic movement is implemented so far; refuse rather than ignore.
                raise fields.fail(flag, f"{flag} is not supported by the movement rules yet")
    if edition.weapons_start == "rooms" and edition.board is not None:
        if len(edition.board.rooms) < len(edition.deck.weapons):
            raise fields.fail("weapons_start", "fewer rooms than weapons to place one per room")


def _movement(fields: _Fields) -> Movement:
    table = fields.table("movement") if "movement" in fields.data else {}
    flags = {name: fields.get(table, name, bool) for name in table}
    return Movement(**flags)


def _board(fields: _Fields, deck: Deck, read_board: MapReader) -> Board:
    table = fields.table("board")
    rooms = _string_table(fields, table, "rooms")
    starts = _string_table(fields, table, "starts")
    for letter, room in rooms.items():
        if len(letter) != 1 or not letter.isupper():
            raise fields.fail(letter, f"room key {letter!r} must be one upper-case letter")
    for char, suspect in starts.items():
        if len(char) != 1 or suspect not in deck.suspects:
            raise fields.fail(char, f"start {char!r} = {suspect!r}: need one character and a suspect")
    pairs = fields.table("passages", table).get("pairs", []) if "passages" in table else []
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(r, str) for r in p) for p in pairs):
        raise fields.fail("pairs", "passages.pairs must be a list of [room, room] pairs")
    legend = Legend(
        hallway=fields.get(table, "hallway", str),
        void=fields.get(table, "void", str),
        rooms=rooms,
        starts=starts,
        passages=tuple((one, other) for one, other in pairs),
        marks=_string_table(fields, table, "marks") if "marks" in table else {},
    )
    try:
        board = read_board(fields.get(table, "map", str), legend)
    except EditionError as err:
        if err.line is not None or err.key is None:
            raise
        # A problem with no line on the map lies in the legend: point at its entry.
        raise fields.fail(err.key, f"{err.path}: {err.problem}") from None
    missing = set(deck.rooms) - set(board.rooms)
    if missing:
        raise fields.fail("rooms", f"card rooms not on the board: {', '.join(sorted(missing))}")
    return board


def _string_table(fields: _Fields, within: dict[str, Any], key: str) -> Mapping[str, str]:
    table = fields.table(key, within)
    for name, value in table.items():
        if not isinstance(value, str):
            raise fields.fail(name, f"{key}.{name} must be a string")
    return dict(table)


def _toml_line(message: str) -> int | None:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None
