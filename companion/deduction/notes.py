"""A player's own notes of a game played without the companion, for ``clue-companion notebook``.

A refereed record (docs/record.md) carries the whole deal, so the engine
rejects any line that cannot be true. A player at an ordinary table knows only
their own hand and what happened in front of them, and may mistype; their
notes are JSON Lines too, starting with a ``notes`` line::

    {"type": "notes", "edition": "classic", "seats": ["Miss Scarlet", "Mrs. White", "Mr. Green"],
     "hand": ["Rope", "Hall", "Mr. Green", "Knife", "Study", "Plum"]}
    {"type": "suggest", "seat": "Miss Scarlet", "suspect": "Plum", "weapon": "Rope", "room": "Hall"}
    {"type": "pass", "seat": "Mrs. White"}
    {"type": "show", "seat": "Mr. Green"}

Each line becomes the events the seat would have seen in a refereed game, so
the notebook learns from it in the same way, and notes that cannot all be
true are reported as a contradiction naming the lines responsible.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.record.lines import parse_object
from companion.rules.cards import CATEGORIES
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import BadInput, ClueError, UnknownSeat
from companion.rules.setup import check_seats, variant_aside

SETUP_FIELDS = {"type", "edition", "seats", "hand", "face_up", "variant", "hand_sizes"}
LINE_FIELDS: dict[str, tuple[set[str], set[str]]] = {  # type -> (required, optional)
    "suggest": ({"seat", "suspect", "weapon", "room"}, set()),
    "pass": ({"seat"}, set()),
    "show": ({"seat"}, {"to", "card"}),
    "accuse": ({"seat", "suspect", "weapon", "room"}, {"correct"}),
    "snoop": ({"target", "card"}, {"seat"}),
    "reveal": ({"seat", "cards"}, set()),
    "solution": ({"suspect", "weapon", "room"}, set()),  # the envelope opened at the end
    "roll": (set(), {"seat", "dice"}),  # kept for a record typed in full; nothing to learn
    "move": (set(), {"seat", "to"}),
    "end_turn": (set(), {"seat"}),
}


def is_notes(first_line: str) -> bool:
    """Whether a file's first line starts notes rather than a refereed record."""
    try:
        return parse_object(first_line).get("type") == "notes"
    except BadInput:
        return False


