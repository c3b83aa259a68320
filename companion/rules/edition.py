"""Editions as data: one TOML file each under ``companion/rules/editions/``.

Rule differences are fields here, read once and validated with errors that
name the file, the line and what is wrong; the engine consults them instead of
asking which edition it is playing.

>>> classic = load_edition("Classic")
>>> classic.name, classic.dice, len(classic.deck.all)
('Classic CLUE', 1, 21)
>>> classic.first_player(("Mrs. White", "Professor Plum", "Mr. Green"))
'Mrs. White'

User editions: the directories in ``$CLUE_COMPANION_EDITIONS`` (``os.pathsep``
separated, read at each call) are searched before the bundled editions; an
``ID.toml`` there with a bundled edition's id is a *correction* that replaces
it (docs/editions.md, "User editions").
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from .board import Board, Legend, read_bundled_map, read_map
from .cards import Deck, normalise
from .errors import BadInput, ClueError, EditionError

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


EFFECTS = ("move_to_room", "roll_again", "peek_left", "peek", "swap_places", "pocketwatch")
"""What a bonus card or a power may do; :mod:`companion.rules.effects` implements each."""


@dataclass(frozen=True)
class BonusCard:
    """One kind of card in a bonus deck (Sheldon Cards, Intrigue Cards)."""

    id: str
    text: str
    effect: str
    when: Literal["now", "keep"]  # played as drawn, or kept to play later on one's turn
    count: int = 1


@dataclass(frozen=True)
class BonusDeck:
    name: str
    cards: tuple[BonusCard, ...]
    reshuffle: bool  # discards are shuffled into an empty draw pile (else the pile runs out)
    summoned_may_draw: bool  # a mover brought into a room by a suggestion may draw

    def instances(self) -> tuple[str, ...]:
        """The id of every physical card: ``id`` alone, or ``id-1``, ``id-2``... for copies."""
        return tuple(
            card.id if card.count == 1 else f"{card.id}-{n}" for card in self.cards for n in range(1, card.count + 1)
        )

    def card(self, instance: str) -> BonusCard:
        """The kind of card a physical card id (or a kind's id) names."""
        for card in self.cards:
            if instance == card.id or (card.count > 1 and instance.rsplit("-", 1)[0] == card.id):
                return card
        raise KeyError(instance)


@dataclass(frozen=True)
class Power:
    """A suspect's once-per-game personality power."""

    name: str
    text: str
    effect: str


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
    question_die: bool = False  # the last die shows "?" instead of 1: draw, then move the other die
    must_suggest: bool = False  # a room entered by a move must be suggested in before ending or accusing
    variants: tuple[str, ...] = ()
    bonus: BonusDeck | None = None
    powers: Mapping[str, Power] = field(default_factory=dict)
    colours: Mapping[str, str] = field(default_factory=dict)  # card name -> "#rrggbb", for the pages
    labels: Mapping[str, str] = field(default_factory=dict)  # card name -> a short label (at most 4 characters)
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # locale tag -> card -> its name there
    base: str | None = None  # the edition whose rules a user edition copied (None for a bundled one)
    source: str = "bundled"  # "bundled", "yours", "correction" (a user file with a bundled id) or "file"

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


@lru_cache(maxsize=1)  # the package's files do not change while it runs
def bundled_ids() -> tuple[str, ...]:
    """The ids of the editions shipped with the package."""
    folder = resources.files("companion.rules.editions")
    return tuple(sorted(item.name[:-5] for item in folder.iterdir() if item.name.endswith(".toml")))


EDITIONS_VARIABLE = "CLUE_COMPANION_EDITIONS"
ID_PATTERN = re.compile(r"[a-z0-9_]{1,40}")
"""A user edition's id, which is also its file name: no dots or slashes, so never a path."""
Stamp = tuple[int, int, int, int]  # mtime and size of the TOML and of the map beside it


def user_dirs(environ: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The user edition folders, first first, from ``$CLUE_COMPANION_EDITIONS``."""
    value = (os.environ if environ is None else environ).get(EDITIONS_VARIABLE, "")
    return tuple(Path(part) for part in value.split(os.pathsep) if part)


def user_file(edition_id: str, dirs: tuple[Path, ...] | None = None) -> Path | None:
    """The user ``ID.toml`` that ``load_edition(edition_id)`` would read, if any."""
    if not ID_PATTERN.fullmatch(edition_id):
        return None
    for folder in user_dirs() if dirs is None else dirs:
        path = folder / f"{edition_id}.toml"
        if path.is_file():
            return path
    return None


def user_ids(dirs: tuple[Path, ...] | None = None) -> tuple[str, ...]:
    """The ids of the user editions found in the folders (corrections included)."""
    found: set[str] = set()
    for folder in user_dirs() if dirs is None else dirs:
        try:
            names = [path.stem for path in folder.glob("*.toml") if path.is_file()]
        except OSError:
            continue
        found.update(name for name in names if ID_PATTERN.fullmatch(name))
    return tuple(sorted(found))


def load_edition(name: str) -> Edition:
    """An edition by id or name ("classic", "Master Detective"), or a TOML path.

    User editions come first (a correction replaces the bundled edition).
    Cached by file and modification time: editions are immutable, parsing the
    board's distance table is the slow part of starting a game, and an edition
    saved while the companion runs is read afresh.
    """
    if name.endswith(".toml"):
        return _load_file(name, _stamp(Path(name)), "file")
    key = _edition_key(name)
    found = user_file(key)
    if found is not None:
        edition = _load_file(str(found), _stamp(found), "correction" if key in bundled_ids() else "yours")
        if edition.id != key:
            raise EditionError(str(found), None, f"id is {edition.id!r}, but the file is named {key}.toml: they must agree")
        return edition
    if key in bundled_ids():
        return load_bundled(key)
    valid = sorted({*bundled_ids(), *user_ids()})
    raise BadInput(f"unknown edition {name!r}; valid: {', '.join(valid)}")


@cache
def load_bundled(edition_id: str) -> Edition:
    """A bundled edition by its id, whatever corrections are installed."""
    if edition_id not in bundled_ids():
        raise BadInput(f"unknown bundled edition {edition_id!r}; valid: {', '.join(bundled_ids())}")
    text = resources.files("companion.rules.editions").joinpath(f"{edition_id}.toml").read_text(encoding="utf-8")
    return parse_edition(f"{edition_id}.toml", text, read_bundled_map)


@lru_cache(maxsize=64)
def _load_file(name: str, _stamp: Stamp, source: str) -> Edition:
    path = Path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise EditionError(name, None, f"cannot read edition: {err}") from err
    return parse_edition(name, text, lambda file, legend: read_map(str(path.parent / file), legend), source=source)


def _stamp(path: Path) -> Stamp:
    """What changes when the edition's files are saved again: the cache key besides the path."""
    stamp = []
    for file in (path, path.with_suffix(".txt")):
        try:
            found = file.stat()
            stamp += [found.st_mtime_ns, found.st_size]
        except OSError:
            stamp += [-1, -1]
    return stamp[0], stamp[1], stamp[2], stamp[3]


def _edition_key(name: str) -> str:
    """The id a name means: "CLUE The Big Bang Theory" and "big-bang theory" are big_bang_theory."""
    words = [word for word in normalise(name).replace("-", " ").replace("_", " ").split()
             if word not in ("clue", "cluedo")]
    if words[:1] == ["the"]:
        words = words[1:]
    return "_".join(words) or "classic"


MapReader = Callable[[str, Legend], Board]


def parse_edition(path: str, text: str, read_board: MapReader, *, source: str = "bundled") -> Edition:
    """Build an :class:`Edition` from TOML text; ``path`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise EditionError(path, _toml_line(str(err)), f"not valid TOML: {err}") from err
    fields = _Fields(path, text, data)
    fields.check_keys()
    deck, names = _deck(fields)
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
        board=_board(fields, deck, read_board, names) if "board" in data else None,
        question_die=fields.get(rules, "question_die", bool) if "question_die" in rules else False,
        must_suggest=fields.get(rules, "must_suggest", bool) if "must_suggest" in rules else False,
        variants=_variants(fields, rules),
        bonus=_bonus(fields) if "bonus" in data else None,
        powers=_powers(fields, deck) if "powers" in data else {},
        colours=_card_table(fields, deck, "colours", COLOUR, "a colour \"#rrggbb\""),
        labels=_card_table(fields, deck, "labels", LABEL, f"a label of 1 to {MAX_LABEL} characters"),
        names=names,
        base=fields.get(data, "base", str) if "base" in data else None,
        source=source,
    )
    _check_rules(fields, edition)
    return edition


_KNOWN = {
    "": {"id", "name", "base", "players", "cards", "rules", "movement", "board", "bonus", "powers", "names"},
    "players": {"min", "max"},
    "cards": {"suspects", "weapons", "rooms", "aliases", "colours", "labels"},
    "rules": {"dice", "first", "deal", "refute", "accuse", "weapons_start", "question_die", "must_suggest",
              "variants"},
    "movement": {"pass_through_rooms", "jump_movers", "passage_mid_roll"},
    "board": {"map", "hallway", "void", "rooms", "starts", "passages", "marks", "start_room", "spots", "aliases"},
    "bonus": {"name", "reshuffle", "summoned_may_draw", "cards"},
}
VARIANTS = ("two_player",)
MAX_LABEL = 4
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
LABEL = re.compile(rf"\S.{{0,{MAX_LABEL - 1}}}", re.DOTALL)
MARK_KINDS = ("snoop", "bonus")
LOCALE_TAG = re.compile(r"[a-z]{2,3}-[A-Z]{2}(?:-[a-z0-9]{2,12})?")  # en-GB; a box variant: de-DE-1990s
MAX_LOCAL_NAME = 60
Names = dict[str, dict[str, str]]  # locale tag -> card (its identity) -> how that locale writes it


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


def _deck(fields: _Fields) -> tuple[Deck, Names]:
    """The cards, and each locale's names of them; every other spelling of a card is an alias of it."""
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
    tables = _local_names(fields, seen)
    owners = dict(seen)  # normalised spelling -> the card it means
    for alias, target in aliases.items():
        owners.setdefault(normalise(alias), seen[normalise(target)])
    local = {}
    for tag, table in tables.items():
        for card, name in table.items():
            owner = owners.setdefault(normalise(name), card)
            if owner != card:
                raise EditionError(fields.path, _header_line(fields, f"names.{tag}"),
                                   f"names.{tag}: {card!r} = {name!r} is already the name of {owner!r}")
            if normalise(name) != normalise(card):
                local[name] = card
    return Deck(lists[0], lists[1], lists[2], {**local, **aliases}), tables


def _local_names(fields: _Fields, seen: Mapping[str, str]) -> Names:
    """``[names.TAG]`` tables: card -> its name in that locale, keyed by the card's printed (US) name."""
    tables = fields.data.get("names", {})
    if not isinstance(tables, dict):
        raise fields.fail("names", "names must hold one table per locale: [names.en-GB]")
    found: Names = {}
    for tag, table in tables.items():
        line = _header_line(fields, f"names.{tag}")
        if not LOCALE_TAG.fullmatch(tag) or not isinstance(table, dict):
            raise EditionError(fields.path, line, f"names.{tag}: expected a locale tag (en-GB) with card = name lines")
        found[tag] = {}
        for card, name in table.items():
            if normalise(card) not in seen:
                raise EditionError(fields.path, line, f"names.{tag}: {card!r} is not a card of this edition")
            if not isinstance(name, str) or not name.strip() or name != name.strip() or len(name) > MAX_LOCAL_NAME:
                raise EditionError(fields.path, line, f"names.{tag}: {card!r} needs a name of 1 to "
                                                      f"{MAX_LOCAL_NAME} characters without spaces around it")
            found[tag][seen[normalise(card)]] = name
    return found


def _header_line(fields: _Fields, header: str) -> int | None:
    """The line of a ``[header]`` in the file (a names table is a header of its own)."""
    parts = r"\s*\.\s*".join(rf'"?{re.escape(part)}"?' for part in header.split("."))
    found = re.search(rf"^\s*\[\s*{parts}\s*\]", fields.text, re.MULTILINE)
    return fields.text.count("\n", 0, found.start()) + 1 if found else None


def _card_table(fields: _Fields, deck: Deck, key: str, pattern: re.Pattern[str], what: str) -> dict[str, str]:
    """``[cards.colours]`` or ``[cards.labels]``: card name -> a value matching ``pattern``, keyed by the printed name."""
    cards = fields.table("cards")
    if key not in cards:
        return {}
    found = {}
    for name, value in _string_table(fields, cards, key).items():
        try:
            card = deck.resolve(name)
        except ClueError:
            raise fields.fail(name, f"cards.{key}: {name!r} is not a card of this edition") from None
        if not pattern.fullmatch(value) or value != value.strip():
            raise fields.fail(name, f"cards.{key}: {name!r} = {value!r}; expected {what}")
        found[card] = value
    return found


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
    board = edition.board
    if board is not None:
        unplaced = [s for s in edition.deck.suspects if s not in board.starts and board.start_room is None]
        if unplaced:
            raise fields.fail("starts", f"no start square (and no start_room) for {', '.join(unplaced)}")
        if edition.accuse != "anywhere" and edition.accuse not in board.rooms and edition.accuse not in board.marks.values():
            raise fields.fail("accuse", f"accuse is {edition.accuse!r}: not 'anywhere', a room or a mark of the map")
        if "bonus" in board.marks.values() and edition.bonus is None:
            raise fields.fail("marks", "the map has bonus spaces but the edition has no [bonus] deck")
    if edition.question_die and edition.bonus is None:
        raise fields.fail("question_die", "a question die needs a [bonus] deck to draw from")
    if edition.weapons_start == "rooms" and edition.board is not None:
        if len(edition.board.rooms) < len(edition.deck.weapons):
            raise fields.fail("weapons_start", "fewer rooms than weapons to place one per room")


def _variants(fields: _Fields, rules: dict[str, Any]) -> tuple[str, ...]:
    if "variants" not in rules:
        return ()
    names = fields.names(rules, "variants")
    for name in names:
        if name not in VARIANTS:
            raise fields.fail("variants", f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return names


def _bonus(fields: _Fields) -> BonusDeck:
    table = fields.table("bonus")
    cards = fields.get(table, "cards", list)
    if not cards or not all(isinstance(card, dict) for card in cards):
        raise fields.fail("cards", "[[bonus.cards]] must list at least one card")
    kinds = tuple(_bonus_card(fields, card) for card in cards)
    ids = [card.id for card in kinds]
    if len(set(ids)) != len(ids):
        raise fields.fail("cards", f"bonus card ids must be unique: {', '.join(ids)}")
    return BonusDeck(
        name=fields.get(table, "name", str),
        cards=kinds,
        reshuffle=fields.get(table, "reshuffle", bool),
        summoned_may_draw=fields.get(table, "summoned_may_draw", bool) if "summoned_may_draw" in table else False,
    )


def _bonus_card(fields: _Fields, card: dict[str, Any]) -> BonusCard:
    unknown = set(card) - {"id", "text", "effect", "when", "count"}
    if unknown:
        raise fields.fail("cards", f"unknown key(s) {', '.join(sorted(unknown))} in a [[bonus.cards]] entry")
    ident = fields.get(card, "id", str)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", ident):
        raise fields.fail(ident, f"bonus card id {ident!r}: use lower-case letters, digits and _")
    effect = fields.choice(card, "effect", EFFECTS)
    count = fields.get(card, "count", int) if "count" in card else 1
    if count < 1:
        raise fields.fail(ident, f"bonus card {ident!r} count must be at least 1")
    when = fields.choice(card, "when", ("now", "keep"))
    return BonusCard(ident, fields.get(card, "text", str), effect, when, count)  # type: ignore[arg-type]


def _powers(fields: _Fields, deck: Deck) -> dict[str, Power]:
    table = fields.table("powers")
    powers = {}
    for suspect, entry in table.items():
        if suspect not in deck.suspects or not isinstance(entry, dict):
            raise fields.fail(suspect, f"[powers] key {suspect!r} must be a suspect with a table of name, text, effect")
        effect = fields.choice(entry, "effect", tuple(e for e in EFFECTS if e != "pocketwatch"))
        powers[suspect] = Power(fields.get(entry, "name", str), fields.get(entry, "text", str), effect)
    return powers


def _movement(fields: _Fields) -> Movement:
    table = fields.table("movement") if "movement" in fields.data else {}
    flags = {name: fields.get(table, name, bool) for name in table}
    return Movement(**flags)


def _board(fields: _Fields, deck: Deck, read_board: MapReader, names: Names) -> Board:
    table = fields.table("board")
    rooms = _string_table(fields, table, "rooms")
    starts = _string_table(fields, table, "starts") if "starts" in table else {}
    for letter, room in rooms.items():
        if len(letter) != 1 or not letter.isupper():
            raise fields.fail(letter, f"room key {letter!r} must be one upper-case letter")
    for char, suspect in starts.items():
        if len(char) != 1 or suspect not in deck.suspects:
            raise fields.fail(char, f"start {char!r} = {suspect!r}: need one character and a suspect")
    pairs = fields.table("passages", table).get("pairs", []) if "passages" in table else []
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(r, str) for r in p) for p in pairs):
        raise fields.fail("pairs", "passages.pairs must be a list of [room, room] pairs")
    joins = fields.table("passages", table).get("joins", []) if "passages" in table else []
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(r, str) for r in p) for p in joins):
        raise fields.fail("joins", "passages.joins must be a list of [room, room] pairs")
    marks = _string_table(fields, table, "marks") if "marks" in table else {}
    for char, kind in marks.items():
        if len(char) != 1 or kind not in MARK_KINDS:
            raise fields.fail(char, f"mark {char!r} = {kind!r}: need one character and a kind ({', '.join(MARK_KINDS)})")
    spots = _string_table(fields, table, "spots") if "spots" in table else {}
    if any(len(char) != 1 for char in spots):
        raise fields.fail("spots", "spot keys must be one character each")
    legend = Legend(
        hallway=fields.get(table, "hallway", str),
        void=fields.get(table, "void", str),
        rooms=rooms,
        starts=starts,
        passages=tuple((one, other) for one, other in pairs),
        marks=marks,
        start_room=fields.get(table, "start_room", str) if "start_room" in table else None,
        spots=spots,
        joins=tuple((one, other) for one, other in joins),
        aliases=_place_aliases(fields, table, deck, names),
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


def _place_aliases(fields: _Fields, table: dict[str, Any], deck: Deck, names: Names) -> dict[str, str]:
    """The map's aliases, plus every locale's name of each room card (a move "to": "Salon" is the Lounge)."""
    aliases = dict(_string_table(fields, table, "aliases")) if "aliases" in table else {}
    taken = {normalise(alias) for alias in aliases}
    for local in names.values():
        for card, name in local.items():
            if card in deck.rooms and normalise(name) not in taken and normalise(name) != normalise(card):
                aliases[name] = card
                taken.add(normalise(name))
    return aliases


def _string_table(fields: _Fields, within: dict[str, Any], key: str) -> Mapping[str, str]:
    table = fields.table(key, within)
    for name, value in table.items():
        if not isinstance(value, str):
            raise fields.fail(name, f"{key}.{name} must be a string")
    return dict(table)


def _toml_line(message: str) -> int | None:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None