@dataclass
class Notes:
    """One seat's notes read line by line into the events that seat would have seen."""

    seat: str
    edition: Edition
    seats: tuple[str, ...]
    setup_events: list[dict[str, Any]]
    suggestion: dict[str, str] | None = None

    @classmethod
    def start(cls, line: str, seat: str) -> Notes:
        """Read the ``notes`` line for ``seat`` (:class:`BadInput` and friends if it is wrong)."""
        data = parse_object(line)
        _check_keys("notes", data, {"edition", "seats", "hand"}, SETUP_FIELDS - {"type"})
        edition = load_edition(_text(data, "edition"))
        seats = check_seats(edition, tuple(_texts(data, "seats")))
        me = _seat(edition, seats, seat)
        deck = edition.deck
        face_up = tuple(deck.resolve(card) for card in _texts(data, "face_up", []))
        aside = variant_aside(edition, _text(data, "variant") if "variant" in data else None, seats)
        sizes = _hand_sizes(edition, seats, len(face_up), aside, data.get("hand_sizes"))
        hand = tuple(deck.resolve(card) for card in _texts(data, "hand"))
        twice = sorted({card for card in hand + face_up if (hand + face_up).count(card) > 1})
        if twice:
            raise BadInput("listed twice in hand and face_up: {cards}", cards=", ".join(twice))
        if len(hand) != sizes[me]:
            raise BadInput("{seat}'s hand holds {size} cards with {players} players, not {count}",
                           seat=me, size=sizes[me], players=len(seats), count=len(hand))
        events: list[dict[str, Any]] = [{"type": "game_started", "seats": list(seats), "face_up": list(face_up)}]
        for each in seats:
            dealt: dict[str, Any] = {"type": "cards_dealt", "seat": each, "count": sizes[each]}
            if each == me:
                dealt["cards"] = list(hand)
            events.append(dealt)
        return cls(me, edition, seats, events)

    def step(self, number: int, line: str | ClueError) -> dict[str, Any]:
        """One line's ``{"line", "ok", "events" | "error"}``, like :meth:`Replay.step`."""
        try:
            if isinstance(line, ClueError):
                raise line
            events = self._read(parse_object(line))
        except ClueError as err:
            return {"line": number, "ok": False, "error": err.as_dict()}
        return {"line": number, "ok": True, "events": events}

    def _read(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        kind = data.get("type")
        if kind == "notes":
            raise BadInput("a notes line may only be the first line")
        if not isinstance(kind, str) or kind not in LINE_FIELDS:
            raise BadInput("unknown line type {kind!r}; valid: {valid}", kind=kind, valid=", ".join(LINE_FIELDS))
        required, optional = LINE_FIELDS[kind]
        _check_keys(kind, data, required, required | optional | {"type"})
        reader = _READERS.get(kind)
        return reader(self, data) if reader is not None else []

    # ---- the lines ----------------------------------------------------------------------------

    def _suggest(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        event = {"type": "suggested", "seat": self._seated(data["seat"]), **self._triple(data)}
        self.suggestion = event
        return [event]

    def _pass(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "passed", "seat": self._answering(data["seat"])}]

    def _show(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        by = self._answering(data["seat"])
        assert self.suggestion is not None  # _answering checked it
        to = self._seated(data["to"]) if "to" in data else self.suggestion["seat"]
        if to == by:
            raise BadInput("{seat} cannot show a card to themselves", seat=by)
        event = {"type": "card_shown", "by": by, "to": to}
        if "card" in data:
            card = self.edition.deck.resolve(data["card"])
            if card not in (self.suggestion["suspect"], self.suggestion["weapon"], self.suggestion["room"]):
                raise BadInput("{card} is not one of the suggestion's cards", card=card)
            event["card"] = card
        elif self.seat in (by, to):
            raise BadInput("show: say which card (\"card\") when the card was shown to you or by you")
        return [event]

    def _accuse(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        correct = data.get("correct", False)
        if not isinstance(correct, bool):
            raise BadInput("accuse correct must be true or false, not {correct!r}", correct=correct)
        self.suggestion = None
        return [{"type": "accused", "seat": self._seated(data["seat"]), **self._triple(data), "correct": correct}]

    def _snoop(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        target = self._seated(data["target"])
        if target == self.seat:
            raise BadInput("snoop: the target is another player, whose card you saw")
        return [{"type": "snooped", "seat": self.seat, "target": target,
                 "card": self.edition.deck.resolve(data["card"])}]

    def _reveal(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        cards = data["cards"]
        if not isinstance(cards, list) or not cards:
            raise BadInput("reveal cards must be a list of cards")
        return [{"type": "hand_revealed", "seat": self._seated(data["seat"]),
                 "cards": [self.edition.deck.resolve(card) for card in cards]}]

    def _solution(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "game_over", "winner": None, "solution": self._triple(data)}]

    # ---- checks -------------------------------------------------------------------------------

    def _seated(self, name: object) -> str:
        return _seat(self.edition, self.seats, name)

    def _answering(self, name: object) -> str:
        seat = self._seated(name)
        if self.suggestion is None:
            raise BadInput("no suggestion is under way: a suggest line comes first")
        if seat == self.suggestion["seat"]:
            raise BadInput("{seat} made the suggestion and does not answer it", seat=seat)
        return seat

    def _triple(self, data: Mapping[str, Any]) -> dict[str, str]:
        return {category: self.edition.deck.resolve(data[category], category) for category in CATEGORIES}


_READERS: dict[str, Callable[[Notes, Mapping[str, Any]], list[dict[str, Any]]]] = {
    "suggest": Notes._suggest,
    "pass": Notes._pass,
    "show": Notes._show,
    "accuse": Notes._accuse,
    "snoop": Notes._snoop,
    "reveal": Notes._reveal,
    "solution": Notes._solution,
}


def _hand_sizes(edition: Edition, seats: tuple[str, ...], face_up: int, aside: int, given: object) -> dict[str, int]:
    """Each seat's hand size: as the edition deals (the first seats get the odd cards), or as given."""
    pile = len(edition.deck.all) - 3 - aside
    if given is not None:
        if not isinstance(given, dict) or not all(isinstance(n, int) and n >= 0 for n in given.values()):
            raise BadInput("hand_sizes must map each seat to a whole number of cards")
        sizes = {_seat(edition, seats, name): count for name, count in given.items()}
        missing = [seat for seat in seats if seat not in sizes]
        if missing:
            raise BadInput("hand_sizes has no size for {seats}", seats=", ".join(missing))
        if sum(sizes.values()) + face_up != pile:
            raise BadInput("hand_sizes add up to {total}, but {cards} cards are in hands", total=sum(sizes.values()),
                           cards=pile - face_up)
        return sizes
    share, left = divmod(pile, len(seats))
    if edition.deal == "all":
        if face_up:
            raise BadInput("{edition} deals every card: no cards lie face up", edition=edition.name)
        return {seat: share + (at < left) for at, seat in enumerate(seats)}
    if face_up != left:
        raise BadInput("{edition} lays {left} leftover card(s) face up with {players} players: list them in face_up",
                       edition=edition.name, left=left, players=len(seats))
    return dict.fromkeys(seats, share)


def _seat(edition: Edition, seats: tuple[str, ...], name: object) -> str:
    try:
        seat = edition.deck.resolve(name, "suspect")
    except ClueError:
        seat = ""
    if seat not in seats:
        raise UnknownSeat("{name!r} is not seated; seats: {seats}", name=name, seats=", ".join(seats))
    return seat


def _check_keys(kind: str, data: Mapping[str, Any], required: set[str], allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed - {"type"})
    if unknown:
        raise BadInput("{kind} has unknown field(s) {fields}", kind=kind, fields=", ".join(map(repr, unknown)))
    missing = sorted(required - set(data))
    if missing:
        raise BadInput("{kind} needs {fields}", kind=kind, fields=", ".join(map(repr, missing)))


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data[name]
    if not isinstance(value, str) or not value.strip():
        raise BadInput("notes {name} must be a non-empty string", name=name)
    return value


def _texts(data: Mapping[str, Any], name: str, default: list[str] | None = None) -> list[str]:
    value = data.get(name, default)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise BadInput("notes {name} must be a list of names", name=name)
    return value
